/*
 * The BLS12-381 optimal ate pairing: e(P, Q) = f_{x,Q}(P)^((p^12 - 1)/r) with
 * x = -0xd201000000010000 (Miller loop over |x|, then conjugation), M-type
 * twist. Shared machinery in pairing_tmpl_impl.h.
 */
#include "pairing/bls381_pairing.h"

#include "ff/bls381_fp2_params.h"
#include "pairing/bls381_pairing_consts.h"

#define PR_LOOP     ((unsigned __int128)0xd201000000010000ULL)
#define PR_LOOP_NEG 1
#define PR_BN_LINES 0

#include "pairing/pairing_tmpl_impl.h"

/* |x|; x < 0 */
#define BLS381_X_ABS 0xd201000000010000ULL

/* r = a^x for a in the cyclotomic subgroup: 63 cyclotomic squarings and 5
 * multiplications, then the inverse (conjugation) because x < 0. */
static void bls381_cyclotomic_pow_x_(bls381_fp12_t *r, const bls381_fp12_t *a)
{
    bls381_fp12_cyclotomic_pow_u64(r, a, BLS381_X_ABS);
    bls381_fp12_conj(r, r);
}

/*
 * f^(3d), d = (p^4 - p^2 + 1)/r, through the factorisation valid for every
 * BLS12 curve (Hayashida, Hayasaka, Teruya, "Efficient final exponentiation
 * via cyclotomic structure for pairings over families of elliptic curves",
 * ePrint 2020/875, section 4.1)
 *     3d = (x - 1)^2·(x + p)·(x^2 + p^2 - 1) + 3.
 * The cube is what snarkjs (ffjavascript/wasmcurves) computes: its
 * vk_alphabeta_12 equals this value (tests/test_pairing.c). Five
 * exponentiations by x, two Frobenius maps, 6 multiplications and one
 * cyclotomic squaring.
 */
static void bls381_final_exp_hard_(bls381_fp12_t *r, const bls381_fp12_t *f)
{
    bls381_fp12_t a, b, c;
    /* a = f^((x - 1)^2): twice t -> t^x·conj(t) */
    bls381_cyclotomic_pow_x_(&b, f);
    bls381_fp12_conj(&a, f);
    bls381_fp12_mul(&a, &b, &a);
    bls381_cyclotomic_pow_x_(&b, &a);
    bls381_fp12_conj(&a, &a);
    bls381_fp12_mul(&a, &b, &a);
    /* a = a^(x + p) */
    bls381_cyclotomic_pow_x_(&b, &a);
    bls381_fp12_frobenius(&a, &a, 1);
    bls381_fp12_mul(&a, &b, &a);
    /* a = a^(x^2 + p^2 - 1) */
    bls381_cyclotomic_pow_x_(&b, &a);
    bls381_cyclotomic_pow_x_(&b, &b);
    bls381_fp12_frobenius(&c, &a, 2);
    bls381_fp12_mul(&b, &b, &c);
    bls381_fp12_conj(&a, &a);
    bls381_fp12_mul(&a, &b, &a);
    /* r = a·f^3 */
    bls381_fp12_cyclotomic_sqr(&c, f);
    bls381_fp12_mul(&c, &c, f);
    bls381_fp12_mul(r, &a, &c);
}
