/*
 * Sparse matrices in CSR form and the R1CS A·w ∘ B·w = C·w over one scalar
 * field: the template.
 *
 * Instantiated once per curve (bn254_r1cs.h, bls381_r1cs.h); not included
 * directly. The including header defines
 *
 *   R1CS_NAME  the prefix of every generated name (bn254, bls381)
 *   R1CS_FR    the scalar-field prefix of fp_tmpl.h (bn254_fr, bls381_fr)
 *
 * and must have included that field's header.
 *
 * Representation:
 *  - NAME_csr_t is compressed sparse rows: row i holds the entries
 *    k in [row_ptr[i], row_ptr[i+1]), entry k being val[k] at column col[k].
 *    row_ptr has n_rows + 1 entries, row_ptr[0] = 0, non-decreasing; nnz =
 *    row_ptr[n_rows]. A valid matrix (NAME_csr_is_valid) has every column
 *    < n_cols and columns strictly ascending within a row. Values are in
 *    Montgomery form; zero values are allowed but writers of .r1cs files
 *    normally leave them out.
 *  - NAME_r1cs_t holds the shape and A, B, C with n_rows = n_constraints
 *    and n_cols = n_wires: row = constraint, column = wire id. It owns its
 *    arrays; NAME_r1cs_free releases them.
 *  - A witness w is n_wires Montgomery-form elements, w[0] = 1.
 *
 * The products are constant-time in the values of w and of the matrices
 * (only the sparsity pattern, which is public, steers the loops). They run
 * their rows on a util/pool.h pool (NULL: on the caller alone); the result
 * does not depend on the pool.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "r1cs/r1cs_indexed.h"
#include "r1cs/r1cs_shape.h"
#include "util/pool.h"
#include "util/rng.h"

#include "r1cs/r1cs_tmpl_names.h"

typedef struct {
    uint32_t n_rows;
    uint32_t n_cols;
    uint64_t *row_ptr; /* n_rows + 1 entries */
    uint32_t *col;     /* nnz entries */
    R1FT *val;         /* nnz entries, Montgomery form */
} R1CSR;

typedef struct {
    r1cs_shape_t shape;
    R1CSR a, b, c; /* n_constraints × n_wires each */
} R1T;

/*
 * Allocates m for n_rows × n_cols with room for nnz entries; row_ptr is
 * zeroed (every row empty until the caller fills it), col and val are
 * uninitialised. On CUZK_ENOMEM m is left empty (safe to free). m must not
 * hold arrays already (free it first).
 */
cuzk_status_t R1N(csr_alloc)(R1CSR *m, uint32_t n_rows, uint32_t n_cols, uint64_t nnz);

/* Releases m's arrays and zeroes it; an all-zero m is fine. */
void R1N(csr_free)(R1CSR *m);

/* The number of stored entries, row_ptr[n_rows]. */
uint64_t R1N(csr_nnz)(const R1CSR *m);

/*
 * Checks the structure described above. Returns true when valid; otherwise
 * false with *bad_row = the first row at fault (n_rows when row_ptr[0] != 0).
 */
bool R1N(csr_is_valid)(const R1CSR *m, uint32_t *bad_row);

/* y = m·w: y has n_rows elements, w has n_cols. y must not alias w. */
void R1N(csr_mul_vec)(pool_t *pool, const R1CSR *m, const R1FT *w, R1FT *y);

/* The dot product of row i of m with w; i < n_rows. */
void R1N(csr_row_dot)(R1FT *r, const R1CSR *m, uint32_t i, const R1FT *w);

/* Releases A, B and C and zeroes r; an all-zero r is fine. */
void R1N(r1cs_free)(R1T *r);

/*
 * a = A·w, b = B·w, c = C·w (n_constraints elements each; w has n_wires).
 * The outputs must not alias w or each other.
 */
void R1N(r1cs_eval)(pool_t *pool, const R1T *r, const R1FT *w, R1FT *a, R1FT *b, R1FT *c);

/*
 * Checks (A·w)·(B·w) = C·w row by row. CUZK_OK when every row holds;
 * otherwise CUZK_EWITNESS with *first_bad = the lowest failing constraint
 * (first_bad may be NULL), whatever the pool. Allocates nothing.
 */
cuzk_status_t R1N(r1cs_check)(pool_t *pool, const R1T *r, const R1FT *w, uint32_t *first_bad);

/*
 * A random satisfiable R1CS and a witness for it, for tests and small
 * benchmarks. r gets the given shape (n_wires >= 1; r must be empty; on failure it is left
 * empty); w (n_wires elements, caller-owned) gets w[0] = 1 and uniform
 * non-zero values elsewhere. Each row of A and B has 0 .. max_terms distinct
 * random wires with uniform non-zero coefficients; each row of C has
 * 0 .. max_terms random wires other than 0, plus wire 0 with the coefficient
 * that makes the row hold (left out when that coefficient is zero: when
 * A·w or B·w is zero and C has no other term, or by chance). rng as in util/rng.h (NULL: the
 * operating system). CUZK_ENOMEM, CUZK_ERANDOM.
 */
cuzk_status_t R1N(r1cs_random)(R1T *r, R1FT *w, const r1cs_shape_t *shape, uint32_t max_terms,
                               rng_t *rng);

/*
 * A synthetic satisfiable circuit of the shape p (r1cs_shape.h; p must be
 * valid: r1cs_gen_params_are_valid) and its witness, for benchmarks and
 * the command line's `cuzk gen`. r must be empty; on failure it is left
 * empty. w (caller-owned) has p->n_constraints + 1 elements and gets w[0]
 * = 1 and the values described in r1cs_shape.h. Every coefficient is a
 * uniform non-zero element except C's entry on wire ONE, which is
 * (A·w)(B·w) − (the rest of C)·w; when that is zero C's last other term
 * moves to (or a row without one gets) a wire with a non-zero value where
 * one is found, and ONE is left out only if it is still zero. Columns within a
 * row are distinct and ascending. rng is the seeded stream (not NULL): the
 * result is a function of p and the seed. O(nnz) time; memory: the three
 * matrices, (4 + sizeof(element)) bytes per entry. CUZK_ENOMEM.
 */
cuzk_status_t R1N(r1cs_generate)(R1T *r, R1FT *w, const r1cs_gen_params_t *p, rng_t *rng);

/*
 * The indexed circuit ix (r1cs_indexed.h, made by r1ix_init for this
 * curve) as CSR, with its witness: r must be empty (left empty on
 * failure); w (caller-owned) has ix->n_cols elements. Rows hold their
 * terms in ascending column order; C's coefficient on ONE is stored even
 * when it is zero. The device's twin (gpu_setup.h) never builds the
 * matrices; this is its reference. CUZK_ENOMEM.
 */
cuzk_status_t R1N(r1cs_generate_indexed)(R1T *r, R1FT *w, const r1cs_ix_t *ix);
