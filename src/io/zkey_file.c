#include "io/zkey_file.h"

#include <assert.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <string.h>

#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "io/iden3.h"
#include "io/io_error.h"
#include "msm/bls381_msm.h"
#include "msm/bn254_msm.h"

#define ZKEY_MAGIC "zkey"

enum {
    ZKEY_N_SECTIONS = 10,
    ZKEY_MAX_N8Q = 48,
    ZKEY_HEADER_POINTS = 6,
};

/* ---- the two curves ----------------------------------------------------- */

/* A point decoder or encoder of ec_tmpl.h with the point type erased. */
typedef cuzk_status_t (*zkey_decode_fn_)(void *r, const unsigned char *in, size_t len,
                                         unsigned flags);
typedef void (*zkey_encode_fn_)(unsigned char *out, const void *p);

static cuzk_status_t zkey_bn254_g1_decode_(void *r, const unsigned char *in, size_t len,
                                           unsigned flags)
{
    return bn254_g1_affine_from_snarkjs(r, in, len, flags);
}

static cuzk_status_t zkey_bn254_g2_decode_(void *r, const unsigned char *in, size_t len,
                                           unsigned flags)
{
    return bn254_g2_affine_from_snarkjs(r, in, len, flags);
}

static cuzk_status_t zkey_bls381_g1_decode_(void *r, const unsigned char *in, size_t len,
                                            unsigned flags)
{
    return bls381_g1_affine_from_snarkjs(r, in, len, flags);
}

static cuzk_status_t zkey_bls381_g2_decode_(void *r, const unsigned char *in, size_t len,
                                            unsigned flags)
{
    return bls381_g2_affine_from_snarkjs(r, in, len, flags);
}

static void zkey_bn254_g1_encode_(unsigned char *out, const void *p)
{
    bn254_g1_affine_to_snarkjs(out, p);
}

static void zkey_bn254_g2_encode_(unsigned char *out, const void *p)
{
    bn254_g2_affine_to_snarkjs(out, p);
}

static void zkey_bls381_g1_encode_(unsigned char *out, const void *p)
{
    bls381_g1_affine_to_snarkjs(out, p);
}

static void zkey_bls381_g2_encode_(unsigned char *out, const void *p)
{
    bls381_g2_affine_to_snarkjs(out, p);
}

/* NAME_snarkjs_first_invalid of one group (ec_tmpl.h). */
typedef size_t (*zkey_scan_fn_)(const unsigned char *in, size_t n);

/* NAME_msm_subgroup_first_outside of one group (msm_tmpl.h). */
typedef cuzk_status_t (*zkey_outside_fn_)(size_t *first, const void *const *pts,
                                          const size_t *counts, size_t m, rng_t *rng, pool_t *pool);

typedef struct zkey_curve_ {
    r1cs_curve_t curve;
    uint32_t n8q;
    const uint64_t *q; /* n8q / 8 limbs */
    zkey_decode_fn_ decode[2];
    zkey_scan_fn_ scan[2];
    zkey_encode_fn_ encode[2];   /* [0] G1, [1] G2 */
    zkey_outside_fn_ outside[2]; /* NULL: the group has prime order */
} zkey_curve_t_;

static const zkey_curve_t_ zkey_curves_[] = {
    {R1CS_CURVE_BN254,
     sizeof(bn254_fp_t),
     bn254_fp_MODULUS,
     {zkey_bn254_g1_decode_, zkey_bn254_g2_decode_},
     {bn254_g1_snarkjs_first_invalid, bn254_g2_snarkjs_first_invalid},
     {zkey_bn254_g1_encode_, zkey_bn254_g2_encode_},
     {NULL, bn254_g2_msm_subgroup_first_outside}},
    {R1CS_CURVE_BLS12_381,
     sizeof(bls381_fp_t),
     bls381_fp_MODULUS,
     {zkey_bls381_g1_decode_, zkey_bls381_g2_decode_},
     {bls381_g1_snarkjs_first_invalid, bls381_g2_snarkjs_first_invalid},
     {zkey_bls381_g1_encode_, zkey_bls381_g2_encode_},
     {bls381_g1_msm_subgroup_first_outside, bls381_g2_msm_subgroup_first_outside}},
};

_Static_assert(sizeof(bn254_g1_affine_t) == bn254_g1_SNARKJS_BYTES &&
                   sizeof(bn254_g2_affine_t) == bn254_g2_SNARKJS_BYTES &&
                   sizeof(bls381_g1_affine_t) == bls381_g1_SNARKJS_BYTES &&
                   sizeof(bls381_g2_affine_t) == bls381_g2_SNARKJS_BYTES,
               "the zkey point layout is the in-memory affine layout");

static const zkey_curve_t_ *zkey_curve_(r1cs_curve_t curve)
{
    for (size_t i = 0; i < sizeof(zkey_curves_) / sizeof(zkey_curves_[0]); i++)
        if (zkey_curves_[i].curve == curve)
            return &zkey_curves_[i];
    return NULL;
}

/* q of cv as n8q little-endian bytes. */
static void zkey_q_le_(unsigned char *out, const zkey_curve_t_ *cv)
{
    for (uint32_t i = 0; i < cv->n8q; i++)
        out[i] = (unsigned char)(cv->q[i / 8] >> (8 * (i % 8)));
}

