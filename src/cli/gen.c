/*
 * cuzk gen: a synthetic circuit and a witness that satisfies it, written as
 * snarkjs .r1cs and .wtns files (r1cs_generate; DESIGN.md section 6 for
 * the porep32 shape). The same options and seed give the same files.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "io/io_error.h"
#include "io/io_output.h"
#include "io/r1cs_file.h"
#include "io/snarkjs_json.h"
#include "io/wtns_file.h"
#include "r1cs/r1cs.h"
#include "util/rng.h"

enum { GEN_OK = 0, GEN_EFAIL = 2 };

static void gen_usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk gen --curve bn128|bls12381 --constraints N [options] OUT.r1cs OUT.wtns\n"
            "\n"
            "Writes a random satisfiable circuit of N constraints (N + 1 wires) and its\n"
            "witness, for tests and benchmarks.\n"
            "\n"
            "options:\n"
            "  --shape porep32  DESIGN.md's porep32 proportions: 328 public inputs (at most\n"
            "                   N/2), A 2.4 / B 1.0 / C 2.2 non-zeros per row, 90 %% bits,\n"
            "                   B over a quarter of the private values; the options\n"
            "                   below given after --shape override it\n"
            "  --nnz-a X        mean non-zeros per row of A (default 2.4)\n"
            "  --nnz-b X        the same for B (default 1.0)\n"
            "  --nnz-c X        the same for C, at least 1 (default 2.2)\n"
            "  --bits X         share of private values that are 0 or 1 (default 0.9)\n"
            "  --b-share X      share of private values that B may touch (default 1)\n"
            "  --public K       public inputs, at most N/2 (default 1)\n"
            "  --seed S         seed of the generator (default: drawn from the operating\n"
            "                   system and printed, so the run can be replayed)\n"
            "  -h, --help       this text\n"
            "\n"
            "OUT.r1cs and OUT.wtns must be two different files; their paths are checked\n"
            "before any work and the files committed together (a regular file is\n"
            "replaced whole or not at all, a symbolic link kept and its file replaced,\n"
            "a device or FIFO written in place).\n");
}

/* Parses v as a number in [lo, hi]; false (with a message) otherwise. */
static bool gen_number(double *out, const char *opt, const char *v, double lo, double hi)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || *end || end == v || !(x >= lo && x <= hi)) {
        fprintf(stderr, "cuzk gen: %s wants a number from %g to %g, not '%s'\n", opt, lo, hi, v);
        return false;
    }
    *out = x;
    return true;
}

static bool gen_uint(uint64_t *out, const char *opt, const char *v, uint64_t hi)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || *end || end == v || v[0] == '-' || x > hi) {
        fprintf(stderr, "cuzk gen: %s wants a whole number from 0 to %" PRIu64 ", not '%s'\n", opt,
                hi, v);
        return false;
    }
    *out = x;
    return true;
}

