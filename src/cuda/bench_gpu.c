/*
 * cuzk_gpu_bench: the GPU kernels' benchmark (scripts/gpu-check.sh runs it).
 *
 *   cuzk_gpu_bench [--msm-min-log K] [--msm-max-log K] [--g2-log K] [--ntt-logs a,b,c]
 *                  [--reps R] [--windows c1,c2,..] [--h-logs a,b,c]
 *
 * For each curve: random distinct bases (a random walk per chunk of 4096,
 * on every CPU core) and uniform Montgomery scalars, resident on the device;
 * the GPU's MSM at 2^20 checked against the CPU's (src/msm) before anything
 * is timed; then G1 MSM at 2^m, 2^(m+2), .. and 2^K, G2 at 2^m, 2^(m+2), ..
 * and 2^g2 (m from --msm-min-log, 10 to 20, default 20; below 20 the sizes
 * of small proofs, each also timed with the windows sorted apart where one
 * sort orders them all; K and g2 at least 20, g2 default 20; --msm-max-log
 * 0 skips G1 and --g2-log 0 G2; --ntt-logs 0
 * and --h-logs 0 skip those), the largest G1 MSM from 2^24 and the largest G2
 * MSM from 2^22 again streamed from pinned host memory in chunks and
 * from pageable memory through pinned bounce buffers
 * (checked against the resident result), with --windows the largest G1 MSM
 * again at each forced window, and forward / inverse / coset NTTs
 * (the forward checked against the CPU at 2^20 and at the largest size),
 * and the multiplication and
 * mixed-addition throughput of every field and group; the H chains of
 * both conventions (snarkjs, bellperson) at 2^20 and 2^24 (--h-logs),
 * checked against the CPU at 2^20 first.
 * Host-to-device bandwidth from pinned and pageable memory. Every figure is
 * the median of R runs (default 5) after one warm-up run, timed with CUDA
 * events, except the resident MSMs: from the launch to the result on the
 * host (wall clock), the window sums finished on the CPU as the GPU engine
 * does, with each phase on the device timed by events. The last lines are a
 * table; everything is also printed as it goes.
 * Exit status: 0, or 1 when a check or a CUDA call fails.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/gpu.h"
#include "cuda/gpu_kernels.h"
#include "cuda/gpu_msm.h"
#include "cuda/gpu_ntt.h"
#include "msm/bls381_msm.h"
#include "msm/bn254_msm.h"
#include "ntt/bls381_ntt.h"
#include "ntt/bn254_ntt.h"
#include "util/clock.h"
#include "util/pool.h"
#include "util/rng.h"

enum { FR_BYTES = 32, CHUNK = 4096, MAX_REPS = 31, MAX_ROWS = 128 };

static gpu_t gpu;
static pool_t *pool;

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cuzk_status_t st_ = (call);                                                                \
        if (st_ != CUZK_OK) {                                                                      \
            fprintf(stderr, "FAILED %s: %s (%s)\n", #call, cuzk_strerror(st_), gpu.err);           \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* ---- the table printed last ------------------------------------------- */

typedef struct {
    char what[64];
    char size[16];
    double ms;
    char note[160];
} row_t;
static row_t rows[MAX_ROWS];
static int nrows;

