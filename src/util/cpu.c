#include "util/cpu.h"

#include <stdlib.h>

bool cuzk_cpu_has_mulx_adx = false;

__attribute__((constructor)) static void cuzk_cpu_detect(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    const char *no_asm = getenv("CUZK_NO_ASM");
    bool forced_off = no_asm && no_asm[0] && no_asm[0] != '0';
    cuzk_cpu_has_mulx_adx =
        !forced_off && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx");
#endif
}

const char *cuzk_cpu_arith_path(void)
{
    return cuzk_cpu_has_mulx_adx ? "mulx/adx" : "portable";
}
