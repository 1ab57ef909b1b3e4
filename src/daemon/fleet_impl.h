/*
 * The fleet's state, shared by its files (fleet.h lists them) and by
 * nothing else.
 *
 * Threads. The fleet's thread owns conn: every statement of leasing, the
 * heartbeat and the hand-back of outcomes goes through it, one at a time.
 * The loader thread loads and checks keys (a key load and a file's digest
 * take seconds to minutes, longer than a heartbeat may wait). The API's
 * threads take connections from the pool. f->lock guards every field
 * marked (lock); it is a leaf: nothing calls the engine, the journal or
 * the database with it held, so the engine's hooks may take it.
 */
#ifndef CUZK_DAEMON_FLEET_IMPL_H
#define CUZK_DAEMON_FLEET_IMPL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "daemon/daemon.h"
#include "daemon/fleet.h"
#include "daemon/fleet_db.h"

/* Idle connections the API keeps for its next requests; more are opened
 * while that many are busy, and closed when they come back. */
enum { FLEET_POOL = 4 };

/* What a lease this host holds comes to, handed back to the database. */
typedef enum fleet_outcome {
    FLEET_HELD,       /* not ended: the local job is queued or running */
    FLEET_COMPLETE,   /* the local job is done: its result */
    FLEET_FAIL,       /* failed for a reason another host may not have: another attempt */
    FLEET_FAIL_FATAL, /* the input itself is bad: the job fails */
    FLEET_RELEASE,    /* never tried (a drain, a cancel): queued again */
} fleet_outcome_t;

typedef struct fleet_lease {
    int64_t token;
    char job_id[FLEET_NAME_MAX + 1]; /* "" until the database names it (a restored lease) */
    uint32_t idx;
    int prio;
    engine_job_t *job; /* the local job "lease-TOKEN" (a reference), or NULL */
    fleet_outcome_t outcome;
    char *error;     /* FAIL, FAIL_FATAL: why (malloc'd) */
    bool lost;       /* the heartbeat found the token superseded or the job ended */
    unsigned errors; /* statements that failed handing it back */
} fleet_lease_t;

/* Where a key stands for this host's leasing. */
typedef enum fleet_key_state {
    FLEET_KEY_LOADING, /* the loader has it */
    FLEET_KEY_READY,   /* loaded here with the registered digest: leased */
    FLEET_KEY_REFUSED, /* this host cannot serve it: why says so */
} fleet_key_state_t;

typedef struct fleet_key {
    char name[FLEET_NAME_MAX + 1];
    fleet_key_state_t state;
    char sha256[FLEET_SHA256_HEX + 1]; /* READY: the digest it was checked against */
    char why[512];                     /* REFUSED */
    double retry_at;                   /* REFUSED: engine_now() from which to try again */
} fleet_key_t;

/* A GET /v1/proofs/ID?wait= waiting for the end of job id. */
typedef struct fleet_waiter {
    struct fleet_waiter *next;
    const char *id;
    bool woken;
} fleet_waiter_t;

/* Counters (lock), for the status and the metrics. */
typedef struct fleet_counts {
    uint64_t leased, lost, released, accepted, duplicates, rejected, failed;
    uint64_t reclaimed;    /* other hosts' expired leases this host took back */
    uint64_t unknown_keys; /* jobs this host failed for a key nobody registered */
    uint64_t connects, disconnects;
} fleet_counts_t;

struct fleet {
    cuzkd_t *d;
    char name[FLEET_HOST_MAX + 1]; /* this host's */
    char shown[512];               /* the database, without a password */
    double lease_s, beat_s;
    int wake_fd; /* eventfd: wakes the fleet's thread */
    pthread_t thread, loader;
    bool thread_started, loader_started;

