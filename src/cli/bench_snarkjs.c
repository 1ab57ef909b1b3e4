/*
 * `cuzk bench snarkjs`: cuzk's prover against `snarkjs groth16 prove` on the
 * same key and witness, then the MSM, NTT and subgroup-check kernels at one
 * and N threads.
 *
 * For every curve and size 2^k it generates, in a fresh temporary
 * directory, a porep32-shaped circuit (DESIGN.md section 6; the code of
 * `cuzk gen`) of 2^k - 329 constraints, so that with the 328 public inputs
 * and snarkjs' row for ONE the domain is exactly 2^k, its witness, and an
 * INSECURE development key (the code of `cuzk setup`). Then:
 *  - cuzk proves `runs` times in this process, each run doing what `cuzk
 *    prove` does: read and fully validate the .zkey (subgroup checks
 *    included: snarkjs reads the key on every proof too), read the .wtns,
 *    prove, self-verify, write proof.json and public.json. Every stage is
 *    timed; the table shows per-stage medians and the median total. The
 *    key is also read once as trusted (no subgroup checks), to show what
 *    the validation costs.
 *  - snarkjs proves `snarkjs_runs` times as a child process (wall clock,
 *    node's start-up included, as a user sees it).
 *  - both proofs are verified with cuzk's verifier from the written files.
 * The temporary files are removed at the end. With --zkey and --wtns it
 * proves that key and witness instead (a circom circuit, say), in one
 * row; the proofs still go to a temporary directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "groth16/groth16.h"
#include "io/io_error.h"
#include "io/snarkjs_json.h"
#include "io/wtns_file.h"
#include "io/zkey_file.h"
#include "msm/bls381_msm.h"
#include "msm/bn254_msm.h"
#include "ntt/bls381_ntt.h"
#include "ntt/bn254_ntt.h"
#include "r1cs/r1cs.h"
#include "util/cpu.h"
#include "util/pool.h"
#include "util/rng.h"

extern char **environ;

enum { BENCH_OK = 0, BENCH_WRONG = 1, BENCH_EFAIL = 2 };
enum { BENCH_MAX_SIZES = 8, BENCH_MAX_RUNS = 99, BENCH_PATH = 4096 };

/* The stages of one cuzk proof, as `cuzk prove` goes through them. */
typedef enum bench_stage {
    BS_KEY,    /* read and validate the .zkey */
    BS_WTNS,   /* read the .wtns */
    BS_SYNTH,  /* groth16 stages, in order */
    BS_H,      /*   ... */
    BS_MSM,    /*   ... */
    BS_FINISH, /*   ... */
    BS_VERIFY, /*   the self-verification */
    BS_WRITE,  /* proof.json and public.json */
    BS_TOTAL,
    BS_CPU, /* CPU seconds of the whole process, all threads */
    BS_STAGES
} bench_stage_t;

static const char *const bench_stage_names[BS_STAGES] = {
    "key read", "wtns", "synth", "h", "msm", "finish", "verify", "write", "total", "cpu"};

typedef struct bench_opts {
    unsigned sizes[BENCH_MAX_SIZES], n_sizes;
    r1cs_curve_t curves[2];
    unsigned n_curves;
    unsigned runs, snarkjs_runs, threads, kernel_log;
    uint64_t seed;
    const char *snarkjs;     /* NULL: look for node_modules/.bin/snarkjs */
    const char *zkey, *wtns; /* a given key and witness, or NULL: generated circuits */
    bool no_snarkjs, no_kernels;
} bench_opts_t;

/* What one curve and size measured. */
typedef struct bench_row {
    r1cs_curve_t curve;
    unsigned log2n;
    uint32_t n_constraints, n_vars, domain;
    double gen_s, setup_s, key_trusted_s;
    double stage[BS_STAGES]; /* medians over the cuzk runs */
    double snarkjs_s;        /* median; < 0 when snarkjs did not run */
    double snarkjs_cpu;      /* median CPU seconds of the child, user + system */
    bool cuzk_verified, snarkjs_verified;
} bench_row_t;

static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* User + system seconds of a getrusage record. */
static double bench_cpu(const struct rusage *ru)
{
    return (double)ru->ru_utime.tv_sec + 1e-6 * (double)ru->ru_utime.tv_usec +
           (double)ru->ru_stime.tv_sec + 1e-6 * (double)ru->ru_stime.tv_usec;
}

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n values (sorts them). */
static double bench_median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- interruption ----------------------------------------------------------- */

/* The signal that asked the bench to stop (SIGINT, SIGTERM, SIGHUP), 0 if
 * none. The handler only records it; the bench checks it between steps,
 * removes its temporary files (hundreds of MB at 2^18) and then dies of the
 * same signal. */
static volatile sig_atomic_t bench_stop;

static void bench_on_signal(int sig)
{
    bench_stop = sig;
}

static void bench_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = bench_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* A closed stdout (`| head`) makes writes fail instead of killing the
     * bench before it cleans up. */
    signal(SIGPIPE, SIG_IGN);
}

/* After cleaning up: die of the signal that stopped the bench, if any. */
static void bench_reraise(void)
{
    int sig = bench_stop;
    if (!sig)
        return;
    signal(sig, SIG_DFL);
    raise(sig);
}

static cuzk_status_t bench_check_stop(char *err, size_t err_size)
{
    return bench_stop
               ? io_fail(err, err_size, CUZK_EINVAL, "interrupted by signal %d", (int)bench_stop)
               : CUZK_OK;
}

