/* The timeline ring and its Chrome trace export (engine_timeline.h). */
#include "engine/engine_timeline.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

struct engine_timeline {
    pthread_mutex_t lock;
    engine_event_t *ring;
    size_t capacity;
    uint64_t total; /* events ever recorded; the next goes to total % capacity */
};

engine_timeline_t *engine_timeline_new(size_t capacity)
{
    if (capacity == 0)
        capacity = 1;
    engine_timeline_t *tl = calloc(1, sizeof *tl);
    if (!tl)
        return NULL;
    tl->ring = calloc(capacity, sizeof *tl->ring);
    if (!tl->ring || pthread_mutex_init(&tl->lock, NULL) != 0) {
        free(tl->ring);
        free(tl);
        return NULL;
    }
    tl->capacity = capacity;
    return tl;
}

void engine_timeline_free(engine_timeline_t *tl)
{
    if (!tl)
        return;
    pthread_mutex_destroy(&tl->lock);
    free(tl->ring);
    free(tl);
}

void engine_timeline_record(engine_timeline_t *tl, const engine_event_t *ev)
{
    pthread_mutex_lock(&tl->lock);
    tl->ring[tl->total % tl->capacity] = *ev;
    tl->total++;
    pthread_mutex_unlock(&tl->lock);
}

size_t engine_timeline_copy(engine_timeline_t *tl, engine_event_t *out, size_t max, uint64_t *total)
{
    pthread_mutex_lock(&tl->lock);
    uint64_t held = tl->total < tl->capacity ? tl->total : tl->capacity;
    size_t n = held < max ? (size_t)held : max;
    for (size_t i = 0; i < n; i++)
        out[i] = tl->ring[(tl->total - n + i) % tl->capacity];
    if (total)
        *total = tl->total;
    pthread_mutex_unlock(&tl->lock);
    return n;
}

/* Adds ev as a complete event to the array events. Returns 0, -1 on ENOMEM. */
static int timeline_add_event(json_t *events, const engine_event_t *ev, double origin)
{
    json_t *o = json_pack(
        "{s:s, s:s, s:s, s:f, s:f, s:i, s:i, s:{s:s, s:I, s:I}}", "name",
        engine_stage_name(ev->stage), "cat", ev->stage == ENGINE_STAGE_LOAD ? "key" : "stage", "ph",
        "X", "ts", (ev->start - origin) * 1e6, "dur", (ev->end - ev->start) * 1e6, "pid", 1, "tid",
        ev->worker + 1, "args", ev->stage == ENGINE_STAGE_LOAD ? "key" : "job", ev->job,
        "partition", (json_int_t)ev->partition, "bytes", (json_int_t)ev->bytes);
    return o && json_array_append_new(events, o) == 0 ? 0 : -1;
}

/* A thread-name metadata event for track tid. */
static int timeline_add_track(json_t *events, int tid, const char *name)
{
    json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:{s:s}}", "name", "thread_name", "ph", "M", "pid",
                          1, "tid", tid, "args", "name", name);
    return o && json_array_append_new(events, o) == 0 ? 0 : -1;
}

/* The summary of ev[0 .. n): window, busy share per track, seconds and
 * bytes per stage (what a stage moved: the CUDA backend counts host to
 * device in synth, device to host in msm). */
static json_t *timeline_summary(const engine_event_t *ev, size_t n, uint64_t total, int max_tid)
{
    double first = n ? ev[0].start : 0, last = n ? ev[0].end : 0;
    double stage_s[ENGINE_STAGES] = {0};
    uint64_t stage_b[ENGINE_STAGES] = {0};
    double *busy = calloc((size_t)max_tid + 1, sizeof *busy);
    if (!busy)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        first = ev[i].start < first ? ev[i].start : first;
        last = ev[i].end > last ? ev[i].end : last;
        stage_s[ev[i].stage] += ev[i].end - ev[i].start;
        stage_b[ev[i].stage] += ev[i].bytes;
        busy[ev[i].worker + 1] += ev[i].end - ev[i].start;
    }
    double window = last - first;
    json_t *sum = json_pack("{s:f, s:I, s:I, s:{}, s:{}, s:{}}", "window_seconds", window, "events",
                            (json_int_t)n, "events_recorded", (json_int_t)total, "busy_percent",
                            "stage_seconds", "stage_bytes");
    if (!sum) {
        free(busy);
        return NULL;
    }
    json_t *b = json_object_get(sum, "busy_percent"), *st = json_object_get(sum, "stage_seconds");
    json_t *sb = json_object_get(sum, "stage_bytes");
    int bad = 0;
    for (int t = 1; t <= max_tid; t++) {
        char name[32];
        snprintf(name, sizeof name, "worker %d", t - 1);
        bad |= json_object_set_new(b, name, json_real(window > 0 ? 100 * busy[t] / window : 0));
    }
    for (int s = 0; s < ENGINE_STAGES; s++) {
        bad |= json_object_set_new(st, engine_stage_name((engine_stage_t)s), json_real(stage_s[s]));
        bad |= json_object_set_new(sb, engine_stage_name((engine_stage_t)s),
                                   json_integer((json_int_t)stage_b[s]));
    }
    free(busy);
    if (bad) {
        json_decref(sum);
        return NULL;
    }
    return sum;
}

cuzk_status_t engine_timeline_chrome_json(engine_timeline_t *tl, double origin, char **out)
{
    *out = NULL;
    engine_event_t *ev = malloc(tl->capacity * sizeof *ev);
    if (!ev)
        return CUZK_ENOMEM;
    uint64_t total = 0;
    size_t n = engine_timeline_copy(tl, ev, tl->capacity, &total);
    int max_tid = 0;
    bool loader = false;
    for (size_t i = 0; i < n; i++) {
        max_tid = ev[i].worker + 1 > max_tid ? ev[i].worker + 1 : max_tid;
        loader |= ev[i].worker == ENGINE_TIMELINE_LOADER;
    }
    json_t *root = json_pack("{s:[], s:s}", "traceEvents", "displayTimeUnit", "ms");
    json_t *events = root ? json_object_get(root, "traceEvents") : NULL;
    int bad = root ? 0 : -1;
    if (!bad && loader)
        bad = timeline_add_track(events, 0, "key loader");
    for (int t = 1; !bad && t <= max_tid; t++) {
        char name[32];
        snprintf(name, sizeof name, "worker %d", t - 1);
        bad = timeline_add_track(events, t, name);
    }
    for (size_t i = 0; !bad && i < n; i++)
        bad = timeline_add_event(events, &ev[i], origin);
    json_t *summary = bad ? NULL : timeline_summary(ev, n, total, max_tid);
    if (!summary || json_object_set_new(root, "otherData", summary) != 0)
        bad = -1;
    free(ev);
    if (!bad)
        *out = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    return *out ? CUZK_OK : CUZK_ENOMEM;
}
