/*
 * cuzk bench supraseal: PoRep-shaped partitions fed the way the Filecoin
 * stack feeds a prover, through supraseal-c2's C ABI in Curio's form
 * (docs/FILECOIN.md): libcuzk_supraseal_curio.so loaded with dlopen, as a
 * Rust program links it; a, b, c, inputs and aux made on the host in
 * Montgomery form, in pageable memory and in pinned memory (cudaHostAlloc,
 * as Curio's pool gives them); each proof's partitions handed over by
 * generate_groth16_proofs_start_c and collected by finalize_groth16_proof_c
 * from several caller threads sharing one GPU mutex, as Curio's workers
 * do. The development key is made on the CPU and written as a .params
 * file, which create_SRS loads; or, with --key device (what the full size
 * needs: its key is ~75 GB), made on the library's devices by its
 * development hook (supraseal/supraseal_dev.h), which also gives the
 * circuit's assignment. Every proof is checked by batch verification.
 * Prints seconds per proof and per partition in steady state and the
 * callers' time inside the start call (the checks, and the wait until a
 * device has taken every circuit's a, b and c).
 */
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ff/bls381_fr.h"
#include "io/asgn_file.h"
#include "io/io_error.h"
#include "io/params_file.h"
#include "r1cs/r1cs.h"
#include "supraseal/supraseal.h"
#include "supraseal/supraseal_dev.h"
#include "util/clock.h"
#include "util/pool.h"
#include "util/rng.h"
#if CUZK_HAVE_CUDA
#include "cuda/gpu.h"
#endif

/* The functions of the library, as dlsym finds them. */
typedef struct abi {
    void *handle;
    supraseal_error_t (*create_srs)(supraseal_srs_t *, const char *, bool);
    void (*drop_srs)(const supraseal_srs_t *);
    supraseal_error_t (*start)(const supraseal_assignment_t *, size_t, const supraseal_fr_t *,
                               const supraseal_fr_t *, const supraseal_srs_t *, void *, int32_t,
                               void **);
    supraseal_error_t (*finalize)(void *, supraseal_proof_t *);
    void *(*mutex_new)(void);
    void (*mutex_free)(void *);
    /* the development hook (--key device) */
    supraseal_error_t (*dev_srs)(supraseal_srs_t *, supraseal_dev_t *, uint32_t, uint64_t);
    void (*dev_free)(supraseal_dev_t *);
} abi_t;

/* porep32's constraints a partition at full size (--constraints full) */
enum { FULL_CONSTRAINTS = 130278869u };

typedef struct sargs {
    uint32_t constraints, partitions, proofs, callers;
    bool pageable, pinned;
    bool dev_key; /* --key device */
    const char *lib;
    uint64_t seed;
    bool seeded;
} sargs_t;

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk bench supraseal [options]\n"
               "\n"
               "PoRep-shaped proofs through supraseal-c2's C ABI (Curio's variant,\n"
               "libcuzk_supraseal_curio.so, loaded as a program links it): assignments in\n"
               "Montgomery form in pageable and in pinned memory, each proof's partitions\n"
               "handed over by the start call and collected by finalize from several\n"
               "caller threads sharing one GPU mutex, as Curio's engine does. INSECURE\n"
               "development key; every proof verified.\n"
               "\n"
               "options:\n"
               "  --constraints N  constraints per partition, N, 2^K or full (porep32's\n"
               "                   130278869; implies --key device) (default 2^16)\n"
               "  --partitions P   partitions per proof, one start call each (default 10)\n"
               "  --proofs K       proofs per memory kind (default 4; the first is warm-up)\n"
               "  --callers C      caller threads (default 2)\n"
               "  --memory M       pageable, pinned or both (default both; pinned needs a GPU)\n"
               "  --key K          params: made on the CPU, written as a .params file and\n"
               "                   loaded by create_SRS (the default); device: made on the\n"
               "                   library's GPUs by its development hook, with the\n"
               "                   assignment (needs a GPU; the only way at full size)\n"
               "  --lib PATH       the library (default: libcuzk_supraseal_curio.so beside\n"
               "                   this program, then in ../lib*, then the loader's search)\n"
               "  --seed S         seed of the circuit and key (default: drawn)\n"
               "  -h, --help       this text\n"
               "The environment of docs/FILECOIN.md (CUZK_SUPRASEAL_BACKEND, ...) applies.\n");
}

