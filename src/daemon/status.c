/*
 * GET /v1/status (JSON in sections, as redis' INFO: build, server, keys,
 * queue, devices, memory, counters, journal, fleet) and GET /metrics (the Prometheus text
 * exposition format, version 0.0.4). Both read one snapshot of the
 * engine's counters.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "daemon/daemon.h"
#include "util/cpu.h"

#ifdef CUZK_HAVE_CUDA
#define STATUS_CUDA 1
#else
#define STATUS_CUDA 0
#endif

static const double status_bounds[CUZKD_LATENCY_BUCKETS] = CUZKD_LATENCY_BOUNDS;

void cuzkd_latency_add(cuzkd_latency_t *l, double seconds)
{
    size_t b = 0;
    while (b < CUZKD_LATENCY_BUCKETS && seconds > status_bounds[b])
        b++;
    pthread_mutex_lock(&l->lock);
    l->buckets[b]++;
    l->count++;
    l->sum += seconds;
    pthread_mutex_unlock(&l->lock);
}

static json_t *status_keys(cuzkd_t *d, const engine_counters_t *c)
{
    engine_key_info_t *info;
    size_t n = engine_keys_info(d->engine, &info);
    json_t *list = json_object();
    for (size_t i = 0; list && i < n; i++)
        json_object_set_new(
            list, info[i].name,
            json_pack("{s:s, s:s, s:I, s:I, s:I}", "format", engine_key_format_name(info[i].format),
                      "tier", info[i].tier, "bytes", (json_int_t)info[i].bytes, "use_count",
                      (json_int_t)info[i].users, "proofs", (json_int_t)info[i].proofs));
    engine_keys_info_free(info, n);
    return json_pack("{s:I, s:I, s:o}", "count", (json_int_t)c->keys, "bytes",
                     (json_int_t)c->host_key_bytes, "keys", list);
}

static json_t *status_counters(cuzkd_t *d, const engine_counters_t *c)
{
    json_t *stages = json_object();
    for (int s = 0; stages && s < ENGINE_STAGES; s++)
        json_object_set_new(stages, engine_stage_name((engine_stage_t)s),
                            json_real(c->stage_seconds[s]));
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o}",
                     "jobs_submitted", (json_int_t)c->jobs_submitted, "jobs_done",
                     (json_int_t)c->jobs_done, "jobs_failed", (json_int_t)c->jobs_failed,
                     "jobs_cancelled", (json_int_t)c->jobs_cancelled, "partitions_done",
                     (json_int_t)c->partitions_done, "partitions_failed",
                     (json_int_t)c->partitions_failed, "partitions_discarded",
                     (json_int_t)c->partitions_discarded, "key_loads", (json_int_t)c->key_loads,
                     "key_load_failures", (json_int_t)c->key_load_failures, "key_hits",
                     (json_int_t)c->key_hits, "key_evictions", (json_int_t)c->key_evictions,
                     "http_requests", (json_int_t)http_total(d->http), "http_errors",
                     (json_int_t)(http_total(d->http) - http_count(d->http, 200) -
                                  http_count(d->http, 201) - http_count(d->http, 202)),
                     "stage_seconds", stages);
}

void status_answer(cuzkd_t *d, http_response_t *resp)
{
    engine_counters_t c;
    engine_counters(d->engine, &c);
    const cuzkd_config_t *cfg = d->cfg;
    double busy = c.uptime_seconds > 0 && c.workers
                      ? 100 * c.busy_seconds / (c.uptime_seconds * c.workers)
                      : 0;
    json_t *root = json_pack(
        "{s:{s:s, s:s, s:b, s:s},"
        " s:{s:I, s:s, s:f, s:f, s:s, s:b, s:b, s:I},"
        " s:o,"
        " s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I},"
        " s:[{s:s, s:s, s:I, s:I, s:f}],"
        " s:{s:I, s:I, s:I},"
        " s:o}",
        "build", "version", cuzk_version(), "arith", cpu_arith_path(), "cuda", STATUS_CUDA,
        "backend", c.backend, "server", "pid", (json_int_t)getpid(), "listen", d->bound,
        "started_at", d->started_wall, "uptime_seconds", c.uptime_seconds, "journal",
        d->journal ? journal_dir(d->journal) : "", "draining", (int)atomic_load(&d->draining),
        "token", cfg->token != NULL, "connections", (json_int_t)http_connections(d->http), "keys",
        status_keys(d, &c), "queue", "jobs_queued", (json_int_t)c.jobs_queued, "jobs_running",
        (json_int_t)c.jobs_running, "partitions_queued", (json_int_t)c.partitions_queued,
        "partitions_running", (json_int_t)c.partitions_running, "jobs_accepting",
        (json_int_t)c.jobs_held, "jobs_kept", (json_int_t)c.jobs_ended_kept, "max_jobs",
        (json_int_t)cfg->max_jobs, "devices", "name", d->devices_desc, "kind", c.backend, "workers",
        (json_int_t)c.workers, "threads", (json_int_t)c.threads, "busy_percent", busy, "memory",
        "host_budget", (json_int_t)c.host_budget, "host_key_bytes", (json_int_t)c.host_key_bytes,
        "host_reserved_bytes", (json_int_t)c.host_reserved_bytes, "counters",
        status_counters(d, &c));
    journal_health_t h = {0};
    if (d->journal)
        journal_health(d->journal, &h);
    if (root)
        json_object_set_new(
            root, "journal",
            d->journal
                ? json_pack("{s:s, s:b, s:o, s:I, s:I, s:s*}", "dir", journal_dir(d->journal),
                            "failing", (int)h.failing, "failing_since",
                            h.failing ? json_real(h.failing_since) : json_null(), "write_errors",
                            (json_int_t)h.errors, "repairs", (json_int_t)h.repairs, "last_error",
                            h.errors ? h.last_error : NULL)
                : json_null());
    if (root)
        json_object_set_new(root, "fleet", d->fleet ? fleet_status_json(d->fleet) : json_null());
    if (root)
        http_json(resp, 200, root);
    else
        http_error(resp, 500, "internal", "out of memory");
}

/* ---- Prometheus ------------------------------------------------------------------- */

