/*
 * Prime-field arithmetic (src/ff/fp_tmpl.h) against GMP, for the four
 * fields: BLS12-381 Fp and Fr, BN254 Fp and Fr.
 *
 * Every operation is checked on seeded random elements and on edge values
 * (0, 1, 2, p-1, p-2, (p±1)/2, R mod p, R^2 mod p, 2^(bits-1), limb
 * boundaries); the multiplication and squaring kernels are also called
 * directly, the portable ones and (on x86-64 with BMI2/ADX) the MULX/ADX
 * ones, on the same raw limbs, so both paths are covered whatever
 * CUZK_NO_ASM says.
 *
 *     CUZK_TEST_SEED=<seed> ./tests/test_ff      replay a failure
 *     CUZK_TEST_ITERS=<k>   ./tests/test_ff      k times more random cases
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"

#include "ff/bls381_fp.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fp.h"
#include "ff/bn254_fr.h"
#include "ff/fp_mul.h"
#include "util/cpu.h"

/* ---- shared helpers ------------------------------------------------------ */

#if FP_HAVE_ADX_KERNELS
/* Whether the MULX/ADX kernels may run here. Asked of the processor, not of
 * cpu_has_mulx_adx, so that a CUZK_NO_ASM=1 run still tests them
 * directly while the dispatched calls take the portable path. */
static bool can_run_adx(void)
{
    return cpu_supports_mulx_adx();
}
#endif

/* The squaring kernels (dispatched and, where it may run, MULX/ADX) against
 * GMP on raw limbs x < p: r = x·x·R^-1 mod p, also in place (r = a). */
static void check_sqr_kernels(size_t n, const uint64_t *x, const uint64_t *p, uint64_t inv,
                              const mpz_t zp, const mpz_t zrinv)
{
    uint64_t r[6], want[6];
    mpz_t a;
    mpz_init(a);
    test_mpz_from_limbs(a, x, n);
    mpz_mul(a, a, a);
    mpz_mul(a, a, zrinv);
    mpz_mod(a, a, zp);
    test_mpz_to_limbs(want, n, a);
    mpz_clear(a);
    void (*kern[2])(uint64_t *, const uint64_t *, const uint64_t *,
                    uint64_t) = {n == 4 ? fp_mont_sqr4 : fp_mont_sqr6, NULL};
#if FP_HAVE_ADX_KERNELS
    if (can_run_adx())
        kern[1] = n == 4 ? fp_mont_sqr4_adx : fp_mont_sqr6_adx;
#endif
    for (int k = 0; k < 2; k++) {
        if (!kern[k])
            continue;
        memset(r, 0, sizeof(r));
        kern[k](r, x, p, inv);
        assert_memory_equal(r, want, n * 8);
        memcpy(r, x, n * 8);
        kern[k](r, r, p, inv);
        assert_memory_equal(r, want, n * 8);
    }
}

/* Both kernel paths for N limbs, checked against each other and GMP:
 * r = x·y·R^-1 mod p on raw limbs x, y < p; and the squarings of x and y. */
static void check_kernels(size_t n, const uint64_t *x, const uint64_t *y, const uint64_t *p,
                          uint64_t inv, const mpz_t zp, const mpz_t zrinv)
{
    uint64_t r1[6], r2[6], want[6];
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    test_mpz_from_limbs(a, x, n);
    test_mpz_from_limbs(b, y, n);
    mpz_mul(a, a, b);
    mpz_mul(a, a, zrinv);
    mpz_mod(a, a, zp);
    test_mpz_to_limbs(want, n, a);
    if (n == 4) {
        fp_mont_mul4_portable(r1, x, y, p, inv);
        assert_memory_equal(r1, want, 32);
        fp_mont_mul4(r2, x, y, p, inv);
        assert_memory_equal(r2, want, 32);
#if FP_HAVE_ADX_KERNELS
        if (can_run_adx()) {
            memset(r2, 0, sizeof(r2));
            fp_mont_mul4_adx(r2, x, y, p, inv);
            assert_memory_equal(r2, want, 32);
        }
#endif
    } else {
        fp_mont_mul6_portable(r1, x, y, p, inv);
        assert_memory_equal(r1, want, 48);
        fp_mont_mul6(r2, x, y, p, inv);
        assert_memory_equal(r2, want, 48);
#if FP_HAVE_ADX_KERNELS
        if (can_run_adx()) {
            memset(r2, 0, sizeof(r2));
            fp_mont_mul6_adx(r2, x, y, p, inv);
            assert_memory_equal(r2, want, 48);
        }
#endif
    }
    mpz_clears(a, b, NULL);
    check_sqr_kernels(n, x, p, inv, zp, zrinv);
    check_sqr_kernels(n, y, p, inv, zp, zrinv);
}

/* The aliasing contract of the kernels: r = a, r = b, r = a = b. */
static void check_kernel_alias(size_t n, const uint64_t *x, const uint64_t *y, const uint64_t *p,
                               uint64_t inv)
{
    void (*kern[2])(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *,
                    uint64_t) = {n == 4 ? fp_mont_mul4_portable : fp_mont_mul6_portable, NULL};
#if FP_HAVE_ADX_KERNELS
    if (can_run_adx())
        kern[1] = n == 4 ? fp_mont_mul4_adx : fp_mont_mul6_adx;
#endif
    for (int k = 0; k < 2; k++) {
        if (!kern[k])
            continue;
        uint64_t want[6], want2[6], t[6];
        kern[k](want, x, y, p, inv);
        memcpy(t, x, n * 8);
        kern[k](t, t, y, p, inv);
        assert_memory_equal(t, want, n * 8);
        memcpy(t, y, n * 8);
        kern[k](t, x, t, p, inv);
        assert_memory_equal(t, want, n * 8);
        kern[k](want2, x, x, p, inv);
        memcpy(t, x, n * 8);
        kern[k](t, t, t, p, inv);
        assert_memory_equal(t, want2, n * 8);
    }
}

