/*
 * What kind of file a buffer holds, told by content, never by the name.
 *
 * The rules, in the order they are tried:
 *  - the iden3 magic of circom and snarkjs files (.r1cs, .wtns, .zkey,
 *    .ptau) and the .asgn magic (docs/ASSIGNMENT.md);
 *  - the key cache's magic (docs/KEYCACHE.md), with the kind of key its
 *    header names when the header parses;
 *  - JSON text (the first byte after white space is '{' or '['), by shape:
 *    an array of arrays is the inputs of several bellperson proofs, an array
 *    a snarkjs public.json, an object with pi_a a proof.json, one with IC or
 *    vk_alpha_1 a verification_key.json; anything else is IO_KIND_JSON;
 *  - bellperson files, which have no magic, by the size formulas of
 *    FORMATS.md section 8.2 (.params, .vk) and 8.4 (192 bytes a proof, each
 *    element compressed); then a file that starts with a BLS12-381 G1 point
 *    of the subgroup (which random bytes are with negligible probability),
 *    uncompressed (a damaged .vk or .params, told apart by the IC length it
 *    declares) or compressed (damaged proofs).
 *
 * The kind says what the file claims to be; whether it is valid is for its
 * reader to say.
 */
#ifndef CUZK_IO_IO_KIND_H
#define CUZK_IO_IO_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"

typedef enum io_kind {
    IO_KIND_UNKNOWN = 0, /* none of the kinds below */
    IO_KIND_EMPTY,
    IO_KIND_R1CS,
    IO_KIND_WTNS,
    IO_KIND_ZKEY,
    IO_KIND_PTAU,
    IO_KIND_ASGN,
    IO_KIND_KEY_CACHE,        /* the cache's magic, but a header that does not parse */
    IO_KIND_KEY_CACHE_ZKEY,   /* a key cache of a snarkjs Groth16 key */
    IO_KIND_KEY_CACHE_PARAMS, /* a key cache of bellperson parameters */
    IO_KIND_JSON,             /* JSON text of none of the shapes below, or not JSON after all */
    IO_KIND_JSON_VK,          /* snarkjs verification_key.json */
    IO_KIND_JSON_PROOF,       /* snarkjs proof.json */
    IO_KIND_JSON_PUBLIC,      /* snarkjs public.json: one array of values */
    IO_KIND_JSON_INPUTS,      /* the public inputs of several proofs: an array of arrays */
    IO_KIND_BP_PARAMS,        /* bellperson .params */
    IO_KIND_BP_VK,            /* bellperson .vk */
    IO_KIND_BP_PROOFS,        /* bellperson proofs, 192 bytes each */
    IO_KIND_COUNT
} io_kind_t;

/* The bit of kind k in a set of kinds. */
#define IO_KIND_BIT(k) (1u << (unsigned)(k))

/* The kind of the size bytes at data (data may be NULL when size is 0). */
io_kind_t io_kind_sniff(const unsigned char *data, uint64_t size);

/* The kind of the file at path (mapped, sniffed, unmapped): CUZK_OK with
 * *kind set, else the reason it cannot be read (io_map_open's status and
 * message) and *kind = IO_KIND_UNKNOWN. */
cuzk_status_t io_kind_of_file(io_kind_t *kind, const char *path, char *err, size_t err_size);

/* The kind for a message, with its article: "a snarkjs .wtns (witness)". */
const char *io_kind_name(io_kind_t kind);

/* Whether a reader's status s is a failure of content, which a file of
 * another kind than the reader's can cause (CUZK_EBADFILE, CUZK_EENCODING,
 * ...), not one of the system (CUZK_ENOFILE, CUZK_EIO, CUZK_ENOMEM). */
bool io_kind_content_status(cuzk_status_t s);

/* Whether kind names what a file is, not merely that cuzk cannot tell
 * (unknown, empty, JSON of no known shape, a key cache whose header does
 * not parse). */
bool io_kind_known(io_kind_t kind);

/*
 * After reading the file at path as role ("a snarkjs .zkey (proving
 * key)"), which takes the kinds in the set kinds (IO_KIND_BIT(k) | ...),
 * failed with status s and the reader's message in err: when s is a
 * failure of content and the file is, by content, a known kind not in
 * kinds, err says what it is instead ("PATH is a snarkjs .wtns (witness),
 * not a snarkjs .zkey (proving key)") and true is returned. Otherwise
 * false, with err untouched (the reader's reason stands). The status is
 * the caller's to keep or change.
 */
bool io_kind_misplaced(const char *path, unsigned kinds, const char *role, cuzk_status_t s,
                       char *err, size_t err_size);

#endif
