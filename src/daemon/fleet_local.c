/*
 * The leases this host holds (fleet_impl.h): each leased partition is a
 * local engine job of one partition, "lease-TOKEN", journaled before it
 * starts like any job the API accepts. Its result is journaled when it
 * is proven (the daemon's partition hook), so it waits there, across a
 * crash too, until the database takes it: the job's end gives the lease
 * its outcome (fleet_job_ended), and the fleet's thread hands every
 * outcome back, then forgets the job and its journal files.
 *
 * A failure is the input's own when the prover says the witness or
 * assignment is wrong (FLEET_FAIL_FATAL: the job fails at once); any
 * other (a file missing or unreadable here, a device, memory, a key that
 * did not come back after a restart) may be this host's, and the
 * partition is queued again for another attempt, up to max_attempts.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/fleet_impl.h"

#define FLEET_LEASE_PREFIX "lease-"

/* Statements that fail handing one outcome back (the database refusing
 * it, not a broken connection) before the fleet lets its lease expire. */
enum { FLEET_HAND_BACK_TRIES = 3 };

/* The lease of token (lock), or NULL. */
static fleet_lease_t *fleet_lease_find(fleet_t *f, int64_t token)
{
    for (size_t i = 0; i < f->n_leases; i++)
        if (f->leases[i].token == token)
            return &f->leases[i];
    return NULL;
}

/* Appends a lease (lock); the job's reference and error move into it.
 * -1 on ENOMEM. */
static int fleet_lease_add(fleet_t *f, const fleet_lease_t *l)
{
    if (f->n_leases == f->cap_leases) {
        size_t cap = f->cap_leases ? 2 * f->cap_leases : 16;
        fleet_lease_t *grown = realloc(f->leases, cap * sizeof *grown);
        if (!grown)
            return -1;
        f->leases = grown;
        f->cap_leases = cap;
    }
    f->leases[f->n_leases++] = *l;
    return 0;
}

/* Removes the lease of token (lock), returning its job (the reference is
 * the caller's now) and freeing its error. */
static engine_job_t *fleet_lease_remove(fleet_t *f, int64_t token)
{
    fleet_lease_t *l = fleet_lease_find(f, token);
    if (!l)
        return NULL;
    engine_job_t *job = l->job;
    free(l->error);
    *l = f->leases[--f->n_leases];
    return job;
}

void fleet_local_counts(fleet_t *f, size_t *held, size_t *pending, size_t *critical)
{
    *held = *pending = *critical = 0;
    for (size_t i = 0; i < f->n_leases; i++) {
        const fleet_lease_t *l = &f->leases[i];
        if (l->outcome == FLEET_HELD) {
            (*held)++;
            *critical += l->prio == ENGINE_PRIORITY_CRITICAL;
        } else {
            (*pending)++;
        }
    }
}

/* The outcome of a local job that ended in state. */
static fleet_outcome_t fleet_outcome_of(engine_state_t state)
{
    return state == ENGINE_DONE     ? FLEET_COMPLETE
           : state == ENGINE_FAILED ? FLEET_FAIL
                                    : FLEET_RELEASE;
}

void fleet_job_ended(fleet_t *f, engine_job_t *job, engine_state_t state, const char *error)
{
    pthread_mutex_lock(&f->lock);
    for (size_t i = 0; i < f->n_leases; i++) {
        fleet_lease_t *l = &f->leases[i];
        if (l->job != job || l->outcome != FLEET_HELD)
            continue;
        l->outcome = fleet_outcome_of(state);
        l->error = error ? strdup(error) : NULL;
        break;
    }
    pthread_mutex_unlock(&f->lock);
    fleet_wake(f);
}

