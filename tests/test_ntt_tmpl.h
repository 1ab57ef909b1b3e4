/*
 * The NTT tests, written once and instantiated per curve by test_ntt.c (no
 * include guard). The includer defines:
 *   TN_CURVE   the curve prefix (bls381): the code under test is TN_CURVE_ntt_*
 *   TN_FIELD   its scalar field prefix (bls381_fr)
 *   TN_W16, TN_W17  FORMATS.md §1: snarkjs' w[16], w[17] (hex, big-endian)
 * and provides hex_to_bytes32(), pools[] / NPOOLS (NULL first) and test_rng.
 * Every test function is named test_<curve>_<name>.
 */
#define TN_CAT2(a, b) a##_##b
#define TN_CAT(a, b)  TN_CAT2(a, b)
#define TNF(op)       TN_CAT(TN_FIELD, op)
#define TNN(op)       TN_CAT(TN_CAT(TN_CURVE, ntt), op)
#define TNT           TNF(t)
#define TND           TNN(domain_t)
#define TN(name)      TN_CAT(TN_CAT(test, TN_CURVE), name)

/* ---- helpers -------------------------------------------------------------- */

static TNT *TN(vec_new)(size_t n)
{
    TNT *v = malloc(n * sizeof(TNT));
    assert_non_null(v);
    return v;
}

static void TN(vec_random)(TNT *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal(TNF(random)(&v[i], &test_rng), CUZK_OK);
}

static TNT *TN(vec_dup)(const TNT *v, size_t n)
{
    TNT *r = TN(vec_new)(n);
    memcpy(r, v, n * sizeof(TNT));
    return r;
}

static void TN(assert_vec_equal)(const TNT *x, const TNT *y, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (!TNF(equal)(&x[i], &y[i]))
            fail_msg("%s: vectors differ at index %zu of %zu", what, i, n);
}

static TNT TN(u64)(uint64_t v)
{
    TNT r;
    TNF(from_u64)(&r, v);
    return r;
}

static TNT TN(pow_u64)(const TNT *x, uint64_t e)
{
    TNT r;
    TNF(pow)(&r, x, &e, 1);
    return r;
}

/* The polynomial with coefficients c[0..n) at x (Horner). */
static TNT TN(poly_eval)(const TNT *c, size_t n, const TNT *x)
{
    TNT acc;
    TNF(set_zero)(&acc);
    for (size_t i = n; i-- > 0;) {
        TNF(mul)(&acc, &acc, x);
        TNF(add)(&acc, &acc, &c[i]);
    }
    return acc;
}

/* out[j] = Σ_i c[i]·(s·w^j)^i for j < n: the O(n²) reference. */
static void TN(naive_eval)(TNT *out, const TNT *c, size_t n, const TNT *w, const TNT *s)
{
    TNT x = *s;
    for (size_t j = 0; j < n; j++) {
        out[j] = TN(poly_eval)(c, n, &x);
        TNF(mul)(&x, &x, w);
    }
}

static void TN(bitrev_copy)(TNT *out, const TNT *in, unsigned log2n)
{
    for (size_t i = 0; i < (size_t)1 << log2n; i++)
        out[reverse_bits(i, log2n)] = in[i];
}

static TND *TN(domain)(unsigned log2n, uint64_t g)
{
    cuzk_status_t st = CUZK_EINVAL;
    TND *d = TNN(domain_new)(log2n, g, &st);
    assert_int_equal(st, CUZK_OK);
    assert_non_null(d);
    return d;
}

static TNT TN(from_hex)(const char *hex)
{
    unsigned char b[32];
    hex_to_bytes32(b, hex);
    TNT r;
    assert_int_equal(TNF(from_bytes_be)(&r, b, 32), CUZK_OK);
    return r;
}

static const uint64_t TN(gens)[] = {5, 7};

/* ---- roots of unity and the domain ---------------------------------------- */

