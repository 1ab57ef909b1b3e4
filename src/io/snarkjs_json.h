/*
 * snarkjs Groth16 JSON files (FORMATS.md sections 6 and 9):
 * verification_key.json, proof.json and public.json. Readers and writers.
 *
 * Writing. snarkjs writes these files with bfj (`bfj.write(name, obj,
 * {space: 1})`), whose layout is JSON.stringify(obj, null, 1): one value per
 * line, one space of indentation per level, `"key": value`, no newline at
 * the end; except that an empty array comes out as "[", a newline and the
 * closing "]" at the enclosing indentation (JSON.stringify writes "[]"): a
 * public.json without public signals is "[\n]". The formatters below write
 * that layout themselves (jansson's indented output differs), byte for byte.
 * Coordinates are plain decimal values; points are projective with z = 1,
 * infinity [0, 1, 0].
 *
 * Reading (with jansson). Every failure names the file and the JSON path,
 * e.g. "proof.json: pi_b[1][0]: not a decimal string":
 *   - the text is JSON (CUZK_EBADFILE with jansson's line and column) of the
 *     expected shape (CUZK_EBADFILE); unknown keys are ignored, as snarkjs
 *     does;
 *   - protocol = "groth16" (others CUZK_EUNSUPPORTED); curve names BN254 or
 *     BLS12-381, under any name snarkjs accepts ("bn128", "bn254",
 *     "altbn128", "bls12381", case and punctuation ignored; others
 *     CUZK_EUNSUPPORTED) and, when the caller expects a curve, that one
 *     (CUZK_EBADFILE);
 *   - coordinates are decimal strings (CUZK_EBADFILE) below q
 *     (CUZK_ENONCANONICAL); z = 1, or the point is exactly [0, 1, 0]
 *     (CUZK_EBADFILE);
 *   - every point is on its curve (CUZK_ENOTONCURVE) and in the order-r
 *     subgroup (CUZK_ENOTINSUBGROUP). snarkjs' verifier checks proof points
 *     on the curve only; cuzk also checks the subgroup, since the pairing
 *     argument assumes it and a G2 point outside it is cheap to forge;
 *   - verification key: nPublic a non-negative integer, IC has nPublic + 1
 *     points (CUZK_EBADFILE); vk_alphabeta_12, when present, has the
 *     [2][3][2] shape with decimals below q (it is kept, not checked against
 *     e(alpha1, beta2): that needs the pairing, a caller can do it);
 *   - public inputs: decimal strings below r (CUZK_ENONCANONICAL), as many
 *     as the caller expects (CUZK_EBADFILE).
 * Infinity is accepted where it is on the curve (snarkjs accepts it too).
 */
#ifndef CUZK_IO_SNARKJS_JSON_H
#define CUZK_IO_SNARKJS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "ff/bls381_fp12.h"
#include "ff/bn254_fp12.h"
#include "groth16/groth16_key.h"
#include "io/io_output.h"
#include "r1cs/r1cs.h"

/* snarkjs' name of curve: "bn128" or "bls12381" (NULL for none). */
const char *snarkjs_curve_name(r1cs_curve_t curve);

/* The curve a snarkjs "curve" string names (see above), or R1CS_CURVE_NONE. */
r1cs_curve_t snarkjs_curve_from_name(const char *name);

/* ---- verification_key.json ---------------------------------------------- */

typedef struct snarkjs_vk_bn254 {
    bn254_g1_affine_t alpha1;
    bn254_g2_affine_t beta2, gamma2, delta2;
    bn254_fp12_t alphabeta; /* e(alpha1, beta2), snarkjs' vk_alphabeta_12 */
    bn254_g1_affine_t *ic;  /* n_public + 1 points */
} snarkjs_vk_bn254_t;

typedef struct snarkjs_vk_bls381 {
    bls381_g1_affine_t alpha1;
    bls381_g2_affine_t beta2, gamma2, delta2;
    bls381_fp12_t alphabeta;
    bls381_g1_affine_t *ic;
} snarkjs_vk_bls381_t;

/*
 * curve says which member of u is live. ic is allocated by snarkjs_vk_alloc
 * and the reader, and released by snarkjs_vk_free. has_alphabeta says
 * whether alphabeta holds a value (read from the file, or set by the caller
 * before writing). A zero-initialised snarkjs_vk_t holds nothing.
 */
typedef struct snarkjs_vk {
    r1cs_curve_t curve;
    uint32_t n_public;
    bool has_alphabeta;
    union {
        snarkjs_vk_bn254_t bn254;
        snarkjs_vk_bls381_t bls381;
    } u;
} snarkjs_vk_t;

/* Zeroes vk and allocates its IC (n_public + 1 points, uninitialised).
 * CUZK_EINVAL for R1CS_CURVE_NONE or n_public = UINT32_MAX, CUZK_ENOMEM. */
