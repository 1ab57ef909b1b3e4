/*
 * The below-r check of scalar arrays (ff/fr_scan.h) on pools of 1, 2 and
 * 7 threads: the first value not below r is found whichever chunk holds
 * it and however many later ones are bad too; r itself is not below r, r - 1
 * is; empty and all-good arrays give n.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "ff/fr_scan.h"
#include "util/pool.h"

enum { N = 300007 };

/* Small random values below 2^64, as most of an assignment's are. */
static uint64_t (*values(uint64_t n))[4]
{
    uint64_t(*v)[4] = calloc(n, sizeof *v);
    assert_non_null(v);
    for (uint64_t i = 0; i < n; i++)
        v[i][0] = rng_next(&test_rng);
    return v;
}

static void check_pool(unsigned threads, const uint64_t r[4])
{
    pool_t *pool = pool_new(threads, NULL);
    assert_non_null(pool);
    uint64_t(*v)[4] = values(N);
    assert_int_equal(fr_scan((const uint64_t(*)[4])v, 0, r, pool), 0);
    assert_int_equal(fr_scan((const uint64_t(*)[4])v, N, r, pool), N);

    /* r - 1 is below r; r is not, nor is a value with a top limb above r's. */
    memcpy(v[N - 1], r, sizeof v[0]);
    v[N - 1][0] -= 1; /* r's lowest limb is odd: no borrow */
    assert_int_equal(fr_scan((const uint64_t(*)[4])v, N, r, pool), N);
    uint64_t first = 1 + rng_next(&test_rng) % (N - 2);
    memcpy(v[first], r, sizeof v[0]);
    memset(v[N - 1], 0xff, sizeof v[0]);
    uint64_t later = first + (N - 1 - first) / 2;
    if (later > first)
        v[later][3] = r[3] + 1;
    assert_int_equal(fr_scan((const uint64_t(*)[4])v, N, r, pool), first);
    free(v);
    pool_free(pool);
}

static void test_scan(void **state)
{
    (void)state;
    const unsigned threads[] = {1, 2, 7};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        check_pool(threads[i], bls381_fr_MODULUS);
        check_pool(threads[i], bn254_fr_MODULUS);
    }
}

int main(void)
{
    test_seed_init("test_fr_scan");
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_scan)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
