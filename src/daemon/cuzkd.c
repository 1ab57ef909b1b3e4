/*
 * cuzkd: the persistent proving daemon (docs/DAEMON.md).
 *
 * Start-up: configuration (file, then flags; --help, --version), the
 * checks (--check-config stops after them), the log's level and form, the
 * journal (locked: a second cuzkd on it stops here), the listening socket,
 * the engine, the journal's replay (keys reloaded, jobs resumed under their
 * ids), the preload list, then the HTTP server. The main thread then
 * sleeps, waking every 200 ms to forget the oldest finished jobs beyond
 * keep_jobs, until SIGTERM or SIGINT.
 *
 * Drain on SIGTERM/SIGINT: new work is refused with 503 (/healthz too), running
 * partitions finish (their results are journaled), queued work stays in
 * the journal for the next start, long polls are woken, and the process
 * exits 0. The signal handlers only set a flag.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/daemon.h"
#if CUZK_HAVE_CUDA
#include "engine/engine_cuda.h"
#endif
#include "io/io_error.h"

static volatile sig_atomic_t cuzkd_stop_signal;

static void cuzkd_on_signal(int sig)
{
    cuzkd_stop_signal = sig;
}

/* ---- engine hooks: the journal, the latency histogram, the log ------------------ */

static int cuzkd_hook_partition(void *ctx, engine_job_t *job, uint32_t index,
                                const engine_result_t *r, char *err, size_t err_size)
{
    cuzkd_t *d = ctx;
    return d->journal ? journal_job_partition(d->journal, job, index, r, err, err_size) : 0;
}

static void cuzkd_hook_started(void *ctx, engine_job_t *job)
{
    (void)ctx;
    uint32_t n = engine_job_partitions(job);
    log_event(LOG_INFO, "job.started", engine_job_id(job), engine_job_key(job),
              "job %s started (key %s, %u partition%s)", engine_job_id(job), engine_job_key(job), n,
              n == 1 ? "" : "s");
}

static void cuzkd_hook_end(void *ctx, engine_job_t *job, engine_state_t state, const char *error)
{
    cuzkd_t *d = ctx;
    double now = engine_wall();
    if (d->journal)
        journal_job_end(d->journal, job, state, error, now);
    if (d->fleet)
        fleet_job_ended(d->fleet, job, state, error);
    engine_job_info_t info;
    double seconds = -1;
    if (engine_job_info(d->engine, job, &info) == ENGINE_OK) {
        seconds = now - info.submitted_at;
        cuzkd_latency_add(&d->latency, seconds);
        engine_job_info_free(&info);
    }
    const char *id = engine_job_id(job), *key = engine_job_key(job);
    if (state == ENGINE_FAILED)
        log_event(LOG_WARN, "job.failed", id, key, "job %s failed after %.3f s: %s", id, seconds,
                  error ? error : "");
    else if (state == ENGINE_CANCELLED)
        log_event(LOG_INFO, "job.cancelled", id, key, "job %s cancelled after %.3f s", id, seconds);
    else
        log_event(LOG_INFO, "job.done", id, key, "job %s done in %.3f s", id, seconds);
}

/* Every timeline event as a debug line (log.h's stage form), with ms from
 * the engine's start. */
static void cuzkd_hook_event(void *ctx, const engine_event_t *ev)
{
    cuzkd_t *d = ctx;
    log_stage(1e3 * (ev->start - engine_started(d->engine)), engine_stage_name(ev->stage), ev->job,
              ev->partition, ev->worker, 1e3 * (ev->end - ev->start),
              (unsigned long long)ev->bytes);
}

static void cuzkd_forget(void *ctx, engine_job_t *job)
{
    cuzkd_t *d = ctx;
    if (d->journal)
        journal_job_forget(d->journal, engine_job_id(job), engine_job_partitions(job));
}

void cuzkd_worker_device(const cuzkd_t *d, int worker, char *out, size_t size)
{
    int dev = d->backend.worker_device && worker >= 0
                  ? d->backend.worker_device(d->backend.ctx, (unsigned)worker)
                  : -1;
#if CUZK_HAVE_CUDA
    if (d->cuda && dev >= 0) {
        snprintf(out, size, "cuda:%d %s", dev, engine_cuda_device_name(d->cuda, dev));
        return;
    }
#endif
    (void)dev;
    snprintf(out, size, "cpu");
}

