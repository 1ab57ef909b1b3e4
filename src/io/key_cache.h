/*
 * cuzk's own key cache (docs/KEYCACHE.md): a whole proving key in cuzk's
 * in-memory layout, laid out so that loading it is one sequential read
 * straight into its final place (DESIGN.md section 4, "Resident keys").
 *
 * A cache holds either a snarkjs Groth16 key (kind KEY_CACHE_ZKEY, BN254
 * or BLS12-381: the zkey_t of zkey_file.h) or bellperson parameters (kind
 * KEY_CACHE_PARAMS, BLS12-381: the bp_params_t of params_file.h). The file
 * is a 4096-byte header page (magic "cuzkkey\0", version, kind, curve,
 * counts, the six fixed points of the verifying key, a section table and
 * a checksum of the page), then the sections, each at a 4096-byte aligned
 * offset and zero-padded to the next one: for a zkey ic, coeffs, a, b1,
 * b2, c, h; for params ic, h, l, a, b_g1, b_g2. Points are affine,
 * Montgomery form, little-endian limbs, exactly as the src/ec affine types
 * hold them ((0, 0) is infinity); the coefficients are the zkey's entries
 * as they are (ZKEY_COEFF_BYTES each). So the body [4096, file size) read
 * into one buffer aligned to 4096 bytes puts every section at an aligned
 * address, ready for the prover and for DMA.
 *
 * What the reader checks (every failure names the file and the place, the
 * io_error.h convention):
 *   - the header: magic (CUZK_EBADFILE), version 1 (CUZK_EUNSUPPORTED),
 *     the checksum of the page, kind and curve (params: BLS12-381 only),
 *     the counts (the rules of zkey_file.h and params_file.h: nVars >
 *     nPublic, domainSize a power of two; ic_len >= 1, h_len + 1 a power
 *     of two, a_len >= ic_len), and a section table that is exactly the
 *     layout the counts give (ids, item sizes, counts, offsets, lengths);
 *   - the file size: exactly the header's; a shorter file is "truncated"
 *     naming the first section that does not fit, a longer one names the
 *     bytes left over after the last section;
 *   - the verifying key in full, always: the six fixed points (canonical,
 *     on the curve, in the subgroup, finite) and IC (the same; infinity is
 *     allowed in a zkey's IC, as in a .zkey);
 *   - zkey coefficients, always (they index arrays: m <= 1, c <
 *     domainSize, s < nVars, value < r);
 *   - the query points (a, b1, b2, c, h; h, l, a, b_g1, b_g2) only with
 *     KEY_CACHE_CHECK_POINTS: `cuzk convert` wrote them from a key whose
 *     points it validated, so the cache is trusted for them like a key
 *     read with --trusted. A damaged query point gives a proof that fails
 *     the prover's self-verification, never a wrong proof.
 */
#ifndef CUZK_IO_KEY_CACHE_H
#define CUZK_IO_KEY_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "io/io_map.h"
#include "io/params_file.h"
#include "io/zkey_file.h"
#include "util/pool.h"
#include "util/progress.h"

enum {
    KEY_CACHE_VERSION = 1,
    KEY_CACHE_MAGIC_BYTES = 8,    /* "cuzkkey\0" */
    KEY_CACHE_ALIGN = 4096,       /* the header page; every section's offset */
    KEY_CACHE_MAX_SECTIONS = 8,   /* entries the section table has room for */
    KEY_CACHE_SECTION_BYTES = 32, /* one table entry */
};

typedef enum key_cache_kind {
    KEY_CACHE_NONE = 0,
    KEY_CACHE_ZKEY = 1,   /* a snarkjs Groth16 key (zkey_t) */
    KEY_CACHE_PARAMS = 2, /* bellperson parameters (bp_params_t) */
} key_cache_kind_t;

/* Section ids, one space for both kinds (a zkey has no L, params have no
 * coeffs, B1 is bellperson's b_g1 and B2 its b_g2). */
typedef enum key_cache_section_id {
    KEY_CACHE_SECTION_IC = 1,
    KEY_CACHE_SECTION_COEFFS = 2,
    KEY_CACHE_SECTION_A = 3,
    KEY_CACHE_SECTION_B1 = 4,
    KEY_CACHE_SECTION_B2 = 5,
    KEY_CACHE_SECTION_C = 6,
    KEY_CACHE_SECTION_H = 7,
    KEY_CACHE_SECTION_L = 8,
} key_cache_section_id_t;

/* Reader flags. */
enum {
    /* Check every query point too: canonical, on the curve (or infinity,
     * zkey kind only), in the order-r subgroup (one batch check a group
     * and a bisection where one finds a point outside,
     * NAME_msm_subgroup_first_outside). The message names the first
     * failing item. What `cuzk inspect` does without --trusted; the slow
     * part, on the caller's pool. */
    KEY_CACHE_CHECK_POINTS = 1u << 0,
};

/* One entry of the section table: count items of item_bytes bytes at the
 * file offset offset (a multiple of KEY_CACHE_ALIGN), bytes = count ·
 * item_bytes of them. */
typedef struct key_cache_section {
    uint32_t id;
    uint32_t item_bytes;
    uint64_t count;
    uint64_t offset;
    uint64_t bytes;
} key_cache_section_t;

/* A checked header. The counts of the other kind are zero. */
typedef struct key_cache_header {
    uint32_t version;
    key_cache_kind_t kind;
    r1cs_curve_t curve;
    uint64_t file_size;
    uint32_t n_vars, n_public, domain_size, n_coeffs; /* KEY_CACHE_ZKEY */
    uint32_t n_ic, n_h, n_l, n_a, n_b;                /* KEY_CACHE_PARAMS */
    uint32_t n_sections;
    key_cache_section_t sections[KEY_CACHE_MAX_SECTIONS]; /* in file order */
} key_cache_header_t;

