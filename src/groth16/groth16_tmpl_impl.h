/*
 * Groth16 over one curve: the implementation of groth16_tmpl.h, compiled
 * once per curve (bn254_groth16.c, bls381_groth16.c) after
 * groth16_tmpl_names.h and the curve's field, group, MSM, NTT and pairing
 * headers.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/fail.h"
#include "util/progress.h"

/* snarkjs' domains are built from the generator 5 on both curves (FORMATS.md
 * §1); on the largest domain (log2 n = the 2-adicity, where ω_2n does not
 * exist) it shifts by Fr.shift = 25 instead (FORMATS.md §5, unverified:
 * no snarkjs key of that size has been tried). */
enum {
    G16N(SNARKJS_GENERATOR) = GROTH16_SNARKJS_GENERATOR,
    G16N(SNARKJS_SHIFT) = GROTH16_SNARKJS_SHIFT
};

/* The includer defines G16_BP_GENERATOR: the multiplicative generator of
 * Fr that the bellperson convention builds its domains and its coset from. */
enum { G16N(BP_GENERATOR) = G16_BP_GENERATOR };

/* ---- synth ---------------------------------------------------------- */

typedef struct {
    G16ST *st;
    const G16FT *w;
} G16N(plain_ctx_t);

static void G16N(plain_task)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const G16N(plain_ctx_t) *p = ctx;
    for (size_t i = begin; i < end; i++)
        G16F(to_canonical)(p->st->w[i], &p->w[i]);
}

static void G16N(product_task)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    G16ST *st = ctx;
    G16FS(mul)(st->c + begin, st->a + begin, st->b + begin, end - begin);
}

/*
 * The evaluations: X_ev[c] += v ⊗ w[s] for X = A (m = 0), B (m = 1). v =
 * coef·R², w[s] plain, so the Montgomery product is coef·w[s]·R, the
 * Montgomery form of coef·w[s]; w[s] = 0 (45 % of a porep-shaped witness)
 * adds nothing. The products go in batches (NAME_frs_mul: eight at a time
 * with IFMA). One pass, on one thread: the loop streams the coefficients
 * and reads w at random; BN254 2^18 porep-shaped, 0.034 s, against 0.047 s
 * with A and B on a thread each (each streaming the whole list) and 0.072 s
 * with the rows split in halves.
 */
static void G16N(evaluate)(G16ST *st)
{
    const groth16_key_t *key = st->key;
    enum { SYNTH_BATCH = 256 };
    G16FT v[SYNTH_BATCH], x[SYNTH_BATCH], *dst[SYNTH_BATCH];
    size_t k = 0;
    for (uint32_t i = 0; i <= key->n_coeffs; i++) {
        if (k == SYNTH_BATCH || (i == key->n_coeffs && k > 0)) {
            G16FS(mul)(v, v, x, k);
            for (size_t j = 0; j < k; j++)
                G16F(add)(dst[j], dst[j], &v[j]);
            k = 0;
        }
        if (i == key->n_coeffs)
            break;
        groth16_coeff_t e = groth16_key_coeff(key, i);
        const uint64_t *xw = st->w[e.s];
        if ((xw[0] | xw[1] | xw[2] | xw[3]) == 0)
            continue;
        memcpy(&v[k], e.value, sizeof v[k]);
        memcpy(&x[k], xw, sizeof x[k]);
        dst[k++] = e.m == 0 ? &st->a[e.c] : &st->b[e.c];
    }
}

static uint64_t G16N(popcount)(const uint64_t *bits, uint64_t n)
{
    uint64_t c = 0;
    for (uint64_t i = 0; i < groth16_bitmap_words(n); i++)
        c += (uint64_t)__builtin_popcountll(bits[i]);
    return c;
}

/* The checks of an assignment against a GROTH16_SYNTH_GIVEN key. */
static cuzk_status_t G16N(check_asgn)(const groth16_key_t *key, const groth16_asgn_t *asgn,
                                      char *err, size_t err_size)
{
    uint64_t m = key->domain_size;
    assert((m & (m - 1)) == 0);
    uint64_t n_a = asgn->n_inputs + G16N(popcount)(asgn->a_aux_density, asgn->n_aux);
    uint64_t n_b = G16N(popcount)(asgn->b_input_density, asgn->n_inputs) +
                   G16N(popcount)(asgn->b_aux_density, asgn->n_aux);
    if (asgn->n_inputs != key->ic.count)
        return cuzk_fail(err, err_size, CUZK_EINVAL,
                         "the assignment has %" PRIu64 " inputs but the key's IC has %" PRIu64
                         " points",
                         asgn->n_inputs, key->ic.count);
    if (asgn->n_aux != key->l.count)
        return cuzk_fail(err, err_size, CUZK_EINVAL,
                         "the assignment has %" PRIu64 " aux values but the key's L has %" PRIu64
                         " points",
                         asgn->n_aux, key->l.count);
    if (asgn->n_constraints > m)
        return cuzk_fail(err, err_size, CUZK_EINVAL,
                         "the assignment has %" PRIu64 " rows but the key's domain holds %" PRIu64,
                         asgn->n_constraints, m);
    if (n_a != key->a.count)
        return cuzk_fail(err, err_size, CUZK_EINVAL,
                         "the assignment's A density selects %" PRIu64
                         " points but the key's A query has %" PRIu64,
                         n_a, key->a.count);
    if (n_b != key->b1.count)
        return cuzk_fail(err, err_size, CUZK_EINVAL,
                         "the assignment's B densities select %" PRIu64
                         " points but the key's B queries have %" PRIu64,
                         n_b, key->b1.count);
    return CUZK_OK;
}

