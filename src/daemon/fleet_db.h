/*
 * The fleet's database (docs/FLEET.md): every statement cuzkd sends to
 * PostgreSQL, as functions over one libpq connection, so that the daemon
 * (fleet.c, fleet_api.c) and the benchmark (tests/fleet/fleet_bench.c)
 * run the same SQL.
 *
 *   fleet_db.c     connecting (keepalives and timeouts), one query with
 *                  parameters, transactions, the migrations
 *   fleet_lease.c  the queue: lease, renew, complete, fail, release, the
 *                  expired leases, the sweep of jobs no host can serve
 *   fleet_jobs.c   submission, one job and its partitions, the listing,
 *                  cancel, keys and hosts
 *
 * Connections. A PGconn is used by one thread at a time. Every function
 * returns 0 on success and -1 with a one-line message in err (the
 * server's words, or libpq's when the connection broke); after -1,
 * fleet_db_broken says whether the connection is gone (the caller
 * reconnects) or the statement alone failed. Times in the tables are the
 * database's clock (clock_timestamp()), so hosts' clocks need not agree.
 */
#ifndef CUZK_DAEMON_FLEET_DB_H
#define CUZK_DAEMON_FLEET_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

enum {
    FLEET_ERR_MAX = 768,
    FLEET_NAME_MAX = 64,  /* key names and job ids: engine_id_valid */
    FLEET_HOST_MAX = 128, /* host names */
    FLEET_SHA256_HEX = 64,
};

/* ---- connections (fleet_db.c) ------------------------------------------------------- */

/*
 * Opens a connection to conninfo (a postgresql:// URI or key=value
 * words), which may set anything libpq knows; cuzkd's defaults, which
 * the URI overrides: connect_timeout 5 s, TCP keepalives (5 s idle, 2 s
 * apart, 3 probes) and tcp_user_timeout 10 s, so that a lost network ends
 * a query in seconds rather than at TCP's retransmission timeout;
 * application_name "cuzkd HOST". Then statement_timeout 30 s and
 * client_min_messages warning for the session. NULL with a message.
 */
PGconn *fleet_db_connect(const char *conninfo, const char *host, char *err, size_t err_size);

/* Whether conninfo parses (at --check-config, before any connection). */
int fleet_db_conninfo_check(const char *conninfo, char *err, size_t err_size);

/* conninfo without its password: what status pages and logs show. */
void fleet_db_conninfo_show(const char *conninfo, char *out, size_t out_size);

/* A text[] literal of names (key names: [A-Za-z0-9._-], nothing to
 * quote), malloc'd; NULL on ENOMEM. */
char *fleet_db_names_array(const char *const *names, size_t n);

/* Whether c is gone (the server restarted, the network broke). */
bool fleet_db_broken(PGconn *c);

/*
 * One statement with n text parameters (values[i] NULL: SQL NULL),
 * except those whose lengths[i] is non-zero, which go as binary (bytea).
 * The result (PQclear) when it ran, NULL with a message otherwise.
 */
PGresult *fleet_db_query(PGconn *c, const char *sql, int n, const char *const *values,
                         const int *lengths, char *err, size_t err_size);

/* A statement without parameters or rows (BEGIN, COMMIT, ...). */
int fleet_db_exec(PGconn *c, const char *sql, char *err, size_t err_size);

/* Rolls back the transaction open on c, if any (after a failure). */
void fleet_db_rollback(PGconn *c);

/* A column of a result as text ("" for NULL), as a number (0 for NULL). */
const char *fleet_db_text(const PGresult *r, int row, int col);
int64_t fleet_db_int(const PGresult *r, int row, int col);
double fleet_db_real(const PGresult *r, int row, int col);
bool fleet_db_null(const PGresult *r, int row, int col);

/*
 * Brings the schema cuzk up to the newest migration this binary holds
 * (src/daemon/fleet_sql/NNNN_*.sql, embedded at build time): one
 * transaction under a transaction-level advisory lock, so that hosts
 * starting at once apply each migration exactly once and wait for each
 * other; each applied migration is a row of cuzk.schema_migrations
 * (version, name, applied_at, applied_by = by). *version = the version
 * afterwards. A database newer than this binary is refused, naming both
 * versions: -2.
 */
