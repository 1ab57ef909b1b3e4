/*
 * Helpers shared by the curve tests, as a template over one group: the
 * including file defines TG (the group, e.g. bls381_g1), TF (its coordinate
 * field), TB (the prime field under it) and TR (its scalar field), then
 * includes a test template (which includes this file first), then
 * test_ec_undef.h. Uses test_rng (test_util.h).
 */
#define TCAT_(a, b) a##_##b
#define TCAT(a, b)  TCAT_(a, b)
#define G(op)       TCAT(TG, op)
#define GT(form)    TCAT(TG, TCAT(form, t))
#define GA          GT(affine)
#define GJ          GT(jac)
#define GX          GT(xyzz)
#define F(op)       TCAT(TF, op)
#define FT          F(t)
#define R(op)       TCAT(TR, op)
#define RT          R(t)
#define B(op)       TCAT(TB, op)
#define BT          B(t)
#define TN(name)    TCAT(name, TG) /* a test or helper name, per group */

/* A uniformly random 256-bit scalar. */
static void TN(random_scalar)(uint64_t k[4])
{
    for (int i = 0; i < 4; i++)
        k[i] = rng_next(&test_rng);
}

/* A random point of the prime-order subgroup: [k]G. */
static void TN(random_point)(GA *p)
{
    uint64_t k[4];
    GA g;
    GJ t;
    TN(random_scalar)(k);
    G(generator)(&g);
    G(jac_from_affine)(&t, &g);
    G(jac_mul_vartime)(&t, &t, k);
    G(jac_to_affine)(p, &t);
}

/* A random point of the whole curve: random x until x^3 + b is a square,
 * no cofactor clearing, so outside the subgroup except with probability
 * 1/cofactor. */
static void TN(random_curve_point)(GA *p)
{
    FT x;
    do
        F(random)(&x, &test_rng);
    while (!G(affine_from_x_vartime)(p, &x, rng_next(&test_rng) & 1));
}

/* Whether [r]p is infinity: the definition the subgroup test must match. */
static bool TN(order_divides_r)(const GA *p)
{
    GJ t;
    G(jac_from_affine)(&t, p);
    G(jac_mul_vartime)(&t, &t, R(MODULUS));
    return G(jac_is_infinity)(&t);
}
