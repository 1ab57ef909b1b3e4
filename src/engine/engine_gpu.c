/* One partition on a GPU (engine_gpu.h). */
#include "engine/engine_gpu.h"
#include "engine/engine_budget.h"
#include "engine/engine_pinned.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/gpu.h"
#include "cuda/gpu_check.h"
#include "cuda/gpu_msm.h"
#include "cuda/gpu_ntt.h"
#include "cuda/gpu_prove.h"
#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "groth16/groth16_key.h"
#include "io/iden3.h"
#include "io/io_error.h"
#include "msm/bls381_msm.h"
#include "msm/bn254_msm.h"
#include "util/clock.h"
#include "util/prio_lock.h"
#include "util/pool.h"

/* The five queries, in the order of the results: Q_C is C for zkeys and L
 * for bellperson parameters. */
enum { Q_A, Q_B1, Q_B2, Q_C, Q_H, QUERIES };
_Static_assert((int)QUERIES == (int)ENGINE_GPU_QUERIES,
               "engine_gpu.h lists the queries in this order");
/* Results on the device: each of the five MSMs' window sums (WIN_MAX
 * slots: room for any window, c = 1 on 255 bits included, so that every
 * MSM is finished on the host and the engine tests' small ones take the
 * same path as full-size ones), then the ones sums of A, B1, B2, C. */
enum { WIN_MAX = 256, RESULTS = QUERIES * WIN_MAX + 4, ONES_OFFSET = QUERIES * WIN_MAX };
/* Bitmaps of the ones: zkey all of w and the C slice; params sa, sb, aux. */
enum { BITMAPS = 3 };
/* Timing events: start, synth done, h done, then one after each query. */
enum { EV_START, EV_SYNTH, EV_H, EV_QUERY0, EVENTS = EV_QUERY0 + QUERIES };
enum { FR_BYTES = 32, BOUNCE_BYTES = 64u << 20 };
/* The device memory the budget leaves free for what allocates on its own
 * (CUB's scratch, the driver), and the budget's group of the slots'
 * buffers (device_work_limit). */
#define SLOT_MARGIN ((uint64_t)256 << 20)
enum { GROUP_SLOTS = 1 };
/* The urgency of what grows under the compute lock (a workspace, the
 * compute buffers): before any waiting partition, which waits for it. */
#define URGENCY_COMPUTE UINT32_MAX

typedef struct {
    void *p;
    size_t size;
} dbuf_t;

/* A workspace's memory hook: its key in the device's budget. */
typedef struct {
    struct engine_gpu_dev *d;
    engine_budget_key_t *key;
} ws_hook_t;

struct engine_gpu_dev {
    cuzk_gpu_t g;
    char name[320];
    cuzk_prio_lock_t lock; /* the compute lock, to the most urgent waiter */
    cuzk_gpu_stream_t stream;
    cuzk_gpu_msm_t *msm[4]; /* by cuzk_gpu_group_t, made on first use */
    /* Compute buffers, touched under the lock only, and only between two
     * yield points (compute_params): the zkey prover's plain witness and
     * a, b, c; per scalar vector the bitmap of its other scalars; the
     * counts, scratch of the compaction, the classification and the ones
     * sums. What a partition keeps across a yield lives in its slot. */
    dbuf_t wp, a, b, c, oth[BITMAPS], cnt, compact, acc, ones;
    void *h_res; /* pinned: the results come back here, then the counts */
    /* The device's memory (engine_budget.h): the keys' device copies
     * (evictable when idle and the key has a host copy), the compute
     * buffers and the MSM workspaces (not evictable), and the slots'
     * buffers (group GROUP_SLOTS, under device_work_limit; a slot's are
     * in use from its admission to the end of its compute, and an idle
     * slot's may be taken back for another's partition). */
    engine_budget_t *budget;
    engine_budget_key_t *compute_key, *ws_key[4];
    ws_hook_t ws_hook[4];
};

struct engine_gpu_key {
    engine_gpu_dev_t *d;
    bool params; /* bellperson convention */
    cuzk_gpu_curve_t curve;
    engine_gpu_tier_t tier;
    uint32_t n_vars, n_public, domain;   /* zkey */
    uint32_t n_in, n_aux, n_h, n_a, n_b; /* params */
    unsigned log2n;
    const void *q[QUERIES]; /* device, pinned or the source's host memory, as tier says */
    size_t qn[QUERIES];
    void *dmem, *hmem, *csr_mem;
    uint64_t dbytes, hbytes;
    const void *src[QUERIES];   /* the host copy (NULL: none, made on the device) */
    size_t qbytes;              /* of the queries on the device (tier DEVICE) */
    engine_budget_key_t *bkey;  /* the queries on the device; evicted to MAPPED */
    engine_budget_key_t *fixed; /* the CSR and the NTT tables */
    cuzk_gpu_csr_t csr[2];      /* zkey: A and B over domain rows */
    cuzk_gpu_ntt_domain_t *dom;
    unsigned char shift[FR_BYTES]; /* zkey: the coset shift; params: g */
};

struct engine_gpu_slot {
    engine_gpu_dev_t *d;
    cuzk_gpu_stream_t copy;
    cuzk_gpu_event_t staged;
    engine_pinned_t *pool;   /* NULL: the slot's own pinned buffer */
    engine_pinned_buf_t buf; /* from the pool, held from staging to the end of compute */
    void *h_in;
    size_t h_size;
    dbuf_t in;
    const engine_gpu_key_t *key; /* the staged partition's key (NULL: none) */
    cuzk_pool_t *threads;        /* the staging's threads: also the mapped tier's copies */
    double stage_s;
    uint64_t h2d;
    /* The partition's device state across its compute section (it may
     * yield the device between MSMs): per scalar vector the bitmap of its
     * ones and the indices of its other scalars; the results; the timing
     * events (ev; qs: each query's start) and the counts' arrival. */
    dbuf_t bits[BITMAPS], idx[BITMAPS], res;
    engine_budget_key_t *bkey;           /* the device buffers above and `in` */
    unsigned urgency;                    /* of the partition staged next */
    cuzk_gpu_msm_windows_t win[QUERIES]; /* how each query's result is left */
    cuzk_gpu_event_t ev[EVENTS], qs[QUERIES], counted;
    unsigned yields;
};

/* ---- helpers ----------------------------------------------------------- */

static cuzk_status_t gpu_fail(cuzk_gpu_t *g, cuzk_status_t s, char *err, size_t err_size,
                              const char *what)
{
    return io_fail(err, err_size, s, "%s on %s: %s", what, g->name, g->err);
}

static cuzk_status_t dbuf_grow(cuzk_gpu_t *g, dbuf_t *b, size_t bytes)
{
    if (b->size >= bytes)
        return CUZK_OK;
    cuzk_gpu_free(b->p);
    b->p = NULL;
    b->size = 0;
    cuzk_status_t s = cuzk_gpu_alloc(g, &b->p, bytes);
    if (s == CUZK_OK)
        b->size = bytes;
    return s;
}

static void dbuf_free(dbuf_t *b)
{
    cuzk_gpu_free(b->p);
    b->p = NULL;
    b->size = 0;
}

static size_t align256(size_t n)
{
    return (n + 255) & ~(size_t)255;
}

static cuzk_gpu_group_t group_of(cuzk_gpu_curve_t curve, bool g2)
{
    if (curve == CUZK_GPU_BLS381)
        return g2 ? CUZK_GPU_BLS381_G2 : CUZK_GPU_BLS381_G1;
    return g2 ? CUZK_GPU_BN254_G2 : CUZK_GPU_BN254_G1;
}

static cuzk_gpu_group_t query_group(const engine_gpu_key_t *k, int q)
{
    return group_of(k->curve, q == Q_B2);
}

static unsigned log2_ceil(uint64_t n)
{
    unsigned k = 0;
    while (((uint64_t)1 << k) < n)
        k++;
    return k;
}

/* The field constants of a domain of 2^log2n from generator gen: ω, ω^-1,
 * 1/n, and the H chain's constant (snarkjs: the shift ω_2n, or 25 on the
 * largest domain; bellperson: gen itself), all Montgomery form. */
static void domain_constants(cuzk_gpu_curve_t curve, unsigned log2n, uint64_t gen, bool bellperson,
                             unsigned char omega[FR_BYTES], unsigned char omega_inv[FR_BYTES],
                             unsigned char n_inv[FR_BYTES], unsigned char konst[FR_BYTES])
{
    if (curve == CUZK_GPU_BLS381) {
        bls381_fr_t w, wi, n, ni, c;
        bls381_fr_root_of_unity(&w, log2n, gen);
        bls381_fr_inv_vartime(&wi, &w);
        bls381_fr_from_u64(&n, (uint64_t)1 << log2n);
        bls381_fr_inv_vartime(&ni, &n);
        if (bellperson)
            bls381_fr_from_u64(&c, gen);
        else if (log2n < bls381_fr_two_adicity())
            bls381_fr_root_of_unity(&c, log2n + 1, gen);
        else
            bls381_fr_from_u64(&c, GROTH16_SNARKJS_SHIFT);
        memcpy(omega, &w, FR_BYTES);
        memcpy(omega_inv, &wi, FR_BYTES);
        memcpy(n_inv, &ni, FR_BYTES);
        memcpy(konst, &c, FR_BYTES);
    } else {
        bn254_fr_t w, wi, n, ni, c;
        bn254_fr_root_of_unity(&w, log2n, gen);
        bn254_fr_inv_vartime(&wi, &w);
        bn254_fr_from_u64(&n, (uint64_t)1 << log2n);
        bn254_fr_inv_vartime(&ni, &n);
        if (bellperson)
            bn254_fr_from_u64(&c, gen);
        else if (log2n < bn254_fr_two_adicity())
            bn254_fr_root_of_unity(&c, log2n + 1, gen);
        else
            bn254_fr_from_u64(&c, GROTH16_SNARKJS_SHIFT);
        memcpy(omega, &w, FR_BYTES);
        memcpy(omega_inv, &wi, FR_BYTES);
        memcpy(n_inv, &ni, FR_BYTES);
        memcpy(konst, &c, FR_BYTES);
    }
}

