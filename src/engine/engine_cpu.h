/*
 * The CPU backend of the engine (engine_backend.h): keys are read into host
 * memory (a .zkey stays mapped, .params points are decoded into arrays, a
 * key cache is read with one sequential read into one buffer: the
 * residency tier "host"), and every stage runs on the worker's own thread
 * pool through the Groth16 layer (groth16_prove for zkeys with .wtns
 * witnesses, groth16_bp_prove for .params with assignments, from .asgn
 * files or held in memory; a key cache as its kind says). Every proof is
 * verified against the key before it is returned.
 */
#ifndef CUZK_ENGINE_ENGINE_CPU_H
#define CUZK_ENGINE_ENGINE_CPU_H

#include <stdbool.h>

#include "cuzk.h"
#include "engine/engine_backend.h"

typedef struct engine_cpu engine_cpu_t;

typedef struct engine_cpu_options {
    unsigned load_threads; /* threads that check a key's points while it loads (0: all) */
    bool trusted_keys;     /* skip the subgroup checks of query points (ZKEY_TRUSTED);
                              a key cache is always trusted for them (docs/KEYCACHE.md) */
} engine_cpu_options_t;

/* NULL with *st = CUZK_ENOMEM when the load pool cannot start. */
engine_cpu_t *engine_cpu_new(const engine_cpu_options_t *opt, cuzk_status_t *st);
void engine_cpu_free(engine_cpu_t *cpu);

/* The backend table over cpu (which must outlive the engine using it). */
engine_backend_t engine_cpu_backend(engine_cpu_t *cpu);

/* For backends built on this one (engine_cuda.h), which load keys through
 * its key_load and add a device copy. */
struct bp_params;
struct groth16_accel;
struct groth16_key;
struct cuzk_pool;

/* The Groth16 layer's view of a key of this backend (from key_load or
 * engine_cpu_key_from_params): its convention, counts and points, which
 * live as long as the key. */
const struct groth16_key *engine_cpu_key_groth16(const void *key);

/* A key of this backend made from params in memory (moved in: p is left
 * empty), for engine_key_add; *bytes = the host memory it holds. Its query
 * arrays may be NULL (a development key made on the device, whose points
 * live only there): only an accelerator can then prove with it. */
cuzk_status_t engine_cpu_key_from_params(void **key, uint64_t *bytes, struct bp_params *p);

/* Whether key holds its query points in host memory (else the CPU cannot
 * prove with it). */
bool engine_cpu_key_has_points(const void *key);

/* One partition as the CPU backend's prove does it, on pool's threads,
 * with the stages synth, h and msm handed to accel (NULL: the CPU). */
cuzk_status_t engine_cpu_prove_with(const void *key, engine_key_format_t format,
                                    struct cuzk_pool *pool, const struct groth16_accel *accel,
                                    const engine_input_t *in, engine_stage_report_fn report,
                                    void *rctx, engine_result_t *out, char *err, size_t err_size);

#endif
