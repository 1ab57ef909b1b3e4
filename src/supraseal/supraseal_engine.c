/* The process's engine behind supraseal-c2's ABI, and the ABI's errors. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_cpu.h"
#include "supraseal/supraseal_impl.h"
#if CUZK_HAVE_CUDA
#include "engine/engine_cuda.h"
#endif

static struct {
    pthread_mutex_t lock; /* making the engine */
    engine_t *e;
    engine_cpu_t *cpu;
#if CUZK_HAVE_CUDA
    engine_cuda_t *cuda;
#endif
    engine_backend_t backend;
    int devices;
    pool_t *pool;
    pthread_mutex_t pool_lock;
} process = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .pool_lock = PTHREAD_MUTEX_INITIALIZER,
};

supraseal_error_t supraseal_ok(void)
{
    return (supraseal_error_t){0, NULL};
}

supraseal_error_t supraseal_fail(cuzk_status_t code, const char *fmt, ...)
{
    char buf[2 * CUZK_ERR_MAX]; /* room for an engine message inside one of ours */
    va_list ap;
    va_start(ap, fmt);
    /* clang-tidy's checker-state bug of fail_with (util/fail.c) again */
    // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* A message that cannot be allocated leaves the code alone to say it. */
    return (supraseal_error_t){code == CUZK_OK ? CUZK_EINVAL : (int32_t)code, strdup(buf)};
}

/* A non-negative integer from the environment variable name (def: unset). */
static cuzk_status_t env_unsigned(const char *name, unsigned def, unsigned *out, char *err,
                                  size_t err_size)
{
    const char *v = getenv(name);
    *out = def;
    if (!v || !*v)
        return CUZK_OK;
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    if (*end || v[0] == '-' || x > 65536) {
        snprintf(err, err_size, "%s=%s is not a number from 0 to 65536", name, v);
        return CUZK_EINVAL;
    }
    *out = (unsigned)x;
    return CUZK_OK;
}

/* Opens the CUDA backend into process (CUZK_EDEVICE: no device or driver). */
static cuzk_status_t backend_cuda(const engine_cpu_options_t *cpu_opt, unsigned *workers, char *err,
                                  size_t err_size)
{
#if CUZK_HAVE_CUDA
    cuzk_status_t s;
    engine_cuda_options_t opt = {.cpu = *cpu_opt};
    process.cuda = engine_cuda_new(&opt, &s, err, err_size);
    if (!process.cuda)
        return s;
    process.backend = engine_cuda_backend(process.cuda);
    process.devices = engine_cuda_devices(process.cuda);
    *workers = 2 * (unsigned)process.devices; /* one stages while the other computes */
    return CUZK_OK;
#else
    (void)cpu_opt;
    (void)workers;
    snprintf(err, err_size, "this libcuzk_supraseal was built without CUDA");
    return CUZK_EDEVICE;
#endif
}

static cuzk_status_t engine_make(char *err, size_t err_size)
{
    const char *choice = getenv("CUZK_SUPRASEAL_BACKEND");
    if (!choice || !*choice)
        choice = "auto";
    if (strcmp(choice, "auto") != 0 && strcmp(choice, "cuda") != 0 && strcmp(choice, "cpu") != 0) {
        snprintf(err, err_size, "CUZK_SUPRASEAL_BACKEND=%s is none of auto, cuda and cpu", choice);
        return CUZK_EINVAL;
    }
    unsigned threads, trusted;
    cuzk_status_t s = env_unsigned("CUZK_SUPRASEAL_THREADS", 0, &threads, err, err_size);
    if (s == CUZK_OK)
        s = env_unsigned("CUZK_SUPRASEAL_TRUSTED_KEYS", 0, &trusted, err, err_size);
    if (s != CUZK_OK)
        return s;
    engine_cpu_options_t cpu_opt = {.trusted_keys = trusted != 0};
    unsigned workers = 1;
    s = CUZK_EDEVICE;
    if (strcmp(choice, "cpu") != 0) {
        char why[CUZK_ERR_MAX] = "";
        s = backend_cuda(&cpu_opt, &workers, why, sizeof why);
        if (s != CUZK_OK && !strcmp(choice, "cuda")) {
            snprintf(err, err_size, "CUZK_SUPRASEAL_BACKEND=cuda, but no device: %s", why);
            return s;
        }
    }
    if (s != CUZK_OK) {
        process.cpu = engine_cpu_new(&cpu_opt, &s);
        if (!process.cpu) {
            snprintf(err, err_size, "the CPU backend did not start: %s", cuzk_strerror(s));
            return s;
        }
        process.backend = engine_cpu_backend(process.cpu);
        workers = 1; /* one partition at a time, on every thread */
    }
    process.pool = pool_new(threads, &s);
    if (process.pool) {
        engine_config_t ec = {.backend = &process.backend, .workers = workers, .threads = threads};
        process.e = engine_new(&ec, &s);
    }
    if (!process.e) {
        snprintf(err, err_size, "the engine did not start: %s", cuzk_strerror(s));
        pool_free(process.pool);
        process.pool = NULL;
#if CUZK_HAVE_CUDA
        engine_cuda_free(process.cuda);
        process.cuda = NULL;
#endif
        engine_cpu_free(process.cpu);
        process.cpu = NULL;
        process.devices = 0;
        return s;
    }
    return CUZK_OK;
}

cuzk_status_t supraseal_engine(engine_t **e, char *err, size_t err_size)
{
    pthread_mutex_lock(&process.lock);
    cuzk_status_t s = process.e ? CUZK_OK : engine_make(err, err_size);
    *e = process.e;
    pthread_mutex_unlock(&process.lock);
    return s;
}

int supraseal_devices(void)
{
    pthread_mutex_lock(&process.lock);
    int n = process.devices;
    pthread_mutex_unlock(&process.lock);
    return n;
}

#if CUZK_HAVE_CUDA
engine_cuda_t *supraseal_cuda(void)
{
    pthread_mutex_lock(&process.lock);
    engine_cuda_t *c = process.cuda;
    pthread_mutex_unlock(&process.lock);
    return c;
}
#endif

pool_t *supraseal_pool_take(void)
{
    pthread_mutex_lock(&process.pool_lock);
    return process.pool;
}

void supraseal_pool_give(void)
{
    pthread_mutex_unlock(&process.pool_lock);
}
