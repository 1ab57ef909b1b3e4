/*
 * Groth16 in the bellperson convention (groth16_bp_tmpl.h, bellperson.h):
 * random R1CS → INSECURE development key in bellperson's layout → the
 * assignment a bellperson synthesizer would hand over → prove → verify;
 * every proof element and an input tampered → rejected; an unsatisfying
 * assignment → refused by the self-verification; keys and assignments that
 * do not fit each other → CUZK_EINVAL naming the counts. Batch verification
 * (random linear combination) on both conventions' verifier: valid batches
 * pass, a batch with one bad proof or one wrong input fails.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"

#include "io/params_file.h"
#include "groth16/bls381_groth16.h"
#include "groth16/bn254_groth16.h"
#include "io/io_error.h"
#include "r1cs/r1cs.h"

/* A random satisfiable R1CS over curve with its witness: 3 .. 18 wires, up
 * to 3 public signals, at least one private wire, 1 .. 40 constraints. */
static void random_circuit(r1cs_t *r, r1cs_witness_t *w, r1cs_curve_t curve)
{
    r1cs_shape_t shape = {0};
    shape.n_wires = 3 + (uint32_t)(rng_next(&test_rng) % 16);
    shape.n_pub_in = (uint32_t)(rng_next(&test_rng) % 4);
    if (shape.n_pub_in > shape.n_wires - 2)
        shape.n_pub_in = shape.n_wires - 2;
    shape.n_constraints = 1 + (uint32_t)(rng_next(&test_rng) % 40);
    shape.n_labels = shape.n_wires;
    memset(r, 0, sizeof *r);
    r->curve = curve;
    assert_int_equal(r1cs_witness_alloc(w, curve, shape.n_wires), CUZK_OK);
    if (curve == R1CS_CURVE_BN254)
        assert_int_equal(bn254_r1cs_random(&r->u.bn254, w->v.bn254, &shape, 3, &test_rng), CUZK_OK);
    else
        assert_int_equal(bls381_r1cs_random(&r->u.bls381, w->v.bls381, &shape, 3, &test_rng),
                         CUZK_OK);
}

/* p = 2p: a valid group element, and a different one. */
static void double_g1(bls381_g1_affine_t *p)
{
    bls381_g1_jac_t j;
    bls381_g1_jac_from_affine(&j, p);
    bls381_g1_jac_dbl(&j, &j);
    bls381_g1_jac_to_affine(p, &j);
}

static void double_g2(bls381_g2_affine_t *p)
{
    bls381_g2_jac_t j;
    bls381_g2_jac_from_affine(&j, p);
    bls381_g2_jac_dbl(&j, &j);
    bls381_g2_jac_to_affine(p, &j);
}

/* The inputs of a (ONE excluded) in Montgomery form, n_inputs − 1 values. */
static bls381_fr_t *inputs_of(const asgn_t *a)
{
    bls381_fr_t *in = malloc((a->n_inputs ? a->n_inputs : 1) * sizeof *in);
    assert_non_null(in);
    for (uint64_t i = 1; i < a->n_inputs; i++)
        assert_true(bls381_fr_from_canonical(&in[i - 1], a->inputs[i]));
    return in;
}

static bool bp_verifies(const bp_vk_t *vk, const bls381_fr_t *in, const bp_proof_t *p, size_t n)
{
    bool valid = false;
    char err[IO_ERR_MAX];
    cuzk_status_t s = groth16_bp_verify(&valid, vk, in, p, n, &test_rng, NULL, err, sizeof err);
    if (s != CUZK_OK)
        fail_msg("%s", err);
    return valid;
}

/* The development parameters of r and the assignment of w; *mem holds the
 * assignment's arrays. */
static void key_and_assignment(bp_params_t *p, asgn_t *a, void **mem, const r1cs_t *r,
                               const r1cs_witness_t *w)
{
    assert_int_equal(groth16_bp_dev_setup(p, r, &test_rng, NULL), CUZK_OK);
    assert_int_equal(groth16_bp_assign(a, mem, r, w, NULL), CUZK_OK);
}

