/*
 * The engine's pinned buffer pool (src/engine/engine_pinned.h) on a
 * malloc-based allocator that counts what it holds and fails on demand:
 * size classes, hits and misses, the most recent idle buffer first, the
 * limit (a larger idle buffer serves, idle buffers evicted least recently
 * released first, none thrown away for a request that cannot fit, the
 * refusal's message), trim, counters and the pageable counter, allocator
 * failures (under memory pressure the idle buffers go and the allocation
 * is tried once more), waiting acquires woken by a release, timed out or cancelled,
 * served in the budget's order (urgency, then arrival; reuse too), and a
 * seeded concurrent run of acquires at mixed urgencies, releases and trims.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <pthread.h>

#include "test_util.h"

#include "engine/engine_pinned.h"
#include "io/io_error.h"

enum { MIB = 1 << 20, HEADER = 64 };

/* ---- the test allocator ---------------------------------------------------------- */

/* malloc with the size in a header, so frees can be counted in bytes. */
typedef struct test_alloc {
    pthread_mutex_t lock;
    int fail_next;      /* this many next allocations fail */
    int fail_every;     /* > 0: every fail_every-th allocation fails */
    cuzk_status_t fail; /* the status they fail with */
    uint64_t allocs, failed, frees, live, live_bytes;
    void *last_freed;
} test_alloc_t;

static test_alloc_t ta = {.lock = PTHREAD_MUTEX_INITIALIZER};

static cuzk_status_t ta_alloc(void *ctx, void **p, size_t bytes, char *err, size_t err_size)
{
    test_alloc_t *t = ctx;
    pthread_mutex_lock(&t->lock);
    bool fail = t->fail_next > 0 || (t->fail_every > 0 && (t->allocs + 1) % t->fail_every == 0);
    t->allocs++;
    if (t->fail_next > 0)
        t->fail_next--;
    t->failed += fail;
    pthread_mutex_unlock(&t->lock);
    if (fail)
        return io_fail(err, err_size, t->fail, "test allocator: refused %zu bytes", bytes);
    unsigned char *m = malloc(HEADER + bytes);
    if (!m)
        return io_fail(err, err_size, CUZK_ENOMEM, "test allocator: malloc(%zu)", bytes);
    memcpy(m, &bytes, sizeof bytes);
    pthread_mutex_lock(&t->lock);
    t->live++;
    t->live_bytes += bytes;
    pthread_mutex_unlock(&t->lock);
    *p = m + HEADER;
    /* Not a leak: ta_free frees m from p - HEADER. */
    // cppcheck-suppress memleak
    return CUZK_OK;
}

static void ta_free(void *ctx, void *p)
{
    test_alloc_t *t = ctx;
    unsigned char *m = (unsigned char *)p - HEADER;
    size_t bytes;
    memcpy(&bytes, m, sizeof bytes);
    pthread_mutex_lock(&t->lock);
    t->frees++;
    t->live--;
    t->live_bytes -= bytes;
    t->last_freed = p;
    pthread_mutex_unlock(&t->lock);
    free(m);
}

static const engine_pinned_alloc_t ta_table = {.ctx = &ta, .alloc = ta_alloc, .free = ta_free};

static engine_pinned_t *test_pool_new(uint64_t limit)
{
    pthread_mutex_lock(&ta.lock);
    ta.fail_next = ta.fail_every = 0;
    ta.fail = CUZK_ENOMEM;
    ta.allocs = ta.failed = ta.frees = ta.live = ta.live_bytes = 0;
    ta.last_freed = NULL;
    pthread_mutex_unlock(&ta.lock);
    engine_pinned_t *pool = engine_pinned_new(&ta_table, limit);
    assert_non_null(pool);
    return pool;
}

/* Frees the pool and checks that the allocator got every byte back. */
static void test_pool_free(engine_pinned_t *pool)
{
    engine_pinned_free(pool);
    assert_int_equal(ta.live, 0);
    assert_int_equal(ta.live_bytes, 0);
    assert_int_equal(ta.frees + ta.failed, ta.allocs);
}

static engine_pinned_counters_t counters(engine_pinned_t *pool)
{
    engine_pinned_counters_t c;
    engine_pinned_counters(pool, &c);
    return c;
}

