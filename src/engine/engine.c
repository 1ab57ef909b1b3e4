/*
 * The engine (engine.h): the names and small helpers, the engine's life
 * and its counters. Its jobs are engine_job.c, its workers
 * engine_worker.c, the key registry engine_keys.c, the id map and the
 * queue engine_queue.c, the state they share engine_impl.h. The engine's
 * mutex is released while keys load, partitions run and hooks run.
 */
#include "engine/engine.h"
#include "engine/engine_impl.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
    ENGINE_DEFAULT_TIMELINE = 4096,
    ENGINE_MIN_BUCKETS = 64,
};

/* ---- small things ------------------------------------------------------------ */

double engine_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double engine_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *const priority_names[ENGINE_PRIORITIES] = {"low", "normal", "high", "critical"};
static const char *const state_names[ENGINE_STATES] = {"queued", "running", "done", "failed",
                                                       "cancelled"};
static const char *const format_names[KEY_FORMATS] = {"zkey", "params", "cache"};
static const char *const stage_names[ENGINE_STAGES] = {"read",   "synth",  "h",      "msm",
                                                       "finish", "verify", "encode", "load"};

static int name_index(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (!strcmp(names[i], s))
            return i;
    return -1;
}

const char *engine_priority_name(engine_priority_t p)
{
    return (unsigned)p < ENGINE_PRIORITIES ? priority_names[p] : "unknown";
}

const char *engine_state_name(engine_state_t s)
{
    return (unsigned)s < ENGINE_STATES ? state_names[s] : "unknown";
}

const char *engine_key_format_name(key_format_t f)
{
    return (unsigned)f < KEY_FORMATS ? format_names[f] : "unknown";
}

const char *engine_stage_name(engine_stage_t s)
{
    return (unsigned)s < ENGINE_STAGES ? stage_names[s] : "unknown";
}

int engine_priority_from_name(const char *s)
{
    return name_index(priority_names, ENGINE_PRIORITIES, s);
}

int engine_key_format_from_name(const char *s)
{
    return name_index(format_names, KEY_FORMATS, s);
}

int engine_state_from_name(const char *s)
{
    return name_index(state_names, ENGINE_STATES, s);
}

const char *engine_rc_name(engine_rc_t rc)
{
    switch (rc) {
    case ENGINE_OK: return "ok";
    case ENGINE_EINVAL: return "invalid argument";
    case ENGINE_ENOKEY: return "no such key";
    case ENGINE_ENOJOB: return "no such job";
    case ENGINE_EEXIST: return "already exists";
    case ENGINE_EBUSY: return "in use";
    case ENGINE_EFULL: return "queue full";
    case ENGINE_EDRAINING: return "draining";
    case ENGINE_EENDED: return "job has ended";
    case ENGINE_EMISMATCH: return "input does not fit the key's format";
    case ENGINE_ELOAD: return "key load failed";
    case ENGINE_EBUDGET: return "over the host memory budget";
    case ENGINE_ENOMEM: return "out of memory";
    }
    return "unknown";
}

bool engine_id_valid(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > ENGINE_ID_MAX || s[0] == '.' || s[0] == '-')
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

void engine_result_free(engine_result_t *r)
{
    free(r->proof_json);
    free(r->public_json);
    free(r->proof_bytes);
    memset(r, 0, sizeof *r);
}

/* Records ev in the timeline and hands it to the event hook. */
void engine_record(engine_t *e, const engine_event_t *ev)
{
    engine_timeline_record(e->tl, ev);
    if (e->cfg.hooks && e->cfg.hooks->event)
        e->cfg.hooks->event(e->cfg.hooks->ctx, ev);
}

/* ---- the engine ---------------------------------------------------------------- */

static int engine_init_sync(engine_t *e)
{
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca) != 0)
        return -1;
    int bad = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    bad |= pthread_mutex_init(&e->lock, NULL);
    bad |= pthread_mutex_init(&e->load_lock, NULL);
    bad |= pthread_cond_init(&e->work_cv, NULL);
    bad |= pthread_cond_init(&e->ended_cv, &ca);
    bad |= pthread_cond_init(&e->idle_cv, NULL);
    bad |= pthread_cond_init(&e->held_cv, &ca);
    pthread_condattr_destroy(&ca);
    return bad ? -1 : 0;
}

