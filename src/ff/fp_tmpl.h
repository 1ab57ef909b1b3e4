/*
 * Prime-field arithmetic in Montgomery form on 64-bit limbs: the template.
 *
 * This header is instantiated once per field (see bls381_fp.h, bls381_fr.h,
 * bn254_fp.h, bn254_fr.h); it is not included directly. The including header
 * defines:
 *
 *   FP_NAME       the prefix of every generated name (e.g. bls381_fp)
 *   FP_LIMBS      the number of 64-bit limbs N (4 or 6)
 *   FP_MODULUS    p as N limbs, least significant first
 *   FP_INV        -p^-1 mod 2^64
 *   FP_ONE_MONT   R mod p, R = 2^(64N): the Montgomery form of 1
 *   FP_R2         R^2 mod p: turns a canonical value into Montgomery form
 *   FP_BITS       the bit length of p
 *   FP_NONRESIDUE a small quadratic non-residue (Tonelli-Shanks and tests)
 *
 * Representation (the contract of every function below):
 *  - A value `NAME_t x` holds x·R mod p, fully reduced (< p), limbs least
 *    significant first. These are the bytes the GPU and the snarkjs files use.
 *  - Every function accepts outputs that alias inputs.
 *  - Functions are constant-time in their field-element arguments unless
 *    their name ends in _vartime.
 *  - All four supported moduli leave the top bit of the top limb clear
 *    (p < 2^(64N-1)); the addition and multiplication below rely on it.
 *
 * The hot operations are static inline so that towers and curve formulas
 * inline them; the rest live in fp_tmpl_impl.h, compiled once per field.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "ff/fp_mul.h"
#include "util/rng.h"

#include "ff/fp_tmpl_names.h"

typedef struct {
    uint64_t l[FP_LIMBS];
} FPT;

static const uint64_t FPN(MODULUS)[FP_LIMBS] = FP_MODULUS;
static const FPT FPN(ONE) = {{FP_ONE_MONT}};
static const FPT FPN(R2) = {{FP_R2}};

/* ---- constant-time building blocks ---------------------------------- */

static inline void FPN(set_zero)(FPT *r)
{
    for (int i = 0; i < FP_LIMBS; i++)
        r->l[i] = 0;
}

static inline void FPN(set_one)(FPT *r)
{
    *r = FPN(ONE);
}

static inline bool FPN(is_zero)(const FPT *a)
{
    uint64_t acc = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        acc |= a->l[i];
    return acc == 0;
}

static inline bool FPN(equal)(const FPT *a, const FPT *b)
{
    uint64_t acc = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}

static inline bool FPN(is_one)(const FPT *a)
{
    return FPN(equal)(a, &FPN(ONE));
}

/* r = cond ? a : r, without a branch on cond. */
static inline void FPN(cmov)(FPT *r, const FPT *a, bool cond)
{
    uint64_t mask = (uint64_t)0 - (uint64_t)cond;
    for (int i = 0; i < FP_LIMBS; i++)
        r->l[i] ^= mask & (r->l[i] ^ a->l[i]);
}

/*
 * The additive operations below use fp_adc/fp_sbb (fp_mul.h): 64-bit adds
 * with carries (ADC/SBB on x86-64). The unsigned __int128 form they replace
 * made gcc 12 -O3 widen every addend to 128 bits: 6-limb add took 27 ns.
 * The final correction is a select between two candidates computed without
 * waiting for the last carry (fp_select), not a third carry chain that
 * starts after it: a dependent a = a + b loop of BLS12-381 Fp went from 4.5
 * to 2.3 ns, a = a - b from 4.3 to 2.5 ns (dev-epyc2, -O3); the kernels,
 * which overlap most of that latency with multiplications, gained 1-4 %
 * (docs/PERFORMANCE.md).
 */

/* r = t - p when t >= p, else t; t < 2p. */
static inline void FPN(reduce_once_)(uint64_t r[FP_LIMBS], const uint64_t t[FP_LIMBS])
{
    uint64_t d[FP_LIMBS];
    uint64_t borrow = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        d[i] = fp_sbb(t[i], FPN(MODULUS)[i], &borrow);
    uint64_t mask = (uint64_t)0 - borrow; /* all ones: t < p, keep t */
    for (int i = 0; i < FP_LIMBS; i++)
        r[i] = fp_select(mask, t[i], d[i]);
}

/* r = a + b. p < 2^(64N-1) so a + b never overflows N limbs. */
static inline void FPN(add)(FPT *r, const FPT *a, const FPT *b)
{
    uint64_t t[FP_LIMBS];
    uint64_t carry = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        t[i] = fp_adc(a->l[i], b->l[i], &carry);
    FPN(reduce_once_)(r->l, t);
}

static inline void FPN(dbl)(FPT *r, const FPT *a)
{
    FPN(add)(r, a, a);
}

/* r = a - b: t = a - b, and t + p where that borrowed. */
static inline void FPN(sub)(FPT *r, const FPT *a, const FPT *b)
{
    uint64_t t[FP_LIMBS], u[FP_LIMBS];
    uint64_t borrow = 0, carry = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        t[i] = fp_sbb(a->l[i], b->l[i], &borrow);
    for (int i = 0; i < FP_LIMBS; i++)
        u[i] = fp_adc(t[i], FPN(MODULUS)[i], &carry);
    uint64_t mask = (uint64_t)0 - borrow; /* all ones: a < b, take t + p */
    for (int i = 0; i < FP_LIMBS; i++)
        r->l[i] = fp_select(mask, u[i], t[i]);
}

