/*
 * Point encodings: the out-of-line half of the encoding part of ec_tmpl.h
 * (contracts there; byte layouts in FORMATS.md sections 5, 6 and 8.1).
 * Included once per group by ec_tmpl_impl.h, at its end.
 */

#include <string.h>

#include "ec/ec_ifma.h"
#include "util/cpu.h"

enum { ECN(FP_BYTES_) = sizeof(EBT), ECN(FP_LIMBS_) = sizeof(EBT) / 8 };

/* The checks every decoder ends with, on a point with canonical coordinates
 * (ec_tmpl.h gives the order). */
static cuzk_status_t ECN(affine_validate_)(const ECA *p, unsigned flags)
{
    if (ECN(affine_is_infinity)(p))
        return (flags & EC_DECODE_NO_INFINITY) ? CUZK_EINFINITY : CUZK_OK;
    if (!ECN(affine_is_on_curve)(p))
        return CUZK_ENOTONCURVE;
    /* x = 0 means y^2 = b: a point of order 3, never in the order-r group.
     * Cheap enough to check even when the subgroup test is skipped (blst
     * rejects it as well). */
    if (EF(is_zero)(&p->x))
        return CUZK_ENOTINSUBGROUP;
    if (!(flags & EC_DECODE_SKIP_SUBGROUP) && !ECN(affine_is_in_subgroup_vartime)(p))
        return CUZK_ENOTINSUBGROUP;
    return CUZK_OK;
}

/* ---- snarkjs: Montgomery form, little-endian ------------------------ */

/* Writes the raw Montgomery limbs of a, little-endian, parts c0 first. */
static void ECN(coord_to_le_mont_)(unsigned char *out, const EFT *a)
{
    for (int i = 0; i < EC_DEGREE; i++) {
        const EBT *part = EC_PART(a, i);
        for (int j = 0; j < ECN(FP_LIMBS_); j++)
            for (int b = 0; b < 8; b++)
                out[(size_t)i * ECN(FP_BYTES_) + (size_t)j * 8 + (size_t)b] =
                    (unsigned char)(part->l[j] >> (8 * b));
    }
}

/* Reads raw Montgomery limbs; CUZK_ENONCANONICAL when a part is >= p. */
static cuzk_status_t ECN(coord_from_le_mont_)(EFT *a, const unsigned char *in)
{
    for (int i = 0; i < EC_DEGREE; i++) {
        EBT *part = EC_PART(a, i);
        for (int j = 0; j < ECN(FP_LIMBS_); j++) {
            uint64_t v = 0;
            for (int b = 7; b >= 0; b--)
                v = (v << 8) | in[(size_t)i * ECN(FP_BYTES_) + (size_t)j * 8 + (size_t)b];
            part->l[j] = v;
        }
        bool below = false; /* part < p, most significant limb first */
        for (int j = ECN(FP_LIMBS_) - 1; j >= 0; j--) {
            if (part->l[j] != EB(MODULUS)[j]) {
                below = part->l[j] < EB(MODULUS)[j];
                break;
            }
        }
        if (!below)
            return CUZK_ENONCANONICAL;
    }
    return CUZK_OK;
}

void ECN(affine_to_snarkjs)(unsigned char out[], const ECA *p)
{
    /* (0, 0) is infinity in memory and all zeros in the file: no special case. */
    ECN(coord_to_le_mont_)(out, &p->x);
    ECN(coord_to_le_mont_)(out + sizeof(EFT), &p->y);
}

cuzk_status_t ECN(affine_from_snarkjs)(ECA *r, const unsigned char *in, size_t len, unsigned flags)
{
    if (len != ECN(SNARKJS_BYTES))
        return CUZK_EENCODING;
    cuzk_status_t st = ECN(coord_from_le_mont_)(&r->x, in);
    if (st == CUZK_OK)
        st = ECN(coord_from_le_mont_)(&r->y, in + sizeof(EFT));
    if (st != CUZK_OK)
        return st;
    return ECN(affine_validate_)(r, flags);
}

