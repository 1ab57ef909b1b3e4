/*
 * The development setup on the device (src/engine/engine_gpu_setup.c)
 * against the CPU's: the indexed circuit built as CSR (r1cs_generate_indexed)
 * through groth16_bp_dev_setup and groth16_bp_assign, from a generator
 * seeded as the device's, must give the same verifying key, the same five
 * queries and the same assignment byte for byte, for circuits of porep32's
 * proportions and of other shapes, 2 to ~5000 rows. Then a proof on the
 * device key (whose host side has no query arrays) verifies.
 * Skips, saying why, when CUDA is not built or no GPU is present.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"

#ifdef CUZK_HAVE_CUDA

#include "cuda/gpu.h"
#include "engine/engine_gpu.h"
#include "engine/engine_gpu_setup.h"
#include "io/params_file.h"
#include "io/io_error.h"
#include "r1cs/r1cs.h"

#include "test_gpu_dev.h"

/* Query q of the device key (n points of size bytes) equals cpu. */
static void check_query(engine_gpu_key_t *k, int q, const void *cpu, size_t n, size_t size,
                        const char *what, uint32_t rows)
{
    gpu_t g = *engine_gpu_dev_gpu(dev);
    unsigned char *h = malloc(n * size + 1);
    assert_non_null(h);
    if (n && gpu_download(&g, h, engine_gpu_key_query(k, q), n * size, NULL) != CUZK_OK)
        fail_msg("downloading %s: %s", what, g.err);
    if (n && memcmp(h, cpu, n * size) != 0) {
        size_t i = 0;
        while (memcmp(h + i * size, (const unsigned char *)cpu + i * size, size) == 0)
            i++;
        fail_msg("%u rows: %s point %zu of %zu differs from the CPU's", rows, what, i, n);
    }
    free(h);
}

