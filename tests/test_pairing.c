/*
 * Tests of the optimal ate pairings of BLS12-381 and BN254.
 *
 * Known answers from outside: snarkjs' vk_alphabeta_12 = e(alpha1, beta2) of
 * published verification keys (which also pins our Fp12 layout to snarkjs'),
 * and, for BLS12-381, a published snarkjs proof that must verify. The rest
 * are the defining properties: bilinearity, non-degeneracy, order r, the
 * optimised final exponentiation against plain f^((p^12 - 1)/r), and the
 * product check on true and tampered relations.
 *
 * Like test_tower.c, the per-curve tests are written once below
 * `#ifdef TW_CURVE` and this file includes itself once per curve.
 */
#ifdef TW_CURVE

#include "ff/tower_names.h"
#include "pairing/pairing_tmpl_names.h"
#define TP(name)   TW_CAT3(test, TW_CURVE, name)
#define G1(op)     TW_CAT3(TW_CURVE, g1, op)
#define G2(op)     TW_CAT3(TW_CURVE, g2, op)
#define FR(op)     TW_CAT3(TW_CURVE, fr, op)
#define TP_LIMBS   (sizeof(F1T) / sizeof(uint64_t))
#define TP_STR_(x) #x
#define TP_STR(x)  TP_STR_(x)
#define TP_UNIT(f)                                                                                 \
    {                                                                                              \
        TP_STR(TP(f)), TP(f), NULL, NULL, NULL                                                     \
    }

static void TP(fp_from_dec_)(F1T *r, const char *s)
{
    assert_int_equal(F1(from_dec)(r, s), CUZK_OK);
}

static void TP(fp2_from_dec_)(F2T *r, const char *c0, const char *c1)
{
    TP(fp_from_dec_)(&r->c0, c0);
    TP(fp_from_dec_)(&r->c1, c1);
}

/* vk_alphabeta_12 as snarkjs prints it: [c0, c1][v^0, v^1, v^2][u^0, u^1]. */
static void TP(fp12_from_dec_)(F12T *r, const char *const s[12])
{
    F6T *h[2] = {&r->c0, &r->c1};
    for (int i = 0; i < 2; i++) {
        TP(fp2_from_dec_)(&h[i]->c0, s[6 * i + 0], s[6 * i + 1]);
        TP(fp2_from_dec_)(&h[i]->c1, s[6 * i + 2], s[6 * i + 3]);
        TP(fp2_from_dec_)(&h[i]->c2, s[6 * i + 4], s[6 * i + 5]);
    }
}

/* A uniformly random scalar in [0, r), canonical limbs. */
static void TP(rand_scalar_)(uint64_t k[4])
{
    FR(t) s;
    assert_int_equal(FR(random)(&s, &test_rng), CUZK_OK);
    FR(to_canonical)(k, &s);
}

static void TP(g1_mul_)(PR_G1A *r, const PR_G1A *p, const uint64_t k[4])
{
    G1(jac_t) j;
    G1(jac_from_affine)(&j, p);
    G1(jac_mul_vartime)(&j, &j, k);
    G1(jac_to_affine)(r, &j);
}

static void TP(g2_mul_)(PR_G2A *r, const PR_G2A *q, const uint64_t k[4])
{
    G2(jac_t) j;
    G2(jac_from_affine)(&j, q);
    G2(jac_mul_vartime)(&j, &j, k);
    G2(jac_to_affine)(r, &j);
}

/* The standard generators, from their published coordinates. */
static void TP(generators_)(PR_G1A *g1, PR_G2A *g2)
{
    TP(fp_from_dec_)(&g1->x, TP_G1X);
    TP(fp_from_dec_)(&g1->y, TP_G1Y);
    TP(fp2_from_dec_)(&g2->x, TP_G2X0, TP_G2X1);
    TP(fp2_from_dec_)(&g2->y, TP_G2Y0, TP_G2Y1);
}

