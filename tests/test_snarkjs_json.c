/*
 * Tests of the snarkjs JSON files (src/io/snarkjs_json.h).
 *
 *  - A tiny proof and public.json, written by hand in snarkjs' layout
 *    (bfj, one-space indentation, no final newline), must be reproduced
 *    byte for byte by the formatters and read back.
 *  - Random verification keys, proofs and public signals of both curves go
 *    formatter → reader → formatter and must come back identical.
 *  - Each check of the readers has an input that trips it, with the right
 *    status and a message naming the file and the JSON path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"

#include "io/io_error.h"
#include "io/snarkjs_json.h"

#define G2X0   "10857046999023057135944570762232829481370756359578518086990519993285655852781"
#define G2X1   "11559732032986387107991004021392285783925812861821192530917403151452391805634"
#define G2Y0   "8495653923123431417604973247489272438418190587263600148770280649306958101930"
#define G2Y1   "4082367875863433681332203403145435568316851327593401208105741076214120093531"
#define BN_R   "21888242871839275222246405745257275088548364400416034343698204186575808495617"
#define BN_RM1 "21888242871839275222246405745257275088548364400416034343698204186575808495616"
#define BN_Q   "21888242871839275222246405745257275088696311157297823662689037894645226208583"

/* A BN254 proof: pi_a = G1 generator, pi_b = G2 generator, pi_c = infinity. */
static const char tiny_proof[] = "{\n"
                                 " \"pi_a\": [\n"
                                 "  \"1\",\n"
                                 "  \"2\",\n"
                                 "  \"1\"\n"
                                 " ],\n"
                                 " \"pi_b\": [\n"
                                 "  [\n"
                                 "   \"" G2X0 "\",\n"
                                 "   \"" G2X1 "\"\n"
                                 "  ],\n"
                                 "  [\n"
                                 "   \"" G2Y0 "\",\n"
                                 "   \"" G2Y1 "\"\n"
                                 "  ],\n"
                                 "  [\n"
                                 "   \"1\",\n"
                                 "   \"0\"\n"
                                 "  ]\n"
                                 " ],\n"
                                 " \"pi_c\": [\n"
                                 "  \"0\",\n"
                                 "  \"1\",\n"
                                 "  \"0\"\n"
                                 " ],\n"
                                 " \"protocol\": \"groth16\",\n"
                                 " \"curve\": \"bn128\"\n"
                                 "}";

static const char tiny_public[] = "[\n"
                                  " \"6\",\n"
                                  " \"0\",\n"
                                  " \"" BN_RM1 "\"\n"
                                  "]";

#define NAME "x.json"

static void assert_mentions(const char *msg, const char *const *subs)
{
    for (; *subs; subs++)
        if (!strstr(msg, *subs))
            fail_msg("message \"%s\" does not mention \"%s\"", msg, *subs);
}

/* text with the first occurrence of from replaced by to (malloc'd). */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at) {
        fail_msg("\"%s\" not in the text", from);
        abort(); /* not reached: fail_msg does not return */
    }
    size_t n = strlen(text) - strlen(from) + strlen(to);
    char *s = malloc(n + 1);
    assert_non_null(s);
    size_t head = (size_t)(at - text);
    memcpy(s, text, head);
    strcpy(s + head, to);
    strcat(s, at + strlen(from));
    return s;
}

static void expect_proof_(const char *text, r1cs_curve_t expect, cuzk_status_t status,
                          const char *const *subs)
{
    char err[IO_ERR_MAX] = "";
    snarkjs_proof_t p;
    cuzk_status_t st = snarkjs_proof_parse(&p, text, strlen(text), NAME, expect, err, sizeof(err));
    if (st != status)
        fail_msg("status %d, expected %d; message: %s", st, status, err);
    assert_int_equal(p.curve, R1CS_CURVE_NONE);
    assert_non_null(strstr(err, NAME ": "));
    assert_mentions(err, subs);
}

#define expect_proof(text, status, ...)                                                            \
    expect_proof_(text, R1CS_CURVE_NONE, status, (const char *const[]){__VA_ARGS__, NULL})

