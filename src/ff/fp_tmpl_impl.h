/*
 * Prime-field arithmetic: the out-of-line half of the template in
 * fp_tmpl.h. Included once per field by its .c file, after that field's
 * header. Contracts are in fp_tmpl.h.
 */

#include <assert.h>
#include <string.h>

#include "util/cpu.h"

/* v += w (N limbs), returns the carry out. */
static uint64_t FPN(limbs_add_)(uint64_t v[FP_LIMBS], const uint64_t w[FP_LIMBS])
{
    uint64_t carry = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        v[i] = fp_adc(v[i], w[i], &carry);
    return carry;
}

/* v -= w (N limbs), returns the borrow out. */
static uint64_t FPN(limbs_sub_)(uint64_t v[FP_LIMBS], const uint64_t w[FP_LIMBS])
{
    uint64_t borrow = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        v[i] = fp_sbb(v[i], w[i], &borrow);
    return borrow;
}

/* v < p, in constant time. */
static bool FPN(limbs_below_p_)(const uint64_t v[FP_LIMBS])
{
    uint64_t t[FP_LIMBS];
    memcpy(t, v, sizeof(t));
    return FPN(limbs_sub_)(t, FPN(MODULUS)) != 0;
}

void FPN(from_u64)(FPT *r, uint64_t v)
{
    uint64_t c[FP_LIMBS] = {v};
    FPT t;
    memcpy(t.l, c, sizeof(c));
    FPN(mul)(r, &t, &FPN(R2)); /* v < p for every modulus here */
}

void FPN(pow)(FPT *r, const FPT *a, const uint64_t *e, size_t n)
{
    /*
     * Fixed 4-bit window, left to right. The exponent is public, so the
     * table index, the skipped leading squarings and the skipped zero
     * windows may depend on it; nothing depends on a. For the Fermat
     * inverse of BLS12-381 Fp (381-bit p - 2): 14 table multiplications,
     * 376 squarings, at most 95 multiplications, against 381 + ~190 for
     * square-and-multiply: about 17% fewer products. Not measured apart
     * from the kernel change (the machine was shared); together they took
     * the BLS12-381 Fp inverse from ~85 us to ~24 us (MULX/ADX, best of 41
     * runs, AMD EPYC Zen 3).
     */
    FPT tab[16];
    tab[0] = FPN(ONE);
    tab[1] = *a;
    for (int i = 2; i < 16; i++)
        FPN(mul)(&tab[i], &tab[i - 1], a);
    FPT acc = FPN(ONE);
    bool started = false;
    for (size_t i = n; i-- > 0;) {
        for (int b = 60; b >= 0; b -= 4) {
            unsigned w = (unsigned)(e[i] >> b) & 15;
            if (started) {
                FPN(sqr)(&acc, &acc);
                FPN(sqr)(&acc, &acc);
                FPN(sqr)(&acc, &acc);
                FPN(sqr)(&acc, &acc);
            }
            if (w != 0) {
                if (started)
                    FPN(mul)(&acc, &acc, &tab[w]);
                else
                    acc = tab[w];
                started = true;
            }
        }
    }
    *r = acc;
}

void FPN(inv)(FPT *r, const FPT *a)
{
    uint64_t e[FP_LIMBS];
    memcpy(e, FPN(MODULUS), sizeof(e));
    e[0] -= 2; /* p is odd and > 2: no borrow */
    FPN(pow)(r, a, e, FP_LIMBS);
}

/* Shift v right by one bit (N limbs plus a carry bit in the top). */
static void FPN(limbs_shr1_)(uint64_t v[FP_LIMBS], uint64_t top)
{
    for (int i = 0; i < FP_LIMBS - 1; i++)
        v[i] = (v[i] >> 1) | (v[i + 1] << 63);
    v[FP_LIMBS - 1] = (v[FP_LIMBS - 1] >> 1) | (top << 63);
}

static bool FPN(limbs_is_zero_)(const uint64_t v[FP_LIMBS])
{
    uint64_t acc = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        acc |= v[i];
    return acc == 0;
}

