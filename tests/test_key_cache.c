/*
 * cuzk's key cache (io/key_cache.h): development keys of both conventions
 * written as a cache and read back with one sequential read; the loaded
 * key equals the original byte for byte, its sections are page-aligned,
 * and it proves (seeded) the very proof the original key proves, which
 * verifies. Corrupt files: truncated at every section boundary and inside
 * the header, extended, bad magic, another version, a damaged header
 * (checksum), a consistent header with a wrong table, a verifying-key
 * point off the curve, a bad IC point, a bad coefficient, a bad query
 * point (found only with KEY_CACHE_CHECK_POINTS). The caller's allocator
 * is used, and its failures are reported. The writer leaves nothing
 * behind when it fails.
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

#include "test_file_util.h"
#include "test_points.h"

#include "io/params_file.h"
#include "groth16/groth16.h"
#include "io/iden3.h"
#include "io/key_cache.h"
#include "io/snarkjs_json.h"
#include "msm/msm.h"

/* A satisfiable circuit over curve with its witness: 12 wires (2 public
 * inputs), 20 constraints, so a domain of 32 and every section non-empty. */
/* A random satisfied circuit of `wires` wires and `constraints` rows. */
static void circuit(r1cs_t *r, r1cs_witness_t *w, r1cs_curve_t curve, uint32_t wires,
                    uint32_t constraints)
{
    r1cs_shape_t shape = {
        .n_wires = wires, .n_pub_in = 2, .n_constraints = constraints, .n_labels = wires};
    memset(r, 0, sizeof *r);
    r->curve = curve;
    assert_int_equal(r1cs_witness_alloc(w, curve, shape.n_wires), CUZK_OK);
    cuzk_status_t s = curve == R1CS_CURVE_BN254
                          ? bn254_r1cs_random(&r->u.bn254, w->v.bn254, &shape, 3, &test_rng)
                          : bls381_r1cs_random(&r->u.bls381, w->v.bls381, &shape, 3, &test_rng);
    assert_int_equal(s, CUZK_OK);
}

static void small_circuit(r1cs_t *r, r1cs_witness_t *w, r1cs_curve_t curve)
{
    circuit(r, w, curve, 12, 20);
}

/* ---- an allocator that counts ------------------------------------------------- */

typedef struct counting {
    int allocs, frees;
    size_t bytes;
    int mode; /* 0: aligned, 1: fail, 2: misaligned by 4 bytes */
} counting_t;

static void *counting_alloc(void *ctx, size_t bytes)
{
    counting_t *c = ctx;
    c->allocs++;
    c->bytes = bytes;
    if (c->mode == 1)
        return NULL;
    void *p = NULL;
    assert_int_equal(posix_memalign(&p, KEY_CACHE_ALIGN, bytes + 8), 0);
    return c->mode == 2 ? (unsigned char *)p + 4 : p;
}

static void counting_free(void *ctx, void *p)
{
    counting_t *c = ctx;
    c->frees++;
    free(c->mode == 2 ? (unsigned char *)p - 4 : p);
}

/* ---- helpers ----------------------------------------------------------------------- */

static char cache_path[96];

/* Reads cache_path into kc; fails the test with the message unless OK. */
static void read_ok(key_cache_t *kc, const key_cache_alloc_t *a, unsigned flags)
{
    char err[IO_ERR_MAX];
    cuzk_status_t s = key_cache_read(kc, cache_path, a, NULL, flags, err, sizeof err);
    if (s != CUZK_OK)
        fail_msg("%s (%s)", err, cuzk_strerror(s));
}

/* Writes b as cache_path, reads it and expects status st and a message
 * naming cache_path and mentioning every string of subs. */
static void expect_refused(const buf_t *b, unsigned flags, cuzk_status_t st,
                           const char *const *subs)
{
    file_put(cache_path, b);
    key_cache_t kc;
    char err[IO_ERR_MAX] = "";
    cuzk_status_t s = key_cache_read(&kc, cache_path, NULL, NULL, flags, err, sizeof err);
    if (s != st)
        fail_msg("status %s, expected %s: %s", cuzk_strerror(s), cuzk_strerror(st), err);
    assert_message(err, cache_path, subs);
    assert_null(kc.body);
}