int cli_gen(int argc, char **argv)
{
    r1cs_gen_params_t p = {0, 1, 2.4, 1.0, 2.2, 0.9, 1.0};
    r1cs_curve_t curve = R1CS_CURVE_NONE;
    const char *paths[2];
    int n_paths = 0;
    bool have_n = false, have_seed = false, have_public = false;
    uint64_t seed = 0, v = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            gen_usage(stdout);
            return GEN_OK;
        }
        if (o[0] != '-' || o[1] == '\0') {
            if (n_paths == 2)
                return cli_usage_error("gen", NULL, "too many arguments: '%s' after OUT.wtns", o);
            paths[n_paths++] = o;
            continue;
        }
        static const char *const valued[] = {"--curve", "--constraints", "--public", "--seed",
                                             "--shape", "--nnz-a",       "--nnz-b",  "--nnz-c",
                                             "--bits",  "--b-share"};
        bool known = false;
        for (size_t k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
            known = known || !strcmp(o, valued[k]);
        if (!known)
            return cli_usage_error("gen", NULL, "unknown option '%s'", o);
        if (i + 1 == argc)
            return cli_usage_error("gen", NULL, "%s needs a value", o);
        const char *val = argv[++i];
        bool ok = true;
        if (!strcmp(o, "--curve")) {
            curve = snarkjs_curve_from_name(val);
            ok = curve != R1CS_CURVE_NONE;
            if (!ok)
                fprintf(stderr, "cuzk gen: unknown curve '%s' (bn128 or bls12381)\n", val);
        } else if (!strcmp(o, "--constraints")) {
            ok = gen_uint(&v, o, val, UINT32_MAX - 1);
            p.n_constraints = (uint32_t)v;
            have_n = true;
        } else if (!strcmp(o, "--public")) {
            ok = gen_uint(&v, o, val, UINT32_MAX);
            p.n_public = (uint32_t)v;
            have_public = true;
        } else if (!strcmp(o, "--seed")) {
            ok = gen_uint(&seed, o, val, UINT64_MAX);
            have_seed = true;
        } else if (!strcmp(o, "--shape")) {
            ok = !strcmp(val, "porep32");
            if (ok) {
                /* The uncapped proportions; the cap to N/2 comes once N is known. */
                r1cs_gen_params_t q = r1cs_gen_porep32(UINT32_MAX - 1);
                q.n_constraints = p.n_constraints;
                p = q;
                have_public = false;
            } else {
                fprintf(stderr, "cuzk gen: unknown shape '%s' (available: porep32)\n", val);
            }
        } else if (!strcmp(o, "--nnz-a")) {
            ok = gen_number(&p.nnz_a, o, val, 0, 64);
        } else if (!strcmp(o, "--nnz-b")) {
            ok = gen_number(&p.nnz_b, o, val, 0, 64);
        } else if (!strcmp(o, "--nnz-c")) {
            ok = gen_number(&p.nnz_c, o, val, 1, 64);
        } else if (!strcmp(o, "--bits")) {
            ok = gen_number(&p.bits, o, val, 0, 1);
        } else {
            ok = gen_number(&p.b_share, o, val, 1e-9, 1);
        }
        if (!ok)
            return GEN_EFAIL;
    }
    const char *missing[4];
    size_t n_missing = 0;
    if (curve == R1CS_CURVE_NONE)
        missing[n_missing++] = "--curve";
    if (!have_n)
        missing[n_missing++] = "--constraints";
    static const char *const names[2] = {"OUT.r1cs", "OUT.wtns"};
    for (int k = n_paths; k < 2; k++)
        missing[n_missing++] = names[k];
    if (n_missing)
        return cli_missing("gen", NULL, missing, n_missing);
    if (p.n_constraints < 2) {
        fprintf(stderr, "cuzk gen: --constraints must be at least 2\n");
        return GEN_EFAIL;
    }
    /* porep32's 328 public inputs are capped to fit; an explicit --public is not. */
    if (!have_public && p.n_public > p.n_constraints / 2)
        p.n_public = p.n_constraints / 2;
    if (p.n_public > p.n_constraints / 2) {
        fprintf(stderr, "cuzk gen: --public %u is more than half of %u constraints\n", p.n_public,
                p.n_constraints);
        return GEN_EFAIL;
    }

    char err[IO_ERR_MAX] = "";
    cuzk_status_t s = io_outputs_check(paths, names, 2, err, sizeof err);
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk gen: %s\n", err);
        return GEN_EFAIL;
    }
    if (!have_seed) {
        s = random_bytes(NULL, &seed, sizeof seed);
        if (s != CUZK_OK) {
            fprintf(stderr, "cuzk gen: the operating system's generator failed (%s)\n",
                    cuzk_strerror(s));
            return GEN_EFAIL;
        }
        fprintf(stderr, "cuzk gen: --seed %" PRIu64 "\n", seed);
    }
    rng_t rng;
    rng_seed(&rng, seed);
    r1cs_t r = {0};
    r1cs_witness_t w = {0};
    s = r1cs_generate(&r, &w, curve, &p, &rng);
    if (s != CUZK_OK)
        io_fail(err, sizeof err, s, "cannot generate %u constraints", p.n_constraints);
    io_output_t out[2];
    if (s == CUZK_OK && (s = io_outputs_open(out, paths, 2, err, sizeof err)) == CUZK_OK) {
        s = r1cs_file_write_to(&out[0], &r, err, sizeof err);
        if (s == CUZK_OK)
            s = wtns_file_write_to(&out[1], &w, err, sizeof err);
        s = io_outputs_close(out, 2, s, err, sizeof err);
    }
    if (s != CUZK_OK)
        fprintf(stderr, "cuzk gen: %s\n", err);
    r1cs_witness_free(&w);
    r1cs_free(&r);
    return s == CUZK_OK ? GEN_OK : GEN_EFAIL;
}