/*
 * Inversion by the binary GCD on word-sized approximations (T. Pornin,
 * "Optimized binary GCD for modular inversion", IACR ePrint 2020/972,
 * algorithm 2), in its variable-time form.
 *
 * The plain binary GCD on (a, b), b odd, repeats: if a is odd, swap a and b
 * when a < b and set a = a - b; then halve a. Every step looks only at the
 * low bit of a and at the order of a and b, so FP_INV_STEPS = 31 steps can run
 * on a 64-bit word holding the low 31 bits of a (exact: each step consumes
 * one) and its top 33 bits (enough to order a and b almost always). The
 * steps are recorded as factors with 2^31·(a', b') = (f0·a + g0·b, f1·a +
 * g1·b), |f|, |g| <= 2^31, and then applied once to the full-width values
 * and to the coefficients u, v (a = u·y, b = v·y mod p), which are divided
 * by 2^31 mod p the Montgomery way. An ordering mistake of the approximation
 * can only make a' or b' negative, which a negation of the value and its
 * factors repairs; when a and b fit in one word the steps are exact.
 *
 * Cost: about 2·bits/31 rounds (25 for 381 bits), each an inner loop of 31
 * word operations and 4 multiply-accumulate passes over N+1 limbs. Measured
 * (gcc 12 -O3, AMD EPYC Zen 3 ~3 GHz, MULX/ADX path, min / median of 31
 * runs of 200 chained inversions): BLS12-381 Fp 4.0 / 4.3 us, the 4-limb
 * fields 1.7-1.9 / 1.8-2.2 us; the run-stripping binary extended Euclid it
 * replaces took 10.1 / 10.9 us and 4.1 / 4.4-5.6 us in the same run. The
 * inner loop without branches (dev-epyc2, Zen 5, 10,240 chained
 * inversions): BN254 Fp 2.13 -> 1.25 us, BLS12-381 Fp 3.6 -> 2.26 us.
 */
enum { FP_INV_STEPS = 31 };

/* Bit length of v (0 for 0). */
static unsigned FPN(limbs_bitlen_)(const uint64_t v[FP_LIMBS])
{
    for (int i = FP_LIMBS; i-- > 0;) {
        if (v[i])
            return 64 * (unsigned)i + 64 - (unsigned)__builtin_clzll(v[i]);
    }
    return 0;
}

/* The word that stands for v in the inner loop: the low 31 bits of v and,
 * above them, bits n-33 .. n-1 of v (all of v when n <= 64). */
static uint64_t FPN(inv_approx_)(const uint64_t v[FP_LIMBS], unsigned n)
{
    if (n <= 64)
        return v[0];
    unsigned s = n - 33; /* >= 32 */
    unsigned i = s / 64, k = s % 64;
    uint64_t top = v[i] >> k;
    if (k && i + 1 < FP_LIMBS)
        top |= v[i + 1] << (64 - k);
    return (top << FP_INV_STEPS) | (v[0] & (((uint64_t)1 << FP_INV_STEPS) - 1));
}

/* x = (f·a + g·b) / 2^31 for a, b < 2^(64N-1), where 2^31 divides the sum
 * (the inner loop made it so); x = |that| and returns whether it was
 * negative. */
static bool FPN(inv_lincomb_)(uint64_t x[FP_LIMBS], int64_t f, const uint64_t a[FP_LIMBS],
                              int64_t g, const uint64_t b[FP_LIMBS])
{
    uint64_t t[FP_LIMBS + 1];
    __int128 acc = 0;
    for (int i = 0; i < FP_LIMBS; i++) {
        acc += (__int128)f * (__int128)a[i] + (__int128)g * (__int128)b[i];
        t[i] = (uint64_t)acc;
        acc >>= 64; /* arithmetic: gcc and clang shift signed values that way */
    }
    t[FP_LIMBS] = (uint64_t)acc;
    bool neg = acc < 0;
    if (neg) { /* two's complement negation over N+1 limbs */
        uint64_t borrow = 0;
        for (int i = 0; i <= FP_LIMBS; i++)
            t[i] = fp_sbb(0, t[i], &borrow);
    }
    for (int i = 0; i < FP_LIMBS; i++)
        x[i] = (t[i] >> FP_INV_STEPS) | (t[i + 1] << (64 - FP_INV_STEPS));
    return neg;
}