/* ---- keys at start ------------------------------------------------------------ */

/* Loads a key named by the journal or the preload list; a failure is
 * logged (jobs that need the key then fail, saying so). */
static void cuzkd_load_key(void *ctx, const char *name, key_format_t format, const char *path)
{
    cuzkd_t *d = ctx;
    char resolved[4096], err[1024];
    cuzk_status_t st = CUZK_OK;
    if (paths_resolve(&d->allow, path, resolved, sizeof resolved, err, sizeof err) != PATHS_OK) {
        log_event(LOG_ERROR, "key.load_failed", NULL, name, "key %s not loaded: %s", name, err);
        return;
    }
    engine_rc_t rc = engine_key_load(d->engine, name, format, resolved, NULL, &st, err, sizeof err);
    if (rc == ENGINE_OK)
        log_event(LOG_INFO, "key.loaded", NULL, name, "key %s loaded from %s", name, resolved);
    else {
        /* The reader's message says what is wrong with which file. */
        const char *why = err[0]               ? err
                          : rc == ENGINE_ELOAD ? cuzk_strerror(st)
                                               : engine_rc_name(rc);
        log_event(LOG_ERROR, "key.load_failed", NULL, name, "key %s not loaded: %s", name, why);
    }
}

/* journal_replay's check of a restored job's paths against --allow. */
static int cuzkd_path_allowed(void *ctx, const char *path, char *err, size_t err_size)
{
    cuzkd_t *d = ctx;
    char resolved[4096];
    return paths_resolve(&d->allow, path, resolved, sizeof resolved, err, err_size) == PATHS_OK
               ? 0
               : -1;
}

static int cuzkd_preload(cuzkd_t *d)
{
    for (size_t i = 0; i < d->cfg->n_preload; i++) {
        const config_preload_t *p = &d->cfg->preload[i];
        int f = engine_key_format_from_name(p->format);
        char err[1024];
        if (f < 0) {
            log_event(LOG_ERROR, "key.load_failed", NULL, p->name,
                      "preload %s: format must be zkey, params or cache, not '%s'", p->name,
                      p->format);
            return -1;
        }
        bool loaded = false;
        char resolved[4096];
        cuzk_status_t st;
        if (paths_resolve(&d->allow, p->path, resolved, sizeof resolved, err, sizeof err) !=
            PATHS_OK) {
            log_event(LOG_ERROR, "key.load_failed", NULL, p->name, "preload %s: %s", p->name, err);
            return -1;
        }
        engine_rc_t rc = engine_key_load(d->engine, p->name, (key_format_t)f, resolved, &loaded,
                                         &st, err, sizeof err);
        if (rc != ENGINE_OK) {
            log_event(LOG_ERROR, "key.load_failed", NULL, p->name, "preload %s: %s", p->name,
                      err[0] ? err : engine_rc_name(rc));
            return -1;
        }
        if (!loaded)
            log_event(LOG_INFO, "key.loaded", NULL, p->name, "key %s preloaded from %s", p->name,
                      resolved);
    }
    return 0;
}

/* ---- configuration checks ------------------------------------------------------ */

/* The checks --check-config makes and a start makes before opening
 * anything: -1 after printing what is wrong. */
enum { DEVICES_AUTO, DEVICES_CPU, DEVICES_CUDA };

/* [engine] devices: auto, cpu, cuda (every GPU) or a number N of GPUs
 * (0 .. N-1): *mode, and *gpus = the GPUs wanted (0: all). -1 otherwise. */
static int cuzkd_devices_parse(const char *s, int *mode, int *gpus)
{
    *gpus = 0;
    if (!strcmp(s, "auto"))
        *mode = DEVICES_AUTO;
    else if (!strcmp(s, "cpu"))
        *mode = DEVICES_CPU;
    else if (!strcmp(s, "cuda"))
        *mode = DEVICES_CUDA;
    else {
        char *end;
        long n = strtol(s, &end, 10);
        if (end == s || *end || n < 1 || n > 16)
            return -1;
        *mode = DEVICES_CUDA;
        *gpus = (int)n;
    }
    return 0;
}

