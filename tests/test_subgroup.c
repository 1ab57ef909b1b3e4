/*
 * The subgroup tests (NAME_affine_is_in_subgroup_vartime, ec_subgroup_impl.h)
 * against their definition, [r]P = O, for the four groups:
 *  - random points of the subgroup pass, and so does infinity;
 *  - for every prime l below 2^32 that divides the cofactor h = #E/r, a
 *    point T of order exactly l ([h/l]([r]Q) for a random curve point Q)
 *    fails, and so does S + T for a random subgroup point S: the small
 *    factors a random linear combination would miss with probability 1/l
 *    (3 and 11 on BLS12-381 G1) are each caught;
 *  - a point whose order is the cofactor's large remaining part fails;
 *  - random points of the whole curve get the definition's answer;
 *  - the batch check (NAME_msm_subgroup_check) passes sets of subgroup
 *    points and fails them with one point of each small order added, or
 *    two whose cofactor parts cancel in a plain sum; its bisection
 *    (NAME_msm_subgroup_first_outside) finds the lowest such point.
 * The cofactors and their small factors are those scripts/
 * check_subgroup_tests.py computes from the curve parameters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "msm/bls381_msm.h"
#include "msm/bn254_msm.h"
#include "test_util.h"
#include "util/pool.h"

/* Per group: the cofactor h (hex) and its prime factors below 2^32. */
#define BLS381_G1_COFACTOR "396c8c005555e1568c00aaab0000aaab" /* (z - 1)^2 / 3 */
#define BLS381_G2_COFACTOR                                                                         \
    "5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef21537e293a669" \
    "1ae1616ec6e786f0c70cf1c38e31c7238e5"
#define BN254_G2_COFACTOR                                                                          \
    "30644e72e131a029b85045b68181585e06ceecda572a2489345f2299c0f9fa8d" /* 2p - r */

static const unsigned long bls381_g1_small[] = {3, 11, 10177, 859267, 52437899};
static const unsigned long bls381_g2_small[] = {13, 23, 2713, 11953, 262069};
static const unsigned long bn254_g2_small[] = {10069, 5864401};

/* How many random curve points a test may draw to find one whose
 * cofactor part has the wanted order: each fails with probability about
 * 1/l, at most 1/3. */
enum { FIND_TRIES = 64 };

#define TG        bls381_g1
#define TB        bls381_fp
#define TF        bls381_fp
#define TR        bls381_fr
#define TCOFACTOR BLS381_G1_COFACTOR
#define TSMALL    bls381_g1_small
#include "test_subgroup_tmpl.h"
#include "test_ec_undef.h"
#undef TCOFACTOR
#undef TSMALL

#define TG        bls381_g2
#define TB        bls381_fp
#define TF        bls381_fp2
#define TR        bls381_fr
#define TCOFACTOR BLS381_G2_COFACTOR
#define TSMALL    bls381_g2_small
#include "test_subgroup_tmpl.h"
#include "test_ec_undef.h"
#undef TCOFACTOR
#undef TSMALL

#define TG        bn254_g2
#define TB        bn254_fp
#define TF        bn254_fp2
#define TR        bn254_fr
#define TCOFACTOR BN254_G2_COFACTOR
#define TSMALL    bn254_g2_small
#include "test_subgroup_tmpl.h"
#include "test_ec_undef.h"
#undef TCOFACTOR
#undef TSMALL

/* BN254 G1 has prime order: every point of the curve is in the group. */
#define TG bn254_g1
#define TB bn254_fp
#define TF bn254_fp
#define TR bn254_fr
#include "test_ec_common.h"
static void test_prime_order_bn254_g1(void **state)
{
    (void)state;
    GA p;
    for (int it = 0; it < test_iters(16); it++) {
        TN(random_curve_point)(&p);
        assert_true(TN(order_divides_r)(&p));
        assert_true(G(affine_is_in_subgroup_vartime)(&p));
        TN(random_point)(&p);
        assert_true(G(affine_is_in_subgroup_vartime)(&p));
    }
}
#include "test_ec_undef.h"

int main(void)
{
    test_seed_init("test_subgroup");
    const struct CMUnitTest tests[] = {
        TEST_SUBGROUP_LIST(bls381_g1),
        TEST_SUBGROUP_LIST(bls381_g2),
        TEST_SUBGROUP_LIST(bn254_g2),
        cmocka_unit_test(test_prime_order_bn254_g1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
