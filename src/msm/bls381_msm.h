/* Multi-scalar multiplication on BLS12-381 G1 and G2 (bls381_g1_msm_*, bls381_g2_msm_*):
 * instantiates msm_tmpl.h (contracts there) twice, scalars in bls381_fr. */
#ifndef CUZK_MSM_BLS381_MSM_H
#define CUZK_MSM_BLS381_MSM_H

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ff/bls381_fr.h"

#define MSM_GROUP bls381_g1
#define MSM_FR    bls381_fr
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl.h"

#include "msm/msm_tmpl_undef.h"

#define MSM_GROUP bls381_g2
#define MSM_FR    bls381_fr
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl.h"

#include "msm/msm_tmpl_undef.h"

#endif
