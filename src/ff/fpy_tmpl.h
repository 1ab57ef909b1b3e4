/*
 * Eight field elements at once: Montgomery arithmetic on radix-2^29 limbs
 * with AVX2 (VPMULUDQ, 32×32 → 64-bit products), the template. It has the
 * names, the representation and the bounds of the IFMA template
 * (fpv_tmpl.h) with 29 for 52, so that code written over FPV(...) compiles
 * with either: the two are chosen at run time by cpu_has_ifma and
 * cpu_has_avx2 (util/cpu.h).
 *
 * Instantiated by a .c file that defines, before including it:
 *   FPV_NAME  the prefix of every generated name (e.g. bn254_fpy)
 *   FPV_FQ    the scalar field it mirrors (e.g. bn254_fp): its _t, set_one, dbl
 *   FPV_N64   that field's 64-bit limbs: 4 (a 6-limb field's product, 14 limbs
 *             here, is no faster than the scalar one: docs/PERFORMANCE.md)
 *   FPV_N29   29-bit limbs: the least n with 29·n >= 64·FPV_N64 (9)
 *   FPV_P29   p in FPV_N29 limbs of 29 bits, least significant first
 *   FPV_PINV  -p^-1 mod 2^29
 * and removes the names with fpv_tmpl_undef.h. Every function carries the
 * target attribute FPV_TARGET, so the rest of the build needs no -mavx2
 * flag; callers check cpu_has_avx2 first.
 *
 * Why radix 2^29: VPMULUDQ multiplies the low 32 bits of each 64-bit lane,
 * so a limb must fit 32 bits, and a Montgomery product adds 2·N29 partial
 * products of two limbs into one column: with 29-bit limbs those are below
 * 2^58, and 2·N29 = 18 of them stay below 2^63, so no carry moves inside
 * the product, only one shift a row. 30-bit limbs save no limb for 254
 * bits (9 either way) and overflow a column; 26- or 28-bit limbs need 10
 * limbs for 254 bits and 23 % more products.
 *
 * Why eight lanes in two halves of four: a product is 2·N29^2 + N29
 * multiplications and as many additions, on the vector pipes, and each of
 * its N29 rows waits ~10 cycles for the row before (m = t_0·(-p^-1), m·p_1,
 * the carry). One four-lane product at a time is bound by that chain:
 * 12.6 ns an element, measured (dev-epyc2, gcc 12); the two halves' rows
 * interleaved fill the pipes: 9.0 ns, against 13.1 ns for the scalar
 * MULX/ADX product at its throughput (docs/PERFORMANCE.md, 2026-12-07).
 * Eight lanes is also the IFMA template's width, so the code over both has
 * one shape.
 *
 * Representation (NAME_t: lane 4h + i of limb j is l[j][h] lane i):
 *  - R' = 2^(29·N29), the vector Montgomery radix; an element x is held as
 *    any v ≡ x·R' (mod p) with v < R', limbs < 2^29 ("normalised"). Values
 *    are not reduced below p: each function states a bound on its output,
 *    in multiples of p, from bounds on its inputs.
 *  - The scalar field keeps x·R mod p, R = 2^(64·N64) <= R'. A scalar
 *    element shifted left by SH = 29·N29 - 64·N64 bits is x·R' as an integer
 *    below 2^SH·p: loading costs no multiplication (FPV(load)). The way back
 *    is one Montgomery step of SH bits, v·2^-SH ≡ x·R, and two conditional
 *    subtractions (FPV(unshift), FPV(store)).
 *  - FPV(mul)(a, b) < a·b/R' + p. p/R' is 2^-7.4 for both BN254 fields
 *    (SH = 5).
 *
 * Lanes (as in fpv_tmpl.h): FPV(mask_t) holds one bit a lane, FPV(addr_t)
 * one byte address a lane. AVX2 has no scatter and its gathers are slow
 * on AMD: FPV(load) and FPV(store) move each lane's element whole and
 * transpose four at a time in registers.
 */
#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if FPV_N64 != 4
#error "fpy_tmpl.h: fields of four 64-bit limbs only"
#endif