/*
 * Where the body goes: alloc(ctx, bytes) returns bytes of memory aligned to
 * at least 8 bytes (KEY_CACHE_ALIGN for page-aligned sections; the reader
 * refuses less than 8 with CUZK_EINVAL) or NULL (CUZK_ENOMEM); free(ctx, p)
 * releases it. The engine passes cudaHostAlloc here to read a key straight
 * into pinned memory. A NULL allocator: posix_memalign to KEY_CACHE_ALIGN
 * and free.
 */
typedef struct key_cache_alloc {
    void *(*alloc)(void *ctx, size_t bytes);
    void (*free)(void *ctx, void *p);
    void *ctx;
} key_cache_alloc_t;

/*
 * A loaded cache. kind says which of zkey and params is live; the other is
 * zero. Their section pointers and arrays point into body (zkey.map is
 * empty, params.mem is NULL, params.vk.ic points into body too), so they
 * work with groth16_prove and groth16_bp_prove as they are, and stay valid
 * until key_cache_free. Never pass them to zkey_free or bp_params_free:
 * key_cache_free releases everything.
 */
typedef struct key_cache {
    key_cache_header_t hdr;
    zkey_t zkey;
    bp_params_t params;
    unsigned char *body; /* the sections: file bytes [KEY_CACHE_ALIGN, file_size) */
    uint64_t body_bytes;
    bool owns_body;          /* read by key_cache_read (else borrowed by key_cache_parse) */
    key_cache_alloc_t alloc; /* how body was allocated (alloc NULL: the default) */
} key_cache_t;

/*
 * Reads the cache at path into kc: the header page, then the body with one
 * sequential read (posix_fadvise SEQUENTIAL, pread in large chunks) into
 * one buffer from alloc (NULL: the default), then the checks above, with
 * pool's threads (NULL: the caller alone). flags: KEY_CACHE_CHECK_POINTS or
 * 0. On failure kc is left empty and nothing stays allocated.
 */
cuzk_status_t key_cache_read(key_cache_t *kc, const char *path, const key_cache_alloc_t *alloc,
                             pool_t *pool, unsigned flags, char *err, size_t err_size);

/*
 * The same over a whole file of size bytes already in memory at data (a
 * mapping), which kc borrows: it must outlive kc, stay unchanged, and be
 * 8-byte aligned (else CUZK_EINVAL). name stands for the file in messages.
 * progress (NULL: none) gets the stages "check" (every item checked but
 * the subgroup, one advance a chunk) and "subgroup G1"/"subgroup G2".
 */
cuzk_status_t key_cache_parse(key_cache_t *kc, const unsigned char *data, uint64_t size,
                              const char *name, pool_t *pool, unsigned flags, progress_t *progress,
                              char *err, size_t err_size);

/* Releases the body (when kc owns it) and zeroes kc; an empty kc is fine. */
void key_cache_free(key_cache_t *kc);

/*
 * The header checks above (the verifying key's six fixed points included,
 * not IC) for the header page at page (KEY_CACHE_ALIGN bytes, or fewer when
 * the file is shorter: page_bytes says how many) of a file of file_size
 * bytes. Cheap: what `cuzk inspect` prints and what the engine reads to
 * learn a cache's kind before it loads it.
 */
cuzk_status_t key_cache_header_parse(key_cache_header_t *h, const unsigned char *page,
                                     uint64_t page_bytes, uint64_t file_size, const char *name,
                                     char *err, size_t err_size);

/* key_cache_header_parse on the file at path (one read of its first page). */
cuzk_status_t key_cache_probe(key_cache_header_t *h, const char *path, char *err, size_t err_size);

/* Whether the bytes at data (size of them) start with the cache's magic. */
bool key_cache_has_magic(const unsigned char *data, uint64_t size);

/* The checksum the header stores at its last 8 bytes: 64-bit FNV-1a over the
 * first KEY_CACHE_ALIGN - 8 bytes of the page. */
uint64_t key_cache_checksum(const unsigned char *page);

/*
 * Writes k (a zkey_t as zkey_file_read gives it, any alignment) or p (a
 * bp_params_t) as a cache at path, whole or not at all (io_output.h: a
 * temporary file beside it, flushed to disk and renamed over it). The key
 * must have the counts the reader accepts and data for every section (else
 * CUZK_EINVAL, nothing written); its points are written as they are, not
 * validated. CUZK_EIO with the system's reason. progress (NULL: none) gets
 * a stage "write" of the file's bytes.
 *
 * src (NULL: none) is the map of the file src_path the key's arrays point
 * into: when it is lost by the end (its file shrank under it, io_map.h),
 * nothing is committed and the result is io_map_check's error naming
 * src_path.
 */
cuzk_status_t key_cache_write_zkey(const char *path, const zkey_t *k, const io_map_t *src,
                                   const char *src_path, progress_t *progress, char *err,
                                   size_t err_size);
cuzk_status_t key_cache_write_params(const char *path, const bp_params_t *p, const io_map_t *src,
                                     const char *src_path, progress_t *progress, char *err,
                                     size_t err_size);

/* "zkey" (snarkjs Groth16 key), "params" (bellperson parameters), "none". */
const char *key_cache_kind_name(key_cache_kind_t kind);
/* "ic", "coeffs", "a", "b1", "b2", "c", "h", "l"; bellperson's names for
 * the params kind ("b_g1", "b_g2"). */
const char *key_cache_section_name(key_cache_kind_t kind, uint32_t id);

#endif
