/*
 * The bellperson forms of the command line (FORMATS.md section 8):
 *
 *   cuzk prove --params P --assignment A [--assignment A2 ...] --out proof.bin
 *              [--inputs-out inputs.json]
 *   cuzk verify --vk V --inputs inputs.json --proof proof.bin
 *   cuzk assign <circuit.r1cs> <witness.wtns> <out.asgn> [--inputs-out inputs.json]
 *   cuzk setup <circuit.r1cs> <out.params> [--vk out.vk]   (setup.c dispatches here)
 *
 * A proof file holds one 192-byte proof per assignment, in order (a
 * multi-partition proof). The inputs file is JSON: the public inputs of one
 * proof (ONE excluded) as decimal strings, like snarkjs' public.json, or an
 * array of such arrays, one per proof.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "io/asgn_file.h"
#include "io/io_error.h"
#include "io/key_cache.h"
#include "io/io_map.h"
#include "io/io_output.h"
#include "io/params_file.h"
#include "io/r1cs_file.h"
#include "io/snarkjs_json.h"
#include "io/wtns_file.h"
#include "util/pool.h"
#include "util/progress.h"
#include "util/clock.h"

enum { BP_OK = 0, BP_INVALID = 1, BP_EFAIL = 2 };
enum { BP_MAX_PARTITIONS = 1024 };

/* ---- the inputs file ------------------------------------------------------ */

/* The inputs of a (ONE excluded) as a BLS12-381 witness vector. */
static cuzk_status_t bp_inputs_of(r1cs_witness_t *pub, const asgn_t *a)
{
    cuzk_status_t s = r1cs_witness_alloc(pub, R1CS_CURVE_BLS12_381, (uint32_t)(a->n_inputs - 1));
    if (s != CUZK_OK)
        return s;
    for (uint64_t i = 1; i < a->n_inputs; i++)
        (void)bls381_fr_from_canonical(&pub->v.bls381[i - 1], a->inputs[i]);
    return CUZK_OK;
}

/* Writes the inputs of the n assignments onto out (see the top of the file). */
static cuzk_status_t bp_inputs_write_to(io_output_t *out, const asgn_t *as, size_t n, char *err,
                                        size_t err_size)
{
    cuzk_status_t s = CUZK_OK;
    if (n > 1)
        io_output_write(out, "[\n", 2);
    for (size_t i = 0; i < n && s == CUZK_OK; i++) {
        r1cs_witness_t pub = {0};
        char *text = NULL;
        size_t len = 0;
        s = bp_inputs_of(&pub, &as[i]);
        if (s == CUZK_OK)
            s = snarkjs_public_format(&text, &len, &pub);
        if (s == CUZK_OK) {
            while (len > 0 && text[len - 1] == '\n')
                len--;
            io_output_write(out, text, len);
            const char *end = n > 1 && i + 1 < n ? ",\n" : "\n";
            io_output_write(out, end, strlen(end));
        } else {
            io_fail(err, err_size, s, "out of memory for the inputs");
        }
        free(text);
        r1cs_witness_free(&pub);
    }
    if (n > 1)
        io_output_write(out, "]\n", 2);
    return s;
}

/*
 * Reads n_proofs × n_in canonical inputs from path into *out (the caller
 * frees it with cuzk_free): a flat array when n_proofs = 1, else an array
 * of n_proofs arrays.
 */
