/* The device handle (engine_gpu.h): a CUDA device, its compute lock, its
 * memory budget (engine_budget.h: the keys' device copies, the compute
 * buffers, the MSM workspaces and the slots' buffers), and the works
 * (engine_gpu_work_t): the device's own and the slots'. */
#include "engine/engine_gpu_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fail.h"

cuzk_status_t engine_gpu_fail(gpu_t *g, cuzk_status_t s, char *err, size_t err_size,
                              const char *what)
{
    return fail_with(err, err_size, s, "%s on %s: %s", what, g->name, g->err);
}

cuzk_status_t engine_gpu_dbuf_grow(gpu_t *g, dbuf_t *b, size_t bytes)
{
    if (b->size >= bytes)
        return CUZK_OK;
    gpu_free(b->p);
    b->p = NULL;
    b->size = 0;
    cuzk_status_t s = gpu_alloc(g, &b->p, bytes);
    if (s == CUZK_OK)
        b->size = bytes;
    return s;
}

void engine_gpu_dbuf_free(dbuf_t *b)
{
    gpu_free(b->p);
    b->p = NULL;
    b->size = 0;
}

/* Bytes of the results: RESULTS XYZZ points, each in a slot of G2's size. */
size_t engine_gpu_res_bytes(void)
{
    return RESULTS * gpu_xyzz_bytes(CUZK_GPU_BLS381_G2);
}

cuzk_status_t engine_gpu_work_init(engine_gpu_work_t *w, engine_gpu_dev_t *d)
{
    *w = (engine_gpu_work_t){.d = d};
    w->compute_key = engine_budget_key_new(d->budget, 0, NULL, NULL);
    if (!w->compute_key) {
        snprintf(d->g.err, sizeof d->g.err, "out of memory for the compute state");
        return CUZK_ENOMEM;
    }
    cuzk_status_t s = gpu_stream_new(&d->g, &w->stream);
    if (s == CUZK_OK)
        s = gpu_host_alloc(&d->g, &w->h_res, engine_gpu_res_bytes() + BITMAPS * sizeof(uint32_t));
    if (s != CUZK_OK)
        engine_gpu_work_fini(w);
    return s;
}

void engine_gpu_work_fini(engine_gpu_work_t *w)
{
    if (!w->d)
        return;
    for (int i = 0; i < 4; i++) {
        gpu_msm_free(w->msm[i]);
        engine_budget_key_free(w->ws_key[i]);
    }
    dbuf_t *bufs[] = {&w->wp, &w->a, &w->b, &w->c, &w->cnt, &w->compact, &w->acc, &w->ones};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        engine_gpu_dbuf_free(bufs[i]);
    for (int i = 0; i < BITMAPS; i++)
        engine_gpu_dbuf_free(&w->oth[i]);
    gpu_host_free(w->h_res);
    gpu_stream_free(w->stream);
    engine_budget_key_free(w->compute_key);
    *w = (engine_gpu_work_t){.d = NULL};
}

cuzk_status_t engine_gpu_dev_new(engine_gpu_dev_t **out, int device, char *err, size_t err_size)
{
    *out = NULL;
    engine_gpu_dev_t *d = calloc(1, sizeof *d);
    if (!d)
        return fail_with(err, err_size, CUZK_ENOMEM, "out of memory for the device state");
    cuzk_status_t s = gpu_open(&d->g, device);
    if (s != CUZK_OK) {
        fail_with(err, err_size, s, "opening CUDA device %d: %s", device, d->g.err);
        free(d);
        return s;
    }
    snprintf(d->name, sizeof d->name, "%s (device %d, %.1f GiB)", d->g.name, device,
             (double)d->g.mem_total / (1u << 30));
    if (prio_lock_init(&d->lock) != 0) {
        free(d);
        return fail_with(err, err_size, CUZK_ENOMEM, "no compute lock for CUDA device %d", device);
    }
    char bname[400];
    snprintf(bname, sizeof bname, "the memory of %s", d->name);
    uint64_t free_b = engine_gpu_dev_free_bytes(d);
    d->budget = engine_budget_new(bname, free_b > SLOT_MARGIN ? free_b - SLOT_MARGIN : 1);
    if (!d->budget) {
        engine_gpu_dev_free(d);
        return fail_with(err, err_size, CUZK_ENOMEM, "out of memory for the device state");
    }
    engine_budget_set_group(d->budget, GROUP_SLOTS, "device_work_limit", 0);
    s = engine_gpu_work_init(&d->work, d);
    if (s != CUZK_OK) {
        engine_gpu_fail(&d->g, s, err, err_size, "setting up the device");
        engine_gpu_dev_free(d);
        return s;
    }
    *out = d;
    return CUZK_OK;
}

