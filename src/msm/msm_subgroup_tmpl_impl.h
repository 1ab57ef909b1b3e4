/*
 * The batch subgroup check of msm.h (NAME_msm_subgroup_check and
 * NAME_msm_subgroup_first_outside): rows of random 0/1 combinations of
 * the points, each row's sum tested exactly, and the search for the first
 * point outside. Part of msm_tmpl_impl.h; not included directly.
 */

/* ---- batch subgroup check (msm.h) ------------------------------------- */

/* A worker's scratch beyond the MSM's buckets and batch (msm_worker_t). */
typedef struct {
    MSA *blk;      /* CUZK_MSM_SG_BLOCK points copied from the input */
    uint16_t *pat; /* their patterns */
} MSG(sg_worker_t);

typedef struct {
    const unsigned char *const *pts;
    const size_t *counts;
    size_t n;
    msm_sg_plan_t plan;
    const uint64_t *seeds; /* one a task; NULL: the operating system's bits */
    MSX *rows;             /* t row sums a task */
    MSG(msm_worker_t) * w;
    MSG(sg_worker_t) * sw;
    _Atomic int status; /* CUZK_OK, or the first failure */
} MSG(sg_ctx_t);

/* A walk through the points of m arrays as one sequence. */
typedef struct {
    const unsigned char *const *pts;
    const size_t *counts;
    size_t arr, off; /* the next point: array arr, point off */
} MSG(sg_cursor_t);

/* A cursor at point i (< the arrays' total). */
static MSG(sg_cursor_t)
    MSG(sg_cursor_)(const unsigned char *const *pts, const size_t *counts, size_t i)
{
    MSG(sg_cursor_t) c = {pts, counts, 0, i};
    while (c.off >= counts[c.arr])
        c.off -= counts[c.arr++];
    return c;
}

/* The next point into q; there must be one. */
static inline void MSG(sg_next_)(MSG(sg_cursor_t) * c, MSA *q)
{
    while (c->off == c->counts[c->arr]) {
        c->arr++;
        c->off = 0;
    }
    memcpy(q, c->pts[c->arr] + c->off++ * sizeof(MSA), sizeof(MSA));
}

/*
 * The t row sums of one group from its affine buckets, in place: A[v] holds
 * the points of pattern v (A[0] = O), rows[r] = Σ_{v: bit r of v} A[v], by
 * halving (msm.h): row r is the sum of the upper half, then the upper half
 * folds onto the lower, A[u] += A[u + 2^r], in batches of affine additions
 * (msm_adds_); 2^t of those and 2^t mixed XYZZ additions.
 */
static void MSG(sg_fold_)(MSG(msm_worker_t) * w, MSX *rows, MSA *A, unsigned t)
{
    for (unsigned r = t; r-- > 0;) {
        size_t half = (size_t)1 << r;
        MSX acc;
        MSG(xyzz_set_infinity)(&acc);
        for (size_t u = half; u < 2 * half; u++)
            MSG(xyzz_add_affine_vartime)(&acc, &acc, &A[u]);
        rows[r] = acc;
        if (r > 0)
            MSG(msm_adds_)(w, A, A + half, 1, half);
    }
}

static bool MSG(sg_worker_alloc_)(MSG(msm_worker_t) * wk, MSG(sg_worker_t) * sw, unsigned t)
{
    sw->blk = malloc(CUZK_MSM_SG_BLOCK * sizeof(MSA));
    sw->pat = malloc(CUZK_MSM_SG_BLOCK * sizeof(uint16_t));
    return MSG(msm_worker_alloc_)(wk, t + 1) && sw->blk && sw->pat;
}

static void MSG(sg_fail_)(MSG(sg_ctx_t) * ctx, cuzk_status_t st)
{
    int ok = CUZK_OK;
    atomic_compare_exchange_strong(&ctx->status, &ok, (int)st);
}

/*
 * Task i = (group i / parts, range i % parts): every point of the range
 * adds into the bucket of a fresh t-bit pattern (0: into none), a block at
 * a time, the batch emptied at the end of each block (its entries name
 * points of the block); then the group's t row sums.
 */