/* e = m·(p^12 - 1)/r as limbs (m = TP_FINAL_EXP_M, see final_exp);
 * returns the count (e holds 13·TP_LIMBS). */
static size_t TP(final_exponent_)(uint64_t *e)
{
    mpz_t p, r, z, m;
    mpz_inits(p, r, z, m, NULL);
    assert_int_equal(mpz_set_str(m, TP_FINAL_EXP_M, 10), 0);
    test_mpz_from_limbs(p, F1(MODULUS), TP_LIMBS);
    test_mpz_from_limbs(r, FR(MODULUS), 4);
    mpz_pow_ui(z, p, 12);
    mpz_sub_ui(z, z, 1);
    assert_true(mpz_divisible_p(z, r));
    mpz_divexact(z, z, r);
    mpz_mul(z, z, m);
    size_t n = (mpz_sizeinbase(z, 2) + 63) / 64;
    test_mpz_to_limbs(e, n, z);
    mpz_clears(p, r, z, m, NULL);
    return n;
}

static void TP(generators_match_ec)(void **state)
{
    (void)state;
    PR_G1A g1, e1;
    PR_G2A g2, e2;
    TP(generators_)(&g1, &g2);
    assert_true(G1(affine_is_on_curve)(&g1));
    assert_true(G2(affine_is_on_curve)(&g2));
    G1(generator)(&e1);
    G2(generator)(&e2);
    assert_true(G1(affine_equal)(&g1, &e1));
    assert_true(G2(affine_equal)(&g2, &e2));
}

/* snarkjs' vk_alphabeta_12 = e(vk_alpha_1, vk_beta_2). */
static void TP(snarkjs_alphabeta)(void **state)
{
    (void)state;
    PR_G1A alpha;
    PR_G2A beta;
    F12T want, got;
    TP(fp_from_dec_)(&alpha.x, TP_VK_ALPHA[0]);
    TP(fp_from_dec_)(&alpha.y, TP_VK_ALPHA[1]);
    TP(fp2_from_dec_)(&beta.x, TP_VK_BETA[0], TP_VK_BETA[1]);
    TP(fp2_from_dec_)(&beta.y, TP_VK_BETA[2], TP_VK_BETA[3]);
    assert_true(G1(affine_is_on_curve)(&alpha));
    assert_true(G2(affine_is_on_curve)(&beta));
    TP(fp12_from_dec_)(&want, TP_VK_ALPHABETA);
    PR(pairing)(&got, &alpha, &beta);
    assert_true(F12(equal)(&got, &want));
}

/* The optimised final exponentiation against the plain power
 * f^(m·(p^12 - 1)/r), on random Fp12 elements (not only Miller-loop
 * outputs). */
static void TP(final_exp_vs_pow)(void **state)
{
    (void)state;
    uint64_t e[13 * 6];
    size_t n = TP(final_exponent_)(e);
    for (int it = 0; it < test_iters(2); it++) {
        F12T f, x, y;
        assert_int_equal(F12(random)(&f, &test_rng), CUZK_OK);
        PR(final_exp)(&x, &f);
        F12(pow)(&y, &f, e, n);
        assert_true(F12(equal)(&x, &y));
    }
}

