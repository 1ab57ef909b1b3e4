/*
 * Curve arithmetic tests as a template over one group (parameters as in
 * test_ec_common.h, plus TGEN: the generator's coordinates as published, in
 * the order x.c0, x.c1, y.c0, y.c1 (G2) or x, y (G1), strings that GMP reads
 * with base 0, and TCOFACTOR_ONE for a group of prime order).
 */

#include "test_ec_common.h"

/* A random projective representative of p: (X·z^2, Y·z^3, z). */
static void TN(random_jac)(GJ *r, const GA *p)
{
    FT z, z2;
    G(jac_from_affine)(r, p);
    do
        F(random)(&z, &test_rng);
    while (F(is_zero)(&z));
    F(sqr)(&z2, &z);
    F(mul)(&r->X, &r->X, &z2);
    F(mul)(&z2, &z2, &z);
    F(mul)(&r->Y, &r->Y, &z2);
    F(mul)(&r->Z, &r->Z, &z);
}

static void TN(assert_jac_is)(const GJ *p, const GA *expect)
{
    assert_true(G(jac_is_on_curve)(p));
    assert_true(G(jac_equal_affine)(p, expect));
}

static void TN(assert_xyzz_is)(const GX *p, const GA *expect)
{
    GA a;
    G(xyzz_to_affine)(&a, p);
    assert_true(G(affine_equal)(&a, expect));
}

/* An independent reference: affine chord-and-tangent addition with one
 * inversion, every special case by hand. */
static void TN(ref_add)(GA *r, const GA *p, const GA *q)
{
    if (G(affine_is_infinity)(p)) {
        *r = *q;
        return;
    }
    if (G(affine_is_infinity)(q)) {
        *r = *p;
        return;
    }
    FT lambda, num, den, x3, y3;
    if (F(equal)(&p->x, &q->x)) {
        F(add)(&num, &p->y, &q->y);
        if (F(is_zero)(&num)) {
            G(affine_set_infinity)(r);
            return;
        }
        F(sqr)(&num, &p->x); /* lambda = 3x^2 / 2y */
        F(add)(&den, &num, &num);
        F(add)(&num, &num, &den);
        F(dbl)(&den, &p->y);
    } else {
        F(sub)(&num, &q->y, &p->y); /* lambda = (y2 - y1)/(x2 - x1) */
        F(sub)(&den, &q->x, &p->x);
    }
    F(inv)(&den, &den);
    F(mul)(&lambda, &num, &den);
    F(sqr)(&x3, &lambda); /* x3 = lambda^2 - x1 - x2, y3 = lambda(x1 - x3) - y1 */
    F(sub)(&x3, &x3, &p->x);
    F(sub)(&x3, &x3, &q->x);
    F(sub)(&y3, &p->x, &x3);
    F(mul)(&y3, &y3, &lambda);
    F(sub)(&y3, &y3, &p->y);
    r->x = x3;
    r->y = y3;
}

static void TN(random_xyzz)(GX *r, const GA *p)
{
    GJ j;
    TN(random_jac)(&j, p);
    G(jac_to_xyzz)(r, &j);
}

/* p + q by every formula and form, each against the reference. */
static void TN(check_sum)(const GA *p, const GA *q)
{
    GA expect;
    GJ pj, qj, rj;
    GX px, qx, rx;
    TN(ref_add)(&expect, p, q);
    TN(random_jac)(&pj, p);
    TN(random_jac)(&qj, q);
    TN(random_xyzz)(&px, p);
    TN(random_xyzz)(&qx, q);

    G(jac_add_vartime)(&rj, &pj, &qj);
    TN(assert_jac_is)(&rj, &expect);
    G(jac_add)(&rj, &pj, &qj);
    TN(assert_jac_is)(&rj, &expect);
    G(jac_add_affine_vartime)(&rj, &pj, q);
    TN(assert_jac_is)(&rj, &expect);
    rj = pj; /* output aliasing the input */
    G(jac_add)(&rj, &rj, &qj);
    TN(assert_jac_is)(&rj, &expect);
    rj = pj;
    G(jac_add_affine_vartime)(&rj, &rj, q);
    TN(assert_jac_is)(&rj, &expect);

    G(xyzz_add_vartime)(&rx, &px, &qx);
    TN(assert_xyzz_is)(&rx, &expect);
    G(xyzz_add_affine_vartime)(&rx, &px, q);
    TN(assert_xyzz_is)(&rx, &expect);
    rx = px;
    G(xyzz_add_affine_vartime)(&rx, &rx, q);
    TN(assert_xyzz_is)(&rx, &expect);
    G(xyzz_to_jac)(&rj, &rx); /* and back through the other form */
    TN(assert_jac_is)(&rj, &expect);
}

