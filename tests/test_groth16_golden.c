/*
 * Groth16 proofs byte for byte: for a fixed seed (the circuit, its witness,
 * the development key and r, s all drawn from it), the proof of each
 * convention on each curve hashes to the value recorded below. The values
 * were produced by the two provers before they became one entry
 * (groth16_prove_key), which the cases below call; a change in
 * what the prover computes (another H basis, query, scalar or blinding
 * order) changes the hash. The hash is FNV-1a 64 over the affine points
 * π_A ‖ π_B ‖ π_C as they lie in memory (Montgomery form, little-endian).
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

#include "groth16/groth16.h"
#include "io/asgn_file.h"
#include "io/io_error.h"
#include "io/params_file.h"
#include "io/zkey_file.h"

enum { GOLDEN_SEED = 20240601 };

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

#define FNV_START 0xcbf29ce484222325ULL

/* The circuit of the seed over curve: 12 wires, 2 public signals, 21
 * constraints (a domain of 32 for snarkjs). */
static void golden_circuit(r1cs_t *r, r1cs_witness_t *w, r1cs_curve_t curve, rng_t *rng)
{
    r1cs_shape_t shape = {0};
    shape.n_wires = 12;
    shape.n_pub_out = 1;
    shape.n_pub_in = 1;
    shape.n_constraints = 21;
    shape.n_labels = shape.n_wires;
    memset(r, 0, sizeof *r);
    r->curve = curve;
    assert_int_equal(r1cs_witness_alloc(w, curve, shape.n_wires), CUZK_OK);
    if (curve == R1CS_CURVE_BN254)
        assert_int_equal(bn254_r1cs_random(&r->u.bn254, w->v.bn254, &shape, 3, rng), CUZK_OK);
    else
        assert_int_equal(bls381_r1cs_random(&r->u.bls381, w->v.bls381, &shape, 3, rng), CUZK_OK);
}

static uint64_t proof_hash(const groth16_proof_t *p)
{
    uint64_t h = FNV_START;
    if (p->curve == R1CS_CURVE_BN254) {
        h = fnv1a(h, &p->u.bn254.a, sizeof p->u.bn254.a);
        h = fnv1a(h, &p->u.bn254.b, sizeof p->u.bn254.b);
        return fnv1a(h, &p->u.bn254.c, sizeof p->u.bn254.c);
    }
    h = fnv1a(h, &p->u.bls381.a, sizeof p->u.bls381.a);
    h = fnv1a(h, &p->u.bls381.b, sizeof p->u.bls381.b);
    return fnv1a(h, &p->u.bls381.c, sizeof p->u.bls381.c);
}

static void check(const char *what, uint64_t got, uint64_t want)
{
    if (got != want)
        fail_msg("%s: proof hash 0x%016llx, expected 0x%016llx", what, (unsigned long long)got,
                 (unsigned long long)want);
}

/* snarkjs convention: the development zkey of the circuit, a witness. */
static uint64_t snarkjs_hash(r1cs_curve_t curve)
{
    rng_t rng;
    rng_seed(&rng, GOLDEN_SEED);
    r1cs_t r;
    r1cs_witness_t w, pub;
    golden_circuit(&r, &w, curve, &rng);
    zkey_t k;
    assert_int_equal(groth16_dev_setup(&k, &r, &rng, NULL), CUZK_OK);
    char err[IO_ERR_MAX];
    groth16_prove_opts_t opts = {.rng = &rng};
    groth16_proof_t proof;
    groth16_key_t key = zkey_groth16_key(&k);
    groth16_input_t in = {.curve = curve,
                          .w = curve == R1CS_CURVE_BN254 ? (const void *)w.v.bn254
                                                         : (const void *)w.v.bls381,
                          .n = w.n};
    cuzk_status_t s =
        groth16_prove_key(&proof, &pub, &key, &in, &opts, NULL, NULL, err, sizeof err);
    if (s != CUZK_OK)
        fail_msg("%s", err);
    uint64_t h = proof_hash(&proof);
    r1cs_witness_free(&pub);
    groth16_dev_key_free(&k);
    r1cs_free(&r);
    r1cs_witness_free(&w);
    return h;
}

