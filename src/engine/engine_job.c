/*
 * The engine's jobs (engine.h): their life from submit (held, then
 * started, or aborted) or restore to their end, lookups, information,
 * cancellation and waits, the ended jobs kept and pruned, the list, and
 * drain. The state is engine_impl.h's, under the engine's mutex.
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

#include "util/utf8.h"

/* ---- jobs -------------------------------------------------------------------- */

void job_destroy(engine_job_t *job)
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

void job_unref_locked(engine_job_t *job)
{
    assert(job->refs > 0);
    if (--job->refs == 0)
        job_destroy(job);
}

/* The key goes back once the job has ended and nothing of it runs. */
void job_release_key_locked(engine_job_t *job)
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
void job_end_locked(engine_t *e, engine_job_t *job, engine_state_t state, char *error)
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

engine_rc_t engine_job_forget(engine_t *e, engine_job_t *job)
{
    pthread_mutex_lock(&e->lock);
    engine_rc_t rc =
        engine_state_ended(job->state) && job->n_running == 0 ? ENGINE_OK : ENGINE_EBUSY;
    if (rc == ENGINE_OK && job->in_map) {
        if (job->in_ended)
            ended_remove(e, job);
        engine_map_remove(e, job);
        job_unref_locked(job); /* the map's */
    }
    pthread_mutex_unlock(&e->lock);
    return rc;
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
