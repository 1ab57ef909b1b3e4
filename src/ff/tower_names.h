/*
 * Name-building macros of the extension-field templates (fp2_tmpl.h,
 * fp6_tmpl.h, fp12_tmpl.h). The including header defines TW_CURVE (the
 * curve prefix, e.g. bls381); the names below follow from it:
 *   F1(op) = <curve>_fp_op    F1T = <curve>_fp_t     (the base field)
 *   F2(op) = <curve>_fp2_op   F2T = <curve>_fp2_t
 *   F6(op) = <curve>_fp6_op   F6T = <curve>_fp6_t
 *   F12(op) = <curve>_fp12_op F12T = <curve>_fp12_t
 *   F2S(op) = <curve>_fp2s_op (batch functions)
 * No include guard: defined again per instantiation, removed by tower_undef.h.
 */
#define TW_CAT3_(a, b, c) a##_##b##_##c
#define TW_CAT3(a, b, c)  TW_CAT3_(a, b, c)
#define F1(op)            TW_CAT3(TW_CURVE, fp, op)
#define F2(op)            TW_CAT3(TW_CURVE, fp2, op)
#define F2S(op)           TW_CAT3(TW_CURVE, fp2s, op)
#define F6(op)            TW_CAT3(TW_CURVE, fp6, op)
#define F12(op)           TW_CAT3(TW_CURVE, fp12, op)
#define F1T               F1(t)
#define F2T               F2(t)
#define F6T               F6(t)
#define F12T              F12(t)