/* The curve whose base field has n8q-byte prime q, or NULL. */
static const zkey_curve_t_ *zkey_curve_from_q_(uint32_t n8q, const unsigned char *q)
{
    for (size_t i = 0; i < sizeof(zkey_curves_) / sizeof(zkey_curves_[0]); i++) {
        unsigned char p[ZKEY_MAX_N8Q];
        if (zkey_curves_[i].n8q != n8q)
            continue;
        zkey_q_le_(p, &zkey_curves_[i]);
        if (memcmp(p, q, n8q) == 0)
            return &zkey_curves_[i];
    }
    return NULL;
}

/* n little-endian bytes as hexadecimal, most significant first (n <= 48). */
static void zkey_hex_le_(char *out, const unsigned char *le, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[le[n - 1 - i] >> 4];
        out[2 * i + 1] = digits[le[n - 1 - i] & 0xf];
    }
    out[2 * n] = '\0';
}

/* Whether the IO_FR_BYTES little-endian value at v is below r (r_le). */
static bool zkey_fr_below_(const unsigned char *v, const unsigned char *r_le)
{
    for (int i = IO_FR_BYTES - 1; i >= 0; i--)
        if (v[i] != r_le[i])
            return v[i] < r_le[i];
    return false;
}

/* What a decoder's status means, for messages. */
static const char *zkey_point_problem_(cuzk_status_t st)
{
    switch (st) {
    case CUZK_ENONCANONICAL: return "has a coordinate that is not below q";
    case CUZK_ENOTONCURVE: return "is not on the curve";
    case CUZK_ENOTINSUBGROUP: return "is not in the order-r subgroup";
    case CUZK_EINFINITY: return "is the point at infinity";
    default: return "cannot be decoded";
    }
}

/* ---- parallel scans ----------------------------------------------------- */

/*
 * The items a key's validation checks (IC points, coefficients, the A, B1,
 * B2, C and H points), as one index space: the sections in file order,
 * each a range with its own check, true when item i of the range is fine.
 * One pool loop covers them all, in chunks of ZKEY_SCAN_CHUNK items
 * whatever the section, so the threads finish within one chunk of each
 * other and no section waits for the slowest thread of the one before.
 * The scan finds the lowest failing index, i.e. the first failing
 * section's lowest failing item (the message names it, whatever the thread
 * split); workers stop at indices past the lowest failure seen.
 */
/* The first item in [begin, end) of a range whose check fails, or end. */
typedef uint64_t (*zkey_first_bad_fn_)(const void *ctx, uint64_t begin, uint64_t end);

typedef struct zkey_range_ {
    uint64_t start, count; /* flattened indices [start, start + count) */
    zkey_first_bad_fn_ first_bad;
    const void *ctx;
} zkey_range_t_;

/*
 * Items per chunk. A chunk of 256 BLS12-381 G1 points is about 13 ms of
 * subgroup tests (50 µs each, dev-epyc2), short enough that the threads end
 * a 2^16-point section within a few percent of each other, long enough that
 * claiming it (one atomic increment) costs nothing; 256 coefficients or
 * points at infinity take microseconds.
 */
enum { ZKEY_SCAN_CHUNK = 256 };

typedef struct zkey_scan_ {
    const zkey_range_t_ *ranges;
    progress_t *progress;
    _Atomic uint64_t first_bad;
} zkey_scan_t_;

static void zkey_scan_body_(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    zkey_scan_t_ *s = ctx;
    const zkey_range_t_ *r = s->ranges;
    for (size_t i = begin; i < end;) {
        while (i >= r->start + r->count) /* end < the total: a range holds i */
            r++;
        if (i >= atomic_load_explicit(&s->first_bad, memory_order_relaxed))
            return;
        uint64_t stop = end < r->start + r->count ? end : r->start + r->count;
        uint64_t bad = r->start + r->first_bad(r->ctx, i - r->start, stop - r->start);
        if (bad < stop) {
            uint64_t seen = atomic_load_explicit(&s->first_bad, memory_order_relaxed);
            while (bad < seen && !atomic_compare_exchange_weak_explicit(&s->first_bad, &seen, bad,
                                                                        memory_order_relaxed,
                                                                        memory_order_relaxed)) {
            }
            return;
        }
        i = stop;
    }
    progress_advance(s->progress, end - begin);
}

/* The lowest flattened index over n ranges (each starting where the one
 * before ends) whose check fails, or their total. */
static uint64_t zkey_scan_(pool_t *pool, const zkey_range_t_ *ranges, size_t n,
                           progress_t *progress)
{
    uint64_t total = n ? ranges[n - 1].start + ranges[n - 1].count : 0;
    zkey_scan_t_ s = {ranges, progress, total};
    progress_begin(progress, "check", total, "items");
    pool_for(pool, (size_t)total, ZKEY_SCAN_CHUNK, zkey_scan_body_, &s);
    return atomic_load(&s.first_bad);
}

/* ---- the reader --------------------------------------------------------- */

typedef struct zkey_points_scan_ {
    const unsigned char *data;
    uint32_t bytes;
    zkey_decode_fn_ decode;
    zkey_scan_fn_ scan;
    unsigned flags;
} zkey_points_scan_t_;

