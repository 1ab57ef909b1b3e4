/*
 * An INSECURE development key made on the device, for benchmarks at full
 * size (`cuzk bench porep32` at 2^27 rows): the indexed synthetic circuit
 * (r1cs/r1cs_indexed.h), its witness and assignment, and a Groth16 key in
 * bellperson's convention, computed on one GPU with the kernels of
 * src/cuda/gpu_setup.h, the key's queries left where they are used. The
 * same secrets and the same circuit on the CPU (r1cs_generate_indexed,
 * groth16_bp_dev_setup, groth16_bp_assign, from a generator seeded alike)
 * give byte-identical points and assignment: test_engine_gpu_setup checks
 * it.
 */
#ifndef CUZK_ENGINE_ENGINE_GPU_SETUP_H
#define CUZK_ENGINE_ENGINE_GPU_SETUP_H

#include <stddef.h>

#include "engine/engine_gpu.h"
#include "io/asgn_file.h"
#include "io/params_file.h"
#include "r1cs/r1cs_indexed.h"
#include "util/rng.h"

/* Bytes of the assignment block of ix's circuit (as groth16_bp_assign
 * lays it out: a, b, c over the rows and the input rows, the wires, the
 * three density bitmaps). */
size_t engine_gpu_bp_asgn_bytes(const r1cs_ix_t *ix);

/*
 * The development key of ix (a BLS12-381 circuit; else CUZK_EUNSUPPORTED)
 * on d, the secrets τ, α, β, γ, δ drawn from rng as groth16_bp_dev_setup
 * draws them: *key holds the five queries in device memory (tier device;
 * engine_gpu_key_free), p the verifying key and the counts (its query
 * arrays NULL: there is no host copy; bp_params_free). With a (not NULL),
 * also the assignment of the circuit's witness into amem
 * (engine_gpu_bp_asgn_bytes of host memory, pinned for the fastest
 * staging), which a then describes (its arrays in amem; not to be freed
 * with asgn_free). The device needs about 5 + 3/8 elements of work memory
 * per wire (freed on return) on top of the key. CUZK_EINVAL for a domain
 * beyond 2^31, CUZK_ENOMEM, CUZK_EDEVICE with a message.
 */
cuzk_status_t engine_gpu_bp_dev_setup(engine_gpu_key_t **key, bp_params_t *p, asgn_t *a, void *amem,
                                      engine_gpu_dev_t *d, const r1cs_ix_t *ix, rng_t *rng,
                                      char *err, size_t err_size);

#endif
