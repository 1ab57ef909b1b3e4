/*
 * CSR matrices and R1CS evaluation: the out-of-line half of the template in
 * r1cs_tmpl.h. Included once per curve by its .c file, after that curve's
 * header and with R1CS_NAME, R1CS_FR defined again. Contracts are in
 * r1cs_tmpl.h.
 */

#include "r1cs/r1cs_tmpl_names.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* malloc that treats n = 0 as one byte, so that an empty array is not
 * mistaken for a failed allocation. */
static void *R1N(alloc_)(size_t n)
{
    return malloc(n ? n : 1);
}

cuzk_status_t R1N(csr_alloc)(R1CSR *m, uint32_t n_rows, uint32_t n_cols, uint64_t nnz)
{
    memset(m, 0, sizeof(*m));
    if (nnz > SIZE_MAX / sizeof(R1FT))
        return CUZK_ENOMEM;
    m->row_ptr = calloc((size_t)n_rows + 1, sizeof(uint64_t));
    m->col = R1N(alloc_)((size_t)nnz * sizeof(uint32_t));
    m->val = R1N(alloc_)((size_t)nnz * sizeof(R1FT));
    if (!m->row_ptr || !m->col || !m->val) {
        R1N(csr_free)(m);
        return CUZK_ENOMEM;
    }
    m->n_rows = n_rows;
    m->n_cols = n_cols;
    return CUZK_OK;
}

void R1N(csr_free)(R1CSR *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof(*m));
}

uint64_t R1N(csr_nnz)(const R1CSR *m)
{
    return m->row_ptr[m->n_rows];
}

bool R1N(csr_is_valid)(const R1CSR *m, uint32_t *bad_row)
{
    if (m->row_ptr[0] != 0) {
        *bad_row = m->n_rows;
        return false;
    }
    for (uint32_t i = 0; i < m->n_rows; i++) {
        uint64_t lo = m->row_ptr[i], hi = m->row_ptr[i + 1];
        bool ok = lo <= hi;
        for (uint64_t k = lo; ok && k < hi; k++)
            ok = m->col[k] < m->n_cols && (k == lo || m->col[k - 1] < m->col[k]);
        if (!ok) {
            *bad_row = i;
            return false;
        }
    }
    return true;
}

void R1N(csr_row_dot)(R1FT *r, const R1CSR *m, uint32_t i, const R1FT *w)
{
    R1FT acc, t;
    R1F(set_zero)(&acc);
    for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
        R1F(mul)(&t, &m->val[k], &w[m->col[k]]);
        R1F(add)(&acc, &acc, &t);
    }
    *r = acc;
}

typedef struct {
    const R1CSR *m;
    const R1FT *w;
    R1FT *y;
} R1N(mul_vec_ctx_);

static void R1N(mul_vec_rows_)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    const R1N(mul_vec_ctx_) *c = ctx;
    (void)worker;
    for (size_t i = begin; i < end; i++)
        R1N(csr_row_dot)(&c->y[i], c->m, (uint32_t)i, c->w);
}

void R1N(csr_mul_vec)(pool_t *pool, const R1CSR *m, const R1FT *w, R1FT *y)
{
    R1N(mul_vec_ctx_) ctx = {m, w, y};
    pool_for(pool, m->n_rows, 0, R1N(mul_vec_rows_), &ctx);
}

void R1N(r1cs_free)(R1T *r)
{
    R1N(csr_free)(&r->a);
    R1N(csr_free)(&r->b);
    R1N(csr_free)(&r->c);
    memset(r, 0, sizeof(*r));
}

void R1N(r1cs_eval)(pool_t *pool, const R1T *r, const R1FT *w, R1FT *a, R1FT *b, R1FT *c)
{
    R1N(csr_mul_vec)(pool, &r->a, w, a);
    R1N(csr_mul_vec)(pool, &r->b, w, b);
    R1N(csr_mul_vec)(pool, &r->c, w, c);
}

typedef struct {
    const R1T *r;
    const R1FT *w;
    _Atomic uint32_t first_bad; /* the lowest failing row found so far, or UINT32_MAX */
} R1N(check_ctx_);

/* Checks rows [begin, end) in order, up to the first failure; chunks that
 * start above a failure already found have nothing to add and stop early. */
