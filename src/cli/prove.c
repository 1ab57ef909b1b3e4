/*
 * cuzk prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>: the
 * drop-in for `snarkjs groth16 prove` and rapidsnark's `prover`. Every proof
 * is verified before it is written unless --no-verify. The output paths are
 * checked before the key is read, and the two files are committed together
 * (io/io_output.h): a failed run leaves what was at both paths as it was.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/api_view.h"
#include "cli/cli.h"
#include "groth16/groth16.h"
#include "io/io_error.h"
#include "io/io_file.h"
#include "io/io_map.h"
#include "io/io_output.h"
#include "io/key_cache.h"
#include "io/r1cs_file.h"
#include "io/snarkjs_json.h"
#include "io/wtns_file.h"
#include "io/zkey_file.h"
#include "util/pool.h"
#include "util/progress.h"
#include "util/clock.h"

/* Exit statuses: the witness does not satisfy the circuit, or anything else. */
enum { PROVE_OK = 0, PROVE_EWITNESS = 1, PROVE_EFAIL = 2 };

unsigned cli_prove_steps(bool accel, bool no_verify, size_t partitions)
{
    return 2 + (unsigned)partitions * ((accel ? 1 : 3) + (no_verify ? 0 : 1));
}

typedef struct prove_args {
    const char *zkey, *wtns, *proof, *public, *r1cs;
    unsigned threads;
    engine_accel_kind_t backend;
    bool json, no_verify, trusted, quiet;
} prove_args_t;

static void prove_usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk prove [options] <circuit.zkey> <witness.wtns> <proof.json> <public.json>\n"
            "\n"
            "Makes a Groth16 proof for a snarkjs key (BN254 or BLS12-381), as `snarkjs groth16\n"
            "prove` does, verifies it, and writes proof.json and public.json. A witness that\n"
            "does not satisfy the circuit is refused (exit 1) and nothing is written. The key\n"
            "may also be its cuzk key cache (cuzk convert; its query points were checked\n"
            "when it was written).\n"
            "\n"
            "options:\n"
            "  --r1cs FILE   check the key and the witness against this circuit first:\n"
            "                name the first difference or the first failing constraint\n"
            "  --trusted     skip the subgroup check of the key's query points (for keys\n"
            "                that were checked before)\n"
            "  --threads N   threads of the proof (default: one per processor)\n"
            "  --backend B   where synth, h and the MSMs run: auto (the default: the first\n"
            "                GPU when there is one and the proof is large enough to win\n"
            "                back setting it up, else the CPU), cpu, or cuda\n"
            "  --json        print the result and the stage timings as JSON on stdout\n"
            "  --no-verify   skip the verification of the proof before writing it\n"
            "  --quiet       no progress line on stderr (shown on a terminal for proofs\n"
            "                that take more than a quarter second)\n"
            "  -h, --help    this text\n"
            "\n"
            "proof.json and public.json must be two different files in directories that\n"
            "exist (checked before any work). A regular file is replaced whole, never\n"
            "left half-written; a symbolic link is kept and its file replaced; a device,\n"
            "FIFO or /dev/stdout is written in place.\n"
            "\n"
            "With bellperson parameters: cuzk prove --params P --assignment A --out proof.bin\n"
            "(see cuzk prove --params --help).\n");
}

/* Returns -1 when args are fine, else the exit status (usage printed). */
static int prove_parse(prove_args_t *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    const char **pos[4] = {&a->zkey, &a->wtns, &a->proof, &a->public};
    int n = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            prove_usage(stdout);
            return PROVE_OK;
        } else if (!strcmp(o, "--json")) {
            a->json = true;
        } else if (!strcmp(o, "--no-verify")) {
            a->no_verify = true;
        } else if (!strcmp(o, "--trusted")) {
            a->trusted = true;
        } else if (!strcmp(o, "--quiet")) {
            a->quiet = true;
        } else if (!strcmp(o, "--r1cs") || !strcmp(o, "--threads") || !strcmp(o, "--backend")) {
            if (i + 1 == argc) {
                return cli_usage_error("prove", NULL, "%s needs a value", o);
            }
            const char *v = argv[++i];
            if (!strcmp(o, "--r1cs")) {
                a->r1cs = v;
                continue;
            }
            if (!strcmp(o, "--backend")) {
                if (cli_parse_backend(&a->backend, v) != 0) {
                    return cli_usage_error("prove", NULL,
                                           "--backend wants auto, cpu or cuda, not '%s'", v);
                }
                continue;
            }
            if (cli_parse_threads(&a->threads, v) != 0) {
                return cli_usage_error("prove", NULL,
                                       "--threads wants a number from 1 to 4096, not '%s'", v);
            }
        } else if (o[0] == '-' && o[1] != '\0') {
            return cli_usage_error("prove", NULL, "unknown option '%s'", o);
        } else if (n == 4) {
            return cli_usage_error("prove", NULL, "too many arguments: '%s' after <public.json>",
                                   o);
        } else {
            *pos[n++] = o;
        }
    }
    static const char *const names[4] = {"<circuit.zkey>", "<witness.wtns>", "<proof.json>",
                                         "<public.json>"};
    if (n != 4)
        return cli_missing("prove", NULL, names + n, (size_t)(4 - n));
    return -1;
}

