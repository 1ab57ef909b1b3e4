#include "io/r1cs_file.h"

#include <inttypes.h>
#include <string.h>

#include "io/iden3.h"
#include "io/io_error.h"
#include "io/io_fr.h"
#include "io/io_map.h"

#define R1CS_MAGIC "r1cs"

enum {
    R1CS_HEADER_SIZE = 4 + IO_FR_BYTES + 4 * 4 + 8 + 4, /* n8, r, 4 × u32, u64, u32 */
    R1CS_TERM_SIZE = 4 + IO_FR_BYTES,                   /* wire id, coefficient */
    R1CS_LC_PER_CONSTRAINT = 3,                         /* A, B, C */
    R1CS_WIRE_MAP_ENTRY_SIZE = 8,                       /* u64 label id */
};

static const char *const r1cs_lc_names[R1CS_LC_PER_CONSTRAINT] = {"A", "B", "C"};

/* The arrays of one CSR matrix of either curve, for code that only moves
 * bytes (values are reached through io_fr.h with the curve). */
typedef struct {
    uint32_t n_rows, n_cols;
    uint64_t *row_ptr;
    uint32_t *col;
    void *val;
} r1cs_csr_view_t;

typedef struct {
    uint32_t n_rows, n_cols;
    const uint64_t *row_ptr;
    const uint32_t *col;
    const void *val;
} r1cs_csr_cview_t;

