/*
 * Point-encoding tests as a template over one group (parameters as in
 * test_ec_common.h; TZCASH for the BLS12-381 groups, with TZ_GEN_COMPRESSED
 * and TZ_GEN_UNCOMPRESSED, the generator's published encodings in hex).
 */

#include "test_ec_common.h"

#define TDEG (G(DEC_STRINGS) / 3) /* 1 for G1, 2 for G2 */

#ifndef TCOFACTOR_ONE
/* A random point outside the subgroup. */
static void TN(outside_point)(GA *p)
{
    do
        TN(random_curve_point)(p);
    while (TN(order_divides_r)(p));
}
#endif

/* Writes p (the base field's modulus) big-endian or little-endian into n
 * bytes: the smallest non-canonical value. */
static void TN(modulus_bytes)(unsigned char *out, bool big_endian)
{
    const size_t n = sizeof(BT);
    for (size_t i = 0; i < n; i++) {
        unsigned char byte = (unsigned char)(B(MODULUS)[i / 8] >> (8 * (i % 8)));
        out[big_endian ? n - 1 - i : i] = byte;
    }
}

static void TN(test_snarkjs)(void **state)
{
    (void)state;
    enum { N = G(SNARKJS_BYTES) };
    unsigned char buf[N], bad[N];
    GA p, q;
    for (int it = 0; it < test_iters(8); it++) {
        TN(random_point)(&p);
        G(affine_to_snarkjs)(buf, &p);
        /* the file bytes are the in-memory bytes (DESIGN.md section 5) */
        assert_memory_equal(buf, &p, N);
        assert_int_equal(G(affine_from_snarkjs)(&q, buf, N, 0), CUZK_OK);
        assert_true(G(affine_equal)(&p, &q));
    }
    /* infinity: all zero bytes */
    G(affine_set_infinity)(&p);
    G(affine_to_snarkjs)(buf, &p);
    for (int i = 0; i < N; i++)
        assert_int_equal(buf[i], 0);
    assert_int_equal(G(affine_from_snarkjs)(&q, buf, N, 0), CUZK_OK);
    assert_true(G(affine_is_infinity)(&q));
    assert_int_equal(G(affine_from_snarkjs)(&q, buf, N, EC_DECODE_NO_INFINITY), CUZK_EINFINITY);

    TN(random_point)(&p);
    G(affine_to_snarkjs)(buf, &p);
    assert_int_equal(G(affine_from_snarkjs)(&q, buf, N - 1, 0), CUZK_EENCODING);
    assert_int_equal(G(affine_from_snarkjs)(&q, buf, N + 1, 0), CUZK_EENCODING);
    /* every coordinate part in turn set to p */
    for (size_t part = 0; part < N / sizeof(BT); part++) {
        memcpy(bad, buf, N);
        TN(modulus_bytes)(bad + part * sizeof(BT), false);
        assert_int_equal(G(affine_from_snarkjs)(&q, bad, N, 0), CUZK_ENONCANONICAL);
    }
    /* off the curve: y + 1 */
    q = p;
    FT one;
    F(set_one)(&one);
    F(add)(&q.y, &q.y, &one);
    G(affine_to_snarkjs)(bad, &q);
    assert_int_equal(G(affine_from_snarkjs)(&q, bad, N, 0), CUZK_ENOTONCURVE);
#ifndef TCOFACTOR_ONE
    TN(outside_point)(&p);
    G(affine_to_snarkjs)(buf, &p);
    assert_int_equal(G(affine_from_snarkjs)(&q, buf, N, 0), CUZK_ENOTINSUBGROUP);
    assert_int_equal(G(affine_from_snarkjs)(&q, buf, N, EC_DECODE_SKIP_SUBGROUP), CUZK_OK);
    assert_true(G(affine_equal)(&p, &q));
#else
    /* prime order: any point of the curve is in the group */
    TN(random_curve_point)(&p);
    assert_true(TN(order_divides_r)(&p));
    G(affine_to_snarkjs)(buf, &p);
    assert_int_equal(G(affine_from_snarkjs)(&q, buf, N, 0), CUZK_OK);
#endif
    /* x = 0, order 3, where such points exist: rejected even when trusted */
    FT zero;
    F(set_zero)(&zero);
    if (G(affine_from_x_vartime)(&p, &zero, true)) {
        G(affine_to_snarkjs)(buf, &p);
        assert_int_equal(G(affine_from_snarkjs)(&q, buf, N, EC_DECODE_SKIP_SUBGROUP),
                         CUZK_ENOTINSUBGROUP);
    }
}

