/* Proving one partition synchronously (cuzk_prove.h) through the Groth16
 * layer's prover, on the CPU or a prover's accelerator. */
#include "api/api.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "ff/fr_scan.h"
#include "engine/engine_accel.h"
#include "groth16/groth16.h"
#include "io/params_file.h"
#include "io/zkey_file.h"
#include "io/asgn_file.h"
#include "io/io_error.h"
#include "io/wtns_file.h"
#include "util/pool.h"
#include "util/progress.h"
#include "util/rng.h"

/* One call's options in the Groth16 layer's terms: g (with rng, the
 * seeded generator's storage, and a progress reporter for the caller's
 * callback), the pool the proof runs on, and where its timings go. */
typedef struct {
    groth16_prove_opts_t g;
    rng_t rng;
    pool_t *pool;
    groth16_timings_t t;
    cuzk_prove_timings_t *timings;
} prove_call_t;

/* c for the caller's opts (NULL: defaults) under key; on failure nothing
 * to release. */
static cuzk_status_t prove_begin(prove_call_t *c, const cuzk_key_t *key,
                                 const cuzk_prove_options_t *opts)
{
    memset(c, 0, sizeof *c);
    c->pool = pool_default();
    if (!opts)
        return CUZK_OK;
    const size_t first = offsetof(cuzk_prove_options_t, prover);
    if (opts->size < first)
        return api_fail(CUZK_EINVAL,
                        "opts->size is %zu, below the %zu bytes of the first "
                        "cuzk_prove_options_t: set it to sizeof(cuzk_prove_options_t)",
                        opts->size, first);
    /* The fields the caller knows; the defaults (zero) for the rest. */
    cuzk_prove_options_t o;
    memset(&o, 0, sizeof o);
    memcpy(&o, opts, opts->size < sizeof o ? opts->size : sizeof o);
    if (o.flags & ~(unsigned)(CUZK_PROVE_NO_VERIFY | CUZK_PROVE_INSECURE_TEST_SEED))
        return api_fail(CUZK_EINVAL, "opts->flags 0x%x hold bits that are no CUZK_PROVE_* flag",
                        o.flags);
    if (o.prover && o.prover->key != key)
        return api_fail(CUZK_EINVAL,
                        "opts->prover was made for another key (cuzk_prover_new with this one)");
    c->g.no_verify = o.flags & CUZK_PROVE_NO_VERIFY;
    if (o.flags & CUZK_PROVE_INSECURE_TEST_SEED) {
        rng_seed(&c->rng, o.test_seed);
        c->g.rng = &c->rng;
    }
    if (o.prover) {
        c->g.accel = engine_accel_table(o.prover->accel);
        if (o.prover->pool)
            c->pool = o.prover->pool;
    }
    c->timings = o.timings;
    if (o.progress && !(c->g.progress = progress_calls(o.progress, o.progress_ctx, 0)))
        return api_fail(CUZK_ENOMEM, "out of memory for the progress reporter");
    return CUZK_OK;
}

/* Releases c, the stages' times written out first; returns s. */
static cuzk_status_t prove_end(prove_call_t *c, cuzk_status_t s)
{
    progress_free(c->g.progress);
    if (c->timings)
        *c->timings = (cuzk_prove_timings_t){.synth = c->t.seconds[GROTH16_STAGE_SYNTH],
                                             .h = c->t.seconds[GROTH16_STAGE_H],
                                             .msm = c->t.seconds[GROTH16_STAGE_MSM],
                                             .finish = c->t.seconds[GROTH16_STAGE_FINISH],
                                             .verify = c->t.seconds[GROTH16_STAGE_VERIFY]};
    return s;
}

static cuzk_status_t prove_args(cuzk_proof_t *proof, const cuzk_key_t *key, cuzk_convention_t needs)
{
    if (!proof)
        return api_null("proof");
    if (!key)
        return api_null("key");
    if (key->convention != needs)
        return api_fail(CUZK_EINVAL,
                        needs == CUZK_CONVENTION_SNARKJS
                            ? "the key is a bellperson key, which proves assignments, not witnesses"
                            : "the key is a snarkjs key, which proves witnesses, not assignments");
    return CUZK_OK;
}

