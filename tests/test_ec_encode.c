/*
 * Point encodings of the four groups: snarkjs bytes and decimal strings on
 * all, the ZCash format on BLS12-381, with known answers and every decoder
 * rejection. One template (test_ec_encode.h) instantiated per group.
 *
 * Known answers (BLS12-381, ZCash compressed): the generators as in zkcrypto
 * bls12_381 and CosmWasm's BLS12_381_G{1,2}_GENERATOR; [2]G1 is the EIP-4844
 * KZG commitment to the constant blob 2 (c-kzg-4844 verify_kzg_proof
 * vectors); [2]G2 and [3]G1, [3]G2 appear in BLS-signature and EIP-2537
 * test suites; [k]G for k = 0x0123456789abcdef repeated are the vectors of
 * an independent implementation found by the same search. Every value here
 * was matched by our code before it was written down, never the reverse.
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
#include "ec/ec_ifma.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "test_util.h"
#include "util/cpu.h"

#define BLS_G1_X                                                                                   \
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22" \
    "c6bb"
#define BLS_G1_Y                                                                                   \
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5" \
    "e7e1"
#define BLS_G2_X0                                                                                  \
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121" \
    "bdb8"
#define BLS_G2_X1                                                                                  \
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d04" \
    "2b7e"
#define BLS_G2_Y0                                                                                  \
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b8" \
    "2801"
#define BLS_G2_Y1                                                                                  \
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f" \
    "79be"

#define TG bls381_g1
#define TF bls381_fp
#define TB bls381_fp
#define TR bls381_fr
#define TZCASH
#define TZ_GEN_COMPRESSED                                                                          \
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22" \
    "c6bb"
#define TZ_GEN_UNCOMPRESSED BLS_G1_X BLS_G1_Y
#include "test_ec_encode.h"
#include "test_ec_undef.h"
#undef TZ_GEN_COMPRESSED
#undef TZ_GEN_UNCOMPRESSED

#define TG bls381_g2
#define TF bls381_fp2
#define TB bls381_fp
#define TR bls381_fr
#define TZ_GEN_COMPRESSED                                                                          \
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d04" \
    "2b7e"                                                                                         \
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121" \
    "bdb8"
#define TZ_GEN_UNCOMPRESSED BLS_G2_X1 BLS_G2_X0 BLS_G2_Y1 BLS_G2_Y0
#include "test_ec_encode.h"
#include "test_ec_undef.h"
#undef TZ_GEN_COMPRESSED
#undef TZ_GEN_UNCOMPRESSED
#undef TZCASH

#define TG bn254_g1
#define TF bn254_fp
#define TB bn254_fp
#define TR bn254_fr
#define TCOFACTOR_ONE
#include "test_ec_encode.h"
#include "test_ec_undef.h"
#undef TCOFACTOR_ONE

#define TG bn254_g2
#define TF bn254_fp2
#define TB bn254_fp
#define TR bn254_fr
#include "test_ec_encode.h"
#include "test_ec_undef.h"

static const uint64_t kat_k[4] = {0x0123456789abcdefULL, 0x0123456789abcdefULL,
                                  0x0123456789abcdefULL, 0x0123456789abcdefULL};

/* Published compressed encodings of [k]G: both multiplications must give
 * them, and the decoder must give back the same point. */
#define KAT_MULTIPLE(G, k, hex)                                                                    \
    do {                                                                                           \
        G##_affine_t g_, a_, d_;                                                                   \
        G##_jac_t j_, v_;                                                                          \
        unsigned char c_[G##_COMPRESSED_BYTES], w_[G##_COMPRESSED_BYTES];                          \
        G##_generator(&g_);                                                                        \
        G##_jac_from_affine(&j_, &g_);                                                             \
        G##_jac_mul(&v_, &j_, k);                                                                  \
        G##_jac_mul_vartime(&j_, &j_, k);                                                          \
        assert_true(G##_jac_equal(&j_, &v_));                                                      \
        G##_jac_to_affine(&a_, &j_);                                                               \
        G##_affine_to_compressed(c_, &a_);                                                         \
        hex_##G(w_, sizeof(w_), hex);                                                              \
        assert_memory_equal(c_, w_, sizeof(w_));                                                   \
        assert_int_equal(G##_affine_from_compressed(&d_, w_, sizeof(w_), 0), CUZK_OK);             \
        assert_true(G##_affine_equal(&d_, &a_));                                                   \
    } while (0)

static void test_zcash_multiples(void **state)
{
    (void)state;
    const uint64_t two[4] = {2, 0, 0, 0}, three[4] = {3, 0, 0, 0};
    KAT_MULTIPLE(bls381_g1, two,
                 "a572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c"
                 "39a8c5529bf0f4e");
    KAT_MULTIPLE(bls381_g1, three,
                 "89ece308f9d1f0131765212deca99697b112d61f9be9a5f1f3780a51335b3ff981747a0b2ca2179b9"
                 "6d2c0c9024e5224");
    KAT_MULTIPLE(bls381_g1, kat_k,
                 "86b50179774296419b7e8375118823ddb06940d9a28ea045ab418c7ecbe6da84d416cb55406eec639"
                 "3db97ac26e38bd4");
    KAT_MULTIPLE(bls381_g2, two,
                 "aa4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6"
                 "178288c47c33577"
                 "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c"
                 "952aacab827a053");
    KAT_MULTIPLE(bls381_g2, three,
                 "89380275bbc8e5dcea7dc4dd7e0550ff2ac480905396eda55062650f8d251c96eb480673937cc6d9d"
                 "6a44aaa56ca66dc"
                 "122915c824a0857e2ee414a3dccb23ae691ae54329781315a0c75df1c04d6d7a50a030fc866f09d51"
                 "6020ef82324afae");
    KAT_MULTIPLE(bls381_g2, kat_k,
                 "afc7ac61f71e90fc3f8663602fed1d3602fab2b3248ef8c5cbde7cc6d6ae491f4e88482ad45105122"
                 "4d97b96c60c48a4"
                 "0ae3f4bcb510f27a4e8a0815b98be6db7a609998618c80d3e20cc30330273313298e134f5bcd27441"
                 "790472b8b1a62b4");
}

#define TEST_EC_ENCODE_LIST(g)                                                                     \
    cmocka_unit_test(test_snarkjs_##g), cmocka_unit_test(test_snarkjs_scan_##g),                   \
        cmocka_unit_test(test_dec_##g)

int main(void)
{
    test_seed_init("test_ec_encode");
    const struct CMUnitTest tests[] = {
        TEST_EC_ENCODE_LIST(bls381_g1),         cmocka_unit_test(test_zcash_bls381_g1),
        TEST_EC_ENCODE_LIST(bls381_g2),         cmocka_unit_test(test_zcash_bls381_g2),
        TEST_EC_ENCODE_LIST(bn254_g1),          TEST_EC_ENCODE_LIST(bn254_g2),
        cmocka_unit_test(test_zcash_multiples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