/* log2n = 0: no size. */
static void add_row(const char *what, unsigned log2n, double ms, const char *note)
{
    if (nrows == MAX_ROWS)
        return;
    row_t *r = &rows[nrows++];
    snprintf(r->what, sizeof(r->what), "%s", what);
    if (log2n)
        snprintf(r->size, sizeof(r->size), "2^%u", log2n);
    else
        snprintf(r->size, sizeof(r->size), "-");
    r->ms = ms;
    snprintf(r->note, sizeof(r->note), "%s", note);
    printf("%-28s %-6s %10.3f ms  %s\n", r->what, r->size, r->ms, r->note);
    fflush(stdout);
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static float median(float *v, int n)
{
    qsort(v, (size_t)n, sizeof(float), cmp_float);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- inputs, on every core ---------------------------------------------- */

/* Per group: points of chunk c (CHUNK of them, a walk from a random start
 * with four random steps, one inversion), and Fr elements. */
typedef struct {
    void (*points)(void *out, size_t count, uint64_t seed);
    void (*scalars)(void *out, size_t count, uint64_t seed);
    size_t affine;
} gen_t;

#define GEN_WRAP(G, FR)                                                                            \
    static void G##_gen_points_(void *out, size_t count, uint64_t seed)                            \
    {                                                                                              \
        rng_t rng;                                                                                 \
        rng_seed(&rng, seed);                                                                      \
        G##_jac_t step[5], *walk = malloc(CHUNK * sizeof(G##_jac_t));                              \
        G##_affine_t g;                                                                            \
        if (!walk)                                                                                 \
            exit(1);                                                                               \
        G##_generator(&g);                                                                         \
        for (int s = 0; s < 5; s++) {                                                              \
            uint64_t k[4];                                                                         \
            for (int l = 0; l < 4; l++)                                                            \
                k[l] = rng_next(&rng);                                                             \
            G##_jac_from_affine(&step[s], &g);                                                     \
            G##_jac_mul_vartime(&step[s], &step[s], k);                                            \
        }                                                                                          \
        for (size_t i = 0; i < count; i++) {                                                       \
            G##_jac_add_vartime(&step[4], &step[4], &step[rng_next(&rng) & 3]);                    \
            walk[i] = step[4];                                                                     \
        }                                                                                          \
        G##_jacs_to_affine_vartime(out, walk, count);                                              \
        free(walk);                                                                                \
    }                                                                                              \
    static void G##_gen_scalars_(void *out, size_t count, uint64_t seed)                           \
    {                                                                                              \
        rng_t rng;                                                                                 \
        rng_seed(&rng, seed);                                                                      \
        for (size_t i = 0; i < count; i++)                                                         \
            (void)FR##_random((FR##_t *)out + i, &rng);                                            \
    }

GEN_WRAP(bls381_g1, bls381_fr)
GEN_WRAP(bls381_g2, bls381_fr)
GEN_WRAP(bn254_g1, bn254_fr)
GEN_WRAP(bn254_g2, bn254_fr)

typedef struct {
    const gen_t *gen;
    unsigned char *out;
    bool scalars;
    uint64_t seed;
} gen_ctx_t;

static void gen_range(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const gen_ctx_t *ctx = vctx;
    for (size_t c = begin; c < end; c++) {
        if (ctx->scalars)
            ctx->gen->scalars(ctx->out + c * CHUNK * FR_BYTES, CHUNK, ctx->seed + c);
        else
            ctx->gen->points(ctx->out + c * CHUNK * ctx->gen->affine, CHUNK, ctx->seed + c);
    }
}

/* n (a multiple of CHUNK) points or scalars into out. */
static void generate(const gen_t *gen, void *out, size_t n, bool scalars, uint64_t seed)
{
    gen_ctx_t ctx = {gen, out, scalars, seed};
    pool_for(pool, n / CHUNK, 1, gen_range, &ctx);
}

/* ---- MSM ---------------------------------------------------------------- */

typedef struct {
    const char *name;
    gpu_group_t grp;
    gen_t gen;
    cuzk_status_t (*cpu_msm)(void *r, const void *bases, const void *scalars, size_t n);
    bool (*equal)(const void *gpu_xyzz, const void *cpu_jac);
    bool (*xyzz_equal)(const void *a, const void *b);
    void (*horner)(void *r, const void *win, unsigned windows, unsigned window);
    /* Whether accumulators r[0..k) of thread i of the batch-affine probe
     * (gpu_kernels.h) are what the CPU's additions give. */
    bool (*baff_check)(const void *r, const void *bases, size_t n, size_t i, unsigned k,
                       unsigned iters);
    size_t xyzz;
} group_t;

#define GROUP_WRAP(G)                                                                              \
    static cuzk_status_t G##_cpu_msm_(void *r, const void *bases, const void *scalars, size_t n)   \
    {                                                                                              \
        return G##_msm_vartime(r, bases, scalars, n, pool);                                        \
    }                                                                                              \
    static bool G##_equal_(const void *x, const void *j)                                           \
    {                                                                                              \
        G##_affine_t a;                                                                            \
        G##_xyzz_to_affine(&a, x);                                                                 \
        return G##_jac_equal_affine(j, &a);                                                        \
    }                                                                                              \
    static bool G##_xyzz_equal_(const void *a, const void *b)                                      \
    {                                                                                              \
        return G##_xyzz_equal(a, b);                                                               \
    }                                                                                              \
    static void G##_horner_(void *r, const void *win, unsigned windows, unsigned window)           \
    {                                                                                              \
        G##_msm_horner(r, win, windows, window);                                                   \
    }                                                                                              \
    static bool G##_baff_check_(const void *r, const void *bases, size_t n, size_t i, unsigned k,  \
                                unsigned iters)                                                    \
    {                                                                                              \
        const G##_affine_t *b = bases, *got = r;                                                   \
        bool ok = true;                                                                            \
        uint32_t h0 = (uint32_t)i * 2654435761u;                                                   \
        for (unsigned j = 0; j < k; j++) {                                                         \
            G##_jac_t acc;                                                                         \
            G##_jac_from_affine(&acc, &b[(i * k + j) % n]);                                        \
            uint32_t h = h0;                                                                       \
            for (unsigned s = 0; s < iters; s++) {                                                 \
                for (unsigned m = 0; m < k; m++) {                                                 \
                    h = gpu_baff_probe_next(h);                                                    \
                    if (m == j)                                                                    \
                        G##_jac_add_affine_vartime(&acc, &acc, &b[h % n]);                         \
                }                                                                                  \
            }                                                                                      \
            ok = ok && G##_jac_equal_affine(&acc, &got[j]);                                        \
        }                                                                                          \
        return ok;                                                                                 \
    }

GROUP_WRAP(bls381_g1)
GROUP_WRAP(bls381_g2)
GROUP_WRAP(bn254_g1)
GROUP_WRAP(bn254_g2)

#define GROUP_ENTRY(G, GRP)                                                                        \
    {                                                                                              \
        .name = #G, .grp = GRP, .gen = {G##_gen_points_, G##_gen_scalars_, sizeof(G##_affine_t)},  \
        .cpu_msm = G##_cpu_msm_, .equal = G##_equal_, .xyzz_equal = G##_xyzz_equal_,               \
        .horner = G##_horner_, .baff_check = G##_baff_check_, .xyzz = sizeof(G##_xyzz_t)           \
    }

static const group_t groups[4] = {
    GROUP_ENTRY(bls381_g1, CUZK_GPU_BLS381_G1),
    GROUP_ENTRY(bls381_g2, CUZK_GPU_BLS381_G2),
    GROUP_ENTRY(bn254_g1, CUZK_GPU_BN254_G1),
    GROUP_ENTRY(bn254_g2, CUZK_GPU_BN254_G2),
};

static unsigned reps = 5;
/* --windows: forced windows timed at the largest G1 size, besides the model's. */
static unsigned sweep[8];
static int nsweep;

/* The MSM as the GPU engine runs it, result on the host: the device's
 * window sums (gpu_msm_launch_windows), downloaded, finished by
 * Horner on the CPU (NAME_G_msm_horner). dwin: WIN_MAX points on the
 * device, hwin: as many on the host. */
enum { WIN_MAX = 64 };
static void msm_host_finished(const group_t *G, gpu_msm_t *m, void *r, void *dwin, void *hwin,
                              const void *db, const void *ds, size_t n, gpu_stream_t s)
{
    gpu_msm_windows_t w;
    CHECK(gpu_msm_launch_windows(m, dwin, WIN_MAX, db, ds, NULL, n, true, &w, s));
    CHECK(gpu_download(&gpu, hwin, dwin, w.windows * G->xyzz, s));
    CHECK(gpu_stream_sync(&gpu, s));
    G->horner(r, hwin, w.windows, w.window);
}

/* One table row: the median of `reps` MSMs of 2^lg resident points after a
 * warm-up, with the window forced (window != 0) or the model's, and the
 * median time of each phase. An MSM is timed from its launch to its result
 * on the host (msm_host_finished: wall clock), the phases with CUDA events;
 * the first run's result is checked against the device's own combination
 * (gpu_msm). */
static void time_msm(const group_t *G, gpu_msm_t *m, const void *db, const void *ds, unsigned lg,
                     unsigned window, const char *variant, gpu_stream_t s)
{
    size_t k = (size_t)1 << lg;
    float t[MAX_REPS], ph[CUZK_GPU_MSM_PHASES][MAX_REPS];
    unsigned char whole[4 * 2 * 48], got[4 * 2 * 48];
    void *dwin = NULL, *hwin = malloc(WIN_MAX * G->xyzz);
    if (!hwin)
        exit(1);
    CHECK(gpu_alloc(&gpu, &dwin, WIN_MAX * G->xyzz));
    gpu_msm_set_window(m, window);
    CHECK(gpu_msm(m, whole, db, ds, k, true, s)); /* warm-up, allocations */
    for (unsigned r = 0; r < reps; r++) {
        double t0 = clock_seconds();
        msm_host_finished(G, m, got, dwin, hwin, db, ds, k, s);
        t[r] = (float)((clock_seconds() - t0) * 1e3);
        if (r == 0 && !G->xyzz_equal(got, whole)) {
            fprintf(stderr, "FAILED %s MSM 2^%u: host-finished differs from the device's\n",
                    G->name, lg);
            exit(1);
        }
        float p[CUZK_GPU_MSM_PHASES];
        CHECK(gpu_msm_phase_ms(m, p));
        for (int i = 0; i < CUZK_GPU_MSM_PHASES; i++)
            ph[i][r] = p[i];
    }
    gpu_msm_set_window(m, 0);
    gpu_free(dwin);
    free(hwin);
    gpu_msm_plan_t plan = gpu_msm_last_plan(m);
    char note[128], what[48];
    float p[CUZK_GPU_MSM_PHASES];
    for (int i = 0; i < CUZK_GPU_MSM_PHASES; i++)
        p[i] = median(ph[i], (int)reps);
    /* Bucket additions: one a point a window, bar the zero digits. */
    double madds = (double)k * plan.windows * (1.0 - 1.0 / (double)(1u << plan.window));
    snprintf(note, sizeof(note),
             "c=%u W=%u; ms: sort %.2f, buckets %.2f (%.2f G madd/s), reduce %.2f+%.2f",
             plan.window, plan.windows, p[0], p[1], madds / (p[1] * 1e6), p[2], p[3]);
    snprintf(what, sizeof(what), "MSM %s%s%s", G->name, window ? ", window forced" : "",
             variant ? variant : "");
    add_row(what, lg, median(t, (int)reps), note);
}

/* gpu_msm_paged_launch's copies, on every core. */
static void bench_copy(void *ctx, void *dst, const void *src, size_t bytes)
{
    pool_memcpy(ctx, dst, src, bytes);
}

/* Times MSMs of 2^lo .. 2^hi (step 2) over one set of resident inputs,
 * after checking 2^check against the CPU (check 0: no check); then, when
 * hi >= stream_min (0: never), the MSM of 2^hi streamed from pinned host
 * memory in chunks of 2^(stream_min - 2) .. 2^min(hi - 1, 25) points, and
 * from pageable memory through the pinned bounce buffers (chunks of 2^22). */
static void bench_msm(const group_t *G, unsigned lo, unsigned hi, unsigned check,
                      unsigned stream_min)
{
    size_t n = (size_t)1 << hi, ab = G->gen.affine;
    printf("-- %s: generating 2^%u bases and scalars\n", G->name, hi);
    fflush(stdout);
    /* Pinned, so that the streamed runs below go at the bus's speed. */
    unsigned char *bases = NULL, *scalars = NULL;
    CHECK(gpu_host_alloc(&gpu, (void **)&bases, n * ab));
    CHECK(gpu_host_alloc(&gpu, (void **)&scalars, n * FR_BYTES));
    generate(&G->gen, bases, n, false, 1000 + (uint64_t)G->grp * 1000003);
    generate(&G->gen, scalars, n, true, 2000 + (uint64_t)G->grp * 1000003);
    void *db = NULL, *ds = NULL, *dr = NULL;
    CHECK(gpu_alloc(&gpu, &db, n * ab));
    CHECK(gpu_alloc(&gpu, &ds, n * FR_BYTES));
    CHECK(gpu_alloc(&gpu, &dr, 4 * 2 * 48));
    gpu_msm_t *m = NULL;
    CHECK(gpu_msm_new(&m, &gpu, G->grp));
    CHECK(gpu_msm_set_timing(m, true));
    gpu_stream_t s = NULL;
    CHECK(gpu_stream_new(&gpu, &s));
    /* On s, the MSMs' stream: from pinned memory these copies are truly
     * asynchronous, and s does not wait for the legacy default stream. */
    CHECK(gpu_upload(&gpu, db, bases, n * ab, s));
    CHECK(gpu_upload(&gpu, ds, scalars, n * FR_BYTES, s));
    unsigned char got[4 * 2 * 48], want[3 * 2 * 48];

    if (check) {
        size_t nc = (size_t)1 << check;
        CHECK(gpu_msm(m, got, db, ds, nc, true, s));
        CHECK(G->cpu_msm(want, bases, scalars, nc));
        if (!G->equal(got, want)) {
            fprintf(stderr, "FAILED %s MSM 2^%u: GPU and CPU differ\n", G->name, check);
            exit(1);
        }
        printf("%s MSM 2^%u: GPU = CPU\n", G->name, check);
    }

    gpu_event_t e0, e1;
    CHECK(gpu_event_new(&gpu, &e0, true));
    CHECK(gpu_event_new(&gpu, &e1, true));
    /* 2^lo, 2^(lo + 2), .. and 2^hi */
    for (unsigned lg = lo; lg <= hi; lg = lg < hi && lg + 2 > hi ? hi : lg + 2) {
        time_msm(G, m, db, ds, lg, 0, NULL, s);
        if (!gpu_msm_last_plan(m).sort_all)
            continue;
        /* the same with each window's pairs sorted on their own */
        gpu_msm_set_sort_apart(m, true);
        time_msm(G, m, db, ds, lg, 0, ", windows sorted apart", s);
        gpu_msm_set_sort_apart(m, false);
    }
    bool g1 = G->grp == CUZK_GPU_BLS381_G1 || G->grp == CUZK_GPU_BN254_G1;
    for (int wi = 0; g1 && wi < nsweep; wi++)
        time_msm(G, m, db, ds, hi, sweep[wi], NULL, s);
    gpu_msm_set_window(m, 0);
    if (stream_min && hi >= stream_min) {
        /* Streamed from pinned memory in chunks, checked against the
         * resident run of the same size. */
        unsigned char resident[4 * 2 * 48];
        CHECK(gpu_msm(m, resident, db, ds, n, true, s));
        for (unsigned cl = stream_min - 2; cl <= hi - 1 && cl <= 25; cl++) {
            float t[MAX_REPS];
            for (unsigned r = 0; r <= reps; r++) {
                CHECK(gpu_event_record(&gpu, e0, s));
                CHECK(gpu_msm_streamed(m, got, bases, scalars, n, true, (size_t)1 << cl, s));
                CHECK(gpu_event_record(&gpu, e1, s));
                CHECK(gpu_event_sync(&gpu, e1));
                if (r > 0)
                    CHECK(gpu_event_ms(&gpu, &t[r - 1], e0, e1));
                if (!G->xyzz_equal(got, resident)) {
                    fprintf(stderr, "FAILED %s streamed 2^%u: differs from resident\n", G->name,
                            hi);
                    exit(1);
                }
            }
            double ms = median(t, (int)reps);
            char what[48], note[128];
            snprintf(what, sizeof(what), "MSM %s streamed", G->name);
            snprintf(note, sizeof(note),
                     "chunks of 2^%u from pinned memory, c = %u, = resident; %.1f GB/s of inputs",
                     cl, gpu_msm_last_plan(m).window,
                     (double)n * (double)(ab + FR_BYTES) / (ms * 1e6));
            add_row(what, hi, ms, note);
        }
        /* Paged: the bases in pageable memory (a key left in its file
         * mapping), copied on every core into the pinned bounce buffers. */
        unsigned char *paged = malloc(n * ab);
        if (!paged) {
            fprintf(stderr, "out of memory for the paged bases\n");
            exit(1);
        }
        memcpy(paged, bases, n * ab);
        unsigned cl = hi - 2 < 22 ? hi - 2 : 22;
        float t[MAX_REPS];
        for (unsigned r = 0; r <= reps; r++) {
            CHECK(gpu_event_record(&gpu, e0, s));
            CHECK(gpu_msm_paged_launch(m, dr, paged, bench_copy, pool, ds, n, true, (size_t)1 << cl,
                                       s));
            CHECK(gpu_event_record(&gpu, e1, s));
            CHECK(gpu_download(&gpu, got, dr, gpu_xyzz_bytes(G->grp), s));
            CHECK(gpu_event_sync(&gpu, e1));
            CHECK(gpu_stream_sync(&gpu, s));
            if (r > 0)
                CHECK(gpu_event_ms(&gpu, &t[r - 1], e0, e1));
            if (!G->xyzz_equal(got, resident)) {
                fprintf(stderr, "FAILED %s paged 2^%u: differs from resident\n", G->name, hi);
                exit(1);
            }
        }
        free(paged);
        double ms = median(t, (int)reps);
        char what[48], note[128];
        snprintf(what, sizeof(what), "MSM %s paged", G->name);
        snprintf(note, sizeof(note),
                 "chunks of 2^%u copied from pageable memory, = resident; %.1f GB/s of bases", cl,
                 (double)n * (double)ab / (ms * 1e6));
        add_row(what, hi, ms, note);
    }
    gpu_event_free(e0);
    gpu_event_free(e1);
    gpu_stream_free(s);
    gpu_msm_free(m);
    gpu_free(db);
    gpu_free(ds);
    gpu_free(dr);
    gpu_host_free(bases);
    gpu_host_free(scalars);
}

/* ---- NTT ---------------------------------------------------------------- */

typedef struct {
    const char *name;
    gpu_curve_t curve;
    const gen_t *gen; /* for its scalars */
    /* ω of 2^log2n from g = 5, ω^-1, 1/n, a coset shift c = 7. */
    void (*consts)(unsigned log2n, void *w, void *wi, void *ni, void *c);
    /* The CPU's forward transform of a (2^log2n elements), in place. */
    void (*cpu_forward)(unsigned log2n, void *a);
} curve_t;

#define CURVE_WRAP(C, FR)                                                                          \
    static void C##_consts_(unsigned log2n, void *w, void *wi, void *ni, void *c)                  \
    {                                                                                              \
        FR##_t nn;                                                                                 \
        FR##_root_of_unity(w, log2n, 5);                                                           \
        FR##_inv_vartime(wi, w);                                                                   \
        FR##_from_u64(&nn, (uint64_t)1 << log2n);                                                  \
        FR##_inv_vartime(ni, &nn);                                                                 \
        FR##_from_u64(c, 7);                                                                       \
    }                                                                                              \
    static void C##_cpu_forward_(unsigned log2n, void *a)                                          \
    {                                                                                              \
        C##_ntt_domain_t *d = C##_ntt_domain_new(log2n, 5, NULL);                                  \
        if (!d) {                                                                                  \
            fprintf(stderr, "CPU domain 2^%u failed\n", log2n);                                    \
            exit(1);                                                                               \
        }                                                                                          \
        C##_ntt_forward(d, a, pool);                                                               \
        C##_ntt_domain_free(d);                                                                    \
    }

CURVE_WRAP(bls381, bls381_fr)
CURVE_WRAP(bn254, bn254_fr)

static const curve_t curves[2] = {
    {"bls381", CUZK_GPU_BLS381, &groups[0].gen, bls381_consts_, bls381_cpu_forward_},
    {"bn254", CUZK_GPU_BN254, &groups[2].gen, bn254_consts_, bn254_cpu_forward_},
};

/* One timed transform: kind 0..3 = forward, inverse, coset forward, coset
 * inverse of a (c the coset), or kind 4 = an H chain on v (bp: bellperson)
 * with shift c. */
typedef struct {
    gpu_ntt_domain_t *d;
    void *a;
    const void *c;
    int kind;
    bool bp;
    void *v[3];
} ntt_run_t;

static cuzk_status_t ntt_run(const ntt_run_t *r, gpu_stream_t s)
{
    if (r->v[0])
        return r->bp ? gpu_ntt_h_bellperson(r->d, r->v[0], r->v[1], r->v[2], r->c, s)
                     : gpu_ntt_h_snarkjs(r->d, r->v[0], r->v[1], r->v[2], r->c, s);
    switch (r->kind) {
    case 0: return gpu_ntt_forward(r->d, r->a, s);
    case 1: return gpu_ntt_inverse(r->d, r->a, s);
    case 2: return gpu_ntt_coset_forward(r->d, r->a, r->c, s);
    default: return gpu_ntt_coset_inverse(r->d, r->a, r->c, s);
    }
}

/* The median of reps runs after one warm-up, timed by events on s. */
static double time_median(gpu_stream_t s, gpu_event_t e0, gpu_event_t e1, const ntt_run_t *run)
{
    float t[MAX_REPS];
    for (unsigned r = 0; r <= reps; r++) { /* r = 0: warm-up */
        CHECK(gpu_event_record(&gpu, e0, s));
        CHECK(ntt_run(run, s));
        CHECK(gpu_event_record(&gpu, e1, s));
        CHECK(gpu_event_sync(&gpu, e1));
        if (r > 0)
            CHECK(gpu_event_ms(&gpu, &t[r - 1], e0, e1));
    }
    return median(t, (int)reps);
}

/* A stream and two timing events. */
static void timing_new(gpu_stream_t *s, gpu_event_t *e0, gpu_event_t *e1)
{
    CHECK(gpu_stream_new(&gpu, s));
    CHECK(gpu_event_new(&gpu, e0, true));
    CHECK(gpu_event_new(&gpu, e1, true));
}

/* The GPU domain of 2^lg from g = 5; c = the coset shift 7. */
static gpu_ntt_domain_t *domain_new(const curve_t *C, unsigned lg, void *c, gpu_stream_t s)
{
    unsigned char w[FR_BYTES], wi[FR_BYTES], ni[FR_BYTES];
    C->consts(lg, w, wi, ni, c);
    gpu_ntt_domain_t *d = NULL;
    CHECK(gpu_ntt_domain_new(&d, &gpu, C->curve, lg, w, wi, ni, s));
    return d;
}

static void bench_ntt(const curve_t *C, const unsigned *logs, int nlogs)
{
    if (nlogs == 0)
        return;
    unsigned top = 0;
    for (int i = 0; i < nlogs; i++)
        top = logs[i] > top ? logs[i] : top;
    size_t nmax = (size_t)1 << top;
    printf("-- NTT %s: generating 2^%u elements\n", C->name, top);
    fflush(stdout);
    size_t ngen = nmax < CHUNK ? CHUNK : nmax;
    unsigned char *a = malloc(ngen * FR_BYTES), *b = malloc(nmax * FR_BYTES);
    if (!a || !b) {
        fprintf(stderr, "out of host memory for 2^%u elements\n", top);
        exit(1);
    }
    generate(C->gen, a, ngen, true, 77);
    void *da = NULL;
    CHECK(gpu_alloc(&gpu, &da, nmax * FR_BYTES));
    gpu_stream_t s = NULL;
    gpu_event_t e0, e1;
    timing_new(&s, &e0, &e1);
    unsigned char c[FR_BYTES];
    for (int li = 0; li < nlogs; li++) {
        unsigned lg = logs[li];
        size_t n = (size_t)1 << lg;
        gpu_ntt_domain_t *d = domain_new(C, lg, c, s);
        CHECK(gpu_upload(&gpu, da, a, n * FR_BYTES, s));
        /* GPU against CPU at 2^20 and at the largest size */
        if (lg == 20 || lg == top) {
            CHECK(gpu_ntt_forward(d, da, s));
            CHECK(gpu_download(&gpu, b, da, n * FR_BYTES, s));
            CHECK(gpu_stream_sync(&gpu, s));
            unsigned char *want = malloc(n * FR_BYTES);
            if (!want)
                exit(1);
            memcpy(want, a, n * FR_BYTES);
            C->cpu_forward(lg, want);
            if (memcmp(want, b, n * FR_BYTES) != 0) {
                fprintf(stderr, "FAILED NTT %s 2^%u: GPU and CPU differ\n", C->name, lg);
                exit(1);
            }
            free(want);
            printf("NTT %s 2^%u forward: GPU = CPU\n", C->name, lg);
        }
        static const char *const names[4] = {"forward", "inverse", "coset forward",
                                             "coset inverse"};
        for (int kind = 0; kind < 4; kind++) {
            ntt_run_t run = {d, da, c, kind, false, {NULL, NULL, NULL}};
            char what[48], note[96];
            snprintf(what, sizeof(what), "NTT %s %s", C->name, names[kind]);
            double ms = time_median(s, e0, e1, &run);
            /* Bytes each pass reads and writes: 64 per element. */
            unsigned passes = (lg > 10 ? (lg - 10 + 2) / 3 : 0) + 2;
            snprintf(note, sizeof(note), "%u passes, %.0f GB/s if memory-bound", passes,
                     (double)passes * 64.0 * (double)n / (ms * 1e6));
            add_row(what, lg, ms, note);
        }
        gpu_ntt_domain_free(d);
    }
    gpu_event_free(e0);
    gpu_event_free(e1);
    gpu_stream_free(s);
    gpu_free(da);
    free(a);
    free(b);
}

/* ---- the H chain --------------------------------------------------------- */

/* The CPU's chain (bp: bellperson with g, else snarkjs with shift g) on
 * 2^log2n elements of a, b, c. */
#define H_WRAP(C)                                                                                  \
    static void C##_cpu_h_(unsigned log2n, bool bp, void *a, void *b, void *c, const void *g)      \
    {                                                                                              \
        C##_ntt_domain_t *d = C##_ntt_domain_new(log2n, 5, NULL);                                  \
        if (!d) {                                                                                  \
            fprintf(stderr, "CPU domain 2^%u failed\n", log2n);                                    \
            exit(1);                                                                               \
        }                                                                                          \
        if (bp)                                                                                    \
            C##_ntt_h_bellperson(d, a, b, c, g, pool, NULL);                                       \
        else                                                                                       \
            C##_ntt_h_snarkjs(d, a, b, c, g, pool, NULL);                                          \
        C##_ntt_domain_free(d);                                                                    \
    }

H_WRAP(bls381)
H_WRAP(bn254)

static void (*const cpu_h[2])(unsigned, bool, void *, void *, void *,
                              const void *) = {bls381_cpu_h_, bn254_cpu_h_};

/* Both chains at each size in logs: inputs resident on the device (one
 * random vector uploaded as a, b and c; the chain runs on its own output
 * rep after rep), shift = g = 7. At 2^20 the GPU's a is first checked
 * against the CPU's on three distinct vectors. */
static void bench_h(int ci, const unsigned *logs, int nlogs)
{
    const curve_t *C = &curves[ci];
    unsigned top = 0;
    for (int i = 0; i < nlogs; i++)
        top = logs[i] > top ? logs[i] : top;
    if (nlogs == 0)
        return;
    size_t nmax = (size_t)1 << top, n20 = (size_t)1 << 20;
    size_t ngen = nmax < 3 * n20 ? 3 * n20 : nmax;
    printf("-- H chain %s: generating %zu elements\n", C->name, ngen);
    fflush(stdout);
    unsigned char *a = malloc(ngen * FR_BYTES);
    if (!a) {
        fprintf(stderr, "out of host memory for the H chain at 2^%u\n", top);
        exit(1);
    }
    generate(C->gen, a, ngen, true, 91);
    void *v[3] = {NULL, NULL, NULL};
    for (int j = 0; j < 3; j++)
        CHECK(gpu_alloc(&gpu, &v[j], (nmax < n20 ? n20 : nmax) * FR_BYTES));
    gpu_stream_t s = NULL;
    gpu_event_t e0, e1;
    timing_new(&s, &e0, &e1);
    unsigned char g[FR_BYTES];
    for (int li = 0; li < nlogs; li++) {
        unsigned lg = logs[li];
        size_t n = (size_t)1 << lg;
        gpu_ntt_domain_t *d = domain_new(C, lg, g, s);
        for (int bp = 0; bp < 2; bp++) {
            if (lg == 20) {
                unsigned char *want = malloc(3 * n * FR_BYTES), *got = malloc(n * FR_BYTES);
                if (!want || !got)
                    exit(1);
                memcpy(want, a, 3 * n * FR_BYTES);
                for (int j = 0; j < 3; j++)
                    CHECK(gpu_upload(&gpu, v[j], a + j * n * FR_BYTES, n * FR_BYTES, s));
                ntt_run_t run = {d, NULL, g, 0, bp == 1, {v[0], v[1], v[2]}};
                CHECK(ntt_run(&run, s));
                CHECK(gpu_download(&gpu, got, v[0], n * FR_BYTES, s));
                CHECK(gpu_stream_sync(&gpu, s));
                cpu_h[ci](lg, bp, want, want + n * FR_BYTES, want + 2 * n * FR_BYTES, g);
                if (memcmp(want, got, n * FR_BYTES) != 0) {
                    fprintf(stderr, "FAILED H chain (%s) %s 2^20: GPU and CPU differ\n",
                            bp ? "bellperson" : "snarkjs", C->name);
                    exit(1);
                }
                printf("H chain (%s) %s 2^20: GPU = CPU\n", bp ? "bellperson" : "snarkjs", C->name);
                free(want);
                free(got);
            }
            for (int j = 0; j < 3; j++)
                CHECK(gpu_upload(&gpu, v[j], a, n * FR_BYTES, s));
            ntt_run_t run = {d, NULL, g, 0, bp == 1, {v[0], v[1], v[2]}};
            char what[48], note[128];
            snprintf(what, sizeof(what), "H chain %s %s", bp ? "bellperson" : "snarkjs", C->name);
            double ms = time_median(s, e0, e1, &run);
            /* Passes over one vector (a read and a write): a dif is the wide
             * passes and the block pass; snarkjs 3 × (2 dif + scaling) +
             * a·b − c (3 vectors read, 1 written); bellperson 2 × (2 dif +
             * scaling) + a·b (2 read) + 2 dif + the permutation (2 read). */
            unsigned dif = (lg > 10 ? (lg - 10 + 2) / 3 : 0) + 1;
            double passes = bp ? 2 * (2 * dif + 1) + 1.5 + 2 * dif + 1.5 : 3 * (2 * dif + 1) + 2;
            snprintf(note, sizeof(note), "%.1f passes, %.0f GB/s if memory-bound; %s", passes,
                     passes * 64.0 * (double)n / (ms * 1e6),
                     bp ? "2 inv + 2 coset fwd + inv of c + 1 coset inv" : "3 inv + 3 coset fwd");
            add_row(what, lg, ms, note);
        }
        gpu_ntt_domain_free(d);
    }
    gpu_event_free(e0);
    gpu_event_free(e1);
    gpu_stream_free(s);
    for (int j = 0; j < 3; j++)
        gpu_free(v[j]);
    free(a);
}

/* ---- arithmetic throughput ----------------------------------------------- */

/* Median ms of a launch (after a warm-up), timed with events. */
static double time_launches(int (*launch)(void *ctx), void *ctx)
{
    gpu_event_t e0, e1;
    CHECK(gpu_event_new(&gpu, &e0, true));
    CHECK(gpu_event_new(&gpu, &e1, true));
    float t[MAX_REPS];
    for (unsigned r = 0; r <= reps; r++) {
        CHECK(gpu_event_record(&gpu, e0, NULL));
        CHECK(gpu_status(&gpu, launch(ctx), "probe", __FILE__, __LINE__));
        CHECK(gpu_event_record(&gpu, e1, NULL));
        CHECK(gpu_event_sync(&gpu, e1));
        if (r > 0)
            CHECK(gpu_event_ms(&gpu, &t[r - 1], e0, e1));
    }
    gpu_event_free(e0);
    gpu_event_free(e1);
    return median(t, (int)reps);
}

typedef struct {
    const gpu_field_kernels_t *f;
    const gpu_group_kernels_t *g;
    void *r, *a, *b;
    size_t n, threads;
    unsigned iters;
} probe_t;

static int launch_mul(void *vctx)
{
    const probe_t *p = vctx;
    return p->f->mul_probe(p->r, p->a, p->n, p->threads, p->iters, NULL);
}

static int launch_madd(void *vctx)
{
    const probe_t *p = vctx;
    return p->g->madd_probe(p->r, p->a, p->b, p->n, p->threads, p->iters, NULL);
}

static int launch_madd_alt(void *vctx)
{
    const probe_t *p = vctx;
    return p->g->madd_probe_alt(p->r, p->a, p->b, p->n, p->threads, p->iters, NULL);
}

typedef struct {
    const gpu_group_kernels_t *g;
    void *r, *bases;
    size_t n, threads;
    unsigned k, iters;
    bool vartime;
} baff_t;

static int launch_baff(void *vctx)
{
    const baff_t *p = vctx;
    return p->g->baff_probe(p->r, p->bases, p->n, p->threads, p->k, p->vartime, p->iters, NULL);
}

/* Affine additions per second with k accumulators a thread and one
 * inversion a step, k = 1, 16, 64, 256, with each inversion (Fermat's, the
 * binary GCD), over 2^20 random bases (more than L2 holds, as the MSM's
 * gathers are), each checked against the CPU's additions (four threads'
 * accumulators) before it is timed; then the fit of the time an addition
 * to a + b/k through k = 16 and 64: a, the addition with its share of the
 * trick and the local-memory traffic, b, the inversion; k = 1 and 256
 * check the fit. One wave of threads: four blocks of 128 a multiprocessor. */
static void bench_baff(const gpu_group_kernels_t *g, const group_t *G)
{
    if (!g->baff_probe)
        return;
    enum { KS = 4 };
    const size_t n = (size_t)1 << 20, ab = G->gen.affine, threads = (size_t)gpu.sm_count * 512;
    static const unsigned ks[KS] = {1, 16, 64, 256}, iters[KS] = {8, 16, 4, 1};
    unsigned char *bases = malloc(n * ab), *out = malloc(256 * ab);
    if (!bases || !out)
        exit(1);
    generate(&G->gen, bases, n, false, 41);
    void *db = NULL, *dr = NULL;
    CHECK(gpu_alloc(&gpu, &db, n * ab));
    CHECK(gpu_alloc(&gpu, &dr, threads * 256 * ab));
    CHECK(gpu_upload(&gpu, db, bases, n * ab, NULL));
    for (int vt = 0; vt < 2; vt++) {
        double ns[KS];
        for (int v = 0; v < KS; v++) {
            baff_t p = {g, dr, db, n, threads, ks[v], iters[v], vt == 1};
            CHECK(gpu_status(&gpu, launch_baff(&p), "baff probe", __FILE__, __LINE__));
            const size_t check[4] = {0, 1, threads / 2, threads - 1};
            for (int c = 0; c < 4; c++) {
                CHECK(gpu_download(&gpu, out, (unsigned char *)dr + check[c] * ks[v] * ab,
                                   ks[v] * ab, NULL));
                if (!G->baff_check(out, bases, n, check[c], ks[v], iters[v])) {
                    fprintf(stderr, "baff probe %s k=%u: thread %zu differs from CPU\n", G->name,
                            ks[v], check[c]);
                    exit(1);
                }
            }
            const double ms = time_launches(launch_baff, &p),
                         adds = (double)threads * ks[v] * iters[v];
            ns[v] = ms * 1e6 / adds;
            char what[64], note[160];
            snprintf(what, sizeof(what), "baff probe %s, k=%u, %s", G->name, ks[v],
                     vt ? "gcd" : "fermat");
            snprintf(note, sizeof(note), "%.2f G affine additions/s, %.3f ns each (checked)",
                     adds / (ms * 1e6), ns[v]);
            add_row(what, 0, ms, note);
        }
        const double b = (ns[1] - ns[2]) / (1.0 / 16 - 1.0 / 64), a = ns[2] - b / 64;
        char what[64], note[160];
        snprintf(what, sizeof(what), "baff fit %s, %s", G->name, vt ? "gcd" : "fermat");
        snprintf(note, sizeof(note),
                 "%.3f ns an addition + %.1f ns an inversion / k; k=1 %.1f (fit %.1f), k=256 "
                 "%.3f (fit %.3f)",
                 a, b, ns[0], a + b, ns[3], a + b / 256);
        add_row(what, 0, 0, note);
    }
    gpu_free(db);
    gpu_free(dr);
    free(bases);
    free(out);
}

/* Multiplications and mixed additions per second of one curve, on CHUNK
 * random points of each group (their coordinates serve as Fp elements). */
static void bench_probes(const gpu_curve_kernels_t *k, const group_t *g1, const group_t *g2)
{
    size_t threads = (size_t)gpu.sm_count * 2048;
    size_t ab = g2->gen.affine;
    unsigned char *pts = malloc(2 * CHUNK * ab), *frs = malloc(CHUNK * FR_BYTES);
    if (!pts || !frs)
        exit(1);
    void *dp = NULL, *dq = NULL, *dfr = NULL, *dr = NULL;
    CHECK(gpu_alloc(&gpu, &dp, CHUNK * ab));
    CHECK(gpu_alloc(&gpu, &dq, CHUNK * ab));
    CHECK(gpu_alloc(&gpu, &dfr, CHUNK * FR_BYTES));
    CHECK(gpu_alloc(&gpu, &dr, threads * 2 * ab));
    g1->gen.scalars(frs, CHUNK, 5);
    CHECK(gpu_upload(&gpu, dfr, frs, CHUNK * FR_BYTES, NULL));
    const gpu_field_kernels_t *fields[3] = {&k->fp, &k->fr, &k->fp2};
    const group_t *groups2[2] = {g1, g2};
    for (int gi = 0; gi < 2; gi++) {
        const group_t *G = groups2[gi];
        G->gen.points(pts, CHUNK, 11);
        G->gen.points(pts + CHUNK * G->gen.affine, CHUNK, 12);
        CHECK(gpu_upload(&gpu, dp, pts, CHUNK * G->gen.affine, NULL));
        CHECK(gpu_upload(&gpu, dq, pts + CHUNK * G->gen.affine, CHUNK * G->gen.affine, NULL));
        probe_t p = {NULL, gi ? &k->g2 : &k->g1, dr, dp, dq, CHUNK, threads, gi ? 16 : 32};
        double ms = time_launches(launch_madd, &p);
        char what[48], note[128];
        double rate = (double)threads * p.iters / (ms * 1e6);
        snprintf(what, sizeof(what), "madd probe %s", G->name);
        snprintf(note, sizeof(note), "%.2f G mixed additions/s (sppark G%d: %s)", rate, gi + 1,
                 gi ? "0.89" : "2.70");
        add_row(what, 0, ms, note);
        if (p.g->madd_probe_alt) {
            ms = time_launches(launch_madd_alt, &p);
            rate = (double)threads * p.iters / (ms * 1e6);
            snprintf(what, sizeof(what), "madd probe %s, %s", G->name, p.g->madd_alt);
            snprintf(note, sizeof(note), "%.2f G mixed additions/s", rate);
            add_row(what, 0, ms, note);
        }
        bench_baff(p.g, G);
    }
    for (int fi = 0; fi < 3; fi++) {
        probe_t p = {fields[fi], NULL, dr, fi == 1 ? dfr : dp, NULL, CHUNK, threads, 128};
        double ms = time_launches(launch_mul, &p);
        char what[48], note[128];
        snprintf(what, sizeof(what), "mul probe %s", fields[fi]->name);
        snprintf(note, sizeof(note), "%.1f G mul/s", 2.0 * (double)threads * p.iters / (ms * 1e6));
        add_row(what, 0, ms, note);
    }
    gpu_free(dp);
    gpu_free(dq);
    gpu_free(dfr);
    gpu_free(dr);
    free(pts);
    free(frs);
}

/* ---- host to device ----------------------------------------------------- */

static void bench_h2d(void)
{
    size_t bytes = (size_t)1 << 30;
    void *pinned = NULL, *dev = NULL;
    unsigned char *pageable = malloc(bytes);
    if (!pageable)
        exit(1);
    memset(pageable, 1, bytes);
    CHECK(gpu_host_alloc(&gpu, &pinned, bytes));
    memset(pinned, 1, bytes);
    CHECK(gpu_alloc(&gpu, &dev, bytes));
    gpu_event_t e0, e1;
    CHECK(gpu_event_new(&gpu, &e0, true));
    CHECK(gpu_event_new(&gpu, &e1, true));
    for (int kind = 0; kind < 2; kind++) {
        float t[MAX_REPS];
        for (unsigned r = 0; r <= reps; r++) {
            CHECK(gpu_event_record(&gpu, e0, NULL));
            CHECK(gpu_upload(&gpu, dev, kind ? (void *)pageable : pinned, bytes, NULL));
            CHECK(gpu_event_record(&gpu, e1, NULL));
            CHECK(gpu_event_sync(&gpu, e1));
            if (r > 0)
                CHECK(gpu_event_ms(&gpu, &t[r - 1], e0, e1));
        }
        double ms = median(t, (int)reps);
        char note[96];
        snprintf(note, sizeof(note), "%.1f GB/s", (double)bytes / (ms * 1e6));
        add_row(kind ? "host->device 1 GiB pageable" : "host->device 1 GiB pinned", 30, ms, note);
    }
    gpu_event_free(e0);
    gpu_event_free(e1);
    gpu_free(dev);
    gpu_host_free(pinned);
    free(pageable);
}

int main(int argc, char **argv)
{
    unsigned msm_min = 20, msm_max = 24, g2_log = 20, ntt_logs[8] = {20, 24, 27},
             h_logs[8] = {20, 24};
    int n_ntt = 3, n_h = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--msm-min-log")) {
            msm_min = (unsigned)strtoul(argv[i + 1], NULL, 10);
            if (msm_min < 10 || msm_min > 20) {
                fprintf(stderr, "--msm-min-log: 10 .. 20\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--msm-max-log")) {
            msm_max = (unsigned)strtoul(argv[i + 1], NULL, 10);
        } else if (!strcmp(argv[i], "--g2-log")) {
            g2_log = (unsigned)strtoul(argv[i + 1], NULL, 10);
        } else if (!strcmp(argv[i], "--reps")) {
            reps = (unsigned)strtoul(argv[i + 1], NULL, 10);
            reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
        } else if (!strcmp(argv[i], "--windows")) {
            nsweep = 0;
            for (char *p = argv[i + 1]; *p && nsweep < 8;) {
                sweep[nsweep] = (unsigned)strtoul(p, &p, 10);
                if (sweep[nsweep] < 1 || sweep[nsweep] > CUZK_GPU_MSM_WINDOW_MAX) {
                    fprintf(stderr, "--windows: 1 .. %d\n", CUZK_GPU_MSM_WINDOW_MAX);
                    return 2;
                }
                nsweep++;
                if (*p == ',')
                    p++;
            }
        } else if (!strcmp(argv[i], "--ntt-logs")) {
            n_ntt = 0;
            for (char *p = argv[i + 1]; *p && n_ntt < 8;) {
                ntt_logs[n_ntt++] = (unsigned)strtoul(p, &p, 10);
                if (*p == ',')
                    p++;
            }
        } else if (!strcmp(argv[i], "--h-logs")) {
            n_h = 0;
            for (char *p = argv[i + 1]; *p && n_h < 8;) {
                h_logs[n_h++] = (unsigned)strtoul(p, &p, 10);
                if (*p == ',')
                    p++;
            }
        } else {
            fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (msm_max != 0 && msm_max < 20)
        msm_max = 20;
    if (n_ntt == 1 && ntt_logs[0] == 0)
        n_ntt = 0;
    if (n_h == 1 && h_logs[0] == 0)
        n_h = 0;
    if (g2_log != 0 && g2_log < 20)
        g2_log = 20;
    int count = 0;
    char why[CUZK_GPU_ERR_MAX] = "";
    CHECK(gpu_count(&count, why, sizeof(why)));
    if (count == 0) {
        printf("no GPU (%s): nothing to measure\n", why);
        return 0;
    }
    CHECK(gpu_open(&gpu, 0));
    pool = pool_new(0, NULL);
    printf("GPU 0: %s, cc %d.%d, %d SMs, %zu MiB, L2 %zu KiB; %u CPU threads; %u reps\n", gpu.name,
           gpu.cc_major, gpu.cc_minor, gpu.sm_count, gpu.mem_total >> 20, gpu.l2_bytes >> 10,
           pool_threads(pool), reps);

    bench_h2d();
    for (int ci = 0; ci < 2; ci++) {
        const group_t *g1 = &groups[2 * ci], *g2 = &groups[2 * ci + 1];
        bench_probes(ci ? &gpu_bn254_kernels : &gpu_bls381_kernels, g1, g2);
        if (msm_max != 0)
            bench_msm(g1, msm_min, msm_max, 20, 24);
        if (g2_log != 0)
            bench_msm(g2, msm_min, g2_log, 20, 22);
        bench_ntt(&curves[ci], ntt_logs, n_ntt);
        bench_h(ci, h_logs, n_h);
    }

    printf("\n| what | size | median ms | notes |\n| --- | --- | ---: | --- |\n");
    for (int i = 0; i < nrows; i++)
        printf("| %s | %s | %.2f | %s |\n", rows[i].what, rows[i].size, rows[i].ms, rows[i].note);
    pool_free(pool);
    return 0;
}