void fleet_local_restore(fleet_t *f)
{
    engine_t *e = f->d->engine;
    engine_job_summary_t *list;
    size_t n = engine_jobs_list(e, -1, 0, SIZE_MAX, &list, NULL);
    for (size_t i = 0; n != (size_t)-1 && i < n; i++) {
        const char *id = list[i].id;
        size_t plen = strlen(FLEET_LEASE_PREFIX);
        if (strncmp(id, FLEET_LEASE_PREFIX, plen) != 0)
            continue;
        char *end;
        int64_t token = strtoll(id + plen, &end, 10);
        engine_job_t *job = *end ? NULL : engine_job_find(e, id);
        if (!job)
            continue;
        fleet_lease_t l = {.token = token, .prio = (int)list[i].priority, .job = job};
        pthread_mutex_lock(&f->lock);
        if (fleet_lease_add(f, &l) != 0)
            engine_job_unref(e, job);
        pthread_mutex_unlock(&f->lock);
        /* An end before the lease was added went unheard: read it now (one
         * heard since is the same end). */
        engine_job_info_t info;
        if (engine_job_info(e, job, &info) != ENGINE_OK)
            continue;
        if (info.state == ENGINE_DONE || info.state == ENGINE_FAILED ||
            info.state == ENGINE_CANCELLED)
            fleet_job_ended(f, job, info.state, info.error);
        engine_job_info_free(&info);
    }
    if (n != (size_t)-1)
        engine_jobs_list_free(list, n);
    pthread_mutex_lock(&f->lock);
    size_t held, pending, critical;
    fleet_local_counts(f, &held, &pending, &critical);
    pthread_mutex_unlock(&f->lock);
    if (held + pending)
        log_event(LOG_INFO, "fleet", NULL, NULL,
                  "fleet: %zu lease(s) restored from the journal (%zu still proving, %zu with "
                  "an outcome for the database)",
                  held + pending, held, pending);
}

/* ---- taking leases ------------------------------------------------------------------------- */

/* The local job of lease l (its input checked against this host's
 * allowed directories), journaled and started; else the outcome that
 * hands it back at once, with why. */
static void fleet_take_one(fleet_t *f, const fleet_db_lease_t *l)
{
    cuzkd_t *d = f->d;
    fleet_lease_t lease = {.token = l->token, .idx = l->idx, .prio = l->prio};
    snprintf(lease.job_id, sizeof lease.job_id, "%s", l->job_id);
    char why[1024] = "", resolved[4096];
    engine_input_t in = {.kind = ENGINE_INPUT_WTNS_BYTES, .bytes = l->wtns, .len = l->wtns_len};
    const char *path = l->witness_path ? l->witness_path : l->assignment_path;
    if (path) {
        char err[768];
        in = (engine_input_t){.kind =
                                  l->witness_path ? ENGINE_INPUT_WTNS_PATH : ENGINE_INPUT_ASGN_PATH,
                              .path = resolved};
        if (paths_resolve(&d->allow, path, resolved, sizeof resolved, err, sizeof err) !=
            PATHS_OK) {
            lease.outcome = FLEET_FAIL;
            snprintf(why, sizeof why, "%s %s", l->witness_path ? "witness" : "assignment", err);
        }
    }
    char id[ENGINE_ID_MAX + 1];
    snprintf(id, sizeof id, FLEET_LEASE_PREFIX "%" PRId64, l->token);
    engine_job_t *job = NULL;
    if (lease.outcome == FLEET_HELD) {
        engine_job_spec_t spec = {.id = id,
                                  .key = l->key,
                                  .priority = (engine_priority_t)l->prio,
                                  .n_inputs = 1,
                                  .inputs = &in};
        engine_rc_t rc = engine_job_submit(d->engine, &spec, &job);
        if (rc == ENGINE_EMISMATCH) {
            lease.outcome = FLEET_FAIL_FATAL;
            snprintf(why, sizeof why,
                     "key %s does not take this input: a zkey takes a witness, a params key an "
                     "assignment",
                     l->key);
        } else if (rc != ENGINE_OK) {
            /* The key evicted meanwhile, a drain: not this partition's doing. */
            lease.outcome = FLEET_RELEASE;
            snprintf(why, sizeof why, "the engine refused it: %s", engine_rc_name(rc));
            if (rc == ENGINE_EEXIST)
                engine_job_unref(d->engine, job);
            job = NULL;
        }
    }
    char err[1024];
    if (job && journal_job_submit(d->journal, job, (engine_priority_t)l->prio, engine_wall(), err,
                                  sizeof err) != 0) {
        engine_job_abort(d->engine, job);
        engine_job_unref(d->engine, job);
        job = NULL;
        lease.outcome = FLEET_RELEASE;
        snprintf(why, sizeof why, "%s", err);
    }
    lease.job = job;
    lease.error = lease.outcome != FLEET_HELD ? strdup(why) : NULL;
    pthread_mutex_lock(&f->lock);
    int added = fleet_lease_add(f, &lease);
    f->c.leased++;
    pthread_mutex_unlock(&f->lock);
    if (added != 0) { /* no memory to track it: its lease expires */
        free(lease.error);
        if (job) {
            engine_job_abort(d->engine, job);
            engine_job_unref(d->engine, job);
        }
        return;
    }
    if (job) {
        log_event(LOG_DEBUG, "fleet", l->job_id, l->key, "fleet: leased job %s partition %u (%s)",
                  l->job_id, l->idx, id);
        engine_job_start(d->engine, job);
    } else {
        log_event(LOG_WARN, "fleet", l->job_id, l->key,
                  "fleet: job %s partition %u leased but not proven here: %s", l->job_id, l->idx,
                  why);
    }
}

