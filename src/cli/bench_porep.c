/*
 * cuzk bench porep32 | snap32 | winning32 | mixed: the engine under
 * Filecoin-shaped work (DESIGN.md section 6). Makes the indexed synthetic
 * circuit of the workload's proportions (r1cs/r1cs_indexed.h), its
 * assignment and an INSECURE development key in bellperson's layout: on the
 * GPUs when the engine runs there (engine_cuda_dev_setup: the key's points
 * never leave the devices, the assignment lands in pinned memory), else on
 * the CPU. Registers the key with the engine (engine_key_add), submits the
 * proofs (each of the workload's partitions proves the in-memory
 * assignment), waits, checks every proof again by batch verification, and
 * prints seconds per partition and per proof in steady state, device busy
 * %, bytes moved and the time of each stage. `mixed` queues PoRep proofs,
 * then (in steady state, once the first proof's partitions are done)
 * submits a winning32 proof at critical priority behind the rest and
 * reports how long it took.
 *
 * Every partition of a proof proves the same assignment (one witness is
 * generated per workload); the work per partition is that of distinct
 * witnesses of the same shape.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "engine/engine.h"
#include "engine/engine_cpu.h"
#include "io/params_file.h"
#include "io/asgn_file.h"
#include "io/io_error.h"
#include "io/io_output.h"
#include "r1cs/r1cs.h"
#include "r1cs/r1cs_indexed.h"
#include "util/clock.h"
#include "util/pool.h"
#include "util/progress.h"
#include "util/rng.h"
#if CUZK_HAVE_CUDA
#include "engine/engine_cuda.h"
#include "engine/engine_gpu_setup.h"
#endif

typedef struct workload {
    const char *name;
    uint32_t full;       /* constraints per partition at full size */
    uint32_t partitions; /* per proof */
} workload_t;

static const workload_t workloads[] = {
    {"porep32", 130278869u, 10},
    {"snap32", 81000000u, 16},
    {"winning32", 370590u, 1},
};
enum { W_POREP, W_SNAP, W_WINNING, W_COUNT };

/* Constraints used when --constraints is not given: the full size where
 * the CPU can make the development key in reasonable time (the full
 * porep32 and snap32 need a GPU with the memory for them: --constraints
 * full). */
enum { DEFAULT_SCALED = 1u << 20 };

typedef struct bench_args {
    int workload; /* W_*, or -1: mixed */
    uint32_t constraints;
    uint32_t partitions, proofs;
    engine_accel_kind_t backend;
    unsigned workers, threads, urgent;
    bool urgent_set;
    const char *trace;
    bool full;
    uint64_t seed;
    bool seeded;
    bool quiet;
} bench_args_t;

static void bench_usage(FILE *f)
{
    fprintf(f, "usage: cuzk bench porep32|snap32|winning32|mixed [options]\n"
               "\n"
               "Proves Filecoin-shaped work through the engine (DESIGN.md section 6): a\n"
               "synthetic circuit of porep32's proportions (90 %% bit-valued witness, A 2.4 /\n"
               "B 1.0 / C 2.2 non-zeros a row), an INSECURE development key in bellperson's\n"
               "layout, every proof verified. Prints seconds per partition and per proof in\n"
               "steady state, device busy %%, bytes moved and the stages' times.\n"
               "mixed: PoRep proofs queued, then, once the first proof's partitions are\n"
               "done, a winning32 proof at critical priority behind the rest; reports its\n"
               "latency from submission to its verified proof.\n"
               "\n"
               "options:\n"
               "  --constraints N    constraints per partition, N, 2^K or full (default:\n"
               "                     winning32's 370590; porep32 and snap32 2^20, scaled\n"
               "                     down: their full sizes need a GPU with ~100 GB)\n"
               "  --partitions P     partitions per proof (default: porep32 10, snap32 16,\n"
               "                     winning32 1)\n"
               "  --proofs K         proofs (default 3); steady state is measured from the\n"
               "                     first proof's end to the last's\n"
               "  --backend B        auto (default: the GPUs when there are any), cpu, cuda;\n"
               "                     the circuit, key and assignment are made there too\n"
               "  --workers W        workers per device (default 2)\n"
               "  --urgent-workers U more workers per GPU that take only critical\n"
               "                     partitions (default 1; none on the CPU)\n"
               "  --threads N        CPU threads (default: one per processor)\n"
               "  --trace FILE       write the engine's timeline as Chrome trace JSON\n"
               "  --seed S           seed of the circuit and the key (default: drawn)\n"
               "  --quiet            no progress line on stderr (shown only on a terminal)\n"
               "  -h, --help         this text\n");
}

