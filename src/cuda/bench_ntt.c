/*
 * cuzk_gpu_bench's NTT section (bench_gpu.h): forward, inverse and coset
 * transforms on the device, then the H chains of both conventions
 * (snarkjs, bellperson), timed with CUDA events on one stream; the forward
 * transform (at 2^20 and at the largest size) and the chains (at 2^20)
 * are first checked against the CPU's (src/ntt).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/bench_gpu.h"
#include "cuda/gpu.h"
#include "cuda/gpu_ntt.h"
#include "ntt/bls381_ntt.h"
#include "ntt/bn254_ntt.h"

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
    {"bls381", CUZK_GPU_BLS381, &gen_bls381_g1, bls381_consts_, bls381_cpu_forward_},
    {"bn254", CUZK_GPU_BN254, &gen_bn254_g1, bn254_consts_, bn254_cpu_forward_},
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

void bench_ntt(int ci, const unsigned *logs, int nlogs)
{
    const curve_t *C = &curves[ci];
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

void bench_h(int ci, const unsigned *logs, int nlogs)
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
