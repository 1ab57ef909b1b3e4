/*
 * Tests of the extension-field towers Fp2, Fp6, Fp12 of BLS12-381 and BN254.
 *
 * The per-curve tests are written once, below the `#ifdef TW_CURVE` line,
 * and this file includes itself once per curve with that curve's tower
 * parameters defined (an "X-include"): the names F2(op) etc. of
 * ff/tower_names.h then resolve to that curve.
 * Reference values come from GMP (schoolbook products of canonical integers)
 * and from the defining identities (a^(p^k) for the Frobenius maps).
 */
#ifdef TW_CURVE

#include "ff/tower_names.h"
#define TT(name)   TW_CAT3(test, TW_CURVE, name)
#define TT_LIMBS   (sizeof(F1T) / sizeof(uint64_t))
#define TT_STR_(x) #x
#define TT_STR(x)  TT_STR_(x)
/* cmocka_unit_test() would print the unexpanded name */
#define TT_UNIT(f)                                                                                 \
    {                                                                                              \
        TT_STR(TT(f)), TT(f), NULL, NULL, NULL                                                     \
    }

static void TT(p_)(mpz_t p)
{
    test_mpz_from_limbs(p, F1(MODULUS), TT_LIMBS);
}

static void TT(fp_to_mpz_)(mpz_t z, const F1T *a)
{
    uint64_t v[TT_LIMBS];
    F1(to_canonical)(v, a);
    test_mpz_from_limbs(z, v, TT_LIMBS);
}

static void TT(rand_fp2_)(F2T *r)
{
    assert_int_equal(F2(random)(r, &test_rng), CUZK_OK);
}

/* e (as limbs, returned count) = p^k; e holds 12·TT_LIMBS limbs. */
static size_t TT(p_pow_)(uint64_t *e, unsigned k)
{
    mpz_t p, z;
    mpz_inits(p, z, NULL);
    TT(p_)(p);
    mpz_pow_ui(z, p, k);
    size_t n = (mpz_sizeinbase(z, 2) + 63) / 64;
    test_mpz_to_limbs(e, n, z);
    mpz_clears(p, z, NULL);
    return n;
}

/* ---- Fp2 ------------------------------------------------------------- */

/* mul and sqr against the schoolbook product computed by GMP. */
static void TT(fp2_mul_vs_gmp)(void **state)
{
    (void)state;
    mpz_t p, a0, a1, b0, b1, t, r0, r1;
    mpz_inits(p, a0, a1, b0, b1, t, r0, r1, NULL);
    TT(p_)(p);
    for (int it = 0; it < test_iters(200); it++) {
        F2T a, b, r, s;
        TT(rand_fp2_)(&a);
        TT(rand_fp2_)(&b);
        if (it == 0)
            F2(set_zero)(&a);
        if (it == 1) { /* p - 1 everywhere: the largest inputs */
            F1T one;
            F1(set_one)(&one);
            F1(neg)(&a.c0, &one);
            a.c1 = a.c0;
            b = a;
        }
        TT(fp_to_mpz_)(a0, &a.c0);
        TT(fp_to_mpz_)(a1, &a.c1);
        TT(fp_to_mpz_)(b0, &b.c0);
        TT(fp_to_mpz_)(b1, &b.c1);
        mpz_mul(r0, a0, b0);
        mpz_submul(r0, a1, b1);
        mpz_mod(r0, r0, p);
        mpz_mul(r1, a0, b1);
        mpz_addmul(r1, a1, b0);
        mpz_mod(r1, r1, p);
        F2(mul)(&r, &a, &b);
        TT(fp_to_mpz_)(t, &r.c0);
        assert_int_equal(mpz_cmp(t, r0), 0);
        TT(fp_to_mpz_)(t, &r.c1);
        assert_int_equal(mpz_cmp(t, r1), 0);
        /* aliasing: r = r·b */
        s = a;
        F2(mul)(&s, &s, &b);
        assert_true(F2(equal)(&s, &r));
        F2(sqr)(&r, &a);
        F2(mul)(&s, &a, &a);
        assert_true(F2(equal)(&r, &s));
    }
    mpz_clears(p, a0, a1, b0, b1, t, r0, r1, NULL);
}

