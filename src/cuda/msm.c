/*
 * GPU MSM, the host side (contracts in gpu_msm.h, kernels in msm.cuh,
 * design in docs/CUDA.md): the window plan, the workspace, and the phases
 * queued on one stream with no host synchronisation in between:
 *   digits → sort (one CUB radix sort per window, or one of every
 *   window's pairs for small runs) → bounds → buckets →
 *   reduce segments → reduce windows → combine.
 */
#include "cuda/gpu_msm.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda/gpu_check.h"
#include "cuda/gpu_kernels.h"

/* Reduction segments: enough (window, segment) threads to fill the device
 * several times over (2^16: ~500 a multiprocessor on an H200) without
 * making the segments so short that their offset multiplications
 * (c doublings each) outweigh their 2·2^s additions. */
enum { MSM_SEG_THREADS_LOG = 16 };

/* The model's largest window: c = 22 holds 12·2^21 XYZZ buckets (4.8 GB
 * for BLS12-381 G1), and its cost term (3 additions a bucket) makes it win
 * only from ~2^27 points (porep32's H query: 12 windows instead of 13).
 * It was 20 while the top window's long runs were one thread's each. */
enum { MSM_WINDOW_AUTO_MAX = 22 };

typedef struct {
    void *p;
    size_t cap;
} gbuf_t;

struct gpu_msm {
    gpu_t *g;
    gpu_group_t grp;
    const gpu_curve_kernels_t *curve;
    const gpu_group_kernels_t *k;
    unsigned window; /* forced c, or 0 */
    bool sort_apart; /* each window sorted on its own even where one sort would do */
    gbuf_t keys_in, vals_in, keys_out, vals_out, start, end, buckets, parts, seg, win, sort_tmp;
    gbuf_t fresh; /* a streamed run's later chunks' bucket sums, before the merge */
    gpu_msm_plan_t last;
    /* gpu_msm_streamed: double-buffered chunks, the copy stream and
     * its events (created on first use). */
    gbuf_t cb[2], cs[2];
    void *hb[2]; /* gpu_msm_paged_launch: pinned bounce buffers of hb_size bytes */
    size_t hb_size;
    gpu_stream_t copy;
    gpu_event_t uploaded[2], consumed[2];
    bool timing;
    gpu_event_t ev[CUZK_GPU_MSM_PHASES + 1];
    gpu_mem_hook_t hook; /* room NULL: 90 % of what the device has free */
};

static const gpu_curve_kernels_t *curve_of(gpu_group_t grp)
{
    return grp == CUZK_GPU_BLS381_G1 || grp == CUZK_GPU_BLS381_G2 ? &gpu_bls381_kernels
                                                                  : &gpu_bn254_kernels;
}

static const gpu_group_kernels_t *group_of(gpu_group_t grp)
{
    const gpu_curve_kernels_t *c = curve_of(grp);
    return grp == CUZK_GPU_BLS381_G1 || grp == CUZK_GPU_BN254_G1 ? &c->g1 : &c->g2;
}

size_t gpu_affine_bytes(gpu_group_t grp)
{
    return group_of(grp)->affine_bytes;
}

size_t gpu_xyzz_bytes(gpu_group_t grp)
{
    return group_of(grp)->xyzz_bytes;
}

/* Sorted pairs a bucket thread adds in one window (msm_buckets_kernel):
 * enough threads, about 2^MSM_BUCKET_THREADS_LOG, to fill the device many
 * times over, so that the last wave's tail is short; at least
 * MSM_CHUNK_MIN, so that the two partial sums a thread writes stay few. */
enum { MSM_BUCKET_THREADS_LOG = 20, MSM_CHUNK_MIN = 32 };
static size_t bucket_chunk(size_t n, unsigned W)
{
    size_t L = ((size_t)W * n) >> MSM_BUCKET_THREADS_LOG;
    return L > MSM_CHUNK_MIN ? L : MSM_CHUNK_MIN;
}

/* The bucket kernel's partial sums: two a thread. */
static size_t bucket_parts(size_t n, unsigned W)
{
    size_t L = bucket_chunk(n, W);
    return 2 * (size_t)W * ((n + L - 1) / L);
}

