/*
 * Scalar-field elements as the snarkjs files store them: n8 = 32 bytes,
 * little-endian, and the curve told apart by its prime r (FORMATS.md
 * sections 1, 3, 4). Elements live in memory as bn254_fr_t or bls381_fr_t
 * (Montgomery form), chosen by an r1cs_curve_t.
 */
#ifndef CUZK_IO_IO_FR_H
#define CUZK_IO_IO_FR_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk.h"
#include "r1cs/r1cs.h"

/* n8: the bytes of a scalar-field element in the files, on both curves. */
enum { IO_FR_BYTES = 32 };

/* The curve whose r has these IO_FR_BYTES little-endian bytes, or
 * R1CS_CURVE_NONE. */
r1cs_curve_t io_fr_curve_from_prime(const unsigned char *prime);

/* out = r of curve as IO_FR_BYTES little-endian bytes. */
void io_fr_prime_le(r1cs_curve_t curve, unsigned char *out);

/*
 * out[index] = the Montgomery form of the canonical little-endian value at
 * in (IO_FR_BYTES bytes). out is a bn254_fr_t * or bls381_fr_t * array as
 * curve says. CUZK_ENONCANONICAL (out untouched) when the value is >= r.
 */
cuzk_status_t io_fr_from_le(r1cs_curve_t curve, void *out, uint64_t index, const unsigned char *in);

/* out (IO_FR_BYTES bytes) = the canonical little-endian value of a[index]. */
void io_fr_to_le(r1cs_curve_t curve, unsigned char *out, const void *a, uint64_t index);

/* out = the IO_FR_BYTES little-endian bytes at le as hexadecimal, most
 * significant digit first, NUL-terminated (for messages). */
enum { IO_FR_HEX_SIZE = 2 * IO_FR_BYTES + 1 };
void io_fr_hex_le(char *out, const unsigned char *le);

/* Whether a[index] is one. */
bool io_fr_is_one(r1cs_curve_t curve, const void *a, uint64_t index);

#endif
