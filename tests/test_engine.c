/*
 * The engine (src/engine) without HTTP: scheduling order (priority,
 * arrival, partition index), critical work overtaking at a partition
 * boundary, cancellation (queued dropped, running discarded), failures,
 * the key registry (loaded once, refcounted, never evicted in use), ids,
 * limits, drain, hooks, restore, prune and forget, the memory budget, the timeline's
 * ring and Chrome JSON; then real proofs through the CPU backend (zkey +
 * .wtns by path and by bytes, .params + .asgn) checked by the verifiers,
 * a truncated witness and an unsatisfied one.
 *
 * The scheduling tests run on a fake backend whose prove waits at a gate
 * the test opens one partition at a time, so every order is deterministic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>
#include <pthread.h>

#include "test_util.h"

#include "engine/engine.h"
#include "engine/engine_cpu.h"
#if CUZK_HAVE_CUDA
#include "cuda/gpu.h"
#include "engine/engine_cuda.h"
#endif
#include "groth16/groth16.h"
#include "io/asgn_file.h"
#include "io/io_error.h"
#include "io/key_cache.h"
#include "io/key_file.h"
#include "io/params_file.h"
#include "io/snarkjs_json.h"
#include "io/wtns_file.h"
#include "io/zkey_file.h"
#include "r1cs/r1cs.h"

/* ---- the fake backend ---------------------------------------------------------- */

enum { FAKE_LOG = 256, FAKE_KEY_BYTES = 1000 };

typedef struct fake {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    bool gated;  /* prove waits for a ticket */
    int tickets; /* partitions allowed to finish */
    int running, max_running, waiting;
    int loads, frees, workers_made, workers_freed;
    uint64_t partition_bytes;
    char log[FAKE_LOG][32];     /* "path" of each partition, in the order they started */
    unsigned urgency[FAKE_LOG]; /* the urgency each was proven with */
    int n_log;
} fake_t;

static fake_t fake;

static void fake_reset(bool gated)
{
    pthread_mutex_lock(&fake.lock);
    fake.gated = gated;
    fake.tickets = 0;
    fake.running = fake.max_running = fake.waiting = 0;
    fake.loads = fake.frees = fake.workers_made = fake.workers_freed = 0;
    fake.partition_bytes = 0;
    fake.n_log = 0;
    pthread_mutex_unlock(&fake.lock);
}

static cuzk_status_t fake_key_load(void *ctx, key_format_t format, const char *path, void **key,
                                   uint64_t *bytes, char *err, size_t err_size)
{
    (void)ctx;
    (void)format;
    if (strstr(path, "bad"))
        return io_fail(err, err_size, CUZK_EBADFILE, "%s: not a key", path);
    pthread_mutex_lock(&fake.lock);
    fake.loads++;
    pthread_mutex_unlock(&fake.lock);
    *key = strdup(path);
    *bytes = FAKE_KEY_BYTES;
    return CUZK_OK;
}

static void fake_key_free(void *ctx, void *key)
{
    (void)ctx;
    pthread_mutex_lock(&fake.lock);
    fake.frees++;
    pthread_mutex_unlock(&fake.lock);
    free(key);
}

static uint64_t fake_partition_bytes(void *ctx, const void *key)
{
    (void)ctx;
    (void)key;
    return fake.partition_bytes;
}

static cuzk_status_t fake_worker_new(void *ctx, unsigned worker, unsigned threads, void **wctx)
{
    (void)ctx;
    (void)threads;
    pthread_mutex_lock(&fake.lock);
    fake.workers_made++;
    pthread_mutex_unlock(&fake.lock);
    *wctx = (void *)(uintptr_t)(worker + 1);
    return CUZK_OK;
}

static void fake_worker_free(void *ctx, void *wctx)
{
    (void)ctx;
    (void)wctx;
    pthread_mutex_lock(&fake.lock);
    fake.workers_freed++;
    pthread_mutex_unlock(&fake.lock);
}

/* Logs the partition's label (its input path), waits for a ticket when
 * gated, reports two stages; labels containing "fail" fail. */
static cuzk_status_t fake_prove(void *ctx, void *wctx, const void *key, key_format_t format,
                                const engine_input_t *in, unsigned urgency,
                                engine_stage_report_fn report, void *rctx, engine_result_t *out,
                                char *err, size_t err_size)
{
    (void)ctx;
    (void)wctx;
    (void)key;
    (void)format;
    const char *label = in->path ? in->path : "bytes";
    double t0 = engine_now();
    pthread_mutex_lock(&fake.lock);
    if (fake.n_log < FAKE_LOG) {
        fake.urgency[fake.n_log] = urgency;
        snprintf(fake.log[fake.n_log++], sizeof fake.log[0], "%s", label);
    }
    fake.running++;
    fake.max_running = fake.running > fake.max_running ? fake.running : fake.max_running;
    pthread_cond_broadcast(&fake.cv);
    fake.waiting++;
    while (fake.gated && fake.tickets == 0)
        pthread_cond_wait(&fake.cv, &fake.lock);
    fake.waiting--;
    if (fake.gated)
        fake.tickets--;
    fake.running--;
    pthread_cond_broadcast(&fake.cv);
    pthread_mutex_unlock(&fake.lock);
    double t1 = engine_now();
    report(rctx, ENGINE_STAGE_READ, t0, t0 + (t1 - t0) / 2, 7);
    report(rctx, ENGINE_STAGE_MSM, t0 + (t1 - t0) / 2, t1, 0);
    if (strstr(label, "fail"))
        return io_fail(err, err_size, CUZK_EWITNESS, "%s: does not satisfy", label);
    out->proof_json = strdup(label);
    out->public_json = strdup("[]");
    return CUZK_OK;
}

/* Workers alternate between two devices: 0, 1, 0, 1, ... */
static int fake_worker_device(void *ctx, unsigned worker)
{
    (void)ctx;
    return (int)(worker % 2);
}

static const engine_backend_t fake_backend = {
    .name = "fake",
    .worker_device = fake_worker_device,
    .key_load = fake_key_load,
    .key_free = fake_key_free,
    .partition_bytes = fake_partition_bytes,
    .worker_new = fake_worker_new,
    .worker_free = fake_worker_free,
    .prove = fake_prove,
};

/* Waits until n partitions sit at the gate. */
static void fake_wait_waiting(int n)
{
    pthread_mutex_lock(&fake.lock);
    while (fake.waiting < n)
        pthread_cond_wait(&fake.cv, &fake.lock);
    pthread_mutex_unlock(&fake.lock);
}

/* Waits until n partitions have started (the n-th is at the gate or past). */
static void fake_wait_started(int n)
{
    pthread_mutex_lock(&fake.lock);
    while (fake.n_log < n)
        pthread_cond_wait(&fake.cv, &fake.lock);
    pthread_mutex_unlock(&fake.lock);
}

static void fake_open(int tickets)
{
    pthread_mutex_lock(&fake.lock);
    fake.tickets += tickets;
    pthread_cond_broadcast(&fake.cv);
    pthread_mutex_unlock(&fake.lock);
}

static void fake_ungate(void)
{
    pthread_mutex_lock(&fake.lock);
    fake.gated = false;
    pthread_cond_broadcast(&fake.cv);
    pthread_mutex_unlock(&fake.lock);
}

/* ---- helpers -------------------------------------------------------------------- */

static engine_t *new_engine(unsigned workers, size_t max_jobs, uint64_t budget,
                            const engine_hooks_t *hooks)
{
    engine_config_t cfg = {.backend = &fake_backend,
                           .hooks = hooks,
                           .workers = workers,
                           .threads = workers,
                           .max_jobs = max_jobs,
                           .host_budget = budget,
                           .timeline_events = 64};
    cuzk_status_t st;
    engine_t *e = engine_new(&cfg, &st);
    assert_non_null(e);
    assert_int_equal(st, CUZK_OK);
    return e;
}

static void load_key(engine_t *e, const char *name, const char *path)
{
    char err[256];
    assert_int_equal(engine_key_load(e, name, KEY_FORMAT_ZKEY, path, NULL, NULL, err, sizeof err),
                     ENGINE_OK);
}

/* Submits and starts a job of n partitions labelled "<id>.<i>". */
static engine_job_t *submit(engine_t *e, const char *id, engine_priority_t prio, uint32_t n)
{
    engine_input_t in[8];
    char labels[8][40];
    assert_true(n <= 8);
    for (uint32_t i = 0; i < n; i++) {
        snprintf(labels[i], sizeof labels[i], "%s.%u", id, i);
        in[i] = (engine_input_t){.kind = ENGINE_INPUT_WTNS_PATH, .path = labels[i]};
    }
    engine_job_spec_t spec = {.id = id, .key = "k", .priority = prio, .n_inputs = n, .inputs = in};
    engine_job_t *job = NULL;
    assert_int_equal(engine_job_submit(e, &spec, &job), ENGINE_OK);
    engine_job_start(e, job);
    return job;
}

static engine_state_t state_of(engine_t *e, engine_job_t *job)
{
    engine_job_info_t info;
    assert_int_equal(engine_job_info(e, job, &info), ENGINE_OK);
    engine_state_t s = info.state;
    engine_job_info_free(&info);
    return s;
}

/* The log is copied out first: a failed assertion must not leave the
 * fake's lock held for the next test. */
static void expect_log(const char *const *want, int n)
{
    char log[FAKE_LOG][32];
    pthread_mutex_lock(&fake.lock);
    int got = fake.n_log;
    memcpy(log, fake.log, sizeof log);
    pthread_mutex_unlock(&fake.lock);
    for (int i = 0; i < got; i++)
        printf("  log[%d] = %s\n", i, log[i]);
    assert_int_equal(got, n);
    for (int i = 0; i < n; i++)
        assert_string_equal(log[i], want[i]);
}

/* ---- scheduling ------------------------------------------------------------------ */

/* One worker busy with A; then jobs of every priority arrive: they run by
 * priority, then arrival, then partition index. */
static void test_order(void **state)
{
    (void)state;
    fake_reset(true);
    engine_t *e = new_engine(1, 0, 0, NULL);
    load_key(e, "k", "/keys/k.zkey");
    engine_job_t *jobs[6];
    jobs[0] = submit(e, "A", ENGINE_PRIORITY_NORMAL, 1);
    fake_wait_waiting(1);
    jobs[1] = submit(e, "N1", ENGINE_PRIORITY_NORMAL, 2);
    jobs[2] = submit(e, "L1", ENGINE_PRIORITY_LOW, 1);
    jobs[3] = submit(e, "H1", ENGINE_PRIORITY_HIGH, 2);
    jobs[4] = submit(e, "N2", ENGINE_PRIORITY_NORMAL, 1);
    jobs[5] = submit(e, "C1", ENGINE_PRIORITY_CRITICAL, 1);
    fake_ungate();
    for (int i = 0; i < 6; i++) {
        assert_true(engine_job_wait(e, jobs[i], 10));
        assert_int_equal(state_of(e, jobs[i]), ENGINE_DONE);
    }
    static const char *const want[] = {"A.0",  "C1.0", "H1.0", "H1.1",
                                       "N1.0", "N1.1", "N2.0", "L1.0"};
    expect_log(want, 8);
    engine_counters_t c;
    engine_counters(e, &c);
    assert_int_equal(c.jobs_done, 6);
    assert_int_equal(c.partitions_done, 8);
    assert_int_equal(c.partitions_queued, 0);
    assert_int_equal(c.jobs_queued + c.jobs_running, 0);
    for (int i = 0; i < 6; i++)
        engine_job_unref(e, jobs[i]);
    engine_free(e);
    assert_int_equal(fake.workers_made, 1);
    assert_int_equal(fake.workers_freed, 1);
    assert_int_equal(fake.frees, 1);
}

/* A critical job takes the worker at the next partition boundary of a
 * running normal job of four partitions. */