/* The header page's checksum recomputed after an edit. */
static void reseal(buf_t *b)
{
    uint64_t sum = key_cache_checksum(b->p);
    for (int i = 0; i < 8; i++)
        b->p[KEY_CACHE_ALIGN - 8 + i] = (unsigned char)(sum >> (8 * i));
}

/* Whether every section of kc starts at a page-aligned address. */
static void assert_sections_aligned(const key_cache_t *kc)
{
    assert_int_equal((uintptr_t)kc->body % KEY_CACHE_ALIGN, 0);
    for (uint32_t i = 0; i < kc->hdr.n_sections; i++)
        assert_int_equal(kc->hdr.sections[i].offset % KEY_CACHE_ALIGN, 0);
}

/* ---- zkey ------------------------------------------------------------------------------ */

/* The proof of key k for w with r and s from seed, as proof.json text. */
static char *zkey_proof(const zkey_t *k, const r1cs_witness_t *w, uint64_t seed)
{
    rng_t rng;
    rng_seed(&rng, seed);
    groth16_prove_opts_t opts = {.rng = &rng};
    snarkjs_proof_t proof;
    r1cs_witness_t pub;
    char err[IO_ERR_MAX];
    cuzk_status_t s = groth16_prove(&proof, &pub, k, w, &opts, NULL, NULL, err, sizeof err);
    if (s != CUZK_OK)
        fail_msg("%s", err);
    groth16_key_t key = zkey_groth16_key(k);
    groth16_vk_t vk = groth16_key_vk(&key);
    bool valid = false;
    assert_int_equal(groth16_verify(&valid, &vk, &pub, &proof, NULL, err, sizeof err), CUZK_OK);
    assert_true(valid);
    r1cs_witness_free(&pub);
    char *json;
    size_t len;
    assert_int_equal(snarkjs_proof_format(&json, &len, &proof), CUZK_OK);
    return json;
}

/* A development zkey for a small circuit, as zkey_file_read gives it
 * (mapped, validated), and the circuit's witness. */
static void dev_zkey_sized(zkey_t *k, r1cs_witness_t *w, r1cs_curve_t curve, uint32_t wires,
                           uint32_t constraints)
{
    r1cs_t r;
    circuit(&r, w, curve, wires, constraints);
    zkey_t dev;
    char err[IO_ERR_MAX];
    assert_int_equal(groth16_dev_setup(&dev, &r, &test_rng, NULL), CUZK_OK);
    assert_int_equal(zkey_file_write(tmp_path, &dev, NULL, err, sizeof err), CUZK_OK);
    groth16_dev_key_free(&dev);
    r1cs_free(&r);
    if (zkey_file_read(k, tmp_path, NULL, 0, err, sizeof err) != CUZK_OK)
        fail_msg("%s", err);
    unlink(tmp_path);
}

static void dev_zkey(zkey_t *k, r1cs_witness_t *w, r1cs_curve_t curve)
{
    dev_zkey_sized(k, w, curve, 12, 20);
}