#define FPV_CAT2(a, b) a##_##b
#define FPV_CAT(a, b)  FPV_CAT2(a, b)
#define FPV(op)        FPV_CAT(FPV_NAME, op)
#define FPVT           FPV(t)
#define FPVQ(op)       FPV_CAT(FPV_FQ, op)
#define FPVQT          FPVQ(t)
#define FPV_NL         FPV_N29
#define FPV_LB         29
#define FPV_SH         (29 * FPV_N29 - 64 * FPV_N64)
#define FPV_M29        ((1ULL << 29) - 1)
/* The instruction set, for the names of the code over this template, and
 * the target attribute of its functions. */
#define FPV_ISA  avx2
#define FPV_ATTR __attribute__((target("avx2")))
#ifndef FPV_TARGET
#define FPV_TARGET FPV_ATTR __attribute__((always_inline)) static inline
#endif
/* The large functions (a product is ~1000 instructions) are called, not
 * inlined: inlined, the G1 batch kernel grew to 145 kB and ran slower than
 * the scalar code (0.81× at 2^16), out of the instruction cache. */
#define FPV_CALLED FPV_ATTR __attribute__((noinline, unused)) static
/* unrolled whole, so that the limbs live in registers */
#define FPV_UNROLL _Pragma("GCC unroll 16")

typedef struct {
    __m256i l[FPV_N29][2];
} FPVT;

/* k·p in limbs that each exceed 2^29 (but the top one), so that a limb of
 * a normalised value can be subtracted from each without a borrow: a - b
 * becomes a + K_p - b limb by limb. */
typedef struct {
    __m256i l[FPV_N29];
} FPV(kp_t);

/* Eight 64-bit words, one a lane (FPV(from_words), FPV(to_words)). */
typedef struct {
    __m256i h[2];
} FPV(w_t);

typedef unsigned char FPV(mask_t);

typedef struct {
    uint64_t a[8];
} FPV(addr_t);

static const uint64_t FPV(PL)[FPV_N29] = FPV_P29;

#include "ff/fpv_tmpl_common.h"

FPV_TARGET void FPV(set1)(FPVT *r, const uint64_t c[FPV_N29])
{
    for (int j = 0; j < FPV_N29; j++)
        r->l[j][0] = r->l[j][1] = _mm256_set1_epi64x((long long)c[j]);
}

FPV_TARGET void FPV(kp_load)(FPV(kp_t) * r, const uint64_t kp[FPV_N29])
{
    for (int j = 0; j < FPV_N29; j++)
        r->l[j] = _mm256_set1_epi64x((long long)kp[j]);
}

/* Carries every limb's excess into the next: limbs < 2^29 after, the top
 * one taking what is left. Inputs: limbs < 2^63, value < R'. */
FPV_TARGET void FPV(normalize)(FPVT *r)
{
    const __m256i m = _mm256_set1_epi64x((long long)FPV_M29);
    FPV_UNROLL
    for (int j = 0; j < FPV_N29 - 1; j++)
        for (int h = 0; h < 2; h++) {
            r->l[j + 1][h] = _mm256_add_epi64(r->l[j + 1][h], _mm256_srli_epi64(r->l[j][h], 29));
            r->l[j][h] = _mm256_and_si256(r->l[j][h], m);
        }
}

/*
 * r = a·b/R' mod p, r < a·b/R' + p, normalised. a, b normalised. CIOS, the
 * two halves row by row side by side: row i adds a_i·b and m·p with
 * m = t_0·(-p^-1) mod 2^29, which clears t_0's low 29 bits; its excess
 * moves to t_1 and the window slides. Every product is below 2^58 and a
 * column takes at most 2·N29 of them, so the limbs stay below 2^63 until
 * the closing carries. 2·N29^2 + N29 products a half.
 *
 * Each limb's two products are added as soon as they are made, and an
 * empty asm pins each new limb: without it gcc 12 reassociates the sums,
 * makes the products long before they are added and spills them (192
 * register moves a four-lane product instead of 38, 13.9 against 11.5 ns
 * an element).
 */
