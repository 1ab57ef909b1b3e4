/*
 * Pippenger MSM on the device: the kernels. The twin of src/msm (phases in
 * msm.h there); the host orchestration is msm.c, the sort msm_sort.cu, and
 * docs/CUDA.md tells the whole story. Phases, one launch each:
 *
 *   digits    scalar i → W signed c-bit digits (Booth, as cuzk_msm_digit);
 *             for window w: key = |d| (0: no addition), value = i | sign<<31,
 *             at w·n + i.
 *   sort      each window's n (key, value) pairs by key (CUB radix sort on
 *             c bits), then bounds: [start, end) of every key's run.
 *   buckets   one thread per (window, bucket): the sum of its ±P_i by mixed
 *             XYZZ additions (8M + 2S each).
 *   reduce    one thread per (window, segment of S = 2^s buckets): the
 *             running sum over the segment, then its offset weight by a
 *             double-and-add; one block per window sums its segments; one
 *             thread combines the windows (Horner, c doublings apiece).
 *
 * Every kernel is grid-stride, so any grid size is correct; the launchers in
 * kernels.cuh pick one from the work size.
 */
#ifndef CUZK_CUDA_MSM_CUH
#define CUZK_CUDA_MSM_CUH

#include "cuda/ec.cuh"
#include "cuda/load.cuh"

namespace cuzk
{

enum : uint32_t { MSM_SIGN = 0x80000000u };

/* k[i] for a run-time i < 8, without indexing a register array (which would
 * send it to local memory); 0 for i >= 8. */
__device__ __forceinline__ uint32_t msm_limb_(const uint32_t k[8], unsigned i)
{
    uint32_t v = 0;
#pragma unroll
    for (unsigned j = 0; j < 8; j++)
        v = j == i ? k[j] : v;
    return v;
}

/*
 * The signed digit of window w of the 256-bit k (8 limbs): bits [wc - 1,
 * wc + c) with the lowest one the carry in; the same function as
 * cuzk_msm_digit (src/msm/msm.h), on 32-bit limbs. c <= 24.
 */
__device__ __forceinline__ int msm_digit(const uint32_t k[8], unsigned w, unsigned c)
{
    unsigned lo = w * c, len = c + 1, shift_in = 0;
    if (lo == 0) {
        len = c;
        shift_in = 1;
    } else {
        lo -= 1;
    }
    unsigned limb = lo / 32, off = lo % 32;
    uint64_t v = ((uint64_t)msm_limb_(k, limb + 1) << 32 | msm_limb_(k, limb)) >> off;
    v = (v & ((1ull << len) - 1)) << shift_in;
    return (int)((v + 1) >> 1) - (int)((v >> c) << c);
}

/* keys/vals[w·n + j] for every window w < W of the scalar of point
 * i = idx[j] (idx NULL: i = j), Montgomery form when mont, else canonical
 * limbs; the value is i with the digit's sign. */
template <class R>
__global__ void msm_digits_kernel(uint32_t *keys, uint32_t *vals, const fp_t<R> *scalars,
                                  const uint32_t *idx, size_t n, unsigned c, unsigned W, bool mont)
{
    static_assert(R::N == 8, "scalars are 256-bit");
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n;
         j += (size_t)gridDim.x * blockDim.x) {
        uint32_t i = idx ? idx[j] : (uint32_t)j;
        fp_t<R> k;
        ld_vec(k, &scalars[i]);
        if (mont)
            f_from_mont<R>(k, k);
        for (unsigned w = 0; w < W; w++) {
            int d = msm_digit(k.l, w, c);
            keys[w * n + j] = (uint32_t)(d < 0 ? -d : d);
            vals[w * n + j] = i | (d < 0 ? MSM_SIGN : 0u);
        }
    }
}

/* buckets[w·B + b] = Σ over the run of key b + 1 of window w (B = 2^(c-1)
 * buckets a window; bounds hold B + 1 entries a window, key 0 unused). */