static void R1N(check_rows_)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    R1N(check_ctx_) *c = ctx;
    (void)worker;
    for (size_t i = begin; i < end && i < atomic_load_explicit(&c->first_bad, memory_order_relaxed);
         i++) {
        R1FT a, b, t;
        R1N(csr_row_dot)(&a, &c->r->a, (uint32_t)i, c->w);
        R1N(csr_row_dot)(&b, &c->r->b, (uint32_t)i, c->w);
        R1N(csr_row_dot)(&t, &c->r->c, (uint32_t)i, c->w);
        R1F(mul)(&a, &a, &b);
        if (R1F(equal)(&a, &t))
            continue;
        uint32_t seen = atomic_load_explicit(&c->first_bad, memory_order_relaxed);
        while (i < seen && !atomic_compare_exchange_weak(&c->first_bad, &seen, (uint32_t)i))
            ;
        return;
    }
}

cuzk_status_t R1N(r1cs_check)(pool_t *pool, const R1T *r, const R1FT *w, uint32_t *first_bad)
{
    R1N(check_ctx_) ctx = {r, w, UINT32_MAX};
    pool_for(pool, r->shape.n_constraints, 0, R1N(check_rows_), &ctx);
    uint32_t bad = atomic_load(&ctx.first_bad);
    if (bad == UINT32_MAX)
        return CUZK_OK;
    if (first_bad)
        *first_bad = bad;
    return CUZK_EWITNESS;
}

/* A uniform non-zero element. */
static cuzk_status_t R1N(random_nonzero_)(R1FT *r, rng_t *rng)
{
    do {
        cuzk_status_t st = R1F(random)(r, rng);
        if (st != CUZK_OK)
            return st;
    } while (R1F(is_zero)(r));
    return CUZK_OK;
}

/* A uniform integer in [0, n), n > 0 (modulo bias is irrelevant here). */
static cuzk_status_t R1N(random_below_)(uint32_t *v, uint32_t n, rng_t *rng)
{
    uint64_t x;
    cuzk_status_t st = random_bytes(rng, &x, sizeof(x));
    *v = (uint32_t)(x % n);
    return st;
}

/*
 * Appends to row i of m (whose entries so far end at *k) up to max_terms
 * distinct random columns from [first, n_cols), ascending, with random
 * non-zero values. Rows must be filled in order.
 */
static cuzk_status_t R1N(random_row_)(R1CSR *m, uint64_t *k, uint32_t first, uint32_t max_terms,
                                      rng_t *rng)
{
    uint32_t span = m->n_cols - first, count = 0;
    if (span == 0)
        return CUZK_OK;
    cuzk_status_t st = R1N(random_below_)(&count, (max_terms < span ? max_terms : span) + 1, rng);
    uint64_t lo = *k;
    for (uint32_t t = 0; st == CUZK_OK && t < count; t++) {
        uint32_t c;
        bool fresh;
        do {
            st = R1N(random_below_)(&c, span, rng);
            c += first;
            fresh = true;
            for (uint64_t j = lo; j < *k; j++)
                fresh = fresh && m->col[j] != c;
        } while (st == CUZK_OK && !fresh);
        uint64_t j = (*k)++; /* insertion sort keeps the row ascending */
        while (j > lo && m->col[j - 1] > c) {
            m->col[j] = m->col[j - 1];
            m->val[j] = m->val[j - 1];
            j--;
        }
        m->col[j] = c;
        if (st == CUZK_OK)
            st = R1N(random_nonzero_)(&m->val[j], rng);
    }
    return st;
}

