/*
 * Tests of the .zkey reader and writer (src/io/zkey_file.h).
 *
 *  - Random small keys of both curves (points = random multiples of the
 *    generators, some at infinity; random coefficients) go writer → reader,
 *    serially and on a pool, and must come back identical; the file must
 *    have sections 1-10 in order with the sizes of FORMATS.md section 5.
 *  - Every check of the reader has a corrupt file that trips it, with the
 *    right status and a message naming the file, the section and the item.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"
#include "test_points.h"

#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "io/iden3.h"
#include "io/io_error.h"
#include "io/zkey_file.h"
#include "msm/msm.h"

/* ---- random points ------------------------------------------------------ */

/* r = a random multiple of the generator (infinity when zero is true). */
#define TEST_RAND_POINT(G, FR)                                                                     \
    static void rand_##G(G##_affine_t *r, bool zero)                                               \
    {                                                                                              \
        FR##_t s;                                                                                  \
        uint64_t k[EC_SCALAR_LIMBS];                                                               \
        G##_affine_t gen;                                                                          \
        G##_jac_t g, p;                                                                            \
        assert_int_equal(FR##_random(&s, &test_rng), CUZK_OK);                                     \
        FR##_to_canonical(k, &s);                                                                  \
        if (zero)                                                                                  \
            memset(k, 0, sizeof(k));                                                               \
        G##_generator(&gen);                                                                       \
        G##_jac_from_affine(&g, &gen);                                                             \
        G##_jac_mul_vartime(&p, &g, k);                                                            \
        G##_jac_to_affine(r, &p);                                                                  \
    }

TEST_RAND_POINT(bn254_g1, bn254_fr)
TEST_RAND_POINT(bn254_g2, bn254_fr)
TEST_RAND_POINT(bls381_g1, bls381_fr)
TEST_RAND_POINT(bls381_g2, bls381_fr)

/* out = the snarkjs bytes of a random point of G1 (g2 false) or G2. */
static void rand_point_bytes(r1cs_curve_t curve, bool g2, bool zero, unsigned char *out)
{
    if (curve == R1CS_CURVE_BN254 && !g2) {
        bn254_g1_affine_t p;
        rand_bn254_g1(&p, zero);
        bn254_g1_affine_to_snarkjs(out, &p);
    } else if (curve == R1CS_CURVE_BN254) {
        bn254_g2_affine_t p;
        rand_bn254_g2(&p, zero);
        bn254_g2_affine_to_snarkjs(out, &p);
    } else if (!g2) {
        bls381_g1_affine_t p;
        rand_bls381_g1(&p, zero);
        bls381_g1_affine_to_snarkjs(out, &p);
    } else {
        bls381_g2_affine_t p;
        rand_bls381_g2(&p, zero);
        bls381_g2_affine_to_snarkjs(out, &p);
    }
}

/* ---- a random key --------------------------------------------------------- */

typedef struct {
    zkey_t k;
    unsigned char *mem[7]; /* ic, coeffs, a, b1, b2, c, h */
} tkey_t;

static unsigned char *rand_points(tkey_t *t, int slot, r1cs_curve_t curve, bool g2, uint64_t n)
{
    uint32_t bytes = (g2 ? 4 : 2) * (curve == R1CS_CURVE_BN254 ? 32 : 48);
    unsigned char *p = calloc(n ? n : 1, bytes);
    assert_non_null(p);
    for (uint64_t i = 0; i < n; i++)
        rand_point_bytes(curve, g2, rng_next(&test_rng) % 5 == 0, p + i * bytes);
    t->mem[slot] = p;
    return p;
}

static void tkey_header_point(zkey_t *k, int which, bool g2)
{
    unsigned char b[192];
    rand_point_bytes(k->curve, g2, false, b);
    void *slots[6];
    if (k->curve == R1CS_CURVE_BN254) {
        zkey_bn254_t *h = &k->u.bn254;
        void *s[] = {&h->alpha1, &h->beta1, &h->beta2, &h->gamma2, &h->delta1, &h->delta2};
        memcpy(slots, s, sizeof(s));
        assert_int_equal(g2 ? bn254_g2_affine_from_snarkjs(slots[which], b, 128, 0)
                            : bn254_g1_affine_from_snarkjs(slots[which], b, 64, 0),
                         CUZK_OK);
    } else {
        zkey_bls381_t *h = &k->u.bls381;
        void *s[] = {&h->alpha1, &h->beta1, &h->beta2, &h->gamma2, &h->delta1, &h->delta2};
        memcpy(slots, s, sizeof(s));
        assert_int_equal(g2 ? bls381_g2_affine_from_snarkjs(slots[which], b, 192, 0)
                            : bls381_g1_affine_from_snarkjs(slots[which], b, 96, 0),
                         CUZK_OK);
    }
}

static void tkey_make(tkey_t *t, r1cs_curve_t curve, uint32_t n_vars, uint32_t n_public,
                      uint32_t domain, uint32_t n_coeffs)
{
    memset(t, 0, sizeof(*t));
    zkey_t *k = &t->k;
    k->curve = curve;
    k->n_vars = n_vars;
    k->n_public = n_public;
    k->domain_size = domain;
    k->n_coeffs = n_coeffs;
    static const bool header_g2[6] = {false, false, true, true, false, true};
    for (int i = 0; i < 6; i++)
        tkey_header_point(k, i, header_g2[i]);
    k->ic = rand_points(t, 0, curve, false, (uint64_t)n_public + 1);
    unsigned char *co = calloc(n_coeffs ? n_coeffs : 1, ZKEY_COEFF_BYTES);
    assert_non_null(co);
    for (uint32_t i = 0; i < n_coeffs; i++) {
        uint32_t m = (uint32_t)(rng_next(&test_rng) & 1);
        uint32_t c = (uint32_t)(rng_next(&test_rng) % domain);
        uint32_t s = (uint32_t)(rng_next(&test_rng) % n_vars);
        if (curve == R1CS_CURVE_BN254) {
            bn254_fr_t v;
            assert_int_equal(bn254_fr_random(&v, &test_rng), CUZK_OK);
            zkey_coeff_encode(curve, co + (size_t)i * ZKEY_COEFF_BYTES, m, c, s, &v);
        } else {
            bls381_fr_t v;
            assert_int_equal(bls381_fr_random(&v, &test_rng), CUZK_OK);
            zkey_coeff_encode(curve, co + (size_t)i * ZKEY_COEFF_BYTES, m, c, s, &v);
        }
    }
    t->mem[1] = co;
    k->coeffs = co;
    k->a = rand_points(t, 2, curve, false, n_vars);
    k->b1 = rand_points(t, 3, curve, false, n_vars);
    k->b2 = rand_points(t, 4, curve, true, n_vars);
    k->c = rand_points(t, 5, curve, false, (uint64_t)n_vars - n_public - 1);
    k->h = rand_points(t, 6, curve, false, domain);
}

static void tkey_free(tkey_t *t)
{
    for (int i = 0; i < 7; i++)
        free(t->mem[i]);
    memset(t, 0, sizeof(*t));
}

/* ---- files in memory ------------------------------------------------------- */

typedef struct {
    unsigned char *p;
    size_t n;
} buf_t;

static char tmp_path[64];

static void set_tmp_path(void)
{
    snprintf(tmp_path, sizeof(tmp_path), "/tmp/cuzk_test_zkey_%ld.zkey", (long)getpid());
}

/* The bytes the writer produces for t. */
static buf_t tkey_bytes(const tkey_t *t)
{
    char err[IO_ERR_MAX] = "";
    set_tmp_path();
    cuzk_status_t st = zkey_file_write(tmp_path, &t->k, NULL, err, sizeof(err));
    if (st != CUZK_OK)
        fail_msg("write: %s", err);
    io_map_t m;
    assert_int_equal(io_map_open(&m, tmp_path, err, sizeof(err)), CUZK_OK);
    buf_t b = {malloc(m.size), m.size};
    assert_non_null(b.p);
    memcpy(b.p, m.data, m.size);
    io_map_close(&m);
    unlink(tmp_path);
    return b;
}

static buf_t buf_copy(const buf_t *b)
{
    buf_t c = {malloc(b->n ? b->n : 1), b->n};
    assert_non_null(c.p);
    memcpy(c.p, b->p, b->n);
    return c;
}

static void store_u32(buf_t *b, size_t off, uint32_t v)
{
    assert_true(off + 4 <= b->n);
    for (int i = 0; i < 4; i++)
        b->p[off + i] = (unsigned char)(v >> (8 * i));
}

/* The offset of section id's content in b (the test's own walk). */
static size_t section_at(const buf_t *b, uint32_t id)
{
    size_t pos = IDEN3_HEADER_SIZE;
    uint32_t n = io_load_u32(b->p + 8);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t size = io_load_u64(b->p + pos + 4);
        if (io_load_u32(b->p + pos) == id)
            return pos + IDEN3_SECTION_RECORD_SIZE;
        pos += IDEN3_SECTION_RECORD_SIZE + size;
    }
    fail_msg("section %u not found", id);
    return 0;
}

