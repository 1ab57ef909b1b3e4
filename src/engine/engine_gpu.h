/*
 * One partition on a GPU (DESIGN.md sections 3 and 4): the device work of a
 * Groth16 proof, split so that the engine can overlap partitions.
 *
 *   engine_gpu_dev_t   one device: its compute stream, the compute lock,
 *                      the MSM workspaces and the work buffers that only
 *                      the compute section touches (shared by the device's
 *                      workers, one compute at a time);
 *   engine_gpu_key_t   a proving key's copy for one device, in one of three
 *                      residency tiers: "device" (every query and the
 *                      R1CS on the device), "pinned" (the queries in
 *                      pinned host memory, streamed to the device in
 *                      double-buffered chunks by each MSM) or "mapped"
 *                      (the queries read in place from the loaded key
 *                      through pinned bounce buffers); in the last two
 *                      the R1CS and the NTT tables are on the device. A
 *                      device copy held by no running partition may be
 *                      evicted to the mapped tier by the device's memory
 *                      budget (engine_budget.h);
 *   engine_gpu_slot_t  one worker's staging: pinned host buffers, device
 *                      input buffers and a copy stream.
 *
 * A partition is staged (engine_gpu_stage: host work into the slot's
 * pinned buffers, or none for an assignment already in pinned memory,
 * then uploads on the slot's copy stream; no lock), then computed
 * (engine_gpu_compute: under the device's compute lock, the
 * compute stream waits for the slot's uploads by an event, then runs
 * synth, the H chain and the five MSMs, and the host waits only for the
 * nine result points). While one worker computes, another stages.
 *
 * What runs where follows the key's convention (groth16_convention_t, kept
 * in the device key). A key whose a, b, c come from its own coefficients
 * (GROTH16_SYNTH_COEFFS, snarkjs): the witness goes up in Montgomery form;
 * on the device its plain copy, the classification of the MSM scalars
 * (bitmaps of the ones), a = A·w and b = B·w from the key's coefficients
 * in CSR form (built once when the key is placed), c = a·b, the H chain,
 * then the MSMs A, B1, B2 (G2), C and H with the scalar-one bases summed
 * apart. A key whose synthesizer hands them in (GROTH16_SYNTH_GIVEN,
 * bellperson): the assignment's a, b, c, inputs, aux and density bitmaps
 * go up, and the scalars of A and B are selected from the inputs and aux
 * on the device (a gather on the copy stream); the rest as above with L
 * (the aux values) in place of C, one MSM at a time with a yield point
 * before each. The H chain is the one the convention's h names (shifted
 * evaluations, or the coset coefficients). The results are XYZZ points
 * (groth16_msms_t) that the Groth16 layer assembles and verifies on the
 * CPU.
 *
 * The code is in engine_gpu_dev.c (the device and its budget),
 * engine_gpu_key.c (residency and each query's base source),
 * engine_gpu_slot.c (slots and their admission), engine_gpu_stage.c
 * (staging) and engine_gpu_seq.c (the Groth16 sequence and the
 * accelerator), over the private engine_gpu_impl.h.
 *
 * Failures carry a one-line message (the CUDA call and its error text for
 * device errors). A device error leaves the device unusable for later
 * partitions when it is sticky (a kernel fault); the engine then fails
 * those partitions with the same message.
 */
#ifndef CUZK_ENGINE_ENGINE_GPU_H
#define CUZK_ENGINE_ENGINE_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "groth16/groth16.h"
#include "groth16/groth16_key.h"

/* The queries of a key, in the order results and timings list them: A, B1,
 * B2 (G2), the query that carries L (snarkjs' C, bellperson's L), H. */
enum { ENGINE_GPU_QUERIES = 5 };

typedef struct engine_gpu_dev engine_gpu_dev_t;
typedef struct engine_gpu_key engine_gpu_key_t;
typedef struct engine_gpu_slot engine_gpu_slot_t;

