/*
 * The memory budget (src/engine/engine_budget.h): waiters served by
 * priority, first come first served within one, never overtaken by a later
 * smaller request; idle keys evicted least recently used first before a
 * request waits, a key in use never; a release wakes the queue's head and
 * only it; deadlines, cancellation and requests that can never fit;
 * trimming idle keys, claiming one without waiting on its eviction, and
 * requests met by their owner's serve callback in the queue's order.
 *
 * Waiting requests run on threads; a test waits until the budget counts
 * them as waiting before it changes anything, so the orders are exact.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <pthread.h>

#include "engine/engine_budget.h"

/* ---- requests on threads ------------------------------------------------------- */

typedef struct {
    engine_budget_t *b;
    uint64_t bytes;
    unsigned priority;
    double wait_s;
    bool hold; /* keep the bytes (else: release them right after the grant) */
    cuzk_status_t status;
    int order; /* the grant's rank, 0 first; -1: refused */
    char err[256];
    pthread_t th;
} req_t;

static pthread_mutex_t order_lock = PTHREAD_MUTEX_INITIALIZER;
static int next_order;

static void *req_main(void *arg)
{
    req_t *r = arg;
    r->status =
        engine_budget_reserve(r->b, r->bytes, r->priority, r->wait_s, r->err, sizeof r->err);
    pthread_mutex_lock(&order_lock);
    r->order = r->status == CUZK_OK ? next_order++ : -1;
    pthread_mutex_unlock(&order_lock);
    if (r->status == CUZK_OK && !r->hold)
        engine_budget_release(r->b, r->bytes);
    return NULL;
}

static uint64_t waiting(engine_budget_t *b)
{
    engine_budget_counters_t c;
    engine_budget_counters(b, &c);
    return c.waiting;
}

/* Starts r and returns once the budget counts n requests waiting. */
static void req_start(req_t *r, engine_budget_t *b, uint64_t bytes, unsigned priority, bool hold,
                      uint64_t n)
{
    *r = (req_t){.b = b,
                 .bytes = bytes,
                 .priority = priority,
                 .wait_s = ENGINE_BUDGET_WAIT_FOREVER,
                 .hold = hold};
    assert_int_equal(pthread_create(&r->th, NULL, req_main, r), 0);
    for (int i = 0; i < 20000 && waiting(b) < n; i++)
        usleep(100);
    assert_int_equal(waiting(b), n);
}

static void req_join(req_t *r)
{
    assert_int_equal(pthread_join(r->th, NULL), 0);
}

static void reset_order(void)
{
    next_order = 0;
}

static uint64_t held(engine_budget_t *b)
{
    engine_budget_counters_t c;
    engine_budget_counters(b, &c);
    return c.held;
}

/* ---- keys that log their evictions ------------------------------------------------ */

enum { KEYS = 4 };
typedef struct {
    int id;
    int *log;
    int *n;
} key_ctx_t;

static void evict_log(void *ctx)
{
    key_ctx_t *k = ctx;
    k->log[(*k->n)++] = k->id;
}

/* ---- tests ---------------------------------------------------------------------------- */

static void test_priority_order(void **state)
{
    (void)state;
    engine_budget_t *b = engine_budget_new("test budget", 100);
    char err[256];
    assert_int_equal(engine_budget_reserve(b, 100, 0, 0, err, sizeof err), CUZK_OK);
    reset_order();
    req_t low, normal, high;
    req_start(&low, b, 100, 0, false, 1);
    req_start(&normal, b, 100, 1, false, 2);
    req_start(&high, b, 100, 3, false, 3);
    engine_budget_release(b, 100);
    req_join(&low);
    req_join(&normal);
    req_join(&high);
    assert_int_equal(high.order, 0);
    assert_int_equal(normal.order, 1);
    assert_int_equal(low.order, 2);
    assert_int_equal(held(b), 0);
    engine_budget_free(b);
}

