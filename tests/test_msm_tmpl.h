/*
 * The MSM tests, written once and instantiated per group by test_msm.c (no
 * include guard). The includer defines
 *   TM_G   the group (bls381_g1): the code under test is TM_G_msm_*
 *   TM_R   its scalar field (bls381_fr)
 * and provides pools[] / NPOOLS (NULL first), test_rng and the TM_* kinds of
 * scalar vectors. Every test
 * function is named test_<group>_<name>.
 */
#define TM_CAT2(a, b) a##_##b
#define TM_CAT(a, b)  TM_CAT2(a, b)
#define TMG(op)       TM_CAT(TM_G, op)
#define TMA           TMG(affine_t)
#define TMJ           TMG(jac_t)
#define TMR(op)       TM_CAT(TM_R, op)
#define TMRT          TMR(t)
#define TMN(name)     TM_CAT(TM_CAT(test, TM_G), name)

/* ---- helpers -------------------------------------------------------------- */

/* n points of the subgroup: a random [k]G, then a walk adding random steps
 * from a table of 4 random points (all distinct with overwhelming odds),
 * converted with one inversion. Cheap enough for n = 2^10 in a test. */
static TMA *TMN(bases_new)(size_t n)
{
    TMA *b = malloc((n ? n : 1) * sizeof(TMA));
    TMJ *j = malloc((n ? n : 1) * sizeof(TMJ));
    assert_non_null(b);
    assert_non_null(j);
    TMA g;
    TMJ step[4], acc;
    TMG(generator)(&g);
    for (int s = 0; s < 4; s++) {
        uint64_t k[4];
        for (int l = 0; l < 4; l++)
            k[l] = rng_next(&test_rng);
        TMG(jac_from_affine)(&step[s], &g);
        TMG(jac_mul_vartime)(&step[s], &step[s], k);
    }
    acc = step[0];
    for (size_t i = 0; i < n; i++) {
        TMG(jac_add_vartime)(&acc, &acc, &step[rng_next(&test_rng) & 3]);
        j[i] = acc;
    }
    TMG(jacs_to_affine_vartime)(b, j, n);
    free(j);
    return b;
}

/* A scalar of class `kind`: TM_SPECIAL draws from 0, 1, 2, r - 1, r - 2
 * and random; TM_POREP is 45 % zero, 45 % one, 10 % random. */
static void TMN(scalar)(TMRT *k, int kind)
{
    unsigned roll = (unsigned)(rng_next(&test_rng) % 100);
    switch (kind) {
    case TM_ZEROS: TMR(set_zero)(k); return;
    case TM_ONES: TMR(set_one)(k); return;
    case TM_POREP:
        if (roll < 45)
            TMR(set_zero)(k);
        else if (roll < 90)
            TMR(set_one)(k);
        else
            assert_int_equal(TMR(random)(k, &test_rng), CUZK_OK);
        return;
    case TM_SPECIAL:
        if (roll < 60) {
            uint64_t small = roll % 3; /* 0, 1, 2 */
            TMR(from_u64)(k, small);
            if (roll % 2) /* r - small */
                TMR(neg)(k, k);
            return;
        }
        break;
    default: break;
    }
    assert_int_equal(TMR(random)(k, &test_rng), CUZK_OK);
}

static TMRT *TMN(scalars_new)(size_t n, int kind)
{
    TMRT *s = malloc((n ? n : 1) * sizeof(TMRT));
    assert_non_null(s);
    for (size_t i = 0; i < n; i++)
        TMN(scalar)(&s[i], kind);
    return s;
}

/* The definition: Σ k_i·P_i by one scalar multiplication per point. */
static void TMN(naive)(TMJ *r, const TMA *bases, const TMRT *scalars, size_t n)
{
    TMG(jac_set_infinity)(r);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4];
        TMJ t;
        TMR(to_canonical)(k, &scalars[i]);
        TMG(jac_from_affine)(&t, &bases[i]);
        TMG(jac_mul_vartime)(&t, &t, k);
        TMG(jac_add_vartime)(r, r, &t);
    }
}

/* The MSM's result is normalised: Z = 1 with the affine coordinates, or
 * the Jacobian infinity. */
static void TMN(assert_normalised)(const TMJ *r)
{
    if (TMG(jac_is_infinity)(r))
        return;
    TMJ one;
    TMA a;
    TMG(jac_to_affine)(&a, r);
    TMG(jac_from_affine)(&one, &a);
    assert_memory_equal(r, &one, sizeof(TMJ));
}

/*
 * The MSM of (bases, scalars) equals the naive sum, and gives the same bytes
 * on every pool (the model's window), and on 3 threads for each forced
 * window in `windows` (nw of them), alternately with the scalar-one points
 * through Pippenger, and every other run with the scalars converted by each
 * window instead of once (convert_per_window).
 */