/* r = -a (zero stays zero). */
static inline void FPN(neg)(FPT *r, const FPT *a)
{
    uint64_t nz = (uint64_t)0 - (uint64_t)!FPN(is_zero)(a);
    uint64_t borrow = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        r->l[i] = fp_sbb(FPN(MODULUS)[i] & nz, a->l[i], &borrow);
}

/* r = a / 2: add p when a is odd (a + p < 2^(64N)), then shift right. */
static inline void FPN(half)(FPT *r, const FPT *a)
{
    uint64_t mask = (uint64_t)0 - (a->l[0] & 1);
    uint64_t t[FP_LIMBS];
    uint64_t carry = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        t[i] = fp_adc(a->l[i], FPN(MODULUS)[i] & mask, &carry);
    for (int i = 0; i < FP_LIMBS - 1; i++)
        r->l[i] = (t[i] >> 1) | (t[i + 1] << 63);
    r->l[FP_LIMBS - 1] = t[FP_LIMBS - 1] >> 1;
}

/*
 * r = a·b·R^-1 mod p. Dispatches to the MULX/ADX kernel when the processor
 * has it (decided once at start-up), else to portable CIOS (fp_mul.h).
 */
static inline void FPN(mul)(FPT *r, const FPT *a, const FPT *b)
{
    FP_KERNEL(fp_mont_mul, FP_LIMBS)(r->l, a->l, b->l, FPN(MODULUS), FP_INV);
}

static inline void FPN(sqr)(FPT *r, const FPT *a)
{
    FP_KERNEL(fp_mont_sqr, FP_LIMBS)(r->l, a->l, FPN(MODULUS), FP_INV);
}

/* ---- out of line (fp_tmpl_impl.h) ----------------------------------- */

/* r = v (a small integer) in Montgomery form. */
void FPN(from_u64)(FPT *r, uint64_t v);

/*
 * r = a^e, e given as n limbs least significant first. The running time
 * depends on e (treat e as public) and never on a.
 */
void FPN(pow)(FPT *r, const FPT *a, const uint64_t *e, size_t n);

/* r = a^-1 by Fermat (a^(p-2)): constant-time; the inverse of 0 is 0. */
void FPN(inv)(FPT *r, const FPT *a);

/* r = a^-1 by a binary GCD on 64-bit approximations (Pornin 2020):
 * variable-time, for public values only; the inverse of 0 is 0. */
void FPN(inv_vartime)(FPT *r, const FPT *a);

/* Inverts n elements in place with one inversion (Montgomery's trick);
 * zeros stay zero. scratch holds n elements. Variable-time. */
void FPNS(inv_vartime)(FPT *a, FPT *scratch, size_t n);

/* r[i] = a[i]·b[i] for i < n (r may be a or b): eight independent
 * products at a time with AVX-512 IFMA where the processor has it
 * (fp_ifma.h), the rest one by one; the same bytes either way. */
void FPNS(mul)(FPT *r, const FPT *a, const FPT *b, size_t n);

/* The Legendre symbol: 1 for a non-zero square, -1 for a non-square, 0 for 0. */
int FPN(legendre)(const FPT *a);

/*
 * r = a square root of a, and true; false (r untouched) when a is not a
 * square. Which of the two roots comes back is unspecified. Variable-time
 * where p = 1 mod 4 (Tonelli-Shanks).
 */
bool FPN(sqrt_vartime)(FPT *r, const FPT *a);

/* Canonical (non-Montgomery) limbs <-> Montgomery form. from_canonical
 * returns false, r untouched, when the value is not below p. */
bool FPN(from_canonical)(FPT *r, const uint64_t v[FP_LIMBS]);
void FPN(to_canonical)(uint64_t v[FP_LIMBS], const FPT *a);

/*
 * Canonical integers as exactly len bytes (little- or big-endian); len may
 * exceed 8N only with zero high bytes. Return CUZK_EENCODING for a length
 * that cannot hold p, CUZK_ENONCANONICAL for a value >= p.
 */
cuzk_status_t FPN(from_bytes_le)(FPT *r, const unsigned char *in, size_t len);
cuzk_status_t FPN(from_bytes_be)(FPT *r, const unsigned char *in, size_t len);
/* Writes the canonical value as exactly 8N bytes. */
void FPN(to_bytes_le)(unsigned char *out, const FPT *a);
void FPN(to_bytes_be)(unsigned char *out, const FPT *a);

/*
 * Decimal strings: digits only, no sign, no spaces, leading zeros allowed,
 * at least one digit. CUZK_EENCODING for anything else, CUZK_ENONCANONICAL
 * for a value >= p.
 */
cuzk_status_t FPN(from_dec)(FPT *r, const char *s);
/* Writes the canonical value in decimal, NUL-terminated; out holds at least
 * NAME_DEC_MAX bytes. Returns the string length. */
enum { FPN(DEC_MAX) = FP_LIMBS * 20 + 1 };
size_t FPN(to_dec)(char *out, const FPT *a);

/* A uniformly random element, by rejection sampling (rng NULL: getrandom). */
cuzk_status_t FPN(random)(FPT *r, rng_t *rng);

/*
 * The 2-adicity s of p - 1 (p - 1 = t·2^s, t odd) and a primitive 2^k-th root
 * of unity built from the generator g: g^((p-1)/2^k). g must be a quadratic
 * non-residue for the root to be primitive; k <= s.
 */
unsigned FPN(two_adicity)(void);
void FPN(root_of_unity)(FPT *r, unsigned k, uint64_t g);
