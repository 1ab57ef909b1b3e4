/*
 * The fleet's life and its thread (fleet.h, docs/FLEET.md).
 *
 * The thread loops over: (re)connecting with backoff; handing back the
 * outcomes of ended leases; the heartbeat every lease_seconds / 3 (the
 * leases renewed, the host's row, the expired leases of other hosts, the
 * jobs of unknown keys, the registry); leasing what the engine can start
 * now plus the look-ahead. It sleeps on its eventfd (a lease ended here,
 * a key was loaded) and on the connection's socket (LISTEN cuzk_work: new
 * or requeued work; cuzk_job_end: a job ended somewhere) until the next
 * heartbeat.
 *
 * Without the database nothing is leased, the partitions held go on, and
 * their outcomes stay in the journal until the connection is back.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "daemon/fleet_impl.h"

/* The reconnection's backoff: from 0.25 s doubling to 5 s, so that a
 * database back after a restart is found within a second or two and a
 * long outage costs one attempt every five seconds. */
#define FLEET_BACKOFF_MIN 0.25
#define FLEET_BACKOFF_MAX 5.0
/* Old jobs are forgotten every tenth heartbeat: the walk down the kept ones
 * took 2.6 ms with 2000 kept on the 2-core VM (docs/PERFORMANCE.md), worth
 * doing once in ten beats rather than in each. */
#define FLEET_PRUNE_EVERY 10
/* The queue is asked for the keys of its work at most this often while
 * this host has room and nothing of its keys to lease. */
#define FLEET_WANTED_EVERY 1.0

void fleet_wake(fleet_t *f)
{
    uint64_t one = 1;
    ssize_t w = write(f->wake_fd, &one, sizeof one);
    (void)w; /* a full counter already wakes the thread */
}

/* ---- the connection ------------------------------------------------------------------------ */

static void fleet_host_row(fleet_t *f, fleet_db_host_t *h, char **keys, char **refusals)
{
    cuzkd_t *d = f->d;
    engine_counters_t c;
    engine_counters(d->engine, &c);
    *keys = fleet_keys_ready_array(f);
    *refusals = fleet_keys_refusals_json(f);
    pthread_mutex_lock(&f->lock);
    *h = (fleet_db_host_t){.name = f->name,
                           .version = cuzk_version(),
                           .devices = d->devices_desc,
                           .listen = d->bound,
                           .state = f->draining || atomic_load(&d->draining) ? "draining" : "up",
                           .workers = c.workers,
                           .pid = (int)getpid(),
                           .keys_array = *keys ? *keys : "{}",
                           .refusals_json = *refusals ? *refusals : "{}",
                           .accepted = f->c.accepted + f->c.duplicates,
                           .rejected = f->c.rejected};
    pthread_mutex_unlock(&f->lock);
}

/* Connects, migrates, locks the name, listens and writes the host's row.
 * 0; -1 (try again later) or -2 (this host cannot join: a newer schema,
 * its name taken) with a message. */
static int fleet_connect(fleet_t *f, bool starting, char *err, size_t err_size)
{
    PGconn *c = fleet_db_connect(f->d->cfg->database, f->name, err, err_size);
    if (!c)
        return -1;
    int version = 0, rc = fleet_db_migrate(c, f->name, &version, err, err_size);
    /* A name this process held before is taken back from its dead session;
     * one it never held may be another host's. */
    pthread_mutex_lock(&f->lock);
    bool held_before = f->c.connects > 0;
    pthread_mutex_unlock(&f->lock);
    if (rc == 0)
        rc = fleet_db_host_lock(c, f->name, held_before, err, err_size);
    if (rc == 0 && (fleet_db_exec(c, "LISTEN cuzk_work", err, err_size) != 0 ||
                    fleet_db_exec(c, "LISTEN cuzk_job_end", err, err_size) != 0))
        rc = -1;
    if (rc == 0) {
        fleet_db_host_t h;
        char *keys, *refusals;
        fleet_host_row(f, &h, &keys, &refusals);
        rc = fleet_db_host_beat(c, &h, starting, err, err_size);
        free(keys);
        free(refusals);
    }
    if (rc != 0) {
        PQfinish(c);
        return rc;
    }
    f->conn = c;
    pthread_mutex_lock(&f->lock);
    bool was_down = f->down_since > 0;
    f->connected = true;
    f->down_since = 0;
    f->generation++;
    f->c.connects++;
    pthread_mutex_unlock(&f->lock);
    log_event(LOG_INFO, "fleet", NULL, NULL, "fleet: %s %s as host %s (schema version %d)",
              was_down ? "connected again to" : "connected to", f->shown, f->name, version);
    /* A job may have ended while the notifications could not come. */
    fleet_waiters_wake(f, NULL);
    return 0;
}

