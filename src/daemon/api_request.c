#include "daemon/api_request.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/base64.h"
#include "daemon/daemon.h"
#include "io/io_error.h"
#include "io/wtns_file.h"
#include "r1cs/r1cs.h"

/* A job of CUZKD_MAX_PARTITIONS witnesses with a few members each fits. */
enum { API_MAX_JSON_VALUES = 16384 };

/*
 * The number of JSON values in text (objects, arrays and the members and
 * elements inside them), counted without parsing: one per '{' and '[' and
 * one more per ',' outside strings. Counting stops past limit.
 */
static size_t api_json_values(const char *text, size_t len, size_t limit)
{
    size_t n = 1;
    bool in_string = false;
    for (size_t i = 0; i < len && n <= limit; i++) {
        char ch = text[i];
        if (in_string) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_string = false;
        } else if (ch == '"') {
            in_string = true;
        } else if (ch == '{' || ch == '[' || ch == ',') {
            n++;
        }
    }
    return n;
}

json_t *api_body_object(const char *body, size_t len, http_response_t *resp)
{
    /* A parsed value costs the parser tens of bytes however short its text
     * ("0," is two): bounding the count keeps a request's memory within a
     * small multiple of its body. */
    if (api_json_values(body, len, API_MAX_JSON_VALUES) > API_MAX_JSON_VALUES) {
        http_error(resp, 413, "body_too_large", "the body holds more than %d JSON values",
                   API_MAX_JSON_VALUES);
        return NULL;
    }
    json_error_t je;
    json_t *root = json_loadb(body, len, 0, &je);
    if (!root) {
        http_error(resp, 400, "malformed_json", "line %d, column %d: %s", je.line, je.column,
                   je.text);
        return NULL;
    }
    if (!json_is_object(root)) {
        json_decref(root);
        http_error(resp, 400, "invalid_request", "the body must be a JSON object");
        return NULL;
    }
    return root;
}

int api_string(json_t *o, const char *name, const char **out, const char *where,
               http_response_t *resp)
{
    json_t *v = json_object_get(o, name);
    *out = NULL;
    if (!v)
        return 0;
    if (!json_is_string(v)) {
        http_error(resp, 400, "invalid_request", "%s%s: expected a string", where, name);
        return -1;
    }
    *out = json_string_value(v);
    return 0;
}

/* Partition i's input from its JSON object w; -1 after answering 400. */
static int api_proof_input(json_t *w, size_t i, api_proof_input_t *in, http_response_t *resp)
{
    char where[64];
    snprintf(where, sizeof where, "witness[%zu].", i);
    if (!json_is_object(w)) {
        http_error(resp, 400, "invalid_request",
                   "%s: expected an object with one of path, wtns_base64, assignment_path", where);
        return -1;
    }
    const char *p, *b64, *asgn;
    if (api_string(w, "path", &p, where, resp) || api_string(w, "wtns_base64", &b64, where, resp) ||
        api_string(w, "assignment_path", &asgn, where, resp))
        return -1;
    if ((p != NULL) + (b64 != NULL) + (asgn != NULL) != 1) {
        http_error(resp, 400, "invalid_request",
                   "%s: give exactly one of path, wtns_base64, assignment_path", where);
        return -1;
    }
    if (!b64) {
        in->kind = p ? ENGINE_INPUT_WTNS_PATH : ENGINE_INPUT_ASGN_PATH;
        in->path = p ? p : asgn;
        return 0;
    }
    if (base64_decode(&in->bytes, &in->len, b64, strlen(b64)) != 0) {
        http_error(resp, 400, "bad_witness", "%swtns_base64: not canonical base64", where);
        return -1;
    }
    char err[IO_ERR_MAX];
    r1cs_witness_t check = {0};
    cuzk_status_t s =
        wtns_file_parse(&check, in->bytes, in->len, "the witness", NULL, err, sizeof err);
    r1cs_witness_free(&check);
    if (s != CUZK_OK) {
        http_error(resp, 400, "bad_witness", "%swtns_base64: %s", where, err);
        return -1;
    }
    in->kind = ENGINE_INPUT_WTNS_BYTES;
    return 0;
}

