/*
 * The CPU backend of the engine (engine_backend.h): keys are read into host
 * memory (io/key_file.h: a .zkey is copied, .params points are decoded, a
 * key cache is read with one sequential read into one buffer: the
 * residency tier "host"), and every stage runs on the worker's own thread
 * pool through the Groth16 layer (engine_partition.h: a .zkey proves
 * .wtns witnesses, a .params bellperson assignments from .asgn files or
 * held in memory, a key cache as its kind says). Every proof is verified
 * against the key before it is returned.
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

/*
 * For backends built on this one (engine_cuda.h), which load keys through
 * its key_load and add a device copy: the CPU backend's key is a
 * key_file_t (io/key_file.h), which they read as such, and every partition
 * is proven by engine_partition_prove over it.
 */
struct bp_params;

/* A key of this backend made from params in memory (moved in: p is left
 * empty), for engine_key_add; *bytes = the host memory it holds. Its query
 * arrays may be NULL (a development key made on the device, whose points
 * live only there): only an accelerator can then prove with it
 * (key_file_has_points). */
cuzk_status_t engine_cpu_key_from_params(void **key, uint64_t *bytes, struct bp_params *p);

#endif