/* One circuit through setup, assignment, prove, verify and the tampers. */
static void bls381_once(void)
{
    r1cs_t r;
    r1cs_witness_t w;
    random_circuit(&r, &w, R1CS_CURVE_BLS12_381);
    bp_params_t p;
    asgn_t a;
    void *mem;
    key_and_assignment(&p, &a, &mem, &r, &w);
    const r1cs_shape_t *sh = r1cs_shape(&r);
    assert_int_equal(a.n_inputs, 1 + sh->n_pub_out + sh->n_pub_in);
    assert_int_equal(a.n_constraints, sh->n_constraints + a.n_inputs);
    assert_int_equal(p.vk.n_ic, a.n_inputs);
    assert_int_equal(p.n_l, a.n_aux);

    char err[IO_ERR_MAX];
    groth16_prove_opts_t opts = {.rng = &test_rng};
    groth16_timings_t t;
    bp_proof_t proof;
    cuzk_status_t s = groth16_bp_prove(&proof, &p, &a, &opts, &t, NULL, err, sizeof err);
    if (s != CUZK_OK)
        fail_msg("%s", err);
    assert_true(t.seconds[GROTH16_STAGE_VERIFY] > 0);
    bls381_fr_t *in = inputs_of(&a);
    assert_true(bp_verifies(&p.vk, in, &proof, 1));

    for (int which = 0; which < 3; which++) {
        bp_proof_t bad = proof;
        if (which == 0)
            double_g1(&bad.a);
        else if (which == 1)
            double_g2(&bad.b);
        else
            double_g1(&bad.c);
        assert_false(bp_verifies(&p.vk, in, &bad, 1));
    }
    if (a.n_inputs > 1) {
        bls381_fr_add(&in[0], &in[0], &bls381_fr_ONE);
        assert_false(bp_verifies(&p.vk, in, &proof, 1));
    }

    /* A private wire changed: refused when the rows no longer hold. */
    uint32_t i = sh->n_wires - 1;
    bls381_fr_add(&w.v.bls381[i], &w.v.bls381[i], &bls381_fr_ONE);
    if (r1cs_check(NULL, &r, &w, NULL) == CUZK_EWITNESS) {
        asgn_t bad;
        void *bad_mem;
        assert_int_equal(groth16_bp_assign(&bad, &bad_mem, &r, &w, NULL), CUZK_OK);
        assert_int_equal(groth16_bp_prove(&proof, &p, &bad, &opts, NULL, NULL, err, sizeof err),
                         CUZK_EWITNESS);
        assert_non_null(strstr(err, "does not satisfy"));
        free(bad_mem);
    }
    free(in);
    free(mem);
    bp_params_free(&p);
    r1cs_free(&r);
    r1cs_witness_free(&w);
}

/* The scalars of a in Montgomery form (one allocation, *mem), as
 * bellperson holds them and supraseal-c2's ABI hands them over. */
static asgn_t montgomery_copy(const asgn_t *a, void **mem)
{
    uint64_t counts[5] = {a->n_constraints, a->n_constraints, a->n_constraints, a->n_inputs,
                          a->n_aux};
    const uint64_t(*src[5])[4] = {a->a, a->b, a->c, a->inputs, a->aux};
    uint64_t total = 0;
    for (int k = 0; k < 5; k++)
        total += counts[k];
    bls381_fr_t *v = malloc((total ? total : 1) * sizeof *v);
    assert_non_null(v);
    *mem = v;
    asgn_t m = *a;
    const uint64_t(*dst[5])[4];
    for (int k = 0; k < 5; k++) {
        dst[k] = (const uint64_t(*)[4])v;
        for (uint64_t i = 0; i < counts[k]; i++)
            assert_true(bls381_fr_from_canonical(v++, src[k][i]));
    }
    m.a = dst[0];
    m.b = dst[1];
    m.c = dst[2];
    m.inputs = dst[3];
    m.aux = dst[4];
    m.montgomery = true;
    return m;
}

/* An assignment in Montgomery form gives the proof of the same assignment
 * in plain values, for the same r and s. */
