/* The AVX2 batch additions of BN254's G1 and G2 (msm_vec.h); the multiples
 * of p are derived in msm_vec_impl.h (G1: KL = 2^SH = 32, K3 = 3·KL). */
#include "msm/msm_vec.h"

#if CUZK_MSM_HAVE_AVX2

#include "ff/bn254_fpy.h"

#define MIF_GROUP bn254_g1
#define MIF_FQ    bn254_fp
#define MIF_FQS   bn254_fps
#define MIF_FP2   0
#define MIF_KL    32
#define MIF_K3    96
#include "msm/msm_vec_impl.h"

#define MIF_GROUP bn254_g2
#define MIF_FQ    bn254_fp2
#define MIF_FQS   bn254_fp2s
#define MIF_FP2   1
#define MIF_KL    2
#define MIF_K3    12
#define MIF_KM    2
#include "msm/msm_vec_impl.h"

#include "ff/fpv_tmpl_undef.h"

#endif
