/*
 * What the fleet shows (fleet.h): the "fleet" section of /v1/status (this
 * host's side, from memory: it answers without the database too), the
 * cuzkd_fleet_* lines of /metrics (this host's counters, and every host
 * and the queue while the database answers), and GET /v1/fleet (the
 * hosts, their leases and refusals, the queue, the key registry).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/fleet_impl.h"

/* A host whose heartbeat is older than its lease is counted stale: its
 * leases are others' to take. */
static bool fleet_host_alive(const PGresult *h, int row, double lease_s)
{
    return !strcmp(fleet_db_text(h, row, 1), "up") && fleet_db_real(h, row, 13) < lease_s;
}

static json_t *fleet_refusals(fleet_t *f)
{
    char *s = fleet_keys_refusals_json(f);
    json_t *o = s ? json_loads(s, 0, NULL) : NULL;
    free(s);
    return o ? o : json_object();
}

json_t *fleet_status_json(fleet_t *f)
{
    const char **ready;
    size_t n_ready = fleet_keys_ready(f, &ready);
    json_t *keys = json_array();
    for (size_t i = 0; keys && i < n_ready; i++)
        json_array_append_new(keys, json_string(ready[i]));
    free(ready);
    json_t *refusals = fleet_refusals(f);
    pthread_mutex_lock(&f->lock);
    size_t held, pending, critical;
    fleet_local_counts(f, &held, &pending, &critical);
    const fleet_counts_t *c = &f->c;
    json_t *o = json_pack(
        "{s:s, s:s, s:b, s:o, s:o, s:f, s:I, s:I, s:I, s:I, s:{s:I, s:I, s:I, s:I, s:I, s:I},"
        " s:{s:I, s:I}, s:o, s:o}",
        "host", f->name, "database", f->shown, "connected", (int)f->connected, "down_since",
        f->connected ? json_null() : api_time_json(f->down_since), "last_error",
        f->last_error[0] ? json_string(f->last_error) : json_null(), "lease_seconds", f->lease_s,
        "lookahead", (json_int_t)f->d->cfg->lookahead, "leases_held", (json_int_t)held,
        "results_pending", (json_int_t)pending, "connects", (json_int_t)c->connects, "leases",
        "leased", (json_int_t)c->leased, "lost", (json_int_t)c->lost, "released",
        (json_int_t)c->released, "failed", (json_int_t)c->failed, "reclaimed",
        (json_int_t)c->reclaimed, "unknown_key_jobs", (json_int_t)c->unknown_keys, "completions",
        "accepted", (json_int_t)c->accepted + (json_int_t)c->duplicates, "rejected",
        (json_int_t)c->rejected, "keys_ready", keys, "refusals", refusals);
    pthread_mutex_unlock(&f->lock);
    return o;
}

