/* Groth16 on either curve: dispatch to the per-curve instantiations. */
#include "groth16/groth16.h"

#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/fail.h"

const char *groth16_stage_name(groth16_stage_t stage)
{
    static const char *const names[GROTH16_STAGES] = {"synth", "h", "msm", "finish", "verify"};
    return (unsigned)stage < GROTH16_STAGES ? names[stage] : "unknown";
}

groth16_vk_t groth16_key_vk(const groth16_key_t *k)
{
    groth16_vk_t vk;
    memset(&vk, 0, sizeof vk);
    vk.curve = k->curve;
    vk.n_public = k->n_public;
    if (k->curve == R1CS_CURVE_BN254) {
        const groth16_key_bn254_t *f = &k->u.bn254;
        vk.u.bn254.alpha1 = f->alpha1;
        vk.u.bn254.beta2 = f->beta2;
        vk.u.bn254.gamma2 = f->gamma2;
        vk.u.bn254.delta2 = f->delta2;
    } else {
        const groth16_key_bls381_t *f = &k->u.bls381;
        vk.u.bls381.alpha1 = f->alpha1;
        vk.u.bls381.beta2 = f->beta2;
        vk.u.bls381.gamma2 = f->gamma2;
        vk.u.bls381.delta2 = f->delta2;
    }
    vk.ic = k->ic;
    return vk;
}

/* *valid = whether proof verifies under vk for pub, which fit it (curve,
 * count). IC is read in place when aligned, else from a copy (a mapped
 * file may hold it at any byte). CUZK_ENOMEM. */
static cuzk_status_t groth16_verify_curve(bool *valid, const groth16_vk_t *vk,
                                          const r1cs_witness_t *pub, const groth16_proof_t *proof,
                                          pool_t *pool)
{
    size_t g1 =
        vk->curve == R1CS_CURVE_BN254 ? sizeof(bn254_g1_affine_t) : sizeof(bls381_g1_affine_t);
    const void *ic = vk->ic.data;
    void *copy = NULL;
    if (!groth16_points_aligned(vk->ic)) {
        if (!(copy = malloc(vk->ic.count * g1)))
            return CUZK_ENOMEM;
        memcpy(copy, vk->ic.data, vk->ic.count * g1);
        ic = copy;
    }
    cuzk_status_t s;
    if (vk->curve == R1CS_CURVE_BN254) {
        const groth16_vk_bn254_t *v = &vk->u.bn254;
        bn254_groth16_vk_t k = {v->alpha1, v->beta2, v->gamma2, v->delta2, ic, vk->n_public};
        bn254_groth16_proof_t p = {proof->u.bn254.a, proof->u.bn254.b, proof->u.bn254.c};
        s = bn254_groth16_verify(valid, &k, pub->v.bn254, &p, pool);
    } else {
        const groth16_vk_bls381_t *v = &vk->u.bls381;
        bls381_groth16_vk_t k = {v->alpha1, v->beta2, v->gamma2, v->delta2, ic, vk->n_public};
        bls381_groth16_proof_t p = {proof->u.bls381.a, proof->u.bls381.b, proof->u.bls381.c};
        s = bls381_groth16_verify(valid, &k, pub->v.bls381, &p, pool);
    }
    free(copy);
    return s;
}

cuzk_status_t groth16_verify(bool *valid, const groth16_vk_t *vk, const r1cs_witness_t *pub,
                             const groth16_proof_t *proof, pool_t *pool, char *err, size_t err_size)
{
    if (pub->curve != vk->curve || proof->curve != vk->curve)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "the verification key is over %s but the proof over %s and the public "
                         "signals over %s",
                         r1cs_curve_name(vk->curve), r1cs_curve_name(proof->curve),
                         r1cs_curve_name(pub->curve));
    if (pub->n != vk->n_public)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "%u public signals but the verification key expects %u", pub->n,
                         vk->n_public);
    cuzk_status_t s = groth16_verify_curve(valid, vk, pub, proof, pool);
    if (s != CUZK_OK)
        return fail_with(err, err_size, s, "out of memory in the verifier");
    return CUZK_OK;
}

/* Stages synth, h and msm by the accelerator, then finish here: the proof
 * of k and in, the stages timed; no verification. */
