/*
 * Subgroup membership: the out-of-line half of
 * NAME_affine_is_in_subgroup_vartime (contract in ec_tmpl.h). Included
 * once per group by ec_tmpl_impl.h, after the curve arithmetic.
 *
 * Every test checks alpha(P) = O for an endomorphism alpha built from the
 * curve's seed and its cheap endomorphism (phi on BLS12-381 G1, psi on the
 * G2 twists) such that
 *   (a) alpha vanishes on the order-r subgroup: phi and psi act there as
 *       multiplication by their eigenvalue lambda (checked for the
 *       generators by scripts/gen_ec_constants.py), and alpha's polynomial
 *       in lambda is 0 mod r;
 *   (b) alpha vanishes on nothing else: alpha(P) = O implies
 *       [N(alpha)]P = conj(alpha)(alpha(P)) = O, and gcd(N(alpha), #E) = r
 *       with r^2 not dividing #E, so P has order r. N is the norm in Z[phi]
 *       (phi^2 + phi + 1 = 0: N(a + b·phi) = a^2 - ab + b^2) or Z[psi]
 *       (psi^2 - t·psi + p = 0 on the whole twist: N(a + b·psi) = a^2 +
 *       t·ab + p·b^2).
 * scripts/check_subgroup_tests.py computes (a) and (b) for each test, and
 * the two relations above, from the curve parameters; tests/test_ec and
 * tests/test_subgroup check the implementation against the definition
 * ([r]P = O) on random points of the whole curve and on points of every
 * small prime order of each cofactor.
 *
 * The tests (z, u the seeds below):
 *  - BLS12-381 G1: phi(P) = [-z^2]P (Scott, "A note on group membership
 *    tests for G1, G2 and GT on BLS pairing-friendly curves", ePrint
 *    2021/1130, section 4): alpha = z^2 + phi, N(alpha) = z^4 - z^2 + 1 = r.
 *    [z^2]P = [|z|]([|z|]P): |z| has 6 bits set, so 126 doublings and 10
 *    additions (5 of them mixed), against 125 doublings and 15 full
 *    additions (7 to build the table) for a width-5 NAF of z^2. Any
 *    alpha of norm >= r has a coefficient of at least sqrt(r) ~ 2^127,
 *    so about 127 doublings is the floor of an endomorphism test in the
 *    two-dimensional Z[phi]; the Tate-pairing test of Dai, He, Koshelev,
 *    Peng, Yang (ePrint 2024/1790) is reported within 3 % of it.
 *  - BLS12-381 G2: psi(P) = [z]P (same paper): alpha = psi - z,
 *    N(alpha) = p - z = r·(z - 1)^2/3, coprime to the G2 cofactor apart
 *    from r. 63 doublings and 5 mixed additions.
 *  - BN254 G2: [u + 1]P + psi([u]P) + psi^2([u]P) = psi^3([2u]P) (Dai, Lin,
 *    Zhao, Zhou, "Fast subgroup membership testings for G1, G2 and GT on
 *    pairing-friendly curves", ePrint 2022/348; valid for BN seeds with
 *    u != 4 mod 13 and u != 92 mod 97, which the script's gcd confirms for
 *    this u), a 64-bit multiplication where psi(P) = [6u^2]P needs a 127-bit
 *    one: 62 doublings and 23 mixed additions (the NAF of u), then 1
 *    doubling, 3 additions and 4 psi.
 *  - BN254 G1: the curve has prime order r: nothing to test.
 * The scalars are public constants, so the chains are plain double-and-add
 * over their fixed digits: no table, no recoding per call.
 */

/* Which test a group takes, by its name (EC_NAME). */
#ifndef EC_SG_TEST
#define EC_SG_PRIME_ORDER 1
#define EC_SG_BLS12_G1    2
#define EC_SG_BLS12_G2    3
#define EC_SG_BN_G2       4
#define EC_SG_bls381_g1   EC_SG_BLS12_G1
#define EC_SG_bls381_g2   EC_SG_BLS12_G2
#define EC_SG_bn254_g1    EC_SG_PRIME_ORDER
#define EC_SG_bn254_g2    EC_SG_BN_G2
#define EC_SG_TEST        EC_CAT(EC_SG, EC_NAME)
#endif
#if !(EC_SG_TEST >= EC_SG_PRIME_ORDER && EC_SG_TEST <= EC_SG_BN_G2)
#error "no subgroup test for this group"
#endif
#if defined(EC_COFACTOR_ONE) != (EC_SG_TEST == EC_SG_PRIME_ORDER)
#error "EC_COFACTOR_ONE disagrees with the group's subgroup test"
#endif