/* The pool's bytes and buffers agree with what the allocator holds. */
static void assert_consistent(engine_pinned_t *pool)
{
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.bytes_held, ta.live_bytes);
    assert_int_equal(c.buffers, ta.live);
    assert_true(c.bytes_in_use <= c.bytes_held);
    assert_true(c.buffers_in_use <= c.buffers);
    assert_true(c.bytes_held <= c.bytes_peak);
    if (c.limit)
        assert_true(c.bytes_peak <= c.limit);
}

/* Acquires bytes without waiting and checks the buffer is writable to its size. */
static engine_pinned_buf_t get(engine_pinned_t *pool, size_t bytes)
{
    engine_pinned_buf_t b;
    char err[IO_ERR_MAX] = "";
    cuzk_status_t st = engine_pinned_acquire(pool, bytes, 0, 0, &b, err, sizeof err);
    if (st != CUZK_OK)
        fail_msg("acquire %zu: %s", bytes, err);
    assert_non_null(b.ptr);
    assert_true(b.size >= bytes);
    memset(b.ptr, 0xa5, b.size);
    return b;
}

/* ---- size classes ------------------------------------------------------------------ */

static void test_class(void **state)
{
    (void)state;
    assert_int_equal(engine_pinned_class(0), ENGINE_PINNED_MIN_CLASS);
    assert_int_equal(engine_pinned_class(1), ENGINE_PINNED_MIN_CLASS);
    assert_int_equal(engine_pinned_class(4096), 4096);
    assert_int_equal(engine_pinned_class(4097), 5120);
    assert_int_equal(engine_pinned_class(MIB), MIB);
    assert_int_equal(engine_pinned_class(MIB + 1), MIB + MIB / 4);
    assert_int_equal(engine_pinned_class(MIB + MIB / 4 + 1), MIB + MIB / 2);
    assert_int_equal(engine_pinned_class(2 * MIB - 1), 2 * MIB);
    assert_int_equal(engine_pinned_class((size_t)11 << 30), (size_t)12 << 30);
    assert_int_equal(engine_pinned_class(SIZE_MAX), 0);
    assert_int_equal(engine_pinned_class(((size_t)1 << 63) + 1), ((size_t)5 << 61));

    for (int i = 0; i < test_iters(100000); i++) {
        uint64_t r = rng_next(&test_rng);
        size_t n = (size_t)(r >> 24) >> (r & 31); /* sizes up to 2^40, all magnitudes */
        size_t c = engine_pinned_class(n);
        assert_true(c >= n);
        assert_int_equal(engine_pinned_class(c), c);
        assert_true(engine_pinned_class(n + 1) >= c);
        if (n > ENGINE_PINNED_MIN_CLASS)
            assert_true((double)c <= 1.25 * (double)n);
        /* on the grid: 4, 5, 6 or 7 times a power of two */
        size_t m = c;
        while (m % 2 == 0 && m > 7)
            m /= 2;
        assert_true(m >= 4 && m <= 7);
    }
}

/* ---- reuse ------------------------------------------------------------------------- */

static void test_hits_and_misses(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(0);
    engine_pinned_buf_t a = get(pool, MIB);
    void *pa = a.ptr;
    assert_int_equal(a.size, MIB);
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.misses, 1);
    assert_int_equal(c.hits, 0);
    assert_int_equal(c.buffers_in_use, 1);
    assert_int_equal(c.bytes_in_use, MIB);
    engine_pinned_release(pool, &a);
    assert_null(a.ptr);
    assert_null(a.node);
    c = counters(pool);
    assert_int_equal(c.buffers_in_use, 0);
    assert_int_equal(c.bytes_in_use, 0);
    assert_int_equal(c.bytes_held, MIB);

    /* Same class (a little smaller): the same buffer, no allocation. */
    a = get(pool, MIB - 1000);
    assert_ptr_equal(a.ptr, pa);
    assert_int_equal(ta.allocs, 1);
    /* Another while it is in use: a miss. */
    engine_pinned_buf_t b = get(pool, MIB);
    assert_ptr_not_equal(b.ptr, pa);
    /* Another class: a miss. */
    engine_pinned_buf_t d = get(pool, 3 * MIB);
    assert_int_equal(d.size, 3 * MIB);
    c = counters(pool);
    assert_int_equal(c.hits, 1);
    assert_int_equal(c.misses, 3);
    assert_int_equal(c.buffers, 3);
    assert_int_equal(c.bytes_held, 5 * MIB);
    assert_int_equal(c.bytes_peak, 5 * MIB);
    engine_pinned_release(pool, &a);
    engine_pinned_release(pool, &b);
    engine_pinned_release(pool, &d);

    /* Without a limit a larger idle buffer does not serve a smaller class. */
    engine_pinned_buf_t e = get(pool, 2 * MIB);
    assert_int_equal(e.size, 2 * MIB);
    assert_int_equal(counters(pool).misses, 4);
    engine_pinned_release(pool, &e);

    /* Two idle of one class: the most recently released serves. */
    a = get(pool, MIB);
    b = get(pool, MIB);
    void *p1 = a.ptr, *p2 = b.ptr;
    engine_pinned_release(pool, &b);
    engine_pinned_release(pool, &a);
    a = get(pool, MIB);
    assert_ptr_equal(a.ptr, p1);
    engine_pinned_release(pool, &a);
    b = get(pool, MIB);
    assert_ptr_equal(b.ptr, p1);
    a = get(pool, MIB);
    assert_ptr_equal(a.ptr, p2);
    engine_pinned_release(pool, &b);
    engine_pinned_release(pool, &a);
    b = get(pool, MIB);
    assert_ptr_equal(b.ptr, p2);
    engine_pinned_release(pool, &b);
    assert_int_equal(counters(pool).misses, 4);
    assert_consistent(pool);
    test_pool_free(pool);
}