/* The connection broke: leasing stops until it is back. */
static void fleet_disconnect(fleet_t *f)
{
    /* libpq's message lives in the connection: copied before it goes. */
    char why[FLEET_ERR_MAX];
    const char *msg = PQerrorMessage(f->conn);
    snprintf(why, sizeof why, "%.*s", (int)strcspn(msg, "\n"),
             msg[0] ? msg : "the connection broke");
    PQfinish(f->conn);
    f->conn = NULL;
    size_t held, pending, critical;
    pthread_mutex_lock(&f->lock);
    f->connected = false;
    f->down_since = engine_wall();
    f->c.disconnects++;
    snprintf(f->last_error, sizeof f->last_error, "%s", why);
    fleet_local_counts(f, &held, &pending, &critical);
    pthread_mutex_unlock(&f->lock);
    log_event(LOG_WARN, "fleet", NULL, NULL,
              "fleet: lost the database (%s): no more leases until it is back; the %zu "
              "partition(s) held go on, and their results wait in the journal",
              why, held + pending);
}

/* ---- the heartbeat ----------------------------------------------------------------------------
 */

/* A step of the heartbeat failed: -1 when the connection broke (the
 * caller reconnects), else logged and 0 (the next heartbeat tries again). */
static int fleet_step_failed(fleet_t *f, const char *what, const char *err)
{
    if (fleet_db_broken(f->conn))
        return -1;
    log_event(LOG_WARN, "fleet", NULL, NULL, "fleet: %s: %s", what, err);
    return 0;
}

static int fleet_beat(fleet_t *f)
{
    char err[FLEET_ERR_MAX] = "";
    const cuzkd_config_t *cfg = f->d->cfg;
    if (fleet_local_renew(f) != 0)
        return -1;
    size_t n = 0;
    if (fleet_db_reap(f->conn, f->lease_s, cfg->max_attempts, &n, err, sizeof err) != 0) {
        if (fleet_step_failed(f, "taking back expired leases", err) != 0)
            return -1;
    } else if (n) {
        pthread_mutex_lock(&f->lock);
        f->c.reclaimed += n;
        pthread_mutex_unlock(&f->lock);
        log_event(LOG_INFO, "fleet", NULL, NULL,
                  "fleet: %zu lease(s) expired without a heartbeat; their partitions are queued "
                  "again",
                  n);
    }
    if (fleet_db_sweep_unknown_keys(f->conn, &n, err, sizeof err) != 0) {
        if (fleet_step_failed(f, "failing the jobs of unknown keys", err) != 0)
            return -1;
    } else if (n) {
        pthread_mutex_lock(&f->lock);
        f->c.unknown_keys += n;
        pthread_mutex_unlock(&f->lock);
        log_event(LOG_WARN, "fleet", NULL, NULL,
                  "fleet: %zu job(s) failed: their key is not registered in the fleet", n);
    }
    if (f->beats++ % FLEET_PRUNE_EVERY == 0 &&
        fleet_db_prune(f->conn, cfg->keep_jobs, err, sizeof err) != 0 &&
        fleet_step_failed(f, "forgetting old jobs", err) != 0)
        return -1;
    fleet_db_key_t *keys;
    if (fleet_db_keys(f->conn, &keys, &n, err, sizeof err) != 0) {
        if (fleet_step_failed(f, "reading the key registry", err) != 0)
            return -1;
    } else {
        pthread_mutex_lock(&f->lock);
        free(f->registry);
        f->registry = keys;
        f->n_registry = n;
        pthread_mutex_unlock(&f->lock);
        fleet_keys_sync(f);
    }
    fleet_db_host_t h;
    char *ready, *refusals;
    fleet_host_row(f, &h, &ready, &refusals);
    int rc = fleet_db_host_beat(f->conn, &h, false, err, sizeof err);
    free(ready);
    free(refusals);
    return rc != 0 ? fleet_step_failed(f, "writing this host's row", err) : 0;
}

