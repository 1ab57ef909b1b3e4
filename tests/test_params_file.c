/*
 * Tests of the bellperson readers and writers (src/io/params_file.h):
 * .params, .vk and 192-byte proofs.
 *
 *  - Random parameters (points = random multiples of the generators) go
 *    writer → reader, serially and on a pool, trusted or not, and come back
 *    identical; the bytes follow FORMATS.md section 8.2 exactly (u32 BE
 *    lengths at the offsets the counts give, G2 as c1 ‖ c0, uncompressed
 *    big-endian coordinates), and a .vk is the first block of a .params.
 *  - Proofs round trip alone and concatenated, compressed with the flags of
 *    section 8.1.
 *  - Every check of the readers has a corrupt file that trips it: truncation
 *    at and around every section boundary, one byte short and long, counts
 *    that disagree, each flag bit, a coordinate >= p, a point off the curve,
 *    one outside the subgroup, x = 0, infinity; the status is asserted and
 *    the message must name the file and the section (and the item).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"
#include "test_file_util.h"

#include "ff/bls381_fr.h"
#include "io/params_file.h"
#include "msm/msm.h"

/* ---- points ----------------------------------------------------------------- */

/* rand_G: a random non-zero multiple of G's generator. non_subgroup_G: a
 * point on the curve outside the order-r subgroup (a random x with a
 * point, not multiplied by the cofactor; the loop checks, though the
 * chance of landing in the subgroup is about 2^-126 for G1, less for G2). */
#define TEST_POINTS(G, F)                                                                          \
    static void rand_##G(bls381_##G##_affine_t *r)                                                 \
    {                                                                                              \
        bls381_fr_t s;                                                                             \
        uint64_t k[EC_SCALAR_LIMBS];                                                               \
        bls381_##G##_affine_t gen;                                                                 \
        bls381_##G##_jac_t g, p;                                                                   \
        do {                                                                                       \
            assert_int_equal(bls381_fr_random(&s, &test_rng), CUZK_OK);                            \
        } while (bls381_fr_is_zero(&s));                                                           \
        bls381_fr_to_canonical(k, &s);                                                             \
        bls381_##G##_generator(&gen);                                                              \
        bls381_##G##_jac_from_affine(&g, &gen);                                                    \
        bls381_##G##_jac_mul_vartime(&p, &g, k);                                                   \
        bls381_##G##_jac_to_affine(r, &p);                                                         \
    }                                                                                              \
    static void non_subgroup_##G(bls381_##G##_affine_t *r)                                         \
    {                                                                                              \
        for (;;) {                                                                                 \
            bls381_##F##_t x;                                                                      \
            assert_int_equal(bls381_##F##_random(&x, &test_rng), CUZK_OK);                         \
            if (bls381_##G##_affine_from_x_vartime(r, &x, rng_next(&test_rng) & 1) &&              \
                !bls381_##G##_affine_is_in_subgroup_vartime(r))                                    \
                return;                                                                            \
        }                                                                                          \
    }

TEST_POINTS(g1, fp)
TEST_POINTS(g2, fp2)

/* ---- random parameters --------------------------------------------------------- */

static bls381_g1_affine_t *rand_g1s(uint32_t n)
{
    bls381_g1_affine_t *p = calloc(n ? n : 1, sizeof(*p));
    assert_non_null(p);
    for (uint32_t i = 0; i < n; i++)
        rand_g1(&p[i]);
    return p;
}

static bls381_g2_affine_t *rand_g2s(uint32_t n)
{
    bls381_g2_affine_t *p = calloc(n ? n : 1, sizeof(*p));
    assert_non_null(p);
    for (uint32_t i = 0; i < n; i++)
        rand_g2(&p[i]);
    return p;
}

static void tvk_make(bp_vk_t *vk, uint32_t n_ic)
{
    memset(vk, 0, sizeof(*vk));
    rand_g1(&vk->alpha1);
    rand_g1(&vk->beta1);
    rand_g2(&vk->beta2);
    rand_g2(&vk->gamma2);
    rand_g1(&vk->delta1);
    rand_g2(&vk->delta2);
    vk->n_ic = n_ic;
    vk->ic = rand_g1s(n_ic);
}

/* Caller-owned arrays (bp_params_t's writer convention); tparams_free. */
static void tparams_make(bp_params_t *p, uint32_t n_ic, uint32_t n_h, uint32_t n_l, uint32_t n_a,
                         uint32_t n_b)
{
    memset(p, 0, sizeof(*p));
    tvk_make(&p->vk, n_ic);
    p->n_h = n_h;
    p->n_l = n_l;
    p->n_a = n_a;
    p->n_b = n_b;
    p->h = rand_g1s(n_h);
    p->l = rand_g1s(n_l);
    p->a = rand_g1s(n_a);
    p->b_g1 = rand_g1s(n_b);
    p->b_g2 = rand_g2s(n_b);
}

static void tparams_free(bp_params_t *p)
{
    free(p->h);
    free(p->l);
    free(p->a);
    free(p->b_g1);
    free(p->b_g2);
    bp_vk_free(&p->vk);
    memset(p, 0, sizeof(*p));
}

/* Random small counts: n_h + 1 a power of two, n_a >= n_ic. */
static void tparams_make_random(bp_params_t *p)
{
    uint32_t n_ic = 1 + (uint32_t)(rng_next(&test_rng) % 4);
    uint32_t n_h = (1u << (rng_next(&test_rng) % 5)) - 1;
    uint32_t n_l = (uint32_t)(rng_next(&test_rng) % 6);
    uint32_t n_a = n_ic + (uint32_t)(rng_next(&test_rng) % 4);
    uint32_t n_b = (uint32_t)(rng_next(&test_rng) % 5);
    tparams_make(p, n_ic, n_h, n_l, n_a, n_b);
}

/* ---- files in memory ------------------------------------------------------------- */

/* The bytes a writer just wrote to tmp_path (st its status); the file is
 * removed. */
static buf_t written_bytes(cuzk_status_t st, const char *err)
{
    if (st != CUZK_OK)
        fail_msg("write: %s", err);
    buf_t b = file_bytes(tmp_path);
    unlink(tmp_path);
    return b;
}

static buf_t params_bytes(const bp_params_t *p)
{
    char err[IO_ERR_MAX] = "";
    set_tmp_path("params");
    return written_bytes(bp_params_write(tmp_path, p, err, sizeof(err)), err);
}

static buf_t vk_bytes(const bp_vk_t *vk)
{
    char err[IO_ERR_MAX] = "";
    set_tmp_path("params");
    return written_bytes(bp_vk_write(tmp_path, vk, err, sizeof(err)), err);
}

static uint32_t load_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (24 - 8 * i));
}

