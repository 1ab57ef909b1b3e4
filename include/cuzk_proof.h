/*
 * A Groth16 proof as a plain value, and its encodings: snarkjs' proof.json
 * and public.json texts, and bellperson's 192 bytes.
 *
 * Byte form of a point (cuzk_proof_t): each coordinate is its canonical
 * value, big-endian, in CUZK_COORD_BYTES = 48 bytes (a BN254 coordinate has
 * 16 zero bytes in front); G1 is x ‖ y (96 bytes), G2 is x.c0 ‖ x.c1 ‖
 * y.c0 ‖ y.c1 (192 bytes) with x = x.c0 + x.c1·u; the point at infinity is
 * all zero bytes (no finite point has x = y = 0 on either curve).
 *
 * Decoders check everything a verifier relies on and name what is wrong in
 * cuzk_last_error(): the text's or bytes' shape (CUZK_EBADFILE,
 * CUZK_EENCODING), coordinates below q (CUZK_ENONCANONICAL), the curve
 * equation (CUZK_ENOTONCURVE) and the prime-order subgroup
 * (CUZK_ENOTINSUBGROUP). Encoders take a proof that a decoder or a prover
 * made; they check its curve and coordinates (CUZK_EINVAL otherwise).
 * Every function here is reentrant.
 */
#ifndef CUZK_PROOF_H
#define CUZK_PROOF_H

#include "cuzk_base.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    CUZK_COORD_BYTES = 48,
    CUZK_G1_BYTES = 2 * CUZK_COORD_BYTES,
    CUZK_G2_BYTES = 4 * CUZK_COORD_BYTES,
    CUZK_BELLPERSON_PROOF_BYTES = 192, /* compressed A (48) ‖ B (96) ‖ C (48) */
};

/* π = (A in G1, B in G2, C in G1) over curve, in the byte form above. */
typedef struct cuzk_proof {
    cuzk_curve_t curve;
    unsigned char a[CUZK_G1_BYTES];
    unsigned char b[CUZK_G2_BYTES];
    unsigned char c[CUZK_G1_BYTES];
} cuzk_proof_t;

/*
 * *json = proof.json exactly as snarkjs writes it for proof (malloc'd,
 * NUL-terminated: cuzk_free). CUZK_EINVAL (a proof no decoder or prover
 * would make), CUZK_ENOMEM.
 */
CUZK_API cuzk_status_t cuzk_proof_to_snarkjs_json(char **json, const cuzk_proof_t *proof);

/* *proof = the proof in the proof.json text of len bytes (checked, above). */
CUZK_API cuzk_status_t cuzk_proof_from_snarkjs_json(cuzk_proof_t *proof, const char *json,
                                                    size_t len);

/* The same, name standing for the text in messages (the file's path; NULL:
 * "proof.json"). */
CUZK_API cuzk_status_t cuzk_proof_from_snarkjs_json_named(cuzk_proof_t *proof, const char *json,
                                                          size_t len, const char *name);

/*
 * *json = public.json as snarkjs writes it for the n canonical scalars of
 * curve at pub (n = 0 is "[\n]"). CUZK_ENONCANONICAL for a value >= r,
 * CUZK_EINVAL, CUZK_ENOMEM.
 */
CUZK_API cuzk_status_t cuzk_public_to_snarkjs_json(char **json, cuzk_curve_t curve,
                                                   const cuzk_scalar_t *pub, size_t n);

/*
 * *pub = the values of the public.json text of len bytes, canonical
 * (malloc'd: cuzk_free; NULL when *n = 0), *n their count. The file has no
 * curve: curve says which field the values must be below.
 */
CUZK_API cuzk_status_t cuzk_public_from_snarkjs_json(cuzk_scalar_t **pub, size_t *n,
                                                     cuzk_curve_t curve, const char *json,
                                                     size_t len);

/* The expect_n of cuzk_public_from_snarkjs_json_named that takes any count. */
#define CUZK_PUBLIC_ANY_COUNT SIZE_MAX

/*
 * The same, for a text that must hold expect_n values (a key's
 * cuzk_vk_public_inputs; CUZK_PUBLIC_ANY_COUNT: any number): one of another
 * count is CUZK_EBADFILE naming both counts, before any value is read
 * (CUZK_EINVAL for an expect_n above 2^32 - 1). name stands for the text in
 * messages (the file's path; NULL: "public.json").
 */
CUZK_API cuzk_status_t cuzk_public_from_snarkjs_json_named(cuzk_scalar_t **pub, size_t *n,
                                                           cuzk_curve_t curve, size_t expect_n,
                                                           const char *json, size_t len,
                                                           const char *name);

/* bellperson's 192 bytes of a BLS12-381 proof (CUZK_EINVAL for another
 * curve), and back (checked: flags, canonical, on the curve, subgroup). */
CUZK_API cuzk_status_t cuzk_proof_to_bellperson(unsigned char out[CUZK_BELLPERSON_PROOF_BYTES],
                                                const cuzk_proof_t *proof);
CUZK_API cuzk_status_t cuzk_proof_from_bellperson(
    cuzk_proof_t *proof, const unsigned char in[CUZK_BELLPERSON_PROOF_BYTES]);

/*
 * *proofs = the proofs of a bellperson proof file, the len bytes at data:
 * 192-byte proofs one after another (a proof of several partitions), *n
 * of them (malloc'd: cuzk_free). CUZK_EBADFILE when len is not a positive
 * multiple of 192; a proof that does not decode fails as
 * cuzk_proof_from_bellperson does, the message naming name (the file's
 * path; NULL: "the proofs") and the proof's index. On failure *proofs =
 * NULL and *n = 0.
 */
CUZK_API cuzk_status_t cuzk_proofs_from_bellperson(cuzk_proof_t **proofs, size_t *n,
                                                   const void *data, size_t len, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_PROOF_H */
