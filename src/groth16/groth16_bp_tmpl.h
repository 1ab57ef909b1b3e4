/*
 * Groth16 over one curve in the bellperson / supraseal convention
 * (FORMATS.md sections 8.2 and 8.3): the template.
 *
 * Instantiated with groth16_tmpl.h, after groth16_tmpl_names.h; not
 * included directly. Names are NAME_groth16_bp_op. bellperson's files are
 * BLS12-381 only (io/params_file.h); the convention itself is
 * curve-independent, so BN254 gets it too, with the coset generator 5.
 *
 * The input is an assignment (io/asgn_file.h): the evaluations a, b, c of
 * every row (the circuit's, then x_i·0 = 0 per input), the input and aux
 * values and the density bitmaps that select the A and B query points.
 * The stages are those of the snarkjs prover (DESIGN.md section 3):
 *     synth → h → msm → finish,
 * with synth reduced to loading a, b, c and selecting the A and B scalars,
 * since the synthesizer has done the evaluation.
 */

#include <stdbool.h>
#include <stdint.h>

#include "cuzk.h"
#include "ec/ec.h"
#include "groth16/groth16_common.h"
#include "io/asgn_file.h"
#include "util/pool.h"
#include "util/rng.h"

/*
 * A key in the bellperson convention: the verifying key's points, IC
 * (n_ic points: the inputs, ONE included) and the query vectors of
 * FORMATS.md §8.2, affine, Montgomery form, finite. h has n_h = m − 1
 * points for the domain size m, l n_l (one per aux variable), a n_a (every
 * input, then the aux variables whose A column is not empty), b_g1 and
 * b_g2 n_b each (the inputs, then the aux variables, whose B column is not
 * empty). The arrays are borrowed.
 */
typedef struct {
    G16G1A alpha1, beta1, delta1;
    G16G2A beta2, gamma2, delta2;
    uint32_t n_ic, n_h, n_l, n_a, n_b;
    const G16G1A *ic, *h, *l, *a, *b_g1;
    const G16G2A *b_g2;
} G16N(bp_key_t);

/*
 * The state of one proof. The prover owns the arrays (NAME_groth16_bp_prover_free);
 * key and the assignment are borrowed and must outlive the state.
 *   a, b, c  m elements each, Montgomery form: after synth the row values
 *            zero-padded to m; after h, a holds the coefficients of
 *            h = (A·B − C)/Z as canonical limbs (h aliases it);
 *   sa, sb   the A- and B-query scalars (canonical): every input, then the
 *            aux values whose density bit is set;
 *   msm_*    Σ h_i·H_i, Σ aux_j·L_j, and the A, B1, B2 sums.
 */
typedef struct {
    const G16N(bp_key_t) * key;
    const asgn_t *asgn;
    uint64_t m;
    G16FT *a, *b, *c;
    uint64_t (*h)[EC_SCALAR_LIMBS];
    uint64_t (*sa)[EC_SCALAR_LIMBS], (*sb)[EC_SCALAR_LIMBS];
    G16G1J msm_a, msm_b1, msm_l, msm_h;
    G16G2J msm_b2;
} G16N(bp_prover_t);

/*
 * Stage synth: checks that the assignment fits the key (its curve is this
 * one; n_inputs = n_ic, n_aux = n_l, n_constraints <= m = n_h + 1, n_a =
 * n_inputs + popcount(a_aux_density), n_b = popcount(b_input_density) +
 * popcount(b_aux_density); else CUZK_EINVAL with a message naming both
 * numbers), loads a, b, c in Montgomery form and selects the A and B
 * scalars. CUZK_ENOMEM. On failure st holds nothing to free but may be freed.
 */
cuzk_status_t G16N(bp_synth)(G16N(bp_prover_t) * st, const G16N(bp_key_t) * key, const asgn_t *asgn,
                             cuzk_pool_t *pool, char *err, size_t err_size);

/* Stage h: the coefficients of (A·B − C)/Z over the coset g·⟨ω_m⟩ (g = 7
 * on BLS12-381, 5 on BN254; NAME_ntt_h_bellperson), canonical in st->h.
 * CUZK_ENOMEM. */
