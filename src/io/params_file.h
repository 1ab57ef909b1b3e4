/*
 * bellperson / Filecoin Groth16 files, BLS12-381 only (FORMATS.md section
 * 8): parameters (.params), verifying keys (.vk) and 192-byte compressed
 * proofs, readers and writers.
 *
 * Points are decoded into cuzk's in-memory layout (affine, Montgomery form,
 * DESIGN.md section 5) in arrays the reader allocates; the file itself is
 * mapped while it is read and released afterwards.
 *
 * The readers check, naming file, section and the offending item in their
 * messages (io_error.h), e.g. "p.params: section h: point 12 is not on the
 * curve":
 *   - .params: the exact file size of the FORMATS.md §8.2 formula (a
 *     truncated or extended file names the section where it goes wrong);
 *     m = h_len + 1 a power of two below 2^32; b_g1_len = b_g2_len;
 *     a_len >= ic_len; ic_len >= 1;
 *   - .vk: exactly 868 + 96·ic_len bytes, ic_len >= 1;
 *   - every point: flag bits 0x80, 0x40, 0x20 clear (uncompressed, never
 *     infinity: CUZK_EBADFILE / CUZK_EINFINITY), coordinates < p
 *     (CUZK_ENONCANONICAL), on the curve (CUZK_ENOTONCURVE), x != 0 (only
 *     points of order 3 have it: CUZK_ENOTINSUBGROUP, trusted or not), and
 *     in the order-r subgroup (CUZK_ENOTINSUBGROUP): always for the six
 *     fixed points of the verifying key and for all of a .vk, and for the
 *     vectors ic, h, l, a, b_g1, b_g2 of a .params unless the caller passes
 *     BP_PARAMS_TRUSTED.
 *     Query points are checked on the caller's thread pool: first
 *     everything but the subgroup, then the subgroup of the points before
 *     the first failure (all of them when none failed), h, l, a, b_g1 and
 *     then b_g2, by one batch check a group, and a bisection by batch
 *     checks where one finds a point outside
 *     (NAME_msm_subgroup_first_outside: random combinations, a point
 *     outside missed with probability below 2^-59; 0.5 to 2 µs a point on
 *     this VM's cores, against 30 to 40 µs for the test of one point). The
 *     message names the lowest failing index of the first failing section,
 *     whatever its fault;
 *   - proofs: a length that is a positive multiple of 192; each element
 *     compressed (0x80 set), not infinity, canonical, on the curve and in
 *     its subgroup; the message names the proof index and the element.
 * Everything else is CUZK_EBADFILE (or CUZK_EIO/CUZK_ENOMEM). The counts
 * that depend on the circuit (l_len = #aux, a_len and b_len against the
 * density bitmaps) are checked by the prover against the assignment.
 */
#ifndef CUZK_IO_PARAMS_FILE_H
#define CUZK_IO_PARAMS_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ff/bls381_fr.h"
#include "groth16/groth16.h"
#include "groth16/groth16_key.h"
#include "io/asgn_file.h"
#include "io/io_output.h"
#include "r1cs/r1cs.h"
#include "util/pool.h"
#include "util/progress.h"
#include "util/rng.h"

enum {
    BP_VK_FIXED_BYTES = 864, /* alpha1, beta1, beta2, gamma2, delta1, delta2 */
    BP_PROOF_BYTES = 192,    /* compressed A (48) ‖ B (96) ‖ C (48) */
    BP_G1_BYTES = 96,        /* uncompressed G1 in a .params/.vk */
    BP_G2_BYTES = 192,       /* uncompressed G2 */
};

/* Reader flags. */
enum {
    /* The query vectors come from a trusted source (cuzk wrote them, or they
     * were checked before): canonical, curve and x != 0 checks only, no
     * subgroup check (above). The six fixed points of the verifying key are
     * always checked in full. */
    BP_PARAMS_TRUSTED = 1u << 0,
};

/* A bellperson verifying key. ic has n_ic points (inputs, ONE included),
 * owned by the key (bp_vk_free). */
typedef struct bp_vk {
    bls381_g1_affine_t alpha1, beta1, delta1;
    bls381_g2_affine_t beta2, gamma2, delta2;
    uint32_t n_ic;
    bls381_g1_affine_t *ic;
} bp_vk_t;