/* ---- the limit ------------------------------------------------------------------- */

static void test_limit_evicts_lru(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(4 * MIB + MIB / 2);
    engine_pinned_buf_t b[4];
    for (int i = 0; i < 4; i++)
        b[i] = get(pool, MIB);
    void *p0 = b[0].ptr, *p1 = b[1].ptr;
    engine_pinned_release(pool, &b[1]); /* released first: least recently used */
    engine_pinned_release(pool, &b[0]);

    /* 1.25 MiB: 4 + 1.25 > 4.5 MiB held; evicting the oldest idle MiB makes room. */
    engine_pinned_buf_t big = get(pool, MIB + 1);
    assert_int_equal(big.size, MIB + MIB / 4);
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.evicted, 1);
    assert_ptr_equal(ta.last_freed, p1);
    assert_int_equal(c.bytes_held, 4 * MIB + MIB / 4);
    assert_int_equal(c.misses, 5);
    assert_consistent(pool);
    /* The other idle buffer stayed. */
    b[0] = get(pool, MIB);
    assert_ptr_equal(b[0].ptr, p0);
    assert_int_equal(counters(pool).hits, 1);

    for (int i = 0; i < 4; i++)
        if (b[i].ptr)
            engine_pinned_release(pool, &b[i]);
    engine_pinned_release(pool, &big);
    assert_consistent(pool);
    test_pool_free(pool);
}

static void test_limit_larger_idle_serves(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(2 * MIB);
    engine_pinned_buf_t a = get(pool, 2 * MIB);
    void *pa = a.ptr;
    engine_pinned_release(pool, &a);
    /* 1 MiB would not fit beside the idle 2 MiB: the 2 MiB buffer serves it. */
    a = get(pool, MIB);
    assert_ptr_equal(a.ptr, pa);
    assert_int_equal(a.size, 2 * MIB);
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.hits, 1);
    assert_int_equal(c.misses, 1);
    assert_int_equal(c.evicted, 0);
    engine_pinned_release(pool, &a);
    assert_consistent(pool);
    test_pool_free(pool);
}

static void test_limit_refused(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(2 * MIB);
    engine_pinned_buf_t a = get(pool, MIB), b = get(pool, MIB / 2), x;
    engine_pinned_release(pool, &b); /* idle: 0.5 MiB, in use: 1 MiB */

    /* 1.5 MiB cannot fit even with the idle buffer freed: refused, idle kept. */
    char err[IO_ERR_MAX] = "";
    assert_int_equal(engine_pinned_acquire(pool, MIB + MIB / 2, 0, 0, &x, err, sizeof err),
                     CUZK_ENOMEM);
    assert_null(x.ptr);
    assert_non_null(strstr(err, "1572864 bytes"));
    assert_non_null(strstr(err, "pinned_limit"));
    assert_non_null(strstr(err, "of its 2097152 bytes"));
    assert_non_null(strstr(err, "1048576 bytes in use in 1 buffers"));
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.refused, 1);
    assert_int_equal(c.evicted, 0);
    assert_int_equal(c.buffers, 2);
    assert_int_equal(c.bytes_held, MIB + MIB / 2);
    assert_int_equal(c.misses, 2);

    /* Larger than the limit: refused at once, even when asked to wait forever. */
    err[0] = 0;
    assert_int_equal(
        engine_pinned_acquire(pool, 3 * MIB, 0, ENGINE_PINNED_WAIT_FOREVER, &x, err, sizeof err),
        CUZK_ENOMEM);
    assert_non_null(strstr(err, "can ever give"));
    assert_int_equal(counters(pool).refused, 2);

    /* 1 MiB fits once the idle half MiB goes. */
    x = get(pool, MIB);
    c = counters(pool);
    assert_int_equal(c.evicted, 1);
    assert_int_equal(c.bytes_held, 2 * MIB);
    engine_pinned_release(pool, &x);
    engine_pinned_release(pool, &a);
    assert_consistent(pool);
    test_pool_free(pool);
}

