/*
 * The per-group cases of test_msm_vec.c for one kernel; the includer
 * defines TI_GROUP, TI_FQ (its coordinate field), TI_FQS, TI_FR, TI_FPB
 * (the base field), TI_FP2 (1 for G2) and TI_ISA (ifma or avx2: the
 * kernel NAME_msm_batch_ISA, and the flag cpu_has_ISA that the MSM reads),
 * which this header removes again.
 */
#define TI_CAT2(a, b)        a##_##b
#define TI_CAT(a, b)         TI_CAT2(a, b)
#define TG(op)               TI_CAT(TI_GROUP, op)
#define TI_CAT3_(a, b, c)    a##_##b##_##c
#define TI_CAT3(a, b, c)     TI_CAT3_(a, b, c)
#define TI_CAT4_(a, b, c, d) a##_##b##_##c##_##d
#define TI_CAT4(a, b, c, d)  TI_CAT4_(a, b, c, d)
#define TV(op)               TI_CAT3(TI_GROUP, op, TI_ISA) /* this kernel's test functions */
#define TI_KERNEL            TV(msm_batch)
#define TI_SCRATCH           TI_CAT4(TI_GROUP, msm_batch, TI_ISA, scratch)
#define TI_FLAG              TI_CAT(cpu_has, TI_ISA)
#define TQ(op)               TI_CAT(TI_FQ, op)
#define TQT                  TQ(t)
#define TA                   TG(affine_t)
#define TJ                   TG(jac_t)
#define TFR(op)              TI_CAT(TI_FR, op)
#define TI_FP(op)            TI_CAT(TI_FPB, op)

/* An element for the field-level case: random, or one of the edge limbs
 * 0, 1 and p - 1 (as raw Montgomery limbs: any fully reduced value); for
 * Fp2 each coefficient so. */
static void TV(ti_fp_)(TI_FP(t) * r, bool nonzero)
{
    uint64_t pick = rng_next(&test_rng) % 8;
    if (pick == 0 && !nonzero) {
        TI_FP(set_zero)(r);
    } else if (pick == 1) {
        TI_FP(set_zero)(r);
        r->l[0] = 1;
    } else if (pick == 2) {
        memcpy(r->l, TI_FP(MODULUS), sizeof r->l);
        r->l[0] -= 1;
    } else {
        assert_int_equal(TI_FP(random)(r, &test_rng), CUZK_OK);
        if (nonzero && TI_FP(is_zero)(r))
            r->l[0] = 1;
    }
}

static void TV(ti_elem_)(TQT *r, bool nonzero)
{
#if TI_FP2
    TV(ti_fp_)(&r->c0, false);
    TV(ti_fp_)(&r->c1, nonzero && rng_next(&test_rng) % 2);
    if (nonzero && TQ(is_zero)(r))
        r->c0.l[0] = 1;
#else
    TV(ti_fp_)(r, nonzero);
#endif
}

static void TV(ti_field)(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 7, 8, 9, 31, 32, 33, 63, 70, 1024};
    size_t kmax = 1024;
    TQT *num = malloc(kmax * sizeof *num), *den = malloc(kmax * sizeof *den);
    TQT *xq = malloc(kmax * sizeof *xq);
    TA *b = malloc(kmax * sizeof *b), *want = malloc(kmax * sizeof *want);
    TA **bp = malloc(kmax * sizeof *bp);
    const TQT **xp = malloc(kmax * sizeof *xp);
    void *scr = aligned_alloc(64, (TI_SCRATCH(kmax) + 63) / 64 * 64);
    if (!num || !den || !xq || !b || !want || !bp || !xp || !scr)
        abort(); /* out of memory */
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (int it = 0; it < test_iters(4); it++) {
            size_t k = sizes[s];
            for (size_t e = 0; e < k; e++) {
                TV(ti_elem_)(&num[e], false);
                TV(ti_elem_)(&den[e], true);
                TV(ti_elem_)(&b[e].x, false);
                TV(ti_elem_)(&b[e].y, false);
                TV(ti_elem_)(&xq[e], false);
                TQT l, t;
                TQ(inv_vartime)(&l, &den[e]);
                TQ(mul)(&l, &l, &num[e]);
                TQ(sqr)(&want[e].x, &l);
                TQ(sub)(&want[e].x, &want[e].x, &b[e].x);
                TQ(sub)(&want[e].x, &want[e].x, &xq[e]);
                TQ(sub)(&t, &b[e].x, &want[e].x);
                TQ(mul)(&t, &t, &l);
                TQ(sub)(&want[e].y, &t, &b[e].y);
                bp[e] = &b[e];
                xp[e] = &xq[e];
            }
            TI_KERNEL(bp, xp, num, den, k, scr);
            for (size_t e = 0; e < k; e++) {
                if (memcmp(&b[e], &want[e], sizeof b[e]) != 0)
                    fail_msg("k = %zu, entry %zu differs", k, e);
            }
        }
    }
    free(num);
    free(den);
    free(xq);
    free(b);
    free(want);
    free(bp);
    free(xp);
    free(scr);
}

/* Buckets and points as the MSM prepares them, through the bucket array
 * in a shuffled order (the kernel reads and writes by address). */
