/*
 * The development setup on the device (engine_gpu_setup.h), step by step as
 * bls381_groth16_bp_dev_setup does it on the CPU:
 *   1. the witness w and the rows: a = A·w, b = B·w, c = C·w and C's
 *      coefficient on ONE (c0); the assignment from them (canonical);
 *   2. the Lagrange basis l of ⟨ω_m⟩ at τ;
 *   3. per wire u(τ), v(τ), w(τ) (ua, ub, uc) by enumerating each column's
 *      rows, C's column ONE as the dot product c0·l; which wires take A and
 *      B points (the densities);
 *   4. (β·u + α·v + w)/γ for the inputs, /δ for the rest; the A and B
 *      scalars selected by the densities; H's τ^i·Z(τ)/δ;
 *   5. the points, by fixed-base multiplication from the CPU's tables.
 * Device work memory, in elements of 32 bytes: w, ua, ub, uc and c0 (n_cols
 * each: a, b and c live in ua, ub, uc until the columns overwrite them), l
 * (m), and three words per wire of flags and positions.
 */
#include "engine/engine_gpu_setup.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cuda/gpu.h"
#include "cuda/gpu_prove.h"
#include "cuda/gpu_setup.h"
#include "groth16/bls381_groth16.h"
#include "groth16/groth16_common.h"
#include "io/io_error.h"

enum {
    FR_BYTES = 32,
    G1_BYTES = sizeof(bls381_g1_affine_t),
    G2_BYTES = sizeof(bls381_g2_affine_t)
};

size_t engine_gpu_bp_asgn_bytes(const r1cs_ix_t *ix)
{
    size_t n_in = (size_t)ix->n_public + 1, n_aux = (size_t)ix->n_cols - n_in;
    size_t rows = (size_t)ix->n_rows + n_in;
    return (3 * rows + ix->n_cols) * FR_BYTES +
           (2 * asgn_words(n_aux) + asgn_words(n_in)) * sizeof(uint64_t);
}

/* The device buffers of one setup. */
typedef struct {
    void *w, *ua, *ub, *uc, *c0, *l, *scan, *dot, *small;
    uint32_t *fa, *fb, *pos;
    size_t scan_bytes;
} work_t;

static void work_free(work_t *b)
{
    void *all[] = {b->w,    b->ua,  b->ub,    b->uc, b->c0, b->l,
                   b->scan, b->dot, b->small, b->fa, b->fb, b->pos};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        gpu_free(all[i]);
    memset(b, 0, sizeof *b);
}

/* The secrets and what the kernels take from them, as bp_dev_setup. */
typedef struct {
    bls381_fr_t tau, alpha, beta, gamma, delta, gamma_inv, delta_inv;
    bls381_fr_t omega, omega_inv, zt_m, h0;
} consts_t;

static cuzk_status_t draw_consts(consts_t *c, unsigned log2m, rng_t *rng)
{
    bls381_fr_t *secrets[5] = {&c->tau, &c->alpha, &c->beta, &c->gamma, &c->delta};
    cuzk_status_t s = CUZK_OK;
    for (int i = 0; i < 5 && s == CUZK_OK; i++)
        do
            s = bls381_fr_random(secrets[i], rng);
        while (s == CUZK_OK && bls381_fr_is_zero(secrets[i]));
    if (s != CUZK_OK)
        return s;
    bls381_fr_inv_vartime(&c->gamma_inv, &c->gamma);
    bls381_fr_inv_vartime(&c->delta_inv, &c->delta);
    bls381_fr_root_of_unity(&c->omega, log2m, GROTH16_BP_GENERATOR_BLS381);
    bls381_fr_inv_vartime(&c->omega_inv, &c->omega);
    bls381_fr_t zt = c->tau, m_inv; /* Z(τ) = τ^m - 1 */
    for (unsigned i = 0; i < log2m; i++)
        bls381_fr_sqr(&zt, &zt);
    bls381_fr_sub(&zt, &zt, &bls381_fr_ONE);
    bls381_fr_from_u64(&m_inv, (uint64_t)1 << log2m);
    bls381_fr_inv_vartime(&m_inv, &m_inv);
    bls381_fr_mul(&c->zt_m, &zt, &m_inv);
    bls381_fr_mul(&c->h0, &zt, &c->delta_inv);
    return CUZK_OK;
}

