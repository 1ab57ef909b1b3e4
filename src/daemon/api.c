/*
 * cuzkd's routes (docs/DAEMON.md has the reference):
 *
 *   POST   /v1/keys            load a key, or answer that it is loaded
 *   GET    /v1/keys            the keys: size, residency tier, use count
 *   GET    /v1/keys/NAME       one key
 *   DELETE /v1/keys/NAME       evict (409 while jobs use it)
 *   POST   /v1/proofs          submit a job: 202 {"id"}
 *   GET    /v1/proofs          the jobs, newest first (?state, ?limit, ?cursor)
 *   GET    /v1/proofs/ID       the job (?wait=SECONDS long-polls)
 *   DELETE /v1/proofs/ID       cancel
 *   GET    /v1/status          sections: build, server, keys, queue, devices,
 *                              memory, counters, journal, fleet
 *   GET    /v1/fleet           the fleet: hosts, leases, queue, keys (fleet.h)
 *   GET    /v1/timeline        Chrome trace JSON of recent work
 *   GET    /metrics            Prometheus text
 *   GET    /healthz            200 while serving, 503 while draining
 *   GET    /                   the status page (status.html)
 *
 * Every handler runs on its connection's thread; the slow ones (a key
 * load, a long poll) hold up no one else. In a fleet (d->fleet), the jobs
 * are the fleet's: the routes of /v1/proofs parse and check what they are
 * given here, then ask fleet_api.c instead of the engine.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/api_request.h"
#include "daemon/base64.h"
#include "daemon/daemon.h"

/* A listing's page: API_LIST_DEFAULT jobs unless ?limit asks for another
 * number, at most API_LIST_MAX (a page of 1000 is ~250 KB of JSON). */
enum { API_ERR_MAX = 1024, API_PATH_MAX = 4096, API_LIST_DEFAULT = 100, API_LIST_MAX = 1000 };

/* ---- small helpers ------------------------------------------------------------- */

/* The rest of path after prefix when it is one non-empty segment, else NULL. */
static const char *api_segment(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(path, prefix, n) != 0 || !path[n] || strchr(path + n, '/'))
        return NULL;
    return path + n;
}

json_t *api_time_json(double t)
{
    return t > 0 ? json_real(t) : json_null();
}

static void api_method_not_allowed(http_response_t *resp, const char *allow)
{
    http_error(resp, 405, "method_not_allowed", "use %s", allow);
    resp->allow = allow;
}

/* Resolves a client path against the allowed directories; answers 400 or
 * 403 and returns -1 when it fails. */
static int api_path(cuzkd_t *d, const char *path, char *resolved, const char *what,
                    http_response_t *resp)
{
    char err[API_ERR_MAX];
    paths_rc_t rc = paths_resolve(&d->allow, path, resolved, API_PATH_MAX, err, sizeof err);
    if (rc == PATHS_OK)
        return 0;
    if (rc == PATHS_EFORBIDDEN)
        http_error(resp, 403, "path_not_allowed", "%s: %s", what, err);
    else
        http_error(resp, 400, "bad_path", "%s: %s", what, err);
    return -1;
}

static bool api_draining(cuzkd_t *d, http_response_t *resp)
{
    if (!atomic_load(&d->draining))
        return false;
    http_error(resp, 503, "draining", "cuzkd is shutting down and accepts no new work");
    resp->retry_after = 5;
    return true;
}

/* ---- keys ------------------------------------------------------------------------ */

static json_t *api_key_json(const engine_key_info_t *k)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:I, s:s, s:I, s:I, s:o, s:f, s:o}", "name", k->name,
                     "path", k->path ? k->path : "", "format", engine_key_format_name(k->format),
                     "proves_as", engine_key_format_name(k->proves_as), "bytes",
                     (json_int_t)k->bytes, "tier", k->tier, "use_count", (json_int_t)k->users,
                     "proofs", (json_int_t)k->proofs, "loaded_at", api_time_json(k->loaded_at),
                     "load_seconds", k->load_seconds, "last_used", api_time_json(k->last_used));
}

/* Answers status with the key name as the registry has it (404 if gone),
 * with extra (stolen; NULL: none) as its member "fleet". */