/* ---- options -------------------------------------------------------------- */

static void bench_usage(FILE *f)
{
    fprintf(f, "usage: cuzk bench snarkjs [options]\n"
               "\n"
               "Proves the same key and witness with cuzk (in this process) and with `snarkjs\n"
               "groth16 prove` (a child process), verifies both proofs and prints the times\n"
               "and their ratio; then MSM, NTT and subgroup-check throughput at 1 and N\n"
               "threads. Circuits: porep32-shaped, domain 2^k, INSECURE development keys, in a\n"
               "temporary directory that is removed afterwards.\n"
               "\n"
               "options:\n"
               "  --sizes K,...     domain sizes 2^K, 10 <= K <= 22 (default 14,16,18)\n"
               "  --curves C,...    bn254, bls12-381 (default both)\n"
               "  --runs N          cuzk proofs per size, the median is shown (default 3)\n"
               "  --snarkjs-runs N  snarkjs proofs per size (default 1)\n"
               "  --threads N       cuzk's threads, and the N of the kernels (default: one per\n"
               "                    processor; snarkjs takes them all regardless)\n"
               "  --snarkjs PATH    the snarkjs command (default: node_modules/.bin/snarkjs in\n"
               "                    the current directory or above, or above this program)\n"
               "  --no-snarkjs      cuzk's numbers only\n"
               "  --kernel-size K   the kernels' size 2^K (default 16)\n"
               "  --no-kernels      skip the kernels\n"
               "  --seed S          seed of the circuits and keys (default 1)\n"
               "  --zkey FILE       with --wtns: prove this key and witness instead of the\n"
               "                    generated circuits (--sizes and --curves do not apply)\n"
               "  --wtns FILE       the witness for --zkey\n"
               "  -h, --help        this text\n");
}

static bool bench_uint(unsigned *out, const char *opt, const char *v, unsigned lo, unsigned hi)
{
    char *end;
    errno = 0;
    unsigned long x = strtoul(v, &end, 10);
    if (errno || *end || end == v || v[0] == '-' || x < lo || x > hi) {
        fprintf(stderr, "cuzk bench snarkjs: %s wants a number from %u to %u, not '%s'\n", opt, lo,
                hi, v);
        return false;
    }
    *out = (unsigned)x;
    return true;
}

/* A comma-separated list of sizes or curves. */
static bool bench_list(bench_opts_t *o, const char *opt, const char *v)
{
    char buf[256];
    if (strlen(v) >= sizeof buf) {
        fprintf(stderr, "cuzk bench snarkjs: %s: list too long\n", opt);
        return false;
    }
    strcpy(buf, v);
    bool sizes = !strcmp(opt, "--sizes");
    if (sizes)
        o->n_sizes = 0;
    else
        o->n_curves = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (sizes) {
            if (o->n_sizes == BENCH_MAX_SIZES) {
                fprintf(stderr, "cuzk bench snarkjs: at most %d sizes\n", BENCH_MAX_SIZES);
                return false;
            }
            if (!bench_uint(&o->sizes[o->n_sizes++], opt, t, 10, 22))
                return false;
        } else {
            r1cs_curve_t c = snarkjs_curve_from_name(t);
            if (c == R1CS_CURVE_NONE || o->n_curves == 2) {
                fprintf(stderr, "cuzk bench snarkjs: %s: '%s' is not bn254 or bls12-381\n", opt, t);
                return false;
            }
            o->curves[o->n_curves++] = c;
        }
    }
    if ((sizes && !o->n_sizes) || (!sizes && !o->n_curves)) {
        fprintf(stderr, "cuzk bench snarkjs: %s: empty list\n", opt);
        return false;
    }
    return true;
}

/* Returns -1 when the options are fine, else the exit status. */
static int bench_parse(bench_opts_t *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->sizes[0] = 14, o->sizes[1] = 16, o->sizes[2] = 18, o->n_sizes = 3;
    o->curves[0] = R1CS_CURVE_BN254, o->curves[1] = R1CS_CURVE_BLS12_381, o->n_curves = 2;
    o->runs = 3, o->snarkjs_runs = 1, o->kernel_log = 16, o->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            bench_usage(stdout);
            return BENCH_OK;
        }
        if (!strcmp(a, "--no-snarkjs") || !strcmp(a, "--no-kernels")) {
            *(a[5] == 's' ? &o->no_snarkjs : &o->no_kernels) = true;
            continue;
        }
        static const char *const valued[] = {
            "--sizes", "--curves",      "--runs", "--threads", "--snarkjs", "--snarkjs-runs",
            "--seed",  "--kernel-size", "--zkey", "--wtns",    NULL};
        bool known = false;
        for (int j = 0; valued[j]; j++)
            known |= !strcmp(a, valued[j]);
        if (!known || i + 1 == argc) {
            fprintf(stderr, "cuzk bench snarkjs: %s '%s' (try 'cuzk bench snarkjs --help')\n",
                    known ? "a value is missing after" : "unknown argument", a);
            return BENCH_EFAIL;
        }
        const char *v = argv[++i];
        bool ok = true;
        if (!strcmp(a, "--sizes") || !strcmp(a, "--curves"))
            ok = bench_list(o, a, v);
        else if (!strcmp(a, "--runs"))
            ok = bench_uint(&o->runs, a, v, 1, BENCH_MAX_RUNS);
        else if (!strcmp(a, "--snarkjs-runs"))
            ok = bench_uint(&o->snarkjs_runs, a, v, 1, BENCH_MAX_RUNS);
        else if (!strcmp(a, "--threads"))
            ok = bench_uint(&o->threads, a, v, 1, 4096);
        else if (!strcmp(a, "--kernel-size"))
            ok = bench_uint(&o->kernel_log, a, v, 8, 24);
        else if (!strcmp(a, "--snarkjs"))
            o->snarkjs = v;
        else if (!strcmp(a, "--zkey"))
            o->zkey = v;
        else if (!strcmp(a, "--wtns"))
            o->wtns = v;
        else {
            char *end;
            errno = 0;
            o->seed = strtoull(v, &end, 0);
            ok = !errno && !*end && end != v && v[0] != '-';
            if (!ok)
                fprintf(stderr, "cuzk bench snarkjs: --seed wants a whole number, not '%s'\n", v);
        }
        if (!ok)
            return BENCH_EFAIL;
    }
    if (!o->zkey != !o->wtns) {
        fprintf(stderr, "cuzk bench snarkjs: --zkey and --wtns go together\n");
        return BENCH_EFAIL;
    }
    return -1;
}

