/*
 * `cuzk bench arith`: median latency of the arithmetic every prover stage is
 * built from, for both curves, next to GMP's multiplication in the same run.
 *
 * Method: each operation runs as a dependent chain (the output feeds the next
 * input), so the figure is latency, the quantity that bounds the curve
 * formulas. A chain of `iters` operations is timed `BENCH_REPEATS` times with
 * CLOCK_MONOTONIC after one untimed warm-up chain; the median chain time
 * divided by `iters` is reported.
 *
 * Throughput too, for the multiplication: BENCH_BATCH independent products
 * r[i] = a[i]·b[i] of stored elements (NAMEs_mul, eight at a time with IFMA
 * where the processor has it), the way the MSM and the NTT multiply, next
 * to GMP doing the same BENCH_BATCH products; the time per product. And the
 * multiplier's own throughput: four independent scalar chains (MULX/ADX,
 * or portable), against BN254's eight-lane AVX2 product (ff/fpy_tmpl.h)
 * in two independent chains, the operands in registers: what the AVX2
 * kernels can gain over the scalar code at most.
 */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cuzk.h"
#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "ff/bls381_fp.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fp.h"
#include "ff/bn254_fr.h"
#include "pairing/bls381_pairing.h"
#include "pairing/bn254_pairing.h"
#include "util/cpu.h"

#if defined(__x86_64__)
#include "ff/bn254_fpy.h"
#include "ff/fpv_tmpl_undef.h"
#include "ff/bn254_fry.h"
#include "ff/fpv_tmpl_undef.h"
#define BENCH_HAVE_AVX2 1
#endif

#define BENCH_REPEATS 15

typedef void (*bench_chain_fn)(void *state, long iters);

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median nanoseconds per operation of fn over BENCH_REPEATS chains. */
static double bench_median_ns(bench_chain_fn fn, void *state, long iters)
{
    double t[BENCH_REPEATS];
    fn(state, iters); /* warm-up: caches, branch predictors, clock ramp */
    for (int i = 0; i < BENCH_REPEATS; i++) {
        double t0 = now_seconds();
        fn(state, iters);
        t[i] = (now_seconds() - t0) * 1e9 / (double)iters;
    }
    qsort(t, BENCH_REPEATS, sizeof(double), cmp_double);
    return t[BENCH_REPEATS / 2];
}

/* ---- chains ------------------------------------------------------------- */

/* One chain per operation and curve, generated from the operation's name so
 * the two curves are measured by the same code. */
#define BENCH_FIELD_MUL(F)                                                                         \
    typedef struct {                                                                               \
        F##_t a, b;                                                                                \
    } F##_bench_t;                                                                                 \
    static void F##_bench_mul(void *state, long iters)                                             \
    {                                                                                              \
        F##_bench_t *s = state;                                                                    \
        for (long i = 0; i < iters; i++)                                                           \
            F##_mul(&s->a, &s->a, &s->b);                                                          \
    }

BENCH_FIELD_MUL(bls381_fp)
BENCH_FIELD_MUL(bls381_fr)
BENCH_FIELD_MUL(bn254_fp)
BENCH_FIELD_MUL(bn254_fr)