static cuzk_status_t bp_inputs_read(cuzk_scalar_t **out, const char *path, size_t n_proofs,
                                    size_t n_in, char *err, size_t err_size)
{
    *out = NULL;
    io_map_t m;
    cuzk_status_t st = io_map_open(&m, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    json_error_t je;
    json_t *root = json_loadb(m.data ? (const char *)m.data : "", (size_t)m.size, 0, &je);
    st = io_map_check(&m, CUZK_OK, path, err, err_size);
    io_map_close(&m);
    if (st != CUZK_OK) {
        json_decref(root);
        return st;
    }
    if (!root)
        return io_fail(err, err_size, CUZK_EBADFILE, "%s: not JSON: line %d, column %d: %s", path,
                       je.line, je.column, je.text);
    cuzk_status_t s = CUZK_OK;
    bool nested =
        json_is_array(root) && json_array_size(root) > 0 && json_is_array(json_array_get(root, 0));
    if (!json_is_array(root))
        s = io_fail(err, err_size, CUZK_EBADFILE, "%s: expected a JSON array of inputs", path);
    else if (!nested && n_proofs != 1)
        s = io_fail(err, err_size, CUZK_EINVAL,
                    "%s: the inputs of one proof, but the proof file holds %zu", path, n_proofs);
    else if (nested && json_array_size(root) != n_proofs)
        s = io_fail(err, err_size, CUZK_EINVAL,
                    "%s: the inputs of %zu proofs, but the proof file holds %zu", path,
                    json_array_size(root), n_proofs);
    cuzk_scalar_t *v = s == CUZK_OK ? malloc((n_proofs * n_in + 1) * sizeof *v) : NULL;
    if (!v) {
        json_decref(root);
        return s != CUZK_OK ? s
                            : io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the inputs");
    }
    for (size_t i = 0; i < n_proofs && s == CUZK_OK; i++) {
        char *text = json_dumps(nested ? json_array_get(root, i) : root, JSON_COMPACT);
        char name[4200];
        snprintf(name, sizeof name, nested ? "%s (proof %zu)" : "%s", path, i);
        cuzk_scalar_t *pub = NULL;
        size_t n = 0;
        if (!text)
            s = io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the inputs");
        else if ((s = cuzk_public_from_snarkjs_json_named(&pub, &n, CUZK_CURVE_BLS12_381, n_in,
                                                          text, strlen(text), name)) != CUZK_OK)
            snprintf(err, err_size, "%s", cuzk_last_error());
        if (s == CUZK_OK && pub) /* NULL when n_in = 0 */
            memcpy(v + i * n_in, pub, n_in * sizeof *v);
        cuzk_free(pub);
        free(text);
    }
    json_decref(root);
    if (s != CUZK_OK) {
        free(v);
        return s;
    }
    *out = v;
    return CUZK_OK;
}

/* ---- cuzk prove --params ------------------------------------------------ */

static void bp_prove_usage(FILE *f)
{
    fprintf(f, "usage: cuzk prove --params P --assignment A [--assignment A2 ...] --out proof.bin\n"
               "                  [options]\n"
               "\n"
               "Groth16 proofs with bellperson parameters (BLS12-381 .params, or their cuzk\n"
               "key cache), one per assignment file (.asgn, docs/ASSIGNMENT.md),\n"
               "concatenated into proof.bin (192 bytes each). Every proof is verified before\n"
               "anything is written. The output paths are checked before any work and the\n"
               "files committed together: a regular file is replaced whole or not at all,\n"
               "a symbolic link kept and its file replaced, a device or FIFO written in\n"
               "place; --out and --inputs-out must be two different files.\n"
               "\n"
               "options:\n"
               "  --inputs-out FILE  also write the public inputs (JSON, for cuzk verify)\n"
               "  --trusted          skip the subgroup check of the parameters' query points\n"
               "                     (for parameters that were checked before)\n"
               "  --threads N        threads of the proofs (default: one per processor)\n"
               "  --backend B        where synth, h and the MSMs run: auto (the default: the\n"
               "                     first GPU when there is one and the proofs are large\n"
               "                     enough to win back setting it up, else the CPU), cpu,\n"
               "                     cuda\n"
               "  --json             print the result and the stage timings as JSON\n"
               "  --no-verify        skip the verification of the proofs\n"
               "  --quiet            no progress line on stderr (shown on a terminal for\n"
               "                     proofs that take more than a quarter second)\n"
               "  -h, --help         this text\n");
}

typedef struct bp_prove_args {
    const char *params, *out, *inputs_out;
    const char *asgn[BP_MAX_PARTITIONS];
    size_t n_asgn;
    unsigned threads;
    engine_accel_kind_t backend;
    bool json, no_verify, trusted, quiet;
} bp_prove_args_t;

/* Returns -1 when args are fine, else the exit status. */
static int bp_prove_parse(bp_prove_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    /* anywhere, so that "cuzk prove --params --help" is help, not a file */
    if (cli_has_arg(argc, argv, "-h") || cli_has_arg(argc, argv, "--help")) {
        bp_prove_usage(stdout);
        return BP_OK;
    }
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--json")) {
            a->json = true;
        } else if (!strcmp(o, "--no-verify")) {
            a->no_verify = true;
        } else if (!strcmp(o, "--trusted")) {
            a->trusted = true;
        } else if (!strcmp(o, "--quiet")) {
            a->quiet = true;
        } else if (!strcmp(o, "--params") || !strcmp(o, "--assignment") || !strcmp(o, "--out") ||
                   !strcmp(o, "--inputs-out") || !strcmp(o, "--threads") ||
                   !strcmp(o, "--backend")) {
            if (i + 1 == argc) {
                fprintf(stderr, "cuzk prove: %s needs a value\n", o);
                return BP_EFAIL;
            }
            const char *v = argv[++i];
            if (!strcmp(o, "--params")) {
                a->params = v;
            } else if (!strcmp(o, "--out")) {
                a->out = v;
            } else if (!strcmp(o, "--inputs-out")) {
                a->inputs_out = v;
            } else if (!strcmp(o, "--assignment")) {
                if (a->n_asgn == BP_MAX_PARTITIONS) {
                    fprintf(stderr, "cuzk prove: at most %d assignments\n", BP_MAX_PARTITIONS);
                    return BP_EFAIL;
                }
                a->asgn[a->n_asgn++] = v;
            } else if (!strcmp(o, "--backend")) {
                if (cli_parse_backend(&a->backend, v) != 0) {
                    fprintf(stderr, "cuzk prove: --backend wants auto, cpu or cuda, not '%s'\n", v);
                    return BP_EFAIL;
                }
            } else if (cli_parse_threads(&a->threads, v) != 0) {
                fprintf(stderr, "cuzk prove: --threads wants a number from 1 to 4096, not '%s'\n",
                        v);
                return BP_EFAIL;
            }
        } else {
            cli_usage_error("prove", "prove --params", "unexpected '%s' with --params", o);
            return BP_EFAIL;
        }
    }
    const char *missing[3];
    size_t n_missing = 0;
    if (!a->params)
        missing[n_missing++] = "--params";
    if (a->n_asgn == 0)
        missing[n_missing++] = "--assignment";
    if (!a->out)
        missing[n_missing++] = "--out";
    if (n_missing) {
        cli_missing("prove", "prove --params", missing, n_missing);
        return BP_EFAIL;
    }
    return -1;
}

