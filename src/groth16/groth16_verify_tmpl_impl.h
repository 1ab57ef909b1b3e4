/*
 * The verifier of groth16_tmpl.h: one proof by one multi-pairing, a batch
 * of proofs by a random linear combination. Part of groth16_tmpl_impl.h;
 * not included directly.
 */

cuzk_status_t G16N(verify)(bool *valid, const G16N(vk_t) * vk, const G16FT *pub,
                           const G16N(proof_t) * proof, pool_t *pool)
{
    G16G1J x;
    cuzk_status_t s = G16G1(msm_vartime)(&x, vk->ic + 1, pub, vk->n_public, pool);
    if (s != CUZK_OK)
        return s;
    G16G1(jac_add_affine_vartime)(&x, &x, &vk->ic[0]);
    G16G1A p[4];
    G16G2A q[4];
    G16G1(affine_neg)(&p[0], &proof->a);
    q[0] = proof->b;
    G16G1(jac_to_affine)(&p[1], &x);
    q[1] = vk->gamma2;
    p[2] = proof->c;
    q[2] = vk->delta2;
    p[3] = vk->alpha1;
    q[3] = vk->beta2;
    *valid = G16C(pairing_product_is_one)(p, q, 4, pool);
    return CUZK_OK;
}

cuzk_status_t G16N(verify_batch)(bool *valid, const G16N(vk_t) * vk, const G16FT *pub,
                                 const G16N(proof_t) * proofs, size_t n, rng_t *rng, pool_t *pool)
{
    assert(n >= 1);
    size_t np = vk->n_public;
    G16FT *rho = malloc(n * sizeof *rho);
    G16FT *sic = calloc(np + 1, sizeof *sic); /* Σ ρ_i, then Σ ρ_i·pub_i,j */
    G16G1A *pc = malloc(n * sizeof *pc);
    G16G1J *ra = malloc(n * sizeof *ra);
    G16G1A *p = malloc((n + 3) * sizeof *p);
    G16G2A *q = malloc((n + 3) * sizeof *q);
    cuzk_status_t s = rho && sic && pc && ra && p && q ? CUZK_OK : CUZK_ENOMEM;
    for (size_t i = 0; i < n && s == CUZK_OK; i++) {
        uint64_t k[EC_SCALAR_LIMBS] = {1, 0};
        if (i > 0)
            s = random_bytes(rng, k, 2 * sizeof k[0]); /* 128 bits: below r */
        G16F(from_canonical)(&rho[i], k);
        G16G1J a;
        G16G1(jac_from_affine)(&a, &proofs[i].a);
        G16G1(jac_mul_vartime)(&ra[i], &a, k);
        pc[i] = proofs[i].c;
        q[i] = proofs[i].b;
        G16F(add)(&sic[0], &sic[0], &rho[i]);
        for (size_t j = 0; j < np; j++) {
            G16FT t;
            G16F(mul)(&t, &rho[i], &pub[i * np + j]);
            G16F(add)(&sic[j + 1], &sic[j + 1], &t);
        }
    }
    G16G1J x, c, al;
    if (s == CUZK_OK)
        s = G16G1(msm_vartime)(&x, vk->ic, sic, np + 1, pool);
    if (s == CUZK_OK)
        s = G16G1(msm_vartime)(&c, pc, rho, n, pool);
    if (s == CUZK_OK) {
        uint64_t k[EC_SCALAR_LIMBS];
        G16F(to_canonical)(k, &sic[0]);
        G16G1(jac_from_affine)(&al, &vk->alpha1);
        G16G1(jac_mul_vartime)(&al, &al, k);
        G16G1(jacs_to_affine_vartime)(p, ra, n);
        for (size_t i = 0; i < n; i++)
            G16G1(affine_neg)(&p[i], &p[i]);
        G16G1(jac_to_affine)(&p[n], &x);
        q[n] = vk->gamma2;
        G16G1(jac_to_affine)(&p[n + 1], &c);
        q[n + 1] = vk->delta2;
        G16G1(jac_to_affine)(&p[n + 2], &al);
        q[n + 2] = vk->beta2;
        *valid = G16C(pairing_product_is_one)(p, q, n + 3, pool);
    }
    free(rho);
    free(sic);
    free(pc);
    free(ra);
    free(p);
    free(q);
    return s;
}
