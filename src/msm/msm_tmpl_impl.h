/*
 * The MSM template's implementation (contracts in msm_tmpl.h, algorithm in
 * msm.h), compiled once per group by bls381_msm.c and bn254_msm.c after
 * msm_tmpl_names.h.
 *
 * Threading: pass 1 (classify) splits the points over the pool, each worker
 * keeping its own counts and its own XYZZ sum of the scalar-one bases.
 * Then, where the group has one and it pays (MSM_GLV), the split of the
 * scalars over the pool (msm_glv_split_). Pass 2 (digits → buckets →
 * reduce) runs one task per (window, point range); a worker owns one
 * bucket array, reused by the tasks it runs, and each task leaves its
 * reduced window sum in its own slot. The caller then combines the slots
 * in task order and normalises the result to Z = 1, so r is the same
 * bytes for any pool.
 */
#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/cpu.h"
#include "util/rng.h"

/* Where the scalars come from: exactly one of the two is non-NULL. */
typedef struct {
    const MSFT *mont;
    const uint64_t (*canon)[EC_SCALAR_LIMBS];
} MSG(msm_src_t);

/* One bucket addition bucket[|d| - 1] += sign(d)·bases[i]. */
typedef struct {
    size_t i;
    int d;
} MSG(msm_pending_t);

/* What one worker owns; 64-byte aligned so that workers do not share lines. */
typedef struct {
    _Alignas(64) size_t zero, one, other;
    uint64_t or_bits[EC_SCALAR_LIMBS]; /* OR of the "other" scalars, then of the GLV halves */
    MSX ones;                          /* Σ of its scalar-one bases */
    uint64_t ones_adds, bucket_adds, reduce_adds;
    MSX *buckets; /* 2^(c-1) of them, allocated by the worker's first task */
    /* The batch-affine path's scratch (msm_batch_*), allocated with buckets;
     * the entry arrays (msm_entries_alloc_) also by the first scalar one:
     * entry e of a batch is *bp[e] += (*xp[e], y) with λ = num[e]/den[e]. */
    uint32_t *busy;           /* per bucket: the batch number that holds it */
    MSG(msm_pending_t) * def; /* the deferred additions */
    MSQT *num, *den, *scr;    /* λ = num/den per batch entry; inversion scratch */
    MSA **bp;
    const MSQT **xp;
    MSA *red;   /* the running sums' segments (msm_reduce_affine_) */
    void *vscr; /* the IFMA kernel's scratch (msm_ifma.h), when it runs */
    MSA *obuf;  /* scalar-one bases waiting to be summed in batches, nob of them */
    size_t nob;
    bool entries, no_obuf; /* the entry arrays are there; obuf could not be */
    bool nomem;
} MSG(msm_worker_t);

/* The class of scalars[i]; k = its canonical limbs unless it is zero. */
static inline unsigned MSG(msm_scalar_)(const MSG(msm_src_t) * s, size_t i,
                                        uint64_t k[EC_SCALAR_LIMBS])
{
    if (s->mont) {
        const MSFT *a = &s->mont[i];
        if (MSF(is_zero)(a))
            return CUZK_MSM_ZERO;
        if (MSF(is_one)(a)) { /* before the conversion, a multiplication */
            k[0] = 1;
            k[1] = k[2] = k[3] = 0;
            return CUZK_MSM_ONE;
        }
        MSF(to_canonical)(k, a);
    } else {
        for (int j = 0; j < EC_SCALAR_LIMBS; j++)
            k[j] = s->canon[i][j];
    }
    if ((k[1] | k[2] | k[3]) == 0 && k[0] <= 1)
        return k[0] == 0 ? CUZK_MSM_ZERO : CUZK_MSM_ONE;
    return CUZK_MSM_OTHER;
}

/* The batch entries (defined with the batch-affine code below). */
static inline bool MSG(msm_entry_)(MSG(msm_worker_t) * w, size_t e, MSA *dst, const MSQT *x2,
                                   const MSQT *y2);
static void MSG(msm_finish_)(MSG(msm_worker_t) * w, size_t k);

/* dst[u] += src[u·stride] for u < n, in batches of affine additions of up
 * to CUZK_MSM_BATCH_MAX (the worker's entry arrays); no src[u·stride] is a
 * dst[u'], and the dst are distinct. */
