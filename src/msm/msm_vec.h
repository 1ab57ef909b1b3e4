/*
 * The batch-affine additions of the MSMs, eight lanes at a time: with
 * AVX-512 IFMA (ff/fpv_tmpl.h; G1 and G2 of both curves, NAME_..._ifma) or
 * with AVX2 (ff/fpy_tmpl.h; BN254's G1 and G2, NAME_..._avx2). x86-64 only;
 * call the first only when cpu_has_ifma (util/cpu.h) is set, the second
 * only when cpu_has_avx2 is. BLS12-381 has no AVX2 kernel: its 14-limb
 * vector product is no faster than the scalar MULX/ADX one
 * (docs/PERFORMANCE.md, 2026-12-07).
 *
 * One call finishes a batch the MSM has prepared (msm_pass_tmpl_impl.h,
 * msm_batch_flush_): for e < k, with λ = num[e]/den[e],
 *     x3 = λ^2 - b[e].x - x2[e],  y3 = λ(b[e].x - x3) - b[e].y,
 *     b[e] = (x3, y3).
 * That is b[e] + Q_e for Q_e = (x2[e], y) when num[e] = y - b[e].y and
 * den[e] = x2[e] - b[e].x, and 2·b[e] when x2[e] = b[e].x, num[e] = 3x^2
 * and den[e] = 2y. Inputs: den[e] != 0, every field element fully reduced
 * (the scalar field's contract), the b[e] distinct and not aliasing num,
 * den or the x2[e]. Output: b[e] fully reduced, the same bytes as the
 * scalar formulas give. num and den are read only.
 *
 * The inversions are Montgomery's trick in four interleaved chains of
 * eight lanes (32 independent products in flight), one scalar inversion
 * of the eight lanes' totals. Per G1 addition 6 vector multiplications
 * (prefix, two back-sweep, λ, λ^2, λ·(x1 - x3)) against 6 scalar ones,
 * and two SH-bit reductions on the way back (FPV(unshift)); per G2
 * addition 6 Fp2 products of 4 Fp products each, and 10 products on the
 * way in (G2's loads are brought near p, see msm_vec_impl.h). The AVX2
 * kernels do the same in radix 2^29.
 *
 * scratch: NAME_msm_batch_ISA_scratch(k) bytes, 64-byte aligned, owned by
 * the caller.
 */
#ifndef CUZK_MSM_MSM_VEC_H
#define CUZK_MSM_MSM_VEC_H

#include <stddef.h>

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"

#if defined(__x86_64__)
#define CUZK_MSM_HAVE_IFMA 1
#define CUZK_MSM_HAVE_AVX2 1

size_t bn254_g1_msm_batch_avx2_scratch(size_t k);
void bn254_g1_msm_batch_avx2(bn254_g1_affine_t *const *b, const bn254_fp_t *const *x2,
                             const bn254_fp_t *num, const bn254_fp_t *den, size_t k, void *scratch);

size_t bn254_g2_msm_batch_avx2_scratch(size_t k);
void bn254_g2_msm_batch_avx2(bn254_g2_affine_t *const *b, const bn254_fp2_t *const *x2,
                             const bn254_fp2_t *num, const bn254_fp2_t *den, size_t k,
                             void *scratch);

size_t bn254_g1_msm_batch_ifma_scratch(size_t k);
void bn254_g1_msm_batch_ifma(bn254_g1_affine_t *const *b, const bn254_fp_t *const *x2,
                             const bn254_fp_t *num, const bn254_fp_t *den, size_t k, void *scratch);

size_t bls381_g1_msm_batch_ifma_scratch(size_t k);
void bls381_g1_msm_batch_ifma(bls381_g1_affine_t *const *b, const bls381_fp_t *const *x2,
                              const bls381_fp_t *num, const bls381_fp_t *den, size_t k,
                              void *scratch);

size_t bn254_g2_msm_batch_ifma_scratch(size_t k);
void bn254_g2_msm_batch_ifma(bn254_g2_affine_t *const *b, const bn254_fp2_t *const *x2,
                             const bn254_fp2_t *num, const bn254_fp2_t *den, size_t k,
                             void *scratch);

size_t bls381_g2_msm_batch_ifma_scratch(size_t k);
void bls381_g2_msm_batch_ifma(bls381_g2_affine_t *const *b, const bls381_fp2_t *const *x2,
                              const bls381_fp2_t *num, const bls381_fp2_t *den, size_t k,
                              void *scratch);
#endif

#endif
