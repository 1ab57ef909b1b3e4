/*
 * The BN254 optimal ate pairing (Vercauteren, "Optimal pairings", 2010):
 * e(P, Q) = (f_{6x+2,Q}(P)·l_{T,pi(Q)}(P)·l_{T+pi(Q),-pi^2(Q)}(P))^((p^12 - 1)/r)
 * with x = 4965661367192848881 and T = [6x + 2]Q, D-type twist. Shared
 * machinery in pairing_tmpl_impl.h.
 */
#include "pairing/bn254_pairing.h"

#include "ff/bn254_fp2_params.h"
#include "pairing/bn254_pairing_consts.h"

#define BN254_X 4965661367192848881ULL

#define PR_LOOP     ((unsigned __int128)BN254_X * 6 + 2)
#define PR_LOOP_NEG 0
#define PR_BN_LINES 1

#include "pairing/pairing_tmpl_impl.h"

/*
 * f^(m·d), d = (p^4 - p^2 + 1)/r, m = 2x·(6x^2 + 3x + 1) (coprime to r):
 * Fuentes-Castaneda, Knapp, Rodriguez-Henriquez, "Faster hashing to G2",
 * SAC 2011, section 6. The multiple m·d = l0 + l1·p + l2·p^2 + l3·p^3 has
 *   l0 = 12x^3 + 12x^2 + 6x + 1,  l1 = 12x^3 + 6x^2 + 4x,
 *   l2 = 12x^3 + 6x^2 + 6x,       l3 = 12x^3 + 6x^2 + 4x - 1.
 * This is the power snarkjs (ffjavascript/wasmcurves) computes: its
 * vk_alphabeta_12 equals this value (tests/test_pairing.c). Three
 * exponentiations by x, 3 cyclotomic squarings, 10 multiplications, 3
 * Frobenius maps.
 */
static void bn254_final_exp_hard_(bn254_fp12_t *r, const bn254_fp12_t *f)
{
    bn254_fp12_t f2x, f6x, f6x2, f12x3, a, b, t;
    bn254_fp12_cyclotomic_pow_u64(&f2x, f, BN254_X);
    bn254_fp12_cyclotomic_sqr(&f2x, &f2x);                  /* f^(2x) */
    bn254_fp12_cyclotomic_sqr(&f6x, &f2x);                  /* f^(4x) */
    bn254_fp12_mul(&f6x, &f6x, &f2x);                       /* f^(6x) */
    bn254_fp12_cyclotomic_pow_u64(&f6x2, &f6x, BN254_X);    /* f^(6x^2) */
    bn254_fp12_cyclotomic_sqr(&f12x3, &f6x2);               /* f^(12x^2) */
    bn254_fp12_cyclotomic_pow_u64(&f12x3, &f12x3, BN254_X); /* f^(12x^3) */

    bn254_fp12_mul(&a, &f12x3, &f6x2);
    bn254_fp12_mul(&a, &a, &f6x); /* a = f^l2 */
    bn254_fp12_conj(&t, &f2x);
    bn254_fp12_mul(&b, &a, &t); /* b = f^l1 */

    bn254_fp12_mul(r, &a, &f6x2);
    bn254_fp12_mul(r, r, f); /* f^l0 */
    bn254_fp12_frobenius(&t, &b, 1);
    bn254_fp12_mul(r, r, &t); /* ·f^(l1·p) */
    bn254_fp12_frobenius(&t, &a, 2);
    bn254_fp12_mul(r, r, &t); /* ·f^(l2·p^2) */
    bn254_fp12_conj(&t, f);
    bn254_fp12_mul(&t, &t, &b);
    bn254_fp12_frobenius(&t, &t, 3);
    bn254_fp12_mul(r, r, &t); /* ·f^(l3·p^3) */
}