int fleet_db_migrate(PGconn *c, const char *by, int *version, char *err, size_t err_size);

/* The newest migration this binary holds. */
int fleet_db_schema_version(void);

/* The migrations, oldest first, versions 1, 2, ... in order: the files of
 * src/daemon/fleet_sql/ as cmake/embed_migrations.cmake writes them into
 * the build (fleet_migrations.c). */
typedef struct fleet_migration {
    int version;
    const char *name; /* the file's name */
    const char *sql;  /* its text */
} fleet_migration_t;
extern const fleet_migration_t fleet_migrations[];
extern const size_t fleet_n_migrations;

/* ---- the queue (fleet_lease.c) -------------------------------------------------------- */

/* One leased partition with its input (exactly one of the three). */
typedef struct fleet_db_lease {
    int64_t token;
    char job_id[FLEET_NAME_MAX + 1];
    uint32_t idx;
    int prio; /* engine_priority_t: 0 low .. 3 critical */
    char key[FLEET_NAME_MAX + 1];
    char *witness_path, *assignment_path; /* malloc'd or NULL */
    unsigned char *wtns;                  /* malloc'd or NULL */
    size_t wtns_len;
} fleet_db_lease_t;

void fleet_db_leases_free(fleet_db_lease_t *l, size_t n);

/*
 * Leases up to n queued partitions of the keys (names) for host, in the
 * queue's order (priority, highest first; arrival; partition), of
 * priority min_prio or above, each with a new fencing token and an
 * expiry lease_s seconds ahead, skipping rows other hosts are leasing at
 * the same moment (FOR UPDATE SKIP LOCKED); their jobs become running.
 * *out (fleet_db_leases_free) and *n_out, in that order.
 */
int fleet_db_lease(PGconn *c, const char *host, const char *const *keys, size_t n_keys,
                   int min_prio, unsigned n, double lease_s, fleet_db_lease_t **out, size_t *n_out,
                   char *err, size_t err_size);

/*
 * The heartbeat's renewal: the expiry of every lease among tokens that is
 * still current moved lease_s seconds ahead; renewed[i] says which were
 * (the others are lost: taken over after their expiry, or their job
 * ended). job_ids (n, each FLEET_NAME_MAX + 1; NULL: not wanted) and
 * idxs get the partition of each renewed token.
 */
int fleet_db_renew(PGconn *c, const int64_t *tokens, size_t n, double lease_s, bool *renewed,
                   char (*job_ids)[FLEET_NAME_MAX + 1], uint32_t *idxs, char *err, size_t err_size);

/* A partition's result, as the engine made it. */
typedef struct fleet_db_result {
    const char *proof_json, *public_json; /* zkey (NULL: none) */
    const unsigned char *proof_bytes;     /* params: 192 bytes (NULL: none) */
    size_t proof_len;
    const char *timings_json; /* {"read": s, ...} */
    const char *device;       /* where it ran ("cpu", a GPU's name) */
    int worker;
    double started_at, finished_at; /* wall-clock seconds */
} fleet_db_result_t;

typedef enum fleet_db_outcome {
    FLEET_ACCEPTED,  /* the result is the partition's */
    FLEET_DUPLICATE, /* it was already, from this token (a retry after a crash) */
    FLEET_REJECTED,  /* the token is no longer current: another host has, or had, the lease */
} fleet_db_outcome_t;

/*
 * Completes the partition leased under token with r, in one statement:
 * only while token is the partition's current lease; the job counts it
 * and is done with its last partition (then cuzk_job_end is notified).
 * *job_done: this completion ended the job.
 */
int fleet_db_complete(PGconn *c, int64_t token, const fleet_db_result_t *r,
                      fleet_db_outcome_t *outcome, bool *job_done, char *err, size_t err_size);

