/* cuzk_proof_t and its encodings (cuzk_proof.h), and the conversions to and
 * from the internal proof and scalar types. */
#include "api/api.h"

#include <stdlib.h>
#include <string.h>

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "io/io_error.h"

/*
 * One coordinate to and from its CUZK_COORD_BYTES big-endian slot, and one
 * point of each group, for one curve: NAME the curve's prefix (bn254,
 * bls381), FPB the bytes of its base field element.
 */
#define API_POINT_CODEC(NAME, FPB)                                                                 \
    static cuzk_status_t NAME##_coord_get(NAME##_fp_t *r, const unsigned char *in)                 \
    {                                                                                              \
        return NAME##_fp_from_bytes_be(r, in, CUZK_COORD_BYTES);                                   \
    }                                                                                              \
    static void NAME##_coord_put(unsigned char *out, const NAME##_fp_t *a)                         \
    {                                                                                              \
        memset(out, 0, CUZK_COORD_BYTES - (FPB));                                                  \
        NAME##_fp_to_bytes_be(out + CUZK_COORD_BYTES - (FPB), a);                                  \
    }                                                                                              \
    static bool NAME##_zero(const unsigned char *in, size_t n)                                     \
    {                                                                                              \
        for (size_t i = 0; i < n; i++)                                                             \
            if (in[i])                                                                             \
                return false;                                                                      \
        return true;                                                                               \
    }                                                                                              \
    static cuzk_status_t NAME##_g1_get(NAME##_g1_affine_t *p, const unsigned char *in,             \
                                       const char *what, const char *el)                           \
    {                                                                                              \
        if (NAME##_zero(in, CUZK_G1_BYTES)) {                                                      \
            NAME##_g1_affine_set_infinity(p);                                                      \
            return CUZK_OK;                                                                        \
        }                                                                                          \
        if (NAME##_coord_get(&p->x, in) != CUZK_OK ||                                              \
            NAME##_coord_get(&p->y, in + CUZK_COORD_BYTES) != CUZK_OK)                             \
            return api_fail(CUZK_ENONCANONICAL, "%s: %s: a coordinate is not below q", what, el);  \
        if (!NAME##_g1_affine_is_on_curve(p))                                                      \
            return api_fail(CUZK_ENOTONCURVE, "%s: %s is not on the curve", what, el);             \
        if (!NAME##_g1_affine_is_in_subgroup_vartime(p))                                           \
            return api_fail(CUZK_ENOTINSUBGROUP, "%s: %s is not in the prime-order subgroup",      \
                            what, el);                                                             \
        return CUZK_OK;                                                                            \
    }                                                                                              \
    static cuzk_status_t NAME##_g2_get(NAME##_g2_affine_t *p, const unsigned char *in,             \
                                       const char *what, const char *el)                           \
    {                                                                                              \
        if (NAME##_zero(in, CUZK_G2_BYTES)) {                                                      \
            NAME##_g2_affine_set_infinity(p);                                                      \
            return CUZK_OK;                                                                        \
        }                                                                                          \
        if (NAME##_coord_get(&p->x.c0, in) != CUZK_OK ||                                           \
            NAME##_coord_get(&p->x.c1, in + CUZK_COORD_BYTES) != CUZK_OK ||                        \
            NAME##_coord_get(&p->y.c0, in + 2 * CUZK_COORD_BYTES) != CUZK_OK ||                    \
            NAME##_coord_get(&p->y.c1, in + 3 * CUZK_COORD_BYTES) != CUZK_OK)                      \
            return api_fail(CUZK_ENONCANONICAL, "%s: %s: a coordinate is not below q", what, el);  \
        if (!NAME##_g2_affine_is_on_curve(p))                                                      \
            return api_fail(CUZK_ENOTONCURVE, "%s: %s is not on the curve", what, el);             \
        if (!NAME##_g2_affine_is_in_subgroup_vartime(p))                                           \
            return api_fail(CUZK_ENOTINSUBGROUP, "%s: %s is not in the prime-order subgroup",      \
                            what, el);                                                             \
        return CUZK_OK;                                                                            \
    }                                                                                              \
    static void NAME##_g1_put(unsigned char *out, const NAME##_g1_affine_t *p)                     \
    {                                                                                              \
        if (NAME##_g1_affine_is_infinity(p)) {                                                     \
            memset(out, 0, CUZK_G1_BYTES);                                                         \
            return;                                                                                \
        }                                                                                          \
        NAME##_coord_put(out, &p->x);                                                              \
        NAME##_coord_put(out + CUZK_COORD_BYTES, &p->y);                                           \
    }                                                                                              \
    static void NAME##_g2_put(unsigned char *out, const NAME##_g2_affine_t *p)                     \
    {                                                                                              \
        if (NAME##_g2_affine_is_infinity(p)) {                                                     \
            memset(out, 0, CUZK_G2_BYTES);                                                         \
            return;                                                                                \
        }                                                                                          \
        NAME##_coord_put(out, &p->x.c0);                                                           \
        NAME##_coord_put(out + CUZK_COORD_BYTES, &p->x.c1);                                        \
        NAME##_coord_put(out + 2 * CUZK_COORD_BYTES, &p->y.c0);                                    \
        NAME##_coord_put(out + 3 * CUZK_COORD_BYTES, &p->y.c1);                                    \
    }

API_POINT_CODEC(bn254, 32)
API_POINT_CODEC(bls381, 48)

cuzk_status_t api_proof_to_snarkjs(snarkjs_proof_t *out, const cuzk_proof_t *p, const char *what)
{
    memset(out, 0, sizeof *out);
    out->curve = api_curve(p->curve);
    cuzk_status_t s;
    if (out->curve == R1CS_CURVE_BN254) {
        if ((s = bn254_g1_get(&out->u.bn254.a, p->a, what, "A")) != CUZK_OK ||
            (s = bn254_g2_get(&out->u.bn254.b, p->b, what, "B")) != CUZK_OK ||
            (s = bn254_g1_get(&out->u.bn254.c, p->c, what, "C")) != CUZK_OK)
            return s;
    } else if (out->curve == R1CS_CURVE_BLS12_381) {
        if ((s = bls381_g1_get(&out->u.bls381.a, p->a, what, "A")) != CUZK_OK ||
            (s = bls381_g2_get(&out->u.bls381.b, p->b, what, "B")) != CUZK_OK ||
            (s = bls381_g1_get(&out->u.bls381.c, p->c, what, "C")) != CUZK_OK)
            return s;
    } else {
        return api_fail(CUZK_EINVAL, "%s: curve %d is neither BN254 nor BLS12-381", what,
                        (int)p->curve);
    }
    return CUZK_OK;
}

void api_proof_from_snarkjs(cuzk_proof_t *out, const snarkjs_proof_t *p)
{
    memset(out, 0, sizeof *out);
    if (p->curve == R1CS_CURVE_BN254) {
        out->curve = CUZK_CURVE_BN254;
        bn254_g1_put(out->a, &p->u.bn254.a);
        bn254_g2_put(out->b, &p->u.bn254.b);
        bn254_g1_put(out->c, &p->u.bn254.c);
    } else {
        out->curve = CUZK_CURVE_BLS12_381;
        bls381_g1_put(out->a, &p->u.bls381.a);
        bls381_g2_put(out->b, &p->u.bls381.b);
        bls381_g1_put(out->c, &p->u.bls381.c);
    }
}

cuzk_status_t api_proof_to_bp(bp_proof_t *out, const cuzk_proof_t *p, const char *what)
{
    if (p->curve != CUZK_CURVE_BLS12_381)
        return api_fail(CUZK_EINVAL, "%s is a %s proof; bellperson proofs are BLS12-381", what,
                        cuzk_curve_name(p->curve));
    snarkjs_proof_t sp;
    cuzk_status_t s = api_proof_to_snarkjs(&sp, p, what);
    if (s != CUZK_OK)
        return s;
    out->a = sp.u.bls381.a;
    out->b = sp.u.bls381.b;
    out->c = sp.u.bls381.c;
    return CUZK_OK;
}

void api_proof_from_bp(cuzk_proof_t *out, const bp_proof_t *p)
{
    snarkjs_proof_t sp = {.curve = R1CS_CURVE_BLS12_381};
    sp.u.bls381.a = p->a;
    sp.u.bls381.b = p->b;
    sp.u.bls381.c = p->c;
    api_proof_from_snarkjs(out, &sp);
}

/* ---- the public encoders ---------------------------------------------------- */

cuzk_status_t cuzk_proof_to_snarkjs_json(char **json, const cuzk_proof_t *proof)
{
    if (!json)
        return api_null("json");
    *json = NULL;
    if (!proof)
        return api_null("proof");
    snarkjs_proof_t p;
    cuzk_status_t s = api_proof_to_snarkjs(&p, proof, "the proof");
    if (s != CUZK_OK)
        return api_fail(CUZK_EINVAL, "%s", cuzk_last_error());
    size_t len;
    if (snarkjs_proof_format(json, &len, &p) != CUZK_OK)
        return api_fail(CUZK_ENOMEM, "out of memory for proof.json");
    return CUZK_OK;
}

cuzk_status_t cuzk_proof_from_snarkjs_json(cuzk_proof_t *proof, const char *json, size_t len)
{
    return cuzk_proof_from_snarkjs_json_named(proof, json, len, NULL);
}

cuzk_status_t cuzk_proof_from_snarkjs_json_named(cuzk_proof_t *proof, const char *json, size_t len,
                                                 const char *name)
{
    if (!proof)
        return api_null("proof");
    if (!json)
        return api_null("json");
    char err[IO_ERR_MAX] = "";
    snarkjs_proof_t p;
    cuzk_status_t s = snarkjs_proof_parse(&p, json, len, name ? name : "proof.json",
                                          R1CS_CURVE_NONE, err, sizeof err);
    if (s != CUZK_OK)
        return api_fail_err(s, err);
    api_proof_from_snarkjs(proof, &p);
    return CUZK_OK;
}

cuzk_status_t cuzk_public_to_snarkjs_json(char **json, cuzk_curve_t curve, const cuzk_scalar_t *pub,
                                          size_t n)
{
    if (!json)
        return api_null("json");
    *json = NULL;
    if (!pub && n)
        return api_null("pub");
    r1cs_curve_t c = api_curve(curve);
    if (c == R1CS_CURVE_NONE)
        return api_fail(CUZK_EINVAL, "curve %d is neither BN254 nor BLS12-381", (int)curve);
    r1cs_witness_t w = {0};
    cuzk_status_t s = api_scalars_to_witness(&w, c, pub, n, "pub");
    if (s != CUZK_OK)
        return s;
    size_t len;
    s = snarkjs_public_format(json, &len, &w);
    r1cs_witness_free(&w);
    return s == CUZK_OK ? CUZK_OK : api_fail(CUZK_ENOMEM, "out of memory for public.json");
}

cuzk_status_t cuzk_public_from_snarkjs_json(cuzk_scalar_t **pub, size_t *n, cuzk_curve_t curve,
                                            const char *json, size_t len)
{
    return cuzk_public_from_snarkjs_json_named(pub, n, curve, CUZK_PUBLIC_ANY_COUNT, json, len,
                                               NULL);
}

cuzk_status_t cuzk_public_from_snarkjs_json_named(cuzk_scalar_t **pub, size_t *n,
                                                  cuzk_curve_t curve, size_t expect_n,
                                                  const char *json, size_t len, const char *name)
{
    if (!pub)
        return api_null("pub");
    *pub = NULL;
    if (!n)
        return api_null("n");
    *n = 0;
    if (!json)
        return api_null("json");
    r1cs_curve_t c = api_curve(curve);
    if (c == R1CS_CURVE_NONE)
        return api_fail(CUZK_EINVAL, "curve %d is neither BN254 nor BLS12-381", (int)curve);
    if (expect_n != CUZK_PUBLIC_ANY_COUNT && expect_n > UINT32_MAX)
        return api_fail(CUZK_EINVAL, "expect_n = %zu: more public inputs than a key can have",
                        expect_n);
    char err[IO_ERR_MAX] = "";
    r1cs_witness_t w = {0};
    cuzk_status_t s = snarkjs_public_parse(
        &w, json, len, name ? name : "public.json", c,
        expect_n == CUZK_PUBLIC_ANY_COUNT ? SNARKJS_ANY_COUNT : (int64_t)expect_n, err, sizeof err);
    if (s != CUZK_OK)
        return api_fail_err(s, err);
    if (w.n) {
        *pub = malloc(w.n * sizeof **pub);
        if (!*pub) {
            r1cs_witness_free(&w);
            return api_fail(CUZK_ENOMEM, "out of memory for %u public inputs", w.n);
        }
        api_scalars_from_witness(*pub, &w);
    }
    *n = w.n;
    r1cs_witness_free(&w);
    return CUZK_OK;
}

cuzk_status_t cuzk_proof_to_bellperson(unsigned char out[CUZK_BELLPERSON_PROOF_BYTES],
                                       const cuzk_proof_t *proof)
{
    if (!out)
        return api_null("out");
    if (!proof)
        return api_null("proof");
    bp_proof_t p;
    cuzk_status_t s = api_proof_to_bp(&p, proof, "the proof");
    if (s != CUZK_OK)
        return api_fail(CUZK_EINVAL, "%s", cuzk_last_error());
    if (bls381_g1_affine_is_infinity(&p.a) || bls381_g2_affine_is_infinity(&p.b) ||
        bls381_g1_affine_is_infinity(&p.c))
        return api_fail(CUZK_EINVAL,
                        "the proof has a point at infinity, which bellperson's bytes cannot hold");
    bp_proof_encode(out, &p);
    return CUZK_OK;
}

cuzk_status_t cuzk_proof_from_bellperson(cuzk_proof_t *proof,
                                         const unsigned char in[CUZK_BELLPERSON_PROOF_BYTES])
{
    if (!proof)
        return api_null("proof");
    if (!in)
        return api_null("in");
    char err[IO_ERR_MAX] = "";
    bp_proof_t p;
    cuzk_status_t s = bp_proof_decode(&p, in, "the proof", 0, err, sizeof err);
    if (s != CUZK_OK)
        return api_fail_err(s, err);
    api_proof_from_bp(proof, &p);
    return CUZK_OK;
}

cuzk_status_t cuzk_proofs_from_bellperson(cuzk_proof_t **proofs, size_t *n, const void *data,
                                          size_t len, const char *name)
{
    if (!proofs)
        return api_null("proofs");
    *proofs = NULL;
    if (!n)
        return api_null("n");
    *n = 0;
    if (!data)
        return api_null("data");
    char err[IO_ERR_MAX] = "";
    bp_proof_t *p;
    size_t count;
    cuzk_status_t s =
        bp_proofs_parse(&p, &count, data, len, name ? name : "the proofs", err, sizeof err);
    if (s != CUZK_OK)
        return api_fail_err(s, err);
    *proofs = malloc(count * sizeof **proofs);
    if (!*proofs) {
        free(p);
        return api_fail(CUZK_ENOMEM, "out of memory for %zu proofs", count);
    }
    for (size_t i = 0; i < count; i++)
        api_proof_from_bp(&(*proofs)[i], &p[i]);
    free(p);
    *n = count;
    return CUZK_OK;
}