static void TT(fp2_ring_axioms)(void **state)
{
    (void)state;
    for (int it = 0; it < test_iters(100); it++) {
        F2T a, b, c, x, y, z, one, zero;
        TT(rand_fp2_)(&a);
        TT(rand_fp2_)(&b);
        TT(rand_fp2_)(&c);
        F2(set_one)(&one);
        F2(set_zero)(&zero);
        assert_true(F2(is_one)(&one) && F2(is_zero)(&zero));
        /* (a + b)·c = a·c + b·c */
        F2(add)(&x, &a, &b);
        F2(mul)(&x, &x, &c);
        F2(mul)(&y, &a, &c);
        F2(mul)(&z, &b, &c);
        F2(add)(&y, &y, &z);
        assert_true(F2(equal)(&x, &y));
        /* (a·b)·c = a·(b·c), a·b = b·a */
        F2(mul)(&x, &a, &b);
        F2(mul)(&x, &x, &c);
        F2(mul)(&y, &b, &c);
        F2(mul)(&y, &a, &y);
        assert_true(F2(equal)(&x, &y));
        F2(mul)(&x, &a, &b);
        F2(mul)(&y, &b, &a);
        assert_true(F2(equal)(&x, &y));
        /* a - b + b = a, a + (-a) = 0, half(2a) = a, a·1 = a */
        F2(sub)(&x, &a, &b);
        F2(add)(&x, &x, &b);
        assert_true(F2(equal)(&x, &a));
        F2(neg)(&x, &a);
        F2(add)(&x, &x, &a);
        assert_true(F2(is_zero)(&x));
        F2(dbl)(&x, &a);
        F2(half)(&x, &x);
        assert_true(F2(equal)(&x, &a));
        F2(mul)(&x, &a, &one);
        assert_true(F2(equal)(&x, &a));
        /* mul_fp = mul by (b0, 0) */
        F2(mul_fp)(&x, &a, &b.c0);
        y = b;
        F1(set_zero)(&y.c1);
        F2(mul)(&y, &a, &y);
        assert_true(F2(equal)(&x, &y));
        /* cmov */
        x = a;
        F2(cmov)(&x, &b, false);
        assert_true(F2(equal)(&x, &a));
        F2(cmov)(&x, &b, true);
        assert_true(F2(equal)(&x, &b));
        assert_false(F2(equal)(&a, &b));
    }
    /* from_u64: 3 + 4 = 7; u^2 = -1 */
    F2T x, y, z;
    F2(from_u64)(&x, 3);
    F2(from_u64)(&y, 4);
    F2(add)(&x, &x, &y);
    F2(from_u64)(&z, 7);
    assert_true(F2(equal)(&x, &z));
    F2(set_zero)(&x);
    F1(set_one)(&x.c1);
    F2(sqr)(&x, &x);
    F2(neg)(&x, &x);
    assert_true(F2(is_one)(&x));
}

static void TT(fp2_nonresidue_frobenius)(void **state)
{
    (void)state;
    F2T xi, one;
    F2(from_u64)(&xi, TW_XI_A);
    F1(set_one)(&xi.c1);
    F2(set_one)(&one);
    /* xi is neither a square nor a cube: needed for Fp6 and Fp12 to be fields */
    assert_int_equal(F2(legendre)(&xi), -1);
    {
        mpz_t p, e;
        mpz_inits(p, e, NULL);
        TT(p_)(p);
        mpz_mul(e, p, p);
        mpz_sub_ui(e, e, 1);
        assert_true(mpz_divisible_ui_p(e, 3));
        mpz_divexact_ui(e, e, 3);
        uint64_t el[2 * TT_LIMBS];
        size_t n = (mpz_sizeinbase(e, 2) + 63) / 64;
        test_mpz_to_limbs(el, n, e);
        F2T t;
        F2(pow)(&t, &xi, el, n);
        assert_false(F2(is_one)(&t));
        mpz_clears(p, e, NULL);
    }
    uint64_t ep[12 * TT_LIMBS];
    size_t np = TT(p_pow_)(ep, 1);
    for (int it = 0; it < test_iters(20); it++) {
        F2T a, x, y;
        TT(rand_fp2_)(&a);
        F2(mul_by_nonresidue)(&x, &a);
        F2(mul)(&y, &a, &xi);
        assert_true(F2(equal)(&x, &y));
        x = a;
        F2(mul_by_nonresidue)(&x, &x);
        assert_true(F2(equal)(&x, &y));
        /* a^p = conj(a) = frobenius(a, 1); frobenius(a, 2) = a */
        F2(pow)(&x, &a, ep, np);
        F2(frobenius)(&y, &a, 1);
        assert_true(F2(equal)(&x, &y));
        F2(conj)(&y, &a);
        assert_true(F2(equal)(&x, &y));
        F2(frobenius)(&y, &a, 2);
        assert_true(F2(equal)(&y, &a));
    }
}

