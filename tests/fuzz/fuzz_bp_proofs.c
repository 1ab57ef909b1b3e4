/*
 * bellperson proof files (concatenated 192-byte proofs), read by path
 * through an in-memory file: bp_proofs_read must fail cleanly or give
 * proofs that bp_proofs_write writes (unless one has an element at
 * infinity, which it refuses) as the same bytes the reader takes back.
 */
#include "fuzz_util.h"

#include "io/params_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[IO_ERR_MAX], path[96];
    fuzz_file_t f;
    fuzz_file_new(&f, data, size);
    bp_proof_t *p;
    size_t n;
    cuzk_status_t st = bp_proofs_read(&p, &n, f.path, err, sizeof err);
    fuzz_file_free(&f);
    if (st != CUZK_OK) {
        FUZZ_CHECK(p == NULL && n == 0);
        return 0;
    }
    FUZZ_CHECK(n == size / BP_PROOF_BYTES && size % BP_PROOF_BYTES == 0);
    fuzz_tmp(path, sizeof path, "proofs");
    st = bp_proofs_write(path, p, n, err, sizeof err);
    FUZZ_CHECK(st == CUZK_OK || st == CUZK_EINVAL);
    if (st == CUZK_OK) {
        size_t n1, n2;
        unsigned char *b1 = fuzz_file_bytes(path, &n1);
        bp_proof_t *q;
        FUZZ_CHECK(bp_proofs_read(&q, &n2, path, err, sizeof err) == CUZK_OK && n2 == n);
        FUZZ_CHECK(bp_proofs_write(path, q, n2, err, sizeof err) == CUZK_OK);
        unsigned char *b2 = fuzz_file_bytes(path, &n2);
        FUZZ_CHECK(fuzz_same(b1, n1, b2, n2));
        free(q);
        free(b1);
        free(b2);
        unlink(path);
    }
    free(p);
    return 0;
}
