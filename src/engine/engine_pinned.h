/*
 * The engine's pinned host buffer pool (DESIGN.md section 4, "Pinned pool").
 *
 * Every host buffer that crosses PCIe in steady state comes from here:
 * buffers are allocated once through an allocator table (the CUDA backend
 * passes cudaHostAlloc/cudaFreeHost wrappers, tests pass malloc ones, so
 * this file needs no CUDA), handed out by engine_pinned_acquire(), given
 * back by engine_pinned_release() and reused by the next acquire of the
 * same size. Synthesis writes its output straight into them. Copies the
 * backend has to make from pageable memory are counted
 * (engine_pinned_note_pageable); in steady state that count stays zero.
 *
 * Size classes. A request of n bytes is served by a buffer of
 * engine_pinned_class(n) bytes: n rounded up on a grid of four classes per
 * power of two (2^k, 1.25·2^k, 1.5·2^k, 1.75·2^k), never below
 * ENGINE_PINNED_MIN_CLASS. A buffer is at most 25 % larger than its
 * request (unless a larger idle buffer serves it under the limit, below),
 * and requests whose sizes differ by a few bytes (partitions of one
 * circuit, witnesses of one key) share a class and so share buffers.
 * Powers of two alone would waste up to half of a multi-GiB buffer.
 *
 * Memory and waiting. The pool's bytes are a budget of their own
 * (engine_budget.h, named "pinned_limit" in messages, the pool's limit):
 * each buffer is a key of it, in use while acquired, idle (evictable,
 * least recently released first) once released. An acquire is one request
 * of that budget at the caller's urgency, so acquires are served in the
 * budget's order (higher urgency first, then arrival; only the queue's
 * head is served, by reuse or by new bytes), and the budget's rules for
 * fitting, evicting and refusing hold.
 *
 * Reuse. The acquire at the queue's head takes the most recently released
 * idle buffer of its class (a hit). Failing that it allocates a new one (a
 * miss) when the limit allows. When the limit does not allow it, in this
 * order:
 *  1. the smallest larger idle buffer serves the request (a hit);
 *  2. idle buffers are freed, least recently released first, until the new
 *     buffer fits (only when freeing them does make it fit: idle buffers
 *     are not thrown away for a request that would fail anyway);
 *  3. the acquire waits (when the caller allows it) until a release or a
 *     free lets it in at its turn, or fails with CUZK_ENOMEM and a message
 *     giving the bytes, what is in use and the budget's reason.
 * A request larger than the limit itself fails at once, waiting or not.
 *
 * Memory pressure. When the allocator itself runs out (CUZK_ENOMEM: the
 * host cannot pin more) and the pool holds idle buffers, it frees them all
 * and tries once more (counted: shrinks). engine_pinned_trim frees idle
 * buffers on demand, e.g. before a key is pinned.
 *
 * The allocator and the frees run outside the pool's and the budget's
 * locks: cudaHostAlloc takes milliseconds per GiB and cudaFreeHost
 * synchronises the device, and hits and releases on other threads must not
 * wait for either. The bytes of a buffer count against the limit from the
 * moment the budget grants them until the buffer is freed.
 *
 * Thread-safe: any thread acquires, releases, trims and reads counters.
 */
#ifndef CUZK_ENGINE_ENGINE_PINNED_H
#define CUZK_ENGINE_ENGINE_PINNED_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "engine/engine_budget.h"

enum {
    ENGINE_PINNED_MIN_CLASS = 4096, /* the smallest buffer: one page */
};

/* engine_pinned_acquire's wait_s (any negative value): wait until the request is served or
 * cancelled. */
#define ENGINE_PINNED_WAIT_FOREVER ENGINE_BUDGET_WAIT_FOREVER

/*
 * Where the pool's memory comes from. alloc sets *p to bytes of pinned
 * memory and returns CUZK_OK, or returns a failure (CUZK_ENOMEM,
 * CUZK_EDEVICE) with a one-line message in err (err_size > 0); free gives
 * back memory alloc returned. Both may be called from any thread, and
 * concurrently. The table is copied by engine_pinned_new; ctx must outlive
 * the pool.
 */
typedef struct engine_pinned_alloc {
    void *ctx;
    cuzk_status_t (*alloc)(void *ctx, void **p, size_t bytes, char *err, size_t err_size);
    void (*free)(void *ctx, void *p);
} engine_pinned_alloc_t;

/*
 * A buffer in use: ptr holds size bytes (size >= the bytes asked for).
 * Callers read ptr and size and pass the handle back to
 * engine_pinned_release; node is the pool's own. A handle may be copied,
 * but only one copy is released.
 */
