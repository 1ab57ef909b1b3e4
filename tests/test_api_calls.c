/*
 * The public API (include/cuzk.h) through libcuzk.so, as a program sees it:
 * every call's error paths (bad paths named, wrong curves, witnesses of the
 * wrong size, truncated .wtns, NULL arguments, cuzk_last_error per thread,
 * decoders refusing bad input) and the paths that work (prove, encode,
 * decode, verify, a flipped byte or input that must not verify, the
 * bellperson assignment path, the engine). Fixtures come from the cuzk
 * command line (CUZK_TEST_CLI) into a scratch directory, with fixed seeds.
 */
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk.h"

static char dir[256];

static const char *fx(const char *name)
{
    static char paths[8][512];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

static void run(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    /* clang-tidy 14 reports ap as uninitialised once it has analysed another
     * file with va_start in the same run (a checker-state bug); it is not. */
    // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (system(cmd) != 0)
        fail_msg("fixture command failed: %s", cmd);
}

/* The whole file at path (malloc'd). */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    unsigned char *b = malloc(*len + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *len, f), *len);
    b[*len] = 0;
    fclose(f);
    return b;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cuzk_test_api_%ld", (long)getpid());
    run("mkdir -p %s", dir);
    const char *q = ">/dev/null 2>&1";
    run("%s gen --curve bn128 --constraints 100 --public 2 --seed 3 %s %s %s", CUZK_TEST_CLI,
        fx("bn.r1cs"), fx("bn.wtns"), q);
    run("%s setup --curve bn128 --seed 4 %s %s --vk %s %s", CUZK_TEST_CLI, fx("bn.r1cs"),
        fx("bn.zkey"), fx("bn_vk.json"), q);
    run("%s gen --curve bls12381 --constraints 100 --public 2 --seed 5 %s %s %s", CUZK_TEST_CLI,
        fx("bls.r1cs"), fx("bls.wtns"), q);
    run("%s setup --seed 6 %s %s --vk %s %s", CUZK_TEST_CLI, fx("bls.r1cs"), fx("bls.params"),
        fx("bls.vk"), q);
    run("%s assign %s %s %s %s", CUZK_TEST_CLI, fx("bls.r1cs"), fx("bls.wtns"), fx("bls.asgn"), q);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    run("rm -rf %s", dir);
    return 0;
}

static cuzk_key_t *load(const char *name)
{
    cuzk_key_t *k = NULL;
    cuzk_status_t s = cuzk_key_load(&k, fx(name), CUZK_KEY_AUTO, 0);
    if (s != CUZK_OK)
        fail_msg("%s: %s", name, cuzk_last_error());
    return k;
}

static void test_key_errors(void **state)
{
    (void)state;
    cuzk_key_t *k = (cuzk_key_t *)1;
    assert_int_equal(cuzk_key_load(&k, "/nonexistent/dir/k.zkey", CUZK_KEY_AUTO, 0), CUZK_ENOFILE);
    assert_null(k);
    assert_non_null(strstr(cuzk_last_error(), "/nonexistent/dir/k.zkey"));
    assert_int_equal(cuzk_key_load(NULL, fx("bn.zkey"), CUZK_KEY_AUTO, 0), CUZK_EINVAL);
    assert_string_equal(cuzk_last_error(), "key is NULL");
    assert_int_equal(cuzk_key_load(&k, NULL, CUZK_KEY_AUTO, 0), CUZK_EINVAL);
    assert_string_equal(cuzk_last_error(), "path is NULL");
    assert_int_equal(cuzk_key_load(&k, fx("bn.zkey"), CUZK_KEY_AUTO, 0x80), CUZK_EINVAL);
    /* A witness is no key: named, with what it is. */
    assert_int_equal(cuzk_key_load(&k, fx("bn.wtns"), CUZK_KEY_AUTO, 0), CUZK_EBADFILE);
    assert_non_null(strstr(cuzk_last_error(), fx("bn.wtns")));
    /* A zkey read as params: the reader's refusal. */
    assert_int_not_equal(cuzk_key_load(&k, fx("bn.zkey"), CUZK_KEY_PARAMS, 0), CUZK_OK);
    assert_non_null(strstr(cuzk_last_error(), fx("bn.zkey")));

    /* From memory, truncated: named as the caller said. */
    size_t len;
    unsigned char *b = slurp(fx("bn.zkey"), &len);
    assert_int_equal(cuzk_key_from_memory(&k, b, len / 2, CUZK_KEY_ZKEY, 0, "mem.zkey"),
                     CUZK_EBADFILE);
    assert_non_null(strstr(cuzk_last_error(), "mem.zkey"));
    assert_int_equal(cuzk_key_from_memory(&k, b, len, CUZK_KEY_AUTO, CUZK_KEY_TRUSTED, NULL),
                     CUZK_OK);
    assert_int_equal(cuzk_key_curve(k), CUZK_CURVE_BN254);
    assert_int_equal(cuzk_key_convention(k), CUZK_CONVENTION_SNARKJS);
    assert_int_equal(cuzk_key_public_inputs(k), 2);
    assert_int_equal(cuzk_key_wires(k), 101);
    assert_true(cuzk_key_domain_size(k) >= 128);
    cuzk_key_free(k);
    free(b);

    k = load("bls.params");
    assert_int_equal(cuzk_key_curve(k), CUZK_CURVE_BLS12_381);
    assert_int_equal(cuzk_key_convention(k), CUZK_CONVENTION_BELLPERSON);
    assert_int_equal(cuzk_key_public_inputs(k), 2);
    cuzk_key_free(k);
}

