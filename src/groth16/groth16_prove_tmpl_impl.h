/*
 * Stage finish of groth16_tmpl.h (the blinding scalars r and s and the
 * assembly of the proof, after this prover's MSMs or an accelerator's),
 * and NAME_groth16_prove, which runs the four stages in order. Part of
 * groth16_tmpl_impl.h; not included directly.
 */

/*
 * The assembly shared by both conventions (FORMATS.md §7 step 5 and §8.3):
 * takes r and s from bl (given, or drawn uniformly in Fr, r first) and sets
 *   π_A = Ã + α1 + r·δ1,  π_B = B̃2 + β2 + s·δ2,  B1 = B̃1 + β1 + s·δ1,
 *   π_C = C̃ + s·π_A + r·B1 − rs·δ1,
 * where C̃ is the sum of the C (or L) and H MSMs. Every product with r or s
 * is the constant-time jac_mul and every sum with a secret operand the
 * complete jac_add; r and s are wiped. CUZK_ERANDOM.
 */
static cuzk_status_t G16N(assemble)(G16N(proof_t) * proof, const G16G1A *alpha1,
                                    const G16G1A *beta1, const G16G1A *delta1, const G16G2A *beta2,
                                    const G16G2A *delta2, const G16G1J *msm_a, const G16G1J *msm_b1,
                                    const G16G2J *msm_b2, const G16G1J *msm_ch,
                                    const groth16_blinding_t *bl)
{
    G16FT r, s, rs;
    cuzk_status_t status = CUZK_OK;
    if (bl && bl->r) {
        memcpy(&r, bl->r, sizeof r);
        memcpy(&s, bl->s, sizeof s);
    } else {
        rng_t *rng = bl ? bl->rng : NULL;
        status = G16F(random)(&r, rng);
        if (status == CUZK_OK)
            status = G16F(random)(&s, rng);
    }
    if (status != CUZK_OK)
        return status;
    G16F(mul)(&rs, &r, &s);
    uint64_t kr[EC_SCALAR_LIMBS], ks[EC_SCALAR_LIMBS], krs[EC_SCALAR_LIMBS];
    G16F(to_canonical)(kr, &r);
    G16F(to_canonical)(ks, &s);
    G16F(to_canonical)(krs, &rs);

    G16G1J d1, pa, b1, pc, t;
    G16G2J d2, pb, t2;
    G16G1(jac_from_affine)(&d1, delta1);
    G16G2(jac_from_affine)(&d2, delta2);

    /* π_A = Ã + α1 + r·δ1 */
    G16G1(jac_from_affine)(&pa, alpha1);
    G16G1(jac_add)(&pa, &pa, msm_a);
    G16G1(jac_mul)(&t, &d1, kr);
    G16G1(jac_add)(&pa, &pa, &t);
    /* π_B = B̃2 + β2 + s·δ2 */
    G16G2(jac_from_affine)(&pb, beta2);
    G16G2(jac_add)(&pb, &pb, msm_b2);
    G16G2(jac_mul)(&t2, &d2, ks);
    G16G2(jac_add)(&pb, &pb, &t2);
    /* B1 = B̃1 + β1 + s·δ1 */
    G16G1(jac_from_affine)(&b1, beta1);
    G16G1(jac_add)(&b1, &b1, msm_b1);
    G16G1(jac_mul)(&t, &d1, ks);
    G16G1(jac_add)(&b1, &b1, &t);
    /* π_C = C̃ + s·π_A + r·B1 − rs·δ1 */
    pc = *msm_ch;
    G16G1(jac_mul)(&t, &pa, ks);
    G16G1(jac_add)(&pc, &pc, &t);
    G16G1(jac_mul)(&t, &b1, kr);
    G16G1(jac_add)(&pc, &pc, &t);
    G16G1(jac_mul)(&t, &d1, krs);
    G16G1(jac_neg)(&t, &t);
    G16G1(jac_add)(&pc, &pc, &t);

    G16G1(jac_to_affine)(&proof->a, &pa);
    G16G2(jac_to_affine)(&proof->b, &pb);
    G16G1(jac_to_affine)(&proof->c, &pc);

    explicit_bzero(&r, sizeof r);
    explicit_bzero(&s, sizeof s);
    explicit_bzero(&rs, sizeof rs);
    explicit_bzero(kr, sizeof kr);
    explicit_bzero(ks, sizeof ks);
    explicit_bzero(krs, sizeof krs);
    explicit_bzero(&b1, sizeof b1);
    explicit_bzero(&t, sizeof t);
    explicit_bzero(&t2, sizeof t2);
    return CUZK_OK;
}

