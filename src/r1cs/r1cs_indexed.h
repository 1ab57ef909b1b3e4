/*
 * The indexed synthetic circuit: r1cs_gen_params_t's proportions (as
 * NAME_r1cs_generate), but every entry of row j and every witness value a
 * function of (seed, j) alone, and every column's entries enumerable from
 * the column alone. That is what lets the device make a circuit of 2^27
 * rows, its witness, its evaluations and a development key's per-wire sums
 * in one parallel pass each, without ever holding the matrices
 * (src/cuda/gpu_setup.h); the CPU builds the very same circuit as CSR
 * (NAME_r1cs_generate_indexed), the reference the device is tested against.
 *
 * The circuit (n rows, n + 1 wires: ONE, n_public inputs, n - n_public
 * private wires; "bits" of the private values are 0 or 1, the rest and the
 * inputs uniform):
 *  - every matrix m has up to R1IX_SLOTS random slots; row j uses the first
 *    count(m, j) of them, count being floor(nnz) or floor(nnz) + 1 (the
 *    fraction as the probability), as in NAME_r1cs_generate;
 *  - random slot t of matrix m in row j is column lo[m] + P_mt(j) mod
 *    span[m], P_mt a keyed bijection of [0, 2^log2p) (2^log2p >= n), so
 *    that column c's entries in slot t are the rows P_mt^-1(y), y = c - lo
 *    + k·span < 2^log2p, that are < n and use slot t;
 *  - A's row j also holds private wire j (j < n - n_public) as its first
 *    term, so every private value is constrained (that term counts in A's
 *    nnz); B ranges over ONE, the inputs and the first b_share of the
 *    private wires; C holds ONE, with the coefficient that makes the row
 *    hold (a·b - the rest of C·w; zero when the rest already balances),
 *    and its random slots range over wires 1 .. n (ONE excluded);
 *  - a slot whose column an earlier term of the row already holds is
 *    dropped (rows keep distinct columns);
 *  - values are uniform non-zero, witness values uniform or bits, both
 *    drawn from counter-based hashes of (seed, what, index).
 *
 * Field values are 4 little-endian 64-bit limbs: the Montgomery-form
 * representation of the element (uniform representations are uniform
 * elements). Everything here is integer arithmetic, the same on the host
 * and the device (R1IX_FN functions compile for both under nvcc).
 */
#ifndef CUZK_R1CS_R1CS_INDEXED_H
#define CUZK_R1CS_R1CS_INDEXED_H

#include <stdbool.h>
#include <stdint.h>

#include "r1cs/r1cs_shape.h"

#ifdef __CUDACC__
#define R1IX_FN __host__ __device__ static inline
#else
#define R1IX_FN static inline
#endif

enum { R1IX_SLOTS = 8, R1IX_ROUNDS = 3 };
enum { R1IX_A, R1IX_B, R1IX_C, R1IX_MATRICES };

/* Largest nnz per row the indexed generator takes: A's private-wire term
 * and C's ONE come on top of the random slots. */
#define R1IX_MAX_NNZ 7.0

/* A keyed bijection of [0, 2^log2p): rounds of x·mul + add, then
 * x ^= x >> shift, all mod 2^log2p. */
typedef struct r1ix_perm {
    uint64_t mul[R1IX_ROUNDS], inv[R1IX_ROUNDS], add[R1IX_ROUNDS];
} r1ix_perm_t;

typedef struct r1cs_ix {
    r1cs_curve_t curve;
    uint64_t seed;
    uint64_t modulus[4]; /* the scalar field's prime */
    uint64_t one[4];     /* 1 in Montgomery form */
    uint32_t top_bits;   /* bits of the modulus's top limb */
    uint32_t n_rows, n_cols, n_public, n_priv;
    uint32_t log2p, shift;
    uint32_t lo[R1IX_MATRICES], span[R1IX_MATRICES]; /* random columns */
    /* random slots a row: base, one more with probability frac / 2^32 */
    uint32_t base[R1IX_MATRICES], frac[R1IX_MATRICES];
    uint32_t bits; /* P(bit-valued private wire)·2^32 */
    r1ix_perm_t perm[R1IX_MATRICES][R1IX_SLOTS];
} r1cs_ix_t;

