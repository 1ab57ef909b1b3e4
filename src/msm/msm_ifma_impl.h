/*
 * The body of NAME_msm_batch_ifma (contract in msm_ifma.h), compiled once
 * per curve by msm_ifma.c after an instantiation of ff/fpv_tmpl.h. The
 * includer defines MIF_GROUP (e.g. bn254_g1) and MIF_FQS (the batch prefix
 * of its field, e.g. bn254_fps).
 *
 * Bounds, in multiples of p, with L = 2^SH the bound of a loaded value
 * (16 for BN254, 2^32 for BLS12-381) and ρ = p/R' (2^-6.4, 2^-35.3);
 * a product of values below A·p and B·p is below (A·B·ρ + 1)·p:
 *   loaded num, den, x1, y1, x2, one: < L
 *   prefix products, inverses, λ: < L^2·ρ + 1 (BN254 4.1, BLS12-381 2^28.7)
 *   λ^2 small; x3 = λ^2 + L·p - x1 + L·p - x2 < 3L
 *   t = x1 + 3L·p - x3 < 4L (BN254 64 of the 84.6 that R' holds, BLS12-381
 *   2^34 of 2^35.3), y3 = λ·t + L·p - y1 < 2L.
 * Every operand of a multiplication is below R', as FPV(mul) needs.
 */
#define MIF_CAT2(a, b) a##_##b
#define MIF_CAT(a, b)  MIF_CAT2(a, b)
#define MIG(op)        MIF_CAT(MIF_GROUP, op)
#define MIA            MIG(affine_t)
#define MIQS(op)       MIF_CAT(MIF_FQS, op)

#define MIF_CHAINS 4 /* interleaved product chains: 32 lanes in flight */

size_t MIG(msm_batch_ifma_scratch)(size_t k)
{
    return (k + 7) / 8 * sizeof(FPVT);
}

/* Eight lanes' byte addresses: base + (8v + lane)·stride. */
__attribute__((target("avx512f,avx512ifma"))) static inline __m512i
MIG(ifma_addrs_)(const void *base, size_t v, size_t stride)
{
    long long s = (long long)stride;
    const __m512i lane = _mm512_set_epi64(7 * s, 6 * s, 5 * s, 4 * s, 3 * s, 2 * s, s, 0);
    return _mm512_add_epi64(_mm512_set1_epi64((long long)((uintptr_t)base + 8 * v * stride)), lane);
}

