/*
 * Names for one instantiation of groth16_tmpl.h. No include guard: defined
 * again for every instantiation, removed by groth16_tmpl_undef.h. The
 * includer defines G16_CURVE (bn254, bls381) and has included the curve's
 * field, group, MSM, NTT and pairing headers.
 */
#define G16_CAT2(a, b) a##_##b
#define G16_CAT(a, b)  G16_CAT2(a, b)
#define G16N(op)       G16_CAT(G16_CURVE, G16_CAT(groth16, op)) /* NAME_groth16_op */
#define G16C(op)       G16_CAT(G16_CURVE, op)                   /* NAME_op */
#define G16F(op)       G16_CAT(G16_CAT(G16_CURVE, fr), op)      /* NAME_fr_op */
#define G16FT          G16F(t)
#define G16FS(op)      G16_CAT(G16_CAT(G16_CURVE, frs), op) /* NAME_frs_op: batch functions */
#define G16G1(op)      G16_CAT(G16_CAT(G16_CURVE, g1), op)  /* NAME_g1_op */
#define G16G2(op)      G16_CAT(G16_CAT(G16_CURVE, g2), op)  /* NAME_g2_op */
#define G16G1A         G16G1(affine_t)
#define G16G1J         G16G1(jac_t)
#define G16G2A         G16G2(affine_t)
#define G16G2J         G16G2(jac_t)
#define G16ST          G16N(prover_t)
#define G16MS          G16_CAT(G16_CAT(groth16_msms, G16_CURVE), t) /* groth16_msms_NAME_t */
#define G16KEY         G16_CAT(G16_CAT(groth16_key, G16_CURVE), t)  /* groth16_key_NAME_t */
