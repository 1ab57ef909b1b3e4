/*
 * snarkjs Groth16 proving keys, .zkey (FORMATS.md sections 5 and 9): reader
 * and writer.
 *
 * The reader maps the file and never copies its big sections: a zkey_t
 * holds the decoded header (counts, curve, the six header points) and
 * pointers into the mapping for IC, the coefficients and the A, B1, B2, C,
 * H queries. Their bytes are already cuzk's in-memory layout on a
 * little-endian host (DESIGN.md section 5): an affine point is x ‖ y in
 * Montgomery form, little-endian limbs, Fp2 as c0 ‖ c1, and the point at
 * infinity is all zero bytes, so the data of a G1 query read as an array of
 * bn254_g1_affine_t (or bls381_g1_affine_t, G2 likewise) is the query.
 * Such a cast needs 8-byte alignment, which depends on where the section
 * starts in the file (zkey_points_aligned); a snarkjs file has no padding,
 * so a caller that needs typed arrays copies a misaligned section.
 *
 * The reader checks, naming file, section and the offending item in its
 * message (io_error.h), e.g. "circuit.zkey: section 9 (H): point 1234 is
 * not on the curve":
 *   - the container: magic "zkey", version 1 (else CUZK_EUNSUPPORTED),
 *     section bounds, no duplicates, sections 1-9 present (section 10, the
 *     MPC contributions, is not needed to prove and is not read);
 *   - section 1: protocol 1 = Groth16 (PLONK, FFLONK: CUZK_EUNSUPPORTED);
 *   - section 2: n8q/q and n8r/r name one supported curve, BN254 or
 *     BLS12-381 (else CUZK_EUNSUPPORTED, with the primes in the message);
 *     nVars > nPublic; domainSize a power of two, at least nPublic + 1 and
 *     at most 2^s (the 2-adicity of r); exact size 20 + 19·n8q + n8r;
 *   - every section 3-9 exactly as large as the section 5 table says, and
 *     section 4's nCoef consistent with its size;
 *   - every coefficient: m in {0, 1}, c < domainSize, s < nVars (else
 *     CUZK_EBADFILE), value < r (else CUZK_ENONCANONICAL);
 *   - the header points alpha1, beta1, beta2, gamma2, delta1, delta2:
 *     coordinates < q (CUZK_ENONCANONICAL), on the curve
 *     (CUZK_ENOTONCURVE), in the order-r subgroup (CUZK_ENOTINSUBGROUP),
 *     not infinity (CUZK_EINFINITY);
 *   - every IC and query point: coordinates < q, infinity (all zero) or on
 *     the curve, and in the subgroup unless the caller passes ZKEY_TRUSTED.
 *     Points are checked on the caller's thread pool: first everything but
 *     the subgroup, then the subgroup of the points before the first
 *     failure (all of them when none failed) by one batch check a group,
 *     and a bisection by batch checks where one finds a point outside
 *     (NAME_msm_subgroup_first_outside: random combinations, a point
 *     outside missed with probability below 2^-59; 0.5 to 2 µs a point on
 *     this VM's cores, against 30 to 40 µs for the test of one point). The
 *     message names the lowest failing index of the first failing section,
 *     whatever its fault.
 * Everything else is CUZK_EBADFILE (or CUZK_EIO/CUZK_ENOMEM).
 */
#ifndef CUZK_IO_ZKEY_FILE_H
#define CUZK_IO_ZKEY_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "groth16/groth16.h"
#include "groth16/groth16_key.h"
#include "io/io_cursor.h"
#include "io/io_fr.h"
#include "io/io_map.h"
#include "io/io_output.h"
#include "r1cs/r1cs_shape.h"
#include "util/pool.h"
#include "util/progress.h"

/* Section 1: the protocol ids snarkjs writes. */
enum {
    ZKEY_PROTOCOL_GROTH16 = 1,
    ZKEY_PROTOCOL_PLONK = 2,
    ZKEY_PROTOCOL_FFLONK = 10,
};

enum {
    ZKEY_COEFF_BYTES = GROTH16_COEFF_BYTES, /* u32 m, u32 c, u32 s, value (groth16_coeff_t) */
    ZKEY_CS_HASH_BYTES = 64,                /* BLAKE2b-512, section 10 */
};

