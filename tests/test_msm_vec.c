/*
 * The eight-lane batch additions of the MSMs (src/msm/msm_vec.h), IFMA
 * (G1 and G2 of both curves) and AVX2 (BN254's G1 and G2), against the
 * scalar field's formulas:
 *  - field level: random elements and the edge limbs 0, 1, p - 1 as num,
 *    den, x1, y1 and x2, batch sizes 1 .. 70 and 1024 (lanes and chains
 *    left over), the same bytes as λ = num/den, x3 = λ^2 - x1 - x2,
 *    y3 = λ(x1 - x3) - y1 computed one by one;
 *  - group level: buckets b_e + q_e (and 2·b_e), G1 and G2, prepared as the MSM
 *    prepares them equal the group law's sums;
 *  - the MSM itself gives the same bytes with the kernel and without it.
 * A kernel's tests are skipped, with a message, on a processor without
 * its instructions.
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
#include "msm/msm_vec.h"
#include "test_util.h"
#include "util/cpu.h"
#include "util/pool.h"

static pool_t *pool2;

#if CUZK_MSM_HAVE_IFMA

#define TI_STR2(x) #x
#define TI_STR(x)  TI_STR2(x)

#define TI_GROUP bn254_g1
#define TI_FQ    bn254_fp
#define TI_FQS   bn254_fps
#define TI_FR    bn254_fr
#define TI_FPB   bn254_fp
#define TI_FP2   0
#define TI_ISA   ifma
#include "test_msm_vec_tmpl.h"

#define TI_GROUP bn254_g2
#define TI_FQ    bn254_fp2
#define TI_FQS   bn254_fp2s
#define TI_FR    bn254_fr
#define TI_FPB   bn254_fp
#define TI_FP2   1
#define TI_ISA   ifma
#include "test_msm_vec_tmpl.h"

#define TI_GROUP bls381_g1
#define TI_FQ    bls381_fp
#define TI_FQS   bls381_fps
#define TI_FR    bls381_fr
#define TI_FPB   bls381_fp
#define TI_FP2   0
#define TI_ISA   ifma
#include "test_msm_vec_tmpl.h"

#define TI_GROUP bls381_g2
#define TI_FQ    bls381_fp2
#define TI_FQS   bls381_fp2s
#define TI_FR    bls381_fr
#define TI_FPB   bls381_fp
#define TI_FP2   1
#define TI_ISA   ifma
#include "test_msm_vec_tmpl.h"

#define TI_GROUP bn254_g1
#define TI_FQ    bn254_fp
#define TI_FQS   bn254_fps
#define TI_FR    bn254_fr
#define TI_FPB   bn254_fp
#define TI_FP2   0
#define TI_ISA   avx2
#include "test_msm_vec_tmpl.h"

#define TI_GROUP bn254_g2
#define TI_FQ    bn254_fp2
#define TI_FQS   bn254_fp2s
#define TI_FR    bn254_fr
#define TI_FPB   bn254_fp
#define TI_FP2   1
#define TI_ISA   avx2
#include "test_msm_vec_tmpl.h"

/* Whether the processor lacks what a kernel needs; says so when it does. */
static bool missing(bool has, const char *what)
{
    if (has)
        return false;
    printf("test_msm_vec: SKIPPED: this processor has no %s\n", what);
    return true;
}

/* A test that runs fn, or skips when the processor cannot run the kernel. */
#define TI_TEST(name, fn, has, what)                                                               \
    static void name(void **state)                                                                 \
    {                                                                                              \
        if (missing(has, what))                                                                    \
            skip();                                                                                \
        fn(state);                                                                                 \
    }
#define TI_IFMA(name, fn) TI_TEST(name, fn, cpu_supports_ifma(), "AVX-512 IFMA")
#define TI_AVX2(name, fn) TI_TEST(name, fn, cpu_supports_avx2(), "AVX2")

TI_IFMA(test_field_bn254_g1_ifma, bn254_g1_ti_field_ifma)
TI_IFMA(test_field_bls381_g1_ifma, bls381_g1_ti_field_ifma)
TI_IFMA(test_points_bn254_g1_ifma, bn254_g1_ti_points_ifma)
TI_IFMA(test_points_bls381_g1_ifma, bls381_g1_ti_points_ifma)
TI_IFMA(test_msm_bn254_g1_ifma, bn254_g1_ti_msm_ifma)
TI_IFMA(test_msm_bls381_g1_ifma, bls381_g1_ti_msm_ifma)
TI_IFMA(test_field_bn254_g2_ifma, bn254_g2_ti_field_ifma)
TI_IFMA(test_field_bls381_g2_ifma, bls381_g2_ti_field_ifma)
TI_IFMA(test_points_bn254_g2_ifma, bn254_g2_ti_points_ifma)
TI_IFMA(test_points_bls381_g2_ifma, bls381_g2_ti_points_ifma)
TI_IFMA(test_msm_bn254_g2_ifma, bn254_g2_ti_msm_ifma)
TI_IFMA(test_msm_bls381_g2_ifma, bls381_g2_ti_msm_ifma)
TI_AVX2(test_field_bn254_g1_avx2, bn254_g1_ti_field_avx2)
TI_AVX2(test_points_bn254_g1_avx2, bn254_g1_ti_points_avx2)
TI_AVX2(test_msm_bn254_g1_avx2, bn254_g1_ti_msm_avx2)
TI_AVX2(test_field_bn254_g2_avx2, bn254_g2_ti_field_avx2)
TI_AVX2(test_points_bn254_g2_avx2, bn254_g2_ti_points_avx2)
TI_AVX2(test_msm_bn254_g2_avx2, bn254_g2_ti_msm_avx2)

int main(void)
{
    test_seed_init("test_msm_vec");
    cuzk_status_t st;
    pool2 = pool_new(2, &st);
    if (!pool2)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_field_bn254_g1_ifma),  cmocka_unit_test(test_field_bls381_g1_ifma),
        cmocka_unit_test(test_points_bn254_g1_ifma), cmocka_unit_test(test_points_bls381_g1_ifma),
        cmocka_unit_test(test_msm_bn254_g1_ifma),    cmocka_unit_test(test_msm_bls381_g1_ifma),
        cmocka_unit_test(test_field_bn254_g2_ifma),  cmocka_unit_test(test_field_bls381_g2_ifma),
        cmocka_unit_test(test_points_bn254_g2_ifma), cmocka_unit_test(test_points_bls381_g2_ifma),
        cmocka_unit_test(test_msm_bn254_g2_ifma),    cmocka_unit_test(test_msm_bls381_g2_ifma),
        cmocka_unit_test(test_field_bn254_g1_avx2),  cmocka_unit_test(test_points_bn254_g1_avx2),
        cmocka_unit_test(test_msm_bn254_g1_avx2),    cmocka_unit_test(test_field_bn254_g2_avx2),
        cmocka_unit_test(test_points_bn254_g2_avx2), cmocka_unit_test(test_msm_bn254_g2_avx2),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    pool_free(pool2);
    return rc;
}

#else

int main(void)
{
    printf("test_msm_vec: SKIPPED: not an x86-64 build, no vector kernels\n");
    return 0;
}

#endif