/*
 * snarkjs_first_invalid over 37 points (infinity, and points outside the
 * subgroup, which it accepts, among them), with and without the IFMA scan:
 * all valid, then each kind of bad point at positions on both sides of
 * the eight-point blocks, with a second bad point in the next block.
 */
static void TN(test_snarkjs_scan)(void **state)
{
    (void)state;
    enum { N = G(SNARKJS_BYTES), M = 37 };
    static unsigned char good[M * N], buf[M * N];
    for (size_t i = 0; i < M; i++) {
        GA p;
        if (i % 5 == 3)
            G(affine_set_infinity)(&p);
#ifndef TCOFACTOR_ONE
        else if (i % 5 == 1)
            TN(outside_point)(&p);
#endif
        else
            TN(random_point)(&p);
        G(affine_to_snarkjs)(good + i * N, &p);
    }
    /* the bad points: each part in turn p, y + 1, x = 0 (order 3, where it
     * exists, else (0, 1): off the curve too) */
    enum { KINDS = 2 * TDEG + 2 };
    unsigned char bad[KINDS][N];
    for (size_t part = 0; part < 2 * TDEG; part++) {
        memcpy(bad[part], good, N);
        TN(modulus_bytes)(bad[part] + part * sizeof(BT), false);
    }
    GA p;
    FT one, zero;
    F(set_one)(&one);
    F(set_zero)(&zero);
    memcpy(&p, good, N);
    F(add)(&p.y, &p.y, &one);
    G(affine_to_snarkjs)(bad[2 * TDEG], &p);
    if (!G(affine_from_x_vartime)(&p, &zero, true)) {
        p.x = zero;
        p.y = one;
    }
    G(affine_to_snarkjs)(bad[2 * TDEG + 1], &p);

    const size_t at[] = {0, 5, 7, 8, 15, 16, 23, 29, 32, 33, 36};
    bool modes[2] = {false, cpu_supports_ifma()};
    if (!modes[1])
        print_message("snarkjs_first_invalid: no AVX-512 IFMA here, the scalar path only\n");
    bool saved = cpu_has_ifma;
    for (int m = 0; m < (modes[1] ? 2 : 1); m++) {
        cpu_has_ifma = modes[m];
        for (size_t n = 0; n <= M; n++)
            assert_int_equal(G(snarkjs_first_invalid)(good, n), n);
#if CUZK_EC_HAVE_IFMA
        if (modes[m]) /* the vector scan passes every good block on its own */
            assert_int_equal(G(snarkjs_scan_ifma)(good, M), M / 8 * 8);
#endif
        for (int k = 0; k < KINDS; k++) {
            for (size_t a = 0; a < sizeof at / sizeof at[0]; a++) {
                memcpy(buf, good, sizeof buf);
                memcpy(buf + at[a] * N, bad[k], N);
                if (at[a] + 9 < M)
                    memcpy(buf + (at[a] + 9) * N, bad[(k + 1) % KINDS], N);
                assert_int_equal(G(snarkjs_first_invalid)(buf, M), at[a]);
#if CUZK_EC_HAVE_IFMA
                if (modes[m]) /* and stops at the block of the bad point */
                    assert_int_equal(G(snarkjs_scan_ifma)(buf, M),
                                     at[a] < M / 8 * 8 ? at[a] / 8 * 8 : M / 8 * 8);
#endif
                assert_int_equal(G(snarkjs_first_invalid)(buf, at[a]), at[a]);
            }
        }
    }
    cpu_has_ifma = saved;
}

