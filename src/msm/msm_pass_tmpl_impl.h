/*
 * The two passes of an MSM (msm.h): pass 1 classifies the scalars (zero,
 * one, other) and sums the scalar-one bases; pass 2 takes each window's
 * digits into buckets (batch-affine additions where they pay) and reduces
 * the buckets to the window's sum. Part of msm_tmpl_impl.h; not included
 * directly.
 */

/* ---- pass 1: classify (and sum the scalar-one bases) ------------------ */

typedef struct {
    const MSA *bases; /* NULL: do not sum the ones */
    MSG(msm_src_t) src;
    uint8_t *cls;                       /* NULL: not wanted */
    uint64_t (*canon)[EC_SCALAR_LIMBS]; /* the canonical scalars; NULL: not wanted */
    MSG(msm_worker_t) * w;
} MSG(msm_classify_ctx_t);

static void MSG(msm_classify_range_)(void *vctx, size_t begin, size_t end, unsigned worker)
{
    const MSG(msm_classify_ctx_t) *ctx = vctx;
    MSG(msm_worker_t) *w = &ctx->w[worker];
    for (size_t i = begin; i < end; i++) {
        uint64_t k[EC_SCALAR_LIMBS];
        unsigned cl = MSG(msm_scalar_)(&ctx->src, i, k);
        if (ctx->cls)
            ctx->cls[i] = (uint8_t)cl;
        if (ctx->canon) {
            for (int j = 0; j < EC_SCALAR_LIMBS; j++)
                ctx->canon[i][j] = cl == CUZK_MSM_ZERO ? 0 : k[j];
        }
        if (cl == CUZK_MSM_ZERO) {
            w->zero++;
        } else if (cl == CUZK_MSM_ONE) {
            w->one++;
            if (ctx->bases) {
                MSG(msm_ones_add_)(w, &ctx->bases[i]);
                w->ones_adds++;
            }
        } else {
            w->other++;
            for (int j = 0; j < EC_SCALAR_LIMBS; j++)
                w->or_bits[j] |= k[j];
        }
    }
}

/* Per-worker state for T workers, or NULL when out of memory. */
static MSG(msm_worker_t) * MSG(msm_workers_new_)(unsigned T)
{
    size_t bytes = (size_t)T * sizeof(MSG(msm_worker_t));
    MSG(msm_worker_t) *w = aligned_alloc(64, bytes);
    if (!w)
        return NULL;
    for (unsigned t = 0; t < T; t++) {
        w[t] = (MSG(msm_worker_t)){0};
        MSG(xyzz_set_infinity)(&w[t].ones);
    }
    return w;
}

static void MSG(msm_workers_free_)(MSG(msm_worker_t) * w, unsigned T)
{
    for (unsigned t = 0; t < T; t++) {
        free(w[t].buckets);
        free(w[t].busy);
        free(w[t].def);
        free(w[t].num);
        free(w[t].den);
        free(w[t].scr);
        free(w[t].bp);
        free(w[t].xp);
        free(w[t].red);
        free(w[t].vscr);
        free(w[t].obuf);
    }
    free(w);
}

/* Pass 1 over all points; the totals go to *counts and, when bases is
 * non-NULL, the sum of the scalar-one bases to *ones; cls and canon, when
 * non-NULL, receive each scalar's class and canonical limbs. */
static void MSG(msm_pass_classify_)(msm_counts_t *counts, MSX *ones, const MSA *bases,
                                    MSG(msm_src_t) src, uint8_t *cls,
                                    uint64_t (*canon)[EC_SCALAR_LIMBS], size_t n,
                                    MSG(msm_worker_t) * w, unsigned T, pool_t *pool)
{
    MSG(msm_classify_ctx_t) ctx = {bases, src, cls, canon, w};
    pool_for(pool, n, 0, MSG(msm_classify_range_), &ctx);
    uint64_t or_bits[EC_SCALAR_LIMBS] = {0};
    *counts = (msm_counts_t){0};
    MSG(xyzz_set_infinity)(ones);
    for (unsigned t = 0; t < T; t++) {
        counts->zero += w[t].zero;
        counts->one += w[t].one;
        counts->other += w[t].other;
        for (int j = 0; j < EC_SCALAR_LIMBS; j++)
            or_bits[j] |= w[t].or_bits[j];
        MSG(msm_ones_flush_)(&w[t]);
        MSG(xyzz_add_vartime)(ones, ones, &w[t].ones);
    }
    for (int j = EC_SCALAR_LIMBS; j-- > 0;) {
        if (or_bits[j]) {
            counts->bits = 64 * (unsigned)j + 64 - (unsigned)__builtin_clzll(or_bits[j]);
            break;
        }
    }
}