/*
 * bellperson parameters: the verifying key, then the query vectors of
 * FORMATS.md §8.2, affine, Montgomery form, never infinity. h has n_h =
 * m − 1 points, l n_l (one per aux variable), a n_a, b_g1 and b_g2 n_b
 * each. From the reader the arrays live in one allocation that
 * bp_params_free releases; for the writer the caller owns them.
 * A zero-initialised bp_params_t holds nothing and may be freed.
 */
typedef struct bp_params {
    bp_vk_t vk;
    uint32_t n_h, n_l, n_a, n_b;
    bls381_g1_affine_t *h, *l, *a, *b_g1;
    bls381_g2_affine_t *b_g2;
    void *mem; /* the reader's allocation (NULL when the caller owns the arrays) */
} bp_params_t;

/* A Groth16 proof: π_A, π_B, π_C, affine, Montgomery form. */
typedef struct bp_proof {
    bls381_g1_affine_t a;
    bls381_g2_affine_t b;
    bls381_g1_affine_t c;
} bp_proof_t;

/*
 * The Groth16 layer's view of p: convention GROTH16_BELLPERSON over
 * BLS12-381, the verifying key's points, IC and the query vectors (b_g1 as
 * B1, b_g2 as B2) borrowed from p; domain_size = n_h + 1, n_vars = n_ic +
 * n_l. Valid while p is.
 */
groth16_key_t bp_params_groth16_key(const bp_params_t *p);

/*
 * Reads the .params at path into p, validates it (above) with pool's
 * threads (NULL: the caller alone). flags: BP_PARAMS_TRUSTED or 0. On
 * failure p is left empty.
 */
cuzk_status_t bp_params_read(bp_params_t *p, const char *path, pool_t *pool, unsigned flags,
                             char *err, size_t err_size);

/* The same over size bytes at data; name stands for the file in messages.
 * progress (NULL: none) gets the stages "check" (every query point but
 * the subgroup) and "subgroup G1"/"subgroup G2" (one batch a group). */
cuzk_status_t bp_params_parse(bp_params_t *p, const unsigned char *data, uint64_t size,
                              const char *name, pool_t *pool, unsigned flags, progress_t *progress,
                              char *err, size_t err_size);

/* Releases what the reader allocated (and the vk's ic) and zeroes p. */
void bp_params_free(bp_params_t *p);

/*
 * Writes p in the .params layout. Points must be affine, finite (the format
 * has no infinity; CUZK_EINVAL, nothing written), with n_b points in both
 * b_g1 and b_g2, and the counts the reader accepts: n_ic >= 1, n_h + 1 a
 * power of two, n_a >= n_ic (else CUZK_EINVAL).
 * _to writes onto an open output, whose close reports I/O failures; the
 * plain form writes the file at path alone (io_output.h: whole or not at all).
 */
cuzk_status_t bp_params_write_to(io_output_t *out, const bp_params_t *p, char *err,
                                 size_t err_size);
cuzk_status_t bp_params_write(const char *path, const bp_params_t *p, char *err, size_t err_size);

/* .vk: the first block of a .params alone (FORMATS.md §8.2). The writers
 * need n_ic >= 1 and finite points, as bp_params_write. */
cuzk_status_t bp_vk_read(bp_vk_t *vk, const char *path, char *err, size_t err_size);
cuzk_status_t bp_vk_parse(bp_vk_t *vk, const unsigned char *data, uint64_t size, const char *name,
                          char *err, size_t err_size);
/* The bytes of the verifying key that the size bytes at data start with:
 * the first block of a .params, whose IC count says where it ends; all of
 * them for a .vk, or for bytes too few to say (bp_vk_parse then names what
 * is missing). */
uint64_t bp_vk_extent(const unsigned char *data, uint64_t size);
cuzk_status_t bp_vk_write_to(io_output_t *out, const bp_vk_t *vk, char *err, size_t err_size);
cuzk_status_t bp_vk_write(const char *path, const bp_vk_t *vk, char *err, size_t err_size);
/* Releases vk->ic and zeroes vk. */
void bp_vk_free(bp_vk_t *vk);

