#include "msm/bls381_msm.h"

/* The template body for G1 and G2; the order of these includes matters. */
#define MSM_GROUP bls381_g1
#define MSM_FR    bls381_fr
#define MSM_FQ    bls381_fp
#define MSM_FQS   bls381_fps
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl_impl.h"

#include "msm/msm_tmpl_undef.h"

#define MSM_GROUP bls381_g2
#define MSM_FR    bls381_fr
#define MSM_FQ    bls381_fp2
#define MSM_FQS   bls381_fp2s
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl_impl.h"

#include "msm/msm_tmpl_undef.h"
