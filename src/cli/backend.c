/*
 * Where cuzk prove, cuzk demo and the benchmarks run a proof's stages: the
 * CPU, or the first GPU through the engine's partition prover (engine_gpu.h)
 * as a Groth16 accelerator. "auto" takes the GPU when cuzk was built with
 * CUDA and the driver shows a device, else the CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "groth16/groth16.h"
#include "groth16/groth16_key.h"
#include "io/io_error.h"
#if CUZK_HAVE_CUDA
#include "cuda/gpu.h"
#include "engine/engine_gpu.h"
#endif

struct cli_backend {
    char name[400];
#if CUZK_HAVE_CUDA
    engine_gpu_dev_t *dev;
    engine_gpu_key_t *key;
    engine_gpu_slot_t *slot;
    engine_gpu_accel_t accel;
    groth16_accel_t table;
#endif
};

int cli_parse_backend(cli_backend_kind_t *out, const char *v)
{
    static const char *const names[] = {"auto", "cpu", "cuda"};
    for (int i = 0; i < 3; i++) {
        if (!strcmp(v, names[i])) {
            *out = (cli_backend_kind_t)i;
            return 0;
        }
    }
    return -1;
}

#if CUZK_HAVE_CUDA
/* Opens the first device for b, or says why there is none (*found false). */
static cuzk_status_t backend_open(cli_backend_t *b, bool *found, char *err, size_t err_size)
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
    return engine_gpu_dev_new(&b->dev, 0, err, err_size);
}
#endif

cuzk_status_t cli_backend_new(cli_backend_t **out, cli_backend_kind_t kind,
                              const groth16_key_t *key, const groth16_accel_t **accel, char *err,
                              size_t err_size)
{
    *out = NULL;
    *accel = NULL;
    cli_backend_t *b = calloc(1, sizeof *b);
    if (!b)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory");
    snprintf(b->name, sizeof b->name, "cpu");
    *out = b;
    if (kind == CLI_BACKEND_CPU)
        return CUZK_OK;
#if CUZK_HAVE_CUDA
    bool found;
    char why[IO_ERR_MAX] = "";
    cuzk_status_t s = backend_open(b, &found, why, sizeof why);
    if (s == CUZK_OK && !found) {
        if (kind == CLI_BACKEND_AUTO) {
            /* Said once a process (cuzk demo proves several times). */
            static bool told;
            if (!told)
                fprintf(stderr, "cuzk: %s; proving on the CPU\n", why);
            told = true;
            return CUZK_OK;
        }
        s = CUZK_EDEVICE;
    }
    if (s == CUZK_OK)
        s = engine_gpu_key_new(&b->key, b->dev, key, ENGINE_GPU_TIER_AUTO, 0, 1, why, sizeof why);
    if (s == CUZK_OK)
        s = engine_gpu_slot_new(&b->slot, b->dev, NULL, why, sizeof why);
    if (s != CUZK_OK) {
        io_fail(err, err_size, s, "--backend %s: %s", kind == CLI_BACKEND_AUTO ? "auto" : "cuda",
                why);
        cli_backend_free(b);
        *out = NULL;
        return s;
    }
    b->accel = (engine_gpu_accel_t){.slot = b->slot, .key = b->key};
    b->table = engine_gpu_accel(&b->accel);
    *accel = &b->table;
    snprintf(b->name, sizeof b->name, "cuda: %s, key %s-resident", engine_gpu_dev_name(b->dev),
             engine_gpu_tier_name(engine_gpu_key_tier(b->key)));
    return CUZK_OK;
#else
    (void)key;
    if (kind == CLI_BACKEND_CUDA) {
        free(b);
        *out = NULL;
        return io_fail(err, err_size, CUZK_EDEVICE,
                       "--backend cuda: this cuzk was built without CUDA (no nvcc at build time)");
    }
    return CUZK_OK;
#endif
}

const char *cli_backend_name(const cli_backend_t *b)
{
    return b ? b->name : "cpu";
}

void cli_backend_free(cli_backend_t *b)
{
    if (!b)
        return;
#if CUZK_HAVE_CUDA
    engine_gpu_slot_free(b->slot);
    engine_gpu_key_free(b->key);
    engine_gpu_dev_free(b->dev);
#endif
    free(b);
}