/* R² mod r as raw limbs (the Montgomery form of R): the constant that takes
 * canonical values to Montgomery form by one Montgomery product. */
static void fr_r2(cuzk_gpu_curve_t curve, unsigned char out[FR_BYTES])
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

/* ---- the device ---------------------------------------------------------- */

/* Bytes of the results: RESULTS XYZZ points, each in a slot of G2's size. */
static size_t res_bytes(void)
{
    return RESULTS * cuzk_gpu_xyzz_bytes(CUZK_GPU_BLS381_G2);
}

cuzk_status_t engine_gpu_dev_new(engine_gpu_dev_t **out, int device, char *err, size_t err_size)
{
    *out = NULL;
    engine_gpu_dev_t *d = calloc(1, sizeof *d);
    if (!d)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the device state");
    cuzk_status_t s = cuzk_gpu_open(&d->g, device);
    if (s != CUZK_OK) {
        io_fail(err, err_size, s, "opening CUDA device %d: %s", device, d->g.err);
        free(d);
        return s;
    }
    snprintf(d->name, sizeof d->name, "%s (device %d, %.1f GiB)", d->g.name, device,
             (double)d->g.mem_total / (1u << 30));
    if (cuzk_prio_lock_init(&d->lock) != 0) {
        free(d);
        return io_fail(err, err_size, CUZK_ENOMEM, "no compute lock for CUDA device %d", device);
    }
    char bname[400];
    snprintf(bname, sizeof bname, "the memory of %s", d->name);
    uint64_t free_b = engine_gpu_dev_free_bytes(d);
    d->budget = engine_budget_new(bname, free_b > SLOT_MARGIN ? free_b - SLOT_MARGIN : 1);
    if (d->budget) {
        engine_budget_set_group(d->budget, GROUP_SLOTS, "device_work_limit", 0);
        d->compute_key = engine_budget_key_new(d->budget, 0, NULL, NULL);
    }
    if (!d->budget || !d->compute_key) {
        engine_gpu_dev_free(d);
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the device state");
    }
    s = cuzk_gpu_stream_new(&d->g, &d->stream);
    if (s == CUZK_OK)
        s = cuzk_gpu_host_alloc(&d->g, &d->h_res, res_bytes() + BITMAPS * sizeof(uint32_t));
    if (s != CUZK_OK) {
        gpu_fail(&d->g, s, err, err_size, "setting up the device");
        engine_gpu_dev_free(d);
        return s;
    }
    *out = d;
    return CUZK_OK;
}

void engine_gpu_dev_free(engine_gpu_dev_t *d)
{
    if (!d)
        return;
    for (int i = 0; i < 4; i++) {
        cuzk_gpu_msm_free(d->msm[i]);
        engine_budget_key_free(d->ws_key[i]);
    }
    dbuf_t *bufs[] = {&d->wp, &d->a, &d->b, &d->c, &d->cnt, &d->compact, &d->acc, &d->ones};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        dbuf_free(bufs[i]);
    for (int i = 0; i < BITMAPS; i++)
        dbuf_free(&d->oth[i]);
    cuzk_gpu_host_free(d->h_res);
    cuzk_gpu_stream_free(d->stream);
    cuzk_prio_lock_destroy(&d->lock);
    engine_budget_key_free(d->compute_key);
    engine_budget_free(d->budget);
    free(d);
}

const char *engine_gpu_dev_name(const engine_gpu_dev_t *d)
{
    return d->name;
}

const struct cuzk_gpu *engine_gpu_dev_gpu(const engine_gpu_dev_t *d)
{
    return &d->g;
}

int engine_gpu_dev_ordinal(const engine_gpu_dev_t *d)
{
    return d->g.device;
}

bool engine_gpu_dev_healthy(engine_gpu_dev_t *d)
{
    return cuzk_gpu_use(&d->g) == CUZK_OK && cuzk_gpu_sync(&d->g) == CUZK_OK;
}

uint64_t engine_gpu_dev_free_bytes(engine_gpu_dev_t *d)
{
    size_t f = 0, t = 0;
    return cuzk_gpu_mem_info(&d->g, &f, &t) == CUZK_OK ? f : 0;
}

const char *engine_gpu_tier_name(engine_gpu_tier_t t)
{
    return t == ENGINE_GPU_TIER_DEVICE   ? "device"
           : t == ENGINE_GPU_TIER_PINNED ? "pinned"
           : t == ENGINE_GPU_TIER_MAPPED ? "mapped"
                                         : "auto";
}

/* ---- keys ---------------------------------------------------------------- */

/* Copies bytes from host memory src (pageable: a mapped file, malloc'd
 * arrays) to device memory dst through two pinned bounce buffers, so that
 * the bus runs at its pinned speed and the host copies overlap the DMA. */
static cuzk_status_t upload_bounced(engine_gpu_dev_t *d, void *dst, const void *src, size_t bytes)
{
    cuzk_gpu_t *g = &d->g;
    void *bounce[2] = {NULL, NULL};
    cuzk_gpu_event_t done[2] = {NULL, NULL};
    cuzk_status_t s = CUZK_OK;
    for (int i = 0; s == CUZK_OK && i < 2; i++) {
        s = cuzk_gpu_host_alloc(g, &bounce[i], BOUNCE_BYTES);
        if (s == CUZK_OK)
            s = cuzk_gpu_event_new(g, &done[i], false);
    }
    for (size_t off = 0, k = 0; s == CUZK_OK && off < bytes; off += BOUNCE_BYTES, k++) {
        int b = (int)(k & 1);
        size_t len = bytes - off < BOUNCE_BYTES ? bytes - off : BOUNCE_BYTES;
        if (k >= 2)
            s = cuzk_gpu_event_sync(g, done[b]);
        if (s != CUZK_OK)
            break;
        memcpy(bounce[b], (const unsigned char *)src + off, len);
        s = cuzk_gpu_upload(g, (unsigned char *)dst + off, bounce[b], len, d->stream);
        if (s == CUZK_OK)
            s = cuzk_gpu_event_record(g, done[b], d->stream);
    }
    if (s == CUZK_OK)
        s = cuzk_gpu_stream_sync(g, d->stream);
    for (int i = 0; i < 2; i++) {
        cuzk_gpu_event_free(done[i]);
        cuzk_gpu_host_free(bounce[i]);
    }
    return s;
}

/* The query sources (host), sizes and point sizes of a key being made. */
typedef struct {
    const void *src[QUERIES];
    size_t bytes[QUERIES];
} key_src_t;

/*
 * The layout of a params slot's device buffer. In scalars, what
 * compute_params reads: a, b, c (m each), sa (n_a: the inputs, then the aux
 * values a_aux_density marks), sb (n_b: the inputs b_input_density marks,
 * then the aux values b_aux_density marks), aux (n_aux). Then, in bytes,
 * what only staging uses: the three density bitmaps as the assignment
 * holds them (u64 words), and the selection's scratch; `bytes` in all.
 */
typedef struct {
    size_t m, a, b, c, sa, sb, aux, end;
    size_t bits_a_aux, bits_b_in, bits_b_aux, scratch, bytes;
} params_layout_t;

static params_layout_t params_layout(const engine_gpu_key_t *k)
{
    params_layout_t l;
    l.m = (size_t)1 << k->log2n;
    l.a = 0;
    l.b = l.m;
    l.c = 2 * l.m;
    l.sa = 3 * l.m;
    l.sb = l.sa + k->n_a;
    l.aux = l.sb + k->n_b;
    l.end = l.aux + k->n_aux;
    size_t aux_bitmap = asgn_words(k->n_aux) * sizeof(uint64_t);
    l.bits_a_aux = l.end * FR_BYTES;
    l.bits_b_in = l.bits_a_aux + aux_bitmap;
    l.bits_b_aux = l.bits_b_in + asgn_words(k->n_in) * sizeof(uint64_t);
    l.scratch = align256(l.bits_b_aux + aux_bitmap);
    size_t most = k->n_aux > k->n_in ? k->n_aux : k->n_in;
    l.bytes = l.scratch + cuzk_gpu_bitmap_compact_scratch_bytes(most);
    return l;
}

uint64_t engine_gpu_work_bytes(const engine_gpu_key_t *k)
{
    size_t nmax = 0;
    for (int q = 0; q < QUERIES; q++)
        nmax = k->qn[q] > nmax ? k->qn[q] : nmax;
    size_t dn = (size_t)1 << k->log2n;
    cuzk_gpu_msm_plan_t p1, p2;
    cuzk_gpu_msm_plan(&p1, query_group(k, Q_A), nmax, 0, 0);
    cuzk_gpu_msm_plan(&p2, query_group(k, Q_B2), k->qn[Q_B2] ? k->qn[Q_B2] : 1, 0, 0);
    uint64_t inputs = k->params ? params_layout(k).bytes : (uint64_t)k->n_vars * FR_BYTES;
    uint64_t compute = k->params ? 0 : (3 * (uint64_t)dn + k->n_vars) * FR_BYTES;
    uint64_t ones = cuzk_gpu_msm_ones_scratch_bytes(query_group(k, Q_B2), nmax);
    return inputs + compute + ones + p1.bytes + p2.bytes + ((uint64_t)nmax / 4);
}