static void test_fifo_within_priority(void **state)
{
    (void)state;
    engine_budget_t *b = engine_budget_new("test budget", 100);
    char err[256];
    assert_int_equal(engine_budget_reserve(b, 60, 2, 0, err, sizeof err), CUZK_OK);
    reset_order();
    req_t r[4];
    for (int i = 0; i < 4; i++)
        req_start(&r[i], b, 50 + (uint64_t)i, 2, false, (uint64_t)i + 1);
    engine_budget_release(b, 60);
    for (int i = 0; i < 4; i++)
        req_join(&r[i]);
    for (int i = 0; i < 4; i++)
        assert_int_equal(r[i].order, i);
    engine_budget_free(b);
}

/* A waiter that needs more than is free is not overtaken by later smaller
 * requests of its priority or a lower one that would fit now, waiting or
 * not; a higher priority does go first. */
static void test_no_starvation(void **state)
{
    (void)state;
    engine_budget_t *b = engine_budget_new("test budget", 100);
    char err[256];
    assert_int_equal(engine_budget_reserve(b, 60, 1, 0, err, sizeof err), CUZK_OK);
    reset_order();
    req_t big, small;
    req_start(&big, b, 80, 1, true, 1);
    /* 30 would fit beside the 60, but the 80 waits before it */
    assert_int_equal(engine_budget_reserve(b, 30, 1, 0, err, sizeof err), CUZK_ENOMEM);
    assert_non_null(strstr(err, "others wait before it"));
    assert_int_equal(engine_budget_reserve(b, 30, 0, 0.05, err, sizeof err), CUZK_ENOMEM);
    req_start(&small, b, 30, 0, true, 2);
    assert_int_equal(held(b), 60);
    /* a more urgent request that fits goes before the 80 */
    assert_int_equal(engine_budget_reserve(b, 10, 2, 0, err, sizeof err), CUZK_OK);
    engine_budget_release(b, 10);
    engine_budget_release(b, 60);
    req_join(&big);
    assert_int_equal(big.order, 0);
    assert_int_equal(held(b), 80);
    engine_budget_release(b, 80);
    req_join(&small);
    assert_int_equal(small.order, 1);
    engine_budget_release(b, 30);
    assert_int_equal(held(b), 0);
    engine_budget_free(b);
}

static void test_lru_eviction(void **state)
{
    (void)state;
    engine_budget_t *b = engine_budget_new("test budget", 100);
    char err[256];
    int log[KEYS] = {0}, n = 0;
    key_ctx_t ctx[KEYS];
    engine_budget_key_t *k[KEYS];
    for (int i = 0; i < 3; i++) {
        ctx[i] = (key_ctx_t){i, log, &n};
        k[i] = engine_budget_key_new(b, 0, evict_log, &ctx[i]);
        assert_int_equal(engine_budget_key_resize(k[i], 30, 0, 0, err, sizeof err), CUZK_OK);
    }
    /* used in the order 0, 1, 2, 0: the least recently used is 1, then 2 */
    int uses[] = {0, 1, 2, 0};
    for (size_t i = 0; i < sizeof uses / sizeof uses[0]; i++) {
        assert_false(engine_budget_key_use(k[uses[i]]));
        engine_budget_key_done(k[uses[i]]);
    }
    assert_int_equal(engine_budget_available(b), 100);
    /* 90 held: 40 more evicts one key, the least recently used, without waiting */
    assert_int_equal(engine_budget_reserve(b, 40, 0, 0, err, sizeof err), CUZK_OK);
    assert_int_equal(n, 1);
    assert_int_equal(log[0], 1);
    assert_int_equal(engine_budget_key_bytes(k[1]), 0);
    assert_int_equal(held(b), 100);
    /* 50 more (a key growing) evicts the next two, 2 before 0 */
    ctx[3] = (key_ctx_t){3, log, &n};
    k[3] = engine_budget_key_new(b, 0, evict_log, &ctx[3]);
    assert_int_equal(engine_budget_key_resize(k[3], 50, 0, 0, err, sizeof err), CUZK_OK);
    assert_int_equal(n, 3);
    assert_int_equal(log[1], 2);
    assert_int_equal(log[2], 0);
    /* the use after an eviction says so, once */
    assert_true(engine_budget_key_use(k[1]));
    engine_budget_key_done(k[1]);
    assert_false(engine_budget_key_use(k[1]));
    engine_budget_key_done(k[1]);
    engine_budget_counters_t c;
    engine_budget_counters(b, &c);
    assert_int_equal(c.evictions, 3);
    assert_int_equal(c.waits, 0);
    engine_budget_release(b, 40);
    for (int i = 0; i < KEYS; i++)
        engine_budget_key_free(k[i]);
    assert_int_equal(held(b), 0);
    engine_budget_free(b);
}

