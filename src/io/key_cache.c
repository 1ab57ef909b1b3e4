/* cuzk's key cache (key_cache.h, docs/KEYCACHE.md). */
#include "io/key_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "io/io_cursor.h"
#include "io/io_error.h"
#include "io/io_file.h"
#include "io/io_fr.h"
#include "io/io_output.h"
#include "msm/bls381_msm.h"
#include "msm/bn254_msm.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "the cache holds the in-memory layout of a little-endian host");

/* The header page (docs/KEYCACHE.md), byte offsets; integers little-endian. */
enum {
    KC_OFF_VERSION = 8,
    KC_OFF_KIND = 12,
    KC_OFF_CURVE = 16,
    KC_OFF_N_SECTIONS = 20,
    KC_OFF_FILE_SIZE = 24,
    KC_OFF_BODY = 32,     /* u64: where the body starts, = KEY_CACHE_ALIGN */
    KC_OFF_COUNTS = 40,   /* 8 × u32 */
    KC_COUNTS = 8,        /* zkey: nVars, nPublic, domainSize, nCoef; params: ic, h, l, a, b */
    KC_OFF_POINTS = 128,  /* alpha1, beta1, beta2, gamma2, delta1, delta2, packed */
    KC_POINTS_ROOM = 896, /* 3 · 96 + 3 · 192 = 864 for BLS12-381 */
    KC_OFF_TABLE = 1024,  /* KEY_CACHE_MAX_SECTIONS entries of KEY_CACHE_SECTION_BYTES */
    KC_OFF_CHECKSUM = KEY_CACHE_ALIGN - 8,
    KC_VK_POINTS = 6,
};

_Static_assert(KC_OFF_POINTS + KC_POINTS_ROOM <= KC_OFF_TABLE &&
                   KC_OFF_TABLE + KEY_CACHE_MAX_SECTIONS * KEY_CACHE_SECTION_BYTES <=
                       KC_OFF_CHECKSUM,
               "the header page holds its fields");

/*
 * Bytes per pread of the body. Large enough that the per-call cost is
 * nothing against the copy (64 MiB at several GB/s is tens of ms), small
 * enough to stay far below Linux's 2 GiB limit for one read.
 */
#define KC_READ_CHUNK ((size_t)64 << 20)

static const unsigned char kc_magic_[KEY_CACHE_MAGIC_BYTES] = {'c', 'u', 'z', 'k',
                                                               'k', 'e', 'y', '\0'};

static const char *const kc_vk_names_[KC_VK_POINTS] = {"alpha1", "beta1",  "beta2",
                                                       "gamma2", "delta1", "delta2"};
static const bool kc_vk_g2_[KC_VK_POINTS] = {false, false, true, true, false, true};

/* ---- small things ----------------------------------------------------------- */

static void kc_store_u32_(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void kc_store_u64_(unsigned char *p, uint64_t v)
{
    kc_store_u32_(p, (uint32_t)v);
    kc_store_u32_(p + 4, (uint32_t)(v >> 32));
}

static uint64_t kc_align_up_(uint64_t v)
{
    return (v + KEY_CACHE_ALIGN - 1) / KEY_CACHE_ALIGN * KEY_CACHE_ALIGN;
}

uint64_t key_cache_checksum(const unsigned char *page)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 offset basis */
    for (size_t i = 0; i < KC_OFF_CHECKSUM; i++) {
        h ^= page[i];
        h *= 0x100000001b3ull; /* FNV 64 prime */
    }
    return h;
}

bool key_cache_has_magic(const unsigned char *data, uint64_t size)
{
    return size >= KEY_CACHE_MAGIC_BYTES && memcmp(data, kc_magic_, KEY_CACHE_MAGIC_BYTES) == 0;
}

const char *key_cache_kind_name(key_cache_kind_t kind)
{
    switch (kind) {
    case KEY_CACHE_ZKEY: return "zkey";
    case KEY_CACHE_PARAMS: return "params";
    default: return "none";
    }
}

const char *key_cache_section_name(key_cache_kind_t kind, uint32_t id)
{
    switch (id) {
    case KEY_CACHE_SECTION_IC: return "ic";
    case KEY_CACHE_SECTION_COEFFS: return "coeffs";
    case KEY_CACHE_SECTION_A: return "a";
    case KEY_CACHE_SECTION_B1: return kind == KEY_CACHE_PARAMS ? "b_g1" : "b1";
    case KEY_CACHE_SECTION_B2: return kind == KEY_CACHE_PARAMS ? "b_g2" : "b2";
    case KEY_CACHE_SECTION_C: return "c";
    case KEY_CACHE_SECTION_H: return "h";
    case KEY_CACHE_SECTION_L: return "l";
    default: return "unknown";
    }
}

/* Bytes of an affine point of curve, G1 or G2. */
static uint32_t kc_point_bytes_(r1cs_curve_t curve, bool g2)
{
    if (curve == R1CS_CURVE_BN254)
        return g2 ? sizeof(bn254_g2_affine_t) : sizeof(bn254_g1_affine_t);
    return g2 ? sizeof(bls381_g2_affine_t) : sizeof(bls381_g1_affine_t);
}

/* Checks the point of curve at in (the in-memory layout read as the snarkjs
 * encoding, which it is: zkey_file.h) and writes it to r. */
static cuzk_status_t kc_decode_(r1cs_curve_t curve, bool g2, void *r, const unsigned char *in,
                                unsigned flags)
{
    size_t len = kc_point_bytes_(curve, g2);
    if (curve == R1CS_CURVE_BN254)
        return g2 ? bn254_g2_affine_from_snarkjs(r, in, len, flags)
                  : bn254_g1_affine_from_snarkjs(r, in, len, flags);
    return g2 ? bls381_g2_affine_from_snarkjs(r, in, len, flags)
              : bls381_g1_affine_from_snarkjs(r, in, len, flags);
}

