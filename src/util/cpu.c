#include "util/cpu.h"

#include <stdlib.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

bool cpu_has_mulx_adx = false;
bool cpu_has_ifma = false;
bool cpu_has_avx2 = false;

/* Whether the operating system has enabled XSAVE (CPUID leaf 1 ECX bit
 * 27) and saves every state component of `state` (XCR0 bits). */
static bool cpu_os_saves(unsigned state)
{
#if defined(__x86_64__)
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx >> 27 & 1))
        return false;
    unsigned xlo, xhi;
    __asm__("xgetbv" : "=a"(xlo), "=d"(xhi) : "c"(0));
    return (xlo & state) == state;
#else
    (void)state;
    return false;
#endif
}

/* CPUID leaf 7 EBX (0 where there is none). */
static unsigned cpu_leaf7_ebx(void)
{
#if defined(__x86_64__)
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
        return ebx;
#endif
    return 0;
}

/* AVX-512F is CPUID leaf 7 EBX bit 16, IFMA bit 21; the OS must save the
 * SSE, AVX, opmask and both halves of the ZMM state (XCR0 bits 1, 2, 5,
 * 6, 7). */
bool cpu_supports_ifma(void)
{
    unsigned ebx = cpu_leaf7_ebx();
    return (ebx >> 16 & 1) && (ebx >> 21 & 1) && cpu_os_saves(0xe6);
}

/* AVX2 is CPUID leaf 7 EBX bit 5; the OS must save the SSE and AVX state
 * (XCR0 bits 1 and 2). */
bool cpu_supports_avx2(void)
{
    return (cpu_leaf7_ebx() >> 5 & 1) && cpu_os_saves(0x6);
}

/* BMI2 (MULX) is CPUID leaf 7 EBX bit 8, ADX (ADCX/ADOX) bit 19. Read with
 * cpuid directly: not every compiler's __builtin_cpu_supports knows "adx". */
bool cpu_supports_mulx_adx(void)
{
    unsigned ebx = cpu_leaf7_ebx();
    return (ebx >> 8 & 1) && (ebx >> 19 & 1);
}

static bool env_set(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] && v[0] != '0';
}

__attribute__((constructor)) static void cpu_detect(void)
{
    bool no_asm = env_set("CUZK_NO_ASM");
    cpu_has_mulx_adx = !no_asm && cpu_supports_mulx_adx();
    cpu_has_ifma = !no_asm && !env_set("CUZK_NO_IFMA") && cpu_supports_ifma();
    cpu_has_avx2 = !no_asm && !env_set("CUZK_NO_AVX2") && cpu_supports_avx2();
}

const char *cpu_arith_path(void)
{
    static const char *const paths[2][3] = {{"portable", "portable + avx2", "portable + ifma"},
                                            {"mulx/adx", "mulx/adx + avx2", "mulx/adx + ifma"}};
    return paths[cpu_has_mulx_adx][cpu_has_ifma ? 2 : cpu_has_avx2 ? 1 : 0];
}
