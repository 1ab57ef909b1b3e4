/*
 * snarkjs/circom .wtns witness files (FORMATS.md sections 4 and 9): reader
 * and writer.
 *
 * The reader checks, naming file and section in its message (io_error.h):
 *   - the container: magic "wtns", version 2 (else CUZK_EUNSUPPORTED),
 *     section bounds, no duplicates, sections 1 and 2 present;
 *   - header: size exactly 40, n8 = 32 and a supported prime (else
 *     CUZK_EUNSUPPORTED);
 *   - data: size = nWitness·32 (it also names the circom_runtime 2^32-byte
 *     size bug of FORMATS.md section 4 when the sizes differ by a multiple
 *     of 2^32), every value < r (else CUZK_ENONCANONICAL), nWitness >= 1
 *     and w[0] = 1 (else CUZK_EWITNESS).
 * Everything else is CUZK_EBADFILE (or CUZK_EIO/CUZK_ENOMEM). Whether the
 * witness fits a given circuit (same curve, nWitness = nWires) is for the
 * caller to check (r1cs_check does both).
 */
#ifndef CUZK_IO_WTNS_FILE_H
#define CUZK_IO_WTNS_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "io/io_output.h"
#include "r1cs/r1cs.h"
#include "util/pool.h"

/*
 * Reads the .wtns file at path into w, converting the values to Montgomery
 * form on pool's threads (NULL: the calling thread; a value takes some
 * 100 ns, 6.5 ms for 2^16 on one); w owns its array afterwards
 * (r1cs_witness_free). The file is mapped and unmapped; w keeps no
 * reference to it. On failure w is left empty; a value not below r is
 * named by the lowest such index, whatever the threads.
 */
cuzk_status_t wtns_file_read(r1cs_witness_t *w, const char *path, pool_t *pool, char *err,
                             size_t err_size);

/* The same from size bytes at data; name stands for the file in messages. */
cuzk_status_t wtns_file_parse(r1cs_witness_t *w, const unsigned char *data, uint64_t size,
                              const char *name, pool_t *pool, char *err, size_t err_size);

/*
 * Writes w as snarkjs does: sections 1, 2 in that order, values canonical
 * little-endian. w must have a curve (else CUZK_EINVAL); its values are
 * written as they are (w[0] = 1 is the caller's business). _to writes onto
 * an open output, whose close reports I/O failures; the plain form writes
 * the file at path alone (io_output.h: written whole or not at all).
 */
cuzk_status_t wtns_file_write_to(io_output_t *out, const r1cs_witness_t *w, char *err,
                                 size_t err_size);
cuzk_status_t wtns_file_write(const char *path, const r1cs_witness_t *w, char *err,
                              size_t err_size);

#endif