/* Room for any affine point, where a check needs somewhere to decode to. */
typedef union {
    bn254_g1_affine_t bn254_g1;
    bn254_g2_affine_t bn254_g2;
    bls381_g1_affine_t bls381_g1;
    bls381_g2_affine_t bls381_g2;
} kc_any_point_t_;

/* What a decoder's refusal means, for messages. */
static const char *kc_problem_(cuzk_status_t st)
{
    if (st == CUZK_ENONCANONICAL)
        return "has a coordinate that is not below q";
    if (st == CUZK_ENOTONCURVE)
        return "is not on the curve";
    if (st == CUZK_ENOTINSUBGROUP)
        return "is not in the order-r subgroup";
    return st == CUZK_EINFINITY ? "is the point at infinity" : "cannot be decoded";
}

/* ---- the layout ----------------------------------------------------------------- */

/* h's counts as the header stores them. */
static void kc_counts_(const key_cache_header_t *h, uint32_t c[KC_COUNTS])
{
    memset(c, 0, KC_COUNTS * sizeof(uint32_t));
    if (h->kind == KEY_CACHE_ZKEY) {
        c[0] = h->n_vars;
        c[1] = h->n_public;
        c[2] = h->domain_size;
        c[3] = h->n_coeffs;
    } else {
        c[0] = h->n_ic;
        c[1] = h->n_h;
        c[2] = h->n_l;
        c[3] = h->n_a;
        c[4] = h->n_b;
    }
}

/* Whether h's counts are ones the readers of the source formats accept
 * (zkey_file.h, params_file.h); status and a message naming name when not. */
static cuzk_status_t kc_check_counts_(const key_cache_header_t *h, const char *name,
                                      cuzk_status_t status, char *err, size_t err_size)
{
    if (h->kind == KEY_CACHE_ZKEY) {
        unsigned s =
            h->curve == R1CS_CURVE_BN254 ? bn254_fr_two_adicity() : bls381_fr_two_adicity();
        uint32_t d = h->domain_size;
        if (h->n_vars <= h->n_public)
            return io_fail(err, err_size, status,
                           "%s: header: nVars = %" PRIu32 " must exceed nPublic = %" PRIu32, name,
                           h->n_vars, h->n_public);
        if (d == 0 || (d & (d - 1)) != 0 || (s < 32 && d > (UINT32_C(1) << s)) ||
            d < (uint64_t)h->n_public + 1)
            return io_fail(err, err_size, status,
                           "%s: header: domainSize = %" PRIu32
                           " must be a power of two from nPublic + 1 = %" PRIu64 " to 2^%u",
                           name, d, (uint64_t)h->n_public + 1, s);
        return CUZK_OK;
    }
    if (h->n_ic == 0 || h->n_h == UINT32_MAX || ((h->n_h + 1) & h->n_h) != 0 || h->n_a < h->n_ic)
        return io_fail(err, err_size, status,
                       "%s: header: counts bellperson parameters cannot have: ic_len = %" PRIu32
                       " (>= 1), h_len + 1 = %" PRIu64 " (a power of two), a_len = %" PRIu32
                       " (>= ic_len)",
                       name, h->n_ic, (uint64_t)h->n_h + 1, h->n_a);
    return CUZK_OK;
}

/* The section table and file size that h's kind, curve and counts give. */
static void kc_layout_(key_cache_header_t *h)
{
    typedef struct {
        uint32_t id, item_bytes;
        uint64_t count;
    } sec_t;
    uint32_t g1 = kc_point_bytes_(h->curve, false), g2 = kc_point_bytes_(h->curve, true);
    const sec_t zkey[] = {
        {KEY_CACHE_SECTION_IC, g1, (uint64_t)h->n_public + 1},
        {KEY_CACHE_SECTION_COEFFS, ZKEY_COEFF_BYTES, h->n_coeffs},
        {KEY_CACHE_SECTION_A, g1, h->n_vars},
        {KEY_CACHE_SECTION_B1, g1, h->n_vars},
        {KEY_CACHE_SECTION_B2, g2, h->n_vars},
        {KEY_CACHE_SECTION_C, g1, (uint64_t)h->n_vars - h->n_public - 1},
        {KEY_CACHE_SECTION_H, g1, h->domain_size},
    };
    const sec_t params[] = {
        {KEY_CACHE_SECTION_IC, g1, h->n_ic}, {KEY_CACHE_SECTION_H, g1, h->n_h},
        {KEY_CACHE_SECTION_L, g1, h->n_l},   {KEY_CACHE_SECTION_A, g1, h->n_a},
        {KEY_CACHE_SECTION_B1, g1, h->n_b},  {KEY_CACHE_SECTION_B2, g2, h->n_b},
    };
    bool z = h->kind == KEY_CACHE_ZKEY;
    const sec_t *s = z ? zkey : params;
    h->n_sections = z ? sizeof zkey / sizeof zkey[0] : sizeof params / sizeof params[0];
    uint64_t pos = KEY_CACHE_ALIGN;
    for (uint32_t i = 0; i < h->n_sections; i++) {
        key_cache_section_t *e = &h->sections[i];
        e->id = s[i].id;
        e->item_bytes = s[i].item_bytes;
        e->count = s[i].count;
        e->offset = kc_align_up_(pos);
        e->bytes = e->count * e->item_bytes;
        pos = e->offset + e->bytes;
    }
    h->file_size = kc_align_up_(pos);
}

/* The six fixed points of the verifying key of a zkey_t or bp_params_t, in
 * the header's order. */
static void kc_zkey_vk_slots_(zkey_t *k, void *slots[KC_VK_POINTS])
{
    if (k->curve == R1CS_CURVE_BN254) {
        zkey_bn254_t *u = &k->u.bn254;
        void *s[KC_VK_POINTS] = {&u->alpha1, &u->beta1,  &u->beta2,
                                 &u->gamma2, &u->delta1, &u->delta2};
        memcpy(slots, s, sizeof(s));
    } else {
        zkey_bls381_t *u = &k->u.bls381;
        void *s[KC_VK_POINTS] = {&u->alpha1, &u->beta1,  &u->beta2,
                                 &u->gamma2, &u->delta1, &u->delta2};
        memcpy(slots, s, sizeof(s));
    }
}

