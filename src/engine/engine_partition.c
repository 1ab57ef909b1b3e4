/* One partition through the Groth16 layer (engine_partition.h). */
#include "engine/engine_partition.h"

#include <string.h>

#include "engine/engine.h"
#include "io/asgn_file.h"
#include "io/io_error.h"
#include "io/wtns_file.h"

/* A partition's input as the prover takes it, and what holds its bytes. */
typedef struct partition_input {
    r1cs_witness_t w; /* a .wtns, read */
    asgn_t file;      /* an .asgn, mapped */
    groth16_asgn_t asgn;
    groth16_input_t in;
    uint64_t bytes; /* what the read stage moved */
} partition_input_t;

static void partition_input_free(partition_input_t *p)
{
    r1cs_witness_free(&p->w);
    asgn_free(&p->file);
}

/* Reads in into p (a witness converted, an .asgn's scalars checked, on
 * pool's threads). A
 * witness's bytes count 32 a value, as in the file; an assignment's the
 * file's size (one in memory is not read: 0). */
static cuzk_status_t partition_input_read(partition_input_t *p, const engine_input_t *in,
                                          pool_t *pool, char *err, size_t err_size)
{
    memset(p, 0, sizeof *p);
    cuzk_status_t s = CUZK_OK;
    switch (in->kind) {
    case ENGINE_INPUT_WTNS_PATH:
    case ENGINE_INPUT_WTNS_BYTES:
        s = in->kind == ENGINE_INPUT_WTNS_PATH
                ? wtns_file_read(&p->w, in->path, pool, err, err_size)
                : wtns_file_parse(&p->w, in->bytes, in->len, "the witness", pool, err, err_size);
        if (s != CUZK_OK)
            return s;
        p->in.curve = p->w.curve;
        p->in.w = p->w.curve == R1CS_CURVE_BN254 ? (const void *)p->w.v.bn254
                                                 : (const void *)p->w.v.bls381;
        p->in.n = p->w.n;
        p->bytes = 32ull * p->w.n;
        return CUZK_OK;
    case ENGINE_INPUT_ASGN_PATH:
    case ENGINE_INPUT_ASGN_MEM: {
        const asgn_t *a = in->asgn;
        if (in->kind == ENGINE_INPUT_ASGN_PATH) {
            if ((s = asgn_file_read(&p->file, in->path, pool, err, err_size)) != CUZK_OK)
                return s;
            a = &p->file;
            p->bytes = p->file.map.size;
        }
        p->asgn = asgn_groth16(a);
        p->in.curve = a->curve;
        p->in.asgn = &p->asgn;
        p->in.abc_read = in->abc_read;
        p->in.abc_ctx = in->abc_ctx;
        return CUZK_OK;
    }
    }
    return io_fail(err, err_size, CUZK_EINVAL, "input kind %d is unknown", (int)in->kind);
}

/* Reports the prover's stages, which ran back to back from start, from
 * their timings. Returns what the last report returned. */
static bool report_prover_stages(engine_stage_report_fn report, void *rctx, double start,
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

cuzk_status_t engine_partition_prove(const key_file_t *key, key_format_t format, pool_t *pool,
                                     const groth16_accel_t *accel, const engine_input_t *in,
                                     engine_stage_report_fn report, void *rctx,
                                     engine_result_t *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    key_format_t proves_as = key->zkey ? KEY_FORMAT_ZKEY : KEY_FORMAT_PARAMS;
    if (format != proves_as) /* a cache file replaced by another kind between probe and load */
        return io_fail(err, err_size, CUZK_EINVAL, "the key is a %s key, the job is for a %s key",
                       engine_key_format_name(proves_as), engine_key_format_name(format));
    if (!accel && !key_file_has_points(key))
        return io_fail(err, err_size, CUZK_EUNSUPPORTED,
                       "the key's points live only on the device that made it (a development "
                       "key made on the device): the CPU cannot prove with it");
    double t0 = engine_now();
    partition_input_t pin;
    cuzk_status_t s = partition_input_read(&pin, in, pool, err, err_size);
    double t1 = engine_now();
    if (s != CUZK_OK)
        return s;
    r1cs_witness_t pub = {0};
    if (!report(rctx, ENGINE_STAGE_READ, t0, t1, pin.bytes))
        goto done;
    if (pin.in.asgn && pin.in.curve != key->key.curve) {
        s = CUZK_EINVAL;
        io_fail(err, err_size, s, "the assignment is over %s but the key is over %s",
                r1cs_curve_name(pin.in.curve), r1cs_curve_name(key->key.curve));
        goto done;
    }
    groth16_proof_t proof;
    groth16_timings_t t;
    groth16_prove_opts_t opts = {.accel = accel, .r = in->blind_r, .s = in->blind_s};
    s = groth16_prove_key(&proof, &pub, &key->key, &pin.in, &opts, &t, pool, err, err_size);
    if (s != CUZK_OK || !report_prover_stages(report, rctx, t1, &t))
        goto done;
    double t2 = engine_now();
    s = key_file_encode_proof(key, &proof, &pub, &out->proof_json, &out->proof_bytes,
                              &out->proof_len, &out->public_json);
    if (s != CUZK_OK)
        io_fail(err, err_size, s, "out of memory for the proof");
    else
        out->proof = proof;
    if (s == CUZK_OK)
        report(rctx, ENGINE_STAGE_ENCODE, t2, engine_now(), 0);
done:
    r1cs_witness_free(&pub);
    partition_input_free(&pin);
    if (s != CUZK_OK)
        engine_result_free(out);
    return s;
}
