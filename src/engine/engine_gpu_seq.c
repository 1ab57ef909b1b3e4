/* The Groth16 sequence on a device (engine_gpu.h): under the compute
 * lock, synth, the H chain and the five MSMs of a staged partition, the
 * results collected into groth16_msms_t; and the Groth16 accelerator
 * (groth16_accel_t) over staging and this sequence. */
#include "engine/engine_gpu_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "groth16/groth16_key.h"
#include "msm/bls381_msm.h"
#include "msm/bn254_msm.h"
#include "util/clock.h"
#include "util/fail.h"

/* R² mod r as raw limbs (the Montgomery form of R): the constant that takes
 * canonical values to Montgomery form by one Montgomery product. */
static void fr_r2(gpu_curve_t curve, unsigned char out[FR_BYTES])
{
    if (curve == CUZK_GPU_BLS381) {
        bls381_fr_t one, r2;
        bls381_fr_set_one(&one);
        (void)bls381_fr_from_canonical(&r2, one.l);
        memcpy(out, &r2, FR_BYTES);
    } else {
        bn254_fr_t one, r2;
        bn254_fr_set_one(&one);
        (void)bn254_fr_from_canonical(&r2, one.l);
        memcpy(out, &r2, FR_BYTES);
    }
}

/* The device address of result i. */
static void *res_at(engine_gpu_slot_t *s, int i)
{
    return (unsigned char *)s->res.p + (size_t)i * gpu_xyzz_bytes(CUZK_GPU_BLS381_G2);
}

/* A vector of MSM scalars on the device (Montgomery form): w and its
 * private wires (GROTH16_SYNTH_COEFFS), or sa, sb and aux
 * (GROTH16_SYNTH_GIVEN); bases: those of the queries that take
 * it, whose rule for the ones (engine_gpu_ones_t) says how it is prepared;
 * after msm_prepare, cnt = its other scalars (ONES_BY_INDEX). */
typedef struct {
    void *s;
    size_t n, cnt;
    const engine_gpu_bases_t *bases;
} vec_t;

/* Classifies each vector i into the bitmaps of its ones (the slot's
 * bits[i]) and its other scalars (oth[i]); for bases that take the others
 * by index, compacts them into the slot's idx[i] and sends their counts to
 * the host (event counted). */
static cuzk_status_t split_vectors(engine_gpu_slot_t *s, const engine_gpu_key_t *k, const vec_t *v,
                                   int nv)
{
    engine_gpu_work_t *w = s->w;
    gpu_t *g = &s->d->g;
    unsigned char *acc = w->acc.p;
    uint32_t *cnt = w->cnt.p;
    bool counts = false;
    for (int i = 0; i < nv; i++) {
        CUZK_TRY(gpu_msm_classify_launch(g, k->curve, NULL, s->bits[i].p, w->oth[i].p,
                                         acc + i * CUZK_GPU_CLASSIFY_ACC_BYTES, v[i].s, v[i].n,
                                         w->stream));
        if (v[i].bases->ones != ENGINE_GPU_ONES_BY_INDEX)
            continue;
        CUZK_TRY(gpu_bitmap_compact_launch(g, s->idx[i].p, cnt + i, w->oth[i].p, v[i].n,
                                           w->compact.p, w->stream));
        counts = true;
    }
    if (!counts)
        return CUZK_OK;
    CUZK_TRY(gpu_download(g, (unsigned char *)w->h_res + engine_gpu_res_bytes(), cnt,
                          (size_t)nv * sizeof(uint32_t), w->stream));
    return gpu_event_record(g, s->counted, w->stream);
}

/* Before the MSMs, with synth and h queued: a vector whose MSMs take the
 * others by index waits for their counts (the only host wait before the
 * results; the device meanwhile runs the transforms); one whose MSMs take
 * every scalar with the ones summed apart has its ones zeroed; one whose
 * MSMs take the ones too is left as it is. */
