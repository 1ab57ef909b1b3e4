/*
 * cuzk demo: the end-to-end example behind scripts/run.sh. For BN254 and
 * BLS12-381 in turn it generates a porep32-shaped circuit (cuzk gen),
 * makes an INSECURE development key (cuzk setup), proves (cuzk prove) and
 * verifies (cuzk verify), every step through the files the commands
 * exchange, then checks that a tampered public signal is rejected. Prints
 * a table of timings; exit 0 when everything held, 1 when a proof was
 * wrong, 2 on any other failure.
 *
 * The one difference from the commands: the key is read back as
 * ZKEY_TRUSTED (this process has just written it), so the prove step skips
 * the subgroup check of every key point that `cuzk prove` does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "groth16/groth16.h"
#include "io/io_error.h"
#include "io/r1cs_file.h"
#include "io/snarkjs_json.h"
#include "io/wtns_file.h"
#include "io/zkey_file.h"
#include "util/pool.h"
#include "util/rng.h"

enum { DEMO_OK = 0, DEMO_WRONG = 1, DEMO_EFAIL = 2 };

/* The rows of the table. */
typedef enum demo_step {
    DEMO_GEN,
    DEMO_SETUP,
    DEMO_READ,
    DEMO_SYNTH,
    DEMO_H,
    DEMO_MSM,
    DEMO_FINISH,
    DEMO_SELF_VERIFY,
    DEMO_WRITE,
    DEMO_VERIFY,
    DEMO_STEPS
} demo_step_t;

static const char *const demo_step_names[DEMO_STEPS] = {
    "gen (.r1cs, .wtns)", "setup (INSECURE)",   "prove: read",   "prove: synth",
    "prove: h",           "prove: msm",         "prove: finish", "prove: self-verify",
    "prove: write",       "verify (from files)"};

typedef struct demo_result {
    double seconds[DEMO_STEPS];
    uint32_t n_wires, n_public, domain_size;
    bool verified, tamper_rejected;
} demo_result_t;

static double demo_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The paths of one curve's files in dir. */
typedef struct demo_paths {
    char r1cs[4096], wtns[4096], zkey[4096], vk[4096], proof[4096], pub[4096];
} demo_paths_t;

