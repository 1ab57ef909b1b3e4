/*
 * cuzk setup <circuit.r1cs> <out.zkey> [--vk verification_key.json]: an
 * INSECURE development key (groth16_dev_setup) for tests and benchmarks.
 * The toxic waste comes from getrandom (or --seed, for reproducible tests)
 * and nothing proves it was destroyed: anyone who kept it can forge proofs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "groth16/groth16.h"
#include "io/io_error.h"
#include "io/io_output.h"
#include "io/r1cs_file.h"
#include "io/snarkjs_json.h"
#include "io/zkey_file.h"
#include "pairing/bls381_pairing.h"
#include "pairing/bn254_pairing.h"
#include "util/progress.h"
#include "util/rng.h"

enum { SETUP_OK = 0, SETUP_EFAIL = 2 };

static void setup_usage(FILE *f)
{
    fprintf(f, "usage: cuzk setup [options] <circuit.r1cs> <out.zkey | out.params>\n"
               "\n"
               "Writes an INSECURE development Groth16 key for the circuit: a snarkjs .zkey,\n"
               "or bellperson parameters when the name ends in .params (BLS12-381 only):\n"
               "its toxic waste is not destroyed in any verifiable way. For tests and\n"
               "benchmarks only, never for a key anyone else relies on.\n"
               "\n"
               "options:\n"
               "  --curve C     bn128 or bls12381: refuse a circuit over another curve\n"
               "  --vk FILE     also write the verification key (snarkjs JSON; a bellperson\n"
               "                .vk with .params)\n"
               "  --seed S      draw the toxic waste from a seeded stream (tests only)\n"
               "  --quiet       no progress line on stderr (shown only on a terminal)\n"
               "  -h, --help    this text\n"
               "\n"
               "The key and --vk must be two different files; their paths are checked\n"
               "before any work and the files committed together (a regular file is\n"
               "replaced whole or not at all, a symbolic link kept and its file replaced,\n"
               "a device or FIFO written in place).\n");
}

/* The outputs (vk_path may be NULL) and the arguments that name them. */
enum { SETUP_OUTPUTS = 2 };
static const char *const setup_output_names[SETUP_OUTPUTS] = {"<out.zkey>", "--vk"};

/* Writes the key and, when vk_path is given, its verification key,
 * committed together. */
static cuzk_status_t setup_write(const char *path, const char *vk_path, const zkey_t *k, char *err,
                                 size_t err_size)
{
    snarkjs_vk_t vk = {0};
    cuzk_status_t s = vk_path ? cli_vk_with_alphabeta(&vk, k) : CUZK_OK;
    if (s != CUZK_OK)
        return io_fail(err, err_size, s, "out of memory for the verification key");
    const char *paths[SETUP_OUTPUTS] = {path, vk_path};
    io_output_t out[SETUP_OUTPUTS];
    if ((s = io_outputs_open(out, paths, SETUP_OUTPUTS, err, err_size)) == CUZK_OK) {
        s = zkey_file_write_to(&out[0], k, NULL, err, err_size);
        if (s == CUZK_OK && vk_path)
            s = snarkjs_vk_write_to(&out[1], &vk, err, err_size);
        s = io_outputs_close(out, SETUP_OUTPUTS, s, err, err_size);
    }
    snarkjs_vk_free(&vk);
    return s;
}

cuzk_status_t cli_vk_with_alphabeta(snarkjs_vk_t *vk, const zkey_t *k)
{
    groth16_key_t key = zkey_groth16_key(k);
    groth16_vk_t g = groth16_key_vk(&key);
    cuzk_status_t s = snarkjs_vk_from_groth16(vk, &g);
    if (s != CUZK_OK)
        return s;
    if (vk->curve == R1CS_CURVE_BN254)
        bn254_pairing(&vk->u.bn254.alphabeta, &vk->u.bn254.alpha1, &vk->u.bn254.beta2);
    else
        bls381_pairing(&vk->u.bls381.alphabeta, &vk->u.bls381.alpha1, &vk->u.bls381.beta2);
    vk->has_alphabeta = true;
    return CUZK_OK;
}