static void TN(roots)(void **state)
{
    (void)state;
    unsigned s = TNF(two_adicity)();
    TNT one = TN(u64)(1), minus_one;
    TNF(neg)(&minus_one, &one);
    for (size_t gi = 0; gi < 2; gi++) {
        TNT prev;
        for (unsigned k = s + 1; k-- > 0;) {
            /* w[k] has order exactly 2^k: w^(2^(k-1)) = -1, and w[k] = w[k+1]². */
            TNT w, x;
            TNF(root_of_unity)(&w, k, TN(gens)[gi]);
            x = w;
            for (unsigned i = 0; i + 1 < k; i++)
                TNF(sqr)(&x, &x);
            assert_true(TNF(equal)(&x, k ? &minus_one : &one));
            if (k < s) {
                TNF(sqr)(&x, &prev);
                assert_true(TNF(equal)(&x, &w));
            }
            prev = w;
        }
    }
    TNT w16, w17;
    TNF(root_of_unity)(&w16, 16, 5);
    TNF(root_of_unity)(&w17, 17, 5);
    TNT c16 = TN(from_hex)(TN_W16), c17 = TN(from_hex)(TN_W17);
    assert_true(TNF(equal)(&w16, &c16));
    assert_true(TNF(equal)(&w17, &c17));

    /* The domain's own fields. */
    for (unsigned k = 0; k <= 14; k++) {
        TND *d = TN(domain)(k, 5);
        assert_int_equal(d->n, (size_t)1 << k);
        TNT x;
        TNF(root_of_unity)(&x, k, 5);
        assert_true(TNF(equal)(&x, &d->omega));
        TNF(mul)(&x, &d->omega, &d->omega_inv);
        assert_true(TNF(is_one)(&x));
        TNT nn = TN(u64)(d->n);
        TNF(mul)(&x, &nn, &d->n_inv);
        assert_true(TNF(is_one)(&x));
        if (k > 0) {
            assert_true(TNF(is_one)(&d->tw[0]));
            assert_true(TNF(equal)(&d->tw[1], &d->omega));
            assert_true(TNF(equal)(&d->tw[d->n / 2], &minus_one));
        }
        TNN(domain_free)(d);
    }

    /* Refusals: beyond the 2-adicity; generators that are squares or 0. */
    cuzk_status_t st = CUZK_OK;
    assert_null(TNN(domain_new)(s + 1, 5, &st));
    assert_int_equal(st, CUZK_EINVAL);
    const uint64_t bad[] = {0, 1, 4, 9};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        st = CUZK_OK;
        assert_null(TNN(domain_new)(4, bad[i], &st));
        assert_int_equal(st, CUZK_EINVAL);
    }
    TNN(domain_free)(NULL);
}

/* ---- transforms against the O(n²) definition ------------------------------ */

static void TN(forward_naive)(void **state)
{
    (void)state;
    for (size_t gi = 0; gi < 2; gi++)
        for (unsigned k = 0; k <= 8; k++) {
            TND *d = TN(domain)(k, TN(gens)[gi]);
            size_t n = d->n;
            TNT *c = TN(vec_new)(n), *ref = TN(vec_new)(n), *iref = TN(vec_new)(n),
                *refr = TN(vec_new)(n), one = TN(u64)(1);
            TN(vec_random)(c, n);
            TN(naive_eval)(ref, c, n, &d->omega, &one);
            TN(naive_eval)(iref, c, n, &d->omega_inv, &one); /* n·inverse, unscaled */
            for (size_t p = 0; p < NPOOLS; p++) {
                TNT *a = TN(vec_dup)(c, n);
                TNN(forward)(d, a, pools[p]);
                TN(assert_vec_equal)(a, ref, n, "forward");

                /* inverse(ref) = c, and the unscaled orders of dif and dit. */
                memcpy(a, ref, n * sizeof(TNT));
                TNN(inverse)(d, a, pools[p]);
                TN(assert_vec_equal)(a, c, n, "inverse");

                memcpy(a, c, n * sizeof(TNT));
                TNN(dif)(d, a, CUZK_NTT_FORWARD, pools[p]);
                TN(bitrev_copy)(refr, ref, k);
                TN(assert_vec_equal)(a, refr, n, "dif forward");

                memcpy(a, c, n * sizeof(TNT));
                TNN(dif)(d, a, CUZK_NTT_INVERSE, pools[p]);
                TN(bitrev_copy)(refr, iref, k);
                TN(assert_vec_equal)(a, refr, n, "dif inverse");

                TN(bitrev_copy)(a, c, k);
                TNN(dit)(d, a, CUZK_NTT_FORWARD, pools[p]);
                TN(assert_vec_equal)(a, ref, n, "dit forward");

                TN(bitrev_copy)(a, c, k);
                TNN(dit)(d, a, CUZK_NTT_INVERSE, pools[p]);
                TN(assert_vec_equal)(a, iref, n, "dit inverse");

                memcpy(a, c, n * sizeof(TNT));
                TNN(bit_reverse)(d, a, pools[p]);
                TN(bitrev_copy)(refr, c, k);
                TN(assert_vec_equal)(a, refr, n, "bit_reverse");
                free(a);
            }
            free(c);
            free(ref);
            free(iref);
            free(refr);
            TNN(domain_free)(d);
        }
}