/* Four independent chains of products; iters counts products. */
#define BENCH_FIELD_STREAMS(F)                                                                     \
    typedef struct {                                                                               \
        F##_t a[4], b[4];                                                                          \
    } F##_streams_t;                                                                               \
    static void F##_bench_streams(void *state, long iters)                                         \
    {                                                                                              \
        F##_streams_t *s = state;                                                                  \
        for (long i = 0; i < iters; i += 4)                                                        \
            for (int k = 0; k < 4; k++)                                                            \
                F##_mul(&s->a[k], &s->a[k], &s->b[k]);                                             \
    }                                                                                              \
    static double F##_streams_ns(long iters)                                                       \
    {                                                                                              \
        F##_streams_t s;                                                                           \
        for (int k = 0; k < 4; k++) {                                                              \
            F##_from_u64(&s.a[k], 3 + (uint64_t)k);                                                \
            F##_from_u64(&s.b[k], 0x9e3779b97f4a7c15ULL * (uint64_t)(k + 1));                      \
        }                                                                                          \
        return bench_median_ns(F##_bench_streams, &s, iters);                                      \
    }

BENCH_FIELD_STREAMS(bls381_fp)
BENCH_FIELD_STREAMS(bls381_fr)
BENCH_FIELD_STREAMS(bn254_fp)
BENCH_FIELD_STREAMS(bn254_fr)

#if BENCH_HAVE_AVX2
/* Two independent chains of eight-lane AVX2 products (V = bn254_fpy or
 * bn254_fry, over F); iters counts products. 0 without AVX2. */
#define BENCH_FIELD_AVX2(V, F)                                                                     \
    typedef struct {                                                                               \
        V##_t a[2], b[2];                                                                          \
    } V##_bench_t;                                                                                 \
    __attribute__((target("avx2"))) static void V##_bench_mul(void *state, long iters)             \
    {                                                                                              \
        V##_bench_t *s = state;                                                                    \
        for (long i = 0; i < iters; i += 16) {                                                     \
            V##_mul(&s->a[0], &s->a[0], &s->b[0]);                                                 \
            V##_mul(&s->a[1], &s->a[1], &s->b[1]);                                                 \
        }                                                                                          \
    }                                                                                              \
    __attribute__((target("avx2"))) static double V##_mul_ns(long iters)                           \
    {                                                                                              \
        if (!cpu_has_avx2)                                                                         \
            return 0;                                                                              \
        F##_t e[16];                                                                               \
        for (int i = 0; i < 16; i++) {                                                             \
            F##_from_u64(&e[i], 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1));                        \
            F##_mul(&e[i], &e[i], &e[i]); /* full-size values */                                   \
        }                                                                                          \
        V##_bench_t *s = aligned_alloc(64, sizeof *s);                                             \
        if (!s)                                                                                    \
            return 0;                                                                              \
        for (int j = 0; j < 2; j++) {                                                              \
            V##_load(&s->a[j], V##_addrs(&e[8 * j], sizeof(F##_t)), 0xff, &e[0]);                  \
            V##_load(&s->b[j], V##_addrs(&e[8 - 8 * j], sizeof(F##_t)), 0xff, &e[0]);              \
        }                                                                                          \
        double ns = bench_median_ns(V##_bench_mul, s, iters);                                      \
        free(s);                                                                                   \
        return ns;                                                                                 \
    }
BENCH_FIELD_AVX2(bn254_fpy, bn254_fp)
BENCH_FIELD_AVX2(bn254_fry, bn254_fr)
#endif

/* BENCH_BATCH independent products a round; iters counts products. */
#define BENCH_BATCH 4096

#define BENCH_FIELD_BATCH(F)                                                                       \
    typedef struct {                                                                               \
        F##_t a[BENCH_BATCH], b[BENCH_BATCH], r[BENCH_BATCH];                                      \
    } F##_batch_t;                                                                                 \
    static void F##_bench_batch(void *state, long iters)                                           \
    {                                                                                              \
        F##_batch_t *s = state;                                                                    \
        for (long i = 0; i < iters; i += BENCH_BATCH)                                              \
            F##s_mul(s->r, s->a, s->b, BENCH_BATCH);                                               \
    }                                                                                              \
    static double F##_batch_ns(long iters)                                                         \
    {                                                                                              \
        F##_batch_t *s = malloc(sizeof *s);                                                        \
        if (!s)                                                                                    \
            return 0;                                                                              \
        for (size_t i = 0; i < BENCH_BATCH; i++) {                                                 \
            F##_from_u64(&s->a[i], 0x9e3779b97f4a7c15ULL * (i + 1));                               \
            F##_from_u64(&s->b[i], 0xc2b2ae3d27d4eb4fULL * (i + 7));                               \
            F##_mul(&s->a[i], &s->a[i], &s->b[i]); /* full-size values */                          \
        }                                                                                          \
        double ns = bench_median_ns(F##_bench_batch, s, iters);                                    \
        free(s);                                                                                   \
        return ns;                                                                                 \
    }

BENCH_FIELD_BATCH(bls381_fp)
BENCH_FIELD_BATCH(bn254_fp)

/* The same multiplication with GMP: mpz_mul then mpz_mod by p. */
typedef struct {
    mpz_t a, b, p, t;
} gmp_bench_t;

static void gmp_bench_mul(void *state, long iters)
{
    gmp_bench_t *s = state;
    for (long i = 0; i < iters; i++) {
        mpz_mul(s->t, s->a, s->b);
        mpz_mod(s->a, s->t, s->p);
    }
}

static double gmp_mul_ns(const uint64_t *p, size_t limbs, long iters)
{
    gmp_bench_t s;
    mpz_inits(s.a, s.b, s.p, s.t, NULL);
    mpz_import(s.p, limbs, -1, sizeof(uint64_t), 0, 0, p);
    /* a, b: fixed full-size values below p */
    mpz_sub_ui(s.a, s.p, 12345);
    mpz_fdiv_q_ui(s.b, s.p, 3);
    double ns = bench_median_ns(gmp_bench_mul, &s, iters);
    mpz_clears(s.a, s.b, s.p, s.t, NULL);
    return ns;
}

/* GMP's BENCH_BATCH independent products. */
typedef struct {
    mpz_t a[BENCH_BATCH], b[BENCH_BATCH], r[BENCH_BATCH], p, t;
} gmp_batch_t;

static void gmp_bench_batch(void *state, long iters)
{
    gmp_batch_t *s = state;
    for (long i = 0; i < iters; i += BENCH_BATCH)
        for (size_t j = 0; j < BENCH_BATCH; j++) {
            mpz_mul(s->t, s->a[j], s->b[j]);
            mpz_mod(s->r[j], s->t, s->p);
        }
}

static double gmp_batch_ns(const uint64_t *p, size_t limbs, long iters)
{
    gmp_batch_t *s = malloc(sizeof *s);
    if (!s)
        return 0;
    mpz_inits(s->p, s->t, NULL);
    mpz_import(s->p, limbs, -1, sizeof(uint64_t), 0, 0, p);
    for (size_t j = 0; j < BENCH_BATCH; j++) { /* full-size values below p */
        mpz_inits(s->a[j], s->b[j], s->r[j], NULL);
        mpz_mul_ui(s->a[j], s->p, 0x9e3779b97f4a7c15ULL * (j + 1));
        mpz_fdiv_q_ui(s->a[j], s->a[j], 0xffffffffffffffc5ULL);
        mpz_sub_ui(s->b[j], s->p, 12345 + j);
    }
    double ns = bench_median_ns(gmp_bench_batch, s, iters);
    for (size_t j = 0; j < BENCH_BATCH; j++)
        mpz_clears(s->a[j], s->b[j], s->r[j], NULL);
    mpz_clears(s->p, s->t, NULL);
    free(s);
    return ns;
}

/* Mixed addition: accumulator in Jacobian and XYZZ form plus an affine point. */
#define BENCH_CURVE_MADD(G)                                                                        \
    typedef struct {                                                                               \
        G##_jac_t jac;                                                                             \
        G##_xyzz_t xyzz;                                                                           \
        G##_affine_t p;                                                                            \
    } G##_bench_t;                                                                                 \
    static void G##_bench_jac_madd(void *state, long iters)                                        \
    {                                                                                              \
        G##_bench_t *s = state;                                                                    \
        for (long i = 0; i < iters; i++)                                                           \
            G##_jac_add_affine_vartime(&s->jac, &s->jac, &s->p);                                   \
    }                                                                                              \
    static void G##_bench_xyzz_madd(void *state, long iters)                                       \
    {                                                                                              \
        G##_bench_t *s = state;                                                                    \
        for (long i = 0; i < iters; i++)                                                           \
            G##_xyzz_add_affine_vartime(&s->xyzz, &s->xyzz, &s->p);                                \
    }                                                                                              \
    static void G##_bench_init(G##_bench_t *s)                                                     \
    {                                                                                              \
        G##_affine_t g;                                                                            \
        G##_generator(&g);                                                                         \
        const uint64_t k[4] = {0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL, 0, 0};                \
        G##_jac_t t;                                                                               \
        G##_jac_from_affine(&t, &g);                                                               \
        G##_jac_mul_vartime(&t, &t, k);                                                            \
        G##_jac_to_affine(&s->p, &t);                                                              \
        G##_jac_from_affine(&s->jac, &g);                                                          \
        G##_xyzz_from_affine(&s->xyzz, &g);                                                        \
    }

BENCH_CURVE_MADD(bls381_g1)
BENCH_CURVE_MADD(bls381_g2)
BENCH_CURVE_MADD(bn254_g1)
BENCH_CURVE_MADD(bn254_g2)

#define BENCH_PAIRING(C)                                                                           \
    typedef struct {                                                                               \
        C##_g1_affine_t p;                                                                         \
        C##_g2_affine_t q;                                                                         \
        C##_fp12_t e;                                                                              \
    } C##_pairing_bench_t;                                                                         \
    static void C##_bench_pairing(void *state, long iters)                                         \
    {                                                                                              \
        C##_pairing_bench_t *s = state;                                                            \
        for (long i = 0; i < iters; i++)                                                           \
            C##_pairing(&s->e, &s->p, &s->q);                                                      \
    }

BENCH_PAIRING(bls381)
BENCH_PAIRING(bn254)

typedef struct {
    double fp_mul, fr_mul, gmp_mul, fp_batch, gmp_batch, fp_streams, fr_streams, fp_avx2, fr_avx2,
        g1_jac, g1_xyzz, g2_jac, g2_xyzz, pairing;
} bench_row_t;

#define BENCH_CURVE(C, row, fp_limbs)                                                              \
    do {                                                                                           \
        C##_fp_bench_t fp;                                                                         \
        C##_fp_from_u64(&fp.a, 3);                                                                 \
        C##_fp_from_u64(&fp.b, 0x9e3779b97f4a7c15ULL);                                             \
        (row).fp_mul = bench_median_ns(C##_fp_bench_mul, &fp, 200000);                             \
        C##_fr_bench_t fr;                                                                         \
        C##_fr_from_u64(&fr.a, 3);                                                                 \
        C##_fr_from_u64(&fr.b, 0x9e3779b97f4a7c15ULL);                                             \
        (row).fr_mul = bench_median_ns(C##_fr_bench_mul, &fr, 200000);                             \
        (row).gmp_mul = gmp_mul_ns(C##_fp_MODULUS, fp_limbs, 100000);                              \
        (row).fp_batch = C##_fp_batch_ns(50 * BENCH_BATCH);                                        \
        (row).gmp_batch = gmp_batch_ns(C##_fp_MODULUS, fp_limbs, 5 * BENCH_BATCH);                 \
        (row).fp_streams = C##_fp_streams_ns(200000);                                              \
        (row).fr_streams = C##_fr_streams_ns(200000);                                              \
        C##_g1_bench_t g1;                                                                         \
        C##_g1_bench_init(&g1);                                                                    \
        (row).g1_jac = bench_median_ns(C##_g1_bench_jac_madd, &g1, 20000);                         \
        (row).g1_xyzz = bench_median_ns(C##_g1_bench_xyzz_madd, &g1, 20000);                       \
        C##_g2_bench_t g2;                                                                         \
        C##_g2_bench_init(&g2);                                                                    \
        (row).g2_jac = bench_median_ns(C##_g2_bench_jac_madd, &g2, 10000);                         \
        (row).g2_xyzz = bench_median_ns(C##_g2_bench_xyzz_madd, &g2, 10000);                       \
        C##_pairing_bench_t pb;                                                                    \
        C##_g1_generator(&pb.p);                                                                   \
        C##_g2_generator(&pb.q);                                                                   \
        (row).pairing = bench_median_ns(C##_bench_pairing, &pb, 20);                               \
    } while (0)

int cli_bench_arith(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        printf("usage: cuzk bench arith\n"
               "\n"
               "Median times of field, curve and pairing operations of BLS12-381 and BN254\n"
               "on one core, with GMP's multiplication for comparison. No options.\n");
        return 0;
    }
    if (argc > 1)
        return cli_usage_error("bench arith", NULL, "takes no arguments, not '%s'", argv[1]);
    bench_row_t bls = {0}, bn = {0};
    BENCH_CURVE(bls381, bls, 6);
    BENCH_CURVE(bn254, bn, 4);
#if BENCH_HAVE_AVX2
    bn.fp_avx2 = bn254_fpy_mul_ns(400000);
    bn.fr_avx2 = bn254_fry_mul_ns(400000);
#endif

    printf("cuzk %s bench arith: median of %d chains (latency) or rounds of %d independent "
           "products (throughput), one core, arithmetic %s\n",
           cuzk_version(), BENCH_REPEATS, BENCH_BATCH, cpu_arith_path());
    printf("%-34s %12s %12s\n", "operation", "BLS12-381", "BN254");
    printf("%-34s %12.1f %12.1f\n", "Fp mul (ns)", bls.fp_mul, bn.fp_mul);
    printf("%-34s %12.1f %12.1f\n", "Fr mul (ns)", bls.fr_mul, bn.fr_mul);
    printf("%-34s %12.1f %12.1f\n", "Fp mul, GMP mpz_mul+mpz_mod (ns)", bls.gmp_mul, bn.gmp_mul);
    printf("%-34s %11.1fx %11.1fx\n", "GMP / cuzk Fp mul", bls.gmp_mul / bls.fp_mul,
           bn.gmp_mul / bn.fp_mul);
    printf("%-34s %12.1f %12.1f\n", "Fp mul, 4096 independent (ns)", bls.fp_batch, bn.fp_batch);
    printf("%-34s %12.1f %12.1f\n", "  the same with GMP (ns)", bls.gmp_batch, bn.gmp_batch);
    printf("%-34s %11.1fx %11.1fx\n", "GMP / cuzk, independent", bls.gmp_batch / bls.fp_batch,
           bn.gmp_batch / bn.fp_batch);
    printf("%-34s %12.1f %12.1f\n", "Fp mul, 4 scalar streams (ns)", bls.fp_streams, bn.fp_streams);
    printf("%-34s %12.1f %12.1f\n", "Fr mul, 4 scalar streams (ns)", bls.fr_streams, bn.fr_streams);
    if (bn.fp_avx2 > 0) {
        printf("%-34s %12s %12.1f\n", "Fp mul, AVX2 8 lanes (ns)", "-", bn.fp_avx2);
        printf("%-34s %12s %12.1f\n", "Fr mul, AVX2 8 lanes (ns)", "-", bn.fr_avx2);
        printf("%-34s %12s %11.2fx\n", "4 scalar streams / AVX2, Fp", "-",
               bn.fp_streams / bn.fp_avx2);
    }
    printf("%-34s %12.1f %12.1f\n", "G1 mixed add, Jacobian (ns)", bls.g1_jac, bn.g1_jac);
    printf("%-34s %12.1f %12.1f\n", "G1 mixed add, XYZZ (ns)", bls.g1_xyzz, bn.g1_xyzz);
    printf("%-34s %12.1f %12.1f\n", "G2 mixed add, Jacobian (ns)", bls.g2_jac, bn.g2_jac);
    printf("%-34s %12.1f %12.1f\n", "G2 mixed add, XYZZ (ns)", bls.g2_xyzz, bn.g2_xyzz);
    printf("%-34s %12.1f %12.1f\n", "pairing (us)", bls.pairing / 1e3, bn.pairing / 1e3);
    return 0;
}
