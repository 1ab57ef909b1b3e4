/*
 * The worker pool (util/pool.h): every index visited exactly once, ranges
 * aligned to the chunk, worker indices in range, results independent of the
 * thread count, many back-to-back loops, the NULL and default pools.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"
#include "util/pool.h"

enum { MAX_WORKERS = 64 };

typedef struct {
    size_t n, chunk;
    unsigned threads;
    atomic_uint *visits;               /* per index */
    uint64_t sums[MAX_WORKERS];        /* per worker: Σ f(i) */
    atomic_uint calls[MAX_WORKERS];    /* per worker: calls of fn */
    atomic_uint bad_range, bad_worker; /* contract violations seen */
} sum_ctx_t;

static uint64_t f(size_t i)
{
    return (uint64_t)i * 0x9e3779b97f4a7c15ULL + 1;
}

static void sum_fn(void *vctx, size_t begin, size_t end, unsigned worker)
{
    sum_ctx_t *ctx = vctx;
    if (worker >= ctx->threads || worker >= MAX_WORKERS) {
        atomic_fetch_add(&ctx->bad_worker, 1);
        return;
    }
    if (begin >= end || end > ctx->n || begin % ctx->chunk != 0 ||
        (end != ctx->n && end % ctx->chunk != 0))
        atomic_fetch_add(&ctx->bad_range, 1);
    atomic_fetch_add(&ctx->calls[worker], 1);
    uint64_t s = 0;
    for (size_t i = begin; i < end && i < ctx->n; i++) {
        atomic_fetch_add(&ctx->visits[i], 1);
        s += f(i);
    }
    ctx->sums[worker] += s; /* one range at a time per worker */
}

/* Runs one loop of n indices in chunks of `chunk` (0: automatic) and checks
 * the whole contract. Returns the number of workers that did any work. */
static unsigned check_loop(pool_t *pool, size_t n, size_t chunk)
{
    sum_ctx_t *ctx = calloc(1, sizeof(*ctx));
    assert_non_null(ctx);
    ctx->n = n;
    ctx->threads = pool_threads(pool);
    assert_true(ctx->threads <= MAX_WORKERS);
    /* For the alignment check, the automatic chunk is only known to be >= 1. */
    ctx->chunk = chunk ? chunk : 1;
    ctx->visits = calloc(n ? n : 1, sizeof(*ctx->visits));
    assert_non_null(ctx->visits);

    pool_for(pool, n, chunk, sum_fn, ctx);

    uint64_t expect = 0, got = 0;
    for (size_t i = 0; i < n; i++) {
        expect += f(i);
        if (atomic_load(&ctx->visits[i]) != 1)
            fail_msg("n=%zu chunk=%zu: index %zu visited %u times", n, chunk, i,
                     atomic_load(&ctx->visits[i]));
    }
    unsigned active = 0, calls = 0;
    for (unsigned w = 0; w < MAX_WORKERS; w++) {
        got += ctx->sums[w];
        calls += atomic_load(&ctx->calls[w]);
        active += atomic_load(&ctx->calls[w]) != 0;
    }
    assert_int_equal(atomic_load(&ctx->bad_worker), 0);
    assert_int_equal(atomic_load(&ctx->bad_range), 0);
    assert_true(got == expect);
    if (n == 0)
        assert_int_equal(calls, 0);
    free(ctx->visits);
    free(ctx);
    return active;
}

/* Loops started on one pool from several threads at once take turns: each
 * caller's loop covers its own indices exactly once. */
typedef struct {
    pool_t *pool;
    size_t n;
    atomic_uint *visits;
} caller_t;

enum { CALLER_LOOPS = 200, CALLERS = 4 };

static void visit_fn(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    atomic_uint *visits = ctx;
    for (size_t i = begin; i < end; i++)
        atomic_fetch_add(&visits[i], 1);
}

static void *caller_main(void *arg)
{
    caller_t *c = arg;
    for (int l = 0; l < CALLER_LOOPS; l++)
        pool_for(c->pool, c->n, 0, visit_fn, c->visits);
    return NULL;
}