cuzk_status_t G16N(check_input)(const groth16_key_t *key, const groth16_input_t *in, char *err,
                                size_t err_size)
{
    if (key->conv.synth == GROTH16_SYNTH_GIVEN) {
        if (!in->asgn)
            return cuzk_fail(err, err_size, CUZK_EINVAL,
                             "the key proves from an assignment but a witness was given");
        if (in->asgn->curve != G16_CURVE_ID)
            return cuzk_fail(err, err_size, CUZK_EINVAL,
                             "the assignment is over %s but the key is over %s",
                             r1cs_curve_name(in->asgn->curve), r1cs_curve_name(G16_CURVE_ID));
        return G16N(check_asgn)(key, in->asgn, err, err_size);
    }
    if (!in->w)
        return cuzk_fail(err, err_size, CUZK_EINVAL,
                         "the key proves from a witness but an assignment was given");
    if (in->curve != G16_CURVE_ID)
        return cuzk_fail(err, err_size, CUZK_EINVAL, "the witness is over %s but the key over %s",
                         r1cs_curve_name(in->curve), r1cs_curve_name(G16_CURVE_ID));
    if (in->n != key->n_vars)
        return cuzk_fail(err, err_size, CUZK_EINVAL,
                         "the witness has %u values but the key has %u wires", in->n, key->n_vars);
    return CUZK_OK;
}

static void G16N(load_task)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    G16ST *st = ctx;
    const groth16_asgn_t *as = st->asgn;
    for (size_t i = begin; i < end; i++) {
        /* The reader has checked that the values are below r. */
        (void)G16F(from_canonical)(&st->a[i], as->a[i]);
        (void)G16F(from_canonical)(&st->b[i], as->b[i]);
        (void)G16F(from_canonical)(&st->c[i], as->c[i]);
    }
}

/* out = the inputs, then the aux values whose bit is set in aux_bits;
 * inputs only where in_bits (NULL: all) has their bit. */
static void G16N(select)(uint64_t (*out)[EC_SCALAR_LIMBS], const groth16_asgn_t *as,
                         const uint64_t *in_bits, const uint64_t *aux_bits)
{
    size_t k = 0;
    for (uint64_t i = 0; i < as->n_inputs; i++)
        if (!in_bits || groth16_bitmap_bit(in_bits, i))
            memcpy(out[k++], as->inputs[i], sizeof out[0]);
    for (uint64_t j = 0; j < as->n_aux; j++)
        if (groth16_bitmap_bit(aux_bits, j))
            memcpy(out[k++], as->aux[j], sizeof out[0]);
}

cuzk_status_t G16N(synth)(G16ST *st, const groth16_key_t *key, const groth16_input_t *in,
                          cuzk_pool_t *pool, char *err, size_t err_size)
{
    memset(st, 0, sizeof *st);
    cuzk_status_t s = G16N(check_input)(key, in, err, err_size);
    if (s != CUZK_OK)
        return s;
    st->key = key;
    st->asgn = in->asgn;
    size_t dn = key->domain_size;
    bool given = key->conv.synth == GROTH16_SYNTH_GIVEN;
    st->a = calloc(dn, sizeof *st->a);
    st->b = calloc(dn, sizeof *st->b);
    st->c = given ? calloc(dn, sizeof *st->c) : malloc(dn * sizeof *st->c);
    bool ok = st->a && st->b && st->c;
    if (!given) {
        st->w = malloc((size_t)in->n * sizeof *st->w);
        ok = ok && st->w;
    }
    if (key->conv.ab == GROTH16_AB_DENSITY) {
        uint64_t n_a = key->a.count, n_b = key->b1.count;
        st->sa = malloc((n_a ? n_a : 1) * sizeof *st->sa);
        st->sb = malloc((n_b ? n_b : 1) * sizeof *st->sb);
        ok = ok && st->sa && st->sb;
    }
    if (!ok) {
        G16N(prover_free)(st);
        return cuzk_fail(err, err_size, CUZK_ENOMEM, "out of memory for the prover's vectors");
    }
    if (given) {
        cuzk_pool_for(pool, in->asgn->n_constraints, 0, G16N(load_task), st);
    } else {
        G16N(plain_ctx_t) pc = {st, in->w};
        cuzk_pool_for(pool, in->n, 0, G16N(plain_task), &pc);
        G16N(evaluate)(st);
        cuzk_pool_for(pool, dn, 0, G16N(product_task), st);
    }
    if (key->conv.ab == GROTH16_AB_DENSITY) {
        G16N(select)(st->sa, in->asgn, NULL, in->asgn->a_aux_density);
        G16N(select)(st->sb, in->asgn, in->asgn->b_input_density, in->asgn->b_aux_density);
    }
    return CUZK_OK;
}

/* ---- h ---------------------------------------------------------------- */

static void G16N(canonical_task)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    G16ST *st = ctx;
    for (size_t i = begin; i < end; i++) {
        uint64_t v[EC_SCALAR_LIMBS];
        G16F(to_canonical)(v, &st->a[i]);
        memcpy(&st->a[i], v, sizeof v);
    }
}

static unsigned G16N(log2)(uint64_t n)
{
    unsigned k = 0;
    while (((uint64_t)1 << k) < n)
        k++;
    return k;
}

cuzk_status_t G16N(h)(G16ST *st, cuzk_pool_t *pool)
{
    unsigned k = G16N(log2)(st->key->domain_size);
    bool coset = st->key->conv.h == GROTH16_H_COSET_COEFFS;
    unsigned gen = coset ? G16N(BP_GENERATOR) : G16N(SNARKJS_GENERATOR);
    cuzk_status_t s;
    G16C(ntt_domain_t) *d = G16C(ntt_domain_new)(k, gen, &s);
    if (!d)
        return s;
    G16FT shift;
    if (coset) {
        G16F(from_u64)(&shift, gen);
        G16C(ntt_h_bellperson)(d, st->a, st->b, st->c, &shift, pool);
    } else {
        /* ω_2n = w[k+1]; on the largest domain snarkjs shifts by Fr.shift. */
        if (k < G16F(two_adicity)())
            G16F(root_of_unity)(&shift, k + 1, gen);
        else
            G16F(from_u64)(&shift, G16N(SNARKJS_SHIFT));
        G16C(ntt_h_snarkjs)(d, st->a, st->b, st->c, &shift, pool);
    }
    G16C(ntt_domain_free)(d);
    cuzk_pool_for(pool, st->key->domain_size, 0, G16N(canonical_task), st);
    st->h = (uint64_t(*)[EC_SCALAR_LIMBS])st->a;
    return CUZK_OK;
}

/* ---- msm -------------------------------------------------------------- */

