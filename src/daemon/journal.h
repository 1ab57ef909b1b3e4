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
 * the records in order and repairs what a crash or a damaged disk left
 * (journal_replay says how); nothing is deleted: damaged files go to
 * damaged/NAME.SECONDS (the file as replay found it, before a repair).
 */
#ifndef CUZK_DAEMON_JOURNAL_H
#define CUZK_DAEMON_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/engine.h"

typedef struct journal journal_t;

/* Opens (creating) the journal in dir and locks it for this process. NULL
 * with a message (another process holding the lock: its PID). */
journal_t *journal_open(const char *dir, char *err, size_t err_size);
void journal_close(journal_t *j);
const char *journal_dir(const journal_t *j);

int journal_key_add(journal_t *j, const char *name, key_format_t format, const char *path,
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

/*
 * The hooks' records. A partition record that cannot be written returns
 * -1 with a message: the engine then fails the job instead of showing a
 * result that a restart would not find. An end record that cannot be
 * written is logged; the job's state holds in memory, and a restart
 * resumes the job from its last record.
 */
int journal_job_partition(journal_t *j, engine_job_t *job, uint32_t index, const engine_result_t *r,
                          char *err, size_t err_size);
void journal_job_end(journal_t *j, engine_job_t *job, engine_state_t state, const char *error,
                     double finished_at);

/*
 * The journal's health: failing from a failed write until the next write
 * that succeeds (a full disk, a read-only filesystem), the failed writes
 * so far, the last one's message, and the repairs replay made. Every
 * failure is logged; the first of a run and the recovery say so.
 */
typedef struct journal_health {
    bool failing;
    double failing_since; /* wall-clock seconds */
    uint64_t errors, repairs;
    char last_error[512];
} journal_health_t;
void journal_health(journal_t *j, journal_health_t *h);

/* Removes job's files (the job was pruned). */
void journal_job_forget(journal_t *j, const char *id, uint32_t n_partitions);

/* What replay hands back for each registered key, in registration order. */
typedef void (*journal_key_fn)(void *ctx, const char *name, key_format_t format, const char *path);

/* Whether a restored job may read path (the allowed directories of now):
 * 0, or non-zero with the reason in err. */
typedef int (*journal_allow_fn)(void *ctx, const char *path, char *err, size_t err_size);

/*
 * Replays the journal: calls key(ctx, ...) for every key, in registration
 * order, then restores every job in arrival order into e with
 * engine_job_restore (inline witnesses become their blob files) and starts
 * the live ones. A live job whose key is missing, or one of whose paths
 * allowed(ctx, ...) refuses, ends FAILED with a journaled end record
 * saying why. Returns the number of jobs restored.
 *
 * Repairs, each logged with the file and the byte offset and counted in
 * journal_health's repairs: a torn last record is cut off and a damaged
 * record skipped (the file as it was is copied to DIR/damaged/ first); a
 * job file without a complete submit record, a key record that does not
 * parse and a witness blob without its job are moved to DIR/damaged/.
 * Nothing is deleted.
 */
size_t journal_replay(journal_t *j, engine_t *e, journal_key_fn key, journal_allow_fn allowed,
                      void *ctx);

#endif
