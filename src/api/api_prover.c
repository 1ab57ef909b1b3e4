/* Where the synchronous proofs of one key run (cuzk_prover_t, cuzk_prove.h):
 * the engine's one-proof-at-a-time accelerator and, optionally, a thread
 * pool of the prover's own. */
#include "api/api.h"

#include <stdlib.h>

#include "engine/engine_accel.h"
#include "io/io_error.h"

cuzk_status_t cuzk_prover_new(cuzk_prover_t **prover, const cuzk_key_t *key, cuzk_backend_t backend,
                              unsigned threads)
{
    if (!prover)
        return api_null("prover");
    *prover = NULL;
    if (!key)
        return api_null("key");
    engine_accel_kind_t kind;
    switch (backend) {
    case CUZK_BACKEND_CPU: kind = ENGINE_ACCEL_CPU; break;
    case CUZK_BACKEND_AUTO: kind = ENGINE_ACCEL_AUTO; break;
    case CUZK_BACKEND_CUDA: kind = ENGINE_ACCEL_CUDA; break;
    default: return api_fail(CUZK_EINVAL, "backend %d is not a cuzk_backend_t", (int)backend);
    }
    if (threads > API_MAX_THREADS)
        return api_fail(CUZK_EINVAL, "threads %u: at most %d", threads, API_MAX_THREADS);
    cuzk_prover_t *p = calloc(1, sizeof *p);
    if (!p)
        return api_fail(CUZK_ENOMEM, "out of memory for the prover");
    p->key = key;
    cuzk_status_t s = CUZK_OK;
    if (threads && !(p->pool = pool_new(threads, &s))) {
        free(p);
        return api_fail(s, "cannot start %u threads", threads);
    }
    char err[IO_ERR_MAX] = "";
    s = engine_accel_new(&p->accel, kind, &key->file.key, err, sizeof err);
    if (s != CUZK_OK) {
        pool_free(p->pool);
        free(p);
        return api_fail_err(s, err);
    }
    *prover = p;
    return CUZK_OK;
}

void cuzk_prover_free(cuzk_prover_t *prover)
{
    if (!prover)
        return;
    engine_accel_free(prover->accel);
    pool_free(prover->pool);
    free(prover);
}

const char *cuzk_prover_backend(const cuzk_prover_t *prover)
{
    return prover ? engine_accel_name(prover->accel) : "cpu";
}

const char *cuzk_prover_note(const cuzk_prover_t *prover)
{
    return prover ? engine_accel_note(prover->accel) : NULL;
}
