/*
 * An R1CS and a witness over whichever curve a file names: tagged unions of
 * the per-curve types of bn254_r1cs.h and bls381_r1cs.h, for code (readers,
 * the command line) that learns the curve at run time. Code that knows its
 * curve uses the per-curve types directly.
 */
#ifndef CUZK_R1CS_R1CS_H
#define CUZK_R1CS_R1CS_H

#include "r1cs/bls381_r1cs.h"
#include "r1cs/bn254_r1cs.h"
#include "r1cs/r1cs_shape.h"

/*
 * curve says which member of u is live. A zero-initialised r1cs_t holds
 * nothing (R1CS_CURVE_NONE) and may be freed.
 */
typedef struct r1cs {
    r1cs_curve_t curve;
    union {
        bn254_r1cs_t bn254;
        bls381_r1cs_t bls381;
    } u;
} r1cs_t;

/* The shape of r; r->curve must not be R1CS_CURVE_NONE. */
const r1cs_shape_t *r1cs_shape(const r1cs_t *r);

/* Releases r's matrices and zeroes r. */
void r1cs_free(r1cs_t *r);

/*
 * A witness: n Montgomery-form elements of the curve's scalar field, held in
 * the array named by curve. r1cs_witness_alloc and the .wtns reader allocate
 * it with malloc and r1cs_witness_free releases it; a caller may also point
 * the member at its own array (and then must not call r1cs_witness_free).
 */
typedef struct r1cs_witness {
    r1cs_curve_t curve;
    uint32_t n;
    union {
        bn254_fr_t *bn254;
        bls381_fr_t *bls381;
    } v;
} r1cs_witness_t;

/* Allocates an uninitialised witness of n elements. CUZK_EINVAL for
 * R1CS_CURVE_NONE, CUZK_ENOMEM (w left empty) when malloc fails. */
cuzk_status_t r1cs_witness_alloc(r1cs_witness_t *w, r1cs_curve_t curve, uint32_t n);

/* Releases the array and zeroes w. */
void r1cs_witness_free(r1cs_witness_t *w);

/*
 * Checks that w satisfies r (see NAME_r1cs_check), on pool (NULL: the
 * caller alone). CUZK_EINVAL when the curves differ or w->n != the number
 * of wires; CUZK_EWITNESS with *first_bad = the lowest failing constraint;
 * CUZK_OK otherwise.
 */
cuzk_status_t r1cs_check(pool_t *pool, const r1cs_t *r, const r1cs_witness_t *w,
                         uint32_t *first_bad);

/*
 * A synthetic circuit over curve and its witness (NAME_r1cs_generate): r
 * and w are the caller's afterwards (r1cs_free, r1cs_witness_free). rng is
 * the seeded stream. CUZK_EINVAL for R1CS_CURVE_NONE or parameters outside
 * r1cs_gen_params_t's ranges, CUZK_ENOMEM; on failure r and w are empty.
 */
cuzk_status_t r1cs_generate(r1cs_t *r, r1cs_witness_t *w, r1cs_curve_t curve,
                            const r1cs_gen_params_t *p, rng_t *rng);

/*
 * The indexed circuit ix (r1cs_indexed.h) as CSR over ix->curve, with its
 * witness (NAME_r1cs_generate_indexed): r and w are the caller's afterwards.
 * CUZK_ENOMEM (r and w empty).
 */
cuzk_status_t r1cs_generate_indexed(r1cs_t *r, r1cs_witness_t *w, const r1cs_ix_t *ix);

#endif