/* ---- trim and counters --------------------------------------------------------- */

static void test_trim(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(0);
    engine_pinned_buf_t b1 = get(pool, MIB), b2 = get(pool, 2 * MIB), b3 = get(pool, 3 * MIB),
                        b4 = get(pool, 4 * MIB), in_use = get(pool, 5 * MIB);
    void *p2 = b2.ptr, *p4 = b4.ptr;
    /* Released in the order 3, 1, 4, 2: the least recent is 3. */
    engine_pinned_release(pool, &b3);
    engine_pinned_release(pool, &b1);
    engine_pinned_release(pool, &b4);
    engine_pinned_release(pool, &b2);
    assert_int_equal(engine_pinned_trim(pool, 10 * MIB), 0);
    /* Keep 6 MiB of 10: 3 goes (7 left), then 1 (6 left). */
    assert_int_equal(engine_pinned_trim(pool, 6 * MIB), 4 * MIB);
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.evicted, 2);
    assert_int_equal(c.buffers, 3);
    assert_int_equal(c.bytes_held, 11 * MIB);
    assert_consistent(pool);
    b4 = get(pool, 4 * MIB);
    assert_ptr_equal(b4.ptr, p4);
    engine_pinned_release(pool, &b4);
    /* 4 is now the most recent: keep 4 MiB frees 2. */
    assert_int_equal(engine_pinned_trim(pool, 4 * MIB), 2 * MIB);
    assert_ptr_equal(ta.last_freed, p2);
    /* Keep nothing: every idle buffer, never one in use. */
    assert_int_equal(engine_pinned_trim(pool, 0), 4 * MIB);
    c = counters(pool);
    assert_int_equal(c.buffers, 1);
    assert_int_equal(c.bytes_held, 5 * MIB);
    assert_int_equal(c.bytes_in_use, 5 * MIB);
    assert_int_equal(c.bytes_peak, 15 * MIB);
    memset(in_use.ptr, 1, in_use.size);
    engine_pinned_release(pool, &in_use);
    assert_consistent(pool);
    test_pool_free(pool);
}

static void test_counters_pageable(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(8 * MIB);
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.limit, 8 * MIB);
    assert_int_equal(c.pageable_bytes, 0);
    assert_int_equal(c.hits + c.misses + c.waits + c.refused + c.alloc_failed + c.evicted, 0);
    assert_int_equal(c.buffers + c.bytes_held + c.bytes_peak, 0);

    /* A steady state: the same two buffers over and over, no pageable copy. */
    for (int i = 0; i < 10; i++) {
        engine_pinned_buf_t a = get(pool, 3 * MIB), b = get(pool, 100000);
        engine_pinned_release(pool, &b);
        engine_pinned_release(pool, &a);
    }
    c = counters(pool);
    assert_int_equal(c.misses, 2);
    assert_int_equal(c.hits, 18);
    assert_int_equal(c.pageable_bytes, 0);
    assert_int_equal(c.bytes_held, 3 * MIB + engine_pinned_class(100000));
    assert_int_equal(c.bytes_peak, c.bytes_held);

    engine_pinned_note_pageable(pool, 100);
    engine_pinned_note_pageable(pool, 23);
    engine_pinned_note_pageable(pool, 0);
    assert_int_equal(counters(pool).pageable_bytes, 123);
    assert_consistent(pool);
    test_pool_free(pool);
}

/* ---- allocator failures -------------------------------------------------------- */

