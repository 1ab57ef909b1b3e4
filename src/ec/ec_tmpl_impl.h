/*
 * Curve arithmetic: the out-of-line half of the template in ec_tmpl.h.
 * Included once per group by its .c file, after that group's header and
 * parameters. Contracts are in ec_tmpl.h; comments here give the formulas.
 */

#include <assert.h>
#include <string.h>

static const EFT ECN(B_) = EC_B;
static const EFT ECN(GEN_X_) = EC_GEN_X;
static const EFT ECN(GEN_Y_) = EC_GEN_Y;

/* ---- constants, infinity, negation, equality ------------------------ */

void ECN(generator)(ECA *r)
{
    r->x = ECN(GEN_X_);
    r->y = ECN(GEN_Y_);
}

void ECN(affine_set_infinity)(ECA *r)
{
    EF(set_zero)(&r->x);
    EF(set_zero)(&r->y);
}

void ECN(jac_set_infinity)(ECJ *r)
{
    EF(set_one)(&r->X);
    EF(set_one)(&r->Y);
    EF(set_zero)(&r->Z);
}

void ECN(xyzz_set_infinity)(ECX *r)
{
    EF(set_one)(&r->X);
    EF(set_one)(&r->Y);
    EF(set_zero)(&r->ZZ);
    EF(set_zero)(&r->ZZZ);
}

bool ECN(jac_is_infinity)(const ECJ *p)
{
    return EF(is_zero)(&p->Z);
}

bool ECN(xyzz_is_infinity)(const ECX *p)
{
    return EF(is_zero)(&p->ZZ);
}

void ECN(affine_neg)(ECA *r, const ECA *p)
{
    r->x = p->x;
    EF(neg)(&r->y, &p->y);
}

void ECN(jac_neg)(ECJ *r, const ECJ *p)
{
    r->X = p->X;
    EF(neg)(&r->Y, &p->Y);
    r->Z = p->Z;
}

void ECN(xyzz_neg)(ECX *r, const ECX *p)
{
    r->X = p->X;
    EF(neg)(&r->Y, &p->Y);
    r->ZZ = p->ZZ;
    r->ZZZ = p->ZZZ;
}

bool ECN(affine_equal)(const ECA *p, const ECA *q)
{
    return EF(equal)(&p->x, &q->x) & EF(equal)(&p->y, &q->y);
}

/*
 * Projective equality: x1·d2 = x2·d1 and y1·e2 = y2·e1 for the x and y
 * denominators d, e of each point; both at infinity, or neither.
 */
static bool ECN(equal_proj_)(const EFT *X1, const EFT *Y1, const EFT *d1, const EFT *e1, bool inf1,
                             const EFT *X2, const EFT *Y2, const EFT *d2, const EFT *e2, bool inf2)
{
    EFT a, b, c, d;
    EF(mul)(&a, X1, d2);
    EF(mul)(&b, X2, d1);
    EF(mul)(&c, Y1, e2);
    EF(mul)(&d, Y2, e1);
    bool same = EF(equal)(&a, &b) & EF(equal)(&c, &d);
    return (inf1 & inf2) | (!inf1 & !inf2 & same);
}

bool ECN(jac_equal)(const ECJ *p, const ECJ *q)
{
    EFT zz1, zzz1, zz2, zzz2;
    EF(sqr)(&zz1, &p->Z);
    EF(mul)(&zzz1, &zz1, &p->Z);
    EF(sqr)(&zz2, &q->Z);
    EF(mul)(&zzz2, &zz2, &q->Z);
    return ECN(equal_proj_)(&p->X, &p->Y, &zz1, &zzz1, ECN(jac_is_infinity)(p), &q->X, &q->Y, &zz2,
                            &zzz2, ECN(jac_is_infinity)(q));
}

bool ECN(jac_equal_affine)(const ECJ *p, const ECA *q)
{
    ECJ t;
    ECN(jac_from_affine)(&t, q);
    return ECN(jac_equal)(p, &t);
}

bool ECN(xyzz_equal)(const ECX *p, const ECX *q)
{
    return ECN(equal_proj_)(&p->X, &p->Y, &p->ZZ, &p->ZZZ, ECN(xyzz_is_infinity)(p), &q->X, &q->Y,
                            &q->ZZ, &q->ZZZ, ECN(xyzz_is_infinity)(q));
}

