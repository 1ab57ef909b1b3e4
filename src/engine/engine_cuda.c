/* The CUDA backend (engine_cuda.h). */
#include "engine/engine_cuda.h"

#include "engine/engine_gpu_setup.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/gpu.h"
#include "engine/engine_partition.h"
#include "engine/engine_pinned.h"
#include "groth16/groth16.h"
#include "io/io_error.h"
#include "util/pool.h"

struct engine_cuda {
    engine_cuda_options_t opt;
    engine_cpu_t *cpu;
    engine_backend_t cpu_be;
    int ndev;
    engine_gpu_dev_t *dev[ENGINE_CUDA_MAX_DEVICES];
    gpu_t alloc_gpu;         /* the pinned pool's allocator (its err holds its failures) */
    engine_pinned_t *pinned; /* the workers' staging buffers */
    pthread_mutex_t lock;    /* n */
    engine_cuda_counters_t n;
};

/* A key: the CPU backend's host copy and one device copy per device. */
typedef struct cuda_key {
    void *host;
    engine_gpu_key_t *dev[ENGINE_CUDA_MAX_DEVICES];
} cuda_key_t;

typedef struct cuda_worker {
    pool_t *pool;
    int dev;
    engine_gpu_slot_t *slot;
} cuda_worker_t;

/* The pinned pool's allocator: cudaHostAlloc (portable: every device's
 * copies run at the bus's speed from it). */
static cuzk_status_t pinned_alloc(void *ctx, void **p, size_t bytes, char *err, size_t err_size)
{
    gpu_t *g = ctx;
    cuzk_status_t s = gpu_host_alloc(g, p, bytes);
    if (s != CUZK_OK)
        io_fail(err, err_size, s, "pinning %zu bytes: %s", bytes, g->err);
    return s;
}

static void pinned_free(void *ctx, void *p)
{
    (void)ctx;
    gpu_host_free(p);
}

engine_cuda_t *engine_cuda_new(const engine_cuda_options_t *opt, cuzk_status_t *st, char *err,
                               size_t err_size)
{
    engine_cuda_t *c = calloc(1, sizeof *c);
    if (!c) {
        *st = io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the CUDA backend");
        return NULL;
    }
    if (opt)
        c->opt = *opt;
    if (!c->opt.workers_per_device)
        c->opt.workers_per_device = 2;
    pthread_mutex_init(&c->lock, NULL);
    char why[CUZK_GPU_ERR_MAX] = "";
    int n = 0;
    *st = gpu_count(&n, why, sizeof why);
    if (*st != CUZK_OK || n == 0) {
        *st = io_fail(err, err_size, CUZK_EDEVICE, "no GPU is usable: %s",
                      why[0] ? why : "the NVIDIA driver shows no device");
        engine_cuda_free(c);
        return NULL;
    }
    if (c->opt.devices > 0 && c->opt.devices < n)
        n = c->opt.devices;
    n = n > ENGINE_CUDA_MAX_DEVICES ? ENGINE_CUDA_MAX_DEVICES : n;
    for (int i = 0; i < n; i++) {
        *st = engine_gpu_dev_new(&c->dev[i], i, err, err_size);
        if (*st != CUZK_OK) {
            engine_cuda_free(c);
            return NULL;
        }
        engine_gpu_dev_set_slot_limit(c->dev[i], c->opt.device_work_limit);
        c->ndev = i + 1;
    }
    c->alloc_gpu = *engine_gpu_dev_gpu(c->dev[0]);
    engine_pinned_alloc_t pa = {&c->alloc_gpu, pinned_alloc, pinned_free};
    c->pinned = engine_pinned_new(&pa, c->opt.pinned_limit);
    if (!c->pinned) {
        *st = io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the pinned pool");
        engine_cuda_free(c);
        return NULL;
    }
    c->cpu = engine_cpu_new(&c->opt.cpu, st);
    if (!c->cpu) {
        io_fail(err, err_size, *st, "cannot start the key loading threads");
        engine_cuda_free(c);
        return NULL;
    }
    c->cpu_be = engine_cpu_backend(c->cpu);
    *st = CUZK_OK;
    return c;
}

