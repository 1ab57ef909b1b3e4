/* The CPU backend (engine_cpu.h). */
#include "engine/engine_cpu.h"
#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "groth16/groth16.h"
#include "io/asgn_file.h"
#include "io/iden3.h"
#include "io/io_error.h"
#include "io/key_cache.h"
#include "io/params_file.h"
#include "io/snarkjs_json.h"
#include "io/wtns_file.h"
#include "io/zkey_file.h"
#include "util/pool.h"

struct engine_cpu {
    engine_cpu_options_t opt;
    cuzk_pool_t *load_pool;
};

/* A loaded key: zkey or params live as proves_as says. From a key cache
 * they are copies of cache.zkey or cache.params, pointing into the cache's
 * buffer, which cpu_key_free releases (never zkey_free or bp_params_free). */
typedef struct cpu_key {
    engine_key_format_t format;    /* as it was loaded */
    engine_key_format_t proves_as; /* ENGINE_KEY_ZKEY or ENGINE_KEY_PARAMS */
    zkey_t zkey;
    bp_params_t params;
    key_cache_t cache;
    groth16_key_t groth16; /* the Groth16 layer's view of zkey or params */
    uint64_t work_bytes;   /* partition_bytes' estimate */
} cpu_key_t;

/* Fills k->groth16 from the file struct k proves as. */
static void cpu_key_view(cpu_key_t *k)
{
    k->groth16 = k->proves_as == ENGINE_KEY_ZKEY ? zkey_groth16_key(&k->zkey)
                                                 : bp_params_groth16_key(&k->params);
}

engine_cpu_t *engine_cpu_new(const engine_cpu_options_t *opt, cuzk_status_t *st)
{
    engine_cpu_t *cpu = calloc(1, sizeof *cpu);
    if (!cpu) {
        *st = CUZK_ENOMEM;
        return NULL;
    }
    if (opt)
        cpu->opt = *opt;
    cpu->load_pool = cuzk_pool_new(cpu->opt.load_threads, st);
    if (!cpu->load_pool) {
        free(cpu);
        return NULL;
    }
    *st = CUZK_OK;
    return cpu;
}

void engine_cpu_free(engine_cpu_t *cpu)
{
    if (!cpu)
        return;
    cuzk_pool_free(cpu->load_pool);
    free(cpu);
}

/*
 * What one partition holds besides the key, roughly (the budget's
 * estimate, not an exact count): zkey, the a, b, c evaluations (3 scalars
 * per domain point) and two copies of the witness, plus any point section
 * the MSM has to copy because the file left it misaligned; params, the
 * assignment is mapped from its file, and the prover's a, b, c and
 * coefficient-basis copies take about four scalars per domain point.
 */
static uint64_t cpu_zkey_work_bytes(const zkey_t *k)
{
    uint64_t b = 3ull * 32 * k->domain_size + 2ull * 32 * k->n_vars;
    static const uint32_t sections[] = {ZKEY_SECTION_POINTS_A, ZKEY_SECTION_POINTS_B1,
                                        ZKEY_SECTION_POINTS_B2, ZKEY_SECTION_POINTS_C,
                                        ZKEY_SECTION_POINTS_H};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        zkey_points_t p = zkey_points(k, sections[i]);
        if (!zkey_points_aligned(p))
            b += p.count * p.point_bytes;
    }
    return b;
}

/* The host memory of params' points and the partition estimate. */
static void cpu_params_sizes(cpu_key_t *k, uint64_t *bytes)
{
    const bp_params_t *p = &k->params;
    *bytes =
        (uint64_t)(p->n_h + p->n_l + p->n_a + p->n_b + p->vk.n_ic) * sizeof(bls381_g1_affine_t) +
        (uint64_t)p->n_b * sizeof(bls381_g2_affine_t);
    k->work_bytes = 4ull * 32 * ((uint64_t)p->n_h + 1);
}

