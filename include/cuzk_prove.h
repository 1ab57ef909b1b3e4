/*
 * Proving one partition, synchronously, on the calling thread: on the CPU
 * (the process's thread pool, one thread a processor, or a prover's own
 * threads), or on a GPU through a prover (cuzk_prover_t) that holds the
 * key on the device. For many partitions, priorities, several GPUs and
 * memory budgets use the engine (cuzk_engine.h).
 *
 * r and s, the proof's blinding scalars, are drawn inside from the
 * operating system's generator (getrandom) for every proof. Unless the
 * options say otherwise, every proof is verified against the key before it
 * is returned: a proof that fails is CUZK_EWITNESS ("the witness does not
 * satisfy the circuit"), so a returned proof always verifies.
 *
 * Every function: CUZK_OK with *proof (and public_out, when not NULL,
 * filled with cuzk_key_public_inputs(key) canonical scalars: the public
 * inputs the proof is verified against, ONE excluded); on failure *proof
 * and public_out are unspecified and cuzk_last_error() says why. Several
 * threads may prove with one key (and one prover) at once.
 */
#ifndef CUZK_PROVE_H
#define CUZK_PROVE_H

#include "cuzk_base.h"
#include "cuzk_key.h"
#include "cuzk_proof.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of cuzk_prove_options_t. */
enum {
    CUZK_PROVE_NO_VERIFY = 1u << 0, /* skip the self-verification */
    /* INSECURE, FOR TESTS ONLY: r and s from a generator seeded with
     * test_seed, so that a proof is reproducible. Such proofs leak the
     * witness to anyone who knows the seed. */
    CUZK_PROVE_INSECURE_TEST_SEED = 1u << 1,
};

/* Where a prover runs a proof's stages synth, h and the five MSMs (the
 * assembly and the self-verification stay on the CPU). */
typedef enum cuzk_backend {
    CUZK_BACKEND_CPU = 0,
    /* The first GPU when this library was built with CUDA and the driver
     * shows a usable device, else the CPU (cuzk_prover_note says why).
     * The choice is by device, not by size: a prover is made to prove
     * many times, and a GPU's first use (its context and the key's
     * upload, some 0.85 s on an H200 host) is paid once, in
     * cuzk_prover_new, after which a 2^16-row proof takes milliseconds.
     * A program that proves once with a small key is faster on the CPU
     * and should ask for it: `cuzk prove` does, by the key's size. */
    CUZK_BACKEND_AUTO = 1,
    /* The first GPU; CUZK_EDEVICE when there is none or it cannot hold
     * what the key needs. */
    CUZK_BACKEND_CUDA = 2,
} cuzk_backend_t;

/*
 * A prover: where the proofs of one key run. On a GPU it holds the key's
 * query points on the device (resident when they fit, else in pinned or
 * mapped host memory, which the device reads over the bus) and its working
 * buffers from cuzk_prover_new to cuzk_prover_free, so that every proof
 * after the first costs only its own work. Several threads may prove
 * through one prover at once; on a GPU their proofs take turns.
 */
typedef struct cuzk_prover cuzk_prover_t;

/*
 * *prover for key on backend, with threads CPU threads (0: the process's
 * pool, one thread a processor; else a pool of its own). key must outlive
 * the prover. On a GPU this uploads the key (seconds for a large one).
 * CUZK_EINVAL (a NULL argument, an unknown backend, threads above 4096),
 * CUZK_EDEVICE (CUZK_BACKEND_CUDA without a usable GPU, or a device that
 * failed: the message says which call and why), CUZK_ENOMEM.
 */
CUZK_API cuzk_status_t cuzk_prover_new(cuzk_prover_t **prover, const cuzk_key_t *key,
                                       cuzk_backend_t backend, unsigned threads);

/* Releases the prover and what it holds on the device. NULL is fine. No
 * proof may be running through it. */
CUZK_API void cuzk_prover_free(cuzk_prover_t *prover);

/* Where the prover proves, in words, valid while it lives: "cpu", or
 * "cuda: NVIDIA H200, key device-resident" (the device and the key's tier:
 * device-, pinned- or mapped-resident). */
CUZK_API const char *cuzk_prover_backend(const cuzk_prover_t *prover);

/* Why a CUZK_BACKEND_AUTO prover proves on the CPU although the library has
 * GPU support ("no GPU is usable: ..."), valid while it lives; NULL when it
 * did not fall back (a library built without CUDA has nothing to fall back
 * from: cuzk_prover_backend says "cpu"). */
CUZK_API const char *cuzk_prover_note(const cuzk_prover_t *prover);

/* The seconds of each stage of one proof, written when the proof ends
 * (also on failure, with the stages that did not run at 0): synth, h and
 * msm (on a GPU the device's share is in synth, h and msm as the device
 * timed them), finish (r, s and the assembly) and verify (0 without the
 * self-verification). */
typedef struct cuzk_prove_timings {
    double synth, h, msm, finish, verify;
} cuzk_prove_timings_t;