/* -1: go on; else the exit status. */
static int parse(sargs_t *a, int argc, char **argv)
{
    *a = (sargs_t){.constraints = 1u << 16,
                   .partitions = 10,
                   .proofs = 4,
                   .callers = 2,
                   .pageable = true,
                   .pinned = true};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return 0;
        }
        static const char *const valued[] = {"--constraints", "--partitions", "--proofs",
                                             "--callers",     "--memory",     "--lib",
                                             "--seed",        "--key"};
        if (!cli_is_one_of(o, valued, sizeof valued / sizeof *valued))
            return cli_usage_error("bench supraseal", NULL,
                                   o[0] == '-' ? "unknown option '%s'" : "unexpected '%s'", o);
        if (!v)
            return cli_usage_error("bench supraseal", NULL, "%s needs a value", o);
        i++;
        int bad = 0;
        if (!strcmp(o, "--constraints") && !strcmp(v, "full")) {
            a->constraints = FULL_CONSTRAINTS;
            a->dev_key = true;
        } else if (!strcmp(o, "--constraints"))
            bad = cli_parse_count(&a->constraints, v, 64);
        else if (!strcmp(o, "--partitions"))
            bad = cli_parse_count(&a->partitions, v, 1);
        else if (!strcmp(o, "--proofs"))
            bad = cli_parse_count(&a->proofs, v, 2);
        else if (!strcmp(o, "--callers"))
            bad = cli_parse_count(&a->callers, v, 1);
        else if (!strcmp(o, "--memory")) {
            a->pageable = !strcmp(v, "pageable") || !strcmp(v, "both");
            a->pinned = !strcmp(v, "pinned") || !strcmp(v, "both");
            bad = !a->pageable && !a->pinned;
        } else if (!strcmp(o, "--key")) {
            a->dev_key = !strcmp(v, "device");
            bad = !a->dev_key && strcmp(v, "params") != 0;
        } else if (!strcmp(o, "--lib"))
            a->lib = v;
        else if (!strcmp(o, "--seed")) {
            char *end;
            errno = 0;
            a->seed = strtoull(v, &end, 0);
            a->seeded = true;
            bad = errno || *end || end == v;
        }
        if (bad)
            return cli_usage_error("bench supraseal", NULL, "%s: bad value '%s'", o, v);
    }
    return -1;
}

/* dlopen of the library: path, or beside this program, ../lib*, the
 * loader's search. */
static int abi_open(abi_t *abi, const char *path)
{
    const char *name = "libcuzk_supraseal_curio.so";
    char self[4096], tries[3][4200];
    int n = 0;
    if (path) {
        snprintf(tries[n++], sizeof tries[0], "%s", path);
    } else {
        ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        if (len > 0) {
            self[len] = '\0';
            char *slash = strrchr(self, '/');
            if (slash)
                *slash = '\0';
            snprintf(tries[n++], sizeof tries[0], "%s/%s", self, name);
            snprintf(tries[n++], sizeof tries[0], "%s/../lib/%s", self, name);
        }
        snprintf(tries[n++], sizeof tries[0], "%s", name);
    }
    for (int i = 0; i < n && !abi->handle; i++)
        abi->handle = dlopen(tries[i], RTLD_NOW | RTLD_LOCAL);
    if (!abi->handle) {
        fprintf(stderr, "cuzk bench supraseal: cannot load %s: %s (--lib names it)\n",
                path ? path : name, dlerror());
        return -1;
    }
    *(void **)&abi->create_srs = dlsym(abi->handle, "create_SRS");
    *(void **)&abi->drop_srs = dlsym(abi->handle, "drop_SRS");
    *(void **)&abi->start = dlsym(abi->handle, "generate_groth16_proofs_start_c");
    *(void **)&abi->finalize = dlsym(abi->handle, "finalize_groth16_proof_c");
    *(void **)&abi->mutex_new = dlsym(abi->handle, "create_gpu_mutex");
    *(void **)&abi->mutex_free = dlsym(abi->handle, "destroy_gpu_mutex");
    if (!abi->create_srs || !abi->drop_srs || !abi->start || !abi->finalize || !abi->mutex_new ||
        !abi->mutex_free) {
        fprintf(stderr, "cuzk bench supraseal: the library lacks Curio's functions (the upstream "
                        "variant libcuzk_supraseal.so?)\n");
        return -1;
    }
    *(void **)&abi->dev_srs = dlsym(abi->handle, "cuzk_supraseal_dev_srs");
    *(void **)&abi->dev_free = dlsym(abi->handle, "cuzk_supraseal_dev_free");
    return 0;
}