/* r = cond ? a : r, without a branch on cond. */
static void ECN(jac_cmov_)(ECJ *r, const ECJ *a, bool cond)
{
    EF(cmov)(&r->X, &a->X, cond);
    EF(cmov)(&r->Y, &a->Y, cond);
    EF(cmov)(&r->Z, &a->Z, cond);
}

/* ---- conversions ---------------------------------------------------- */

void ECN(jac_from_affine)(ECJ *r, const ECA *p)
{
    bool inf = ECN(affine_is_infinity)(p);
    r->X = p->x;
    r->Y = p->y;
    EF(set_one)(&r->Z);
    ECJ t;
    ECN(jac_set_infinity)(&t);
    ECN(jac_cmov_)(r, &t, inf);
}

void ECN(xyzz_from_affine)(ECX *r, const ECA *p)
{
    bool inf = ECN(affine_is_infinity)(p);
    r->X = p->x;
    r->Y = p->y;
    EF(set_one)(&r->ZZ);
    EF(set_one)(&r->ZZZ);
    /* (0, 0, 0, 0) would do as infinity too; keep the set_infinity form. */
    EF(cmov)(&r->X, &r->ZZ, inf);
    EF(cmov)(&r->Y, &r->ZZ, inf);
    EFT zero;
    EF(set_zero)(&zero);
    EF(cmov)(&r->ZZ, &zero, inf);
    EF(cmov)(&r->ZZZ, &zero, inf);
}

void ECN(jac_to_xyzz)(ECX *r, const ECJ *p)
{
    EFT zz, zzz;
    EF(sqr)(&zz, &p->Z);       /* ZZ = Z^2 */
    EF(mul)(&zzz, &zz, &p->Z); /* ZZZ = Z^3 */
    r->X = p->X;
    r->Y = p->Y;
    r->ZZ = zz;
    r->ZZZ = zzz;
}

void ECN(xyzz_to_jac)(ECJ *r, const ECX *p)
{
    /* Z = ZZZ/ZZ would keep X, Y; scaling it by ZZ avoids the inversion:
     * Z' = ZZZ, X' = X·ZZ^2, Y' = Y·ZZ^3 = Y·ZZZ^2 (ZZ^3 = ZZZ^2). */
    EFT t;
    EF(sqr)(&t, &p->ZZ);
    EF(mul)(&r->X, &p->X, &t);
    EF(sqr)(&t, &p->ZZZ);
    EF(mul)(&r->Y, &p->Y, &t);
    r->Z = p->ZZZ;
}

void ECN(jac_to_affine)(ECA *r, const ECJ *p)
{
    EFT zi, zi2;
    EF(inv)(&zi, &p->Z); /* 0 for infinity, so (X, Y, 0) -> (0, 0) */
    EF(sqr)(&zi2, &zi);
    EF(mul)(&r->x, &p->X, &zi2);
    EF(mul)(&zi, &zi, &zi2);
    EF(mul)(&r->y, &p->Y, &zi);
}

/* x, y from X, Y, ZZ and t = 1/ZZZ: 1/ZZ = (ZZ·t)^2 since ZZ^3 = ZZZ^2.
 * 3M + 1S. */
static void ECN(xyzz_scale_)(ECA *r, const ECX *p, const EFT *t)
{
    EFT u;
    EF(mul)(&u, &p->ZZ, t);
    EF(sqr)(&u, &u);
    EF(mul)(&r->x, &p->X, &u);
    EF(mul)(&r->y, &p->Y, t);
}

void ECN(xyzz_to_affine)(ECA *r, const ECX *p)
{
    EFT t;
    EF(inv)(&t, &p->ZZZ); /* 0 for infinity: (0, 0) */
    ECN(xyzz_scale_)(r, p, &t);
}

/*
 * Montgomery's trick over the points' denominators den(i) (Z or ZZZ; 1 for
 * infinity): out[i].x holds the prefix product den(0)···den(i) until the
 * backward pass replaces it, so no scratch is needed.
 */
