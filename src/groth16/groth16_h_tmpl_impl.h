/*
 * Stage h of groth16_tmpl.h: the quotient of A·B − C by the convention of
 * the key (the NTT chain of ntt_tmpl.h), left as canonical scalars for the
 * H MSM. Part of groth16_tmpl_impl.h; not included directly.
 */

static void G16N(canonical_task)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    G16ST *st = ctx;
    for (size_t i = begin; i < end; i++) {
        uint64_t v[EC_SCALAR_LIMBS];
        G16F(to_canonical)(v, &st->a[i]);
        memcpy(&st->a[i], v, sizeof v);
    }
}

cuzk_status_t G16N(h)(G16ST *st, pool_t *pool, progress_t *progress)
{
    progress_begin(progress, "h", 6, "transforms");
    unsigned k = G16N(log2)(st->key->domain_size);
    bool coset = st->key->conv.h == GROTH16_H_COSET_COEFFS;
    unsigned gen = coset ? G16N(BP_GENERATOR) : G16N(SNARKJS_GENERATOR);
    cuzk_status_t s;
    G16C(ntt_domain_t) *d = G16C(ntt_domain_new)(k, gen, &s);
    if (!d)
        return s;
    G16FT shift;
    if (coset) {
        G16F(from_u64)(&shift, gen);
        G16C(ntt_h_bellperson)(d, st->a, st->b, st->c, &shift, pool, progress);
    } else {
        /* ω_2n = w[k+1]; on the largest domain snarkjs shifts by Fr.shift. */
        if (k < G16F(two_adicity)())
            G16F(root_of_unity)(&shift, k + 1, gen);
        else
            G16F(from_u64)(&shift, G16N(SNARKJS_SHIFT));
        G16C(ntt_h_snarkjs)(d, st->a, st->b, st->c, &shift, pool, progress);
    }
    G16C(ntt_domain_free)(d);
    pool_for(pool, st->key->domain_size, 0, G16N(canonical_task), st);
    st->h = (uint64_t(*)[EC_SCALAR_LIMBS])st->a;
    return CUZK_OK;
}
