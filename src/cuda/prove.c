/*
 * The prover's steps around the MSM and the NTT, the host side (contracts
 * in gpu_prove.h, kernels in prove.cuh).
 */
#include "cuda/gpu_prove.h"

#include <assert.h>
#include <string.h>

#include "cuda/gpu_check.h"
#include "cuda/gpu_kernels.h"

static const gpu_curve_kernels_t *curve_kernels(gpu_curve_t curve)
{
    return curve == CUZK_GPU_BLS381 ? &gpu_bls381_kernels : &gpu_bn254_kernels;
}

static const gpu_group_kernels_t *group_kernels(gpu_group_t grp)
{
    switch (grp) {
    case CUZK_GPU_BLS381_G1: return &gpu_bls381_kernels.g1;
    case CUZK_GPU_BLS381_G2: return &gpu_bls381_kernels.g2;
    case CUZK_GPU_BN254_G1: return &gpu_bn254_kernels.g1;
    default: return &gpu_bn254_kernels.g2;
    }
}

/* ---- classification ------------------------------------------------------ */

cuzk_status_t gpu_msm_classify_launch(gpu_t *g, gpu_curve_t curve, uint8_t *d_cls,
                                      uint32_t *d_bitmap, uint32_t *d_other, void *d_acc,
                                      const void *d_scalars, size_t n, gpu_stream_t s)
{
    assert(d_acc && (n == 0 || d_scalars));
    GPU_TRY(g,
            curve_kernels(curve)->msm_classify(d_cls, d_bitmap, d_other, d_acc, d_scalars, n, s));
    return CUZK_OK;
}

size_t gpu_bitmap_compact_scratch_bytes(size_t n)
{
    size_t bytes = 0;
    (void)gpu_bitmap_compact_bytes(&bytes, (n + 31) / 32);
    return bytes;
}

cuzk_status_t gpu_bitmap_compact_launch(gpu_t *g, uint32_t *d_idx, uint32_t *d_count,
                                        const uint32_t *d_bitmap, size_t n, void *d_scratch,
                                        gpu_stream_t s)
{
    size_t words = (n + 31) / 32, bytes = 0;
    GPU_TRY(g, gpu_bitmap_compact_bytes(&bytes, words));
    GPU_TRY(g, gpu_bitmap_compact(d_scratch, bytes, d_idx, d_count, d_bitmap, words, s));
    return CUZK_OK;
}

cuzk_status_t gpu_bitmap_select_launch(gpu_t *g, void *d_out, const void *d_in,
                                       const uint32_t *d_bitmap, size_t n, void *d_scratch,
                                       gpu_stream_t s)
{
    assert(n == 0 || (d_out && d_in && d_bitmap && d_scratch));
    size_t bytes = 0;
    GPU_TRY(g, gpu_bitmap_compact_bytes(&bytes, (n + 31) / 32));
    GPU_TRY(g, gpu_bitmap_select(d_scratch, bytes, d_out, d_in, d_bitmap, n, s));
    return CUZK_OK;
}

void gpu_msm_counts_decode(msm_counts_t *counts, const void *acc)
{
    uint64_t c[3];
    uint32_t or_bits[8];
    memcpy(c, acc, sizeof(c));
    memcpy(or_bits, (const unsigned char *)acc + sizeof(c), sizeof(or_bits));
    *counts = (msm_counts_t){.zero = c[0], .one = c[1], .other = c[2], .bits = 0};
    for (int j = 8; j-- > 0;) {
        if (or_bits[j]) {
            counts->bits = 32 * (unsigned)j + 32 - (unsigned)__builtin_clz(or_bits[j]);
            break;
        }
    }
}

cuzk_status_t gpu_msm_classify(gpu_t *g, gpu_curve_t curve, uint8_t *d_cls, uint32_t *d_bitmap,
                               const void *d_scalars, size_t n, msm_counts_t *counts,
                               gpu_stream_t s)
{
    unsigned char acc[CUZK_GPU_CLASSIFY_ACC_BYTES];
    void *d_acc = NULL;
    cuzk_status_t st = gpu_alloc(g, &d_acc, sizeof(acc));
    if (st != CUZK_OK)
        return st;
    CUZK_GOTO(gpu_msm_classify_launch(g, curve, d_cls, d_bitmap, NULL, d_acc, d_scalars, n, s), st,
              out);
    CUZK_GOTO(gpu_download(g, acc, d_acc, sizeof(acc), s), st, out);
    CUZK_GOTO(gpu_stream_sync(g, s), st, out);
    gpu_msm_counts_decode(counts, acc);
out:
    gpu_free(d_acc);
    return st;
}

/* ---- the sum of the scalar-one bases ------------------------------------- */