static void api_key_answer(cuzkd_t *d, const char *name, unsigned status, json_t *extra,
                           http_response_t *resp)
{
    engine_key_info_t *info;
    size_t n = engine_keys_info(d->engine, &info);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(info[i].name, name)) {
            json_t *k = api_key_json(&info[i]);
            if (k && extra)
                json_object_set_new(k, "fleet", extra);
            else
                json_decref(extra);
            http_json(resp, status, k);
            engine_keys_info_free(info, n);
            return;
        }
    engine_keys_info_free(info, n);
    json_decref(extra);
    http_error(resp, 404, "unknown_key", "no key named '%s'", name);
}

static void api_keys_list(cuzkd_t *d, http_response_t *resp)
{
    engine_key_info_t *info;
    size_t n = engine_keys_info(d->engine, &info);
    json_t *keys = json_array();
    for (size_t i = 0; keys && i < n; i++)
        json_array_append_new(keys, api_key_json(&info[i]));
    engine_keys_info_free(info, n);
    http_json(resp, 200, json_pack("{s:o}", "keys", keys));
}

static void api_key_post(cuzkd_t *d, const http_request_t *req, http_response_t *resp)
{
    if (api_draining(d, resp))
        return;
    api_key_request_t r;
    if (api_key_request_parse(&r, req->body, req->body_len, resp))
        return;
    const char *name = r.name;
    key_format_t f = r.format;
    char resolved[API_PATH_MAX];
    if (api_path(d, r.path, resolved, "path", resp))
        goto out;

    char err[API_ERR_MAX] = "";
    bool loaded = false;
    cuzk_status_t st;
    pthread_mutex_lock(&d->keys_lock);
    engine_rc_t rc = engine_key_load(d->engine, name, f, resolved, &loaded, &st, err, sizeof err);
    if (rc == ENGINE_OK && !loaded && d->journal &&
        journal_key_add(d->journal, name, f, resolved, err, sizeof err)) {
        engine_key_evict(d->engine, name);
        rc = ENGINE_ENOMEM;
    }
    pthread_mutex_unlock(&d->keys_lock);
    json_t *extra = NULL;
    if (rc == ENGINE_OK && d->fleet &&
        fleet_key_posted(d->fleet, name, resolved, &extra, resp) != 0) {
        /* Not registered in the fleet (answered): a key loaded just now goes again. */
        if (!loaded) {
            pthread_mutex_lock(&d->keys_lock);
            if (engine_key_evict(d->engine, name) == ENGINE_OK && d->journal)
                journal_key_remove(d->journal, name, err, sizeof err);
            pthread_mutex_unlock(&d->keys_lock);
        }
        goto out;
    }
    switch (rc) {
    case ENGINE_OK:
        if (!loaded)
            log_event(LOG_INFO, "key.loaded", NULL, name, "key %s loaded from %s", name, resolved);
        api_key_answer(d, name, loaded ? 200 : 201, extra, resp);
        break;
    case ENGINE_EEXIST: http_error(resp, 409, "key_conflict", "%s", err); break;
    case ENGINE_ELOAD:
        /* The reader's message says what is wrong with which file; the
         * status's generic words only stand in for a missing one. */
        log_event(LOG_WARN, "key.load_failed", NULL, name, "key %s not loaded: %s", name,
                  err[0] ? err : cuzk_strerror(st));
        http_error(resp, 400, "bad_key", "%s", err[0] ? err : cuzk_strerror(st));
        break;
    case ENGINE_EBUDGET: http_error(resp, 409, "memory_budget", "%s", err); break;
    default: http_error(resp, 500, "internal", "%s", err[0] ? err : engine_rc_name(rc)); break;
    }
out:
    api_key_request_free(&r);
}