/* Opens CUDA device `device` (the calling thread's current device after). */
cuzk_status_t engine_gpu_dev_new(engine_gpu_dev_t **d, int device, char *err, size_t err_size);
/* NULL is a no-op; nothing may run on d. */
void engine_gpu_dev_free(engine_gpu_dev_t *d);
/* "NVIDIA H200 (device 0, 139.8 GiB)". */
const char *engine_gpu_dev_name(const engine_gpu_dev_t *d);
int engine_gpu_dev_ordinal(const engine_gpu_dev_t *d);
/* The device's handle (for allocations on it). */
const struct gpu *engine_gpu_dev_gpu(const engine_gpu_dev_t *d);
/* Whether the device still works: false after a sticky error (a kernel
 * fault), which fails every later call on it. */
bool engine_gpu_dev_healthy(engine_gpu_dev_t *d);
/* Device memory the driver reports free now (0 when the query fails). */
uint64_t engine_gpu_dev_free_bytes(engine_gpu_dev_t *d);

/*
 * The device memory of a device's slots: each partition's inputs, bitmaps,
 * index lists and results (engine_gpu_slot_bytes of its key). A partition
 * is admitted to the device when its slot holds all of it: what the slot
 * lacks is taken within `limit` (0: none) and the device's free memory,
 * less a margin; else idle slots give theirs back; else the partition
 * waits, holding nothing, until a running one ends; and one that could not
 * fit even with every other slot's memory back fails at once, with
 * CUZK_ENOMEM and a message. So more work than fits queues, and a
 * partition never runs out of device memory halfway.
 */
typedef struct engine_gpu_mem {
    uint64_t limit;    /* bytes all slots together may hold (0: no limit but the device's) */
    uint64_t held;     /* bytes they hold now */
    uint64_t peak;     /* the most they held at once since the limit was set */
    uint64_t waits;    /* times a partition waited for another's memory */
    uint64_t reclaims; /* idle slots whose buffers were taken back */
} engine_gpu_mem_t;
void engine_gpu_dev_mem(engine_gpu_dev_t *d, engine_gpu_mem_t *out);
/* The most partitions that have computed on d at once: partitions of
 * small keys compute side by side (engine_gpu_compute). */
unsigned engine_gpu_dev_computing_peak(engine_gpu_dev_t *d);
void engine_gpu_dev_set_slot_limit(engine_gpu_dev_t *d, uint64_t bytes);

typedef enum engine_gpu_tier {
    ENGINE_GPU_TIER_AUTO,   /* device when it fits the budget, else pinned, else mapped */
    ENGINE_GPU_TIER_DEVICE, /* queries on the device (fails when they do not fit) */
    ENGINE_GPU_TIER_PINNED, /* queries in pinned host memory, streamed */
    ENGINE_GPU_TIER_MAPPED, /* queries read in place from the caller's host copy (a file
                               mapping, pageable), streamed through pinned bounce buffers */
} engine_gpu_tier_t;

/* "auto", "device", "pinned", "mapped". */
const char *engine_gpu_tier_name(engine_gpu_tier_t t);

/*
 * The device copy of a proving key. key is the Groth16 layer's view of it
 * (a reader's or a development setup's); the struct itself may go once
 * this returns, but the arrays it borrows (the query points, the
 * coefficients) must outlive *k: the mapped tier reads the points in place,
 * and an eviction falls back to them. Read: curve; conv (GROTH16_SNARKJS or
 * GROTH16_BELLPERSON, else CUZK_EUNSUPPORTED); n_public, n_vars and
 * domain_size; the queries a, b1, b2, l, h (ic and the fixed points are the
 * CPU's: not read); for GROTH16_SYNTH_COEFFS coeffs and n_coeffs, which
 * become the CSR matrices of A and B over the domain's rows (a record
 * outside them: CUZK_EBADFILE). The counts must agree with the convention
 * as groth16_key_t states it (l: n_vars − n_public − 1 points; h:
 * domain_size, or domain_size − 1 for GROTH16_H_COSET_COEFFS; b1 and b2
 * alike; snarkjs: a and b1 one per wire), else CUZK_EINVAL. device_budget:
 * bytes of device memory the key may take (0: what is free now less the
 * working set of `workers` slots and the MSM workspaces,
 * engine_gpu_work_bytes). tier AUTO chooses from the budget.
 */