/* ---- leasing --------------------------------------------------------------------------------- */

/* How many partitions to lease now: what the workers can start (free
 * workers, and as many of the largest working set among the ready keys as
 * the host budget holds beside the keys and the running partitions; one
 * at least when nothing runs, as the engine always runs one) plus the
 * look-ahead, less what waits in the local queue already. */
static unsigned fleet_want(fleet_t *f, const char *const *ready, size_t n_ready)
{
    cuzkd_t *d = f->d;
    engine_counters_t c;
    engine_counters(d->engine, &c);
    unsigned workers = c.workers > d->urgent_workers ? c.workers - d->urgent_workers : 1;
    uint64_t running = c.partitions_running, start = running < workers ? workers - running : 0;
    if (c.host_budget) {
        uint64_t per = 0, used = c.host_key_bytes + c.host_reserved_bytes;
        engine_key_info_t *info;
        size_t n = engine_keys_info(d->engine, &info);
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < n_ready; k++)
                if (!strcmp(info[i].name, ready[k]) && info[i].partition_bytes > per)
                    per = info[i].partition_bytes;
        engine_keys_info_free(info, n);
        uint64_t fit = per && used < c.host_budget ? (c.host_budget - used) / per : per ? 0 : start;
        if (fit == 0 && running == 0)
            fit = 1;
        start = fit < start ? fit : start;
    }
    uint64_t want = start + d->cfg->lookahead;
    return want > c.partitions_queued ? (unsigned)(want - c.partitions_queued) : 0;
}

/* Leases for the urgent workers (critical partitions only), then for the
 * others; asks the loader for keys of queued work when there was room
 * left. -1 when the connection broke. */
static int fleet_lease_now(fleet_t *f)
{
    cuzkd_t *d = f->d;
    char err[FLEET_ERR_MAX] = "";
    const char **ready;
    size_t n_ready = fleet_keys_ready(f, &ready);
    unsigned want = fleet_want(f, ready, n_ready), got = 0;
    size_t held, pending, critical;
    pthread_mutex_lock(&f->lock);
    fleet_local_counts(f, &held, &pending, &critical);
    pthread_mutex_unlock(&f->lock);
    struct {
        int min_prio;
        unsigned n;
    } rounds[2] = {{ENGINE_PRIORITY_CRITICAL,
                    d->urgent_workers > critical ? d->urgent_workers - (unsigned)critical : 0},
                   {ENGINE_PRIORITY_LOW, want}};
    for (int r = 0; r < 2 && n_ready; r++) {
        fleet_db_lease_t *l;
        size_t n;
        if (rounds[r].n == 0)
            continue;
        if (fleet_db_lease(f->conn, f->name, ready, n_ready, rounds[r].min_prio, rounds[r].n,
                           f->lease_s, &l, &n, err, sizeof err) != 0 &&
            n == 0) {
            free(ready);
            return fleet_step_failed(f, "leasing", err);
        }
        fleet_local_take(f, l, n);
        fleet_db_leases_free(l, n);
        got += r == 1 ? (unsigned)n : 0;
    }
    double now = engine_now();
    if (got < want && now >= f->next_wanted) {
        f->next_wanted = now + FLEET_WANTED_EVERY;
        fleet_db_key_t keys[4];
        size_t n;
        if (fleet_db_wanted_keys(f->conn, ready, n_ready, keys, 4, &n, err, sizeof err) != 0) {
            free(ready);
            return fleet_step_failed(f, "asking for the keys of queued work", err);
        }
        fleet_keys_want(f, keys, n);
    }
    free(ready);
    return 0;
}

/* ---- the thread -------------------------------------------------------------------------------
 */

/* The notifications that came: job ends wake the API's waiters, and one
 * of a job this host holds leases of renews them now (a cancel, a failure
 * elsewhere: the local partitions not started are dropped at once). -1
 * when the connection broke. */