/* -1 when args are fine, else the exit status. */
static int bench_parse(bench_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->proofs = 3;
    a->workers = 2;
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        bench_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    a->workload = -2;
    for (int i = 0; i < W_COUNT; i++)
        if (!strcmp(argv[1], workloads[i].name))
            a->workload = i;
    if (!strcmp(argv[1], "mixed"))
        a->workload = -1;
    if (a->workload == -2)
        return cli_usage_error("bench", NULL, "unknown workload '%s'", argv[1]);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "bench %s", argv[1]);
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            bench_usage(stdout);
            return 0;
        }
        if (!strcmp(o, "--quiet")) {
            a->quiet = true;
            continue;
        }
        static const char *const valued[] = {"--constraints", "--partitions",     "--proofs",
                                             "--workers",     "--urgent-workers", "--threads",
                                             "--backend",     "--trace",          "--seed"};
        if (!cli_is_one_of(o, valued, sizeof valued / sizeof *valued))
            return cli_usage_error(cmd, NULL,
                                   o[0] == '-' ? "unknown option '%s'" : "unexpected '%s'", o);
        if (i + 1 == argc)
            return cli_usage_error(cmd, NULL, "%s needs a value", o);
        const char *v = argv[++i];
        int bad = 0;
        if (!strcmp(o, "--constraints") && !strcmp(v, "full"))
            a->full = true;
        else if (!strcmp(o, "--constraints"))
            bad = cli_parse_count(&a->constraints, v, 2);
        else if (!strcmp(o, "--partitions"))
            bad = cli_parse_count(&a->partitions, v, 1);
        else if (!strcmp(o, "--proofs"))
            bad = cli_parse_count(&a->proofs, v, 1);
        else if (!strcmp(o, "--workers"))
            bad = cli_parse_count(&a->workers, v, 1) || a->workers > 16;
        else if (!strcmp(o, "--urgent-workers")) {
            bad = cli_parse_count(&a->urgent, v, 0) || a->urgent > 8;
            a->urgent_set = true;
        } else if (!strcmp(o, "--threads"))
            bad = cli_parse_threads(&a->threads, v);
        else if (!strcmp(o, "--backend"))
            bad = cli_parse_backend(&a->backend, v);
        else if (!strcmp(o, "--trace"))
            a->trace = v;
        else if (!strcmp(o, "--seed")) {
            char *end;
            errno = 0;
            a->seed = strtoull(v, &end, 0);
            bad = errno || *end || end == v;
            a->seeded = true;
        }
        if (bad)
            return cli_usage_error(cmd, NULL, "%s: bad value '%s'", o, v);
    }
    return -1;
}

/* The backend the work is made for and proven on. */
typedef struct backend {
    engine_cpu_t *cpu;
#if CUZK_HAVE_CUDA
    engine_cuda_t *cuda; /* NULL: the CPU */
#endif
    engine_backend_t be;
} backend_t;

/* One workload: its key (the backend's, until the engine takes it), its
 * assignment in memory, and what verifies its proofs. */
typedef struct prepared {
    uint32_t constraints;
    void *key;
    uint64_t key_bytes;
    asgn_t asgn;
    void *amem;  /* the assignment's block */
    bool pinned; /* amem from engine_cuda_host_alloc, else malloc */
    bp_vk_t vk;
    bls381_fr_t *in; /* the public inputs (ONE excluded) */
    size_t n_in;
    double prep_s;
    const char *where; /* "the GPU" or "the CPU" */
} prepared_t;

