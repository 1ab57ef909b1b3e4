/* The pinned host buffer pool (engine_pinned.h). */
#include "engine/engine_pinned.h"

#include <assert.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "engine/engine_budget.h"
#include "io/io_error.h"

/*
 * One buffer's record and its key in the pool's budget (the key's bytes
 * are the buffer's size while it is allocated). A record is idle (on the
 * idle list, its key idle and so evictable), in use (its key in use), or
 * spare: its buffer was evicted or never allocated, its key holds 0 bytes,
 * and it waits on the spare list to serve the next miss.
 */
typedef struct engine_pinned_node {
    engine_pinned_t *pool;
    engine_budget_key_t *key;
    void *ptr;
    size_t size;
    bool in_use;
    struct engine_pinned_node *prev, *next; /* idle list, or (next) the spare list */
} pinned_node_t;

struct engine_pinned {
    engine_pinned_alloc_t a;
    engine_budget_t *budget;  /* the limit, the waits, the evictions */
    pthread_mutex_t lock;     /* the lists and c */
    pinned_node_t *lru, *mru; /* idle buffers, by release, oldest first */
    pinned_node_t *spare;
    engine_pinned_counters_t c; /* the pool's own counts; the budget keeps the rest */
};

static void pinned_evict(void *ctx);

engine_pinned_t *engine_pinned_new(const engine_pinned_alloc_t *a, uint64_t limit)
{
    assert(a && a->alloc && a->free);
    engine_pinned_t *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pool->budget = engine_budget_new("pinned_limit", limit);
    if (!pool->budget || pthread_mutex_init(&pool->lock, NULL) != 0) {
        engine_budget_free(pool->budget);
        free(pool);
        return NULL;
    }
    pool->a = *a;
    return pool;
}

static void node_free(pinned_node_t *n)
{
    engine_budget_key_free(n->key);
    free(n);
}

