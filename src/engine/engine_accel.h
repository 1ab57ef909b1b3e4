/*
 * Where one proof at a time runs its stages synth, h and msm outside the
 * engine's scheduling: the CPU, or the first GPU through the GPU partition
 * prover (engine_gpu.h) as a Groth16 accelerator (groth16_accel_t), with
 * the device handle, the key on the device and one slot of working
 * buffers held from engine_accel_new to engine_accel_free. The front ends
 * that prove partition by partition take it: cuzk prove, cuzk demo, and
 * the public API's cuzk_prover_t.
 *
 * Threads: proofs through one accelerator from several threads take turns
 * at the device (its msms holds a lock for the whole of a proof's device
 * work); the rest of each proof runs on the callers' threads.
 */
#ifndef CUZK_ENGINE_ENGINE_ACCEL_H
#define CUZK_ENGINE_ENGINE_ACCEL_H

#include <stddef.h>

#include "cuzk.h"
#include "groth16/groth16_common.h"
#include "groth16/groth16_key.h"

/* Where a proof's stages run. */
typedef enum engine_accel_kind {
    ENGINE_ACCEL_AUTO, /* the first GPU when CUDA was built and a device is usable, else the CPU */
    ENGINE_ACCEL_CPU,
    ENGINE_ACCEL_CUDA, /* the first GPU, or an error */
} engine_accel_kind_t;

typedef struct engine_accel engine_accel_t;

/*
 * *out for key (whose arrays must outlive *out; the struct itself may go
 * on return) on kind. On a GPU the key is placed on the device here
 * (engine_gpu_key_new: its queries resident when they fit, else pinned or
 * mapped). Fails (CUZK_EDEVICE with the reason) when kind is CUDA and no
 * device can be used, or when the device fails; AUTO falls back to the CPU
 * only when there is no usable device at all (engine_accel_note says
 * why). CUZK_ENOMEM.
 */
cuzk_status_t engine_accel_new(engine_accel_t **out, engine_accel_kind_t kind,
                               const groth16_key_t *key, char *err, size_t err_size);

/* The accelerator to put in groth16_prove_opts_t; NULL: prove on the CPU. */
const groth16_accel_t *engine_accel_table(const engine_accel_t *a);

/* "cpu" (also for a NULL a), or "cuda: NVIDIA H200 (device 0, 139.8 GiB),
 * key device-resident". */
const char *engine_accel_name(const engine_accel_t *a);

/* Why an AUTO accelerator proves on the CPU although CUDA was built ("no
 * GPU is usable: ..."), or NULL when it did not fall back (a build without
 * CUDA has nothing to fall back from; a NULL a). */
const char *engine_accel_note(const engine_accel_t *a);

/* Releases a and what it holds on the device; NULL is fine. No proof may be
 * running through it. */
void engine_accel_free(engine_accel_t *a);

#endif
