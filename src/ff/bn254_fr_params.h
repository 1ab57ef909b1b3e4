/*
 * BN254 scalar field Fr, r =
 * 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001.
 * Template parameters for fp_tmpl.h (no include guard:
 * included by bn254_fr.h and bn254_fr.c).
 */
#define FP_NAME  bn254_fr
#define FP_LIMBS 4
#define FP_BITS  254
#define FP_MODULUS                                                                                 \
    {                                                                                              \
        0x43e1f593f0000001ULL, 0x2833e84879b97091ULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL \
    }
#define FP_INV 0xc2e1f593efffffffULL
#define FP_ONE_MONT                                                                                \
    0xac96341c4ffffffbULL, 0x36fc76959f60cd29ULL, 0x666ea36f7879462eULL, 0x0e0a77c19a07df2fULL
#define FP_R2                                                                                      \
    0x1bb8e645ae216da7ULL, 0x53fe3ab1e35c59e3ULL, 0x8c49833d53bb8085ULL, 0x0216d0b17f4e44a5ULL
#define FP_NONRESIDUE 5
