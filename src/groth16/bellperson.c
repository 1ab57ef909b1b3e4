/* Groth16 with bellperson's files: BLS12-381 over the bellperson-convention
 * prover (bellperson.h). */
#include "groth16/bellperson.h"

#include <stdlib.h>
#include <string.h>

#include "groth16/bls381_groth16.h"
#include "groth16/bn254_groth16.h"
#include "io/io_error.h"
#include "util/clock.h"

/* The prover's view of p: the same points, borrowed. */
static bls381_groth16_bp_key_t bp_key_of(const bp_params_t *p)
{
    bls381_groth16_bp_key_t k = {
        .alpha1 = p->vk.alpha1,
        .beta1 = p->vk.beta1,
        .delta1 = p->vk.delta1,
        .beta2 = p->vk.beta2,
        .gamma2 = p->vk.gamma2,
        .delta2 = p->vk.delta2,
        .n_ic = p->vk.n_ic,
        .n_h = p->n_h,
        .n_l = p->n_l,
        .n_a = p->n_a,
        .n_b = p->n_b,
        .ic = p->vk.ic,
        .h = p->h,
        .l = p->l,
        .a = p->a,
        .b_g1 = p->b_g1,
        .b_g2 = p->b_g2,
    };
    return k;
}

/* The verifier's view of vk (n_ic >= 1). */
static bls381_groth16_vk_t bp_vk_of(const bp_vk_t *vk)
{
    bls381_groth16_vk_t k = {vk->alpha1, vk->beta2, vk->gamma2, vk->delta2, vk->ic, vk->n_ic - 1};
    return k;
}

cuzk_status_t groth16_bp_prove(bp_proof_t *proof, const bp_params_t *p, const asgn_t *a,
                               const groth16_prove_opts_t *opts, groth16_timings_t *t,
                               cuzk_pool_t *pool, char *err, size_t err_size)
{
    static const groth16_prove_opts_t defaults = {NULL, false, NULL, NULL};
    if (!opts)
        opts = &defaults;
    if (t)
        memset(t, 0, sizeof *t);
    memset(proof, 0, sizeof *proof);
    if (a->curve != R1CS_CURVE_BLS12_381)
        return io_fail(err, err_size, CUZK_EINVAL,
                       "the assignment is over %s but bellperson parameters are over BLS12-381",
                       r1cs_curve_name(a->curve));
    bls381_groth16_bp_key_t key = bp_key_of(p);
    bls381_groth16_proof_t pr;
    cuzk_status_t s;
    if (opts->accel) {
        s = bls381_groth16_bp_check(&key, a, err, err_size);
        groth16_msms_t m = {.curve = R1CS_CURVE_BLS12_381};
        if (s == CUZK_OK)
            s = opts->accel->bp_msms(opts->accel->ctx, p, a, &m, t, err, err_size);
        if (s != CUZK_OK)
            return s;
        double t0 = cuzk_seconds();
        s = bls381_groth16_bp_finish_msms(&pr, &key, &m.u.bls381, opts->rng);
        if (t)
            t->seconds[GROTH16_STAGE_FINISH] = cuzk_seconds() - t0;
        if (s != CUZK_OK)
            return io_fail(err, err_size, s,
                           "drawing r and s: the operating system's generator failed");
    } else {
        s = bls381_groth16_bp_prove(&pr, &key, a, opts->rng, t, pool, err, err_size);
        if (s != CUZK_OK)
            return s;
    }
    proof->a = pr.a;
    proof->b = pr.b;
    proof->c = pr.c;
    if (opts->no_verify)
        return CUZK_OK;

    double t0 = cuzk_seconds();
    size_t n_in = p->vk.n_ic - 1;
    bls381_fr_t *in = malloc((n_in ? n_in : 1) * sizeof *in);
    if (!in)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the inputs");
    for (size_t i = 0; i < n_in; i++)
        (void)bls381_fr_from_canonical(&in[i], a->inputs[i + 1]);
    bool valid = false;
    s = groth16_bp_verify(&valid, &p->vk, in, proof, 1, NULL, pool, err, err_size);
    free(in);
    if (t)
        t->seconds[GROTH16_STAGE_VERIFY] = cuzk_seconds() - t0;
    if (s == CUZK_OK && !valid)
        s = io_fail(err, err_size, CUZK_EWITNESS,
                    "the proof does not verify: the assignment does not satisfy the circuit");
    if (s != CUZK_OK)
        memset(proof, 0, sizeof *proof);
    return s;
}

cuzk_status_t groth16_bp_verify(bool *valid, const bp_vk_t *vk, const bls381_fr_t *in,
                                const bp_proof_t *proofs, size_t n, cuzk_rng_t *rng,
                                cuzk_pool_t *pool, char *err, size_t err_size)
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

cuzk_status_t groth16_bp_dev_setup(bp_params_t *p, const r1cs_t *r, cuzk_rng_t *rng,
                                   cuzk_progress_t *progress)
{
    memset(p, 0, sizeof *p);
    if (r->curve != R1CS_CURVE_BLS12_381)
        return CUZK_EUNSUPPORTED;
    bls381_groth16_bp_key_t k;
    cuzk_status_t s = bls381_groth16_bp_dev_setup(&k, &r->u.bls381, rng, progress);
    if (s != CUZK_OK)
        return s;
    bls381_g1_affine_t *ic = malloc(k.n_ic * sizeof *ic);
    if (!ic) {
        bls381_groth16_bp_dev_key_free(&k);
        return CUZK_ENOMEM;
    }
    memcpy(ic, k.ic, k.n_ic * sizeof *ic);
    p->vk.alpha1 = k.alpha1;
    p->vk.beta1 = k.beta1;
    p->vk.delta1 = k.delta1;
    p->vk.beta2 = k.beta2;
    p->vk.gamma2 = k.gamma2;
    p->vk.delta2 = k.delta2;
    p->vk.n_ic = k.n_ic;
    p->vk.ic = ic;
    p->n_h = k.n_h;
    p->n_l = k.n_l;
    p->n_a = k.n_a;
    p->n_b = k.n_b;
    /* One allocation, starting with IC: bp_params_free releases it as mem. */
    p->mem = (void *)k.ic;
    p->h = (bls381_g1_affine_t *)k.h;
    p->l = (bls381_g1_affine_t *)k.l;
    p->a = (bls381_g1_affine_t *)k.a;
    p->b_g1 = (bls381_g1_affine_t *)k.b_g1;
    p->b_g2 = (bls381_g2_affine_t *)k.b_g2;
    return CUZK_OK;
}

cuzk_status_t groth16_bp_assign(asgn_t *a, void **mem, const r1cs_t *r, const r1cs_witness_t *w,
                                cuzk_pool_t *pool)
{
    memset(a, 0, sizeof *a);
    *mem = NULL;
    if (w->curve != r->curve || w->n != r1cs_shape(r)->n_wires)
        return CUZK_EINVAL;
    if (r->curve == R1CS_CURVE_BN254)
        return bn254_groth16_bp_assign(a, mem, &r->u.bn254, w->v.bn254, pool);
    return bls381_groth16_bp_assign(a, mem, &r->u.bls381, w->v.bls381, pool);
}
