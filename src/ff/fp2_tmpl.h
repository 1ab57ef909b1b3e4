/*
 * The quadratic extension Fp2 = Fp[u]/(u^2 + 1): the template.
 *
 * Instantiated once per curve (bls381_fp2.h, bn254_fp2.h) after the base
 * field's header and the curve's tower parameters (bls381_fp2_params.h):
 * TW_CURVE names the curve, TW_XI_A gives the sextic non-residue
 * xi = TW_XI_A + u used by Fp6 (and by the G2 twist). Both base primes are
 * 3 mod 4, so -1 is a non-residue and u^p = -u.
 *
 * Contract: the same as the prime fields' (fp_tmpl.h), so that curve code can
 * be a template over either field:
 *  - NAME_t {c0, c1} holds c0 + c1·u, each coordinate in the base field's
 *    Montgomery form, fully reduced.
 *  - Every function accepts outputs that alias inputs.
 *  - Functions are constant-time in their field-element arguments unless
 *    their name ends in _vartime.
 *
 * Operation counts below: M, S = base-field multiplication and squaring,
 * A = base-field addition or subtraction.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "util/rng.h"

#include "ff/tower_names.h"

typedef struct {
    F1T c0, c1;
} F2T;

static inline void F2(set_zero)(F2T *r)
{
    F1(set_zero)(&r->c0);
    F1(set_zero)(&r->c1);
}

static inline void F2(set_one)(F2T *r)
{
    F1(set_one)(&r->c0);
    F1(set_zero)(&r->c1);
}

static inline bool F2(is_zero)(const F2T *a)
{
    return F1(is_zero)(&a->c0) & F1(is_zero)(&a->c1);
}

static inline bool F2(is_one)(const F2T *a)
{
    return F1(is_one)(&a->c0) & F1(is_zero)(&a->c1);
}

static inline bool F2(equal)(const F2T *a, const F2T *b)
{
    return F1(equal)(&a->c0, &b->c0) & F1(equal)(&a->c1, &b->c1);
}

/* r = cond ? a : r, without a branch on cond. */
static inline void F2(cmov)(F2T *r, const F2T *a, bool cond)
{
    F1(cmov)(&r->c0, &a->c0, cond);
    F1(cmov)(&r->c1, &a->c1, cond);
}

static inline void F2(add)(F2T *r, const F2T *a, const F2T *b)
{
    F1(add)(&r->c0, &a->c0, &b->c0);
    F1(add)(&r->c1, &a->c1, &b->c1);
}

static inline void F2(sub)(F2T *r, const F2T *a, const F2T *b)
{
    F1(sub)(&r->c0, &a->c0, &b->c0);
    F1(sub)(&r->c1, &a->c1, &b->c1);
}

static inline void F2(dbl)(F2T *r, const F2T *a)
{
    F1(dbl)(&r->c0, &a->c0);
    F1(dbl)(&r->c1, &a->c1);
}

static inline void F2(neg)(F2T *r, const F2T *a)
{
    F1(neg)(&r->c0, &a->c0);
    F1(neg)(&r->c1, &a->c1);
}

static inline void F2(half)(F2T *r, const F2T *a)
{
    F1(half)(&r->c0, &a->c0);
    F1(half)(&r->c1, &a->c1);
}

/* r = conjugate of a = c0 - c1·u, which is also a^p. */
static inline void F2(conj)(F2T *r, const F2T *a)
{
    r->c0 = a->c0;
    F1(neg)(&r->c1, &a->c1);
}

/* r = a^(p^k): the identity for even k, conjugation for odd k. k is public. */
static inline void F2(frobenius)(F2T *r, const F2T *a, unsigned k)
{
    if (k & 1)
        F2(conj)(r, a);
    else
        *r = *a;
}

/* r = a·b by Karatsuba: (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1)·u.
 * 3M + 5A. */
