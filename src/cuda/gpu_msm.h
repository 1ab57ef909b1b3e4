/*
 * Multi-scalar multiplication on the GPU: r = Σ k_i·P_i for G1 and G2 of
 * both curves, Pippenger with signed windows, sort-based bucket
 * accumulation and XYZZ buckets (docs/CUDA.md). The twin of src/msm/msm.h;
 * results match NAME_msm_vartime as group elements.
 *
 * Contract:
 *  - bases: n affine points in device memory, the CPU's bytes (Montgomery
 *    form, (0, 0) for infinity); any points on the curve, repeats and
 *    negations allowed. scalars: n Fr elements in device memory, Montgomery
 *    form (mont = true, as the field keeps them) or canonical limbs (mont =
 *    false, any value below 2^256 truncated to the field's bit length: pass
 *    reduced values).
 *  - The result is one XYZZ point of the group (the CPU's NAME_xyzz_t
 *    bytes); infinity comes back with ZZ = ZZZ = 0.
 *  - A workspace belongs to one device and serves one MSM at a time; it
 *    grows its buffers to the largest MSM run through it and keeps them.
 *  - Variable-time in the scalars and the points: public data only.
 */
#ifndef CUZK_CUDA_GPU_MSM_H
#define CUZK_CUDA_GPU_MSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda/gpu.h"

typedef enum gpu_group {
    CUZK_GPU_BLS381_G1 = 0,
    CUZK_GPU_BLS381_G2 = 1,
    CUZK_GPU_BN254_G1 = 2,
    CUZK_GPU_BN254_G2 = 3
} gpu_group_t;

/* Bytes of one affine point, one XYZZ point, one scalar of the group. */
size_t gpu_affine_bytes(gpu_group_t grp);
size_t gpu_xyzz_bytes(gpu_group_t grp);
enum { CUZK_GPU_SCALAR_BYTES = 32 };

/* How a run is cut: c-bit windows, W of them, segments of 2^seg_log
 * buckets in the reduction. */
typedef struct gpu_msm_plan {
    unsigned window;  /* c */
    unsigned windows; /* W = bits / c + 1 */
    unsigned seg_log; /* s */
    bool sort_all;    /* one sort orders every window's pairs (small runs) */
    size_t bytes;     /* device memory of the workspace for this run */
} gpu_msm_plan_t;

/*
 * The plan for n points (n >= 1). window != 0 forces c (1..CUZK_GPU_MSM_WINDOW_MAX);
 * otherwise c minimises the modelled time W·(n + 3·2^(c-1)): n bucket
 * additions a window plus about 3 additions' worth per bucket to reduce
 * (two XYZZ additions, 12M + 2S each against the 8M + 2S of a bucket
 * addition, and the bucket's store and load; the bucket kernel cuts long
 * runs, so the top window's few buckets cost no more), among the windows up
 * to 22 (msm.c) whose workspace fits in mem_budget bytes (0: no limit);
 * when none fits, the one of the smallest workspace. A run's budget is what
 * the workspace's memory hook allows (gpu_msm_set_mem_hook), or,
 * without one, 90 % of the device's free memory plus the workspace it
 * already holds.
 */
enum { CUZK_GPU_MSM_WINDOW_MAX = 24 };
void gpu_msm_plan(gpu_msm_plan_t *plan, gpu_group_t grp, size_t n, unsigned window,
                  size_t mem_budget);

typedef struct gpu_msm gpu_msm_t;

/* A workspace for MSMs in group grp on device g (which must outlive it).
 * Allocates nothing yet. */
cuzk_status_t gpu_msm_new(gpu_msm_t **m, gpu_t *g, gpu_group_t grp);
/* Frees the workspace and its buffers; NULL is a no-op. Waits for nothing:
 * the caller makes sure no MSM is in flight. */
void gpu_msm_free(gpu_msm_t *m);

/*
 * Where a workspace's device memory is accounted, from the layer above (the
 * engine's device budget): room(ctx, held) is the most bytes the workspace
 * may hold in all now, held included; resize(ctx, bytes) is told, before
 * the workspace grows and after it shrank or a growth failed, the bytes it
 * is to hold in all, and refuses a growth with CUZK_ENOMEM (nothing is
 * allocated then). Called on the thread running the MSM; ctx must outlive
 * the workspace, whose free tells resize(ctx, 0).
 */
typedef struct gpu_mem_hook {
    void *ctx;
    size_t (*room)(void *ctx, size_t held);
    cuzk_status_t (*resize)(void *ctx, size_t bytes);
} gpu_mem_hook_t;
void gpu_msm_set_mem_hook(gpu_msm_t *m, const gpu_mem_hook_t *hook);

/* Forces the window of later runs (0: the model's choice). */
void gpu_msm_set_window(gpu_msm_t *m, unsigned window);

/* When apart, later runs sort each window's pairs on its own even where
 * one sort of every window's would do (small runs): the two orders give
 * the same result, which tests check and benches compare. */
void gpu_msm_set_sort_apart(gpu_msm_t *m, bool apart);

/* When on, later runs record events between their phases, and
 * gpu_msm_phase_ms gives the times of the last run (after it ended):
 * [0] digits, sort and bounds, [1] bucket sums, [2] segment reduction,
 * [3] window sums, [4] window combination; for a streamed run, [0] and
 * [1] of its last chunk. */
enum { CUZK_GPU_MSM_PHASES = 5 };
cuzk_status_t gpu_msm_set_timing(gpu_msm_t *m, bool on);
cuzk_status_t gpu_msm_phase_ms(gpu_msm_t *m, float ms[CUZK_GPU_MSM_PHASES]);

