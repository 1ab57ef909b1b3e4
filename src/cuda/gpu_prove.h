/*
 * The prover's steps around the MSM and the NTT on the GPU, the host side
 * (prove.c; kernels in prove.cuh): the classification of MSM scalars, the
 * sum of the bases whose scalar is one, and the R1CS products a = A·w,
 * b = B·w, c = C·w. (The H chain is in gpu_ntt.h.)
 *
 * Contract: pointers named d_* are device memory; every *_launch call only
 * queues work on stream s and returns; element types and bytes are the
 * CPU's (Montgomery Fr scalars, affine points, XYZZ points).
 */
#ifndef CUZK_CUDA_GPU_PROVE_H
#define CUZK_CUDA_GPU_PROVE_H

#include <stddef.h>
#include <stdint.h>

#include "cuda/gpu.h"
#include "cuda/gpu_msm.h"
#include "cuda/gpu_ntt.h"
#include "msm/msm.h"

/* ---- classification ------------------------------------------------------ */

/* The device totals of a classification (see gpu_msm_classify_launch). */
enum { CUZK_GPU_CLASSIFY_ACC_BYTES = 56 };

/*
 * Classifies n Montgomery-form scalars as src/msm's NAME_msm_classify does:
 * d_cls[i] (n bytes; NULL: not wanted) = CUZK_MSM_ZERO, _ONE or _OTHER;
 * d_bitmap (ceil(n / 32) words; NULL: not wanted) gets bit i % 32 of word
 * i / 32 set iff scalar i is one (bits past n clear), d_other the same for
 * the class other; d_acc (CUZK_GPU_CLASSIFY_ACC_BYTES) receives the
 * totals, which gpu_msm_counts_decode turns into NAME_msm_classify's
 * counts.
 */
cuzk_status_t gpu_msm_classify_launch(gpu_t *g, gpu_curve_t curve, uint8_t *d_cls,
                                      uint32_t *d_bitmap, uint32_t *d_other, void *d_acc,
                                      const void *d_scalars, size_t n, gpu_stream_t s);
/* counts from a host copy of the device totals. */
void gpu_msm_counts_decode(msm_counts_t *counts, const void *acc);
/* The launch, then the counts to the host, waiting for them. */
cuzk_status_t gpu_msm_classify(gpu_t *g, gpu_curve_t curve, uint8_t *d_cls, uint32_t *d_bitmap,
                               const void *d_scalars, size_t n, msm_counts_t *counts,
                               gpu_stream_t s);

/* Device scratch of gpu_bitmap_compact_launch for n bits. */
size_t gpu_bitmap_compact_scratch_bytes(size_t n);
/* d_idx[0..count) = the positions i < n of the set bits of d_bitmap
 * (ceil(n / 32) words, bits past n clear), ascending, and *d_count (one
 * u32 in device memory) = count: the points a sparse MSM runs over
 * (gpu_msm_launch_idx). d_idx holds n entries at most. */
cuzk_status_t gpu_bitmap_compact_launch(gpu_t *g, uint32_t *d_idx, uint32_t *d_count,
                                        const uint32_t *d_bitmap, size_t n, void *d_scratch,
                                        gpu_stream_t s);
/*
 * d_out[0..k) = the Fr elements (32 bytes, in any form: they are copied)
 * d_in[i] at the set bits i < n of d_bitmap (ceil(n / 32) words; bits at
 * and above n are ignored), in ascending i; k = the set bits below n,
 * which the caller knows (d_out holds k elements). d_scratch holds
 * gpu_bitmap_compact_scratch_bytes(n) bytes; d_out and d_in must not
 * overlap. A u64 bitmap (io/asgn_file.h's density bitmaps) is the same
 * bytes as u32 words on the little-endian host and device.
 */
cuzk_status_t gpu_bitmap_select_launch(gpu_t *g, void *d_out, const void *d_in,
                                       const uint32_t *d_bitmap, size_t n, void *d_scratch,
                                       gpu_stream_t s);

/* ---- the sum of the scalar-one bases ------------------------------------- */

/* Device scratch for gpu_msm_sum_ones_launch over n points. */
size_t gpu_msm_ones_scratch_bytes(gpu_group_t grp, size_t n);
/*
 * d_r (one XYZZ point) = Σ d_bases[i] over the bits i set in d_bitmap
 * (ceil(n / 32) words, as the classification writes it): mixed additions
 * over ranges of the bitmap, then two tree levels. d_scratch holds
 * gpu_msm_ones_scratch_bytes(grp, n) bytes. No bit set: infinity.
 */
cuzk_status_t gpu_msm_sum_ones_launch(gpu_t *g, gpu_group_t grp, void *d_r,
                                      const uint32_t *d_bitmap, const void *d_bases, size_t n,
                                      void *d_scratch, gpu_stream_t s);

/* d_scalars[i] = 0 (n scalars) where bit i % 32 of d_bitmap[i / 32] is set:
 * the scalar-one entries, once their bases are summed apart. */
cuzk_status_t gpu_msm_clear_ones_launch(gpu_t *g, gpu_curve_t curve, void *d_scalars,
                                        const uint32_t *d_bitmap, size_t n, gpu_stream_t s);

/* ---- Fr vectors ------------------------------------------------------------ */

/* d_out[i] = d_in[i] ⊗ k for n elements (in place when d_out = d_in): the
 * Montgomery product with the constant k (one Fr element in host memory, as
 * its raw limbs): k = R² mod r takes canonical values to Montgomery form,
 * k = 1 takes Montgomery values to canonical limbs. */
cuzk_status_t gpu_fr_mul_const_launch(gpu_t *g, gpu_curve_t curve, void *d_out, const void *d_in,
                                      size_t n, const void *k, gpu_stream_t s);
/* d_c[i] = d_a[i]·d_b[i] (Montgomery form; d_c may be d_a or d_b). */
cuzk_status_t gpu_fr_mul_launch(gpu_t *g, gpu_curve_t curve, void *d_c, const void *d_a,
                                const void *d_b, size_t n, gpu_stream_t s);

/* ---- R1CS ------------------------------------------------------------------ */

/* A CSR matrix in device memory, src/r1cs's layout (r1cs_tmpl.h): row i is
 * entries [row_ptr[i], row_ptr[i + 1]), val[k] (Montgomery Fr) at col[k]. */
typedef struct gpu_csr {
    size_t n_rows;
    const uint64_t *row_ptr; /* n_rows + 1 */
    const uint32_t *col;
    const void *val;
} gpu_csr_t;

/* d_y (m->n_rows elements) = M·d_w, as NAME_csr_mul_vec, byte for byte. */
cuzk_status_t gpu_csr_mul_vec_launch(gpu_t *g, gpu_curve_t curve, const gpu_csr_t *m,
                                     const void *d_w, void *d_y, gpu_stream_t s);
/* a = A·w, b = B·w, c = C·w, as NAME_r1cs_eval (outputs must not alias w
 * or each other). */
cuzk_status_t gpu_r1cs_eval_launch(gpu_t *g, gpu_curve_t curve, const gpu_csr_t *A,
                                   const gpu_csr_t *B, const gpu_csr_t *C, const void *d_w,
                                   void *d_a, void *d_b, void *d_c, gpu_stream_t s);

#endif
