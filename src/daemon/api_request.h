/*
 * The request bodies of cuzkd's routes (api.c), parsed and checked apart
 * from the server and the engine, so that what a client can send is one
 * function of the bytes (the fuzzers tests/fuzz/fuzz_proof_request.c and
 * fuzz_key_request.c call them as api.c does).
 *
 * Each function answers a refusal itself: on failure it has set resp to
 * the 400 (413 for a body of too many values, 500 out of memory) error
 * body of http.h and returns NULL or -1.
 */
#ifndef CUZK_DAEMON_API_REQUEST_H
#define CUZK_DAEMON_API_REQUEST_H

#include <stddef.h>

#include <jansson.h>

#include "daemon/http.h"
#include "engine/engine.h"

/* The len bytes of body as a JSON object (the caller's: json_decref). NULL
 * after answering 400 malformed_json or invalid_request, or 413
 * body_too_large for more than 16384 JSON values (objects, arrays, members
 * and elements), which are refused before the parser builds them. */
json_t *api_body_object(const char *body, size_t len, http_response_t *resp);

/* The string member name of o: *out = its value (borrowed from o), or NULL
 * when absent. -1 after answering 400 when present but not a string; where
 * prefixes the member's name in the message ("" or "witness[3]."). */
int api_string(json_t *o, const char *name, const char **out, const char *where,
               http_response_t *resp);

/* One partition of POST /v1/proofs. */
typedef struct api_proof_input {
    engine_input_kind_t kind; /* ENGINE_INPUT_WTNS_PATH, _WTNS_BYTES or _ASGN_PATH */
    const char *path;         /* the paths: as the client gave it, not resolved */
    unsigned char *bytes;     /* _WTNS_BYTES: the decoded .wtns, checked by its reader */
    size_t len;
} api_proof_input_t;

/* The body of POST /v1/proofs (docs/DAEMON.md): {"key", "priority"?, "id"?,
 * "witness": one input object or an array of 1 to CUZKD_MAX_PARTITIONS}. */
typedef struct api_proof_request {
    json_t *root; /* the body; key, id and the paths point into it */
    const char *key;
    const char *id; /* NULL: the engine draws one */
    engine_priority_t priority;
    size_t n;
    api_proof_input_t *inputs;
} api_proof_request_t;

/* Parses and checks the len bytes of body into r (api_proof_request_free):
 * every member's type, the priority's and id's syntax, the count of
 * partitions, exactly one of path, wtns_base64, assignment_path in each,
 * inline witnesses canonical base64 that wtns_file_parse accepts. Paths
 * are left to the caller to resolve. -1 after answering (r empty). */
int api_proof_request_parse(api_proof_request_t *r, const char *body, size_t len,
                            http_response_t *resp);

/* Releases what r holds and zeroes it; an empty r is fine. */
void api_proof_request_free(api_proof_request_t *r);

/* The body of POST /v1/keys (docs/DAEMON.md): {"name", "path", "format"?}. */
typedef struct api_key_request {
    json_t *root;        /* the body; name and path point into it */
    const char *name;    /* engine_id_valid */
    const char *path;    /* as the client gave it, not resolved */
    key_format_t format; /* given, or told by the path's extension */
} api_key_request_t;

/* Parses and checks the len bytes of body into r (api_key_request_free):
 * every member's type, the name's syntax, a path, and a format that is
 * zkey, params or cache, or left out for a path ending in .zkey, .params
 * or .cuzkkey. The path is left to the caller to resolve. -1 after
 * answering (r empty). */
int api_key_request_parse(api_key_request_t *r, const char *body, size_t len,
                          http_response_t *resp);

/* Releases what r holds and zeroes it; an empty r is fine. */
void api_key_request_free(api_key_request_t *r);

#endif