/* The proofs and the inputs (or none: inputs_out may be NULL), as two
 * outputs and the arguments that name them. */
enum { BP_OUTPUTS = 2 };
static const char *const bp_output_names[BP_OUTPUTS] = {"--out", "--inputs-out"};

/* One proof's 192 bytes, as cuzk_proof_to_bellperson writes them. */
typedef unsigned char bp_proof_bytes_t[CUZK_BELLPERSON_PROOF_BYTES];

/* Writes the proofs (and the inputs), committed together. */
static cuzk_status_t bp_prove_write(const bp_prove_args_t *a, const bp_proof_bytes_t *proofs,
                                    const asgn_t *as, char *err, size_t err_size)
{
    const char *paths[BP_OUTPUTS] = {a->out, a->inputs_out};
    io_output_t out[BP_OUTPUTS];
    cuzk_status_t s = io_outputs_open(out, paths, BP_OUTPUTS, err, err_size);
    if (s != CUZK_OK)
        return s;
    io_output_write(&out[0], proofs, a->n_asgn * sizeof *proofs);
    if (a->inputs_out)
        s = bp_inputs_write_to(&out[1], as, a->n_asgn, err, err_size);
    return io_outputs_close(out, BP_OUTPUTS, s, err, err_size);
}

/* The bellperson key at a->params (.params, or its key cache), refusing a
 * cache of a zkey; a file of another kind named as such. */