static void kc_params_vk_slots_(bp_vk_t *vk, void *slots[KC_VK_POINTS])
{
    void *s[KC_VK_POINTS] = {&vk->alpha1, &vk->beta1,  &vk->beta2,
                             &vk->gamma2, &vk->delta1, &vk->delta2};
    memcpy(slots, s, sizeof(s));
}

/* ---- the header ------------------------------------------------------------------ */

/*
 * Checks the header page (page_bytes of it at page) of a file of file_size
 * bytes and fills h; the six fixed points are decoded into slots (any of
 * them NULL: checked only).
 */
static cuzk_status_t kc_header_(key_cache_header_t *h, const unsigned char *page,
                                uint64_t page_bytes, uint64_t file_size, const char *name,
                                void *const slots[KC_VK_POINTS], char *err, size_t err_size)
{
    memset(h, 0, sizeof(*h));
    if (!key_cache_has_magic(page, page_bytes))
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: not a cuzk key cache (the file does not start with \"cuzkkey\")", name);
    if (page_bytes < KEY_CACHE_ALIGN)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: header: truncated: the header page needs %d bytes, the file has "
                       "%" PRIu64,
                       name, KEY_CACHE_ALIGN, page_bytes);
    h->version = io_load_u32(page + KC_OFF_VERSION);
    if (h->version != KEY_CACHE_VERSION)
        return io_fail(err, err_size, CUZK_EUNSUPPORTED,
                       "%s: header: version %" PRIu32 "; this build reads version %d (convert "
                       "the key again with this cuzk)",
                       name, h->version, KEY_CACHE_VERSION);
    uint64_t stored = io_load_u64(page + KC_OFF_CHECKSUM), sum = key_cache_checksum(page);
    if (stored != sum)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: header: checksum 0x%016" PRIx64 " but the page sums to 0x%016" PRIx64
                       ": the header is damaged",
                       name, stored, sum);
    uint32_t kind = io_load_u32(page + KC_OFF_KIND), curve = io_load_u32(page + KC_OFF_CURVE);
    if (kind != KEY_CACHE_ZKEY && kind != KEY_CACHE_PARAMS)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: header: kind %" PRIu32 ", expected 1 (zkey) or 2 (params)", name, kind);
    if ((curve != R1CS_CURVE_BN254 && curve != R1CS_CURVE_BLS12_381) ||
        (kind == KEY_CACHE_PARAMS && curve != R1CS_CURVE_BLS12_381))
        return io_fail(err, err_size, CUZK_EBADFILE, "%s: header: curve %" PRIu32 ", expected %s",
                       name, curve,
                       kind == KEY_CACHE_PARAMS ? "2 (BLS12-381, the only curve of bellperson "
                                                  "parameters)"
                                                : "1 (BN254) or 2 (BLS12-381)");
    h->kind = (key_cache_kind_t)kind;
    h->curve = (r1cs_curve_t)curve;
    uint64_t body = io_load_u64(page + KC_OFF_BODY);
    if (body != KEY_CACHE_ALIGN)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: header: the body starts at %" PRIu64 ", expected %d", name, body,
                       KEY_CACHE_ALIGN);
    uint32_t c[KC_COUNTS];
    for (int i = 0; i < KC_COUNTS; i++)
        c[i] = io_load_u32(page + KC_OFF_COUNTS + 4 * i);
    if (kind == KEY_CACHE_ZKEY) {
        h->n_vars = c[0], h->n_public = c[1], h->domain_size = c[2], h->n_coeffs = c[3];
    } else {
        h->n_ic = c[0], h->n_h = c[1], h->n_l = c[2], h->n_a = c[3], h->n_b = c[4];
    }
    cuzk_status_t st = kc_check_counts_(h, name, CUZK_EBADFILE, err, err_size);
    if (st != CUZK_OK)
        return st;
    kc_layout_(h);

    /* The table must be exactly the layout of the counts. */
    uint32_t n = io_load_u32(page + KC_OFF_N_SECTIONS);
    if (n != h->n_sections)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: header: %" PRIu32 " sections, a %s cache has %" PRIu32, name, n,
                       key_cache_kind_name(h->kind), h->n_sections);
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *e = page + KC_OFF_TABLE + (size_t)i * KEY_CACHE_SECTION_BYTES;
        const key_cache_section_t *x = &h->sections[i];
        const char *sec = key_cache_section_name(h->kind, x->id);
        uint64_t got[5] = {io_load_u32(e), io_load_u32(e + 4), io_load_u64(e + 8),
                           io_load_u64(e + 16), io_load_u64(e + 24)};
        uint64_t want[5] = {x->id, x->item_bytes, x->count, x->offset, x->bytes};
        static const char *const what[5] = {"id", "item size", "count", "offset", "length"};
        for (int f = 0; f < 5; f++)
            if (got[f] != want[f])
                return io_fail(err, err_size, CUZK_EBADFILE,
                               "%s: header: section table entry %" PRIu32 " (%s): %s %" PRIu64
                               ", the counts give %" PRIu64,
                               name, i, sec, what[f], got[f], want[f]);
    }
    uint64_t declared = io_load_u64(page + KC_OFF_FILE_SIZE);
    if (declared != h->file_size)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: header: file size %" PRIu64 ", the sections give %" PRIu64, name,
                       declared, h->file_size);

    /* The file against the layout: the first section that does not fit. */
    if (file_size < h->file_size) {
        for (uint32_t i = 0; i < n; i++) {
            const key_cache_section_t *x = &h->sections[i];
            if (x->offset + x->bytes > file_size)
                return io_fail(err, err_size, CUZK_EBADFILE,
                               "%s: section %s: truncated: %" PRIu64 " %s of %" PRIu32
                               " bytes need bytes %" PRIu64 " to %" PRIu64
                               ", the file has %" PRIu64,
                               name, key_cache_section_name(h->kind, x->id), x->count,
                               x->id == KEY_CACHE_SECTION_COEFFS ? "entries" : "points",
                               x->item_bytes, x->offset, x->offset + x->bytes, file_size);
        }
        return io_fail(
            err, err_size, CUZK_EBADFILE,
            "%s: section %s: truncated: its padding ends at %" PRIu64 ", the file at %" PRIu64,
            name, key_cache_section_name(h->kind, h->sections[n - 1].id), h->file_size, file_size);
    }
    if (file_size > h->file_size)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: %" PRIu64 " bytes left over after section %s: the header gives a file "
                       "of exactly %" PRIu64 " bytes",
                       name, file_size - h->file_size,
                       key_cache_section_name(h->kind, h->sections[n - 1].id), h->file_size);

    /* The fixed points of the verifying key, in full. */
    size_t pos = KC_OFF_POINTS;
    for (int i = 0; i < KC_VK_POINTS; i++) {
        kc_any_point_t_ scratch;
        void *out = slots && slots[i] ? slots[i] : &scratch;
        st = kc_decode_(h->curve, kc_vk_g2_[i], out, page + pos, EC_DECODE_NO_INFINITY);
        if (st != CUZK_OK)
            return io_fail(err, err_size, st, "%s: header: %s %s", name, kc_vk_names_[i],
                           kc_problem_(st));
        pos += kc_point_bytes_(h->curve, kc_vk_g2_[i]);
    }
    return CUZK_OK;
}

