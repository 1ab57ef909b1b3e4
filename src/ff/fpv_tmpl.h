/*
 * Eight field elements at once: Montgomery arithmetic on radix-2^52 limbs
 * with AVX-512 IFMA (VPMADD52LUQ/HUQ), the template.
 *
 * Instantiated by a .c file that defines, before including it:
 *   FPV_NAME  the prefix of every generated name (e.g. bn254_fpv)
 *   FPV_FQ    the scalar field it mirrors (e.g. bn254_fp): its _t, set_one, dbl
 *   FPV_N64   that field's 64-bit limbs (4 or 6)
 *   FPV_N52   52-bit limbs: the least n with 52·n >= 64·FPV_N64 (5 or 8)
 *   FPV_P52   p in FPV_N52 limbs of 52 bits, least significant first
 *   FPV_PINV  -p^-1 mod 2^52
 * and removes the names with fpv_tmpl_undef.h. Every function carries the
 * target attribute FPV_TARGET, so the rest of the build needs no -mavx512
 * flag; callers check cpu_has_ifma (util/cpu.h) first. The AVX2 template
 * (fpy_tmpl.h) has the same names, so that code over them compiles with
 * either.
 *
 * Representation (NAME_t: lane i of limb j is limb j of element i):
 *  - R' = 2^(52·N52), the vector Montgomery radix; an element x is held as
 *    any v ≡ x·R' (mod p) with v < R', limbs < 2^52 ("normalised"). Values
 *    are not reduced below p: each function states a bound on its output,
 *    in multiples of p, from bounds on its inputs.
 *  - The scalar field keeps x·R mod p, R = 2^(64·N64) <= R'. A scalar
 *    element shifted left by SH = 52·N52 - 64·N64 bits is x·R' as an integer
 *    below 2^SH·p: loading costs no multiplication (FPV(load)). The way back
 *    is one Montgomery step of SH bits, v·2^-SH ≡ x·R, and two conditional
 *    subtractions (FPV(unshift), FPV(store)).
 *  - FPV(mul)(a, b) < a·b/R' + p. With p/R' = 2^-6.4 (BN254, SH = 4) and
 *    2^-35.3 (BLS12-381, SH = 32) the products of loaded values shrink
 *    back towards p; the callers keep their sums below R' (the bounds are
 *    derived in msm/msm_vec_impl.h and ntt/ntt_ifma_impl.h).
 *
 * Measured (dev-epyc2, AMD EPYC with 512-bit IFMA, gcc 12 -O3): four
 * independent streams of multiplications, 1.99 ns a product for BN254
 * (N52 = 5) and 4.46 ns for BLS12-381 (N52 = 8), against 12.4 and 20.8 ns
 * for one scalar product with MULX/ADX.
 */
#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FPV_CAT2(a, b) a##_##b
#define FPV_CAT(a, b)  FPV_CAT2(a, b)
#define FPV(op)        FPV_CAT(FPV_NAME, op)
#define FPVT           FPV(t)
#define FPVQ(op)       FPV_CAT(FPV_FQ, op)
#define FPVQT          FPVQ(t)
#define FPV_NL         FPV_N52
#define FPV_LB         52
#define FPV_SH         (52 * FPV_N52 - 64 * FPV_N64)
#define FPV_M52        ((1ULL << 52) - 1)
/* The instruction set, for the names of the code over this template, and
 * the target attribute of its functions. */
#define FPV_ISA  ifma
#define FPV_ATTR __attribute__((target("avx512f,avx512ifma")))
#ifndef FPV_TARGET
#define FPV_TARGET FPV_ATTR __attribute__((always_inline)) static inline
#endif

typedef struct {
    __m512i l[FPV_N52];
} FPVT;

/* k·p in limbs that each exceed 2^52 (but the top one), so that a limb of
 * a normalised value can be subtracted from each without a borrow: a - b
 * becomes a + K_p - b limb by limb. */