/* A key cache: one sequential read into host memory (the tier "host");
 * its query points are trusted (docs/KEYCACHE.md). */
static cuzk_status_t cpu_cache_load(engine_cpu_t *cpu, cpu_key_t *k, const char *path,
                                    uint64_t *bytes, char *err, size_t err_size)
{
    cuzk_status_t s = key_cache_read(&k->cache, path, NULL, cpu->load_pool, 0, err, err_size);
    if (s != CUZK_OK)
        return s;
    if (k->cache.hdr.kind == KEY_CACHE_ZKEY) {
        k->proves_as = ENGINE_KEY_ZKEY;
        k->zkey = k->cache.zkey;
        k->work_bytes = cpu_zkey_work_bytes(&k->zkey);
    } else {
        k->proves_as = ENGINE_KEY_PARAMS;
        k->params = k->cache.params;
        uint64_t points; /* what the cache occupies is its own size, below */
        cpu_params_sizes(k, &points);
    }
    *bytes = k->cache.hdr.file_size;
    return CUZK_OK;
}

static cuzk_status_t cpu_key_load(void *ctx, engine_key_format_t format, const char *path,
                                  void **out, uint64_t *bytes, char *err, size_t err_size)
{
    engine_cpu_t *cpu = ctx;
    *out = NULL;
    *bytes = 0;
    cpu_key_t *k = calloc(1, sizeof *k);
    if (!k)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the key");
    k->format = format;
    k->proves_as = format;
    cuzk_status_t s;
    if (format == ENGINE_KEY_CACHE) {
        s = cpu_cache_load(cpu, k, path, bytes, err, err_size);
    } else if (format == ENGINE_KEY_ZKEY) {
        /* A copy: an engine keeps its keys for days, and their files may be
         * replaced or truncated meanwhile. */
        s = zkey_file_read(&k->zkey, path, cpu->load_pool,
                           ZKEY_COPY | (cpu->opt.trusted_keys ? ZKEY_TRUSTED : 0), err, err_size);
        if (s == CUZK_OK) {
            *bytes = k->zkey.map.size;
            k->work_bytes = cpu_zkey_work_bytes(&k->zkey);
        }
    } else {
        s = bp_params_read(&k->params, path, cpu->load_pool,
                           cpu->opt.trusted_keys ? BP_PARAMS_TRUSTED : 0, err, err_size);
        if (s == CUZK_OK)
            cpu_params_sizes(k, bytes);
    }
    if (s != CUZK_OK) {
        free(k);
        return s;
    }
    cpu_key_view(k);
    *out = k;
    return CUZK_OK;
}

cuzk_status_t engine_cpu_key_from_params(void **key, uint64_t *bytes, bp_params_t *p)
{
    cpu_key_t *k = calloc(1, sizeof *k);
    if (!k)
        return CUZK_ENOMEM;
    k->format = k->proves_as = ENGINE_KEY_PARAMS;
    k->params = *p;
    memset(p, 0, sizeof *p);
    cpu_params_sizes(k, bytes);
    if (!k->params.a) /* no host copy of the queries: the vk and counts only */
        *bytes = (uint64_t)k->params.vk.n_ic * sizeof(bls381_g1_affine_t);
    cpu_key_view(k);
    *key = k;
    return CUZK_OK;
}

bool engine_cpu_key_has_points(const void *key)
{
    const cpu_key_t *k = key;
    return k->proves_as == ENGINE_KEY_ZKEY || k->params.a || k->params.n_a == 0;
}

static void cpu_key_free(void *ctx, void *key)
{
    (void)ctx;
    cpu_key_t *k = key;
    if (k->format == ENGINE_KEY_CACHE)
        key_cache_free(&k->cache);
    else if (k->format == ENGINE_KEY_ZKEY)
        zkey_free(&k->zkey);
    else
        bp_params_free(&k->params);
    free(k);
}

