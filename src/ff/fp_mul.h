/*
 * Montgomery multiplication kernels shared by every prime field, by limb
 * count: r = a·b·2^(-64N) mod p for N = 4 and N = 6.
 *
 * Contract: a, b < p; p odd with its top bit clear (p < 2^(64N-1)); inv =
 * -p^-1 mod 2^64; r may alias a or b; the result is fully reduced (< p).
 *
 * The portable kernel is CIOS (Koç, Acar, Kaliski, "Analyzing and comparing
 * Montgomery multiplication algorithms", 1996) with the spare-bit shortcut:
 * because p < 2^(64N-1) the running sum never needs an (N+2)-th word
 * (the "no-carry" variant used by gnark-crypto). 2N^2 + N multiplications.
 */
#ifndef CUZK_FF_FP_MUL_H
#define CUZK_FF_FP_MUL_H

#include <stdint.h>

typedef unsigned __int128 fp_u128_t;

#define FP_DEFINE_MONT_MUL(N)                                                              \
    static inline void fp_mont_mul##N##_portable(uint64_t r[N], const uint64_t a[N],      \
                                                 const uint64_t b[N], const uint64_t p[N], \
                                                 uint64_t inv)                             \
    {                                                                                      \
        uint64_t t[N] = {0};                                                               \
        for (int i = 0; i < N; i++) {                                                      \
            /* t += a·b[i]; m = t[0]·inv; t = (t + m·p) / 2^64 */                          \
            fp_u128_t x = (fp_u128_t)a[0] * b[i] + t[0];                                   \
            uint64_t carry_a = (uint64_t)(x >> 64);                                        \
            uint64_t m = (uint64_t)x * inv;                                                \
            fp_u128_t y = (fp_u128_t)m * p[0] + (uint64_t)x;                               \
            uint64_t carry_m = (uint64_t)(y >> 64);                                        \
            for (int j = 1; j < N; j++) {                                                  \
                x = (fp_u128_t)a[j] * b[i] + t[j] + carry_a;                               \
                carry_a = (uint64_t)(x >> 64);                                             \
                y = (fp_u128_t)m * p[j] + (uint64_t)x + carry_m;                           \
                carry_m = (uint64_t)(y >> 64);                                             \
                t[j - 1] = (uint64_t)y;                                                    \
            }                                                                              \
            t[N - 1] = carry_a + carry_m;                                                  \
        }                                                                                  \
        /* t < 2p: one conditional subtraction */                                          \
        uint64_t d[N];                                                                     \
        uint64_t borrow = 0;                                                               \
        for (int i = 0; i < N; i++) {                                                      \
            fp_u128_t z = (fp_u128_t)t[i] - p[i] - borrow;                                 \
            d[i] = (uint64_t)z;                                                            \
            borrow = (uint64_t)(z >> 64) & 1;                                              \
        }                                                                                  \
        uint64_t keep = (uint64_t)0 - borrow;                                              \
        for (int i = 0; i < N; i++)                                                        \
            r[i] = (t[i] & keep) | (d[i] & ~keep);                                         \
    }

FP_DEFINE_MONT_MUL(4)
FP_DEFINE_MONT_MUL(6)

static inline void fp_mont_mul4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                                const uint64_t p[4], uint64_t inv)
{
    fp_mont_mul4_portable(r, a, b, p, inv);
}

static inline void fp_mont_mul6(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                                const uint64_t p[6], uint64_t inv)
{
    fp_mont_mul6_portable(r, a, b, p, inv);
}

static inline void fp_mont_sqr4(uint64_t r[4], const uint64_t a[4], const uint64_t p[4],
                                uint64_t inv)
{
    fp_mont_mul4(r, a, a, p, inv);
}

static inline void fp_mont_sqr6(uint64_t r[6], const uint64_t a[6], const uint64_t p[6],
                                uint64_t inv)
{
    fp_mont_mul6(r, a, a, p, inv);
}

#endif
