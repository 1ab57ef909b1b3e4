/*
 * Tests of the file-format layer (src/io): the iden3 container, .r1cs and
 * .wtns readers and writers.
 *
 *  - Hand-built files that follow FORMATS.md byte for byte (a four-wire
 *    circuit a·b = out, out = 6, with a coefficient r − 1; its witness
 *    1, 6, 2, 3) are read, and the writers must reproduce them exactly.
 *  - Random circuits and witnesses of both curves go writer → reader and
 *    must come back identical, also with the sections reordered and an
 *    unknown section added.
 *  - Every check of the readers has a corrupt file that trips it; each must
 *    give the right status and a message naming the file and the section.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"

#include "io/iden3.h"
#include "io/io_error.h"
#include "io/io_fr.h"
#include "io/io_map.h"
#include "io/r1cs_file.h"
#include "io/wtns_file.h"

/* ---- helpers ----------------------------------------------------------- */

/* A growable byte buffer. */
typedef struct {
    unsigned char *p;
    size_t n, cap;
} buf_t;

static void buf_put(buf_t *b, const void *p, size_t n)
{
    if (!b->p || b->n + n > b->cap) {
        b->cap = 2 * (b->n + n) + 64;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            abort();
        memset(b->p + b->n, 0, b->cap - b->n);
    }
    if (n)
        memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void buf_u32(buf_t *b, uint32_t v)
{
    unsigned char x[4];
    for (int i = 0; i < 4; i++)
        x[i] = (unsigned char)(v >> (8 * i));
    buf_put(b, x, 4);
}

static void buf_u64(buf_t *b, uint64_t v)
{
    buf_u32(b, (uint32_t)v);
    buf_u32(b, (uint32_t)(v >> 32));
}

/* A small integer as a 32-byte little-endian field element. */
static void buf_fr_small(buf_t *b, uint64_t v)
{
    buf_u64(b, v);
    for (int i = 0; i < 3; i++)
        buf_u64(b, 0);
}

/* r − 1 of curve, little-endian. */
static void buf_fr_minus_one(buf_t *b, r1cs_curve_t curve)
{
    unsigned char r[IO_FR_BYTES];
    io_fr_prime_le(curve, r);
    r[0] -= 1; /* both r end in ...01 */
    buf_put(b, r, IO_FR_BYTES);
}

static void buf_prime(buf_t *b, r1cs_curve_t curve)
{
    unsigned char r[IO_FR_BYTES];
    io_fr_prime_le(curve, r);
    buf_put(b, r, IO_FR_BYTES);
}

static void buf_free(buf_t *b)
{
    free(b->p);
    memset(b, 0, sizeof(*b));
}

static void store_u32(buf_t *b, size_t off, uint32_t v)
{
    assert_true(off + 4 <= b->n);
    for (int i = 0; i < 4; i++)
        b->p[off + i] = (unsigned char)(v >> (8 * i));
}

static void store_u64(buf_t *b, size_t off, uint64_t v)
{
    store_u32(b, off, (uint32_t)v);
    store_u32(b, off + 4, (uint32_t)(v >> 32));
}

static buf_t buf_copy(const buf_t *b)
{
    buf_t c = {0};
    buf_put(&c, b->p, b->n);
    return c;
}

/* An iden3 container of n sections, written in the order given. */
static void build_container(buf_t *out, const char *magic, uint32_t version, size_t n,
                            const uint32_t *ids, const buf_t *contents)
{
    buf_put(out, magic, 4);
    buf_u32(out, version);
    buf_u32(out, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        buf_u32(out, ids[i]);
        buf_u64(out, contents[i].n);
        buf_put(out, contents[i].p, contents[i].n);
    }
}

/* The test's own walk of a well-formed container: the offset of section
 * id's content (and of its record) in b. */
static size_t section_at(const buf_t *b, uint32_t id, size_t *record)
{
    size_t pos = IDEN3_HEADER_SIZE;
    uint32_t n = io_load_u32(b->p + 8);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t size = io_load_u64(b->p + pos + 4);
        if (io_load_u32(b->p + pos) == id) {
            if (record)
                *record = pos;
            return pos + IDEN3_SECTION_RECORD_SIZE;
        }
        pos += IDEN3_SECTION_RECORD_SIZE + size;
    }
    fail_msg("section %u not found", id);
    return 0;
}

/* b without section id's record; nSections decremented. */
static buf_t drop_section(const buf_t *b, uint32_t id)
{
    size_t rec = 0;
    size_t content = section_at(b, id, &rec);
    size_t end = content + io_load_u64(b->p + rec + 4);
    buf_t c = {0};
    buf_put(&c, b->p, rec);
    buf_put(&c, b->p + end, b->n - end);
    store_u32(&c, 8, io_load_u32(b->p + 8) - 1);
    return c;
}

/* b with one more section appended. */
static buf_t add_section(const buf_t *b, uint32_t id, const void *content, size_t n)
{
    buf_t c = buf_copy(b);
    buf_u32(&c, id);
    buf_u64(&c, n);
    buf_put(&c, content, n);
    store_u32(&c, 8, io_load_u32(b->p + 8) + 1);
    return c;
}

static char tmp_dir[64];

static const char *tmp_path(const char *name)
{
    static char path[128];
    snprintf(path, sizeof(path), "%s/%s", tmp_dir, name);
    return path;
}

static buf_t read_whole(const char *path)
{
    io_map_t m;
    char err[IO_ERR_MAX];
    assert_int_equal(io_map_open(&m, path, err, sizeof(err)), CUZK_OK);
    buf_t b = {0};
    buf_put(&b, m.data, m.size);
    io_map_close(&m);
    return b;
}

/* Asserts that msg contains every string of the NULL-terminated list. */
static void assert_mentions(const char *msg, const char *const *subs)
{
    for (; *subs; subs++) {
        if (!strstr(msg, *subs))
            fail_msg("message \"%s\" does not mention \"%s\"", msg, *subs);
    }
}

#define BAD_R1CS "bad.r1cs"
#define BAD_WTNS "bad.wtns"

/* Parsing b as BAD_R1CS fails with status and a message naming the file and
 * mentioning every string of the NULL-terminated list subs. */
static void expect_r1cs_(const buf_t *b, cuzk_status_t status, const char *const *subs)
{
    char err[IO_ERR_MAX] = "";
    r1cs_t r;
    cuzk_status_t st = r1cs_file_parse(&r, b->p, b->n, BAD_R1CS, err, sizeof(err));
    if (st != status)
        fail_msg("status %d (%s), expected %d; message: %s", st, cuzk_strerror(st), status, err);
    assert_int_equal(r.curve, R1CS_CURVE_NONE);
    assert_non_null(strstr(err, BAD_R1CS ": "));
    assert_mentions(err, subs);
}