/* Small device buffers: the tables, the counts, the secrets' scalars and
 * points, IC. */
typedef struct {
    size_t t1, t2, count, sk, p1, p2, ic, bits, end;
} small_t;

static small_t small_layout(size_t n_in, size_t bitmap_words)
{
    small_t o;
    o.t1 = 0;
    o.t2 = o.t1 + (size_t)CUZK_GPU_FB_POINTS * G1_BYTES;
    o.count = o.t2 + (size_t)CUZK_GPU_FB_POINTS * G2_BYTES;
    o.sk = o.count + 256;
    o.p1 = o.sk + 4 * FR_BYTES;
    o.p2 = o.p1 + 4 * G1_BYTES;
    o.ic = o.p2 + 4 * G2_BYTES;
    o.bits = (o.ic + n_in * G1_BYTES + 255) / 256 * 256;
    o.end = o.bits + bitmap_words * sizeof(uint64_t);
    return o;
}

#define TRY_GPU(call, what)                                                                        \
    do {                                                                                           \
        if ((s = (call)) != CUZK_OK) {                                                             \
            io_fail(err, err_size, s, "%s on %s: %s", what, g.name, g.err);                        \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

/* The assignment block of bp_assign, filled from the device: canonical a,
 * b, c (the input rows: a = x_i, b = c = 0), the wires, the bitmaps. */
typedef struct {
    unsigned char *va, *vb, *vc, *vw;
    uint64_t *a_aux, *b_in, *b_aux;
} asgn_layout_t;

static asgn_layout_t asgn_layout(void *amem, const r1cs_ix_t *ix, size_t n_in)
{
    size_t rows = (size_t)ix->n_rows + n_in, n_aux = ix->n_cols - n_in;
    asgn_layout_t l;
    l.va = amem;
    l.vb = l.va + rows * FR_BYTES;
    l.vc = l.vb + rows * FR_BYTES;
    l.vw = l.vc + rows * FR_BYTES;
    l.a_aux = (uint64_t *)(l.vw + (size_t)ix->n_cols * FR_BYTES);
    l.b_in = l.a_aux + asgn_words(n_aux);
    l.b_aux = l.b_in + asgn_words(n_in);
    return l;
}

cuzk_status_t engine_gpu_bp_dev_setup(engine_gpu_key_t **key, bp_params_t *p, asgn_t *a, void *amem,
                                      engine_gpu_dev_t *d, const r1cs_ix_t *ix, rng_t *rng,
                                      char *err, size_t err_size)
{
    *key = NULL;
    memset(p, 0, sizeof *p);
    if (a)
        memset(a, 0, sizeof *a);
    if (ix->curve != R1CS_CURVE_BLS12_381)
        return io_fail(err, err_size, CUZK_EUNSUPPORTED,
                       "the device's development setup makes BLS12-381 keys only");
    size_t n_in = (size_t)ix->n_public + 1, n_cols = ix->n_cols, n_rows = ix->n_rows;
    size_t n_aux = n_cols - n_in, rows = n_rows + n_in;
    unsigned log2m = 0;
    while (((size_t)1 << log2m) < rows)
        log2m++;
    if (n_aux == 0 || log2m > 31)
        return io_fail(err, err_size, CUZK_EINVAL,
                       "a circuit of %zu rows and %zu inputs is outside the setup's domains",
                       n_rows, n_in);
    size_t m = (size_t)1 << log2m, wa = asgn_words(n_aux), wi = asgn_words(n_in);
    gpu_t g = *engine_gpu_dev_gpu(d);
    gpu_stream_t st = NULL;
    work_t b = {0};
    consts_t c;
    bls381_g1_affine_t *t1 = malloc((size_t)CUZK_GPU_FB_POINTS * G1_BYTES), p1[4];
    bls381_g2_affine_t *t2 = malloc((size_t)CUZK_GPU_FB_POINTS * G2_BYTES), p2[4];
    bls381_g1_affine_t *ic = malloc(n_in * G1_BYTES);
    small_t so = small_layout(n_in, 2 * wa + wi);
    cuzk_status_t s = t1 && t2 && ic ? CUZK_OK : CUZK_ENOMEM;
    if (s == CUZK_OK)
        s = bls381_groth16_fb_table_g1(t1);
    if (s == CUZK_OK)
        s = bls381_groth16_fb_table_g2(t2);
    if (s == CUZK_OK)
        s = draw_consts(&c, log2m, rng);
    if (s != CUZK_OK) {
        io_fail(err, err_size, s, "preparing the development setup");
        goto out;
    }
    TRY_GPU(gpu_use(&g), "selecting the device");
    TRY_GPU(gpu_stream_new(&g, &st), "a stream for the setup");

    /* Work memory. */
    size_t e = n_cols * FR_BYTES;
    void **big[] = {&b.w, &b.ua, &b.ub, &b.uc, &b.c0};
    for (size_t i = 0; i < sizeof big / sizeof *big; i++)
        TRY_GPU(gpu_alloc(&g, big[i], e), "the setup's work memory");
    TRY_GPU(gpu_alloc(&g, &b.l, m * FR_BYTES), "the setup's Lagrange basis");
    TRY_GPU(gpu_alloc(&g, (void **)&b.fa, n_cols * 4), "the setup's flags");
    TRY_GPU(gpu_alloc(&g, (void **)&b.fb, n_cols * 4), "the setup's flags");
    TRY_GPU(gpu_alloc(&g, (void **)&b.pos, n_cols * 4), "the setup's flags");
    TRY_GPU(gpu_setup_select_bytes(&g, &b.scan_bytes, n_cols), "sizing the selection");
    TRY_GPU(gpu_alloc(&g, &b.scan, b.scan_bytes ? b.scan_bytes : 1), "the selection's scratch");
    TRY_GPU(gpu_alloc(&g, &b.dot, (size_t)CUZK_GPU_DOT_BLOCKS * FR_BYTES), "the dot's scratch");
    TRY_GPU(gpu_alloc(&g, &b.small, so.end), "the setup's tables");
    unsigned char *sm = b.small;
    TRY_GPU(gpu_upload(&g, sm + so.t1, t1, (size_t)CUZK_GPU_FB_POINTS * G1_BYTES, st),
            "uploading the tables");
    TRY_GPU(gpu_upload(&g, sm + so.t2, t2, (size_t)CUZK_GPU_FB_POINTS * G2_BYTES, st),
            "uploading the tables");

    /* 1. The witness, the rows (a, b, c in ua, ub, uc), the assignment. */
    TRY_GPU(gpu_ix_witness(&g, b.w, ix, st), "the witness");
    TRY_GPU(gpu_ix_rows(&g, b.ua, b.ub, b.uc, b.c0, b.w, ix, st), "the rows");
    asgn_layout_t al = {0};
    if (a) {
        static const uint64_t one_raw[4] = {1, 0, 0, 0}; /* ⊗ 1: to canonical */
        void *vec[] = {b.ua, b.ub, b.uc, b.w};
        for (int i = 0; i < 4; i++)
            TRY_GPU(gpu_fr_mul_const_launch(&g, CUZK_GPU_BLS381, vec[i], vec[i],
                                            i < 3 ? n_rows : n_cols, one_raw, st),
                    "the assignment's canonical form");
        al = asgn_layout(amem, ix, n_in);
        unsigned char *dst[] = {al.va, al.vb, al.vc};
        for (int i = 0; i < 3; i++)
            TRY_GPU(gpu_download(&g, dst[i], vec[i], n_rows * FR_BYTES, st),
                    "downloading the assignment");
        TRY_GPU(gpu_download(&g, al.va + n_rows * FR_BYTES, b.w, n_in * FR_BYTES, st),
                "downloading the assignment");
        TRY_GPU(gpu_download(&g, al.vw, b.w, n_cols * FR_BYTES, st), "downloading the assignment");
        TRY_GPU(gpu_stream_sync(&g, st), "the assignment");
        memset(al.vb + n_rows * FR_BYTES, 0, n_in * FR_BYTES); /* x_i·0 = 0 */
        memset(al.vc + n_rows * FR_BYTES, 0, n_in * FR_BYTES);
    }

    /* 2, 3. The basis, the per-wire sums, C's column ONE. */
    TRY_GPU(gpu_setup_lagrange(&g, b.l, m, &c.omega, &c.omega_inv, &c.tau, &c.zt_m, st),
            "the Lagrange basis");
    TRY_GPU(gpu_ix_columns(&g, b.ua, b.ub, b.uc, b.fa, b.fb, b.l, ix, (uint32_t)n_in, st),
            "the columns");
    TRY_GPU(gpu_setup_dot_add(&g, b.uc, b.c0, b.l, n_rows, b.dot, st), "C's column ONE");
    if (a) {
        uint64_t *bits = (uint64_t *)(sm + so.bits);
        TRY_GPU(gpu_setup_bitmap(&g, bits, b.fa + n_in, n_aux, st), "the densities");
        TRY_GPU(gpu_setup_bitmap(&g, bits + wa, b.fb, n_in, st), "the densities");
        TRY_GPU(gpu_setup_bitmap(&g, bits + wa + wi, b.fb + n_in, n_aux, st), "the densities");
        TRY_GPU(gpu_download(&g, al.a_aux, bits, (2 * wa + wi) * sizeof(uint64_t), st),
                "downloading the densities");
    }

    /* 4. The scalars: combined (in uc), selected for A (in w) and B (in c0). */
    TRY_GPU(gpu_setup_combine(&g, b.uc, b.ua, b.ub, n_cols, (uint32_t)n_in, &c.alpha, &c.beta,
                              &c.gamma_inv, &c.delta_inv, st),
            "the L and IC scalars");
    uint32_t *count = (uint32_t *)(sm + so.count), counts[2];
    TRY_GPU(gpu_setup_select(&g, b.w, count, b.ua, b.fa, b.pos, n_cols, b.scan, b.scan_bytes, st),
            "selecting the A scalars");
    TRY_GPU(
        gpu_setup_select(&g, b.c0, count + 1, b.ub, b.fb, b.pos, n_cols, b.scan, b.scan_bytes, st),
        "selecting the B scalars");
    TRY_GPU(gpu_download(&g, counts, count, sizeof counts, st), "the counts");
    TRY_GPU(gpu_stream_sync(&g, st), "the scalars");

    /* 5. The points. */
    p->n_h = (uint32_t)(m - 1);
    p->n_l = (uint32_t)n_aux;
    p->n_a = counts[0];
    p->n_b = counts[1];
    p->vk.n_ic = (uint32_t)n_in;
    /* The device key from the counts alone (engine_gpu_key_blank). */
    groth16_key_t gk;
    memset(&gk, 0, sizeof gk);
    gk.curve = R1CS_CURVE_BLS12_381;
    gk.conv = GROTH16_BELLPERSON;
    gk.n_public = (uint32_t)n_in - 1;
    gk.n_vars = (uint32_t)n_cols;
    gk.domain_size = (uint32_t)m;
    gk.a.count = p->n_a;
    gk.b1.count = gk.b2.count = p->n_b;
    gk.l.count = p->n_l;
    gk.h.count = p->n_h;
    s = engine_gpu_key_blank(key, d, &gk, err, err_size);
    if (s != CUZK_OK)
        goto out;
    const unsigned char *sa = b.w, *sb = b.c0, *uc = b.uc;
    const void *tb1 = sm + so.t1, *tb2 = sm + so.t2;
    TRY_GPU(gpu_setup_fixed_base(&g, engine_gpu_key_query(*key, 0), sa, p->n_a, tb1, false, st),
            "the A query");
    TRY_GPU(gpu_setup_fixed_base(&g, engine_gpu_key_query(*key, 1), sb, p->n_b, tb1, false, st),
            "the B1 query");
    TRY_GPU(gpu_setup_fixed_base(&g, engine_gpu_key_query(*key, 2), sb, p->n_b, tb2, true, st),
            "the B2 query");
    TRY_GPU(gpu_setup_fixed_base(&g, engine_gpu_key_query(*key, 3), uc + n_in * FR_BYTES, n_aux,
                                 tb1, false, st),
            "the L query");
    TRY_GPU(gpu_setup_fixed_base(&g, sm + so.ic, uc, n_in, tb1, false, st), "IC");
    TRY_GPU(gpu_setup_powers(&g, b.l, m - 1, &c.h0, &c.tau, st), "the H scalars");
    TRY_GPU(gpu_setup_fixed_base(&g, engine_gpu_key_query(*key, 4), b.l, m - 1, tb1, false, st),
            "the H query");
    bls381_fr_t sk[4] = {c.alpha, c.beta, c.gamma, c.delta};
    TRY_GPU(gpu_upload(&g, sm + so.sk, sk, sizeof sk, st), "the secrets' points");
    TRY_GPU(gpu_setup_fixed_base(&g, sm + so.p1, sm + so.sk, 4, tb1, false, st),
            "the secrets' points");
    TRY_GPU(gpu_setup_fixed_base(&g, sm + so.p2, sm + so.sk, 4, tb2, true, st),
            "the secrets' points");
    TRY_GPU(gpu_download(&g, p1, sm + so.p1, sizeof p1, st), "the verifying key");
    TRY_GPU(gpu_download(&g, p2, sm + so.p2, sizeof p2, st), "the verifying key");
    TRY_GPU(gpu_download(&g, ic, sm + so.ic, n_in * G1_BYTES, st), "the verifying key");
    TRY_GPU(gpu_stream_sync(&g, st), "the key's points");
    explicit_bzero(sk, sizeof sk);
    p->vk.alpha1 = p1[0];
    p->vk.beta1 = p1[1];
    p->vk.delta1 = p1[3];
    p->vk.beta2 = p2[1];
    p->vk.gamma2 = p2[2];
    p->vk.delta2 = p2[3];
    p->vk.ic = ic;
    ic = NULL;
    if (a) {
        a->curve = R1CS_CURVE_BLS12_381;
        a->n_constraints = rows;
        a->n_inputs = n_in;
        a->n_aux = n_aux;
        a->a = (const uint64_t(*)[4])al.va;
        a->b = (const uint64_t(*)[4])al.vb;
        a->c = (const uint64_t(*)[4])al.vc;
        a->inputs = (const uint64_t(*)[4])al.vw;
        a->aux = (const uint64_t(*)[4])(al.vw + n_in * FR_BYTES);
        a->a_aux_density = al.a_aux;
        a->b_input_density = al.b_in;
        a->b_aux_density = al.b_aux;
    }
out:
    if (st)
        (void)gpu_stream_sync(&g, st); /* nothing of ours left running */
    gpu_stream_free(st);
    work_free(&b);
    explicit_bzero(&c, sizeof c);
    free(t1);
    free(t2);
    free(ic);
    if (s != CUZK_OK) {
        engine_gpu_key_free(*key);
        *key = NULL;
        memset(p, 0, sizeof *p);
        if (a)
            memset(a, 0, sizeof *a);
    }
    return s;
}