void fleet_metrics(fleet_t *f, void (*put)(void *ctx, const char *line), void *ctx)
{
    char line[640];
    size_t held, pending, critical, refused = 0;
    pthread_mutex_lock(&f->lock);
    fleet_local_counts(f, &held, &pending, &critical);
    fleet_counts_t c = f->c;
    bool connected = f->connected;
    for (size_t i = 0; i < f->n_keys; i++)
        refused += f->keys[i].state == FLEET_KEY_REFUSED;
    pthread_mutex_unlock(&f->lock);
    snprintf(line, sizeof line,
             "# HELP cuzkd_fleet_connected 1 while the fleet's database answers this host.\n"
             "# TYPE cuzkd_fleet_connected gauge\ncuzkd_fleet_connected %d\n"
             "# HELP cuzkd_fleet_disconnects_total Connections to the fleet's database lost.\n"
             "# TYPE cuzkd_fleet_disconnects_total counter\ncuzkd_fleet_disconnects_total "
             "%" PRIu64 "\n",
             (int)connected, c.disconnects);
    put(ctx, line);
    snprintf(line, sizeof line,
             "# HELP cuzkd_fleet_leases This host's leases: held (proving or queued here), "
             "pending (ended, the outcome waiting for the database).\n"
             "# TYPE cuzkd_fleet_leases gauge\ncuzkd_fleet_leases{state=\"held\"} %zu\n"
             "cuzkd_fleet_leases{state=\"pending\"} %zu\n",
             held, pending);
    put(ctx, line);
    snprintf(line, sizeof line,
             "# HELP cuzkd_fleet_leases_total Leases this host took, lost (taken over or "
             "ended elsewhere), released (given back untried), failed (given back failed); "
             "reclaimed: other hosts' expired leases it queued again.\n"
             "# TYPE cuzkd_fleet_leases_total counter\n"
             "cuzkd_fleet_leases_total{result=\"leased\"} %" PRIu64 "\n"
             "cuzkd_fleet_leases_total{result=\"lost\"} %" PRIu64 "\n"
             "cuzkd_fleet_leases_total{result=\"released\"} %" PRIu64 "\n"
             "cuzkd_fleet_leases_total{result=\"failed\"} %" PRIu64 "\n"
             "cuzkd_fleet_leases_total{result=\"reclaimed\"} %" PRIu64 "\n",
             c.leased, c.lost, c.released, c.failed, c.reclaimed);
    put(ctx, line);
    snprintf(line, sizeof line,
             "# HELP cuzkd_fleet_completions_total Results handed to the database: accepted, or "
             "rejected by the fencing token (the lease was no longer this host's).\n"
             "# TYPE cuzkd_fleet_completions_total counter\n"
             "cuzkd_fleet_completions_total{result=\"accepted\"} %" PRIu64 "\n"
             "cuzkd_fleet_completions_total{result=\"rejected\"} %" PRIu64 "\n"
             "# HELP cuzkd_fleet_key_refusals Keys this host cannot serve (GET /v1/fleet says "
             "why).\n# TYPE cuzkd_fleet_key_refusals gauge\ncuzkd_fleet_key_refusals %zu\n",
             c.accepted + c.duplicates, c.rejected, refused);
    put(ctx, line);
    if (!connected)
        return;
    char err[FLEET_ERR_MAX] = "";
    PGconn *db = fleet_pool_get(f, err, sizeof err);
    PGresult *h = NULL, *q = NULL;
    if (db && fleet_db_hosts(db, &h, err, sizeof err) == 0 &&
        fleet_db_queue(db, &q, err, sizeof err) == 0) {
        put(ctx, "# HELP cuzkd_fleet_host_leases Partitions each host of the fleet holds.\n"
                 "# TYPE cuzkd_fleet_host_leases gauge\n");
        for (int i = 0; i < PQntuples(h); i++) {
            snprintf(line, sizeof line, "cuzkd_fleet_host_leases{host=\"%s\"} %" PRId64 "\n",
                     fleet_db_text(h, i, 0), fleet_db_int(h, i, 14));
            put(ctx, line);
        }
        put(ctx, "# HELP cuzkd_fleet_host_up 1 for a host that heartbeats within its lease.\n"
                 "# TYPE cuzkd_fleet_host_up gauge\n");
        for (int i = 0; i < PQntuples(h); i++) {
            snprintf(line, sizeof line, "cuzkd_fleet_host_up{host=\"%s\"} %d\n",
                     fleet_db_text(h, i, 0), (int)fleet_host_alive(h, i, f->lease_s));
            put(ctx, line);
        }
        put(ctx, "# HELP cuzkd_fleet_queue Jobs and partitions of the fleet by state.\n"
                 "# TYPE cuzkd_fleet_queue gauge\n");
        for (int i = 0; i < PQntuples(q); i++) {
            snprintf(line, sizeof line, "cuzkd_fleet_queue{of=\"%s\",state=\"%s\"} %" PRId64 "\n",
                     fleet_db_text(q, i, 0), fleet_db_text(q, i, 1), fleet_db_int(q, i, 2));
            put(ctx, line);
        }
    }
    PQclear(h);
    PQclear(q);
    fleet_pool_put(f, db);
}

