/*
 * The body of the two key-cache targets (fuzz_key_cache.c, and
 * fuzz_key_cache_sum.c, which first makes the header's checksum right so
 * that mutations get past it to the counts, the table and the sections).
 *
 * key_cache_header_parse and key_cache_parse (every point checked) on any
 * bytes must fail cleanly or give a cache that key_cache_write_zkey or
 * key_cache_write_params writes and the reader takes back, the second
 * write the same bytes as the first.
 */
#ifndef CUZK_TESTS_FUZZ_FUZZ_KEY_CACHE_H
#define CUZK_TESTS_FUZZ_FUZZ_KEY_CACHE_H

#include <stdbool.h>

#include "fuzz_util.h"

#include "io/key_cache.h"

/* The cache parsed from n bytes at data written to path; *out its bytes. */
static cuzk_status_t fuzz_key_cache_pass(const unsigned char *data, size_t n, const char *path,
                                         unsigned char **out, size_t *out_n)
{
    char err[IO_ERR_MAX];
    key_cache_header_t h;
    cuzk_status_t hs = key_cache_header_parse(&h, data, n < KEY_CACHE_ALIGN ? n : KEY_CACHE_ALIGN,
                                              n, "input.cuzkkey", err, sizeof err);
    key_cache_t kc;
    cuzk_status_t st = key_cache_parse(&kc, data, n, "input.cuzkkey", NULL, KEY_CACHE_CHECK_POINTS,
                                       NULL, err, sizeof err);
    if (st != CUZK_OK)
        return st;
    FUZZ_CHECK(hs == CUZK_OK); /* a whole cache that reads has a header that does */
    st = kc.hdr.kind == KEY_CACHE_ZKEY
             ? key_cache_write_zkey(path, &kc.zkey, NULL, NULL, NULL, err, sizeof err)
             : key_cache_write_params(path, &kc.params, NULL, NULL, NULL, err, sizeof err);
    FUZZ_CHECK(st == CUZK_OK);
    key_cache_free(&kc);
    *out = fuzz_file_bytes(path, out_n);
    unlink(path);
    return CUZK_OK;
}

static void fuzz_key_cache(const uint8_t *data, size_t size, bool fix_checksum)
{
    char path[96];
    fuzz_tmp(path, sizeof path, "cuzkkey");
    unsigned char *in = fuzz_aligned_copy(data, size), *b1, *b2;
    if (fix_checksum && size >= KEY_CACHE_ALIGN) {
        uint64_t sum = key_cache_checksum(in);
        for (int i = 0; i < 8; i++)
            in[KEY_CACHE_ALIGN - 8 + i] = (unsigned char)(sum >> (8 * i));
    }
    size_t n1, n2;
    if (fuzz_key_cache_pass(in, size, path, &b1, &n1) == CUZK_OK) {
        FUZZ_CHECK(fuzz_key_cache_pass(b1, n1, path, &b2, &n2) == CUZK_OK);
        FUZZ_CHECK(fuzz_same(b1, n1, b2, n2));
        free(b1);
        free(b2);
    }
    free(in);
}

#endif
