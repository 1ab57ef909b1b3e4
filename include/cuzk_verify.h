/*
 * Verification keys and Groth16 verification: one proof, or a batch of
 * proofs under one key.
 *
 * A verification key comes from a proving key (cuzk_vk_from_key), from
 * snarkjs' verification_key.json or from bellperson's .vk (a file or
 * memory; the kind told by the content). It is read-only once made: any
 * number of threads may verify with one at once.
 *
 * Public inputs are canonical scalars, ONE excluded, as many as
 * cuzk_vk_public_inputs() says; cuzk_scalar_from_decimal and
 * cuzk_public_from_snarkjs_json turn snarkjs' decimal strings into them.
 * Proof points are checked as the decoders of cuzk_proof.h check them: a
 * point that is not valid is an error naming it; a well-formed proof that
 * fails the pairing equation is CUZK_OK with *valid = 0.
 */
#ifndef CUZK_VERIFY_H
#define CUZK_VERIFY_H

#include "cuzk_base.h"
#include "cuzk_key.h"
#include "cuzk_proof.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_vk cuzk_vk_t;

/* *vk = the verification key of key (an independent copy: key may be
 * freed afterwards). CUZK_EINVAL, CUZK_ENOMEM. */
CUZK_API cuzk_status_t cuzk_vk_from_key(cuzk_vk_t **vk, const cuzk_key_t *key);

/*
 * *vk = the verification key in the file at path: snarkjs'
 * verification_key.json (either curve) or bellperson's .vk (BLS12-381),
 * every point checked in full. CUZK_ENOFILE, CUZK_EBADFILE (naming the file
 * and the JSON path or section), the point and field codes, CUZK_ENOMEM.
 */
CUZK_API cuzk_status_t cuzk_vk_load(cuzk_vk_t **vk, const char *path);

/* The same over len bytes at data (read during the call only); name stands
 * for the file in messages (NULL: "the verification key"). */
CUZK_API cuzk_status_t cuzk_vk_from_memory(cuzk_vk_t **vk, const void *data, size_t len,
                                           const char *name);

/*
 * The same, the bytes read as the verification key of convention whatever
 * their content looks like, so that a file that is not one fails with that
 * reader's reason: CUZK_CONVENTION_SNARKJS reads verification_key.json,
 * CUZK_CONVENTION_BELLPERSON a .vk or a .params (the verifying key it
 * starts with; the rest is not read). CUZK_EINVAL for another convention.
 */
CUZK_API cuzk_status_t cuzk_vk_from_memory_as(cuzk_vk_t **vk, const void *data, size_t len,
                                              const char *name, cuzk_convention_t convention);

/* Releases vk (NULL is fine). */
CUZK_API void cuzk_vk_free(cuzk_vk_t *vk);

CUZK_API cuzk_curve_t cuzk_vk_curve(const cuzk_vk_t *vk);
CUZK_API cuzk_convention_t cuzk_vk_convention(const cuzk_vk_t *vk);
CUZK_API uint64_t cuzk_vk_public_inputs(const cuzk_vk_t *vk);

/*
 * *valid = 1 when proof verifies under vk for the n public inputs at pub,
 * else 0. CUZK_EINVAL when the proof's curve is not vk's or n is not
 * cuzk_vk_public_inputs(vk) (naming both numbers), CUZK_ENONCANONICAL for
 * an input >= r (naming its index), the decoders' codes for a proof point
 * that is not valid, CUZK_ENOMEM. *valid is written only on CUZK_OK.
 */
CUZK_API cuzk_status_t cuzk_verify(int *valid, const cuzk_vk_t *vk, const cuzk_proof_t *proof,
                                   const cuzk_scalar_t *pub, size_t n);

/*
 * *valid = 1 when every one of the n_proofs >= 1 proofs verifies, proof i
 * for the public inputs pub[i·k .. (i+1)·k − 1], k = cuzk_vk_public_inputs(vk).
 * BLS12-381 keys check the batch at once (a random linear combination from
 * getrandom: a bad proof passes with probability about 2^-128); BN254 keys
 * check each proof. Errors as cuzk_verify's, naming the proof's index.
 */
CUZK_API cuzk_status_t cuzk_verify_batch(int *valid, const cuzk_vk_t *vk,
                                         const cuzk_proof_t *proofs, size_t n_proofs,
                                         const cuzk_scalar_t *pub);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_VERIFY_H */