static cuzk_status_t bp_load_key(cuzk_key_t **key, const bp_prove_args_t *a, char *err,
                                 size_t err_size)
{
    bool cache = cli_is_key_cache(a->params);
    /* A cache's query points were checked when cuzk convert wrote it. */
    cuzk_status_t s = cuzk_key_load(key, a->params, cache ? CUZK_KEY_CACHE : CUZK_KEY_PARAMS,
                                    a->trusted ? CUZK_KEY_TRUSTED : 0);
    if (s != CUZK_OK) {
        io_fail(err, err_size, s, "%s", cuzk_last_error());
        if (cache)
            return s;
        const cli_input_t in[2] = {
            {a->params, "bellperson parameters (.params or their key cache)",
             IO_KIND_BIT(IO_KIND_BP_PARAMS) | IO_KIND_BIT(IO_KIND_KEY_CACHE_PARAMS)},
            {a->asgn[0], "an assignment (.asgn)", IO_KIND_BIT(IO_KIND_ASGN)}};
        return cli_inputs_misplaced(in, 2, s, err, err_size);
    }
    if (cuzk_key_convention(*key) != CUZK_CONVENTION_BELLPERSON) {
        cuzk_key_free(*key);
        *key = NULL;
        return io_fail(err, err_size, CUZK_EINVAL,
                       "%s is a key cache of a snarkjs zkey: prove with cuzk prove KEY WITNESS "
                       "PROOF PUBLIC",
                       a->params);
    }
    return CUZK_OK;
}

/* Proves the n assignments as[] under key through prover into proofs[],
 * their stage times summed into total; a failure names its file. */
static cuzk_status_t bp_prove_all(bp_proof_bytes_t *proofs, cuzk_prove_timings_t *total,
                                  const bp_prove_args_t *a, const asgn_t *as, const cuzk_key_t *key,
                                  const cuzk_prover_t *prover, progress_t *progress, char *err,
                                  size_t err_size)
{
    cli_progress_t line = {.line = progress};
    cuzk_prove_timings_t t;
    cuzk_prove_options_t opts = {.size = sizeof opts,
                                 .flags = a->no_verify ? CUZK_PROVE_NO_VERIFY : 0,
                                 .prover = prover,
                                 .timings = &t,
                                 .progress = progress ? cli_progress_fn : NULL,
                                 .progress_ctx = &line};
    for (size_t i = 0; i < a->n_asgn; i++) {
        cuzk_status_t s;
        cuzk_proof_t pr;
        if (as[i].curve != R1CS_CURVE_BLS12_381) {
            s = io_fail(err, err_size, CUZK_EINVAL,
                        "%s: the assignment is over %s but bellperson parameters are over "
                        "BLS12-381",
                        a->asgn[i], r1cs_curve_name(as[i].curve));
            return s;
        }
        cuzk_assignment_t view = cli_assignment(&as[i]);
        cli_progress_next_proof(&line);
        s = cuzk_prove_assignment(&pr, NULL, key, &view, &opts);
        if (s == CUZK_OK)
            s = cuzk_proof_to_bellperson(proofs[i], &pr);
        if (s != CUZK_OK) {
            char why[IO_ERR_MAX];
            snprintf(why, sizeof why, "%s", cuzk_last_error());
            return io_fail(err, err_size, s, "%s: %s", a->asgn[i],
                           io_error_reason(why, a->asgn[i]));
        }
        total->synth += t.synth;
        total->h += t.h;
        total->msm += t.msm;
        total->finish += t.finish;
        total->verify += t.verify;
    }
    return CUZK_OK;
}