static void api_key_delete(cuzkd_t *d, const char *name, http_response_t *resp)
{
    char err[API_ERR_MAX] = "";
    pthread_mutex_lock(&d->keys_lock);
    engine_rc_t rc = engine_key_evict(d->engine, name);
    int jrc =
        rc == ENGINE_OK && d->journal ? journal_key_remove(d->journal, name, err, sizeof err) : 0;
    pthread_mutex_unlock(&d->keys_lock);
    if (rc == ENGINE_ENOKEY)
        http_error(resp, 404, "unknown_key", "no key named '%s'", name);
    else if (rc == ENGINE_EBUSY)
        http_error(resp, 409, "key_in_use", "key '%s' is used by queued or running jobs", name);
    else if (jrc != 0)
        http_error(resp, 500, "internal", "the key was evicted but %s", err);
    else {
        if (d->fleet)
            fleet_key_evicted(d->fleet, name);
        log_event(LOG_INFO, "key.evicted", NULL, name, "key %s evicted", name);
        http_json(resp, 200, json_pack("{s:s, s:b}", "name", name, "evicted", 1));
    }
}

static void api_keys(cuzkd_t *d, const http_request_t *req, http_response_t *resp)
{
    const char *name = api_segment(req->path, "/v1/keys/");
    if (!strcmp(req->path, "/v1/keys")) {
        if (!strcmp(req->method, "POST"))
            api_key_post(d, req, resp);
        else if (!strcmp(req->method, "GET"))
            api_keys_list(d, resp);
        else
            api_method_not_allowed(resp, "GET, POST");
    } else if (name) {
        if (!strcmp(req->method, "GET"))
            api_key_answer(d, name, 200, NULL, resp);
        else if (!strcmp(req->method, "DELETE"))
            api_key_delete(d, name, resp);
        else
            api_method_not_allowed(resp, "GET, DELETE");
    } else {
        http_error(resp, 404, "not_found", "no route %s", req->path);
    }
}

/* ---- jobs ------------------------------------------------------------------------ */

/* A JSON value from text that the engine made (NULL for none). */
static json_t *api_parse(const char *text)
{
    return text ? json_loads(text, 0, NULL) : NULL;
}

/* {"proof": proof.json's object, "public": public.json's array} of one
 * zkey partition (the engine gives every partition of a done job its
 * result; null members if one were missing). */
static json_t *api_pair(const engine_result_t *r)
{
    json_t *proof = r ? api_parse(r->proof_json) : NULL,
           *pub = r ? api_parse(r->public_json) : NULL;
    return json_pack("{s:o, s:o}", "proof", proof ? proof : json_null(), "public",
                     pub ? pub : json_null());
}

json_t *api_result_json(key_format_t format, uint32_t n, const engine_result_t *const *results)
{
    if (format == KEY_FORMAT_PARAMS) {
        unsigned char *all = malloc((size_t)n * 192 + 1);
        json_t *pubs = json_array();
        size_t len = 0;
        for (uint32_t i = 0; all && i < n; i++) {
            const engine_result_t *r = results[i];
            if (!r || !r->proof_bytes || r->proof_len != 192)
                continue;
            memcpy(all + len, r->proof_bytes, r->proof_len);
            len += r->proof_len;
            json_array_append_new(pubs, api_parse(r->public_json));
        }
        char *b64 = NULL;
        json_t *out = NULL;
        if (all && base64_encode(&b64, all, len) == 0)
            out = json_pack("{s:s, s:o}", "proof", b64, "public",
                            n == 1 ? json_incref(json_array_get(pubs, 0)) : json_incref(pubs));
        free(b64);
        free(all);
        json_decref(pubs);
        return out;
    }
    if (n == 1)
        return api_pair(results[0]);
    json_t *proofs = json_array();
    for (uint32_t i = 0; proofs && i < n; i++)
        json_array_append_new(proofs, api_pair(results[i]));
    return json_pack("{s:o}", "proofs", proofs);
}

json_t *api_timings_json(const double *seconds)
{
    json_t *t = json_object();
    for (int s = 0; t && s < ENGINE_STAGES; s++)
        if (s != ENGINE_STAGE_LOAD)
            json_object_set_new(t, engine_stage_name((engine_stage_t)s), json_real(seconds[s]));
    return t;
}

/* The job's JSON: id, key, format, priority, state, times, partitions,
 * timings, result, error. NULL on ENOMEM. */
