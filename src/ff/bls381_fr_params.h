/*
 * BLS12-381 scalar field Fr, r =
 * 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001.
 * Template parameters for fp_tmpl.h (no include guard:
 * included by bls381_fr.h and bls381_fr.c).
 */
#define FP_NAME  bls381_fr
#define FP_LIMBS 4
#define FP_BITS  255
#define FP_MODULUS                                                                                 \
    {                                                                                              \
        0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL \
    }
#define FP_INV 0xfffffffeffffffffULL
#define FP_ONE_MONT                                                                                \
    0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL
#define FP_R2                                                                                      \
    0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL, 0x0748d9d99f59ff11ULL
#define FP_NONRESIDUE 5
