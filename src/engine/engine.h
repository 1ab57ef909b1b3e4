/*
 * The proving engine (DESIGN.md section 4), the layer between the front
 * ends (cuzkd, and later cuzk itself) and the Groth16/format layers:
 *
 *   - a key registry: a key is loaded once, by name, and shared read-only
 *     by every job that names it; each key counts the jobs that use it
 *     (a key in use is never evicted) and the proofs made with it;
 *   - jobs of one or more partitions (independent proofs over one key);
 *     the partition is the unit of scheduling, taken in the order
 *     (priority, highest first; job arrival; partition index), so critical
 *     work overtakes normal work at the next partition boundary and the
 *     oldest job of a priority finishes first;
 *   - worker threads that run partitions through a backend
 *     (engine_backend.h: the CPU today), each with its share of the CPU
 *     threads;
 *   - a host memory budget: keys count against it, and a partition is
 *     started only when its working-set estimate fits beside the running
 *     ones (the queue waits rather than failing; one partition always
 *     runs, so an estimate above the budget cannot stall the queue);
 *   - cancellation at partition boundaries: queued partitions are dropped,
 *     running ones finish on their worker and their result is discarded;
 *   - a timeline (engine_timeline.h) and counters.
 *
 * Jobs and their life. engine_job_submit registers a job in state QUEUED
 * but holds its partitions back until engine_job_start: the front end
 * journals the job in between, so that nothing it announces is lost and
 * no result can be reported before the job itself is on disk. A job ends
 * DONE when all of its partitions are done, FAILED when one fails (the
 * others are dropped, the error names the partition), CANCELLED by
 * engine_job_cancel. The hooks (engine_hooks_t) hear of every finished
 * partition and of the end of every job before anyone else can see it.
 *
 * Threads. Every function may be called from any thread; the engine has
 * one mutex for its state, released while keys load, partitions run and
 * hooks are called.
 */
#ifndef CUZK_ENGINE_ENGINE_H
#define CUZK_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "engine/engine_backend.h"
#include "engine/engine_timeline.h"

typedef enum engine_priority {
    ENGINE_PRIORITY_LOW,
    ENGINE_PRIORITY_NORMAL,
    ENGINE_PRIORITY_HIGH,
    ENGINE_PRIORITY_CRITICAL,
    ENGINE_PRIORITIES
} engine_priority_t;

/* States of jobs and partitions. */
typedef enum engine_state {
    ENGINE_QUEUED,
    ENGINE_RUNNING,
    ENGINE_DONE,
    ENGINE_FAILED,
    ENGINE_CANCELLED,
    ENGINE_STATES
} engine_state_t;

/* Why an engine call refused (the front end maps these to its answers). */
typedef enum engine_rc {
    ENGINE_OK,
    ENGINE_EINVAL,    /* a name, id or argument outside its documented form */
    ENGINE_ENOKEY,    /* no key of that name */
    ENGINE_ENOJOB,    /* no job of that id */
    ENGINE_EEXIST,    /* the name or id is taken (by another path, by a job) */
    ENGINE_EBUSY,     /* the key is in use by jobs */
    ENGINE_EFULL,     /* max_jobs jobs are queued or running */
    ENGINE_EDRAINING, /* the engine is draining: no new work */
    ENGINE_EENDED,    /* the job has ended (or is ending) */
    ENGINE_EMISMATCH, /* an input of the wrong kind for the key's format */
    ENGINE_ELOAD,     /* the key did not load (the message says why) */
    ENGINE_EBUDGET,   /* the key does not fit the host memory budget */
    ENGINE_ENOMEM,
} engine_rc_t;

const char *engine_priority_name(engine_priority_t p);
const char *engine_state_name(engine_state_t s);
const char *engine_key_format_name(key_format_t f);
const char *engine_rc_name(engine_rc_t rc);
/* The value named s, or -1. */
int engine_priority_from_name(const char *s);
int engine_key_format_from_name(const char *s);
int engine_state_from_name(const char *s);

/* Whether s can be a job id or key name: 1 to ENGINE_ID_MAX characters of
 * [A-Za-z0-9._-], not starting with '.' or '-' (safe as a file name). */
bool engine_id_valid(const char *s);

typedef struct engine_job engine_job_t;

/* Journal hooks, called on the engine's threads with no engine lock held,
 * one call at a time per job. */
