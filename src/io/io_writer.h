/*
 * Buffered sequential writing of a file format onto an output (io_output.h):
 * little-endian integers and byte runs collected into writes of
 * IO_WRITER_BUFFER bytes. A failed write is kept by the output, which
 * skips what follows and reports it when it is closed, so a format writer
 * has no error path of its own.
 */
#ifndef CUZK_IO_IO_WRITER_H
#define CUZK_IO_IO_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "io/io_output.h"

enum { IO_WRITER_BUFFER = 16384 };

typedef struct io_writer {
    io_output_t *out; /* borrowed */
    size_t len;       /* bytes in buf */
    unsigned char buf[IO_WRITER_BUFFER];
} io_writer_t;

/* Starts writing at out's current end. */
void io_writer_begin(io_writer_t *w, io_output_t *out);

/* Append, little-endian. */
void io_writer_bytes(io_writer_t *w, const void *p, size_t n);
void io_writer_u32(io_writer_t *w, uint32_t v);
void io_writer_u64(io_writer_t *w, uint64_t v);

/* Hands the buffered bytes to the output; w is done. */
void io_writer_end(io_writer_t *w);

#endif