static int fleet_notifications(fleet_t *f)
{
    if (!PQconsumeInput(f->conn))
        return -1;
    PGnotify *n;
    while ((n = PQnotifies(f->conn))) {
        if (!strcmp(n->relname, "cuzk_job_end")) {
            fleet_waiters_wake(f, n->extra);
            pthread_mutex_lock(&f->lock);
            for (size_t i = 0; i < f->n_leases; i++)
                if (!strcmp(f->leases[i].job_id, n->extra))
                    f->next_beat = 0;
            pthread_mutex_unlock(&f->lock);
        }
        PQfreemem(n);
    }
    return 0;
}

/* Sleeps until the eventfd, a notification or timeout seconds. */
static void fleet_sleep(fleet_t *f, double timeout)
{
    struct pollfd p[2] = {{.fd = f->wake_fd, .events = POLLIN},
                          {.fd = f->conn ? PQsocket(f->conn) : -1, .events = POLLIN}};
    int ms = timeout <= 0 ? 0 : timeout > 60 ? 60000 : (int)(timeout * 1e3) + 1;
    if (poll(p, 2, ms) > 0 && (p[0].revents & POLLIN)) {
        uint64_t v;
        ssize_t r = read(f->wake_fd, &v, sizeof v);
        (void)r; /* EAGAIN: another read took it */
    }
}

static bool fleet_stopping(fleet_t *f)
{
    pthread_mutex_lock(&f->lock);
    bool s = f->stop;
    pthread_mutex_unlock(&f->lock);
    return s;
}

/* One turn while connected: -1 when the connection broke. */
static int fleet_turn(fleet_t *f)
{
    if (fleet_notifications(f) != 0 || fleet_local_hand_back(f) != 0)
        return -1;
    pthread_mutex_lock(&f->lock);
    bool beat = engine_now() >= f->next_beat, draining = f->draining;
    pthread_mutex_unlock(&f->lock);
    if (beat) {
        if (fleet_beat(f) != 0)
            return -1;
        f->next_beat = engine_now() + f->beat_s;
    }
    if (draining) {
        fleet_local_give_back_unstarted(f);
        return fleet_local_hand_back(f);
    }
    return fleet_lease_now(f);
}

static void *fleet_main(void *arg)
{
    fleet_t *f = arg;
    double backoff = FLEET_BACKOFF_MIN;
    char err[FLEET_ERR_MAX] = "", last[FLEET_ERR_MAX] = "";
    while (!fleet_stopping(f)) {
        if (!f->conn) {
            if (fleet_connect(f, false, err, sizeof err) != 0) {
                pthread_mutex_lock(&f->lock);
                snprintf(f->last_error, sizeof f->last_error, "%s", err);
                pthread_mutex_unlock(&f->lock);
                /* Said once a run of the same failure, not every attempt. */
                if (strcmp(err, last) != 0)
                    log_event(LOG_WARN, "fleet", NULL, NULL,
                              "fleet: %s (trying again, every %.0f s at most)", err,
                              FLEET_BACKOFF_MAX);
                snprintf(last, sizeof last, "%s", err);
                fleet_sleep(f, backoff);
                backoff = backoff * 2 < FLEET_BACKOFF_MAX ? backoff * 2 : FLEET_BACKOFF_MAX;
                continue;
            }
            backoff = FLEET_BACKOFF_MIN;
            last[0] = '\0';
            f->next_beat = 0;
        }
        if (fleet_turn(f) != 0) {
            fleet_disconnect(f);
            continue;
        }
        double wait = f->next_beat - engine_now();
        fleet_sleep(f, wait);
    }
    /* Stopping: the engine has drained; the leases not started are given
     * back, what ended is handed back while the database answers, and the
     * row says the host stopped. */
    fleet_local_give_back_unstarted(f);
    if (f->conn && fleet_local_hand_back(f) == 0) {
        fleet_db_host_t h;
        char *ready, *refusals;
        fleet_host_row(f, &h, &ready, &refusals);
        h.state = "stopped";
        if (fleet_db_host_beat(f->conn, &h, false, err, sizeof err) != 0)
            log_event(LOG_WARN, "fleet", NULL, NULL, "fleet: %s", err);
        free(ready);
        free(refusals);
    }
    PQfinish(f->conn);
    f->conn = NULL;
    return NULL;
}