/* A key in use is never evicted, however long a request waits; and
 * nothing idle is thrown away for a request that would wait anyway. */
static void test_in_use_not_evicted(void **state)
{
    (void)state;
    engine_budget_t *b = engine_budget_new("test budget", 100);
    char err[256];
    int log[KEYS] = {0}, n = 0;
    key_ctx_t ctx[2] = {{0, log, &n}, {1, log, &n}};
    engine_budget_key_t *busy = engine_budget_key_new(b, 0, evict_log, &ctx[0]);
    engine_budget_key_t *idle = engine_budget_key_new(b, 0, evict_log, &ctx[1]);
    assert_int_equal(engine_budget_key_resize(busy, 50, 0, 0, err, sizeof err), CUZK_OK);
    assert_int_equal(engine_budget_key_resize(idle, 30, 0, 0, err, sizeof err), CUZK_OK);
    engine_budget_key_use(busy);
    /* 60 would need the busy key's memory: it times out, the idle key kept */
    assert_int_equal(engine_budget_reserve(b, 60, 3, 0.05, err, sizeof err), CUZK_ENOMEM);
    assert_non_null(strstr(err, "timed out"));
    assert_int_equal(n, 0);
    /* 40 needs only the idle key */
    assert_int_equal(engine_budget_reserve(b, 40, 3, 0, err, sizeof err), CUZK_OK);
    assert_int_equal(n, 1);
    assert_int_equal(log[0], 1);
    assert_int_equal(engine_budget_key_bytes(busy), 50);
    engine_budget_release(b, 40);
    /* once idle, a waiting request evicts it */
    reset_order();
    req_t r;
    req_start(&r, b, 90, 0, false, 1);
    engine_budget_key_done(busy);
    req_join(&r);
    assert_int_equal(r.status, CUZK_OK);
    assert_int_equal(n, 2);
    assert_int_equal(log[1], 0);
    engine_budget_key_free(busy);
    engine_budget_key_free(idle);
    engine_budget_free(b);
}

/* A release that lets the head in wakes it and no one else: the second
 * waiter, which would fit after a partial release, stays behind. */
static void test_release_wakes_head(void **state)
{
    (void)state;
    engine_budget_t *b = engine_budget_new("test budget", 100);
    char err[256];
    assert_int_equal(engine_budget_reserve(b, 100, 0, 0, err, sizeof err), CUZK_OK);
    reset_order();
    req_t head, second;
    req_start(&head, b, 60, 2, true, 1);
    req_start(&second, b, 20, 1, true, 2);
    engine_budget_release(b, 40); /* 60 held: the head (60) does not fit, the second would */
    usleep(20000);
    assert_int_equal(waiting(b), 2);
    assert_int_equal(held(b), 60);
    engine_budget_release(b, 20); /* 40 held: the head (60) fits, the second not beside it */
    req_join(&head);
    assert_int_equal(head.order, 0);
    usleep(20000);
    assert_int_equal(waiting(b), 1);
    assert_int_equal(held(b), 100);
    engine_budget_release(b, 40); /* the second (80 in all) */
    req_join(&second);
    assert_int_equal(second.order, 1);
    assert_int_equal(held(b), 80);
    engine_budget_release(b, 80);
    engine_budget_free(b);
}

static void test_deadline(void **state)
{
    (void)state;
    engine_budget_t *b = engine_budget_new("test budget", 100);
    char err[256];
    assert_int_equal(engine_budget_reserve(b, 70, 0, 0, err, sizeof err), CUZK_OK);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(engine_budget_reserve(b, 40, 0, 0.2, err, sizeof err), CUZK_ENOMEM);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    assert_true(s >= 0.19 && s < 5);
    assert_non_null(strstr(err, "test budget"));
    assert_non_null(strstr(err, "timed out"));
    engine_budget_counters_t c;
    engine_budget_counters(b, &c);
    assert_int_equal(c.held, 70);
    assert_int_equal(c.refused, 1);
    assert_int_equal(c.waiting, 0);
    /* a timed-out head does not block the next one */
    assert_int_equal(engine_budget_reserve(b, 30, 0, 0, err, sizeof err), CUZK_OK);
    engine_budget_release(b, 100);
    engine_budget_free(b);
}

