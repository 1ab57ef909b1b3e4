/*
 * The engine's timeline: a fixed ring of the most recent stage events
 * (job, partition, worker, stage, start, end, bytes), exported as Chrome
 * trace JSON (the "traceEvents" form that chrome://tracing and Perfetto
 * open) with a summary of what the events cover: busy share per worker and
 * seconds per stage.
 *
 * Thread-safe: any thread records, any thread exports; both take the
 * ring's own mutex for the time of a copy.
 */
#ifndef CUZK_ENGINE_ENGINE_TIMELINE_H
#define CUZK_ENGINE_ENGINE_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "engine/engine_backend.h"

enum {
    ENGINE_ID_MAX = 64,          /* job ids and key names: at most this many characters */
    ENGINE_TIMELINE_LOADER = -1, /* the worker field of a key load */
};

typedef struct engine_event {
    char job[ENGINE_ID_MAX + 1]; /* the job id, or the key name of a load */
    uint32_t partition;
    int32_t worker; /* 0 .. workers-1, or ENGINE_TIMELINE_LOADER */
    engine_stage_t stage;
    double start, end; /* engine_now() seconds */
    uint64_t bytes;
} engine_event_t;

typedef struct engine_timeline engine_timeline_t;

/* A ring of capacity >= 1 events; NULL when memory runs out. */
engine_timeline_t *engine_timeline_new(size_t capacity);
void engine_timeline_free(engine_timeline_t *tl);

/* Appends ev, overwriting the oldest event when the ring is full. */
void engine_timeline_record(engine_timeline_t *tl, const engine_event_t *ev);

/* Copies up to max of the most recent events, oldest first, into out;
 * returns how many. *total (NULL: not wanted) = events ever recorded. */
size_t engine_timeline_copy(engine_timeline_t *tl, engine_event_t *out, size_t max,
                            uint64_t *total);

/*
 * *out = the Chrome trace JSON of the events in the ring (malloc'd,
 * NUL-terminated; the caller frees it): one complete ("X") event per stage
 * with ts/dur in microseconds since origin (an engine_now() value: the
 * engine's start), pid 1, tid = worker + 1 (0 for the loader), and
 * args {job, partition, bytes}; thread-name metadata for each track; and
 * "otherData" with the summary (window, events, busy % per worker, seconds
 * and bytes per stage). CUZK_ENOMEM.
 */
cuzk_status_t engine_timeline_chrome_json(engine_timeline_t *tl, double origin, char **out);

#endif
