/*
 * The API's fleet side (fleet.h): with a fleet, POST /v1/proofs stores the
 * job in the database, GET and DELETE /v1/proofs/ID answer for any job of
 * the fleet, GET /v1/proofs lists the fleet's jobs, and GET /v1/fleet
 * shows the hosts, their leases, the queue and the keys. The answers have
 * the form of a lone cuzkd's (docs/DAEMON.md), with where each partition
 * ran added (host, device, attempts).
 *
 * Each request takes a connection from a small pool; without the
 * database it is answered 503 fleet_unavailable (Retry-After: 5), so that
 * nothing is accepted that is not stored. A long poll (?wait=) sleeps on
 * the notification of the job's end that the fleet's thread receives.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/fleet_impl.h"
#include "util/rng.h"

/* A long poll checks the job at least this often, in case its end's
 * notification was lost with a connection. */
#define FLEET_WAIT_RECHECK_S 5.0

/* ---- the pool ----------------------------------------------------------------------------------
 */

PGconn *fleet_pool_get(fleet_t *f, char *err, size_t err_size)
{
    pthread_mutex_lock(&f->lock);
    /* A connection older than the thread's latest may have died with the
     * database's restart: dropped, not tried. */
    while (f->n_pool) {
        size_t i = --f->n_pool;
        PGconn *c = f->pool[i];
        if (f->pool_gen[i] == f->generation && !fleet_db_broken(c)) {
            pthread_mutex_unlock(&f->lock);
            return c;
        }
        PQfinish(c);
    }
    bool connected = f->connected;
    snprintf(err, err_size, "%s", f->last_error);
    pthread_mutex_unlock(&f->lock);
    if (!connected) /* the thread keeps trying; a request does not wait for it */
        return NULL;
    return fleet_db_connect(f->d->cfg->database, f->name, err, err_size);
}

void fleet_pool_put(fleet_t *f, PGconn *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&f->lock);
    bool keep =
        f->n_pool < FLEET_POOL && !fleet_db_broken(c) && PQtransactionStatus(c) == PQTRANS_IDLE;
    if (keep) {
        f->pool_gen[f->n_pool] = f->generation;
        f->pool[f->n_pool++] = c;
    }
    pthread_mutex_unlock(&f->lock);
    if (!keep)
        PQfinish(c);
}

void fleet_pool_close(fleet_t *f)
{
    for (size_t i = 0; i < f->n_pool; i++)
        PQfinish(f->pool[i]);
    f->n_pool = 0;
}

void fleet_unavailable(http_response_t *resp, const char *why)
{
    http_error(resp, 503, "fleet_unavailable", "the fleet's database is not reachable: %s",
               why[0] ? why : "not connected yet");
    resp->retry_after = 5;
}

/* A failed statement on c: 503 when the connection broke, else 500. */
static void fleet_db_failed(http_response_t *resp, PGconn *c, const char *err)
{
    if (fleet_db_broken(c))
        fleet_unavailable(resp, err);
    else
        http_error(resp, 500, "internal", "%s", err);
}

void fleet_waiters_wake(fleet_t *f, const char *id)
{
    pthread_mutex_lock(&f->lock);
    for (fleet_waiter_t *w = f->waiters; w; w = w->next)
        if (!id || !strcmp(w->id, id))
            w->woken = true;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->lock);
}

/* ---- submit
 * -------------------------------------------------------------------------------------- */

