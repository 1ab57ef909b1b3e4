/*
 * supraseal-c2's C ABI, served by the engine: the functions and structs
 * through which bellperson (its cuda-supraseal feature), rust-fil-proofs,
 * filecoin-ffi and Curio hand a prover the circuits they synthesized
 * (docs/FILECOIN.md). libcuzk_supraseal.so exports exactly these names, in
 * two builds, because the two variants of the ABI give
 * generate_groth16_proofs_c different parameters:
 *
 *   - libcuzk_supraseal.so: upstream supraseal-c2, as filecoin-ffi pins it;
 *   - libcuzk_supraseal_curio.so (CUZK_SUPRASEAL_CURIO): Curio's fork, with
 *     a caller's GPU mutex and GPU index on every call and the split form
 *     start / finalize / destroy_pending_proof.
 *
 * Scalars (supraseal_fr_t: a, b, c, the assignments, r and s) are BLS12-381
 * Fr elements in Montgomery form, R = 2^256 mod r (blst's blst_fr, what
 * blstrs' Scalar holds), each below r. Proofs leave as blst's affine points
 * (x then y, Montgomery form with R = 2^384; an Fp2 is c0 then c1; the
 * point at infinity has every coordinate zero).
 *
 * Errors. Every function that can fail returns a supraseal_error_t: code 0
 * and no message on success, else a cuzk_status_t value (never 0) and a
 * one-line message allocated with malloc, which the caller frees (the Rust
 * crate does so when it drops the error).
 *
 * Threads. Every function may be called from any thread, several at once;
 * each call is one job of one process-wide engine, made on the first
 * create_SRS: the CUDA backend when the build has it and a device is
 * there, else the CPU. The engine schedules the devices itself, so calls
 * need no lock of their own; the Curio variant's gpu_mtx is accepted and
 * not taken (a call waits for nothing but the engine's queue).
 */
#ifndef CUZK_SUPRASEAL_SUPRASEAL_H
#define CUZK_SUPRASEAL_SUPRASEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SUPRASEAL_API __attribute__((visibility("default")))

/* An Fr element, Montgomery form, four little-endian 64-bit limbs. */
typedef struct supraseal_fr {
    uint64_t l[4];
} supraseal_fr_t;

/* One circuit (partition) as bellperson's ProvingAssignment holds it: 136
 * bytes, the layout of the crate's #[repr(C)] Assignment. Bitmaps are LSB
 * first, variable i in bit i % 64 of word i / 64. */
typedef struct supraseal_assignment {
    const uint64_t *a_aux_density; /* aux variable j has a point in the A query */
    size_t a_aux_bit_len;          /* = aux_assignment_size */
    size_t a_aux_popcount;         /* bits set in a_aux_density */
    const uint64_t *b_inp_density; /* input i has a point in the B queries */
    size_t b_inp_bit_len;          /* = inp_assignment_size */
    size_t b_inp_popcount;
    const uint64_t *b_aux_density; /* aux variable j has a point in the B queries */
    size_t b_aux_bit_len;          /* = aux_assignment_size */
    size_t b_aux_popcount;
    const supraseal_fr_t *a, *b, *c;           /* (A·w), (B·w), (C·w) of every row */
    size_t abc_size;                           /* rows: constraints, then one per input */
    const supraseal_fr_t *inp_assignment_data; /* public values, the constant one first */
    size_t inp_assignment_size;
    const supraseal_fr_t *aux_assignment_data; /* private values */
    size_t aux_assignment_size;
} supraseal_assignment_t;

/* A proof: blst_p1_affine A, blst_p2_affine B, blst_p1_affine C (384 bytes). */
typedef struct supraseal_proof {
    uint64_t a[2][6];
    uint64_t b[2][2][6];
    uint64_t c[2][6];
} supraseal_proof_t;

/* sppark's RustError, returned by value: code 0 is success. */
typedef struct supraseal_error {
    int32_t code;
    char *message; /* NULL, or malloc'd: the caller frees it */
} supraseal_error_t;

/* A handle to loaded parameters (reference counted). */
typedef struct supraseal_srs {
    void *ptr;
} supraseal_srs_t;

/*
 * Loads the bellperson .params file at path into *ret (the parameters of
 * every circuit proven with it). One engine key serves every handle of a
 * path; with cache, the library keeps that key after the last handle is
 * dropped, until evict_SRS. The file is read before the call returns (the
 * error names it when it is not a params file). *ret is NULL on failure.
 */
SUPRASEAL_API supraseal_error_t create_SRS(supraseal_srs_t *ret, const char *path, bool cache);
/* Forgets the cached key of h's path (handles keep theirs). */
SUPRASEAL_API void evict_SRS(const supraseal_srs_t *h);
/* Releases one reference (NULL handles: nothing). */
SUPRASEAL_API void drop_SRS(const supraseal_srs_t *h);
/* A new reference to h's parameters. */
SUPRASEAL_API supraseal_srs_t clone_SRS(const supraseal_srs_t *h);

#ifdef CUZK_SUPRASEAL_CURIO
/*
 * Proves num_circuits circuits (provers[i], blinding r_s[i], s_s[i]) into
 * proofs[i]. gpu_mtx: a caller's mutex (create_gpu_mutex) or NULL, not
 * taken; gpu_index: -1 (the engine picks) or a device the engine drives.
 */
SUPRASEAL_API supraseal_error_t generate_groth16_proofs_c(
    const supraseal_assignment_t *provers, size_t num_circuits, const supraseal_fr_t *r_s,
    const supraseal_fr_t *s_s, supraseal_proof_t *proofs, const supraseal_srs_t *srs, void *gpu_mtx,
    int32_t gpu_index);
/*
 * The same split in two: start checks and takes over the circuits and
 * queues them; *pending_out is the handle, NULL on failure. a, b and c are
 * not read after start returns (the ABI lets them go back to the caller
 * then): it returns once a device has taken every circuit's (on the CPU
 * backend, once the proofs are done). inputs and aux are read where they
 * lie until finalize; the bitmaps are copied.
 */
SUPRASEAL_API supraseal_error_t generate_groth16_proofs_start_c(
    const supraseal_assignment_t *provers, size_t num_circuits, const supraseal_fr_t *r_s,
    const supraseal_fr_t *s_s, const supraseal_srs_t *srs, void *gpu_mtx, int32_t gpu_index,
    void **pending_out);
/* Waits for the proofs of pending, writes them, and frees pending (also on
 * failure). */
SUPRASEAL_API supraseal_error_t finalize_groth16_proof_c(void *pending, supraseal_proof_t *proofs);
/* Cancels pending's circuits and frees it (NULL: nothing). */
SUPRASEAL_API void destroy_pending_proof(void *pending);
/* A mutex for callers that share one between their workers of a GPU. */
SUPRASEAL_API void *create_gpu_mutex(void);
SUPRASEAL_API void destroy_gpu_mutex(void *mtx);
#else
/* Proves num_circuits circuits (provers[i], blinding r_s[i], s_s[i]) into
 * proofs[i]. */
SUPRASEAL_API supraseal_error_t generate_groth16_proofs_c(
    const supraseal_assignment_t *provers, size_t num_circuits, const supraseal_fr_t *r_s,
    const supraseal_fr_t *s_s, supraseal_proof_t *proofs, const supraseal_srs_t *srs);
#endif

#ifdef __cplusplus
}
#endif

#endif