/* The device budget's eviction of an idle key (engine_budget.h): its
 * queries are dropped from the device and read in place from the host copy
 * from then on (tier MAPPED, as if the host could not pin them). */
static void key_evict(void *ctx)
{
    engine_gpu_key_t *k = ctx;
    (void)cuzk_gpu_use(&k->d->g);
    cuzk_gpu_free(k->dmem);
    k->dmem = NULL;
    k->dbytes -= k->qbytes;
    k->qbytes = 0;
    for (int q = 0; q < QUERIES; q++)
        k->q[q] = k->src[q];
    k->tier = ENGINE_GPU_TIER_MAPPED;
}

/* Places the queries: on the device (one allocation), in pinned host
 * memory (one allocation), or left where the source has them (mapped),
 * from the tier and the budget; AUTO takes the mapped tier when the host
 * cannot pin the queries. */
static cuzk_status_t key_place(engine_gpu_key_t *k, const key_src_t *src, engine_gpu_tier_t tier,
                               uint64_t budget, unsigned workers, char *err, size_t err_size)
{
    engine_gpu_dev_t *d = k->d;
    size_t total = 0;
    bool sourced = true;
    for (int q = 0; q < QUERIES; q++) {
        total += align256(src->bytes[q]);
        sourced = sourced && (!src->bytes[q] || src->src[q]);
    }
    for (int q = 0; q < QUERIES; q++)
        k->src[q] = src->src[q];
    bool chosen = tier == ENGINE_GPU_TIER_AUTO;
    if (chosen) {
        if (budget == 0) {
            uint64_t room = engine_budget_available(d->budget);
            uint64_t need = engine_gpu_work_bytes(k) * (workers ? workers : 1);
            budget = room > need ? room - need : 0;
        }
        tier = total <= budget ? ENGINE_GPU_TIER_DEVICE : ENGINE_GPU_TIER_PINNED;
    }
    cuzk_status_t s = CUZK_OK;
    unsigned char *base = NULL;
    if (tier == ENGINE_GPU_TIER_DEVICE) {
        /* the device copy of a key with a host copy may be evicted when idle */
        char why[IO_ERR_MAX] = "out of memory";
        k->bkey = engine_budget_key_new(d->budget, 0, sourced ? key_evict : NULL, k);
        s = k->bkey ? engine_budget_key_resize(k->bkey, total, URGENCY_COMPUTE,
                                               ENGINE_BUDGET_NO_WAIT, why, sizeof why)
                    : CUZK_ENOMEM;
        if (s != CUZK_OK && !chosen)
            return io_fail(err, err_size, s, "placing the key's queries on %s: %s", d->name, why);
        if (s != CUZK_OK) {
            engine_budget_key_free(k->bkey);
            k->bkey = NULL;
            tier = ENGINE_GPU_TIER_PINNED;
        }
        s = CUZK_OK;
    }
    if (tier == ENGINE_GPU_TIER_DEVICE) {
        s = cuzk_gpu_alloc(&d->g, &k->dmem, total);
        if (s != CUZK_OK)
            return gpu_fail(&d->g, s, err, err_size, "placing the key's queries");
        k->dbytes += total;
        k->qbytes = total;
        base = k->dmem;
    } else if (tier == ENGINE_GPU_TIER_PINNED) {
        s = cuzk_gpu_host_alloc(&d->g, &k->hmem, total);
        if (s == CUZK_ENOMEM && chosen && sourced)
            tier = ENGINE_GPU_TIER_MAPPED; /* the host cannot pin it: read it in place */
        else if (s != CUZK_OK)
            return gpu_fail(&d->g, s, err, err_size, "pinning the key's queries");
        k->hbytes = s == CUZK_OK ? total : 0;
        base = k->hmem;
    }
    k->tier = tier;
    if (tier == ENGINE_GPU_TIER_MAPPED) {
        if (!sourced)
            return io_fail(err, err_size, CUZK_EINVAL,
                           "a key made on the device has no host copy to map");
        for (int q = 0; q < QUERIES; q++)
            k->q[q] = src->src[q];
        return CUZK_OK;
    }
    size_t off = 0;
    for (int q = 0; q < QUERIES; q++) {
        k->q[q] = base + off;
        if (src->bytes[q] && src->src[q]) { /* no source: the caller writes it */
            if (tier == ENGINE_GPU_TIER_DEVICE)
                s = upload_bounced(d, base + off, src->src[q], src->bytes[q]);
            else
                memcpy(base + off, src->src[q], src->bytes[q]);
        }
        if (s != CUZK_OK)
            return gpu_fail(&d->g, s, err, err_size, "uploading the key's queries");
        off += align256(src->bytes[q]);
    }
    return CUZK_OK;
}

static cuzk_status_t key_domain(engine_gpu_key_t *k, uint64_t gen, char *err, size_t err_size)
{
    unsigned char w[FR_BYTES], wi[FR_BYTES], ni[FR_BYTES];
    domain_constants(k->curve, k->log2n, gen, k->params, w, wi, ni, k->shift);
    cuzk_status_t s =
        cuzk_gpu_ntt_domain_new(&k->dom, &k->d->g, k->curve, k->log2n, w, wi, ni, k->d->stream);
    if (s == CUZK_OK)
        s = cuzk_gpu_stream_sync(&k->d->g, k->d->stream);
    if (s != CUZK_OK)
        return gpu_fail(&k->d->g, s, err, err_size, "building the NTT tables");
    k->dbytes += cuzk_gpu_ntt_domain_bytes(k->dom);
    return CUZK_OK;
}

/* The zkey's coefficient entries as two CSR matrices (A, B) over the
 * domain's rows, built on the host and placed on the device. */
static cuzk_status_t key_csr(engine_gpu_key_t *k, const zkey_t *z, char *err, size_t err_size)
{
    size_t rows = z->domain_size;
    uint64_t *ptr = calloc(2 * (rows + 1), sizeof *ptr);
    if (!ptr)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the key's CSR");
    uint64_t nnz[2] = {0, 0};
    for (uint32_t i = 0; i < z->n_coeffs; i++) {
        zkey_coeff_t e = zkey_coeff(z, i);
        if (e.m > 1 || e.c >= z->domain_size || e.s >= z->n_vars) {
            free(ptr);
            return io_fail(err, err_size, CUZK_EBADFILE,
                           "the key's coefficient %u is outside its matrices", i);
        }
        ptr[e.m * (rows + 1) + e.c + 1]++;
        nnz[e.m]++;
    }
    for (int m = 0; m < 2; m++)
        for (size_t r = 0; r < rows; r++)
            ptr[m * (rows + 1) + r + 1] += ptr[m * (rows + 1) + r];
    size_t ptr_b = align256((rows + 1) * 8);
    size_t col_b[2] = {align256(nnz[0] * 4), align256(nnz[1] * 4)};
    size_t val_b[2] = {align256(nnz[0] * FR_BYTES), align256(nnz[1] * FR_BYTES)};
    size_t total = 2 * ptr_b + col_b[0] + col_b[1] + val_b[0] + val_b[1];
    unsigned char *h = malloc(total);
    uint64_t *fill = malloc((2 * rows + 1) * sizeof *fill);
    if (!h || !fill) {
        free(h);
        free(fill);
        free(ptr);
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the key's CSR");
    }
    size_t off_ptr[2], off_col[2], off_val[2], off = 0;
    for (int m = 0; m < 2; m++) {
        off_ptr[m] = off;
        off += ptr_b;
        off_col[m] = off;
        off += col_b[m];
        off_val[m] = off;
        off += val_b[m];
        memcpy(h + off_ptr[m], ptr + m * (rows + 1), (rows + 1) * 8);
        memcpy(fill + m * rows, ptr + m * (rows + 1), rows * 8);
    }
    for (uint32_t i = 0; i < z->n_coeffs; i++) {
        zkey_coeff_t e = zkey_coeff(z, i);
        uint64_t at = fill[e.m * rows + e.c]++;
        uint32_t col = e.s;
        memcpy(h + off_col[e.m] + at * 4, &col, 4);
        memcpy(h + off_val[e.m] + at * FR_BYTES, e.value, FR_BYTES);
    }
    free(fill);
    free(ptr);
    cuzk_status_t s = cuzk_gpu_alloc(&k->d->g, &k->csr_mem, total);
    if (s == CUZK_OK)
        s = upload_bounced(k->d, k->csr_mem, h, total);
    free(h);
    if (s != CUZK_OK)
        return gpu_fail(&k->d->g, s, err, err_size, "placing the key's coefficients");
    k->dbytes += total;
    unsigned char *dm = k->csr_mem;
    for (int m = 0; m < 2; m++)
        k->csr[m] = (cuzk_gpu_csr_t){rows, (const uint64_t *)(dm + off_ptr[m]),
                                     (const uint32_t *)(dm + off_col[m]), dm + off_val[m]};
    return CUZK_OK;
}

/* The key's CSR and NTT tables into the device's budget (not evictable). */
static cuzk_status_t key_charge_tables(engine_gpu_key_t *k, char *err, size_t err_size)
{
    char why[IO_ERR_MAX] = "out of memory";
    k->fixed = engine_budget_key_new(k->d->budget, 0, NULL, NULL);
    cuzk_status_t s =
        k->fixed ? engine_budget_key_resize(k->fixed, k->dbytes - k->qbytes, URGENCY_COMPUTE,
                                            ENGINE_BUDGET_NO_WAIT, why, sizeof why)
                 : CUZK_ENOMEM;
    if (s != CUZK_OK)
        return io_fail(err, err_size, s, "placing the key's tables on %s: %s", k->d->name, why);
    return CUZK_OK;
}