static void test_critical_overtakes(void **state)
{
    (void)state;
    fake_reset(true);
    engine_t *e = new_engine(1, 0, 0, NULL);
    load_key(e, "k", "/keys/k.zkey");
    engine_job_t *n = submit(e, "N", ENGINE_PRIORITY_NORMAL, 4);
    fake_wait_waiting(1);
    fake_open(1); /* N.0 finishes; N.1 starts */
    fake_wait_started(2);
    engine_job_t *c = submit(e, "C", ENGINE_PRIORITY_CRITICAL, 1);
    fake_ungate();
    assert_true(engine_job_wait(e, n, 10));
    assert_true(engine_job_wait(e, c, 10));
    static const char *const want[] = {"N.0", "N.1", "C.0", "N.2", "N.3"};
    expect_log(want, 5);
    engine_job_info_t ci, ni;
    assert_int_equal(engine_job_info(e, c, &ci), ENGINE_OK);
    assert_int_equal(engine_job_info(e, n, &ni), ENGINE_OK);
    assert_true(ci.finished_at <= ni.finished_at);
    assert_string_equal(ni.partitions[3].result->proof_json, "N.3");
    assert_true(ni.partitions[0].seconds[ENGINE_STAGE_READ] >= 0);
    assert_int_equal(ni.partitions[2].worker, 0);
    engine_job_info_free(&ci);
    engine_job_info_free(&ni);
    engine_job_unref(e, n);
    engine_job_unref(e, c);
    engine_free(e);
}

/* An urgent worker takes only critical partitions: it leaves a normal job's
 * partitions queued while the one worker is busy, and starts a critical job
 * at once, with the job's priority as its urgency. */
static void test_urgent_worker(void **state)
{
    (void)state;
    fake_reset(true);
    engine_config_t cfg = {.backend = &fake_backend,
                           .workers = 1,
                           .urgent_workers = 1,
                           .threads = 2,
                           .timeline_events = 64};
    cuzk_status_t st;
    engine_t *e = engine_new(&cfg, &st);
    assert_non_null(e);
    load_key(e, "k", "/keys/k.zkey");
    engine_job_t *n = submit(e, "N", ENGINE_PRIORITY_HIGH, 3);
    fake_wait_waiting(1);
    usleep(50000); /* time enough for a wrong worker to take N.1 */
    engine_counters_t c;
    engine_counters(e, &c);
    assert_int_equal(c.partitions_running, 1);
    assert_int_equal(c.workers, 2);
    engine_job_t *cj = submit(e, "C", ENGINE_PRIORITY_CRITICAL, 1);
    fake_wait_waiting(2); /* C.0 runs beside N.0 */
    fake_ungate();
    assert_true(engine_job_wait(e, n, 10));
    assert_true(engine_job_wait(e, cj, 10));
    static const char *const want[] = {"N.0", "C.0", "N.1", "N.2"};
    expect_log(want, 4);
    assert_int_equal(fake.urgency[0], ENGINE_PRIORITY_HIGH);
    assert_int_equal(fake.urgency[1], ENGINE_PRIORITY_CRITICAL);
    engine_job_info_t ci, ni;
    assert_int_equal(engine_job_info(e, cj, &ci), ENGINE_OK);
    assert_int_equal(engine_job_info(e, n, &ni), ENGINE_OK);
    assert_int_equal(ci.partitions[0].worker, 1);
    for (int i = 0; i < 3; i++)
        assert_int_equal(ni.partitions[i].worker, 0);
    engine_job_info_free(&ci);
    engine_job_info_free(&ni);
    engine_job_unref(e, n);
    engine_job_unref(e, cj);
    engine_free(e);
}

/* A job that names a device runs on that device's workers only, and the
 * partitions behind it in the queue go to the other workers meanwhile; a
 * device no worker proves on is refused. */
static void test_devices(void **state)
{
    (void)state;
    fake_reset(true);
    engine_t *e = new_engine(4, 0, 0, NULL); /* devices 0, 1, 0, 1 */
    load_key(e, "k", "/keys/k.zkey");
    engine_input_t in[6];
    char labels[6][16];
    for (int i = 0; i < 6; i++) {
        snprintf(labels[i], sizeof labels[i], "D.%d", i);
        in[i] = (engine_input_t){.kind = ENGINE_INPUT_WTNS_PATH, .path = labels[i]};
    }
    engine_job_spec_t spec = {
        .id = "D", .key = "k", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 6, .inputs = in};
    spec.devices = 1u << 3;
    engine_job_t *d = NULL, *a;
    assert_int_equal(engine_job_submit(e, &spec, &d), ENGINE_EINVAL);
    assert_null(d);
    spec.devices = 1u << 1;
    assert_int_equal(engine_job_submit(e, &spec, &d), ENGINE_OK);
    engine_job_start(e, d);
    a = submit(e, "A", ENGINE_PRIORITY_NORMAL, 2);
    fake_wait_waiting(4); /* D.0, D.1 on workers 1 and 3; A.0, A.1 on 0 and 2 */
    fake_ungate();
    assert_true(engine_job_wait(e, d, 10));
    assert_true(engine_job_wait(e, a, 10));
    engine_job_info_t di, ai;
    assert_int_equal(engine_job_info(e, d, &di), ENGINE_OK);
    assert_int_equal(engine_job_info(e, a, &ai), ENGINE_OK);
    assert_int_equal(di.state, ENGINE_DONE);
    assert_int_equal(ai.state, ENGINE_DONE);
    for (int i = 0; i < 6; i++)
        assert_int_equal(di.partitions[i].worker % 2, 1);
    for (int i = 0; i < 2; i++)
        assert_int_equal(ai.partitions[i].worker % 2, 0);
    engine_job_info_free(&di);
    engine_job_info_free(&ai);
    engine_job_unref(e, d);
    engine_job_unref(e, a);
    engine_free(e);
}

/* Two workers run two partitions at once; with a budget that holds the
 * key and one partition, only one runs at a time. */
static void test_budget(void **state)
{
    (void)state;
    for (int pass = 0; pass < 2; pass++) {
        fake_reset(false);
        engine_t *e = new_engine(2, 0, pass ? FAKE_KEY_BYTES + 800 : 0, NULL);
        fake.partition_bytes = 600;
        load_key(e, "k", "/keys/k.zkey");
        fake.gated = true;
        engine_job_t *a = submit(e, "a", ENGINE_PRIORITY_NORMAL, 3);
        engine_job_t *b = submit(e, "b", ENGINE_PRIORITY_NORMAL, 3);
        fake_wait_waiting(pass ? 1 : 2);
        usleep(20000); /* a second worker that would start, starts */
        engine_counters_t c;
        engine_counters(e, &c);
        assert_int_equal(c.partitions_running, pass ? 1 : 2);
        assert_int_equal(c.host_reserved_bytes, pass ? 600 : 1200);
        fake_ungate();
        assert_true(engine_job_wait(e, a, 10));
        assert_true(engine_job_wait(e, b, 10));
        assert_int_equal(fake.max_running, pass ? 1 : 2);
        engine_counters(e, &c);
        assert_int_equal(c.host_reserved_bytes, 0);
        if (pass) { /* a second key would not fit */
            char err[256];
            assert_int_equal(
                engine_key_load(e, "k2", KEY_FORMAT_ZKEY, "/keys/k2", NULL, NULL, err, sizeof err),
                ENGINE_EBUDGET);
            assert_non_null(strstr(err, "budget"));
        }
        engine_job_unref(e, a);
        engine_job_unref(e, b);
        engine_free(e);
    }
}

/* ---- cancellation and failures ---------------------------------------------------- */

static void test_cancel(void **state)
{
    (void)state;
    fake_reset(true);
    engine_t *e = new_engine(1, 0, 0, NULL);
    load_key(e, "k", "/keys/k.zkey");
    engine_job_t *x = submit(e, "X", ENGINE_PRIORITY_NORMAL, 3);
    engine_job_t *q = submit(e, "Q", ENGINE_PRIORITY_NORMAL, 2);
    fake_wait_waiting(1);                                 /* X.0 runs */
    assert_int_equal(engine_job_cancel(e, q), ENGINE_OK); /* queued */
    assert_int_equal(engine_job_cancel(e, x), ENGINE_OK); /* running */
    assert_int_equal(engine_job_cancel(e, x), ENGINE_EENDED);
    assert_true(engine_job_wait(e, x, 0));
    assert_int_equal(state_of(e, x), ENGINE_CANCELLED);
    assert_int_equal(state_of(e, q), ENGINE_CANCELLED);
    /* the running partition holds the key until it returns */
    assert_int_equal(engine_key_evict(e, "k"), ENGINE_EBUSY);
    engine_counters_t c;
    engine_counters(e, &c);
    assert_int_equal(c.partitions_queued, 0);
    assert_int_equal(c.partitions_running, 1);
    fake_ungate();
    engine_job_t *after = submit(e, "after", ENGINE_PRIORITY_LOW, 1);
    assert_true(engine_job_wait(e, after, 10));
    engine_counters(e, &c);
    assert_int_equal(c.partitions_discarded, 1);
    assert_int_equal(c.jobs_cancelled, 2);
    static const char *const want[] = {"X.0", "after.0"};
    expect_log(want, 2);
    engine_job_info_t info;
    assert_int_equal(engine_job_info(e, x, &info), ENGINE_OK);
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(info.partitions[i].state, ENGINE_CANCELLED);
        assert_null(info.partitions[i].result);
    }
    engine_job_info_free(&info);
    engine_job_unref(e, x);
    engine_job_unref(e, q);
    engine_job_unref(e, after);
    assert_int_equal(engine_key_evict(e, "k"), ENGINE_OK);
    assert_int_equal(fake.frees, 1);
    engine_free(e);
}

/* A failing partition fails its job, drops the rest, names the partition. */
static void test_failure(void **state)
{
    (void)state;
    fake_reset(false);
    engine_t *e = new_engine(1, 0, 0, NULL);
    load_key(e, "k", "/keys/k.zkey");
    engine_input_t in[3] = {{.kind = ENGINE_INPUT_WTNS_PATH, .path = "ok"},
                            {.kind = ENGINE_INPUT_WTNS_PATH, .path = "fail"},
                            {.kind = ENGINE_INPUT_WTNS_PATH, .path = "never"}};
    engine_job_spec_t spec = {
        .key = "k", .priority = ENGINE_PRIORITY_HIGH, .n_inputs = 3, .inputs = in};
    engine_job_t *job;
    assert_int_equal(engine_job_submit(e, &spec, &job), ENGINE_OK);
    assert_int_equal(strlen(engine_job_id(job)), 16);
    engine_job_start(e, job);
    assert_true(engine_job_wait(e, job, 10));
    engine_job_info_t info;
    assert_int_equal(engine_job_info(e, job, &info), ENGINE_OK);
    assert_int_equal(info.state, ENGINE_FAILED);
    assert_non_null(strstr(info.error, "partition 1"));
    assert_non_null(strstr(info.error, "does not satisfy"));
    assert_int_equal(info.partitions[0].state, ENGINE_DONE);
    assert_int_equal(info.partitions[1].state, ENGINE_FAILED);
    assert_int_equal(info.partitions[2].state, ENGINE_CANCELLED);
    engine_job_info_free(&info);
    static const char *const want[] = {"ok", "fail"};
    expect_log(want, 2);
    engine_job_unref(e, job);
    engine_free(e);
}

/* ---- keys, ids, limits ------------------------------------------------------------ */

