/*
 * The body of NAME_msm_batch_ISA (contract in msm_vec.h), compiled once per
 * group by msm_ifma.c and msm_avx2.c after an instantiation of a vector
 * template, ff/fpv_tmpl.h (IFMA) or ff/fpy_tmpl.h (AVX2): both have eight
 * lanes and the same names, and FPV_ISA (ifma or avx2) names the result.
 * The includer defines MIF_GROUP (e.g. bn254_g1), MIF_FQ and MIF_FQS (its
 * coordinate field and that field's batch prefix, e.g. bn254_fp and
 * bn254_fps), MIF_FP2 (0 for G1 over Fp, 1 for G2 over Fp2) and MIF_KL,
 * MIF_K3, MIF_KM, the multiples of p below.
 *
 * Bounds, in multiples of p, with ρ = p/R' (IFMA: 2^-6.4 for BN254,
 * 2^-35.3 for BLS12-381; AVX2: 2^-7.4 for BN254) and SH the template's
 * shift (IFMA 4 and 32, AVX2 5); a product of Fp values below A·p and B·p
 * is below (A·B·ρ + 1)·p, an Fp2 product's coefficients below twice that
 * plus KM:
 *  - G1 loads by shifting: num, den, x1, y1, x2 below KL = 2^SH (16, 2^32;
 *    AVX2 32); products of loads below KL^2·ρ + 1 (4.1, 2^28.7; AVX2
 *    7.1), and of those with loads smaller still; x3 = λ^2 + KL·p - x1 +
 *    KL·p - x2 below 3·KL = K3; t = x1 + K3·p - x3 below 4·KL (BN254: 64
 *    of the 84.6 that R' holds, AVX2 128 of 169.3; BLS12-381 2^34 of
 *    2^35.3); y3 = λ·t + KL·p - y1 below 2·KL.
 *  - G2 loads by shifting and one product by R' mod p: below 1.2 (KL = 2).
 *    Every Fp product then stays below 1.5, so KM = 2 covers a1·b1 in
 *    a0·b0 + KM·p - a1·b1, and Fp2 values stay below 1.5 + KM = 3.5;
 *    x3 below 3.5 + 2·KL = 7.5 <= K3 = 9; t below 1.2 + 9 = 10.2; the
 *    largest product, λ·t, below 3.5·10.2/84.6 + 1 = 1.43 (BN254 on IFMA;
 *    BLS12-381 less); y3 below 3.5 + KL = 5.5.
 *  - G2 on AVX2: loads brought below 1.0002 by FPV(reduce) (KL = 2), and
 *    Karatsuba's product (fpy_tmpl.h): t00, t11 below A·B·ρ + 1, s below
 *    4·A·B·ρ + 1, c0 below t00 + KM, c1 below s + 2·KM. Values below 6
 *    multiply to t00, t11 below 1.22 <= KM = 2 and c1 below 1.86 + 4: Fp2
 *    values from products stay below 6; x3 below 6 + 2·KL = 10 <= K3 = 12;
 *    t below 1.0002 + 12; λ·t's t00, t11 below 6·13·ρ + 1 = 1.47 <= KM, its
 *    c1 below 2.85 + 4 = 6.85; y3 below 6.85 + KL = 8.85; the sums a0 + a1
 *    below 26.
 * Every operand of a multiplication stays below R', as FPV(mul) needs, and
 * every stored value below 3·2^SH·p with 2^SH·p to spare below R', as
 * FPV(store) needs.
 */
#define MIF_CAT2(a, b)        a##_##b
#define MIF_CAT(a, b)         MIF_CAT2(a, b)
#define MIG(op)               MIF_CAT(MIF_GROUP, op)
#define MIA                   MIG(affine_t)
#define MIQS(op)              MIF_CAT(MIF_FQS, op)
#define MIF_QT                MIF_CAT(MIF_FQ, t)
#define MIF_CAT3_(a, b, c)    a##_##b##_##c
#define MIF_CAT3(a, b, c)     MIF_CAT3_(a, b, c)
#define MIF_CAT4_(a, b, c, d) a##_##b##_##c##_##d
#define MIF_CAT4(a, b, c, d)  MIF_CAT4_(a, b, c, d)
#define MIV(op)               MIF_CAT3(MIF_GROUP, op, FPV_ISA) /* NAME_op_ifma, NAME_op_avx2 */
#define MIF_CHAINS            4 /* interleaved product chains: 32 lanes in flight */