static void expect_vk_(const char *text, cuzk_status_t status, const char *const *subs)
{
    char err[IO_ERR_MAX] = "";
    snarkjs_vk_t vk;
    cuzk_status_t st =
        snarkjs_vk_parse(&vk, text, strlen(text), NAME, R1CS_CURVE_NONE, err, sizeof(err));
    if (st != status)
        fail_msg("status %d, expected %d; message: %s", st, status, err);
    assert_int_equal(vk.curve, R1CS_CURVE_NONE);
    assert_mentions(err, subs);
}

#define expect_vk(text, status, ...)                                                               \
    expect_vk_(text, status, (const char *const[]){__VA_ARGS__, NULL})

static void expect_public_(const char *text, int64_t n, cuzk_status_t status,
                           const char *const *subs)
{
    char err[IO_ERR_MAX] = "";
    r1cs_witness_t w;
    cuzk_status_t st =
        snarkjs_public_parse(&w, text, strlen(text), NAME, R1CS_CURVE_BN254, n, err, sizeof(err));
    if (st != status)
        fail_msg("status %d, expected %d; message: %s", st, status, err);
    assert_int_equal(w.curve, R1CS_CURVE_NONE);
    assert_mentions(err, subs);
}

#define expect_public(text, n, status, ...)                                                        \
    expect_public_(text, n, status, (const char *const[]){__VA_ARGS__, NULL})

/* ---- byte-exact output --------------------------------------------------- */

static void test_tiny_proof_exact(void **state)
{
    (void)state;
    snarkjs_proof_t p;
    memset(&p, 0, sizeof(p));
    p.curve = R1CS_CURVE_BN254;
    bn254_g1_generator(&p.u.bn254.a);
    bn254_g2_generator(&p.u.bn254.b);
    bn254_g1_affine_set_infinity(&p.u.bn254.c);
    char *text;
    size_t len;
    assert_int_equal(snarkjs_proof_format(&text, &len, &p), CUZK_OK);
    assert_int_equal(len, strlen(text));
    assert_string_equal(text, tiny_proof);
    free(text);

    snarkjs_proof_t q;
    char err[IO_ERR_MAX] = "";
    assert_int_equal(snarkjs_proof_parse(&q, tiny_proof, strlen(tiny_proof), NAME, R1CS_CURVE_BN254,
                                         err, sizeof(err)),
                     CUZK_OK);
    assert_int_equal(q.curve, R1CS_CURVE_BN254);
    assert_true(bn254_g1_affine_equal(&q.u.bn254.a, &p.u.bn254.a));
    assert_true(bn254_g2_affine_equal(&q.u.bn254.b, &p.u.bn254.b));
    assert_true(bn254_g1_affine_is_infinity(&q.u.bn254.c));

    /* Through a file too. */
    char path[64];
    snprintf(path, sizeof(path), "/tmp/cuzk_test_proof_%ld.json", (long)getpid());
    assert_int_equal(snarkjs_proof_write(path, &p, err, sizeof(err)), CUZK_OK);
    assert_int_equal(snarkjs_proof_read(&q, path, R1CS_CURVE_NONE, err, sizeof(err)), CUZK_OK);
    assert_true(bn254_g2_affine_equal(&q.u.bn254.b, &p.u.bn254.b));
    unlink(path);
    assert_int_equal(snarkjs_proof_read(&q, path, R1CS_CURVE_NONE, err, sizeof(err)), CUZK_ENOFILE);
}