/* The members besides witness; -1 after answering 400. */
static int api_proof_members(api_proof_request_t *r, http_response_t *resp)
{
    const char *prio;
    if (api_string(r->root, "key", &r->key, "", resp) ||
        api_string(r->root, "priority", &prio, "", resp) ||
        api_string(r->root, "id", &r->id, "", resp))
        return -1;
    if (!r->key) {
        http_error(resp, 400, "invalid_request", "key: required");
        return -1;
    }
    int p = prio ? engine_priority_from_name(prio) : ENGINE_PRIORITY_NORMAL;
    if (p < 0) {
        http_error(resp, 400, "invalid_request",
                   "priority: expected low, normal, high or critical, not '%s'", prio);
        return -1;
    }
    r->priority = (engine_priority_t)p;
    if (r->id && !engine_id_valid(r->id)) {
        http_error(resp, 400, "invalid_request",
                   "id: expected 1 to %d characters of A-Z a-z 0-9 . _ - (not starting with . or "
                   "-)",
                   ENGINE_ID_MAX);
        return -1;
    }
    return 0;
}

int api_proof_request_parse(api_proof_request_t *r, const char *body, size_t len,
                            http_response_t *resp)
{
    memset(r, 0, sizeof(*r));
    if (!(r->root = api_body_object(body, len, resp)))
        return -1;
    json_t *w = json_object_get(r->root, "witness");
    size_t n = json_is_array(w) ? json_array_size(w) : 1;
    if (api_proof_members(r, resp))
        goto fail;
    if (!w || n == 0 || n > CUZKD_MAX_PARTITIONS) {
        http_error(resp, 400, "invalid_request",
                   "witness: required, an object or an array of 1 to %d objects",
                   CUZKD_MAX_PARTITIONS);
        goto fail;
    }
    if (!(r->inputs = calloc(n, sizeof *r->inputs))) {
        http_error(resp, 500, "internal", "out of memory");
        goto fail;
    }
    r->n = n;
    for (size_t i = 0; i < n; i++)
        if (api_proof_input(json_is_array(w) ? json_array_get(w, i) : w, i, &r->inputs[i], resp))
            goto fail;
    return 0;
fail:
    api_proof_request_free(r);
    return -1;
}

void api_proof_request_free(api_proof_request_t *r)
{
    for (size_t i = 0; r->inputs && i < r->n; i++)
        free(r->inputs[i].bytes);
    free(r->inputs);
    json_decref(r->root);
    memset(r, 0, sizeof(*r));
}

/* The format named by the request, or inferred from the file's extension
 * (.zkey, .params; .cuzkkey for a key cache, which `cuzk convert` writes);
 * -1 after answering 400. */
static int api_key_format(const char *format, const char *path, http_response_t *resp)
{
    if (!format) {
        const char *dot = strrchr(path, '.');
        format = !dot ? "" : !strcmp(dot, ".cuzkkey") ? "cache" : dot + 1;
    }
    int f = engine_key_format_from_name(format);
    if (f < 0)
        http_error(resp, 400, "invalid_request",
                   "format: expected \"zkey\", \"params\" or \"cache\" (or a path ending in "
                   ".zkey, .params or .cuzkkey), not '%s'",
                   format);
    return f;
}

int api_key_request_parse(api_key_request_t *r, const char *body, size_t len, http_response_t *resp)
{
    memset(r, 0, sizeof(*r));
    if (!(r->root = api_body_object(body, len, resp)))
        return -1;
    const char *format;
    int f;
    if (api_string(r->root, "name", &r->name, "", resp) ||
        api_string(r->root, "path", &r->path, "", resp) ||
        api_string(r->root, "format", &format, "", resp))
        goto fail;
    if (!r->name || !engine_id_valid(r->name)) {
        http_error(resp, 400, "invalid_request",
                   "name: expected 1 to %d characters of A-Z a-z 0-9 . _ - (not starting with . "
                   "or -)",
                   ENGINE_ID_MAX);
        goto fail;
    }
    if (!r->path) {
        http_error(resp, 400, "invalid_request", "path: required");
        goto fail;
    }
    if ((f = api_key_format(format, r->path, resp)) < 0)
        goto fail;
    r->format = (key_format_t)f;
    return 0;
fail:
    api_key_request_free(r);
    return -1;
}

void api_key_request_free(api_key_request_t *r)
{
    json_decref(r->root);
    memset(r, 0, sizeof(*r));
}
