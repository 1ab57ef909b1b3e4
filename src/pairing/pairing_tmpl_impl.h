/*
 * The optimal ate pairing: the part shared by both curves (Miller loop over a
 * signed-digit loop parameter, line functions in homogeneous projective
 * coordinates, easy part of the final exponentiation, the product check).
 * Included once per curve by <curve>_pairing.c, which first defines:
 *
 *   PR_LOOP        the loop parameter as an unsigned __int128 (|x| for
 *                  BLS12-381, 6x + 2 for BN254)
 *   PR_LOOP_NEG    1 when the pairing's loop parameter is -PR_LOOP
 *   PR_BN_LINES    1 for the two extra lines of BN curves (Frobenius of Q)
 *   static const F2T <curve>_twist_b3   3·b' of the twist y^2 = x^3 + b'
 *   static void <curve>_final_exp_hard_(F12T *r, const F12T *f)
 *                  f^(m·(p^4 - p^2 + 1)/r) for f in the cyclotomic subgroup
 *                  (m: see final_exp in pairing_tmpl.h)
 *
 * Twist types (TW_TWIST_M, from the tower parameters): with w^6 = xi, the
 * untwisting map is (x, y) -> (x·w^-2, y·w^-3) for an M-type twist
 * (E': y^2 = x^3 + b·xi) and (x·w^2, y·w^3) for a D-type twist
 * (y^2 = x^3 + b/xi). A line through points of E' evaluated at P = (xP, yP),
 * scaled by factors in Fp2 (which the final exponentiation removes), is
 *   M-type:  a + b·w^2 + c·w^3  (Fp12 positions 0, 1, 4: mul_by_014)
 *   D-type:  c + b·w + a·w^3    (positions 0, 3, 4: mul_by_034)
 * where a depends on the twist point only, b = (.)·xP and c = (.)·yP.
 */

#include <stdint.h>

#include "ff/tower_names.h"
#include "pairing/pairing_tmpl_names.h"

/* A point of the twist in homogeneous projective coordinates:
 * (x, y) = (X/Z, Y/Z). */
typedef struct {
    F2T x, y, z;
} PR(twist_proj_t_);

/* What the lines need of P = (xP, yP): 3·xP, -xP, yP, -yP. */
typedef struct {
    F1T x3, nx, y, ny;
} PR(g1_prep_t_);

/* Pairs processed together by one Miller loop (their squarings of f are
 * shared); more pairs run in further groups. */
enum { PR(CHUNK_) = 8 };

static void PR(final_exp_hard_)(F12T *r, const F12T *f);

/* f = f·line, the line given by its three coefficients as above. */
static void PR(mul_line_)(F12T *f, const F2T *a, const F2T *b, const F2T *c)
{
#if TW_TWIST_M
    F12(mul_by_014)(f, f, a, b, c);
#else
    F12(mul_by_034)(f, f, c, b, a);
#endif
}

/*
 * T = 2T and the tangent line at T evaluated at P, homogeneous projective
 * coordinates on y^2 = x^3 + b' (Costello, Lange, Naehrig, "Faster pairing
 * computations on curves with high-degree twists", PKC 2010; the grouping of
 * Aranha, Karabina, Longa, Gebotys, Lopez, Eurocrypt 2011, section 4):
 *   A = X·Y/2, B = Y^2, C = Z^2, E = 3b'·C, F = 3E, G = (B + F)/2,
 *   H = (Y + Z)^2 - (B + C), I = E - B, J = X^2
 *   X3 = A·(B - F), Y3 = G^2 - 3E^2, Z3 = B·H
 *   line: a = I, b = 3J·xP, c = -H·yP
 * (the tangent 2y·(yP - y) - 3x^2·(xP - x) in projective form, the curve
 * equation turning 2Y^2·Z - 3X^3 into Z·(3b'·Z^2 - Y^2)).
 * 3 M2 + 6 S2 + 1 M2 by 3b' + 4 M.
 */
static void PR(dbl_step_)(F2T line[3], PR(twist_proj_t_) * t, const PR(g1_prep_t_) * p)
{
    F2T a, b, c, e, f, g, h, j, s;
    F2(mul)(&a, &t->x, &t->y);
    F2(half)(&a, &a);
    F2(sqr)(&b, &t->y);
    F2(sqr)(&c, &t->z);
    F2(mul)(&e, &c, &PR(twist_b3));
    F2(dbl)(&f, &e);
    F2(add)(&f, &f, &e);
    F2(add)(&g, &b, &f);
    F2(half)(&g, &g);
    F2(add)(&h, &t->y, &t->z);
    F2(sqr)(&h, &h);
    F2(add)(&s, &b, &c);
    F2(sub)(&h, &h, &s);
    F2(sub)(&line[0], &e, &b); /* I */
    F2(sqr)(&j, &t->x);
    F2(mul_fp)(&line[1], &j, &p->x3);
    F2(mul_fp)(&line[2], &h, &p->ny);

    F2(sub)(&s, &b, &f);
    F2(mul)(&t->x, &a, &s);
    F2(sqr)(&g, &g);
    F2(sqr)(&s, &e);
    F2(dbl)(&e, &s);
    F2(add)(&e, &e, &s);
    F2(sub)(&t->y, &g, &e);
    F2(mul)(&t->z, &b, &h);
}