static void test_keys(void **state)
{
    (void)state;
    fake_reset(false);
    engine_t *e = new_engine(1, 0, 0, NULL);
    char err[256] = "";
    bool loaded = true;
    cuzk_status_t st;
    assert_int_equal(engine_key_load(e, "k", KEY_FORMAT_ZKEY, "/k", &loaded, &st, err, sizeof err),
                     ENGINE_OK);
    assert_false(loaded);
    assert_int_equal(engine_key_load(e, "k", KEY_FORMAT_ZKEY, "/k", &loaded, &st, err, sizeof err),
                     ENGINE_OK);
    assert_true(loaded);
    assert_int_equal(fake.loads, 1);
    assert_int_equal(engine_key_load(e, "k", KEY_FORMAT_PARAMS, "/k", NULL, NULL, err, sizeof err),
                     ENGINE_EEXIST);
    assert_int_equal(engine_key_load(e, "k", KEY_FORMAT_ZKEY, "/k2", NULL, NULL, err, sizeof err),
                     ENGINE_EEXIST);
    assert_non_null(strstr(err, "/k"));
    assert_int_equal(engine_key_load(e, "b", KEY_FORMAT_ZKEY, "/bad", NULL, &st, err, sizeof err),
                     ENGINE_ELOAD);
    assert_int_equal(st, CUZK_EBADFILE);
    assert_string_equal(err, "/bad: not a key");
    assert_int_equal(engine_key_load(e, "../x", KEY_FORMAT_ZKEY, "/k", NULL, NULL, err, sizeof err),
                     ENGINE_EINVAL);
    assert_int_equal(engine_key_load(e, "p", KEY_FORMAT_PARAMS, "/p", NULL, NULL, err, sizeof err),
                     ENGINE_OK);

    /* inputs must fit the key's format; unknown keys are refused */
    engine_input_t asgn = {.kind = ENGINE_INPUT_ASGN_PATH, .path = "/a.asgn"};
    engine_input_t wtns = {
        .kind = ENGINE_INPUT_WTNS_BYTES, .bytes = (const unsigned char *)"x", .len = 1};
    engine_job_spec_t spec = {
        .key = "k", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &asgn};
    engine_job_t *job;
    assert_int_equal(engine_job_submit(e, &spec, &job), ENGINE_EMISMATCH);
    spec.key = "p";
    spec.inputs = &wtns;
    assert_int_equal(engine_job_submit(e, &spec, &job), ENGINE_EMISMATCH);
    spec.key = "nope";
    assert_int_equal(engine_job_submit(e, &spec, &job), ENGINE_ENOKEY);
    assert_null(job);

    /* use counts: a held job uses its key; eviction waits for it */
    spec.key = "k";
    assert_int_equal(engine_job_submit(e, &spec, &job), ENGINE_OK);
    engine_key_info_t *info;
    size_t n = engine_keys_info(e, &info);
    assert_int_equal(n, 2);
    assert_string_equal(info[0].name, "k");
    assert_string_equal(info[0].path, "/k");
    assert_string_equal(info[0].tier, "host");
    assert_int_equal(info[0].bytes, FAKE_KEY_BYTES);
    assert_int_equal(info[0].users, 1);
    assert_int_equal(info[1].format, KEY_FORMAT_PARAMS);
    engine_keys_info_free(info, n);
    assert_int_equal(engine_key_evict(e, "k"), ENGINE_EBUSY);
    engine_job_start(e, job);
    assert_true(engine_job_wait(e, job, 10));
    n = engine_keys_info(e, &info);
    assert_int_equal(info[0].users, 0);
    assert_int_equal(info[0].proofs, 1);
    assert_true(info[0].last_used > 0);
    engine_keys_info_free(info, n);
    engine_job_unref(e, job);
    assert_int_equal(engine_key_evict(e, "k"), ENGINE_OK);
    assert_int_equal(engine_key_evict(e, "k"), ENGINE_ENOKEY);
    engine_counters_t c;
    engine_counters(e, &c);
    assert_int_equal(c.key_loads, 2);
    assert_int_equal(c.key_hits, 1);
    assert_int_equal(c.key_load_failures, 1);
    assert_int_equal(c.key_evictions, 1);
    assert_int_equal(c.keys, 1);
    assert_int_equal(c.host_key_bytes, FAKE_KEY_BYTES);
    engine_free(e);
    assert_int_equal(fake.frees, 2);
}

static void test_ids_and_limits(void **state)
{
    (void)state;
    assert_true(engine_id_valid("job-1.a_B"));
    assert_false(engine_id_valid(""));
    assert_false(engine_id_valid(".hidden"));
    assert_false(engine_id_valid("-x"));
    assert_false(engine_id_valid("a/b"));
    assert_false(engine_id_valid("a b"));
    char longid[ENGINE_ID_MAX + 2];
    memset(longid, 'a', sizeof longid - 1);
    longid[ENGINE_ID_MAX + 1] = '\0';
    assert_false(engine_id_valid(longid));
    longid[ENGINE_ID_MAX] = '\0';
    assert_true(engine_id_valid(longid));
    assert_int_equal(engine_priority_from_name("critical"), ENGINE_PRIORITY_CRITICAL);
    assert_int_equal(engine_priority_from_name("urgent"), -1);
    assert_string_equal(engine_state_name(ENGINE_CANCELLED), "cancelled");

    fake_reset(true);
    engine_t *e = new_engine(1, 2, 0, NULL);
    load_key(e, "k", "/k");
    engine_job_t *a = submit(e, "same", ENGINE_PRIORITY_NORMAL, 1);
    engine_input_t in = {.kind = ENGINE_INPUT_WTNS_PATH, .path = "other"};
    engine_job_spec_t spec = {
        .id = "same", .key = "k", .priority = ENGINE_PRIORITY_LOW, .n_inputs = 1, .inputs = &in};
    engine_job_t *again;
    assert_int_equal(engine_job_submit(e, &spec, &again), ENGINE_EEXIST);
    assert_ptr_equal(again, a);
    engine_job_unref(e, again);
    spec.id = "bad/id";
    assert_int_equal(engine_job_submit(e, &spec, &again), ENGINE_EINVAL);
    spec.id = NULL;
    spec.priority = ENGINE_PRIORITIES;
    assert_int_equal(engine_job_submit(e, &spec, &again), ENGINE_EINVAL);
    engine_job_t *b = submit(e, "b", ENGINE_PRIORITY_NORMAL, 1);
    spec.priority = ENGINE_PRIORITY_LOW;
    assert_int_equal(engine_job_submit(e, &spec, &again), ENGINE_EFULL);
    /* a held job counts against the limit until aborted */
    assert_int_equal(engine_job_cancel(e, b), ENGINE_OK);
    assert_int_equal(engine_job_submit(e, &spec, &again), ENGINE_OK);
    char id[ENGINE_ID_MAX + 1];
    snprintf(id, sizeof id, "%s", engine_job_id(again));
    engine_job_abort(e, again);
    engine_job_unref(e, again);
    engine_job_t *gone = engine_job_find(e, id);
    assert_null(gone);
    engine_counters_t c;
    engine_counters(e, &c);
    assert_int_equal(c.jobs_held, 0);
    assert_int_equal(c.jobs_submitted, 2);
    fake_ungate();
    assert_true(engine_job_wait(e, a, 10));
    engine_job_unref(e, a);
    engine_job_unref(e, b);
    engine_free(e);
}

/* A duplicate submit while the first is held (being journaled) waits for
 * its outcome: EEXIST once it is started, a fresh job once it is aborted;
 * never EEXIST for a job that then disappears. A lookup (GET, DELETE)
 * waits the same: the job once started, none once aborted. */
typedef struct {
    engine_t *e;
    engine_rc_t rc;
    engine_job_t *job;
    bool done;
} dup_arg_t;

static void *find_thread(void *arg)
{
    dup_arg_t *d = arg;
    d->job = engine_job_find(d->e, "held");
    __atomic_store_n(&d->done, true, __ATOMIC_SEQ_CST);
    return NULL;
}

static void *dup_thread(void *arg)
{
    dup_arg_t *d = arg;
    engine_input_t in = {.kind = ENGINE_INPUT_WTNS_PATH, .path = "dup"};
    engine_job_spec_t spec = {
        .id = "held", .key = "k", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &in};
    d->rc = engine_job_submit(d->e, &spec, &d->job);
    __atomic_store_n(&d->done, true, __ATOMIC_SEQ_CST);
    return NULL;
}

static void test_duplicate_while_held(void **state)
{
    (void)state;
    fake_reset(false);
    engine_t *e = new_engine(1, 0, 0, NULL);
    load_key(e, "k", "/k");
    engine_input_t in = {.kind = ENGINE_INPUT_WTNS_PATH, .path = "first"};
    engine_job_spec_t spec = {
        .id = "held", .key = "k", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &in};
    for (int outcome = 0; outcome < 3; outcome++) { /* abort, start, cancel */
        engine_job_t *first = NULL;
        assert_int_equal(engine_job_submit(e, &spec, &first), ENGINE_OK);
        dup_arg_t d = {e, ENGINE_OK, NULL, false}, f = {e, ENGINE_OK, NULL, false};
        pthread_t t, tf;
        assert_int_equal(pthread_create(&t, NULL, dup_thread, &d), 0);
        assert_int_equal(pthread_create(&tf, NULL, find_thread, &f), 0);
        usleep(50000);
        assert_false(__atomic_load_n(&d.done, __ATOMIC_SEQ_CST)); /* waits while held */
        assert_false(__atomic_load_n(&f.done, __ATOMIC_SEQ_CST));
        if (outcome == 0)
            engine_job_abort(e, first);
        else if (outcome == 1)
            engine_job_start(e, first);
        else
            assert_int_equal(engine_job_cancel(e, first), ENGINE_OK);
        pthread_join(t, NULL);
        if (outcome == 0) {
            /* the id was free again: the duplicate is a new, held job */
            assert_int_equal(d.rc, ENGINE_OK);
            assert_ptr_not_equal(d.job, first);
            engine_job_start(e, d.job);
        } else {
            assert_int_equal(d.rc, ENGINE_EEXIST);
            assert_ptr_equal(d.job, first);
        }
        pthread_join(tf, NULL);
        /* aborted, the first is never found: the lookup finds none, or the
         * duplicate's job once that is started */
        assert_true(outcome == 0 ? f.job == NULL || f.job == d.job : f.job == first);
        if (f.job)
            engine_job_unref(e, f.job);
        assert_true(engine_job_wait(e, d.job, 10));
        engine_job_unref(e, d.job);
        engine_job_unref(e, first);
        engine_jobs_prune(e, 0, NULL, NULL);
    }
    engine_free(e);
}

/* Drain: the running partition finishes, the rest stays queued, and no
 * job is accepted. */
typedef struct {
    engine_t *e;
    bool done;
} drain_arg_t;

static void *drain_thread(void *arg)
{
    drain_arg_t *d = arg;
    engine_drain(d->e);
    __atomic_store_n(&d->done, true, __ATOMIC_SEQ_CST);
    return NULL;
}

static void test_drain(void **state)
{
    (void)state;
    fake_reset(true);
    engine_t *e = new_engine(1, 0, 0, NULL);
    load_key(e, "k", "/k");
    engine_job_t *job = submit(e, "D", ENGINE_PRIORITY_NORMAL, 3);
    fake_wait_waiting(1);
    drain_arg_t d = {e, false};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, drain_thread, &d), 0);
    while (!engine_draining(e))
        usleep(1000);
    usleep(20000);
    assert_false(__atomic_load_n(&d.done, __ATOMIC_SEQ_CST));
    engine_input_t in = {.kind = ENGINE_INPUT_WTNS_PATH, .path = "x"};
    engine_job_spec_t spec = {
        .key = "k", .priority = ENGINE_PRIORITY_LOW, .n_inputs = 1, .inputs = &in};
    engine_job_t *no;
    assert_int_equal(engine_job_submit(e, &spec, &no), ENGINE_EDRAINING);
    fake_ungate();
    pthread_join(t, NULL);
    assert_true(d.done);
    engine_job_info_t info;
    assert_int_equal(engine_job_info(e, job, &info), ENGINE_OK);
    assert_int_equal(info.state, ENGINE_RUNNING);
    assert_int_equal(info.n_done, 1);
    assert_int_equal(info.partitions[1].state, ENGINE_QUEUED);
    engine_job_info_free(&info);
    assert_false(engine_job_wait(e, job, 0.01));
    engine_wake_waiters(e);
    assert_false(engine_job_wait(e, job, 10)); /* returns at once */
    engine_job_unref(e, job);
    engine_free(e);
}

