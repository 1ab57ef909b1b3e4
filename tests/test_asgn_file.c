/*
 * Tests of the assignment file (src/io/asgn_file.h, docs/ASSIGNMENT.md).
 *
 *  - Random assignments of both curves (scalars uniform below r, inputs[0]
 *    = 1, random bitmaps) go writer → reader and come back identical, with
 *    the reader's pointers 8-byte aligned inside its mapping; the bytes
 *    follow docs/ASSIGNMENT.md exactly (header fields at their offsets,
 *    sections in order at the offsets the counts give).
 *  - Every check of the reader has a corrupt file that trips it: truncation
 *    at and around every section boundary, one byte long, wrong magic,
 *    version and curve, counts that disagree, a scalar >= r in each scalar
 *    section, inputs[0] != 1, a stray bit in each bitmap; the status is
 *    asserted and the message must name the file and the section.
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
#include "ff/bn254_fr.h"
#include "io/asgn_file.h"

static const r1cs_curve_t curves[] = {R1CS_CURVE_BN254, R1CS_CURVE_BLS12_381};

static const char *const section_names[8] = {
    "a", "b", "c", "inputs", "aux", "a_aux_density", "b_input_density", "b_aux_density"};

/* ---- a random assignment ------------------------------------------------------ */

typedef struct {
    asgn_t a;
    uint64_t (*s[5])[4]; /* a, b, c, inputs, aux */
    uint64_t *bits[3];   /* a_aux, b_input, b_aux */
} tasgn_t;

/* A uniform scalar below r of curve, plain limbs. */
static void rand_scalar(r1cs_curve_t curve, uint64_t out[4])
{
    if (curve == R1CS_CURVE_BN254) {
        bn254_fr_t v;
        assert_int_equal(bn254_fr_random(&v, &test_rng), CUZK_OK);
        bn254_fr_to_canonical(out, &v);
    } else {
        bls381_fr_t v;
        assert_int_equal(bls381_fr_random(&v, &test_rng), CUZK_OK);
        bls381_fr_to_canonical(out, &v);
    }
}

static const uint64_t *r_of(r1cs_curve_t curve)
{
    return curve == R1CS_CURVE_BN254 ? bn254_fr_MODULUS : bls381_fr_MODULUS;
}

static void tasgn_make(tasgn_t *t, r1cs_curve_t curve, uint64_t n_constraints, uint64_t n_inputs,
                       uint64_t n_aux)
{
    memset(t, 0, sizeof(*t));
    asgn_t *a = &t->a;
    a->curve = curve;
    a->n_constraints = n_constraints;
    a->n_inputs = n_inputs;
    a->n_aux = n_aux;
    const uint64_t counts[5] = {n_constraints, n_constraints, n_constraints, n_inputs, n_aux};
    for (int s = 0; s < 5; s++) {
        t->s[s] = calloc(counts[s] ? counts[s] : 1, 32);
        assert_non_null(t->s[s]);
        for (uint64_t i = 0; i < counts[s]; i++) {
            /* Mostly small values (bits), as a real assignment has. */
            if (rng_next(&test_rng) % 3)
                t->s[s][i][0] = rng_next(&test_rng) & 1;
            else
                rand_scalar(curve, t->s[s][i]);
        }
    }
    t->s[3][0][0] = 1;
    t->s[3][0][1] = t->s[3][0][2] = t->s[3][0][3] = 0;
    const uint64_t nbits[3] = {n_aux, n_inputs, n_aux};
    for (int k = 0; k < 3; k++) {
        uint64_t words = asgn_words(nbits[k]);
        t->bits[k] = calloc(words ? words : 1, 8);
        assert_non_null(t->bits[k]);
        for (uint64_t i = 0; i < nbits[k]; i++)
            if (rng_next(&test_rng) & 1)
                t->bits[k][i / 64] |= (uint64_t)1 << (i % 64);
    }
    a->a = (const uint64_t(*)[4])t->s[0];
    a->b = (const uint64_t(*)[4])t->s[1];
    a->c = (const uint64_t(*)[4])t->s[2];
    a->inputs = (const uint64_t(*)[4])t->s[3];
    a->aux = (const uint64_t(*)[4])t->s[4];
    a->a_aux_density = t->bits[0];
    a->b_input_density = t->bits[1];
    a->b_aux_density = t->bits[2];
}

static void tasgn_free(tasgn_t *t)
{
    for (int s = 0; s < 5; s++)
        free(t->s[s]);
    for (int k = 0; k < 3; k++)
        free(t->bits[k]);
    memset(t, 0, sizeof(*t));
}