static void TN(test_generator)(void **state)
{
    (void)state;
    static const char *const spec[] = TGEN;
    GA g;
    G(generator)(&g);
    char buf[G(DEC_STRINGS)][G(DEC_MAX)];
    char *out[G(DEC_STRINGS)];
    for (int i = 0; i < G(DEC_STRINGS); i++)
        out[i] = buf[i];
    G(affine_to_dec)(out, &g);
    mpz_t z;
    mpz_init(z);
    for (size_t i = 0; i < sizeof(spec) / sizeof(spec[0]); i++) {
        assert_int_equal(mpz_set_str(z, spec[i], 0), 0);
        char *dec = mpz_get_str(NULL, 10, z);
        assert_string_equal(out[i], dec);
        free(dec);
    }
    mpz_clear(z);
    assert_true(G(affine_is_on_curve)(&g));
    assert_false(G(affine_is_infinity)(&g));
    assert_true(G(affine_is_in_subgroup_vartime)(&g));
    assert_true(TN(order_divides_r)(&g));
}

static void TN(test_laws)(void **state)
{
    (void)state;
    GA p, q, s, o, np, t1, t2;
    G(affine_set_infinity)(&o);
    for (int it = 0; it < test_iters(16); it++) {
        TN(random_point)(&p);
        TN(random_point)(&q);
        TN(random_point)(&s);
        G(affine_neg)(&np, &p);
        TN(check_sum)(&p, &q); /* generic */
        TN(check_sum)(&q, &p);
        TN(check_sum)(&p, &p);  /* doubling inside an addition */
        TN(check_sum)(&p, &np); /* inverse */
        TN(check_sum)(&p, &o);  /* identity, both sides */
        TN(check_sum)(&o, &p);
        TN(check_sum)(&o, &o);
        /* commutativity and associativity of the reference the formulas
         * were checked against */
        TN(ref_add)(&t1, &p, &q);
        TN(ref_add)(&t2, &q, &p);
        assert_true(G(affine_equal)(&t1, &t2));
        TN(ref_add)(&t1, &t1, &s);
        TN(ref_add)(&t2, &q, &s);
        TN(ref_add)(&t2, &p, &t2);
        assert_true(G(affine_equal)(&t1, &t2));
        assert_false(G(affine_equal)(&p, &q));

        /* doubling formulas = addition with itself */
        GA dbl;
        GJ pj;
        GX px;
        TN(ref_add)(&dbl, &p, &p);
        TN(random_jac)(&pj, &p);
        G(jac_dbl)(&pj, &pj);
        TN(assert_jac_is)(&pj, &dbl);
        TN(random_xyzz)(&px, &p);
        G(xyzz_dbl)(&px, &px);
        TN(assert_xyzz_is)(&px, &dbl);

        /* negation and equality across representations */
        GJ a, b;
        TN(random_jac)(&a, &p);
        TN(random_jac)(&b, &p);
        assert_true(G(jac_equal)(&a, &b));
        G(jac_neg)(&b, &b);
        assert_false(G(jac_equal)(&a, &b));
        TN(assert_jac_is)(&b, &np);
        GX xa, xb;
        TN(random_xyzz)(&xa, &p);
        TN(random_xyzz)(&xb, &p);
        assert_true(G(xyzz_equal)(&xa, &xb));
        G(xyzz_neg)(&xb, &xb);
        assert_false(G(xyzz_equal)(&xa, &xb));
        TN(assert_xyzz_is)(&xb, &np);
    }
    /* infinity in every form */
    GJ oj, pj;
    GX ox;
    G(jac_set_infinity)(&oj);
    G(xyzz_set_infinity)(&ox);
    assert_true(G(jac_is_infinity)(&oj));
    assert_true(G(xyzz_is_infinity)(&ox));
    G(jac_dbl)(&oj, &oj);
    assert_true(G(jac_is_infinity)(&oj));
    G(xyzz_dbl)(&ox, &ox);
    assert_true(G(xyzz_is_infinity)(&ox));
    G(jac_to_affine)(&p, &oj);
    assert_true(G(affine_is_infinity)(&p));
    G(xyzz_to_affine)(&p, &ox);
    assert_true(G(affine_is_infinity)(&p));
    G(jac_from_affine)(&oj, &o);
    assert_true(G(jac_is_infinity)(&oj));
    G(xyzz_from_affine)(&ox, &o);
    assert_true(G(xyzz_is_infinity)(&ox));
    G(affine_neg)(&p, &o);
    assert_true(G(affine_is_infinity)(&p));
    TN(random_point)(&p);
    G(jac_from_affine)(&pj, &p);
    assert_false(G(jac_equal)(&pj, &oj));
    assert_false(G(jac_equal_affine)(&pj, &o));
    assert_true(G(jac_equal_affine)(&oj, &o));
}