static json_t *api_job_json(cuzkd_t *d, engine_job_t *job)
{
    engine_job_info_t info;
    if (engine_job_info(d->engine, job, &info) != ENGINE_OK)
        return NULL;
    double sum[ENGINE_STAGES] = {0};
    json_t *parts = json_array();
    for (uint32_t i = 0; parts && i < info.n_partitions; i++) {
        const engine_partition_info_t *p = &info.partitions[i];
        for (int s = 0; s < ENGINE_STAGES; s++)
            sum[s] += p->seconds[s];
        json_array_append_new(parts,
                              json_pack("{s:i, s:s, s:o, s:o, s:o, s:o}", "index", (int)i, "state",
                                        engine_state_name(p->state), "worker",
                                        p->worker >= 0 ? json_integer(p->worker) : json_null(),
                                        "started_at", api_time_json(p->started_at), "finished_at",
                                        api_time_json(p->finished_at), "timings",
                                        api_timings_json(p->seconds)));
    }
    json_t *timings = api_timings_json(sum);
    if (timings) {
        json_object_set_new(timings, "queue", json_real(info.queue_seconds));
        json_object_set_new(timings, "total",
                            info.finished_at > 0 ? json_real(info.finished_at - info.submitted_at)
                                                 : json_null());
    }
    key_format_t format = engine_job_format(job);
    json_t *result = NULL;
    if (info.state == ENGINE_DONE) {
        const engine_result_t **res =
            calloc(info.n_partitions ? info.n_partitions : 1, sizeof(engine_result_t *));
        for (uint32_t i = 0; res && i < info.n_partitions; i++)
            res[i] = info.partitions[i].result;
        result = res ? api_result_json(format, info.n_partitions, res) : NULL;
        free(res);
    }
    json_t *j = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:{s:i, s:i}, s:o, s:o, s:o, s:o}", "id",
        engine_job_id(job), "key", engine_job_key(job), "format", engine_key_format_name(format),
        "priority", engine_priority_name(info.priority), "state", engine_state_name(info.state),
        "submitted_at", api_time_json(info.submitted_at), "started_at",
        api_time_json(info.started_at), "finished_at", api_time_json(info.finished_at), "progress",
        "done", (int)info.n_done, "total", (int)info.n_partitions, "partitions", parts, "timings",
        timings, "result", result ? result : json_null(), "error",
        info.error ? json_string(info.error) : json_null());
    engine_job_info_free(&info);
    return j;
}

/* Answers a refusal of engine_job_submit. */
static void api_submit_refused(engine_rc_t rc, const char *key, http_response_t *resp)
{
    switch (rc) {
    case ENGINE_ENOKEY:
        http_error(resp, 404, "unknown_key", "no key named '%s' (POST /v1/keys first)", key);
        break;
    case ENGINE_EMISMATCH:
        http_error(resp, 400, "invalid_request",
                   "key '%s' does not take this input: a zkey takes witness path or wtns_base64, "
                   "a params key takes assignment_path",
                   key);
        break;
    case ENGINE_EFULL:
        http_error(resp, 429, "queue_full", "the queue holds its maximum of jobs; retry later");
        resp->retry_after = 1;
        break;
    case ENGINE_EDRAINING:
        http_error(resp, 503, "draining", "cuzkd is shutting down and accepts no new work");
        resp->retry_after = 5;
        break;
    case ENGINE_EINVAL: http_error(resp, 400, "invalid_request", "invalid job"); break;
    default: http_error(resp, 500, "internal", "%s", engine_rc_name(rc)); break;
    }
}

