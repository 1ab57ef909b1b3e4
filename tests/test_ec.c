/*
 * Curve arithmetic of the four groups: group laws in every form against an
 * affine reference, batch normalisation, scalar multiplication (both
 * algorithms, edge scalars), on-curve and subgroup tests, and the published
 * generators. One template (test_ec_arith.h) instantiated per group.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "test_util.h"

/* Generators: BLS12-381 from the IETF draft-irtf-cfrg-pairing-friendly-curves
 * (section 4.2.1) and zkcrypto bls12_381; BN254 from EIP-197. */
#define TG bls381_g1
#define TB bls381_fp
#define TF bls381_fp
#define TR bls381_fr
#define TGEN                                                                                       \
    {                                                                                              \
        "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af0" \
        "0adb22c6bb",                                                                              \
            "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40c" \
            "aa232946c5e7e1"                                                                       \
    }
#include "test_ec_arith.h"
#include "test_ec_glv.h"
#include "test_ec_undef.h"
#undef TGEN

#define TG bls381_g2
#define TB bls381_fp
#define TF bls381_fp2
#define TR bls381_fr
#define TGEN                                                                                       \
    {                                                                                              \
        "0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056" \
        "c8c121bdb8",                                                                              \
            "0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5" \
            "ac7d055d042b7e",                                                                      \
            "0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e1" \
            "93548608b82801",                                                                      \
            "0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aa" \
            "a9075ff05f79be"                                                                       \
    }
#include "test_ec_arith.h"
#include "test_ec_undef.h"
#undef TGEN

#define TG bn254_g1
#define TB bn254_fp
#define TF bn254_fp
#define TR bn254_fr
#define TGEN                                                                                       \
    {                                                                                              \
        "1", "2"                                                                                   \
    }
#define TCOFACTOR_ONE
#include "test_ec_arith.h"
#include "test_ec_glv.h"
#include "test_ec_undef.h"
#undef TGEN
#undef TCOFACTOR_ONE

#define TG bn254_g2
#define TB bn254_fp
#define TF bn254_fp2
#define TR bn254_fr
#define TGEN                                                                                       \
    {                                                                                              \
        "10857046999023057135944570762232829481370756359578518086990519993285655852781",           \
            "11559732032986387107991004021392285783925812861821192530917403151452391805634",       \
            "8495653923123431417604973247489272438418190587263600148770280649306958101930",        \
            "4082367875863433681332203403145435568316851327593401208105741076214120093531"         \
    }
#include "test_ec_arith.h"
#include "test_ec_glv.h"
#include "test_ec_undef.h"
#undef TGEN

/* The wNAF recoding on its own: digits rebuild k, are odd and bounded, and
 * no two non-zero digits are closer than w. */
static void test_wnaf(void **state)
{
    (void)state;
    for (int it = 0; it < test_iters(200); it++) {
        uint64_t k[4];
        for (int i = 0; i < 4; i++)
            k[i] = rng_next(&test_rng);
        if (it == 0)
            k[0] = k[1] = k[2] = k[3] = ~0ULL;
        unsigned w = 2 + (unsigned)(it % 6);
        int d[EC_WNAF_MAX];
        size_t n = ec_wnaf_vartime(d, k, w);
        mpz_t sum, want, term;
        mpz_inits(sum, want, term, NULL);
        size_t last = (size_t)-1;
        for (size_t i = 0; i < n; i++) {
            if (!d[i])
                continue;
            assert_true(d[i] & 1);
            assert_true(d[i] < (1 << (w - 1)) && d[i] > -(1 << (w - 1)));
            assert_true(last == (size_t)-1 || i - last >= w);
            last = i;
            mpz_set_si(term, d[i]);
            mpz_mul_2exp(term, term, i);
            mpz_add(sum, sum, term);
        }
        test_mpz_from_limbs(want, k, 4);
        assert_int_equal(mpz_cmp(sum, want), 0);
        mpz_clears(sum, want, term, NULL);
    }
}

int main(void)
{
    test_seed_init("test_ec");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnaf),          TEST_EC_ARITH_LIST(bls381_g1),
        cmocka_unit_test(test_glv_bls381_g1), TEST_EC_ARITH_LIST(bls381_g2),
        TEST_EC_ARITH_LIST(bn254_g1),         cmocka_unit_test(test_glv_bn254_g1),
        TEST_EC_ARITH_LIST(bn254_g2),         cmocka_unit_test(test_glv_bn254_g2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
