/*
 * Read-only memory maps of whole files, guarded against the file shrinking
 * under them.
 *
 * Keys and witnesses run to tens of gigabytes, so readers never copy a file:
 * they map it and parse it in place. The mapping is private and read-only;
 * pages are read from disk on first touch.
 *
 * A page past the end of a file that was truncated after it was mapped (or
 * a page the disk cannot deliver) raises SIGBUS on first touch, which
 * kills the process ("Bus error"). So every mapping io_map_open makes is
 * guarded: a SIGBUS handler (installed once, on the first map) looks up
 * the faulting address among the guarded mappings and, when it is one of
 * them, puts zero-filled anonymous memory over that mapping from the
 * faulting page to its end, marks the mapping lost and returns: the read
 * that faulted reads zeros, and so do the reads after it, on every thread.
 * Nothing costs anything until a fault: the guard is a table lookup in the
 * signal handler, none in the readers. A SIGBUS at any other address goes
 * on to the handler that was there before (by default the process dies as
 * it would have).
 *
 * The contract for whoever reads a map: the bytes are the file's as long
 * as io_map_lost(m) is false; once it is true some of them are zeros, and
 * whatever was computed from them must be discarded. Readers parse, then
 * pass their result through io_map_check, which turns it into CUZK_EIO
 * "PATH: the file changed (truncated) while it was read"; a holder of a
 * long-lived map (a key kept mapped for many proofs) checks io_map_lost
 * after each use of the bytes.
 *
 * At most IO_MAP_GUARDS maps are guarded at once; a map opened beyond that
 * works as before, unguarded.
 */
#ifndef CUZK_IO_IO_MAP_H
#define CUZK_IO_IO_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"

enum { IO_MAP_GUARDS = 1024 };

typedef struct io_map {
    const unsigned char *data; /* size bytes; NULL when size is 0 */
    uint64_t size;
    unsigned guard; /* 1 + the guard's slot; 0: unguarded (or empty) */
} io_map_t;

/*
 * Maps the regular file at path (opened as io_file.h says: a FIFO is
 * refused, never waited on). On success m->data stays valid until
 * io_map_close(m), even if the file is renamed, unlinked or truncated
 * meanwhile (see above). An empty file gives data = NULL, size = 0.
 * Failures are CUZK_EIO with a message naming path and the system's reason
 * (io_error.h); m is then empty.
 */
cuzk_status_t io_map_open(io_map_t *m, const char *path, char *err, size_t err_size);

/*
 * The whole regular file at path read into anonymous memory that m owns,
 * for a holder that keeps the bytes long after reading them (a key that
 * serves proofs for days): nothing done to the file afterwards (truncated,
 * overwritten in place, deleted) reaches them. Costs a read of the file
 * and memory that the kernel cannot drop, where a map costs neither.
 * Opened as io_map_open opens; a file that shrinks while it is read is
 * CUZK_EIO "PATH: the file changed (truncated) while it was read"; no
 * memory is CUZK_ENOMEM. m is closed with io_map_close; it is never lost.
 */
cuzk_status_t io_map_copy(io_map_t *m, const char *path, char *err, size_t err_size);

/* Whether pages of m read as zeros because its file shrank (or failed to
 * be read) under it. False for an empty or unguarded m. */
bool io_map_lost(const io_map_t *m);

/* st when m is not lost; else CUZK_EIO with "PATH: the file changed
 * (truncated) while it was read" (replacing any message st came with). */
cuzk_status_t io_map_check(const io_map_t *m, cuzk_status_t st, const char *path, char *err,
                           size_t err_size);

/* Unmaps m and zeroes it; an empty m is fine. */
void io_map_close(io_map_t *m);

#endif