/* One proof to and from its 192 bytes (FORMATS.md §8.4). decode checks as
 * described above; name and index only label the message. */
void bp_proof_encode(unsigned char out[BP_PROOF_BYTES], const bp_proof_t *proof);
cuzk_status_t bp_proof_decode(bp_proof_t *proof, const unsigned char in[BP_PROOF_BYTES],
                              const char *name, size_t index, char *err, size_t err_size);

/* A file of n >= 1 concatenated proofs. The readers allocate *proofs (the
 * caller frees it with free()); on failure *proofs = NULL, *n = 0. parse
 * reads the size bytes at data, name standing for the file in messages.
 * The writer refuses n = 0 and elements at infinity (CUZK_EINVAL, nothing
 * written): no reader would take them back. */
cuzk_status_t bp_proofs_read(bp_proof_t **proofs, size_t *n, const char *path, char *err,
                             size_t err_size);
cuzk_status_t bp_proofs_parse(bp_proof_t **proofs, size_t *n, const unsigned char *data,
                              uint64_t size, const char *name, char *err, size_t err_size);
cuzk_status_t bp_proofs_write_to(io_output_t *out, const bp_proof_t *proofs, size_t n, char *err,
                                 size_t err_size);
cuzk_status_t bp_proofs_write(const char *path, const bp_proof_t *proofs, size_t n, char *err,
                              size_t err_size);

/* ---- Groth16 on bellperson's files (params_groth16.c) ----------------- */

/*
 * A proof for the assignment a under the parameters p: groth16_prove_key
 * over their views (bp_params_groth16_key, asgn_groth16). Unless
 * opts->no_verify, the proof is verified against p's verifying key with
 * a's inputs first, and a proof that fails is CUZK_EWITNESS (the
 * assignment does not satisfy the circuit). opts NULL: defaults; t (NULL:
 * not wanted) gets the stage timings. CUZK_EINVAL when a does not fit p
 * (curve, counts; the message names both numbers), CUZK_ENOMEM,
 * CUZK_ERANDOM; every failure with a one-line message in err.
 */
cuzk_status_t groth16_bp_prove(bp_proof_t *proof, const bp_params_t *p, const asgn_t *a,
                               const groth16_prove_opts_t *opts, groth16_timings_t *t, pool_t *pool,
                               char *err, size_t err_size);

/*
 * *valid = whether every one of the n >= 1 proofs verifies under vk, proof
 * i for the inputs in[i·(n_ic − 1) .. (i+1)·(n_ic − 1) − 1] (ONE excluded,
 * Montgomery form). One proof: the plain check; several: one batch check
 * by a random linear combination (coefficients from rng, NULL: getrandom;
 * bls381_groth16_verify_batch). The proof points must be in their groups
 * (bp_proof_decode checks it). CUZK_ENOMEM, CUZK_ERANDOM, with a message.
 */
cuzk_status_t groth16_bp_verify(bool *valid, const bp_vk_t *vk, const bls381_fr_t *in,
                                const bp_proof_t *proofs, size_t n, rng_t *rng, pool_t *pool,
                                char *err, size_t err_size);

/*
 * An INSECURE development key in bellperson's layout for the BLS12-381
 * circuit r (bls381_groth16_bp_dev_setup: tests and benchmarks only); p is
 * the caller's afterwards (bp_params_free). CUZK_EUNSUPPORTED for another
 * curve, CUZK_EINVAL for a circuit without private wires or beyond the
 * domains, CUZK_ENOMEM, CUZK_ERANDOM; on failure p is empty. progress
 * (NULL: none) gets a stage for each query.
 */
cuzk_status_t groth16_bp_dev_setup(bp_params_t *p, const r1cs_t *r, rng_t *rng,
                                   progress_t *progress);

/*
 * The assignment of r and its witness w (same curve, w->n = the number of
 * wires; else CUZK_EINVAL), as NAME_groth16_bp_assign describes; its
 * arrays live in *mem, which the caller frees after a. CUZK_ENOMEM.
 */
cuzk_status_t groth16_bp_assign(asgn_t *a, void **mem, const r1cs_t *r, const r1cs_witness_t *w,
                                pool_t *pool);

#endif