int cli_prove_bp(int argc, char **argv)
{
    bp_prove_args_t a;
    int rc = bp_prove_parse(&a, argc, argv);
    if (rc >= 0)
        return rc;

    double t_start = clock_seconds();
    char err[IO_ERR_MAX] = "";
    const char *outputs[BP_OUTPUTS] = {a.out, a.inputs_out};
    cuzk_status_t s = io_outputs_check(outputs, bp_output_names, BP_OUTPUTS, err, sizeof err);
    progress_t *progress = progress_stderr("cuzk prove", a.quiet);
    progress_steps(progress, cli_prove_steps(false, a.no_verify, a.n_asgn));
    progress_begin(progress, "read", 0, NULL);
    asgn_t *as = calloc(a.n_asgn, sizeof *as);
    bp_proof_bytes_t *proofs = calloc(a.n_asgn, sizeof *proofs);
    cuzk_prove_timings_t total = {0};
    double read_s = 0, write_s = 0;
    if (s == CUZK_OK && (!as || !proofs)) {
        s = CUZK_ENOMEM;
        io_fail(err, sizeof err, s, "out of memory");
    }
    cuzk_key_t *key = NULL;
    if (s == CUZK_OK)
        s = bp_load_key(&key, &a, err, sizeof err);
    /* Every input is read before the backend is chosen, so that a bad one
     * fails before anything about the device is said. */
    for (size_t i = 0; i < a.n_asgn && s == CUZK_OK; i++) {
        s = asgn_file_read(&as[i], a.asgn[i], pool_default(), err, sizeof err);
        const cli_input_t asgn_in = {a.asgn[i], "an assignment (.asgn)", IO_KIND_BIT(IO_KIND_ASGN)};
        s = cli_inputs_misplaced(&asgn_in, 1, s, err, sizeof err);
    }
    cuzk_prover_t *prover = NULL;
    if (s == CUZK_OK)
        s = cli_prover_new(&prover, key, a.backend, a.threads, (unsigned)a.n_asgn, err, sizeof err);
    read_s = clock_seconds() - t_start;
    if (prover && strcmp(cuzk_prover_backend(prover), "cpu") != 0) {
        /* read again as step 1 of the accelerator's shorter count */
        progress_steps(progress, cli_prove_steps(true, a.no_verify, a.n_asgn));
        progress_begin(progress, "read", 0, NULL);
    }
    if (s == CUZK_OK)
        s = bp_prove_all(proofs, &total, &a, as, key, prover, progress, err, sizeof err);
    if (s == CUZK_OK) {
        double t0 = clock_seconds();
        progress_begin(progress, "write", 0, NULL);
        s = bp_prove_write(&a, proofs, as, err, sizeof err);
        write_s = clock_seconds() - t0;
    }
    progress_free(progress);
    if (s != CUZK_OK)
        fprintf(stderr, "cuzk prove: %s\n", err);
    if (a.json) {
        printf("{\"status\": \"%s\", \"backend\": \"%s\", \"partitions\": %zu, \"verified\": %s",
               s == CUZK_OK ? "ok" : cuzk_strerror(s), cuzk_prover_backend(prover), a.n_asgn,
               s == CUZK_OK && !a.no_verify ? "true" : "false");
        cli_timings_json(read_s, &total, write_s, clock_seconds() - t_start);
        printf("}\n");
    }
    for (size_t i = 0; as && i < a.n_asgn; i++)
        asgn_free(&as[i]);
    free(as);
    free(proofs);
    cuzk_prover_free(prover);
    cuzk_key_free(key);
    return s == CUZK_OK ? BP_OK : s == CUZK_EWITNESS ? BP_INVALID : BP_EFAIL;
}

/* ---- cuzk verify --vk --------------------------------------------------- */

/* Reads and verifies through the public API, as cuzk verify does (verify.c). */

static void bp_verify_usage(FILE *f)
{
    fprintf(f, "usage: cuzk verify --vk V --inputs inputs.json --proof proof.bin\n"
               "\n"
               "Checks bellperson Groth16 proofs (BLS12-381): V is a .vk file or a .params\n"
               "file (its verifying key is read), proof.bin one or more 192-byte proofs,\n"
               "inputs.json their public inputs (one array, or one array per proof).\n"
               "Several proofs are checked at once by a random linear combination.\n"
               "Prints OK or INVALID. Exit status 0 valid, 1 invalid (a forged or wrong\n"
               "proof, or inputs that do not match it), 2 unusable input (a missing,\n"
               "unreadable or corrupt file, the wrong kind of file): unlike snarkjs, which\n"
               "exits 1 for every failure, so that a script can tell a forged or wrong\n"
               "proof from a missing file.\n"
               "\n"
               "options:\n"
               "  --json        print the result as JSON on stdout instead of OK or INVALID\n"
               "                (as cuzk verify --json: \"status\", \"valid\", \"error\",\n"
               "                \"curve\", \"proofs\", \"seconds\"); the exit status is the same\n"
               "  -h, --help    this text\n");
}

