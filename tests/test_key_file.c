/*
 * Proving keys from their three files (io/key_file.h): each format gives
 * the Groth16 view of its convention, the sizes the engine budgets with,
 * and proofs encoded as the key's own tools write them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"

#include "groth16/groth16.h"
#include "io/asgn_file.h"
#include "io/io_error.h"
#include "io/key_cache.h"
#include "io/key_file.h"
#include "io/params_file.h"
#include "io/snarkjs_json.h"
#include "io/zkey_file.h"
#include "r1cs/r1cs.h"

static char dir[64];

static void path_in(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", dir, name);
}

static uint64_t file_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (uint64_t)st.st_size;
}

static void read_all(const char *path, unsigned char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    *len = file_size(path);
    *data = malloc(*len ? *len : 1);
    assert_non_null(*data);
    assert_int_equal(fread(*data, 1, *len, f), *len);
    fclose(f);
}

/* A small porep32-shaped circuit over curve with two public inputs. */
static void circuit(r1cs_t *r, r1cs_witness_t *w, r1cs_curve_t curve)
{
    r1cs_gen_params_t gp = r1cs_gen_porep32(40);
    gp.n_public = 2;
    assert_int_equal(r1cs_generate(r, w, curve, &gp, &test_rng), CUZK_OK);
}

/* A .zkey and a proof with it: the snarkjs view, the file's size as its
 * host memory, a JSON proof that verifies; the same from memory. */
static void test_zkey(void **state)
{
    (void)state;
    char path[128], err[IO_ERR_MAX];
    path_in(path, sizeof path, "k.zkey");
    r1cs_t r;
    r1cs_witness_t w;
    circuit(&r, &w, R1CS_CURVE_BN254);
    zkey_t dev;
    assert_int_equal(groth16_dev_setup(&dev, &r, &test_rng, NULL), CUZK_OK);
    assert_int_equal(zkey_file_write(path, &dev, NULL, err, sizeof err), CUZK_OK);

    key_file_t k;
    assert_int_equal(key_file_read(&k, KEY_FORMAT_ZKEY, path, NULL, 0, err, sizeof err), CUZK_OK);
    assert_int_equal(k.format, KEY_FORMAT_ZKEY);
    assert_non_null(k.zkey);
    assert_null(k.params);
    assert_int_equal(k.key.conv.synth, GROTH16_SYNTH_COEFFS);
    assert_int_equal(k.key.curve, R1CS_CURVE_BN254);
    assert_int_equal(k.key.n_vars, dev.n_vars);
    assert_int_equal(k.key.n_public, 2);
    assert_int_equal(k.key.domain_size, dev.domain_size);
    assert_true(key_file_has_points(&k));
    assert_int_equal(key_file_host_bytes(&k), file_size(path));
    assert_true(key_file_work_bytes(&k) >= 3ull * 32 * dev.domain_size + 2ull * 32 * dev.n_vars);

    groth16_proof_t proof;
    r1cs_witness_t pub = {0};
    groth16_input_t in = {.curve = w.curve, .w = w.v.bn254, .n = w.n};
    assert_int_equal(
        groth16_prove_key(&proof, &pub, &k.key, &in, NULL, NULL, NULL, err, sizeof err), CUZK_OK);
    char *json, *public_json;
    unsigned char *bytes;
    size_t len;
    assert_int_equal(key_file_encode_proof(&k, &proof, &pub, &json, &bytes, &len, &public_json),
                     CUZK_OK);
    assert_null(bytes);
    assert_int_equal(len, 0);
    assert_non_null(strstr(json, "\"protocol\": \"groth16\""));
    assert_int_equal(public_json[0], '[');
    snarkjs_proof_t back;
    assert_int_equal(
        snarkjs_proof_parse(&back, json, strlen(json), "proof", R1CS_CURVE_BN254, err, sizeof err),
        CUZK_OK);
    groth16_vk_t vk = groth16_key_vk(&k.key);
    bool valid = false;
    assert_int_equal(groth16_verify(&valid, &vk, &pub, &back, NULL, err, sizeof err), CUZK_OK);
    assert_true(valid);
    free(json);
    free(public_json);
    key_file_free(&k);
    assert_null(k.zkey);

    /* from memory: the same key; a truncated copy is refused by name */
    unsigned char *data;
    size_t size;
    read_all(path, &data, &size);
    assert_int_equal(
        key_file_parse(&k, KEY_FORMAT_ZKEY, data, size, "the upload", NULL, 0, err, sizeof err),
        CUZK_OK);
    assert_int_equal(k.key.n_vars, dev.n_vars);
    key_file_free(&k);
    assert_int_not_equal(
        key_file_parse(&k, KEY_FORMAT_ZKEY, data, size / 2, "the upload", NULL, 0, err, sizeof err),
        CUZK_OK);
    assert_non_null(strstr(err, "the upload"));
    assert_null(k.zkey);
    /* a format that is none */
    assert_int_equal(key_file_read(&k, KEY_FORMATS, path, NULL, 0, err, sizeof err), CUZK_EINVAL);
    assert_non_null(strstr(err, path));
    free(data);
    r1cs_witness_free(&pub);
    groth16_dev_key_free(&dev);
    r1cs_witness_free(&w);
    r1cs_free(&r);
    unlink(path);
}

