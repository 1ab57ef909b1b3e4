#include "msm/bn254_msm.h"
#include "msm/msm_vec.h"

/* The template body for G1 and G2; the order of these includes matters. */
#define MSM_GROUP bn254_g1
#define MSM_FR    bn254_fr
#define MSM_FQ    bn254_fp
#define MSM_FQS   bn254_fps
#if CUZK_MSM_HAVE_IFMA
#define MSM_BATCH_IFMA bn254_g1_msm_batch_ifma
#endif
#if CUZK_MSM_HAVE_AVX2
#define MSM_BATCH_AVX2 bn254_g1_msm_batch_avx2
#endif
#define MSM_GLV 1 /* NAME_glv_split, ec_tmpl.h */
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl_impl.h"

#include "msm/msm_tmpl_undef.h"

#define MSM_GROUP bn254_g2
#define MSM_FR    bn254_fr
#define MSM_FQ    bn254_fp2
#define MSM_FQS   bn254_fp2s
#if CUZK_MSM_HAVE_IFMA
#define MSM_BATCH_IFMA bn254_g2_msm_batch_ifma
#endif
#if CUZK_MSM_HAVE_AVX2
#define MSM_BATCH_AVX2 bn254_g2_msm_batch_avx2
#endif
#define MSM_GLV 1
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl_impl.h"

#include "msm/msm_tmpl_undef.h"
