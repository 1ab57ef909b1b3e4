#include "io/params_file.h"

#include <assert.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_error.h"
#include "io/io_map.h"
#include "io/io_writer.h"
#include "msm/bls381_msm.h"

_Static_assert((int)BP_G1_BYTES == (int)bls381_g1_UNCOMPRESSED_BYTES &&
                   (int)BP_G2_BYTES == (int)bls381_g2_UNCOMPRESSED_BYTES &&
                   (int)BP_PROOF_BYTES ==
                       2 * (int)bls381_g1_COMPRESSED_BYTES + (int)bls381_g2_COMPRESSED_BYTES,
               "the bellperson sizes are the zcash encodings of BLS12-381");

enum {
    BP_LEN_BYTES = 4, /* the u32 BE count before each vector */
    BP_VK_POINTS = 6, /* the fixed points of the verifying key */
    BP_QUERIES = 6,   /* the vectors: ic, h, l, a, b_g1, b_g2 */
    BP_PROOF_ELEMENTS = 3,
    /* The zcash flag bits of byte 0 (FORMATS.md section 8.1). */
    BP_FLAGS = 0xe0,
    BP_FLAG_COMPRESSED = 0x80,
    BP_FLAG_INFINITY = 0x40,
    BP_FLAG_LARGER = 0x20,
};

/* ---- one point, with the reason it was refused --------------------------- */

/* Decodes len zcash bytes (compressed or not, as len says) of G1 or G2. */
static cuzk_status_t bp_decode_(void *r, bool g2, const unsigned char *in, size_t len,
                                unsigned flags)
{
    flags |= EC_DECODE_NO_INFINITY; /* neither .params nor proofs hold infinity */
    if (g2)
        return len == BP_G2_BYTES ? bls381_g2_affine_from_uncompressed(r, in, len, flags)
                                  : bls381_g2_affine_from_compressed(r, in, len, flags);
    return len == BP_G1_BYTES ? bls381_g1_affine_from_uncompressed(r, in, len, flags)
                              : bls381_g1_affine_from_compressed(r, in, len, flags);
}

/* The file's status for a decoder's: flag and length errors are a corrupt
 * file; the specific codes stay. */
static cuzk_status_t bp_status_(cuzk_status_t st)
{
    return st == CUZK_EENCODING ? CUZK_EBADFILE : st;
}

/*
 * What is wrong with the encoding of len bytes at in that the decoder
 * refused with st ("is not on the curve"), for messages. compressed says
 * which encoding the file must use.
 */
static const char *bp_problem_(cuzk_status_t st, const unsigned char *in, size_t len,
                               bool compressed)
{
    unsigned f = in[0] & BP_FLAGS;
    switch (st) {
    case CUZK_EENCODING:
        if (!compressed && (f & BP_FLAG_COMPRESSED))
            return "is marked compressed (flag 0x80), but the file holds uncompressed points";
        if (compressed && !(f & BP_FLAG_COMPRESSED))
            return "is not marked compressed (flag 0x80 clear)";
        if ((f & BP_FLAG_LARGER) && !compressed)
            return "has the sign flag 0x20, which an uncompressed point never carries";
        if ((f & BP_FLAG_LARGER) && (f & BP_FLAG_INFINITY))
            return "has both the infinity flag 0x40 and the sign flag 0x20";
        return "has the infinity flag 0x40 with other bits set";
    case CUZK_EINFINITY: return "is the point at infinity (flag 0x40), which is never valid here";
    case CUZK_ENONCANONICAL: return "has a coordinate that is not below p";
    case CUZK_ENOTONCURVE:
        return compressed ? "has an x with no point on the curve" : "is not on the curve";
    case CUZK_ENOTINSUBGROUP: {
        /* The decoders refuse x = 0 (only points of order 3 have it) with
         * this status too; say which. x is the first half of an
         * uncompressed point, all of a compressed one, flags aside. */
        size_t xlen = compressed ? len : len / 2;
        bool zero = (in[0] & (unsigned char)~BP_FLAGS) == 0;
        for (size_t i = 1; i < xlen && zero; i++)
            zero = in[i] == 0;
        return zero ? "has x = 0 (a point of order 3, never in the order-r subgroup)"
                    : "is not in the order-r subgroup";
    }
    default: return "cannot be decoded";
    }
}

/* ---- the layout ------------------------------------------------------------ */

