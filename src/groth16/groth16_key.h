/*
 * The Groth16 layer's own proving key, assignment and proof, over either
 * curve and either convention. The file readers (src/io) give views of
 * their loaded files in these types; the prover (groth16.h) takes nothing
 * else, so it knows no file format.
 *
 * A convention (snarkjs or bellperson, FORMATS.md sections 7 and 8.3) is
 * data in the key, groth16_convention_t, not a type: the prover's stages
 * read it to choose where the evaluations come from, how H is taken, which
 * scalars the L query takes and how A and B are indexed.
 */
#ifndef CUZK_GROTH16_GROTH16_KEY_H
#define CUZK_GROTH16_GROTH16_KEY_H

#include <stdint.h>
#include <string.h>

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "r1cs/r1cs_shape.h"
#include "util/rng.h"

/* Where the evaluations a, b, c on the domain come from. */
typedef enum groth16_synth {
    /* From the key's own sparse coefficients of A and B (groth16_coeff_t)
     * and a witness over all wires; c = a·b (snarkjs). */
    GROTH16_SYNTH_COEFFS,
    /* Handed in by the synthesizer as an assignment (groth16_asgn_t), with
     * the input and aux values (bellperson). */
    GROTH16_SYNTH_GIVEN,
} groth16_synth_t;

/* How H's scalars are taken from a, b, c. */
typedef enum groth16_h_basis {
    /* A·B − C evaluated on the shifted domain ω_2n·⟨ω_n⟩, domain_size
     * scalars (snarkjs, generator 5; NAME_ntt_h_snarkjs). */
    GROTH16_H_SHIFTED_EVALS,
    /* The coefficients of (A·B − C)/Z, from the coset g·⟨ω_m⟩,
     * domain_size − 1 scalars (bellperson, g = 7 on BLS12-381, 5 on BN254;
     * NAME_ntt_h_bellperson). */
    GROTH16_H_COSET_COEFFS,
} groth16_h_basis_t;

/* The scalars of the query that carries L (the private part of C). */
typedef enum groth16_l_scalars {
    /* snarkjs' C query: the witness values of wires n_public + 1 ... */
    GROTH16_L_PRIVATE_WIRES,
    /* bellperson's L query: the aux values. */
    GROTH16_L_AUX,
} groth16_l_scalars_t;

/* How the A and B queries are indexed. */
typedef enum groth16_ab_index {
    /* One point per wire, the witness as scalars (snarkjs). */
    GROTH16_AB_ALL_WIRES,
    /* The inputs, then the aux variables whose density bit is set (A: every
     * input; B: the inputs with their bit set), the selected values as
     * scalars (bellperson). */
    GROTH16_AB_DENSITY,
} groth16_ab_index_t;

typedef struct groth16_convention {
    groth16_synth_t synth;
    groth16_h_basis_t h;
    groth16_l_scalars_t l;
    groth16_ab_index_t ab;
} groth16_convention_t;

/* The two conventions cuzk proves in. */
static const groth16_convention_t GROTH16_SNARKJS = {GROTH16_SYNTH_COEFFS, GROTH16_H_SHIFTED_EVALS,
                                                     GROTH16_L_PRIVATE_WIRES, GROTH16_AB_ALL_WIRES};
static const groth16_convention_t GROTH16_BELLPERSON = {GROTH16_SYNTH_GIVEN, GROTH16_H_COSET_COEFFS,
                                                        GROTH16_L_AUX, GROTH16_AB_DENSITY};

/*
 * One query vector: count affine points of the key's curve (G1, or G2 for
 * B2) in cuzk's in-memory layout (Montgomery form, little-endian limbs, Fp2
 * as c0 ‖ c1, infinity all zero bytes). data is untyped because a view of
 * a mapped file may start at any byte (a .zkey has no padding): the prover
 * reads it as an array of points when it is 8-byte aligned
 * (groth16_points_aligned) and copies it first otherwise.
 */
typedef struct groth16_points {
    const void *data;
    uint64_t count;
} groth16_points_t;