static int cuzkd_check(cuzkd_config_t *cfg, paths_t *allow)
{
    char err[CONFIG_ERR_MAX];
    int bad = 0;
    if (config_finish(cfg, err, sizeof err) != 0) {
        fprintf(stderr, "cuzkd: %s\n", err);
        bad = -1;
    }
    if (paths_init(allow, cfg->allow, err, sizeof err) != 0) {
        fprintf(stderr, "cuzkd: %s\n", err);
        bad = -1;
    }
    int mode, gpus;
    if (cuzkd_devices_parse(cfg->devices, &mode, &gpus) != 0) {
        fprintf(stderr,
                "cuzkd: devices = %s: expected auto (the GPUs when there are any, else the CPU), "
                "cpu, cuda (every GPU) or a number of GPUs\n",
                cfg->devices);
        bad = -1;
    }
    if (log_level_from_name(cfg->log_level) < 0) {
        fprintf(stderr, "cuzkd: log_level = %s: expected error, warn, info or debug\n",
                cfg->log_level);
        bad = -1;
    }
    if (strcmp(cfg->log_format, "text") != 0 && strcmp(cfg->log_format, "json") != 0) {
        fprintf(stderr, "cuzkd: log_format = %s: expected text or json\n", cfg->log_format);
        bad = -1;
    }
    if (fleet_check_config(cfg) != 0)
        bad = -1;
    if (strcmp(cfg->residency, "auto") != 0 && strcmp(cfg->residency, "device") != 0 &&
        strcmp(cfg->residency, "pinned") != 0 && strcmp(cfg->residency, "mapped") != 0) {
        fprintf(stderr, "cuzkd: residency = %s: expected auto, device, pinned or mapped\n",
                cfg->residency);
        bad = -1;
    }
    for (size_t i = 0; i < cfg->n_preload && bad == 0; i++) {
        const config_preload_t *p = &cfg->preload[i];
        char resolved[4096];
        if (!engine_id_valid(p->name) || engine_key_format_from_name(p->format) < 0) {
            fprintf(stderr,
                    "cuzkd: preload %s: a name of A-Z a-z 0-9 . _ - and a format zkey, "
                    "params or cache are needed\n",
                    p->name);
            bad = -1;
        } else if (paths_resolve(allow, p->path, resolved, sizeof resolved, err, sizeof err) !=
                   PATHS_OK) {
            fprintf(stderr, "cuzkd: preload %s: %s\n", p->name, err);
            bad = -1;
        }
    }
    return bad;
}

/* ---- main ------------------------------------------------------------------------ */

/* The backend devices names: CUDA when it asks for GPUs and there are
 * some (auto: else the CPU), else the CPU. *workers = workers per device
 * times the devices, *urgent the urgent workers (GPUs only). -1 when
 * devices cannot be honoured. */
static int cuzkd_setup_backend(cuzkd_t *d, unsigned *workers, unsigned *urgent)
{
    *urgent = 0;
    cuzk_status_t st;
    engine_cpu_options_t opt = {d->cfg->threads, d->cfg->trusted_keys};
    int mode = DEVICES_CPU, gpus = 0;
    (void)cuzkd_devices_parse(d->cfg->devices, &mode, &gpus); /* checked by cuzkd_check */
    /* workers = 0: 2 a GPU (one stages while the other computes), 1 on the CPU. */
    *workers = d->cfg->workers ? d->cfg->workers : 1;
    snprintf(d->devices_desc, sizeof d->devices_desc, "cpu");
    if (mode != DEVICES_CPU) {
        char err[IO_ERR_MAX] = "";
#if CUZK_HAVE_CUDA
        unsigned per_gpu = d->cfg->workers ? d->cfg->workers : 2;
        engine_gpu_tier_t tier = !strcmp(d->cfg->residency, "device")   ? ENGINE_GPU_TIER_DEVICE
                                 : !strcmp(d->cfg->residency, "pinned") ? ENGINE_GPU_TIER_PINNED
                                 : !strcmp(d->cfg->residency, "mapped") ? ENGINE_GPU_TIER_MAPPED
                                                                        : ENGINE_GPU_TIER_AUTO;
        engine_cuda_options_t co = {.cpu = opt,
                                    .devices = gpus,
                                    .tier = tier,
                                    .device_budget = d->cfg->device_key_budget,
                                    .workers_per_device = per_gpu,
                                    .pinned_limit = d->cfg->pinned_limit,
                                    .device_work_limit = d->cfg->device_work_limit};
        d->cuda = engine_cuda_new(&co, &st, err, sizeof err);
        if (d->cuda && gpus > engine_cuda_devices(d->cuda)) {
            snprintf(err, sizeof err, "%d GPUs asked for, %d found", gpus,
                     engine_cuda_devices(d->cuda));
            engine_cuda_free(d->cuda);
            d->cuda = NULL;
        }
        if (d->cuda) {
            int n = engine_cuda_devices(d->cuda);
            size_t at = 0;
            for (int i = 0; i < n && at < sizeof d->devices_desc; i++)
                at += (size_t)snprintf(d->devices_desc + at, sizeof d->devices_desc - at, "%s%s",
                                       i ? ", " : "", engine_cuda_device_name(d->cuda, i));
            d->backend = engine_cuda_backend(d->cuda);
            *workers = per_gpu * (unsigned)n;
            *urgent = d->cfg->urgent_workers * (unsigned)n;
            return 0;
        }
#else
        snprintf(err, sizeof err, "this cuzkd was built without CUDA (no nvcc at build time)");
#endif
        if (mode != DEVICES_AUTO) {
            log_event(LOG_ERROR, "config", NULL, NULL, "devices = %s: %s", d->cfg->devices, err);
            return -1;
        }
        log_event(LOG_WARN, "config", NULL, NULL, "devices = auto: no GPU (%s); proving on the CPU",
                  err);
    }
    d->cpu = engine_cpu_new(&opt, &st);
    if (!d->cpu) {
        log_event(LOG_ERROR, NULL, NULL, NULL, "cannot start the key loader: %s",
                  cuzk_strerror(st));
        return -1;
    }
    d->backend = engine_cpu_backend(d->cpu);
    return 0;
}