#define EC_BATCH_TO_AFFINE_(in, n, out, den, is_inf, finish)                                       \
    do {                                                                                           \
        EFT acc_;                                                                                  \
        EF(set_one)(&acc_);                                                                        \
        for (size_t i_ = 0; i_ < (n); i_++) {                                                      \
            if (!is_inf(&(in)[i_]))                                                                \
                EF(mul)(&acc_, &acc_, &(in)[i_].den);                                              \
            (out)[i_].x = acc_;                                                                    \
        }                                                                                          \
        EF(inv_vartime)(&acc_, &acc_); /* acc_ = 1/(den(0)···den(n-1)) */                       \
        for (size_t i_ = (n); i_-- > 0;) {                                                         \
            if (is_inf(&(in)[i_])) {                                                               \
                ECN(affine_set_infinity)(&(out)[i_]);                                              \
                continue;                                                                          \
            }                                                                                      \
            EFT inv_ = acc_; /* 1/den(i) = acc_ · den(0)···den(i-1) */                         \
            if (i_ > 0)                                                                            \
                EF(mul)(&inv_, &acc_, &(out)[i_ - 1].x);                                           \
            EF(mul)(&acc_, &acc_, &(in)[i_].den);                                                  \
            finish(&(out)[i_], &(in)[i_], &inv_);                                                  \
        }                                                                                          \
    } while (0)

/* x = X·zi^2, y = Y·zi^3 from zi = 1/Z. 3M + 1S. */
static void ECN(jac_scale_)(ECA *r, const ECJ *p, const EFT *zi)
{
    EFT t;
    EF(sqr)(&t, zi);
    EF(mul)(&r->x, &p->X, &t);
    EF(mul)(&t, &t, zi);
    EF(mul)(&r->y, &p->Y, &t);
}

void ECN(jacs_to_affine_vartime)(ECA *out, const ECJ *in, size_t n)
{
    EC_BATCH_TO_AFFINE_(in, n, out, Z, ECN(jac_is_infinity), ECN(jac_scale_));
}

void ECN(xyzzs_to_affine_vartime)(ECA *out, const ECX *in, size_t n)
{
    EC_BATCH_TO_AFFINE_(in, n, out, ZZZ, ECN(xyzz_is_infinity), ECN(xyzz_scale_));
}

#undef EC_BATCH_TO_AFFINE_

/* ---- Jacobian arithmetic -------------------------------------------- */

void ECN(jac_dbl)(ECJ *r, const ECJ *p)
{
    /* dbl-2009-l (a = 0): 2M + 5S. Z = 0 gives Z3 = 0. */
    EFT A, B, C, D, E, F, t;
    EF(sqr)(&A, &p->X);     /* A = X1^2 */
    EF(sqr)(&B, &p->Y);     /* B = Y1^2 */
    EF(sqr)(&C, &B);        /* C = B^2 */
    EF(add)(&t, &p->X, &B); /* D = 2((X1 + B)^2 - A - C) */
    EF(sqr)(&t, &t);
    EF(sub)(&t, &t, &A);
    EF(sub)(&t, &t, &C);
    EF(dbl)(&D, &t);
    EF(dbl)(&E, &A); /* E = 3A */
    EF(add)(&E, &E, &A);
    EF(sqr)(&F, &E);              /* F = E^2 */
    EF(mul)(&r->Z, &p->Y, &p->Z); /* Z3 = 2·Y1·Z1 (before r->X, r->Y: aliasing) */
    EF(dbl)(&r->Z, &r->Z);
    EF(dbl)(&t, &D); /* X3 = F - 2D */
    EF(sub)(&r->X, &F, &t);
    EF(sub)(&t, &D, &r->X); /* Y3 = E(D - X3) - 8C */
    EF(mul)(&t, &E, &t);
    EF(dbl)(&C, &C);
    EF(dbl)(&C, &C);
    EF(dbl)(&C, &C);
    EF(sub)(&r->Y, &t, &C);
}

/*
 * add-2007-bl: 11M + 5S. Correct for finite p != +-q; p = -q gives H = 0 and
 * so Z3 = 0, infinity, already. Reports H = 0 and S2 - S1 = 0 (p = q when
 * both are finite) for the callers to handle doubling and infinity.
 */
