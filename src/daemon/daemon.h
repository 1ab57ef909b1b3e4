/*
 * cuzkd's parts and what ties them together. Each part is its own file:
 *
 *   cuzkd.c    start-up, signals (handlers only set flags), the main loop,
 *              drain and exit
 *   config.c   the option table (INI file and flags)
 *   http.c     libmicrohttpd: sockets, body limit, token, error bodies
 *   api.c      the routes: /v1/keys, /v1/proofs, /v1/status, /v1/timeline,
 *              /metrics, /healthz, / (status.html, the status page)
 *   status.c   the status sections and the Prometheus text
 *   journal.c  accepted jobs and key registrations on disk, replayed at start
 *   log.c      leveled log lines, text or JSON
 *   paths.c    allowed directories
 *   base64.c   witness and proof bytes in JSON
 *   fleet*.c   the fleet: jobs in a PostgreSQL database shared by many
 *              hosts (fleet.h, docs/FLEET.md)
 *
 * The engine (src/engine) does the scheduling and the proving; cuzkd owns
 * no proving thread of its own.
 */
#ifndef CUZK_DAEMON_DAEMON_H
#define CUZK_DAEMON_DAEMON_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "daemon/config.h"
#include "daemon/fleet.h"
#include "daemon/http.h"
#include "daemon/journal.h"
#include "daemon/log.h"
#include "daemon/paths.h"
#include "engine/engine.h"
#include "engine/engine_cpu.h"

/* Upper bounds (seconds) of the job latency histogram, submission to end. */
#define CUZKD_LATENCY_BOUNDS                                                                       \
    {                                                                                              \
        0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800                 \
    }
enum { CUZKD_LATENCY_BUCKETS = 15, CUZKD_MAX_PARTITIONS = 1024 };

typedef struct cuzkd_latency {
    pthread_mutex_t lock;
    uint64_t buckets[CUZKD_LATENCY_BUCKETS + 1]; /* the last: above every bound */
    uint64_t count;
    double sum;
} cuzkd_latency_t;

typedef struct cuzkd {
    const cuzkd_config_t *cfg;
    engine_cpu_t *cpu;        /* the CPU backend (NULL when proving on GPUs) */
    struct engine_cuda *cuda; /* the CUDA backend (NULL: the CPU's) */
    char devices_desc[1024];  /* "cpu", or the GPUs' names */
    engine_backend_t backend;
    engine_hooks_t hooks;
    engine_t *engine;
    unsigned urgent_workers; /* of the engine's workers, those for critical partitions only */
    fleet_t *fleet;          /* NULL: not in a fleet */
    journal_t *journal;      /* NULL: no journal */
    paths_t allow;
    http_server_t *http;
    char bound[300]; /* the address actually listened on */
    /* Key registrations and evictions, with their journal records, one at
     * a time (so the journal's order is the registry's). */
    pthread_mutex_t keys_lock;
    atomic_bool draining;
    double started_wall;
    cuzkd_latency_t latency;
} cuzkd_t;

/* The status page (src/daemon/status.html), embedded by CMake. */
extern const unsigned char status_html[];
extern const size_t status_html_size;

/* The request handler given to http_start (api.c). */
void api_handle(void *ctx, const http_request_t *req, http_response_t *resp);

/* GET /v1/status and GET /metrics (status.c). */
void status_answer(cuzkd_t *d, http_response_t *resp);
void metrics_answer(cuzkd_t *d, http_response_t *resp);

/* Records one ended job's latency (the engine's job_ended hook). */
void cuzkd_latency_add(cuzkd_latency_t *l, double seconds);

/* Where worker ran: "cpu", or "cuda:N NAME" (cuzkd.c). */
void cuzkd_worker_device(const cuzkd_t *d, int worker, char *out, size_t size);

/* JSON pieces of the answers, shared by api.c and the fleet (api.c): a
 * time (null when 0), seconds per stage (the load left out), and the
 * result member of a done job from its partitions' results in order. */
json_t *api_time_json(double t);
json_t *api_timings_json(const double *seconds);
json_t *api_result_json(key_format_t format, uint32_t n, const engine_result_t *const *results);

#endif