static int cuzkd_setup_engine(cuzkd_t *d)
{
    cuzk_status_t st;
    unsigned workers, urgent;
    if (cuzkd_setup_backend(d, &workers, &urgent) != 0)
        return -1;
    d->urgent_workers = urgent;
    d->hooks =
        (engine_hooks_t){d, cuzkd_hook_partition, cuzkd_hook_end,
                         log_enabled(LOG_DEBUG) ? cuzkd_hook_event : NULL, cuzkd_hook_started};
    engine_config_t ec = {.backend = &d->backend,
                          .hooks = &d->hooks,
                          .workers = workers,
                          .urgent_workers = urgent,
                          .threads = d->cfg->threads,
                          .max_jobs = d->cfg->max_jobs,
                          .host_budget = d->cfg->host_memory_budget,
                          .timeline_events = d->cfg->timeline_events};
    d->engine = engine_new(&ec, &st);
    if (!d->engine) {
        log_event(LOG_ERROR, NULL, NULL, NULL, "cannot start the engine: %s", cuzk_strerror(st));
        return -1;
    }
    return 0;
}

static void cuzkd_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cuzkd_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* What a GET may ask for without the token: the health check, and the
 * status page (static HTML; its script sends the token to the API). */
static const char *const cuzkd_open_paths[] = {"/healthz", "/", NULL};

