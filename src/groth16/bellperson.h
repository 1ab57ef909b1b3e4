/*
 * Groth16 with bellperson's files (FORMATS.md section 8): BLS12-381
 * .params and .vk keys, 192-byte proofs and assignment files, over the
 * bellperson-convention prover of groth16_bp_tmpl.h.
 */
#ifndef CUZK_GROTH16_BELLPERSON_H
#define CUZK_GROTH16_BELLPERSON_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk.h"
#include "ff/bls381_fr.h"
#include "groth16/groth16.h"
#include "io/asgn_file.h"
#include "io/params_file.h"
#include "r1cs/r1cs.h"
#include "util/pool.h"
#include "util/rng.h"

/*
 * A proof for the assignment a under the parameters p. Unless
 * opts->no_verify, the proof is verified against p's verifying key with
 * a's inputs first, and a proof that fails is CUZK_EWITNESS (the
 * assignment does not satisfy the circuit). opts NULL: defaults; t (NULL:
 * not wanted) gets the stage timings. CUZK_EINVAL when a does not fit p
 * (curve, counts; the message names both numbers), CUZK_ENOMEM,
 * CUZK_ERANDOM; every failure with a one-line message in err.
 */
cuzk_status_t groth16_bp_prove(bp_proof_t *proof, const bp_params_t *p, const asgn_t *a,
                               const groth16_prove_opts_t *opts, groth16_timings_t *t,
                               cuzk_pool_t *pool, char *err, size_t err_size);

/*
 * *valid = whether every one of the n >= 1 proofs verifies under vk, proof
 * i for the inputs in[i·(n_ic − 1) .. (i+1)·(n_ic − 1) − 1] (ONE excluded,
 * Montgomery form). One proof: the plain check; several: one batch check
 * by a random linear combination (coefficients from rng, NULL: getrandom;
 * bls381_groth16_verify_batch). The proof points must be in their groups
 * (bp_proof_decode checks it). CUZK_ENOMEM, CUZK_ERANDOM, with a message.
 */
cuzk_status_t groth16_bp_verify(bool *valid, const bp_vk_t *vk, const bls381_fr_t *in,
                                const bp_proof_t *proofs, size_t n, cuzk_rng_t *rng,
                                cuzk_pool_t *pool, char *err, size_t err_size);

/*
 * An INSECURE development key in bellperson's layout for the BLS12-381
 * circuit r (bls381_groth16_bp_dev_setup: tests and benchmarks only); p is
 * the caller's afterwards (bp_params_free). CUZK_EUNSUPPORTED for another
 * curve, CUZK_EINVAL for a circuit without private wires or beyond the
 * domains, CUZK_ENOMEM, CUZK_ERANDOM; on failure p is empty. progress
 * (NULL: none) gets a stage for each query.
 */
cuzk_status_t groth16_bp_dev_setup(bp_params_t *p, const r1cs_t *r, cuzk_rng_t *rng,
                                   cuzk_progress_t *progress);

/*
 * The assignment of r and its witness w (same curve, w->n = the number of
 * wires; else CUZK_EINVAL), as bls381_groth16_bp_assign describes; its
 * arrays live in *mem, which the caller frees after a. CUZK_ENOMEM.
 */
cuzk_status_t groth16_bp_assign(asgn_t *a, void **mem, const r1cs_t *r, const r1cs_witness_t *w,
                                cuzk_pool_t *pool);

#endif
