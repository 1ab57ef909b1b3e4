#include "io/io_fr.h"

#include <assert.h>
#include <string.h>

_Static_assert(sizeof(bn254_fr_t) == IO_FR_BYTES && sizeof(bls381_fr_t) == IO_FR_BYTES,
               "the snarkjs n8 is the in-memory size of both scalar fields");

static void io_fr_limbs_le_(unsigned char *out, const uint64_t *limbs)
{
    for (int i = 0; i < IO_FR_BYTES; i++)
        out[i] = (unsigned char)(limbs[i / 8] >> (8 * (i % 8)));
}

void io_fr_prime_le(r1cs_curve_t curve, unsigned char *out)
{
    assert(curve == R1CS_CURVE_BN254 || curve == R1CS_CURVE_BLS12_381);
    io_fr_limbs_le_(out, curve == R1CS_CURVE_BN254 ? bn254_fr_MODULUS : bls381_fr_MODULUS);
}

r1cs_curve_t io_fr_curve_from_prime(const unsigned char *prime)
{
    static const r1cs_curve_t curves[] = {R1CS_CURVE_BN254, R1CS_CURVE_BLS12_381};
    for (size_t i = 0; i < sizeof(curves) / sizeof(curves[0]); i++) {
        unsigned char r[IO_FR_BYTES];
        io_fr_prime_le(curves[i], r);
        if (memcmp(r, prime, IO_FR_BYTES) == 0)
            return curves[i];
    }
    return R1CS_CURVE_NONE;
}

cuzk_status_t io_fr_from_le(r1cs_curve_t curve, void *out, uint64_t index, const unsigned char *in)
{
    assert(curve == R1CS_CURVE_BN254 || curve == R1CS_CURVE_BLS12_381);
    if (curve == R1CS_CURVE_BN254)
        return bn254_fr_from_bytes_le((bn254_fr_t *)out + index, in, IO_FR_BYTES);
    return bls381_fr_from_bytes_le((bls381_fr_t *)out + index, in, IO_FR_BYTES);
}

void io_fr_to_le(r1cs_curve_t curve, unsigned char *out, const void *a, uint64_t index)
{
    assert(curve == R1CS_CURVE_BN254 || curve == R1CS_CURVE_BLS12_381);
    if (curve == R1CS_CURVE_BN254)
        bn254_fr_to_bytes_le(out, (const bn254_fr_t *)a + index);
    else
        bls381_fr_to_bytes_le(out, (const bls381_fr_t *)a + index);
}

bool io_fr_is_one(r1cs_curve_t curve, const void *a, uint64_t index)
{
    assert(curve == R1CS_CURVE_BN254 || curve == R1CS_CURVE_BLS12_381);
    if (curve == R1CS_CURVE_BN254)
        return bn254_fr_is_one((const bn254_fr_t *)a + index);
    return bls381_fr_is_one((const bls381_fr_t *)a + index);
}

void io_fr_hex_le(char *out, const unsigned char *le)
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < IO_FR_BYTES; i++) {
        out[2 * i] = digits[le[IO_FR_BYTES - 1 - i] >> 4];
        out[2 * i + 1] = digits[le[IO_FR_BYTES - 1 - i] & 0xf];
    }
    out[2 * IO_FR_BYTES] = '\0';
}
