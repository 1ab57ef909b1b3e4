/*
 * Groth16 proving keys: a snarkjs .zkey (BN254 or BLS12-381), bellperson
 * .params (BLS12-381), or cuzk's key cache of either (.cuzkkey,
 * docs/KEYCACHE.md), loaded from a path or from the caller's memory.
 *
 * What a load checks is what the readers check (docs/FORMATS.md): the
 * container, the counts, every coefficient, and every point canonical and
 * on its curve; the prime-order subgroup of every point too unless the key
 * is loaded with CUZK_KEY_TRUSTED (a key that cuzk wrote or that was
 * checked before: the subgroup test is most of a load's time). The six
 * points of the verification key are always checked in full. A key cache
 * is trusted for its query points unless CUZK_KEY_CHECK_POINTS is given.
 * Every failure names the file (or the name given for memory), the
 * section and the item in cuzk_last_error().
 *
 * Threads. A loaded key is read-only: any number of threads may prove and
 * query with one key at once. cuzk_key_free must not race with them.
 */
#ifndef CUZK_KEY_H
#define CUZK_KEY_H

#include "cuzk_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_key cuzk_key_t;

/* What a key's bytes are. The values are part of the ABI. */
typedef enum cuzk_key_format {
    CUZK_KEY_AUTO = 0,   /* told by the content (magic, sizes), never by the name */
    CUZK_KEY_ZKEY = 1,   /* snarkjs .zkey */
    CUZK_KEY_PARAMS = 2, /* bellperson .params */
    CUZK_KEY_CACHE = 3,  /* cuzk's key cache of a zkey or of params */
} cuzk_key_format_t;

/* Which prover's conventions a key follows: what it proves from and what
 * its proofs are checked against. */
typedef enum cuzk_convention {
    CUZK_CONVENTION_SNARKJS = 1,    /* a .zkey: proves witnesses (.wtns, vectors) */
    CUZK_CONVENTION_BELLPERSON = 2, /* .params: proves assignments (cuzk_assignment_t) */
} cuzk_convention_t;

/* Flags of the loaders. */
enum {
    CUZK_KEY_TRUSTED = 1u << 0,      /* skip the subgroup checks of the query points */
    CUZK_KEY_CHECK_POINTS = 1u << 1, /* a key cache: check its query points too */
    /* cuzk_key_load of a .zkey: map the file instead of copying it (no
     * second copy in memory, no time spent copying). Its points are then
     * read from the file during every proof, so the file must not change
     * while the key lives: a proof during which it was truncated or
     * overwritten fails with CUZK_EIO naming the file (never a crash, never
     * a proof from other bytes). .params and key caches are read into
     * memory whatever this flag says. */
    CUZK_KEY_MAP = 1u << 2,
};

/*
 * *key = the key in the file at path, of format (CUZK_KEY_AUTO: as its
 * content says), checked as flags say (above). The key holds its own copy
 * (a file replaced or truncated later does not affect it), unless flags
 * hold CUZK_KEY_MAP. On failure *key
 * = NULL: CUZK_ENOFILE (path names no readable file), CUZK_EBADFILE and the
 * point and field codes of the checks, CUZK_EUNSUPPORTED (a later format
 * version, another protocol or curve), CUZK_EINVAL (NULL arguments, unknown
 * flags or format), CUZK_ENOMEM. Runs on the process's thread pool (one
 * thread a processor).
 */
CUZK_API cuzk_status_t cuzk_key_load(cuzk_key_t **key, const char *path, cuzk_key_format_t format,
                                     unsigned flags);

/*
 * The same over size bytes at data, which the key borrows: they must stay
 * valid and unchanged until cuzk_key_free(*key) (a zkey's and a cache's
 * points are used where they lie; a .params is decoded into the key's own
 * arrays, but the rule is the same for every format). A key cache needs
 * data 8-byte aligned (CUZK_EINVAL otherwise); a page-aligned buffer (mmap,
 * posix_memalign 4096) gives every section an aligned address. name stands
 * for the file in messages (NULL: "the key").
 */
CUZK_API cuzk_status_t cuzk_key_from_memory(cuzk_key_t **key, const void *data, size_t size,
                                            cuzk_key_format_t format, unsigned flags,
                                            const char *name);

/* Releases key (NULL is fine). No proof may be running on it. */
CUZK_API void cuzk_key_free(cuzk_key_t *key);

/* The key's curve, convention and format as loaded (a cache says
 * CUZK_KEY_CACHE; its convention says what it holds). */
CUZK_API cuzk_curve_t cuzk_key_curve(const cuzk_key_t *key);
CUZK_API cuzk_convention_t cuzk_key_convention(const cuzk_key_t *key);
CUZK_API cuzk_key_format_t cuzk_key_format(const cuzk_key_t *key);

/*
 * Sizes. domain_size: the evaluation domain (a power of two; a key records
 * it, not the constraint count, which is at most domain_size minus the
 * public inputs for snarkjs keys and at most domain_size for bellperson's).
 * public_inputs: the public values a proof is verified against, ONE
 * excluded (snarkjs' nPublic; bellperson's inputs less ONE). wires: every
 * variable, ONE included (snarkjs' nVars: the length of a witness;
 * bellperson's inputs + aux).
 */
CUZK_API uint64_t cuzk_key_domain_size(const cuzk_key_t *key);
CUZK_API uint64_t cuzk_key_public_inputs(const cuzk_key_t *key);
CUZK_API uint64_t cuzk_key_wires(const cuzk_key_t *key);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_KEY_H */