static void test_montgomery(void **state)
{
    (void)state;
    r1cs_t r;
    r1cs_witness_t w;
    random_circuit(&r, &w, R1CS_CURVE_BLS12_381);
    bp_params_t p;
    asgn_t a;
    void *mem, *mont_mem;
    key_and_assignment(&p, &a, &mem, &r, &w);
    asgn_t m = montgomery_copy(&a, &mont_mem);
    char err[IO_ERR_MAX];
    bp_proof_t plain, mont;
    rng_t rng;
    groth16_prove_opts_t opts = {.rng = &rng};
    rng_seed(&rng, 41);
    assert_int_equal(groth16_bp_prove(&plain, &p, &a, &opts, NULL, NULL, err, sizeof err), CUZK_OK);
    rng_seed(&rng, 41);
    cuzk_status_t s = groth16_bp_prove(&mont, &p, &m, &opts, NULL, NULL, err, sizeof err);
    if (s != CUZK_OK)
        fail_msg("%s", err);
    assert_memory_equal(&plain, &mont, sizeof plain);
    free(mont_mem);
    free(mem);
    bp_params_free(&p);
    r1cs_free(&r);
    r1cs_witness_free(&w);
}

static void test_bls381_prove_verify(void **state)
{
    (void)state;
    for (int k = 0; k < test_iters(6); k++)
        bls381_once();
}

/* An assignment of one circuit against the key of another. */
static void test_mismatch(void **state)
{
    (void)state;
    r1cs_t r1, r2;
    r1cs_witness_t w1, w2;
    random_circuit(&r1, &w1, R1CS_CURVE_BLS12_381);
    do {
        random_circuit(&r2, &w2, R1CS_CURVE_BLS12_381);
        if (r1cs_shape(&r2)->n_wires != r1cs_shape(&r1)->n_wires)
            break;
        r1cs_free(&r2);
        r1cs_witness_free(&w2);
    } while (1);
    bp_params_t p;
    assert_int_equal(groth16_bp_dev_setup(&p, &r1, &test_rng, NULL), CUZK_OK);
    asgn_t a;
    void *mem;
    assert_int_equal(groth16_bp_assign(&a, &mem, &r2, &w2, NULL), CUZK_OK);
    char err[IO_ERR_MAX] = "";
    bp_proof_t proof;
    assert_int_equal(groth16_bp_prove(&proof, &p, &a, NULL, NULL, NULL, err, sizeof err),
                     CUZK_EINVAL);
    assert_non_null(strstr(err, "the key"));
    free(mem);

    /* BN254 assignments do not fit BLS12-381 parameters. */
    r1cs_t rb;
    r1cs_witness_t wb;
    random_circuit(&rb, &wb, R1CS_CURVE_BN254);
    assert_int_equal(groth16_bp_assign(&a, &mem, &rb, &wb, NULL), CUZK_OK);
    assert_int_equal(groth16_bp_prove(&proof, &p, &a, NULL, NULL, NULL, err, sizeof err),
                     CUZK_EINVAL);
    assert_non_null(strstr(err, "BN254"));
    bp_params_t none;
    assert_int_equal(groth16_bp_dev_setup(&none, &rb, &test_rng, NULL), CUZK_EUNSUPPORTED);
    free(mem);
    bp_params_free(&p);
    r1cs_free(&r1);
    r1cs_free(&r2);
    r1cs_free(&rb);
    r1cs_witness_free(&w1);
    r1cs_witness_free(&w2);
    r1cs_witness_free(&wb);
}

/* n proofs of one circuit (fresh r and s each) verify as a batch; one bad
 * element or one wrong input anywhere in the batch fails it. */