/* The test's own offsets of a .params: where each vector's u32 length
 * sits (index 0 = ic ... 5 = b_g2) and the end of the file. */
typedef struct {
    size_t len_at[6];
    size_t end;
} offsets_t;

static const char *const section_names[6] = {"ic", "h", "l", "a", "b_g1", "b_g2"};

static offsets_t offsets_of(const bp_params_t *p, int n_vectors)
{
    const uint32_t counts[6] = {p->vk.n_ic, p->n_h, p->n_l, p->n_a, p->n_b, p->n_b};
    offsets_t o;
    size_t pos = 864;
    for (int i = 0; i < n_vectors; i++) {
        o.len_at[i] = pos;
        pos += 4 + (size_t)counts[i] * (i == 5 ? 192 : 96);
    }
    o.end = pos;
    return o;
}

#define BAD "bad.params"

static void expect_params_(const buf_t *b, pool_t *pool, unsigned flags, cuzk_status_t status,
                           const char *const *subs)
{
    char err[IO_ERR_MAX] = "";
    bp_params_t p;
    cuzk_status_t st = bp_params_parse(&p, b->p, b->n, BAD, pool, flags, NULL, err, sizeof(err));
    if (st != status)
        fail_msg("status %d (%s), expected %d; message: %s", st, cuzk_strerror(st), status, err);
    if (status != CUZK_OK) {
        assert_null(p.mem);
        assert_null(p.vk.ic);
        assert_int_equal(p.n_h, 0);
        assert_message(err, BAD, subs);
    }
    bp_params_free(&p);
}

#define expect_params(b, status, ...)                                                              \
    expect_params_(b, NULL, 0, status, (const char *const[]){__VA_ARGS__, NULL})
#define expect_params_trusted(b, status, ...)                                                      \
    expect_params_(b, NULL, BP_PARAMS_TRUSTED, status, (const char *const[]){__VA_ARGS__, NULL})

static void expect_vk_(const buf_t *b, cuzk_status_t status, const char *const *subs)
{
    char err[IO_ERR_MAX] = "";
    bp_vk_t vk;
    cuzk_status_t st = bp_vk_parse(&vk, b->p, b->n, "bad.vk", err, sizeof(err));
    if (st != status)
        fail_msg("status %d (%s), expected %d; message: %s", st, cuzk_strerror(st), status, err);
    assert_null(vk.ic);
    assert_int_equal(vk.n_ic, 0);
    assert_message(err, "bad.vk", subs);
}

#define expect_vk(b, status, ...) expect_vk_(b, status, (const char *const[]){__VA_ARGS__, NULL})

/* ---- round trips and layout --------------------------------------------------------- */

static void assert_same_vk(const bp_vk_t *x, const bp_vk_t *y)
{
    assert_true(bls381_g1_affine_equal(&x->alpha1, &y->alpha1));
    assert_true(bls381_g1_affine_equal(&x->beta1, &y->beta1));
    assert_true(bls381_g2_affine_equal(&x->beta2, &y->beta2));
    assert_true(bls381_g2_affine_equal(&x->gamma2, &y->gamma2));
    assert_true(bls381_g1_affine_equal(&x->delta1, &y->delta1));
    assert_true(bls381_g2_affine_equal(&x->delta2, &y->delta2));
    assert_int_equal(x->n_ic, y->n_ic);
    for (uint32_t i = 0; i < x->n_ic; i++)
        assert_true(bls381_g1_affine_equal(&x->ic[i], &y->ic[i]));
}

static void assert_same_g1s(const bls381_g1_affine_t *x, const bls381_g1_affine_t *y, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        assert_true(bls381_g1_affine_equal(&x[i], &y[i]));
}