static void MSG(sg_tasks_)(void *vctx, size_t begin, size_t end, unsigned worker)
{
    MSG(sg_ctx_t) *ctx = vctx;
    MSG(msm_worker_t) *wk = &ctx->w[worker];
    MSG(sg_worker_t) *sw = &ctx->sw[worker];
    unsigned bits = ctx->plan.t;
    if (!wk->buckets && !wk->nomem && !MSG(sg_worker_alloc_)(wk, sw, bits)) {
        wk->nomem = true;
        MSG(sg_fail_)(ctx, CUZK_ENOMEM);
    }
    if (wk->nomem)
        return;
    size_t nb = (size_t)1 << bits;
    MSA *ba = (MSA *)(void *)wk->buckets;
    for (size_t task = begin; task < end; task++) {
        if (atomic_load_explicit(&ctx->status, memory_order_relaxed) != CUZK_OK)
            return;
        size_t p = task % ctx->plan.parts;
        size_t lo = ctx->n * p / ctx->plan.parts, hi = ctx->n * (p + 1) / ctx->plan.parts;
        rng_t rng;
        if (ctx->seeds)
            rng_seed(&rng, ctx->seeds[task]);
        for (size_t j = 0; j < nb; j++) {
            MSG(affine_set_infinity)(&ba[j]);
            wk->busy[j] = 0;
        }
        /* pattern v goes to ba[v] (bucket v - 1 of the batch), ba[0] = O */
        MSG(msm_refs_t) refs = {sw->blk, CUZK_MSM_SG_BLOCK, NULL, NULL};
        MSG(msm_batch_t) bt = {&refs, ba + 1, wk, 0, 0, msm_batch_size(nb), 1};
        MSG(sg_cursor_t) cur;
        if (lo < hi)
            cur = MSG(sg_cursor_)(ctx->pts, ctx->counts, lo);
        for (size_t g = lo; g < hi;) {
            size_t len = hi - g < CUZK_MSM_SG_BLOCK ? hi - g : CUZK_MSM_SG_BLOCK;
            for (size_t i = 0; i < len; i++)
                MSG(sg_next_)(&cur, &sw->blk[i]);
            cuzk_status_t st =
                random_bytes(ctx->seeds ? &rng : NULL, sw->pat, len * sizeof(uint16_t));
            if (st != CUZK_OK) {
                MSG(sg_fail_)(ctx, st);
                return;
            }
            for (size_t i = 0; i < len; i++) {
                unsigned v = sw->pat[i] & (unsigned)(nb - 1);
                if (v)
                    MSG(msm_batch_add_)(&bt, i, (int)v);
            }
            while (bt.k > 0 || bt.ndef > 0)
                MSG(msm_batch_flush_)(&bt);
            g += len;
        }
        MSG(sg_fold_)(wk, &ctx->rows[task * bits], ba, bits);
    }
}

/* The exact test over the points [begin, end) of the flattened arrays. */
typedef struct {
    const unsigned char *const *pts;
    const size_t *counts;
    _Atomic bool outside;
} MSG(sg_each_ctx_t);

static void MSG(sg_each_)(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    MSG(sg_each_ctx_t) *ctx = vctx;
    MSG(sg_cursor_t) cur = MSG(sg_cursor_)(ctx->pts, ctx->counts, begin);
    for (size_t i = begin; i < end; i++) {
        if (atomic_load_explicit(&ctx->outside, memory_order_relaxed))
            return;
        MSA q;
        MSG(sg_next_)(&cur, &q);
        if (!MSG(affine_is_in_subgroup_vartime)(&q))
            atomic_store_explicit(&ctx->outside, true, memory_order_relaxed);
    }
}

static bool MSG(sg_all_each_)(const unsigned char *const *pts, const size_t *counts, size_t n,
                              pool_t *pool)
{
    MSG(sg_each_ctx_t) ctx = {pts, counts, false};
    pool_for(pool, n, 0, MSG(sg_each_), &ctx);
    return !atomic_load(&ctx.outside);
}