/* ---- pass 2: digits → buckets → reduce -------------------------------- */

/*
 * Where the bucket pass's point references lead: r < nbases is bases[r];
 * r = nbases + u is phi[u], phi of the point of split scalar u (msm_glv_t).
 * idx: split (or compacted) scalar u belongs to bases[idx[u]] (NULL: to
 * bases[u]).
 */
typedef struct {
    const MSA *bases;
    size_t nbases;
    const size_t *idx;
    const MSA *phi;
} MSG(msm_refs_t);

/* The point of reference r. */
static inline const MSA *MSG(msm_ref_)(const MSG(msm_refs_t) * rf, size_t r)
{
    return r < rf->nbases ? &rf->bases[r] : &rf->phi[r - rf->nbases];
}

/* The GLV split (NAME_glv_split, ec_tmpl.h): scalar u of n becomes the
 * 127-bit |k1| (limbs 0, 1 of k[u]) and |k2| (limbs 2, 3), virtual scalars
 * u and n + u, the second on phi of u's point; neg[u] bit h: half h < 0. */
typedef struct {
    size_t n; /* 0: no split */
    uint64_t (*k)[EC_SCALAR_LIMBS];
    uint8_t *neg;
    MSA *phi;
} MSG(msm_glv_t);

typedef struct {
    MSG(msm_refs_t) refs; /* refs.idx: scalar i belongs to bases[idx[i]]; NULL: to bases[i] */
    MSG(msm_src_t) src;
    size_t n; /* scalars scanned: 2·glv.n when split */
    MSG(msm_glv_t) glv;
    bool ones_in_pippenger;
    unsigned c, chunks;
    unsigned bits; /* the plan's: bit length of the OR of the scalars in the buckets */
    MSX *partial;  /* one window sum per task */
    MSG(msm_worker_t) * w;
} MSG(msm_bucket_ctx_t);

/* Scalar i's signed digit in window w and its point reference; false when
 * it takes no bucket there. */
static inline bool MSG(msm_task_digit_)(const MSG(msm_bucket_ctx_t) * ctx, size_t i, unsigned w,
                                        int *d, size_t *ref)
{
    uint64_t k[EC_SCALAR_LIMBS];
    const MSG(msm_glv_t) *g = &ctx->glv;
    if (g->n) {
        size_t h = i >= g->n, u = i - h * g->n;
        k[0] = g->k[u][2 * h];
        k[1] = g->k[u][2 * h + 1];
        k[2] = k[3] = 0;
        *d = msm_scalar_digit(k, w, ctx->c);
        if ((g->neg[u] >> h) & 1)
            *d = -*d;
        *ref = h ? ctx->refs.nbases + u : ctx->refs.idx ? ctx->refs.idx[u] : u;
        return *d != 0;
    }
    unsigned cl = MSG(msm_scalar_)(&ctx->src, i, k);
    if (cl == CUZK_MSM_ZERO || (cl == CUZK_MSM_ONE && !ctx->ones_in_pippenger))
        return false;
    *d = msm_scalar_digit(k, w, ctx->c);
    *ref = ctx->refs.idx ? ctx->refs.idx[i] : i;
    return *d != 0;
}

/* bucket[|d| - 1] += sign(d)·(the point of reference r), d != 0. */
static inline void MSG(msm_bucket_add_)(MSX *bucket, const MSG(msm_refs_t) * rf, size_t r, int d)
{
    MSA q = *MSG(msm_ref_)(rf, r);
    if (d > 0) {
        MSG(xyzz_add_affine_vartime)(&bucket[d - 1], &bucket[d - 1], &q);
    } else {
        MSG(affine_neg)(&q, &q);
        MSG(xyzz_add_affine_vartime)(&bucket[-d - 1], &bucket[-d - 1], &q);
    }
}

/*
 * Batch-affine bucket accumulation (c >= CUZK_MSM_BATCH_MIN_WINDOW). The
 * buckets are affine; the additions of one batch go to distinct buckets and
 * share one inversion (Montgomery's trick, 3M per element), so an addition
 * costs 5M + 1S plus its share of one inversion, against madd-2008-s's
 * 8M + 2S, on buckets of half the size:
 *     λ = (y2 - y1)/(x2 - x1)  (doubling: 3x1^2 / 2y1)
 *     x3 = λ^2 - x1 - x2,  y3 = λ(x1 - x3) - y1.
 * An addition whose bucket is already in the batch is deferred to the next
 * one; an empty bucket takes the point as it is, and P + (-P) empties the
 * bucket at once, so neither enters the batch (no zero denominator).
 */

