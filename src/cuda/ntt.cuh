/*
 * Radix-2 NTT over Fr on the device: the kernels. The twin of
 * src/ntt/ntt_tmpl_impl.h, with the same layout and the same tables:
 *  - dif runs stages of half-span h = n/2, n/4, .., 1 (natural in,
 *    bit-reversed out), butterflies x' = x + y, y' = (x - y)·ω^(j·n/2h);
 *  - dit runs them from h = 1 up to n/2 (bit-reversed in, natural out),
 *    butterflies x' = x + y·ω^(j·n/2h), y' = x - y·ω^(j·n/2h), so that a
 *    dif and a dit in turn need no bit reversal between them;
 *  - tw[e] = ω^e for e <= n/2; the inverse direction uses ω^-e = -tw[n/2 - e]
 *    and folds the sign into the butterfly (ntt_butterfly_);
 *  - tws[h + j] = ω^(j·n/2h), tws_inv[h + j] = ω^-(j·n/2h) for the stages
 *    with h < m, which run inside one block of m = 2^B elements.
 * Wide stages (h >= m) run R = 1..3 at a time: a thread loads 2^R elements
 * spaced h_min apart and takes them through R stages in registers (radix
 * 2^R), so 3 stages cost one pass over memory. The stages with h < m run in
 * shared memory, two a round (ntt_block_kernel); natural order after a dif
 * costs one more pass, a bit reversal by tiles (ntt_bitrev_kernel). Host
 * side: ntt.c.
 */
#ifndef CUZK_CUDA_NTT_CUH
#define CUZK_CUDA_NTT_CUH

#include "cuda/fields.cuh"
#include "cuda/gpu_kernels.h"
#include "cuda/load.cuh"

namespace cuzk
{

#define CUZK_GRID_STRIDE(i, count)                                                                 \
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (count);                    \
         i += (size_t)gridDim.x * blockDim.x)

/* out[i] = *f·(*base)^(i·step), i < count. */
template <class P>
__global__ void ntt_pow_table_kernel(fp_t<P> *out, const fp_t<P> *base, uint64_t step,
                                     const fp_t<P> *f, size_t count)
{
    const fp_t<P> b = *base, m = *f;
    CUZK_GRID_STRIDE(i, count)
    {
        fp_t<P> x;
        f_pow_u64<P>(x, b, (uint64_t)i * step);
        f_mul<P>(x, x, m);
        out[i] = x;
    }
}

/* out[i] = lo[i mod 2^b]·hi[i >> b], i < count. */
template <class P>
__global__ void ntt_mul_tables_kernel(fp_t<P> *out, const fp_t<P> *lo, const fp_t<P> *hi,
                                      unsigned b, size_t count)
{
    CUZK_GRID_STRIDE(i, count)
    {
        fp_t<P> x, y;
        ld_vec(x, &lo[i & (((size_t)1 << b) - 1)]);
        ld_vec(y, &hi[i >> b]);
        f_mul<P>(x, x, y);
        st_vec(&out[i], x);
    }
}

/* out[i] = in[i << shift], i < count: a wide stage's own twiddle table
 * (ntt_radix_tw_'s stw) from tw. */
template <class P>
__global__ void ntt_gather_kernel(fp_t<P> *out, const fp_t<P> *in, unsigned shift, size_t count)
{
    CUZK_GRID_STRIDE(i, count)
    {
        fp_t<P> x;
        ld_vec(x, &in[i << shift]);
        st_vec(&out[i], x);
    }
}

/* tws[k] = (*w)^(j·n/2h) for k = h + j in [1, m), h the top power of two
 * of k; tws[0] = 1 (never read). */
template <class P>
__global__ void ntt_tws_kernel(fp_t<P> *tws, const fp_t<P> *wp, unsigned log2n, unsigned m)
{
    const fp_t<P> w = *wp;
    CUZK_GRID_STRIDE(k, m)
    {
        fp_t<P> x;
        if (k == 0) {
            f_set_one<P>(x);
        } else {
            unsigned lh = 31 - __clz((unsigned)k);
            uint64_t j = k - ((size_t)1 << lh);
            f_pow_u64<P>(x, w, j << (log2n - 1 - lh));
        }
        tws[k] = x;
    }
}