cuzk_status_t snarkjs_vk_alloc(snarkjs_vk_t *vk, r1cs_curve_t curve, uint32_t n_public);

/* Releases IC and zeroes vk. */
void snarkjs_vk_free(snarkjs_vk_t *vk);

/* The Groth16 layer's view of vk (which must have a curve): its points and
 * IC, borrowed from vk (alphabeta is not part of it). Valid while vk is. */
groth16_vk_t snarkjs_vk_groth16(const snarkjs_vk_t *vk);

/* *out = a copy of vk with its own IC (has_alphabeta false), the
 * caller's afterwards (snarkjs_vk_free). CUZK_ENOMEM (out left empty). */
cuzk_status_t snarkjs_vk_from_groth16(snarkjs_vk_t *out, const groth16_vk_t *vk);

/*
 * Reads verification_key.json from path (or from len bytes of text; name
 * stands for the file in messages). expect: the curve the caller needs, or
 * R1CS_CURVE_NONE for either. On success vk is the caller's (snarkjs_vk_free);
 * on failure it is empty.
 */
cuzk_status_t snarkjs_vk_read(snarkjs_vk_t *vk, const char *path, r1cs_curve_t expect, char *err,
                              size_t err_size);
cuzk_status_t snarkjs_vk_parse(snarkjs_vk_t *vk, const char *text, size_t len, const char *name,
                               r1cs_curve_t expect, char *err, size_t err_size);

/*
 * *out = the file snarkjs would write for vk (malloc'd, NUL-terminated,
 * *len bytes without the NUL; free it). vk needs a curve and has_alphabeta
 * (CUZK_EINVAL otherwise); CUZK_ENOMEM. The points are written as they are.
 */
cuzk_status_t snarkjs_vk_format(char **out, size_t *len, const snarkjs_vk_t *vk);

/* Writes snarkjs_vk_format's text: CUZK_EINVAL as above, with a message.
 * The _to forms of this file write onto an open output, whose close reports
 * I/O failures; the plain forms write the file at path alone (io_output.h:
 * whole or not at all). */
cuzk_status_t snarkjs_vk_write_to(io_output_t *out, const snarkjs_vk_t *vk, char *err,
                                  size_t err_size);
cuzk_status_t snarkjs_vk_write(const char *path, const snarkjs_vk_t *vk, char *err,
                               size_t err_size);

/* ---- proof.json --------------------------------------------------------- */

/* proof.json holds a Groth16 proof and nothing else: the layer's own type. */
typedef groth16_proof_t snarkjs_proof_t;

/* As the verification key's functions; a proof owns no memory. */
cuzk_status_t snarkjs_proof_read(snarkjs_proof_t *p, const char *path, r1cs_curve_t expect,
                                 char *err, size_t err_size);
cuzk_status_t snarkjs_proof_parse(snarkjs_proof_t *p, const char *text, size_t len,
                                  const char *name, r1cs_curve_t expect, char *err,
                                  size_t err_size);
cuzk_status_t snarkjs_proof_format(char **out, size_t *len, const snarkjs_proof_t *p);
cuzk_status_t snarkjs_proof_write_to(io_output_t *out, const snarkjs_proof_t *p, char *err,
                                     size_t err_size);
cuzk_status_t snarkjs_proof_write(const char *path, const snarkjs_proof_t *p, char *err,
                                  size_t err_size);

/* ---- public.json -------------------------------------------------------- */

/* The public signals are held in an r1cs_witness_t (n Montgomery-form
 * scalars of one curve); its curve must be given, since the file has none. */
enum { SNARKJS_ANY_COUNT = -1 };

/*
 * Reads public.json over curve (not R1CS_CURVE_NONE) into pub (the
 * caller's afterwards: r1cs_witness_free; empty on failure). expect_n: the
 * number of signals required (the key's nPublic), or SNARKJS_ANY_COUNT.
 */
cuzk_status_t snarkjs_public_read(r1cs_witness_t *pub, const char *path, r1cs_curve_t curve,
                                  int64_t expect_n, char *err, size_t err_size);
cuzk_status_t snarkjs_public_parse(r1cs_witness_t *pub, const char *text, size_t len,
                                   const char *name, r1cs_curve_t curve, int64_t expect_n,
                                   char *err, size_t err_size);
/* pub needs a curve (CUZK_EINVAL); n = 0 is fine. */
cuzk_status_t snarkjs_public_format(char **out, size_t *len, const r1cs_witness_t *pub);
cuzk_status_t snarkjs_public_write_to(io_output_t *out, const r1cs_witness_t *pub, char *err,
                                      size_t err_size);
cuzk_status_t snarkjs_public_write(const char *path, const r1cs_witness_t *pub, char *err,
                                   size_t err_size);

#endif
