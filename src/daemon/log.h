/*
 * cuzkd's log: one line per event on stderr, with a level, as text for a
 * terminal or as JSON lines for journald and log shippers.
 *
 *   text:  2026-01-02T03:04:05.678Z cuzkd[PID] info: job 1f.. accepted (...)
 *   json:  {"time": "2026-01-02T03:04:05.678Z", "level": "info",
 *           "event": "job.accepted", "job": "1f..", "key": "bn",
 *           "message": "job 1f.. accepted (...)", ...}
 *
 * Events (the "event" member): daemon (start, listen, drain, exit),
 * config, journal, key.loaded, key.load_failed, key.evicted,
 * job.accepted, job.started, job.done, job.failed, job.cancelled, and at
 * debug level stage (one per timeline event: a stage of a partition, or a
 * key load). Lines below the configured level are not written; every
 * line is one write(2), so lines from different threads never interleave.
 */
#ifndef CUZK_DAEMON_LOG_H
#define CUZK_DAEMON_LOG_H

#include <stdbool.h>

typedef enum log_level {
    LOG_ERROR,
    LOG_WARN,
    LOG_INFO,
    LOG_DEBUG,
} log_level_t;

/* The level named s ("error", "warn", "info", "debug"), or -1. */
int log_level_from_name(const char *s);
const char *log_level_name(log_level_t level);

/* Sets the level written and the form (json: JSON lines, else text). The
 * default before any call: info, text. Called once at start, before any
 * other thread logs. */
void log_setup(log_level_t level, bool json);

/* Whether a line of level would be written. */
bool log_enabled(log_level_t level);

/* A line of level for event (NULL: "daemon") about job and key (each NULL:
 * not named). */
void log_event(log_level_t level, const char *event, const char *job, const char *key,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* A line of level written whatever the configured level: the one that
 * says where cuzkd listens (with port 0 the log is where the port is
 * told, and scripts wait for it). */
void log_always(log_level_t level, const char *event, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A stage line (debug): DESIGN.md's TIMELINE,<ms>,<stage>,<job>,<detail>
 * as the text message; in JSON its parts as members. */
void log_stage(double ms, const char *stage, const char *job, unsigned partition, int worker,
               double stage_ms, unsigned long long bytes);

#endif
