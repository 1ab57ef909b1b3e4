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
 * acc[2k] += lo(u[2k+O]·v), acc[2k+1] += hi(u[2k+O]·v) for k < N/2: the
 * products of every other limb of u (O = 0: the even limbs, O = 1: the odd
 * ones) tile acc without overlapping, so they go through ONE carry chain of
 * N instructions in which each lo/hi pair is one 32×32→64-bit product added
 * into two adjacent limbs. CIN: the first instruction takes the carry
 * pending from the statement before; COUT: the last leaves its carry for
 * the statement after (else the caller has shown it cannot carry).
 */
template <int N, int O, bool CIN, bool COUT>
__device__ __forceinline__ void mad_pairs_(uint32_t acc[], const uint32_t u[N], uint32_t v)
{
#pragma unroll
    for (int k = 0; k < N / 2; k++) {
        const uint32_t w = u[2 * k + O];
        if (k == 0 && !CIN)
            acc[0] = ptx::mad_lo_cc(w, v, acc[0]);
        else
            acc[2 * k] = ptx::madc_lo_cc(w, v, acc[2 * k]);
        if (k == N / 2 - 1 && !COUT)
            acc[2 * k + 1] = ptx::madc_hi(w, v, acc[2 * k + 1]);
        else
            acc[2 * k + 1] = ptx::madc_hi_cc(w, v, acc[2 * k + 1]);
    }
}

/*
 * r = a·b·R^-1 mod p: CIOS Montgomery multiplication, one 32-bit limb b_i
 * of b per round, with the accumulator split in two so that every carry
 * chain is a run of whole 64-bit products (mad_pairs_):
 *
 *   T = x + 2^32·y,  x = x_0..x_N (aligned at limb 0), y = y_0..y_(N-1)
 *                    (aligned at limb 1).
 *
 * A round adds a_even·b_i and m·p_even into x, a_odd·b_i and m·p_odd into y
 * (m = x_0·INV makes T's low limb 0), then divides T by 2^32 by renaming
 * alone: T/2^32 = (y + x_1) + 2^32·(x_2..x_N), so the next x is y plus x_1
 * at limb 0 and the next y is x from limb 2. That one addition's carry has
 * the weight of limb 1, which is the next y's limb 0: it enters the next
 * round's first chain (the odd one) as its carry-in, so the shift costs one
 * instruction.
 *
 * Bounds (a < p, p < 2^(32N-1), hence 2p < 2^(32N)): T < 2p between rounds
 * and T < 2^33·p inside one, as in every CIOS. So x < 2^(32(N+1)) fits its
 * N+1 limbs; 2^32·y <= T gives y < 2p < 2^(32N), so the odd chains never
 * carry out of y_(N-1); after the shift x = y + x_1 <= T < 2^(32N), so x_N
 * restarts at 0, and the final (x >> 32) + y = T < 2p needs one conditional
 * subtraction. test_cuda_ff checks it against the CPU's multiplication on
 * random and edge inputs (0, 1, p-1, R mod p).
 * Cost: 4N² + N multiply-adds (N² products of a·b and N² of m·p, lo and
 * hi each, plus m), 3N adds, one conditional subtraction.
 */
/*
 * A multiplier the compiler would strength-reduce (0, 1, 2^32 - 1: BLS12-381
 * Fr has INV = 2^32 - 1 and low limbs 1 and 2^32 - 1) splits the 64-bit
 * multiply-adds of a chain into several instructions each: that made
 * BLS12-381 Fr's multiplication 17 % longer than BN254 Fr's of the same
 * size. Such constants are read from constant memory instead, where the
 * compiler does not see their value and the multiply-add takes them as an
 * operand at no cost.
 */
__host__ __device__ constexpr bool f_folds_(uint32_t v)
{
    return v <= 1 || v == 0xffffffffu;
}
template <class P> __host__ __device__ constexpr fp_t<P> f_modulus_limbs_()
{
    fp_t<P> m{};
    for (int i = 0; i < P::N; i++)
        m.l[i] = P::mod(i);
    return m;
}
template <class P> __constant__ fp_t<P> f_modulus_ = f_modulus_limbs_<P>();
template <class P> __constant__ uint32_t f_inv_ = P::INV;

template <class P>
__device__ __forceinline__ void f_mul(fp_t<P> &r, const fp_t<P> &a, const fp_t<P> &b)
{
    constexpr int N = P::N;
    uint32_t pm[N];
#pragma unroll
    for (int j = 0; j < N; j++)
        pm[j] = f_folds_(P::mod(j)) ? f_modulus_<P>.l[j] : P::mod(j);
    uint32_t x[N + 1], y[N];
#pragma unroll
    for (int j = 0; j <= N; j++)
        x[j] = 0;
#pragma unroll
    for (int j = 0; j < N; j++)
        y[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        const uint32_t bi = b.l[i];
        if (i == 0) {
            mad_pairs_<N, 1, false, false>(y, a.l, bi);
        } else {
            /* T /= 2^32 (the previous round left x_0 = 0); the copies are
             * renamings once the loop is unrolled */
            uint32_t nx[N + 1], ny[N];
            nx[0] = ptx::add_cc(y[0], x[1]);
#pragma unroll
            for (int j = 1; j < N; j++)
                nx[j] = y[j];
            nx[N] = 0;
#pragma unroll
            for (int j = 0; j < N - 1; j++)
                ny[j] = x[j + 2];
            ny[N - 1] = 0;
#pragma unroll
            for (int j = 0; j <= N; j++)
                x[j] = nx[j];
#pragma unroll
            for (int j = 0; j < N; j++)
                y[j] = ny[j];
            mad_pairs_<N, 1, true, false>(y, a.l, bi);
        }
        mad_pairs_<N, 0, false, true>(x, a.l, bi);
        x[N] = ptx::addc(x[N], 0);
        const uint32_t m = x[0] * (f_folds_(P::INV) ? f_inv_<P> : P::INV);
        mad_pairs_<N, 0, false, true>(x, pm, m);
        x[N] = ptx::addc(x[N], 0);
        mad_pairs_<N, 1, false, false>(y, pm, m);
    }
    uint32_t t[N];
    t[0] = ptx::add_cc(x[1], y[0]);
#pragma unroll
    for (int j = 1; j < N - 1; j++)
        t[j] = ptx::addc_cc(x[j + 1], y[j]);
    t[N - 1] = ptx::addc(x[N], y[N - 1]);
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