    pthread_mutex_t lock;
    pthread_cond_t cv;              /* (lock) the loader's queue, waiters, the pool */
    bool stop, draining;            /* (lock) */
    bool connected;                 /* (lock) the thread's connection works */
    char last_error[FLEET_ERR_MAX]; /* (lock) */
    double down_since;              /* (lock) wall clock; 0 while connected */
    uint64_t generation;            /* (lock) connections made by the thread so far */
    fleet_lease_t *leases;          /* (lock) */
    size_t n_leases, cap_leases;
    fleet_key_t *keys; /* (lock) */
    size_t n_keys, cap_keys;
    fleet_db_key_t *registry; /* (lock) the key registry as last read */
    size_t n_registry;
    char loads[8][FLEET_NAME_MAX + 1]; /* (lock) the loader's queue */
    size_t n_loads;
    fleet_waiter_t *waiters;  /* (lock) */
    fleet_counts_t c;         /* (lock) */
    PGconn *pool[FLEET_POOL]; /* (lock) idle API connections */
    uint64_t pool_gen[FLEET_POOL];
    size_t n_pool;

    /* the thread's own */
    PGconn *conn;
    double next_beat, next_wanted;
    uint64_t beats;
};

/* ---- fleet.c ---------------------------------------------------------------------------- */

/* Wakes the fleet's thread (any thread, any lock). */
void fleet_wake(fleet_t *f);

/* ---- fleet_local.c: the leases held here ---------------------------------------------- */

/* Takes up the leases the journal restored (fleet_start). */
void fleet_local_restore(fleet_t *f);

/* Turns the leases just taken into local jobs (the thread). */
void fleet_local_take(fleet_t *f, fleet_db_lease_t *l, size_t n);

/* Hands every ended lease's outcome to the database (the thread): -1
 * when the connection broke. */
int fleet_local_hand_back(fleet_t *f);

/* Renews the leases held; cancels the local jobs of lost ones that have
 * not started (the thread): -1 when the connection broke. */
int fleet_local_renew(fleet_t *f);

/* Cancels the local jobs of leases whose partition has not started, so
 * that they are given back (a drain; the thread or the signal's). */
void fleet_local_give_back_unstarted(fleet_t *f);

/* Leases held and not ended; ended with the outcome waiting (lock). */
void fleet_local_counts(fleet_t *f, size_t *held, size_t *pending, size_t *critical);

/* ---- fleet_keys.c -------------------------------------------------------------------- */

/* SHA-256 of the file at path as 64 hex digits; *bytes its size. -1 with
 * a message naming the file. */
int fleet_sha256_file(const char *path, char *hex, uint64_t *bytes, char *err, size_t err_size);

/* The names of the keys ready for leasing here (malloc'd array of
 * pointers into one block; free(*names)). */
size_t fleet_keys_ready(fleet_t *f, const char ***names);

/* After a registry read (the thread): keys checked against a digest that
 * changed are refused; local keys not yet checked go to the loader. */
void fleet_keys_sync(fleet_t *f);

/* The thread saw queued work of the registered keys (not ready here):
 * their registrations go into the registry as read, and those not loading
 * and not refused (or past the refusal's retry) go to the loader. */
void fleet_keys_want(fleet_t *f, const fleet_db_key_t *keys, size_t n);

/* Starts and stops the loader. */
int fleet_loader_start(fleet_t *f, char *err, size_t err_size);
void fleet_loader_stop(fleet_t *f);

/* The refusals as a JSON object {"key": "why"} and the ready keys as a
 * text[] literal, for the host's row (malloc'd; NULL on ENOMEM). */
char *fleet_keys_refusals_json(fleet_t *f);
char *fleet_keys_ready_array(fleet_t *f);

/* ---- fleet_api.c: the pool -------------------------------------------------------------- */

/* A connection for an API request (fleet_pool_put when done), or NULL
 * with a message (the database is not reachable). */
PGconn *fleet_pool_get(fleet_t *f, char *err, size_t err_size);
void fleet_pool_put(fleet_t *f, PGconn *c);
void fleet_pool_close(fleet_t *f);

/* Wakes the waiters of job id (NULL: all of them). */
void fleet_waiters_wake(fleet_t *f, const char *id);

/* Answers 503 fleet_unavailable with why. */
void fleet_unavailable(http_response_t *resp, const char *why);

#endif
