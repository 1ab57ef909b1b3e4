/*
 * cuzk demo: the end-to-end example behind scripts/run.sh. In three
 * columns (snarkjs files on BN254 and on BLS12-381, bellperson files on
 * BLS12-381) it generates a porep32-shaped circuit (cuzk gen; for
 * bellperson also the assignment, cuzk assign), makes an INSECURE
 * development key (cuzk setup: .zkey, or .params and .vk), proves (cuzk
 * prove) and verifies (cuzk verify), every step through the files the
 * commands exchange, then checks that a tampered public input is
 * rejected. Prints a table of timings; exit 0 when everything held, 1 when
 * a proof was wrong, 2 on any other failure.
 *
 * The prove and verify steps go through the public API (include/cuzk.h)
 * as a program embedding cuzk would, and as cuzk prove and cuzk verify do.
 * The one difference from the commands: the key is read back as trusted
 * (this process has just written it), so the prove step skips the
 * subgroup check of every key point that `cuzk prove` does. The prove step
 * runs synth, h and the MSMs where --backend says (default: the first GPU
 * when there is one, as `cuzk prove` does); "prove: read" includes placing
 * the key on the device.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "groth16/groth16.h"
#include "io/asgn_file.h"
#include "io/io_error.h"
#include "io/io_output.h"
#include "io/params_file.h"
#include "io/r1cs_file.h"
#include "io/snarkjs_json.h"
#include "io/wtns_file.h"
#include "io/zkey_file.h"
#include "util/pool.h"
#include "util/rng.h"
#include "util/clock.h"

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
    "gen (circuit, witness)", "setup (INSECURE)",   "prove: read",
    "prove: synth",           "prove: h",           "prove: msm",
    "prove: finish",          "prove: self-verify", "prove: write",
    "verify (from files)"};

/* The columns: a file convention on a curve. */
enum { DEMO_COLUMNS = 3 };
static const struct {
    r1cs_curve_t curve;
    bool bellperson;
    const char *title, *prefix;
} demo_columns[DEMO_COLUMNS] = {
    {R1CS_CURVE_BN254, false, "BN254", "bn128"},
    {R1CS_CURVE_BLS12_381, false, "BLS12-381", "bls12381"},
    {R1CS_CURVE_BLS12_381, true, "bellperson", "bellperson"},
};

typedef struct demo_result {
    double seconds[DEMO_STEPS];
    uint32_t n_wires, n_public, domain_size;
    bool verified, tamper_rejected;
    char backend[400]; /* where the prover ran (cuzk_prover_backend) */
} demo_result_t;

/* The prover's stage times into their rows. */
static void demo_stage_times(demo_result_t *res, const cuzk_prove_timings_t *t)
{
    res->seconds[DEMO_SYNTH] = t->synth;
    res->seconds[DEMO_H] = t->h;
    res->seconds[DEMO_MSM] = t->msm;
    res->seconds[DEMO_FINISH] = t->finish;
    res->seconds[DEMO_SELF_VERIFY] = t->verify;
}

/* s, with cuzk_last_error() in err when it failed. */
static cuzk_status_t demo_api(cuzk_status_t s, char *err, size_t err_size)
{
    return s == CUZK_OK ? s : io_fail(err, err_size, s, "%s", cuzk_last_error());
}

/* Writes n bytes at data to path, whole or not at all. */
static cuzk_status_t demo_write(const char *path, const void *data, size_t n, char *err,
                                size_t err_size)
{
    io_output_t out;
    cuzk_status_t s = io_output_open(&out, path, err, err_size);
    if (s != CUZK_OK)
        return s;
    io_output_write(&out, data, n);
    return io_output_close(&out, CUZK_OK, err, err_size);
}

/* The first public input changed (v - 1, or 1 for 0: a value that stays
 * below r), for the check that a tampered input is rejected. */
