/*
 * The whole MSM: the compaction of the scalars the buckets take, the GLV
 * split, the run of both passes and the combination of the windows; the
 * entry points of msm_tmpl.h (vartime, canonical, tuned, Horner, classify)
 * and the benchmark. Part of msm_tmpl_impl.h; not included directly.
 */

/* ---- the whole MSM ------------------------------------------------------ */

/*
 * The scalars the buckets take (class other, and one when ones go through
 * Pippenger), n_pip of the n, copied in order into canon (which may be the
 * source's own copy: it is written at or below where it is read) with
 * their point indices in *idx (allocated here). Every window scans its
 * scalars, so with few of them, as in a witness MSM (90 % zero or one),
 * the W scans of n become one scan of n and W of n_pip. false when out of
 * memory.
 */
static bool MSG(msm_compact_)(uint64_t (*canon)[EC_SCALAR_LIMBS], size_t **idx,
                              const MSG(msm_src_t) * src, size_t n, size_t n_pip,
                              bool ones_in_pippenger)
{
    *idx = malloc(n_pip * sizeof **idx);
    if (!*idx)
        return false;
    size_t m = 0;
    for (size_t i = 0; i < n && m < n_pip; i++) {
        uint64_t k[EC_SCALAR_LIMBS];
        unsigned cl = MSG(msm_scalar_)(src, i, k);
        if (cl == CUZK_MSM_ZERO || (cl == CUZK_MSM_ONE && !ones_in_pippenger))
            continue;
        memcpy(canon[m], k, sizeof k);
        (*idx)[m++] = i;
    }
    assert(m == n_pip);
    return true;
}

#ifdef MSM_GLV
typedef struct {
    const uint64_t (*src)[EC_SCALAR_LIMBS]; /* the split scalars; may be glv.k itself */
    const MSA *bases;
    const size_t *idx;
    MSG(msm_glv_t) glv;
    MSG(msm_worker_t) * w;
} MSG(msm_glv_ctx_t);

static void MSG(msm_glv_range_)(void *vctx, size_t begin, size_t end, unsigned worker)
{
    const MSG(msm_glv_ctx_t) *ctx = vctx;
    uint64_t *or_bits = ctx->w[worker].or_bits;
    for (size_t u = begin; u < end; u++) {
        uint64_t m1[2], m2[2];
        ctx->glv.neg[u] = (uint8_t)MSG(glv_split)(m1, m2, ctx->src[u]);
        uint64_t *k = ctx->glv.k[u];
        k[0] = m1[0], k[1] = m1[1], k[2] = m2[0], k[3] = m2[1];
        or_bits[0] |= m1[0] | m2[0];
        or_bits[1] |= m1[1] | m2[1];
        MSG(glv_phi)(&ctx->glv.phi[u], &ctx->bases[ctx->idx ? ctx->idx[u] : u]);
    }
}

/* Splits the n_pip scalars in src (canon, when the MSM owns that copy, is
 * overwritten with the halves; else they go to a new array): *g filled and
 * *bits the halves' bit length. false when out of memory (*g then holds
 * what msm_glv_free_ frees). */
static bool MSG(msm_glv_split_)(MSG(msm_glv_t) * g, unsigned *bits,
                                const uint64_t (*src)[EC_SCALAR_LIMBS],
                                uint64_t (*canon)[EC_SCALAR_LIMBS], const MSA *bases,
                                const size_t *idx, size_t n_pip, MSG(msm_worker_t) * w, unsigned T,
                                pool_t *pool)
{
    *g = (MSG(msm_glv_t)){n_pip, canon, malloc(n_pip), malloc(n_pip * sizeof(MSA))};
    if (!canon)
        g->k = malloc(n_pip * sizeof *g->k);
    if (!g->k || !g->neg || !g->phi)
        return false;
    for (unsigned t = 0; t < T; t++)
        memset(w[t].or_bits, 0, sizeof w[t].or_bits);
    MSG(msm_glv_ctx_t) ctx = {src, bases, idx, *g, w};
    pool_for(pool, n_pip, 0, MSG(msm_glv_range_), &ctx);
    uint64_t or_bits[2] = {0, 0};
    for (unsigned t = 0; t < T; t++)
        or_bits[0] |= w[t].or_bits[0], or_bits[1] |= w[t].or_bits[1];
    *bits = or_bits[1]   ? 128 - (unsigned)__builtin_clzll(or_bits[1])
            : or_bits[0] ? 64 - (unsigned)__builtin_clzll(or_bits[0])
                         : 1;
    return true;
}

static void MSG(msm_glv_free_)(MSG(msm_glv_t) * g, const uint64_t (*canon)[EC_SCALAR_LIMBS])
{
    if (g->k != canon)
        free(g->k);
    free(g->neg);
    free(g->phi);
}
#endif