static void api_proof_post(cuzkd_t *d, const http_request_t *req, http_response_t *resp)
{
    if (api_draining(d, resp))
        return;
    api_proof_request_t r;
    if (api_proof_request_parse(&r, req->body, req->body_len, resp))
        return;
    /* The resolved paths, each as long as it is: a body of short paths
     * costs little more memory than its own size. */
    engine_input_t *in = calloc(r.n, sizeof *in);
    char **paths = calloc(r.n, sizeof *paths);
    if (!in || !paths) {
        http_error(resp, 500, "internal", "out of memory");
        goto out;
    }
    for (size_t i = 0; i < r.n; i++) {
        const api_proof_input_t *x = &r.inputs[i];
        if (x->kind == ENGINE_INPUT_WTNS_BYTES) {
            in[i] = (engine_input_t){.kind = x->kind, .bytes = x->bytes, .len = x->len};
            continue;
        }
        char where[64];
        snprintf(where, sizeof where, "witness[%zu].%s", i,
                 x->kind == ENGINE_INPUT_WTNS_PATH ? "path" : "assignment_path");
        char resolved[API_PATH_MAX];
        if (api_path(d, x->path, resolved, where, resp))
            goto out;
        if (!(paths[i] = strdup(resolved))) {
            http_error(resp, 500, "internal", "out of memory");
            goto out;
        }
        in[i] = (engine_input_t){.kind = x->kind, .path = paths[i]};
    }

    if (d->fleet) {
        fleet_submit(d->fleet, r.id, r.key, r.priority, (uint32_t)r.n, in, resp);
        goto out;
    }
    engine_job_spec_t spec = {
        .id = r.id, .key = r.key, .priority = r.priority, .n_inputs = (uint32_t)r.n, .inputs = in};
    engine_job_t *job = NULL;
    engine_rc_t rc = engine_job_submit(d->engine, &spec, &job);
    if (rc == ENGINE_EEXIST) {
        http_json(resp, 200, json_pack("{s:s, s:b}", "id", engine_job_id(job), "existing", 1));
        engine_job_unref(d->engine, job);
        goto out;
    }
    if (rc != ENGINE_OK) {
        api_submit_refused(rc, r.key, resp);
        goto out;
    }
    char err[API_ERR_MAX];
    if (d->journal &&
        journal_job_submit(d->journal, job, r.priority, engine_wall(), err, sizeof err) != 0) {
        engine_job_abort(d->engine, job);
        engine_job_unref(d->engine, job);
        http_error(resp, 500, "journal", "the job was not accepted: %s", err);
        goto out;
    }
    log_event(LOG_INFO, "job.accepted", engine_job_id(job), r.key,
              "job %s accepted (key %s, %zu partition%s, priority %s)", engine_job_id(job), r.key,
              r.n, r.n == 1 ? "" : "s", engine_priority_name(r.priority));
    engine_job_start(d->engine, job);
    http_json(resp, 202, json_pack("{s:s}", "id", engine_job_id(job)));
    engine_job_unref(d->engine, job);
out:
    for (size_t i = 0; paths && i < r.n; i++)
        free(paths[i]);
    free(paths);
    free(in);
    api_proof_request_free(&r);
}

/* ?wait=SECONDS as *s, at most max_wait (0 when absent). -1 after
 * answering 400. */
static int api_wait_seconds(cuzkd_t *d, const http_request_t *req, double *s, http_response_t *resp)
{
    const char *wait = http_query(req, "wait");
    *s = 0;
    if (!wait)
        return 0;
    char *end;
    double v = strtod(wait, &end);
    if (end == wait || *end || !(v >= 0) || isinf(v)) {
        http_error(resp, 400, "invalid_request", "wait: expected seconds, not '%s'", wait);
        return -1;
    }
    *s = v < d->cfg->max_wait ? v : d->cfg->max_wait;
    return 0;
}

static void api_proof_get(cuzkd_t *d, const http_request_t *req, engine_job_t *job,
                          http_response_t *resp)
{
    double wait;
    if (api_wait_seconds(d, req, &wait, resp) != 0)
        return;
    if (wait > 0)
        engine_job_wait(d->engine, job, wait);
    json_t *j = api_job_json(d, job);
    if (j)
        http_json(resp, 200, j);
    else
        http_error(resp, 500, "internal", "out of memory");
}

/* A whole number from 1 to max (the limit) or from 1 up (the cursor) in
 * query argument name; def when absent. -1 after answering 400. */
static int api_query_count(const http_request_t *req, const char *name, uint64_t def, uint64_t max,
                           uint64_t *out, http_response_t *resp)
{
    const char *v = http_query(req, name);
    *out = def;
    if (!v)
        return 0;
    char *end;
    unsigned long long n = v[0] >= '0' && v[0] <= '9' ? strtoull(v, &end, 10) : 0;
    if (n == 0 || *end || n > max) {
        http_error(resp, 400, "invalid_request",
                   "%s: expected a whole number from 1 to %llu, "
                   "not '%s'",
                   name, (unsigned long long)max, v);
        return -1;
    }
    *out = n;
    return 0;
}

