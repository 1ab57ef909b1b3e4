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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/bench_gpu.h"
#include "cuda/gpu.h"
#include "cuda/gpu_kernels.h"
#include "cuda/gpu_msm.h"
#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "util/pool.h"
#include "util/rng.h"

enum { MAX_ROWS = 128 };

/* What they hold: bench_gpu.h. */
gpu_t gpu;
pool_t *pool;
unsigned reps = 5;
unsigned sweep[8];
int nsweep;

/* ---- the table printed last ------------------------------------------- */

typedef struct {
    char what[64];
    char size[16];
    double ms;
    char note[160];
} row_t;
static row_t rows[MAX_ROWS];
static int nrows;

void add_row(const char *what, unsigned log2n, double ms, const char *note)
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

float median(float *v, int n)
{
    qsort(v, (size_t)n, sizeof(float), cmp_float);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- inputs, on every core ---------------------------------------------- */

/* gen_G: the points of group G and the scalars of its field FR. */
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
    }                                                                                              \
    const gen_t gen_##G = {G##_gen_points_, G##_gen_scalars_, sizeof(G##_affine_t)};

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

void generate(const gen_t *gen, void *out, size_t n, bool scalars, uint64_t seed)
{
    gen_ctx_t ctx = {gen, out, scalars, seed};
    pool_for(pool, n / CHUNK, 1, gen_range, &ctx);
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
        bench_ntt(ci, ntt_logs, n_ntt);
        bench_h(ci, h_logs, n_h);
    }

    printf("\n| what | size | median ms | notes |\n| --- | --- | ---: | --- |\n");
    for (int i = 0; i < nrows; i++)
        printf("| %s | %s | %.2f | %s |\n", rows[i].what, rows[i].size, rows[i].ms, rows[i].note);
    pool_free(pool);
    return 0;
}