typedef union {
    bn254_g1_affine_t bn254_g1;
    bn254_g2_affine_t bn254_g2;
    bls381_g1_affine_t bls381_g1;
    bls381_g2_affine_t bls381_g2;
} zkey_any_point_t_;

static cuzk_status_t zkey_point_status_(const zkey_points_scan_t_ *p, uint64_t i)
{
    zkey_any_point_t_ scratch;
    return p->decode(&scratch, p->data + i * p->bytes, p->bytes, p->flags);
}

/* The scan checks what the decoder checks with EC_DECODE_SKIP_SUBGROUP
 * (the subgroup comes after, in batches), many points a call. */
static uint64_t zkey_points_first_bad_(const void *ctx, uint64_t begin, uint64_t end)
{
    const zkey_points_scan_t_ *p = ctx;
    return begin + p->scan(p->data + begin * p->bytes, (size_t)(end - begin));
}

typedef struct zkey_coeffs_scan_ {
    const zkey_t *k;
    unsigned char r[IO_FR_BYTES];
} zkey_coeffs_scan_t_;

static uint64_t zkey_coeffs_first_bad_(const void *ctx, uint64_t begin, uint64_t end)
{
    const zkey_coeffs_scan_t_ *s = ctx;
    for (uint64_t i = begin; i < end; i++) {
        zkey_coeff_t e = zkey_coeff(s->k, (uint32_t)i);
        if (e.m > 1 || e.c >= s->k->domain_size || e.s >= s->k->n_vars ||
            !zkey_fr_below_(e.value, s->r))
            return i;
    }
    return end;
}

/* The message for coefficient i, which zkey_coeffs_first_bad_ found. */
static cuzk_status_t zkey_coeff_fail_(const io_cursor_t *c, const zkey_coeffs_scan_t_ *s,
                                      uint32_t i)
{
    zkey_coeff_t e = zkey_coeff(s->k, i);
    if (e.m > 1)
        return io_cursor_fail(
            c, CUZK_EBADFILE,
            "coefficient %" PRIu32 ": matrix m = %" PRIu32 ", expected 0 (A) or 1 (B)", i, e.m);
    if (e.c >= s->k->domain_size)
        return io_cursor_fail(c, CUZK_EBADFILE,
                              "coefficient %" PRIu32 ": constraint c = %" PRIu32
                              " but domainSize is %" PRIu32,
                              i, e.c, s->k->domain_size);
    if (e.s >= s->k->n_vars)
        return io_cursor_fail(c, CUZK_EBADFILE,
                              "coefficient %" PRIu32 ": wire s = %" PRIu32 " but nVars is %" PRIu32,
                              i, e.s, s->k->n_vars);
    return io_cursor_fail(c, CUZK_ENONCANONICAL,
                          "coefficient %" PRIu32 ": value is not below r of %s", i,
                          r1cs_curve_name(s->k->curve));
}

/* Section 2 up to the points: the fields, the curve. */
static cuzk_status_t zkey_read_fields_(io_cursor_t *c, zkey_t *k, const zkey_curve_t_ **cv)
{
    cuzk_status_t st;
    const unsigned char *q, *r;
    if ((st = io_cursor_u32(c, &k->n8q, "n8q")) != CUZK_OK)
        return st;
    if (k->n8q != sizeof(bn254_fp_t) && k->n8q != sizeof(bls381_fp_t))
        return io_cursor_fail(c, CUZK_EUNSUPPORTED,
                              "n8q = %" PRIu32 ": base-field elements of %" PRIu32
                              " bytes; cuzk reads BN254 (n8q = 32) and BLS12-381 (n8q = 48)",
                              k->n8q, k->n8q);
    if ((st = io_cursor_bytes(c, &q, k->n8q, "q")) != CUZK_OK ||
        (st = io_cursor_u32(c, &k->n8r, "n8r")) != CUZK_OK)
        return st;
    if (k->n8r != IO_FR_BYTES)
        return io_cursor_fail(c, CUZK_EUNSUPPORTED,
                              "n8r = %" PRIu32 ": scalar-field elements of %" PRIu32
                              " bytes; cuzk reads n8r = %d (BN254 and BLS12-381)",
                              k->n8r, k->n8r, IO_FR_BYTES);
    if ((st = io_cursor_bytes(c, &r, IO_FR_BYTES, "r")) != CUZK_OK)
        return st;
    const zkey_curve_t_ *qc = zkey_curve_from_q_(k->n8q, q);
    r1cs_curve_t rc = io_fr_curve_from_prime(r);
    if (!qc || rc == R1CS_CURVE_NONE || qc->curve != rc) {
        char qhex[2 * ZKEY_MAX_N8Q + 1], rhex[IO_FR_HEX_SIZE];
        zkey_hex_le_(qhex, q, k->n8q);
        io_fr_hex_le(rhex, r);
        return io_cursor_fail(c, CUZK_EUNSUPPORTED,
                              "q = 0x%s (%s) and r = 0x%s (%s) are not the base and scalar "
                              "fields of one curve cuzk supports (BN254, BLS12-381)",
                              qhex, qc ? r1cs_curve_name(qc->curve) : "unknown", rhex,
                              rc != R1CS_CURVE_NONE ? r1cs_curve_name(rc) : "unknown");
    }
    *cv = qc;
    k->curve = qc->curve;
    if ((st = io_cursor_u32(c, &k->n_vars, "nVars")) != CUZK_OK ||
        (st = io_cursor_u32(c, &k->n_public, "nPublic")) != CUZK_OK ||
        (st = io_cursor_u32(c, &k->domain_size, "domainSize")) != CUZK_OK)
        return st;
    if (k->n_vars <= k->n_public)
        return io_cursor_fail(c, CUZK_EBADFILE,
                              "nVars = %" PRIu32 " must exceed nPublic = %" PRIu32
                              " (wire 0 is ONE)",
                              k->n_vars, k->n_public);
    unsigned s = k->curve == R1CS_CURVE_BN254 ? bn254_fr_two_adicity() : bls381_fr_two_adicity();
    uint32_t d = k->domain_size;
    if (d == 0 || (d & (d - 1)) != 0 || (s < 32 && d > (UINT32_C(1) << s)))
        return io_cursor_fail(c, CUZK_EBADFILE,
                              "domainSize = %" PRIu32 ": expected a power of two up to 2^%u", d, s);
    if (d < (uint64_t)k->n_public + 1)
        return io_cursor_fail(c, CUZK_EBADFILE,
                              "domainSize = %" PRIu32 " cannot hold the nPublic + 1 = %" PRIu64
                              " rows of the public inputs",
                              d, (uint64_t)k->n_public + 1);
    return CUZK_OK;
}