static void TT(fp2_inv)(void **state)
{
    (void)state;
    F2T batch[9], scratch[9], orig[9];
    for (int it = 0; it < test_iters(50); it++) {
        F2T a, x, y;
        TT(rand_fp2_)(&a);
        if (it == 0)
            F1(set_zero)(&a.c1);
        if (it == 1)
            F1(set_zero)(&a.c0);
        F2(inv)(&x, &a);
        F2(inv_vartime)(&y, &a);
        assert_true(F2(equal)(&x, &y));
        F2(mul)(&x, &x, &a);
        assert_true(F2(is_one)(&x));
        F2(inv)(&a, &a); /* aliasing */
        assert_true(F2(equal)(&a, &y));
    }
    F2T z;
    F2(set_zero)(&z);
    F2(inv)(&z, &z);
    assert_true(F2(is_zero)(&z));
    F2(inv_vartime)(&z, &z);
    assert_true(F2(is_zero)(&z));
    for (int i = 0; i < 9; i++) {
        TT(rand_fp2_)(&batch[i]);
        if (i % 4 == 1)
            F2(set_zero)(&batch[i]);
        orig[i] = batch[i];
    }
    F2S(inv_vartime)(batch, scratch, 9);
    for (int i = 0; i < 9; i++) {
        F2T x;
        F2(inv)(&x, &orig[i]);
        assert_true(F2(equal)(&x, &batch[i]));
    }
}

static void TT(fp2_sqrt)(void **state)
{
    (void)state;
    int nonsquares = 0;
    for (int it = 0; it < test_iters(40); it++) {
        F2T a, s, r, x;
        TT(rand_fp2_)(&a);
        if (it == 0)
            F1(set_zero)(&a.c1); /* base-field values: square in Fp2 */
        if (it == 1)
            F1(set_zero)(&a.c0);
        F2(sqr)(&s, &a);
        assert_int_equal(F2(legendre)(&s), F2(is_zero)(&s) ? 0 : 1);
        assert_true(F2(sqrt_vartime)(&r, &s));
        F2(sqr)(&x, &r);
        assert_true(F2(equal)(&x, &s));
        /* the root is a or -a */
        F2(neg)(&x, &a);
        assert_true(F2(equal)(&r, &a) || F2(equal)(&r, &x));
        /* a random element: a square exactly when legendre says so */
        TT(rand_fp2_)(&a);
        if (it == 2) { /* a base-field non-residue: a square in Fp2 */
            F1(from_u64)(&a.c0, FP_NONRESIDUE_OF_CURVE);
            F1(set_zero)(&a.c1);
        }
        int l = F2(legendre)(&a);
        r = a;
        bool ok = F2(sqrt_vartime)(&r, &a);
        assert_int_equal(ok, l == 1);
        if (ok) {
            F2(sqr)(&x, &r);
            assert_true(F2(equal)(&x, &a));
        } else {
            assert_true(F2(equal)(&r, &a)); /* untouched */
            nonsquares++;
        }
    }
    assert_true(nonsquares > 0);
    F2T z, r;
    F2(set_zero)(&z);
    assert_true(F2(sqrt_vartime)(&r, &z));
    assert_true(F2(is_zero)(&r));
}

