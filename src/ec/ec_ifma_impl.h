/*
 * The body of NAME_snarkjs_scan_ifma (contract in ec_ifma.h), compiled once
 * per group by ec_ifma.c after an instantiation of ff/fpv_tmpl.h for the
 * group's prime field and the group's parameters (ec_tmpl_defs.h), with
 * EIF_K, the multiple of p below.
 *
 * The test: y^2 - (x^3 + b) ≡ 0 (mod p), FPV(zero_mod_p). Bounds, in
 * multiples of p (ρ = p/R' = 2^-6.4 for BN254, 2^-35.3 for BLS12-381; a
 * product of values below A·p and B·p is below (A·B·ρ + 1)·p):
 *  - G1: coordinates loaded shifted, below KL = 2^SH (16, 2^32); b brought
 *    below 1.2p by a product with R' mod p. x^2 and y^2 below KL^2·ρ + 1
 *    (4.03, 2^28.7), x^3 below 1.76 (BN254), 2^25.4 (BLS12-381); x^3 + b
 *    below EIF_K = 3 and 2^26; d = y^2 + EIF_K·p - (x^3 + b) below 7.03p
 *    and 2^28.8·p, both below R' as FPV(zero_mod_p) needs.
 *  - G2: every coefficient loaded and multiplied by R' mod p, below 1.2p
 *    (FPV(2_load)). Squares as (a0 + a1)(a0 + 2p - a1) and a0·2a1:
 *    below 1.1p. x^3 = x^2·x: products below 1.02p, covered by the 2p of
 *    c0 = a0·b0 + 2p - a1·b1: c0 below 3.02p, c1 below 2.04p; x^3 + b below
 *    EIF_K = 5; d below 6.1p.
 */
#include <immintrin.h>
#include <stdint.h>

#define EIF_TARGET __attribute__((target("avx512f,avx512ifma")))

#if EC_DEGREE == 2
#define EIF_VT         FPV(2_t)
#define EIF_PART(v, i) ((i) == 0 ? &(v)->c0 : &(v)->c1)
#else
#define EIF_VT         FPVT
#define EIF_PART(v, i) (v)
#endif

/* How far ahead the scan prefetches, in points. */
#define EIF_AHEAD 32

/* The constants of one call. */
typedef struct {
    FPVT rp;          /* R' mod p */
    FPV(kp_t) k2, ek; /* 2p, EIF_K·p */
    EIF_VT b;         /* the curve's b, below 1.2p */
} ECN(scan_ctx_t);

/* Part i of the eight points' coordinate at byte offset `at` (addr: the
 * points' addresses): *v its value x·R' (G1: shifted, below 2^SH·p; G2:
 * times R' mod p, below 1.2p); *canon the lanes where it is below p,
 * *zero those where it is 0. */
EIF_TARGET static inline void ECN(scan_part_)(FPVT *v, __mmask8 *canon, __mmask8 *zero,
                                              __m512i addr, size_t at, const FPVT *rp)
{
    __m512i w[FPV_N64], any = _mm512_setzero_si512();
    for (int k = 0; k < FPV_N64; k++) {
        size_t off = at + 8 * (size_t)k;
        __m512i a = _mm512_add_epi64(addr, _mm512_set1_epi64((long long)off));
        w[k] = _mm512_i64gather_epi64(a, (const void *)0, 1);
        any = _mm512_or_si512(any, w[k]);
    }
    *zero = _mm512_cmpeq_epi64_mask(any, _mm512_setzero_si512());
    FPV(from_words)(v, w, 0);
    *canon = FPV(below_p)(v);
    FPV(from_words)(v, w, FPV_SH);
#if EC_DEGREE == 2
    FPV(mul)(v, v, rp);
#else
    (void)rp;
#endif
}

/* r = a^2, r and a not the same. */
EIF_TARGET static inline void ECN(scan_sqr_)(EIF_VT *r, const EIF_VT *a, const ECN(scan_ctx_t) * cx)
{
#if EC_DEGREE == 2
    FPVT s, d;
    FPV(add)(&s, &a->c0, &a->c1);
    FPV(sub)(&d, &a->c0, &a->c1, &cx->k2);
    FPV(mul)(&r->c0, &s, &d);
    FPV(add)(&s, &a->c1, &a->c1);
    FPV(mul)(&r->c1, &a->c0, &s);
#else
    (void)cx;
    FPV(mul)(r, a, a);
#endif
}