/* The vectors after the fixed points, in file order. */
static const char *const bp_query_names_[BP_QUERIES] = {"ic", "h", "l", "a", "b_g1", "b_g2"};

typedef struct bp_layout_ {
    uint32_t len[BP_QUERIES]; /* the points of each vector */
    uint64_t at[BP_QUERIES];  /* the offset of its first point */
    unsigned n;               /* vectors in the file: 1 (.vk) or BP_QUERIES */
} bp_layout_t_;

static uint32_t bp_load_be32_(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void bp_store_be32_(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (24 - 8 * i));
}

static uint32_t bp_point_bytes_(unsigned q)
{
    return q == BP_QUERIES - 1 ? BP_G2_BYTES : BP_G1_BYTES; /* b_g2 is the one G2 vector */
}

/* The count rules of params_file.h for vector q, whose length was just read. */
static cuzk_status_t bp_check_len_(const bp_layout_t_ *l, unsigned q, const char *name, char *err,
                                   size_t err_size)
{
    uint32_t n = l->len[q];
    switch (q) {
    case 0:
        if (n == 0)
            return io_fail(err, err_size, CUZK_EBADFILE,
                           "%s: section ic: ic_len = 0, but IC holds at least the constant ONE",
                           name);
        break;
    case 1:
        /* m = h_len + 1 must be a power of two below 2^32. */
        if (n == UINT32_MAX || ((n + 1) & n) != 0)
            return io_fail(err, err_size, CUZK_EBADFILE,
                           "%s: section h: h_len = %" PRIu32 ", so m = h_len + 1 = %" PRIu64
                           " is not a power of two below 2^32",
                           name, n, (uint64_t)n + 1);
        break;
    case 3:
        if (n < l->len[0])
            return io_fail(err, err_size, CUZK_EBADFILE,
                           "%s: section a: a_len = %" PRIu32 " is below ic_len = %" PRIu32
                           " (A holds every input)",
                           name, n, l->len[0]);
        break;
    case 5:
        if (n != l->len[4])
            return io_fail(err, err_size, CUZK_EBADFILE,
                           "%s: section b_g2: b_g2_len = %" PRIu32 " but b_g1_len = %" PRIu32
                           " (B_G1 and B_G2 hold the same variables)",
                           name, n, l->len[4]);
        break;
    default: break;
    }
    return CUZK_OK;
}

/*
 * Walks the lengths of a .vk (n = 1: ic only) or a .params (n = BP_QUERIES)
 * and checks that the file is exactly as long as they say, naming the
 * section where it is not.
 */
static cuzk_status_t bp_layout_read_(bp_layout_t_ *l, unsigned n, const unsigned char *data,
                                     uint64_t size, const char *name, char *err, size_t err_size)
{
    memset(l, 0, sizeof(*l));
    l->n = n;
    if (size < BP_VK_FIXED_BYTES)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: section vk: truncated: the six points of the verifying key need %d "
                       "bytes, the file has %" PRIu64,
                       name, BP_VK_FIXED_BYTES, size);
    uint64_t pos = BP_VK_FIXED_BYTES;
    for (unsigned q = 0; q < n; q++) {
        const char *sec = bp_query_names_[q];
        if (size - pos < BP_LEN_BYTES)
            return io_fail(err, err_size, CUZK_EBADFILE,
                           "%s: section %s: truncated: %s_len needs %d bytes at offset %" PRIu64
                           ", the file has %" PRIu64,
                           name, sec, sec, BP_LEN_BYTES, pos, size);
        l->len[q] = bp_load_be32_(data + pos);
        pos += BP_LEN_BYTES;
        cuzk_status_t st = bp_check_len_(l, q, name, err, err_size);
        if (st != CUZK_OK)
            return st;
        uint64_t bytes = (uint64_t)l->len[q] * bp_point_bytes_(q);
        if (size - pos < bytes)
            return io_fail(err, err_size, CUZK_EBADFILE,
                           "%s: section %s: truncated: %s_len = %" PRIu32 " points need %" PRIu64
                           " bytes at offset %" PRIu64 ", the file has %" PRIu64 " left",
                           name, sec, sec, l->len[q], bytes, pos, size - pos);
        l->at[q] = pos;
        pos += bytes;
    }
    if (pos != size)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: %" PRIu64 " bytes left over after section %s: the lengths give a "
                       "file of exactly %" PRIu64 " bytes",
                       name, size - pos, bp_query_names_[n - 1], pos);
    return CUZK_OK;
}

