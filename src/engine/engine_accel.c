/* One proof at a time on the CPU or the first GPU (engine_accel.h). */
#include "engine/engine_accel.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_error.h"
#if CUZK_HAVE_CUDA
#include "cuda/gpu.h"
#include "engine/engine_gpu.h"
#endif

struct engine_accel {
    char name[400];
    char note[IO_ERR_MAX];
    bool fell_back;
#if CUZK_HAVE_CUDA
    engine_gpu_dev_t *dev;
    engine_gpu_key_t *key;
    engine_gpu_slot_t *slot;
    engine_gpu_accel_t gpu;
    groth16_accel_t inner; /* the GPU partition prover's */
    groth16_accel_t table; /* inner behind lock */
    pthread_mutex_t lock;
    bool locked_init;
#endif
};

#if CUZK_HAVE_CUDA
/* Opens the first device for a, or says why there is none (*found false). */
static cuzk_status_t accel_open(engine_accel_t *a, bool *found, char *err, size_t err_size)
{
    char why[CUZK_GPU_ERR_MAX] = "";
    int n = 0;
    *found = false;
    cuzk_status_t s = gpu_count(&n, why, sizeof why);
    if (s != CUZK_OK)
        return io_fail(err, err_size, s, "the CUDA runtime: %s", why);
    if (n == 0) {
        io_fail(err, err_size, CUZK_EDEVICE, "no GPU is usable: %s",
                why[0] ? why : "the NVIDIA driver shows no device");
        return CUZK_OK;
    }
    *found = true;
    return engine_gpu_dev_new(&a->dev, 0, err, err_size);
}

/* The slot's buffers serve one proof at a time: the device's stages of
 * concurrent proofs take turns. */
static cuzk_status_t accel_msms_locked(void *ctx, const struct groth16_key *key,
                                       const struct groth16_input *in, groth16_msms_t *out,
                                       groth16_timings_t *t, char *err, size_t err_size)
{
    engine_accel_t *a = ctx;
    pthread_mutex_lock(&a->lock);
    cuzk_status_t s = a->inner.msms(a->inner.ctx, key, in, out, t, err, err_size);
    pthread_mutex_unlock(&a->lock);
    return s;
}
#endif

cuzk_status_t engine_accel_new(engine_accel_t **out, engine_accel_kind_t kind,
                               const groth16_key_t *key, char *err, size_t err_size)
{
    *out = NULL;
    engine_accel_t *a = calloc(1, sizeof *a);
    if (!a)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory");
    snprintf(a->name, sizeof a->name, "cpu");
    *out = a;
    if (kind == ENGINE_ACCEL_CPU)
        return CUZK_OK;
#if CUZK_HAVE_CUDA
    bool found;
    char why[IO_ERR_MAX] = "";
    cuzk_status_t s = accel_open(a, &found, why, sizeof why);
    if (s == CUZK_OK && !found) {
        if (kind == ENGINE_ACCEL_AUTO) {
            snprintf(a->note, sizeof a->note, "%s", why);
            a->fell_back = true;
            return CUZK_OK;
        }
        s = CUZK_EDEVICE;
    }
    if (s == CUZK_OK)
        s = engine_gpu_key_new(&a->key, a->dev, key, ENGINE_GPU_TIER_AUTO, 0, 1, why, sizeof why);
    if (s == CUZK_OK)
        s = engine_gpu_slot_new(&a->slot, a->dev, NULL, why, sizeof why);
    if (s == CUZK_OK && pthread_mutex_init(&a->lock, NULL) != 0)
        s = io_fail(why, sizeof why, CUZK_ENOMEM, "cannot make a lock");
    if (s != CUZK_OK) {
        io_fail(err, err_size, s, "%s", why);
        engine_accel_free(a);
        *out = NULL;
        return s;
    }
    a->locked_init = true;
    a->gpu = (engine_gpu_accel_t){.slot = a->slot, .key = a->key};
    a->inner = engine_gpu_accel(&a->gpu);
    a->table = (groth16_accel_t){.ctx = a, .msms = accel_msms_locked};
    snprintf(a->name, sizeof a->name, "cuda: %s, key %s-resident", engine_gpu_dev_name(a->dev),
             engine_gpu_tier_name(engine_gpu_key_tier(a->key)));
    return CUZK_OK;
#else
    (void)key;
    if (kind == ENGINE_ACCEL_CUDA) {
        free(a);
        *out = NULL;
        return io_fail(err, err_size, CUZK_EDEVICE,
                       "this cuzk was built without CUDA (no nvcc at build time)");
    }
    return CUZK_OK; /* no GPU to fall back from */
#endif
}

const groth16_accel_t *engine_accel_table(const engine_accel_t *a)
{
#if CUZK_HAVE_CUDA
    return a && a->slot ? &a->table : NULL;
#else
    (void)a;
    return NULL;
#endif
}

const char *engine_accel_name(const engine_accel_t *a)
{
    return a ? a->name : "cpu";
}

const char *engine_accel_note(const engine_accel_t *a)
{
    return a && a->fell_back ? a->note : NULL;
}

void engine_accel_free(engine_accel_t *a)
{
    if (!a)
        return;
#if CUZK_HAVE_CUDA
    engine_gpu_slot_free(a->slot);
    engine_gpu_key_free(a->key);
    engine_gpu_dev_free(a->dev);
    if (a->locked_init)
        pthread_mutex_destroy(&a->lock);
#endif
    free(a);
}