typedef struct {
    __m512i l[FPV_N52];
} FPV(kp_t);

/* Lanes, as the AVX2 template (fpy_tmpl.h) has them: eight 64-bit words
 * one a lane, a lane mask, eight byte addresses. */
typedef __m512i FPV(w_t);
typedef __mmask8 FPV(mask_t);
typedef __m512i FPV(addr_t);

static const uint64_t FPV(PL)[FPV_N52] = FPV_P52;

#include "ff/fpv_tmpl_common.h"

FPV_TARGET void FPV(set1)(FPVT *r, const uint64_t c[FPV_N52])
{
    for (int j = 0; j < FPV_N52; j++)
        r->l[j] = _mm512_set1_epi64((long long)c[j]);
}

FPV_TARGET void FPV(kp_load)(FPV(kp_t) * r, const uint64_t kp[FPV_N52])
{
    for (int j = 0; j < FPV_N52; j++)
        r->l[j] = _mm512_set1_epi64((long long)kp[j]);
}

/* Carries every limb's excess into the next: limbs < 2^52 after, the top
 * one taking what is left. Inputs: limbs < 2^63, value < R'. */
FPV_TARGET void FPV(normalize)(FPVT *r)
{
    const __m512i m = _mm512_set1_epi64((long long)FPV_M52);
    for (int j = 0; j < FPV_N52 - 1; j++) {
        r->l[j + 1] = _mm512_add_epi64(r->l[j + 1], _mm512_srli_epi64(r->l[j], 52));
        r->l[j] = _mm512_and_si512(r->l[j], m);
    }
}

/* r = a·b/R' mod p, r < a·b/R' + p, normalised. a, b normalised. CIOS: row
 * i adds a_i·b (low and high halves of each 104-bit product into adjacent
 * limbs), then m·p with m = t_0·(-p^-1) mod 2^52, which clears t_0; limbs
 * stay below 4·N52·2^52 < 2^57 until the closing carries. 2·N52^2 + N52
 * products to the low half, 2·N52^2 to the high one. */
FPV_TARGET void FPV(mul)(FPVT *r, const FPVT *a, const FPVT *b)
{
    const __m512i z = _mm512_setzero_si512();
    const __m512i pinv = _mm512_set1_epi64((long long)FPV_PINV);
    __m512i t[FPV_N52 + 1];
    for (int j = 0; j <= FPV_N52; j++)
        t[j] = z;
    for (int i = 0; i < FPV_N52; i++) {
        for (int j = 0; j < FPV_N52; j++)
            t[j] = _mm512_madd52lo_epu64(t[j], a->l[i], b->l[j]);
        for (int j = 0; j < FPV_N52; j++)
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a->l[i], b->l[j]);
        __m512i m = _mm512_madd52lo_epu64(z, t[0], pinv);
        for (int j = 0; j < FPV_N52; j++)
            t[j] = _mm512_madd52lo_epu64(t[j], m, _mm512_set1_epi64((long long)FPV(PL)[j]));
        for (int j = 0; j < FPV_N52; j++)
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, _mm512_set1_epi64((long long)FPV(PL)[j]));
        t[1] = _mm512_add_epi64(t[1], _mm512_srli_epi64(t[0], 52));
        for (int j = 0; j < FPV_N52; j++)
            t[j] = t[j + 1];
        t[FPV_N52] = z;
    }
    for (int j = 0; j < FPV_N52; j++)
        r->l[j] = t[j];
    FPV(normalize)(r);
}

/* r = a + kp - b, normalised: < a + k·p when b < k·p. */
FPV_TARGET void FPV(sub)(FPVT *r, const FPVT *a, const FPVT *b, const FPV(kp_t) * kp)
{
    for (int j = 0; j < FPV_N52; j++)
        r->l[j] = _mm512_sub_epi64(_mm512_add_epi64(a->l[j], kp->l[j]), b->l[j]);
    FPV(normalize)(r);
}

