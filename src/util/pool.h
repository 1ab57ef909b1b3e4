/*
 * A persistent pool of worker threads for data-parallel loops.
 *
 * pool_for(pool, n, chunk, fn, ctx) splits [0, n) into chunks of
 * `chunk` indices and calls fn(ctx, begin, end, worker) on them from the
 * pool's threads. The calling thread takes part (it is worker 0), so a pool
 * of T threads starts T - 1 helpers; a pool of 1 thread runs everything on
 * the caller. The helpers sleep on a condition variable between loops.
 *
 * Contract:
 *  - Every index of [0, n) is passed to fn exactly once. Each call covers
 *    [begin, end) with begin a multiple of chunk and end = min(begin + k·chunk,
 *    n) for some k >= 1; the split and the worker that runs a range are
 *    unspecified, so fn must give the same result for any split.
 *  - worker is in [0, pool_threads(pool)): an index for per-thread
 *    scratch. Two calls that run at the same time have different workers.
 *  - pool_for returns after every call of fn has returned, and the
 *    writes fn made are visible to the caller (the completion handshake goes
 *    through the pool's mutex).
 *  - One loop at a time: pool_for may be called on the same pool from
 *    several threads at once, and their loops take turns (each runs on all
 *    of the pool's threads); it must not be called from inside fn on the
 *    same pool (that loop would wait for itself): debug builds assert it.
 *    Different pools are independent, and fn may run a loop on another.
 *  - No allocation per loop: the pool allocates only in pool_new.
 *  - A NULL pool is valid everywhere and means "run on the caller alone",
 *    so that code taking a pool works before any pool exists.
 */
#ifndef CUZK_UTIL_POOL_H
#define CUZK_UTIL_POOL_H

#include <stddef.h>

#include "cuzk.h"

typedef struct pool pool_t;

/* The loop body: handles the indices [begin, end) as worker `worker`. */
typedef void (*pool_fn_t)(void *ctx, size_t begin, size_t end, unsigned worker);

/*
 * A pool of nthreads threads, the caller included (0: the number of online
 * processors). Returns NULL and sets *st (when st is non-NULL) to
 * CUZK_ENOMEM when memory or threads run out; *st = CUZK_OK otherwise.
 * Free it with pool_free.
 */
pool_t *pool_new(unsigned nthreads, cuzk_status_t *st);

/* Stops and joins the helpers and frees the pool; NULL is a no-op. No loop
 * may be running on it. */
void pool_free(pool_t *pool);

/* The number of workers, the caller included (1 for a NULL pool). */
unsigned pool_threads(const pool_t *pool);

/*
 * Runs fn over [0, n) as described above. chunk = 0 picks a chunk size that
 * gives every worker about 8 chunks (so that uneven chunks balance out);
 * n = 0 returns at once without calling fn. A loop with a single chunk, or
 * on a one-thread or NULL pool, runs on the caller without waking anyone.
 */
void pool_for(pool_t *pool, size_t n, size_t chunk, pool_fn_t fn, void *ctx);

/* dst = src (bytes, not overlapping), in 1 MiB pieces on pool's threads
 * (NULL, or under 4 MiB: on the caller alone). */
void pool_memcpy(pool_t *pool, void *dst, const void *src, size_t bytes);

/*
 * The process-wide pool with one thread per online processor, created on
 * first use (thread-safe) and kept until the process exits. Returns NULL if
 * it could not be created; callers can pass that NULL on and run serially.
 * The one-loop-at-a-time rule applies: code that runs loops from several
 * threads at once gives each its own pool.
 */
pool_t *pool_default(void);

#endif