static void test_bls381_batch(void **state)
{
    (void)state;
    r1cs_t r;
    r1cs_witness_t w;
    random_circuit(&r, &w, R1CS_CURVE_BLS12_381);
    bp_params_t p;
    asgn_t a;
    void *mem;
    key_and_assignment(&p, &a, &mem, &r, &w);
    enum { N = 5 };
    bp_proof_t proofs[N];
    size_t ni = a.n_inputs - 1;
    bls381_fr_t *in = malloc(N * (ni ? ni : 1) * sizeof *in);
    assert_non_null(in);
    bls381_fr_t *one = inputs_of(&a);
    groth16_prove_opts_t opts = {.rng = &test_rng};
    char err[IO_ERR_MAX];
    for (int i = 0; i < N; i++) {
        assert_int_equal(groth16_bp_prove(&proofs[i], &p, &a, &opts, NULL, NULL, err, sizeof err),
                         CUZK_OK);
        memcpy(in + i * ni, one, ni * sizeof *in);
    }
    for (size_t n = 1; n <= N; n++)
        assert_true(bp_verifies(&p.vk, in, proofs, n));
    for (size_t bad = 0; bad < N; bad++) {
        bp_proof_t saved = proofs[bad];
        double_g1(&proofs[bad].c);
        assert_false(bp_verifies(&p.vk, in, proofs, N));
        proofs[bad] = saved;
        /* Swapping two proofs' A elements keeps every point valid but
         * breaks both proofs. */
        size_t other = (bad + 1) % N;
        bls381_g1_affine_t ta = proofs[bad].a;
        if (!bls381_g1_affine_equal(&ta, &proofs[other].a)) {
            proofs[bad].a = proofs[other].a;
            proofs[other].a = ta;
            assert_false(bp_verifies(&p.vk, in, proofs, N));
            proofs[other].a = proofs[bad].a;
            proofs[bad].a = ta;
        }
    }
    assert_true(bp_verifies(&p.vk, in, proofs, N));
    if (ni > 0) {
        bls381_fr_add(&in[2 * ni], &in[2 * ni], &bls381_fr_ONE);
        assert_false(bp_verifies(&p.vk, in, proofs, N));
    }
    free(one);
    free(in);
    free(mem);
    bp_params_free(&p);
    r1cs_free(&r);
    r1cs_witness_free(&w);
}

/* The same convention over BN254, through the template directly (no
 * bellperson files exist for it). */
static void test_bn254(void **state)
{
    (void)state;
    for (int k = 0; k < test_iters(4); k++) {
        r1cs_t r;
        r1cs_witness_t w;
        random_circuit(&r, &w, R1CS_CURVE_BN254);
        groth16_key_t key;
        assert_int_equal(bn254_groth16_bp_dev_setup(&key, &r.u.bn254, &test_rng, NULL), CUZK_OK);
        asgn_t a;
        void *mem;
        assert_int_equal(groth16_bp_assign(&a, &mem, &r, &w, NULL), CUZK_OK);
        bn254_groth16_proof_t proof[2];
        char err[IO_ERR_MAX];
        for (int i = 0; i < 2; i++) {
            groth16_asgn_t g = asgn_groth16(&a);
            groth16_input_t in = {.asgn = &g};
            groth16_blinding_t bl = {.rng = &test_rng};
            cuzk_status_t s =
                bn254_groth16_prove(&proof[i], &key, &in, &bl, NULL, NULL, NULL, err, sizeof err);
            if (s != CUZK_OK)
                fail_msg("%s", err);
        }
        size_t ni = a.n_inputs - 1;
        bn254_fr_t in[8];
        for (size_t i = 0; i < ni; i++) {
            assert_true(bn254_fr_from_canonical(&in[i], a.inputs[i + 1]));
            in[ni + i] = in[i];
        }
        const groth16_key_bn254_t *f = &key.u.bn254;
        bn254_groth16_vk_t vk = {f->alpha1, f->beta2,    f->gamma2,
                                 f->delta2, key.ic.data, (uint32_t)ni};
        bool valid = false;
        assert_int_equal(bn254_groth16_verify(&valid, &vk, in, &proof[0], NULL), CUZK_OK);
        assert_true(valid);
        assert_int_equal(bn254_groth16_verify_batch(&valid, &vk, in, proof, 2, &test_rng, NULL),
                         CUZK_OK);
        assert_true(valid);
        bn254_g1_jac_t j;
        bn254_g1_jac_from_affine(&j, &proof[1].c);
        bn254_g1_jac_dbl(&j, &j);
        bn254_g1_jac_to_affine(&proof[1].c, &j);
        assert_int_equal(bn254_groth16_verify_batch(&valid, &vk, in, proof, 2, &test_rng, NULL),
                         CUZK_OK);
        assert_false(valid);
        free(mem);
        bn254_groth16_bp_dev_key_free(&key);
        r1cs_free(&r);
        r1cs_witness_free(&w);
    }
}

int main(void)
{
    test_seed_init("test_groth16_bp");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bls381_prove_verify),
        cmocka_unit_test(test_montgomery),
        cmocka_unit_test(test_mismatch),
        cmocka_unit_test(test_bls381_batch),
        cmocka_unit_test(test_bn254),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
