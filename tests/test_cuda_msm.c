/*
 * GPU curve arithmetic and MSM (src/cuda/ec.cuh, msm.cuh, msm.c) against the
 * CPU (src/ec, src/msm), for G1 and G2 of both curves:
 *  - mixed and XYZZ additions and doublings on random points, with the
 *    cases p = q, p = -q, q = 2p and infinity on either side;
 *  - MSMs of sizes 0, 1, 2, 3, non-powers of two up to 6000, with scalars
 *    0, 1, r - 1 and random, bases at infinity, repeated and negated, for
 *    the model's window and forced windows 1 .. 20, Montgomery and
 *    canonical scalars, resident on the device or streamed from host
 *    memory in chunks (straight, or from pageable memory through pinned
 *    bounce buffers), and sparse over a random subset of the points (an
 *    index list), or left as window sums that the CPU adds up; all
 *    scalars alike (one run a window, across every chunk of the bucket
 *    kernel) at windows up to 22;
 *  - the sum of the bases whose scalar is one (src/cuda/prove.cuh), driven
 *    by the bitmap the device classification writes, against the CPU's sum
 *    by mixed additions: 0 .. 2^23 + 4321 points, about 45 % of scalars one,
 *    bases at infinity, repeated and negated among them.
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
#include "cuda/gpu_kernels.h"
#include "cuda/gpu_msm.h"
#include "cuda/gpu_prove.h"
#include "msm/bls381_msm.h"
#include "msm/bn254_msm.h"

static gpu_t gpu;
static bool have_gpu;

/* One group as the test sees it: the GPU side, and the CPU operations
 * behind void pointers (GROUP_WRAP writes them for each group). */
typedef struct {
    gpu_group_t grp;
    const gpu_group_kernels_t *k;
    size_t affine, xyzz, jac;
    /* n random points of the group (a random walk, one inversion). */
    void (*points)(void *out, size_t n);
    void (*neg)(void *r, const void *p);
    void (*dbl)(void *r, const void *p); /* affine 2p */
    /* r (XYZZ) = the CPU's answer to gpu_eop_t op on affine p, q. */
    void (*eop)(int op, void *r, const void *p, const void *q);
    bool (*xyzz_equal)(const void *a, const void *b);
    /* r (Jacobian) = Σ k_i·P_i on the CPU. */
    cuzk_status_t (*msm)(void *r, const void *bases, const void *scalars, size_t n);
    /* Whether the GPU's XYZZ r is the CPU's Jacobian want. */
    bool (*msm_equal)(const void *r, const void *want);
    void (*scalar_random)(void *k);
    void (*scalar_special)(void *k, unsigned which); /* 0, 1, r - 1 */
    void (*to_canonical)(uint64_t out[4], const void *k);
    /* The CPU's classes of n scalars (NAME_msm_classify). */
    cuzk_status_t (*classify)(uint8_t *cls, msm_counts_t *counts, const void *k, size_t n);
    /* r (XYZZ) = Σ bases[i] over cls[i] == CUZK_MSM_ONE, by mixed additions. */
    void (*sum_ones)(void *r, const void *bases, const uint8_t *cls, size_t n);
    /* r (XYZZ) = Σ_w 2^(w·c)·win[w] over W XYZZ window sums, on the CPU. */
    void (*horner)(void *r, const void *win, unsigned W, unsigned c);
} group_t;