cuzk_status_t engine_gpu_key_zkey(engine_gpu_key_t **out, engine_gpu_dev_t *d, const zkey_t *z,
                                  engine_gpu_tier_t tier, uint64_t device_budget, unsigned workers,
                                  char *err, size_t err_size)
{
    *out = NULL;
    engine_gpu_key_t *k = calloc(1, sizeof *k);
    if (!k)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the device key");
    k->d = d;
    cuzk_status_t s = cuzk_gpu_use(&d->g);
    if (s != CUZK_OK) {
        free(k);
        return gpu_fail(&d->g, s, err, err_size, "selecting the device");
    }
    k->curve = z->curve == R1CS_CURVE_BLS12_381 ? CUZK_GPU_BLS381 : CUZK_GPU_BN254;
    k->n_vars = z->n_vars;
    k->n_public = z->n_public;
    k->domain = z->domain_size;
    k->log2n = log2_ceil(z->domain_size);
    static const uint32_t sections[QUERIES] = {ZKEY_SECTION_POINTS_A, ZKEY_SECTION_POINTS_B1,
                                               ZKEY_SECTION_POINTS_B2, ZKEY_SECTION_POINTS_C,
                                               ZKEY_SECTION_POINTS_H};
    key_src_t src;
    for (int q = 0; q < QUERIES; q++) {
        zkey_points_t p = zkey_points(z, sections[q]);
        src.src[q] = p.data;
        src.bytes[q] = p.count * p.point_bytes;
        k->qn[q] = p.count;
    }
    s = key_place(k, &src, tier, device_budget, workers, err, err_size);
    if (s == CUZK_OK)
        s = key_csr(k, z, err, err_size);
    if (s == CUZK_OK)
        s = key_domain(k, GROTH16_SNARKJS_GENERATOR, err, err_size);
    if (s == CUZK_OK)
        s = key_charge_tables(k, err, err_size);
    if (s != CUZK_OK) {
        engine_gpu_key_free(k);
        return s;
    }
    *out = k;
    return CUZK_OK;
}

/* A params key on d from p's counts, its queries from p's arrays (or, with
 * no_source, left for the caller to write: tier DEVICE). */
static cuzk_status_t key_params(engine_gpu_key_t **out, engine_gpu_dev_t *d, const bp_params_t *p,
                                bool no_source, engine_gpu_tier_t tier, uint64_t device_budget,
                                unsigned workers, char *err, size_t err_size)
{
    *out = NULL;
    engine_gpu_key_t *k = calloc(1, sizeof *k);
    if (!k)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for the device key");
    k->d = d;
    cuzk_status_t s = cuzk_gpu_use(&d->g);
    if (s != CUZK_OK) {
        free(k);
        return gpu_fail(&d->g, s, err, err_size, "selecting the device");
    }
    k->params = true;
    k->curve = CUZK_GPU_BLS381;
    k->n_in = p->vk.n_ic;
    k->n_aux = p->n_l;
    k->n_h = p->n_h;
    k->n_a = p->n_a;
    k->n_b = p->n_b;
    k->log2n = log2_ceil((uint64_t)p->n_h + 1);
    key_src_t src = {
        {p->a, p->b_g1, p->b_g2, p->l, p->h},
        {(size_t)p->n_a * sizeof(bls381_g1_affine_t), (size_t)p->n_b * sizeof(bls381_g1_affine_t),
         (size_t)p->n_b * sizeof(bls381_g2_affine_t), (size_t)p->n_l * sizeof(bls381_g1_affine_t),
         (size_t)p->n_h * sizeof(bls381_g1_affine_t)}};
    if (no_source)
        memset(src.src, 0, sizeof src.src);
    size_t counts[QUERIES] = {p->n_a, p->n_b, p->n_b, p->n_l, p->n_h};
    memcpy(k->qn, counts, sizeof counts);
    s = key_place(k, &src, tier, device_budget, workers, err, err_size);
    if (s == CUZK_OK)
        s = key_domain(k, GROTH16_BP_GENERATOR_BLS381, err, err_size);
    if (s == CUZK_OK)
        s = key_charge_tables(k, err, err_size);
    if (s != CUZK_OK) {
        engine_gpu_key_free(k);
        return s;
    }
    *out = k;
    return CUZK_OK;
}

cuzk_status_t engine_gpu_key_params(engine_gpu_key_t **out, engine_gpu_dev_t *d,
                                    const bp_params_t *p, engine_gpu_tier_t tier,
                                    uint64_t device_budget, unsigned workers, char *err,
                                    size_t err_size)
{
    return key_params(out, d, p, false, tier, device_budget, workers, err, err_size);
}

cuzk_status_t engine_gpu_key_params_blank(engine_gpu_key_t **out, engine_gpu_dev_t *d,
                                          const bp_params_t *p, char *err, size_t err_size)
{
    return key_params(out, d, p, true, ENGINE_GPU_TIER_DEVICE, 0, 0, err, err_size);
}

void *engine_gpu_key_query(engine_gpu_key_t *k, int q)
{
    assert(q >= 0 && q < QUERIES && k->tier == ENGINE_GPU_TIER_DEVICE);
    return (void *)k->q[q];
}

void engine_gpu_key_free(engine_gpu_key_t *k)
{
    if (!k)
        return;
    cuzk_gpu_ntt_domain_free(k->dom);
    cuzk_gpu_free(k->csr_mem);
    cuzk_gpu_free(k->dmem);
    cuzk_gpu_host_free(k->hmem);
    engine_budget_key_free(k->bkey);
    engine_budget_key_free(k->fixed);
    free(k);
}

engine_gpu_tier_t engine_gpu_key_tier(const engine_gpu_key_t *k)
{
    return k->tier;
}

uint64_t engine_gpu_key_device_bytes(const engine_gpu_key_t *k)
{
    return k->dbytes;
}

uint64_t engine_gpu_key_pinned_bytes(const engine_gpu_key_t *k)
{
    return k->hbytes;
}

/* ---- slots and staging --------------------------------------------------- */

static void slot_evict(void *ctx);

cuzk_status_t engine_gpu_slot_new(engine_gpu_slot_t **out, engine_gpu_dev_t *d,
                                  engine_pinned_t *pool, char *err, size_t err_size)
{
    *out = NULL;
    engine_gpu_slot_t *s = calloc(1, sizeof *s);
    if (!s)
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for a device slot");
    s->d = d;
    s->pool = pool;
    cuzk_status_t st = cuzk_gpu_use(&d->g);
    if (st == CUZK_OK)
        st = cuzk_gpu_stream_new(&d->g, &s->copy);
    if (st == CUZK_OK)
        st = cuzk_gpu_event_new(&d->g, &s->staged, false);
    for (int i = 0; st == CUZK_OK && i < EVENTS; i++)
        st = cuzk_gpu_event_new(&d->g, &s->ev[i], true);
    for (int i = 0; st == CUZK_OK && i < QUERIES; i++)
        st = cuzk_gpu_event_new(&d->g, &s->qs[i], true);
    if (st == CUZK_OK)
        st = cuzk_gpu_event_new(&d->g, &s->counted, false);
    if (st != CUZK_OK) {
        gpu_fail(&d->g, st, err, err_size, "making a device slot");
        engine_gpu_slot_free(s);
        return st;
    }
    s->bkey = engine_budget_key_new(d->budget, GROUP_SLOTS, slot_evict, s);
    if (!s->bkey) {
        engine_gpu_slot_free(s);
        return io_fail(err, err_size, CUZK_ENOMEM, "out of memory for a device slot");
    }
    *out = s;
    return CUZK_OK;
}

/* Waits for the slot's uploads to end (they read the staging buffer or,
 * straight, the caller's pinned assignment), then gives the staging
 * buffer back to the pool. */
static void slot_release(engine_gpu_slot_t *s)
{
    if (s->copy)
        (void)cuzk_gpu_stream_sync(&s->d->g, s->copy);
    if (!s->pool || !s->buf.ptr)
        return;
    engine_pinned_release(s->pool, &s->buf);
    s->h_in = NULL;
    s->h_size = 0;
}

/* The slot's device buffers, in the order slot_need lists their sizes. */
enum { SLOT_BUFS = 2 + 2 * BITMAPS };

static void slot_bufs(engine_gpu_slot_t *s, dbuf_t *b[SLOT_BUFS])
{
    b[0] = &s->in;
    b[1] = &s->res;
    for (int i = 0; i < BITMAPS; i++) {
        b[2 + i] = &s->bits[i];
        b[2 + BITMAPS + i] = &s->idx[i];
    }
}

/* What a partition on k needs in its slot: the inputs, the results, the
 * bitmaps of the ones and (device tier) the indices of the others. */
static void slot_need(const engine_gpu_key_t *k, size_t need[SLOT_BUFS])
{
    size_t nmax = 0;
    for (int q = 0; q < QUERIES; q++)
        nmax = k->qn[q] > nmax ? k->qn[q] : nmax;
    need[0] =
        k->params ? params_layout(k).bytes : (k->n_vars ? (size_t)k->n_vars * FR_BYTES : FR_BYTES);
    need[1] = res_bytes();
    for (int i = 0; i < BITMAPS; i++) {
        need[2 + i] = ((nmax + 31) / 32 + 1) * 4;
        need[2 + BITMAPS + i] = k->tier == ENGINE_GPU_TIER_DEVICE ? (nmax + 1) * 4 : 0;
    }
}