/* Decodes strings s[0..n) (a point's decimal form) with flags. */
static cuzk_status_t TN(from_dec)(GA *r, const char *const *s, size_t n, unsigned flags)
{
    return G(affine_from_dec)(r, s, n, flags);
}

static void TN(test_dec)(void **state)
{
    (void)state;
    enum { N = G(DEC_STRINGS) };
    char buf[N][G(DEC_MAX)];
    char *out[N];
    const char *in[N];
    for (int i = 0; i < N; i++) {
        out[i] = buf[i];
        in[i] = buf[i];
    }
    GA p, q;
    for (int it = 0; it < test_iters(8); it++) {
        TN(random_point)(&p);
        G(affine_to_dec)(out, &p);
        assert_string_equal(buf[2 * TDEG], "1"); /* z = 1 */
        for (int i = 2 * TDEG + 1; i < N; i++)
            assert_string_equal(buf[i], "0");
        assert_int_equal(TN(from_dec)(&q, in, N, 0), CUZK_OK);
        assert_true(G(affine_equal)(&p, &q));
    }
    /* infinity as snarkjs writes it: [0, 1, 0] */
    G(affine_set_infinity)(&p);
    G(affine_to_dec)(out, &p);
    for (int i = 0; i < N; i++)
        assert_string_equal(buf[i], i == TDEG ? "1" : "0");
    assert_int_equal(TN(from_dec)(&q, in, N, 0), CUZK_OK);
    assert_true(G(affine_is_infinity)(&q));
    assert_int_equal(TN(from_dec)(&q, in, N, EC_DECODE_NO_INFINITY), CUZK_EINFINITY);
    strcpy(buf[0], "5"); /* z = 0 with other coordinates */
    assert_int_equal(TN(from_dec)(&q, in, N, 0), CUZK_EENCODING);

    TN(random_point)(&p);
    G(affine_to_dec)(out, &p);
    assert_int_equal(TN(from_dec)(&q, in, N - 1, 0), CUZK_EENCODING);
    char saved[G(DEC_MAX)];
    strcpy(saved, buf[0]);
    static const char *const junk[] = {"", "12a", "-1", " 1", "1 ", "0x10", "+3"};
    for (size_t j = 0; j < sizeof(junk) / sizeof(junk[0]); j++) {
        strcpy(buf[0], junk[j]);
        assert_int_equal(TN(from_dec)(&q, in, N, 0), CUZK_EENCODING);
    }
    mpz_t m;
    mpz_init(m);
    test_mpz_from_limbs(m, B(MODULUS), sizeof(BT) / 8);
    mpz_get_str(buf[0], 10, m); /* x = p */
    assert_int_equal(TN(from_dec)(&q, in, N, 0), CUZK_ENONCANONICAL);
    mpz_clear(m);
    strcpy(buf[0], saved);
    strcpy(buf[2 * TDEG], "2"); /* z = 2 */
    assert_int_equal(TN(from_dec)(&q, in, N, 0), CUZK_EENCODING);
    strcpy(buf[2 * TDEG], "01"); /* leading zeros are still 1 */
    assert_int_equal(TN(from_dec)(&q, in, N, 0), CUZK_OK);
    strcpy(buf[2 * TDEG], "1");
    strcpy(buf[TDEG], "7"); /* off the curve */
    assert_int_equal(TN(from_dec)(&q, in, N, 0), CUZK_ENOTONCURVE);
#ifndef TCOFACTOR_ONE
    TN(outside_point)(&p);
    G(affine_to_dec)(out, &p);
    assert_int_equal(TN(from_dec)(&q, in, N, 0), CUZK_ENOTINSUBGROUP);
    assert_int_equal(TN(from_dec)(&q, in, N, EC_DECODE_SKIP_SUBGROUP), CUZK_OK);
    assert_true(G(affine_equal)(&p, &q));
#endif
}

#ifdef TZCASH
static void TN(hex)(unsigned char *out, size_t n, const char *hex)
{
    assert_int_equal(strlen(hex), 2 * n);
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (unsigned char)v;
    }
}