/* The six header points, file order, with the slot and group of each. */
static void zkey_header_slots_(zkey_t *k, void *slots[ZKEY_HEADER_POINTS])
{
    if (k->curve == R1CS_CURVE_BN254) {
        zkey_bn254_t *h = &k->u.bn254;
        void *s[] = {&h->alpha1, &h->beta1, &h->beta2, &h->gamma2, &h->delta1, &h->delta2};
        memcpy(slots, s, sizeof(s));
    } else {
        zkey_bls381_t *h = &k->u.bls381;
        void *s[] = {&h->alpha1, &h->beta1, &h->beta2, &h->gamma2, &h->delta1, &h->delta2};
        memcpy(slots, s, sizeof(s));
    }
}

static const char *const zkey_header_names_[ZKEY_HEADER_POINTS] = {"alpha1", "beta1",  "beta2",
                                                                   "gamma2", "delta1", "delta2"};
static const int zkey_header_g2_[ZKEY_HEADER_POINTS] = {0, 0, 1, 1, 0, 1};

static cuzk_status_t zkey_read_header_(io_cursor_t *c, zkey_t *k, const zkey_curve_t_ **cv)
{
    cuzk_status_t st = zkey_read_fields_(c, k, cv);
    if (st != CUZK_OK)
        return st;
    if (!*cv) /* set by zkey_read_fields_ on success; guards the analyzer's view */
        return io_cursor_fail(c, CUZK_EUNSUPPORTED, "curve not identified");
    void *slots[ZKEY_HEADER_POINTS];
    zkey_header_slots_(k, slots);
    for (int i = 0; i < ZKEY_HEADER_POINTS; i++) {
        uint32_t bytes = (zkey_header_g2_[i] ? 4 : 2) * k->n8q;
        const unsigned char *p;
        if ((st = io_cursor_bytes(c, &p, bytes, zkey_header_names_[i])) != CUZK_OK)
            return st;
        st = (*cv)->decode[zkey_header_g2_[i]](slots[i], p, bytes, EC_DECODE_NO_INFINITY);
        if (st != CUZK_OK)
            return io_cursor_fail(c, st, "%s %s", zkey_header_names_[i], zkey_point_problem_(st));
    }
    return io_cursor_end(c, "delta2");
}

/* A section of the table: id, name, the group of its points (-1: coeffs). */
typedef struct zkey_section_info_ {
    uint32_t id;
    const char *name;
    int g2;
} zkey_section_info_t_;

static const zkey_section_info_t_ zkey_sections_[] = {
    {ZKEY_SECTION_IC, "IC", 0},        {ZKEY_SECTION_COEFFS, "coeffs", -1},
    {ZKEY_SECTION_POINTS_A, "A", 0},   {ZKEY_SECTION_POINTS_B1, "B1", 0},
    {ZKEY_SECTION_POINTS_B2, "B2", 1}, {ZKEY_SECTION_POINTS_C, "C", 0},
    {ZKEY_SECTION_POINTS_H, "H", 0},
};

/* Where the reader stores the start of section id. */
static const unsigned char **zkey_section_slot_(zkey_t *k, uint32_t id)
{
    switch (id) {
    case ZKEY_SECTION_IC: return &k->ic;
    case ZKEY_SECTION_COEFFS: return &k->coeffs;
    case ZKEY_SECTION_POINTS_A: return &k->a;
    case ZKEY_SECTION_POINTS_B1: return &k->b1;
    case ZKEY_SECTION_POINTS_B2: return &k->b2;
    case ZKEY_SECTION_POINTS_C: return &k->c;
    default: assert(id == ZKEY_SECTION_POINTS_H); return &k->h;
    }
}