int cli_verify_bp(int argc, char **argv)
{
    const char *vk_path = NULL, *in_path = NULL, *proof_path = NULL;
    bool json = false;
    /* anywhere, so that "cuzk verify --vk --help" is help, not a file */
    if (cli_has_arg(argc, argv, "-h") || cli_has_arg(argc, argv, "--help")) {
        bp_verify_usage(stdout);
        return BP_OK;
    }
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--json")) {
            json = true;
            continue;
        }
        const char **dst = !strcmp(o, "--vk")       ? &vk_path
                           : !strcmp(o, "--inputs") ? &in_path
                           : !strcmp(o, "--proof")  ? &proof_path
                                                    : NULL;
        if (!dst)
            return cli_usage_error("verify", "verify --vk", "unexpected '%s' with --vk", o);
        if (i + 1 == argc)
            return cli_usage_error("verify", "verify --vk", "%s needs a value", o);
        *dst = argv[++i];
    }
    const char *missing[3];
    size_t n_missing = 0;
    if (!vk_path)
        missing[n_missing++] = "--vk";
    if (!in_path)
        missing[n_missing++] = "--inputs";
    if (!proof_path)
        missing[n_missing++] = "--proof";
    if (n_missing)
        return cli_missing("verify", "verify --vk", missing, n_missing);
    double t0 = clock_seconds();
    char err[IO_ERR_MAX] = "";
    cuzk_vk_t *vk = NULL;
    cuzk_proof_t *proofs = NULL;
    size_t n = 0;
    cuzk_scalar_t *in = NULL;
    bool proofs_bad = false;
    io_map_t m;
    const void *data;
    cuzk_status_t s = cli_input_map(&m, &data, vk_path, err, sizeof err);
    if (s == CUZK_OK)
        s = cli_input_unmap(
            &m, cuzk_vk_from_memory_as(&vk, data, m.size, vk_path, CUZK_CONVENTION_BELLPERSON),
            vk_path, err, sizeof err);
    bool vk_read = s == CUZK_OK;
    if (s == CUZK_OK && (s = cli_input_map(&m, &data, proof_path, err, sizeof err)) == CUZK_OK) {
        s = cli_input_unmap(&m, cuzk_proofs_from_bellperson(&proofs, &n, data, m.size, proof_path),
                            proof_path, err, sizeof err);
        /* A proof element off its curve or group is an invalid proof. */
        proofs_bad = s == CUZK_ENOTONCURVE || s == CUZK_ENOTINSUBGROUP || s == CUZK_EINFINITY ||
                     s == CUZK_ENONCANONICAL;
    }
    size_t n_in = (size_t)cuzk_vk_public_inputs(vk);
    if (s == CUZK_OK)
        s = bp_inputs_read(&in, in_path, n, n_in, err, sizeof err);
    const cli_input_t inputs[3] = {
        {vk_path, "a verifying key (.vk or .params)",
         IO_KIND_BIT(IO_KIND_BP_VK) | IO_KIND_BIT(IO_KIND_BP_PARAMS)},
        {in_path, "public inputs (JSON)",
         IO_KIND_BIT(IO_KIND_JSON_PUBLIC) | IO_KIND_BIT(IO_KIND_JSON_INPUTS)},
        {proof_path, "bellperson proofs", IO_KIND_BIT(IO_KIND_BP_PROOFS)}};
    cuzk_status_t read_s = s;
    s = cli_inputs_misplaced(inputs, 3, s, err, sizeof err);
    if (s != read_s)
        proofs_bad = false;
    int valid = 0;
    if (s == CUZK_OK && (s = cuzk_verify_batch(&valid, vk, proofs, n, in)) != CUZK_OK)
        snprintf(err, sizeof err, "%s", cuzk_last_error());
    /* A failed batch: name the proofs that fail on their own. */
    for (size_t i = 0; s == CUZK_OK && !valid && n > 1 && i < n; i++) {
        int one = 0;
        if (cuzk_verify(&one, vk, &proofs[i], in + i * n_in, n_in) == CUZK_OK && !one)
            fprintf(stderr, "cuzk verify: proof %zu of %zu does not verify\n", i, n);
    }
    int rc = BP_EFAIL;
    if (s == CUZK_OK) {
        rc = valid ? BP_OK : BP_INVALID;
    } else {
        fprintf(stderr, "cuzk verify: %s\n", err);
        if (proofs_bad)
            rc = BP_INVALID;
    }
    if (json)
        cli_verify_report_json(rc, s == CUZK_OK ? NULL : err,
                               vk_read ? CUZK_CURVE_BLS12_381 : CUZK_CURVE_NONE, "proofs", n,
                               clock_seconds() - t0);
    else if (rc != BP_EFAIL)
        puts(rc == BP_OK ? "OK" : "INVALID");
    free(in);
    cuzk_free(proofs);
    cuzk_vk_free(vk);
    return rc;
}

