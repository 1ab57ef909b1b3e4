/*
 * The body of NAME_ntt_{dif,dit}_rows_ifma (contract in ntt_ifma.h), once
 * per curve after an instantiation of ff/fpv_tmpl.h for its Fr; the
 * includer defines NIF_NAME (bn254 or bls381).
 *
 * Bounds: x, y < p as loaded; the twiddle, shifted, below 16p; R'/p is
 * 84.6 (BN254 Fr) and 35.3 (BLS12-381 Fr), so a product of a value below
 * 2p and a twiddle is below (2·16/35.3 + 1)·p < 2p, and every sum below 2p:
 * one conditional subtraction each.
 */
#define NIF_CAT2(a, b) a##_##b
#define NIF_CAT(a, b)  NIF_CAT2(a, b)
#define NIF(op)        NIF_CAT(NIF_NAME, op)

/* The eight twiddles w[0], w[ws], .., w[7·ws] as w·R'. */
__attribute__((target("avx512f,avx512ifma"))) static inline void
NIF(ntt_twiddles_)(FPVT *r, const FPVQT *w, ptrdiff_t ws)
{
    __m512i v[4];
    if (ws == 1) {
        FPV(load8)(v, w);
    } else {
        long long s = (long long)ws * 4; /* in limbs */
        const __m512i idx = _mm512_set_epi64(7 * s, 6 * s, 5 * s, 4 * s, 3 * s, 2 * s, s, 0);
        for (int k = 0; k < 4; k++)
            v[k] = _mm512_i64gather_epi64(_mm512_add_epi64(idx, _mm512_set1_epi64(k)), w, 8);
    }
    FPV(from_words)(r, v, FPV_SH);
}

__attribute__((target("avx512f,avx512ifma"))) static inline void NIF(ntt_load_)(FPVT *r,
                                                                                const FPVQT *p)
{
    __m512i v[4];
    FPV(load8)(v, p);
    FPV(from_words)(r, v, 0);
}

__attribute__((target("avx512f,avx512ifma"))) static inline void NIF(ntt_store_)(FPVQT *p,
                                                                                 const FPVT *a)
{
    __m512i v[4];
    FPV(to_words)(v, a);
    FPV(store8)(p, v);
}

/* p spread for FPV(sub) of values below p. */
__attribute__((target("avx512f,avx512ifma"))) static inline void NIF(ntt_p_)(FPV(kp_t) * kp)
{
    uint64_t c[FPV_N52];
    FPV(kp_init)(c, 1);
    FPV(kp_load)(kp, c);
}

/* A butterfly row's eight x, eight y and their twiddles. */
__attribute__((target("avx512f,avx512ifma"))) static inline void
NIF(ntt_load3_)(FPVT *u, FPVT *v, FPVT *tw, const FPVQT *x, const FPVQT *y, const FPVQT *w,
                ptrdiff_t ws)
{
    NIF(ntt_load_)(u, x);
    NIF(ntt_load_)(v, y);
    NIF(ntt_twiddles_)(tw, w, ws);
}

__attribute__((target("avx512f,avx512ifma"))) void
NIF(ntt_dif_rows_ifma)(FPVQT *x, FPVQT *y, size_t cnt, const FPVQT *w, ptrdiff_t ws, bool neg)
{
    FPV(kp_t) kp;
    NIF(ntt_p_)(&kp);
    for (size_t j = 0; j < cnt; j += 8, w += 8 * ws) {
        FPVT u, v, tw, s, t;
        NIF(ntt_load3_)(&u, &v, &tw, x + j, y + j, w, ws);
        FPV(add)(&s, &u, &v); /* x' = x + y */
        FPV(csub)(&s);
        if (neg) /* y' = (y - x)·w or (x - y)·w */
            FPV(sub)(&t, &v, &u, &kp);
        else
            FPV(sub)(&t, &u, &v, &kp);
        FPV(mul)(&t, &t, &tw);
        FPV(csub)(&t);
        NIF(ntt_store_)(x + j, &s);
        NIF(ntt_store_)(y + j, &t);
    }
}

__attribute__((target("avx512f,avx512ifma"))) void
NIF(ntt_dit_rows_ifma)(FPVQT *x, FPVQT *y, size_t cnt, const FPVQT *w, ptrdiff_t ws, bool neg)
{
    FPV(kp_t) kp;
    NIF(ntt_p_)(&kp);
    for (size_t j = 0; j < cnt; j += 8, w += 8 * ws) {
        FPVT u, v, tw, a, b;
        NIF(ntt_load3_)(&u, &v, &tw, x + j, y + j, w, ws);
        FPV(mul)(&v, &v, &tw); /* t = w·y */
        FPV(csub)(&v);
        FPV(add)(&a, &u, &v); /* x + t */
        FPV(csub)(&a);
        FPV(sub)(&b, &u, &v, &kp); /* x - t */
        FPV(csub)(&b);
        NIF(ntt_store_)(x + j, neg ? &b : &a);
        NIF(ntt_store_)(y + j, neg ? &a : &b);
    }
}

/*
 * The three narrowest stages (h = 4, 2, 1) of the m-element block blk, m a
 * multiple of 16, sixteen elements at a time: two vectors of eight, whose
 * pairs (j, j + h) are gathered into one vector of x and one of y by
 * two-source permutes, limb by limb, and put back after the butterfly.
 * The twiddles are tab[h + (j mod h)] (tab[1] = 1: no product at h = 1).
 */
typedef struct {
    __m512i gx, gy, px, py; /* gather x, gather y; put back the first, second vector */
} NIF(ntt_perm_t);