static const unsigned char *zkey_section_data_(const zkey_t *k, uint32_t id)
{
    switch (id) {
    case ZKEY_SECTION_IC: return k->ic;
    case ZKEY_SECTION_COEFFS: return k->coeffs;
    case ZKEY_SECTION_POINTS_A: return k->a;
    case ZKEY_SECTION_POINTS_B1: return k->b1;
    case ZKEY_SECTION_POINTS_B2: return k->b2;
    case ZKEY_SECTION_POINTS_C: return k->c;
    default: assert(id == ZKEY_SECTION_POINTS_H); return k->h;
    }
}

/* The number of points of a point section. */
static uint64_t zkey_point_count_(const zkey_t *k, uint32_t id)
{
    switch (id) {
    case ZKEY_SECTION_IC: return (uint64_t)k->n_public + 1;
    case ZKEY_SECTION_POINTS_C: return (uint64_t)k->n_vars - k->n_public - 1;
    case ZKEY_SECTION_POINTS_H: return k->domain_size;
    default: return k->n_vars;
    }
}

zkey_points_t zkey_points(const zkey_t *k, uint32_t section)
{
    assert(k->curve != R1CS_CURVE_NONE && section != ZKEY_SECTION_COEFFS &&
           section >= ZKEY_SECTION_IC && section <= ZKEY_SECTION_POINTS_H);
    zkey_points_t p;
    p.data = zkey_section_data_(k, section);
    p.count = zkey_point_count_(k, section);
    p.point_bytes = (section == ZKEY_SECTION_POINTS_B2 ? 4 : 2) * zkey_curve_(k->curve)->n8q;
    return p;
}

/* Section 4: nCoef against the size; the entries are checked by the scan. */
static cuzk_status_t zkey_read_coeffs_(io_cursor_t *c, zkey_t *k)
{
    cuzk_status_t st = io_cursor_u32(c, &k->n_coeffs, "nCoef");
    if (st != CUZK_OK)
        return st;
    uint64_t expected = 4 + (uint64_t)k->n_coeffs * ZKEY_COEFF_BYTES;
    if (c->size != expected)
        return io_cursor_fail(c, CUZK_EBADFILE,
                              "size %" PRIu64 ", expected 4 + nCoef × %d = 4 + %" PRIu32
                              " × %d = %" PRIu64,
                              c->size, ZKEY_COEFF_BYTES, k->n_coeffs, ZKEY_COEFF_BYTES, expected);
    k->coeffs = c->data + 4;
    return CUZK_OK;
}

/*
 * *outside = the lowest flattened index (the scan's index space, ranges[i]
 * for zkey_sections_[i]) below `upto` of an IC or query point outside the
 * order-r subgroup, or `upto` when there is none; the points below `upto`
 * are on their curve. One batch check a group (G1: IC, A, B1, C, H; G2:
 * B2), and a bisection in a group where one finds a point outside
 * (NAME_msm_subgroup_first_outside).
 */
static cuzk_status_t zkey_subgroup_(uint64_t *outside, const zkey_t *k, const zkey_curve_t_ *cv,
                                    const zkey_range_t_ *ranges, uint64_t upto, pool_t *pool,
                                    progress_t *progress)
{
    enum { N = sizeof(zkey_sections_) / sizeof(zkey_sections_[0]) };
    *outside = upto;
    for (int g2 = 0; g2 < 2; g2++) {
        uint64_t group = 0;
        for (size_t i = 0; i < N; i++)
            group += zkey_sections_[i].g2 == g2 ? ranges[i].count : 0;
        if (!cv->outside[g2]) /* prime order */
            continue;
        progress_begin(progress, g2 ? "subgroup G2" : "subgroup G1", group, "points");
        const void *pts[N];
        size_t counts[N], sec[N], m = 0;
        for (size_t i = 0; i < N; i++) {
            if (zkey_sections_[i].g2 != g2 || upto <= ranges[i].start)
                continue;
            uint64_t below = upto - ranges[i].start;
            pts[m] = zkey_points(k, zkey_sections_[i].id).data;
            sec[m] = i;
            counts[m++] = (size_t)(below < ranges[i].count ? below : ranges[i].count);
        }
        size_t first;
        cuzk_status_t st = cv->outside[g2](&first, pts, counts, m, NULL, pool);
        if (st != CUZK_OK)
            return st;
        progress_set(progress, group);
        for (size_t j = 0; j < m; first -= counts[j++]) {
            if (first < counts[j]) { /* the group's point `first` of array j */
                uint64_t at = ranges[sec[j]].start + first;
                *outside = at < *outside ? at : *outside;
                break;
            }
        }
    }
    return CUZK_OK;
}

