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

/* Karatsuba: 3M (out-of-line ones, f_mul_call: see ff.cuh).
 * c0 = a0·b0 - a1·b1, c1 = (a0 + a1)(b0 + b1) - a0·b0 - a1·b1. */
template <class P>
__device__ __forceinline__ void f_mul(fp2_t<P> &r, const fp2_t<P> &a, const fp2_t<P> &b)
{
    fp_t<P> v0, v1, s, t;
    v0 = f_mul_call<P>(a.c0, b.c0);
    v1 = f_mul_call<P>(a.c1, b.c1);
    f_add<P>(s, a.c0, a.c1);
    f_add<P>(t, b.c0, b.c1);
    s = f_mul_call<P>(s, t);
    f_sub<P>(r.c0, v0, v1);
    f_sub<P>(s, s, v0);
    f_sub<P>(r.c1, s, v1);
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