static void demo_tamper(cuzk_scalar_t *v)
{
    bool zero = !v->limb[0] && !v->limb[1] && !v->limb[2] && !v->limb[3];
    if (zero) {
        v->limb[0] = 1;
        return;
    }
    for (int i = 0; i < 4 && v->limb[i]-- == 0; i++)
        ;
}

/* Verifies proof against pub (n inputs) under vk, then again with the
 * first input tampered. */
static cuzk_status_t demo_check(demo_result_t *res, const cuzk_vk_t *vk, const cuzk_proof_t *proof,
                                cuzk_scalar_t *pub, size_t n, char *err, size_t err_size)
{
    int valid = 0;
    cuzk_status_t s = demo_api(cuzk_verify(&valid, vk, proof, pub, n), err, err_size);
    res->verified = valid;
    if (s == CUZK_OK && n > 0) {
        demo_tamper(&pub[0]);
        s = demo_api(cuzk_verify(&valid, vk, proof, pub, n), err, err_size);
        res->tamper_rejected = !valid;
    }
    return s;
}

/* The paths of one curve's files in dir. */
typedef struct demo_paths {
    char r1cs[4096], wtns[4096], zkey[4096], vk[4096], proof[4096], pub[4096];
    char params[4096], bvk[4096], asgn[4096], bin[4096];
} demo_paths_t;

