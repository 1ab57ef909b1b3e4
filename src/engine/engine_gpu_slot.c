/* The staging slots (engine_gpu.h): one worker's copy stream, pinned
 * staging buffer and device buffers, and the admission of a partition to
 * the device on the device's budget before anything is uploaded. */
#include "engine/engine_gpu_impl.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/fail.h"

static void slot_evict(void *ctx);

cuzk_status_t engine_gpu_slot_new(engine_gpu_slot_t **out, engine_gpu_dev_t *d,
                                  engine_pinned_t *pool, char *err, size_t err_size)
{
    *out = NULL;
    engine_gpu_slot_t *s = calloc(1, sizeof *s);
    if (!s)
        return fail_with(err, err_size, CUZK_ENOMEM, "out of memory for a device slot");
    s->d = d;
    s->pool = pool;
    cuzk_status_t st = gpu_use(&d->g);
    if (st == CUZK_OK)
        st = gpu_stream_new(&d->g, &s->copy);
    if (st == CUZK_OK)
        st = gpu_event_new(&d->g, &s->staged, false);
    for (int i = 0; st == CUZK_OK && i < EVENTS; i++)
        st = gpu_event_new(&d->g, &s->ev[i], true);
    for (int i = 0; st == CUZK_OK && i < QUERIES; i++)
        st = gpu_event_new(&d->g, &s->qs[i], true);
    if (st == CUZK_OK)
        st = gpu_event_new(&d->g, &s->counted, false);
    if (st != CUZK_OK) {
        engine_gpu_fail(&d->g, st, err, err_size, "making a device slot");
        engine_gpu_slot_free(s);
        return st;
    }
    s->bkey = engine_budget_key_new(d->budget, GROUP_SLOTS, slot_evict, s);
    if (!s->bkey) {
        engine_gpu_slot_free(s);
        return fail_with(err, err_size, CUZK_ENOMEM, "out of memory for a device slot");
    }
    *out = s;
    return CUZK_OK;
}

/* Waits for the slot's uploads to end (they read the staging buffer or,
 * straight, the caller's pinned assignment), then gives the staging
 * buffer back to the pool. */
void engine_gpu_slot_release(engine_gpu_slot_t *s)
{
    if (s->copy)
        (void)gpu_stream_sync(&s->d->g, s->copy);
    if (!s->pool || !s->buf.ptr)
        return;
    engine_pinned_release(s->pool, &s->buf);
    s->h_in = NULL;
    s->h_size = 0;
}

/* The slot's device buffers, in the order slot_need lists their sizes. */
enum { SLOT_BUFS = 2 + 2 * BITMAPS };

static void slot_bufs(engine_gpu_slot_t *s, dbuf_t *b[SLOT_BUFS])
{
    b[0] = &s->in;
    b[1] = &s->res;
    for (int i = 0; i < BITMAPS; i++) {
        b[2 + i] = &s->bits[i];
        b[2 + BITMAPS + i] = &s->idx[i];
    }
}

/* What a partition on k needs in its slot: the inputs, the results, the
 * bitmaps of the ones and (bases that take the others by index) the
 * indices of the others. */
static void slot_need(const engine_gpu_key_t *k, size_t need[SLOT_BUFS])
{
    size_t nmax = 0;
    for (int q = 0; q < QUERIES; q++)
        nmax = k->qn[q] > nmax ? k->qn[q] : nmax;
    need[0] = key_synth_coeffs(k) ? (k->n_vars ? (size_t)k->n_vars * FR_BYTES : FR_BYTES)
                                  : engine_gpu_asgn_layout(k).bytes;
    need[1] = engine_gpu_res_bytes();
    for (int i = 0; i < BITMAPS; i++) {
        need[2 + i] = ((nmax + 31) / 32 + 1) * 4;
        need[2 + BITMAPS + i] = k->bases[Q_A].ones == ENGINE_GPU_ONES_BY_INDEX ? (nmax + 1) * 4 : 0;
    }
}