/* *r = (*ap)^(p - 2) = 1/(*ap) (0 stays 0): one thread, Fermat. */
template <class P> __global__ void ntt_inv_kernel(fp_t<P> *r, const fp_t<P> *ap)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    const fp_t<P> a = *ap;
    uint32_t e[P::N];
    uint64_t borrow = 2;
    for (int i = 0; i < P::N; i++) {
        uint64_t d = (uint64_t)P::mod(i) - borrow;
        e[i] = (uint32_t)d;
        borrow = d >> 63;
    }
    fp_t<P> acc;
    f_set_one<P>(acc);
    for (int i = P::N * 32 - 1; i >= 0; i--) {
        f_sqr<P>(acc, acc);
        if ((e[i / 32] >> (i % 32)) & 1)
            f_mul<P>(acc, acc, a);
    }
    *r = acc;
}

/* The scale of position k: lo[k mod 2^b]·hi[k >> b] (lo non-NULL), hi[0]
 * (lo NULL, hi non-NULL) or none. */
template <class P>
__device__ __forceinline__ void ntt_scale_(fp_t<P> &x, size_t k, const fp_t<P> *lo,
                                           const fp_t<P> *hi, unsigned b)
{
    if (!hi)
        return;
    fp_t<P> s;
    ld_vec(s, &hi[lo ? k >> b : 0]);
    if (lo) {
        fp_t<P> t;
        ld_vec(t, &lo[k & (((size_t)1 << b) - 1)]);
        f_mul<P>(s, s, t);
    }
    f_mul<P>(x, x, s);
}

/*
 * One butterfly on (x, y) with the twiddle w as loaded: dif (Gentleman and
 * Sande) x' = x + y, y' = (x - y)·ω^e; dit (Cooley and Tukey) t = y·ω^e,
 * x' = x + t, y' = x - t. With inv, w = tw[n/2 - e] = -ω^-e and the sign
 * folds into the additions: dif y' = (y - x)·w, dit x' = x - t, y' = x + t.
 * The dif's difference goes into the multiplication unreduced
 * (f_sub_unreduced, as its second operand).
 * CALL: the multiplication as a call (one copy: see fpc_t), else inlined.
 */
template <class P, bool DIT, bool CALL>
__device__ __forceinline__ void ntt_butterfly_(fp_t<P> &x, fp_t<P> &y, const fp_t<P> &w, bool inv)
{
    const fp_t<P> u = x, v = y;
    fp_t<P> t;
    if (DIT) {
        if (CALL)
            t = f_mul_call<P>(v, w);
        else
            f_mul<P>(t, v, w);
        if (inv) {
            f_sub<P>(x, u, t);
            f_add<P>(y, u, t);
        } else {
            f_add<P>(x, u, t);
            f_sub<P>(y, u, t);
        }
    } else {
        f_add<P>(x, u, v);
        if (inv)
            f_sub_unreduced<P>(t, v, u);
        else
            f_sub_unreduced<P>(t, u, v);
        if (CALL)
            y = f_mul_call<P>(w, t);
        else
            f_mul<P>(y, w, t);
    }
}

/* The twiddle of the wide stage of half-span 2^lq at index ti (< 2^lq):
 * from the stage's own table when there is one (stw; see ntt_radix_kernel),
 * else from tw. */
template <class P>
__device__ __forceinline__ void ntt_radix_tw_(fp_t<P> &w, const fp_t<P> *tw, const fp_t<P> *stw,
                                              unsigned log2n, unsigned lq, size_t ti, bool inverse)
{
    const unsigned shift = log2n - 1 - lq;
    const size_t h = (size_t)1 << lq;
    if (stw && shift >= CUZK_GPU_NTT_STW_SHIFT)
        ld_vec(w, &stw[h + lq - 1 + (inverse ? h - ti : ti)]);
    else
        ld_vec(w, &tw[inverse ? ((size_t)1 << (log2n - 1)) - (ti << shift) : ti << shift]);
}