FPV_CALLED void FPV(mul)(FPVT *r, const FPVT *a, const FPVT *b)
{
    const __m256i pinv = _mm256_set1_epi64x((long long)FPV_PINV);
    const __m256i m29 = _mm256_set1_epi64x((long long)FPV_M29);
    __m256i t[FPV_N29][2];
    FPV_UNROLL
    for (int j = 0; j < FPV_N29; j++)
        t[j][0] = t[j][1] = _mm256_setzero_si256();
    FPV_UNROLL
    for (int i = 0; i < FPV_N29; i++) {
        __m256i m[2], c[2];
        for (int h = 0; h < 2; h++) {
            __m256i t0 = _mm256_add_epi64(t[0][h], _mm256_mul_epu32(a->l[i][h], b->l[0][h]));
            m[h] = _mm256_and_si256(_mm256_mul_epu32(t0, pinv), m29);
            t0 = _mm256_add_epi64(
                t0, _mm256_mul_epu32(m[h], _mm256_set1_epi64x((long long)FPV(PL)[0])));
            c[h] = _mm256_srli_epi64(t0, 29);
        }
        FPV_UNROLL
        for (int j = 1; j < FPV_N29; j++)
            for (int h = 0; h < 2; h++) {
                __m256i u = _mm256_add_epi64(t[j][h], _mm256_mul_epu32(a->l[i][h], b->l[j][h]));
                u = _mm256_add_epi64(
                    u, _mm256_mul_epu32(m[h], _mm256_set1_epi64x((long long)FPV(PL)[j])));
                __asm__("" : "+x"(u));
                t[j - 1][h] = u;
            }
        for (int h = 0; h < 2; h++) {
            t[0][h] = _mm256_add_epi64(t[0][h], c[h]);
            t[FPV_N29 - 1][h] = _mm256_setzero_si256();
        }
    }
    FPV_UNROLL
    for (int j = 0; j < FPV_N29; j++)
        for (int h = 0; h < 2; h++)
            r->l[j][h] = t[j][h];
    FPV(normalize)(r);
}

/* r = a + kp - b, normalised: < a + k·p when b < k·p. */
FPV_TARGET void FPV(sub)(FPVT *r, const FPVT *a, const FPVT *b, const FPV(kp_t) * kp)
{
    for (int j = 0; j < FPV_N29; j++)
        for (int h = 0; h < 2; h++)
            r->l[j][h] = _mm256_sub_epi64(_mm256_add_epi64(a->l[j][h], kp->l[j]), b->l[j][h]);
    FPV(normalize)(r);
}

/* r = a + b, normalised (no reduction). */
FPV_TARGET void FPV(add)(FPVT *r, const FPVT *a, const FPVT *b)
{
    for (int j = 0; j < FPV_N29; j++)
        for (int h = 0; h < 2; h++)
            r->l[j][h] = _mm256_add_epi64(a->l[j][h], b->l[j][h]);
    FPV(normalize)(r);
}

/* r = w·2^sh in radix 2^29, w given as N64 vectors of 64-bit limbs (limb k
 * of the eight elements in w[k]); w·2^sh < R'. sh is a constant (0 or SH)
 * once inlined. */
FPV_TARGET void FPV(from_words)(FPVT *r, const FPV(w_t) w[FPV_N64], int sh)
{
    const __m256i m = _mm256_set1_epi64x((long long)FPV_M29);
    FPV_UNROLL
    for (int i = 0; i < FPV_N29; i++)
        for (int h = 0; h < 2; h++) {
            /* bits [29i, 29i + 29) of w·2^sh: word k's bit b sits at 64k + b + sh. */
            __m256i v = _mm256_setzero_si256();
            FPV_UNROLL
            for (int k = 0; k < FPV_N64; k++) {
                int off = 64 * k + sh - 29 * i; /* where word k starts in limb i */
                if (off >= 29 || off <= -64)
                    continue;
                v = _mm256_or_si256(v, off >= 0 ? _mm256_slli_epi64(w[k].h[h], off)
                                                : _mm256_srli_epi64(w[k].h[h], -off));
            }
            r->l[i][h] = _mm256_and_si256(v, m);
        }
}