static void zkey_round_trip(r1cs_curve_t curve)
{
    zkey_t k;
    r1cs_witness_t w;
    dev_zkey(&k, &w, curve);
    char err[IO_ERR_MAX];
    assert_int_equal(key_cache_write_zkey(cache_path, &k, NULL, NULL, NULL, err, sizeof err),
                     CUZK_OK);

    counting_t count = {0};
    key_cache_alloc_t a = {counting_alloc, counting_free, &count};
    key_cache_t kc;
    read_ok(&kc, &a, KEY_CACHE_CHECK_POINTS);
    assert_int_equal(count.allocs, 1);
    assert_int_equal(count.bytes, kc.hdr.file_size - KEY_CACHE_ALIGN);
    assert_int_equal(kc.hdr.kind, KEY_CACHE_ZKEY);
    assert_int_equal(kc.hdr.curve, curve);
    assert_sections_aligned(&kc);
    const zkey_t *c = &kc.zkey;
    assert_int_equal(c->curve, k.curve);
    assert_int_equal(c->n8q, k.n8q);
    assert_int_equal(c->n_vars, k.n_vars);
    assert_int_equal(c->n_public, k.n_public);
    assert_int_equal(c->domain_size, k.domain_size);
    assert_int_equal(c->n_coeffs, k.n_coeffs);
    assert_null(c->map.data);
    assert_memory_equal(&c->u, &k.u, sizeof k.u);
    assert_memory_equal(c->coeffs, k.coeffs, (size_t)k.n_coeffs * ZKEY_COEFF_BYTES);
    static const uint32_t ids[] = {ZKEY_SECTION_IC,        ZKEY_SECTION_POINTS_A,
                                   ZKEY_SECTION_POINTS_B1, ZKEY_SECTION_POINTS_B2,
                                   ZKEY_SECTION_POINTS_C,  ZKEY_SECTION_POINTS_H};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        zkey_points_t p = zkey_points(&k, ids[i]), q = zkey_points(c, ids[i]);
        assert_int_equal(p.count, q.count);
        assert_true(zkey_points_aligned(q));
        assert_memory_equal(p.data, q.data, p.count * p.point_bytes);
    }

    /* The same proof from both keys, and it verifies. */
    uint64_t seed = rng_next(&test_rng);
    char *p1 = zkey_proof(&k, &w, seed), *p2 = zkey_proof(c, &w, seed);
    assert_string_equal(p1, p2);
    free(p1);
    free(p2);

    /* The same through a mapping (key_cache_parse). */
    buf_t b = file_bytes(cache_path);
    key_cache_t kp;
    assert_int_equal(key_cache_parse(&kp, b.p, b.n, "mapped", NULL, 0, NULL, err, sizeof err),
                     CUZK_OK);
    assert_memory_equal(kp.zkey.h, c->h, (size_t)c->domain_size * (k.n8q * 2));
    assert_false(kp.owns_body);
    key_cache_free(&kp);
    free(b.p);

    key_cache_free(&kc);
    assert_int_equal(count.frees, 1);
    assert_null(kc.body);
    key_cache_free(&kc); /* an empty cache is fine */
    zkey_free(&k);
    r1cs_witness_free(&w);
    unlink(cache_path);
}

static void test_zkey_bn254(void **state)
{
    (void)state;
    zkey_round_trip(R1CS_CURVE_BN254);
}

static void test_zkey_bls381(void **state)
{
    (void)state;
    zkey_round_trip(R1CS_CURVE_BLS12_381);
}

/* ---- params --------------------------------------------------------------------------- */

static void test_params(void **state)
{
    (void)state;
    r1cs_t r;
    r1cs_witness_t w;
    small_circuit(&r, &w, R1CS_CURVE_BLS12_381);
    bp_params_t p;
    asgn_t asg;
    void *mem;
    assert_int_equal(groth16_bp_dev_setup(&p, &r, &test_rng, NULL), CUZK_OK);
    assert_int_equal(groth16_bp_assign(&asg, &mem, &r, &w, NULL), CUZK_OK);
    char err[IO_ERR_MAX];
    assert_int_equal(key_cache_write_params(cache_path, &p, NULL, NULL, NULL, err, sizeof err),
                     CUZK_OK);

    key_cache_t kc;
    read_ok(&kc, NULL, KEY_CACHE_CHECK_POINTS);
    assert_int_equal(kc.hdr.kind, KEY_CACHE_PARAMS);
    assert_int_equal(kc.hdr.curve, R1CS_CURVE_BLS12_381);
    assert_sections_aligned(&kc);
    const bp_params_t *c = &kc.params;
    assert_null(c->mem);
    assert_int_equal(c->vk.n_ic, p.vk.n_ic);
    assert_int_equal(c->n_h, p.n_h);
    assert_int_equal(c->n_l, p.n_l);
    assert_int_equal(c->n_a, p.n_a);
    assert_int_equal(c->n_b, p.n_b);
    assert_true(bls381_g1_affine_equal(&c->vk.alpha1, &p.vk.alpha1));
    assert_true(bls381_g2_affine_equal(&c->vk.delta2, &p.vk.delta2));
    assert_memory_equal(c->vk.ic, p.vk.ic, p.vk.n_ic * sizeof *p.vk.ic);
    assert_memory_equal(c->h, p.h, p.n_h * sizeof *p.h);
    assert_memory_equal(c->l, p.l, p.n_l * sizeof *p.l);
    assert_memory_equal(c->a, p.a, p.n_a * sizeof *p.a);
    assert_memory_equal(c->b_g1, p.b_g1, p.n_b * sizeof *p.b_g1);
    assert_memory_equal(c->b_g2, p.b_g2, p.n_b * sizeof *p.b_g2);

    /* The same proof from both, and it verifies. */
    uint64_t seed = rng_next(&test_rng);
    unsigned char enc[2][BP_PROOF_BYTES];
    bp_proof_t proof;
    for (int i = 0; i < 2; i++) {
        rng_t rng;
        rng_seed(&rng, seed);
        groth16_prove_opts_t opts = {.rng = &rng};
        cuzk_status_t s =
            groth16_bp_prove(&proof, i ? c : &p, &asg, &opts, NULL, NULL, err, sizeof err);
        if (s != CUZK_OK)
            fail_msg("%s", err);
        bp_proof_encode(enc[i], &proof);
    }
    assert_memory_equal(enc[0], enc[1], BP_PROOF_BYTES);
    bls381_fr_t in[2];
    for (uint64_t i = 1; i < asg.n_inputs; i++)
        assert_true(bls381_fr_from_canonical(&in[i - 1], asg.inputs[i]));
    bool valid = false;
    assert_int_equal(groth16_bp_verify(&valid, &c->vk, in, &proof, 1, NULL, NULL, err, sizeof err),
                     CUZK_OK);
    assert_true(valid);

    key_cache_free(&kc);
    free(mem);
    bp_params_free(&p);
    r1cs_free(&r);
    r1cs_witness_free(&w);
    unlink(cache_path);
}