cuzk_status_t engine_gpu_key_new(engine_gpu_key_t **k, engine_gpu_dev_t *d,
                                 const groth16_key_t *key, engine_gpu_tier_t tier,
                                 uint64_t device_budget, unsigned workers, char *err,
                                 size_t err_size);
/*
 * A key whose queries the caller writes on the device (the development
 * setup on the device, engine_gpu_setup.h). Of key only the counts are
 * read, checked as engine_gpu_key_new checks them: curve, conv, n_public,
 * n_vars, domain_size and the five queries' counts (a, b1, b2, l, h; their
 * data, the coefficients and everything else are not read: a key made
 * from coefficients needs them, so conv.synth must be GROTH16_SYNTH_GIVEN,
 * else CUZK_EUNSUPPORTED). The five queries are allocated uninitialised
 * in device memory (tier DEVICE), engine_gpu_key_query(k, q) says where
 * query q goes (A, B1, B2, L, H as ENGINE_GPU_QUERIES counts them).
 * Nothing may prove on k before they are written.
 */
cuzk_status_t engine_gpu_key_blank(engine_gpu_key_t **k, engine_gpu_dev_t *d,
                                   const groth16_key_t *key, char *err, size_t err_size);
void *engine_gpu_key_query(engine_gpu_key_t *k, int q);

/*
 * Allocates now what the partitions on k share on its device (the compute
 * buffers, the workspaces of the largest MSM in G1 and in G2), so that the
 * first partition does not pay for it, and a key whose working memory does
 * not fit fails here, with a message, rather than its first partition.
 * Each partition's own memory is admitted with it (engine_gpu_mem_t).
 * Waits for the compute lock (at the highest urgency).
 */
cuzk_status_t engine_gpu_key_warm(engine_gpu_key_t *k, char *err, size_t err_size);

/* NULL is a no-op; nothing may run on k. */
void engine_gpu_key_free(engine_gpu_key_t *k);

/* The tier chosen (DEVICE, PINNED or MAPPED), and the bytes the key holds on the
 * device (queries, CSR, NTT tables) and in pinned host memory. */
engine_gpu_tier_t engine_gpu_key_tier(const engine_gpu_key_t *k);
uint64_t engine_gpu_key_device_bytes(const engine_gpu_key_t *k);
uint64_t engine_gpu_key_pinned_bytes(const engine_gpu_key_t *k);
/* An estimate of the device memory one partition on k uses beyond the key:
 * one slot's inputs, the compute buffers and the MSM workspaces. */
uint64_t engine_gpu_work_bytes(const engine_gpu_key_t *k);
/* The device memory of a partition on k in its slot (engine_gpu_mem_t). */
uint64_t engine_gpu_slot_bytes(const engine_gpu_key_t *k);

/* A worker's staging area on d (device buffers grow to the largest
 * partition, admitted as engine_gpu_mem_t says; at most 64 a device). Its
 * pinned host buffer comes from pool (engine_pinned.h: a
 * buffer is taken when a partition with input in pageable memory is
 * staged and given back when its compute ends, so that the workers share
 * them) or, pool NULL, is the slot's own. */
struct engine_pinned;
cuzk_status_t engine_gpu_slot_new(engine_gpu_slot_t **s, engine_gpu_dev_t *d,
                                  struct engine_pinned *pool, char *err, size_t err_size);
/* NULL is a no-op; waits for the slot's copies. */
void engine_gpu_slot_free(engine_gpu_slot_t *s);
/* The urgency (0 .. 3, the engine's priorities) at which the slot's next
 * partitions wait for device memory (engine_gpu_mem_t); 0 at first. */
void engine_gpu_slot_set_urgency(engine_gpu_slot_t *s, unsigned urgency);