/* The plan the last run used. */
gpu_msm_plan_t gpu_msm_last_plan(const gpu_msm_t *m);

/* Grows the workspace now to what a resident run over n points needs (a
 * warm-up: the first run then allocates nothing). CUZK_ENOMEM with g->err
 * when the device cannot hold it; CUZK_EINVAL beyond 2^31 points. */
cuzk_status_t gpu_msm_reserve(gpu_msm_t *m, size_t n);

/*
 * Queues the MSM on stream s and returns: d_r (device memory, one XYZZ
 * point) receives the result when the stream gets there. Grows the
 * workspace first when it is too small (a synchronous allocation).
 */
cuzk_status_t gpu_msm_launch(gpu_msm_t *m, void *d_r, const void *d_bases, const void *d_scalars,
                             size_t n, bool mont, gpu_stream_t s);

/*
 * The same over the points d_idx[0..n_idx) only (device memory, ascending
 * or not, each < 2^31): Σ scalars[idx[j]]·bases[idx[j]], the work that of
 * an MSM of n_idx points. With the indices of the scalars that are neither
 * 0 nor 1 (gpu_bitmap_compact_launch over the classification's
 * bitmap), a witness of mostly bits costs only its other scalars.
 */
cuzk_status_t gpu_msm_launch_idx(gpu_msm_t *m, void *d_r, const void *d_bases,
                                 const void *d_scalars, const uint32_t *d_idx, size_t n_idx,
                                 bool mont, gpu_stream_t s);

/* What gpu_msm_launch_windows left: `windows` XYZZ points whose sum
 * Σ_w 2^(w·window)·win[w] is the MSM (windows = 1, window = 0: the sum). */
typedef struct gpu_msm_windows {
    unsigned windows, window;
} gpu_msm_windows_t;

/*
 * gpu_msm_launch (d_idx NULL) or _launch_idx, less the last step:
 * d_win (max_win XYZZ points, max_win >= 1) receives the plan's W window
 * sums when W <= max_win, and *out says how to finish, by Horner from the
 * top window: c doublings a window, where one GPU thread takes ~9 µs a
 * BLS12-381 G1 doubling and the host a fraction of one. With more windows
 * than max_win, d_win[0] receives the sum (*out = {1, 0}). *out is known
 * when the call returns; d_win when the stream gets there.
 */
cuzk_status_t gpu_msm_launch_windows(gpu_msm_t *m, void *d_win, unsigned max_win,
                                     const void *d_bases, const void *d_scalars,
                                     const uint32_t *d_idx, size_t n, bool mont,
                                     gpu_msm_windows_t *out, gpu_stream_t s);

/* gpu_msm_launch, then the result to host memory r (one XYZZ point),
 * waiting for it. */
cuzk_status_t gpu_msm(gpu_msm_t *m, void *r, const void *d_bases, const void *d_scalars, size_t n,
                      bool mont, gpu_stream_t s);

/*
 * The same sum with bases and scalars in host memory, streamed to the
 * device in chunks of `chunk` points (0: 2^22; at most 2^31) through two
 * device buffers: chunk k + 1 uploads on a copy stream while chunk k
 * computes on s. Each chunk is sorted at the window of an MSM of `chunk`
 * points and its bucket sums are added to those of the chunks before (a
 * second set of buckets and a merge kernel); the buckets are reduced once,
 * at the end. The host waits only for the final result,
 * copied to r (one XYZZ point). The host buffers should be pinned
 * (gpu_host_alloc): from pageable memory the copies run at a fraction
 * of the bus's speed and stop overlapping. Allocates the chunk buffers on
 * first use and keeps them.
 */
cuzk_status_t gpu_msm_streamed(gpu_msm_t *m, void *r, const void *h_bases, const void *h_scalars,
                               size_t n, bool mont, size_t chunk, gpu_stream_t s);

/*
 * The same without any host wait: the sum lands in d_r (device memory, one
 * XYZZ point) when stream s gets there. The scalars are in host memory
 * (uploaded chunk by chunk beside the bases) or, with scalars_on_device,
 * already in device memory (only the bases stream). Runs on one workspace
 * are ordered by its events, so the caller may queue several in a row.
 */
cuzk_status_t gpu_msm_streamed_launch(gpu_msm_t *m, void *d_r, const void *h_bases,
                                      const void *scalars, bool scalars_on_device, size_t n,
                                      bool mont, size_t chunk, gpu_stream_t s);

/*
 * gpu_msm_streamed_launch with bases in pageable host memory (a key
 * left in its file mapping): each chunk is first copied by copy(ctx, dst,
 * src, bytes) into one of two pinned bounce buffers of the workspace
 * (allocated on first use and kept), so that every byte crosses the bus
 * from pinned memory. Before refilling a bounce buffer the host waits for
 * its previous upload (two chunks back): the one host wait of the run,
 * which overlaps the device's work on the chunks already queued. The
 * scalars are in device memory. Returns once the last chunk is queued.
 */
typedef void (*gpu_copy_fn)(void *ctx, void *dst, const void *src, size_t bytes);
cuzk_status_t gpu_msm_paged_launch(gpu_msm_t *m, void *d_r, const void *h_bases, gpu_copy_fn copy,
                                   void *ctx, const void *d_scalars, size_t n, bool mont,
                                   size_t chunk, gpu_stream_t s);

#endif