/*
 * R consecutive wide stages (R = 1 or 2: a transform's wide stages go three
 * a pass through ntt_radix8_kernel, below, and what is left over here), of
 * half-spans 2^lh down to 2^(lh - R + 1) =
 * h_min (dif) or up from h_min to 2^lh (dit). Group g of 2^R elements:
 * j = g mod h_min in the block of 2^(lh+1) elements number g / h_min;
 * element t sits at block + j + t·h_min. In the stage of half-span h =
 * h_min·2^q, element t (bit q clear) pairs with t + 2^q at twiddle exponent
 * e = i·n/2h, i = j + (t mod 2^q)·h_min, the same in both directions.
 *
 * Twiddles: neighbouring threads' i are consecutive, so in tw their
 * twiddles lie n/2h entries apart: from n/2h = 4 on, one 128-byte line a
 * thread for 32 useful bytes, and a stage's h twiddles spread over up to
 * n/8 lines, more than L2 holds from h = 2^19 (BLS12-381, 2^27) although
 * each is read n/2h times. So the stages with n/2h >= 4 (the
 * CUZK_GPU_NTT_STW_SHIFT that ntt.c builds tables for) read their own table
 * instead (stw, NULL: none): ω^(i·n/2h) for i = 0..h at stw[h + lh - 1 + i],
 * lh = log2 h, consecutive for consecutive threads; the inverse reads entry
 * h - i, which is tw's n/2 - e.
 *
 * The dit multiplies through f_mul_call, the dif inline (chosen when this
 * kernel ran the radix-8 passes too, capped at 128 registers: the dit
 * spilled inline, the dif with calls).
 */
constexpr unsigned NTT_RADIX_THREADS = 256;

template <class P, int R, bool DIT>
__global__ void __launch_bounds__(NTT_RADIX_THREADS)
    ntt_radix_kernel(fp_t<P> *a, const fp_t<P> *tw, const fp_t<P> *stw, unsigned log2n, unsigned lh,
                     bool inverse)
{
    static_assert(R == 1 || R == 2, "three stages a pass: ntt_radix8_kernel");
    const unsigned lmin = lh - (R - 1);
    const size_t hmin = (size_t)1 << lmin;
    CUZK_GRID_STRIDE(g, (size_t)1 << (log2n - R))
    {
        size_t j = g & (hmin - 1);
        fp_t<P> *base = a + ((g >> lmin) << (lh + 1)) + j;
        fp_t<P> x[1 << R];
#pragma unroll
        for (int t = 0; t < (1 << R); t++)
            ld_vec(x[t], base + t * hmin);
#pragma unroll
        for (int i = 0; i < R; i++) {
            const int q = DIT ? i : R - 1 - i;
#pragma unroll
            for (int t = 0; t < (1 << R); t++) {
                if (t & (1 << q))
                    continue;
                fp_t<P> w;
                ntt_radix_tw_<P>(w, tw, stw, log2n, lmin + q,
                                 j + (size_t)(t & ((1 << q) - 1)) * hmin, inverse);
                ntt_butterfly_<P, DIT, DIT>(x[t], x[t + (1 << q)], w, inverse);
            }
        }
#pragma unroll
        for (int t = 0; t < (1 << R); t++)
            st_vec(base + t * hmin, x[t]);
    }
}

/*
 * Three wide stages (R = 3 of ntt_radix_kernel's layout and twiddles), each
 * group of eight elements (t = 0..7 at base + t·h_min) held by two threads,
 * four elements each, so that a thread needs half the registers and a
 * multiprocessor holds more warps: radix 8 with one thread a group, capped
 * at 128 registers, ran 16 warps an SM, each issuing every nine cycles (43 %
 * of the issue slots, ncu), and took 4.6 ms a pass at 2^27; two threads a
 * group run 24 warps at 70–80 registers (32 at 64 registers spilled and were
 * slower). Lanes 0-15 and 16-31 of a warp are the two halves (hb) of the
 * same 16 consecutive groups, so each load and store is two runs of 16
 * consecutive elements; a transform's wide stages start at h_min = 2^10.
 *
 * Which elements a thread holds (its y[k]):
 *   "odd-even" layout: t = hb + 2k          (stages of span 4 and 2 local)
 *   "pairs" layout:    t = 2hb + (k & 1) + 4(k >> 1)   (span 1 local)
 * The dif loads the odd-even layout, runs the stages of half-span 4·h_min
 * and 2·h_min, swaps two elements with the other half (one shuffle a limb)
 * into the pairs layout, runs h_min, stores; the dit the reverse. The same
 * swap goes both ways: half 0 gives its y1, y3 for the other's y0, y2.
 */
constexpr unsigned NTT_RADIX8_THREADS = 256;
constexpr int NTT_RADIX8_BLOCKS = 3;

