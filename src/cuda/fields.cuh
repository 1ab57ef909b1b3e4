/*
 * The four prime fields on the device, and Fp2 over each base field. The
 * constants come from the CPU's parameter headers (src/ff/NAME_params.h), so
 * the two sides cannot drift apart: each 64-bit limb there is two 32-bit
 * limbs here, and -p^-1 mod 2^32 is the low half of -p^-1 mod 2^64.
 */
#ifndef CUZK_CUDA_FIELDS_CUH
#define CUZK_CUDA_FIELDS_CUH

#include <stdint.h>

#include "cuda/ff.cuh"

/* The body of a parameter struct, from the FP_* macros in effect. mod(i)
 * and one(i) are meant for compile-time i (unrolled loops), where they fold
 * into immediates. */
#define CUZK_FIELD_PARAMS_                                                                         \
    static constexpr int N = 2 * FP_LIMBS;                                                         \
    static constexpr int BITS = FP_BITS;                                                           \
    static constexpr uint32_t INV = (uint32_t)(FP_INV & 0xffffffffu);                              \
    __host__ __device__ static constexpr uint32_t mod(int i)                                       \
    {                                                                                              \
        constexpr uint64_t m[FP_LIMBS] = FP_MODULUS;                                               \
        return (uint32_t)(m[i / 2] >> (32 * (i % 2)));                                             \
    }                                                                                              \
    __host__ __device__ static constexpr uint32_t one(int i)                                       \
    {                                                                                              \
        constexpr uint64_t o[FP_LIMBS] = {FP_ONE_MONT};                                            \
        return (uint32_t)(o[i / 2] >> (32 * (i % 2)));                                             \
    }                                                                                              \
    __host__ __device__ static constexpr uint32_t r2(int i)                                        \
    {                                                                                              \
        constexpr uint64_t o[FP_LIMBS] = {FP_R2};                                                  \
        return (uint32_t)(o[i / 2] >> (32 * (i % 2)));                                             \
    }

