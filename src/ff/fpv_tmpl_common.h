/*
 * What the two vector templates (fpv_tmpl.h, IFMA, radix 2^52; fpy_tmpl.h,
 * AVX2, radix 2^29) share: the scalar helpers that set up their constants
 * and lanes. Included by each template after it has defined FPV(...),
 * FPV_N64, FPV_NL (its limbs), FPV_LB (its limb bits), FPV_SH and the
 * array FPV(PL) (p in its limbs).
 */

/* v (N64 limbs of 64 bits, below R') as NL limbs of LB bits. */
static inline void FPV(limbs)(uint64_t c[FPV_NL], const uint64_t v[FPV_N64])
{
    for (int i = 0; i < FPV_NL; i++) {
        uint64_t w = 0;
        for (int j = 0; j < FPV_N64; j++) {
            int off = 64 * j - FPV_LB * i; /* where word j starts in limb i */
            if (off >= FPV_LB || off <= -64)
                continue;
            w |= off >= 0 ? v[j] << off : v[j] >> -off;
        }
        c[i] = w & ((1ULL << FPV_LB) - 1);
    }
}

/* q = k·p in normalised limbs; k < 2^40 and k·p < R'. */
static inline void FPV(kp)(uint64_t q[FPV_NL], uint64_t k)
{
    unsigned __int128 c = 0;
    for (int j = 0; j < FPV_NL; j++) {
        c += (unsigned __int128)k * FPV(PL)[j];
        q[j] = (uint64_t)c & ((1ULL << FPV_LB) - 1);
        c >>= FPV_LB;
    }
}

/* kp = k·p in limbs that each exceed 2^LB (but the top one), so that a
 * limb of a normalised value can be subtracted from each without a
 * borrow: a - b becomes a + K_p - b limb by limb. k < 2^40, k·p < R'. */
static inline void FPV(kp_init)(uint64_t kp[FPV_NL], uint64_t k)
{
    FPV(kp)(kp, k);
    for (int j = 0; j < FPV_NL - 1; j++) {
        kp[j] += 1ULL << FPV_LB;
        kp[j + 1] -= 1;
    }
}

/* R' mod p in limbs: a vector product by it keeps the value x·R' (mod p)
 * of a loaded element and brings it below v·p/R' + p. R' = R·2^SH: the
 * scalar one doubled SH times. */
static inline void FPV(r_prime)(uint64_t c[FPV_NL])
{
    FPVQT v;
    FPVQ(set_one)(&v);
    for (int s = 0; s < FPV_SH; s++)
        FPVQ(dbl)(&v, &v);
    FPV(limbs)(c, v.l);
}

/* The lanes of the first `left` of eight elements: all when left >= 8. */
static inline FPV(mask_t) FPV(lanes)(size_t left)
{
    return left >= 8 ? 0xff : (FPV(mask_t))((1u << left) - 1);
}
