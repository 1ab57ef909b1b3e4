/*
 * The GPU partition prover (src/engine/engine_gpu.c) against the CPU prover:
 * with the same seeded r and s, a proof made on the device must be the CPU's
 * proof byte for byte (and it verifies, since groth16_prove checks it). For
 * snarkjs keys on both curves and for bellperson parameters, on circuits of
 * porep32's proportions (90 % bit-valued witness entries: many zero and one
 * scalars, so the ones sums and the cleared scalars are exercised) and of
 * random shapes, with the key's queries resident on the device, streamed
 * from pinned memory, and read in place from the host key (mapped, through
 * bounce buffers); a slot reused across keys, and slots that share a
 * pinned pool (its buffers come back and are reused); a witness that does
 * not satisfy the circuit is refused by the self-verification. Bellperson
 * assignments also from pinned memory, all of their arrays or some: the
 * same proof, and no staging buffer taken when all are pinned. The slots'
 * device memory under a limit that holds one partition: two slots proving
 * at once take turns (one waits, or takes back the idle one's memory), the
 * proofs stay right and the slots never hold more than the limit; under a
 * limit below one partition, the partition fails with CUZK_ENOMEM and a
 * message. Partitions of small keys on four slots at once compute side by
 * side, each proof still the CPU's. Skips, saying why, when CUDA is not
 * built or no GPU is present.
 */
#include <pthread.h>
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
#include "engine/engine_pinned.h"
#include "io/params_file.h"
#include "io/snarkjs_json.h"
#include "io/zkey_file.h"
#include "groth16/groth16.h"
#include "io/io_error.h"
#include "r1cs/r1cs.h"

#include "test_gpu_dev.h"

/* A porep32-shaped circuit of n rows (or a denser random shape). */
static void circuit(r1cs_t *r, r1cs_witness_t *w, r1cs_curve_t curve, uint32_t n, bool porep)
{
    r1cs_gen_params_t p = r1cs_gen_porep32(n);
    if (!porep) {
        p.n_public = 1 + (uint32_t)(rng_next(&test_rng) % 5);
        p.n_public = p.n_public > n / 2 ? n / 2 : p.n_public;
        p.nnz_a = 3.5;
        p.nnz_b = 2.0;
        p.nnz_c = 3.0;
        p.bits = 0.3;
        p.b_share = 1.0;
    }
    assert_int_equal(r1cs_generate(r, w, curve, &p, &test_rng), CUZK_OK);
}