/* e(aP, bQ) = e(P, Q)^(ab); e(G1, G2) != 1 and has order r. */
static void TP(bilinear_nondegenerate)(void **state)
{
    (void)state;
    PR_G1A g1, ap;
    PR_G2A g2, bq;
    F12T e, x, y;
    TP(generators_)(&g1, &g2);
    PR(pairing)(&e, &g1, &g2);
    assert_false(F12(is_one)(&e));
    F12(pow)(&x, &e, FR(MODULUS), 4);
    assert_true(F12(is_one)(&x));

    mpz_t a, b, r, ab;
    mpz_inits(a, b, r, ab, NULL);
    test_mpz_from_limbs(r, FR(MODULUS), 4);
    for (int it = 0; it < test_iters(3); it++) {
        uint64_t ka[4], kb[4], kab[4];
        TP(rand_scalar_)(ka);
        TP(rand_scalar_)(kb);
        test_mpz_from_limbs(a, ka, 4);
        test_mpz_from_limbs(b, kb, 4);
        mpz_mul(ab, a, b);
        mpz_mod(ab, ab, r);
        test_mpz_to_limbs(kab, 4, ab);
        TP(g1_mul_)(&ap, &g1, ka);
        TP(g2_mul_)(&bq, &g2, kb);
        PR(pairing)(&x, &ap, &bq);
        F12(pow)(&y, &e, kab, 4);
        assert_true(F12(equal)(&x, &y));
        /* e(aP, Q)·e(-aP, Q) = 1, with and without the shared product */
        PR_G1A neg;
        G1(affine_neg)(&neg, &ap);
        PR(pairing)(&y, &neg, &bq);
        F12(mul)(&y, &y, &x);
        assert_true(F12(is_one)(&y));
        PR_G1A ps[2] = {ap, neg};
        PR_G2A qs[2] = {bq, bq};
        assert_true(PR(pairing_product_is_one)(ps, qs, 2, NULL));
    }
    mpz_clears(a, b, r, ab, NULL);
}

/* Π e(P_i, Q_i) = 1 for a true relation over more pairs than one Miller
 * chunk, false once one point is tampered; points at infinity count 1. */
static void TP(product_check)(void **state)
{
    (void)state;
    enum { N = 11 };
    PR_G1A g1, ps[N + 2];
    PR_G2A g2, qs[N + 2];
    TP(generators_)(&g1, &g2);
    /* e(a_i G1, b_i G2) for i < N-1, and e(-G1, (Σ a_i b_i) G2) */
    mpz_t s, t, u, r;
    mpz_inits(s, t, u, r, NULL);
    test_mpz_from_limbs(r, FR(MODULUS), 4);
    for (int i = 0; i < N - 1; i++) {
        uint64_t ka[4], kb[4];
        TP(rand_scalar_)(ka);
        TP(rand_scalar_)(kb);
        TP(g1_mul_)(&ps[i], &g1, ka);
        TP(g2_mul_)(&qs[i], &g2, kb);
        test_mpz_from_limbs(t, ka, 4);
        test_mpz_from_limbs(u, kb, 4);
        mpz_addmul(s, t, u);
    }
    mpz_mod(s, s, r);
    uint64_t ks[4];
    test_mpz_to_limbs(ks, 4, s);
    G1(affine_neg)(&ps[N - 1], &g1);
    TP(g2_mul_)(&qs[N - 1], &g2, ks);
    mpz_clears(s, t, u, r, NULL);
    assert_true(PR(pairing_product_is_one)(ps, qs, N, NULL));

    /* infinity on either side contributes 1 */
    G1(affine_set_infinity)(&ps[N]);
    qs[N] = g2;
    ps[N + 1] = g1;
    G2(affine_set_infinity)(&qs[N + 1]);
    assert_true(PR(pairing_product_is_one)(ps, qs, N + 2, NULL));
    assert_true(PR(pairing_product_is_one)(ps + N, qs + N, 2, NULL));
    assert_true(PR(pairing_product_is_one)(ps, qs, 0, NULL));
    F12T x;
    PR(pairing)(&x, &ps[N], &qs[N]);
    assert_true(F12(is_one)(&x));

    /* tampered: one G1 point replaced by its double, one G2 point negated */
    PR_G1A keep1 = ps[3];
    uint64_t two[4] = {2};
    TP(g1_mul_)(&ps[3], &keep1, two);
    assert_false(PR(pairing_product_is_one)(ps, qs, N, NULL));
    ps[3] = keep1;
    G2(affine_neg)(&qs[N - 1], &qs[N - 1]);
    assert_false(PR(pairing_product_is_one)(ps, qs, N, NULL));
    G2(affine_neg)(&qs[N - 1], &qs[N - 1]);
    assert_true(PR(pairing_product_is_one)(ps, qs, N, NULL));

    /* the same on a pool: the Miller loop in groups of uneven sizes, one a
     * thread, a tampered pair in any group found */
    pool_t *pool = pool_new(3, NULL);
    assert_non_null(pool);
    assert_true(PR(pairing_product_is_one)(ps, qs, N, pool));
    assert_true(PR(pairing_product_is_one)(ps, qs, N + 2, pool));
    assert_true(PR(pairing_product_is_one)(ps + N, qs + N, 2, pool));
    for (int i = 0; i < N; i++) {
        PR_G1A keep = ps[i];
        TP(g1_mul_)(&ps[i], &keep, two);
        assert_false(PR(pairing_product_is_one)(ps, qs, N, pool));
        ps[i] = keep;
    }
    pool_free(pool);

    /* the multi-pair Miller loop is the product of single ones */
    F12T f, g, h;
    PR(miller_loop)(&f, ps, qs, 3);
    PR(miller_loop)(&g, ps, qs, 1);
    PR(miller_loop)(&h, ps + 1, qs + 1, 1);
    F12(mul)(&g, &g, &h);
    PR(miller_loop)(&h, ps + 2, qs + 2, 1);
    F12(mul)(&g, &g, &h);
    PR(final_exp)(&f, &f);
    PR(final_exp)(&g, &g);
    assert_true(F12(equal)(&f, &g));
}

