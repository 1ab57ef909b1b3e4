/* The IFMA butterflies of both curves' NTT (ntt_ifma.h). */
#include "ntt/ntt_ifma.h"

#if CUZK_NTT_HAVE_IFMA

#include <stdint.h>

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
#define NIF_NAME bn254
#include "ntt/ntt_ifma_impl.h"
#include "ff/fpv_tmpl_undef.h"

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
#define NIF_NAME bls381
#include "ntt/ntt_ifma_impl.h"
#include "ff/fpv_tmpl_undef.h"

#endif