static cuzk_status_t msm_prepare(engine_gpu_slot_t *s, const engine_gpu_key_t *k, vec_t *v, int nv)
{
    engine_gpu_dev_t *d = s->d;
    engine_gpu_work_t *w = s->w;
    bool counts = false;
    for (int i = 0; i < nv; i++)
        counts = counts || v[i].bases->ones == ENGINE_GPU_ONES_BY_INDEX;
    if (counts)
        CUZK_TRY(gpu_event_sync(&d->g, s->counted));
    const uint32_t *h =
        (const uint32_t *)((const unsigned char *)w->h_res + engine_gpu_res_bytes());
    for (int i = 0; i < nv; i++) {
        if (v[i].bases->ones == ENGINE_GPU_ONES_BY_INDEX)
            v[i].cnt = h[i];
        else if (v[i].bases->ones == ENGINE_GPU_ONES_ZEROED)
            CUZK_TRY(gpu_msm_clear_ones_launch(&d->g, k->curve, v[i].s, s->bits[i].p, v[i].n,
                                               w->stream));
    }
    return CUZK_OK;
}

/* Query q over vector vi (vi < 0: the H scalars h, n of them, all taken)
 * into result q, and the sum of the bases of its ones into result
 * ONES_OFFSET + q, each as the query's base source does it
 * (engine_gpu_bases_t). */
static cuzk_status_t run_query(engine_gpu_slot_t *s, const engine_gpu_key_t *k, int q,
                               const vec_t *v, int vi, const void *h, size_t n, uint64_t *h2d)
{
    engine_gpu_dev_t *d = s->d;
    engine_gpu_work_t *w = s->w;
    const engine_gpu_bases_t *b = &k->bases[q];
    CUZK_TRY(gpu_event_record(&d->g, s->qs[q], w->stream));
    gpu_msm_t *m;
    CUZK_TRY(engine_gpu_work_msm_ws(w, b->group, &m));
    /* A launch grows its workspace when it must, within the device's
     * budget (engine_gpu_work_msm_ws). */
    engine_gpu_msm_call_t c = {.m = m,
                               .result = res_at(s, q * WIN_MAX),
                               .scalars = vi < 0 ? h : v[vi].s,
                               .n = vi < 0 ? n : v[vi].n,
                               .idx = vi < 0 ? NULL : s->idx[vi].p,
                               .cnt = vi < 0 ? n : v[vi].cnt,
                               .threads = s->threads,
                               .stream = w->stream};
    CUZK_TRY(b->msm(b, &c, &s->win[q], h2d));
    if (vi >= 0)
        CUZK_TRY(b->sum_ones(b, &d->g, res_at(s, ONES_OFFSET + q), s->bits[vi].p, c.n, w->ones.p,
                             w->stream));
    return gpu_event_record(&d->g, s->ev[EV_QUERY0 + q], w->stream);
}

/* The H chain of the key's convention (conv.h) over a, b, c on the
 * domain, H's scalars (key_h_scalars of them) left in a; after the chain
 * queued last on the key's domain, from whichever work (engine_gpu_hseq_t). */
static cuzk_status_t h_chain(const engine_gpu_key_t *k, void *a, void *b, void *c,
                             gpu_stream_t stream, gpu_t *g)
{
    engine_gpu_hseq_t *q = k->hseq;
    pthread_mutex_lock(&q->m);
    cuzk_status_t st = q->queued ? gpu_stream_wait(g, stream, q->done) : CUZK_OK;
    if (st == CUZK_OK)
        st = k->conv.h == GROTH16_H_COSET_COEFFS
                 ? gpu_ntt_h_bellperson(k->dom, a, b, c, k->shift, stream)
                 : gpu_ntt_h_snarkjs(k->dom, a, b, c, k->shift, stream);
    if (st == CUZK_OK)
        st = gpu_event_record(g, q->done, stream);
    q->queued = q->queued || st == CUZK_OK;
    pthread_mutex_unlock(&q->m);
    return st;
}

/*
 * A yield point of a partition of a GROTH16_SYNTH_GIVEN key holding the
 * device alone, before it queues its next step:
 * waits for what it queued last (event done), so that nothing of it runs
 * on the device, then, when a more urgent partition waits for the device,
 * lets it in (release, acquire again: the lock goes to the most urgent).
 * What the partition needs later lives in its slot and its staged
 * buffer, which the other partition does not touch; the device's scratch
 * it does, but only between its own yield points. So a critical partition
 * waits for one step of a partition on the device (the longest: the H MSM),
 * not for the whole partition.
 */