/* Instantiates the per-curve parts: allocating r's matrices and viewing them. */
#define R1CS_FILE_CURVE(NAME)                                                                      \
    static cuzk_status_t NAME##_alloc_views_(NAME##_r1cs_t *t, const r1cs_shape_t *shape,          \
                                             const uint64_t *nnz, r1cs_csr_view_t *v)              \
    {                                                                                              \
        NAME##_csr_t *m[R1CS_LC_PER_CONSTRAINT] = {&t->a, &t->b, &t->c};                           \
        t->shape = *shape;                                                                         \
        for (int j = 0; j < R1CS_LC_PER_CONSTRAINT; j++) {                                         \
            if (NAME##_csr_alloc(m[j], shape->n_constraints, shape->n_wires, nnz[j]) != CUZK_OK)   \
                return CUZK_ENOMEM;                                                                \
            v[j] = (r1cs_csr_view_t){m[j]->n_rows, m[j]->n_cols, m[j]->row_ptr, m[j]->col,         \
                                     m[j]->val};                                                   \
        }                                                                                          \
        return CUZK_OK;                                                                            \
    }                                                                                              \
    static void NAME##_cviews_(const NAME##_r1cs_t *t, r1cs_csr_cview_t *v)                        \
    {                                                                                              \
        const NAME##_csr_t *m[R1CS_LC_PER_CONSTRAINT] = {&t->a, &t->b, &t->c};                     \
        for (int j = 0; j < R1CS_LC_PER_CONSTRAINT; j++)                                           \
            v[j] = (r1cs_csr_cview_t){m[j]->n_rows, m[j]->n_cols, m[j]->row_ptr, m[j]->col,        \
                                      m[j]->val};                                                  \
    }                                                                                              \
    static bool NAME##_valid_(const NAME##_r1cs_t *t, int *bad_matrix, uint32_t *bad_row)          \
    {                                                                                              \
        const NAME##_csr_t *m[R1CS_LC_PER_CONSTRAINT] = {&t->a, &t->b, &t->c};                     \
        for (int j = 0; j < R1CS_LC_PER_CONSTRAINT; j++) {                                         \
            *bad_matrix = j;                                                                       \
            if (!NAME##_csr_is_valid(m[j], bad_row))                                               \
                return false;                                                                      \
        }                                                                                          \
        return true;                                                                               \
    }

R1CS_FILE_CURVE(bn254)
R1CS_FILE_CURVE(bls381)

/* Allocates r's three matrices for the given entry counts and returns
 * writable views of them. On CUZK_ENOMEM r may hold some arrays: free it. */
static cuzk_status_t r1cs_alloc_(r1cs_t *r, r1cs_curve_t curve, const r1cs_shape_t *shape,
                                 const uint64_t *nnz, r1cs_csr_view_t *v)
{
    r->curve = curve;
    if (curve == R1CS_CURVE_BN254)
        return bn254_alloc_views_(&r->u.bn254, shape, nnz, v);
    return bls381_alloc_views_(&r->u.bls381, shape, nnz, v);
}

/* ---- reading --------------------------------------------------------- */

static cuzk_status_t r1cs_read_header_(io_cursor_t *c, r1cs_curve_t *curve, r1cs_shape_t *shape)
{
    cuzk_status_t st;
    uint32_t n8;
    const unsigned char *prime;
    if ((st = io_cursor_u32(c, &n8, "n8")) != CUZK_OK)
        return st;
    if (n8 != IO_FR_BYTES)
        return io_cursor_fail(c, CUZK_EUNSUPPORTED,
                              "n8 = %" PRIu32 ": field elements of %" PRIu32
                              " bytes; cuzk reads n8 = %d (the BN254 and BLS12-381 scalar fields)",
                              n8, n8, IO_FR_BYTES);
    if ((st = io_cursor_bytes(c, &prime, IO_FR_BYTES, "the prime")) != CUZK_OK)
        return st;
    *curve = io_fr_curve_from_prime(prime);
    if (*curve == R1CS_CURVE_NONE) {
        char hex[IO_FR_HEX_SIZE];
        io_fr_hex_le(hex, prime);
        return io_cursor_fail(c, CUZK_EUNSUPPORTED,
                              "prime 0x%s is neither the BN254 nor the BLS12-381 scalar field r",
                              hex);
    }
    if ((st = io_cursor_u32(c, &shape->n_wires, "nWires")) != CUZK_OK ||
        (st = io_cursor_u32(c, &shape->n_pub_out, "nPubOut")) != CUZK_OK ||
        (st = io_cursor_u32(c, &shape->n_pub_in, "nPubIn")) != CUZK_OK ||
        (st = io_cursor_u32(c, &shape->n_prv_in, "nPrvIn")) != CUZK_OK ||
        (st = io_cursor_u64(c, &shape->n_labels, "nLabels")) != CUZK_OK ||
        (st = io_cursor_u32(c, &shape->n_constraints, "mConstraints")) != CUZK_OK ||
        (st = io_cursor_end(c, "the header")) != CUZK_OK)
        return st;
    uint64_t needed = 1 + (uint64_t)shape->n_pub_out + shape->n_pub_in + shape->n_prv_in;
    if (shape->n_wires < needed)
        return io_cursor_fail(
            c, CUZK_EBADFILE,
            "nWires = %" PRIu32 " but ONE + nPubOut + nPubIn + nPrvIn = 1 + %" PRIu32 " + %" PRIu32
            " + %" PRIu32 " = %" PRIu64,
            shape->n_wires, shape->n_pub_out, shape->n_pub_in, shape->n_prv_in, needed);
    return CUZK_OK;
}

/* Both curves' Fr elements are 4 limbs: 32 bytes in the CSR value array. */
enum { R1CS_FR_BYTES = 32 };

typedef struct {
    uint32_t col;
    uint32_t pos;
} r1cs_term_order_t;

static int r1cs_term_cmp_(const void *a, const void *b)
{
    const r1cs_term_order_t *x = a, *y = b;
    return (x->col > y->col) - (x->col < y->col);
}

/*
 * Sorts the entries [begin, end) of a CSR row by column. circom 2.2.3 writes
 * some C combinations of its --O1 output with wire ids out of order (FORMATS.md
 * says ascending; real files disagree), so the reader orders them itself.
 * Rows that are already ascending (nearly all) cost one scan.
 */
static cuzk_status_t r1cs_sort_row_(r1cs_csr_view_t *v, uint64_t begin, uint64_t end)
{
    uint64_t n = end - begin;
    bool sorted = true;
    for (uint64_t e = begin + 1; e < end && sorted; e++)
        sorted = v->col[e - 1] <= v->col[e];
    if (sorted)
        return CUZK_OK;
    r1cs_term_order_t *order = malloc(n * sizeof(*order));
    unsigned char *vals = malloc(n * R1CS_FR_BYTES);
    if (!order || !vals) {
        free(order);
        free(vals);
        return CUZK_ENOMEM;
    }
    unsigned char *row_vals = (unsigned char *)v->val + begin * R1CS_FR_BYTES;
    for (uint64_t e = 0; e < n; e++)
        order[e] = (r1cs_term_order_t){v->col[begin + e], (uint32_t)e};
    qsort(order, n, sizeof(*order), r1cs_term_cmp_);
    memcpy(vals, row_vals, n * R1CS_FR_BYTES);
    for (uint64_t e = 0; e < n; e++) {
        v->col[begin + e] = order[e].col;
        memcpy(row_vals + e * R1CS_FR_BYTES, vals + (uint64_t)order[e].pos * R1CS_FR_BYTES,
               R1CS_FR_BYTES);
    }
    free(order);
    free(vals);
    return CUZK_OK;
}

/*
 * Walks linear combination `lc` of constraint i at the cursor, checking
 * counts, bounds and wire ids; adds its term count to *nnz. With v non-NULL
 * (the second pass) also stores its terms in row i of v[lc], converting the
 * coefficients.
 */
static cuzk_status_t r1cs_read_lc_(io_cursor_t *c, const r1cs_shape_t *shape, r1cs_curve_t curve,
                                   uint32_t i, int lc, uint64_t *nnz, r1cs_csr_view_t *v)
{
    const char *name = r1cs_lc_names[lc];
    if (io_cursor_left(c) < 4)
        return io_cursor_fail(c, CUZK_EBADFILE,
                              "truncated: constraint %" PRIu32 " of %" PRIu32
                              ", %s: the term count needs 4 bytes at offset %" PRIu64
                              ", the section has %" PRIu64,
                              i, shape->n_constraints, name, c->pos, c->size);
    uint32_t n_terms = io_load_u32(c->data + c->pos);
    c->pos += 4;
    if (n_terms > io_cursor_left(c) / R1CS_TERM_SIZE)
        return io_cursor_fail(c, CUZK_EBADFILE,
                              "truncated: constraint %" PRIu32 " of %" PRIu32 ", %s: %" PRIu32
                              " terms need %" PRIu64 " bytes at offset %" PRIu64
                              ", the section has %" PRIu64,
                              i, shape->n_constraints, name, n_terms,
                              (uint64_t)n_terms * R1CS_TERM_SIZE, c->pos, c->size);
    uint64_t k = v ? v[lc].row_ptr[i] : 0;
    for (uint32_t t = 0; t < n_terms; t++, k++) {
        const unsigned char *term = c->data + c->pos + (uint64_t)t * R1CS_TERM_SIZE;
        uint32_t wire = io_load_u32(term);
        if (wire >= shape->n_wires)
            return io_cursor_fail(c, CUZK_EBADFILE,
                                  "constraint %" PRIu32 ", %s term %" PRIu32 ": wire %" PRIu32
                                  " but the header declares %" PRIu32 " wires",
                                  i, name, t, wire, shape->n_wires);
        if (!v)
            continue;
        if (io_fr_from_le(curve, v[lc].val, k, term + 4) != CUZK_OK)
            return io_cursor_fail(c, CUZK_ENONCANONICAL,
                                  "constraint %" PRIu32 ", %s term %" PRIu32 " (wire %" PRIu32
                                  "): coefficient not below r of %s",
                                  i, name, t, wire, r1cs_curve_name(curve));
        v[lc].col[k] = wire;
    }
    if (v) {
        cuzk_status_t st = r1cs_sort_row_(&v[lc], v[lc].row_ptr[i], k);
        if (st != CUZK_OK)
            return io_cursor_fail(c, st,
                                  "constraint %" PRIu32 ", %s: no memory to sort %" PRIu32 " terms",
                                  i, name, n_terms);
        for (uint64_t e = v[lc].row_ptr[i] + 1; e < k; e++)
            if (v[lc].col[e] == v[lc].col[e - 1])
                return io_cursor_fail(c, CUZK_EBADFILE,
                                      "constraint %" PRIu32 ", %s: wire %" PRIu32
                                      " appears twice in one linear combination",
                                      i, name, v[lc].col[e]);
        v[lc].row_ptr[i + 1] = k;
    }
    c->pos += (uint64_t)n_terms * R1CS_TERM_SIZE;
    *nnz += n_terms;
    return CUZK_OK;
}

/* One pass over section 2: without v it validates and counts the entries
 * of A, B and C into nnz; with v it also fills the matrices. */
static cuzk_status_t r1cs_read_constraints_(io_cursor_t *c, const r1cs_shape_t *shape,
                                            r1cs_curve_t curve, uint64_t *nnz, r1cs_csr_view_t *v)
{
    c->pos = 0;
    for (int lc = 0; lc < R1CS_LC_PER_CONSTRAINT; lc++)
        nnz[lc] = 0;
    for (uint32_t i = 0; i < shape->n_constraints; i++) {
        for (int lc = 0; lc < R1CS_LC_PER_CONSTRAINT; lc++) {
            cuzk_status_t st = r1cs_read_lc_(c, shape, curve, i, lc, &nnz[lc], v);
            if (st != CUZK_OK)
                return st;
        }
    }
    return io_cursor_end(c, "the mConstraints records the header declares");
}

static cuzk_status_t r1cs_parse_(r1cs_t *r, const iden3_file_t *f, char *err, size_t err_size)
{
    static const struct {
        uint32_t id;
        const char *name;
    } custom[] = {{R1CS_SECTION_CUSTOM_GATES_LIST, "custom gates list"},
                  {R1CS_SECTION_CUSTOM_GATES_USES, "custom gates uses"}};
    for (size_t j = 0; j < sizeof(custom) / sizeof(custom[0]); j++) {
        if (iden3_find(f, custom[j].id))
            return io_fail(err, err_size, CUZK_EUNSUPPORTED,
                           "%s: section %" PRIu32 " (%s) is present: PLONK custom gates, "
                           "not a Groth16 circuit",
                           f->path, custom[j].id, custom[j].name);
    }
    const iden3_section_t *sh, *sc, *sw;
    cuzk_status_t st;
    if ((st = iden3_require(f, R1CS_SECTION_HEADER, "header", &sh, err, err_size)) != CUZK_OK ||
        (st = iden3_require(f, R1CS_SECTION_CONSTRAINTS, "constraints", &sc, err, err_size)) !=
            CUZK_OK ||
        (st = iden3_require(f, R1CS_SECTION_WIRE_MAP, "wire map", &sw, err, err_size)) != CUZK_OK)
        return st;

    io_cursor_t c;
    r1cs_curve_t curve = R1CS_CURVE_NONE;
    r1cs_shape_t shape = {0};
    iden3_cursor(&c, f, sh, "header", err, err_size);
    if ((st = r1cs_read_header_(&c, &curve, &shape)) != CUZK_OK)
        return st;

    uint64_t map_size = (uint64_t)shape.n_wires * R1CS_WIRE_MAP_ENTRY_SIZE;
    if (sw->size != map_size) {
        iden3_cursor(&c, f, sw, "wire map", err, err_size);
        return io_cursor_fail(&c, CUZK_EBADFILE,
                              "size %" PRIu64 ", expected 8 bytes per wire, 8 × %" PRIu32
                              " = %" PRIu64,
                              sw->size, shape.n_wires, map_size);
    }

    uint64_t nnz[R1CS_LC_PER_CONSTRAINT];
    r1cs_csr_view_t v[R1CS_LC_PER_CONSTRAINT];
    iden3_cursor(&c, f, sc, "constraints", err, err_size);
    if ((st = r1cs_read_constraints_(&c, &shape, curve, nnz, NULL)) != CUZK_OK)
        return st;
    if (r1cs_alloc_(r, curve, &shape, nnz, v) != CUZK_OK)
        return io_fail(err, err_size, CUZK_ENOMEM,
                       "%s: no memory for %" PRIu64 " + %" PRIu64 " + %" PRIu64 " matrix entries",
                       f->path, nnz[0], nnz[1], nnz[2]);
    return r1cs_read_constraints_(&c, &shape, curve, nnz, v);
}

cuzk_status_t r1cs_file_parse(r1cs_t *r, const unsigned char *data, uint64_t size, const char *name,
                              char *err, size_t err_size)
{
    memset(r, 0, sizeof(*r));
    iden3_file_t f;
    cuzk_status_t st = iden3_parse(&f, data, size, name, R1CS_MAGIC, R1CS_VERSION, err, err_size);
    if (st != CUZK_OK)
        return st;
    st = r1cs_parse_(r, &f, err, err_size);
    iden3_free(&f);
    if (st != CUZK_OK)
        r1cs_free(r);
    return st;
}

cuzk_status_t r1cs_file_read(r1cs_t *r, const char *path, char *err, size_t err_size)
{
    memset(r, 0, sizeof(*r));
    io_map_t m;
    cuzk_status_t st = io_map_open(&m, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    st = io_map_check(&m, r1cs_file_parse(r, m.data, m.size, path, err, err_size), path, err,
                      err_size);
    io_map_close(&m);
    if (st != CUZK_OK)
        r1cs_free(r);
    return st;
}

/* ---- writing --------------------------------------------------------- */

cuzk_status_t r1cs_file_write_to(io_output_t *out, const r1cs_t *r, char *err, size_t err_size)
{
    const char *path = out->path;
    if (r->curve != R1CS_CURVE_BN254 && r->curve != R1CS_CURVE_BLS12_381)
        return io_fail(err, err_size, CUZK_EINVAL, "%s: the R1CS has no curve", path);
    const r1cs_shape_t *shape = r1cs_shape(r);
    r1cs_csr_cview_t v[R1CS_LC_PER_CONSTRAINT];
    int bad_matrix = 0;
    uint32_t bad_row = 0;
    bool valid;
    if (r->curve == R1CS_CURVE_BN254) {
        bn254_cviews_(&r->u.bn254, v);
        valid = bn254_valid_(&r->u.bn254, &bad_matrix, &bad_row);
    } else {
        bls381_cviews_(&r->u.bls381, v);
        valid = bls381_valid_(&r->u.bls381, &bad_matrix, &bad_row);
    }
    if (!valid)
        return io_fail(err, err_size, CUZK_EINVAL,
                       "%s: not written: matrix %s, row %" PRIu32
                       ": column ids must be < the matrix width and strictly ascending",
                       path, r1cs_lc_names[bad_matrix], bad_row);
    uint64_t constraints_size = (uint64_t)shape->n_constraints * R1CS_LC_PER_CONSTRAINT * 4;
    for (int lc = 0; lc < R1CS_LC_PER_CONSTRAINT; lc++) {
        if (v[lc].n_rows != shape->n_constraints || v[lc].n_cols != shape->n_wires)
            return io_fail(err, err_size, CUZK_EINVAL,
                           "%s: not written: matrix %s is %" PRIu32 " × %" PRIu32
                           ", the shape says %" PRIu32 " constraints × %" PRIu32 " wires",
                           path, r1cs_lc_names[lc], v[lc].n_rows, v[lc].n_cols,
                           shape->n_constraints, shape->n_wires);
        constraints_size += v[lc].row_ptr[v[lc].n_rows] * R1CS_TERM_SIZE;
    }

    io_writer_t w;
    io_writer_begin(&w, out);
    enum { N_SECTIONS = 3 };
    iden3_write_header(&w, R1CS_MAGIC, R1CS_VERSION, N_SECTIONS);

    unsigned char bytes[IO_FR_BYTES];
    iden3_write_section(&w, R1CS_SECTION_HEADER, R1CS_HEADER_SIZE);
    io_writer_u32(&w, IO_FR_BYTES);
    io_fr_prime_le(r->curve, bytes);
    io_writer_bytes(&w, bytes, IO_FR_BYTES);
    io_writer_u32(&w, shape->n_wires);
    io_writer_u32(&w, shape->n_pub_out);
    io_writer_u32(&w, shape->n_pub_in);
    io_writer_u32(&w, shape->n_prv_in);
    io_writer_u64(&w, shape->n_labels);
    io_writer_u32(&w, shape->n_constraints);

    iden3_write_section(&w, R1CS_SECTION_CONSTRAINTS, constraints_size);
    for (uint32_t i = 0; i < shape->n_constraints; i++) {
        for (int lc = 0; lc < R1CS_LC_PER_CONSTRAINT; lc++) {
            uint64_t lo = v[lc].row_ptr[i], hi = v[lc].row_ptr[i + 1];
            io_writer_u32(&w, (uint32_t)(hi - lo));
            for (uint64_t k = lo; k < hi; k++) {
                io_writer_u32(&w, v[lc].col[k]);
                io_fr_to_le(r->curve, bytes, v[lc].val, k);
                io_writer_bytes(&w, bytes, IO_FR_BYTES);
            }
        }
    }

    iden3_write_section(&w, R1CS_SECTION_WIRE_MAP,
                        (uint64_t)shape->n_wires * R1CS_WIRE_MAP_ENTRY_SIZE);
    for (uint32_t i = 0; i < shape->n_wires; i++)
        io_writer_u64(&w, i);
    io_writer_end(&w);
    return CUZK_OK;
}

cuzk_status_t r1cs_file_write(const char *path, const r1cs_t *r, char *err, size_t err_size)
{
    io_output_t out;
    cuzk_status_t st = io_output_open(&out, path, err, err_size);
    if (st == CUZK_OK)
        st = io_output_close(&out, r1cs_file_write_to(&out, r, err, err_size), err, err_size);
    return st;
}