/* One circuit's assignment in the ABI's form, in memory of one kind. */
typedef struct feed {
    supraseal_fr_t *scalars;
    bool pinned;
    supraseal_assignment_t abi;
} feed_t;

/* The Montgomery form of a run of canonical scalars, on the pool. */
typedef struct to_mont {
    supraseal_fr_t *dst;
    const uint64_t (*src)[4];
} to_mont_t;

static void to_mont_range(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const to_mont_t *t = ctx;
    for (size_t i = begin; i < end; i++) {
        bls381_fr_t x;
        (void)bls381_fr_from_canonical(&x, t->src[i]);
        memcpy(t->dst[i].l, x.l, sizeof x.l);
    }
}

static int feed_make(feed_t *f, const asgn_t *a, const uint64_t *bitmaps, bool pinned)
{
    uint64_t rows = a->n_constraints, ni = a->n_inputs, na = a->n_aux;
    size_t bytes = (3 * rows + ni + na) * sizeof(supraseal_fr_t);
    f->pinned = pinned;
    f->scalars = NULL;
#if CUZK_HAVE_CUDA
    if (pinned) {
        gpu_t g;
        bool found = false;
        if (gpu_open_first(&g, &found) != CUZK_OK || !found ||
            gpu_host_alloc(&g, (void **)&f->scalars, bytes) != CUZK_OK) {
            fprintf(stderr, "cuzk bench supraseal: no pinned memory (%s)\n",
                    found ? g.err : "no GPU");
            return -1;
        }
    }
#endif
    if (!pinned)
        f->scalars = malloc(bytes);
    if (!f->scalars) {
        fprintf(stderr, "cuzk bench supraseal: no %s memory for %zu bytes\n",
                pinned ? "pinned" : "pageable", bytes);
        return -1;
    }
    const uint64_t(*src[])[4] = {a->a, a->b, a->c, a->inputs, a->aux};
    const uint64_t n[] = {rows, rows, rows, ni, na};
    size_t off = 0;
    for (int k = 0; k < 5; k++) {
        to_mont_t t = {f->scalars + off, src[k]};
        pool_for(pool_default(), n[k], 0, to_mont_range, &t);
        off += n[k];
    }
    uint64_t wa = asgn_words(na), wi = asgn_words(ni);
    supraseal_fr_t *s = f->scalars;
    f->abi = (supraseal_assignment_t){
        .a_aux_density = bitmaps,
        .a_aux_bit_len = na,
        .a_aux_popcount = (size_t)groth16_bitmap_popcount(bitmaps, na),
        .b_inp_density = bitmaps + wa,
        .b_inp_bit_len = ni,
        .b_inp_popcount = (size_t)groth16_bitmap_popcount(bitmaps + wa, ni),
        .b_aux_density = bitmaps + wa + wi,
        .b_aux_bit_len = na,
        .b_aux_popcount = (size_t)groth16_bitmap_popcount(bitmaps + wa + wi, na),
        .a = s,
        .b = s + rows,
        .c = s + 2 * rows,
        .abc_size = rows,
        .inp_assignment_data = s + 3 * rows,
        .inp_assignment_size = ni,
        .aux_assignment_data = s + 3 * rows + ni,
        .aux_assignment_size = na,
    };
    return 0;
}

static void feed_free(feed_t *f)
{
#if CUZK_HAVE_CUDA
    if (f->pinned) {
        gpu_host_free(f->scalars);
        return;
    }
#endif
    free(f->scalars);
}