template <class P> __device__ __forceinline__ void ntt_radix8_swap_(fp_t<P> y[4], unsigned hb)
{
#pragma unroll
    for (int l = 0; l < P::N; l++) {
        const uint32_t s0 = hb ? y[0].l[l] : y[1].l[l], s1 = hb ? y[2].l[l] : y[3].l[l];
        const uint32_t r0 = __shfl_xor_sync(0xffffffffu, s0, 16);
        const uint32_t r1 = __shfl_xor_sync(0xffffffffu, s1, 16);
        if (hb) {
            y[0].l[l] = r0;
            y[2].l[l] = r1;
        } else {
            y[1].l[l] = r0;
            y[3].l[l] = r1;
        }
    }
}

template <class P, bool DIT>
__global__ void __launch_bounds__(NTT_RADIX8_THREADS, NTT_RADIX8_BLOCKS)
    ntt_radix8_kernel(fp_t<P> *a, const fp_t<P> *tw, const fp_t<P> *stw, unsigned log2n,
                      unsigned lh, bool inverse)
{
    const unsigned lmin = lh - 2;
    const size_t hmin = (size_t)1 << lmin;
    /* One thread a half group, n/4 threads in whole warps (n >= 2^13), so
     * that a warp is never split and its shuffles see every lane. */
    const size_t p = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (p >= (size_t)1 << (log2n - 2))
        return;
    const unsigned hb = (unsigned)(p >> 4) & 1;
    const size_t g = ((p >> 5) << 4) | (p & 15), j = g & (hmin - 1);
    fp_t<P> *base = a + ((g >> lmin) << (lh + 1)) + j;
    fp_t<P> y[4], w;
    /* element k's t in the odd-even and in the pairs layout */
    const auto t_oe = [&](int k) { return (size_t)(hb + 2 * k); };
    const auto t_pr = [&](int k) { return (size_t)(2 * hb + (k & 1) + 4 * (k >> 1)); };
#pragma unroll
    for (int k = 0; k < 4; k++)
        ld_vec(y[k], base + (DIT ? t_pr(k) : t_oe(k)) * hmin);
    if (DIT) {
        ntt_radix_tw_<P>(w, tw, stw, log2n, lmin, j, inverse);
        ntt_butterfly_<P, true, false>(y[0], y[1], w, inverse);
        ntt_butterfly_<P, true, false>(y[2], y[3], w, inverse);
        ntt_radix8_swap_<P>(y, hb);
        ntt_radix_tw_<P>(w, tw, stw, log2n, lmin + 1, j + hb * hmin, inverse);
        ntt_butterfly_<P, true, false>(y[0], y[1], w, inverse);
        ntt_butterfly_<P, true, false>(y[2], y[3], w, inverse);
#pragma unroll
        for (int k = 0; k < 2; k++) {
            ntt_radix_tw_<P>(w, tw, stw, log2n, lh, j + (t_oe(k) & 3) * hmin, inverse);
            ntt_butterfly_<P, true, false>(y[k], y[k + 2], w, inverse);
        }
    } else {
#pragma unroll
        for (int k = 0; k < 2; k++) {
            ntt_radix_tw_<P>(w, tw, stw, log2n, lh, j + (t_oe(k) & 3) * hmin, inverse);
            ntt_butterfly_<P, false, false>(y[k], y[k + 2], w, inverse);
        }
        ntt_radix_tw_<P>(w, tw, stw, log2n, lmin + 1, j + hb * hmin, inverse);
        ntt_butterfly_<P, false, false>(y[0], y[1], w, inverse);
        ntt_butterfly_<P, false, false>(y[2], y[3], w, inverse);
        ntt_radix8_swap_<P>(y, hb);
        ntt_radix_tw_<P>(w, tw, stw, log2n, lmin, j, inverse);
        ntt_butterfly_<P, false, false>(y[0], y[1], w, inverse);
        ntt_butterfly_<P, false, false>(y[2], y[3], w, inverse);
    }
#pragma unroll
    for (int k = 0; k < 4; k++)
        st_vec(base + (DIT ? t_oe(k) : t_pr(k)) * hmin, y[k]);
}

