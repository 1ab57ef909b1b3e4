/*
 * The CUDA backend of the engine (engine_backend.h): keys load through the
 * CPU backend (host copy: mapped zkey, decoded params or a key cache) and
 * are then placed on every device (engine_gpu.h: the queries resident on
 * the device when its budget holds them, else in pinned host memory and
 * streamed), so that a key is loaded once per process and each device
 * keeps its copy.
 *
 * Workers. Worker i runs on device i mod devices (the engine's default is
 * two workers per device): each has a staging slot, whose pinned buffer
 * comes from one pool (engine_pinned.h) for the partition's time, so that
 * while one
 * worker's partition holds the device's compute lock the other reads its
 * witness, stages it into pinned memory and uploads it on its own copy
 * stream. A free worker takes the next partition, so work goes to the
 * device that has a worker free: the least loaded one.
 *
 * Faults. A partition whose device work fails (a CUDA error, device memory
 * exhausted) is proven again on the CPU by the same worker, and the
 * fallback is counted; a sticky device error (a kernel fault) marks the
 * device lost and its later partitions go to the CPU at once. Witnesses
 * that do not satisfy the circuit fail as on the CPU (the self-check).
 */
#ifndef CUZK_ENGINE_ENGINE_CUDA_H
#define CUZK_ENGINE_ENGINE_CUDA_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk.h"
#include "engine/engine_backend.h"
#include "engine/engine_cpu.h"
#include "engine/engine_gpu.h"
#include "engine/engine_pinned.h"
#include "io/asgn_file.h"
#include "io/params_file.h"
#include "r1cs/r1cs_indexed.h"
#include "util/rng.h"

enum { ENGINE_CUDA_MAX_DEVICES = 16 };

typedef struct engine_cuda engine_cuda_t;

typedef struct engine_cuda_options {
    engine_cpu_options_t cpu;    /* key loading and the CPU fallback */
    int devices;                 /* use devices 0 .. devices-1 (0: all that the driver shows) */
    engine_gpu_tier_t tier;      /* residency of the keys' queries (AUTO: from the budget) */
    uint64_t device_budget;      /* bytes of each device a key may take (0: free memory less
                                    the working set of the device's workers) */
    unsigned workers_per_device; /* for the working-set estimate (0: 2) */
    uint64_t pinned_limit;       /* bytes the pinned staging pool may hold (0: no limit) */
    uint64_t device_work_limit;  /* bytes of each device the partitions' own buffers may hold
                                    together (engine_gpu_mem_t; 0: what the device has free) */
} engine_cuda_options_t;

/*
 * Opens the devices. With no device (or no driver) *st = CUZK_EDEVICE and
 * err says why, so that the caller can fall back to the CPU backend.
 */
engine_cuda_t *engine_cuda_new(const engine_cuda_options_t *opt, cuzk_status_t *st, char *err,
                               size_t err_size);
void engine_cuda_free(engine_cuda_t *c);

/* The backend table over c (which must outlive the engine using it). */
engine_backend_t engine_cuda_backend(engine_cuda_t *c);

/* How many devices c drives, and a description of device i. */
int engine_cuda_devices(const engine_cuda_t *c);
const char *engine_cuda_device_name(const engine_cuda_t *c, int i);

/*
 * An INSECURE development key of the indexed circuit ix made on every
 * device (engine_gpu_setup.h: the same secrets on each, drawn from rng as
 * groth16_bp_dev_setup draws them), as this backend's key for
 * engine_key_add (format KEY_FORMAT_PARAMS; *bytes its host memory). Its
 * points exist only on the devices: a partition a device fails is not
 * retried on the CPU. *vk = its verifying key (bp_vk_free). With a, the
 * circuit's assignment, into amem (engine_gpu_bp_asgn_bytes; pinned for
 * the fastest staging: engine_cuda_host_alloc). Failures with a message.
 */
cuzk_status_t engine_cuda_dev_setup(engine_cuda_t *c, const r1cs_ix_t *ix, rng_t *rng, void **key,
                                    uint64_t *bytes, bp_vk_t *vk, asgn_t *a, void *amem, char *err,
                                    size_t err_size);

/* Pinned host memory usable by every device (engine_cuda_host_free). */
cuzk_status_t engine_cuda_host_alloc(engine_cuda_t *c, void **p, size_t bytes, char *err,
                                     size_t err_size);
void engine_cuda_host_free(void *p);

/* Totals since engine_cuda_new (each device's summed over its partitions). */
typedef struct engine_cuda_counters {
    uint64_t partitions;     /* proven on a device */
    uint64_t cpu_fallbacks;  /* proven on the CPU after a device failure */
    uint64_t h2d_bytes;      /* host to device (inputs, streamed queries) */
    uint64_t d2h_bytes;      /* device to host */
    uint64_t pageable_bytes; /* bytes that reached a device from pageable memory */
    uint64_t device_partitions[ENGINE_CUDA_MAX_DEVICES]; /* proven on each device */
    uint64_t device_h2d_bytes[ENGINE_CUDA_MAX_DEVICES];  /* host to each device: its link */
    double device_ms[ENGINE_CUDA_MAX_DEVICES]; /* kernel time (synth + h + msm) per device */
    double synth_ms, h_ms, msm_ms;             /* the same by stage, all devices */
    double query_ms[ENGINE_GPU_QUERIES];       /* msm by query (engine_gpu.h's order) */
    double stage_s, lock_wait_s;               /* host staging, waits for the compute lock */
    uint64_t yields; /* partitions' steps that let a more urgent partition in first */
    bool lost[ENGINE_CUDA_MAX_DEVICES];            /* a sticky error took the device out */
    engine_gpu_mem_t mem[ENGINE_CUDA_MAX_DEVICES]; /* each device's partition memory, now */
    engine_pinned_counters_t pinned;               /* the staging buffers' pool */
} engine_cuda_counters_t;

void engine_cuda_counters(engine_cuda_t *c, engine_cuda_counters_t *out);

#endif
