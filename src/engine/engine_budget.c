/* A memory budget (engine_budget.h). */
#include "engine/engine_budget.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "io/io_error.h"

struct engine_budget_key {
    engine_budget_t *b;
    struct engine_budget_key *prev, *next; /* the budget's keys, least recently used first */
    uint64_t bytes;
    unsigned group;
    unsigned users;
    bool evicting; /* its callback runs now */
    bool evicted;  /* its memory went since its last use */
    engine_budget_evict_fn evict;
    void *ctx;
};

/* A request in the queue, on its caller's stack. */
typedef struct waiter {
    struct waiter *next;
    unsigned priority;
    uint64_t seq;
    bool cancelled;
} waiter_t;

struct engine_budget {
    pthread_mutex_t lock;
    pthread_cond_t cv; /* something was released, evicted or cancelled, or the head changed */
    uint64_t wakes;    /* broadcasts on cv, so that a request sees one it slept through */
    char name[160];
    uint64_t limit, held, reserved;
    uint64_t fixed; /* bytes of keys that cannot be evicted */
    struct {
        char name[64];
        uint64_t limit, held, fixed, peak, evictions;
    } g[ENGINE_BUDGET_GROUPS];
    engine_budget_key_t *lru, *mru;
    waiter_t *queue; /* by priority (higher first), then arrival */
    uint64_t seq;
    unsigned evicting;
    engine_budget_counters_t c;
};

/* Something changed that a waiter looks at (locked). */
static void wake(engine_budget_t *b)
{
    b->wakes++;
    pthread_cond_broadcast(&b->cv);
}

static void held_add(engine_budget_t *b, uint64_t bytes)
{
    b->held += bytes;
    if (b->held > b->c.peak)
        b->c.peak = b->held;
}

engine_budget_t *engine_budget_new(const char *name, uint64_t limit)
{
    engine_budget_t *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    pthread_condattr_t ca;
    int bad = pthread_condattr_init(&ca);
    if (!bad) {
        bad |= pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        bad |= pthread_cond_init(&b->cv, &ca);
        pthread_condattr_destroy(&ca);
    }
    if (bad || pthread_mutex_init(&b->lock, NULL) != 0) {
        free(b);
        return NULL;
    }
    snprintf(b->name, sizeof b->name, "%s", name ? name : "the budget");
    b->limit = limit;
    return b;
}