uint64_t engine_gpu_slot_bytes(const engine_gpu_key_t *k)
{
    size_t need[SLOT_BUFS];
    slot_need(k, need);
    uint64_t t = 0;
    for (int i = 0; i < SLOT_BUFS; i++)
        t += need[i];
    return t;
}

static uint64_t slot_held(engine_gpu_slot_t *s)
{
    dbuf_t *b[SLOT_BUFS];
    slot_bufs(s, b);
    uint64_t t = 0;
    for (int i = 0; i < SLOT_BUFS; i++)
        t += b[i]->size;
    return t;
}

/* Frees the slot's device buffers (nothing in flight on them). */
static void slot_free_bufs(engine_gpu_slot_t *s)
{
    dbuf_t *b[SLOT_BUFS];
    slot_bufs(s, b);
    for (int i = 0; i < SLOT_BUFS; i++)
        dbuf_free(b[i]);
}

/* Gives the slot's device buffers back, and their bytes to the budget. */
static void slot_drop(engine_gpu_slot_t *s)
{
    slot_free_bufs(s);
    (void)engine_budget_key_resize(s->bkey, 0, 0, ENGINE_BUDGET_NO_WAIT, NULL, 0);
}

/* The device budget takes an idle slot's buffers back for another's
 * partition (engine_budget.h: the slot is not admitted, its copies may
 * still run). */
static void slot_evict(void *ctx)
{
    engine_gpu_slot_t *s = ctx;
    (void)cuzk_gpu_use(&s->d->g);
    if (s->copy)
        (void)cuzk_gpu_stream_sync(&s->d->g, s->copy);
    slot_free_bufs(s);
}

/* The slot is idle again: its buffers may be taken back for another's
 * partition, and the partitions waiting for memory look again. */
static void slot_idle(engine_gpu_slot_t *s)
{
    engine_budget_key_done(s->bkey);
}

/* Grows the slot's buffers to need (their bytes already in the budget). */
static cuzk_status_t slot_grow(engine_gpu_slot_t *s, const size_t need[SLOT_BUFS])
{
    dbuf_t *b[SLOT_BUFS];
    slot_bufs(s, b);
    for (int i = 0; i < SLOT_BUFS; i++)
        CUZK_TRY(dbuf_grow(&s->d->g, b[i], need[i]));
    return CUZK_OK;
}

/*
 * Admits a partition on k to slot s: the slot's device buffers hold what
 * it needs before anything is uploaded. The slot's buffers are a key of
 * the device's budget (group GROUP_SLOTS, under device_work_limit): what
 * they lack is reserved there at the slot's urgency; when it does not fit,
 * idle keys are evicted (other slots' buffers, keys' device copies), least
 * recently used first; when that is not enough the partition waits in the
 * budget's queue, holding nothing, until a running one ends. A partition
 * that could never fit fails at once (CUZK_ENOMEM), saying so. On success
 * the slot is in use until slot_idle.
 */
static cuzk_status_t slot_admit(engine_gpu_slot_t *s, const engine_gpu_key_t *k, char *err,
                                size_t err_size)
{
    engine_gpu_dev_t *d = s->d;
    size_t need[SLOT_BUFS];
    slot_need(k, need);
    dbuf_t *b[SLOT_BUFS];
    slot_bufs(s, b);
    (void)engine_budget_key_use(s->bkey); /* evicted meanwhile: its buffers are gone */
    uint64_t target = 0, exact = 0;
    for (int i = 0; i < SLOT_BUFS; i++) {
        target += b[i]->size > need[i] ? b[i]->size : need[i];
        exact += need[i];
    }
    char why[IO_ERR_MAX] = "";
    cuzk_status_t st = CUZK_OK;
    engine_budget_counters_t c;
    engine_budget_group_counters(d->budget, GROUP_SLOTS, &c);
    if (c.limit && exact > c.limit) { /* never fits, even with buffers held from before */
        snprintf(why, sizeof why, "device_work_limit is %llu bytes", (unsigned long long)c.limit);
        st = CUZK_ENOMEM;
    } else if (target > slot_held(s)) {
        st = engine_budget_key_resize(s->bkey, target, s->urgency, ENGINE_BUDGET_NO_WAIT, why,
                                      sizeof why);
        if (st != CUZK_OK) { /* a waiting partition holds nothing */
            slot_drop(s);
            st = engine_budget_key_resize(s->bkey, exact, s->urgency, ENGINE_BUDGET_WAIT_FOREVER,
                                          why, sizeof why);
        }
        if (st == CUZK_OK) {
            st = slot_grow(s, need);
            if (st != CUZK_OK) {
                snprintf(why, sizeof why, "the device has less free than its budget says: %s",
                         d->g.err);
                slot_drop(s);
            }
        }
    }
    if (st != CUZK_OK) {
        slot_idle(s);
        return io_fail(err, err_size, CUZK_ENOMEM,
                       "a partition needs %.3f GB of %s for its own buffers: %s",
                       (double)engine_gpu_slot_bytes(k) / 1e9, d->name, why);
    }
    return CUZK_OK;
}

void engine_gpu_dev_set_slot_limit(engine_gpu_dev_t *d, uint64_t bytes)
{
    engine_budget_set_group(d->budget, GROUP_SLOTS, "device_work_limit", bytes);
}

void engine_gpu_dev_mem(engine_gpu_dev_t *d, engine_gpu_mem_t *out)
{
    engine_budget_counters_t c;
    engine_budget_group_counters(d->budget, GROUP_SLOTS, &c);
    *out = (engine_gpu_mem_t){.limit = c.limit,
                              .held = c.held,
                              .peak = c.peak,
                              .waits = c.waits,
                              .reclaims = c.evictions};
}

void engine_gpu_slot_set_urgency(engine_gpu_slot_t *s, unsigned urgency)
{
    s->urgency = urgency;
}

void engine_gpu_slot_free(engine_gpu_slot_t *s)
{
    if (!s)
        return;
    slot_release(s);
    if (s->bkey)
        slot_drop(s);
    engine_budget_key_free(s->bkey);
    cuzk_gpu_event_free(s->staged);
    for (int i = 0; i < EVENTS; i++)
        cuzk_gpu_event_free(s->ev[i]);
    for (int i = 0; i < QUERIES; i++)
        cuzk_gpu_event_free(s->qs[i]);
    cuzk_gpu_event_free(s->counted);
    cuzk_gpu_stream_free(s->copy);
    if (!s->pool)
        cuzk_gpu_host_free(s->h_in);
    free(s);
}

/* The slot's pinned staging buffer holds at least host bytes (0: none is
 * needed; one from the pool is given back), then the partition on k is
 * admitted to the device (slot_admit). */
static cuzk_status_t slot_reserve(engine_gpu_slot_t *s, const engine_gpu_key_t *k, size_t host,
                                  char *err, size_t err_size)
{
    cuzk_gpu_t *g = &s->d->g;
    /* The previous partition's upload must be over before the buffers
     * change or are written again. */
    cuzk_status_t st = cuzk_gpu_use(g);
    if (st == CUZK_OK)
        st = cuzk_gpu_stream_sync(g, s->copy);
    if (st == CUZK_OK && s->pool) {
        slot_release(s);
        if (host) {
            st = engine_pinned_acquire(s->pool, host, ENGINE_PINNED_WAIT_FOREVER, &s->buf, err,
                                       err_size);
            if (st != CUZK_OK)
                return st;
            s->h_in = s->buf.ptr;
            s->h_size = s->buf.size;
        }
    }
    if (st == CUZK_OK && s->h_size < host) {
        cuzk_gpu_host_free(s->h_in);
        s->h_in = NULL;
        s->h_size = 0;
        st = cuzk_gpu_host_alloc(g, &s->h_in, host);
        if (st == CUZK_OK)
            s->h_size = host;
    }
    if (st != CUZK_OK)
        return gpu_fail(g, st, err, err_size, "reserving the partition's staging buffer");
    st = slot_admit(s, k, err, err_size);
    if (st != CUZK_OK)
        slot_release(s);
    return st;
}

cuzk_status_t engine_gpu_stage_zkey(engine_gpu_slot_t *s, const engine_gpu_key_t *k, const void *w,
                                    uint32_t n, cuzk_pool_t *pool, char *err, size_t err_size)
{
    assert(!k->params && n == k->n_vars);
    double t0 = cuzk_seconds();
    s->key = NULL;
    size_t bytes = (size_t)n * FR_BYTES;
    s->threads = pool;
    CUZK_TRY(slot_reserve(s, k, bytes ? bytes : FR_BYTES, err, err_size));
    cuzk_pool_memcpy(pool, s->h_in, w, bytes);
    cuzk_gpu_t *g = &s->d->g;
    cuzk_status_t st = cuzk_gpu_upload(g, s->in.p, s->h_in, bytes, s->copy);
    if (st == CUZK_OK)
        st = cuzk_gpu_event_record(g, s->staged, s->copy);
    if (st != CUZK_OK) {
        slot_release(s);
        slot_idle(s);
        return gpu_fail(g, st, err, err_size, "uploading the witness");
    }
    s->key = k;
    s->h2d = bytes;
    s->stage_s = cuzk_seconds() - t0;
    return CUZK_OK;
}