engine_t *engine_new(const engine_config_t *cfg, cuzk_status_t *st)
{
    cuzk_status_t dummy;
    if (!st)
        st = &dummy;
    *st = CUZK_ENOMEM;
    assert(cfg && cfg->backend && cfg->backend->prove && cfg->backend->key_load);
    engine_t *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->cfg = *cfg;
    if (e->cfg.workers == 0)
        e->cfg.workers = 1;
    if (e->cfg.threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        e->cfg.threads = n > 0 ? (unsigned)n : 1;
    }
    unsigned n_workers = e->cfg.workers + e->cfg.urgent_workers;
    e->c.workers = n_workers;
    e->c.threads = e->cfg.threads;
    e->c.host_budget = e->cfg.host_budget;
    e->c.backend = e->cfg.backend->name;
    e->next_seq = 1;
    e->started_mono = engine_now();
    e->started_wall = engine_wall();
    e->n_buckets = ENGINE_MIN_BUCKETS;
    e->buckets = calloc(e->n_buckets, sizeof(engine_job_t *));
    e->host = engine_budget_new("host_memory_budget", e->cfg.host_budget);
    e->tl =
        engine_timeline_new(cfg->timeline_events ? cfg->timeline_events : ENGINE_DEFAULT_TIMELINE);
    e->workers = calloc(n_workers, sizeof *e->workers);
    if (!e->buckets || !e->host || !e->tl || !e->workers || engine_init_sync(e) != 0) {
        engine_budget_free(e->host);
        engine_timeline_free(e->tl);
        free(e->buckets);
        free(e->workers);
        free(e);
        return NULL;
    }
    /* The threads are shared out: worker i gets threads / workers, the
     * first threads % workers one more, and every worker at least one;
     * the urgent workers come last (indices workers ..). */
    for (unsigned i = 0; i < n_workers; i++) {
        engine_worker_t *w = &e->workers[i];
        w->e = e;
        w->index = i;
        w->urgent = i >= e->cfg.workers;
        w->device = e->cfg.backend->worker_device
                        ? e->cfg.backend->worker_device(e->cfg.backend->ctx, i)
                        : 0;
        w->threads = e->cfg.threads / n_workers + (i < e->cfg.threads % n_workers);
        if (w->threads == 0)
            w->threads = 1;
        if (pthread_create(&w->thread, NULL, engine_worker_main, w) != 0)
            break;
        e->n_workers_started++;
    }
    pthread_mutex_lock(&e->lock);
    while (e->n_workers_ready < e->n_workers_started)
        pthread_cond_wait(&e->idle_cv, &e->lock);
    cuzk_status_t s = e->n_workers_started < n_workers ? CUZK_ENOMEM : e->worker_status;
    pthread_mutex_unlock(&e->lock);
    if (s != CUZK_OK) {
        engine_free(e);
        *st = s;
        return NULL;
    }
    *st = CUZK_OK;
    return e;
}

void engine_free(engine_t *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->lock);
    e->stop = true;
    e->waking = true;
    pthread_cond_broadcast(&e->work_cv);
    pthread_cond_broadcast(&e->ended_cv);
    pthread_mutex_unlock(&e->lock);
    for (unsigned i = 0; i < e->n_workers_started; i++)
        pthread_join(e->workers[i].thread, NULL);
    for (size_t b = 0; b < e->n_buckets; b++)
        for (engine_job_t *j = e->buckets[b], *next; j; j = next) {
            next = j->hnext;
            job_destroy(j);
        }
    for (engine_key_t *k = e->keys, *next; k; k = next) {
        next = k->next;
        engine_key_destroy(e, k);
    }
    engine_timeline_free(e->tl);
    engine_budget_release(e->host, e->c.host_key_bytes);
    engine_budget_free(e->host);
    pthread_mutex_destroy(&e->lock);
    pthread_mutex_destroy(&e->load_lock);
    pthread_cond_destroy(&e->work_cv);
    pthread_cond_destroy(&e->ended_cv);
    pthread_cond_destroy(&e->idle_cv);
    pthread_cond_destroy(&e->held_cv);
    free(e->heap);
    free(e->buckets);
    free(e->workers);
    free(e);
}

void engine_counters(engine_t *e, engine_counters_t *c)
{
    pthread_mutex_lock(&e->lock);
    *c = e->c;
    c->jobs_ended_kept = e->n_ended;
    c->draining = e->draining;
    c->uptime_seconds = engine_now() - e->started_mono;
    pthread_mutex_unlock(&e->lock);
}

engine_timeline_t *engine_timeline(engine_t *e)
{
    return e->tl;
}

double engine_started(const engine_t *e)
{
    return e->started_mono;
}