/* r = w·2^sh in radix 2^52, w given as N64 vectors of 64-bit limbs (limb k
 * of the eight elements in w[k]); w·2^sh < R'. sh is a constant (0 or SH)
 * once inlined. */
FPV_TARGET void FPV(from_words)(FPVT *r, const FPV(w_t) w[FPV_N64], int sh)
{
    const __m512i m = _mm512_set1_epi64((long long)FPV_M52);
    for (int i = 0; i < FPV_N52; i++) {
        /* bits [52i, 52i + 52) of w·2^sh: word k's bit b sits at 64k + b + sh. */
        __m512i v = _mm512_setzero_si512();
        for (int k = 0; k < FPV_N64; k++) {
            int off = 64 * k + sh - 52 * i; /* where word k starts in limb i */
            if (off >= 52 || off <= -64)
                continue;
            v = _mm512_or_si512(v, off >= 0 ? _mm512_slli_epi64(w[k], (unsigned)off)
                                            : _mm512_srli_epi64(w[k], (unsigned)-off));
        }
        r->l[i] = _mm512_and_si512(v, m);
    }
}

/* w = a as N64 vectors of 64-bit limbs; a normalised and below 2^(64·N64). */
FPV_TARGET void FPV(to_words)(FPV(w_t) w[FPV_N64], const FPVT *a)
{
    for (int k = 0; k < FPV_N64; k++) {
        __m512i v = _mm512_setzero_si512();
        for (int i = 0; i < FPV_N52; i++) {
            int off = 52 * i - 64 * k; /* where limb i starts in word k */
            if (off >= 64 || off <= -52)
                continue;
            v = _mm512_or_si512(v, off >= 0 ? _mm512_slli_epi64(a->l[i], (unsigned)off)
                                            : _mm512_srli_epi64(a->l[i], (unsigned)-off));
        }
        w[k] = v;
    }
}

/* u = a - q (q in 52-bit limbs), its limbs carried; returns the lanes
 * where a >= q, the others' u being negative. a normalised. */
FPV_TARGET __mmask8 FPV(sub_q_)(FPVT *u, const FPVT *a, const uint64_t q[FPV_N52])
{
    for (int j = 0; j < FPV_N52; j++)
        u->l[j] = _mm512_sub_epi64(a->l[j], _mm512_set1_epi64((long long)q[j]));
    const __m512i m = _mm512_set1_epi64((long long)FPV_M52);
    for (int j = 0; j < FPV_N52 - 1; j++) {
        u->l[j + 1] = _mm512_add_epi64(u->l[j + 1], _mm512_srai_epi64(u->l[j], 52));
        u->l[j] = _mm512_and_si512(u->l[j], m);
    }
    return _mm512_cmpge_epi64_mask(u->l[FPV_N52 - 1], _mm512_setzero_si512());
}

/* a = a - q when a >= q (q = k·p in 52-bit limbs): a < 2q in, a < q out,
 * normalised. */
FPV_TARGET void FPV(csub_with)(FPVT *a, const uint64_t q[FPV_N52])
{
    FPVT u;
    __mmask8 ge = FPV(sub_q_)(&u, a, q);
    for (int j = 0; j < FPV_N52; j++)
        a->l[j] = _mm512_mask_mov_epi64(a->l[j], ge, u.l[j]);
}

/* The lanes where a < p, for a normalised (any integer below R'). */
FPV_TARGET __mmask8 FPV(below_p)(const FPVT *a)
{
    FPVT u;
    return (__mmask8)~FPV(sub_q_)(&u, a, FPV(PL));
}

/* a = a - p when a >= p: a < 2p in, a < p out, normalised. */
FPV_TARGET void FPV(csub)(FPVT *a)
{
    FPV(csub_with)(a, FPV(PL));
}

