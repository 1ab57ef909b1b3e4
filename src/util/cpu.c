#include "util/cpu.h"

#include <stdlib.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

bool cpu_has_mulx_adx = false;
bool cpu_has_ifma = false;

/* BMI2 (MULX) is CPUID leaf 7 EBX bit 8, ADX (ADCX/ADOX) bit 19. Read with
 * cpuid directly: not every compiler's __builtin_cpu_supports knows "adx". */
bool cpu_supports_mulx_adx(void)
{
#if defined(__x86_64__)
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
        return (ebx >> 8 & 1) && (ebx >> 19 & 1);
#endif
    return false;
}

/* AVX-512F is CPUID leaf 7 EBX bit 16, IFMA bit 21; the OS must have
 * enabled XSAVE (leaf 1 ECX bit 27) and save the SSE, AVX, opmask and both
 * halves of the ZMM state (XCR0 bits 1, 2, 5, 6, 7). */
bool cpu_supports_ifma(void)
{
#if defined(__x86_64__)
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx >> 27 & 1))
        return false;
    unsigned xlo, xhi;
    __asm__("xgetbv" : "=a"(xlo), "=d"(xhi) : "c"(0));
    if ((xlo & 0xe6) != 0xe6)
        return false;
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
        return (ebx >> 16 & 1) && (ebx >> 21 & 1);
#endif
    return false;
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
}

const char *cpu_arith_path(void)
{
    if (cpu_has_mulx_adx)
        return cpu_has_ifma ? "mulx/adx + ifma" : "mulx/adx";
    return cpu_has_ifma ? "portable + ifma" : "portable";
}
