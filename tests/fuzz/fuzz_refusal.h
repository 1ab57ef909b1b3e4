/*
 * The check shared by the fuzz targets of cuzkd's request bodies: a refused
 * body is answered 400, or 413 for too many JSON values, and the answer's
 * body is the error JSON of http.h, {"error": {"code": "...", ...}}. Frees
 * the answer's body.
 */
#ifndef CUZK_TESTS_FUZZ_FUZZ_REFUSAL_H
#define CUZK_TESTS_FUZZ_FUZZ_REFUSAL_H

#include <jansson.h>

#include "fuzz_util.h"

#include "daemon/http.h"

static inline void fuzz_check_refusal(http_response_t *resp)
{
    FUZZ_CHECK(resp->status == 400 || resp->status == 413);
    FUZZ_CHECK(resp->body != NULL);
    json_t *j = json_loads(resp->body, 0, NULL);
    FUZZ_CHECK(json_is_string(json_object_get(json_object_get(j, "error"), "code")));
    json_decref(j);
    free(resp->body);
    resp->body = NULL;
}

#endif