/* Threads of ntt_block_kernel (one a quad of its elements), and the blocks a
 * multiprocessor must hold at once. At 2^27, BLS12-381: the radix-2 dif of
 * 512 threads had 72 registers, so one block an SM (16 warps), and took
 * 18.1 ms; radix 4 at two blocks of 256 (128 registers, no spills) 14.1;
 * three blocks (80 registers, 72 bytes of spills) made a forward transform
 * another 0.8 ms faster but the dit (132 bytes) no faster in the H chain.
 * With the block size a constant (LM) both fit three blocks unspilled, and
 * the dit four (64 registers, 28 bytes of spills: the H chain 2.8 ms
 * faster than at three; the dif spilled 288 bytes at four). */
constexpr unsigned NTT_BLOCK_THREADS = 256;
constexpr int ntt_block_blocks(bool dit, unsigned lm)
{
    return dit ? (lm ? 4 : 2) : 3;
}

/* Element i of a block of m in shared memory, limb-major (limb l at l·m +
 * i), so that a warp's 32 consecutive elements hit 32 different banks. */
template <class P>
__device__ __forceinline__ void ntt_sh_ld_(fp_t<P> &x, const uint32_t *sh, unsigned m, unsigned i)
{
#pragma unroll
    for (int l = 0; l < P::N; l++)
        x.l[l] = sh[l * m + i];
}

template <class P>
__device__ __forceinline__ void ntt_sh_st_(uint32_t *sh, unsigned m, unsigned i, const fp_t<P> &x)
{
#pragma unroll
    for (int l = 0; l < P::N; l++)
        sh[l * m + i] = x.l[l];
}

/* The butterfly with twiddle ω^0 = 1, the same in both directions:
 * x' = x + y, y' = x - y. */
template <class P> __device__ __forceinline__ void ntt_butterfly1_(fp_t<P> &x, fp_t<P> &y)
{
    fp_t<P> d;
    f_add<P>(d, x, y);
    f_sub<P>(y, x, y);
    x = d;
}

/*
 * Every stage with h < m inside each block of m = 2^lm elements (m <= 1024),
 * in shared memory: dif from h = m/2 down to 1, dit from 1 up, with tws (the
 * inverse table for an inverse transform). Two stages a round (radix 4): a
 * thread takes the quad x0..x3 at base + {0, h/2, h, 3h/2} (base = group·2h
 * + j, j < h/2) through the stages h and h/2 in registers, so that one round
 * trip through shared memory and one barrier serve two stages. The pairs
 * (x0, x2) and (x1, x3) take stage h's twiddles tws[h + j] and
 * tws[h + j + h/2], the pairs (x0, x1) and (x2, x3) stage h/2's tws[h/2 + j].
 * An odd lm leaves the stage h = 1 to a round of its own (the dif's last,
 * the dit's first). Stage 1's twiddle is ω^0 = 1, and so is stage 2's at
 * j = 0: the round of stages 2 and 1 makes one multiplication a quad.
 *
 * LM: the block size as a constant (LM = CUZK_GPU_NTT_BLOCK_LOG, the size
 * of every transform from 2^10 up; lm_arg is then ignored), or 0: lm at run time,
 * for the smaller transforms. As a constant it unrolls the rounds, so that
 * every shared-memory and twiddle index is a constant offset from the
 * thread's own. With the size at run time the kernel issued ~165
 * multiply-pipe instructions a multiplication against the multiplication's
 * own ~125 (ncu, 2^27), that index arithmetic among them; as a constant it
 * made the transform 38.8 → 37.0 ms (docs/PERFORMANCE.md).
 */