/* The first level: T = ONES_GROUPS·m threads, m = ceil(words / ONES_GROUPS)
 * clamped to [1, ONES_PER_GROUP], each over `per` bitmap words; then
 * ONES_GROUPS blocks of m partial sums, then one block of ONES_GROUPS.
 * 2^18 threads at most: several waves of the G1 and G2 addition kernels on
 * an H200 (132 SMs), so that the last wave's tail is short; a quarter of
 * that left the SMs a third empty in a second wave. */
enum { ONES_GROUPS = 256, ONES_PER_GROUP = 1024 };

typedef struct {
    size_t words, m, T, per;
} ones_plan_t;

static ones_plan_t ones_plan(size_t n)
{
    ones_plan_t p;
    p.words = (n + 31) / 32;
    p.m = (p.words + ONES_GROUPS - 1) / ONES_GROUPS;
    p.m = p.m < 1 ? 1 : p.m > ONES_PER_GROUP ? ONES_PER_GROUP : p.m;
    p.T = ONES_GROUPS * p.m;
    p.per = (p.words + p.T - 1) / p.T;
    return p;
}

size_t gpu_msm_ones_scratch_bytes(gpu_group_t grp, size_t n)
{
    return (ones_plan(n).T + ONES_GROUPS) * gpu_xyzz_bytes(grp);
}

cuzk_status_t gpu_msm_sum_ones_launch(gpu_t *g, gpu_group_t grp, void *d_r,
                                      const uint32_t *d_bitmap, const void *d_bases, size_t n,
                                      void *d_scratch, gpu_stream_t s)
{
    assert(d_r && d_scratch && (n == 0 || (d_bitmap && d_bases)));
    const gpu_group_kernels_t *k = group_kernels(grp);
    ones_plan_t p = ones_plan(n);
    unsigned char *part = d_scratch, *mid = part + p.T * k->xyzz_bytes;
    GPU_TRY(g, k->msm_ones_partial(part, d_bitmap, d_bases, p.words, p.per, p.T, s));
    GPU_TRY(g, k->msm_reduce_windows(mid, part, p.m, ONES_GROUPS, s));
    GPU_TRY(g, k->msm_reduce_windows(d_r, mid, ONES_GROUPS, 1, s));
    return CUZK_OK;
}

cuzk_status_t gpu_msm_clear_ones_launch(gpu_t *g, gpu_curve_t curve, void *d_scalars,
                                        const uint32_t *d_bitmap, size_t n, gpu_stream_t s)
{
    GPU_TRY(g, curve_kernels(curve)->clear_marked(d_scalars, d_bitmap, n, s));
    return CUZK_OK;
}

/* ---- Fr vectors ------------------------------------------------------------ */

cuzk_status_t gpu_fr_mul_const_launch(gpu_t *g, gpu_curve_t curve, void *d_out, const void *d_in,
                                      size_t n, const void *k, gpu_stream_t s)
{
    GPU_TRY(g, curve_kernels(curve)->fr_mul_const(d_out, d_in, n, k, s));
    return CUZK_OK;
}

cuzk_status_t gpu_fr_mul_launch(gpu_t *g, gpu_curve_t curve, void *d_c, const void *d_a,
                                const void *d_b, size_t n, gpu_stream_t s)
{
    if (n == 0)
        return CUZK_OK;
    GPU_TRY(g, curve_kernels(curve)->fr.batch(d_c, d_a, d_b, n, CUZK_GPU_FOP_MUL, s));
    return CUZK_OK;
}

/* ---- R1CS ------------------------------------------------------------------ */

cuzk_status_t gpu_csr_mul_vec_launch(gpu_t *g, gpu_curve_t curve, const gpu_csr_t *m,
                                     const void *d_w, void *d_y, gpu_stream_t s)
{
    assert(m && (m->n_rows == 0 || (m->row_ptr && d_y)));
    GPU_TRY(g,
            curve_kernels(curve)->r1cs_mul_vec(d_y, m->row_ptr, m->col, m->val, d_w, m->n_rows, s));
    return CUZK_OK;
}

cuzk_status_t gpu_r1cs_eval_launch(gpu_t *g, gpu_curve_t curve, const gpu_csr_t *A,
                                   const gpu_csr_t *B, const gpu_csr_t *C, const void *d_w,
                                   void *d_a, void *d_b, void *d_c, gpu_stream_t s)
{
    CUZK_TRY(gpu_csr_mul_vec_launch(g, curve, A, d_w, d_a, s));
    CUZK_TRY(gpu_csr_mul_vec_launch(g, curve, B, d_w, d_b, s));
    return gpu_csr_mul_vec_launch(g, curve, C, d_w, d_c, s);
}
