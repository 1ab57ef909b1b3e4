/*
 * GPU field arithmetic (src/cuda/ff.cuh, fields.cuh) against the CPU's
 * (src/ff): mul, sqr, add, sub, dbl and neg on batches of random sizes (0,
 * 1, 2, non-powers of two up to 5000) of random elements mixed with 0, 1
 * and p - 1, for Fp and Fr of both curves and their Fp2; plus the host
 * layer's error path and its test for pinned host memory. Skips, saying why, when CUDA is not built
 * or no GPU is present.
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
#include "cuda/gpu_kernels.h"
#include "ff/bls381_fp.h"
#include "ff/bls381_fp2.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fp.h"
#include "ff/bn254_fp2.h"
#include "ff/bn254_fr.h"

static gpu_t gpu;
static bool have_gpu;

/* One field as the test sees it: the GPU table, and the CPU operations
 * behind void pointers (the macro below writes them for each field). */
typedef struct {
    const gpu_field_kernels_t *gpu;
    size_t bytes;
    void (*op)(int op, void *r, const void *a, const void *b);
    void (*random)(void *r);
    void (*special)(void *r, unsigned which); /* 0, 1, -1, -1 in every coordinate */
} field_t;

/* SPREAD(x) copies x's first coordinate into the others (Fp2), or does
 * nothing (prime fields): special 3 is then p - 1 everywhere, the largest
 * products and sums Fp2's multiplication can meet. */
#define FIELD_WRAP(F, SPREAD)                                                                      \
    static void F##_op_(int op, void *r, const void *a, const void *b)                             \
    {                                                                                              \
        switch (op) {                                                                              \
        case CUZK_GPU_FOP_MUL: F##_mul(r, a, b); break;                                            \
        case CUZK_GPU_FOP_SQR: F##_sqr(r, a); break;                                               \
        case CUZK_GPU_FOP_ADD: F##_add(r, a, b); break;                                            \
        case CUZK_GPU_FOP_SUB: F##_sub(r, a, b); break;                                            \
        case CUZK_GPU_FOP_DBL: F##_dbl(r, a); break;                                               \
        case CUZK_GPU_FOP_INV: F##_inv(r, a); break;                                               \
        default: F##_neg(r, a); break;                                                             \
        }                                                                                          \
    }                                                                                              \
    static void F##_random_(void *r)                                                               \
    {                                                                                              \
        assert_int_equal(F##_random(r, &test_rng), CUZK_OK);                                       \
    }                                                                                              \
    static void F##_special_(void *r, unsigned which)                                              \
    {                                                                                              \
        F##_t *x = r;                                                                              \
        if (which == 0) {                                                                          \
            F##_set_zero(x);                                                                       \
        } else {                                                                                   \
            F##_set_one(x);                                                                        \
            if (which >= 2)                                                                        \
                F##_neg(x, x);                                                                     \
            if (which == 3)                                                                        \
                SPREAD(x);                                                                         \
        }                                                                                          \
    }

#define SPREAD_NONE(x) ((void)(x))
#define SPREAD_FP2(x)  ((x)->c1 = (x)->c0)
FIELD_WRAP(bls381_fp, SPREAD_NONE)
FIELD_WRAP(bls381_fr, SPREAD_NONE)
FIELD_WRAP(bls381_fp2, SPREAD_FP2)
FIELD_WRAP(bn254_fp, SPREAD_NONE)
FIELD_WRAP(bn254_fr, SPREAD_NONE)
FIELD_WRAP(bn254_fp2, SPREAD_FP2)

#define FIELD_ENTRY(curve, F, member)                                                              \
    {                                                                                              \
        &gpu_##curve##_kernels.member, sizeof(F##_t), F##_op_, F##_random_, F##_special_           \
    }

static const field_t fields[] = {
    FIELD_ENTRY(bls381, bls381_fp, fp),   FIELD_ENTRY(bls381, bls381_fr, fr),
    FIELD_ENTRY(bls381, bls381_fp2, fp2), FIELD_ENTRY(bn254, bn254_fp, fp),
    FIELD_ENTRY(bn254, bn254_fr, fr),     FIELD_ENTRY(bn254, bn254_fp2, fp2),
};

static int setup(void **state)
{
    (void)state;
    if (gpu_open_first(&gpu, &have_gpu) != CUZK_OK)
        return -1;
    if (have_gpu)
        printf("GPU 0: %s, compute capability %d.%d, %d multiprocessors, %zu MiB\n", gpu.name,
               gpu.cc_major, gpu.cc_minor, gpu.sm_count, gpu.mem_total >> 20);
    return 0;
}

#define REQUIRE_GPU()                                                                              \
    do {                                                                                           \
        if (!have_gpu) {                                                                           \
            print_message("no GPU (%s): skipped\n", gpu.err);                                      \
            skip();                                                                                \
        }                                                                                          \
    } while (0)

/* n elements of f: random, with the specials sprinkled in (about one in 6). */
static void fill(const field_t *f, unsigned char *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t roll = rng_next(&test_rng) % 24;
        if (roll < 4)
            f->special(v + i * f->bytes, (unsigned)roll);
        else
            f->random(v + i * f->bytes);
    }
}

static size_t random_size(int iter)
{
    static const size_t fixed[] = {0, 1, 2, 3, 31, 32, 33, 256, 1000};
    if (iter < (int)(sizeof(fixed) / sizeof(fixed[0])))
        return fixed[iter];
    return 1 + (size_t)(rng_next(&test_rng) % 5000);
}