uint64_t engine_gpu_slot_bytes(const engine_gpu_key_t *k)
{
    size_t need[SLOT_BUFS];
    slot_need(k, need);
    uint64_t t = 0;
    for (int i = 0; i < SLOT_BUFS; i++)
        t += need[i];
    return t;
}

static uint64_t slot_held(engine_gpu_slot_t *s)
{
    dbuf_t *b[SLOT_BUFS];
    slot_bufs(s, b);
    uint64_t t = 0;
    for (int i = 0; i < SLOT_BUFS; i++)
        t += b[i]->size;
    return t;
}

/* Frees the slot's device buffers (nothing in flight on them). */
static void slot_free_bufs(engine_gpu_slot_t *s)
{
    dbuf_t *b[SLOT_BUFS];
    slot_bufs(s, b);
    for (int i = 0; i < SLOT_BUFS; i++)
        engine_gpu_dbuf_free(b[i]);
}

/* Gives the slot's device buffers back, and their bytes to the budget. */
static void slot_drop(engine_gpu_slot_t *s)
{
    slot_free_bufs(s);
    (void)engine_budget_key_resize(s->bkey, 0, 0, ENGINE_BUDGET_NO_WAIT, NULL, 0);
}

/* The device budget takes an idle slot's buffers back for another's
 * partition (engine_budget.h: the slot is not admitted, its copies may
 * still run). */
static void slot_evict(void *ctx)
{
    engine_gpu_slot_t *s = ctx;
    (void)gpu_use(&s->d->g);
    if (s->copy)
        (void)gpu_stream_sync(&s->d->g, s->copy);
    slot_free_bufs(s);
}

/* The slot is idle again: its buffers may be taken back for another's
 * partition, and the partitions waiting for memory look again. */
void engine_gpu_slot_idle(engine_gpu_slot_t *s)
{
    engine_budget_key_done(s->bkey);
}

/* Grows the slot's buffers to need (their bytes already in the budget). */
static cuzk_status_t slot_grow(engine_gpu_slot_t *s, const size_t need[SLOT_BUFS])
{
    dbuf_t *b[SLOT_BUFS];
    slot_bufs(s, b);
    for (int i = 0; i < SLOT_BUFS; i++)
        CUZK_TRY(engine_gpu_dbuf_grow(&s->d->g, b[i], need[i]));
    return CUZK_OK;
}

/*
 * Admits a partition on k to slot s: the slot's device buffers hold what
 * it needs before anything is uploaded. The slot's buffers are a key of
 * the device's budget (group GROUP_SLOTS, under device_work_limit): what
 * they lack is reserved there at the slot's urgency; when it does not fit,
 * idle keys are evicted (other slots' buffers, keys' device copies), least
 * recently used first; when that is not enough the partition waits in the
 * budget's queue, holding nothing, until a running one ends. A partition
 * that could never fit fails at once (CUZK_ENOMEM), saying so. On success
 * the slot is in use until engine_gpu_slot_idle.
 */
static cuzk_status_t slot_admit(engine_gpu_slot_t *s, const engine_gpu_key_t *k, char *err,
                                size_t err_size)
{
    engine_gpu_dev_t *d = s->d;
    size_t need[SLOT_BUFS];
    slot_need(k, need);
    dbuf_t *b[SLOT_BUFS];
    slot_bufs(s, b);
    (void)engine_budget_key_use(s->bkey); /* evicted meanwhile: its buffers are gone */
    uint64_t target = 0, exact = 0;
    for (int i = 0; i < SLOT_BUFS; i++) {
        target += b[i]->size > need[i] ? b[i]->size : need[i];
        exact += need[i];
    }
    char why[CUZK_ERR_MAX] = "";
    cuzk_status_t st = CUZK_OK;
    engine_budget_counters_t c;
    engine_budget_group_counters(d->budget, GROUP_SLOTS, &c);
    if (c.limit && exact > c.limit) { /* never fits, even with buffers held from before */
        snprintf(why, sizeof why, "device_work_limit is %llu bytes", (unsigned long long)c.limit);
        st = CUZK_ENOMEM;
    } else if (target > slot_held(s)) {
        st = engine_budget_key_resize(s->bkey, target, s->urgency, ENGINE_BUDGET_NO_WAIT, why,
                                      sizeof why);
        if (st != CUZK_OK) { /* a waiting partition holds nothing */
            slot_drop(s);
            st = engine_budget_key_resize(s->bkey, exact, s->urgency, ENGINE_BUDGET_WAIT_FOREVER,
                                          why, sizeof why);
        }
        if (st == CUZK_OK) {
            st = slot_grow(s, need);
            if (st != CUZK_OK) {
                snprintf(why, sizeof why, "the device has less free than its budget says: %s",
                         d->g.err);
                slot_drop(s);
            }
        }
    }
    if (st != CUZK_OK) {
        engine_gpu_slot_idle(s);
        return fail_with(err, err_size, CUZK_ENOMEM,
                         "a partition needs %.3f GB of %s for its own buffers: %s",
                         (double)engine_gpu_slot_bytes(k) / 1e9, d->name, why);
    }
    return CUZK_OK;
}