/* Reader flags. */
enum {
    /* The key comes from a trusted source (cuzk wrote it, or it was checked
     * before): IC and query points get the canonical and curve checks only,
     * not the subgroup check (above). The six
     * header points are always checked in full. */
    ZKEY_TRUSTED = 1u << 0,
    /* zkey_file_read copies the file into memory the key owns instead of
     * mapping it (io_map_copy), so that a key kept for many proofs does not
     * change or fault when its file is truncated or overwritten later. */
    ZKEY_COPY = 1u << 1,
};

/* The header points of section 2, per curve. */
typedef struct zkey_bn254 {
    bn254_g1_affine_t alpha1, beta1, delta1;
    bn254_g2_affine_t beta2, gamma2, delta2;
} zkey_bn254_t;

typedef struct zkey_bls381 {
    bls381_g1_affine_t alpha1, beta1, delta1;
    bls381_g2_affine_t beta2, gamma2, delta2;
} zkey_bls381_t;

/*
 * A Groth16 key. curve says which member of u is live. The section pointers
 * hold the file layout (see above): ic (n_public + 1 G1 points), coeffs
 * (n_coeffs entries of ZKEY_COEFF_BYTES, after section 4's u32 count), a and
 * b1 (n_vars G1 points), b2 (n_vars G2 points), c (n_vars - n_public - 1 G1
 * points, for wires n_public + 1 ...), h (domain_size G1 points).
 *
 * From the reader they point into map, which the key owns: they stay valid
 * until zkey_free. For the writer the caller fills every field (n8q and n8r
 * are then ignored) and owns the memory the pointers name.
 * A zero-initialised zkey_t holds nothing (R1CS_CURVE_NONE) and may be freed.
 */
typedef struct zkey {
    r1cs_curve_t curve;
    uint32_t n8q, n8r; /* bytes of a base-field and a scalar-field element */
    uint32_t n_vars;   /* wires, ONE included */
    uint32_t n_public; /* public signals, ONE excluded */
    uint32_t domain_size;
    uint32_t n_coeffs;
    union {
        zkey_bn254_t bn254;
        zkey_bls381_t bls381;
    } u;
    const unsigned char *ic, *coeffs, *a, *b1, *b2, *c, *h;
    io_map_t map; /* the file, when the reader mapped it */
} zkey_t;

/*
 * Reads the .zkey at path into k: maps the file (or, with ZKEY_COPY, reads
 * it into memory), validates it (above) with pool's threads (NULL: the
 * caller alone) and keeps the mapping (see zkey_t). flags: ZKEY_TRUSTED,
 * ZKEY_COPY or 0. On failure k is left empty.
 */
cuzk_status_t zkey_file_read(zkey_t *k, const char *path, pool_t *pool, unsigned flags, char *err,
                             size_t err_size);

/* The same over size bytes at data, which k borrows: they must outlive k
 * and stay unchanged. name stands for the file in messages. progress
 * (NULL: none) gets the stages "check" (every item but the subgroup, one
 * advance a chunk) and "subgroup G1"/"subgroup G2" (one batch a group). */
cuzk_status_t zkey_file_parse(zkey_t *k, const unsigned char *data, uint64_t size, const char *name,
                              pool_t *pool, unsigned flags, progress_t *progress, char *err,
                              size_t err_size);

/* Unmaps what the reader mapped and zeroes k. */
void zkey_free(zkey_t *k);

/*
 * Writes k as a .zkey with sections 1-10 in order (the layout `snarkjs zkey
 * beacon` produces). Section 10 holds cs_hash (ZKEY_CS_HASH_BYTES; NULL
 * writes zeros) and no contributions, as `snarkjs groth16 setup` writes it.
 * k must describe a key: a curve, n_vars > n_public, domain_size a power of
 * two >= n_public + 1, and non-NULL pointers to as many bytes as the counts
 * say (else CUZK_EINVAL, nothing written). The points and coefficients are
 * written as they are: the writer does not validate them.
 * _to writes onto an open output, whose close reports I/O failures; the
 * plain form writes the file at path alone (io_output.h: whole or not at all).
 */