void engine_gpu_dev_free(engine_gpu_dev_t *d)
{
    if (!d)
        return;
    engine_gpu_work_fini(&d->work);
    prio_lock_destroy(&d->lock);
    engine_budget_free(d->budget);
    free(d);
}

const char *engine_gpu_dev_name(const engine_gpu_dev_t *d)
{
    return d->name;
}

const struct gpu *engine_gpu_dev_gpu(const engine_gpu_dev_t *d)
{
    return &d->g;
}

int engine_gpu_dev_ordinal(const engine_gpu_dev_t *d)
{
    return d->g.device;
}

bool engine_gpu_dev_healthy(engine_gpu_dev_t *d)
{
    return gpu_use(&d->g) == CUZK_OK && gpu_sync(&d->g) == CUZK_OK;
}

uint64_t engine_gpu_dev_free_bytes(engine_gpu_dev_t *d)
{
    size_t f = 0, t = 0;
    return gpu_mem_info(&d->g, &f, &t) == CUZK_OK ? f : 0;
}

/* Copies bytes from host memory src (pageable: a mapped file, malloc'd
 * arrays) to device memory dst through two pinned bounce buffers, so that
 * the bus runs at its pinned speed and the host copies overlap the DMA. */
cuzk_status_t engine_gpu_upload_bounced(engine_gpu_dev_t *d, void *dst, const void *src,
                                        size_t bytes)
{
    gpu_t *g = &d->g;
    void *bounce[2] = {NULL, NULL};
    gpu_event_t done[2] = {NULL, NULL};
    cuzk_status_t s = CUZK_OK;
    for (int i = 0; s == CUZK_OK && i < 2; i++) {
        s = gpu_host_alloc(g, &bounce[i], BOUNCE_BYTES);
        if (s == CUZK_OK)
            s = gpu_event_new(g, &done[i], false);
    }
    for (size_t off = 0, k = 0; s == CUZK_OK && off < bytes; off += BOUNCE_BYTES, k++) {
        int b = (int)(k & 1);
        size_t len = bytes - off < BOUNCE_BYTES ? bytes - off : BOUNCE_BYTES;
        if (k >= 2)
            s = gpu_event_sync(g, done[b]);
        if (s != CUZK_OK)
            break;
        memcpy(bounce[b], (const unsigned char *)src + off, len);
        s = gpu_upload(g, (unsigned char *)dst + off, bounce[b], len, d->work.stream);
        if (s == CUZK_OK)
            s = gpu_event_record(g, done[b], d->work.stream);
    }
    if (s == CUZK_OK)
        s = gpu_stream_sync(g, d->work.stream);
    for (int i = 0; i < 2; i++) {
        gpu_event_free(done[i]);
        gpu_host_free(bounce[i]);
    }
    return s;
}

/* A workspace's memory hook (gpu_msm.h) on the device's budget: it may hold
 * what it holds plus what the budget could give without waiting, and grows
 * at the urgency of the compute section, which no waiting partition
 * overtakes (they wait for it). */
static size_t ws_hook_room(void *ctx, size_t held)
{
    const ws_hook_t *h = ctx;
    uint64_t room = engine_budget_available(h->d->budget);
    return room > SIZE_MAX - held ? SIZE_MAX : held + (size_t)room;
}