cuzk_status_t R1N(r1cs_random)(R1T *r, R1FT *w, const r1cs_shape_t *shape, uint32_t max_terms,
                               rng_t *rng)
{
    uint32_t n_rows = shape->n_constraints, n_cols = shape->n_wires;
    assert(n_cols >= 1);
    uint64_t cap = (uint64_t)n_rows * ((uint64_t)max_terms + 1);
    memset(r, 0, sizeof(*r));
    r->shape = *shape;
    cuzk_status_t st = CUZK_OK;
    R1CSR *ms[3] = {&r->a, &r->b, &r->c};
    for (size_t j = 0; j < sizeof(ms) / sizeof(ms[0]) && st == CUZK_OK; j++)
        st = R1N(csr_alloc)(ms[j], n_rows, n_cols, cap);
    if (n_cols > 0)
        R1F(set_one)(&w[0]);
    for (uint32_t i = 1; i < n_cols && st == CUZK_OK; i++)
        st = R1N(random_nonzero_)(&w[i], rng);
    uint64_t ka = 0, kb = 0, kc = 0;
    for (uint32_t i = 0; i < n_rows && st == CUZK_OK; i++) {
        /* C gets wire 0 first; its coefficient is fixed once the rest is known. */
        uint64_t k0 = kc++;
        r->c.col[k0] = 0;
        if ((st = R1N(random_row_)(&r->a, &ka, 0, max_terms, rng)) != CUZK_OK ||
            (st = R1N(random_row_)(&r->b, &kb, 0, max_terms, rng)) != CUZK_OK ||
            (st = R1N(random_row_)(&r->c, &kc, 1, max_terms, rng)) != CUZK_OK)
            break;
        r->a.row_ptr[i + 1] = ka;
        r->b.row_ptr[i + 1] = kb;
        R1F(set_zero)(&r->c.val[k0]);
        r->c.row_ptr[i + 1] = kc;
        R1FT a, b, c;
        R1N(csr_row_dot)(&a, &r->a, i, w);
        R1N(csr_row_dot)(&b, &r->b, i, w);
        R1N(csr_row_dot)(&c, &r->c, i, w);
        R1F(mul)(&a, &a, &b);
        R1F(sub)(&r->c.val[k0], &a, &c); /* w[0] = 1 */
        if (R1F(is_zero)(&r->c.val[k0])) {
            memmove(&r->c.col[k0], &r->c.col[k0 + 1], (size_t)(kc - k0 - 1) * sizeof(uint32_t));
            memmove(&r->c.val[k0], &r->c.val[k0 + 1], (size_t)(kc - k0 - 1) * sizeof(R1FT));
            r->c.row_ptr[i + 1] = --kc;
        }
    }
    if (st != CUZK_OK)
        R1N(r1cs_free)(r);
    return st;
}

/* A uniform double in [0, 1). */
static double R1N(gen_unit_)(rng_t *rng)
{
    return (double)(rng_next(rng) >> 11) * 0x1.0p-53;
}

/* floor(mean) or floor(mean) + 1 terms, the fraction of mean being the
 * probability of the extra one, and at most span. */
static uint32_t R1N(gen_count_)(double mean, uint32_t span, rng_t *rng)
{
    uint32_t n = (uint32_t)mean;
    if (R1N(gen_unit_)(rng) < mean - (double)n)
        n++;
    return n < span ? n : span;
}

/*
 * Adds count random columns of [lo, lo + span) to the row of m whose
 * entries are [first, *k) (the last row, filled in order; rows stay
 * ascending and their columns distinct: the row must have fewer than span
 * entries in that range when it ends), with uniform non-zero values, and
 * adds Σ val·w[col] to *dot. With nonzero_w, columns whose witness value is
 * zero are redrawn, up to 64 times in all.
 */
/* Adds column c, which the row [first, *k) of m does not hold, with a
 * uniform non-zero value, keeping the row ascending, and adds val·w[c] to
 * *dot. */
static void R1N(gen_term_)(R1CSR *m, uint64_t first, uint64_t *k, uint32_t c, const R1FT *w,
                           R1FT *dot, rng_t *rng)
{
    uint64_t j = (*k)++; /* insertion sort: rows hold a handful of entries */
    while (j > first && m->col[j - 1] > c) {
        m->col[j] = m->col[j - 1];
        m->val[j] = m->val[j - 1];
        j--;
    }
    m->col[j] = c;
    (void)R1N(random_nonzero_)(&m->val[j], rng); /* seeded: cannot fail */
    R1FT t;
    R1F(mul)(&t, &m->val[j], &w[c]);
    R1F(add)(dot, dot, &t);
}

static void R1N(gen_row_)(R1CSR *m, uint64_t first, uint64_t *k, uint32_t lo, uint32_t span,
                          uint32_t count, const R1FT *w, bool nonzero_w, R1FT *dot, rng_t *rng)
{
    unsigned misses = 0;
    for (uint32_t t = 0; t < count; t++) {
        uint32_t c;
        bool fresh;
        do {
            c = lo + (uint32_t)(rng_next(rng) % span);
            fresh = !nonzero_w || !R1F(is_zero)(&w[c]) || ++misses > 64;
            for (uint64_t j = first; j < *k; j++)
                fresh = fresh && m->col[j] != c;
        } while (!fresh);
        R1N(gen_term_)(m, first, k, c, w, dot, rng);
    }
}

