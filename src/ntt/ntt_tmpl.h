/*
 * Number-theoretic transforms over a scalar field Fr: the template.
 *
 * This header is instantiated once per curve (bls381_ntt.h, bn254_ntt.h);
 * it is not included directly. The including header first includes the
 * field's header and defines:
 *
 *   NTT_NAME   the curve prefix (bls381): names become NAME_ntt_op
 *   NTT_FIELD  the field prefix (bls381_fr): the element type FIELD_t
 *
 * Conventions (the contract of every function below):
 *  - Vectors hold n = 2^log2n elements of FIELD_t in Montgomery form and are
 *    transformed in place; the caller owns them. Distinct vector arguments
 *    must not overlap.
 *  - ω is the domain's primitive n-th root of unity, g^((r-1)/n) for the
 *    generator g given to NAME_ntt_domain_new. "Natural order" means index i
 *    holds coefficient i, or the evaluation at ω^i; "bit-reversed order"
 *    means index i holds what natural order keeps at rev(i), the log2n-bit
 *    reversal of i (reverse_bits).
 *  - pool may be NULL (everything runs on the caller). The result never
 *    depends on the pool or its number of threads. One call at a time per
 *    pool (util/pool.h); the domain is read-only, so any number of threads
 *    may share it, each with its own pool.
 *  - Everything is variable-time in public data only: no branch or address
 *    depends on a vector's values, so no _vartime suffix.
 *
 * The transforms, with a the vector on input and a' on output:
 *   forward          natural → natural   a'_j = Σ_i a_i ω^(ij)
 *   inverse          natural → natural   a'_i = (1/n) Σ_j a_j ω^(-ij)
 *   coset_forward    natural → natural   a'_j = Σ_i a_i c^i ω^(ij) = A(c·ω^j)
 *   coset_inverse    natural → natural   a'_i = c^(-i) (1/n) Σ_j a_j ω^(-ij)
 *   dif              natural → bit-reversed, either direction, no 1/n
 *   dit              bit-reversed → natural, either direction, no 1/n
 *   evals_to_coset   natural → natural   A(ω^j) ↦ A(c·ω^j), deg A < n
 * forward = dif then bit_reverse. Chains that go back and forth use dif for
 * the first transform and dit for the second, and never permute:
 * evals_to_coset is dif(INVERSE), multiply position p by c^rev(p)/n, dit.
 *
 * Cost: a transform does (n/2)·log2n butterflies of one multiplication
 * each; the powers of a coset shift cost two multiplications per element;
 * bit_reverse is one pass of swaps.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "ntt/ntt_common.h"
#include "util/pool.h"
#include "util/progress.h"

#include "ntt/ntt_tmpl_names.h"

/*
 * An evaluation domain ⟨ω⟩ of size n = 2^log2n with its twiddle factors.
 * The fields are read-only after NAME_ntt_domain_new; the tables belong to
 * the domain. Memory: 16·n + 32 bytes (tw) plus 64·min(n, 2^CUZK_NTT_BLOCK_LOG)
 * bytes (tws, tws_inv; 256 KiB at most).
 */
typedef struct NTN(domain) {
    unsigned log2n;
    size_t n;
    uint64_t gen;   /* the generator g that ω was built from */
    NTFT omega;     /* ω, of multiplicative order exactly n */
    NTFT omega_inv; /* ω^-1 */
    NTFT n_inv;     /* 1/n */
    NTFT *tw;       /* tw[j] = ω^j for j = 0 .. n/2 (n/2 + 1 entries; NULL when n = 1) */
    NTFT *tws;      /* tws[h + j] = ω_2h^j = ω^(j·n/2h) for h = 1, 2, 4, .. < m, j < h, */
    NTFT *tws_inv;  /* tws_inv[h + j] = ω_2h^-j; m = min(n, 2^CUZK_NTT_BLOCK_LOG) entries */
} NTD;

/*
 * A domain of size 2^log2n from the generator g (snarkjs: 5 on both curves;
 * bellperson: 7 on BLS12-381; FORMATS.md §1). Fails with CUZK_EINVAL when
 * log2n exceeds the field's 2-adicity or g is not a quadratic non-residue
 * (then ω would not have order n), CUZK_ENOMEM when the tables cannot be
 * allocated; then it returns NULL. *st (when st is non-NULL) receives the
 * status. Building the twiddles costs n/2 multiplications on the caller.
 */