/*
 * A proof's progress: called at each stage's start ("synth", "h", "msm",
 * "verify"; on a GPU "synth, h, msm" as one) and as its units are done
 * (synth: "coefficients" of the key, or the assignment's "constraints";
 * h: its six "transforms"; msm: query "points"), with unit "" for a stage
 * that is not counted, one call at a time, from the proving thread or one
 * of the pool's. It must return quickly and must not call cuzk functions
 * on the same proof.
 */
typedef void (*cuzk_progress_fn)(void *ctx, const char *stage, uint64_t done, uint64_t total,
                                 const char *unit);

/*
 * Options; NULL everywhere means the defaults (all zero). size must be
 * sizeof(cuzk_prove_options_t) as the caller was built with: later minor
 * versions add fields at the end, and a library reads only the size the
 * caller knows and takes the defaults for the rest (CUZK_EINVAL for a
 * size below the first version's, offsetof(cuzk_prove_options_t, prover)).
 */
typedef struct cuzk_prove_options {
    size_t size;
    unsigned flags;     /* CUZK_PROVE_* */
    uint64_t test_seed; /* with CUZK_PROVE_INSECURE_TEST_SEED only */
    /* NULL: the CPU on the process's pool; else where the proof runs (a
     * prover made for this key: CUZK_EINVAL otherwise). */
    const cuzk_prover_t *prover;
    cuzk_prove_timings_t *timings; /* NULL: not wanted */
    cuzk_progress_fn progress;     /* NULL: none */
    void *progress_ctx;
} cuzk_prove_options_t;

/*
 * A proof for the snarkjs witness file (.wtns) whose len bytes are at wtns
 * (read during the call only) under the snarkjs key key. The witness is
 * checked as the .wtns reader does (CUZK_EBADFILE for a truncated or
 * damaged file, CUZK_EWITNESS when w[0] is not 1) and against the key:
 * curve and length (CUZK_EINVAL, naming both numbers). A bellperson key is
 * CUZK_EINVAL: it proves assignments.
 */
CUZK_API cuzk_status_t cuzk_prove_wtns(cuzk_proof_t *proof, cuzk_scalar_t *public_out,
                                       const cuzk_key_t *key, const void *wtns, size_t len,
                                       const cuzk_prove_options_t *opts);

/* How the values of a witness vector are written. */
typedef enum cuzk_scalar_form {
    CUZK_FORM_CANONICAL = 0,  /* plain values below r: converted into a copy */
    CUZK_FORM_MONTGOMERY = 1, /* value·2^256 mod r, below r: used where they lie */
} cuzk_scalar_form_t;

/*
 * A proof for the witness w of n values (every wire, ONE first: n =
 * cuzk_key_wires(key), w[0] = 1) over curve, in form, under the snarkjs key
 * key. w is read during the call only and never written. Checked: curve and
 * n against the key (CUZK_EINVAL), every value below r (CUZK_ENONCANONICAL,
 * naming the index), w[0] = 1 (CUZK_EWITNESS).
 */
CUZK_API cuzk_status_t cuzk_prove_witness(cuzk_proof_t *proof, cuzk_scalar_t *public_out,
                                          const cuzk_key_t *key, cuzk_curve_t curve,
                                          const cuzk_scalar_t *w, size_t n, cuzk_scalar_form_t form,
                                          const cuzk_prove_options_t *opts);

/*
 * A bellperson-style assignment of one partition (docs/ASSIGNMENT.md), the
 * layout of an .asgn file in memory: the evaluations a, b, c of every
 * constraint row (the circuit's rows, then one row x_i·0 = 0 per input;
 * n_constraints of each), the input assignment (n_inputs values, ONE
 * first) and the aux assignment (n_aux values), all canonical scalars
 * below r; and three density bitmaps of 64-bit words, least significant
 * bit first (bit i = word[i / 64] >> (i % 64) & 1, the bits at and above
 * the count zero): a_aux_density (n_aux bits: aux variable i appears in A),
 * b_input_density (n_inputs bits), b_aux_density (n_aux bits). Every
 * pointer may be NULL only when its count is zero.
 */
typedef struct cuzk_assignment {
    cuzk_curve_t curve;
    uint64_t n_constraints, n_inputs, n_aux;
    const cuzk_scalar_t *a, *b, *c;
    const cuzk_scalar_t *inputs, *aux;
    const uint64_t *a_aux_density, *b_input_density, *b_aux_density;
} cuzk_assignment_t;

/*
 * A proof for the assignment asg under the bellperson key key. The arrays
 * are used where they lie (no copy) and read during the call only. Checked:
 * the counts against each other (n_inputs >= 1, n_constraints >= n_inputs)
 * and the key (CUZK_EINVAL, naming both numbers), every value below r
 * (CUZK_ENONCANONICAL, naming the array and index), inputs[0] = 1 and no
 * bitmap bit above its count (CUZK_EINVAL); that the values satisfy the
 * circuit only by the self-verification. public_out gets inputs[1 ..].
 */
CUZK_API cuzk_status_t cuzk_prove_assignment(cuzk_proof_t *proof, cuzk_scalar_t *public_out,
                                             const cuzk_key_t *key, const cuzk_assignment_t *asg,
                                             const cuzk_prove_options_t *opts);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_PROVE_H */