/* ---- cuzk assign ---------------------------------------------------------- */

static void assign_usage(FILE *f)
{
    fprintf(f, "usage: cuzk assign [options] <circuit.r1cs> <witness.wtns> <out.asgn>\n"
               "\n"
               "Writes the assignment a bellperson-style synthesizer would hand to the\n"
               "prover (docs/ASSIGNMENT.md): the A·w, B·w, C·w value of every constraint\n"
               "and of one extra row per input, the inputs, the aux values and the density\n"
               "bitmaps. Warns when the witness does not satisfy the circuit (the prover\n"
               "will refuse such an assignment). The output paths are checked before any\n"
               "work and the files committed together, as cuzk prove does.\n"
               "\n"
               "options:\n"
               "  --inputs-out FILE  also write the public inputs (JSON, for cuzk verify)\n"
               "  -h, --help         this text\n");
}

static const char *const assign_output_names[BP_OUTPUTS] = {"<out.asgn>", "--inputs-out"};

/* Writes a as the assignment file and, when inputs_out is given, its
 * inputs (w's public values on BN254, which bellperson files do not hold),
 * committed together. */
static cuzk_status_t assign_write(const char *path, const char *inputs_out, const asgn_t *a,
                                  const r1cs_witness_t *w, char *err, size_t err_size)
{
    const char *paths[BP_OUTPUTS] = {path, inputs_out};
    io_output_t out[BP_OUTPUTS];
    cuzk_status_t s = io_outputs_open(out, paths, BP_OUTPUTS, err, err_size);
    if (s != CUZK_OK)
        return s;
    s = asgn_file_write_to(&out[0], a, err, err_size);
    if (s == CUZK_OK && inputs_out && a->curve == R1CS_CURVE_BLS12_381) {
        s = bp_inputs_write_to(&out[1], a, 1, err, err_size);
    } else if (s == CUZK_OK && inputs_out) {
        r1cs_witness_t pub = {0};
        s = r1cs_witness_alloc(&pub, a->curve, (uint32_t)(a->n_inputs - 1));
        if (s == CUZK_OK) {
            memcpy(pub.v.bn254, w->v.bn254 + 1, (a->n_inputs - 1) * sizeof *pub.v.bn254);
            s = snarkjs_public_write_to(&out[1], &pub, err, err_size);
        } else {
            io_fail(err, err_size, s, "out of memory for the inputs");
        }
        r1cs_witness_free(&pub);
    }
    return io_outputs_close(out, BP_OUTPUTS, s, err, err_size);
}

