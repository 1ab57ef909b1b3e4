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
    bool held;
    uint64_t next[CUZK_PRIO_LEVELS];    /* the ticket the next waiter of a level draws */
    uint64_t serving[CUZK_PRIO_LEVELS]; /* the ticket whose turn it is in a level */
} prio_lock_t;

/* 0 on success, else an errno value (the lock is then unusable). */
int prio_lock_init(prio_lock_t *l);
void prio_lock_destroy(prio_lock_t *l);

/* Waits for the lock at level (clamped to the levels). */
void prio_lock_acquire(prio_lock_t *l, unsigned level);
void prio_lock_release(prio_lock_t *l);

/* Whether a thread waits at a level above level now: the holder (of
 * level) may release and acquire again to let it in. */
bool prio_lock_contended(prio_lock_t *l, unsigned level);

/* Threads waiting at level now (for tests and diagnostics). */
unsigned prio_lock_waiting(prio_lock_t *l, unsigned level);

#endif
