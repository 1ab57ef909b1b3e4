/* Proving keys from any of their files (key_file.h). */
#include "io/key_file.h"

#include <stdlib.h>
#include <string.h>

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "io/io_error.h"
#include "io/io_map.h"
#include "io/snarkjs_json.h"

/* Points k->zkey or k->params at whichever member the load filled and
 * takes the Groth16 view of it. */
static void key_file_settle(key_file_t *k, key_format_t format)
{
    k->format = format;
    const zkey_t *z = NULL;
    const bp_params_t *p = NULL;
    if (format == KEY_FORMAT_CACHE) {
        if (k->cache.hdr.kind == KEY_CACHE_ZKEY)
            z = &k->cache.zkey;
        else
            p = &k->cache.params;
    } else if (format == KEY_FORMAT_ZKEY) {
        z = &k->zkey_own;
    } else {
        p = &k->params_own;
    }
    k->zkey = z;
    k->params = p;
    k->key = z ? zkey_groth16_key(z) : bp_params_groth16_key(p);
}

/* The .zkey at path mapped into k->zkey_own, with the file's path and
 * identity kept for key_file_check. */
static cuzk_status_t key_file_map_zkey(key_file_t *k, const char *path, pool_t *pool, bool trusted,
                                       char *err, size_t err_size)
{
    memset(k, 0, sizeof *k);
    /* The identity first: a file replaced between this and the map is
     * told apart by key_file_check, never mistaken for the one read. */
    if (stat(path, &k->mapped_at_load) != 0)
        memset(&k->mapped_at_load, 0, sizeof k->mapped_at_load); /* the reader says why */
    cuzk_status_t s =
        zkey_file_read(&k->zkey_own, path, pool, trusted ? ZKEY_TRUSTED : 0, err, err_size);
    if (s == CUZK_OK && !(k->mapped_path = strdup(path))) {
        zkey_free(&k->zkey_own);
        s = io_fail(err, err_size, CUZK_ENOMEM, "%s: out of memory", path);
    }
    if (s == CUZK_OK)
        key_file_settle(k, KEY_FORMAT_ZKEY);
    return s;
}

cuzk_status_t key_file_check(const key_file_t *k, cuzk_status_t s, char *err, size_t err_size)
{
    if (!k->mapped_path)
        return s;
    const char *path = k->mapped_path;
    s = io_map_check(&k->zkey_own.map, s, path, err, err_size);
    const struct stat *then = &k->mapped_at_load;
    struct stat now;
    if (s != CUZK_EIO &&
        (stat(path, &now) != 0 || now.st_ino != then->st_ino || now.st_size != then->st_size ||
         now.st_mtim.tv_sec != then->st_mtim.tv_sec ||
         now.st_mtim.tv_nsec != then->st_mtim.tv_nsec))
        s = io_fail(err, err_size, CUZK_EIO, "%s: the file changed while it was read", path);
    return s;
}

static cuzk_status_t key_file_load(key_file_t *k, key_format_t format, const char *path,
                                   const unsigned char *data, size_t size, const char *name,
                                   pool_t *pool, unsigned flags, char *err, size_t err_size)
{
    memset(k, 0, sizeof *k);
    bool trusted = flags & KEY_FILE_TRUSTED;
    unsigned cache_flags = flags & KEY_FILE_CHECK_POINTS ? KEY_CACHE_CHECK_POINTS : 0;
    cuzk_status_t s;
    switch (format) {
    case KEY_FORMAT_ZKEY:
        s = data ? zkey_file_parse(&k->zkey_own, data, size, name, pool, trusted ? ZKEY_TRUSTED : 0,
                                   NULL, err, err_size)
                 : zkey_file_read(&k->zkey_own, path, pool,
                                  ZKEY_COPY | (trusted ? ZKEY_TRUSTED : 0), err, err_size);
        break;
    case KEY_FORMAT_PARAMS:
        s = data ? bp_params_parse(&k->params_own, data, size, name, pool,
                                   trusted ? BP_PARAMS_TRUSTED : 0, NULL, err, err_size)
                 : bp_params_read(&k->params_own, path, pool, trusted ? BP_PARAMS_TRUSTED : 0, err,
                                  err_size);
        break;
    case KEY_FORMAT_CACHE:
        s = data ? key_cache_parse(&k->cache, data, size, name, pool, cache_flags, NULL, err,
                                   err_size)
                 : key_cache_read(&k->cache, path, NULL, pool, cache_flags, err, err_size);
        break;
    default:
        return io_fail(err, err_size, CUZK_EINVAL, "%s: %d is no key format", name, (int)format);
    }
    if (s == CUZK_OK)
        key_file_settle(k, format);
    return s;
}

