/*
 * The AVX2 vector template (fpy_tmpl.h) for BN254's Fp, as bn254_fpy_*:
 * every translation unit that needs it includes this (no include guard)
 * and removes the names afterwards with fpv_tmpl_undef.h.
 */
#include "ff/bn254_fp.h"

#define FPV_NAME bn254_fpy
#define FPV_FQ   bn254_fp
#define FPV_N64  4
#define FPV_N29  9
#define FPV_P29                                                                                    \
    {                                                                                              \
        0x187cfd47ULL, 0x10460b6ULL, 0x1c72a34fULL, 0x2d522d0ULL, 0x1585d978ULL, 0x2db40c0ULL,     \
            0xa6e141ULL, 0xe5c2634ULL, 0x30644eULL                                                 \
    }
#define FPV_PINV 0x4866389ULL
#include "ff/fpy_tmpl.h"