static bool demo_paths_init(demo_paths_t *p, const char *dir, const char *curve)
{
    struct {
        char *buf;
        const char *suffix;
    } f[] = {{p->r1cs, ".r1cs"},        {p->wtns, ".wtns"},
             {p->zkey, ".zkey"},        {p->vk, ".verification_key.json"},
             {p->proof, ".proof.json"}, {p->pub, ".public.json"},
             {p->params, ".params"},    {p->bvk, ".vk"},
             {p->asgn, ".asgn"},        {p->bin, ".proof.bin"}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if ((size_t)snprintf(f[i].buf, sizeof p->r1cs, "%s/%s%s", dir, curve, f[i].suffix) >=
            sizeof p->r1cs)
            return false;
    return true;
}

static void demo_paths_remove(const demo_paths_t *p)
{
    const char *f[] = {p->r1cs, p->wtns,   p->zkey, p->vk,   p->proof,
                       p->pub,  p->params, p->bvk,  p->asgn, p->bin};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        remove(f[i]);
}

static cuzk_status_t demo_gen(const demo_paths_t *p, r1cs_curve_t curve, bool bellperson,
                              const r1cs_gen_params_t *gp, uint64_t seed, pool_t *pool, char *err,
                              size_t err_size)
{
    rng_t rng;
    rng_seed(&rng, seed);
    r1cs_t r = {0};
    r1cs_witness_t w = {0};
    cuzk_status_t s = r1cs_generate(&r, &w, curve, gp, &rng);
    if (s != CUZK_OK)
        io_fail(err, err_size, s, "cannot generate %u constraints", gp->n_constraints);
    if (s == CUZK_OK)
        s = r1cs_file_write(p->r1cs, &r, err, err_size);
    if (s == CUZK_OK)
        s = wtns_file_write(p->wtns, &w, err, err_size);
    if (s == CUZK_OK && bellperson) {
        asgn_t a;
        void *mem;
        s = groth16_bp_assign(&a, &mem, &r, &w, pool);
        if (s != CUZK_OK)
            io_fail(err, err_size, s, "out of memory for the assignment");
        else
            s = asgn_file_write(p->asgn, &a, err, err_size);
        free(mem);
    }
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
        s = groth16_dev_setup(&k, &r, NULL, NULL);
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

/* Proves through the public API (include/cuzk.h) as a program embedding
 * cuzk would: the key loaded (mapped), a prover where --backend says, the
 * .wtns handed over as its bytes, the proof and public signals encoded as
 * snarkjs writes them. */
static cuzk_status_t demo_prove(const demo_paths_t *p, demo_result_t *res, engine_accel_kind_t kind,
                                char *err, size_t err_size)
{
    cuzk_key_t *key = NULL;
    cuzk_prover_t *prover = NULL;
    cuzk_scalar_t *pub = NULL;
    char *proof_json = NULL, *public_json = NULL;
    cuzk_proof_t proof;
    cuzk_prove_timings_t t = {0};
    io_map_t m = {0};
    const void *wtns = NULL;
    double t0 = clock_seconds();
    cuzk_status_t s =
        demo_api(cuzk_key_load(&key, p->zkey, CUZK_KEY_ZKEY, CUZK_KEY_TRUSTED | CUZK_KEY_MAP), err,
                 err_size);
    if (s == CUZK_OK)
        s = cli_input_map(&m, &wtns, p->wtns, err, err_size);
    if (s == CUZK_OK)
        s = cli_prover_new(&prover, key, kind, 0, 0, err, err_size);
    snprintf(res->backend, sizeof res->backend, "%s", cuzk_prover_backend(prover));
    size_t n_pub = key ? cuzk_key_public_inputs(key) : 0;
    if (s == CUZK_OK && !(pub = malloc((n_pub ? n_pub : 1) * sizeof *pub)))
        s = io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the public signals");
    res->seconds[DEMO_READ] = clock_seconds() - t0;
    if (s == CUZK_OK) {
        cuzk_prove_options_t opts = {.size = sizeof opts, .prover = prover, .timings = &t};
        s = cli_input_unmap(&m, cuzk_prove_wtns(&proof, pub, key, wtns, m.size, &opts), p->wtns,
                            err, err_size);
        wtns = NULL;
    }
    if (wtns)
        io_map_close(&m);
    demo_stage_times(res, &t);
    t0 = clock_seconds();
    if (s == CUZK_OK)
        s = demo_api(cuzk_proof_to_snarkjs_json(&proof_json, &proof), err, err_size);
    if (s == CUZK_OK)
        s = demo_api(cuzk_public_to_snarkjs_json(&public_json, cuzk_key_curve(key), pub, n_pub),
                     err, err_size);
    if (s == CUZK_OK)
        s = demo_write(p->proof, proof_json, strlen(proof_json), err, err_size);
    if (s == CUZK_OK)
        s = demo_write(p->pub, public_json, strlen(public_json), err, err_size);
    res->seconds[DEMO_WRITE] = clock_seconds() - t0;
    cuzk_free(proof_json);
    cuzk_free(public_json);
    free(pub);
    cuzk_prover_free(prover);
    cuzk_key_free(key);
    return s;
}

/* Verifies from the files (through the public API, as cuzk verify does),
 * then again with the first public signal changed. */
static cuzk_status_t demo_verify(const demo_paths_t *p, demo_result_t *res, char *err,
                                 size_t err_size)
{
    cuzk_vk_t *vk = NULL;
    cuzk_scalar_t *pub = NULL;
    size_t n_pub = 0;
    cuzk_proof_t proof;
    io_map_t m;
    const void *data;
    double t0 = clock_seconds();
    cuzk_status_t s = demo_api(cuzk_vk_load(&vk, p->vk), err, err_size);
    if (s == CUZK_OK && (s = cli_input_map(&m, &data, p->pub, err, err_size)) == CUZK_OK)
        s = cli_input_unmap(&m,
                            cuzk_public_from_snarkjs_json_named(&pub, &n_pub, cuzk_vk_curve(vk),
                                                                cuzk_vk_public_inputs(vk), data,
                                                                m.size, p->pub),
                            p->pub, err, err_size);
    if (s == CUZK_OK && (s = cli_input_map(&m, &data, p->proof, err, err_size)) == CUZK_OK)
        s = cli_input_unmap(&m, cuzk_proof_from_snarkjs_json_named(&proof, data, m.size, p->proof),
                            p->proof, err, err_size);
    if (s == CUZK_OK)
        s = demo_check(res, vk, &proof, pub, n_pub, err, err_size);
    res->seconds[DEMO_VERIFY] = clock_seconds() - t0;
    cuzk_free(pub);
    cuzk_vk_free(vk);
    return s;
}

/* ---- the bellperson column -------------------------------------------- */

static cuzk_status_t demo_bp_setup(const demo_paths_t *p, demo_result_t *res, char *err,
                                   size_t err_size)
{
    r1cs_t r = {0};
    cuzk_status_t s = r1cs_file_read(&r, p->r1cs, err, err_size);
    if (s == CUZK_OK)
        s = cli_setup_params(&r, p->r1cs, p->params, p->bvk, NULL, NULL, err, err_size);
    if (s == CUZK_OK) {
        const r1cs_shape_t *sh = r1cs_shape(&r);
        uint64_t rows = (uint64_t)sh->n_constraints + sh->n_pub_out + sh->n_pub_in + 1, m = 1;
        while (m < rows)
            m *= 2;
        res->n_wires = sh->n_wires;
        res->n_public = sh->n_pub_out + sh->n_pub_in;
        res->domain_size = (uint32_t)m;
    }
    r1cs_free(&r);
    return s;
}

/* The bellperson column's proof through the public API: the .params, the
 * .asgn's arrays handed over where they lie, the proof as 192 bytes. */
static cuzk_status_t demo_bp_prove(const demo_paths_t *p, demo_result_t *res,
                                   engine_accel_kind_t kind, char *err, size_t err_size)
{
    cuzk_key_t *key = NULL;
    cuzk_prover_t *prover = NULL;
    asgn_t a = {0};
    cuzk_proof_t proof;
    unsigned char bytes[CUZK_BELLPERSON_PROOF_BYTES];
    cuzk_prove_timings_t t = {0};
    double t0 = clock_seconds();
    cuzk_status_t s =
        demo_api(cuzk_key_load(&key, p->params, CUZK_KEY_PARAMS, CUZK_KEY_TRUSTED), err, err_size);
    if (s == CUZK_OK)
        s = asgn_file_read(&a, p->asgn, pool_default(), err, err_size);
    if (s == CUZK_OK)
        s = cli_prover_new(&prover, key, kind, 0, 0, err, err_size);
    snprintf(res->backend, sizeof res->backend, "%s", cuzk_prover_backend(prover));
    res->seconds[DEMO_READ] = clock_seconds() - t0;
    if (s == CUZK_OK) {
        cuzk_prove_options_t opts = {.size = sizeof opts, .prover = prover, .timings = &t};
        cuzk_assignment_t view = cli_assignment(&a);
        s = demo_api(cuzk_prove_assignment(&proof, NULL, key, &view, &opts), err, err_size);
    }
    demo_stage_times(res, &t);
    t0 = clock_seconds();
    if (s == CUZK_OK)
        s = demo_api(cuzk_proof_to_bellperson(bytes, &proof), err, err_size);
    if (s == CUZK_OK)
        s = demo_write(p->bin, bytes, sizeof bytes, err, err_size);
    res->seconds[DEMO_WRITE] = clock_seconds() - t0;
    cuzk_prover_free(prover);
    asgn_free(&a);
    cuzk_key_free(key);
    return s;
}

/* Verifies from the .vk, the proof file and the inputs of the assignment,
 * then again with the first input changed. */
static cuzk_status_t demo_bp_verify(const demo_paths_t *p, demo_result_t *res, char *err,
                                    size_t err_size)
{
    cuzk_vk_t *vk = NULL;
    cuzk_proof_t *proofs = NULL;
    cuzk_scalar_t *in = NULL;
    size_t n = 0;
    asgn_t a = {0};
    io_map_t m;
    const void *data;
    double t0 = clock_seconds();
    cuzk_status_t s = demo_api(cuzk_vk_load(&vk, p->bvk), err, err_size);
    if (s == CUZK_OK && (s = cli_input_map(&m, &data, p->bin, err, err_size)) == CUZK_OK)
        s = cli_input_unmap(&m, cuzk_proofs_from_bellperson(&proofs, &n, data, m.size, p->bin),
                            p->bin, err, err_size);
    if (s == CUZK_OK)
        s = asgn_file_read(&a, p->asgn, pool_default(), err, err_size);
    if (s == CUZK_OK && (a.n_inputs - 1 != cuzk_vk_public_inputs(vk) || n != 1))
        s = io_fail(err, err_size, CUZK_EINVAL, "%s does not fit %s", p->asgn, p->bvk);
    if (s == CUZK_OK) {
        if (!(in = malloc(a.n_inputs * sizeof *in))) {
            s = io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the inputs");
        } else {
            cuzk_assignment_t view = cli_assignment(&a);
            memcpy(in, view.inputs + 1, (a.n_inputs - 1) * sizeof *in);
            s = demo_check(res, vk, &proofs[0], in, a.n_inputs - 1, err, err_size);
        }
    }
    res->seconds[DEMO_VERIFY] = clock_seconds() - t0;
    free(in);
    cuzk_free(proofs);
    asgn_free(&a);
    cuzk_vk_free(vk);
    return s;
}

static void demo_usage(FILE *f)
{
    fprintf(f, "usage: cuzk demo [options]\n"
               "\n"
               "Generates a porep32-shaped circuit on BN254 and on BLS12-381, makes an\n"
               "INSECURE development key, proves, verifies, checks that a tampered public\n"
               "signal is rejected, and prints a table of timings: with snarkjs files on\n"
               "both curves and with bellperson files (.params, .asgn, 192-byte proofs).\n"
               "\n"
               "options:\n"
               "  --constraints N  circuit size (default 65000: with 328 public inputs, a\n"
               "                   2^16 domain)\n"
               "  --seed S         seed of the circuits (default 1; the keys' toxic waste\n"
               "                   and the proofs' r, s come from getrandom)\n"
               "  --dir DIR        write the files to DIR and keep them (default: a fresh\n"
               "                   temporary directory, removed afterwards)\n"
               "  --backend B      where the provers' synth, h and MSMs run: auto (the first\n"
               "                   GPU when there is one, else the CPU; the default), cpu,\n"
               "                   cuda\n"
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
    engine_accel_kind_t backend = ENGINE_ACCEL_AUTO;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            demo_usage(stdout);
            return DEMO_OK;
        }
        bool known = !strcmp(o, "--constraints") || !strcmp(o, "--seed") || !strcmp(o, "--dir") ||
                     !strcmp(o, "--backend");
        if (!known || i + 1 == argc) {
            fprintf(stderr, "cuzk demo: %s '%s' (try 'cuzk demo --help')\n",
                    known ? "a value is missing after" : "unknown argument", o);
            return DEMO_EFAIL;
        }
        const char *v = argv[++i];
        if (!strcmp(o, "--dir")) {
            dir = v;
        } else if (!strcmp(o, "--backend")) {
            if (cli_parse_backend(&backend, v) != 0) {
                fprintf(stderr, "cuzk demo: --backend wants auto, cpu or cuda, not '%s'\n", v);
                return DEMO_EFAIL;
            }
        } else if (!(!strcmp(o, "--seed") ? demo_uint(&seed, o, v, 0, UINT64_MAX)
                                          : demo_uint(&n, o, v, 2, 1u << 24))) {
            return DEMO_EFAIL;
        }
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

    demo_result_t res[DEMO_COLUMNS];
    memset(res, 0, sizeof res);
    r1cs_gen_params_t gp = r1cs_gen_porep32((uint32_t)n);
    pool_t *pool = pool_default();
    char err[IO_ERR_MAX] = "";
    cuzk_status_t s = CUZK_OK;
    printf("cuzk demo: porep32-shaped circuits of %" PRIu64 " constraints, %u public inputs, "
           "seed %" PRIu64 ", %u threads, files in %s\n",
           n, gp.n_public, seed, pool_threads(pool), dir);
    fprintf(stderr, "cuzk demo: INSECURE development keys: the toxic waste is not destroyed in "
                    "any verifiable way; for tests and benchmarks only\n");
    for (int c = 0; c < DEMO_COLUMNS && s == CUZK_OK; c++) {
        demo_paths_t p;
        bool bp = demo_columns[c].bellperson;
        if (!demo_paths_init(&p, dir, demo_columns[c].prefix)) {
            s = io_fail(err, sizeof err, CUZK_EINVAL, "%s: path too long", dir);
            break;
        }
        double t0 = clock_seconds();
        s = demo_gen(&p, demo_columns[c].curve, bp, &gp, seed, pool, err, sizeof err);
        res[c].seconds[DEMO_GEN] = clock_seconds() - t0;
        t0 = clock_seconds();
        if (s == CUZK_OK)
            s = bp ? demo_bp_setup(&p, &res[c], err, sizeof err)
                   : demo_setup(&p, &res[c], err, sizeof err);
        res[c].seconds[DEMO_SETUP] = clock_seconds() - t0;
        if (s == CUZK_OK)
            s = bp ? demo_bp_prove(&p, &res[c], backend, err, sizeof err)
                   : demo_prove(&p, &res[c], backend, err, sizeof err);
        if (s == CUZK_OK)
            s = bp ? demo_bp_verify(&p, &res[c], err, sizeof err)
                   : demo_verify(&p, &res[c], err, sizeof err);
        if (tmp[0])
            demo_paths_remove(&p);
    }
    if (tmp[0])
        rmdir(tmp);
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk demo: %s\n", err);
        return s == CUZK_EWITNESS ? DEMO_WRONG : DEMO_EFAIL;
    }

    printf("\n%-22s", "");
    for (int c = 0; c < DEMO_COLUMNS; c++)
        printf(" %12s", demo_columns[c].title);
    printf("\n%-22s", "files");
    for (int c = 0; c < DEMO_COLUMNS; c++)
        printf(" %12s", demo_columns[c].bellperson ? ".params" : ".zkey");
    printf("\n%-22s", "wires");
    for (int c = 0; c < DEMO_COLUMNS; c++)
        printf(" %12u", res[c].n_wires);
    printf("\n%-22s", "domain");
    for (int c = 0; c < DEMO_COLUMNS; c++)
        printf(" %12u", res[c].domain_size);
    printf("\n");
    double prove[DEMO_COLUMNS] = {0};
    for (int i = 0; i < DEMO_STEPS; i++) {
        printf("%-22s", demo_step_names[i]);
        for (int c = 0; c < DEMO_COLUMNS; c++) {
            printf(" %10.3f s", res[c].seconds[i]);
            if (i >= DEMO_READ && i <= DEMO_WRITE)
                prove[c] += res[c].seconds[i];
        }
        printf("\n");
    }
    printf("%-22s", "prove: total");
    for (int c = 0; c < DEMO_COLUMNS; c++)
        printf(" %10.3f s", prove[c]);
    bool ok = true;
    printf("\n%-22s", "proof");
    for (int c = 0; c < DEMO_COLUMNS; c++) {
        printf(" %12s", res[c].verified ? "OK" : "INVALID");
        ok = ok && res[c].verified && res[c].tamper_rejected;
    }
    printf("\n%-22s", "tampered public");
    for (int c = 0; c < DEMO_COLUMNS; c++)
        printf(" %12s", res[c].tamper_rejected ? "INVALID" : "ACCEPTED");
    printf("\n");
    for (int c = 0; c < DEMO_COLUMNS; c++)
        printf("%-22s %s: %s\n", c ? "" : "prover", demo_columns[c].title, res[c].backend);
    if (!ok)
        fprintf(stderr, "cuzk demo: a proof was rejected or a tampered one accepted\n");
    return ok ? DEMO_OK : DEMO_WRONG;
}