static void test_tiny_public_exact(void **state)
{
    (void)state;
    r1cs_witness_t w;
    assert_int_equal(r1cs_witness_alloc(&w, R1CS_CURVE_BN254, 3), CUZK_OK);
    bn254_fr_from_u64(&w.v.bn254[0], 6);
    bn254_fr_set_zero(&w.v.bn254[1]);
    bn254_fr_set_one(&w.v.bn254[2]);
    bn254_fr_neg(&w.v.bn254[2], &w.v.bn254[2]);
    char *text;
    size_t len;
    assert_int_equal(snarkjs_public_format(&text, &len, &w), CUZK_OK);
    assert_string_equal(text, tiny_public);
    free(text);

    r1cs_witness_t v;
    char err[IO_ERR_MAX] = "";
    assert_int_equal(snarkjs_public_parse(&v, tiny_public, strlen(tiny_public), NAME,
                                          R1CS_CURVE_BN254, 3, err, sizeof(err)),
                     CUZK_OK);
    assert_int_equal(v.n, 3);
    for (int i = 0; i < 3; i++)
        assert_true(bn254_fr_equal(&v.v.bn254[i], &w.v.bn254[i]));
    r1cs_witness_free(&v);
    r1cs_witness_free(&w);

    /* No public signals: bfj writes "[", a newline, "]". */
    r1cs_witness_t e = {R1CS_CURVE_BLS12_381, 0, {NULL}};
    assert_int_equal(snarkjs_public_format(&text, &len, &e), CUZK_OK);
    assert_string_equal(text, "[\n]");
    free(text);
    assert_int_equal(
        snarkjs_public_parse(&v, "[\n]", 3, NAME, R1CS_CURVE_BLS12_381, 0, err, sizeof(err)),
        CUZK_OK);
    assert_int_equal(v.n, 0);
    r1cs_witness_free(&v);
}

/* ---- random round trips -------------------------------------------------- */

