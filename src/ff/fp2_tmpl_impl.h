/*
 * Fp2: the out-of-line half of the template in fp2_tmpl.h. Included once per
 * curve by its .c file, after that curve's Fp2 header and tower parameters.
 * Contracts are in fp2_tmpl.h.
 */

#include "ff/tower_names.h"

void F2(from_u64)(F2T *r, uint64_t v)
{
    F1(from_u64)(&r->c0, v);
    F1(set_zero)(&r->c1);
}

void F2(pow)(F2T *r, const F2T *a, const uint64_t *e, size_t n)
{
    /* Left-to-right square-and-multiply over the public exponent. */
    F2T acc, base = *a;
    F2(set_one)(&acc);
    for (size_t i = n; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            F2(sqr)(&acc, &acc);
            if ((e[i] >> b) & 1)
                F2(mul)(&acc, &acc, &base);
        }
    }
    *r = acc;
}

/* n = a0^2 + a1^2 = a·conj(a), the norm to Fp. 2S + 1A. */
static void F2(norm_)(F1T *n, const F2T *a)
{
    F1T t;
    F1(sqr)(n, &a->c0);
    F1(sqr)(&t, &a->c1);
    F1(add)(n, n, &t);
}

void F2(inv)(F2T *r, const F2T *a)
{
    F1T n;
    F2(norm_)(&n, a);
    F1(inv)(&n, &n);
    F1(mul)(&r->c0, &a->c0, &n);
    F1(mul)(&r->c1, &a->c1, &n);
    F1(neg)(&r->c1, &r->c1);
}

void F2(inv_vartime)(F2T *r, const F2T *a)
{
    F1T n;
    F2(norm_)(&n, a);
    F1(inv_vartime)(&n, &n);
    F1(mul)(&r->c0, &a->c0, &n);
    F1(mul)(&r->c1, &a->c1, &n);
    F1(neg)(&r->c1, &r->c1);
}

void F2S(inv_vartime)(F2T *a, F2T *scratch, size_t n)
{
    /* scratch[i] = product of the non-zero a[0..i-1]. */
    F2T acc;
    F2(set_one)(&acc);
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!F2(is_zero)(&a[i]))
            F2(mul)(&acc, &acc, &a[i]);
    }
    F2(inv_vartime)(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (F2(is_zero)(&a[i]))
            continue;
        F2T t;
        F2(mul)(&t, &acc, &scratch[i]);
        F2(mul)(&acc, &acc, &a[i]);
        a[i] = t;
    }
}

int F2(legendre)(const F2T *a)
{
    F1T n;
    F2(norm_)(&n, a);
    return F1(legendre)(&n);
}

/*
 * Square root through the norm ("complex method", e.g. Scott, "Implementing
 * cryptographic pairings", 2007, section 5.3): with a = a0 + a1·u and
 * x = x0 + x1·u, x^2 = a means x0^2 - x1^2 = a0 and 2·x0·x1 = a1, hence
 * x0^2 + x1^2 = s with s^2 = a0^2 + a1^2, and x0^2 = (a0 + s)/2 for one of the
 * two square roots ±s. Then x1 = a1 / (2·x0). When a1 = 0 the root is sqrt(a0)
 * or, -1 being a non-residue, sqrt(-a0)·u. Two or three base-field square
 * roots and one inversion; the result is checked by squaring.
 */
bool F2(sqrt_vartime)(F2T *r, const F2T *a)
{
    F2T x;
    if (F1(is_zero)(&a->c1)) {
        F1(set_zero)(&x.c1);
        if (!F1(sqrt_vartime)(&x.c0, &a->c0)) {
            F1T na;
            F1(neg)(&na, &a->c0);
            if (!F1(sqrt_vartime)(&x.c1, &na))
                return false;
            F1(set_zero)(&x.c0);
        }
    } else {
        F1T n, s, t;
        F2(norm_)(&n, a);
        if (!F1(sqrt_vartime)(&s, &n))
            return false;
        F1(add)(&t, &a->c0, &s);
        F1(half)(&t, &t);
        if (!F1(sqrt_vartime)(&x.c0, &t)) {
            F1(sub)(&t, &a->c0, &s);
            F1(half)(&t, &t);
            if (!F1(sqrt_vartime)(&x.c0, &t))
                return false;
        }
        /* x0 != 0 here: x0 = 0 would force a1 = 2·x0·x1 = 0. */
        F1(dbl)(&t, &x.c0);
        F1(inv_vartime)(&t, &t);
        F1(mul)(&x.c1, &a->c1, &t);
    }
    F2T check;
    F2(sqr)(&check, &x);
    if (!F2(equal)(&check, a))
        return false;
    *r = x;
    return true;
}

cuzk_status_t F2(random)(F2T *r, rng_t *rng)
{
    cuzk_status_t st = F1(random)(&r->c0, rng);
    if (st != CUZK_OK)
        return st;
    return F1(random)(&r->c1, rng);
}
