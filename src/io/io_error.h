/*
 * How the file-format layer reports errors.
 *
 * Every reader and writer in src/io returns a cuzk_status_t and, on
 * failure, writes one line of text into a buffer the caller provides:
 *
 *     char err[IO_ERR_MAX];
 *     cuzk_status_t st = r1cs_file_read(&r, path, err, sizeof err);
 *     if (st != CUZK_OK)
 *         fprintf(stderr, "cuzk: %s (%s)\n", err, cuzk_strerror(st));
 *
 * The line names the file, then the place in it, then what was expected
 * and what was found:
 *
 *     circuit.r1cs: section 2 (constraints): constraint 17, A term 0: wire
 *     1234 but the header declares 1000 wires
 *
 * The buffer is as util/fail.h describes it (NUL-terminated, truncated to
 * its size, untouched on success). The status tells the kind of failure
 * (cuzk.h): CUZK_ENOFILE for a path that names no
 * readable file, CUZK_EIO for the operating system failing otherwise,
 * CUZK_EBADFILE for a corrupt or truncated file, CUZK_EUNSUPPORTED for a
 * valid file this build does not handle (curve, version), and the specific
 * codes (CUZK_ENONCANONICAL, CUZK_EWITNESS, ...) where one fits.
 */
#ifndef CUZK_IO_IO_ERROR_H
#define CUZK_IO_IO_ERROR_H

#include <stddef.h>

#include "cuzk.h"
#include "util/fail.h"

/* A buffer size that holds any message with a path of up to ~300 bytes. */
enum { IO_ERR_MAX = CUZK_ERR_MAX };

/* Formats the message into err (printf-style) and returns status: the
 * formatter of util/fail.h, under the name the file-format layer reads. */
#define io_fail fail_with

/* The message err without the "PATH: " it starts with (err itself when it
 * does not): what a caller that names path itself appends, so that the
 * name is said once. */
const char *io_error_reason(const char *err, const char *path);

/*
 * The failure to open path for reading, with errno e: CUZK_ENOFILE and
 * "<path>: no such file", "<path>: is a directory" or "<path>: permission
 * denied" when the path names no file that can be read, else CUZK_EIO and
 * "<path>: cannot open: <strerror(e)>".
 */
cuzk_status_t io_fail_open(char *err, size_t err_size, const char *path, int e);

#endif