/* ---- snarkjs ------------------------------------------------------------- */

/* Looks for node_modules/.bin/snarkjs in dir and its parents; path gets it. */
static bool bench_find_snarkjs_from(char *path, size_t size, const char *start)
{
    char dir[BENCH_PATH];
    if (!start || strlen(start) >= sizeof dir)
        return false;
    strcpy(dir, start);
    for (;;) {
        if ((size_t)snprintf(path, size, "%s/node_modules/.bin/snarkjs", dir) < size &&
            access(path, X_OK) == 0)
            return true;
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            return false;
        *slash = '\0';
    }
}

/* The snarkjs command: --snarkjs, or node_modules/.bin/snarkjs above the
 * current directory or above this program. */
static bool bench_find_snarkjs(char *path, size_t size, const char *given)
{
    if (given) {
        if ((size_t)snprintf(path, size, "%s", given) >= size)
            return false;
        return access(path, X_OK) == 0;
    }
    char buf[BENCH_PATH];
    if (getcwd(buf, sizeof buf) && bench_find_snarkjs_from(path, size, buf))
        return true;
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = '\0';
    return bench_find_snarkjs_from(path, size, buf);
}

/* Runs `snarkjs groth16 prove zkey wtns proof public`, its output to log.
 * Returns the wall-clock seconds and sets *cpu to the child's CPU seconds
 * (user + system, all its threads), or returns -1 (with a message). */
static double bench_run_snarkjs(const char *snarkjs, const char *zkey, const char *wtns,
                                const char *proof, const char *pub, const char *log, double *cpu)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    char *args[] = {(char *)snarkjs, "groth16",     "prove",     (char *)zkey,
                    (char *)wtns,    (char *)proof, (char *)pub, NULL};
    double t0 = bench_now();
    pid_t pid;
    int rc = posix_spawn(&pid, snarkjs, &fa, NULL, args, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        fprintf(stderr, "cuzk bench snarkjs: cannot run %s: %s\n", snarkjs, strerror(rc));
        return -1;
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno == EINTR && bench_stop)
            kill(pid, SIGTERM); /* then wait for it to go */
        else if (errno != EINTR) {
            fprintf(stderr, "cuzk bench snarkjs: waiting for snarkjs: %s\n", strerror(errno));
            return -1;
        }
    }
    double t = bench_now() - t0;
    *cpu = bench_cpu(&ru);
    if (bench_stop)
        return -1; /* stopped on our request: no message */
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "cuzk bench snarkjs: %s groth16 prove failed (status %d); its output:\n",
                snarkjs, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        FILE *f = fopen(log, "r");
        char line[512];
        for (int i = 0; f && i < 20 && fgets(line, sizeof line, f); i++)
            fputs(line, stderr);
        if (f)
            fclose(f);
        return -1;
    }
    return t;
}

/* ---- one curve and size -------------------------------------------------- */

typedef struct bench_files {
    char dir[BENCH_PATH];
    char zkey[BENCH_PATH], wtns[BENCH_PATH], proof[BENCH_PATH], pub[BENCH_PATH];
    char sj_proof[BENCH_PATH], sj_pub[BENCH_PATH], sj_log[BENCH_PATH];
    bool given; /* zkey and wtns are the user's: not made, not removed */
} bench_files_t;

/* The paths in dir; zkey and wtns NULL, or the user's files. */
static bool bench_files_init(bench_files_t *f, const char *dir, const char *zkey, const char *wtns)
{
    struct {
        char *buf;
        const char *name;
    } n[] = {{f->zkey, "circuit.zkey"},      {f->wtns, "witness.wtns"},
             {f->proof, "cuzk_proof.json"},  {f->pub, "cuzk_public.json"},
             {f->sj_proof, "sj_proof.json"}, {f->sj_pub, "sj_public.json"},
             {f->sj_log, "snarkjs.log"}};
    snprintf(f->dir, sizeof f->dir, "%s", dir);
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
        if ((size_t)snprintf(n[i].buf, BENCH_PATH, "%s/%s", dir, n[i].name) >= BENCH_PATH)
            return false;
    f->given = zkey != NULL;
    if (f->given && ((size_t)snprintf(f->zkey, BENCH_PATH, "%s", zkey) >= BENCH_PATH ||
                     (size_t)snprintf(f->wtns, BENCH_PATH, "%s", wtns) >= BENCH_PATH))
        return false;
    return true;
}