void engine_pinned_free(engine_pinned_t *pool)
{
    if (!pool)
        return;
    assert(pool->c.buffers_in_use == 0 && "pinned pool freed with buffers in use");
    for (pinned_node_t *n = pool->lru, *next; n; n = next) {
        next = n->next;
        pool->a.free(pool->a.ctx, n->ptr);
        node_free(n);
    }
    for (pinned_node_t *n = pool->spare, *next; n; n = next) {
        next = n->next;
        node_free(n);
    }
    engine_budget_free(pool->budget);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

size_t engine_pinned_class(size_t bytes)
{
    if (bytes <= ENGINE_PINNED_MIN_CLASS)
        return ENGINE_PINNED_MIN_CLASS;
    /* bytes is in (2^k, 2^(k+1)]: round it up to a multiple of 2^(k-2). */
    int k = 63 - __builtin_clzll((unsigned long long)(bytes - 1));
    size_t step = (size_t)1 << (k - 2);
    size_t steps = (bytes - 1) / step + 1;
    return steps > SIZE_MAX / step ? 0 : steps * step;
}

/* ---- the lists (under the lock) ---------------------------------------------- */

static void idle_unlink(engine_pinned_t *pool, pinned_node_t *n)
{
    if (n->prev)
        n->prev->next = n->next;
    else
        pool->lru = n->next;
    if (n->next)
        n->next->prev = n->prev;
    else
        pool->mru = n->prev;
    n->prev = n->next = NULL;
}

static void idle_push_mru(engine_pinned_t *pool, pinned_node_t *n)
{
    n->prev = pool->mru;
    n->next = NULL;
    if (pool->mru)
        pool->mru->next = n;
    else
        pool->lru = n;
    pool->mru = n;
}

/*
 * The idle buffer that serves size bytes, claimed (its key in use) and
 * off the idle list, or NULL: the most recently released of exactly size
 * bytes, else, when larger (a new buffer would not fit), the smallest of
 * more than size (the most recent among equals). A buffer whose eviction
 * runs cannot be claimed and is passed over.
 */
static pinned_node_t *idle_claim(engine_pinned_t *pool, size_t size, bool larger)
{
    pinned_node_t *best = NULL;
    for (pinned_node_t *n = pool->mru; n; n = n->prev)
        if (n->size == size && engine_budget_key_try_use(n->key)) {
            best = n;
            break;
        }
    if (!best && larger) {
        for (pinned_node_t *n = pool->mru; n; n = n->prev)
            if (n->size > size && (!best || n->size < best->size))
                best = n;
        if (best && !engine_budget_key_try_use(best->key))
            best = NULL;
    }
    if (best) {
        idle_unlink(pool, best);
        best->in_use = true;
        pool->c.hits++;
        pool->c.buffers_in_use++;
        pool->c.bytes_in_use += best->size;
    }
    return best;
}

/* The budget evicts an idle buffer: off the idle list, its record spare,
 * its memory freed outside the lock. */
static void pinned_evict(void *ctx)
{
    pinned_node_t *n = ctx;
    engine_pinned_t *pool = n->pool;
    pthread_mutex_lock(&pool->lock);
    assert(!n->in_use && n->ptr);
    void *ptr = n->ptr;
    idle_unlink(pool, n);
    n->ptr = NULL;
    n->size = 0;
    n->next = pool->spare;
    pool->spare = n;
    pool->c.buffers--;
    pthread_mutex_unlock(&pool->lock);
    pool->a.free(pool->a.ctx, ptr);
}

/* A spare record, in use, or NULL when memory for a new one runs out. A
 * spare record's key may still be finishing its eviction: key_use waits
 * for it. */
static pinned_node_t *spare_get(engine_pinned_t *pool)
{
    pthread_mutex_lock(&pool->lock);
    pinned_node_t *n = pool->spare;
    if (n)
        pool->spare = n->next;
    pthread_mutex_unlock(&pool->lock);
    if (!n) {
        n = calloc(1, sizeof *n);
        if (!n)
            return NULL;
        n->pool = pool;
        n->key = engine_budget_key_new(pool->budget, 0, pinned_evict, n);
        if (!n->key) {
            free(n);
            return NULL;
        }
    }
    n->next = NULL;
    engine_budget_key_use(n->key);
    return n;
}

/* Gives back a record of 0 bytes that holds no buffer. */
static void spare_put(engine_pinned_t *pool, pinned_node_t *n)
{
    engine_budget_key_done(n->key);
    pthread_mutex_lock(&pool->lock);
    n->next = pool->spare;
    pool->spare = n;
    pthread_mutex_unlock(&pool->lock);
}

/* ---- acquire and release ------------------------------------------------------- */

/* A request for size bytes waiting in the budget, served by an idle buffer. */
typedef struct pinned_want {
    engine_pinned_t *pool;
    size_t size;
    pinned_node_t *got;
} pinned_want_t;

static bool pinned_serve(void *ctx, bool fits)
{
    pinned_want_t *w = ctx;
    pthread_mutex_lock(&w->pool->lock);
    w->got = idle_claim(w->pool, w->size, !fits);
    pthread_mutex_unlock(&w->pool->lock);
    return w->got != NULL;
}

cuzk_status_t engine_pinned_acquire(engine_pinned_t *pool, size_t bytes, unsigned urgency,
                                    double wait_s, engine_pinned_buf_t *buf, char *err,
                                    size_t err_size)
{
    assert(pool && buf);
    *buf = (engine_pinned_buf_t){0};
    size_t size = engine_pinned_class(bytes);
    if (size == 0)
        return io_fail(err, err_size, CUZK_ENOMEM, "pinned pool: %zu bytes: too large a buffer",
                       bytes);
    pinned_node_t *n = spare_get(pool);
    if (!n)
        return io_fail(err, err_size, CUZK_ENOMEM,
                       "pinned pool: out of memory for a buffer's record");

    /* Served by an idle buffer, or the budget grants the new buffer's
     * bytes to n's key, in the queue's order. */
    pinned_want_t want = {.pool = pool, .size = size};
    char why[IO_ERR_MAX] = "";
    cuzk_status_t st = engine_budget_key_request(n->key, size, urgency, wait_s, pinned_serve, &want,
                                                 why, sizeof why);
    if (want.got || st != CUZK_OK) {
        spare_put(pool, n);
        if (st != CUZK_OK) {
            engine_pinned_counters_t c;
            engine_pinned_counters(pool, &c);
            return io_fail(err, err_size, st,
                           "pinned pool: %zu bytes (a buffer of %zu), %" PRIu64
                           " bytes in use in %" PRIu64 " buffers: %s",
                           bytes, size, c.bytes_in_use, c.buffers_in_use, why);
        }
        *buf =
            (engine_pinned_buf_t){.ptr = want.got->ptr, .size = want.got->size, .node = want.got};
        return CUZK_OK;
    }

    /* A miss: the bytes are n's; allocate outside the lock. */
    pthread_mutex_lock(&pool->lock);
    pool->c.misses++;
    pthread_mutex_unlock(&pool->lock);
    void *p = NULL;
    st = pool->a.alloc(pool->a.ctx, &p, size, err, err_size);
    if (st == CUZK_ENOMEM && engine_budget_trim(pool->budget, 0) > 0) {
        /* The host cannot pin more: every idle buffer went; once more. */
        pthread_mutex_lock(&pool->lock);
        pool->c.alloc_failed++;
        pool->c.shrinks++;
        pthread_mutex_unlock(&pool->lock);
        st = pool->a.alloc(pool->a.ctx, &p, size, err, err_size);
    }
    assert(st != CUZK_OK || p);
    if (st != CUZK_OK) {
        pthread_mutex_lock(&pool->lock);
        pool->c.alloc_failed++;
        pthread_mutex_unlock(&pool->lock);
        (void)engine_budget_key_resize(n->key, 0, urgency, ENGINE_BUDGET_NO_WAIT, NULL, 0);
        spare_put(pool, n);
        return st;
    }
    pthread_mutex_lock(&pool->lock);
    n->ptr = p;
    n->size = size;
    n->in_use = true;
    pool->c.buffers++;
    pool->c.buffers_in_use++;
    pool->c.bytes_in_use += size;
    pthread_mutex_unlock(&pool->lock);
    *buf = (engine_pinned_buf_t){.ptr = p, .size = size, .node = n};
    return CUZK_OK;
}

void engine_pinned_release(engine_pinned_t *pool, engine_pinned_buf_t *buf)
{
    assert(pool && buf && buf->node && "release of an empty pinned buffer handle");
    pinned_node_t *n = buf->node;
    pthread_mutex_lock(&pool->lock);
    assert(n->in_use && n->ptr == buf->ptr && "pinned buffer released twice or foreign");
    n->in_use = false;
    idle_push_mru(pool, n);
    pool->c.buffers_in_use--;
    pool->c.bytes_in_use -= n->size;
    pthread_mutex_unlock(&pool->lock);
    /* Idle and evictable from here, the most recently used: the queue's
     * head looks again. */
    engine_budget_key_done(n->key);
    *buf = (engine_pinned_buf_t){0};
}

/* ---- trimming, cancelling, counters -------------------------------------------- */

uint64_t engine_pinned_trim(engine_pinned_t *pool, uint64_t keep_bytes)
{
    assert(pool);
    return engine_budget_trim(pool->budget, keep_bytes);
}

void engine_pinned_cancel_waits(engine_pinned_t *pool)
{
    assert(pool);
    engine_budget_cancel_waits(pool->budget);
}

void engine_pinned_note_pageable(engine_pinned_t *pool, uint64_t bytes)
{
    assert(pool);
    pthread_mutex_lock(&pool->lock);
    pool->c.pageable_bytes += bytes;
    pthread_mutex_unlock(&pool->lock);
}

void engine_pinned_counters(engine_pinned_t *pool, engine_pinned_counters_t *out)
{
    assert(pool && out);
    pthread_mutex_lock(&pool->lock);
    *out = pool->c;
    engine_budget_counters_t b;
    engine_budget_counters(pool->budget, &b);
    pthread_mutex_unlock(&pool->lock);
    out->waits = b.waits;
    out->refused = b.refused;
    out->evicted = b.evictions;
    out->bytes_held = b.held;
    out->bytes_peak = b.peak;
    out->limit = b.limit;
}
