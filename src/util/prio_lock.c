/*
 * The priority lock (prio_lock.h): per level a ticket counter (FIFO within
 * the level); a waiter proceeds when its ticket is its level's turn, no
 * more urgent level has anyone waiting, and the lock is free for its kind:
 * held by nobody (alone), or by nobody alone (shared).
 */
#include "util/prio_lock.h"

int prio_lock_init(prio_lock_t *l)
{
    *l = (prio_lock_t){.held = false};
    int rc = pthread_mutex_init(&l->m, NULL);
    if (rc)
        return rc;
    rc = pthread_cond_init(&l->cv, NULL);
    if (rc)
        pthread_mutex_destroy(&l->m);
    return rc;
}

void prio_lock_destroy(prio_lock_t *l)
{
    pthread_cond_destroy(&l->cv);
    pthread_mutex_destroy(&l->m);
}

static bool more_urgent_waiting(const prio_lock_t *l, unsigned level)
{
    for (unsigned v = level + 1; v < CUZK_PRIO_LEVELS; v++)
        if (l->next[v] != l->serving[v])
            return true;
    return false;
}

static void acquire(prio_lock_t *l, unsigned level, bool alone)
{
    if (level >= CUZK_PRIO_LEVELS)
        level = CUZK_PRIO_LEVELS - 1;
    pthread_mutex_lock(&l->m);
    uint64_t ticket = l->next[level]++;
    while (l->held || (alone && l->shared > 0) || l->serving[level] != ticket ||
           more_urgent_waiting(l, level))
        pthread_cond_wait(&l->cv, &l->m);
    if (alone)
        l->held = true;
    else
        l->shared++;
    l->serving[level]++;
    /* the next ticket of the level may be a shared one that can enter too */
    pthread_cond_broadcast(&l->cv);
    pthread_mutex_unlock(&l->m);
}

void prio_lock_acquire(prio_lock_t *l, unsigned level)
{
    acquire(l, level, true);
}

void prio_lock_acquire_shared(prio_lock_t *l, unsigned level)
{
    acquire(l, level, false);
}

void prio_lock_release(prio_lock_t *l)
{
    pthread_mutex_lock(&l->m);
    l->held = false;
    pthread_cond_broadcast(&l->cv);
    pthread_mutex_unlock(&l->m);
}

void prio_lock_release_shared(prio_lock_t *l)
{
    pthread_mutex_lock(&l->m);
    l->shared--;
    pthread_cond_broadcast(&l->cv);
    pthread_mutex_unlock(&l->m);
}

unsigned prio_lock_waiting(prio_lock_t *l, unsigned level)
{
    if (level >= CUZK_PRIO_LEVELS)
        level = CUZK_PRIO_LEVELS - 1;
    pthread_mutex_lock(&l->m);
    unsigned n = (unsigned)(l->next[level] - l->serving[level]);
    pthread_mutex_unlock(&l->m);
    return n;
}

bool prio_lock_contended(prio_lock_t *l, unsigned level)
{
    if (level >= CUZK_PRIO_LEVELS)
        return false;
    pthread_mutex_lock(&l->m);
    bool c = more_urgent_waiting(l, level);
    pthread_mutex_unlock(&l->m);
    return c;
}
