/*
 * An INSECURE development key made on the device (setup.cu): the kernels
 * of a Groth16 setup in bellperson's convention over BLS12-381 for the
 * indexed synthetic circuit (r1cs/r1cs_indexed.h), whose rows and columns
 * the device computes from their index, so that a key of porep32's full
 * size (2^27 rows, ~47 GB of points) is made where it is used, in seconds,
 * without the circuit ever existing as matrices. The CPU twin is
 * bls381_groth16_bp_dev_setup over the CSR of r1cs_generate_indexed; the
 * engine (engine_gpu.h, engine_gpu_bp_dev_setup) runs these steps in order.
 *
 * Elements are BLS12-381 Fr in Montgomery form (32 bytes, the CPU's bytes)
 * unless a comment says canonical; points are affine, the CPU's bytes.
 * Every launcher queues its kernel(s) on stream s and returns CUZK_OK or
 * CUZK_EDEVICE with the CUDA error in g->err. Pointers are device memory
 * unless a comment says otherwise; constants are host pointers to one Fr.
 */
#ifndef CUZK_CUDA_GPU_SETUP_H
#define CUZK_CUDA_GPU_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda/gpu.h"
#include "r1cs/r1cs_indexed.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Points of the fixed-base tables: t[i][j - 1] = j·2^(8i)·G, i < 32,
 * j < 256 (bls381_groth16_fb_table_g1/g2 make them on the CPU). */
enum { CUZK_GPU_FB_POINTS = 32 * 255 };

/* w[i] = witness value i of ix, i < ix->n_cols. */
cuzk_status_t gpu_ix_witness(gpu_t *g, void *w, const r1cs_ix_t *ix, gpu_stream_t s);

/* Per row j < ix->n_rows: a[j] = (A·w)_j, b[j] = (B·w)_j, c[j] = (C·w)_j =
 * a·b, and c0[j] = C's coefficient on ONE (a·b - the rest of C·w). */
cuzk_status_t gpu_ix_rows(gpu_t *g, void *a, void *b, void *c, void *c0, const void *w,
                          const r1cs_ix_t *ix, gpu_stream_t s);

/*
 * Per wire i < ix->n_cols, from l (the Lagrange basis at τ, at least
 * n_rows + n_in elements): ua[i] = Σ A_ji·l_j (+ l[n_rows + i] for the
 * inputs i < n_in: bellperson's rows x_i·0 = 0), ub[i] = Σ B_ji·l_j, uc[i]
 * = Σ C_ji·l_j except C's column ONE (see gpu_setup_dot_add); fa[i] =
 * 1 when wire i takes an A-query point (an input, or a column of A with an
 * entry), fb[i] = 1 when column i of B has an entry, else 0.
 */
cuzk_status_t gpu_ix_columns(gpu_t *g, void *ua, void *ub, void *uc, uint32_t *fa, uint32_t *fb,
                             const void *l, const r1cs_ix_t *ix, uint32_t n_in, gpu_stream_t s);

/* l[j] = zt·ω^j / (τ - ω^j), j < m: the Lagrange basis of ⟨ω⟩ (size m) at
 * τ, zt = (τ^m - 1)/m; omega_inv = ω^-1. */
cuzk_status_t gpu_setup_lagrange(gpu_t *g, void *l, size_t m, const void *omega,
                                 const void *omega_inv, const void *tau, const void *zt,
                                 gpu_stream_t s);

/* Scratch elements gpu_setup_dot_add needs. */
enum { CUZK_GPU_DOT_BLOCKS = 1024 };

/* *acc += Σ x_i·y_i over i < n (acc: one element of device memory);
 * scratch: CUZK_GPU_DOT_BLOCKS elements. */
cuzk_status_t gpu_setup_dot_add(gpu_t *g, void *acc, const void *x, const void *y, size_t n,
                                void *scratch, gpu_stream_t s);

/* uc[i] = (β·ua[i] + α·ub[i] + uc[i])·(i < n_in ? γ^-1 : δ^-1), i < n. */
cuzk_status_t gpu_setup_combine(gpu_t *g, void *uc, const void *ua, const void *ub, size_t n,
                                uint32_t n_in, const void *alpha, const void *beta,
                                const void *gamma_inv, const void *delta_inv, gpu_stream_t s);

/* out[i] = first·x^i, i < n. */
cuzk_status_t gpu_setup_powers(gpu_t *g, void *out, size_t n, const void *first, const void *x,
                               gpu_stream_t s);

/* Scratch bytes of gpu_setup_select over n flags. */
cuzk_status_t gpu_setup_select_bytes(gpu_t *g, size_t *bytes, size_t n);

/* The in[i] whose flags[i] is 1, in order, to out; *count (device memory)
 * = how many. pos: n words of scratch; scratch: select_bytes. */
cuzk_status_t gpu_setup_select(gpu_t *g, void *out, uint32_t *count, const void *in,
                               const uint32_t *flags, uint32_t *pos, size_t n, void *scratch,
                               size_t scratch_bytes, gpu_stream_t s);

/* bits = the bitmap of flags[0 .. n) (bit i of word i / 64), (n + 63) / 64
 * words. */
cuzk_status_t gpu_setup_bitmap(gpu_t *g, uint64_t *bits, const uint32_t *flags, size_t n,
                               gpu_stream_t s);

/* out[i] = k[i]·G, i < n, affine (infinity as (0, 0)), in G2 when g2 else
 * G1, with the fixed-base table of G (CUZK_GPU_FB_POINTS affine points, in
 * device memory). */
cuzk_status_t gpu_setup_fixed_base(gpu_t *g, void *out, const void *k, size_t n, const void *table,
                                   bool g2, gpu_stream_t s);

#ifdef __cplusplus
}
#endif

#endif
