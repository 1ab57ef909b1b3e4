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
 * 2^R), so 3 stages cost one pass over memory. Host side: ntt.c.
 */
#ifndef CUZK_CUDA_NTT_CUH
#define CUZK_CUDA_NTT_CUH

#include "cuda/fields.cuh"
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
 * (ntt_radix_kernel's stw) from tw. */
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
            f_sub<P>(t, v, u);
        else
            f_sub<P>(t, u, v);
        if (CALL)
            y = f_mul_call<P>(t, w);
        else
            f_mul<P>(y, t, w);
    }
}

/* Threads a block of ntt_radix_kernel<R>, and the blocks a multiprocessor
 * must hold at once: four of 128 threads for radix 8 cap it at 128
 * registers (ptxas chose 138 for the dif, which left three blocks, 12
 * warps, and made its passes ~15 % slower than the dit's at 126). */
constexpr int ntt_radix_threads(int R)
{
    return R == 3 ? 128 : 256;
}
constexpr int ntt_radix_blocks(int R)
{
    return R == 3 ? 4 : 1;
}

/*
 * R consecutive wide stages, of half-spans 2^lh down to 2^(lh - R + 1) =
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
 * each is read n/2h times. So the stages with n/2h >= 4 read their own
 * table instead (stw, NULL: none): ω^(i·n/2h) for i = 0..h at stw[h + lh
 * - 1 + i], lh = log2 h, consecutive for consecutive threads; the inverse
 * reads entry h - i, which is tw's n/2 - e.
 */
template <class P, int R, bool DIT>
__global__ void __launch_bounds__(ntt_radix_threads(R), ntt_radix_blocks(R))
    ntt_radix_kernel(fp_t<P> *a, const fp_t<P> *tw, const fp_t<P> *stw, unsigned log2n, unsigned lh,
                     bool inverse)
{
    const size_t half = (size_t)1 << (log2n - 1);
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
            const unsigned lq = lmin + q, shift = log2n - 1 - lq; /* log2(n/2h) */
            const size_t h = (size_t)1 << lq;
            const fp_t<P> *st = stw && shift >= 2 ? stw + h + lq - 1 : NULL;
#pragma unroll
            for (int t = 0; t < (1 << R); t++) {
                if (t & (1 << q))
                    continue;
                const size_t ti = j + (size_t)(t & ((1 << q) - 1)) * hmin, e = ti << shift;
                fp_t<P> w;
                if (st)
                    ld_vec(w, &st[inverse ? h - ti : ti]);
                else
                    ld_vec(w, &tw[inverse ? half - e : e]);
                ntt_butterfly_<P, DIT, true>(x[t], x[t + (1 << q)], w, inverse);
            }
        }
#pragma unroll
        for (int t = 0; t < (1 << R); t++)
            st_vec(base + t * hmin, x[t]);
    }
}

/*
 * Every stage with h < m inside each block of m = 2^lm elements (m <= 1024,
 * m/2 threads a block, one butterfly each per stage): dif from h = m/2 down
 * to 1, dit from 1 up, with tws (the inverse table for an inverse
 * transform). The stage h = 1 has the twiddle ω^0 = 1. Shared memory holds
 * the block limb-major (limb l of element i at l·m + i), so that a warp's 32
 * consecutive elements hit 32 different banks. The dit must fit two blocks
 * a multiprocessor (64 registers): at 76 it fitted one, and its pass took
 * 19.5 ms at 2^27 against the dif's 15.3, 16.1 with the bound. The dif has
 * 64 without one (bound, it spilled 8 bytes and took 15.7).
 */
template <class P, bool DIT>
__global__ void __launch_bounds__(512, DIT ? 2 : 1)
    ntt_block_kernel(fp_t<P> *a, const fp_t<P> *tws, unsigned lm)
{
    extern __shared__ uint32_t sh[];
    const unsigned m = 1u << lm, tid = threadIdx.x;
    fp_t<P> *blk = a + (size_t)blockIdx.x * m;
    for (unsigned i = tid; i < m; i += blockDim.x) {
        fp_t<P> x;
        ld_vec(x, &blk[i]);
#pragma unroll
        for (int l = 0; l < P::N; l++)
            sh[l * m + i] = x.l[l];
    }
    __syncthreads();
    for (unsigned s = 0; s < lm; s++) {
        const unsigned lh = DIT ? s : lm - 1 - s, h = 1u << lh;
        for (unsigned t = tid; t < m / 2; t += blockDim.x) {
            unsigned j = t & (h - 1), xi = ((t >> lh) << (lh + 1)) + j, yi = xi + h;
            fp_t<P> u, v;
#pragma unroll
            for (int l = 0; l < P::N; l++) {
                u.l[l] = sh[l * m + xi];
                v.l[l] = sh[l * m + yi];
            }
            if (lh > 0) {
                fp_t<P> w;
                ld_vec(w, &tws[h + j]);
                ntt_butterfly_<P, DIT, false>(u, v, w, false);
            } else {
                fp_t<P> d;
                f_add<P>(d, u, v);
                f_sub<P>(v, u, v);
                u = d;
            }
#pragma unroll
            for (int l = 0; l < P::N; l++) {
                sh[l * m + xi] = u.l[l];
                sh[l * m + yi] = v.l[l];
            }
        }
        __syncthreads();
    }
    for (unsigned i = tid; i < m; i += blockDim.x) {
        fp_t<P> x;
#pragma unroll
        for (int l = 0; l < P::N; l++)
            x.l[l] = sh[l * m + i];
        st_vec(&blk[i], x);
    }
}

/* a_i ↔ a_rev(i), then a_i times the scale of i (after the swap). */
template <class P>
__global__ void ntt_permute_kernel(fp_t<P> *a, unsigned log2n, const fp_t<P> *lo, const fp_t<P> *hi,
                                   unsigned b)
{
    CUZK_GRID_STRIDE(i, (size_t)1 << log2n)
    {
        size_t r = log2n ? __brevll((unsigned long long)i) >> (64 - log2n) : 0;
        if (r < i)
            continue;
        fp_t<P> x, y;
        ld_vec(x, &a[i]);
        ld_vec(y, &a[r]);
        ntt_scale_<P>(y, i, lo, hi, b);
        st_vec(&a[i], y);
        if (r != i) {
            ntt_scale_<P>(x, r, lo, hi, b);
            st_vec(&a[r], x);
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
