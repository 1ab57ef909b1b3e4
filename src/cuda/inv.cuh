/*
 * Field inversion on the device, the twin of the CPU's FPN(inv) and
 * FPN(inv_vartime) (src/ff/fp_tmpl_impl.h):
 *  - f_inv: Fermat, a^(p-2), square and multiply from the top through the
 *    out-of-line multiplication, about 1.5·log2(p) multiplications (570 on
 *    BLS12-381 Fp). Constant in its steps; the development setup uses it.
 *  - f_inv_vartime: the binary GCD on word-sized approximations (T. Pornin,
 *    "Optimized binary GCD for modular inversion", IACR ePrint 2020/972,
 *    algorithm 2), variable-time, for public values (the MSM's batch-affine
 *    additions). The CPU's algorithm with F_INV_STEPS = 30 steps a round
 *    instead of 31, so that f·a + g·b (|f|, |g| <= 2^30, 32-bit limbs) and
 *    its carry fit a signed 64-bit accumulator.
 * Both map 0 to 0. Fp2 (u² = -1) inverts through the norm: one inversion
 * of c0² + c1² in Fp.
 */
#ifndef CUZK_CUDA_INV_CUH
#define CUZK_CUDA_INV_CUH

#include "cuda/fields.cuh"

namespace cuzk
{

template <class P> __device__ __noinline__ fp_t<P> fp_inv(fp_t<P> a)
{
    uint32_t e[P::N];
    uint32_t borrow = 2;
#pragma unroll
    for (int i = 0; i < P::N; i++) {
        uint32_t m = P::mod(i);
        e[i] = m - borrow;
        borrow = m < borrow;
    }
    fp_t<P> acc;
    f_set_one<P>(acc);
    for (int i = P::N * 32 - 1; i >= 0; i--) {
        acc = f_mul_call<P>(acc, acc);
        if ((e[i / 32] >> (i % 32)) & 1)
            acc = f_mul_call<P>(acc, a);
    }
    return acc;
}

/* ---- the binary GCD -------------------------------------------------------- */

enum { F_INV_STEPS = 30 };

/* Bit length of v (0 for 0); every index a constant, so v stays in
 * registers. */
template <int N> __device__ __forceinline__ unsigned inv_bitlen_(const uint32_t v[N])
{
    unsigned len = 0;
#pragma unroll
    for (int i = 0; i < N; i++)
        if (v[i])
            len = 32 * i + 32 - __clz(v[i]);
    return len;
}

/* The word that stands for v in the inner loop: its low F_INV_STEPS bits
 * and, above them, bits n-34 .. n-1 of v (all of v when n <= 64). */
template <int N> __device__ __forceinline__ uint64_t inv_approx_(const uint32_t v[N], unsigned n)
{
    if (n <= 64)
        return (uint64_t)v[1] << 32 | v[0];
    const int s = (int)n - 34;
    uint64_t top = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        const int off = 32 * i - s; /* where limb i lands in top */
        if (off >= 0 && off < 34)
            top |= (uint64_t)v[i] << off;
        else if (off < 0 && off > -32)
            top |= (uint64_t)(v[i] >> -off);
    }
    top &= ((uint64_t)1 << 34) - 1;
    return top << F_INV_STEPS | (v[0] & ((1u << F_INV_STEPS) - 1));
}

/* x = |f·a + g·b| / 2^F_INV_STEPS for a, b < 2^(32N-1) whose combination
 * the inner loop made divisible; returns whether it was negative. */
template <int N>
__device__ __forceinline__ bool inv_lincomb_(uint32_t x[N], int32_t f, const uint32_t a[N],
                                             int32_t g, const uint32_t b[N])
{
    uint32_t t[N + 1];
    int64_t acc = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        acc += (int64_t)f * (int64_t)a[i] + (int64_t)g * (int64_t)b[i];
        t[i] = (uint32_t)acc;
        acc >>= 32; /* arithmetic */
    }
    t[N] = (uint32_t)acc;
    const bool neg = acc < 0;
    if (neg) {
        uint32_t c = 1;
#pragma unroll
        for (int i = 0; i <= N; i++) {
            const uint64_t s = (uint64_t)(~t[i]) + c;
            t[i] = (uint32_t)s;
            c = (uint32_t)(s >> 32);
        }
    }
