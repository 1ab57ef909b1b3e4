/* The pinned host buffer pool (engine_pinned.h). */
#include "engine/engine_pinned.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "io/io_error.h"

/* One buffer. Idle buffers sit in a list ordered by release, oldest first. */
typedef struct engine_pinned_node {
    void *ptr;
    size_t size;
    bool in_use;
    struct engine_pinned_node *prev, *next; /* idle list; next also chains evicted buffers */
} pinned_node_t;

struct engine_pinned {
    engine_pinned_alloc_t a;
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a release, or bytes_held went down; CLOCK_MONOTONIC */
    pinned_node_t *lru, *mru;
    uint64_t idle_bytes;
    uint64_t allocating;   /* allocator calls in flight */
    uint64_t cancel_epoch; /* bumped by engine_pinned_cancel_waits */
    engine_pinned_counters_t c;
};

engine_pinned_t *engine_pinned_new(const engine_pinned_alloc_t *a, uint64_t limit)
{
    assert(a && a->alloc && a->free);
    engine_pinned_t *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca) != 0) {
        free(pool);
        return NULL;
    }
    int bad = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    if (!bad && pthread_cond_init(&pool->changed, &ca) != 0)
        bad = 1;
    pthread_condattr_destroy(&ca);
    if (!bad && pthread_mutex_init(&pool->lock, NULL) != 0) {
        pthread_cond_destroy(&pool->changed);
        bad = 1;
    }
    if (bad) {
        free(pool);
        return NULL;
    }
    pool->a = *a;
    pool->c.limit = limit;
    return pool;
}

void engine_pinned_free(engine_pinned_t *pool)
{
    if (!pool)
        return;
    assert(pool->c.buffers_in_use == 0 && "pinned pool freed with buffers in use");
    assert(pool->allocating == 0);
    for (pinned_node_t *n = pool->lru, *next; n; n = next) {
        next = n->next;
        pool->a.free(pool->a.ctx, n->ptr);
        free(n);
    }
    pthread_cond_destroy(&pool->changed);
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

/* ---- the idle list (under the lock) ------------------------------------------ */

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
    pool->idle_bytes -= n->size;
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
    pool->idle_bytes += n->size;
}

/* The most recently released idle buffer of exactly size bytes, or NULL. */
static pinned_node_t *idle_find_class(engine_pinned_t *pool, size_t size)
{
    for (pinned_node_t *n = pool->mru; n; n = n->prev)
        if (n->size == size)
            return n;
    return NULL;
}

/* The smallest idle buffer of more than size bytes (the most recent among equals), or NULL. */
static pinned_node_t *idle_find_larger(engine_pinned_t *pool, size_t size)
{
    pinned_node_t *best = NULL;
    for (pinned_node_t *n = pool->mru; n; n = n->prev)
        if (n->size > size && (!best || n->size < best->size))
            best = n;
    return best;
}

/*
 * Cuts idle buffers, least recently released first, off the list until at
 * least want bytes are cut or none is left; they stop counting as held.
 * Returns them, still chained through next in that order, for
 * pinned_free_chain outside the lock; *taken (NULL: not wanted) = their bytes.
 */
static pinned_node_t *idle_evict(engine_pinned_t *pool, uint64_t want, uint64_t *taken)
{
    pinned_node_t *first = pool->lru, *last = NULL;
    uint64_t got = 0;
    for (pinned_node_t *n = first; n && got < want; n = n->next) {
        last = n;
        got += n->size;
        pool->c.buffers--;
        pool->c.evicted++;
    }
    if (taken)
        *taken = got;
    if (!last)
        return NULL;
    pool->lru = last->next;
    if (pool->lru)
        pool->lru->prev = NULL;
    else
        pool->mru = NULL;
    last->next = NULL;
    pool->idle_bytes -= got;
    pool->c.bytes_held -= got;
    pthread_cond_broadcast(&pool->changed);
    return first;
}

static void pinned_free_chain(engine_pinned_t *pool, pinned_node_t *chain)
{
    while (chain) {
        pinned_node_t *n = chain;
        void *ptr = n->ptr;
        chain = n->next;
        free(n);
        pool->a.free(pool->a.ctx, ptr);
    }
}

/* ---- acquire and release ------------------------------------------------------- */

/* The CLOCK_MONOTONIC time wait_s seconds from now. */
static struct timespec pinned_deadline(double wait_s)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (wait_s > 0) {
        double whole = wait_s > 1e9 ? 1e9 : (double)(time_t)wait_s;
        t.tv_sec += (time_t)whole;
        t.tv_nsec += wait_s > 1e9 ? 0 : (long)((wait_s - whole) * 1e9);
        if (t.tv_nsec >= 1000000000L) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000L;
        }
    }
    return t;
}

/* Takes idle buffer n for use (a hit). */
static void pinned_take(engine_pinned_t *pool, pinned_node_t *n, engine_pinned_buf_t *buf)
{
    idle_unlink(pool, n);
    n->in_use = true;
    pool->c.hits++;
    pool->c.buffers_in_use++;
    pool->c.bytes_in_use += n->size;
    *buf = (engine_pinned_buf_t){.ptr = n->ptr, .size = n->size, .node = n};
}

