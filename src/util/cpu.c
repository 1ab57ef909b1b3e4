#include "util/cpu.h"

#include <stdlib.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

bool cuzk_cpu_has_mulx_adx = false;

/* BMI2 (MULX) is CPUID leaf 7 EBX bit 8, ADX (ADCX/ADOX) bit 19. Read with
 * cpuid directly: not every compiler's __builtin_cpu_supports knows "adx". */
bool cuzk_cpu_supports_mulx_adx(void)
{
#if defined(__x86_64__)
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
        return (ebx >> 8 & 1) && (ebx >> 19 & 1);
#endif
    return false;
}

__attribute__((constructor)) static void cuzk_cpu_detect(void)
{
    const char *no_asm = getenv("CUZK_NO_ASM");
    bool forced_off = no_asm && no_asm[0] && no_asm[0] != '0';
    cuzk_cpu_has_mulx_adx = !forced_off && cuzk_cpu_supports_mulx_adx();
}

const char *cuzk_cpu_arith_path(void)
{
    return cuzk_cpu_has_mulx_adx ? "mulx/adx" : "portable";
}