static void test_alloc_failure(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(MIB);
    engine_pinned_buf_t x = {.ptr = &x}, a;
    char err[IO_ERR_MAX] = "";
    ta.fail_next = 1;
    assert_int_equal(engine_pinned_acquire(pool, MIB, 0, 0, &x, err, sizeof err), CUZK_ENOMEM);
    assert_string_equal(err, "test allocator: refused 1048576 bytes");
    assert_null(x.ptr);
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.alloc_failed, 1);
    assert_int_equal(c.misses, 1);
    assert_int_equal(c.bytes_held, 0);
    assert_int_equal(c.buffers, 0);
    assert_consistent(pool);

    /* The reservation was given back: the whole limit is there again. */
    a = get(pool, MIB);
    engine_pinned_release(pool, &a);
    test_pool_free(pool);

    /* Eviction for the room, then a failing allocator with its own status: the
     * evicted buffer stays freed, the pool is empty and consistent. */
    pool = test_pool_new(MIB);
    a = get(pool, MIB / 2);
    engine_pinned_release(pool, &a);
    ta.fail_next = 1;
    ta.fail = CUZK_EDEVICE;
    assert_int_equal(engine_pinned_acquire(pool, MIB, 0, 0, &x, err, sizeof err), CUZK_EDEVICE);
    assert_string_equal(err, "test allocator: refused 1048576 bytes");
    c = counters(pool);
    assert_int_equal(c.evicted, 1);
    assert_int_equal(c.alloc_failed, 1);
    assert_int_equal(c.buffers, 0);
    assert_int_equal(c.bytes_held, 0);
    assert_consistent(pool);
    a = get(pool, MIB);
    engine_pinned_release(pool, &a);
    assert_consistent(pool);
    test_pool_free(pool);
}

/* The host cannot pin more: the pool gives back its idle buffers and tries
 * once more; a failure that is not about memory is not retried. */
static void test_alloc_pressure(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(0);
    engine_pinned_buf_t a = get(pool, MIB), b = get(pool, MIB / 2), x;
    void *pa = a.ptr;
    engine_pinned_release(pool, &a);
    char err[IO_ERR_MAX] = "";
    ta.fail_next = 1;
    assert_int_equal(engine_pinned_acquire(pool, 2 * MIB, 0, 0, &x, err, sizeof err), CUZK_OK);
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.shrinks, 1);
    assert_int_equal(c.alloc_failed, 1);
    assert_int_equal(c.evicted, 1);
    assert_ptr_equal(ta.last_freed, pa);
    assert_int_equal(c.buffers, 2); /* b, in use, kept; x */
    assert_consistent(pool);
    engine_pinned_release(pool, &x);

    /* Twice in a row: the retry fails too, and says so; nothing is held for it. */
    ta.fail_next = 2;
    assert_int_equal(engine_pinned_acquire(pool, 4 * MIB, 0, 0, &x, err, sizeof err), CUZK_ENOMEM);
    assert_string_equal(err, "test allocator: refused 4194304 bytes");
    c = counters(pool);
    assert_int_equal(c.shrinks, 2);
    assert_int_equal(c.alloc_failed, 3);
    assert_int_equal(c.buffers, 1);
    assert_int_equal(c.bytes_held, c.bytes_in_use);
    assert_consistent(pool);

    /* A device error is not memory pressure: no retry, the idle buffer stays. */
    x = get(pool, MIB);
    engine_pinned_release(pool, &x);
    ta.fail_next = 1;
    ta.fail = CUZK_EDEVICE;
    assert_int_equal(engine_pinned_acquire(pool, 8 * MIB, 0, 0, &x, err, sizeof err), CUZK_EDEVICE);
    c = counters(pool);
    assert_int_equal(c.shrinks, 2);
    assert_int_equal(c.buffers, 2);
    assert_consistent(pool);
    engine_pinned_release(pool, &b);
    test_pool_free(pool);
}

/* ---- waiting ------------------------------------------------------------------- */

typedef struct waiter {
    engine_pinned_t *pool;
    size_t bytes;
    unsigned urgency;
    double wait_s;
    engine_pinned_buf_t buf;
    cuzk_status_t st;
    char err[IO_ERR_MAX];
    double seconds;
    _Atomic bool done;
} waiter_t;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *waiter_run(void *arg)
{
    waiter_t *w = arg;
    double t0 = now();
    w->st = engine_pinned_acquire(w->pool, w->bytes, w->urgency, w->wait_s, &w->buf, w->err,
                                  sizeof w->err);
    w->seconds = now() - t0;
    w->done = true;
    return NULL;
}

