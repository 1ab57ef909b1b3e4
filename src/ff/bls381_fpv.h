/*
 * The IFMA vector template (fpv_tmpl.h) for BLS12-381's Fp, as
 * bls381_fpv_*: every translation unit that needs it includes this (no
 * include guard) and removes the names afterwards with fpv_tmpl_undef.h.
 */
#include "ff/bls381_fp.h"

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
