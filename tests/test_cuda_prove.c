/*
 * The prover's GPU steps around the MSM (src/cuda/prove.cuh, prove.c)
 * against the CPU:
 *  - classification of scalars (zero / one / other) against
 *    NAME_msm_classify: the class bytes, the counts and the bit length, on
 *    sizes 0, 1, 31, 32, 33 and random ones, with 0, 1, r - 1, small
 *    canonical values and random scalars; the bitmaps of the ones and of
 *    the others bit by bit (the sum of the bases the first marks:
 *    test_cuda_msm.c), the others' compaction into an index list;
 *  - the selection of the elements a bitmap marks (the density-selected
 *    scalars of a bellperson assignment) against the host's;
 *  - R1CS products a = A·w, b = B·w, c = C·w from CSR against
 *    NAME_r1cs_eval, byte for byte: 0 rows, empty rows, short rows and rows
 *    of hundreds to thousands of entries (the warp kernel).
 * Skips, saying why, when CUDA is not built or no GPU is present.
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
#include "cuda/gpu_prove.h"
#include "msm/bls381_msm.h"
#include "msm/bn254_msm.h"
#include "r1cs/bls381_r1cs.h"
#include "r1cs/bn254_r1cs.h"

static gpu_t gpu;
static bool have_gpu;

enum { FR_BYTES = 32 };

#define REQUIRE_GPU()                                                                              \
    do {                                                                                           \
        if (!have_gpu) {                                                                           \
            print_message("no GPU (%s): skipped\n", gpu.err);                                      \
            skip();                                                                                \
        }                                                                                          \
    } while (0)

#define GPU_OK(call)                                                                               \
    do {                                                                                           \
        cuzk_status_t st_ = (call);                                                                \
        if (st_ != CUZK_OK)                                                                        \
            fail_msg("%s: %s", #call, gpu.err);                                                    \
    } while (0)

static int setup(void **state)
{
    (void)state;
    return gpu_open_first(&gpu, &have_gpu) == CUZK_OK ? 0 : -1;
}

/* A device copy of `bytes` bytes (NULL for none). */
static void *to_device(const void *host, size_t bytes)
{
    void *d = NULL;
    GPU_OK(gpu_alloc(&gpu, &d, bytes));
    if (bytes)
        GPU_OK(gpu_upload(&gpu, d, host, bytes, NULL));
    return d;
}

/* ---- one curve's scalar field ------------------------------------------- */

typedef struct {
    const char *name;
    gpu_curve_t curve;
    /* 0: random, 1: zero, 2: one, 3: r - 1, 4: a small value 2..5 */
    void (*element)(void *x, unsigned which);
    cuzk_status_t (*classify)(uint8_t *cls, msm_counts_t *counts, const void *k, size_t n);
    /* A random n_rows × n_cols matrix into the CPU's CSR (caller frees
     * with csr_free), rows of 0 .. short_max entries and every `long_every`
     * row (0: none) of long_len. */
    void (*csr_random)(void *m, uint32_t n_rows, uint32_t n_cols, uint32_t short_max,
                       uint32_t long_every, uint32_t long_len);
    void (*csr_free)(void *m);
    size_t csr_size;
    /* The host arrays of a CPU CSR matrix, in the device struct's shape. */
    gpu_csr_t (*csr_view)(const void *m);
    void (*eval)(const void *a, const void *b, const void *c, uint32_t n_rows, uint32_t n_cols,
                 const void *w, void *ya, void *yb, void *yc);
} field_t;

