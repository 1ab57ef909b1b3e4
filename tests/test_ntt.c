/*
 * NTTs over both scalar fields (src/ntt/): the transforms against their
 * O(n²) definition, round trips, cosets, thread-count independence, the
 * roots of FORMATS.md §1, and the two Groth16 H chains on satisfied and
 * unsatisfied random instances. The per-curve tests are one template,
 * test_ntt_tmpl.h, instantiated below for BLS12-381 and BN254.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ntt/bls381_ntt.h"
#include "ntt/bn254_ntt.h"
#include "util/cpu.h"
#include "test_util.h"
#include "util/pool.h"

/* The caller alone, then pools of 1, 2 and 7 threads (set up in main). */
enum { NPOOLS = 4 };
static pool_t *pools[NPOOLS];

/* 64 hex digits, most significant first → 32 bytes big-endian. */
static void hex_to_bytes32(unsigned char out[32], const char *hex)
{
    assert_int_equal(strlen(hex), 64);
    for (int i = 0; i < 32; i++) {
        unsigned v = 0;
        for (int j = 0; j < 2; j++) {
            char ch = hex[2 * i + j];
            v = v * 16 + (unsigned)(ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
        }
        out[i] = (unsigned char)v;
    }
}

#define TN_CURVE bls381
#define TN_FIELD bls381_fr
#define TN_W16   "6709c6cd56aa725b0409ee987a02402c0caba63a29c01b06137b458acfc35f7a"
#define TN_W17   "05deb333f8727901ebe905bd4fb9ac5c77d85a937ff858ec10251f7d8831e03e"
#include "test_ntt_tmpl.h"

#define TN_CURVE bn254
#define TN_FIELD bn254_fr
#define TN_W16   "00eeb2cb5981ed45649abebde081dcff16c8601de4347e7dd1628ba2daac43b7"
#define TN_W17   "1bf82deba7d74902c3708cc6e70e61f30512eca95655210e276e5858ce8f58e5"
#include "test_ntt_tmpl.h"

/* bellperson's roots (FORMATS.md §1): blstrs ROOT_OF_UNITY = 7^((r-1)/2^32),
 * its Montgomery limbs, and the ω of a 2^27 domain. */
static void test_bls381_bellperson_roots(void **state)
{
    (void)state;
    bls381_fr_t root, w27, c;
    bls381_fr_root_of_unity(&root, 32, 7);
    c = test_bls381_from_hex("16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
    assert_true(bls381_fr_equal(&root, &c));
    const uint64_t mont[4] = {0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL, 0x0af53ae352a31e64ULL,
                              0x5bf3adda19e9b27bULL};
    assert_memory_equal(root.l, mont, sizeof(mont));
    bls381_fr_root_of_unity(&w27, 27, 7);
    c = test_bls381_from_hex("23397a9300f8f98bece8ea224f31d25db94f1101b1d7a628e2d0a7869f0319ed");
    assert_true(bls381_fr_equal(&w27, &c));
    for (int i = 0; i < 32 - 27; i++)
        bls381_fr_sqr(&root, &root);
    assert_true(bls381_fr_equal(&root, &w27));
}

static int setup_pools(void **state)
{
    (void)state;
    const unsigned threads[NPOOLS] = {0, 1, 2, 7};
    for (int i = 1; i < NPOOLS; i++) {
        pools[i] = pool_new(threads[i], NULL);
        if (!pools[i])
            return -1;
    }
    return 0;
}

static int teardown_pools(void **state)
{
    (void)state;
    for (int i = 0; i < NPOOLS; i++)
        pool_free(pools[i]);
    return 0;
}

#define CURVE_TESTS(c)                                                                             \
    cmocka_unit_test(test_##c##_roots), cmocka_unit_test(test_##c##_forward_naive),                \
        cmocka_unit_test(test_##c##_roundtrip), cmocka_unit_test(test_##c##_coset),                \
        cmocka_unit_test(test_##c##_threads), cmocka_unit_test(test_##c##_h_snarkjs),              \
        cmocka_unit_test(test_##c##_h_bellperson)

int main(void)
{
    test_seed_init("test_ntt");
    const struct CMUnitTest tests[] = {
        CURVE_TESTS(bls381),
        CURVE_TESTS(bn254),
        cmocka_unit_test(test_bls381_bellperson_roots),
    };
    return cmocka_run_group_tests(tests, setup_pools, teardown_pools);
}
