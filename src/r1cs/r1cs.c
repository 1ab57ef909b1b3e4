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

cuzk_status_t r1cs_check(pool_t *pool, const r1cs_t *r, const r1cs_witness_t *w,
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
                            const r1cs_gen_params_t *p, rng_t *rng)
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

bool r1ix_init(r1cs_ix_t *ix, r1cs_curve_t curve, const r1cs_gen_params_t *p, uint64_t seed)
{
    double extra[R1IX_MATRICES] = {p->nnz_a, p->nnz_b, p->nnz_c - 1.0};
    if (curve == R1CS_CURVE_NONE || !r1cs_gen_params_are_valid(p) || p->nnz_a < 1.0)
        return false;
    for (int m = 0; m < R1IX_MATRICES; m++)
        if (extra[m] > R1IX_MAX_NNZ)
            return false;
    memset(ix, 0, sizeof *ix);
    ix->curve = curve;
    ix->seed = seed;
    if (curve == R1CS_CURVE_BN254) {
        memcpy(ix->modulus, bn254_fr_MODULUS, sizeof ix->modulus);
        memcpy(ix->one, bn254_fr_ONE.l, sizeof ix->one);
    } else {
        memcpy(ix->modulus, bls381_fr_MODULUS, sizeof ix->modulus);
        memcpy(ix->one, bls381_fr_ONE.l, sizeof ix->one);
    }
    ix->top_bits = 64;
    while (!(ix->modulus[3] >> (ix->top_bits - 1)))
        ix->top_bits--;
    uint32_t n = p->n_constraints;
    ix->n_rows = n;
    ix->n_cols = n + 1;
    ix->n_public = p->n_public;
    ix->n_priv = n - p->n_public;
    uint32_t b_priv = (uint32_t)(p->b_share * ix->n_priv);
    ix->log2p = 1;
    while (((uint64_t)1 << ix->log2p) < n)
        ix->log2p++;
    ix->shift = (ix->log2p + 1) / 2;
    /* A over every wire (its first term, private wire j, on top: A's nnz
     * counts it, so the random slots take one less), B over ONE, the
     * inputs and b_share of the private wires, C over all but ONE. */
    extra[R1IX_A] = p->nnz_a - 1.0;
    uint32_t lo[R1IX_MATRICES] = {0, 0, 1};
    uint32_t span[R1IX_MATRICES] = {n + 1, 1 + p->n_public + (b_priv ? b_priv : 1), n};
    for (int m = 0; m < R1IX_MATRICES; m++) {
        ix->lo[m] = lo[m];
        ix->span[m] = span[m];
        ix->base[m] = (uint32_t)extra[m];
        ix->frac[m] = (uint32_t)((extra[m] - (double)ix->base[m]) * 4294967296.0);
        for (int t = 0; t < R1IX_SLOTS; t++) {
            r1ix_perm_t *q = &ix->perm[m][t];
            for (int r = 0; r < R1IX_ROUNDS; r++) {
                uint64_t k = ((uint64_t)m * R1IX_SLOTS + (uint64_t)t) * R1IX_ROUNDS + (uint64_t)r;
                uint64_t a = r1ix_hash(seed, R1IX_H_PERM, k, 0) | 1, inv = a;
                for (int it = 0; it < 6; it++) /* Newton: a·inv = 1 mod 2^64 */
                    inv *= 2 - a * inv;
                q->mul[r] = a;
                q->inv[r] = inv;
                q->add[r] = r1ix_hash(seed, R1IX_H_PERM, k, 1);
            }
        }
    }
    ix->bits = p->bits >= 1.0 ? UINT32_MAX : (uint32_t)(p->bits * 4294967296.0);
    return true;
}

cuzk_status_t r1cs_generate_indexed(r1cs_t *r, r1cs_witness_t *w, const r1cs_ix_t *ix)
{
    memset(r, 0, sizeof(*r));
    memset(w, 0, sizeof(*w));
    cuzk_status_t s = r1cs_witness_alloc(w, ix->curve, ix->n_cols);
    if (s != CUZK_OK)
        return s;
    if (ix->curve == R1CS_CURVE_BN254)
        s = bn254_r1cs_generate_indexed(&r->u.bn254, w->v.bn254, ix);
    else
        s = bls381_r1cs_generate_indexed(&r->u.bls381, w->v.bls381, ix);
    if (s != CUZK_OK) {
        r1cs_witness_free(w);
        return s;
    }
    r->curve = ix->curve;
    return CUZK_OK;
}