/* ---- hooks, restore, prune --------------------------------------------------------- */

typedef struct {
    engine_t *e;
    int parts, ends;
    engine_state_t last;
    bool visible_early; /* a partition or end visible before its hook returned */
    int msm_events;     /* the event hook's MSM stages */
    int refuse_after;   /* > 0: the partition hook fails after this many */
} hook_log_t;

static hook_log_t hook_log;

static int hook_part(void *ctx, engine_job_t *job, uint32_t index, const engine_result_t *r,
                     char *err, size_t err_size)
{
    hook_log_t *h = ctx;
    engine_job_info_t info;
    assert_int_equal(engine_job_info(h->e, job, &info), ENGINE_OK);
    if (info.partitions[index].state == ENGINE_DONE)
        h->visible_early = true;
    engine_job_info_free(&info);
    assert_non_null(r->proof_json);
    h->parts++;
    if (h->refuse_after && h->parts > h->refuse_after) {
        snprintf(err, err_size, "no space (a test)");
        return -1;
    }
    return 0;
}

static void hook_end(void *ctx, engine_job_t *job, engine_state_t state, const char *error)
{
    hook_log_t *h = ctx;
    (void)error;
    if (state_of(h->e, job) == state)
        h->visible_early = true;
    h->ends++;
    h->last = state;
}

static void hook_event(void *ctx, const engine_event_t *ev)
{
    hook_log_t *h = ctx;
    if (ev->stage == ENGINE_STAGE_MSM)
        __atomic_add_fetch(&h->msm_events, 1, __ATOMIC_SEQ_CST);
}

/* ---- listing, the start hook ------------------------------------------------------ */

static int started_calls;
static char started_order[8][16];

static void hook_started(void *ctx, engine_job_t *job)
{
    (void)ctx;
    int n = __atomic_fetch_add(&started_calls, 1, __ATOMIC_SEQ_CST);
    if (n < 8)
        snprintf(started_order[n], sizeof started_order[n], "%s", engine_job_id(job));
}

/* The listing: newest first, the state filter, the cursor, the limit; the
 * start hook: once a job, when its first partition starts, never for a
 * job that never ran. */
static void test_jobs_list_started(void **state)
{
    (void)state;
    fake_reset(true);
    engine_hooks_t hooks = {.job_started = hook_started};
    started_calls = 0;
    engine_t *e = new_engine(1, 0, 0, &hooks);
    load_key(e, "k", "/k");
    engine_job_t *a = submit(e, "A", ENGINE_PRIORITY_NORMAL, 2);
    fake_wait_waiting(1); /* A runs; B, C, D queue behind it */
    engine_job_t *b = submit(e, "B-fail", ENGINE_PRIORITY_NORMAL, 1);
    engine_job_t *c = submit(e, "C", ENGINE_PRIORITY_NORMAL, 1);
    engine_job_t *d = submit(e, "D", ENGINE_PRIORITY_NORMAL, 1);
    assert_int_equal(engine_job_cancel(e, c), ENGINE_OK);

    engine_job_summary_t *list;
    size_t matched;
    size_t n = engine_jobs_list(e, -1, 0, 10, &list, &matched);
    assert_int_equal(n, 4);
    assert_int_equal(matched, 4);
    const char *newest_first[4] = {"D", "C", "B-fail", "A"};
    for (size_t i = 0; i < n; i++)
        assert_string_equal(list[i].id, newest_first[i]);
    assert_int_equal(list[3].state, ENGINE_RUNNING);
    assert_int_equal(list[3].n_partitions, 2);
    assert_int_equal(list[3].n_running, 1);
    assert_string_equal(list[3].key, "k");
    assert_int_equal(list[1].state, ENGINE_CANCELLED);
    assert_int_equal(list[0].state, ENGINE_QUEUED);
    assert_true(list[0].submitted_at > 0 && list[0].started_at == 0);
    uint64_t cursor = list[1].seq;
    engine_jobs_list_free(list, n);

    /* the page after C, one at a time */
    n = engine_jobs_list(e, -1, cursor, 1, &list, &matched);
    assert_int_equal(n, 1);
    assert_int_equal(matched, 4);
    assert_string_equal(list[0].id, "B-fail");
    engine_jobs_list_free(list, n);
    n = engine_jobs_list(e, ENGINE_QUEUED, 0, 10, &list, &matched);
    assert_int_equal(n, 2);
    assert_int_equal(matched, 2);
    assert_string_equal(list[0].id, "D");
    assert_string_equal(list[1].id, "B-fail");
    engine_jobs_list_free(list, n);

    fake_ungate();
    assert_true(engine_job_wait(e, a, 10) && engine_job_wait(e, b, 10) &&
                engine_job_wait(e, d, 10));
    n = engine_jobs_list(e, ENGINE_FAILED, 0, 10, &list, &matched);
    assert_int_equal(n, 1);
    assert_string_equal(list[0].id, "B-fail");
    assert_non_null(list[0].error);
    assert_non_null(strstr(list[0].error, "does not satisfy"));
    engine_jobs_list_free(list, n);
    n = engine_jobs_list(e, ENGINE_RUNNING, 0, 10, &list, &matched);
    assert_int_equal(n, 0);
    assert_null(list);

    /* A started once (two partitions), then B and D; C never ran */
    assert_int_equal(__atomic_load_n(&started_calls, __ATOMIC_SEQ_CST), 3);
    assert_string_equal(started_order[0], "A");
    assert_string_equal(started_order[1], "B-fail");
    assert_string_equal(started_order[2], "D");
    engine_job_unref(e, a);
    engine_job_unref(e, b);
    engine_job_unref(e, c);
    engine_job_unref(e, d);
    engine_free(e);
}

static void test_hooks_restore_prune(void **state)
{
    (void)state;
    fake_reset(false);
    engine_hooks_t hooks = {&hook_log, hook_part, hook_end, hook_event, NULL};
    memset(&hook_log, 0, sizeof hook_log);
    engine_t *e = new_engine(1, 0, 0, &hooks);
    hook_log.e = e;
    load_key(e, "k", "/k");
    engine_job_t *j = submit(e, "H", ENGINE_PRIORITY_NORMAL, 2);
    assert_true(engine_job_wait(e, j, 10));
    assert_int_equal(hook_log.parts, 2);
    assert_int_equal(hook_log.ends, 1);
    assert_int_equal(hook_log.last, ENGINE_DONE);
    assert_false(hook_log.visible_early);
    assert_int_equal(__atomic_load_n(&hook_log.msm_events, __ATOMIC_SEQ_CST), 2);
    engine_job_unref(e, j);

    /* a result the hook cannot record is never shown: the job fails, naming
     * the partition and the hook's reason */
    hook_log.refuse_after = 3;
    j = submit(e, "R", ENGINE_PRIORITY_NORMAL, 3);
    assert_true(engine_job_wait(e, j, 10));
    engine_job_info_t failed;
    assert_int_equal(engine_job_info(e, j, &failed), ENGINE_OK);
    assert_int_equal(failed.state, ENGINE_FAILED);
    assert_non_null(strstr(failed.error, "its result was not recorded: no space (a test)"));
    assert_int_equal(failed.partitions[0].state, ENGINE_DONE);
    assert_int_not_equal(failed.partitions[1].state, ENGINE_DONE);
    assert_null(failed.partitions[1].result);
    engine_job_info_free(&failed);
    assert_int_equal(hook_log.last, ENGINE_FAILED);
    engine_job_unref(e, j);
    hook_log.refuse_after = 0;

    /* an ended job comes back for lookup only, with its results */
    engine_result_t r0 = {.proof_json = strdup("old proof"), .public_json = strdup("[]")};
    engine_result_t *res[2] = {&r0, NULL};
    engine_input_t in[2] = {{.kind = ENGINE_INPUT_WTNS_PATH, .path = "r.0"},
                            {.kind = ENGINE_INPUT_WTNS_PATH, .path = "r.1"}};
    engine_job_spec_t spec = {.id = "old",
                              .key = "gone",
                              .priority = ENGINE_PRIORITY_LOW,
                              .n_inputs = 2,
                              .inputs = in,
                              .seq = 100,
                              .submitted_at = 5};
    engine_job_t *old;
    assert_int_equal(
        engine_job_restore(e, &spec, ENGINE_FAILED, "partition 1: broke", 6, res, &old), ENGINE_OK);
    assert_null(r0.proof_json);
    engine_job_start(e, old);
    engine_job_info_t info;
    assert_int_equal(engine_job_info(e, old, &info), ENGINE_OK);
    assert_int_equal(info.state, ENGINE_FAILED);
    assert_string_equal(info.error, "partition 1: broke");
    assert_string_equal(info.partitions[0].result->proof_json, "old proof");
    assert_int_equal(info.partitions[1].state, ENGINE_CANCELLED);
    assert_true(info.submitted_at == 5 && info.finished_at == 6);
    engine_job_info_free(&info);
    assert_int_equal(engine_job_seq(old), 100);
    engine_job_unref(e, old);

    /* a live job resumes with the partitions it still lacks */
    engine_result_t r1 = {.proof_json = strdup("kept"), .public_json = strdup("[]")};
    res[0] = &r1;
    spec.id = "resume";
    spec.key = "k";
    spec.seq = 50;
    engine_job_t *resumed;
    assert_int_equal(engine_job_restore(e, &spec, ENGINE_QUEUED, NULL, 0, res, &resumed),
                     ENGINE_OK);
    fake_reset(false);
    engine_job_start(e, resumed);
    assert_true(engine_job_wait(e, resumed, 10));
    static const char *const want[] = {"r.1"};
    expect_log(want, 1);
    assert_int_equal(engine_job_info(e, resumed, &info), ENGINE_OK);
    assert_int_equal(info.state, ENGINE_DONE);
    assert_string_equal(info.partitions[0].result->proof_json, "kept");
    assert_string_equal(info.partitions[1].result->proof_json, "r.1");
    engine_job_info_free(&info);
    engine_job_unref(e, resumed);
    /* a new job arrives after the restored sequence numbers */
    engine_job_t *next = submit(e, "next", ENGINE_PRIORITY_NORMAL, 1);
    assert_true(engine_job_seq(next) > 100);
    assert_true(engine_job_wait(e, next, 10));
    engine_job_unref(e, next);

    /* all done from the journal: ends at start */
    engine_result_t r2 = {.proof_json = strdup("a"), .public_json = strdup("[]")},
                    r3 = {.proof_json = strdup("b"), .public_json = strdup("[]")};
    engine_result_t *all[2] = {&r2, &r3};
    spec.id = "complete";
    spec.seq = 0;
    engine_job_t *complete;
    assert_int_equal(engine_job_restore(e, &spec, ENGINE_QUEUED, NULL, 0, all, &complete),
                     ENGINE_OK);
    engine_job_start(e, complete);
    assert_true(engine_job_wait(e, complete, 0));
    assert_int_equal(state_of(e, complete), ENGINE_DONE);
    engine_job_unref(e, complete);

    /* journaled as done but a result is missing: it resumes */
    engine_result_t r4 = {.proof_json = strdup("c"), .public_json = strdup("[]")};
    engine_result_t *half[2] = {&r4, NULL};
    spec.id = "half";
    engine_job_t *half_job;
    assert_int_equal(engine_job_restore(e, &spec, ENGINE_DONE, NULL, 7, half, &half_job),
                     ENGINE_OK);
    fake_reset(false);
    engine_job_start(e, half_job);
    assert_true(engine_job_wait(e, half_job, 10));
    expect_log(want, 1);
    assert_int_equal(engine_job_info(e, half_job, &info), ENGINE_OK);
    assert_int_equal(info.state, ENGINE_DONE);
    assert_non_null(info.partitions[1].result);
    engine_job_info_free(&info);
    engine_job_unref(e, half_job);

    /* prune keeps the newest ended jobs: H, R, old, resume, next, complete, half */
    engine_counters_t c;
    engine_counters(e, &c);
    assert_int_equal(c.jobs_ended_kept, 7);
    assert_int_equal(engine_jobs_prune(e, 2, NULL, NULL), 5);
    engine_job_t *f = engine_job_find(e, "H");
    assert_null(f);
    f = engine_job_find(e, "half");
    assert_non_null(f);
    engine_job_unref(e, f);
    engine_free(e);
}