/*
 * The circuit of p under seed over curve's scalar field: false (ix
 * untouched) for R1CS_CURVE_NONE or p outside r1cs_gen_params_are_valid,
 * with nnz_a below 1 or nnz_a, nnz_b or nnz_c - 1 above R1IX_MAX_NNZ.
 */
bool r1ix_init(r1cs_ix_t *ix, r1cs_curve_t curve, const r1cs_gen_params_t *p, uint64_t seed);

/* ---- hashing ------------------------------------------------------------ */

R1IX_FN uint64_t r1ix_mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/* What a hash is for: its tag. */
enum { R1IX_H_COUNT = 1, R1IX_H_VALUE = 4, R1IX_H_WIT = 8, R1IX_H_BIT = 9, R1IX_H_PERM = 16 };

R1IX_FN uint64_t r1ix_hash(uint64_t seed, uint64_t tag, uint64_t i, uint64_t k)
{
    uint64_t h = r1ix_mix(seed ^ (tag * 0x9e3779b97f4a7c15ull));
    h = r1ix_mix(h ^ (i * 0xd6e8feb86659fd93ull));
    return r1ix_mix(h ^ (k + 0x632be59bd9b4e019ull));
}

/* ---- the permutations ----------------------------------------------------- */

R1IX_FN uint64_t r1ix_perm(const r1cs_ix_t *ix, const r1ix_perm_t *p, uint64_t x)
{
    uint64_t mask = ((uint64_t)1 << ix->log2p) - 1;
    for (int r = 0; r < R1IX_ROUNDS; r++) {
        x = (x * p->mul[r] + p->add[r]) & mask;
        x ^= x >> ix->shift;
    }
    return x;
}

R1IX_FN uint64_t r1ix_perm_inv(const r1cs_ix_t *ix, const r1ix_perm_t *p, uint64_t y)
{
    uint64_t mask = ((uint64_t)1 << ix->log2p) - 1;
    for (int r = R1IX_ROUNDS - 1; r >= 0; r--) {
        uint64_t x = y; /* undo y = x ^ (x >> shift): shift more bits right each time */
        for (uint32_t k = ix->shift; k < ix->log2p; k += ix->shift)
            x = y ^ (x >> ix->shift);
        y = ((x - p->add[r]) * p->inv[r]) & mask;
    }
    return y;
}

/* ---- rows ----------------------------------------------------------------- */

/* Random slots matrix m uses in row j. */
R1IX_FN uint32_t r1ix_count(const r1cs_ix_t *ix, int m, uint32_t j)
{
    uint32_t u = (uint32_t)(r1ix_hash(ix->seed, R1IX_H_COUNT + (uint64_t)m, j, 0) >> 32);
    return ix->base[m] + (u < ix->frac[m]);
}

/* The column of row j's random slot t of matrix m (used or not). */
R1IX_FN uint32_t r1ix_slot_col(const r1cs_ix_t *ix, int m, uint32_t j, uint32_t t)
{
    return ix->lo[m] + (uint32_t)(r1ix_perm(ix, &ix->perm[m][t], j) % ix->span[m]);
}

/* The column of row j's fixed term of matrix m: A's private wire, C's ONE;
 * UINT32_MAX when there is none. */
R1IX_FN uint32_t r1ix_fixed_col(const r1cs_ix_t *ix, int m, uint32_t j)
{
    if (m == R1IX_A)
        return j < ix->n_priv ? 1 + ix->n_public + j : UINT32_MAX;
    return m == R1IX_C ? 0 : UINT32_MAX;
}

/*
 * Whether row j holds random slot t of matrix m: t < count and no earlier
 * term of the row (the fixed one, the random slots before t that it holds)
 * has the same column. *col = the slot's column.
 */
