/*
 * The private half of engine_gpu.h: the state of a device, a key's device
 * copy and a slot, and what the module's files share about them.
 *
 *   engine_gpu_dev.c    the device handle, its memory budget, the compute
 *                       buffers and MSM workspaces on it;
 *   engine_gpu_key.c    a key's residency: its queries in a tier (device,
 *                       pinned, mapped), the base source each query's MSM
 *                       reads, warming, eviction to the mapped tier;
 *   engine_gpu_slot.c   the slots and their admission on the device budget;
 *   engine_gpu_stage.c  staging: a partition's inputs to the device;
 *   engine_gpu_seq.c    the Groth16 sequence on the device (synth, h, the
 *                       five MSMs, collect) and the accelerator over it.
 *
 * Nothing outside these files includes this header.
 */
#ifndef CUZK_ENGINE_ENGINE_GPU_IMPL_H
#define CUZK_ENGINE_ENGINE_GPU_IMPL_H

#include "engine/engine_gpu.h"

#include <pthread.h>

#include "cuda/gpu.h"
#include "cuda/gpu_check.h"
#include "cuda/gpu_msm.h"
#include "cuda/gpu_ntt.h"
#include "cuda/gpu_prove.h"
#include "engine/engine_budget.h"
#include "engine/engine_pinned.h"
#include "util/pool.h"
#include "util/prio_lock.h"

/* The five queries, in the order of the results: Q_C is the query that
 * carries L (snarkjs' C, bellperson's L). */
enum { Q_A, Q_B1, Q_B2, Q_C, Q_H, QUERIES };
_Static_assert((int)QUERIES == (int)ENGINE_GPU_QUERIES,
               "engine_gpu.h lists the queries in this order");
/* Results on the device: each of the five MSMs' window sums (WIN_MAX
 * slots: room for any window, c = 1 on 255 bits included, so that every
 * MSM is finished on the host and the engine tests' small ones take the
 * same path as full-size ones), then the ones sums of A, B1, B2, C. */
enum { WIN_MAX = 256, RESULTS = QUERIES * WIN_MAX + 4, ONES_OFFSET = QUERIES * WIN_MAX };
/* Bitmaps of the ones, one per vector of MSM scalars: GROTH16_SYNTH_COEFFS
 * all of w and its private wires; GROTH16_SYNTH_GIVEN sa, sb, aux. */
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

/*
 * What a partition's compute section works with: a stream, the MSM
 * workspaces, the compute buffers and the pinned results. The device has
 * one, for partitions that hold it alone (under the compute lock held
 * alone); each slot makes one of its own for the partitions of small keys
 * (key_shares_device), which compute side by side under the lock held
 * shared: one small partition's kernels leave most of the device idle.
 */
typedef struct engine_gpu_work {
    struct engine_gpu_dev *d;
    gpu_stream_t stream;
    gpu_msm_t *msm[4]; /* by gpu_group_t, made on first use */
    /* Touched by the compute section only, and only between two yield
     * points (compute_given): the plain witness and a, b, c of a
     * GROTH16_SYNTH_COEFFS key; per scalar vector the bitmap of its other
     * scalars; the counts, scratch of the compaction, the classification
     * and the ones sums. What a partition keeps across a yield lives in its
     * slot. */
    dbuf_t wp, a, b, c, oth[BITMAPS], cnt, compact, acc, ones;
    void *h_res; /* pinned: the results come back here, then the counts */
    /* On the device's budget, not evictable: the compute buffers and the
     * MSM workspaces. */
    engine_budget_key_t *compute_key, *ws_key[4];
    ws_hook_t ws_hook[4];
} engine_gpu_work_t;

struct engine_gpu_dev {
    gpu_t g;
    char name[320];
    /* The compute lock, to the most urgent waiter: held alone by a
     * partition on `work`, shared by those on their slots' own. */
    prio_lock_t lock;
    engine_gpu_work_t work;
    unsigned computing, computing_peak; /* partitions in their compute section (atomics) */
    /* The device's memory (engine_budget.h): the keys' device copies
     * (evictable when idle and the key has a host copy), the works' compute
     * buffers and MSM workspaces (not evictable), and the slots' buffers
     * (group GROUP_SLOTS, under device_work_limit; a slot's are in use from
     * its admission to the end of its compute, and an idle slot's may be
     * taken back for another's partition). */
    engine_budget_t *budget;
};