#if EC_SG_TEST == EC_SG_PRIME_ORDER
bool ECN(affine_is_in_subgroup_vartime)(const ECA *p)
{
    (void)p; /* #E = r: on the curve is in the group */
    return true;
}
#else

/* The seeds. BLS12-381: z = -0xd201000000010000 (Bowe, "BLS12-381: New
 * zk-SNARK Elliptic Curve Construction", 2017); BN254: u =
 * 4965661367192848881 (the alt_bn128 curve of EIP-196/197). */
#define EC_SG_BLS12_381_Z_ABS 0xd201000000010000ULL
#define EC_SG_BN254_U         0x44e992b44a6909f1ULL
/* u as signed binary digits pos - neg, its NAF: 24 non-zero digits where
 * the binary form has 28. NAF(k) = (x3 & c, h & c) with h = k >> 1,
 * x3 = k + h, c = h ^ x3 (k < 2^63). */
#define EC_SG_BN254_U_POS     0x450a14044a890a01ULL
#define EC_SG_BN254_U_NEG     0x0020815000200010ULL
_Static_assert(EC_SG_BN254_U_POS - EC_SG_BN254_U_NEG == EC_SG_BN254_U &&
                   (EC_SG_BN254_U_POS & EC_SG_BN254_U_NEG) == 0 &&
                   ((EC_SG_BN254_U_POS | EC_SG_BN254_U_NEG) &
                    ((EC_SG_BN254_U_POS | EC_SG_BN254_U_NEG) >> 1)) == 0,
               "the NAF of the BN254 seed");

/*
 * r = 2p in Jacobian coordinates, dbl-2009-l scaled by 1/2: (X, Y, Z) and
 * (X/4, Y/8, Z/2) are the same point, and the scaled one needs none of the
 * textbook formula's multiplications by 2, 4 and 8:
 *   A = X^2, B = Y^2, C = B^2, D2 = (X + B)^2 - A - C = 2XB, E = 3A/2
 *   X3 = E^2 - D2, Y3 = E(D2/2 - X3) - C, Z3 = Y·Z
 * (x3 = lambda^2 - 2x and y3 = lambda(x - x3) - y for lambda = 3x^2/2y,
 * x = X/Z^2, y = Y/Z^3.) 2M + 5S + 10A against dbl-2009-l's 2M + 5S + 14A;
 * measured against NAME_jac_dbl, dev-epyc2, min of 31 chains of 5000:
 * 313-317 vs 348-367 ns (BLS12-381 G1), 841-859 vs 877-896 ns (its G2),
 * 512-516 vs 553-574 ns (BN254 G2). Infinity (Z = 0) stays so. Aliasing
 * allowed.
 */
static void ECN(sg_dbl_)(ECJ *r, const ECJ *p)
{
    EFT A, B, C, D2, E, t;
    EF(sqr)(&A, &p->X);     /* A = X^2 */
    EF(sqr)(&B, &p->Y);     /* B = Y^2 */
    EF(sqr)(&C, &B);        /* C = B^2 */
    EF(add)(&t, &p->X, &B); /* D2 = (X + B)^2 - A - C */
    EF(sqr)(&t, &t);
    EF(sub)(&t, &t, &A);
    EF(sub)(&D2, &t, &C);
    EF(dbl)(&E, &A); /* E = 3A/2 */
    EF(add)(&E, &E, &A);
    EF(half)(&E, &E);
    EF(mul)(&r->Z, &p->Y, &p->Z); /* Z3 = Y·Z (before r->X, r->Y: aliasing) */
    EF(sqr)(&t, &E);              /* X3 = E^2 - D2 */
    EF(sub)(&r->X, &t, &D2);
    EF(half)(&t, &D2); /* Y3 = E(D2/2 - X3) - C */
    EF(sub)(&t, &t, &r->X);
    EF(mul)(&t, &E, &t);
    EF(sub)(&r->Y, &t, &C);
}

/*
 * r = [k]p for k = pos - neg, signed binary digits (pos and neg disjoint;
 * the top digit is pos's highest bit and above every bit of neg), p affine
 * and not infinity: one doubling (2M + 5S) per digit below the top, one
 * mixed addition (7M + 4S) per other non-zero digit. The vartime additions
 * handle the exceptional cases (infinity, p = +-r) that points of small
 * order can reach.
 */
static void ECN(sg_mul_affine_)(ECJ *r, const ECA *p, uint64_t pos, uint64_t neg)
{
    ECA pn;
    ECN(affine_neg)(&pn, p);
    ECN(jac_from_affine)(r, p);
    for (int i = 62 - __builtin_clzll(pos); i >= 0; i--) {
        ECN(sg_dbl_)(r, r);
        if ((pos >> i) & 1)
            ECN(jac_add_affine_vartime)(r, r, p);
        else if ((neg >> i) & 1)
            ECN(jac_add_affine_vartime)(r, r, &pn);
    }
}