/* Runs the server until a stop signal, then drains. Returns the exit status. */
static int cuzkd_serve(cuzkd_t *d, int listen_fd)
{
    char err[1024];
    http_config_t hc = {.listen_fd = listen_fd,
                        .max_body = d->cfg->max_body,
                        .max_connections = d->cfg->max_connections,
                        .max_client_connections = d->cfg->max_client_connections,
                        .header_timeout = d->cfg->header_timeout,
                        .token = d->cfg->token,
                        .open_paths = cuzkd_open_paths,
                        .handler = api_handle,
                        .ctx = d};
    d->http = http_start(&hc, err, sizeof err);
    if (!d->http) {
        log_event(LOG_ERROR, NULL, NULL, NULL, "%s", err);
        close(listen_fd);
        return 1;
    }
    engine_counters_t ec;
    engine_counters(d->engine, &ec);
    log_always(LOG_INFO, NULL, "listening on %s (pid %d, %s, %u worker%s, %s)", d->bound,
               (int)getpid(), d->devices_desc, ec.workers, ec.workers == 1 ? "" : "s",
               d->journal ? journal_dir(d->journal) : "no journal");
    while (!cuzkd_stop_signal) {
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
        engine_jobs_prune(d->engine, d->cfg->keep_jobs, cuzkd_forget, d);
    }
    log_event(LOG_INFO, NULL, NULL, NULL,
              "%s: draining (new work refused; running partitions finish)",
              cuzkd_stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
    atomic_store(&d->draining, true);
    if (d->fleet)
        fleet_drain(d->fleet);
    engine_drain(d->engine);
    engine_counters_t c;
    engine_counters(d->engine, &c);
    engine_wake_waiters(d->engine);
    http_stop(d->http);
    d->http = NULL;
    if (!strncmp(d->cfg->listen, "unix:", 5))
        unlink(d->cfg->listen + 5); /* the socket file goes with the server */
    uint64_t left = c.jobs_queued + c.jobs_running;
    log_event(LOG_INFO, NULL, NULL, NULL, "drained: %llu job%s left queued%s",
              (unsigned long long)left, left == 1 ? "" : "s",
              d->journal ? " in the journal" : " (no journal: they are lost)");
    return 0;
}

int main(int argc, char **argv)
{
    cuzkd_config_t cfg;
    char err[CONFIG_ERR_MAX];
    if (argc == 1) { /* no journal, no allowed directory: nothing it could serve */
        fprintf(stderr, "cuzkd: no configuration (give --config FILE or options)\n\n");
        config_usage(stderr);
        return 2;
    }
    int rc = config_load(&cfg, argc, argv, err, sizeof err);
    if (rc == 1 || rc == 2) {
        if (rc == 1)
            config_usage(stdout);
        else
            printf("cuzkd %s\n", cuzk_version());
        config_free(&cfg);
        return 0;
    }
    if (rc != 0) {
        fprintf(stderr, "cuzkd: %s\n", err);
        config_free(&cfg);
        return 2;
    }
    cuzkd_t d;
    memset(&d, 0, sizeof d);
    d.cfg = &cfg;
    if (cuzkd_check(&cfg, &d.allow) != 0) {
        paths_free(&d.allow);
        config_free(&cfg);
        return 1;
    }
    if (cfg.check_only) {
        config_print(&cfg, stdout);
        printf("\n# configuration OK\n");
        paths_free(&d.allow);
        config_free(&cfg);
        return 0;
    }
    log_setup((log_level_t)log_level_from_name(cfg.log_level), !strcmp(cfg.log_format, "json"));
    cuzkd_signals();
    pthread_mutex_init(&d.keys_lock, NULL);
    pthread_mutex_init(&d.latency.lock, NULL);
    d.started_wall = engine_wall();
    int status = 1, fd = -1;
    /* The journal first: a second cuzkd on it stops here, before it binds
     * or loads anything. */
    if (cfg.journal[0] && !(d.journal = journal_open(cfg.journal, err, sizeof err)))
        log_event(LOG_ERROR, "journal", NULL, NULL, "%s", err);
    else if ((fd = http_listen(cfg.listen, d.bound, sizeof d.bound, err, sizeof err)) < 0)
        log_event(LOG_ERROR, NULL, NULL, NULL, "%s", err);
    else if (cuzkd_setup_engine(&d) != 0)
        close(fd);
    else if (cfg.database[0] && !(d.fleet = fleet_new(&d, err, sizeof err))) {
        log_event(LOG_ERROR, "fleet", NULL, NULL, "%s", err);
        close(fd);
    } else {
        size_t n = d.journal
                       ? journal_replay(d.journal, d.engine, cuzkd_load_key, cuzkd_path_allowed, &d)
                       : 0;
        if (n)
            log_event(LOG_INFO, "journal", NULL, NULL, "journal: %zu job%s restored", n,
                      n == 1 ? "" : "s");
        if (cuzkd_preload(&d) != 0) {
            close(fd);
        } else if (d.fleet && fleet_start(d.fleet, err, sizeof err) != 0) {
            log_event(LOG_ERROR, "fleet", NULL, NULL, "fleet: %s", err);
            close(fd);
        } else {
            status = cuzkd_serve(&d, fd);
        }
    }
    /* The fleet's thread hands back what it can while the engine and the
     * journal are still there. */
    fleet_free(d.fleet);
    d.fleet = NULL;
    engine_free(d.engine);
    engine_cpu_free(d.cpu);
#if CUZK_HAVE_CUDA
    engine_cuda_free(d.cuda);
#endif
    journal_close(d.journal);
    paths_free(&d.allow);
    pthread_mutex_destroy(&d.keys_lock);
    pthread_mutex_destroy(&d.latency.lock);
    if (status == 0)
        log_event(LOG_INFO, NULL, NULL, NULL, "exit");
    config_free(&cfg);
    return status;
}