cuzk_status_t key_cache_header_parse(key_cache_header_t *h, const unsigned char *page,
                                     uint64_t page_bytes, uint64_t file_size, const char *name,
                                     char *err, size_t err_size)
{
    return kc_header_(h, page, page_bytes, file_size, name, NULL, err, err_size);
}

/* ---- the body's checks ------------------------------------------------------------ */

/* One section's items checked on the pool; the lowest failing index is
 * kept, so the message names the same item whatever the split. */
typedef struct kc_scan_ {
    const key_cache_t *kc;
    const key_cache_section_t *sec;
    const unsigned char *data;
    unsigned flags; /* EC_DECODE_* for points */
    unsigned char r[IO_FR_BYTES];
    _Atomic uint64_t first_bad;
    progress_t *progress;
} kc_scan_t_;

/* Coefficient i of the scan's section: 0 when fine, else which rule it
 * breaks (1: m, 2: c, 3: s, 4: value >= r). */
static int kc_coeff_fault_(const kc_scan_t_ *s, uint64_t i)
{
    const unsigned char *p = s->data + i * ZKEY_COEFF_BYTES;
    if (io_load_u32(p) > 1)
        return 1;
    if (io_load_u32(p + 4) >= s->kc->hdr.domain_size)
        return 2;
    if (io_load_u32(p + 8) >= s->kc->hdr.n_vars)
        return 3;
    for (int b = IO_FR_BYTES - 1; b >= 0; b--)
        if (p[12 + b] != s->r[b])
            return p[12 + b] < s->r[b] ? 0 : 4;
    return 4;
}

static cuzk_status_t kc_point_status_(const kc_scan_t_ *s, uint64_t i)
{
    kc_any_point_t_ scratch;
    return kc_decode_(s->kc->hdr.curve, s->sec->id == KEY_CACHE_SECTION_B2, &scratch,
                      s->data + i * s->sec->item_bytes, s->flags);
}

static bool kc_item_ok_(const kc_scan_t_ *s, uint64_t i)
{
    return s->sec->id == KEY_CACHE_SECTION_COEFFS ? kc_coeff_fault_(s, i) == 0
                                                  : kc_point_status_(s, i) == CUZK_OK;
}

static void kc_scan_body_(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    kc_scan_t_ *s = ctx;
    for (size_t i = begin; i < end; i++) {
        if (i >= atomic_load_explicit(&s->first_bad, memory_order_relaxed))
            return;
        if (kc_item_ok_(s, i))
            continue;
        uint64_t seen = atomic_load_explicit(&s->first_bad, memory_order_relaxed);
        while (i < seen && !atomic_compare_exchange_weak_explicit(
                               &s->first_bad, &seen, i, memory_order_relaxed, memory_order_relaxed))
            ;
        return;
    }
    progress_advance(s->progress, end - begin);
}

/* Items per pool chunk: 256 BLS12-381 G1 subgroup checks are ~13 ms, as in
 * zkey_file.c's scan (ZKEY_SCAN_CHUNK). */
enum { KC_SCAN_CHUNK = 256 };

/* The body's bytes of section sec. */
static const unsigned char *kc_section_data_(const key_cache_t *kc, const key_cache_section_t *sec)
{
    return kc->body + (sec->offset - KEY_CACHE_ALIGN);
}

/* A scan of section sec of kc with the decoder's flags. */
static kc_scan_t_ kc_scan_(const key_cache_t *kc, const key_cache_section_t *sec, unsigned flags)
{
    kc_scan_t_ s = {
        .kc = kc, .sec = sec, .data = kc_section_data_(kc, sec), .first_bad = sec->count};
    s.flags = flags | (kc->hdr.kind == KEY_CACHE_PARAMS ? EC_DECODE_NO_INFINITY : 0);
    io_fr_prime_le(kc->hdr.curve, s.r);
    return s;
}

/* The message for point i of s's section, which its decoder refuses. */
static cuzk_status_t kc_point_fail_(const kc_scan_t_ *s, uint64_t i, const char *name, char *err,
                                    size_t err_size)
{
    cuzk_status_t st = kc_point_status_(s, i);
    return io_fail(err, err_size, st, "%s: section %s: point %" PRIu64 " %s", name,
                   key_cache_section_name(s->kc->hdr.kind, s->sec->id), i, kc_problem_(st));
}

/* Checks section sec of kc with the decoder's flags; a message naming the
 * lowest bad item, whose index goes to *bad_at (sec->count: none). */