/*
 * Gives back the lease token with why it failed (msg): the partition is
 * queued again for another attempt, or fails (and its job with it,
 * "partition N: msg") when fatal (the input itself is bad) or after
 * max_attempts leases. No-op when token is not current: *outcome says.
 */
int fleet_db_fail(PGconn *c, int64_t token, const char *host, const char *msg, bool fatal,
                  unsigned max_attempts, fleet_db_outcome_t *outcome, char *err, size_t err_size);

/* Gives back leases never tried (a drain, a host that cannot take them
 * now): queued again, their attempts not counted. *released = how many
 * were still current. */
int fleet_db_release(PGconn *c, const int64_t *tokens, size_t n, size_t *released, char *err,
                     size_t err_size);

/*
 * Takes back every lease past its expiry (its host stopped heartbeating):
 * queued again, or failed with its job after max_attempts. *reclaimed =
 * how many. Not in the first lease_s seconds after the server started:
 * the leases that expired while it was down are their hosts' until each
 * had a lease's time to reconnect and renew them.
 */
int fleet_db_reap(PGconn *c, double lease_s, unsigned max_attempts, size_t *reclaimed, char *err,
                  size_t err_size);

/* Fails the queued jobs whose key is not registered (no host could ever
 * serve them). *failed = how many. */
int fleet_db_sweep_unknown_keys(PGconn *c, size_t *failed, char *err, size_t err_size);

/* Forgets the oldest ended jobs beyond keep (their partitions with them). */
int fleet_db_prune(PGconn *c, unsigned keep, char *err, size_t err_size);

/* ---- jobs, keys, hosts (fleet_jobs.c) ---------------------------------------------- */

/* One partition's input for a submission: exactly one of the three. */
typedef struct fleet_db_input {
    const char *witness_path, *assignment_path;
    const unsigned char *wtns;
    size_t wtns_len;
} fleet_db_input_t;

typedef enum fleet_db_submit_rc {
    FLEET_SUBMITTED,
    FLEET_EXISTS,   /* the id is taken: the existing job stands */
    FLEET_NOKEY,    /* the key is not registered */
    FLEET_MISMATCH, /* an input of the wrong kind for the key */
    FLEET_FULL,     /* max_jobs jobs are queued or running in the fleet */
    FLEET_ERROR,    /* the database: err says */
} fleet_db_submit_rc_t;

/* Submits a job (id given: engine_id_valid; priority "low" .. "critical")
 * in one transaction, by host. max_jobs 0: no limit. */
fleet_db_submit_rc_t fleet_db_submit(PGconn *c, const char *id, const char *key,
                                     const char *priority, uint32_t n,
                                     const fleet_db_input_t *inputs, const char *host,
                                     unsigned max_jobs, char *err, size_t err_size);

/*
 * Cancels job id and its partitions not yet ended (leases too: their
 * hosts hear of it by cuzk_job_end and at their next heartbeat).
 * *cancelled: this call cancelled it; *state = the job's state afterwards
 * ("" when there is no such job).
 */
int fleet_db_cancel(PGconn *c, const char *id, bool *cancelled, char *state, size_t state_size,
                    char *err, size_t err_size);

/* The job id (*job; NULL when there is none) and its partitions in order
 * (*parts), results included when with_results. PQclear both. The
 * columns are named by the FLEET_JOB_* and FLEET_PART_* enums. */
