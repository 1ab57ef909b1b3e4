/* The progress line (util/progress.h). */
#include "util/progress.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/clock.h"

/* The interval of progress_stderr: four lines a second reads as live
 * without the redraws costing anything measurable. */
#define PROGRESS_INTERVAL_S 0.25

struct progress {
    FILE *out;
    progress_sink_t sink; /* progress_calls: instead of out */
    void *sink_ctx;
    char prefix[CUZK_PROGRESS_TEXT];
    double interval;
    unsigned width;
    progress_clock_t clock;
    void *clock_ctx;
    double origin;                /* the clock when the reporter was made */
    _Atomic uint64_t done;        /* units of the stage done */
    _Atomic uint64_t next_due_ns; /* clock - origin, in ns, when a line is due next */
    /* Under lock: the stage, and whether a line is on the terminal. */
    pthread_mutex_t lock;
    bool active, drawn;
    unsigned steps, step; /* progress_steps: the stages expected, the current one */
    char stage[CUZK_PROGRESS_TEXT], unit[CUZK_PROGRESS_TEXT];
    uint64_t total;
    double start;
};

static double progress_now_(const progress_t *p)
{
    return p->clock ? p->clock(p->clock_ctx) : clock_seconds();
}

static uint64_t progress_ns_(double seconds)
{
    return seconds <= 0 ? 0 : (uint64_t)(seconds * 1e9);
}

/* v in at most 6 characters: 9999, 10.0k, 262.1k, 1.3M, 47.0G. */
static void progress_count_(char *buf, size_t size, double v)
{
    if (v < 10000)
        snprintf(buf, size, "%.0f", v);
    else if (v < 1e6)
        snprintf(buf, size, "%.1fk", v / 1e3);
    else if (v < 1e9)
        snprintf(buf, size, "%.1fM", v / 1e6);
    else
        snprintf(buf, size, "%.1fG", v / 1e9);
}

/* s seconds as 7s, 3m05s or 2h14m. */
static void progress_duration_(char *buf, size_t size, double s)
{
    uint64_t t = (uint64_t)(s + 0.5);
    if (t < 60)
        snprintf(buf, size, "%" PRIu64 "s", t);
    else if (t < 3600)
        snprintf(buf, size, "%" PRIu64 "m%02" PRIu64 "s", t / 60, t % 60);
    else
        snprintf(buf, size, "%" PRIu64 "h%02" PRIu64 "m", t / 3600, t / 60 % 60);
}

size_t progress_format(char *buf, size_t size, const char *stage, uint64_t done, uint64_t total,
                       const char *unit, double elapsed)
{
    char d[32], t[32], r[32] = "--", eta[32] = "--";
    double rate = elapsed > 0 ? (double)done / elapsed : 0;
    progress_count_(d, sizeof d, (double)done);
    progress_count_(t, sizeof t, (double)total);
    if (rate > 0) {
        progress_count_(r, sizeof r, rate);
        if (total > done)
            progress_duration_(eta, sizeof eta, (double)(total - done) / rate);
        else
            snprintf(eta, sizeof eta, "0s");
    }
    int n;
    if (!unit || !*unit) {
        n = snprintf(buf, size, "%s", stage);
    } else if (total) {
        unsigned pct = done >= total ? 100 : (unsigned)(100.0 * (double)done / (double)total);
        n = snprintf(buf, size, "%s %3u%% %s/%s %s  %s %s/s  ETA %s", stage, pct, d, t, unit, r,
                     unit, eta);
    } else {
        n = snprintf(buf, size, "%s  %s %s  %s %s/s", stage, d, unit, r, unit);
    }
    if (n < 0) {
        buf[0] = '\0';
        return 0;
    }
    return (size_t)n < size ? (size_t)n : size - 1;
}

/* The line for the stage at now (or the sink's call); under p->lock. */
static void progress_draw_(progress_t *p, double now)
{
    if (p->sink) {
        p->sink(p->sink_ctx, p->stage, atomic_load(&p->done), p->total, p->unit);
        return;
    }
    char line[256], body[200], step[32] = "";
    progress_format(body, sizeof body, p->stage, atomic_load(&p->done), p->total, p->unit,
                    now - p->start);
    if (p->steps)
        snprintf(step, sizeof step, "[%u/%u] ", p->step, p->steps);
    int n =
        snprintf(line, sizeof line, "%s%s%s%s", p->prefix, p->prefix[0] ? ": " : "", step, body);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (p->width && len > p->width - 1)
        len = p->width - 1;
    /* \r to the line's start, the text, then erase what a longer line left */
    fprintf(p->out, "\r%.*s\033[K", (int)len, line);
    fflush(p->out);
    p->drawn = true;
}