static void test_prove_errors(void **state)
{
    (void)state;
    cuzk_key_t *k = load("bn.zkey");
    size_t len;
    unsigned char *w = slurp(fx("bn.wtns"), &len);
    cuzk_proof_t p;
    cuzk_scalar_t pub[2];
    assert_int_equal(cuzk_prove_wtns(&p, pub, k, w, len - 7, NULL), CUZK_EBADFILE);
    assert_non_null(strstr(cuzk_last_error(), "the witness"));
    assert_int_equal(cuzk_prove_wtns(&p, pub, NULL, w, len, NULL), CUZK_EINVAL);
    assert_string_equal(cuzk_last_error(), "key is NULL");
    assert_int_equal(cuzk_prove_wtns(&p, pub, k, NULL, len, NULL), CUZK_EINVAL);
    cuzk_prove_options_t bad = {.size = 1};
    assert_int_equal(cuzk_prove_wtns(&p, pub, k, w, len, &bad), CUZK_EINVAL);
    assert_non_null(strstr(cuzk_last_error(), "opts->size"));

    /* A witness vector: wrong curve, wrong size, w[0] != 1, a value >= r. */
    cuzk_scalar_t *v = calloc(101, sizeof *v);
    v[0].limb[0] = 1;
    assert_int_equal(
        cuzk_prove_witness(&p, pub, k, CUZK_CURVE_BLS12_381, v, 101, CUZK_FORM_CANONICAL, NULL),
        CUZK_EINVAL);
    assert_non_null(strstr(cuzk_last_error(), "BLS12-381"));
    assert_non_null(strstr(cuzk_last_error(), "BN254"));
    assert_int_equal(
        cuzk_prove_witness(&p, pub, k, CUZK_CURVE_BN254, v, 100, CUZK_FORM_CANONICAL, NULL),
        CUZK_EINVAL);
    assert_non_null(strstr(cuzk_last_error(), "100 values"));
    v[0].limb[0] = 2;
    assert_int_equal(
        cuzk_prove_witness(&p, pub, k, CUZK_CURVE_BN254, v, 101, CUZK_FORM_CANONICAL, NULL),
        CUZK_EWITNESS);
    v[0].limb[0] = 1;
    memset(v[7].limb, 0xff, sizeof v[7].limb);
    assert_int_equal(
        cuzk_prove_witness(&p, pub, k, CUZK_CURVE_BN254, v, 101, CUZK_FORM_CANONICAL, NULL),
        CUZK_ENONCANONICAL);
    assert_non_null(strstr(cuzk_last_error(), "w[7]"));
    /* The same in Montgomery form (one is R mod r; the array is used in
     * place, checked on the proof's pool). */
    cuzk_scalar_t one = v[0];
    const cuzk_scalar_t r_mod_r = {{0xac96341c4ffffffbull, 0x36fc76959f60cd29ull,
                                    0x666ea36f7879462eull, 0xe0a77c19a07df2full}};
    v[0] = r_mod_r;
    assert_int_equal(
        cuzk_prove_witness(&p, pub, k, CUZK_CURVE_BN254, v, 101, CUZK_FORM_MONTGOMERY, NULL),
        CUZK_ENONCANONICAL);
    assert_non_null(strstr(cuzk_last_error(), "w[7] is not below"));
    v[0] = one;
    /* Values that do not satisfy the circuit: the self-verification. */
    memset(v[7].limb, 0, sizeof v[7].limb);
    v[7].limb[0] = 12345;
    assert_int_equal(
        cuzk_prove_witness(&p, pub, k, CUZK_CURVE_BN254, v, 101, CUZK_FORM_CANONICAL, NULL),
        CUZK_EWITNESS);
    /* A snarkjs key proves no assignment. */
    cuzk_assignment_t a = {.curve = CUZK_CURVE_BLS12_381};
    assert_int_equal(cuzk_prove_assignment(&p, pub, k, &a, NULL), CUZK_EINVAL);
    assert_non_null(strstr(cuzk_last_error(), "snarkjs key"));
    free(v);
    free(w);
    cuzk_key_free(k);
}

/* Proves bn.wtns, checks the proof through every encoding, and that it no
 * longer verifies with a flipped byte or a changed public input. */
/* CUZK_KEY_MAP: the key reads its file during every proof, so a file
 * rewritten in place or truncated after the load fails the proof naming
 * the file; a copied key (the default) keeps proving. */
static void test_key_map(void **state)
{
    (void)state;
    size_t len;
    unsigned char *w = slurp(fx("bn.wtns"), &len);
    const char *map_path = fx("map.zkey"), *copy_path = fx("copy.zkey");
    run("cp %s %s && cp %s %s", fx("bn.zkey"), map_path, fx("bn.zkey"), copy_path);
    cuzk_key_t *mapped = NULL, *copied = NULL;
    assert_int_equal(cuzk_key_load(&mapped, map_path, CUZK_KEY_ZKEY, CUZK_KEY_MAP), CUZK_OK);
    assert_int_equal(cuzk_key_load(&copied, copy_path, CUZK_KEY_ZKEY, 0), CUZK_OK);
    cuzk_proof_t p;
    assert_int_equal(cuzk_prove_wtns(&p, NULL, mapped, w, len, NULL), CUZK_OK);

    /* Rewritten in place (its time changes), then put back as it was. */
    struct stat st;
    assert_int_equal(stat(map_path, &st), 0);
    struct timespec times[2] = {st.st_atim, {.tv_sec = st.st_mtim.tv_sec - 60}};
    assert_int_equal(utimensat(AT_FDCWD, map_path, times, 0), 0);
    assert_int_equal(cuzk_prove_wtns(&p, NULL, mapped, w, len, NULL), CUZK_EIO);
    assert_non_null(strstr(cuzk_last_error(), "map.zkey: the file changed while it was read"));
    times[1] = st.st_mtim;
    assert_int_equal(utimensat(AT_FDCWD, map_path, times, 0), 0);
    assert_int_equal(cuzk_prove_wtns(&p, NULL, mapped, w, len, NULL), CUZK_OK);

    /* Truncated: never a crash, never a proof from the lost bytes. */
    assert_int_equal(truncate(map_path, 4096), 0);
    assert_int_equal(truncate(copy_path, 4096), 0);
    assert_int_equal(cuzk_prove_wtns(&p, NULL, mapped, w, len, NULL), CUZK_EIO);
    assert_non_null(strstr(cuzk_last_error(), "map.zkey: the file changed"));
    cuzk_scalar_t pub[2];
    assert_int_equal(cuzk_prove_wtns(&p, pub, copied, w, len, NULL), CUZK_OK);
    cuzk_vk_t *vk = NULL;
    int valid = -1;
    assert_int_equal(cuzk_vk_load(&vk, fx("bn_vk.json")), CUZK_OK);
    assert_int_equal(cuzk_verify(&valid, vk, &p, pub, 2), CUZK_OK);
    assert_int_equal(valid, 1);
    cuzk_vk_free(vk);
    cuzk_key_free(mapped);
    cuzk_key_free(copied);
    free(w);
}