cuzk_status_t R1N(r1cs_generate)(R1T *r, R1FT *w, const r1cs_gen_params_t *p, rng_t *rng)
{
    assert(rng && r1cs_gen_params_are_valid(p));
    uint32_t n_rows = p->n_constraints, n_cols = n_rows + 1;
    uint32_t n_priv = n_cols - 1 - p->n_public;
    uint32_t b_priv = (uint32_t)(p->b_share * n_priv);
    if (b_priv == 0)
        b_priv = 1;
    memset(r, 0, sizeof(*r));
    r->shape.n_wires = n_cols;
    r->shape.n_pub_in = p->n_public;
    r->shape.n_constraints = n_rows;
    r->shape.n_labels = n_cols;
    /* Rows hold at most floor(nnz) + 1 entries (C: ONE included), one more
     * in C when the rebalancing below adds a term to a row without. */
    double per_row[3] = {p->nnz_a, p->nnz_b, p->nnz_c};
    R1CSR *ms[3] = {&r->a, &r->b, &r->c};
    for (int j = 0; j < 3; j++) {
        uint64_t cap = (uint64_t)n_rows * ((uint64_t)per_row[j] + 2);
        if (R1N(csr_alloc)(ms[j], n_rows, n_cols, cap) != CUZK_OK) {
            R1N(r1cs_free)(r);
            return CUZK_ENOMEM;
        }
    }

    R1F(set_one)(&w[0]);
    for (uint32_t i = 1; i < n_cols; i++) {
        if (i > p->n_public && R1N(gen_unit_)(rng) < p->bits) {
            if (rng_next(rng) & 1)
                R1F(set_one)(&w[i]);
            else
                R1F(set_zero)(&w[i]);
        } else {
            (void)R1F(random)(&w[i], rng); /* seeded: cannot fail */
        }
    }

    uint64_t ka = 0, kb = 0, kc = 0;
    uint32_t b_span = 1 + p->n_public + b_priv;
    for (uint32_t i = 0; i < n_rows; i++) {
        R1FT a, b, c;
        R1F(set_zero)(&a);
        R1F(set_zero)(&b);
        R1F(set_zero)(&c);
        uint32_t n_a = R1N(gen_count_)(p->nnz_a, n_cols, rng);
        uint32_t n_b = R1N(gen_count_)(p->nnz_b, b_span, rng);
        /* Row i's A holds private wire i (when A has terms at all), so
         * every private value is constrained, as in a real circuit (an
         * unconstrained one would give bellperson's L query the identity). */
        uint64_t a0 = ka;
        if (n_a > 0 && i < n_priv) {
            R1N(gen_term_)(&r->a, a0, &ka, 1 + p->n_public + i, w, &a, rng);
            n_a--;
        }
        R1N(gen_row_)(&r->a, a0, &ka, 0, n_cols, n_a, w, false, &a, rng);
        R1N(gen_row_)(&r->b, kb, &kb, 0, b_span, n_b, w, false, &b, rng);
        /* C: ONE first, its coefficient fixed once the other terms are known. */
        uint64_t k0 = kc++;
        r->c.col[k0] = 0;
        uint32_t n_c = R1N(gen_count_)(p->nnz_c - 1.0, n_cols - 1, rng);
        R1N(gen_row_)(&r->c, k0, &kc, 1, n_cols - 1, n_c, w, false, &c, rng);
        R1F(mul)(&a, &a, &b);
        R1F(sub)(&r->c.val[k0], &a, &c); /* w[0] = 1 */
        /* A·w·B·w = the rest of C·w (often, with bits: both sides zero)
         * would drop ONE and thin C out. Moving C's last term to a wire
         * with a non-zero value (or adding one to a row without) makes
         * ONE's coefficient non-zero and keeps nnz_c per row. */
        if (R1F(is_zero)(&r->c.val[k0]) && n_c < n_cols - 1) {
            if (n_c > 0) {
                R1FT t;
                kc--;
                R1F(mul)(&t, &r->c.val[kc], &w[r->c.col[kc]]);
                R1F(sub)(&c, &c, &t);
            }
            R1N(gen_row_)(&r->c, k0, &kc, 1, n_cols - 1, 1, w, true, &c, rng);
            R1F(sub)(&r->c.val[k0], &a, &c);
        }
        if (R1F(is_zero)(&r->c.val[k0])) {
            memmove(&r->c.col[k0], &r->c.col[k0 + 1], (size_t)(kc - k0 - 1) * sizeof(uint32_t));
            memmove(&r->c.val[k0], &r->c.val[k0 + 1], (size_t)(kc - k0 - 1) * sizeof(R1FT));
            kc--;
        }
        r->a.row_ptr[i + 1] = ka;
        r->b.row_ptr[i + 1] = kb;
        r->c.row_ptr[i + 1] = kc;
    }
    return CUZK_OK;
}