cuzk_status_t key_file_read(key_file_t *k, key_format_t format, const char *path, pool_t *pool,
                            unsigned flags, char *err, size_t err_size)
{
    if (format == KEY_FORMAT_ZKEY && (flags & KEY_FILE_MAP))
        return key_file_map_zkey(k, path, pool, flags & KEY_FILE_TRUSTED, err, err_size);
    return key_file_load(k, format, path, NULL, 0, path, pool, flags, err, err_size);
}

cuzk_status_t key_file_parse(key_file_t *k, key_format_t format, const unsigned char *data,
                             size_t size, const char *name, pool_t *pool, unsigned flags, char *err,
                             size_t err_size)
{
    return key_file_load(k, format, NULL, data, size, name, pool, flags, err, err_size);
}

void key_file_adopt_params(key_file_t *k, bp_params_t *p)
{
    memset(k, 0, sizeof *k);
    k->params_own = *p;
    memset(p, 0, sizeof *p);
    key_file_settle(k, KEY_FORMAT_PARAMS);
}

void key_file_free(key_file_t *k)
{
    free(k->mapped_path);
    if (k->zkey || k->params) {
        if (k->format == KEY_FORMAT_CACHE)
            key_cache_free(&k->cache);
        else if (k->format == KEY_FORMAT_ZKEY)
            zkey_free(&k->zkey_own);
        else
            bp_params_free(&k->params_own);
    }
    memset(k, 0, sizeof *k);
}

bool key_file_has_points(const key_file_t *k)
{
    return k->key.a.data || k->key.a.count == 0;
}

/* Bytes of one affine point of g (1 or 2) on k's curve. */
static uint64_t point_bytes(const groth16_key_t *k, int g)
{
    if (k->curve == R1CS_CURVE_BN254)
        return g == 1 ? sizeof(bn254_g1_affine_t) : sizeof(bn254_g2_affine_t);
    return g == 1 ? sizeof(bls381_g1_affine_t) : sizeof(bls381_g2_affine_t);
}

uint64_t key_file_host_bytes(const key_file_t *k)
{
    if (k->format == KEY_FORMAT_CACHE)
        return k->cache.hdr.file_size;
    if (k->zkey)
        return k->zkey->map.size;
    const groth16_key_t *g = &k->key;
    uint64_t g1 = g->ic.count, g2 = 0;
    if (key_file_has_points(k)) {
        g1 += g->h.count + g->l.count + g->a.count + g->b1.count;
        g2 = g->b2.count;
    }
    return g1 * point_bytes(g, 1) + g2 * point_bytes(g, 2);
}

uint64_t key_file_work_bytes(const key_file_t *k)
{
    const groth16_key_t *g = &k->key;
    if (g->conv.synth == GROTH16_SYNTH_GIVEN)
        return 4ull * 32 * g->domain_size;
    uint64_t b = 3ull * 32 * g->domain_size + 2ull * 32 * g->n_vars;
    const groth16_points_t g1[] = {g->a, g->b1, g->l, g->h};
    for (size_t i = 0; i < sizeof g1 / sizeof g1[0]; i++)
        if (!groth16_points_aligned(g1[i]))
            b += g1[i].count * point_bytes(g, 1);
    if (!groth16_points_aligned(g->b2))
        b += g->b2.count * point_bytes(g, 2);
    return b;
}

cuzk_status_t key_file_encode_proof(const key_file_t *k, const groth16_proof_t *proof,
                                    const r1cs_witness_t *pub, char **proof_json,
                                    unsigned char **proof_bytes, size_t *proof_len,
                                    char **public_json)
{
    *proof_json = NULL;
    *proof_bytes = NULL;
    *proof_len = 0;
    *public_json = NULL;
    size_t len;
    if (snarkjs_public_format(public_json, &len, pub) != CUZK_OK)
        return CUZK_ENOMEM;
    if (k->zkey) {
        if (snarkjs_proof_format(proof_json, &len, proof) == CUZK_OK)
            return CUZK_OK;
    } else if ((*proof_bytes = malloc(BP_PROOF_BYTES))) {
        bp_proof_t bp = {proof->u.bls381.a, proof->u.bls381.b, proof->u.bls381.c};
        bp_proof_encode(*proof_bytes, &bp);
        *proof_len = BP_PROOF_BYTES;
        return CUZK_OK;
    }
    free(*public_json);
    *public_json = NULL;
    return CUZK_ENOMEM;
}
