/*
 * cuzk verify <verification_key.json> <public.json> <proof.json>: snarkjs'
 * `groth16 verify`. Prints OK or INVALID; exit 0 valid, 1 invalid, 2 bad
 * input (the reason on stderr).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "groth16/groth16.h"
#include "io/io_error.h"
#include "io/snarkjs_json.h"
#include "util/pool.h"

enum { VERIFY_OK = 0, VERIFY_INVALID = 1, VERIFY_BADINPUT = 2 };

static void verify_usage(FILE *f)
{
    fprintf(f, "usage: cuzk verify <verification_key.json> <public.json> <proof.json>\n"
               "\n"
               "Checks a snarkjs Groth16 proof (BN254 or BLS12-381). Prints OK or INVALID;\n"
               "exit status 0 valid, 1 invalid, 2 unreadable or corrupt input.\n"
               "\n"
               "bellperson proofs: cuzk verify --vk V --inputs I --proof proof.bin\n"
               "(see cuzk verify --vk --help).\n");
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
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            verify_usage(stdout);
            return VERIFY_OK;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "cuzk verify: unknown option '%s'\n", argv[i]);
            return VERIFY_BADINPUT;
        }
        if (n_paths == 3) {
            fprintf(stderr, "cuzk verify: too many arguments\n");
            return VERIFY_BADINPUT;
        }
        paths[n_paths++] = argv[i];
    }
    if (n_paths != 3) {
        verify_usage(stderr);
        return VERIFY_BADINPUT;
    }

    char err[IO_ERR_MAX];
    snarkjs_vk_t vk = {0};
    r1cs_witness_t pub = {0};
    snarkjs_proof_t proof;
    int rc = VERIFY_BADINPUT;
    cuzk_status_t s = snarkjs_vk_read(&vk, paths[0], R1CS_CURVE_NONE, err, sizeof err);
    bool vk_read = s == CUZK_OK;
    if (s == CUZK_OK)
        s = snarkjs_public_read(&pub, paths[1], vk.curve, vk.n_public, err, sizeof err);
    if (s == CUZK_OK)
        s = snarkjs_proof_read(&proof, paths[2], vk.curve, err, sizeof err);
    bool valid = false;
    if (s == CUZK_OK)
        s = groth16_verify(&valid, &vk, &pub, &proof, cuzk_pool_default(), err, sizeof err);
    if (s == CUZK_OK) {
        rc = valid ? VERIFY_OK : VERIFY_INVALID;
    } else {
        fprintf(stderr, "cuzk verify: %s (%s)\n", err, cuzk_strerror(s));
        if (vk_read && verify_status_is_invalid(s))
            rc = VERIFY_INVALID;
    }
    if (rc != VERIFY_BADINPUT)
        puts(rc == VERIFY_OK ? "OK" : "INVALID");
    r1cs_witness_free(&pub);
    snarkjs_vk_free(&vk);
    return rc;
}