__attribute__((target("avx512f,avx512ifma"))) static inline void NIF(ntt_perms_)(NIF(ntt_perm_t)
                                                                                     p[3])
{
    /* h = 4, 2, 1 */
    p[0] = (NIF(ntt_perm_t)){
        _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4),
        _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4)};
    p[1] = (NIF(ntt_perm_t)){
        _mm512_set_epi64(13, 12, 9, 8, 5, 4, 1, 0), _mm512_set_epi64(15, 14, 11, 10, 7, 6, 3, 2),
        _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0), _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4)};
    p[2] = (NIF(ntt_perm_t)){
        _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0), _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1),
        _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0), _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4)};
}

/* The twiddles of stage h (4 or 2) in x's lane order, as w·R'. */
__attribute__((target("avx512f,avx512ifma"))) static inline void
NIF(ntt_small_tw_)(FPVT *tw, const FPVQT *tab, size_t h)
{
    long long a = 4 * (long long)h; /* limb index of tab[h] */
    __m512i idx = h == 4 ? _mm512_set_epi64(a + 12, a + 8, a + 4, a, a + 12, a + 8, a + 4, a)
                         : _mm512_set_epi64(a + 4, a, a + 4, a, a + 4, a, a + 4, a);
    __m512i v[4];
    for (int k = 0; k < 4; k++)
        v[k] = _mm512_i64gather_epi64(_mm512_add_epi64(idx, _mm512_set1_epi64(k)), tab, 8);
    FPV(from_words)(tw, v, FPV_SH);
}

__attribute__((target("avx512f,avx512ifma"))) static inline void
NIF(ntt_small_)(FPVQT *blk, size_t m, const FPVQT *tab, bool dit)
{
    FPV(kp_t) kp;
    NIF(ntt_p_)(&kp);
    NIF(ntt_perm_t) perm[3];
    NIF(ntt_perms_)(perm);
    FPVT tw[2];
    NIF(ntt_small_tw_)(&tw[0], tab, 4);
    NIF(ntt_small_tw_)(&tw[1], tab, 2);
    for (size_t o = 0; o < m; o += 16) {
        FPVT a, b;
        NIF(ntt_load_)(&a, blk + o);
        NIF(ntt_load_)(&b, blk + o + 8);
        for (int st = 0; st < 3; st++) {
            int s = dit ? 2 - st : st; /* dif: h = 4, 2, 1; dit: 1, 2, 4 */
            const NIF(ntt_perm_t) *p = &perm[s];
            FPVT x, y, u, v;
            for (int j = 0; j < FPV_N52; j++) {
                x.l[j] = _mm512_permutex2var_epi64(a.l[j], p->gx, b.l[j]);
                y.l[j] = _mm512_permutex2var_epi64(a.l[j], p->gy, b.l[j]);
            }
            if (dit) { /* t = w·y; x' = x + t, y' = x - t */
                if (s < 2) {
                    FPV(mul)(&y, &y, &tw[s]);
                    FPV(csub)(&y);
                }
                FPV(add)(&u, &x, &y);
                FPV(sub)(&v, &x, &y, &kp);
                FPV(csub)(&v);
            } else { /* x' = x + y, y' = (x - y)·w */
                FPV(add)(&u, &x, &y);
                FPV(sub)(&v, &x, &y, &kp);
                if (s < 2)
                    FPV(mul)(&v, &v, &tw[s]);
                FPV(csub)(&v);
            }
            FPV(csub)(&u);
            for (int j = 0; j < FPV_N52; j++) {
                a.l[j] = _mm512_permutex2var_epi64(u.l[j], p->px, v.l[j]);
                b.l[j] = _mm512_permutex2var_epi64(u.l[j], p->py, v.l[j]);
            }
        }
        NIF(ntt_store_)(blk + o, &a);
        NIF(ntt_store_)(blk + o + 8, &b);
    }
}

__attribute__((target("avx512f,avx512ifma"))) void NIF(ntt_dif_tail_ifma)(FPVQT *blk, size_t m,
                                                                          const FPVQT *tab)
{
    NIF(ntt_small_)(blk, m, tab, false);
}

__attribute__((target("avx512f,avx512ifma"))) void NIF(ntt_dit_head_ifma)(FPVQT *blk, size_t m,
                                                                          const FPVQT *tab)
{
    NIF(ntt_small_)(blk, m, tab, true);
}

/*
 * The coset scaling, with the rows' trick: g·low[l] is a product of two
 * shifted values, y·R' below (16^2/35.3 + 1)·p = 8.3p, and x·R (below p)
 * times it is x·y·R, below (8.3/35.3 + 1)·p < 2p.
 */
__attribute__((target("avx512f,avx512ifma"))) void NIF(ntt_scale_ifma)(FPVQT *a, const FPVQT *low,
                                                                       const FPVQT *g, size_t L)
{
    __m512i v[4];
    for (int k = 0; k < 4; k++)
        v[k] = _mm512_set1_epi64((long long)g->l[k]);
    FPVT gs;
    FPV(from_words)(&gs, v, FPV_SH);
    for (size_t l = 0; l < L; l += 8) {
        FPVT x, t;
        FPV(load8)(v, low + l);
        FPV(from_words)(&t, v, FPV_SH);
        FPV(mul)(&t, &t, &gs);
        NIF(ntt_load_)(&x, a + l);
        FPV(mul)(&x, &x, &t);
        FPV(csub)(&x);
        NIF(ntt_store_)(a + l, &x);
    }
}

#undef NIF_CAT2
#undef NIF_CAT
#undef NIF
#undef NIF_NAME