/* w = a as N64 vectors of 64-bit limbs; a normalised and below 2^(64·N64). */
FPV_TARGET void FPV(to_words)(FPV(w_t) w[FPV_N64], const FPVT *a)
{
    FPV_UNROLL
    for (int k = 0; k < FPV_N64; k++)
        for (int h = 0; h < 2; h++) {
            __m256i v = _mm256_setzero_si256();
            FPV_UNROLL
            for (int i = 0; i < FPV_N29; i++) {
                int off = 29 * i - 64 * k; /* where limb i starts in word k */
                if (off >= 64 || off <= -29)
                    continue;
                v = _mm256_or_si256(v, off >= 0 ? _mm256_slli_epi64(a->l[i][h], off)
                                                : _mm256_srli_epi64(a->l[i][h], -off));
            }
            w[k].h[h] = v;
        }
}

/* The lanes of two vectors of 64-bit lane masks (all ones or zeros). */
FPV_TARGET FPV(mask_t) FPV(mask_bits_)(const __m256i m[2])
{
    unsigned lo = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(m[0]));
    unsigned hi = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(m[1]));
    return (FPV(mask_t))(lo | hi << 4);
}

/* u = a - q (q in 29-bit limbs), its limbs carried; returns the lanes
 * where a >= q, the others' u being negative. a normalised. A limb of
 * a - q, borrow included, lies in [-2^29, 2^29): its sign bit is the
 * borrow into the next limb (AVX2 has no 64-bit arithmetic shift). */
FPV_TARGET FPV(mask_t) FPV(sub_q_)(FPVT *u, const FPVT *a, const uint64_t q[FPV_N29])
{
    const __m256i m = _mm256_set1_epi64x((long long)FPV_M29);
    for (int j = 0; j < FPV_N29; j++)
        for (int h = 0; h < 2; h++)
            u->l[j][h] = _mm256_sub_epi64(a->l[j][h], _mm256_set1_epi64x((long long)q[j]));
    FPV_UNROLL
    for (int j = 0; j < FPV_N29 - 1; j++)
        for (int h = 0; h < 2; h++) {
            u->l[j + 1][h] = _mm256_sub_epi64(u->l[j + 1][h], _mm256_srli_epi64(u->l[j][h], 63));
            u->l[j][h] = _mm256_and_si256(u->l[j][h], m);
        }
    return (FPV(mask_t)) ~FPV(mask_bits_)(u->l[FPV_N29 - 1]);
}

/* a = a - q when a >= q (q = k·p in 29-bit limbs): a < 2q in, a < q out,
 * normalised. */
FPV_TARGET void FPV(csub_with)(FPVT *a, const uint64_t q[FPV_N29])
{
    FPVT u;
    FPV(sub_q_)(&u, a, q);
    for (int h = 0; h < 2; h++) {
        /* the lanes where a < q: u's top limb went negative */
        __m256i lt = _mm256_cmpgt_epi64(_mm256_setzero_si256(), u.l[FPV_N29 - 1][h]);
        for (int j = 0; j < FPV_N29; j++)
            a->l[j][h] = _mm256_blendv_epi8(u.l[j][h], a->l[j][h], lt);
    }
}

/* The lanes where a < p, for a normalised (any integer below R'). */
FPV_TARGET FPV(mask_t) FPV(below_p)(const FPVT *a)
{
    FPVT u;
    return (FPV(mask_t)) ~FPV(sub_q_)(&u, a, FPV(PL));
}

/* a = a - p when a >= p: a < 2p in, a < p out, normalised. */
FPV_TARGET void FPV(csub)(FPVT *a)
{
    FPV(csub_with)(a, FPV(PL));
}

/*
 * r = a·2^-SH mod p, fully reduced: the value x·R' back to x·R. One
 * Montgomery step of SH bits (m = a·(-p^-1) mod 2^SH makes a + m·p a
 * multiple of 2^SH; N29 products below 2^(29 + SH)), then a shift, then 2p
 * (p2: FPV(kp) of 2) and p subtracted where they fit. a normalised,
 * a < 3·2^SH·p and a + 2^SH·p < R': then r < 4p before the subtractions.
 */