/* The reduction's segment size for W windows of 2^(c-1) buckets. */
static unsigned seg_log_for(unsigned c, unsigned W)
{
    unsigned s = 0;
    while (s + 1 <= c - 1 &&
           (((size_t)W << (c - 1)) >> (s + 1)) >= ((size_t)1 << MSM_SEG_THREADS_LOG))
        s++;
    return s;
}

/* Up to this many pairs (points times windows), one radix sort orders the
 * pairs of every window, each window's keys offset by the window: one
 * sort of 20·2^16 pairs takes the time of one window's, where twenty
 * windows' sorts apart took 0.65 ms of a 2 ms BN254 MSM at 2^16. Above it
 * the windows are sorted apart, with a window's scratch only. */
enum { MSM_SORT_ALL_PAIRS = 1 << 23 };
static bool sort_all(size_t n, unsigned W)
{
    return (size_t)W * n <= MSM_SORT_ALL_PAIRS;
}

/* The bits of keys below `keys`. */
static unsigned key_bits(size_t keys)
{
    unsigned b = 0;
    while (((size_t)1 << b) < keys)
        b++;
    return b;
}

/* Device bytes of a run sorting n points at a time (runs of them):
 * pairs in and out (16 bytes a point a window), the sort's scratch (about
 * the same again for the pairs one sort orders: a window's, or every
 * window's under sort_all), bucket bounds, buckets (twice when runs > 1:
 * the fresh sums of a chunk and the sums so far), the bucket kernel's
 * partial sums, segment and window sums. */
static size_t plan_bytes(size_t n, size_t runs, unsigned c, unsigned W, unsigned s, size_t xyzz)
{
    size_t B = (size_t)1 << (c - 1), sets = runs > 1 ? 2 : 1;
    size_t sorted = sort_all(n, W) ? (size_t)W * n : n;
    return 16 * (size_t)W * n + 16 * sorted + ((size_t)1 << 24) + 8 * (size_t)W * (B + 1) +
           xyzz * (sets * W * B + bucket_parts(n, W) + (((size_t)W * B) >> s) + W + 1);
}

/* gpu_msm_plan for n points sorted `chunk` at a time (chunk = n:
 * resident; a streamed run's later chunks merge their bucket sums into the
 * sums so far). The window is the one of an MSM of `chunk` points: a
 * window planned for all n points (larger) made each chunk's runs short
 * and cost a 2^27-point G1 MSM in chunks of 2^22 a third more
 * (docs/PERFORMANCE.md). */
static void plan_for(gpu_msm_plan_t *plan, gpu_group_t grp, size_t n, size_t chunk, unsigned window,
                     size_t mem_budget)
{
    assert(plan && window <= CUZK_GPU_MSM_WINDOW_MAX && chunk >= 1 && chunk <= n);
    unsigned bits = curve_of(grp)->fr_bits;
    size_t xyzz = gpu_xyzz_bytes(grp);
    size_t runs = (n + chunk - 1) / chunk;
    unsigned best = window;
    if (!best) {
        double best_cost = 0;
        unsigned smallest = 1; /* the least memory, when no window fits */
        for (unsigned c = 1; c <= MSM_WINDOW_AUTO_MAX; c++) {
            unsigned W = bits / c + 1, s = seg_log_for(c, W);
            /* a point's addition in each window, and about three for each
             * bucket (its sum's share of the reduction); the bucket kernel
             * cuts runs, so the top window's few long ones cost no more */
            double cost = (double)W * ((double)chunk + 3.0 * (double)((size_t)1 << (c - 1)));
            size_t bytes = plan_bytes(chunk, runs, c, W, s, xyzz);
            unsigned Ws = bits / smallest + 1;
            if (bytes < plan_bytes(chunk, runs, smallest, Ws, seg_log_for(smallest, Ws), xyzz))
                smallest = c;
            if (mem_budget && bytes > mem_budget)
                continue;
            if (!best || cost < best_cost) {
                best = c;
                best_cost = cost;
            }
        }
        if (!best)
            best = smallest;
    }
    plan->window = best;
    plan->windows = bits / best + 1;
    plan->seg_log = seg_log_for(best, plan->windows);
    plan->sort_all = sort_all(chunk, plan->windows);
    plan->bytes = plan_bytes(chunk, runs, best, plan->windows, plan->seg_log, xyzz);
}