bool cli_is_key_cache(const char *path)
{
    unsigned char head[KEY_CACHE_MAGIC_BYTES];
    size_t n;
    /* A file that cannot be read is no cache: the key's reader says why. */
    return io_file_head(head, sizeof head, &n, path, NULL, 0) == CUZK_OK &&
           key_cache_has_magic(head, n);
}

/* Prints a JSON string (the characters a path or a message can hold). */
static void prove_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", (unsigned char)*s);
        else
            putchar(*s);
    }
    putchar('"');
}

/* The output paths and the arguments that name them. */
enum { PROVE_OUTPUTS = 2 };
static const char *const prove_output_names[PROVE_OUTPUTS] = {"<proof.json>", "<public.json>"};

/* Writes the proof and the public signals (texts), committed together. */
static cuzk_status_t prove_write(const prove_args_t *a, const char *proof_json,
                                 const char *public_json, char *err, size_t err_size)
{
    const char *paths[PROVE_OUTPUTS] = {a->proof, a->public};
    const char *texts[PROVE_OUTPUTS] = {proof_json, public_json};
    io_output_t out[PROVE_OUTPUTS];
    cuzk_status_t s = io_outputs_open(out, paths, PROVE_OUTPUTS, err, err_size);
    if (s != CUZK_OK)
        return s;
    for (int i = 0; i < PROVE_OUTPUTS; i++)
        io_output_write(&out[i], texts[i], texts[i] ? strlen(texts[i]) : 0);
    return io_outputs_close(out, PROVE_OUTPUTS, s, err, err_size);
}

/* With --r1cs: the key against the circuit (the first difference named),
 * then the witness against the circuit, naming the first failing
 * constraint. */
static cuzk_status_t prove_check_r1cs(const prove_args_t *a, const groth16_key_t *key,
                                      const r1cs_witness_t *w, char *err, size_t err_size)
{
    r1cs_t r = {0};
    cuzk_status_t s = r1cs_file_read(&r, a->r1cs, err, err_size);
    if (s != CUZK_OK)
        return s;
    uint32_t bad = 0;
    s = groth16_key_matches_r1cs(key, &r, a->zkey, a->r1cs, err, err_size);
    pool_t *pool = NULL;
    if (s == CUZK_OK && !(pool = pool_new(a->threads, &s)))
        io_fail(err, err_size, s, "cannot start %u threads", a->threads);
    if (s != CUZK_OK) {
        r1cs_free(&r);
        return s;
    }
    if (r.curve != w->curve)
        s = io_fail(err, err_size, CUZK_EINVAL, "%s: the circuit is over %s but %s over %s",
                    a->r1cs, r1cs_curve_name(r.curve), a->wtns, r1cs_curve_name(w->curve));
    else if (r1cs_shape(&r)->n_wires != w->n)
        s = io_fail(err, err_size, CUZK_EINVAL, "%s: the circuit has %u wires but %s has %u values",
                    a->r1cs, r1cs_shape(&r)->n_wires, a->wtns, w->n);
    else if ((s = r1cs_check(pool, &r, w, &bad)) == CUZK_EWITNESS)
        io_fail(err, err_size, s, "%s does not satisfy %s: constraint %u fails", a->wtns, a->r1cs,
                bad);
    else if (s != CUZK_OK)
        io_fail(err, err_size, s, "%s: checking the witness failed", a->r1cs);
    pool_free(pool);
    r1cs_free(&r);
    return s;
}

