/*
 * The launchers of one curve's kernels and the table that exports them to C
 * (gpu_kernels.h). Included once by each curve's translation unit
 * (bls381.cu, bn254.cu), which instantiates curve_table<Fp, Fr, G1's field>:
 * one translation unit per curve keeps each compilation to the templates
 * that curve needs.
 */
#ifndef CUZK_CUDA_KERNELS_CUH
#define CUZK_CUDA_KERNELS_CUH

#include <cuda_runtime.h>

#include "cuda/ec.cuh"
#include "cuda/gpu_kernels.h"
#include "cuda/inv.cuh"
#include "cuda/msm.cuh"
#include "cuda/ntt.cuh"
#include "cuda/prove.cuh"

namespace cuzk
{

/* Blocks for `work` items at `threads` a block; kernels are grid-stride,
 * so the cap only bounds the launch, not what it covers. */
static inline unsigned grid_for(size_t work, unsigned threads)
{
    size_t b = (work + threads - 1) / threads;
    return (unsigned)(b == 0 ? 1 : b > (1u << 20) ? (1u << 20) : b);
}

/* ---- arithmetic tests ------------------------------------------------- */

template <class F>
__global__ void field_batch_kernel(F *r, const F *a, const F *b, size_t n, int op)
{
    CUZK_GRID_STRIDE(i, n)
    {
        F x = a[i], y = b[i], z;
        switch (op) {
        case CUZK_GPU_FOP_MUL: f_mul(z, x, y); break;
        case CUZK_GPU_FOP_SQR: f_sqr(z, x); break;
        case CUZK_GPU_FOP_ADD: f_add(z, x, y); break;
        case CUZK_GPU_FOP_SUB: f_sub(z, x, y); break;
        case CUZK_GPU_FOP_DBL: f_dbl(z, x); break;
        case CUZK_GPU_FOP_INV: f_inv_vartime(z, x); break;
        default: f_neg(z, x); break;
        }
        r[i] = z;
    }
}

template <class F>
__global__ void ec_batch_kernel(xyzz_t<F> *r, const affine_t<F> *p, const affine_t<F> *q, size_t n,
                                int op)
{
    CUZK_GRID_STRIDE(i, n)
    {
        xyzz_t<F> x, y;
        xyzz_from_affine(x, p[i]);
        if (op != CUZK_GPU_EOP_MADD)
            xyzz_dbl(x, x);
        if (op == CUZK_GPU_EOP_ADD) {
            xyzz_from_affine(y, q[i]);
            xyzz_dbl(y, y);
            xyzz_add(x, x, y);
        } else {
            xyzz_add_affine(x, x, q[i]);
        }
        r[i] = x;
    }
}

/* ---- throughput probes (cuzk_gpu_bench) --------------------------------- */

/* The multiplication the kernels use: the call for a prime field, Fp2's
 * own (made of calls) for Fp2. */
template <class P>
__device__ __forceinline__ void probe_mul_(fp_t<P> &r, const fp_t<P> &a, const fp_t<P> &b)
{
    r = f_mul_call<P>(a, b);
}
template <class P>
__device__ __forceinline__ void probe_mul_(fp2_t<P> &r, const fp2_t<P> &a, const fp2_t<P> &b)
{
    f_mul<P>(r, a, b);
}

template <class F>
__global__ void mul_probe_kernel(F *r, const F *a, size_t n, size_t threads, unsigned iters)
{
    CUZK_GRID_STRIDE(i, threads)
    {
        F x = a[i % n], y = a[(i + 1) % n];
        for (unsigned k = 0; k < iters; k++) {
            probe_mul_(x, x, y);
            probe_mul_(y, y, x);
        }
        f_add(x, x, y);
        r[i] = x;
    }
}

template <class F>
__global__ void __launch_bounds__(128, msm_min_blocks<F>())
    madd_probe_kernel(xyzz_t<F> *r, const affine_t<F> *p, const affine_t<F> *q, size_t n,
                      size_t threads, unsigned iters)
{
    CUZK_GRID_STRIDE(i, threads)
    {
        xyzz_t<F> acc;
        affine_t<F> b;
        xyzz_from_affine(acc, p[i % n]);
        ld_vec(b, &q[i % n]);
        for (unsigned k = 0; k < iters; k++)
            xyzz_add_affine(acc, acc, b);
        r[i] = acc;
    }
}

/*
 * Batch-affine probe: what a bucket kernel adding in affine form would pay.
 * Each thread keeps K affine accumulators in local memory (a thread walking
 * K runs at once) and, each of `iters` steps, adds to every one a point of
 * bases at a pseudo-random index (the sorted pairs' gather), with one
 * inversion for the K denominators d_k = x_q - x_k (Montgomery's trick):
 * forward the running products d_0···d_k, stored; one inversion of the
 * last; backward each 1/d_k = inv·(d_0···d_(k-1)) and inv·d_k for the next.
 * An addition is then 3M of the trick, λ = (y_q - y)/d_k (1M), x3 = λ² -
 * x - x_q (1S), y3 = λ(x - x3) - y (1M), and 1/K of an inversion (inv.cuh:
 * Fermat's, or the binary GCD when VT). Random points: no d_k is 0 (a real
 * kernel would take doublings and infinity apart). r[i·K + k] =
 * accumulator k of thread i; gpu_baff_probe_next gives the indices, for
 * the CPU to replay.
 */
template <class F, int K, bool VT>
__global__ void __launch_bounds__(128, msm_min_blocks<F>())
    baff_probe_kernel(affine_t<F> *r, const affine_t<F> *bases, size_t n, size_t threads,
                      unsigned iters)
{
    CUZK_GRID_STRIDE(i, threads)
    {
        affine_t<F> acc[K];
        F pre[K];
        uint32_t idx[K], h = (uint32_t)i * 2654435761u;
#pragma unroll 1
        for (int k = 0; k < K; k++)
            ld_vec(acc[k], &bases[(i * K + k) % n]);
#pragma unroll 1
        for (unsigned s = 0; s < iters; s++) {
            F run;
#pragma unroll 1
            for (int k = 0; k < K; k++) {
                h = gpu_baff_probe_next(h);
                idx[k] = (uint32_t)(h % n);
                F qx, d;
                ld_vec(qx, &bases[idx[k]].x);
                f_sub(d, qx, acc[k].x);
                if (k == 0)
                    run = d;
                else
                    f_mul(run, run, d);
                pre[k] = run;
            }
            F inv;
            if (VT)
                f_inv_vartime(inv, run);
            else
                f_inv(inv, run);
#pragma unroll 1
            for (int k = K - 1; k >= 0; k--) {
                affine_t<F> q, a = acc[k];
                ld_vec(q, &bases[idx[k]]);
                F d, dinv, lam, t, x3;
                f_sub(d, q.x, a.x);
                if (k > 0) {
                    f_mul(dinv, inv, pre[k - 1]); /* 1/d_k */
                    f_mul(inv, inv, d);           /* 1/(d_0···d_(k-1)) */
                } else {
                    dinv = inv;
                }
                f_sub(t, q.y, a.y);
                f_mul(lam, t, dinv); /* λ = (y_q - y)/d_k */
                f_sqr(x3, lam);      /* x3 = λ² - x - x_q */
                f_sub(x3, x3, a.x);
                f_sub(x3, x3, q.x);
                f_sub(t, a.x, x3); /* y3 = λ(x - x3) - y */
                f_mul(t, lam, t);
                f_sub(a.y, t, a.y);
                a.x = x3;
                acc[k] = a;
            }
        }
#pragma unroll 1
        for (int k = 0; k < K; k++)
            r[i * K + k] = acc[k];
    }
}

template <class F, bool VT>
int baff_probe_(affine_t<F> *r, const affine_t<F> *b, size_t n, size_t threads, unsigned k,
                unsigned iters, gpu_stream_t s)
{
    const unsigned g = grid_for(threads, 128);
    switch (k) {
    case 1: baff_probe_kernel<F, 1, VT><<<g, 128, 0, s>>>(r, b, n, threads, iters); break;
    case 16: baff_probe_kernel<F, 16, VT><<<g, 128, 0, s>>>(r, b, n, threads, iters); break;
    case 64: baff_probe_kernel<F, 64, VT><<<g, 128, 0, s>>>(r, b, n, threads, iters); break;
    case 256: baff_probe_kernel<F, 256, VT><<<g, 128, 0, s>>>(r, b, n, threads, iters); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* K in {1, 16, 64, 256}: the fit of a + b/K per addition takes two, the
 * others check it. */
template <class F>
int baff_probe(void *r, const void *bases, size_t n, size_t threads, unsigned k, bool vartime,
               unsigned iters, gpu_stream_t s)
{
    affine_t<F> *rr = (affine_t<F> *)r;
    const affine_t<F> *b = (const affine_t<F> *)bases;
    return vartime ? baff_probe_<F, true>(rr, b, n, threads, k, iters, s)
                   : baff_probe_<F, false>(rr, b, n, threads, k, iters, s);
}

template <class F>
int mul_probe(void *r, const void *a, size_t n, size_t threads, unsigned iters, gpu_stream_t s)
{
    mul_probe_kernel<F>
        <<<grid_for(threads, 256), 256, 0, s>>>((F *)r, (const F *)a, n, threads, iters);
    return cudaGetLastError();
}

template <class F>
int madd_probe(void *r, const void *p, const void *q, size_t n, size_t threads, unsigned iters,
               gpu_stream_t s)
{
    madd_probe_kernel<F><<<grid_for(threads, 128), 128, 0, s>>>(
        (xyzz_t<F> *)r, (const affine_t<F> *)p, (const affine_t<F> *)q, n, threads, iters);
    return cudaGetLastError();
}

template <class F>
int field_batch(void *r, const void *a, const void *b, size_t n, gpu_fop_t op, gpu_stream_t s)
{
    if (n == 0)
        return cudaSuccess;
    field_batch_kernel<F>
        <<<grid_for(n, 256), 256, 0, s>>>((F *)r, (const F *)a, (const F *)b, n, (int)op);
    return cudaGetLastError();
}

template <class F>
int ec_batch(void *r, const void *p, const void *q, size_t n, gpu_eop_t op, gpu_stream_t s)
{
    if (n == 0)
        return cudaSuccess;
    ec_batch_kernel<F><<<grid_for(n, 128), 128, 0, s>>>((xyzz_t<F> *)r, (const affine_t<F> *)p,
                                                        (const affine_t<F> *)q, n, (int)op);
    return cudaGetLastError();
}

/* ---- MSM --------------------------------------------------------------- */

template <class R>
int msm_digits(uint32_t *keys, uint32_t *vals, const void *scalars, const uint32_t *idx, size_t n,
               unsigned c, unsigned W, bool mont, uint32_t bias, gpu_stream_t s)
{
    if (n == 0)
        return cudaSuccess;
    msm_digits_kernel<R><<<grid_for(n, 256), 256, 0, s>>>(keys, vals, (const fp_t<R> *)scalars, idx,
                                                          n, c, W, mont, bias);
    return cudaGetLastError();
}

template <class F>
int msm_buckets(void *buckets, void *part, const uint32_t *keys, const uint32_t *vals,
                const uint32_t *start, const uint32_t *end, const void *bases, size_t n, unsigned c,
                unsigned W, size_t chunk, gpu_stream_t s)
{
    size_t work = (size_t)W * ((n + chunk - 1) / chunk);
    if (work == 0)
        return cudaSuccess;
    xyzz_t<F> *b = (xyzz_t<F> *)buckets, *p = (xyzz_t<F> *)part;
    msm_buckets_kernel<F><<<grid_for(work, 128), 128, 0, s>>>(
        b, p, keys, vals, start, end, (const affine_t<F> *)bases, n, c, W, chunk);
    int e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    msm_fixup_kernel<F><<<grid_for(work, 128), 128, 0, s>>>(b, p, keys, start, end, n, c, W, chunk);
    return cudaGetLastError();
}

template <class F>
int msm_reduce_segments(void *seg, const void *buckets, unsigned c, unsigned W, unsigned seg_log,
                        gpu_stream_t s)
{
    size_t work = ((size_t)W << (c - 1)) >> seg_log;
    msm_reduce_segments_kernel<F><<<grid_for(work, 128), 128, 0, s>>>(
        (xyzz_t<F> *)seg, (const xyzz_t<F> *)buckets, c, W, seg_log);
    return cudaGetLastError();
}

template <class F>
int msm_reduce_windows(void *win, const void *seg, size_t G, unsigned W, gpu_stream_t s)
{
    msm_reduce_windows_kernel<F>
        <<<W, MSM_REDUCE_THREADS, 0, s>>>((xyzz_t<F> *)win, (const xyzz_t<F> *)seg, G);
    return cudaGetLastError();
}

template <class F> int msm_merge(void *buckets, const void *fresh, size_t count, gpu_stream_t s)
{
    if (count == 0)
        return cudaSuccess;
    msm_merge_kernel<F><<<grid_for(count, 128), 128, 0, s>>>((xyzz_t<F> *)buckets,
                                                             (const xyzz_t<F> *)fresh, count);
    return cudaGetLastError();
}

template <class F> int msm_combine(void *r, const void *win, unsigned c, unsigned W, gpu_stream_t s)
{
    msm_combine_kernel<F><<<1, 1, 0, s>>>((xyzz_t<F> *)r, (const xyzz_t<F> *)win, c, W);
    return cudaGetLastError();
}

/* ---- NTT --------------------------------------------------------------- */

template <class P>
int ntt_pow_table(void *out, const void *base, uint64_t step, const void *f, size_t count,
                  gpu_stream_t s)
{
    if (count == 0)
        return cudaSuccess;
    ntt_pow_table_kernel<P><<<grid_for(count, 256), 256, 0, s>>>(
        (fp_t<P> *)out, (const fp_t<P> *)base, step, (const fp_t<P> *)f, count);
    return cudaGetLastError();
}

template <class P>
int ntt_mul_tables(void *out, const void *lo, const void *hi, unsigned b, size_t count,
                   gpu_stream_t s)
{
    if (count == 0)
        return cudaSuccess;
    ntt_mul_tables_kernel<P><<<grid_for(count, 256), 256, 0, s>>>(
        (fp_t<P> *)out, (const fp_t<P> *)lo, (const fp_t<P> *)hi, b, count);
    return cudaGetLastError();
}

template <class P> int ntt_tws(void *tws, const void *w, unsigned log2n, unsigned m, gpu_stream_t s)
{
    ntt_tws_kernel<P>
        <<<grid_for(m, 256), 256, 0, s>>>((fp_t<P> *)tws, (const fp_t<P> *)w, log2n, m);
    return cudaGetLastError();
}

template <class P> int ntt_inv(void *r, const void *a, gpu_stream_t s)
{
    ntt_inv_kernel<P><<<1, 1, 0, s>>>((fp_t<P> *)r, (const fp_t<P> *)a);
    return cudaGetLastError();
}

template <class P>
int ntt_gather(void *out, const void *in, unsigned shift, size_t count, gpu_stream_t s)
{
    if (count == 0)
        return cudaSuccess;
    ntt_gather_kernel<P>
        <<<grid_for(count, 256), 256, 0, s>>>((fp_t<P> *)out, (const fp_t<P> *)in, shift, count);
    return cudaGetLastError();
}

template <class P, bool DIT>
static void ntt_radix_launch(fp_t<P> *x, const fp_t<P> *t, const fp_t<P> *st, unsigned log2n,
                             unsigned lh, unsigned radix, bool inv, gpu_stream_t s)
{
    size_t groups = (size_t)1 << (log2n - radix);
    constexpr unsigned T = NTT_RADIX_THREADS, T8 = NTT_RADIX8_THREADS;
    if (radix == 3) /* not grid-stride: a thread for every half group */
        ntt_radix8_kernel<P, DIT>
            <<<(unsigned)((groups * 2 + T8 - 1) / T8), T8, 0, s>>>(x, t, st, log2n, lh, inv);
    else if (radix == 2)
        ntt_radix_kernel<P, 2, DIT><<<grid_for(groups, T), T, 0, s>>>(x, t, st, log2n, lh, inv);
    else
        ntt_radix_kernel<P, 1, DIT><<<grid_for(groups, T), T, 0, s>>>(x, t, st, log2n, lh, inv);
}

template <class P>
int ntt_radix(void *a, const void *tw, const void *stw, unsigned log2n, unsigned lh, unsigned radix,
              bool inverse, bool dit, gpu_stream_t s)
{
    fp_t<P> *x = (fp_t<P> *)a;
    const fp_t<P> *t = (const fp_t<P> *)tw, *st = (const fp_t<P> *)stw;
    if (dit)
        ntt_radix_launch<P, true>(x, t, st, log2n, lh, radix, inverse, s);
    else
        ntt_radix_launch<P, false>(x, t, st, log2n, lh, radix, inverse, s);
    return cudaGetLastError();
}

template <class P>
int ntt_block(void *a, const void *tws, unsigned log2n, unsigned lm, bool dit, gpu_stream_t s)
{
    unsigned m = 1u << lm, threads = m / 4 < NTT_BLOCK_THREADS ? m / 4 : NTT_BLOCK_THREADS;
    threads = threads ? threads : 1;
    unsigned blocks = (unsigned)((size_t)1 << (log2n - lm));
    size_t shared = P::N * 4 * m;
    fp_t<P> *x = (fp_t<P> *)a;
    const fp_t<P> *t = (const fp_t<P> *)tws;
    const bool whole = lm == CUZK_GPU_NTT_BLOCK_LOG; /* threads == NTT_BLOCK_THREADS */
    if (dit && whole)
        ntt_block_kernel<P, true, CUZK_GPU_NTT_BLOCK_LOG><<<blocks, threads, shared, s>>>(x, t, lm);
    else if (dit)
        ntt_block_kernel<P, true, 0><<<blocks, threads, shared, s>>>(x, t, lm);
    else if (whole)
        ntt_block_kernel<P, false, CUZK_GPU_NTT_BLOCK_LOG>
            <<<blocks, threads, shared, s>>>(x, t, lm);
    else
        ntt_block_kernel<P, false, 0><<<blocks, threads, shared, s>>>(x, t, lm);
    return cudaGetLastError();
}

template <class P>
int ntt_permute(void *a, unsigned log2n, const void *lo, const void *hi, unsigned b,
                const void *sub, const void *f, gpu_stream_t s)
{
    unsigned t = log2n / 2 < NTT_REV_LOG ? log2n / 2 : NTT_REV_LOG;
    unsigned blocks = 1u << (log2n - 2 * t);
    const fp_t<P> *lp = (const fp_t<P> *)lo, *hp = (const fp_t<P> *)hi;
    if (sub)
        ntt_bitrev_kernel<P, true><<<blocks, NTT_REV_THREADS, 0, s>>>(
            (fp_t<P> *)a, log2n, t, lp, hp, b, (const fp_t<P> *)sub, (const fp_t<P> *)f);
    else
        ntt_bitrev_kernel<P, false>
            <<<blocks, NTT_REV_THREADS, 0, s>>>((fp_t<P> *)a, log2n, t, lp, hp, b, NULL, NULL);
    return cudaGetLastError();
}

template <class P>
int ntt_scale(void *a, unsigned log2n, const void *lo, const void *hi, unsigned b, bool rev,
              gpu_stream_t s)
{
    ntt_scale_kernel<P><<<grid_for((size_t)1 << log2n, 256), 256, 0, s>>>(
        (fp_t<P> *)a, log2n, (const fp_t<P> *)lo, (const fp_t<P> *)hi, b, rev);
    return cudaGetLastError();
}

/* ---- prove.cuh ----------------------------------------------------------- */

enum { CLASSIFY_BLOCKS = 2048 };

template <class R>
int msm_classify(uint8_t *cls, uint32_t *bitmap, uint32_t *other, void *acc, const void *scalars,
                 size_t n, gpu_stream_t s)
{
    static_assert(sizeof(classify_acc_t) == 56, "the layout gpu_kernels.h documents");
    int e = cudaMemsetAsync(acc, 0, sizeof(classify_acc_t), s);
    if (e != cudaSuccess || n == 0)
        return e;
    /* Grid-stride over at most CLASSIFY_BLOCKS blocks: each warp ends with
     * up to eleven atomics on the same 56 bytes, which serialise in L2;
     * with a warp for every 32 scalars they were the kernel's whole cost
     * (24 ms for 130 M scalars, ncu). */
    unsigned blocks = grid_for(n, 256);
    blocks = blocks < CLASSIFY_BLOCKS ? blocks : CLASSIFY_BLOCKS;
    msm_classify_kernel<R><<<blocks, 256, 0, s>>>(cls, bitmap, other, (classify_acc_t *)acc,
                                                  (const fp_t<R> *)scalars, n);
    return cudaGetLastError();
}

template <class F>
int msm_ones_partial(void *part, const uint32_t *bitmap, const void *bases, size_t words,
                     size_t per, size_t T, gpu_stream_t s)
{
    if (T == 0)
        return cudaSuccess;
    msm_ones_partial_kernel<F><<<grid_for(T, 128), 128, 0, s>>>(
        (xyzz_t<F> *)part, bitmap, (const affine_t<F> *)bases, words, per, T);
    return cudaGetLastError();
}

template <class R>
int r1cs_mul_vec(void *y, const uint64_t *row_ptr, const uint32_t *col, const void *val,
                 const void *w, size_t rows, gpu_stream_t s)
{
    if (rows == 0)
        return cudaSuccess;
    fp_t<R> *yy = (fp_t<R> *)y;
    const fp_t<R> *v = (const fp_t<R> *)val, *ww = (const fp_t<R> *)w;
    r1cs_rows_kernel<R><<<grid_for(rows, 256), 256, 0, s>>>(yy, row_ptr, col, v, ww, rows);
    int e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    /* One warp a row; grid-stride, so the cap on blocks only bounds the
     * launch (a warp then walks several rows). */
    size_t blocks = (rows + 7) / 8;
    blocks = blocks > 8192 ? 8192 : blocks;
    r1cs_long_kernel<R><<<(unsigned)blocks, 256, 0, s>>>(yy, row_ptr, col, v, ww, rows);
    return cudaGetLastError();
}

template <class P> int ntt_abc(void *a, const void *b, const void *c, size_t n, gpu_stream_t s)
{
    if (n == 0)
        return cudaSuccess;
    ntt_abc_kernel<P>
        <<<grid_for(n, 256), 256, 0, s>>>((fp_t<P> *)a, (const fp_t<P> *)b, (const fp_t<P> *)c, n);
    return cudaGetLastError();
}

template <class R>
int fr_mul_const(void *out, const void *in, size_t n, const void *k, gpu_stream_t s)
{
    if (n == 0)
        return cudaSuccess;
    fp_t<R> kk;
    memcpy(&kk, k, sizeof kk);
    fr_mul_const_kernel<R>
        <<<grid_for(n, 256), 256, 0, s>>>((fp_t<R> *)out, (const fp_t<R> *)in, n, kk);
    return cudaGetLastError();
}

template <class R> int clear_marked(void *scalars, const uint32_t *bitmap, size_t n, gpu_stream_t s)
{
    if (n == 0)
        return cudaSuccess;
    clear_marked_kernel<R><<<grid_for(n, 256), 256, 0, s>>>((fp_t<R> *)scalars, bitmap, n);
    return cudaGetLastError();
}

/* ---- the table --------------------------------------------------------- */

typedef int (*madd_probe_fn)(void *, const void *, const void *, size_t, size_t, unsigned,
                             gpu_stream_t);

/* probe_alt: the madd probe of another coordinate type (alt says which),
 * to compare, or NULL. */
typedef int (*baff_probe_fn)(void *, const void *, size_t, size_t, unsigned, bool, unsigned,
                             gpu_stream_t);

template <class F>
constexpr gpu_group_kernels_t group_table(const char *name, madd_probe_fn probe_alt,
                                          const char *alt, baff_probe_fn baff)
{
    return gpu_group_kernels_t{name,
                               sizeof(affine_t<F>),
                               sizeof(xyzz_t<F>),
                               ec_batch<F>,
                               madd_probe<F>,
                               probe_alt,
                               alt,
                               baff,
                               msm_buckets<F>,
                               msm_reduce_segments<F>,
                               msm_reduce_windows<F>,
                               msm_merge<F>,
                               msm_combine<F>,
                               msm_ones_partial<F>};
}

/* G1's coordinate field for the point formulas: G1F (fpc_t<FP>, the
 * multiplication called, or fp_t<FP>, inlined), and the other one. */
template <class G1F> struct g1_alt;
template <class P> struct g1_alt<fpc_t<P>> {
    typedef fp_t<P> type;
    static constexpr const char *name = "mul inlined";
};
template <class P> struct g1_alt<fp_t<P>> {
    typedef fpc_t<P> type;
    static constexpr const char *name = "mul called";
};

template <class F> constexpr gpu_field_kernels_t field_table(const char *name)
{
    return gpu_field_kernels_t{name, sizeof(F), field_batch<F>, mul_probe<F>};
}

/* G1F: G1's coordinate type (g1_alt above). */
template <class FP, class FR, class G1F>
constexpr gpu_curve_kernels_t curve_table(const char *name, const char *fp, const char *fr,
                                          const char *fp2, const char *g1, const char *g2)
{
    return gpu_curve_kernels_t{name,
                               FR::BITS,
                               field_table<fp_t<FP>>(fp),
                               field_table<fp_t<FR>>(fr),
                               field_table<fp2_t<FP>>(fp2),
                               group_table<G1F>(g1, madd_probe<typename g1_alt<G1F>::type>,
                                                g1_alt<G1F>::name, baff_probe<G1F>),
                               group_table<fp2_t<FP>>(g2, nullptr, nullptr, nullptr),
                               msm_digits<FR>,
                               ntt_pow_table<FR>,
                               ntt_mul_tables<FR>,
                               ntt_tws<FR>,
                               ntt_inv<FR>,
                               ntt_gather<FR>,
                               ntt_radix<FR>,
                               ntt_block<FR>,
                               ntt_permute<FR>,
                               ntt_scale<FR>,
                               msm_classify<FR>,
                               r1cs_mul_vec<FR>,
                               ntt_abc<FR>,
                               fr_mul_const<FR>,
                               clear_marked<FR>};
}

} // namespace cuzk

#endif