static inline int groth16_points_aligned(groth16_points_t p)
{
    return ((uintptr_t)p.data & 7) == 0;
}

/* The key's fixed points, per curve: affine, Montgomery form, in their
 * groups, finite. */
typedef struct groth16_key_bn254 {
    bn254_g1_affine_t alpha1, beta1, delta1;
    bn254_g2_affine_t beta2, gamma2, delta2;
} groth16_key_bn254_t;

typedef struct groth16_key_bls381 {
    bls381_g1_affine_t alpha1, beta1, delta1;
    bls381_g2_affine_t beta2, gamma2, delta2;
} groth16_key_bls381_t;

/*
 * A proving key. curve says which member of u is live; conv how to prove
 * with it. Counts:
 *   n_public     public inputs, ONE excluded: ic has n_public + 1 points;
 *   n_vars       snarkjs: the wires (ONE included; a, b1 and b2 have one
 *                point each, l one per private wire, n_vars − n_public − 1);
 *                bellperson: inputs plus aux (l: one point per aux value;
 *                a, b1, b2 as the densities select, b1.count = b2.count);
 *   domain_size  the evaluation domain, a power of two: snarkjs' n (h has
 *                n points) or bellperson's m (h has m − 1).
 * coeffs, n_coeffs: GROTH16_SYNTH_COEFFS only, the sparse A and B
 * matrices as n_coeffs records of GROTH16_COEFF_BYTES (groth16_key_coeff).
 * Everything is borrowed: whoever made the view (a reader, a development
 * setup) owns the memory and keeps it unchanged while the key is used.
 */
typedef struct groth16_key {
    r1cs_curve_t curve;
    groth16_convention_t conv;
    uint32_t n_public, n_vars, domain_size;
    union {
        groth16_key_bn254_t bn254;
        groth16_key_bls381_t bls381;
    } u;
    groth16_points_t ic, a, b1, b2, l, h;
    const unsigned char *coeffs;
    uint32_t n_coeffs;
} groth16_key_t;

/*
 * A verification key: the fixed points alpha1, beta2, gamma2, delta2 of
 * curve (affine, Montgomery form, in their groups) and IC, the n_public + 1
 * G1 points of ONE and the public inputs. IC is borrowed, in the layout and
 * with the alignment rule of groth16_points_t; whoever made the key owns
 * it. The file types that carry one (snarkjs' verification_key.json,
 * bellperson's .vk) give views of themselves in this type.
 */
typedef struct groth16_vk_bn254 {
    bn254_g1_affine_t alpha1;
    bn254_g2_affine_t beta2, gamma2, delta2;
} groth16_vk_bn254_t;

typedef struct groth16_vk_bls381 {
    bls381_g1_affine_t alpha1;
    bls381_g2_affine_t beta2, gamma2, delta2;
} groth16_vk_bls381_t;

typedef struct groth16_vk {
    r1cs_curve_t curve;
    uint32_t n_public;
    union {
        groth16_vk_bn254_t bn254;
        groth16_vk_bls381_t bls381;
    } u;
    groth16_points_t ic;
} groth16_vk_t;

/*
 * One coefficient record, GROTH16_COEFF_BYTES, all little-endian: u32 m
 * (0 = A, 1 = B), u32 c (the constraint row), u32 s (the wire), then the
 * 32 bytes of coef·R² mod r ("double Montgomery": one Montgomery product
 * with a plain witness value gives coef·w in Montgomery form). This is the
 * layout of a .zkey's section 4, so a view of one needs no copy.
 */
enum { GROTH16_COEFF_BYTES = 12 + 32 };

typedef struct groth16_coeff {
    uint32_t m, c, s;
    const unsigned char *value;
} groth16_coeff_t;

static inline uint32_t groth16_load_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Record i < k->n_coeffs. */
static inline groth16_coeff_t groth16_key_coeff(const groth16_key_t *k, uint32_t i)
{
    const unsigned char *p = k->coeffs + (uint64_t)i * GROTH16_COEFF_BYTES;
    groth16_coeff_t e = {groth16_load_u32(p), groth16_load_u32(p + 4), groth16_load_u32(p + 8),
                         p + 12};
    return e;
}