size_t ECN(snarkjs_first_invalid)(const unsigned char *in, size_t n)
{
    size_t i = 0;
#if CUZK_EC_HAVE_IFMA
    if (cpu_has_ifma)
        i = ECN(snarkjs_scan_ifma)(in, n);
#endif
    for (; i < n; i++) {
        ECA p;
        if (ECN(affine_from_snarkjs)(&p, in + i * ECN(SNARKJS_BYTES), ECN(SNARKJS_BYTES),
                                     EC_DECODE_SKIP_SUBGROUP) != CUZK_OK)
            return i;
    }
    return n;
}

/* ---- decimal strings (snarkjs JSON) --------------------------------- */

void ECN(affine_to_dec)(char *const out[], const ECA *p)
{
    EFT z;
    EF(set_one)(&z);
    ECA q = *p;
    if (ECN(affine_is_infinity)(p)) { /* [0, 1, 0] */
        EF(set_one)(&q.y);
        EF(set_zero)(&z);
    }
    const EFT *coords[3] = {&q.x, &q.y, &z};
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < EC_DEGREE; i++)
            EB(to_dec)(out[c * EC_DEGREE + i], EC_PART(coords[c], i));
}

cuzk_status_t ECN(affine_from_dec)(ECA *r, const char *const in[], size_t n, unsigned flags)
{
    if (n != ECN(DEC_STRINGS))
        return CUZK_EENCODING;
    EFT z;
    EFT *coords[3] = {&r->x, &r->y, &z};
    cuzk_status_t st = CUZK_OK;
    for (int c = 0; c < 3; c++) {
        for (int i = 0; i < EC_DEGREE; i++) {
            /* Digit errors first (CUZK_EENCODING), then range. */
            cuzk_status_t s = EB(from_dec)(EC_PART(coords[c], i), in[c * EC_DEGREE + i]);
            if (s == CUZK_EENCODING)
                return s;
            if (st == CUZK_OK)
                st = s;
        }
    }
    if (st != CUZK_OK)
        return st;
    if (EF(is_zero)(&z)) {
        if (!EF(is_zero)(&r->x) || !EF(is_one)(&r->y))
            return CUZK_EENCODING; /* z = 0 only as the exact [0, 1, 0] */
        ECN(affine_set_infinity)(r);
    } else if (!EF(is_one)(&z)) {
        return CUZK_EENCODING;
    }
    return ECN(affine_validate_)(r, flags);
}

#ifdef EC_ZCASH
/* ---- ZCash BLS12-381: big-endian, plain, flags in byte 0 ------------ */

enum {
    ECN(ZFLAG_COMPRESSED_) = 0x80,
    ECN(ZFLAG_INFINITY_) = 0x40,
    ECN(ZFLAG_LARGER_) = 0x20,
    ECN(ZFLAGS_) = 0xe0,
};

/* Writes a's canonical value big-endian, parts c1 first. */
static void ECN(coord_to_be_)(unsigned char *out, const EFT *a)
{
    for (int i = 0; i < EC_DEGREE; i++)
        EB(to_bytes_be)(out + (size_t)(EC_DEGREE - 1 - i) * ECN(FP_BYTES_), EC_PART(a, i));
}

