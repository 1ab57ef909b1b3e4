/*
 * GPU NTT (src/cuda/ntt.cuh, ntt.c) against the CPU's (src/ntt), byte for
 * byte, on both curves: dif in both directions, bit reversal, forward,
 * inverse, coset forward and coset inverse, for sizes 2^0 .. 2^20 (every
 * shape of pass: block only, and 1, 2 or 3 wide stages in the last wide
 * pass), on random vectors with 0, 1 and r - 1 mixed in; evals_to_coset and
 * the H chains of both conventions (a byte for byte). Skips, saying why,
 * when CUDA is not built or no GPU is present.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"

#ifdef CUZK_HAVE_CUDA

#include "cuda/gpu.h"
#include "cuda/gpu_ntt.h"
#include "ntt/bls381_ntt.h"
#include "ntt/bn254_ntt.h"

static gpu_t gpu;
static bool have_gpu;

enum { FR_BYTES = 32 };

/* The transforms compared. */
enum {
    T_DIF_FWD,
    T_DIF_INV,
    T_BITREV,
    T_FORWARD,
    T_INVERSE,
    T_COSET_FWD,
    T_COSET_INV,
    T_TO_COSET,
    T_COUNT
};
static const char *const t_names[T_COUNT] = {"dif forward",   "dif inverse",   "bit_reverse",
                                             "forward",       "inverse",       "coset_forward",
                                             "coset_inverse", "evals_to_coset"};

/* One curve's CPU side behind void pointers (CURVE_WRAP writes it). */
typedef struct {
    const char *name;
    gpu_curve_t curve;
    /* A CPU domain of 2^log2n from g = 5, and its ω, ω^-1, 1/n. */
    void *(*domain_new)(unsigned log2n);
    void (*domain_free)(void *d);
    void (*consts)(const void *d, const void **omega, const void **omega_inv, const void **n_inv);
    void (*transform)(const void *d, int t, void *a, const void *c);
    void (*element)(void *x, unsigned which); /* random, 0, 1, r - 1 */
    /* The H chain on the CPU: NAME_ntt_h_bellperson (bp) or _h_snarkjs. */
    void (*h)(const void *d, bool bp, void *a, void *b, void *c, const void *g);
    void (*from_u64)(void *x, uint64_t v);
} curve_t;