typedef struct engine_pinned_buf {
    void *ptr;
    size_t size;
    struct engine_pinned_node *node;
} engine_pinned_buf_t;

/* A snapshot of the pool (engine_pinned_counters). */
typedef struct engine_pinned_counters {
    uint64_t hits;           /* acquires served by an idle buffer */
    uint64_t misses;         /* acquires that allocated a buffer (whether or not it succeeded) */
    uint64_t waits;          /* acquires that waited in the budget's queue at least once */
    uint64_t refused;        /* acquires failed by the limit: too large, not now (wait_s 0),
                                timed out or cancelled */
    uint64_t alloc_failed;   /* allocator calls that failed */
    uint64_t evicted;        /* idle buffers freed to make room or by engine_pinned_trim */
    uint64_t shrinks;        /* allocator failures retried after freeing every idle buffer */
    uint64_t buffers;        /* buffers held (idle + in use) */
    uint64_t buffers_in_use; /* buffers acquired and not released */
    uint64_t bytes_held;     /* bytes of the buffers held, and of allocations in flight (the
                                budget's held; bytes_peak and limit are the budget's too) */
    uint64_t bytes_in_use;   /* bytes of the buffers in use */
    uint64_t bytes_peak;     /* the most bytes_held has been */
    uint64_t limit;          /* the most bytes the pool may hold; 0: no limit */
    uint64_t pageable_bytes; /* bytes copied from memory outside the pool (note_pageable) */
} engine_pinned_counters_t;

typedef struct engine_pinned engine_pinned_t;

/*
 * A pool that allocates through *a and holds at most limit bytes (0: no
 * limit); it starts empty. NULL when memory for the pool itself runs out.
 */
engine_pinned_t *engine_pinned_new(const engine_pinned_alloc_t *a, uint64_t limit);

/*
 * Frees every buffer and the pool (NULL: nothing). No buffer may be in use
 * and no acquire may wait: asserted.
 */
void engine_pinned_free(engine_pinned_t *pool);

/*
 * The size of the buffer that serves a request of bytes (see "Size
 * classes" above); 0 when the class would not fit in a size_t.
 */
size_t engine_pinned_class(size_t bytes);

/*
 * *buf = a buffer of at least bytes (bytes == 0 gets the smallest class),
 * reused or allocated as described above, at urgency (the budget's
 * priority, any unsigned, higher first: the CUDA backend passes the job's
 * priority, engine.h's 0 .. 3). When the limit or earlier waiters stand in
 * the way, wait_s says how long to wait: 0 not at all, > 0 up to that many
 * seconds, < 0 (ENGINE_PINNED_WAIT_FOREVER) until it is served or
 * engine_pinned_cancel_waits. Returns CUZK_OK, or the allocator's failure
 * with its message, or CUZK_ENOMEM (over the limit, not now, timed out,
 * cancelled) with a message; on failure *buf is emptied (ptr NULL) and the
 * pool is as it was, less any idle buffers freed on the way.
 */
cuzk_status_t engine_pinned_acquire(engine_pinned_t *pool, size_t bytes, unsigned urgency,
                                    double wait_s, engine_pinned_buf_t *buf, char *err,
                                    size_t err_size);

/*
 * Gives *buf (from engine_pinned_acquire on this pool, not yet released)
 * back to the idle list as its most recently used buffer, lets the
 * waiting acquire at the queue's head look again, and empties *buf. The
 * memory stays allocated for reuse.
 */
void engine_pinned_release(engine_pinned_t *pool, engine_pinned_buf_t *buf);

/*
 * Frees idle buffers, least recently released first, until the idle bytes
 * are at most keep_bytes (0: every idle buffer): engine_budget_trim of the
 * pool's budget. Buffers in use are never touched. The CUDA backend calls
 * it when pinning a key's points fails. Returns the bytes freed.
 */
uint64_t engine_pinned_trim(engine_pinned_t *pool, uint64_t keep_bytes);

/*
 * Makes every acquire that is waiting now give up with CUZK_ENOMEM
 * ("cancelled"); later acquires wait as usual. For shutdown and drain.
 */
void engine_pinned_cancel_waits(engine_pinned_t *pool);

/* Adds bytes to pageable_bytes: the backend copied them from memory outside the pool. */
void engine_pinned_note_pageable(engine_pinned_t *pool, uint64_t bytes);

/* *out = the pool's counters, read at one instant. */
void engine_pinned_counters(engine_pinned_t *pool, engine_pinned_counters_t *out);

#endif
