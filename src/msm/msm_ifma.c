/* The IFMA batch additions of both curves' G1 and G2 (msm_ifma.h); the
 * multiples of p are derived in msm_ifma_impl.h. */
#include "msm/msm_ifma.h"

#if CUZK_MSM_HAVE_IFMA

#include <stdint.h>

#define FPV_NAME bn254_fpv
#define FPV_FQ   bn254_fp
#define FPV_N64  4
#define FPV_N52  5
#define FPV_P52                                                                                    \
    {                                                                                              \
        0x8c16d87cfd47ULL, 0x916871ca8d3c2ULL, 0x181585d97816aULL, 0xa029b85045b68ULL,             \
            0x30644e72e131ULL                                                                      \
    }
#define FPV_PINV 0x20782e4866389ULL
#include "ff/fpv_tmpl.h"

#define MIF_GROUP bn254_g1
#define MIF_FQ    bn254_fp
#define MIF_FQS   bn254_fps
#define MIF_FP2   0
#define MIF_KL    16
#define MIF_K3    48
#include "msm/msm_ifma_impl.h"

#define MIF_GROUP bn254_g2
#define MIF_FQ    bn254_fp2
#define MIF_FQS   bn254_fp2s
#define MIF_FP2   1
#define MIF_KL    2
#define MIF_K3    9
#define MIF_KM    2
#include "msm/msm_ifma_impl.h"

#include "ff/fpv_tmpl_undef.h"

#define FPV_NAME bls381_fpv
#define FPV_FQ   bls381_fp
#define FPV_N64  6
#define FPV_N52  8
#define FPV_P52                                                                                    \
    {                                                                                              \
        0xeffffffffaaabULL, 0xfeb153ffffb9fULL, 0x6b0f6241eabffULL, 0x12bf6730d2a0fULL,            \
            0x764774b84f385ULL, 0x1ba7b6434bacdULL, 0x1ea397fe69a4bULL, 0x1a011ULL                 \
    }
#define FPV_PINV 0x3fffcfffcfffdULL
#include "ff/fpv_tmpl.h"

#define MIF_GROUP bls381_g1
#define MIF_FQ    bls381_fp
#define MIF_FQS   bls381_fps
#define MIF_FP2   0
#define MIF_KL    (1ULL << 32)
#define MIF_K3    (3ULL << 32)
#include "msm/msm_ifma_impl.h"

#define MIF_GROUP bls381_g2
#define MIF_FQ    bls381_fp2
#define MIF_FQS   bls381_fp2s
#define MIF_FP2   1
#define MIF_KL    2
#define MIF_K3    9
#define MIF_KM    2
#include "msm/msm_ifma_impl.h"

#include "ff/fpv_tmpl_undef.h"

#endif
