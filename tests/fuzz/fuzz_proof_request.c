/*
 * The body of cuzkd's POST /v1/proofs through api_proof_request_parse, as
 * api.c calls it: it must accept with a request api.c can submit (1 to
 * CUZKD_MAX_PARTITIONS inputs, each a path or checked witness bytes) and
 * no answer set, or refuse with a 400, or a 413 for a body of too many
 * JSON values, whose body is the error JSON of http.h (a 500 means memory
 * ran out, which it does not here).
 */
#include "fuzz_refusal.h"
#include "fuzz_util.h"

#include "daemon/api_request.h"
#include "daemon/daemon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    http_response_t resp = {0};
    api_proof_request_t r;
    if (api_proof_request_parse(&r, (const char *)data, size, &resp) == 0) {
        FUZZ_CHECK(resp.status == 0 && resp.body == NULL);
        FUZZ_CHECK(r.key && r.n >= 1 && r.n <= CUZKD_MAX_PARTITIONS);
        for (size_t i = 0; i < r.n; i++) {
            const api_proof_input_t *in = &r.inputs[i];
            if (in->kind == ENGINE_INPUT_WTNS_BYTES)
                FUZZ_CHECK(in->bytes && !in->path);
            else
                FUZZ_CHECK(
                    in->path && !in->bytes &&
                    (in->kind == ENGINE_INPUT_WTNS_PATH || in->kind == ENGINE_INPUT_ASGN_PATH));
        }
        api_proof_request_free(&r);
        return 0;
    }
    FUZZ_CHECK(r.root == NULL && r.inputs == NULL);
    fuzz_check_refusal(&resp);
    return 0;
}