static cuzk_status_t MSG(msm_run_)(MSJ *r, const MSA *bases, MSG(msm_src_t) src, size_t n,
                                   const msm_opts_t *opts, msm_stats_t *stats, pool_t *pool)
{
    msm_opts_t o = opts ? *opts : (msm_opts_t){0};
    assert(r && (n == 0 || (bases && (src.mont || src.canon))));
    assert(o.window <= CUZK_MSM_WINDOW_MAX);
    unsigned T = pool_threads(pool);
    MSG(msm_worker_t) *w = MSG(msm_workers_new_)(T);
    if (!w)
        return CUZK_ENOMEM;

    cuzk_status_t status = CUZK_ENOMEM;
    msm_stats_t st = {0};
    MSX acc;
    size_t *idx = NULL;
    MSX *partial = NULL;
    MSG(msm_glv_t) glv = {0, NULL, NULL, NULL};
    /* Montgomery scalars: pass 1 leaves their canonical limbs for pass 2's
     * windows (CUZK_MSM_CANON_MAX). */
    bool copy = src.mont && n > 0 && n <= CUZK_MSM_CANON_MAX && !o.convert_per_window;
    uint64_t(*canon)[EC_SCALAR_LIMBS] = copy ? malloc(n * sizeof *canon) : NULL;
    MSG(msm_pass_classify_)
    (&st.counts, &acc, o.ones_in_pippenger ? NULL : bases, src, NULL, canon, n, w, T, pool);
    if (canon)
        src = (MSG(msm_src_t)){NULL, (const uint64_t(*)[EC_SCALAR_LIMBS])canon};
    size_t n_pip = st.counts.other + (o.ones_in_pippenger ? st.counts.one : 0);
    unsigned bits = st.counts.bits ? st.counts.bits : 1;
    if (n_pip > 0)
        msm_plan(&st.plan, n_pip, bits, T, o.window);
#ifdef MSM_GLV
    if (n_pip > 0 && src.canon && o.glv != CUZK_MSM_GLV_NEVER) {
        msm_plan_t split;
        msm_plan(&split, 2 * n_pip, 127, T, o.window);
        st.glv = o.glv == CUZK_MSM_GLV_ALWAYS ||
                 (bits > 127 && msm_glv_pays(&st.plan, &split, n_pip, T));
    }
#endif
    /* The split needs the n_pip scalars on their own. */
    if (n_pip > 0 && src.canon && (n_pip <= n / 4 * 3 || (st.glv && n_pip < n))) {
        uint64_t(*dst)[EC_SCALAR_LIMBS] = canon ? canon : malloc(n_pip * sizeof *dst);
        if (!dst)
            goto out;
        if (!canon)
            canon = dst; /* freed with it below */
        if (!MSG(msm_compact_)(dst, &idx, &src, n, n_pip, o.ones_in_pippenger))
            goto out;
        src = (MSG(msm_src_t)){NULL, (const uint64_t(*)[EC_SCALAR_LIMBS])canon};
    }
#ifdef MSM_GLV
    if (st.glv) {
        if (!MSG(msm_glv_split_)(&glv, &bits, src.canon, canon, bases, idx, n_pip, w, T, pool))
            goto out;
        msm_plan(&st.plan, 2 * n_pip, bits, T, o.window);
    }
#endif

    if (n_pip > 0) {
        unsigned W = st.plan.windows, P = st.plan.chunks, c = st.plan.window;
        size_t tasks = (size_t)W * P;
        assert(n <= SIZE_MAX / P);
        partial = malloc(tasks * sizeof(MSX));
        if (!partial)
            goto out;
        size_t scanned = glv.n ? 2 * n_pip : idx ? n_pip : n;
        MSG(msm_bucket_ctx_t)
        ctx = {{bases, n, idx, glv.phi},
               src,
               scanned,
               glv,
               o.ones_in_pippenger,
               c,
               P,
               bits,
               partial,
               w};
        pool_for(pool, tasks, 1, MSG(msm_bucket_tasks_), &ctx);
        for (unsigned t = 0; t < T; t++)
            if (w[t].nomem)
                goto out;
        /* Horner from the top window: tot = 2^c·tot + S_w, S_w = Σ_p partial. */
        MSX tot;
        MSG(xyzz_set_infinity)(&tot);
        for (unsigned win = W; win-- > 0;) {
            if (win + 1 < W)
                for (unsigned i = 0; i < c; i++)
                    MSG(xyzz_dbl)(&tot, &tot);
            for (unsigned p = 0; p < P; p++)
                MSG(xyzz_add_vartime)(&tot, &tot, &partial[(size_t)win * P + p]);
        }
        MSG(xyzz_add_vartime)(&acc, &acc, &tot);
    }

    MSA a;
    MSG(xyzz_to_affine)(&a, &acc);
    MSG(jac_from_affine)(r, &a);
    for (unsigned t = 0; t < T; t++) {
        st.ones_adds += w[t].ones_adds;
        st.bucket_adds += w[t].bucket_adds;
        st.reduce_adds += w[t].reduce_adds;
    }
    if (stats)
        *stats = st;
    status = CUZK_OK;
out:
#ifdef MSM_GLV
    MSG(msm_glv_free_)(&glv, canon);
#endif
    free(partial);
    free(idx);
    free(canon);
    MSG(msm_workers_free_)(w, T);
    return status;
}

