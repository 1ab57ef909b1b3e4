/*
 * Tests of the indexed synthetic circuit (r1cs/r1cs_indexed.h): the keyed
 * permutations are bijections, the CSR the CPU builds is valid and
 * satisfied by its witness, every column's entries are exactly what the
 * column-side enumeration finds (what the device's key generation sums
 * over), the proportions are porep32's, and the circuit is a function of
 * the seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "r1cs/r1cs.h"
#include "r1cs/r1cs_indexed.h"

static const r1cs_curve_t curves[] = {R1CS_CURVE_BLS12_381, R1CS_CURVE_BN254};

static void test_perm_is_bijection(void **state)
{
    (void)state;
    for (uint32_t n = 2; n <= 5000; n = n * 3 + 1) {
        r1cs_ix_t ix;
        r1cs_gen_params_t p = r1cs_gen_porep32(n);
        assert_true(r1ix_init(&ix, R1CS_CURVE_BLS12_381, &p, n));
        uint64_t size = (uint64_t)1 << ix.log2p;
        assert_true(size >= n);
        unsigned char *seen = calloc(size, 1);
        assert_non_null(seen);
        for (int m = 0; m < R1IX_MATRICES; m++)
            for (int t = 0; t < R1IX_SLOTS; t++) {
                memset(seen, 0, size);
                for (uint64_t x = 0; x < size; x++) {
                    uint64_t y = r1ix_perm(&ix, &ix.perm[m][t], x);
                    assert_true(y < size);
                    assert_false(seen[y]);
                    seen[y] = 1;
                    assert_int_equal(r1ix_perm_inv(&ix, &ix.perm[m][t], y), x);
                }
            }
        free(seen);
    }
    /* At porep32's full domain, a sample. */
    r1cs_ix_t ix;
    r1cs_gen_params_t p = r1cs_gen_porep32(130278869u);
    assert_true(r1ix_init(&ix, R1CS_CURVE_BLS12_381, &p, 7));
    assert_int_equal(ix.log2p, 27);
    for (uint64_t x = 0; x < (1u << 27); x += 9973) {
        uint64_t y = r1ix_perm(&ix, &ix.perm[1][0], x);
        assert_true(y < (1u << 27));
        assert_int_equal(r1ix_perm_inv(&ix, &ix.perm[1][0], y), x);
    }
}

static void test_init_refusals(void **state)
{
    (void)state;
    r1cs_ix_t ix;
    r1cs_gen_params_t p = r1cs_gen_porep32(100);
    assert_false(r1ix_init(&ix, R1CS_CURVE_NONE, &p, 1));
    p.nnz_a = 0.5;
    assert_false(r1ix_init(&ix, R1CS_CURVE_BN254, &p, 1));
    p = r1cs_gen_porep32(100);
    p.nnz_b = 7.5;
    assert_false(r1ix_init(&ix, R1CS_CURVE_BN254, &p, 1));
    p = r1cs_gen_porep32(100);
    p.nnz_c = 9.0;
    assert_false(r1ix_init(&ix, R1CS_CURVE_BN254, &p, 1));
    p = r1cs_gen_porep32(1);
    assert_false(r1ix_init(&ix, R1CS_CURVE_BN254, &p, 1));
}

static const bls381_csr_t *csr_of(const r1cs_t *r, int m)
{
    const bls381_r1cs_t *b = &r->u.bls381;
    return m == R1IX_A ? &b->a : m == R1IX_B ? &b->b : &b->c;
}

/* Every entry of every column of r (BLS12-381) is found by the column-side
 * enumeration, and nothing else is: counts per column agree and each
 * enumerated (row, col) is in the row. */
static void check_columns(const r1cs_t *r, const r1cs_ix_t *ix)
{
    uint32_t n_cols = ix->n_cols;
    uint32_t *count = calloc(n_cols, sizeof *count);
    assert_non_null(count);
    for (int m = 0; m < R1IX_MATRICES; m++) {
        const bls381_csr_t *c = csr_of(r, m);
        memset(count, 0, n_cols * sizeof *count);
        for (uint64_t e = 0; e < c->row_ptr[c->n_rows]; e++)
            count[c->col[e]]++;
        for (uint32_t col = 0; col < n_cols; col++) {
            uint32_t found = 0;
            /* the fixed terms: A's private wire j, C's ONE in every row */
            if (m == R1IX_A && col > ix->n_public && col - 1 - ix->n_public < ix->n_priv)
                found++;
            if (m == R1IX_C && col == 0)
                found += ix->n_rows;
            for (uint32_t t = 0; t < R1IX_SLOTS; t++) {
                uint32_t j, cj;
                for (uint32_t k = 0; r1ix_col_candidate(ix, m, t, col, k, &j); k++) {
                    if (j >= ix->n_rows || !r1ix_slot_used(ix, m, j, t, &cj))
                        continue;
                    assert_int_equal(cj, col);
                    bool in_row = false;
                    for (uint64_t e = c->row_ptr[j]; e < c->row_ptr[j + 1]; e++)
                        in_row |= c->col[e] == col;
                    assert_true(in_row);
                    found++;
                }
            }
            if (found != count[col])
                fail_msg("matrix %d column %u: %u entries, the enumeration finds %u", m, col,
                         count[col], found);
        }
    }
    free(count);
}

