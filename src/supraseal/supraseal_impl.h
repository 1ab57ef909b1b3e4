/*
 * What the files of src/supraseal share: the one engine of the process,
 * the parameters behind an SRS handle, and the error values of the ABI.
 */
#ifndef CUZK_SUPRASEAL_SUPRASEAL_IMPL_H
#define CUZK_SUPRASEAL_SUPRASEAL_IMPL_H

#include <stdarg.h>

#include "cuzk.h"
#include "engine/engine.h"
#include "supraseal/supraseal.h"
#include "util/fail.h"
#include "util/pool.h"
#if CUZK_HAVE_CUDA
#include "engine/engine_cuda.h"
#endif

/*
 * The process's engine, made on the first call (CUZK_OK) or the reason it
 * could not be (*err, malloc'd by the caller's buffer). Configured from the
 * environment (docs/FILECOIN.md): CUZK_SUPRASEAL_BACKEND = auto (the
 * default: CUDA when the build has it and a device answers, else the CPU),
 * cuda or cpu; CUZK_SUPRASEAL_THREADS (0: every processor);
 * CUZK_SUPRASEAL_TRUSTED_KEYS = 1 skips the subgroup checks of the
 * parameters' points on load.
 */
cuzk_status_t supraseal_engine(engine_t **e, char *err, size_t err_size);

/* How many devices the engine drives (0: it proves on the CPU). */
int supraseal_devices(void);

#if CUZK_HAVE_CUDA
/* The engine's CUDA backend (NULL: it proves on the CPU). */
engine_cuda_t *supraseal_cuda(void);
#endif

/* The pool that checks (and copies) the circuits' scalars, one call's
 * intake at a time: supraseal_pool_take returns it locked,
 * supraseal_pool_give unlocks. */
pool_t *supraseal_pool_take(void);
void supraseal_pool_give(void);

/* The parameters of one path: one engine key, shared by every handle. */
typedef struct supraseal_params {
    char name[ENGINE_ID_MAX + 1]; /* the engine key's */
    char *path;
    unsigned handles; /* SRS references, and one more while cached */
    bool cached;
    struct supraseal_params *next;
} supraseal_params_t;

/* Another reference to h's parameters (NULL: h is no live handle),
 * released by supraseal_params_drop. */
supraseal_params_t *supraseal_params_ref(const supraseal_srs_t *h);
void supraseal_params_drop(supraseal_params_t *p);

/* *ret = a handle (drop_SRS) of a key the backend built outside a load
 * (engine_key_add's data and bytes, owned by the engine afterwards, also on
 * failure), listed as origin: cuzk_supraseal_dev_srs's. */
supraseal_error_t supraseal_srs_adopt(supraseal_srs_t *ret, engine_t *e, const char *origin,
                                      void *key, uint64_t bytes);

/* The error values of the ABI: success, or code with a formatted message. */
supraseal_error_t supraseal_ok(void);
__attribute__((format(printf, 2, 3))) supraseal_error_t supraseal_fail(cuzk_status_t code,
                                                                       const char *fmt, ...);

#endif
