/*
 * Points of y^2 = x^3 + b on the device: the twin of src/ec/ec_tmpl.h for
 * what the MSM needs. A template over the coordinate field F (fp_t for G1,
 * fp2_t for G2); the formulas and their operation counts are the CPU's,
 * line for line (Explicit-Formulas Database, "auto-shortw-xyzz-3").
 *
 * Representations, the same bytes as the CPU's structs:
 *  - affine_t {x, y}; (0, 0) is the point at infinity.
 *  - xyzz_t {X, Y, ZZ, ZZZ}: x = X/ZZ, y = Y/ZZZ; infinity is ZZ = 0 (set
 *    as X = Y = 1, ZZ = ZZZ = 0, as the CPU does).
 * Everything here branches on infinity and on doubling: variable-time,
 * for public data (MSM) only. Results may alias inputs.
 *
 * The point operations are out of line (__noinline__): each is compiled
 * once per group however many kernels call it, which keeps a curve's
 * compilation to minutes on two cores. The price is that their operands
 * live in local memory, read and written through L1 once a call: for a
 * mixed addition on BLS12-381 G1 that is 384 bytes against 6120 integer
 * multiply-adds, about 3 clocks of L1 bandwidth against ~96 clocks of the
 * multiply pipe per thread and SM.
 */
#ifndef CUZK_CUDA_EC_CUH
#define CUZK_CUDA_EC_CUH

#include "cuda/fields.cuh"