/* Waits (up to 20 s) until the pool counts n acquires that waited. */
static void await_waits(engine_pinned_t *pool, uint64_t n)
{
    for (int i = 0; i < 20000 && counters(pool).waits < n; i++)
        usleep(1000);
    assert_int_equal(counters(pool).waits, n);
}

static void test_wait_woken_by_release(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(2 * MIB);
    engine_pinned_buf_t a = get(pool, MIB), b = get(pool, MIB);
    void *pb = b.ptr;
    waiter_t w = {.pool = pool, .bytes = MIB, .wait_s = ENGINE_PINNED_WAIT_FOREVER};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, waiter_run, &w), 0);
    await_waits(pool, 1);
    usleep(20000);
    assert_false(w.done);
    engine_pinned_release(pool, &b);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(w.st, CUZK_OK);
    assert_ptr_equal(w.buf.ptr, pb);
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.hits, 1);
    assert_int_equal(c.misses, 2);
    assert_int_equal(c.refused, 0);

    /* A waiter for a larger class: a release that does not make room leaves it
     * waiting and frees nothing; the next one does, and the idle buffers go,
     * least recently released first, for its allocation. */
    waiter_t w2 = {.pool = pool, .bytes = MIB + 1, .wait_s = 30};
    assert_int_equal(pthread_create(&t, NULL, waiter_run, &w2), 0);
    await_waits(pool, 2);
    engine_pinned_release(pool, &w.buf);
    usleep(20000);
    assert_false(w2.done);
    assert_int_equal(counters(pool).evicted, 0);
    engine_pinned_release(pool, &a);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(w2.st, CUZK_OK);
    assert_int_equal(w2.buf.size, MIB + MIB / 4);
    c = counters(pool);
    assert_int_equal(c.evicted, 2);
    assert_int_equal(c.misses, 3);
    assert_int_equal(c.buffers, 1);
    assert_int_equal(c.waits, 2);
    engine_pinned_release(pool, &w2.buf);
    assert_consistent(pool);
    test_pool_free(pool);
}

static void test_wait_timeout(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(MIB);
    engine_pinned_buf_t a = get(pool, MIB);
    waiter_t w = {.pool = pool, .bytes = MIB, .wait_s = 0.05};
    waiter_run(&w);
    assert_int_equal(w.st, CUZK_ENOMEM);
    assert_null(w.buf.ptr);
    assert_non_null(strstr(w.err, "timed out"));
    assert_true(w.seconds >= 0.045);
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.waits, 1);
    assert_int_equal(c.refused, 1);
    assert_int_equal(c.buffers_in_use, 1);
    engine_pinned_release(pool, &a);
    assert_consistent(pool);
    test_pool_free(pool);
}

static void test_cancel_waits(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(MIB);
    engine_pinned_buf_t a = get(pool, MIB);
    waiter_t w[2];
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        w[i] = (waiter_t){.pool = pool, .bytes = MIB, .wait_s = ENGINE_PINNED_WAIT_FOREVER};
        assert_int_equal(pthread_create(&t[i], NULL, waiter_run, &w[i]), 0);
        await_waits(pool, (uint64_t)i + 1);
    }
    engine_pinned_cancel_waits(pool);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_int_equal(w[i].st, CUZK_ENOMEM);
        assert_non_null(strstr(w[i].err, "cancelled"));
    }
    assert_int_equal(counters(pool).refused, 2);

    /* Later acquires wait as usual. */
    waiter_t w3 = {.pool = pool, .bytes = MIB, .wait_s = ENGINE_PINNED_WAIT_FOREVER};
    pthread_t t3;
    assert_int_equal(pthread_create(&t3, NULL, waiter_run, &w3), 0);
    await_waits(pool, 3);
    engine_pinned_release(pool, &a);
    assert_int_equal(pthread_join(t3, NULL), 0);
    assert_int_equal(w3.st, CUZK_OK);
    engine_pinned_release(pool, &w3.buf);
    assert_consistent(pool);
    test_pool_free(pool);
}

/* Two acquires wait for the one buffer the limit allows: the release serves
 * the more urgent one, though it came second; the other waits its turn. */