/*
 * T = T + Q (Q affine) and the line through T and Q evaluated at P (same
 * references, mixed addition):
 *   theta = Y - yQ·Z, lambda = X - xQ·Z, C = theta^2, D = lambda^2,
 *   E = lambda·D, F = Z·C, G = X·D, H = E + F - 2G
 *   X3 = lambda·H, Y3 = theta·(G - H) - E·Y, Z3 = Z·E
 *   line: a = theta·xQ - lambda·yQ, b = -theta·xP, c = lambda·yP
 * (lambda·(yP - yQ) - theta·(xP - xQ), the slope being theta/lambda).
 * 11 M2 + 2 S2 + 4 M.
 */
static void PR(add_step_)(F2T line[3], PR(twist_proj_t_) * t, const PR_G2A *q,
                          const PR(g1_prep_t_) * p)
{
    F2T theta, lambda, c, d, e, f, g, h, s;
    F2(mul)(&theta, &q->y, &t->z);
    F2(sub)(&theta, &t->y, &theta);
    F2(mul)(&lambda, &q->x, &t->z);
    F2(sub)(&lambda, &t->x, &lambda);
    F2(sqr)(&c, &theta);
    F2(sqr)(&d, &lambda);
    F2(mul)(&e, &lambda, &d);
    F2(mul)(&f, &t->z, &c);
    F2(mul)(&g, &t->x, &d);
    F2(add)(&h, &e, &f);
    F2(sub)(&h, &h, &g);
    F2(sub)(&h, &h, &g);

    F2(mul)(&s, &theta, &q->x);
    F2(mul)(&line[0], &lambda, &q->y);
    F2(sub)(&line[0], &s, &line[0]);
    F2(mul_fp)(&line[1], &theta, &p->nx);
    F2(mul_fp)(&line[2], &lambda, &p->y);

    F2(mul)(&t->x, &lambda, &h);
    F2(mul)(&t->z, &t->z, &e);
    F2(sub)(&s, &g, &h);
    F2(mul)(&s, &theta, &s);
    F2(mul)(&e, &e, &t->y);
    F2(sub)(&t->y, &s, &e);
}

/* The non-adjacent form of PR_LOOP, most significant digit first; returns
 * the number of digits (the first is 1). */
static int PR(loop_naf_)(int8_t digits[130])
{
    unsigned __int128 k = PR_LOOP;
    int8_t rev[130];
    int n = 0;
    while (k) {
        int8_t d = 0;
        if (k & 1) {
            d = (k & 3) == 3 ? -1 : 1; /* k mod 4 = 3: take -1, k + 1 = 0 mod 4 */
            k = d > 0 ? k - 1 : k + 1;
        }
        rev[n++] = d;
        k >>= 1;
    }
    for (int i = 0; i < n; i++)
        digits[i] = rev[n - 1 - i];
    return n;
}

static bool PR(g1_is_infinity_)(const PR_G1A *p)
{
    return F1(is_zero)(&p->x) & F1(is_zero)(&p->y);
}

static bool PR(g2_is_infinity_)(const PR_G2A *q)
{
    return F2(is_zero)(&q->x) & F2(is_zero)(&q->y);
}

#if PR_BN_LINES
/* r = pi(q) (k = 1) or pi^2(q) (k = 2) on the D-type twist: the p^k-power
 * Frobenius of E transported by the untwisting map, (x, y) ->
 * (x^(p^k)·gamma[k][2], y^(p^k)·gamma[k][3]) since (w^j)^(p^k - 1) = gamma[k][j]. */
static void PR(twist_frobenius_)(PR_G2A *r, const PR_G2A *q, unsigned k)
{
    F2(frobenius)(&r->x, &q->x, k);
    F2(frobenius)(&r->y, &q->y, k);
    F2(mul)(&r->x, &r->x, &F12(frobenius_gamma)[k - 1][1]);
    F2(mul)(&r->y, &r->y, &F12(frobenius_gamma)[k - 1][2]);
}
#endif

