/*
 * What the four curve groups (bls381_g1, bls381_g2, bn254_g1, bn254_g2)
 * share: the decoder flags and the scalar recodings used by scalar
 * multiplication. The groups themselves are instances of ec_tmpl.h.
 */
#ifndef CUZK_EC_EC_H
#define CUZK_EC_EC_H

#include <stddef.h>
#include <stdint.h>

/*
 * Flags of every point decoder (zcash bytes, snarkjs bytes, decimal strings).
 * 0 is the strict default: the subgroup is checked and infinity is accepted.
 */
enum {
    /* Trusted bulk input: check canonical coordinates and the curve equation
     * (and x != 0, which only points of order 3 have), not the subgroup. */
    EC_DECODE_SKIP_SUBGROUP = 1u << 0,
    /* The point at infinity is an error (CUZK_EINFINITY), as in proofs. */
    EC_DECODE_NO_INFINITY = 1u << 1,
};

/* Scalars are 4 limbs, least significant first: any 256-bit value. From an
 * Fr element a: NAME_fr_to_canonical(k, &a). */
enum { EC_SCALAR_LIMBS = 4 };

/* The most digits that ec_wnaf_vartime writes for a 256-bit scalar. */
enum { EC_WNAF_MAX = 257 };

/*
 * Width-w NAF of k (2 <= w <= 7): digits[i], least significant first, each
 * zero or odd with |digit| < 2^(w-1), at most one non-zero digit in any w
 * consecutive ones, and k = sum digits[i]·2^i. Returns the number of digits
 * (0 for k = 0), at most EC_WNAF_MAX. Variable-time in k.
 */
size_t ec_wnaf_vartime(int digits[EC_WNAF_MAX], const uint64_t k[EC_SCALAR_LIMBS], unsigned w);

/* Bits [4i, 4i + 4) of k: the fixed-window digits of the constant-time
 * scalar multiplication (i < 64). Constant-time in k. */
static inline unsigned ec_nibble(const uint64_t k[EC_SCALAR_LIMBS], unsigned i)
{
    return (unsigned)(k[i / 16] >> (4 * (i % 16))) & 15;
}

#endif
