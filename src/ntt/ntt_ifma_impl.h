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

#undef NIF_CAT2
#undef NIF_CAT
#undef NIF
#undef NIF_NAME
