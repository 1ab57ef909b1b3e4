/*
 * The fleet (docs/FLEET.md): cuzkd hosts sharing one job table in
 * PostgreSQL. With [fleet] database set, this host's API stores jobs in
 * the database instead of its own queue, and the fleet's thread leases
 * partitions from it for the local engine, as many as the engine can
 * start now plus a small look-ahead:
 *
 *   fleet.c        start and stop, the thread: connection with backoff,
 *                  heartbeat, leasing, handing outcomes back
 *   fleet_local.c  the leases this host holds, each a local engine job
 *                  "lease-TOKEN" journaled like any other, so that a result
 *                  survives a crash or the database's absence
 *   fleet_keys.c   the key registry: digests, registration, the loader
 *   fleet_api.c    the API's fleet side (jobs, GET /v1/fleet)
 *   fleet_status.c the status section and the metrics
 *   fleet_db.h     the SQL
 *
 * The fleet is a part of cuzkd (it uses the daemon's journal, paths and
 * log), and only the daemon includes this header. Built without libpq
 * (CUZK_HAVE_FLEET 0), the functions below are stubs and fleet_new says
 * that --fleet is not available.
 */
#ifndef CUZK_DAEMON_FLEET_H
#define CUZK_DAEMON_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "daemon/config.h"
#include "daemon/http.h"
#include "engine/engine.h"

struct cuzkd;
typedef struct fleet fleet_t;

/* What GET /v1/proofs asked for (api.c parses it). */
typedef struct fleet_list_query {
    const char *state; /* NULL: every state */
    uint64_t limit, cursor;
} fleet_list_query_t;

#if CUZK_HAVE_FLEET

/* The configuration's checks (--check-config and every start): the
 * connection string parses, a journal is set, the lease is long enough.
 * -1 after printing what is wrong. */
int fleet_check_config(const cuzkd_config_t *cfg);

/*
 * Makes the fleet of d (d->fleet, before the journal is replayed, so
 * that no end of a restored lease goes unheard). NULL with a message.
 */
fleet_t *fleet_new(struct cuzkd *d, char *err, size_t err_size);

/*
 * Joins: the restored leases are taken up, the database connected (the
 * schema migrated, the host's name locked and its row written) and the
 * thread started. A database that cannot be reached is tried again in
 * the background (the log says so); one that refuses this host (a newer
 * schema, its name taken) stops the start: -1 with a message.
 */
int fleet_start(fleet_t *f, char *err, size_t err_size);

/* SIGTERM: no more leases; the ones not started are given back. */
void fleet_drain(fleet_t *f);

/* After the engine drained: outcomes handed on while the database
 * answers (for a few seconds at most), the host's row marked stopped,
 * the threads joined. Then frees f. NULL is fine. */
void fleet_free(fleet_t *f);

/* The engine's job_ended hook, for the jobs that are leases. */
void fleet_job_ended(fleet_t *f, engine_job_t *job, engine_state_t state, const char *error);

/* The API (fleet_api.c): each answers resp itself. */
void fleet_submit(fleet_t *f, const char *id, const char *key, engine_priority_t priority,
                  uint32_t n, const engine_input_t *inputs, http_response_t *resp);
void fleet_job_get(fleet_t *f, const char *id, double wait, http_response_t *resp);
void fleet_job_cancel(fleet_t *f, const char *id, http_response_t *resp);
void fleet_jobs_list(fleet_t *f, const fleet_list_query_t *q, http_response_t *resp);
void fleet_answer(fleet_t *f, http_response_t *resp);

/*
 * After POST /v1/keys loaded name from path (newly: fresh), registers it
 * in the fleet with the digest of the file, or finds it registered with
 * the same digest. -1 after answering resp (409 key_conflict for another
 * file of that name; 503 without the database); the caller then evicts
 * a fresh key. *extra = the registration as JSON for the answer.
 */
int fleet_key_posted(fleet_t *f, const char *name, const char *path, json_t **extra,
                     http_response_t *resp);

/* DELETE /v1/keys evicted name: no more leases of it until it is loaded
 * again (when the fleet has work for it). */
void fleet_key_evicted(fleet_t *f, const char *name);

/* The status section and the metrics (fleet_status.c). */
json_t *fleet_status_json(fleet_t *f);
void fleet_metrics(fleet_t *f, void (*put)(void *ctx, const char *line), void *ctx);

#else

static inline int fleet_check_config(const cuzkd_config_t *cfg)
{
    if (!cfg->database[0])
        return 0;
    fprintf(stderr,
            "cuzkd: fleet = %s: this cuzkd was built without PostgreSQL (libpq-dev was "
            "missing at build time): --fleet is not available\n",
            cfg->database);
    return -1;
}

static inline fleet_t *fleet_new(struct cuzkd *d, char *err, size_t err_size)
{
    (void)d;
    snprintf(err, err_size,
             "this cuzkd was built without PostgreSQL (libpq-dev was missing at build time): "
             "--fleet is not available");
    return NULL;
}

/* Never reached: fleet_new fails, so no fleet_t exists. */
static inline int fleet_start(fleet_t *f, char *err, size_t err_size)
{
    (void)f;
    (void)err;
    (void)err_size;
    return -1;
}
static inline void fleet_drain(fleet_t *f)
{
    (void)f;
}
static inline void fleet_free(fleet_t *f)
{
    (void)f;
}
static inline void fleet_job_ended(fleet_t *f, engine_job_t *job, engine_state_t state,
                                   const char *error)
{
    (void)f;
    (void)job;
    (void)state;
    (void)error;
}
static inline void fleet_submit(fleet_t *f, const char *id, const char *key,
                                engine_priority_t priority, uint32_t n,
                                const engine_input_t *inputs, http_response_t *resp)
{
    (void)f;
    (void)id;
    (void)key;
    (void)priority;
    (void)n;
    (void)inputs;
    (void)resp;
}
static inline void fleet_job_get(fleet_t *f, const char *id, double wait, http_response_t *resp)
{
    (void)f;
    (void)id;
    (void)wait;
    (void)resp;
}
static inline void fleet_job_cancel(fleet_t *f, const char *id, http_response_t *resp)
{
    (void)f;
    (void)id;
    (void)resp;
}
static inline void fleet_jobs_list(fleet_t *f, const fleet_list_query_t *q, http_response_t *resp)
{
    (void)f;
    (void)q;
    (void)resp;
}
static inline void fleet_answer(fleet_t *f, http_response_t *resp)
{
    (void)f;
    (void)resp;
}
static inline int fleet_key_posted(fleet_t *f, const char *name, const char *path, json_t **extra,
                                   http_response_t *resp)
{
    (void)f;
    (void)name;
    (void)path;
    (void)extra;
    (void)resp;
    return 0;
}
static inline void fleet_key_evicted(fleet_t *f, const char *name)
{
    (void)f;
    (void)name;
}
static inline json_t *fleet_status_json(fleet_t *f)
{
    (void)f;
    return NULL;
}
static inline void fleet_metrics(fleet_t *f, void (*put)(void *ctx, const char *line), void *ctx)
{
    (void)f;
    (void)put;
    (void)ctx;
}

#endif

#endif