static void assert_same_params(const bp_params_t *x, const bp_params_t *y)
{
    assert_same_vk(&x->vk, &y->vk);
    assert_int_equal(x->n_h, y->n_h);
    assert_int_equal(x->n_l, y->n_l);
    assert_int_equal(x->n_a, y->n_a);
    assert_int_equal(x->n_b, y->n_b);
    assert_same_g1s(x->h, y->h, x->n_h);
    assert_same_g1s(x->l, y->l, x->n_l);
    assert_same_g1s(x->a, y->a, x->n_a);
    assert_same_g1s(x->b_g1, y->b_g1, x->n_b);
    for (uint32_t i = 0; i < x->n_b; i++)
        assert_true(bls381_g2_affine_equal(&x->b_g2[i], &y->b_g2[i]));
}

static void test_round_trip(void **state)
{
    (void)state;
    cuzk_status_t pst;
    pool_t *pool = pool_new(4, &pst);
    assert_int_equal(pst, CUZK_OK);
    char err[IO_ERR_MAX] = "";
    for (int it = 0; it < test_iters(6); it++) {
        bp_params_t t, p;
        tparams_make_random(&t);
        set_tmp_path("params");
        if (bp_params_write(tmp_path, &t, err, sizeof(err)) != CUZK_OK)
            fail_msg("%s", err);
        unsigned flags = it % 3 == 2 ? BP_PARAMS_TRUSTED : 0;
        if (bp_params_read(&p, tmp_path, it % 2 ? pool : NULL, flags, err, sizeof(err)) != CUZK_OK)
            fail_msg("%s", err);
        assert_same_params(&p, &t);
        assert_non_null(p.mem);
        bp_params_free(&p);
        assert_null(p.mem);
        assert_int_equal(p.vk.n_ic, 0);

        /* The .vk of the same key: the first block of the .params. */
        bp_vk_t vk;
        if (bp_vk_write(tmp_path, &t.vk, err, sizeof(err)) != CUZK_OK)
            fail_msg("%s", err);
        if (bp_vk_read(&vk, tmp_path, err, sizeof(err)) != CUZK_OK)
            fail_msg("%s", err);
        assert_same_vk(&vk, &t.vk);
        bp_vk_free(&vk);
        unlink(tmp_path);
        tparams_free(&t);
    }
    pool_free(pool);
}

/* FORMATS.md section 8.1: a coordinate is 48 bytes BE, plain. */
static void assert_fp_be(const unsigned char *at, const bls381_fp_t *a)
{
    unsigned char be[48];
    bls381_fp_to_bytes_be(be, a);
    assert_memory_equal(at, be, 48);
}

static void assert_g1_at(const unsigned char *at, const bls381_g1_affine_t *p)
{
    assert_fp_be(at, &p->x);
    assert_fp_be(at + 48, &p->y);
}

/* G2: x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0, c1 first. */
static void assert_g2_at(const unsigned char *at, const bls381_g2_affine_t *p)
{
    assert_fp_be(at, &p->x.c1);
    assert_fp_be(at + 48, &p->x.c0);
    assert_fp_be(at + 96, &p->y.c1);
    assert_fp_be(at + 144, &p->y.c0);
}

static void test_layout(void **state)
{
    (void)state;
    bp_params_t t;
    tparams_make(&t, 3, 7, 2, 5, 4);
    buf_t b = params_bytes(&t);
    /* 864 + 6·4 + 96·(ic + h + l + a + b_g1) + 192·b_g2 */
    assert_int_equal(b.n, 864 + 24 + 96 * (3 + 7 + 2 + 5 + 4) + 192 * 4);
    assert_g1_at(b.p + 0, &t.vk.alpha1);
    assert_g1_at(b.p + 96, &t.vk.beta1);
    assert_g2_at(b.p + 192, &t.vk.beta2);
    assert_g2_at(b.p + 384, &t.vk.gamma2);
    assert_g1_at(b.p + 576, &t.vk.delta1);
    assert_g2_at(b.p + 672, &t.vk.delta2);
    /* The lengths, u32 big-endian, where the counts put them. */
    size_t ic = 864, h = ic + 4 + 3 * 96, l = h + 4 + 7 * 96, a = l + 4 + 2 * 96,
           b1 = a + 4 + 5 * 96, b2 = b1 + 4 + 4 * 96;
    static const unsigned char ic_len[4] = {0, 0, 0, 3};
    assert_memory_equal(b.p + ic, ic_len, 4);
    assert_int_equal(load_be32(b.p + h), 7);
    assert_int_equal(load_be32(b.p + l), 2);
    assert_int_equal(load_be32(b.p + a), 5);
    assert_int_equal(load_be32(b.p + b1), 4);
    assert_int_equal(load_be32(b.p + b2), 4);
    assert_int_equal(b2 + 4 + 4 * 192, b.n);
    for (uint32_t i = 0; i < 3; i++)
        assert_g1_at(b.p + ic + 4 + 96 * i, &t.vk.ic[i]);
    for (uint32_t i = 0; i < 7; i++)
        assert_g1_at(b.p + h + 4 + 96 * i, &t.h[i]);
    for (uint32_t i = 0; i < 2; i++)
        assert_g1_at(b.p + l + 4 + 96 * i, &t.l[i]);
    for (uint32_t i = 0; i < 5; i++)
        assert_g1_at(b.p + a + 4 + 96 * i, &t.a[i]);
    for (uint32_t i = 0; i < 4; i++) {
        assert_g1_at(b.p + b1 + 4 + 96 * i, &t.b_g1[i]);
        assert_g2_at(b.p + b2 + 4 + 192 * i, &t.b_g2[i]);
    }
    /* Uncompressed: no flag bit in any point's first byte. */
    for (size_t at = 0; at < 864; at += (at == 192 || at == 384 || at >= 672) ? 192 : 96)
        assert_int_equal(b.p[at] & 0xe0, 0);

    /* A .vk is the first 868 + 96·ic_len bytes of the .params. */
    buf_t v = vk_bytes(&t.vk);
    assert_int_equal(v.n, 868 + 3 * 96);
    assert_memory_equal(v.p, b.p, v.n);
    free(v.p);
    free(b.p);
    tparams_free(&t);
}