#define TP_TESTS                                                                                   \
    TP_UNIT(generators_match_ec), TP_UNIT(snarkjs_alphabeta), TP_UNIT(final_exp_vs_pow),           \
        TP_UNIT(bilinear_nondegenerate), TP_UNIT(product_check)

#else /* the driver */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_util.h"

#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "pairing/bls381_pairing.h"
#include "pairing/bn254_pairing.h"

/* ---- BLS12-381 --------------------------------------------------------- */

/* The generators (hex in "BLS12-381 for the rest of us" and in the IETF
 * pairing-friendly-curves draft, section 4.2.1), in decimal. The snarkjs
 * verification key (curve "bls12381", nPublic 1, public input 33) is the test
 * vector of availproject/avail, pallets/succinct/src/deserialization.rs. */
#define TP_G1X                                                                                     \
    "3685416753713387016781088315183077757961620795782546409894578378688607592378376318836054"     \
    "947676345821548104185464507"
#define TP_G1Y                                                                                     \
    "1339506544944476473020471379941921221584933875938349620426543736416511423956333506472724"     \
    "655353366534992391756441569"
#define TP_G2X0                                                                                    \
    "3527010695874666181871391160110601448900299527927752402199086442397937857357150268733476"     \
    "00343865175952761926303160"
#define TP_G2X1                                                                                    \
    "3059144344244213709971259814753781636986470325476647558659373206291635324768958432433509"     \
    "563104347017837885763365758"
#define TP_G2Y0                                                                                    \
    "1985150602287291935568054521177171638300868978215655730859378665066344726373823718423869"     \
    "104263333984641494340347905"
#define TP_G2Y1                                                                                    \
    "9275536654923324557472019657760378807577401934535929700250279787939768770026755649809492"     \
    "89727957565575433344219582"
