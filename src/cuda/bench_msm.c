/*
 * cuzk_gpu_bench's MSM section (bench_gpu.h): the four groups measured,
 * with the CPU references that check the GPU's results (the MSM, the
 * batch-affine probe's additions), and the MSM timings: resident inputs at
 * each size, the result finished on the host as the GPU engine does it,
 * each phase on the device timed by events; where one sort orders every
 * window, the same with the windows sorted apart; G1 at the forced windows
 * of --windows; and the largest MSM streamed from pinned host memory and
 * from pageable memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/bench_gpu.h"
#include "cuda/gpu.h"
#include "cuda/gpu_kernels.h"
#include "cuda/gpu_msm.h"
#include "msm/bls381_msm.h"
#include "msm/bn254_msm.h"
#include "util/clock.h"
#include "util/pool.h"

/* ---- the groups --------------------------------------------------------- */

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
        .name = #G, .grp = GRP, .gen = &gen_##G, .cpu_msm = G##_cpu_msm_, .equal = G##_equal_,     \
        .xyzz_equal = G##_xyzz_equal_, .horner = G##_horner_, .baff_check = G##_baff_check_,       \
        .xyzz = sizeof(G##_xyzz_t)                                                                 \
    }

const group_t groups[4] = {
    GROUP_ENTRY(bls381_g1, CUZK_GPU_BLS381_G1),
    GROUP_ENTRY(bls381_g2, CUZK_GPU_BLS381_G2),
    GROUP_ENTRY(bn254_g1, CUZK_GPU_BN254_G1),
    GROUP_ENTRY(bn254_g2, CUZK_GPU_BN254_G2),
};

/* ---- MSM ---------------------------------------------------------------- */

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

void bench_msm(const group_t *G, unsigned lo, unsigned hi, unsigned check, unsigned stream_min)
{
    size_t n = (size_t)1 << hi, ab = G->gen->affine;
    printf("-- %s: generating 2^%u bases and scalars\n", G->name, hi);
    fflush(stdout);
    /* Pinned, so that the streamed runs below go at the bus's speed. */
    unsigned char *bases = NULL, *scalars = NULL;
    CHECK(gpu_host_alloc(&gpu, (void **)&bases, n * ab));
    CHECK(gpu_host_alloc(&gpu, (void **)&scalars, n * FR_BYTES));
    generate(G->gen, bases, n, false, 1000 + (uint64_t)G->grp * 1000003);
    generate(G->gen, scalars, n, true, 2000 + (uint64_t)G->grp * 1000003);
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
