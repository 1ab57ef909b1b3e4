#include "r1cs/r1cs.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

const char *r1cs_curve_name(r1cs_curve_t curve)
{
    switch (curve) {
    case R1CS_CURVE_BN254: return "BN254";
    case R1CS_CURVE_BLS12_381: return "BLS12-381";
    case R1CS_CURVE_NONE: break;
    }
    return "none";
}

const r1cs_shape_t *r1cs_shape(const r1cs_t *r)
{
    assert(r->curve == R1CS_CURVE_BN254 || r->curve == R1CS_CURVE_BLS12_381);
    return r->curve == R1CS_CURVE_BN254 ? &r->u.bn254.shape : &r->u.bls381.shape;
}

void r1cs_free(r1cs_t *r)
{
    if (r->curve == R1CS_CURVE_BN254)
        bn254_r1cs_free(&r->u.bn254);
    else if (r->curve == R1CS_CURVE_BLS12_381)
        bls381_r1cs_free(&r->u.bls381);
    memset(r, 0, sizeof(*r));
}

cuzk_status_t r1cs_witness_alloc(r1cs_witness_t *w, r1cs_curve_t curve, uint32_t n)
{
    _Static_assert(sizeof(bn254_fr_t) == sizeof(bls381_fr_t), "both scalar fields are 32 bytes");
    memset(w, 0, sizeof(*w));
    if (curve != R1CS_CURVE_BN254 && curve != R1CS_CURVE_BLS12_381)
        return CUZK_EINVAL;
    void *v = malloc(n ? (size_t)n * sizeof(bn254_fr_t) : 1);
    if (!v)
        return CUZK_ENOMEM;
    w->curve = curve;
    w->n = n;
    if (curve == R1CS_CURVE_BN254)
        w->v.bn254 = v;
    else
        w->v.bls381 = v;
    return CUZK_OK;
}

void r1cs_witness_free(r1cs_witness_t *w)
{
    if (w->curve == R1CS_CURVE_BN254)
        free(w->v.bn254);
    else if (w->curve == R1CS_CURVE_BLS12_381)
        free(w->v.bls381);
    memset(w, 0, sizeof(*w));
}

cuzk_status_t r1cs_check(cuzk_pool_t *pool, const r1cs_t *r, const r1cs_witness_t *w,
                         uint32_t *first_bad)
{
    if (r->curve == R1CS_CURVE_NONE || w->curve != r->curve || w->n != r1cs_shape(r)->n_wires)
        return CUZK_EINVAL;
    if (r->curve == R1CS_CURVE_BN254)
        return bn254_r1cs_check(pool, &r->u.bn254, w->v.bn254, first_bad);
    return bls381_r1cs_check(pool, &r->u.bls381, w->v.bls381, first_bad);
}
