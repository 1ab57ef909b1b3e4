/* Scalar recodings shared by the curve groups (contracts in ec.h). */
#include "ec/ec.h"

#include <assert.h>

/* t += v (v > 0) or t -= -v (v < 0), over n limbs; the caller keeps t >= 0. */
static void limbs_add_signed(uint64_t *t, size_t n, int64_t v)
{
    if (v >= 0) {
        uint64_t carry = (uint64_t)v;
        for (size_t i = 0; i < n && carry; i++) {
            t[i] += carry;
            carry = t[i] < carry;
        }
    } else {
        uint64_t borrow = (uint64_t)-v;
        for (size_t i = 0; i < n && borrow; i++) {
            uint64_t old = t[i];
            t[i] -= borrow;
            borrow = old < borrow;
        }
    }
}

size_t ec_wnaf_vartime(int digits[EC_WNAF_MAX], const uint64_t k[EC_SCALAR_LIMBS], unsigned w)
{
    assert(w >= 2 && w <= 7);
    /* One spare limb: a negative digit makes the remainder larger than k. */
    uint64_t t[EC_SCALAR_LIMBS + 1] = {k[0], k[1], k[2], k[3], 0};
    const int64_t full = (int64_t)1 << w;
    size_t n = 0;
    while (t[0] | t[1] | t[2] | t[3] | t[4]) {
        int64_t d = 0;
        if (t[0] & 1) {
            /* The odd residue of t mod 2^w, centred in (-2^(w-1), 2^(w-1)):
             * t - d is then divisible by 2^w, so the next w - 1 digits are 0. */
            d = (int64_t)(t[0] & (uint64_t)(full - 1));
            if (d >= full / 2)
                d -= full;
            limbs_add_signed(t, EC_SCALAR_LIMBS + 1, -d);
        }
        assert(n < EC_WNAF_MAX);
        digits[n++] = (int)d;
        for (int i = 0; i < EC_SCALAR_LIMBS; i++)
            t[i] = (t[i] >> 1) | (t[i + 1] << 63);
        t[EC_SCALAR_LIMBS] >>= 1;
    }
    return n;
}
