/* Proving keys (cuzk_key.h) over the readers of src/io. */
#include "api/api.h"
#include "api/api_view.h"

#include <stdlib.h>
#include <string.h>

#include "io/io_error.h"
#include "io/io_kind.h"
#include "util/pool.h"

/* The format that kind, a sniffed file kind, stands for, or AUTO when it
 * is none of the three. */
static cuzk_key_format_t key_format_of_kind(io_kind_t kind)
{
    switch (kind) {
    case IO_KIND_ZKEY: return CUZK_KEY_ZKEY;
    case IO_KIND_BP_PARAMS: return CUZK_KEY_PARAMS;
    case IO_KIND_KEY_CACHE:
    case IO_KIND_KEY_CACHE_ZKEY:
    case IO_KIND_KEY_CACHE_PARAMS: return CUZK_KEY_CACHE;
    default: return CUZK_KEY_AUTO;
    }
}

static cuzk_status_t key_check_args(cuzk_key_t **key, cuzk_key_format_t format, unsigned flags)
{
    if (!key)
        return api_null("key");
    *key = NULL;
    if ((unsigned)format > CUZK_KEY_CACHE)
        return api_fail(CUZK_EINVAL, "format %d is not a cuzk_key_format_t", (int)format);
    if (flags & ~(unsigned)(CUZK_KEY_TRUSTED | CUZK_KEY_CHECK_POINTS | CUZK_KEY_MAP))
        return api_fail(CUZK_EINVAL, "flags 0x%x hold bits that are no CUZK_KEY_* flag", flags);
    return CUZK_OK;
}

/* The file reader's format and flags for the public ones. */
static key_format_t key_file_format(cuzk_key_format_t format)
{
    return format == CUZK_KEY_ZKEY     ? KEY_FORMAT_ZKEY
           : format == CUZK_KEY_PARAMS ? KEY_FORMAT_PARAMS
                                       : KEY_FORMAT_CACHE;
}

static unsigned key_file_flags(unsigned flags)
{
    return (flags & CUZK_KEY_TRUSTED ? KEY_FILE_TRUSTED : 0) |
           (flags & CUZK_KEY_CHECK_POINTS ? KEY_FILE_CHECK_POINTS : 0) |
           (flags & CUZK_KEY_MAP ? KEY_FILE_MAP : 0);
}

static cuzk_status_t key_finish(cuzk_key_t **key, cuzk_key_t *k, cuzk_status_t s, const char *err)
{
    if (s != CUZK_OK) {
        free(k);
        return api_fail_err(s, err);
    }
    k->convention = k->file.zkey ? CUZK_CONVENTION_SNARKJS : CUZK_CONVENTION_BELLPERSON;
    *key = k;
    return CUZK_OK;
}

cuzk_status_t cuzk_key_load(cuzk_key_t **key, const char *path, cuzk_key_format_t format,
                            unsigned flags)
{
    cuzk_status_t s = key_check_args(key, format, flags);
    if (s != CUZK_OK)
        return s;
    if (!path)
        return api_null("path");
    char err[IO_ERR_MAX] = "";
    if (format == CUZK_KEY_AUTO) {
        io_kind_t kind;
        s = io_kind_of_file(&kind, path, err, sizeof err);
        if (s != CUZK_OK)
            return api_fail_err(s, err);
        format = key_format_of_kind(kind);
        if (format == CUZK_KEY_AUTO)
            return api_fail(CUZK_EBADFILE,
                            "%s: %s, not a proving key (.zkey, .params or a cuzk key cache)", path,
                            io_kind_name(kind));
    }
    cuzk_key_t *k = calloc(1, sizeof *k);
    if (!k)
        return api_fail(CUZK_ENOMEM, "%s: out of memory for the key", path);
    s = key_file_read(&k->file, key_file_format(format), path, pool_default(),
                      key_file_flags(flags), err, sizeof err);
    return key_finish(key, k, s, err);
}

cuzk_status_t cuzk_key_from_memory(cuzk_key_t **key, const void *data, size_t size,
                                   cuzk_key_format_t format, unsigned flags, const char *name)
{
    cuzk_status_t s = key_check_args(key, format, flags);
    if (s != CUZK_OK)
        return s;
    if (!data)
        return api_null("data");
    if (!name)
        name = "the key";
    if (format == CUZK_KEY_AUTO) {
        io_kind_t kind = io_kind_sniff(data, size);
        format = key_format_of_kind(kind);
        if (format == CUZK_KEY_AUTO)
            return api_fail(CUZK_EBADFILE,
                            "%s: %s, not a proving key (.zkey, .params or a cuzk key cache)", name,
                            io_kind_name(kind));
    }
    cuzk_key_t *k = calloc(1, sizeof *k);
    if (!k)
        return api_fail(CUZK_ENOMEM, "%s: out of memory for the key", name);
    char err[IO_ERR_MAX] = "";
    s = key_file_parse(&k->file, key_file_format(format), data, size, name, pool_default(),
                       key_file_flags(flags), err, sizeof err);
    return key_finish(key, k, s, err);
}

void cuzk_key_free(cuzk_key_t *key)
{
    if (!key)
        return;
    key_file_free(&key->file);
    free(key);
}

cuzk_curve_t cuzk_key_curve(const cuzk_key_t *key)
{
    if (!key)
        return CUZK_CURVE_NONE;
    return key->file.key.curve == R1CS_CURVE_BN254 ? CUZK_CURVE_BN254 : CUZK_CURVE_BLS12_381;
}

cuzk_convention_t cuzk_key_convention(const cuzk_key_t *key)
{
    return key ? key->convention : CUZK_CONVENTION_SNARKJS;
}

cuzk_key_format_t cuzk_key_format(const cuzk_key_t *key)
{
    if (!key)
        return CUZK_KEY_AUTO;
    return key->file.format == KEY_FORMAT_ZKEY     ? CUZK_KEY_ZKEY
           : key->file.format == KEY_FORMAT_PARAMS ? CUZK_KEY_PARAMS
                                                   : CUZK_KEY_CACHE;
}

uint64_t cuzk_key_domain_size(const cuzk_key_t *key)
{
    return key ? key->file.key.domain_size : 0;
}

uint64_t cuzk_key_public_inputs(const cuzk_key_t *key)
{
    return key ? key->file.key.n_public : 0;
}

uint64_t cuzk_key_wires(const cuzk_key_t *key)
{
    return key ? key->file.key.n_vars : 0;
}

const struct groth16_key *api_key_groth16(const cuzk_key_t *key)
{
    return &key->file.key;
}
