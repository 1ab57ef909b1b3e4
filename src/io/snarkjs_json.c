#include "io/snarkjs_json.h"

#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "io/io_error.h"
#include "io/io_map.h"

enum {
    SJ_PATH_MAX = 64,               /* a path the parser builds: a key or IC[i] */
    SJ_PATH_STEP = 24,              /* the room one more "[i]" needs */
    SJ_DEC_MAX = bls381_fp_DEC_MAX, /* the longer of the two base fields */
    SJ_FP12_PARTS = 12,
};

_Static_assert((int)bls381_fp_DEC_MAX >= (int)bn254_fp_DEC_MAX &&
                   (int)bls381_fp_DEC_MAX >= (int)bls381_fr_DEC_MAX &&
                   (int)bls381_fp_DEC_MAX >= (int)bn254_fr_DEC_MAX,
               "SJ_DEC_MAX holds every decimal the files have");

/* ---- the two curves ----------------------------------------------------- */

static void sj_bn254_fp12_parts_(const bn254_fp12_t *a, const void *parts[SJ_FP12_PARTS])
{
    const bn254_fp6_t *h[2] = {&a->c0, &a->c1};
    for (int i = 0; i < 2; i++) {
        const bn254_fp2_t *t[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++) {
            parts[6 * i + 2 * j] = &t[j]->c0;
            parts[6 * i + 2 * j + 1] = &t[j]->c1;
        }
    }
}

static void sj_bls381_fp12_parts_(const bls381_fp12_t *a, const void *parts[SJ_FP12_PARTS])
{
    const bls381_fp6_t *h[2] = {&a->c0, &a->c1};
    for (int i = 0; i < 2; i++) {
        const bls381_fp2_t *t[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++) {
            parts[6 * i + 2 * j] = &t[j]->c0;
            parts[6 * i + 2 * j + 1] = &t[j]->c1;
        }
    }
}

/* The field and group operations of one curve, types erased. */
typedef struct sj_curve_ {
    r1cs_curve_t curve;
    const char *name;
    cuzk_status_t (*fp_from_dec)(void *r, const char *s);
    size_t (*fp_to_dec)(char *out, const void *a);
    cuzk_status_t (*fr_from_dec)(void *r, uint64_t index, const char *s);
    size_t (*fr_to_dec)(char *out, const void *a, uint64_t index);
    cuzk_status_t (*from_dec[2])(void *r, const char *const in[], size_t n, unsigned flags);
    void (*to_dec[2])(char *const out[], const void *p);
    void (*fp12_parts)(const void *a, const void *parts[SJ_FP12_PARTS]);
} sj_curve_t_;

#define SJ_CURVE_OPS(C)                                                                            \
    static cuzk_status_t sj_##C##_fp_from_dec_(void *r, const char *s)                             \
    {                                                                                              \
        return C##_fp_from_dec(r, s);                                                              \
    }                                                                                              \
    static size_t sj_##C##_fp_to_dec_(char *out, const void *a)                                    \
    {                                                                                              \
        return C##_fp_to_dec(out, a);                                                              \
    }                                                                                              \
    static cuzk_status_t sj_##C##_fr_from_dec_(void *r, uint64_t i, const char *s)                 \
    {                                                                                              \
        return C##_fr_from_dec((C##_fr_t *)r + i, s);                                              \
    }                                                                                              \
    static size_t sj_##C##_fr_to_dec_(char *out, const void *a, uint64_t i)                        \
    {                                                                                              \
        return C##_fr_to_dec(out, (const C##_fr_t *)a + i);                                        \
    }                                                                                              \
    static cuzk_status_t sj_##C##_g1_from_dec_(void *r, const char *const in[], size_t n,          \
                                               unsigned flags)                                     \
    {                                                                                              \
        return C##_g1_affine_from_dec(r, in, n, flags);                                            \
    }                                                                                              \
    static cuzk_status_t sj_##C##_g2_from_dec_(void *r, const char *const in[], size_t n,          \
                                               unsigned flags)                                     \
    {                                                                                              \
        return C##_g2_affine_from_dec(r, in, n, flags);                                            \
    }                                                                                              \
    static void sj_##C##_g1_to_dec_(char *const out[], const void *p)                              \
    {                                                                                              \
        C##_g1_affine_to_dec(out, p);                                                              \
    }                                                                                              \
    static void sj_##C##_g2_to_dec_(char *const out[], const void *p)                              \
    {                                                                                              \
        C##_g2_affine_to_dec(out, p);                                                              \
    }                                                                                              \
    static void sj_##C##_fp12_parts_erased_(const void *a, const void *parts[SJ_FP12_PARTS])       \
    {                                                                                              \
        sj_##C##_fp12_parts_(a, parts);                                                            \
    }

SJ_CURVE_OPS(bn254)
SJ_CURVE_OPS(bls381)