/* Whether each of w's values lies below r (on pool): a caller's
 * Montgomery-form array, used in place. */
static cuzk_status_t witness_check(const r1cs_witness_t *w, pool_t *pool)
{
    const void *v =
        w->curve == R1CS_CURVE_BN254 ? (const void *)w->v.bn254 : (const void *)w->v.bls381;
    const uint64_t *r = w->curve == R1CS_CURVE_BN254 ? bn254_fr_MODULUS : bls381_fr_MODULUS;
    uint64_t bad = fr_scan((const uint64_t(*)[4])v, w->n, r, pool);
    if (bad < w->n)
        return api_fail(CUZK_ENONCANONICAL, "w[%llu] is not below the %s scalar field's modulus r",
                        (unsigned long long)bad, r1cs_curve_name(w->curve));
    return CUZK_OK;
}

/* groth16_prove on w (its values checked first when check); the proof
 * and public inputs into the caller's form. */
static cuzk_status_t prove_zkey(cuzk_proof_t *proof, cuzk_scalar_t *public_out,
                                const cuzk_key_t *key, const r1cs_witness_t *w, bool check,
                                const cuzk_prove_options_t *opts)
{
    prove_call_t c;
    cuzk_status_t s = prove_begin(&c, key, opts);
    if (s != CUZK_OK)
        return s;
    if (check && (s = witness_check(w, c.pool)) != CUZK_OK)
        return prove_end(&c, s);
    char err[IO_ERR_MAX] = "";
    snarkjs_proof_t p;
    r1cs_witness_t pub = {0};
    s = groth16_prove(&p, &pub, key->file.zkey, w, &c.g, &c.t, c.pool, err, sizeof err);
    s = key_file_check(&key->file, s, err, sizeof err);
    if (s != CUZK_OK) {
        r1cs_witness_free(&pub);
        return prove_end(&c, api_fail_err(s, err));
    }
    api_proof_from_snarkjs(proof, &p);
    if (public_out)
        api_scalars_from_witness(public_out, &pub);
    r1cs_witness_free(&pub);
    return prove_end(&c, CUZK_OK);
}

/* The pool a proof under opts runs on, as prove_begin picks it, for work
 * before opts is checked (a size too small for the prover: the default). */
static pool_t *opts_pool(const cuzk_prove_options_t *opts)
{
    const size_t end = offsetof(cuzk_prove_options_t, prover) + sizeof(const cuzk_prover_t *);
    if (opts && opts->size >= end && opts->prover && opts->prover->pool)
        return opts->prover->pool;
    return pool_default();
}

cuzk_status_t cuzk_prove_wtns(cuzk_proof_t *proof, cuzk_scalar_t *public_out, const cuzk_key_t *key,
                              const void *wtns, size_t len, const cuzk_prove_options_t *opts)
{
    cuzk_status_t s = prove_args(proof, key, CUZK_CONVENTION_SNARKJS);
    if (s != CUZK_OK)
        return s;
    if (!wtns)
        return api_null("wtns");
    char err[IO_ERR_MAX] = "";
    r1cs_witness_t w = {0};
    s = wtns_file_parse(&w, wtns, len, "the witness", opts_pool(opts), err, sizeof err);
    if (s != CUZK_OK)
        return api_fail_err(s, err);
    s = prove_zkey(proof, public_out, key, &w, false, opts);
    r1cs_witness_free(&w);
    return s;
}

/* Whether v is the value 1 in form. */
static bool scalar_is_one(r1cs_curve_t curve, const cuzk_scalar_t *v, cuzk_scalar_form_t form)
{
    if (form == CUZK_FORM_CANONICAL)
        return v->limb[0] == 1 && !v->limb[1] && !v->limb[2] && !v->limb[3];
    if (curve == R1CS_CURVE_BN254) {
        bn254_fr_t t;
        memcpy(&t, v, sizeof t);
        return bn254_fr_is_one(&t);
    }
    bls381_fr_t t;
    memcpy(&t, v, sizeof t);
    return bls381_fr_is_one(&t);
}