#define BAD "bad.zkey"

static void assert_mentions(const char *msg, const char *const *subs)
{
    for (; *subs; subs++)
        if (!strstr(msg, *subs))
            fail_msg("message \"%s\" does not mention \"%s\"", msg, *subs);
}

static void expect_zkey_(const buf_t *b, unsigned flags, cuzk_status_t status,
                         const char *const *subs)
{
    char err[IO_ERR_MAX] = "";
    zkey_t k;
    cuzk_status_t st = zkey_file_parse(&k, b->p, b->n, BAD, NULL, flags, NULL, err, sizeof(err));
    if (st != status)
        fail_msg("status %d (%s), expected %d; message: %s", st, cuzk_strerror(st), status, err);
    assert_int_equal(k.curve, R1CS_CURVE_NONE);
    assert_null(k.a);
    assert_non_null(strstr(err, BAD ": "));
    assert_mentions(err, subs);
}

#define expect_zkey(b, status, ...)                                                                \
    expect_zkey_(b, 0, status, (const char *const[]){__VA_ARGS__, NULL})

static const r1cs_curve_t curves[] = {R1CS_CURVE_BN254, R1CS_CURVE_BLS12_381};

static uint32_t n8q_of(r1cs_curve_t curve)
{
    return curve == R1CS_CURVE_BN254 ? 32 : 48;
}