/* x = (f·u + g·v) / 2^31 mod p for u, v < p. */
static void FPN(inv_lincomb_mod_)(uint64_t x[FP_LIMBS], int64_t f, const uint64_t u[FP_LIMBS],
                                  int64_t g, const uint64_t v[FP_LIMBS])
{
    /* s = f·u + g·v, |s| < 2^32·p, as N+1 limbs in two's complement */
    uint64_t s[FP_LIMBS + 1];
    __int128 acc = 0;
    for (int i = 0; i < FP_LIMBS; i++) {
        acc += (__int128)f * (__int128)u[i] + (__int128)g * (__int128)v[i];
        s[i] = (uint64_t)acc;
        acc >>= 64;
    }
    /* + k·p with k = s·inv mod 2^31 (inv = -p^-1): the low 31 bits vanish */
    uint64_t k = (s[0] * FP_INV) & (((uint64_t)1 << FP_INV_STEPS) - 1);
    unsigned __int128 c = 0;
    for (int i = 0; i < FP_LIMBS; i++) {
        c += (unsigned __int128)k * FPN(MODULUS)[i] + s[i];
        s[i] = (uint64_t)c;
        c >>= 64;
    }
    int64_t top = (int64_t)(acc + (__int128)c); /* |s + k·p| < 2^(64N+32) */
    for (int i = 0; i < FP_LIMBS - 1; i++)
        x[i] = (s[i] >> FP_INV_STEPS) | (s[i + 1] << (64 - FP_INV_STEPS));
    x[FP_LIMBS - 1] = (s[FP_LIMBS - 1] >> FP_INV_STEPS) | ((uint64_t)top << (64 - FP_INV_STEPS));
    top >>= FP_INV_STEPS; /* now x + top·2^(64N) is in (-2p, 3p) */
    while (top < 0) {
        top += (int64_t)FPN(limbs_add_)(x, FPN(MODULUS));
    }
    while (top > 0 || !FPN(limbs_below_p_)(x)) {
        top -= (int64_t)FPN(limbs_sub_)(x, FPN(MODULUS));
    }
}