__attribute__((target("avx512f,avx512ifma"))) void
MIG(msm_batch_ifma)(MIA *const *b, const FPVQT *const *x2, const FPVQT *num, const FPVQT *den,
                    size_t k, void *scratch)
{
    if (k == 0)
        return;
    FPVT *S = scratch; /* S[v]: the product of the chain's den before vector v */
    size_t V = (k + 7) / 8;
    const FPVQT one = FPVQ(ONE);
    uint64_t kl[FPV_N52], k3l[FPV_N52];
    FPV(kp_init)(kl, 1ULL << FPV_SH);
    FPV(kp_init)(k3l, 3ULL << FPV_SH);
    FPV(kp_t) kL, k3L;
    FPV(kp_load)(&kL, kl);
    FPV(kp_load)(&k3L, k3l);
    FPVT r_mod_p; /* R mod p as a constant for FPV(store): one, unshifted */
    {
        uint64_t w[FPV_N52] = {0};
        for (int i = 0; i < FPV_N52; i++) {
            for (int j = 0; j < FPV_N64; j++) {
                int off = 64 * j - 52 * i;
                if (off >= 52 || off <= -64)
                    continue;
                w[i] |= off >= 0 ? one.l[j] << off : one.l[j] >> -off;
            }
            r_mod_p.l[i] = _mm512_set1_epi64((long long)(w[i] & FPV_M52));
        }
    }
    FPVT acc[MIF_CHAINS];
    for (int c = 0; c < MIF_CHAINS; c++)
        FPV(load)(&acc[c], _mm512_setzero_si512(), 0, &one);
    for (size_t v = 0; v < V; v++) {
        size_t left = k - 8 * v;
        __mmask8 mask = left >= 8 ? 0xff : (__mmask8)((1u << left) - 1);
        FPVT d;
        FPV(load)(&d, MIG(ifma_addrs_)(den, v, sizeof(FPVQT)), mask, &one);
        S[v] = acc[v % MIF_CHAINS];
        FPV(mul)(&acc[v % MIF_CHAINS], &acc[v % MIF_CHAINS], &d);
    }

    /* The inverses of the four chains' totals from one scalar batch
     * inversion of u = acc0·acc1·acc2·acc3, lane by lane. */
    FPVT q2, q3, u, cur[MIF_CHAINS];
    FPV(mul)(&q2, &acc[0], &acc[1]);
    FPV(mul)(&q3, &q2, &acc[2]);
    FPV(mul)(&u, &q3, &acc[3]);
    FPVQT lanes[8], lscr[8];
    FPV(store)(MIG(ifma_addrs_)(lanes, 0, sizeof(FPVQT)), 0xff, &u, &r_mod_p);
    MIQS(inv_vartime)(lanes, lscr, 8);
    FPV(load)(&u, MIG(ifma_addrs_)(lanes, 0, sizeof(FPVQT)), 0xff, &one);
    FPV(mul)(&cur[3], &u, &q3);
    FPV(mul)(&u, &u, &acc[3]);
    FPV(mul)(&cur[2], &u, &q2);
    FPV(mul)(&u, &u, &acc[2]);
    FPV(mul)(&cur[1], &u, &acc[0]);
    FPV(mul)(&cur[0], &u, &acc[1]);

    const size_t xo = offsetof(MIA, x), yo = offsetof(MIA, y);
    for (size_t v = V; v-- > 0;) {
        size_t left = k - 8 * v;
        __mmask8 mask = left >= 8 ? 0xff : (__mmask8)((1u << left) - 1);
        FPVT d, inv, l, x1, y1, xq, x3, t, y3;
        FPVT *cc = &cur[v % MIF_CHAINS];
        FPV(load)(&d, MIG(ifma_addrs_)(den, v, sizeof(FPVQT)), mask, &one);
        FPV(mul)(&inv, &S[v], cc); /* 1/den for these lanes */
        FPV(mul)(cc, cc, &d);
        FPV(load)(&l, MIG(ifma_addrs_)(num, v, sizeof(FPVQT)), mask, &one);
        FPV(mul)(&l, &l, &inv); /* λ */
        __m512i bp = _mm512_maskz_loadu_epi64(mask, &b[8 * v]);
        __m512i xp = _mm512_maskz_loadu_epi64(mask, &x2[8 * v]);
        __m512i bx = _mm512_add_epi64(bp, _mm512_set1_epi64((long long)xo));
        __m512i by = _mm512_add_epi64(bp, _mm512_set1_epi64((long long)yo));
        FPV(load)(&x1, bx, mask, &one);
        FPV(load)(&y1, by, mask, &one);
        FPV(load)(&xq, xp, mask, &one);
        FPV(mul)(&x3, &l, &l); /* x3 = λ^2 - x1 - x2 */
        FPV(sub)(&x3, &x3, &x1, &kL);
        FPV(sub)(&x3, &x3, &xq, &kL);
        FPV(sub)(&t, &x1, &x3, &k3L); /* y3 = λ(x1 - x3) - y1 */
        FPV(mul)(&y3, &l, &t);
        FPV(sub)(&y3, &y3, &y1, &kL);
        FPV(store)(bx, mask, &x3, &r_mod_p);
        FPV(store)(by, mask, &y3, &r_mod_p);
    }
}

#undef MIF_CAT2
#undef MIF_CAT
#undef MIG
#undef MIA
#undef MIQS
#undef MIF_CHAINS
#undef MIF_GROUP
#undef MIF_FQS