#define expect_r1cs(b, status, ...)                                                                \
    expect_r1cs_(b, status, (const char *const[]){__VA_ARGS__, NULL})

static void expect_wtns_(const buf_t *b, cuzk_status_t status, const char *const *subs)
{
    char err[IO_ERR_MAX] = "";
    r1cs_witness_t w;
    cuzk_status_t st = wtns_file_parse(&w, b->p, b->n, BAD_WTNS, NULL, err, sizeof(err));
    if (st != status)
        fail_msg("status %d (%s), expected %d; message: %s", st, cuzk_strerror(st), status, err);
    assert_int_equal(w.curve, R1CS_CURVE_NONE);
    assert_non_null(strstr(err, BAD_WTNS ": "));
    assert_mentions(err, subs);
}

#define expect_wtns(b, status, ...)                                                                \
    expect_wtns_(b, status, (const char *const[]){__VA_ARGS__, NULL})

/* Every cut of b at a container boundary (header, each record, each
 * content) and a few bytes inside must be reported as truncated. */
static void check_truncations(const buf_t *b, cuzk_status_t (*parse_fails)(const buf_t *))
{
    size_t cuts[64], n = 0;
    cuts[n++] = 0;
    cuts[n++] = 3;
    cuts[n++] = 4;
    cuts[n++] = 11;
    size_t pos = IDEN3_HEADER_SIZE;
    uint32_t sections = io_load_u32(b->p + 8);
    for (uint32_t i = 0; i < sections; i++) {
        size_t size = io_load_u64(b->p + pos + 4);
        size_t content = pos + IDEN3_SECTION_RECORD_SIZE;
        size_t more[] = {
            pos, pos + 4, pos + 11, content, content + 1, content + size / 2, content + size - 1};
        for (size_t j = 0; j < sizeof(more) / sizeof(more[0]); j++) {
            if ((j < 4 || size > 0) && more[j] < b->n)
                cuts[n++] = more[j];
        }
        pos = content + size;
    }
    assert_int_equal(pos, b->n);
    for (size_t i = 0; i < n; i++) {
        buf_t c = {0};
        buf_put(&c, b->p, cuts[i]);
        assert_int_equal(parse_fails(&c), CUZK_EBADFILE);
        buf_free(&c);
    }
}

/* ---- the hand-built files ---------------------------------------------- */

/*
 * Wires 0 = ONE, 1 = out (public output), 2 = a, 3 = b (private inputs).
 * Constraint 0: A = {2: 1}, B = {3: 1}, C = {1: 1}          a·b = out
 * Constraint 1: A = {}, B = {}, C = {0: 6, 1: r − 1}        0 = 6 − out
 * Offsets inside the sections (FORMATS.md section 3):
 */
enum {
    H_N8 = 0,
    H_PRIME = 4,
    H_NWIRES = 36,
    H_NPUBOUT = 40,
    H_NPRVIN = 48,
    H_MCONSTRAINTS = 60,
    C0_A_NTERMS = 0,
    C0_A_WIRE = 4,
    C0_A_COEF = 8,
    C1_C_NTERMS = 128,
    C1_C_WIRE0 = 132,
    C1_C_WIRE1 = 168,
    C1_C_COEF1 = 172,
};

static void tiny_r1cs_sections(buf_t s[3], r1cs_curve_t curve)
{
    buf_u32(&s[0], IO_FR_BYTES);
    buf_prime(&s[0], curve);
    buf_u32(&s[0], 4); /* nWires */
    buf_u32(&s[0], 1); /* nPubOut */
    buf_u32(&s[0], 0); /* nPubIn */
    buf_u32(&s[0], 2); /* nPrvIn */
    buf_u64(&s[0], 4); /* nLabels */
    buf_u32(&s[0], 2); /* mConstraints */

    static const uint32_t c0[3] = {2, 3, 1};
    for (int lc = 0; lc < 3; lc++) {
        buf_u32(&s[1], 1);
        buf_u32(&s[1], c0[lc]);
        buf_fr_small(&s[1], 1);
    }
    buf_u32(&s[1], 0);
    buf_u32(&s[1], 0);
    buf_u32(&s[1], 2);
    buf_u32(&s[1], 0);
    buf_fr_small(&s[1], 6);
    buf_u32(&s[1], 1);
    buf_fr_minus_one(&s[1], curve);

    for (uint64_t i = 0; i < 4; i++)
        buf_u64(&s[2], i);
}

/* The tiny circuit with its sections in the order of ids (1, 2, 3 as our
 * writer puts them, or 2, 1, 3 as circom does). */
static buf_t tiny_r1cs(r1cs_curve_t curve, const uint32_t order[3])
{
    buf_t s[3] = {{0}}, ordered[3], out = {0};
    tiny_r1cs_sections(s, curve);
    for (int i = 0; i < 3; i++)
        ordered[i] = s[order[i] - 1];
    build_container(&out, "r1cs", 1, 3, order, ordered);
    for (int i = 0; i < 3; i++)
        buf_free(&s[i]);
    return out;
}

static const uint32_t order_123[3] = {1, 2, 3};
static const uint32_t order_213[3] = {2, 1, 3};

/* Witness 1, 6, 2, 3 of the tiny circuit. */
static buf_t tiny_wtns(r1cs_curve_t curve)
{
    static const uint64_t w[4] = {1, 6, 2, 3};
    buf_t s[2] = {{0}}, out = {0};
    buf_u32(&s[0], IO_FR_BYTES);
    buf_prime(&s[0], curve);
    buf_u32(&s[0], 4);
    for (int i = 0; i < 4; i++)
        buf_fr_small(&s[1], w[i]);
    static const uint32_t ids[2] = {1, 2};
    build_container(&out, "wtns", 2, 2, ids, s);
    buf_free(&s[0]);
    buf_free(&s[1]);
    return out;
}

/* ---- container and file map -------------------------------------------- */