/*
 * How an MSM over a query treats the scalars equal to one, which the
 * scalars' preparation (split_vectors, msm_prepare) and the MSM agree on.
 */
typedef enum engine_gpu_ones {
    /* The MSM takes the other scalars only, by their indices (compacted on
     * the device, their count on the host before the MSM); the bases of
     * the ones are summed apart, read in place. */
    ENGINE_GPU_ONES_BY_INDEX,
    /* The MSM takes every scalar, the ones zeroed first; the bases of the
     * ones are summed apart, read in place by the device. */
    ENGINE_GPU_ONES_ZEROED,
    /* The MSM takes every scalar, the ones included (the device cannot
     * read the bases in place); the ones sum is the point at infinity. */
    ENGINE_GPU_ONES_IN_MSM,
} engine_gpu_ones_t;

/* One MSM over a base source, queued on stream. */
typedef struct {
    gpu_msm_t *m;        /* the device's workspace of the bases' group */
    void *result;        /* WIN_MAX XYZZ slots on the device */
    const void *scalars; /* n, Montgomery form, on the device */
    size_t n;
    const uint32_t *idx; /* ONES_BY_INDEX: the indices of the cnt scalars taken (NULL: all n) */
    size_t cnt;
    pool_t *threads; /* the host copies of bases that are not pinned (NULL: the caller's) */
    gpu_stream_t stream;
} engine_gpu_msm_call_t;

/*
 * A base source: where one query's bases are and how an MSM reaches them:
 * device memory, read in place; pinned host memory, streamed to the device
 * in chunks; or the key's host copy (a file mapping, pageable), copied into
 * pinned bounce buffers and streamed. Built by the residency
 * (engine_gpu_key.c) from the key's tier, once per key and query and again
 * when the key's device copy is evicted; the sequence reads only this.
 */
typedef struct engine_gpu_bases {
    const void *p; /* the bases, affine, in the group's layout */
    gpu_group_t group;
    engine_gpu_ones_t ones;
    /* Queues the MSM of c into c->result: *win says how the result is left
     * (its windows, or {1, 0}: one sum), *h2d grows by the bytes of bases
     * sent to the device. */
    cuzk_status_t (*msm)(const struct engine_gpu_bases *b, const engine_gpu_msm_call_t *c,
                         gpu_msm_windows_t *win, uint64_t *h2d);
    /* Queues into d_r (one XYZZ point on the device) the sum of the bases
     * of the scalars that bitmap d_ones marks among n, with scratch (the
     * device's ones buffer); ONES_IN_MSM: the point at infinity. */
    cuzk_status_t (*sum_ones)(const struct engine_gpu_bases *b, gpu_t *g, void *d_r,
                              const uint32_t *d_ones, size_t n, void *scratch, gpu_stream_t stream);
} engine_gpu_bases_t;

/*
 * The order of the H chains on a key's domain: its power tables and
 * constants are scratch of every chain (gpu_ntt.h), so the chains of
 * partitions computing side by side run one after another on the device,
 * each stream waiting for the end of the chain queued before it.
 */
typedef struct engine_gpu_hseq {
    pthread_mutex_t m; /* around queueing a chain */
    gpu_event_t done;  /* the end of the chain queued last */
    bool queued;       /* done has been recorded */
} engine_gpu_hseq_t;

