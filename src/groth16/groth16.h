/*
 * Groth16 on whichever curve a key names: the one prover over
 * groth16_key_t, the verifier over groth16_vk_t and the check of a key
 * against its circuit, dispatching to bn254_groth16.h and bls381_groth16.h
 * (FORMATS.md sections 5-8). Nothing here knows a file format: src/io gives
 * views of its files in these types.
 */
#ifndef CUZK_GROTH16_GROTH16_H
#define CUZK_GROTH16_GROTH16_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk.h"
#include "groth16/bls381_groth16.h"
#include "groth16/bn254_groth16.h"
#include "groth16/groth16_common.h"
#include "groth16/groth16_key.h"
#include "r1cs/r1cs.h"
#include "util/pool.h"
#include "util/progress.h"
#include "util/rng.h"

typedef struct groth16_prove_opts {
    rng_t *rng;     /* NULL (production): r and s from getrandom; seeded: tests only */
    bool no_verify; /* skip the self-verification */
    const groth16_accel_t *accel; /* NULL: every stage on the CPU; else synth, h, msm there */
    /* NULL: none; else the stages synth, h and msm, each counted (one
     * uncounted "synth, h, msm" for the accelerator's), and verify */
    progress_t *progress;
    /* r and s given (both, or neither: NULL draws them from rng); the
     * contract of groth16_blinding_t, checked below the modulus */
    const uint64_t *r, *s;
} groth16_prove_opts_t;

/* The verification key of k: its points and IC, borrowed from k. */
groth16_vk_t groth16_key_vk(const groth16_key_t *k);

/*
 * *valid = whether proof verifies under vk for the public signals pub
 * (snarkjs' groth16_verify.js, FORMATS.md §6). pub and proof must be over
 * vk's curve and pub must have vk->n_public values (else CUZK_EINVAL with a
 * message); the values are Montgomery form, hence below r, and the proof
 * points are in their groups (both as the readers deliver them).
 * CUZK_ENOMEM. *valid is written only on CUZK_OK.
 */
cuzk_status_t groth16_verify(bool *valid, const groth16_vk_t *vk, const r1cs_witness_t *pub,
                             const groth16_proof_t *proof, pool_t *pool, char *err,
                             size_t err_size);

/*
 * The one prover: a proof under key k for the input in, which is what
 * k->conv wants (groth16_input_t: a witness for GROTH16_SYNTH_COEFFS, an
 * assignment for GROTH16_SYNTH_GIVEN); *pub = the public inputs, ONE
 * excluded, Montgomery form (the witness' values 1 .. n_public, or the
 * assignment's inputs; the caller's afterwards: r1cs_witness_free). With
 * opts->accel the stages synth, h and msm run there. Unless
 * opts->no_verify, the proof is verified against k's own verifying key
 * first, and a proof that fails is CUZK_EWITNESS (the input does not
 * satisfy the circuit: the only way an honest prover's proof fails). opts
 * NULL: defaults. t (NULL: not wanted) gets the stage timings, verify 0
 * when skipped. CUZK_EINVAL when in does not fit k (curve, counts: the
 * message names both numbers), CUZK_ENOMEM, CUZK_ERANDOM; every failure
 * with a one-line message in err. On failure proof and pub hold nothing.
 */
cuzk_status_t groth16_prove_key(groth16_proof_t *proof, r1cs_witness_t *pub, const groth16_key_t *k,
                                const groth16_input_t *in, const groth16_prove_opts_t *opts,
                                groth16_timings_t *t, pool_t *pool, char *err, size_t err_size);

/*
 * Whether the snarkjs-convention key k (GROTH16_SYNTH_COEFFS) was made for
 * the circuit r (NAME_groth16_key_matches_r1cs): CUZK_OK, else CUZK_EINVAL
 * with the first difference in err, naming key_name and r1cs_name (also
 * when the curves differ).
 */
cuzk_status_t groth16_key_matches_r1cs(const groth16_key_t *k, const r1cs_t *r,
                                       const char *key_name, const char *r1cs_name, char *err,
                                       size_t err_size);

#endif