/* Where misaligned sections are copied: one buffer that the MSMs of a
 * proof reuse, its pages faulted once (a fresh 4 MiB copy took 1.3-1.6 ms
 * at 2^16, mostly page faults). */
typedef struct {
    unsigned char *buf;
    size_t cap;
} G16N(copy_buf_t);

typedef struct {
    unsigned char *dst;
    const unsigned char *src;
} G16N(copy_ctx_t);

static void G16N(copy_task)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const G16N(copy_ctx_t) *c = ctx;
    memcpy(c->dst + begin, c->src + begin, end - begin);
}

/* The points of p as an array of affine points of point_bytes each: p's
 * own memory when it is aligned, else a copy in cb's buffer (by all
 * threads). */
static cuzk_status_t G16N(points)(const void **out, G16N(copy_buf_t) * cb, groth16_points_t p,
                                  size_t point_bytes, cuzk_pool_t *pool)
{
    *out = p.data;
    if (p.count == 0 || groth16_points_aligned(p))
        return CUZK_OK;
    size_t bytes = (size_t)p.count * point_bytes;
    if (bytes > cb->cap) {
        free(cb->buf);
        cb->buf = malloc(bytes);
        cb->cap = cb->buf ? bytes : 0;
        if (!cb->buf)
            return CUZK_ENOMEM;
    }
    G16N(copy_ctx_t) c = {cb->buf, p.data};
    cuzk_pool_for(pool, bytes, (size_t)1 << 16, G16N(copy_task), &c);
    *out = cb->buf;
    return CUZK_OK;
}

static cuzk_status_t G16N(msm_g1)(G16G1J *r, groth16_points_t p,
                                  const uint64_t (*scalars)[EC_SCALAR_LIMBS], size_t n,
                                  G16N(copy_buf_t) * cb, cuzk_pool_t *pool)
{
    const void *bases;
    cuzk_status_t s = G16N(points)(&bases, cb, p, sizeof(G16G1A), pool);
    if (s == CUZK_OK)
        s = G16G1(msm_canonical_vartime)(r, bases, scalars, n, pool);
    return s;
}

cuzk_status_t G16N(msm)(G16ST *st, cuzk_pool_t *pool)
{
    typedef const uint64_t(*scalars_t)[EC_SCALAR_LIMBS];
    const groth16_key_t *key = st->key;
    bool density = key->conv.ab == GROTH16_AB_DENSITY;
    scalars_t sa = density ? (scalars_t)st->sa : (scalars_t)st->w;
    scalars_t sb = density ? (scalars_t)st->sb : (scalars_t)st->w;
    scalars_t sl =
        key->conv.l == GROTH16_L_AUX ? st->asgn->aux : (scalars_t)st->w + key->n_public + 1;
    G16N(copy_buf_t) cb = {NULL, 0};
    cuzk_status_t s = G16N(msm_g1)(&st->msm_a, key->a, sa, key->a.count, &cb, pool);
    if (s == CUZK_OK)
        s = G16N(msm_g1)(&st->msm_b1, key->b1, sb, key->b1.count, &cb, pool);
    if (s == CUZK_OK)
        s = G16N(msm_g1)(&st->msm_l, key->l, sl, key->l.count, &cb, pool);
    if (s == CUZK_OK)
        s = G16N(msm_g1)(&st->msm_h, key->h, (scalars_t)st->h, key->h.count, &cb, pool);
    if (s == CUZK_OK) {
        const void *bases;
        s = G16N(points)(&bases, &cb, key->b2, sizeof(G16G2A), pool);
        if (s == CUZK_OK)
            s = G16G2(msm_canonical_vartime)(&st->msm_b2, bases, sb, key->b2.count, pool);
    }
    free(cb.buf);
    return s;
}

/* ---- finish ----------------------------------------------------------- */

/*
 * The assembly shared by both conventions (FORMATS.md §7 step 5 and §8.3):
 * draws r then s uniformly in Fr and sets
 *   π_A = Ã + α1 + r·δ1,  π_B = B̃2 + β2 + s·δ2,  B1 = B̃1 + β1 + s·δ1,
 *   π_C = C̃ + s·π_A + r·B1 − rs·δ1,
 * where C̃ is the sum of the C (or L) and H MSMs. Every product with r or s
 * is the constant-time jac_mul and every sum with a secret operand the
 * complete jac_add; r and s are wiped. CUZK_ERANDOM.
 */
static cuzk_status_t G16N(assemble)(G16N(proof_t) * proof, const G16G1A *alpha1,
                                    const G16G1A *beta1, const G16G1A *delta1, const G16G2A *beta2,
                                    const G16G2A *delta2, const G16G1J *msm_a, const G16G1J *msm_b1,
                                    const G16G2J *msm_b2, const G16G1J *msm_ch, cuzk_rng_t *rng)
{
    G16FT r, s, rs;
    cuzk_status_t status = G16F(random)(&r, rng);
    if (status == CUZK_OK)
        status = G16F(random)(&s, rng);
    if (status != CUZK_OK)
        return status;
    G16F(mul)(&rs, &r, &s);
    uint64_t kr[EC_SCALAR_LIMBS], ks[EC_SCALAR_LIMBS], krs[EC_SCALAR_LIMBS];
    G16F(to_canonical)(kr, &r);
    G16F(to_canonical)(ks, &s);
    G16F(to_canonical)(krs, &rs);

    G16G1J d1, pa, b1, pc, t;
    G16G2J d2, pb, t2;
    G16G1(jac_from_affine)(&d1, delta1);
    G16G2(jac_from_affine)(&d2, delta2);

    /* π_A = Ã + α1 + r·δ1 */
    G16G1(jac_from_affine)(&pa, alpha1);
    G16G1(jac_add)(&pa, &pa, msm_a);
    G16G1(jac_mul)(&t, &d1, kr);
    G16G1(jac_add)(&pa, &pa, &t);
    /* π_B = B̃2 + β2 + s·δ2 */
    G16G2(jac_from_affine)(&pb, beta2);
    G16G2(jac_add)(&pb, &pb, msm_b2);
    G16G2(jac_mul)(&t2, &d2, ks);
    G16G2(jac_add)(&pb, &pb, &t2);
    /* B1 = B̃1 + β1 + s·δ1 */
    G16G1(jac_from_affine)(&b1, beta1);
    G16G1(jac_add)(&b1, &b1, msm_b1);
    G16G1(jac_mul)(&t, &d1, ks);
    G16G1(jac_add)(&b1, &b1, &t);
    /* π_C = C̃ + s·π_A + r·B1 − rs·δ1 */
    pc = *msm_ch;
    G16G1(jac_mul)(&t, &pa, ks);
    G16G1(jac_add)(&pc, &pc, &t);
    G16G1(jac_mul)(&t, &b1, kr);
    G16G1(jac_add)(&pc, &pc, &t);
    G16G1(jac_mul)(&t, &d1, krs);
    G16G1(jac_neg)(&t, &t);
    G16G1(jac_add)(&pc, &pc, &t);

    G16G1(jac_to_affine)(&proof->a, &pa);
    G16G2(jac_to_affine)(&proof->b, &pb);
    G16G1(jac_to_affine)(&proof->c, &pc);

    explicit_bzero(&r, sizeof r);
    explicit_bzero(&s, sizeof s);
    explicit_bzero(&rs, sizeof rs);
    explicit_bzero(kr, sizeof kr);
    explicit_bzero(ks, sizeof ks);
    explicit_bzero(krs, sizeof krs);
    explicit_bzero(&b1, sizeof b1);
    explicit_bzero(&t, sizeof t);
    explicit_bzero(&t2, sizeof t2);
    return CUZK_OK;
}

