/*
 * Groth16 over one curve, snarkjs convention (FORMATS.md sections 5 and 7):
 * the template.
 *
 * Instantiated once per curve (bn254_groth16.h, bls381_groth16.h) after
 * groth16_tmpl_names.h; not included directly. Names are NAME_groth16_op.
 *
 * The prover is cut into the stages of DESIGN.md section 3, each a function
 * over one NAME_groth16_prover_t, so that another backend can replace any
 * of them and keep the rest:
 *     synth → h → msm → finish,
 * each stage needing the previous ones. Everything up to finish works on
 * public data or on the witness through variable-time code (MSM, NTT: the
 * witness is not protected against timing); finish handles the blinding
 * scalars r and s with constant-time scalar multiplications only.
 */

#include <stdbool.h>
#include <stdint.h>

#include "cuzk.h"
#include "ec/ec.h"
#include "groth16/groth16_common.h"
#include "groth16/groth16_key.h"
#include "util/pool.h"
#include "util/progress.h"
#include "util/rng.h"

/*
 * The state of one proof, for either convention (key->conv). The prover
 * owns the arrays (NAME_groth16_prover_free); key and the input are
 * borrowed and must outlive the state.
 *   w      GROTH16_SYNTH_COEFFS: n_vars plain (canonical) witness values,
 *          limbs least significant first: the A, B1, B2 and L scalars;
 *   sa, sb GROTH16_AB_DENSITY: the A- and B-query scalars (canonical),
 *          every input, then the aux values whose density bit is set;
 *   asgn   GROTH16_SYNTH_GIVEN: the assignment (its aux values are L's
 *          scalars);
 *   a, b, c  domain_size elements each, Montgomery form: after synth the
 *          evaluations A, B, C on ⟨ω_n⟩ (zero-padded rows of an
 *          assignment); after h, a holds the H scalars as canonical limbs
 *          (h aliases it);
 *   msm_*  the MSM results Ã, B̃1, B̃2, L̃ (snarkjs' C̃), H̃.
 */
typedef struct {
    const groth16_key_t *key;
    const groth16_asgn_t *asgn;
    uint64_t (*w)[EC_SCALAR_LIMBS];
    uint64_t (*sa)[EC_SCALAR_LIMBS], (*sb)[EC_SCALAR_LIMBS];
    /* the aux values in canonical form, for L, when the assignment's are
     * in Montgomery form (else NULL: L takes them where they lie) */
    uint64_t (*aux)[EC_SCALAR_LIMBS];
    G16FT *a, *b, *c;
    uint64_t (*h)[EC_SCALAR_LIMBS];
    G16G1J msm_a, msm_b1, msm_l, msm_h;
    G16G2J msm_b2;
} G16ST;

/* A verification key: the header points and IC (n_public + 1 points,
 * borrowed), all affine in Montgomery form and in their groups. */
typedef struct {
    G16G1A alpha1;
    G16G2A beta2, gamma2, delta2;
    const G16G1A *ic;
    uint32_t n_public;
} G16N(vk_t);

/* A proof: π_A, π_B, π_C, affine. */
typedef struct {
    G16G1A a;
    G16G2A b;
    G16G1A c;
} G16N(proof_t);

/*
 * Stage synth. st is zeroed and set up for key (a key of this curve) and
 * in (checked against the key: CUZK_EINVAL with a message naming both
 * numbers). GROTH16_SYNTH_COEFFS: the plain witness and X_ev[c] = Σ v ⊗
 * w[s] over the coefficient records (v the "double Montgomery"
 * coefficient, ⊗ the Montgomery product), C_ev = A_ev·B_ev.
 * GROTH16_SYNTH_GIVEN: a, b, c loaded in Montgomery form (copied when
 * they are in it already). With
 * GROTH16_AB_DENSITY the A and B scalars are selected. progress (NULL:
 * none) gets the stage "synth" counted in coefficient records (or the
 * given constraints). CUZK_ENOMEM. On failure st holds nothing to free but
 * may be freed.
 */
cuzk_status_t G16N(synth)(G16ST *st, const groth16_key_t *key, const groth16_input_t *in,
                          pool_t *pool, progress_t *progress, char *err, size_t err_size);

