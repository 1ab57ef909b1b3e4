/*
 * supraseal-c2's C ABI (src/supraseal/supraseal.h), called as bellperson's
 * supraseal.rs calls it: development .params of BLS12-381 circuits of
 * 2^10 .. 2^16 rows, assignments in Montgomery form in pageable memory
 * (and in pinned memory as Curio's pool gives it, when there is a GPU),
 * 1 and 3 circuits a call. Every proof is checked with the verifier and
 * against the same assignment proven with the same r and s by the CPU
 * prover of groth16_bp_prove, byte for byte. Malformed structs each get a
 * code and a message naming what was wrong. Built twice: against
 * libcuzk_supraseal.so, and with CUZK_SUPRASEAL_CURIO against
 * libcuzk_supraseal_curio.so (the split form, the mutex, gpu_index).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <pthread.h>
#include "test_util.h"
#include "groth16/groth16.h"
#include "io/asgn_file.h"
#include "io/io_error.h"
#include "io/params_file.h"
#include "r1cs/r1cs.h"
#include "r1cs/r1cs_indexed.h"
#include "supraseal/supraseal.h"
#include "supraseal/supraseal_dev.h"
#include "util/rng.h"
#if CUZK_HAVE_CUDA
#include "cuda/gpu.h"
#endif

/* A circuit, its development params on disk, and one assignment of it in
 * the ABI's form. */
typedef struct fixture {
    char dir[64], params_path[96], asgn_path[96];
    bp_params_t params;
    asgn_t asgn; /* canonical, as the prover of the reference takes it */
    void *asgn_mem;
    supraseal_fr_t *scalars; /* a, b, c, inputs, aux in Montgomery form */
    uint64_t *bitmaps;
    supraseal_assignment_t abi;
    bool pinned;
} fixture_t;

/* n canonical scalars into Montgomery form. */
static void to_mont(supraseal_fr_t *dst, const uint64_t (*src)[4], uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        bls381_fr_t x;
        assert_true(bls381_fr_from_canonical(&x, src[i]));
        memcpy(dst[i].l, x.l, sizeof x.l);
    }
}

#if CUZK_HAVE_CUDA
static gpu_t gpu; /* opened by test_sizes_pinned */
#endif

/* Memory for the scalars: pinned when asked (a device is open). */
static void *scalars_alloc(size_t bytes, bool pinned)
{
#if CUZK_HAVE_CUDA
    if (pinned) {
        void *p = NULL;
        if (gpu_host_alloc(&gpu, &p, bytes) != CUZK_OK)
            fail_msg("pinned memory of %zu bytes: %s", bytes, gpu.err);
        return p;
    }
#endif
    assert_false(pinned);
    void *p = malloc(bytes);
    assert_non_null(p);
    return p;
}

static void scalars_free(void *p, bool pinned)
{
#if CUZK_HAVE_CUDA
    if (pinned) {
        gpu_host_free(p);
        return;
    }
#else
    (void)pinned; /* scalars_alloc makes pinned ones on a CUDA build only */
#endif
    free(p);
}

static void fixture_abi(fixture_t *f, bool pinned);

/* A circuit of rows rows at most (the domain 2^log), its params and an
 * assignment, the struct filled as bellperson's supraseal.rs fills it. */
static void fixture_make(fixture_t *f, unsigned log, bool pinned)
{
    char err[IO_ERR_MAX];
    memset(f, 0, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/cuzk_test_supraseal_XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->params_path, sizeof f->params_path, "%s/c.params", f->dir);
    snprintf(f->asgn_path, sizeof f->asgn_path, "%s/a.asgn", f->dir);
    r1cs_gen_params_t gp = r1cs_gen_porep32((1u << log) - 16);
    gp.n_public = 8; /* rows: the constraints and one per input, ONE included */
    r1cs_t r;
    r1cs_witness_t w;
    assert_int_equal(r1cs_generate(&r, &w, R1CS_CURVE_BLS12_381, &gp, &test_rng), CUZK_OK);
    assert_int_equal(groth16_bp_dev_setup(&f->params, &r, &test_rng, NULL), CUZK_OK);
    assert_int_equal(bp_params_write(f->params_path, &f->params, err, sizeof err), CUZK_OK);
    assert_int_equal(groth16_bp_assign(&f->asgn, &f->asgn_mem, &r, &w, NULL), CUZK_OK);
    assert_int_equal(asgn_file_write(f->asgn_path, &f->asgn, err, sizeof err), CUZK_OK);
    r1cs_witness_free(&w);
    r1cs_free(&r);
    assert_true(f->asgn.n_constraints <= (1u << log) && f->asgn.n_constraints > (1u << (log - 1)));
    fixture_abi(f, pinned);
}