static cuzk_status_t zkey_parse_(zkey_t *k, const iden3_file_t *f, pool_t *pool, unsigned flags,
                                 progress_t *progress, char *err, size_t err_size)
{
    const iden3_section_t *sp, *sh;
    cuzk_status_t st;
    io_cursor_t c;
    if ((st = iden3_require(f, ZKEY_SECTION_PROTOCOL, "protocol", &sp, err, err_size)) != CUZK_OK)
        return st;
    iden3_cursor(&c, f, sp, "protocol", err, err_size);
    uint32_t protocol;
    if ((st = io_cursor_u32(&c, &protocol, "the protocol")) != CUZK_OK ||
        (st = io_cursor_end(&c, "the protocol")) != CUZK_OK)
        return st;
    if (protocol == ZKEY_PROTOCOL_PLONK || protocol == ZKEY_PROTOCOL_FFLONK)
        return io_cursor_fail(&c, CUZK_EUNSUPPORTED, "a %s key; cuzk proves Groth16 (protocol 1)",
                              protocol == ZKEY_PROTOCOL_PLONK ? "PLONK" : "FFLONK");
    if (protocol != ZKEY_PROTOCOL_GROTH16)
        return io_cursor_fail(&c, CUZK_EBADFILE, "protocol %" PRIu32 ", expected 1 (Groth16)",
                              protocol);

    if ((st = iden3_require(f, ZKEY_SECTION_GROTH16_HEADER, "header", &sh, err, err_size)) !=
        CUZK_OK)
        return st;
    const zkey_curve_t_ *cv = NULL;
    iden3_cursor(&c, f, sh, "header", err, err_size);
    if ((st = zkey_read_header_(&c, k, &cv)) != CUZK_OK)
        return st;

    /* Presence and exact sizes of every section first: a wrong size is the
     * likelier corruption and cheaper to report than a bad point. */
    const size_t n_sections = sizeof(zkey_sections_) / sizeof(zkey_sections_[0]);
    const iden3_section_t *found[sizeof(zkey_sections_) / sizeof(zkey_sections_[0])];
    for (size_t i = 0; i < n_sections; i++) {
        const zkey_section_info_t_ *si = &zkey_sections_[i];
        if ((st = iden3_require(f, si->id, si->name, &found[i], err, err_size)) != CUZK_OK)
            return st;
        if (si->g2 < 0)
            continue;
        uint64_t count = zkey_point_count_(k, si->id);
        uint64_t bytes = (uint64_t)(si->g2 ? 4 : 2) * k->n8q;
        if (found[i]->size != count * bytes) {
            iden3_cursor(&c, f, found[i], si->name, err, err_size);
            return io_cursor_fail(&c, CUZK_EBADFILE,
                                  "size %" PRIu64 ", expected %" PRIu64 " points × %" PRIu64
                                  " bytes = %" PRIu64 " (nVars %" PRIu32 ", nPublic %" PRIu32
                                  ", domainSize %" PRIu32 ")",
                                  found[i]->size, count, bytes, count * bytes, k->n_vars,
                                  k->n_public, k->domain_size);
        }
        *zkey_section_slot_(k, si->id) = f->data + found[i]->offset;
    }
    /* Then every item of every section, in one scan. */
    zkey_range_t_ ranges[sizeof(zkey_sections_) / sizeof(zkey_sections_[0])];
    zkey_points_scan_t_ points[sizeof(zkey_sections_) / sizeof(zkey_sections_[0])];
    zkey_coeffs_scan_t_ coeffs = {k, {0}};
    io_fr_prime_le(k->curve, coeffs.r);
    uint64_t start = 0;
    for (size_t i = 0; i < n_sections; i++) {
        const zkey_section_info_t_ *si = &zkey_sections_[i];
        zkey_range_t_ *r = &ranges[i];
        r->start = start;
        if (si->g2 < 0) {
            iden3_cursor(&c, f, found[i], si->name, err, err_size);
            if ((st = zkey_read_coeffs_(&c, k)) != CUZK_OK)
                return st;
            r->count = k->n_coeffs;
            r->first_bad = zkey_coeffs_first_bad_;
            r->ctx = &coeffs;
        } else {
            zkey_points_t p = zkey_points(k, si->id);
            zkey_points_scan_t_ ps = {p.data, p.point_bytes, cv->decode[si->g2], cv->scan[si->g2],
                                      EC_DECODE_SKIP_SUBGROUP};
            points[i] = ps;
            r->count = p.count;
            r->first_bad = zkey_points_first_bad_;
            r->ctx = &points[i];
        }
        start += r->count;
    }
    /* Every item but the subgroup first; then the subgroup, in batches, of
     * the points before the first failure (all of them when none failed):
     * those are on their curve. The message names the lower of the two
     * failures, decoding its point again with every check. */
    uint64_t bad = zkey_scan_(pool, ranges, n_sections, progress);
    if (!(flags & ZKEY_TRUSTED)) {
        if ((st = zkey_subgroup_(&bad, k, cv, ranges, bad, pool, progress)) != CUZK_OK)
            return io_fail(err, err_size, st, "%s: the subgroup check of the points: %s", f->path,
                           cuzk_strerror(st));
        for (size_t i = 0; i < n_sections; i++)
            points[i].flags = 0; /* unused by the coefficients' range */
    }
    for (size_t i = 0; i < n_sections; i++) {
        if (bad >= ranges[i].start + ranges[i].count)
            continue;
        uint64_t j = bad - ranges[i].start;
        iden3_cursor(&c, f, found[i], zkey_sections_[i].name, err, err_size);
        if (zkey_sections_[i].g2 < 0)
            return zkey_coeff_fail_(&c, &coeffs, (uint32_t)j);
        st = zkey_point_status_(&points[i], j);
        return io_cursor_fail(&c, st, "point %" PRIu64 " %s", j, zkey_point_problem_(st));
    }
    return CUZK_OK;
}