cuzk_status_t G16N(bp_h)(G16N(bp_prover_t) * st, cuzk_pool_t *pool);

/* Stage msm: H over h_0 .. h_(m−2), L over the aux values, A, B1 and B2
 * over the selected scalars. CUZK_ENOMEM. */
cuzk_status_t G16N(bp_msm)(G16N(bp_prover_t) * st, cuzk_pool_t *pool);

/*
 * The checks of bp_synth alone: asgn is over this curve and its counts
 * and densities select exactly the key's query sizes (CUZK_EINVAL with the
 * first difference named). For accelerators, which take the assignment as
 * it is.
 */
cuzk_status_t G16N(bp_check)(const G16N(bp_key_t) * key, const asgn_t *asgn, char *err,
                             size_t err_size);

/* bp_finish from the MSM results m of an accelerator (groth16_accel_t;
 * m's c is L̃). CUZK_ERANDOM. */
cuzk_status_t G16N(bp_finish_msms)(G16N(proof_t) * proof, const G16N(bp_key_t) * key,
                                   const G16MS *m, cuzk_rng_t *rng);

/* Stage finish: r and s, then the assembly of FORMATS.md §8.3 (as
 * NAME_groth16_finish, with L in place of snarkjs' C query). CUZK_ERANDOM. */
cuzk_status_t G16N(bp_finish)(G16N(bp_prover_t) * st, G16N(proof_t) * proof, cuzk_rng_t *rng);

/* The four stages in order on a fresh state, timed into t (may be NULL);
 * the state is released before returning. Failures as the stages', each
 * with a one-line message in err. */
cuzk_status_t G16N(bp_prove)(G16N(proof_t) * proof, const G16N(bp_key_t) * key, const asgn_t *asgn,
                             cuzk_rng_t *rng, groth16_timings_t *t, cuzk_pool_t *pool, char *err,
                             size_t err_size);

/* Releases the arrays of st and zeroes it; a zeroed st is fine. */
void G16N(bp_prover_free)(G16N(bp_prover_t) * st);

/*
 * INSECURE development key in the bellperson convention for the circuit r
 * (FORMATS.md §8.2, generator.rs): τ, α, β, γ, δ from rng (NULL:
 * getrandom), then forgotten, but nothing proves that; tests and
 * benchmarks only. Inputs are wires 0 .. n_public (ONE and the public
 * signals), aux the rest; m = 2^ceil(log2(n_constraints + n_inputs)).
 * Points of a and b are kept for columns that are not empty (the prover's
 * density rule), so an assignment made from r (NAME_groth16_bp_assign)
 * fits. The arrays live in one allocation that NAME_groth16_bp_dev_key_free
 * releases. CUZK_EINVAL (no aux variable, or m beyond the 2-adicity),
 * CUZK_ENOMEM, CUZK_ERANDOM; on failure k is zeroed. progress (NULL: none)
 * gets a stage for each query (IC, query L, A, B G1, B G2, H), in points.
 */
cuzk_status_t G16N(bp_dev_setup)(G16N(bp_key_t) * k, const G16C(r1cs_t) * r, cuzk_rng_t *rng,
                                 cuzk_progress_t *progress);

/* Releases what NAME_groth16_bp_dev_setup allocated and zeroes k. */
void G16N(bp_dev_key_free)(G16N(bp_key_t) * k);

/*
 * The assignment a bellperson-style synthesizer would produce for r and
 * the witness w (n_wires Montgomery-form values, w[0] = 1): the row values
 * A·w, B·w, C·w, then one row (x_i, 0, 0) per input; inputs = w[0 ..
 * n_public], aux = the rest; the density bitmaps from the columns of A and
 * B. out's arrays live in one allocation returned in *mem (the caller
 * frees it after out). CUZK_ENOMEM.
 */
cuzk_status_t G16N(bp_assign)(asgn_t *out, void **mem, const G16C(r1cs_t) * r, const G16FT *w,
                              cuzk_pool_t *pool);