static uint64_t cpu_partition_bytes(void *ctx, const void *key)
{
    (void)ctx;
    return ((const cpu_key_t *)key)->work_bytes;
}

static cuzk_status_t cpu_worker_new(void *ctx, unsigned worker, unsigned threads, void **wctx)
{
    (void)ctx;
    (void)worker;
    cuzk_status_t s;
    *wctx = cuzk_pool_new(threads, &s);
    return *wctx ? CUZK_OK : s;
}

static void cpu_worker_free(void *ctx, void *wctx)
{
    (void)ctx;
    cuzk_pool_free(wctx);
}

/* Reports the prover's stages, which ran back to back from start, from
 * their timings. Returns what the last report returned. */
static bool cpu_report_stages(engine_stage_report_fn report, void *rctx, double start,
                              const groth16_timings_t *t)
{
    bool wanted = true;
    for (int i = 0; i < GROTH16_STAGES; i++) {
        double end = start + t->seconds[i];
        wanted = report(rctx, (engine_stage_t)(ENGINE_STAGE_SYNTH + i), start, end, 0);
        start = end;
    }
    return wanted;
}

static cuzk_status_t cpu_prove_zkey(const cpu_key_t *k, cuzk_pool_t *pool,
                                    const groth16_accel_t *accel, const engine_input_t *in,
                                    engine_stage_report_fn report, void *rctx, engine_result_t *out,
                                    char *err, size_t err_size)
{
    double t0 = engine_now();
    r1cs_witness_t w = {0}, pub = {0};
    cuzk_status_t s = in->kind == ENGINE_INPUT_WTNS_PATH
                          ? wtns_file_read(&w, in->path, err, err_size)
                          : wtns_file_parse(&w, in->bytes, in->len, "the witness", err, err_size);
    double t1 = engine_now();
    if (s != CUZK_OK)
        return s;
    /* bytes: the witness values read (32 each, as in the file) */
    if (!report(rctx, ENGINE_STAGE_READ, t0, t1, 32ull * w.n))
        goto done;
    groth16_proof_t proof;
    groth16_timings_t t;
    groth16_prove_opts_t opts = {NULL, false, accel, NULL};
    groth16_key_t key = zkey_groth16_key(&k->zkey);
    groth16_input_t gin = {.curve = w.curve,
                           .w = w.curve == R1CS_CURVE_BN254 ? (const void *)w.v.bn254
                                                            : (const void *)w.v.bls381,
                           .n = w.n};
    s = groth16_prove_key(&proof, &pub, &key, &gin, &opts, &t, pool, err, err_size);
    if (s != CUZK_OK || !cpu_report_stages(report, rctx, t1, &t))
        goto done;
    double t2 = engine_now();
    size_t len;
    if (snarkjs_proof_format(&out->proof_json, &len, &proof) != CUZK_OK ||
        snarkjs_public_format(&out->public_json, &len, &pub) != CUZK_OK)
        s = io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the proof's JSON");
    else
        report(rctx, ENGINE_STAGE_ENCODE, t2, engine_now(), 0);
done:
    r1cs_witness_free(&pub);
    r1cs_witness_free(&w);
    return s;
}