/* The CPU's proof and the device's, from the same seed, for a zkey. */
static void zkey_case(r1cs_curve_t curve, uint32_t n, bool porep, engine_gpu_tier_t tier,
                      engine_gpu_slot_t *slot)
{
    r1cs_t r;
    r1cs_witness_t w, pub_cpu = {0}, pub_gpu = {0};
    circuit(&r, &w, curve, n, porep);
    zkey_t k;
    assert_int_equal(groth16_dev_setup(&k, &r, &test_rng, NULL), CUZK_OK);
    engine_gpu_key_t *gk = NULL;
    char err[IO_ERR_MAX] = "";
    groth16_key_t view = zkey_groth16_key(&k);
    if (engine_gpu_key_new(&gk, dev, &view, tier, 0, 1, err, sizeof err) != CUZK_OK)
        fail_msg("device key: %s", err);
    assert_int_equal(engine_gpu_key_tier(gk), tier);

    uint64_t seed = rng_next(&test_rng);
    rng_t ra, rb;
    rng_seed(&ra, seed);
    rng_seed(&rb, seed);
    snarkjs_proof_t pc, pg;
    groth16_prove_opts_t cpu = {.rng = &ra};
    assert_int_equal(groth16_prove(&pc, &pub_cpu, &k, &w, &cpu, NULL, NULL, err, sizeof err),
                     CUZK_OK);
    engine_gpu_accel_t acc = {.slot = slot, .key = gk};
    groth16_accel_t table = engine_gpu_accel(&acc);
    groth16_prove_opts_t gpu = {.rng = &rb, .accel = &table};
    groth16_timings_t t;
    if (groth16_prove(&pg, &pub_gpu, &k, &w, &gpu, &t, NULL, err, sizeof err) != CUZK_OK)
        fail_msg("%s %u rows (%s, %s): %s", r1cs_curve_name(curve), n, porep ? "porep" : "random",
                 engine_gpu_tier_name(tier), err);
    char *jc = NULL, *jg = NULL;
    size_t len;
    assert_int_equal(snarkjs_proof_format(&jc, &len, &pc), CUZK_OK);
    assert_int_equal(snarkjs_proof_format(&jg, &len, &pg), CUZK_OK);
    bool same = strcmp(jc, jg) == 0;
    free(jc);
    free(jg);
    if (!same)
        fail_msg("%s %u rows (%s, %s): the device's proof differs from the CPU's",
                 r1cs_curve_name(curve), n, porep ? "porep" : "random", engine_gpu_tier_name(tier));
    assert_true(acc.stats.h2d_bytes >= (uint64_t)w.n * 32);
    assert_int_equal(acc.stats.pageable_bytes, 0);

    /* A witness that does not satisfy the circuit (a value changed where
     * the circuit notices: not every change breaks a row): refused. */
    r1cs_witness_t bad = {0};
    assert_int_equal(r1cs_witness_alloc(&bad, curve, w.n), CUZK_OK);
    size_t fr = curve == R1CS_CURVE_BN254 ? sizeof(bn254_fr_t) : sizeof(bls381_fr_t);
    void *bv = curve == R1CS_CURVE_BN254 ? (void *)bad.v.bn254 : (void *)bad.v.bls381;
    const void *wv = curve == R1CS_CURVE_BN254 ? (void *)w.v.bn254 : (void *)w.v.bls381;
    uint32_t first_bad = 0;
    bool broken = false;
    for (uint32_t j = w.n - 1; j >= 1 && !broken; j--) {
        memcpy(bv, wv, fr * w.n);
        unsigned char *x = (unsigned char *)bv + fr * j;
        if (curve == R1CS_CURVE_BN254)
            bn254_fr_add((bn254_fr_t *)x, (bn254_fr_t *)x, &bad.v.bn254[0]);
        else
            bls381_fr_add((bls381_fr_t *)x, (bls381_fr_t *)x, &bad.v.bls381[0]);
        broken = r1cs_check(NULL, &r, &bad, &first_bad) == CUZK_EWITNESS;
    }
    assert_true(broken);
    r1cs_witness_t pub_bad = {0};
    assert_int_equal(groth16_prove(&pg, &pub_bad, &k, &bad, &gpu, NULL, NULL, err, sizeof err),
                     CUZK_EWITNESS);

    r1cs_witness_free(&bad);
    r1cs_witness_free(&pub_cpu);
    r1cs_witness_free(&pub_gpu);
    engine_gpu_key_free(gk);
    groth16_dev_key_free(&k);
    r1cs_witness_free(&w);
    r1cs_free(&r);
}

static void test_zkey(void **state)
{
    (void)state;
    REQUIRE_GPU();
    engine_gpu_slot_t *slot = NULL;
    char err[IO_ERR_MAX];
    if (engine_gpu_slot_new(&slot, dev, NULL, err, sizeof err) != CUZK_OK)
        fail_msg("%s", err);
    static const uint32_t sizes[] = {2, 3, 17, 200, 1000, 5000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int c = 0; c < 2; c++) {
            r1cs_curve_t curve = c ? R1CS_CURVE_BLS12_381 : R1CS_CURVE_BN254;
            zkey_case(curve, sizes[i], true, ENGINE_GPU_TIER_DEVICE, slot);
            zkey_case(curve, sizes[i], false, ENGINE_GPU_TIER_DEVICE, slot);
            zkey_case(curve, sizes[i], true, ENGINE_GPU_TIER_PINNED, slot);
            zkey_case(curve, sizes[i], true, ENGINE_GPU_TIER_MAPPED, slot);
        }
    }
    engine_gpu_slot_free(slot);
}

/* The arrays of an assignment, in the order of their bits in a mask: a, b,
 * c, inputs, aux, a_aux_density, b_input_density, b_aux_density. */