template <class P, bool DIT, unsigned LM>
__global__ void __launch_bounds__(NTT_BLOCK_THREADS, ntt_block_blocks(DIT, LM))
    ntt_block_kernel(fp_t<P> *a, const fp_t<P> *tws, unsigned lm_arg)
{
    extern __shared__ uint32_t sh[];
    const unsigned lm = LM ? LM : lm_arg, m = 1u << lm, tid = threadIdx.x;
    /* a block of the constant size has exactly NTT_BLOCK_THREADS threads */
    const unsigned T = LM ? NTT_BLOCK_THREADS : blockDim.x;
    fp_t<P> *blk = a + (size_t)blockIdx.x * m;
    for (unsigned i = tid; i < m; i += T) {
        fp_t<P> x;
        ld_vec(x, &blk[i]);
        ntt_sh_st_<P>(sh, m, i, x);
    }
    __syncthreads();
    const bool single = lm & 1;
#pragma unroll
    for (unsigned r = 0; r < (lm + 1) / 2; r++) {
        if (single && r == (DIT ? 0 : lm / 2)) {
            /* the stage h = 1 alone */
            for (unsigned t = tid; t < m / 2; t += T) {
                fp_t<P> u, v;
                ntt_sh_ld_<P>(u, sh, m, 2 * t);
                ntt_sh_ld_<P>(v, sh, m, 2 * t + 1);
                ntt_butterfly1_<P>(u, v);
                ntt_sh_st_<P>(sh, m, 2 * t, u);
                ntt_sh_st_<P>(sh, m, 2 * t + 1, v);
            }
            __syncthreads();
            continue;
        }
        /* stages h = 2^lh and h/2: the dit's round r covers the stages from
         * 2r (2r - 1 after a single) up, the dif's from lm - 1 - 2r down */
        const unsigned lh = DIT ? 2 * r + 1 - single : lm - 1 - 2 * r, h = 1u << lh, hh = h / 2;
        for (unsigned q = tid; q < m / 4; q += T) {
            const unsigned j = q & (hh - 1), base = ((q >> (lh - 1)) << (lh + 1)) + j;
            fp_t<P> x0, x1, x2, x3, w;
            ntt_sh_ld_<P>(x0, sh, m, base);
            ntt_sh_ld_<P>(x1, sh, m, base + hh);
            ntt_sh_ld_<P>(x2, sh, m, base + h);
            ntt_sh_ld_<P>(x3, sh, m, base + h + hh);
            if (DIT) {
                if (hh == 1) {
                    ntt_butterfly1_<P>(x0, x1);
                    ntt_butterfly1_<P>(x2, x3);
                    ntt_butterfly1_<P>(x0, x2);
                } else {
                    ld_vec(w, &tws[hh + j]);
                    ntt_butterfly_<P, true, false>(x0, x1, w, false);
                    ntt_butterfly_<P, true, false>(x2, x3, w, false);
                    ld_vec(w, &tws[h + j]);
                    ntt_butterfly_<P, true, false>(x0, x2, w, false);
                }
                ld_vec(w, &tws[h + j + hh]);
                ntt_butterfly_<P, true, false>(x1, x3, w, false);
            } else {
                if (hh == 1) {
                    ntt_butterfly1_<P>(x0, x2);
                } else {
                    ld_vec(w, &tws[h + j]);
                    ntt_butterfly_<P, false, false>(x0, x2, w, false);
                }
                ld_vec(w, &tws[h + j + hh]);
                ntt_butterfly_<P, false, false>(x1, x3, w, false);
                if (hh == 1) {
                    ntt_butterfly1_<P>(x0, x1);
                    ntt_butterfly1_<P>(x2, x3);
                } else {
                    ld_vec(w, &tws[hh + j]);
                    ntt_butterfly_<P, false, false>(x0, x1, w, false);
                    ntt_butterfly_<P, false, false>(x2, x3, w, false);
                }
            }
            ntt_sh_st_<P>(sh, m, base, x0);
            ntt_sh_st_<P>(sh, m, base + hh, x1);
            ntt_sh_st_<P>(sh, m, base + h, x2);
            ntt_sh_st_<P>(sh, m, base + h + hh, x3);
        }
        __syncthreads();
    }
    for (unsigned i = tid; i < m; i += T) {
        fp_t<P> x;
        ntt_sh_ld_<P>(x, sh, m, i);
        st_vec(&blk[i], x);
    }
}

/* ntt_bitrev_kernel's tiles: 2^t by 2^t elements, t = min(log2n / 2,
 * NTT_REV_LOG). */
constexpr unsigned NTT_REV_LOG = 4, NTT_REV_THREADS = 256;

