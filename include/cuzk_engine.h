/*
 * The proving engine: keys registered by name and kept loaded, jobs of one
 * or more partitions (independent proofs over one key) queued by priority,
 * worker threads on the CPU or on CUDA devices, a host memory budget, and a
 * timeline of every stage (docs/ENGINE.md).
 *
 * Jobs. cuzk_engine_submit queues a job under an id the caller chooses;
 * partitions run in the order (priority, highest first; submission; index),
 * so a critical job overtakes normal work at the next partition boundary.
 * A job ends DONE (every partition proven and self-verified), FAILED (one
 * partition failed: the others are dropped; cuzk_engine_job_error says
 * why) or CANCELLED. Ended jobs and their proofs stay until
 * keep_ended_jobs later jobs have ended, or until the engine is destroyed.
 *
 * Threads. Every function may be called from any thread, several at once,
 * except cuzk_engine_destroy, which must be the last call on the engine.
 */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H

#include "cuzk_base.h"
#include "cuzk_key.h"
#include "cuzk_proof.h"
#include "cuzk_prove.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_engine cuzk_engine_t;

/* Where partitions run. The values are part of the ABI. */
typedef enum cuzk_devices {
    CUZK_DEVICES_CPU = 0,  /* worker threads on the CPU */
    CUZK_DEVICES_CUDA = 1, /* every CUDA device the driver shows (a build with CUDA only) */
} cuzk_devices_t;

/* Flags of cuzk_engine_config_t. */
enum {
    CUZK_ENGINE_TRUSTED_KEYS = 1u << 0, /* load keys with CUZK_KEY_TRUSTED */
};

/*
 * The configuration. cuzk_engine_config_init sets size and the defaults;
 * a caller changes the fields it cares about. Later minor versions add
 * fields at the end and read only the size the caller was built with.
 */
typedef struct cuzk_engine_config {
    size_t size;                 /* sizeof(cuzk_engine_config_t) */
    cuzk_devices_t devices;      /* CUZK_DEVICES_CPU */
    unsigned workers_per_device; /* 0: 1 on the CPU, 2 per CUDA device */
    unsigned threads;            /* CPU threads the workers share (0: one a processor) */
    uint64_t host_budget;        /* bytes for keys and running partitions (0: no limit) */
    unsigned flags;              /* CUZK_ENGINE_* */
    size_t keep_ended_jobs;      /* ended jobs kept for their proofs (0: 1024) */
    size_t timeline_events;      /* stages the timeline keeps (0: 4096) */
} cuzk_engine_config_t;

CUZK_API void cuzk_engine_config_init(cuzk_engine_config_t *cfg);

/*
 * *engine = a running engine. CUZK_EINVAL (a size smaller than the first
 * version's, devices unknown), CUZK_EUNSUPPORTED (CUDA in a build without
 * it), CUZK_EDEVICE (no usable CUDA device: the message says why),
 * CUZK_ENOMEM.
 */
CUZK_API cuzk_status_t cuzk_engine_new(cuzk_engine_t **engine, const cuzk_engine_config_t *cfg);

/*
 * Ends the engine (NULL is fine). drain non-zero: waits until every job
 * submitted has ended; zero: cancels the jobs that have not (a partition
 * running finishes first, its result discarded). Then frees every key, job
 * and proof. No other call may be running on engine, nor follow.
 */
CUZK_API void cuzk_engine_destroy(cuzk_engine_t *engine, int drain);

/*
 * Loads the key at path under name (1 to 64 characters of [A-Za-z0-9._-],
 * not starting with '.' or '-'), of format (CUZK_KEY_AUTO: by content), or
 * finds it loaded already under that name and path (CUZK_OK). The same
 * name for another path is CUZK_EBUSY; a load failure the loader's status
 * and message; a key beyond the host budget CUZK_ENOMEM.
 */
CUZK_API cuzk_status_t cuzk_engine_key_load(cuzk_engine_t *engine, const char *name,
                                            const char *path, cuzk_key_format_t format);

/* Unloads the key name: CUZK_ENOTFOUND, CUZK_EBUSY while jobs use it. */
CUZK_API cuzk_status_t cuzk_engine_key_evict(cuzk_engine_t *engine, const char *name);

/* Where one partition's witness comes from. */
typedef enum cuzk_input_kind {
    CUZK_INPUT_WTNS_PATH = 0,   /* a .wtns file, read when the partition runs */
    CUZK_INPUT_WTNS_MEMORY = 1, /* the bytes of a .wtns (copied at submission) */
    CUZK_INPUT_ASGN_PATH = 2,   /* an .asgn file (docs/ASSIGNMENT.md) */
    CUZK_INPUT_ASGN_MEMORY = 3, /* a cuzk_assignment_t (borrowed: see below) */
} cuzk_input_kind_t;