/* The offset of each section (docs/ASSIGNMENT.md), [8] = the file size. */
static void offsets_of(const asgn_t *a, uint64_t at[9])
{
    const uint64_t bytes[8] = {32 * a->n_constraints,
                               32 * a->n_constraints,
                               32 * a->n_constraints,
                               32 * a->n_inputs,
                               32 * a->n_aux,
                               8 * asgn_words(a->n_aux),
                               8 * asgn_words(a->n_inputs),
                               8 * asgn_words(a->n_aux)};
    at[0] = 40;
    for (int s = 0; s < 8; s++)
        at[s + 1] = at[s] + bytes[s];
}

/* ---- files in memory ------------------------------------------------------------ */

static buf_t asgn_bytes(const asgn_t *a)
{
    char err[IO_ERR_MAX] = "";
    set_tmp_path("asgn");
    if (asgn_file_write(tmp_path, a, err, sizeof(err)) != CUZK_OK)
        fail_msg("write: %s", err);
    buf_t b = file_bytes(tmp_path);
    unlink(tmp_path);
    return b;
}

static void store_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void store_u64(unsigned char *p, uint64_t v)
{
    store_u32(p, (uint32_t)v);
    store_u32(p + 4, (uint32_t)(v >> 32));
}

#define BAD "bad.asgn"

static void expect_asgn_(const buf_t *b, cuzk_status_t status, const char *const *subs)
{
    char err[IO_ERR_MAX] = "";
    asgn_t a;
    cuzk_status_t st = asgn_file_parse(&a, b->p, b->n, BAD, NULL, err, sizeof(err));
    if (st != status)
        fail_msg("status %d (%s), expected %d; message: %s", st, cuzk_strerror(st), status, err);
    assert_int_equal(a.curve, R1CS_CURVE_NONE);
    assert_null(a.a);
    assert_message(err, BAD, subs);
}

#define expect_asgn(b, status, ...)                                                                \
    expect_asgn_(b, status, (const char *const[]){__VA_ARGS__, NULL})

/* ---- round trips and layout ---------------------------------------------------- */

static void assert_same_asgn(const asgn_t *x, const asgn_t *y)
{
    assert_int_equal(x->curve, y->curve);
    assert_int_equal(x->n_constraints, y->n_constraints);
    assert_int_equal(x->n_inputs, y->n_inputs);
    assert_int_equal(x->n_aux, y->n_aux);
    size_t abc = (size_t)x->n_constraints * 32;
    if (abc) {
        assert_memory_equal(x->a, y->a, abc);
        assert_memory_equal(x->b, y->b, abc);
        assert_memory_equal(x->c, y->c, abc);
    }
    assert_memory_equal(x->inputs, y->inputs, (size_t)x->n_inputs * 32);
    if (x->n_aux) {
        assert_memory_equal(x->aux, y->aux, (size_t)x->n_aux * 32);
        assert_memory_equal(x->a_aux_density, y->a_aux_density, 8 * asgn_words(x->n_aux));
        assert_memory_equal(x->b_aux_density, y->b_aux_density, 8 * asgn_words(x->n_aux));
    }
    assert_memory_equal(x->b_input_density, y->b_input_density, 8 * asgn_words(x->n_inputs));
    for (uint64_t i = 0; i < x->n_aux; i++)
        assert_int_equal(asgn_bit(x->a_aux_density, i), asgn_bit(y->a_aux_density, i));
}

static void test_round_trip(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    for (int it = 0; it < test_iters(8); it++) {
        r1cs_curve_t curve = curves[it % 2];
        uint64_t n_inputs = 1 + rng_next(&test_rng) % 70;
        uint64_t n_constraints = n_inputs + rng_next(&test_rng) % 100;
        uint64_t n_aux = it == 2 ? 0 : rng_next(&test_rng) % 200;
        tasgn_t t;
        tasgn_make(&t, curve, n_constraints, n_inputs, n_aux);
        set_tmp_path("asgn");
        if (asgn_file_write(tmp_path, &t.a, err, sizeof(err)) != CUZK_OK)
            fail_msg("%s", err);
        asgn_t a;
        if (asgn_file_read(&a, tmp_path, NULL, err, sizeof(err)) != CUZK_OK)
            fail_msg("%s", err);
        assert_same_asgn(&a, &t.a);
        /* Pointers into the mapping, 8-byte aligned. */
        const unsigned char *lo = a.map.data, *hi = a.map.data + a.map.size;
        const void *ptrs[] = {
            a.a, a.b, a.c, a.inputs, a.aux, a.a_aux_density, a.b_input_density, a.b_aux_density};
        for (size_t i = 0; i < sizeof(ptrs) / sizeof(ptrs[0]); i++) {
            assert_true((const unsigned char *)ptrs[i] >= lo &&
                        (const unsigned char *)ptrs[i] <= hi);
            assert_int_equal((uintptr_t)ptrs[i] % 8, 0);
        }
        asgn_free(&a);
        assert_null(a.map.data);
        assert_int_equal(a.curve, R1CS_CURVE_NONE);
        unlink(tmp_path);
        tasgn_free(&t);
    }
}

