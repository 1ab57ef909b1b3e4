/*
 * A lock handed to the most urgent waiter: when it is released, the waiter
 * of the highest level gets it, and among waiters of one level the first
 * to arrive. What the GPU engine's compute section needs (engine_gpu.c): a
 * critical partition staged behind queued PoRep work takes the device as
 * soon as the partition computing ends, instead of after every partition
 * already waiting.
 *
 * Levels are 0 .. CUZK_PRIO_LEVELS - 1, higher more urgent. A waiter of a
 * lower level can wait as long as more urgent ones keep arriving (that is
 * the point). Not recursive; release from the thread that acquired.
 *
 * It is held either by one holder alone (prio_lock_acquire) or by any
 * number together (prio_lock_acquire_shared): the GPU engine's partitions
 * of small keys compute side by side, each on its own stream, and those of
 * large keys alone. Both kinds draw tickets in the same order, so a holder
 * alone that waits for the shared holders to leave is not overtaken by
 * shared ones that come after it.
 */
#ifndef CUZK_UTIL_PRIO_LOCK_H
#define CUZK_UTIL_PRIO_LOCK_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

enum { CUZK_PRIO_LEVELS = 4 };

typedef struct prio_lock {
    pthread_mutex_t m;
    pthread_cond_t cv;
    bool held;                          /* by one holder alone */
    unsigned shared;                    /* holders together */
    uint64_t next[CUZK_PRIO_LEVELS];    /* the ticket the next waiter of a level draws */
    uint64_t serving[CUZK_PRIO_LEVELS]; /* the ticket whose turn it is in a level */
} prio_lock_t;

/* 0 on success, else an errno value (the lock is then unusable). */
int prio_lock_init(prio_lock_t *l);
void prio_lock_destroy(prio_lock_t *l);

/* Waits for the lock at level (clamped to the levels), to hold it alone. */
void prio_lock_acquire(prio_lock_t *l, unsigned level);
void prio_lock_release(prio_lock_t *l);

/* Waits for the lock at level, to hold it together with other shared
 * holders (none holds it alone meanwhile). */
void prio_lock_acquire_shared(prio_lock_t *l, unsigned level);
void prio_lock_release_shared(prio_lock_t *l);

/* Whether a thread waits at a level above level now: the holder (of
 * level) may release and acquire again to let it in. */
bool prio_lock_contended(prio_lock_t *l, unsigned level);

/* Threads waiting at level now (for tests and diagnostics). */
unsigned prio_lock_waiting(prio_lock_t *l, unsigned level);

#endif