/* Too large for the limit, or for what the unevictable keys leave: at once,
 * even when allowed to wait forever. Cancelled waits fail. */
static void test_never_fits_and_cancel(void **state)
{
    (void)state;
    engine_budget_t *b = engine_budget_new("device_work_limit", 100);
    char err[256];
    assert_int_equal(engine_budget_reserve(b, 101, 0, ENGINE_BUDGET_WAIT_FOREVER, err, sizeof err),
                     CUZK_ENOMEM);
    assert_non_null(strstr(err, "device_work_limit"));
    engine_budget_key_t *ws = engine_budget_key_new(b, 0, NULL, NULL);
    assert_int_equal(engine_budget_key_resize(ws, 50, 0, 0, err, sizeof err), CUZK_OK);
    assert_int_equal(engine_budget_reserve(b, 51, 0, ENGINE_BUDGET_WAIT_FOREVER, err, sizeof err),
                     CUZK_ENOMEM);
    assert_int_equal(engine_budget_reserve(b, 50, 0, 0, err, sizeof err), CUZK_OK);
    reset_order();
    req_t r;
    req_start(&r, b, 50, 0, false, 1);
    engine_budget_cancel_waits(b);
    req_join(&r);
    assert_int_equal(r.status, CUZK_ENOMEM);
    assert_non_null(strstr(r.err, "cancelled"));
    engine_budget_release(b, 50);
    /* taking over the limit (the one partition that always runs) */
    engine_budget_take(b, 80);
    assert_int_equal(held(b), 130);
    engine_budget_release(b, 80);
    engine_budget_key_free(ws);
    assert_int_equal(held(b), 0);
    engine_budget_free(b);
}

/* A group's own limit: its keys' requests fit it too, and only its own
 * idle keys are evicted for it, or any for the whole budget's limit. */
static void test_group_limit(void **state)
{
    (void)state;
    engine_budget_t *b = engine_budget_new("test device", 200);
    engine_budget_set_group(b, 1, "device_work_limit", 100);
    char err[256];
    int log[KEYS] = {0}, n = 0;
    key_ctx_t ctx[3] = {{0, log, &n}, {1, log, &n}, {2, log, &n}};
    engine_budget_key_t *other = engine_budget_key_new(b, 0, evict_log, &ctx[0]);
    engine_budget_key_t *s1 = engine_budget_key_new(b, 1, evict_log, &ctx[1]);
    engine_budget_key_t *s2 = engine_budget_key_new(b, 1, evict_log, &ctx[2]);
    assert_int_equal(engine_budget_key_resize(other, 50, 0, 0, err, sizeof err), CUZK_OK);
    assert_int_equal(engine_budget_key_resize(s1, 60, 0, 0, err, sizeof err), CUZK_OK);
    /* 60 more in group 1 is over its 100: s1 goes, not the older key of group 0 */
    engine_budget_key_use(s2);
    assert_int_equal(engine_budget_key_resize(s2, 60, 0, 0, err, sizeof err), CUZK_OK);
    assert_int_equal(n, 1);
    assert_int_equal(log[0], 1);
    /* beyond the group's limit, even alone: at once, naming the group */
    assert_int_equal(
        engine_budget_key_resize(s2, 101, 0, ENGINE_BUDGET_WAIT_FOREVER, err, sizeof err),
        CUZK_ENOMEM);
    assert_non_null(strstr(err, "device_work_limit"));
    engine_budget_counters_t c;
    engine_budget_group_counters(b, 1, &c);
    assert_int_equal(c.held, 60);
    assert_true(c.peak <= 100);
    assert_int_equal(c.evictions, 1);
    engine_budget_key_done(s2);
    engine_budget_key_free(other);
    engine_budget_key_free(s1);
    engine_budget_key_free(s2);
    assert_int_equal(held(b), 0);
    engine_budget_free(b);
}

/* engine_budget_trim: idle evictable keys, least recently used first, down
 * to keep_bytes; never one in use or one without an evict callback. */