static void test_container_lookup(void **state)
{
    (void)state;
    buf_t s[3] = {{0}}, b = {0};
    buf_u32(&s[0], 7);
    buf_u64(&s[2], 9);
    static const uint32_t ids[3] = {42, 5, 17};
    build_container(&b, "zkey", ZKEY_VERSION, 3, ids, s);
    iden3_file_t f;
    char err[IO_ERR_MAX];
    assert_int_equal(iden3_parse(&f, b.p, b.n, "x.zkey", "zkey", ZKEY_VERSION, err, sizeof(err)),
                     CUZK_OK);
    assert_int_equal(f.n_sections, 3);
    const iden3_section_t *sec = iden3_find(&f, 42);
    assert_non_null(sec);
    assert_int_equal(sec->size, 4);
    assert_int_equal(io_load_u32(b.p + sec->offset), 7);
    assert_int_equal(iden3_find(&f, 5)->size, 0);
    assert_int_equal(io_load_u64(b.p + iden3_find(&f, 17)->offset), 9);
    assert_null(iden3_find(&f, 1));
    assert_null(iden3_find(&f, 100));
    assert_int_equal(iden3_require(&f, 6, "six", &sec, err, sizeof(err)), CUZK_EBADFILE);
    assert_string_equal(err, "x.zkey: section 6 (six) is missing");
    iden3_free(&f);
    iden3_free(&f);

    /* a header-only file with no sections is a valid container */
    buf_t empty = {0};
    build_container(&empty, "ptau", PTAU_VERSION, 0, NULL, NULL);
    assert_int_equal(
        iden3_parse(&f, empty.p, empty.n, "x.ptau", "ptau", PTAU_VERSION, err, sizeof(err)),
        CUZK_OK);
    assert_null(iden3_find(&f, 1));
    iden3_free(&f);
    buf_free(&empty);
    for (int i = 0; i < 3; i++)
        buf_free(&s[i]);
    buf_free(&b);
}

static void test_map_errors(void **state)
{
    (void)state;
    io_map_t m;
    char err[IO_ERR_MAX];
    /* a path that names no readable file is CUZK_ENOFILE, said in a few words */
    assert_int_equal(io_map_open(&m, tmp_path("missing.r1cs"), err, sizeof(err)), CUZK_ENOFILE);
    assert_null(m.data);
    char want[IO_ERR_MAX];
    snprintf(want, sizeof want, "%s: no such file", tmp_path("missing.r1cs"));
    assert_string_equal(err, want);
    assert_int_equal(io_map_open(&m, tmp_path("missing/dir.r1cs"), err, sizeof(err)), CUZK_ENOFILE);
    assert_int_equal(io_map_open(&m, tmp_dir, err, sizeof(err)), CUZK_ENOFILE);
    snprintf(want, sizeof want, "%s: is a directory", tmp_dir);
    assert_string_equal(err, want);

    /* an empty file maps to nothing, and the reader calls it truncated */
    FILE *f = fopen(tmp_path("empty.r1cs"), "wb");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(io_map_open(&m, tmp_path("empty.r1cs"), err, sizeof(err)), CUZK_OK);
    assert_int_equal(m.size, 0);
    io_map_close(&m);
    r1cs_t r;
    assert_int_equal(r1cs_file_read(&r, tmp_path("empty.r1cs"), err, sizeof(err)), CUZK_EBADFILE);
    assert_non_null(strstr(err, "empty.r1cs: truncated"));
    unlink(tmp_path("empty.r1cs"));

    /* messages are cut to the buffer, NUL-terminated; no buffer is fine */
    char small[12];
    assert_int_equal(io_map_open(&m, tmp_path("missing.r1cs"), small, sizeof(small)), CUZK_ENOFILE);
    assert_int_equal(strlen(small), sizeof(small) - 1);
    assert_int_equal(io_map_open(&m, tmp_path("missing.r1cs"), NULL, 0), CUZK_ENOFILE);
}

/* ---- .r1cs --------------------------------------------------------------- */

static cuzk_status_t r1cs_parse_status(const buf_t *b)
{
    char err[IO_ERR_MAX] = "";
    r1cs_t r;
    cuzk_status_t st = r1cs_file_parse(&r, b->p, b->n, BAD_R1CS, err, sizeof(err));
    if (st == CUZK_EBADFILE) {
        assert_non_null(strstr(err, BAD_R1CS ": "));
        assert_non_null(strstr(err, "truncated"));
    }
    r1cs_free(&r);
    return st;
}

/* The hand-built circuit reads as written, in either section order, and our
 * writer reproduces its bytes exactly. */
static void test_r1cs_hand_built(void **state)
{
    (void)state;
    static const r1cs_curve_t curves[] = {R1CS_CURVE_BN254, R1CS_CURVE_BLS12_381};
    for (size_t ci = 0; ci < 2; ci++) {
        const uint32_t *orders[] = {order_213, order_123};
        for (int o = 0; o < 2; o++) {
            buf_t b = tiny_r1cs(curves[ci], orders[o]);
            r1cs_t r;
            char err[IO_ERR_MAX] = "";
            cuzk_status_t st = r1cs_file_parse(&r, b.p, b.n, "tiny.r1cs", err, sizeof(err));
            if (st != CUZK_OK)
                fail_msg("%s", err);
            assert_int_equal(r.curve, curves[ci]);
            const r1cs_shape_t *sh = r1cs_shape(&r);
            assert_int_equal(sh->n_wires, 4);
            assert_int_equal(sh->n_pub_out, 1);
            assert_int_equal(sh->n_pub_in, 0);
            assert_int_equal(sh->n_prv_in, 2);
            assert_int_equal(sh->n_labels, 4);
            assert_int_equal(sh->n_constraints, 2);

            r1cs_witness_t w;
            assert_int_equal(r1cs_witness_alloc(&w, curves[ci], 4), CUZK_OK);
            static const uint64_t values[4] = {1, 6, 2, 3};
            for (int i = 0; i < 4; i++) {
                unsigned char le[IO_FR_BYTES] = {(unsigned char)values[i]};
                void *v = curves[ci] == R1CS_CURVE_BN254 ? (void *)w.v.bn254 : (void *)w.v.bls381;
                assert_int_equal(io_fr_from_le(curves[ci], v, (uint64_t)i, le), CUZK_OK);
            }
            uint32_t bad = 99;
            assert_int_equal(r1cs_check(NULL, &r, &w, &bad), CUZK_OK);
            if (curves[ci] == R1CS_CURVE_BN254) {
                const bn254_r1cs_t *t = &r.u.bn254;
                assert_int_equal(bn254_csr_nnz(&t->a), 1);
                assert_int_equal(t->a.col[0], 2);
                assert_int_equal(t->c.row_ptr[1], 1);
                assert_int_equal(t->c.row_ptr[2], 3);
                bn254_fr_t minus_one;
                bn254_fr_neg(&minus_one, &bn254_fr_ONE);
                assert_true(bn254_fr_equal(&t->c.val[2], &minus_one));
                bn254_fr_from_u64(&w.v.bn254[3], 4); /* b = 4: a·b != out */
            } else {
                const bls381_r1cs_t *t = &r.u.bls381;
                bls381_fr_t minus_one;
                bls381_fr_neg(&minus_one, &bls381_fr_ONE);
                assert_true(bls381_fr_equal(&t->c.val[2], &minus_one));
                bls381_fr_from_u64(&w.v.bls381[1], 7); /* out = 7: a·b != out, 6 != out */
            }
            assert_int_equal(r1cs_check(NULL, &r, &w, &bad), CUZK_EWITNESS);
            assert_int_equal(bad, 0);
            r1cs_witness_free(&w);

            const char *path = tmp_path("tiny.r1cs");
            assert_int_equal(r1cs_file_write(path, &r, err, sizeof(err)), CUZK_OK);
            buf_t again = read_whole(path);
            buf_t expect = tiny_r1cs(curves[ci], order_123);
            assert_int_equal(again.n, expect.n);
            assert_memory_equal(again.p, expect.p, expect.n);
            unlink(path);
            buf_free(&again);
            buf_free(&expect);
            r1cs_free(&r);
            buf_free(&b);
        }
    }
}

