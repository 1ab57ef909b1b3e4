/*
 * Multi-scalar multiplication (src/msm/): the signed-digit recoding against
 * GMP, the window plan, and for G1 and G2 of both curves the MSM against the
 * naive Σ k_i·P_i (sizes 0, 1, 2, 3, non-powers of two up to 2^10; scalars
 * 0, 1, r - 1, random, all zero, all one, porep-like; bases at infinity,
 * repeated and negated), the same bytes for every pool and window, the
 * canonical-scalar variant, the classification and the Horner step that
 * finishes the GPU's window sums. The per-group tests are one template,
 * test_msm_tmpl.h.
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

#include "msm/bls381_msm.h"
#include "msm/bn254_msm.h"
#include "msm/msm.h"
#include "test_util.h"
#include "util/pool.h"

/* The caller alone, then pools of 1, 2 and 3 threads (set up in main). */
enum { NPOOLS = 4 };
static pool_t *pools[NPOOLS];

/* The kinds of scalar vectors the group tests draw (test_msm_tmpl.h). */
enum { TM_RANDOM, TM_SPECIAL, TM_ZEROS, TM_ONES, TM_POREP };

static int setup_pools(void **state)
{
    (void)state;
    static const unsigned threads[NPOOLS] = {0, 1, 2, 3};
    for (int i = 1; i < NPOOLS; i++) {
        cuzk_status_t st;
        pools[i] = pool_new(threads[i], &st);
        if (!pools[i] || st != CUZK_OK)
            return -1;
    }
    return 0;
}

static int teardown_pools(void **state)
{
    (void)state;
    for (int i = 1; i < NPOOLS; i++)
        pool_free(pools[i]);
    return 0;
}

/* Σ d_w 2^(wc) = k with every digit in [-2^(c-1), 2^(c-1)], for random
 * scalars of every length and every window, and the extreme 2^256 - 1; the
 * top window's digit, of the r = bits - w·c bits left, in [0, 2^r] when
 * r < c - 1 (the MSM fills only the buckets it reaches). */
static void test_digits(void **state)
{
    (void)state;
    mpz_t k, sum, term;
    mpz_inits(k, sum, term, NULL);
    for (int it = 0; it < test_iters(200); it++) {
        uint64_t v[4];
        for (int l = 0; l < 4; l++)
            v[l] = rng_next(&test_rng);
        unsigned bits = 1 + (unsigned)(rng_next(&test_rng) % 256);
        if (it == 0)
            bits = 256;
        for (unsigned l = 0; l < 4; l++) {
            if (bits <= 64 * l)
                v[l] = 0;
            else if (bits < 64 * (l + 1))
                v[l] &= ((uint64_t)1 << (bits - 64 * l)) - 1;
        }
        if (it == 0)
            v[0] = v[1] = v[2] = v[3] = ~(uint64_t)0;
        test_mpz_from_limbs(k, v, 4);
        for (unsigned c = 1; c <= CUZK_MSM_WINDOW_MAX; c++) {
            mpz_set_ui(sum, 0);
            for (unsigned w = 0; w < bits / c + 1; w++) {
                int d = msm_scalar_digit(v, w, c);
                assert_true(d >= -(1 << (c - 1)) && d <= (1 << (c - 1)));
                mpz_set_si(term, d);
                mpz_mul_2exp(term, term, w * c);
                mpz_add(sum, sum, term);
            }
            if (mpz_cmp(sum, k) != 0)
                fail_msg("digits of a %u-bit scalar, c = %u, do not sum to it", bits, c);
            unsigned top = bits / c, r = bits - top * c;
            int d = msm_scalar_digit(v, top, c);
            if (r < c - 1 && (d < 0 || d > (1 << r)))
                fail_msg("top digit %d of a %u-bit scalar, c = %u: outside [0, 2^%u]", d, bits, c,
                         r);
        }
    }
    mpz_clears(k, sum, term, NULL);
}

/* The plan: forced windows are kept; the model's window grows with n, stays
 * within bounds, and takes more ranges only when there are spare threads. */
static void test_plan(void **state)
{
    (void)state;
    msm_plan_t p, q;
    for (unsigned c = 1; c <= CUZK_MSM_WINDOW_MAX; c++) {
        msm_plan(&p, 1000, 255, 3, c);
        assert_int_equal(p.window, c);
        assert_int_equal(p.windows, 255 / c + 1);
    }
    unsigned last = 0;
    for (size_t n = 1; n <= ((size_t)1 << 30); n *= 4) {
        msm_plan(&p, n, 255, 1, 0);
        assert_true(p.window >= 1 && p.window <= CUZK_MSM_WINDOW_AUTO_MAX);
        assert_true(p.window >= last);
        assert_int_equal(p.chunks, 1);
        last = p.window;
        msm_plan(&q, n, 255, 64, 0);
        if (n >= ((size_t)1 << 20)) /* enough tasks for every thread */
            assert_true(q.chunks * q.windows >= 64);
    }
    msm_plan(&p, (size_t)1 << 20, 255, 1, 0);
    assert_int_equal(p.window, 16);
}

#define TM_G   bls381_g1
#define TM_GLV /* the group splits scalars (ec_tmpl.h, glv_split) */
#define TM_R   bls381_fr
#include "test_msm_tmpl.h"

#define TM_G bls381_g2
#define TM_R bls381_fr
#include "test_msm_tmpl.h"

#define TM_G bn254_g1
#define TM_GLV
#define TM_R bn254_fr
#include "test_msm_tmpl.h"

#define TM_G bn254_g2
#define TM_GLV
#define TM_R bn254_fr
#include "test_msm_tmpl.h"