static const char *const bls381_vk_alpha[2] = {
    "2635983656263320256511463995836413167331869092392943593306076905516259749312747842295447"
    "349507189592731785901862558",
    "7438929964567025194980295945499372886416192750559579758791573069889299706263253262226976"
    "09972550552691064908651931",
};
static const char *const bls381_vk_beta[4] = {
    "1296094501238138520689116246487755613076576267512760150298482409401507546730337296489670"
    "510433482825207790998397346",
    "3467549840163329914429787393326495235851806074050417925094845001935796859739058829480949"
    "031354270816778136382040361",
    "3403410200913851046378881164751590587066009874691619938225021193334979700147466129997648"
    "606538377099567064346931273",
    "3804847074485539411700684267722735363688167108429634491643293100788171321105199556340902"
    "873511607444652008144844173",
};
static const char *const bls381_vk_alphabeta[12] = {
    "2875682627859788046787727046323207700818211438271057184016590533515641699292997693457599"
    "620936708894947724425715231",
    "1238832727101571020174962081840437018121939792461931445079462232794726384752259447129206"
    "595688503509959353794284793",
    "1142295393527745936520465586775444768688364741373237930118445421796520414741916849824256"
    "960449892474465014692624756",
    "2180077006016464788050801868062734927906767334913187269719534809313436039282935753136702"
    "491423916116028147695108113",
    "5819121899755925852179348452555931268791574155189332235202662176902587078401905911761742"
    "59119561150786976644927862",
    "1496521185256234033198775390415811847166244093737149241712223242576005202124661827966889"
    "067451826629794876020037891",
    "9687787613265445333478944408529463178328781724360780564387287647927169481067771331865927"
    "41979864246862480026990714",
    "3286237875677076419439678035167386721716851772116127087476697302808027553397980022598381"
    "369816552966804476744614726",
    "7030461330191928771504970986827750628709445810808116535584171678360343656823086292785790"
    "84636589495681129838804552",
    "3120651492951743750811126470515331662411558962596191689455151216422711804034698152168980"
    "665082907679235009776566592",
    "3093035865177537484265129293484086930964325066660842965056946750881983192007730606218463"
    "861804151316907199193750598",
    "2217088332657331378025998358211322741524769834682072728928845130805944349335376146743275"
    "401044544953792401446016391",
};
#define TP_FINAL_EXP_M  "3"
#define TP_VK_ALPHA     bls381_vk_alpha
#define TP_VK_BETA      bls381_vk_beta
#define TP_VK_ALPHABETA bls381_vk_alphabeta

/* The rest of that key and its proof, decimal: IC0 (x, y), IC1, gamma_2
 * (x.c0, x.c1, y.c0, y.c1), delta_2, pi_a, pi_b, pi_c. */
static const char *const bls381_groth16_kat[20] = {
    "3759794041598018594287463133849401670165044879836734797942436987012929463856866218164906"
    "521458646350224910548839839",
    "3238512100593065266229132824040292706800754984648723917955334599968665051423411534393542"
    "324672325614522917210582797",
    "3305881491744710205856868316456114914540772066725994230747514104922282269209779243587827"
    "394909802115252764372519712",
    "2462443929524735084767395208674598757462820081953985438437610428598624587728712969052746"
    "628125821805697605346885091",
    "3527010695874666181871391160110601448900299527927752402199086442397937857357150268733476"
    "00343865175952761926303160",
    "3059144344244213709971259814753781636986470325476647558659373206291635324768958432433509"
    "563104347017837885763365758",
    "1985150602287291935568054521177171638300868978215655730859378665066344726373823718423869"
    "104263333984641494340347905",
    "9275536654923324557472019657760378807577401934535929700250279787939768770026755649809492"
    "89727957565575433344219582",
    "3284950120787447527021651154232749836311526699432807747366843303661566424019671125328694"
    "916562846460813145647040459",
    "3218306808275776807419693666072599084905639169987324420818366627509865827220976650759812"
    "930713956208246000627242485",
    "3945290144137392347873751586031392152201459997902585432454016489727689337013866944382877"
    "542451368688652560743518350",
    "3505020872425170466568261366418107787485649574216477007429328593907934456720034754142706"
    "045279478244784882964969099",
    "2820173869801000183955769496344276101575675010174203082588560105436284422640780128231242"
    "184109173767085197647834267",
    "1152541093585973172499551859168528642628429504007613830168996825879806250289422935864437"
    "193085184388469171892221011",
    "5441309066535459435331725681533579305219730711169001160987271659984050780870699198940360"
    "5000342095250665180513594",
    "3343285764332210309442703216841128605678475246673133285314301861643378387001264758819444"
    "434632415207857557469906035",
    "2621804038517651054932183676195072057407646691717463481535450901054873982615547247502592"
    "83942935411519021270362742",
    "3777303780170739988308854254585940898119682705621212814969008224084499326863117961704608"
    "873229314936725151172212883",
    "3006923877346016048391409264528383002939756547318806158402407618139299715778986391175418"
    "348881376388499383266389442",
    "1307513151230758506579817970515482216448699470263630520204374492458260823057506418477833"
    "081567163581258564509876945",
};