void gpu_msm_plan(gpu_msm_plan_t *plan, gpu_group_t grp, size_t n, unsigned window,
                  size_t mem_budget)
{
    plan_for(plan, grp, n, n, window, mem_budget);
}

cuzk_status_t gpu_msm_new(gpu_msm_t **m, gpu_t *g, gpu_group_t grp)
{
    assert(m && g);
    *m = calloc(1, sizeof(**m));
    if (!*m)
        return CUZK_ENOMEM;
    (*m)->g = g;
    (*m)->grp = grp;
    (*m)->curve = curve_of(grp);
    (*m)->k = group_of(grp);
    return CUZK_OK;
}

void gpu_msm_set_mem_hook(gpu_msm_t *m, const gpu_mem_hook_t *hook)
{
    m->hook = *hook;
}

void gpu_msm_free(gpu_msm_t *m)
{
    if (!m)
        return;
    if (m->hook.resize)
        (void)m->hook.resize(m->hook.ctx, 0);
    gbuf_t *bufs[] = {&m->keys_in, &m->vals_in, &m->keys_out, &m->vals_out, &m->start,    &m->end,
                      &m->buckets, &m->parts,   &m->seg,      &m->win,      &m->sort_tmp, &m->cb[0],
                      &m->cb[1],   &m->cs[0],   &m->cs[1],    &m->fresh};
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
        gpu_free(bufs[i]->p);
    for (int i = 0; i < 2; i++) {
        gpu_event_free(m->uploaded[i]);
        gpu_event_free(m->consumed[i]);
        gpu_host_free(m->hb[i]);
    }
    gpu_stream_free(m->copy);
    for (int i = 0; i <= CUZK_GPU_MSM_PHASES; i++)
        gpu_event_free(m->ev[i]);
    free(m);
}

void gpu_msm_set_sort_apart(gpu_msm_t *m, bool apart)
{
    m->sort_apart = apart;
}

void gpu_msm_set_window(gpu_msm_t *m, unsigned window)
{
    assert(window <= CUZK_GPU_MSM_WINDOW_MAX);
    m->window = window;
}

cuzk_status_t gpu_msm_set_timing(gpu_msm_t *m, bool on)
{
    for (int i = 0; on && i <= CUZK_GPU_MSM_PHASES; i++)
        if (!m->ev[i])
            CUZK_TRY(gpu_event_new(m->g, &m->ev[i], true));
    m->timing = on;
    return CUZK_OK;
}

cuzk_status_t gpu_msm_phase_ms(gpu_msm_t *m, float ms[CUZK_GPU_MSM_PHASES])
{
    assert(m->timing);
    for (int i = 0; i < CUZK_GPU_MSM_PHASES; i++)
        CUZK_TRY(gpu_event_ms(m->g, &ms[i], m->ev[i], m->ev[i + 1]));
    return CUZK_OK;
}

gpu_msm_plan_t gpu_msm_last_plan(const gpu_msm_t *m)
{
    return m->last;
}

/* b holds at least bytes, reallocated (contents lost) when it did not. */
static cuzk_status_t grow(gpu_t *g, gbuf_t *b, size_t bytes)
{
    if (b->cap >= bytes)
        return CUZK_OK;
    gpu_free(b->p);
    b->p = NULL;
    b->cap = 0;
    CUZK_TRY(gpu_alloc(g, &b->p, bytes));
    b->cap = bytes;
    return CUZK_OK;
}

static cuzk_status_t mark(gpu_msm_t *m, int i, gpu_stream_t s)
{
    return m->timing ? gpu_event_record(m->g, m->ev[i], s) : CUZK_OK;
}

/* The workspace's resident buffers (what the plan sizes), in the order
 * msm_workspace lists their sizes. */
enum { WS_BUFS = 12 };
static void ws_bufs(gpu_msm_t *m, gbuf_t *b[WS_BUFS])
{
    gbuf_t *l[WS_BUFS] = {&m->keys_in,  &m->vals_in, &m->keys_out, &m->vals_out,
                          &m->sort_tmp, &m->start,   &m->end,      &m->buckets,
                          &m->fresh,    &m->parts,   &m->seg,      &m->win};
    for (int i = 0; i < WS_BUFS; i++)
        b[i] = l[i];
}

static size_t ws_held(gpu_msm_t *m)
{
    gbuf_t *b[WS_BUFS];
    ws_bufs(m, b);
    size_t t = 0;
    for (int i = 0; i < WS_BUFS; i++)
        t += b[i]->cap;
    return t;
}

