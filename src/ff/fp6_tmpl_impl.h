/*
 * Fp6: the out-of-line half of the template in fp6_tmpl.h. Included once per
 * curve by its .c file after that curve's Fp12 header (for the Frobenius
 * constants) and tower parameters. Contracts are in fp6_tmpl.h.
 */

#include "ff/tower_names.h"

void F6(mul)(F6T *r, const F6T *a, const F6T *b)
{
    /* t_i = a_i b_i;
     * c0 = t0 + xi·((a1 + a2)(b1 + b2) - t1 - t2)
     * c1 = (a0 + a1)(b0 + b1) - t0 - t1 + xi·t2
     * c2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1 */
    F2T t0, t1, t2, s, u, c0, c1, c2;
    F2(mul)(&t0, &a->c0, &b->c0);
    F2(mul)(&t1, &a->c1, &b->c1);
    F2(mul)(&t2, &a->c2, &b->c2);

    F2(add)(&s, &a->c1, &a->c2);
    F2(add)(&u, &b->c1, &b->c2);
    F2(mul)(&c0, &s, &u);
    F2(sub)(&c0, &c0, &t1);
    F2(sub)(&c0, &c0, &t2);
    F2(mul_by_nonresidue)(&c0, &c0);
    F2(add)(&c0, &c0, &t0);

    F2(add)(&s, &a->c0, &a->c1);
    F2(add)(&u, &b->c0, &b->c1);
    F2(mul)(&c1, &s, &u);
    F2(sub)(&c1, &c1, &t0);
    F2(sub)(&c1, &c1, &t1);
    F2(mul_by_nonresidue)(&s, &t2);
    F2(add)(&c1, &c1, &s);

    F2(add)(&s, &a->c0, &a->c2);
    F2(add)(&u, &b->c0, &b->c2);
    F2(mul)(&c2, &s, &u);
    F2(sub)(&c2, &c2, &t0);
    F2(sub)(&c2, &c2, &t2);
    F2(add)(&c2, &c2, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void F6(sqr)(F6T *r, const F6T *a)
{
    /* s0 = a0^2, s1 = 2·a0·a1, s2 = (a0 - a1 + a2)^2, s3 = 2·a1·a2, s4 = a2^2;
     * c0 = s0 + xi·s3, c1 = s1 + xi·s4, c2 = s1 + s2 + s3 - s0 - s4 */
    F2T s0, s1, s2, s3, s4, t;
    F2(sqr)(&s0, &a->c0);
    F2(mul)(&s1, &a->c0, &a->c1);
    F2(dbl)(&s1, &s1);
    F2(sub)(&s2, &a->c0, &a->c1);
    F2(add)(&s2, &s2, &a->c2);
    F2(sqr)(&s2, &s2);
    F2(mul)(&s3, &a->c1, &a->c2);
    F2(dbl)(&s3, &s3);
    F2(sqr)(&s4, &a->c2);

    F2(add)(&t, &s1, &s2);
    F2(add)(&t, &t, &s3);
    F2(sub)(&t, &t, &s0);
    F2(sub)(&r->c2, &t, &s4);
    F2(mul_by_nonresidue)(&t, &s3);
    F2(add)(&r->c0, &s0, &t);
    F2(mul_by_nonresidue)(&t, &s4);
    F2(add)(&r->c1, &s1, &t);
}

void F6(mul_fp2)(F6T *r, const F6T *a, const F2T *b)
{
    F2(mul)(&r->c0, &a->c0, b);
    F2(mul)(&r->c1, &a->c1, b);
    F2(mul)(&r->c2, &a->c2, b);
}

void F6(mul_by_01)(F6T *r, const F6T *a, const F2T *b0, const F2T *b1)
{
    /* c0 = a0 b0 + xi·a2 b1
     * c1 = a0 b1 + a1 b0 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1
     * c2 = a1 b1 + a2 b0 */
    F2T t0, t1, s, u, c0, c1, c2;
    F2(mul)(&t0, &a->c0, b0);
    F2(mul)(&t1, &a->c1, b1);

    F2(mul)(&c0, &a->c2, b1);
    F2(mul_by_nonresidue)(&c0, &c0);
    F2(add)(&c0, &c0, &t0);

    F2(add)(&s, &a->c0, &a->c1);
    F2(add)(&u, b0, b1);
    F2(mul)(&c1, &s, &u);
    F2(sub)(&c1, &c1, &t0);
    F2(sub)(&c1, &c1, &t1);

    F2(mul)(&c2, &a->c2, b0);
    F2(add)(&c2, &c2, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void F6(mul_by_1)(F6T *r, const F6T *a, const F2T *b1)
{
    /* (a0 + a1 v + a2 v^2)·b1 v = xi·a2 b1 + a0 b1 v + a1 b1 v^2 */
    F2T c0;
    F2(mul)(&c0, &a->c2, b1);
    F2(mul_by_nonresidue)(&c0, &c0);
    F2(mul)(&r->c2, &a->c1, b1);
    F2(mul)(&r->c1, &a->c0, b1);
    r->c0 = c0;
}

/* The adjugate inversion; vartime picks the Fp2 inversion. */
static void F6(inv_)(F6T *r, const F6T *a, bool vartime)
{
    /* t0 = a0^2 - xi·a1 a2, t1 = xi·a2^2 - a0 a1, t2 = a1^2 - a0 a2;
     * d = a0 t0 + xi·(a2 t1 + a1 t2); a^-1 = (t0 + t1 v + t2 v^2) / d */
    F2T t0, t1, t2, s, d;
    F2(sqr)(&t0, &a->c0);
    F2(mul)(&s, &a->c1, &a->c2);
    F2(mul_by_nonresidue)(&s, &s);
    F2(sub)(&t0, &t0, &s);

    F2(sqr)(&t1, &a->c2);
    F2(mul_by_nonresidue)(&t1, &t1);
    F2(mul)(&s, &a->c0, &a->c1);
    F2(sub)(&t1, &t1, &s);

    F2(sqr)(&t2, &a->c1);
    F2(mul)(&s, &a->c0, &a->c2);
    F2(sub)(&t2, &t2, &s);

    F2(mul)(&d, &a->c2, &t1);
    F2(mul)(&s, &a->c1, &t2);
    F2(add)(&d, &d, &s);
    F2(mul_by_nonresidue)(&d, &d);
    F2(mul)(&s, &a->c0, &t0);
    F2(add)(&d, &d, &s);
    if (vartime)
        F2(inv_vartime)(&d, &d);
    else
        F2(inv)(&d, &d);

    F2(mul)(&r->c0, &t0, &d);
    F2(mul)(&r->c1, &t1, &d);
    F2(mul)(&r->c2, &t2, &d);
}

void F6(inv)(F6T *r, const F6T *a)
{
    F6(inv_)(r, a, false);
}

void F6(inv_vartime)(F6T *r, const F6T *a)
{
    F6(inv_)(r, a, true);
}

/* One step of the Frobenius map for k = 1, 2 or 3: v^(p^k) = v·gamma[k][2],
 * (v^2)^(p^k) = v^2·gamma[k][4] (w^2 = v, see fp12_tmpl.h). */
static void F6(frobenius_step_)(F6T *r, const F6T *a, unsigned k)
{
    F2(frobenius)(&r->c0, &a->c0, k);
    F2(frobenius)(&r->c1, &a->c1, k);
    F2(frobenius)(&r->c2, &a->c2, k);
    F2(mul)(&r->c1, &r->c1, &F12(frobenius_gamma)[k - 1][1]);
    F2(mul)(&r->c2, &r->c2, &F12(frobenius_gamma)[k - 1][3]);
}

void F6(frobenius)(F6T *r, const F6T *a, unsigned k)
{
    *r = *a;
    for (k %= 6; k > 0; k -= k > 3 ? 3 : k)
        F6(frobenius_step_)(r, r, k > 3 ? 3 : k);
}

cuzk_status_t F6(random)(F6T *r, rng_t *rng)
{
    cuzk_status_t st = F2(random)(&r->c0, rng);
    if (st == CUZK_OK)
        st = F2(random)(&r->c1, rng);
    if (st == CUZK_OK)
        st = F2(random)(&r->c2, rng);
    return st;
}