/* ---- corrupt files --------------------------------------------------------------------- */

/* The cache of a development zkey (curve) as bytes, with its header. */
static buf_t zkey_cache_bytes(r1cs_curve_t curve, key_cache_header_t *h)
{
    zkey_t k;
    r1cs_witness_t w;
    dev_zkey(&k, &w, curve);
    char err[IO_ERR_MAX];
    assert_int_equal(key_cache_write_zkey(cache_path, &k, NULL, NULL, NULL, err, sizeof err),
                     CUZK_OK);
    assert_int_equal(key_cache_probe(h, cache_path, err, sizeof err), CUZK_OK);
    zkey_free(&k);
    r1cs_witness_free(&w);
    return file_bytes(cache_path);
}

static void test_truncated(void **state)
{
    (void)state;
    key_cache_header_t h;
    buf_t good = zkey_cache_bytes(R1CS_CURVE_BN254, &h);
    assert_int_equal(good.n, h.file_size);
    assert_int_equal(h.n_sections, 7);
    /* Cut at the start and in the middle of every section: the message
     * names the first section that does not fit. */
    for (uint32_t i = 0; i < h.n_sections; i++) {
        const key_cache_section_t *s = &h.sections[i];
        if (!s->bytes)
            continue;
        const char *name = key_cache_section_name(KEY_CACHE_ZKEY, s->id);
        char sec[32];
        snprintf(sec, sizeof sec, "section %s: truncated", name);
        const char *subs[] = {sec, NULL};
        uint64_t cuts[2] = {s->offset, s->offset + s->bytes - 1};
        for (int c = 0; c < 2; c++) {
            buf_t b = buf_copy(&good, (size_t)cuts[c]);
            expect_refused(&b, 0, CUZK_EBADFILE, subs);
            free(b.p);
        }
    }
    /* Inside the header page, and an empty file. */
    const char *hdr[] = {"header: truncated", NULL};
    buf_t b = buf_copy(&good, 100);
    expect_refused(&b, 0, CUZK_EBADFILE, hdr);
    free(b.p);
    const char *magic[] = {"not a cuzk key cache", NULL};
    b = buf_copy(&good, 0);
    expect_refused(&b, 0, CUZK_EBADFILE, magic);
    free(b.p);
    /* One page too many. */
    const char *ext[] = {"4096 bytes left over after section h", NULL};
    b = buf_copy(&good, good.n + KEY_CACHE_ALIGN);
    expect_refused(&b, 0, CUZK_EBADFILE, ext);
    free(b.p);
    free(good.p);
    unlink(cache_path);
}