/*
 * A bellperson-style synthesizer's output for one partition (FORMATS.md
 * §8.3): the evaluations a, b, c of n_constraints rows, the n_inputs input
 * values (inputs[0] = 1) and n_aux aux values, all Fr values of curve
 * below r, four 64-bit limbs least significant first: plain (canonical)
 * values, or with montgomery set in Montgomery form (x·2^256 mod r, the
 * field layer's own form and blst's, as bellperson holds them in memory),
 * which the provers use without converting a, b and c. The density bitmaps
 * (LSB first, bits above the counts clear) select the A and B query
 * points. Borrowed arrays.
 */
typedef struct groth16_asgn {
    r1cs_curve_t curve;
    uint64_t n_constraints, n_inputs, n_aux;
    const uint64_t (*a)[4], (*b)[4], (*c)[4];
    const uint64_t (*inputs)[4], (*aux)[4];
    const uint64_t *a_aux_density, *b_input_density, *b_aux_density;
    bool montgomery;
} groth16_asgn_t;

/* Words of a bitmap of n bits, and bit i of one. */
static inline uint64_t groth16_bitmap_words(uint64_t n)
{
    return (n + 63) / 64;
}

static inline int groth16_bitmap_bit(const uint64_t *bitmap, uint64_t i)
{
    return (int)(bitmap[i / 64] >> (i % 64) & 1);
}

/* The set bits of bitmap below n. */
static inline uint64_t groth16_bitmap_popcount(const uint64_t *bitmap, uint64_t n)
{
    uint64_t k = 0;
    for (uint64_t w = 0; w < n / 64; w++)
        k += (uint64_t)__builtin_popcountll(bitmap[w]);
    if (n % 64)
        k += (uint64_t)__builtin_popcountll(bitmap[n / 64] & ((1ull << (n % 64)) - 1));
    return k;
}

/*
 * Where a proof's blinding scalars r and s come from: given (r and s both
 * non-NULL: EC_SCALAR_LIMBS limbs each, Montgomery form of the key's Fr,
 * below its modulus), else drawn uniformly in Fr, r first, from rng (NULL:
 * the operating system's generator; a seeded one only for reproducible
 * tests). Given values are secrets the caller drew: a caller that gives
 * them (an ABI that receives them, a test) must draw them uniformly and use
 * each pair once, or the proof leaks the witness.
 */
typedef struct groth16_blinding {
    rng_t *rng;
    const uint64_t *r, *s;
} groth16_blinding_t;

/* A Groth16 proof: π_A, π_B, π_C, affine, Montgomery form; curve says
 * which member of u is live. Owns no memory. */
typedef struct groth16_proof {
    r1cs_curve_t curve;
    union {
        struct {
            bn254_g1_affine_t a;
            bn254_g2_affine_t b;
            bn254_g1_affine_t c;
        } bn254;
        struct {
            bls381_g1_affine_t a;
            bls381_g2_affine_t b;
            bls381_g1_affine_t c;
        } bls381;
    } u;
} groth16_proof_t;

/*
 * The input of one proof, as the key's convention wants it: for
 * GROTH16_SYNTH_COEFFS the witness w, n Montgomery-form Fr values of
 * curve with w[0] = 1 (asgn NULL); for GROTH16_SYNTH_GIVEN the assignment
 * asgn (w NULL; curve unused: the assignment names its own).
 */
typedef struct groth16_input {
    r1cs_curve_t curve;
    const void *w;
    uint32_t n;
    const groth16_asgn_t *asgn;
    /* GROTH16_SYNTH_GIVEN, optional: called at most once, by an
     * accelerator that has a, b and c on its device and will read the
     * caller's no more, so that their owner may reuse them while the proof
     * goes on (the CPU prover reads them until it ends, and never calls). */
    void (*abc_read)(void *ctx);
    void *abc_ctx;
} groth16_input_t;

#endif
