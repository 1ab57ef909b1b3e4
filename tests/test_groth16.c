/*
 * Groth16, snarkjs convention, on both curves: random R1CS → INSECURE
 * development key (groth16_dev_setup, written and read back as a .zkey so
 * the reader validates it) → prove → verify; every proof element and a
 * public signal tampered → rejected; an unsatisfied witness → the
 * self-verification refuses it. The interop test (tests/interop) checks the
 * same paths against snarkjs.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"

#include "groth16/groth16.h"
#include "io/io_error.h"
#include "io/snarkjs_json.h"
#include "io/zkey_file.h"
#include "r1cs/r1cs.h"

static char tmp_path[64];

/* A random satisfiable R1CS over curve with its witness: 2 .. 17 wires, up
 * to 3 public signals, 1 .. 40 constraints (domains 2^1 .. 2^6). */
static void random_circuit(r1cs_t *r, r1cs_witness_t *w, r1cs_curve_t curve)
{
    r1cs_shape_t shape = {0};
    shape.n_wires = 2 + (uint32_t)(rng_next(&test_rng) % 16);
    uint32_t room = shape.n_wires - 2; /* at least one private wire */
    shape.n_pub_out = (uint32_t)(rng_next(&test_rng) % 2);
    if (shape.n_pub_out > room)
        shape.n_pub_out = room;
    shape.n_pub_in = (uint32_t)(rng_next(&test_rng) % 3);
    if (shape.n_pub_in > room - shape.n_pub_out)
        shape.n_pub_in = room - shape.n_pub_out;
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

/* The development key for r, through the .zkey writer and the full reader. */
static void dev_key(zkey_t *k, const r1cs_t *r)
{
    zkey_t dev;
    char err[IO_ERR_MAX];
    assert_int_equal(groth16_dev_setup(&dev, r, &test_rng, NULL), CUZK_OK);
    assert_int_equal(zkey_file_write(tmp_path, &dev, NULL, err, sizeof err), CUZK_OK);
    groth16_dev_key_free(&dev);
    cuzk_status_t s = zkey_file_read(k, tmp_path, NULL, 0, err, sizeof err);
    if (s != CUZK_OK)
        fail_msg("%s", err);
    unlink(tmp_path);
}

static bool verifies(const groth16_vk_t *vk, const r1cs_witness_t *pub, const snarkjs_proof_t *p)
{
    bool valid = false;
    char err[IO_ERR_MAX];
    assert_int_equal(groth16_verify(&valid, vk, pub, p, NULL, err, sizeof err), CUZK_OK);
    return valid;
}

/* Replaces element `which` (0 = π_A, 1 = π_B, 2 = π_C) by twice itself: a
 * valid group element, and a different one (proof points are never
 * infinity here: r and s are non-zero with overwhelming probability). */
static void tamper(snarkjs_proof_t *p, int which)
{
    if (p->curve == R1CS_CURVE_BN254) {
        bn254_g1_jac_t j;
        bn254_g2_jac_t j2;
        bn254_g1_affine_t *g1 = which == 0 ? &p->u.bn254.a : &p->u.bn254.c;
        if (which == 1) {
            bn254_g2_jac_from_affine(&j2, &p->u.bn254.b);
            bn254_g2_jac_dbl(&j2, &j2);
            bn254_g2_jac_to_affine(&p->u.bn254.b, &j2);
        } else {
            bn254_g1_jac_from_affine(&j, g1);
            bn254_g1_jac_dbl(&j, &j);
            bn254_g1_jac_to_affine(g1, &j);
        }
    } else {
        bls381_g1_jac_t j;
        bls381_g2_jac_t j2;
        bls381_g1_affine_t *g1 = which == 0 ? &p->u.bls381.a : &p->u.bls381.c;
        if (which == 1) {
            bls381_g2_jac_from_affine(&j2, &p->u.bls381.b);
            bls381_g2_jac_dbl(&j2, &j2);
            bls381_g2_jac_to_affine(&p->u.bls381.b, &j2);
        } else {
            bls381_g1_jac_from_affine(&j, g1);
            bls381_g1_jac_dbl(&j, &j);
            bls381_g1_jac_to_affine(g1, &j);
        }
    }
}

/* w[i] += 1. */
static void bump(r1cs_witness_t *w, uint32_t i)
{
    if (w->curve == R1CS_CURVE_BN254)
        bn254_fr_add(&w->v.bn254[i], &w->v.bn254[i], &bn254_fr_ONE);
    else
        bls381_fr_add(&w->v.bls381[i], &w->v.bls381[i], &bls381_fr_ONE);
}

static void bump_back(r1cs_witness_t *w, uint32_t i)
{
    if (w->curve == R1CS_CURVE_BN254)
        bn254_fr_sub(&w->v.bn254[i], &w->v.bn254[i], &bn254_fr_ONE);
    else
        bls381_fr_sub(&w->v.bls381[i], &w->v.bls381[i], &bls381_fr_ONE);
}

static void prove_verify_tamper(r1cs_curve_t curve)
{
    for (int iter = 0; iter < test_iters(3); iter++) {
        r1cs_t r;
        r1cs_witness_t w, pub;
        zkey_t k;
        random_circuit(&r, &w, curve);
        dev_key(&k, &r);

        snarkjs_proof_t proof;
        groth16_timings_t t;
        char err[IO_ERR_MAX];
        groth16_prove_opts_t opts = {.rng = &test_rng};
        cuzk_status_t s = groth16_prove(&proof, &pub, &k, &w, &opts, &t, NULL, err, sizeof err);
        if (s != CUZK_OK)
            fail_msg("prove: %s", err);
        assert_int_equal(pub.n, k.n_public);
        assert_true(t.seconds[GROTH16_STAGE_VERIFY] > 0);

        /* The key's own verification key (IC in place in the mapped file,
         * at whatever alignment its section has), and its copy in snarkjs'
         * type, seen back as a groth16_vk_t. */
        groth16_key_t key = zkey_groth16_key(&k);
        groth16_vk_t kvk = groth16_key_vk(&key);
        assert_true(verifies(&kvk, &pub, &proof));
        snarkjs_vk_t sj;
        assert_int_equal(snarkjs_vk_from_groth16(&sj, &kvk), CUZK_OK);
        assert_false(sj.has_alphabeta);
        groth16_vk_t vk = snarkjs_vk_groth16(&sj);
        assert_true(verifies(&vk, &pub, &proof));
        /* IC at an odd address, as a mapped file may hold it: verified from
         * a copy, with the same outcome, tampered proofs included. */
        size_t g1 =
            curve == R1CS_CURVE_BN254 ? sizeof(bn254_g1_affine_t) : sizeof(bls381_g1_affine_t);
        unsigned char *odd_ic = malloc(kvk.ic.count * g1 + 1);
        assert_non_null(odd_ic);
        memcpy(odd_ic + 1, kvk.ic.data, kvk.ic.count * g1);
        groth16_vk_t odd = kvk;
        odd.ic.data = odd_ic + 1;
        assert_false(groth16_points_aligned(odd.ic));
        assert_true(verifies(&odd, &pub, &proof));
        for (int which = 0; which < 3; which++) {
            snarkjs_proof_t bad = proof;
            tamper(&bad, which);
            assert_false(verifies(&odd, &pub, &bad));
        }
        free(odd_ic);
        for (int which = 0; which < 3; which++) {
            snarkjs_proof_t bad = proof;
            tamper(&bad, which);
            assert_false(verifies(&vk, &pub, &bad));
        }
        for (uint32_t i = 0; i < pub.n; i++) {
            bump(&pub, i);
            assert_false(verifies(&vk, &pub, &proof));
            bump_back(&pub, i);
        }
        assert_true(verifies(&vk, &pub, &proof));
        /* one public signal too few */
        if (pub.n > 0) {
            pub.n--;
            bool valid;
            assert_int_equal(groth16_verify(&valid, &vk, &pub, &proof, NULL, err, sizeof err),
                             CUZK_EINVAL);
            pub.n++;
        }

        /* An unsatisfied witness: the first wire whose change breaks a
         * constraint (a wire no constraint uses changes nothing). */
        for (uint32_t i = 1; i < w.n; i++) {
            bump(&w, i);
            if (r1cs_check(NULL, &r, &w, NULL) == CUZK_EWITNESS) {
                r1cs_witness_t p2;
                s = groth16_prove(&proof, &p2, &k, &w, &opts, NULL, NULL, err, sizeof err);
                assert_int_equal(s, CUZK_EWITNESS);
                assert_non_null(strstr(err, "does not satisfy"));
                assert_int_equal(p2.n, 0);
                /* without the self-verification the proof comes out, invalid */
                groth16_prove_opts_t no_verify = {.rng = &test_rng, .no_verify = true};
                assert_int_equal(
                    groth16_prove(&proof, &p2, &k, &w, &no_verify, NULL, NULL, err, sizeof err),
                    CUZK_OK);
                assert_false(verifies(&vk, &p2, &proof));
                r1cs_witness_free(&p2);
                break;
            }
            bump_back(&w, i);
        }

        /* A witness of the wrong length is refused with a message. */
        r1cs_witness_t p3;
        w.n--;
        assert_int_equal(groth16_prove(&proof, &p3, &k, &w, &opts, NULL, NULL, err, sizeof err),
                         CUZK_EINVAL);
        assert_int_equal(p3.n, 0);
        w.n++;

        snarkjs_vk_free(&sj);
        r1cs_witness_free(&pub);
        r1cs_witness_free(&w);
        zkey_free(&k);
        r1cs_free(&r);
    }
}

static void test_bn254(void **state)
{
    (void)state;
    prove_verify_tamper(R1CS_CURVE_BN254);
}

static void test_bls381(void **state)
{
    (void)state;
    prove_verify_tamper(R1CS_CURVE_BLS12_381);
}

/* The same seed gives the same proof (r and s from the seeded stream), and
 * the stage names are what --json prints. */
static void test_reproducible(void **state)
{
    (void)state;
    r1cs_t r;
    r1cs_witness_t w, pub1, pub2;
    zkey_t k;
    random_circuit(&r, &w, R1CS_CURVE_BN254);
    dev_key(&k, &r);
    snarkjs_proof_t p1, p2;
    char err[IO_ERR_MAX];
    rng_t a, b;
    rng_seed(&a, test_seed);
    rng_seed(&b, test_seed);
    groth16_prove_opts_t oa = {.rng = &a}, ob = {.rng = &b, .no_verify = true};
    assert_int_equal(groth16_prove(&p1, &pub1, &k, &w, &oa, NULL, NULL, err, sizeof err), CUZK_OK);
    assert_int_equal(groth16_prove(&p2, &pub2, &k, &w, &ob, NULL, NULL, err, sizeof err), CUZK_OK);
    assert_memory_equal(&p1, &p2, sizeof p1);
    assert_string_equal(groth16_stage_name(GROTH16_STAGE_SYNTH), "synth");
    assert_string_equal(groth16_stage_name(GROTH16_STAGE_VERIFY), "verify");
    r1cs_witness_free(&pub1);
    r1cs_witness_free(&pub2);
    r1cs_witness_free(&w);
    zkey_free(&k);
    r1cs_free(&r);
}

/* Given blinding scalars prove exactly as the same r and s drawn inside:
 * a generator seeded alike draws r then s, and the proof made from those
 * values given is byte-identical to the one made from the seeded stream;
 * other values give another proof that verifies too. Half a pair and a
 * value at or above the modulus are refused, naming what was wrong. */
static void test_given_blinding(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++) {
        r1cs_curve_t curve = c == 0 ? R1CS_CURVE_BN254 : R1CS_CURVE_BLS12_381;
        r1cs_t r;
        r1cs_witness_t w, pub;
        zkey_t k;
        random_circuit(&r, &w, curve);
        dev_key(&k, &r);
        rng_t a, b;
        rng_seed(&a, test_seed);
        rng_seed(&b, test_seed);
        uint64_t rs[2][4], other[4];
        for (int i = 0; i < 2; i++) {
            if (curve == R1CS_CURVE_BN254) {
                bn254_fr_t v;
                assert_int_equal(bn254_fr_random(&v, &b), CUZK_OK);
                memcpy(rs[i], v.l, sizeof rs[i]);
            } else {
                bls381_fr_t v;
                assert_int_equal(bls381_fr_random(&v, &b), CUZK_OK);
                memcpy(rs[i], v.l, sizeof rs[i]);
            }
        }
        memcpy(other, rs[1], sizeof other);
        other[0] ^= 1; /* still below the modulus: only the lowest bit moved */
        snarkjs_proof_t drawn, given, changed;
        char err[IO_ERR_MAX] = "";
        groth16_prove_opts_t od = {.rng = &a};
        groth16_prove_opts_t og = {.r = rs[0], .s = rs[1]};
        groth16_prove_opts_t oc = {.r = rs[0], .s = other};
        assert_int_equal(groth16_prove(&drawn, &pub, &k, &w, &od, NULL, NULL, err, sizeof err),
                         CUZK_OK);
        r1cs_witness_free(&pub);
        assert_int_equal(groth16_prove(&given, &pub, &k, &w, &og, NULL, NULL, err, sizeof err),
                         CUZK_OK);
        r1cs_witness_free(&pub);
        assert_memory_equal(&drawn, &given, sizeof drawn);
        assert_int_equal(groth16_prove(&changed, &pub, &k, &w, &oc, NULL, NULL, err, sizeof err),
                         CUZK_OK); /* self-verified */
        r1cs_witness_free(&pub);
        assert_memory_not_equal(&given, &changed, sizeof given);

        groth16_prove_opts_t half = {.r = rs[0]};
        assert_int_equal(groth16_prove(&changed, &pub, &k, &w, &half, NULL, NULL, err, sizeof err),
                         CUZK_EINVAL);
        assert_non_null(strstr(err, "r without s"));
        uint64_t big[4] = {~0ull, ~0ull, ~0ull, ~0ull >> 1};
        groth16_prove_opts_t over = {.r = rs[0], .s = big};
        assert_int_equal(groth16_prove(&changed, &pub, &k, &w, &over, NULL, NULL, err, sizeof err),
                         CUZK_ENONCANONICAL);
        assert_non_null(strstr(err, "blinding scalar s"));
        r1cs_witness_free(&w);
        zkey_free(&k);
        r1cs_free(&r);
    }
}