static void assert_r1cs_equal(const r1cs_t *x, const r1cs_t *y)
{
    assert_int_equal(x->curve, y->curve);
    const r1cs_shape_t *a = r1cs_shape(x), *b = r1cs_shape(y);
    assert_int_equal(a->n_wires, b->n_wires);
    assert_int_equal(a->n_pub_out, b->n_pub_out);
    assert_int_equal(a->n_pub_in, b->n_pub_in);
    assert_int_equal(a->n_prv_in, b->n_prv_in);
    assert_int_equal(a->n_constraints, b->n_constraints);
    assert_int_equal(a->n_labels, b->n_labels);
#define ASSERT_CSR_EQUAL(m, n)                                                                     \
    do {                                                                                           \
        assert_int_equal((m).n_rows, (n).n_rows);                                                  \
        assert_int_equal((m).n_cols, (n).n_cols);                                                  \
        assert_memory_equal((m).row_ptr, (n).row_ptr, ((size_t)(m).n_rows + 1) * 8);               \
        uint64_t nnz_ = (m).row_ptr[(m).n_rows];                                                   \
        if (nnz_) {                                                                                \
            assert_memory_equal((m).col, (n).col, nnz_ * sizeof(*(m).col));                        \
            assert_memory_equal((m).val, (n).val, nnz_ * sizeof(*(m).val));                        \
        }                                                                                          \
    } while (0)
    if (x->curve == R1CS_CURVE_BN254) {
        ASSERT_CSR_EQUAL(x->u.bn254.a, y->u.bn254.a);
        ASSERT_CSR_EQUAL(x->u.bn254.b, y->u.bn254.b);
        ASSERT_CSR_EQUAL(x->u.bn254.c, y->u.bn254.c);
    } else {
        ASSERT_CSR_EQUAL(x->u.bls381.a, y->u.bls381.a);
        ASSERT_CSR_EQUAL(x->u.bls381.b, y->u.bls381.b);
        ASSERT_CSR_EQUAL(x->u.bls381.c, y->u.bls381.c);
    }
#undef ASSERT_CSR_EQUAL
}

static void *witness_values(const r1cs_witness_t *w)
{
    return w->curve == R1CS_CURVE_BN254 ? (void *)w->v.bn254 : (void *)w->v.bls381;
}

/* A random satisfiable circuit of the curve and a witness for it. */
static void random_circuit(r1cs_t *r, r1cs_witness_t *w, r1cs_curve_t curve,
                           const r1cs_shape_t *shape, uint32_t max_terms)
{
    assert_int_equal(r1cs_witness_alloc(w, curve, shape->n_wires), CUZK_OK);
    r->curve = curve;
    cuzk_status_t st =
        curve == R1CS_CURVE_BN254
            ? bn254_r1cs_random(&r->u.bn254, w->v.bn254, shape, max_terms, &test_rng)
            : bls381_r1cs_random(&r->u.bls381, w->v.bls381, shape, max_terms, &test_rng);
    assert_int_equal(st, CUZK_OK);
}

/* writer → reader on random circuits and witnesses of both curves, with
 * the sections also reordered (2, 3, 1) and an unknown section added. */
static void test_round_trip_random(void **state)
{
    (void)state;
    static const r1cs_curve_t curves[] = {R1CS_CURVE_BN254, R1CS_CURVE_BLS12_381};
    for (int it = 0; it < test_iters(12); it++) {
        uint64_t rnd = rng_next(&test_rng);
        r1cs_curve_t curve = curves[it % 2];
        r1cs_shape_t shape = {.n_pub_out = (uint32_t)(rnd % 3),
                              .n_pub_in = (uint32_t)((rnd >> 4) % 3),
                              .n_prv_in = (uint32_t)((rnd >> 8) % 4),
                              .n_constraints = it < 2 ? (uint32_t)it : (uint32_t)((rnd >> 12) % 90),
                              .n_labels = 1000 + (rnd >> 20) % 1000};
        shape.n_wires =
            1 + shape.n_pub_out + shape.n_pub_in + shape.n_prv_in + (uint32_t)((rnd >> 32) % 50);
        r1cs_t r;
        r1cs_witness_t w;
        random_circuit(&r, &w, curve, &shape, 1 + (uint32_t)((rnd >> 40) % 6));
        char err[IO_ERR_MAX] = "";
        const char *rpath = tmp_path("rt.r1cs");
        assert_int_equal(r1cs_file_write(rpath, &r, err, sizeof(err)), CUZK_OK);
        r1cs_t back;
        assert_int_equal(r1cs_file_read(&back, rpath, err, sizeof(err)), CUZK_OK);
        assert_r1cs_equal(&r, &back);
        r1cs_free(&back);

        buf_t b = read_whole(rpath);
        uint32_t ids[4] = {2, 3, 1, 77};
        buf_t s[4] = {{0}}, shuffled = {0};
        for (int i = 0; i < 3; i++) {
            size_t rec = 0, at = section_at(&b, ids[i], &rec);
            buf_put(&s[i], b.p + at, io_load_u64(b.p + rec + 4));
        }
        buf_u32(&s[3], 0xdeadbeef);
        build_container(&shuffled, "r1cs", 1, 4, ids, s);
        assert_int_equal(r1cs_file_parse(&back, shuffled.p, shuffled.n, "x", err, sizeof(err)),
                         CUZK_OK);
        assert_r1cs_equal(&r, &back);
        r1cs_free(&back);

        const char *wpath = tmp_path("rt.wtns");
        assert_int_equal(wtns_file_write(wpath, &w, err, sizeof(err)), CUZK_OK);
        r1cs_witness_t wb;
        assert_int_equal(wtns_file_read(&wb, wpath, NULL, err, sizeof(err)), CUZK_OK);
        assert_int_equal(wb.curve, curve);
        assert_int_equal(wb.n, w.n);
        assert_memory_equal(witness_values(&wb), witness_values(&w), (size_t)w.n * IO_FR_BYTES);
        uint32_t bad;
        assert_int_equal(r1cs_check(NULL, &r, &wb, &bad), CUZK_OK);

        for (int i = 0; i < 4; i++)
            buf_free(&s[i]);
        buf_free(&shuffled);
        buf_free(&b);
        unlink(rpath);
        unlink(wpath);
        r1cs_witness_free(&wb);
        r1cs_witness_free(&w);
        r1cs_free(&r);
    }
}

