/*
 * How cuzk reports a failure below the command line: a function returns a
 * cuzk_status_t and, on failure, writes one line of text into a buffer the
 * caller provides:
 *
 *     char err[CUZK_ERR_MAX];
 *     cuzk_status_t st = groth16_prove_key(..., err, sizeof err);
 *     if (st != CUZK_OK)
 *         fprintf(stderr, "cuzk: %s (%s)\n", err, cuzk_strerror(st));
 *
 * The buffer is NUL-terminated and truncated to its size; err may be NULL
 * when err_size is 0. On success it is left untouched. The file-format
 * layer's conventions for what the line says are in io/io_error.h.
 */
#ifndef CUZK_UTIL_FAIL_H
#define CUZK_UTIL_FAIL_H

#include <stddef.h>

#include "cuzk.h"

/* A buffer size that holds any message with a path of up to ~300 bytes. */
enum { CUZK_ERR_MAX = 512 };

/* Formats the message into err (printf-style) and returns status. */
cuzk_status_t fail_with(char *err, size_t err_size, cuzk_status_t status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