static json_t *api_summary_json(const engine_job_summary_t *j, double now)
{
    return json_pack(
        "{s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:o, s:o, s:o, s:f, s:o}", "id", j->id, "state",
        engine_state_name(j->state), "key", j->key, "priority", engine_priority_name(j->priority),
        "partitions", (int)j->n_partitions, "partitions_done", (int)j->n_done, "partitions_running",
        (int)j->n_running, "submitted_at", api_time_json(j->submitted_at), "started_at",
        api_time_json(j->started_at), "finished_at", api_time_json(j->finished_at), "age_seconds",
        now - j->submitted_at, "error", j->error ? json_string(j->error) : json_null());
}

/* GET /v1/proofs: the jobs newest first, a page at a time (docs/DAEMON.md). */
static void api_proofs_list(cuzkd_t *d, const http_request_t *req, http_response_t *resp)
{
    const char *state_name = http_query(req, "state");
    int state = -1;
    if (state_name && (state = engine_state_from_name(state_name)) < 0) {
        http_error(resp, 400, "invalid_request",
                   "state: expected queued, running, done, failed or cancelled, not '%s'",
                   state_name);
        return;
    }
    uint64_t limit, cursor;
    if (api_query_count(req, "limit", API_LIST_DEFAULT, API_LIST_MAX, &limit, resp) ||
        api_query_count(req, "cursor", 0, UINT64_MAX, &cursor, resp))
        return;
    if (d->fleet) {
        fleet_list_query_t q = {.state = state_name, .limit = limit, .cursor = cursor};
        fleet_jobs_list(d->fleet, &q, resp);
        return;
    }
    /* One more than the page: whether there is a next one. */
    engine_job_summary_t *list;
    size_t matched = 0;
    size_t n = engine_jobs_list(d->engine, state, cursor, (size_t)limit + 1, &list, &matched);
    if (n == (size_t)-1) {
        http_error(resp, 500, "internal", "out of memory");
        return;
    }
    bool more = n > limit;
    size_t shown = more ? (size_t)limit : n;
    double now = engine_wall();
    json_t *jobs = json_array();
    for (size_t i = 0; jobs && i < shown; i++)
        json_array_append_new(jobs, api_summary_json(&list[i], now));
    json_t *next = json_null(), *next_cursor = json_null();
    if (more) {
        char url[128], c[32];
        snprintf(c, sizeof c, "%llu", (unsigned long long)list[shown - 1].seq);
        snprintf(url, sizeof url, "/v1/proofs?%s%s%slimit=%llu&cursor=%s",
                 state_name ? "state=" : "", state_name ? state_name : "", state_name ? "&" : "",
                 (unsigned long long)limit, c);
        next = json_string(url);
        next_cursor = json_string(c);
    }
    engine_jobs_list_free(list, n);
    http_json(resp, 200,
              json_pack("{s:o, s:I, s:I, s:o, s:o}", "jobs", jobs, "count", (json_int_t)shown,
                        "matched", (json_int_t)matched, "next_cursor", next_cursor, "next", next));
}

static void api_proofs(cuzkd_t *d, const http_request_t *req, http_response_t *resp)
{
    if (!strcmp(req->path, "/v1/proofs")) {
        if (!strcmp(req->method, "POST"))
            api_proof_post(d, req, resp);
        else if (!strcmp(req->method, "GET"))
            api_proofs_list(d, req, resp);
        else
            api_method_not_allowed(resp, "GET, POST");
        return;
    }
    const char *id = api_segment(req->path, "/v1/proofs/");
    if (!id) {
        http_error(resp, 404, "not_found", "no route %s", req->path);
        return;
    }
    bool get = !strcmp(req->method, "GET"), del = !strcmp(req->method, "DELETE");
    if (!get && !del) {
        api_method_not_allowed(resp, "GET, DELETE");
        return;
    }
    if (d->fleet) {
        double wait;
        if (del)
            fleet_job_cancel(d->fleet, id, resp);
        else if (api_wait_seconds(d, req, &wait, resp) == 0)
            fleet_job_get(d->fleet, id, wait, resp);
        return;
    }
    engine_job_t *job = engine_job_find(d->engine, id);
    if (!job) {
        http_error(resp, 404, "unknown_job", "no job with id '%s'", id);
        return;
    }
    if (get) {
        api_proof_get(d, req, job, resp);
    } else if (engine_job_cancel(d->engine, job) != ENGINE_OK) {
        engine_job_info_t info;
        bool known = engine_job_info(d->engine, job, &info) == ENGINE_OK;
        http_error(resp, 409, "job_ended", "job '%s' has already ended (%s)", id,
                   known ? engine_state_name(info.state) : "ending");
        if (known)
            engine_job_info_free(&info);
    } else {
        json_t *j = api_job_json(d, job);
        if (j)
            http_json(resp, 200, j);
        else
            http_error(resp, 500, "internal", "out of memory");
    }
    engine_job_unref(d->engine, job);
}