enum { ASGN_ARRAYS = 8, ASGN_ALL = (1 << ASGN_ARRAYS) - 1 };

/* A copy of an assignment whose arrays each have a block of their own:
 * pinned (gpu_host_alloc) where the mask's bit is set, else malloc'd. */
typedef struct {
    asgn_t a;
    void *blk[ASGN_ARRAYS];
    unsigned pinned;
} asgn_copy_t;

static void asgn_copy_make(asgn_copy_t *c, const asgn_t *src, unsigned pinned)
{
    gpu_t g = *engine_gpu_dev_gpu(dev);
    size_t rows = src->n_constraints * 32, aux_bits = asgn_words(src->n_aux) * 8;
    const void *from[ASGN_ARRAYS] = {src->a,
                                     src->b,
                                     src->c,
                                     src->inputs,
                                     src->aux,
                                     src->a_aux_density,
                                     src->b_input_density,
                                     src->b_aux_density};
    size_t bytes[ASGN_ARRAYS] = {rows,
                                 rows,
                                 rows,
                                 src->n_inputs * 32,
                                 src->n_aux * 32,
                                 aux_bits,
                                 asgn_words(src->n_inputs) * 8,
                                 aux_bits};
    memset(c, 0, sizeof *c);
    c->a = *src;
    memset(&c->a.map, 0, sizeof c->a.map);
    c->pinned = pinned;
    for (int i = 0; i < ASGN_ARRAYS; i++) {
        if (pinned >> i & 1) {
            if (gpu_host_alloc(&g, &c->blk[i], bytes[i] + 1) != CUZK_OK)
                fail_msg("pinning an array: %s", g.err);
        } else {
            c->blk[i] = malloc(bytes[i] + 1);
            assert_non_null(c->blk[i]);
        }
        if (bytes[i])
            memcpy(c->blk[i], from[i], bytes[i]);
    }
    c->a.a = c->blk[0];
    c->a.b = c->blk[1];
    c->a.c = c->blk[2];
    c->a.inputs = c->blk[3];
    c->a.aux = c->blk[4];
    c->a.a_aux_density = c->blk[5];
    c->a.b_input_density = c->blk[6];
    c->a.b_aux_density = c->blk[7];
}

static void asgn_copy_free(asgn_copy_t *c)
{
    for (int i = 0; i < ASGN_ARRAYS; i++) {
        if (c->pinned >> i & 1)
            gpu_host_free(c->blk[i]);
        else
            free(c->blk[i]);
    }
}

/* The same for bellperson parameters and assignments: the assignment as
 * groth16_bp_assign leaves it (pageable: through the staging buffer), then
 * copies of it with every array pinned (uploaded straight from them, the
 * scalars of A and B selected on the device) and with some pinned (a mix
 * of both). pool (NULL: none) is slot's: an assignment all pinned takes no
 * staging buffer from it. */
/* A bellperson circuit of n rows (porep32-shaped or random), its INSECURE
 * key, its assignment and the key on the device in tier. */
typedef struct {
    r1cs_t r;
    r1cs_witness_t w;
    bp_params_t p;
    asgn_t a;
    void *mem;
    engine_gpu_key_t *gk;
} params_fix_t;

static void params_fix_make(params_fix_t *f, uint32_t n, bool porep, engine_gpu_tier_t tier)
{
    memset(f, 0, sizeof *f);
    circuit(&f->r, &f->w, R1CS_CURVE_BLS12_381, n, porep);
    assert_int_equal(groth16_bp_dev_setup(&f->p, &f->r, &test_rng, NULL), CUZK_OK);
    assert_int_equal(groth16_bp_assign(&f->a, &f->mem, &f->r, &f->w, NULL), CUZK_OK);
    char err[IO_ERR_MAX] = "";
    groth16_key_t view = bp_params_groth16_key(&f->p);
    if (engine_gpu_key_new(&f->gk, dev, &view, tier, 0, 1, err, sizeof err) != CUZK_OK)
        fail_msg("device key: %s", err);
}