#define GROUP_WRAP(G, FR)                                                                          \
    static void G##_points_(void *out, size_t n)                                                   \
    {                                                                                              \
        G##_jac_t step[4], acc, *walk = malloc((n ? n : 1) * sizeof(G##_jac_t));                   \
        G##_affine_t g;                                                                            \
        assert_non_null(walk);                                                                     \
        G##_generator(&g);                                                                         \
        for (int s = 0; s < 4; s++) {                                                              \
            uint64_t k[4];                                                                         \
            for (int l = 0; l < 4; l++)                                                            \
                k[l] = rng_next(&test_rng);                                                        \
            G##_jac_from_affine(&step[s], &g);                                                     \
            G##_jac_mul_vartime(&step[s], &step[s], k);                                            \
        }                                                                                          \
        acc = step[0];                                                                             \
        for (size_t i = 0; i < n; i++) {                                                           \
            G##_jac_add_vartime(&acc, &acc, &step[rng_next(&test_rng) & 3]);                       \
            walk[i] = acc;                                                                         \
        }                                                                                          \
        G##_jacs_to_affine_vartime(out, walk, n);                                                  \
        free(walk);                                                                                \
    }                                                                                              \
    static void G##_neg_(void *r, const void *p)                                                   \
    {                                                                                              \
        G##_affine_neg(r, p);                                                                      \
    }                                                                                              \
    static void G##_dbl_(void *r, const void *p)                                                   \
    {                                                                                              \
        G##_jac_t j;                                                                               \
        G##_jac_from_affine(&j, p);                                                                \
        G##_jac_dbl(&j, &j);                                                                       \
        G##_jac_to_affine(r, &j);                                                                  \
    }                                                                                              \
    static void G##_eop_(int op, void *r, const void *p, const void *q)                            \
    {                                                                                              \
        G##_xyzz_t x, y;                                                                           \
        G##_xyzz_from_affine(&x, p);                                                               \
        if (op != CUZK_GPU_EOP_MADD)                                                               \
            G##_xyzz_dbl(&x, &x);                                                                  \
        if (op == CUZK_GPU_EOP_ADD) {                                                              \
            G##_xyzz_from_affine(&y, q);                                                           \
            G##_xyzz_dbl(&y, &y);                                                                  \
            G##_xyzz_add_vartime(&x, &x, &y);                                                      \
        } else {                                                                                   \
            G##_xyzz_add_affine_vartime(&x, &x, q);                                                \
        }                                                                                          \
        *(G##_xyzz_t *)r = x;                                                                      \
    }                                                                                              \
    static bool G##_xyzz_equal_(const void *a, const void *b)                                      \
    {                                                                                              \
        return G##_xyzz_equal(a, b);                                                               \
    }                                                                                              \
    static cuzk_status_t G##_msm_(void *r, const void *bases, const void *scalars, size_t n)       \
    {                                                                                              \
        return G##_msm_vartime(r, bases, scalars, n, NULL);                                        \
    }                                                                                              \
    static bool G##_msm_equal_(const void *r, const void *want)                                    \
    {                                                                                              \
        G##_affine_t a;                                                                            \
        G##_xyzz_to_affine(&a, r);                                                                 \
        return G##_jac_equal_affine(want, &a);                                                     \
    }                                                                                              \
    static void G##_scalar_random_(void *k)                                                        \
    {                                                                                              \
        assert_int_equal(FR##_random(k, &test_rng), CUZK_OK);                                      \
    }                                                                                              \
    static void G##_scalar_special_(void *k, unsigned which)                                       \
    {                                                                                              \
        if (which == 0) {                                                                          \
            FR##_set_zero(k);                                                                      \
        } else {                                                                                   \
            FR##_set_one(k);                                                                       \
            if (which == 2)                                                                        \
                FR##_neg(k, k);                                                                    \
        }                                                                                          \
    }                                                                                              \
    static void G##_to_canonical_(uint64_t out[4], const void *k)                                  \
    {                                                                                              \
        FR##_to_canonical(out, k);                                                                 \
    }                                                                                              \
    static cuzk_status_t G##_classify_(uint8_t *cls, msm_counts_t *counts, const void *k,          \
                                       size_t n)                                                   \
    {                                                                                              \
        return G##_msm_classify(cls, counts, k, n, NULL);                                          \
    }                                                                                              \
    static void G##_sum_ones_(void *r, const void *bases, const uint8_t *cls, size_t n)            \
    {                                                                                              \
        G##_xyzz_t acc;                                                                            \
        G##_xyzz_set_infinity(&acc);                                                               \
        for (size_t i = 0; i < n; i++)                                                             \
            if (cls[i] == CUZK_MSM_ONE)                                                            \
                G##_xyzz_add_affine_vartime(&acc, &acc, (const G##_affine_t *)bases + i);          \
        *(G##_xyzz_t *)r = acc;                                                                    \
    }                                                                                              \
    static void G##_horner_(void *r, const void *win, unsigned W, unsigned c)                      \
    {                                                                                              \
        const G##_xyzz_t *x = win;                                                                 \
        G##_xyzz_t acc = x[W - 1];                                                                 \
        for (unsigned w = W - 1; w-- > 0;) {                                                       \
            for (unsigned b = 0; b < c; b++)                                                       \
                G##_xyzz_dbl(&acc, &acc);                                                          \
            G##_xyzz_add_vartime(&acc, &acc, &x[w]);                                               \
        }                                                                                          \
        *(G##_xyzz_t *)r = acc;                                                                    \
    }

GROUP_WRAP(bls381_g1, bls381_fr)
GROUP_WRAP(bls381_g2, bls381_fr)
GROUP_WRAP(bn254_g1, bn254_fr)
GROUP_WRAP(bn254_g2, bn254_fr)

#define GROUP_ENTRY(G, GRP, curve, member)                                                         \
    {                                                                                              \
        GRP, &gpu_##curve##_kernels.member, sizeof(G##_affine_t), sizeof(G##_xyzz_t),              \
            sizeof(G##_jac_t), G##_points_, G##_neg_, G##_dbl_, G##_eop_, G##_xyzz_equal_,         \
            G##_msm_, G##_msm_equal_, G##_scalar_random_, G##_scalar_special_, G##_to_canonical_,  \
            G##_classify_, G##_sum_ones_, G##_horner_                                              \
    }

static const group_t groups[] = {
    GROUP_ENTRY(bls381_g1, CUZK_GPU_BLS381_G1, bls381, g1),
    GROUP_ENTRY(bls381_g2, CUZK_GPU_BLS381_G2, bls381, g2),
    GROUP_ENTRY(bn254_g1, CUZK_GPU_BN254_G1, bn254, g1),
    GROUP_ENTRY(bn254_g2, CUZK_GPU_BN254_G2, bn254, g2),
};
enum { NGROUPS = sizeof(groups) / sizeof(groups[0]) };

static int setup(void **state)
{
    (void)state;
    return gpu_open_first(&gpu, &have_gpu) == CUZK_OK ? 0 : -1;
}

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

/* A device copy of n elements of `bytes` each. */
static void *to_device(const void *host, size_t bytes)
{
    void *d = NULL;
    GPU_OK(gpu_alloc(&gpu, &d, bytes));
    GPU_OK(gpu_upload(&gpu, d, host, bytes, NULL));
    return d;
}

/* ---- point operations --------------------------------------------------- */

/* The window model under a memory budget (host code: runs without a GPU):
 * with room, the model's choice; with too little for any window, the
 * window of the smallest workspace, never the enormous c = 1. */
static void test_plan_budget(void **state)
{
    (void)state;
    size_t n = (size_t)1 << 27;
    gpu_msm_plan_t free_plan, tight, none;
    gpu_msm_plan(&free_plan, CUZK_GPU_BLS381_G1, n, 0, 0);
    gpu_msm_plan(&tight, CUZK_GPU_BLS381_G1, n, 0, free_plan.bytes);
    assert_int_equal(tight.window, free_plan.window);
    gpu_msm_plan(&none, CUZK_GPU_BLS381_G1, n, 0, 1);
    assert_true(none.window > 1);
    for (unsigned c = 1; c <= 20; c++) {
        gpu_msm_plan_t p;
        gpu_msm_plan(&p, CUZK_GPU_BLS381_G1, n, c, 0);
        assert_true(none.bytes <= p.bytes);
    }
}

static void test_points(void **state)
{
    (void)state;
    REQUIRE_GPU();
    for (int gi = 0; gi < NGROUPS; gi++) {
        const group_t *G = &groups[gi];
        size_t n = 600 + (size_t)(rng_next(&test_rng) % 400);
        unsigned char *p = calloc(n, G->affine), *q = calloc(n, G->affine);
        unsigned char *want = malloc(n * G->xyzz), *got = malloc(n * G->xyzz);
        assert_non_null(p && q && want && got);
        G->points(p, n);
        G->points(q, n);
        /* The special cases, each a few times: q = p, q = -p, q = 2p, either
         * at infinity (calloc left it zero: skip writing those). */
        for (size_t i = 0; i < n; i++) {
            unsigned char *pi = p + i * G->affine, *qi = q + i * G->affine;
            switch (rng_next(&test_rng) % 10) {
            case 0: memcpy(qi, pi, G->affine); break;
            case 1: G->neg(qi, pi); break;
            case 2: G->dbl(qi, pi); break;
            case 3: memset(pi, 0, G->affine); break;
            case 4: memset(qi, 0, G->affine); break;
            default: break;
            }
        }
        void *dp = to_device(p, n * G->affine), *dq = to_device(q, n * G->affine), *dr = NULL;
        GPU_OK(gpu_alloc(&gpu, &dr, n * G->xyzz));
        for (int op = 0; op < CUZK_GPU_EOP_COUNT; op++) {
            GPU_OK(gpu_memset(&gpu, dr, 0xa5, n * G->xyzz, NULL));
            GPU_OK(gpu_status(&gpu, G->k->ec_batch(dr, dp, dq, n, op, NULL), "ec_batch", __FILE__,
                              __LINE__));
            GPU_OK(gpu_download(&gpu, got, dr, n * G->xyzz, NULL));
            GPU_OK(gpu_sync(&gpu));
            for (size_t i = 0; i < n; i++) {
                G->eop(op, want + i * G->xyzz, p + i * G->affine, q + i * G->affine);
                if (!G->xyzz_equal(want + i * G->xyzz, got + i * G->xyzz))
                    fail_msg("%s op %d: point %zu differs", G->k->name, op, i);
            }
        }
        gpu_free(dp);
        gpu_free(dq);
        gpu_free(dr);
        free(p);
        free(q);
        free(want);
        free(got);
    }
}

/* ---- MSM ------------------------------------------------------------------ */

/* One GPU MSM of (bases, scalars) with the given window (0: the model's),
 * checked against the CPU's answer want. */
static void check_msm(const group_t *G, gpu_msm_t *m, const void *want, const void *bases,
                      const void *scalars, size_t n, bool mont, unsigned window)
{
    void *db = to_device(bases, n * G->affine);
    void *ds = to_device(scalars, n * CUZK_GPU_SCALAR_BYTES);
    unsigned char got[4 * 2 * 48];
    assert_true(G->xyzz <= sizeof(got));
    gpu_msm_set_window(m, window);
    GPU_OK(gpu_msm(m, got, db, ds, n, mont, NULL));
    gpu_msm_plan_t plan = gpu_msm_last_plan(m);
    if (!G->msm_equal(got, want))
        fail_msg("%s: n = %zu, window %u (asked %u), %s scalars: wrong sum", G->k->name, n,
                 n ? plan.window : 0, window, mont ? "Montgomery" : "canonical");
    gpu_free(db);
    gpu_free(ds);
}

/* The window sums (gpu_msm_launch_windows), finished on the CPU: room
 * for all the windows, and for one only (the device then combines). */
static void check_windows(const group_t *G, gpu_msm_t *m, const void *want, const void *bases,
                          const void *scalars, size_t n)
{
    enum { MAX_WIN = 256 };
    void *db = to_device(bases, n * G->affine);
    void *ds = to_device(scalars, n * CUZK_GPU_SCALAR_BYTES), *dw = NULL;
    unsigned char *win = malloc(MAX_WIN * G->xyzz), got[4 * 2 * 48];
    assert_non_null(win);
    GPU_OK(gpu_alloc(&gpu, &dw, MAX_WIN * G->xyzz));
    gpu_msm_set_window(m, 0);
    static const unsigned room[] = {MAX_WIN, 1};
    for (int i = 0; i < 2; i++) {
        gpu_msm_windows_t w;
        GPU_OK(gpu_msm_launch_windows(m, dw, room[i], db, ds, NULL, n, true, &w, NULL));
        GPU_OK(gpu_download(&gpu, win, dw, (size_t)w.windows * G->xyzz, NULL));
        GPU_OK(gpu_sync(&gpu));
        assert_true(w.windows >= 1 && w.windows <= room[i]);
        G->horner(got, win, w.windows, w.window);
        if (!G->msm_equal(got, want))
            fail_msg("%s: n = %zu, %u windows of %u bits finished on the host: wrong sum",
                     G->k->name, n, w.windows, w.window);
    }
    gpu_free(dw);
    gpu_free(db);
    gpu_free(ds);
    free(win);
}

/* The streamed variant from host memory, in chunks of `chunk` points. */
static void check_streamed(const group_t *G, gpu_msm_t *m, const void *want, const void *bases,
                           const void *scalars, size_t n, size_t chunk)
{
    unsigned char got[4 * 2 * 48];
    gpu_msm_set_window(m, 0);
    GPU_OK(gpu_msm_streamed(m, got, bases, scalars, n, true, chunk, NULL));
    if (!G->msm_equal(got, want))
        fail_msg("%s: n = %zu streamed in chunks of %zu: wrong sum", G->k->name, n, chunk);
}

/* Counts the paged variant's copies. */
static void count_copy(void *ctx, void *dst, const void *src, size_t bytes)
{
    *(size_t *)ctx += bytes;
    memcpy(dst, src, bytes);
}

/* The paged variant: bases in pageable memory, through the pinned bounce
 * buffers (every byte copied once), scalars on the device. */
static void check_paged(const group_t *G, gpu_msm_t *m, const void *want, const void *bases,
                        const void *scalars, size_t n, size_t chunk)
{
    unsigned char got[4 * 2 * 48];
    void *ds = to_device(scalars, n * CUZK_GPU_SCALAR_BYTES), *dr = NULL;
    GPU_OK(gpu_alloc(&gpu, &dr, G->xyzz));
    size_t copied = 0;
    gpu_msm_set_window(m, 0);
    GPU_OK(gpu_msm_paged_launch(m, dr, bases, count_copy, &copied, ds, n, true, chunk, NULL));
    GPU_OK(gpu_download(&gpu, got, dr, G->xyzz, NULL));
    GPU_OK(gpu_sync(&gpu));
    if (!G->msm_equal(got, want))
        fail_msg("%s: n = %zu paged in chunks of %zu: wrong sum", G->k->name, n, chunk);
    assert_int_equal(copied, n * G->affine);
    gpu_free(ds);
    gpu_free(dr);
}

/* The sparse MSM over a random subset of the points (gpu_msm_launch_idx),
 * against the CPU's MSM of the gathered subset. */
static void check_msm_idx(const group_t *G, gpu_msm_t *m, const unsigned char *bases,
                          const unsigned char *scalars, size_t n)
{
    uint32_t *idx = calloc(n + 1, sizeof(uint32_t));
    unsigned char *sb = calloc(n + 1, G->affine), *ss = calloc(n + 1, CUZK_GPU_SCALAR_BYTES);
    assert_non_null(idx && sb && ss);
    uint64_t keep = rng_next(&test_rng) % 5; /* 0: none ... 4: all */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (rng_next(&test_rng) % 4 < keep) {
            idx[k] = (uint32_t)i;
            memcpy(sb + k * G->affine, bases + i * G->affine, G->affine);
            memcpy(ss + k * CUZK_GPU_SCALAR_BYTES, scalars + i * CUZK_GPU_SCALAR_BYTES,
                   CUZK_GPU_SCALAR_BYTES);
            k++;
        }
    }
    unsigned char want[4 * 3 * 96], got[4 * 2 * 48];
    assert_int_equal(G->msm(want, sb, ss, k), CUZK_OK);
    void *db = to_device(bases, n * G->affine), *ds = to_device(scalars, n * CUZK_GPU_SCALAR_BYTES);
    void *di = to_device(idx, k * sizeof(uint32_t)), *dr = NULL;
    GPU_OK(gpu_alloc(&gpu, &dr, G->xyzz));
    gpu_msm_set_window(m, 0);
    GPU_OK(gpu_msm_launch_idx(m, dr, db, ds, di, k, true, NULL));
    GPU_OK(gpu_download(&gpu, got, dr, G->xyzz, NULL));
    GPU_OK(gpu_sync(&gpu));
    if (!G->msm_equal(got, want))
        fail_msg("%s: sparse MSM over %zu of %zu points: wrong sum", G->k->name, k, n);
    gpu_free(db);
    gpu_free(ds);
    gpu_free(di);
    gpu_free(dr);
    free(idx);
    free(sb);
    free(ss);
}

static void test_msm(void **state)
{
    (void)state;
    REQUIRE_GPU();
    static const size_t fixed[] = {0, 1, 2, 3, 7, 64, 100, 1000};
    enum { NFIXED = sizeof(fixed) / sizeof(fixed[0]) };
    for (int gi = 0; gi < NGROUPS; gi++) {
        const group_t *G = &groups[gi];
        gpu_msm_t *m = NULL;
        GPU_OK(gpu_msm_new(&m, &gpu, G->grp));
        for (int iter = 0; iter < test_iters(NFIXED + 4); iter++) {
            size_t n = iter < NFIXED ? fixed[iter] : 1 + (size_t)(rng_next(&test_rng) % 6000);
            unsigned char *bases = calloc(n + 1, G->affine);
            unsigned char *scalars = calloc(n + 1, CUZK_GPU_SCALAR_BYTES);
            uint64_t(*canon)[4] = calloc(n + 1, sizeof(*canon));
            unsigned char want[4 * 3 * 96];
            assert_non_null(bases && scalars && canon);
            assert_true(G->jac <= sizeof(want));
            G->points(bases, n);
            for (size_t i = 0; i < n; i++) {
                unsigned char *b = bases + i * G->affine, *k = scalars + i * CUZK_GPU_SCALAR_BYTES;
                uint64_t roll = rng_next(&test_rng) % 16;
                if (roll < 3)
                    G->scalar_special(k, (unsigned)roll);
                else
                    G->scalar_random(k);
                /* Bases: some at infinity, some repeating or negating an
                 * earlier one (so that buckets meet equal and opposite
                 * points). */
                uint64_t broll = rng_next(&test_rng) % 16;
                if (broll == 0) {
                    memset(b, 0, G->affine);
                } else if (broll <= 2 && i > 0) {
                    const unsigned char *e = bases + (size_t)(rng_next(&test_rng) % i) * G->affine;
                    if (broll == 1)
                        memcpy(b, e, G->affine);
                    else
                        G->neg(b, e);
                }
                G->to_canonical(canon[i], k);
            }
            assert_int_equal(G->msm(want, bases, scalars, n), CUZK_OK);
            check_msm(G, m, want, bases, scalars, n, true, 0);
            check_windows(G, m, want, bases, scalars, n);
            check_msm_idx(G, m, bases, scalars, n);
            if (n == 0) {
                check_streamed(G, m, want, bases, scalars, n, 0);
                check_paged(G, m, want, bases, scalars, n, 0);
            }
            if (iter == NFIXED) {
                check_msm(G, m, want, bases, canon, n, false, 0);
                static const size_t chunks[] = {7, 1000, 0};
                for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
                    check_streamed(G, m, want, bases, scalars, n, chunks[c]);
                    check_paged(G, m, want, bases, scalars, n, chunks[c]);
                }
                static const unsigned windows[] = {1, 2, 3, 5, 8, 11, 13, 16, 20};
                for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++)
                    check_msm(G, m, want, bases, scalars, n, true, windows[w]);
                /* each window's pairs sorted on their own, as large runs do */
                gpu_msm_set_sort_apart(m, true);
                check_msm(G, m, want, bases, scalars, n, true, 0);
                check_msm(G, m, want, bases, scalars, n, true, 5);
                assert_false(gpu_msm_last_plan(m).sort_all);
                gpu_msm_set_sort_apart(m, false);
                check_msm(G, m, want, bases, scalars, n, true, 0);
                assert_true(gpu_msm_last_plan(m).sort_all);
            }
            free(bases);
            free(scalars);
            free(canon);
        }
        gpu_msm_free(m);
    }
}

/* All scalars alike: every point lands in one bucket of each window, one
 * run across all of the bucket kernel's chunks, at the model's window and
 * at forced ones up to 22 (whose top window keeps 13 bits). */
static void test_msm_one_bucket(void **state)
{
    (void)state;
    REQUIRE_GPU();
    for (int gi = 0; gi < NGROUPS; gi++) {
        const group_t *G = &groups[gi];
        size_t n = 3000;
        unsigned char *bases = calloc(n, G->affine), *scalars = calloc(n, CUZK_GPU_SCALAR_BYTES);
        unsigned char want[4 * 3 * 96];
        assert_non_null(bases && scalars);
        G->points(bases, n);
        G->scalar_random(scalars);
        for (size_t i = 1; i < n; i++)
            memcpy(scalars + i * CUZK_GPU_SCALAR_BYTES, scalars, CUZK_GPU_SCALAR_BYTES);
        assert_int_equal(G->msm(want, bases, scalars, n), CUZK_OK);
        gpu_msm_t *m = NULL;
        GPU_OK(gpu_msm_new(&m, &gpu, G->grp));
        static const unsigned windows[] = {0, 1, 7, 16, 22};
        for (int apart = 0; apart < 2; apart++) {
            gpu_msm_set_sort_apart(m, apart);
            for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++)
                check_msm(G, m, want, bases, scalars, n, true, windows[w]);
        }
        gpu_msm_free(m);
        free(bases);
        free(scalars);
    }
}