void fleet_local_take(fleet_t *f, fleet_db_lease_t *l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fleet_take_one(f, &l[i]);
}

/* ---- handing outcomes back ------------------------------------------------------------------ */

/* The input's own failures (fleet_local.c's top). */
static bool fleet_status_fatal(cuzk_status_t s)
{
    return s == CUZK_EWITNESS || s == CUZK_EBADFILE || s == CUZK_EENCODING ||
           s == CUZK_ENONCANONICAL;
}

/* The engine's message for the local job's partition 0, without its
 * "partition 0: " (the database names the fleet's partition). */
static const char *fleet_strip_partition(const char *msg)
{
    static const char prefix[] = "partition 0: ";
    return msg && !strncmp(msg, prefix, sizeof prefix - 1) ? msg + sizeof prefix - 1
           : msg                                           ? msg
                                                           : "failed";
}

/* Hands the result of the done local job over: the outcome, or -1. */
static int fleet_complete(fleet_t *f, int64_t token, engine_job_t *job, fleet_db_outcome_t *out,
                          bool *job_done, char *err, size_t err_size)
{
    cuzkd_t *d = f->d;
    engine_job_info_t info;
    if (engine_job_info(d->engine, job, &info) != ENGINE_OK) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    const engine_partition_info_t *p = &info.partitions[0];
    json_t *t = api_timings_json(p->seconds);
    char *timings = t ? json_dumps(t, JSON_COMPACT) : NULL;
    json_decref(t);
    char device[256];
    cuzkd_worker_device(d, p->worker, device, sizeof device);
    const engine_result_t *r = p->result;
    fleet_db_result_t res = {.proof_json = r ? r->proof_json : NULL,
                             .public_json = r ? r->public_json : NULL,
                             .proof_bytes = r ? r->proof_bytes : NULL,
                             .proof_len = r ? r->proof_len : 0,
                             .timings_json = timings,
                             .device = device,
                             .worker = p->worker,
                             .started_at = p->started_at,
                             .finished_at = p->finished_at};
    int rc = -1;
    if (!r)
        snprintf(err, err_size, "the local job of lease %" PRId64 " is done without a result",
                 token);
    else if (!timings)
        snprintf(err, err_size, "out of memory");
    else
        rc = fleet_db_complete(f->conn, token, &res, out, job_done, err, err_size);
    free(timings);
    engine_job_info_free(&info);
    return rc;
}

/* Hands the failure of lease l over (error, or the local job's). */
static int fleet_fail(fleet_t *f, const fleet_lease_t *l, fleet_db_outcome_t *out, char *err,
                      size_t err_size)
{
    cuzkd_t *d = f->d;
    bool fatal = l->outcome == FLEET_FAIL_FATAL;
    const char *msg = fleet_strip_partition(l->error);
    engine_job_info_t info;
    if (l->job && engine_job_info(d->engine, l->job, &info) == ENGINE_OK) {
        fatal = fatal || fleet_status_fatal(info.partitions[0].status);
        engine_job_info_free(&info);
    }
    return fleet_db_fail(f->conn, l->token, f->name, msg, fatal, d->cfg->max_attempts, out, err,
                         err_size);
}