_Static_assert(sizeof(bn254_fr_t) == sizeof(cuzk_scalar_t) &&
                   sizeof(bls381_fr_t) == sizeof(cuzk_scalar_t),
               "a Montgomery-form witness is used in place: the element types must match");

cuzk_status_t cuzk_prove_witness(cuzk_proof_t *proof, cuzk_scalar_t *public_out,
                                 const cuzk_key_t *key, cuzk_curve_t curve, const cuzk_scalar_t *w,
                                 size_t n, cuzk_scalar_form_t form,
                                 const cuzk_prove_options_t *opts)
{
    cuzk_status_t s = prove_args(proof, key, CUZK_CONVENTION_SNARKJS);
    if (s != CUZK_OK)
        return s;
    if (!w)
        return api_null("w");
    r1cs_curve_t c = api_curve(curve);
    if (c == R1CS_CURVE_NONE)
        return api_fail(CUZK_EINVAL, "curve %d is neither BN254 nor BLS12-381", (int)curve);
    if (c != key->file.key.curve)
        return api_fail(CUZK_EINVAL, "the witness is over %s, the key over %s", r1cs_curve_name(c),
                        r1cs_curve_name(key->file.key.curve));
    if (n != key->file.key.n_vars)
        return api_fail(CUZK_EINVAL, "the witness has %zu values, the key's circuit %u wires", n,
                        key->file.key.n_vars);
    if (form != CUZK_FORM_CANONICAL && form != CUZK_FORM_MONTGOMERY)
        return api_fail(CUZK_EINVAL, "form %d is not a cuzk_scalar_form_t", (int)form);
    if (n == 0 || !scalar_is_one(c, &w[0], form))
        return api_fail(CUZK_EWITNESS, "the witness's first value w[0] is not 1");
    r1cs_witness_t iw = {0};
    if (form == CUZK_FORM_CANONICAL) {
        s = api_scalars_to_witness(&iw, c, w, n, "w");
        if (s != CUZK_OK)
            return s;
    } else {
        /* The caller's array in place (checked on the proof's pool): the
         * prover only reads it. */
        iw.curve = c;
        iw.n = (uint32_t)n;
        if (c == R1CS_CURVE_BN254)
            iw.v.bn254 = (bn254_fr_t *)(uintptr_t)w;
        else
            iw.v.bls381 = (bls381_fr_t *)(uintptr_t)w;
    }
    s = prove_zkey(proof, public_out, key, &iw, form == CUZK_FORM_MONTGOMERY, opts);
    if (form == CUZK_FORM_CANONICAL)
        r1cs_witness_free(&iw);
    return s;
}