/* Bellperson parameters, as a .params and as a key cache, and adopted from
 * memory: the bellperson view, and a 192-byte proof. */
static void test_params(void **state)
{
    (void)state;
    char path[128], cache[128], err[IO_ERR_MAX];
    path_in(path, sizeof path, "k.params");
    path_in(cache, sizeof cache, "k.cuzkkey");
    r1cs_t r;
    r1cs_witness_t w;
    circuit(&r, &w, R1CS_CURVE_BLS12_381);
    bp_params_t p;
    assert_int_equal(groth16_bp_dev_setup(&p, &r, &test_rng, NULL), CUZK_OK);
    assert_int_equal(bp_params_write(path, &p, err, sizeof err), CUZK_OK);
    assert_int_equal(key_cache_write_params(cache, &p, NULL, NULL, NULL, err, sizeof err), CUZK_OK);
    asgn_t a;
    void *mem = NULL;
    assert_int_equal(groth16_bp_assign(&a, &mem, &r, &w, NULL), CUZK_OK);

    static const key_format_t formats[] = {KEY_FORMAT_PARAMS, KEY_FORMAT_CACHE};
    for (int f = 0; f < 2; f++) {
        key_file_t k;
        assert_int_equal(key_file_read(&k, formats[f], f ? cache : path, NULL, 0, err, sizeof err),
                         CUZK_OK);
        assert_int_equal(k.format, formats[f]);
        assert_null(k.zkey);
        assert_non_null(k.params);
        assert_int_equal(k.key.conv.synth, GROTH16_SYNTH_GIVEN);
        assert_int_equal(k.key.curve, R1CS_CURVE_BLS12_381);
        assert_int_equal(k.key.domain_size, p.n_h + 1);
        assert_int_equal(key_file_work_bytes(&k), 4ull * 32 * (p.n_h + 1));
        if (f)
            assert_int_equal(key_file_host_bytes(&k), file_size(cache));
        else
            assert_int_equal(key_file_host_bytes(&k),
                             (uint64_t)(p.n_h + p.n_l + p.n_a + p.n_b + p.vk.n_ic) *
                                     sizeof(bls381_g1_affine_t) +
                                 (uint64_t)p.n_b * sizeof(bls381_g2_affine_t));
        groth16_proof_t proof;
        r1cs_witness_t pub = {0};
        groth16_asgn_t ga = asgn_groth16(&a);
        groth16_input_t in = {.curve = a.curve, .asgn = &ga};
        assert_int_equal(
            groth16_prove_key(&proof, &pub, &k.key, &in, NULL, NULL, NULL, err, sizeof err),
            CUZK_OK);
        char *json, *public_json;
        unsigned char *bytes;
        size_t len;
        assert_int_equal(key_file_encode_proof(&k, &proof, &pub, &json, &bytes, &len, &public_json),
                         CUZK_OK);
        assert_null(json);
        assert_int_equal(len, BP_PROOF_BYTES);
        bp_proof_t back;
        assert_int_equal(bp_proof_decode(&back, bytes, "proof", 0, err, sizeof err), CUZK_OK);
        assert_memory_equal(&back.a, &proof.u.bls381.a, sizeof back.a);
        free(bytes);
        free(public_json);
        r1cs_witness_free(&pub);
        key_file_free(&k);
    }

    /* adopted: moved in; without its query arrays it has no points */
    key_file_t k;
    bp_params_t q;
    assert_int_equal(bp_params_read(&q, path, NULL, 0, err, sizeof err), CUZK_OK);
    key_file_adopt_params(&k, &q);
    assert_null(q.a);
    assert_true(key_file_has_points(&k));
    key_file_free(&k);
    assert_int_equal(bp_params_read(&q, path, NULL, 0, err, sizeof err), CUZK_OK);
    free(q.mem);
    q.mem = NULL;
    q.a = q.b_g1 = q.l = q.h = NULL;
    q.b_g2 = NULL;
    key_file_adopt_params(&k, &q);
    assert_false(key_file_has_points(&k));
    assert_int_equal(key_file_host_bytes(&k), (uint64_t)p.vk.n_ic * sizeof(bls381_g1_affine_t));
    key_file_free(&k);

    free(mem);
    bp_params_free(&p);
    r1cs_witness_free(&w);
    r1cs_free(&r);
    unlink(path);
    unlink(cache);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_zkey),
    cmocka_unit_test(test_params),
};

int main(void)
{
    test_seed_init("test_key_file");
    snprintf(dir, sizeof dir, "/tmp/cuzk_test_key_file_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return rc;
}