/* Several threads proving with one key at once, each on the process's
 * pool (the default options) or through one CPU prover of its own pool:
 * every proof verifies. */
typedef struct {
    const cuzk_key_t *key;
    const cuzk_vk_t *vk;
    const cuzk_prover_t *prover;
    const unsigned char *wtns;
    size_t len;
    int ok;
} prove_thread_t;

static void *prove_thread(void *arg)
{
    prove_thread_t *t = arg;
    cuzk_prove_options_t opts = {.size = sizeof opts, .prover = t->prover};
    for (int i = 0; i < 8; i++) {
        cuzk_proof_t p;
        cuzk_scalar_t pub[2];
        int valid = 0;
        if (cuzk_prove_wtns(&p, pub, t->key, t->wtns, t->len, &opts) == CUZK_OK &&
            cuzk_verify(&valid, t->vk, &p, pub, 2) == CUZK_OK && valid)
            t->ok++;
    }
    return NULL;
}

static void test_prove_threads(void **state)
{
    (void)state;
    cuzk_key_t *k = load("bn.zkey");
    cuzk_vk_t *vk = NULL;
    assert_int_equal(cuzk_vk_from_key(&vk, k), CUZK_OK);
    cuzk_prover_t *prover = NULL;
    assert_int_equal(cuzk_prover_new(&prover, k, CUZK_BACKEND_CPU, 2), CUZK_OK);
    size_t len;
    unsigned char *w = slurp(fx("bn.wtns"), &len);
    enum { THREADS = 4 };
    for (int with_prover = 0; with_prover < 2; with_prover++) {
        prove_thread_t t[THREADS];
        pthread_t id[THREADS];
        for (int i = 0; i < THREADS; i++) {
            t[i] = (prove_thread_t){k, vk, with_prover ? prover : NULL, w, len, 0};
            assert_int_equal(pthread_create(&id[i], NULL, prove_thread, &t[i]), 0);
        }
        for (int i = 0; i < THREADS; i++) {
            assert_int_equal(pthread_join(id[i], NULL), 0);
            assert_int_equal(t[i].ok, 8);
        }
    }
    free(w);
    cuzk_prover_free(prover);
    cuzk_vk_free(vk);
    cuzk_key_free(k);
}

static void test_prove_verify(void **state)
{
    (void)state;
    cuzk_key_t *k = load("bn.zkey");
    size_t len;
    unsigned char *w = slurp(fx("bn.wtns"), &len);
    cuzk_proof_t p, q;
    cuzk_scalar_t pub[2];
    cuzk_prove_options_t opts = {
        .size = sizeof opts, .flags = CUZK_PROVE_INSECURE_TEST_SEED, .test_seed = 9};
    assert_int_equal(cuzk_prove_wtns(&p, pub, k, w, len, &opts), CUZK_OK);
    assert_int_equal(cuzk_prove_wtns(&q, NULL, k, w, len, &opts), CUZK_OK);
    assert_memory_equal(&p, &q, sizeof p); /* the test seed reproduces r and s */
    assert_int_equal(cuzk_prove_wtns(&q, NULL, k, w, len, NULL), CUZK_OK);
    assert_memory_not_equal(p.a, q.a, sizeof p.a); /* getrandom: fresh r and s */

    cuzk_vk_t *vk = NULL, *vk2 = NULL;
    int valid = -1;
    assert_int_equal(cuzk_vk_from_key(&vk, k), CUZK_OK);
    cuzk_key_free(k); /* the vk is a copy */
    assert_int_equal(cuzk_verify(&valid, vk, &p, pub, 2), CUZK_OK);
    assert_int_equal(valid, 1);
    assert_int_equal(cuzk_vk_load(&vk2, fx("bn_vk.json")), CUZK_OK);
    assert_int_equal(cuzk_verify(&valid, vk2, &q, pub, 2), CUZK_OK);
    assert_int_equal(valid, 1);
    assert_int_equal(cuzk_verify(&valid, vk2, &q, pub, 1), CUZK_EINVAL);
    assert_non_null(strstr(cuzk_last_error(), "1 public inputs given"));
    cuzk_proof_t two[2] = {p, q};
    assert_int_equal(
        cuzk_verify_batch(&valid, vk2, two, 2, (cuzk_scalar_t[4]){pub[0], pub[1], pub[0], pub[1]}),
        CUZK_OK);
    assert_int_equal(valid, 1);

    /* A changed public input: a well-formed proof that fails. */
    cuzk_scalar_t pub_bad[2] = {pub[0], pub[1]};
    pub_bad[1].limb[0] ^= 1;
    assert_int_equal(cuzk_verify(&valid, vk, &p, pub_bad, 2), CUZK_OK);
    assert_int_equal(valid, 0);
    /* A flipped byte of C: not on the curve, or not the proof. */
    cuzk_proof_t bad = p;
    bad.c[CUZK_G1_BYTES - 1] ^= 1;
    valid = -1;
    cuzk_status_t s = cuzk_verify(&valid, vk, &bad, pub, 2);
    assert_true(s == CUZK_ENOTONCURVE || (s == CUZK_OK && valid == 0));
    if (s != CUZK_OK)
        assert_non_null(strstr(cuzk_last_error(), "C is not on the curve"));
    /* A proof of the other curve. */
    bad = p;
    bad.curve = CUZK_CURVE_BLS12_381;
    assert_int_equal(cuzk_verify(&valid, vk, &bad, pub, 2), CUZK_EINVAL);

    /* proof.json and public.json, and back. */
    char *pj = NULL, *uj = NULL;
    assert_int_equal(cuzk_proof_to_snarkjs_json(&pj, &p), CUZK_OK);
    assert_int_equal(cuzk_public_to_snarkjs_json(&uj, CUZK_CURVE_BN254, pub, 2), CUZK_OK);
    assert_non_null(strstr(pj, "\"protocol\": \"groth16\""));
    assert_int_equal(cuzk_proof_from_snarkjs_json(&q, pj, strlen(pj)), CUZK_OK);
    assert_memory_equal(&p, &q, sizeof p);
    cuzk_scalar_t *back = NULL;
    size_t n = 0;
    assert_int_equal(cuzk_public_from_snarkjs_json(&back, &n, CUZK_CURVE_BN254, uj, strlen(uj)),
                     CUZK_OK);
    assert_int_equal(n, 2);
    assert_memory_equal(back, pub, sizeof pub);
    char *dec = NULL;
    cuzk_scalar_t one;
    assert_int_equal(cuzk_scalar_to_decimal(&dec, CUZK_CURVE_BN254, &pub[0]), CUZK_OK);
    assert_int_equal(cuzk_scalar_from_decimal(&one, CUZK_CURVE_BN254, dec), CUZK_OK);
    assert_memory_equal(&one, &pub[0], sizeof one);
    assert_non_null(strstr(uj, dec));
    cuzk_free(dec);
    cuzk_free(back);
    cuzk_free(pj);
    cuzk_free(uj);
    cuzk_vk_free(vk);
    cuzk_vk_free(vk2);
    free(w);
}