static cuzk_status_t yield_point(engine_gpu_slot_t *s, unsigned urgency, gpu_event_t done)
{
    engine_gpu_dev_t *d = s->d;
    if (s->w != &d->work)
        return CUZK_OK; /* shared: the more urgent take another slot's place beside it */
    CUZK_TRY(gpu_event_sync(&d->g, done));
    if (!prio_lock_contended(&d->lock, urgency))
        return CUZK_OK;
    prio_lock_release(&d->lock);
    prio_lock_acquire(&d->lock, urgency);
    s->yields++;
    return gpu_use(&d->g);
}

/*
 * A partition of a GROTH16_SYNTH_COEFFS key: a, b, c computed on the
 * device from the witness w and the key's coefficients. The scalars of A,
 * B1 and B2 are the witness (GROTH16_AB_ALL_WIRES), those of Q_C its
 * private wires (GROTH16_L_PRIVATE_WIRES). No yield points: H's scalars
 * are in the device's a, which another partition would overwrite.
 */
static cuzk_status_t compute_coeffs(engine_gpu_slot_t *s, const engine_gpu_key_t *k, void *wit,
                                    uint64_t *h2d)
{
    engine_gpu_work_t *w = s->w;
    gpu_t *g = &s->d->g;
    gpu_curve_t cv = k->curve;
    size_t n = k->n_vars, dn = (size_t)1 << k->log2n, off = k->n_in;
    vec_t v[2] = {{wit, n, 0, &k->bases[Q_A]},
                  {(unsigned char *)wit + off * FR_BYTES, n - off, 0, &k->bases[Q_C]}};
    unsigned char one[FR_BYTES] = {1};
    CUZK_TRY(gpu_event_record(g, s->ev[EV_START], w->stream));
    /* synth: the plain witness for the products, the classes of w and of
     * its private wires, a = A·w, b = B·w, c = a·b */
    CUZK_TRY(gpu_fr_mul_const_launch(g, cv, w->wp.p, wit, n, one, w->stream));
    CUZK_TRY(split_vectors(s, k, v, 2));
    CUZK_TRY(gpu_csr_mul_vec_launch(g, cv, &k->csr[0], w->wp.p, w->a.p, w->stream));
    CUZK_TRY(gpu_csr_mul_vec_launch(g, cv, &k->csr[1], w->wp.p, w->b.p, w->stream));
    CUZK_TRY(gpu_fr_mul_launch(g, cv, w->c.p, w->a.p, w->b.p, dn, w->stream));
    CUZK_TRY(gpu_event_record(g, s->ev[EV_SYNTH], w->stream));
    /* h */
    CUZK_TRY(h_chain(k, w->a.p, w->b.p, w->c.p, w->stream, g));
    CUZK_TRY(gpu_event_record(g, s->ev[EV_H], w->stream));
    /* msm */
    CUZK_TRY(msm_prepare(s, k, v, 2));
    CUZK_TRY(run_query(s, k, Q_A, v, 0, NULL, 0, h2d));
    CUZK_TRY(run_query(s, k, Q_B1, v, 0, NULL, 0, h2d));
    CUZK_TRY(run_query(s, k, Q_B2, v, 0, NULL, 0, h2d));
    CUZK_TRY(run_query(s, k, Q_C, v, 1, NULL, 0, h2d));
    return run_query(s, k, Q_H, v, -1, w->a.p, key_h_scalars(k), h2d);
}

/*
 * A partition of a GROTH16_SYNTH_GIVEN key: a, b, c and the scalars as
 * staged (asgn_layout_t), in the partition's own buffer. The scalars of A
 * and B are those the densities selected (GROTH16_AB_DENSITY), those of
 * Q_C the aux values (GROTH16_L_AUX). One query at a time, a yield point
 * before each.
 */
