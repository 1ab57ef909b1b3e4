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

r1cs_gen_params_t r1cs_gen_porep32(uint32_t n_constraints)
{
    r1cs_gen_params_t p = {n_constraints, 328, 2.4, 1.0, 2.2, 0.9, 0.25};
    if (p.n_public > n_constraints / 2)
        p.n_public = n_constraints / 2;
    return p;
}

bool r1cs_gen_params_are_valid(const r1cs_gen_params_t *p)
{
    /* Written so that NaN fails every range. */
    return p->n_constraints >= 2 && p->n_constraints < UINT32_MAX &&
           p->n_public <= p->n_constraints / 2 && p->nnz_a >= 0 && p->nnz_a <= 64 &&
           p->nnz_b >= 0 && p->nnz_b <= 64 && p->nnz_c >= 1 && p->nnz_c <= 64 && p->bits >= 0 &&
           p->bits <= 1 && p->b_share > 0 && p->b_share <= 1;
}

cuzk_status_t r1cs_generate(r1cs_t *r, r1cs_witness_t *w, r1cs_curve_t curve,
                            const r1cs_gen_params_t *p, cuzk_rng_t *rng)
{
    memset(r, 0, sizeof(*r));
    memset(w, 0, sizeof(*w));
    if (curve == R1CS_CURVE_NONE || !r1cs_gen_params_are_valid(p))
        return CUZK_EINVAL;
    cuzk_status_t s = r1cs_witness_alloc(w, curve, p->n_constraints + 1);
    if (s != CUZK_OK)
        return s;
    if (curve == R1CS_CURVE_BN254)
        s = bn254_r1cs_generate(&r->u.bn254, w->v.bn254, p, rng);
    else
        s = bls381_r1cs_generate(&r->u.bls381, w->v.bls381, p, rng);
    if (s != CUZK_OK) {
        r1cs_witness_free(w);
        return s;
    }
    r->curve = curve;
    return CUZK_OK;
}