/* A streamed run's chunks merging into the buckets of the chunks before:
 * chunks of 500 points whose bucket sums equal the sums so far (the merge
 * doubles), are their negation (the merge reaches infinity), or are all
 * infinity (scalars 0), then a last ordinary chunk. */
static void test_msm_streamed_merge(void **state)
{
    (void)state;
    REQUIRE_GPU();
    enum { CHUNK = 500, CHUNKS = 6 };
    for (int gi = 0; gi < NGROUPS; gi++) {
        const group_t *G = &groups[gi];
        size_t n = (size_t)CHUNK * CHUNKS;
        unsigned char *bases = calloc(n, G->affine), *scalars = calloc(n, CUZK_GPU_SCALAR_BYTES);
        unsigned char want[4 * 3 * 96];
        assert_non_null(bases && scalars);
        G->points(bases, CHUNK);
        for (size_t i = 0; i < CHUNK; i++)
            G->scalar_random(scalars + i * CUZK_GPU_SCALAR_BYTES);
        /* chunks: X, X (the sums so far doubled), -X, -X (back to
         * infinity), zero scalars, X */
        for (int c = 1; c < CHUNKS; c++) {
            unsigned char *b = bases + (size_t)c * CHUNK * G->affine;
            unsigned char *k = scalars + (size_t)c * CHUNK * CUZK_GPU_SCALAR_BYTES;
            for (size_t i = 0; i < CHUNK; i++) {
                if (c == 2 || c == 3)
                    G->neg(b + i * G->affine, bases + i * G->affine);
                else
                    memcpy(b + i * G->affine, bases + i * G->affine, G->affine);
            }
            if (c != 4)
                memcpy(k, scalars, (size_t)CHUNK * CUZK_GPU_SCALAR_BYTES);
        }
        assert_int_equal(G->msm(want, bases, scalars, n), CUZK_OK);
        gpu_msm_t *m = NULL;
        GPU_OK(gpu_msm_new(&m, &gpu, G->grp));
        check_streamed(G, m, want, bases, scalars, n, CHUNK);
        check_paged(G, m, want, bases, scalars, n, CHUNK);
        gpu_msm_free(m);
        free(bases);
        free(scalars);
    }
}

