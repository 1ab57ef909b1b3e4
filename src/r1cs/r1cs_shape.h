/*
 * The curve-independent part of an R1CS: its counts and wire layout
 * (FORMATS.md section 3).
 *
 * Wire order: 0 = the constant ONE; 1 .. n_pub_out the public outputs; then
 * n_pub_in public inputs; then n_prv_in private inputs; then internal wires.
 * The public signals are wires 1 .. n_pub_out + n_pub_in.
 */
#ifndef CUZK_R1CS_R1CS_SHAPE_H
#define CUZK_R1CS_R1CS_SHAPE_H

#include <stdbool.h>
#include <stdint.h>

/* The curves whose scalar field an R1CS can be over. Zero is "none", so a
 * zero-initialised r1cs_t or r1cs_witness_t holds nothing. */
typedef enum r1cs_curve {
    R1CS_CURVE_NONE = 0,
    R1CS_CURVE_BN254 = 1,
    R1CS_CURVE_BLS12_381 = 2,
} r1cs_curve_t;

/* "BN254", "BLS12-381" or "none"; never NULL. */
const char *r1cs_curve_name(r1cs_curve_t curve);

typedef struct r1cs_shape {
    uint32_t n_wires;       /* including wire 0 = ONE */
    uint32_t n_pub_out;     /* public outputs */
    uint32_t n_pub_in;      /* public inputs */
    uint32_t n_prv_in;      /* private inputs */
    uint32_t n_constraints; /* rows of A, B and C */
    uint64_t n_labels;      /* symbols of the circuit's .sym file */
} r1cs_shape_t;

/*
 * The shape of a synthetic circuit (NAME_r1cs_generate). The circuit has
 * n_constraints rows and n_constraints + 1 wires: ONE, n_public public
 * inputs, then n_constraints - n_public private (internal) wires. Rows of
 * A, B and C hold nnz_a, nnz_b and nnz_c entries on average (each row gets
 * floor(nnz) or floor(nnz) + 1, the fraction as the probability of the
 * extra one); C's include the wire ONE that balances the row. A and C draw
 * their wires from all wires; B only from ONE, the public inputs and the
 * first b_share of the private wires (DESIGN.md's porep32: B touches about
 * a quarter of the private values). With nnz_a >= 1, one of the A terms of
 * row i is private wire i, so every private value is constrained (as in a
 * real circuit; bellperson's setup refuses unconstrained variables). A share `bits` of the private
 * values are 0 or 1 (each with probability 1/2), the rest and the public inputs are uniform field
 * elements.
 */
typedef struct r1cs_gen_params {
    uint32_t n_constraints; /* >= 2 */
    uint32_t n_public;      /* <= n_constraints / 2 */
    double nnz_a, nnz_b;    /* in [0, 64] */
    double nnz_c;           /* in [1, 64] */
    double bits;            /* in [0, 1] */
    double b_share;         /* in (0, 1] */
} r1cs_gen_params_t;

/* DESIGN.md section 6's porep32 proportions for n_constraints >= 2 rows:
 * 328 public inputs (at most n_constraints / 2), A 2.4 / B 1.0 / C 2.2
 * non-zeros per row, 90 % bits, B over a quarter of the private values. */
r1cs_gen_params_t r1cs_gen_porep32(uint32_t n_constraints);

/* Whether p is within the ranges above. */
bool r1cs_gen_params_are_valid(const r1cs_gen_params_t *p);

#endif
