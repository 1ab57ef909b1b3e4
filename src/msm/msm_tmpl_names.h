/*
 * Name-building macros of the MSM template (see msm_tmpl.h); no include
 * guard: defined again for every instantiation, removed by msm_tmpl_undef.h.
 * The includer defines MSM_GROUP (the curve group, e.g. bls381_g1) and
 * MSM_FR (its scalar field, e.g. bls381_fr); the implementation also needs
 * MSM_FQ and MSM_FQS (the coordinate field and its batch prefix, e.g.
 * bls381_fp and bls381_fps, or bls381_fp2 and bls381_fp2s).
 */
#define MSM_CAT2(a, b) a##_##b
#define MSM_CAT(a, b)  MSM_CAT2(a, b)
#define MSG(op)        MSM_CAT(MSM_GROUP, op) /* GROUP_op: the group's functions */
#define MSGT(form)     MSM_CAT(MSM_GROUP, MSM_CAT(form, t))
#define MSA            MSGT(affine)         /* GROUP_affine_t */
#define MSJ            MSGT(jac)            /* GROUP_jac_t */
#define MSX            MSGT(xyzz)           /* GROUP_xyzz_t */
#define MSF(op)        MSM_CAT(MSM_FR, op)  /* FR_op */
#define MSFT           MSF(t)               /* FR_t */
#define MSQ(op)        MSM_CAT(MSM_FQ, op)  /* FQ_op: the coordinate field */
#define MSQS(op)       MSM_CAT(MSM_FQS, op) /* FQs_op: its batch functions */
#define MSQT           MSQ(t)               /* FQ_t */
