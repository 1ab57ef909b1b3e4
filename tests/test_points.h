/*
 * Points for the tests of key readers. Include after <cmocka.h> and
 * test_util.h (uses test_rng).
 */
#ifndef CUZK_TESTS_TEST_POINTS_H
#define CUZK_TESTS_TEST_POINTS_H

#include <stdbool.h>

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g2.h"
#include "r1cs/r1cs_shape.h"

/* A point on the curve but outside the order-r subgroup: BLS12-381 G1 for
 * G1 (BN254 G1 has cofactor 1), the curve's own G2 for G2, written in
 * snarkjs' layout, which is also the in-memory one of a key cache. */
static inline void non_subgroup_bytes(r1cs_curve_t curve, bool g2, unsigned char *out)
{
    for (;;) {
        bool larger = rng_next(&test_rng) & 1;
        if (!g2) {
            assert_int_equal(curve, R1CS_CURVE_BLS12_381);
            bls381_fp_t x;
            bls381_g1_affine_t p;
            assert_int_equal(bls381_fp_random(&x, &test_rng), CUZK_OK);
            if (bls381_g1_affine_from_x_vartime(&p, &x, larger) &&
                !bls381_g1_affine_is_in_subgroup_vartime(&p)) {
                bls381_g1_affine_to_snarkjs(out, &p);
                return;
            }
        } else if (curve == R1CS_CURVE_BN254) {
            bn254_fp2_t x;
            bn254_g2_affine_t p;
            assert_int_equal(bn254_fp2_random(&x, &test_rng), CUZK_OK);
            if (bn254_g2_affine_from_x_vartime(&p, &x, larger) &&
                !bn254_g2_affine_is_in_subgroup_vartime(&p)) {
                bn254_g2_affine_to_snarkjs(out, &p);
                return;
            }
        } else {
            bls381_fp2_t x;
            bls381_g2_affine_t p;
            assert_int_equal(bls381_fp2_random(&x, &test_rng), CUZK_OK);
            if (bls381_g2_affine_from_x_vartime(&p, &x, larger) &&
                !bls381_g2_affine_is_in_subgroup_vartime(&p)) {
                bls381_g2_affine_to_snarkjs(out, &p);
                return;
            }
        }
    }
}

#endif