/* The plan for n points sorted `chunk` at a time (plan_for) and a
 * workspace that holds it (grown when too small). The workspace may take
 * what its memory hook allows, or what is free and what it holds already
 * (its buffers are replaced when they grow). */
static cuzk_status_t msm_workspace(gpu_msm_t *m, size_t n, size_t chunk, gpu_msm_plan_t *plan,
                                   size_t *sort_bytes)
{
    gpu_t *g = m->g;
    size_t held = ws_held(m), room;
    if (m->hook.room) {
        room = m->hook.room(m->hook.ctx, held);
    } else {
        size_t free_b = 0, total_b = 0;
        CUZK_TRY(gpu_mem_info(g, &free_b, &total_b));
        room = (free_b + held) / 10 * 9;
    }
    plan_for(plan, m->grp, n, chunk, m->window, room);
    plan->sort_all = plan->sort_all && !m->sort_apart;
    m->last = *plan;
    unsigned c = plan->window, W = plan->windows, sl = plan->seg_log;
    size_t B = (size_t)1 << (c - 1), K = B + 1, G = B >> sl;
    *sort_bytes = 0;
    if (plan->sort_all)
        GPU_TRY(g, gpu_sort_pairs_bytes(sort_bytes, (size_t)W * chunk, key_bits((size_t)W * K)));
    else
        GPU_TRY(g, gpu_sort_pairs_bytes(sort_bytes, chunk, c));
    size_t pairs = (size_t)W * chunk * sizeof(uint32_t);
    size_t need[WS_BUFS] = {pairs,
                            pairs,
                            pairs,
                            pairs,
                            *sort_bytes,
                            (size_t)W * K * sizeof(uint32_t),
                            (size_t)W * K * sizeof(uint32_t),
                            (size_t)W * B * m->k->xyzz_bytes,
                            chunk < n ? (size_t)W * B * m->k->xyzz_bytes : 0,
                            bucket_parts(chunk, W) * m->k->xyzz_bytes,
                            (size_t)W * G * m->k->xyzz_bytes,
                            (size_t)W * m->k->xyzz_bytes};
    gbuf_t *b[WS_BUFS];
    ws_bufs(m, b);
    size_t total = 0;
    for (int i = 0; i < WS_BUFS; i++)
        total += b[i]->cap > need[i] ? b[i]->cap : need[i];
    if (total > held && m->hook.resize) {
        cuzk_status_t s = m->hook.resize(m->hook.ctx, total);
        if (s != CUZK_OK) {
            snprintf(g->err, sizeof g->err,
                     "the MSM workspace may not grow to %zu bytes: the device's budget is spent",
                     total);
            return s;
        }
    }
    cuzk_status_t s = CUZK_OK;
    for (int i = 0; s == CUZK_OK && i < WS_BUFS; i++)
        s = grow(g, b[i], need[i]);
    if (s != CUZK_OK && m->hook.resize) /* a failed growth leaves less than asked */
        (void)m->hook.resize(m->hook.ctx, ws_held(m));
    return s;
}

cuzk_status_t gpu_msm_reserve(gpu_msm_t *m, size_t n)
{
    if (n == 0)
        return CUZK_OK;
    if (n > UINT32_MAX >> 1)
        return CUZK_EINVAL;
    gpu_msm_plan_t plan;
    size_t sort_bytes;
    return msm_workspace(m, n, n, &plan, &sort_bytes);
}

/* Digits, sort, bounds and bucket sums under the plan of the points
 * d_idx[0..n) (NULL: 0..n-1), n >= 1: into the buckets, or (acc) into
 * fresh and then added to the buckets. */