/* ---- the verifying key's fixed points -------------------------------------- */

static const char *const bp_vk_names_[BP_VK_POINTS] = {"alpha_g1", "beta_g1",  "beta_g2",
                                                       "gamma_g2", "delta_g1", "delta_g2"};
static const bool bp_vk_g2_[BP_VK_POINTS] = {false, false, true, true, false, true};

/* The six fixed points of vk in file order. */
static void bp_vk_slots_(bp_vk_t *vk, void *slots[BP_VK_POINTS])
{
    void *s[BP_VK_POINTS] = {&vk->alpha1, &vk->beta1,  &vk->beta2,
                             &vk->gamma2, &vk->delta1, &vk->delta2};
    memcpy(slots, s, sizeof(s));
}

/* Decodes the fixed points, always with every check. */
static cuzk_status_t bp_vk_fixed_read_(bp_vk_t *vk, const unsigned char *data, const char *name,
                                       char *err, size_t err_size)
{
    void *slots[BP_VK_POINTS];
    bp_vk_slots_(vk, slots);
    size_t pos = 0;
    for (int i = 0; i < BP_VK_POINTS; i++) {
        size_t len = bp_vk_g2_[i] ? BP_G2_BYTES : BP_G1_BYTES;
        cuzk_status_t st = bp_decode_(slots[i], bp_vk_g2_[i], data + pos, len, 0);
        if (st != CUZK_OK)
            return io_fail(err, err_size, bp_status_(st), "%s: section vk: %s %s", name,
                           bp_vk_names_[i], bp_problem_(st, data + pos, len, false));
        pos += len;
    }
    return CUZK_OK;
}

/* ---- query vectors, decoded on the pool -------------------------------------- */

/*
 * Decodes count points of one vector into out on the pool. Workers skip
 * indices past the lowest failure seen so far, and the lowest failing index
 * overall is kept, so the message names the same point whatever the split.
 */
typedef struct bp_scan_ {
    const unsigned char *in;
    unsigned char *out;
    bool g2;
    unsigned flags;
    _Atomic uint64_t first_bad;
    progress_t *progress;
} bp_scan_t_;

static uint32_t bp_scan_in_bytes_(const bp_scan_t_ *s)
{
    return s->g2 ? BP_G2_BYTES : BP_G1_BYTES;
}

static size_t bp_scan_out_bytes_(const bp_scan_t_ *s)
{
    return s->g2 ? sizeof(bls381_g2_affine_t) : sizeof(bls381_g1_affine_t);
}

static void bp_scan_body_(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    bp_scan_t_ *s = ctx;
    uint32_t in_bytes = bp_scan_in_bytes_(s);
    size_t out_bytes = bp_scan_out_bytes_(s);
    for (size_t i = begin; i < end; i++) {
        if (i >= atomic_load_explicit(&s->first_bad, memory_order_relaxed))
            return;
        cuzk_status_t st =
            bp_decode_(s->out + i * out_bytes, s->g2, s->in + i * in_bytes, in_bytes, s->flags);
        if (st != CUZK_OK) {
            uint64_t seen = atomic_load_explicit(&s->first_bad, memory_order_relaxed);
            while (i < seen && !atomic_compare_exchange_weak_explicit(&s->first_bad, &seen, i,
                                                                      memory_order_relaxed,
                                                                      memory_order_relaxed)) {
            }
            return;
        }
    }
    progress_advance(s->progress, end - begin);
}

/* Decodes vector q of the layout into out; a message naming the lowest
 * failing point on failure. */
/* The message for point i of section q, which the decoder refuses with
 * flags (decoded into out's slot i). */
static cuzk_status_t bp_point_fail_(void *out, const unsigned char *data, const bp_layout_t_ *l,
                                    unsigned q, uint64_t i, unsigned flags, const char *name,
                                    char *err, size_t err_size)
{
    bp_scan_t_ s = {data + l->at[q], out, q == BP_QUERIES - 1, flags, l->len[q], NULL};
    uint32_t in_bytes = bp_scan_in_bytes_(&s);
    const unsigned char *in = s.in + i * in_bytes;
    cuzk_status_t st = bp_decode_(s.out + i * bp_scan_out_bytes_(&s), s.g2, in, in_bytes, flags);
    return io_fail(err, err_size, bp_status_(st), "%s: section %s: point %" PRIu64 " %s", name,
                   bp_query_names_[q], i, bp_problem_(st, in, in_bytes, false));
}

