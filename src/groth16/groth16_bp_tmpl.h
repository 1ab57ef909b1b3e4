/*
 * Groth16 over one curve in the bellperson / supraseal convention
 * (FORMATS.md sections 8.2 and 8.3): what the convention needs besides the
 * prover of groth16_tmpl.h, which proves in it when the key says
 * GROTH16_BELLPERSON. Instantiated with groth16_tmpl.h, after
 * groth16_tmpl_names.h; not included directly. Names are
 * NAME_groth16_bp_op. bellperson's files are BLS12-381 only
 * (io/params_file.h); the convention itself is curve-independent, so BN254
 * gets it too, with the coset generator 5.
 *
 * The input is an assignment (groth16_asgn_t): the evaluations a, b, c of
 * every row (the circuit's, then x_i·0 = 0 per input), the input and aux
 * values and the density bitmaps that select the A and B query points.
 */

#include <stdbool.h>
#include <stdint.h>

#include "cuzk.h"
#include "ec/ec.h"
#include "groth16/groth16_common.h"
#include "groth16/groth16_key.h"
#include "util/pool.h"
#include "util/rng.h"

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
cuzk_status_t G16N(bp_dev_setup)(groth16_key_t *k, const G16C(r1cs_t) * r, rng_t *rng,
                                 progress_t *progress);

/* Releases what NAME_groth16_bp_dev_setup allocated and zeroes k. */
void G16N(bp_dev_key_free)(groth16_key_t *k);

/*
 * The assignment a bellperson-style synthesizer would produce for r and
 * the witness w (n_wires Montgomery-form values, w[0] = 1): the row values
 * A·w, B·w, C·w, then one row (x_i, 0, 0) per input; inputs = w[0 ..
 * n_public], aux = the rest; the density bitmaps from the columns of A and
 * B. out's arrays live in one allocation returned in *mem (the caller
 * frees it after out). CUZK_ENOMEM.
 */
cuzk_status_t G16N(bp_assign)(groth16_asgn_t *out, void **mem, const G16C(r1cs_t) * r,
                              const G16FT *w, pool_t *pool);