/* engine_job_forget: refused while the job runs, then the id is free again
 * (a new job may take it) and the caller's reference still reads the job;
 * the key's listing names the partition's working set. */
static void test_forget(void **state)
{
    (void)state;
    fake_reset(true);
    fake.partition_bytes = 4321;
    engine_t *e = new_engine(1, 0, 0, NULL);
    load_key(e, "k", "/keys/k.zkey");
    engine_key_info_t *keys;
    size_t nk = engine_keys_info(e, &keys);
    assert_int_equal(nk, 1);
    assert_int_equal(keys[0].partition_bytes, 4321);
    engine_keys_info_free(keys, nk);
    engine_job_t *job = submit(e, "lease-1", ENGINE_PRIORITY_NORMAL, 1);
    fake_wait_waiting(1);
    assert_int_equal(engine_job_forget(e, job), ENGINE_EBUSY); /* running */
    assert_int_equal(engine_job_cancel(e, job), ENGINE_OK);
    assert_int_equal(engine_job_forget(e, job), ENGINE_EBUSY); /* its partition still runs */
    fake_ungate();
    engine_job_t *next = submit(e, "next", ENGINE_PRIORITY_NORMAL, 1);
    assert_true(engine_job_wait(e, next, 10));
    assert_int_equal(engine_job_forget(e, job), ENGINE_OK);
    assert_null(engine_job_find(e, "lease-1"));
    assert_int_equal(state_of(e, job), ENGINE_CANCELLED);
    engine_counters_t c;
    engine_counters(e, &c);
    assert_int_equal(c.jobs_ended_kept, 1); /* next */
    engine_job_unref(e, job);
    engine_job_t *again = submit(e, "lease-1", ENGINE_PRIORITY_NORMAL, 1);
    assert_true(engine_job_wait(e, again, 10));
    assert_int_equal(state_of(e, again), ENGINE_DONE);
    engine_job_unref(e, again);
    engine_job_unref(e, next);
    engine_free(e);
}

/* ---- the timeline ------------------------------------------------------------------- */

static void test_timeline(void **state)
{
    (void)state;
    engine_timeline_t *tl = engine_timeline_new(4);
    assert_non_null(tl);
    for (int i = 0; i < 6; i++) {
        engine_event_t ev = {.partition = (uint32_t)i,
                             .worker = i % 2,
                             .stage = (engine_stage_t)(i % ENGINE_STAGES),
                             .start = 10 + i,
                             .end = 10.5 + i,
                             .bytes = 1u + (unsigned)i};
        snprintf(ev.job, sizeof ev.job, "job\"%d", i); /* a quote: escaped in the JSON */
        engine_timeline_record(tl, &ev);
    }
    engine_event_t out[8];
    uint64_t total;
    assert_int_equal(engine_timeline_copy(tl, out, 8, &total), 4);
    assert_int_equal(total, 6);
    assert_int_equal(out[0].partition, 2);
    assert_int_equal(out[3].partition, 5);
    char *text;
    assert_int_equal(engine_timeline_chrome_json(tl, 10, &text), CUZK_OK);
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    assert_non_null(root);
    free(text);
    json_t *events = json_object_get(root, "traceEvents");
    assert_true(json_is_array(events));
    size_t complete = 0;
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *ev = json_array_get(events, i);
        if (strcmp(json_string_value(json_object_get(ev, "ph")), "X") != 0)
            continue;
        complete++;
        if (json_integer_value(json_object_get(json_object_get(ev, "args"), "partition")) == 2) {
            assert_string_equal(json_string_value(json_object_get(ev, "name")), "h");
            assert_true(json_real_value(json_object_get(ev, "ts")) == 2e6);
            assert_true(json_real_value(json_object_get(ev, "dur")) == 0.5e6);
            assert_int_equal(json_integer_value(json_object_get(ev, "tid")), 1);
            assert_string_equal(
                json_string_value(json_object_get(json_object_get(ev, "args"), "job")), "job\"2");
        }
    }
    assert_int_equal(complete, 4);
    json_t *other = json_object_get(root, "otherData");
    assert_int_equal(json_integer_value(json_object_get(other, "events_recorded")), 6);
    assert_true(json_real_value(json_object_get(other, "window_seconds")) == 3.5);
    /* the four kept events are partitions 2..5, stages h, msm, finish, verify */
    json_t *sb = json_object_get(other, "stage_bytes");
    assert_int_equal(json_integer_value(json_object_get(sb, "h")), 3);
    assert_int_equal(json_integer_value(json_object_get(sb, "verify")), 6);
    assert_int_equal(json_integer_value(json_object_get(sb, "read")), 0);
    json_decref(root);
    engine_timeline_free(tl);
}

/* The engine's own events: stages of partitions and key loads. */
static void test_engine_timeline(void **state)
{
    (void)state;
    fake_reset(false);
    engine_t *e = new_engine(1, 0, 0, NULL);
    load_key(e, "k", "/k");
    engine_job_t *j = submit(e, "T", ENGINE_PRIORITY_NORMAL, 2);
    assert_true(engine_job_wait(e, j, 10));
    engine_job_unref(e, j);
    engine_event_t ev[16];
    size_t n = engine_timeline_copy(engine_timeline(e), ev, 16, NULL);
    assert_int_equal(n, 5); /* load + 2 stages x 2 partitions */
    assert_int_equal(ev[0].stage, ENGINE_STAGE_LOAD);
    assert_int_equal(ev[0].worker, ENGINE_TIMELINE_LOADER);
    assert_string_equal(ev[0].job, "k");
    assert_int_equal(ev[1].stage, ENGINE_STAGE_READ);
    assert_int_equal(ev[1].bytes, 7);
    assert_string_equal(ev[4].job, "T");
    assert_int_equal(ev[4].partition, 1);
    assert_true(ev[4].start >= engine_started(e));
    engine_free(e);
}

/* ---- real proofs: the CPU backend ---------------------------------------------------- */

typedef struct {
    char dir[64];
    char zkey[96], wtns[96], bad_wtns[96], short_wtns[96], params_path[96], asgn[96];
    zkey_t key;         /* read back, for the verifier */
    bp_params_t params; /* the .params as set up, for the verifier */
    unsigned char *wtns_bytes;
    size_t wtns_len;
} cpu_files_t;

static cuzk_status_t read_all(const char *path, unsigned char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return CUZK_EIO;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *out = malloc(n > 0 ? (size_t)n : 1);
    *len = *out ? fread(*out, 1, (size_t)n, f) : 0;
    fclose(f);
    return *out && *len == (size_t)n ? CUZK_OK : CUZK_EIO;
}

/* A BN254 circuit with its key and witnesses (good, unsatisfied, truncated)
 * and a BLS12-381 circuit with .params and an assignment, in a temp dir. */
