/*
 * A memory budget (DESIGN.md section 4, "Memory budgets and admission"):
 * one ledger of bytes against a limit, for one resource (the host's memory,
 * the pinned pool, one device's memory), with the one wait and eviction
 * protocol that every user of the resource follows.
 *
 * Two kinds of holdings count against the limit:
 *   reservations  bytes a piece of work holds while it runs (a partition's
 *                 working set), taken with engine_budget_reserve and given
 *                 back with engine_budget_release;
 *   keys          long-lived holdings (a key's device copy, a worker's
 *                 buffers, an MSM workspace), engine_budget_key_t, whose
 *                 size the owner sets with engine_budget_key_resize. A key
 *                 is in use between engine_budget_key_use and
 *                 engine_budget_key_done; an idle key whose owner gave an
 *                 evict callback may be evicted to make room.
 *
 * Groups. A key belongs to a group (0 by default; reservations are in 0);
 * a group other than 0 may have a limit of its own (a device's slots under
 * device_work_limit within the device's memory), which its keys' requests
 * must fit as well, and for which only its own keys are evicted.
 *
 * Fitting. A request of n bytes fits when the bytes held plus n are at
 * most the limit (limit 0: everything fits), and the group's held plus n
 * within the group's limit. When it does not fit, idle
 * evictable keys are evicted, least recently used first, but only when
 * evicting all of them would make it fit (nothing is thrown away for a
 * request that would still have to wait). A request that could not fit
 * even with every reservation released and every evictable key evicted
 * (n plus the keys without an evict callback above the limit) fails at
 * once, CUZK_ENOMEM, waiting or not.
 *
 * Waiting. A request that does not fit waits, when its caller allows it,
 * in the budget's queue: by priority (higher first), then arrival. Only
 * the queue's head is granted: a later request, smaller or not, of the
 * same or a lower priority never goes before it, so no waiter starves; a
 * new request of a higher priority than every waiter goes first. Each
 * release, shrink, key_done and limit change looks at the head again.
 * A wait ends when the request is granted or served, at its deadline or at
 * engine_budget_cancel_waits (CUZK_ENOMEM with a message, the budget as it
 * was).
 *
 * Serving. A key's request may bring a serve callback
 * (engine_budget_key_request) for an owner that can meet it with memory
 * it already holds (the pinned pool: an idle buffer of the size asked
 * for). Each time the request, at the queue's head, looks, serve(ctx,
 * fits) runs first, on the requesting thread with no lock of the budget
 * held; fits says whether the bytes would fit now without evicting
 * anything. When it returns true the request ends, CUZK_OK, and the key
 * keeps its bytes. So reuse follows the queue's order as new bytes do.
 * It may call engine_budget_key_try_use, nothing else of this budget.
 *
 * Eviction. The callback runs on the thread whose request needed the room
 * (or on engine_budget_trim's), with no lock of the budget held, while the
 * key is marked evicting: engine_budget_key_use of that key waits until it
 * has returned, engine_budget_key_try_use fails. It must free the memory
 * the key's bytes stand for (for a device key: drop the device copy, so
 * that the key falls back to a lower residency tier); when it returns,
 * the key holds 0 bytes. It must not call into this budget. The owner
 * must not hold a lock, while calling into the budget, that its own evict
 * or serve callback takes (engine_budget_key_try_use excepted: it takes
 * only the budget's lock and never waits).
 *
 * Thread-safe: any thread may call anything here.
 */
#ifndef CUZK_ENGINE_ENGINE_BUDGET_H
#define CUZK_ENGINE_ENGINE_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"

/* wait_s of a request: do not wait, or wait until granted or cancelled. */
#define ENGINE_BUDGET_NO_WAIT      0.0
#define ENGINE_BUDGET_WAIT_FOREVER (-1.0)

enum { ENGINE_BUDGET_GROUPS = 4 };

typedef struct engine_budget engine_budget_t;
typedef struct engine_budget_key engine_budget_key_t;

/* Frees the memory of an idle key; ctx is the owner's (see "Eviction"). */
typedef void (*engine_budget_evict_fn)(void *ctx);
/* Meets a waiting request with memory the owner holds, or returns false;
 * ctx is the owner's (see "Serving"). */
typedef bool (*engine_budget_serve_fn)(void *ctx, bool fits);

/* A snapshot of a budget (engine_budget_counters). */
typedef struct engine_budget_counters {
    uint64_t limit;     /* 0: no limit */
    uint64_t held;      /* reservations and keys */
    uint64_t reserved;  /* of which reservations */
    uint64_t peak;      /* the most held at once since the limit was set */
    uint64_t waits;     /* requests that waited */
    uint64_t evictions; /* keys evicted */
    uint64_t refused;   /* requests that failed: too large, timed out, cancelled */
    uint64_t waiting;   /* requests waiting now */
} engine_budget_counters_t;