/*
 * The checks of synth alone: in fits key (curve, counts; with
 * GROTH16_AB_DENSITY the densities select exactly the key's A and B
 * sizes), else CUZK_EINVAL with the first difference named. For
 * accelerators, which take the input as it is.
 */
cuzk_status_t G16N(check_input)(const groth16_key_t *key, const groth16_input_t *in, char *err,
                                size_t err_size);

/* Stage h, by key->conv.h: GROTH16_H_SHIFTED_EVALS, H_j = A(s_j)·B(s_j) −
 * C(s_j) on the odd coset s_j = ω_2n·ω_n^j (NAME_ntt_h_snarkjs);
 * GROTH16_H_COSET_COEFFS, the coefficients of (A·B − C)/Z over the coset
 * g·⟨ω_m⟩ (g = 7 on BLS12-381, 5 on BN254; NAME_ntt_h_bellperson). Stored
 * canonical in st->h. progress (NULL: none) gets the stage "h" counted in
 * its six transforms. CUZK_ENOMEM. */
cuzk_status_t G16N(h)(G16ST *st, pool_t *pool, progress_t *progress);

/* Stage msm: the five MSMs with plain scalars, each query with the
 * scalars the convention gives it (w, or sa/sb and the aux values; h).
 * Misaligned query vectors are copied first. progress (NULL: none) gets
 * the stage "msm" counted in query points, advanced as each MSM ends.
 * CUZK_ENOMEM. */
cuzk_status_t G16N(msm)(G16ST *st, pool_t *pool, progress_t *progress);

/*
 * Stage finish: takes r and s from bl (groth16_key.h: given, or drawn
 * uniformly in Fr, r first; bl NULL: drawn from getrandom) and assembles, FORMATS.md §7
 * step 5 and §8.3,
 *   π_A = Ã + α1 + r·δ1,  π_B = B̃2 + β2 + s·δ2,  B1 = B̃1 + β1 + s·δ1,
 *   π_C = L̃ + H̃ + s·π_A + r·B1 − rs·δ1,
 * every product with r or s by the constant-time jac_mul and every sum
 * with a secret operand by the complete jac_add. r and s are wiped.
 * CUZK_ERANDOM.
 */
cuzk_status_t G16N(finish)(G16ST *st, G16N(proof_t) * proof, const groth16_blinding_t *bl);

/*
 * Stage finish after an accelerator (groth16_accel_t) ran synth, h and msm
 * for key: the same draw of r and s and the same assembly, from the MSM
 * results m (m's c is L̃). CUZK_ERANDOM.
 */
cuzk_status_t G16N(finish_msms)(G16N(proof_t) * proof, const groth16_key_t *key, const G16MS *m,
                                const groth16_blinding_t *bl);

/*
 * The four stages in order on a fresh state, each one's wall-clock time in
 * t (stages synth .. finish; t may be NULL); arguments and failures as the
 * stages', each with a one-line message in err. progress (NULL: none) gets
 * the stages synth, h and msm, each counted (finish runs within msm's). The
 * state is released before returning.
 */
cuzk_status_t G16N(prove)(G16N(proof_t) * proof, const groth16_key_t *key,
                          const groth16_input_t *in, const groth16_blinding_t *bl,
                          groth16_timings_t *t, pool_t *pool, progress_t *progress, char *err,
                          size_t err_size);

/* Releases the arrays of st and zeroes it; a zeroed st is fine. */
void G16N(prover_free)(G16ST *st);

/*
 * *valid = whether e(−π_A, π_B)·e(vk_x, γ2)·e(π_C, δ2)·e(α1, β2) = 1 with
 * vk_x = IC[0] + Σ pub_i·IC[i] (one multi-pairing). pub: vk->n_public
 * Montgomery-form values (hence < r). The proof points must be on their
 * curves and in their groups (the JSON reader checks it). Variable-time:
 * everything is public. CUZK_ENOMEM (the MSM), else CUZK_OK.
 */
cuzk_status_t G16N(verify)(bool *valid, const G16N(vk_t) * vk, const G16FT *pub,
                           const G16N(proof_t) * proof, pool_t *pool);