int cli_setup(int argc, char **argv)
{
    const char *paths[2], *vk_path = NULL;
    int n_paths = 0;
    r1cs_curve_t want = R1CS_CURVE_NONE;
    bool have_seed = false;
    uint64_t seed = 0;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            setup_usage(stdout);
            return SETUP_OK;
        }
        if (!strcmp(o, "--quiet")) {
            quiet = true;
            continue;
        }
        if (o[0] != '-' || o[1] == '\0') {
            if (n_paths == 2)
                return cli_usage_error("setup", NULL,
                                       "too many arguments: '%s' after <out.zkey | out.params>", o);
            paths[n_paths++] = o;
            continue;
        }
        if (strcmp(o, "--curve") != 0 && strcmp(o, "--vk") != 0 && strcmp(o, "--seed") != 0) {
            return cli_usage_error("setup", NULL, "unknown option '%s'", o);
        }
        if (i + 1 == argc)
            return cli_usage_error("setup", NULL, "%s needs a value", o);
        const char *v = argv[++i];
        if (!strcmp(o, "--vk")) {
            vk_path = v;
        } else if (!strcmp(o, "--curve")) {
            want = snarkjs_curve_from_name(v);
            if (want == R1CS_CURVE_NONE) {
                fprintf(stderr, "cuzk setup: unknown curve '%s' (bn128 or bls12381)\n", v);
                return SETUP_EFAIL;
            }
        } else {
            char *end;
            errno = 0;
            seed = strtoull(v, &end, 0);
            if (errno || *end || end == v || v[0] == '-') {
                fprintf(stderr, "cuzk setup: --seed wants a whole number, not '%s'\n", v);
                return SETUP_EFAIL;
            }
            have_seed = true;
        }
    }
    static const char *const names[2] = {"<circuit.r1cs>", "<out.zkey | out.params>"};
    if (n_paths != 2)
        return cli_missing("setup", NULL, names + n_paths, (size_t)(2 - n_paths));
    char err[IO_ERR_MAX] = "";
    r1cs_t r = {0};
    zkey_t k = {0};
    rng_t rng;
    rng_seed(&rng, seed);
    progress_t *progress = progress_stderr("cuzk setup", quiet);
    const char *outputs[SETUP_OUTPUTS] = {paths[1], vk_path};
    cuzk_status_t s = io_outputs_check(outputs, setup_output_names, SETUP_OUTPUTS, err, sizeof err);
    if (s == CUZK_OK) {
        s = r1cs_file_read(&r, paths[0], err, sizeof err);
        const cli_input_t input = {paths[0], "a circuit (.r1cs)", IO_KIND_BIT(IO_KIND_R1CS)};
        s = cli_inputs_misplaced(&input, 1, s, err, sizeof err);
    }
    if (s == CUZK_OK && want != R1CS_CURVE_NONE && r.curve != want)
        s = io_fail(err, sizeof err, CUZK_EINVAL, "%s is over %s, not %s", paths[0],
                    r1cs_curve_name(r.curve), r1cs_curve_name(want));
    if (s == CUZK_OK)
        fprintf(stderr, "cuzk setup: INSECURE development key: the toxic waste is not destroyed "
                        "in any verifiable way; for tests and benchmarks only\n");
    size_t out_len = strlen(paths[1]);
    bool params = out_len >= 7 && !strcmp(paths[1] + out_len - 7, ".params");
    if (s == CUZK_OK && params) {
        s = cli_setup_params(&r, paths[0], paths[1], vk_path, have_seed ? &rng : NULL, progress,
                             err, sizeof err);
    } else if (s == CUZK_OK) {
        s = groth16_dev_setup(&k, &r, have_seed ? &rng : NULL, progress);
        progress_end(progress);
        if (s == CUZK_EINVAL)
            io_fail(err, sizeof err, s,
                    "%s: no key for this circuit (no private wires, or a domain too large "
                    "for %s)",
                    paths[0], r1cs_curve_name(r.curve));
        else if (s != CUZK_OK)
            io_fail(err, sizeof err, s, "%s: the setup failed", paths[0]);
    }
    if (s == CUZK_OK && !params)
        s = setup_write(paths[1], vk_path, &k, err, sizeof err);
    progress_free(progress);
    if (s != CUZK_OK)
        fprintf(stderr, "cuzk setup: %s\n", err);
    groth16_dev_key_free(&k);
    r1cs_free(&r);
    return s == CUZK_OK ? SETUP_OK : SETUP_EFAIL;
}