/* The lanes of the eight points at in that pass every check. */
EIF_TARGET static inline __mmask8 ECN(scan_block_)(const unsigned char *in,
                                                   const ECN(scan_ctx_t) * cx)
{
    long long s = (long long)ECN(SNARKJS_BYTES);
    __m512i addr =
        _mm512_add_epi64(_mm512_set1_epi64((long long)(uintptr_t)in),
                         _mm512_set_epi64(7 * s, 6 * s, 5 * s, 4 * s, 3 * s, 2 * s, s, 0));
    EIF_VT x, y;
    __mmask8 canon = 0xff, xz = 0xff, yz = 0xff, cm, zm;
    for (int i = 0; i < EC_DEGREE; i++) {
        ECN(scan_part_)(EIF_PART(&x, i), &cm, &zm, addr, (size_t)i * sizeof(EBT), &cx->rp);
        canon &= cm;
        xz &= zm;
        ECN(scan_part_)
        (EIF_PART(&y, i), &cm, &zm, addr, sizeof(EFT) + (size_t)i * sizeof(EBT), &cx->rp);
        canon &= cm;
        yz &= zm;
    }
    EIF_VT x2, x3, y2;
    ECN(scan_sqr_)(&x2, &x, cx);
#if EC_DEGREE == 2
    FPV(2_mul)(&x3, &x2, &x, &cx->k2);
#else
    FPV(mul)(&x3, &x2, &x);
#endif
    ECN(scan_sqr_)(&y2, &y, cx);
    __mmask8 on = 0xff;
    for (int i = 0; i < EC_DEGREE; i++) {
        FPVT *d = EIF_PART(&y2, i), *r = EIF_PART(&x3, i);
        FPV(add)(r, r, EIF_PART(&cx->b, i));
        FPV(sub)(d, d, r, &cx->ek);
        on &= FPV(zero_mod_p)(d);
    }
    return canon & ((xz & yz) | (__mmask8)(~xz & on));
}

EIF_TARGET size_t ECN(snarkjs_scan_ifma)(const unsigned char *in, size_t n)
{
    ECN(scan_ctx_t) ctx, *cx = &ctx;
    uint64_t c[FPV_N52];
    FPV(r_prime)(c);
    FPV(set1)(&cx->rp, c);
    FPV(kp_init)(c, 2);
    FPV(kp_load)(&cx->k2, c);
    FPV(kp_init)(c, EIF_K);
    FPV(kp_load)(&cx->ek, c);
    const EFT b = EC_B;
    for (int i = 0; i < EC_DEGREE; i++) {
        __m512i w[FPV_N64];
        for (int k = 0; k < FPV_N64; k++)
            w[k] = _mm512_set1_epi64((long long)EC_PART(&b, i)->l[k]);
        FPV(from_words)(EIF_PART(&cx->b, i), w, FPV_SH);
        FPV(mul)(EIF_PART(&cx->b, i), EIF_PART(&cx->b, i), &cx->rp);
    }

    size_t i0 = 0;
    for (; i0 + 16 <= n; i0 += 16) { /* two independent blocks in flight */
        /* gathers do not wake the hardware prefetcher: the lines of the
         * blocks EIF_AHEAD points on, by hand */
        const unsigned char *ahead = in + (i0 + EIF_AHEAD) * ECN(SNARKJS_BYTES);
        if (i0 + EIF_AHEAD + 16 <= n)
            for (size_t o = 0; o < 16 * ECN(SNARKJS_BYTES); o += 64)
                _mm_prefetch((const char *)ahead + o, _MM_HINT_T0);
        __mmask8 g0 = ECN(scan_block_)(in + i0 * ECN(SNARKJS_BYTES), cx);
        __mmask8 g1 = ECN(scan_block_)(in + (i0 + 8) * ECN(SNARKJS_BYTES), cx);
        if (g0 != 0xff)
            return i0;
        if (g1 != 0xff)
            return i0 + 8;
    }
    if (i0 + 8 <= n && ECN(scan_block_)(in + i0 * ECN(SNARKJS_BYTES), cx) != 0xff)
        return i0;
    return n / 8 * 8;
}

#undef EIF_TARGET
#undef EIF_AHEAD
#undef EIF_VT
#undef EIF_PART
#undef EIF_K
