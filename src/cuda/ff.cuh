/*
 * Prime-field arithmetic on the device: Montgomery form on 32-bit limbs with
 * PTX carry chains. The twin of src/ff/fp_tmpl.h.
 *
 * Representation (the contract of every function below):
 *  - fp_t<P> holds x·R mod p fully reduced (< p), R = 2^(32·P::N), limbs
 *    least significant first. N 32-bit limbs are the same bytes as the CPU's
 *    N/2 64-bit limbs (little-endian both), and R is the same number, so an
 *    array of CPU field elements is an array of fp_t<P> byte for byte.
 *  - P is a parameter struct (fields.cuh): N, the limbs of p and of R mod p
 *    as constexpr functions (so that unrolled loops see immediates), INV =
 *    -p^-1 mod 2^32, BITS.
 *  - Every modulus leaves the top bit of its top limb clear (p < 2^(32N-1)),
 *    as the CPU template also requires: sums of two reduced values never
 *    carry out of N limbs, and the Montgomery accumulator below never needs
 *    an (N+2)-th limb.
 *  - Results may alias inputs (every function computes into locals first).
 *
 * Carry chains: each PTX instruction is its own asm statement, and the carry
 * flag (CC) passes from one to the next. That holds because the statements
 * are volatile (kept in order) and nothing the compiler emits between them
 * writes CC: only the .cc forms do, and those appear only here.
 */
#ifndef CUZK_CUDA_FF_CUH
#define CUZK_CUDA_FF_CUH

#include <stdint.h>

namespace cuzk
{

/* ---- PTX building blocks --------------------------------------------- */

namespace ptx
{

__device__ __forceinline__ uint32_t add_cc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ uint32_t addc_cc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ uint32_t addc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ uint32_t sub_cc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ uint32_t subc_cc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ uint32_t subc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
/* c + lo(a·b), c + hi(a·b), with and without carry in/out. */
__device__ __forceinline__ uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
__device__ __forceinline__ uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
__device__ __forceinline__ uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
__device__ __forceinline__ uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
__device__ __forceinline__ uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}

} // namespace ptx

/* ---- the element type ------------------------------------------------ */

template <class P> struct fp_t {
    uint32_t l[P::N];
};

template <class P> __device__ __forceinline__ void f_set_zero(fp_t<P> &r)
{
#pragma unroll
    for (int i = 0; i < P::N; i++)
        r.l[i] = 0;
}

template <class P> __device__ __forceinline__ void f_set_one(fp_t<P> &r)
{
#pragma unroll
    for (int i = 0; i < P::N; i++)
        r.l[i] = P::one(i);
}

template <class P> __device__ __forceinline__ bool f_is_zero(const fp_t<P> &a)
{
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < P::N; i++)
        acc |= a.l[i];
    return acc == 0;
}

template <class P> __device__ __forceinline__ bool f_equal(const fp_t<P> &a, const fp_t<P> &b)
{
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < P::N; i++)
        acc |= a.l[i] ^ b.l[i];
    return acc == 0;
}

/* ---- additive operations ---------------------------------------------- */

/* r = t - p when t >= p, else t (t < 2p). One subtraction chain; the
 * borrow selects, without a branch. */
template <class P>
__device__ __forceinline__ void f_reduce_once_(fp_t<P> &r, const uint32_t t[P::N])
{
    uint32_t d[P::N];
    d[0] = ptx::sub_cc(t[0], P::mod(0));
#pragma unroll
    for (int i = 1; i < P::N; i++)
        d[i] = ptx::subc_cc(t[i], P::mod(i));
    uint32_t keep = ptx::subc(0, 0); /* all ones when t < p */
#pragma unroll
    for (int i = 0; i < P::N; i++)
        r.l[i] = d[i] ^ ((d[i] ^ t[i]) & keep);
}

/* r = a + b (no carry out of N limbs: p < 2^(32N-1)). */
template <class P>
__device__ __forceinline__ void f_add(fp_t<P> &r, const fp_t<P> &a, const fp_t<P> &b)
{
    uint32_t t[P::N];
    t[0] = ptx::add_cc(a.l[0], b.l[0]);
#pragma unroll
    for (int i = 1; i < P::N - 1; i++)
        t[i] = ptx::addc_cc(a.l[i], b.l[i]);
    t[P::N - 1] = ptx::addc(a.l[P::N - 1], b.l[P::N - 1]);
    f_reduce_once_<P>(r, t);
}

template <class P> __device__ __forceinline__ void f_dbl(fp_t<P> &r, const fp_t<P> &a)
{
    f_add<P>(r, a, a);
}

/* r = a - b: subtract, then add p back under the borrow mask. */
template <class P>
__device__ __forceinline__ void f_sub(fp_t<P> &r, const fp_t<P> &a, const fp_t<P> &b)
{
    uint32_t t[P::N];
    t[0] = ptx::sub_cc(a.l[0], b.l[0]);
#pragma unroll
    for (int i = 1; i < P::N; i++)
        t[i] = ptx::subc_cc(a.l[i], b.l[i]);
    uint32_t mask = ptx::subc(0, 0);
    r.l[0] = ptx::add_cc(t[0], P::mod(0) & mask);
#pragma unroll
    for (int i = 1; i < P::N - 1; i++)
        r.l[i] = ptx::addc_cc(t[i], P::mod(i) & mask);
    r.l[P::N - 1] = ptx::addc(t[P::N - 1], P::mod(P::N - 1) & mask);
}