/*
 * *valid = whether all n >= 1 proofs verify under vk, proof i for the
 * public values pub[i·n_public .. (i+1)·n_public − 1] (Montgomery form),
 * checked at once by a random linear combination: with ρ_i uniform 128-bit
 * coefficients (ρ_0 = 1; from rng, NULL: getrandom),
 *   Π e(−ρ_i·π_A,i, π_B,i) · e(Σ ρ_i·vk_x,i, γ2) · e(Σ ρ_i·π_C,i, δ2)
 *     · e((Σ ρ_i)·α1, β2) = 1,
 * n + 3 pairings with one final exponentiation instead of 4n. A batch
 * with an invalid proof passes with probability at most 2^-128. The same
 * preconditions as NAME_groth16_verify. CUZK_ENOMEM, CUZK_ERANDOM.
 */
cuzk_status_t G16N(verify_batch)(bool *valid, const G16N(vk_t) * vk, const G16FT *pub,
                                 const G16N(proof_t) * proofs, size_t n, rng_t *rng, pool_t *pool);

/*
 * Whether key, a key of the snarkjs convention (GROTH16_SYNTH_COEFFS), was
 * made for the circuit r (FORMATS.md §9, "against the r1cs"): n_vars = the wires, n_public = the
 * public signals, a domain that holds the rows, and coefficient entries that are exactly the A and
 * B terms of r (value·R², in any order within a row) plus the rows
 * x_i·0 = 0. CUZK_OK, else CUZK_EINVAL with the first difference in err,
 * naming key_name and r1cs_name (e.g. "k.zkey does not belong to c.r1cs:
 * constraint 17, matrix A: wire 5 has coefficient ... in the circuit").
 */
cuzk_status_t G16N(key_matches_r1cs)(const groth16_key_t *key, const G16C(r1cs_t) * r,
                                     const char *key_name, const char *r1cs_name, char *err,
                                     size_t err_size);

/*
 * INSECURE development key for r: the secrets τ, α, β, δ (γ = 1) are drawn
 * from rng (NULL: getrandom) and then forgotten, but nothing proves that;
 * for tests and benchmarks only, never for a key anyone else relies on.
 * Builds what `snarkjs groth16 setup` would (FORMATS.md section 5, "What the
 * point sections contain"): domain n = 2^ceil(log2(n_constraints +
 * n_public + 1)), the coefficients of A and B plus the n_public + 1 rows
 * x_i·0 = 0, A/B1/B2/IC/C from the Lagrange basis of ⟨ω_n⟩ at τ, H[j] from
 * the Lagrange basis of ⟨ω_2n⟩ at the odd points, over δ. Scalar
 * multiplications are variable-time, by fixed-base tables, on
 * pool_default()'s threads (the caller must not be running a loop on
 * that pool). progress (NULL: none) gets a stage for each query (query A,
 * B1, B2, IC, C, H), counted in points, one advance a chunk of them.
 * On success k is a key of convention GROTH16_SNARKJS whose IC, queries and
 * coefficient records live in one allocation, starting at k->ic.data, that
 * NAME_groth16_dev_key_free releases. CUZK_EINVAL (n needs more than the
 * 2-adicity allows), CUZK_ENOMEM, CUZK_ERANDOM; on failure k is zeroed.
 */
cuzk_status_t G16N(dev_setup)(groth16_key_t *k, const G16C(r1cs_t) * r, rng_t *rng,
                              progress_t *progress);

/* Releases what NAME_groth16_dev_setup allocated and zeroes k. */
void G16N(dev_key_free)(groth16_key_t *k);

/* The development setups' fixed-base tables, for their device twin
 * (src/cuda/gpu_setup.h): t[255·i + j - 1] =
 * j·2^(8i)·G for i < 32, 1 <= j <= 255 (8160 affine points), G the
 * generator of G1 (g2: of G2). CUZK_ENOMEM. */
cuzk_status_t G16N(fb_table_g1)(G16G1A *t);
cuzk_status_t G16N(fb_table_g2)(G16G2A *t);
