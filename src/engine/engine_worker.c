/*
 * The engine's workers (engine.h): each takes the next partition its
 * device may run in queue order when its working set fits the budget,
 * proves it through the backend with the engine's mutex released, and
 * settles the result into its job (the hooks first). The state is
 * engine_impl.h's.
 */
#include "engine/engine.h"
#include "engine/engine_impl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ENGINE_ERR_MAX = 600 };

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

void *engine_worker_main(void *arg)
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
