/*
 * The IFMA vector template (fpv_tmpl.h) for BLS12-381's Fr, as
 * bls381_frv_*: every translation unit that needs it includes this (no
 * include guard) and removes the names afterwards with fpv_tmpl_undef.h.
 */
#include "ff/bls381_fr.h"

#define FPV_NAME bls381_frv
#define FPV_FQ   bls381_fr
#define FPV_N64  4
#define FPV_N52  5
#define FPV_P52                                                                                    \
    {                                                                                              \
        0xfffff00000001ULL, 0x2fffe5bfefffULL, 0x9a1d80553bda4ULL, 0x7d483339d8080ULL,             \
            0x73eda753299dULL                                                                      \
    }
#define FPV_PINV 0xffffeffffffffULL
#include "ff/fpv_tmpl.h"