static cuzk_status_t ECN(coord_from_be_)(EFT *a, const unsigned char *in)
{
    for (int i = 0; i < EC_DEGREE; i++) {
        cuzk_status_t st = EB(from_bytes_be)(
            EC_PART(a, i), in + (size_t)(EC_DEGREE - 1 - i) * ECN(FP_BYTES_), ECN(FP_BYTES_));
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

/* Writes infinity (flags | 0x40, all else zero) or the coordinates. */
static void ECN(zcash_write_)(unsigned char *out, size_t len, const ECA *p, bool compressed)
{
    unsigned char flags = compressed ? ECN(ZFLAG_COMPRESSED_) : 0;
    if (ECN(affine_is_infinity)(p)) {
        memset(out, 0, len);
        out[0] = flags | ECN(ZFLAG_INFINITY_);
        return;
    }
    ECN(coord_to_be_)(out, &p->x);
    if (compressed) {
        if (ECN(coordinate_is_larger_vartime)(&p->y))
            flags |= ECN(ZFLAG_LARGER_);
    } else {
        ECN(coord_to_be_)(out + sizeof(EFT), &p->y);
    }
    out[0] |= flags;
}

void ECN(affine_to_compressed)(unsigned char out[], const ECA *p)
{
    ECN(zcash_write_)(out, ECN(COMPRESSED_BYTES), p, true);
}

void ECN(affine_to_uncompressed)(unsigned char out[], const ECA *p)
{
    ECN(zcash_write_)(out, ECN(UNCOMPRESSED_BYTES), p, false);
}

/*
 * The flag rules shared by both lengths: the compression bit must match the
 * length, the larger-y bit needs compression and a finite point, infinity
 * has every other bit zero. *flags receives the three flag bits.
 */
static cuzk_status_t ECN(zcash_flags_)(const unsigned char *in, size_t len, bool compressed,
                                       unsigned char *flags)
{
    unsigned char f = in[0] & ECN(ZFLAGS_);
    *flags = f;
    if (!!(f & ECN(ZFLAG_COMPRESSED_)) != compressed)
        return CUZK_EENCODING;
    if ((f & ECN(ZFLAG_LARGER_)) && (!compressed || (f & ECN(ZFLAG_INFINITY_))))
        return CUZK_EENCODING;
    if (f & ECN(ZFLAG_INFINITY_)) {
        if (in[0] & (unsigned char)~ECN(ZFLAGS_))
            return CUZK_EENCODING;
        for (size_t i = 1; i < len; i++)
            if (in[i])
                return CUZK_EENCODING;
    }
    return CUZK_OK;
}

/* Copies a zcash encoding with the three flag bits of byte 0 cleared. */
static void ECN(zcash_unflag_)(unsigned char *out, const unsigned char *in, size_t len)
{
    memcpy(out, in, len);
    out[0] &= (unsigned char)~ECN(ZFLAGS_);
}

cuzk_status_t ECN(affine_from_compressed)(ECA *r, const unsigned char *in, size_t len,
                                          unsigned flags)
{
    unsigned char f, buf[ECN(COMPRESSED_BYTES)];
    if (len != ECN(COMPRESSED_BYTES))
        return CUZK_EENCODING;
    cuzk_status_t st = ECN(zcash_flags_)(in, len, true, &f);
    if (st != CUZK_OK)
        return st;
    if (f & ECN(ZFLAG_INFINITY_)) {
        ECN(affine_set_infinity)(r);
        return ECN(affine_validate_)(r, flags);
    }
    ECN(zcash_unflag_)(buf, in, len);
    EFT x;
    st = ECN(coord_from_be_)(&x, buf);
    if (st != CUZK_OK)
        return st;
    if (!ECN(affine_from_x_vartime)(r, &x, (f & ECN(ZFLAG_LARGER_)) != 0))
        return CUZK_ENOTONCURVE;
    return ECN(affine_validate_)(r, flags);
}

cuzk_status_t ECN(affine_from_uncompressed)(ECA *r, const unsigned char *in, size_t len,
                                            unsigned flags)
{
    unsigned char f, buf[ECN(UNCOMPRESSED_BYTES)];
    if (len != ECN(UNCOMPRESSED_BYTES))
        return CUZK_EENCODING;
    cuzk_status_t st = ECN(zcash_flags_)(in, len, false, &f);
    if (st != CUZK_OK)
        return st;
    if (f & ECN(ZFLAG_INFINITY_)) {
        ECN(affine_set_infinity)(r);
        return ECN(affine_validate_)(r, flags);
    }
    ECN(zcash_unflag_)(buf, in, len);
    st = ECN(coord_from_be_)(&r->x, buf);
    if (st == CUZK_OK)
        st = ECN(coord_from_be_)(&r->y, buf + sizeof(EFT));
    if (st != CUZK_OK)
        return st;
    /* (0, 0) here is a finite encoding of a point that does not exist. */
    if (ECN(affine_is_infinity)(r))
        return CUZK_ENOTONCURVE;
    return ECN(affine_validate_)(r, flags);
}
#endif