typedef struct metrics_buf {
    char *s;
    size_t len, cap;
    bool oom;
} metrics_buf_t;

static void metrics_put(metrics_buf_t *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void metrics_put(metrics_buf_t *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        /* clang-tidy reports ap as uninitialised (see io_error.c); it is not. */
        // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
        int n = b->oom ? 0 : vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (b->oom || n < 0)
            return;
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        char *s = realloc(b->s, 2 * b->cap + (size_t)n);
        if (!s) {
            b->oom = true;
            return;
        }
        b->s = s;
        b->cap = 2 * b->cap + (size_t)n;
    }
}

/* fleet_metrics' callback: lines as they are. */
static void metrics_line(void *ctx, const char *line)
{
    metrics_put(ctx, "%s", line);
}

/* A metric's HELP and TYPE lines. */
static void metrics_head(metrics_buf_t *b, const char *name, const char *type, const char *help)
{
    metrics_put(b, "# HELP cuzkd_%s %s\n# TYPE cuzkd_%s %s\n", name, help, name, type);
}

static void metrics_latency(metrics_buf_t *b, cuzkd_latency_t *l)
{
    cuzkd_latency_t snap;
    pthread_mutex_lock(&l->lock);
    memcpy(snap.buckets, l->buckets, sizeof snap.buckets);
    snap.count = l->count;
    snap.sum = l->sum;
    pthread_mutex_unlock(&l->lock);
    metrics_head(b, "job_seconds", "histogram", "Jobs from submission to their end.");
    uint64_t cum = 0;
    for (int i = 0; i < CUZKD_LATENCY_BUCKETS; i++) {
        cum += snap.buckets[i];
        metrics_put(b, "cuzkd_job_seconds_bucket{le=\"%g\"} %llu\n", status_bounds[i],
                    (unsigned long long)cum);
    }
    metrics_put(b, "cuzkd_job_seconds_bucket{le=\"+Inf\"} %llu\n", (unsigned long long)snap.count);
    metrics_put(b, "cuzkd_job_seconds_sum %.6f\ncuzkd_job_seconds_count %llu\n", snap.sum,
                (unsigned long long)snap.count);
}

