/*
 * Read-only memory maps of whole files.
 *
 * Keys and witnesses run to tens of gigabytes, so readers never copy a file:
 * they map it and parse it in place. The mapping is private and read-only;
 * pages are read from disk on first touch.
 */
#ifndef CUZK_IO_IO_MAP_H
#define CUZK_IO_IO_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"

typedef struct io_map {
    const unsigned char *data; /* size bytes; NULL when size is 0 */
    uint64_t size;
} io_map_t;

/*
 * Maps the regular file at path. On success m->data stays valid until
 * io_map_close(m), even if the file is renamed or unlinked meanwhile (it
 * must not be truncated meanwhile: pages past the new end raise SIGBUS).
 * An empty file gives data = NULL, size = 0. Failures are CUZK_EIO with a
 * message naming path and the system's reason (io_error.h); m is then
 * empty.
 */
cuzk_status_t io_map_open(io_map_t *m, const char *path, char *err, size_t err_size);

/* Unmaps m and zeroes it; an empty m is fine. */
void io_map_close(io_map_t *m);

#endif
