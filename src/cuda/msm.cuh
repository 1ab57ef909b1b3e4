/*
 * Pippenger MSM on the device: the kernels. The twin of src/msm (phases in
 * msm.h there); the host orchestration is msm.c, the sort msm_sort.cu, and
 * docs/CUDA.md tells the whole story. Phases, one launch each:
 *
 *   digits    scalar i → W signed c-bit digits (Booth, as msm_scalar_digit);
 *             for window w: key = |d| (0: no addition), value = i | sign<<31,
 *             at w·n + i.
 *   sort      each window's n (key, value) pairs by key (CUB radix sort on
 *             c bits), then bounds: [start, end) of every key's run.
 *   buckets   one thread per (window, chunk of L sorted pairs): each ±P_i
 *             of its chunk by a mixed XYZZ addition (8M + 2S), the runs
 *             inside it straight to their buckets, those crossing its ends
 *             as partial sums that a fixup kernel adds up.
 *   reduce    one thread per (window, segment of S = 2^s buckets): the
 *             running sum over the segment, then its offset weight by a
 *             double-and-add; one block per window sums its segments; one
 *             thread combines the windows (Horner, c doublings apiece),
 *             unless gpu_msm_launch_windows leaves that to the host.
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
 * msm_scalar_digit (src/msm/msm.h), on 32-bit limbs. c <= 24.
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
 * limbs: the key w·bias + |digit| (bias 0, or the keys a window when one
 * sort orders every window), the value i with the digit's sign. */
template <class R>
__global__ void msm_digits_kernel(uint32_t *keys, uint32_t *vals, const fp_t<R> *scalars,
                                  const uint32_t *idx, size_t n, unsigned c, unsigned W, bool mont,
                                  uint32_t bias)
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
            keys[w * n + j] = w * bias + (uint32_t)(d < 0 ? -d : d);
            vals[w * n + j] = i | (d < 0 ? MSM_SIGN : 0u);
        }
    }
}

/* Blocks of 128 threads a multiprocessor must hold at once for the
 * addition kernels (and the probe that measures their rate), measured on
 * the H200. Four for G1 and for BN254's G2, which caps them at 128
 * registers: ptxas chose 130 for the G1 bucket kernel, three blocks, and its
 * sums ran 3 % slower (ncu, porep32 partition: 929 against 959 ms); BN254
 * G2's MSM 2^24 took 148.5 ms at two blocks, 136.3 at three, 132.1 at four
 * (spills and all). Three for BLS12-381's G2 (168 registers): 319.5 ms at
 * two blocks, 318.1 at three, 330.8 at four, where its spills outweigh the
 * warps. Issuing each point's load one addition ahead took 190 registers
 * and made G1 10 % slower. */
template <class F> constexpr int msm_min_blocks()
{
    return sizeof(F) <= 64 ? 4 : 3;
}

/* acc += ±p, minus when x (a sorted pair's value) has MSM_SIGN. */
template <class F>
__device__ __forceinline__ void msm_add_signed_(xyzz_t<F> &acc, affine_t<F> p, uint32_t x)
{
    if (x & MSM_SIGN)
        f_neg(p.y, p.y);
    xyzz_add_affine(acc, acc, p);
}

/*
 * The bucket sums, in two kernels. buckets[w·B + k - 1] = Σ over the run of
 * key k of window w, for the keys that have one (B = 2^(c-1) buckets a
 * window; the caller zeroes buckets, which is infinity, for the empty
 * ones; bounds hold B + 1 entries a window, key 0 is no addition).
 *
 * Every window is cut by position: thread (w, q) adds exactly the sorted
 * pairs [q·L, (q+1)·L) of window w (those past the zero digits), in one
 * flat loop, whatever the runs' lengths. Bucket sizes are Poisson
 * distributed for random scalars and arbitrary for others (the top
 * window's few keys hold thousands of points each; equal scalars put a
 * window's every point in one bucket), so one thread a bucket, or a thread
 * adding each run it starts to its end, leaves warps waiting for their
 * longest run. A run inside the chunk goes straight to its bucket; the
 * segment of a run that crosses the chunk's start goes to part[2t] (the
 * head; the whole chunk when the run covers it), the segment of a run that
 * starts in the chunk and crosses its end to part[2t + 1] (the tail); both
 * are infinity when there is none. msm_fixup_kernel then adds up the runs
 * that cross chunks.
 */
