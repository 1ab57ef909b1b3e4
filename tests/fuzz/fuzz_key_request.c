/*
 * The body of cuzkd's POST /v1/keys through api_key_request_parse, as
 * api.c calls it: it must accept with a request api.c can load (a valid
 * name, a path, one of the key formats) and no answer set, or refuse with
 * a 400, or a 413 for a body of too many JSON values, whose body is the
 * error JSON of http.h (a 500 means memory ran out, which it does not
 * here).
 */
#include "fuzz_refusal.h"
#include "fuzz_util.h"

#include "daemon/api_request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    http_response_t resp = {0};
    api_key_request_t r;
    if (api_key_request_parse(&r, (const char *)data, size, &resp) == 0) {
        FUZZ_CHECK(resp.status == 0 && resp.body == NULL);
        FUZZ_CHECK(r.name && engine_id_valid(r.name) && r.path);
        FUZZ_CHECK((unsigned)r.format < KEY_FORMATS);
        api_key_request_free(&r);
        return 0;
    }
    FUZZ_CHECK(r.root == NULL && r.name == NULL && r.path == NULL);
    fuzz_check_refusal(&resp);
    return 0;
}
