/*
 * The subgroup-test checks of test_subgroup.c as a template over one group
 * (parameters as in test_ec_common.h, plus TCOFACTOR: the cofactor in hex,
 * and TSMALL: the array of its prime factors below 2^32).
 */

#include "test_ec_common.h"

/* r = [k]p for any k >= 0, by double-and-add over k's bits. */
static void TN(mul_mpz)(GJ *r, const GJ *p, const mpz_t k)
{
    GJ acc;
    G(jac_set_infinity)(&acc);
    for (size_t i = mpz_sizeinbase(k, 2); i-- > 0;) {
        G(jac_dbl)(&acc, &acc);
        if (mpz_tstbit(k, i))
            G(jac_add_vartime)(&acc, &acc, p);
    }
    *r = acc;
}

/* t = [m]([r]Q) for a random curve point Q: a point of order dividing
 * h/m. Returns whether it is finite. */
static bool TN(cofactor_point)(GA *t, const mpz_t m)
{
    GA q;
    GJ tj;
    mpz_t r;
    mpz_init(r);
    test_mpz_from_limbs(r, R(MODULUS), 4);
    TN(random_curve_point)(&q);
    G(jac_from_affine)(&tj, &q);
    TN(mul_mpz)(&tj, &tj, r);
    TN(mul_mpz)(&tj, &tj, m);
    mpz_clear(r);
    G(jac_to_affine)(t, &tj);
    return !G(affine_is_infinity)(t);
}

/* Whether [k]p is infinity. */
static bool TN(killed_by)(const GA *p, const mpz_t k)
{
    GJ t;
    G(jac_from_affine)(&t, p);
    TN(mul_mpz)(&t, &t, k);
    return G(jac_is_infinity)(&t);
}

/* t fails the test, and so does t + s for a random subgroup point s. */
static void TN(assert_rejected)(const GA *t)
{
    GA s;
    GJ sum;
    assert_false(TN(order_divides_r)(t));
    assert_false(G(affine_is_in_subgroup_vartime)(t));
    TN(random_point)(&s);
    assert_true(G(affine_is_in_subgroup_vartime)(&s));
    G(jac_from_affine)(&sum, &s);
    G(jac_add_affine_vartime)(&sum, &sum, t);
    G(jac_to_affine)(&s, &sum);
    assert_false(TN(order_divides_r)(&s));
    assert_false(G(affine_is_in_subgroup_vartime)(&s));
}

static void TN(test_members)(void **state)
{
    (void)state;
    GA p, g;
    GJ t;
    G(affine_set_infinity)(&p);
    assert_true(G(affine_is_in_subgroup_vartime)(&p));
    G(generator)(&g);
    assert_true(G(affine_is_in_subgroup_vartime)(&g));
    G(affine_neg)(&p, &g);
    assert_true(G(affine_is_in_subgroup_vartime)(&p));
    G(jac_from_affine)(&t, &g); /* [2]G: the chains' first step meets p again */
    G(jac_dbl)(&t, &t);
    G(jac_to_affine)(&p, &t);
    assert_true(G(affine_is_in_subgroup_vartime)(&p));
    for (int it = 0; it < test_iters(16); it++) {
        TN(random_point)(&p);
        assert_true(G(affine_is_in_subgroup_vartime)(&p));
    }
}

static void TN(test_small_orders)(void **state)
{
    (void)state;
    mpz_t h, m, l, big;
    mpz_inits(h, m, l, big, NULL);
    assert_int_equal(mpz_set_str(h, TCOFACTOR, 16), 0);
    mpz_set(big, h); /* big = h without its small factors */
    for (size_t i = 0; i < sizeof(TSMALL) / sizeof(TSMALL[0]); i++) {
        mpz_set_ui(l, TSMALL[i]);
        assert_true(mpz_divisible_p(h, l));
        mpz_set(m, h); /* m = h without its factors l: [m]([r]Q) is in the l-part */
        while (mpz_divisible_p(m, l))
            mpz_divexact(m, m, l);
        while (mpz_divisible_p(big, l))
            mpz_divexact(big, big, l);
        GA t;
        int tries = 0;
        while (!TN(cofactor_point)(&t, m))
            assert_true(++tries < FIND_TRIES);
        /* The l-part may have exponent l^k (Z/l^a x Z/l^b): multiply by l
         * until the next step would give O; t then has order exactly l. */
        while (!TN(killed_by)(&t, l)) {
            GJ tj;
            G(jac_from_affine)(&tj, &t);
            TN(mul_mpz)(&tj, &tj, l);
            G(jac_to_affine)(&t, &tj);
        }
        TN(assert_rejected)(&t);
    }
    /* A point whose order is the large remaining part of h (when any). */
    if (mpz_cmp_ui(big, 1) > 0) {
        mpz_divexact(m, h, big);
        GA t;
        int tries = 0;
        while (!TN(cofactor_point)(&t, m))
            assert_true(++tries < FIND_TRIES);
        assert_true(TN(killed_by)(&t, big));
        TN(assert_rejected)(&t);
    }
    mpz_clears(h, m, l, big, NULL);
}

