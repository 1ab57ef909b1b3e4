/*
 * Fp12: the out-of-line half of the template in fp12_tmpl.h. Included once
 * per curve by its .c file, after that curve's Fp12 header and tower
 * parameters. Contracts are in fp12_tmpl.h.
 */

#include "ff/tower_names.h"

void F12(mul)(F12T *r, const F12T *a, const F12T *b)
{
    /* t0 = a0 b0, t1 = a1 b1; c0 = t0 + v·t1, c1 = (a0 + a1)(b0 + b1) - t0 - t1 */
    F6T t0, t1, s, u;
    F6(mul)(&t0, &a->c0, &b->c0);
    F6(mul)(&t1, &a->c1, &b->c1);
    F6(add)(&s, &a->c0, &a->c1);
    F6(add)(&u, &b->c0, &b->c1);
    F6(mul)(&s, &s, &u);
    F6(sub)(&s, &s, &t0);
    F6(sub)(&r->c1, &s, &t1);
    F6(mul_by_nonresidue)(&t1, &t1);
    F6(add)(&r->c0, &t0, &t1);
}

void F12(sqr)(F12T *r, const F12T *a)
{
    /* t = a0 a1; c0 = (a0 + a1)(a0 + v·a1) - t - v·t, c1 = 2t */
    F6T t, s, u;
    F6(mul)(&t, &a->c0, &a->c1);
    F6(add)(&s, &a->c0, &a->c1);
    F6(mul_by_nonresidue)(&u, &a->c1);
    F6(add)(&u, &u, &a->c0);
    F6(mul)(&s, &s, &u);
    F6(sub)(&s, &s, &t);
    F6(mul_by_nonresidue)(&u, &t);
    F6(sub)(&r->c0, &s, &u);
    F6(dbl)(&r->c1, &t);
}

/* conj(a) / (c0^2 - v·c1^2); vartime picks the Fp6 inversion. */
static void F12(inv_)(F12T *r, const F12T *a, bool vartime)
{
    F6T t0, t1;
    F6(sqr)(&t0, &a->c0);
    F6(sqr)(&t1, &a->c1);
    F6(mul_by_nonresidue)(&t1, &t1);
    F6(sub)(&t0, &t0, &t1);
    if (vartime)
        F6(inv_vartime)(&t0, &t0);
    else
        F6(inv)(&t0, &t0);
    F6(mul)(&r->c0, &a->c0, &t0);
    F6(mul)(&r->c1, &a->c1, &t0);
    F6(neg)(&r->c1, &r->c1);
}

void F12(inv)(F12T *r, const F12T *a)
{
    F12(inv_)(r, a, false);
}

void F12(inv_vartime)(F12T *r, const F12T *a)
{
    F12(inv_)(r, a, true);
}

/* One step of the Frobenius map for k = 1, 2 or 3: every coefficient is
 * raised to p^k (conjugated for odd k) and the one of w^j is multiplied by
 * gamma[k][j]. */
static void F12(frobenius_step_)(F12T *r, const F12T *a, unsigned k)
{
    const F2T *g = F12(frobenius_gamma)[k - 1];
    F2(frobenius)(&r->c0.c0, &a->c0.c0, k);
    F2(frobenius)(&r->c0.c1, &a->c0.c1, k);
    F2(frobenius)(&r->c0.c2, &a->c0.c2, k);
    F2(frobenius)(&r->c1.c0, &a->c1.c0, k);
    F2(frobenius)(&r->c1.c1, &a->c1.c1, k);
    F2(frobenius)(&r->c1.c2, &a->c1.c2, k);
    F2(mul)(&r->c1.c0, &r->c1.c0, &g[0]); /* w^1 */
    F2(mul)(&r->c0.c1, &r->c0.c1, &g[1]); /* w^2 */
    F2(mul)(&r->c1.c1, &r->c1.c1, &g[2]); /* w^3 */
    F2(mul)(&r->c0.c2, &r->c0.c2, &g[3]); /* w^4 */
    F2(mul)(&r->c1.c2, &r->c1.c2, &g[4]); /* w^5 */
}

void F12(frobenius)(F12T *r, const F12T *a, unsigned k)
{
    *r = *a;
    for (k %= 12; k > 0; k -= k > 3 ? 3 : k)
        F12(frobenius_step_)(r, r, k > 3 ? 3 : k);
}

void F12(pow)(F12T *r, const F12T *a, const uint64_t *e, size_t n)
{
    F12T acc, base = *a;
    F12(set_one)(&acc);
    for (size_t i = n; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            F12(sqr)(&acc, &acc);
            if ((e[i] >> b) & 1)
                F12(mul)(&acc, &acc, &base);
        }
    }
    *r = acc;
}

/* (c0 + c1·s)^2 in Fp4 = Fp2[s]/(s^2 - xi): c0^2 + xi·c1^2 + ((c0 + c1)^2 -
 * c0^2 - c1^2)·s. 3 S2. */
static void F12(fp4_sqr_)(F2T *r0, F2T *r1, const F2T *a0, const F2T *a1)
{
    F2T t0, t1, s;
    F2(sqr)(&t0, a0);
    F2(sqr)(&t1, a1);
    F2(add)(&s, a0, a1);
    F2(sqr)(&s, &s);
    F2(sub)(&s, &s, &t0);
    F2(sub)(r1, &s, &t1);
    F2(mul_by_nonresidue)(&t1, &t1);
    F2(add)(r0, &t1, &t0);
}

