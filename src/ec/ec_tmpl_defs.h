/*
 * Name-building macros of the curve template (ec_tmpl.h). The including
 * file defines EC_NAME (the group, e.g. bls381_g1), EC_FIELD (the coordinate
 * field, e.g. bls381_fp or bls381_fp2), EC_BASE (its prime field) and
 * EC_DEGREE (1 or 2); the names below follow:
 *   ECN(op)   = <group>_op
 *   ECA, ECJ, ECX = <group>_affine_t, <group>_jac_t, <group>_xyzz_t
 *   EF(op)    = <coordinate field>_op EFT         = <coordinate field>_t
 *   EB(op)    = <prime field>_op      EBT         = <prime field>_t
 *   EC_PART(a, i) = the i-th prime-field coordinate of a coordinate-field
 *                   element (c0, c1 for Fp2), i < EC_DEGREE
 * No include guard: defined again per instantiation, removed by
 * ec_tmpl_undef.h.
 */
#define EC_CAT_(a, b) a##_##b
#define EC_CAT(a, b)  EC_CAT_(a, b)
#define ECN(op)       EC_CAT(EC_NAME, op)
#define ECT(form)     EC_CAT(EC_NAME, EC_CAT(form, t))
#define ECA           ECT(affine)
#define ECJ           ECT(jac)
#define ECX           ECT(xyzz)
#define EF(op)        EC_CAT(EC_FIELD, op)
#define EFT           EF(t)
#define EB(op)        EC_CAT(EC_BASE, op)
#define EBT           EB(t)
#if EC_DEGREE == 1
#define EC_PART(a, i) (a)
#else
#define EC_PART(a, i) ((i) == 0 ? &(a)->c0 : &(a)->c1)
#endif