static void assert_mpz_eq(const mpz_t a, const mpz_t b)
{
    if (mpz_cmp(a, b) != 0) {
        gmp_printf("  got  %Zx\n  want %Zx\n", a, b);
        fail();
    }
}

/* ---- the per-field suite ------------------------------------------------- */

/*
 * FIELD_SUITE(F, N) defines the test functions test_F_* for the field F
 * (bls381_fp, ...) of N limbs. Values are compared through their canonical
 * integers: can(x) = to_canonical(x) as an mpz.
 */
#define FIELD_SUITE(F, N)                                                                          \
    typedef struct {                                                                               \
        mpz_t p, r, rinv, tmp;                                                                     \
        F##_t edge[16];                                                                            \
        size_t nedge;                                                                              \
    } F##_ctx_t;                                                                                   \
                                                                                                   \
    static void F##_can(mpz_t z, const F##_t *x)                                                   \
    {                                                                                              \
        uint64_t v[N];                                                                             \
        F##_to_canonical(v, x);                                                                    \
        test_mpz_from_limbs(z, v, N);                                                              \
    }                                                                                              \
                                                                                                   \
    static void F##_from_mpz(F##_t *x, const mpz_t z)                                              \
    {                                                                                              \
        uint64_t v[N];                                                                             \
        test_mpz_to_limbs(v, N, z);                                                                \
        assert_true(F##_from_canonical(x, v));                                                     \
    }                                                                                              \
                                                                                                   \
    static void F##_ctx_init(F##_ctx_t *c)                                                         \
    {                                                                                              \
        mpz_inits(c->p, c->r, c->rinv, c->tmp, NULL);                                              \
        test_mpz_from_limbs(c->p, F##_MODULUS, N);                                                 \
        mpz_setbit(c->r, 64 * N);                                                                  \
        assert_true(mpz_invert(c->rinv, c->r, c->p));                                              \
        mpz_mod(c->r, c->r, c->p);                                                                 \
        /* edge values, given as canonical integers */                                             \
        mpz_t e[16];                                                                               \
        size_t k = 0;                                                                              \
        for (int i = 0; i < 16; i++)                                                               \
            mpz_init(e[i]);                                                                        \
        mpz_set_ui(e[k++], 0);                                                                     \
        mpz_set_ui(e[k++], 1);                                                                     \
        mpz_set_ui(e[k++], 2);                                                                     \
        mpz_sub_ui(e[k++], c->p, 1);                                                               \
        mpz_sub_ui(e[k++], c->p, 2);                                                               \
        mpz_fdiv_q_2exp(e[k++], c->p, 1);                             /* (p-1)/2 */                \
        mpz_cdiv_q_2exp(e[k++], c->p, 1);                             /* (p+1)/2 */                \
        mpz_set(e[k++], c->r);                                        /* R mod p */                \
        mpz_mul(e[k], c->r, c->r), mpz_mod(e[k], e[k], c->p), k++;    /* R^2 mod p */              \
        mpz_setbit(e[k++], (mp_bitcnt_t)mpz_sizeinbase(c->p, 2) - 1); /* 2^(bits-1) */             \
        mpz_setbit(e[k], 64), mpz_sub_ui(e[k], e[k], 1), k++;         /* 2^64 - 1 */               \
        mpz_setbit(e[k++], 64 * (N - 1));                             /* 2^(64(N-1)) */            \
        mpz_setbit(e[k], 64), mpz_sub(e[k], c->p, e[k]), k++;         /* p - 2^64 */               \
        mpz_invert(e[k], c->r, c->p), k++; /* R^-1: Montgomery limbs 1 */                          \
        for (size_t i = 0; i < k; i++)                                                             \
            F##_from_mpz(&c->edge[i], e[i]);                                                       \
        c->nedge = k;                                                                              \
        for (int i = 0; i < 16; i++)                                                               \
            mpz_clear(e[i]);                                                                       \
    }                                                                                              \
                                                                                                   \
    static void F##_ctx_clear(F##_ctx_t *c)                                                        \
    {                                                                                              \
        mpz_clears(c->p, c->r, c->rinv, c->tmp, NULL);                                             \
    }                                                                                              \
                                                                                                   \
    /* x = the i-th test element: edge values first, then random ones. */                          \
    static void F##_pick(F##_ctx_t *c, F##_t *x, int i)                                            \
    {                                                                                              \
        if ((size_t)i < c->nedge)                                                                  \
            *x = c->edge[i];                                                                       \
        else                                                                                       \
            assert_int_equal(F##_random(x, &test_rng), CUZK_OK);                                   \
    }                                                                                              \
                                                                                                   \
    static void test_##F##_constants(void **state)                                                 \
    {                                                                                              \
        (void)state;                                                                               \
        F##_ctx_t c;                                                                               \
        F##_ctx_init(&c);                                                                          \
        mpz_t z;                                                                                   \
        mpz_init(z);                                                                               \
        test_mpz_from_limbs(z, F##_ONE.l, N); /* R mod p */                                        \
        assert_mpz_eq(z, c.r);                                                                     \
        test_mpz_from_limbs(z, F##_R2.l, N);                                                       \
        mpz_mul(c.tmp, c.r, c.r);                                                                  \
        mpz_mod(c.tmp, c.tmp, c.p);                                                                \
        assert_mpz_eq(z, c.tmp);                                                                   \
        /* inv = -p^-1 mod 2^64 */                                                                 \
        assert_true(F##_MODULUS[0] * (uint64_t)F##_INV_TEST == (uint64_t)-1);                      \
        /* the spare bit the kernels rely on */                                                    \
        assert_true(F##_MODULUS[N - 1] >> 63 == 0);                                                \
        assert_true(mpz_probab_prime_p(c.p, 30) > 0);                                              \
        /* two-adicity */                                                                          \
        mpz_sub_ui(z, c.p, 1);                                                                     \
        assert_int_equal(F##_two_adicity(), mpz_scan1(z, 0));                                      \
        /* ONE is 1, from_u64 agrees */                                                            \
        F##_t x;                                                                                   \
        F##_set_one(&x);                                                                           \
        F##_can(z, &x);                                                                            \
        assert_int_equal(mpz_cmp_ui(z, 1), 0);                                                     \
        F##_from_u64(&x, 123456789);                                                               \
        F##_can(z, &x);                                                                            \
        assert_int_equal(mpz_cmp_ui(z, 123456789), 0);                                             \
        mpz_clear(z);                                                                              \
        F##_ctx_clear(&c);                                                                         \
    }                                                                                              \
                                                                                                   \
    /* add, sub, neg, dbl, half, mul, sqr and the raw kernels. */                                  \
    static void test_##F##_arith(void **state)                                                     \
    {                                                                                              \
        (void)state;                                                                               \
        F##_ctx_t c;                                                                               \
        F##_ctx_init(&c);                                                                          \
        mpz_t za, zb, zr, zw, half;                                                                \
        mpz_inits(za, zb, zr, zw, half, NULL);                                                     \
        mpz_set_ui(half, 2);                                                                       \
        assert_true(mpz_invert(half, half, c.p));                                                  \
        int total = (int)c.nedge + test_iters(300);                                                \
        for (int i = 0; i < total; i++) {                                                          \
            for (int j = 0; j < total; j += (i < (int)c.nedge && j < (int)c.nedge) ? 1 : 37) {     \
                F##_t a, b, r, s;                                                                  \
                F##_pick(&c, &a, i);                                                               \
                F##_pick(&c, &b, j);                                                               \
                F##_can(za, &a);                                                                   \
                F##_can(zb, &b);                                                                   \
                /* add */                                                                          \
                F##_add(&r, &a, &b);                                                               \
                F##_can(zr, &r);                                                                   \
                mpz_add(zw, za, zb), mpz_mod(zw, zw, c.p);                                         \
                assert_mpz_eq(zr, zw);                                                             \
                /* sub */                                                                          \
                F##_sub(&r, &a, &b);                                                               \
                F##_can(zr, &r);                                                                   \
                mpz_sub(zw, za, zb), mpz_mod(zw, zw, c.p);                                         \
                assert_mpz_eq(zr, zw);                                                             \
                /* mul */                                                                          \
                F##_mul(&r, &a, &b);                                                               \
                F##_can(zr, &r);                                                                   \
                mpz_mul(zw, za, zb), mpz_mod(zw, zw, c.p);                                         \
                assert_mpz_eq(zr, zw);                                                             \
                /* aliasing through the template */                                                \
                s = a;                                                                             \
                F##_mul(&s, &s, &b);                                                               \
                assert_true(F##_equal(&s, &r));                                                    \
                s = b;                                                                             \
                F##_add(&s, &a, &s);                                                               \
                F##_add(&r, &a, &b);                                                               \
                assert_true(F##_equal(&s, &r));                                                    \
                /* the kernels on the raw Montgomery limbs */                                      \
                check_kernels(N, a.l, b.l, F##_MODULUS, F##_INV_TEST, c.p, c.rinv);                \
                if (j == 0 || j == i)                                                              \
                    check_kernel_alias(N, a.l, b.l, F##_MODULUS, F##_INV_TEST);                    \
            }                                                                                      \
            F##_t a, r;                                                                            \
            F##_pick(&c, &a, i);                                                                   \
            F##_can(za, &a);                                                                       \
            F##_neg(&r, &a);                                                                       \
            F##_can(zr, &r);                                                                       \
            mpz_neg(zw, za), mpz_mod(zw, zw, c.p);                                                 \
            assert_mpz_eq(zr, zw);                                                                 \
            F##_dbl(&r, &a);                                                                       \
            F##_can(zr, &r);                                                                       \
            mpz_mul_2exp(zw, za, 1), mpz_mod(zw, zw, c.p);                                         \
            assert_mpz_eq(zr, zw);                                                                 \
            F##_half(&r, &a);                                                                      \
            F##_can(zr, &r);                                                                       \
            mpz_mul(zw, za, half), mpz_mod(zw, zw, c.p);                                           \
            assert_mpz_eq(zr, zw);                                                                 \
            F##_sqr(&r, &a);                                                                       \
            F##_can(zr, &r);                                                                       \
            mpz_mul(zw, za, za), mpz_mod(zw, zw, c.p);                                             \
            assert_mpz_eq(zr, zw);                                                                 \
            r = a;                                                                                 \
            F##_sqr(&r, &r);                                                                       \
            F##_can(zr, &r);                                                                       \
            assert_mpz_eq(zr, zw);                                                                 \
        }                                                                                          \
        /* raw kernel inputs that no canonical edge value produces: limbs                          \
         * p-1, p-2, and random limbs below p */                                                   \
        for (int i = 0; i < test_iters(2000); i++) {                                               \
            uint64_t x[N], y[N];                                                                   \
            mpz_urandomm_like(c.tmp, c.p, i % 3);                                                  \
            test_mpz_to_limbs(x, N, c.tmp);                                                        \
            mpz_urandomm_like(c.tmp, c.p, (i / 3) % 3);                                            \
            test_mpz_to_limbs(y, N, c.tmp);                                                        \
            check_kernels(N, x, y, F##_MODULUS, F##_INV_TEST, c.p, c.rinv);                        \
        }                                                                                          \
        mpz_clears(za, zb, zr, zw, half, NULL);                                                    \
        F##_ctx_clear(&c);                                                                         \
    }                                                                                              \
                                                                                                   \
    /* inv, inv_vartime, batch inverse, pow, legendre, sqrt. */                                    \
    static void test_##F##_inv_pow_sqrt(void **state)                                              \
    {                                                                                              \
        (void)state;                                                                               \
        F##_ctx_t c;                                                                               \
        F##_ctx_init(&c);                                                                          \
        mpz_t za, zr, zw, ze;                                                                      \
        mpz_inits(za, zr, zw, ze, NULL);                                                           \
        int total = (int)c.nedge + test_iters(60);                                                 \
        for (int i = 0; i < total; i++) {                                                          \
            F##_t a, r, r2;                                                                        \
            F##_pick(&c, &a, i);                                                                   \
            F##_can(za, &a);                                                                       \
            /* inverses; 0 maps to 0 */                                                            \
            F##_inv(&r, &a);                                                                       \
            F##_inv_vartime(&r2, &a);                                                              \
            F##_can(zr, &r);                                                                       \
            if (mpz_sgn(za) == 0)                                                                  \
                mpz_set_ui(zw, 0);                                                                 \
            else                                                                                   \
                assert_true(mpz_invert(zw, za, c.p));                                              \
            assert_mpz_eq(zr, zw);                                                                 \
            F##_can(zr, &r2);                                                                      \
            assert_mpz_eq(zr, zw);                                                                 \
            r = a;                                                                                 \
            F##_inv_vartime(&r, &r);                                                               \
            assert_true(F##_equal(&r, &r2));                                                       \
            /* pow with an exponent of 0 .. N+1 random limbs */                                    \
            uint64_t e[N + 2];                                                                     \
            size_t n = (size_t)i % (N + 2);                                                        \
            for (size_t k = 0; k < n; k++)                                                         \
                e[k] = rng_next(&test_rng) >> (i % 64);                                            \
            F##_pow(&r, &a, e, n);                                                                 \
            F##_can(zr, &r);                                                                       \
            test_mpz_from_limbs(ze, e, n);                                                         \
            mpz_powm(zw, za, ze, c.p);                                                             \
            assert_mpz_eq(zr, zw);                                                                 \
            /* legendre */                                                                         \
            assert_int_equal(F##_legendre(&a), mpz_legendre(za, c.p));                             \
            /* sqrt: squares have a root whose square is the input; non-residues none */           \
            F##_sqr(&r2, &a);                                                                      \
            assert_true(F##_sqrt_vartime(&r, &r2));                                                \
            F##_sqr(&r, &r);                                                                       \
            assert_true(F##_equal(&r, &r2));                                                       \
            if (mpz_legendre(za, c.p) == -1) {                                                     \
                F##_t keep = c.edge[3];                                                            \
                r = keep;                                                                          \
                assert_false(F##_sqrt_vartime(&r, &a));                                            \
                assert_true(F##_equal(&r, &keep)); /* untouched */                                 \
            } else {                                                                               \
                assert_true(F##_sqrt_vartime(&r, &a));                                             \
                F##_sqr(&r, &r);                                                                   \
                assert_true(F##_equal(&r, &a));                                                    \
            }                                                                                      \
        }                                                                                          \
        /* batch inverse with zeros inside and at both ends */                                     \
        enum { BATCH = 37 };                                                                       \
        F##_t v[BATCH], w[BATCH], scratch[BATCH];                                                  \
        for (int i = 0; i < BATCH; i++) {                                                          \
            if (i == 0 || i == BATCH - 1 || i % 5 == 2)                                            \
                F##_set_zero(&v[i]);                                                               \
            else                                                                                   \
                F##_pick(&c, &v[i], (int)c.nedge + i);                                             \
            w[i] = v[i];                                                                           \
        }                                                                                          \
        F##s_inv_vartime(w, scratch, BATCH);                                                       \
        for (int i = 0; i < BATCH; i++) {                                                          \
            F##_t want;                                                                            \
            F##_inv(&want, &v[i]);                                                                 \
            assert_true(F##_equal(&w[i], &want));                                                  \
        }                                                                                          \
        F##s_inv_vartime(w, scratch, 0); /* empty batch: nothing to do */                          \
        mpz_clears(za, zr, zw, ze, NULL);                                                          \
        F##_ctx_clear(&c);                                                                         \
    }                                                                                              \
                                                                                                   \
    /* canonical limbs, bytes, decimal. */                                                         \
    static void test_##F##_encodings(void **state)                                                 \
    {                                                                                              \
        (void)state;                                                                               \
        F##_ctx_t c;                                                                               \
        F##_ctx_init(&c);                                                                          \
        mpz_t za, zr;                                                                              \
        mpz_inits(za, zr, NULL);                                                                   \
        int total = (int)c.nedge + test_iters(200);                                                \
        for (int i = 0; i < total; i++) {                                                          \
            F##_t a, r;                                                                            \
            F##_pick(&c, &a, i);                                                                   \
            F##_can(za, &a);                                                                       \
            /* canonical round trip */                                                             \
            uint64_t v[N];                                                                         \
            F##_to_canonical(v, &a);                                                               \
            assert_true(F##_from_canonical(&r, v));                                                \
            assert_true(F##_equal(&r, &a));                                                        \
            /* bytes, both orders, against mpz_export */                                           \
            unsigned char le[8 * N + 9], be[8 * N + 9], want[8 * N];                               \
            memset(want, 0, sizeof(want));                                                         \
            size_t cnt = 0;                                                                        \
            mpz_export(want, &cnt, -1, 1, 0, 0, za);                                               \
            F##_to_bytes_le(le, &a);                                                               \
            assert_memory_equal(le, want, 8 * N);                                                  \
            F##_to_bytes_be(be, &a);                                                               \
            for (size_t k = 0; k < 8 * N; k++)                                                     \
                assert_int_equal(be[k], want[8 * N - 1 - k]);                                      \
            assert_int_equal(F##_from_bytes_le(&r, le, 8 * N), CUZK_OK);                           \
            assert_true(F##_equal(&r, &a));                                                        \
            assert_int_equal(F##_from_bytes_be(&r, be, 8 * N), CUZK_OK);                           \
            assert_true(F##_equal(&r, &a));                                                        \
            /* over-long input: zero high bytes accepted, any other byte not */                    \
            memset(le + 8 * N, 0, 9);                                                              \
            assert_int_equal(F##_from_bytes_le(&r, le, 8 * N + 9), CUZK_OK);                       \
            assert_true(F##_equal(&r, &a));                                                        \
            le[8 * N + (size_t)i % 9] = (unsigned char)(1 + i % 255);                              \
            assert_int_equal(F##_from_bytes_le(&r, le, 8 * N + 9), CUZK_ENONCANONICAL);            \
            memmove(be + 9, be, 8 * N);                                                            \
            memset(be, 0, 9);                                                                      \
            assert_int_equal(F##_from_bytes_be(&r, be, 8 * N + 9), CUZK_OK);                       \
            assert_true(F##_equal(&r, &a));                                                        \
            be[(size_t)i % 9] = 0x80;                                                              \
            assert_int_equal(F##_from_bytes_be(&r, be, 8 * N + 9), CUZK_ENONCANONICAL);            \
            /* decimal */                                                                          \
            char dec[F##_DEC_MAX], want_dec[F##_DEC_MAX + 8];                                      \
            size_t len = F##_to_dec(dec, &a);                                                      \
            mpz_get_str(want_dec, 10, za);                                                         \
            assert_string_equal(dec, want_dec);                                                    \
            assert_int_equal(len, strlen(want_dec));                                               \
            assert_int_equal(F##_from_dec(&r, dec), CUZK_OK);                                      \
            assert_true(F##_equal(&r, &a));                                                        \
            want_dec[0] = '0', want_dec[1] = '0';                                                  \
            strcpy(want_dec + 2, dec); /* leading zeros are allowed */                             \
            assert_int_equal(F##_from_dec(&r, want_dec), CUZK_OK);                                 \
            assert_true(F##_equal(&r, &a));                                                        \
        }                                                                                          \
        /* rejections; r must stay untouched */                                                    \
        F##_t r = c.edge[1], keep = c.edge[1];                                                     \
        unsigned char buf[8 * N + 8];                                                              \
        uint64_t v[N];                                                                             \
        /* p, p + 1, 2^(64N-1), 2^(64N) - 1: not below p */                                        \
        const int cases = 4;                                                                       \
        for (int k = 0; k < cases; k++) {                                                          \
            mpz_set(za, c.p);                                                                      \
            if (k == 1)                                                                            \
                mpz_add_ui(za, za, 1);                                                             \
            if (k == 2)                                                                            \
                mpz_set_ui(za, 0), mpz_setbit(za, 64 * N - 1);                                     \
            if (k == 3)                                                                            \
                mpz_set_ui(za, 0), mpz_setbit(za, 64 * N), mpz_sub_ui(za, za, 1);                  \
            test_mpz_to_limbs(v, N, za);                                                           \
            assert_false(F##_from_canonical(&r, v));                                               \
            memset(buf, 0, sizeof(buf));                                                           \
            mpz_export(buf, NULL, -1, 1, 0, 0, za);                                                \
            assert_int_equal(F##_from_bytes_le(&r, buf, 8 * N), CUZK_ENONCANONICAL);               \
            assert_int_equal(F##_from_bytes_le(&r, buf, 8 * N + 8), CUZK_ENONCANONICAL);           \
            memset(buf, 0, sizeof(buf));                                                           \
            mpz_export(buf, NULL, 1, 1, 0, 0, za);                                                 \
            assert_int_equal(F##_from_bytes_be(&r, buf, 8 * N), CUZK_ENONCANONICAL);               \
            char s[F##_DEC_MAX + 8];                                                               \
            mpz_get_str(s, 10, za);                                                                \
            assert_int_equal(F##_from_dec(&r, s), CUZK_ENONCANONICAL);                             \
        }                                                                                          \
        /* lengths that cannot hold p */                                                           \
        memset(buf, 0, sizeof(buf));                                                               \
        assert_int_equal(F##_from_bytes_le(&r, buf, 8 * N - 1), CUZK_EENCODING);                   \
        assert_int_equal(F##_from_bytes_be(&r, buf, 8 * N - 1), CUZK_EENCODING);                   \
        assert_int_equal(F##_from_bytes_le(&r, buf, 0), CUZK_EENCODING);                           \
        /* malformed decimal */                                                                    \
        static const char *const bad[] = {"",    "-1",   "+1",  " 1",  "1 ",  "1 2",               \
                                          "12a", "0x10", "1e5", "\t7", "1.0", "-0"};               \
        for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)                                  \
            assert_int_equal(F##_from_dec(&r, bad[k]), CUZK_EENCODING);                            \
        char huge[400];                                                                            \
        memset(huge, '9', sizeof(huge) - 1);                                                       \
        huge[sizeof(huge) - 1] = '\0';                                                             \
        assert_int_equal(F##_from_dec(&r, huge), CUZK_ENONCANONICAL);                              \
        huge[sizeof(huge) - 2] = 'x'; /* bad digit after an overflow: still malformed */           \
        assert_int_equal(F##_from_dec(&r, huge), CUZK_EENCODING);                                  \
        assert_true(F##_equal(&r, &keep));                                                         \
        assert_int_equal(F##_from_dec(&r, "0"), CUZK_OK);                                          \
        assert_true(F##_is_zero(&r));                                                              \
        assert_int_equal(F##_from_dec(&r, "0000"), CUZK_OK);                                       \
        assert_true(F##_is_zero(&r));                                                              \
        mpz_clears(za, zr, NULL);                                                                  \
        F##_ctx_clear(&c);                                                                         \
    }                                                                                              \
                                                                                                   \
    /* random, cmov, is_zero, is_one, equal. */                                                    \
    static void test_##F##_misc(void **state)                                                      \
    {                                                                                              \
        (void)state;                                                                               \
        F##_ctx_t c;                                                                               \
        F##_ctx_init(&c);                                                                          \
        mpz_t z;                                                                                   \
        mpz_init(z);                                                                               \
        F##_t first, x;                                                                            \
        assert_int_equal(F##_random(&first, &test_rng), CUZK_OK);                                  \
        bool all_equal = true;                                                                     \
        for (int i = 0; i < test_iters(200); i++) {                                                \
            assert_int_equal(F##_random(&x, &test_rng), CUZK_OK);                                  \
            test_mpz_from_limbs(z, x.l, N); /* the Montgomery limbs must be < p too */             \
            assert_true(mpz_cmp(z, c.p) < 0);                                                      \
            all_equal = all_equal && F##_equal(&x, &first);                                        \
        }                                                                                          \
        assert_false(all_equal);                                                                   \
        assert_int_equal(F##_random(&x, NULL), CUZK_OK); /* the OS generator */                    \
        test_mpz_from_limbs(z, x.l, N);                                                            \
        assert_true(mpz_cmp(z, c.p) < 0);                                                          \
        /* the same seed gives the same stream */                                                  \
        rng_t g1, g2;                                                                              \
        rng_seed(&g1, test_seed);                                                                  \
        rng_seed(&g2, test_seed);                                                                  \
        F##_t y1, y2;                                                                              \
        F##_random(&y1, &g1);                                                                      \
        F##_random(&y2, &g2);                                                                      \
        assert_true(F##_equal(&y1, &y2));                                                          \
        /* predicates */                                                                           \
        assert_true(F##_is_zero(&c.edge[0]));                                                      \
        for (size_t i = 1; i < c.nedge; i++) {                                                     \
            assert_false(F##_is_zero(&c.edge[i]));                                                 \
            assert_int_equal(F##_is_one(&c.edge[i]), i == 1);                                      \
            for (size_t j = 0; j < c.nedge; j++)                                                   \
                assert_int_equal(F##_equal(&c.edge[i], &c.edge[j]), i == j);                       \
        }                                                                                          \
        for (int k = 0; k < N; k++) { /* one bit set in any limb is not zero */                    \
            F##_t t;                                                                               \
            F##_set_zero(&t);                                                                      \
            t.l[k] = (uint64_t)1 << (k * 13 % 64);                                                 \
            assert_false(F##_is_zero(&t));                                                         \
            assert_false(F##_equal(&t, &c.edge[0]));                                               \
        }                                                                                          \
        /* cmov */                                                                                 \
        F##_t r = c.edge[3];                                                                       \
        F##_cmov(&r, &c.edge[4], false);                                                           \
        assert_true(F##_equal(&r, &c.edge[3]));                                                    \
        F##_cmov(&r, &c.edge[4], true);                                                            \
        assert_true(F##_equal(&r, &c.edge[4]));                                                    \
        F##_cmov(&r, &r, true);                                                                    \
        assert_true(F##_equal(&r, &c.edge[4]));                                                    \
        mpz_clear(z);                                                                              \
        F##_ctx_clear(&c);                                                                         \
    }

/* A random value below p, or p-1, or p-2 (kind 0, 1, 2). */
static void mpz_urandomm_like(mpz_t z, const mpz_t p, int kind)
{
    if (kind == 0) {
        uint64_t v[6];
        size_t n = mpz_size(p);
        for (size_t i = 0; i < n; i++)
            v[i] = rng_next(&test_rng);
        test_mpz_from_limbs(z, v, n);
        mpz_mod(z, z, p);
    } else {
        mpz_sub_ui(z, p, (unsigned long)kind);
    }
}

#define bls381_fp_INV_TEST 0x89f3fffcfffcfffdULL
#define bls381_fr_INV_TEST 0xfffffffeffffffffULL
#define bn254_fp_INV_TEST  0x87d20782e4866389ULL
#define bn254_fr_INV_TEST  0xc2e1f593efffffffULL

FIELD_SUITE(bls381_fp, 6)
FIELD_SUITE(bls381_fr, 4)
FIELD_SUITE(bn254_fp, 4)
FIELD_SUITE(bn254_fr, 4)

/* ---- roots of unity (FORMATS.md section 1) ------------------------------- */

/* root (canonical) == hex, and it has order exactly 2^k. */
#define CHECK_ROOT(F, k, g, hex)                                                                   \
    do {                                                                                           \
        F##_t w, t, minus1;                                                                        \
        F##_root_of_unity(&w, (k), (g));                                                           \
        mpz_t z, want;                                                                             \
        mpz_inits(z, want, NULL);                                                                  \
        F##_can(z, &w);                                                                            \
        assert_int_equal(mpz_set_str(want, (hex), 16), 0);                                         \
        assert_mpz_eq(z, want);                                                                    \
        F##_set_one(&minus1);                                                                      \
        F##_neg(&minus1, &minus1);                                                                 \
        t = w;                                                                                     \
        for (unsigned i = 0; i + 1 < (k); i++)                                                     \
            F##_sqr(&t, &t);                                                                       \
        assert_true(F##_equal(&t, &minus1)); /* w^(2^(k-1)) = -1 */                                \
        F##_sqr(&t, &t);                                                                           \
        assert_true(F##_is_one(&t)); /* w^(2^k) = 1 */                                             \
        mpz_clears(z, want, NULL);                                                                 \
    } while (0)

static void test_roots_of_unity(void **state)
{
    (void)state;
    assert_int_equal(bls381_fr_two_adicity(), 32);
    assert_int_equal(bn254_fr_two_adicity(), 28);
    /* snarkjs: w[s] = 5^((r-1)/2^s), then w[16], w[17] */
    CHECK_ROOT(bn254_fr, 28, 5, "2a3c09f0a58a7e8500e0a7eb8ef62abc402d111e41112ed49bd61b6e725b19f0");
    CHECK_ROOT(bn254_fr, 16, 5, "00eeb2cb5981ed45649abebde081dcff16c8601de4347e7dd1628ba2daac43b7");
    CHECK_ROOT(bn254_fr, 17, 5, "1bf82deba7d74902c3708cc6e70e61f30512eca95655210e276e5858ce8f58e5");
    CHECK_ROOT(bls381_fr, 32, 5,
               "0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f");
    CHECK_ROOT(bls381_fr, 16, 5,
               "6709c6cd56aa725b0409ee987a02402c0caba63a29c01b06137b458acfc35f7a");
    CHECK_ROOT(bls381_fr, 17, 5,
               "05deb333f8727901ebe905bd4fb9ac5c77d85a937ff858ec10251f7d8831e03e");
    /* bellperson: ROOT_OF_UNITY = 7^((r-1)/2^32), and its 2^27 root */
    CHECK_ROOT(bls381_fr, 32, 7,
               "16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
    CHECK_ROOT(bls381_fr, 27, 7,
               "23397a9300f8f98bece8ea224f31d25db94f1101b1d7a628e2d0a7869f0319ed");
    /* blstrs stores ROOT_OF_UNITY in Montgomery form with these limbs */
    bls381_fr_t w;
    bls381_fr_root_of_unity(&w, 32, 7);
    static const uint64_t blstrs[4] = {0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL,
                                       0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL};
    assert_memory_equal(w.l, blstrs, sizeof(blstrs));
    /* 5 and 7 are non-residues, so the roots above are primitive */
    bls381_fr_t g;
    bls381_fr_from_u64(&g, 5);
    assert_int_equal(bls381_fr_legendre(&g), -1);
    bls381_fr_from_u64(&g, 7);
    assert_int_equal(bls381_fr_legendre(&g), -1);
    bn254_fr_t h;
    bn254_fr_from_u64(&h, 5);
    assert_int_equal(bn254_fr_legendre(&h), -1);
}

/* ---- inv_vartime rounds whose approximation misorders a and b ------------ */

/*
 * Montgomery limbs for which a round of the approximate binary GCD in
 * inv_vartime (fp_tmpl_impl.h) ends with a negative a or b, the case its
 * negation repairs; random inputs reach it about once in a thousand
 * inversions. Found by instrumenting that branch over seeds 1-6.
 */
static const uint64_t inv_neg4[][4] = {
    {0x912fa8cdb460ebb5ULL, 0x3de6dc66d6e6d0c2ULL, 0xf8c897f784f48404ULL, 0x20b1e08569b0a82cULL},
    {0xd9f1e2a93eb160a1ULL, 0x74fde8d1800a6987ULL, 0x255690bf5c5daef6ULL, 0x14fc28aaabed75b3ULL},
    {0xea57c25cb23e4b37ULL, 0x11b88e52c9abfad1ULL, 0x41963c8a9dda4c01ULL, 0x52d2150035c925bcULL},
};
static const uint64_t inv_neg6[][6] = {
    {0x4a446d6a55c8120fULL, 0x18074ecf4b739ec2ULL, 0x23461d54407474ddULL, 0xe851fc2e36388075ULL,
     0xb9c67b6f1427b829ULL, 0x1056d0c2df697fa9ULL},
};

/* x·inv_vartime(x) = 1 for the limbs v, when they are below p. Returns
 * whether they were. */
#define CHECK_INV_LIMBS(F, v)                                                                      \
    ({                                                                                             \
        F##_t x_, y_;                                                                              \
        memcpy(x_.l, (v), sizeof(x_.l));                                                           \
        bool below_ = F##_from_canonical(&y_, x_.l); /* only to test v < p */                      \
        if (below_) {                                                                              \
            F##_inv_vartime(&y_, &x_);                                                             \
            F##_mul(&y_, &y_, &x_);                                                                \
            assert_true(F##_is_one(&y_));                                                          \
        }                                                                                          \
        below_;                                                                                    \
    })

static void test_inv_vartime_negative_rounds(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(inv_neg4) / sizeof(inv_neg4[0]); i++) {
        int tested = CHECK_INV_LIMBS(bls381_fr, inv_neg4[i]) +
                     CHECK_INV_LIMBS(bn254_fp, inv_neg4[i]) +
                     CHECK_INV_LIMBS(bn254_fr, inv_neg4[i]);
        assert_true(tested > 0);
    }
    for (size_t i = 0; i < sizeof(inv_neg6) / sizeof(inv_neg6[0]); i++)
        assert_true(CHECK_INV_LIMBS(bls381_fp, inv_neg6[i]));
}

/*
 * The batch product NAMEs_mul against NAME_mul (checked against GMP above)
 * on random values and the edges 0, 1, p - 1, p - 2, at every length up to
 * 41 (the vector path's blocks of eight and the scalar tail) and 1000, in
 * place and not, with the IFMA path and without.
 */
#define BATCH_MUL_TEST(F)                                                                          \
    static void test_##F##_batch_mul(void **state)                                                 \
    {                                                                                              \
        (void)state;                                                                               \
        enum { M = 1000 };                                                                         \
        static F##_t a[M], b[M], r[M], want[M];                                                    \
        F##_t edge[4];                                                                             \
        F##_set_zero(&edge[0]);                                                                    \
        F##_set_one(&edge[1]);                                                                     \
        F##_neg(&edge[2], &edge[1]);                                                               \
        F##_sub(&edge[3], &edge[2], &edge[1]);                                                     \
        for (size_t i = 0; i < M; i++) {                                                           \
            assert_int_equal(F##_random(&a[i], &test_rng), CUZK_OK);                               \
            assert_int_equal(F##_random(&b[i], &test_rng), CUZK_OK);                               \
            if (i % 7 == 3)                                                                        \
                a[i] = edge[i % 4];                                                                \
            if (i % 5 == 2)                                                                        \
                b[i] = edge[i / 5 % 4];                                                            \
            F##_mul(&want[i], &a[i], &b[i]);                                                       \
        }                                                                                          \
        bool ifma = cpu_supports_ifma(), saved = cpu_has_ifma;                                     \
        if (!ifma)                                                                                 \
            print_message(#F "s_mul: no AVX-512 IFMA here, the scalar path only\n");               \
        for (int m = 0; m < (ifma ? 2 : 1); m++) {                                                 \
            cpu_has_ifma = m == 1;                                                                 \
            for (size_t n = 0; n <= M; n = n < 41 ? n + 1 : M + 1) {                               \
                memset(r, 0, sizeof r);                                                            \
                F##s_mul(r, a, b, n);                                                              \
                for (size_t i = 0; i < M; i++)                                                     \
                    assert_memory_equal(&r[i], i < n ? &want[i] : &edge[0], sizeof(F##_t));        \
            }                                                                                      \
            memcpy(r, a, sizeof r); /* r = a */                                                    \
            F##s_mul(r, r, b, M);                                                                  \
            assert_memory_equal(r, want, sizeof r);                                                \
        }                                                                                          \
        cpu_has_ifma = saved;                                                                      \
    }

BATCH_MUL_TEST(bls381_fp)
BATCH_MUL_TEST(bls381_fr)
BATCH_MUL_TEST(bn254_fp)
BATCH_MUL_TEST(bn254_fr)

#define SUITE(F)                                                                                   \
    cmocka_unit_test(test_##F##_constants), cmocka_unit_test(test_##F##_arith),                    \
        cmocka_unit_test(test_##F##_inv_pow_sqrt), cmocka_unit_test(test_##F##_encodings),         \
        cmocka_unit_test(test_##F##_misc), cmocka_unit_test(test_##F##_batch_mul)

int main(void)
{
    test_seed_init("test_ff");
    printf("test_ff: arithmetic path %s\n", cpu_arith_path());
    const struct CMUnitTest tests[] = {
        SUITE(bls381_fp),
        SUITE(bls381_fr),
        SUITE(bn254_fp),
        SUITE(bn254_fr),
        cmocka_unit_test(test_roots_of_unity),
        cmocka_unit_test(test_inv_vartime_negative_rounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