/* f's assignment in the ABI's form, the struct filled as bellperson's
 * supraseal.rs fills it. */
static void fixture_abi(fixture_t *f, bool pinned)
{
    const asgn_t *a = &f->asgn;
    uint64_t rows = a->n_constraints, ni = a->n_inputs, na = a->n_aux;
    f->pinned = pinned;
    f->scalars = scalars_alloc((3 * rows + ni + na) * sizeof *f->scalars, pinned);
    to_mont(f->scalars, a->a, rows);
    to_mont(f->scalars + rows, a->b, rows);
    to_mont(f->scalars + 2 * rows, a->c, rows);
    to_mont(f->scalars + 3 * rows, a->inputs, ni);
    to_mont(f->scalars + 3 * rows + ni, a->aux, na);
    uint64_t wa = asgn_words(na), wi = asgn_words(ni);
    f->bitmaps = calloc(2 * wa + wi, sizeof *f->bitmaps);
    assert_non_null(f->bitmaps);
    memcpy(f->bitmaps, a->a_aux_density, wa * 8);
    memcpy(f->bitmaps + wa, a->b_input_density, wi * 8);
    memcpy(f->bitmaps + wa + wi, a->b_aux_density, wa * 8);
    f->abi = (supraseal_assignment_t){
        .a_aux_density = f->bitmaps,
        .a_aux_bit_len = na,
        .a_aux_popcount = (size_t)groth16_bitmap_popcount(f->bitmaps, na),
        .b_inp_density = f->bitmaps + wa,
        .b_inp_bit_len = ni,
        .b_inp_popcount = (size_t)groth16_bitmap_popcount(f->bitmaps + wa, ni),
        .b_aux_density = f->bitmaps + wa + wi,
        .b_aux_bit_len = na,
        .b_aux_popcount = (size_t)groth16_bitmap_popcount(f->bitmaps + wa + wi, na),
        .a = f->scalars,
        .b = f->scalars + rows,
        .c = f->scalars + 2 * rows,
        .abc_size = rows,
        .inp_assignment_data = f->scalars + 3 * rows,
        .inp_assignment_size = ni,
        .aux_assignment_data = f->scalars + 3 * rows + ni,
        .aux_assignment_size = na,
    };
}

static void fixture_free(fixture_t *f)
{
    unlink(f->params_path);
    unlink(f->asgn_path);
    rmdir(f->dir);
    bp_params_free(&f->params);
    free(f->asgn_mem);
    scalars_free(f->scalars, f->pinned);
    free(f->bitmaps);
}

/* n blinding pairs, random below r (Montgomery form is any value below r). */
static void blinding_make(supraseal_fr_t *r, supraseal_fr_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        bls381_fr_t x, y;
        assert_int_equal(bls381_fr_random(&x, &test_rng), CUZK_OK);
        assert_int_equal(bls381_fr_random(&y, &test_rng), CUZK_OK);
        memcpy(r[i].l, x.l, sizeof x.l);
        memcpy(s[i].l, y.l, sizeof y.l);
    }
}

/* The ABI's proof as the reader's struct (blst's layout is ours). */
static bp_proof_t proof_in(const supraseal_proof_t *p)
{
    bp_proof_t q;
    memcpy(q.a.x.l, p->a[0], 48);
    memcpy(q.a.y.l, p->a[1], 48);
    memcpy(q.b.x.c0.l, p->b[0][0], 48);
    memcpy(q.b.x.c1.l, p->b[0][1], 48);
    memcpy(q.b.y.c0.l, p->b[1][0], 48);
    memcpy(q.b.y.c1.l, p->b[1][1], 48);
    memcpy(q.c.x.l, p->c[0], 48);
    memcpy(q.c.y.l, p->c[1], 48);
    return q;
}

/* Proof i verifies under f's key for f's inputs, and equals the CPU
 * prover's with the same r and s. */