typedef struct engine_hooks {
    void *ctx;
    /* Partition index of job is done with r; called before it counts.
     * Non-zero with a message in err: the result could not be recorded,
     * and the job fails with that message instead of showing it. */
    int (*partition_done)(void *ctx, engine_job_t *job, uint32_t index, const engine_result_t *r,
                          char *err, size_t err_size);
    /* job ends in state (DONE, FAILED with error, CANCELLED); called before
     * the state is visible. */
    void (*job_ended)(void *ctx, engine_job_t *job, engine_state_t state, const char *error);
    /* Every timeline event as it is recorded (NULL: not wanted); from any
     * thread, several at once. */
    void (*event)(void *ctx, const engine_event_t *ev);
    /* job's first partition has started on a worker (NULL: not wanted);
     * called before that partition's partition_done and not at all when the
     * job is ending by then (cancelled the same moment). */
    void (*job_started)(void *ctx, engine_job_t *job);
} engine_hooks_t;

typedef struct engine_config {
    const engine_backend_t *backend;
    const engine_hooks_t *hooks; /* NULL: none */
    unsigned workers;            /* worker threads, >= 1 */
    /* More workers that take only partitions of CRITICAL jobs (0: none): a
     * critical job then never waits for a worker to come free, and with a
     * backend that orders its shared resource by urgency (the CUDA
     * backend's compute lock) not for the partitions staged before it. */
    unsigned urgent_workers;
    unsigned threads;       /* CPU threads shared by the workers (0: one per processor) */
    size_t max_jobs;        /* jobs queued or running at once (0: no limit) */
    uint64_t host_budget;   /* bytes for keys and running partitions (0: no limit) */
    size_t timeline_events; /* capacity of the timeline ring (0: 4096) */
} engine_config_t;

/* Starts the workers. NULL with *st (not NULL) = CUZK_ENOMEM or the
 * backend's worker_new failure. */
typedef struct engine engine_t;
engine_t *engine_new(const engine_config_t *cfg, cuzk_status_t *st);

/* Stops the workers (a running partition finishes first), frees every job
 * and key. Nothing may use e meanwhile. */
void engine_free(engine_t *e);

/* ---- keys ------------------------------------------------------------------ */

/*
 * Loads the key at path under name (engine_id_valid), or finds it loaded:
 * *loaded (NULL: not wanted) says which. The same name with another path
 * or format is ENGINE_EEXIST. A key cache (KEY_FORMAT_CACHE) is probed
 * first: its header says whether it proves as a zkey or as params (a file
 * that is no cache fails the load). A failed load is ENGINE_ELOAD with the
 * reader's message in err (and *status = its cuzk_status_t, NULL: not
 * wanted), or, for a file that is by content of a kind the format does not
 * read (a .wtns, a proof.json, a key of another format), a message that
 * says what it is instead (io_kind_misplaced; the status still the
 * reader's); a key that does not fit the budget ENGINE_EBUDGET. Loads run one
 * at a time; a second caller for the same name waits for the first.
 */
engine_rc_t engine_key_load(engine_t *e, const char *name, key_format_t format, const char *path,
                            bool *loaded, cuzk_status_t *status, char *err, size_t err_size);

/*
 * Registers under name a key the backend built outside key_load (data, as
 * key_load would return it, bytes of host memory: a development key made
 * on the device, engine_cuda_dev_setup), which proves as format (ZKEY or
 * PARAMS). origin stands for the path in listings and messages. The engine
 * owns data afterwards (the backend's key_free), also on failure:
 * ENGINE_EINVAL (name, format), ENGINE_EEXIST (the name is taken),
 * ENGINE_EBUDGET (beyond the host budget), ENGINE_ENOMEM; err says why.
 */
engine_rc_t engine_key_add(engine_t *e, const char *name, key_format_t format, const char *origin,
                           void *data, uint64_t bytes, char *err, size_t err_size);

/* Frees the key name: ENGINE_ENOKEY, ENGINE_EBUSY while jobs use it. */
engine_rc_t engine_key_evict(engine_t *e, const char *name);

typedef struct engine_key_info {
    char name[ENGINE_ID_MAX + 1];
    char *path; /* malloc'd */
    key_format_t format;
    key_format_t proves_as; /* ZKEY or PARAMS: format, or a cache's kind */
    const char *tier;       /* residency: "host" (CPU backend), "device" or "pinned" */
    uint64_t bytes;         /* host memory */
    /* The host memory one partition on it reserves while it runs (the
     * backend's partition_bytes; 0 when the backend gives none). */
    uint64_t partition_bytes;
    uint32_t users;   /* jobs queued or running on it */
    uint64_t proofs;  /* partitions proven with it */
    double loaded_at; /* wall-clock seconds */
    double load_seconds;
    double last_used; /* wall-clock seconds (0: never) */
} engine_key_info_t;

