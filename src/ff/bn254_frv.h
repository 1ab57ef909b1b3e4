/*
 * The IFMA vector template (fpv_tmpl.h) for BN254's Fr, as bn254_frv_*:
 * every translation unit that needs it includes this (no include guard)
 * and removes the names afterwards with fpv_tmpl_undef.h.
 */
#include "ff/bn254_fr.h"

#define FPV_NAME bn254_frv
#define FPV_FQ   bn254_fr
#define FPV_N64  4
#define FPV_N52  5
#define FPV_P52                                                                                    \
    {                                                                                              \
        0x1f593f0000001ULL, 0x4879b9709143eULL, 0x181585d2833e8ULL, 0xa029b85045b68ULL,            \
            0x30644e72e131ULL                                                                      \
    }
#define FPV_PINV 0x1f593efffffffULL
#include "ff/fpv_tmpl.h"
