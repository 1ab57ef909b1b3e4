/* Multi-scalar multiplication on BN254 G1 and G2 (bn254_g1_msm_*, bn254_g2_msm_*):
 * instantiates msm_tmpl.h (contracts there) twice, scalars in bn254_fr. */
#ifndef CUZK_MSM_BN254_MSM_H
#define CUZK_MSM_BN254_MSM_H

#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "ff/bn254_fr.h"

#define MSM_GROUP bn254_g1
#define MSM_FR    bn254_fr
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl.h"

#include "msm/msm_tmpl_undef.h"

#define MSM_GROUP bn254_g2
#define MSM_FR    bn254_fr
#include "msm/msm_tmpl_names.h"

#include "msm/msm_tmpl.h"

#include "msm/msm_tmpl_undef.h"

#endif