static void ECN(jac_add_core_)(ECJ *r, const ECJ *p, const ECJ *q, bool *h_zero, bool *r_zero)
{
    EFT Z1Z1, Z2Z2, U1, U2, S1, S2, H, I, J, R, V, t;
    EF(sqr)(&Z1Z1, &p->Z);      /* Z1Z1 = Z1^2 */
    EF(sqr)(&Z2Z2, &q->Z);      /* Z2Z2 = Z2^2 */
    EF(mul)(&U1, &p->X, &Z2Z2); /* U1 = X1·Z2Z2 */
    EF(mul)(&U2, &q->X, &Z1Z1); /* U2 = X2·Z1Z1 */
    EF(mul)(&S1, &p->Y, &q->Z); /* S1 = Y1·Z2·Z2Z2 */
    EF(mul)(&S1, &S1, &Z2Z2);
    EF(mul)(&S2, &q->Y, &p->Z); /* S2 = Y2·Z1·Z1Z1 */
    EF(mul)(&S2, &S2, &Z1Z1);
    EF(sub)(&H, &U2, &U1); /* H = U2 - U1 */
    EF(sub)(&R, &S2, &S1); /* r = 2(S2 - S1) */
    *h_zero = EF(is_zero)(&H);
    *r_zero = EF(is_zero)(&R);
    EF(dbl)(&R, &R);
    EF(dbl)(&I, &H); /* I = (2H)^2 */
    EF(sqr)(&I, &I);
    EF(mul)(&J, &H, &I);       /* J = H·I */
    EF(mul)(&V, &U1, &I);      /* V = U1·I */
    EF(add)(&t, &p->Z, &q->Z); /* Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2)·H */
    EF(sqr)(&t, &t);
    EF(sub)(&t, &t, &Z1Z1);
    EF(sub)(&t, &t, &Z2Z2);
    EF(mul)(&r->Z, &t, &H);
    EF(sqr)(&t, &R); /* X3 = r^2 - J - 2V */
    EF(sub)(&t, &t, &J);
    EF(sub)(&t, &t, &V);
    EF(sub)(&r->X, &t, &V);
    EF(sub)(&t, &V, &r->X); /* Y3 = r(V - X3) - 2·S1·J */
    EF(mul)(&t, &R, &t);
    EF(mul)(&S1, &S1, &J);
    EF(dbl)(&S1, &S1);
    EF(sub)(&r->Y, &t, &S1);
}

void ECN(jac_add_vartime)(ECJ *r, const ECJ *p, const ECJ *q)
{
    if (ECN(jac_is_infinity)(p)) {
        *r = *q;
        return;
    }
    if (ECN(jac_is_infinity)(q)) {
        *r = *p;
        return;
    }
    ECJ t;
    bool h_zero, r_zero;
    ECN(jac_add_core_)(&t, p, q, &h_zero, &r_zero);
    if (h_zero && r_zero)
        ECN(jac_dbl)(r, p);
    else
        *r = t; /* p = -q: t has Z = 0 */
}

void ECN(jac_add)(ECJ *r, const ECJ *p, const ECJ *q)
{
    ECJ t, d;
    bool h_zero, r_zero;
    bool p_inf = ECN(jac_is_infinity)(p), q_inf = ECN(jac_is_infinity)(q);
    ECN(jac_add_core_)(&t, p, q, &h_zero, &r_zero);
    ECN(jac_dbl)(&d, p);
    ECN(jac_cmov_)(&t, &d, h_zero & r_zero);
    ECN(jac_cmov_)(&t, q, p_inf);
    ECN(jac_cmov_)(&t, p, q_inf);
    *r = t;
}

void ECN(jac_add_affine_vartime)(ECJ *r, const ECJ *p, const ECA *q)
{
    if (ECN(affine_is_infinity)(q)) {
        *r = *p;
        return;
    }
    if (ECN(jac_is_infinity)(p)) {
        ECN(jac_from_affine)(r, q);
        return;
    }
    /* madd-2007-bl (Z2 = 1): 7M + 4S. */
    EFT Z1Z1, U2, S2, H, HH, I, J, R, V, t;
    EF(sqr)(&Z1Z1, &p->Z);      /* Z1Z1 = Z1^2 */
    EF(mul)(&U2, &q->x, &Z1Z1); /* U2 = X2·Z1Z1 */
    EF(mul)(&S2, &q->y, &p->Z); /* S2 = Y2·Z1·Z1Z1 */
    EF(mul)(&S2, &S2, &Z1Z1);
    EF(sub)(&H, &U2, &p->X); /* H = U2 - X1 */
    EF(sub)(&R, &S2, &p->Y); /* r = 2(S2 - Y1) */
    if (EF(is_zero)(&H)) {
        if (EF(is_zero)(&R))
            ECN(jac_dbl)(r, p); /* p = q */
        else
            ECN(jac_set_infinity)(r); /* p = -q */
        return;
    }
    EF(dbl)(&R, &R);
    EF(sqr)(&HH, &H); /* HH = H^2 */
    EF(dbl)(&I, &HH); /* I = 4·HH */
    EF(dbl)(&I, &I);
    EF(mul)(&J, &H, &I);    /* J = H·I */
    EF(mul)(&V, &p->X, &I); /* V = X1·I */
    EFT X3, Y3, Z3;
    EF(sqr)(&t, &R); /* X3 = r^2 - J - 2V */
    EF(sub)(&t, &t, &J);
    EF(sub)(&t, &t, &V);
    EF(sub)(&X3, &t, &V);
    EF(sub)(&t, &V, &X3); /* Y3 = r(V - X3) - 2·Y1·J */
    EF(mul)(&t, &R, &t);
    EF(mul)(&J, &p->Y, &J);
    EF(dbl)(&J, &J);
    EF(sub)(&Y3, &t, &J);
    EF(add)(&t, &p->Z, &H); /* Z3 = (Z1 + H)^2 - Z1Z1 - HH */
    EF(sqr)(&t, &t);
    EF(sub)(&t, &t, &Z1Z1);
    EF(sub)(&Z3, &t, &HH);
    r->X = X3;
    r->Y = Y3;
    r->Z = Z3;
}