static cuzk_status_t kc_check_section_(const key_cache_t *kc, const key_cache_section_t *sec,
                                       unsigned flags, pool_t *pool, progress_t *progress,
                                       const char *name, char *err, size_t err_size,
                                       uint64_t *bad_at)
{
    kc_scan_t_ s = kc_scan_(kc, sec, flags);
    s.progress = progress;
    pool_for(pool, (size_t)sec->count, KC_SCAN_CHUNK, kc_scan_body_, &s);
    uint64_t bad = atomic_load(&s.first_bad);
    *bad_at = bad;
    if (bad == sec->count)
        return CUZK_OK;
    if (sec->id != KEY_CACHE_SECTION_COEFFS)
        return kc_point_fail_(&s, bad, name, err, err_size);
    static const char *const faults[5] = {"", "matrix m is neither 0 (A) nor 1 (B)",
                                          "constraint c is not below domainSize",
                                          "wire s is not below nVars", "value is not below r"};
    int f = kc_coeff_fault_(&s, bad);
    return io_fail(err, err_size, f == 4 ? CUZK_ENONCANONICAL : CUZK_EBADFILE,
                   "%s: section coeffs: coefficient %" PRIu64 ": %s", name, bad, faults[f]);
}

/* Points kc's key at its body (the header and fixed points decoded). */
static void kc_attach_(key_cache_t *kc)
{
    const key_cache_header_t *h = &kc->hdr;
    unsigned char *at[KEY_CACHE_MAX_SECTIONS + 1] = {NULL};
    for (uint32_t i = 0; i < h->n_sections; i++)
        at[h->sections[i].id] = kc->body + (h->sections[i].offset - KEY_CACHE_ALIGN);
    if (h->kind == KEY_CACHE_ZKEY) {
        zkey_t *k = &kc->zkey;
        k->curve = h->curve;
        k->n8q = kc_point_bytes_(h->curve, false) / 2;
        k->n8r = IO_FR_BYTES;
        k->n_vars = h->n_vars;
        k->n_public = h->n_public;
        k->domain_size = h->domain_size;
        k->n_coeffs = h->n_coeffs;
        k->ic = at[KEY_CACHE_SECTION_IC];
        k->coeffs = at[KEY_CACHE_SECTION_COEFFS];
        k->a = at[KEY_CACHE_SECTION_A];
        k->b1 = at[KEY_CACHE_SECTION_B1];
        k->b2 = at[KEY_CACHE_SECTION_B2];
        k->c = at[KEY_CACHE_SECTION_C];
        k->h = at[KEY_CACHE_SECTION_H];
        return;
    }
    bp_params_t *p = &kc->params;
    p->vk.n_ic = h->n_ic;
    p->vk.ic = (bls381_g1_affine_t *)(void *)at[KEY_CACHE_SECTION_IC];
    p->n_h = h->n_h;
    p->n_l = h->n_l;
    p->n_a = h->n_a;
    p->n_b = h->n_b;
    p->h = (bls381_g1_affine_t *)(void *)at[KEY_CACHE_SECTION_H];
    p->l = (bls381_g1_affine_t *)(void *)at[KEY_CACHE_SECTION_L];
    p->a = (bls381_g1_affine_t *)(void *)at[KEY_CACHE_SECTION_A];
    p->b_g1 = (bls381_g1_affine_t *)(void *)at[KEY_CACHE_SECTION_B1];
    p->b_g2 = (bls381_g2_affine_t *)(void *)at[KEY_CACHE_SECTION_B2];
}

/* The header of the file at page (page_bytes of file_size) into kc, the
 * fixed points into the key of its kind. */
static cuzk_status_t kc_take_header_(key_cache_t *kc, const unsigned char *page,
                                     uint64_t page_bytes, uint64_t file_size, const char *name,
                                     char *err, size_t err_size)
{
    /* The kind is not known before the header is read: decode into both,
     * then clear the one that is not live. */
    void *zs[KC_VK_POINTS], *ps[KC_VK_POINTS];
    kc->zkey.curve =
        page_bytes > KC_OFF_CURVE + 4 && io_load_u32(page + KC_OFF_CURVE) == R1CS_CURVE_BN254
            ? R1CS_CURVE_BN254
            : R1CS_CURVE_BLS12_381;
    kc_zkey_vk_slots_(&kc->zkey, zs);
    kc_params_vk_slots_(&kc->params.vk, ps);
    bool params = page_bytes > KC_OFF_KIND + 4 &&
                  io_load_u32(page + KC_OFF_KIND) == (uint32_t)KEY_CACHE_PARAMS;
    cuzk_status_t st =
        kc_header_(&kc->hdr, page, page_bytes, file_size, name, params ? ps : zs, err, err_size);
    if (params)
        memset(&kc->zkey, 0, sizeof(kc->zkey));
    else
        memset(&kc->params, 0, sizeof(kc->params));
    return st;
}

/*
 * The query points' subgroup (with KEY_CACHE_CHECK_POINTS), after the
 * checks of every item but that, which ended with check_st: CUZK_OK, or a
 * failure at item failed_at of section `failed` (its message in err). The
 * points before that failure are on their curve: one batch check a group,
 * sections in file order, and a bisection where one finds a point outside
 * (NAME_msm_subgroup_first_outside). A point outside comes before the
 * failure; the message names the first.
 */