static void test_wait_urgency_order(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(MIB);
    engine_pinned_buf_t a = get(pool, MIB);
    void *pa = a.ptr;
    waiter_t low = {.pool = pool, .bytes = MIB, .urgency = 0, .wait_s = 30};
    waiter_t high = {.pool = pool, .bytes = MIB, .urgency = 3, .wait_s = 30};
    pthread_t tl, th;
    assert_int_equal(pthread_create(&tl, NULL, waiter_run, &low), 0);
    await_waits(pool, 1);
    assert_int_equal(pthread_create(&th, NULL, waiter_run, &high), 0);
    await_waits(pool, 2);
    engine_pinned_release(pool, &a);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_int_equal(high.st, CUZK_OK);
    assert_ptr_equal(high.buf.ptr, pa);
    usleep(20000);
    assert_false(low.done);
    engine_pinned_release(pool, &high.buf);
    assert_int_equal(pthread_join(tl, NULL), 0);
    assert_int_equal(low.st, CUZK_OK);
    assert_ptr_equal(low.buf.ptr, pa);
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.misses, 1);
    assert_int_equal(c.hits, 2);
    engine_pinned_release(pool, &low.buf);
    assert_consistent(pool);
    test_pool_free(pool);
}

/* Reuse follows the queue's order: a released buffer that the head cannot
 * use is not taken by a later waiter of its class (nor by a new acquire of
 * the same urgency; one more urgent than every waiter goes first), and the
 * idle buffers are evicted, least recently released first, to admit the
 * head's new buffer once they make it fit. */
static void test_wait_queue_order(void **state)
{
    (void)state;
    engine_pinned_t *pool = test_pool_new(2 * MIB);
    engine_pinned_buf_t a = get(pool, MIB), b = get(pool, MIB), x;
    void *pa = a.ptr, *pb = b.ptr;
    waiter_t big = {.pool = pool, .bytes = 2 * MIB, .wait_s = 30};
    pthread_t tb, ts;
    assert_int_equal(pthread_create(&tb, NULL, waiter_run, &big), 0);
    await_waits(pool, 1);
    engine_pinned_release(pool, &a);

    char err[IO_ERR_MAX] = "";
    assert_int_equal(engine_pinned_acquire(pool, MIB, 0, 0, &x, err, sizeof err), CUZK_ENOMEM);
    assert_non_null(strstr(err, "others wait before it"));
    assert_int_equal(engine_pinned_acquire(pool, MIB, 1, 0, &x, err, sizeof err), CUZK_OK);
    assert_ptr_equal(x.ptr, pa);
    engine_pinned_release(pool, &x);

    waiter_t small = {.pool = pool, .bytes = MIB, .wait_s = 30};
    assert_int_equal(pthread_create(&ts, NULL, waiter_run, &small), 0);
    await_waits(pool, 2);
    usleep(20000);
    assert_false(small.done);
    assert_false(big.done);
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(c.hits, 1);
    assert_int_equal(c.evicted, 0);

    engine_pinned_release(pool, &b);
    assert_int_equal(pthread_join(tb, NULL), 0);
    assert_int_equal(big.st, CUZK_OK);
    assert_int_equal(big.buf.size, 2 * MIB);
    c = counters(pool);
    assert_int_equal(c.evicted, 2);
    assert_ptr_equal(ta.last_freed, pb); /* a went first: released before b */
    usleep(20000);
    assert_false(small.done);

    /* The 2 MiB buffer, released, is the smallest larger one: it serves. */
    void *pbig = big.buf.ptr;
    engine_pinned_release(pool, &big.buf);
    assert_int_equal(pthread_join(ts, NULL), 0);
    assert_int_equal(small.st, CUZK_OK);
    assert_ptr_equal(small.buf.ptr, pbig);
    c = counters(pool);
    assert_int_equal(c.misses, 3);
    assert_int_equal(c.hits, 2);
    assert_int_equal(c.refused, 1);
    engine_pinned_release(pool, &small.buf);
    assert_consistent(pool);
    test_pool_free(pool);
}

/* ---- concurrency ---------------------------------------------------------------- */

enum { THREADS = 8, MARK = 64 };

typedef struct worker {
    engine_pinned_t *pool;
    int id, iters;
    uint64_t seed;
    uint64_t acquired, failed, pageable;
    bool bad; /* a buffer shared with another thread, or too small */
} worker_t;