struct engine_gpu_key {
    engine_gpu_dev_t *d;
    groth16_convention_t conv; /* the key's: what each step reads (groth16_key.h) */
    gpu_curve_t curve;
    engine_gpu_tier_t tier;
    /* The key's counts (groth16_key_t); n_in = n_public + 1 (ONE and the
     * inputs), n_aux = n_vars − n_in (the values after them: the scalars
     * of Q_C). */
    uint32_t n_vars, n_public, domain, n_in, n_aux;
    unsigned log2n;
    engine_gpu_bases_t bases[QUERIES]; /* where each query's bases are, as tier says */
    size_t qn[QUERIES];                /* each query's points */
    void *dmem, *hmem, *csr_mem;
    uint64_t dbytes, hbytes;
    const void *src[QUERIES];   /* the host copy (NULL: none, made on the device) */
    size_t qbytes;              /* of the queries on the device (tier DEVICE) */
    engine_budget_key_t *bkey;  /* the queries on the device; evicted to MAPPED */
    engine_budget_key_t *fixed; /* the CSR and the NTT tables */
    gpu_csr_t csr[2];           /* GROTH16_SYNTH_COEFFS: A and B over domain rows */
    gpu_ntt_domain_t *dom;
    unsigned char shift[FR_BYTES]; /* the H chain's constant (domain_constants) */
    engine_gpu_hseq_t *hseq;
};

struct engine_gpu_slot {
    engine_gpu_dev_t *d;
    engine_gpu_work_t *own; /* for partitions of small keys, made on first use */
    engine_gpu_work_t *w;   /* the computing partition's: own, or the device's */
    gpu_stream_t copy;
    gpu_event_t staged;
    engine_pinned_t *pool;   /* NULL: the slot's own pinned buffer */
    engine_pinned_buf_t buf; /* from the pool, held from staging to the end of compute */
    void *h_in;
    size_t h_size;
    dbuf_t in;
    const engine_gpu_key_t *key; /* the staged partition's key (NULL: none) */
    bool montgomery;             /* its assignment's scalars are in Montgomery form */
    pool_t *threads;             /* the staging's threads: also the mapped tier's copies */
    double stage_s;
    uint64_t h2d;
    /* The partition's device state across its compute section (it may
     * yield the device between MSMs): per scalar vector the bitmap of its
     * ones and the indices of its other scalars; the results; the timing
     * events (ev; qs: each query's start) and the counts' arrival. */
    dbuf_t bits[BITMAPS], idx[BITMAPS], res;
    engine_budget_key_t *bkey;      /* the device buffers above and `in` */
    unsigned urgency;               /* of the partition staged next */
    gpu_msm_windows_t win[QUERIES]; /* how each query's result is left */
    gpu_event_t ev[EVENTS], qs[QUERIES], counted;
    unsigned yields;
};

static inline size_t align256(size_t n)
{
    return (n + 255) & ~(size_t)255;
}

static inline gpu_group_t group_of(gpu_curve_t curve, bool g2)
{
    if (curve == CUZK_GPU_BLS381)
        return g2 ? CUZK_GPU_BLS381_G2 : CUZK_GPU_BLS381_G1;
    return g2 ? CUZK_GPU_BN254_G2 : CUZK_GPU_BN254_G1;
}

static inline gpu_group_t query_group(const engine_gpu_key_t *k, int q)
{
    return group_of(k->curve, q == Q_B2);
}

/* Whether k's a, b, c are computed on the device from its coefficients
 * (else the staged assignment brings them). */
static inline bool key_synth_coeffs(const engine_gpu_key_t *k)
{
    return k->conv.synth == GROTH16_SYNTH_COEFFS;
}

/* The scalars of the H MSM, as the convention's H chain leaves them: the
 * domain's evaluations (GROTH16_H_SHIFTED_EVALS) or the coefficients of
 * the quotient, one fewer (GROTH16_H_COSET_COEFFS: the H query's points). */
static inline size_t key_h_scalars(const engine_gpu_key_t *k)
{
    return k->conv.h == GROTH16_H_COSET_COEFFS ? k->qn[Q_H] : (size_t)1 << k->log2n;
}

/*
 * Keys of domains up to 2^ENGINE_GPU_SHARED_LOG rows compute side by side
 * (each partition on its slot's own work): at 2^16 rows a BN254 partition
 * kept the H200 busy a quarter of the time it held the device (6.5 ms of
 * stages), its kernels too small to fill it and the host's waits between
 * them. From 2^22 rows up one partition's MSMs fill the device (a G1 MSM
 * of 2^22 points runs at the full addition rate), and a second work's
 * buffers and workspaces would cost more device memory than its overlap
 * gains.
 */
