/* cuzkd's log lines (log.h). */
#include "daemon/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "util/utf8.h"

enum { LOG_LINE_MAX = 4096 };

static const char *const log_names[] = {"error", "warn", "info", "debug"};

static log_level_t log_level = LOG_INFO;
static bool log_json;

int log_level_from_name(const char *s)
{
    for (int i = 0; i <= LOG_DEBUG; i++)
        if (!strcmp(s, log_names[i]))
            return i;
    return -1;
}

const char *log_level_name(log_level_t level)
{
    return log_names[level];
}

void log_setup(log_level_t level, bool json)
{
    log_level = level;
    log_json = json;
}

bool log_enabled(log_level_t level)
{
    return level <= log_level;
}

/* The time now as 2026-01-02T03:04:05.678Z (UTC). */
static void log_time(char *out, size_t size)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(out, size, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, size - n, ".%03dZ", (int)(ts.tv_nsec / 1000000) % 1000);
}

/* Writes line (len bytes, ending in a newline) with one write(2). */
static void log_write(const char *line, size_t len)
{
    while (len > 0) {
        ssize_t w = write(STDERR_FILENO, line, len);
        if (w <= 0)
            return;
        line += w;
        len -= (size_t)w;
    }
}

/* Writes o (stolen) with time, level and event added, as one JSON line. */
static void log_json_line(log_level_t level, const char *event, json_t *o)
{
    char when[40];
    log_time(when, sizeof when);
    json_t *head = json_pack("{s:s, s:s, s:s}", "time", when, "level", log_names[level], "event",
                             event ? event : "daemon");
    if (!head || !o || json_object_update(head, o) != 0) {
        json_decref(head);
        json_decref(o);
        return;
    }
    json_decref(o);
    char *text = json_dumps(head, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(head);
    if (!text)
        return;
    size_t n = strlen(text);
    char *line = realloc(text, n + 2);
    if (!line) {
        free(text);
        return;
    }
    line[n] = '\n';
    line[n + 1] = '\0';
    log_write(line, n + 1);
    free(line);
}

static void log_text_line(log_level_t level, const char *msg)
{
    char when[40], line[LOG_LINE_MAX + 128];
    log_time(when, sizeof when);
    int n = snprintf(line, sizeof line, "%s cuzkd[%d] %s: %s\n", when, (int)getpid(),
                     log_names[level], msg);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof line) { /* cut, but still one line */
        n = (int)sizeof line - 1;
        line[n - 1] = '\n';
    }
    log_write(line, (size_t)n);
}

/* The line of log_event and log_always, msg formatted. */
static void log_emit(log_level_t level, const char *event, const char *job, const char *key,
                     const char *msg)
{
    if (!log_json) {
        log_text_line(level, msg);
        return;
    }
    char text[LOG_LINE_MAX];
    snprintf(text, sizeof text, "%s", msg);
    utf8_scrub(text); /* a path or a cut inside a character must not lose the line */
    json_t *o = json_object();
    if (o && job)
        json_object_set_new(o, "job", json_string(job));
    if (o && key)
        json_object_set_new(o, "key", json_string(key));
    if (o)
        json_object_set_new(o, "message", json_string(text));
    log_json_line(level, event, o);
}

void log_event(log_level_t level, const char *event, const char *job, const char *key,
               const char *fmt, ...)
{
    if (!log_enabled(level))
        return;
    char msg[LOG_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    /* clang-tidy reports ap as uninitialised (see io_error.c); it is not. */
    // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    log_emit(level, event, job, key, msg);
}

void log_always(log_level_t level, const char *event, const char *fmt, ...)
{
    char msg[LOG_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    log_emit(level, event, NULL, NULL, msg);
}

void log_stage(double ms, const char *stage, const char *job, unsigned partition, int worker,
               double stage_ms, unsigned long long bytes)
{
    if (!log_enabled(LOG_DEBUG))
        return;
    if (!log_json) {
        char msg[512];
        snprintf(msg, sizeof msg, "TIMELINE,%.3f,%s,%s,partition=%u worker=%d ms=%.3f bytes=%llu",
                 ms, stage, job, partition, worker, stage_ms, bytes);
        log_text_line(LOG_DEBUG, msg);
        return;
    }
    log_json_line(LOG_DEBUG, "stage",
                  json_pack("{s:f, s:s, s:s, s:i, s:i, s:f, s:I}", "at_ms", ms, "stage", stage,
                            "job", job, "partition", (int)partition, "worker", worker, "ms",
                            stage_ms, "bytes", (json_int_t)bytes));
}