static bool demo_paths_init(demo_paths_t *p, const char *dir, const char *curve)
{
    struct {
        char *buf;
        const char *suffix;
    } f[] = {{p->r1cs, ".r1cs"},        {p->wtns, ".wtns"},
             {p->zkey, ".zkey"},        {p->vk, ".verification_key.json"},
             {p->proof, ".proof.json"}, {p->pub, ".public.json"}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if ((size_t)snprintf(f[i].buf, sizeof p->r1cs, "%s/%s%s", dir, curve, f[i].suffix) >=
            sizeof p->r1cs)
            return false;
    return true;
}

static void demo_paths_remove(const demo_paths_t *p)
{
    const char *f[] = {p->r1cs, p->wtns, p->zkey, p->vk, p->proof, p->pub};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        remove(f[i]);
}

static cuzk_status_t demo_gen(const demo_paths_t *p, r1cs_curve_t curve,
                              const r1cs_gen_params_t *gp, uint64_t seed, char *err,
                              size_t err_size)
{
    cuzk_rng_t rng;
    cuzk_rng_seed(&rng, seed);
    r1cs_t r = {0};
    r1cs_witness_t w = {0};
    cuzk_status_t s = r1cs_generate(&r, &w, curve, gp, &rng);
    if (s != CUZK_OK)
        io_fail(err, err_size, s, "cannot generate %u constraints", gp->n_constraints);
    if (s == CUZK_OK)
        s = r1cs_file_write(p->r1cs, &r, err, err_size);
    if (s == CUZK_OK)
        s = wtns_file_write(p->wtns, &w, err, err_size);
    r1cs_witness_free(&w);
    r1cs_free(&r);
    return s;
}

static cuzk_status_t demo_setup(const demo_paths_t *p, demo_result_t *res, char *err,
                                size_t err_size)
{
    r1cs_t r = {0};
    zkey_t k = {0};
    snarkjs_vk_t vk = {0};
    cuzk_status_t s = r1cs_file_read(&r, p->r1cs, err, err_size);
    if (s == CUZK_OK) {
        s = groth16_dev_setup(&k, &r, NULL);
        if (s != CUZK_OK)
            io_fail(err, err_size, s, "%s: the setup failed", p->r1cs);
    }
    if (s == CUZK_OK) {
        res->n_wires = k.n_vars;
        res->n_public = k.n_public;
        res->domain_size = k.domain_size;
        s = zkey_file_write(p->zkey, &k, NULL, err, err_size);
    }
    if (s == CUZK_OK) {
        s = cli_vk_with_alphabeta(&vk, &k);
        if (s != CUZK_OK)
            io_fail(err, err_size, s, "out of memory for the verification key");
    }
    if (s == CUZK_OK)
        s = snarkjs_vk_write(p->vk, &vk, err, err_size);
    snarkjs_vk_free(&vk);
    groth16_dev_key_free(&k);
    r1cs_free(&r);
    return s;
}

static cuzk_status_t demo_prove(const demo_paths_t *p, demo_result_t *res, cuzk_pool_t *pool,
                                char *err, size_t err_size)
{
    zkey_t k = {0};
    r1cs_witness_t w = {0}, pub = {0};
    snarkjs_proof_t proof;
    groth16_timings_t t = {{0}};
    double t0 = demo_now();
    cuzk_status_t s = zkey_file_read(&k, p->zkey, pool, ZKEY_TRUSTED, err, err_size);
    if (s == CUZK_OK)
        s = wtns_file_read(&w, p->wtns, err, err_size);
    res->seconds[DEMO_READ] = demo_now() - t0;
    if (s == CUZK_OK)
        s = groth16_prove(&proof, &pub, &k, &w, NULL, &t, pool, err, err_size);
    res->seconds[DEMO_SYNTH] = t.seconds[GROTH16_STAGE_SYNTH];
    res->seconds[DEMO_H] = t.seconds[GROTH16_STAGE_H];
    res->seconds[DEMO_MSM] = t.seconds[GROTH16_STAGE_MSM];
    res->seconds[DEMO_FINISH] = t.seconds[GROTH16_STAGE_FINISH];
    res->seconds[DEMO_SELF_VERIFY] = t.seconds[GROTH16_STAGE_VERIFY];
    t0 = demo_now();
    if (s == CUZK_OK)
        s = snarkjs_proof_write(p->proof, &proof, err, err_size);
    if (s == CUZK_OK)
        s = snarkjs_public_write(p->pub, &pub, err, err_size);
    res->seconds[DEMO_WRITE] = demo_now() - t0;
    r1cs_witness_free(&pub);
    r1cs_witness_free(&w);
    zkey_free(&k);
    return s;
}

/* Verifies from the files, then again with the first public signal plus one. */
static cuzk_status_t demo_verify(const demo_paths_t *p, demo_result_t *res, cuzk_pool_t *pool,
                                 char *err, size_t err_size)
{
    snarkjs_vk_t vk = {0};
    r1cs_witness_t pub = {0};
    snarkjs_proof_t proof;
    double t0 = demo_now();
    cuzk_status_t s = snarkjs_vk_read(&vk, p->vk, R1CS_CURVE_NONE, err, err_size);
    if (s == CUZK_OK)
        s = snarkjs_public_read(&pub, p->pub, vk.curve, vk.n_public, err, err_size);
    if (s == CUZK_OK)
        s = snarkjs_proof_read(&proof, p->proof, vk.curve, err, err_size);
    if (s == CUZK_OK)
        s = groth16_verify(&res->verified, &vk, &pub, &proof, pool, err, err_size);
    res->seconds[DEMO_VERIFY] = demo_now() - t0;
    if (s == CUZK_OK && pub.n > 0) {
        bool valid = true;
        if (pub.curve == R1CS_CURVE_BN254)
            bn254_fr_add(&pub.v.bn254[0], &pub.v.bn254[0], &bn254_fr_ONE);
        else
            bls381_fr_add(&pub.v.bls381[0], &pub.v.bls381[0], &bls381_fr_ONE);
        s = groth16_verify(&valid, &vk, &pub, &proof, pool, err, err_size);
        res->tamper_rejected = !valid;
    }
    r1cs_witness_free(&pub);
    snarkjs_vk_free(&vk);
    return s;
}

static void demo_usage(FILE *f)
{
    fprintf(f, "usage: cuzk demo [options]\n"
               "\n"
               "Generates a porep32-shaped circuit on BN254 and on BLS12-381, makes an\n"
               "INSECURE development key, proves, verifies, checks that a tampered public\n"
               "signal is rejected, and prints a table of timings.\n"
               "\n"
               "options:\n"
               "  --constraints N  circuit size (default 65000: with 328 public inputs, a\n"
               "                   2^16 domain)\n"
               "  --seed S         seed of the circuits (default 1; the keys' toxic waste\n"
               "                   and the proofs' r, s come from getrandom)\n"
               "  --dir DIR        write the files to DIR and keep them (default: a fresh\n"
               "                   temporary directory, removed afterwards)\n"
               "  -h, --help       this text\n");
}

static bool demo_uint(uint64_t *out, const char *opt, const char *v, uint64_t lo, uint64_t hi)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || *end || end == v || v[0] == '-' || x < lo || x > hi) {
        fprintf(stderr,
                "cuzk demo: %s wants a whole number from %" PRIu64 " to %" PRIu64 ", not '%s'\n",
                opt, lo, hi, v);
        return false;
    }
    *out = x;
    return true;
}