/* A prover's calls: the stages in order, the counted ones to their total. */
typedef struct {
    char stages[8][24];
    int n_stages, calls;
    uint64_t msm_done, msm_total;
} progress_log_t;

static void progress_record(void *ctx, const char *stage, uint64_t done, uint64_t total,
                            const char *unit)
{
    progress_log_t *l = ctx;
    l->calls++;
    if ((l->n_stages == 0 || strcmp(l->stages[l->n_stages - 1], stage) != 0) && l->n_stages < 8)
        snprintf(l->stages[l->n_stages++], sizeof l->stages[0], "%s", stage);
    if (!strcmp(stage, "msm")) {
        assert_string_equal(unit, "points");
        l->msm_done = done;
        l->msm_total = total;
    }
}

/* Provers: the CPU with threads of its own, timings and progress; a
 * prover refused for another key and for bad arguments; the GPU (where
 * there is one) giving the same proof as the CPU for the same r and s,
 * and AUTO saying why it proves on the CPU where there is none. The
 * first version's options (without the prover's fields) still work. */
static void test_prover(void **state)
{
    (void)state;
    cuzk_key_t *k = load("bn.zkey"), *other = load("bls.params");
    size_t len;
    unsigned char *w = slurp(fx("bn.wtns"), &len);
    cuzk_prover_t *cpu = NULL, *bad = NULL;
    assert_int_equal(cuzk_prover_new(&cpu, k, CUZK_BACKEND_CPU, 2), CUZK_OK);
    assert_string_equal(cuzk_prover_backend(cpu), "cpu");
    assert_null(cuzk_prover_note(cpu));
    assert_int_equal(cuzk_prover_new(&bad, k, (cuzk_backend_t)7, 0), CUZK_EINVAL);
    assert_non_null(strstr(cuzk_last_error(), "backend 7"));
    assert_int_equal(cuzk_prover_new(&bad, NULL, CUZK_BACKEND_CPU, 0), CUZK_EINVAL);
    assert_int_equal(cuzk_prover_new(&bad, k, CUZK_BACKEND_CPU, 5000), CUZK_EINVAL);
    assert_null(bad);

    cuzk_proof_t plain, p, g;
    cuzk_scalar_t pub[2];
    cuzk_prove_options_t opts = {
        .size = sizeof opts, .flags = CUZK_PROVE_INSECURE_TEST_SEED, .test_seed = 11};
    assert_int_equal(cuzk_prove_wtns(&plain, pub, k, w, len, &opts), CUZK_OK);
    progress_log_t log = {0};
    cuzk_prove_timings_t t = {-1, -1, -1, -1, -1};
    opts.prover = cpu;
    opts.timings = &t;
    opts.progress = progress_record;
    opts.progress_ctx = &log;
    assert_int_equal(cuzk_prove_wtns(&p, pub, k, w, len, &opts), CUZK_OK);
    assert_memory_equal(&p, &plain, sizeof p); /* the same r and s, the same proof */
    assert_true(t.synth >= 0 && t.h > 0 && t.msm > 0 && t.finish >= 0 && t.verify > 0);
    assert_int_equal(log.n_stages, 4);
    assert_string_equal(log.stages[0], "synth");
    assert_string_equal(log.stages[1], "h");
    assert_string_equal(log.stages[2], "msm");
    assert_string_equal(log.stages[3], "verify");
    assert_true(log.msm_total > 0 && log.msm_done == log.msm_total);
    opts.flags |= CUZK_PROVE_NO_VERIFY;
    assert_int_equal(cuzk_prove_wtns(&p, pub, k, w, len, &opts), CUZK_OK);
    assert_true(t.verify == 0 && t.msm > 0);
    opts.flags &= ~(unsigned)CUZK_PROVE_NO_VERIFY;

    /* A prover of another key; the first version's options. */
    cuzk_prover_t *bls = NULL;
    assert_int_equal(cuzk_prover_new(&bls, other, CUZK_BACKEND_CPU, 0), CUZK_OK);
    opts.prover = bls;
    assert_int_equal(cuzk_prove_wtns(&p, pub, k, w, len, &opts), CUZK_EINVAL);
    assert_non_null(strstr(cuzk_last_error(), "another key"));
    cuzk_prover_free(bls);
    opts.prover = NULL;
    opts.size = offsetof(cuzk_prove_options_t, prover); /* the rest unknown: defaults */
    log = (progress_log_t){0};
    assert_int_equal(cuzk_prove_wtns(&p, pub, k, w, len, &opts), CUZK_OK);
    assert_memory_equal(&p, &plain, sizeof p);
    assert_int_equal(log.calls, 0);
    opts.size = offsetof(cuzk_prove_options_t, prover) - 1;
    assert_int_equal(cuzk_prove_wtns(&p, pub, k, w, len, &opts), CUZK_EINVAL);
    opts.size = sizeof opts;

    /* The GPU, or why there is none. */
    cuzk_prover_t *gpu = NULL, *aut = NULL;
    cuzk_status_t s = cuzk_prover_new(&gpu, k, CUZK_BACKEND_CUDA, 0);
    char why[512];
    snprintf(why, sizeof why, "%s", s == CUZK_OK ? "" : cuzk_last_error());
    assert_int_equal(cuzk_prover_new(&aut, k, CUZK_BACKEND_AUTO, 0), CUZK_OK);
    if (s == CUZK_OK) {
        assert_non_null(strstr(cuzk_prover_backend(gpu), "cuda: "));
        assert_non_null(strstr(cuzk_prover_backend(aut), "cuda: "));
        assert_null(cuzk_prover_note(aut));
        log = (progress_log_t){0};
        opts.prover = gpu;
        opts.timings = &t;
        assert_int_equal(cuzk_prove_wtns(&g, pub, k, w, len, &opts), CUZK_OK);
        assert_memory_equal(&g, &plain, sizeof g); /* GPU = CPU for the same r and s */
        assert_true(t.msm > 0 && t.verify > 0);
        assert_string_equal(log.stages[0], "synth, h, msm");
        cuzk_prover_free(gpu);
    } else {
        printf("SKIP: the GPU prover (%s)\n", why);
        assert_int_equal(s, CUZK_EDEVICE);
        assert_null(gpu);
        assert_string_equal(cuzk_prover_backend(aut), "cpu");
        const char *note = cuzk_prover_note(aut);
        /* a build with CUDA says why it fell back; one without has nothing to fall back from */
        assert_true(note == NULL ? strstr(why, "without CUDA") != NULL
                                 : strstr(note, "no GPU is usable") != NULL);
        opts.prover = aut;
        assert_int_equal(cuzk_prove_wtns(&g, pub, k, w, len, &opts), CUZK_OK);
        assert_memory_equal(&g, &plain, sizeof g);
    }
    cuzk_prover_free(aut);
    cuzk_prover_free(cpu);
    cuzk_prover_free(NULL);
    free(w);
    cuzk_key_free(other);
    cuzk_key_free(k);
}