/* Fails an acquire that the limit refused (under the lock, which it releases). */
static cuzk_status_t pinned_refuse(engine_pinned_t *pool, size_t bytes, size_t size,
                                   const char *why, char *err, size_t err_size)
{
    pool->c.refused++;
    engine_pinned_counters_t c = pool->c;
    pthread_mutex_unlock(&pool->lock);
    return io_fail(err, err_size, CUZK_ENOMEM,
                   "pinned pool: %zu bytes (a buffer of %zu) do not fit in its limit of %" PRIu64
                   " bytes (%" PRIu64 " bytes in use in %" PRIu64 " buffers, %" PRIu64 " held)%s",
                   bytes, size, c.limit, c.bytes_in_use, c.buffers_in_use, c.bytes_held, why);
}

cuzk_status_t engine_pinned_acquire(engine_pinned_t *pool, size_t bytes, double wait_s,
                                    engine_pinned_buf_t *buf, char *err, size_t err_size)
{
    assert(pool && buf);
    *buf = (engine_pinned_buf_t){0};
    size_t size = engine_pinned_class(bytes);
    if (size == 0)
        return io_fail(err, err_size, CUZK_ENOMEM, "pinned pool: %zu bytes: too large a buffer",
                       bytes);
    struct timespec deadline = pinned_deadline(wait_s);
    bool waited = false, timed_out = false;
    pinned_node_t *evicted = NULL;

    pthread_mutex_lock(&pool->lock);
    const uint64_t epoch = pool->cancel_epoch, limit = pool->c.limit;
    if (limit && size > limit)
        return pinned_refuse(pool, bytes, size, ": larger than the limit", err, err_size);
    for (;;) {
        pinned_node_t *n = idle_find_class(pool, size);
        if (!n && limit && pool->c.bytes_held + size > limit)
            n = idle_find_larger(pool, size);
        if (n) {
            pinned_take(pool, n, buf);
            pthread_mutex_unlock(&pool->lock);
            return CUZK_OK;
        }
        uint64_t held = pool->c.bytes_held;
        if (!limit || held + size <= limit)
            break;
        if (held - pool->idle_bytes + size <= limit) {
            evicted = idle_evict(pool, held + size - limit, NULL);
            break;
        }
        if (pool->cancel_epoch != epoch)
            return pinned_refuse(pool, bytes, size, "; cancelled while waiting", err, err_size);
        if (wait_s == 0)
            return pinned_refuse(pool, bytes, size, "", err, err_size);
        if (timed_out)
            return pinned_refuse(pool, bytes, size, "; timed out waiting for a release", err,
                                 err_size);
        if (!waited) {
            waited = true;
            pool->c.waits++;
        }
        if (wait_s < 0)
            pthread_cond_wait(&pool->changed, &pool->lock);
        else if (pthread_cond_timedwait(&pool->changed, &pool->lock, &deadline) == ETIMEDOUT)
            timed_out = true;
    }

    /* A miss: the room is reserved; allocate outside the lock. */
    pool->c.misses++;
    pool->c.bytes_held += size;
    if (pool->c.bytes_held > pool->c.bytes_peak)
        pool->c.bytes_peak = pool->c.bytes_held;
    pool->allocating++;
    pthread_mutex_unlock(&pool->lock);

    pinned_free_chain(pool, evicted);
    void *p = NULL;
    cuzk_status_t st = CUZK_ENOMEM;
    pinned_node_t *n = malloc(sizeof *n);
    if (n)
        st = pool->a.alloc(pool->a.ctx, &p, size, err, err_size);
    else
        io_fail(err, err_size, st, "pinned pool: out of memory for a buffer's record");
    if (n && st == CUZK_ENOMEM) {
        /* The host cannot pin more: give back every idle buffer, try once more. */
        pthread_mutex_lock(&pool->lock);
        pinned_node_t *idle = pool->idle_bytes ? idle_evict(pool, pool->idle_bytes, NULL) : NULL;
        pool->c.alloc_failed += idle != NULL;
        pool->c.shrinks += idle != NULL;
        pthread_mutex_unlock(&pool->lock);
        if (idle) {
            pinned_free_chain(pool, idle);
            st = pool->a.alloc(pool->a.ctx, &p, size, err, err_size);
        }
    }
    assert(st != CUZK_OK || p);

    pthread_mutex_lock(&pool->lock);
    pool->allocating--;
    if (st != CUZK_OK) {
        pool->c.alloc_failed++;
        pool->c.bytes_held -= size;
        pthread_cond_broadcast(&pool->changed);
        pthread_mutex_unlock(&pool->lock);
        free(n);
        return st;
    }
    *n = (pinned_node_t){.ptr = p, .size = size, .in_use = true};
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
    pthread_cond_broadcast(&pool->changed);
    pthread_mutex_unlock(&pool->lock);
    *buf = (engine_pinned_buf_t){0};
}

/* ---- trimming, cancelling, counters -------------------------------------------- */

uint64_t engine_pinned_trim(engine_pinned_t *pool, uint64_t keep_bytes)
{
    assert(pool);
    uint64_t freed = 0;
    pthread_mutex_lock(&pool->lock);
    pinned_node_t *chain = NULL;
    if (pool->idle_bytes > keep_bytes)
        chain = idle_evict(pool, pool->idle_bytes - keep_bytes, &freed);
    pthread_mutex_unlock(&pool->lock);
    pinned_free_chain(pool, chain);
    return freed;
}

void engine_pinned_cancel_waits(engine_pinned_t *pool)
{
    assert(pool);
    pthread_mutex_lock(&pool->lock);
    pool->cancel_epoch++;
    pthread_cond_broadcast(&pool->changed);
    pthread_mutex_unlock(&pool->lock);
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
    pthread_mutex_unlock(&pool->lock);
}
