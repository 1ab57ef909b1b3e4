/*
 * Buffered sequential file writing with one error at the end: writes after
 * a failure are skipped, and io_writer_close reports the first failure
 * (io_error.h convention: path and the system's reason) and removes the
 * partial file, so a failed write never leaves a plausible-looking file.
 */
#ifndef CUZK_IO_IO_WRITER_H
#define CUZK_IO_IO_WRITER_H

#include <stdint.h>
#include <stdio.h>

#include "cuzk.h"

typedef struct io_writer {
    FILE *f;
    const char *path; /* borrowed; must outlive the writer */
    int error;        /* the first errno, 0 while all is well */
} io_writer_t;

/* Creates or truncates path. CUZK_EIO with a message when it cannot. */
cuzk_status_t io_writer_open(io_writer_t *w, const char *path, char *err, size_t err_size);

/* Append, little-endian. */
void io_writer_bytes(io_writer_t *w, const void *p, size_t n);
void io_writer_u32(io_writer_t *w, uint32_t v);
void io_writer_u64(io_writer_t *w, uint64_t v);

/* Flushes and closes. CUZK_EIO with a message (and the file removed) when
 * any write, the flush or the close failed. */
cuzk_status_t io_writer_close(io_writer_t *w, char *err, size_t err_size);

#endif