/*
 * r = a·2^-SH mod p, fully reduced: the value x·R' back to x·R. One
 * Montgomery step of SH bits (m = a·(-p^-1) mod 2^SH makes a + m·p a
 * multiple of 2^SH; 2·N52 products), then a shift, then 2p (p2: FPV(kp)
 * of 2) and p subtracted where they fit. a normalised, a < 3·2^SH·p and
 * a + 2^SH·p < R': then r < 4p before the subtractions, and the top
 * product m·p_(N52-1) has no high half (p's top limb is below 2^(52-SH)
 * for all four moduli, which a + m·p < R' also implies).
 */
FPV_TARGET void FPV(unshift)(FPVT *r, const FPVT *a, const uint64_t p2[FPV_N52])
{
    const __m512i z = _mm512_setzero_si512();
    __m512i m = _mm512_madd52lo_epu64(z, a->l[0], _mm512_set1_epi64((long long)FPV_PINV));
    m = _mm512_and_si512(m, _mm512_set1_epi64((long long)((1ULL << FPV_SH) - 1)));
    FPVT t = *a;
    for (int j = 0; j < FPV_N52; j++)
        t.l[j] = _mm512_madd52lo_epu64(t.l[j], m, _mm512_set1_epi64((long long)FPV(PL)[j]));
    for (int j = 0; j < FPV_N52 - 1; j++)
        t.l[j + 1] = _mm512_madd52hi_epu64(t.l[j + 1], m, _mm512_set1_epi64((long long)FPV(PL)[j]));
    FPV(normalize)(&t);
    const __m512i mask = _mm512_set1_epi64((long long)FPV_M52);
    for (int j = 0; j < FPV_N52 - 1; j++)
        r->l[j] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(t.l[j], FPV_SH),
                                                   _mm512_slli_epi64(t.l[j + 1], 52 - FPV_SH)),
                                   mask);
    r->l[FPV_N52 - 1] = _mm512_srli_epi64(t.l[FPV_N52 - 1], FPV_SH);
    FPV(csub_with)(r, p2);
    FPV(csub)(r);
}

/* The lanes where a ≡ 0 (mod p), for a normalised below R': a·1/R' is
 * below a/R' + p, at most p, so one conditional subtraction reduces it. */
FPV_TARGET __mmask8 FPV(zero_mod_p)(const FPVT *a)
{
    FPVT one, r;
    const uint64_t c[FPV_N52] = {1};
    FPV(set1)(&one, c);
    FPV(mul)(&r, a, &one);
    FPV(csub)(&r);
    __m512i any = r.l[0];
    for (int j = 1; j < FPV_N52; j++)
        any = _mm512_or_si512(any, r.l[j]);
    return _mm512_cmpeq_epi64_mask(any, _mm512_setzero_si512());
}

/* r = a + b, normalised (no reduction). */
FPV_TARGET void FPV(add)(FPVT *r, const FPVT *a, const FPVT *b)
{
    for (int j = 0; j < FPV_N52; j++)
        r->l[j] = _mm512_add_epi64(a->l[j], b->l[j]);
    FPV(normalize)(r);
}

/* ---- lanes and addresses ------------------------------------------------ */

/* Eight byte addresses: first + lane·stride. */
FPV_TARGET FPV(addr_t) FPV(addrs)(const void *first, size_t stride)
{
    long long s = (long long)stride;
    const __m512i lane = _mm512_set_epi64(7 * s, 6 * s, 5 * s, 4 * s, 3 * s, 2 * s, s, 0);
    return _mm512_add_epi64(_mm512_set1_epi64((long long)(uintptr_t)first), lane);
}

/* The pointers p[0..8) as addresses, those of the lanes outside `mask`
 * 0 (and not read). */
FPV_TARGET FPV(addr_t) FPV(ptrs)(const void *const *p, FPV(mask_t) mask)
{
    return _mm512_maskz_loadu_epi64(mask, p);
}

/* a + off in every lane. */
FPV_TARGET FPV(addr_t) FPV(addr_add)(FPV(addr_t) a, size_t off)
{
    return _mm512_add_epi64(a, _mm512_set1_epi64((long long)off));
}