void FPN(inv_vartime)(FPT *r, const FPT *a)
{
    if (FPN(is_zero)(a)) {
        FPN(set_zero)(r);
        return;
    }
    /* a = u·y, b = v·y (mod p) with y the Montgomery limbs a·R; b odd */
    uint64_t va[FP_LIMBS], vb[FP_LIMBS], u[FP_LIMBS] = {1}, v[FP_LIMBS] = {0};
    memcpy(va, a->l, sizeof(va));
    memcpy(vb, FPN(MODULUS), sizeof(vb));
    while (!FPN(limbs_is_zero_)(va)) {
        unsigned la = FPN(limbs_bitlen_)(va), lb = FPN(limbs_bitlen_)(vb);
        unsigned n = la > lb ? la : lb;
        uint64_t xa = FPN(inv_approx_)(va, n), xb = FPN(inv_approx_)(vb, n);
        /* Without branches: taken or not at random, they cost more in
         * mispredictions than the masks in operations. */
        uint64_t uf0 = 1, ug0 = 0, uf1 = 0, ug1 = 1; /* two's complement */
        for (int j = 0; j < FP_INV_STEPS; j++) {
            uint64_t odd = -(xa & 1), swap = odd & -(uint64_t)(xa < xb);
            uint64_t t = (xa ^ xb) & swap;
            xa ^= t, xb ^= t;
            t = (uf0 ^ uf1) & swap;
            uf0 ^= t, uf1 ^= t;
            t = (ug0 ^ ug1) & swap;
            ug0 ^= t, ug1 ^= t;
            xa -= xb & odd, uf0 -= uf1 & odd, ug0 -= ug1 & odd;
            xa >>= 1, uf1 <<= 1, ug1 <<= 1;
        }
        int64_t f0 = (int64_t)uf0, g0 = (int64_t)ug0, f1 = (int64_t)uf1, g1 = (int64_t)ug1;
        uint64_t na[FP_LIMBS], nb[FP_LIMBS], nu[FP_LIMBS], nv[FP_LIMBS];
        if (FPN(inv_lincomb_)(na, f0, va, g0, vb))
            f0 = -f0, g0 = -g0;
        if (FPN(inv_lincomb_)(nb, f1, va, g1, vb))
            f1 = -f1, g1 = -g1;
        FPN(inv_lincomb_mod_)(nu, f0, u, g0, v);
        FPN(inv_lincomb_mod_)(nv, f1, u, g1, v);
        memcpy(va, na, sizeof(va));
        memcpy(vb, nb, sizeof(vb));
        memcpy(u, nu, sizeof(u));
        memcpy(v, nv, sizeof(v));
    }
    /* b = gcd = 1 = v·y: v = (aR)^-1 = a^-1 R^-1 */
    assert(FPN(limbs_bitlen_)(vb) == 1);
    FPT t;
    memcpy(t.l, v, sizeof(v));
    FPN(mul)(&t, &t, &FPN(R2)); /* a^-1 */
    FPN(mul)(r, &t, &FPN(R2));  /* a^-1 R */
}

void FPNS(inv_vartime)(FPT *a, FPT *scratch, size_t n)
{
    /* scratch[i] = product of the non-zero a[0..i-1]. */
    FPT acc = FPN(ONE);
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!FPN(is_zero)(&a[i]))
            FPN(mul)(&acc, &acc, &a[i]);
    }
    FPN(inv_vartime)(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (FPN(is_zero)(&a[i]))
            continue;
        FPT t;
        FPN(mul)(&t, &acc, &scratch[i]);
        FPN(mul)(&acc, &acc, &a[i]);
        a[i] = t;
    }
}

#if defined(__x86_64__)
/* fp_ifma.c (fp_ifma.h, declared here: that header names all four fields,
 * whose parameters would clash with this instantiation's). */
void FPNS(mul_ifma)(FPT *r, const FPT *a, const FPT *b, size_t n);
#endif

void FPNS(mul)(FPT *r, const FPT *a, const FPT *b, size_t n)
{
    size_t i = 0;
#if defined(__x86_64__)
    if (cpu_has_ifma) {
        i = n / 8 * 8;
        FPNS(mul_ifma)(r, a, b, i);
    }
#endif
    for (; i < n; i++)
        FPN(mul)(&r[i], &a[i], &b[i]);
}

/* e = (p - 1) / 2 */
static void FPN(half_p_minus_1_)(uint64_t e[FP_LIMBS])
{
    memcpy(e, FPN(MODULUS), FP_LIMBS * sizeof(uint64_t));
    e[0] -= 1;
    FPN(limbs_shr1_)(e, 0);
}

int FPN(legendre)(const FPT *a)
{
    uint64_t e[FP_LIMBS];
    FPN(half_p_minus_1_)(e);
    FPT t;
    FPN(pow)(&t, a, e, FP_LIMBS);
    if (FPN(is_zero)(&t))
        return 0;
    return FPN(is_one)(&t) ? 1 : -1;
}

unsigned FPN(two_adicity)(void)
{
    uint64_t e[FP_LIMBS];
    memcpy(e, FPN(MODULUS), sizeof(e));
    e[0] -= 1;
    unsigned s = 0;
    while ((e[s / 64] >> (s % 64) & 1) == 0)
        s++;
    return s;
}

