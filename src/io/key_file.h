/*
 * A proving key loaded from any of its three files: a snarkjs .zkey, a
 * bellperson .params or cuzk's key cache of either (docs/KEYCACHE.md). What
 * the loader keeps is the file's own struct, which owns the bytes, and the
 * Groth16 layer's view of it (groth16_key_t, the convention as data), which
 * is all a prover needs. The engine's CPU backend and the public API hold
 * their keys in this type, so that neither knows which file a key came
 * from once it is loaded.
 */
#ifndef CUZK_IO_KEY_FILE_H
#define CUZK_IO_KEY_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "cuzk.h"
#include "groth16/groth16_key.h"
#include "io/key_cache.h"
#include "io/params_file.h"
#include "io/zkey_file.h"
#include "r1cs/r1cs.h"
#include "util/pool.h"

/* The files a proving key is read from. */
typedef enum key_format {
    KEY_FORMAT_ZKEY,   /* snarkjs .zkey (BN254 or BLS12-381) */
    KEY_FORMAT_PARAMS, /* bellperson .params (BLS12-381) */
    KEY_FORMAT_CACHE,  /* cuzk's key cache of a zkey or of params */
    KEY_FORMATS
} key_format_t;

/* key_file_read's and key_file_parse's flags. */
enum {
    /* The points are not checked to be on the curve and in the subgroup
     * (ZKEY_TRUSTED, BP_PARAMS_TRUSTED); a key cache's are trusted unless
     * KEY_FILE_CHECK_POINTS. */
    KEY_FILE_TRUSTED = 1u << 0,
    /* A key cache's points are checked too (KEY_CACHE_CHECK_POINTS). */
    KEY_FILE_CHECK_POINTS = 1u << 1,
    /* key_file_read maps a .zkey instead of copying it: no second copy in
     * memory and no time spent copying, but the points are read from the
     * file all through each proof, and key_file_check says whether the
     * file changed under them. Other formats are read into memory. */
    KEY_FILE_MAP = 1u << 2,
};

/*
 * A loaded key. format: the file it was read from. key: the Groth16 view,
 * valid while the key_file_t is; its conv says how to prove with it.
 * zkey or params (exactly one non-NULL): the file struct that key is a
 * view of, for what only that format has (its verification key's own
 * types, the key cache's header); they point into the members below,
 * which only key_file.c touches.
 */
typedef struct key_file {
    key_format_t format;
    groth16_key_t key;
    const zkey_t *zkey;
    const bp_params_t *params;

    zkey_t zkey_own;
    bp_params_t params_own;
    key_cache_t cache;

    /* KEY_FILE_MAP of a .zkey: the file's path and identity at load. */
    char *mapped_path;
    struct stat mapped_at_load;
} key_file_t;

/*
 * Reads the key at path, of format, into k with pool's threads (NULL: the
 * caller's alone). A .zkey is copied into memory, not mapped (unless
 * flags hold KEY_FILE_MAP): a loaded key may be kept for days while its
 * file is replaced or truncated. A key
 * cache is read with one sequential pass. Failures leave k empty, with a
 * message naming path.
 */
cuzk_status_t key_file_read(key_file_t *k, key_format_t format, const char *path, pool_t *pool,
                            unsigned flags, char *err, size_t err_size);

/* s, unless k is a mapped .zkey (KEY_FILE_MAP) whose file changed while
 * its bytes were in use (a proof read them from the map): then CUZK_EIO
 * naming the file, so that a proof made from other bytes than the key's
 * is reported as the file's fault, not blamed on the witness. Told by the
 * map's guard (the file shrank) or by the file's inode, size or time
 * against those at load (it was overwritten in place). */
cuzk_status_t key_file_check(const key_file_t *k, cuzk_status_t s, char *err, size_t err_size);

/* The same over size bytes at data, which k borrows (they must outlive k
 * and stay unchanged); name stands for the file in messages. */
cuzk_status_t key_file_parse(key_file_t *k, key_format_t format, const unsigned char *data,
                             size_t size, const char *name, pool_t *pool, unsigned flags, char *err,
                             size_t err_size);

/* Makes k the owner of p (a bellperson key built in memory, e.g. by a
 * development setup); *p is emptied. p->a NULL is a key whose query points
 * live elsewhere (on a device): key_file_has_points says so. */
void key_file_adopt_params(key_file_t *k, bp_params_t *p);

/* Releases what k owns and zeroes it; an empty k is fine. */
void key_file_free(key_file_t *k);

/* Whether k holds its query points in host memory (false only for an
 * adopted bellperson key whose points were never brought to the host). */
bool key_file_has_points(const key_file_t *k);

/* The host memory k occupies: a key cache's file size, a .zkey's bytes,
 * a .params' points. */
uint64_t key_file_host_bytes(const key_file_t *k);

/*
 * An estimate of the host memory one proof with k holds besides the key
 * (a memory budget's reservation, not an exact count): for a convention
 * that synthesises from coefficients, the a, b, c evaluations and two
 * copies of the witness, plus any query the prover copies because the
 * file left it misaligned; for one handed its evaluations, the prover's
 * a, b, c and coefficient-basis copies, about four scalars per domain point.
 */
uint64_t key_file_work_bytes(const key_file_t *k);

/*
 * A proof with k and its public inputs, written as the key's own tools
 * write them: snarkjs' proof.json text in *proof_json (proof_bytes NULL,
 * *proof_len 0), or bellperson's 192-byte proof in *proof_bytes
 * (*proof_json NULL); the public inputs as a public.json array in
 * *public_json either way. All malloc'd. CUZK_ENOMEM on failure, with
 * nothing left allocated.
 */
cuzk_status_t key_file_encode_proof(const key_file_t *k, const groth16_proof_t *proof,
                                    const r1cs_witness_t *pub, char **proof_json,
                                    unsigned char **proof_bytes, size_t *proof_len,
                                    char **public_json);

#endif
