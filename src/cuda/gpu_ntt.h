/*
 * Number-theoretic transforms over Fr on the GPU: the twin of
 * src/ntt/ntt_tmpl.h, with its conventions (natural / bit-reversed order,
 * ω of order exactly n, no 1/n in dif) and the same results byte for byte.
 *
 * Contract:
 *  - Vectors are n = 2^log2n Fr elements (Montgomery form, the CPU's bytes)
 *    in device memory, transformed in place on the caller's stream; every
 *    call only queues work and returns.
 *  - Field constants given by host pointer (ω, 1/n, c) are one Fr element
 *    each, Montgomery form, read before the call returns.
 *  - A domain belongs to one device; its tables are read-only after
 *    gpu_ntt_domain_new, except the coset tables (below), so transforms
 *    on one domain must be ordered (one stream, or events) when any of them
 *    is a coset transform.
 */
#ifndef CUZK_CUDA_GPU_NTT_H
#define CUZK_CUDA_GPU_NTT_H

#include "cuda/gpu.h"
#include "ntt/ntt_common.h"

typedef enum gpu_curve { CUZK_GPU_BLS381 = 0, CUZK_GPU_BN254 = 1 } gpu_curve_t;

typedef struct gpu_ntt_domain gpu_ntt_domain_t;

/*
 * The domain of size 2^log2n whose root is omega, with omega_inv = ω^-1 and
 * n_inv = 1/n: a CPU domain's omega, omega_inv and n_inv (NAME_ntt_domain_new
 * checks them). Builds the twiddles on the device, on stream s: 32·(n/2 +
 * 1) bytes for tw, about 32·n/4 for the wide stages' own tables (from
 * 2^13), 64·min(n, 1024) for the block stages, and 32·(1024 + n/1024) for
 * the coset tables; gpu_ntt_domain_bytes says how much. log2n <= 32.
 */
cuzk_status_t gpu_ntt_domain_new(gpu_ntt_domain_t **d, gpu_t *g, gpu_curve_t curve, unsigned log2n,
                                 const void *omega, const void *omega_inv, const void *n_inv,
                                 gpu_stream_t s);
/* NULL is a no-op; the caller makes sure no transform is in flight. */
void gpu_ntt_domain_free(gpu_ntt_domain_t *d);
/* The device memory the domain holds. */
size_t gpu_ntt_domain_bytes(const gpu_ntt_domain_t *d);

/* Decimation in frequency: natural order in, bit-reversed out, no 1/n. */
cuzk_status_t gpu_ntt_dif(gpu_ntt_domain_t *d, void *a, ntt_dir_t dir, gpu_stream_t s);
/* a_i ↔ a_rev(i). */
cuzk_status_t gpu_ntt_bit_reverse(gpu_ntt_domain_t *d, void *a, gpu_stream_t s);

/* Natural order in and out, as NAME_forward, NAME_inverse (with 1/n),
 * NAME_coset_forward and NAME_coset_inverse (c non-zero). */
cuzk_status_t gpu_ntt_forward(gpu_ntt_domain_t *d, void *a, gpu_stream_t s);
cuzk_status_t gpu_ntt_inverse(gpu_ntt_domain_t *d, void *a, gpu_stream_t s);
cuzk_status_t gpu_ntt_coset_forward(gpu_ntt_domain_t *d, void *a, const void *c, gpu_stream_t s);
cuzk_status_t gpu_ntt_coset_inverse(gpu_ntt_domain_t *d, void *a, const void *c, gpu_stream_t s);

/*
 * Natural evaluations at ω^j → natural evaluations at c·ω^j, as
 * NAME_evals_to_coset (an inverse dif, the powers of c and 1/n at the
 * bit-reversed positions, a dit: no bit reversal).
 */
cuzk_status_t gpu_ntt_evals_to_coset(gpu_ntt_domain_t *d, void *a, const void *c, gpu_stream_t s);

/*
 * The H chains, as NAME_h_snarkjs and NAME_h_bellperson: in, a, b, c = the
 * natural evaluations of A·w, B·w, C·w on ⟨ω⟩ (n elements each, device
 * memory); out, a, b and c hold the same bytes as the CPU's (for snarkjs b
 * and c = B and C on the coset in natural order; for bellperson b = B there
 * and c = n·C_rev(p) at p). shift / g: one Fr element in host memory. For
 * bellperson g^n ≠ 1 (the CPU asserts it; here g^n = 1 gives zeros).
 * Passes, snarkjs: three times evals_to_coset's (inverse dif, powers, dit)
 * and one a·b − c; bellperson: two evals_to_coset, one a·b, inverse difs of
 * a·b and of c, and a permutation that scales by g^-i/(n·Z) and subtracts
 * C's coefficients over n·Z. bellperson's g^-1 and 1/(g^n − 1)/n (two
 * one-thread inversions) are made on the domain's first call with a given g
 * and kept for the next ones, which read them in stream order.
 */
cuzk_status_t gpu_ntt_h_snarkjs(gpu_ntt_domain_t *d, void *a, void *b, void *c, const void *shift,
                                gpu_stream_t s);
cuzk_status_t gpu_ntt_h_bellperson(gpu_ntt_domain_t *d, void *a, void *b, void *c, const void *g,
                                   gpu_stream_t s);

#endif