static void *worker_run(void *arg)
{
    worker_t *wk = arg;
    rng_t rng;
    rng_seed(&rng, wk->seed);
    static const size_t sizes[] = {1000, 4096, 70000, MIB / 2, MIB, MIB + 1, 3 * MIB / 2};
    for (int i = 0; i < wk->iters; i++) {
        uint64_t r = rng_next(&rng);
        size_t bytes = sizes[r % (sizeof sizes / sizeof sizes[0])];
        engine_pinned_buf_t b;
        char err[IO_ERR_MAX];
        cuzk_status_t st = engine_pinned_acquire(wk->pool, bytes, (unsigned)(r >> 40) % 4, 60, &b,
                                                 err, sizeof err);
        if (st != CUZK_OK) {
            /* only the allocator's injected failures; a lost wake-up times out */
            if (strncmp(err, "test allocator", 14) != 0)
                wk->bad = true;
            wk->failed++;
            continue;
        }
        wk->acquired++;
        if (b.size < bytes)
            wk->bad = true;
        unsigned char *p = b.ptr;
        memset(p, wk->id, MARK);
        memset(p + b.size - MARK, wk->id, MARK);
        if ((r >> 8) % 4 == 0)
            sched_yield();
        for (int k = 0; k < MARK; k++)
            if (p[k] != wk->id || p[b.size - MARK + (size_t)k] != wk->id)
                wk->bad = true;
        engine_pinned_release(wk->pool, &b);
        if ((r >> 16) % 64 == 0)
            engine_pinned_trim(wk->pool, (r >> 24) % (4 * MIB));
        if ((r >> 32) % 16 == 0) {
            engine_pinned_note_pageable(wk->pool, 7);
            wk->pageable += 7;
        }
    }
    return NULL;
}

static void test_concurrent(void **state)
{
    (void)state;
    /* Room for three of the largest buffers: eight threads wait, evict and reuse. */
    engine_pinned_t *pool = test_pool_new(3 * (3 * MIB / 2));
    ta.fail_every = 97;
    worker_t wk[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        wk[i] = (worker_t){
            .pool = pool, .id = i + 1, .iters = test_iters(3000), .seed = rng_next(&test_rng)};
        assert_int_equal(pthread_create(&t[i], NULL, worker_run, &wk[i]), 0);
    }
    uint64_t acquired = 0, failed = 0, pageable = 0;
    for (int i = 0; i < THREADS; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_false(wk[i].bad);
        acquired += wk[i].acquired;
        failed += wk[i].failed;
        pageable += wk[i].pageable;
    }
    engine_pinned_counters_t c = counters(pool);
    assert_int_equal(acquired + failed, (uint64_t)THREADS * (uint64_t)test_iters(3000));
    assert_int_equal(c.hits + c.misses, acquired + failed);
    assert_int_equal(c.alloc_failed, failed + c.shrinks); /* a shrink follows a failed call */
    assert_int_equal(c.refused, 0);
    assert_int_equal(c.buffers_in_use, 0);
    assert_int_equal(c.bytes_in_use, 0);
    assert_int_equal(c.pageable_bytes, pageable);
    assert_true(c.waits > 0 || c.evicted > 0);
    printf("concurrent: %" PRIu64 " hits, %" PRIu64 " misses, %" PRIu64 " waits, %" PRIu64
           " evicted, %" PRIu64 " allocator failures, peak %" PRIu64 " bytes\n",
           c.hits, c.misses, c.waits, c.evicted, c.alloc_failed, c.bytes_peak);
    assert_consistent(pool);
    test_pool_free(pool);
}

int main(void)
{
    test_seed_init("test_engine_pinned");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_class),
        cmocka_unit_test(test_hits_and_misses),
        cmocka_unit_test(test_limit_evicts_lru),
        cmocka_unit_test(test_limit_larger_idle_serves),
        cmocka_unit_test(test_limit_refused),
        cmocka_unit_test(test_trim),
        cmocka_unit_test(test_counters_pageable),
        cmocka_unit_test(test_alloc_failure),
        cmocka_unit_test(test_alloc_pressure),
        cmocka_unit_test(test_wait_woken_by_release),
        cmocka_unit_test(test_wait_timeout),
        cmocka_unit_test(test_cancel_waits),
        cmocka_unit_test(test_wait_urgency_order),
        cmocka_unit_test(test_wait_queue_order),
        cmocka_unit_test(test_concurrent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
