/*
 * Tests of the constraints layer (src/r1cs): CSR products against GMP, the
 * structure check, the random satisfiable circuits and the satisfiability
 * check that names the first failing constraint.
 *
 * The per-curve tests are written once, below the `#ifdef R1CS_NAME` line,
 * and this file includes itself once per curve (an "X-include", as in
 * test_tower.c): R1N(op), R1F(op) of r1cs/r1cs_tmpl_names.h then resolve to
 * that curve.
 */
#ifdef R1CS_NAME

#include "r1cs/r1cs_tmpl_names.h"
#define TR2(a, b, c) a##_##b##_##c
#define TR1(a, b, c) TR2(a, b, c)
#define TR(name)     TR1(test, R1CS_NAME, name)
#define TR_STR_(x)   #x
#define TR_STR(x)    TR_STR_(x)
#define TR_UNIT(f)                                                                                 \
    {                                                                                              \
        TR_STR(TR(f)), TR(f), NULL, NULL, NULL                                                     \
    }
#define TR_LIMBS (sizeof(R1FT) / sizeof(uint64_t))

static void TR(to_mpz_)(mpz_t z, const R1FT *a)
{
    uint64_t v[TR_LIMBS];
    R1F(to_canonical)(v, a);
    test_mpz_from_limbs(z, v, TR_LIMBS);
}

/* Alternates between no pool and the test's 4-thread pool. */
static pool_t *TR(pool_)(size_t i)
{
    return i % 2 ? test_pool : NULL;
}

static R1FT *TR(witness_)(uint32_t n)
{
    R1FT *w = malloc((n ? n : 1) * sizeof(R1FT));
    assert_non_null(w);
    return w;
}

static void TR(random_)(R1T *r, R1FT **w, uint32_t n_wires, uint32_t n_constraints,
                        uint32_t max_terms)
{
    r1cs_shape_t shape = {.n_wires = n_wires,
                          .n_pub_out = n_wires > 1,
                          .n_pub_in = 0,
                          .n_prv_in = 0,
                          .n_constraints = n_constraints,
                          .n_labels = n_wires};
    *w = TR(witness_)(n_wires);
    assert_int_equal(R1N(r1cs_random)(r, *w, &shape, max_terms, &test_rng), CUZK_OK);
}

/* y = M·w against GMP on canonical integers, for empty, tiny and odd sizes. */
static void TR(mul_vec_vs_gmp)(void **state)
{
    (void)state;
    static const uint32_t sizes[][3] = {{1, 0, 3},   {1, 1, 1},   {5, 1, 5}, {3, 7, 2},
                                        {29, 13, 6}, {17, 64, 3}, {2, 40, 0}};
    mpz_t p, acc, x, y;
    mpz_inits(p, acc, x, y, NULL);
    test_mpz_from_limbs(p, R1F(MODULUS), TR_LIMBS);
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        R1T r;
        R1FT *w;
        TR(random_)(&r, &w, sizes[s][0], sizes[s][1], sizes[s][2]);
        const R1CSR *ms[3] = {&r.a, &r.b, &r.c};
        R1FT *out = TR(witness_)(sizes[s][1]);
        for (int j = 0; j < 3; j++) {
            uint32_t bad = 0;
            assert_true(R1N(csr_is_valid)(ms[j], &bad));
            R1N(csr_mul_vec)(TR(pool_)(s), ms[j], w, out);
            for (uint32_t i = 0; i < ms[j]->n_rows; i++) {
                mpz_set_ui(acc, 0);
                for (uint64_t k = ms[j]->row_ptr[i]; k < ms[j]->row_ptr[i + 1]; k++) {
                    TR(to_mpz_)(x, &ms[j]->val[k]);
                    TR(to_mpz_)(y, &w[ms[j]->col[k]]);
                    mpz_addmul(acc, x, y);
                }
                mpz_mod(acc, acc, p);
                TR(to_mpz_)(x, &out[i]);
                assert_int_equal(mpz_cmp(acc, x), 0);
            }
        }
        free(out);
        free(w);
        R1N(r1cs_free)(&r);
    }
    mpz_clears(p, acc, x, y, NULL);
}

