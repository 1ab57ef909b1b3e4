/*
 * The eight-lane IFMA batch additions of the MSMs (G1 and G2) (src/msm/msm_ifma.h)
 * against the scalar field's formulas, for both curves:
 *  - field level: random elements and the edge limbs 0, 1, p - 1 as num,
 *    den, x1, y1 and x2, batch sizes 1 .. 70 and 1024 (lanes and chains
 *    left over), the same bytes as λ = num/den, x3 = λ^2 - x1 - x2,
 *    y3 = λ(x1 - x3) - y1 computed one by one;
 *  - group level: buckets b_e + q_e (and 2·b_e), G1 and G2, prepared as the MSM
 *    prepares them equal the group law's sums;
 *  - the MSM itself gives the same bytes with the kernel and without it.
 * Skipped, with a message, on a processor without AVX-512 IFMA.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "msm/bls381_msm.h"
#include "msm/bn254_msm.h"
#include "msm/msm_ifma.h"
#include "test_util.h"
#include "util/cpu.h"
#include "util/pool.h"

static pool_t *pool2;

#if CUZK_MSM_HAVE_IFMA

#define TI_GROUP bn254_g1
#define TI_FQ    bn254_fp
#define TI_FQS   bn254_fps
#define TI_FR    bn254_fr
#define TI_FPB   bn254_fp
#define TI_FP2   0
#include "test_msm_ifma_tmpl.h"

#define TI_GROUP bn254_g2
#define TI_FQ    bn254_fp2
#define TI_FQS   bn254_fp2s
#define TI_FR    bn254_fr
#define TI_FPB   bn254_fp
#define TI_FP2   1
#include "test_msm_ifma_tmpl.h"

#define TI_GROUP bls381_g1
#define TI_FQ    bls381_fp
#define TI_FQS   bls381_fps
#define TI_FR    bls381_fr
#define TI_FPB   bls381_fp
#define TI_FP2   0
#include "test_msm_ifma_tmpl.h"

#define TI_GROUP bls381_g2
#define TI_FQ    bls381_fp2
#define TI_FQS   bls381_fp2s
#define TI_FR    bls381_fr
#define TI_FPB   bls381_fp
#define TI_FP2   1
#include "test_msm_ifma_tmpl.h"

static bool no_ifma(void)
{
    if (cpu_supports_ifma())
        return false;
    printf("test_msm_ifma: SKIPPED: this processor has no AVX-512 IFMA\n");
    return true;
}

/* A test that runs fn, or skips when the processor has no IFMA. */
#define TI_TEST(name, fn)                                                                          \
    static void name(void **state)                                                                 \
    {                                                                                              \
        if (no_ifma())                                                                             \
            skip();                                                                                \
        fn(state);                                                                                 \
    }

TI_TEST(test_field_bn254_g1, bn254_g1_ti_field)
TI_TEST(test_field_bls381_g1, bls381_g1_ti_field)
TI_TEST(test_points_bn254_g1, bn254_g1_ti_points)
TI_TEST(test_points_bls381_g1, bls381_g1_ti_points)
TI_TEST(test_msm_bn254_g1, bn254_g1_ti_msm)
TI_TEST(test_msm_bls381_g1, bls381_g1_ti_msm)
TI_TEST(test_field_bn254_g2, bn254_g2_ti_field)
TI_TEST(test_field_bls381_g2, bls381_g2_ti_field)
TI_TEST(test_points_bn254_g2, bn254_g2_ti_points)
TI_TEST(test_points_bls381_g2, bls381_g2_ti_points)
TI_TEST(test_msm_bn254_g2, bn254_g2_ti_msm)
TI_TEST(test_msm_bls381_g2, bls381_g2_ti_msm)

int main(void)
{
    test_seed_init("test_msm_ifma");
    cuzk_status_t st;
    pool2 = pool_new(2, &st);
    if (!pool2)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_field_bn254_g1),  cmocka_unit_test(test_field_bls381_g1),
        cmocka_unit_test(test_points_bn254_g1), cmocka_unit_test(test_points_bls381_g1),
        cmocka_unit_test(test_msm_bn254_g1),    cmocka_unit_test(test_msm_bls381_g1),
        cmocka_unit_test(test_field_bn254_g2),  cmocka_unit_test(test_field_bls381_g2),
        cmocka_unit_test(test_points_bn254_g2), cmocka_unit_test(test_points_bls381_g2),
        cmocka_unit_test(test_msm_bn254_g2),    cmocka_unit_test(test_msm_bls381_g2),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    pool_free(pool2);
    return rc;
}

#else

int main(void)
{
    printf("test_msm_ifma: SKIPPED: not an x86-64 build, no IFMA kernels\n");
    return 0;
}

#endif