static void cpu_files_make(cpu_files_t *f)
{
    char err[IO_ERR_MAX];
    snprintf(f->dir, sizeof f->dir, "/tmp/cuzk_test_engine_XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->zkey, sizeof f->zkey, "%s/k.zkey", f->dir);
    snprintf(f->wtns, sizeof f->wtns, "%s/w.wtns", f->dir);
    snprintf(f->bad_wtns, sizeof f->bad_wtns, "%s/bad.wtns", f->dir);
    snprintf(f->short_wtns, sizeof f->short_wtns, "%s/short.wtns", f->dir);
    snprintf(f->params_path, sizeof f->params_path, "%s/k.params", f->dir);
    snprintf(f->asgn, sizeof f->asgn, "%s/a.asgn", f->dir);

    r1cs_gen_params_t gp = r1cs_gen_porep32(40);
    gp.n_public = 2;
    r1cs_t r;
    r1cs_witness_t w;
    assert_int_equal(r1cs_generate(&r, &w, R1CS_CURVE_BN254, &gp, &test_rng), CUZK_OK);
    zkey_t dev;
    assert_int_equal(groth16_dev_setup(&dev, &r, &test_rng, NULL), CUZK_OK);
    assert_int_equal(zkey_file_write(f->zkey, &dev, NULL, err, sizeof err), CUZK_OK);
    groth16_dev_key_free(&dev);
    assert_int_equal(zkey_file_read(&f->key, f->zkey, NULL, 0, err, sizeof err), CUZK_OK);
    assert_int_equal(wtns_file_write(f->wtns, &w, err, sizeof err), CUZK_OK);
    assert_int_equal(read_all(f->wtns, &f->wtns_bytes, &f->wtns_len), CUZK_OK);
    FILE *s = fopen(f->short_wtns, "wb");
    assert_non_null(s);
    fwrite(f->wtns_bytes, 1, f->wtns_len / 2, s);
    fclose(s);
    /* A private wire changed by one breaks a row, unless no row uses it: the
     * last wire of the generated circuit may be such a one, so walk down
     * until the witness really fails. */
    for (uint32_t i = w.n - 1; i > gp.n_public; i--) {
        bn254_fr_add(&w.v.bn254[i], &w.v.bn254[i], &bn254_fr_ONE);
        if (r1cs_check(NULL, &r, &w, NULL) == CUZK_EWITNESS)
            break;
        bn254_fr_sub(&w.v.bn254[i], &w.v.bn254[i], &bn254_fr_ONE);
    }
    assert_int_equal(r1cs_check(NULL, &r, &w, NULL), CUZK_EWITNESS);
    assert_int_equal(wtns_file_write(f->bad_wtns, &w, err, sizeof err), CUZK_OK);
    r1cs_witness_free(&w);
    r1cs_free(&r);

    assert_int_equal(r1cs_generate(&r, &w, R1CS_CURVE_BLS12_381, &gp, &test_rng), CUZK_OK);
    asgn_t a;
    void *mem = NULL;
    assert_int_equal(groth16_bp_dev_setup(&f->params, &r, &test_rng, NULL), CUZK_OK);
    assert_int_equal(bp_params_write(f->params_path, &f->params, err, sizeof err), CUZK_OK);
    assert_int_equal(groth16_bp_assign(&a, &mem, &r, &w, NULL), CUZK_OK);
    assert_int_equal(asgn_file_write(f->asgn, &a, err, sizeof err), CUZK_OK);
    free(mem);
    r1cs_witness_free(&w);
    r1cs_free(&r);
}

static void cpu_files_free(cpu_files_t *f)
{
    const char *paths[] = {f->zkey, f->wtns, f->bad_wtns, f->short_wtns, f->params_path, f->asgn};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        unlink(paths[i]);
    rmdir(f->dir);
    zkey_free(&f->key);
    bp_params_free(&f->params);
    free(f->wtns_bytes);
}

/* Whether the snarkjs texts of a partition verify under f's zkey. */
static bool zkey_result_verifies(const cpu_files_t *f, const engine_result_t *r)
{
    char err[IO_ERR_MAX];
    snarkjs_proof_t proof;
    r1cs_witness_t pub = {0};
    assert_int_equal(snarkjs_proof_parse(&proof, r->proof_json, strlen(r->proof_json), "proof",
                                         R1CS_CURVE_BN254, err, sizeof err),
                     CUZK_OK);
    assert_int_equal(snarkjs_public_parse(&pub, r->public_json, strlen(r->public_json), "public",
                                          R1CS_CURVE_BN254, 2, err, sizeof err),
                     CUZK_OK);
    groth16_key_t key = zkey_groth16_key(&f->key);
    groth16_vk_t vk = groth16_key_vk(&key);
    bool valid = false;
    assert_int_equal(groth16_verify(&valid, &vk, &pub, &proof, NULL, err, sizeof err), CUZK_OK);
    r1cs_witness_free(&pub);
    return valid;
}

static bool params_result_verifies(const cpu_files_t *f, const engine_result_t *r)
{
    char err[IO_ERR_MAX];
    bp_proof_t proof;
    r1cs_witness_t pub = {0};
    assert_int_equal(r->proof_len, BP_PROOF_BYTES);
    assert_int_equal(bp_proof_decode(&proof, r->proof_bytes, "proof", 0, err, sizeof err), CUZK_OK);
    assert_int_equal(snarkjs_public_parse(&pub, r->public_json, strlen(r->public_json), "inputs",
                                          R1CS_CURVE_BLS12_381, f->params.vk.n_ic - 1, err,
                                          sizeof err),
                     CUZK_OK);
    bool valid = false;
    assert_int_equal(groth16_bp_verify(&valid, &f->params.vk, pub.v.bls381, &proof, 1, NULL, NULL,
                                       err, sizeof err),
                     CUZK_OK);
    r1cs_witness_free(&pub);
    return valid;
}

/* An engine of `workers` workers on two threads over a new CPU backend;
 * *cpu and *be must outlive it (the caller frees cpu after the engine). */
static engine_t *cpu_engine_new(engine_cpu_t **cpu, engine_backend_t *be, unsigned workers)
{
    cuzk_status_t st;
    engine_cpu_options_t opt = {1, false};
    *cpu = engine_cpu_new(&opt, &st);
    assert_non_null(*cpu);
    *be = engine_cpu_backend(*cpu);
    engine_config_t cfg = {.backend = be, .workers = workers, .threads = 2};
    engine_t *e = engine_new(&cfg, &st);
    assert_non_null(e);
    return e;
}

static void test_cpu_backend(void **state)
{
    (void)state;
    cpu_files_t f;
    memset(&f, 0, sizeof f);
    cpu_files_make(&f);
    cuzk_status_t st;
    engine_cpu_t *cpu;
    engine_backend_t be;
    engine_t *e = cpu_engine_new(&cpu, &be, 2);
    char err[IO_ERR_MAX];
    assert_int_equal(engine_key_load(e, "bn", KEY_FORMAT_ZKEY, f.zkey, NULL, NULL, err, sizeof err),
                     ENGINE_OK);
    assert_int_equal(
        engine_key_load(e, "bp", KEY_FORMAT_PARAMS, f.params_path, NULL, NULL, err, sizeof err),
        ENGINE_OK);
    assert_int_equal(engine_key_load(e, "bad", KEY_FORMAT_ZKEY, f.wtns, NULL, &st, err, sizeof err),
                     ENGINE_ELOAD);
    assert_non_null(strstr(err, f.wtns));

    /* zkey: the same witness by path and by bytes, in one job of two
     * partitions; params with an assignment; and three that must fail */
    engine_input_t two[2] = {
        {.kind = ENGINE_INPUT_WTNS_PATH, .path = f.wtns},
        {.kind = ENGINE_INPUT_WTNS_BYTES, .bytes = f.wtns_bytes, .len = f.wtns_len}};
    engine_input_t asgn = {.kind = ENGINE_INPUT_ASGN_PATH, .path = f.asgn};
    engine_input_t bad = {.kind = ENGINE_INPUT_WTNS_PATH, .path = f.bad_wtns};
    engine_input_t trunc = {.kind = ENGINE_INPUT_WTNS_PATH, .path = f.short_wtns};
    engine_input_t missing = {.kind = ENGINE_INPUT_WTNS_PATH, .path = "/nonexistent/w.wtns"};
    engine_job_spec_t specs[5] = {
        {.key = "bn", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 2, .inputs = two},
        {.key = "bp", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &asgn},
        {.key = "bn", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &bad},
        {.key = "bn", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &trunc},
        {.key = "bn", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &missing},
    };
    engine_job_t *jobs[5];
    for (int i = 0; i < 5; i++) {
        assert_int_equal(engine_job_submit(e, &specs[i], &jobs[i]), ENGINE_OK);
        engine_job_start(e, jobs[i]);
    }
    for (int i = 0; i < 5; i++)
        assert_true(engine_job_wait(e, jobs[i], 60));
    engine_job_info_t info;
    assert_int_equal(engine_job_info(e, jobs[0], &info), ENGINE_OK);
    assert_int_equal(info.state, ENGINE_DONE);
    for (int i = 0; i < 2; i++) {
        assert_true(zkey_result_verifies(&f, info.partitions[i].result));
        assert_true(info.partitions[i].seconds[ENGINE_STAGE_MSM] > 0);
        assert_true(info.partitions[i].seconds[ENGINE_STAGE_VERIFY] > 0);
    }
    /* two proofs of one witness share the public signals, not the proof */
    assert_string_equal(info.partitions[0].result->public_json,
                        info.partitions[1].result->public_json);
    assert_string_not_equal(info.partitions[0].result->proof_json,
                            info.partitions[1].result->proof_json);
    engine_job_info_free(&info);
    assert_int_equal(engine_job_info(e, jobs[1], &info), ENGINE_OK);
    assert_int_equal(info.state, ENGINE_DONE);
    assert_true(params_result_verifies(&f, info.partitions[0].result));
    engine_job_info_free(&info);
    static const char *const why[3] = {"does not satisfy", "short.wtns", "/nonexistent/w.wtns"};
    for (int i = 2; i < 5; i++) {
        assert_int_equal(engine_job_info(e, jobs[i], &info), ENGINE_OK);
        assert_int_equal(info.state, ENGINE_FAILED);
        if (!strstr(info.error, why[i - 2]))
            fail_msg("job %d: '%s' does not mention '%s'", i, info.error, why[i - 2]);
        engine_job_info_free(&info);
    }
    engine_counters_t c;
    engine_counters(e, &c);
    assert_int_equal(c.key_loads, 2); /* never reloaded */
    assert_int_equal(c.partitions_done, 3);
    assert_int_equal(c.jobs_failed, 3);
    for (int i = 0; i < 5; i++)
        engine_job_unref(e, jobs[i]);
    engine_free(e);
    engine_cpu_free(cpu);
    cpu_files_free(&f);
}

/* An assignment held in memory (ENGINE_INPUT_ASGN_MEM; here the .asgn's
 * bytes in a malloc'd buffer, parsed in place) proves as the file does: in
 * one job with the file, the proofs verify and name the same inputs; the
 * values are the memory's (a changed row fails the self-verification);
 * a zkey refuses such an input, and one without its assignment is
 * invalid. */
static void test_cpu_backend_asgn_mem(void **state)
{
    (void)state;
    cpu_files_t f;
    memset(&f, 0, sizeof f);
    cpu_files_make(&f);
    char err[IO_ERR_MAX];
    asgn_t file, mem, bad;
    assert_int_equal(asgn_file_read(&file, f.asgn, NULL, err, sizeof err), CUZK_OK);
    size_t len = file.map.size;
    unsigned char *bytes = malloc(len), *changed = malloc(len);
    assert_true(bytes && changed);
    memcpy(bytes, file.map.data, len);
    memcpy(changed, file.map.data, len);
    asgn_free(&file);
    assert_int_equal(asgn_file_parse(&mem, bytes, len, "the assignment", NULL, err, sizeof err),
                     CUZK_OK);
    assert_int_equal(asgn_file_parse(&bad, changed, len, "the changed one", NULL, err, sizeof err),
                     CUZK_OK);
    /* a's first row: 0 if it was not, else 1 (both below r) */
    uint64_t row[4];
    memcpy(row, bad.a[0], sizeof row);
    bool zero = (row[0] | row[1] | row[2] | row[3]) == 0;
    memset(row, 0, sizeof row);
    row[0] = zero;
    memcpy(changed + ((const unsigned char *)bad.a[0] - changed), row, sizeof row);

    engine_cpu_t *cpu;
    engine_backend_t be;
    engine_t *e = cpu_engine_new(&cpu, &be, 2);
    assert_int_equal(engine_key_load(e, "bn", KEY_FORMAT_ZKEY, f.zkey, NULL, NULL, err, sizeof err),
                     ENGINE_OK);
    assert_int_equal(
        engine_key_load(e, "bp", KEY_FORMAT_PARAMS, f.params_path, NULL, NULL, err, sizeof err),
        ENGINE_OK);
    engine_input_t three[3] = {{.kind = ENGINE_INPUT_ASGN_MEM, .asgn = &mem},
                               {.kind = ENGINE_INPUT_ASGN_PATH, .path = f.asgn},
                               {.kind = ENGINE_INPUT_ASGN_MEM, .asgn = &mem}};
    engine_input_t wrong = {.kind = ENGINE_INPUT_ASGN_MEM, .asgn = &bad};
    engine_input_t none = {.kind = ENGINE_INPUT_ASGN_MEM};
    engine_job_spec_t good = {
        .key = "bp", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 3, .inputs = three};
    engine_job_spec_t fails = {
        .key = "bp", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &wrong};
    engine_job_t *jg, *jf, *no = NULL;
    assert_int_equal(engine_job_submit(e, &good, &jg), ENGINE_OK);
    assert_int_equal(engine_job_format(jg), KEY_FORMAT_PARAMS);
    assert_ptr_equal(engine_job_input(jg, 0)->asgn, &mem); /* borrowed, not copied */
    assert_int_equal(engine_job_submit(e, &fails, &jf), ENGINE_OK);
    engine_job_start(e, jg);
    engine_job_start(e, jf);
    fails.key = "bn";
    assert_int_equal(engine_job_submit(e, &fails, &no), ENGINE_EMISMATCH);
    assert_null(no);
    fails.key = "bp";
    fails.inputs = &none;
    assert_int_equal(engine_job_submit(e, &fails, &no), ENGINE_EINVAL);
    assert_null(no);
    assert_true(engine_job_wait(e, jg, 60));
    assert_true(engine_job_wait(e, jf, 60));

    engine_job_info_t info;
    assert_int_equal(engine_job_info(e, jg, &info), ENGINE_OK);
    if (info.state != ENGINE_DONE)
        fail_msg("assignments in memory: %s: %s", engine_state_name(info.state), info.error);
    for (int i = 0; i < 3; i++) {
        assert_true(params_result_verifies(&f, info.partitions[i].result));
        assert_string_equal(info.partitions[i].result->public_json,
                            info.partitions[1].result->public_json);
    }
    engine_job_info_free(&info);
    assert_int_equal(engine_job_info(e, jf, &info), ENGINE_OK);
    assert_int_equal(info.state, ENGINE_FAILED);
    if (!strstr(info.error, "does not satisfy"))
        fail_msg("the changed assignment: '%s'", info.error);
    engine_job_info_free(&info);
    /* nothing was read for the assignments in memory: the timeline's read
     * events carry the file's bytes only */
    engine_event_t ev[64];
    uint64_t total = 0, read_bytes = 0;
    size_t n = engine_timeline_copy(engine_timeline(e), ev, 64, &total), reads = 0;
    assert_int_equal(n, total);
    for (size_t i = 0; i < n; i++)
        if (ev[i].stage == ENGINE_STAGE_READ) {
            reads++;
            read_bytes += ev[i].bytes;
        }
    assert_int_equal(reads, 4);
    assert_int_equal(read_bytes, len);
    engine_job_unref(e, jg);
    engine_job_unref(e, jf);
    engine_free(e);
    engine_cpu_free(cpu);
    asgn_free(&mem);
    asgn_free(&bad);
    free(bytes);
    free(changed);
    cpu_files_free(&f);
}

/* Blinding scalars given with the input (engine_input_t's blind_r,
 * blind_s) make the proof: two partitions given the same pair give the
 * same bytes and the same points in the result, which also carries the
 * proof itself; another s gives another proof, and every one verifies;
 * half a pair is refused at submission. */
static void test_given_blinding(void **state)
{
    (void)state;
    cpu_files_t f;
    memset(&f, 0, sizeof f);
    cpu_files_make(&f);
    char err[IO_ERR_MAX];
    asgn_t mem;
    assert_int_equal(asgn_file_read(&mem, f.asgn, NULL, err, sizeof err), CUZK_OK);
    bls381_fr_t r, s, s2;
    assert_int_equal(bls381_fr_random(&r, &test_rng), CUZK_OK);
    assert_int_equal(bls381_fr_random(&s, &test_rng), CUZK_OK);
    assert_int_equal(bls381_fr_random(&s2, &test_rng), CUZK_OK);

    engine_cpu_t *cpu;
    engine_backend_t be;
    engine_t *e = cpu_engine_new(&cpu, &be, 2);
    assert_int_equal(
        engine_key_load(e, "bp", KEY_FORMAT_PARAMS, f.params_path, NULL, NULL, err, sizeof err),
        ENGINE_OK);
    engine_input_t in[3] = {
        {.kind = ENGINE_INPUT_ASGN_MEM, .asgn = &mem, .blind_r = r.l, .blind_s = s.l},
        {.kind = ENGINE_INPUT_ASGN_PATH, .path = f.asgn, .blind_r = r.l, .blind_s = s.l},
        {.kind = ENGINE_INPUT_ASGN_MEM, .asgn = &mem, .blind_r = r.l, .blind_s = s2.l}};
    engine_job_spec_t spec = {
        .key = "bp", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 3, .inputs = in};
    engine_job_t *job, *no = NULL;
    assert_int_equal(engine_job_submit(e, &spec, &job), ENGINE_OK);
    engine_job_start(e, job);
    engine_input_t half = {.kind = ENGINE_INPUT_ASGN_MEM, .asgn = &mem, .blind_r = r.l};
    engine_job_spec_t bad = {
        .key = "bp", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &half};
    assert_int_equal(engine_job_submit(e, &bad, &no), ENGINE_EINVAL);
    assert_null(no);
    assert_true(engine_job_wait(e, job, 60));

    engine_job_info_t info;
    assert_int_equal(engine_job_info(e, job, &info), ENGINE_OK);
    if (info.state != ENGINE_DONE)
        fail_msg("given blinding: %s: %s", engine_state_name(info.state), info.error);
    const engine_result_t *p0 = info.partitions[0].result, *p1 = info.partitions[1].result,
                          *p2 = info.partitions[2].result;
    for (int i = 0; i < 3; i++) {
        assert_true(params_result_verifies(&f, info.partitions[i].result));
        assert_int_equal(info.partitions[i].result->proof.curve, R1CS_CURVE_BLS12_381);
    }
    assert_int_equal(p0->proof_len, p1->proof_len);
    assert_memory_equal(p0->proof_bytes, p1->proof_bytes, p0->proof_len);
    assert_memory_equal(&p0->proof, &p1->proof, sizeof p0->proof);
    assert_memory_not_equal(p0->proof_bytes, p2->proof_bytes, p0->proof_len);
    /* A is r's alone: the same in the proof with the other s */
    assert_memory_equal(&p0->proof.u.bls381.a, &p2->proof.u.bls381.a, sizeof p0->proof.u.bls381.a);
    engine_job_info_free(&info);
    engine_job_unref(e, job);
    engine_free(e);
    engine_cpu_free(cpu);
    asgn_free(&mem);
    cpu_files_free(&f);
}

/* The .params at path with its query arrays dropped: the verifying key
 * and the counts alone, as a development key made on a device has them. */
static void params_without_points(bp_params_t *q, const char *path)
{
    char err[IO_ERR_MAX];
    assert_int_equal(bp_params_read(q, path, NULL, 0, err, sizeof err), CUZK_OK);
    free(q->mem);
    q->mem = NULL;
    q->a = q->b_g1 = q->l = q->h = NULL;
    q->b_g2 = NULL;
}

/* The Groth16 view of the CPU backend's keys (key_file_t, engine_cpu.h),
 * which the CUDA backend places on its devices: a zkey's is the snarkjs
 * convention over the loaded copy's counts and points, a .params' the
 * bellperson one, and a key made from params without host points keeps
 * the counts with no points behind them. */
static void expect_view(const groth16_key_t *got, const groth16_key_t *want)
{
    assert_int_equal(got->curve, want->curve);
    assert_memory_equal(&got->conv, &want->conv, sizeof got->conv);
    assert_int_equal(got->n_public, want->n_public);
    assert_int_equal(got->n_vars, want->n_vars);
    assert_int_equal(got->domain_size, want->domain_size);
    assert_int_equal(got->n_coeffs, want->n_coeffs);
    const groth16_points_t *g[6] = {&got->ic, &got->a, &got->b1, &got->b2, &got->l, &got->h};
    const groth16_points_t *w[6] = {&want->ic, &want->a, &want->b1, &want->b2, &want->l, &want->h};
    for (int i = 0; i < 6; i++)
        assert_int_equal(g[i]->count, w[i]->count);
}

static const groth16_key_t *cpu_key_view(const void *key)
{
    return &((const key_file_t *)key)->key;
}

static void test_cpu_key_groth16(void **state)
{
    (void)state;
    cpu_files_t f;
    memset(&f, 0, sizeof f);
    cpu_files_make(&f);
    char err[IO_ERR_MAX];
    cuzk_status_t st;
    engine_cpu_options_t opt = {1, false};
    engine_cpu_t *cpu = engine_cpu_new(&opt, &st);
    assert_non_null(cpu);
    engine_backend_t be = engine_cpu_backend(cpu);
    void *key;
    uint64_t bytes;

    assert_int_equal(be.key_load(be.ctx, KEY_FORMAT_ZKEY, f.zkey, &key, &bytes, err, sizeof err),
                     CUZK_OK);
    const groth16_key_t *v = cpu_key_view(key);
    groth16_key_t want = zkey_groth16_key(&f.key);
    expect_view(v, &want);
    assert_int_equal(v->conv.synth, GROTH16_SYNTH_COEFFS);
    assert_true(v->n_coeffs > 0 && v->coeffs != NULL);
    assert_memory_equal(v->coeffs, f.key.coeffs, (size_t)v->n_coeffs * GROTH16_COEFF_BYTES);
    assert_non_null(v->a.data);
    assert_memory_equal(v->h.data, want.h.data, want.h.count * sizeof(bn254_g1_affine_t));
    be.key_free(be.ctx, key);

    assert_int_equal(
        be.key_load(be.ctx, KEY_FORMAT_PARAMS, f.params_path, &key, &bytes, err, sizeof err),
        CUZK_OK);
    v = cpu_key_view(key);
    want = bp_params_groth16_key(&f.params);
    expect_view(v, &want);
    assert_int_equal(v->conv.synth, GROTH16_SYNTH_GIVEN);
    assert_memory_equal(v->l.data, want.l.data, want.l.count * sizeof(bls381_g1_affine_t));
    be.key_free(be.ctx, key);

    bp_params_t q;
    params_without_points(&q, f.params_path);
    assert_int_equal(engine_cpu_key_from_params(&key, &bytes, &q), CUZK_OK);
    v = cpu_key_view(key);
    expect_view(v, &want);
    assert_null(v->a.data);
    assert_null(v->h.data);
    be.key_free(be.ctx, key);

    engine_cpu_free(cpu);
    cpu_files_free(&f);
}

/* Keys built outside key_load (engine_key_add): a params key handed over
 * in memory proves; a taken name or a bad one is refused (the key freed);
 * a key without host points (as made on a device) is refused by the CPU
 * with a message, not run. */
static void test_key_add(void **state)
{
    (void)state;
    cpu_files_t f;
    memset(&f, 0, sizeof f);
    cpu_files_make(&f);
    char err[IO_ERR_MAX];
    engine_cpu_t *cpu;
    engine_backend_t be;
    engine_t *e = cpu_engine_new(&cpu, &be, 1);
    bp_params_t p, q;
    void *key;
    uint64_t bytes;
    assert_int_equal(bp_params_read(&p, f.params_path, NULL, 0, err, sizeof err), CUZK_OK);
    assert_int_equal(engine_cpu_key_from_params(&key, &bytes, &p), CUZK_OK);
    assert_null(p.a); /* moved */
    assert_true(key_file_has_points(key));
    assert_true(bytes > 0);
    assert_int_equal(
        engine_key_add(e, "added", KEY_FORMAT_PARAMS, "in memory", key, bytes, err, sizeof err),
        ENGINE_OK);
    /* the name is taken; a bad name; a bad format: refused, the key freed */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(bp_params_read(&q, f.params_path, NULL, 0, err, sizeof err), CUZK_OK);
        assert_int_equal(engine_cpu_key_from_params(&key, &bytes, &q), CUZK_OK);
        static const char *const names[] = {"added", "bad name!", "other"};
        key_format_t fmt = i == 2 ? KEY_FORMAT_CACHE : KEY_FORMAT_PARAMS;
        assert_int_equal(engine_key_add(e, names[i], fmt, "in memory", key, bytes, err, sizeof err),
                         i == 0 ? ENGINE_EEXIST : ENGINE_EINVAL);
    }
    /* without host points: only the verifying key and the counts */
    params_without_points(&q, f.params_path);
    assert_int_equal(engine_cpu_key_from_params(&key, &bytes, &q), CUZK_OK);
    assert_false(key_file_has_points(key));
    assert_int_equal(
        engine_key_add(e, "bare", KEY_FORMAT_PARAMS, "on a device", key, bytes, err, sizeof err),
        ENGINE_OK);

    engine_input_t in = {.kind = ENGINE_INPUT_ASGN_PATH, .path = f.asgn};
    engine_job_spec_t spec = {
        .key = "added", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &in};
    engine_job_t *ja, *jb;
    assert_int_equal(engine_job_submit(e, &spec, &ja), ENGINE_OK);
    spec.key = "bare";
    assert_int_equal(engine_job_submit(e, &spec, &jb), ENGINE_OK);
    engine_job_start(e, ja);
    engine_job_start(e, jb);
    assert_true(engine_job_wait(e, ja, 60));
    assert_true(engine_job_wait(e, jb, 60));
    engine_job_info_t info;
    assert_int_equal(engine_job_info(e, ja, &info), ENGINE_OK);
    if (info.state != ENGINE_DONE)
        fail_msg("a key added in memory: %s: %s", engine_state_name(info.state), info.error);
    assert_true(params_result_verifies(&f, info.partitions[0].result));
    engine_job_info_free(&info);
    assert_int_equal(engine_job_info(e, jb, &info), ENGINE_OK);
    assert_int_equal(info.state, ENGINE_FAILED);
    if (!strstr(info.error, "the CPU cannot prove with it"))
        fail_msg("a key without host points: '%s'", info.error);
    engine_job_info_free(&info);
    engine_key_info_t *ki;
    size_t nk = engine_keys_info(e, &ki);
    assert_int_equal(nk, 2);
    assert_string_equal(ki[0].path, "in memory");
    engine_keys_info_free(ki, nk);
    engine_job_unref(e, ja);
    engine_job_unref(e, jb);
    engine_free(e);
    engine_cpu_free(cpu);
    cpu_files_free(&f);
}

