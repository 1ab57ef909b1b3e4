/*
 * .asgn assignment files: on any bytes the reader must fail cleanly or give a value that
 * the writer writes and the reader takes back, the second write the same
 * bytes as the first.
 */
#include "fuzz_util.h"

#include "io/asgn_file.h"

/* The value parsed from n bytes at data written to path; *out its bytes. */
static cuzk_status_t fuzz_pass(const unsigned char *data, size_t n, const char *path,
                               unsigned char **out, size_t *out_n)
{
    char err[IO_ERR_MAX];
    asgn_t v;
    cuzk_status_t st = asgn_file_parse(&v, data, n, "input.asgn", NULL, err, sizeof err);
    if (st != CUZK_OK)
        return st;
    FUZZ_CHECK(asgn_file_write(path, &v, err, sizeof err) == CUZK_OK);
    asgn_free(&v);
    *out = fuzz_file_bytes(path, out_n);
    unlink(path);
    return CUZK_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_round_trip(data, size, "asgn", fuzz_pass);
}