/* e = (p - 1) >> k */
static void FPN(p_minus_1_shr_)(uint64_t e[FP_LIMBS], unsigned k)
{
    memcpy(e, FPN(MODULUS), FP_LIMBS * sizeof(uint64_t));
    e[0] -= 1;
    for (unsigned i = 0; i < k; i++)
        FPN(limbs_shr1_)(e, 0);
}

void FPN(root_of_unity)(FPT *r, unsigned k, uint64_t g)
{
    assert(k <= FPN(two_adicity)());
    uint64_t e[FP_LIMBS];
    FPN(p_minus_1_shr_)(e, k);
    FPT gm;
    FPN(from_u64)(&gm, g);
    FPN(pow)(r, &gm, e, FP_LIMBS);
}

bool FPN(sqrt_vartime)(FPT *r, const FPT *a)
{
    if (FPN(is_zero)(a)) {
        FPN(set_zero)(r);
        return true;
    }
    if ((FPN(MODULUS)[0] & 3) == 3) {
        /* p = 3 mod 4: the candidate is a^((p+1)/4). */
        uint64_t e[FP_LIMBS];
        memcpy(e, FPN(MODULUS), sizeof(e));
        FPN(limbs_shr1_)(e, 0);
        FPN(limbs_shr1_)(e, 0);
        FPN(limbs_add_)(e, (const uint64_t[FP_LIMBS]){1}); /* floor(p/4) + 1 = (p+1)/4 */
        FPT c, c2;
        FPN(pow)(&c, a, e, FP_LIMBS);
        FPN(sqr)(&c2, &c);
        if (!FPN(equal)(&c2, a))
            return false;
        *r = c;
        return true;
    }
    /* Tonelli-Shanks (Cohen, A Course in Computational Algebraic Number
     * Theory, algorithm 1.5.1) with p - 1 = q·2^s, q odd. */
    if (FPN(legendre)(a) != 1)
        return false;
    unsigned s = FPN(two_adicity)();
    uint64_t q[FP_LIMBS], q1[FP_LIMBS];
    FPN(p_minus_1_shr_)(q, s);
    memcpy(q1, q, sizeof(q1)); /* (q + 1) / 2 */
    FPN(limbs_shr1_)(q1, 0);
    FPN(limbs_add_)(q1, (const uint64_t[FP_LIMBS]){1});
    FPT z, c, t, x;
    FPN(from_u64)(&z, FP_NONRESIDUE);
    FPN(pow)(&c, &z, q, FP_LIMBS); /* generator of the 2-Sylow subgroup */
    FPN(pow)(&t, a, q, FP_LIMBS);  /* t = a^q */
    FPN(pow)(&x, a, q1, FP_LIMBS); /* x = a^((q+1)/2) */
    unsigned m = s;
    while (!FPN(is_one)(&t)) {
        /* least i with t^(2^i) = 1 */
        unsigned i = 0;
        FPT t2 = t;
        while (!FPN(is_one)(&t2)) {
            FPN(sqr)(&t2, &t2);
            i++;
        }
        FPT b = c;
        for (unsigned j = 0; j + i + 1 < m; j++)
            FPN(sqr)(&b, &b);
        m = i;
        FPN(sqr)(&c, &b);
        FPN(mul)(&t, &t, &c);
        FPN(mul)(&x, &x, &b);
    }
    *r = x;
    return true;
}

bool FPN(from_canonical)(FPT *r, const uint64_t v[FP_LIMBS])
{
    if (!FPN(limbs_below_p_)(v))
        return false;
    FPT t;
    memcpy(t.l, v, sizeof(t.l));
    FPN(mul)(r, &t, &FPN(R2));
    return true;
}

void FPN(to_canonical)(uint64_t v[FP_LIMBS], const FPT *a)
{
    static const FPT one_plain = {{1}};
    FPT t;
    FPN(mul)(&t, a, &one_plain); /* a·R · 1 · R^-1 */
    memcpy(v, t.l, sizeof(t.l));
}