cuzk_status_t G16N(finish)(G16ST *st, G16N(proof_t) * proof, const groth16_blinding_t *bl)
{
    const G16KEY *k = &st->key->u.G16_CURVE;
    G16G1J ch;
    G16G1(jac_add)(&ch, &st->msm_l, &st->msm_h);
    return G16N(assemble)(proof, &k->alpha1, &k->beta1, &k->delta1, &k->beta2, &k->delta2,
                          &st->msm_a, &st->msm_b1, &st->msm_b2, &ch, bl);
}

/* The assembly from an accelerator's XYZZ results (c: C̃ or L̃). */
static cuzk_status_t G16N(assemble_msms)(G16N(proof_t) * proof, const G16G1A *alpha1,
                                         const G16G1A *beta1, const G16G1A *delta1,
                                         const G16G2A *beta2, const G16G2A *delta2, const G16MS *m,
                                         const groth16_blinding_t *bl)
{
    G16G1J a, b1, c, h;
    G16G2J b2;
    G16G1(xyzz_to_jac)(&a, &m->a);
    G16G1(xyzz_to_jac)(&b1, &m->b1);
    G16G1(xyzz_to_jac)(&c, &m->c);
    G16G1(xyzz_to_jac)(&h, &m->h);
    G16G2(xyzz_to_jac)(&b2, &m->b2);
    G16G1(jac_add)(&c, &c, &h);
    return G16N(assemble)(proof, alpha1, beta1, delta1, beta2, delta2, &a, &b1, &b2, &c, bl);
}

cuzk_status_t G16N(finish_msms)(G16N(proof_t) * proof, const groth16_key_t *key, const G16MS *m,
                                const groth16_blinding_t *bl)
{
    const G16KEY *k = &key->u.G16_CURVE;
    return G16N(assemble_msms)(proof, &k->alpha1, &k->beta1, &k->delta1, &k->beta2, &k->delta2, m,
                               bl);
}

/* Records the time since *t0 as stage's and restarts the clock. */
static void G16N(lap)(groth16_timings_t *t, groth16_stage_t stage, double *t0)
{
    double t1 = clock_seconds();
    if (t)
        t->seconds[stage] = t1 - *t0;
    *t0 = t1;
}

/* s from the stages after synth, with its message when it is a failure. */
static cuzk_status_t G16N(stages_status)(cuzk_status_t s, char *err, size_t err_size)
{
    if (s == CUZK_ERANDOM)
        return fail_with(err, err_size, s,
                         "drawing r and s: the operating system's generator failed");
    if (s != CUZK_OK)
        return fail_with(err, err_size, s, "out of memory in the prover");
    return CUZK_OK;
}

cuzk_status_t G16N(prove)(G16N(proof_t) * proof, const groth16_key_t *key,
                          const groth16_input_t *in, const groth16_blinding_t *bl,
                          groth16_timings_t *t, pool_t *pool, progress_t *progress, char *err,
                          size_t err_size)
{
    G16ST st;
    double t0 = clock_seconds();
    cuzk_status_t s = G16N(synth)(&st, key, in, pool, progress, err, err_size);
    if (s != CUZK_OK)
        return s;
    G16N(lap)(t, GROTH16_STAGE_SYNTH, &t0);
    s = G16N(h)(&st, pool, progress);
    G16N(lap)(t, GROTH16_STAGE_H, &t0);
    if (s == CUZK_OK)
        s = G16N(msm)(&st, pool, progress);
    G16N(lap)(t, GROTH16_STAGE_MSM, &t0);
    if (s == CUZK_OK)
        s = G16N(finish)(&st, proof, bl);
    G16N(lap)(t, GROTH16_STAGE_FINISH, &t0);
    G16N(prover_free)(&st);
    return G16N(stages_status)(s, err, err_size);
}