/* ---- round trips ------------------------------------------------------------ */

static void assert_same_key(const zkey_t *x, const zkey_t *y)
{
    assert_int_equal(x->curve, y->curve);
    assert_int_equal(x->n8q, n8q_of(x->curve));
    assert_int_equal(x->n8r, 32);
    assert_int_equal(x->n_vars, y->n_vars);
    assert_int_equal(x->n_public, y->n_public);
    assert_int_equal(x->domain_size, y->domain_size);
    assert_int_equal(x->n_coeffs, y->n_coeffs);
    if (x->curve == R1CS_CURVE_BN254) {
        const zkey_bn254_t *a = &x->u.bn254, *b = &y->u.bn254;
        assert_true(bn254_g1_affine_equal(&a->alpha1, &b->alpha1));
        assert_true(bn254_g1_affine_equal(&a->beta1, &b->beta1));
        assert_true(bn254_g1_affine_equal(&a->delta1, &b->delta1));
        assert_true(bn254_g2_affine_equal(&a->beta2, &b->beta2));
        assert_true(bn254_g2_affine_equal(&a->gamma2, &b->gamma2));
        assert_true(bn254_g2_affine_equal(&a->delta2, &b->delta2));
    } else {
        const zkey_bls381_t *a = &x->u.bls381, *b = &y->u.bls381;
        assert_true(bls381_g1_affine_equal(&a->alpha1, &b->alpha1));
        assert_true(bls381_g1_affine_equal(&a->beta1, &b->beta1));
        assert_true(bls381_g1_affine_equal(&a->delta1, &b->delta1));
        assert_true(bls381_g2_affine_equal(&a->beta2, &b->beta2));
        assert_true(bls381_g2_affine_equal(&a->gamma2, &b->gamma2));
        assert_true(bls381_g2_affine_equal(&a->delta2, &b->delta2));
    }
    for (uint32_t id = ZKEY_SECTION_IC; id <= ZKEY_SECTION_POINTS_H; id++) {
        if (id == ZKEY_SECTION_COEFFS)
            continue;
        zkey_points_t p = zkey_points(x, id), q = zkey_points(y, id);
        assert_int_equal(p.count, q.count);
        assert_int_equal(p.point_bytes, q.point_bytes);
        assert_memory_equal(p.data, q.data, p.count * p.point_bytes);
    }
    for (uint32_t i = 0; i < x->n_coeffs; i++) {
        zkey_coeff_t e = zkey_coeff(x, i), f = zkey_coeff(y, i);
        assert_int_equal(e.m, f.m);
        assert_int_equal(e.c, f.c);
        assert_int_equal(e.s, f.s);
        assert_memory_equal(e.value, f.value, IO_FR_BYTES);
    }
}