static void check_proof(const fixture_t *f, const supraseal_proof_t *p, const supraseal_fr_t *r,
                        const supraseal_fr_t *s)
{
    char err[IO_ERR_MAX];
    bp_proof_t got = proof_in(p), want;
    groth16_prove_opts_t opts = {.r = r->l, .s = s->l};
    assert_int_equal(
        groth16_bp_prove(&want, &f->params, &f->asgn, &opts, NULL, NULL, err, sizeof err), CUZK_OK);
    assert_memory_equal(&got, &want, sizeof got);
    size_t n_in = (size_t)f->asgn.n_inputs - 1;
    assert_true(n_in >= 1);
    bls381_fr_t *in = calloc(n_in + (n_in == 0), sizeof *in); /* never 0 bytes */
    assert_non_null(in);
    for (size_t i = 0; i < n_in; i++)
        assert_true(bls381_fr_from_canonical(&in[i], f->asgn.inputs[i + 1]));
    bool valid = false;
    assert_int_equal(
        groth16_bp_verify(&valid, &f->params.vk, in, &got, 1, NULL, NULL, err, sizeof err),
        CUZK_OK);
    assert_true(valid);
    /* the same proof for other inputs does not verify: the check can fail */
    bls381_fr_add(&in[0], &in[0], &bls381_fr_ONE);
    assert_int_equal(
        groth16_bp_verify(&valid, &f->params.vk, in, &got, 1, NULL, NULL, err, sizeof err),
        CUZK_OK);
    assert_false(valid);
    free(in);
}

/* err is a failure whose message holds want; frees the message. */
static void expect_error(supraseal_error_t e, const char *want)
{
    if (e.code == 0)
        fail_msg("succeeded where an error naming '%s' was expected", want);
    assert_non_null(e.message);
    if (!strstr(e.message, want))
        fail_msg("error %d '%s' does not name '%s'", (int)e.code, e.message, want);
    free(e.message);
}

static void expect_ok(supraseal_error_t e)
{
    if (e.code != 0)
        fail_msg("error %d: %s", (int)e.code, e.message ? e.message : "(no message)");
    assert_null(e.message);
}

/* The one-call form of the variant under test. */
static supraseal_error_t prove_call(const supraseal_assignment_t *provers, size_t n,
                                    const supraseal_fr_t *r, const supraseal_fr_t *s,
                                    supraseal_proof_t *proofs, const supraseal_srs_t *srs)
{
#ifdef CUZK_SUPRASEAL_CURIO
    return generate_groth16_proofs_c(provers, n, r, s, proofs, srs, NULL, -1);
#else
    return generate_groth16_proofs_c(provers, n, r, s, proofs, srs);
#endif
}

/* n circuits of f (the same assignment, each with its own r and s) in one
 * call, every proof checked. */
static void prove_and_check(const fixture_t *f, const supraseal_srs_t *srs, size_t n)
{
    supraseal_assignment_t provers[3];
    supraseal_fr_t r[3], s[3];
    supraseal_proof_t proofs[3];
    assert_true(n <= 3);
    for (size_t i = 0; i < n; i++)
        provers[i] = f->abi;
    blinding_make(r, s, n);
    expect_ok(prove_call(provers, n, r, s, proofs, srs));
    for (size_t i = 0; i < n; i++)
        check_proof(f, &proofs[i], &r[i], &s[i]);
}

static void sizes(bool pinned)
{
#ifdef __SANITIZE_ADDRESS__
    /* the sanitizers' run checks memory, not sizes: the Release run has 2^16 */
    static const unsigned logs[] = {10, 12};
#else
    static const unsigned logs[] = {10, 13, 16};
#endif
    for (size_t k = 0; k < sizeof logs / sizeof logs[0]; k++) {
        fixture_t f;
        fixture_make(&f, logs[k], pinned);
        supraseal_srs_t srs;
        expect_ok(create_SRS(&srs, f.params_path, true));
        prove_and_check(&f, &srs, 1);
        prove_and_check(&f, &srs, 3);
        evict_SRS(&srs);
        drop_SRS(&srs);
        fixture_free(&f);
    }
}

static void test_sizes_pageable(void **state)
{
    (void)state;
    sizes(false);
}

static void test_sizes_pinned(void **state)
{
    (void)state;
#if CUZK_HAVE_CUDA
    bool found = false;
    assert_int_equal(gpu_open_first(&gpu, &found), CUZK_OK);
    if (found) {
        sizes(true);
        return;
    }
    print_message("no GPU (%s): pinned buffers skipped\n", gpu.err);
#else
    print_message("a build without CUDA: pinned buffers skipped\n");
#endif
    skip();
}