/* The random circuits hold, eval agrees with them, and w[0] = 1. */
static void TR(random_circuit_is_satisfied)(void **state)
{
    (void)state;
    for (int it = 0; it < test_iters(20); it++) {
        uint64_t rnd = rng_next(&test_rng);
        uint32_t n_wires = 1 + (uint32_t)(rnd % 40), n_rows = (uint32_t)((rnd >> 8) % 60);
        R1T r;
        R1FT *w;
        TR(random_)(&r, &w, n_wires, n_rows, 1 + (uint32_t)((rnd >> 16) % 5));
        assert_true(R1F(is_one)(&w[0]));
        uint32_t bad = UINT32_MAX;
        assert_int_equal(R1N(r1cs_check)(TR(pool_)(it), &r, w, &bad), CUZK_OK);
        assert_int_equal(bad, UINT32_MAX);
        R1FT *a = TR(witness_)(n_rows), *b = TR(witness_)(n_rows), *c = TR(witness_)(n_rows);
        R1N(r1cs_eval)(TR(pool_)(it), &r, w, a, b, c);
        for (uint32_t i = 0; i < n_rows; i++) {
            R1FT t;
            R1F(mul)(&t, &a[i], &b[i]);
            assert_true(R1F(equal)(&t, &c[i]));
        }
        free(a);
        free(b);
        free(c);
        free(w);
        R1N(r1cs_free)(&r);
    }
}

/* A broken coefficient in row k is reported as row k; a broken witness value
 * as the first row that eval says fails. */
static void TR(check_names_first_failing_row)(void **state)
{
    (void)state;
    for (int it = 0; it < test_iters(10); it++) {
        R1T r;
        R1FT *w, one;
        R1F(set_one)(&one);
        uint32_t n_rows = 200;
        TR(random_)(&r, &w, 12, n_rows, 3);
        uint32_t k = (uint32_t)(rng_next(&test_rng) % n_rows), bad = UINT32_MAX;
        while (r.c.row_ptr[k] == r.c.row_ptr[k + 1]) /* C rows are empty only when a·b = 0 */
            k = (k + 1) % n_rows;
        R1FT *v = &r.c.val[r.c.row_ptr[k]];
        R1F(add)(v, v, &one);
        /* every row after k broken as well: the lowest is named, on any pool */
        for (uint64_t j = r.c.row_ptr[k + 1]; j < r.c.row_ptr[n_rows]; j++)
            R1F(add)(&r.c.val[j], &r.c.val[j], &one);
        assert_int_equal(R1N(r1cs_check)(TR(pool_)(it), &r, w, &bad), CUZK_EWITNESS);
        assert_int_equal(bad, k);
        assert_int_equal(R1N(r1cs_check)(TR(pool_)(it + 1), &r, w, NULL), CUZK_EWITNESS);
        for (uint64_t j = r.c.row_ptr[k + 1]; j < r.c.row_ptr[n_rows]; j++)
            R1F(sub)(&r.c.val[j], &r.c.val[j], &one);
        R1F(sub)(v, v, &one);
        assert_int_equal(R1N(r1cs_check)(TR(pool_)(it), &r, w, NULL), CUZK_OK);

        uint32_t j = 1 + (uint32_t)(rng_next(&test_rng) % 11);
        R1F(add)(&w[j], &w[j], &one);
        R1FT *a = TR(witness_)(n_rows), *b = TR(witness_)(n_rows), *c = TR(witness_)(n_rows);
        R1N(r1cs_eval)(NULL, &r, w, a, b, c);
        uint32_t expect = n_rows;
        for (uint32_t i = n_rows; i-- > 0;) {
            R1FT t;
            R1F(mul)(&t, &a[i], &b[i]);
            if (!R1F(equal)(&t, &c[i]))
                expect = i;
        }
        cuzk_status_t st = R1N(r1cs_check)(TR(pool_)(it), &r, w, &bad);
        if (expect == n_rows) {
            assert_int_equal(st, CUZK_OK); /* wire j unused, or hit a lucky zero */
        } else {
            assert_int_equal(st, CUZK_EWITNESS);
            assert_int_equal(bad, expect);
        }
        free(a);
        free(b);
        free(c);
        free(w);
        R1N(r1cs_free)(&r);
    }
}