static cuzk_status_t kc_subgroup_(const key_cache_t *kc, uint32_t failed, uint64_t failed_at,
                                  cuzk_status_t check_st, pool_t *pool, progress_t *progress,
                                  const char *name, char *err, size_t err_size)
{
    const key_cache_header_t *h = &kc->hdr;
    bool outside = false;
    for (int g2 = 0; g2 < 2; g2++) {
        if (!g2 && h->curve == R1CS_CURVE_BN254) /* G1 has prime order */
            continue;
        const void *pts[KEY_CACHE_MAX_SECTIONS];
        size_t counts[KEY_CACHE_MAX_SECTIONS];
        uint32_t sec[KEY_CACHE_MAX_SECTIONS], m = 0;
        for (uint32_t i = 0; i < h->n_sections && i <= failed; i++) {
            const key_cache_section_t *x = &h->sections[i];
            if (x->id == KEY_CACHE_SECTION_IC || x->id == KEY_CACHE_SECTION_COEFFS ||
                (x->id == KEY_CACHE_SECTION_B2) != g2)
                continue;
            pts[m] = kc_section_data_(kc, x);
            sec[m] = i;
            counts[m++] = (size_t)(i < failed ? x->count : failed_at);
        }
        uint64_t group = 0;
        for (uint32_t j = 0; j < m; j++)
            group += counts[j];
        progress_begin(progress, g2 ? "subgroup G2" : "subgroup G1", group, "points");
        size_t first;
        cuzk_status_t st =
            h->curve == R1CS_CURVE_BN254
                ? bn254_g2_msm_subgroup_first_outside(&first, pts, counts, m, NULL, pool)
            : g2 ? bls381_g2_msm_subgroup_first_outside(&first, pts, counts, m, NULL, pool)
                 : bls381_g1_msm_subgroup_first_outside(&first, pts, counts, m, NULL, pool);
        if (st != CUZK_OK)
            return io_fail(err, err_size, st, "%s: the subgroup check of the query points: %s",
                           name, cuzk_strerror(st));
        progress_set(progress, group);
        for (uint32_t j = 0; j < m; first -= counts[j++]) {
            /* Point `first` of array j: below the lowest failure so far,
             * where the arrays end. */
            if (first < counts[j]) {
                failed = sec[j];
                failed_at = first;
                outside = true;
                break;
            }
        }
    }
    if (!outside)
        return check_st;
    kc_scan_t_ s = kc_scan_(kc, &h->sections[failed], 0);
    return kc_point_fail_(&s, failed_at, name, err, err_size);
}

/*
 * The checks of the body that always run (IC in full, the coefficients),
 * and the query points with KEY_CACHE_CHECK_POINTS: every item but their
 * subgroup first, section by section in file order, then their subgroup in
 * batches (kc_subgroup_). The message names the first failing item.
 */
/* Whether the body's checks look at section sec: IC and the coefficients
 * always, the query points with KEY_CACHE_CHECK_POINTS. */
static bool kc_checked_(const key_cache_section_t *sec, bool points)
{
    return points || sec->id == KEY_CACHE_SECTION_IC || sec->id == KEY_CACHE_SECTION_COEFFS;
}

static cuzk_status_t kc_check_body_(const key_cache_t *kc, pool_t *pool, unsigned flags,
                                    progress_t *progress, const char *name, char *err,
                                    size_t err_size)
{
    bool points = flags & KEY_CACHE_CHECK_POINTS;
    uint32_t failed = kc->hdr.n_sections;
    uint64_t failed_at = 0, items = 0;
    for (uint32_t i = 0; i < kc->hdr.n_sections; i++)
        items += kc_checked_(&kc->hdr.sections[i], points) ? kc->hdr.sections[i].count : 0;
    progress_begin(progress, "check", items, "items");
    cuzk_status_t st = CUZK_OK;
    for (uint32_t i = 0; i < kc->hdr.n_sections && st == CUZK_OK; i++) {
        const key_cache_section_t *sec = &kc->hdr.sections[i];
        if (!kc_checked_(sec, points))
            continue;
        bool always = sec->id == KEY_CACHE_SECTION_IC || sec->id == KEY_CACHE_SECTION_COEFFS;
        st = kc_check_section_(kc, sec, always ? 0 : EC_DECODE_SKIP_SUBGROUP, pool, progress, name,
                               err, err_size, &failed_at);
        if (st != CUZK_OK)
            failed = i;
    }
    return points ? kc_subgroup_(kc, failed, failed_at, st, pool, progress, name, err, err_size)
                  : st;
}

cuzk_status_t key_cache_parse(key_cache_t *kc, const unsigned char *data, uint64_t size,
                              const char *name, pool_t *pool, unsigned flags, progress_t *progress,
                              char *err, size_t err_size)
{
    memset(kc, 0, sizeof(*kc));
    if (((uintptr_t)data & 7) != 0)
        return io_fail(err, err_size, CUZK_EINVAL, "%s: the cache in memory is not 8-byte aligned",
                       name);
    cuzk_status_t st = kc_take_header_(kc, data, size < KEY_CACHE_ALIGN ? size : KEY_CACHE_ALIGN,
                                       size, name, err, err_size);
    if (st == CUZK_OK) {
        kc->body = (unsigned char *)(uintptr_t)(data + KEY_CACHE_ALIGN);
        kc->body_bytes = size - KEY_CACHE_ALIGN;
        kc_attach_(kc);
        st = kc_check_body_(kc, pool, flags, progress, name, err, err_size);
    }
    if (st != CUZK_OK)
        memset(kc, 0, sizeof(*kc));
    return st;
}

/* ---- reading ---------------------------------------------------------------------------- */

static void *kc_default_alloc_(void *ctx, size_t bytes)
{
    (void)ctx;
    void *p = NULL;
    return posix_memalign(&p, KEY_CACHE_ALIGN, bytes ? bytes : 1) == 0 ? p : NULL;
}