#define FIELD_WRAP(C, FR, G1)                                                                      \
    static void C##_element_(void *x, unsigned which)                                              \
    {                                                                                              \
        switch (which) {                                                                           \
        case 0: assert_int_equal(FR##_random(x, &test_rng), CUZK_OK); break;                       \
        case 1: FR##_set_zero(x); break;                                                           \
        case 2: FR##_set_one(x); break;                                                            \
        case 3:                                                                                    \
            FR##_set_one(x);                                                                       \
            FR##_neg(x, x);                                                                        \
            break;                                                                                 \
        default: FR##_from_u64(x, 2 + rng_next(&test_rng) % 4); break;                             \
        }                                                                                          \
    }                                                                                              \
    static cuzk_status_t C##_classify_(uint8_t *cls, msm_counts_t *counts, const void *k,          \
                                       size_t n)                                                   \
    {                                                                                              \
        return G1##_msm_classify(cls, counts, k, n, NULL);                                         \
    }                                                                                              \
    static void C##_csr_random_(void *vm, uint32_t n_rows, uint32_t n_cols, uint32_t short_max,    \
                                uint32_t long_every, uint32_t long_len)                            \
    {                                                                                              \
        C##_csr_t *m = vm;                                                                         \
        uint32_t *len = calloc(n_rows + 1, sizeof(uint32_t));                                      \
        uint64_t nnz = 0;                                                                          \
        assert_non_null(len);                                                                      \
        for (uint32_t i = 0; i < n_rows; i++) {                                                    \
            bool is_long = long_every && rng_next(&test_rng) % long_every == 0;                    \
            len[i] = is_long ? long_len : (uint32_t)(rng_next(&test_rng) % (short_max + 1));       \
            nnz += len[i];                                                                         \
        }                                                                                          \
        memset(m, 0, sizeof(*m));                                                                  \
        assert_int_equal(C##_csr_alloc(m, n_rows, n_cols, nnz), CUZK_OK);                          \
        uint64_t k = 0;                                                                            \
        for (uint32_t i = 0; i < n_rows; i++) {                                                    \
            m->row_ptr[i] = k;                                                                     \
            for (uint32_t j = 0; j < len[i]; j++, k++) {                                           \
                m->col[k] = (uint32_t)(rng_next(&test_rng) % n_cols);                              \
                uint64_t roll = rng_next(&test_rng) % 16;                                          \
                C##_element_(&m->val[k], roll < 5 ? (unsigned)roll : 0);                           \
            }                                                                                      \
        }                                                                                          \
        m->row_ptr[n_rows] = k;                                                                    \
        free(len);                                                                                 \
    }                                                                                              \
    static void C##_csr_free_(void *m)                                                             \
    {                                                                                              \
        C##_csr_free(m);                                                                           \
    }                                                                                              \
    static gpu_csr_t C##_csr_view_(const void *vm)                                                 \
    {                                                                                              \
        const C##_csr_t *m = vm;                                                                   \
        gpu_csr_t v = {m->n_rows, m->row_ptr, m->col, m->val};                                     \
        return v;                                                                                  \
    }                                                                                              \
    static void C##_eval_(const void *a, const void *b, const void *c, uint32_t n_rows,            \
                          uint32_t n_cols, const void *w, void *ya, void *yb, void *yc)            \
    {                                                                                              \
        C##_r1cs_t r;                                                                              \
        memset(&r, 0, sizeof(r));                                                                  \
        r.shape.n_constraints = n_rows;                                                            \
        r.shape.n_wires = n_cols;                                                                  \
        r.a = *(const C##_csr_t *)a;                                                               \
        r.b = *(const C##_csr_t *)b;                                                               \
        r.c = *(const C##_csr_t *)c;                                                               \
        C##_r1cs_eval(NULL, &r, w, ya, yb, yc);                                                    \
    }

FIELD_WRAP(bls381, bls381_fr, bls381_g1)
FIELD_WRAP(bn254, bn254_fr, bn254_g1)

#define FIELD_ENTRY(C, CURVE)                                                                      \
    {                                                                                              \
#C, CURVE, C##_element_, C##_classify_, C##_csr_random_, C##_csr_free_, sizeof(C##_csr_t), \
            C##_csr_view_, C##_eval_                                                               \
    }

static const field_t fields[] = {
    FIELD_ENTRY(bls381, CUZK_GPU_BLS381),
    FIELD_ENTRY(bn254, CUZK_GPU_BN254),
};
enum { NFIELDS = sizeof(fields) / sizeof(fields[0]) };

/* n scalars: 0, 1, r - 1, small and random in proportions set by `mix`
 * (0: mostly random; 1: about 45 % zero, 45 % one, as a PoRep witness). */
static void scalars_random(const field_t *F, unsigned char *k, size_t n, int mix)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t roll = rng_next(&test_rng) % 20;
        unsigned which;
        if (mix)
            which = roll < 9 ? 1 : roll < 18 ? 2 : roll == 18 ? 3 : 0;
        else
            which = roll < 5 ? (unsigned)roll : 0;
        F->element(k + i * FR_BYTES, which);
    }
}

/* ---- classification ------------------------------------------------------ */

static void test_classify(void **state)
{
    (void)state;
    REQUIRE_GPU();
    static const size_t fixed[] = {0, 1, 31, 32, 33, 1000};
    enum { NFIXED = sizeof(fixed) / sizeof(fixed[0]) };
    for (int fi = 0; fi < NFIELDS; fi++) {
        const field_t *F = &fields[fi];
        for (int iter = 0; iter < test_iters(NFIXED + 4); iter++) {
            size_t n = iter < NFIXED ? fixed[iter] : 1 + (size_t)(rng_next(&test_rng) % 200000);
            size_t words = (n + 31) / 32;
            unsigned char *k = calloc(n + 1, FR_BYTES);
            uint8_t *want = calloc(n + 1, 1), *got = calloc(n + 1, 1);
            uint32_t *bitmap = calloc(words + 1, sizeof(uint32_t));
            assert_non_null(k && want && got && bitmap);
            scalars_random(F, k, n, iter % 2);
            msm_counts_t cw, cg;
            assert_int_equal(F->classify(want, &cw, k, n), CUZK_OK);
            void *dk = to_device(k, n * FR_BYTES), *dcls = NULL, *dbm = NULL;
            GPU_OK(gpu_alloc(&gpu, &dcls, n + 1));
            GPU_OK(gpu_alloc(&gpu, &dbm, (words + 1) * sizeof(uint32_t)));
            GPU_OK(gpu_memset(&gpu, dcls, 0xa5, n + 1, NULL));
            GPU_OK(gpu_memset(&gpu, dbm, 0xa5, (words + 1) * sizeof(uint32_t), NULL));
            GPU_OK(gpu_msm_classify(&gpu, F->curve, dcls, dbm, dk, n, &cg, NULL));
            GPU_OK(gpu_download(&gpu, got, dcls, n, NULL));
            GPU_OK(gpu_download(&gpu, bitmap, dbm, words * sizeof(uint32_t), NULL));
            GPU_OK(gpu_sync(&gpu));
            for (size_t i = 0; i < n; i++) {
                if (got[i] != want[i])
                    fail_msg("%s n = %zu: class of scalar %zu is %u, CPU %u", F->name, n, i, got[i],
                             want[i]);
                bool bit = (bitmap[i / 32] >> (i % 32)) & 1;
                if (bit != (want[i] == CUZK_MSM_ONE))
                    fail_msg("%s n = %zu: bitmap bit %zu wrong", F->name, n, i);
            }
            for (size_t i = n; i < words * 32; i++)
                if ((bitmap[i / 32] >> (i % 32)) & 1)
                    fail_msg("%s n = %zu: bitmap bit %zu past the end set", F->name, n, i);
            if (cg.zero != cw.zero || cg.one != cw.one || cg.other != cw.other ||
                cg.bits != cw.bits)
                fail_msg("%s n = %zu: counts %zu/%zu/%zu bits %u, CPU %zu/%zu/%zu bits %u", F->name,
                         n, cg.zero, cg.one, cg.other, cg.bits, cw.zero, cw.one, cw.other, cw.bits);
            /* The bitmap of the other scalars, and its compaction into the
             * index list of a sparse MSM. */
            void *doth = NULL, *didx = NULL, *dcnt = NULL, *dacc = NULL, *dscr = NULL;
            GPU_OK(gpu_alloc(&gpu, &doth, (words + 1) * sizeof(uint32_t)));
            GPU_OK(gpu_alloc(&gpu, &didx, (n + 1) * sizeof(uint32_t)));
            GPU_OK(gpu_alloc(&gpu, &dcnt, sizeof(uint32_t)));
            GPU_OK(gpu_alloc(&gpu, &dacc, CUZK_GPU_CLASSIFY_ACC_BYTES));
            GPU_OK(gpu_alloc(&gpu, &dscr, gpu_bitmap_compact_scratch_bytes(n)));
            GPU_OK(gpu_msm_classify_launch(&gpu, F->curve, NULL, NULL, doth, dacc, dk, n, NULL));
            GPU_OK(gpu_bitmap_compact_launch(&gpu, didx, dcnt, doth, n, dscr, NULL));
            uint32_t *idx = calloc(n + 1, sizeof(uint32_t)), cnt = 0;
            assert_non_null(idx);
            GPU_OK(gpu_download(&gpu, bitmap, doth, words * sizeof(uint32_t), NULL));
            GPU_OK(gpu_download(&gpu, &cnt, dcnt, sizeof cnt, NULL));
            GPU_OK(gpu_download(&gpu, idx, didx, n * sizeof(uint32_t), NULL));
            GPU_OK(gpu_sync(&gpu));
            size_t at = 0;
            for (size_t i = 0; i < n; i++) {
                bool other = want[i] == CUZK_MSM_OTHER;
                if ((bool)((bitmap[i / 32] >> (i % 32)) & 1) != other)
                    fail_msg("%s n = %zu: other bitmap bit %zu wrong", F->name, n, i);
                if (other && (at >= cnt || idx[at++] != i))
                    fail_msg("%s n = %zu: index list entry %zu is not scalar %zu", F->name, n,
                             at - 1, i);
            }
            if (at != cnt || cnt != cw.other)
                fail_msg("%s n = %zu: %u indices, %zu other scalars", F->name, n, cnt, cw.other);
            free(idx);
            gpu_free(doth);
            gpu_free(didx);
            gpu_free(dcnt);
            gpu_free(dacc);
            gpu_free(dscr);
            gpu_free(dk);
            gpu_free(dcls);
            gpu_free(dbm);
            free(k);
            free(want);
            free(got);
            free(bitmap);
        }
    }
}

/* The selection of the elements a bitmap marks (gpu_bitmap_select_launch)
 * against the host's: densities from none to all, sizes 0, 1, 31, 32, 33,
 * 64 and random ones; bits set past n are ignored and nothing is written
 * past the selected elements. */
static void test_select(void **state)
{
    (void)state;
    REQUIRE_GPU();
    static const size_t fixed[] = {0, 1, 31, 32, 33, 64, 1000};
    enum { NFIXED = sizeof(fixed) / sizeof(fixed[0]) };
    for (int iter = 0; iter < test_iters(NFIXED + 8); iter++) {
        size_t n = iter < NFIXED ? fixed[iter] : 1 + (size_t)(rng_next(&test_rng) % 100000);
        unsigned density = (unsigned)iter % 4; /* in quarters: 0 none ... 3 three of four */
        if (iter % 7 == 6)
            density = 4; /* all */
        size_t words = (n + 31) / 32 + 1;
        unsigned char *in = malloc(n * FR_BYTES + 1), *want = malloc(n * FR_BYTES + 1);
        unsigned char *got = malloc((n + 1) * FR_BYTES);
        uint32_t *bitmap = calloc(words, sizeof(uint32_t));
        assert_non_null(in && want && got && bitmap);
        for (size_t i = 0; i < n * FR_BYTES; i++)
            in[i] = (unsigned char)rng_next(&test_rng);
        size_t k = 0;
        for (size_t i = 0; i < 32 * words; i++) {
            bool set = density == 4 || rng_next(&test_rng) % 4 < density;
            if (!set && i < n)
                continue;
            bitmap[i / 32] |= 1u << (i % 32); /* past n: set, to be ignored */
            if (i < n)
                memcpy(want + FR_BYTES * k++, in + FR_BYTES * i, FR_BYTES);
        }
        void *din = to_device(in, n * FR_BYTES), *dbm = to_device(bitmap, words * 4);
        void *dout = NULL, *dscr = NULL;
        GPU_OK(gpu_alloc(&gpu, &dout, (k + 1) * FR_BYTES));
        GPU_OK(gpu_alloc(&gpu, &dscr, gpu_bitmap_compact_scratch_bytes(n)));
        GPU_OK(gpu_memset(&gpu, dout, 0xa5, (k + 1) * FR_BYTES, NULL));
        GPU_OK(gpu_bitmap_select_launch(&gpu, dout, din, dbm, n, dscr, NULL));
        GPU_OK(gpu_download(&gpu, got, dout, (k + 1) * FR_BYTES, NULL));
        GPU_OK(gpu_sync(&gpu));
        for (size_t j = 0; j < k; j++)
            if (memcmp(got + FR_BYTES * j, want + FR_BYTES * j, FR_BYTES) != 0)
                fail_msg("n = %zu, %zu selected: element %zu differs", n, k, j);
        for (size_t b = 0; b < FR_BYTES; b++)
            if (got[FR_BYTES * k + b] != 0xa5)
                fail_msg("n = %zu, %zu selected: written past the last", n, k);
        gpu_free(din);
        gpu_free(dbm);
        gpu_free(dout);
        gpu_free(dscr);
        free(in);
        free(want);
        free(got);
        free(bitmap);
    }
}

/* ---- R1CS ------------------------------------------------------------------ */

/* The device copy of a CPU CSR matrix; free with csr_device_free. */
static gpu_csr_t csr_device(const field_t *F, const void *m)
{
    gpu_csr_t h = F->csr_view(m);
    uint64_t nnz = h.row_ptr[h.n_rows];
    gpu_csr_t d = {h.n_rows, NULL, NULL, NULL};
    d.row_ptr = to_device(h.row_ptr, (h.n_rows + 1) * sizeof(uint64_t));
    d.col = to_device(h.col, nnz * sizeof(uint32_t));
    d.val = to_device(h.val, nnz * FR_BYTES);
    return d;
}

static void csr_device_free(gpu_csr_t *d)
{
    gpu_free((void *)d->row_ptr);
    gpu_free((void *)d->col);
    gpu_free((void *)d->val);
}

static void test_r1cs(void **state)
{
    (void)state;
    REQUIRE_GPU();
    /* rows, columns, short rows' most entries, one long row in, its length */
    static const uint32_t shapes[][5] = {
        {0, 1, 3, 0, 0},        {1, 1, 0, 0, 0},
        {1, 5, 40, 0, 0},       {7, 3, 3, 2, 1000},
        {100, 50, 3, 10, 33},   {1000, 700, 40, 50, 32},
        {20000, 9000, 6, 0, 0}, {3000, 5000, 2, 300, 5000},
    };
    enum { NSHAPES = sizeof(shapes) / sizeof(shapes[0]) };
    for (int fi = 0; fi < NFIELDS; fi++) {
        const field_t *F = &fields[fi];
        for (int iter = 0; iter < test_iters(NSHAPES + 2); iter++) {
            uint32_t sh[5];
            if (iter < NSHAPES) {
                memcpy(sh, shapes[iter], sizeof(sh));
            } else {
                sh[0] = (uint32_t)(rng_next(&test_rng) % 30000);
                sh[1] = 1 + (uint32_t)(rng_next(&test_rng) % 30000);
                sh[2] = (uint32_t)(rng_next(&test_rng) % 8);
                sh[3] = 100 + (uint32_t)(rng_next(&test_rng) % 1000);
                sh[4] = 33 + (uint32_t)(rng_next(&test_rng) % 2000);
            }
            uint32_t rows = sh[0], cols = sh[1];
            void *m[3];
            for (int j = 0; j < 3; j++) {
                m[j] = calloc(1, F->csr_size);
                assert_non_null(m[j]);
                F->csr_random(m[j], rows, cols, sh[2], sh[3], sh[4]);
            }
            unsigned char *w = malloc((size_t)cols * FR_BYTES);
            unsigned char *want = malloc(3 * (size_t)(rows + 1) * FR_BYTES);
            unsigned char *got = malloc(3 * (size_t)(rows + 1) * FR_BYTES);
            assert_non_null(w && want && got);
            for (uint32_t i = 0; i < cols; i++) {
                uint64_t roll = rng_next(&test_rng) % 16;
                F->element(w + (size_t)i * FR_BYTES, roll < 5 ? (unsigned)roll : 0);
            }
            size_t vb = (size_t)rows * FR_BYTES;
            F->eval(m[0], m[1], m[2], rows, cols, w, want, want + vb, want + 2 * vb);
            gpu_csr_t d[3];
            for (int j = 0; j < 3; j++)
                d[j] = csr_device(F, m[j]);
            void *dw = to_device(w, (size_t)cols * FR_BYTES), *dy = NULL;
            GPU_OK(gpu_alloc(&gpu, &dy, 3 * vb + FR_BYTES));
            GPU_OK(gpu_memset(&gpu, dy, 0xa5, 3 * vb + FR_BYTES, NULL));
            unsigned char *dyc = dy;
            GPU_OK(gpu_r1cs_eval_launch(&gpu, F->curve, &d[0], &d[1], &d[2], dw, dyc, dyc + vb,
                                        dyc + 2 * vb, NULL));
            GPU_OK(gpu_download(&gpu, got, dy, 3 * vb, NULL));
            GPU_OK(gpu_sync(&gpu));
            for (size_t i = 0; i < 3 * (size_t)rows; i++)
                if (memcmp(want + i * FR_BYTES, got + i * FR_BYTES, FR_BYTES) != 0)
                    fail_msg("%s %u x %u (short <= %u, long 1/%u of %u): %c row %zu differs",
                             F->name, rows, cols, sh[2], sh[3], sh[4], "abc"[i / rows], i % rows);
            for (int j = 0; j < 3; j++) {
                csr_device_free(&d[j]);
                F->csr_free(m[j]);
                free(m[j]);
            }
            gpu_free(dw);
            gpu_free(dy);
            free(w);
            free(want);
            free(got);
        }
    }
}

int main(void)
{
    test_seed_init("test_cuda_prove");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_select),
        cmocka_unit_test(test_r1cs),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}

#else /* !CUZK_HAVE_CUDA */

int main(void)
{
    printf("test_cuda_prove: CUDA backend not built (no nvcc at configure time): skipped\n");
    return 0;
}

#endif
