/* Groth16 on bellperson's files: BLS12-381 .params and .vk keys and
 * assignments over the bellperson-convention prover (params_file.h). */
#include <stdlib.h>
#include <string.h>

#include "groth16/bls381_groth16.h"
#include "groth16/bn254_groth16.h"
#include "io/io_error.h"
#include "io/params_file.h"

/* The verifier's view of vk (n_ic >= 1). */
static bls381_groth16_vk_t bp_vk_of(const bp_vk_t *vk)
{
    bls381_groth16_vk_t k = {vk->alpha1, vk->beta2, vk->gamma2, vk->delta2, vk->ic, vk->n_ic - 1};
    return k;
}

cuzk_status_t groth16_bp_prove(bp_proof_t *proof, const bp_params_t *p, const asgn_t *a,
                               const groth16_prove_opts_t *opts, groth16_timings_t *t, pool_t *pool,
                               char *err, size_t err_size)
{
    memset(proof, 0, sizeof *proof);
    if (a->curve != R1CS_CURVE_BLS12_381) {
        if (t)
            memset(t, 0, sizeof *t);
        return io_fail(err, err_size, CUZK_EINVAL,
                       "the assignment is over %s but bellperson parameters are over BLS12-381",
                       r1cs_curve_name(a->curve));
    }
    groth16_key_t key = bp_params_groth16_key(p);
    groth16_asgn_t as = asgn_groth16(a);
    groth16_input_t in = {.asgn = &as};
    groth16_proof_t pr;
    r1cs_witness_t pub;
    cuzk_status_t s = groth16_prove_key(&pr, &pub, &key, &in, opts, t, pool, err, err_size);
    if (s != CUZK_OK)
        return s;
    r1cs_witness_free(&pub);
    proof->a = pr.u.bls381.a;
    proof->b = pr.u.bls381.b;
    proof->c = pr.u.bls381.c;
    return CUZK_OK;
}

cuzk_status_t groth16_bp_verify(bool *valid, const bp_vk_t *vk, const bls381_fr_t *in,
                                const bp_proof_t *proofs, size_t n, rng_t *rng, pool_t *pool,
                                char *err, size_t err_size)
{
    bls381_groth16_vk_t k = bp_vk_of(vk);
    bls381_groth16_proof_t *pr = malloc(n * sizeof *pr);
    if (!pr)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for %zu proofs", n);
    for (size_t i = 0; i < n; i++) {
        pr[i].a = proofs[i].a;
        pr[i].b = proofs[i].b;
        pr[i].c = proofs[i].c;
    }
    cuzk_status_t s = n == 1 ? bls381_groth16_verify(valid, &k, in, pr, pool)
                             : bls381_groth16_verify_batch(valid, &k, in, pr, n, rng, pool);
    free(pr);
    if (s == CUZK_ERANDOM)
        return io_fail(err, err_size, s,
                       "drawing the batch coefficients: the operating system's generator failed");
    if (s != CUZK_OK)
        return io_fail(err, err_size, s, "out of memory in the verifier");
    return CUZK_OK;
}

cuzk_status_t groth16_bp_dev_setup(bp_params_t *p, const r1cs_t *r, rng_t *rng,
                                   progress_t *progress)
{
    memset(p, 0, sizeof *p);
    if (r->curve != R1CS_CURVE_BLS12_381)
        return CUZK_EUNSUPPORTED;
    groth16_key_t k;
    cuzk_status_t s = bls381_groth16_bp_dev_setup(&k, &r->u.bls381, rng, progress);
    if (s != CUZK_OK)
        return s;
    bls381_g1_affine_t *ic = malloc(k.ic.count * sizeof *ic);
    if (!ic) {
        bls381_groth16_bp_dev_key_free(&k);
        return CUZK_ENOMEM;
    }
    memcpy(ic, k.ic.data, k.ic.count * sizeof *ic);
    const groth16_key_bls381_t *f = &k.u.bls381;
    p->vk.alpha1 = f->alpha1;
    p->vk.beta1 = f->beta1;
    p->vk.delta1 = f->delta1;
    p->vk.beta2 = f->beta2;
    p->vk.gamma2 = f->gamma2;
    p->vk.delta2 = f->delta2;
    p->vk.n_ic = (uint32_t)k.ic.count;
    p->vk.ic = ic;
    p->n_h = (uint32_t)k.h.count;
    p->n_l = (uint32_t)k.l.count;
    p->n_a = (uint32_t)k.a.count;
    p->n_b = (uint32_t)k.b1.count;
    /* One allocation, starting with IC: bp_params_free releases it as mem. */
    p->mem = (void *)k.ic.data;
    p->h = (bls381_g1_affine_t *)k.h.data;
    p->l = (bls381_g1_affine_t *)k.l.data;
    p->a = (bls381_g1_affine_t *)k.a.data;
    p->b_g1 = (bls381_g1_affine_t *)k.b1.data;
    p->b_g2 = (bls381_g2_affine_t *)k.b2.data;
    return CUZK_OK;
}

cuzk_status_t groth16_bp_assign(asgn_t *a, void **mem, const r1cs_t *r, const r1cs_witness_t *w,
                                pool_t *pool)
{
    memset(a, 0, sizeof *a);
    *mem = NULL;
    if (w->curve != r->curve || w->n != r1cs_shape(r)->n_wires)
        return CUZK_EINVAL;
    groth16_asgn_t g;
    cuzk_status_t s = r->curve == R1CS_CURVE_BN254
                          ? bn254_groth16_bp_assign(&g, mem, &r->u.bn254, w->v.bn254, pool)
                          : bls381_groth16_bp_assign(&g, mem, &r->u.bls381, w->v.bls381, pool);
    if (s == CUZK_OK)
        *a = asgn_from_groth16(&g);
    return s;
}
