#include "util/pool.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * How a loop runs. The caller publishes the job (fn, ctx, n, chunk) under
 * the mutex, bumps `generation`, sets `pending` to the number of helpers and
 * broadcasts `wake`. Every helper (and the caller) then claims chunk indices
 * from the atomic counter `next` until they run out. Each helper decrements
 * `pending` under the mutex when it is done, and the last one signals
 * `done`; the caller waits for pending = 0 before it returns. Because the
 * caller always waits for every helper, each helper sees every generation
 * exactly once and the job fields never change under a running helper.
 * Callers on several threads take turns through `loop`, held for the whole
 * of a loop, so that the job fields have one writer at a time.
 */
struct pool {
    unsigned nthreads; /* workers, the caller included */
    pthread_t *helpers;
    pthread_mutex_t loop; /* held by the caller whose loop runs */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_cond_t done;
    uint64_t generation; /* under lock: bumped once per loop */
    unsigned pending;    /* under lock: helpers still inside the current loop */
    bool stop;           /* under lock: helpers exit */

    /* The current loop; written under lock before generation is bumped. */
    pool_fn_t fn;
    void *ctx;
    size_t n;
    size_t chunk;
    size_t nchunks;
    atomic_size_t next; /* the next unclaimed chunk */
    atomic_bool busy;   /* a loop is running (checked by pool_free) */
};

/* The pool whose fn this thread is running (NULL: none), so that a loop
 * started from inside a loop of the same pool, which would wait for
 * itself, is caught. */
static _Thread_local const pool_t *pool_inside_;

typedef struct {
    pool_t *pool;
    unsigned index;
} helper_arg_t;

/* Claims and runs chunks of the current loop until none is left. */
static void pool_run_chunks(pool_t *pool, unsigned worker)
{
    for (;;) {
        size_t c = atomic_fetch_add_explicit(&pool->next, 1, memory_order_relaxed);
        if (c >= pool->nchunks)
            return;
        size_t begin = c * pool->chunk;
        size_t end = pool->n - begin < pool->chunk ? pool->n : begin + pool->chunk;
        const pool_t *outer = pool_inside_;
        pool_inside_ = pool;
        pool->fn(pool->ctx, begin, end, worker);
        pool_inside_ = outer;
    }
}

static void *pool_helper_main(void *arg)
{
    helper_arg_t *h = arg;
    pool_t *pool = h->pool;
    unsigned index = h->index;
    free(h);

    uint64_t seen = 0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->stop && pool->generation == seen)
            pthread_cond_wait(&pool->wake, &pool->lock);
        if (pool->stop)
            break;
        seen = pool->generation;
        pthread_mutex_unlock(&pool->lock);

        pool_run_chunks(pool, index);

        pthread_mutex_lock(&pool->lock);
        if (--pool->pending == 0)
            pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

static unsigned pool_online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* Stops and joins the first `started` helpers. */
static void pool_stop_helpers(pool_t *pool, unsigned started)
{
    pthread_mutex_lock(&pool->lock);
    pool->stop = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned i = 0; i < started; i++)
        pthread_join(pool->helpers[i], NULL);
}

pool_t *pool_new(unsigned nthreads, cuzk_status_t *st)
{
    if (nthreads == 0)
        nthreads = pool_online_cpus();
    pool_t *pool = calloc(1, sizeof(*pool));
    pthread_t *helpers = calloc(nthreads, sizeof(*helpers));
    if (!pool || !helpers) {
        free(pool);
        free(helpers);
        if (st)
            *st = CUZK_ENOMEM;
        return NULL;
    }
    pool->nthreads = nthreads;
    pool->helpers = helpers;
    pthread_mutex_init(&pool->loop, NULL);
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    atomic_init(&pool->next, 0);
    atomic_init(&pool->busy, false);

    for (unsigned i = 0; i + 1 < nthreads; i++) {
        helper_arg_t *arg = malloc(sizeof(*arg));
        if (arg) {
            arg->pool = pool;
            arg->index = i + 1;
        }
        if (!arg || pthread_create(&pool->helpers[i], NULL, pool_helper_main, arg) != 0) {
            free(arg);
            pool_stop_helpers(pool, i);
            pool->nthreads = 1; /* nothing left to join */
            pool_free(pool);
            if (st)
                *st = CUZK_ENOMEM;
            return NULL;
        }
    }
    if (st)
        *st = CUZK_OK;
    return pool;
}

void pool_free(pool_t *pool)
{
    if (!pool)
        return;
    assert(!atomic_load(&pool->busy));
    if (pool->nthreads > 1)
        pool_stop_helpers(pool, pool->nthreads - 1);
    pthread_cond_destroy(&pool->done);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    pthread_mutex_destroy(&pool->loop);
    free(pool->helpers);
    free(pool);
}

unsigned pool_threads(const pool_t *pool)
{
    return pool ? pool->nthreads : 1;
}

void pool_for(pool_t *pool, size_t n, size_t chunk, pool_fn_t fn, void *ctx)
{
    assert(fn);
    if (n == 0)
        return;
    unsigned threads = pool_threads(pool);
    if (chunk == 0) {
        size_t parts = (size_t)threads * 8;
        chunk = (n + parts - 1) / parts;
    }
    size_t nchunks = n / chunk + (n % chunk != 0);
    if (threads == 1 || nchunks == 1) {
        fn(ctx, 0, n, 0);
        return;
    }

    assert(pool_inside_ != pool && "pool_for: called from inside a loop of the same pool");
    pthread_mutex_lock(&pool->loop);
    atomic_store(&pool->busy, true);

    pthread_mutex_lock(&pool->lock);
    pool->fn = fn;
    pool->ctx = ctx;
    pool->n = n;
    pool->chunk = chunk;
    pool->nchunks = nchunks;
    atomic_store_explicit(&pool->next, 0, memory_order_relaxed);
    pool->pending = threads - 1;
    pool->generation++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);

    pool_run_chunks(pool, 0);

    pthread_mutex_lock(&pool->lock);
    while (pool->pending != 0)
        pthread_cond_wait(&pool->done, &pool->lock);
    pthread_mutex_unlock(&pool->lock);

    atomic_store(&pool->busy, false);
    pthread_mutex_unlock(&pool->loop);
}

typedef struct {
    unsigned char *dst;
    const unsigned char *src;
    size_t bytes;
} pool_copy_t;

enum { POOL_COPY_PIECE = 1u << 20 };

static void pool_copy_task(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const pool_copy_t *c = ctx;
    size_t lo = begin * POOL_COPY_PIECE, hi = end * POOL_COPY_PIECE;
    hi = hi < c->bytes ? hi : c->bytes;
    memcpy(c->dst + lo, c->src + lo, hi - lo);
}

void pool_memcpy(pool_t *pool, void *dst, const void *src, size_t bytes)
{
    if (!pool || bytes < 4 * (size_t)POOL_COPY_PIECE) {
        if (bytes)
            memcpy(dst, src, bytes);
        return;
    }
    pool_copy_t c = {dst, src, bytes};
    pool_for(pool, (bytes + POOL_COPY_PIECE - 1) / POOL_COPY_PIECE, 4, pool_copy_task, &c);
}

static pool_t *default_pool;
static pthread_once_t pool_default_once = PTHREAD_ONCE_INIT;

static void pool_default_init(void)
{
    default_pool = pool_new(0, NULL);
}

pool_t *pool_default(void)
{
    pthread_once(&pool_default_once, pool_default_init);
    return default_pool;
}