/* ---- XYZZ arithmetic ------------------------------------------------ */

void ECN(xyzz_dbl)(ECX *r, const ECX *p)
{
    /* dbl-2008-s-1 (a = 0): 6M + 3S. ZZ = ZZZ = 0 stays so. */
    EFT U, V, W, S, M, X3, t;
    EF(dbl)(&U, &p->Y);     /* U = 2·Y1 */
    EF(sqr)(&V, &U);        /* V = U^2 */
    EF(mul)(&W, &U, &V);    /* W = U·V */
    EF(mul)(&S, &p->X, &V); /* S = X1·V */
    EF(sqr)(&M, &p->X);     /* M = 3·X1^2 */
    EF(dbl)(&t, &M);
    EF(add)(&M, &M, &t);
    EF(sqr)(&X3, &M); /* X3 = M^2 - 2S */
    EF(dbl)(&t, &S);
    EF(sub)(&X3, &X3, &t);
    EF(sub)(&t, &S, &X3); /* Y3 = M(S - X3) - W·Y1 */
    EF(mul)(&t, &M, &t);
    EF(mul)(&U, &W, &p->Y);
    EF(sub)(&r->Y, &t, &U);
    r->X = X3;
    EF(mul)(&r->ZZ, &V, &p->ZZ);   /* ZZ3 = V·ZZ1 */
    EF(mul)(&r->ZZZ, &W, &p->ZZZ); /* ZZZ3 = W·ZZZ1 */
}

/* r = 2q for a finite affine q, mdbl-2008-s-1 (a = 0): 4M + 3S. */
static void ECN(xyzz_dbl_affine_)(ECX *r, const ECA *q)
{
    EFT U, V, W, S, M, t;
    EF(dbl)(&U, &q->y);     /* U = 2·Y1 */
    EF(sqr)(&V, &U);        /* V = U^2 */
    EF(mul)(&W, &U, &V);    /* W = U·V */
    EF(mul)(&S, &q->x, &V); /* S = X1·V */
    EF(sqr)(&M, &q->x);     /* M = 3·X1^2 */
    EF(dbl)(&t, &M);
    EF(add)(&M, &M, &t);
    EF(sqr)(&r->X, &M); /* X3 = M^2 - 2S */
    EF(dbl)(&t, &S);
    EF(sub)(&r->X, &r->X, &t);
    EF(sub)(&t, &S, &r->X); /* Y3 = M(S - X3) - W·Y1 */
    EF(mul)(&t, &M, &t);
    EF(mul)(&U, &W, &q->y);
    EF(sub)(&r->Y, &t, &U);
    r->ZZ = V;  /* ZZ3 = V */
    r->ZZZ = W; /* ZZZ3 = W */
}

/*
 * The tail shared by add-2008-s and madd-2008-s, from P = U2 - U1 != 0,
 * R = S2 - S1, U1, S1, zz = ZZ1·ZZ2 and zzz = ZZZ1·ZZZ2 (ZZ1 and ZZZ1 for an
 * affine q): 6M + 2S.
 *   PP = P^2, PPP = P·PP, Q = U1·PP
 *   X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - S1·PPP
 *   ZZ3 = ZZ1·ZZ2·PP, ZZZ3 = ZZZ1·ZZZ2·PPP
 */