#if MIF_FP2
#define MIF_VT               FPV(2_t)
#define MIF_LOAD(r, a, m, d) FPV(2_load)(r, a, m, &(d)->c0, &cx->rp)
#define MIF_STORE(a, m, v)   FPV(2_store)(a, m, v, cx->p2)
#define MIF_MUL(r, a, b)     FPV(2_mul)(r, a, b, &cx->km)
#define MIF_SUB(r, a, b, kp) FPV(2_sub)(r, a, b, kp)
#else
#define MIF_VT               FPVT
#define MIF_LOAD(r, a, m, d) FPV(load)(r, a, m, d)
#define MIF_STORE(a, m, v)   FPV(store)(a, m, v, cx->p2)
#define MIF_MUL(r, a, b)     FPV(mul)(r, a, b)
#define MIF_SUB(r, a, b, kp) FPV(sub)(r, a, b, kp)
#endif

/* The constants of one call. */
typedef struct {
    FPV(kp_t) kl, k3;
    FPV(2_kp_t) km;      /* G2 only */
    FPVT rp;             /* R' mod p: G2 only */
    uint64_t p2[FPV_NL]; /* 2p */
    MIF_QT one;
} MIG(vec_ctx_t);

size_t MIF_CAT4(MIF_GROUP, msm_batch, FPV_ISA, scratch)(size_t k)
{
    return (k + 7) / 8 * sizeof(MIF_VT);
}

/* The lanes of vector v (entries 8v .. 8v + 7) that hold one of the k. */
static inline FPV(mask_t) MIG(vec_mask_)(size_t k, size_t v)
{
    return FPV(lanes)(k - 8 * v);
}

/* Eight lanes' byte addresses: base + (8v + lane)·stride. */
FPV_ATTR static inline FPV(addr_t) MIG(vec_addrs_)(const void *base, size_t v, size_t stride)
{
    return FPV(addrs)((const unsigned char *)base + 8 * v * stride, stride);
}

FPV_ATTR static void MIG(vec_ctx_init_)(MIG(vec_ctx_t) * cx)
{
    uint64_t c[FPV_NL];
    FPV(kp_init)(c, MIF_KL);
    FPV(kp_load)(&cx->kl, c);
    FPV(kp_init)(c, MIF_K3);
    FPV(kp_load)(&cx->k3, c);
    FPV(kp)(cx->p2, 2);
#if MIF_FP2
    FPV(2_kp_init)(&cx->km, MIF_KM);
    FPV(r_prime)(c);
    FPV(set1)(&cx->rp, c);
#endif
    MIF_CAT(MIF_FQ, set_one)(&cx->one);
}

/* The additions of vectors v .. v + cnt - 1 (cnt = 1 or 2), S[v] = 1/den. */
FPV_ATTR __attribute__((always_inline)) static inline void
MIG(vec_finish_)(const MIG(vec_ctx_t) * cx, MIA *const *b, const MIF_QT *const *x2,
                 const MIF_QT *num, size_t k, const MIF_VT *S, size_t v, int cnt)
{
    FPV(mask_t) mask[2];
    FPV(addr_t) bx[2], by[2], xp[2];
    MIF_VT l[2], x1[2], y1[2], xq[2], x3[2], t[2], y3[2];
    for (int i = 0; i < cnt; i++) {
        mask[i] = MIG(vec_mask_)(k, v + i);
        MIF_LOAD(&l[i], MIG(vec_addrs_)(num, v + i, sizeof(MIF_QT)), mask[i], &cx->one);
        FPV(addr_t) bp = FPV(ptrs)((const void *const *)&b[8 * (v + i)], mask[i]);
        xp[i] = FPV(ptrs)((const void *const *)&x2[8 * (v + i)], mask[i]);
        bx[i] = FPV(addr_add)(bp, offsetof(MIA, x));
        by[i] = FPV(addr_add)(bp, offsetof(MIA, y));
    }
    for (int i = 0; i < cnt; i++)
        MIF_MUL(&l[i], &l[i], &S[v + i]); /* λ */
    for (int i = 0; i < cnt; i++) {
        MIF_LOAD(&x1[i], bx[i], mask[i], &cx->one);
        MIF_LOAD(&y1[i], by[i], mask[i], &cx->one);
        MIF_LOAD(&xq[i], xp[i], mask[i], &cx->one);
    }
    for (int i = 0; i < cnt; i++)
        MIF_MUL(&x3[i], &l[i], &l[i]); /* x3 = λ^2 - x1 - x2 */
    for (int i = 0; i < cnt; i++) {
        MIF_SUB(&x3[i], &x3[i], &x1[i], &cx->kl);
        MIF_SUB(&x3[i], &x3[i], &xq[i], &cx->kl);
        MIF_SUB(&t[i], &x1[i], &x3[i], &cx->k3); /* y3 = λ(x1 - x3) - y1 */
    }
    for (int i = 0; i < cnt; i++)
        MIF_MUL(&y3[i], &l[i], &t[i]);
    for (int i = 0; i < cnt; i++) {
        MIF_SUB(&y3[i], &y3[i], &y1[i], &cx->kl);
        MIF_STORE(bx[i], mask[i], &x3[i]);
        MIF_STORE(by[i], mask[i], &y3[i]);
    }
}