/* ---- the sum of the scalar-one bases ------------------------------------- */

static void test_sum_ones(void **state)
{
    (void)state;
    REQUIRE_GPU();
    static const size_t fixed[] = {0, 1, 2, 33, 1000};
    enum { NFIXED = sizeof(fixed) / sizeof(fixed[0]) };
    for (int gi = 0; gi < NGROUPS; gi++) {
        const group_t *G = &groups[gi];
        gpu_curve_t curve = G->grp == CUZK_GPU_BLS381_G1 || G->grp == CUZK_GPU_BLS381_G2
                                ? CUZK_GPU_BLS381
                                : CUZK_GPU_BN254;
        for (int iter = 0; iter < test_iters(NFIXED + 3); iter++) {
            /* 300000: many first-level threads; 2^23 + 4321: more bitmap
             * words than the first level has threads (2^18), so that
             * threads take two words each */
            size_t n = iter < NFIXED        ? fixed[iter]
                       : iter == NFIXED     ? 300000
                       : iter == NFIXED + 1 ? ((size_t)1 << 23) + 4321
                                            : 1 + (size_t)(rng_next(&test_rng) % 20000);
            size_t words = (n + 31) / 32;
            unsigned char *bases = calloc(n + 1, G->affine);
            unsigned char *k = calloc(n + 1, CUZK_GPU_SCALAR_BYTES);
            uint8_t *cls = calloc(n + 1, 1);
            unsigned char want[4 * 2 * 48], got[4 * 2 * 48];
            assert_non_null(bases && k && cls);
            assert_true(G->xyzz <= sizeof(want));
            /* Distinct points are slow to make on the CPU: a few thousand,
             * repeated and negated. */
            size_t distinct = n < 4000 ? n : 4000;
            G->points(bases, distinct);
            for (size_t i = distinct; i < n; i++) {
                const unsigned char *e = bases + (i % distinct) * G->affine;
                if (rng_next(&test_rng) & 1)
                    memcpy(bases + i * G->affine, e, G->affine);
                else
                    G->neg(bases + i * G->affine, e);
            }
            for (size_t i = 0; i < n; i++) {
                if (rng_next(&test_rng) % 16 == 0)
                    memset(bases + i * G->affine, 0, G->affine);
                /* 45 % zero, 45 % one, 5 % r - 1, 5 % random */
                uint64_t roll = rng_next(&test_rng) % 20;
                unsigned char *ki = k + i * CUZK_GPU_SCALAR_BYTES;
                if (roll < 19)
                    G->scalar_special(ki, roll < 9 ? 0 : roll < 18 ? 1 : 2);
                else
                    G->scalar_random(ki);
            }
            msm_counts_t counts;
            assert_int_equal(G->classify(cls, &counts, k, n), CUZK_OK);
            G->sum_ones(want, bases, cls, n);
            void *dk = to_device(k, n * CUZK_GPU_SCALAR_BYTES),
                 *db = to_device(bases, n * G->affine);
            void *dbm = NULL, *dr = NULL, *scratch = NULL;
            GPU_OK(gpu_alloc(&gpu, &dbm, (words + 1) * sizeof(uint32_t)));
            GPU_OK(gpu_alloc(&gpu, &dr, G->xyzz));
            GPU_OK(gpu_alloc(&gpu, &scratch, gpu_msm_ones_scratch_bytes(G->grp, n)));
            GPU_OK(gpu_memset(&gpu, dr, 0xa5, G->xyzz, NULL));
            GPU_OK(gpu_msm_classify(&gpu, curve, NULL, dbm, dk, n, &counts, NULL));
            GPU_OK(gpu_msm_sum_ones_launch(&gpu, G->grp, dr, dbm, db, n, scratch, NULL));
            GPU_OK(gpu_download(&gpu, got, dr, G->xyzz, NULL));
            GPU_OK(gpu_sync(&gpu));
            if (!G->xyzz_equal(got, want))
                fail_msg("%s n = %zu (%zu ones): wrong sum", G->k->name, n, counts.one);
            gpu_free(dk);
            gpu_free(db);
            gpu_free(dbm);
            gpu_free(dr);
            gpu_free(scratch);
            free(bases);
            free(k);
            free(cls);
        }
    }
}

int main(void)
{
    test_seed_init("test_cuda_msm");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_budget),
        cmocka_unit_test(test_points),
        cmocka_unit_test(test_msm),
        cmocka_unit_test(test_msm_one_bucket),
        cmocka_unit_test(test_msm_streamed_merge),
        cmocka_unit_test(test_sum_ones),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}

#else /* !CUZK_HAVE_CUDA */

int main(void)
{
    printf("test_cuda_msm: CUDA backend not built (no nvcc at configure time): skipped\n");
    return 0;
}

#endif
