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

#ifndef TEST_SUBGROUP_LIST
#define TEST_SUBGROUP_LIST(g)                                                                      \
    cmocka_unit_test(test_members_##g), cmocka_unit_test(test_small_orders_##g),                   \
        cmocka_unit_test(test_curve_points_##g)
#endif