/*
 * One partition: path (the two _PATH kinds; copied), data and len
 * (WTNS_MEMORY; copied), or assignment (ASGN_MEMORY). An assignment is
 * borrowed, never copied: it and every array it points to must stay valid
 * and unchanged until the job has ended and cuzk_engine_job_state says no
 * partition runs (running = 0), or until cuzk_engine_destroy returns.
 * Witnesses prove under snarkjs keys, assignments under bellperson keys.
 */
typedef struct cuzk_input {
    cuzk_input_kind_t kind;
    const char *path;
    const void *data;
    size_t len;
    const cuzk_assignment_t *assignment;
} cuzk_input_t;

typedef enum cuzk_priority {
    CUZK_PRIORITY_LOW = 0,
    CUZK_PRIORITY_NORMAL = 1,
    CUZK_PRIORITY_HIGH = 2,
    CUZK_PRIORITY_CRITICAL = 3,
} cuzk_priority_t;

/*
 * Queues the job id (the rules of a key name) of the n >= 1 partitions at
 * inputs under the key key_name, at priority. CUZK_EINVAL (id, priority, an
 * input without its path, data or assignment, or an assignment whose
 * counts are not the key's), CUZK_ENOTFOUND (no such key), CUZK_EBUSY (the
 * id is taken, or the engine is ending), CUZK_ENOMEM.
 */
CUZK_API cuzk_status_t cuzk_engine_submit(cuzk_engine_t *engine, const char *id,
                                          const char *key_name, cuzk_priority_t priority,
                                          const cuzk_input_t *inputs, size_t n);

typedef enum cuzk_job_state {
    CUZK_JOB_QUEUED = 0,
    CUZK_JOB_RUNNING = 1,
    CUZK_JOB_DONE = 2,
    CUZK_JOB_FAILED = 3,
    CUZK_JOB_CANCELLED = 4,
} cuzk_job_state_t;

/* A job's progress: its state, partitions in all, done and running now. */
typedef struct cuzk_job_progress {
    cuzk_job_state_t state;
    uint32_t partitions, done, running;
} cuzk_job_progress_t;

/* *progress = the job id's progress now (polling). CUZK_ENOTFOUND. */
CUZK_API cuzk_status_t cuzk_engine_job_state(cuzk_engine_t *engine, const char *id,
                                             cuzk_job_progress_t *progress);

/*
 * Waits until the job id has ended or timeout seconds have passed (< 0:
 * no limit; 0: a poll). *ended (NULL: not wanted) = whether it has;
 * CUZK_OK either way. CUZK_ENOTFOUND.
 */
CUZK_API cuzk_status_t cuzk_engine_wait(cuzk_engine_t *engine, const char *id, double timeout,
                                        int *ended);

/*
 * *proof (and public_out, NULL: not wanted: cuzk_key_public_inputs of the
 * job's key, canonical) = partition index's proof of the job id, which must
 * be DONE (CUZK_EINVAL otherwise, saying the state). CUZK_ENOTFOUND,
 * CUZK_EINVAL for an index beyond the job's partitions.
 */
CUZK_API cuzk_status_t cuzk_engine_proof(cuzk_engine_t *engine, const char *id, uint32_t index,
                                         cuzk_proof_t *proof, cuzk_scalar_t *public_out);

/* *message = why the job id failed (malloc'd: cuzk_free); "" unless FAILED. */
CUZK_API cuzk_status_t cuzk_engine_job_error(cuzk_engine_t *engine, const char *id, char **message);

/* Cancels the job id: its queued partitions are dropped, running ones
 * finish and are discarded. CUZK_ENOTFOUND, CUZK_EINVAL once it has ended. */
CUZK_API cuzk_status_t cuzk_engine_cancel(cuzk_engine_t *engine, const char *id);

/*
 * *json = the engine's status as JSON text (malloc'd: cuzk_free): an
 * object with "backend", "workers", "threads", "uptime_seconds", "jobs"
 * {submitted, done, failed, cancelled, queued, running}, "partitions"
 * {done, failed, queued, running}, "host" {budget, key_bytes,
 * reserved_bytes} and "keys" (name, path, format, bytes, users, proofs).
 * Later minor versions may add members.
 */
CUZK_API cuzk_status_t cuzk_engine_status_json(cuzk_engine_t *engine, char **json);

/* *json = the timeline as a Chrome trace (chrome://tracing, Perfetto): one
 * event per stage of every partition still in the timeline's ring. */
CUZK_API cuzk_status_t cuzk_engine_trace_json(cuzk_engine_t *engine, char **json);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_ENGINE_H */