/* *out = the keys in load order (engine_keys_info_free); returns the count. */
size_t engine_keys_info(engine_t *e, engine_key_info_t **out);
void engine_keys_info_free(engine_key_info_t *info, size_t n);

/* ---- jobs ------------------------------------------------------------------ */

/* A job's description. On restore (engine_job_restore) seq and
 * submitted_at come from the journal; for a new job they are 0. */
typedef struct engine_job_spec {
    const char *id; /* NULL: the engine draws one (16 hex digits) */
    const char *key;
    engine_priority_t priority;
    uint32_t n_inputs; /* partitions, >= 1 */
    const engine_input_t *inputs;
    uint64_t seq;        /* arrival order (0: the next) */
    double submitted_at; /* wall-clock seconds (0: now) */
    /* Bit d: the partitions may run on the workers of device d (the
     * backend's worker_device); 0: on any worker. */
    uint32_t devices;
} engine_job_spec_t;

/*
 * Registers a job (held: see the top) and sets *job to it, with a
 * reference for the caller (engine_job_unref). The inputs are copied,
 * except the assignment of an ENGINE_INPUT_ASGN_MEM input, which stays
 * the caller's (engine_backend.h says for how long).
 * ENGINE_EEXIST when the id is taken: *job is then the existing job (a
 * reference too). While a job with the id is held, the call waits until
 * it is started (ENGINE_EEXIST: it is accepted) or aborted (the id is
 * free again and this submission goes ahead), so a duplicate never hears
 * of a job that the front end has not yet committed. ENGINE_EINVAL (id, priority, no inputs, an
 * input without its path, bytes or assignment, half a blinding pair, devices
 * that no worker proves on), ENGINE_ENOKEY,
 * ENGINE_EMISMATCH (an assignment for a zkey or a witness for params), ENGINE_EFULL,
 * ENGINE_EDRAINING, ENGINE_ENOMEM: *job = NULL.
 */
engine_rc_t engine_job_submit(engine_t *e, const engine_job_spec_t *spec, engine_job_t **job);

/* Queues the partitions of a held job (a no-op for one that is not held). */
void engine_job_start(engine_t *e, engine_job_t *job);

/* Removes a held job as if it never was (its journal could not be written). */
void engine_job_abort(engine_t *e, engine_job_t *job);

/*
 * Brings back a journaled job, held like a new one. results[i] non-NULL:
 * partition i was done (the result moves into the engine and *results[i]
 * is zeroed). state QUEUED: the job resumes with its other partitions
 * (the key must be loaded; the rcs of engine_job_submit, except that
 * draining and max_jobs do not apply: the job was accepted before); DONE,
 * FAILED or CANCELLED (with error, finished_at): the job is kept for lookup
 * only, needs no key, and engine_job_start does nothing for it. DONE with
 * a partition's result missing counts as QUEUED.
 */
engine_rc_t engine_job_restore(engine_t *e, const engine_job_spec_t *spec, engine_state_t state,
                               const char *error, double finished_at, engine_result_t **results,
                               engine_job_t **job);

/*
 * The job with this id, with a reference (engine_job_unref), or NULL. A
 * held job (see the top) is waited for, up to ENGINE_HELD_WAIT_S seconds:
 * started, it is returned; aborted, or still held then, it is not found,
 * so that no lookup sees a job its front end has not committed.
 */
enum { ENGINE_HELD_WAIT_S = 10 };
engine_job_t *engine_job_find(engine_t *e, const char *id);
void engine_job_ref(engine_t *e, engine_job_t *job);
void engine_job_unref(engine_t *e, engine_job_t *job);

/* Immutable facts of a job, valid while a reference is held. */
const char *engine_job_id(const engine_job_t *job);
const char *engine_job_key(const engine_job_t *job);
/* The format the job proves in: KEY_FORMAT_ZKEY or KEY_FORMAT_PARAMS (for a
 * key cache, its kind). */
key_format_t engine_job_format(const engine_job_t *job);
uint64_t engine_job_seq(const engine_job_t *job);
uint32_t engine_job_partitions(const engine_job_t *job);
const engine_input_t *engine_job_input(const engine_job_t *job, uint32_t index);
/* A pointer the front end may attach to the job (its journal file). */
void engine_job_set_user(engine_job_t *job, void *user);
void *engine_job_user(const engine_job_t *job);

typedef struct engine_partition_info {
    engine_state_t state;
    int worker; /* the worker that ran it (-1: none yet) */
    double seconds[ENGINE_STAGES];
    double started_at, finished_at; /* wall-clock seconds (0: not yet) */
    const engine_result_t *result;  /* DONE: valid while the job reference is held */
    /* FAILED: the backend's status (CUZK_EWITNESS, ...); CUZK_OK when the
     * partition failed for no status of its own (its result unrecorded). */
    cuzk_status_t status;
} engine_partition_info_t;