/* Batch conversion = one by one, for sizes 0, 1, 2, 7, 33 with infinity at
 * both ends and in random places. */
static void TN(test_batch)(void **state)
{
    (void)state;
    enum { N = 33 };
    static const size_t sizes[] = {0, 1, 2, 7, N};
    GJ j[N];
    GX x[N];
    GA a[N], one;
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        size_t n = sizes[s];
        for (size_t i = 0; i < n; i++) {
            GA p;
            bool inf = (i == 0 && n > 2) || (i == n - 1 && n > 2) || rng_next(&test_rng) % 5 == 0;
            if (inf)
                G(affine_set_infinity)(&p);
            else
                TN(random_point)(&p);
            TN(random_jac)(&j[i], &p);
            if (inf)
                G(jac_set_infinity)(&j[i]);
            G(jac_to_xyzz)(&x[i], &j[i]);
        }
        G(jacs_to_affine_vartime)(a, j, n);
        for (size_t i = 0; i < n; i++) {
            G(jac_to_affine)(&one, &j[i]);
            assert_true(G(affine_equal)(&a[i], &one));
        }
        G(xyzzs_to_affine_vartime)(a, x, n);
        for (size_t i = 0; i < n; i++) {
            G(xyzz_to_affine)(&one, &x[i]);
            assert_true(G(affine_equal)(&a[i], &one));
        }
    }
}

/* [k]p by both multiplications, checked against each other; r may alias p. */
static void TN(mul_both)(GJ *r, const GJ *p, const uint64_t k[4])
{
    GJ c;
    G(jac_mul)(&c, p, k);
    G(jac_mul_vartime)(r, p, k);
    assert_true(G(jac_equal)(r, &c));
}

static void TN(test_scalar)(void **state)
{
    (void)state;
    const uint64_t *r = R(MODULUS);
    GA p, np, o, ref;
    GJ pj, t, u;
    G(affine_set_infinity)(&o);
    TN(random_point)(&p);
    G(affine_neg)(&np, &p);
    TN(random_jac)(&pj, &p);

    uint64_t k[4] = {0, 0, 0, 0};
    TN(mul_both)(&t, &pj, k); /* [0]P */
    assert_true(G(jac_is_infinity)(&t));
    for (uint64_t small = 1; small <= 40; small++) { /* against repeated addition */
        k[0] = small;
        TN(mul_both)(&t, &pj, k);
        if (small == 1)
            G(affine_set_infinity)(&ref);
        TN(ref_add)(&ref, &ref, &p);
        TN(assert_jac_is)(&t, &ref);
    }
    memcpy(k, r, sizeof(k)); /* [r]P = O */
    TN(mul_both)(&t, &pj, k);
    assert_true(G(jac_is_infinity)(&t));
    k[0] = r[0] - 1; /* [r - 1]P = -P */
    TN(mul_both)(&t, &pj, k);
    TN(assert_jac_is)(&t, &np);
    k[0] = r[0] + 1; /* [r + 1]P = P */
    TN(mul_both)(&t, &pj, k);
    TN(assert_jac_is)(&t, &p);

    /* edge scalars: the two multiplications agree, and [k]O = O */
    static const uint64_t edges[][4] = {
        {~0ULL, ~0ULL, ~0ULL, ~0ULL},
        {0, 0, 0, 1ULL << 63},
        {0, 0, 0, 1},
        {1ULL << 63, 0, 0, 0},
        {0x1111111111111111ULL, 0x1111111111111111ULL, 0x1111111111111111ULL,
         0x1111111111111111ULL},
        {0xf0f0f0f0f0f0f0f0ULL, 0x0f0f0f0f0f0f0f0fULL, 0xf0f0f0f0f0f0f0f0ULL,
         0x0f0f0f0f0f0f0f0fULL},
        {0xaaaaaaaaaaaaaaaaULL, 0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL,
         0x5555555555555555ULL},
    };
    GJ oj;
    G(jac_set_infinity)(&oj);
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
        TN(mul_both)(&t, &pj, edges[i]);
        assert_true(G(jac_is_on_curve)(&t));
        TN(mul_both)(&t, &oj, edges[i]);
        assert_true(G(jac_is_infinity)(&t));
    }

    /* [a]([b]P) = [ab mod r]P, and the two multiplications agree */
    for (int it = 0; it < test_iters(4); it++) {
        RT a, b, ab;
        uint64_t ka[4], kb[4], kab[4];
        R(random)(&a, &test_rng);
        R(random)(&b, &test_rng);
        R(mul)(&ab, &a, &b);
        R(to_canonical)(ka, &a);
        R(to_canonical)(kb, &b);
        R(to_canonical)(kab, &ab);
        TN(mul_both)(&t, &pj, kb);
        TN(mul_both)(&t, &t, ka);
        TN(mul_both)(&u, &pj, kab);
        assert_true(G(jac_equal)(&t, &u));
        TN(random_scalar)(ka);
        TN(mul_both)(&t, &pj, ka);
    }

    /* a point outside the subgroup: still [2]P = P + P and the two agree */
    GA c;
    TN(random_curve_point)(&c);
    G(jac_from_affine)(&t, &c);
    k[0] = 2;
    k[1] = k[2] = k[3] = 0;
    TN(mul_both)(&u, &t, k);
    TN(ref_add)(&ref, &c, &c);
    TN(assert_jac_is)(&u, &ref);
    TN(random_scalar)(k);
    TN(mul_both)(&u, &t, k);
    (void)o;
}