/* GET /v1/fleet's hosts. */
static json_t *fleet_hosts_json(fleet_t *f, const PGresult *h)
{
    json_t *a = json_array();
    for (int i = 0; a && i < PQntuples(h); i++) {
        json_t *keys = json_loads(fleet_db_text(h, i, 7), 0, NULL);
        json_t *refusals = json_loads(fleet_db_text(h, i, 8), 0, NULL);
        json_array_append_new(
            a, json_pack("{s:s, s:s, s:b, s:s, s:s, s:I, s:s, s:I, s:o, s:o, s:I, s:I, s:I, s:f, "
                         "s:f, s:f}",
                         "name", fleet_db_text(h, i, 0), "state", fleet_db_text(h, i, 1), "alive",
                         (int)fleet_host_alive(h, i, f->lease_s), "version", fleet_db_text(h, i, 2),
                         "devices", fleet_db_text(h, i, 3), "workers",
                         (json_int_t)fleet_db_int(h, i, 4), "listen", fleet_db_text(h, i, 5), "pid",
                         (json_int_t)fleet_db_int(h, i, 6), "keys", keys ? keys : json_array(),
                         "refusals", refusals ? refusals : json_object(), "leases",
                         (json_int_t)fleet_db_int(h, i, 14), "completions_accepted",
                         (json_int_t)fleet_db_int(h, i, 9), "completions_rejected",
                         (json_int_t)fleet_db_int(h, i, 10), "started_at", fleet_db_real(h, i, 11),
                         "heartbeat_at", fleet_db_real(h, i, 12), "heartbeat_age_seconds",
                         fleet_db_real(h, i, 13)));
    }
    return a;
}

/* GET /v1/fleet's queue: {"jobs": {state: n}, "partitions": {state: n}}. */
static json_t *fleet_queue_json(const PGresult *q)
{
    json_t *jobs = json_object(), *parts = json_object();
    static const char *const job_states[] = {"queued", "running", "done", "failed", "cancelled"};
    static const char *const part_states[] = {"queued", "leased", "done", "failed", "cancelled"};
    for (int s = 0; s < 5; s++) {
        json_object_set_new(jobs, job_states[s], json_integer(0));
        json_object_set_new(parts, part_states[s], json_integer(0));
    }
    for (int i = 0; i < PQntuples(q); i++)
        json_object_set_new(!strcmp(fleet_db_text(q, i, 0), "jobs") ? jobs : parts,
                            fleet_db_text(q, i, 1), json_integer(fleet_db_int(q, i, 2)));
    return json_pack("{s:o, s:o}", "jobs", jobs, "partitions", parts);
}

void fleet_answer(fleet_t *f, http_response_t *resp)
{
    char err[FLEET_ERR_MAX] = "";
    PGconn *c = fleet_pool_get(f, err, sizeof err);
    PGresult *h = NULL, *q = NULL;
    fleet_db_key_t *keys = NULL;
    size_t n_keys = 0;
    if (!c) {
        fleet_unavailable(resp, err);
        return;
    }
    if (fleet_db_hosts(c, &h, err, sizeof err) != 0 ||
        fleet_db_queue(c, &q, err, sizeof err) != 0 ||
        fleet_db_keys(c, &keys, &n_keys, err, sizeof err) != 0) {
        if (fleet_db_broken(c))
            fleet_unavailable(resp, err);
        else
            http_error(resp, 500, "internal", "%s", err);
    } else {
        json_t *registry = json_array();
        for (size_t i = 0; registry && i < n_keys; i++)
            json_array_append_new(
                registry, json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:s, s:f}", "name",
                                    keys[i].name, "path", keys[i].path, "format", keys[i].format,
                                    "proves_as", keys[i].proves_as, "sha256", keys[i].sha256,
                                    "file_bytes", (json_int_t)keys[i].file_bytes, "registered_by",
                                    keys[i].registered_by, "registered_at", keys[i].registered_at));
        http_json(resp, 200,
                  json_pack("{s:o, s:o, s:o, s:o}", "this_host", fleet_status_json(f), "hosts",
                            fleet_hosts_json(f, h), "queue", fleet_queue_json(q), "keys",
                            registry));
    }
    PQclear(h);
    PQclear(q);
    free(keys);
    fleet_pool_put(f, c);
}