static cuzk_status_t ws_hook_resize(void *ctx, size_t bytes)
{
    const ws_hook_t *h = ctx;
    return engine_budget_key_resize(h->key, bytes, URGENCY_COMPUTE, ENGINE_BUDGET_NO_WAIT, NULL, 0);
}

cuzk_status_t engine_gpu_work_msm_ws(engine_gpu_work_t *w, gpu_group_t grp, gpu_msm_t **m)
{
    engine_gpu_dev_t *d = w->d;
    if (!w->msm[grp]) {
        if (!w->ws_key[grp] && !(w->ws_key[grp] = engine_budget_key_new(d->budget, 0, NULL, NULL)))
            return CUZK_ENOMEM;
        CUZK_TRY(gpu_msm_new(&w->msm[grp], &d->g, grp));
        w->ws_hook[grp] = (ws_hook_t){d, w->ws_key[grp]};
        gpu_mem_hook_t h = {&w->ws_hook[grp], ws_hook_room, ws_hook_resize};
        gpu_msm_set_mem_hook(w->msm[grp], &h);
    }
    *m = w->msm[grp];
    return CUZK_OK;
}

/* The compute buffers for k (bitmaps, totals, ones scratch, and for a
 * GROTH16_SYNTH_COEFFS key the plain witness and a, b, c), grown within
 * the device's budget. */
cuzk_status_t engine_gpu_work_reserve(engine_gpu_work_t *w, const engine_gpu_key_t *k)
{
    gpu_t *g = &w->d->g;
    size_t nmax = 0;
    for (int q = 0; q < QUERIES; q++)
        nmax = k->qn[q] > nmax ? k->qn[q] : nmax;
    size_t dn = (size_t)1 << k->log2n, zk = key_synth_coeffs(k) ? 1 : 0;
    struct {
        dbuf_t *b;
        size_t need;
    } l[] = {
        {&w->wp, zk * ((size_t)k->n_vars * FR_BYTES + FR_BYTES)},
        {&w->a, zk * dn * FR_BYTES},
        {&w->b, zk * dn * FR_BYTES},
        {&w->c, zk * dn * FR_BYTES},
        {&w->oth[0], ((nmax + 31) / 32 + 1) * 4},
        {&w->oth[1], ((nmax + 31) / 32 + 1) * 4},
        {&w->oth[2], ((nmax + 31) / 32 + 1) * 4},
        {&w->cnt, BITMAPS * sizeof(uint32_t)},
        {&w->compact, gpu_bitmap_compact_scratch_bytes(nmax)},
        {&w->acc, BITMAPS * CUZK_GPU_CLASSIFY_ACC_BYTES},
        {&w->ones, gpu_msm_ones_scratch_bytes(query_group(k, Q_B2), nmax)},
    };
    enum { N = sizeof l / sizeof l[0] };
    _Static_assert(BITMAPS == 3, "engine_gpu_work_reserve lists the three bitmaps");
    uint64_t total = 0;
    for (size_t i = 0; i < N; i++)
        total += l[i].b->size > l[i].need ? l[i].b->size : l[i].need;
    if (total > engine_budget_key_bytes(w->compute_key)) {
        cuzk_status_t s = engine_budget_key_resize(w->compute_key, total, URGENCY_COMPUTE,
                                                   ENGINE_BUDGET_NO_WAIT, g->err, sizeof g->err);
        if (s != CUZK_OK)
            return s;
    }
    for (size_t i = 0; i < N; i++)
        if (l[i].need)
            CUZK_TRY(engine_gpu_dbuf_grow(g, l[i].b, l[i].need));
    return CUZK_OK;
}

cuzk_status_t engine_gpu_work_reserve_msms(engine_gpu_work_t *w, const engine_gpu_key_t *k,
                                           size_t g1)
{
    gpu_msm_t *m;
    CUZK_TRY(engine_gpu_work_msm_ws(w, query_group(k, Q_H), &m));
    CUZK_TRY(gpu_msm_reserve(m, g1));
    CUZK_TRY(engine_gpu_work_msm_ws(w, query_group(k, Q_B2), &m));
    return gpu_msm_reserve(m, k->qn[Q_B2]);
}