/* Shared by both byte orders: bytes[i] is the i-th least significant byte. */
static cuzk_status_t FPN(from_bytes_)(FPT *r, const unsigned char *in, size_t len, bool be)
{
    if (len * 8 < FP_BITS)
        return CUZK_EENCODING;
    uint64_t v[FP_LIMBS] = {0};
    for (size_t i = 0; i < len; i++) {
        unsigned char byte = be ? in[len - 1 - i] : in[i];
        if (i >= 8 * FP_LIMBS) {
            if (byte != 0)
                return CUZK_ENONCANONICAL;
            continue;
        }
        v[i / 8] |= (uint64_t)byte << (8 * (i % 8));
    }
    return FPN(from_canonical)(r, v) ? CUZK_OK : CUZK_ENONCANONICAL;
}

cuzk_status_t FPN(from_bytes_le)(FPT *r, const unsigned char *in, size_t len)
{
    return FPN(from_bytes_)(r, in, len, false);
}

cuzk_status_t FPN(from_bytes_be)(FPT *r, const unsigned char *in, size_t len)
{
    return FPN(from_bytes_)(r, in, len, true);
}

void FPN(to_bytes_le)(unsigned char *out, const FPT *a)
{
    uint64_t v[FP_LIMBS];
    FPN(to_canonical)(v, a);
    for (size_t i = 0; i < 8 * FP_LIMBS; i++)
        out[i] = (unsigned char)(v[i / 8] >> (8 * (i % 8)));
}

void FPN(to_bytes_be)(unsigned char *out, const FPT *a)
{
    uint64_t v[FP_LIMBS];
    FPN(to_canonical)(v, a);
    for (size_t i = 0; i < 8 * FP_LIMBS; i++)
        out[8 * FP_LIMBS - 1 - i] = (unsigned char)(v[i / 8] >> (8 * (i % 8)));
}

cuzk_status_t FPN(from_dec)(FPT *r, const char *s)
{
    if (*s == '\0')
        return CUZK_EENCODING;
    uint64_t v[FP_LIMBS] = {0};
    bool overflow = false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return CUZK_EENCODING;
        /* v = 10·v + digit; remember an overflow but keep validating digits */
        uint64_t carry = (uint64_t)(*s - '0');
        for (int i = 0; i < FP_LIMBS; i++) {
            unsigned __int128 x = (unsigned __int128)v[i] * 10 + carry;
            v[i] = (uint64_t)x;
            carry = (uint64_t)(x >> 64);
        }
        if (carry)
            overflow = true;
    }
    if (overflow)
        return CUZK_ENONCANONICAL;
    return FPN(from_canonical)(r, v) ? CUZK_OK : CUZK_ENONCANONICAL;
}

size_t FPN(to_dec)(char *out, const FPT *a)
{
    uint64_t v[FP_LIMBS];
    FPN(to_canonical)(v, a);
    char tmp[FP_LIMBS * 20 + 1];
    size_t n = 0;
    do {
        /* v, rem = divmod(v, 10), limb by limb from the top */
        uint64_t rem = 0;
        for (int i = FP_LIMBS; i-- > 0;) {
            unsigned __int128 x = ((unsigned __int128)rem << 64) | v[i];
            v[i] = (uint64_t)(x / 10);
            rem = (uint64_t)(x % 10);
        }
        tmp[n++] = (char)('0' + rem);
    } while (!FPN(limbs_is_zero_)(v));
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
    return n;
}

cuzk_status_t FPN(random)(FPT *r, rng_t *rng)
{
    /* Draw FP_BITS uniform bits until the value is below p: each try
     * succeeds with probability p / 2^FP_BITS > 1/2. */
    for (;;) {
        uint64_t v[FP_LIMBS];
        cuzk_status_t st = random_bytes(rng, v, sizeof(v));
        if (st != CUZK_OK)
            return st;
        if (FP_BITS % 64)
            v[FP_LIMBS - 1] &= ((uint64_t)1 << (FP_BITS % 64)) - 1;
        if (FPN(from_canonical)(r, v))
            return CUZK_OK;
    }
}