static void prove_report_json(const prove_args_t *a, const groth16_key_t *k, const char *backend,
                              cuzk_status_t s, const char *err, const cuzk_prove_timings_t *t,
                              double read_s, double write_s, double total_s)
{
    printf("{\"status\": ");
    prove_json_string(s == CUZK_OK ? "ok" : cuzk_strerror(s));
    printf(", \"backend\": ");
    prove_json_string(backend);
    if (s != CUZK_OK) {
        printf(", \"error\": ");
        prove_json_string(err);
    }
    if (k)
        printf(", \"curve\": \"%s\", \"n_vars\": %u, \"n_public\": %u, \"domain_size\": %u",
               snarkjs_curve_name(k->curve), k->n_vars, k->n_public, k->domain_size);
    printf(", \"verified\": %s", s == CUZK_OK && !a->no_verify ? "true" : "false");
    cli_timings_json(read_s, t, write_s, total_s);
    putchar('}');
    putchar('\n');
}

int cli_parse_threads(unsigned *out, const char *v)
{
    char *end;
    errno = 0;
    unsigned long t = strtoul(v, &end, 10);
    if (errno || *end || end == v || v[0] == '-' || t == 0 || t > 4096)
        return -1;
    *out = (unsigned)t;
    return 0;
}

bool cli_has_arg(int argc, char **argv, const char *opt)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], opt))
            return true;
    return false;
}

/* The witness against the key (curve and length, naming both files), then
 * with --r1cs both against the circuit. */
static cuzk_status_t prove_check_witness(const prove_args_t *a, const groth16_key_t *k,
                                         const r1cs_witness_t *w, char *err, size_t err_size)
{
    if (w->curve != k->curve)
        return io_fail(err, err_size, CUZK_EINVAL, "%s is over %s but %s over %s", a->zkey,
                       r1cs_curve_name(k->curve), a->wtns, r1cs_curve_name(w->curve));
    if (w->n != k->n_vars)
        return io_fail(err, err_size, CUZK_EINVAL, "%s has %u values but %s has %u wires", a->wtns,
                       w->n, a->zkey, k->n_vars);
    return a->r1cs ? prove_check_r1cs(a, k, w, err, err_size) : CUZK_OK;
}

/* The key at a->zkey (a .zkey mapped, not copied: a command proves once;
 * or its key cache), refusing a cache of bellperson parameters. */
static cuzk_status_t prove_load_key(cuzk_key_t **key, const prove_args_t *a, char *err,
                                    size_t err_size)
{
    cuzk_status_t s =
        cuzk_key_load(key, a->zkey, cli_is_key_cache(a->zkey) ? CUZK_KEY_CACHE : CUZK_KEY_ZKEY,
                      CUZK_KEY_MAP | (a->trusted ? CUZK_KEY_TRUSTED : 0));
    if (s != CUZK_OK)
        return io_fail(err, err_size, s, "%s", cuzk_last_error());
    if (cuzk_key_convention(*key) != CUZK_CONVENTION_SNARKJS) {
        cuzk_key_free(*key);
        *key = NULL;
        return io_fail(err, err_size, CUZK_EINVAL,
                       "%s is a key cache of bellperson parameters: prove with --params", a->zkey);
    }
    return CUZK_OK;
}

/* The proof of w under key through prover, and its texts. */
static cuzk_status_t prove_witness(char **proof_json, char **public_json, const prove_args_t *a,
                                   const cuzk_key_t *key, const cuzk_prover_t *prover,
                                   const r1cs_witness_t *w, progress_t *progress,
                                   cuzk_prove_timings_t *t, char *err, size_t err_size)
{
    cli_progress_t line = {.line = progress};
    cuzk_prove_options_t opts = {.size = sizeof opts,
                                 .flags = a->no_verify ? CUZK_PROVE_NO_VERIFY : 0,
                                 .prover = prover,
                                 .timings = t,
                                 .progress = progress ? cli_progress_fn : NULL,
                                 .progress_ctx = &line};
    size_t n_pub = cuzk_key_public_inputs(key);
    cuzk_scalar_t *pub = malloc((n_pub ? n_pub : 1) * sizeof *pub);
    if (!pub)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the public signals");
    cuzk_proof_t proof;
    const void *v =
        w->curve == R1CS_CURVE_BN254 ? (const void *)w->v.bn254 : (const void *)w->v.bls381;
    cuzk_status_t s = cuzk_prove_witness(&proof, pub, key, cuzk_key_curve(key), v, w->n,
                                         CUZK_FORM_MONTGOMERY, &opts);
    if (s == CUZK_EWITNESS)
        io_fail(err, err_size, s,
                "%s does not satisfy the circuit of %s: the proof made from it does not verify",
                a->wtns, a->zkey);
    else if (s != CUZK_OK)
        io_fail(err, err_size, s, "%s", cuzk_last_error());
    if (s == CUZK_OK && ((s = cuzk_proof_to_snarkjs_json(proof_json, &proof)) != CUZK_OK ||
                         (s = cuzk_public_to_snarkjs_json(public_json, cuzk_key_curve(key), pub,
                                                          n_pub)) != CUZK_OK))
        io_fail(err, err_size, s, "%s", cuzk_last_error());
    free(pub);
    return s;
}