static void test_bad_header(void **state)
{
    (void)state;
    key_cache_header_t h;
    buf_t good = zkey_cache_bytes(R1CS_CURVE_BLS12_381, &h);

    buf_t b = buf_copy(&good, good.n);
    b.p[0] = 'C';
    const char *magic[] = {"not a cuzk key cache", NULL};
    expect_refused(&b, 0, CUZK_EBADFILE, magic);
    free(b.p);

    b = buf_copy(&good, good.n);
    b.p[8] = 2; /* version */
    const char *version[] = {"version 2", "reads version 1", NULL};
    expect_refused(&b, 0, CUZK_EUNSUPPORTED, version);
    free(b.p);

    /* Any damaged byte of the page: the checksum. */
    static const size_t at[] = {12, 40, 200, 1030, 3000, KEY_CACHE_ALIGN - 1};
    const char *sum[] = {"header: checksum", "damaged", NULL};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        b = buf_copy(&good, good.n);
        b.p[at[i]] ^= 0x10;
        expect_refused(&b, 0, CUZK_EBADFILE, sum);
        free(b.p);
    }

    /* A consistent header that lies: counts, table, kind, curve, size. */
    b = buf_copy(&good, good.n);
    b.p[44] ^= 1; /* nPublic */
    reseal(&b);
    const char *counts[] = {"header: ", NULL};
    expect_refused(&b, 0, CUZK_EBADFILE, counts);
    free(b.p);

    b = buf_copy(&good, good.n);
    b.p[1024 + 2 * KEY_CACHE_SECTION_BYTES + 16] ^= 0x10; /* offset of section a */
    reseal(&b);
    const char *table[] = {"section table entry 2 (a): offset", NULL};
    expect_refused(&b, 0, CUZK_EBADFILE, table);
    free(b.p);

    b = buf_copy(&good, good.n);
    b.p[12] = 2; /* kind params over a zkey's header */
    reseal(&b);
    expect_refused(&b, 0, CUZK_EBADFILE, counts);
    free(b.p);

    b = buf_copy(&good, good.n);
    b.p[16] = 3; /* curve */
    reseal(&b);
    const char *curve[] = {"curve 3", NULL};
    expect_refused(&b, 0, CUZK_EBADFILE, curve);
    free(b.p);

    /* alpha1 moved off the curve (its y's low byte). */
    b = buf_copy(&good, good.n);
    b.p[128 + 48] ^= 1;
    reseal(&b);
    const char *alpha[] = {"header: alpha1", NULL};
    file_put(cache_path, &b);
    key_cache_t kc;
    char err[IO_ERR_MAX];
    cuzk_status_t s = key_cache_read(&kc, cache_path, NULL, NULL, 0, err, sizeof err);
    assert_true(s == CUZK_ENOTONCURVE || s == CUZK_ENONCANONICAL);
    assert_message(err, cache_path, alpha);
    free(b.p);
    free(good.p);
    unlink(cache_path);
}

static void test_bad_body(void **state)
{
    (void)state;
    key_cache_header_t h;
    buf_t good = zkey_cache_bytes(R1CS_CURVE_BN254, &h);
    const key_cache_section_t *ic = &h.sections[0], *coeffs = &h.sections[1], *a = &h.sections[2];

    /* IC is part of the verifying key: always checked. */
    buf_t b = buf_copy(&good, good.n);
    b.p[ic->offset + 40] ^= 1;
    const char *icm[] = {"section ic: point 0", NULL};
    file_put(cache_path, &b);
    key_cache_t kc;
    char err[IO_ERR_MAX];
    assert_int_not_equal(key_cache_read(&kc, cache_path, NULL, NULL, 0, err, sizeof err), CUZK_OK);
    assert_message(err, cache_path, icm);
    free(b.p);

    /* Coefficients index arrays: always checked. */
    assert_true(coeffs->count > 1);
    b = buf_copy(&good, good.n);
    b.p[coeffs->offset + ZKEY_COEFF_BYTES + 8] = 0xff; /* wire s of entry 1 */
    const char *cm[] = {"section coeffs: coefficient 1", "wire s", NULL};
    expect_refused(&b, 0, CUZK_EBADFILE, cm);
    free(b.p);

    /* A query point: trusted unless KEY_CACHE_CHECK_POINTS. */
    b = buf_copy(&good, good.n);
    b.p[a->offset + 3 * a->item_bytes + 5] ^= 1;
    file_put(cache_path, &b);
    read_ok(&kc, NULL, 0);
    key_cache_free(&kc);
    const char *am[] = {"section a: point 3", NULL};
    assert_int_not_equal(
        key_cache_read(&kc, cache_path, NULL, NULL, KEY_CACHE_CHECK_POINTS, err, sizeof err),
        CUZK_OK);
    assert_message(err, cache_path, am);
    free(b.p);
    free(good.p);
    unlink(cache_path);
}