static void ECN(xyzz_add_tail_)(ECX *r, const EFT *P, const EFT *R, const EFT *U1, const EFT *S1,
                                const EFT *zz, const EFT *zzz)
{
    EFT PP, PPP, Q, X3, Y3, ZZ3, ZZZ3, t;
    EF(sqr)(&PP, P);
    EF(mul)(&PPP, P, &PP);
    EF(mul)(&Q, U1, &PP);
    EF(sqr)(&X3, R);
    EF(sub)(&X3, &X3, &PPP);
    EF(dbl)(&t, &Q);
    EF(sub)(&X3, &X3, &t);
    EF(sub)(&t, &Q, &X3);
    EF(mul)(&t, R, &t);
    EF(mul)(&Y3, S1, &PPP);
    EF(sub)(&Y3, &t, &Y3);
    EF(mul)(&ZZ3, zz, &PP);
    EF(mul)(&ZZZ3, zzz, &PPP);
    r->X = X3;
    r->Y = Y3;
    r->ZZ = ZZ3;
    r->ZZZ = ZZZ3;
}

void ECN(xyzz_add_vartime)(ECX *r, const ECX *p, const ECX *q)
{
    if (ECN(xyzz_is_infinity)(p)) {
        *r = *q;
        return;
    }
    if (ECN(xyzz_is_infinity)(q)) {
        *r = *p;
        return;
    }
    /* add-2008-s: 12M + 2S. */
    EFT U1, U2, S1, S2, P, R;
    EF(mul)(&U1, &p->X, &q->ZZ);  /* U1 = X1·ZZ2 */
    EF(mul)(&U2, &q->X, &p->ZZ);  /* U2 = X2·ZZ1 */
    EF(mul)(&S1, &p->Y, &q->ZZZ); /* S1 = Y1·ZZZ2 */
    EF(mul)(&S2, &q->Y, &p->ZZZ); /* S2 = Y2·ZZZ1 */
    EF(sub)(&P, &U2, &U1);        /* P = U2 - U1 */
    EF(sub)(&R, &S2, &S1);        /* R = S2 - S1 */
    if (EF(is_zero)(&P)) {
        if (EF(is_zero)(&R))
            ECN(xyzz_dbl)(r, p);
        else
            ECN(xyzz_set_infinity)(r);
        return;
    }
    EFT zz, zzz;
    EF(mul)(&zz, &p->ZZ, &q->ZZ);    /* ZZ1·ZZ2 */
    EF(mul)(&zzz, &p->ZZZ, &q->ZZZ); /* ZZZ1·ZZZ2 */
    ECN(xyzz_add_tail_)(r, &P, &R, &U1, &S1, &zz, &zzz);
}

void ECN(xyzz_add_affine_vartime)(ECX *r, const ECX *p, const ECA *q)
{
    if (ECN(affine_is_infinity)(q)) {
        *r = *p;
        return;
    }
    if (ECN(xyzz_is_infinity)(p)) {
        ECN(xyzz_from_affine)(r, q);
        return;
    }
    /* madd-2008-s: 8M + 2S. */
    EFT U2, S2, P, R;
    EF(mul)(&U2, &q->x, &p->ZZ);  /* U2 = X2·ZZ1 */
    EF(mul)(&S2, &q->y, &p->ZZZ); /* S2 = Y2·ZZZ1 */
    EF(sub)(&P, &U2, &p->X);      /* P = U2 - X1 */
    EF(sub)(&R, &S2, &p->Y);      /* R = S2 - Y1 */
    if (EF(is_zero)(&P)) {
        if (EF(is_zero)(&R))
            ECN(xyzz_dbl_affine_)(r, q);
        else
            ECN(xyzz_set_infinity)(r);
        return;
    }
    ECN(xyzz_add_tail_)(r, &P, &R, &p->X, &p->Y, &p->ZZ, &p->ZZZ);
}

/* ---- scalar multiplication ------------------------------------------ */

/* The wNAF window. A 256-bit scalar costs 256 doublings for every w, plus
 * about 256/(w + 1) additions and 2^(w-2) for the table: 55 (w = 4), 51
 * (w = 5), 53 (w = 6) additions. */
enum { ECN(WNAF_W_) = 5, ECN(WNAF_TABLE_) = 1 << (5 - 2) };

void ECN(jac_mul_vartime)(ECJ *r, const ECJ *p, const uint64_t k[EC_SCALAR_LIMBS])
{
    int digits[EC_WNAF_MAX];
    size_t n = ec_wnaf_vartime(digits, k, ECN(WNAF_W_));
    ECJ table[ECN(WNAF_TABLE_)], p2, acc, neg;
    table[0] = *p; /* table[i] = [2i + 1]p */
    ECN(jac_dbl)(&p2, p);
    for (int i = 1; i < ECN(WNAF_TABLE_); i++)
        ECN(jac_add_vartime)(&table[i], &table[i - 1], &p2);
    ECN(jac_set_infinity)(&acc);
    for (size_t i = n; i-- > 0;) {
        ECN(jac_dbl)(&acc, &acc);
        int d = digits[i];
        if (d > 0) {
            ECN(jac_add_vartime)(&acc, &acc, &table[d >> 1]);
        } else if (d < 0) {
            ECN(jac_neg)(&neg, &table[(-d) >> 1]);
            ECN(jac_add_vartime)(&acc, &acc, &neg);
        }
    }
    *r = acc;
}