/* Handles: the cache by path, clones outliving the original, eviction,
 * and files that are no params. */
static void test_srs(void **state)
{
    (void)state;
    fixture_t f;
    fixture_make(&f, 10, false);
    supraseal_srs_t a, b, c;
    expect_ok(create_SRS(&a, f.params_path, true));
    expect_ok(create_SRS(&b, f.params_path, true));
    assert_ptr_equal(a.ptr, b.ptr); /* the cache's */
    c = clone_SRS(&a);
    assert_ptr_equal(c.ptr, a.ptr);
    drop_SRS(&a);
    drop_SRS(&b);
    evict_SRS(&c);
    prove_and_check(&f, &c, 1); /* the clone keeps the parameters */
    supraseal_srs_t d, d2;
    expect_ok(create_SRS(&d, f.params_path, false));
    assert_ptr_equal(d.ptr, c.ptr); /* one key a path, cached or not */
    drop_SRS(&c);
    expect_ok(create_SRS(&d2, f.params_path, false));
    assert_ptr_equal(d2.ptr, d.ptr);
    drop_SRS(&d2);
    prove_and_check(&f, &d, 1);
    drop_SRS(&d);
    supraseal_fr_t r, s;
    supraseal_proof_t proof;
    blinding_make(&r, &s, 1);
    expect_error(prove_call(&f.abi, 1, &r, &s, &proof, &d), "no live SRS handle");
    supraseal_srs_t none = clone_SRS(&d);
    assert_null(none.ptr);

    supraseal_srs_t e;
    expect_error(create_SRS(&e, f.asgn_path, true), f.asgn_path);
    assert_null(e.ptr);
    char missing[128];
    snprintf(missing, sizeof missing, "%s/missing.params", f.dir);
    expect_error(create_SRS(&e, missing, true), missing);
    expect_error(create_SRS(&e, NULL, true), "path is NULL");
    expect_error(create_SRS(NULL, f.params_path, true), "ret is NULL");
    fixture_free(&f);
}

/* Each change breaks one field; the call fails naming it, never crashes. */
static void test_malformed(void **state)
{
    (void)state;
    fixture_t f, big;
    fixture_make(&f, 10, false);
    fixture_make(&big, 11, false);
    supraseal_srs_t srs;
    expect_ok(create_SRS(&srs, f.params_path, true));
    supraseal_fr_t r[2], s[2];
    supraseal_proof_t proofs[2];
    blinding_make(r, s, 2);
    const supraseal_assignment_t good = f.abi;
    supraseal_assignment_t bad[2];

#define EXPECT_BAD(change, want)                                                                   \
    do {                                                                                           \
        bad[0] = good;                                                                             \
        bad[1] = good;                                                                             \
        change;                                                                                    \
        expect_error(prove_call(bad, 2, r, s, proofs, &srs), want);                                \
    } while (0)

    EXPECT_BAD(bad[1].a_aux_bit_len += 1, "circuit 1: a_aux_bit_len");
    EXPECT_BAD(bad[0].b_inp_bit_len -= 1, "circuit 0: b_inp_bit_len");
    EXPECT_BAD(bad[0].b_aux_bit_len = 0, "b_aux_bit_len is 0");
    EXPECT_BAD(bad[1].a_aux_popcount += 1, "circuit 1: a_aux_popcount");
    EXPECT_BAD(bad[0].b_aux_popcount = 0, "b_aux_popcount is 0");
    EXPECT_BAD(bad[0].a = NULL, "circuit 0: a is NULL");
    EXPECT_BAD(bad[1].c = NULL, "circuit 1: c is NULL");
    EXPECT_BAD(bad[0].aux_assignment_data = NULL, "aux_assignment_data is NULL");
    EXPECT_BAD(bad[0].b_aux_density = NULL, "b_aux_density is NULL");
    EXPECT_BAD(bad[0].inp_assignment_size = 0, "no input assignment");
    EXPECT_BAD(bad[0].abc_size = 0, "abc_size 0");
    size_t n_in = good.inp_assignment_size;
    assert_true(n_in >= 2);
    supraseal_fr_t *zero_first = calloc(n_in + (n_in == 0), sizeof *zero_first);
    assert_non_null(zero_first);
    memcpy(zero_first + 1, good.inp_assignment_data + 1, (n_in - 1) * sizeof *zero_first);
    EXPECT_BAD(bad[0].inp_assignment_data = zero_first, "inp_assignment_data[0] is not one");
    free(zero_first);
    /* a circuit the SRS has too few points for: caught where the key is */
    EXPECT_BAD(bad[1] = big.abi, "partition 1");

    /* a scalar at or above r */
    supraseal_fr_t *a = (supraseal_fr_t *)good.a;
    supraseal_fr_t keep = a[5];
    memcpy(a[5].l, bls381_fr_MODULUS, sizeof a[5].l);
    EXPECT_BAD((void)0, "a[5] is not below the modulus");
    a[5] = keep;
    supraseal_fr_t r_keep = r[1];
    memset(r[1].l, 0xff, sizeof r[1].l);
    EXPECT_BAD((void)0, "r_s[1] is not below the modulus");
    r[1] = r_keep;

    bad[0] = good;
    bad[1] = good;
    expect_error(prove_call(NULL, 2, r, s, proofs, &srs), "provers is NULL");
    expect_error(prove_call(bad, 0, r, s, proofs, &srs), "num_circuits is 0");
    expect_error(prove_call(bad, 2, NULL, s, proofs, &srs), "r_s is NULL");
    expect_error(prove_call(bad, 2, r, s, NULL, &srs), "proofs is NULL");
    expect_error(prove_call(bad, 2, r, s, proofs, NULL), "srs is NULL");
#undef EXPECT_BAD
    /* after all of it the same structs prove */
    expect_ok(prove_call(bad, 2, r, s, proofs, &srs));
    check_proof(&f, &proofs[1], &r[1], &s[1]);
    evict_SRS(&srs);
    drop_SRS(&srs);
    fixture_free(&big);
    fixture_free(&f);
}