static void test_round_trip(void **state)
{
    (void)state;
    cuzk_status_t pst;
    pool_t *pool = pool_new(4, &pst);
    assert_int_equal(pst, CUZK_OK);
    char err[IO_ERR_MAX] = "";
    for (int it = 0; it < test_iters(3); it++) {
        for (size_t ci = 0; ci < 2; ci++) {
            r1cs_curve_t curve = curves[ci];
            uint32_t n_public = (uint32_t)(rng_next(&test_rng) % 4);
            uint32_t n_vars = n_public + 1 + (uint32_t)(rng_next(&test_rng) % 6);
            uint32_t domain = 8u << (rng_next(&test_rng) % 3);
            tkey_t t;
            tkey_make(&t, curve, n_vars, n_public, domain, (uint32_t)(it * 7 % 20));
            set_tmp_path();
            if (zkey_file_write(tmp_path, &t.k, NULL, err, sizeof(err)) != CUZK_OK)
                fail_msg("%s", err);
            zkey_t k;
            cuzk_status_t st =
                zkey_file_read(&k, tmp_path, it % 2 ? pool : NULL, 0, err, sizeof(err));
            if (st != CUZK_OK)
                fail_msg("%s", err);
            assert_same_key(&k, &t.k);
            /* The pointers are into the mapping, not copies. */
            assert_true(k.a >= k.map.data && k.h < k.map.data + k.map.size);
            zkey_free(&k);
            assert_int_equal(k.curve, R1CS_CURVE_NONE);
            unlink(tmp_path);

            /* Layout: sections 1-10 in order with the table's sizes. */
            buf_t b = tkey_bytes(&t);
            uint32_t n8q = n8q_of(curve);
            uint64_t sizes[11] = {0,
                                  4,
                                  20 + 19 * n8q + 32,
                                  (uint64_t)(n_public + 1) * 2 * n8q,
                                  4 + (uint64_t)t.k.n_coeffs * (12 + 32),
                                  (uint64_t)n_vars * 2 * n8q,
                                  (uint64_t)n_vars * 2 * n8q,
                                  (uint64_t)n_vars * 4 * n8q,
                                  (uint64_t)(n_vars - n_public - 1) * 2 * n8q,
                                  (uint64_t)domain * 2 * n8q,
                                  68};
            assert_memory_equal(b.p, "zkey", 4);
            assert_int_equal(io_load_u32(b.p + 4), 1);
            assert_int_equal(io_load_u32(b.p + 8), 10);
            size_t pos = IDEN3_HEADER_SIZE;
            for (uint32_t id = 1; id <= 10; id++) {
                assert_int_equal(io_load_u32(b.p + pos), id);
                assert_int_equal(io_load_u64(b.p + pos + 4), sizes[id]);
                pos += IDEN3_SECTION_RECORD_SIZE + sizes[id];
            }
            assert_int_equal(pos, b.n);
            /* snarkjs puts section 2's content at offset 40. */
            assert_int_equal(section_at(&b, ZKEY_SECTION_GROTH16_HEADER), 40);
            free(b.p);
            tkey_free(&t);
        }
    }
    pool_free(pool);
}

/* The coefficient value is coef·R^2 mod r: for coef = 1 that is R^2 mod r,
 * whose bytes FORMATS.md section 1 gives for BN254. */
