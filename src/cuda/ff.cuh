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

/* r = a - b + p for reduced a and b: in [1, 2p], so not reduced, and only
 * for f_mul's second operand, which may be anything below R (its bounds
 * need the first operand below p alone). Two chains where f_sub has a
 * chain, a mask and a masked chain. */
template <class P>
__device__ __forceinline__ void f_sub_unreduced(fp_t<P> &r, const fp_t<P> &a, const fp_t<P> &b)
{
    uint32_t t[P::N];
    t[0] = ptx::sub_cc(P::mod(0), b.l[0]);
#pragma unroll
    for (int i = 1; i < P::N - 1; i++)
        t[i] = ptx::subc_cc(P::mod(i), b.l[i]);
    t[P::N - 1] = ptx::subc(P::mod(P::N - 1), b.l[P::N - 1]);
    r.l[0] = ptx::add_cc(a.l[0], t[0]);
#pragma unroll
    for (int i = 1; i < P::N - 1; i++)
        r.l[i] = ptx::addc_cc(a.l[i], t[i]);
    r.l[P::N - 1] = ptx::addc(a.l[P::N - 1], t[P::N - 1]);
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
 * the statement after (else the caller has shown it cannot carry). K0: the
 * chain starts at pair K0 (the pairs below are the caller's).
 */
template <int N, int O, bool CIN, bool COUT, int K0 = 0>
__device__ __forceinline__ void mad_pairs_(uint32_t acc[], const uint32_t u[N], uint32_t v)
{
#pragma unroll
    for (int k = K0; k < N / 2; k++) {
        const uint32_t w = u[2 * k + O];
        if (k == K0 && !CIN)
            acc[2 * k] = ptx::mad_lo_cc(w, v, acc[2 * k]);
        else
            acc[2 * k] = ptx::madc_lo_cc(w, v, acc[2 * k]);
        if (k == N / 2 - 1 && !COUT)
            acc[2 * k + 1] = ptx::madc_hi(w, v, acc[2 * k + 1]);
        else
            acc[2 * k + 1] = ptx::madc_hi_cc(w, v, acc[2 * k + 1]);
    }
}

/*
 * T /= 2^32 for T = x + 2^32·y with x_0 = 0 (f_mul's layout): the next x is
 * y plus x_1 at limb 0, the next y is x from limb 2; the copies are
 * renamings once the caller's loop is unrolled. The addition's carry, of
 * the weight of the new y's limb 0, is left pending for the caller's next
 * chain, which must start with a carry-in.
 */
template <int N> __device__ __forceinline__ void mont_shift_(uint32_t x[], uint32_t y[])
{
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
}

/* The split accumulator (x: N + 1 limbs, y: N) at zero. */
template <int N> __device__ __forceinline__ void mont_zero_(uint32_t x[], uint32_t y[])
{
#pragma unroll
    for (int j = 0; j <= N; j++)
        x[j] = 0;
#pragma unroll
    for (int j = 0; j < N; j++)
        y[j] = 0;
}

/* t = u + v on N limbs; the caller has shown the sum fits (t may alias). */
template <int N>
__device__ __forceinline__ void mont_sum_(uint32_t t[], const uint32_t u[], const uint32_t v[])
{
    t[0] = ptx::add_cc(u[0], v[0]);
#pragma unroll
    for (int j = 1; j < N - 1; j++)
        t[j] = ptx::addc_cc(u[j], v[j]);
    t[N - 1] = ptx::addc(u[N - 1], v[N - 1]);
}

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

/* The Montgomery constants as f_mul and f_sqr take them: p's limbs and
 * INV = -p^-1 mod 2^32, immediates but for those f_folds_ names. */
template <class P> __device__ __forceinline__ void f_mont_modulus_(uint32_t pm[P::N])
{
#pragma unroll
    for (int j = 0; j < P::N; j++)
        pm[j] = f_folds_(P::mod(j)) ? f_modulus_<P>.l[j] : P::mod(j);
}
template <class P> __device__ __forceinline__ uint32_t f_mont_inv_()
{
    return f_folds_(P::INV) ? f_inv_<P> : P::INV;
}

/*
 * One reduction step's m·p, in the split accumulator's two chains, for the
 * x_0 that m must cancel. The generic step is m = x_0·INV, then m·p_even
 * into x and m·p_odd into y (mad_pairs_): 2N + 1 multiply-adds (m, and the
 * lo and hi of N products).
 *
 * When p ≡ 2^64 − 2^32 + 1 (mod 2^64), i.e. p_0 = 1 and p_1 = 2^32 − 1
 * (BLS12-381 Fr), INV = 2^32 − 1, so m = −x_0 mod 2^32, and the first pair
 * of each chain is known without multiplying:
 *   m·p_0 = m:                 lo = m, hi = 0,
 *   m·p_1 = m·2^32 − m:        lo = −m = x_0, hi = m − 1 = ~x_0 (m ≠ 0),
 *                              lo = hi = 0 (m = 0, i.e. x_0 = 0).
 * Those pairs become additions (the values added, and so the carries and
 * the bounds, are the same). ptxas issues each lo/hi pair of a chain as one
 * 64-bit multiply-add (IMAD.WIDE.U32.X), so this saves two of the round's
 * seventeen multiply instructions: 60.0 → 63.3·10⁹ multiplications/s on
 * an H200 (docs/PERFORMANCE.md). m itself stays a multiplication by INV
 * (read from constant memory, f_mont_inv_): taken as −x_0, it made ptxas
 * split every m·p pair of the chains into two instructions (51.9·10⁹/s).
 */
template <class P> __host__ __device__ constexpr bool f_low_solinas_()
{
    return P::mod(0) == 1 && P::mod(1) == 0xffffffffu;
}
/* x += m·p_even (COUT: the carry is left for x_N). */
template <class P, bool COUT>
__device__ __forceinline__ void mont_p_even_(uint32_t x[], const uint32_t pm[], uint32_t m)
{
    if constexpr (f_low_solinas_<P>()) {
        x[0] = ptx::add_cc(x[0], m); /* 0, with the carry x_0 ≠ 0 */
        x[1] = ptx::addc_cc(x[1], 0);
        mad_pairs_<P::N, 0, true, COUT, 1>(x, pm, m);
    } else {
        mad_pairs_<P::N, 0, false, COUT>(x, pm, m);
    }
}
/* y += m·p_odd/2^32, no carry out (CIN: the carry pending enters at y_0);
 * x0 is the x_0 that m was made from. */
template <class P, bool CIN>
__device__ __forceinline__ void mont_p_odd_(uint32_t y[], const uint32_t pm[], uint32_t m,
                                            uint32_t x0)
{
    if constexpr (f_low_solinas_<P>()) {
        const uint32_t hi = x0 != 0 ? ~x0 : 0;
        y[0] = CIN ? ptx::addc_cc(y[0], x0) : ptx::add_cc(y[0], x0);
        y[1] = ptx::addc_cc(y[1], hi);
        mad_pairs_<P::N, 1, true, false, 1>(y, pm, m);
    } else {
        mad_pairs_<P::N, 1, CIN, false>(y, pm, m);
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
 * hi each, plus m; 4N² − 3N where f_low_solinas_ holds), 3N adds, one
 * conditional subtraction.
 */
template <class P>
__device__ __forceinline__ void f_mul(fp_t<P> &r, const fp_t<P> &a, const fp_t<P> &b)
{
    constexpr int N = P::N;
    uint32_t pm[N];
    f_mont_modulus_<P>(pm);
    uint32_t x[N + 1], y[N];
    mont_zero_<N>(x, y);
#pragma unroll
    for (int i = 0; i < N; i++) {
        const uint32_t bi = b.l[i];
        if (i == 0) {
            mad_pairs_<N, 1, false, false>(y, a.l, bi);
        } else {
            mont_shift_<N>(x, y);
            mad_pairs_<N, 1, true, false>(y, a.l, bi);
        }
        mad_pairs_<N, 0, false, true>(x, a.l, bi);
        x[N] = ptx::addc(x[N], 0);
        const uint32_t x0 = x[0];
        const uint32_t m = x0 * f_mont_inv_<P>();
        mont_p_even_<P, true>(x, pm, m);
        x[N] = ptx::addc(x[N], 0);
        mont_p_odd_<P, false>(y, pm, m, x0);
    }
    uint32_t t[N];
    mont_sum_<N>(t, x + 1, y);
    f_reduce_once_<P>(r, t);
}

/*
 * t = a·b on 2N limbs, unreduced: f_mul's rounds without the m·p chains, for
 * products that are combined before one Montgomery reduction (f_redc_; Fp2's
 * multiplication in fields.cuh). Round i adds a·b_i on the same split
 * accumulator; its limb 0 is then final (later rows start a limb higher), so
 * it is limb i of t, and the shift by renaming drops it. After the last
 * round the accumulator, (x >> 32) + y, is t's top N limbs.
 * Bounds, for a, b < 2^(32N) - 1 (an unreduced sum of two reduced values
 * qualifies, p < 2^(32N-1)): in round i's frame the accumulator is below
 * a·2^32 + a, so y < a + 1 < 2^(32N) and the odd chains never carry out of
 * it; x < 2^(32N) after each shift, so x_N <= 1; and a·b < 2^(64N) leaves
 * nothing above t's top limb.
 * Cost: 2N² multiply-adds (N² whole products), 3N adds.
 */
template <int N>
__device__ __forceinline__ void f_prod_(uint32_t t[2 * N], const uint32_t a[N], const uint32_t b[N])
{
    uint32_t x[N + 1], y[N];
    mont_zero_<N>(x, y);
#pragma unroll
    for (int i = 0; i < N; i++) {
        if (i == 0) {
            mad_pairs_<N, 1, false, false>(y, a, b[0]);
        } else {
            t[i - 1] = x[0];
            mont_shift_<N>(x, y);
            mad_pairs_<N, 1, true, false>(y, a, b[i]);
        }
        mad_pairs_<N, 0, false, true>(x, a, b[i]);
        x[N] = ptx::addc(x[N], 0);
    }
    t[N - 1] = x[0];
    mont_sum_<N>(t + N, x + 1, y);
}

/*
 * r = T·R^-1 mod p, fully reduced, for any T < p·R given as 2N limbs: f_mul's
 * reduction rounds on T's low half L (x = L, y = 0), then T's high half H
 * added at the end, as f_sqr does for BLS12-381 Fr.
 * Bounds: in round i's frame the accumulator is (L + M·p)/2^(32i) <
 * 2^(32(N-i)) + p (M: the m's so far) and the round adds m·p < 2^32·p, so y
 * < 2^(32(N-1)) + p + 1 < 2^(32N) (p < 2^(32N-1)): the odd chains never
 * carry out; x < 2^(32N) after each shift, so x_N <= 1. At the end
 * (L + M·p)/R + H = (T + M·p)/R < 2p: one conditional subtraction.
 */
template <class P> __device__ __forceinline__ void f_redc_(fp_t<P> &r, const uint32_t t[2 * P::N])
{
    constexpr int N = P::N;
    uint32_t pm[N];
    f_mont_modulus_<P>(pm);
    uint32_t x[N + 1], y[N];
#pragma unroll
    for (int j = 0; j < N; j++) {
        x[j] = t[j];
        y[j] = 0;
    }
    x[N] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        if (i > 0)
            mont_shift_<N>(x, y);
        const uint32_t x0 = x[0];
        const uint32_t m = x0 * f_mont_inv_<P>(); /* leaves the shift's carry pending */
        if (i == 0)
            mont_p_odd_<P, false>(y, pm, m, x0);
        else
            mont_p_odd_<P, true>(y, pm, m, x0);
        mont_p_even_<P, true>(x, pm, m);
        x[N] = ptx::addc(x[N], 0);
    }
    uint32_t s[N];
    mont_sum_<N>(s, x + 1, y);
    mont_sum_<N>(s, s, t + N);
    f_reduce_once_<P>(r, s);
}

/*
 * The square's products a_i·w_j (w_i = a_i, w_(i+1) = c_(i+1), w_j = b_j
 * beyond: see f_sqr) in chains of whole products, two shapes.
 *
 * sqr_row_: row i, for round i of f_sqr: the j = i..N-1 with j % 2 ==
 * PAR, at the round's limbs (j, j+1): the even j into x_j, x_(j+1),
 * the odd j into y_(j-1), y_j. No carry in; COUT says whether the last
 * product gives a carry out (else the caller has shown it cannot).
 */
template <int N, int PAR, bool COUT>
__device__ __forceinline__ void sqr_row_(uint32_t x[], uint32_t y[], int i, const uint32_t a[N],
                                         const uint32_t b[N], const uint32_t c[N])
{
    const int first = i % 2 == PAR ? i : i + 1;
#pragma unroll
    for (int j = first; j < N; j += 2) {
        uint32_t *acc = PAR == 0 ? x + j : y + j - 1;
        const uint32_t w = j == i ? a[i] : j == i + 1 ? c[j] : b[j];
        if (j == first)
            acc[0] = ptx::mad_lo_cc(a[i], w, acc[0]);
        else
            acc[0] = ptx::madc_lo_cc(a[i], w, acc[0]);
        if (j + 2 >= N && !COUT)
            acc[1] = ptx::madc_hi(a[i], w, acc[1]);
        else
            acc[1] = ptx::madc_hi_cc(a[i], w, acc[1]);
    }
}

/*
 * sqr_chain_: chain s of the whole square, into e (EVEN: the products with
 * i + j even, at limbs l = 2k, l + 1 for k = s..N-1-s) or o (i + j odd,
 * l = 2k + 1 for k = s..N-2-s). Below the middle (k < N/2) the product at
 * l is a_s·w_(l-s), row s; above it a_(l-N+1+s)·w_(N-1-s), column N-1-s.
 * So chain s spans limbs 2s.. (2s+1.. in o) up to 2N-1-2s (2N-2-2s), and
 * lies inside chain s-1. No carry in or out: f_sqr runs the chains
 * innermost first, so each one's first pair and top limb are still 0, and
 * hi + carry <= 2^32 - 1 cannot carry out of the top.
 */
template <int N, bool EVEN>
__device__ __forceinline__ void sqr_chain_(uint32_t acc[], int s, const uint32_t a[N],
                                           const uint32_t b[N], const uint32_t c[N])
{
    const int last = EVEN ? N - 1 - s : N - 2 - s;
#pragma unroll
    for (int k = s; k <= last; k++) {
        const int l = EVEN ? 2 * k : 2 * k + 1; /* = i + j */
        const int i = k < N / 2 ? s : l - (N - 1 - s);
        const int j = l - i;
        const uint32_t w = j == i ? a[i] : j == i + 1 ? c[j] : b[j];
        if (k == s)
            acc[l] = ptx::mad_lo_cc(a[i], w, acc[l]);
        else
            acc[l] = ptx::madc_lo_cc(a[i], w, acc[l]);
        if (k == last)
            acc[l + 1] = ptx::madc_hi(a[i], w, acc[l + 1]);
        else
            acc[l + 1] = ptx::madc_hi_cc(a[i], w, acc[l + 1]);
    }
}

/*
 * r = a²·R^-1 mod p, the same value as f_mul(r, a, a), with each product
 * a_i·a_j (i < j) taken once: N(N+1)/2 + N² whole products (the square,
 * then m·p) against f_mul's 2N².
 *
 * The doubling goes into the operand, not the result. With
 *   b_j = limb j of 2a (funnel shift of a_(j-1), a_j; 2a < R as p < R/2),
 *   c_j = a_j << 1 (limb j of 2a without the bit that a_(j-1) shifts in),
 * row i of the square, a_i·(a_i·2^(32i) + 2·Σ_(j>i) a_j·2^(32j)), is
 *   a_i·w_j at limb i+j,  w_i = a_i, w_(i+1) = c_(i+1), w_j = b_j (j ≥ i+2):
 * the top bit of a_(i+1) that c_(i+1) drops is the low bit of b_(i+2), and
 * 2a_(N-1) < 2^32 leaves nothing above limb N-1. That costs 2N - 3 shifts.
 *
 * The reduction is f_mul's rounds without the a·b_i chains: the same split
 * accumulator (x aligned at limb 0, N + 1 limbs; y aligned at limb 1, N
 * limbs), the same shift by renaming, whose carry enters the m·p_odd chain
 * (m = x_0·INV is taken in between, which leaves CC alone). The square
 * enters in one of two ways, chosen at compile time from p's top limb.
 *
 * ROWS (3p_(N-1) + 4 <= 2^32: BLS12-381 Fp, p_11 = 0x1a0111ea, and both
 * BN254 fields, p_7 = 0x30644e72): round i adds row i, where f_mul's round
 * adds a·b_i. Relative to the round, row i sits at limbs i..N: the even j
 * tile x and carry into x_N, the odd j tile y up to its top (sqr_row_);
 * for i ≥ 1 it leaves limb 0 alone, so m can come first. Round 0 starts
 * from zero, so row 0 goes first (it makes x_0) and its chains end in
 * unwritten limbs, without carry.
 *  - x: the shift leaves x < 2^(32N) (x_N = 0); m·p_even and the row's even
 *    products each add less than 2^(32N) (top pair (N-2, N-1)): x_N <= 2.
 *  - y: it starts below 3·2^(32(N-2)) (x_2..x_N of the round before) and
 *    gains m·p_odd/2^32 < (p_(N-1) + 1)·2^(32(N-1)) and the row's odd
 *    products/2^32 < (w + 1)·2^(32(N-1)), w the row's top multiplier,
 *    <= 2a_(N-1) + 1 <= 2p_(N-1) + 1: y < 2^(32N) by the condition, so its
 *    chains end without a carry out. (With BLS12-381 Fr's p_7 = 0x73eda753
 *    there are inputs for which y overflows.)
 *  - the rows before round i sum to A(2a - A), A = a mod 2^(32i), so after
 *    the shift the accumulator is (A(2a - A) + M·p)/2^(32i) < 2a + p < 3p
 *    (M < 2^(32i): the m's so far). NARROW, when 3p_(N-1) + p_(N-2) + 4 <=
 *    2^32 (BLS12-381 Fp): m·p_even right after the shift leaves x < 3p +
 *    (p_(N-2) + 1)·2^(32(N-1)) <= 2^(32N), no carry out, and the round saves
 *    an addition.
 *  - after round N - 1: (a² + M·p)/R < p/2 + p, as (x >> 32) + y.
 *
 * Otherwise (BLS12-381 Fr) the whole square comes first, as e + o: e takes
 * the products with i + j even (limbs 0..2N-1), o those with i + j odd
 * (limbs 1..2N-2), N/2 nested chains each (sqr_chain_), no carries between
 * them. x and y start as e's and o's limbs below N, L < 2R, the rounds
 * reduce L, and H = the limbs from N up of e plus those of o, = (a² - L)/R
 * < p/2, is added at the end.
 *  - x: L's part, then x < 2^(32N) after each shift, and m·p_even <
 *    2^(32N): x_N <= 1. y starts below 2^(32(N-1)) (later 2·2^(32(N-2)))
 *    and gains the shift's carry and m·p_odd/2^32 < (p_(N-1) + 1)·
 *    2^(32(N-1)): y < 2^(32N).
 *  - after the shift the accumulator is (L + M·p)/2^(32i) < 2^(32(N-i)+1) +
 *    p; NARROW, when p_(N-1) + p_(N-2) + 4 <= 2^32 (BLS12-381 Fr): x after
 *    m·p_even < 2^(32(N-1))·(p_(N-1) + 3 + p_(N-2) + 1) <= 2^(32N) for i ≥ 1.
 *  - at the end (L + M·p)/R + H < p + 2 + p/2.
 *
 * Either way the sum is below 2p: one conditional subtraction, as in f_mul.
 * A Python model of this exact instruction sequence (each instruction
 * without carry-out checked not to overflow) agreed with a²·R^-1 mod p on
 * random and edge inputs for the four fields, both ways, and found the
 * conditions above nearly tight on moduli built to sit at their edges.
 */
template <class P> __device__ __forceinline__ void f_sqr(fp_t<P> &r, const fp_t<P> &a)
{
    constexpr int N = P::N;
    static_assert(N % 2 == 0, "f_sqr pairs limbs");
    constexpr uint64_t TOP = P::mod(N - 1), NEXT = P::mod(N - 2), LIM = 1ull << 32;
    constexpr bool ROWS = 3 * TOP + 4 <= LIM;
    constexpr bool NARROW = ROWS ? 3 * TOP + NEXT + 4 <= LIM : TOP + NEXT + 4 <= LIM;
    uint32_t pm[N];
    f_mont_modulus_<P>(pm);
    uint32_t b[N], c[N];
    b[0] = b[1] = c[0] = 0; /* unused */
#pragma unroll
    for (int j = 2; j < N; j++)
        b[j] = __funnelshift_l(a.l[j - 1], a.l[j], 1);
#pragma unroll
    for (int j = 1; j < N; j++)
        c[j] = a.l[j] << 1;
    uint32_t x[N + 1], y[N], h[N];
#pragma unroll
    for (int j = 0; j <= N; j++)
        x[j] = 0;
#pragma unroll
    for (int j = 0; j < N; j++)
        y[j] = h[j] = 0;
    if constexpr (ROWS) {
        sqr_row_<N, 0, false>(x, y, 0, a.l, b, c);
        sqr_row_<N, 1, false>(x, y, 0, a.l, b, c);
    } else {
        uint32_t e[2 * N], o[2 * N];
#pragma unroll
        for (int j = 0; j < 2 * N; j++)
            e[j] = o[j] = 0;
#pragma unroll
        for (int s = N / 2 - 1; s >= 0; s--) {
            sqr_chain_<N, true>(e, s, a.l, b, c);
            sqr_chain_<N, false>(o, s, a.l, b, c);
        }
#pragma unroll
        for (int j = 0; j < N; j++)
            x[j] = e[j];
#pragma unroll
        for (int j = 0; j < N - 1; j++)
            y[j] = o[j + 1];
        mont_sum_<N>(h, e + N, o + N); /* o[2N - 1] = 0; H < p/2 */
    }
    const uint32_t inv = f_mont_inv_<P>();
    uint32_t x0 = x[0];
    uint32_t m = x0 * inv;
    mont_p_odd_<P, false>(y, pm, m, x0);
    mont_p_even_<P, true>(x, pm, m);
    x[N] = ptx::addc(x[N], 0);
#pragma unroll
    for (int i = 1; i < N; i++) {
        mont_shift_<N>(x, y);
        x0 = x[0];
        m = x0 * inv;
        mont_p_odd_<P, true>(y, pm, m, x0);
        if (NARROW)
            mont_p_even_<P, false>(x, pm, m);
        if (ROWS) {
            sqr_row_<N, 1, false>(x, y, i, a.l, b, c);
            if (i < N - 1) {
                sqr_row_<N, 0, true>(x, y, i, a.l, b, c);
                x[N] = ptx::addc(x[N], 0);
            }
        }
        if (!NARROW) {
            mont_p_even_<P, true>(x, pm, m);
            x[N] = ptx::addc(x[N], 0);
        }
    }
    uint32_t t[N];
    mont_sum_<N>(t, x + 1, y);
    if (!ROWS) {
        mont_sum_<N>(t, t, h);
    }
    f_reduce_once_<P>(r, t);
}

/*
 * f_mul as a call: one copy of the multiplication per field however many
 * places use it. Operands and result pass by value, in registers (ptxas
 * reports no stack frame), so a call costs the moves of 3N words and the
 * call itself: ~40 instructions against the multiplication's ~420 (BLS12-381
 * Fp; ~230 for 8 limbs). The towers (Fp2, so all of G2) multiply through
 * it; inlining there made the BLS12-381 unit take 5 minutes to compile,
 * most of it in ptxas on G2's point formulas.
 */
template <class P> __device__ __noinline__ fp_t<P> f_mul_call(fp_t<P> a, fp_t<P> b)
{
    fp_t<P> r;
    f_mul<P>(r, a, b);
    return r;
}

/* f_sqr as a call, for the same reason. */
template <class P> __device__ __noinline__ fp_t<P> f_sqr_call(fp_t<P> a)
{
    fp_t<P> r;
    f_sqr<P>(r, a);
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