static void prepared_free(prepared_t *p, const backend_t *b)
{
    if (p->key && b->be.key_free)
        b->be.key_free(b->be.ctx, p->key);
#if CUZK_HAVE_CUDA
    if (p->pinned)
        engine_cuda_host_free(p->amem);
    else
#endif
        free(p->amem);
    bp_vk_free(&p->vk);
    free(p->in);
    memset(p, 0, sizeof *p);
}

/* The circuit of n constraints, its key and assignment, on the CPU. */
static cuzk_status_t prepare_cpu(prepared_t *p, const r1cs_ix_t *ix, rng_t *rng, pool_t *pool,
                                 char *err, size_t err_size)
{
    r1cs_t r = {0};
    r1cs_witness_t w = {0};
    bp_params_t params = {0};
    cuzk_status_t s = r1cs_generate_indexed(&r, &w, ix);
    if (s == CUZK_OK)
        s = groth16_bp_dev_setup(&params, &r, rng, NULL);
    if (s == CUZK_OK)
        s = groth16_bp_assign(&p->asgn, &p->amem, &r, &w, pool);
    if (s == CUZK_OK && !(p->vk.ic = malloc(params.vk.n_ic * sizeof *p->vk.ic)))
        s = CUZK_ENOMEM;
    if (s == CUZK_OK) {
        bls381_g1_affine_t *ic = p->vk.ic;
        p->vk = params.vk;
        p->vk.ic = memcpy(ic, params.vk.ic, params.vk.n_ic * sizeof *ic);
        s = engine_cpu_key_from_params(&p->key, &p->key_bytes, &params);
    }
    if (s != CUZK_OK)
        io_fail(err, err_size, s, "the development key of a circuit of %u constraints", ix->n_rows);
    bp_params_free(&params);
    r1cs_witness_free(&w);
    r1cs_free(&r);
    return s;
}

/* The circuit, key and assignment of n constraints for backend b. */
static cuzk_status_t prepare(prepared_t *p, const backend_t *b, uint32_t n, rng_t *rng,
                             pool_t *pool, char *err, size_t err_size)
{
    memset(p, 0, sizeof *p);
    p->constraints = n;
    double t0 = clock_seconds();
    r1cs_ix_t ix;
    r1cs_gen_params_t gp = r1cs_gen_porep32(n);
    if (!r1ix_init(&ix, R1CS_CURVE_BLS12_381, &gp, rng_next(rng)))
        return io_fail(err, err_size, CUZK_EINVAL, "no circuit of %u constraints", n);
    cuzk_status_t s;
#if CUZK_HAVE_CUDA
    if (b->cuda) {
        p->where = "the GPU";
        size_t bytes = engine_gpu_bp_asgn_bytes(&ix);
        s = engine_cuda_host_alloc(b->cuda, &p->amem, bytes, err, err_size);
        p->pinned = s == CUZK_OK;
        if (s == CUZK_OK)
            s = engine_cuda_dev_setup(b->cuda, &ix, rng, &p->key, &p->key_bytes, &p->vk, &p->asgn,
                                      p->amem, err, err_size);
    } else
#endif
    {
        p->where = "the CPU";
        s = prepare_cpu(p, &ix, rng, pool, err, err_size);
    }
    if (s != CUZK_OK) {
        prepared_free(p, b);
        return s;
    }
    /* What verifies: the inputs. */
    p->n_in = p->asgn.n_inputs - 1;
    p->in = malloc((p->n_in ? p->n_in : 1) * sizeof *p->in);
    if (!p->in) {
        prepared_free(p, b);
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < p->n_in; i++)
        (void)bls381_fr_from_canonical(&p->in[i], p->asgn.inputs[i + 1]);
    p->prep_s = clock_seconds() - t0;
    return CUZK_OK;
}