#ifdef CUZK_SUPRASEAL_CURIO
typedef struct worker_arg {
    const fixture_t *f;
    const supraseal_srs_t *srs;
    void *mtx;
} worker_arg_t;

/* Curio's worker: start (then a, b, c go back to its pool: poisoned here),
 * finalize, check. */
static void *split_worker(void *p)
{
    worker_arg_t *w = p;
    const fixture_t *f = w->f;
    size_t rows = f->abi.abc_size;
    for (int round = 0; round < 2; round++) {
        supraseal_assignment_t provers[2] = {f->abi, f->abi};
        supraseal_fr_t *abc = malloc(3 * rows * sizeof *abc);
        assert_non_null(abc);
        memcpy(abc, f->abi.a, 3 * rows * sizeof *abc);
        for (int i = 0; i < 2; i++) {
            provers[i].a = abc;
            provers[i].b = abc + rows;
            provers[i].c = abc + 2 * rows;
        }
        supraseal_fr_t r[2], s[2];
        supraseal_proof_t proofs[2];
        blinding_make(r, s, 2);
        void *pending = NULL;
        expect_ok(generate_groth16_proofs_start_c(provers, 2, r, s, w->srs, w->mtx, 0, &pending));
        assert_non_null(pending);
        memset(abc, 0xff, 3 * rows * sizeof *abc); /* the caller reuses a, b, c at once */
        free(abc);
        expect_ok(finalize_groth16_proof_c(pending, proofs));
        for (int i = 0; i < 2; i++)
            check_proof(f, &proofs[i], &r[i], &s[i]);
    }
    return NULL;
}

/* The split form from two threads sharing one GPU mutex, as Curio's engine
 * runs its two workers of a GPU; abandoned pending proofs; gpu_index. */