static void test_r1cs_truncated(void **state)
{
    (void)state;
    buf_t b = tiny_r1cs(R1CS_CURVE_BN254, order_213);
    check_truncations(&b, r1cs_parse_status);
    buf_free(&b);
}

static void test_r1cs_corrupt_container(void **state)
{
    (void)state;
    buf_t b = tiny_r1cs(R1CS_CURVE_BN254, order_123), c;

    c = buf_copy(&b);
    memcpy(c.p, "wtns", 4);
    expect_r1cs(&c, CUZK_EBADFILE, "not a .r1cs file", "magic \"wtns\"");
    c.p[0] = 0;
    expect_r1cs(&c, CUZK_EBADFILE, "magic \"\\x00tns\"");
    buf_free(&c);

    c = buf_copy(&b);
    store_u32(&c, 4, 2);
    expect_r1cs(&c, CUZK_EUNSUPPORTED, "version 2", "reads version 1");
    buf_free(&c);

    c = buf_copy(&b);
    store_u32(&c, 8, 0xffffffff);
    expect_r1cs(&c, CUZK_EBADFILE, "truncated", "4294967295 sections");
    store_u32(&c, 8, 4);
    expect_r1cs(&c, CUZK_EBADFILE, "truncated", "section record 4 of 4");
    buf_free(&c);

    /* section sizes that overflow the file, with and without u64 wrap-around */
    size_t rec = 0;
    section_at(&b, R1CS_SECTION_CONSTRAINTS, &rec);
    c = buf_copy(&b);
    store_u64(&c, rec + 4, UINT64_MAX);
    expect_r1cs(&c, CUZK_EBADFILE, "section 2 (record 2 of 3)", "truncated");
    store_u64(&c, rec + 4, UINT64_MAX - rec);
    expect_r1cs(&c, CUZK_EBADFILE, "section 2 (record 2 of 3)", "truncated");
    store_u64(&c, rec + 4, b.n);
    expect_r1cs(&c, CUZK_EBADFILE, "section 2", "the file ends at");
    buf_free(&c);

    c = buf_copy(&b);
    buf_u32(&c, 0);
    expect_r1cs(&c, CUZK_EBADFILE, "4 unexpected bytes after the last of 3 sections");
    buf_free(&c);

    uint32_t four = 4;
    c = add_section(&b, R1CS_SECTION_HEADER, &four, 4);
    expect_r1cs(&c, CUZK_EBADFILE, "section 1 appears twice");
    buf_free(&c);

    static const struct {
        uint32_t id;
        const char *message;
    } missing[] = {{1, "section 1 (header) is missing"},
                   {2, "section 2 (constraints) is missing"},
                   {3, "section 3 (wire map) is missing"}};
    for (int i = 0; i < 3; i++) {
        c = drop_section(&b, missing[i].id);
        expect_r1cs(&c, CUZK_EBADFILE, missing[i].message);
        buf_free(&c);
    }

    c = add_section(&b, R1CS_SECTION_CUSTOM_GATES_LIST, NULL, 0);
    expect_r1cs(&c, CUZK_EUNSUPPORTED, "section 4 (custom gates list)", "not a Groth16");
    buf_free(&c);
    c = add_section(&b, R1CS_SECTION_CUSTOM_GATES_USES, NULL, 0);
    expect_r1cs(&c, CUZK_EUNSUPPORTED, "section 5 (custom gates uses)");
    buf_free(&c);
    buf_free(&b);
}

static void test_r1cs_corrupt_header(void **state)
{
    (void)state;
    buf_t b = tiny_r1cs(R1CS_CURVE_BN254, order_123), c;
    size_t h = section_at(&b, R1CS_SECTION_HEADER, NULL);

    c = buf_copy(&b);
    store_u32(&c, h + H_N8, 48);
    expect_r1cs(&c, CUZK_EUNSUPPORTED, "section 1 (header)", "n8 = 48");
    buf_free(&c);

    /* BN254's base field q: a prime circom accepts, but not an r we know */
    static const unsigned char q_le[IO_FR_BYTES] = {0x47, 0xfd, 0x7c, 0xd8, 0x16, 0x8c, 0x20, 0x3c,
                                                    0x8d, 0xca, 0x71, 0x68, 0x91, 0x6a, 0x81, 0x97,
                                                    0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45, 0x50, 0xb8,
                                                    0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30};
    c = buf_copy(&b);
    memcpy(c.p + h + H_PRIME, q_le, IO_FR_BYTES);
    expect_r1cs(&c, CUZK_EUNSUPPORTED, "section 1 (header)",
                "prime 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
                "neither");
    buf_free(&c);

    c = buf_copy(&b);
    store_u32(&c, h + H_NPRVIN, 3); /* 1 + 1 + 0 + 3 > 4 wires */
    expect_r1cs(&c, CUZK_EBADFILE, "section 1 (header)", "nWires = 4", "= 5");
    store_u32(&c, h + H_NPRVIN, 0xffffffff); /* the sum must not wrap */
    expect_r1cs(&c, CUZK_EBADFILE, "section 1 (header)", "nWires = 4");
    buf_free(&c);

    /* a header one byte too long (the extra byte taken from nothing: a new
     * container with a 65-byte header) */
    buf_t s[3] = {{0}}, longer = {0};
    tiny_r1cs_sections(s, R1CS_CURVE_BN254);
    buf_put(&s[0], "", 1);
    build_container(&longer, "r1cs", 1, 3, order_123, s);
    expect_r1cs(&longer, CUZK_EBADFILE, "section 1 (header)", "1 bytes left over");
    buf_free(&longer);
    s[0].n = 30; /* and one cut short inside the prime */
    build_container(&longer, "r1cs", 1, 3, order_123, s);
    expect_r1cs(&longer, CUZK_EBADFILE, "section 1 (header)", "truncated: the prime needs 32");
    for (int i = 0; i < 3; i++)
        buf_free(&s[i]);
    buf_free(&longer);
    buf_free(&b);
}