static void test_coeff_encoding(void **state)
{
    (void)state;
    static const unsigned char r2_be[32] = {0x02, 0x16, 0xd0, 0xb1, 0x7f, 0x4e, 0x44, 0xa5,
                                            0x8c, 0x49, 0x83, 0x3d, 0x53, 0xbb, 0x80, 0x85,
                                            0x53, 0xfe, 0x3a, 0xb1, 0xe3, 0x5c, 0x59, 0xe3,
                                            0x1b, 0xb8, 0xe6, 0x45, 0xae, 0x21, 0x6d, 0xa7};
    unsigned char e[ZKEY_COEFF_BYTES];
    bn254_fr_t one;
    bn254_fr_set_one(&one);
    zkey_coeff_encode(R1CS_CURVE_BN254, e, 1, 0x01020304, 7, &one);
    assert_int_equal(io_load_u32(e), 1);
    assert_int_equal(io_load_u32(e + 4), 0x01020304);
    assert_int_equal(io_load_u32(e + 8), 7);
    for (int i = 0; i < 32; i++)
        assert_int_equal(e[12 + i], r2_be[31 - i]);
}

/* ---- corrupt files -------------------------------------------------------- */

static void test_truncated(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < 2; ci++) {
        tkey_t t;
        tkey_make(&t, curves[ci], 5, 2, 8, 6);
        buf_t b = tkey_bytes(&t);
        size_t pos = IDEN3_HEADER_SIZE;
        size_t cuts[80], n = 0;
        cuts[n++] = 0;
        cuts[n++] = 11;
        for (uint32_t i = 0; i < 10; i++) {
            uint64_t size = io_load_u64(b.p + pos + 4);
            size_t content = pos + IDEN3_SECTION_RECORD_SIZE;
            size_t more[] = {pos, pos + 7, content, content + size / 2, content + size - 1};
            for (size_t j = 0; j < 5; j++)
                cuts[n++] = more[j];
            pos = content + size;
        }
        for (size_t i = 0; i < n; i++) {
            buf_t c = {b.p, cuts[i]};
            expect_zkey(&c, CUZK_EBADFILE, "truncated");
        }
        free(b.p);
        tkey_free(&t);
    }
}

static void test_corrupt_container_protocol(void **state)
{
    (void)state;
    tkey_t t;
    tkey_make(&t, R1CS_CURVE_BN254, 4, 1, 8, 3);
    buf_t b = tkey_bytes(&t), c;

    c = buf_copy(&b);
    c.p[0] = 'r';
    expect_zkey(&c, CUZK_EBADFILE, "zkey");
    free(c.p);

    c = buf_copy(&b);
    store_u32(&c, 4, 2);
    expect_zkey(&c, CUZK_EUNSUPPORTED, "version");
    free(c.p);

    size_t p1 = section_at(&b, ZKEY_SECTION_PROTOCOL);
    c = buf_copy(&b);
    store_u32(&c, p1, ZKEY_PROTOCOL_PLONK);
    expect_zkey(&c, CUZK_EUNSUPPORTED, "section 1 (protocol)", "PLONK");
    free(c.p);
    c = buf_copy(&b);
    store_u32(&c, p1, 7);
    expect_zkey(&c, CUZK_EBADFILE, "section 1 (protocol)", "protocol 7");
    free(c.p);

    /* A required section missing: H renamed to an unknown id. */
    c = buf_copy(&b);
    store_u32(&c, section_at(&b, ZKEY_SECTION_POINTS_H) - IDEN3_SECTION_RECORD_SIZE, 11);
    expect_zkey(&c, CUZK_EBADFILE, "section 9 (H) is missing");
    free(c.p);

    free(b.p);
    tkey_free(&t);
}