static void test_pool_callers(void **state)
{
    (void)state;
    pool_t *pool = pool_new(4, NULL);
    assert_non_null(pool);
    caller_t c[CALLERS];
    pthread_t t[CALLERS];
    for (int k = 0; k < CALLERS; k++) {
        c[k] = (caller_t){pool, 10007 + (size_t)k, NULL};
        c[k].visits = calloc(c[k].n, sizeof *c[k].visits);
        assert_non_null(c[k].visits);
        assert_int_equal(pthread_create(&t[k], NULL, caller_main, &c[k]), 0);
    }
    for (int k = 0; k < CALLERS; k++) {
        assert_int_equal(pthread_join(t[k], NULL), 0);
        for (size_t i = 0; i < c[k].n; i++)
            if (atomic_load(&c[k].visits[i]) != CALLER_LOOPS)
                fail_msg("caller %d: index %zu visited %u times, not %d", k, i,
                         atomic_load(&c[k].visits[i]), CALLER_LOOPS);
        free(c[k].visits);
    }
    pool_free(pool);
}

static const size_t sizes[] = {0, 1, 2, 3, 5, 6, 7, 8, 13, 100, 1000, 65537, 1000003};
static const size_t chunks[] = {0, 1, 3, 64, 4096};

static void check_pool(unsigned threads)
{
    cuzk_status_t st = CUZK_EINVAL;
    pool_t *pool = pool_new(threads, &st);
    assert_int_equal(st, CUZK_OK);
    assert_non_null(pool);
    assert_int_equal(pool_threads(pool), threads);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        for (size_t j = 0; j < sizeof(chunks) / sizeof(chunks[0]); j++)
            if (sizes[i] / (chunks[j] ? chunks[j] : 1) <= 100000) /* keep chunk-1 runs short */
                check_loop(pool, sizes[i], chunks[j]);
    /* n larger than the chunk size times the thread count. */
    check_loop(pool, 3 * threads + 1, 1);
    pool_free(pool);
}

static void test_pool_1(void **state)
{
    (void)state;
    check_pool(1);
}

static void test_pool_2(void **state)
{
    (void)state;
    check_pool(2);
}

static void test_pool_7(void **state)
{
    (void)state;
    check_pool(7);
}

/* Many short loops back to back: the generation handshake must not lose or
 * repeat a loop, whichever helper wakes late. */
static void test_pool_many_loops(void **state)
{
    (void)state;
    pool_t *pool = pool_new(4, NULL);
    assert_non_null(pool);
    int iters = test_iters(2000);
    for (int k = 0; k < iters; k++) {
        size_t n = (size_t)(rng_next(&test_rng) % 64);
        size_t chunk = (size_t)(rng_next(&test_rng) % 4);
        check_loop(pool, n, chunk);
    }
    pool_free(pool);
}

/* With one chunk per thread and enough work each, more than one thread
 * takes part (the helpers are alive and do claim work). */
static void spin_fn(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)begin;
    (void)end;
    atomic_uint *seen = vctx;
    atomic_fetch_or(seen, 1u << worker);
    usleep(20000);
}

static void test_pool_helpers_work(void **state)
{
    (void)state;
    pool_t *pool = pool_new(3, NULL);
    assert_non_null(pool);
    atomic_uint seen = 0;
    pool_for(pool, 6, 1, spin_fn, &seen);
    assert_true(__builtin_popcount(atomic_load(&seen)) >= 2);
    pool_free(pool);
}

static void test_pool_null_and_default(void **state)
{
    (void)state;
    assert_int_equal(pool_threads(NULL), 1);
    assert_int_equal(check_loop(NULL, 1000, 7), 1); /* the caller alone */
    check_loop(NULL, 0, 0);

    pool_t *def = pool_default();
    assert_non_null(def);
    assert_ptr_equal(def, pool_default());
    assert_int_equal(pool_threads(def), (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
    check_loop(def, 100000, 0);

    pool_t *zero = pool_new(0, NULL); /* 0 = online processors */
    assert_non_null(zero);
    assert_int_equal(pool_threads(zero), pool_threads(def));
    pool_free(zero);
    pool_free(NULL);
}

int main(void)
{
    test_seed_init("test_pool");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_1),
        cmocka_unit_test(test_pool_2),
        cmocka_unit_test(test_pool_7),
        cmocka_unit_test(test_pool_many_loops),
        cmocka_unit_test(test_pool_callers),
        cmocka_unit_test(test_pool_helpers_work),
        cmocka_unit_test(test_pool_null_and_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