static void test_decoders(void **state)
{
    (void)state;
    cuzk_proof_t p;
    assert_int_equal(cuzk_proof_from_snarkjs_json(&p, "{", 1), CUZK_EBADFILE);
    assert_non_null(strstr(cuzk_last_error(), "proof.json"));
    assert_int_equal(cuzk_proof_from_snarkjs_json(NULL, "{}", 2), CUZK_EINVAL);
    unsigned char zeros[CUZK_BELLPERSON_PROOF_BYTES] = {0};
    assert_int_not_equal(cuzk_proof_from_bellperson(&p, zeros), CUZK_OK);
    assert_non_null(strstr(cuzk_last_error(), "the proof"));
    cuzk_scalar_t *pub = NULL;
    size_t n = 0;
    /* r of BN254 itself: not below r. */
    const char *r =
        "[\"21888242871839275222246405745257275088548364400416034343698204186575808495617\"]";
    assert_int_equal(cuzk_public_from_snarkjs_json(&pub, &n, CUZK_CURVE_BN254, r, strlen(r)),
                     CUZK_ENONCANONICAL);
    assert_null(pub);
    assert_int_equal(cuzk_public_from_snarkjs_json(&pub, &n, CUZK_CURVE_NONE, "[]", 2),
                     CUZK_EINVAL);
    cuzk_scalar_t s;
    assert_int_equal(cuzk_scalar_from_decimal(&s, CUZK_CURVE_BN254, "12a"), CUZK_EENCODING);
    assert_int_equal(
        cuzk_scalar_from_decimal(
            &s, CUZK_CURVE_BN254,
            "21888242871839275222246405745257275088548364400416034343698204186575808495617"),
        CUZK_ENONCANONICAL);
    /* A coordinate >= q in the byte form: refused by the encoder. */
    memset(&p, 0xff, sizeof p);
    p.curve = CUZK_CURVE_BN254;
    char *json = (char *)1;
    assert_int_equal(cuzk_proof_to_snarkjs_json(&json, &p), CUZK_EINVAL);
    assert_null(json);
    cuzk_vk_t *vk = NULL;
    assert_int_equal(cuzk_vk_load(&vk, fx("bn.wtns")), CUZK_EBADFILE);
    assert_non_null(strstr(cuzk_last_error(), fx("bn.wtns")));
    assert_int_equal(cuzk_vk_from_memory(&vk, "{\"protocol\": \"groth16\"}", 23, "v.json"),
                     CUZK_EBADFILE);
    assert_non_null(strstr(cuzk_last_error(), "v.json"));

    /* The named forms: the name in messages, the reader's own reason. */
    assert_int_equal(cuzk_proof_from_snarkjs_json_named(&p, "{", 1, "d/p.json"), CUZK_EBADFILE);
    assert_non_null(strstr(cuzk_last_error(), "d/p.json: not JSON"));
    assert_int_equal(cuzk_vk_from_memory_as(&vk, "{}", 2, "d/v.json", CUZK_CONVENTION_SNARKJS),
                     CUZK_EBADFILE);
    assert_string_equal(cuzk_last_error(), "d/v.json: protocol: missing");
    assert_null(vk);
    assert_int_equal(cuzk_vk_from_memory_as(&vk, "{}", 2, NULL, (cuzk_convention_t)7), CUZK_EINVAL);
    /* A count that does not fit is told before the values: r itself is
     * CUZK_ENONCANONICAL only where any count will do. */
    assert_int_equal(cuzk_public_from_snarkjs_json_named(&pub, &n, CUZK_CURVE_BN254, 2, r,
                                                         strlen(r), "d/pub.json"),
                     CUZK_EBADFILE);
    assert_string_equal(cuzk_last_error(), "d/pub.json: 1 public signals, expected 2");
    assert_null(pub);
    assert_int_equal(cuzk_public_from_snarkjs_json_named(&pub, &n, CUZK_CURVE_BN254,
                                                         CUZK_PUBLIC_ANY_COUNT, r, strlen(r),
                                                         "d/pub.json"),
                     CUZK_ENONCANONICAL);
    assert_non_null(strstr(cuzk_last_error(), "d/pub.json"));
    assert_int_equal(
        cuzk_public_from_snarkjs_json_named(&pub, &n, CUZK_CURVE_BN254, 1, "[\"007\"]", 7, NULL),
        CUZK_OK);
    assert_int_equal(n, 1);
    assert_true(pub[0].limb[0] == 7 && pub[0].limb[1] == 0);
    cuzk_free(pub);
}

