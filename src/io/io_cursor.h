/*
 * A bounds-checked reader over one region of a mapped file (a section),
 * whose failures produce io_error.h messages of the form
 *
 *     <path>: <where>: <what went wrong>
 *
 * e.g. "circuit.r1cs: section 1 (header): truncated: nWires needs 4 bytes
 * at offset 36, the section has 38". Integers are little-endian and are
 * assembled byte by byte, so any alignment and host byte order is fine.
 *
 * The cursor borrows data, path and err: they must outlive it.
 */
#ifndef CUZK_IO_IO_CURSOR_H
#define CUZK_IO_IO_CURSOR_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"

typedef struct io_cursor {
    const unsigned char *data; /* the region */
    uint64_t size;             /* its length in bytes */
    uint64_t pos;              /* the next byte to read, <= size */
    const char *path;          /* the file, for messages */
    char where[64];            /* the region, for messages */
    char *err;                 /* the caller's message buffer (io_error.h) */
    size_t err_size;
} io_cursor_t;

/* Starts c at the beginning of size bytes at data; where names the region
 * in messages (copied, truncated to fit). */
void io_cursor_init(io_cursor_t *c, const unsigned char *data, uint64_t size, const char *path,
                    const char *where, char *err, size_t err_size);

/* Writes "<path>: <where>: <fmt...>" into the message buffer, returns status. */
cuzk_status_t io_cursor_fail(const io_cursor_t *c, cuzk_status_t status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The bytes not yet read. */
static inline uint64_t io_cursor_left(const io_cursor_t *c)
{
    return c->size - c->pos;
}

/*
 * Reads a little-endian integer, or n bytes (*p points into the region), and
 * advances. When fewer bytes are left: CUZK_EBADFILE, "truncated: <what>
 * needs N bytes at offset P, the section has S", position unchanged.
 */
cuzk_status_t io_cursor_u32(io_cursor_t *c, uint32_t *v, const char *what);
cuzk_status_t io_cursor_u64(io_cursor_t *c, uint64_t *v, const char *what);
cuzk_status_t io_cursor_bytes(io_cursor_t *c, const unsigned char **p, uint64_t n,
                              const char *what);

/* CUZK_OK when everything was read; else CUZK_EBADFILE, "N bytes left over
 * after <what>". */
cuzk_status_t io_cursor_end(const io_cursor_t *c, const char *what);

/* Little-endian loads from unaligned bytes. */
static inline uint32_t io_load_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t io_load_u64(const unsigned char *p)
{
    return (uint64_t)io_load_u32(p) | (uint64_t)io_load_u32(p + 4) << 32;
}

#endif