static void test_r1cs_corrupt_constraints(void **state)
{
    (void)state;
    buf_t b = tiny_r1cs(R1CS_CURVE_BN254, order_123), c;
    size_t h = section_at(&b, R1CS_SECTION_HEADER, NULL);
    size_t k = section_at(&b, R1CS_SECTION_CONSTRAINTS, NULL);

    c = buf_copy(&b);
    store_u32(&c, h + H_MCONSTRAINTS, 3);
    expect_r1cs(&c, CUZK_EBADFILE, "section 2 (constraints)", "truncated: constraint 2 of 3, A");
    store_u32(&c, h + H_MCONSTRAINTS, 1);
    expect_r1cs(&c, CUZK_EBADFILE, "section 2 (constraints)", "84 bytes left over");
    buf_free(&c);

    c = buf_copy(&b);
    store_u32(&c, k + C0_A_NTERMS, 1000);
    expect_r1cs(&c, CUZK_EBADFILE, "section 2 (constraints)", "constraint 0 of 2, A: 1000 terms");
    buf_free(&c);

    c = buf_copy(&b);
    store_u32(&c, k + C0_A_WIRE, 4);
    expect_r1cs(&c, CUZK_EBADFILE, "section 2 (constraints)",
                "constraint 0, A term 0: wire 4 but the header declares 4 wires");
    buf_free(&c);

    c = buf_copy(&b);
    store_u32(&c, k + C1_C_WIRE0, 1); /* 1, 1 */
    expect_r1cs(&c, CUZK_EBADFILE, "section 2 (constraints)",
                "constraint 1, C: wire 1 appears twice");
    buf_free(&c);

    /* circom writes some combinations out of order: read them sorted, with
     * each coefficient still beside its wire. */
    c = buf_copy(&b);
    uint32_t w0 = io_load_u32(c.p + k + C1_C_WIRE0), w1 = io_load_u32(c.p + k + C1_C_WIRE1);
    assert_true(w0 < w1);
    store_u32(&c, k + C1_C_WIRE0, w1);
    store_u32(&c, k + C1_C_WIRE1, w0);
    unsigned char coef0[IO_FR_BYTES], coef1[IO_FR_BYTES];
    memcpy(coef0, c.p + k + C1_C_WIRE0 + 4, IO_FR_BYTES);
    memcpy(coef1, c.p + k + C1_C_COEF1, IO_FR_BYTES);
    memcpy(c.p + k + C1_C_WIRE0 + 4, coef1, IO_FR_BYTES);
    memcpy(c.p + k + C1_C_COEF1, coef0, IO_FR_BYTES);
    r1cs_t swapped, orig;
    char sort_err[IO_ERR_MAX] = "";
    assert_int_equal(r1cs_file_parse(&swapped, c.p, c.n, BAD_R1CS, sort_err, sizeof(sort_err)),
                     CUZK_OK);
    assert_int_equal(r1cs_file_parse(&orig, b.p, b.n, BAD_R1CS, sort_err, sizeof(sort_err)),
                     CUZK_OK);
    const bn254_csr_t *cs = &swapped.u.bn254.c, *co = &orig.u.bn254.c;
    assert_int_equal(cs->row_ptr[2], co->row_ptr[2]);
    for (uint64_t e = co->row_ptr[1]; e < co->row_ptr[2]; e++) {
        assert_int_equal(cs->col[e], co->col[e]);
        assert_true(bn254_fr_equal(&cs->val[e], &co->val[e]));
    }
    r1cs_free(&swapped);
    r1cs_free(&orig);
    buf_free(&c);

    unsigned char r[IO_FR_BYTES];
    io_fr_prime_le(R1CS_CURVE_BN254, r);
    c = buf_copy(&b);
    memcpy(c.p + k + C1_C_COEF1, r, IO_FR_BYTES);
    expect_r1cs(&c, CUZK_ENONCANONICAL, "section 2 (constraints)",
                "constraint 1, C term 1 (wire 1): coefficient not below r of BN254");
    memset(c.p + k + C0_A_COEF, 0xff, IO_FR_BYTES); /* the first bad one is named */
    expect_r1cs(&c, CUZK_ENONCANONICAL, "constraint 0, A term 0 (wire 2)");
    buf_free(&c);

    /* a BN254 r is a valid BLS12-381 coefficient (r_BN254 < r_BLS) */
    buf_t bls = tiny_r1cs(R1CS_CURVE_BLS12_381, order_123);
    size_t kb = section_at(&bls, R1CS_SECTION_CONSTRAINTS, NULL);
    memcpy(bls.p + kb + C1_C_COEF1, r, IO_FR_BYTES);
    r1cs_t ok;
    char err[IO_ERR_MAX];
    assert_int_equal(r1cs_file_parse(&ok, bls.p, bls.n, "x", err, sizeof(err)), CUZK_OK);
    r1cs_free(&ok);
    io_fr_prime_le(R1CS_CURVE_BLS12_381, r);
    memcpy(bls.p + kb + C1_C_COEF1, r, IO_FR_BYTES);
    expect_r1cs(&bls, CUZK_ENONCANONICAL, "not below r of BLS12-381");
    buf_free(&bls);

    /* the wire map must hold 8 bytes per wire */
    c = buf_copy(&b);
    store_u32(&c, h + H_NWIRES, 5);
    expect_r1cs(&c, CUZK_EBADFILE, "section 3 (wire map)", "size 32", "8 × 5 = 40");
    buf_free(&c);
    buf_free(&b);
}

static void test_r1cs_write_errors(void **state)
{
    (void)state;
    buf_t b = tiny_r1cs(R1CS_CURVE_BN254, order_123);
    r1cs_t r;
    char err[IO_ERR_MAX];
    assert_int_equal(r1cs_file_parse(&r, b.p, b.n, "tiny", err, sizeof(err)), CUZK_OK);
    assert_int_equal(r1cs_file_write(tmp_path("no/such/dir.r1cs"), &r, err, sizeof(err)), CUZK_EIO);
    assert_non_null(strstr(err, "no/such/dir.r1cs: the directory"));
    assert_non_null(strstr(err, "does not exist"));

    const char *path = tmp_path("bad-input.r1cs");
    r.u.bn254.c.col[1] = 1; /* constraint 1, C: wires 1, 1 */
    assert_int_equal(r1cs_file_write(path, &r, err, sizeof(err)), CUZK_EINVAL);
    assert_non_null(strstr(err, "matrix C, row 1"));
    assert_int_equal(access(path, F_OK), -1); /* nothing written */
    r.u.bn254.c.col[1] = 0;
    r.u.bn254.shape.n_wires = 5;
    assert_int_equal(r1cs_file_write(path, &r, err, sizeof(err)), CUZK_EINVAL);
    assert_non_null(strstr(err, "matrix A is 2 × 4"));
    r1cs_free(&r);
    assert_int_equal(r1cs_file_write(path, &r, err, sizeof(err)), CUZK_EINVAL);
    buf_free(&b);
}