cuzk_status_t G16N(finish)(G16ST *st, G16N(proof_t) * proof, cuzk_rng_t *rng)
{
    const G16KEY *k = &st->key->u.G16_CURVE;
    G16G1J ch;
    G16G1(jac_add)(&ch, &st->msm_l, &st->msm_h);
    return G16N(assemble)(proof, &k->alpha1, &k->beta1, &k->delta1, &k->beta2, &k->delta2,
                          &st->msm_a, &st->msm_b1, &st->msm_b2, &ch, rng);
}

/* The assembly from an accelerator's XYZZ results (c: C̃ or L̃). */
static cuzk_status_t G16N(assemble_msms)(G16N(proof_t) * proof, const G16G1A *alpha1,
                                         const G16G1A *beta1, const G16G1A *delta1,
                                         const G16G2A *beta2, const G16G2A *delta2, const G16MS *m,
                                         cuzk_rng_t *rng)
{
    G16G1J a, b1, c, h;
    G16G2J b2;
    G16G1(xyzz_to_jac)(&a, &m->a);
    G16G1(xyzz_to_jac)(&b1, &m->b1);
    G16G1(xyzz_to_jac)(&c, &m->c);
    G16G1(xyzz_to_jac)(&h, &m->h);
    G16G2(xyzz_to_jac)(&b2, &m->b2);
    G16G1(jac_add)(&c, &c, &h);
    return G16N(assemble)(proof, alpha1, beta1, delta1, beta2, delta2, &a, &b1, &b2, &c, rng);
}

cuzk_status_t G16N(finish_msms)(G16N(proof_t) * proof, const groth16_key_t *key, const G16MS *m,
                                cuzk_rng_t *rng)
{
    const G16KEY *k = &key->u.G16_CURVE;
    return G16N(assemble_msms)(proof, &k->alpha1, &k->beta1, &k->delta1, &k->beta2, &k->delta2, m,
                               rng);
}

void G16N(prover_free)(G16ST *st)
{
    free(st->w);
    free(st->sa);
    free(st->sb);
    free(st->a);
    free(st->b);
    free(st->c);
    memset(st, 0, sizeof *st);
}

/* Records the time since *t0 as stage's and restarts the clock. */
static void G16N(lap)(groth16_timings_t *t, groth16_stage_t stage, double *t0)
{
    double t1 = cuzk_seconds();
    if (t)
        t->seconds[stage] = t1 - *t0;
    *t0 = t1;
}

/* s from the stages after synth, with its message when it is a failure. */
static cuzk_status_t G16N(stages_status)(cuzk_status_t s, char *err, size_t err_size)
{
    if (s == CUZK_ERANDOM)
        return cuzk_fail(err, err_size, s,
                         "drawing r and s: the operating system's generator failed");
    if (s != CUZK_OK)
        return cuzk_fail(err, err_size, s, "out of memory in the prover");
    return CUZK_OK;
}

cuzk_status_t G16N(prove)(G16N(proof_t) * proof, const groth16_key_t *key,
                          const groth16_input_t *in, cuzk_rng_t *rng, groth16_timings_t *t,
                          cuzk_pool_t *pool, cuzk_progress_t *progress, char *err, size_t err_size)
{
    G16ST st;
    double t0 = cuzk_seconds();
    cuzk_progress_begin(progress, "synth", 0, NULL);
    cuzk_status_t s = G16N(synth)(&st, key, in, pool, err, err_size);
    if (s != CUZK_OK)
        return s;
    G16N(lap)(t, GROTH16_STAGE_SYNTH, &t0);
    cuzk_progress_begin(progress, "h", 0, NULL);
    s = G16N(h)(&st, pool);
    G16N(lap)(t, GROTH16_STAGE_H, &t0);
    cuzk_progress_begin(progress, "msm", 0, NULL);
    if (s == CUZK_OK)
        s = G16N(msm)(&st, pool);
    G16N(lap)(t, GROTH16_STAGE_MSM, &t0);
    if (s == CUZK_OK)
        s = G16N(finish)(&st, proof, rng);
    G16N(lap)(t, GROTH16_STAGE_FINISH, &t0);
    G16N(prover_free)(&st);
    return G16N(stages_status)(s, err, err_size);
}

/* ---- verify ----------------------------------------------------------- */

