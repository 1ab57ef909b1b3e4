/*
 * Groth16 over one curve: the implementation of groth16_tmpl.h, compiled
 * once per curve (bn254_groth16.c, bls381_groth16.c) after
 * groth16_tmpl_names.h and the curve's field, group, MSM, NTT and pairing
 * headers. This file holds what its parts share (the headers they use,
 * the domain generators, log2) and includes the parts, one concept each:
 *     groth16_synth_tmpl_impl.h   stage synth, NAME_groth16_check_input,
 *                                 NAME_groth16_prover_free
 *     groth16_h_tmpl_impl.h       stage h
 *     groth16_msm_tmpl_impl.h     stage msm
 *     groth16_prove_tmpl_impl.h   stage finish (and finish_msms),
 *                                 NAME_groth16_prove
 *     groth16_verify_tmpl_impl.h  NAME_groth16_verify, verify_batch
 *     groth16_setup_tmpl_impl.h   NAME_groth16_dev_setup, the fixed-base
 *                                 tables, NAME_groth16_key_matches_r1cs
 * groth16_bp_tmpl_impl.h follows it in the curve's file and uses the
 * setup's helpers.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/fail.h"
#include "util/progress.h"

/* snarkjs' domains are built from the generator 5 on both curves (FORMATS.md
 * §1); on the largest domain (log2 n = the 2-adicity, where ω_2n does not
 * exist) it shifts by Fr.shift = 25 instead (FORMATS.md §5, unverified:
 * no snarkjs key of that size has been tried). */
enum {
    G16N(SNARKJS_GENERATOR) = GROTH16_SNARKJS_GENERATOR,
    G16N(SNARKJS_SHIFT) = GROTH16_SNARKJS_SHIFT
};

/* The includer defines G16_BP_GENERATOR: the multiplicative generator of
 * Fr that the bellperson convention builds its domains and its coset from. */
enum { G16N(BP_GENERATOR) = G16_BP_GENERATOR };

/* The least k with 2^k >= n: the log2 of the smallest domain that holds n
 * rows. */
static unsigned G16N(log2)(uint64_t n)
{
    unsigned k = 0;
    while (((uint64_t)1 << k) < n)
        k++;
    return k;
}

/* The stages in their order, then the verifier and the setup; each part
 * uses only what is above and the declarations of groth16_tmpl.h. */
#include "groth16/groth16_synth_tmpl_impl.h"
#include "groth16/groth16_h_tmpl_impl.h"
#include "groth16/groth16_msm_tmpl_impl.h"
#include "groth16/groth16_prove_tmpl_impl.h"
#include "groth16/groth16_verify_tmpl_impl.h"
#include "groth16/groth16_setup_tmpl_impl.h"
