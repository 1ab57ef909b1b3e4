/*
 * The cubic extension Fp6 = Fp2[v]/(v^3 - xi): the template.
 *
 * Instantiated once per curve (bls381_fp6.h, bn254_fp6.h) after the curve's
 * Fp2 header and tower parameters; xi = TW_XI_A + u. NAME_t {c0, c1, c2} holds
 * c0 + c1·v + c2·v^2. Every function accepts outputs that alias inputs and is
 * constant-time unless its name ends in _vartime.
 *
 * Operation counts: M2, S2 = Fp2 multiplication and squaring, A2 = Fp2
 * addition or subtraction; multiplications by xi cost only additions.
 */

#include "ff/tower_names.h"

typedef struct {
    F2T c0, c1, c2;
} F6T;

static inline void F6(set_zero)(F6T *r)
{
    F2(set_zero)(&r->c0);
    F2(set_zero)(&r->c1);
    F2(set_zero)(&r->c2);
}

static inline void F6(set_one)(F6T *r)
{
    F2(set_one)(&r->c0);
    F2(set_zero)(&r->c1);
    F2(set_zero)(&r->c2);
}

static inline bool F6(is_zero)(const F6T *a)
{
    return F2(is_zero)(&a->c0) & F2(is_zero)(&a->c1) & F2(is_zero)(&a->c2);
}

static inline bool F6(equal)(const F6T *a, const F6T *b)
{
    return F2(equal)(&a->c0, &b->c0) & F2(equal)(&a->c1, &b->c1) & F2(equal)(&a->c2, &b->c2);
}

static inline void F6(add)(F6T *r, const F6T *a, const F6T *b)
{
    F2(add)(&r->c0, &a->c0, &b->c0);
    F2(add)(&r->c1, &a->c1, &b->c1);
    F2(add)(&r->c2, &a->c2, &b->c2);
}

static inline void F6(sub)(F6T *r, const F6T *a, const F6T *b)
{
    F2(sub)(&r->c0, &a->c0, &b->c0);
    F2(sub)(&r->c1, &a->c1, &b->c1);
    F2(sub)(&r->c2, &a->c2, &b->c2);
}

static inline void F6(dbl)(F6T *r, const F6T *a)
{
    F2(dbl)(&r->c0, &a->c0);
    F2(dbl)(&r->c1, &a->c1);
    F2(dbl)(&r->c2, &a->c2);
}

static inline void F6(neg)(F6T *r, const F6T *a)
{
    F2(neg)(&r->c0, &a->c0);
    F2(neg)(&r->c1, &a->c1);
    F2(neg)(&r->c2, &a->c2);
}

/* r = a·v = xi·a2 + a0·v + a1·v^2: the multiplication by the non-residue v
 * that defines Fp12 (w^2 = v). */
static inline void F6(mul_by_nonresidue)(F6T *r, const F6T *a)
{
    F2T t;
    F2(mul_by_nonresidue)(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

/* ---- out of line (fp6_tmpl_impl.h) ---------------------------------- */

/* r = a·b: Karatsuba over three coefficients (Devegili, O hEigeartaigh,
 * Scott, Dahab, "Multiplication and squaring on pairing-friendly fields",
 * 2006, section 4). 6 M2 + 15 A2. */
void F6(mul)(F6T *r, const F6T *a, const F6T *b);

/* r = a^2: Chung-Hasan SQR2 (same paper, section 4). 2 M2 + 3 S2. */
void F6(sqr)(F6T *r, const F6T *a);

/* r = a·b for b in Fp2. 3 M2. */
void F6(mul_fp2)(F6T *r, const F6T *a, const F2T *b);

/* r = a·(b0 + b1·v), the sparse product of the line functions. 5 M2. */
void F6(mul_by_01)(F6T *r, const F6T *a, const F2T *b0, const F2T *b1);

/* r = a·(b1·v). 3 M2. */
void F6(mul_by_1)(F6T *r, const F6T *a, const F2T *b1);

/* r = a^-1 (0 for 0), by the adjugate: one Fp2 inversion (constant-time) and
 * 9 M2 + 3 S2. */
void F6(inv)(F6T *r, const F6T *a);

/* The same with the variable-time Fp2 inversion (public values only). */
void F6(inv_vartime)(F6T *r, const F6T *a);

/* r = a^(p^k) for a public k >= 0 (constants of <curve>_fp12_frobenius.c). */
void F6(frobenius)(F6T *r, const F6T *a, unsigned k);

/* A uniformly random element (rng NULL: getrandom). */
cuzk_status_t F6(random)(F6T *r, rng_t *rng);