FPV_TARGET FPV(addr_t) FPV(addr_none)(void)
{
    return _mm512_setzero_si512();
}

/* Limbs j of the eight elements at byte addresses addr + 8j (lanes in
 * `mask`; the others take `dflt`), shifted into radix 2^52 with the
 * factor 2^SH: r = x·R' as an integer < 2^SH·p for x·R mod p loaded. */
FPV_TARGET void FPV(load)(FPVT *r, FPV(addr_t) addr, FPV(mask_t) mask, const FPVQT *dflt)
{
    __m512i w[FPV_N64];
    for (int k = 0; k < FPV_N64; k++)
        w[k] = _mm512_mask_i64gather_epi64(_mm512_set1_epi64((long long)dflt->l[k]), mask,
                                           _mm512_add_epi64(addr, _mm512_set1_epi64(8 * k)),
                                           (const void *)0, 1);
    FPV(from_words)(r, w, FPV_SH);
}

/* Writes the eight elements of a (lanes in `mask`) as fully reduced x·R mod
 * p, limb j to the byte addresses addr + 8j, j < N64, by FPV(unshift)
 * (its bounds on a; p2 = 2p). */
FPV_TARGET void FPV(store)(FPV(addr_t) addr, FPV(mask_t) mask, const FPVT *a,
                           const uint64_t p2[FPV_N52])
{
    FPVT t;
    FPV(unshift)(&t, a, p2);
    __m512i w[FPV_N64];
    FPV(to_words)(w, &t);
    for (int k = 0; k < FPV_N64; k++)
        _mm512_mask_i64scatter_epi64((void *)0, mask,
                                     _mm512_add_epi64(addr, _mm512_set1_epi64(8 * k)), w[k], 1);
}

#if FPV_N64 == 4
/* Eight consecutive elements of four limbs (256 bytes at p) as limb
 * vectors: w[k] holds limb k of elements 0..7, by two rounds of
 * two-source permutes (8 in all). */
FPV_TARGET void FPV(load8)(__m512i w[4], const void *p)
{
    const long long *q = p;
    __m512i a = _mm512_loadu_si512(q), b = _mm512_loadu_si512(q + 8);
    __m512i c = _mm512_loadu_si512(q + 16), d = _mm512_loadu_si512(q + 24);
    const __m512i lo = _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0);
    const __m512i hi = _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2);
    /* ab01 = [e0.0 e1.0 e2.0 e3.0 e0.1 e1.1 e2.1 e3.1], ab23 the limbs 2, 3 */
    __m512i ab01 = _mm512_permutex2var_epi64(a, lo, b), ab23 = _mm512_permutex2var_epi64(a, hi, b);
    __m512i cd01 = _mm512_permutex2var_epi64(c, lo, d), cd23 = _mm512_permutex2var_epi64(c, hi, d);
    const __m512i l0 = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
    const __m512i l1 = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    w[0] = _mm512_permutex2var_epi64(ab01, l0, cd01);
    w[1] = _mm512_permutex2var_epi64(ab01, l1, cd01);
    w[2] = _mm512_permutex2var_epi64(ab23, l0, cd23);
    w[3] = _mm512_permutex2var_epi64(ab23, l1, cd23);
}