/*
 * The buckets window w can reach: 2^(c-1), but for the top window, whose
 * digit is the r = bits - w·c bits left over plus the carry from below
 * (msm_scalar_digit: never negative there, at most 2^r), 2^r when r < c - 1.
 * With bits = 254 (BN254) and c = 11 that is 2 buckets for every point of
 * the window: as a batch of distinct buckets it had two additions per
 * inversion and took 0.316 s for a 2^16 MSM on one thread, against 0.177 s
 * at c = 13, whose top window reaches 64.
 */
static size_t MSG(msm_window_buckets_)(unsigned w, unsigned c, unsigned bits)
{
    unsigned r = bits - w * c;
    return r < c - 1 ? (size_t)1 << r : (size_t)1 << (c - 1);
}

typedef struct {
    const MSG(msm_refs_t) * refs;
    MSA *bucket;
    MSG(msm_worker_t) * w;
    size_t k, ndef, max; /* entries in the batch, deferred, capacity of both */
    uint32_t epoch;      /* the batch's number: busy[j] == epoch, j in it */
} MSG(msm_batch_t);

/*
 * Makes *dst += (x2, y2) entry e of the worker's batch (returns true), or
 * does it at once (false): when dst is infinity, and when the sum is (x2 =
 * dst.x and y2 = -dst.y, or 2-torsion). x2 must stay where it is until the
 * batch is finished; (x2, y2) not infinity.
 */
static inline bool MSG(msm_entry_)(MSG(msm_worker_t) * w, size_t e, MSA *dst, const MSQT *x2,
                                   const MSQT *y2)
{
    if (MSG(affine_is_infinity)(dst)) {
        dst->x = *x2;
        dst->y = *y2;
        return false;
    }
    if (MSQ(equal)(&dst->x, x2)) {
        if (!MSQ(equal)(&dst->y, y2) || MSQ(is_zero)(&dst->y)) {
            MSG(affine_set_infinity)(dst); /* dst = -q, or 2-torsion: 2·dst = infinity */
            return false;
        }
        MSQT t; /* doubling: λ = 3x^2 / 2y */
        MSQ(sqr)(&t, &dst->x);
        MSQ(dbl)(&w->num[e], &t);
        MSQ(add)(&w->num[e], &w->num[e], &t);
        MSQ(dbl)(&w->den[e], &dst->y);
    } else {
        MSQ(sub)(&w->num[e], y2, &dst->y);
        MSQ(sub)(&w->den[e], x2, &dst->x);
    }
    w->bp[e] = dst;
    w->xp[e] = x2;
    return true;
}

/* Finishes the worker's k entries: *bp[e] += (*xp[e], ·) with λ = num/den,
 * by the vector kernel when the worker has its scratch and k is at least
 * its least batch, else one scalar
 * inversion and 5M + 1S an entry (batch inversion included). */
static void MSG(msm_finish_)(MSG(msm_worker_t) * w, size_t k)
{
    if (w->vscr && k >= w->vmin) {
        w->vfn(w->bp, w->xp, w->num, w->den, k, w->vscr);
        return;
    }
    MSQS(inv_vartime)(w->den, w->scr, k);
    for (size_t e = 0; e < k; e++) {
        MSA *b = w->bp[e];
        const MSQT *x2 = w->xp[e];
        MSQT l, x3, t;
        MSQ(mul)(&l, &w->num[e], &w->den[e]); /* λ: 1M */
        MSQ(sqr)(&x3, &l);                    /* 1S */
        MSQ(sub)(&x3, &x3, &b->x);
        MSQ(sub)(&x3, &x3, x2);
        MSQ(sub)(&t, &b->x, &x3);
        MSQ(mul)(&t, &t, &l); /* 1M */
        MSQ(sub)(&b->y, &t, &b->y);
        b->x = x3;
    }
}

/* Starts bucket[|d| - 1] += sign(d)·(the point of reference r): at once
 * when the bucket is empty, the point infinity or the sum infinity, else
 * as a batch entry; false (nothing done) when the bucket is in the batch.
 * k < max. */