/* r = table[index] reading every entry: the address pattern is fixed. */
static void ECN(jac_lookup_)(ECJ *r, const ECJ table[16], unsigned index)
{
    *r = table[0];
    for (unsigned i = 1; i < 16; i++) {
        /* (i ^ index) - 1 has its top bit set iff i == index. */
        bool hit = (((uint64_t)(i ^ index) - 1) >> 63) != 0;
        ECN(jac_cmov_)(r, &table[i], hit);
    }
}

void ECN(jac_mul)(ECJ *r, const ECJ *p, const uint64_t k[EC_SCALAR_LIMBS])
{
    ECJ table[16], acc, t;
    ECN(jac_set_infinity)(&table[0]); /* table[i] = [i]p */
    table[1] = *p;
    for (int i = 2; i < 16; i++) {
        if (i % 2 == 0)
            ECN(jac_dbl)(&table[i], &table[i / 2]);
        else
            ECN(jac_add)(&table[i], &table[i - 1], p);
    }
    ECN(jac_lookup_)(&acc, table, ec_nibble(k, 63));
    for (int w = 62; w >= 0; w--) {
        for (int j = 0; j < 4; j++)
            ECN(jac_dbl)(&acc, &acc);
        ECN(jac_lookup_)(&t, table, ec_nibble(k, (unsigned)w));
        ECN(jac_add)(&acc, &acc, &t);
    }
    *r = acc;
}

#ifdef EC_GLV_A1
/* ---- GLV ------------------------------------------------------------ */

void ECN(glv_phi)(ECA *r, const ECA *p)
{
#if EC_DEGREE == 1
    static const EFT beta = EC_ENDO_BETA;
    EF(mul)(&r->x, &p->x, &beta);
    r->y = p->y;
#else
    static const EFT cx = EC_ENDO_PSI_X, cy = EC_ENDO_PSI_Y;
    EF(conj)(&r->x, &p->x);
    EF(mul)(&r->x, &r->x, &cx);
    EF(conj)(&r->y, &p->y);
    EF(mul)(&r->y, &r->y, &cy);
#endif
}

/* round(k·g / 2^256) for k < 2^256 and g of three limbs, when it is below
 * 2^128 (k < r and the generator's g keep it there). */
static unsigned __int128 ECN(glv_round_)(const uint64_t k[EC_SCALAR_LIMBS], const uint64_t g[3])
{
    uint64_t t[EC_SCALAR_LIMBS + 3] = {0};
    for (int i = 0; i < EC_SCALAR_LIMBS; i++) {
        unsigned __int128 acc = 0;
        for (int j = 0; j < 3; j++) {
            acc += (unsigned __int128)k[i] * g[j] + t[i + j];
            t[i + j] = (uint64_t)acc;
            acc >>= 64;
        }
        t[i + 3] = (uint64_t)acc;
    }
    /* + 2^255, then the bits from 256 up */
    unsigned __int128 hi = t[4] | (unsigned __int128)t[5] << 64;
    return hi + (t[3] >> 63);
}

static unsigned __int128 ECN(glv_u128_)(const uint64_t v[2])
{
    return v[0] | (unsigned __int128)v[1] << 64;
}

/* k mod r into kr, for any k below 2^256 (2^256/r < 6 for both curves). */
static void ECN(glv_reduce_)(uint64_t kr[EC_SCALAR_LIMBS], const uint64_t k[EC_SCALAR_LIMBS])
{
    static const uint64_t r[EC_SCALAR_LIMBS] = EC_GLV_R;
    memcpy(kr, k, EC_SCALAR_LIMBS * sizeof(uint64_t));
    for (;;) {
        uint64_t t[EC_SCALAR_LIMBS], borrow = 0;
        for (int i = 0; i < EC_SCALAR_LIMBS; i++) {
            unsigned __int128 d = (unsigned __int128)kr[i] - r[i] - borrow;
            t[i] = (uint64_t)d;
            borrow = (uint64_t)(d >> 64) & 1;
        }
        if (borrow) /* kr < r */
            return;
        memcpy(kr, t, sizeof t);
    }
}