#define CURVE_WRAP(C, FR)                                                                          \
    static void *C##_domain_new_(unsigned log2n)                                                   \
    {                                                                                              \
        cuzk_status_t st;                                                                          \
        C##_ntt_domain_t *d = C##_ntt_domain_new(log2n, 5, &st);                                   \
        assert_int_equal(st, CUZK_OK);                                                             \
        return d;                                                                                  \
    }                                                                                              \
    static void C##_domain_free_(void *d)                                                          \
    {                                                                                              \
        C##_ntt_domain_free(d);                                                                    \
    }                                                                                              \
    static void C##_consts_(const void *vd, const void **w, const void **wi, const void **ni)      \
    {                                                                                              \
        const C##_ntt_domain_t *d = vd;                                                            \
        *w = &d->omega;                                                                            \
        *wi = &d->omega_inv;                                                                       \
        *ni = &d->n_inv;                                                                           \
    }                                                                                              \
    static void C##_transform_(const void *d, int t, void *a, const void *c)                       \
    {                                                                                              \
        switch (t) {                                                                               \
        case T_DIF_FWD: C##_ntt_dif(d, a, CUZK_NTT_FORWARD, NULL); break;                          \
        case T_DIF_INV: C##_ntt_dif(d, a, CUZK_NTT_INVERSE, NULL); break;                          \
        case T_BITREV: C##_ntt_bit_reverse(d, a, NULL); break;                                     \
        case T_FORWARD: C##_ntt_forward(d, a, NULL); break;                                        \
        case T_INVERSE: C##_ntt_inverse(d, a, NULL); break;                                        \
        case T_COSET_FWD: C##_ntt_coset_forward(d, a, c, NULL); break;                             \
        case T_TO_COSET: C##_ntt_evals_to_coset(d, a, c, NULL); break;                             \
        default: C##_ntt_coset_inverse(d, a, c, NULL); break;                                      \
        }                                                                                          \
    }                                                                                              \
    static void C##_h_(const void *d, bool bp, void *a, void *b, void *c, const void *g)           \
    {                                                                                              \
        if (bp)                                                                                    \
            C##_ntt_h_bellperson(d, a, b, c, g, NULL, NULL);                                       \
        else                                                                                       \
            C##_ntt_h_snarkjs(d, a, b, c, g, NULL, NULL);                                          \
    }                                                                                              \
    static void C##_from_u64_(void *x, uint64_t v)                                                 \
    {                                                                                              \
        FR##_from_u64(x, v);                                                                       \
    }                                                                                              \
    static void C##_element_(void *x, unsigned which)                                              \
    {                                                                                              \
        if (which == 0) {                                                                          \
            assert_int_equal(FR##_random(x, &test_rng), CUZK_OK);                                  \
        } else if (which == 1) {                                                                   \
            FR##_set_zero(x);                                                                      \
        } else {                                                                                   \
            FR##_set_one(x);                                                                       \
            if (which == 3)                                                                        \
                FR##_neg(x, x);                                                                    \
        }                                                                                          \
    }

CURVE_WRAP(bls381, bls381_fr)
CURVE_WRAP(bn254, bn254_fr)

#define CURVE_ENTRY(C, CURVE)                                                                      \
    {                                                                                              \
#C, CURVE, C##_domain_new_, C##_domain_free_, C##_consts_, C##_transform_, C##_element_,   \
            C##_h_, C##_from_u64_                                                                  \
    }

static const curve_t curves[] = {
    CURVE_ENTRY(bls381, CUZK_GPU_BLS381),
    CURVE_ENTRY(bn254, CUZK_GPU_BN254),
};

static int setup(void **state)
{
    (void)state;
    return gpu_open_first(&gpu, &have_gpu) == CUZK_OK ? 0 : -1;
}

#define GPU_OK(call)                                                                               \
    do {                                                                                           \
        cuzk_status_t st_ = (call);                                                                \
        if (st_ != CUZK_OK)                                                                        \
            fail_msg("%s: %s", #call, gpu.err);                                                    \
    } while (0)

/* The CPU domain of 2^log2n (*cd) and the GPU's with the same constants. */
static gpu_ntt_domain_t *domains_new(const curve_t *C, unsigned log2n, void **cd)
{
    *cd = C->domain_new(log2n);
    const void *w, *wi, *ni;
    C->consts(*cd, &w, &wi, &ni);
    gpu_ntt_domain_t *gd = NULL;
    GPU_OK(gpu_ntt_domain_new(&gd, &gpu, C->curve, log2n, w, wi, ni, NULL));
    return gd;
}

static void gpu_transform(gpu_ntt_domain_t *d, int t, void *a, const void *c)
{
    switch (t) {
    case T_DIF_FWD: GPU_OK(gpu_ntt_dif(d, a, CUZK_NTT_FORWARD, NULL)); break;
    case T_DIF_INV: GPU_OK(gpu_ntt_dif(d, a, CUZK_NTT_INVERSE, NULL)); break;
    case T_BITREV: GPU_OK(gpu_ntt_bit_reverse(d, a, NULL)); break;
    case T_FORWARD: GPU_OK(gpu_ntt_forward(d, a, NULL)); break;
    case T_INVERSE: GPU_OK(gpu_ntt_inverse(d, a, NULL)); break;
    case T_COSET_FWD: GPU_OK(gpu_ntt_coset_forward(d, a, c, NULL)); break;
    case T_TO_COSET: GPU_OK(gpu_ntt_evals_to_coset(d, a, c, NULL)); break;
    default: GPU_OK(gpu_ntt_coset_inverse(d, a, c, NULL)); break;
    }
}

static void test_ntt(void **state)
{
    (void)state;
    if (!have_gpu) {
        print_message("no GPU (%s): skipped\n", gpu.err);
        skip();
    }
    /* 0..10: block pass only; 11, 12, 13: one wide pass of radix 2, 4, 8;
     * 14 .. 20: two to four wide passes. */
    static const unsigned sizes[] = {0, 1, 2, 3, 5, 9, 10, 11, 12, 13, 14, 16, 17, 19, 20};
    for (size_t ci = 0; ci < sizeof(curves) / sizeof(curves[0]); ci++) {
        const curve_t *C = &curves[ci];
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            unsigned log2n = sizes[si];
            size_t n = (size_t)1 << log2n, bytes = n * FR_BYTES;
            void *cd = NULL;
            gpu_ntt_domain_t *gd = domains_new(C, log2n, &cd);
            unsigned char *in = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
            unsigned char c[FR_BYTES];
            assert_non_null(in && want && got);
            void *da = NULL;
            GPU_OK(gpu_alloc(&gpu, &da, bytes));
            for (int t = 0; t < T_COUNT; t++) {
                for (size_t i = 0; i < n; i++) {
                    uint64_t roll = rng_next(&test_rng) % 32;
                    C->element(in + i * FR_BYTES, roll < 4 ? (unsigned)roll : 0);
                }
                C->element(c, 0);
                memcpy(want, in, bytes);
                C->transform(cd, t, want, c);
                GPU_OK(gpu_upload(&gpu, da, in, bytes, NULL));
                gpu_transform(gd, t, da, c);
                GPU_OK(gpu_download(&gpu, got, da, bytes, NULL));
                GPU_OK(gpu_sync(&gpu));
                for (size_t i = 0; i < n; i++)
                    if (memcmp(want + i * FR_BYTES, got + i * FR_BYTES, FR_BYTES) != 0)
                        fail_msg("%s 2^%u %s: element %zu differs", C->name, log2n, t_names[t], i);
            }
            gpu_free(da);
            gpu_ntt_domain_free(gd);
            C->domain_free(cd);
            free(in);
            free(want);
            free(got);
        }
    }
}

/* The H chains (snarkjs with a random shift, bellperson with g = 7 or 5)
 * on random a, b, c against the CPU: a byte for byte. In turn on one domain,
 * so that bellperson's constants, kept for the g of the call before, are
 * used again (g = 7 twice, a snarkjs chain between) and made again (g = 5,
 * then 7). */
static void test_h(void **state)
{
    (void)state;
    if (!have_gpu) {
        print_message("no GPU (%s): skipped\n", gpu.err);
        skip();
    }
    /* 11 .. 17: wide passes of radix 2, 4 and 8 in both directions */
    static const unsigned sizes[] = {0, 1, 2, 5, 10, 11, 12, 13, 14, 16, 17};
    for (size_t ci = 0; ci < sizeof(curves) / sizeof(curves[0]); ci++) {
        const curve_t *C = &curves[ci];
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            unsigned log2n = sizes[si];
            size_t n = (size_t)1 << log2n, bytes = n * FR_BYTES;
            void *cd = NULL;
            gpu_ntt_domain_t *gd = domains_new(C, log2n, &cd);
            unsigned char *in = malloc(3 * bytes), *want = malloc(3 * bytes),
                          *got = malloc(3 * bytes);
            assert_non_null(in && want && got);
            void *dv[3] = {NULL, NULL, NULL};
            for (int v = 0; v < 3; v++)
                GPU_OK(gpu_alloc(&gpu, &dv[v], bytes));
            static const unsigned bp_g[] = {0, 7, 7, 0, 7, 5, 7}; /* 0: snarkjs */
            for (size_t run = 0; run < sizeof(bp_g) / sizeof(bp_g[0]); run++) {
                bool bp = bp_g[run] != 0;
                unsigned char g[FR_BYTES];
                if (bp)
                    C->from_u64(g, bp_g[run]);
                else
                    C->element(g, 0);
                for (size_t i = 0; i < 3 * n; i++) {
                    uint64_t roll = rng_next(&test_rng) % 32;
                    C->element(in + i * FR_BYTES, roll < 4 ? (unsigned)roll : 0);
                }
                memcpy(want, in, 3 * bytes);
                C->h(cd, bp, want, want + bytes, want + 2 * bytes, g);
                for (int v = 0; v < 3; v++)
                    GPU_OK(gpu_upload(&gpu, dv[v], in + v * bytes, bytes, NULL));
                if (bp)
                    GPU_OK(gpu_ntt_h_bellperson(gd, dv[0], dv[1], dv[2], g, NULL));
                else
                    GPU_OK(gpu_ntt_h_snarkjs(gd, dv[0], dv[1], dv[2], g, NULL));
                /* a, and b and c as the CPU leaves them (on the coset) */
                for (int v = 0; v < 3; v++)
                    GPU_OK(gpu_download(&gpu, got + v * bytes, dv[v], bytes, NULL));
                GPU_OK(gpu_sync(&gpu));
                for (size_t i = 0; i < 3 * n; i++)
                    if (memcmp(want + i * FR_BYTES, got + i * FR_BYTES, FR_BYTES) != 0)
                        fail_msg("%s 2^%u h_%s, run %zu: %c[%zu] differs", C->name, log2n,
                                 bp ? "bellperson" : "snarkjs", run, "abc"[i / n], i % n);
            }
            for (int v = 0; v < 3; v++)
                gpu_free(dv[v]);
            gpu_ntt_domain_free(gd);
            C->domain_free(cd);
            free(in);
            free(want);
            free(got);
        }
    }
}

int main(void)
{
    test_seed_init("test_cuda_ntt");
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_ntt), cmocka_unit_test(test_h)};
    return cmocka_run_group_tests(tests, setup, NULL);
}

#else /* !CUZK_HAVE_CUDA */

int main(void)
{
    printf("test_cuda_ntt: CUDA backend not built (no nvcc at configure time): skipped\n");
    return 0;
}

#endif