/* ---- Fp6 and Fp12 ----------------------------------------------------- */

static void TT(rand_fp12_)(F12T *r)
{
    assert_int_equal(F12(random)(r, &test_rng), CUZK_OK);
}

/* The six Fp2 coefficients of a as powers of w (see fp12_tmpl.h). */
static F2T *TT(wcoef_)(F12T *a, int j)
{
    F2T *const c[6] = {&a->c0.c0, &a->c1.c0, &a->c0.c1, &a->c1.c1, &a->c0.c2, &a->c1.c2};
    return c[j];
}

/* Schoolbook reference: Fp12 as Fp2[w]/(w^6 - xi), 36 M2. Independent of the
 * Karatsuba formulas and of the v-layout. */
static void TT(fp12_mul_ref_)(F12T *r, const F12T *a, const F12T *b)
{
    F12T x = *a, y = *b, z;
    F2T acc[11];
    for (int i = 0; i < 11; i++)
        F2(set_zero)(&acc[i]);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            F2T t;
            F2(mul)(&t, TT(wcoef_)(&x, i), TT(wcoef_)(&y, j));
            F2(add)(&acc[i + j], &acc[i + j], &t);
        }
    for (int i = 10; i >= 6; i--) { /* w^i = xi·w^(i-6) */
        F2T t;
        F2(mul_by_nonresidue)(&t, &acc[i]);
        F2(add)(&acc[i - 6], &acc[i - 6], &t);
    }
    for (int j = 0; j < 6; j++)
        *TT(wcoef_)(&z, j) = acc[j];
    *r = z;
}

/* Schoolbook reference for Fp6 = Fp2[v]/(v^3 - xi), 9 M2. */
static void TT(fp6_mul_ref_)(F6T *r, const F6T *a, const F6T *b)
{
    const F2T *x[3] = {&a->c0, &a->c1, &a->c2}, *y[3] = {&b->c0, &b->c1, &b->c2};
    F2T acc[5], t;
    for (int i = 0; i < 5; i++)
        F2(set_zero)(&acc[i]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            F2(mul)(&t, x[i], y[j]);
            F2(add)(&acc[i + j], &acc[i + j], &t);
        }
    for (int i = 4; i >= 3; i--) {
        F2(mul_by_nonresidue)(&t, &acc[i]);
        F2(add)(&acc[i - 3], &acc[i - 3], &t);
    }
    r->c0 = acc[0];
    r->c1 = acc[1];
    r->c2 = acc[2];
}

static void TT(fp6_arith)(void **state)
{
    (void)state;
    for (int it = 0; it < test_iters(100); it++) {
        F6T a, b, x, y;
        assert_int_equal(F6(random)(&a, &test_rng), CUZK_OK);
        assert_int_equal(F6(random)(&b, &test_rng), CUZK_OK);
        F6(mul)(&x, &a, &b);
        TT(fp6_mul_ref_)(&y, &a, &b);
        assert_true(F6(equal)(&x, &y));
        x = a;
        F6(mul)(&x, &x, &b); /* aliasing */
        assert_true(F6(equal)(&x, &y));
        F6(sqr)(&x, &a);
        TT(fp6_mul_ref_)(&y, &a, &a);
        assert_true(F6(equal)(&x, &y));
        /* sparse products against full ones */
        y = b;
        F2(set_zero)(&y.c2);
        F6(mul_by_01)(&x, &a, &b.c0, &b.c1);
        TT(fp6_mul_ref_)(&y, &a, &y);
        assert_true(F6(equal)(&x, &y));
        F6(set_zero)(&y);
        y.c1 = b.c1;
        F6(mul_by_1)(&x, &a, &b.c1);
        TT(fp6_mul_ref_)(&y, &a, &y);
        assert_true(F6(equal)(&x, &y));
        F6(set_zero)(&y);
        y.c0 = b.c0;
        F6(mul_fp2)(&x, &a, &b.c0);
        TT(fp6_mul_ref_)(&y, &a, &y);
        assert_true(F6(equal)(&x, &y));
        F6(set_zero)(&y);
        F2(set_one)(&y.c1); /* v */
        F6(mul_by_nonresidue)(&x, &a);
        TT(fp6_mul_ref_)(&y, &a, &y);
        assert_true(F6(equal)(&x, &y));
        /* inverse */
        F6(inv)(&x, &a);
        F6(inv_vartime)(&y, &a);
        assert_true(F6(equal)(&x, &y));
        F6(mul)(&x, &x, &a);
        F6(set_one)(&y);
        assert_true(F6(equal)(&x, &y));
    }
    F6T z;
    F6(set_zero)(&z);
    F6(inv)(&z, &z);
    assert_true(F6(is_zero)(&z));
    F6(inv_vartime)(&z, &z);
    assert_true(F6(is_zero)(&z));
}