template <class F>
__global__ void msm_buckets_kernel(xyzz_t<F> *buckets, const uint32_t *vals, const uint32_t *start,
                                   const uint32_t *end, const affine_t<F> *bases, size_t n,
                                   unsigned c, unsigned W)
{
    const size_t B = (size_t)1 << (c - 1);
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < W * B;
         t += (size_t)gridDim.x * blockDim.x) {
        size_t w = t / B, key = t % B + 1;
        uint32_t s = start[w * (B + 1) + key], e = end[w * (B + 1) + key];
        const uint32_t *v = vals + w * n;
        xyzz_t<F> acc;
        xyzz_set_inf(acc);
        for (uint32_t j = s; j < e; j++) {
            uint32_t x = v[j];
            affine_t<F> p;
            ld_vec(p, &bases[x & ~MSM_SIGN]);
            if (x & MSM_SIGN)
                f_neg(p.y, p.y);
            xyzz_add_affine(acc, acc, p);
        }
        st_vec(&buckets[t], acc);
    }
}

/* r = m·p for a public m < 2^32, m != 0: double and add from the top bit. */
template <class F>
__device__ __forceinline__ void xyzz_mul_u32_(xyzz_t<F> &r, const xyzz_t<F> &p, uint32_t m)
{
    xyzz_t<F> q = p;
    for (int i = 30 - __clz(m); i >= 0; i--) {
        xyzz_dbl(q, q);
        if ((m >> i) & 1)
            xyzz_add(q, q, p);
    }
    r = q;
}

/*
 * seg[w·G + g] = Σ_{b in segment g} (b + 1)·bucket[b] of window w, G = B/S
 * segments of S = 2^s buckets: the running sum from the segment's top gives
 *   sum = Σ (b - gS + 1)·bucket[b],  run = Σ bucket[b],
 * 2 XYZZ additions a bucket, and the segment's offset adds (gS)·run.
 */
template <class F>
__global__ void msm_reduce_segments_kernel(xyzz_t<F> *seg, const xyzz_t<F> *buckets, unsigned c,
                                           unsigned W, unsigned s)
{
    const size_t B = (size_t)1 << (c - 1), S = (size_t)1 << s, G = B >> s;
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < W * G;
         t += (size_t)gridDim.x * blockDim.x) {
        size_t w = t / G, g = t % G;
        const xyzz_t<F> *bk = buckets + w * B + g * S;
        xyzz_t<F> run, sum, x;
        xyzz_set_inf(run);
        xyzz_set_inf(sum);
        for (size_t b = S; b-- > 0;) {
            ld_vec(x, &bk[b]);
            xyzz_add(run, run, x);
            xyzz_add(sum, sum, run);
        }
        if (g != 0 && !xyzz_is_inf(run)) {
            xyzz_mul_u32_(x, run, (uint32_t)g);
            for (unsigned i = 0; i < s; i++)
                xyzz_dbl(x, x);
            xyzz_add(sum, sum, x);
        }
        st_vec(&seg[t], sum);
    }
}

enum { MSM_REDUCE_THREADS = 128 };

/* win[w] = Σ_g seg[w·G + g]: one block of MSM_REDUCE_THREADS per window,
 * each thread summing a strided share, then a tree in shared memory. */
template <class F>
__global__ void __launch_bounds__(MSM_REDUCE_THREADS)
    msm_reduce_windows_kernel(xyzz_t<F> *win, const xyzz_t<F> *seg, size_t G)
{
    __shared__ xyzz_t<F> sh[MSM_REDUCE_THREADS];
    const unsigned tid = threadIdx.x;
    const xyzz_t<F> *sw = seg + blockIdx.x * G;
    xyzz_t<F> acc, x;
    xyzz_set_inf(acc);
    for (size_t g = tid; g < G; g += MSM_REDUCE_THREADS) {
        ld_vec(x, &sw[g]);
        xyzz_add(acc, acc, x);
    }
    sh[tid] = acc;
    __syncthreads();
    for (unsigned h = MSM_REDUCE_THREADS / 2; h > 0; h /= 2) {
        if (tid < h) {
            xyzz_add(acc, acc, sh[tid + h]);
            sh[tid] = acc;
        }
        __syncthreads();
    }
    if (tid == 0)
        win[blockIdx.x] = acc;
}

/* r = Σ_w 2^(wc)·win[w] by Horner from the top window: one thread. */
template <class F>
__global__ void msm_combine_kernel(xyzz_t<F> *r, const xyzz_t<F> *win, unsigned c, unsigned W)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    xyzz_t<F> tot = win[W - 1];
    for (unsigned w = W - 1; w-- > 0;) {
        for (unsigned i = 0; i < c; i++)
            xyzz_dbl(tot, tot);
        xyzz_add(tot, tot, win[w]);
    }
    *r = tot;
}

} // namespace cuzk

#endif
