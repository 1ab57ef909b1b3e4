/*
 * Helpers for the tests of file readers and writers: whole files as byte
 * buffers, a per-process scratch path, and the check that a reader's
 * message mentions what it must. Include after <cmocka.h> and test_util.h.
 */
#ifndef CUZK_TESTS_TEST_FILE_UTIL_H
#define CUZK_TESTS_TEST_FILE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/io_error.h"
#include "io/io_map.h"

/* A file's bytes, malloc'd (so 8-byte aligned). */
typedef struct {
    unsigned char *p;
    size_t n;
} buf_t;

/* The scratch file of this process: /tmp/cuzk_test_<tag>_<pid>. */
static char tmp_path[96];

static inline void set_tmp_path(const char *tag)
{
    snprintf(tmp_path, sizeof(tmp_path), "/tmp/cuzk_test_%s_%ld", tag, (long)getpid());
}

/* All of the file at path. */
static inline buf_t file_bytes(const char *path)
{
    char err[IO_ERR_MAX] = "";
    io_map_t m;
    if (io_map_open(&m, path, err, sizeof(err)) != CUZK_OK)
        fail_msg("%s", err);
    buf_t b = {malloc(m.size ? m.size : 1), m.size};
    assert_non_null(b.p);
    if (m.size)
        memcpy(b.p, m.data, m.size);
    io_map_close(&m);
    return b;
}

/* b's bytes as the file at path. */
static inline void file_put(const char *path, const buf_t *b)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b->p, 1, b->n, f), b->n);
    assert_int_equal(fclose(f), 0);
}

/* The first n bytes of b, zeros past its end (a truncated or extended
 * copy). */
static inline buf_t buf_copy(const buf_t *b, size_t n)
{
    buf_t c = {calloc(n ? n : 1, 1), n};
    assert_non_null(c.p);
    memcpy(c.p, b->p, n < b->n ? n : b->n);
    return c;
}

/* Fails unless msg starts with "<name>: " and contains every string of the
 * NULL-terminated list subs. */
static inline void assert_message(const char *msg, const char *name, const char *const *subs)
{
    size_t len = strlen(name);
    if (strncmp(msg, name, len) != 0 || strncmp(msg + len, ": ", 2) != 0)
        fail_msg("message \"%s\" does not start with \"%s: \"", msg, name);
    for (; *subs; subs++)
        if (!strstr(msg, *subs))
            fail_msg("message \"%s\" does not mention \"%s\"", msg, *subs);
}

#endif