R1IX_FN bool r1ix_slot_used(const r1cs_ix_t *ix, int m, uint32_t j, uint32_t t, uint32_t *col)
{
    uint32_t n = r1ix_count(ix, m, j), fixed = r1ix_fixed_col(ix, m, j);
    uint32_t cols[R1IX_SLOTS];
    bool used = false;
    for (uint32_t s = 0; s <= t; s++) {
        cols[s] = r1ix_slot_col(ix, m, j, s);
        used = s < n && cols[s] != fixed;
        for (uint32_t e = 0; used && e < s; e++)
            used = cols[e] != cols[s];
        if (!used && s < t)
            cols[s] = UINT32_MAX; /* not held: cannot clash */
    }
    *col = cols[t];
    return used;
}

/* The non-zero value of row j's random slot t of matrix m (t = R1IX_SLOTS:
 * A's fixed term); Montgomery-form limbs. */
R1IX_FN void r1ix_value(const r1cs_ix_t *ix, int m, uint32_t j, uint32_t t, uint64_t v[4])
{
    for (uint64_t attempt = 0;; attempt++) {
        uint64_t k = (((uint64_t)m * (R1IX_SLOTS + 1) + t) << 32 | attempt) << 2;
        for (int i = 0; i < 4; i++)
            v[i] = r1ix_hash(ix->seed, R1IX_H_VALUE, j, k + (uint64_t)i);
        v[3] &= ((uint64_t)1 << ix->top_bits) - 1;
        bool below = false, zero = (v[0] | v[1] | v[2] | v[3]) == 0;
        for (int i = 3; i >= 0; i--)
            if (v[i] != ix->modulus[i]) {
                below = v[i] < ix->modulus[i];
                break;
            }
        if (below && !zero)
            return;
    }
}

/* Witness value i (Montgomery-form limbs): ONE, then uniform inputs, then
 * private values that are bits with the configured probability. */
R1IX_FN void r1ix_witness(const r1cs_ix_t *ix, uint32_t i, uint64_t v[4])
{
    if (i == 0) {
        for (int k = 0; k < 4; k++)
            v[k] = ix->one[k];
        return;
    }
    if (i > ix->n_public) {
        uint64_t h = r1ix_hash(ix->seed, R1IX_H_BIT, i, 0);
        if ((uint32_t)(h >> 32) < ix->bits) {
            for (int k = 0; k < 4; k++)
                v[k] = (h & 1) ? ix->one[k] : 0;
            return;
        }
    }
    for (uint64_t attempt = 0;; attempt++) {
        for (int k = 0; k < 4; k++)
            v[k] = r1ix_hash(ix->seed, R1IX_H_WIT, i, attempt * 4 + (uint64_t)k);
        v[3] &= ((uint64_t)1 << ix->top_bits) - 1;
        bool below = false;
        for (int k = 3; k >= 0; k--)
            if (v[k] != ix->modulus[k]) {
                below = v[k] < ix->modulus[k];
                break;
            }
        if (below)
            return;
    }
}

/* ---- columns -------------------------------------------------------------- */

/* Candidate rows of column col in random slot t of matrix m: y = col - lo
 * + k·span for k = 0, 1, ... while y < 2^log2p (false when done), the row
 * *j = P^-1(y), to be checked with r1ix_slot_used (and < n_rows). */
R1IX_FN bool r1ix_col_candidate(const r1cs_ix_t *ix, int m, uint32_t t, uint32_t col, uint32_t k,
                                uint32_t *j)
{
    if (col < ix->lo[m] || col - ix->lo[m] >= ix->span[m])
        return false;
    uint64_t y = (uint64_t)(col - ix->lo[m]) + (uint64_t)k * ix->span[m];
    if (y >> ix->log2p)
        return false;
    *j = (uint32_t)r1ix_perm_inv(ix, &ix->perm[m][t], y);
    return true;
}

#endif