static void test_layout(void **state)
{
    (void)state;
    tasgn_t t;
    tasgn_make(&t, R1CS_CURVE_BLS12_381, 9, 3, 70);
    buf_t b = asgn_bytes(&t.a);
    uint64_t at[9];
    offsets_of(&t.a, at);
    assert_int_equal(b.n, at[8]);
    assert_int_equal(b.n, 40 + 32 * (3 * 9 + 3 + 70) + 8 * (2 + 1 + 2));
    assert_memory_equal(b.p, "cuzkasgn", 8);
    static const unsigned char header[32] = {
        1,  0, 0, 0,             /* version */
        2,  0, 0, 0,             /* curve: BLS12-381 */
        9,  0, 0, 0, 0, 0, 0, 0, /* n_constraints */
        3,  0, 0, 0, 0, 0, 0, 0, /* n_inputs */
        70, 0, 0, 0, 0, 0, 0, 0, /* n_aux */
    };
    assert_memory_equal(b.p + 8, header, 32);
    const void *src[8] = {t.a.a,
                          t.a.b,
                          t.a.c,
                          t.a.inputs,
                          t.a.aux,
                          t.a.a_aux_density,
                          t.a.b_input_density,
                          t.a.b_aux_density};
    for (int s = 0; s < 8; s++) {
        assert_int_equal(at[s] % 8, 0);
        /* Little-endian limbs: byte j of a value is limb j / 8 >> 8 (j % 8). */
        const uint64_t *w = src[s];
        for (uint64_t j = 0; j < at[s + 1] - at[s]; j++)
            assert_int_equal(b.p[at[s] + j], (unsigned char)(w[j / 8] >> (8 * (j % 8))));
    }
    /* inputs[0] = 1: 01 00 ... 00. */
    assert_int_equal(b.p[at[3]], 1);
    for (int j = 1; j < 32; j++)
        assert_int_equal(b.p[at[3] + j], 0);
    free(b.p);
    tasgn_free(&t);
}

/* ---- corrupt files ------------------------------------------------------------- */

static void test_truncated(void **state)
{
    (void)state;
    tasgn_t t;
    tasgn_make(&t, R1CS_CURVE_BN254, 6, 2, 70);
    buf_t b = asgn_bytes(&t.a);
    uint64_t at[9];
    offsets_of(&t.a, at);
    static const size_t header_cuts[] = {0, 7, 8, 11, 12, 16, 39};
    for (size_t i = 0; i < sizeof(header_cuts) / sizeof(header_cuts[0]); i++) {
        buf_t c = buf_copy(&b, header_cuts[i]);
        expect_asgn(&c, CUZK_EBADFILE, "section header", "truncated");
        free(c.p);
    }
    for (int s = 0; s < 8; s++) {
        char where[48];
        snprintf(where, sizeof(where), "section %s: truncated", section_names[s]);
        size_t cuts[] = {at[s], at[s] + 1, at[s + 1] - 1};
        for (size_t i = 0; i < 3; i++) {
            buf_t c = buf_copy(&b, cuts[i]);
            expect_asgn(&c, CUZK_EBADFILE, where);
            free(c.p);
        }
    }
    buf_t c = buf_copy(&b, b.n + 1);
    expect_asgn(&c, CUZK_EBADFILE, "1 bytes left over after section b_aux_density");
    free(c.p);
    c = buf_copy(&b, b.n + 32);
    expect_asgn(&c, CUZK_EBADFILE, "32 bytes left over");
    free(c.p);
    free(b.p);
    tasgn_free(&t);
}