#pragma unroll
    for (int i = 0; i < N; i++)
        x[i] = t[i] >> F_INV_STEPS | t[i + 1] << (32 - F_INV_STEPS);
    return neg;
}

/* x = (f·u + g·v) / 2^F_INV_STEPS mod p for u, v < p: k·p added to clear
 * the low bits (k = s·(-p^-1) mod 2^F_INV_STEPS), then the shift, then the
 * result, in (-2p, 3p), brought into [0, p). */
template <class P>
__device__ __forceinline__ void inv_lincomb_mod_(uint32_t x[P::N], int32_t f,
                                                 const uint32_t u[P::N], int32_t g,
                                                 const uint32_t v[P::N])
{
    constexpr int N = P::N;
    uint32_t s[N];
    int64_t acc = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        acc += (int64_t)f * (int64_t)u[i] + (int64_t)g * (int64_t)v[i];
        s[i] = (uint32_t)acc;
        acc >>= 32;
    }
    const uint32_t k = (s[0] * P::INV) & ((1u << F_INV_STEPS) - 1);
    uint64_t c = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        c += (uint64_t)k * P::mod(i) + s[i];
        s[i] = (uint32_t)c;
        c >>= 32;
    }
    int64_t top = acc + (int64_t)c; /* |s + k·p| < 2^(32N+32) */
#pragma unroll
    for (int i = 0; i < N - 1; i++)
        x[i] = s[i] >> F_INV_STEPS | s[i + 1] << (32 - F_INV_STEPS);
    x[N - 1] = s[N - 1] >> F_INV_STEPS | (uint32_t)top << (32 - F_INV_STEPS);
    top >>= F_INV_STEPS;
    while (top < 0) {
        uint64_t cc = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            cc += (uint64_t)x[i] + P::mod(i);
            x[i] = (uint32_t)cc;
            cc >>= 32;
        }
        top += (int64_t)cc;
    }
    for (;;) {
        /* x - p, and whether it borrowed */
        uint32_t d[N];
        int64_t bb = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            bb += (int64_t)x[i] - (int64_t)P::mod(i);
            d[i] = (uint32_t)bb;
            bb >>= 32;
        }
        if (top == 0 && bb < 0)
            break; /* x < p */
#pragma unroll
        for (int i = 0; i < N; i++)
            x[i] = d[i];
        top += bb;
    }
}

/* a^-1 for public a, 0 for 0. With y the Montgomery limbs a·R, the rounds
 * keep a' = u·y and b' = v·y (mod p) from (a', b') = (y, p), (u, v) = (1, 0)
 * until a' = 0 and b' = gcd = 1: v = y^-1 = a^-1·R^-1, and two
 * multiplications by R² mod p give a^-1·R. */
