/*
 * BN254 base field Fp, q =
 * 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47.
 * Template parameters for fp_tmpl.h (no include guard:
 * included by bn254_fp.h and bn254_fp.c).
 */
#define FP_NAME  bn254_fp
#define FP_LIMBS 4
#define FP_BITS  254
#define FP_MODULUS                                                                                 \
    {                                                                                              \
        0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL \
    }
#define FP_INV 0x87d20782e4866389ULL
#define FP_ONE_MONT                                                                                \
    0xd35d438dc58f0d9dULL, 0x0a78eb28f5c70b3dULL, 0x666ea36f7879462cULL, 0x0e0a77c19a07df2fULL
#define FP_R2                                                                                      \
    0xf32cfc5b538afa89ULL, 0xb5e71911d44501fbULL, 0x47ab1eff0a417ff6ULL, 0x06d89f71cab8351fULL
#define FP_NONRESIDUE 3