static cuzk_status_t compute_given(engine_gpu_slot_t *s, const engine_gpu_key_t *k,
                                   unsigned urgency, void *in, uint64_t *h2d)
{
    engine_gpu_work_t *w = s->w;
    gpu_t *g = &s->d->g;
    asgn_layout_t l = engine_gpu_asgn_layout(k);
    unsigned char *p = in;
    unsigned char *a = p + l.a * FR_BYTES, *b = p + l.b * FR_BYTES, *c = p + l.c * FR_BYTES;
    vec_t v[3] = {{p + l.sa * FR_BYTES, k->qn[Q_A], 0, &k->bases[Q_A]},
                  {p + l.sb * FR_BYTES, k->qn[Q_B1], 0, &k->bases[Q_B1]},
                  {p + l.aux * FR_BYTES, k->n_aux, 0, &k->bases[Q_C]}};
    unsigned char r2[FR_BYTES];
    fr_r2(k->curve, r2);
    CUZK_TRY(gpu_event_record(g, s->ev[EV_START], w->stream));
    /* synth: everything to Montgomery form (unless it came so), the
     * classes of sa, sb, aux */
    if (!s->montgomery)
        CUZK_TRY(gpu_fr_mul_const_launch(g, k->curve, p, p, l.end, r2, w->stream));
    CUZK_TRY(split_vectors(s, k, v, 3));
    CUZK_TRY(gpu_event_record(g, s->ev[EV_SYNTH], w->stream));
    /* h: H's scalars in a */
    CUZK_TRY(h_chain(k, a, b, c, w->stream, g));
    CUZK_TRY(gpu_event_record(g, s->ev[EV_H], w->stream));
    /* msm, one query at a time, a yield point before each */
    CUZK_TRY(msm_prepare(s, k, v, 3));
    static const int order[QUERIES] = {Q_A, Q_B1, Q_B2, Q_C, Q_H};
    static const int vec[QUERIES] = {0, 1, 1, 2, -1};
    gpu_event_t done = s->ev[EV_H];
    for (int i = 0; i < QUERIES; i++) {
        CUZK_TRY(yield_point(s, urgency, done));
        int q = order[i];
        CUZK_TRY(run_query(s, k, q, v, vec[i], a, key_h_scalars(k), h2d));
        done = s->ev[EV_QUERY0 + q];
    }
    return CUZK_OK;
}

/* One curve's MSMs from the downloaded results: each query's windows
 * finished by Horner (NAME_G_msm_horner, from the window sums packed at the
 * group's own size, not at the result slots' G2 stride; the slots keep
 * their points' alignment), plus its ones sum (A, B1, C = L, and B2 in G2),
 * H as it is. */
#define COLLECT_CURVE(NAME)                                                                        \
    static void collect_##NAME(groth16_msms_##NAME##_t *m, const unsigned char *const *r,          \
                               const gpu_msm_windows_t *win)                                       \
    {                                                                                              \
        NAME##_g1_xyzz_t *g1[QUERIES] = {&m->a, &m->b1, NULL, &m->c, &m->h};                       \
        for (int q = 0; q < QUERIES; q++) {                                                        \
            if (!g1[q])                                                                            \
                continue;                                                                          \
            NAME##_g1_msm_horner(g1[q], (const NAME##_g1_xyzz_t *)(const void *)r[q * WIN_MAX],    \
                                 win[q].windows, win[q].window);                                   \
            if (q == Q_H)                                                                          \
                continue;                                                                          \
            NAME##_g1_xyzz_t o;                                                                    \
            memcpy(&o, r[ONES_OFFSET + q], sizeof o);                                              \
            NAME##_g1_xyzz_add_vartime(g1[q], g1[q], &o);                                          \
        }                                                                                          \
        NAME##_g2_xyzz_t o2;                                                                       \
        NAME##_g2_msm_horner(&m->b2, (const NAME##_g2_xyzz_t *)(const void *)r[Q_B2 * WIN_MAX],    \
                             win[Q_B2].windows, win[Q_B2].window);                                 \
        memcpy(&o2, r[ONES_OFFSET + Q_B2], sizeof o2);                                             \
        NAME##_g2_xyzz_add_vartime(&m->b2, &m->b2, &o2);                                           \
    }
COLLECT_CURVE(bls381)
COLLECT_CURVE(bn254)
#undef COLLECT_CURVE