static void TT(fp12_arith)(void **state)
{
    (void)state;
    for (int it = 0; it < test_iters(60); it++) {
        F12T a, b, c, x, y;
        TT(rand_fp12_)(&a);
        TT(rand_fp12_)(&b);
        TT(rand_fp12_)(&c);
        F12(mul)(&x, &a, &b);
        TT(fp12_mul_ref_)(&y, &a, &b);
        assert_true(F12(equal)(&x, &y));
        x = a;
        F12(mul)(&x, &x, &b);
        assert_true(F12(equal)(&x, &y));
        F12(sqr)(&x, &a);
        TT(fp12_mul_ref_)(&y, &a, &a);
        assert_true(F12(equal)(&x, &y));
        /* distributivity with add/sub */
        F12(add)(&x, &a, &b);
        F12(mul)(&x, &x, &c);
        F12(mul)(&y, &b, &c);
        F12(sub)(&x, &x, &y);
        F12(mul)(&y, &a, &c);
        assert_true(F12(equal)(&x, &y));
        /* inverse */
        F12(inv)(&x, &a);
        F12(inv_vartime)(&y, &a);
        assert_true(F12(equal)(&x, &y));
        F12(mul)(&x, &x, &a);
        assert_true(F12(is_one)(&x));
        /* the sparse line product */
        F12(set_zero)(&y);
#if TW_TWIST_M
        y.c0.c0 = b.c0.c0;
        y.c0.c1 = b.c0.c1;
        y.c1.c1 = b.c1.c1;
        F12(mul_by_014)(&x, &a, &b.c0.c0, &b.c0.c1, &b.c1.c1);
#else
        y.c0.c0 = b.c0.c0;
        y.c1.c0 = b.c1.c0;
        y.c1.c1 = b.c1.c1;
        F12(mul_by_034)(&x, &a, &b.c0.c0, &b.c1.c0, &b.c1.c1);
#endif
        TT(fp12_mul_ref_)(&y, &a, &y);
        assert_true(F12(equal)(&x, &y));
    }
    F12T z, zero;
    F12(set_zero)(&zero);
    F12(inv)(&z, &zero);
    assert_true(F12(equal)(&z, &zero));
    F12(inv_vartime)(&z, &zero);
    assert_true(F12(equal)(&z, &zero));
}

/* frobenius(a, k) = a^(p^k) for Fp6 and Fp12: checks every generated
 * constant. conj = frobenius 6. */
static void TT(frobenius)(void **state)
{
    (void)state;
    uint64_t e[12 * TT_LIMBS];
    for (unsigned k = 1; k <= 7; k++) {
        size_t n = TT(p_pow_)(e, k);
        F12T a, x, y;
        TT(rand_fp12_)(&a);
        F12(pow)(&x, &a, e, n);
        F12(frobenius)(&y, &a, k);
        assert_true(F12(equal)(&x, &y));
        if (k == 6) {
            F12(conj)(&y, &a);
            assert_true(F12(equal)(&x, &y));
        }
        F6T b, u, t;
        assert_int_equal(F6(random)(&b, &test_rng), CUZK_OK);
        F6(frobenius)(&u, &b, k);
        /* b^(p^k) by square-and-multiply in Fp6 through the Fp12 embedding */
        F12(set_zero)(&a);
        a.c0 = b;
        F12(pow)(&x, &a, e, n);
        t = x.c0;
        assert_true(F6(equal)(&t, &u));
    }
    F12T a, x;
    TT(rand_fp12_)(&a);
    F12(frobenius)(&x, &a, 12);
    assert_true(F12(equal)(&x, &a));
}