static void TMN(check)(const TMA *bases, const TMRT *scalars, size_t n, const unsigned *windows,
                       size_t nw)
{
    TMJ ref, first, r;
    TMN(naive)(&ref, bases, scalars, n);
    assert_int_equal(TMG(msm_vartime)(&first, bases, scalars, n, NULL), CUZK_OK);
    if (!TMG(jac_equal)(&first, &ref))
        fail_msg("msm != naive sum for n = %zu", n);
    TMN(assert_normalised)(&first);
    for (size_t run = 1; run < NPOOLS + nw; run++) {
        int p = run < NPOOLS ? (int)run : NPOOLS - 1;
        unsigned window = run < NPOOLS ? 0 : windows[run - NPOOLS];
        bool ones = run >= NPOOLS && (run - NPOOLS) % 2 == 1;
        msm_opts_t o = {window, ones, run % 2 == 0, (msm_glv_mode_t)(run % 3)};
        msm_stats_t st;
        assert_int_equal(TMG(msm_tuned_vartime)(&r, bases, scalars, n, &o, &st, pools[p]), CUZK_OK);
        if (memcmp(&r, &first, sizeof(r)) != 0)
            fail_msg("n = %zu, pool %d, window %u, ones_in_pippenger %d, per window %d, glv %d: "
                     "result differs",
                     n, p, window, ones, o.convert_per_window, (int)o.glv);
        assert_int_equal(st.counts.zero + st.counts.one + st.counts.other, n);
        size_t n_pip = st.counts.other + (ones ? st.counts.one : 0);
        if (window && n_pip > 0)
            assert_int_equal(st.plan.window, window);
        assert_true(st.bucket_adds <= (uint64_t)st.plan.windows * n_pip * (st.glv ? 2 : 1));
        if (o.glv == CUZK_MSM_GLV_NEVER || o.convert_per_window)
            assert_false(st.glv);
#ifdef TM_GLV
        else if (o.glv == CUZK_MSM_GLV_ALWAYS && n_pip > 0)
            assert_true(st.glv);
#else
        assert_false(st.glv);
#endif
        assert_int_equal(st.ones_adds, ones ? 0 : st.counts.one);
    }
}

/* ---- tests -------------------------------------------------------------- */

/* n = 0, 1, 2, 3 and small non-powers of two, every kind of scalar, windows
 * from 1 bit to more than the 2^(c-1) buckets the points can fill. */
static void TMN(small)(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 3, 5, 7, 17, 33};
    static const unsigned windows[] = {1, 2, 5, 9};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        for (int kind = TM_RANDOM; kind <= TM_POREP; kind++) {
            size_t n = sizes[s];
            TMA *b = TMN(bases_new)(n);
            TMRT *k = TMN(scalars_new)(n, kind);
            TMN(check)(b, k, n, windows, sizeof(windows) / sizeof(windows[0]));
            free(b);
            free(k);
        }
    }
}

/*
 * Bases that make the bucket additions hit their special cases: infinity,
 * P + P (doubling), P + (-P) (cancellation), in one bucket when the
 * scalars are equal or opposite, and with small windows in many buckets.
 */
static void TMN(special_bases)(void **state)
{
    (void)state;
    enum { N = 24 };
    static const unsigned windows[] = {2, 5};
    TMA *b = TMN(bases_new)(N);
    TMRT k[N], s;
    assert_int_equal(TMR(random)(&s, &test_rng), CUZK_OK);
    /* P, P, -P, P, infinity, then the same pattern on a second point with
     * scalars s, s, s, -s, s; the rest random bases and special scalars. */
    for (int g = 0; g < 2; g++) {
        TMA p = b[10 * g];
        b[10 * g + 1] = p;
        TMG(affine_neg)(&b[10 * g + 2], &p);
        b[10 * g + 3] = p;
        TMG(affine_set_infinity)(&b[10 * g + 4]);
        for (int i = 0; i < 5; i++)
            k[10 * g + i] = s;
        TMR(neg)(&k[10 * g + 3], &s);
        if (g == 1) /* the second group with scalar one: the ones' sum */
            for (int i = 0; i < 5; i++)
                TMR(set_one)(&k[10 * g + i]);
    }
    for (int i = 0; i < N; i++)
        if (i % 10 >= 5)
            TMN(scalar)(&k[i], TM_SPECIAL);
    TMN(check)(b, k, N, windows, sizeof(windows) / sizeof(windows[0]));
    /* Only P and -P: the sum is infinity. */
    TMA pm[2] = {b[0], b[2]};
    TMRT kk[2] = {s, s};
    TMN(check)(pm, kk, 2, windows, sizeof(windows) / sizeof(windows[0]));
    /* Every base at infinity. */
    for (int i = 0; i < N; i++)
        TMG(affine_set_infinity)(&b[i]);
    TMN(check)(b, k, N, windows, sizeof(windows) / sizeof(windows[0]));
    free(b);
}

