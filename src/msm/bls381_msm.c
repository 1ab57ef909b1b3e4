#include "msm/bls381_msm.h"

/* The template body for G1 and G2; the order of these includes matters. */
#define MSM_GROUP bls381_g1
#define MSM_FR    bls381_fr
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl_impl.h"

#include "msm/msm_tmpl_undef.h"

#define MSM_GROUP bls381_g2
#define MSM_FR    bls381_fr
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl_impl.h"

#include "msm/msm_tmpl_undef.h"
