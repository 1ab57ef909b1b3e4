/* The CPU backend (engine_cpu.h). */
#include "engine/engine_cpu.h"
#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "engine/engine_partition.h"
#include "io/io_error.h"
#include "io/key_file.h"
#include "io/params_file.h"
#include "util/pool.h"

struct engine_cpu {
    engine_cpu_options_t opt;
    pool_t *load_pool;
};

engine_cpu_t *engine_cpu_new(const engine_cpu_options_t *opt, cuzk_status_t *st)
{
    engine_cpu_t *cpu = calloc(1, sizeof *cpu);
    if (!cpu) {
        *st = CUZK_ENOMEM;
        return NULL;
    }
    if (opt)
        cpu->opt = *opt;
    cpu->load_pool = pool_new(cpu->opt.load_threads, st);
    if (!cpu->load_pool) {
        free(cpu);
        return NULL;
    }
    *st = CUZK_OK;
    return cpu;
}

void engine_cpu_free(engine_cpu_t *cpu)
{
    if (!cpu)
        return;
    pool_free(cpu->load_pool);
    free(cpu);
}

/* The CPU backend's key is a key_file_t (engine_cpu.h). */
static cuzk_status_t cpu_key_load(void *ctx, key_format_t format, const char *path, void **out,
                                  uint64_t *bytes, char *err, size_t err_size)
{
    engine_cpu_t *cpu = ctx;
    *out = NULL;
    *bytes = 0;
    key_file_t *k = calloc(1, sizeof *k);
    if (!k)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the key");
    /* A key cache's query points are trusted (docs/KEYCACHE.md); the
     * option is for the other two. */
    unsigned flags = cpu->opt.trusted_keys && format != KEY_FORMAT_CACHE ? KEY_FILE_TRUSTED : 0;
    cuzk_status_t s = key_file_read(k, format, path, cpu->load_pool, flags, err, err_size);
    if (s != CUZK_OK) {
        free(k);
        return s;
    }
    *bytes = key_file_host_bytes(k);
    *out = k;
    return CUZK_OK;
}

cuzk_status_t engine_cpu_key_from_params(void **key, uint64_t *bytes, bp_params_t *p)
{
    key_file_t *k = calloc(1, sizeof *k);
    if (!k)
        return CUZK_ENOMEM;
    key_file_adopt_params(k, p);
    *bytes = key_file_host_bytes(k);
    *key = k;
    return CUZK_OK;
}

static void cpu_key_free(void *ctx, void *key)
{
    (void)ctx;
    key_file_free(key);
    free(key);
}

static uint64_t cpu_partition_bytes(void *ctx, const void *key)
{
    (void)ctx;
    return key_file_work_bytes(key);
}

static cuzk_status_t cpu_worker_new(void *ctx, unsigned worker, unsigned threads, void **wctx)
{
    (void)ctx;
    (void)worker;
    cuzk_status_t s;
    *wctx = pool_new(threads, &s);
    return *wctx ? CUZK_OK : s;
}

static void cpu_worker_free(void *ctx, void *wctx)
{
    (void)ctx;
    pool_free(wctx);
}

static cuzk_status_t cpu_prove(void *ctx, void *wctx, const void *key, key_format_t format,
                               const engine_input_t *in, unsigned urgency,
                               engine_stage_report_fn report, void *rctx, engine_result_t *out,
                               char *err, size_t err_size)
{
    (void)urgency;
    (void)ctx;
    return engine_partition_prove(key, format, wctx, NULL, in, report, rctx, out, err, err_size);
}

engine_backend_t engine_cpu_backend(engine_cpu_t *cpu)
{
    engine_backend_t be = {
        .name = "cpu",
        .ctx = cpu,
        .key_load = cpu_key_load,
        .key_free = cpu_key_free,
        .partition_bytes = cpu_partition_bytes,
        .worker_new = cpu_worker_new,
        .worker_free = cpu_worker_free,
        .prove = cpu_prove,
    };
    return be;
}