#define TEST_RAND_POINT(G, FR)                                                                     \
    static void rand_##G(G##_affine_t *r)                                                          \
    {                                                                                              \
        FR##_t s;                                                                                  \
        uint64_t k[EC_SCALAR_LIMBS];                                                               \
        G##_affine_t gen;                                                                          \
        G##_jac_t g, p;                                                                            \
        assert_int_equal(FR##_random(&s, &test_rng), CUZK_OK);                                     \
        FR##_to_canonical(k, &s);                                                                  \
        G##_generator(&gen);                                                                       \
        G##_jac_from_affine(&g, &gen);                                                             \
        G##_jac_mul_vartime(&p, &g, k);                                                            \
        G##_jac_to_affine(r, &p);                                                                  \
    }

TEST_RAND_POINT(bn254_g1, bn254_fr)
TEST_RAND_POINT(bn254_g2, bn254_fr)
TEST_RAND_POINT(bls381_g1, bls381_fr)
TEST_RAND_POINT(bls381_g2, bls381_fr)

/* A random vk with a random (not e(alpha, beta)) Fp12 value. */
static void rand_vk(snarkjs_vk_t *vk, r1cs_curve_t curve, uint32_t n_public)
{
    assert_int_equal(snarkjs_vk_alloc(vk, curve, n_public), CUZK_OK);
    vk->has_alphabeta = true;
    if (curve == R1CS_CURVE_BN254) {
        snarkjs_vk_bn254_t *v = &vk->u.bn254;
        rand_bn254_g1(&v->alpha1);
        rand_bn254_g2(&v->beta2);
        bn254_g2_generator(&v->gamma2);
        rand_bn254_g2(&v->delta2);
        assert_int_equal(bn254_fp12_random(&v->alphabeta, &test_rng), CUZK_OK);
        for (uint32_t i = 0; i <= n_public; i++)
            rand_bn254_g1(&v->ic[i]);
    } else {
        snarkjs_vk_bls381_t *v = &vk->u.bls381;
        rand_bls381_g1(&v->alpha1);
        rand_bls381_g2(&v->beta2);
        bls381_g2_generator(&v->gamma2);
        rand_bls381_g2(&v->delta2);
        assert_int_equal(bls381_fp12_random(&v->alphabeta, &test_rng), CUZK_OK);
        for (uint32_t i = 0; i <= n_public; i++)
            rand_bls381_g1(&v->ic[i]);
    }
}

static void test_round_trips(void **state)
{
    (void)state;
    static const r1cs_curve_t curves[] = {R1CS_CURVE_BN254, R1CS_CURVE_BLS12_381};
    char err[IO_ERR_MAX] = "";
    for (int it = 0; it < test_iters(3); it++) {
        for (int ci = 0; ci < 2; ci++) {
            r1cs_curve_t curve = curves[ci];
            snarkjs_vk_t vk, back;
            rand_vk(&vk, curve, (uint32_t)(rng_next(&test_rng) % 4));
            char *t1, *t2;
            size_t n1, n2;
            assert_int_equal(snarkjs_vk_format(&t1, &n1, &vk), CUZK_OK);
            if (snarkjs_vk_parse(&back, t1, n1, NAME, curve, err, sizeof(err)) != CUZK_OK)
                fail_msg("%s", err);
            assert_true(back.has_alphabeta);
            assert_int_equal(back.n_public, vk.n_public);
            assert_int_equal(snarkjs_vk_format(&t2, &n2, &back), CUZK_OK);
            assert_string_equal(t1, t2);
            assert_non_null(strstr(t1, "{\n \"protocol\": \"groth16\",\n \"curve\": \""));
            assert_non_null(strstr(t1, "\",\n \"nPublic\": "));
            assert_non_null(strstr(t1, "\n \"vk_alphabeta_12\": [\n  [\n   [\n    \""));
            assert_int_equal(t1[n1 - 1], '}');
            free(t1);
            free(t2);
            snarkjs_vk_free(&back);
            snarkjs_vk_free(&vk);

            snarkjs_proof_t p, q;
            memset(&p, 0, sizeof(p));
            p.curve = curve;
            if (curve == R1CS_CURVE_BN254) {
                rand_bn254_g1(&p.u.bn254.a);
                rand_bn254_g2(&p.u.bn254.b);
                rand_bn254_g1(&p.u.bn254.c);
            } else {
                rand_bls381_g1(&p.u.bls381.a);
                rand_bls381_g2(&p.u.bls381.b);
                rand_bls381_g1(&p.u.bls381.c);
            }
            assert_int_equal(snarkjs_proof_format(&t1, &n1, &p), CUZK_OK);
            assert_int_equal(snarkjs_proof_parse(&q, t1, n1, NAME, curve, err, sizeof(err)),
                             CUZK_OK);
            assert_int_equal(snarkjs_proof_format(&t2, &n2, &q), CUZK_OK);
            assert_string_equal(t1, t2);
            free(t1);
            free(t2);
        }
    }
}

static void test_vk_file(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "", path[64];
    snprintf(path, sizeof(path), "/tmp/cuzk_test_vk_%ld.json", (long)getpid());
    snarkjs_vk_t vk, back;
    rand_vk(&vk, R1CS_CURVE_BLS12_381, 2);
    assert_int_equal(snarkjs_vk_write(path, &vk, err, sizeof(err)), CUZK_OK);
    assert_int_equal(snarkjs_vk_read(&back, path, R1CS_CURVE_BLS12_381, err, sizeof(err)), CUZK_OK);
    assert_true(bls381_g1_affine_equal(&back.u.bls381.ic[2], &vk.u.bls381.ic[2]));
    assert_true(bls381_fp12_equal(&back.u.bls381.alphabeta, &vk.u.bls381.alphabeta));
    snarkjs_vk_free(&back);
    assert_int_equal(snarkjs_vk_read(&back, path, R1CS_CURVE_BN254, err, sizeof(err)),
                     CUZK_EBADFILE);
    assert_non_null(strstr(err, "curve: \"bls12381\" (BLS12-381), expected bn128"));
    unlink(path);
    /* Without vk_alphabeta_12 there is nothing to write. */
    vk.has_alphabeta = false;
    assert_int_equal(snarkjs_vk_write(path, &vk, err, sizeof(err)), CUZK_EINVAL);
    assert_int_equal(access(path, F_OK), -1);
    snarkjs_vk_free(&vk);
}

/* ---- rejections ---------------------------------------------------------- */

static void test_proof_rejections(void **state)
{
    (void)state;
    char *s;
    expect_proof("{\"pi_a\": [", CUZK_EBADFILE, "not JSON", "line 1");
    expect_proof("[]", CUZK_EBADFILE, "expected a JSON object");
    s = replace(tiny_proof, "\"groth16\"", "\"plonk\"");
    expect_proof(s, CUZK_EUNSUPPORTED, "protocol", "plonk");
    free(s);
    s = replace(tiny_proof, "\"bn128\"", "\"secp256k1\"");
    expect_proof(s, CUZK_EUNSUPPORTED, "curve", "secp256k1");
    free(s);
    /* snarkjs' aliases are accepted; an unexpected curve is not. */
    s = replace(tiny_proof, "\"bn128\"", "\"BN-254\"");
    expect_proof_(s, R1CS_CURVE_BLS12_381, CUZK_EBADFILE,
                  (const char *const[]){"curve", "expected bls12381", NULL});
    free(s);
    s = replace(tiny_proof, " \"pi_c\"", " \"pi_x\"");
    expect_proof(s, CUZK_EBADFILE, NAME ": pi_c: missing");
    free(s);
    s = replace(tiny_proof, "\"" G2Y0 "\"", "\"12a\"");
    expect_proof(s, CUZK_EBADFILE, NAME ": pi_b[1][0]: not a decimal string");
    free(s);
    s = replace(tiny_proof, "\"" G2Y0 "\"", "17");
    expect_proof(s, CUZK_EBADFILE, "pi_b[1][0]: not a decimal string");
    free(s);
    s = replace(tiny_proof, "\"2\"", "\"" BN_Q "\"");
    expect_proof(s, CUZK_ENONCANONICAL, "pi_a[1]: not below q of BN254");
    free(s);
    s = replace(tiny_proof, "\"2\"", "\"3\"");
    expect_proof(s, CUZK_ENOTONCURVE, "pi_a: not on the curve");
    free(s);
    s = replace(tiny_proof, "\"2\",\n  \"1\"", "\"2\",\n  \"2\"");
    expect_proof(s, CUZK_EBADFILE, "pi_a: z must be 1");
    free(s);
    s = replace(tiny_proof, "\"2\",\n  \"1\"\n", "\"2\"\n");
    expect_proof(s, CUZK_EBADFILE, "pi_a: expected an array of 3 decimal strings");
    free(s);
    s = replace(tiny_proof, "   \"1\",\n   \"0\"\n", "   \"1\"\n");
    expect_proof(s, CUZK_EBADFILE, "pi_b[2]: expected an array of 2 decimal strings");
    free(s);

    /* A G2 point on the curve, outside the subgroup: snarkjs would take it. */
    snarkjs_proof_t p;
    memset(&p, 0, sizeof(p));
    p.curve = R1CS_CURVE_BN254;
    bn254_g1_generator(&p.u.bn254.a);
    bn254_g1_generator(&p.u.bn254.c);
    for (;;) {
        bn254_fp2_t x;
        assert_int_equal(bn254_fp2_random(&x, &test_rng), CUZK_OK);
        if (bn254_g2_affine_from_x_vartime(&p.u.bn254.b, &x, false) &&
            !bn254_g2_affine_is_in_subgroup_vartime(&p.u.bn254.b))
            break;
    }
    size_t len;
    assert_int_equal(snarkjs_proof_format(&s, &len, &p), CUZK_OK);
    expect_proof(s, CUZK_ENOTINSUBGROUP, "pi_b: not in the order-r subgroup");
    free(s);
}

static void test_vk_rejections(void **state)
{
    (void)state;
    snarkjs_vk_t vk;
    rand_vk(&vk, R1CS_CURVE_BN254, 1);
    bn254_g1_generator(&vk.u.bn254.ic[1]);
    char *text, *s;
    size_t len;
    assert_int_equal(snarkjs_vk_format(&text, &len, &vk), CUZK_OK);
    snarkjs_vk_free(&vk);

    s = replace(text, "\"nPublic\": 1", "\"nPublic\": 2");
    expect_vk(s, CUZK_EBADFILE, "IC: expected an array of nPublic + 1 = 3 points, found 2");
    free(s);
    s = replace(text, "\"nPublic\": 1", "\"nPublic\": \"1\"");
    expect_vk(s, CUZK_EBADFILE, "nPublic: expected an integer");
    free(s);
    s = replace(text, "\"nPublic\": 1", "\"nPublic\": -1");
    expect_vk(s, CUZK_EBADFILE, "nPublic");
    free(s);
    s = replace(text, "\"groth16\"", "\"fflonk\"");
    expect_vk(s, CUZK_EUNSUPPORTED, "protocol");
    free(s);
    s = replace(text, "   \"1\",\n   \"2\",\n   \"1\"", "   \"1\",\n   \"3\",\n   \"1\"");
    expect_vk(s, CUZK_ENOTONCURVE, NAME ": IC[1]: not on the curve");
    free(s);
    s = replace(text, "   \"1\",\n   \"2\",\n   \"1\"", "   \"1\",\n   \"" BN_Q "\",\n   \"1\"");
    expect_vk(s, CUZK_ENONCANONICAL, "IC[1][1]: not below q");
    free(s);
    s = replace(text, "\"vk_alphabeta_12\": [\n  [\n   [\n    \"",
                "\"vk_alphabeta_12\": [\n  [\n   [\n    \"x");
    expect_vk(s, CUZK_EBADFILE, "vk_alphabeta_12[0][0][0]: not a decimal string");
    free(s);
    s = replace(text, "\"vk_gamma_2\"", "\"vk_gamma_3\"");
    expect_vk(s, CUZK_EBADFILE, "vk_gamma_2: missing");
    free(s);
    /* vk_alphabeta_12 is optional on read. */
    s = replace(text, "\"vk_alphabeta_12\"", "\"unused\"");
    snarkjs_vk_t back;
    char err[IO_ERR_MAX] = "";
    assert_int_equal(
        snarkjs_vk_parse(&back, s, strlen(s), NAME, R1CS_CURVE_BN254, err, sizeof(err)), CUZK_OK);
    assert_false(back.has_alphabeta);
    snarkjs_vk_free(&back);
    free(s);
    free(text);
}

static void test_public_rejections(void **state)
{
    (void)state;
    expect_public(tiny_public, 2, CUZK_EBADFILE, NAME ": 3 public signals, expected 2");
    expect_public("{}", SNARKJS_ANY_COUNT, CUZK_EBADFILE, "expected a JSON array");
    expect_public("[\"1\", \"" BN_R "\"]", SNARKJS_ANY_COUNT, CUZK_ENONCANONICAL,
                  NAME ": [1]: not below r of BN254");
    expect_public("[\"1\", 2]", SNARKJS_ANY_COUNT, CUZK_EBADFILE, "[1]: not a decimal string");
    expect_public("[\"-1\"]", 1, CUZK_EBADFILE, "[0]: not a decimal string");
    expect_public("", 1, CUZK_EBADFILE, "not JSON");
    r1cs_witness_t w;
    char err[IO_ERR_MAX] = "";
    assert_int_equal(snarkjs_public_parse(&w, "[]", 2, NAME, R1CS_CURVE_NONE, 0, err, sizeof(err)),
                     CUZK_EINVAL);
}

static void test_curve_names(void **state)
{
    (void)state;
    assert_string_equal(snarkjs_curve_name(R1CS_CURVE_BN254), "bn128");
    assert_string_equal(snarkjs_curve_name(R1CS_CURVE_BLS12_381), "bls12381");
    assert_null(snarkjs_curve_name(R1CS_CURVE_NONE));
    assert_int_equal(snarkjs_curve_from_name("bn128"), R1CS_CURVE_BN254);
    assert_int_equal(snarkjs_curve_from_name("alt_bn128"), R1CS_CURVE_BN254);
    assert_int_equal(snarkjs_curve_from_name("BN254"), R1CS_CURVE_BN254);
    assert_int_equal(snarkjs_curve_from_name("BLS12-381"), R1CS_CURVE_BLS12_381);
    assert_int_equal(snarkjs_curve_from_name("bls12377"), R1CS_CURVE_NONE);
    assert_int_equal(snarkjs_curve_from_name("bn128bn128bn128bn128"), R1CS_CURVE_NONE);
}

int main(void)
{
    test_seed_init("test_snarkjs_json");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny_proof_exact),  cmocka_unit_test(test_tiny_public_exact),
        cmocka_unit_test(test_round_trips),       cmocka_unit_test(test_vk_file),
        cmocka_unit_test(test_proof_rejections),  cmocka_unit_test(test_vk_rejections),
        cmocka_unit_test(test_public_rejections), cmocka_unit_test(test_curve_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