/* The set bits of bitmap below n. */
static size_t bits_below(const uint64_t *bitmap, uint64_t n)
{
    size_t k = 0;
    for (uint64_t w = 0; w < n / 64; w++)
        k += (size_t)__builtin_popcountll(bitmap[w]);
    if (n % 64)
        k += (size_t)__builtin_popcountll(bitmap[n / 64] & ((1ull << (n % 64)) - 1));
    return k;
}

/* One array of an assignment on its way to byte `at` of the slot's device
 * buffer: from src itself when it is pinned, else through the staging
 * buffer. */
typedef struct {
    size_t at;
    const void *src;
    size_t bytes;
    bool pinned;
} stage_part_t;

/* Whether the whole of part (first and last byte) is in pinned memory. */
static cuzk_status_t part_pinned(cuzk_gpu_t *g, stage_part_t *p)
{
    bool first = false, last = false;
    p->pinned = false;
    if (p->bytes == 0)
        return CUZK_OK;
    CUZK_TRY(cuzk_gpu_host_is_pinned(g, p->src, &first));
    if (first)
        CUZK_TRY(cuzk_gpu_host_is_pinned(g, (const unsigned char *)p->src + p->bytes - 1, &last));
    p->pinned = first && last;
    return CUZK_OK;
}

/* The uploads of a params partition, queued on the copy stream: each part
 * from its pinned source or, copied on pool's threads, from the staging
 * buffer; a, b, c padded with zeros to the domain; then sa and sb gathered
 * on the device from the inputs (uploaded into sa's head) and aux. */
static cuzk_status_t stage_params_queue(engine_gpu_slot_t *s, const engine_gpu_key_t *k,
                                        const asgn_t *a, const stage_part_t *parts, size_t n_parts,
                                        cuzk_pool_t *pool)
{
    cuzk_gpu_t *g = &s->d->g;
    params_layout_t l = params_layout(k);
    unsigned char *dv = s->in.p, *h = s->h_in;
    size_t staged = 0;
    for (size_t i = 0; i < n_parts; i++) {
        const stage_part_t *p = &parts[i];
        const void *src = p->src;
        if (p->bytes == 0)
            continue;
        if (!p->pinned) {
            /* copied while the previous parts' DMA runs */
            cuzk_pool_memcpy(pool, h + staged, p->src, p->bytes);
            src = h + staged;
            staged += p->bytes;
        }
        CUZK_TRY(cuzk_gpu_upload(g, dv + p->at, src, p->bytes, s->copy));
    }
    size_t rows = a->n_constraints * FR_BYTES, pad = (l.m - a->n_constraints) * FR_BYTES;
    for (size_t v = 0; pad && v < 3; v++)
        CUZK_TRY(cuzk_gpu_memset(g, dv + v * l.m * FR_BYTES + rows, 0, pad, s->copy));
    size_t n_in = k->n_in, nb_in = bits_below(a->b_input_density, n_in);
    void *scratch = dv + l.scratch;
    unsigned char *sa = dv + l.sa * FR_BYTES, *sb = dv + l.sb * FR_BYTES;
    const unsigned char *aux = dv + l.aux * FR_BYTES;
    CUZK_TRY(cuzk_gpu_bitmap_select_launch(g, sb, sa, (const uint32_t *)(dv + l.bits_b_in), n_in,
                                           scratch, s->copy));
    CUZK_TRY(cuzk_gpu_bitmap_select_launch(g, sa + n_in * FR_BYTES, aux,
                                           (const uint32_t *)(dv + l.bits_a_aux), k->n_aux, scratch,
                                           s->copy));
    CUZK_TRY(cuzk_gpu_bitmap_select_launch(g, sb + nb_in * FR_BYTES, aux,
                                           (const uint32_t *)(dv + l.bits_b_aux), k->n_aux, scratch,
                                           s->copy));
    return cuzk_gpu_event_record(g, s->staged, s->copy);
}

cuzk_status_t engine_gpu_stage_params(engine_gpu_slot_t *s, const engine_gpu_key_t *k,
                                      const asgn_t *a, cuzk_pool_t *pool, char *err,
                                      size_t err_size)
{
    assert(k->params && a->n_inputs == k->n_in && a->n_aux == k->n_aux &&
           a->n_constraints <= ((size_t)1 << k->log2n));
    assert(k->n_a == k->n_in + bits_below(a->a_aux_density, a->n_aux) &&
           k->n_b == bits_below(a->b_input_density, a->n_inputs) +
                         bits_below(a->b_aux_density, a->n_aux));
    double t0 = cuzk_seconds();
    s->key = NULL;
    cuzk_gpu_t *g = &s->d->g;
    params_layout_t l = params_layout(k);
    size_t rows = a->n_constraints * FR_BYTES, aux_bitmap = asgn_words(a->n_aux) * sizeof(uint64_t);
    stage_part_t parts[] = {
        {l.a * FR_BYTES, a->a, rows, false},
        {l.b * FR_BYTES, a->b, rows, false},
        {l.c * FR_BYTES, a->c, rows, false},
        {l.sa * FR_BYTES, a->inputs, a->n_inputs * FR_BYTES, false},
        {l.aux * FR_BYTES, a->aux, a->n_aux * FR_BYTES, false},
        {l.bits_a_aux, a->a_aux_density, aux_bitmap, false},
        {l.bits_b_in, a->b_input_density, asgn_words(a->n_inputs) * sizeof(uint64_t), false},
        {l.bits_b_aux, a->b_aux_density, aux_bitmap, false},
    };
    enum { PARTS = sizeof parts / sizeof parts[0] };
    size_t host = 0, sent = 0;
    cuzk_status_t st = cuzk_gpu_use(g);
    for (size_t i = 0; st == CUZK_OK && i < PARTS; i++) {
        st = part_pinned(g, &parts[i]);
        host += parts[i].pinned ? 0 : parts[i].bytes;
        sent += parts[i].bytes;
    }
    if (st != CUZK_OK)
        return gpu_fail(g, st, err, err_size, "querying the assignment's memory");
    s->threads = pool;
    CUZK_TRY(slot_reserve(s, k, host, err, err_size));
    st = stage_params_queue(s, k, a, parts, PARTS, pool);
    if (st != CUZK_OK) {
        /* nothing may still read the assignment once this returns */
        slot_release(s);
        slot_idle(s);
        return gpu_fail(g, st, err, err_size, "uploading the assignment");
    }
    s->key = k;
    s->h2d = sent;
    s->stage_s = cuzk_seconds() - t0;
    return CUZK_OK;
}

/* ---- compute ------------------------------------------------------------- */

/* A workspace's memory hook (gpu_msm.h) on the device's budget: it may hold
 * what it holds plus what the budget could give without waiting, and grows
 * at the urgency of the compute section, which no waiting partition
 * overtakes (they wait for it). */
static size_t ws_hook_room(void *ctx, size_t held)
{
    const ws_hook_t *h = ctx;
    uint64_t room = engine_budget_available(h->d->budget);
    return room > SIZE_MAX - held ? SIZE_MAX : held + (size_t)room;
}

static cuzk_status_t ws_hook_resize(void *ctx, size_t bytes)
{
    const ws_hook_t *h = ctx;
    return engine_budget_key_resize(h->key, bytes, URGENCY_COMPUTE, ENGINE_BUDGET_NO_WAIT, NULL, 0);
}

static cuzk_status_t dev_msm_ws(engine_gpu_dev_t *d, cuzk_gpu_group_t grp, cuzk_gpu_msm_t **m)
{
    if (!d->msm[grp]) {
        if (!d->ws_key[grp] && !(d->ws_key[grp] = engine_budget_key_new(d->budget, 0, NULL, NULL)))
            return CUZK_ENOMEM;
        CUZK_TRY(cuzk_gpu_msm_new(&d->msm[grp], &d->g, grp));
        d->ws_hook[grp] = (ws_hook_t){d, d->ws_key[grp]};
        cuzk_gpu_mem_hook_t h = {&d->ws_hook[grp], ws_hook_room, ws_hook_resize};
        cuzk_gpu_msm_set_mem_hook(d->msm[grp], &h);
    }
    *m = d->msm[grp];
    return CUZK_OK;
}

/* The compute buffers for k (bitmaps, totals, ones scratch, and for zkeys
 * the plain witness and a, b, c), grown within the device's budget. */
static cuzk_status_t dev_reserve(engine_gpu_dev_t *d, const engine_gpu_key_t *k)
{
    cuzk_gpu_t *g = &d->g;
    size_t nmax = 0;
    for (int q = 0; q < QUERIES; q++)
        nmax = k->qn[q] > nmax ? k->qn[q] : nmax;
    size_t dn = (size_t)1 << k->log2n, zk = k->params ? 0 : 1;
    struct {
        dbuf_t *b;
        size_t need;
    } l[] = {
        {&d->wp, zk * ((size_t)k->n_vars * FR_BYTES + FR_BYTES)},
        {&d->a, zk * dn * FR_BYTES},
        {&d->b, zk * dn * FR_BYTES},
        {&d->c, zk * dn * FR_BYTES},
        {&d->oth[0], ((nmax + 31) / 32 + 1) * 4},
        {&d->oth[1], ((nmax + 31) / 32 + 1) * 4},
        {&d->oth[2], ((nmax + 31) / 32 + 1) * 4},
        {&d->cnt, BITMAPS * sizeof(uint32_t)},
        {&d->compact, cuzk_gpu_bitmap_compact_scratch_bytes(nmax)},
        {&d->acc, BITMAPS * CUZK_GPU_CLASSIFY_ACC_BYTES},
        {&d->ones, cuzk_gpu_msm_ones_scratch_bytes(query_group(k, Q_B2), nmax)},
    };
    enum { N = sizeof l / sizeof l[0] };
    _Static_assert(BITMAPS == 3, "dev_reserve lists the three bitmaps");
    uint64_t total = 0;
    for (size_t i = 0; i < N; i++)
        total += l[i].b->size > l[i].need ? l[i].b->size : l[i].need;
    if (total > engine_budget_key_bytes(d->compute_key)) {
        cuzk_status_t s = engine_budget_key_resize(d->compute_key, total, URGENCY_COMPUTE,
                                                   ENGINE_BUDGET_NO_WAIT, g->err, sizeof g->err);
        if (s != CUZK_OK)
            return s;
    }
    for (size_t i = 0; i < N; i++)
        if (l[i].need)
            CUZK_TRY(dbuf_grow(g, l[i].b, l[i].need));
    return CUZK_OK;
}

