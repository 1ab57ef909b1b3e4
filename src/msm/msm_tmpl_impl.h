/*
 * The MSM template's implementation (contracts in msm_tmpl.h, algorithm in
 * msm.h), compiled once per group by bls381_msm.c and bn254_msm.c after
 * msm_tmpl_names.h. This file holds what its parts share (the scalar
 * source, a worker's state, the batch entries and the scalar-one sums) and
 * includes the parts, one concept each:
 *     msm_pass_tmpl_impl.h      pass 1 (classify) and pass 2 (digits →
 *                               buckets → reduce, batch-affine additions)
 *     msm_run_tmpl_impl.h       the whole MSM: compaction, the GLV split,
 *                               the entry points, the benchmark
 *     msm_subgroup_tmpl_impl.h  the batch subgroup check
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
    void *vscr; /* the vector kernel's scratch (msm_vec.h), when one runs */
    void (*vfn)(MSA *const *, const MSQT *const *, const MSQT *, const MSQT *, size_t, void *);
    size_t vmin; /* the least batch it takes; smaller ones go to the scalar formulas */
    MSA *obuf;   /* scalar-one bases waiting to be summed in batches, nob of them */
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

/* The least batch the AVX2 kernel takes. Its fixed cost (the eight lanes'
 * inversion, the chains' ends) makes small batches dearer than the scalar
 * formulas: BN254 G1 and G2, one thread, ns an addition scalar / AVX2 at
 * k = 8, 16, 32, 64: 343 / 450, 244 / 273, 197 / 185, 172 / 138 (G1),
 * 668 / 1028, 562 / 663, 515 / 481, 483 / 388 (G2). (The IFMA kernel,
 * even with the scalar formulas at k = 8 and ahead from 16, takes every
 * batch.) */
#ifndef MSM_AVX2_MIN
#define MSM_AVX2_MIN 32
#endif

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
    if (!wk->vscr) { /* the vector kernel (msm_vec.h): IFMA first, then AVX2 */
        size_t bytes = 0;
#ifdef MSM_BATCH_IFMA
        if (cpu_has_ifma) {
            bytes = MSM_CAT(MSM_BATCH_IFMA, scratch)(m);
            wk->vfn = MSM_BATCH_IFMA;
        }
#endif
#ifdef MSM_BATCH_AVX2
        if (!wk->vfn && cpu_has_avx2) {
            bytes = MSM_CAT(MSM_BATCH_AVX2, scratch)(m);
            wk->vfn = MSM_BATCH_AVX2;
            wk->vmin = MSM_AVX2_MIN;
        }
#endif
        if (wk->vfn && !(wk->vscr = aligned_alloc(64, (bytes + 63) / 64 * 64)))
            return false;
    }
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

/* The passes, then the MSM that runs them, then the subgroup check; each
 * part uses only what is above and the declarations of msm_tmpl.h. */
#include "msm/msm_pass_tmpl_impl.h"
#include "msm/msm_run_tmpl_impl.h"
#include "msm/msm_subgroup_tmpl_impl.h"