/* ---- the rest --------------------------------------------------------------------- */

static void api_timeline(cuzkd_t *d, http_response_t *resp)
{
    char *text;
    if (engine_timeline_chrome_json(engine_timeline(d->engine), engine_started(d->engine), &text) !=
        CUZK_OK) {
        http_error(resp, 500, "internal", "out of memory");
        return;
    }
    resp->status = 200;
    resp->body = text;
}

/* GET /healthz: 200 {"status": "ok"} while cuzkd serves, 503
 * {"status": "draining"} from SIGTERM on (a load balancer then sends new
 * work elsewhere while the running partitions finish), and 503
 * {"status": "journal", "error"} while the journal cannot be written (no
 * job can be accepted, no result recorded). */
static void api_health(cuzkd_t *d, http_response_t *resp)
{
    bool draining = atomic_load(&d->draining);
    journal_health_t h = {0};
    if (d->journal)
        journal_health(d->journal, &h);
    if (draining)
        http_json(resp, 503, json_pack("{s:s}", "status", "draining"));
    else if (h.failing)
        http_json(resp, 503, json_pack("{s:s, s:s}", "status", "journal", "error", h.last_error));
    else
        http_json(resp, 200, json_pack("{s:s}", "status", "ok"));
    if (draining || h.failing)
        resp->retry_after = 5;
}

/* GET /: the status page, its HTML and script embedded at build time. */
static void api_page(http_response_t *resp)
{
    resp->body = malloc(status_html_size + 1);
    if (!resp->body) {
        http_error(resp, 500, "internal", "out of memory");
        return;
    }
    memcpy(resp->body, status_html, status_html_size);
    resp->body[status_html_size] = '\0';
    resp->status = 200;
    resp->content_type = "text/html; charset=utf-8";
}

void api_handle(void *ctx, const http_request_t *req, http_response_t *resp)
{
    cuzkd_t *d = ctx;
    const char *p = req->path;
    bool get = !strcmp(req->method, "GET");
    if (!strcmp(p, "/v1/keys") || !strncmp(p, "/v1/keys/", 9))
        api_keys(d, req, resp);
    else if (!strcmp(p, "/v1/proofs") || !strncmp(p, "/v1/proofs/", 11))
        api_proofs(d, req, resp);
    else if (!strcmp(p, "/v1/fleet")) {
        if (!get)
            api_method_not_allowed(resp, "GET");
        else if (!d->fleet)
            http_error(resp, 404, "not_found", "this cuzkd is not in a fleet (--fleet)");
        else
            fleet_answer(d->fleet, resp);
    } else if (!strcmp(p, "/v1/status") || !strcmp(p, "/v1/timeline") || !strcmp(p, "/metrics") ||
               !strcmp(p, "/healthz") || !strcmp(p, "/")) {
        if (!get)
            api_method_not_allowed(resp, "GET");
        else if (!strcmp(p, "/healthz"))
            api_health(d, resp);
        else if (!strcmp(p, "/"))
            api_page(resp);
        else if (!strcmp(p, "/v1/status"))
            status_answer(d, resp);
        else if (!strcmp(p, "/v1/timeline"))
            api_timeline(d, resp);
        else
            metrics_answer(d, resp);
    } else {
        http_error(resp, 404, "not_found", "no route %s %s", req->method, p);
    }
}