static void TN(test_zcash)(void **state)
{
    (void)state;
    enum { C = G(COMPRESSED_BYTES), U = G(UNCOMPRESSED_BYTES) };
    unsigned char c[C], u[U], want[U];
    GA p, q, g;

    /* known answers: the generator */
    G(generator)(&g);
    G(affine_to_compressed)(c, &g);
    TN(hex)(want, C, TZ_GEN_COMPRESSED);
    assert_memory_equal(c, want, C);
    assert_int_equal(G(affine_from_compressed)(&q, want, C, 0), CUZK_OK);
    assert_true(G(affine_equal)(&q, &g));
    G(affine_to_uncompressed)(u, &g);
    TN(hex)(want, U, TZ_GEN_UNCOMPRESSED);
    assert_memory_equal(u, want, U);
    assert_int_equal(G(affine_from_uncompressed)(&q, want, U, 0), CUZK_OK);
    assert_true(G(affine_equal)(&q, &g));

    /* round trips; exactly one of P, -P has the sign bit */
    for (int it = 0; it < test_iters(8); it++) {
        TN(random_point)(&p);
        GA np;
        unsigned char c2[C];
        G(affine_neg)(&np, &p);
        G(affine_to_compressed)(c, &p);
        G(affine_to_compressed)(c2, &np);
        assert_true(c[0] & 0x80);
        assert_int_equal(!!(c[0] & 0x20), !(c2[0] & 0x20));
        assert_int_equal(G(affine_from_compressed)(&q, c, C, 0), CUZK_OK);
        assert_true(G(affine_equal)(&q, &p));
        assert_int_equal(G(affine_from_compressed)(&q, c2, C, 0), CUZK_OK);
        assert_true(G(affine_equal)(&q, &np));
        G(affine_to_uncompressed)(u, &p);
        assert_int_equal(u[0] & 0xe0, 0);
        assert_int_equal(G(affine_from_uncompressed)(&q, u, U, 0), CUZK_OK);
        assert_true(G(affine_equal)(&q, &p));
    }

    /* infinity */
    G(affine_set_infinity)(&p);
    G(affine_to_compressed)(c, &p);
    assert_int_equal(c[0], 0xc0);
    for (int i = 1; i < C; i++)
        assert_int_equal(c[i], 0);
    G(affine_to_uncompressed)(u, &p);
    assert_int_equal(u[0], 0x40);
    for (int i = 1; i < U; i++)
        assert_int_equal(u[i], 0);
    assert_int_equal(G(affine_from_compressed)(&q, c, C, 0), CUZK_OK);
    assert_true(G(affine_is_infinity)(&q));
    assert_int_equal(G(affine_from_uncompressed)(&q, u, U, 0), CUZK_OK);
    assert_true(G(affine_is_infinity)(&q));
    assert_int_equal(G(affine_from_compressed)(&q, c, C, EC_DECODE_NO_INFINITY), CUZK_EINFINITY);
    assert_int_equal(G(affine_from_uncompressed)(&q, u, U, EC_DECODE_NO_INFINITY), CUZK_EINFINITY);
    /* infinity with any other bit set */
    c[C - 1] = 1;
    assert_int_equal(G(affine_from_compressed)(&q, c, C, 0), CUZK_EENCODING);
    c[C - 1] = 0;
    c[0] = 0xc1;
    assert_int_equal(G(affine_from_compressed)(&q, c, C, 0), CUZK_EENCODING);
    c[0] = 0xe0; /* infinity with the sign bit */
    assert_int_equal(G(affine_from_compressed)(&q, c, C, 0), CUZK_EENCODING);
    u[U - 1] = 1;
    assert_int_equal(G(affine_from_uncompressed)(&q, u, U, 0), CUZK_EENCODING);
    u[U - 1] = 0;
    u[0] = 0x60;
    assert_int_equal(G(affine_from_uncompressed)(&q, u, U, 0), CUZK_EENCODING);

    /* lengths and the compression bit */
    TN(random_point)(&p);
    G(affine_to_compressed)(c, &p);
    G(affine_to_uncompressed)(u, &p);
    assert_int_equal(G(affine_from_compressed)(&q, c, C - 1, 0), CUZK_EENCODING);
    assert_int_equal(G(affine_from_compressed)(&q, u, C + 1, 0), CUZK_EENCODING);
    assert_int_equal(G(affine_from_compressed)(&q, u, U, 0), CUZK_EENCODING);
    assert_int_equal(G(affine_from_uncompressed)(&q, u, U - 1, 0), CUZK_EENCODING);
    assert_int_equal(G(affine_from_uncompressed)(&q, c, C, 0), CUZK_EENCODING);
    c[0] &= 0x7f;
    assert_int_equal(G(affine_from_compressed)(&q, c, C, 0), CUZK_EENCODING);
    u[0] |= 0x80;
    assert_int_equal(G(affine_from_uncompressed)(&q, u, U, 0), CUZK_EENCODING);
    u[0] &= 0x7f;
    u[0] |= 0x20; /* sort flag on an uncompressed point */
    assert_int_equal(G(affine_from_uncompressed)(&q, u, U, 0), CUZK_EENCODING);
    u[0] &= 0x1f;
    assert_int_equal(G(affine_from_uncompressed)(&q, u, U, 0), CUZK_OK);

    /* non-canonical: each coordinate part in turn set to p */
    const size_t fb = sizeof(BT);
    for (size_t part = 0; part < C / fb; part++) {
        G(affine_to_compressed)(c, &p);
        unsigned char flags = c[0] & 0xe0;
        TN(modulus_bytes)(c + part * fb, true);
        c[0] |= flags;
        assert_int_equal(G(affine_from_compressed)(&q, c, C, 0), CUZK_ENONCANONICAL);
    }
    for (size_t part = 0; part < U / fb; part++) {
        G(affine_to_uncompressed)(u, &p);
        TN(modulus_bytes)(u + part * fb, true);
        assert_int_equal(G(affine_from_uncompressed)(&q, u, U, 0), CUZK_ENONCANONICAL);
    }

    /* an x with no point */
    FT x;
    do
        F(random)(&x, &test_rng);
    while (G(affine_from_x_vartime)(&q, &x, false));
    p.x = x;
    G(affine_to_compressed)(c, &p);
    assert_int_equal(G(affine_from_compressed)(&q, c, C, EC_DECODE_SKIP_SUBGROUP),
                     CUZK_ENOTONCURVE);
    /* off the curve, and the finite (0, 0) */
    TN(random_point)(&p);
    FT one;
    F(set_one)(&one);
    F(add)(&p.y, &p.y, &one);
    G(affine_to_uncompressed)(u, &p);
    assert_int_equal(G(affine_from_uncompressed)(&q, u, U, 0), CUZK_ENOTONCURVE);
    memset(u, 0, U);
    assert_int_equal(G(affine_from_uncompressed)(&q, u, U, 0), CUZK_ENOTONCURVE);

    /* outside the subgroup: rejected by default, accepted when trusted */
    TN(outside_point)(&p);
    G(affine_to_compressed)(c, &p);
    G(affine_to_uncompressed)(u, &p);
    assert_int_equal(G(affine_from_compressed)(&q, c, C, 0), CUZK_ENOTINSUBGROUP);
    assert_int_equal(G(affine_from_uncompressed)(&q, u, U, 0), CUZK_ENOTINSUBGROUP);
    assert_int_equal(G(affine_from_compressed)(&q, c, C, EC_DECODE_SKIP_SUBGROUP), CUZK_OK);
    assert_true(G(affine_equal)(&q, &p));
    assert_int_equal(G(affine_from_uncompressed)(&q, u, U, EC_DECODE_SKIP_SUBGROUP), CUZK_OK);
    assert_true(G(affine_equal)(&q, &p));

    /* x = 0 (order 3; exists on G1): rejected even when trusted */
    FT zero;
    F(set_zero)(&zero);
    if (G(affine_from_x_vartime)(&p, &zero, false)) {
        G(affine_to_compressed)(c, &p);
        assert_int_equal(G(affine_from_compressed)(&q, c, C, EC_DECODE_SKIP_SUBGROUP),
                         CUZK_ENOTINSUBGROUP);
    }
}
#endif

#undef TDEG