static inline void F2(mul)(F2T *r, const F2T *a, const F2T *b)
{
    F1T t0, t1, s0, s1;
    F1(mul)(&t0, &a->c0, &b->c0);
    F1(mul)(&t1, &a->c1, &b->c1);
    F1(add)(&s0, &a->c0, &a->c1);
    F1(add)(&s1, &b->c0, &b->c1);
    F1(mul)(&s0, &s0, &s1);
    F1(sub)(&r->c0, &t0, &t1);
    F1(sub)(&s0, &s0, &t0);
    F1(sub)(&r->c1, &s0, &t1);
}

/* r = a^2 = (a0 + a1)(a0 - a1) + 2·a0·a1·u ("complex squaring"). 2M + 3A. */
static inline void F2(sqr)(F2T *r, const F2T *a)
{
    F1T s, d, m;
    F1(add)(&s, &a->c0, &a->c1);
    F1(sub)(&d, &a->c0, &a->c1);
    F1(mul)(&m, &a->c0, &a->c1);
    F1(mul)(&r->c0, &s, &d);
    F1(dbl)(&r->c1, &m);
}

/* r = a·b for b in the base field. 2M. */
static inline void F2(mul_fp)(F2T *r, const F2T *a, const F1T *b)
{
    F1(mul)(&r->c0, &a->c0, b);
    F1(mul)(&r->c1, &a->c1, b);
}

/* r = TW_XI_A·a in the base field, by additions (1A for xi = 1 + u, 4A for
 * xi = 9 + u). */
static inline void F2(fp_mul_xi_a_)(F1T *r, const F1T *a)
{
    if (TW_XI_A == 1) {
        *r = *a;
    } else {
        _Static_assert(TW_XI_A == 1 || TW_XI_A == 9, "xi = 1 + u or 9 + u");
        F1T t;
        F1(dbl)(&t, a);
        F1(dbl)(&t, &t);
        F1(dbl)(&t, &t);
        F1(add)(r, &t, a);
    }
}

/* r = a·xi, xi = A + u: (A·a0 - a1) + (A·a1 + a0)·u. 2A (xi = 1 + u) or
 * 10A (xi = 9 + u), no multiplication. */
static inline void F2(mul_by_nonresidue)(F2T *r, const F2T *a)
{
    F1T t0, t1;
    F2(fp_mul_xi_a_)(&t0, &a->c0);
    F2(fp_mul_xi_a_)(&t1, &a->c1);
    F1(sub)(&t0, &t0, &a->c1);
    F1(add)(&r->c1, &t1, &a->c0);
    r->c0 = t0;
}

/* ---- out of line (fp2_tmpl_impl.h) ---------------------------------- */

/* r = v (a small integer, c1 = 0) in Montgomery form. */
void F2(from_u64)(F2T *r, uint64_t v);

/* r = a^e, e given as n limbs least significant first. The running time
 * depends on e (treat e as public) and never on a. */
void F2(pow)(F2T *r, const F2T *a, const uint64_t *e, size_t n);

/* r = a^-1 = conj(a) / (a0^2 + a1^2), the base inversion by Fermat:
 * constant-time; the inverse of 0 is 0. */
void F2(inv)(F2T *r, const F2T *a);

/* The same with the base field's variable-time inversion (public values). */
void F2(inv_vartime)(F2T *r, const F2T *a);

/* Inverts n elements in place with one inversion (Montgomery's trick);
 * zeros stay zero. scratch holds n elements. Variable-time. */
void F2S(inv_vartime)(F2T *a, F2T *scratch, size_t n);

/* The quadratic character: 1 for a non-zero square, -1 for a non-square, 0
 * for 0. a is a square in Fp2 iff its norm a0^2 + a1^2 is a square in Fp. */
int F2(legendre)(const F2T *a);

/*
 * r = a square root of a, and true; false (r untouched) when a is not a
 * square. Which of the two roots comes back is unspecified. Variable-time.
 */
bool F2(sqrt_vartime)(F2T *r, const F2T *a);

/* A uniformly random element (rng NULL: getrandom). */
cuzk_status_t F2(random)(F2T *r, rng_t *rng);