void engine_cuda_free(engine_cuda_t *c)
{
    if (!c)
        return;
    engine_pinned_free(c->pinned);
    for (int i = 0; i < c->ndev; i++)
        engine_gpu_dev_free(c->dev[i]);
    engine_cpu_free(c->cpu);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

int engine_cuda_devices(const engine_cuda_t *c)
{
    return c->ndev;
}

const char *engine_cuda_device_name(const engine_cuda_t *c, int i)
{
    return engine_gpu_dev_name(c->dev[i]);
}

void engine_cuda_counters(engine_cuda_t *c, engine_cuda_counters_t *out)
{
    pthread_mutex_lock(&c->lock);
    *out = c->n;
    pthread_mutex_unlock(&c->lock);
    for (int i = 0; i < c->ndev; i++)
        engine_gpu_dev_mem(c->dev[i], &out->mem[i]);
    engine_pinned_counters(c->pinned, &out->pinned);
    out->pageable_bytes += out->pinned.pageable_bytes;
}

/* ---- keys ---------------------------------------------------------------- */

static void cuda_key_free(void *ctx, void *key)
{
    engine_cuda_t *c = ctx;
    cuda_key_t *k = key;
    for (int i = 0; i < c->ndev; i++)
        engine_gpu_key_free(k->dev[i]);
    if (k->host)
        c->cpu_be.key_free(c->cpu_be.ctx, k->host);
    free(k);
}

static cuzk_status_t cuda_key_load(void *ctx, key_format_t format, const char *path, void **out,
                                   uint64_t *bytes, char *err, size_t err_size)
{
    engine_cuda_t *c = ctx;
    *out = NULL;
    cuda_key_t *k = calloc(1, sizeof *k);
    if (!k)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the key");
    cuzk_status_t s =
        c->cpu_be.key_load(c->cpu_be.ctx, format, path, &k->host, bytes, err, err_size);
    if (s != CUZK_OK) {
        free(k);
        return s;
    }
    /* The CPU backend's key is a key_file_t (engine_cpu.h): its Groth16 view
     * is what the devices hold. */
    const groth16_key_t *key = &((const key_file_t *)k->host)->key;
    for (int i = 0; s == CUZK_OK && i < c->ndev; i++) {
        char why[IO_ERR_MAX];
        /* Out of memory placing it, or (auto) left mapped because the host
         * could not pin it: the staging pool gives back its idle buffers,
         * and the key is placed once more. */
        for (int attempt = 0; attempt < 2; attempt++) {
            s = engine_gpu_key_new(&k->dev[i], c->dev[i], key, c->opt.tier, c->opt.device_budget,
                                   c->opt.workers_per_device, why, sizeof why);
            bool pressed =
                s == CUZK_ENOMEM || (s == CUZK_OK && c->opt.tier == ENGINE_GPU_TIER_AUTO &&
                                     engine_gpu_key_tier(k->dev[i]) == ENGINE_GPU_TIER_MAPPED);
            if (!pressed || attempt > 0 || engine_pinned_trim(c->pinned, 0) == 0)
                break;
            engine_gpu_key_free(k->dev[i]);
            k->dev[i] = NULL;
        }
        if (s == CUZK_OK)
            s = engine_gpu_key_warm(k->dev[i], why, sizeof why);
        if (s != CUZK_OK)
            io_fail(err, err_size, s, "%s: placing the key on %s: %s", path,
                    engine_gpu_dev_name(c->dev[i]), why);
        else
            *bytes += engine_gpu_key_pinned_bytes(k->dev[i]);
    }
    if (s != CUZK_OK) {
        cuda_key_free(c, k);
        return s;
    }
    *out = k;
    return CUZK_OK;
}

cuzk_status_t engine_cuda_dev_setup(engine_cuda_t *c, const r1cs_ix_t *ix, rng_t *rng, void **key,
                                    uint64_t *bytes, bp_vk_t *vk, asgn_t *a, void *amem, char *err,
                                    size_t err_size)
{
    *key = NULL;
    memset(vk, 0, sizeof *vk);
    cuda_key_t *k = calloc(1, sizeof *k);
    if (!k)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the key");
    rng_t start = *rng; /* every device draws the same secrets */
    bp_params_t p = {0};
    cuzk_status_t s = CUZK_OK;
    for (int i = 0; s == CUZK_OK && i < c->ndev; i++) {
        bp_params_t pi;
        rng_t r = start;
        s = engine_gpu_bp_dev_setup(&k->dev[i], &pi, i == 0 ? a : NULL, amem, c->dev[i], ix, &r,
                                    err, err_size);
        if (s == CUZK_OK && (s = engine_gpu_key_warm(k->dev[i], err, err_size)) != CUZK_OK)
            bp_params_free(&pi);
        if (s != CUZK_OK)
            break;
        if (i == 0) {
            p = pi;
            *rng = r;
        } else {
            bp_params_free(&pi);
        }
    }
    if (s == CUZK_OK && (c->ndev < 1 || !p.vk.ic))
        s = io_fail(err, err_size, CUZK_EDEVICE, "no device made the key");
    if (s == CUZK_OK) {
        bls381_g1_affine_t *ic = malloc((p.vk.n_ic ? p.vk.n_ic : 1) * sizeof *ic);
        if (!ic || !p.vk.ic) {
            free(ic);
            s = io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the verifying key");
        } else {
            *vk = p.vk; /* a copy of it, with its own ic; p moves into the key */
            vk->ic = memcpy(ic, p.vk.ic, p.vk.n_ic * sizeof *ic);
            s = engine_cpu_key_from_params(&k->host, bytes, &p);
            if (s != CUZK_OK)
                io_fail(err, err_size, s, "out of memory for the key");
        }
    }
    bp_params_free(&p);
    if (s != CUZK_OK) {
        bp_vk_free(vk);
        if (a)
            memset(a, 0, sizeof *a);
        cuda_key_free(c, k);
        return s;
    }
    *key = k;
    return CUZK_OK;
}

cuzk_status_t engine_cuda_host_alloc(engine_cuda_t *c, void **p, size_t bytes, char *err,
                                     size_t err_size)
{
    gpu_t g = c->alloc_gpu;
    cuzk_status_t s = gpu_host_alloc(&g, p, bytes);
    if (s != CUZK_OK)
        io_fail(err, err_size, s, "pinning %zu bytes of host memory: %s", bytes, g.err);
    return s;
}

void engine_cuda_host_free(void *p)
{
    gpu_host_free(p);
}

static uint64_t cuda_partition_bytes(void *ctx, const void *key)
{
    engine_cuda_t *c = ctx;
    return c->cpu_be.partition_bytes(c->cpu_be.ctx, ((const cuda_key_t *)key)->host);
}

static const char *cuda_key_tier(void *ctx, const void *key)
{
    (void)ctx;
    const cuda_key_t *k = key;
    return k->dev[0] ? engine_gpu_tier_name(engine_gpu_key_tier(k->dev[0])) : "host";
}

/* ---- workers --------------------------------------------------------------- */

/* Worker i proves on device i mod devices. */
static int cuda_worker_device(void *ctx, unsigned worker)
{
    const engine_cuda_t *c = ctx;
    return (int)(worker % (unsigned)c->ndev);
}

static cuzk_status_t cuda_worker_new(void *ctx, unsigned worker, unsigned threads, void **wctx)
{
    engine_cuda_t *c = ctx;
    cuda_worker_t *w = calloc(1, sizeof *w);
    if (!w)
        return CUZK_ENOMEM;
    w->dev = cuda_worker_device(c, worker);
    cuzk_status_t s;
    w->pool = pool_new(threads, &s);
    char err[IO_ERR_MAX];
    if (w->pool)
        s = engine_gpu_slot_new(&w->slot, c->dev[w->dev], c->pinned, err, sizeof err);
    if (s != CUZK_OK) {
        pool_free(w->pool);
        free(w);
        return s;
    }
    *wctx = w;
    return CUZK_OK;
}

static void cuda_worker_free(void *ctx, void *wctx)
{
    (void)ctx;
    cuda_worker_t *w = wctx;
    engine_gpu_slot_free(w->slot);
    pool_free(w->pool);
    free(w);
}

/* The engine's report, with the bytes each way added to the stages that
 * moved them: uploads to synth, the results' download to msm. */
typedef struct {
    engine_stage_report_fn report;
    void *rctx;
    const engine_gpu_accel_t *acc;
} cuda_report_t;

static bool cuda_report(void *ctx, engine_stage_t stage, double start, double end, uint64_t bytes)
{
    const cuda_report_t *r = ctx;
    if (stage == ENGINE_STAGE_SYNTH)
        bytes += r->acc->stats.h2d_bytes;
    else if (stage == ENGINE_STAGE_MSM)
        bytes += r->acc->stats.d2h_bytes;
    return r->report(r->rctx, stage, start, end, bytes);
}

/* Whether the device gave the caller its a, b, c back (engine_input_t's
 * abc_read), passing the call on. */
typedef struct abc_watch {
    void (*fn)(void *ctx);
    void *ctx;
    bool read;
} abc_watch_t;

static void abc_watch_read(void *ctx)
{
    abc_watch_t *w = ctx;
    w->read = true;
    w->fn(w->ctx);
}

static cuzk_status_t cuda_prove(void *ctx, void *wctx, const void *key, key_format_t format,
                                const engine_input_t *in, unsigned urgency,
                                engine_stage_report_fn report, void *rctx, engine_result_t *out,
                                char *err, size_t err_size)
{
    engine_cuda_t *c = ctx;
    cuda_worker_t *w = wctx;
    const cuda_key_t *k = key;
    pthread_mutex_lock(&c->lock);
    bool lost = c->n.lost[w->dev];
    pthread_mutex_unlock(&c->lock);
    if (lost || !k->dev[w->dev]) {
        if (!key_file_has_points(k->host))
            return io_fail(err, err_size, CUZK_EDEVICE,
                           "%s is lost and the key's points live only on the devices",
                           engine_gpu_dev_name(c->dev[w->dev]));
        return engine_partition_prove(k->host, format, w->pool, NULL, in, report, rctx, out, err,
                                      err_size);
    }

    engine_gpu_slot_set_urgency(w->slot, urgency);
    engine_gpu_accel_t acc = {
        .slot = w->slot, .key = k->dev[w->dev], .pool = w->pool, .urgency = urgency};
    groth16_accel_t table = engine_gpu_accel(&acc);
    cuda_report_t rep = {report, rctx, &acc};
    engine_input_t watched = *in;
    abc_watch_t watch = {in->abc_read, in->abc_ctx, false};
    if (in->abc_read) {
        watched.abc_read = abc_watch_read;
        watched.abc_ctx = &watch;
    }
    cuzk_status_t s = engine_partition_prove(k->host, format, w->pool, &table, &watched,
                                             cuda_report, &rep, out, err, err_size);
    if (s == CUZK_OK) {
        const engine_gpu_stats_t *st = &acc.stats;
        pthread_mutex_lock(&c->lock);
        c->n.partitions++;
        c->n.h2d_bytes += st->h2d_bytes;
        c->n.d2h_bytes += st->d2h_bytes;
        c->n.pageable_bytes += st->pageable_bytes;
        c->n.device_ms[w->dev] += st->synth_ms + st->h_ms + st->msm_ms;
        c->n.device_partitions[w->dev]++;
        c->n.device_h2d_bytes[w->dev] += st->h2d_bytes;
        c->n.synth_ms += st->synth_ms;
        c->n.h_ms += st->h_ms;
        c->n.msm_ms += st->msm_ms;
        for (int q = 0; q < ENGINE_GPU_QUERIES; q++)
            c->n.query_ms[q] += st->query_ms[q];
        c->n.stage_s += st->stage_s;
        c->n.lock_wait_s += st->wait_s;
        c->n.yields += st->yields;
        pthread_mutex_unlock(&c->lock);
        return CUZK_OK;
    }
    if (s != CUZK_EDEVICE && s != CUZK_ENOMEM)
        return s; /* the input's fault: the CPU would refuse it too */

    /* The device failed this partition: prove it on the CPU (when the key
     * has its points on the host), and take the device out when its error
     * is sticky. */
    bool sticky = !engine_gpu_dev_healthy(c->dev[w->dev]);
    if (!key_file_has_points(k->host) || watch.read) {
        pthread_mutex_lock(&c->lock);
        c->n.lost[w->dev] = c->n.lost[w->dev] || sticky;
        pthread_mutex_unlock(&c->lock);
        /* err says what the device did; no CPU copy of the key to retry on,
         * or a, b and c are the caller's again */
        return s;
    }
    fprintf(stderr, "cuzk engine: %s failed a partition (%s)%s; proving it on the CPU\n",
            engine_gpu_dev_name(c->dev[w->dev]), err,
            sticky ? ", and the device is lost to later partitions" : "");
    pthread_mutex_lock(&c->lock);
    c->n.cpu_fallbacks++;
    c->n.lost[w->dev] = c->n.lost[w->dev] || sticky;
    pthread_mutex_unlock(&c->lock);
    return engine_partition_prove(k->host, format, w->pool, NULL, in, report, rctx, out, err,
                                  err_size);
}

engine_backend_t engine_cuda_backend(engine_cuda_t *c)
{
    engine_backend_t be = {
        .name = "cuda",
        .ctx = c,
        .key_load = cuda_key_load,
        .key_free = cuda_key_free,
        .key_tier = cuda_key_tier,
        .partition_bytes = cuda_partition_bytes,
        .worker_new = cuda_worker_new,
        .worker_free = cuda_worker_free,
        .worker_device = cuda_worker_device,
        .prove = cuda_prove,
    };
    return be;
}
