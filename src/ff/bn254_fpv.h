/*
 * The IFMA vector template (fpv_tmpl.h) for BN254's Fp, as bn254_fpv_*:
 * every translation unit that needs it includes this (no include guard)
 * and removes the names afterwards with fpv_tmpl_undef.h.
 */
#include "ff/bn254_fp.h"

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