cuzk_status_t zkey_file_parse(zkey_t *k, const unsigned char *data, uint64_t size, const char *name,
                              pool_t *pool, unsigned flags, progress_t *progress, char *err,
                              size_t err_size)
{
    memset(k, 0, sizeof(*k));
    iden3_file_t f;
    cuzk_status_t st = iden3_parse(&f, data, size, name, ZKEY_MAGIC, ZKEY_VERSION, err, err_size);
    if (st != CUZK_OK)
        return st;
    st = zkey_parse_(k, &f, pool, flags, progress, err, err_size);
    iden3_free(&f);
    if (st != CUZK_OK)
        memset(k, 0, sizeof(*k));
    return st;
}

cuzk_status_t zkey_file_read(zkey_t *k, const char *path, pool_t *pool, unsigned flags, char *err,
                             size_t err_size)
{
    memset(k, 0, sizeof(*k));
    io_map_t m;
    cuzk_status_t st = flags & ZKEY_COPY ? io_map_copy(&m, path, err, err_size)
                                         : io_map_open(&m, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    st =
        io_map_check(&m, zkey_file_parse(k, m.data, m.size, path, pool, flags, NULL, err, err_size),
                     path, err, err_size);
    if (st != CUZK_OK) {
        memset(k, 0, sizeof(*k));
        io_map_close(&m);
        return st;
    }
    k->map = m;
    return CUZK_OK;
}

void zkey_free(zkey_t *k)
{
    io_map_close(&k->map);
    memset(k, 0, sizeof(*k));
}

/* ---- the writer --------------------------------------------------------- */

void zkey_coeff_encode(r1cs_curve_t curve, unsigned char out[ZKEY_COEFF_BYTES], uint32_t m,
                       uint32_t c, uint32_t s, const void *coef)
{
    assert(curve == R1CS_CURVE_BN254 || curve == R1CS_CURVE_BLS12_381);
    for (int i = 0; i < 4; i++) {
        out[i] = (unsigned char)(m >> (8 * i));
        out[4 + i] = (unsigned char)(c >> (8 * i));
        out[8 + i] = (unsigned char)(s >> (8 * i));
    }
    /* The Montgomery product of coef·R with the raw constant R^2 is
     * coef·R^2: the "double Montgomery" value. Written raw. */
    const uint64_t *l;
    bn254_fr_t b;
    bls381_fr_t l381;
    if (curve == R1CS_CURVE_BN254) {
        bn254_fr_mul(&b, coef, &bn254_fr_R2);
        l = b.l;
    } else {
        bls381_fr_mul(&l381, coef, &bls381_fr_R2);
        l = l381.l;
    }
    for (int i = 0; i < IO_FR_BYTES; i++)
        out[12 + i] = (unsigned char)(l[i / 8] >> (8 * (i % 8)));
}

/* Whether k describes a key the writer can write; a message otherwise. */
static cuzk_status_t zkey_check_writable_(const zkey_t *k, const char *path, char *err,
                                          size_t err_size)
{
    if (!zkey_curve_(k->curve))
        return io_fail(err, err_size, CUZK_EINVAL, "%s: the key has no curve", path);
    if (k->n_vars <= k->n_public)
        return io_fail(err, err_size, CUZK_EINVAL,
                       "%s: nVars = %" PRIu32 " must exceed nPublic = %" PRIu32, path, k->n_vars,
                       k->n_public);
    uint32_t d = k->domain_size;
    if (d == 0 || (d & (d - 1)) != 0 || d < (uint64_t)k->n_public + 1)
        return io_fail(
            err, err_size, CUZK_EINVAL,
            "%s: domainSize = %" PRIu32 " must be a power of two of at least nPublic + 1", path, d);
    if (!k->ic || !k->a || !k->b1 || !k->b2 || !k->h || (k->n_coeffs && !k->coeffs) ||
        (k->n_vars > k->n_public + 1 && !k->c))
        return io_fail(err, err_size, CUZK_EINVAL, "%s: a section of the key has no data", path);
    return CUZK_OK;
}

cuzk_status_t zkey_file_write_to(io_output_t *out, const zkey_t *k, const unsigned char *cs_hash,
                                 char *err, size_t err_size)
{
    const char *path = out->path;
    cuzk_status_t st = zkey_check_writable_(k, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    const zkey_curve_t_ *cv = zkey_curve_(k->curve);
    zkey_t key = *k; /* zkey_header_slots_ takes a mutable key; it is only read here */
    io_writer_t w;
    io_writer_begin(&w, out);
    unsigned char buf[4 * ZKEY_MAX_N8Q];

    iden3_write_header(&w, ZKEY_MAGIC, ZKEY_VERSION, ZKEY_N_SECTIONS);
    iden3_write_section(&w, ZKEY_SECTION_PROTOCOL, 4);
    io_writer_u32(&w, ZKEY_PROTOCOL_GROTH16);

    iden3_write_section(&w, ZKEY_SECTION_GROTH16_HEADER, 20 + 19 * (uint64_t)cv->n8q + IO_FR_BYTES);
    io_writer_u32(&w, cv->n8q);
    zkey_q_le_(buf, cv);
    io_writer_bytes(&w, buf, cv->n8q);
    io_writer_u32(&w, IO_FR_BYTES);
    io_fr_prime_le(k->curve, buf);
    io_writer_bytes(&w, buf, IO_FR_BYTES);
    io_writer_u32(&w, k->n_vars);
    io_writer_u32(&w, k->n_public);
    io_writer_u32(&w, k->domain_size);
    void *slots[ZKEY_HEADER_POINTS];
    zkey_header_slots_(&key, slots);
    for (int i = 0; i < ZKEY_HEADER_POINTS; i++) {
        cv->encode[zkey_header_g2_[i]](buf, slots[i]);
        io_writer_bytes(&w, buf, (zkey_header_g2_[i] ? 4 : 2) * cv->n8q);
    }

    for (uint32_t id = ZKEY_SECTION_IC; id <= ZKEY_SECTION_POINTS_H; id++) {
        if (id == ZKEY_SECTION_COEFFS) {
            iden3_write_section(&w, id, 4 + (uint64_t)k->n_coeffs * ZKEY_COEFF_BYTES);
            io_writer_u32(&w, k->n_coeffs);
            if (k->n_coeffs)
                io_writer_bytes(&w, k->coeffs, (size_t)k->n_coeffs * ZKEY_COEFF_BYTES);
            continue;
        }
        zkey_points_t p = zkey_points(&key, id);
        iden3_write_section(&w, id, p.count * p.point_bytes);
        if (p.count)
            io_writer_bytes(&w, p.data, (size_t)(p.count * p.point_bytes));
    }

    static const unsigned char zero_hash[ZKEY_CS_HASH_BYTES];
    iden3_write_section(&w, ZKEY_SECTION_CONTRIBUTIONS, ZKEY_CS_HASH_BYTES + 4);
    io_writer_bytes(&w, cs_hash ? cs_hash : zero_hash, ZKEY_CS_HASH_BYTES);
    io_writer_u32(&w, 0); /* nContributions */
    io_writer_end(&w);
    return CUZK_OK;
}

cuzk_status_t zkey_file_write(const char *path, const zkey_t *k, const unsigned char *cs_hash,
                              char *err, size_t err_size)
{
    io_output_t out;
    cuzk_status_t st = io_output_open(&out, path, err, err_size);
    if (st == CUZK_OK)
        st = io_output_close(&out, zkey_file_write_to(&out, k, cs_hash, err, err_size), err,
                             err_size);
    return st;
}

groth16_key_t zkey_groth16_key(const zkey_t *k)
{
    groth16_key_t g;
    memset(&g, 0, sizeof g);
    g.curve = k->curve;
    g.conv = GROTH16_SNARKJS;
    g.n_public = k->n_public;
    g.n_vars = k->n_vars;
    g.domain_size = k->domain_size;
    if (k->curve == R1CS_CURVE_BN254) {
        const zkey_bn254_t *h = &k->u.bn254;
        g.u.bn254 =
            (groth16_key_bn254_t){h->alpha1, h->beta1, h->delta1, h->beta2, h->gamma2, h->delta2};
    } else {
        const zkey_bls381_t *h = &k->u.bls381;
        g.u.bls381 =
            (groth16_key_bls381_t){h->alpha1, h->beta1, h->delta1, h->beta2, h->gamma2, h->delta2};
    }
    static const uint32_t ids[6] = {ZKEY_SECTION_IC,        ZKEY_SECTION_POINTS_A,
                                    ZKEY_SECTION_POINTS_B1, ZKEY_SECTION_POINTS_B2,
                                    ZKEY_SECTION_POINTS_C,  ZKEY_SECTION_POINTS_H};
    groth16_points_t *dst[6] = {&g.ic, &g.a, &g.b1, &g.b2, &g.l, &g.h};
    for (int i = 0; i < 6; i++) {
        zkey_points_t p = zkey_points(k, ids[i]);
        *dst[i] = (groth16_points_t){p.data, p.count};
    }
    g.coeffs = k->coeffs;
    g.n_coeffs = k->n_coeffs;
    return g;
}

zkey_t zkey_from_groth16(const groth16_key_t *k)
{
    assert(k->conv.synth == GROTH16_SYNTH_COEFFS);
    zkey_t z;
    memset(&z, 0, sizeof z);
    z.curve = k->curve;
    z.n8q = k->curve == R1CS_CURVE_BN254 ? sizeof(bn254_fp_t) : sizeof(bls381_fp_t);
    z.n8r = IO_FR_BYTES;
    z.n_vars = k->n_vars;
    z.n_public = k->n_public;
    z.domain_size = k->domain_size;
    z.n_coeffs = k->n_coeffs;
    if (k->curve == R1CS_CURVE_BN254) {
        const groth16_key_bn254_t *h = &k->u.bn254;
        z.u.bn254 = (zkey_bn254_t){h->alpha1, h->beta1, h->delta1, h->beta2, h->gamma2, h->delta2};
    } else {
        const groth16_key_bls381_t *h = &k->u.bls381;
        z.u.bls381 =
            (zkey_bls381_t){h->alpha1, h->beta1, h->delta1, h->beta2, h->gamma2, h->delta2};
    }
    z.ic = k->ic.data;
    z.coeffs = k->coeffs;
    z.a = k->a.data;
    z.b1 = k->b1.data;
    z.b2 = k->b2.data;
    z.c = k->l.data;
    z.h = k->h.data;
    return z;
}
