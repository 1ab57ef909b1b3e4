#include "msm/bls381_msm.h"
#include "msm/msm_vec.h"

/* The template body for G1 and G2; the order of these includes matters. */
#define MSM_GROUP bls381_g1
#define MSM_FR    bls381_fr
#define MSM_FQ    bls381_fp
#define MSM_FQS   bls381_fps
#if CUZK_MSM_HAVE_IFMA
#define MSM_BATCH_IFMA bls381_g1_msm_batch_ifma
#endif
#define MSM_GLV 1 /* NAME_glv_split, ec_tmpl.h */
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl_impl.h"

#include "msm/msm_tmpl_undef.h"

#define MSM_GROUP bls381_g2
#define MSM_FR    bls381_fr
#define MSM_FQ    bls381_fp2
#define MSM_FQS   bls381_fp2s
#if CUZK_MSM_HAVE_IFMA
#define MSM_BATCH_IFMA bls381_g2_msm_batch_ifma
#endif
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl_impl.h"

#include "msm/msm_tmpl_undef.h"