static bool MSG(msm_batch_try_)(MSG(msm_batch_t) * bt, size_t r, int d)
{
    size_t j = (size_t)(d > 0 ? d : -d) - 1;
    MSG(msm_worker_t) *w = bt->w;
    if (w->busy[j] == bt->epoch)
        return false;
    const MSA *q = MSG(msm_ref_)(bt->refs, r);
    if (MSG(affine_is_infinity)(q)) /* phi(infinity) = infinity */
        return true;
    MSQT y2 = q->y;
    if (d < 0)
        MSQ(neg)(&y2, &q->y);
    if (MSG(msm_entry_)(w, bt->k, &bt->bucket[j], &q->x, &y2)) {
        w->busy[j] = bt->epoch;
        bt->k++;
    }
    return true;
}

/* Finishes the batch with one inversion, then starts the deferred
 * additions in a new one; those whose bucket is taken again stay deferred
 * (at least the first one leaves, so ndef < max afterwards). */
static void MSG(msm_batch_flush_)(MSG(msm_batch_t) * bt)
{
    MSG(msm_worker_t) *w = bt->w;
    MSG(msm_finish_)(w, bt->k);
    bt->k = 0;
    bt->epoch++;
    size_t kept = 0;
    for (size_t e = 0; e < bt->ndef; e++)
        if (!MSG(msm_batch_try_)(bt, w->def[e].i, w->def[e].d))
            w->def[kept++] = w->def[e];
    bt->ndef = kept;
}

/* Queues bucket[|d| - 1] += sign(d)·(the point of reference i), flushing
 * first when the batch or the deferred list is full. */
static void MSG(msm_batch_add_)(MSG(msm_batch_t) * bt, size_t i, int d)
{
    if (bt->k == bt->max || bt->ndef == bt->max)
        MSG(msm_batch_flush_)(bt);
    if (!MSG(msm_batch_try_)(bt, i, d))
        bt->w->def[bt->ndef++] = (MSG(msm_pending_t)){i, d};
}

/*
 * The running sum of affine buckets in batches. The nb buckets are cut into
 * S segments of L; all segments run their own running sums in lockstep,
 * from the top bucket of each down,
 *     run_s += bucket[s·L + m],  sum_s += run_s,
 * each step two batches of S independent affine additions (msm_adds_)
 * instead of two XYZZ additions a bucket. Then
 *     Σ_j (j + 1)·bucket[j] = Σ_s sum_s + L·Σ_s s·run_s,
 * the last sum by an XYZZ running sum over the segments: 3S XYZZ additions
 * and log2 L doublings in all (S: msm_segment_count, msm.h).
 */

static void MSG(msm_reduce_affine_)(MSG(msm_worker_t) * w, const MSA *ba, size_t nb, MSX *r)
{
    size_t S = msm_segment_count(nb), L = nb / S;
    MSA *run = w->red, *sum = w->red + S;
    for (size_t q = 0; q < S; q++) {
        MSG(affine_set_infinity)(&run[q]);
        MSG(affine_set_infinity)(&sum[q]);
    }
    for (size_t m = L; m-- > 0;) {
        MSG(msm_adds_)(w, run, ba + m, L, S); /* run_s += bucket[s·L + m] */
        MSG(msm_adds_)(w, sum, run, 1, S);    /* sum_s += run_s */
    }
    MSX tot, acc, rs;
    MSG(xyzz_set_infinity)(&tot);
    MSG(xyzz_set_infinity)(&acc);
    MSG(xyzz_set_infinity)(&rs);
    for (size_t q = S; q-- > 1;) {
        MSG(xyzz_add_affine_vartime)(&acc, &acc, &run[q]);
        MSG(xyzz_add_vartime)(&rs, &rs, &acc);
    }
    for (size_t l = L; l > 1; l >>= 1)
        MSG(xyzz_dbl)(&rs, &rs);
    for (size_t q = 0; q < S; q++)
        MSG(xyzz_add_affine_vartime)(&tot, &tot, &sum[q]);
    MSG(xyzz_add_vartime)(r, &tot, &rs);
}

/* The worker's scratch for windows of c bits; false when out of memory. */
static bool MSG(msm_worker_alloc_)(MSG(msm_worker_t) * wk, unsigned c)
{
    size_t nb = (size_t)1 << (c - 1);
    wk->buckets = malloc(nb * sizeof(MSX));
    if (!wk->buckets)
        return false;
    if (c < CUZK_MSM_BATCH_MIN_WINDOW)
        return true;
    size_t m = msm_batch_size(nb);
    wk->busy = malloc(nb * sizeof(uint32_t));
    wk->def = malloc(m * sizeof(MSG(msm_pending_t)));
    wk->red = malloc(2 * msm_segment_count(nb) * sizeof(MSA));
    return wk->busy && wk->def && wk->red && MSG(msm_entries_alloc_)(wk);
}