/* inverse∘forward and forward∘inverse are the identity; sizes past the
 * block size exercise the wide stages, which spot checks against Horner's
 * rule cover too. */
static void TN(roundtrip)(void **state)
{
    (void)state;
    for (size_t gi = 0; gi < 2; gi++)
        for (unsigned k = 0; k <= 16; k++) {
            TND *d = TN(domain)(k, TN(gens)[gi]);
            size_t n = d->n;
            TNT *c = TN(vec_new)(n), *a;
            TN(vec_random)(c, n);
            pool_t *pool = pools[k % NPOOLS];
            a = TN(vec_dup)(c, n);
            TNN(forward)(d, a, pool);
            for (int t = 0; t < 4; t++) {
                size_t j = (size_t)(rng_next(&test_rng) & (n - 1));
                TNT x = TN(pow_u64)(&d->omega, j), y = TN(poly_eval)(c, n, &x);
                if (!TNF(equal)(&a[j], &y))
                    fail_msg("forward 2^%u (g = %" PRIu64 "): wrong evaluation %zu", k,
                             TN(gens)[gi], j);
            }
            TNN(inverse)(d, a, pool);
            TN(assert_vec_equal)(a, c, n, "inverse(forward)");
            /* The rest up to two wide stages (the cost grows as n·log n). */
            if (k <= CUZK_NTT_BLOCK_LOG + 2) {
                TNN(inverse)(d, a, pool);
                TNN(forward)(d, a, pool);
                TN(assert_vec_equal)(a, c, n, "forward(inverse)");

                /* dit(INVERSE) on bit-reversed input = dif(INVERSE), permuted. */
                TNT *b = TN(vec_dup)(c, n);
                TNN(dif)(d, b, CUZK_NTT_INVERSE, pool);
                TNN(bit_reverse)(d, b, pool);
                TNN(bit_reverse)(d, a, pool);
                TNN(dit)(d, a, CUZK_NTT_INVERSE, pool);
                TN(assert_vec_equal)(a, b, n, "dit inverse vs dif inverse");
                free(b);
            }
            free(a);
            free(c);
            TNN(domain_free)(d);
        }
}

/* coset_forward = evaluations at c·ω^j; coset_inverse undoes it;
 * evals_to_coset maps evaluations on ⟨ω⟩ to those on c·⟨ω⟩. */
static void TN(coset)(void **state)
{
    (void)state;
    for (unsigned k = 0; k <= 14; k++) {
        TND *d = TN(domain)(k, TN(gens)[k & 1]);
        size_t n = d->n;
        bool full = k <= 8;
        TNT *c = TN(vec_new)(n), *ref = TN(vec_new)(n), *a, *e, shift;
        TN(vec_random)(c, n);
        TN(vec_random)(&shift, 1);
        if (k & 2)
            shift = TN(u64)(7);
        pool_t *pool = pools[k % NPOOLS];

        a = TN(vec_dup)(c, n);
        TNN(coset_forward)(d, a, &shift, pool);
        if (full) {
            TN(naive_eval)(ref, c, n, &d->omega, &shift);
            TN(assert_vec_equal)(a, ref, n, "coset_forward");
        } else {
            for (int t = 0; t < 4; t++) {
                size_t j = (size_t)(rng_next(&test_rng) & (n - 1));
                TNT x = TN(pow_u64)(&d->omega, j), y;
                TNF(mul)(&x, &x, &shift);
                y = TN(poly_eval)(c, n, &x);
                if (!TNF(equal)(&a[j], &y))
                    fail_msg("coset_forward 2^%u: wrong evaluation %zu", k, j);
            }
        }
        e = TN(vec_dup)(c, n);
        TNN(forward)(d, e, pool);
        TNN(evals_to_coset)(d, e, &shift, pool);
        TN(assert_vec_equal)(e, a, n, "evals_to_coset");

        TNN(coset_inverse)(d, a, &shift, pool);
        TN(assert_vec_equal)(a, c, n, "coset_inverse(coset_forward)");
        free(a);
        free(e);
        free(c);
        free(ref);
        TNN(domain_free)(d);
    }
}