namespace cuzk
{

#include "ff/bls381_fp_params.h"
struct bls381_fp_p {
    CUZK_FIELD_PARAMS_
};
#include "ff/fp_tmpl_undef.h"

#include "ff/bls381_fr_params.h"
struct bls381_fr_p {
    CUZK_FIELD_PARAMS_
};
#include "ff/fp_tmpl_undef.h"

#include "ff/bn254_fp_params.h"
struct bn254_fp_p {
    CUZK_FIELD_PARAMS_
};
#include "ff/fp_tmpl_undef.h"

#include "ff/bn254_fr_params.h"
struct bn254_fr_p {
    CUZK_FIELD_PARAMS_
};
#include "ff/fp_tmpl_undef.h"

/*
 * Fp whose multiplications are calls of one out-of-line f_mul_call: the
 * coordinate field of BLS12-381's G1 in the point formulas (BN254's G1
 * inlines its shorter multiplication: bn254.cu). The same bytes as fp_t.
 * Inlined, a mixed addition on BLS12-381 was ten copies of the first
 * multiplication's ~1200 instructions, ~100 KB of code: ncu on the bucket
 * kernel (H200) showed 60 % of the warps' stall cycles waiting for
 * instruction fetch. Called, every formula runs through the same ~10 KB;
 * with today's ~420-instruction multiplication the two are even (2.51
 * against 2.48·10⁹ mixed additions a second, the probe in cuzk_gpu_bench).
 */
template <class P> struct fpc_t {
    fp_t<P> v;
};

template <class P> __device__ __forceinline__ void f_set_zero(fpc_t<P> &r)
{
    f_set_zero<P>(r.v);
}
template <class P> __device__ __forceinline__ void f_set_one(fpc_t<P> &r)
{
    f_set_one<P>(r.v);
}
template <class P> __device__ __forceinline__ bool f_is_zero(const fpc_t<P> &a)
{
    return f_is_zero<P>(a.v);
}
template <class P>
__device__ __forceinline__ void f_add(fpc_t<P> &r, const fpc_t<P> &a, const fpc_t<P> &b)
{
    f_add<P>(r.v, a.v, b.v);
}
template <class P> __device__ __forceinline__ void f_dbl(fpc_t<P> &r, const fpc_t<P> &a)
{
    f_add<P>(r.v, a.v, a.v);
}
template <class P>
__device__ __forceinline__ void f_sub(fpc_t<P> &r, const fpc_t<P> &a, const fpc_t<P> &b)
{
    f_sub<P>(r.v, a.v, b.v);
}
template <class P> __device__ __forceinline__ void f_neg(fpc_t<P> &r, const fpc_t<P> &a)
{
    f_neg<P>(r.v, a.v);
}
template <class P>
__device__ __forceinline__ void f_mul(fpc_t<P> &r, const fpc_t<P> &a, const fpc_t<P> &b)
{
    r.v = f_mul_call<P>(a.v, b.v);
}
template <class P> __device__ __forceinline__ void f_sqr(fpc_t<P> &r, const fpc_t<P> &a)
{
    r.v = f_sqr_call<P>(a.v);
}

typedef fp_t<bls381_fp_p> bls381_fp;
typedef fp_t<bls381_fr_p> bls381_fr;
typedef fp_t<bn254_fp_p> bn254_fp;
typedef fp_t<bn254_fr_p> bn254_fr;

/* ---- Fp2 = Fp[u]/(u^2 + 1) (both base primes are 3 mod 4) -------------- */

/* c0 + c1·u; the same bytes as the CPU's fp2_t (c0 then c1). */
template <class P> struct fp2_t {
    fp_t<P> c0, c1;
};

template <class P> __device__ __forceinline__ void f_set_zero(fp2_t<P> &r)
{
    f_set_zero<P>(r.c0);
    f_set_zero<P>(r.c1);
}
template <class P> __device__ __forceinline__ void f_set_one(fp2_t<P> &r)
{
    f_set_one<P>(r.c0);
    f_set_zero<P>(r.c1);
}
template <class P> __device__ __forceinline__ bool f_is_zero(const fp2_t<P> &a)
{
    return f_is_zero<P>(a.c0) & f_is_zero<P>(a.c1);
}
template <class P>
__device__ __forceinline__ void f_add(fp2_t<P> &r, const fp2_t<P> &a, const fp2_t<P> &b)
{
    f_add<P>(r.c0, a.c0, b.c0);
    f_add<P>(r.c1, a.c1, b.c1);
}
template <class P> __device__ __forceinline__ void f_dbl(fp2_t<P> &r, const fp2_t<P> &a)
{
    f_add<P>(r.c0, a.c0, a.c0);
    f_add<P>(r.c1, a.c1, a.c1);
}
template <class P>
__device__ __forceinline__ void f_sub(fp2_t<P> &r, const fp2_t<P> &a, const fp2_t<P> &b)
{
    f_sub<P>(r.c0, a.c0, b.c0);
    f_sub<P>(r.c1, a.c1, b.c1);
}
template <class P> __device__ __forceinline__ void f_neg(fp2_t<P> &r, const fp2_t<P> &a)
{
    f_neg<P>(r.c0, a.c0);
    f_neg<P>(r.c1, a.c1);
}

/*
 * Karatsuba with one reduction a coefficient, as one out-of-line call (G2's
 * formulas are made of these: see f_mul_call in ff.cuh for why calls):
 *   t0 = a0·b0, t1 = a1·b1, t2 = (a0 + a1)(b0 + b1), unreduced (f_prod_);
 *   c0 = REDC(t0 - t1, plus p·R when negative), c1 = REDC(t2 - t0 - t1).
 * Three products and two reductions where three Montgomery multiplications
 * take three of each. Bounds: t0 - t1 lies in (-p², p²), so with p·R added
 * when negative it is in [0, p·R); t2 - t0 - t1 = a0·b1 + a1·b0 < 2p² < p·R
 * (2p < R); f_redc_ takes anything below p·R. The sums a0 + a1, b0 + b1
 * stay unreduced (< 2p), as f_prod_ allows. On the H200 (the probes of
 * cuzk_gpu_bench): BLS12-381 G2 mixed additions 0.76 -> 0.89·10⁹/s.
 *
 * Tried and dropped: the same for a·b - c·d (the Y coordinate of every
 * XYZZ addition: six products, two reductions where two of these calls take
 * four). The probe gained 2 %, but the G2 MSM's bucket sums lost 13 %
 * (that call is ~2000 more instructions of code in the addition; not
 * profiled further).
 */
template <class P> __device__ __noinline__ fp2_t<P> f2_mul_call(fp2_t<P> a, fp2_t<P> b)
{
    constexpr int N = P::N;
    uint32_t t0[2 * N], t1[2 * N], d[2 * N], s[2 * N], sa[N], sb[N];
    f_prod_<N>(t0, a.c0.l, b.c0.l);
    f_prod_<N>(t1, a.c1.l, b.c1.l);
    mont_sum_<N>(sa, a.c0.l, a.c1.l);
    mont_sum_<N>(sb, b.c0.l, b.c1.l);
    mont_sum_<2 * N>(s, t0, t1); /* < 2p² < 2^(64N) */
    d[0] = ptx::sub_cc(t0[0], t1[0]);
#pragma unroll
    for (int j = 1; j < 2 * N; j++)
        d[j] = ptx::subc_cc(t0[j], t1[j]);
    const uint32_t neg = ptx::subc(0, 0); /* all ones when t0 < t1 */
    d[N] = ptx::add_cc(d[N], P::mod(0) & neg);
#pragma unroll
    for (int j = 1; j < N - 1; j++)
        d[N + j] = ptx::addc_cc(d[N + j], P::mod(j) & neg);
    d[2 * N - 1] = ptx::addc(d[2 * N - 1], P::mod(N - 1) & neg);
    fp2_t<P> r;
    f_redc_<P>(r.c0, d);
    f_prod_<N>(t0, sa, sb);
    t0[0] = ptx::sub_cc(t0[0], s[0]);
#pragma unroll
    for (int j = 1; j < 2 * N - 1; j++)
        t0[j] = ptx::subc_cc(t0[j], s[j]);
    t0[2 * N - 1] = ptx::subc(t0[2 * N - 1], s[2 * N - 1]);
    f_redc_<P>(r.c1, t0);
    return r;
}

template <class P>
__device__ __forceinline__ void f_mul(fp2_t<P> &r, const fp2_t<P> &a, const fp2_t<P> &b)
{
    r = f2_mul_call<P>(a, b);
}

/* 2M: c0 = (a0 + a1)(a0 - a1), c1 = 2·a0·a1. */
template <class P> __device__ __forceinline__ void f_sqr(fp2_t<P> &r, const fp2_t<P> &a)
{
    fp_t<P> s, d, m;
    f_add<P>(s, a.c0, a.c1);
    f_sub<P>(d, a.c0, a.c1);
    m = f_mul_call<P>(a.c0, a.c1);
    r.c0 = f_mul_call<P>(s, d);
    f_add<P>(r.c1, m, m);
}

typedef fp2_t<bls381_fp_p> bls381_fp2;
typedef fp2_t<bn254_fp_p> bn254_fp2;

} // namespace cuzk

#undef CUZK_FIELD_PARAMS_

#endif
