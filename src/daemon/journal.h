/*
 * The journal: everything cuzkd has accepted, on disk before the client
 * hears "accepted", so that a crash or `kill -9` loses nothing and every id
 * stays valid after a restart.
 *
 * Layout under the journal directory:
 *   lock                 flock'ed by the daemon that has the journal open,
 *                        holding its PID: a second daemon on the same
 *                        journal refuses to start
 *   keys/NAME.key        one JSON line {"op": "key", name, format, path,
 *                        added_at}; written to a temporary name, synced
 *                        and renamed (a registration is all or nothing);
 *                        removed when the key is evicted
 *   jobs/ID.job          append-only JSON lines: one "submit" record (key,
 *                        priority, seq, submitted_at, inputs), then one
 *                        "partition" record per finished partition (its
 *                        result) and at most one "end" record (state,
 *                        error, finished_at)
 *   jobs/ID.N.wtns       the bytes of partition N's witness when it came
 *                        inline (base64), written before the submit record
 *
 * Every record is written with one write(2) and synced (fdatasync; a new
 * file also syncs its directory) before the call returns. Replay takes
 * the records in order and ignores a torn last line (a crash in the middle
 * of an append); a job file without a complete submit record was never
 * acknowledged and is removed, as are blobs without a job.
 */
#ifndef CUZK_DAEMON_JOURNAL_H
#define CUZK_DAEMON_JOURNAL_H

#include <stddef.h>

#include "engine/engine.h"

typedef struct journal journal_t;

/* Opens (creating) the journal in dir and locks it for this process. NULL
 * with a message (another process holding the lock: its PID). */
journal_t *journal_open(const char *dir, char *err, size_t err_size);
void journal_close(journal_t *j);
const char *journal_dir(const journal_t *j);

int journal_key_add(journal_t *j, const char *name, engine_key_format_t format, const char *path,
                    char *err, size_t err_size);
int journal_key_remove(journal_t *j, const char *name, char *err, size_t err_size);

/*
 * Writes the inline witnesses of job (held, not started) as blobs and its
 * submit record. Returns 0, or -1 with a message (then nothing of the job
 * is left on disk). A job with an assignment held in memory
 * (ENGINE_INPUT_ASGN_MEM) is refused before anything is written: no
 * restart could bring it back.
 */
int journal_job_submit(journal_t *j, engine_job_t *job, engine_priority_t priority,
                       double submitted_at, char *err, size_t err_size);

/* The hooks' records; a failure is logged (the job goes on in memory). */
void journal_job_partition(journal_t *j, engine_job_t *job, uint32_t index,
                           const engine_result_t *r);
void journal_job_end(journal_t *j, engine_job_t *job, engine_state_t state, const char *error,
                     double finished_at);

/* Removes job's files (the job was pruned). */
void journal_job_forget(journal_t *j, const char *id, uint32_t n_partitions);

/* What replay hands back for each registered key, in registration order. */
typedef void (*journal_key_fn)(void *ctx, const char *name, engine_key_format_t format,
                               const char *path);

/*
 * Replays the journal: calls key(ctx, ...) for every key, in registration
 * order, then restores every job in arrival order into e with
 * engine_job_restore (inline witnesses become their blob files) and starts
 * the live ones. A live job whose key is missing ends FAILED, with a
 * journaled end record saying so. Returns the number of jobs restored;
 * messages for what was skipped go to the log.
 */
size_t journal_replay(journal_t *j, engine_t *e, journal_key_fn key, void *ctx);

#endif