/* ---- .wtns --------------------------------------------------------------- */

static cuzk_status_t wtns_parse_status(const buf_t *b)
{
    char err[IO_ERR_MAX] = "";
    r1cs_witness_t w;
    cuzk_status_t st = wtns_file_parse(&w, b->p, b->n, BAD_WTNS, NULL, err, sizeof(err));
    if (st == CUZK_EBADFILE) {
        assert_non_null(strstr(err, BAD_WTNS ": "));
        assert_non_null(strstr(err, "truncated"));
    }
    r1cs_witness_free(&w);
    return st;
}

/* The hand-built witness reads as 1, 6, 2, 3 in Montgomery form, and the
 * writer reproduces its bytes. */
static void test_wtns_hand_built(void **state)
{
    (void)state;
    static const r1cs_curve_t curves[] = {R1CS_CURVE_BN254, R1CS_CURVE_BLS12_381};
    for (size_t ci = 0; ci < 2; ci++) {
        buf_t b = tiny_wtns(curves[ci]);
        assert_int_equal(b.n, 76 + 4 * 32); /* FORMATS.md section 4: data at 76 */
        r1cs_witness_t w;
        char err[IO_ERR_MAX] = "";
        assert_int_equal(wtns_file_parse(&w, b.p, b.n, "tiny.wtns", NULL, err, sizeof(err)),
                         CUZK_OK);
        assert_int_equal(w.curve, curves[ci]);
        assert_int_equal(w.n, 4);
        static const uint64_t values[4] = {1, 6, 2, 3};
        for (int i = 0; i < 4; i++) {
            if (curves[ci] == R1CS_CURVE_BN254) {
                bn254_fr_t x;
                bn254_fr_from_u64(&x, values[i]);
                assert_true(bn254_fr_equal(&x, &w.v.bn254[i]));
            } else {
                bls381_fr_t x;
                bls381_fr_from_u64(&x, values[i]);
                assert_true(bls381_fr_equal(&x, &w.v.bls381[i]));
            }
        }
        const char *path = tmp_path("tiny.wtns");
        assert_int_equal(wtns_file_write(path, &w, err, sizeof(err)), CUZK_OK);
        buf_t again = read_whole(path);
        assert_int_equal(again.n, b.n);
        assert_memory_equal(again.p, b.p, b.n);
        unlink(path);
        buf_free(&again);
        r1cs_witness_free(&w);
        buf_free(&b);
    }
}

static void test_wtns_truncated(void **state)
{
    (void)state;
    buf_t b = tiny_wtns(R1CS_CURVE_BLS12_381);
    check_truncations(&b, wtns_parse_status);
    buf_free(&b);
}

static void test_wtns_corrupt(void **state)
{
    (void)state;
    buf_t b = tiny_wtns(R1CS_CURVE_BN254), c;
    size_t h = section_at(&b, WTNS_SECTION_HEADER, NULL);
    size_t rec = 0, d = section_at(&b, WTNS_SECTION_DATA, &rec);

    c = buf_copy(&b);
    memcpy(c.p, "r1cs", 4);
    expect_wtns(&c, CUZK_EBADFILE, "not a .wtns file");
    buf_free(&c);

    c = buf_copy(&b);
    store_u32(&c, 4, 1);
    expect_wtns(&c, CUZK_EUNSUPPORTED, "version 1", "reads version 2");
    buf_free(&c);

    c = buf_copy(&b);
    store_u32(&c, h, 48);
    expect_wtns(&c, CUZK_EUNSUPPORTED, "section 1 (header)", "n8 = 48");
    buf_free(&c);

    c = buf_copy(&b);
    c.p[h + 4] ^= 2; /* r + 2 */
    expect_wtns(&c, CUZK_EUNSUPPORTED, "section 1 (header)",
                "prime 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000003");
    buf_free(&c);

    c = buf_copy(&b);
    store_u32(&c, h + 36, 5);
    expect_wtns(&c, CUZK_EBADFILE, "section 2 (witness)", "size 128",
                "expected nWitness × 32 = 5 × 32 = 160");
    store_u32(&c, h + 36, 3);
    expect_wtns(&c, CUZK_EBADFILE, "section 2 (witness)", "= 96");
    /* a section 2 that disagrees by exactly 2^32 bytes points at circom_runtime */
    store_u32(&c, h + 36, (uint32_t)1 << 27 | 4);
    expect_wtns(&c, CUZK_EBADFILE, "section 2 (witness)", "multiple of 2^32");
    buf_free(&c);

    c = buf_copy(&b);
    c.p[d] = 2;
    expect_wtns(&c, CUZK_EWITNESS, "section 2 (witness)", "w[0]", "must be 1");
    c.p[d] = 0;
    expect_wtns(&c, CUZK_EWITNESS, "w[0]");
    buf_free(&c);

    unsigned char r[IO_FR_BYTES];
    io_fr_prime_le(R1CS_CURVE_BN254, r);
    c = buf_copy(&b);
    memcpy(c.p + d + 2 * IO_FR_BYTES, r, IO_FR_BYTES);
    expect_wtns(&c, CUZK_ENONCANONICAL, "section 2 (witness)", "w[2] is not below r of BN254");
    buf_free(&c);

    /* nWitness = 0: a well-formed but empty witness has no w[0] = 1 */
    buf_t s[2] = {{0}}, empty = {0};
    buf_u32(&s[0], IO_FR_BYTES);
    buf_prime(&s[0], R1CS_CURVE_BN254);
    buf_u32(&s[0], 0);
    static const uint32_t ids[2] = {WTNS_SECTION_HEADER, WTNS_SECTION_DATA};
    build_container(&empty, "wtns", 2, 2, ids, s);
    expect_wtns(&empty, CUZK_EWITNESS, "section 2 (witness)", "empty");
    buf_free(&empty);
    buf_u32(&s[0], 0); /* header of 44 bytes */
    build_container(&empty, "wtns", 2, 2, ids, s);
    expect_wtns(&empty, CUZK_EBADFILE, "section 1 (header)", "4 bytes left over");
    buf_free(&empty);
    buf_free(&s[0]);
    buf_free(&s[1]);

    c = drop_section(&b, WTNS_SECTION_DATA);
    expect_wtns(&c, CUZK_EBADFILE, "section 2 (witness) is missing");
    buf_free(&c);
    c = drop_section(&b, WTNS_SECTION_HEADER);
    expect_wtns(&c, CUZK_EBADFILE, "section 1 (header) is missing");
    buf_free(&c);
    c = add_section(&b, WTNS_SECTION_HEADER, b.p + h, 40);
    expect_wtns(&c, CUZK_EBADFILE, "section 1 appears twice", "records at bytes 12 and 204");
    buf_free(&c);
    c = buf_copy(&b);
    store_u64(&c, rec + 4, 129);
    expect_wtns(&c, CUZK_EBADFILE, "section 2 (record 2 of 2)", "declares 129 bytes");
    buf_free(&c);

    /* an unknown section is skipped */
    c = add_section(&b, 99, "x", 1);
    r1cs_witness_t w;
    char err[IO_ERR_MAX];
    assert_int_equal(wtns_file_parse(&w, c.p, c.n, "x", NULL, err, sizeof(err)), CUZK_OK);
    r1cs_witness_free(&w);
    buf_free(&c);
    buf_free(&b);
}