/* csr_is_valid names the first malformed row. */
static void TR(csr_validity)(void **state)
{
    (void)state;
    R1CSR m;
    assert_int_equal(R1N(csr_alloc)(&m, 2, 4, 4), CUZK_OK);
    static const uint64_t row_ptr[] = {0, 2, 4};
    static const uint32_t col[] = {0, 2, 1, 3};
    memcpy(m.row_ptr, row_ptr, sizeof(row_ptr));
    memcpy(m.col, col, sizeof(col));
    for (int i = 0; i < 4; i++)
        R1F(from_u64)(&m.val[i], (uint64_t)i + 1);
    uint32_t bad = 99;
    assert_true(R1N(csr_is_valid)(&m, &bad));
    assert_int_equal(R1N(csr_nnz)(&m), 4);
    m.col[3] = 1; /* row 1: 1, 1 */
    assert_false(R1N(csr_is_valid)(&m, &bad));
    assert_int_equal(bad, 1);
    m.col[3] = 3;
    m.col[1] = 4; /* row 0: column 4 of 4 */
    assert_false(R1N(csr_is_valid)(&m, &bad));
    assert_int_equal(bad, 0);
    m.col[1] = 2;
    m.row_ptr[0] = 1;
    assert_false(R1N(csr_is_valid)(&m, &bad));
    assert_int_equal(bad, 2);
    R1N(csr_free)(&m);
    R1N(csr_free)(&m); /* freeing an empty matrix is fine */
}

static const struct CMUnitTest TR(tests)[] = {
    TR_UNIT(mul_vec_vs_gmp),
    TR_UNIT(random_circuit_is_satisfied),
    TR_UNIT(check_names_first_failing_row),
    TR_UNIT(csr_validity),
};

#undef TR2
#undef TR1
#undef TR
#undef TR_STR_
#undef TR_STR
#undef TR_UNIT
#undef TR_LIMBS
#include "r1cs/r1cs_tmpl_undef.h"

#else /* the driver */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"

#include "r1cs/r1cs.h"
#include "util/pool.h"

static pool_t *test_pool;

#define R1CS_NAME bn254
#define R1CS_FR   bn254_fr
#include "test_r1cs.c" // NOLINT(bugprone-suspicious-include): X-include

#define R1CS_NAME bls381
#define R1CS_FR   bls381_fr
#include "test_r1cs.c" // NOLINT(bugprone-suspicious-include): X-include

/* The curve-dispatching r1cs_check refuses a witness of the wrong curve or
 * length, and accepts the right one. */
static void test_tagged_check(void **state)
{
    (void)state;
    r1cs_shape_t shape = {.n_wires = 6, .n_constraints = 9, .n_labels = 6};
    r1cs_t r = {.curve = R1CS_CURVE_BN254};
    r1cs_witness_t w;
    assert_int_equal(r1cs_witness_alloc(&w, R1CS_CURVE_BN254, 6), CUZK_OK);
    assert_int_equal(bn254_r1cs_random(&r.u.bn254, w.v.bn254, &shape, 2, &test_rng), CUZK_OK);
    uint32_t bad;
    assert_int_equal(r1cs_check(test_pool, &r, &w, &bad), CUZK_OK);
    assert_int_equal(r1cs_shape(&r)->n_constraints, 9);
    w.n = 5;
    assert_int_equal(r1cs_check(test_pool, &r, &w, &bad), CUZK_EINVAL);
    w.n = 6;
    r1cs_witness_t other;
    assert_int_equal(r1cs_witness_alloc(&other, R1CS_CURVE_BLS12_381, 6), CUZK_OK);
    assert_int_equal(r1cs_check(test_pool, &r, &other, &bad), CUZK_EINVAL);
    r1cs_witness_free(&other);
    assert_int_equal(r1cs_witness_alloc(&other, R1CS_CURVE_NONE, 6), CUZK_EINVAL);
    assert_int_equal(other.curve, R1CS_CURVE_NONE);
    r1cs_witness_free(&w);
    r1cs_free(&r);
    r1cs_free(&r);
    assert_string_equal(r1cs_curve_name(R1CS_CURVE_BN254), "BN254");
    assert_string_equal(r1cs_curve_name(R1CS_CURVE_BLS12_381), "BLS12-381");
}

static const struct CMUnitTest tagged_tests[] = {
    cmocka_unit_test(test_tagged_check),
};

int main(void)
{
    test_seed_init("test_r1cs");
    cuzk_status_t st;
    test_pool = pool_new(4, &st);
    if (!test_pool)
        return 1;
    int fails = cmocka_run_group_tests_name("bn254 r1cs", test_bn254_tests, NULL, NULL);
    fails += cmocka_run_group_tests_name("bls381 r1cs", test_bls381_tests, NULL, NULL);
    fails += cmocka_run_group_tests_name("r1cs", tagged_tests, NULL, NULL);
    pool_free(test_pool);
    return fails;
}

#endif