static void test_corrupt_header(void **state)
{
    (void)state;
    tasgn_t t;
    tasgn_make(&t, R1CS_CURVE_BN254, 6, 2, 5);
    buf_t b = asgn_bytes(&t.a), c;

    c = buf_copy(&b, b.n);
    memcpy(c.p, "cuzkasgX", 8);
    expect_asgn(&c, CUZK_EBADFILE, "section header", "magic \"cuzkasgX\"", "not an assignment");
    free(c.p);
    c = buf_copy(&b, b.n);
    memcpy(c.p, "zkey\x01\x00\x00\x00", 8);
    expect_asgn(&c, CUZK_EBADFILE, "section header", "magic \"zkey????\"");
    free(c.p);

    c = buf_copy(&b, b.n);
    store_u32(c.p + 8, 2);
    expect_asgn(&c, CUZK_EUNSUPPORTED, "section header", "version 2");
    free(c.p);
    c = buf_copy(&b, b.n);
    store_u32(c.p + 8, 0);
    expect_asgn(&c, CUZK_EBADFILE, "section header", "version 0");
    free(c.p);

    static const uint32_t bad_curves[] = {0, 3, 0xffffffffu};
    for (size_t i = 0; i < 3; i++) {
        c = buf_copy(&b, b.n);
        store_u32(c.p + 12, bad_curves[i]);
        char says[32];
        snprintf(says, sizeof(says), "curve %u,", bad_curves[i]);
        expect_asgn(&c, CUZK_EUNSUPPORTED, "section header", says);
        free(c.p);
    }

    /* Counts: n_inputs = 0; n_constraints below n_inputs; 2^32. */
    c = buf_copy(&b, b.n);
    store_u64(c.p + 24, 0);
    expect_asgn(&c, CUZK_EBADFILE, "section header", "n_inputs = 0");
    free(c.p);
    c = buf_copy(&b, b.n);
    store_u64(c.p + 16, 1);
    expect_asgn(&c, CUZK_EBADFILE, "section header", "n_constraints = 1 is below n_inputs = 2");
    free(c.p);
    c = buf_copy(&b, b.n);
    store_u64(c.p + 32, (uint64_t)1 << 32);
    expect_asgn(&c, CUZK_EBADFILE, "section header", "n_aux = 4294967296", "below 2^32");
    free(c.p);
    /* A count that disagrees with the file's size. */
    c = buf_copy(&b, b.n);
    store_u64(c.p + 32, 6);
    expect_asgn(&c, CUZK_EBADFILE, "truncated", "n_aux = 6");
    free(c.p);
    c = buf_copy(&b, b.n);
    store_u64(c.p + 16, 5);
    expect_asgn(&c, CUZK_EBADFILE, "left over after section b_aux_density");
    free(c.p);

    free(b.p);
    tasgn_free(&t);
}