/*
 * The batch-affine path (windows >= CUZK_MSM_BATCH_MIN_WINDOW) on inputs
 * that make its batches collide: every scalar equal (one bucket per window,
 * so every addition after the first waits for the next batch), bases that
 * repeat (doublings in the batch) and alternate P, -P (cancellations that
 * empty a bucket), infinity among them; then scalars s and -s on P; then
 * scalars of 119 bits, whose top window at c = 11 has 9 bits: 512 of the
 * 1024 buckets, still batch-affine, in batches sized from those 512.
 */
#define BATCH_TEST(G, R)                                                                           \
    static void test_##G##_batch(void **state)                                                     \
    {                                                                                              \
        (void)state;                                                                               \
        enum { N = 300 };                                                                          \
        static const unsigned windows[] = {CUZK_MSM_BATCH_MIN_WINDOW, 11, 12};                     \
        G##_affine_t *b = test_##G##_bases_new(N);                                                 \
        R##_t *k = malloc(N * sizeof(R##_t)), s;                                                   \
        assert_non_null(k);                                                                        \
        assert_int_equal(R##_random(&s, &test_rng), CUZK_OK);                                      \
        for (int pass = 0; pass < 5; pass++) {                                                     \
            for (size_t i = 0; i < N; i++) {                                                       \
                k[i] = s;                                                                          \
                if (pass >= 1 && i % 3 != 2)                                                       \
                    b[i] = b[0];                                                                   \
                if (pass >= 2 && i % 2 == 1)                                                       \
                    G##_affine_neg(&b[i], &b[0]);                                                  \
                if (pass >= 2 && i % 7 == 3)                                                       \
                    G##_affine_set_infinity(&b[i]);                                                \
                if (pass == 3) {                                                                   \
                    b[i] = b[0];                                                                   \
                    if (i % 2 == 1)                                                                \
                        R##_neg(&k[i], &s);                                                        \
                }                                                                                  \
                if (pass == 4) {                                                                   \
                    uint64_t v[4] = {rng_next(&test_rng),                                          \
                                     rng_next(&test_rng) & (((uint64_t)1 << 55) - 1), 0, 0};       \
                    v[1] |= (uint64_t)1 << 54; /* 119 bits */                                      \
                    assert_true(R##_from_canonical(&k[i], v));                                     \
                }                                                                                  \
            }                                                                                      \
            test_##G##_check(b, k, N, windows, sizeof(windows) / sizeof(windows[0]));              \
        }                                                                                          \
        free(b);                                                                                   \
        free(k);                                                                                   \
    }
BATCH_TEST(bls381_g1, bls381_fr)
BATCH_TEST(bls381_g2, bls381_fr)
BATCH_TEST(bn254_g1, bn254_fr)
BATCH_TEST(bn254_g2, bn254_fr)

/* msm_horner (the GPU engine's last step) against Σ_w [2^(c·w)]·P_w by
 * scalar multiplications: 1 to 13 windows of width 0 to 22, random window
 * sums with infinity among them. */
#define HORNER_TEST(G)                                                                             \
    static void test_##G##_horner(void **state)                                                    \
    {                                                                                              \
        (void)state;                                                                               \
        static const unsigned widths[] = {0, 1, 7, 16, 20, 22}, counts[] = {1, 2, 5, 11, 13};      \
        G##_affine_t g;                                                                            \
        G##_generator(&g);                                                                         \
        for (size_t wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++) {                       \
            for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++) {                   \
                unsigned c = widths[wi], W = counts[ci];                                           \
                if (c * (W - 1) >= 255)                                                            \
                    continue;                                                                      \
                G##_xyzz_t win[13], got;                                                           \
                G##_jac_t want, t;                                                                 \
                G##_jac_set_infinity(&want);                                                       \
                for (unsigned w = 0; w < W; w++) {                                                 \
                    uint64_t k[4] = {rng_next(&test_rng), rng_next(&test_rng), 0, 0};              \
                    G##_jac_from_affine(&t, &g);                                                   \
                    G##_jac_mul_vartime(&t, &t, k);                                                \
                    if (w == 1)                                                                    \
                        G##_jac_set_infinity(&t);                                                  \
                    G##_jac_to_xyzz(&win[w], &t);                                                  \
                    uint64_t e[4] = {0, 0, 0, 0};                                                  \
                    e[c * w / 64] = 1ull << (c * w % 64);                                          \
                    G##_jac_mul_vartime(&t, &t, e);                                                \
                    G##_jac_add_vartime(&want, &want, &t);                                         \
                }                                                                                  \
                G##_msm_horner(&got, win, W, c);                                                   \
                G##_affine_t a;                                                                    \
                G##_xyzz_to_affine(&a, &got);                                                      \
                if (!G##_jac_equal_affine(&want, &a))                                              \
                    fail_msg("%s: %u windows of %u bits", #G, W, c);                               \
            }                                                                                      \
        }                                                                                          \
    }
HORNER_TEST(bls381_g1)
HORNER_TEST(bls381_g2)
HORNER_TEST(bn254_g1)
HORNER_TEST(bn254_g2)

#define GROUP_TESTS(g)                                                                             \
    cmocka_unit_test(test_##g##_small), cmocka_unit_test(test_##g##_special_bases),                \
        cmocka_unit_test(test_##g##_large), cmocka_unit_test(test_##g##_canonical),                \
        cmocka_unit_test(test_##g##_classify), cmocka_unit_test(test_##g##_batch),                 \
        cmocka_unit_test(test_##g##_horner)

int main(void)
{
    test_seed_init("test_msm");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digits), cmocka_unit_test(test_plan), GROUP_TESTS(bls381_g1),
        GROUP_TESTS(bls381_g2),        GROUP_TESTS(bn254_g1),       GROUP_TESTS(bn254_g2),
    };
    return cmocka_run_group_tests(tests, setup_pools, teardown_pools);
}
