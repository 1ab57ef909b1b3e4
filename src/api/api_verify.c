/* Verification keys and verification (cuzk_verify.h) over the snarkjs and
 * bellperson verifiers of the Groth16 layer. */
#include "api/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/groth16.h"
#include "io/params_file.h"
#include "io/zkey_file.h"
#include "io/io_error.h"
#include "io/io_kind.h"
#include "util/pool.h"

/* One of the two, as convention says. */
struct cuzk_vk {
    cuzk_convention_t convention;
    snarkjs_vk_t snarkjs;
    bp_vk_t bp;
};

static cuzk_status_t vk_new(cuzk_vk_t **out, cuzk_convention_t convention)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return api_fail(CUZK_ENOMEM, "out of memory for the verification key");
    (*out)->convention = convention;
    return CUZK_OK;
}

cuzk_status_t cuzk_vk_from_key(cuzk_vk_t **vk, const cuzk_key_t *key)
{
    if (!vk)
        return api_null("vk");
    *vk = NULL;
    if (!key)
        return api_null("key");
    cuzk_vk_t *v;
    cuzk_status_t s = vk_new(&v, key->convention);
    if (s != CUZK_OK)
        return s;
    if (key->convention == CUZK_CONVENTION_SNARKJS) {
        groth16_vk_t g = groth16_key_vk(&key->file.key);
        s = snarkjs_vk_from_groth16(&v->snarkjs, &g);
    } else {
        v->bp = key->file.params->vk;
        v->bp.ic = malloc(v->bp.n_ic * sizeof *v->bp.ic);
        if (v->bp.ic)
            memcpy(v->bp.ic, key->file.params->vk.ic, v->bp.n_ic * sizeof *v->bp.ic);
        else
            s = CUZK_ENOMEM;
    }
    if (s != CUZK_OK) {
        free(v);
        return api_fail(s, "out of memory for the verification key");
    }
    *vk = v;
    return CUZK_OK;
}

/* *c = the convention whose verification key a sniffed file of kind is;
 * CUZK_EBADFILE naming name when it is none. */
static cuzk_status_t vk_convention_of_kind(cuzk_convention_t *c, io_kind_t kind, const char *name)
{
    if (kind == IO_KIND_JSON_VK || kind == IO_KIND_BP_VK) {
        *c = kind == IO_KIND_JSON_VK ? CUZK_CONVENTION_SNARKJS : CUZK_CONVENTION_BELLPERSON;
        return CUZK_OK;
    }
    return api_fail(
        CUZK_EBADFILE,
        "%s: %s, not a verification key (snarkjs verification_key.json or bellperson .vk)", name,
        io_kind_name(kind));
}

/* Reads the key of convention from path, or from (data, len) when data is
 * not NULL. */
static cuzk_status_t vk_read(cuzk_vk_t **vk, cuzk_convention_t convention, const char *path,
                             const void *data, size_t len, const char *name)
{
    cuzk_vk_t *v;
    cuzk_status_t s = vk_new(&v, convention);
    if (s != CUZK_OK)
        return s;
    char err[IO_ERR_MAX] = "";
    if (convention == CUZK_CONVENTION_SNARKJS)
        s = data ? snarkjs_vk_parse(&v->snarkjs, data, len, name, R1CS_CURVE_NONE, err, sizeof err)
                 : snarkjs_vk_read(&v->snarkjs, path, R1CS_CURVE_NONE, err, sizeof err);
    else
        s = data ? bp_vk_parse(&v->bp, data, len, name, err, sizeof err)
                 : bp_vk_read(&v->bp, path, err, sizeof err);
    if (s != CUZK_OK) {
        free(v);
        return api_fail_err(s, err);
    }
    *vk = v;
    return CUZK_OK;
}

cuzk_status_t cuzk_vk_load(cuzk_vk_t **vk, const char *path)
{
    if (!vk)
        return api_null("vk");
    *vk = NULL;
    if (!path)
        return api_null("path");
    char err[IO_ERR_MAX] = "";
    io_kind_t kind;
    cuzk_status_t s = io_kind_of_file(&kind, path, err, sizeof err);
    if (s != CUZK_OK)
        return api_fail_err(s, err);
    cuzk_convention_t convention = CUZK_CONVENTION_SNARKJS;
    if ((s = vk_convention_of_kind(&convention, kind, path)) != CUZK_OK)
        return s;
    return vk_read(vk, convention, path, NULL, 0, path);
}