#if EC_SG_TEST == EC_SG_BLS12_G1
/* r = [k]p for a Jacobian p and k > 0 (binary digits): 2M + 5S per digit
 * below the top, a full addition (11M + 5S) per other set bit. */
static void ECN(sg_mul_jac_)(ECJ *r, const ECJ *p, uint64_t k)
{
    ECJ acc = *p;
    for (int i = 62 - __builtin_clzll(k); i >= 0; i--) {
        ECN(sg_dbl_)(&acc, &acc);
        if ((k >> i) & 1)
            ECN(jac_add_vartime)(&acc, &acc, p);
    }
    *r = acc;
}

bool ECN(affine_is_in_subgroup_vartime)(const ECA *p)
{
    /* BLS12-381 G1: [z^2]P = -phi(P), phi(x, y) = (beta·x, y). */
    if (ECN(affine_is_infinity)(p))
        return true;
    static const EFT beta = EC_ENDO_BETA;
    ECJ zp, z2p;
    ECN(sg_mul_affine_)(&zp, p, EC_SG_BLS12_381_Z_ABS, 0);
    ECN(sg_mul_jac_)(&z2p, &zp, EC_SG_BLS12_381_Z_ABS);
    ECA mphi; /* -phi(P) */
    EF(mul)(&mphi.x, &p->x, &beta);
    EF(neg)(&mphi.y, &p->y);
    return ECN(jac_equal_affine)(&z2p, &mphi);
}
#else

/* psi(x, y) = (cx·conj(x), cy·conj(y)), the untwist-Frobenius-twist map
 * (Galbraith, Scott, ePrint 2008/117), on a Jacobian point: conj commutes
 * with the field operations, so (X, Y, Z) -> (cx·conj(X), cy·conj(Y),
 * conj(Z)). 2M; infinity (Z = 0) stays infinity. */
static void ECN(sg_psi_)(ECJ *r, const ECJ *p)
{
    static const EFT cx = EC_ENDO_PSI_X, cy = EC_ENDO_PSI_Y;
    EF(conj)(&r->X, &p->X);
    EF(mul)(&r->X, &r->X, &cx);
    EF(conj)(&r->Y, &p->Y);
    EF(mul)(&r->Y, &r->Y, &cy);
    EF(conj)(&r->Z, &p->Z);
}

#if EC_SG_TEST == EC_SG_BLS12_G2
bool ECN(affine_is_in_subgroup_vartime)(const ECA *p)
{
    /* BLS12-381 G2: psi(P) = [z]P = -[|z|]P. */
    if (ECN(affine_is_infinity)(p))
        return true;
    ECJ zp, pj, psi;
    ECN(sg_mul_affine_)(&zp, p, EC_SG_BLS12_381_Z_ABS, 0);
    ECN(jac_neg)(&zp, &zp);
    ECN(jac_from_affine)(&pj, p);
    ECN(sg_psi_)(&psi, &pj);
    return ECN(jac_equal)(&zp, &psi);
}
#else
bool ECN(affine_is_in_subgroup_vartime)(const ECA *p)
{
    /* BN254 G2: with R = [u]P, R + P + psi(R + psi(R)) = psi^3([2]R). */
    if (ECN(affine_is_infinity)(p))
        return true;
    ECJ r, a, b, t;
    ECN(sg_mul_affine_)(&r, p, EC_SG_BN254_U_POS, EC_SG_BN254_U_NEG);
    ECN(sg_psi_)(&a, &r); /* a = R + psi(R) */
    ECN(jac_add_vartime)(&a, &a, &r);
    ECN(sg_psi_)(&a, &a); /* a = psi(R) + psi^2(R) + R + P */
    ECN(jac_add_vartime)(&a, &a, &r);
    ECN(jac_add_affine_vartime)(&a, &a, p);
    ECN(sg_dbl_)(&t, &r); /* b = psi^3([2]R) */
    ECN(sg_psi_)(&b, &t);
    ECN(sg_psi_)(&t, &b);
    ECN(sg_psi_)(&b, &t);
    return ECN(jac_equal)(&a, &b);
}
#endif /* EC_SG_BLS12_G2 */
#endif /* EC_SG_BLS12_G1 */

#undef EC_SG_BLS12_381_Z_ABS
#undef EC_SG_BN254_U
#undef EC_SG_BN254_U_POS
#undef EC_SG_BN254_U_NEG
#endif /* EC_SG_PRIME_ORDER */