namespace cuzk
{

template <class F> struct affine_t {
    F x, y;
};

template <class F> struct xyzz_t {
    F X, Y, ZZ, ZZZ;
};

template <class F> __device__ __forceinline__ bool affine_is_inf(const affine_t<F> &p)
{
    return f_is_zero(p.x) & f_is_zero(p.y);
}

template <class F> __device__ __forceinline__ bool xyzz_is_inf(const xyzz_t<F> &p)
{
    return f_is_zero(p.ZZ);
}

template <class F> __device__ __forceinline__ void xyzz_set_inf(xyzz_t<F> &r)
{
    f_set_one(r.X);
    f_set_one(r.Y);
    f_set_zero(r.ZZ);
    f_set_zero(r.ZZZ);
}

template <class F>
__device__ __forceinline__ void xyzz_from_affine(xyzz_t<F> &r, const affine_t<F> &p)
{
    if (affine_is_inf(p)) {
        xyzz_set_inf(r);
        return;
    }
    r.X = p.x;
    r.Y = p.y;
    f_set_one(r.ZZ);
    f_set_one(r.ZZZ);
}

template <class F> __device__ __forceinline__ void xyzz_neg(xyzz_t<F> &r, const xyzz_t<F> &p)
{
    r.X = p.X;
    f_neg(r.Y, p.Y);
    r.ZZ = p.ZZ;
    r.ZZZ = p.ZZZ;
}

/* r = 2p, dbl-2008-s-1 (a = 0): 6M + 3S. ZZ = ZZZ = 0 stays so. */
template <class F> __device__ __noinline__ void xyzz_dbl(xyzz_t<F> &r, const xyzz_t<F> &p)
{
    F U, V, W, S, M, X3, t;
    f_dbl(U, p.Y);    /* U = 2·Y1 */
    f_sqr(V, U);      /* V = U^2 */
    f_mul(W, U, V);   /* W = U·V */
    f_mul(S, p.X, V); /* S = X1·V */
    f_sqr(M, p.X);    /* M = 3·X1^2 */
    f_dbl(t, M);
    f_add(M, M, t);
    f_sqr(X3, M); /* X3 = M^2 - 2S */
    f_dbl(t, S);
    f_sub(X3, X3, t);
    f_sub(t, S, X3); /* Y3 = M(S - X3) - W·Y1 */
    f_mul(t, M, t);
    f_mul(U, W, p.Y);
    f_sub(r.Y, t, U);
    r.X = X3;
    f_mul(r.ZZ, V, p.ZZ);   /* ZZ3 = V·ZZ1 */
    f_mul(r.ZZZ, W, p.ZZZ); /* ZZZ3 = W·ZZZ1 */
}

/*
 * The tail shared by add-2008-s and madd-2008-s, from P = U2 - U1 != 0,
 * R = S2 - S1, U1, S1, zz = ZZ1·ZZ2 and zzz = ZZZ1·ZZZ2: 6M + 2S.
 *   PP = P^2, PPP = P·PP, Q = U1·PP
 *   X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - S1·PPP
 *   ZZ3 = zz·PP, ZZZ3 = zzz·PPP
 */
template <class F>
__device__ __forceinline__ void xyzz_add_tail_(xyzz_t<F> &r, const F &P, const F &R, const F &U1,
                                               const F &S1, const F &zz, const F &zzz)
{
    F PP, PPP, Q, X3, Y3, t;
    f_sqr(PP, P);
    f_mul(PPP, P, PP);
    f_mul(Q, U1, PP);
    f_sqr(X3, R);
    f_sub(X3, X3, PPP);
    f_dbl(t, Q);
    f_sub(X3, X3, t);
    f_sub(t, Q, X3);
    f_mul(t, R, t);
    f_mul(Y3, S1, PPP);
    f_sub(Y3, t, Y3);
    f_mul(r.ZZ, zz, PP);
    f_mul(r.ZZZ, zzz, PPP);
    r.X = X3;
    r.Y = Y3;
}

/* r = p + q, add-2008-s: 12M + 2S; any p, q. */
template <class F>
__device__ __noinline__ void xyzz_add(xyzz_t<F> &r, const xyzz_t<F> &p, const xyzz_t<F> &q)
{
    if (xyzz_is_inf(p)) {
        r = q;
        return;
    }
    if (xyzz_is_inf(q)) {
        r = p;
        return;
    }
    F U1, U2, S1, S2, P, R;
    f_mul(U1, p.X, q.ZZ);  /* U1 = X1·ZZ2 */
    f_mul(U2, q.X, p.ZZ);  /* U2 = X2·ZZ1 */
    f_mul(S1, p.Y, q.ZZZ); /* S1 = Y1·ZZZ2 */
    f_mul(S2, q.Y, p.ZZZ); /* S2 = Y2·ZZZ1 */
    f_sub(P, U2, U1);      /* P = U2 - U1 */
    f_sub(R, S2, S1);      /* R = S2 - S1 */
    if (f_is_zero(P)) {
        if (f_is_zero(R))
            xyzz_dbl(r, p);
        else
            xyzz_set_inf(r);
        return;
    }
    F zz, zzz;
    f_mul(zz, p.ZZ, q.ZZ);    /* ZZ1·ZZ2 */
    f_mul(zzz, p.ZZZ, q.ZZZ); /* ZZZ1·ZZZ2 */
    xyzz_add_tail_(r, P, R, U1, S1, zz, zzz);
}

/* r = p + q for affine q, madd-2008-s: 8M + 2S (the bucket update). Any
 * q, (0, 0) included. */
template <class F>
__device__ __noinline__ void xyzz_add_affine(xyzz_t<F> &r, const xyzz_t<F> &p, const affine_t<F> &q)
{
    if (affine_is_inf(q)) {
        r = p;
        return;
    }
    if (xyzz_is_inf(p)) {
        r.X = q.x;
        r.Y = q.y;
        f_set_one(r.ZZ);
        f_set_one(r.ZZZ);
        return;
    }
    F U2, S2, P, R;
    f_mul(U2, q.x, p.ZZ);  /* U2 = X2·ZZ1 */
    f_mul(S2, q.y, p.ZZZ); /* S2 = Y2·ZZZ1 */
    f_sub(P, U2, p.X);     /* P = U2 - X1 */
    f_sub(R, S2, p.Y);     /* R = S2 - Y1 */
    if (f_is_zero(P)) {
        /* p = q: the projective doubling (6M + 3S; mdbl-2008-s-1 would
         * take 4M + 3S, but a bucket meets its own point only in crafted
         * inputs, and one doubling less to compile is worth more). p = -q:
         * infinity. */
        if (f_is_zero(R)) {
            xyzz_t<F> t;
            t.X = q.x;
            t.Y = q.y;
            f_set_one(t.ZZ);
            f_set_one(t.ZZZ);
            xyzz_dbl(r, t);
        } else {
            xyzz_set_inf(r);
        }
        return;
    }
    xyzz_add_tail_(r, P, R, p.X, p.Y, p.ZZ, p.ZZZ);
}

} // namespace cuzk

#endif
