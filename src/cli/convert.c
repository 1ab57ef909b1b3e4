/*
 * cuzk convert [--trusted] [--threads N] IN OUT: a snarkjs .zkey or a
 * bellperson .params (told apart by content) as cuzk's key cache
 * (io/key_cache.h, docs/KEYCACHE.md). The input is read by its own reader,
 * which validates every point unless --trusted; the cache is then trusted
 * for its query points, so this is where they are checked.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "io/io_error.h"
#include "io/io_file.h"
#include "io/io_output.h"
#include "io/key_cache.h"
#include "io/params_file.h"
#include "io/zkey_file.h"
#include "util/clock.h"
#include "util/pool.h"
#include "util/progress.h"

enum { CONVERT_OK = 0, CONVERT_EINVALID = 1, CONVERT_EFAIL = 2 };

static void convert_usage(FILE *f)
{
    fprintf(f, "usage: cuzk convert [--trusted] [--threads N] [--quiet] IN OUT\n"
               "\n"
               "Writes the proving key IN (a snarkjs .zkey on BN254 or BLS12-381, or bellperson\n"
               ".params, told by content) as a cuzk key cache OUT, which cuzkd and the engine\n"
               "load with one sequential read (docs/KEYCACHE.md). IN's points are validated\n"
               "here (on the curve, in the subgroup): loading the cache trusts them. OUT's\n"
               "path is checked before any work; a regular file is replaced whole, never\n"
               "left half-written (a symbolic link is kept and its file replaced), a device\n"
               "or FIFO is written in place.\n"
               "Exit status 0 written, 1 IN is not a valid key, 2 bad arguments or I/O.\n"
               "\n"
               "options:\n"
               "  --trusted     skip the subgroup check of IN's query points (a key checked\n"
               "                before)\n"
               "  --threads N   check points on N threads (default: all processors)\n"
               "  --quiet       no progress line on stderr (shown only on a terminal)\n"
               "  -h, --help    this text\n");
}

/* The exit status for a failure st with message err. */
static int convert_fail(cuzk_status_t st, const char *err)
{
    fprintf(stderr, "cuzk convert: %s\n", err);
    return st == CUZK_EIO || st == CUZK_ENOFILE || st == CUZK_ENOMEM || st == CUZK_EINVAL
               ? CONVERT_EFAIL
               : CONVERT_EINVALID;
}