/*
 * Task t = (window t / P, point range t % P): fill the buckets the window
 * can reach (msm_window_buckets_) from the range's digits, then r = Σ_j
 * (j + 1)·bucket[j] by the running sum
 *     run = Σ_{i >= j} bucket[i],  sum = Σ_j run_j,
 * 2 XYZZ additions per bucket, or for affine buckets segment by segment in
 * batches (msm_reduce_affine_). Batch-affine when c >=
 * CUZK_MSM_BATCH_MIN_WINDOW and the window reaches at least
 * 2^(CUZK_MSM_BATCH_MIN_WINDOW - 1) buckets, else XYZZ.
 * The bucket of the next point is prefetched while the current one is
 * added (the arrays exceed L2 for c >= 13).
 */
static void MSG(msm_bucket_tasks_)(void *vctx, size_t begin, size_t end, unsigned worker)
{
    const MSG(msm_bucket_ctx_t) *ctx = vctx;
    MSG(msm_worker_t) *wk = &ctx->w[worker];
    if (!wk->buckets && !MSG(msm_worker_alloc_)(wk, ctx->c)) {
        wk->nomem = true;
        return;
    }
    if (wk->nomem)
        return;
    MSX *b = wk->buckets;
    MSA *ba = (MSA *)(void *)wk->buckets; /* the same memory, affine */
    for (size_t t = begin; t < end; t++) {
        unsigned w = (unsigned)(t / ctx->chunks);
        size_t p = t % ctx->chunks;
        size_t lo = ctx->n * p / ctx->chunks, hi = ctx->n * (p + 1) / ctx->chunks;
        size_t nb = MSG(msm_window_buckets_)(w, ctx->c, ctx->bits);
        bool batch = ctx->c >= CUZK_MSM_BATCH_MIN_WINDOW &&
                     nb >= (size_t)1 << (CUZK_MSM_BATCH_MIN_WINDOW - 1);
        MSG(msm_batch_t) bt = {&ctx->refs, ba, wk, 0, 0, 0, 1};
        if (batch) {
            bt.max = msm_batch_size(nb);
            for (size_t j = 0; j < nb; j++) {
                MSG(affine_set_infinity)(&ba[j]);
                wk->busy[j] = 0;
            }
        } else {
            for (size_t j = 0; j < nb; j++)
                MSG(xyzz_set_infinity)(&b[j]);
        }
        size_t pending_i = 0;
        int pending_d = 0;
        for (size_t i = lo; i < hi; i++) {
            int d;
            size_t pi;
            if (!MSG(msm_task_digit_)(ctx, i, w, &d, &pi))
                continue;
            size_t j = (size_t)(d > 0 ? d : -d) - 1;
            assert(j < nb);
            if (batch)
                __builtin_prefetch(&ba[j], 1);
            else
                __builtin_prefetch(&b[j], 1);
            __builtin_prefetch(MSG(msm_ref_)(&ctx->refs, pi));
            if (pending_d) {
                if (batch)
                    MSG(msm_batch_add_)(&bt, pending_i, pending_d);
                else
                    MSG(msm_bucket_add_)(b, &ctx->refs, pending_i, pending_d);
            }
            pending_i = pi;
            pending_d = d;
            wk->bucket_adds++;
        }
        MSX run, sum;
        MSG(xyzz_set_infinity)(&run);
        MSG(xyzz_set_infinity)(&sum);
        if (batch) {
            if (pending_d)
                MSG(msm_batch_add_)(&bt, pending_i, pending_d);
            while (bt.k > 0 || bt.ndef > 0)
                MSG(msm_batch_flush_)(&bt);
            MSG(msm_reduce_affine_)(wk, ba, nb, &sum);
        } else {
            if (pending_d)
                MSG(msm_bucket_add_)(b, &ctx->refs, pending_i, pending_d);
            for (size_t j = nb; j-- > 0;) {
                MSG(xyzz_add_vartime)(&run, &run, &b[j]);
                MSG(xyzz_add_vartime)(&sum, &sum, &run);
            }
        }
        wk->reduce_adds += 2 * nb;
        ctx->partial[t] = sum;
    }
}
