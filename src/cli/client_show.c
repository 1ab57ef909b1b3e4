/* The daemon's answers for people (client_show.h). */
#include "cli/client_show.h"

#include <string.h>
#include <time.h>

/* Members read leniently: a missing one shows as 0 or "?", never fails. */
static double show_num(json_t *o, const char *name)
{
    return json_number_value(json_object_get(o, name));
}

static const char *show_str(json_t *o, const char *name)
{
    const char *s = json_string_value(json_object_get(o, name));
    return s ? s : "?";
}

/* bytes as "512 B", "1.5 KiB", "2.0 GiB". */
static void show_bytes(char *out, size_t size, double bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        u++;
    }
    snprintf(out, size, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
}

/* seconds as "42 s", "3 m 12 s", "5 h 04 m", "2 d 3 h". */
static void show_duration(char *out, size_t size, double s)
{
    long t = (long)s;
    if (t < 60)
        snprintf(out, size, "%ld s", t);
    else if (t < 3600)
        snprintf(out, size, "%ld m %02ld s", t / 60, t % 60);
    else if (t < 86400)
        snprintf(out, size, "%ld h %02ld m", t / 3600, t % 3600 / 60);
    else
        snprintf(out, size, "%ld d %ld h", t / 86400, t % 86400 / 3600);
}

/* Wall-clock seconds as UTC "2026-01-02 03:04:05Z" ("-" for none). */
static void show_time(char *out, size_t size, json_t *v)
{
    if (!json_is_number(v)) {
        snprintf(out, size, "-");
        return;
    }
    time_t t = (time_t)json_number_value(v);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, size, "%Y-%m-%d %H:%M:%SZ", &tm);
}

static const char *show_plural(double n)
{
    return n == 1 ? "" : "s";
}

/* The fleet's line of cuzk status (docs/FLEET.md), when cuzkd is in one. */
static void show_fleet(FILE *f, json_t *fl)
{
    if (!json_is_object(fl))
        return;
    json_t *done = json_object_get(fl, "completions"), *refusals = json_object_get(fl, "refusals");
    double held = show_num(fl, "leases_held"), pending = show_num(fl, "results_pending");
    fprintf(f,
            "  fleet       host %s on %s, %s; %.0f lease%s held, %.0f result%s pending; %.0f "
            "accepted, %.0f rejected\n",
            show_str(fl, "host"), show_str(fl, "database"),
            json_is_true(json_object_get(fl, "connected")) ? "connected" : "NOT CONNECTED", held,
            show_plural(held), pending, show_plural(pending), show_num(done, "accepted"),
            show_num(done, "rejected"));
    const char *key;
    json_t *why;
    json_object_foreach(refusals, key, why)
    {
        fprintf(f, "              refuses key %s: %s\n", key, json_string_value(why));
    }
}