static void test_corrupt_header(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < 2; ci++) {
        r1cs_curve_t curve = curves[ci];
        uint32_t n8q = n8q_of(curve);
        tkey_t t;
        tkey_make(&t, curve, 5, 2, 8, 4);
        buf_t b = tkey_bytes(&t), c;
        size_t h = section_at(&b, ZKEY_SECTION_GROTH16_HEADER);
        size_t r_at = h + 4 + n8q + 4, f_at = r_at + 32;

        c = buf_copy(&b);
        c.p[h + 4] ^= 1; /* q */
        expect_zkey(&c, CUZK_EUNSUPPORTED, "section 2 (header)", "q = 0x", "r = 0x", "unknown");
        free(c.p);

        c = buf_copy(&b);
        store_u32(&c, h, 40);
        expect_zkey(&c, CUZK_EUNSUPPORTED, "n8q = 40");
        free(c.p);

        c = buf_copy(&b);
        store_u32(&c, r_at - 4, 48);
        expect_zkey(&c, CUZK_EUNSUPPORTED, "n8r = 48");
        free(c.p);

        /* Mixed curves: this curve's q with the other curve's r. */
        c = buf_copy(&b);
        io_fr_prime_le(curve == R1CS_CURVE_BN254 ? R1CS_CURVE_BLS12_381 : R1CS_CURVE_BN254,
                       c.p + r_at);
        expect_zkey(&c, CUZK_EUNSUPPORTED, "BN254", "BLS12-381", "one curve");
        free(c.p);

        c = buf_copy(&b);
        store_u32(&c, f_at + 4, 5); /* nPublic = nVars */
        expect_zkey(&c, CUZK_EBADFILE, "nVars = 5 must exceed nPublic = 5");
        free(c.p);

        c = buf_copy(&b);
        store_u32(&c, f_at + 8, 12);
        expect_zkey(&c, CUZK_EBADFILE, "domainSize = 12", "power of two");
        free(c.p);

        c = buf_copy(&b);
        store_u32(&c, f_at + 8, 0);
        expect_zkey(&c, CUZK_EBADFILE, "domainSize = 0");
        free(c.p);

        /* Section sizes that disagree with the header. */
        c = buf_copy(&b);
        store_u32(&c, f_at, 6); /* nVars */
        expect_zkey(&c, CUZK_EBADFILE, "section 5 (A): size", "nVars 6");
        free(c.p);
        c = buf_copy(&b);
        store_u32(&c, f_at + 4, 3); /* nPublic: IC count mismatch */
        expect_zkey(&c, CUZK_EBADFILE, "section 3 (IC): size", "4 points");
        free(c.p);
        c = buf_copy(&b);
        store_u32(&c, f_at + 8, 16); /* domainSize */
        expect_zkey(&c, CUZK_EBADFILE, "section 9 (H): size", "16 points");
        free(c.p);

        /* Header points: off the curve, not canonical, infinity, outside
         * the subgroup. */
        size_t alpha = f_at + 12, beta2 = alpha + 4 * n8q;
        c = buf_copy(&b);
        c.p[alpha] ^= 1;
        expect_zkey(&c, CUZK_ENOTONCURVE, "section 2 (header)", "alpha1 is not on the curve");
        free(c.p);
        c = buf_copy(&b);
        memset(c.p + beta2 + n8q, 0xff, n8q);
        expect_zkey(&c, CUZK_ENONCANONICAL, "beta2 has a coordinate that is not below q");
        free(c.p);
        c = buf_copy(&b);
        memset(c.p + beta2, 0, 4 * n8q);
        expect_zkey(&c, CUZK_EINFINITY, "beta2 is the point at infinity");
        free(c.p);
        c = buf_copy(&b);
        non_subgroup_bytes(curve, true, c.p + beta2);
        expect_zkey(&c, CUZK_ENOTINSUBGROUP, "beta2 is not in the order-r subgroup");
        /* ... also for a trusted key: the header is always checked. */
        expect_zkey_(&c, ZKEY_TRUSTED, CUZK_ENOTINSUBGROUP, (const char *const[]){"beta2", NULL});
        free(c.p);

        free(b.p);
        tkey_free(&t);
    }
}

static void test_corrupt_coeffs(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < 2; ci++) {
        tkey_t t;
        tkey_make(&t, curves[ci], 5, 2, 8, 6);
        buf_t b = tkey_bytes(&t), c;
        size_t s4 = section_at(&b, ZKEY_SECTION_COEFFS), e3 = s4 + 4 + 3 * ZKEY_COEFF_BYTES;

        c = buf_copy(&b);
        store_u32(&c, s4, 7);
        expect_zkey(&c, CUZK_EBADFILE, "section 4 (coeffs)", "nCoef", "7 × 44");
        free(c.p);

        c = buf_copy(&b);
        store_u32(&c, e3, 2);
        expect_zkey(&c, CUZK_EBADFILE, "section 4 (coeffs)", "coefficient 3", "m = 2");
        free(c.p);
        c = buf_copy(&b);
        store_u32(&c, e3 + 4, 8);
        expect_zkey(&c, CUZK_EBADFILE, "coefficient 3", "c = 8", "domainSize is 8");
        free(c.p);
        c = buf_copy(&b);
        store_u32(&c, e3 + 8, 5);
        expect_zkey(&c, CUZK_EBADFILE, "coefficient 3", "s = 5", "nVars is 5");
        free(c.p);
        c = buf_copy(&b);
        io_fr_prime_le(curves[ci], c.p + e3 + 12);
        expect_zkey(&c, CUZK_ENONCANONICAL, "coefficient 3", "not below r");
        free(c.p);
        /* Two bad entries: the lower one is named. */
        c = buf_copy(&b);
        store_u32(&c, e3, 2);
        store_u32(&c, e3 + ZKEY_COEFF_BYTES, 2);
        expect_zkey(&c, CUZK_EBADFILE, "coefficient 3");
        free(c.p);

        free(b.p);
        tkey_free(&t);
    }
}