/* An element of the cyclotomic subgroup: a^((p^6 - 1)(p^2 + 1)). */
static void TT(rand_cyclotomic_)(F12T *g)
{
    F12T a, t;
    TT(rand_fp12_)(&a);
    F12(inv)(&t, &a);
    F12(conj)(&a, &a);
    F12(mul)(&a, &a, &t);
    F12(frobenius)(&t, &a, 2);
    F12(mul)(g, &a, &t);
}

static void TT(cyclotomic)(void **state)
{
    (void)state;
    for (int it = 0; it < test_iters(20); it++) {
        F12T g, x, y;
        TT(rand_cyclotomic_)(&g);
        /* in the subgroup: g^(p^4 - p^2 + 1) = 1, i.e. g^(p^4)·g = g^(p^2) */
        F12(frobenius)(&x, &g, 4);
        F12(mul)(&x, &x, &g);
        F12(frobenius)(&y, &g, 2);
        assert_true(F12(equal)(&x, &y));
        F12(cyclotomic_sqr)(&x, &g);
        F12(sqr)(&y, &g);
        assert_true(F12(equal)(&x, &y));
        x = g;
        F12(cyclotomic_sqr)(&x, &x);
        assert_true(F12(equal)(&x, &y));
        /* conj is the inverse there */
        F12(conj)(&x, &g);
        F12(mul)(&x, &x, &g);
        assert_true(F12(is_one)(&x));
        uint64_t e = rng_next(&test_rng) >> (it % 64);
        if (it == 0)
            e = 0;
        if (it == 1)
            e = 1;
        F12(cyclotomic_pow_u64)(&x, &g, e);
        F12(pow)(&y, &g, &e, 1);
        assert_true(F12(equal)(&x, &y));
    }
}

#define TT_FP12_TESTS                                                                              \
    TT_UNIT(fp6_arith), TT_UNIT(fp12_arith), TT_UNIT(frobenius), TT_UNIT(cyclotomic)

#define TT_FP2_TESTS                                                                               \
    TT_UNIT(fp2_mul_vs_gmp), TT_UNIT(fp2_ring_axioms), TT_UNIT(fp2_nonresidue_frobenius),          \
        TT_UNIT(fp2_inv), TT_UNIT(fp2_sqrt)

#else /* the driver */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_util.h"

#include "ff/bls381_fp12.h"
#include "ff/bn254_fp12.h"

#include "ff/bls381_fp2_params.h"
#define FP_NONRESIDUE_OF_CURVE 2
#include "test_tower.c"
static const struct CMUnitTest bls381_tests[] = {TT_FP2_TESTS, TT_FP12_TESTS};
#undef TT_FP2_TESTS
#undef TT_FP12_TESTS
#undef FP_NONRESIDUE_OF_CURVE
#undef TT
#undef TT_LIMBS
#undef TT_STR_
#undef TT_STR
#undef TT_UNIT
#include "ff/tower_undef.h"

#include "ff/bn254_fp2_params.h"
#define FP_NONRESIDUE_OF_CURVE 3
#include "test_tower.c"
static const struct CMUnitTest bn254_tests[] = {TT_FP2_TESTS, TT_FP12_TESTS};
#undef TT_FP2_TESTS
#undef TT_FP12_TESTS
#undef FP_NONRESIDUE_OF_CURVE
#undef TT
#undef TT_LIMBS
#undef TT_STR_
#undef TT_STR
#undef TT_UNIT
#include "ff/tower_undef.h"

int main(void)
{
    test_seed_init("test_tower");
    int fails = cmocka_run_group_tests_name("bls381 tower", bls381_tests, NULL, NULL);
    fails += cmocka_run_group_tests_name("bn254 tower", bn254_tests, NULL, NULL);
    return fails;
}

#endif
