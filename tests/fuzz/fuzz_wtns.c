/*
 * snarkjs .wtns witnesses: on any bytes the reader must fail cleanly or give a value that
 * the writer writes and the reader takes back, the second write the same
 * bytes as the first.
 */
#include "fuzz_util.h"

#include "io/wtns_file.h"

/* The value parsed from n bytes at data written to path; *out its bytes. */
static cuzk_status_t fuzz_pass(const unsigned char *data, size_t n, const char *path,
                               unsigned char **out, size_t *out_n)
{
    char err[IO_ERR_MAX];
    r1cs_witness_t v;
    cuzk_status_t st = wtns_file_parse(&v, data, n, "input.wtns", NULL, err, sizeof err);
    if (st != CUZK_OK)
        return st;
    FUZZ_CHECK(wtns_file_write(path, &v, err, sizeof err) == CUZK_OK);
    r1cs_witness_free(&v);
    *out = fuzz_file_bytes(path, out_n);
    unlink(path);
    return CUZK_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_round_trip(data, size, "wtns", fuzz_pass);
}