FPV_TARGET void FPV(unshift)(FPVT *r, const FPVT *a, const uint64_t p2[FPV_N29])
{
    const __m256i mask = _mm256_set1_epi64x((long long)FPV_M29);
    const __m256i msh = _mm256_set1_epi64x((long long)((1ULL << FPV_SH) - 1));
    FPVT t;
    for (int h = 0; h < 2; h++) {
        __m256i m = _mm256_mul_epu32(a->l[0][h], _mm256_set1_epi64x((long long)FPV_PINV));
        m = _mm256_and_si256(m, msh);
        for (int j = 0; j < FPV_N29; j++)
            t.l[j][h] = _mm256_add_epi64(
                a->l[j][h], _mm256_mul_epu32(m, _mm256_set1_epi64x((long long)FPV(PL)[j])));
    }
    FPV(normalize)(&t);
    for (int h = 0; h < 2; h++) {
        for (int j = 0; j < FPV_N29 - 1; j++)
            r->l[j][h] =
                _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi64(t.l[j][h], FPV_SH),
                                                 _mm256_slli_epi64(t.l[j + 1][h], 29 - FPV_SH)),
                                 mask);
        r->l[FPV_N29 - 1][h] = _mm256_srli_epi64(t.l[FPV_N29 - 1][h], FPV_SH);
    }
    FPV(csub_with)(r, p2);
    FPV(csub)(r);
}

/* The lanes where a ≡ 0 (mod p), for a normalised below R': a·1/R' is
 * below a/R' + p, at most p, so one conditional subtraction reduces it. */
FPV_TARGET FPV(mask_t) FPV(zero_mod_p)(const FPVT *a)
{
    FPVT one, r;
    const uint64_t c[FPV_N29] = {1};
    FPV(set1)(&one, c);
    FPV(mul)(&r, a, &one);
    FPV(csub)(&r);
    __m256i z[2];
    for (int h = 0; h < 2; h++) {
        __m256i any = r.l[0][h];
        for (int j = 1; j < FPV_N29; j++)
            any = _mm256_or_si256(any, r.l[j][h]);
        z[h] = _mm256_cmpeq_epi64(any, _mm256_setzero_si256());
    }
    return FPV(mask_bits_)(z);
}

/* ---- lanes and addresses ------------------------------------------------ */

/* Eight byte addresses: first + lane·stride. */
static inline FPV(addr_t) FPV(addrs)(const void *first, size_t stride)
{
    FPV(addr_t) r;
    for (int i = 0; i < 8; i++)
        r.a[i] = (uint64_t)(uintptr_t)first + (uint64_t)i * stride;
    return r;
}

/* The pointers p[0..8) as addresses, those of the lanes outside `mask`
 * 0 (and not read). */
static inline FPV(addr_t) FPV(ptrs)(const void *const *p, FPV(mask_t) mask)
{
    FPV(addr_t) r;
    for (int i = 0; i < 8; i++)
        r.a[i] = mask >> i & 1 ? (uint64_t)(uintptr_t)p[i] : 0;
    return r;
}

/* a + off in every lane. */
static inline FPV(addr_t) FPV(addr_add)(FPV(addr_t) a, size_t off)
{
    for (int i = 0; i < 8; i++)
        a.a[i] += off;
    return a;
}

static inline FPV(addr_t) FPV(addr_none)(void)
{
    FPV(addr_t) r = {{0}};
    return r;
}

/* ---- loads and stores --------------------------------------------------- */

/* w[k] = limb k of the four 32-byte elements e[0..4): a 4×4 transposition,
 * two rounds of four shuffles. Its own inverse. */