/* Logs and counts what the database made of the outcome of lease l. */
static void fleet_handed(fleet_t *f, const fleet_lease_t *l, fleet_db_outcome_t out, bool job_done)
{
    const char *job = l->job_id[0] ? l->job_id : "?";
    pthread_mutex_lock(&f->lock);
    if (l->outcome == FLEET_COMPLETE) {
        if (out == FLEET_ACCEPTED)
            f->c.accepted++;
        else if (out == FLEET_DUPLICATE)
            f->c.duplicates++;
        else
            f->c.rejected++;
    } else if (out == FLEET_ACCEPTED) {
        if (l->outcome == FLEET_RELEASE)
            f->c.released++;
        else
            f->c.failed++;
    } else if (!l->lost) { /* found stale here rather than by the heartbeat */
        f->c.lost++;
    }
    pthread_mutex_unlock(&f->lock);
    if (l->outcome == FLEET_COMPLETE && out == FLEET_REJECTED)
        log_event(LOG_WARN, "fleet", job, NULL,
                  "fleet: the result of lease %" PRId64
                  " (job %s partition %u) was refused: its lease had been taken over "
                  "(another host proved it, or the job ended)",
                  l->token, job, l->idx);
    else if (l->outcome == FLEET_COMPLETE)
        log_event(LOG_DEBUG, "fleet", job, NULL,
                  "fleet: job %s partition %u handed back (lease %" PRId64 ")%s", job, l->idx,
                  l->token, job_done ? "; the job is done" : "");
    else if ((l->outcome == FLEET_FAIL || l->outcome == FLEET_FAIL_FATAL) && out == FLEET_ACCEPTED)
        log_event(LOG_WARN, "fleet", job, NULL, "fleet: job %s partition %u failed here: %s", job,
                  l->idx, fleet_strip_partition(l->error));
    else if (out == FLEET_REJECTED && !l->lost)
        log_event(LOG_INFO, "fleet", job, NULL,
                  "fleet: lease %" PRId64 " was no longer this host's when it ended (%s)", l->token,
                  l->outcome == FLEET_RELEASE ? "given back" : fleet_strip_partition(l->error));
}

/* The local job of a lease handed back goes, with its journal files; a
 * job whose partition still runs (cancelled while running) stays until it
 * stops. Whether it went. */
static bool fleet_forget(fleet_t *f, engine_job_t *job)
{
    cuzkd_t *d = f->d;
    if (!job)
        return true;
    if (engine_job_forget(d->engine, job) != ENGINE_OK)
        return false;
    journal_job_forget(d->journal, engine_job_id(job), 1);
    return true;
}

/* Hands back the outcome of the lease of token: 0 (done, or to be tried
 * again later), -1 when the connection broke. */
static int fleet_hand_back_one(fleet_t *f, int64_t token)
{
    pthread_mutex_lock(&f->lock);
    fleet_lease_t *found = fleet_lease_find(f, token), l;
    if (found) {
        l = *found;
        l.error = found->error ? strdup(found->error) : NULL;
    }
    pthread_mutex_unlock(&f->lock);
    if (!found)
        return 0;
    char err[FLEET_ERR_MAX] = "";
    fleet_db_outcome_t out = FLEET_REJECTED;
    bool job_done = false;
    int rc;
    if (l.job) /* its end is visible once the hook has returned */
        engine_job_wait(f->d->engine, l.job, 10);
    if (l.outcome == FLEET_COMPLETE) {
        rc = fleet_complete(f, token, l.job, &out, &job_done, err, sizeof err);
    } else if (l.outcome == FLEET_RELEASE) {
        size_t released;
        rc = fleet_db_release(f->conn, &token, 1, &released, err, sizeof err);
        out = released ? FLEET_ACCEPTED : FLEET_REJECTED;
    } else {
        rc = fleet_fail(f, &l, &out, err, sizeof err);
    }
    if (rc != 0 && fleet_db_broken(f->conn)) {
        free(l.error);
        return -1;
    }
    bool give_up = false;
    if (rc != 0) {
        pthread_mutex_lock(&f->lock);
        found = fleet_lease_find(f, token);
        give_up = !found || ++found->errors >= FLEET_HAND_BACK_TRIES;
        pthread_mutex_unlock(&f->lock);
        log_event(LOG_ERROR, "fleet", l.job_id[0] ? l.job_id : NULL, NULL,
                  "fleet: lease %" PRId64 ": %s%s", token, err,
                  give_up ? " (given up: the lease expires and another host proves it)" : "");
        if (!give_up) {
            free(l.error);
            return 0;
        }
    } else {
        fleet_handed(f, &l, out, job_done);
    }
    free(l.error);
    if (!fleet_forget(f, l.job))
        return 0;
    pthread_mutex_lock(&f->lock);
    engine_job_t *job = fleet_lease_remove(f, token);
    pthread_mutex_unlock(&f->lock);
    if (job)
        engine_job_unref(f->d->engine, job);
    return 0;
}

/* The tokens of the leases that match (lock): malloc'd, *n of them. */
static int64_t *fleet_tokens(fleet_t *f, bool ended, size_t *n)
{
    int64_t *t = malloc((f->n_leases ? f->n_leases : 1) * sizeof *t);
    *n = 0;
    for (size_t i = 0; t && i < f->n_leases; i++)
        if ((f->leases[i].outcome != FLEET_HELD) == ended)
            t[(*n)++] = f->leases[i].token;
    return t;
}