static void TN(test_subgroup)(void **state)
{
    (void)state;
    GA p, t, g, sum, o;
    G(affine_set_infinity)(&o);
    assert_true(G(affine_is_in_subgroup_vartime)(&o));
    for (int it = 0; it < test_iters(4); it++) {
        TN(random_point)(&p);
        assert_true(G(affine_is_in_subgroup_vartime)(&p));
    }
    int outside = 0;
    for (int it = 0; it < test_iters(8); it++) {
        TN(random_curve_point)(&p);
        bool in = TN(order_divides_r)(&p);
        assert_int_equal(G(affine_is_in_subgroup_vartime)(&p), in);
        outside += !in;
        /* T = [r]P lies in the cofactor part: of order dividing h, not r */
        GJ tj;
        G(jac_from_affine)(&tj, &p);
        G(jac_mul_vartime)(&tj, &tj, R(MODULUS));
        G(jac_to_affine)(&t, &tj);
        assert_int_equal(G(affine_is_in_subgroup_vartime)(&t), G(affine_is_infinity)(&t));
        /* G + T: a point with a component in each part */
        G(generator)(&g);
        TN(ref_add)(&sum, &g, &t);
        assert_int_equal(G(affine_is_in_subgroup_vartime)(&sum), G(affine_is_infinity)(&t));
    }
#ifdef TCOFACTOR_ONE
    assert_int_equal(outside, 0);
#else
    assert_true(outside > 0); /* the test above can fail */
#endif
    /* x = 0: points of order 3 where they exist (BLS12-381 G1: (0, +-2)) */
    FT zero;
    F(set_zero)(&zero);
    if (G(affine_from_x_vartime)(&p, &zero, false)) {
        assert_false(TN(order_divides_r)(&p));
        assert_false(G(affine_is_in_subgroup_vartime)(&p));
    }
}

static void TN(test_on_curve)(void **state)
{
    (void)state;
    GA p, o;
    GJ j;
    G(affine_set_infinity)(&o);
    assert_true(G(affine_is_on_curve)(&o));
    G(jac_set_infinity)(&j);
    assert_true(G(jac_is_on_curve)(&j));
    for (int it = 0; it < test_iters(8); it++) {
        TN(random_point)(&p);
        assert_true(G(affine_is_on_curve)(&p));
        TN(random_jac)(&j, &p);
        assert_true(G(jac_is_on_curve)(&j));
        FT one;
        F(set_one)(&one);
        F(add)(&p.y, &p.y, &one);
        assert_false(G(affine_is_on_curve)(&p));
        F(add)(&j.Y, &j.Y, &one);
        assert_false(G(jac_is_on_curve)(&j));
        F(random)(&p.x, &test_rng); /* a random pair: off the curve */
        F(random)(&p.y, &test_rng);
        assert_false(G(affine_is_on_curve)(&p));
    }
}

#ifndef TEST_EC_ARITH_LIST
#define TEST_EC_ARITH_LIST(g)                                                                      \
    cmocka_unit_test(test_generator_##g), cmocka_unit_test(test_laws_##g),                         \
        cmocka_unit_test(test_batch_##g), cmocka_unit_test(test_scalar_##g),                       \
        cmocka_unit_test(test_subgroup_##g), cmocka_unit_test(test_on_curve_##g)
#endif