/* A key matches the circuit it was made for, and names the difference
 * when a coefficient, a shape count or the whole circuit differs. */
static void test_key_matches_circuit(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++) {
        r1cs_curve_t curve = c == 0 ? R1CS_CURVE_BN254 : R1CS_CURVE_BLS12_381;
        r1cs_t r, other;
        r1cs_witness_t w, wo;
        zkey_t k;
        random_circuit(&r, &w, curve);
        dev_key(&k, &r);
        groth16_key_t key = zkey_groth16_key(&k);
        char err[IO_ERR_MAX] = "";
        assert_int_equal(groth16_key_matches_r1cs(&key, &r, "k.zkey", "c.r1cs", err, sizeof err),
                         CUZK_OK);
        /* One coefficient of A (or of B when A is empty) changed. */
        bool changed = true;
        if (curve == R1CS_CURVE_BN254) {
            bn254_csr_t *m = bn254_csr_nnz(&r.u.bn254.a) ? &r.u.bn254.a : &r.u.bn254.b;
            if ((changed = bn254_csr_nnz(m) > 0))
                bn254_fr_add(&m->val[0], &m->val[0], &bn254_fr_ONE);
        } else {
            bls381_csr_t *m = bls381_csr_nnz(&r.u.bls381.a) ? &r.u.bls381.a : &r.u.bls381.b;
            if ((changed = bls381_csr_nnz(m) > 0))
                bls381_fr_add(&m->val[0], &m->val[0], &bls381_fr_ONE);
        }
        if (changed) {
            assert_int_equal(
                groth16_key_matches_r1cs(&key, &r, "k.zkey", "c.r1cs", err, sizeof err),
                CUZK_EINVAL);
            assert_non_null(strstr(err, "k.zkey does not belong to c.r1cs"));
            assert_non_null(strstr(err, "another coefficient"));
        }
        /* Another circuit: some count or term differs. */
        do {
            random_circuit(&other, &wo, curve);
            if (r1cs_shape(&other)->n_wires != r1cs_shape(&r)->n_wires ||
                r1cs_shape(&other)->n_constraints != r1cs_shape(&r)->n_constraints)
                break;
            r1cs_free(&other);
            r1cs_witness_free(&wo);
        } while (1);
        assert_int_equal(
            groth16_key_matches_r1cs(&key, &other, "k.zkey", "o.r1cs", err, sizeof err),
            CUZK_EINVAL);
        assert_non_null(strstr(err, "does not belong to o.r1cs"));
        r1cs_free(&other);
        r1cs_witness_free(&wo);
        r1cs_witness_free(&w);
        zkey_free(&k);
        r1cs_free(&r);
    }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bn254),
    cmocka_unit_test(test_bls381),
    cmocka_unit_test(test_reproducible),
    cmocka_unit_test(test_given_blinding),
    cmocka_unit_test(test_key_matches_circuit),
};

int main(void)
{
    test_seed_init("test_groth16");
    snprintf(tmp_path, sizeof tmp_path, "/tmp/cuzk_test_groth16_%ld.zkey", (long)getpid());
    return cmocka_run_group_tests(tests, NULL, NULL);
}