/* The inverse of FPV(load8). */
FPV_TARGET void FPV(store8)(void *p, const __m512i w[4])
{
    long long *q = p;
    const __m512i l0 = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
    const __m512i l1 = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    __m512i ab01 = _mm512_permutex2var_epi64(w[0], l0, w[1]);
    __m512i cd01 = _mm512_permutex2var_epi64(w[0], l1, w[1]);
    __m512i ab23 = _mm512_permutex2var_epi64(w[2], l0, w[3]);
    __m512i cd23 = _mm512_permutex2var_epi64(w[2], l1, w[3]);
    /* ab01 = [e0.0 e1.0 e2.0 e3.0 e0.1 e1.1 e2.1 e3.1] again: the first
     * round of FPV(load8) is its own inverse */
    const __m512i e0 = _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0);
    const __m512i e1 = _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2);
    _mm512_storeu_si512(q, _mm512_permutex2var_epi64(ab01, e0, ab23));
    _mm512_storeu_si512(q + 8, _mm512_permutex2var_epi64(ab01, e1, ab23));
    _mm512_storeu_si512(q + 16, _mm512_permutex2var_epi64(cd01, e0, cd23));
    _mm512_storeu_si512(q + 24, _mm512_permutex2var_epi64(cd01, e1, cd23));
}
#endif

/* ---- Fp2 = Fp[u]/(u^2 + 1), eight elements at once --------------------- */

typedef struct {
    FPVT c0, c1;
} FPV(2_t);

/* The multiple of p FPV(2_mul) adds (fpy_tmpl.h needs two). */
typedef FPV(kp_t) FPV(2_kp_t);

/* kp for FPV(2_mul)'s products below k·p each. */
FPV_TARGET void FPV(2_kp_init)(FPV(2_kp_t) * kp, uint64_t k)
{
    uint64_t c[FPV_N52];
    FPV(kp_init)(c, k);
    FPV(kp_load)(kp, c);
}

/* c0 = a0·b0 + k·p - a1·b1, c1 = a0·b1 + a1·b0: four products, each
 * below A·B/R'·p + p; kp's k must bound a1·b1's. */
FPV_TARGET void FPV(2_mul)(FPV(2_t) * r, const FPV(2_t) * a, const FPV(2_t) * b,
                           const FPV(2_kp_t) * kp)
{
    FPVT t00, t11, t01, t10;
    FPV(mul)(&t00, &a->c0, &b->c0);
    FPV(mul)(&t11, &a->c1, &b->c1);
    FPV(mul)(&t01, &a->c0, &b->c1);
    FPV(mul)(&t10, &a->c1, &b->c0);
    FPV(sub)(&r->c0, &t00, &t11, kp);
    for (int j = 0; j < FPV_N52; j++)
        r->c1.l[j] = _mm512_add_epi64(t01.l[j], t10.l[j]);
    FPV(normalize)(&r->c1);
}

FPV_TARGET void FPV(2_sub)(FPV(2_t) * r, const FPV(2_t) * a, const FPV(2_t) * b,
                           const FPV(kp_t) * kp)
{
    FPV(sub)(&r->c0, &a->c0, &b->c0, kp);
    FPV(sub)(&r->c1, &a->c1, &b->c1, kp);
}

/* Loads eight Fp2 elements (c0 at addr, c1 right after it) and multiplies
 * each coefficient by rp (R' mod p, FPV(r_prime)): the same value, now
 * below 1.2p, so that products of products stay small (Fp2's sums double
 * the bounds, and BN254's R' holds only 84.6p). */
FPV_TARGET void FPV(2_load)(FPV(2_t) * r, FPV(addr_t) addr, FPV(mask_t) mask, const FPVQT *dflt,
                            const FPVT *rp)
{
    FPV(load)(&r->c0, addr, mask, &dflt[0]);
    FPV(load)(&r->c1, _mm512_add_epi64(addr, _mm512_set1_epi64(8 * FPV_N64)), mask, &dflt[1]);
    FPV(mul)(&r->c0, &r->c0, rp);
    FPV(mul)(&r->c1, &r->c1, rp);
}

FPV_TARGET void FPV(2_store)(FPV(addr_t) addr, FPV(mask_t) mask, const FPV(2_t) * a,
                             const uint64_t p2[FPV_N52])
{
    FPV(store)(addr, mask, &a->c0, p2);
    FPV(store)(_mm512_add_epi64(addr, _mm512_set1_epi64(8 * FPV_N64)), mask, &a->c1, p2);
}