/* r = 3·t - 2·z (sub) or 3·t + 2·z (add). */
static void F12(gs_sub_)(F2T *r, const F2T *t, const F2T *z)
{
    F2T d;
    F2(sub)(&d, t, z);
    F2(dbl)(&d, &d);
    F2(add)(r, &d, t);
}

static void F12(gs_add_)(F2T *r, const F2T *t, const F2T *z)
{
    F2T d;
    F2(add)(&d, t, z);
    F2(dbl)(&d, &d);
    F2(add)(r, &d, t);
}

void F12(cyclotomic_sqr)(F12T *r, const F12T *a)
{
    /*
     * With s = w^3 (s^2 = xi), Fp12 = Fp4[w]/(w^3 - s) and
     * a = A0 + A1·w + A2·w^2 where A0 = (c0.c0, c1.c1), A1 = (c1.c0, c0.c2),
     * A2 = (c0.c1, c1.c2) as Fp4 pairs. For a in the cyclotomic subgroup
     * (Granger-Scott, eq. 3.2, with the conjugation s -> -s written as bar):
     *   a^2 = (3·A0^2 - 2·bar(A0)) + (3·s·A2^2 + 2·bar(A1))·w
     *       + (3·A1^2 - 2·bar(A2))·w^2
     */
    F2T t0, t1, t2, t3, t4, t5;
    F12(fp4_sqr_)(&t0, &t1, &a->c0.c0, &a->c1.c1); /* A0^2 */
    F12(fp4_sqr_)(&t2, &t3, &a->c1.c0, &a->c0.c2); /* A1^2 */
    F12(fp4_sqr_)(&t4, &t5, &a->c0.c1, &a->c1.c2); /* A2^2 */
    F2(mul_by_nonresidue)(&t5, &t5);               /* s·A2^2 = (xi·t5, t4) */

    F12(gs_sub_)(&r->c0.c0, &t0, &a->c0.c0);
    F12(gs_add_)(&r->c1.c1, &t1, &a->c1.c1);
    F12(gs_add_)(&r->c1.c0, &t5, &a->c1.c0);
    F12(gs_sub_)(&r->c0.c2, &t4, &a->c0.c2);
    F12(gs_sub_)(&r->c0.c1, &t2, &a->c0.c1);
    F12(gs_add_)(&r->c1.c2, &t3, &a->c1.c2);
}

void F12(cyclotomic_pow_u64)(F12T *r, const F12T *a, uint64_t e)
{
    F12T acc = *a, base = *a;
    if (e == 0) {
        F12(set_one)(r);
        return;
    }
    for (int b = 62 - __builtin_clzll(e); b >= 0; b--) {
        F12(cyclotomic_sqr)(&acc, &acc);
        if ((e >> b) & 1)
            F12(mul)(&acc, &acc, &base);
    }
    *r = acc;
}

#if TW_TWIST_M
void F12(mul_by_014)(F12T *r, const F12T *a, const F2T *l0, const F2T *l1, const F2T *l4)
{
    /* l = L0 + L1·w with L0 = l0 + l1·v, L1 = l4·v:
     * t0 = a0·L0, t1 = a1·L1; c0 = t0 + v·t1, c1 = (a0 + a1)(L0 + L1) - t0 - t1 */
    F6T t0, t1, s;
    F2T l14;
    F6(mul_by_01)(&t0, &a->c0, l0, l1);
    F6(mul_by_1)(&t1, &a->c1, l4);
    F2(add)(&l14, l1, l4);
    F6(add)(&s, &a->c0, &a->c1);
    F6(mul_by_01)(&s, &s, l0, &l14);
    F6(sub)(&s, &s, &t0);
    F6(sub)(&r->c1, &s, &t1);
    F6(mul_by_nonresidue)(&t1, &t1);
    F6(add)(&r->c0, &t0, &t1);
}
#else
void F12(mul_by_034)(F12T *r, const F12T *a, const F2T *l0, const F2T *l3, const F2T *l4)
{
    /* l = L0 + L1·w with L0 = l0, L1 = l3 + l4·v:
     * t0 = a0·l0, t1 = a1·L1; c0 = t0 + v·t1, c1 = (a0 + a1)(L0 + L1) - t0 - t1 */
    F6T t0, t1, s;
    F2T l03;
    F6(mul_fp2)(&t0, &a->c0, l0);
    F6(mul_by_01)(&t1, &a->c1, l3, l4);
    F2(add)(&l03, l0, l3);
    F6(add)(&s, &a->c0, &a->c1);
    F6(mul_by_01)(&s, &s, &l03, l4);
    F6(sub)(&s, &s, &t0);
    F6(sub)(&r->c1, &s, &t1);
    F6(mul_by_nonresidue)(&t1, &t1);
    F6(add)(&r->c0, &t0, &t1);
}
#endif

cuzk_status_t F12(random)(F12T *r, rng_t *rng)
{
    cuzk_status_t st = F6(random)(&r->c0, rng);
    return st == CUZK_OK ? F6(random)(&r->c1, rng) : st;
}