cuzk_status_t engine_gpu_key_warm(engine_gpu_key_t *k, char *err, size_t err_size)
{
    engine_gpu_dev_t *d = k->d;
    cuzk_prio_lock_acquire(&d->lock, CUZK_PRIO_LEVELS - 1);
    cuzk_status_t st = cuzk_gpu_use(&d->g);
    if (st == CUZK_OK)
        st = dev_reserve(d, k);
    if (st == CUZK_OK && k->tier == ENGINE_GPU_TIER_DEVICE) {
        /* The largest resident MSM of each group: H, dense over the domain
         * (zkey) or its m - 1 coefficients (params), and B2 in G2. The
         * sparse ones vary with the witness and grow a workspace only if
         * they need more. */
        cuzk_gpu_msm_t *m;
        size_t n = k->params ? k->n_h : (size_t)1 << k->log2n;
        st = dev_msm_ws(d, query_group(k, Q_H), &m);
        if (st == CUZK_OK)
            st = cuzk_gpu_msm_reserve(m, n);
        if (st == CUZK_OK)
            st = dev_msm_ws(d, query_group(k, Q_B2), &m);
        if (st == CUZK_OK)
            st = cuzk_gpu_msm_reserve(m, k->qn[Q_B2]);
    }
    cuzk_prio_lock_release(&d->lock);
    if (st != CUZK_OK)
        return gpu_fail(&d->g, st, err, err_size, "reserving the key's working memory");
    return CUZK_OK;
}

/* The device address of result i. */
static void *res_at(engine_gpu_slot_t *s, int i)
{
    return (unsigned char *)s->res.p + (size_t)i * cuzk_gpu_xyzz_bytes(CUZK_GPU_BLS381_G2);
}

/* A vector of MSM scalars on the device (Montgomery form): zkey w and its
 * C slice, params sa, sb and aux; after split_vectors, cnt = its other
 * scalars (device tier). */
typedef struct {
    void *s;
    size_t n, cnt;
} vec_t;

/* Classifies each vector i into the bitmaps of its ones (the slot's
 * bits[i]) and its other scalars (oth[i]); on the device tier, compacts the
 * others into the slot's idx[i] and sends their counts to the host (event
 * counted). */
static cuzk_status_t split_vectors(engine_gpu_slot_t *s, const engine_gpu_key_t *k, const vec_t *v,
                                   int nv)
{
    engine_gpu_dev_t *d = s->d;
    cuzk_gpu_t *g = &d->g;
    unsigned char *acc = d->acc.p;
    uint32_t *cnt = d->cnt.p;
    for (int i = 0; i < nv; i++) {
        CUZK_TRY(cuzk_gpu_msm_classify_launch(g, k->curve, NULL, s->bits[i].p, d->oth[i].p,
                                              acc + i * CUZK_GPU_CLASSIFY_ACC_BYTES, v[i].s, v[i].n,
                                              d->stream));
        if (k->tier == ENGINE_GPU_TIER_DEVICE)
            CUZK_TRY(cuzk_gpu_bitmap_compact_launch(g, s->idx[i].p, cnt + i, d->oth[i].p, v[i].n,
                                                    d->compact.p, d->stream));
    }
    if (k->tier != ENGINE_GPU_TIER_DEVICE)
        return CUZK_OK;
    CUZK_TRY(cuzk_gpu_download(g, (unsigned char *)d->h_res + res_bytes(), cnt,
                               (size_t)nv * sizeof(uint32_t), d->stream));
    return cuzk_gpu_event_record(g, s->counted, d->stream);
}

/* Before the MSMs, with synth and h queued: the device tier waits for the
 * counts (the only host wait before the results; the device meanwhile
 * runs the transforms); the pinned tier, whose MSMs run over every scalar,
 * zeroes the ones instead; the mapped tier leaves them to its MSMs (its
 * bases are not addressable by the device). */
static cuzk_status_t msm_prepare(engine_gpu_slot_t *s, const engine_gpu_key_t *k, vec_t *v, int nv)
{
    engine_gpu_dev_t *d = s->d;
    if (k->tier == ENGINE_GPU_TIER_DEVICE) {
        CUZK_TRY(cuzk_gpu_event_sync(&d->g, s->counted));
        const uint32_t *h = (const uint32_t *)((const unsigned char *)d->h_res + res_bytes());
        for (int i = 0; i < nv; i++)
            v[i].cnt = h[i];
        return CUZK_OK;
    }
    if (k->tier == ENGINE_GPU_TIER_MAPPED)
        return CUZK_OK;
    for (int i = 0; i < nv; i++)
        CUZK_TRY(cuzk_gpu_msm_clear_ones_launch(&d->g, k->curve, v[i].s, s->bits[i].p, v[i].n,
                                                d->stream));
    return CUZK_OK;
}

/* The mapped tier's copies into the bounce buffers, on the staging's threads. */
static void mapped_copy(void *ctx, void *dst, const void *src, size_t bytes)
{
    cuzk_pool_memcpy(ctx, dst, src, bytes);
}

/* Query q over vector vi (vi < 0: the H scalars h, n of them, all taken)
 * into result q, and the sum of the bases of its ones into result
 * ONES_OFFSET + q. Device tier: the MSM runs over the other scalars only
 * (their indices); pinned tier: over all, the bases streamed, the ones
 * zeroed; mapped tier: over all, ones included, the bases copied into
 * pinned bounce buffers and streamed (its ones sum is infinity). */
static cuzk_status_t run_query(engine_gpu_slot_t *s, const engine_gpu_key_t *k, int q,
                               const vec_t *v, int vi, const void *h, size_t n, uint64_t *h2d)
{
    engine_gpu_dev_t *d = s->d;
    cuzk_gpu_group_t grp = query_group(k, q);
    CUZK_TRY(cuzk_gpu_event_record(&d->g, s->qs[q], d->stream));
    cuzk_gpu_msm_t *m;
    CUZK_TRY(dev_msm_ws(d, grp, &m));
    const void *scalars = vi < 0 ? h : v[vi].s;
    n = vi < 0 ? n : v[vi].n;
    void *r = res_at(s, q * WIN_MAX);
    /* A launch grows its workspace when it must, within the device's
     * budget (dev_msm_ws). */
    cuzk_status_t st;
    if (k->tier == ENGINE_GPU_TIER_DEVICE) {
        const uint32_t *idx = vi < 0 ? NULL : s->idx[vi].p;
        st = cuzk_gpu_msm_launch_windows(m, r, WIN_MAX, k->q[q], scalars, idx,
                                         vi < 0 ? n : v[vi].cnt, true, &s->win[q], d->stream);
    } else if (k->tier == ENGINE_GPU_TIER_PINNED) {
        st = cuzk_gpu_msm_streamed_launch(m, r, k->q[q], scalars, true, n, true, 0, d->stream);
    } else {
        st = cuzk_gpu_msm_paged_launch(m, r, k->q[q], mapped_copy, s->threads, scalars, n, true, 0,
                                       d->stream);
    }
    if (k->tier != ENGINE_GPU_TIER_DEVICE) {
        s->win[q] = (cuzk_gpu_msm_windows_t){1, 0};
        *h2d += n * cuzk_gpu_affine_bytes(grp);
    }
    CUZK_TRY(st);
    if (vi >= 0 && k->tier == ENGINE_GPU_TIER_MAPPED)
        CUZK_TRY(cuzk_gpu_memset(&d->g, res_at(s, ONES_OFFSET + q), 0, cuzk_gpu_xyzz_bytes(grp),
                                 d->stream));
    /* Pinned bases are read in place by the ones sum: host memory from
     * cudaHostAlloc is addressable by the device (unified addressing). */
    else if (vi >= 0)
        CUZK_TRY(cuzk_gpu_msm_sum_ones_launch(&d->g, grp, res_at(s, ONES_OFFSET + q), s->bits[vi].p,
                                              k->q[q], n, d->ones.p, d->stream));
    return cuzk_gpu_event_record(&d->g, s->ev[EV_QUERY0 + q], d->stream);
}

/*
 * A yield point of a params partition, before it queues its next step:
 * waits for what it queued last (event done), so that nothing of it runs
 * on the device, then, when a more urgent partition waits for the device,
 * lets it in (release, acquire again: the lock goes to the most urgent).
 * What the partition needs later lives in its slot and its staged
 * buffer, which the other partition does not touch; the device's scratch
 * it does, but only between its own yield points. So a critical partition
 * waits for one step of a partition on the device (the longest: the H MSM),
 * not for the whole partition.
 */