static void TN(test_curve_points)(void **state)
{
    (void)state;
    int outside = 0;
    for (int it = 0; it < test_iters(16); it++) {
        GA p;
        TN(random_curve_point)(&p);
        bool in = TN(order_divides_r)(&p);
        assert_int_equal(G(affine_is_in_subgroup_vartime)(&p), in);
        outside += !in;
    }
    assert_true(outside > 0); /* a random point is a member with probability 1/h */
}

/* ---- the batch check (NAME_msm_subgroup_check) ------------------------- */

/* n subgroup points by a walk (cheap: one addition a point), with a few
 * infinities and repeats, in a byte buffer at an odd offset so that the
 * points are unaligned, as a mapped .zkey's may be. *buf is to be freed. */
static unsigned char *TN(batch_points)(unsigned char **buf, size_t n)
{
    *buf = malloc(n * sizeof(GA) + 1);
    assert_non_null(*buf);
    GJ *walk = malloc(n * sizeof(GJ));
    GA *aff = malloc(n * sizeof(GA));
    assert_true(walk && aff);
    GA step[2];
    TN(random_point)(&step[0]);
    TN(random_point)(&step[1]);
    GJ acc;
    G(jac_from_affine)(&acc, &step[0]);
    for (size_t i = 0; i < n; i++) {
        G(jac_add_affine_vartime)(&acc, &acc, &step[rng_next(&test_rng) & 1]);
        walk[i] = acc;
    }
    G(jacs_to_affine_vartime)(aff, walk, n);
    for (size_t i = 0; i < n; i += 97)
        G(affine_set_infinity)(&aff[i]);
    for (size_t i = 5; i < n; i += 101)
        aff[i] = aff[i - 5];
    memcpy(*buf + 1, aff, n * sizeof(GA));
    free(walk);
    free(aff);
    return *buf + 1;
}

/* Point i of the unaligned array at pts: read, or overwrite with p. */
static void TN(batch_get)(GA *p, const unsigned char *pts, size_t i)
{
    memcpy(p, pts + i * sizeof(GA), sizeof(GA));
}

static void TN(batch_put)(unsigned char *pts, size_t i, const GA *p)
{
    memcpy(pts + i * sizeof(GA), p, sizeof(GA));
}

/* t of prime order `small` (a factor of the cofactor), built as in
 * test_small_orders. */
static void TN(small_order_point)(GA *t, unsigned long small)
{
    mpz_t h, m, l;
    mpz_inits(h, m, l, NULL);
    assert_int_equal(mpz_set_str(h, TCOFACTOR, 16), 0);
    mpz_set_ui(l, small);
    mpz_set(m, h);
    while (mpz_divisible_p(m, l))
        mpz_divexact(m, m, l);
    int tries = 0;
    while (!TN(cofactor_point)(t, m))
        assert_true(++tries < FIND_TRIES);
    while (!TN(killed_by)(t, l)) {
        GJ tj;
        G(jac_from_affine)(&tj, t);
        TN(mul_mpz)(&tj, &tj, l);
        G(jac_to_affine)(t, &tj);
    }
    mpz_clears(h, m, l, NULL);
}

/* p + q, affine. */
static void TN(affine_add)(GA *r, const GA *p, const GA *q)
{
    GJ t;
    G(jac_from_affine)(&t, p);
    G(jac_add_affine_vartime)(&t, &t, q);
    G(jac_to_affine)(r, &t);
}

/* The check over three arrays (the middle one empty) of pts, split at k;
 * NAME_msm_subgroup_first_outside on the same arrays must agree with it and
 * return `first` (n: none). */