static void bench_files_remove(const bench_files_t *f)
{
    const char *p[] = {f->proof, f->pub, f->sj_proof, f->sj_pub, f->sj_log, f->zkey, f->wtns};
    for (size_t i = 0; i < sizeof p / sizeof p[0] - (f->given ? 2 : 0); i++)
        remove(p[i]);
}

/* The given key's curve and sizes in row (its points not checked). */
static cuzk_status_t bench_given_key(const bench_files_t *f, bench_row_t *row, pool_t *pool,
                                     char *err, size_t err_size)
{
    zkey_t k = {0};
    cuzk_status_t s = zkey_file_read(&k, f->zkey, pool, ZKEY_TRUSTED, err, err_size);
    if (s == CUZK_OK) {
        row->curve = k.curve;
        row->n_vars = k.n_vars;
        row->domain = k.domain_size;
        for (row->log2n = 0; (1u << row->log2n) < k.domain_size; row->log2n++)
            ;
    }
    zkey_free(&k);
    return s;
}

/* The circuit, its witness and the key, written to f; fills the sizes and
 * the gen and setup times of row. */
static cuzk_status_t bench_make_files(const bench_files_t *f, bench_row_t *row, uint64_t seed,
                                      char *err, size_t err_size)
{
    rng_t rng;
    rng_seed(&rng, seed);
    r1cs_gen_params_t gp = r1cs_gen_porep32((1u << row->log2n) - 329);
    row->n_constraints = gp.n_constraints;
    r1cs_t r = {0};
    r1cs_witness_t w = {0};
    zkey_t k = {0};
    double t0 = bench_now();
    cuzk_status_t s = r1cs_generate(&r, &w, row->curve, &gp, &rng);
    if (s != CUZK_OK)
        io_fail(err, err_size, s, "cannot generate %u constraints", gp.n_constraints);
    if (s == CUZK_OK)
        s = wtns_file_write(f->wtns, &w, err, err_size);
    row->gen_s = bench_now() - t0;
    t0 = bench_now();
    if (s == CUZK_OK) {
        s = groth16_dev_setup(&k, &r, &rng, NULL);
        if (s != CUZK_OK)
            io_fail(err, err_size, s, "the development setup of 2^%u failed", row->log2n);
    }
    if (s == CUZK_OK) {
        row->n_vars = k.n_vars;
        row->domain = k.domain_size;
        s = zkey_file_write(f->zkey, &k, NULL, err, err_size);
    }
    row->setup_s = bench_now() - t0;
    groth16_dev_key_free(&k);
    r1cs_witness_free(&w);
    r1cs_free(&r);
    return s;
}

/* One cuzk proof as `cuzk prove` makes it, its stage times in t. */
static cuzk_status_t bench_cuzk_prove(const bench_files_t *f, double t[BS_STAGES], pool_t *pool,
                                      char *err, size_t err_size)
{
    zkey_t k = {0};
    r1cs_witness_t w = {0}, pub = {0};
    snarkjs_proof_t proof;
    groth16_timings_t gt = {{0}};
    struct rusage ru0, ru1;
    getrusage(RUSAGE_SELF, &ru0);
    double t0 = bench_now(), t1;
    cuzk_status_t s = zkey_file_read(&k, f->zkey, pool, 0, err, err_size);
    t1 = bench_now();
    t[BS_KEY] = t1 - t0;
    if (s == CUZK_OK)
        s = wtns_file_read(&w, f->wtns, pool_default(), err, err_size);
    t[BS_WTNS] = bench_now() - t1;
    if (s == CUZK_OK)
        s = groth16_prove(&proof, &pub, &k, &w, NULL, &gt, pool, err, err_size);
    t[BS_SYNTH] = gt.seconds[GROTH16_STAGE_SYNTH];
    t[BS_H] = gt.seconds[GROTH16_STAGE_H];
    t[BS_MSM] = gt.seconds[GROTH16_STAGE_MSM];
    t[BS_FINISH] = gt.seconds[GROTH16_STAGE_FINISH];
    t[BS_VERIFY] = gt.seconds[GROTH16_STAGE_VERIFY];
    t1 = bench_now();
    if (s == CUZK_OK)
        s = snarkjs_proof_write(f->proof, &proof, err, err_size);
    if (s == CUZK_OK)
        s = snarkjs_public_write(f->pub, &pub, err, err_size);
    t[BS_WRITE] = bench_now() - t1;
    t[BS_TOTAL] = bench_now() - t0;
    getrusage(RUSAGE_SELF, &ru1);
    t[BS_CPU] = bench_cpu(&ru1) - bench_cpu(&ru0);
    r1cs_witness_free(&pub);
    r1cs_witness_free(&w);
    zkey_free(&k);
    return s;
}

/* Whether the proof and public signals at the two paths verify under vk. */
static cuzk_status_t bench_verify_files(bool *valid, const groth16_vk_t *vk, const char *proof_path,
                                        const char *pub_path, pool_t *pool, char *err,
                                        size_t err_size)
{
    snarkjs_proof_t proof;
    r1cs_witness_t pub = {0};
    cuzk_status_t s = snarkjs_public_read(&pub, pub_path, vk->curve, vk->n_public, err, err_size);
    if (s == CUZK_OK)
        s = snarkjs_proof_read(&proof, proof_path, vk->curve, err, err_size);
    if (s == CUZK_OK)
        s = groth16_verify(valid, vk, &pub, &proof, pool, err, err_size);
    r1cs_witness_free(&pub);
    return s;
}

