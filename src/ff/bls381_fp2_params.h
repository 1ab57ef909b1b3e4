/* BLS12-381 tower parameters for fp2_tmpl.h, fp6_tmpl.h and fp12_tmpl.h (no
 * include guard: included by every header and .c file of the tower).
 * Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v)
 * with xi = TW_XI_A + u = 1 + u. The sextic twist is of M-type
 * (E': y^2 = x^3 + 4·xi), see pairing/bls381_pairing.c. */
#define TW_CURVE   bls381
#define TW_XI_A    1
#define TW_TWIST_M 1
