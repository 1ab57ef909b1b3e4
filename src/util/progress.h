/*
 * A progress line for long work: the stage, the fraction done, the rate and
 * the time left, redrawn in place on a terminal at most once an interval.
 *
 *   cuzk setup: query H  42% 110.1k/262.1k points  45.2k points/s  ETA 3s
 *
 * Work runs as stages, one at a time: begin(stage, total, unit), then
 * advance(n) or set(done) as units finish, then the next begin, and end
 * when the work is over (it erases the line, so that what the command
 * prints next starts on a clean line). The rate is the stage's units over
 * its seconds so far, and the ETA the units left at that rate.
 *
 * Contract:
 *  - Every function takes a NULL reporter and then does nothing: code below
 *    the command line takes an optional progress_t * and calls these
 *    without checking it.
 *  - advance, set, begin and end may be called from any thread (pool
 *    workers advance at once); advance costs an atomic add and a clock read
 *    while no line is due, so call it per chunk of work, not per item.
 *  - The first line is drawn an interval after the reporter was made (work
 *    shorter than that prints nothing), then at most once an interval, at
 *    the begin, advance or set that finds a line due. Nothing is drawn
 *    between end and the next begin.
 *  - stage and unit are copied (at most CUZK_PROGRESS_TEXT - 1 bytes each).
 */
#ifndef CUZK_UTIL_PROGRESS_H
#define CUZK_UTIL_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { CUZK_PROGRESS_TEXT = 48 };

typedef struct progress progress_t;

/* Seconds since an arbitrary fixed point (clock_seconds, or a test's). */
typedef double (*progress_clock_t)(void *ctx);

/* Where a reporter made by progress_calls sends what a line would show:
 * the stage, its units done and total (0: unknown) and the unit ("" for a
 * stage that is not counted). */
typedef void (*progress_sink_t)(void *ctx, const char *stage, uint64_t done, uint64_t total,
                                const char *unit);

/*
 * A reporter writing its lines to out, each prefixed "prefix: " (prefix
 * copied; NULL: none), at most once every interval seconds, cut to
 * width - 1 characters (0: not cut), timed by clock(clock_ctx) (NULL:
 * clock_seconds). NULL when out of memory: the work then runs without a
 * line, as with a NULL reporter.
 */
progress_t *progress_new(FILE *out, const char *prefix, double interval, unsigned width,
                         progress_clock_t clock, void *clock_ctx);

/*
 * The reporter of a command (prefix, e.g. "cuzk setup") on stderr: NULL
 * when quiet (--quiet), when stderr is not a terminal, or when TERM is
 * "dumb"; lines cut to the terminal's width. The interval is 250 ms, or
 * CUZK_PROGRESS_INTERVAL_MS milliseconds when that is set to a whole number
 * from 0 to 60000 (tests use 0: a line at every begin and advance).
 */
progress_t *progress_stderr(const char *prefix, bool quiet);

/*
 * A reporter that calls sink(sink_ctx, ...) where a line would be drawn,
 * at most once every interval seconds (0: at every begin, advance and
 * set; the first call is due an interval after the reporter was made),
 * one call at a time, on whichever thread advanced; it draws nothing and
 * end erases nothing. NULL when out of memory.
 */
progress_t *progress_calls(progress_sink_t sink, void *sink_ctx, double interval);

/* Erases the line (as end) and releases p. */
void progress_free(progress_t *p);

/* A new stage of total units (0: unknown; the line then shows no fraction
 * or ETA), none done yet; the stage's clock starts here. unit NULL: a
 * stage that is not counted (the line shows its name alone). */
void progress_begin(progress_t *p, const char *stage, uint64_t total, const char *unit);

/* The stage's name from now on, its count, total and clock kept (for a
 * count with two levels, such as partitions of proofs). */
void progress_label(progress_t *p, const char *stage);

/* The work is steps stages in all, from the next begin on: the line then
 * starts with the stage's place, "[4/6] msm" (for work whose stages are
 * known but not counted in units, such as a proof's). */
void progress_steps(progress_t *p, unsigned steps);

/* n more units of the stage done. */
void progress_advance(progress_t *p, uint64_t n);

/* done units of the stage done in all (for work counted from outside,
 * e.g. a job's partitions from its status). */
void progress_set(progress_t *p, uint64_t done);

/* The work is over: the line, when one was drawn, is erased. */
void progress_end(progress_t *p);

/*
 * The line for a stage with done of total units after elapsed seconds,
 * without prefix or terminal controls, into buf (always terminated, cut to
 * size - 1): "query H  42% 110.1k/262.1k points  45.2k points/s  ETA 3s".
 * Counts of 10,000 and more take k, M or G; the rate and ETA read "--"
 * before a unit is done; unit NULL or "": the stage alone. Returns
 * strlen(buf).
 */
size_t progress_format(char *buf, size_t size, const char *stage, uint64_t done, uint64_t total,
                       const char *unit, double elapsed);

#endif