#include "ff/bls381_fp2_params.h"
#include "test_pairing.c"

/* The published snarkjs BLS12-381 proof verifies (FORMATS.md section 6):
 * e(-A, B)·e(alpha, beta)·e(vk_x, gamma)·e(C, delta) = 1 with
 * vk_x = IC0 + 33·IC1; with the public input changed to 34 it does not. */
static void bls381_groth16_snarkjs_proof(void **state)
{
    (void)state;
    const char *const *k = bls381_groth16_kat;
    bls381_g1_affine_t ic0, ic1, ps[4];
    bls381_g2_affine_t qs[4];
    test_bls381_fp_from_dec_(&ic0.x, k[0]);
    test_bls381_fp_from_dec_(&ic0.y, k[1]);
    test_bls381_fp_from_dec_(&ic1.x, k[2]);
    test_bls381_fp_from_dec_(&ic1.y, k[3]);
    test_bls381_fp2_from_dec_(&qs[2].x, k[4], k[5]);
    test_bls381_fp2_from_dec_(&qs[2].y, k[6], k[7]);
    test_bls381_fp2_from_dec_(&qs[3].x, k[8], k[9]);
    test_bls381_fp2_from_dec_(&qs[3].y, k[10], k[11]);
    test_bls381_fp_from_dec_(&ps[0].x, k[12]);
    test_bls381_fp_from_dec_(&ps[0].y, k[13]);
    bls381_g1_affine_neg(&ps[0], &ps[0]);
    test_bls381_fp2_from_dec_(&qs[0].x, k[14], k[15]);
    test_bls381_fp2_from_dec_(&qs[0].y, k[16], k[17]);
    test_bls381_fp_from_dec_(&ps[3].x, k[18]);
    test_bls381_fp_from_dec_(&ps[3].y, k[19]);
    test_bls381_fp_from_dec_(&ps[1].x, bls381_vk_alpha[0]);
    test_bls381_fp_from_dec_(&ps[1].y, bls381_vk_alpha[1]);
    test_bls381_fp2_from_dec_(&qs[1].x, bls381_vk_beta[0], bls381_vk_beta[1]);
    test_bls381_fp2_from_dec_(&qs[1].y, bls381_vk_beta[2], bls381_vk_beta[3]);
    for (int pub = 33; pub <= 34; pub++) {
        uint64_t s[4] = {(uint64_t)pub};
        bls381_g1_jac_t j;
        bls381_g1_jac_from_affine(&j, &ic1);
        bls381_g1_jac_mul_vartime(&j, &j, s);
        bls381_g1_jac_add_affine_vartime(&j, &j, &ic0);
        bls381_g1_jac_to_affine(&ps[2], &j);
        assert_int_equal(bls381_pairing_product_is_one(ps, qs, 4, NULL), pub == 33);
    }
}

static const struct CMUnitTest bls381_tests[] = {TP_TESTS,
                                                 cmocka_unit_test(bls381_groth16_snarkjs_proof)};
#undef TP_TESTS
#undef TP_G1X
#undef TP_G1Y
#undef TP_G2X0
#undef TP_G2X1
#undef TP_G2Y0
#undef TP_G2Y1
#undef TP_FINAL_EXP_M
#undef TP_VK_ALPHA
#undef TP_VK_BETA
#undef TP_VK_ALPHABETA
#undef TP
#undef G1
#undef G2
#undef FR
#undef TP_LIMBS
#undef TP_STR_
#undef TP_STR
#undef TP_UNIT
#include "pairing/pairing_tmpl_undef.h"

