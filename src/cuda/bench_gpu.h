/*
 * What the files of cuzk_gpu_bench share (bench_gpu.c has the command's
 * usage and main): the device and the CPU's pool, the options the sections
 * read, the table printed last, random inputs, the groups measured, and
 * each section's entry point. Private to the benchmark.
 *
 * Every section adds its figures with add_row, as medians of `reps` runs
 * after a warm-up, and exits the process (status 1) when a check or a CUDA
 * call fails: a benchmark has nothing to recover.
 */
#ifndef CUZK_CUDA_BENCH_GPU_H
#define CUZK_CUDA_BENCH_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda/gpu.h"
#include "cuda/gpu_kernels.h"
#include "cuda/gpu_msm.h"
#include "util/pool.h"

/* FR_BYTES: one Fr element; CHUNK: the inputs are made CHUNK at a time
 * (generate); MAX_REPS: the most --reps. */
enum { FR_BYTES = 32, CHUNK = 4096, MAX_REPS = 31 };

/* Device 0 and the pool on every CPU core, opened by main before any
 * section runs. */
extern gpu_t gpu;
extern pool_t *pool;
/* --reps: the timed runs a figure is the median of, 1 .. MAX_REPS. */
extern unsigned reps;
/* --windows: forced windows timed at the largest G1 size, besides the model's. */
extern unsigned sweep[8];
extern int nsweep;

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cuzk_status_t st_ = (call);                                                                \
        if (st_ != CUZK_OK) {                                                                      \
            fprintf(stderr, "FAILED %s: %s (%s)\n", #call, cuzk_strerror(st_), gpu.err);           \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* ---- the table printed last ------------------------------------------- */

/* Prints a row now and keeps it for the table; log2n = 0: no size. */
void add_row(const char *what, unsigned log2n, double ms, const char *note);

/* The median of v[0..n), n >= 1; sorts v. */
float median(float *v, int n);

/* ---- inputs, on every core ---------------------------------------------- */

/* Per group: points of chunk c (CHUNK of them, a walk from a random start
 * with four random steps, one inversion), and Fr elements. */
typedef struct {
    void (*points)(void *out, size_t count, uint64_t seed);
    void (*scalars)(void *out, size_t count, uint64_t seed);
    size_t affine;
} gen_t;

extern const gen_t gen_bls381_g1, gen_bls381_g2, gen_bn254_g1, gen_bn254_g2;

/* n (a multiple of CHUNK) points or scalars into out. */
void generate(const gen_t *gen, void *out, size_t n, bool scalars, uint64_t seed);

/* ---- the groups measured ---------------------------------------------- */

typedef struct {
    const char *name;
    gpu_group_t grp;
    const gen_t *gen;
    cuzk_status_t (*cpu_msm)(void *r, const void *bases, const void *scalars, size_t n);
    bool (*equal)(const void *gpu_xyzz, const void *cpu_jac);
    bool (*xyzz_equal)(const void *a, const void *b);
    void (*horner)(void *r, const void *win, unsigned windows, unsigned window);
    /* Whether accumulators r[0..k) of thread i of the batch-affine probe
     * (gpu_kernels.h) are what the CPU's additions give. */
    bool (*baff_check)(const void *r, const void *bases, size_t n, size_t i, unsigned k,
                       unsigned iters);
    size_t xyzz;
} group_t;

/* BLS12-381 G1, G2, BN254 G1, G2, in the order of gpu_group_t. */
extern const group_t groups[4];

/* ---- the sections, in the order main runs them for each curve --------- */

/* bench_probe.c: multiplications and mixed additions per second of one
 * curve (k its kernels, g1 and g2 its groups), on CHUNK random points of
 * each group (their coordinates serve as Fp elements), and G1's
 * batch-affine additions. */
void bench_probes(const gpu_curve_kernels_t *k, const group_t *g1, const group_t *g2);

/* bench_msm.c: times MSMs of 2^lo .. 2^hi (step 2) over one set of
 * resident inputs, after checking 2^check against the CPU (check 0: no
 * check); then, when hi >= stream_min (0: never), the MSM of 2^hi streamed
 * from pinned host memory in chunks of 2^(stream_min - 2) .. 2^min(hi - 1,
 * 25) points, and from pageable memory through the pinned bounce buffers
 * (chunks of 2^22). */
void bench_msm(const group_t *G, unsigned lo, unsigned hi, unsigned check, unsigned stream_min);

/* bench_ntt.c, for curve ci (0: BLS12-381, 1: BN254), at each size in logs
 * (nlogs = 0: none). bench_ntt: forward, inverse, coset forward and coset
 * inverse, the forward checked against the CPU at 2^20 and at the largest
 * size. bench_h: both H chains, inputs resident on the device (one random
 * vector uploaded as a, b and c; the chain runs on its own output rep after
 * rep), shift = g = 7; at 2^20 the GPU's a is first checked against the
 * CPU's on three distinct vectors. */
void bench_ntt(int ci, const unsigned *logs, int nlogs);
void bench_h(int ci, const unsigned *logs, int nlogs);

#endif