/* The section with this id in h (it must have one). */
static const key_cache_section_t *section_of(const key_cache_header_t *h, uint32_t id)
{
    const key_cache_section_t *sec = &h->sections[0];
    for (uint32_t i = 0; i < h->n_sections; i++)
        if (h->sections[i].id == id)
            sec = &h->sections[i];
    assert_int_equal(sec->id, id);
    return sec;
}

/*
 * Query points outside the subgroup in a key large enough for the batch
 * checks (NAME_msm_subgroup_check): found and named with
 * KEY_CACHE_CHECK_POINTS, trusted without.
 */
static void test_outside_subgroup(void **state)
{
    (void)state;
    msm_sg_plan_t plan;
    msm_sg_plan(&plan, 1500, 1);
    assert_true(plan.t > 0);
    zkey_t k;
    r1cs_witness_t w;
    dev_zkey_sized(&k, &w, R1CS_CURVE_BLS12_381, 1500, 2000);
    char err[IO_ERR_MAX];
    assert_int_equal(key_cache_write_zkey(cache_path, &k, NULL, NULL, NULL, err, sizeof err),
                     CUZK_OK);
    zkey_free(&k);
    r1cs_witness_free(&w);
    key_cache_header_t h;
    assert_int_equal(key_cache_probe(&h, cache_path, err, sizeof err), CUZK_OK);
    buf_t good = file_bytes(cache_path);
    key_cache_t kc;
    read_ok(&kc, NULL, KEY_CACHE_CHECK_POINTS);
    key_cache_free(&kc);
    const key_cache_section_t *sec_h = section_of(&h, KEY_CACHE_SECTION_H),
                              *sec_b2 = section_of(&h, KEY_CACHE_SECTION_B2);
    for (int g2 = 0; g2 < 2; g2++) {
        const key_cache_section_t *sec = g2 ? sec_b2 : sec_h;
        uint32_t at = g2 ? 700 : 1000;
        assert_true(at < sec->count);
        buf_t b = buf_copy(&good, good.n);
        unsigned char *p = b.p + sec->offset + (size_t)at * sec->item_bytes;
        non_subgroup_bytes(R1CS_CURVE_BLS12_381, g2, p);
        file_put(cache_path, &b);
        read_ok(&kc, NULL, 0);
        key_cache_free(&kc);
        char says[48];
        snprintf(says, sizeof says, "section %s: point %" PRIu32 " is not in", g2 ? "b2" : "h", at);
        const char *m[] = {says, NULL};
        expect_refused(&b, KEY_CACHE_CHECK_POINTS, CUZK_ENOTINSUBGROUP, m);
        free(b.p);
    }
    /* h[1000] off the curve: named as such (the points before it checked
     * in batches); with b2[700], an earlier section, outside the subgroup
     * too, b2[700] is named. */
    buf_t b = buf_copy(&good, good.n);
    b.p[sec_h->offset + 1000 * sec_h->item_bytes + 5] ^= 1;
    const char *off_curve[] = {"section h: point 1000 is not on the curve", NULL};
    expect_refused(&b, KEY_CACHE_CHECK_POINTS, CUZK_ENOTONCURVE, off_curve);
    non_subgroup_bytes(R1CS_CURVE_BLS12_381, true, b.p + sec_b2->offset + 700 * sec_b2->item_bytes);
    const char *b2[] = {"section b2: point 700 is not in", NULL};
    expect_refused(&b, KEY_CACHE_CHECK_POINTS, CUZK_ENOTINSUBGROUP, b2);
    free(b.p);
    free(good.p);
    unlink(cache_path);
}