void engine_gpu_dev_set_slot_limit(engine_gpu_dev_t *d, uint64_t bytes)
{
    engine_budget_set_group(d->budget, GROUP_SLOTS, "device_work_limit", bytes);
}

void engine_gpu_dev_mem(engine_gpu_dev_t *d, engine_gpu_mem_t *out)
{
    engine_budget_counters_t c;
    engine_budget_group_counters(d->budget, GROUP_SLOTS, &c);
    *out = (engine_gpu_mem_t){.limit = c.limit,
                              .held = c.held,
                              .peak = c.peak,
                              .waits = c.waits,
                              .reclaims = c.evictions};
}

void engine_gpu_slot_set_urgency(engine_gpu_slot_t *s, unsigned urgency)
{
    s->urgency = urgency;
}

void engine_gpu_slot_free(engine_gpu_slot_t *s)
{
    if (!s)
        return;
    engine_gpu_slot_release(s);
    if (s->bkey)
        slot_drop(s);
    engine_budget_key_free(s->bkey);
    gpu_event_free(s->staged);
    for (int i = 0; i < EVENTS; i++)
        gpu_event_free(s->ev[i]);
    for (int i = 0; i < QUERIES; i++)
        gpu_event_free(s->qs[i]);
    gpu_event_free(s->counted);
    gpu_stream_free(s->copy);
    if (!s->pool)
        gpu_host_free(s->h_in);
    if (s->own) {
        engine_gpu_work_fini(s->own);
        free(s->own);
    }
    free(s);
}

/* The slot's pinned staging buffer holds at least host bytes (0: none is
 * needed; one from the pool is given back), then the partition on k is
 * admitted to the device (slot_admit). */
cuzk_status_t engine_gpu_slot_reserve(engine_gpu_slot_t *s, const engine_gpu_key_t *k, size_t host,
                                      char *err, size_t err_size)
{
    gpu_t *g = &s->d->g;
    /* The previous partition's upload must be over before the buffers
     * change or are written again. */
    cuzk_status_t st = gpu_use(g);
    if (st == CUZK_OK)
        st = gpu_stream_sync(g, s->copy);
    if (st == CUZK_OK && s->pool) {
        engine_gpu_slot_release(s);
        if (host) {
            st = engine_pinned_acquire(s->pool, host, s->urgency, ENGINE_PINNED_WAIT_FOREVER,
                                       &s->buf, err, err_size);
            if (st != CUZK_OK)
                return st;
            s->h_in = s->buf.ptr;
            s->h_size = s->buf.size;
        }
    }
    if (st == CUZK_OK && s->h_size < host) {
        gpu_host_free(s->h_in);
        s->h_in = NULL;
        s->h_size = 0;
        st = gpu_host_alloc(g, &s->h_in, host);
        if (st == CUZK_OK)
            s->h_size = host;
    }
    if (st != CUZK_OK)
        return engine_gpu_fail(g, st, err, err_size, "reserving the partition's staging buffer");
    st = slot_admit(s, k, err, err_size);
    if (st != CUZK_OK)
        engine_gpu_slot_release(s);
    return st;
}