cuzk_status_t MSG(msm_vartime)(MSJ *r, const MSA *bases, const MSFT *scalars, size_t n,
                               pool_t *pool)
{
    MSG(msm_src_t) src = {scalars, NULL};
    return MSG(msm_run_)(r, bases, src, n, NULL, NULL, pool);
}

cuzk_status_t MSG(msm_canonical_vartime)(MSJ *r, const MSA *bases,
                                         const uint64_t (*scalars)[EC_SCALAR_LIMBS], size_t n,
                                         pool_t *pool)
{
    MSG(msm_src_t) src = {NULL, scalars};
    return MSG(msm_run_)(r, bases, src, n, NULL, NULL, pool);
}

cuzk_status_t MSG(msm_tuned_vartime)(MSJ *r, const MSA *bases, const MSFT *scalars, size_t n,
                                     const msm_opts_t *opts, msm_stats_t *stats, pool_t *pool)
{
    MSG(msm_src_t) src = {scalars, NULL};
    return MSG(msm_run_)(r, bases, src, n, opts, stats, pool);
}

void MSG(msm_horner)(MSX *r, const MSX *win, unsigned windows, unsigned window)
{
    assert(windows >= 1);
    MSX acc = win[windows - 1];
    for (unsigned w = windows - 1; w-- > 0;) {
        for (unsigned i = 0; i < window; i++)
            MSG(xyzz_dbl)(&acc, &acc);
        MSG(xyzz_add_vartime)(&acc, &acc, &win[w]);
    }
    *r = acc;
}

cuzk_status_t MSG(msm_classify)(uint8_t *cls, msm_counts_t *counts, const MSFT *scalars, size_t n,
                                pool_t *pool)
{
    assert(counts && (n == 0 || scalars));
    unsigned T = pool_threads(pool);
    MSG(msm_worker_t) *w = MSG(msm_workers_new_)(T);
    if (!w)
        return CUZK_ENOMEM;
    MSG(msm_src_t) src = {scalars, NULL};
    MSX unused;
    MSG(msm_pass_classify_)(counts, &unused, NULL, src, cls, NULL, n, w, T, pool);
    MSG(msm_workers_free_)(w, T);
    return CUZK_OK;
}

/* ---- benchmark ---------------------------------------------------------- */

cuzk_status_t MSG(msm_bench)(double *seconds, msm_stats_t *stats, size_t n, bool porep,
                             const msm_opts_t *opts, uint64_t seed, pool_t *pool)
{
    assert(seconds && stats);
    rng_t rng;
    rng_seed(&rng, seed);
    MSA *bases = malloc((n ? n : 1) * sizeof(MSA));
    MSJ *walk = malloc((n ? n : 1) * sizeof(MSJ));
    MSFT *scalars = malloc((n ? n : 1) * sizeof(MSFT));
    cuzk_status_t st = CUZK_ENOMEM;
    if (!bases || !walk || !scalars)
        goto out;
    MSA g;
    MSJ step[4], acc;
    MSG(generator)(&g);
    for (int s = 0; s < 4; s++) {
        uint64_t k[EC_SCALAR_LIMBS];
        for (int l = 0; l < EC_SCALAR_LIMBS; l++)
            k[l] = rng_next(&rng);
        MSG(jac_from_affine)(&step[s], &g);
        MSG(jac_mul_vartime)(&step[s], &step[s], k);
    }
    acc = step[0];
    for (size_t i = 0; i < n; i++) {
        MSG(jac_add_vartime)(&acc, &acc, &step[rng_next(&rng) & 3]);
        walk[i] = acc;
    }
    MSG(jacs_to_affine_vartime)(bases, walk, n);
    for (size_t i = 0; i < n; i++) {
        unsigned roll = (unsigned)(rng_next(&rng) % 100);
        if (porep && roll < 45) {
            MSF(set_zero)(&scalars[i]);
        } else if (porep && roll < 90) {
            MSF(set_one)(&scalars[i]);
        } else {
            st = MSF(random)(&scalars[i], &rng);
            if (st != CUZK_OK)
                goto out;
        }
    }
    struct timespec t0, t1;
    MSJ r;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    st = MSG(msm_tuned_vartime)(&r, bases, scalars, n, opts, stats, pool);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
out:
    free(bases);
    free(walk);
    free(scalars);
    return st;
}
