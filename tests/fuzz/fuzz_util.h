/*
 * Helpers for the fuzz targets: an in-memory file (memfd) for readers and
 * writers that take a path, and the check that aborts on a finding.
 */
#ifndef CUZK_TESTS_FUZZ_FUZZ_UTIL_H
#define CUZK_TESTS_FUZZ_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/io_error.h"
#include "io/io_map.h"

/* A finding: says where and aborts, which libFuzzer (and replay.c's
 * caller) reports with the input. */
#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond);          \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* An anonymous in-memory file: fd, and a path that opens it again. */
typedef struct fuzz_file {
    int fd;
    char path[64];
} fuzz_file_t;

/* Creates f holding n bytes of data. */
static inline void fuzz_file_new(fuzz_file_t *f, const void *data, size_t n)
{
    f->fd = memfd_create("cuzk-fuzz", MFD_CLOEXEC);
    FUZZ_CHECK(f->fd >= 0);
    snprintf(f->path, sizeof f->path, "/proc/self/fd/%d", f->fd);
    const unsigned char *p = data;
    while (n) {
        ssize_t w = write(f->fd, p, n);
        FUZZ_CHECK(w > 0);
        p += w;
        n -= (size_t)w;
    }
}

static inline void fuzz_file_free(fuzz_file_t *f)
{
    close(f->fd);
}

/* The bytes of the file at path (the caller frees them), *n of them. */
static inline unsigned char *fuzz_file_bytes(const char *path, size_t *n)
{
    char err[IO_ERR_MAX];
    io_map_t m;
    FUZZ_CHECK(io_map_open(&m, path, err, sizeof err) == CUZK_OK);
    unsigned char *b = malloc(m.size ? m.size : 1);
    FUZZ_CHECK(b != NULL);
    if (m.size)
        memcpy(b, m.data, m.size);
    *n = m.size;
    io_map_close(&m);
    return b;
}

/* A scratch path of this process, /tmp/cuzk-fuzz-<pid>-<name>, for the
 * writers that create their file by name (the key cache renames a
 * temporary file in the same directory over it). The caller unlinks it. */
static inline void fuzz_tmp(char *out, size_t n, const char *name)
{
    snprintf(out, n, "/tmp/cuzk-fuzz-%ld-%s", (long)getpid(), name);
}

/* Whether two byte strings are the same. */
static inline int fuzz_same(const unsigned char *a, size_t na, const unsigned char *b, size_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na) == 0);
}

/* An 8-byte aligned copy of n bytes of data (libFuzzer's buffer is exactly
 * as long as the input and may start anywhere; readers that hand out
 * pointers into their input want it aligned). */
static inline unsigned char *fuzz_aligned_copy(const uint8_t *data, size_t n)
{
    unsigned char *b = malloc(n ? n : 1);
    FUZZ_CHECK(b != NULL);
    if (n)
        memcpy(b, data, n);
    return b;
}

/* One pass of a round trip: the value that the reader parses from n bytes
 * at data, written by the writer to path; *out (malloc'd, *out_n bytes)
 * the file's bytes. The reader's failure is returned (nothing written). */
typedef cuzk_status_t (*fuzz_pass_fn)(const unsigned char *data, size_t n, const char *path,
                                      unsigned char **out, size_t *out_n);

/* The round trip of a reader and its writer on size bytes at data: when
 * the reader takes them, what the writer makes must be read back and
 * written again to the same bytes. name names the scratch file. */
static inline int fuzz_round_trip(const uint8_t *data, size_t size, const char *name,
                                  fuzz_pass_fn pass)
{
    char path[96];
    fuzz_tmp(path, sizeof path, name);
    unsigned char *in = fuzz_aligned_copy(data, size), *b1, *b2;
    size_t n1, n2;
    if (pass(in, size, path, &b1, &n1) == CUZK_OK) {
        FUZZ_CHECK(pass(b1, n1, path, &b2, &n2) == CUZK_OK);
        FUZZ_CHECK(fuzz_same(b1, n1, b2, n2));
        free(b1);
        free(b2);
    }
    free(in);
    return 0;
}

#endif