/* Everything for one curve and size; row->curve and row->log2n set, or
 * for the given key and witness (o->zkey). */
static cuzk_status_t bench_one(bench_row_t *row, const bench_opts_t *o, const char *snarkjs,
                               pool_t *pool, char *err, size_t err_size)
{
    char dir[BENCH_PATH];
    const char *base = getenv("TMPDIR");
    if ((size_t)snprintf(dir, sizeof dir, "%s/cuzk-bench-XXXXXX", base && *base ? base : "/tmp") >=
            sizeof dir ||
        !mkdtemp(dir))
        return io_fail(err, err_size, CUZK_EIO, "cannot make a temporary directory: %s",
                       strerror(errno));
    bench_files_t f;
    if (!bench_files_init(&f, dir, o->zkey, o->wtns)) {
        rmdir(dir);
        return io_fail(err, err_size, CUZK_EINVAL, "%s: path too long", dir);
    }
    cuzk_status_t s;
    if (f.given) {
        s = bench_given_key(&f, row, pool, err, err_size);
    } else {
        fprintf(stderr, "cuzk bench snarkjs: %s 2^%u: generating the circuit and the key in %s\n",
                r1cs_curve_name(row->curve), row->log2n, dir);
        s = bench_make_files(&f, row, o->seed + row->log2n, err, err_size);
    }
    if (s == CUZK_OK)
        s = bench_check_stop(err, err_size);

    /* The key read without the subgroup checks, once. */
    if (s == CUZK_OK) {
        zkey_t k = {0};
        double t0 = bench_now();
        s = zkey_file_read(&k, f.zkey, pool, ZKEY_TRUSTED, err, err_size);
        row->key_trusted_s = bench_now() - t0;
        zkey_free(&k);
    }
    double runs[BS_STAGES][BENCH_MAX_RUNS] = {{0}};
    for (unsigned i = 0; i < o->runs && s == CUZK_OK; i++) {
        double t[BS_STAGES];
        s = bench_cuzk_prove(&f, t, pool, err, err_size);
        if (s == CUZK_OK)
            s = bench_check_stop(err, err_size);
        for (int j = 0; j < BS_STAGES; j++)
            runs[j][i] = t[j];
        fprintf(stderr, "cuzk bench snarkjs: %s 2^%u: cuzk run %u: %.3f s\n",
                r1cs_curve_name(row->curve), row->log2n, i + 1, t[BS_TOTAL]);
    }
    if (s == CUZK_OK)
        for (int j = 0; j < BS_STAGES; j++)
            row->stage[j] = bench_median(runs[j], o->runs);

    row->snarkjs_s = -1;
    if (s == CUZK_OK && snarkjs) {
        double t[BENCH_MAX_RUNS] = {0}, cpu[BENCH_MAX_RUNS] = {0};
        unsigned n = 0;
        for (; n < o->snarkjs_runs; n++) {
            t[n] =
                bench_run_snarkjs(snarkjs, f.zkey, f.wtns, f.sj_proof, f.sj_pub, f.sj_log, &cpu[n]);
            if (t[n] < 0 || bench_stop)
                break;
            fprintf(stderr, "cuzk bench snarkjs: %s 2^%u: snarkjs run %u: %.3f s\n",
                    r1cs_curve_name(row->curve), row->log2n, n + 1, t[n]);
        }
        s = bench_check_stop(err, err_size);
        if (s == CUZK_OK && n == o->snarkjs_runs) {
            row->snarkjs_s = bench_median(t, n);
            row->snarkjs_cpu = bench_median(cpu, n);
        }
    }

    /* Both proofs through the verifier, from the files. */
    if (s == CUZK_OK) {
        zkey_t k = {0};
        s = zkey_file_read(&k, f.zkey, pool, ZKEY_TRUSTED, err, err_size);
        if (s == CUZK_OK) {
            groth16_key_t key = zkey_groth16_key(&k);
            groth16_vk_t vk = groth16_key_vk(&key);
            s = bench_verify_files(&row->cuzk_verified, &vk, f.proof, f.pub, pool, err, err_size);
            if (s == CUZK_OK && row->snarkjs_s >= 0)
                s = bench_verify_files(&row->snarkjs_verified, &vk, f.sj_proof, f.sj_pub, pool, err,
                                       err_size);
        }
        zkey_free(&k);
    }
    bench_files_remove(&f);
    rmdir(dir);
    return s;
}

/* ---- kernels -------------------------------------------------------------- */

/* Median seconds of `runs` MSMs of 2^log random points and uniform scalars. */
#define BENCH_MSM(G)                                                                               \
    static double G##_bench_msm(unsigned log, unsigned runs, pool_t *pool)                         \
    {                                                                                              \
        double t[BENCH_MAX_RUNS] = {0};                                                            \
        for (unsigned i = 0; i < runs; i++) {                                                      \
            msm_stats_t stats;                                                                     \
            if (G##_msm_bench(&t[i], &stats, (size_t)1 << log, false, NULL, 7 + i, pool) !=        \
                CUZK_OK)                                                                           \
                return -1;                                                                         \
        }                                                                                          \
        return bench_median(t, runs);                                                              \
    }
BENCH_MSM(bn254_g1)
BENCH_MSM(bn254_g2)
BENCH_MSM(bls381_g1)
BENCH_MSM(bls381_g2)

