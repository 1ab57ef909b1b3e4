/*
 * BLS12-381 base field Fp, q =
 * 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab.
 * Template parameters for fp_tmpl.h (no include guard:
 * included by bls381_fp.h and bls381_fp.c).
 */
#define FP_NAME  bls381_fp
#define FP_LIMBS 6
#define FP_BITS  381
#define FP_MODULUS                                                                                 \
    {                                                                                              \
        0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,                       \
            0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL                    \
    }
#define FP_INV 0x89f3fffcfffcfffdULL
#define FP_ONE_MONT                                                                                \
    0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,    \
        0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL
#define FP_R2                                                                                      \
    0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL, 0x67eb88a9939d83c0ULL,    \
        0x9a793e85b519952dULL, 0x11988fe592cae3aaULL
#define FP_NONRESIDUE 2