/* A witness of several pool chunks reads the same on a pool as on the
 * calling thread, and a value not below r is named by its lowest index
 * whichever thread meets it first. */
static void test_wtns_on_pool(void **state)
{
    (void)state;
    enum { N = 5 * 8192 + 7 };
    buf_t s[2] = {{0}}, b = {0};
    buf_u32(&s[0], IO_FR_BYTES);
    buf_prime(&s[0], R1CS_CURVE_BLS12_381);
    buf_u32(&s[0], N);
    buf_fr_small(&s[1], 1);
    for (uint64_t i = 1; i < N; i++)
        buf_fr_small(&s[1], i * 2654435761u);
    static const uint32_t ids[2] = {WTNS_SECTION_HEADER, WTNS_SECTION_DATA};
    build_container(&b, "wtns", 2, 2, ids, s);
    buf_free(&s[0]);
    buf_free(&s[1]);
    pool_t *pool = pool_new(4, NULL);
    assert_non_null(pool);
    r1cs_witness_t one, many;
    char err[IO_ERR_MAX] = "";
    assert_int_equal(wtns_file_parse(&one, b.p, b.n, "w.wtns", NULL, err, sizeof(err)), CUZK_OK);
    assert_int_equal(wtns_file_parse(&many, b.p, b.n, "w.wtns", pool, err, sizeof(err)), CUZK_OK);
    assert_int_equal(many.n, N);
    assert_memory_equal(one.v.bls381, many.v.bls381, (size_t)N * sizeof(bls381_fr_t));
    r1cs_witness_free(&one);
    r1cs_witness_free(&many);

    size_t d = section_at(&b, WTNS_SECTION_DATA, NULL);
    unsigned char r[IO_FR_BYTES];
    io_fr_prime_le(R1CS_CURVE_BLS12_381, r);
    memcpy(b.p + d + (size_t)30000 * IO_FR_BYTES, r, IO_FR_BYTES);
    memcpy(b.p + d + (size_t)9000 * IO_FR_BYTES, r, IO_FR_BYTES);
    memcpy(b.p + d + (size_t)9001 * IO_FR_BYTES, r, IO_FR_BYTES);
    for (int k = 0; k < 8; k++) {
        assert_int_equal(wtns_file_parse(&many, b.p, b.n, "w.wtns", pool, err, sizeof(err)),
                         CUZK_ENONCANONICAL);
        assert_non_null(strstr(err, "w[9000] is not below r of BLS12-381"));
        assert_int_equal(many.curve, R1CS_CURVE_NONE);
    }
    pool_free(pool);
    buf_free(&b);
}

static void test_wtns_path_errors(void **state)
{
    (void)state;
    r1cs_witness_t w;
    char err[IO_ERR_MAX];
    assert_int_equal(wtns_file_read(&w, tmp_path("missing.wtns"), NULL, err, sizeof(err)),
                     CUZK_ENOFILE);
    assert_non_null(strstr(err, "missing.wtns: no such file"));
    assert_int_equal(r1cs_witness_alloc(&w, R1CS_CURVE_BN254, 1), CUZK_OK);
    bn254_fr_set_one(&w.v.bn254[0]);
    assert_int_equal(wtns_file_write(tmp_path("no/dir.wtns"), &w, err, sizeof(err)), CUZK_EIO);
    assert_non_null(strstr(err, "no/dir.wtns: the directory"));
    r1cs_witness_free(&w);
    assert_int_equal(wtns_file_write(tmp_path("x.wtns"), &w, err, sizeof(err)), CUZK_EINVAL);

    /* a write error (a full device, written in place) is reported and the
     * device left where it is */
    if (access("/dev/full", W_OK) == 0) {
        assert_int_equal(r1cs_witness_alloc(&w, R1CS_CURVE_BN254, 5000), CUZK_OK);
        for (uint32_t i = 0; i < w.n; i++)
            bn254_fr_set_one(&w.v.bn254[i]);
        assert_int_equal(wtns_file_write("/dev/full", &w, err, sizeof(err)), CUZK_EIO);
        assert_non_null(strstr(err, "/dev/full: write failed: No space left on device"));
        struct stat st;
        assert_int_equal(lstat("/dev/full", &st), 0);
        assert_true(S_ISCHR(st.st_mode));
        r1cs_witness_free(&w);
    }
}

int main(void)
{
    test_seed_init("test_io");
    snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/cuzk_test_io.XXXXXX");
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_container_lookup),    cmocka_unit_test(test_map_errors),
        cmocka_unit_test(test_r1cs_hand_built),     cmocka_unit_test(test_round_trip_random),
        cmocka_unit_test(test_r1cs_truncated),      cmocka_unit_test(test_r1cs_corrupt_container),
        cmocka_unit_test(test_r1cs_corrupt_header), cmocka_unit_test(test_r1cs_corrupt_constraints),
        cmocka_unit_test(test_r1cs_write_errors),   cmocka_unit_test(test_wtns_hand_built),
        cmocka_unit_test(test_wtns_truncated),      cmocka_unit_test(test_wtns_corrupt),
        cmocka_unit_test(test_wtns_on_pool),        cmocka_unit_test(test_wtns_path_errors),
    };
    int fails = cmocka_run_group_tests_name("io", tests, NULL, NULL);
    rmdir(tmp_dir);
    return fails;
}
