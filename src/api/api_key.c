/* Proving keys (cuzk_key.h) over the readers of src/io. */
#include "api/api.h"

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
    if (flags & ~(unsigned)(CUZK_KEY_TRUSTED | CUZK_KEY_CHECK_POINTS))
        return api_fail(CUZK_EINVAL, "flags 0x%x hold bits that are no CUZK_KEY_* flag", flags);
    return CUZK_OK;
}

/* The key's convention from what was loaded into it. */
static void key_settle(cuzk_key_t *k, cuzk_key_format_t format)
{
    k->format = format;
    if (format == CUZK_KEY_CACHE) {
        k->convention = k->cache.hdr.kind == KEY_CACHE_ZKEY ? CUZK_CONVENTION_SNARKJS
                                                            : CUZK_CONVENTION_BELLPERSON;
        if (k->convention == CUZK_CONVENTION_SNARKJS)
            k->zkey = k->cache.zkey;
        else
            k->params = k->cache.params;
    } else {
        k->convention =
            format == CUZK_KEY_ZKEY ? CUZK_CONVENTION_SNARKJS : CUZK_CONVENTION_BELLPERSON;
    }
}

/* Loads the key in k from path (data NULL) or from data, of a known format. */
static cuzk_status_t key_read(cuzk_key_t *k, const char *path, const unsigned char *data,
                              size_t size, const char *name, cuzk_key_format_t format,
                              unsigned flags, char *err, size_t err_size)
{
    cuzk_pool_t *pool = cuzk_pool_default();
    bool trusted = flags & CUZK_KEY_TRUSTED;
    unsigned cache_flags = flags & CUZK_KEY_CHECK_POINTS ? KEY_CACHE_CHECK_POINTS : 0;
    switch (format) {
    case CUZK_KEY_ZKEY:
        return data ? zkey_file_parse(&k->zkey, data, size, name, pool, trusted ? ZKEY_TRUSTED : 0,
                                      NULL, err, err_size)
                    : zkey_file_read(&k->zkey, path, pool, ZKEY_COPY | (trusted ? ZKEY_TRUSTED : 0),
                                     err, err_size);
    case CUZK_KEY_PARAMS:
        return data ? bp_params_parse(&k->params, data, size, name, pool,
                                      trusted ? BP_PARAMS_TRUSTED : 0, NULL, err, err_size)
                    : bp_params_read(&k->params, path, pool, trusted ? BP_PARAMS_TRUSTED : 0, err,
                                     err_size);
    case CUZK_KEY_CACHE:
        return data ? key_cache_parse(&k->cache, data, size, name, pool, cache_flags, NULL, err,
                                      err_size)
                    : key_cache_read(&k->cache, path, NULL, pool, cache_flags, err, err_size);
    case CUZK_KEY_AUTO: break;
    }
    return io_fail(err, err_size, CUZK_EINVAL, "%s: no key format", name);
}

static cuzk_status_t key_finish(cuzk_key_t **key, cuzk_key_t *k, cuzk_status_t s,
                                cuzk_key_format_t format, const char *err)
{
    if (s != CUZK_OK) {
        free(k);
        return api_fail_err(s, err);
    }
    key_settle(k, format);
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
    s = key_read(k, path, NULL, 0, path, format, flags, err, sizeof err);
    return key_finish(key, k, s, format, err);
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
    s = key_read(k, NULL, data, size, name, format, flags, err, sizeof err);
    return key_finish(key, k, s, format, err);
}

void cuzk_key_free(cuzk_key_t *key)
{
    if (!key)
        return;
    if (key->format == CUZK_KEY_CACHE)
        key_cache_free(&key->cache);
    else if (key->format == CUZK_KEY_ZKEY)
        zkey_free(&key->zkey);
    else
        bp_params_free(&key->params);
    free(key);
}

cuzk_curve_t cuzk_key_curve(const cuzk_key_t *key)
{
    if (!key)
        return CUZK_CURVE_NONE;
    if (key->convention == CUZK_CONVENTION_BELLPERSON)
        return CUZK_CURVE_BLS12_381;
    return key->zkey.curve == R1CS_CURVE_BN254 ? CUZK_CURVE_BN254 : CUZK_CURVE_BLS12_381;
}

cuzk_convention_t cuzk_key_convention(const cuzk_key_t *key)
{
    return key ? key->convention : CUZK_CONVENTION_SNARKJS;
}

cuzk_key_format_t cuzk_key_format(const cuzk_key_t *key)
{
    return key ? key->format : CUZK_KEY_AUTO;
}

uint64_t cuzk_key_domain_size(const cuzk_key_t *key)
{
    if (!key)
        return 0;
    return key->convention == CUZK_CONVENTION_SNARKJS ? key->zkey.domain_size
                                                      : (uint64_t)key->params.n_h + 1;
}

uint64_t cuzk_key_public_inputs(const cuzk_key_t *key)
{
    if (!key)
        return 0;
    return key->convention == CUZK_CONVENTION_SNARKJS ? key->zkey.n_public
                                                      : (uint64_t)key->params.vk.n_ic - 1;
}

uint64_t cuzk_key_wires(const cuzk_key_t *key)
{
    if (!key)
        return 0;
    return key->convention == CUZK_CONVENTION_SNARKJS
               ? key->zkey.n_vars
               : (uint64_t)key->params.vk.n_ic + key->params.n_l;
}