cuzk_status_t G16N(verify)(bool *valid, const G16N(vk_t) * vk, const G16FT *pub,
                           const G16N(proof_t) * proof, cuzk_pool_t *pool)
{
    G16G1J x;
    cuzk_status_t s = G16G1(msm_vartime)(&x, vk->ic + 1, pub, vk->n_public, pool);
    if (s != CUZK_OK)
        return s;
    G16G1(jac_add_affine_vartime)(&x, &x, &vk->ic[0]);
    G16G1A p[4];
    G16G2A q[4];
    G16G1(affine_neg)(&p[0], &proof->a);
    q[0] = proof->b;
    G16G1(jac_to_affine)(&p[1], &x);
    q[1] = vk->gamma2;
    p[2] = proof->c;
    q[2] = vk->delta2;
    p[3] = vk->alpha1;
    q[3] = vk->beta2;
    *valid = G16C(pairing_product_is_one)(p, q, 4);
    return CUZK_OK;
}

cuzk_status_t G16N(verify_batch)(bool *valid, const G16N(vk_t) * vk, const G16FT *pub,
                                 const G16N(proof_t) * proofs, size_t n, cuzk_rng_t *rng,
                                 cuzk_pool_t *pool)
{
    assert(n >= 1);
    size_t np = vk->n_public;
    G16FT *rho = malloc(n * sizeof *rho);
    G16FT *sic = calloc(np + 1, sizeof *sic); /* Σ ρ_i, then Σ ρ_i·pub_i,j */
    G16G1A *pc = malloc(n * sizeof *pc);
    G16G1J *ra = malloc(n * sizeof *ra);
    G16G1A *p = malloc((n + 3) * sizeof *p);
    G16G2A *q = malloc((n + 3) * sizeof *q);
    cuzk_status_t s = rho && sic && pc && ra && p && q ? CUZK_OK : CUZK_ENOMEM;
    for (size_t i = 0; i < n && s == CUZK_OK; i++) {
        uint64_t k[EC_SCALAR_LIMBS] = {1, 0};
        if (i > 0)
            s = cuzk_random_bytes(rng, k, 2 * sizeof k[0]); /* 128 bits: below r */
        G16F(from_canonical)(&rho[i], k);
        G16G1J a;
        G16G1(jac_from_affine)(&a, &proofs[i].a);
        G16G1(jac_mul_vartime)(&ra[i], &a, k);
        pc[i] = proofs[i].c;
        q[i] = proofs[i].b;
        G16F(add)(&sic[0], &sic[0], &rho[i]);
        for (size_t j = 0; j < np; j++) {
            G16FT t;
            G16F(mul)(&t, &rho[i], &pub[i * np + j]);
            G16F(add)(&sic[j + 1], &sic[j + 1], &t);
        }
    }
    G16G1J x, c, al;
    if (s == CUZK_OK)
        s = G16G1(msm_vartime)(&x, vk->ic, sic, np + 1, pool);
    if (s == CUZK_OK)
        s = G16G1(msm_vartime)(&c, pc, rho, n, pool);
    if (s == CUZK_OK) {
        uint64_t k[EC_SCALAR_LIMBS];
        G16F(to_canonical)(k, &sic[0]);
        G16G1(jac_from_affine)(&al, &vk->alpha1);
        G16G1(jac_mul_vartime)(&al, &al, k);
        G16G1(jacs_to_affine_vartime)(p, ra, n);
        for (size_t i = 0; i < n; i++)
            G16G1(affine_neg)(&p[i], &p[i]);
        G16G1(jac_to_affine)(&p[n], &x);
        q[n] = vk->gamma2;
        G16G1(jac_to_affine)(&p[n + 1], &c);
        q[n + 1] = vk->delta2;
        G16G1(jac_to_affine)(&p[n + 2], &al);
        q[n + 2] = vk->beta2;
        *valid = G16C(pairing_product_is_one)(p, q, n + 3);
    }
    free(rho);
    free(sic);
    free(pc);
    free(ra);
    free(p);
    free(q);
    return s;
}

/* ---- key against circuit ------------------------------------------- */

cuzk_status_t G16N(key_matches_r1cs)(const groth16_key_t *key, const G16C(r1cs_t) * r,
                                     const char *key_name, const char *r1cs_name, char *err,
                                     size_t err_size)
{
    const r1cs_shape_t *sh = &r->shape;
    uint32_t n_public = sh->n_pub_out + sh->n_pub_in;
    if (key->n_vars != sh->n_wires || key->n_public != n_public)
        return cuzk_fail(err, err_size, CUZK_EINVAL,
                         "%s does not belong to %s: the key has %u wires and %u public signals, "
                         "the circuit %u and %u",
                         key_name, r1cs_name, key->n_vars, key->n_public, sh->n_wires, n_public);
    uint64_t rows = (uint64_t)sh->n_constraints + n_public + 1;
    if (rows > key->domain_size)
        return cuzk_fail(err, err_size, CUZK_EINVAL,
                         "%s does not belong to %s: %" PRIu64 " rows do not fit its domain of %u",
                         key_name, r1cs_name, rows, key->domain_size);
    const G16C(csr_t) * mats[2] = {&r->a, &r->b};
    uint64_t expect = G16C(csr_nnz)(&r->a) + G16C(csr_nnz)(&r->b) + n_public + 1;
    if (key->n_coeffs != expect)
        return cuzk_fail(err, err_size, CUZK_EINVAL,
                         "%s does not belong to %s: %u coefficients, the circuit has %" PRIu64,
                         key_name, r1cs_name, key->n_coeffs, expect);
    /* Every entry is found in its row (rows are ascending by wire), with
     * its value; with equal counts and distinct wires per row (the r1cs
     * reader rejects duplicates, and so does this check by counting hits),
     * the entries are then exactly the circuit's terms. */
    uint8_t *hit[2] = {calloc(G16C(csr_nnz)(&r->a) + 1, 1), calloc(G16C(csr_nnz)(&r->b) + 1, 1)};
    cuzk_status_t st = hit[0] && hit[1] ? CUZK_OK : CUZK_ENOMEM;
    if (st != CUZK_OK)
        cuzk_fail(err, err_size, st, "out of memory comparing %s with %s", key_name, r1cs_name);
    for (uint32_t i = 0; i < key->n_coeffs && st == CUZK_OK; i++) {
        groth16_coeff_t e = groth16_key_coeff(key, i);
        const char *mn = e.m == 0 ? "A" : "B";
        if (e.c >= sh->n_constraints) { /* x_i·0 = 0: A, wire c − n_constraints, 1 */
            /* 1 as stored: 1·R² mod r, the raw limbs of R2 */
            bool ok = e.m == 0 && e.s == e.c - sh->n_constraints &&
                      memcmp(e.value, &G16F(R2), sizeof(G16FT)) == 0;
            if (!ok)
                st = cuzk_fail(err, err_size, CUZK_EINVAL,
                               "%s does not belong to %s: coefficient %u (row %u, %s, wire %u) is "
                               "not the input row x_%u·0 = 0 that follows the circuit's rows",
                               key_name, r1cs_name, i, e.c, mn, e.s, e.c - sh->n_constraints);
            continue;
        }
        const G16C(csr_t) *m = mats[e.m];
        uint64_t lo = m->row_ptr[e.c], hi = m->row_ptr[e.c + 1];
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (m->col[mid] < e.s)
                lo = mid + 1;
            else
                hi = mid;
        }
        uint64_t want[EC_SCALAR_LIMBS];
        bool found = lo < m->row_ptr[e.c + 1] && m->col[lo] == e.s;
        if (found) { /* stored: coef·R² = the Montgomery form of coef·R */
            G16FT t;
            G16F(mul)(&t, &m->val[lo], &G16F(R2));
            memcpy(want, &t, sizeof want);
        }
        if (!found || hit[e.m][lo])
            st = cuzk_fail(err, err_size, CUZK_EINVAL,
                           "%s does not belong to %s: constraint %u, matrix %s: wire %u is %s",
                           key_name, r1cs_name, e.c, mn, e.s,
                           found ? "listed twice in the key" : "not a term of the circuit");
        else if (memcmp(e.value, want, sizeof want) != 0)
            st = cuzk_fail(err, err_size, CUZK_EINVAL,
                           "%s does not belong to %s: constraint %u, matrix %s: wire %u has "
                           "another coefficient in the circuit",
                           key_name, r1cs_name, e.c, mn, e.s);
        else
            hit[e.m][lo] = 1;
    }
    free(hit[0]);
    free(hit[1]);
    return st;
}