static cuzk_status_t groth16_prove_accel(groth16_proof_t *proof, const groth16_key_t *k,
                                         const groth16_input_t *in, const groth16_accel_t *accel,
                                         const groth16_blinding_t *bl, progress_t *progress,
                                         groth16_timings_t *t, char *err, size_t err_size)
{
    groth16_msms_t m = {.curve = k->curve};
    cuzk_status_t s = k->curve == R1CS_CURVE_BN254
                          ? bn254_groth16_check_input(k, in, err, err_size)
                          : bls381_groth16_check_input(k, in, err, err_size);
    if (s != CUZK_OK)
        return s;
    progress_begin(progress, "synth, h, msm", 0, NULL);
    s = accel->msms(accel->ctx, k, in, &m, t, err, err_size);
    if (s != CUZK_OK)
        return s;
    double t0 = clock_seconds();
    if (k->curve == R1CS_CURVE_BN254) {
        bn254_groth16_proof_t p;
        s = bn254_groth16_finish_msms(&p, k, &m.u.bn254, bl);
        if (s == CUZK_OK) {
            proof->u.bn254.a = p.a;
            proof->u.bn254.b = p.b;
            proof->u.bn254.c = p.c;
        }
    } else {
        bls381_groth16_proof_t p;
        s = bls381_groth16_finish_msms(&p, k, &m.u.bls381, bl);
        if (s == CUZK_OK) {
            proof->u.bls381.a = p.a;
            proof->u.bls381.b = p.b;
            proof->u.bls381.c = p.c;
        }
    }
    if (t)
        t->seconds[GROTH16_STAGE_FINISH] = clock_seconds() - t0;
    if (s != CUZK_OK)
        return fail_with(err, err_size, s,
                         "drawing r and s: the operating system's generator failed");
    return CUZK_OK;
}

/* Whether v (EC_SCALAR_LIMBS limbs) is below the modulus of curve's Fr. */
static bool groth16_fr_reduced(r1cs_curve_t curve, const uint64_t *v)
{
    if (curve == R1CS_CURVE_BN254) {
        bn254_fr_t t;
        return bn254_fr_from_canonical(&t, v);
    }
    bls381_fr_t t;
    return bls381_fr_from_canonical(&t, v);
}

/* The given r and s of opts, if any: both or neither, each below r. */
static cuzk_status_t groth16_check_blinding(const groth16_key_t *k,
                                            const groth16_prove_opts_t *opts, char *err,
                                            size_t err_size)
{
    if (!opts->r && !opts->s)
        return CUZK_OK;
    if (!opts->r || !opts->s)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "the blinding scalars are given in part: %s without %s",
                         opts->r ? "r" : "s", opts->r ? "s" : "r");
    if (!groth16_fr_reduced(k->curve, opts->r))
        return fail_with(err, err_size, CUZK_ENONCANONICAL,
                         "the blinding scalar r is not below the scalar field's modulus");
    if (!groth16_fr_reduced(k->curve, opts->s))
        return fail_with(err, err_size, CUZK_ENONCANONICAL,
                         "the blinding scalar s is not below the scalar field's modulus");
    return CUZK_OK;
}

/* The proof of k and in, the stages timed; no verification. */
static cuzk_status_t groth16_prove_curve(groth16_proof_t *proof, const groth16_key_t *k,
                                         const groth16_input_t *in,
                                         const groth16_prove_opts_t *opts, groth16_timings_t *t,
                                         pool_t *pool, char *err, size_t err_size)
{
    const groth16_blinding_t bl = {opts->rng, opts->r, opts->s};
    if (opts->accel)
        return groth16_prove_accel(proof, k, in, opts->accel, &bl, opts->progress, t, err,
                                   err_size);
    cuzk_status_t s;
    if (k->curve == R1CS_CURVE_BN254) {
        bn254_groth16_proof_t p;
        s = bn254_groth16_prove(&p, k, in, &bl, t, pool, opts->progress, err, err_size);
        if (s == CUZK_OK) {
            proof->u.bn254.a = p.a;
            proof->u.bn254.b = p.b;
            proof->u.bn254.c = p.c;
        }
    } else {
        bls381_groth16_proof_t p;
        s = bls381_groth16_prove(&p, k, in, &bl, t, pool, opts->progress, err, err_size);
        if (s == CUZK_OK) {
            proof->u.bls381.a = p.a;
            proof->u.bls381.b = p.b;
            proof->u.bls381.c = p.c;
        }
    }
    return s;
}