cuzk_status_t MSG(msm_subgroup_check)(bool *all_in, const void *const *pts, const size_t *counts,
                                      size_t m, rng_t *rng, pool_t *pool)
{
    assert(all_in && (m == 0 || (pts && counts)));
    const unsigned char *const *bytes = (const unsigned char *const *)pts;
    size_t n = 0;
    for (size_t j = 0; j < m; j++)
        n += counts[j];
    unsigned T = pool_threads(pool);
    msm_sg_plan_t plan;
    msm_sg_plan(&plan, n, T);
    if (plan.t == 0) {
        *all_in = MSG(sg_all_each_)(bytes, counts, n, pool);
        return CUZK_OK;
    }
    size_t tasks = (size_t)plan.chunks * plan.parts, rows = tasks * plan.t;
    size_t nrows = (size_t)plan.chunks * plan.t;
    MSG(msm_worker_t) *w = MSG(msm_workers_new_)(T);
    MSG(sg_worker_t) *sw = calloc(T, sizeof *sw);
    MSX *part = malloc(rows * sizeof(MSX));
    MSX *sum = malloc(nrows * sizeof(MSX));
    MSA *row = malloc(nrows * sizeof(MSA));
    uint64_t *seeds = rng ? malloc(tasks * sizeof(uint64_t)) : NULL;
    cuzk_status_t st = CUZK_ENOMEM;
    if (!w || !sw || !part || !sum || !row || (rng && !seeds))
        goto out;
    for (size_t i = 0; rng && i < tasks; i++)
        seeds[i] = rng_next(rng);
    MSG(sg_ctx_t) ctx = {bytes, counts, n, plan, seeds, part, w, sw, CUZK_OK};
    pool_for(pool, tasks, 1, MSG(sg_tasks_), &ctx);
    st = (cuzk_status_t)atomic_load(&ctx.status);
    if (st != CUZK_OK)
        goto out;
    /* Row r of group k: the sum over the group's ranges, then each tested. */
    for (size_t k = 0; k < plan.chunks; k++) {
        for (unsigned r = 0; r < plan.t; r++) {
            MSX *s = &sum[k * plan.t + r];
            *s = part[k * plan.parts * plan.t + r];
            for (size_t p = 1; p < plan.parts; p++)
                MSG(xyzz_add_vartime)(s, s, &part[(k * plan.parts + p) * plan.t + r]);
        }
    }
    MSG(xyzzs_to_affine_vartime)(row, sum, nrows);
    const unsigned char *row_bytes = (const unsigned char *)row;
    *all_in = MSG(sg_all_each_)(&row_bytes, &nrows, nrows, pool);
out:
    if (w) {
        for (unsigned t = 0; t < T; t++) {
            free(sw ? sw[t].blk : NULL);
            free(sw ? sw[t].pat : NULL);
        }
        MSG(msm_workers_free_)(w, T);
    }
    free(sw);
    free(part);
    free(sum);
    free(row);
    free(seeds);
    return st;
}

/* The arrays' points [lo, hi) as arrays of their own: at most m entries
 * in sub and sub_counts; returns how many. */
static size_t MSG(sg_slice_)(const unsigned char **sub, size_t *sub_counts,
                             const unsigned char *const *pts, const size_t *counts, size_t m,
                             size_t lo, size_t hi)
{
    size_t k = 0, at = 0;
    for (size_t j = 0; j < m && at < hi; at += counts[j], j++) {
        size_t b = lo > at ? lo - at : 0, e = hi - at < counts[j] ? hi - at : counts[j];
        if (b >= e)
            continue;
        sub[k] = pts[j] + b * sizeof(MSA);
        sub_counts[k++] = e - b;
    }
    return k;
}

cuzk_status_t MSG(msm_subgroup_first_outside)(size_t *first, const void *const *pts,
                                              const size_t *counts, size_t m, rng_t *rng,
                                              pool_t *pool)
{
    assert(first && (m == 0 || (pts && counts)));
    const unsigned char *const *bytes = (const unsigned char *const *)pts;
    size_t n = 0;
    for (size_t j = 0; j < m; j++)
        n += counts[j];
    *first = n;
    const unsigned char **sub = malloc((m ? m : 1) * sizeof *sub);
    size_t *sub_counts = malloc((m ? m : 1) * sizeof *sub_counts);
    cuzk_status_t st = CUZK_ENOMEM;
    if (!sub || !sub_counts)
        goto out;
    /* [lo, hi) holds the lowest point outside, when there is one. */
    size_t lo = 0, hi = n;
    bool all_in = true;
    st = MSG(msm_subgroup_check)(&all_in, pts, counts, m, rng, pool);
    if (st != CUZK_OK || all_in)
        goto out;
    while (hi - lo > CUZK_MSM_SG_TAIL) {
        size_t mid = lo + (hi - lo) / 2;
        size_t k = MSG(sg_slice_)(sub, sub_counts, bytes, counts, m, lo, mid);
        st = MSG(msm_subgroup_check)(&all_in, (const void *const *)sub, sub_counts, k, rng, pool);
        if (st != CUZK_OK)
            goto out;
        if (all_in)
            lo = mid;
        else
            hi = mid;
    }
    /* The last few one by one. */
    MSG(sg_cursor_t) cur = MSG(sg_cursor_)(bytes, counts, lo);
    for (size_t i = lo; i < hi; i++) {
        MSA q;
        MSG(sg_next_)(&cur, &q);
        if (!MSG(affine_is_in_subgroup_vartime)(&q)) {
            *first = i;
            break;
        }
    }
out:
    free(sub);
    free(sub_counts);
    return st;
}