static void params_fix_free(params_fix_t *f)
{
    engine_gpu_key_free(f->gk);
    free(f->mem);
    bp_params_free(&f->p);
    r1cs_witness_free(&f->w);
    r1cs_free(&f->r);
}

static void params_case(uint32_t n, bool porep, engine_gpu_tier_t tier, engine_gpu_slot_t *slot,
                        engine_pinned_t *pool)
{
    params_fix_t f;
    params_fix_make(&f, n, porep, tier);
    char err[IO_ERR_MAX] = "";

    uint64_t seed = rng_next(&test_rng);
    rng_t ra, rb;
    rng_seed(&ra, seed);
    rng_seed(&rb, seed);
    bp_proof_t pc, pg;
    groth16_prove_opts_t cpu = {.rng = &ra};
    assert_int_equal(groth16_bp_prove(&pc, &f.p, &f.a, &cpu, NULL, NULL, err, sizeof err), CUZK_OK);
    engine_gpu_accel_t acc = {.slot = slot, .key = f.gk};
    groth16_accel_t table = engine_gpu_accel(&acc);
    groth16_prove_opts_t gpu = {.rng = &rb, .accel = &table};
    if (groth16_bp_prove(&pg, &f.p, &f.a, &gpu, NULL, NULL, err, sizeof err) != CUZK_OK)
        fail_msg("params %u rows (%s, %s): %s", n, porep ? "porep" : "random",
                 engine_gpu_tier_name(tier), err);
    if (memcmp(&pc, &pg, sizeof pc) != 0)
        fail_msg("params %u rows (%s, %s): the device's proof differs from the CPU's", n,
                 porep ? "porep" : "random", engine_gpu_tier_name(tier));
    assert_int_equal(acc.stats.pageable_bytes, 0);
    uint64_t h2d = acc.stats.h2d_bytes;

    unsigned masks[3] = {ASGN_ALL, 0, 0};
    masks[1] = (unsigned)(rng_next(&test_rng) % ASGN_ALL); /* some pinned, never all */
    masks[2] = masks[1] ^ ASGN_ALL;
    for (int i = 0; i < 3; i++) {
        asgn_copy_t copy;
        asgn_copy_make(&copy, &f.a, masks[i]);
        engine_pinned_counters_t before, after;
        if (pool)
            engine_pinned_counters(pool, &before);
        rng_seed(&rb, seed);
        if (groth16_bp_prove(&pg, &f.p, &copy.a, &gpu, NULL, NULL, err, sizeof err) != CUZK_OK)
            fail_msg("params %u rows (%s, %s), arrays 0x%02x pinned: %s", n,
                     porep ? "porep" : "random", engine_gpu_tier_name(tier), masks[i], err);
        if (memcmp(&pc, &pg, sizeof pc) != 0)
            fail_msg("params %u rows (%s, %s), arrays 0x%02x pinned: the device's proof differs "
                     "from the CPU's",
                     n, porep ? "porep" : "random", engine_gpu_tier_name(tier), masks[i]);
        assert_int_equal(acc.stats.h2d_bytes, h2d);
        assert_int_equal(acc.stats.pageable_bytes, 0);
        if (pool && masks[i] == ASGN_ALL) {
            engine_pinned_counters(pool, &after);
            assert_int_equal(after.hits + after.misses, before.hits + before.misses);
        }
        asgn_copy_free(&copy);
    }

    params_fix_free(&f);
}

static void test_params(void **state)
{
    (void)state;
    REQUIRE_GPU();
    engine_gpu_slot_t *slot = NULL;
    char err[IO_ERR_MAX];
    if (engine_gpu_slot_new(&slot, dev, NULL, err, sizeof err) != CUZK_OK)
        fail_msg("%s", err);
    static const uint32_t sizes[] = {2, 5, 100, 1000, 4000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        params_case(sizes[i], true, ENGINE_GPU_TIER_DEVICE, slot, NULL);
        params_case(sizes[i], false, ENGINE_GPU_TIER_DEVICE, slot, NULL);
        params_case(sizes[i], true, ENGINE_GPU_TIER_PINNED, slot, NULL);
        params_case(sizes[i], true, ENGINE_GPU_TIER_MAPPED, slot, NULL);
    }
    engine_gpu_slot_free(slot);
}