/* pub = the public inputs of in (ONE excluded), Montgomery form. */
static cuzk_status_t groth16_public_of(r1cs_witness_t *pub, const groth16_key_t *k,
                                       const groth16_input_t *in)
{
    cuzk_status_t s = r1cs_witness_alloc(pub, k->curve, k->n_public);
    if (s != CUZK_OK)
        return s;
    if (in->asgn && in->asgn->montgomery) {
        unsigned char *pv =
            k->curve == R1CS_CURVE_BN254 ? (void *)pub->v.bn254 : (void *)pub->v.bls381;
        memcpy(pv, in->asgn->inputs + 1, sizeof in->asgn->inputs[0] * k->n_public);
        return CUZK_OK;
    }
    if (in->asgn) {
        for (uint32_t i = 0; i < k->n_public; i++)
            if (k->curve == R1CS_CURVE_BLS12_381)
                (void)bls381_fr_from_canonical(&pub->v.bls381[i], in->asgn->inputs[i + 1]);
            else
                (void)bn254_fr_from_canonical(&pub->v.bn254[i], in->asgn->inputs[i + 1]);
        return CUZK_OK;
    }
    size_t fr = k->curve == R1CS_CURVE_BN254 ? sizeof(bn254_fr_t) : sizeof(bls381_fr_t);
    unsigned char *pv = k->curve == R1CS_CURVE_BN254 ? (void *)pub->v.bn254 : (void *)pub->v.bls381;
    memcpy(pv, (const unsigned char *)in->w + fr, fr * k->n_public);
    return CUZK_OK;
}

cuzk_status_t groth16_prove_key(groth16_proof_t *proof, r1cs_witness_t *pub, const groth16_key_t *k,
                                const groth16_input_t *in, const groth16_prove_opts_t *opts,
                                groth16_timings_t *t, pool_t *pool, char *err, size_t err_size)
{
    static const groth16_prove_opts_t defaults = {0};
    if (!opts)
        opts = &defaults;
    memset(pub, 0, sizeof *pub);
    memset(proof, 0, sizeof *proof);
    proof->curve = k->curve;
    if (t)
        memset(t, 0, sizeof *t);
    cuzk_status_t s = groth16_check_blinding(k, opts, err, err_size);
    if (s == CUZK_OK)
        s = groth16_prove_curve(proof, k, in, opts, t, pool, err, err_size);
    if (s == CUZK_OK && (s = groth16_public_of(pub, k, in)) != CUZK_OK)
        fail_with(err, err_size, s, "out of memory for the public signals");
    if (s != CUZK_OK || opts->no_verify)
        goto done;

    double t0 = clock_seconds();
    progress_begin(opts->progress, "verify", 0, NULL);
    bool valid = false;
    groth16_vk_t vk = groth16_key_vk(k);
    s = groth16_verify_curve(&valid, &vk, pub, proof, pool);
    if (t)
        t->seconds[GROTH16_STAGE_VERIFY] = clock_seconds() - t0;
    if (s != CUZK_OK)
        fail_with(err, err_size, s, "out of memory in the verifier");
    else if (!valid)
        s = fail_with(err, err_size, CUZK_EWITNESS, "the proof does not verify: the %s",
                      in->asgn ? "assignment does not satisfy the circuit"
                               : "witness does not satisfy the circuit");
done:
    if (s != CUZK_OK) {
        r1cs_witness_free(pub);
        memset(proof, 0, sizeof *proof);
    }
    return s;
}

cuzk_status_t groth16_key_matches_r1cs(const groth16_key_t *k, const r1cs_t *r,
                                       const char *key_name, const char *r1cs_name, char *err,
                                       size_t err_size)
{
    if (k->curve != r->curve)
        return fail_with(err, err_size, CUZK_EINVAL, "%s is over %s but %s over %s", key_name,
                         r1cs_curve_name(k->curve), r1cs_name, r1cs_curve_name(r->curve));
    if (k->curve == R1CS_CURVE_BN254)
        return bn254_groth16_key_matches_r1cs(k, &r->u.bn254, key_name, r1cs_name, err, err_size);
    return bls381_groth16_key_matches_r1cs(k, &r->u.bls381, key_name, r1cs_name, err, err_size);
}
