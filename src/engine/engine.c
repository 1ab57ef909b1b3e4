/*
 * The engine (engine.h): jobs, the workers, the engine's life and its
 * counters; the key registry is engine_keys.c, the id map and the queue
 * engine_queue.c, the state they share engine_impl.h. The engine's mutex
 * is released while keys load, partitions run and hooks run.
 */
#include "engine/engine.h"
#include "engine/engine_impl.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/rng.h"
#include "util/utf8.h"

enum {
    ENGINE_DEFAULT_TIMELINE = 4096,
    ENGINE_ERR_MAX = 600,
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

/* ---- jobs -------------------------------------------------------------------- */

static void job_destroy(engine_job_t *job)
{
    for (uint32_t i = 0; i < job->n; i++) {
        free((char *)job->inputs[i].path);
        free((unsigned char *)job->inputs[i].bytes);
        engine_result_free(&job->parts[i].result);
    }
    free(job->inputs);
    free(job->parts);
    free(job->error);
    pthread_mutex_destroy(&job->hook_lock);
    free(job);
}

static void job_unref_locked(engine_job_t *job)
{
    assert(job->refs > 0);
    if (--job->refs == 0)
        job_destroy(job);
}

/* The key goes back once the job has ended and nothing of it runs. */
static void job_release_key_locked(engine_job_t *job)
{
    if (job->key && engine_state_ended(job->state) && job->n_running == 0) {
        job->key->users--;
        job->key = NULL;
    }
}

static void ended_append(engine_t *e, engine_job_t *job)
{
    job->ended_prev = e->ended_tail;
    job->ended_next = NULL;
    if (e->ended_tail)
        e->ended_tail->ended_next = job;
    else
        e->ended_head = job;
    e->ended_tail = job;
    job->in_ended = true;
    e->n_ended++;
}

static void ended_remove(engine_t *e, engine_job_t *job)
{
    if (job->ended_prev)
        job->ended_prev->ended_next = job->ended_next;
    else
        e->ended_head = job->ended_next;
    if (job->ended_next)
        job->ended_next->ended_prev = job->ended_prev;
    else
        e->ended_tail = job->ended_prev;
    job->in_ended = false;
    e->n_ended--;
}

static void job_deactivate(engine_t *e, engine_job_t *job)
{
    if (!job->active)
        return;
    job->active = false;
    e->active_jobs--;
    if (job->held)
        e->c.jobs_held--;
    else if (job->state == ENGINE_QUEUED)
        e->c.jobs_queued--;
    else if (job->state == ENGINE_RUNNING)
        e->c.jobs_running--;
}

/*
 * Ends job in state with error (malloc'd, owned from here; NULL for none).
 * Called with e->lock held and !job->ending; releases the lock around the
 * hook and returns with it held.
 */
static void job_end_locked(engine_t *e, engine_job_t *job, engine_state_t state, char *error)
{
    assert(!job->ending && !engine_state_ended(job->state));
    job->ending = true;
    if (error) /* it is journaled and served as JSON text */
        utf8_scrub(error);
    if (job->held) /* a duplicate submit waits for the outcome of a held job */
        pthread_cond_broadcast(&e->held_cv);
    if (job->n_queued > 0) {
        engine_q_remove_job(e, job);
        e->c.partitions_queued -= job->n_queued;
        job->n_queued = 0;
    }
    for (uint32_t i = 0; i < job->n; i++)
        if (job->parts[i].state == ENGINE_QUEUED)
            job->parts[i].state = ENGINE_CANCELLED;
    job->refs++;
    pthread_mutex_unlock(&e->lock);
    if (e->cfg.hooks && e->cfg.hooks->job_ended) {
        pthread_mutex_lock(&job->hook_lock);
        e->cfg.hooks->job_ended(e->cfg.hooks->ctx, job, state, error);
        pthread_mutex_unlock(&job->hook_lock);
    }
    pthread_mutex_lock(&e->lock);
    job_deactivate(e, job);
    job->state = state;
    job->error = error;
    job->finished_at = engine_wall();
    if (state == ENGINE_DONE)
        e->c.jobs_done++;
    else if (state == ENGINE_FAILED)
        e->c.jobs_failed++;
    else
        e->c.jobs_cancelled++;
    if (job->in_map)
        ended_append(e, job);
    job_release_key_locked(job);
    pthread_cond_broadcast(&e->ended_cv);
    job_unref_locked(job);
}

/* Copies the inputs of spec into job (0, or -1 on ENOMEM). */
static int job_copy_inputs(engine_job_t *job, const engine_job_spec_t *spec)
{
    for (uint32_t i = 0; i < spec->n_inputs; i++) {
        const engine_input_t *in = &spec->inputs[i];
        engine_input_t *o = &job->inputs[i];
        o->kind = in->kind;
        o->asgn = in->asgn; /* borrowed, as the blinding is: the caller's until the job ends */
        o->blind_r = in->blind_r;
        o->blind_s = in->blind_s;
        if (in->path && !(o->path = strdup(in->path)))
            return -1;
        if (in->bytes) {
            unsigned char *b = malloc(in->len ? in->len : 1);
            if (!b)
                return -1;
            memcpy(b, in->bytes, in->len);
            o->bytes = b;
            o->len = in->len;
        }
    }
    return 0;
}

static bool spec_inputs_valid(const engine_job_spec_t *spec)
{
    if (spec->n_inputs == 0 || !spec->inputs)
        return false;
    for (uint32_t i = 0; i < spec->n_inputs; i++) {
        const engine_input_t *in = &spec->inputs[i];
        bool ok = in->kind == ENGINE_INPUT_WTNS_BYTES ? in->bytes != NULL
                  : in->kind == ENGINE_INPUT_ASGN_MEM ? in->asgn != NULL
                  : in->kind == ENGINE_INPUT_WTNS_PATH || in->kind == ENGINE_INPUT_ASGN_PATH
                      ? in->path != NULL
                      : false;
        if (!ok || !in->blind_r != !in->blind_s)
            return false;
    }
    return true;
}

/* Whether in can be proven by a key that proves as format (KEY_FORMAT_ZKEY
 * or KEY_FORMAT_PARAMS: a cache key's kind). */
static bool input_fits(key_format_t format, const engine_input_t *in)
{
    return engine_input_is_asgn(in->kind) == (format == KEY_FORMAT_PARAMS);
}

/* A new job record for spec (not yet in the map); NULL on ENOMEM. */
static engine_job_t *job_new(const engine_job_spec_t *spec)
{
    engine_job_t *job = calloc(1, sizeof *job);
    if (!job)
        return NULL;
    job->inputs = calloc(spec->n_inputs, sizeof *job->inputs);
    job->parts = calloc(spec->n_inputs, sizeof *job->parts);
    if (!job->inputs || !job->parts || pthread_mutex_init(&job->hook_lock, NULL) != 0) {
        free(job->inputs);
        free(job->parts);
        free(job);
        return NULL;
    }
    job->n = spec->n_inputs; /* the arrays are zeroed: job_destroy copes with a partial copy */
    if (job_copy_inputs(job, spec) != 0) {
        job_destroy(job);
        return NULL;
    }
    for (uint32_t i = 0; i < job->n; i++)
        job->parts[i].worker = -1;
    snprintf(job->key_name, sizeof job->key_name, "%s", spec->key ? spec->key : "");
    job->priority = spec->priority;
    job->devices = spec->devices;
    job->submitted_at = spec->submitted_at > 0 ? spec->submitted_at : engine_wall();
    job->submitted_mono = engine_now();
    job->refs = 1; /* the map's */
    return job;
}

/* A fresh id that no job has (16 hex digits of the OS generator, a
 * counter when that fails). */
static void job_draw_id(engine_t *e, char *id)
{
    do {
        uint64_t r = 0;
        if (random_bytes(NULL, &r, sizeof r) != CUZK_OK)
            r = e->next_seq * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(engine_now() * 1e9);
        snprintf(id, ENGINE_ID_MAX + 1, "%016llx", (unsigned long long)r);
    } while (engine_map_find(e, id));
}

/* Registers job (locked): id, seq, map. Returns ENGINE_OK or ENGINE_ENOMEM. */
static engine_rc_t job_register_locked(engine_t *e, engine_job_t *job,
                                       const engine_job_spec_t *spec)
{
    if (spec->id)
        snprintf(job->id, sizeof job->id, "%s", spec->id);
    else
        job_draw_id(e, job->id);
    if (engine_map_insert(e, job) != 0)
        return ENGINE_ENOMEM;
    job->seq = spec->seq ? spec->seq : e->next_seq;
    if (job->seq >= e->next_seq)
        e->next_seq = job->seq + 1;
    return ENGINE_OK;
}

/* The checks shared by submit and restore of a live job, locked. A
 * restored job was accepted before: draining and max_jobs do not apply. */
static engine_rc_t job_admit_locked(engine_t *e, const engine_job_spec_t *spec, engine_key_t **key,
                                    bool restoring)
{
    if (e->draining && !restoring)
        return ENGINE_EDRAINING;
    *key = spec->key ? engine_key_find(e, spec->key) : NULL;
    if (!*key || (*key)->loading)
        return ENGINE_ENOKEY;
    for (uint32_t i = 0; i < spec->n_inputs; i++)
        if (!input_fits((*key)->proves_as, &spec->inputs[i]))
            return ENGINE_EMISMATCH;
    if (e->cfg.max_jobs && e->active_jobs >= e->cfg.max_jobs && !restoring)
        return ENGINE_EFULL;
    return ENGINE_OK;
}

static void job_hold_locked(engine_t *e, engine_job_t *job, engine_key_t *key)
{
    job->key = key;
    job->format = key->proves_as;
    key->users++;
    job->held = true;
    job->active = true;
    job->state = ENGINE_QUEUED;
    e->active_jobs++;
    e->c.jobs_held++;
}

/* Whether a worker proves on one of devices (0: any). */
static bool devices_served(const engine_t *e, uint32_t devices)
{
    if (devices == 0)
        return true;
    for (unsigned i = 0; i < e->cfg.workers + e->cfg.urgent_workers; i++)
        if (e->workers[i].device >= 0 && e->workers[i].device < 32 &&
            (devices >> e->workers[i].device & 1))
            return true;
    return false;
}

engine_rc_t engine_job_submit(engine_t *e, const engine_job_spec_t *spec, engine_job_t **out)
{
    *out = NULL;
    if ((spec->id && !engine_id_valid(spec->id)) || (unsigned)spec->priority >= ENGINE_PRIORITIES ||
        !spec->key || !spec_inputs_valid(spec) || !devices_served(e, spec->devices))
        return ENGINE_EINVAL;
    engine_job_t *job = job_new(spec);
    if (!job)
        return ENGINE_ENOMEM;
    pthread_mutex_lock(&e->lock);
    engine_job_t *old = spec->id ? engine_map_find(e, spec->id) : NULL;
    /* A job with this id that is still held may yet be aborted (its journal
     * record failed): wait for its outcome rather than report as accepted
     * what may never be on disk. Aborted, it leaves the id free for this
     * submission. */
    while (old && old->held && !old->ending) {
        pthread_cond_wait(&e->held_cv, &e->lock);
        old = engine_map_find(e, spec->id);
    }
    engine_key_t *key = NULL;
    engine_rc_t rc = old ? ENGINE_EEXIST : job_admit_locked(e, spec, &key, false);
    if (old)
        old->refs++;
    if (rc == ENGINE_OK)
        rc = job_register_locked(e, job, spec);
    if (rc == ENGINE_OK) {
        job_hold_locked(e, job, key);
        job->refs++; /* the caller's */
        e->c.jobs_submitted++;
    }
    pthread_mutex_unlock(&e->lock);
    if (rc != ENGINE_OK)
        job_destroy(job);
    *out = rc == ENGINE_OK ? job : old;
    return rc;
}

engine_rc_t engine_job_restore(engine_t *e, const engine_job_spec_t *spec, engine_state_t state,
                               const char *error, double finished_at, engine_result_t **results,
                               engine_job_t **out)
{
    *out = NULL;
    if (!spec->id || !engine_id_valid(spec->id) || (unsigned)spec->priority >= ENGINE_PRIORITIES ||
        !spec_inputs_valid(spec) || state == ENGINE_RUNNING || (unsigned)state >= ENGINE_STATES)
        return ENGINE_EINVAL;
    /* A job journaled as done whose results are not all there (a damaged
     * journal) resumes instead: a DONE job always has every result. */
    for (uint32_t i = 0; state == ENGINE_DONE && i < spec->n_inputs; i++)
        if (!results || !results[i])
            state = ENGINE_QUEUED;
    engine_job_t *job = job_new(spec);
    char *err_copy = error ? strdup(error) : NULL;
    if (!job || (error && !err_copy)) {
        if (job)
            job_destroy(job);
        free(err_copy);
        return ENGINE_ENOMEM;
    }
    pthread_mutex_lock(&e->lock);
    engine_key_t *key = NULL;
    bool ended = engine_state_ended(state);
    engine_rc_t rc = engine_map_find(e, spec->id) ? ENGINE_EEXIST
                     : ended                      ? ENGINE_OK
                                                  : job_admit_locked(e, spec, &key, true);
    if (rc == ENGINE_OK)
        rc = job_register_locked(e, job, spec);
    if (rc == ENGINE_OK) {
        for (uint32_t i = 0; i < job->n; i++) {
            engine_part_t *p = &job->parts[i];
            if (results && results[i]) {
                p->result = *results[i];
                memset(results[i], 0, sizeof *results[i]);
                p->state = ENGINE_DONE;
                job->n_done++;
            } else {
                p->state = ended ? ENGINE_CANCELLED : ENGINE_QUEUED;
            }
        }
        if (ended) {
            job->state = state;
            job->ending = true;
            job->error = err_copy;
            err_copy = NULL;
            job->finished_at = finished_at;
            job->format =
                engine_input_is_asgn(spec->inputs[0].kind) ? KEY_FORMAT_PARAMS : KEY_FORMAT_ZKEY;
            ended_append(e, job);
        } else {
            job_hold_locked(e, job, key);
        }
        job->refs++;
    }
    pthread_mutex_unlock(&e->lock);
    free(err_copy);
    if (rc != ENGINE_OK) {
        job_destroy(job);
        return rc;
    }
    *out = job;
    return ENGINE_OK;
}

void engine_job_start(engine_t *e, engine_job_t *job)
{
    pthread_mutex_lock(&e->lock);
    if (!job->held || job->ending) {
        pthread_mutex_unlock(&e->lock);
        return;
    }
    job->held = false;
    e->c.jobs_held--;
    e->c.jobs_queued++;
    pthread_cond_broadcast(&e->held_cv);
    for (uint32_t i = 0; i < job->n; i++)
        if (job->parts[i].state == ENGINE_QUEUED) {
            if (engine_q_push(e, job, i) != 0) {
                char *msg = strdup("out of memory for the queue");
                job_end_locked(e, job, ENGINE_FAILED, msg);
                pthread_mutex_unlock(&e->lock);
                return;
            }
            job->n_queued++;
            e->c.partitions_queued++;
        }
    if (job->n_done == job->n) /* restored with every partition done */
        job_end_locked(e, job, ENGINE_DONE, NULL);
    pthread_cond_broadcast(&e->work_cv);
    pthread_mutex_unlock(&e->lock);
}

void engine_job_abort(engine_t *e, engine_job_t *job)
{
    pthread_mutex_lock(&e->lock);
    if (job->held && job->in_map) {
        job_deactivate(e, job);
        job->held = false;
        job->ending = true;
        job->state = ENGINE_CANCELLED;
        engine_map_remove(e, job);
        e->c.jobs_submitted--;
        job_release_key_locked(job);
        job_unref_locked(job); /* the map's */
        pthread_cond_broadcast(&e->held_cv);
    }
    pthread_mutex_unlock(&e->lock);
}

/* The CLOCK_MONOTONIC time secs (>= 0) from now, for the engine's waits. */
static struct timespec engine_deadline(double secs)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_sec += (time_t)secs;
    t.tv_nsec += (long)((secs - (double)(time_t)secs) * 1e9);
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

engine_job_t *engine_job_find(engine_t *e, const char *id)
{
    if (!id)
        return NULL;
    struct timespec deadline = engine_deadline(ENGINE_HELD_WAIT_S);
    pthread_mutex_lock(&e->lock);
    engine_job_t *job = engine_map_find(e, id);
    /* A held job is not accepted yet (its journal record may still fail):
     * its outcome first, as for a duplicate submit. */
    bool timed_out = false;
    while (job && job->held && !job->ending && !timed_out) {
        timed_out = pthread_cond_timedwait(&e->held_cv, &e->lock, &deadline) == ETIMEDOUT;
        job = engine_map_find(e, id);
    }
    if (job && job->held && !job->ending)
        job = NULL;
    if (job)
        job->refs++;
    pthread_mutex_unlock(&e->lock);
    return job;
}

void engine_job_ref(engine_t *e, engine_job_t *job)
{
    pthread_mutex_lock(&e->lock);
    job->refs++;
    pthread_mutex_unlock(&e->lock);
}

void engine_job_unref(engine_t *e, engine_job_t *job)
{
    if (!job)
        return;
    pthread_mutex_lock(&e->lock);
    job_unref_locked(job);
    pthread_mutex_unlock(&e->lock);
}

const char *engine_job_id(const engine_job_t *job)
{
    return job->id;
}

const char *engine_job_key(const engine_job_t *job)
{
    return job->key_name;
}

key_format_t engine_job_format(const engine_job_t *job)
{
    return job->format;
}

uint64_t engine_job_seq(const engine_job_t *job)
{
    return job->seq;
}

uint32_t engine_job_partitions(const engine_job_t *job)
{
    return job->n;
}

const engine_input_t *engine_job_input(const engine_job_t *job, uint32_t index)
{
    return index < job->n ? &job->inputs[index] : NULL;
}

void engine_job_set_user(engine_job_t *job, void *user)
{
    job->user = user;
}

void *engine_job_user(const engine_job_t *job)
{
    return job->user;
}

engine_rc_t engine_job_info(engine_t *e, engine_job_t *job, engine_job_info_t *info)
{
    memset(info, 0, sizeof *info);
    pthread_mutex_lock(&e->lock);
    info->partitions = malloc(job->n * sizeof *info->partitions);
    info->error = job->error ? strdup(job->error) : NULL;
    if (!info->partitions || (job->error && !info->error)) {
        pthread_mutex_unlock(&e->lock);
        engine_job_info_free(info);
        return ENGINE_ENOMEM;
    }
    info->priority = job->priority;
    info->state = job->state;
    info->n_partitions = job->n;
    info->n_done = job->n_done;
    info->submitted_at = job->submitted_at;
    info->started_at = job->started_at;
    info->finished_at = job->finished_at;
    info->queue_seconds = job->queue_seconds;
    for (uint32_t i = 0; i < job->n; i++) {
        const engine_part_t *p = &job->parts[i];
        engine_partition_info_t *o = &info->partitions[i];
        o->state = p->state;
        o->worker = p->worker;
        memcpy(o->seconds, p->seconds, sizeof o->seconds);
        o->started_at = p->started_at;
        o->finished_at = p->finished_at;
        o->result = p->state == ENGINE_DONE ? &p->result : NULL;
        o->status = p->state == ENGINE_FAILED ? p->status : CUZK_OK;
    }
    pthread_mutex_unlock(&e->lock);
    return ENGINE_OK;
}

void engine_job_info_free(engine_job_info_t *info)
{
    free(info->partitions);
    free(info->error);
    memset(info, 0, sizeof *info);
}

engine_rc_t engine_job_cancel(engine_t *e, engine_job_t *job)
{
    pthread_mutex_lock(&e->lock);
    engine_rc_t rc = job->ending || engine_state_ended(job->state) ? ENGINE_EENDED : ENGINE_OK;
    if (rc == ENGINE_OK)
        job_end_locked(e, job, ENGINE_CANCELLED, NULL);
    pthread_mutex_unlock(&e->lock);
    return rc;
}

bool engine_job_wait(engine_t *e, engine_job_t *job, double timeout)
{
    struct timespec deadline = engine_deadline(timeout > 0 ? timeout : 0);
    pthread_mutex_lock(&e->lock);
    while (!engine_state_ended(job->state) && !e->waking && timeout > 0)
        if (pthread_cond_timedwait(&e->ended_cv, &e->lock, &deadline) == ETIMEDOUT)
            break;
    bool ended = engine_state_ended(job->state);
    pthread_mutex_unlock(&e->lock);
    return ended;
}

void engine_wake_waiters(engine_t *e)
{
    pthread_mutex_lock(&e->lock);
    e->waking = true;
    pthread_cond_broadcast(&e->ended_cv);
    pthread_mutex_unlock(&e->lock);
}

size_t engine_jobs_prune(engine_t *e, size_t keep, void (*forget)(void *ctx, engine_job_t *job),
                         void *ctx)
{
    size_t n = 0;
    pthread_mutex_lock(&e->lock);
    while (e->n_ended > keep) {
        engine_job_t *job = e->ended_head;
        while (job && job->n_running > 0)
            job = job->ended_next;
        if (!job)
            break;
        ended_remove(e, job);
        engine_map_remove(e, job);
        pthread_mutex_unlock(&e->lock);
        if (forget)
            forget(ctx, job);
        pthread_mutex_lock(&e->lock);
        job_unref_locked(job); /* the map's */
        n++;
    }
    pthread_mutex_unlock(&e->lock);
    return n;
}

/* qsort order of a listing: newest (highest seq) first. */
static int summary_newest_first(const void *a, const void *b)
{
    uint64_t x = ((const engine_job_summary_t *)a)->seq, y = ((const engine_job_summary_t *)b)->seq;
    return x < y ? 1 : x > y ? -1 : 0;
}

size_t engine_jobs_list(engine_t *e, int state, uint64_t before, size_t limit,
                        engine_job_summary_t **out, size_t *matched)
{
    *out = NULL;
    size_t n = 0, in_state = 0;
    if (matched)
        *matched = 0;
    pthread_mutex_lock(&e->lock);
    if (e->n_jobs == 0) {
        pthread_mutex_unlock(&e->lock);
        return 0;
    }
    engine_job_summary_t *all = malloc(e->n_jobs * sizeof *all);
    if (!all) {
        pthread_mutex_unlock(&e->lock);
        return (size_t)-1;
    }
    for (size_t b = 0; b < e->n_buckets; b++)
        for (const engine_job_t *job = e->buckets[b]; job; job = job->hnext) {
            if (job->held || (state >= 0 && job->state != (engine_state_t)state))
                continue;
            in_state++;
            if (before && job->seq >= before)
                continue;
            engine_job_summary_t *s = &all[n++];
            memcpy(s->id, job->id, sizeof s->id);
            memcpy(s->key, job->key_name, sizeof s->key);
            s->priority = job->priority;
            s->state = job->state;
            s->seq = job->seq;
            s->n_partitions = job->n;
            s->n_done = job->n_done;
            s->n_running = job->n_running;
            s->submitted_at = job->submitted_at;
            s->started_at = job->started_at;
            s->finished_at = job->finished_at;
            s->error = NULL;
        }
    pthread_mutex_unlock(&e->lock);
    if (n > 1)
        qsort(all, n, sizeof *all, summary_newest_first);
    if (n > limit)
        n = limit;
    /* The errors are copied for the listed jobs only, under the lock again:
     * a job may have been pruned meanwhile (then it is listed without it). */
    bool oom = false;
    pthread_mutex_lock(&e->lock);
    for (size_t i = 0; i < n && !oom; i++) {
        const engine_job_t *job = engine_map_find(e, all[i].id);
        if (job && job->seq == all[i].seq && job->error && !(all[i].error = strdup(job->error)))
            oom = true;
    }
    pthread_mutex_unlock(&e->lock);
    if (oom) {
        engine_jobs_list_free(all, n);
        return (size_t)-1;
    }
    if (matched)
        *matched = in_state;
    if (n == 0) {
        free(all);
        all = NULL;
    }
    *out = all;
    return n;
}

void engine_jobs_list_free(engine_job_summary_t *list, size_t n)
{
    for (size_t i = 0; list && i < n; i++)
        free(list[i].error);
    free(list);
}

void engine_drain(engine_t *e)
{
    pthread_mutex_lock(&e->lock);
    e->draining = true;
    pthread_cond_broadcast(&e->work_cv);
    while (e->c.partitions_running > 0)
        pthread_cond_wait(&e->idle_cv, &e->lock);
    pthread_mutex_unlock(&e->lock);
}

bool engine_draining(engine_t *e)
{
    pthread_mutex_lock(&e->lock);
    bool d = e->draining;
    pthread_mutex_unlock(&e->lock);
    return d;
}

/* ---- workers --------------------------------------------------------------------- */

typedef struct engine_run {
    engine_t *e;
    engine_job_t *job;
    uint32_t index;
    int worker;
} engine_run_t;

/* The backend's stage report: the timeline, the partition's timings, and
 * whether the job still wants the result. */
static bool engine_report(void *ctx, engine_stage_t stage, double start, double end, uint64_t bytes)
{
    engine_run_t *r = ctx;
    engine_t *e = r->e;
    engine_event_t ev = {.partition = r->index,
                         .worker = r->worker,
                         .stage = stage,
                         .start = start,
                         .end = end,
                         .bytes = bytes};
    memcpy(ev.job, r->job->id, sizeof ev.job);
    engine_record(e, &ev);
    pthread_mutex_lock(&e->lock);
    if ((unsigned)stage < ENGINE_STAGES) {
        r->job->parts[r->index].seconds[stage] += end - start;
        e->c.stage_seconds[stage] += end - start;
    }
    bool wanted = !r->job->ending;
    pthread_mutex_unlock(&e->lock);
    return wanted;
}

/* Whether worker ctx may take a partition of job: urgent workers take
 * critical ones alone, and a job that names devices runs on theirs. */
static bool worker_may_take(const engine_job_t *job, const void *ctx)
{
    const engine_worker_t *w = ctx;
    if (w->urgent && job->priority != ENGINE_PRIORITY_CRITICAL)
        return false;
    return job->devices == 0 ||
           (w->device >= 0 && w->device < 32 && (job->devices >> w->device & 1));
}

/* Whether the first partition in the queue that worker w may take (at
 * *at) may start now (locked): not draining, and its working set (*need)
 * reserved in the host budget beside the keys and the running partitions
 * (taken over the budget when nothing runs: one partition always runs).
 * The queue's order is the budget's: only that partition asks, without
 * waiting. */
static bool engine_next_ready(engine_t *e, const engine_worker_t *w, size_t *at, uint64_t *need)
{
    if (e->draining || e->heap_n == 0)
        return false;
    *at = engine_q_find(e, worker_may_take, w);
    if (*at == e->heap_n)
        return false;
    const engine_job_t *job = e->heap[*at].job;
    const engine_backend_t *be = e->cfg.backend;
    *need = be->partition_bytes ? be->partition_bytes(be->ctx, job->key->data) : 0;
    if (e->c.partitions_running == 0) {
        engine_budget_take(e->host, *need);
        return true;
    }
    return engine_budget_reserve(e->host, *need, job->priority, ENGINE_BUDGET_NO_WAIT, NULL, 0) ==
           CUZK_OK;
}

/* After a partition ran (locked): its result into the job, or its failure. */
static void engine_settle(engine_t *e, engine_run_t *r, cuzk_status_t s, engine_result_t *res,
                          const char *err)
{
    engine_job_t *job = r->job;
    engine_part_t *p = &job->parts[r->index];
    if (job->ending) {
        engine_result_free(res);
        p->state = ENGINE_CANCELLED;
        e->c.partitions_discarded++;
        return;
    }
    if (s != CUZK_OK) {
        p->state = ENGINE_FAILED;
        p->status = s;
        e->c.partitions_failed++;
        size_t len = strlen(err) + 128;
        char *msg = malloc(len);
        if (msg)
            snprintf(msg, len, "partition %u: %s", r->index, err[0] ? err : cuzk_strerror(s));
        job_end_locked(e, job, ENGINE_FAILED, msg);
        return;
    }
    if (e->cfg.hooks && e->cfg.hooks->partition_done) {
        char why[1024] = "";
        pthread_mutex_unlock(&e->lock);
        pthread_mutex_lock(&job->hook_lock);
        int hook_rc =
            e->cfg.hooks->partition_done(e->cfg.hooks->ctx, job, r->index, res, why, sizeof why);
        pthread_mutex_unlock(&job->hook_lock);
        pthread_mutex_lock(&e->lock);
        if (job->ending) { /* cancelled during the hook */
            engine_result_free(res);
            p->state = ENGINE_CANCELLED;
            e->c.partitions_discarded++;
            return;
        }
        if (hook_rc != 0) { /* not recorded: never shown */
            engine_result_free(res);
            p->state = ENGINE_FAILED;
            e->c.partitions_failed++;
            size_t len = strlen(why) + 64;
            char *msg = malloc(len);
            if (msg)
                snprintf(msg, len, "partition %u: its result was not recorded: %s", r->index,
                         why[0] ? why : "the hook failed");
            job_end_locked(e, job, ENGINE_FAILED, msg);
            return;
        }
    }
    p->result = *res;
    p->state = ENGINE_DONE;
    job->n_done++;
    e->c.partitions_done++;
    if (job->key) {
        job->key->proofs++;
        job->key->last_used = engine_wall();
    }
    if (job->n_done == job->n)
        job_end_locked(e, job, ENGINE_DONE, NULL);
}

/* Takes the next partition (locked): marks it running. *first: it is the
 * first of its job to start. */
static engine_qitem_t engine_take(engine_t *e, int worker, size_t at, uint64_t reserve, bool *first)
{
    engine_qitem_t it = engine_q_take(e, at);
    engine_job_t *job = it.job;
    engine_part_t *p = &job->parts[it.index];
    p->state = ENGINE_RUNNING;
    p->worker = worker;
    p->started_at = engine_wall();
    job->n_queued--;
    job->n_running++;
    *first = job->state == ENGINE_QUEUED;
    if (*first) {
        job->state = ENGINE_RUNNING;
        job->started_at = p->started_at;
        job->queue_seconds = engine_now() - job->submitted_mono;
        e->c.jobs_queued--;
        e->c.jobs_running++;
    }
    e->c.partitions_queued--;
    e->c.partitions_running++;
    e->c.host_reserved_bytes += reserve;
    job->refs++;
    return it;
}

/* The job_started hook for job, whose first partition this worker took
 * (unlocked; the worker holds a reference). hook_lock before e->lock: no
 * one takes hook_lock with e->lock held. */
static void engine_report_start(engine_t *e, engine_job_t *job)
{
    if (!e->cfg.hooks || !e->cfg.hooks->job_started)
        return;
    pthread_mutex_lock(&job->hook_lock);
    pthread_mutex_lock(&e->lock);
    bool ending = job->ending;
    pthread_mutex_unlock(&e->lock);
    if (!ending)
        e->cfg.hooks->job_started(e->cfg.hooks->ctx, job);
    pthread_mutex_unlock(&job->hook_lock);
}

static void *engine_worker_main(void *arg)
{
    engine_worker_t *w = arg;
    engine_t *e = w->e;
    const engine_backend_t *be = e->cfg.backend;
    cuzk_status_t s =
        be->worker_new ? be->worker_new(be->ctx, w->index, w->threads, &w->wctx) : CUZK_OK;
    pthread_mutex_lock(&e->lock);
    if (s != CUZK_OK && e->worker_status == CUZK_OK)
        e->worker_status = s;
    e->n_workers_ready++;
    pthread_cond_broadcast(&e->idle_cv);
    char *err = malloc(ENGINE_ERR_MAX);
    bool able = s == CUZK_OK && err;
    for (;;) {
        uint64_t need = 0;
        size_t at = 0;
        while (!e->stop && !(able && engine_next_ready(e, w, &at, &need)))
            pthread_cond_wait(&e->work_cv, &e->lock);
        if (e->stop)
            break;
        bool first;
        engine_qitem_t it = engine_take(e, (int)w->index, at, need, &first);
        engine_run_t run = {e, it.job, it.index, (int)w->index};
        const void *key = it.job->key->data;
        key_format_t format = it.job->format;
        const engine_input_t *in = &it.job->inputs[it.index];
        engine_priority_t urgency = it.job->priority;
        pthread_mutex_unlock(&e->lock);
        if (first)
            engine_report_start(e, it.job);

        double t0 = engine_now();
        engine_result_t res = {0};
        err[0] = '\0';
        cuzk_status_t ps = be->prove(be->ctx, w->wctx, key, format, in, (unsigned)urgency,
                                     engine_report, &run, &res, err, ENGINE_ERR_MAX);
        double t1 = engine_now();

        pthread_mutex_lock(&e->lock);
        e->c.host_reserved_bytes -= need;
        engine_budget_release(e->host, need);
        e->c.partitions_running--;
        e->c.busy_seconds += t1 - t0;
        it.job->n_running--;
        it.job->parts[it.index].finished_at = engine_wall();
        engine_settle(e, &run, ps, &res, err);
        job_release_key_locked(it.job);
        job_unref_locked(it.job);
        pthread_cond_broadcast(&e->idle_cv);
        pthread_cond_broadcast(&e->work_cv);
    }
    pthread_mutex_unlock(&e->lock);
    free(err);
    if (be->worker_free && w->wctx)
        be->worker_free(be->ctx, w->wctx);
    return NULL;
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