void client_show_status(FILE *f, json_t *st)
{
    json_t *build = json_object_get(st, "build"), *server = json_object_get(st, "server"),
           *queue = json_object_get(st, "queue"), *dev = json_object_get(st, "devices"),
           *mem = json_object_get(st, "memory"), *keys = json_object_get(st, "keys"),
           *cnt = json_object_get(st, "counters");
    char up[64], a[32], b[32], c[32];
    show_duration(up, sizeof up, show_num(server, "uptime_seconds"));
    const char *journal = show_str(server, "journal");
    fprintf(f, "cuzkd %s (%s), pid %.0f, on %s, up %s%s\n", show_str(build, "version"),
            show_str(build, "arith"), show_num(server, "pid"), show_str(server, "listen"), up,
            json_is_true(json_object_get(server, "draining")) ? ", DRAINING" : "");
    fprintf(f, "  journal     %s\n", journal[0] ? journal : "none (nothing survives a restart)");
    double qj = show_num(queue, "jobs_queued"), rj = show_num(queue, "jobs_running");
    double qp = show_num(queue, "partitions_queued"), rp = show_num(queue, "partitions_running");
    fprintf(f,
            "  queue       %.0f job%s queued (%.0f partition%s), %.0f running (%.0f partition%s); "
            "%.0f kept; max %.0f\n",
            qj, show_plural(qj), qp, show_plural(qp), rj, rp, show_plural(rp),
            show_num(queue, "jobs_kept"), show_num(queue, "max_jobs"));
    size_t i;
    json_t *one;
    json_array_foreach(dev, i, one)
    {
        double w = show_num(one, "workers");
        fprintf(f, "  %-11s %s: %.0f worker%s, %.0f threads, %.1f%% busy\n", i ? "" : "devices",
                show_str(one, "name"), w, show_plural(w), show_num(one, "threads"),
                show_num(one, "busy_percent"));
    }
    show_bytes(a, sizeof a, show_num(mem, "host_key_bytes"));
    show_bytes(b, sizeof b, show_num(mem, "host_reserved_bytes"));
    show_bytes(c, sizeof c, show_num(mem, "host_budget"));
    fprintf(f, "  memory      keys %s, running partitions %s, budget %s\n", a, b,
            show_num(mem, "host_budget") > 0 ? c : "none");
    json_t *list = json_object_get(keys, "keys");
    const char *name;
    json_t *k;
    fprintf(f, "  keys        %.0f", show_num(keys, "count"));
    json_object_foreach(list, name, k)
    {
        show_bytes(a, sizeof a, show_num(k, "bytes"));
        fprintf(f, "\n              %s: %s, %s, %s, %.0f in use, %.0f proofs", name,
                show_str(k, "format"), show_str(k, "tier"), a, show_num(k, "use_count"),
                show_num(k, "proofs"));
    }
    fprintf(f, "\n");
    fprintf(f, "  jobs        %.0f submitted, %.0f done, %.0f failed, %.0f cancelled\n",
            show_num(cnt, "jobs_submitted"), show_num(cnt, "jobs_done"),
            show_num(cnt, "jobs_failed"), show_num(cnt, "jobs_cancelled"));
    fprintf(f, "  partitions  %.0f done, %.0f failed, %.0f discarded\n",
            show_num(cnt, "partitions_done"), show_num(cnt, "partitions_failed"),
            show_num(cnt, "partitions_discarded"));
    fprintf(f, "  key loads   %.0f, %.0f hits, %.0f failures, %.0f evictions\n",
            show_num(cnt, "key_loads"), show_num(cnt, "key_hits"),
            show_num(cnt, "key_load_failures"), show_num(cnt, "key_evictions"));
    fprintf(f, "  http        %.0f requests, %.0f errors, %.0f connections open\n",
            show_num(cnt, "http_requests"), show_num(cnt, "http_errors"),
            show_num(server, "connections"));
    show_fleet(f, json_object_get(st, "fleet"));
}

void client_show_job_line(FILE *f, json_t *job)
{
    json_t *progress = json_object_get(job, "progress");
    json_t *timings = json_object_get(job, "timings");
    double n = show_num(progress, "total");
    fprintf(f, "%s %s (%.0f partition%s", show_str(job, "id"), show_str(job, "state"), n,
            show_plural(n));
    if (json_is_number(json_object_get(timings, "total")))
        fprintf(f, ", %.3f s", show_num(timings, "total"));
    fprintf(f, ")\n");
}

void client_show_job(FILE *f, json_t *job)
{
    json_t *progress = json_object_get(job, "progress");
    json_t *timings = json_object_get(job, "timings");
    char sub[40], start[40], end[40];
    show_time(sub, sizeof sub, json_object_get(job, "submitted_at"));
    show_time(start, sizeof start, json_object_get(job, "started_at"));
    show_time(end, sizeof end, json_object_get(job, "finished_at"));
    fprintf(f, "job %s: %s\n", show_str(job, "id"), show_str(job, "state"));
    fprintf(f, "  key         %s (%s), priority %s\n", show_str(job, "key"),
            show_str(job, "format"), show_str(job, "priority"));
    fprintf(f, "  partitions  %.0f of %.0f done\n", show_num(progress, "done"),
            show_num(progress, "total"));
    fprintf(f, "  submitted   %s\n  started     %s\n  finished    %s\n", sub, start, end);
    if (json_is_number(json_object_get(timings, "total")))
        fprintf(f, "  total       %.3f s (queued %.3f s)\n", show_num(timings, "total"),
                show_num(timings, "queue"));
    fprintf(f, "  stages     ");
    const char *stage;
    json_t *v;
    json_object_foreach(timings, stage, v)
    {
        if (strcmp(stage, "queue") != 0 && strcmp(stage, "total") != 0)
            fprintf(f, " %s %.3f s", stage, json_number_value(v));
    }
    fprintf(f, "\n");
    if (json_is_string(json_object_get(job, "error")))
        fprintf(f, "  error       %s\n", show_str(job, "error"));
}