/* The .asgn at path as a cuzk_assignment_t over its mapping (the layout of
 * docs/ASSIGNMENT.md); *map and *size to unmap. */
static void asgn_map(cuzk_assignment_t *a, void **map, size_t *size, const char *path)
{
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    *size = (size_t)st.st_size;
    *map = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    assert_true(*map != MAP_FAILED);
    const unsigned char *b = *map;
    uint64_t counts[3];
    memcpy(counts, b + 16, sizeof counts);
    memset(a, 0, sizeof *a);
    a->curve = CUZK_CURVE_BLS12_381;
    a->n_constraints = counts[0];
    a->n_inputs = counts[1];
    a->n_aux = counts[2];
    const cuzk_scalar_t *v = (const cuzk_scalar_t *)(b + 40);
    a->a = v;
    a->b = v + a->n_constraints;
    a->c = v + 2 * a->n_constraints;
    a->inputs = v + 3 * a->n_constraints;
    a->aux = a->inputs + a->n_inputs;
    const uint64_t *bits = (const uint64_t *)(a->aux + a->n_aux);
    a->a_aux_density = bits;
    a->b_input_density = bits + (a->n_aux + 63) / 64;
    a->b_aux_density = a->b_input_density + (a->n_inputs + 63) / 64;
}

static void test_bellperson(void **state)
{
    (void)state;
    cuzk_key_t *k = load("bls.params");
    cuzk_assignment_t a;
    void *map;
    size_t size;
    asgn_map(&a, &map, &size, fx("bls.asgn"));
    cuzk_proof_t p[2];
    cuzk_scalar_t pub[4];
    assert_int_equal(cuzk_prove_assignment(&p[0], pub, k, &a, NULL), CUZK_OK);
    assert_int_equal(cuzk_prove_assignment(&p[1], pub + 2, k, &a, NULL), CUZK_OK);
    unsigned char bytes[CUZK_BELLPERSON_PROOF_BYTES];
    cuzk_proof_t q;
    assert_int_equal(cuzk_proof_to_bellperson(bytes, &p[0]), CUZK_OK);
    assert_int_equal(cuzk_proof_from_bellperson(&q, bytes), CUZK_OK);
    assert_memory_equal(&q, &p[0], sizeof q);
    cuzk_vk_t *vk = NULL;
    int valid = -1;
    assert_int_equal(cuzk_vk_load(&vk, fx("bls.vk")), CUZK_OK);
    assert_int_equal(cuzk_vk_convention(vk), CUZK_CONVENTION_BELLPERSON);
    assert_int_equal(cuzk_verify_batch(&valid, vk, p, 2, pub), CUZK_OK);
    assert_int_equal(valid, 1);
    pub[3].limb[0] ^= 1;
    assert_int_equal(cuzk_verify_batch(&valid, vk, p, 2, pub), CUZK_OK);
    assert_int_equal(valid, 0);
    pub[3].limb[0] ^= 1;

    /* A proof file of both proofs; its length and its bytes checked, each
     * failure naming the file (and the proof). */
    unsigned char file[2 * CUZK_BELLPERSON_PROOF_BYTES];
    assert_int_equal(cuzk_proof_to_bellperson(file, &p[0]), CUZK_OK);
    assert_int_equal(cuzk_proof_to_bellperson(file + CUZK_BELLPERSON_PROOF_BYTES, &p[1]), CUZK_OK);
    cuzk_proof_t *ps = NULL;
    size_t n_ps = 0;
    assert_int_equal(cuzk_proofs_from_bellperson(&ps, &n_ps, file, sizeof file, "d/p.bin"),
                     CUZK_OK);
    assert_int_equal(n_ps, 2);
    assert_memory_equal(ps, p, sizeof p);
    cuzk_free(ps);
    assert_int_equal(cuzk_proofs_from_bellperson(&ps, &n_ps, file, sizeof file - 1, "d/p.bin"),
                     CUZK_EBADFILE);
    assert_non_null(strstr(cuzk_last_error(), "d/p.bin: 383 bytes"));
    assert_null(ps);
    assert_int_equal(n_ps, 0);
    memset(file + CUZK_BELLPERSON_PROOF_BYTES + 1, 0x5a, 8);
    assert_int_not_equal(cuzk_proofs_from_bellperson(&ps, &n_ps, file, sizeof file, "d/p.bin"),
                         CUZK_OK);
    assert_non_null(strstr(cuzk_last_error(), "d/p.bin: proof 1: A"));
    assert_null(ps);

    /* The verifying key a .params starts with, read as bellperson's; the
     * same bytes told by content are proving parameters, no verification
     * key, and as a snarkjs key they are not JSON. */
    size_t params_len;
    unsigned char *params = slurp(fx("bls.params"), &params_len);
    cuzk_vk_t *pvk = NULL;
    assert_int_equal(
        cuzk_vk_from_memory_as(&pvk, params, params_len, "bls.params", CUZK_CONVENTION_BELLPERSON),
        CUZK_OK);
    assert_int_equal(cuzk_vk_public_inputs(pvk), 2);
    assert_int_equal(cuzk_verify_batch(&valid, pvk, p, 2, pub), CUZK_OK);
    assert_int_equal(valid, 1);
    cuzk_vk_free(pvk);
    assert_int_equal(cuzk_vk_from_memory(&pvk, params, params_len, "bls.params"), CUZK_EBADFILE);
    assert_int_equal(
        cuzk_vk_from_memory_as(&pvk, params, params_len, "bls.params", CUZK_CONVENTION_SNARKJS),
        CUZK_EBADFILE);
    assert_non_null(strstr(cuzk_last_error(), "bls.params: not JSON"));
    free(params);

    /* Assignments that do not fit: counts, a bitmap tail, a value >= r. */
    cuzk_assignment_t bad = a;
    bad.n_inputs = 0;
    assert_int_equal(cuzk_prove_assignment(&q, NULL, k, &bad, NULL), CUZK_EINVAL);
    bad = a;
    bad.n_aux = a.n_aux - 1;
    assert_int_not_equal(cuzk_prove_assignment(&q, NULL, k, &bad, NULL), CUZK_OK);
    bad = a;
    bad.curve = CUZK_CURVE_BN254;
    assert_int_equal(cuzk_prove_assignment(&q, NULL, k, &bad, NULL), CUZK_EINVAL);
    cuzk_scalar_t *c = malloc(a.n_constraints * sizeof *c);
    memcpy(c, a.c, a.n_constraints * sizeof *c);
    memset(c[3].limb, 0xff, sizeof c[3].limb);
    bad = a;
    bad.c = c;
    assert_int_equal(cuzk_prove_assignment(&q, NULL, k, &bad, NULL), CUZK_ENONCANONICAL);
    assert_non_null(strstr(cuzk_last_error(), "c[3]"));
    free(c);
    /* A bellperson key proves no witness. */
    assert_int_equal(cuzk_prove_wtns(&q, NULL, k, "wtns", 4, NULL), CUZK_EINVAL);
    cuzk_vk_free(vk);
    cuzk_key_free(k);
    munmap(map, size);
}