int cli_demo(int argc, char **argv)
{
    uint64_t n = 65000, seed = 1;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            demo_usage(stdout);
            return DEMO_OK;
        }
        bool known = !strcmp(o, "--constraints") || !strcmp(o, "--seed") || !strcmp(o, "--dir");
        if (!known || i + 1 == argc) {
            fprintf(stderr, "cuzk demo: %s '%s' (try 'cuzk demo --help')\n",
                    known ? "a value is missing after" : "unknown argument", o);
            return DEMO_EFAIL;
        }
        const char *v = argv[++i];
        if (!strcmp(o, "--dir"))
            dir = v;
        else if (!(!strcmp(o, "--seed") ? demo_uint(&seed, o, v, 0, UINT64_MAX)
                                        : demo_uint(&n, o, v, 2, 1u << 24)))
            return DEMO_EFAIL;
    }

    char tmp[4096] = "";
    if (!dir) {
        const char *base = getenv("TMPDIR");
        if ((size_t)snprintf(tmp, sizeof tmp, "%s/cuzk-demo-XXXXXX",
                             base && *base ? base : "/tmp") >= sizeof tmp ||
            !mkdtemp(tmp)) {
            fprintf(stderr, "cuzk demo: cannot make a temporary directory: %s\n", strerror(errno));
            return DEMO_EFAIL;
        }
        dir = tmp;
    }

    static const r1cs_curve_t curves[2] = {R1CS_CURVE_BN254, R1CS_CURVE_BLS12_381};
    demo_result_t res[2];
    memset(res, 0, sizeof res);
    r1cs_gen_params_t gp = r1cs_gen_porep32((uint32_t)n);
    cuzk_pool_t *pool = cuzk_pool_default();
    char err[IO_ERR_MAX] = "";
    cuzk_status_t s = CUZK_OK;
    printf("cuzk demo: porep32-shaped circuits of %" PRIu64 " constraints, %u public inputs, "
           "seed %" PRIu64 ", %u threads, files in %s\n",
           n, gp.n_public, seed, cuzk_pool_threads(pool), dir);
    fprintf(stderr, "cuzk demo: INSECURE development keys: the toxic waste is not destroyed in "
                    "any verifiable way; for tests and benchmarks only\n");
    for (int c = 0; c < 2 && s == CUZK_OK; c++) {
        demo_paths_t p;
        if (!demo_paths_init(&p, dir, snarkjs_curve_name(curves[c]))) {
            s = io_fail(err, sizeof err, CUZK_EINVAL, "%s: path too long", dir);
            break;
        }
        double t0 = demo_now();
        s = demo_gen(&p, curves[c], &gp, seed, err, sizeof err);
        res[c].seconds[DEMO_GEN] = demo_now() - t0;
        t0 = demo_now();
        if (s == CUZK_OK)
            s = demo_setup(&p, &res[c], err, sizeof err);
        res[c].seconds[DEMO_SETUP] = demo_now() - t0;
        if (s == CUZK_OK)
            s = demo_prove(&p, &res[c], pool, err, sizeof err);
        if (s == CUZK_OK)
            s = demo_verify(&p, &res[c], pool, err, sizeof err);
        if (tmp[0])
            demo_paths_remove(&p);
    }
    if (tmp[0])
        rmdir(tmp);
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk demo: %s (%s)\n", err, cuzk_strerror(s));
        return s == CUZK_EWITNESS ? DEMO_WRONG : DEMO_EFAIL;
    }

    printf("\n%-22s %12s %12s\n", "", "BN254", "BLS12-381");
    printf("%-22s %12u %12u\n", "wires", res[0].n_wires, res[1].n_wires);
    printf("%-22s %12u %12u\n", "domain", res[0].domain_size, res[1].domain_size);
    double prove[2] = {0, 0};
    for (int i = 0; i < DEMO_STEPS; i++) {
        printf("%-22s %10.3f s %10.3f s\n", demo_step_names[i], res[0].seconds[i],
               res[1].seconds[i]);
        if (i >= DEMO_READ && i <= DEMO_WRITE)
            for (int c = 0; c < 2; c++)
                prove[c] += res[c].seconds[i];
    }
    printf("%-22s %10.3f s %10.3f s\n", "prove: total", prove[0], prove[1]);
    printf("%-22s %12s %12s\n", "proof", res[0].verified ? "OK" : "INVALID",
           res[1].verified ? "OK" : "INVALID");
    printf("%-22s %12s %12s\n", "tampered public", res[0].tamper_rejected ? "INVALID" : "ACCEPTED",
           res[1].tamper_rejected ? "INVALID" : "ACCEPTED");
    bool ok =
        res[0].verified && res[1].verified && res[0].tamper_rejected && res[1].tamper_rejected;
    if (!ok)
        fprintf(stderr, "cuzk demo: a proof was rejected or a tampered one accepted\n");
    return ok ? DEMO_OK : DEMO_WRONG;
}