#include "ff/tower_undef.h"

/* ---- BN254 ------------------------------------------------------------- */

/* The generators as in EIP-197 and snarkjs (G2 = vk_gamma_2 of every snarkjs
 * bn128 key). alpha_1 and beta_2 come from the Hermez powers-of-tau ceremony
 * file that snarkjs copies into every key built on it, with the
 * vk_alphabeta_12 snarkjs prints for them (published in many
 * verification_key.json files). */
#define TP_G1X          "1"
#define TP_G1Y          "2"
#define TP_G2X0         "10857046999023057135944570762232829481370756359578518086990519993285655852781"
#define TP_G2X1         "11559732032986387107991004021392285783925812861821192530917403151452391805634"
#define TP_G2Y0         "8495653923123431417604973247489272438418190587263600148770280649306958101930"
#define TP_G2Y1         "4082367875863433681332203403145435568316851327593401208105741076214120093531"
static const char *const bn254_vk_alpha[2] = {
    "20491192805390485299153009773594534940189261866228447918068658471970481763042",
    "9383485363053290200918347156157836566562967994039712273449902621266178545958",
};
static const char *const bn254_vk_beta[4] = {
    "6375614351688725206403948262868962793625744043794305715222011528459656738731",
    "4252822878758300859123897981450591353533073413197771768651442665752259397132",
    "10505242626370262277552901082094356697409835680220590971873171140371331206856",
    "21847035105528745403288232691147584728191162732299865338377159692350059136679",
};
static const char *const bn254_vk_alphabeta[12] = {
    "2029413683389138792403550203267699914886160938906632433982220835551125967885",
    "21072700047562757817161031222997517981543347628379360635925549008442030252106",
    "5940354580057074848093997050200682056184807770593307860589430076672439820312",
    "12156638873931618554171829126792193045421052652279363021382169897324752428276",
    "7898200236362823042373859371574133993780991612861777490112507062703164551277",
    "7074218545237549455313236346927434013100842096812539264420499035217050630853",
    "7077479683546002997211712695946002074877511277312570035766170199895071832130",
    "10093483419865920389913245021038182291233451549023025229112148274109565435465",
    "4595479056700221319381530156280926371456704509942304414423590385166031118820",
    "19831328484489333784475432780421641293929726139240675179672856274388269393268",
    "11934129596455521040620786944827826205713621633706285934057045369193958244500",
    "8037395052364110730298837004334506829870972346962140206007064471173334027475",
};
/* 2x(6x^2 + 3x + 1), x = 4965661367192848881 */
#define TP_FINAL_EXP_M  "1469306990098747947464455738335385361638823152381947992820"
#define TP_VK_ALPHA     bn254_vk_alpha
#define TP_VK_BETA      bn254_vk_beta
#define TP_VK_ALPHABETA bn254_vk_alphabeta

#include "ff/bn254_fp2_params.h"
#include "test_pairing.c"
static const struct CMUnitTest bn254_tests[] = {TP_TESTS};
#undef TP_TESTS
#undef TP_G1X
#undef TP_G1Y
#undef TP_G2X0
#undef TP_G2X1
#undef TP_G2Y0
#undef TP_G2Y1
#undef TP_FINAL_EXP_M
#undef TP_VK_ALPHA
#undef TP_VK_BETA
#undef TP_VK_ALPHABETA
#undef TP
#undef G1
#undef G2
#undef FR
#undef TP_LIMBS
#undef TP_STR_
#undef TP_STR
#undef TP_UNIT
#include "pairing/pairing_tmpl_undef.h"

#include "ff/tower_undef.h"

int main(void)
{
    test_seed_init("test_pairing");
    int fails = cmocka_run_group_tests_name("bls381 pairing", bls381_tests, NULL, NULL);
    fails += cmocka_run_group_tests_name("bn254 pairing", bn254_tests, NULL, NULL);
    return fails;
}

#endif