FPV_TARGET void FPV(transpose4_)(__m256i w[4], const __m256i e[4])
{
    __m256i t0 = _mm256_unpacklo_epi64(e[0], e[1]); /* e0.0 e1.0 e0.2 e1.2 */
    __m256i t1 = _mm256_unpackhi_epi64(e[0], e[1]); /* e0.1 e1.1 e0.3 e1.3 */
    __m256i t2 = _mm256_unpacklo_epi64(e[2], e[3]);
    __m256i t3 = _mm256_unpackhi_epi64(e[2], e[3]);
    w[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
    w[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
    w[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
    w[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}

/* The elements at the eight addresses e[0..8) as limb vectors. */
FPV_TARGET void FPV(words_)(FPV(w_t) w[4], const void *const e[8])
{
    for (int h = 0; h < 2; h++) {
        __m256i x[4], y[4];
        for (int i = 0; i < 4; i++)
            x[i] = _mm256_loadu_si256((const __m256i *)e[4 * h + i]);
        FPV(transpose4_)(y, x);
        for (int k = 0; k < 4; k++)
            w[k].h[h] = y[k];
    }
}

/* The inverse of FPV(words_), lanes in `mask` only. */
FPV_TARGET void FPV(put_words_)(void *const e[8], FPV(mask_t) mask, const FPV(w_t) w[4])
{
    for (int h = 0; h < 2; h++) {
        __m256i x[4], y[4];
        for (int k = 0; k < 4; k++)
            x[k] = w[k].h[h];
        FPV(transpose4_)(y, x);
        for (int i = 0; i < 4; i++)
            if (mask >> (4 * h + i) & 1)
                _mm256_storeu_si256((__m256i *)e[4 * h + i], y[i]);
    }
}

/* Eight consecutive elements (at p) as limb vectors. */
FPV_TARGET void FPV(load8)(FPV(w_t) w[FPV_N64], const void *p)
{
    const void *e[8];
    for (int i = 0; i < 8; i++)
        e[i] = (const unsigned char *)p + 8 * FPV_N64 * i;
    FPV(words_)(w, e);
}

/* The inverse of FPV(load8). */
FPV_TARGET void FPV(store8)(void *p, const FPV(w_t) w[FPV_N64])
{
    void *e[8];
    for (int i = 0; i < 8; i++)
        e[i] = (unsigned char *)p + 8 * FPV_N64 * i;
    FPV(put_words_)(e, 0xff, w);
}

/* The elements at the lanes' addresses (lanes in `mask`; the others take
 * `dflt`), shifted into radix 2^29 with the factor 2^SH: r = x·R' as an
 * integer < 2^SH·p for x·R mod p loaded. */
FPV_CALLED void FPV(load)(FPVT *r, FPV(addr_t) addr, FPV(mask_t) mask, const FPVQT *dflt)
{
    const void *e[8];
    for (int i = 0; i < 8; i++)
        e[i] = mask >> i & 1 ? (const void *)(uintptr_t)addr.a[i] : (const void *)dflt;
    FPV(w_t) w[FPV_N64];
    FPV(words_)(w, e);
    FPV(from_words)(r, w, FPV_SH);
}

/* Writes the eight elements of a (lanes in `mask`) as fully reduced x·R
 * mod p to the lanes' addresses by FPV(unshift) (its bounds on a;
 * p2 = 2p). */
FPV_CALLED void FPV(store)(FPV(addr_t) addr, FPV(mask_t) mask, const FPVT *a,
                           const uint64_t p2[FPV_N29])
{
    FPVT u;
    FPV(unshift)(&u, a, p2);
    FPV(w_t) w[FPV_N64];
    FPV(to_words)(w, &u);
    void *e[8];
    for (int i = 0; i < 8; i++)
        e[i] = (void *)(uintptr_t)addr.a[i];
    FPV(put_words_)(e, mask, w);
}

/* ---- Fp2 = Fp[u]/(u^2 + 1), eight elements at once ---------------------- */

typedef struct {
    FPVT c0, c1;
} FPV(2_t);

/* The multiples of p FPV(2_mul) adds: k and 2k (fpv_tmpl.h needs k only). */
typedef struct {
    FPV(kp_t) k1, k2;
} FPV(2_kp_t);

/* kp for FPV(2_mul)'s products below k·p each. */
FPV_TARGET void FPV(2_kp_init)(FPV(2_kp_t) * kp, uint64_t k)
{
    uint64_t c[FPV_N29];
    FPV(kp_init)(c, k);
    FPV(kp_load)(&kp->k1, c);
    FPV(kp_init)(c, 2 * k);
    FPV(kp_load)(&kp->k2, c);
}

/*
 * Karatsuba: t00 = a0·b0, t11 = a1·b1, s = (a0 + a1)(b0 + b1);
 * c0 = t00 + k·p - t11, c1 = s + 2k·p - (t00 + t11): three products where
 * fpv_tmpl.h makes four (R'/p = 169.3 leaves room for the sums). Each
 * product below A·B/R'·p + p, s below 4·A·B/R'·p + p; k must bound t00's
 * and t11's.
 */
FPV_CALLED void FPV(2_mul)(FPV(2_t) * r, const FPV(2_t) * a, const FPV(2_t) * b,
                           const FPV(2_kp_t) * kp)
{
    FPVT t00, t11, sa, sb;
    FPV(add)(&sa, &a->c0, &a->c1);
    FPV(add)(&sb, &b->c0, &b->c1);
    FPV(mul)(&t00, &a->c0, &b->c0);
    FPV(mul)(&t11, &a->c1, &b->c1);
    FPV(mul)(&sa, &sa, &sb);
    FPV(sub)(&r->c0, &t00, &t11, &kp->k1);
    FPV(add)(&t00, &t00, &t11);
    FPV(sub)(&r->c1, &sa, &t00, &kp->k2);
}

FPV_TARGET void FPV(2_sub)(FPV(2_t) * r, const FPV(2_t) * a, const FPV(2_t) * b,
                           const FPV(kp_t) * kp)
{
    FPV(sub)(&r->c0, &a->c0, &b->c0, kp);
    FPV(sub)(&r->c1, &a->c1, &b->c1, kp);
}

/*
 * a = a - q·p, q = floor(T·C / 2^40) from a's top limb T (bits 29·(N29-1)
 * and up) and C = floor(2^40 / P), P = p's top limb + 1: q <= T/P <= a/p
 * and a/p - q < 1 + 2^-13 (T < 2^SH·P), so a < R' in, a < 1.0002p out,
 * normalised: one product a limb, where a product by R' mod p would take
 * 2·N29^2 + N29. The limbs of a - q·p are signed (above -2^35): their
 * carries are taken on a + 2^40, which 2^29 divides.
 */
FPV_TARGET void FPV(reduce)(FPVT *a)
{
    const __m256i c = _mm256_set1_epi64x((long long)((1ULL << 40) / (FPV(PL)[FPV_N29 - 1] + 1)));
    const __m256i bias = _mm256_set1_epi64x(1LL << 40), m = _mm256_set1_epi64x((long long)FPV_M29);
    for (int h = 0; h < 2; h++) {
        __m256i q = _mm256_srli_epi64(_mm256_mul_epu32(a->l[FPV_N29 - 1][h], c), 40);
        __m256i carry = _mm256_setzero_si256();
        for (int j = 0; j < FPV_N29; j++) {
            __m256i qp = _mm256_mul_epu32(q, _mm256_set1_epi64x((long long)FPV(PL)[j]));
            __m256i x = _mm256_add_epi64(_mm256_sub_epi64(a->l[j][h], qp), carry);
            if (j == FPV_N29 - 1) {
                a->l[j][h] = x;
                break;
            }
            x = _mm256_add_epi64(x, bias);
            carry = _mm256_sub_epi64(_mm256_srli_epi64(x, 29), _mm256_set1_epi64x(1LL << 11));
            a->l[j][h] = _mm256_and_si256(x, m);
        }
    }
}

/* Loads eight Fp2 elements (c0 at addr, c1 right after it), each
 * coefficient brought below 1.0002p by FPV(reduce), so that products of
 * products stay small. rp (R' mod p), which fpv_tmpl.h multiplies by to
 * the same end, is not needed here. */
FPV_TARGET void FPV(2_load)(FPV(2_t) * r, FPV(addr_t) addr, FPV(mask_t) mask, const FPVQT *dflt,
                            const FPVT *rp)
{
    (void)rp;
    FPV(load)(&r->c0, addr, mask, &dflt[0]);
    FPV(load)(&r->c1, FPV(addr_add)(addr, 8 * FPV_N64), mask, &dflt[1]);
    FPV(reduce)(&r->c0);
    FPV(reduce)(&r->c1);
}

FPV_TARGET void FPV(2_store)(FPV(addr_t) addr, FPV(mask_t) mask, const FPV(2_t) * a,
                             const uint64_t p2[FPV_N29])
{
    FPV(store)(addr, mask, &a->c0, p2);
    FPV(store)(FPV(addr_add)(addr, 8 * FPV_N64), mask, &a->c1, p2);
}