/* Submits k proofs of p partitions on key with priority; jobs[i] set. */
static engine_rc_t submit(engine_t *e, const char *key, const prepared_t *w, uint32_t parts,
                          uint32_t k, engine_priority_t prio, engine_job_t **jobs)
{
    engine_input_t *in = calloc(parts, sizeof *in);
    if (!in)
        return ENGINE_ENOMEM;
    for (uint32_t i = 0; i < parts; i++)
        in[i] = (engine_input_t){.kind = ENGINE_INPUT_ASGN_MEM, .asgn = &w->asgn};
    engine_rc_t rc = ENGINE_OK;
    for (uint32_t j = 0; j < k && rc == ENGINE_OK; j++) {
        engine_job_spec_t spec = {.key = key, .priority = prio, .n_inputs = parts, .inputs = in};
        rc = engine_job_submit(e, &spec, &jobs[j]);
        if (rc == ENGINE_OK)
            engine_job_start(e, jobs[j]);
    }
    free(in);
    return rc;
}

/* Waits for job, checks it is DONE and that its proofs verify as a batch;
 * *finished = its wall-clock end, *started its first partition's start.
 * While it waits, progress (NULL: none) gets the engine's partitions done. */
static cuzk_status_t collect(engine_t *e, engine_job_t *job, const prepared_t *w, double *started,
                             double *finished, double *submitted, progress_t *progress, char *err,
                             size_t err_size)
{
    /* a tenth of a second between looks at the counters: the line's pace */
    while (!engine_job_wait(e, job, progress ? 0.1 : 3600)) {
        engine_counters_t c;
        engine_counters(e, &c);
        progress_set(progress, c.partitions_done);
    }
    engine_job_info_t info;
    if (engine_job_info(e, job, &info) != ENGINE_OK)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory");
    cuzk_status_t s = CUZK_OK;
    uint32_t n = info.n_partitions;
    bp_proof_t *proofs = calloc(n, sizeof *proofs);
    bls381_fr_t *in = calloc((size_t)n * (w->n_in ? w->n_in : 1), sizeof *in);
    if (info.state != ENGINE_DONE) {
        s = io_fail(err, err_size, CUZK_EINVAL, "job %s ended %s: %s", engine_job_id(job),
                    engine_state_name(info.state), info.error ? info.error : "");
    } else if (!proofs || !in) {
        s = io_fail(err, err_size, CUZK_ENOMEM, "out of memory");
    } else {
        for (uint32_t i = 0; i < n && s == CUZK_OK; i++) {
            const engine_result_t *r = info.partitions[i].result;
            s = bp_proof_decode(&proofs[i], r->proof_bytes, engine_job_id(job), i, err, err_size);
            if (w->n_in)
                memcpy(in + (size_t)i * w->n_in, w->in, w->n_in * sizeof *in);
        }
        bool valid = false;
        if (s == CUZK_OK)
            s = groth16_bp_verify(&valid, &w->vk, in, proofs, n, NULL, NULL, err, err_size);
        if (s == CUZK_OK && !valid)
            s = io_fail(err, err_size, CUZK_EWITNESS, "job %s: its proofs do not verify",
                        engine_job_id(job));
    }
    *started = info.started_at;
    *finished = info.finished_at;
    *submitted = info.submitted_at;
    free(proofs);
    free(in);
    engine_job_info_free(&info);
    return s;
}

static void print_stages(const engine_counters_t *c)
{
    uint64_t n = c->partitions_done ? c->partitions_done : 1;
    printf("\n| stage | seconds per partition (worker wall time) |\n| --- | --- |\n");
    for (int i = 0; i < ENGINE_STAGES; i++)
        if (i != ENGINE_STAGE_LOAD)
            printf("| %s | %.4f |\n", engine_stage_name((engine_stage_t)i),
                   c->stage_seconds[i] / (double)n);
}