/*
 * In place, a_i ↔ a_rev(i) over log2n bits, then a_k times the scale of k
 * (ntt_scale_, after the swap), then (SUB) minus sub_rev(k)·f, by tiles.
 * Write i = hi·2^(log2n-t) + mid·2^t + lo with hi, lo < 2^t; then rev(i) =
 * rev_t(lo)·2^(log2n-t) + rev(mid)·2^t + rev_t(hi): the 2^t × 2^t elements
 * with a given mid (tile mid, rows hi, columns lo) go to tile rev(mid),
 * transposed, each coordinate reversed. Block mid, for each pair the one
 * with mid <= rev(mid), reads both tiles (of a, and of sub) row by row into
 * shared memory and writes each into the other's place row by row: every
 * access to memory is part of a run of 2^t·32 bytes, where a swap of two
 * elements read and wrote 32 bytes at a far address (6.1 ms at 2^27,
 * against ~2.5 for its traffic). A tile sits in shared memory limb-major
 * with rows of 2^NTT_REV_LOG + 1 words, so that a warp's transposed reads
 * spread over the banks.
 */
template <class P, bool SUB>
__global__ void __launch_bounds__(NTT_REV_THREADS)
    ntt_bitrev_kernel(fp_t<P> *a, unsigned log2n, unsigned t, const fp_t<P> *lo, const fp_t<P> *hi,
                      unsigned b, const fp_t<P> *sub, const fp_t<P> *fp)
{
    constexpr unsigned ROW = (1u << NTT_REV_LOG) + 1, PLANE = (1u << NTT_REV_LOG) * ROW;
    /* tiles own and other of a, then (SUB) the same two of sub */
    __shared__ uint32_t sh[SUB ? 4 : 2][P::N * PLANE];
    const unsigned mb = log2n - 2 * t, up = log2n - t, mask = (1u << t) - 1;
    const size_t mid = blockIdx.x;
    const size_t mr = mb ? __brevll((unsigned long long)mid) >> (64 - mb) : 0;
    if (mr < mid)
        return;
    const size_t own = mid << t, other = mr << t;
    const int tiles = mr != mid ? 2 : 1;
    for (unsigned e = threadIdx.x; e < (1u << 2 * t); e += blockDim.x) {
        const unsigned r = e >> t, c = e & mask;
        for (int k = 0; k < (SUB ? 2 * tiles : tiles); k++) {
            const fp_t<P> *v = k < tiles ? a : sub;
            fp_t<P> x;
            ld_vec(x, &v[((size_t)r << up) + ((k % tiles) ? other : own) + c]);
#pragma unroll
            for (int l = 0; l < P::N; l++)
                sh[k < tiles ? k : k - tiles + 2][l * PLANE + r * ROW + c] = x.l[l];
        }
    }
    __syncthreads();
    fp_t<P> f;
    if (SUB)
        ld_vec(f, fp);
    for (unsigned e = threadIdx.x; e < (1u << 2 * t); e += blockDim.x) {
        const unsigned r = e >> t, c = e & mask;
        /* (r, c) of one tile takes (rev_t(c), rev_t(r)) of the other */
        const unsigned sr = t ? __brev(c) >> (32 - t) : 0, sc = t ? __brev(r) >> (32 - t) : 0;
        for (int k = 0; k < tiles; k++) {
            fp_t<P> x;
#pragma unroll
            for (int l = 0; l < P::N; l++)
                x.l[l] = sh[k][l * PLANE + sr * ROW + sc];
            const size_t at = ((size_t)r << up) + (k == tiles - 1 ? own : other) + c;
            ntt_scale_<P>(x, at, lo, hi, b);
            if (SUB) {
                fp_t<P> y;
#pragma unroll
                for (int l = 0; l < P::N; l++)
                    y.l[l] = sh[k + 2][l * PLANE + sr * ROW + sc];
                f_mul<P>(y, y, f);
                f_sub<P>(x, x, y);
            }
            st_vec(&a[at], x);
        }
    }
}

/* a_i times the scale of i (rev: of rev(i), log2n bits), i < 2^log2n: the
 * coset shift before a forward transform, natural or bit-reversed order. */
template <class P>
__global__ void ntt_scale_kernel(fp_t<P> *a, unsigned log2n, const fp_t<P> *lo, const fp_t<P> *hi,
                                 unsigned b, bool rev)
{
    CUZK_GRID_STRIDE(i, (size_t)1 << log2n)
    {
        fp_t<P> x;
        ld_vec(x, &a[i]);
        size_t k = rev && log2n ? __brevll((unsigned long long)i) >> (64 - log2n) : i;
        ntt_scale_<P>(x, k, lo, hi, b);
        st_vec(&a[i], x);
    }
}

} // namespace cuzk

#endif
