/* Name-building macros of the field template (see fp_tmpl.h); no include
 * guard: defined again for every instantiation, removed by fp_tmpl_undef.h. */
#define FP_CAT2(a, b)    a##_##b
#define FP_CAT(a, b)     FP_CAT2(a, b)
#define FP_CATS2(a, b)   a##s_##b
#define FP_CATS(a, b)    FP_CATS2(a, b)
#define FPN(op)          FP_CAT(FP_NAME, op)  /* NAME_op */
#define FPNS(op)         FP_CATS(FP_NAME, op) /* NAMEs_op: batch functions */
#define FPT              FP_CAT(FP_NAME, t)   /* NAME_t */
#define FP_KERNEL2(a, n) a##n
#define FP_KERNEL(a, n)  FP_KERNEL2(a, n) /* fp_mont_mul4, fp_mont_mul6 */