int cli_bench_porep(int argc, char **argv)
{
    bench_args_t a;
    int rc = bench_parse(&a, argc, argv);
    if (rc >= 0)
        return rc;
    char err[IO_ERR_MAX] = "";
    if (a.trace && io_output_check(a.trace, err, sizeof err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench: --trace %s\n", err);
        return 2;
    }
    bool mixed = a.workload < 0;
    const workload_t *wl = &workloads[mixed ? W_POREP : a.workload];
    uint32_t n = a.full          ? wl->full
                 : a.constraints ? a.constraints
                                 : (wl->full <= DEFAULT_SCALED ? wl->full : DEFAULT_SCALED);
    uint32_t parts = a.partitions ? a.partitions : wl->partitions;
    cuzk_status_t s = CUZK_OK;
    rng_t rng;
    if (!a.seeded && random_bytes(NULL, &a.seed, sizeof a.seed) != CUZK_OK) {
        fprintf(stderr, "cuzk bench: the operating system's generator failed\n");
        return 2;
    }
    rng_seed(&rng, a.seed);
    printf("cuzk bench %s: %u constraints a partition (%s%u), %u partitions a proof, %u proofs, "
           "seed %" PRIu64 "\n",
           mixed ? "mixed" : wl->name, n, n == wl->full ? "full size " : "scaled from ", wl->full,
           parts, a.proofs, a.seed);

    /* The backend: the GPUs, or the CPU. */
    backend_t b = {0};
    unsigned workers = 1, urgent = 0;
    int ndev = 0;
#if CUZK_HAVE_CUDA
    if (a.backend != ENGINE_ACCEL_CPU) {
        engine_cuda_options_t co = {.cpu = {.trusted_keys = true}, .workers_per_device = a.workers};
        char why[IO_ERR_MAX];
        b.cuda = engine_cuda_new(&co, &s, why, sizeof why);
        if (b.cuda) {
            ndev = engine_cuda_devices(b.cuda);
            b.be = engine_cuda_backend(b.cuda);
            workers = a.workers * (unsigned)ndev;
            urgent = (a.urgent_set ? a.urgent : 1) * (unsigned)ndev;
            for (int i = 0; i < ndev; i++)
                printf("device %d: %s\n", i, engine_cuda_device_name(b.cuda, i));
        } else if (a.backend == ENGINE_ACCEL_CUDA) {
            io_fail(err, sizeof err, s, "--backend cuda: %s", why);
        } else {
            printf("%s; proving on the CPU\n", why);
            s = CUZK_OK;
        }
    }
#else
    if (a.backend == ENGINE_ACCEL_CUDA)
        s = io_fail(err, sizeof err, CUZK_EDEVICE, "--backend cuda: built without CUDA");
#endif
    if (s == CUZK_OK && ndev == 0) {
        engine_cpu_options_t co = {.trusted_keys = true};
        b.cpu = engine_cpu_new(&co, &s);
        if (b.cpu)
            b.be = engine_cpu_backend(b.cpu);
        else
            io_fail(err, sizeof err, s, "cannot start the CPU backend");
    }

    /* The work, made where it is proven. */
    prepared_t main_w = {0}, win_w = {0};
    pool_t *pool = s == CUZK_OK ? pool_new(a.threads, &s) : NULL;
    if (pool) {
        s = prepare(&main_w, &b, n, &rng, pool, err, sizeof err);
        if (s == CUZK_OK && mixed)
            s = prepare(&win_w, &b, workloads[W_WINNING].full, &rng, pool, err, sizeof err);
    }
    pool_free(pool);
    if (s == CUZK_OK) {
        const asgn_t *as = &main_w.asgn;
        uint64_t abytes = 32 * (3 * as->n_constraints + as->n_inputs + as->n_aux);
        printf("prepared on %s in %.1f s: circuit, INSECURE development key, assignment "
               "(%.2f GB%s)\n",
               main_w.where, main_w.prep_s + win_w.prep_s, (double)abytes / 1e9,
               main_w.pinned ? ", pinned" : "");
    }

    engine_t *e = NULL;
    if (s == CUZK_OK) {
        engine_config_t ec = {.backend = &b.be,
                              .workers = workers,
                              .urgent_workers = urgent,
                              .threads = a.threads,
                              .timeline_events = 1u << 16};
        e = engine_new(&ec, &s);
        if (!e)
            io_fail(err, sizeof err, s, "cannot start the engine");
    }

    /* Keys (the engine owns them from here), then the work. */
    const char *names[2] = {mixed ? "porep32" : wl->name, "winning32"};
    prepared_t *ws[2] = {&main_w, &win_w};
    for (int i = 0; s == CUZK_OK && i < (mixed ? 2 : 1); i++) {
        char origin[96];
        snprintf(origin, sizeof origin, "INSECURE development key made on %s", ws[i]->where);
        void *key = ws[i]->key;
        ws[i]->key = NULL;
        if (engine_key_add(e, names[i], KEY_FORMAT_PARAMS, origin, key, ws[i]->key_bytes, err,
                           sizeof err) != ENGINE_OK)
            s = CUZK_EINVAL;
    }
    engine_job_t **jobs = calloc(a.proofs + 1, sizeof(engine_job_t *));
    double t_submit = engine_wall();
    if (s == CUZK_OK && (!jobs || submit(e, names[0], &main_w, parts, a.proofs,
                                         ENGINE_PRIORITY_NORMAL, jobs) != ENGINE_OK))
        s = io_fail(err, sizeof err, CUZK_ENOMEM, "submitting the proofs failed");
    if (s == CUZK_OK && mixed) {
        /* Behind the PoRep queue, in steady state: once a proof's worth of
         * partitions is done (the first ones also warm the device up). */
        engine_counters_t c;
        do {
            usleep(2000);
            engine_counters(e, &c);
        } while (c.partitions_done < parts && c.partitions_failed == 0);
        if (submit(e, names[1], &win_w, 1, 1, ENGINE_PRIORITY_CRITICAL, &jobs[a.proofs]) !=
            ENGINE_OK)
            s = io_fail(err, sizeof err, CUZK_ENOMEM, "submitting the winning32 proof failed");
    }
    double first = 0, fin0 = 0, last = 0, win_lat = 0, win_fin = 0;
    progress_t *progress = progress_stderr("cuzk bench", a.quiet);
    uint32_t n_jobs = a.proofs + (mixed ? 1 : 0);
    progress_begin(progress, "proving", (uint64_t)parts * a.proofs + (mixed ? 1 : 0), "partitions");
    for (uint32_t j = 0; s == CUZK_OK && jobs && j < n_jobs; j++) {
        char stage[CUZK_PROGRESS_TEXT];
        snprintf(stage, sizeof stage, "proofs %u/%u done", j, n_jobs);
        progress_label(progress, stage);
        double st = 0, fi = 0, sub = 0;
        s = collect(e, jobs[j], j < a.proofs ? &main_w : &win_w, &st, &fi, &sub, progress, err,
                    sizeof err);
        if (s != CUZK_OK)
            break;
        if (j == a.proofs) {
            win_lat = fi - sub;
            win_fin = fi;
            continue;
        }
        first = j == 0 || st < first ? st : first;
        fin0 = j == 0 ? fi : fin0;
        last = fi > last ? fi : last;
    }
    progress_free(progress);
    if (s == CUZK_OK) {
        double per_proof = a.proofs > 1 ? (last - fin0) / (a.proofs - 1) : last - first;
        engine_counters_t c;
        engine_counters(e, &c);
        printf("\n%u proofs of %u partitions, all verified, in %.2f s from submission\n", a.proofs,
               parts, last - t_submit);
        printf("\n| workload | constraints | partitions | proofs | s per proof (steady) | "
               "s per partition | first proof s |\n| --- | --- | --- | --- | --- | --- | --- |\n");
        printf("| %s | %u | %u | %u | %.3f | %.3f | %.3f |\n", names[0], n, parts, a.proofs,
               per_proof, per_proof / parts, fin0 - t_submit);
        if (mixed)
            printf("\nwinning32 at critical priority behind the queue: %.3f s from submission to "
                   "its proof (%s the last PoRep proof)\n",
                   win_lat, win_fin < last ? "before" : "after");
#if CUZK_HAVE_CUDA
        if (b.cuda) {
            engine_cuda_counters_t g;
            engine_cuda_counters(b.cuda, &g);
            double window = (last - first) * 1e3;
            /* Each link's host-to-device rate over the window, and their sum:
             * the host memory the devices read (the inputs and any streamed
             * queries; the host's own reads and writes come on top). */
            printf("\n| device | busy %% (kernel time / window) | partitions | host to device "
                   "GB/s |\n| --- | --- | --- | --- |\n");
            double links = 0;
            for (int i = 0; i < ndev; i++) {
                double gbs = window > 0 ? g.device_h2d_bytes[i] / (window * 1e6) : 0.0;
                links += gbs;
                printf("| %d | %.1f | %" PRIu64 " | %.2f |\n", i,
                       window > 0 ? 100.0 * g.device_ms[i] / window : 0.0, g.device_partitions[i],
                       gbs);
            }
            if (ndev > 1)
                printf("| all | | %" PRIu64 " | %.2f |\n", g.partitions, links);
            uint64_t pn = g.partitions ? g.partitions : 1;
            printf("\n| per partition | value |\n| --- | --- |\n"
                   "| device synth ms | %.2f |\n| device h ms | %.2f |\n| device msm ms | %.2f |\n",
                   g.synth_ms / pn, g.h_ms / pn, g.msm_ms / pn);
            static const char *const q[ENGINE_GPU_QUERIES] = {"A", "B1", "B2 (G2)", "L", "H"};
            for (int i = 0; i < ENGINE_GPU_QUERIES; i++)
                printf("| device msm %s ms | %.2f |\n", q[i], g.query_ms[i] / pn);
            printf("| host staging s | %.4f |\n| compute lock wait s | %.4f |\n"
                   "| host to device MB | %.1f |\n| device to host KB | %.2f |\n"
                   "| pageable bytes | %" PRIu64 " |\n| CPU fallbacks | %" PRIu64 " |\n"
                   "| pinned pool hits / misses | %" PRIu64 " / %" PRIu64 " |\n"
                   "| pinned pool MB held (peak) | %.1f (%.1f) |\n"
                   "| yields to critical work (all partitions) | %" PRIu64 " |\n",
                   g.stage_s / pn, g.lock_wait_s / pn, g.h2d_bytes / 1e6 / pn,
                   g.d2h_bytes / 1e3 / pn, g.pageable_bytes, g.cpu_fallbacks, g.pinned.hits,
                   g.pinned.misses, g.pinned.bytes_held / 1e6, g.pinned.bytes_peak / 1e6, g.yields);
            for (int i = 0; i < ndev; i++)
                printf("| device %d partition memory: peak GB, waits, taken back | %.2f, %" PRIu64
                       ", %" PRIu64 " |\n",
                       i, g.mem[i].peak / 1e9, g.mem[i].waits, g.mem[i].reclaims);
        }
#endif
        print_stages(&c);
        if (a.trace) {
            char *json = NULL;
            if (engine_timeline_chrome_json(engine_timeline(e), engine_started(e), &json) ==
                CUZK_OK) {
                io_output_t out;
                s = io_output_open(&out, a.trace, err, sizeof err);
                if (s == CUZK_OK) {
                    io_output_write(&out, json, strlen(json));
                    s = io_output_close(&out, CUZK_OK, err, sizeof err);
                }
                if (s == CUZK_OK)
                    printf("\ntrace: %s (chrome://tracing, Perfetto)\n", a.trace);
            }
            free(json);
        }
    }
    for (uint32_t j = 0; jobs && j < a.proofs + 1; j++)
        if (jobs[j])
            engine_job_unref(e, jobs[j]);
    free(jobs);
    engine_free(e); /* the jobs end: the assignments and the backend may go */
    prepared_free(&main_w, &b);
    prepared_free(&win_w, &b);
    engine_cpu_free(b.cpu);
#if CUZK_HAVE_CUDA
    engine_cuda_free(b.cuda);
#endif
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk bench: %s\n", err);
        return 2;
    }
    return 0;
}