void metrics_answer(cuzkd_t *d, http_response_t *resp)
{
    engine_counters_t c;
    engine_counters(d->engine, &c);
    metrics_buf_t b = {malloc(8192), 0, 8192, false};
    b.oom = !b.s;
    metrics_head(&b, "build_info", "gauge", "Version of the running cuzkd.");
    metrics_put(&b, "cuzkd_build_info{version=\"%s\",backend=\"%s\"} 1\n", cuzk_version(),
                c.backend);
    metrics_head(&b, "uptime_seconds", "gauge", "Seconds since start.");
    metrics_put(&b, "cuzkd_uptime_seconds %.3f\n", c.uptime_seconds);
    metrics_head(&b, "jobs_total", "counter", "Jobs by how they ended (submitted: accepted).");
    metrics_put(&b,
                "cuzkd_jobs_total{state=\"submitted\"} %llu\ncuzkd_jobs_total{state=\"done\"} "
                "%llu\ncuzkd_jobs_total{state=\"failed\"} %llu\n"
                "cuzkd_jobs_total{state=\"cancelled\"} %llu\n",
                (unsigned long long)c.jobs_submitted, (unsigned long long)c.jobs_done,
                (unsigned long long)c.jobs_failed, (unsigned long long)c.jobs_cancelled);
    metrics_head(&b, "partitions_total", "counter", "Partitions by outcome.");
    metrics_put(&b,
                "cuzkd_partitions_total{result=\"done\"} %llu\n"
                "cuzkd_partitions_total{result=\"failed\"} %llu\n"
                "cuzkd_partitions_total{result=\"discarded\"} %llu\n",
                (unsigned long long)c.partitions_done, (unsigned long long)c.partitions_failed,
                (unsigned long long)c.partitions_discarded);
    metrics_head(&b, "queue_jobs", "gauge", "Jobs waiting or running.");
    metrics_put(&b,
                "cuzkd_queue_jobs{state=\"queued\"} %llu\ncuzkd_queue_jobs{state=\"running\"} "
                "%llu\n",
                (unsigned long long)c.jobs_queued, (unsigned long long)c.jobs_running);
    metrics_head(&b, "queue_partitions", "gauge", "Partitions waiting or running.");
    metrics_put(&b,
                "cuzkd_queue_partitions{state=\"queued\"} %llu\n"
                "cuzkd_queue_partitions{state=\"running\"} %llu\n",
                (unsigned long long)c.partitions_queued, (unsigned long long)c.partitions_running);
    metrics_head(&b, "stage_seconds_total", "counter", "Seconds spent per stage, all workers.");
    for (int s = 0; s < ENGINE_STAGES; s++)
        metrics_put(&b, "cuzkd_stage_seconds_total{stage=\"%s\"} %.6f\n",
                    engine_stage_name((engine_stage_t)s), c.stage_seconds[s]);
    metrics_head(&b, "worker_busy_seconds_total", "counter", "Seconds the workers were proving.");
    metrics_put(&b, "cuzkd_worker_busy_seconds_total %.6f\n", c.busy_seconds);
    metrics_head(&b, "workers", "gauge", "Worker threads.");
    metrics_put(&b, "cuzkd_workers %u\n", c.workers);
    metrics_head(&b, "keys", "gauge", "Keys loaded.");
    metrics_put(&b, "cuzkd_keys %llu\n", (unsigned long long)c.keys);
    metrics_head(&b, "key_loads_total", "counter", "Key loads (hits: already loaded).");
    metrics_put(&b,
                "cuzkd_key_loads_total{result=\"loaded\"} %llu\n"
                "cuzkd_key_loads_total{result=\"failed\"} %llu\n"
                "cuzkd_key_loads_total{result=\"hit\"} %llu\n",
                (unsigned long long)c.key_loads, (unsigned long long)c.key_load_failures,
                (unsigned long long)c.key_hits);
    metrics_head(&b, "host_bytes", "gauge", "Host memory: keys, running partitions, budget.");
    metrics_put(&b,
                "cuzkd_host_bytes{use=\"keys\"} %llu\ncuzkd_host_bytes{use=\"reserved\"} %llu\n"
                "cuzkd_host_bytes{use=\"budget\"} %llu\n",
                (unsigned long long)c.host_key_bytes, (unsigned long long)c.host_reserved_bytes,
                (unsigned long long)c.host_budget);
    metrics_head(&b, "http_requests_total", "counter", "HTTP answers by status code.");
    for (unsigned code = 100; code < 600; code++) {
        uint64_t n = http_count(d->http, code);
        if (n)
            metrics_put(&b, "cuzkd_http_requests_total{code=\"%u\"} %llu\n", code,
                        (unsigned long long)n);
    }
    http_guard_counts_t g = http_guard_counts(d->http);
    metrics_head(&b, "http_connections", "gauge", "Connections open now.");
    metrics_put(&b, "cuzkd_http_connections %u\n", http_connections(d->http));
    metrics_head(&b, "http_connections_refused_total", "counter",
                 "Connections closed when accepted: every open one was in a request, or the "
                 "client host had its share.");
    metrics_put(&b,
                "cuzkd_http_connections_refused_total{reason=\"full\"} %llu\n"
                "cuzkd_http_connections_refused_total{reason=\"client\"} %llu\n",
                (unsigned long long)g.refused_full, (unsigned long long)g.refused_client);
    metrics_head(&b, "http_slow_connections_total", "counter",
                 "Connections shut down before their request header arrived: past the header "
                 "deadline, or to make room when every slot was taken.");
    metrics_put(&b,
                "cuzkd_http_slow_connections_total{reason=\"header_timeout\"} %llu\n"
                "cuzkd_http_slow_connections_total{reason=\"evicted\"} %llu\n",
                (unsigned long long)g.header_timeouts, (unsigned long long)g.evicted);
    journal_health_t jh = {0};
    if (d->journal)
        journal_health(d->journal, &jh);
    metrics_head(&b, "journal_failing", "gauge", "1 while the journal cannot be written.");
    metrics_put(&b, "cuzkd_journal_failing %d\n", (int)jh.failing);
    metrics_head(&b, "journal_write_errors_total", "counter", "Journal writes that failed.");
    metrics_put(&b, "cuzkd_journal_write_errors_total %llu\n", (unsigned long long)jh.errors);
    metrics_head(&b, "journal_repairs_total", "counter",
                 "Repairs made when the journal was replayed at start.");
    metrics_put(&b, "cuzkd_journal_repairs_total %llu\n", (unsigned long long)jh.repairs);
    metrics_head(&b, "draining", "gauge", "1 while shutting down.");
    metrics_put(&b, "cuzkd_draining %d\n", (int)atomic_load(&d->draining));
    metrics_latency(&b, &d->latency);
    if (d->fleet)
        fleet_metrics(d->fleet, metrics_line, &b);
    if (b.oom) {
        free(b.s);
        http_error(resp, 500, "internal", "out of memory");
        return;
    }
    resp->status = 200;
    resp->body = b.s;
    resp->content_type = "text/plain; version=0.0.4; charset=utf-8";
}
