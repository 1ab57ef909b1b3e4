/*
 * snarkjs .zkey (both curves): zkey_file_parse on any bytes must fail
 * cleanly or give a key that zkey_file_write writes and the reader takes
 * back, the second write the same bytes as the first.
 */
#include "fuzz_util.h"

#include "io/zkey_file.h"

/* The key parsed from n bytes at data written to path; *out its bytes. */
static cuzk_status_t fuzz_zkey_pass(const unsigned char *data, size_t n, const char *path,
                                    unsigned char **out, size_t *out_n)
{
    char err[IO_ERR_MAX];
    zkey_t k;
    cuzk_status_t st = zkey_file_parse(&k, data, n, "input.zkey", NULL, 0, NULL, err, sizeof err);
    if (st != CUZK_OK)
        return st;
    FUZZ_CHECK(zkey_file_write(path, &k, NULL, err, sizeof err) == CUZK_OK);
    zkey_free(&k);
    *out = fuzz_file_bytes(path, out_n);
    unlink(path);
    return CUZK_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[96];
    fuzz_tmp(path, sizeof path, "zkey");
    unsigned char *in = fuzz_aligned_copy(data, size), *b1, *b2;
    size_t n1, n2;
    if (fuzz_zkey_pass(in, size, path, &b1, &n1) == CUZK_OK) {
        FUZZ_CHECK(fuzz_zkey_pass(b1, n1, path, &b2, &n2) == CUZK_OK);
        FUZZ_CHECK(fuzz_same(b1, n1, b2, n2));
        free(b1);
        free(b2);
    }
    free(in);
    return 0;
}
