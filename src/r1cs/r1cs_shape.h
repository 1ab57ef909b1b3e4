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

#endif