/* Every pool gives bit-identical results to the caller alone, at a size with
 * wide stages and several blocks, with the IFMA butterflies (ntt_ifma.h)
 * when the processor has them and without. */
static void TN(threads)(void **state)
{
    (void)state;
    unsigned k = CUZK_NTT_BLOCK_LOG + 1;
    TND *d = TN(domain)(k, 5);
    size_t n = d->n;
    TNT *in = TN(vec_new)(3 * n), *ref = TN(vec_new)(3 * n), shift = TN(u64)(7);
    TN(vec_random)(in, 3 * n);
    /* h_bellperson covers evals_to_coset (dif and dit), the powers in
     * bit-reversed order and the permutation; forward and coset_inverse the
     * natural-order paths; h_snarkjs the a·b - c with c. */
    bool ifma = cpu_has_ifma;
    for (int op = 0; op < 4; op++) {
        for (size_t p = 0; p < 2 * NPOOLS; p++) {
            cpu_has_ifma = p < NPOOLS && ifma;
            TNT *a = TN(vec_dup)(in, 3 * n);
            pool_t *pool = pools[p % NPOOLS];
            switch (op) {
            case 0: TNN(forward)(d, a, pool); break;
            case 1: TNN(coset_inverse)(d, a, &shift, pool); break;
            case 2: TNN(h_bellperson)(d, a, a + n, a + 2 * n, &shift, pool, NULL); break;
            default: TNN(h_snarkjs)(d, a, a + n, a + 2 * n, &shift, pool, NULL); break;
            }
            if (p == 0)
                memcpy(ref, a, 3 * n * sizeof(TNT));
            else
                TN(assert_vec_equal)(a, ref, 3 * n, "pool and IFMA vs caller alone");
            free(a);
        }
    }
    cpu_has_ifma = ifma;
    free(in);
    free(ref);
    TNN(domain_free)(d);
}

/* ---- the H chains ---------------------------------------------------------- */

/*
 * A satisfied instance: random A, B of degree < n, their evaluations a, b
 * on ⟨ω⟩ and c = a·b pointwise (C, the interpolant of c, is A·B mod Z).
 * Returns A‖B‖C coefficients (3n) and a‖b‖c evaluations in *ev (3n).
 */
static TNT *TN(instance)(const TND *d, TNT **ev, pool_t *pool)
{
    size_t n = d->n;
    TNT *co = TN(vec_new)(3 * n), *e;
    TN(vec_random)(co, 2 * n);
    e = TN(vec_dup)(co, 3 * n);
    TNN(forward)(d, e, pool);
    TNN(forward)(d, e + n, pool);
    for (size_t i = 0; i < n; i++)
        TNF(mul)(&e[2 * n + i], &e[i], &e[n + i]);
    memcpy(co + 2 * n, e + 2 * n, n * sizeof(TNT));
    TNN(inverse)(d, co + 2 * n, pool);
    *ev = e;
    return co;
}

/* (A·B - C)(x) from the coefficients */
static TNT TN(p_at)(const TNT *co, size_t n, const TNT *x)
{
    TNT a = TN(poly_eval)(co, n, x), b = TN(poly_eval)(co + n, n, x),
        c = TN(poly_eval)(co + 2 * n, n, x);
    TNF(mul)(&a, &a, &b);
    TNF(sub)(&a, &a, &c);
    return a;
}