static void test_fields(void **state)
{
    (void)state;
    REQUIRE_GPU();
    for (size_t fi = 0; fi < sizeof(fields) / sizeof(fields[0]); fi++) {
        const field_t *f = &fields[fi];
        for (int iter = 0; iter < test_iters(12); iter++) {
            size_t n = random_size(iter), bytes = n * f->bytes;
            unsigned char *a = malloc(bytes + 1), *b = malloc(bytes + 1);
            unsigned char *want = malloc(bytes + 1), *got = malloc(bytes + 1);
            assert_non_null(a && b && want && got);
            fill(f, a, n);
            fill(f, b, n);
            void *da, *db, *dr;
            assert_int_equal(gpu_alloc(&gpu, &da, bytes), CUZK_OK);
            assert_int_equal(gpu_alloc(&gpu, &db, bytes), CUZK_OK);
            assert_int_equal(gpu_alloc(&gpu, &dr, bytes), CUZK_OK);
            assert_int_equal(gpu_upload(&gpu, da, a, bytes, NULL), CUZK_OK);
            assert_int_equal(gpu_upload(&gpu, db, b, bytes, NULL), CUZK_OK);
            for (int op = 0; op < CUZK_GPU_FOP_COUNT; op++) {
                /* Poison the output so that an element the kernel skips shows. */
                assert_int_equal(gpu_memset(&gpu, dr, 0xa5, bytes, NULL), CUZK_OK);
                assert_int_equal(gpu_status(&gpu, f->gpu->batch(dr, da, db, n, op, NULL), "batch",
                                            __FILE__, __LINE__),
                                 CUZK_OK);
                assert_int_equal(gpu_download(&gpu, got, dr, bytes, NULL), CUZK_OK);
                assert_int_equal(gpu_sync(&gpu), CUZK_OK);
                for (size_t i = 0; i < n; i++)
                    f->op(op, want + i * f->bytes, a + i * f->bytes, b + i * f->bytes);
                for (size_t i = 0; i < n; i++) {
                    if (memcmp(want + i * f->bytes, got + i * f->bytes, f->bytes) != 0)
                        fail_msg("%s op %d, n = %zu: element %zu differs", f->gpu->name, op, n, i);
                }
            }
            gpu_free(da);
            gpu_free(db);
            gpu_free(dr);
            free(a);
            free(b);
            free(want);
            free(got);
        }
    }
}

/* A failing CUDA call comes back as a status with the runtime's words. */
static void test_errors(void **state)
{
    (void)state;
    REQUIRE_GPU();
    void *p = (void *)1;
    size_t too_much = gpu.mem_total * 4;
    assert_int_equal(gpu_alloc(&gpu, &p, too_much), CUZK_ENOMEM);
    assert_null(p);
    assert_non_null(strstr(gpu.err, "cudaErrorMemoryAllocation"));
    print_message("as expected: %s\n", gpu.err);
    /* The error is not sticky: the device still works. */
    assert_int_equal(gpu_alloc(&gpu, &p, 1024), CUZK_OK);
    gpu_free(p);
    assert_int_equal(gpu_status(&gpu, 1, "a launch", "here", 1), CUZK_EDEVICE);
    assert_non_null(strstr(gpu.err, "a launch"));
}

/* Pinned host memory is told from the rest (gpu_host_is_pinned), at
 * its first and last byte; memory the runtime does not know is no failure
 * and leaves no error behind for the next launch. */
static void test_host_is_pinned(void **state)
{
    (void)state;
    REQUIRE_GPU();
    enum { BYTES = 4096 };
    unsigned char *pinned = NULL, *dev = NULL, *heap = malloc(BYTES), local[64] = {0};
    assert_non_null(heap);
    assert_int_equal(gpu_host_alloc(&gpu, (void **)&pinned, BYTES), CUZK_OK);
    assert_int_equal(gpu_alloc(&gpu, (void **)&dev, BYTES), CUZK_OK);
    assert_int_equal(gpu_memset(&gpu, dev, 0, BYTES, NULL), CUZK_OK);
    const struct {
        const void *p;
        bool want;
    } cases[] = {{pinned, true}, {pinned + BYTES - 1, true},
                 {heap, false},  {heap + BYTES - 1, false},
                 {local, false}, {dev, false},
                 {NULL, false}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool got = !cases[i].want;
        if (gpu_host_is_pinned(&gpu, cases[i].p, &got) != CUZK_OK)
            fail_msg("case %zu: %s", i, gpu.err);
        if (got != cases[i].want)
            fail_msg("case %zu: pinned %d, expected %d", i, got, cases[i].want);
        /* a launch right after reports its own state, not the query's */
        assert_int_equal(gpu_bls381_kernels.fr.batch(dev, dev, dev, 1, CUZK_GPU_FOP_ADD, NULL), 0);
    }
    assert_int_equal(gpu_sync(&gpu), CUZK_OK);
    gpu_free(dev);
    gpu_host_free(pinned);
    free(heap);
}

int main(void)
{
    test_seed_init("test_cuda_ff");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_host_is_pinned),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}

#else /* !CUZK_HAVE_CUDA */

int main(void)
{
    printf("test_cuda_ff: CUDA backend not built (no nvcc at configure time): skipped\n");
    return 0;
}

#endif