static cuzk_status_t bp_query_read_(void *out, const unsigned char *data, const bp_layout_t_ *l,
                                    unsigned q, pool_t *pool, unsigned flags, progress_t *progress,
                                    const char *name, char *err, size_t err_size, uint64_t *bad_at)
{
    bp_scan_t_ s = {data + l->at[q], out, q == BP_QUERIES - 1, flags, l->len[q], progress};
    pool_for(pool, l->len[q], 0, bp_scan_body_, &s);
    uint64_t bad = atomic_load(&s.first_bad);
    if (bad_at)
        *bad_at = bad;
    if (bad == l->len[q])
        return CUZK_OK;
    return bp_point_fail_(out, data, l, q, bad, flags, name, err, err_size);
}

/* ---- .vk and .params readers -------------------------------------------------- */

/* The verifying key from a file laid out as l (IC on the pool with flags). */
static cuzk_status_t bp_vk_decode_(bp_vk_t *vk, const unsigned char *data, const bp_layout_t_ *l,
                                   pool_t *pool, unsigned flags, const char *name, char *err,
                                   size_t err_size)
{
    cuzk_status_t st = bp_vk_fixed_read_(vk, data, name, err, err_size);
    if (st != CUZK_OK)
        return st;
    vk->ic = malloc((size_t)(l->len[0] ? l->len[0] : 1) * sizeof(*vk->ic)); /* len >= 1 */
    if (!vk->ic)
        return io_fail(err, err_size, CUZK_ENOMEM,
                       "%s: section ic: no memory for %" PRIu32 " points", name, l->len[0]);
    vk->n_ic = l->len[0];
    return bp_query_read_(vk->ic, data, l, 0, pool, flags, NULL, name, err, err_size, NULL);
}

uint64_t bp_vk_extent(const unsigned char *data, uint64_t size)
{
    if (size <= BP_VK_FIXED_BYTES + BP_LEN_BYTES)
        return size;
    uint64_t n_ic = bp_load_be32_(data + BP_VK_FIXED_BYTES);
    uint64_t extent = BP_VK_FIXED_BYTES + BP_LEN_BYTES + BP_G1_BYTES * n_ic;
    return extent < size ? extent : size;
}

cuzk_status_t bp_vk_parse(bp_vk_t *vk, const unsigned char *data, uint64_t size, const char *name,
                          char *err, size_t err_size)
{
    memset(vk, 0, sizeof(*vk));
    bp_layout_t_ l;
    cuzk_status_t st = bp_layout_read_(&l, 1, data, size, name, err, err_size);
    if (st == CUZK_OK)
        st = bp_vk_decode_(vk, data, &l, NULL, 0, name, err, err_size);
    if (st != CUZK_OK)
        bp_vk_free(vk);
    return st;
}