static void test_csr_valid_satisfied_and_columns(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {2, 3, 17, 64, 1000, 4093};
    for (size_t ci = 0; ci < 2; ci++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            r1cs_gen_params_t p = r1cs_gen_porep32(sizes[si]);
            if (si % 2) { /* other proportions too */
                p.nnz_a = 3.7;
                p.nnz_b = 2.5;
                p.nnz_c = 1.0;
                p.bits = 0.3;
                p.b_share = 1.0;
            }
            r1cs_ix_t ix;
            assert_true(r1ix_init(&ix, curves[ci], &p, 1000 + si));
            r1cs_t r;
            r1cs_witness_t w;
            assert_int_equal(r1cs_generate_indexed(&r, &w, &ix), CUZK_OK);
            const r1cs_shape_t *sh = r1cs_shape(&r);
            assert_int_equal(sh->n_constraints, sizes[si]);
            assert_int_equal(sh->n_wires, sizes[si] + 1);
            uint32_t bad = 0;
            assert_int_equal(r1cs_check(NULL, &r, &w, &bad), CUZK_OK);
            if (curves[ci] == R1CS_CURVE_BLS12_381) {
                for (int m = 0; m < R1IX_MATRICES; m++)
                    assert_true(bls381_csr_is_valid(csr_of(&r, m), &bad));
                check_columns(&r, &ix);
            } else {
                const bn254_r1cs_t *b = &r.u.bn254;
                assert_true(bn254_csr_is_valid(&b->a, &bad));
                assert_true(bn254_csr_is_valid(&b->b, &bad));
                assert_true(bn254_csr_is_valid(&b->c, &bad));
            }
            r1cs_free(&r);
            r1cs_witness_free(&w);
        }
}

static void test_proportions_and_seed(void **state)
{
    (void)state;
    uint32_t n = 1u << 16;
    r1cs_gen_params_t p = r1cs_gen_porep32(n);
    r1cs_ix_t ix;
    assert_true(r1ix_init(&ix, R1CS_CURVE_BLS12_381, &p, 42));
    r1cs_t r;
    r1cs_witness_t w;
    assert_int_equal(r1cs_generate_indexed(&r, &w, &ix), CUZK_OK);
    const bls381_r1cs_t *b = &r.u.bls381;
    double nnz[3] = {(double)b->a.row_ptr[n] / n, (double)b->b.row_ptr[n] / n,
                     (double)b->c.row_ptr[n] / n};
    assert_true(nnz[0] > 2.35 && nnz[0] < 2.45);
    assert_true(nnz[1] > 0.97 && nnz[1] <= 1.0);
    assert_true(nnz[2] > 2.15 && nnz[2] < 2.25);
    uint32_t bitv = 0, priv = n - p.n_public;
    for (uint32_t i = 1 + p.n_public; i <= n; i++)
        bitv += bls381_fr_is_zero(&w.v.bls381[i]) ||
                !memcmp(&w.v.bls381[i], &bls381_fr_ONE, sizeof(bls381_fr_t));
    assert_true(bitv > 0.88 * priv && bitv < 0.92 * priv);
    /* B over ONE, the inputs and a quarter of the private wires. */
    for (uint64_t e = 0; e < b->b.row_ptr[n]; e++)
        assert_true(b->b.col[e] < 1 + p.n_public + priv / 4 + 1);

    /* The same seed, the same circuit; another seed, another. */
    r1cs_t r2;
    r1cs_witness_t w2;
    r1cs_ix_t ix2;
    assert_true(r1ix_init(&ix2, R1CS_CURVE_BLS12_381, &p, 42));
    assert_int_equal(r1cs_generate_indexed(&r2, &w2, &ix2), CUZK_OK);
    assert_memory_equal(w.v.bls381, w2.v.bls381, (n + 1) * sizeof(bls381_fr_t));
    assert_memory_equal(b->c.val, r2.u.bls381.c.val, b->c.row_ptr[n] * sizeof(bls381_fr_t));
    r1cs_free(&r2);
    r1cs_witness_free(&w2);
    assert_true(r1ix_init(&ix2, R1CS_CURVE_BLS12_381, &p, 43));
    assert_int_equal(r1cs_generate_indexed(&r2, &w2, &ix2), CUZK_OK);
    assert_memory_not_equal(w.v.bls381, w2.v.bls381, (n + 1) * sizeof(bls381_fr_t));
    r1cs_free(&r2);
    r1cs_witness_free(&w2);
    r1cs_free(&r);
    r1cs_witness_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perm_is_bijection),
        cmocka_unit_test(test_init_refusals),
        cmocka_unit_test(test_csr_valid_satisfied_and_columns),
        cmocka_unit_test(test_proportions_and_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