/* bellperson convention on BLS12-381: development parameters, an
 * assignment. */
static uint64_t bellperson_hash(void)
{
    rng_t rng;
    rng_seed(&rng, GOLDEN_SEED);
    r1cs_t r;
    r1cs_witness_t w;
    golden_circuit(&r, &w, R1CS_CURVE_BLS12_381, &rng);
    bp_params_t p;
    asgn_t a;
    void *mem;
    assert_int_equal(groth16_bp_dev_setup(&p, &r, &rng, NULL), CUZK_OK);
    assert_int_equal(groth16_bp_assign(&a, &mem, &r, &w, NULL), CUZK_OK);
    char err[IO_ERR_MAX];
    groth16_prove_opts_t opts = {.rng = &rng};
    groth16_key_t key = bp_params_groth16_key(&p);
    groth16_asgn_t g = asgn_groth16(&a);
    groth16_input_t in = {.asgn = &g};
    groth16_proof_t sp;
    r1cs_witness_t pub;
    cuzk_status_t s = groth16_prove_key(&sp, &pub, &key, &in, &opts, NULL, NULL, err, sizeof err);
    if (s != CUZK_OK)
        fail_msg("%s", err);
    r1cs_witness_free(&pub);
    free(mem);
    bp_params_free(&p);
    r1cs_free(&r);
    r1cs_witness_free(&w);
    return proof_hash(&sp);
}

/* The bellperson convention on BN254 (cuzk's own: no bellperson files). */
static uint64_t bellperson_bn254_hash(void)
{
    rng_t rng;
    rng_seed(&rng, GOLDEN_SEED);
    r1cs_t r;
    r1cs_witness_t w;
    golden_circuit(&r, &w, R1CS_CURVE_BN254, &rng);
    groth16_key_t key;
    asgn_t a;
    void *mem;
    assert_int_equal(bn254_groth16_bp_dev_setup(&key, &r.u.bn254, &rng, NULL), CUZK_OK);
    assert_int_equal(groth16_bp_assign(&a, &mem, &r, &w, NULL), CUZK_OK);
    char err[IO_ERR_MAX];
    groth16_asgn_t g = asgn_groth16(&a);
    groth16_input_t in = {.asgn = &g};
    groth16_prove_opts_t opts = {.rng = &rng};
    groth16_proof_t sp;
    r1cs_witness_t pub;
    cuzk_status_t s = groth16_prove_key(&sp, &pub, &key, &in, &opts, NULL, NULL, err, sizeof err);
    if (s != CUZK_OK)
        fail_msg("%s", err);
    r1cs_witness_free(&pub);
    free(mem);
    bn254_groth16_bp_dev_key_free(&key);
    r1cs_free(&r);
    r1cs_witness_free(&w);
    return proof_hash(&sp);
}

static void test_snarkjs_bn254(void **state)
{
    (void)state;
    check("snarkjs BN254", snarkjs_hash(R1CS_CURVE_BN254), 0x4912a276adbeea59);
}

static void test_snarkjs_bls381(void **state)
{
    (void)state;
    check("snarkjs BLS12-381", snarkjs_hash(R1CS_CURVE_BLS12_381), 0xcec194d75fe95d48);
}

static void test_bellperson_bls381(void **state)
{
    (void)state;
    check("bellperson BLS12-381", bellperson_hash(), 0xeeaa0372344b120c);
}

static void test_bellperson_bn254(void **state)
{
    (void)state;
    check("bellperson BN254", bellperson_bn254_hash(), 0x6a4d052b52db1fb5);
}

int main(void)
{
    test_seed_init("test_groth16_golden");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snarkjs_bn254),
        cmocka_unit_test(test_snarkjs_bls381),
        cmocka_unit_test(test_bellperson_bls381),
        cmocka_unit_test(test_bellperson_bn254),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