void fleet_submit(fleet_t *f, const char *id, const char *key, engine_priority_t priority,
                  uint32_t n, const engine_input_t *inputs, http_response_t *resp)
{
    fleet_db_input_t *in = calloc(n, sizeof *in);
    char drawn[17] = "", err[FLEET_ERR_MAX] = "";
    if (!in) {
        http_error(resp, 500, "internal", "out of memory");
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        const engine_input_t *x = &inputs[i];
        if (x->kind == ENGINE_INPUT_WTNS_BYTES)
            in[i] = (fleet_db_input_t){.wtns = x->bytes, .wtns_len = x->len};
        else if (x->kind == ENGINE_INPUT_ASGN_PATH)
            in[i] = (fleet_db_input_t){.assignment_path = x->path};
        else
            in[i] = (fleet_db_input_t){.witness_path = x->path};
    }
    PGconn *c = fleet_pool_get(f, err, sizeof err);
    fleet_db_submit_rc_t rc = FLEET_ERROR;
    /* A drawn id that is taken (2^-64 a pair) is drawn again. */
    for (int tries = 0; c && tries < 4; tries++) {
        if (!id) {
            uint64_t v = 0;
            random_bytes(NULL, &v, sizeof v);
            snprintf(drawn, sizeof drawn, "%016llx", (unsigned long long)v);
        }
        rc = fleet_db_submit(c, id ? id : drawn, key, engine_priority_name(priority), n, in,
                             f->name, f->d->cfg->max_jobs, err, sizeof err);
        if (id || rc != FLEET_EXISTS)
            break;
    }
    const char *the_id = id ? id : drawn;
    switch (rc) {
    case FLEET_SUBMITTED:
        log_event(LOG_INFO, "job.accepted", the_id, key,
                  "job %s accepted into the fleet (key %s, %u partition%s, priority %s)", the_id,
                  key, n, n == 1 ? "" : "s", engine_priority_name(priority));
        http_json(resp, 202, json_pack("{s:s}", "id", the_id));
        break;
    case FLEET_EXISTS:
        http_json(resp, 200, json_pack("{s:s, s:b}", "id", the_id, "existing", 1));
        break;
    case FLEET_NOKEY:
        http_error(resp, 404, "unknown_key",
                   "no key named '%s' in the fleet (POST /v1/keys on any host first)", key);
        break;
    case FLEET_MISMATCH:
        http_error(resp, 400, "invalid_request",
                   "key '%s' does not take this input: a zkey takes witness path or wtns_base64, "
                   "a params key takes assignment_path",
                   key);
        break;
    case FLEET_FULL:
        http_error(resp, 429, "queue_full",
                   "the fleet's queue holds its maximum of jobs (max_jobs); retry later");
        resp->retry_after = 1;
        break;
    case FLEET_ERROR:
        if (c)
            fleet_db_failed(resp, c, err);
        else
            fleet_unavailable(resp, err);
        break;
    }
    fleet_pool_put(f, c);
    free(in);
}

/* ---- one job
 * ------------------------------------------------------------------------------------- */

static json_t *fleet_time(const PGresult *r, int row, int col)
{
    return api_time_json(fleet_db_null(r, row, col) ? 0 : fleet_db_real(r, row, col));
}

/* A partition's state in the API's words: a lease is running. */
static const char *fleet_part_state(const char *s)
{
    return !strcmp(s, "leased") ? "running" : s;
}