cuzk_status_t zkey_file_write_to(io_output_t *out, const zkey_t *k, const unsigned char *cs_hash,
                                 char *err, size_t err_size);
cuzk_status_t zkey_file_write(const char *path, const zkey_t *k, const unsigned char *cs_hash,
                              char *err, size_t err_size);

/*
 * The Groth16 layer's view of k (which must have a curve): convention
 * GROTH16_SNARKJS, the header points, and the query vectors and
 * coefficients pointing into k's sections (no copy; the L query is the C
 * section). Valid while k is.
 */
groth16_key_t zkey_groth16_key(const zkey_t *k);

/*
 * The key k, of convention GROTH16_SNARKJS, as a zkey_t for the writer:
 * the counts, the header points and pointers to k's IC, coefficients and
 * queries (L as the C section). Borrows k's memory; not for zkey_free.
 */
zkey_t zkey_from_groth16(const groth16_key_t *k);

/* ---- Groth16 on a .zkey (zkey_groth16.c) ------------------------------ */

/*
 * groth16_prove_key over the view of k (zkey_groth16_key) for the witness
 * w (Montgomery form, w[0] = 1, as the .wtns reader gives it): the proof,
 * *pub = w[1 .. n_public], and the failures, as groth16_prove_key says.
 */
cuzk_status_t groth16_prove(groth16_proof_t *proof, r1cs_witness_t *pub, const zkey_t *k,
                            const r1cs_witness_t *w, const groth16_prove_opts_t *opts,
                            groth16_timings_t *t, pool_t *pool, char *err, size_t err_size);

/*
 * An INSECURE development key for r (NAME_groth16_dev_setup: tests and
 * benchmarks only) as a zkey_t that zkey_file_write takes; release it with
 * groth16_dev_key_free, not zkey_free. CUZK_EINVAL for a circuit without
 * private wires or beyond the curve's domains, CUZK_ENOMEM, CUZK_ERANDOM;
 * on failure k is empty. progress (NULL: none) gets a stage for each query.
 */
cuzk_status_t groth16_dev_setup(zkey_t *k, const r1cs_t *r, rng_t *rng, progress_t *progress);
void groth16_dev_key_free(zkey_t *k);

/* ---- access to the sections ------------------------------------------- */

/* One point section: count points of point_bytes bytes each at data. */
typedef struct zkey_points {
    const unsigned char *data;
    uint64_t count;
    uint32_t point_bytes; /* 2·n8q for G1, 4·n8q for G2 */
} zkey_points_t;

/* The section with id ZKEY_SECTION_IC or ZKEY_SECTION_POINTS_A ... _H
 * (iden3.h) of k, which must have a curve (the point size follows from it). */
zkey_points_t zkey_points(const zkey_t *k, uint32_t section);

/* Whether p.data may be read as an array of affine points (8-byte aligned). */
static inline bool zkey_points_aligned(zkey_points_t p)
{
    return ((uintptr_t)p.data & 7) == 0;
}

/*
 * One coefficient entry: matrix m (0 = A, 1 = B), constraint row c, wire s,
 * and value = the IO_FR_BYTES little-endian bytes of coef·R^2 mod r ("double
 * Montgomery": one Montgomery multiplication by a plain witness value gives
 * coef·w in Montgomery form). value points into k's data.
 */
typedef struct zkey_coeff {
    uint32_t m, c, s;
    const unsigned char *value;
} zkey_coeff_t;

/* Entry i < k->n_coeffs. */
static inline zkey_coeff_t zkey_coeff(const zkey_t *k, uint32_t i)
{
    const unsigned char *p = k->coeffs + (uint64_t)i * ZKEY_COEFF_BYTES;
    zkey_coeff_t e = {io_load_u32(p), io_load_u32(p + 4), io_load_u32(p + 8), p + 12};
    return e;
}

/* Writes the entry (m, c, s, coef) in the file layout, coef a bn254_fr_t or
 * bls381_fr_t (Montgomery form) as curve says. */
void zkey_coeff_encode(r1cs_curve_t curve, unsigned char out[ZKEY_COEFF_BYTES], uint32_t m,
                       uint32_t c, uint32_t s, const void *coef);

#endif