/* ---- development setup (INSECURE) ------------------------------------ */

/* out[i] = the Lagrange basis polynomial of ⟨ω⟩ (size m = 2^log2m, ω from
 * the generator g) at the point ω^(first + i·step), evaluated at τ, for
 * i < count:
 *     L_j(τ) = (τ^m − 1)/m · ω^j/(τ − ω^j).
 * τ must lie outside ⟨ω⟩ (true with overwhelming probability). */
static void G16N(lagrange_at)(G16FT *out, const G16FT *tau, unsigned log2m, uint64_t g,
                              size_t first, size_t step, size_t count)
{
    G16FT omega, zt, m_inv, wj, step_w;
    G16F(root_of_unity)(&omega, log2m, g);
    zt = *tau;
    for (unsigned i = 0; i < log2m; i++)
        G16F(sqr)(&zt, &zt);
    G16F(sub)(&zt, &zt, &G16F(ONE));
    G16F(from_u64)(&m_inv, (uint64_t)1 << log2m);
    G16F(inv_vartime)(&m_inv, &m_inv);
    G16F(mul)(&zt, &zt, &m_inv);
    G16F(set_one)(&wj);
    for (size_t i = 0; i < first; i++)
        G16F(mul)(&wj, &wj, &omega);
    G16F(set_one)(&step_w);
    for (size_t i = 0; i < step; i++)
        G16F(mul)(&step_w, &step_w, &omega);
    for (size_t i = 0; i < count; i++) {
        G16FT den;
        G16F(sub)(&den, tau, &wj);
        G16F(inv_vartime)(&den, &den);
        G16F(mul)(&out[i], &zt, &wj);
        G16F(mul)(&out[i], &out[i], &den);
        G16F(mul)(&wj, &wj, &step_w);
    }
}

/*
 * Fixed-base multiplication for the setup: the key is ~4 n_vars + n scalar
 * multiples of the generators. A table of j·2^(8i)·G (i < 32 byte
 * positions, 1 <= j <= 255) turns each multiple into at most 32 mixed
 * additions, against ~254 doublings and ~50 additions for jac_mul_vartime;
 * the conversions to affine are batched (one inversion per chunk) and the
 * points are spread over the default pool. `cuzk setup` on the 2-core dev
 * VM, 4,096 constraints: BN254 2.76 s with jac_mul_vartime, 0.49 s with the
 * tables; BLS12-381 4.85 s, 0.86 s. 8-bit windows: 32 additions per point
 * for tables of 0.8 MB (G1) and 1.5 MB (G2), built in a few milliseconds.
 */
enum { G16N(FB_WINDOWS) = 32, G16N(FB_DIGITS) = 255, G16N(FB_CHUNK) = 64 };