/* n up to 2^10: 300 uniform scalars, 1024 porep-like ones. */
static void TMN(large)(void **state)
{
    (void)state;
    static const unsigned windows[] = {3, 11};
    static const size_t sizes[] = {300, 1024};
    for (size_t s = 0; s < 2; s++) {
        size_t n = sizes[s];
        int kind = s == 0 ? TM_RANDOM : TM_POREP;
        TMA *b = TMN(bases_new)(n);
        TMRT *k = TMN(scalars_new)(n, kind);
        TMN(check)(b, k, n, windows, sizeof(windows) / sizeof(windows[0]));
        free(b);
        free(k);
    }
}

/* Canonical scalars: the Montgomery ones converted give the same bytes, and
 * values >= r (k + r, 2^256 - 1) are taken as the integers they are. */
static void TMN(canonical)(void **state)
{
    (void)state;
    enum { N = 37 };
    TMA *b = TMN(bases_new)(N);
    TMRT *k = TMN(scalars_new)(N, TM_SPECIAL);
    uint64_t c[N][4];
    for (int i = 0; i < N; i++)
        TMR(to_canonical)(c[i], &k[i]);
    TMJ r1, r2, ref, t;
    assert_int_equal(TMG(msm_vartime)(&r1, b, k, N, pools[2]), CUZK_OK);
    assert_int_equal(TMG(msm_canonical_vartime)(&r2, b, (const uint64_t(*)[4])c, N, pools[3]),
                     CUZK_OK);
    assert_memory_equal(&r1, &r2, sizeof(r1));
    /* Unreduced values: c[0] += r (no overflow: r < 2^255), c[1] = 2^256 - 1. */
    uint64_t carry = 0;
    for (int l = 0; l < 4; l++) {
        unsigned __int128 sum = (unsigned __int128)c[0][l] + TMR(MODULUS)[l] + carry;
        c[0][l] = (uint64_t)sum;
        carry = (uint64_t)(sum >> 64);
    }
    for (int l = 0; l < 4; l++)
        c[1][l] = ~(uint64_t)0;
    TMG(jac_set_infinity)(&ref);
    for (int i = 0; i < N; i++) {
        TMG(jac_from_affine)(&t, &b[i]);
        TMG(jac_mul_vartime)(&t, &t, c[i]);
        TMG(jac_add_vartime)(&ref, &ref, &t);
    }
    assert_int_equal(TMG(msm_canonical_vartime)(&r2, b, (const uint64_t(*)[4])c, N, pools[1]),
                     CUZK_OK);
    assert_true(TMG(jac_equal)(&r2, &ref));
    assert_int_equal(TMG(msm_canonical_vartime)(&r2, NULL, NULL, 0, NULL), CUZK_OK);
    assert_true(TMG(jac_is_infinity)(&r2));
    free(b);
    free(k);
}

/* The classification: each byte and the totals, on every pool. */
static void TMN(classify)(void **state)
{
    (void)state;
    enum { N = 1001 };
    TMRT *k = TMN(scalars_new)(N, TM_POREP);
    assert_int_equal(TMR(random)(&k[0], &test_rng), CUZK_OK); /* at least one "other" */
    uint8_t cls[N];
    size_t want[3] = {0, 0, 0};
    for (int i = 0; i < N; i++)
        want[TMR(is_zero)(&k[i])  ? CUZK_MSM_ZERO
             : TMR(is_one)(&k[i]) ? CUZK_MSM_ONE
                                  : CUZK_MSM_OTHER]++;
    for (int p = 0; p < NPOOLS; p++) {
        msm_counts_t c;
        memset(cls, 0xff, sizeof(cls));
        assert_int_equal(TMG(msm_classify)(cls, &c, k, N, pools[p]), CUZK_OK);
        assert_int_equal(c.zero, want[CUZK_MSM_ZERO]);
        assert_int_equal(c.one, want[CUZK_MSM_ONE]);
        assert_int_equal(c.other, want[CUZK_MSM_OTHER]);
        assert_true(c.bits >= 2 && c.bits <= 256);
        for (int i = 0; i < N; i++) {
            unsigned w = TMR(is_zero)(&k[i])  ? CUZK_MSM_ZERO
                         : TMR(is_one)(&k[i]) ? CUZK_MSM_ONE
                                              : CUZK_MSM_OTHER;
            assert_int_equal(cls[i], w);
        }
        assert_int_equal(TMG(msm_classify)(NULL, &c, k, N, pools[p]), CUZK_OK);
        assert_int_equal(c.other, want[CUZK_MSM_OTHER]);
    }
    free(k);
}

#undef TM_G
#undef TM_GLV
#undef TM_R
#undef TM_CAT2
#undef TM_CAT
#undef TMG
#undef TMA
#undef TMJ
#undef TMR
#undef TMRT
#undef TMN