static void MSG(msm_adds_)(MSG(msm_worker_t) * w, MSA *dst, const MSA *src, size_t stride, size_t n)
{
    for (size_t u0 = 0; u0 < n; u0 += CUZK_MSM_BATCH_MAX) {
        size_t u1 = n - u0 < CUZK_MSM_BATCH_MAX ? n : u0 + CUZK_MSM_BATCH_MAX, k = 0;
        for (size_t u = u0; u < u1; u++) {
            const MSA *q = &src[u * stride];
            if (!MSG(affine_is_infinity)(q) && MSG(msm_entry_)(w, k, &dst[u], &q->x, &q->y))
                k++;
        }
        MSG(msm_finish_)(w, k);
    }
}

/* The worker's entry arrays, for batches of up to CUZK_MSM_BATCH_MAX
 * additions (allocated once); false when out of memory. */
static bool MSG(msm_entries_alloc_)(MSG(msm_worker_t) * wk)
{
    if (wk->entries)
        return true;
    size_t m = CUZK_MSM_BATCH_MAX; /* what an earlier failed call got stays */
    wk->num = wk->num ? wk->num : malloc(m * sizeof(MSQT));
    wk->den = wk->den ? wk->den : malloc(m * sizeof(MSQT));
    wk->scr = wk->scr ? wk->scr : malloc(m * sizeof(MSQT));
    wk->bp = wk->bp ? wk->bp : malloc(m * sizeof(MSA *));
    wk->xp = wk->xp ? wk->xp : malloc(m * sizeof(const MSQT *));
    if (!wk->num || !wk->den || !wk->scr || !wk->bp || !wk->xp)
        return false;
#ifdef MSM_BATCH_IFMA
    if (cpu_has_ifma && !wk->vscr) {
        wk->vscr = aligned_alloc(64, (MSM_CAT(MSM_BATCH_IFMA, scratch)(m) + 63) / 64 * 64);
        if (!wk->vscr)
            return false;
    }
#endif
    wk->entries = true;
    return true;
}

/*
 * The sum of the scalar-one bases (45 % of a porep-shaped witness MSM's
 * points) in batches: each worker buffers 2·MSM_ONES_HALF of them and
 * halves the buffer, obuf[u] += obuf[u + h], with batch-affine additions;
 * what is left at the end (fewer than 64) goes to its XYZZ sum. Per point
 * about one batch entry instead of a mixed XYZZ addition. Without the
 * buffer's memory the points go to the XYZZ sum directly.
 */
#ifndef MSM_ONES_HALF
#define MSM_ONES_HALF 512
#endif

static void MSG(msm_ones_halve_)(MSG(msm_worker_t) * w)
{
    size_t n = w->nob, h = n / 2;
    MSG(msm_adds_)(w, w->obuf, w->obuf + h, 1, h);
    if (n & 1)
        w->obuf[h] = w->obuf[n - 1];
    w->nob = h + (n & 1);
}

static void MSG(msm_ones_add_)(MSG(msm_worker_t) * w, const MSA *p)
{
    if (!w->obuf && !w->no_obuf) {
        w->obuf = malloc(2 * MSM_ONES_HALF * sizeof(MSA));
        if (!w->obuf || !MSG(msm_entries_alloc_)(w)) {
            free(w->obuf);
            w->obuf = NULL;
            w->no_obuf = true;
        }
    }
    if (!w->obuf) {
        MSG(xyzz_add_affine_vartime)(&w->ones, &w->ones, p);
        return;
    }
    w->obuf[w->nob++] = *p;
    if (w->nob == 2 * MSM_ONES_HALF)
        MSG(msm_ones_halve_)(w);
}

static void MSG(msm_ones_flush_)(MSG(msm_worker_t) * w)
{
    while (w->nob >= 64)
        MSG(msm_ones_halve_)(w);
    for (size_t u = 0; u < w->nob; u++)
        MSG(xyzz_add_affine_vartime)(&w->ones, &w->ones, &w->obuf[u]);
    w->nob = 0;
}

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
 * by the IFMA kernel when the worker has its scratch, else one scalar
 * inversion and 5M + 1S an entry (batch inversion included). */
static void MSG(msm_finish_)(MSG(msm_worker_t) * w, size_t k)
{
#ifdef MSM_BATCH_IFMA
    if (w->vscr) {
        MSM_BATCH_IFMA(w->bp, w->xp, w->num, w->den, k, w->vscr);
        return;
    }
#endif
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