/* ---- the indexed circuit ------------------------------------------------ */

/* Adds (c, v) to the row [first, *k) of m, keeping it ascending. */
static void R1N(ix_insert_)(R1CSR *m, uint64_t first, uint64_t *k, uint32_t c, const R1FT *v)
{
    uint64_t j = (*k)++;
    while (j > first && m->col[j - 1] > c) {
        m->col[j] = m->col[j - 1];
        m->val[j] = m->val[j - 1];
        j--;
    }
    m->col[j] = c;
    m->val[j] = *v;
}

/* Row j's random terms of matrix mi into m; *dot += Σ val·w[col]. */
static void R1N(ix_random_terms_)(R1CSR *m, uint64_t first, uint64_t *k, const r1cs_ix_t *ix,
                                  int mi, uint32_t j, const R1FT *w, R1FT *dot)
{
    for (uint32_t t = 0; t < R1IX_SLOTS; t++) {
        uint32_t c;
        if (!r1ix_slot_used(ix, mi, j, t, &c))
            continue;
        R1FT v, p;
        r1ix_value(ix, mi, j, t, v.l);
        R1F(mul)(&p, &v, &w[c]);
        R1F(add)(dot, dot, &p);
        R1N(ix_insert_)(m, first, k, c, &v);
    }
}

cuzk_status_t R1N(r1cs_generate_indexed)(R1T *r, R1FT *w, const r1cs_ix_t *ix)
{
    uint32_t n_rows = ix->n_rows, n_cols = ix->n_cols;
    memset(r, 0, sizeof(*r));
    r->shape.n_wires = n_cols;
    r->shape.n_pub_in = ix->n_public;
    r->shape.n_constraints = n_rows;
    r->shape.n_labels = n_cols;
    R1CSR *ms[3] = {&r->a, &r->b, &r->c};
    for (int m = 0; m < 3; m++) {
        uint64_t cap = (uint64_t)n_rows * (ix->base[m] + 2);
        if (R1N(csr_alloc)(ms[m], n_rows, n_cols, cap) != CUZK_OK) {
            R1N(r1cs_free)(r);
            return CUZK_ENOMEM;
        }
    }
    for (uint32_t i = 0; i < n_cols; i++)
        r1ix_witness(ix, i, w[i].l);
    uint64_t k[3] = {0, 0, 0};
    for (uint32_t j = 0; j < n_rows; j++) {
        R1FT dot[3];
        uint64_t first[3];
        for (int m = 0; m < 3; m++) {
            R1F(set_zero)(&dot[m]);
            first[m] = k[m];
        }
        uint32_t fa = r1ix_fixed_col(ix, R1IX_A, j);
        if (fa != UINT32_MAX) {
            R1FT v, p;
            r1ix_value(ix, R1IX_A, j, R1IX_SLOTS, v.l);
            R1F(mul)(&p, &v, &w[fa]);
            R1F(add)(&dot[0], &dot[0], &p);
            R1N(ix_insert_)(&r->a, first[0], &k[0], fa, &v);
        }
        for (int m = 0; m < 3; m++)
            R1N(ix_random_terms_)(ms[m], first[m], &k[m], ix, m, j, w, &dot[m]);
        R1FT one_coeff; /* a·b - the rest of C·w, on wire ONE (w[0] = 1) */
        R1F(mul)(&one_coeff, &dot[0], &dot[1]);
        R1F(sub)(&one_coeff, &one_coeff, &dot[2]);
        R1N(ix_insert_)(&r->c, first[2], &k[2], 0, &one_coeff);
        for (int m = 0; m < 3; m++)
            ms[m]->row_ptr[j + 1] = k[m];
    }
    return CUZK_OK;
}