/* Median seconds of `runs` forward NTTs of 2^log random elements. */
#define BENCH_NTT(C)                                                                               \
    static double C##_bench_ntt(unsigned log, unsigned runs, pool_t *pool)                         \
    {                                                                                              \
        cuzk_status_t st;                                                                          \
        C##_ntt_domain_t *d = C##_ntt_domain_new(log, 5, &st);                                     \
        C##_fr_t *a = malloc(sizeof(C##_fr_t) << log);                                             \
        double t[BENCH_MAX_RUNS] = {0}, m = -1;                                                    \
        if (d && a) {                                                                              \
            rng_t rng;                                                                             \
            rng_seed(&rng, 11);                                                                    \
            for (size_t i = 0; i < ((size_t)1 << log); i++)                                        \
                C##_fr_random(&a[i], &rng);                                                        \
            for (unsigned i = 0; i < runs; i++) {                                                  \
                double t0 = bench_now();                                                           \
                C##_ntt_forward(d, a, pool);                                                       \
                t[i] = bench_now() - t0;                                                           \
            }                                                                                      \
            m = bench_median(t, runs);                                                             \
        }                                                                                          \
        free(a);                                                                                   \
        C##_ntt_domain_free(d);                                                                    \
        return m;                                                                                  \
    }
BENCH_NTT(bn254)
BENCH_NTT(bls381)

/* Subgroup checks of n points on the pool, as the zkey reader runs them. */
typedef struct bench_sg {
    const void *points;
    bool (*check)(const void *points, size_t i);
    _Atomic size_t bad;
} bench_sg_t;

static void bench_sg_body(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    bench_sg_t *s = ctx;
    for (size_t i = begin; i < end; i++)
        if (!s->check(s->points, i))
            s->bad++;
}

/* Median seconds of `runs` subgroup checks of 2^log distinct subgroup points
 * (a walk from the generator, normalised with one inversion): one test a
 * point (G_bench_sg), or the batch check the key readers run
 * (G_bench_sg_batch, NAME_msm_subgroup_check). */