cuzk_status_t bp_vk_read(bp_vk_t *vk, const char *path, char *err, size_t err_size)
{
    memset(vk, 0, sizeof(*vk));
    io_map_t m;
    cuzk_status_t st = io_map_open(&m, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    st =
        io_map_check(&m, bp_vk_parse(vk, m.data, m.size, path, err, err_size), path, err, err_size);
    io_map_close(&m);
    if (st != CUZK_OK)
        bp_vk_free(vk);
    return st;
}

void bp_vk_free(bp_vk_t *vk)
{
    free(vk->ic);
    memset(vk, 0, sizeof(*vk));
}

/*
 * The subgroup check of the query vectors after their first read (every
 * check but the subgroup), which ended with read_st: CUZK_OK, or the
 * failure of section `failed` at point `failed_at`, its message in err.
 * The points read before that failure (all of them when none failed) are
 * on their curve: one batch check a group (h, l, a, b_g1; b_g2), and a
 * bisection where one finds a point outside
 * (NAME_msm_subgroup_first_outside). A point outside comes before the
 * read's failure; the message names the first one, in section order.
 */
static cuzk_status_t bp_query_subgroup_(const bp_params_t *p, const unsigned char *data,
                                        const bp_layout_t_ *l, void *const *out, unsigned failed,
                                        uint64_t failed_at, cuzk_status_t read_st, pool_t *pool,
                                        progress_t *progress, const char *name, char *err,
                                        size_t err_size)
{
    size_t n[BP_QUERIES];
    for (unsigned q = 1; q < BP_QUERIES; q++)
        n[q] = q < failed ? l->len[q] : q == failed ? (size_t)failed_at : 0;
    const void *g1[] = {p->h, p->l, p->a, p->b_g1};
    const void *g2[] = {p->b_g2};
    size_t f1, f2;
    progress_begin(progress, "subgroup G1", (uint64_t)n[1] + n[2] + n[3] + n[4], "points");
    cuzk_status_t st = bls381_g1_msm_subgroup_first_outside(&f1, g1, &n[1], 4, NULL, pool);
    progress_begin(progress, "subgroup G2", n[5], "points");
    if (st == CUZK_OK)
        st = bls381_g2_msm_subgroup_first_outside(&f2, g2, &n[5], 1, NULL, pool);
    progress_set(progress, n[5]);
    if (st != CUZK_OK)
        return io_fail(err, err_size, st, "%s: the subgroup check of the query points: %s", name,
                       cuzk_strerror(st));
    unsigned q = 1;
    for (; q < BP_QUERIES - 1 && f1 >= n[q]; q++) /* the G1 section of point f1 */
        f1 -= n[q];
    if (q == BP_QUERIES - 1) { /* none in G1: b_g2, or nothing */
        if (f2 == n[5])
            return read_st;
        q = 5;
        f1 = f2;
    }
    return bp_point_fail_(out[q], data, l, q, f1, 0, name, err, err_size);
}

cuzk_status_t bp_params_parse(bp_params_t *p, const unsigned char *data, uint64_t size,
                              const char *name, pool_t *pool, unsigned flags, progress_t *progress,
                              char *err, size_t err_size)
{
    memset(p, 0, sizeof(*p));
    bp_layout_t_ l;
    cuzk_status_t st = bp_layout_read_(&l, BP_QUERIES, data, size, name, err, err_size);
    if (st != CUZK_OK)
        return st;
    unsigned dflags = (flags & BP_PARAMS_TRUSTED) ? EC_DECODE_SKIP_SUBGROUP : 0;
    if ((st = bp_vk_decode_(&p->vk, data, &l, pool, dflags, name, err, err_size)) != CUZK_OK) {
        bp_params_free(p);
        return st;
    }

    /* One allocation for the five query vectors; the layout check above
     * bounds it by the file size. */
    uint64_t g1 = (uint64_t)l.len[1] + l.len[2] + l.len[3] + l.len[4];
    uint64_t bytes =
        g1 * sizeof(bls381_g1_affine_t) + (uint64_t)l.len[5] * sizeof(bls381_g2_affine_t);
    p->mem = malloc(bytes ? (size_t)bytes : 1);
    if (!p->mem) {
        bp_params_free(p);
        return io_fail(err, err_size, CUZK_ENOMEM,
                       "%s: no memory for the query vectors (%" PRIu64 " bytes)", name, bytes);
    }
    p->n_h = l.len[1];
    p->n_l = l.len[2];
    p->n_a = l.len[3];
    p->n_b = l.len[4];
    p->h = p->mem;
    p->l = p->h + p->n_h;
    p->a = p->l + p->n_l;
    p->b_g1 = p->a + p->n_a;
    p->b_g2 = (bls381_g2_affine_t *)(void *)(p->b_g1 + p->n_b);
    /* Every check but the subgroup first, then the subgroup in batches
     * (bp_query_subgroup_). */
    void *out[BP_QUERIES] = {NULL, p->h, p->l, p->a, p->b_g1, p->b_g2};
    unsigned failed = BP_QUERIES;
    uint64_t failed_at = 0;
    progress_begin(progress, "check", g1 + l.len[5], "points");
    for (unsigned q = 1; q < BP_QUERIES && failed == BP_QUERIES; q++) {
        st = bp_query_read_(out[q], data, &l, q, pool, EC_DECODE_SKIP_SUBGROUP, progress, name, err,
                            err_size, &failed_at);
        if (st != CUZK_OK)
            failed = q;
    }
    if (!(flags & BP_PARAMS_TRUSTED))
        st = bp_query_subgroup_(p, data, &l, out, failed, failed_at, st, pool, progress, name, err,
                                err_size);
    if (st != CUZK_OK)
        bp_params_free(p);
    return st;
}

cuzk_status_t bp_params_read(bp_params_t *p, const char *path, pool_t *pool, unsigned flags,
                             char *err, size_t err_size)
{
    memset(p, 0, sizeof(*p));
    io_map_t m;
    cuzk_status_t st = io_map_open(&m, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    st =
        io_map_check(&m, bp_params_parse(p, m.data, m.size, path, pool, flags, NULL, err, err_size),
                     path, err, err_size);
    io_map_close(&m);
    if (st != CUZK_OK)
        bp_params_free(p);
    return st;
}

void bp_params_free(bp_params_t *p)
{
    bp_vk_free(&p->vk);
    free(p->mem);
    memset(p, 0, sizeof(*p));
}

/* ---- writers ------------------------------------------------------------------ */

/* Whether any of n G1 (or G2) points at pts is infinity, or pts is NULL
 * with n > 0. */
static bool bp_points_unwritable_(const void *pts, uint64_t n, bool g2)
{
    if (n && !pts)
        return true;
    for (uint64_t i = 0; i < n; i++)
        if (g2 ? bls381_g2_affine_is_infinity((const bls381_g2_affine_t *)pts + i)
               : bls381_g1_affine_is_infinity((const bls381_g1_affine_t *)pts + i))
            return true;
    return false;
}

static void bp_write_g1s_(io_writer_t *w, const bls381_g1_affine_t *pts, uint64_t n)
{
    unsigned char b[BP_G1_BYTES];
    for (uint64_t i = 0; i < n; i++) {
        bls381_g1_affine_to_uncompressed(b, &pts[i]);
        io_writer_bytes(w, b, sizeof(b));
    }
}

static void bp_write_g2s_(io_writer_t *w, const bls381_g2_affine_t *pts, uint64_t n)
{
    unsigned char b[BP_G2_BYTES];
    for (uint64_t i = 0; i < n; i++) {
        bls381_g2_affine_to_uncompressed(b, &pts[i]);
        io_writer_bytes(w, b, sizeof(b));
    }
}

static void bp_write_len_(io_writer_t *w, uint32_t n)
{
    unsigned char b[BP_LEN_BYTES];
    bp_store_be32_(b, n);
    io_writer_bytes(w, b, sizeof(b));
}

/* Whether vk can be written so that the reader takes it back. */
static cuzk_status_t bp_vk_check_writable_(const bp_vk_t *vk, const char *path, char *err,
                                           size_t err_size)
{
    bp_vk_t copy = *vk; /* bp_vk_slots_ takes a mutable key; it is only read here */
    void *slots[BP_VK_POINTS];
    bp_vk_slots_(&copy, slots);
    for (int i = 0; i < BP_VK_POINTS; i++)
        if (bp_points_unwritable_(slots[i], 1, bp_vk_g2_[i]))
            return io_fail(err, err_size, CUZK_EINVAL,
                           "%s: %s is the point at infinity, which the format cannot hold", path,
                           bp_vk_names_[i]);
    if (vk->n_ic == 0 || bp_points_unwritable_(vk->ic, vk->n_ic, false))
        return io_fail(err, err_size, CUZK_EINVAL,
                       "%s: IC must hold at least one point, none at infinity", path);
    return CUZK_OK;
}

static void bp_vk_write_block_(io_writer_t *w, const bp_vk_t *vk)
{
    bp_write_g1s_(w, &vk->alpha1, 1);
    bp_write_g1s_(w, &vk->beta1, 1);
    bp_write_g2s_(w, &vk->beta2, 1);
    bp_write_g2s_(w, &vk->gamma2, 1);
    bp_write_g1s_(w, &vk->delta1, 1);
    bp_write_g2s_(w, &vk->delta2, 1);
    bp_write_len_(w, vk->n_ic);
    bp_write_g1s_(w, vk->ic, vk->n_ic);
}

cuzk_status_t bp_vk_write_to(io_output_t *out, const bp_vk_t *vk, char *err, size_t err_size)
{
    const char *path = out->path;
    cuzk_status_t st = bp_vk_check_writable_(vk, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    io_writer_t w;
    io_writer_begin(&w, out);
    bp_vk_write_block_(&w, vk);
    io_writer_end(&w);
    return CUZK_OK;
}

cuzk_status_t bp_vk_write(const char *path, const bp_vk_t *vk, char *err, size_t err_size)
{
    io_output_t out;
    cuzk_status_t st = io_output_open(&out, path, err, err_size);
    if (st == CUZK_OK)
        st = io_output_close(&out, bp_vk_write_to(&out, vk, err, err_size), err, err_size);
    return st;
}

cuzk_status_t bp_params_write_to(io_output_t *out, const bp_params_t *p, char *err, size_t err_size)
{
    const char *path = out->path;
    cuzk_status_t st = bp_vk_check_writable_(&p->vk, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    if (p->n_h == UINT32_MAX || ((p->n_h + 1) & p->n_h) != 0 || p->n_a < p->vk.n_ic)
        return io_fail(err, err_size, CUZK_EINVAL,
                       "%s: counts the format does not allow: n_h + 1 = %" PRIu64
                       " must be a power of two, n_a = %" PRIu32 " at least n_ic = %" PRIu32,
                       path, (uint64_t)p->n_h + 1, p->n_a, p->vk.n_ic);
    if (bp_points_unwritable_(p->h, p->n_h, false) || bp_points_unwritable_(p->l, p->n_l, false) ||
        bp_points_unwritable_(p->a, p->n_a, false) ||
        bp_points_unwritable_(p->b_g1, p->n_b, false) ||
        bp_points_unwritable_(p->b_g2, p->n_b, true))
        return io_fail(err, err_size, CUZK_EINVAL,
                       "%s: a query vector has no data or a point at infinity, which the format "
                       "cannot hold",
                       path);
    io_writer_t w;
    io_writer_begin(&w, out);
    bp_vk_write_block_(&w, &p->vk);
    bp_write_len_(&w, p->n_h);
    bp_write_g1s_(&w, p->h, p->n_h);
    bp_write_len_(&w, p->n_l);
    bp_write_g1s_(&w, p->l, p->n_l);
    bp_write_len_(&w, p->n_a);
    bp_write_g1s_(&w, p->a, p->n_a);
    bp_write_len_(&w, p->n_b);
    bp_write_g1s_(&w, p->b_g1, p->n_b);
    bp_write_len_(&w, p->n_b);
    bp_write_g2s_(&w, p->b_g2, p->n_b);
    io_writer_end(&w);
    return CUZK_OK;
}

cuzk_status_t bp_params_write(const char *path, const bp_params_t *p, char *err, size_t err_size)
{
    io_output_t out;
    cuzk_status_t st = io_output_open(&out, path, err, err_size);
    if (st == CUZK_OK)
        st = io_output_close(&out, bp_params_write_to(&out, p, err, err_size), err, err_size);
    return st;
}

/* ---- proofs ------------------------------------------------------------------- */

static const char *const bp_proof_names_[BP_PROOF_ELEMENTS] = {"A", "B", "C"};

void bp_proof_encode(unsigned char out[BP_PROOF_BYTES], const bp_proof_t *proof)
{
    bls381_g1_affine_to_compressed(out, &proof->a);
    bls381_g2_affine_to_compressed(out + bls381_g1_COMPRESSED_BYTES, &proof->b);
    bls381_g1_affine_to_compressed(out + bls381_g1_COMPRESSED_BYTES + bls381_g2_COMPRESSED_BYTES,
                                   &proof->c);
}

cuzk_status_t bp_proof_decode(bp_proof_t *proof, const unsigned char in[BP_PROOF_BYTES],
                              const char *name, size_t index, char *err, size_t err_size)
{
    void *slots[BP_PROOF_ELEMENTS] = {&proof->a, &proof->b, &proof->c};
    size_t pos = 0;
    for (int i = 0; i < BP_PROOF_ELEMENTS; i++) {
        bool g2 = i == 1;
        size_t len = g2 ? bls381_g2_COMPRESSED_BYTES : bls381_g1_COMPRESSED_BYTES;
        cuzk_status_t st = bp_decode_(slots[i], g2, in + pos, len, 0);
        if (st != CUZK_OK)
            return io_fail(err, err_size, bp_status_(st), "%s: proof %zu: %s %s", name, index,
                           bp_proof_names_[i], bp_problem_(st, in + pos, len, true));
        pos += len;
    }
    return CUZK_OK;
}

cuzk_status_t bp_proofs_parse(bp_proof_t **proofs, size_t *n, const unsigned char *data,
                              uint64_t size, const char *name, char *err, size_t err_size)
{
    *proofs = NULL;
    *n = 0;
    if (size == 0 || size % BP_PROOF_BYTES != 0)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: %" PRIu64 " bytes is not a positive multiple of %d, the size of "
                       "one proof (%" PRIu64 " whole proofs and %" PRIu64 " bytes over)",
                       name, size, BP_PROOF_BYTES, size / BP_PROOF_BYTES, size % BP_PROOF_BYTES);
    size_t count = (size_t)(size / BP_PROOF_BYTES);
    bp_proof_t *p = malloc(count * sizeof(*p));
    if (!p)
        return io_fail(err, err_size, CUZK_ENOMEM, "%s: no memory for %zu proofs", name, count);
    cuzk_status_t st = CUZK_OK;
    for (size_t i = 0; i < count && st == CUZK_OK; i++)
        st = bp_proof_decode(&p[i], data + i * BP_PROOF_BYTES, name, i, err, err_size);
    if (st != CUZK_OK) {
        free(p);
        return st;
    }
    *proofs = p;
    *n = count;
    return CUZK_OK;
}

cuzk_status_t bp_proofs_read(bp_proof_t **proofs, size_t *n, const char *path, char *err,
                             size_t err_size)
{
    *proofs = NULL;
    *n = 0;
    io_map_t m;
    cuzk_status_t st = io_map_open(&m, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    st = io_map_check(&m, bp_proofs_parse(proofs, n, m.data, m.size, path, err, err_size), path,
                      err, err_size);
    io_map_close(&m);
    if (st != CUZK_OK && *proofs) {
        free(*proofs);
        *proofs = NULL;
        *n = 0;
    }
    return st;
}

cuzk_status_t bp_proofs_write_to(io_output_t *out, const bp_proof_t *proofs, size_t n, char *err,
                                 size_t err_size)
{
    const char *path = out->path;
    if (n == 0 || !proofs)
        return io_fail(err, err_size, CUZK_EINVAL, "%s: a proof file holds at least one proof",
                       path);
    for (size_t i = 0; i < n; i++)
        if (bls381_g1_affine_is_infinity(&proofs[i].a) ||
            bls381_g2_affine_is_infinity(&proofs[i].b) ||
            bls381_g1_affine_is_infinity(&proofs[i].c))
            return io_fail(err, err_size, CUZK_EINVAL,
                           "%s: proof %zu has an element at infinity, which no reader accepts",
                           path, i);
    io_writer_t w;
    io_writer_begin(&w, out);
    unsigned char b[BP_PROOF_BYTES];
    for (size_t i = 0; i < n; i++) {
        bp_proof_encode(b, &proofs[i]);
        io_writer_bytes(&w, b, sizeof(b));
    }
    io_writer_end(&w);
    return CUZK_OK;
}

cuzk_status_t bp_proofs_write(const char *path, const bp_proof_t *proofs, size_t n, char *err,
                              size_t err_size)
{
    io_output_t out;
    cuzk_status_t st = io_output_open(&out, path, err, err_size);
    if (st == CUZK_OK)
        st = io_output_close(&out, bp_proofs_write_to(&out, proofs, n, err, err_size), err,
                             err_size);
    return st;
}

groth16_key_t bp_params_groth16_key(const bp_params_t *p)
{
    groth16_key_t g;
    memset(&g, 0, sizeof g);
    g.curve = R1CS_CURVE_BLS12_381;
    g.conv = GROTH16_BELLPERSON;
    g.n_public = p->vk.n_ic ? p->vk.n_ic - 1 : 0;
    g.n_vars = p->vk.n_ic + p->n_l;
    g.domain_size = p->n_h + 1;
    const bp_vk_t *v = &p->vk;
    g.u.bls381 =
        (groth16_key_bls381_t){v->alpha1, v->beta1, v->delta1, v->beta2, v->gamma2, v->delta2};
    g.ic = (groth16_points_t){v->ic, v->n_ic};
    g.h = (groth16_points_t){p->h, p->n_h};
    g.l = (groth16_points_t){p->l, p->n_l};
    g.a = (groth16_points_t){p->a, p->n_a};
    g.b1 = (groth16_points_t){p->b_g1, p->n_b};
    g.b2 = (groth16_points_t){p->b_g2, p->n_b};
    return g;
}
