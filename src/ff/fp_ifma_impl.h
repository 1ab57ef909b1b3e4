/*
 * The body of NAMEs_mul_ifma (contract in fp_ifma.h), compiled once per
 * field by fp_ifma.c after an instantiation of fpv_tmpl.h.
 *
 * a[i] loads as it is stored, x·R below p; b[i] loads shifted, y·R' below
 * 2^SH·p; their vector product is x·y·R·R'/R' = x·y·R, below
 * (2^SH·p/R' + 1)·p: 1.19p (BN254 Fp, Fr), 1.1p (BLS12-381 Fp), 1.45p
 * (BLS12-381 Fr). One conditional subtraction, and the bytes are the
 * scalar product's.
 */
#define FIF_CAT2(a, b) a##_##b
#define FIF_CAT(a, b)  FIF_CAT2(a, b)
#define FIF_S2(a)      a##s
#define FIF_S(a)       FIF_S2(a)
#define FIF(op)        FIF_CAT(FIF_S(FPV_FQ), op) /* NAMEs_op */

/* Limb k of the eight elements p[0..8) in w[k]. */
__attribute__((target("avx512f,avx512ifma"))) static inline void FIF(words_)(__m512i w[FPV_N64],
                                                                             const FPVQT *p)
{
#if FPV_N64 == 4
    FPV(load8)(w, p);
#else /* through memory: cheaper than gathers here */
    uint64_t t[FPV_N64][8];
    for (int e = 0; e < 8; e++)
        for (int k = 0; k < FPV_N64; k++)
            t[k][e] = p[e].l[k];
    for (int k = 0; k < FPV_N64; k++)
        w[k] = _mm512_loadu_si512(t[k]);
#endif
}

/* The inverse of FIF(words_). */
__attribute__((target("avx512f,avx512ifma"))) static inline void
FIF(store_)(FPVQT *p, const __m512i w[FPV_N64])
{
#if FPV_N64 == 4
    FPV(store8)(p, w);
#else /* through memory: scatters are slow */
    uint64_t t[FPV_N64][8];
    for (int k = 0; k < FPV_N64; k++)
        _mm512_storeu_si512(t[k], w[k]);
    for (int e = 0; e < 8; e++)
        for (int k = 0; k < FPV_N64; k++)
            p[e].l[k] = t[k][e];
#endif
}

__attribute__((target("avx512f,avx512ifma"))) void FIF(mul_ifma)(FPVQT *r, const FPVQT *a,
                                                                 const FPVQT *b, size_t n)
{
    for (size_t i = 0; i < n; i += 16) { /* two independent products in flight */
        int cnt = n - i >= 16 ? 2 : 1;
        __m512i w[FPV_N64];
        FPVT x[2], y[2];
        for (int j = 0; j < cnt; j++) {
            FIF(words_)(w, a + i + 8 * j);
            FPV(from_words)(&x[j], w, 0);
            FIF(words_)(w, b + i + 8 * j);
            FPV(from_words)(&y[j], w, FPV_SH);
        }
        for (int j = 0; j < cnt; j++)
            FPV(mul)(&x[j], &x[j], &y[j]);
        for (int j = 0; j < cnt; j++) {
            FPV(csub)(&x[j]);
            FPV(to_words)(w, &x[j]);
            FIF(store_)(r + i + 8 * j, w);
        }
    }
}

#undef FIF_CAT2
#undef FIF_CAT
#undef FIF_S2
#undef FIF_S
#undef FIF