/* The partitions' JSON; their seconds per stage added into sum. */
static json_t *fleet_parts_json(const PGresult *p, double *sum)
{
    json_t *parts = json_array();
    for (int i = 0; parts && i < PQntuples(p); i++) {
        double sec[ENGINE_STAGES] = {0};
        json_t *t = json_loads(fleet_db_text(p, i, FLEET_PART_TIMINGS), 0, NULL);
        for (int s = 0; s < ENGINE_STAGES; s++) {
            sec[s] = json_real_value(json_object_get(t, engine_stage_name((engine_stage_t)s)));
            sum[s] += sec[s];
        }
        json_decref(t);
        const char *err = fleet_db_text(p, i, FLEET_PART_ERROR);
        json_array_append_new(
            parts,
            json_pack("{s:I, s:s, s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o}", "index",
                      (json_int_t)fleet_db_int(p, i, FLEET_PART_IDX), "state",
                      fleet_part_state(fleet_db_text(p, i, FLEET_PART_STATE)), "worker",
                      fleet_db_null(p, i, FLEET_PART_WORKER)
                          ? json_null()
                          : json_integer(fleet_db_int(p, i, FLEET_PART_WORKER)),
                      "host",
                      fleet_db_null(p, i, FLEET_PART_HOST)
                          ? (fleet_db_null(p, i, FLEET_PART_LEASE_HOST)
                                 ? json_null()
                                 : json_string(fleet_db_text(p, i, FLEET_PART_LEASE_HOST)))
                          : json_string(fleet_db_text(p, i, FLEET_PART_HOST)),
                      "device",
                      fleet_db_null(p, i, FLEET_PART_DEVICE)
                          ? json_null()
                          : json_string(fleet_db_text(p, i, FLEET_PART_DEVICE)),
                      "started_at", fleet_time(p, i, FLEET_PART_STARTED_AT), "finished_at",
                      fleet_time(p, i, FLEET_PART_FINISHED_AT), "attempts",
                      (json_int_t)fleet_db_int(p, i, FLEET_PART_ATTEMPTS), "error",
                      err[0] ? json_string(err) : json_null(), "timings", api_timings_json(sec)));
    }
    return parts;
}

/* The result of a done job from its partitions' rows, in the form of a
 * lone cuzkd's (api_result_json). */
static json_t *fleet_result_json(const PGresult *p, key_format_t format)
{
    int n = PQntuples(p);
    engine_result_t *res = calloc(n ? (size_t)n : 1, sizeof *res);
    const engine_result_t **ptr = calloc(n ? (size_t)n : 1, sizeof(engine_result_t *));
    json_t *out = NULL;
    for (int i = 0; res && ptr && i < n; i++) {
        res[i].proof_json = (char *)fleet_db_text(p, i, FLEET_PART_PROOF_JSON);
        res[i].public_json = (char *)fleet_db_text(p, i, FLEET_PART_PUBLIC_JSON);
        if (!fleet_db_null(p, i, FLEET_PART_PROOF_BYTES))
            res[i].proof_bytes = PQunescapeBytea(
                (const unsigned char *)PQgetvalue(p, i, FLEET_PART_PROOF_BYTES), &res[i].proof_len);
        ptr[i] = &res[i];
    }
    if (res && ptr)
        out = api_result_json(format, (uint32_t)n, ptr);
    for (int i = 0; res && i < n; i++)
        PQfreemem(res[i].proof_bytes);
    free(res);
    free(ptr);
    return out;
}

static json_t *fleet_job_json(const char *id, const PGresult *j, const PGresult *p)
{
    const char *state = fleet_db_text(j, 0, FLEET_JOB_STATE);
    const char *proves_as = fleet_db_text(j, 0, FLEET_JOB_PROVES_AS);
    key_format_t format = !strcmp(proves_as, "params") ? KEY_FORMAT_PARAMS : KEY_FORMAT_ZKEY;
    double sum[ENGINE_STAGES] = {0};
    json_t *parts = fleet_parts_json(p, sum);
    json_t *timings = api_timings_json(sum);
    double submitted = fleet_db_real(j, 0, FLEET_JOB_SUBMITTED_AT);
    double started = fleet_db_real(j, 0, FLEET_JOB_STARTED_AT);
    double finished = fleet_db_real(j, 0, FLEET_JOB_FINISHED_AT);
    double now = fleet_db_real(j, 0, FLEET_JOB_NOW);
    if (timings) {
        json_object_set_new(timings, "queue", json_real((started > 0 ? started : now) - submitted));
        json_object_set_new(timings, "total",
                            finished > 0 ? json_real(finished - submitted) : json_null());
    }
    bool done = !strcmp(state, "done");
    json_t *result = done ? fleet_result_json(p, format) : NULL;
    const char *err = fleet_db_text(j, 0, FLEET_JOB_ERROR);
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:{s:I, s:I}, s:o, s:o, s:o, s:o, "
                     "s:s}",
                     "id", id, "key", fleet_db_text(j, 0, FLEET_JOB_KEY), "format",
                     proves_as[0] ? proves_as : "unknown", "priority",
                     fleet_db_text(j, 0, FLEET_JOB_PRIORITY), "state", state, "submitted_at",
                     api_time_json(submitted), "started_at", api_time_json(started), "finished_at",
                     api_time_json(finished), "progress", "done",
                     (json_int_t)fleet_db_int(j, 0, FLEET_JOB_DONE), "total",
                     (json_int_t)fleet_db_int(j, 0, FLEET_JOB_PARTITIONS), "partitions", parts,
                     "timings", timings, "result", result ? result : json_null(), "error",
                     err[0] ? json_string(err) : json_null(), "submitted_by",
                     fleet_db_text(j, 0, FLEET_JOB_SUBMITTED_BY));
}