static void TV(ti_points)(void **state)
{
    (void)state;
    enum { K = 77 };
    TA g, b[K], q[K], want[K];
    TQT num[K], den[K];
    TA *bp[K];
    const TQT *xp[K];
    TG(generator)(&g);
    TJ gj;
    TG(jac_from_affine)(&gj, &g);
    for (size_t e = 0; e < K; e++) {
        uint64_t k1[EC_SCALAR_LIMBS] = {rng_next(&test_rng) | 1, rng_next(&test_rng)};
        uint64_t k2[EC_SCALAR_LIMBS] = {rng_next(&test_rng) | 1, rng_next(&test_rng)};
        TJ p1, p2, s;
        TG(jac_mul_vartime)(&p1, &gj, k1);
        TG(jac_to_affine)(&b[e], &p1);
        bool dbl = e % 5 == 3;
        if (dbl) {
            q[e] = b[e];
            TG(jac_add)(&s, &p1, &p1);
            TQT t; /* λ = 3x^2 / 2y */
            TQ(sqr)(&t, &b[e].x);
            TQ(dbl)(&num[e], &t);
            TQ(add)(&num[e], &num[e], &t);
            TQ(dbl)(&den[e], &b[e].y);
        } else {
            TG(jac_mul_vartime)(&p2, &gj, k2);
            TG(jac_to_affine)(&q[e], &p2);
            TG(jac_add)(&s, &p1, &p2);
            TQ(sub)(&num[e], &q[e].y, &b[e].y);
            TQ(sub)(&den[e], &q[e].x, &b[e].x);
        }
        TG(jac_to_affine)(&want[e], &s);
    }
    for (size_t e = 0; e < K; e++) { /* entry e adds into bucket (e·13) mod K */
        size_t j = e * 13 % K;
        bp[e] = &b[j];
        xp[e] = &q[j].x;
    }
    /* num/den in entry order */
    TQT n2[K], d2[K];
    for (size_t e = 0; e < K; e++) {
        n2[e] = num[e * 13 % K];
        d2[e] = den[e * 13 % K];
    }
    void *scr = aligned_alloc(64, (TI_SCRATCH(K) + 63) / 64 * 64);
    assert_non_null(scr);
    TI_KERNEL(bp, xp, n2, d2, K, scr);
    free(scr);
    for (size_t e = 0; e < K; e++) {
        if (memcmp(&b[e], &want[e], sizeof b[e]) != 0)
            fail_msg("bucket %zu differs", e);
        assert_true(TG(affine_is_on_curve)(&b[e]));
    }
}

/* The MSM with the kernel and without it (the scalar additions): the same
 * bytes, for uniform scalars (even entries of sizes) and porep-like ones
 * (odd), one and two threads, windows that batch; sizes 0, 1, 1500, 20000
 * and two random ones (not powers of two), the uniform ones small enough
 * for the sanitizer build to take seconds. */
static void TV(ti_msm)(void **state)
{
    (void)state;
    size_t sizes[] = {
        0, 1, 1500, 20000, 2 + rng_next(&test_rng) % 2000, 4003 + 2 * (rng_next(&test_rng) % 4000)};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        TA *bases = malloc((n + 1) * sizeof *bases);
        TFR(t) *sc = malloc((n + 1) * sizeof *sc);
        TJ *pj = malloc((n + 1) * sizeof *pj);
        assert_non_null(bases && sc && pj);
        TA g;
        TG(generator)(&g);
        TJ acc, gj;
        TG(jac_from_affine)(&gj, &g);
        uint64_t k0[EC_SCALAR_LIMBS] = {rng_next(&test_rng) | 1};
        TG(jac_mul_vartime)(&acc, &gj, k0);
        for (size_t i = 0; i < n; i++) { /* consecutive multiples, a few repeated */
            pj[i] = acc;
            if (i % 97 != 0)
                TG(jac_add)(&acc, &acc, &gj);
        }
        TG(jacs_to_affine_vartime)(bases, pj, n);
        free(pj);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(TFR(random)(&sc[i], &test_rng), CUZK_OK);
            if (s % 2 == 1 && i % 10 != 0) /* porep-like: mostly 0 and 1 */
                i % 3 ? TFR(set_zero)(&sc[i]) : TFR(set_one)(&sc[i]);
        }
        for (int pl = 0; pl < 2; pl++) {
            pool_t *pool = pl ? pool2 : NULL;
            TJ with, without;
            TA wa, wo;
            bool ifma = cpu_has_ifma, avx2 = cpu_has_avx2;
            msm_opts_t opts = {.window = 12}; /* batch-affine windows */
            cpu_has_ifma = cpu_has_avx2 = false;
            TI_FLAG = true; /* this kernel alone */
            assert_int_equal(TG(msm_tuned_vartime)(&with, bases, sc, n, &opts, NULL, pool),
                             CUZK_OK);
            cpu_has_ifma = cpu_has_avx2 = false;
            assert_int_equal(TG(msm_tuned_vartime)(&without, bases, sc, n, &opts, NULL, pool),
                             CUZK_OK);
            cpu_has_ifma = ifma;
            cpu_has_avx2 = avx2;
            TG(jac_to_affine)(&wa, &with);
            TG(jac_to_affine)(&wo, &without);
            if (memcmp(&wa, &wo, sizeof wa) != 0)
                fail_msg("n = %zu, pool %d: the MSM differs with the %s kernel", n, pl,
                         TI_STR(TI_ISA));
        }
        free(bases);
        free(sc);
    }
}

#undef TI_CAT2
#undef TI_CAT
#undef TG
#undef TV
#undef TI_CAT3_
#undef TI_CAT3
#undef TI_CAT4_
#undef TI_CAT4
#undef TI_KERNEL
#undef TI_SCRATCH
#undef TI_FLAG
#undef TI_ISA
#undef TQ
#undef TQT
#undef TA
#undef TJ
#undef TFR
#undef TI_FP
#undef TI_FPB
#undef TI_FP2
#undef TI_GROUP
#undef TI_FQ
#undef TI_FQS
#undef TI_FR
