/*
 * The AVX2 vector template (fpy_tmpl.h) for BN254's Fr, as bn254_fry_*:
 * every translation unit that needs it includes this (no include guard)
 * and removes the names afterwards with fpv_tmpl_undef.h.
 */
#include "ff/bn254_fr.h"

#define FPV_NAME bn254_fry
#define FPV_FQ   bn254_fr
#define FPV_N64  4
#define FPV_N29  9
#define FPV_P29                                                                                    \
    {                                                                                              \
        0x10000001ULL, 0x1f0fac9fULL, 0xe5c2450ULL, 0x7d090f3ULL, 0x1585d283ULL, 0x2db40c0ULL,     \
            0xa6e141ULL, 0xe5c2634ULL, 0x30644eULL                                                 \
    }
#define FPV_PINV 0xfffffffULL
#include "ff/fpy_tmpl.h"