static cuzk_status_t cpu_prove_params(const cpu_key_t *k, cuzk_pool_t *pool,
                                      const groth16_accel_t *accel, const engine_input_t *in,
                                      engine_stage_report_fn report, void *rctx,
                                      engine_result_t *out, char *err, size_t err_size)
{
    double t0 = engine_now();
    asgn_t file = {0}; /* ASGN_PATH: the mapped file */
    const asgn_t *a = in->asgn;
    r1cs_witness_t pub = {0};
    cuzk_status_t s = CUZK_OK;
    if (in->kind == ENGINE_INPUT_ASGN_PATH) {
        s = asgn_file_read(&file, in->path, err, err_size);
        a = &file;
    }
    double t1 = engine_now();
    if (s != CUZK_OK)
        return s;
    /* bytes: the file's (an assignment in memory is not read: 0) */
    if (!report(rctx, ENGINE_STAGE_READ, t0, t1, file.map.size))
        goto done;
    groth16_proof_t proof;
    groth16_timings_t t;
    groth16_prove_opts_t opts = {NULL, false, accel, NULL};
    groth16_key_t key = bp_params_groth16_key(&k->params);
    groth16_asgn_t as = asgn_groth16(a);
    groth16_input_t gin = {.asgn = &as};
    if (a->curve != R1CS_CURVE_BLS12_381) {
        s = CUZK_EINVAL;
        io_fail(err, err_size, s,
                "the assignment is over %s but bellperson parameters are over BLS12-381",
                r1cs_curve_name(a->curve));
        goto done;
    }
    s = groth16_prove_key(&proof, &pub, &key, &gin, &opts, &t, pool, err, err_size);
    if (s != CUZK_OK || !cpu_report_stages(report, rctx, t1, &t))
        goto done;
    double t2 = engine_now();
    size_t len;
    out->proof_bytes = malloc(BP_PROOF_BYTES);
    if (!out->proof_bytes || snarkjs_public_format(&out->public_json, &len, &pub) != CUZK_OK) {
        s = io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the proof");
        goto done;
    }
    bp_proof_t bp = {proof.u.bls381.a, proof.u.bls381.b, proof.u.bls381.c};
    bp_proof_encode(out->proof_bytes, &bp);
    out->proof_len = BP_PROOF_BYTES;
    report(rctx, ENGINE_STAGE_ENCODE, t2, engine_now(), 0);
done:
    r1cs_witness_free(&pub);
    asgn_free(&file);
    return s;
}

cuzk_status_t engine_cpu_prove_with(const void *key, engine_key_format_t format, cuzk_pool_t *pool,
                                    const groth16_accel_t *accel, const engine_input_t *in,
                                    engine_stage_report_fn report, void *rctx, engine_result_t *out,
                                    char *err, size_t err_size)
{
    const cpu_key_t *k = key;
    memset(out, 0, sizeof *out);
    if (format != k->proves_as) /* a cache file replaced by another kind between probe and load */
        return io_fail(err, err_size, CUZK_EINVAL, "the key is a %s key, the job is for a %s key",
                       engine_key_format_name(k->proves_as), engine_key_format_name(format));
    if (!accel && !engine_cpu_key_has_points(k))
        return io_fail(err, err_size, CUZK_EUNSUPPORTED,
                       "the key's points live only on the device that made it (a development "
                       "key made on the device): the CPU cannot prove with it");
    cuzk_status_t s = format == ENGINE_KEY_ZKEY
                          ? cpu_prove_zkey(k, pool, accel, in, report, rctx, out, err, err_size)
                          : cpu_prove_params(k, pool, accel, in, report, rctx, out, err, err_size);
    if (s != CUZK_OK)
        engine_result_free(out);
    return s;
}

const groth16_key_t *engine_cpu_key_groth16(const void *key)
{
    return &((const cpu_key_t *)key)->groth16;
}

static cuzk_status_t cpu_prove(void *ctx, void *wctx, const void *key, engine_key_format_t format,
                               const engine_input_t *in, unsigned urgency,
                               engine_stage_report_fn report, void *rctx, engine_result_t *out,
                               char *err, size_t err_size)
{
    (void)urgency;
    (void)ctx;
    return engine_cpu_prove_with(key, format, wctx, NULL, in, report, rctx, out, err, err_size);
}

engine_backend_t engine_cpu_backend(engine_cpu_t *cpu)
{
    engine_backend_t be = {
        .name = "cpu",
        .ctx = cpu,
        .key_load = cpu_key_load,
        .key_free = cpu_key_free,
        .partition_bytes = cpu_partition_bytes,
        .worker_new = cpu_worker_new,
        .worker_free = cpu_worker_free,
        .prove = cpu_prove,
    };
    return be;
}