/* Key caches (io/key_cache.h) of both kinds through the CPU backend: each
 * proves as its kind says, takes only its kind's inputs, and a file that
 * is no cache does not load. */
static void test_cpu_backend_cache(void **state)
{
    (void)state;
    cpu_files_t f;
    memset(&f, 0, sizeof f);
    cpu_files_make(&f);
    char zc[96], pc[96], err[IO_ERR_MAX];
    snprintf(zc, sizeof zc, "%s/k.cuzkkey", f.dir);
    snprintf(pc, sizeof pc, "%s/p.cuzkkey", f.dir);
    assert_int_equal(key_cache_write_zkey(zc, &f.key, NULL, NULL, NULL, err, sizeof err), CUZK_OK);
    assert_int_equal(key_cache_write_params(pc, &f.params, NULL, NULL, NULL, err, sizeof err),
                     CUZK_OK);
    cuzk_status_t st;
    engine_cpu_t *cpu;
    engine_backend_t be;
    engine_t *e = cpu_engine_new(&cpu, &be, 1);
    assert_int_equal(engine_key_load(e, "zc", KEY_FORMAT_CACHE, zc, NULL, NULL, err, sizeof err),
                     ENGINE_OK);
    assert_int_equal(engine_key_load(e, "pc", KEY_FORMAT_CACHE, pc, NULL, NULL, err, sizeof err),
                     ENGINE_OK);
    assert_int_equal(engine_key_load(e, "no", KEY_FORMAT_CACHE, f.zkey, NULL, &st, err, sizeof err),
                     ENGINE_ELOAD);
    /* a .zkey given as a cache: said what it is (io_kind_misplaced) */
    assert_int_equal(st, CUZK_EBADFILE);
    assert_non_null(strstr(err, " is a snarkjs .zkey (proving key), not a cuzk key cache"));
    engine_key_info_t *ki;
    size_t nk = engine_keys_info(e, &ki);
    assert_int_equal(nk, 2);
    assert_int_equal(ki[0].format, KEY_FORMAT_CACHE);
    assert_int_equal(ki[0].proves_as, KEY_FORMAT_ZKEY);
    assert_int_equal(ki[1].proves_as, KEY_FORMAT_PARAMS);
    engine_keys_info_free(ki, nk);

    engine_input_t wtns = {.kind = ENGINE_INPUT_WTNS_PATH, .path = f.wtns};
    engine_input_t asgn = {.kind = ENGINE_INPUT_ASGN_PATH, .path = f.asgn};
    engine_job_spec_t zs = {
        .key = "zc", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &wtns};
    engine_job_spec_t ps = {
        .key = "pc", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &asgn};
    engine_job_t *jz, *jp, *no;
    assert_int_equal(engine_job_submit(e, &zs, &jz), ENGINE_OK);
    assert_int_equal(engine_job_submit(e, &ps, &jp), ENGINE_OK);
    assert_int_equal(engine_job_format(jz), KEY_FORMAT_ZKEY);
    assert_int_equal(engine_job_format(jp), KEY_FORMAT_PARAMS);
    engine_job_start(e, jz);
    engine_job_start(e, jp);
    zs.inputs = &asgn;
    ps.inputs = &wtns;
    assert_int_equal(engine_job_submit(e, &zs, &no), ENGINE_EMISMATCH);
    assert_int_equal(engine_job_submit(e, &ps, &no), ENGINE_EMISMATCH);
    assert_true(engine_job_wait(e, jz, 60));
    assert_true(engine_job_wait(e, jp, 60));
    engine_job_info_t info;
    assert_int_equal(engine_job_info(e, jz, &info), ENGINE_OK);
    assert_int_equal(info.state, ENGINE_DONE);
    assert_true(zkey_result_verifies(&f, info.partitions[0].result));
    engine_job_info_free(&info);
    assert_int_equal(engine_job_info(e, jp, &info), ENGINE_OK);
    assert_int_equal(info.state, ENGINE_DONE);
    assert_true(params_result_verifies(&f, info.partitions[0].result));
    engine_job_info_free(&info);
    engine_job_unref(e, jz);
    engine_job_unref(e, jp);
    engine_free(e);
    engine_cpu_free(cpu);
    unlink(zc);
    unlink(pc);
    cpu_files_free(&f);
}