/* ---- the allocator and the writer ------------------------------------------------------ */

static void test_allocator_failures(void **state)
{
    (void)state;
    key_cache_header_t h;
    buf_t good = zkey_cache_bytes(R1CS_CURVE_BN254, &h);
    free(good.p);
    char err[IO_ERR_MAX];
    key_cache_t kc;
    counting_t none = {.mode = 1};
    key_cache_alloc_t a = {counting_alloc, counting_free, &none};
    assert_int_equal(key_cache_read(&kc, cache_path, &a, NULL, 0, err, sizeof err), CUZK_ENOMEM);
    assert_int_equal(none.allocs, 1);
    assert_int_equal(none.frees, 0);
    counting_t odd = {.mode = 2};
    a.ctx = &odd;
    assert_int_equal(key_cache_read(&kc, cache_path, &a, NULL, 0, err, sizeof err), CUZK_EINVAL);
    assert_non_null(strstr(err, "not 8-byte aligned"));
    assert_int_equal(odd.allocs, 1);
    assert_int_equal(odd.frees, 1);
    unlink(cache_path);
}

static void test_writer_failures(void **state)
{
    (void)state;
    zkey_t k;
    r1cs_witness_t w;
    dev_zkey(&k, &w, R1CS_CURVE_BN254);
    char err[IO_ERR_MAX];
    /* A directory that does not exist: nothing is left anywhere. */
    char bad[160];
    snprintf(bad, sizeof bad, "%s.missing/key.cuzkkey", cache_path);
    assert_int_equal(key_cache_write_zkey(bad, &k, NULL, NULL, NULL, err, sizeof err), CUZK_EIO);
    assert_non_null(strstr(err, "does not exist"));
    /* A key the reader would refuse is not written. */
    zkey_t odd = k;
    odd.domain_size = 3;
    assert_int_equal(key_cache_write_zkey(cache_path, &odd, NULL, NULL, NULL, err, sizeof err),
                     CUZK_EINVAL);
    assert_non_null(strstr(err, "domainSize = 3"));
    odd = k;
    odd.h = NULL;
    assert_int_equal(key_cache_write_zkey(cache_path, &odd, NULL, NULL, NULL, err, sizeof err),
                     CUZK_EINVAL);
    assert_non_null(strstr(err, "section h"));
    struct stat sb;
    assert_int_not_equal(stat(cache_path, &sb), 0);
    /* Writing over an existing cache replaces it whole. */
    assert_int_equal(key_cache_write_zkey(cache_path, &k, NULL, NULL, NULL, err, sizeof err),
                     CUZK_OK);
    assert_int_equal(key_cache_write_zkey(cache_path, &k, NULL, NULL, NULL, err, sizeof err),
                     CUZK_OK);
    key_cache_t kc;
    read_ok(&kc, NULL, 0);
    key_cache_free(&kc);
    bp_params_t p = {0};
    assert_int_equal(key_cache_write_params(cache_path, &p, NULL, NULL, NULL, err, sizeof err),
                     CUZK_EINVAL);
    assert_non_null(strstr(err, "ic_len = 0"));
    zkey_free(&k);
    r1cs_witness_free(&w);
    unlink(cache_path);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_zkey_bn254),       cmocka_unit_test(test_zkey_bls381),
    cmocka_unit_test(test_params),           cmocka_unit_test(test_truncated),
    cmocka_unit_test(test_bad_header),       cmocka_unit_test(test_bad_body),
    cmocka_unit_test(test_outside_subgroup), cmocka_unit_test(test_allocator_failures),
    cmocka_unit_test(test_writer_failures),
};

int main(void)
{
    test_seed_init("test_key_cache");
    set_tmp_path("key_cache_zkey");
    snprintf(cache_path, sizeof cache_path, "/tmp/cuzk_test_key_cache_%ld.cuzkkey", (long)getpid());
    return cmocka_run_group_tests(tests, NULL, NULL);
}