int cli_prove(int argc, char **argv)
{
    if (cli_has_arg(argc, argv, "--params"))
        return cli_prove_bp(argc, argv);
    prove_args_t a;
    int rc = prove_parse(&a, argc, argv);
    if (rc >= 0)
        return rc;

    double t_start = clock_seconds();
    char err[IO_ERR_MAX] = "";
    const char *outputs[PROVE_OUTPUTS] = {a.proof, a.public};
    cuzk_status_t s = io_outputs_check(outputs, prove_output_names, PROVE_OUTPUTS, err, sizeof err);
    progress_t *progress = progress_stderr("cuzk prove", a.quiet);
    progress_steps(progress, cli_prove_steps(false, a.no_verify, 1));
    progress_begin(progress, "read", 0, NULL);
    cuzk_key_t *key = NULL;
    r1cs_witness_t w = {0};
    char *proof_json = NULL, *public_json = NULL;
    cuzk_prove_timings_t t = {0};
    double read_s = 0, write_s = 0;

    if (s == CUZK_OK)
        s = prove_load_key(&key, &a, err, sizeof err);
    if (s == CUZK_OK)
        /* on every processor unless --threads bounds the command */
        s = wtns_file_read(&w, a.wtns, a.threads ? NULL : pool_default(), err, sizeof err);
    const cli_input_t inputs[2] = {
        {a.zkey, "a proving key (.zkey or its key cache)",
         IO_KIND_BIT(IO_KIND_ZKEY) | IO_KIND_BIT(IO_KIND_KEY_CACHE_ZKEY)},
        {a.wtns, "a witness (.wtns)", IO_KIND_BIT(IO_KIND_WTNS)}};
    s = cli_inputs_misplaced(inputs, 2, s, err, sizeof err);
    if (s == CUZK_OK)
        s = prove_check_witness(&a, api_key_groth16(key), &w, err, sizeof err);
    cuzk_prover_t *prover = NULL;
    if (s == CUZK_OK)
        s = cli_prover_new(&prover, key, a.backend, a.threads, 1, err, sizeof err);
    read_s = clock_seconds() - t_start;
    if (prover && strcmp(cuzk_prover_backend(prover), "cpu") != 0) {
        /* read again as step 1 of the accelerator's shorter count */
        progress_steps(progress, cli_prove_steps(true, a.no_verify, 1));
        progress_begin(progress, "read", 0, NULL);
    }
    if (s == CUZK_OK)
        s = prove_witness(&proof_json, &public_json, &a, key, prover, &w, progress, &t, err,
                          sizeof err);
    if (s == CUZK_OK) {
        double t0 = clock_seconds();
        progress_begin(progress, "write", 0, NULL);
        s = prove_write(&a, proof_json, public_json, err, sizeof err);
        write_s = clock_seconds() - t0;
    }
    progress_free(progress);
    if (s != CUZK_OK)
        fprintf(stderr, "cuzk prove: %s\n", err);
    if (a.json)
        prove_report_json(&a, key ? api_key_groth16(key) : NULL, cuzk_prover_backend(prover), s,
                          err, &t, read_s, write_s, clock_seconds() - t_start);

    cuzk_free(proof_json);
    cuzk_free(public_json);
    cuzk_prover_free(prover);
    r1cs_witness_free(&w);
    cuzk_key_free(key);
    return s == CUZK_OK ? PROVE_OK : s == CUZK_EWITNESS ? PROVE_EWITNESS : PROVE_EFAIL;
}