void engine_budget_free(engine_budget_t *b)
{
    if (!b)
        return;
    assert(!b->lru && !b->queue && b->reserved == 0);
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

const char *engine_budget_name(const engine_budget_t *b)
{
    return b->name;
}

void engine_budget_set_limit(engine_budget_t *b, uint64_t limit)
{
    pthread_mutex_lock(&b->lock);
    b->limit = limit;
    b->c.peak = b->held;
    wake(b);
    pthread_mutex_unlock(&b->lock);
}

uint64_t engine_budget_limit(engine_budget_t *b)
{
    pthread_mutex_lock(&b->lock);
    uint64_t l = b->limit;
    pthread_mutex_unlock(&b->lock);
    return l;
}

/* Whether k may be evicted for a request of self's in group (any group:
 * ENGINE_BUDGET_GROUPS). */
static bool evictable(const engine_budget_key_t *k, const engine_budget_key_t *self, unsigned group)
{
    return k != self && k->evict && k->users == 0 && !k->evicting && k->bytes > 0 &&
           (group == ENGINE_BUDGET_GROUPS || k->group == group);
}

/* Bytes of the idle evictable keys but self, of group or of any (locked). */
static uint64_t idle_bytes(const engine_budget_t *b, const engine_budget_key_t *self,
                           unsigned group)
{
    uint64_t n = 0;
    for (const engine_budget_key_t *k = b->lru; k; k = k->next)
        n += evictable(k, self, group) ? k->bytes : 0;
    return n;
}

static void group_add(engine_budget_t *b, unsigned group, uint64_t bytes)
{
    b->g[group].held += bytes;
    if (b->g[group].held > b->g[group].peak)
        b->g[group].peak = b->g[group].held;
}

void engine_budget_set_group(engine_budget_t *b, unsigned group, const char *name, uint64_t limit)
{
    assert(group > 0 && group < ENGINE_BUDGET_GROUPS);
    pthread_mutex_lock(&b->lock);
    snprintf(b->g[group].name, sizeof b->g[group].name, "%s", name);
    b->g[group].limit = limit;
    b->g[group].peak = b->g[group].held;
    wake(b);
    pthread_mutex_unlock(&b->lock);
}

void engine_budget_group_counters(engine_budget_t *b, unsigned group, engine_budget_counters_t *out)
{
    assert(group < ENGINE_BUDGET_GROUPS);
    pthread_mutex_lock(&b->lock);
    *out = b->c;
    out->limit = b->g[group].limit;
    out->held = b->g[group].held;
    out->reserved = group == 0 ? b->reserved : 0;
    out->peak = b->g[group].peak;
    out->evictions = b->g[group].evictions;
    pthread_mutex_unlock(&b->lock);
}

uint64_t engine_budget_available(engine_budget_t *b)
{
    pthread_mutex_lock(&b->lock);
    uint64_t free_b = b->limit == 0 ? UINT64_MAX : b->held > b->limit ? 0 : b->limit - b->held;
    if (free_b != UINT64_MAX)
        free_b += idle_bytes(b, NULL, ENGINE_BUDGET_GROUPS);
    pthread_mutex_unlock(&b->lock);
    return free_b;
}

static void queue_insert(engine_budget_t *b, waiter_t *w)
{
    waiter_t **p = &b->queue;
    while (*p && (*p)->priority >= w->priority)
        p = &(*p)->next;
    w->next = *p;
    *p = w;
}

static void queue_remove(engine_budget_t *b, waiter_t *w)
{
    for (waiter_t **p = &b->queue; *p; p = &(*p)->next)
        if (*p == w) {
            *p = w->next;
            break;
        }
    wake(b); /* the head may have changed */
}

/* Evicts the least recently used idle evictable key but self, of group
 * (or any: ENGINE_BUDGET_GROUPS): the callback runs unlocked (locked on
 * entry and return). Returns the key's bytes, 0 when there is none to
 * evict. */
static uint64_t evict_one(engine_budget_t *b, engine_budget_key_t *self, unsigned group)
{
    engine_budget_key_t *k = b->lru;
    while (k && !evictable(k, self, group))
        k = k->next;
    if (!k)
        return 0;
    k->evicting = true;
    b->evicting++;
    pthread_mutex_unlock(&b->lock);
    k->evict(k->ctx);
    pthread_mutex_lock(&b->lock);
    uint64_t bytes = k->bytes;
    b->held -= k->bytes;
    b->g[k->group].held -= k->bytes;
    b->g[k->group].evictions++;
    k->bytes = 0;
    k->evicting = false;
    k->evicted = true;
    b->evicting--;
    b->c.evictions++;
    wake(b);
    return bytes;
}

static void deadline_of(struct timespec *ts, double wait_s)
{
    clock_gettime(CLOCK_MONOTONIC, ts);
    double whole = (double)(time_t)wait_s;
    ts->tv_sec += (time_t)wait_s;
    ts->tv_nsec += (long)((wait_s - whole) * 1e9);
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

/*
 * The one request (locked): bytes more for self (a key growing) or for a
 * reservation (self NULL), in group, as engine_budget.h says. On CUZK_OK
 * the bytes are added to held and the group's, and the caller books them,
 * unless serve (NULL: none) served the request: *served is then true and
 * nothing was added.
 */
static cuzk_status_t request(engine_budget_t *b, uint64_t bytes, engine_budget_key_t *self,
                             unsigned group, unsigned priority, double wait_s,
                             engine_budget_serve_fn serve, void *ctx, bool *served, char *err,
                             size_t err_size)
{
    uint64_t own = self && self->evict ? self->bytes : 0;
    uint64_t glimit = group ? b->g[group].limit : 0;
    bool over_all = b->limit && b->fixed + own + bytes > b->limit;
    if (over_all || (glimit && b->g[group].fixed + own + bytes > glimit)) {
        b->c.refused++;
        return io_fail(err, err_size, CUZK_ENOMEM,
                       "%llu bytes are more than %s can ever give: its limit is %llu bytes, "
                       "%llu of them held by what cannot be evicted",
                       (unsigned long long)own + bytes, over_all ? b->name : b->g[group].name,
                       (unsigned long long)(over_all ? b->limit : glimit),
                       (unsigned long long)(over_all ? b->fixed : b->g[group].fixed));
    }
    waiter_t w = {.priority = priority, .seq = b->seq++};
    queue_insert(b, &w);
    struct timespec until;
    if (wait_s > 0)
        deadline_of(&until, wait_s);
    bool waited = false;
    const char *why = NULL;
    for (;;) {
        if (w.cancelled) {
            why = "the wait was cancelled";
            break;
        }
        if (b->queue == &w) {
            bool all_fits = !b->limit || b->held + bytes <= b->limit;
            bool group_fits = !glimit || b->g[group].held + bytes <= glimit;
            if (serve) {
                /* A key that went idle while the callback ran unlocked may
                 * have been missed by it: when anything changed, ask again
                 * before deciding to evict or wait. */
                uint64_t seen = b->wakes;
                pthread_mutex_unlock(&b->lock);
                bool done = serve(ctx, all_fits && group_fits);
                pthread_mutex_lock(&b->lock);
                if (done) {
                    *served = true;
                    queue_remove(b, &w);
                    return CUZK_OK;
                }
                if (b->wakes != seen)
                    continue;
                all_fits = !b->limit || b->held + bytes <= b->limit;
                group_fits = !glimit || b->g[group].held + bytes <= glimit;
            }
            if (all_fits && group_fits) {
                held_add(b, bytes);
                group_add(b, group, bytes);
                queue_remove(b, &w);
                return CUZK_OK;
            }
            uint64_t idle = idle_bytes(b, self, ENGINE_BUDGET_GROUPS);
            uint64_t gidle = idle_bytes(b, self, group);
            bool can = (!b->limit || b->held - idle + bytes <= b->limit) &&
                       (!glimit || b->g[group].held - gidle + bytes <= glimit);
            if (can && evict_one(b, self, group_fits ? ENGINE_BUDGET_GROUPS : group) > 0)
                continue;
        }
        if (wait_s == 0 && b->evicting == 0) {
            why = b->queue == &w ? "it does not fit now" : "others wait before it";
            break;
        }
        if (!waited) {
            waited = true;
            b->c.waits++;
        }
        b->c.waiting++;
        int rc = wait_s > 0 ? pthread_cond_timedwait(&b->cv, &b->lock, &until)
                            : pthread_cond_wait(&b->cv, &b->lock);
        b->c.waiting--;
        if (rc == ETIMEDOUT) {
            why = "it timed out";
            break;
        }
    }
    queue_remove(b, &w);
    b->c.refused++;
    return io_fail(err, err_size, CUZK_ENOMEM,
                   "%llu bytes of %s were refused (%s): %llu of its %llu bytes are held",
                   (unsigned long long)bytes, group ? b->g[group].name : b->name, why,
                   (unsigned long long)(group ? b->g[group].held : b->held),
                   (unsigned long long)(group ? glimit : b->limit));
}

cuzk_status_t engine_budget_reserve(engine_budget_t *b, uint64_t bytes, unsigned priority,
                                    double wait_s, char *err, size_t err_size)
{
    pthread_mutex_lock(&b->lock);
    bool served = false;
    cuzk_status_t s =
        request(b, bytes, NULL, 0, priority, wait_s, NULL, NULL, &served, err, err_size);
    if (s == CUZK_OK)
        b->reserved += bytes;
    pthread_mutex_unlock(&b->lock);
    return s;
}

void engine_budget_take(engine_budget_t *b, uint64_t bytes)
{
    pthread_mutex_lock(&b->lock);
    held_add(b, bytes);
    group_add(b, 0, bytes);
    b->reserved += bytes;
    pthread_mutex_unlock(&b->lock);
}

void engine_budget_release(engine_budget_t *b, uint64_t bytes)
{
    pthread_mutex_lock(&b->lock);
    assert(bytes <= b->reserved);
    b->reserved -= bytes;
    b->held -= bytes;
    b->g[0].held -= bytes;
    wake(b);
    pthread_mutex_unlock(&b->lock);
}

uint64_t engine_budget_trim(engine_budget_t *b, uint64_t keep_bytes)
{
    uint64_t freed = 0;
    pthread_mutex_lock(&b->lock);
    for (;;) {
        uint64_t idle = idle_bytes(b, NULL, ENGINE_BUDGET_GROUPS);
        uint64_t n = idle > keep_bytes ? evict_one(b, NULL, ENGINE_BUDGET_GROUPS) : 0;
        if (n == 0)
            break;
        freed += n;
    }
    pthread_mutex_unlock(&b->lock);
    return freed;
}

void engine_budget_cancel_waits(engine_budget_t *b)
{
    pthread_mutex_lock(&b->lock);
    for (waiter_t *w = b->queue; w; w = w->next)
        w->cancelled = true;
    wake(b);
    pthread_mutex_unlock(&b->lock);
}

/* ---- keys ---------------------------------------------------------------- */

static void lru_unlink(engine_budget_t *b, engine_budget_key_t *k)
{
    if (k->prev)
        k->prev->next = k->next;
    else
        b->lru = k->next;
    if (k->next)
        k->next->prev = k->prev;
    else
        b->mru = k->prev;
    k->prev = k->next = NULL;
}

static void lru_append(engine_budget_t *b, engine_budget_key_t *k)
{
    k->prev = b->mru;
    k->next = NULL;
    if (b->mru)
        b->mru->next = k;
    else
        b->lru = k;
    b->mru = k;
}

engine_budget_key_t *engine_budget_key_new(engine_budget_t *b, unsigned group,
                                           engine_budget_evict_fn evict, void *ctx)
{
    assert(group < ENGINE_BUDGET_GROUPS);
    engine_budget_key_t *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->b = b;
    k->group = group;
    k->evict = evict;
    k->ctx = ctx;
    pthread_mutex_lock(&b->lock);
    lru_append(b, k);
    pthread_mutex_unlock(&b->lock);
    return k;
}

void engine_budget_key_free(engine_budget_key_t *k)
{
    if (!k)
        return;
    engine_budget_t *b = k->b;
    pthread_mutex_lock(&b->lock);
    while (k->evicting)
        pthread_cond_wait(&b->cv, &b->lock);
    assert(k->users == 0);
    b->held -= k->bytes;
    b->g[k->group].held -= k->bytes;
    if (!k->evict) {
        b->fixed -= k->bytes;
        b->g[k->group].fixed -= k->bytes;
    }
    lru_unlink(b, k);
    wake(b);
    pthread_mutex_unlock(&b->lock);
    free(k);
}

cuzk_status_t engine_budget_key_resize(engine_budget_key_t *k, uint64_t bytes, unsigned priority,
                                       double wait_s, char *err, size_t err_size)
{
    return engine_budget_key_request(k, bytes, priority, wait_s, NULL, NULL, err, err_size);
}

cuzk_status_t engine_budget_key_request(engine_budget_key_t *k, uint64_t bytes, unsigned priority,
                                        double wait_s, engine_budget_serve_fn serve, void *ctx,
                                        char *err, size_t err_size)
{
    engine_budget_t *b = k->b;
    pthread_mutex_lock(&b->lock);
    assert(!k->evicting);
    cuzk_status_t s = CUZK_OK;
    bool served = false;
    if (bytes <= k->bytes) {
        b->held -= k->bytes - bytes;
        b->g[k->group].held -= k->bytes - bytes;
        wake(b);
    } else {
        s = request(b, bytes - k->bytes, k, k->group, priority, wait_s, serve, ctx, &served, err,
                    err_size);
    }
    if (s == CUZK_OK && !served) {
        if (!k->evict) {
            b->fixed = b->fixed - k->bytes + bytes;
            b->g[k->group].fixed = b->g[k->group].fixed - k->bytes + bytes;
        }
        k->bytes = bytes;
    }
    pthread_mutex_unlock(&b->lock);
    return s;
}

uint64_t engine_budget_key_bytes(engine_budget_key_t *k)
{
    pthread_mutex_lock(&k->b->lock);
    uint64_t n = k->bytes;
    pthread_mutex_unlock(&k->b->lock);
    return n;
}

bool engine_budget_key_use(engine_budget_key_t *k)
{
    engine_budget_t *b = k->b;
    pthread_mutex_lock(&b->lock);
    while (k->evicting)
        pthread_cond_wait(&b->cv, &b->lock);
    k->users++;
    bool evicted = k->evicted;
    k->evicted = false;
    pthread_mutex_unlock(&b->lock);
    return evicted;
}

bool engine_budget_key_try_use(engine_budget_key_t *k)
{
    engine_budget_t *b = k->b;
    pthread_mutex_lock(&b->lock);
    bool ok = !k->evicting;
    if (ok) {
        k->users++;
        k->evicted = false;
    }
    pthread_mutex_unlock(&b->lock);
    return ok;
}

void engine_budget_key_done(engine_budget_key_t *k)
{
    engine_budget_t *b = k->b;
    pthread_mutex_lock(&b->lock);
    assert(k->users > 0);
    if (--k->users == 0) {
        lru_unlink(b, k);
        lru_append(b, k);
        wake(b);
    }
    pthread_mutex_unlock(&b->lock);
}

void engine_budget_counters(engine_budget_t *b, engine_budget_counters_t *out)
{
    pthread_mutex_lock(&b->lock);
    *out = b->c;
    out->limit = b->limit;
    out->held = b->held;
    out->reserved = b->reserved;
    pthread_mutex_unlock(&b->lock);
}