/* ---- corrupt .params ---------------------------------------------------------------- */

/* The section a file cut to n bytes goes wrong in. */
static const char *section_at_cut(const offsets_t *o, size_t n)
{
    if (n < 864)
        return "section vk";
    static char where[32];
    for (int i = 5; i >= 0; i--)
        if (n >= o->len_at[i]) {
            snprintf(where, sizeof(where), "section %s", section_names[i]);
            return where;
        }
    return "?";
}

static void test_truncated(void **state)
{
    (void)state;
    bp_params_t t;
    tparams_make(&t, 2, 3, 2, 3, 2);
    buf_t b = params_bytes(&t);
    offsets_t o = offsets_of(&t, 6);
    assert_int_equal(o.end, b.n);
    size_t cuts[64], n = 0;
    cuts[n++] = 0;
    cuts[n++] = 95;
    cuts[n++] = 863;
    for (int i = 0; i < 6; i++) {
        size_t at = o.len_at[i];
        size_t more[] = {at, at + 3, at + 4, at + 5, at + 4 + 96 - 1};
        for (size_t j = 0; j < 5; j++)
            cuts[n++] = more[j];
    }
    cuts[n++] = b.n - 1; /* one byte short */
    for (size_t i = 0; i < n; i++) {
        buf_t c = buf_copy(&b, cuts[i]);
        expect_params(&c, CUZK_EBADFILE, "truncated", section_at_cut(&o, cuts[i]));
        free(c.p);
    }
    /* One byte long, and a whole point long. */
    buf_t c = buf_copy(&b, b.n + 1);
    expect_params(&c, CUZK_EBADFILE, "1 bytes left over after section b_g2");
    free(c.p);
    c = buf_copy(&b, b.n + 96);
    expect_params(&c, CUZK_EBADFILE, "96 bytes left over after section b_g2");
    free(c.p);
    /* The .vk's first block is not a .params. */
    c = buf_copy(&b, o.len_at[1]);
    expect_params(&c, CUZK_EBADFILE, "section h: truncated");
    free(c.p);
    free(b.p);
    tparams_free(&t);
}

static void test_counts(void **state)
{
    (void)state;
    bp_params_t t;
    tparams_make(&t, 2, 7, 1, 3, 2);
    buf_t b = params_bytes(&t), c;
    offsets_t o = offsets_of(&t, 6);

    c = buf_copy(&b, b.n);
    store_be32(c.p + o.len_at[0], 0);
    expect_params(&c, CUZK_EBADFILE, "section ic", "ic_len = 0");
    free(c.p);

    /* m = h_len + 1 must be a power of two: h_len = 6 with one point
     * removed (so that only the count is wrong). */
    c = buf_copy(&b, b.n - 96);
    store_be32(c.p + o.len_at[1], 6);
    memcpy(c.p + o.len_at[1] + 4 + 6 * 96, b.p + o.len_at[2], b.n - o.len_at[2]);
    expect_params(&c, CUZK_EBADFILE, "section h", "m = h_len + 1 = 7", "power of two");
    free(c.p);
    c = buf_copy(&b, b.n);
    store_be32(c.p + o.len_at[1], UINT32_MAX);
    expect_params(&c, CUZK_EBADFILE, "section h", "4294967296", "below 2^32");
    free(c.p);

    /* a_len below ic_len. */
    c = buf_copy(&b, b.n);
    store_be32(c.p + o.len_at[3], 1);
    expect_params(&c, CUZK_EBADFILE, "section a", "a_len = 1 is below ic_len = 2");
    free(c.p);

    /* b_g1_len != b_g2_len (the file shortened to fit b_g2_len = 1). */
    c = buf_copy(&b, b.n - 192);
    store_be32(c.p + o.len_at[5], 1);
    expect_params(&c, CUZK_EBADFILE, "section b_g2", "b_g2_len = 1 but b_g1_len = 2");
    free(c.p);

    /* A length too large for the file. */
    c = buf_copy(&b, b.n);
    store_be32(c.p + o.len_at[2], 1000);
    expect_params(&c, CUZK_EBADFILE, "section l: truncated", "l_len = 1000");
    free(c.p);
    free(b.p);
    tparams_free(&t);
}

/* What a corruption of one point does, for the table below. */
typedef enum {
    BREAK_COMPRESSED, /* flag 0x80 set */
    BREAK_INF_FLAG,   /* flag 0x40 set on a finite point */
    BREAK_INFINITY,   /* the exact infinity encoding */
    BREAK_SIGN,       /* flag 0x20 set */
    BREAK_X_AT_P,     /* x = p */
    BREAK_Y_OVER_P,   /* y = 2^381 - 1 */
    BREAK_OFF_CURVE,  /* y + 1 */
    BREAK_SUBGROUP,   /* on the curve, outside the subgroup */
    BREAK_X_ZERO,     /* (0, 2) on G1; G2 has no point with x = 0 (4(1 + u) is
                       * not a square in Fp2), so the test passes over it */
    N_BREAKS,
} break_t;