/* The Miller loop for at most CHUNK_ pairs. */
static void PR(miller_loop_chunk_)(F12T *f, const PR_G1A *p, const PR_G2A *q, size_t n)
{
    PR(g1_prep_t_) prep[PR(CHUNK_)];
    PR(twist_proj_t_) t[PR(CHUNK_)];
    PR_G2A qq[PR(CHUNK_)], qneg[PR(CHUNK_)];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (PR(g1_is_infinity_)(&p[i]) || PR(g2_is_infinity_)(&q[i]))
            continue;
        F1(dbl)(&prep[m].x3, &p[i].x);
        F1(add)(&prep[m].x3, &prep[m].x3, &p[i].x);
        F1(neg)(&prep[m].nx, &p[i].x);
        prep[m].y = p[i].y;
        F1(neg)(&prep[m].ny, &p[i].y);
        qq[m] = q[i];
        qneg[m].x = q[i].x;
        F2(neg)(&qneg[m].y, &q[i].y);
        t[m].x = q[i].x;
        t[m].y = q[i].y;
        F2(set_one)(&t[m].z);
        m++;
    }
    F12(set_one)(f);
    if (m == 0)
        return;

    int8_t digits[130];
    int nd = PR(loop_naf_)(digits);
    F2T line[3];
    for (int i = 1; i < nd; i++) {
        if (i > 1) /* f = 1 before the first step */
            F12(sqr)(f, f);
        for (size_t j = 0; j < m; j++) {
            PR(dbl_step_)(line, &t[j], &prep[j]);
            PR(mul_line_)(f, &line[0], &line[1], &line[2]);
        }
        if (digits[i] == 0)
            continue;
        for (size_t j = 0; j < m; j++) {
            PR(add_step_)(line, &t[j], digits[i] > 0 ? &qq[j] : &qneg[j], &prep[j]);
            PR(mul_line_)(f, &line[0], &line[1], &line[2]);
        }
    }
#if PR_BN_LINES
    /* f·l_{T, pi(Q)}·l_{T + pi(Q), -pi^2(Q)}, T = [6x + 2]Q (Vercauteren,
     * "Optimal pairings", IEEE Trans. Inf. Theory 2010, section IV.A). */
    for (size_t j = 0; j < m; j++) {
        PR_G2A q1, q2;
        PR(twist_frobenius_)(&q1, &qq[j], 1);
        PR(twist_frobenius_)(&q2, &qq[j], 2);
        F2(neg)(&q2.y, &q2.y);
        PR(add_step_)(line, &t[j], &q1, &prep[j]);
        PR(mul_line_)(f, &line[0], &line[1], &line[2]);
        PR(add_step_)(line, &t[j], &q2, &prep[j]);
        PR(mul_line_)(f, &line[0], &line[1], &line[2]);
    }
#endif
    if (PR_LOOP_NEG) /* f_{-|x|} = 1/f_{|x|} up to a vertical line: conj after the easy part */
        F12(conj)(f, f);
}

void PR(miller_loop)(F12T *f, const PR_G1A *p, const PR_G2A *q, size_t n)
{
    F12(set_one)(f);
    for (size_t i = 0; i < n; i += PR(CHUNK_)) {
        F12T g;
        size_t k = n - i < PR(CHUNK_) ? n - i : PR(CHUNK_);
        PR(miller_loop_chunk_)(&g, p + i, q + i, k);
        if (i == 0)
            *f = g;
        else
            F12(mul)(f, f, &g);
    }
}

void PR(final_exp)(F12T *r, const F12T *f)
{
    /* Easy part f^((p^6 - 1)(p^2 + 1)): conj(f)/f, then t^(p^2)·t. The
     * result is in the cyclotomic subgroup, where conj is the inverse. */
    F12T t, u;
    F12(inv_vartime)(&t, f); /* pairings verify public data */
    F12(conj)(&u, f);
    F12(mul)(&u, &u, &t);
    F12(frobenius)(&t, &u, 2);
    F12(mul)(&u, &u, &t);
    PR(final_exp_hard_)(r, &u);
}

void PR(pairing)(F12T *r, const PR_G1A *p, const PR_G2A *q)
{
    F12T f;
    PR(miller_loop)(&f, p, q, 1);
    PR(final_exp)(r, &f);
}

/* The groups of pairing_product_is_one: group g of k takes the pairs
 * [g·n/k, (g+1)·n/k). */
enum { PR(GROUPS_MAX_) = 16 };
typedef struct {
    const PR_G1A *p;
    const PR_G2A *q;
    size_t n, k;
    F12T f[PR(GROUPS_MAX_)];
} PR(groups_t_);

static void PR(group_loop_)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    PR(groups_t_) *c = ctx;
    for (size_t g = begin; g < end; g++) {
        size_t lo = g * c->n / c->k, hi = (g + 1) * c->n / c->k;
        PR(miller_loop)(&c->f[g], c->p + lo, c->q + lo, hi - lo);
    }
}

bool PR(pairing_product_is_one)(const PR_G1A *p, const PR_G2A *q, size_t n, pool_t *pool)
{
    F12T f;
    size_t k = pool_threads(pool);
    k = k < n ? k : n;
    k = k < PR(GROUPS_MAX_) ? k : PR(GROUPS_MAX_);
    if (k <= 1) {
        PR(miller_loop)(&f, p, q, n);
    } else {
        PR(groups_t_) c = {.p = p, .q = q, .n = n, .k = k};
        pool_for(pool, k, 1, PR(group_loop_), &c);
        f = c.f[0];
        for (size_t g = 1; g < k; g++)
            F12(mul)(&f, &f, &c.f[g]);
    }
    PR(final_exp)(&f, &f);
    return F12(is_one)(&f);
}