/* Draws a line when one is due: the first caller past the due time claims
 * it (so that pool workers advancing together draw once). */
static void progress_maybe_draw_(progress_t *p)
{
    double now = progress_now_(p);
    uint64_t at = progress_ns_(now - p->origin);
    uint64_t due = atomic_load_explicit(&p->next_due_ns, memory_order_relaxed);
    if (at < due)
        return;
    if (!atomic_compare_exchange_strong(&p->next_due_ns, &due, at + progress_ns_(p->interval)))
        return;
    pthread_mutex_lock(&p->lock);
    if (p->active)
        progress_draw_(p, now);
    pthread_mutex_unlock(&p->lock);
}

progress_t *progress_new(FILE *out, const char *prefix, double interval, unsigned width,
                         progress_clock_t clock, void *clock_ctx)
{
    progress_t *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p);
        return NULL;
    }
    p->out = out;
    snprintf(p->prefix, sizeof p->prefix, "%s", prefix ? prefix : "");
    p->interval = interval > 0 ? interval : 0;
    p->width = width;
    p->clock = clock;
    p->clock_ctx = clock_ctx;
    p->origin = progress_now_(p);
    atomic_init(&p->done, 0);
    atomic_init(&p->next_due_ns, progress_ns_(p->interval));
    return p;
}

progress_t *progress_calls(progress_sink_t sink, void *sink_ctx, double interval)
{
    progress_t *p = progress_new(NULL, NULL, interval, 0, NULL, NULL);
    if (p) {
        p->sink = sink;
        p->sink_ctx = sink_ctx;
    }
    return p;
}

/* CUZK_PROGRESS_INTERVAL_MS in seconds, or the default when unset or not
 * a whole number from 0 to 60000. */
static double progress_interval_(void)
{
    const char *v = getenv("CUZK_PROGRESS_INTERVAL_MS");
    if (!v || !*v)
        return PROGRESS_INTERVAL_S;
    char *end;
    errno = 0;
    long ms = strtol(v, &end, 10);
    if (errno || *end || ms < 0 || ms > 60000)
        return PROGRESS_INTERVAL_S;
    return (double)ms / 1000;
}

progress_t *progress_stderr(const char *prefix, bool quiet)
{
    if (quiet || !isatty(STDERR_FILENO))
        return NULL;
    const char *term = getenv("TERM");
    if (term && !strcmp(term, "dumb"))
        return NULL;
    struct winsize ws;
    unsigned width = 0;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
        width = ws.ws_col;
    return progress_new(stderr, prefix, progress_interval_(), width, NULL, NULL);
}

void progress_free(progress_t *p)
{
    if (!p)
        return;
    progress_end(p);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

void progress_begin(progress_t *p, const char *stage, uint64_t total, const char *unit)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    snprintf(p->stage, sizeof p->stage, "%s", stage);
    snprintf(p->unit, sizeof p->unit, "%s", unit ? unit : "");
    if (p->step < p->steps)
        p->step++;
    p->total = total;
    p->start = progress_now_(p);
    atomic_store(&p->done, 0);
    p->active = true;
    pthread_mutex_unlock(&p->lock);
    progress_maybe_draw_(p);
}

void progress_label(progress_t *p, const char *stage)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    snprintf(p->stage, sizeof p->stage, "%s", stage);
    pthread_mutex_unlock(&p->lock);
}

void progress_steps(progress_t *p, unsigned steps)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->steps = steps;
    p->step = 0;
    pthread_mutex_unlock(&p->lock);
}

void progress_advance(progress_t *p, uint64_t n)
{
    if (!p)
        return;
    atomic_fetch_add_explicit(&p->done, n, memory_order_relaxed);
    progress_maybe_draw_(p);
}

void progress_set(progress_t *p, uint64_t done)
{
    if (!p)
        return;
    atomic_store_explicit(&p->done, done, memory_order_relaxed);
    progress_maybe_draw_(p);
}

void progress_end(progress_t *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    if (p->drawn) {
        fputs("\r\033[K", p->out);
        fflush(p->out);
    }
    p->drawn = false;
    p->active = false;
    pthread_mutex_unlock(&p->lock);
}