static const struct {
    cuzk_status_t status;
    const char *says;
} breaks[N_BREAKS] = {
    {CUZK_EBADFILE, "marked compressed (flag 0x80)"},
    {CUZK_EBADFILE, "infinity flag 0x40 with other bits set"},
    {CUZK_EINFINITY, "point at infinity"},
    {CUZK_EBADFILE, "sign flag 0x20"},
    {CUZK_ENONCANONICAL, "not below p"},
    {CUZK_ENONCANONICAL, "not below p"},
    {CUZK_ENOTONCURVE, "not on the curve"},
    {CUZK_ENOTINSUBGROUP, "not in the order-r subgroup"},
    {CUZK_ENOTINSUBGROUP, "x = 0"},
};

/* p as 48 bytes BE. */
static void modulus_be(unsigned char out[48])
{
    for (int i = 0; i < 48; i++)
        out[47 - i] = (unsigned char)(bls381_fp_MODULUS[i / 8] >> (8 * (i % 8)));
}

/* Whether G2 has a point with x = 0 (y^2 = 4(1 + u) a square in Fp2). */
static bool g2_has_x_zero(bls381_g2_affine_t *r)
{
    bls381_fp2_t zero;
    memset(&zero, 0, sizeof(zero));
    return bls381_g2_affine_from_x_vartime(r, &zero, false);
}

/* Applies break k to the uncompressed point at at (G2 when g2); false when
 * the break does not exist for the group (x = 0 on G2, maybe). */
static bool break_point(unsigned char *at, bool g2, break_t k)
{
    size_t len = g2 ? 192 : 96, half = len / 2;
    unsigned char p[48];
    switch (k) {
    case BREAK_COMPRESSED: at[0] |= 0x80; return true;
    case BREAK_INF_FLAG: at[0] |= 0x40; return true;
    case BREAK_INFINITY:
        memset(at, 0, len);
        at[0] = 0x40;
        return true;
    case BREAK_SIGN: at[0] |= 0x20; return true;
    case BREAK_X_AT_P:
        modulus_be(p);
        memcpy(at + (g2 ? 48 : 0), p, 48); /* x.c0 on G2 */
        return true;
    case BREAK_Y_OVER_P:
        memset(at + half, 0xff, 48);
        at[half] = 0x1f;
        return true;
    case BREAK_OFF_CURVE: at[len - 1] ^= 1; return true;
    case BREAK_SUBGROUP:
        if (g2) {
            bls381_g2_affine_t q;
            non_subgroup_g2(&q);
            bls381_g2_affine_to_uncompressed(at, &q);
        } else {
            bls381_g1_affine_t q;
            non_subgroup_g1(&q);
            bls381_g1_affine_to_uncompressed(at, &q);
        }
        return true;
    case BREAK_X_ZERO:
        if (g2) {
            bls381_g2_affine_t q;
            if (!g2_has_x_zero(&q))
                return false;
            bls381_g2_affine_to_uncompressed(at, &q);
        } else {
            memset(at, 0, len); /* (0, 2): 2^2 = 0^3 + 4 */
            at[len - 1] = 2;
        }
        return true;
    default: return false;
    }
}