static bool fleet_state_ended(const char *s)
{
    return !strcmp(s, "done") || !strcmp(s, "failed") || !strcmp(s, "cancelled");
}

/* Waits until job id has ended or wait seconds passed, on c. -1 after
 * answering resp (the database). */
static int fleet_wait(fleet_t *f, PGconn *c, const char *id, double wait, http_response_t *resp)
{
    fleet_waiter_t w = {.id = id};
    pthread_mutex_lock(&f->lock);
    w.next = f->waiters;
    /* w stays listed only until this function unlists it, below. */
    // cppcheck-suppress autoVariables
    f->waiters = &w;
    pthread_mutex_unlock(&f->lock);
    double deadline = engine_now() + wait;
    char state[32], err[FLEET_ERR_MAX] = "";
    int rc = 0;
    for (;;) {
        if (fleet_db_job_state(c, id, state, sizeof state, err, sizeof err) != 0) {
            fleet_db_failed(resp, c, err);
            rc = -1;
            break;
        }
        double left = deadline - engine_now();
        if (!state[0] || fleet_state_ended(state) || left <= 0)
            break;
        double nap = left < FLEET_WAIT_RECHECK_S ? left : FLEET_WAIT_RECHECK_S;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        double when = (double)ts.tv_sec + ts.tv_nsec * 1e-9 + nap;
        ts.tv_sec = (time_t)when;
        ts.tv_nsec = (long)((when - floor(when)) * 1e9);
        pthread_mutex_lock(&f->lock);
        while (!w.woken && !f->stop && !atomic_load(&f->d->draining) &&
               pthread_cond_timedwait(&f->cv, &f->lock, &ts) == 0)
            ;
        bool stop = f->stop || atomic_load(&f->d->draining);
        w.woken = false;
        pthread_mutex_unlock(&f->lock);
        if (stop)
            break;
    }
    pthread_mutex_lock(&f->lock);
    for (fleet_waiter_t **p = &f->waiters; *p; p = &(*p)->next)
        if (*p == &w) {
            *p = w.next;
            break;
        }
    pthread_mutex_unlock(&f->lock);
    return rc;
}

/* Answers job id as GET /v1/proofs/ID does (status: 200). */
static void fleet_job_answer(PGconn *c, const char *id, http_response_t *resp)
{
    char err[FLEET_ERR_MAX] = "";
    PGresult *j, *p;
    /* The results are read only for a done job; the first read says. */
    char state[32];
    if (fleet_db_job_state(c, id, state, sizeof state, err, sizeof err) != 0 ||
        fleet_db_job(c, id, !strcmp(state, "done"), &j, &p, err, sizeof err) != 0) {
        fleet_db_failed(resp, c, err);
        return;
    }
    if (!j) {
        http_error(resp, 404, "unknown_job", "no job with id '%s' in the fleet", id);
        return;
    }
    json_t *o = fleet_job_json(id, j, p);
    PQclear(j);
    PQclear(p);
    if (o)
        http_json(resp, 200, o);
    else
        http_error(resp, 500, "internal", "out of memory");
}