static void collect(groth16_msms_t *out, const engine_gpu_key_t *k, const unsigned char *h,
                    const gpu_msm_windows_t *win)
{
    size_t st = gpu_xyzz_bytes(CUZK_GPU_BLS381_G2);
    const unsigned char *r[RESULTS];
    for (int i = 0; i < RESULTS; i++)
        r[i] = h + (size_t)i * st;
    if (k->curve == CUZK_GPU_BLS381) {
        out->curve = R1CS_CURVE_BLS12_381;
        collect_bls381(&out->u.bls381, r, win);
    } else {
        out->curve = R1CS_CURVE_BN254;
        collect_bn254(&out->u.bn254, r, win);
    }
}

/* Counts a partition into (+1) or out of (-1) its compute section. */
static void computing(engine_gpu_dev_t *d, int by)
{
    unsigned now = __atomic_add_fetch(&d->computing, (unsigned)by, __ATOMIC_RELAXED);
    unsigned peak = __atomic_load_n(&d->computing_peak, __ATOMIC_RELAXED);
    while (now > peak && !__atomic_compare_exchange_n(&d->computing_peak, &peak, now, true,
                                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

unsigned engine_gpu_dev_computing_peak(engine_gpu_dev_t *d)
{
    return __atomic_load_n(&d->computing_peak, __ATOMIC_RELAXED);
}

/* Takes the device for a partition on k: shared, with the slot's own
 * work, for a small key whose buffers the device's budget holds now; else
 * alone, with the device's work. s->w says which. */
static cuzk_status_t take_device(engine_gpu_slot_t *s, const engine_gpu_key_t *k, unsigned urgency)
{
    engine_gpu_dev_t *d = s->d;
    if (key_shares_device(k)) {
        if (!s->own) {
            engine_gpu_work_t *w = calloc(1, sizeof *w);
            if (w && engine_gpu_work_init(w, d) == CUZK_OK)
                s->own = w;
            else
                free(w);
        }
        if (s->own) {
            /* every G1 MSM's workspace, so that none grows halfway */
            size_t g1 = key_h_scalars(k);
            for (int q = 0; q < QUERIES; q++)
                if (q != Q_B2 && k->qn[q] > g1)
                    g1 = k->qn[q];
            prio_lock_acquire_shared(&d->lock, urgency);
            if (engine_gpu_work_reserve(s->own, k) == CUZK_OK &&
                engine_gpu_work_reserve_msms(s->own, k, g1) == CUZK_OK) {
                s->w = s->own;
                computing(d, 1);
                return CUZK_OK;
            }
            /* the budget cannot hold the slot's own buffers now: alone */
            prio_lock_release_shared(&d->lock);
        }
    }
    prio_lock_acquire(&d->lock, urgency);
    s->w = &d->work;
    computing(d, 1);
    return engine_gpu_work_reserve(&d->work, k);
}

static void give_device(engine_gpu_slot_t *s)
{
    computing(s->d, -1);
    if (s->w == &s->d->work)
        prio_lock_release(&s->d->lock);
    else
        prio_lock_release_shared(&s->d->lock);
    s->w = NULL;
}

cuzk_status_t engine_gpu_compute(engine_gpu_slot_t *s, const engine_gpu_key_t *k, unsigned urgency,
                                 groth16_msms_t *out, engine_gpu_stats_t *stats, char *err,
                                 size_t err_size)
{
    assert(s->key == k);
    engine_gpu_dev_t *d = s->d;
    gpu_t *g = &d->g;
    s->yields = 0;
    uint64_t h2d = s->h2d;
    /* The key's device copy stays while the partition computes on it; an
     * eviction in progress ends first (the key is then MAPPED, which the
     * slot's buffers, sized for any tier at least as high, serve). */
    if (k->bkey)
        (void)engine_budget_key_use(k->bkey);
    cuzk_status_t st = gpu_use(g);
    double t0 = clock_seconds();
    cuzk_status_t took = take_device(s, k, urgency);
    double t1 = clock_seconds();
    engine_gpu_work_t *w = s->w;
    if (st == CUZK_OK)
        st = took;
    if (st == CUZK_OK)
        st = gpu_stream_wait(g, w->stream, s->staged);
    if (st == CUZK_OK)
        st = key_synth_coeffs(k) ? compute_coeffs(s, k, s->in.p, &h2d)
                                 : compute_given(s, k, urgency, s->in.p, &h2d);
    if (st == CUZK_OK)
        st = gpu_download(g, w->h_res, s->res.p, engine_gpu_res_bytes(), w->stream);
    if (st == CUZK_OK)
        st = gpu_stream_sync(g, w->stream);
    /* Device times: synth and h from their events, each query from its
     * start (after a yield, the other partition's work is not counted). */
    float ms[2] = {0}, qms[QUERIES] = {0};
    for (int i = 0; st == CUZK_OK && i < 2; i++)
        st = gpu_event_ms(g, &ms[i], s->ev[EV_START + i], s->ev[EV_START + i + 1]);
    for (int q = 0; st == CUZK_OK && q < QUERIES; q++)
        st = gpu_event_ms(g, &qms[q], s->qs[q], s->ev[EV_QUERY0 + q]);
    if (st == CUZK_OK)
        collect(out, k, w->h_res, s->win);
    give_device(s);
    s->key = NULL;
    engine_gpu_slot_release(s);
    engine_gpu_slot_idle(s);
    if (k->bkey)
        engine_budget_key_done(k->bkey);
    if (st != CUZK_OK)
        return engine_gpu_fail(g, st, err, err_size, "proving on the device");
    if (stats) {
        *stats = (engine_gpu_stats_t){.stage_s = s->stage_s,
                                      .synth_ms = ms[0],
                                      .h_ms = ms[1],
                                      .wait_s = t1 - t0,
                                      .h2d_bytes = h2d,
                                      .d2h_bytes = engine_gpu_res_bytes(),
                                      .pageable_bytes = 0,
                                      .yields = s->yields};
        for (int q = 0; q < QUERIES; q++) {
            stats->query_ms[q] = qms[q];
            stats->msm_ms += qms[q];
        }
    }
    return CUZK_OK;
}

/* ---- the Groth16 accelerator --------------------------------------------- */

static void accel_times(groth16_timings_t *t, const engine_gpu_stats_t *st)
{
    if (!t)
        return;
    t->seconds[GROTH16_STAGE_SYNTH] = st->stage_s + st->wait_s + st->synth_ms / 1e3;
    t->seconds[GROTH16_STAGE_H] = st->h_ms / 1e3;
    t->seconds[GROTH16_STAGE_MSM] = st->msm_ms / 1e3;
}

/* Whether the device key k is a copy of key: the same convention, curve
 * and counts. */
static bool key_is(const engine_gpu_key_t *k, const groth16_key_t *key)
{
    const groth16_points_t *q[QUERIES] = {&key->a, &key->b1, &key->b2, &key->l, &key->h};
    bool same =
        k->conv.synth == key->conv.synth && k->conv.h == key->conv.h && k->conv.l == key->conv.l &&
        k->conv.ab == key->conv.ab &&
        k->curve == (key->curve == R1CS_CURVE_BLS12_381 ? CUZK_GPU_BLS381 : CUZK_GPU_BN254) &&
        k->n_vars == key->n_vars && k->n_public == key->n_public && k->domain == key->domain_size;
    for (int i = 0; same && i < QUERIES; i++)
        same = k->qn[i] == q[i]->count;
    return same;
}

/* Stages in (as the key's convention wants it: engine_gpu_stage), then
 * computes. */
static cuzk_status_t accel_msms(void *ctx, const struct groth16_key *key,
                                const struct groth16_input *in, groth16_msms_t *out,
                                groth16_timings_t *t, char *err, size_t err_size)
{
    engine_gpu_accel_t *a = ctx;
    if (!key_is(a->key, key))
        return fail_with(err, err_size, CUZK_EINVAL, "the device holds another key");
    CUZK_TRY(engine_gpu_stage(a->slot, a->key, in, a->pool, err, err_size));
    CUZK_TRY(engine_gpu_compute(a->slot, a->key, a->urgency, out, &a->stats, err, err_size));
    accel_times(t, &a->stats);
    return CUZK_OK;
}

groth16_accel_t engine_gpu_accel(engine_gpu_accel_t *a)
{
    groth16_accel_t acc = {a, accel_msms};
    return acc;
}