static cuzk_status_t pinned_alloc(void *ctx, void **p, size_t bytes, char *err, size_t err_size)
{
    (void)ctx;
    gpu_t g = *engine_gpu_dev_gpu(dev);
    cuzk_status_t s = gpu_host_alloc(&g, p, bytes);
    if (s != CUZK_OK)
        snprintf(err, err_size, "%s", g.err);
    return s;
}

static void pinned_free(void *ctx, void *p)
{
    (void)ctx;
    gpu_host_free(p);
}

/* Two slots sharing a pinned pool: the staging buffer goes back to the
 * pool after each partition and the next one reuses it; a params
 * partition whose assignment is all in pinned memory takes none. */
static void test_pool(void **state)
{
    (void)state;
    REQUIRE_GPU();
    engine_pinned_alloc_t pa = {NULL, pinned_alloc, pinned_free};
    engine_pinned_t *pool = engine_pinned_new(&pa, 0);
    assert_non_null(pool);
    engine_gpu_slot_t *a = NULL, *b = NULL;
    char err[IO_ERR_MAX];
    if (engine_gpu_slot_new(&a, dev, pool, err, sizeof err) != CUZK_OK ||
        engine_gpu_slot_new(&b, dev, pool, err, sizeof err) != CUZK_OK)
        fail_msg("%s", err);
    for (int i = 0; i < 4; i++)
        zkey_case(i % 2 ? R1CS_CURVE_BN254 : R1CS_CURVE_BLS12_381, 300, true,
                  ENGINE_GPU_TIER_DEVICE, i < 2 ? a : b);
    for (int i = 0; i < 4; i++)
        params_case(i % 2 ? 300 : 1000, true, ENGINE_GPU_TIER_DEVICE, i < 2 ? a : b, pool);
    engine_pinned_counters_t c;
    engine_pinned_counters(pool, &c);
    assert_int_equal(c.buffers_in_use, 0);
    assert_true(c.hits > 0);
    assert_true(c.misses >= 1);
    engine_gpu_slot_free(a);
    engine_gpu_slot_free(b);
    engine_pinned_free(pool);
}

/* One thread of test_device_memory and test_side_by_side: `rounds` proofs of one witness on its
 * slot, each compared with the CPU's (snarkjs' JSON of a zkey proof, the
 * 192 bytes of a bellperson one). */
typedef struct {
    engine_gpu_slot_t *slot;
    const engine_gpu_key_t *key;
    const zkey_t *zk;
    const r1cs_witness_t *w;
    const char *want_json;
    const params_fix_t *pf;
    const bp_proof_t *want_bp;
    uint64_t seed;
    int rounds, wrong;
    cuzk_status_t status;
    char err[IO_ERR_MAX];
} side_run_t;

static void *side_run(void *arg)
{
    side_run_t *r = arg;
    engine_gpu_accel_t acc = {.slot = r->slot, .key = r->key};
    groth16_accel_t table = engine_gpu_accel(&acc);
    for (int i = 0; i < r->rounds && r->status == CUZK_OK; i++) {
        rng_t rng;
        rng_seed(&rng, r->seed);
        groth16_prove_opts_t gpu = {.rng = &rng, .accel = &table};
        if (r->zk) {
            snarkjs_proof_t p;
            r1cs_witness_t pub = {0};
            r->status =
                groth16_prove(&p, &pub, r->zk, r->w, &gpu, NULL, NULL, r->err, sizeof r->err);
            r1cs_witness_free(&pub);
            char *j = NULL;
            size_t len;
            if (r->status == CUZK_OK && snarkjs_proof_format(&j, &len, &p) == CUZK_OK)
                r->wrong += strcmp(j, r->want_json) != 0;
            free(j);
        } else {
            bp_proof_t p;
            r->status =
                groth16_bp_prove(&p, &r->pf->p, &r->pf->a, &gpu, NULL, NULL, r->err, sizeof r->err);
            if (r->status == CUZK_OK)
                r->wrong += memcmp(&p, r->want_bp, sizeof p) != 0;
        }
    }
    return NULL;
}

