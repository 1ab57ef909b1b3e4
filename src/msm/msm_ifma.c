/* The IFMA batch additions of both curves' G1 and G2 (msm_vec.h); the
 * multiples of p are derived in msm_vec_impl.h. */
#include "msm/msm_vec.h"

#if CUZK_MSM_HAVE_IFMA

#include "ff/bn254_fpv.h"

#define MIF_GROUP bn254_g1
#define MIF_FQ    bn254_fp
#define MIF_FQS   bn254_fps
#define MIF_FP2   0
#define MIF_KL    16
#define MIF_K3    48
#include "msm/msm_vec_impl.h"

#define MIF_GROUP bn254_g2
#define MIF_FQ    bn254_fp2
#define MIF_FQS   bn254_fp2s
#define MIF_FP2   1
#define MIF_KL    2
#define MIF_K3    9
#define MIF_KM    2
#include "msm/msm_vec_impl.h"

#include "ff/fpv_tmpl_undef.h"

#include "ff/bls381_fpv.h"

#define MIF_GROUP bls381_g1
#define MIF_FQ    bls381_fp
#define MIF_FQS   bls381_fps
#define MIF_FP2   0
#define MIF_KL    (1ULL << 32)
#define MIF_K3    (3ULL << 32)
#include "msm/msm_vec_impl.h"

#define MIF_GROUP bls381_g2
#define MIF_FQ    bls381_fp2
#define MIF_FQS   bls381_fp2s
#define MIF_FP2   1
#define MIF_KL    2
#define MIF_K3    9
#define MIF_KM    2
#include "msm/msm_vec_impl.h"

#include "ff/fpv_tmpl_undef.h"

#endif
