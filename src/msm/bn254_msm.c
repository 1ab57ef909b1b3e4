#include "msm/bn254_msm.h"

/* The template body for G1 and G2; the order of these includes matters. */
#define MSM_GROUP bn254_g1
#define MSM_FR    bn254_fr
#define MSM_FQ    bn254_fp
#define MSM_FQS   bn254_fps
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl_impl.h"

#include "msm/msm_tmpl_undef.h"

#define MSM_GROUP bn254_g2
#define MSM_FR    bn254_fr
#define MSM_FQ    bn254_fp2
#define MSM_FQS   bn254_fp2s
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl_impl.h"

#include "msm/msm_tmpl_undef.h"