static void test_device_memory(void **state)
{
    (void)state;
    REQUIRE_GPU();
    params_fix_t f;
    params_fix_make(&f, 3000, true, ENGINE_GPU_TIER_DEVICE);
    char err[IO_ERR_MAX] = "";
    uint64_t seed = rng_next(&test_rng);
    rng_t rc;
    rng_seed(&rc, seed);
    bp_proof_t want;
    groth16_prove_opts_t cpu = {.rng = &rc};
    assert_int_equal(groth16_bp_prove(&want, &f.p, &f.a, &cpu, NULL, NULL, err, sizeof err),
                     CUZK_OK);

    uint64_t part = engine_gpu_slot_bytes(f.gk);
    engine_gpu_mem_t m0, m;
    engine_gpu_dev_mem(dev, &m0);
    assert_int_equal(m0.held, 0); /* the other tests' slots are gone */
    engine_gpu_dev_set_slot_limit(dev, part + part / 2);
    engine_gpu_slot_t *slot[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++)
        if (engine_gpu_slot_new(&slot[i], dev, NULL, err, sizeof err) != CUZK_OK)
            fail_msg("%s", err);
    side_run_t run[2];
    pthread_t th[2];
    for (int i = 0; i < 2; i++) {
        run[i] = (side_run_t){
            .slot = slot[i], .key = f.gk, .pf = &f, .want_bp = &want, .seed = seed, .rounds = 4};
        assert_int_equal(pthread_create(&th[i], NULL, side_run, &run[i]), 0);
    }
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < 2; i++) {
        if (run[i].status != CUZK_OK)
            fail_msg("slot %d under a limit of 1.5 partitions: %s", i, run[i].err);
        assert_int_equal(run[i].wrong, 0);
    }
    engine_gpu_dev_mem(dev, &m);
    printf("device memory: %llu bytes a partition, limit %llu, peak %llu, %llu waits, %llu "
           "taken back\n",
           (unsigned long long)part, (unsigned long long)m.limit, (unsigned long long)m.peak,
           (unsigned long long)(m.waits - m0.waits),
           (unsigned long long)(m.reclaims - m0.reclaims));
    assert_true(m.peak <= m.limit);
    assert_true(m.peak >= part);
    assert_true(m.waits + m.reclaims > m0.waits + m0.reclaims);

    /* A limit below one partition: it fails at once, saying why, and
     * leaves the slot usable when the limit goes. */
    engine_gpu_dev_set_slot_limit(dev, part / 2);
    engine_gpu_accel_t acc = {.slot = slot[0], .key = f.gk};
    groth16_accel_t table = engine_gpu_accel(&acc);
    rng_t rg;
    rng_seed(&rg, seed);
    groth16_prove_opts_t gpu = {.rng = &rg, .accel = &table};
    bp_proof_t got;
    assert_int_equal(groth16_bp_prove(&got, &f.p, &f.a, &gpu, NULL, NULL, err, sizeof err),
                     CUZK_ENOMEM);
    if (!strstr(err, "device_work_limit"))
        fail_msg("the refusal does not name the limit: %s", err);
    engine_gpu_dev_set_slot_limit(dev, 0);
    rng_seed(&rg, seed);
    if (groth16_bp_prove(&got, &f.p, &f.a, &gpu, NULL, NULL, err, sizeof err) != CUZK_OK)
        fail_msg("after the limit went: %s", err);
    assert_memory_equal(&got, &want, sizeof got);

    for (int i = 0; i < 2; i++)
        engine_gpu_slot_free(slot[i]);
    engine_gpu_dev_mem(dev, &m);
    assert_int_equal(m.held, 0);
    params_fix_free(&f);
}

/* What the device key refuses from a Groth16 key (engine_gpu_key_new,
 * engine_gpu_key_blank): a convention the device does not prove in,
 * counts that disagree with the convention, a blank key that would need
 * coefficients; and an accelerator whose device holds another key than
 * the one proved with refuses it rather than proving with the wrong one. */