enum {
    FLEET_JOB_KEY,
    FLEET_JOB_PROVES_AS,
    FLEET_JOB_PRIORITY,
    FLEET_JOB_STATE,
    FLEET_JOB_SUBMITTED_AT,
    FLEET_JOB_STARTED_AT,
    FLEET_JOB_FINISHED_AT,
    FLEET_JOB_PARTITIONS,
    FLEET_JOB_DONE,
    FLEET_JOB_ERROR,
    FLEET_JOB_SUBMITTED_BY,
    FLEET_JOB_NOW,
};
enum {
    FLEET_PART_IDX,
    FLEET_PART_STATE,
    FLEET_PART_ATTEMPTS,
    FLEET_PART_LEASE_HOST,
    FLEET_PART_HOST,
    FLEET_PART_DEVICE,
    FLEET_PART_WORKER,
    FLEET_PART_STARTED_AT,
    FLEET_PART_FINISHED_AT,
    FLEET_PART_TIMINGS,
    FLEET_PART_ERROR,
    FLEET_PART_PROOF_JSON,
    FLEET_PART_PUBLIC_JSON,
    FLEET_PART_PROOF_BYTES,
};
int fleet_db_job(PGconn *c, const char *id, bool with_results, PGresult **job, PGresult **parts,
                 char *err, size_t err_size);

/* The job's state ("" when there is none): the long poll's check. */
int fleet_db_job_state(PGconn *c, const char *id, char *state, size_t state_size, char *err,
                       size_t err_size);

/*
 * The listing of GET /v1/proofs: jobs in state (NULL: any) with arrival
 * below before (0: from the newest), newest first, at most limit rows
 * (columns: id, state, key, priority, partitions, done, running,
 * submitted_at, started_at, finished_at, age, error, arrival), and
 * *matched = the jobs in state at all.
 */
int fleet_db_jobs_list(PGconn *c, const char *state, uint64_t before, unsigned limit,
                       PGresult **rows, uint64_t *matched, char *err, size_t err_size);

/* A key of the registry. */
typedef struct fleet_db_key {
    char name[FLEET_NAME_MAX + 1];
    char path[4096];
    char format[8], proves_as[8];
    char sha256[FLEET_SHA256_HEX + 1];
    uint64_t file_bytes;
    char registered_by[FLEET_HOST_MAX + 1];
    double registered_at;
} fleet_db_key_t;

/*
 * Registers k (registered_by and registered_at are set here) unless the
 * name is registered already; *got = the registration that stands (k's,
 * or the earlier one: compare the digests).
 */
int fleet_db_key_register(PGconn *c, const fleet_db_key_t *k, const char *host, fleet_db_key_t *got,
                          char *err, size_t err_size);

/* The registrations of the keys with queued partitions that are not in
 * have (n_have names), most urgent work first, at most max into keys. */
int fleet_db_wanted_keys(PGconn *c, const char *const *have, size_t n_have, fleet_db_key_t *keys,
                         size_t max, size_t *n, char *err, size_t err_size);

/* The registry: every key (malloc'd *keys, *n). */
int fleet_db_keys(PGconn *c, fleet_db_key_t **keys, size_t *n, char *err, size_t err_size);

/* This host's row of cuzk.hosts. */
typedef struct fleet_db_host {
    const char *name, *version, *devices, *listen, *state;
    unsigned workers;
    int pid;
    const char *keys_array;    /* a text[] literal of the keys it serves */
    const char *refusals_json; /* {"key": "why it refuses it", ...} */
    uint64_t accepted, rejected;
} fleet_db_host_t;

/* Inserts or updates h's row; starting: started_at is now too. */
int fleet_db_host_beat(PGconn *c, const fleet_db_host_t *h, bool starting, char *err,
                       size_t err_size);

/* Takes the session's advisory lock on the host name: 0, or -2 (err)
 * when another session of the fleet holds it. take_over (a reconnection:
 * the holder is most likely this host's own dead connection): the holding
 * session is ended first, and the lock waited for up to 5 s. */
int fleet_db_host_lock(PGconn *c, const char *host, bool take_over, char *err, size_t err_size);

/* Every host with its leases and its heartbeat's age in seconds (columns:
 * name, state, version, devices, workers, listen, pid, keys (a JSON
 * array), refusals (JSON), accepted, rejected, started_at, heartbeat_at,
 * heartbeat_age, leases); and the queue: jobs and partitions by state
 * (columns: what, state, count). */
int fleet_db_hosts(PGconn *c, PGresult **hosts, char *err, size_t err_size);
int fleet_db_queue(PGconn *c, PGresult **counts, char *err, size_t err_size);

#endif