/* ---- life ---------------------------------------------------------------------------------- */

int fleet_check_config(const cuzkd_config_t *cfg)
{
    char err[FLEET_ERR_MAX] = "";
    int bad = 0;
    if (!cfg->database[0])
        return 0;
    if (fleet_db_conninfo_check(cfg->database, err, sizeof err) != 0) {
        fprintf(stderr, "cuzkd: %s\n", err);
        bad = -1;
    }
    if (!cfg->journal[0]) {
        fprintf(stderr, "cuzkd: fleet: a journal is needed (--journal DIR): the results of "
                        "leases wait there while the database is away\n");
        bad = -1;
    }
    if (cfg->lease_seconds < 1) {
        fprintf(stderr, "cuzkd: lease_seconds = %g: at least 1 second\n", cfg->lease_seconds);
        bad = -1;
    }
    if (cfg->host_name[0] && (strlen(cfg->host_name) > FLEET_HOST_MAX)) {
        fprintf(stderr, "cuzkd: host_name: at most %d bytes\n", FLEET_HOST_MAX);
        bad = -1;
    }
    return bad;
}

fleet_t *fleet_new(cuzkd_t *d, char *err, size_t err_size)
{
    fleet_t *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, err_size, "fleet: out of memory");
        return NULL;
    }
    f->d = d;
    f->lease_s = d->cfg->lease_seconds;
    f->beat_s = f->lease_s / 3;
    if (d->cfg->host_name[0]) {
        snprintf(f->name, sizeof f->name, "%s", d->cfg->host_name);
    } else {
        char host[64] = "localhost";
        gethostname(host, sizeof host - 1);
        const char *port = strrchr(d->bound, ':');
        snprintf(f->name, sizeof f->name, "%.63s:%.63s", host, port ? port + 1 : d->bound);
    }
    fleet_db_conninfo_show(d->cfg->database, f->shown, sizeof f->shown);
    f->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (f->wake_fd < 0) {
        snprintf(err, err_size, "fleet: eventfd: %s", strerror(errno));
        free(f);
        return NULL;
    }
    pthread_mutex_init(&f->lock, NULL);
    pthread_cond_init(&f->cv, NULL);
    return f;
}

int fleet_start(fleet_t *f, char *err, size_t err_size)
{
    fleet_local_restore(f);
    int rc = fleet_connect(f, true, err, err_size);
    if (rc == -2)
        return -1;
    if (rc != 0) {
        pthread_mutex_lock(&f->lock);
        snprintf(f->last_error, sizeof f->last_error, "%s", err);
        f->down_since = engine_wall();
        pthread_mutex_unlock(&f->lock);
        log_event(LOG_WARN, "fleet", NULL, NULL,
                  "fleet: %s; starting without it (no leases until it answers; the partitions "
                  "held go on)",
                  err);
    }
    if (fleet_loader_start(f, err, err_size) != 0)
        return -1;
    if (pthread_create(&f->thread, NULL, fleet_main, f) != 0) {
        snprintf(err, err_size, "fleet: cannot start its thread");
        return -1;
    }
    f->thread_started = true;
    return 0;
}

void fleet_drain(fleet_t *f)
{
    pthread_mutex_lock(&f->lock);
    f->draining = true;
    pthread_mutex_unlock(&f->lock);
    fleet_wake(f);
}

void fleet_free(fleet_t *f)
{
    if (!f)
        return;
    pthread_mutex_lock(&f->lock);
    f->stop = true;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->lock);
    fleet_wake(f);
    fleet_loader_stop(f);
    if (f->thread_started)
        pthread_join(f->thread, NULL);
    PQfinish(f->conn);
    fleet_pool_close(f);
    for (size_t i = 0; i < f->n_leases; i++) {
        if (f->leases[i].job)
            engine_job_unref(f->d->engine, f->leases[i].job);
        free(f->leases[i].error);
    }
    free(f->leases);
    free(f->keys);
    free(f->registry);
    close(f->wake_fd);
    pthread_cond_destroy(&f->cv);
    pthread_mutex_destroy(&f->lock);
    free(f);
}
