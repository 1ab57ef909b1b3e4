/*
 * What the files of the public API (src/api, include/cuzk_*.h) share: the
 * calling thread's error message, the key handle's insides, and the
 * conversions between the public value types (cuzk_proof_t, cuzk_scalar_t)
 * and the internal ones of the Groth16 and format layers. Nothing outside
 * src/api includes it.
 */
#ifndef CUZK_API_API_H
#define CUZK_API_API_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk.h"
#include "io/asgn_file.h"
#include "io/key_file.h"
#include "io/params_file.h"
#include "io/snarkjs_json.h"
#include "io/zkey_file.h"
#include "r1cs/r1cs.h"

/* Sets the calling thread's message (printf-style, one line) and returns
 * status: the way every public function fails. */
cuzk_status_t api_fail(cuzk_status_t status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Keeps the message a lower layer wrote into err (IO_ERR_MAX bytes) as the
 * thread's, with status; a generic one when err is empty. */
cuzk_status_t api_fail_err(cuzk_status_t status, const char *err);

/* CUZK_EINVAL naming the argument when p is NULL: `if (!p) return api_null("key")`. */
cuzk_status_t api_null(const char *what);

/* The internal curve of c (R1CS_CURVE_NONE for an unknown value). */
r1cs_curve_t api_curve(cuzk_curve_t c);

/* A loaded proving key: the key file (io/key_file.h) and its convention
 * (snarkjs for a .zkey or a cache of one, bellperson otherwise). */
struct cuzk_key {
    cuzk_convention_t convention;
    key_file_t file;
};

/* The most threads a prover or an engine takes. */
enum { API_MAX_THREADS = 4096 };

/* A prover (api_prover.c): the key it was made for, where its proofs run
 * (engine/engine_accel.h) and its own pool (NULL: the process's). */
struct engine_accel;
struct pool;
struct cuzk_prover {
    const cuzk_key_t *key;
    struct engine_accel *accel;
    struct pool *pool;
};

/* ---- conversions (api_proof.c) ------------------------------------------- */

/* The internal proof of a public one, every point checked (canonical, on
 * the curve, subgroup); what names the proof in messages. */
cuzk_status_t api_proof_to_snarkjs(snarkjs_proof_t *out, const cuzk_proof_t *p, const char *what);
void api_proof_from_snarkjs(cuzk_proof_t *out, const snarkjs_proof_t *p);
cuzk_status_t api_proof_to_bp(bp_proof_t *out, const cuzk_proof_t *p, const char *what);
void api_proof_from_bp(cuzk_proof_t *out, const bp_proof_t *p);

/* Canonical scalars <-> Montgomery-form values of a witness's curve.
 * to_internal: w allocated with n values (r1cs_witness_free), CUZK_ENONCANONICAL
 * naming what[index] for a value >= r. */
cuzk_status_t api_scalars_to_witness(r1cs_witness_t *w, r1cs_curve_t curve, const cuzk_scalar_t *s,
                                     size_t n, const char *what);
void api_scalars_from_witness(cuzk_scalar_t *out, const r1cs_witness_t *w);

/* ---- assignments (api_prove.c) ------------------------------------------- */

/* Checks what asgn_file_parse checks of a file, for an assignment in
 * memory: curve, counts, pointers, values below r (on pool's threads),
 * inputs[0] = 1, bitmap bits above the counts clear. */
cuzk_status_t api_asgn_check(const cuzk_assignment_t *a, struct pool *pool);

/* The asgn_t view of a checked public assignment: the same arrays. */
void api_asgn_view(asgn_t *out, const cuzk_assignment_t *a);

#endif
