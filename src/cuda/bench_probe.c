/*
 * cuzk_gpu_bench's arithmetic probes (bench_gpu.h): the throughput of the
 * field multiplication and of the mixed addition (the MSM's bucket update)
 * for every field and group of a curve, and G1's batch-affine additions
 * (one inversion for k accumulators), checked against the CPU's; each
 * probe is one launch, timed with CUDA events.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cuda/bench_gpu.h"
#include "cuda/gpu.h"
#include "cuda/gpu_kernels.h"

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
    const size_t n = (size_t)1 << 20, ab = G->gen->affine, threads = (size_t)gpu.sm_count * 512;
    static const unsigned ks[KS] = {1, 16, 64, 256}, iters[KS] = {8, 16, 4, 1};
    unsigned char *bases = malloc(n * ab), *out = malloc(256 * ab);
    if (!bases || !out)
        exit(1);
    generate(G->gen, bases, n, false, 41);
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

void bench_probes(const gpu_curve_kernels_t *k, const group_t *g1, const group_t *g2)
{
    size_t threads = (size_t)gpu.sm_count * 2048;
    size_t ab = g2->gen->affine;
    unsigned char *pts = malloc(2 * CHUNK * ab), *frs = malloc(CHUNK * FR_BYTES);
    if (!pts || !frs)
        exit(1);
    void *dp = NULL, *dq = NULL, *dfr = NULL, *dr = NULL;
    CHECK(gpu_alloc(&gpu, &dp, CHUNK * ab));
    CHECK(gpu_alloc(&gpu, &dq, CHUNK * ab));
    CHECK(gpu_alloc(&gpu, &dfr, CHUNK * FR_BYTES));
    CHECK(gpu_alloc(&gpu, &dr, threads * 2 * ab));
    g1->gen->scalars(frs, CHUNK, 5);
    CHECK(gpu_upload(&gpu, dfr, frs, CHUNK * FR_BYTES, NULL));
    const gpu_field_kernels_t *fields[3] = {&k->fp, &k->fr, &k->fp2};
    const group_t *groups2[2] = {g1, g2};
    for (int gi = 0; gi < 2; gi++) {
        const group_t *G = groups2[gi];
        G->gen->points(pts, CHUNK, 11);
        G->gen->points(pts + CHUNK * G->gen->affine, CHUNK, 12);
        CHECK(gpu_upload(&gpu, dp, pts, CHUNK * G->gen->affine, NULL));
        CHECK(gpu_upload(&gpu, dq, pts + CHUNK * G->gen->affine, CHUNK * G->gen->affine, NULL));
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
