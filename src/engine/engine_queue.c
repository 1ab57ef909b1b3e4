/* The engine's id map and partition queue (engine_impl.h). */
#include <stdlib.h>
#include <string.h>

#include "engine/engine_impl.h"

static uint64_t id_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

engine_job_t *engine_map_find(engine_t *e, const char *id)
{
    for (engine_job_t *j = e->buckets[id_hash(id) % e->n_buckets]; j; j = j->hnext)
        if (!strcmp(j->id, id))
            return j;
    return NULL;
}

/* Inserts job; grows the table at two jobs per bucket. Returns 0 or -1. */
int engine_map_insert(engine_t *e, engine_job_t *job)
{
    if (e->n_jobs + 1 > 2 * e->n_buckets) {
        size_t nb = 2 * e->n_buckets;
        engine_job_t **b = calloc(nb, sizeof(engine_job_t *));
        if (!b)
            return -1;
        for (size_t i = 0; i < e->n_buckets; i++)
            for (engine_job_t *j = e->buckets[i], *next; j; j = next) {
                next = j->hnext;
                j->hnext = b[id_hash(j->id) % nb];
                b[id_hash(j->id) % nb] = j;
            }
        free(e->buckets);
        e->buckets = b;
        e->n_buckets = nb;
    }
    engine_job_t **slot = &e->buckets[id_hash(job->id) % e->n_buckets];
    job->hnext = *slot;
    *slot = job;
    job->in_map = true;
    e->n_jobs++;
    return 0;
}

void engine_map_remove(engine_t *e, engine_job_t *job)
{
    for (engine_job_t **p = &e->buckets[id_hash(job->id) % e->n_buckets]; *p; p = &(*p)->hnext)
        if (*p == job) {
            *p = job->hnext;
            job->in_map = false;
            e->n_jobs--;
            return;
        }
}

/* ---- the partition queue: a binary heap ------------------------------------- */

/* Whether a goes before b: higher priority, then earlier arrival, then
 * lower partition index. */
static bool q_before(engine_qitem_t a, engine_qitem_t b)
{
    if (a.job->priority != b.job->priority)
        return a.job->priority > b.job->priority;
    if (a.job->seq != b.job->seq)
        return a.job->seq < b.job->seq;
    return a.index < b.index;
}

static void q_sift_up(engine_t *e, size_t i)
{
    while (i > 0 && q_before(e->heap[i], e->heap[(i - 1) / 2])) {
        engine_qitem_t t = e->heap[i];
        e->heap[i] = e->heap[(i - 1) / 2];
        e->heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static void q_sift_down(engine_t *e, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < e->heap_n && q_before(e->heap[l], e->heap[m]))
            m = l;
        if (r < e->heap_n && q_before(e->heap[r], e->heap[m]))
            m = r;
        if (m == i)
            return;
        engine_qitem_t t = e->heap[i];
        e->heap[i] = e->heap[m];
        e->heap[m] = t;
        i = m;
    }
}

int engine_q_push(engine_t *e, engine_job_t *job, uint32_t index)
{
    if (e->heap_n == e->heap_cap) {
        size_t cap = e->heap_cap ? 2 * e->heap_cap : 64;
        engine_qitem_t *h = realloc(e->heap, cap * sizeof *h);
        if (!h)
            return -1;
        e->heap = h;
        e->heap_cap = cap;
    }
    e->heap[e->heap_n] = (engine_qitem_t){job, index};
    q_sift_up(e, e->heap_n++);
    return 0;
}

size_t engine_q_find(const engine_t *e, bool (*ok)(const engine_job_t *job, const void *ctx),
                     const void *ctx)
{
    if (e->heap_n == 0 || ok(e->heap[0].job, ctx))
        return 0;
    size_t best = e->heap_n;
    for (size_t i = 1; i < e->heap_n; i++)
        if (ok(e->heap[i].job, ctx) && (best == e->heap_n || q_before(e->heap[i], e->heap[best])))
            best = i;
    return best;
}

/* Removes the item at i, the heap kept in order. */
engine_qitem_t engine_q_take(engine_t *e, size_t i)
{
    engine_qitem_t it = e->heap[i];
    e->heap[i] = e->heap[--e->heap_n];
    if (i < e->heap_n) {
        q_sift_up(e, i);
        q_sift_down(e, i);
    }
    return it;
}

/* Removes every queued partition of job (a cancel or a failure: rare, so a
 * linear pass and a rebuild are fine). */
void engine_q_remove_job(engine_t *e, const engine_job_t *job)
{
    size_t k = 0;
    for (size_t i = 0; i < e->heap_n; i++)
        if (e->heap[i].job != job)
            e->heap[k++] = e->heap[i];
    e->heap_n = k;
    for (size_t i = k / 2; i-- > 0;)
        q_sift_down(e, i);
}