static void test_key_refusals(void **state)
{
    (void)state;
    REQUIRE_GPU();
    r1cs_t r;
    r1cs_witness_t w, pub = {0};
    circuit(&r, &w, R1CS_CURVE_BLS12_381, 50, true);
    zkey_t z;
    bp_params_t p;
    assert_int_equal(groth16_dev_setup(&z, &r, &test_rng, NULL), CUZK_OK);
    assert_int_equal(groth16_bp_dev_setup(&p, &r, &test_rng, NULL), CUZK_OK);
    groth16_key_t zv = zkey_groth16_key(&z), pv = bp_params_groth16_key(&p);
    engine_gpu_key_t *gk = NULL;
    char err[IO_ERR_MAX] = "";

    groth16_key_t bad = zv;
    bad.conv.ab = GROTH16_AB_DENSITY; /* snarkjs' synth with bellperson's indexing */
    assert_int_equal(
        engine_gpu_key_new(&gk, dev, &bad, ENGINE_GPU_TIER_DEVICE, 0, 1, err, sizeof err),
        CUZK_EUNSUPPORTED);
    assert_null(gk);
    assert_non_null(strstr(err, "convention"));
    bad = zv;
    bad.l.count--;
    assert_int_equal(
        engine_gpu_key_new(&gk, dev, &bad, ENGINE_GPU_TIER_DEVICE, 0, 1, err, sizeof err),
        CUZK_EINVAL);
    assert_null(gk);
    assert_non_null(strstr(err, "counts disagree"));
    bad = pv;
    bad.h.count++; /* bellperson's H has domain_size − 1 points */
    assert_int_equal(
        engine_gpu_key_new(&gk, dev, &bad, ENGINE_GPU_TIER_DEVICE, 0, 1, err, sizeof err),
        CUZK_EINVAL);
    assert_int_equal(engine_gpu_key_blank(&gk, dev, &zv, err, sizeof err), CUZK_EUNSUPPORTED);
    assert_null(gk);
    assert_int_equal(engine_gpu_key_blank(&gk, dev, &pv, err, sizeof err), CUZK_OK);
    assert_int_equal(engine_gpu_key_tier(gk), ENGINE_GPU_TIER_DEVICE);
    engine_gpu_key_free(gk);
    gk = NULL;

    /* the device holds the bellperson key; the zkey is proved with */
    engine_gpu_slot_t *slot = NULL;
    if (engine_gpu_slot_new(&slot, dev, NULL, err, sizeof err) != CUZK_OK)
        fail_msg("%s", err);
    if (engine_gpu_key_new(&gk, dev, &pv, ENGINE_GPU_TIER_DEVICE, 0, 1, err, sizeof err) != CUZK_OK)
        fail_msg("device key: %s", err);
    engine_gpu_accel_t acc = {.slot = slot, .key = gk};
    groth16_accel_t table = engine_gpu_accel(&acc);
    groth16_prove_opts_t gpu = {.accel = &table};
    snarkjs_proof_t pr;
    assert_int_equal(groth16_prove(&pr, &pub, &z, &w, &gpu, NULL, NULL, err, sizeof err),
                     CUZK_EINVAL);
    assert_non_null(strstr(err, "another key"));

    r1cs_witness_free(&pub);
    engine_gpu_key_free(gk);
    engine_gpu_slot_free(slot);
    bp_params_free(&p);
    groth16_dev_key_free(&z);
    r1cs_witness_free(&w);
    r1cs_free(&r);
}

/*
 * Partitions of small keys compute side by side, each on its slot's own
 * stream, buffers and workspaces: four slots proving at once, a BN254 zkey
 * (a, b, c made on the device, the H chains of the four taking turns on
 * the key's domain) and a bellperson key (its assignment staged), every
 * proof the CPU's byte for byte; and the device saw more than one
 * partition computing at once.
 */
