/*
 * circom .r1cs files (FORMATS.md sections 3 and 9): reader and writer.
 *
 * The reader builds the R1CS in CSR form over the curve that the file's
 * prime names (BN254 or BLS12-381 r), with coefficients in Montgomery form.
 * It checks, naming file, section and the offending item in its message
 * (io_error.h):
 *   - the container: magic "r1cs", version 1 (else CUZK_EUNSUPPORTED),
 *     section bounds, no duplicates, sections 1-3 present;
 *   - no PLONK custom-gate sections 4/5 (CUZK_EUNSUPPORTED: not Groth16);
 *   - header: n8 = 32 and a supported prime (else CUZK_EUNSUPPORTED),
 *     size exactly 64, nWires >= 1 + nPubOut + nPubIn + nPrvIn;
 *   - constraints: exactly mConstraints records filling the section, every
 *     wire id < nWires, wire ids strictly ascending in each combination,
 *     every coefficient < r (else CUZK_ENONCANONICAL);
 *   - wire map: size = 8·nWires (the labels themselves are not kept).
 * Everything else is CUZK_EBADFILE (or CUZK_EIO/CUZK_ENOMEM).
 */
#ifndef CUZK_IO_R1CS_FILE_H
#define CUZK_IO_R1CS_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "io/io_output.h"
#include "r1cs/r1cs.h"

/*
 * Reads the .r1cs file at path into r (owned by the caller afterwards:
 * r1cs_free). The file is mapped, parsed and unmapped; r keeps no
 * reference to it. On failure r is left empty.
 */
cuzk_status_t r1cs_file_read(r1cs_t *r, const char *path, char *err, size_t err_size);

/* The same from size bytes at data; name stands for the file in messages. */
cuzk_status_t r1cs_file_parse(r1cs_t *r, const unsigned char *data, uint64_t size, const char *name,
                              char *err, size_t err_size);

/*
 * Writes r as a .r1cs file: sections 1 (header), 2 (constraints), 3 (wire
 * map) in that order, coefficients as canonical little-endian values, and
 * the identity wire map (wire i → label i: cuzk keeps no labels). r must be
 * well formed: A, B and C are n_constraints × n_wires and valid
 * (NAME_csr_is_valid); otherwise CUZK_EINVAL with a message and nothing is
 * written.
 * _to writes onto an open output, whose close reports I/O failures; the
 * plain form writes the file at path alone (io_output.h: whole or not at all).
 */
cuzk_status_t r1cs_file_write_to(io_output_t *out, const r1cs_t *r, char *err, size_t err_size);
cuzk_status_t r1cs_file_write(const char *path, const r1cs_t *r, char *err, size_t err_size);

#endif