#define SJ_CURVE_ENTRY(C, ID, NAME)                                                                \
    {                                                                                              \
        ID, NAME, sj_##C##_fp_from_dec_, sj_##C##_fp_to_dec_, sj_##C##_fr_from_dec_,               \
            sj_##C##_fr_to_dec_, {sj_##C##_g1_from_dec_, sj_##C##_g2_from_dec_},                   \
            {sj_##C##_g1_to_dec_, sj_##C##_g2_to_dec_}, sj_##C##_fp12_parts_erased_                \
    }

static const sj_curve_t_ sj_curves_[] = {
    SJ_CURVE_ENTRY(bn254, R1CS_CURVE_BN254, "bn128"),
    SJ_CURVE_ENTRY(bls381, R1CS_CURVE_BLS12_381, "bls12381"),
};

static const sj_curve_t_ *sj_curve_(r1cs_curve_t curve)
{
    for (size_t i = 0; i < sizeof(sj_curves_) / sizeof(sj_curves_[0]); i++)
        if (sj_curves_[i].curve == curve)
            return &sj_curves_[i];
    return NULL;
}

const char *snarkjs_curve_name(r1cs_curve_t curve)
{
    const sj_curve_t_ *cv = sj_curve_(curve);
    return cv ? cv->name : NULL;
}

r1cs_curve_t snarkjs_curve_from_name(const char *name)
{
    /* snarkjs' curves.js upper-cases the name and drops everything but
     * letters and digits before comparing. */
    char norm[16];
    size_t n = 0;
    for (const char *p = name; *p; p++) {
        if (!isalnum((unsigned char)*p))
            continue;
        if (n + 1 >= sizeof(norm))
            return R1CS_CURVE_NONE;
        norm[n++] = (char)toupper((unsigned char)*p);
    }
    norm[n] = '\0';
    if (!strcmp(norm, "BN128") || !strcmp(norm, "BN254") || !strcmp(norm, "ALTBN128"))
        return R1CS_CURVE_BN254;
    if (!strcmp(norm, "BLS12381"))
        return R1CS_CURVE_BLS12_381;
    return R1CS_CURVE_NONE;
}

/* The slot of each point a file holds, per curve. */
static void *sj_vk_point_(snarkjs_vk_t *vk, int which)
{
    if (vk->curve == R1CS_CURVE_BN254) {
        snarkjs_vk_bn254_t *v = &vk->u.bn254;
        void *s[] = {&v->alpha1, &v->beta2, &v->gamma2, &v->delta2};
        return s[which];
    }
    snarkjs_vk_bls381_t *v = &vk->u.bls381;
    void *s[] = {&v->alpha1, &v->beta2, &v->gamma2, &v->delta2};
    return s[which];
}

static void *sj_vk_ic_(const snarkjs_vk_t *vk, uint32_t i)
{
    if (vk->curve == R1CS_CURVE_BN254)
        return &vk->u.bn254.ic[i];
    return &vk->u.bls381.ic[i];
}

static void *sj_vk_alphabeta_(snarkjs_vk_t *vk)
{
    if (vk->curve == R1CS_CURVE_BN254)
        return &vk->u.bn254.alphabeta;
    return &vk->u.bls381.alphabeta;
}

static void *sj_proof_point_(snarkjs_proof_t *p, int which)
{
    if (p->curve == R1CS_CURVE_BN254) {
        void *s[] = {&p->u.bn254.a, &p->u.bn254.b, &p->u.bn254.c};
        return s[which];
    }
    void *s[] = {&p->u.bls381.a, &p->u.bls381.b, &p->u.bls381.c};
    return s[which];
}

static void *sj_public_values_(const r1cs_witness_t *w)
{
    return w->curve == R1CS_CURVE_BN254 ? (void *)w->v.bn254 : (void *)w->v.bls381;
}

/* The verification key's points in file order, with their groups. */
static const char *const sj_vk_names_[] = {"vk_alpha_1", "vk_beta_2", "vk_gamma_2", "vk_delta_2"};
static const int sj_vk_g2_[] = {0, 1, 1, 1};
static const char *const sj_proof_names_[] = {"pi_a", "pi_b", "pi_c"};
static const int sj_proof_g2_[] = {0, 1, 0};

cuzk_status_t snarkjs_vk_alloc(snarkjs_vk_t *vk, r1cs_curve_t curve, uint32_t n_public)
{
    memset(vk, 0, sizeof(*vk));
    if (!sj_curve_(curve) || n_public == UINT32_MAX)
        return CUZK_EINVAL;
    size_t n = (size_t)n_public + 1;
    void *ic = curve == R1CS_CURVE_BN254 ? calloc(n, sizeof(bn254_g1_affine_t))
                                         : calloc(n, sizeof(bls381_g1_affine_t));
    if (!ic)
        return CUZK_ENOMEM;
    vk->curve = curve;
    vk->n_public = n_public;
    if (curve == R1CS_CURVE_BN254)
        vk->u.bn254.ic = ic;
    else
        vk->u.bls381.ic = ic;
    return CUZK_OK;
}

void snarkjs_vk_free(snarkjs_vk_t *vk)
{
    if (vk->curve == R1CS_CURVE_BN254)
        free(vk->u.bn254.ic);
    else if (vk->curve == R1CS_CURVE_BLS12_381)
        free(vk->u.bls381.ic);
    memset(vk, 0, sizeof(*vk));
}

groth16_vk_t snarkjs_vk_groth16(const snarkjs_vk_t *vk)
{
    assert(vk->curve == R1CS_CURVE_BN254 || vk->curve == R1CS_CURVE_BLS12_381);
    groth16_vk_t g;
    memset(&g, 0, sizeof g);
    g.curve = vk->curve;
    g.n_public = vk->n_public;
    g.ic.count = (uint64_t)vk->n_public + 1;
    if (vk->curve == R1CS_CURVE_BN254) {
        const snarkjs_vk_bn254_t *v = &vk->u.bn254;
        g.u.bn254 = (groth16_vk_bn254_t){v->alpha1, v->beta2, v->gamma2, v->delta2};
        g.ic.data = v->ic;
    } else {
        const snarkjs_vk_bls381_t *v = &vk->u.bls381;
        g.u.bls381 = (groth16_vk_bls381_t){v->alpha1, v->beta2, v->gamma2, v->delta2};
        g.ic.data = v->ic;
    }
    return g;
}

cuzk_status_t snarkjs_vk_from_groth16(snarkjs_vk_t *out, const groth16_vk_t *vk)
{
    cuzk_status_t s = snarkjs_vk_alloc(out, vk->curve, vk->n_public);
    if (s != CUZK_OK)
        return s;
    if (vk->curve == R1CS_CURVE_BN254) {
        snarkjs_vk_bn254_t *v = &out->u.bn254;
        const groth16_vk_bn254_t *f = &vk->u.bn254;
        v->alpha1 = f->alpha1;
        v->beta2 = f->beta2;
        v->gamma2 = f->gamma2;
        v->delta2 = f->delta2;
        memcpy(v->ic, vk->ic.data, ((size_t)vk->n_public + 1) * sizeof *v->ic);
    } else {
        snarkjs_vk_bls381_t *v = &out->u.bls381;
        const groth16_vk_bls381_t *f = &vk->u.bls381;
        v->alpha1 = f->alpha1;
        v->beta2 = f->beta2;
        v->gamma2 = f->gamma2;
        v->delta2 = f->delta2;
        memcpy(v->ic, vk->ic.data, ((size_t)vk->n_public + 1) * sizeof *v->ic);
    }
    return CUZK_OK;
}

/* ---- writing: bfj's layout ---------------------------------------------- */

/*
 * The emitter follows bfj's streamify event by event: a value (or a scope
 * opening) after another at the same level gets a comma; inside a scope
 * every value starts on a new line indented by the depth; a value after a
 * key gets one space; closing a scope starts a new line at the outer depth,
 * even when the scope is empty.
 */
typedef struct sj_out_ {
    char *p;
    size_t n, cap;
    bool oom;
    unsigned depth;
    bool needs_comma, after_key;
} sj_out_t_;

static void sj_put_(sj_out_t_ *o, const char *s, size_t n)
{
    if (o->oom)
        return;
    if (o->n + n + 1 > o->cap) {
        size_t cap = 2 * (o->n + n + 1) + 256;
        char *p = realloc(o->p, cap);
        if (!p) {
            o->oom = true;
            return;
        }
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->n, s, n);
    o->n += n;
    o->p[o->n] = '\0';
}

static void sj_puts_(sj_out_t_ *o, const char *s)
{
    sj_put_(o, s, strlen(s));
}

static void sj_newline_(sj_out_t_ *o)
{
    sj_puts_(o, "\n");
    for (unsigned i = 0; i < o->depth; i++)
        sj_puts_(o, " ");
}

static void sj_before_(sj_out_t_ *o, bool scope)
{
    if (o->after_key) {
        o->after_key = false;
        sj_puts_(o, " ");
        return;
    }
    if (o->needs_comma) {
        if (scope)
            o->needs_comma = false;
        sj_puts_(o, ",");
    } else if (!scope) {
        o->needs_comma = true;
    }
    if (o->depth)
        sj_newline_(o);
}

static void sj_open_(sj_out_t_ *o, const char *bracket)
{
    sj_before_(o, true);
    sj_puts_(o, bracket);
    o->needs_comma = false;
    o->depth++;
}

static void sj_close_(sj_out_t_ *o, const char *bracket)
{
    o->depth--;
    sj_newline_(o);
    sj_puts_(o, bracket);
    o->needs_comma = true;
}

static void sj_key_(sj_out_t_ *o, const char *key)
{
    sj_before_(o, false);
    sj_puts_(o, "\"");
    sj_puts_(o, key);
    sj_puts_(o, "\":");
    o->after_key = true;
}

/* A value written as it is: a number, or a string with its quotes. */
static void sj_raw_(sj_out_t_ *o, const char *v)
{
    sj_before_(o, false);
    sj_puts_(o, v);
}

/* A string that needs no escaping (names, decimals). */
static void sj_string_(sj_out_t_ *o, const char *s)
{
    sj_before_(o, false);
    sj_puts_(o, "\"");
    sj_puts_(o, s);
    sj_puts_(o, "\"");
}

/* A point as snarkjs writes it: G1 [x, y, z], G2 [[x0, x1], [y0, y1], [z0, z1]]. */
static void sj_point_out_(sj_out_t_ *o, const sj_curve_t_ *cv, int g2, const void *p)
{
    char buf[6][SJ_DEC_MAX];
    char *const out[6] = {buf[0], buf[1], buf[2], buf[3], buf[4], buf[5]};
    cv->to_dec[g2](out, p);
    sj_open_(o, "[");
    for (int c = 0; c < 3; c++) {
        if (!g2) {
            sj_string_(o, out[c]);
            continue;
        }
        sj_open_(o, "[");
        sj_string_(o, out[2 * c]);
        sj_string_(o, out[2 * c + 1]);
        sj_close_(o, "]");
    }
    sj_close_(o, "]");
}

/* Hands the text over, or reports the allocation failure. */
static cuzk_status_t sj_finish_(sj_out_t_ *o, char **out, size_t *len)
{
    if (o->oom || !o->p) {
        free(o->p);
        *out = NULL;
        *len = 0;
        return CUZK_ENOMEM;
    }
    *out = o->p;
    *len = o->n;
    return CUZK_OK;
}

cuzk_status_t snarkjs_vk_format(char **out, size_t *len, const snarkjs_vk_t *vk)
{
    const sj_curve_t_ *cv = sj_curve_(vk->curve);
    *out = NULL;
    *len = 0;
    if (!cv || !vk->has_alphabeta)
        return CUZK_EINVAL;
    snarkjs_vk_t *v = (snarkjs_vk_t *)vk; /* the slot helpers only read here */
    sj_out_t_ o = {0};
    char num[16];
    sj_open_(&o, "{");
    sj_key_(&o, "protocol");
    sj_string_(&o, "groth16");
    sj_key_(&o, "curve");
    sj_string_(&o, cv->name);
    sj_key_(&o, "nPublic");
    snprintf(num, sizeof(num), "%" PRIu32, vk->n_public);
    sj_raw_(&o, num);
    for (int i = 0; i < 4; i++) {
        sj_key_(&o, sj_vk_names_[i]);
        sj_point_out_(&o, cv, sj_vk_g2_[i], sj_vk_point_(v, i));
    }
    const void *parts[SJ_FP12_PARTS];
    cv->fp12_parts(sj_vk_alphabeta_(v), parts);
    char dec[SJ_DEC_MAX];
    sj_key_(&o, "vk_alphabeta_12");
    sj_open_(&o, "[");
    for (int i = 0; i < 2; i++) {
        sj_open_(&o, "[");
        for (int j = 0; j < 3; j++) {
            sj_open_(&o, "[");
            for (int k = 0; k < 2; k++) {
                cv->fp_to_dec(dec, parts[6 * i + 2 * j + k]);
                sj_string_(&o, dec);
            }
            sj_close_(&o, "]");
        }
        sj_close_(&o, "]");
    }
    sj_close_(&o, "]");
    sj_key_(&o, "IC");
    sj_open_(&o, "[");
    for (uint64_t i = 0; i <= vk->n_public; i++)
        sj_point_out_(&o, cv, 0, sj_vk_ic_(vk, (uint32_t)i));
    sj_close_(&o, "]");
    sj_close_(&o, "}");
    return sj_finish_(&o, out, len);
}

cuzk_status_t snarkjs_proof_format(char **out, size_t *len, const snarkjs_proof_t *p)
{
    const sj_curve_t_ *cv = sj_curve_(p->curve);
    *out = NULL;
    *len = 0;
    if (!cv)
        return CUZK_EINVAL;
    snarkjs_proof_t *q = (snarkjs_proof_t *)p; /* the slot helper only reads here */
    sj_out_t_ o = {0};
    sj_open_(&o, "{");
    for (int i = 0; i < 3; i++) {
        sj_key_(&o, sj_proof_names_[i]);
        sj_point_out_(&o, cv, sj_proof_g2_[i], sj_proof_point_(q, i));
    }
    sj_key_(&o, "protocol");
    sj_string_(&o, "groth16");
    sj_key_(&o, "curve");
    sj_string_(&o, cv->name);
    sj_close_(&o, "}");
    return sj_finish_(&o, out, len);
}

cuzk_status_t snarkjs_public_format(char **out, size_t *len, const r1cs_witness_t *pub)
{
    const sj_curve_t_ *cv = sj_curve_(pub->curve);
    *out = NULL;
    *len = 0;
    if (!cv)
        return CUZK_EINVAL;
    sj_out_t_ o = {0};
    char dec[SJ_DEC_MAX];
    const void *values = sj_public_values_(pub);
    sj_open_(&o, "[");
    for (uint32_t i = 0; i < pub->n; i++) {
        cv->fr_to_dec(dec, values, i);
        sj_string_(&o, dec);
    }
    sj_close_(&o, "]");
    return sj_finish_(&o, out, len);
}

/* Writes text (the formatter's result st) onto out; frees text. */
static cuzk_status_t sj_write_text_(io_output_t *out, cuzk_status_t st, char *text, size_t len,
                                    const char *what, char *err, size_t err_size)
{
    if (st != CUZK_OK)
        return io_fail(err, err_size, st, "%s: cannot format the %s: %s", out->path, what,
                       st == CUZK_EINVAL ? "it is incomplete (no curve, or no vk_alphabeta_12)"
                                         : cuzk_strerror(st));
    io_output_write(out, text, len);
    free(text);
    return CUZK_OK;
}

cuzk_status_t snarkjs_vk_write_to(io_output_t *out, const snarkjs_vk_t *vk, char *err,
                                  size_t err_size)
{
    char *text;
    size_t len;
    cuzk_status_t st = snarkjs_vk_format(&text, &len, vk);
    return sj_write_text_(out, st, text, len, "verification key", err, err_size);
}

cuzk_status_t snarkjs_proof_write_to(io_output_t *out, const snarkjs_proof_t *p, char *err,
                                     size_t err_size)
{
    char *text;
    size_t len;
    cuzk_status_t st = snarkjs_proof_format(&text, &len, p);
    return sj_write_text_(out, st, text, len, "proof", err, err_size);
}

cuzk_status_t snarkjs_public_write_to(io_output_t *out, const r1cs_witness_t *pub, char *err,
                                      size_t err_size)
{
    char *text;
    size_t len;
    cuzk_status_t st = snarkjs_public_format(&text, &len, pub);
    return sj_write_text_(out, st, text, len, "public signals", err, err_size);
}

cuzk_status_t snarkjs_vk_write(const char *path, const snarkjs_vk_t *vk, char *err, size_t err_size)
{
    io_output_t out;
    cuzk_status_t st = io_output_open(&out, path, err, err_size);
    if (st == CUZK_OK)
        st = io_output_close(&out, snarkjs_vk_write_to(&out, vk, err, err_size), err, err_size);
    return st;
}

cuzk_status_t snarkjs_proof_write(const char *path, const snarkjs_proof_t *p, char *err,
                                  size_t err_size)
{
    io_output_t out;
    cuzk_status_t st = io_output_open(&out, path, err, err_size);
    if (st == CUZK_OK)
        st = io_output_close(&out, snarkjs_proof_write_to(&out, p, err, err_size), err, err_size);
    return st;
}

cuzk_status_t snarkjs_public_write(const char *path, const r1cs_witness_t *pub, char *err,
                                   size_t err_size)
{
    io_output_t out;
    cuzk_status_t st = io_output_open(&out, path, err, err_size);
    if (st == CUZK_OK)
        st =
            io_output_close(&out, snarkjs_public_write_to(&out, pub, err, err_size), err, err_size);
    return st;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct sj_in_ {
    const char *name; /* the file, for messages */
    const sj_curve_t_ *cv;
    char *err;
    size_t err_size;
} sj_in_t_;

/* "<file>: <path>: <what>". */
static cuzk_status_t sj_fail_(const sj_in_t_ *x, cuzk_status_t st, const char *path,
                              const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static cuzk_status_t sj_fail_(const sj_in_t_ *x, cuzk_status_t st, const char *path,
                              const char *fmt, ...)
{
    char what[IO_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): see io_error.c
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    return io_fail(x->err, x->err_size, st, "%s: %s: %s", x->name, path, what);
}

/* Parses text into *root, which must be of type `type`. */
static cuzk_status_t sj_load_(const sj_in_t_ *x, const char *text, size_t len, json_type type,
                              json_t **root)
{
    json_error_t je;
    *root = json_loadb(text ? text : "", text ? len : 0, JSON_REJECT_DUPLICATES, &je);
    if (!*root)
        return io_fail(x->err, x->err_size, CUZK_EBADFILE, "%s: not JSON: line %d, column %d: %s",
                       x->name, je.line, je.column, je.text);
    if (json_typeof(*root) != type) {
        json_decref(*root);
        *root = NULL;
        return io_fail(x->err, x->err_size, CUZK_EBADFILE, "%s: expected a JSON %s", x->name,
                       type == JSON_OBJECT ? "object" : "array");
    }
    return CUZK_OK;
}

/* The member key of object root, which must be there. */
static cuzk_status_t sj_member_(const sj_in_t_ *x, json_t *root, const char *key, json_t **v)
{
    *v = json_object_get(root, key);
    if (!*v)
        return sj_fail_(x, CUZK_EBADFILE, key, "missing");
    return CUZK_OK;
}

/* protocol and curve; x->cv is set from the file. */
static cuzk_status_t sj_protocol_curve_(sj_in_t_ *x, json_t *root, r1cs_curve_t expect)
{
    json_t *v;
    cuzk_status_t st;
    if ((st = sj_member_(x, root, "protocol", &v)) != CUZK_OK)
        return st;
    if (!json_is_string(v))
        return sj_fail_(x, CUZK_EBADFILE, "protocol", "not a string");
    if (strcmp(json_string_value(v), "groth16") != 0)
        return sj_fail_(x, CUZK_EUNSUPPORTED, "protocol", "\"%.40s\"; cuzk handles \"groth16\"",
                        json_string_value(v));
    if ((st = sj_member_(x, root, "curve", &v)) != CUZK_OK)
        return st;
    if (!json_is_string(v))
        return sj_fail_(x, CUZK_EBADFILE, "curve", "not a string");
    r1cs_curve_t curve = snarkjs_curve_from_name(json_string_value(v));
    if (curve == R1CS_CURVE_NONE)
        return sj_fail_(x, CUZK_EUNSUPPORTED, "curve",
                        "\"%.40s\" is neither bn128 (BN254) nor bls12381 (BLS12-381)",
                        json_string_value(v));
    if (expect != R1CS_CURVE_NONE && curve != expect)
        return sj_fail_(x, CUZK_EBADFILE, "curve", "\"%.40s\" (%s), expected %s (%s)",
                        json_string_value(v), r1cs_curve_name(curve), snarkjs_curve_name(expect),
                        r1cs_curve_name(expect));
    x->cv = sj_curve_(curve);
    return CUZK_OK;
}

/* A decimal base-field coordinate at path: a string of digits below q. */
static cuzk_status_t sj_coord_(const sj_in_t_ *x, json_t *v, const char *path, const char **s)
{
    if (!json_is_string(v))
        return sj_fail_(x, CUZK_EBADFILE, path, "not a decimal string");
    *s = json_string_value(v);
    bls381_fp_t scratch; /* the larger of the two base fields */
    cuzk_status_t st = x->cv->fp_from_dec(&scratch, *s);
    if (st == CUZK_ENONCANONICAL)
        return sj_fail_(x, st, path, "not below q of %s", r1cs_curve_name(x->cv->curve));
    if (st != CUZK_OK)
        return sj_fail_(x, CUZK_EBADFILE, path, "not a decimal string");
    return CUZK_OK;
}

/* An array of exactly n elements at path. */
static cuzk_status_t sj_array_(const sj_in_t_ *x, json_t *v, const char *path, size_t n,
                               const char *of)
{
    if (!json_is_array(v) || json_array_size(v) != n)
        return sj_fail_(x, CUZK_EBADFILE, path, "expected an array of %zu %s", n, of);
    return CUZK_OK;
}

/* A point of G1 (g2 = 0) or G2 at path into out, with every check. */
static cuzk_status_t sj_point_in_(const sj_in_t_ *x, json_t *v, const char *path, int g2, void *out)
{
    const char *s[6];
    char sub[SJ_PATH_MAX + SJ_PATH_STEP], sub2[SJ_PATH_MAX + 2 * SJ_PATH_STEP];
    cuzk_status_t st =
        sj_array_(x, v, path, 3, g2 ? "pairs of decimal strings" : "decimal strings");
    for (size_t c = 0; st == CUZK_OK && c < 3; c++) {
        json_t *e = json_array_get(v, c);
        snprintf(sub, sizeof(sub), "%s[%zu]", path, c);
        if (!g2) {
            st = sj_coord_(x, e, sub, &s[c]);
            continue;
        }
        st = sj_array_(x, e, sub, 2, "decimal strings");
        for (size_t i = 0; st == CUZK_OK && i < 2; i++) {
            snprintf(sub2, sizeof(sub2), "%s[%zu]", sub, i);
            st = sj_coord_(x, json_array_get(e, i), sub2, &s[2 * c + i]);
        }
    }
    if (st != CUZK_OK)
        return st;
    st = x->cv->from_dec[g2](out, s, g2 ? 6 : 3, 0);
    switch (st) {
    case CUZK_OK: return CUZK_OK;
    case CUZK_ENOTONCURVE: return sj_fail_(x, st, path, "not on the curve");
    case CUZK_ENOTINSUBGROUP: return sj_fail_(x, st, path, "not in the order-r subgroup");
    default:
        return sj_fail_(x, CUZK_EBADFILE, path,
                        "z must be 1, or the point [0, 1, 0] (infinity) exactly");
    }
}

static cuzk_status_t sj_alphabeta_(const sj_in_t_ *x, json_t *v, snarkjs_vk_t *vk)
{
    const char *path = "vk_alphabeta_12";
    char p1[SJ_PATH_MAX], p2[SJ_PATH_MAX + SJ_PATH_STEP], p3[SJ_PATH_MAX + 2 * SJ_PATH_STEP];
    const void *parts[SJ_FP12_PARTS];
    x->cv->fp12_parts(sj_vk_alphabeta_(vk), parts);
    cuzk_status_t st = sj_array_(x, v, path, 2, "Fp6 elements");
    for (size_t i = 0; st == CUZK_OK && i < 2; i++) {
        json_t *a = json_array_get(v, i);
        snprintf(p1, sizeof(p1), "%s[%zu]", path, i);
        st = sj_array_(x, a, p1, 3, "Fp2 elements");
        for (size_t j = 0; st == CUZK_OK && j < 3; j++) {
            json_t *b = json_array_get(a, j);
            snprintf(p2, sizeof(p2), "%s[%zu]", p1, j);
            st = sj_array_(x, b, p2, 2, "decimal strings");
            for (size_t k = 0; st == CUZK_OK && k < 2; k++) {
                const char *s = NULL;
                snprintf(p3, sizeof(p3), "%s[%zu]", p2, k);
                st = sj_coord_(x, json_array_get(b, k), p3, &s);
                if (st == CUZK_OK)
                    st = x->cv->fp_from_dec((void *)parts[6 * i + 2 * j + k], s);
            }
        }
    }
    return st;
}

static cuzk_status_t sj_vk_(snarkjs_vk_t *vk, sj_in_t_ *x, json_t *root, r1cs_curve_t expect)
{
    json_t *v, *ic;
    cuzk_status_t st;
    if ((st = sj_protocol_curve_(x, root, expect)) != CUZK_OK ||
        (st = sj_member_(x, root, "nPublic", &v)) != CUZK_OK)
        return st;
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) >= (json_int_t)UINT32_MAX)
        return sj_fail_(x, CUZK_EBADFILE, "nPublic", "expected an integer from 0 to %" PRIu32,
                        UINT32_MAX - 1);
    uint32_t n_public = (uint32_t)json_integer_value(v);
    if ((st = sj_member_(x, root, "IC", &ic)) != CUZK_OK)
        return st;
    if (!json_is_array(ic) || json_array_size(ic) != (size_t)n_public + 1)
        return sj_fail_(x, CUZK_EBADFILE, "IC",
                        "expected an array of nPublic + 1 = %" PRIu64 " points, found %zu%s",
                        (uint64_t)n_public + 1, json_is_array(ic) ? json_array_size(ic) : 0,
                        json_is_array(ic) ? "" : " (not an array)");
    if (!x->cv) /* set by sj_protocol_curve_ on success; guards the analyzer's view */
        return sj_fail_(x, CUZK_EBADFILE, "curve", "missing");
    if ((st = snarkjs_vk_alloc(vk, x->cv->curve, n_public)) != CUZK_OK)
        return io_fail(x->err, x->err_size, st, "%s: no memory for %" PRIu64 " IC points", x->name,
                       (uint64_t)n_public + 1);
    for (int i = 0; i < 4; i++) {
        if ((st = sj_member_(x, root, sj_vk_names_[i], &v)) != CUZK_OK ||
            (st = sj_point_in_(x, v, sj_vk_names_[i], sj_vk_g2_[i], sj_vk_point_(vk, i))) !=
                CUZK_OK)
            return st;
    }
    char path[SJ_PATH_MAX];
    for (uint32_t i = 0; i <= n_public; i++) {
        snprintf(path, sizeof(path), "IC[%" PRIu32 "]", i);
        if ((st = sj_point_in_(x, json_array_get(ic, i), path, 0, sj_vk_ic_(vk, i))) != CUZK_OK)
            return st;
    }
    v = json_object_get(root, "vk_alphabeta_12");
    if (v) {
        if ((st = sj_alphabeta_(x, v, vk)) != CUZK_OK)
            return st;
        vk->has_alphabeta = true;
    }
    return CUZK_OK;
}

cuzk_status_t snarkjs_vk_parse(snarkjs_vk_t *vk, const char *text, size_t len, const char *name,
                               r1cs_curve_t expect, char *err, size_t err_size)
{
    memset(vk, 0, sizeof(*vk));
    sj_in_t_ x = {name, NULL, err, err_size};
    json_t *root;
    cuzk_status_t st = sj_load_(&x, text, len, JSON_OBJECT, &root);
    if (st != CUZK_OK)
        return st;
    st = sj_vk_(vk, &x, root, expect);
    json_decref(root);
    if (st != CUZK_OK)
        snarkjs_vk_free(vk);
    return st;
}

static cuzk_status_t sj_proof_(snarkjs_proof_t *p, sj_in_t_ *x, json_t *root, r1cs_curve_t expect)
{
    json_t *v;
    cuzk_status_t st = sj_protocol_curve_(x, root, expect);
    if (st != CUZK_OK)
        return st;
    if (!x->cv) /* set by sj_protocol_curve_ on success; guards the analyzer's view */
        return sj_fail_(x, CUZK_EBADFILE, "curve", "missing");
    p->curve = x->cv->curve;
    for (int i = 0; i < 3; i++) {
        if ((st = sj_member_(x, root, sj_proof_names_[i], &v)) != CUZK_OK ||
            (st = sj_point_in_(x, v, sj_proof_names_[i], sj_proof_g2_[i], sj_proof_point_(p, i))) !=
                CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

cuzk_status_t snarkjs_proof_parse(snarkjs_proof_t *p, const char *text, size_t len,
                                  const char *name, r1cs_curve_t expect, char *err, size_t err_size)
{
    memset(p, 0, sizeof(*p));
    sj_in_t_ x = {name, NULL, err, err_size};
    json_t *root;
    cuzk_status_t st = sj_load_(&x, text, len, JSON_OBJECT, &root);
    if (st != CUZK_OK)
        return st;
    st = sj_proof_(p, &x, root, expect);
    json_decref(root);
    if (st != CUZK_OK)
        memset(p, 0, sizeof(*p));
    return st;
}

static cuzk_status_t sj_public_(r1cs_witness_t *pub, const sj_in_t_ *x, json_t *root,
                                int64_t expect_n)
{
    size_t n = json_array_size(root);
    if (expect_n != SNARKJS_ANY_COUNT && (expect_n < 0 || (uint64_t)expect_n != n))
        return io_fail(x->err, x->err_size, CUZK_EBADFILE,
                       "%s: %zu public signals, expected %" PRId64, x->name, n, expect_n);
    if (n >= UINT32_MAX)
        return io_fail(x->err, x->err_size, CUZK_EBADFILE, "%s: %zu public signals, too many",
                       x->name, n);
    if (r1cs_witness_alloc(pub, x->cv->curve, (uint32_t)n) != CUZK_OK)
        return io_fail(x->err, x->err_size, CUZK_ENOMEM, "%s: no memory for %zu public signals",
                       x->name, n);
    void *values = sj_public_values_(pub);
    char path[SJ_PATH_MAX];
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(root, i);
        snprintf(path, sizeof(path), "[%zu]", i);
        cuzk_status_t st = json_is_string(e) ? x->cv->fr_from_dec(values, i, json_string_value(e))
                                             : CUZK_EENCODING;
        if (st == CUZK_ENONCANONICAL)
            return sj_fail_(x, st, path, "not below r of %s", r1cs_curve_name(x->cv->curve));
        if (st != CUZK_OK)
            return sj_fail_(x, CUZK_EBADFILE, path, "not a decimal string");
    }
    return CUZK_OK;
}

cuzk_status_t snarkjs_public_parse(r1cs_witness_t *pub, const char *text, size_t len,
                                   const char *name, r1cs_curve_t curve, int64_t expect_n,
                                   char *err, size_t err_size)
{
    memset(pub, 0, sizeof(*pub));
    sj_in_t_ x = {name, sj_curve_(curve), err, err_size};
    if (!x.cv)
        return io_fail(err, err_size, CUZK_EINVAL, "%s: public signals need a curve", name);
    json_t *root;
    cuzk_status_t st = sj_load_(&x, text, len, JSON_ARRAY, &root);
    if (st != CUZK_OK)
        return st;
    st = sj_public_(pub, &x, root, expect_n);
    json_decref(root);
    if (st != CUZK_OK)
        r1cs_witness_free(pub);
    return st;
}

/* ---- from files ---------------------------------------------------------- */

typedef cuzk_status_t (*sj_parse_fn_)(void *obj, const char *text, size_t len, const char *name,
                                      const void *args, char *err, size_t err_size);

/* Parses the file at path into obj; a failure after parse succeeded (the
 * file shrank under the map) leaves obj for the caller to free. */
static cuzk_status_t sj_read_file_(void *obj, const char *path, sj_parse_fn_ parse,
                                   const void *args, char *err, size_t err_size)
{
    io_map_t m;
    cuzk_status_t st = io_map_open(&m, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    st = io_map_check(&m,
                      parse(obj, (const char *)m.data, (size_t)m.size, path, args, err, err_size),
                      path, err, err_size);
    io_map_close(&m);
    return st;
}

typedef struct sj_args_ {
    r1cs_curve_t curve;
    int64_t expect_n;
} sj_args_t_;

static cuzk_status_t sj_parse_vk_(void *obj, const char *text, size_t len, const char *name,
                                  const void *args, char *err, size_t err_size)
{
    const sj_args_t_ *a = args;
    return snarkjs_vk_parse(obj, text, len, name, a->curve, err, err_size);
}

static cuzk_status_t sj_parse_proof_(void *obj, const char *text, size_t len, const char *name,
                                     const void *args, char *err, size_t err_size)
{
    const sj_args_t_ *a = args;
    return snarkjs_proof_parse(obj, text, len, name, a->curve, err, err_size);
}

static cuzk_status_t sj_parse_public_(void *obj, const char *text, size_t len, const char *name,
                                      const void *args, char *err, size_t err_size)
{
    const sj_args_t_ *a = args;
    return snarkjs_public_parse(obj, text, len, name, a->curve, a->expect_n, err, err_size);
}

cuzk_status_t snarkjs_vk_read(snarkjs_vk_t *vk, const char *path, r1cs_curve_t expect, char *err,
                              size_t err_size)
{
    memset(vk, 0, sizeof(*vk));
    sj_args_t_ a = {expect, 0};
    cuzk_status_t st = sj_read_file_(vk, path, sj_parse_vk_, &a, err, err_size);
    if (st != CUZK_OK)
        snarkjs_vk_free(vk);
    return st;
}

cuzk_status_t snarkjs_proof_read(snarkjs_proof_t *p, const char *path, r1cs_curve_t expect,
                                 char *err, size_t err_size)
{
    memset(p, 0, sizeof(*p));
    sj_args_t_ a = {expect, 0};
    return sj_read_file_(p, path, sj_parse_proof_, &a, err, err_size);
}

cuzk_status_t snarkjs_public_read(r1cs_witness_t *pub, const char *path, r1cs_curve_t curve,
                                  int64_t expect_n, char *err, size_t err_size)
{
    memset(pub, 0, sizeof(*pub));
    sj_args_t_ a = {curve, expect_n};
    cuzk_status_t st = sj_read_file_(pub, path, sj_parse_public_, &a, err, err_size);
    if (st != CUZK_OK)
        r1cs_witness_free(pub);
    return st;
}