int cli_convert(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    bool trusted = false;
    unsigned threads = 0;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            convert_usage(stdout);
            return CONVERT_OK;
        }
        if (!strcmp(o, "--trusted")) {
            trusted = true;
        } else if (!strcmp(o, "--quiet")) {
            quiet = true;
        } else if (!strcmp(o, "--threads")) {
            if (i + 1 >= argc || cli_parse_threads(&threads, argv[i + 1]) != 0) {
                fprintf(stderr, "cuzk convert: --threads wants a number from 1 to 4096\n");
                return CONVERT_EFAIL;
            }
            i++;
        } else if (o[0] == '-' && o[1] != '\0') {
            fprintf(stderr, "cuzk convert: unknown option '%s' (try 'cuzk convert --help')\n", o);
            return CONVERT_EFAIL;
        } else if (out) {
            return cli_usage_error("convert", NULL, "too many arguments: '%s' after OUT", o);
        } else {
            *(in ? &out : &in) = o;
        }
    }
    static const char *const names[2] = {"IN", "OUT"};
    if (!out)
        return cli_missing("convert", NULL, names + (in ? 1 : 0), in ? 1 : 2);
    char err[IO_ERR_MAX] = "";
    cuzk_status_t st = io_output_check(out, err, sizeof err);
    if (st != CUZK_OK)
        return convert_fail(st, err);
    io_kind_t kind;
    st = io_kind_of_file(&kind, in, err, sizeof err);
    if (st != CUZK_OK)
        return convert_fail(st, err);
    if (kind == IO_KIND_KEY_CACHE || kind == IO_KIND_KEY_CACHE_ZKEY ||
        kind == IO_KIND_KEY_CACHE_PARAMS) {
        fprintf(stderr, "cuzk convert: %s is already a cuzk key cache\n", in);
        return CONVERT_EFAIL;
    }
    bool zk = kind == IO_KIND_ZKEY;
    if (!zk && kind != IO_KIND_BP_PARAMS && kind != IO_KIND_UNKNOWN && kind != IO_KIND_BP_VK) {
        /* A file cuzk knows, of a kind that is not a proving key. */
        fprintf(stderr, "cuzk convert: %s is %s, not a proving key (.zkey or .params)\n", in,
                io_kind_name(kind));
        return CONVERT_EINVALID;
    }
    pool_t *own = threads ? pool_new(threads, &st) : NULL;
    if (threads && !own) {
        fprintf(stderr, "cuzk convert: cannot start %u threads (%s)\n", threads, cuzk_strerror(st));
        return CONVERT_EFAIL;
    }
    pool_t *pool = own ? own : pool_default();

    zkey_t k = {0};
    bp_params_t p = {0};
    io_map_t m = {0};
    progress_t *progress = progress_stderr("cuzk convert", quiet);
    double t0 = clock_seconds();
    st = io_map_open(&m, in, err, sizeof err);
    if (st == CUZK_OK && zk)
        st = zkey_file_parse(&k, m.data, m.size, in, pool, trusted ? ZKEY_TRUSTED : 0, progress,
                             err, sizeof err);
    else if (st == CUZK_OK)
        st = bp_params_parse(&p, m.data, m.size, in, pool, trusted ? BP_PARAMS_TRUSTED : 0,
                             progress, err, sizeof err);
    double t1 = clock_seconds();
    if (!zk && st == CUZK_EBADFILE) {
        /* bellperson files have no magic: say what else it could have been. */
        char why[IO_ERR_MAX];
        snprintf(why, sizeof why, "%s", err);
        io_fail(err, sizeof err, st,
                "%s: not a .zkey (no \"zkey\" magic), and as bellperson "
                "parameters: %s",
                in, io_error_reason(why, in));
    }
    if (st == CUZK_OK)
        st = zk ? key_cache_write_zkey(out, &k, &m, in, progress, err, sizeof err)
                : key_cache_write_params(out, &p, &m, in, progress, err, sizeof err);
    else
        st = io_map_check(&m, st, in, err, sizeof err);
    double t2 = clock_seconds();
    progress_free(progress);
    zkey_free(&k);
    bp_params_free(&p);
    io_map_close(&m);
    pool_free(own);
    if (st != CUZK_OK)
        return convert_fail(st, err);

    key_cache_header_t h;
    if ((st = key_cache_probe(&h, out, err, sizeof err)) != CUZK_OK)
        return convert_fail(st, err);
    printf("input: %s (%s, %s)\n", in, zk ? "snarkjs .zkey" : "bellperson .params",
           trusted ? "query points trusted (--trusted)" : "every point checked");
    printf("output: %s\n", out);
    printf("kind: %s\n", key_cache_kind_name(h.kind));
    printf("curve: %s\n", r1cs_curve_name(h.curve));
    if (h.kind == KEY_CACHE_ZKEY)
        printf("nVars: %" PRIu32 ", nPublic: %" PRIu32 ", domainSize: %" PRIu32
               ", coefficients: %" PRIu32 "\n",
               h.n_vars, h.n_public, h.domain_size, h.n_coeffs);
    else
        printf("ic: %" PRIu32 ", h: %" PRIu32 ", l: %" PRIu32 ", a: %" PRIu32 ", b: %" PRIu32 "\n",
               h.n_ic, h.n_h, h.n_l, h.n_a, h.n_b);
    printf("size: %" PRIu64 " bytes (%" PRIu32 " sections)\n", h.file_size, h.n_sections);
    printf("seconds: %.3f read and check, %.3f write\n", t1 - t0, t2 - t1);
    return CONVERT_OK;
}