#define G16_FB_TABLE(group, A, J)                                                                  \
    typedef struct {                                                                               \
        A t[G16N(FB_WINDOWS)][G16N(FB_DIGITS)]; /* t[i][j - 1] = j·2^(8i)·G */                   \
    } G16N(group##_table_t);                                                                       \
                                                                                                   \
    static void G16N(group##_table_init)(G16N(group##_table_t) * tb)                               \
    {                                                                                              \
        J base, acc[G16N(FB_DIGITS)];                                                              \
        A g;                                                                                       \
        G16C(group##_generator)(&g);                                                               \
        G16C(group##_jac_from_affine)(&base, &g);                                                  \
        for (int i = 0; i < G16N(FB_WINDOWS); i++) {                                               \
            acc[0] = base;                                                                         \
            for (int j = 1; j < G16N(FB_DIGITS); j++)                                              \
                G16C(group##_jac_add_vartime)(&acc[j], &acc[j - 1], &base);                        \
            G16C(group##_jacs_to_affine_vartime)(tb->t[i], acc, G16N(FB_DIGITS));                  \
            for (int d = 0; d < 8; d++)                                                            \
                G16C(group##_jac_dbl)(&base, &base);                                               \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    typedef struct {                                                                               \
        const G16N(group##_table_t) * tb;                                                          \
        A *out;                                                                                    \
        const G16FT *k;                                                                            \
        cuzk_progress_t *progress;                                                                 \
    } G16N(group##_times_job_t);                                                                   \
                                                                                                   \
    static void G16N(group##_times_chunk)(void *ctx, size_t begin, size_t end, unsigned worker)    \
    {                                                                                              \
        (void)worker;                                                                              \
        const G16N(group##_times_job_t) *job = ctx;                                                \
        J acc[G16N(FB_CHUNK)];                                                                     \
        assert(end - begin <= G16N(FB_CHUNK));                                                     \
        for (size_t i = begin; i < end; i++) {                                                     \
            uint64_t c[EC_SCALAR_LIMBS];                                                           \
            G16F(to_canonical)(c, &job->k[i]);                                                     \
            J *a = &acc[i - begin];                                                                \
            G16C(group##_jac_set_infinity)(a);                                                     \
            for (int w = 0; w < G16N(FB_WINDOWS); w++) {                                           \
                unsigned byte = (unsigned)(c[w / 8] >> (8 * (w % 8))) & 0xff;                      \
                if (byte)                                                                          \
                    G16C(group##_jac_add_affine_vartime)(a, a, &job->tb->t[w][byte - 1]);          \
            }                                                                                      \
        }                                                                                          \
        G16C(group##_jacs_to_affine_vartime)(job->out + begin, acc, end - begin);                  \
        cuzk_progress_advance(job->progress, end - begin);                                         \
    }                                                                                              \
                                                                                                   \
    /* out[i] = k[i]·G for i < n (Montgomery-form k), on the default pool; a                      \
     * stage of n points on progress (NULL: none), one advance a chunk. */                         \
    static void G16N(group##s_times)(const G16N(group##_table_t) * tb, A * out, const G16FT *k,    \
                                     size_t n, cuzk_progress_t *progress, const char *stage)       \
    {                                                                                              \
        G16N(group##_times_job_t) job = {tb, out, k, progress};                                    \
        cuzk_progress_begin(progress, stage, n, "points");                                         \
        cuzk_pool_for(cuzk_pool_default(), n, G16N(FB_CHUNK), G16N(group##_times_chunk), &job);    \
    }                                                                                              \
                                                                                                   \
    /* The table's points, for the device's setup (groth16_tmpl.h). */                             \
    cuzk_status_t G16N(fb_table_##group)(A * t)                                                    \
    {                                                                                              \
        G16N(group##_table_t) *tb = malloc(sizeof *tb);                                            \
        if (!tb)                                                                                   \
            return CUZK_ENOMEM;                                                                    \
        G16N(group##_table_init)(tb);                                                              \
        memcpy(t, tb->t, sizeof tb->t);                                                            \
        free(tb);                                                                                  \
        return CUZK_OK;                                                                            \
    }

G16_FB_TABLE(g1, G16G1A, G16G1J)
G16_FB_TABLE(g2, G16G2A, G16G2J)
#undef G16_FB_TABLE

/* u[col] += val·l over the entries of row `row` of m. */
static void G16N(accumulate_row)(G16FT *u, const G16C(csr_t) * m, uint32_t row, const G16FT *l)
{
    for (uint64_t e = m->row_ptr[row]; e < m->row_ptr[row + 1]; e++) {
        G16FT t;
        G16F(mul)(&t, &m->val[e], l);
        G16F(add)(&u[m->col[e]], &u[m->col[e]], &t);
    }
}

/* The coefficient record (m, c, s, coef) in the groth16_coeff_t layout,
 * coef in Montgomery form: its value is coef·R², the Montgomery product of
 * coef·R with the raw constant R², written raw. */
static void G16N(coeff_encode)(unsigned char out[GROTH16_COEFF_BYTES], uint32_t m, uint32_t c,
                               uint32_t s, const G16FT *coef)
{
    for (int i = 0; i < 4; i++) {
        out[i] = (unsigned char)(m >> (8 * i));
        out[4 + i] = (unsigned char)(c >> (8 * i));
        out[8 + i] = (unsigned char)(s >> (8 * i));
    }
    G16FT v;
    G16F(mul)(&v, coef, &G16F(R2));
    for (int i = 0; i < GROTH16_COEFF_BYTES - 12; i++)
        out[12 + i] = (unsigned char)(v.l[i / 8] >> (8 * (i % 8)));
}

cuzk_status_t G16N(dev_setup)(groth16_key_t *k, const G16C(r1cs_t) * r, cuzk_rng_t *rng,
                              cuzk_progress_t *progress)
{
    memset(k, 0, sizeof *k);
    const r1cs_shape_t *sh = &r->shape;
    uint32_t n_public = sh->n_pub_out + sh->n_pub_in, n_vars = sh->n_wires;
    if (n_vars <= n_public)
        return CUZK_EINVAL;
    uint64_t rows = (uint64_t)sh->n_constraints + n_public + 1;
    unsigned log2n = G16N(log2)(rows);
    if (log2n + 1 > G16F(two_adicity)() || log2n > 30)
        return CUZK_EINVAL;
    size_t n = (size_t)1 << log2n, n_priv = n_vars - n_public - 1;

    uint64_t n_coeffs = G16C(csr_nnz)(&r->a) + G16C(csr_nnz)(&r->b) + n_public + 1;
    size_t g1 = sizeof(G16G1A), g2 = sizeof(G16G2A);
    size_t bytes = (n_public + 1) * g1 + n_vars * (2 * g1 + g2) + n_priv * g1 + n * g1 +
                   n_coeffs * GROTH16_COEFF_BYTES;
    unsigned char *block = malloc(bytes);
    G16FT *l = malloc(n * sizeof *l);
    G16FT *u = calloc(3 * (size_t)n_vars, sizeof *u); /* Σ a·L, Σ b·L, Σ c·L per wire */
    G16N(g1_table_t) *t1 = malloc(sizeof *t1);
    G16N(g2_table_t) *t2 = malloc(sizeof *t2);
    if (!block || !l || !u || !t1 || !t2) {
        free(block);
        free(l);
        free(u);
        free(t1);
        free(t2);
        return CUZK_ENOMEM;
    }
    G16FT tau, alpha, beta, delta, delta_inv;
    cuzk_status_t s = CUZK_OK;
    G16FT *secrets[4] = {&tau, &alpha, &beta, &delta};
    for (int i = 0; i < 4 && s == CUZK_OK; i++)
        do
            s = G16F(random)(secrets[i], rng);
        while (s == CUZK_OK && G16F(is_zero)(secrets[i]));
    if (s != CUZK_OK) {
        free(block);
        free(l);
        free(u);
        free(t1);
        free(t2);
        return s;
    }
    G16F(inv_vartime)(&delta_inv, &delta);
    G16N(g1_table_init)(t1);
    G16N(g2_table_init)(t2);

    k->curve = G16_CURVE_ID;
    k->conv = GROTH16_SNARKJS;
    k->n_vars = n_vars;
    k->n_public = n_public;
    k->domain_size = (uint32_t)n;
    k->n_coeffs = (uint32_t)n_coeffs;
    unsigned char *p = block;
    G16G1A *ic = (G16G1A *)p;
    p += (n_public + 1) * g1;
    G16G1A *qa = (G16G1A *)p;
    p += n_vars * g1;
    G16G1A *qb1 = (G16G1A *)p;
    p += n_vars * g1;
    G16G2A *qb2 = (G16G2A *)p;
    p += n_vars * g2;
    G16G1A *qc = (G16G1A *)p;
    p += n_priv * g1;
    G16G1A *qh = (G16G1A *)p;
    p += n * g1;
    unsigned char *coeffs = p;
    k->ic = (groth16_points_t){ic, (uint64_t)n_public + 1};
    k->a = (groth16_points_t){qa, n_vars};
    k->b1 = (groth16_points_t){qb1, n_vars};
    k->b2 = (groth16_points_t){qb2, n_vars};
    k->l = (groth16_points_t){qc, n_priv};
    k->h = (groth16_points_t){qh, n};
    k->coeffs = coeffs;

    /* The coefficients, in snarkjs' order: per constraint its A then its B
     * terms, then the rows x_i·0 = 0. */
    uint64_t e = 0;
    for (uint32_t row = 0; row < sh->n_constraints; row++) {
        for (int m = 0; m < 2; m++) {
            const G16C(csr_t) *mat = m == 0 ? &r->a : &r->b;
            for (uint64_t j = mat->row_ptr[row]; j < mat->row_ptr[row + 1]; j++) {
                unsigned char *rec = coeffs + GROTH16_COEFF_BYTES * e++;
                G16N(coeff_encode)(rec, (uint32_t)m, row, mat->col[j], &mat->val[j]);
            }
        }
    }
    for (uint32_t i = 0; i <= n_public; i++) {
        unsigned char *rec = coeffs + GROTH16_COEFF_BYTES * e++;
        G16N(coeff_encode)(rec, 0, sh->n_constraints + i, i, &G16F(ONE));
    }

    /* Per wire: Σ_row coef·L_row(τ) for A, B and C. */
    G16N(lagrange_at)(l, &tau, log2n, G16N(SNARKJS_GENERATOR), 0, 1, n);
    G16FT *ua = u, *ub = u + n_vars, *uc = u + 2 * (size_t)n_vars;
    for (uint32_t row = 0; row < sh->n_constraints; row++) {
        G16N(accumulate_row)(ua, &r->a, row, &l[row]);
        G16N(accumulate_row)(ub, &r->b, row, &l[row]);
        G16N(accumulate_row)(uc, &r->c, row, &l[row]);
    }
    for (uint32_t i = 0; i <= n_public; i++)
        G16F(add)(&ua[i], &ua[i], &l[sh->n_constraints + i]);

    /* IC and C take β·a + α·b + c per wire, C's over δ. */
    for (uint32_t i = 0; i < n_vars; i++) {
        G16FT t;
        G16F(mul)(&t, &beta, &ua[i]);
        G16F(add)(&uc[i], &uc[i], &t);
        G16F(mul)(&t, &alpha, &ub[i]);
        G16F(add)(&uc[i], &uc[i], &t);
        if (i > n_public)
            G16F(mul)(&uc[i], &uc[i], &delta_inv);
    }
    G16N(g1s_times)(t1, qa, ua, n_vars, progress, "query A");
    G16N(g1s_times)(t1, qb1, ub, n_vars, progress, "query B1");
    G16N(g2s_times)(t2, qb2, ub, n_vars, progress, "query B2");
    G16N(g1s_times)(t1, ic, uc, (size_t)n_public + 1, progress, "IC");
    G16N(g1s_times)(t1, qc, uc + n_public + 1, n_priv, progress, "query C");
    /* H[j] = L^(2n)_(2j+1)(τ)/δ */
    G16N(lagrange_at)(l, &tau, log2n + 1, G16N(SNARKJS_GENERATOR), 1, 2, n);
    for (size_t j = 0; j < n; j++)
        G16F(mul)(&l[j], &l[j], &delta_inv);
    G16N(g1s_times)(t1, qh, l, n, progress, "query H");

    G16FT secret_points[4] = {alpha, beta, delta, G16F(ONE)};
    G16G1A p1[4];
    G16G2A p2[4];
    G16N(g1s_times)(t1, p1, secret_points, 4, NULL, NULL);
    G16N(g2s_times)(t2, p2, secret_points, 4, NULL, NULL);
    k->u.G16_CURVE.alpha1 = p1[0];
    k->u.G16_CURVE.beta1 = p1[1];
    k->u.G16_CURVE.delta1 = p1[2];
    k->u.G16_CURVE.beta2 = p2[1];
    k->u.G16_CURVE.gamma2 = p2[3];
    k->u.G16_CURVE.delta2 = p2[2];
    explicit_bzero(secret_points, sizeof secret_points);
    free(t1);
    free(t2);
    explicit_bzero(&tau, sizeof tau);
    explicit_bzero(&alpha, sizeof alpha);
    explicit_bzero(&beta, sizeof beta);
    explicit_bzero(&delta, sizeof delta);
    explicit_bzero(&delta_inv, sizeof delta_inv);
    free(l);
    free(u);
    return CUZK_OK;
}

void G16N(dev_key_free)(groth16_key_t *k)
{
    free((void *)k->ic.data);
    memset(k, 0, sizeof *k);
}