void fleet_job_get(fleet_t *f, const char *id, double wait, http_response_t *resp)
{
    char err[FLEET_ERR_MAX] = "";
    PGconn *c = fleet_pool_get(f, err, sizeof err);
    if (!c) {
        fleet_unavailable(resp, err);
        return;
    }
    if (wait <= 0 || fleet_wait(f, c, id, wait, resp) == 0)
        fleet_job_answer(c, id, resp);
    fleet_pool_put(f, c);
}

void fleet_job_cancel(fleet_t *f, const char *id, http_response_t *resp)
{
    char err[FLEET_ERR_MAX] = "", state[32];
    bool cancelled = false;
    PGconn *c = fleet_pool_get(f, err, sizeof err);
    if (!c) {
        fleet_unavailable(resp, err);
        return;
    }
    if (fleet_db_cancel(c, id, &cancelled, state, sizeof state, err, sizeof err) != 0)
        fleet_db_failed(resp, c, err);
    else if (!state[0])
        http_error(resp, 404, "unknown_job", "no job with id '%s' in the fleet", id);
    else if (!cancelled)
        http_error(resp, 409, "job_ended", "job '%s' has already ended (%s)", id, state);
    else {
        log_event(LOG_INFO, "job.cancelled", id, NULL, "job %s cancelled in the fleet", id);
        fleet_job_answer(c, id, resp);
    }
    fleet_pool_put(f, c);
}

/* ---- the listing
 * ------------------------------------------------------------------------------------ */

void fleet_jobs_list(fleet_t *f, const fleet_list_query_t *q, http_response_t *resp)
{
    char err[FLEET_ERR_MAX] = "";
    PGconn *c = fleet_pool_get(f, err, sizeof err);
    if (!c) {
        fleet_unavailable(resp, err);
        return;
    }
    PGresult *r;
    uint64_t matched;
    /* One more than the page: whether there is a next one. */
    if (fleet_db_jobs_list(c, q->state, q->cursor, (unsigned)q->limit + 1, &r, &matched, err,
                           sizeof err) != 0) {
        fleet_db_failed(resp, c, err);
        fleet_pool_put(f, c);
        return;
    }
    fleet_pool_put(f, c);
    int n = PQntuples(r);
    bool more = (uint64_t)n > q->limit;
    int shown = more ? (int)q->limit : n;
    json_t *jobs = json_array();
    for (int i = 0; jobs && i < shown; i++) {
        const char *e = fleet_db_text(r, i, 11);
        json_array_append_new(
            jobs, json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:o, s:o, s:o, s:f, s:o}", "id",
                            fleet_db_text(r, i, 0), "state", fleet_db_text(r, i, 1), "key",
                            fleet_db_text(r, i, 2), "priority", fleet_db_text(r, i, 3),
                            "partitions", (json_int_t)fleet_db_int(r, i, 4), "partitions_done",
                            (json_int_t)fleet_db_int(r, i, 5), "partitions_running",
                            (json_int_t)fleet_db_int(r, i, 6), "submitted_at", fleet_time(r, i, 7),
                            "started_at", fleet_time(r, i, 8), "finished_at", fleet_time(r, i, 9),
                            "age_seconds", fleet_db_real(r, i, 10), "error",
                            e[0] ? json_string(e) : json_null()));
    }
    json_t *next = json_null(), *next_cursor = json_null();
    if (more) {
        char url[160];
        const char *cur = fleet_db_text(r, shown - 1, 12);
        snprintf(url, sizeof url, "/v1/proofs?%s%s%slimit=%llu&cursor=%s", q->state ? "state=" : "",
                 q->state ? q->state : "", q->state ? "&" : "", (unsigned long long)q->limit, cur);
        next = json_string(url);
        next_cursor = json_string(cur);
    }
    PQclear(r);
    http_json(resp, 200,
              json_pack("{s:o, s:I, s:I, s:o, s:o}", "jobs", jobs, "count", (json_int_t)shown,
                        "matched", (json_int_t)matched, "next_cursor", next_cursor, "next", next));
}