static void test_points(void **state)
{
    (void)state;
    cuzk_status_t pst;
    pool_t *pool = pool_new(3, &pst);
    assert_int_equal(pst, CUZK_OK);
    bp_params_t t;
    tparams_make(&t, 3, 7, 4, 5, 4);
    buf_t b = params_bytes(&t);
    offsets_t o = offsets_of(&t, 6);

    /* The verifying key's fixed points: always checked in full. */
    static const size_t vk_at[6] = {0, 96, 192, 384, 576, 672};
    static const char *const vk_names[6] = {"alpha_g1", "beta_g1",  "beta_g2",
                                            "gamma_g2", "delta_g1", "delta_g2"};
    for (int i = 0; i < 6; i++) {
        bool g2 = i == 2 || i == 3 || i == 5;
        for (int k = 0; k < N_BREAKS; k++) {
            buf_t c = buf_copy(&b, b.n);
            if (!break_point(c.p + vk_at[i], g2, (break_t)k)) {
                free(c.p);
                continue;
            }
            expect_params(&c, breaks[k].status, "section vk", vk_names[i], breaks[k].says);
            expect_params_trusted(&c, breaks[k].status, "section vk", vk_names[i]);
            expect_vk_(&(buf_t){c.p, o.len_at[1]}, breaks[k].status,
                       (const char *const[]){"section vk", vk_names[i], NULL});
            free(c.p);
        }
    }

    /* Every break in every vector, at a random index: the status, the
     * section and the index; trusted files skip only the subgroup test. */
    const uint32_t counts[6] = {3, 7, 4, 5, 4, 4};
    for (int s = 0; s < 6; s++) {
        bool g2 = s == 5;
        for (int k = 0; k < N_BREAKS; k++) {
            uint32_t idx = (uint32_t)(rng_next(&test_rng) % counts[s]);
            buf_t c = buf_copy(&b, b.n);
            if (!break_point(c.p + o.len_at[s] + 4 + (size_t)idx * (g2 ? 192 : 96), g2,
                             (break_t)k)) {
                free(c.p);
                continue;
            }
            char where[32], item[32];
            snprintf(where, sizeof(where), "section %s: ", section_names[s]);
            snprintf(item, sizeof(item), "point %u ", idx);
            expect_params_(&c, k % 2 ? pool : NULL, 0, breaks[k].status,
                           (const char *const[]){where, item, breaks[k].says, NULL});
            if (k == BREAK_SUBGROUP)
                expect_params_trusted(&c, CUZK_OK, "");
            else
                expect_params_trusted(&c, breaks[k].status, where, item);
            free(c.p);
        }
    }

    /* The lowest failing index of the first failing section, on a pool
     * too: h[5] and h[2] broken, then also l[0] (a later section). */
    buf_t c = buf_copy(&b, b.n);
    break_point(c.p + o.len_at[1] + 4 + 5 * 96, false, BREAK_OFF_CURVE);
    break_point(c.p + o.len_at[1] + 4 + 2 * 96, false, BREAK_SUBGROUP);
    break_point(c.p + o.len_at[2] + 4, false, BREAK_INFINITY);
    expect_params_(&c, pool, 0, CUZK_ENOTINSUBGROUP,
                   (const char *const[]){"section h: point 2 ", NULL});
    expect_params_(&c, pool, BP_PARAMS_TRUSTED, CUZK_ENOTONCURVE,
                   (const char *const[]){"section h: point 5 ", NULL});
    free(c.p);
    free(b.p);
    tparams_free(&t);

    /* Vectors large enough for the batch subgroup checks
     * (NAME_msm_subgroup_check): a point outside is still named. */
    msm_sg_plan_t plan;
    msm_sg_plan(&plan, 1200, 3);
    assert_true(plan.t > 0);
    tparams_make(&t, 3, 1023, 600, 600, 1200);
    b = params_bytes(&t);
    o = offsets_of(&t, 6);
    expect_params_(&b, pool, 0, CUZK_OK, (const char *const[]){NULL});
    expect_params(&b, CUZK_OK, "");
    const struct {
        int s;
        uint32_t idx;
        const char *says;
    } outside[] = {{5, 1100, "section b_g2: point 1100 "}, {2, 300, "section l: point 300 "}};
    for (size_t i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
        bool g2 = outside[i].s == 5;
        c = buf_copy(&b, b.n);
        assert_true(
            break_point(c.p + o.len_at[outside[i].s] + 4 + (size_t)outside[i].idx * (g2 ? 192 : 96),
                        g2, BREAK_SUBGROUP));
        expect_params_(&c, pool, 0, CUZK_ENOTINSUBGROUP,
                       (const char *const[]){outside[i].says, NULL});
        expect_params_trusted(&c, CUZK_OK, "");
        free(c.p);
    }
    /* l[300] off the curve: named as such, the points before it checked in
     * batches; with h[700] (an earlier section) outside the subgroup too,
     * h[700] is named. */
    c = buf_copy(&b, b.n);
    assert_true(break_point(c.p + o.len_at[2] + 4 + 300 * 96, false, BREAK_OFF_CURVE));
    expect_params_(&c, pool, 0, CUZK_ENOTONCURVE,
                   (const char *const[]){"section l: point 300 ", NULL});
    assert_true(break_point(c.p + o.len_at[1] + 4 + 700 * 96, false, BREAK_SUBGROUP));
    expect_params_(&c, pool, 0, CUZK_ENOTINSUBGROUP,
                   (const char *const[]){"section h: point 700 ", NULL});
    free(c.p);
    free(b.p);
    tparams_free(&t);
    pool_free(pool);
}

/* ---- .vk files ---------------------------------------------------------------------- */

static void test_vk_file(void **state)
{
    (void)state;
    bp_vk_t vk;
    tvk_make(&vk, 4);
    buf_t b = vk_bytes(&vk);
    assert_int_equal(b.n, 868 + 4 * 96);
    assert_int_equal(load_be32(b.p + 864), 4);

    static const size_t cuts[] = {0, 500, 863, 864, 867, 868, 868 + 95, 868 + 3 * 96 + 95};
    for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
        buf_t c = buf_copy(&b, cuts[i]);
        expect_vk(&c, CUZK_EBADFILE, "truncated", cuts[i] < 864 ? "section vk" : "section ic");
        free(c.p);
    }
    buf_t c = buf_copy(&b, b.n + 1);
    expect_vk(&c, CUZK_EBADFILE, "1 bytes left over after section ic");
    free(c.p);
    c = buf_copy(&b, b.n);
    store_be32(c.p + 864, 0);
    expect_vk(&c, CUZK_EBADFILE, "section ic", "ic_len = 0");
    free(c.p);
    /* IC of a .vk is checked in full (there is no trusted .vk). */
    c = buf_copy(&b, b.n);
    break_point(c.p + 868 + 3 * 96, false, BREAK_SUBGROUP);
    expect_vk(&c, CUZK_ENOTINSUBGROUP, "section ic: point 3 is not in the order-r subgroup");
    free(c.p);
    c = buf_copy(&b, b.n);
    break_point(c.p + 868 + 96, false, BREAK_X_ZERO);
    expect_vk(&c, CUZK_ENOTINSUBGROUP, "section ic: point 1 has x = 0");
    free(c.p);

    free(b.p);
    bp_vk_free(&vk);
}

/* ---- proofs ------------------------------------------------------------------------- */

static void rand_proof(bp_proof_t *p)
{
    rand_g1(&p->a);
    rand_g2(&p->b);
    rand_g1(&p->c);
}