template <class F>
__global__ void __launch_bounds__(128, msm_min_blocks<F>())
    msm_buckets_kernel(xyzz_t<F> *buckets, xyzz_t<F> *part, const uint32_t *keys,
                       const uint32_t *vals, const uint32_t *start, const uint32_t *end,
                       const affine_t<F> *bases, size_t n, unsigned c, unsigned W, size_t L)
{
    const size_t B = (size_t)1 << (c - 1), K = B + 1, Q = (n + L - 1) / L;
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < W * Q;
         t += (size_t)gridDim.x * blockDim.x) {
        const size_t w = t / Q, c0 = t % Q * L, c1 = c0 + L < n ? c0 + L : n;
        const uint32_t *kw = keys + w * n, *vw = vals + w * n, *sw = start + w * K,
                       *ew = end + w * K;
        xyzz_t<F> acc, head, tail;
        xyzz_set_inf(acc);
        xyzz_set_inf(head);
        xyzz_set_inf(tail);
        size_t j = c0 > ew[0] ? c0 : ew[0]; /* past the zero digits */
        if (j < c1) {
            uint32_t key = kw[j];
            size_t e = ew[key] < c1 ? ew[key] : c1;
            for (; j < c1; j++) {
                const uint32_t x = vw[j];
                affine_t<F> p;
                ld_vec(p, &bases[x & ~MSM_SIGN]);
                if (j == e) { /* the run of key ended inside the chunk */
                    if (sw[key] < c0)
                        head = acc;
                    else
                        st_vec(&buckets[w * B + key - 1], acc);
                    xyzz_set_inf(acc);
                    key = kw[j];
                    e = ew[key] < c1 ? ew[key] : c1;
                }
                msm_add_signed_(acc, p, x);
            }
            if (sw[key] < c0)
                head = acc;
            else if (ew[key] > c1)
                tail = acc;
            else
                st_vec(&buckets[w * B + key - 1], acc);
        }
        st_vec(&part[2 * t], head);
        st_vec(&part[2 * t + 1], tail);
    }
}

/* Heads a run's owner adds on its own; a run that reaches further is
 * summed by the owner's whole warp. */
enum { MSM_FIXUP_WIDE = 32 };

/* p of the lane off lanes up (__shfl_down_sync), word by word. */
template <class F>
__device__ __forceinline__ xyzz_t<F> msm_shfl_down_(const xyzz_t<F> &p, unsigned off)
{
    static_assert(sizeof(p) % sizeof(uint32_t) == 0, "points are whole words");
    xyzz_t<F> r;
    const uint32_t *a = reinterpret_cast<const uint32_t *>(&p);
    uint32_t *b = reinterpret_cast<uint32_t *>(&r);
#pragma unroll
    for (unsigned i = 0; i < sizeof(p) / sizeof(uint32_t); i++)
        b[i] = __shfl_down_sync(0xffffffffu, a[i], off);
    return r;
}

/*
 * Thread (w, q) of msm_buckets_kernel's grid: the run that covers the last
 * pair of chunk q, if it started in that chunk and goes on past it, is
 * the tail of chunk q plus the heads of the chunks it reaches; the one
 * thread whose chunk the run starts in writes its bucket. A run that
 * reaches more than MSM_FIXUP_WIDE chunks on (the top window's few keys at
 * a small n, where a chunk is 32 pairs; a bucket that holds a whole window
 * when scalars repeat) is summed by its owner's warp, each lane a stride
 * of its heads and the 32 sums added in a shuffle tree: one thread alone
 * took 19 ms for the top window of a 2^18-point G1 MSM at c = 14 (4 keys,
 * runs of some 2,000 chunks), where the rest of the MSM takes 2.5. A run
 * that long leaves no other long run's start in the same 32 chunks, so a
 * warp seldom sums more than one.
 */