int cli_assign(int argc, char **argv)
{
    const char *paths[3], *inputs_out = NULL;
    int n_paths = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            assign_usage(stdout);
            return BP_OK;
        } else if (!strcmp(o, "--inputs-out")) {
            if (i + 1 == argc) {
                fprintf(stderr, "cuzk assign: --inputs-out needs a value\n");
                return BP_EFAIL;
            }
            inputs_out = argv[++i];
        } else if (o[0] == '-' && o[1] != '\0') {
            return cli_usage_error("assign", NULL, "unknown option '%s'", o);
        } else if (n_paths == 3) {
            return cli_usage_error("assign", NULL, "too many arguments: '%s' after <out.asgn>", o);
        } else {
            paths[n_paths++] = o;
        }
    }
    static const char *const names[3] = {"<circuit.r1cs>", "<witness.wtns>", "<out.asgn>"};
    if (n_paths != 3)
        return cli_missing("assign", NULL, names + n_paths, (size_t)(3 - n_paths));
    char err[IO_ERR_MAX];
    r1cs_t r = {0};
    r1cs_witness_t w = {0};
    asgn_t a = {0};
    void *mem = NULL;
    pool_t *pool = pool_default();
    const char *outputs[BP_OUTPUTS] = {paths[2], inputs_out};
    cuzk_status_t s = io_outputs_check(outputs, assign_output_names, BP_OUTPUTS, err, sizeof err);
    if (s == CUZK_OK)
        s = r1cs_file_read(&r, paths[0], err, sizeof err);
    if (s == CUZK_OK)
        s = wtns_file_read(&w, paths[1], pool, err, sizeof err);
    const cli_input_t inputs[2] = {{paths[0], "a circuit (.r1cs)", IO_KIND_BIT(IO_KIND_R1CS)},
                                   {paths[1], "a witness (.wtns)", IO_KIND_BIT(IO_KIND_WTNS)}};
    s = cli_inputs_misplaced(inputs, 2, s, err, sizeof err);
    if (s == CUZK_OK && (w.curve != r.curve || w.n != r1cs_shape(&r)->n_wires))
        s = io_fail(err, sizeof err, CUZK_EINVAL,
                    "%s (%s, %u values) does not fit %s (%s, %u wires)", paths[1],
                    r1cs_curve_name(w.curve), w.n, paths[0], r1cs_curve_name(r.curve),
                    r1cs_shape(&r)->n_wires);
    uint32_t bad = 0;
    if (s == CUZK_OK && r1cs_check(pool, &r, &w, &bad) == CUZK_EWITNESS)
        fprintf(stderr,
                "cuzk assign: warning: %s does not satisfy %s (constraint %u fails); the prover "
                "will refuse this assignment\n",
                paths[1], paths[0], bad);
    if (s == CUZK_OK && (s = groth16_bp_assign(&a, &mem, &r, &w, pool)) != CUZK_OK)
        io_fail(err, sizeof err, s, "out of memory for the assignment");
    if (s == CUZK_OK)
        s = assign_write(paths[2], inputs_out, &a, &w, err, sizeof err);
    if (s != CUZK_OK)
        fprintf(stderr, "cuzk assign: %s\n", err);
    free(mem);
    r1cs_witness_free(&w);
    r1cs_free(&r);
    return s == CUZK_OK ? BP_OK : BP_EFAIL;
}

/* ---- cuzk setup <r1cs> <out.params> --------------------------------------- */

cuzk_status_t cli_setup_params(const r1cs_t *r, const char *r1cs_path, const char *out,
                               const char *vk_path, rng_t *rng, progress_t *progress, char *err,
                               size_t err_size)
{
    bp_params_t p;
    cuzk_status_t s = groth16_bp_dev_setup(&p, r, rng, progress);
    progress_end(progress);
    if (s == CUZK_EUNSUPPORTED)
        return io_fail(err, err_size, s, "%s is over %s: bellperson parameters are BLS12-381 only",
                       r1cs_path, r1cs_curve_name(r->curve));
    if (s == CUZK_EINVAL)
        return io_fail(err, err_size, s,
                       "%s: no key for this circuit (no private wires, or a domain too large)",
                       r1cs_path);
    if (s != CUZK_OK)
        return io_fail(err, err_size, s, "%s: the setup failed", r1cs_path);
    /* bellperson's generator refuses such circuits too (its L would hold
     * the identity, which the format cannot encode). */
    for (uint32_t j = 0; j < p.n_l && s == CUZK_OK; j++)
        if (bls381_g1_affine_is_infinity(&p.l[j]))
            s = io_fail(err, err_size, CUZK_EINFINITY,
                        "%s: wire %u (aux variable %u) appears in no constraint, so its L point is "
                        "infinity, which bellperson parameters cannot hold",
                        r1cs_path, p.vk.n_ic + j, j);
    const char *paths[BP_OUTPUTS] = {out, vk_path};
    io_output_t o[BP_OUTPUTS];
    if (s == CUZK_OK && (s = io_outputs_open(o, paths, BP_OUTPUTS, err, err_size)) == CUZK_OK) {
        s = bp_params_write_to(&o[0], &p, err, err_size);
        if (s == CUZK_OK && vk_path)
            s = bp_vk_write_to(&o[1], &p.vk, err, err_size);
        s = io_outputs_close(o, BP_OUTPUTS, s, err, err_size);
    }
    bp_params_free(&p);
    return s;
}