static void assert_same_proof(const bp_proof_t *x, const bp_proof_t *y)
{
    assert_true(bls381_g1_affine_equal(&x->a, &y->a));
    assert_true(bls381_g2_affine_equal(&x->b, &y->b));
    assert_true(bls381_g1_affine_equal(&x->c, &y->c));
}

static void test_proofs_round_trip(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    for (int it = 0; it < test_iters(4); it++) {
        size_t n = 1 + (size_t)(rng_next(&test_rng) % 10);
        bp_proof_t proofs[10];
        for (size_t i = 0; i < n; i++)
            rand_proof(&proofs[i]);
        /* One proof: compressed A ‖ B ‖ C, 0x80 set in each first byte, B
         * as x.c1 ‖ x.c0. */
        unsigned char e[BP_PROOF_BYTES], be[48];
        bp_proof_encode(e, &proofs[0]);
        assert_int_equal(e[0] & 0x80, 0x80);
        assert_int_equal(e[48] & 0x80, 0x80);
        assert_int_equal(e[144] & 0x80, 0x80);
        assert_int_equal(e[0] & 0x40, 0);
        bls381_fp_to_bytes_be(be, &proofs[0].b.x.c0);
        assert_memory_equal(e + 96, be, 48);
        bls381_fp_to_bytes_be(be, &proofs[0].a.x);
        assert_memory_equal(e + 1, be + 1, 47);
        assert_int_equal(e[0] & 0x1f, be[0]);
        bp_proof_t d;
        if (bp_proof_decode(&d, e, "p", 0, err, sizeof(err)) != CUZK_OK)
            fail_msg("%s", err);
        assert_same_proof(&d, &proofs[0]);

        /* n proofs: the plain concatenation. */
        set_tmp_path("params");
        if (bp_proofs_write(tmp_path, proofs, n, err, sizeof(err)) != CUZK_OK)
            fail_msg("%s", err);
        buf_t b = file_bytes(tmp_path);
        assert_int_equal(b.n, n * BP_PROOF_BYTES);
        for (size_t i = 0; i < n; i++) {
            bp_proof_encode(e, &proofs[i]);
            assert_memory_equal(b.p + i * BP_PROOF_BYTES, e, BP_PROOF_BYTES);
        }
        bp_proof_t *back;
        size_t nb;
        if (bp_proofs_read(&back, &nb, tmp_path, err, sizeof(err)) != CUZK_OK)
            fail_msg("%s", err);
        assert_int_equal(nb, n);
        for (size_t i = 0; i < n; i++)
            assert_same_proof(&back[i], &proofs[i]);
        free(back);
        free(b.p);
        unlink(tmp_path);
    }
}

/* Reads b as a proof file; asserts the status and the message. */
static void expect_proofs_(const buf_t *b, cuzk_status_t status, const char *const *subs)
{
    char err[IO_ERR_MAX] = "";
    set_tmp_path("proof");
    file_put(tmp_path, b);
    bp_proof_t dummy, *p = &dummy; /* the reader must clear both */
    size_t n = 99;
    cuzk_status_t st = bp_proofs_read(&p, &n, tmp_path, err, sizeof(err));
    unlink(tmp_path);
    if (st != status)
        fail_msg("status %d (%s), expected %d; message: %s", st, cuzk_strerror(st), status, err);
    assert_null(p);
    assert_int_equal(n, 0);
    assert_message(err, tmp_path, subs);
}

#define expect_proofs(b, status, ...)                                                              \
    expect_proofs_(b, status, (const char *const[]){__VA_ARGS__, NULL})