/* What a partition moved and how long its parts took. */
typedef struct engine_gpu_stats {
    double stage_s;        /* host staging and the upload (wall clock, to the last byte) */
    double synth_ms, h_ms; /* device time of synth and of the H chain (events) */
    double msm_ms;         /* device time of the five MSMs and the ones sums */
    double query_ms[ENGINE_GPU_QUERIES]; /* of which each query's */
    double wait_s;                       /* wall time waiting for the compute lock */
    unsigned yields;    /* times it let a more urgent partition in (between its MSMs) */
    uint64_t h2d_bytes; /* host to device: inputs, and queries streamed (pinned tier) */
    uint64_t d2h_bytes; /* device to host: the results */
    /* bytes that reached the device from pageable memory: 0 (pageable
     * inputs are copied into the pinned staging buffer first) */
    uint64_t pageable_bytes;
} engine_gpu_stats_t;

/*
 * Stages a partition on k: in as k's convention wants it (groth16_input_t),
 * checked against the key by the caller (NAME_groth16_check_input, which
 * groth16_prove_key runs first). Returns
 * once the work is queued; engine_gpu_compute must follow. Staging waits
 * first for the partition's admission to the device (engine_gpu_mem_t:
 * this may wait for another slot's partition to end).
 *
 * GROTH16_SYNTH_COEFFS: in->w, in->n = the key's n_vars Montgomery-form
 * Fr values, copied into the slot's pinned buffer (on pool's threads;
 * NULL: the caller's alone) and uploaded on its copy stream.
 *
 * GROTH16_SYNTH_GIVEN: in->asgn, whose counts match the key's. Each of its arrays (a, b, c, inputs,
 * aux, the three density bitmaps) that lies in pinned memory (gpu_host_is_pinned, at its first
 * and last byte) is uploaded straight from it; the others are copied into the slot's pinned staging
 * buffer first (on pool's threads), which is taken only when there are
 * such arrays. The scalars of A (the inputs, then the aux values
 * a_aux_density marks) and of B (the inputs b_input_density marks, then
 * the aux values b_aux_density marks) are gathered on the device. The
 * assignment's arrays must stay unchanged until engine_gpu_compute of this
 * partition has returned (on a failure here, nothing reads them any more).
 */
struct pool;
cuzk_status_t engine_gpu_stage(engine_gpu_slot_t *s, const engine_gpu_key_t *k,
                               const groth16_input_t *in, struct pool *pool, char *err,
                               size_t err_size);

/*
 * Computes the staged partition on the slot's device under its compute
 * lock: out = the five MSM results (with the ones sums added), stats (NULL:
 * not wanted) filled. The slot may be staged again afterwards. The lock
 * goes to the waiter of the highest urgency (util/prio_lock.h: 0 .. 3, the
 * engine's priorities), first come first served within one. A partition
 * of a small key (a domain of up to 2^21 rows) holds it shared, beside the
 * other small partitions, on its slot's own stream, buffers and MSM
 * workspaces (made on its first use and kept, within the device's budget;
 * when the budget cannot hold them, the partition holds the device alone);
 * a larger one holds it alone, on the device's. A partition of a
 * GROTH16_SYNTH_GIVEN key holding it alone lets a more urgent waiter in
 * between its MSMs (its state lives in its slot), so that one waits for one
 * step, not a whole partition.
 */
cuzk_status_t engine_gpu_compute(engine_gpu_slot_t *s, const engine_gpu_key_t *k, unsigned urgency,
                                 groth16_msms_t *out, engine_gpu_stats_t *stats, char *err,
                                 size_t err_size);

/*
 * A Groth16 accelerator (groth16_accel_t) over slot s and key k: stage then
 * compute, the stages' times in groth16_timings_t (synth = staging plus
 * device synth). The last partition's stats in *stats (NULL: not kept).
 */
typedef struct engine_gpu_accel {
    engine_gpu_slot_t *slot;
    const engine_gpu_key_t *key;
    struct pool *pool; /* threads for the staging copies (NULL: the caller's) */
    unsigned urgency;  /* at the compute lock (engine_gpu_compute) */
    engine_gpu_stats_t stats;
} engine_gpu_accel_t;

groth16_accel_t engine_gpu_accel(engine_gpu_accel_t *a);

#endif
