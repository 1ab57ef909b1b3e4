/*
 * The development SRS of supraseal_dev.h: the porep32 circuit's key made
 * on the devices of the library's engine and adopted as an SRS handle.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "r1cs/r1cs_indexed.h"
#include "supraseal/supraseal_dev.h"
#include "supraseal/supraseal_impl.h"
#include "util/rng.h"

#if CUZK_HAVE_CUDA
#include "engine/engine_gpu_setup.h"

supraseal_error_t cuzk_supraseal_dev_srs(supraseal_srs_t *ret, supraseal_dev_t *dev,
                                         uint32_t constraints, uint64_t seed)
{
    if (!ret || !dev)
        return supraseal_fail(CUZK_EINVAL, "cuzk_supraseal_dev_srs: ret or dev is NULL");
    ret->ptr = NULL;
    memset(dev, 0, sizeof *dev);
    engine_t *e;
    char err[CUZK_ERR_MAX] = "";
    cuzk_status_t s = supraseal_engine(&e, err, sizeof err);
    if (s != CUZK_OK)
        return supraseal_fail(s, "cuzk_supraseal_dev_srs: %s", err);
    engine_cuda_t *c = supraseal_cuda();
    if (!c)
        return supraseal_fail(CUZK_EDEVICE, "cuzk_supraseal_dev_srs: the library's engine proves "
                                            "on the CPU; the key is made on a device");
    rng_t rng;
    rng_seed(&rng, seed);
    r1cs_ix_t ix;
    r1cs_gen_params_t gp = r1cs_gen_porep32(constraints);
    if (!r1ix_init(&ix, R1CS_CURVE_BLS12_381, &gp, rng_next(&rng)))
        return supraseal_fail(CUZK_EINVAL, "cuzk_supraseal_dev_srs: no circuit of %u constraints",
                              constraints);
    s = engine_cuda_host_alloc(c, &dev->amem, engine_gpu_bp_asgn_bytes(&ix), err, sizeof err);
    void *key = NULL;
    uint64_t bytes = 0;
    if (s == CUZK_OK)
        s = engine_cuda_dev_setup(c, &ix, &rng, &key, &bytes, &dev->vk, &dev->asgn, dev->amem, err,
                                  sizeof err);
    if (s != CUZK_OK) {
        cuzk_supraseal_dev_free(dev);
        return supraseal_fail(s, "cuzk_supraseal_dev_srs(%u constraints): %s", constraints, err);
    }
    char origin[128];
    snprintf(origin, sizeof origin,
             "INSECURE development key of porep32, %u constraints, seed %" PRIu64, constraints,
             seed);
    supraseal_error_t r = supraseal_srs_adopt(ret, e, origin, key, bytes);
    if (r.code)
        cuzk_supraseal_dev_free(dev);
    return r;
}

void cuzk_supraseal_dev_free(supraseal_dev_t *dev)
{
    if (!dev)
        return;
    engine_cuda_host_free(dev->amem);
    bp_vk_free(&dev->vk);
    memset(dev, 0, sizeof *dev);
}

#else

supraseal_error_t cuzk_supraseal_dev_srs(supraseal_srs_t *ret, supraseal_dev_t *dev,
                                         uint32_t constraints, uint64_t seed)
{
    (void)dev;
    (void)constraints;
    (void)seed;
    if (ret)
        ret->ptr = NULL;
    return supraseal_fail(CUZK_EDEVICE,
                          "cuzk_supraseal_dev_srs: this library was built without CUDA");
}

void cuzk_supraseal_dev_free(supraseal_dev_t *dev)
{
    (void)dev;
}

#endif