static void test_proofs_corrupt(void **state)
{
    (void)state;
    bp_proof_t proofs[3];
    for (int i = 0; i < 3; i++)
        rand_proof(&proofs[i]);
    buf_t b = {malloc(3 * BP_PROOF_BYTES), 3 * BP_PROOF_BYTES}, c;
    assert_non_null(b.p);
    for (int i = 0; i < 3; i++)
        bp_proof_encode(b.p + i * BP_PROOF_BYTES, &proofs[i]);

    static const size_t sizes[] = {0, 1, 191, 193, 2 * 192 - 1, 3 * 192 + 1};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        char says[48];
        snprintf(says, sizeof(says), ": %zu bytes is not a positive multiple of 192", sizes[i]);
        c = buf_copy(&b, sizes[i]);
        expect_proofs(&c, CUZK_EBADFILE, says);
        free(c.p);
    }

    /* Element starts: A at 0, B at 48, C at 144 of proof 1. */
    static const size_t el_at[3] = {0, 48, 144};
    static const char *const el_name[3] = {"proof 1: A ", "proof 1: B ", "proof 1: C "};
    unsigned char pbe[48];
    modulus_be(pbe);
    for (int e = 0; e < 3; e++) {
        bool g2 = e == 1;
        size_t len = g2 ? 96 : 48, at = BP_PROOF_BYTES + el_at[e];

        c = buf_copy(&b, b.n);
        c.p[at] &= 0x7f;
        expect_proofs(&c, CUZK_EBADFILE, el_name[e], "not marked compressed");
        free(c.p);

        c = buf_copy(&b, b.n);
        memset(c.p + at, 0, len);
        c.p[at] = 0xc0;
        expect_proofs(&c, CUZK_EINFINITY, el_name[e], "point at infinity");
        free(c.p);

        c = buf_copy(&b, b.n);
        c.p[at] |= 0x40;
        expect_proofs(&c, CUZK_EBADFILE, el_name[e], "infinity flag 0x40");
        free(c.p);

        c = buf_copy(&b, b.n);
        memset(c.p + at, 0, len);
        c.p[at] = 0xe0;
        expect_proofs(&c, CUZK_EBADFILE, el_name[e], "0x40 and the sign flag 0x20");
        free(c.p);

        c = buf_copy(&b, b.n);
        memcpy(c.p + at + len - 48, pbe, 48); /* x (x.c0 on G2) = p */
        c.p[at] |= 0x80;
        expect_proofs(&c, CUZK_ENONCANONICAL, el_name[e], "not below p");
        free(c.p);

        /* An x without a point: step x until x^3 + b is not a square. */
        c = buf_copy(&b, b.n);
        for (;;) {
            c.p[at + len - 1]++;
            bls381_g1_affine_t q1;
            bls381_g2_affine_t q2;
            cuzk_status_t st = g2 ? bls381_g2_affine_from_compressed(&q2, c.p + at, len, 0)
                                  : bls381_g1_affine_from_compressed(&q1, c.p + at, len, 0);
            if (st == CUZK_ENOTONCURVE)
                break;
        }
        expect_proofs(&c, CUZK_ENOTONCURVE, el_name[e], "no point on the curve");
        free(c.p);

        c = buf_copy(&b, b.n);
        if (g2) {
            bls381_g2_affine_t q;
            non_subgroup_g2(&q);
            bls381_g2_affine_to_compressed(c.p + at, &q);
        } else {
            bls381_g1_affine_t q;
            non_subgroup_g1(&q);
            bls381_g1_affine_to_compressed(c.p + at, &q);
        }
        expect_proofs(&c, CUZK_ENOTINSUBGROUP, el_name[e], "not in the order-r subgroup");
        free(c.p);
    }
    /* x = 0 compressed on G1: the order-3 point (0, 2). */
    c = buf_copy(&b, b.n);
    memset(c.p + 2 * BP_PROOF_BYTES + 144, 0, 48);
    c.p[2 * BP_PROOF_BYTES + 144] = 0x80;
    expect_proofs(&c, CUZK_ENOTINSUBGROUP, "proof 2: C has x = 0");
    free(c.p);
    free(b.p);
}

/* ---- writers ---------------------------------------------------------------------- */

static void test_write_errors(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    bp_params_t t, p;
    tparams_make(&t, 2, 3, 1, 2, 1);
    set_tmp_path("params");
    unlink(tmp_path);

    p = t;
    bls381_g1_affine_set_infinity(&p.l[0]);
    assert_int_equal(bp_params_write(tmp_path, &p, err, sizeof(err)), CUZK_EINVAL);
    assert_non_null(strstr(err, "infinity"));
    rand_g1(&p.l[0]);
    p.vk.delta2 = t.vk.delta2;
    bls381_g2_affine_set_infinity(&p.vk.delta2);
    assert_int_equal(bp_params_write(tmp_path, &p, err, sizeof(err)), CUZK_EINVAL);
    assert_non_null(strstr(err, "delta_g2"));
    assert_int_equal(bp_vk_write(tmp_path, &p.vk, err, sizeof(err)), CUZK_EINVAL);
    p = t;
    p.n_h = 4;
    assert_int_equal(bp_params_write(tmp_path, &p, err, sizeof(err)), CUZK_EINVAL);
    assert_non_null(strstr(err, "power of two"));
    p = t;
    p.n_a = 1;
    assert_int_equal(bp_params_write(tmp_path, &p, err, sizeof(err)), CUZK_EINVAL);
    p = t;
    p.vk.n_ic = 0;
    assert_int_equal(bp_vk_write(tmp_path, &p.vk, err, sizeof(err)), CUZK_EINVAL);
    assert_int_equal(access(tmp_path, F_OK), -1); /* nothing written */

    bp_proof_t proof;
    rand_proof(&proof);
    assert_int_equal(bp_proofs_write(tmp_path, &proof, 0, err, sizeof(err)), CUZK_EINVAL);
    bls381_g2_affine_set_infinity(&proof.b);
    assert_int_equal(bp_proofs_write(tmp_path, &proof, 1, err, sizeof(err)), CUZK_EINVAL);
    assert_int_equal(access(tmp_path, F_OK), -1);

    assert_int_equal(bp_params_write("/nonexistent/dir/p.params", &t, err, sizeof(err)), CUZK_EIO);
    assert_int_equal(bp_params_read(&p, "/nonexistent/dir/p.params", NULL, 0, err, sizeof(err)),
                     CUZK_ENOFILE);
    assert_null(p.mem);
    bp_vk_t vk;
    assert_int_equal(bp_vk_read(&vk, "/nonexistent/dir/p.vk", err, sizeof(err)), CUZK_ENOFILE);
    bp_proof_t *pp;
    size_t n;
    assert_int_equal(bp_proofs_read(&pp, &n, "/nonexistent/dir/p.proof", err, sizeof(err)),
                     CUZK_ENOFILE);
    tparams_free(&t);
}

int main(void)
{
    test_seed_init("test_params_file");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_points),
        cmocka_unit_test(test_vk_file),
        cmocka_unit_test(test_proofs_round_trip),
        cmocka_unit_test(test_proofs_corrupt),
        cmocka_unit_test(test_write_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
