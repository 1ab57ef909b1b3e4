/*
 * Stage msm of groth16_tmpl.h: the five MSMs of a proof, each query with
 * the scalars its convention gives it, and the copy of query vectors that
 * are not aligned for the MSM. Part of groth16_tmpl_impl.h; not included
 * directly.
 */

/* Where misaligned sections are copied: one buffer that the MSMs of a
 * proof reuse, its pages faulted once (a fresh 4 MiB copy took 1.3-1.6 ms
 * at 2^16, mostly page faults). */
typedef struct {
    unsigned char *buf;
    size_t cap;
} G16N(copy_buf_t);

typedef struct {
    unsigned char *dst;
    const unsigned char *src;
} G16N(copy_ctx_t);

static void G16N(copy_task)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const G16N(copy_ctx_t) *c = ctx;
    memcpy(c->dst + begin, c->src + begin, end - begin);
}

/* The points of p as an array of affine points of point_bytes each: p's
 * own memory when it is aligned, else a copy in cb's buffer (by all
 * threads). */
static cuzk_status_t G16N(points)(const void **out, G16N(copy_buf_t) * cb, groth16_points_t p,
                                  size_t point_bytes, pool_t *pool)
{
    *out = p.data;
    if (p.count == 0 || groth16_points_aligned(p))
        return CUZK_OK;
    size_t bytes = (size_t)p.count * point_bytes;
    if (bytes > cb->cap) {
        free(cb->buf);
        cb->buf = malloc(bytes);
        cb->cap = cb->buf ? bytes : 0;
        if (!cb->buf)
            return CUZK_ENOMEM;
    }
    G16N(copy_ctx_t) c = {cb->buf, p.data};
    pool_for(pool, bytes, (size_t)1 << 16, G16N(copy_task), &c);
    *out = cb->buf;
    return CUZK_OK;
}

static cuzk_status_t G16N(msm_g1)(G16G1J *r, groth16_points_t p,
                                  const uint64_t (*scalars)[EC_SCALAR_LIMBS], size_t n,
                                  G16N(copy_buf_t) * cb, pool_t *pool)
{
    const void *bases;
    cuzk_status_t s = G16N(points)(&bases, cb, p, sizeof(G16G1A), pool);
    if (s == CUZK_OK)
        s = G16G1(msm_canonical_vartime)(r, bases, scalars, n, pool);
    return s;
}

cuzk_status_t G16N(msm)(G16ST *st, pool_t *pool, progress_t *progress)
{
    typedef const uint64_t(*scalars_t)[EC_SCALAR_LIMBS];
    const groth16_key_t *key = st->key;
    bool density = key->conv.ab == GROTH16_AB_DENSITY;
    scalars_t sa = density ? (scalars_t)st->sa : (scalars_t)st->w;
    scalars_t sb = density ? (scalars_t)st->sb : (scalars_t)st->w;
    scalars_t sl = key->conv.l != GROTH16_L_AUX ? (scalars_t)st->w + key->n_public + 1
                   : st->aux                    ? (scalars_t)st->aux
                                                : st->asgn->aux;
    progress_begin(progress, "msm",
                   (uint64_t)key->a.count + key->b1.count + key->l.count + key->h.count +
                       key->b2.count,
                   "points");
    G16N(copy_buf_t) cb = {NULL, 0};
    cuzk_status_t s = G16N(msm_g1)(&st->msm_a, key->a, sa, key->a.count, &cb, pool);
    progress_advance(progress, key->a.count);
    if (s == CUZK_OK)
        s = G16N(msm_g1)(&st->msm_b1, key->b1, sb, key->b1.count, &cb, pool);
    progress_advance(progress, key->b1.count);
    if (s == CUZK_OK)
        s = G16N(msm_g1)(&st->msm_l, key->l, sl, key->l.count, &cb, pool);
    progress_advance(progress, key->l.count);
    if (s == CUZK_OK)
        s = G16N(msm_g1)(&st->msm_h, key->h, (scalars_t)st->h, key->h.count, &cb, pool);
    progress_advance(progress, key->h.count);
    if (s == CUZK_OK) {
        const void *bases;
        s = G16N(points)(&bases, &cb, key->b2, sizeof(G16G2A), pool);
        if (s == CUZK_OK)
            s = G16G2(msm_canonical_vartime)(&st->msm_b2, bases, sb, key->b2.count, pool);
    }
    progress_advance(progress, key->b2.count);
    free(cb.buf);
    return s;
}