static cuzk_status_t msm_buckets(gpu_msm_t *m, const gpu_msm_plan_t *plan, size_t sort_bytes,
                                 const void *d_bases, const void *d_scalars, const uint32_t *d_idx,
                                 size_t n, bool mont, bool acc, gpu_stream_t s)
{
    gpu_t *g = m->g;
    const gpu_group_kernels_t *k = m->k;
    unsigned c = plan->window, W = plan->windows;
    size_t B = (size_t)1 << (c - 1), K = B + 1;
    uint32_t *ki = m->keys_in.p, *vi = m->vals_in.p, *ko = m->keys_out.p, *vo = m->vals_out.p;

    CUZK_TRY(mark(m, 0, s));
    /* digits → sort → bounds */
    bool all = plan->sort_all;
    GPU_TRY(
        g, m->curve->msm_digits(ki, vi, d_scalars, d_idx, n, c, W, mont, all ? (uint32_t)K : 0, s));
    if (all) {
        GPU_TRY(g, gpu_sort_pairs(m->sort_tmp.p, sort_bytes, ki, ko, vi, vo, (size_t)W * n,
                                  key_bits((size_t)W * K), s));
        GPU_TRY(g, gpu_msm_unbias(ko, n, K, W, s));
    }
    for (unsigned w = 0; !all && w < W; w++) {
        size_t o = (size_t)w * n;
        GPU_TRY(g,
                gpu_sort_pairs(m->sort_tmp.p, sort_bytes, ki + o, ko + o, vi + o, vo + o, n, c, s));
    }
    CUZK_TRY(gpu_memset(g, m->start.p, 0, (size_t)W * K * sizeof(uint32_t), s));
    CUZK_TRY(gpu_memset(g, m->end.p, 0, (size_t)W * K * sizeof(uint32_t), s));
    GPU_TRY(g, gpu_msm_bounds(m->start.p, m->end.p, ko, n, K, W, s));
    CUZK_TRY(mark(m, 1, s));
    /* buckets (the empty ones stay zero: infinity) */
    void *to = acc ? m->fresh.p : m->buckets.p;
    CUZK_TRY(gpu_memset(g, to, 0, (size_t)W * B * k->xyzz_bytes, s));
    GPU_TRY(g, k->msm_buckets(to, m->parts.p, ko, vo, m->start.p, m->end.p, d_bases, n, c, W,
                              bucket_chunk(n, W), s));
    if (acc)
        GPU_TRY(g, k->msm_merge(m->buckets.p, m->fresh.p, (size_t)W * B, s));
    return mark(m, 2, s);
}

/* The buckets reduced: into d_r the W window sums when W <= max_win (*out =
 * {W, c}), else the sum (*out = {1, 0}); out NULL: the sum. */
static cuzk_status_t msm_reduce(gpu_msm_t *m, const gpu_msm_plan_t *plan, void *d_r,
                                unsigned max_win, gpu_msm_windows_t *out, gpu_stream_t s)
{
    gpu_t *g = m->g;
    const gpu_group_kernels_t *k = m->k;
    unsigned c = plan->window, W = plan->windows, sl = plan->seg_log;
    size_t G = ((size_t)1 << (c - 1)) >> sl;
    GPU_TRY(g, k->msm_reduce_segments(m->seg.p, m->buckets.p, c, W, sl, s));
    CUZK_TRY(mark(m, 3, s));
    if (out && W <= max_win) {
        GPU_TRY(g, k->msm_reduce_windows(d_r, m->seg.p, G, W, s));
        *out = (gpu_msm_windows_t){W, c};
        CUZK_TRY(mark(m, 4, s));
        return mark(m, 5, s);
    }
    GPU_TRY(g, k->msm_reduce_windows(m->win.p, m->seg.p, G, W, s));
    CUZK_TRY(mark(m, 4, s));
    GPU_TRY(g, k->msm_combine(d_r, m->win.p, c, W, s));
    return mark(m, 5, s);
}

/* An empty MSM's result: infinity, ZZ = ZZZ = 0 (and X = Y = 0). */
static cuzk_status_t msm_empty(gpu_msm_t *m, void *d_r, gpu_stream_t s)
{
    for (int i = 0; i < CUZK_GPU_MSM_PHASES; i++)
        CUZK_TRY(mark(m, i, s));
    CUZK_TRY(gpu_memset(m->g, d_r, 0, m->k->xyzz_bytes, s));
    return mark(m, CUZK_GPU_MSM_PHASES, s);
}

/* The MSM over the points d_idx[0..n) (NULL: 0..n-1): into d_r as
 * msm_reduce says. */
