/*
 * What the processor can do, decided once, before main() runs.
 *
 * The field kernels read cuzk_cpu_has_mulx_adx to pick the MULX/ADX
 * Montgomery multiplication over the portable one, so a build for generic
 * x86-64 (or any other processor) never executes an instruction the machine
 * lacks. Set CUZK_NO_ASM=1 in the environment to force the portable path.
 */
#ifndef CUZK_UTIL_CPU_H
#define CUZK_UTIL_CPU_H

#include <stdbool.h>

extern bool cuzk_cpu_has_mulx_adx;

/* Whether the processor itself has MULX and ADX, whatever CUZK_NO_ASM says
 * (tests use it to exercise both kernels in one run). */
bool cuzk_cpu_supports_mulx_adx(void);

/* A short description of the arithmetic path in use ("mulx/adx", "portable"). */
const char *cuzk_cpu_arith_path(void);

#endif