enum { ENGINE_GPU_SHARED_LOG = 21 };

static inline bool key_shares_device(const engine_gpu_key_t *k)
{
    return k->log2n <= ENGINE_GPU_SHARED_LOG;
}

/* ---- the device (engine_gpu_dev.c) ---------------------------------------- */

/* The one-line message of a failed device call: "<what> on <device>: <the
 * CUDA error>"; returns s. */
cuzk_status_t engine_gpu_fail(gpu_t *g, cuzk_status_t s, char *err, size_t err_size,
                              const char *what);
/* Grows b to at least bytes (its contents are lost when it grows). */
cuzk_status_t engine_gpu_dbuf_grow(gpu_t *g, dbuf_t *b, size_t bytes);
void engine_gpu_dbuf_free(dbuf_t *b);
/* Bytes of the results: RESULTS XYZZ points, each in a slot of G2's size. */
size_t engine_gpu_res_bytes(void);
/* Copies bytes from host memory src (pageable) to device memory dst
 * through two pinned bounce buffers, on the device's stream; returns once
 * the copy is over. */
cuzk_status_t engine_gpu_upload_bounced(engine_gpu_dev_t *d, void *dst, const void *src,
                                        size_t bytes);
/* A work on d (engine_gpu_work_t): its stream and pinned results, its
 * budget key; buffers and workspaces come with use. g->err says why on a
 * failure (w is then freed). */
cuzk_status_t engine_gpu_work_init(engine_gpu_work_t *w, engine_gpu_dev_t *d);
void engine_gpu_work_fini(engine_gpu_work_t *w);
/* The work's MSM workspace of group grp, made on first use with its
 * memory hook on the device's budget. By its compute section only. */
cuzk_status_t engine_gpu_work_msm_ws(engine_gpu_work_t *w, gpu_group_t grp, gpu_msm_t **m);
/* The compute buffers for k, grown within the device's budget without
 * waiting. By its compute section only; g->err says why on a failure. */
cuzk_status_t engine_gpu_work_reserve(engine_gpu_work_t *w, const engine_gpu_key_t *k);
/* The workspaces of k's MSMs: G1's for g1 points, G2's for B2's. */
cuzk_status_t engine_gpu_work_reserve_msms(engine_gpu_work_t *w, const engine_gpu_key_t *k,
                                           size_t g1);

/* ---- slots (engine_gpu_slot.c) --------------------------------------------- */

/* The slot's pinned staging buffer holds at least host bytes (0: none is
 * needed; one from the pool is given back), then the partition on k is
 * admitted to the device: the slot's device buffers hold all it needs
 * (engine_gpu_mem_t). On success the slot is in use until
 * engine_gpu_slot_idle. */
cuzk_status_t engine_gpu_slot_reserve(engine_gpu_slot_t *s, const engine_gpu_key_t *k, size_t host,
                                      char *err, size_t err_size);
/* Waits for the slot's uploads to end, then gives the staging buffer back
 * to the pool. */
void engine_gpu_slot_release(engine_gpu_slot_t *s);
/* The slot is idle again: its buffers may be taken back for another's
 * partition, and the partitions waiting for memory look again. */
void engine_gpu_slot_idle(engine_gpu_slot_t *s);

/* ---- staging (engine_gpu_stage.c) ------------------------------------------ */

/*
 * The layout of a slot's device buffer for a GROTH16_SYNTH_GIVEN key. In
 * scalars, what compute_given reads: a, b, c (m each), sa (the A query's
 * points: the inputs, then the aux values a_aux_density marks), sb (the B
 * queries' points: the inputs b_input_density marks, then the aux values
 * b_aux_density marks), aux (n_aux). Then, in bytes, what only staging
 * uses: the three density bitmaps as the assignment holds them (u64
 * words), and the selection's scratch; `bytes` in all.
 */
typedef struct {
    size_t m, a, b, c, sa, sb, aux, end;
    size_t bits_a_aux, bits_b_in, bits_b_aux, scratch, bytes;
} asgn_layout_t;

asgn_layout_t engine_gpu_asgn_layout(const engine_gpu_key_t *k);

#endif