static void test_trim(void **state)
{
    (void)state;
    engine_budget_t *b = engine_budget_new("test budget", 0);
    char err[256];
    int log[KEYS] = {0}, n = 0;
    key_ctx_t ctx[KEYS];
    engine_budget_key_t *k[KEYS];
    for (int i = 0; i < KEYS; i++) {
        ctx[i] = (key_ctx_t){i, log, &n};
        k[i] = engine_budget_key_new(b, 0, i == 3 ? NULL : evict_log, &ctx[i]);
        assert_int_equal(
            engine_budget_key_resize(k[i], 10 * ((uint64_t)i + 1), 0, 0, err, sizeof err), CUZK_OK);
    }
    /* used in the order 2, 0, 1; 1 stays in use */
    int uses[] = {2, 0, 1};
    for (size_t i = 0; i < sizeof uses / sizeof uses[0]; i++) {
        engine_budget_key_use(k[uses[i]]);
        if (uses[i] != 1)
            engine_budget_key_done(k[uses[i]]);
    }
    assert_int_equal(engine_budget_trim(b, 40), 0); /* idle: 30 (key 2) + 10 (key 0) */
    assert_int_equal(engine_budget_trim(b, 15), 30);
    assert_int_equal(n, 1);
    assert_int_equal(log[0], 2);
    assert_int_equal(engine_budget_trim(b, 0), 10);
    assert_int_equal(n, 2);
    assert_int_equal(log[1], 0);
    assert_int_equal(engine_budget_trim(b, 0), 0);
    assert_int_equal(held(b), 20 + 40);
    engine_budget_counters_t c;
    engine_budget_counters(b, &c);
    assert_int_equal(c.evictions, 2);
    engine_budget_key_done(k[1]);
    for (int i = 0; i < KEYS; i++)
        engine_budget_key_free(k[i]);
    engine_budget_free(b);
}

/* engine_budget_key_try_use: like key_use on an idle key, false (and not
 * in use) while the key's eviction runs, where key_use would wait. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    bool in_evict, go;
} slow_evict_t;

static void evict_slow(void *ctx)
{
    slow_evict_t *e = ctx;
    pthread_mutex_lock(&e->lock);
    e->in_evict = true;
    pthread_cond_broadcast(&e->cv);
    while (!e->go)
        pthread_cond_wait(&e->cv, &e->lock);
    pthread_mutex_unlock(&e->lock);
}

static void *trim_main(void *arg)
{
    engine_budget_trim(arg, 0);
    return NULL;
}

static void test_try_use(void **state)
{
    (void)state;
    engine_budget_t *b = engine_budget_new("test budget", 100);
    char err[256];
    slow_evict_t e = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false};
    engine_budget_key_t *k = engine_budget_key_new(b, 0, evict_slow, &e);
    assert_int_equal(engine_budget_key_resize(k, 40, 0, 0, err, sizeof err), CUZK_OK);
    /* idle: claimed at once, and not evictable while claimed */
    assert_true(engine_budget_key_try_use(k));
    assert_int_equal(engine_budget_trim(b, 0), 0);
    engine_budget_key_done(k);
    /* its eviction runs: try_use fails without waiting */
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, trim_main, b), 0);
    pthread_mutex_lock(&e.lock);
    while (!e.in_evict)
        pthread_cond_wait(&e.cv, &e.lock);
    pthread_mutex_unlock(&e.lock);
    assert_false(engine_budget_key_try_use(k));
    pthread_mutex_lock(&e.lock);
    e.go = true;
    pthread_cond_broadcast(&e.cv);
    pthread_mutex_unlock(&e.lock);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(engine_budget_key_bytes(k), 0);
    assert_true(engine_budget_key_use(k)); /* the eviction is reported once */
    engine_budget_key_done(k);
    engine_budget_key_free(k);
    engine_budget_free(b);
}

/* A request with a serve callback: served at the queue's head, in the
 * queue's order, told whether its bytes fit; served, the key keeps its
 * bytes; not served, the bytes are granted as usual. */
typedef struct {
    engine_budget_key_t *k;
    bool ready; /* serve returns this */
    int calls;
    bool last_fits;
    int order; /* the rank in which serve met it */
    cuzk_status_t status;
    pthread_t th;
} serve_req_t;

