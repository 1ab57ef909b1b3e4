/*
 * Proving one partition, synchronously, on the CPU, on the calling thread
 * and the process's thread pool (one thread a processor). For many
 * partitions, priorities, GPUs and memory budgets use the engine
 * (cuzk_engine.h).
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
 * threads may prove with one key at once.
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

/*
 * Options; NULL everywhere means the defaults (all zero). size must be
 * sizeof(cuzk_prove_options_t) as the caller was built with: later minor
 * versions add fields at the end, and a library reads only the size the
 * caller knows (CUZK_EINVAL for a size below the first version's).
 */
typedef struct cuzk_prove_options {
    size_t size;
    unsigned flags;     /* CUZK_PROVE_* */
    uint64_t test_seed; /* with CUZK_PROVE_INSECURE_TEST_SEED only */
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