#define BENCH_SG(G)                                                                                \
    static bool G##_bench_sg_check(const void *points, size_t i)                                   \
    {                                                                                              \
        return G##_affine_is_in_subgroup_vartime(&((const G##_affine_t *)points)[i]);              \
    }                                                                                              \
    static double G##_bench_sg_any(unsigned log, unsigned runs, pool_t *pool, bool batch)          \
    {                                                                                              \
        size_t n = (size_t)1 << log;                                                               \
        G##_affine_t *p = malloc(n * sizeof *p);                                                   \
        G##_jac_t *pj = malloc(n * sizeof *pj);                                                    \
        G##_affine_t g;                                                                            \
        G##_jac_t acc, step;                                                                       \
        double t[BENCH_MAX_RUNS] = {0}, m = -1;                                                    \
        if (p && pj) {                                                                             \
            const uint64_t k[EC_SCALAR_LIMBS] = {0x9e3779b97f4a7c15ULL, 0xbf58476d1ce4e5b9ULL,     \
                                                 0x94d049bb133111ebULL, 0x0123456789abcdefULL};    \
            G##_generator(&g);                                                                     \
            G##_jac_from_affine(&step, &g);                                                        \
            G##_jac_mul_vartime(&acc, &step, k);                                                   \
            for (size_t i = 0; i < n; i++) {                                                       \
                pj[i] = acc;                                                                       \
                G##_jac_add_vartime(&acc, &acc, &step);                                            \
            }                                                                                      \
            G##_jacs_to_affine_vartime(p, pj, n);                                                  \
            for (unsigned i = 0; i < runs; i++) {                                                  \
                bench_sg_t s = {p, G##_bench_sg_check, 0};                                         \
                const void *arrays[1] = {p};                                                       \
                bool all_in = false;                                                               \
                double t0 = bench_now();                                                           \
                if (batch)                                                                         \
                    s.bad =                                                                        \
                        G##_msm_subgroup_check(&all_in, arrays, &n, 1, NULL, pool) != CUZK_OK ||   \
                        !all_in;                                                                   \
                else                                                                               \
                    pool_for(pool, n, 64, bench_sg_body, &s);                                      \
                t[i] = bench_now() - t0;                                                           \
                if (s.bad)                                                                         \
                    t[i] = -1e9; /* a member failed: a median below 0 shows it */                  \
            }                                                                                      \
            m = bench_median(t, runs);                                                             \
        }                                                                                          \
        free(p);                                                                                   \
        free(pj);                                                                                  \
        return m;                                                                                  \
    }                                                                                              \
    static double G##_bench_sg(unsigned log, unsigned runs, pool_t *pool)                          \
    {                                                                                              \
        return G##_bench_sg_any(log, runs, pool, false);                                           \
    }                                                                                              \
    static double G##_bench_sg_batch(unsigned log, unsigned runs, pool_t *pool)                    \
    {                                                                                              \
        return G##_bench_sg_any(log, runs, pool, true);                                            \
    }
BENCH_SG(bn254_g2)
BENCH_SG(bls381_g1)
BENCH_SG(bls381_g2)

typedef struct bench_kernel {
    const char *name;
    r1cs_curve_t curve;
    const char *unit; /* what the throughput counts */
    int log_delta;    /* the size is 2^(kernel_log + log_delta) */
    double (*run)(unsigned log, unsigned runs, pool_t *pool);
} bench_kernel_t;

static const bench_kernel_t bench_kernels[] = {
    {"MSM G1", R1CS_CURVE_BN254, "points/s", 0, bn254_g1_bench_msm},
    {"MSM G2", R1CS_CURVE_BN254, "points/s", 0, bn254_g2_bench_msm},
    {"NTT forward", R1CS_CURVE_BN254, "elements/s", 0, bn254_bench_ntt},
    {"subgroup each G2", R1CS_CURVE_BN254, "points/s", -4, bn254_g2_bench_sg},
    {"subgroup batch G2", R1CS_CURVE_BN254, "points/s", 0, bn254_g2_bench_sg_batch},
    {"MSM G1", R1CS_CURVE_BLS12_381, "points/s", 0, bls381_g1_bench_msm},
    {"MSM G2", R1CS_CURVE_BLS12_381, "points/s", 0, bls381_g2_bench_msm},
    {"NTT forward", R1CS_CURVE_BLS12_381, "elements/s", 0, bls381_bench_ntt},
    {"subgroup each G1", R1CS_CURVE_BLS12_381, "points/s", -4, bls381_g1_bench_sg},
    {"subgroup batch G1", R1CS_CURVE_BLS12_381, "points/s", 0, bls381_g1_bench_sg_batch},
    {"subgroup each G2", R1CS_CURVE_BLS12_381, "points/s", -4, bls381_g2_bench_sg},
    {"subgroup batch G2", R1CS_CURVE_BLS12_381, "points/s", 0, bls381_g2_bench_sg_batch},
};

static int bench_kernels_run(const bench_opts_t *o, pool_t *pool_n)
{
    cuzk_status_t st;
    pool_t *pool1 = pool_new(1, &st);
    if (!pool1) {
        fprintf(stderr, "cuzk bench snarkjs: %s\n", cuzk_strerror(st));
        return BENCH_EFAIL;
    }
    unsigned nt = pool_threads(pool_n);
    printf("\nkernels: median of %u runs, uniformly random scalars and elements\n", o->runs);
    printf("%-10s %-18s %6s %16s %16s %8s\n", "curve", "kernel", "size", "1 thread",
           nt == 1 ? "1 thread" : "N threads", "scaling");
    int rc = BENCH_OK;
    for (size_t i = 0; i < sizeof bench_kernels / sizeof bench_kernels[0]; i++) {
        const bench_kernel_t *k = &bench_kernels[i];
        bool wanted = false;
        for (unsigned c = 0; c < o->n_curves; c++)
            wanted |= o->curves[c] == k->curve;
        if (!wanted)
            continue;
        unsigned log = (unsigned)((int)o->kernel_log + k->log_delta);
        double t1 = k->run(log, o->runs, pool1), tn = k->run(log, o->runs, pool_n);
        if (t1 <= 0 || tn <= 0) {
            fprintf(stderr, "cuzk bench snarkjs: %s %s failed\n", r1cs_curve_name(k->curve),
                    k->name);
            rc = BENCH_EFAIL;
            continue;
        }
        double n = (double)((size_t)1 << log);
        printf("%-10s %-18s %4s%-2u %11.3g %-4s %11.3g %-4s %7.2fx\n", r1cs_curve_name(k->curve),
               k->name, "2^", log, n / t1, k->unit[0] == 'p' ? "pt/s" : "el/s", n / tn,
               k->unit[0] == 'p' ? "pt/s" : "el/s", t1 / tn);
        fflush(stdout);
    }
    printf("(N = %u threads; scaling = 1-thread time / N-thread time, ideal %u.00x)\n", nt, nt);
    pool_free(pool1);
    return rc;
}

/* ---- the report ------------------------------------------------------------ */

static void bench_print(const bench_row_t *rows, unsigned n, bool have_snarkjs)
{
    printf("\n%-10s %5s %11s %10s %10s %7s %9s %10s %10s %7s  %s\n", "curve", "size", "constraints",
           "cuzk", "snarkjs", "ratio", "ratio (t)", "cuzk cpu", "snarkjs cpu", "cpu",
           "verified (cuzk, snarkjs)");
    for (unsigned i = 0; i < n; i++) {
        const bench_row_t *r = &rows[i];
        char sj[32] = "-", ratio[32] = "-", ratio_t[32] = "-", sj_cpu[32] = "-", cpu[32] = "-";
        if (r->snarkjs_s >= 0) {
            double trusted = r->stage[BS_TOTAL] - r->stage[BS_KEY] + r->key_trusted_s;
            snprintf(sj, sizeof sj, "%.3f s", r->snarkjs_s);
            snprintf(ratio, sizeof ratio, "%.1fx", r->snarkjs_s / r->stage[BS_TOTAL]);
            snprintf(ratio_t, sizeof ratio_t, "%.1fx", r->snarkjs_s / trusted);
            snprintf(sj_cpu, sizeof sj_cpu, "%.3f s", r->snarkjs_cpu);
            snprintf(cpu, sizeof cpu, "%.1fx", r->snarkjs_cpu / r->stage[BS_CPU]);
        }
        const char *sj_ok = r->snarkjs_s < 0 ? "-" : r->snarkjs_verified ? "OK" : "INVALID";
        char cons[32] = "given";
        if (r->n_constraints)
            snprintf(cons, sizeof cons, "%u", r->n_constraints);
        printf("%-10s %3s%-2u %11s %8.3f s %10s %7s %9s %8.3f s %10s %7s  %s, %s\n",
               r1cs_curve_name(r->curve), "2^", r->log2n, cons, r->stage[BS_TOTAL], sj, ratio,
               ratio_t, r->stage[BS_CPU], sj_cpu, cpu, r->cuzk_verified ? "OK" : "INVALID", sj_ok);
    }
    if (have_snarkjs)
        printf("(wall-clock seconds; ratio = snarkjs / cuzk; ratio (t): cuzk's key read trusted "
               "instead, without the subgroup checks snarkjs never makes; cpu: the same ratio of "
               "CPU seconds, all threads, which a busy machine distorts less)\n");
    else
        printf("(snarkjs not run: cuzk's numbers only)\n");

    printf("\ncuzk stages, median seconds (key read = map + full validation; trusted = the "
           "same read without subgroup checks)\n");
    printf("%-10s %5s", "curve", "size");
    for (int j = 0; j < BS_STAGES; j++)
        printf(" %8s", bench_stage_names[j]);
    printf(" %8s %8s %8s\n", "trusted", "gen", "setup");
    for (unsigned i = 0; i < n; i++) {
        const bench_row_t *r = &rows[i];
        printf("%-10s %3s%-2u", r1cs_curve_name(r->curve), "2^", r->log2n);
        for (int j = 0; j < BS_STAGES; j++)
            printf(" %8.3f", r->stage[j]);
        printf(" %8.3f %8.3f %8.3f\n", r->key_trusted_s, r->gen_s, r->setup_s);
    }
}

int cli_bench_snarkjs(int argc, char **argv)
{
    bench_opts_t o;
    int rc = bench_parse(&o, argc, argv);
    if (rc >= 0)
        return rc;

    char snarkjs[BENCH_PATH];
    bool have_snarkjs = !o.no_snarkjs && bench_find_snarkjs(snarkjs, sizeof snarkjs, o.snarkjs);
    if (!o.no_snarkjs && !have_snarkjs)
        fprintf(stderr,
                "cuzk bench snarkjs: %s not found or not executable (npm install snarkjs, or "
                "--snarkjs PATH): cuzk's numbers only\n",
                o.snarkjs ? o.snarkjs : "node_modules/.bin/snarkjs");
    cuzk_status_t st;
    bench_catch_signals();
    pool_t *pool = pool_new(o.threads, &st);
    if (!pool) {
        fprintf(stderr, "cuzk bench snarkjs: cannot start the threads (%s)\n", cuzk_strerror(st));
        return BENCH_EFAIL;
    }
    if (o.zkey)
        printf("cuzk %s bench snarkjs: %s with %s, %u threads, median of %u cuzk run(s)",
               cuzk_version(), o.zkey, o.wtns, pool_threads(pool), o.runs);
    else
        printf("cuzk %s bench snarkjs: porep32-shaped circuits (328 public inputs, 90 %% bits), "
               "domain 2^k, %u threads, median of %u cuzk run(s)",
               cuzk_version(), pool_threads(pool), o.runs);
    if (have_snarkjs)
        printf(" and %u snarkjs run(s) (%s)", o.snarkjs_runs, snarkjs);
    printf("\n");
    char load[64] = "unknown\n";
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (!fgets(load, sizeof load, la))
            strcpy(load, "unknown\n");
        fclose(la);
    }
    printf("%ld processors online; arithmetic %s; load average at the start: %s",
           sysconf(_SC_NPROCESSORS_ONLN), cpu_arith_path(), load);
    if (!o.zkey)
        fprintf(stderr, "cuzk bench snarkjs: INSECURE development keys, for benchmarks only\n");

    bench_row_t rows[2 * BENCH_MAX_SIZES];
    unsigned n = 0;
    char err[IO_ERR_MAX] = "";
    bool all_valid = true;
    if (o.zkey) /* one row: the given key */
        o.n_curves = o.n_sizes = 1;
    for (unsigned c = 0; c < o.n_curves; c++) {
        for (unsigned i = 0; i < o.n_sizes; i++) {
            bench_row_t *r = &rows[n];
            memset(r, 0, sizeof *r);
            r->curve = o.curves[c];
            r->log2n = o.sizes[i];
            st = bench_one(r, &o, have_snarkjs ? snarkjs : NULL, pool, err, sizeof err);
            if (st != CUZK_OK) {
                if (o.zkey)
                    fprintf(stderr, "cuzk bench snarkjs: %s\n", err);
                else
                    fprintf(stderr, "cuzk bench snarkjs: %s 2^%u: %s\n", r1cs_curve_name(r->curve),
                            r->log2n, err);
                pool_free(pool);
                bench_reraise();
                return BENCH_EFAIL;
            }
            all_valid &= r->cuzk_verified && (r->snarkjs_s < 0 || r->snarkjs_verified);
            n++;
        }
    }
    if (o.zkey) { /* the kernels of the given key's curve */
        o.curves[0] = rows[0].curve;
        o.n_curves = 1;
    }
    bench_print(rows, n, have_snarkjs);
    fflush(stdout);
    /* The kernels make no files: a signal may end them at once. */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    if (!o.no_kernels)
        rc = bench_kernels_run(&o, pool);
    pool_free(pool);
    if (!all_valid) {
        fprintf(stderr, "cuzk bench snarkjs: a proof did not verify\n");
        return BENCH_WRONG;
    }
    return rc < 0 ? BENCH_OK : rc;
}