/* What the callers share for one memory kind. */
typedef struct run {
    const abi_t *abi;
    const sargs_t *args;
    const feed_t *feed;
    const supraseal_srs_t *srs;
    void *mtx;
    _Atomic uint32_t next;     /* the next proof to start */
    supraseal_proof_t *proofs; /* proofs × partitions */
    supraseal_fr_t *r, *s;
    double *ended;  /* each proof's end, clock_seconds */
    double start_s; /* summed over the start calls */
    pthread_mutex_t lock;
    char err[512];
} run_t;

static void *caller(void *p)
{
    run_t *run = p;
    uint32_t np = run->args->partitions;
    supraseal_assignment_t *provers = malloc(np * sizeof *provers);
    if (!provers)
        return NULL;
    for (uint32_t i = 0; i < np; i++)
        provers[i] = run->feed->abi;
    for (;;) {
        uint32_t k = atomic_fetch_add(&run->next, 1);
        if (k >= run->args->proofs)
            break;
        void *pending = NULL;
        double t0 = clock_seconds();
        supraseal_error_t e =
            run->abi->start(provers, np, run->r + (size_t)k * np, run->s + (size_t)k * np, run->srs,
                            run->mtx, -1, &pending);
        double t1 = clock_seconds();
        if (e.code == 0)
            e = run->abi->finalize(pending, run->proofs + (size_t)k * np);
        pthread_mutex_lock(&run->lock);
        run->start_s += t1 - t0;
        run->ended[k] = clock_seconds();
        if (e.code && !run->err[0])
            snprintf(run->err, sizeof run->err, "proof %u: %s", k,
                     e.message ? e.message : "(no message)");
        pthread_mutex_unlock(&run->lock);
        free(e.message);
    }
    free(provers);
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The proofs of run, each against the inputs of a, in one batch check. */
static int verify_all(const run_t *run, const bp_vk_t *vk, const asgn_t *a)
{
    size_t n = (size_t)run->args->proofs * run->args->partitions, ni = a->n_inputs - 1;
    bp_proof_t *proofs = malloc(n * sizeof *proofs);
    bls381_fr_t *in = malloc((n * ni + 1) * sizeof *in);
    int rc = -1;
    char err[IO_ERR_MAX] = "";
    bool valid = false;
    if (proofs && in) {
        for (size_t i = 0; i < n; i++) {
            const supraseal_proof_t *p = &run->proofs[i];
            memcpy(proofs[i].a.x.l, p->a[0], 48);
            memcpy(proofs[i].a.y.l, p->a[1], 48);
            memcpy(proofs[i].b.x.c0.l, p->b[0][0], 48);
            memcpy(proofs[i].b.x.c1.l, p->b[0][1], 48);
            memcpy(proofs[i].b.y.c0.l, p->b[1][0], 48);
            memcpy(proofs[i].b.y.c1.l, p->b[1][1], 48);
            memcpy(proofs[i].c.x.l, p->c[0], 48);
            memcpy(proofs[i].c.y.l, p->c[1], 48);
            for (size_t j = 0; j < ni; j++)
                (void)bls381_fr_from_canonical(&in[i * ni + j], a->inputs[j + 1]);
        }
        if (groth16_bp_verify(&valid, vk, in, proofs, n, NULL, NULL, err, sizeof err) == CUZK_OK &&
            valid)
            rc = 0;
        else
            fprintf(stderr, "cuzk bench supraseal: the proofs do not verify%s%s\n",
                    err[0] ? ": " : "", err);
    }
    free(proofs);
    free(in);
    return rc;
}

/* One memory kind: warm-up, then the timed proofs; prints its table row. */
static int run_kind(const abi_t *abi, const sargs_t *a, const feed_t *feed,
                    const supraseal_srs_t *srs, const bp_vk_t *vk, const asgn_t *asgn, rng_t *rng)
{
    size_t n = (size_t)a->proofs * a->partitions;
    run_t run = {.abi = abi, .args = a, .feed = feed, .srs = srs};
    run.proofs = calloc(n, sizeof *run.proofs);
    run.r = malloc(n * sizeof *run.r);
    run.s = malloc(n * sizeof *run.s);
    run.ended = calloc(a->proofs, sizeof *run.ended);
    pthread_t *t = calloc(a->callers, sizeof *t);
    int rc = -1;
    if (!run.proofs || !run.r || !run.s || !run.ended || !t)
        goto out;
    for (size_t i = 0; i < n; i++) {
        bls381_fr_t x, y;
        if (bls381_fr_random(&x, rng) != CUZK_OK || bls381_fr_random(&y, rng) != CUZK_OK)
            goto out;
        memcpy(run.r[i].l, x.l, sizeof x.l);
        memcpy(run.s[i].l, y.l, sizeof y.l);
    }
    pthread_mutex_init(&run.lock, NULL);
    run.mtx = abi->mutex_new();
    atomic_init(&run.next, 0);
    double t0 = clock_seconds();
    unsigned made = 0;
    for (; made < a->callers; made++)
        if (pthread_create(&t[made], NULL, caller, &run) != 0)
            break;
    for (unsigned i = 0; i < made; i++)
        pthread_join(t[i], NULL);
    abi->mutex_free(run.mtx);
    pthread_mutex_destroy(&run.lock);
    if (run.err[0]) {
        fprintf(stderr, "cuzk bench supraseal: %s\n", run.err);
        goto out;
    }
    if (verify_all(&run, vk, asgn) != 0)
        goto out;
    /* steady state: from the first proof's end to the last's */
    qsort(run.ended, a->proofs, sizeof *run.ended, cmp_double);
    double steady = (run.ended[a->proofs - 1] - run.ended[0]) / (a->proofs - 1);
    printf("| %s | %u | %u | %u | %.3f | %.4f | %.4f | %.3f |\n",
           feed->pinned ? "pinned" : "pageable", a->constraints, a->partitions, a->proofs, steady,
           steady / a->partitions, run.start_s / (double)n, run.ended[a->proofs - 1] - t0);
    rc = 0;
out:
    free(run.proofs);
    free(run.r);
    free(run.s);
    free(run.ended);
    free(t);
    return rc;
}

/* The circuit, a development key written as a .params file that
 * create_SRS loads into *srs, and the assignment, all made on the CPU. */
static int setup_params(const abi_t *abi, const sargs_t *a, rng_t *rng, supraseal_srs_t *srs,
                        bp_params_t *params, asgn_t *asgn, void **amem)
{
    char err[IO_ERR_MAX] = "", dir[] = "/tmp/cuzk-bench-supraseal-XXXXXX", path[64];
    if (!mkdtemp(dir)) {
        fprintf(stderr, "cuzk bench supraseal: a temporary folder: %s\n", strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/porep.params", dir);
    printf("making the circuit, an INSECURE development key and an assignment on the CPU\n");
    fflush(stdout);
    double t0 = clock_seconds();
    r1cs_gen_params_t gp = r1cs_gen_porep32(a->constraints);
    r1cs_t r = {0};
    r1cs_witness_t w = {0};
    cuzk_status_t s = r1cs_generate(&r, &w, R1CS_CURVE_BLS12_381, &gp, rng);
    if (s == CUZK_OK)
        s = groth16_bp_dev_setup(params, &r, rng, NULL);
    if (s == CUZK_OK)
        s = bp_params_write(path, params, err, sizeof err);
    if (s == CUZK_OK)
        s = groth16_bp_assign(asgn, amem, &r, &w, NULL);
    r1cs_witness_free(&w);
    r1cs_free(&r);
    int rc = -1;
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk bench supraseal: setup: %s\n", err[0] ? err : cuzk_strerror(s));
    } else {
        printf("made in %.1f s\n", clock_seconds() - t0);
        t0 = clock_seconds();
        supraseal_error_t e = abi->create_srs(srs, path, true);
        if (e.code)
            fprintf(stderr, "cuzk bench supraseal: %s\n", e.message ? e.message : "create_SRS");
        else
            printf("create_SRS: %.2f s\n", clock_seconds() - t0);
        free(e.message);
        rc = e.code ? -1 : 0;
    }
    unlink(path);
    rmdir(dir);
    return rc;
}

/* The key made on the library's devices by its development hook, and the
 * assignment it gives. */
static int setup_device(const abi_t *abi, const sargs_t *a, supraseal_srs_t *srs,
                        supraseal_dev_t *dev)
{
    if (!abi->dev_srs || !abi->dev_free) {
        fprintf(stderr, "cuzk bench supraseal: --key device: the library lacks "
                        "cuzk_supraseal_dev_srs (not cuzk's Curio variant?)\n");
        return -1;
    }
    printf("making the circuit, an INSECURE development key and an assignment on the "
           "library's GPUs\n");
    fflush(stdout);
    double t0 = clock_seconds();
    supraseal_error_t e = abi->dev_srs(srs, dev, a->constraints, a->seed);
    if (e.code)
        fprintf(stderr, "cuzk bench supraseal: %s\n",
                e.message ? e.message : "cuzk_supraseal_dev_srs");
    else
        printf("made in %.1f s\n", clock_seconds() - t0);
    free(e.message);
    return e.code ? -1 : 0;
}

int cli_bench_supraseal(int argc, char **argv)
{
    sargs_t a;
    int rc = parse(&a, argc, argv);
    if (rc >= 0)
        return rc;
    abi_t abi = {0};
    if (abi_open(&abi, a.lib) != 0)
        return 1;
    rng_t rng;
    if (!a.seeded && random_bytes(NULL, &a.seed, sizeof a.seed) != CUZK_OK) {
        fprintf(stderr, "cuzk bench supraseal: the system's random generator failed\n");
        return 1;
    }
    rng_seed(&rng, a.seed);
    printf("cuzk bench supraseal: %u constraints a partition, seed %" PRIu64 "; ", a.constraints,
           a.seed);
    supraseal_srs_t srs = {0};
    supraseal_dev_t dev = {0};
    bp_params_t params = {0};
    asgn_t own = {0};
    void *amem = NULL;
    rc = a.dev_key ? setup_device(&abi, &a, &srs, &dev)
                   : setup_params(&abi, &a, &rng, &srs, &params, &own, &amem);
    const asgn_t *asgn = a.dev_key ? &dev.asgn : &own;
    const bp_vk_t *vk = a.dev_key ? &dev.vk : &params.vk;
    uint64_t wa = asgn_words(asgn->n_aux), wi = asgn_words(asgn->n_inputs);
    uint64_t *bitmaps = rc == 0 ? malloc((2 * wa + wi) * sizeof *bitmaps) : NULL;
    if (bitmaps) {
        printf("%" PRIu64 " rows, %" PRIu64 " inputs, %" PRIu64 " aux\n\n", asgn->n_constraints,
               asgn->n_inputs, asgn->n_aux);
        memcpy(bitmaps, asgn->a_aux_density, wa * 8);
        memcpy(bitmaps + wa, asgn->b_input_density, wi * 8);
        memcpy(bitmaps + wa + wi, asgn->b_aux_density, wa * 8);
        printf("| memory | constraints | partitions | proofs | s/proof | s/partition | start "
               "call s/partition | total s |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | "
               "---: |\n");
    } else if (rc == 0) {
        fprintf(stderr, "cuzk bench supraseal: out of memory\n");
        rc = -1;
    }
    for (int kind = 0; kind < 2 && bitmaps && rc == 0; kind++) {
        bool pinned = kind == 1;
        if (pinned ? !a.pinned : !a.pageable)
            continue;
        feed_t feed;
        if (feed_make(&feed, asgn, bitmaps, pinned) != 0) {
            rc = -1;
            break;
        }
        rc = run_kind(&abi, &a, &feed, &srs, vk, asgn, &rng);
        feed_free(&feed);
    }
    if (srs.ptr)
        abi.drop_srs(&srs);
    if (rc == 0)
        printf("\nevery proof verified\n");
    free(bitmaps);
    if (abi.dev_free)
        abi.dev_free(&dev);
    asgn_free(&own);
    free(amem);
    bp_params_free(&params);
    return rc == 0 ? 0 : 1;
}