template <class P> __device__ __noinline__ fp_t<P> fp_inv_vartime(fp_t<P> a)
{
    constexpr int N = P::N;
    if (f_is_zero<P>(a))
        return a;
    uint32_t va[N], vb[N], u[N], v[N];
#pragma unroll
    for (int i = 0; i < N; i++) {
        va[i] = a.l[i];
        vb[i] = P::mod(i);
        u[i] = i == 0;
        v[i] = 0;
    }
    for (;;) {
        uint32_t any = 0;
#pragma unroll
        for (int i = 0; i < N; i++)
            any |= va[i];
        if (!any)
            break;
        const unsigned la = inv_bitlen_<N>(va), lb = inv_bitlen_<N>(vb);
        const unsigned n = la > lb ? la : lb;
        uint64_t xa = inv_approx_<N>(va, n), xb = inv_approx_<N>(vb, n);
        /* masks, not branches: lanes of a warp take different steps */
        int32_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
#pragma unroll 10
        for (int j = 0; j < F_INV_STEPS; j++) {
            const uint64_t odd = 0 - (xa & 1), swap = odd & (0 - (uint64_t)(xa < xb));
            const uint32_t sw = (uint32_t)swap, od = (uint32_t)odd;
            uint64_t t = (xa ^ xb) & swap;
            xa ^= t;
            xb ^= t;
            uint32_t tf = (uint32_t)(f0 ^ f1) & sw, tg = (uint32_t)(g0 ^ g1) & sw;
            f0 ^= (int32_t)tf;
            f1 ^= (int32_t)tf;
            g0 ^= (int32_t)tg;
            g1 ^= (int32_t)tg;
            xa -= xb & odd;
            f0 -= (int32_t)((uint32_t)f1 & od);
            g0 -= (int32_t)((uint32_t)g1 & od);
            xa >>= 1;
            f1 = (int32_t)((uint32_t)f1 << 1);
            g1 = (int32_t)((uint32_t)g1 << 1);
        }
        uint32_t na[N], nb[N], nu[N], nv[N];
        if (inv_lincomb_<N>(na, f0, va, g0, vb))
            f0 = -f0, g0 = -g0;
        if (inv_lincomb_<N>(nb, f1, va, g1, vb))
            f1 = -f1, g1 = -g1;
        inv_lincomb_mod_<P>(nu, f0, u, g0, v);
        inv_lincomb_mod_<P>(nv, f1, u, g1, v);
#pragma unroll
        for (int i = 0; i < N; i++) {
            va[i] = na[i];
            vb[i] = nb[i];
            u[i] = nu[i];
            v[i] = nv[i];
        }
    }
    fp_t<P> r, r2;
#pragma unroll
    for (int i = 0; i < N; i++) {
        r.l[i] = v[i];
        r2.l[i] = P::r2(i);
    }
    r = f_mul_call<P>(r, r2);    /* a^-1 */
    return f_mul_call<P>(r, r2); /* a^-1·R */
}

/* ---- per coordinate type ---------------------------------------------------- */

template <class P> __device__ __forceinline__ void f_inv(fpc_t<P> &r, const fpc_t<P> &a)
{
    r.v = fp_inv<P>(a.v);
}

template <class P> __device__ __forceinline__ void f_inv(fp_t<P> &r, const fp_t<P> &a)
{
    r = fp_inv<P>(a);
}

template <class P> __device__ __forceinline__ void f_inv_vartime(fpc_t<P> &r, const fpc_t<P> &a)
{
    r.v = fp_inv_vartime<P>(a.v);
}

template <class P> __device__ __forceinline__ void f_inv_vartime(fp_t<P> &r, const fp_t<P> &a)
{
    r = fp_inv_vartime<P>(a);
}

/* (c0 + c1·u)^-1 = (c0 - c1·u) / (c0² + c1²), u² = -1. */
template <class P, bool VARTIME>
__device__ __forceinline__ void f2_inv_(fp2_t<P> &r, const fp2_t<P> &a)
{
    fp_t<P> n = f_mul_call<P>(a.c0, a.c0), t = f_mul_call<P>(a.c1, a.c1);
    f_add<P>(n, n, t);
    n = VARTIME ? fp_inv_vartime<P>(n) : fp_inv<P>(n);
    r.c0 = f_mul_call<P>(a.c0, n);
    t = f_mul_call<P>(a.c1, n);
    f_neg<P>(r.c1, t);
}

template <class P> __device__ __forceinline__ void f_inv(fp2_t<P> &r, const fp2_t<P> &a)
{
    f2_inv_<P, false>(r, a);
}

template <class P> __device__ __forceinline__ void f_inv_vartime(fp2_t<P> &r, const fp2_t<P> &a)
{
    f2_inv_<P, true>(r, a);
}

} // namespace cuzk

#endif