/* r = -a (zero stays zero). */
template <class P> __device__ __forceinline__ void f_neg(fp_t<P> &r, const fp_t<P> &a)
{
    uint32_t nz = f_is_zero<P>(a) ? 0u : ~0u;
    uint32_t t[P::N];
    t[0] = ptx::sub_cc(P::mod(0) & nz, a.l[0]);
#pragma unroll
    for (int i = 1; i < P::N - 1; i++)
        t[i] = ptx::subc_cc(P::mod(i) & nz, a.l[i]);
    t[P::N - 1] = ptx::subc(P::mod(P::N - 1) & nz, a.l[P::N - 1]);
#pragma unroll
    for (int i = 0; i < P::N; i++)
        r.l[i] = t[i];
}

/* ---- multiplication ---------------------------------------------------- */

/*
 * r = a·b·R^-1 mod p: CIOS Montgomery multiplication, one 32-bit limb of b
 * per round. A round adds a·b_i to the accumulator t (N+1 limbs), then m·p
 * with m = t_0·INV so that the low limb cancels, and shifts by a limb. Each
 * product goes through two carry chains: the low halves into t_0..t_(N-1),
 * the high halves into t_1..t_N. With a, b < p < 2^(32N-1), t stays below
 * 2p < 2^(32N) between rounds and below 2^(32(N+1)) inside one, so t_N never
 * carries out (the CPU's "no-carry" condition).
 * Cost: 4N² + 3N multiply-adds (612 for N = 12, 280 for N = 8) and one
 * conditional subtraction.
 */
template <class P>
__device__ __forceinline__ void f_mul(fp_t<P> &r, const fp_t<P> &a, const fp_t<P> &b)
{
    constexpr int N = P::N;
    uint32_t t[N + 1];
#pragma unroll
    for (int j = 0; j <= N; j++)
        t[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        const uint32_t bi = b.l[i];
        /* t += a·b_i */
        t[0] = ptx::mad_lo_cc(a.l[0], bi, t[0]);
#pragma unroll
        for (int j = 1; j < N; j++)
            t[j] = ptx::madc_lo_cc(a.l[j], bi, t[j]);
        t[N] = ptx::addc(t[N], 0);
        t[1] = ptx::mad_hi_cc(a.l[0], bi, t[1]);
#pragma unroll
        for (int j = 1; j < N - 1; j++)
            t[j + 1] = ptx::madc_hi_cc(a.l[j], bi, t[j + 1]);
        t[N] = ptx::madc_hi(a.l[N - 1], bi, t[N]);
        /* t += m·p, t_0 becomes 0 */
        const uint32_t m = t[0] * P::INV;
        t[0] = ptx::mad_lo_cc(m, P::mod(0), t[0]);
#pragma unroll
        for (int j = 1; j < N; j++)
            t[j] = ptx::madc_lo_cc(m, P::mod(j), t[j]);
        t[N] = ptx::addc(t[N], 0);
        t[1] = ptx::mad_hi_cc(m, P::mod(0), t[1]);
#pragma unroll
        for (int j = 1; j < N - 1; j++)
            t[j + 1] = ptx::madc_hi_cc(m, P::mod(j), t[j + 1]);
        t[N] = ptx::madc_hi(m, P::mod(N - 1), t[N]);
        /* t /= 2^32 */
#pragma unroll
        for (int j = 0; j < N; j++)
            t[j] = t[j + 1];
        t[N] = 0;
    }
    f_reduce_once_<P>(r, t);
}

template <class P> __device__ __forceinline__ void f_sqr(fp_t<P> &r, const fp_t<P> &a)
{
    f_mul<P>(r, a, a);
}

/*
 * f_mul as a call: one copy of the multiplication per field however many
 * places use it. Operands and result pass by value, in registers (ptxas
 * reports no stack frame), so a call costs the moves of 3N words and the
 * call itself: ~40 instructions against 4N² + 3N. The towers (Fp2, so all
 * of G2) multiply through it; inlining there made the BLS12-381 unit take
 * 5 minutes to compile, most of it in ptxas on G2's point formulas.
 */
template <class P> __device__ __noinline__ fp_t<P> f_mul_call(fp_t<P> a, fp_t<P> b)
{
    fp_t<P> r;
    f_mul<P>(r, a, b);
    return r;
}

/* r = a·R^-1: the canonical value of a Montgomery-form a (fully reduced). */
template <class P> __device__ __forceinline__ void f_from_mont(fp_t<P> &r, const fp_t<P> &a)
{
    fp_t<P> one;
#pragma unroll
    for (int i = 0; i < P::N; i++)
        one.l[i] = i == 0;
    f_mul<P>(r, a, one);
}

/* r = a^e for a public exponent e < 2^64 (square and multiply from the top). */
template <class P>
__device__ __forceinline__ void f_pow_u64(fp_t<P> &r, const fp_t<P> &a, uint64_t e)
{
    fp_t<P> acc;
    f_set_one<P>(acc);
    for (int i = 63; i >= 0; i--) {
        f_sqr<P>(acc, acc);
        if ((e >> i) & 1)
            f_mul<P>(acc, acc, a);
    }
    r = acc;
}

} // namespace cuzk

#endif