static void setup_case(uint32_t n, bool porep, engine_gpu_slot_t *slot)
{
    r1cs_gen_params_t gp = r1cs_gen_porep32(n);
    if (!porep) {
        gp.n_public = n / 2 < 3 ? n / 2 : 3;
        gp.nnz_a = 3.5;
        gp.nnz_b = 2.0;
        gp.nnz_c = 3.0;
        gp.bits = 0.3;
        gp.b_share = 1.0;
    }
    r1cs_ix_t ix;
    assert_true(r1ix_init(&ix, R1CS_CURVE_BLS12_381, &gp, rng_next(&test_rng)));
    uint64_t seed = rng_next(&test_rng);
    rng_t rc, rd;
    rng_seed(&rc, seed);
    rng_seed(&rd, seed);

    /* The CPU. */
    r1cs_t r;
    r1cs_witness_t w;
    assert_int_equal(r1cs_generate_indexed(&r, &w, &ix), CUZK_OK);
    bp_params_t pc;
    asgn_t ac;
    void *mem = NULL;
    assert_int_equal(groth16_bp_dev_setup(&pc, &r, &rc, NULL), CUZK_OK);
    assert_int_equal(groth16_bp_assign(&ac, &mem, &r, &w, NULL), CUZK_OK);

    /* The device. */
    size_t abytes = engine_gpu_bp_asgn_bytes(&ix);
    void *amem = malloc(abytes);
    assert_non_null(amem);
    engine_gpu_key_t *k = NULL;
    bp_params_t pd;
    asgn_t ad;
    char err[IO_ERR_MAX] = "";
    if (engine_gpu_bp_dev_setup(&k, &pd, &ad, amem, dev, &ix, &rd, err, sizeof err) != CUZK_OK)
        fail_msg("%u rows: %s", n, err);

    /* The verifying key, the counts, the queries, the assignment. */
    assert_int_equal(pd.vk.n_ic, pc.vk.n_ic);
    assert_int_equal(pd.n_h, pc.n_h);
    assert_int_equal(pd.n_l, pc.n_l);
    assert_int_equal(pd.n_a, pc.n_a);
    assert_int_equal(pd.n_b, pc.n_b);
    assert_null(pd.a);
    assert_null(pd.h);
    assert_memory_equal(&pd.vk.alpha1, &pc.vk.alpha1, sizeof pc.vk.alpha1);
    assert_memory_equal(&pd.vk.beta1, &pc.vk.beta1, sizeof pc.vk.beta1);
    assert_memory_equal(&pd.vk.delta1, &pc.vk.delta1, sizeof pc.vk.delta1);
    assert_memory_equal(&pd.vk.beta2, &pc.vk.beta2, sizeof pc.vk.beta2);
    assert_memory_equal(&pd.vk.gamma2, &pc.vk.gamma2, sizeof pc.vk.gamma2);
    assert_memory_equal(&pd.vk.delta2, &pc.vk.delta2, sizeof pc.vk.delta2);
    assert_memory_equal(pd.vk.ic, pc.vk.ic, pc.vk.n_ic * sizeof *pc.vk.ic);
    size_t g1 = sizeof(bls381_g1_affine_t), g2 = sizeof(bls381_g2_affine_t);
    check_query(k, 0, pc.a, pc.n_a, g1, "A", n);
    check_query(k, 1, pc.b_g1, pc.n_b, g1, "B1", n);
    check_query(k, 2, pc.b_g2, pc.n_b, g2, "B2", n);
    check_query(k, 3, pc.l, pc.n_l, g1, "L", n);
    check_query(k, 4, pc.h, pc.n_h, g1, "H", n);
    assert_int_equal(ad.n_constraints, ac.n_constraints);
    assert_int_equal(ad.n_inputs, ac.n_inputs);
    assert_int_equal(ad.n_aux, ac.n_aux);
    if (memcmp(amem, mem, abytes) != 0)
        fail_msg("%u rows: the device's assignment differs from the CPU's", n);

    /* A proof on the device key, verified. */
    bp_proof_t proof;
    engine_gpu_accel_t acc = {.slot = slot, .key = k};
    groth16_accel_t table = engine_gpu_accel(&acc);
    groth16_prove_opts_t opts = {.accel = &table};
    if (groth16_bp_prove(&proof, &pd, &ad, &opts, NULL, NULL, err, sizeof err) != CUZK_OK)
        fail_msg("%u rows: proving on the device key: %s", n, err);
    bls381_fr_t *in = malloc(ad.n_inputs * sizeof *in);
    assert_non_null(in);
    for (uint64_t i = 1; i < ad.n_inputs; i++)
        assert_true(bls381_fr_from_canonical(&in[i - 1], ad.inputs[i]));
    bool valid = false;
    assert_int_equal(groth16_bp_verify(&valid, &pd.vk, in, &proof, 1, NULL, NULL, err, sizeof err),
                     CUZK_OK);
    assert_true(valid);

    free(in);
    engine_gpu_key_free(k);
    bp_params_free(&pd);
    free(amem);
    free(mem);
    bp_params_free(&pc);
    r1cs_witness_free(&w);
    r1cs_free(&r);
}

static void test_device_setup_matches_cpu(void **state)
{
    (void)state;
    REQUIRE_GPU();
    engine_gpu_slot_t *slot = NULL;
    char err[IO_ERR_MAX];
    if (engine_gpu_slot_new(&slot, dev, NULL, err, sizeof err) != CUZK_OK)
        fail_msg("%s", err);
    static const uint32_t sizes[] = {2, 3, 17, 300, 1000, 4093};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        setup_case(sizes[i], true, slot);
        setup_case(sizes[i], false, slot);
    }
    engine_gpu_slot_free(slot);
}

static void test_refusals(void **state)
{
    (void)state;
    REQUIRE_GPU();
    r1cs_gen_params_t gp = r1cs_gen_porep32(100);
    r1cs_ix_t ix;
    assert_true(r1ix_init(&ix, R1CS_CURVE_BN254, &gp, 1));
    engine_gpu_key_t *k = NULL;
    bp_params_t p;
    char err[IO_ERR_MAX] = "";
    assert_int_equal(
        engine_gpu_bp_dev_setup(&k, &p, NULL, NULL, dev, &ix, &test_rng, err, sizeof err),
        CUZK_EUNSUPPORTED);
    assert_null(k);
    assert_non_null(strstr(err, "BLS12-381"));
}

int main(void)
{
    test_seed_init("test_engine_gpu_setup");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_setup_matches_cpu),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, gpu_dev_setup, gpu_dev_teardown);
}

#else /* !CUZK_HAVE_CUDA */

int main(void)
{
    printf("test_engine_gpu_setup: CUDA backend not built (no nvcc at configure time): skipped\n");
    return 0;
}

#endif