static bool TN(batch_run)(const unsigned char *pts, size_t n, size_t k, rng_t *rng, pool_t *pool)
{
    const void *arrays[3] = {pts, pts, pts + k * sizeof(GA)};
    size_t counts[3] = {k, 0, n - k};
    bool all_in = false;
    assert_int_equal(G(msm_subgroup_check)(&all_in, arrays, counts, 3, rng, pool), CUZK_OK);
    return all_in;
}

static void TN(first_outside_is)(const unsigned char *pts, size_t n, size_t k, size_t first,
                                 pool_t *pool)
{
    const void *arrays[3] = {pts, pts, pts + k * sizeof(GA)};
    size_t counts[3] = {k, 0, n - k}, got = 0;
    assert_int_equal(G(msm_subgroup_first_outside)(&got, arrays, counts, 3, &test_rng, pool),
                     CUZK_OK);
    assert_int_equal(got, first);
}

/*
 * Sizes on both sides of the plan's switch to batches, on the caller alone
 * and on two threads, with seeded and operating-system bits: a set of
 * subgroup points passes; the same set with one point moved off the
 * subgroup by a point of each small order (first, last, in the third
 * array) fails; so do two such points whose cofactor parts cancel in a
 * plain sum (T and -T), which a check with one all-ones row would miss.
 */
static void TN(test_batch_check)(void **state)
{
    (void)state;
    pool_t *pool = pool_new(2, NULL);
    assert_non_null(pool);
    const size_t sizes[] = {40, 3000, 20000};
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        size_t n = sizes[si], k = n / 3;
        msm_sg_plan_t plan;
        msm_sg_plan(&plan, n, 2);
        assert_true(plan.t == 0 || plan.chunks * plan.t >= CUZK_MSM_SG_ROWS);
        assert_true(si == 0 ? plan.t == 0 : plan.t >= CUZK_MSM_SG_T_MIN);
        unsigned char *buf;
        unsigned char *pts = TN(batch_points)(&buf, n);
        assert_true(TN(batch_run)(pts, n, k, &test_rng, NULL));
        assert_true(TN(batch_run)(pts, n, k, NULL, pool));
        TN(first_outside_is)(pts, n, k, n, pool);
        for (size_t f = 0; f < sizeof(TSMALL) / sizeof(TSMALL[0]); f++) {
            GA t, old, bad;
            TN(small_order_point)(&t, TSMALL[f]);
            size_t where[3] = {0, n - 1, k + (n - k) / 2};
            size_t i = where[f % 3];
            TN(batch_get)(&old, pts, i);
            TN(affine_add)(&bad, &old, &t);
            TN(batch_put)(pts, i, &bad);
            assert_false(TN(batch_run)(pts, n, k, &test_rng, f % 2 ? pool : NULL));
            assert_false(TN(batch_run)(pts, n, k, NULL, pool));
            TN(first_outside_is)(pts, n, k, i, f % 2 ? pool : NULL);
            TN(batch_put)(pts, i, &old);
        }
        /* T at one point and -T at another: their sum is in the subgroup. */
        GA t, mt, old0, old1, bad;
        TN(small_order_point)(&t, TSMALL[0]);
        G(affine_neg)(&mt, &t);
        size_t i0 = 1, i1 = n - 2;
        TN(batch_get)(&old0, pts, i0);
        TN(batch_get)(&old1, pts, i1);
        TN(affine_add)(&bad, &old0, &t);
        TN(batch_put)(pts, i0, &bad);
        TN(affine_add)(&bad, &old1, &mt);
        TN(batch_put)(pts, i1, &bad);
        /* Every trial must fail: a check whose rows were not independent
         * (one combination, say) would pass half of them. */
        for (int trial = 0; trial < (si == 1 ? 24 : 1); trial++)
            assert_false(TN(batch_run)(pts, n, k, &test_rng, trial % 2 ? pool : NULL));
        assert_false(TN(batch_run)(pts, n, k, NULL, NULL));
        TN(first_outside_is)(pts, n, k, i0, pool);
        TN(batch_put)(pts, i0, &old0);
        TN(first_outside_is)(pts, n, k, i1, pool);
        TN(batch_put)(pts, i1, &old1);
        assert_true(TN(batch_run)(pts, n, k, &test_rng, pool));
        free(buf);
    }
    pool_free(pool);
}

#ifndef TEST_SUBGROUP_LIST
#define TEST_SUBGROUP_LIST(g)                                                                      \
    cmocka_unit_test(test_members_##g), cmocka_unit_test(test_small_orders_##g),                   \
        cmocka_unit_test(test_curve_points_##g), cmocka_unit_test(test_batch_check_##g)
#endif