/*
 * Key b with a point outside the subgroup at B2[i2], then (BLS12-381,
 * whose G1 has a cofactor) at H[ih]: rejected with the section and the
 * index named, on the caller alone and on pool; accepted when trusted.
 */
static void outside_subgroup(const buf_t *b, r1cs_curve_t curve, uint32_t i2, uint32_t ih,
                             pool_t *pool)
{
    uint32_t g1 = 2 * n8q_of(curve), g2 = 2 * g1;
    for (int g = 0; g < (curve == R1CS_CURVE_BLS12_381 ? 2 : 1); g++) {
        buf_t c = buf_copy(b);
        char says[64];
        if (g == 0) {
            non_subgroup_bytes(curve, true,
                               c.p + section_at(b, ZKEY_SECTION_POINTS_B2) + (size_t)i2 * g2);
            snprintf(says, sizeof(says), "section 7 (B2): point %" PRIu32 " is not in", i2);
        } else {
            non_subgroup_bytes(curve, false,
                               c.p + section_at(b, ZKEY_SECTION_POINTS_H) + (size_t)ih * g1);
            snprintf(says, sizeof(says), "section 9 (H): point %" PRIu32 " is not in", ih);
        }
        expect_zkey(&c, CUZK_ENOTINSUBGROUP, says);
        char err[IO_ERR_MAX];
        zkey_t k;
        assert_int_equal(zkey_file_parse(&k, c.p, c.n, BAD, pool, 0, NULL, err, sizeof(err)),
                         CUZK_ENOTINSUBGROUP);
        assert_non_null(strstr(err, says));
        assert_int_equal(zkey_file_parse(&k, c.p, c.n, BAD, g ? NULL : pool, ZKEY_TRUSTED, NULL,
                                         err, sizeof(err)),
                         CUZK_OK);
        zkey_free(&k);
        free(c.p);
    }
}

/*
 * A key large enough that the reader checks the subgroup in batches
 * (NAME_msm_subgroup_check): it passes on the caller alone and on a pool,
 * and a point outside is still named (outside_subgroup).
 */
static void subgroup_batches(r1cs_curve_t curve, pool_t *pool)
{
    msm_sg_plan_t plan;
    msm_sg_plan(&plan, 1200, 1); /* the B2 section on the caller alone */
    assert_true(plan.t > 0);
    tkey_t t;
    tkey_make(&t, curve, 1200, 2, 2048, 4);
    buf_t b = tkey_bytes(&t);
    char err[IO_ERR_MAX];
    zkey_t k;
    for (int on_pool = 0; on_pool < 2; on_pool++) {
        assert_int_equal(
            zkey_file_parse(&k, b.p, b.n, BAD, on_pool ? pool : NULL, 0, NULL, err, sizeof(err)),
            CUZK_OK);
        zkey_free(&k);
    }
    outside_subgroup(&b, curve, 1000, 1500, pool);
    /* H[1500] off the curve: named as such, the points before it checked in
     * batches; with B2[100] (earlier in the file) outside the subgroup too,
     * B2[100] is named. */
    uint32_t g1 = 2 * n8q_of(curve), g2 = 2 * g1;
    buf_t c = buf_copy(&b);
    unsigned char *h1500 = c.p + section_at(&b, ZKEY_SECTION_POINTS_H) + 1500 * g1;
    memset(h1500, 0, g1);
    h1500[0] = 1; /* (raw 1, 0): not on the curve */
    expect_zkey(&c, CUZK_ENOTONCURVE, "section 9 (H): point 1500 is not on the curve");
    non_subgroup_bytes(curve, true, c.p + section_at(&b, ZKEY_SECTION_POINTS_B2) + 100 * g2);
    expect_zkey(&c, CUZK_ENOTINSUBGROUP, "section 7 (B2): point 100 is not in");
    free(c.p);
    free(b.p);
    tkey_free(&t);
}

