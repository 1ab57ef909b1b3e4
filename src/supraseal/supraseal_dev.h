/*
 * A development SRS for benchmarks at full size, outside supraseal-c2's
 * ABI. A PoRep partition of 130 M constraints has a key of about 75 GB: no
 * CPU makes it in reasonable time and no benchmark host has the disk for its
 * .params file. The Curio variant of the library (libcuzk_supraseal_curio.so)
 * therefore also exports these two functions, which `cuzk bench supraseal
 * --key device` finds with dlsym: the INSECURE development key of the
 * porep32-shaped indexed circuit (r1cs/r1cs_indexed.h) made on the devices
 * of the library's engine (engine_cuda_dev_setup: the points never leave
 * them), registered as an SRS handle the ABI's calls take like one from
 * create_SRS, and the circuit's assignment in host memory, from which the
 * caller makes the a, b, c, inputs and aux it hands to the ABI. The names
 * carry the cuzk_ prefix so that they cannot meet one of supraseal-c2's.
 */
#ifndef CUZK_SUPRASEAL_SUPRASEAL_DEV_H
#define CUZK_SUPRASEAL_SUPRASEAL_DEV_H

#include <stdint.h>

#include "io/asgn_file.h"
#include "io/params_file.h"
#include "supraseal/supraseal.h"

typedef struct supraseal_dev {
    asgn_t asgn; /* canonical form; its arrays in amem */
    bp_vk_t vk;  /* to verify the proofs with */
    void *amem;  /* pinned host memory of the library's engine */
} supraseal_dev_t;

/*
 * *ret = an SRS handle (drop_SRS) of the development key of the porep32
 * circuit of constraints rows whose generator and secrets are drawn from
 * seed as `cuzk bench porep32` draws them; *dev = its assignment and
 * verifying key (cuzk_supraseal_dev_free). Needs the engine on a device:
 * else code CUZK_EDEVICE; CUZK_EINVAL for a size the generator cannot make,
 * CUZK_ENOMEM, each with a message.
 */
SUPRASEAL_API supraseal_error_t cuzk_supraseal_dev_srs(supraseal_srs_t *ret, supraseal_dev_t *dev,
                                                       uint32_t constraints, uint64_t seed);

/* Frees what cuzk_supraseal_dev_srs put in dev (NULL or zeroed: nothing). */
SUPRASEAL_API void cuzk_supraseal_dev_free(supraseal_dev_t *dev);

#endif
