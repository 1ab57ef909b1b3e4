/* Name macros of the pairing template (pairing_tmpl.h): PR(op) =
 * <curve>_op, PR_G1A / PR_G2A = the curve's affine point types. Needs
 * TW_CURVE and ff/tower_names.h; no include guard, removed by
 * pairing_tmpl_undef.h. */
#define PR_CAT2_(a, b) a##_##b
#define PR_CAT2(a, b)  PR_CAT2_(a, b)
#define PR(op)         PR_CAT2(TW_CURVE, op)
#define PR_G1A         TW_CAT3(TW_CURVE, g1, affine_t)
#define PR_G2A         TW_CAT3(TW_CURVE, g2, affine_t)
