/*
 * cuzk verify <verification_key.json> <public.json> <proof.json>: snarkjs'
 * `groth16 verify`. Prints OK or INVALID (or, with --json, the result as
 * JSON); exit 0 valid, 1 invalid, 2 bad input (the reason on stderr).
 * The files are read and the proof checked through the public API
 * (cuzk_verify.h, cuzk_proof.h), as a program linking libcuzk would.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "io/io_error.h"
#include "io/snarkjs_json.h"
#include "util/clock.h"

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

void cli_verify_report_json(int rc, const char *err, cuzk_curve_t curve, const char *count_name,
                            size_t count, double seconds)
{
    static const char *const status[3] = {"ok", "invalid", "error"};
    json_t *o = json_object();
    json_object_set_new(o, "status", json_string(status[rc]));
    json_object_set_new(o, "valid", json_boolean(rc == VERIFY_OK));
    if (err && err[0])
        json_object_set_new(o, "error", json_string(err));
    if (curve != CUZK_CURVE_NONE) {
        r1cs_curve_t c = curve == CUZK_CURVE_BN254 ? R1CS_CURVE_BN254 : R1CS_CURVE_BLS12_381;
        json_object_set_new(o, "curve", json_string(snarkjs_curve_name(c)));
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

    double t0 = clock_seconds();
    char err[IO_ERR_MAX] = "";
    cuzk_vk_t *vk = NULL;
    cuzk_scalar_t *pub = NULL;
    size_t n_pub = 0;
    cuzk_proof_t proof = {0};
    int rc = VERIFY_BADINPUT;
    io_map_t m;
    const void *data;
    cuzk_status_t s = cli_input_map(&m, &data, paths[0], err, sizeof err);
    if (s == CUZK_OK)
        s = cli_input_unmap(
            &m, cuzk_vk_from_memory_as(&vk, data, m.size, paths[0], CUZK_CONVENTION_SNARKJS),
            paths[0], err, sizeof err);
    bool vk_read = s == CUZK_OK;
    if (s == CUZK_OK && (s = cli_input_map(&m, &data, paths[1], err, sizeof err)) == CUZK_OK)
        s = cli_input_unmap(&m,
                            cuzk_public_from_snarkjs_json_named(&pub, &n_pub, cuzk_vk_curve(vk),
                                                                cuzk_vk_public_inputs(vk), data,
                                                                m.size, paths[1]),
                            paths[1], err, sizeof err);
    if (s == CUZK_OK && (s = cli_input_map(&m, &data, paths[2], err, sizeof err)) == CUZK_OK)
        s = cli_input_unmap(&m, cuzk_proof_from_snarkjs_json_named(&proof, data, m.size, paths[2]),
                            paths[2], err, sizeof err);
    const cli_input_t inputs[3] = {
        {paths[0], "a verification key (verification_key.json)", IO_KIND_BIT(IO_KIND_JSON_VK)},
        {paths[1], "public signals (public.json)", IO_KIND_BIT(IO_KIND_JSON_PUBLIC)},
        {paths[2], "a proof (proof.json)", IO_KIND_BIT(IO_KIND_JSON_PROOF)}};
    s = cli_inputs_misplaced(inputs, 3, s, err, sizeof err);
    if (s == CUZK_OK && proof.curve != cuzk_vk_curve(vk))
        s = io_fail(err, sizeof err, CUZK_EINVAL, "%s is over %s but %s over %s", paths[0],
                    cuzk_curve_name(cuzk_vk_curve(vk)), paths[2], cuzk_curve_name(proof.curve));
    int valid = 0;
    if (s == CUZK_OK && (s = cuzk_verify(&valid, vk, &proof, pub, n_pub)) != CUZK_OK)
        snprintf(err, sizeof err, "%s", cuzk_last_error());
    if (s == CUZK_OK) {
        rc = valid ? VERIFY_OK : VERIFY_INVALID;
    } else {
        fprintf(stderr, "cuzk verify: %s\n", err);
        if (vk_read && verify_status_is_invalid(s))
            rc = VERIFY_INVALID;
    }
    if (json)
        cli_verify_report_json(rc, s == CUZK_OK ? NULL : err,
                               vk_read ? cuzk_vk_curve(vk) : CUZK_CURVE_NONE, "n_public",
                               vk_read ? cuzk_vk_public_inputs(vk) : 0, clock_seconds() - t0);
    else if (rc != VERIFY_BADINPUT)
        puts(rc == VERIFY_OK ? "OK" : "INVALID");
    cuzk_free(pub);
    cuzk_vk_free(vk);
    return rc;
}
