/*
 * Assignment files (.asgn): what a bellperson-style synthesizer hands to a
 * Groth16 prover for one partition (FORMATS.md §8.3), the input of
 * supraseal's C2 prover as a file: the evaluations a, b, c of every
 * constraint row, the input and aux assignments, and the three density
 * bitmaps. The byte layout is specified in docs/ASSIGNMENT.md; in short,
 * all integers little-endian:
 *
 *     0   8  magic "cuzkasgn"
 *     8   4  u32 version = 1
 *    12   4  u32 curve: 2 = BLS12-381, 1 = BN254 (r1cs_curve_t)
 *    16   8  u64 n_constraints  rows of a, b, c (the circuit's rows, then
 *                               one row x_i·0 = 0 per input)
 *    24   8  u64 n_inputs       ONE included, so >= 1
 *    32   8  u64 n_aux
 *    40      a, b, c            n_constraints scalars each
 *            inputs             n_inputs scalars, inputs[0] = 1
 *            aux                n_aux scalars
 *            a_aux_density      ceil(n_aux / 64) u64 words
 *            b_input_density    ceil(n_inputs / 64) u64 words
 *            b_aux_density      ceil(n_aux / 64) u64 words
 *
 * A scalar is 32 bytes: the plain (canonical, not Montgomery) value,
 * little-endian, < r. Bitmaps are LSB first: bit i = word[i / 64] >> (i %
 * 64) & 1; bits at and above the count are zero. Every section starts
 * 8-byte aligned, so the reader's pointers go straight into the mapping.
 *
 * The reader checks, naming file, section and item: magic, version
 * (CUZK_EUNSUPPORTED for a later one), curve (CUZK_EUNSUPPORTED), counts
 * (n_inputs >= 1, n_constraints >= n_inputs, all below 2^32), the exact
 * file size, every scalar < r (CUZK_ENONCANONICAL), inputs[0] = 1, bits
 * above the counts clear. Else CUZK_EBADFILE (or CUZK_EIO/CUZK_ENOMEM).
 */
#ifndef CUZK_IO_ASGN_FILE_H
#define CUZK_IO_ASGN_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "groth16/groth16_key.h"
#include "io/io_map.h"
#include "io/io_output.h"
#include "r1cs/r1cs_shape.h"
#include "util/pool.h"

enum {
    ASGN_VERSION = 1,
    ASGN_HEADER_BYTES = 40,
    ASGN_SCALAR_BYTES = 32,
};

/*
 * One assignment. Scalars are arrays of 4 u64 limbs (plain values, least
 * significant limb first), bitmaps arrays of u64 words. From the reader the
 * pointers go into the mapping, which the assignment owns (asgn_free); for
 * the writer the caller fills every field and owns the memory. A
 * zero-initialised asgn_t holds nothing and may be freed.
 */
typedef struct asgn {
    r1cs_curve_t curve;
    uint64_t n_constraints, n_inputs, n_aux;
    const uint64_t (*a)[4], (*b)[4], (*c)[4];
    const uint64_t (*inputs)[4], (*aux)[4];
    const uint64_t *a_aux_density, *b_input_density, *b_aux_density;
    /* The scalars are in Montgomery form (groth16_asgn_t): assignments in
     * memory only, such as those handed over through supraseal-c2's ABI; a
     * file holds plain values (the reader sets false, the writer refuses
     * true). */
    bool montgomery;
    io_map_t map;
} asgn_t;

/* Words of a bitmap of n bits. */
static inline uint64_t asgn_words(uint64_t n)
{
    return (n + 63) / 64;
}

/* Bit i of a bitmap. */
static inline int asgn_bit(const uint64_t *bitmap, uint64_t i)
{
    return (int)(bitmap[i / 64] >> (i % 64) & 1);
}

/* The Groth16 layer's view of a (its arrays, borrowed), and back: an
 * asgn_t over g's arrays that owns no mapping (for the writer and for
 * callers that take an asgn_t). */
groth16_asgn_t asgn_groth16(const asgn_t *a);
asgn_t asgn_from_groth16(const groth16_asgn_t *g);

/* Maps and validates the .asgn at path (above), the scalars checked on
 * pool's threads (NULL: the caller alone; a full-size partition's file
 * holds 17 GB of them). On failure a is empty. */
cuzk_status_t asgn_file_read(asgn_t *a, const char *path, pool_t *pool, char *err, size_t err_size);

/* The same over size bytes at data, which a borrows (8-byte aligned; they
 * must outlive a); name stands for the file in messages. */
cuzk_status_t asgn_file_parse(asgn_t *a, const unsigned char *data, uint64_t size, const char *name,
                              pool_t *pool, char *err, size_t err_size);

/* Writes a in the layout above. The values are written as they are (not
 * validated); a must have a curve, n_inputs >= 1 and an array behind every
 * non-empty section (else CUZK_EINVAL, nothing written).
 * _to writes onto an open output, whose close reports I/O failures; the
 * plain form writes the file at path alone (io_output.h: whole or not at all).
 */
cuzk_status_t asgn_file_write_to(io_output_t *out, const asgn_t *a, char *err, size_t err_size);
cuzk_status_t asgn_file_write(const char *path, const asgn_t *a, char *err, size_t err_size);

/* Unmaps what the reader mapped and zeroes a. */
void asgn_free(asgn_t *a);

#endif
