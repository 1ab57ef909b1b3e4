/*
 * Shared helpers for the unit tests: the seeded random stream and GMP
 * conversions.
 *
 * Every test program calls test_seed_init() first. It takes the seed from
 * CUZK_TEST_SEED when set (to replay a failure) and from the clock otherwise,
 * and prints it, so any failing run can be repeated exactly:
 *     CUZK_TEST_SEED=1234 ./tests/test_ff
 * CUZK_TEST_ITERS scales the number of random cases (default 1 = the CI
 * amount; a larger factor for a soak run).
 */
#ifndef CUZK_TESTS_TEST_UTIL_H
#define CUZK_TESTS_TEST_UTIL_H

#include <gmp.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "util/rng.h"

static rng_t test_rng;
static uint64_t test_seed;

static inline void test_seed_init(const char *program)
{
    const char *env = getenv("CUZK_TEST_SEED");
    if (env && *env) {
        test_seed = strtoull(env, NULL, 0);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        test_seed = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec;
    }
    rng_seed(&test_rng, test_seed);
    printf("%s: seed %" PRIu64 " (replay with CUZK_TEST_SEED=%" PRIu64 ")\n", program, test_seed,
           test_seed);
    fflush(stdout);
}

/* The number of random cases for a test whose CI amount is n. */
static inline int test_iters(int n)
{
    const char *env = getenv("CUZK_TEST_ITERS");
    long k = env ? strtol(env, NULL, 0) : 1;
    return n * (int)(k > 0 ? k : 1);
}

/* z = the integer whose n 64-bit limbs (least significant first) are v. */
static inline void test_mpz_from_limbs(mpz_t z, const uint64_t *v, size_t n)
{
    mpz_import(z, n, -1, sizeof(uint64_t), 0, 0, v);
}

/* v (n limbs) = z; z must fit. */
static inline void test_mpz_to_limbs(uint64_t *v, size_t n, const mpz_t z)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        v[i] = 0;
    mpz_export(v, &count, -1, sizeof(uint64_t), 0, 0, z);
}

#endif
