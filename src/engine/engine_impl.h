/*
 * The engine's internals, shared by its files and by nothing else:
 *   engine.c        names and helpers, the engine's life, counters
 *   engine_job.c    jobs: submit, hold, start, restore, end, lookups
 *   engine_worker.c the workers: take, prove, settle
 *   engine_keys.c   the key registry
 *   engine_queue.c  the id map and the partition queue (a binary heap)
 * One mutex (engine_t.lock) guards every field below that is not marked
 * otherwise; the functions declared here expect it held unless they say so.
 */
#ifndef CUZK_ENGINE_ENGINE_IMPL_H
#define CUZK_ENGINE_ENGINE_IMPL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/engine_budget.h"

typedef struct engine_key {
    struct engine_key *next; /* the registry, in load order */
    char name[ENGINE_ID_MAX + 1];
    char *path;
    key_format_t format;
    key_format_t proves_as; /* ZKEY or PARAMS: format, or a cache's kind */
    void *data;             /* the backend's key; NULL while loading */
    bool loading;
    uint64_t bytes;
    uint32_t users; /* jobs that hold it */
    uint64_t proofs;
    double loaded_at, load_seconds, last_used;
} engine_key_t;

typedef struct engine_part {
    engine_state_t state;
    int worker;
    double seconds[ENGINE_STAGES];
    double started_at, finished_at;
    engine_result_t result; /* DONE */
    cuzk_status_t status;   /* FAILED by its backend: why */
} engine_part_t;

struct engine_job {
    char id[ENGINE_ID_MAX + 1];
    char key_name[ENGINE_ID_MAX + 1];
    engine_key_t *key; /* held while the job may still run a partition */
    key_format_t format;
    engine_priority_t priority;
    uint32_t devices; /* engine_job_spec_t's: 0 any */
    uint64_t seq;
    uint32_t n;
    engine_input_t *inputs; /* copies */
    engine_part_t *parts;
    engine_state_t state;
    bool held;   /* submitted, not started */
    bool ending; /* the end transition is in progress or done */
    bool active; /* counts against max_jobs */
    uint32_t n_done, n_running, n_queued;
    double submitted_at, started_at, finished_at, queue_seconds;
    double submitted_mono;
    char *error;
    unsigned refs;
    void *user;
    pthread_mutex_t hook_lock; /* one hook call at a time for this job */
    struct engine_job *hnext;  /* the id map's chain */
    struct engine_job *ended_prev, *ended_next;
    bool in_map, in_ended;
};

typedef struct engine_qitem {
    engine_job_t *job;
    uint32_t index;
} engine_qitem_t;

typedef struct engine_worker {
    engine_t *e;
    unsigned index, threads;
    bool urgent; /* takes CRITICAL partitions only */
    int device;  /* the backend's worker_device */
    pthread_t thread;
    void *wctx;
} engine_worker_t;

struct engine {
    engine_config_t cfg;
    pthread_mutex_t lock;
    pthread_cond_t work_cv;  /* workers: a partition may be startable */
    pthread_cond_t ended_cv; /* waiters: a job ended */
    pthread_cond_t idle_cv;  /* drain and key loads: a partition stopped, a load ended */
    pthread_cond_t held_cv;  /* duplicate submits: a held job was started or aborted */
    pthread_mutex_t load_lock;

    engine_key_t *keys;
    engine_qitem_t *heap;
    size_t heap_n, heap_cap;
    engine_job_t **buckets;
    size_t n_buckets, n_jobs;
    engine_job_t *ended_head, *ended_tail;
    size_t n_ended;

    engine_counters_t c;
    /* host_memory_budget: the keys' bytes and the running partitions'
     * working sets (engine_budget.h; its own lock, taken under this one) */
    engine_budget_t *host;
    size_t active_jobs;
    uint64_t next_seq;
    bool stop, draining, waking;

    engine_worker_t *workers;
    unsigned n_workers_started, n_workers_ready;
    cuzk_status_t worker_status;
    engine_timeline_t *tl;
    double started_mono, started_wall;
};

static inline bool engine_state_ended(engine_state_t s)
{
    return s == ENGINE_DONE || s == ENGINE_FAILED || s == ENGINE_CANCELLED;
}

/* Records ev in the timeline and hands it to the event hook (any thread,
 * lock not needed). */
void engine_record(engine_t *e, const engine_event_t *ev);

/* engine_queue.c: the id map (jobs by id) ... */
engine_job_t *engine_map_find(engine_t *e, const char *id);
int engine_map_insert(engine_t *e, engine_job_t *job); /* -1 on ENOMEM */
void engine_map_remove(engine_t *e, engine_job_t *job);
/* ... and the partitions waiting to run, first the one to run next. */
int engine_q_push(engine_t *e, engine_job_t *job, uint32_t index); /* -1 on ENOMEM */
/* The position of the first partition in queue order whose job passes ok
 * (heap_n: none); the head when it does, else a scan. */
size_t engine_q_find(const engine_t *e, bool (*ok)(const engine_job_t *job, const void *ctx),
                     const void *ctx);
engine_qitem_t engine_q_take(engine_t *e, size_t i); /* removes the item at i < heap_n */
void engine_q_remove_job(engine_t *e, const engine_job_t *job);

/* engine_job.c, for the workers and the engine: a job's release (its
 * memory, once no reference is left), the drop of a reference, the
 * release of its key, and its end (state, error taken) with the engine's
 * mutex held. */
void job_destroy(engine_job_t *job);
void job_unref_locked(engine_job_t *job);
void job_release_key_locked(engine_job_t *job);
void job_end_locked(engine_t *e, engine_job_t *job, engine_state_t state, char *error);

/* engine_worker.c: a worker's thread (arg: its engine_worker_t). */
void *engine_worker_main(void *arg);

/* engine_keys.c: the loaded key named name (loading or not), or NULL; and
 * the release of a key no longer in the registry (no lock needed). */
engine_key_t *engine_key_find(engine_t *e, const char *name);
void engine_key_destroy(engine_t *e, engine_key_t *key);

#endif