/*
 * A budget of limit bytes (0: no limit) named name (copied; messages say
 * "<name>": "device_work_limit", "the memory of NVIDIA H200 (device 0)").
 * NULL when memory for it runs out.
 */
engine_budget_t *engine_budget_new(const char *name, uint64_t limit);
/* NULL is a no-op. Nothing may hold or wait: asserted (keys freed first). */
void engine_budget_free(engine_budget_t *b);

const char *engine_budget_name(const engine_budget_t *b);
/* A new limit (0: none); the peak restarts from what is held. Holdings
 * above it stay; later requests see it. */
void engine_budget_set_limit(engine_budget_t *b, uint64_t limit);
uint64_t engine_budget_limit(engine_budget_t *b);
/* Bytes a request could take now without waiting: the limit less what is
 * held, plus what idle evictable keys hold (UINT64_MAX: no limit). */
uint64_t engine_budget_available(engine_budget_t *b);

/*
 * Reserves bytes at priority (any unsigned; higher goes first), as
 * "Fitting" and "Waiting" say: wait_s 0 does not wait, > 0 waits at most
 * that long, < 0 (ENGINE_BUDGET_WAIT_FOREVER) until granted or cancelled.
 * CUZK_OK, or CUZK_ENOMEM with a message naming the budget and the sizes.
 */
cuzk_status_t engine_budget_reserve(engine_budget_t *b, uint64_t bytes, unsigned priority,
                                    double wait_s, char *err, size_t err_size);
/* Takes bytes as a reservation whether or not they fit (the one
 * partition that always runs); nothing waits or is evicted. */
void engine_budget_take(engine_budget_t *b, uint64_t bytes);
/* Gives back bytes of reservations (at most what is reserved). */
void engine_budget_release(engine_budget_t *b, uint64_t bytes);
/* Evicts idle evictable keys, least recently used first, until they hold
 * at most keep_bytes (0: every one), as "Eviction" says, on the calling
 * thread. Returns the bytes evicted. */
uint64_t engine_budget_trim(engine_budget_t *b, uint64_t keep_bytes);
/* Every request waiting now fails ("cancelled"); later ones wait as usual. */
void engine_budget_cancel_waits(engine_budget_t *b);

/* Group group (1 .. ENGINE_BUDGET_GROUPS - 1) is named name in messages
 * and holds at most limit bytes (0: no limit of its own). */
void engine_budget_set_group(engine_budget_t *b, unsigned group, const char *name, uint64_t limit);
/* The counters with limit, held, peak and evictions those of group. */
void engine_budget_group_counters(engine_budget_t *b, unsigned group,
                                  engine_budget_counters_t *out);

/*
 * A key of 0 bytes in group of b, evicted through evict(ctx) when idle
 * (evict NULL: never evicted; its bytes count as what nothing can free).
 * NULL when memory runs out. New keys are the most recently used.
 */
engine_budget_key_t *engine_budget_key_new(engine_budget_t *b, unsigned group,
                                           engine_budget_evict_fn evict, void *ctx);
/* Releases the key's bytes and frees it (NULL: nothing); waits for an
 * eviction of it in progress. Not in use: asserted. */
void engine_budget_key_free(engine_budget_key_t *k);
/*
 * Sets the key's bytes. Shrinking always succeeds at once; growing by d
 * bytes is a request of d as engine_budget_reserve says (other keys may be
 * evicted, never k itself). On failure the key keeps its bytes.
 */
cuzk_status_t engine_budget_key_resize(engine_budget_key_t *k, uint64_t bytes, unsigned priority,
                                       double wait_s, char *err, size_t err_size);
/*
 * engine_budget_key_resize with serve (NULL: none) and its ctx, which may
 * meet the request while it is the queue's head ("Serving"): CUZK_OK then,
 * the key's bytes unchanged; the owner's ctx tells what serve did.
 */
cuzk_status_t engine_budget_key_request(engine_budget_key_t *k, uint64_t bytes, unsigned priority,
                                        double wait_s, engine_budget_serve_fn serve, void *ctx,
                                        char *err, size_t err_size);
uint64_t engine_budget_key_bytes(engine_budget_key_t *k);
/* The key is in use (counted; nested uses allowed) and cannot be evicted;
 * waits for an eviction in progress first. Returns whether its memory was
 * evicted since the last use (its bytes are then 0). */
bool engine_budget_key_use(engine_budget_key_t *k);
/* engine_budget_key_use that never waits: false, and the key not in use,
 * while its eviction runs. It takes only the budget's lock, so an owner
 * may call it holding the lock its callbacks take (to claim an idle key
 * under its own lock, where its evict callback looks for it too). */
bool engine_budget_key_try_use(engine_budget_key_t *k);
/* One use ends; the key is the most recently used, and when it goes idle
 * the queue is looked at again. */
void engine_budget_key_done(engine_budget_key_t *k);

void engine_budget_counters(engine_budget_t *b, engine_budget_counters_t *out);

#endif
