/*
 * What the processor can do, decided once, before main() runs.
 *
 * The field kernels read cpu_has_mulx_adx to pick the MULX/ADX
 * Montgomery multiplication over the portable one, so a build for generic
 * x86-64 (or any other processor) never executes an instruction the machine
 * lacks. Set CUZK_NO_ASM=1 in the environment to force the portable path.
 *
 * cpu_has_ifma picks the eight-lane AVX-512 IFMA kernels where they
 * exist (the MSM's batch-affine additions, msm/msm_vec.h): set when the
 * processor has AVX-512F and IFMA and the operating system saves the
 * 512-bit registers. CUZK_NO_ASM=1 or CUZK_NO_IFMA=1 clears it.
 *
 * cpu_has_avx2 picks the eight-lane AVX2 kernels (ff/fpy_tmpl.h) where
 * there is no IFMA: IFMA first where both are set, then AVX2, then the
 * scalar code. CUZK_NO_ASM=1 or CUZK_NO_AVX2=1 clears it.
 */
#ifndef CUZK_UTIL_CPU_H
#define CUZK_UTIL_CPU_H

#include <stdbool.h>

extern bool cpu_has_mulx_adx;

/* Whether the processor itself has MULX and ADX, whatever CUZK_NO_ASM says
 * (tests use it to exercise both kernels in one run). */
bool cpu_supports_mulx_adx(void);

extern bool cpu_has_ifma;

/* Whether the processor and the operating system allow AVX-512 IFMA,
 * whatever CUZK_NO_ASM and CUZK_NO_IFMA say. */
bool cpu_supports_ifma(void);

extern bool cpu_has_avx2;

/* Whether the processor and the operating system allow AVX2, whatever
 * CUZK_NO_ASM and CUZK_NO_AVX2 say. */
bool cpu_supports_avx2(void);

/* A short description of the arithmetic path in use ("mulx/adx + ifma",
 * "mulx/adx + avx2", "mulx/adx", "portable"). */
const char *cpu_arith_path(void);

#endif