static bool serve_test(void *ctx, bool fits)
{
    serve_req_t *r = ctx;
    pthread_mutex_lock(&order_lock);
    r->calls++;
    r->last_fits = fits;
    bool ready = r->ready;
    if (ready)
        r->order = next_order++; /* before the next request can be the head */
    pthread_mutex_unlock(&order_lock);
    return ready;
}

static void *serve_main(void *arg)
{
    serve_req_t *r = arg;
    r->status =
        engine_budget_key_request(r->k, 50, 0, ENGINE_BUDGET_WAIT_FOREVER, serve_test, r, NULL, 0);
    return NULL;
}

static void test_serve(void **state)
{
    (void)state;
    engine_budget_t *b = engine_budget_new("test budget", 100);
    char err[256];
    serve_req_t now = {.k = engine_budget_key_new(b, 0, NULL, NULL)};
    /* fits, not served: granted */
    assert_int_equal(engine_budget_key_request(now.k, 50, 0, 0, serve_test, &now, err, sizeof err),
                     CUZK_OK);
    assert_int_equal(now.calls, 1);
    assert_true(now.last_fits);
    assert_int_equal(engine_budget_key_bytes(now.k), 50);
    /* does not fit, served at once: nothing more held */
    serve_req_t again = {.k = engine_budget_key_new(b, 0, NULL, NULL), .ready = true};
    assert_int_equal(engine_budget_reserve(b, 40, 0, 0, err, sizeof err), CUZK_OK);
    assert_int_equal(
        engine_budget_key_request(again.k, 50, 0, 0, serve_test, &again, err, sizeof err), CUZK_OK);
    assert_int_equal(again.calls, 1);
    assert_false(again.last_fits);
    assert_int_equal(engine_budget_key_bytes(again.k), 0);
    assert_int_equal(held(b), 90);

    /* Two wait; only the head is asked. The second is ready first but
     * waits until the head is served. */
    reset_order();
    serve_req_t first = {.k = engine_budget_key_new(b, 0, NULL, NULL)};
    serve_req_t second = {.k = engine_budget_key_new(b, 0, NULL, NULL), .ready = true};
    assert_int_equal(pthread_create(&first.th, NULL, serve_main, &first), 0);
    for (int i = 0; i < 20000 && waiting(b) < 1; i++)
        usleep(100);
    assert_int_equal(pthread_create(&second.th, NULL, serve_main, &second), 0);
    for (int i = 0; i < 20000 && waiting(b) < 2; i++)
        usleep(100);
    assert_int_equal(waiting(b), 2);
    engine_budget_release(b, 10); /* a look: 80 held, 50 still does not fit */
    usleep(20000);
    assert_int_equal(waiting(b), 2);
    pthread_mutex_lock(&order_lock);
    assert_true(first.calls >= 2);
    assert_int_equal(second.calls, 0);
    first.ready = true;
    pthread_mutex_unlock(&order_lock);
    engine_budget_release(b, 10); /* the next look serves the head, then the second */
    assert_int_equal(pthread_join(first.th, NULL), 0);
    assert_int_equal(pthread_join(second.th, NULL), 0);
    assert_int_equal(first.status, CUZK_OK);
    assert_int_equal(second.status, CUZK_OK);
    assert_int_equal(first.order, 0);
    assert_int_equal(second.order, 1);
    assert_int_equal(held(b), 70);
    engine_budget_release(b, 20);
    engine_budget_key_free(now.k);
    engine_budget_key_free(again.k);
    engine_budget_key_free(first.k);
    engine_budget_key_free(second.k);
    assert_int_equal(held(b), 0);
    engine_budget_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_priority_order),
        cmocka_unit_test(test_fifo_within_priority),
        cmocka_unit_test(test_no_starvation),
        cmocka_unit_test(test_lru_eviction),
        cmocka_unit_test(test_in_use_not_evicted),
        cmocka_unit_test(test_release_wakes_head),
        cmocka_unit_test(test_deadline),
        cmocka_unit_test(test_never_fits_and_cancel),
        cmocka_unit_test(test_group_limit),
        cmocka_unit_test(test_trim),
        cmocka_unit_test(test_try_use),
        cmocka_unit_test(test_serve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