static void kc_default_free_(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

/*
 * Reads n bytes at offset off of fd into buf, in chunks of KC_READ_CHUNK.
 * *got = the bytes read (fewer than n when the file ended first); -1 with
 * errno on a read error.
 */
static int kc_pread_all_(int fd, unsigned char *buf, uint64_t n, uint64_t off, uint64_t *got)
{
    *got = 0;
    while (*got < n) {
        uint64_t left = n - *got;
        size_t want = left < KC_READ_CHUNK ? (size_t)left : KC_READ_CHUNK;
        ssize_t r = pread(fd, buf + *got, want, (off_t)(off + *got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            return 0;
        *got += (uint64_t)r;
    }
    return 0;
}

/* Opens the regular file at path (io_file.h: a FIFO is refused, never
 * waited on), reads its header page; *fd the open file (fd NULL: closed
 * again). */
static cuzk_status_t kc_open_(int *fdp, uint64_t *size, unsigned char *page, uint64_t *page_bytes,
                              const char *path, char *err, size_t err_size)
{
    int fd_ = -1, *fd = fdp ? fdp : &fd_;
    cuzk_status_t st = io_file_open(fd, size, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    if (kc_pread_all_(*fd, page, KEY_CACHE_ALIGN, 0, page_bytes) != 0) {
        int e = errno;
        close(*fd);
        *fd = -1;
        return io_fail(err, err_size, CUZK_EIO, "%s: cannot read the header: %s", path,
                       strerror(e));
    }
    if (!fdp)
        close(*fd);
    return CUZK_OK;
}

cuzk_status_t key_cache_probe(key_cache_header_t *h, const char *path, char *err, size_t err_size)
{
    memset(h, 0, sizeof(*h));
    unsigned char page[KEY_CACHE_ALIGN];
    uint64_t file_size = 0, n = 0;
    cuzk_status_t st = kc_open_(NULL, &file_size, page, &n, path, err, err_size);
    return st != CUZK_OK ? st : key_cache_header_parse(h, page, n, file_size, path, err, err_size);
}

/* The body of the file open at fd into kc->body (allocated from a). */
static cuzk_status_t kc_read_body_(key_cache_t *kc, int fd, const key_cache_alloc_t *a,
                                   const char *path, char *err, size_t err_size)
{
    uint64_t n = kc->hdr.file_size - KEY_CACHE_ALIGN;
    if (n > SIZE_MAX)
        return io_fail(err, err_size, CUZK_ENOMEM,
                       "%s: %" PRIu64 " bytes of sections do not fit the address space", path, n);
    unsigned char *buf = a->alloc(a->ctx, (size_t)n);
    if (!buf)
        return io_fail(err, err_size, CUZK_ENOMEM,
                       "%s: no memory for %" PRIu64 " bytes of sections", path, n);
    kc->body = buf;
    kc->body_bytes = n;
    kc->owns_body = true;
    kc->alloc = *a;
    if (((uintptr_t)buf & 7) != 0)
        return io_fail(err, err_size, CUZK_EINVAL,
                       "%s: the allocator returned memory that is not 8-byte aligned", path);
    /* Advice only: a kernel that ignores it reads the same bytes. */
    (void)posix_fadvise(fd, KEY_CACHE_ALIGN, (off_t)n, POSIX_FADV_SEQUENTIAL);
    uint64_t got;
    if (kc_pread_all_(fd, buf, n, KEY_CACHE_ALIGN, &got) != 0)
        return io_fail(err, err_size, CUZK_EIO, "%s: read failed at offset %" PRIu64 ": %s", path,
                       KEY_CACHE_ALIGN + got, strerror(errno));
    if (got < n)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: truncated while it was read: %" PRIu64
                       " bytes, the header gives %" PRIu64,
                       path, KEY_CACHE_ALIGN + got, kc->hdr.file_size);
    return CUZK_OK;
}

cuzk_status_t key_cache_read(key_cache_t *kc, const char *path, const key_cache_alloc_t *alloc,
                             pool_t *pool, unsigned flags, char *err, size_t err_size)
{
    memset(kc, 0, sizeof(*kc));
    static const key_cache_alloc_t dflt = {kc_default_alloc_, kc_default_free_, NULL};
    unsigned char page[KEY_CACHE_ALIGN];
    uint64_t size = 0, page_bytes = 0;
    int fd;
    cuzk_status_t st = kc_open_(&fd, &size, page, &page_bytes, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    st = kc_take_header_(kc, page, page_bytes, size, path, err, err_size);
    if (st == CUZK_OK)
        st = kc_read_body_(kc, fd, alloc && alloc->alloc ? alloc : &dflt, path, err, err_size);
    close(fd);
    if (st == CUZK_OK) {
        kc_attach_(kc);
        st = kc_check_body_(kc, pool, flags, NULL, path, err, err_size);
    }
    if (st != CUZK_OK)
        key_cache_free(kc);
    return st;
}

void key_cache_free(key_cache_t *kc)
{
    if (kc->owns_body && kc->body)
        kc->alloc.free(kc->alloc.ctx, kc->body);
    memset(kc, 0, sizeof(*kc));
}

/* ---- writing ----------------------------------------------------------------------------- */

/* Writes n bytes of p to out, each chunk an advance of progress; false once
 * a write failed (io_output.h keeps the error). */
static bool kc_put_(io_output_t *out, const void *p, uint64_t n, progress_t *progress)
{
    const unsigned char *b = p;
    while (n) {
        size_t want = n < KC_READ_CHUNK ? (size_t)n : KC_READ_CHUNK;
        if (!io_output_write(out, b, want))
            return false;
        b += want;
        n -= want;
        progress_advance(progress, want);
    }
    return true;
}

/* The header page of h with the six fixed points from slots. */
static void kc_encode_header_(unsigned char page[KEY_CACHE_ALIGN], const key_cache_header_t *h,
                              const void *const slots[KC_VK_POINTS])
{
    memset(page, 0, KEY_CACHE_ALIGN);
    memcpy(page, kc_magic_, KEY_CACHE_MAGIC_BYTES);
    kc_store_u32_(page + KC_OFF_VERSION, KEY_CACHE_VERSION);
    kc_store_u32_(page + KC_OFF_KIND, (uint32_t)h->kind);
    kc_store_u32_(page + KC_OFF_CURVE, (uint32_t)h->curve);
    kc_store_u32_(page + KC_OFF_N_SECTIONS, h->n_sections);
    kc_store_u64_(page + KC_OFF_FILE_SIZE, h->file_size);
    kc_store_u64_(page + KC_OFF_BODY, KEY_CACHE_ALIGN);
    uint32_t c[KC_COUNTS];
    kc_counts_(h, c);
    for (int i = 0; i < KC_COUNTS; i++)
        kc_store_u32_(page + KC_OFF_COUNTS + 4 * i, c[i]);
    size_t pos = KC_OFF_POINTS;
    for (int i = 0; i < KC_VK_POINTS; i++) {
        uint32_t bytes = kc_point_bytes_(h->curve, kc_vk_g2_[i]);
        memcpy(page + pos, slots[i], bytes);
        pos += bytes;
    }
    for (uint32_t i = 0; i < h->n_sections; i++) {
        unsigned char *e = page + KC_OFF_TABLE + (size_t)i * KEY_CACHE_SECTION_BYTES;
        const key_cache_section_t *x = &h->sections[i];
        kc_store_u32_(e, x->id);
        kc_store_u32_(e + 4, x->item_bytes);
        kc_store_u64_(e + 8, x->count);
        kc_store_u64_(e + 16, x->offset);
        kc_store_u64_(e + 24, x->bytes);
    }
    kc_store_u64_(page + KC_OFF_CHECKSUM, key_cache_checksum(page));
}

/* Writes the header page and the sections (data[i] for h->sections[i]) as
 * the file at path (io_output.h: whole or not at all); a stage "write" of
 * the file's bytes on progress. */
static cuzk_status_t kc_write_(const char *path, const key_cache_header_t *h,
                               const void *const slots[KC_VK_POINTS],
                               const void *const data[KEY_CACHE_MAX_SECTIONS], const io_map_t *src,
                               const char *src_path, progress_t *progress, char *err,
                               size_t err_size)
{
    static const unsigned char zeros[KEY_CACHE_ALIGN];
    unsigned char *page = malloc(KEY_CACHE_ALIGN);
    if (!page)
        return io_fail(err, err_size, CUZK_ENOMEM, "%s: no memory for the header", path);
    kc_encode_header_(page, h, slots);
    io_output_t out;
    cuzk_status_t st = io_output_open(&out, path, err, err_size);
    if (st != CUZK_OK) {
        free(page);
        return st;
    }
    progress_begin(progress, "write", h->file_size, "bytes");
    bool ok = kc_put_(&out, page, KEY_CACHE_ALIGN, progress);
    free(page);
    uint64_t pos = KEY_CACHE_ALIGN;
    for (uint32_t i = 0; ok && i < h->n_sections; i++) {
        const key_cache_section_t *x = &h->sections[i];
        ok = kc_put_(&out, zeros, x->offset - pos, progress) &&
             (!x->bytes || kc_put_(&out, data[i], x->bytes, progress));
        pos = x->offset + x->bytes;
    }
    if (ok)
        kc_put_(&out, zeros, h->file_size - pos, progress);
    st = src ? io_map_check(src, CUZK_OK, src_path, err, err_size) : CUZK_OK;
    return io_output_close(&out, st, err, err_size);
}

/* Writes the key whose kind, curve and counts h holds, its fixed points at
 * slots and its sections at data (in file order). */
static cuzk_status_t kc_write_key_(const char *path, key_cache_header_t *h,
                                   const void *const slots[KC_VK_POINTS],
                                   const void *const data[KEY_CACHE_MAX_SECTIONS],
                                   const io_map_t *src, const char *src_path, progress_t *progress,
                                   char *err, size_t err_size)
{
    cuzk_status_t st = kc_check_counts_(h, path, CUZK_EINVAL, err, err_size);
    if (st != CUZK_OK)
        return st;
    kc_layout_(h);
    for (uint32_t i = 0; i < h->n_sections; i++)
        if (h->sections[i].bytes && !data[i])
            return io_fail(err, err_size, CUZK_EINVAL, "%s: section %s of the key has no data",
                           path, key_cache_section_name(h->kind, h->sections[i].id));
    return kc_write_(path, h, slots, data, src, src_path, progress, err, err_size);
}

cuzk_status_t key_cache_write_zkey(const char *path, const zkey_t *k, const io_map_t *src,
                                   const char *src_path, progress_t *progress, char *err,
                                   size_t err_size)
{
    if (k->curve != R1CS_CURVE_BN254 && k->curve != R1CS_CURVE_BLS12_381)
        return io_fail(err, err_size, CUZK_EINVAL, "%s: the key has no curve", path);
    key_cache_header_t h = {.kind = KEY_CACHE_ZKEY,
                            .curve = k->curve,
                            .n_vars = k->n_vars,
                            .n_public = k->n_public,
                            .domain_size = k->domain_size,
                            .n_coeffs = k->n_coeffs};
    const void *data[KEY_CACHE_MAX_SECTIONS] = {k->ic, k->coeffs, k->a, k->b1, k->b2, k->c, k->h};
    zkey_t copy = *k; /* kc_zkey_vk_slots_ takes a mutable key; it is only read here */
    void *slots[KC_VK_POINTS];
    kc_zkey_vk_slots_(&copy, slots);
    return kc_write_key_(path, &h, (const void *const *)slots, data, src, src_path, progress, err,
                         err_size);
}

cuzk_status_t key_cache_write_params(const char *path, const bp_params_t *p, const io_map_t *src,
                                     const char *src_path, progress_t *progress, char *err,
                                     size_t err_size)
{
    key_cache_header_t h = {.kind = KEY_CACHE_PARAMS,
                            .curve = R1CS_CURVE_BLS12_381,
                            .n_ic = p->vk.n_ic,
                            .n_h = p->n_h,
                            .n_l = p->n_l,
                            .n_a = p->n_a,
                            .n_b = p->n_b};
    const void *data[KEY_CACHE_MAX_SECTIONS] = {p->vk.ic, p->h, p->l, p->a, p->b_g1, p->b_g2};
    bp_vk_t copy = p->vk; /* the same */
    void *slots[KC_VK_POINTS];
    kc_params_vk_slots_(&copy, slots);
    return kc_write_key_(path, &h, (const void *const *)slots, data, src, src_path, progress, err,
                         err_size);
}