static void test_side_by_side(void **state)
{
    (void)state;
    REQUIRE_GPU();
    enum { SLOTS = 4, ROUNDS = 6 };
    char err[IO_ERR_MAX] = "";
    engine_gpu_slot_t *slot[SLOTS];
    for (int i = 0; i < SLOTS; i++)
        if (engine_gpu_slot_new(&slot[i], dev, NULL, err, sizeof err) != CUZK_OK)
            fail_msg("%s", err);

    r1cs_t r;
    r1cs_witness_t w, pub = {0};
    circuit(&r, &w, R1CS_CURVE_BN254, 5000, true);
    zkey_t zk;
    assert_int_equal(groth16_dev_setup(&zk, &r, &test_rng, NULL), CUZK_OK);
    groth16_key_t view = zkey_groth16_key(&zk);
    engine_gpu_key_t *gk = NULL;
    if (engine_gpu_key_new(&gk, dev, &view, ENGINE_GPU_TIER_DEVICE, 0, SLOTS, err, sizeof err) !=
        CUZK_OK)
        fail_msg("device key: %s", err);
    uint64_t seed = rng_next(&test_rng);
    rng_t rc;
    rng_seed(&rc, seed);
    groth16_prove_opts_t cpu = {.rng = &rc};
    snarkjs_proof_t pc;
    assert_int_equal(groth16_prove(&pc, &pub, &zk, &w, &cpu, NULL, NULL, err, sizeof err), CUZK_OK);
    char *want = NULL;
    size_t len;
    assert_int_equal(snarkjs_proof_format(&want, &len, &pc), CUZK_OK);

    params_fix_t f;
    params_fix_make(&f, 3000, true, ENGINE_GPU_TIER_DEVICE);
    rng_seed(&rc, seed);
    bp_proof_t want_bp;
    assert_int_equal(groth16_bp_prove(&want_bp, &f.p, &f.a, &cpu, NULL, NULL, err, sizeof err),
                     CUZK_OK);

    for (int kind = 0; kind < 2; kind++) {
        side_run_t run[SLOTS];
        pthread_t th[SLOTS];
        for (int i = 0; i < SLOTS; i++) {
            run[i] = (side_run_t){.slot = slot[i], .seed = seed, .rounds = ROUNDS};
            if (kind == 0) {
                run[i].key = gk;
                run[i].zk = &zk;
                run[i].w = &w;
                run[i].want_json = want;
            } else {
                run[i].key = f.gk;
                run[i].pf = &f;
                run[i].want_bp = &want_bp;
            }
            assert_int_equal(pthread_create(&th[i], NULL, side_run, &run[i]), 0);
        }
        for (int i = 0; i < SLOTS; i++)
            assert_int_equal(pthread_join(th[i], NULL), 0);
        for (int i = 0; i < SLOTS; i++) {
            if (run[i].status != CUZK_OK)
                fail_msg("%s, slot %d: %s", kind ? "bellperson" : "zkey", i, run[i].err);
            if (run[i].wrong)
                fail_msg("%s, slot %d: %d of %d proofs differ from the CPU's",
                         kind ? "bellperson" : "zkey", i, run[i].wrong, ROUNDS);
        }
    }
    unsigned peak = engine_gpu_dev_computing_peak(dev);
    printf("partitions computing at once, at most: %u\n", peak);
    assert_true(peak >= 2);

    free(want);
    params_fix_free(&f);
    r1cs_witness_free(&pub);
    engine_gpu_key_free(gk);
    groth16_dev_key_free(&zk);
    r1cs_witness_free(&w);
    r1cs_free(&r);
    for (int i = 0; i < SLOTS; i++)
        engine_gpu_slot_free(slot[i]);
}

int main(void)
{
    test_seed_init("test_engine_gpu");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zkey),         cmocka_unit_test(test_params),
        cmocka_unit_test(test_pool),         cmocka_unit_test(test_device_memory),
        cmocka_unit_test(test_key_refusals), cmocka_unit_test(test_side_by_side),
    };
    return cmocka_run_group_tests(tests, gpu_dev_setup, gpu_dev_teardown);
}

#else /* !CUZK_HAVE_CUDA */

int main(void)
{
    printf("test_engine_gpu: CUDA backend not built (no nvcc at configure time): skipped\n");
    return 0;
}

#endif