static void test_corrupt_values(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < 2; ci++) {
        r1cs_curve_t curve = curves[ci];
        tasgn_t t;
        tasgn_make(&t, curve, 7, 5, 70);
        buf_t b = asgn_bytes(&t.a), c;
        uint64_t at[9];
        offsets_of(&t.a, at);
        const uint64_t counts[5] = {7, 7, 7, 5, 70};

        /* A scalar >= r in each scalar section: r itself, r + 1, all ones;
         * the lowest bad index is named. */
        for (int s = 0; s < 5; s++) {
            uint64_t i = 1 + rng_next(&test_rng) % (counts[s] - 1);
            uint64_t v[3][4];
            memcpy(v[0], r_of(curve), 32);
            memcpy(v[1], r_of(curve), 32);
            v[1][0]++;
            memset(v[2], 0xff, 32);
            for (int k = 0; k < 3; k++) {
                c = buf_copy(&b, b.n);
                for (int j = 0; j < 4; j++)
                    store_u64(c.p + at[s] + 32 * i + 8 * j, v[k][j]);
                if (i + 1 < counts[s])
                    memset(c.p + at[s] + 32 * (i + 1), 0xff, 32);
                char where[48], item[64];
                snprintf(where, sizeof(where), "section %s: ", section_names[s]);
                snprintf(item, sizeof(item), "scalar %" PRIu64 " is not below r", i);
                expect_asgn(&c, CUZK_ENONCANONICAL, where, item, r1cs_curve_name(curve));
                free(c.p);
            }
        }
        /* r - 1 is fine. */
        c = buf_copy(&b, b.n);
        for (int j = 0; j < 4; j++)
            store_u64(c.p + at[4] + 8 * j, r_of(curve)[j] - (j == 0));
        asgn_t a;
        char err[IO_ERR_MAX];
        assert_int_equal(asgn_file_parse(&a, c.p, c.n, BAD, NULL, err, sizeof(err)), CUZK_OK);
        asgn_free(&a);
        free(c.p);
        /* In a BN254 file, BN254's r is out of range though BLS12-381's
         * r is larger. */
        if (curve == R1CS_CURVE_BN254) {
            c = buf_copy(&b, b.n);
            for (int j = 0; j < 4; j++)
                store_u64(c.p + at[0] + 8 * j, bn254_fr_MODULUS[j]);
            store_u32(c.p + 12, R1CS_CURVE_BLS12_381);
            assert_int_equal(asgn_file_parse(&a, c.p, c.n, BAD, NULL, err, sizeof(err)), CUZK_OK);
            asgn_free(&a);
            free(c.p);
        }

        /* inputs[0] must be 1. */
        static const uint64_t not_one[3][4] = {{0, 0, 0, 0}, {2, 0, 0, 0}, {1, 0, 0, 1}};
        for (int k = 0; k < 3; k++) {
            c = buf_copy(&b, b.n);
            for (int j = 0; j < 4; j++)
                store_u64(c.p + at[3] + 8 * j, not_one[k][j]);
            expect_asgn(&c, CUZK_EBADFILE, "section inputs", "inputs[0] = 0x", "expected 1");
            free(c.p);
        }

        /* A stray bit at the count and at the word's top, in each bitmap
         * (70 and 5 bits: neither fills its last word). */
        const uint64_t nbits[3] = {70, 5, 70};
        for (int k = 0; k < 3; k++) {
            int s = 5 + k;
            uint64_t bits[] = {nbits[k], 127 - (nbits[k] < 64 ? 64 : 0)};
            for (int j = 0; j < 2; j++) {
                c = buf_copy(&b, b.n);
                c.p[at[s] + bits[j] / 8] |= (unsigned char)(1u << (bits[j] % 8));
                char where[48], item[64];
                snprintf(where, sizeof(where), "section %s: ", section_names[s]);
                snprintf(item, sizeof(item), "bit %" PRIu64 " is set", bits[j]);
                expect_asgn(&c, CUZK_EBADFILE, where, item);
                free(c.p);
            }
            /* The last real bit is fine either way. */
            c = buf_copy(&b, b.n);
            c.p[at[s] + (nbits[k] - 1) / 8] ^= (unsigned char)(1u << ((nbits[k] - 1) % 8));
            assert_int_equal(asgn_file_parse(&a, c.p, c.n, BAD, NULL, err, sizeof(err)), CUZK_OK);
            asgn_free(&a);
            free(c.p);
        }
        free(b.p);
        tasgn_free(&t);
    }
}

static void test_write_errors(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    tasgn_t t;
    tasgn_make(&t, R1CS_CURVE_BN254, 4, 2, 3);
    set_tmp_path("asgn");
    unlink(tmp_path);
    asgn_t a = t.a;
    a.curve = R1CS_CURVE_NONE;
    assert_int_equal(asgn_file_write(tmp_path, &a, err, sizeof(err)), CUZK_EINVAL);
    assert_non_null(strstr(err, "no curve"));
    a = t.a;
    a.n_inputs = 0;
    assert_int_equal(asgn_file_write(tmp_path, &a, err, sizeof(err)), CUZK_EINVAL);
    a = t.a;
    a.b_aux_density = NULL;
    assert_int_equal(asgn_file_write(tmp_path, &a, err, sizeof(err)), CUZK_EINVAL);
    assert_non_null(strstr(err, "b_aux_density"));
    assert_int_equal(access(tmp_path, F_OK), -1);
    assert_int_equal(asgn_file_write("/nonexistent/dir/x.asgn", &t.a, err, sizeof(err)), CUZK_EIO);
    assert_int_equal(asgn_file_read(&a, "/nonexistent/dir/x.asgn", NULL, err, sizeof(err)),
                     CUZK_ENOFILE);
    assert_string_equal(err, "/nonexistent/dir/x.asgn: no such file");
    assert_int_equal(a.curve, R1CS_CURVE_NONE);
    /* An empty file is a truncated header. */
    file_put(tmp_path, &(buf_t){(unsigned char *)"", 0});
    assert_int_equal(asgn_file_read(&a, tmp_path, NULL, err, sizeof(err)), CUZK_EBADFILE);
    assert_non_null(strstr(err, "section header: truncated"));
    unlink(tmp_path);
    tasgn_free(&t);
}

int main(void)
{
    test_seed_init("test_asgn_file");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),     cmocka_unit_test(test_layout),
        cmocka_unit_test(test_truncated),      cmocka_unit_test(test_corrupt_header),
        cmocka_unit_test(test_corrupt_values), cmocka_unit_test(test_write_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