static void TN(h_snarkjs)(void **state)
{
    (void)state;
    for (unsigned k = 0; k <= 13; k++) {
        if (k > 10 && k < 13)
            continue;
        TND *d = TN(domain)(k, 5);
        size_t n = d->n;
        pool_t *pool = pools[k % NPOOLS];
        TNT *ev, *co = TN(instance)(d, &ev, pool), w2n, two_inv, one = TN(u64)(1);
        TNF(root_of_unity)(&w2n, k + 1, 5);
        TNF(half)(&two_inv, &one);
        for (int tamper = 0; tamper < 2; tamper++) {
            TNT *h = TN(vec_dup)(ev, 3 * n);
            if (tamper)
                TNF(add)(&h[2 * n], &h[2 * n], &one); /* c_0 + 1: row 0 unsatisfied */
            TNN(h_snarkjs)(d, h, h + n, h + 2 * n, &w2n, pool, NULL);
            if (!tamper) {
                /* H_j = (A·B - C)(ω_2n^(2j+1)), every j for small n, some for larger. */
                size_t checks = n <= 256 ? n : 16;
                for (size_t t = 0; t < checks; t++) {
                    size_t j = n <= 256 ? t : (size_t)(rng_next(&test_rng) & (n - 1));
                    TNT x = TN(pow_u64)(&w2n, 2 * j + 1), y = TN(p_at)(co, n, &x);
                    if (!TNF(equal)(&h[j], &y))
                        fail_msg("h_snarkjs 2^%u: H_%zu differs from (A·B - C)(ω_2n^%zu)", k, j,
                                 2 * j + 1);
                }
            }
            /* -H/2 = h on the odd coset (Z = -2 there), deg h <= n - 2:
             * coefficient n - 1 of its interpolant is zero, and only then. */
            for (size_t j = 0; j < n; j++) {
                TNF(mul)(&h[j], &h[j], &two_inv);
                TNF(neg)(&h[j], &h[j]);
            }
            TNN(coset_inverse)(d, h, &w2n, pool);
            assert_true(TNF(is_zero)(&h[n - 1]) == !tamper);
            free(h);
        }
        free(ev);
        free(co);
        TNN(domain_free)(d);
    }
}

static void TN(h_bellperson)(void **state)
{
    (void)state;
    for (unsigned k = 0; k <= 13; k++) {
        if (k > 10 && k < 13)
            continue;
        TND *d = TN(domain)(k, 7);
        size_t n = d->n;
        pool_t *pool = pools[k % NPOOLS];
        TNT *ev, *co = TN(instance)(d, &ev, pool), g = TN(u64)(7), one = TN(u64)(1);
        for (int tamper = 0; tamper < 2; tamper++) {
            TNT *h = TN(vec_dup)(ev, 3 * n);
            if (tamper)
                TNF(add)(&h[2 * n + n / 2], &h[2 * n + n / 2], &one);
            /* the coefficients of A, B and of the C given (tampered or not) */
            TNT *cot = TN(vec_dup)(co, 3 * n);
            memcpy(cot + 2 * n, h + 2 * n, n * sizeof(TNT));
            TNN(inverse)(d, cot + 2 * n, pool);
            TNN(h_bellperson)(d, h, h + n, h + 2 * n, &g, pool, NULL);
            /* h·Z = A·B - C at random points: holds for every point when
             * satisfied, fails at a random point when not. */
            bool all = true;
            for (int t = 0; t < 4; t++) {
                TNT x, z, lhs, rhs;
                TN(vec_random)(&x, 1);
                z = TN(pow_u64)(&x, n);
                TNF(sub)(&z, &z, &one);
                lhs = TN(poly_eval)(h, n, &x);
                TNF(mul)(&lhs, &lhs, &z);
                rhs = TN(p_at)(co, n, &x);
                all = all && TNF(equal)(&lhs, &rhs);
            }
            assert_true(all == !tamper);
            assert_true(TNF(is_zero)(&h[n - 1]) == !tamper);
            /* either way h·Z = A·B - C on the coset g·⟨ω⟩ (Z = g^n - 1
             * there), C the one given: h interpolates (A·B - C)/Z on it */
            TNT w, zg = TN(pow_u64)(&g, n);
            TNF(sub)(&zg, &zg, &one);
            TNF(root_of_unity)(&w, k, 7);
            for (int t = 0; t < 4; t++) {
                size_t j = (size_t)(rng_next(&test_rng) & (n - 1));
                TNT x = TN(pow_u64)(&w, j), lhs;
                TNF(mul)(&x, &x, &g);
                lhs = TN(poly_eval)(h, n, &x);
                TNF(mul)(&lhs, &lhs, &zg);
                TNT rhs = TN(p_at)(cot, n, &x);
                if (!TNF(equal)(&lhs, &rhs))
                    fail_msg("h_bellperson 2^%u%s: h·Z differs from A·B - C at g·ω^%zu", k,
                             tamper ? " (unsatisfied)" : "", j);
            }
            free(cot);
            free(h);
        }
        free(ev);
        free(co);
        TNN(domain_free)(d);
    }
}

#undef TN_CAT2
#undef TN_CAT
#undef TNF
#undef TNN
#undef TNT
#undef TND
#undef TN
#undef TN_CURVE
#undef TN_FIELD
#undef TN_W16
#undef TN_W17