static cuzk_status_t msm_run(gpu_msm_t *m, void *d_r, const void *d_bases, const void *d_scalars,
                             const uint32_t *d_idx, size_t n, bool mont, unsigned max_win,
                             gpu_msm_windows_t *out, gpu_stream_t s)
{
    assert(m && d_r && (n == 0 || (d_bases && d_scalars)));
    if (out)
        *out = (gpu_msm_windows_t){1, 0};
    if (n == 0)
        return msm_empty(m, d_r, s);
    if (n > UINT32_MAX >> 1)
        return CUZK_EINVAL; /* point indices are 31 bits, the 32nd is the sign */
    gpu_msm_plan_t plan;
    size_t sort_bytes = 0;
    CUZK_TRY(msm_workspace(m, n, n, &plan, &sort_bytes));
    CUZK_TRY(msm_buckets(m, &plan, sort_bytes, d_bases, d_scalars, d_idx, n, mont, false, s));
    return msm_reduce(m, &plan, d_r, max_win, out, s);
}

cuzk_status_t gpu_msm_launch(gpu_msm_t *m, void *d_r, const void *d_bases, const void *d_scalars,
                             size_t n, bool mont, gpu_stream_t s)
{
    return msm_run(m, d_r, d_bases, d_scalars, NULL, n, mont, 0, NULL, s);
}

cuzk_status_t gpu_msm_launch_idx(gpu_msm_t *m, void *d_r, const void *d_bases,
                                 const void *d_scalars, const uint32_t *d_idx, size_t n_idx,
                                 bool mont, gpu_stream_t s)
{
    assert(n_idx == 0 || d_idx);
    return msm_run(m, d_r, d_bases, d_scalars, d_idx, n_idx, mont, 0, NULL, s);
}

cuzk_status_t gpu_msm_launch_windows(gpu_msm_t *m, void *d_win, unsigned max_win,
                                     const void *d_bases, const void *d_scalars,
                                     const uint32_t *d_idx, size_t n, bool mont,
                                     gpu_msm_windows_t *out, gpu_stream_t s)
{
    assert(out && max_win >= 1);
    return msm_run(m, d_win, d_bases, d_scalars, d_idx, n, mont, max_win, out, s);
}

/* The end of a blocking run whose launch into d_r returned st: the result
 * downloaded to r and waited for, d_r freed. */
static cuzk_status_t msm_blocking_end(gpu_msm_t *m, void *r, void *d_r, cuzk_status_t st,
                                      gpu_stream_t s)
{
    if (st == CUZK_OK)
        st = gpu_download(m->g, r, d_r, m->k->xyzz_bytes, s);
    if (st == CUZK_OK)
        st = gpu_stream_sync(m->g, s);
    gpu_free(d_r);
    return st;
}

cuzk_status_t gpu_msm(gpu_msm_t *m, void *r, const void *d_bases, const void *d_scalars, size_t n,
                      bool mont, gpu_stream_t s)
{
    void *d_r = NULL;
    CUZK_TRY(gpu_alloc(m->g, &d_r, m->k->xyzz_bytes));
    return msm_blocking_end(m, r, d_r, gpu_msm_launch(m, d_r, d_bases, d_scalars, n, mont, s), s);
}

/* Chunk buffers, the copy stream and its events. */
static cuzk_status_t streamed_setup(gpu_msm_t *m, size_t chunk)
{
    gpu_t *g = m->g;
    if (!m->copy) {
        CUZK_TRY(gpu_stream_new(g, &m->copy));
        for (int i = 0; i < 2; i++) {
            CUZK_TRY(gpu_event_new(g, &m->uploaded[i], false));
            CUZK_TRY(gpu_event_new(g, &m->consumed[i], false));
        }
    }
    for (int i = 0; i < 2; i++) {
        CUZK_TRY(grow(g, &m->cb[i], chunk * m->k->affine_bytes));
        CUZK_TRY(grow(g, &m->cs[i], chunk * CUZK_GPU_SCALAR_BYTES));
    }
    return CUZK_OK;
}

/* The streamed run: bases straight from pinned h_bases, or (copy given)
 * copied by copy(ctx, ...) from pageable h_bases into a pinned bounce
 * buffer first. */