unsigned ECN(glv_split)(uint64_t m1[2], uint64_t m2[2], const uint64_t k_in[EC_SCALAR_LIMBS])
{
    static const uint64_t a1[2] = EC_GLV_A1, b1[2] = EC_GLV_B1, a2[2] = EC_GLV_A2,
                          b2[2] = EC_GLV_B2, g1[3] = EC_GLV_G1, g2[3] = EC_GLV_G2;
    uint64_t k[EC_SCALAR_LIMBS];
    ECN(glv_reduce_)(k, k_in);
    unsigned __int128 c1 = ECN(glv_round_)(k, g1), c2 = ECN(glv_round_)(k, g2);
    if (EC_GLV_G1_NEG)
        c1 = -c1;
    if (EC_GLV_G2_NEG)
        c2 = -c2;
    /* Modulo 2^128: the true k1, k2 are below 2^127 in magnitude. */
    unsigned __int128 k1 = ECN(glv_u128_)(k) - c1 * ECN(glv_u128_)(a1) - c2 * ECN(glv_u128_)(a2);
    unsigned __int128 k2 = -(c1 * ECN(glv_u128_)(b1)) - c2 * ECN(glv_u128_)(b2);
    unsigned neg = (unsigned)(k1 >> 127) | (unsigned)(k2 >> 127) << 1;
    if (neg & 1)
        k1 = -k1;
    if (neg & 2)
        k2 = -k2;
    m1[0] = (uint64_t)k1;
    m1[1] = (uint64_t)(k1 >> 64);
    m2[0] = (uint64_t)k2;
    m2[1] = (uint64_t)(k2 >> 64);
    return neg;
}
#endif

/* ---- validity ------------------------------------------------------- */

bool ECN(affine_is_on_curve)(const ECA *p)
{
    EFT lhs, rhs;
    EF(sqr)(&lhs, &p->y); /* y^2 */
    EF(sqr)(&rhs, &p->x); /* x^3 + b */
    EF(mul)(&rhs, &rhs, &p->x);
    EF(add)(&rhs, &rhs, &ECN(B_));
    return EF(equal)(&lhs, &rhs) | ECN(affine_is_infinity)(p);
}

bool ECN(jac_is_on_curve)(const ECJ *p)
{
    EFT lhs, rhs, z6;
    EF(sqr)(&lhs, &p->Y); /* Y^2 */
    EF(sqr)(&z6, &p->Z);  /* b·Z^6 */
    EF(mul)(&z6, &z6, &p->Z);
    EF(sqr)(&z6, &z6);
    EF(mul)(&z6, &z6, &ECN(B_));
    EF(sqr)(&rhs, &p->X); /* X^3 + b·Z^6 */
    EF(mul)(&rhs, &rhs, &p->X);
    EF(add)(&rhs, &rhs, &z6);
    return EF(equal)(&lhs, &rhs) | ECN(jac_is_infinity)(p);
}

#include "ec/ec_subgroup_impl.h"

bool ECN(coordinate_is_larger_vartime)(const EFT *y)
{
    /* The most significant non-zero part decides: is it > (p - 1)/2? */
    for (int i = EC_DEGREE - 1; i >= 0; i--) {
        const EBT *part = EC_PART(y, i);
        if (EB(is_zero)(part))
            continue;
        enum { n = sizeof(EBT) / 8 };
        uint64_t v[n];
        EB(to_canonical)(v, part);
        for (size_t j = n; j-- > 0;) {
            /* limb j of (p - 1)/2 = p >> 1 */
            uint64_t half = (EB(MODULUS)[j] >> 1) | (j + 1 < n ? EB(MODULUS)[j + 1] << 63 : 0);
            if (v[j] != half)
                return v[j] > half;
        }
        return false;
    }
    return false;
}

bool ECN(affine_from_x_vartime)(ECA *r, const EFT *x, bool larger)
{
    EFT y2, y;
    EF(sqr)(&y2, x); /* y^2 = x^3 + b */
    EF(mul)(&y2, &y2, x);
    EF(add)(&y2, &y2, &ECN(B_));
    if (!EF(sqrt_vartime)(&y, &y2))
        return false;
    if (ECN(coordinate_is_larger_vartime)(&y) != larger)
        EF(neg)(&y, &y);
    r->x = *x;
    r->y = y;
    return true;
}

#include "ec/ec_encode_impl.h"