/* Each thread sees its own last error. */
static void *thread_fail(void *arg)
{
    cuzk_key_t *k;
    (void)cuzk_key_load(&k, (const char *)arg, CUZK_KEY_AUTO, 0);
    for (int i = 0; i < 1000; i++)
        if (!strstr(cuzk_last_error(), (const char *)arg))
            return (void *)1;
    return NULL;
}

static void test_last_error_per_thread(void **state)
{
    (void)state;
    cuzk_key_t *k;
    (void)cuzk_key_load(&k, "/nonexistent/main.zkey", CUZK_KEY_AUTO, 0);
    pthread_t t[2];
    const char *paths[2] = {"/nonexistent/one.zkey", "/nonexistent/two.zkey"};
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, thread_fail, (void *)paths[i]), 0);
    for (int i = 0; i < 2; i++) {
        void *r;
        pthread_join(t[i], &r);
        assert_null(r);
    }
    assert_non_null(strstr(cuzk_last_error(), "/nonexistent/main.zkey"));
}

static void test_engine(void **state)
{
    (void)state;
    cuzk_engine_config_t cfg;
    cuzk_engine_config_init(&cfg);
    cuzk_engine_t *e = NULL;
    cfg.size = 4;
    assert_int_equal(cuzk_engine_new(&e, &cfg), CUZK_EINVAL);
    cuzk_engine_config_init(&cfg);
    cfg.workers_per_device = 2;
    assert_int_equal(cuzk_engine_new(&e, &cfg), CUZK_OK);
    assert_int_equal(cuzk_engine_key_load(e, "bad/name", fx("bn.zkey"), CUZK_KEY_AUTO),
                     CUZK_EINVAL);
    assert_int_equal(cuzk_engine_key_load(e, "k", "/nonexistent/e.zkey", CUZK_KEY_AUTO),
                     CUZK_ENOFILE);
    assert_non_null(strstr(cuzk_last_error(), "/nonexistent/e.zkey"));
    assert_int_equal(cuzk_engine_key_load(e, "k", fx("bn.zkey"), CUZK_KEY_AUTO), CUZK_OK);
    assert_int_equal(cuzk_engine_key_load(e, "k", fx("bn.zkey"), CUZK_KEY_AUTO), CUZK_OK);
    assert_int_equal(cuzk_engine_key_load(e, "p", fx("bls.params"), CUZK_KEY_AUTO), CUZK_OK);

    size_t len;
    unsigned char *w = slurp(fx("bn.wtns"), &len);
    cuzk_input_t in[3] = {{.kind = CUZK_INPUT_WTNS_PATH, .path = fx("bn.wtns")},
                          {.kind = CUZK_INPUT_WTNS_MEMORY, .data = w, .len = len},
                          {.kind = CUZK_INPUT_WTNS_MEMORY, .data = w, .len = len / 2}};
    assert_int_equal(cuzk_engine_submit(e, "j1", "nokey", CUZK_PRIORITY_NORMAL, in, 2),
                     CUZK_ENOTFOUND);
    assert_int_equal(cuzk_engine_submit(e, "j1", "k", CUZK_PRIORITY_NORMAL, in, 0), CUZK_EINVAL);
    assert_int_equal(cuzk_engine_submit(e, "j1", "k", CUZK_PRIORITY_HIGH, in, 2), CUZK_OK);
    assert_int_equal(cuzk_engine_submit(e, "j1", "k", CUZK_PRIORITY_HIGH, in, 2), CUZK_EBUSY);
    assert_int_equal(cuzk_engine_submit(e, "j2", "k", CUZK_PRIORITY_LOW, in, 3), CUZK_OK);
    cuzk_assignment_t a;
    void *map;
    size_t size;
    asgn_map(&a, &map, &size, fx("bls.asgn"));
    cuzk_input_t ai = {.kind = CUZK_INPUT_ASGN_MEMORY, .assignment = &a};
    assert_int_equal(cuzk_engine_submit(e, "j3", "k", CUZK_PRIORITY_LOW, &ai, 1), CUZK_EINVAL);
    assert_int_equal(cuzk_engine_submit(e, "j3", "p", CUZK_PRIORITY_CRITICAL, &ai, 1), CUZK_OK);
    free(w); /* copied */

    int ended = 0;
    cuzk_job_progress_t pr;
    for (int j = 0; j < 3; j++) {
        const char *id = (const char *[]){"j1", "j2", "j3"}[j];
        assert_int_equal(cuzk_engine_wait(e, id, 300, &ended), CUZK_OK);
        assert_true(ended);
    }
    assert_int_equal(cuzk_engine_job_state(e, "j1", &pr), CUZK_OK);
    assert_int_equal(pr.state, CUZK_JOB_DONE);
    assert_int_equal(pr.partitions, 2);
    assert_int_equal(pr.done, 2);
    assert_int_equal(cuzk_engine_job_state(e, "j2", &pr), CUZK_OK);
    assert_int_equal(pr.state, CUZK_JOB_FAILED);
    char *why = NULL;
    assert_int_equal(cuzk_engine_job_error(e, "j2", &why), CUZK_OK);
    assert_non_null(strstr(why, "2")); /* names the partition */
    cuzk_free(why);
    cuzk_proof_t p;
    cuzk_scalar_t pub[2];
    assert_int_equal(cuzk_engine_proof(e, "j2", 0, &p, pub), CUZK_EINVAL);
    assert_non_null(strstr(cuzk_last_error(), "failed"));
    assert_int_equal(cuzk_engine_proof(e, "j1", 2, &p, pub), CUZK_EINVAL);
    assert_int_equal(cuzk_engine_proof(e, "nojob", 0, &p, pub), CUZK_ENOTFOUND);
    assert_int_equal(cuzk_engine_cancel(e, "j1"), CUZK_EINVAL);

    cuzk_vk_t *vk = NULL;
    int valid = 0;
    assert_int_equal(cuzk_vk_load(&vk, fx("bn_vk.json")), CUZK_OK);
    for (uint32_t i = 0; i < 2; i++) {
        assert_int_equal(cuzk_engine_proof(e, "j1", i, &p, pub), CUZK_OK);
        assert_int_equal(cuzk_verify(&valid, vk, &p, pub, 2), CUZK_OK);
        assert_int_equal(valid, 1);
    }
    cuzk_vk_free(vk);
    assert_int_equal(cuzk_vk_load(&vk, fx("bls.vk")), CUZK_OK);
    assert_int_equal(cuzk_engine_proof(e, "j3", 0, &p, pub), CUZK_OK);
    assert_int_equal(cuzk_verify(&valid, vk, &p, pub, 2), CUZK_OK);
    assert_int_equal(valid, 1);
    cuzk_vk_free(vk);

    char *json = NULL;
    assert_int_equal(cuzk_engine_status_json(e, &json), CUZK_OK);
    assert_non_null(strstr(json, "\"backend\":\"cpu\""));
    assert_non_null(strstr(json, "\"name\":\"k\""));
    cuzk_free(json);
    assert_int_equal(cuzk_engine_trace_json(e, &json), CUZK_OK);
    assert_non_null(strstr(json, "traceEvents"));
    cuzk_free(json);
    assert_int_equal(cuzk_engine_key_evict(e, "nokey"), CUZK_ENOTFOUND);
    cuzk_engine_destroy(e, 1);
    munmap(map, size);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* First: cmocka puts its own SIGBUS handler over the library's at
         * the start of every test, and the library installs its guard of
         * mapped files (io/io_map.h) once, at the process's first map; so
         * the test that truncates a mapped key must make the first map. */
        cmocka_unit_test(test_key_map),
        cmocka_unit_test(test_key_errors),
        cmocka_unit_test(test_prove_errors),
        cmocka_unit_test(test_prove_verify),
        cmocka_unit_test(test_decoders),
        cmocka_unit_test(test_bellperson),
        cmocka_unit_test(test_last_error_per_thread),
        cmocka_unit_test(test_engine),
        cmocka_unit_test(test_prover),
        cmocka_unit_test(test_prove_threads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