static cuzk_status_t streamed_run(gpu_msm_t *m, void *d_r, const void *h_bases, gpu_copy_fn copy,
                                  void *ctx, const void *scalars, bool scalars_on_device, size_t n,
                                  bool mont, size_t chunk, gpu_stream_t s)
{
    assert(m && d_r && (n == 0 || (h_bases && scalars)));
    gpu_t *g = m->g;
    size_t ab = m->k->affine_bytes;
    chunk = chunk ? chunk : (size_t)1 << 22;
    chunk = chunk < n ? chunk : (n ? n : 1);
    if (chunk > UINT32_MAX >> 1)
        return CUZK_EINVAL; /* a chunk's point indices are 31 bits */
    size_t chunks = (n + chunk - 1) / chunk;
    CUZK_TRY(streamed_setup(m, chunk));
    if (copy && m->hb_size < chunk * ab) {
        for (int i = 0; i < 2; i++) {
            CUZK_TRY(gpu_event_sync(g, m->uploaded[i]));
            gpu_host_free(m->hb[i]);
            m->hb[i] = NULL;
        }
        m->hb_size = 0;
        for (int i = 0; i < 2; i++)
            CUZK_TRY(gpu_host_alloc(g, &m->hb[i], chunk * ab));
        m->hb_size = chunk * ab;
    }
    if (n == 0)
        return msm_empty(m, d_r, s);
    gpu_msm_plan_t plan;
    size_t sort_bytes = 0;
    CUZK_TRY(msm_workspace(m, n, chunk, &plan, &sort_bytes));
    for (size_t k = 0; k < chunks; k++) {
        int b = (int)(k & 1);
        size_t lo = k * chunk, len = n - lo < chunk ? n - lo : chunk;
        const unsigned char *src = (const unsigned char *)h_bases + lo * ab;
        if (copy) {
            /* The bounce buffer's last upload (chunk k - 2) must be over:
             * the run's one host wait, on a copy, while the device works
             * on the chunks queued before. */
            CUZK_TRY(gpu_event_sync(g, m->uploaded[b]));
            copy(ctx, m->hb[b], src, len * ab);
            src = m->hb[b];
        }
        /* Buffer b is free once the last MSM that read it (chunk k - 2, or
         * an earlier run's) has; an event never recorded is no wait. */
        CUZK_TRY(gpu_stream_wait(g, m->copy, m->consumed[b]));
        CUZK_TRY(gpu_upload(g, m->cb[b].p, src, len * ab, m->copy));
        const unsigned char *sc = (const unsigned char *)scalars + lo * CUZK_GPU_SCALAR_BYTES;
        if (!scalars_on_device) {
            CUZK_TRY(gpu_upload(g, m->cs[b].p, sc, len * CUZK_GPU_SCALAR_BYTES, m->copy));
            sc = m->cs[b].p;
        }
        CUZK_TRY(gpu_event_record(g, m->uploaded[b], m->copy));
        CUZK_TRY(gpu_stream_wait(g, s, m->uploaded[b]));
        CUZK_TRY(msm_buckets(m, &plan, sort_bytes, m->cb[b].p, sc, NULL, len, mont, k > 0, s));
        CUZK_TRY(gpu_event_record(g, m->consumed[b], s));
    }
    return msm_reduce(m, &plan, d_r, 0, NULL, s);
}

cuzk_status_t gpu_msm_streamed_launch(gpu_msm_t *m, void *d_r, const void *h_bases,
                                      const void *scalars, bool scalars_on_device, size_t n,
                                      bool mont, size_t chunk, gpu_stream_t s)
{
    return streamed_run(m, d_r, h_bases, NULL, NULL, scalars, scalars_on_device, n, mont, chunk, s);
}

cuzk_status_t gpu_msm_paged_launch(gpu_msm_t *m, void *d_r, const void *h_bases, gpu_copy_fn copy,
                                   void *ctx, const void *d_scalars, size_t n, bool mont,
                                   size_t chunk, gpu_stream_t s)
{
    assert(copy);
    return streamed_run(m, d_r, h_bases, copy, ctx, d_scalars, true, n, mont, chunk, s);
}

cuzk_status_t gpu_msm_streamed(gpu_msm_t *m, void *r, const void *h_bases, const void *h_scalars,
                               size_t n, bool mont, size_t chunk, gpu_stream_t s)
{
    assert(m && r);
    void *d_r = NULL;
    CUZK_TRY(gpu_alloc(m->g, &d_r, m->k->xyzz_bytes));
    return msm_blocking_end(
        m, r, d_r, gpu_msm_streamed_launch(m, d_r, h_bases, h_scalars, false, n, mont, chunk, s),
        s);
}
