/*
 * The optimal ate pairing e: G1 x G2 -> GT ⊂ Fp12*: the template of the
 * public API, instantiated by bls381_pairing.h and bn254_pairing.h (TW_CURVE
 * names the curve; the names below are <curve>_miller_loop etc.).
 *
 * Inputs are affine points in Montgomery form, (0, 0) standing for the point
 * at infinity (DESIGN.md section 5). They must lie in G1 (order-r subgroup of
 * E(Fp)) and G2 (order-r subgroup of the sextic twist E'(Fp2)); for other
 * points the value is unspecified (but computing it is safe). The pairing is
 * for verification: its running time depends on which points are at infinity
 * and on nothing else. Outputs may not alias inputs of another type;
 * the arrays p and q are read only.
 */

#include <stdbool.h>
#include <stddef.h>

#include "ff/tower_names.h"
#include "pairing/pairing_tmpl_names.h"
#include "util/pool.h"

/*
 * f = Π_i f_i for the n pairs (p[i], q[i]), f_i the Miller function of the
 * optimal ate pairing evaluated at p[i] (a pair with a point at infinity
 * contributes 1; n = 0 gives 1). The squarings of f are shared by all pairs.
 * The value is defined up to factors the final exponentiation removes.
 */
void PR(miller_loop)(F12T *f, const PR_G1A *p, const PR_G2A *q, size_t n);

/*
 * r = f^(m·(p^12 - 1)/r) (r may alias f), with the fixed multiple m coprime
 * to the group order that the fastest known hard parts produce and that
 * snarkjs uses too, so that our e(alpha, beta) is its vk_alphabeta_12:
 * m = 3 for BLS12-381, m = 2x·(6x^2 + 3x + 1) for BN254. The result is a
 * non-degenerate bilinear pairing all the same; products equal to 1 do not
 * depend on m.
 */
void PR(final_exp)(F12T *r, const F12T *f);

/* r = e(p, q) = final_exp(miller_loop(p, q)); 1 when either point is at
 * infinity. */
void PR(pairing)(F12T *r, const PR_G1A *p, const PR_G2A *q);

/* Whether Π_i e(p[i], q[i]) = 1, with one final exponentiation for all n
 * pairs: the Groth16 verification equation. The Miller loop is split into
 * groups of pairs, one a thread of pool (NULL: the calling thread), whose
 * values are multiplied: the same f as one loop, each group's squarings
 * its own (a Groth16 proof's four pairs on four threads take about half
 * the time of one loop). */
bool PR(pairing_product_is_one)(const PR_G1A *p, const PR_G2A *q, size_t n, pool_t *pool);