NTD *NTN(domain_new)(unsigned log2n, uint64_t g, cuzk_status_t *st);

/* Frees the domain and its tables; NULL is a no-op. */
void NTN(domain_free)(NTD *d);

/* Natural order in and out, a'_j = A(ω^j) for the coefficients a. */
void NTN(forward)(const NTD *d, NTFT *a, pool_t *pool);

/* Natural order in and out: evaluations at ω^j → coefficients (with 1/n). */
void NTN(inverse)(const NTD *d, NTFT *a, pool_t *pool);

/* Coefficient i multiplied by c^i, then forward: a'_j = A(c·ω^j). */
void NTN(coset_forward)(const NTD *d, NTFT *a, const NTFT *c, pool_t *pool);

/* inverse, then coefficient i multiplied by c^-i: undoes coset_forward.
 * c must be non-zero. */
void NTN(coset_inverse)(const NTD *d, NTFT *a, const NTFT *c, pool_t *pool);

/* Decimation in frequency (Gentleman-Sande butterflies x + y, (x - y)·w):
 * natural order in, bit-reversed order out; no 1/n. */
void NTN(dif)(const NTD *d, NTFT *a, ntt_dir_t dir, pool_t *pool);

/* Decimation in time (Cooley-Tukey butterflies x ± w·y): bit-reversed order
 * in, natural order out; no 1/n. */
void NTN(dit)(const NTD *d, NTFT *a, ntt_dir_t dir, pool_t *pool);

/* Swaps a_i and a_rev(i): natural ↔ bit-reversed order. */
void NTN(bit_reverse)(const NTD *d, NTFT *a, pool_t *pool);

/*
 * Evaluations of a polynomial A of degree < n at ω^j (natural order) become
 * its evaluations at c·ω^j (natural order): an inverse and a forward
 * transform with the shift in between, without a permutation.
 */
void NTN(evals_to_coset)(const NTD *d, NTFT *a, const NTFT *c, pool_t *pool);

/*
 * The H scalars of the snarkjs prover (FORMATS.md §7, steps 2-3).
 * In: a, b, c = the evaluations A(ω^j), B(ω^j), C(ω^j), natural order, of
 * the row vectors A·w, B·w, C·w (A, B, C = their interpolants, deg < n);
 * shift = ω_2n, a primitive 2n-th root with ω_2n² = ω (snarkjs: w[k+1] from
 * g = 5; when log2n is the 2-adicity snarkjs uses Fr.shift = 25 instead,
 * FORMATS.md §1).
 * Out: a_j = H_j = A(s_j)·B(s_j) - C(s_j) with s_j = shift·ω^j (the odd
 * powers ω_2n^(2j+1)); b and c are overwritten with B(s_j) and C(s_j).
 * Cost: 3 inverse + 3 forward transforms; progress (NULL: none) is
 * advanced by one as each ends.
 */
void NTN(h_snarkjs)(const NTD *d, NTFT *a, NTFT *b, NTFT *c, const NTFT *shift, pool_t *pool,
                    progress_t *progress);

/*
 * The H scalars of the bellperson/supraseal prover (FORMATS.md §8.3).
 * In: a, b, c as for h_snarkjs (zero-padded to n); g = the coset generator
 * (7 in bellperson), with g^n ≠ 1 so that the coset g·⟨ω⟩ misses the domain.
 * Out: a = the coefficients h_0 .. h_(n-1), natural order, of
 * h = (A·B - C)/Z with Z = x^n - 1. The division is exact iff A·B - C
 * vanishes on ⟨ω⟩ (the witness satisfies the rows), and then h_(n-1) = 0;
 * otherwise a holds the coefficients of the polynomial of degree < n that
 * agrees with (A·B - C)/Z on the coset. b is overwritten with B(g·ω^j), c
 * with n·C_rev(p) at p (C's coefficients, bit-reversed, times n).
 * Cost: 2 inverse + 2 coset forward + 1 coset inverse transforms and one
 * inverse transform of c: C has degree < n, so the coset inverse of
 * (A·B - C)(g·ω^j) is that of A·B less C's coefficients, and C need not go
 * to the coset and back (bellperson's 7 transforms). The division is
 * folded into the final powers of g^-1. progress (NULL: none) is advanced
 * by one as each of the six transforms ends.
 */
void NTN(h_bellperson)(const NTD *d, NTFT *a, NTFT *b, NTFT *c, const NTFT *g, pool_t *pool,
                       progress_t *progress);