static cuzk_status_t yield_point(engine_gpu_slot_t *s, unsigned urgency, cuzk_gpu_event_t done)
{
    engine_gpu_dev_t *d = s->d;
    CUZK_TRY(cuzk_gpu_event_sync(&d->g, done));
    if (!cuzk_prio_lock_contended(&d->lock, urgency))
        return CUZK_OK;
    cuzk_prio_lock_release(&d->lock);
    cuzk_prio_lock_acquire(&d->lock, urgency);
    s->yields++;
    return cuzk_gpu_use(&d->g);
}

static cuzk_status_t compute_zkey(engine_gpu_slot_t *s, const engine_gpu_key_t *k, void *w,
                                  uint64_t *h2d)
{
    engine_gpu_dev_t *d = s->d;
    cuzk_gpu_t *g = &d->g;
    cuzk_gpu_curve_t cv = k->curve;
    size_t n = k->n_vars, dn = (size_t)1 << k->log2n, off = (size_t)k->n_public + 1;
    vec_t v[2] = {{w, n, 0}, {(unsigned char *)w + off * FR_BYTES, n - off, 0}};
    unsigned char one[FR_BYTES] = {1};
    CUZK_TRY(cuzk_gpu_event_record(g, s->ev[EV_START], d->stream));
    /* synth: the plain witness for the products, the classes of w and of
     * its C slice, a = A·w, b = B·w, c = a·b */
    CUZK_TRY(cuzk_gpu_fr_mul_const_launch(g, cv, d->wp.p, w, n, one, d->stream));
    CUZK_TRY(split_vectors(s, k, v, 2));
    CUZK_TRY(cuzk_gpu_csr_mul_vec_launch(g, cv, &k->csr[0], d->wp.p, d->a.p, d->stream));
    CUZK_TRY(cuzk_gpu_csr_mul_vec_launch(g, cv, &k->csr[1], d->wp.p, d->b.p, d->stream));
    CUZK_TRY(cuzk_gpu_fr_mul_launch(g, cv, d->c.p, d->a.p, d->b.p, dn, d->stream));
    CUZK_TRY(cuzk_gpu_event_record(g, s->ev[EV_SYNTH], d->stream));
    /* h */
    CUZK_TRY(cuzk_gpu_ntt_h_snarkjs(k->dom, d->a.p, d->b.p, d->c.p, k->shift, d->stream));
    CUZK_TRY(cuzk_gpu_event_record(g, s->ev[EV_H], d->stream));
    /* msm (no yield points: H's scalars are in the device's a) */
    CUZK_TRY(msm_prepare(s, k, v, 2));
    CUZK_TRY(run_query(s, k, Q_A, v, 0, NULL, 0, h2d));
    CUZK_TRY(run_query(s, k, Q_B1, v, 0, NULL, 0, h2d));
    CUZK_TRY(run_query(s, k, Q_B2, v, 0, NULL, 0, h2d));
    CUZK_TRY(run_query(s, k, Q_C, v, 1, NULL, 0, h2d));
    return run_query(s, k, Q_H, v, -1, d->a.p, dn, h2d);
}

static cuzk_status_t compute_params(engine_gpu_slot_t *s, const engine_gpu_key_t *k,
                                    unsigned urgency, void *in, uint64_t *h2d)
{
    engine_gpu_dev_t *d = s->d;
    cuzk_gpu_t *g = &d->g;
    params_layout_t l = params_layout(k);
    unsigned char *p = in;
    unsigned char *a = p + l.a * FR_BYTES, *b = p + l.b * FR_BYTES, *c = p + l.c * FR_BYTES;
    vec_t v[3] = {{p + l.sa * FR_BYTES, k->n_a, 0},
                  {p + l.sb * FR_BYTES, k->n_b, 0},
                  {p + l.aux * FR_BYTES, k->n_aux, 0}};
    unsigned char r2[FR_BYTES];
    fr_r2(k->curve, r2);
    CUZK_TRY(cuzk_gpu_event_record(g, s->ev[EV_START], d->stream));
    /* synth: everything to Montgomery form, the classes of sa, sb, aux */
    CUZK_TRY(cuzk_gpu_fr_mul_const_launch(g, k->curve, p, p, l.end, r2, d->stream));
    CUZK_TRY(split_vectors(s, k, v, 3));
    CUZK_TRY(cuzk_gpu_event_record(g, s->ev[EV_SYNTH], d->stream));
    /* h: the coefficients of H in a */
    CUZK_TRY(cuzk_gpu_ntt_h_bellperson(k->dom, a, b, c, k->shift, d->stream));
    CUZK_TRY(cuzk_gpu_event_record(g, s->ev[EV_H], d->stream));
    /* msm, one query at a time, a yield point before each */
    CUZK_TRY(msm_prepare(s, k, v, 3));
    static const int order[QUERIES] = {Q_A, Q_B1, Q_B2, Q_C, Q_H};
    static const int vec[QUERIES] = {0, 1, 1, 2, -1};
    cuzk_gpu_event_t done = s->ev[EV_H];
    for (int i = 0; i < QUERIES; i++) {
        CUZK_TRY(yield_point(s, urgency, done));
        int q = order[i];
        CUZK_TRY(run_query(s, k, q, v, vec[i], a, k->n_h, h2d));
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
                               const cuzk_gpu_msm_windows_t *win)                                  \
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
                    const cuzk_gpu_msm_windows_t *win)
{
    size_t st = cuzk_gpu_xyzz_bytes(CUZK_GPU_BLS381_G2);
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

cuzk_status_t engine_gpu_compute(engine_gpu_slot_t *s, const engine_gpu_key_t *k, unsigned urgency,
                                 groth16_msms_t *out, engine_gpu_stats_t *stats, char *err,
                                 size_t err_size)
{
    assert(s->key == k);
    engine_gpu_dev_t *d = s->d;
    cuzk_gpu_t *g = &d->g;
    s->yields = 0;
    uint64_t h2d = s->h2d;
    /* The key's device copy stays while the partition computes on it; an
     * eviction in progress ends first (the key is then MAPPED, which the
     * slot's buffers, sized for any tier at least as high, serve). */
    if (k->bkey)
        (void)engine_budget_key_use(k->bkey);
    cuzk_status_t st = cuzk_gpu_use(g);
    double t0 = cuzk_seconds();
    cuzk_prio_lock_acquire(&d->lock, urgency);
    double t1 = cuzk_seconds();
    if (st == CUZK_OK)
        st = dev_reserve(d, k);
    if (st == CUZK_OK)
        st = cuzk_gpu_stream_wait(g, d->stream, s->staged);
    if (st == CUZK_OK)
        st = k->params ? compute_params(s, k, urgency, s->in.p, &h2d)
                       : compute_zkey(s, k, s->in.p, &h2d);
    if (st == CUZK_OK)
        st = cuzk_gpu_download(g, d->h_res, s->res.p, res_bytes(), d->stream);
    if (st == CUZK_OK)
        st = cuzk_gpu_stream_sync(g, d->stream);
    /* Device times: synth and h from their events, each query from its
     * start (after a yield, the other partition's work is not counted). */
    float ms[2] = {0}, qms[QUERIES] = {0};
    for (int i = 0; st == CUZK_OK && i < 2; i++)
        st = cuzk_gpu_event_ms(g, &ms[i], s->ev[EV_START + i], s->ev[EV_START + i + 1]);
    for (int q = 0; st == CUZK_OK && q < QUERIES; q++)
        st = cuzk_gpu_event_ms(g, &qms[q], s->qs[q], s->ev[EV_QUERY0 + q]);
    if (st == CUZK_OK)
        collect(out, k, d->h_res, s->win);
    cuzk_prio_lock_release(&d->lock);
    s->key = NULL;
    slot_release(s);
    slot_idle(s);
    if (k->bkey)
        engine_budget_key_done(k->bkey);
    if (st != CUZK_OK)
        return gpu_fail(g, st, err, err_size, "proving on the device");
    if (stats) {
        *stats = (engine_gpu_stats_t){.stage_s = s->stage_s,
                                      .synth_ms = ms[0],
                                      .h_ms = ms[1],
                                      .wait_s = t1 - t0,
                                      .h2d_bytes = h2d,
                                      .d2h_bytes = res_bytes(),
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

/* The key's convention says what the device stages: a witness for the
 * zkey it holds, an assignment for the params. */
static cuzk_status_t accel_msms(void *ctx, const struct groth16_key *key,
                                const struct groth16_input *in, groth16_msms_t *out,
                                groth16_timings_t *t, char *err, size_t err_size)
{
    engine_gpu_accel_t *a = ctx;
    if (key->conv.synth == GROTH16_SYNTH_COEFFS) {
        if (a->key->params || key->n_vars != a->key->n_vars || key->domain_size != a->key->domain)
            return io_fail(err, err_size, CUZK_EINVAL, "the device holds another key");
        CUZK_TRY(engine_gpu_stage_zkey(a->slot, a->key, in->w, in->n, a->pool, err, err_size));
    } else {
        if (!a->key->params || key->h.count != a->key->n_h || key->l.count != a->key->n_aux)
            return io_fail(err, err_size, CUZK_EINVAL, "the device holds another key");
        asgn_t as = asgn_from_groth16(in->asgn);
        CUZK_TRY(engine_gpu_stage_params(a->slot, a->key, &as, a->pool, err, err_size));
    }
    CUZK_TRY(engine_gpu_compute(a->slot, a->key, a->urgency, out, &a->stats, err, err_size));
    accel_times(t, &a->stats);
    return CUZK_OK;
}

groth16_accel_t engine_gpu_accel(engine_gpu_accel_t *a)
{
    groth16_accel_t acc = {a, accel_msms};
    return acc;
}