#if CUZK_HAVE_CUDA
/* An engine over the CUDA backend with two workers; NULL (and a skip
 * message in why) when there is no GPU. */
static engine_t *cuda_engine_new(engine_cuda_t **cuda, engine_backend_t *be, uint64_t pinned_limit,
                                 char *why, size_t why_size)
{
    engine_cuda_options_t opt = {
        .cpu = {.trusted_keys = true}, .workers_per_device = 2, .pinned_limit = pinned_limit};
    cuzk_status_t st;
    *cuda = engine_cuda_new(&opt, &st, why, why_size);
    if (!*cuda)
        return NULL;
    *be = engine_cuda_backend(*cuda);
    engine_config_t cfg = {.backend = be, .workers = 2, .threads = 2};
    engine_t *e = engine_new(&cfg, &st);
    assert_non_null(e);
    return e;
}

/* Runs a zkey job of two partitions (by path and by bytes) and a params
 * job of two (the .asgn by path, and mem: the assignment in memory) on e;
 * both must be DONE with proofs that verify. */
static void cuda_jobs(engine_t *e, const cpu_files_t *f, const asgn_t *mem)
{
    engine_input_t two[2] = {
        {.kind = ENGINE_INPUT_WTNS_PATH, .path = f->wtns},
        {.kind = ENGINE_INPUT_WTNS_BYTES, .bytes = f->wtns_bytes, .len = f->wtns_len}};
    engine_input_t asgn[2] = {{.kind = ENGINE_INPUT_ASGN_PATH, .path = f->asgn},
                              {.kind = ENGINE_INPUT_ASGN_MEM, .asgn = mem}};
    engine_input_t bad = {.kind = ENGINE_INPUT_WTNS_PATH, .path = f->bad_wtns};
    engine_job_spec_t specs[3] = {
        {.key = "bn", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 2, .inputs = two},
        {.key = "bp", .priority = ENGINE_PRIORITY_HIGH, .n_inputs = 2, .inputs = asgn},
        {.key = "bn", .priority = ENGINE_PRIORITY_NORMAL, .n_inputs = 1, .inputs = &bad},
    };
    engine_job_t *jobs[3];
    for (int i = 0; i < 3; i++) {
        assert_int_equal(engine_job_submit(e, &specs[i], &jobs[i]), ENGINE_OK);
        engine_job_start(e, jobs[i]);
    }
    for (int i = 0; i < 3; i++)
        assert_true(engine_job_wait(e, jobs[i], 120));
    engine_job_info_t info;
    assert_int_equal(engine_job_info(e, jobs[0], &info), ENGINE_OK);
    if (info.state != ENGINE_DONE)
        fail_msg("zkey job: %s: %s", engine_state_name(info.state), info.error);
    for (int i = 0; i < 2; i++)
        assert_true(zkey_result_verifies(f, info.partitions[i].result));
    engine_job_info_free(&info);
    assert_int_equal(engine_job_info(e, jobs[1], &info), ENGINE_OK);
    if (info.state != ENGINE_DONE)
        fail_msg("params job: %s: %s", engine_state_name(info.state), info.error);
    for (int i = 0; i < 2; i++)
        assert_true(params_result_verifies(f, info.partitions[i].result));
    engine_job_info_free(&info);
    /* a witness that does not satisfy the circuit fails as on the CPU */
    assert_int_equal(engine_job_info(e, jobs[2], &info), ENGINE_OK);
    assert_int_equal(info.state, ENGINE_FAILED);
    assert_non_null(strstr(info.error, "does not satisfy"));
    engine_job_info_free(&info);
    for (int i = 0; i < 3; i++)
        engine_job_unref(e, jobs[i]);
}

/* The CUDA backend (engine_cuda.h) through the engine: keys placed on the
 * device, partitions proven there (the proofs verify, nothing crossed from
 * pageable memory), among them an assignment in pinned memory, uploaded
 * straight from it; then the fault path: with a pinned pool too small for
 * any staging buffer every device attempt that needs one fails with
 * CUZK_ENOMEM and the partition is proven on the CPU instead, counted as
 * a fallback. */
static void test_cuda_backend(void **state)
{
    (void)state;
    cpu_files_t f;
    memset(&f, 0, sizeof f);
    char why[IO_ERR_MAX], err[IO_ERR_MAX];
    engine_cuda_t *cuda;
    engine_backend_t be;
    engine_t *e = cuda_engine_new(&cuda, &be, 0, why, sizeof why);
    if (!e) {
        print_message("no GPU (%s): skipped\n", why);
        skip();
    }
    cpu_files_make(&f);
    /* the .asgn's bytes in pinned memory, parsed in place */
    gpu_t g;
    bool found = false;
    assert_int_equal(gpu_open_first(&g, &found), CUZK_OK);
    assert_true(found);
    asgn_t file, mem;
    void *pinned = NULL;
    assert_int_equal(asgn_file_read(&file, f.asgn, NULL, err, sizeof err), CUZK_OK);
    assert_int_equal(gpu_host_alloc(&g, &pinned, file.map.size), CUZK_OK);
    memcpy(pinned, file.map.data, file.map.size);
    assert_int_equal(
        asgn_file_parse(&mem, pinned, file.map.size, "the assignment", NULL, err, sizeof err),
        CUZK_OK);
    asgn_free(&file);
    assert_int_equal(engine_key_load(e, "bn", KEY_FORMAT_ZKEY, f.zkey, NULL, NULL, err, sizeof err),
                     ENGINE_OK);
    assert_int_equal(
        engine_key_load(e, "bp", KEY_FORMAT_PARAMS, f.params_path, NULL, NULL, err, sizeof err),
        ENGINE_OK);
    engine_key_info_t *ki;
    size_t nk = engine_keys_info(e, &ki);
    assert_int_equal(nk, 2);
    assert_string_equal(ki[0].tier, "device");
    engine_keys_info_free(ki, nk);
    cuda_jobs(e, &f, &mem);
    engine_cuda_counters_t c;
    engine_cuda_counters(cuda, &c);
    assert_int_equal(c.partitions, 4);
    assert_int_equal(c.cpu_fallbacks, 0);
    assert_int_equal(c.pageable_bytes, 0);
    assert_true(c.h2d_bytes > 0 && c.msm_ms > 0);
    engine_free(e);
    engine_cuda_free(cuda);

    e = cuda_engine_new(&cuda, &be, 1, why, sizeof why);
    assert_non_null(e);
    assert_int_equal(engine_key_load(e, "bn", KEY_FORMAT_ZKEY, f.zkey, NULL, NULL, err, sizeof err),
                     ENGINE_OK);
    assert_int_equal(
        engine_key_load(e, "bp", KEY_FORMAT_PARAMS, f.params_path, NULL, NULL, err, sizeof err),
        ENGINE_OK);
    cuda_jobs(e, &f, &mem);
    engine_cuda_counters(cuda, &c);
    /* the assignment in pinned memory needs no staging buffer: it alone
     * is proven on the device */
    assert_int_equal(c.partitions, 1);
    assert_int_equal(c.cpu_fallbacks, 4); /* the unsatisfied witness too, before it fails */
    assert_false(c.lost[0]);              /* an allocation failure leaves the device usable */
    engine_free(e);
    engine_cuda_free(cuda);
    asgn_free(&mem);
    gpu_host_free(pinned);
    cpu_files_free(&f);
}
#endif

int main(void)
{
    test_seed_init("test_engine");
    pthread_mutex_init(&fake.lock, NULL);
    pthread_cond_init(&fake.cv, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_critical_overtakes),
        cmocka_unit_test(test_urgent_worker),
        cmocka_unit_test(test_devices),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_failure),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_ids_and_limits),
        cmocka_unit_test(test_duplicate_while_held),
        cmocka_unit_test(test_drain),
        cmocka_unit_test(test_hooks_restore_prune),
        cmocka_unit_test(test_forget),
        cmocka_unit_test(test_jobs_list_started),
        cmocka_unit_test(test_timeline),
        cmocka_unit_test(test_engine_timeline),
        cmocka_unit_test(test_cpu_backend),
        cmocka_unit_test(test_cpu_backend_cache),
        cmocka_unit_test(test_cpu_backend_asgn_mem),
        cmocka_unit_test(test_given_blinding),
        cmocka_unit_test(test_cpu_key_groth16),
        cmocka_unit_test(test_key_add),
#if CUZK_HAVE_CUDA
        cmocka_unit_test(test_cuda_backend),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