/* The checks both readers from memory make; *name NULL gets a default. */
static cuzk_status_t vk_memory_args(cuzk_vk_t **vk, const void *data, const char **name)
{
    if (!vk)
        return api_null("vk");
    *vk = NULL;
    if (!data)
        return api_null("data");
    if (!*name)
        *name = "the verification key";
    return CUZK_OK;
}

cuzk_status_t cuzk_vk_from_memory(cuzk_vk_t **vk, const void *data, size_t len, const char *name)
{
    cuzk_status_t s = vk_memory_args(vk, data, &name);
    if (s != CUZK_OK)
        return s;
    cuzk_convention_t convention = CUZK_CONVENTION_SNARKJS;
    s = vk_convention_of_kind(&convention, io_kind_sniff(data, len), name);
    if (s != CUZK_OK)
        return s;
    return vk_read(vk, convention, NULL, data, len, name);
}

cuzk_status_t cuzk_vk_from_memory_as(cuzk_vk_t **vk, const void *data, size_t len, const char *name,
                                     cuzk_convention_t convention)
{
    cuzk_status_t s = vk_memory_args(vk, data, &name);
    if (s != CUZK_OK)
        return s;
    if (convention == CUZK_CONVENTION_BELLPERSON)
        len = (size_t)bp_vk_extent(data, len);
    else if (convention != CUZK_CONVENTION_SNARKJS)
        return api_fail(CUZK_EINVAL, "convention %d is neither snarkjs nor bellperson",
                        (int)convention);
    return vk_read(vk, convention, NULL, data, len, name);
}

void cuzk_vk_free(cuzk_vk_t *vk)
{
    if (!vk)
        return;
    snarkjs_vk_free(&vk->snarkjs);
    bp_vk_free(&vk->bp);
    free(vk);
}

cuzk_curve_t cuzk_vk_curve(const cuzk_vk_t *vk)
{
    if (!vk)
        return CUZK_CURVE_NONE;
    if (vk->convention == CUZK_CONVENTION_BELLPERSON)
        return CUZK_CURVE_BLS12_381;
    return vk->snarkjs.curve == R1CS_CURVE_BN254 ? CUZK_CURVE_BN254 : CUZK_CURVE_BLS12_381;
}

cuzk_convention_t cuzk_vk_convention(const cuzk_vk_t *vk)
{
    return vk ? vk->convention : CUZK_CONVENTION_SNARKJS;
}

uint64_t cuzk_vk_public_inputs(const cuzk_vk_t *vk)
{
    if (!vk)
        return 0;
    return vk->convention == CUZK_CONVENTION_SNARKJS ? vk->snarkjs.n_public
                                                     : (uint64_t)vk->bp.n_ic - 1;
}

/* Proof i under a snarkjs key, checked against vk's curve and counts. */
static cuzk_status_t verify_snarkjs(bool *valid, const cuzk_vk_t *vk, const cuzk_proof_t *proof,
                                    const cuzk_scalar_t *pub, const char *what)
{
    snarkjs_proof_t p;
    cuzk_status_t s = api_proof_to_snarkjs(&p, proof, what);
    if (s != CUZK_OK)
        return s;
    r1cs_witness_t w = {0};
    if ((s = api_scalars_to_witness(&w, vk->snarkjs.curve, pub, vk->snarkjs.n_public, "pub")) !=
        CUZK_OK)
        return s;
    char err[IO_ERR_MAX] = "";
    groth16_vk_t g = snarkjs_vk_groth16(&vk->snarkjs);
    s = groth16_verify(valid, &g, &w, &p, pool_default(), err, sizeof err);
    r1cs_witness_free(&w);
    return s == CUZK_OK ? CUZK_OK : api_fail_err(s, err);
}