static void test_corrupt_points(void **state)
{
    (void)state;
    cuzk_status_t pst;
    pool_t *pool = pool_new(3, &pst);
    assert_int_equal(pst, CUZK_OK);
    for (size_t ci = 0; ci < 2; ci++) {
        r1cs_curve_t curve = curves[ci];
        uint32_t g1 = 2 * n8q_of(curve);
        tkey_t t;
        tkey_make(&t, curve, 6, 2, 64, 4);
        buf_t b = tkey_bytes(&t), c;
        size_t h = section_at(&b, ZKEY_SECTION_POINTS_H);

        /* Off the curve: x + 1 in Montgomery form (canonical unless x = q
         * - 1, which a random point never is). Index 37 of H. */
        c = buf_copy(&b);
        memset(c.p + h + 37 * g1, 0, g1);
        c.p[h + 37 * g1] = 1; /* (raw 1, 0): y^2 = 0 != x^3 + b */
        expect_zkey(&c, CUZK_ENOTONCURVE, "section 9 (H): point 37 is not on the curve");
        /* The lowest failing index wins on a pool too. */
        memset(c.p + h + 50 * g1, 0xff, g1);
        char err[IO_ERR_MAX];
        zkey_t k;
        assert_int_equal(zkey_file_parse(&k, c.p, c.n, BAD, pool, 0, NULL, err, sizeof(err)),
                         CUZK_ENOTONCURVE);
        assert_non_null(strstr(err, "point 37 "));
        free(c.p);

        c = buf_copy(&b);
        memset(c.p + section_at(&b, ZKEY_SECTION_POINTS_C) + 2 * g1 + g1 / 2, 0xff, g1 / 2);
        expect_zkey(&c, CUZK_ENONCANONICAL, "section 8 (C): point 2 has a coordinate");
        free(c.p);

        c = buf_copy(&b);
        c.p[section_at(&b, ZKEY_SECTION_IC) + g1 + 1] ^= 0x10;
        expect_zkey(&c, CUZK_ENOTONCURVE, "section 3 (IC): point 1 is not on the curve");
        free(c.p);

        /* Outside the subgroup: rejected unless trusted. */
        outside_subgroup(&b, curve, 4, 63, pool);

        free(b.p);
        tkey_free(&t);
        subgroup_batches(curve, pool);
    }
    pool_free(pool);
}

static void test_write_errors(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    tkey_t t;
    tkey_make(&t, R1CS_CURVE_BN254, 3, 1, 4, 2);
    set_tmp_path();
    zkey_t k = t.k;
    k.curve = R1CS_CURVE_NONE;
    assert_int_equal(zkey_file_write(tmp_path, &k, NULL, err, sizeof(err)), CUZK_EINVAL);
    assert_non_null(strstr(err, "no curve"));
    k = t.k;
    k.domain_size = 6;
    assert_int_equal(zkey_file_write(tmp_path, &k, NULL, err, sizeof(err)), CUZK_EINVAL);
    assert_non_null(strstr(err, "power of two"));
    k = t.k;
    k.n_public = 3;
    assert_int_equal(zkey_file_write(tmp_path, &k, NULL, err, sizeof(err)), CUZK_EINVAL);
    assert_int_equal(access(tmp_path, F_OK), -1);
    assert_int_equal(zkey_file_write("/nonexistent/dir/k.zkey", &t.k, NULL, err, sizeof(err)),
                     CUZK_EIO);
    assert_int_equal(zkey_file_read(&k, "/nonexistent/dir/k.zkey", NULL, 0, err, sizeof(err)),
                     CUZK_ENOFILE);
    tkey_free(&t);
}

int main(void)
{
    test_seed_init("test_zkey");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),     cmocka_unit_test(test_coeff_encoding),
        cmocka_unit_test(test_truncated),      cmocka_unit_test(test_corrupt_container_protocol),
        cmocka_unit_test(test_corrupt_header), cmocka_unit_test(test_corrupt_coeffs),
        cmocka_unit_test(test_corrupt_points), cmocka_unit_test(test_write_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