FPV_ATTR void MIV(msm_batch)(MIA *const *b, const MIF_QT *const *x2, const MIF_QT *num,
                             const MIF_QT *den, size_t k, void *scratch)
{
    if (k == 0)
        return;
    MIG(vec_ctx_t) ctx, *cx = &ctx;
    MIG(vec_ctx_init_)(cx);
    MIF_VT *S = scratch; /* S[v]: the product of the chain's den before vector v */
    size_t V = (k + 7) / 8;
    MIF_VT acc[MIF_CHAINS];
    for (int c = 0; c < MIF_CHAINS; c++)
        MIF_LOAD(&acc[c], FPV(addr_none)(), 0, &cx->one);
    for (size_t v = 0; v < V; v++) {
        FPV(mask_t) mask = MIG(vec_mask_)(k, v);
        MIF_VT d;
        MIF_LOAD(&d, MIG(vec_addrs_)(den, v, sizeof(MIF_QT)), mask, &cx->one);
        S[v] = acc[v % MIF_CHAINS];
        MIF_MUL(&acc[v % MIF_CHAINS], &acc[v % MIF_CHAINS], &d);
    }

    /* The inverses of the four chains' totals from one scalar batch
     * inversion of u = acc0·acc1·acc2·acc3, lane by lane. */
    MIF_VT q2, q3, u, cur[MIF_CHAINS];
    MIF_MUL(&q2, &acc[0], &acc[1]);
    MIF_MUL(&q3, &q2, &acc[2]);
    MIF_MUL(&u, &q3, &acc[3]);
    MIF_QT lanes[8], lscr[8];
    MIF_STORE(MIG(vec_addrs_)(lanes, 0, sizeof(MIF_QT)), 0xff, &u);
    MIQS(inv_vartime)(lanes, lscr, 8);
    MIF_LOAD(&u, MIG(vec_addrs_)(lanes, 0, sizeof(MIF_QT)), 0xff, &cx->one);
    MIF_MUL(&cur[3], &u, &q3);
    MIF_MUL(&u, &u, &acc[3]);
    MIF_MUL(&cur[2], &u, &q2);
    MIF_MUL(&u, &u, &acc[2]);
    MIF_MUL(&cur[1], &u, &acc[0]);
    MIF_MUL(&cur[0], &u, &acc[1]);

    /* Back sweep: S[v] becomes 1/den of vector v's lanes. */
    for (size_t v = V; v-- > 0;) {
        FPV(mask_t) mask = MIG(vec_mask_)(k, v);
        MIF_VT d;
        MIF_VT *cc = &cur[v % MIF_CHAINS];
        MIF_LOAD(&d, MIG(vec_addrs_)(den, v, sizeof(MIF_QT)), mask, &cx->one);
        MIF_MUL(&S[v], &S[v], cc);
        MIF_MUL(cc, cc, &d);
    }
    /* The additions, two vectors at a time: each one's λ, λ^2, λ·t chain
     * is sequential, the two are not. */
    for (size_t v = 0; v < V; v += 2)
        MIG(vec_finish_)(cx, b, x2, num, k, S, v, v + 1 < V ? 2 : 1);
}

#undef MIF_CAT2
#undef MIF_CAT
#undef MIG
#undef MIV
#undef MIF_CAT3_
#undef MIF_CAT3
#undef MIF_CAT4_
#undef MIF_CAT4
#undef MIA
#undef MIQS
#undef MIF_CHAINS
#undef MIF_VT
#undef MIF_QT
#undef MIF_LOAD
#undef MIF_STORE
#undef MIF_MUL
#undef MIF_SUB
#undef MIF_FQ
#undef MIF_GROUP
#undef MIF_FQS
#undef MIF_FP2
#undef MIF_KL
#undef MIF_K3
#undef MIF_KM