static void test_split(void **state)
{
    (void)state;
    fixture_t f;
    fixture_make(&f, 12, false);
    supraseal_srs_t srs;
    expect_ok(create_SRS(&srs, f.params_path, true));
    void *mtx = create_gpu_mutex();
    assert_non_null(mtx);
    worker_arg_t arg = {&f, &srs, mtx};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, split_worker, &arg), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    destroy_gpu_mutex(mtx);

    supraseal_fr_t r[3], s[3];
    supraseal_proof_t proofs[3];
    supraseal_assignment_t provers[3] = {f.abi, f.abi, f.abi};
    blinding_make(r, s, 3);
    void *pending = NULL;
    expect_ok(generate_groth16_proofs_start_c(provers, 3, r, s, &srs, NULL, -1, &pending));
    destroy_pending_proof(pending); /* abandoned: cancelled and freed */
    destroy_pending_proof(NULL);
    expect_error(generate_groth16_proofs_start_c(provers, 3, r, s, &srs, NULL, 7, &pending),
                 "gpu_index 7");
    assert_null(pending);
    expect_error(generate_groth16_proofs_start_c(provers, 3, r, s, &srs, NULL, -2, &pending),
                 "gpu_index -2");
    expect_error(generate_groth16_proofs_start_c(provers, 3, r, s, &srs, NULL, -1, NULL),
                 "pending_out is NULL");
    expect_error(finalize_groth16_proof_c(NULL, proofs), "pending is NULL");
    expect_ok(generate_groth16_proofs_c(provers, 3, r, s, proofs, &srs, NULL, 0));
    for (int i = 0; i < 3; i++)
        check_proof(&f, &proofs[i], &r[i], &s[i]);
    evict_SRS(&srs);
    drop_SRS(&srs);
    fixture_free(&f);
}

/* The development hook of supraseal_dev.h (`cuzk bench supraseal --key
 * device`): on a device, its key and assignment prove through the split
 * form the bytes the CPU prover gives for the same circuit and secrets
 * made on the CPU; an engine on the CPU refuses, saying why. */
static void test_dev_srs(void **state)
{
    (void)state;
    uint64_t seed = rng_next(&test_rng);
    const uint32_t n = 4000;
    supraseal_srs_t srs;
    supraseal_dev_t dev;
    supraseal_error_t e = cuzk_supraseal_dev_srs(&srs, &dev, n, seed);
    if (e.code == CUZK_EDEVICE) {
        expect_error(e, "the key is made on a device");
        assert_null(srs.ptr);
        print_message("the library's engine proves on the CPU: the device's key skipped\n");
        skip();
        return; /* skip() jumps out; the analyzer does not know it */
    }
    expect_ok(e);
    expect_error(cuzk_supraseal_dev_srs(&srs, NULL, n, seed), "dev is NULL");

    fixture_t f;
    memset(&f, 0, sizeof f);
    rng_t rng;
    rng_seed(&rng, seed);
    r1cs_ix_t ix;
    r1cs_gen_params_t gp = r1cs_gen_porep32(n);
    assert_true(r1ix_init(&ix, R1CS_CURVE_BLS12_381, &gp, rng_next(&rng)));
    r1cs_t r;
    r1cs_witness_t w;
    assert_int_equal(r1cs_generate_indexed(&r, &w, &ix), CUZK_OK);
    assert_int_equal(groth16_bp_dev_setup(&f.params, &r, &rng, NULL), CUZK_OK);
    assert_int_equal(groth16_bp_assign(&f.asgn, &f.asgn_mem, &r, &w, NULL), CUZK_OK);
    r1cs_witness_free(&w);
    r1cs_free(&r);
    assert_int_equal(dev.asgn.n_constraints, f.asgn.n_constraints);
    assert_int_equal(dev.asgn.n_aux, f.asgn.n_aux);
    assert_memory_equal(dev.asgn.c, f.asgn.c, f.asgn.n_constraints * sizeof *f.asgn.c);
    assert_memory_equal(dev.asgn.aux, f.asgn.aux, f.asgn.n_aux * sizeof *f.asgn.aux);
    fixture_abi(&f, false);

    supraseal_fr_t rs[2], ss[2];
    supraseal_proof_t proofs[2];
    supraseal_assignment_t provers[2] = {f.abi, f.abi};
    blinding_make(rs, ss, 2);
    void *pending = NULL;
    expect_ok(generate_groth16_proofs_start_c(provers, 2, rs, ss, &srs, NULL, -1, &pending));
    expect_ok(finalize_groth16_proof_c(pending, proofs));
    for (int i = 0; i < 2; i++)
        check_proof(&f, &proofs[i], &rs[i], &ss[i]);
    drop_SRS(&srs);
    cuzk_supraseal_dev_free(&dev);
    bp_params_free(&f.params);
    free(f.asgn_mem);
    scalars_free(f.scalars, f.pinned);
    free(f.bitmaps);
}
#endif

int main(void)
{
    test_seed_init("test_supraseal");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_srs),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_sizes_pageable),
        cmocka_unit_test(test_sizes_pinned),
#ifdef CUZK_SUPRASEAL_CURIO
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_dev_srs),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