int fleet_local_hand_back(fleet_t *f)
{
    size_t n;
    pthread_mutex_lock(&f->lock);
    int64_t *tokens = fleet_tokens(f, true, &n);
    pthread_mutex_unlock(&f->lock);
    int rc = 0;
    for (size_t i = 0; tokens && i < n && rc == 0; i++)
        rc = fleet_hand_back_one(f, tokens[i]);
    free(tokens);
    return rc;
}

/* The local job of the lease of token when its partition has not
 * started, with a reference (engine_job_unref), else NULL. */
static engine_job_t *fleet_unstarted(fleet_t *f, int64_t token)
{
    engine_t *e = f->d->engine;
    char id[ENGINE_ID_MAX + 1];
    snprintf(id, sizeof id, FLEET_LEASE_PREFIX "%" PRId64, token);
    engine_job_t *job = engine_job_find(e, id);
    if (!job)
        return NULL;
    engine_job_info_t info;
    bool queued = false;
    if (engine_job_info(e, job, &info) == ENGINE_OK) {
        queued = info.state == ENGINE_QUEUED && info.partitions[0].state == ENGINE_QUEUED;
        engine_job_info_free(&info);
    }
    if (!queued) {
        engine_job_unref(e, job);
        return NULL;
    }
    return job;
}

int fleet_local_renew(fleet_t *f)
{
    size_t n;
    pthread_mutex_lock(&f->lock);
    int64_t *tokens = NULL;
    n = f->n_leases;
    if (n && (tokens = malloc(n * sizeof *tokens)))
        for (size_t i = 0; i < n; i++)
            tokens[i] = f->leases[i].token;
    pthread_mutex_unlock(&f->lock);
    if (n == 0 || !tokens)
        return 0;
    bool *renewed = calloc(n, sizeof *renewed);
    char(*ids)[FLEET_NAME_MAX + 1] = calloc(n, sizeof *ids);
    uint32_t *idxs = calloc(n, sizeof *idxs);
    char err[FLEET_ERR_MAX] = "";
    int rc = renewed && ids && idxs ? fleet_db_renew(f->conn, tokens, n, f->lease_s, renewed, ids,
                                                     idxs, err, sizeof err)
                                    : 0;
    if (rc != 0 && !fleet_db_broken(f->conn)) {
        log_event(LOG_WARN, "fleet", NULL, NULL, "fleet: renewing the leases: %s", err);
        rc = 0;
    } else if (rc == 0 && renewed && ids && idxs) {
        for (size_t i = 0; i < n; i++) {
            bool newly_lost = false;
            char job_id[FLEET_NAME_MAX + 1] = "";
            uint32_t idx = 0;
            pthread_mutex_lock(&f->lock);
            fleet_lease_t *l = fleet_lease_find(f, tokens[i]);
            if (l && renewed[i] && !l->job_id[0]) {
                snprintf(l->job_id, sizeof l->job_id, "%s", ids[i]);
                l->idx = idxs[i];
            } else if (l && !renewed[i] && !l->lost) {
                l->lost = newly_lost = true;
                f->c.lost++;
                snprintf(job_id, sizeof job_id, "%s", l->job_id);
                idx = l->idx;
            }
            pthread_mutex_unlock(&f->lock);
            if (!newly_lost)
                continue;
            /* A partition that has not started is dropped; a running one
             * finishes, and its result meets the fencing token. */
            engine_job_t *job = fleet_unstarted(f, tokens[i]);
            log_event(LOG_WARN, "fleet", job_id[0] ? job_id : NULL, NULL,
                      "fleet: lease %" PRId64 " (job %s partition %u) is no longer this host's "
                      "(taken over after its expiry, or the job ended)%s",
                      tokens[i], job_id[0] ? job_id : "?", idx,
                      job ? "; dropped before it started" : "");
            if (job) {
                engine_job_cancel(f->d->engine, job);
                engine_job_unref(f->d->engine, job);
            }
        }
    }
    free(renewed);
    free(ids);
    free(idxs);
    free(tokens);
    return rc;
}

void fleet_local_give_back_unstarted(fleet_t *f)
{
    size_t n;
    pthread_mutex_lock(&f->lock);
    int64_t *tokens = fleet_tokens(f, false, &n);
    pthread_mutex_unlock(&f->lock);
    for (size_t i = 0; tokens && i < n; i++) {
        engine_job_t *job = fleet_unstarted(f, tokens[i]);
        if (job) {
            engine_job_cancel(f->d->engine, job);
            engine_job_unref(f->d->engine, job);
        }
    }
    free(tokens);
}