cuzk_status_t api_asgn_check(const cuzk_assignment_t *a, pool_t *pool)
{
    if (a->curve != CUZK_CURVE_BLS12_381)
        return api_fail(CUZK_EINVAL, "the assignment is over %s; bellperson keys are BLS12-381",
                        cuzk_curve_name(a->curve));
    if (a->n_inputs < 1 || a->n_constraints < a->n_inputs)
        return api_fail(CUZK_EINVAL,
                        "the assignment has %llu inputs and %llu constraints: it needs at least "
                        "one input (ONE) and a constraint row per input",
                        (unsigned long long)a->n_inputs, (unsigned long long)a->n_constraints);
    if (a->n_constraints > UINT32_MAX || a->n_aux > UINT32_MAX)
        return api_fail(CUZK_EINVAL, "the assignment's counts exceed 2^32 - 1");
    const struct {
        const char *name;
        const cuzk_scalar_t *v;
        uint64_t n;
    } arrays[] = {{"a", a->a, a->n_constraints},
                  {"b", a->b, a->n_constraints},
                  {"c", a->c, a->n_constraints},
                  {"inputs", a->inputs, a->n_inputs},
                  {"aux", a->aux, a->n_aux}};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
        if (arrays[k].n && !arrays[k].v)
            return api_fail(CUZK_EINVAL, "assignment %s is NULL with %llu values", arrays[k].name,
                            (unsigned long long)arrays[k].n);
        uint64_t bad =
            fr_scan((const uint64_t(*)[4])arrays[k].v, arrays[k].n, bls381_fr_MODULUS, pool);
        if (bad < arrays[k].n)
            return api_fail(CUZK_ENONCANONICAL,
                            "assignment %s[%llu] is not below the BLS12-381 scalar field's "
                            "modulus r",
                            arrays[k].name, (unsigned long long)bad);
    }
    if (!scalar_is_one(R1CS_CURVE_BLS12_381, &a->inputs[0], CUZK_FORM_CANONICAL))
        return api_fail(CUZK_EINVAL, "assignment inputs[0] is not 1 (the variable ONE)");
    const struct {
        const char *name;
        const uint64_t *bits;
        uint64_t n;
    } maps[] = {{"a_aux_density", a->a_aux_density, a->n_aux},
                {"b_input_density", a->b_input_density, a->n_inputs},
                {"b_aux_density", a->b_aux_density, a->n_aux}};
    for (size_t k = 0; k < sizeof maps / sizeof maps[0]; k++) {
        if (maps[k].n && !maps[k].bits)
            return api_fail(CUZK_EINVAL, "assignment %s is NULL with %llu bits", maps[k].name,
                            (unsigned long long)maps[k].n);
        if (maps[k].n % 64 && maps[k].bits[maps[k].n / 64] >> (maps[k].n % 64))
            return api_fail(CUZK_EINVAL, "assignment %s has bits set at or above its %llu",
                            maps[k].name, (unsigned long long)maps[k].n);
    }
    return CUZK_OK;
}

void api_asgn_view(asgn_t *out, const cuzk_assignment_t *a)
{
    memset(out, 0, sizeof *out);
    out->curve = R1CS_CURVE_BLS12_381;
    out->n_constraints = a->n_constraints;
    out->n_inputs = a->n_inputs;
    out->n_aux = a->n_aux;
    out->a = (const uint64_t(*)[4])a->a;
    out->b = (const uint64_t(*)[4])a->b;
    out->c = (const uint64_t(*)[4])a->c;
    out->inputs = (const uint64_t(*)[4])a->inputs;
    out->aux = (const uint64_t(*)[4])a->aux;
    out->a_aux_density = a->a_aux_density;
    out->b_input_density = a->b_input_density;
    out->b_aux_density = a->b_aux_density;
}

cuzk_status_t cuzk_prove_assignment(cuzk_proof_t *proof, cuzk_scalar_t *public_out,
                                    const cuzk_key_t *key, const cuzk_assignment_t *asg,
                                    const cuzk_prove_options_t *opts)
{
    cuzk_status_t s = prove_args(proof, key, CUZK_CONVENTION_BELLPERSON);
    if (s != CUZK_OK)
        return s;
    if (!asg)
        return api_null("asg");
    prove_call_t c;
    if ((s = prove_begin(&c, key, opts)) != CUZK_OK)
        return s;
    if ((s = api_asgn_check(asg, c.pool)) != CUZK_OK)
        return prove_end(&c, s);
    asgn_t a;
    api_asgn_view(&a, asg);
    char err[IO_ERR_MAX] = "";
    bp_proof_t p;
    s = groth16_bp_prove(&p, key->file.params, &a, &c.g, &c.t, c.pool, err, sizeof err);
    if (s != CUZK_OK)
        return prove_end(&c, api_fail_err(s, err));
    api_proof_from_bp(proof, &p);
    if (public_out)
        memcpy(public_out, asg->inputs + 1, (asg->n_inputs - 1) * sizeof *public_out);
    return prove_end(&c, CUZK_OK);
}
