/*
 * cuzk verify <verification_key.json> <public.json> <proof.json>: snarkjs'
 * `groth16 verify`. Prints OK or INVALID (or, with --json, the result as
 * JSON); exit 0 valid, 1 invalid, 2 bad input (the reason on stderr).
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "groth16/groth16.h"
#include "io/io_error.h"
#include "io/snarkjs_json.h"
#include "util/clock.h"
#include "util/pool.h"

enum { VERIFY_OK = 0, VERIFY_INVALID = 1, VERIFY_BADINPUT = 2 };

static void verify_usage(FILE *f)
{
    fprintf(f, "usage: cuzk verify [--json] <verification_key.json> <public.json> <proof.json>\n"
               "\n"
               "Checks a snarkjs Groth16 proof (BN254 or BLS12-381). Prints OK or INVALID.\n"
               "Exit status 0 valid, 1 invalid (a forged or wrong proof, or public signals\n"
               "that do not match it), 2 unusable input (a missing, unreadable or corrupt\n"
               "file, the wrong kind of file, keys and proofs of different curves). snarkjs\n"
               "exits 1 for every failure; cuzk tells them apart so that a script can tell\n"
               "a forged or wrong proof from a missing file.\n"
               "\n"
               "options:\n"
               "  --json        print the result as JSON on stdout instead of OK or INVALID:\n"
               "                {\"status\": \"ok\" | \"invalid\" | \"error\", \"valid\": BOOL,\n"
               "                \"error\": MESSAGE (when there is one), \"curve\", \"n_public\",\n"
               "                \"seconds\"}; the exit status is the same\n"
               "  -h, --help    this text\n"
               "\n"
               "bellperson proofs: cuzk verify --vk V --inputs I --proof proof.bin\n"
               "(see cuzk verify --vk --help).\n");
}

void cli_verify_report_json(int rc, const char *err, r1cs_curve_t curve, const char *count_name,
                            size_t count, double seconds)
{
    static const char *const status[3] = {"ok", "invalid", "error"};
    json_t *o = json_object();
    json_object_set_new(o, "status", json_string(status[rc]));
    json_object_set_new(o, "valid", json_boolean(rc == VERIFY_OK));
    if (err && err[0])
        json_object_set_new(o, "error", json_string(err));
    if (curve != R1CS_CURVE_NONE) {
        json_object_set_new(o, "curve", json_string(snarkjs_curve_name(curve)));
        json_object_set_new(o, count_name, json_integer((json_int_t)count));
    }
    json_object_set_new(o, "seconds", json_real(seconds));
    if (!o || json_dumpf(o, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER) != 0)
        fprintf(stderr, "cuzk verify: cannot print the JSON result\n");
    putchar('\n');
    json_decref(o);
}

/*
 * Where snarkjs answers "invalid" rather than failing, for the public
 * signals and the proof (a bad verification key is always bad input): a
 * public signal not below r, a proof point off its curve (cuzk also
 * rejects points outside the subgroup, and infinity where the reader
 * refuses it).
 */
static bool verify_status_is_invalid(cuzk_status_t s)
{
    return s == CUZK_ENONCANONICAL || s == CUZK_ENOTONCURVE || s == CUZK_ENOTINSUBGROUP ||
           s == CUZK_EINFINITY;
}

int cli_verify(int argc, char **argv)
{
    if (cli_has_arg(argc, argv, "--vk"))
        return cli_verify_bp(argc, argv);
    const char *paths[3];
    int n_paths = 0;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            verify_usage(stdout);
            return VERIFY_OK;
        }
        if (!strcmp(argv[i], "--json")) {
            json = true;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage_error("verify", NULL, "unknown option '%s'", argv[i]);
        if (n_paths == 3)
            return cli_usage_error("verify", NULL, "too many arguments: '%s' after <proof.json>",
                                   argv[i]);
        paths[n_paths++] = argv[i];
    }
    static const char *const names[3] = {"<verification_key.json>", "<public.json>",
                                         "<proof.json>"};
    if (n_paths != 3)
        return cli_missing("verify", NULL, names + n_paths, (size_t)(3 - n_paths));

    double t0 = cuzk_seconds();
    char err[IO_ERR_MAX] = "";
    snarkjs_vk_t vk = {0};
    r1cs_witness_t pub = {0};
    snarkjs_proof_t proof = {0};
    int rc = VERIFY_BADINPUT;
    cuzk_status_t s = snarkjs_vk_read(&vk, paths[0], R1CS_CURVE_NONE, err, sizeof err);
    bool vk_read = s == CUZK_OK;
    if (s == CUZK_OK)
        s = snarkjs_public_read(&pub, paths[1], vk.curve, vk.n_public, err, sizeof err);
    if (s == CUZK_OK)
        s = snarkjs_proof_read(&proof, paths[2], R1CS_CURVE_NONE, err, sizeof err);
    const cli_input_t inputs[3] = {
        {paths[0], "a verification key (verification_key.json)", IO_KIND_BIT(IO_KIND_JSON_VK)},
        {paths[1], "public signals (public.json)", IO_KIND_BIT(IO_KIND_JSON_PUBLIC)},
        {paths[2], "a proof (proof.json)", IO_KIND_BIT(IO_KIND_JSON_PROOF)}};
    s = cli_inputs_misplaced(inputs, 3, s, err, sizeof err);
    if (s == CUZK_OK && proof.curve != vk.curve)
        s = io_fail(err, sizeof err, CUZK_EINVAL, "%s is over %s but %s over %s", paths[0],
                    r1cs_curve_name(vk.curve), paths[2], r1cs_curve_name(proof.curve));
    bool valid = false;
    if (s == CUZK_OK) {
        groth16_vk_t gvk = snarkjs_vk_groth16(&vk);
        s = groth16_verify(&valid, &gvk, &pub, &proof, cuzk_pool_default(), err, sizeof err);
    }
    if (s == CUZK_OK) {
        rc = valid ? VERIFY_OK : VERIFY_INVALID;
    } else {
        fprintf(stderr, "cuzk verify: %s\n", err);
        if (vk_read && verify_status_is_invalid(s))
            rc = VERIFY_INVALID;
    }
    if (json)
        cli_verify_report_json(rc, s == CUZK_OK ? NULL : err, vk_read ? vk.curve : R1CS_CURVE_NONE,
                               "n_public", vk_read ? vk.n_public : 0, cuzk_seconds() - t0);
    else if (rc != VERIFY_BADINPUT)
        puts(rc == VERIFY_OK ? "OK" : "INVALID");
    r1cs_witness_free(&pub);
    snarkjs_vk_free(&vk);
    return rc;
}