template <class F>
__global__ void msm_fixup_kernel(xyzz_t<F> *buckets, const xyzz_t<F> *part, const uint32_t *keys,
                                 const uint32_t *start, const uint32_t *end, size_t n, unsigned c,
                                 unsigned W, size_t L)
{
    const size_t B = (size_t)1 << (c - 1), K = B + 1, Q = (n + L - 1) / L, WQ = W * Q;
    const unsigned lane = threadIdx.x % 32;
    /* whole warps step together (blockDim is a multiple of 32), so that
     * the ballots and shuffles below see every lane */
    for (size_t t0 = blockIdx.x * (size_t)blockDim.x + threadIdx.x - lane; t0 < WQ;
         t0 += (size_t)gridDim.x * blockDim.x) {
        const size_t t = t0 + lane, w = t / Q, q = t % Q, c0 = q * L, c1 = c0 + L;
        uint32_t key = 0;
        size_t last = 0; /* the last chunk the run reaches; 0: nothing to fix */
        if (t < WQ && c1 < n && c1 - 1 >= end[w * K]) { /* not the last chunk, nor zero digits */
            key = keys[w * n + c1 - 1];
            const size_t s = start[w * K + key], e = end[w * K + key];
            if (s >= c0 && e > c1)
                last = (e - 1) / L;
        }
        const bool wide = last > q + MSM_FIXUP_WIDE;
        xyzz_t<F> acc, x;
        if (last && !wide) {
            ld_vec(acc, &part[2 * t + 1]);
            for (size_t r = q + 1; r <= last; r++) {
                ld_vec(x, &part[2 * (w * Q + r)]);
                xyzz_add(acc, acc, x);
            }
            st_vec(&buckets[w * B + key - 1], acc);
        }
        for (unsigned m = __ballot_sync(0xffffffffu, wide); m; m &= m - 1) {
            const int src = __ffs(m) - 1;
            const size_t ts = __shfl_sync(0xffffffffu, (unsigned long long)t, src),
                         ls = __shfl_sync(0xffffffffu, (unsigned long long)last, src);
            const uint32_t ks = __shfl_sync(0xffffffffu, key, src);
            const size_t ws = ts / Q, qs = ts % Q;
            if (lane == 0)
                ld_vec(acc, &part[2 * ts + 1]);
            else
                xyzz_set_inf(acc);
            for (size_t r = qs + 1 + lane; r <= ls; r += 32) {
                ld_vec(x, &part[2 * (ws * Q + r)]);
                xyzz_add(acc, acc, x);
            }
#pragma unroll 1
            for (unsigned off = 16; off > 0; off /= 2) {
                x = msm_shfl_down_(acc, off);
                xyzz_add(acc, acc, x);
            }
            if (lane == 0)
                st_vec(&buckets[ws * B + ks - 1], acc);
        }
    }
}

/* buckets[i] += fresh[i], i < count: a streamed MSM's chunk's bucket sums
 * into the sums of the chunks before (one thread a bucket, so that no warp
 * waits on a few lanes' additions, as it did when the bucket kernel added
 * each run to its bucket itself). */
template <class F>
__global__ void msm_merge_kernel(xyzz_t<F> *buckets, const xyzz_t<F> *fresh, size_t count)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x) {
        xyzz_t<F> x, b;
        ld_vec(x, &fresh[i]);
        if (xyzz_is_inf(x))
            continue;
        ld_vec(b, &buckets[i]);
        xyzz_add(b, b, x);
        st_vec(&buckets[i], b);
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