/* The n proofs under a bellperson key at once. */
static cuzk_status_t verify_bp(bool *valid, const cuzk_vk_t *vk, const cuzk_proof_t *proofs,
                               size_t n, const cuzk_scalar_t *pub)
{
    size_t k = vk->bp.n_ic - 1;
    bp_proof_t *p = malloc(n * sizeof *p);
    r1cs_witness_t w = {0};
    cuzk_status_t s = p ? CUZK_OK : api_fail(CUZK_ENOMEM, "out of memory for %zu proofs", n);
    for (size_t i = 0; s == CUZK_OK && i < n; i++) {
        char what[48];
        snprintf(what, sizeof what, n == 1 ? "the proof" : "proof %zu", i);
        s = api_proof_to_bp(&p[i], &proofs[i], what);
    }
    if (s == CUZK_OK)
        s = api_scalars_to_witness(&w, R1CS_CURVE_BLS12_381, pub, n * k, "pub");
    char err[IO_ERR_MAX] = "";
    if (s == CUZK_OK) {
        s = groth16_bp_verify(valid, &vk->bp, w.v.bls381, p, n, NULL, pool_default(), err,
                              sizeof err);
        if (s != CUZK_OK)
            api_fail_err(s, err);
    }
    r1cs_witness_free(&w);
    free(p);
    return s;
}

static cuzk_status_t verify_args(int *valid, const cuzk_vk_t *vk, const cuzk_proof_t *proofs,
                                 size_t n_proofs, const cuzk_scalar_t *pub, size_t n_pub)
{
    if (!valid)
        return api_null("valid");
    if (!vk)
        return api_null("vk");
    if (!proofs)
        return api_null(n_proofs == 1 ? "proof" : "proofs");
    if (!pub && n_pub)
        return api_null("pub");
    if (n_proofs == 0)
        return api_fail(CUZK_EINVAL, "no proofs to verify (n_proofs = 0)");
    cuzk_curve_t curve = cuzk_vk_curve(vk);
    for (size_t i = 0; i < n_proofs; i++)
        if (proofs[i].curve != curve) {
            char what[48];
            snprintf(what, sizeof what, n_proofs == 1 ? "the proof" : "proof %zu", i);
            return api_fail(CUZK_EINVAL, "%s is over %s, the verification key over %s", what,
                            cuzk_curve_name(proofs[i].curve), cuzk_curve_name(curve));
        }
    return CUZK_OK;
}

cuzk_status_t cuzk_verify(int *valid, const cuzk_vk_t *vk, const cuzk_proof_t *proof,
                          const cuzk_scalar_t *pub, size_t n)
{
    cuzk_status_t s = verify_args(valid, vk, proof, 1, pub, n);
    if (s != CUZK_OK)
        return s;
    if (n != cuzk_vk_public_inputs(vk))
        return api_fail(CUZK_EINVAL, "%zu public inputs given, the verification key has %llu", n,
                        (unsigned long long)cuzk_vk_public_inputs(vk));
    bool ok = false;
    s = vk->convention == CUZK_CONVENTION_SNARKJS ? verify_snarkjs(&ok, vk, proof, pub, "the proof")
                                                  : verify_bp(&ok, vk, proof, 1, pub);
    if (s == CUZK_OK)
        *valid = ok;
    return s;
}

cuzk_status_t cuzk_verify_batch(int *valid, const cuzk_vk_t *vk, const cuzk_proof_t *proofs,
                                size_t n_proofs, const cuzk_scalar_t *pub)
{
    if (!vk)
        return api_null("vk");
    cuzk_status_t s = verify_args(valid, vk, proofs, n_proofs, pub, cuzk_vk_public_inputs(vk));
    if (s != CUZK_OK)
        return s;
    bool ok = true;
    if (vk->convention == CUZK_CONVENTION_BELLPERSON) {
        s = verify_bp(&ok, vk, proofs, n_proofs, pub);
    } else {
        size_t k = vk->snarkjs.n_public;
        for (size_t i = 0; s == CUZK_OK && i < n_proofs; i++) {
            char what[48];
            snprintf(what, sizeof what, "proof %zu", i);
            bool one = false;
            s = verify_snarkjs(&one, vk, &proofs[i], pub ? pub + i * k : NULL, what);
            ok = ok && one;
        }
    }
    if (s == CUZK_OK)
        *valid = ok;
    return s;
}
