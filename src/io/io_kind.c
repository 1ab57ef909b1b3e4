#include "io/io_kind.h"

#include <stdbool.h>
#include <string.h>

#include <jansson.h>

#include "ec/bls381_g1.h"
#include "io/io_error.h"
#include "io/io_map.h"
#include "io/key_cache.h"
#include "io/params_file.h"

/* FORMATS.md section 8.2: the fixed points, then the u32 BE IC length. */
enum { IO_KIND_BP_VK_MIN = BP_VK_FIXED_BYTES + 4 };

static uint32_t kind_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Whether the file is exactly as long as a .params whose lengths it holds. */
static bool kind_is_params(const unsigned char *data, uint64_t size)
{
    uint64_t pos = BP_VK_FIXED_BYTES;
    for (int q = 0; q < 6; q++) {
        if (size < pos || size - pos < 4)
            return false;
        pos += 4 + (uint64_t)kind_be32(data + pos) * (q == 5 ? BP_G2_BYTES : BP_G1_BYTES);
        if (pos > size)
            return false;
    }
    return pos == size;
}

static bool kind_is_vk(const unsigned char *data, uint64_t size)
{
    return size >= IO_KIND_BP_VK_MIN &&
           size == IO_KIND_BP_VK_MIN + (uint64_t)kind_be32(data + BP_VK_FIXED_BYTES) * BP_G1_BYTES;
}

/* Every 192 bytes, three compressed points (the flag bit 0x80 set). */
static bool kind_is_proofs(const unsigned char *data, uint64_t size)
{
    if (size == 0 || size % BP_PROOF_BYTES != 0)
        return false;
    for (uint64_t at = 0; at < size; at += BP_PROOF_BYTES)
        if (!(data[at] & data[at + 48] & data[at + 144] & 0x80))
            return false;
    return true;
}

/* Whether the bytes start with a G1 point of the subgroup, uncompressed (a
 * .params or .vk) or compressed (a proof). */
static bool kind_starts_with_g1(const unsigned char *data, uint64_t size, bool compressed)
{
    bls381_g1_affine_t p;
    size_t len = compressed ? bls381_g1_COMPRESSED_BYTES : bls381_g1_UNCOMPRESSED_BYTES;
    if (size < len)
        return false;
    return (compressed ? bls381_g1_affine_from_compressed(&p, data, len, 0)
                       : bls381_g1_affine_from_uncompressed(&p, data, len, 0)) == CUZK_OK;
}

/* Whether the text starts (after white space) with '{' or '['. */
static bool kind_looks_json(const unsigned char *data, uint64_t size)
{
    for (uint64_t i = 0; i < size; i++) {
        unsigned char ch = data[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')
            continue;
        return ch == '{' || ch == '[';
    }
    return false;
}

static io_kind_t kind_of_json(const unsigned char *data, uint64_t size)
{
    json_error_t jerr;
    json_t *root = json_loadb((const char *)data, (size_t)size, 0, &jerr);
    io_kind_t k = IO_KIND_JSON;
    if (json_is_array(root))
        k = json_array_size(root) > 0 && json_is_array(json_array_get(root, 0))
                ? IO_KIND_JSON_INPUTS
                : IO_KIND_JSON_PUBLIC;
    else if (json_object_get(root, "pi_a"))
        k = IO_KIND_JSON_PROOF;
    else if (json_object_get(root, "IC") || json_object_get(root, "vk_alpha_1"))
        k = IO_KIND_JSON_VK;
    json_decref(root);
    return k;
}

static io_kind_t kind_of_key_cache(const unsigned char *data, uint64_t size)
{
    key_cache_header_t h;
    uint64_t page = size < KEY_CACHE_ALIGN ? size : KEY_CACHE_ALIGN;
    if (key_cache_header_parse(&h, data, page, size, "", NULL, 0) != CUZK_OK)
        return IO_KIND_KEY_CACHE;
    return h.kind == KEY_CACHE_PARAMS ? IO_KIND_KEY_CACHE_PARAMS : IO_KIND_KEY_CACHE_ZKEY;
}

io_kind_t io_kind_sniff(const unsigned char *data, uint64_t size)
{
    static const struct {
        const char *magic;
        io_kind_t kind;
    } magics[] = {{"r1cs", IO_KIND_R1CS},
                  {"wtns", IO_KIND_WTNS},
                  {"zkey", IO_KIND_ZKEY},
                  {"ptau", IO_KIND_PTAU},
                  {"cuzkasgn", IO_KIND_ASGN}};
    if (size == 0)
        return IO_KIND_EMPTY;
    for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
        size_t n = strlen(magics[i].magic);
        if (size >= n && memcmp(data, magics[i].magic, n) == 0)
            return magics[i].kind;
    }
    if (key_cache_has_magic(data, size))
        return kind_of_key_cache(data, size);
    if (kind_looks_json(data, size))
        return kind_of_json(data, size);
    if (kind_is_vk(data, size))
        return IO_KIND_BP_VK;
    if (kind_is_params(data, size))
        return IO_KIND_BP_PARAMS;
    if (kind_is_proofs(data, size))
        return IO_KIND_BP_PROOFS;
    if (kind_starts_with_g1(data, size, false)) {
        /* too short for its IC, or not longer than a .vk with it: a .vk */
        bool vk = size < IO_KIND_BP_VK_MIN ||
                  size <= IO_KIND_BP_VK_MIN +
                              (uint64_t)kind_be32(data + BP_VK_FIXED_BYTES) * BP_G1_BYTES + 4;
        return vk ? IO_KIND_BP_VK : IO_KIND_BP_PARAMS;
    }
    if (kind_starts_with_g1(data, size, true))
        return IO_KIND_BP_PROOFS;
    return IO_KIND_UNKNOWN;
}