typedef struct engine_job_info {
    engine_priority_t priority;
    engine_state_t state;
    uint32_t n_partitions, n_done;
    double submitted_at, started_at, finished_at; /* wall-clock (0: not yet) */
    double queue_seconds;                         /* from submission to the first start */
    char *error;                                  /* FAILED: why (malloc'd) */
    engine_partition_info_t *partitions;          /* n_partitions (malloc'd) */
} engine_job_info_t;

/* A consistent snapshot of job. ENGINE_ENOMEM. */
engine_rc_t engine_job_info(engine_t *e, engine_job_t *job, engine_job_info_t *info);
void engine_job_info_free(engine_job_info_t *info);

/* Cancels job: ENGINE_EENDED when it has ended or is ending. */
engine_rc_t engine_job_cancel(engine_t *e, engine_job_t *job);

/* Waits until job ends, timeout seconds pass, or engine_wake_waiters is
 * called. Returns whether the job has ended. */
bool engine_job_wait(engine_t *e, engine_job_t *job, double timeout);

/* Wakes every engine_job_wait (shutdown); later waits return at once. */
void engine_wake_waiters(engine_t *e);

/* One job of a listing (engine_jobs_list). */
typedef struct engine_job_summary {
    char id[ENGINE_ID_MAX + 1];
    char key[ENGINE_ID_MAX + 1];
    engine_priority_t priority;
    engine_state_t state;
    uint64_t seq; /* arrival order: the listing's cursor */
    uint32_t n_partitions, n_done, n_running;
    double submitted_at, started_at, finished_at; /* wall-clock (0: not yet) */
    char *error;                                  /* FAILED: why (malloc'd), else NULL */
} engine_job_summary_t;

/*
 * The jobs the engine knows (queued, running and the ended ones kept),
 * newest first (by arrival, seq descending): those in state (< 0: every
 * state) with seq below before (0: from the newest), at most limit of them
 * into *out (engine_jobs_list_free; NULL when none). *matched (NULL: not
 * wanted) = how many jobs are in state at all, cursor or not. Returns the
 * count in *out, or (size_t)-1 on ENOMEM. A job submitted but not yet
 * started (held, being journaled) is not listed.
 */
size_t engine_jobs_list(engine_t *e, int state, uint64_t before, size_t limit,
                        engine_job_summary_t **out, size_t *matched);
void engine_jobs_list_free(engine_job_summary_t *list, size_t n);

/*
 * Forgets the oldest ended jobs beyond keep, each after forget(ctx, job)
 * (the front end removes its journal file). Returns how many.
 */
size_t engine_jobs_prune(engine_t *e, size_t keep, void (*forget)(void *ctx, engine_job_t *job),
                         void *ctx);

/*
 * Forgets one ended job now, as engine_jobs_prune would when it is the
 * oldest (a front end that has handed its result on: the fleet's leases):
 * the id is free again and lookups no longer find it. ENGINE_EBUSY while
 * it has not ended or a partition of it still runs on a worker. The
 * caller's reference stays valid until engine_job_unref.
 */
engine_rc_t engine_job_forget(engine_t *e, engine_job_t *job);

/*
 * Draining: no job is accepted (ENGINE_EDRAINING) and no partition starts;
 * returns when no partition runs anymore. Queued work stays queued.
 */
void engine_drain(engine_t *e);
bool engine_draining(engine_t *e);

/* ---- counters and the timeline -------------------------------------------- */

typedef struct engine_counters {
    uint64_t jobs_submitted, jobs_done, jobs_failed, jobs_cancelled;
    uint64_t partitions_done, partitions_failed, partitions_discarded;
    uint64_t key_loads, key_load_failures, key_hits, key_evictions;
    double stage_seconds[ENGINE_STAGES]; /* summed over finished stages */
    double busy_seconds;                 /* summed over workers */
    /* gauges */
    uint64_t jobs_queued, jobs_running, partitions_queued, partitions_running;
    uint64_t jobs_held, jobs_ended_kept, keys;
    uint64_t host_key_bytes, host_reserved_bytes, host_budget;
    unsigned workers, threads;
    double uptime_seconds;
    bool draining;
    const char *backend;
} engine_counters_t;

void engine_counters(engine_t *e, engine_counters_t *c);

engine_timeline_t *engine_timeline(engine_t *e);
/* The engine_now() value of the engine's start (the timeline's origin). */
double engine_started(const engine_t *e);

/* Seconds since the epoch. */
double engine_wall(void);

#endif