cuzk_status_t io_kind_of_file(io_kind_t *kind, const char *path, char *err, size_t err_size)
{
    *kind = IO_KIND_UNKNOWN;
    io_map_t m;
    cuzk_status_t st = io_map_open(&m, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    *kind = io_kind_sniff(m.data, m.size);
    io_map_close(&m);
    return CUZK_OK;
}

const char *io_kind_name(io_kind_t kind)
{
    static const char *const names[IO_KIND_COUNT] = {
        [IO_KIND_UNKNOWN] = "a file of no kind cuzk knows",
        [IO_KIND_EMPTY] = "an empty file",
        [IO_KIND_R1CS] = "a circom .r1cs (circuit)",
        [IO_KIND_WTNS] = "a snarkjs .wtns (witness)",
        [IO_KIND_ZKEY] = "a snarkjs .zkey (proving key)",
        [IO_KIND_PTAU] = "a snarkjs .ptau (powers of tau)",
        [IO_KIND_ASGN] = "a cuzk .asgn (assignment)",
        [IO_KIND_KEY_CACHE] = "a cuzk key cache",
        [IO_KIND_KEY_CACHE_ZKEY] = "a cuzk key cache of a snarkjs key",
        [IO_KIND_KEY_CACHE_PARAMS] = "a cuzk key cache of bellperson parameters",
        [IO_KIND_JSON] = "JSON text of no shape cuzk knows",
        [IO_KIND_JSON_VK] = "a snarkjs verification_key.json",
        [IO_KIND_JSON_PROOF] = "a snarkjs proof.json",
        [IO_KIND_JSON_PUBLIC] = "a snarkjs public.json (public signals)",
        [IO_KIND_JSON_INPUTS] = "the public inputs of several proofs (JSON)",
        [IO_KIND_BP_PARAMS] = "bellperson .params (proving parameters)",
        [IO_KIND_BP_VK] = "a bellperson .vk (verifying key)",
        [IO_KIND_BP_PROOFS] = "bellperson proofs (192 bytes each)",
    };
    return kind < IO_KIND_COUNT && names[kind] ? names[kind] : names[IO_KIND_UNKNOWN];
}

bool io_kind_content_status(cuzk_status_t s)
{
    return s == CUZK_EBADFILE || s == CUZK_EENCODING || s == CUZK_ENONCANONICAL ||
           s == CUZK_ENOTONCURVE || s == CUZK_ENOTINSUBGROUP || s == CUZK_EUNSUPPORTED ||
           s == CUZK_EINFINITY;
}

bool io_kind_known(io_kind_t kind)
{
    return kind != IO_KIND_UNKNOWN && kind != IO_KIND_EMPTY && kind != IO_KIND_JSON &&
           kind != IO_KIND_KEY_CACHE && kind < IO_KIND_COUNT;
}

bool io_kind_misplaced(const char *path, unsigned kinds, const char *role, cuzk_status_t s,
                       char *err, size_t err_size)
{
    io_kind_t kind;
    char why[IO_ERR_MAX];
    if (!io_kind_content_status(s) || io_kind_of_file(&kind, path, why, sizeof why) != CUZK_OK ||
        !io_kind_known(kind) || (kinds & IO_KIND_BIT(kind)))
        return false;
    io_fail(err, err_size, s, "%s is %s, not %s", path, io_kind_name(kind), role);
    return true;
}
