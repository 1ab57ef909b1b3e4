/*
 * Montgomery multiplication kernels shared by every prime field, by limb
 * count: r = a·b·2^(-64N) mod p for N = 4 and N = 6.
 *
 * Contract of every kernel here (portable, MULX/ADX and the dispatching
 * fp_mont_mulN / fp_mont_sqrN):
 *  - a, b < p; p odd with its top bit clear (p < 2^(64N-1)); inv = -p^-1 mod
 *    2^64.
 *  - r may alias a or b (every input is read before r is written).
 *  - The result is fully reduced (< p). Constant-time: no branch and no
 *    memory access depends on a or b.
 *
 * Two implementations, chosen at run time by the inline dispatchers at the
 * end of this file:
 *  - fp_mont_mulN_portable (fp_mul.c): CIOS in plain C, the fallback and the
 *    path of every processor that is not x86-64 with BMI2 and ADX.
 *  - fp_mont_mulN_adx (fp_mul_x86.c): the same algorithm in inline assembly
 *    with MULX and the two carry chains of ADCX/ADOX; x86-64 only, used when
 *    cpu_has_mulx_adx (util/cpu.h) is set (CUZK_NO_ASM=1 clears it).
 *
 * Both are out of line: a kernel is 300 (N=4) to 700 (N=6) instructions in
 * portable form, too much to inline at every call site of the towers and
 * curve formulas; the call costs about 1 ns against 20-80 ns of work.
 *
 * The dispatch is one well-predicted branch on a global bool.
 */
#ifndef CUZK_FF_FP_MUL_H
#define CUZK_FF_FP_MUL_H

#include <stdint.h>

#include "util/cpu.h"

#if defined(__x86_64__)
#define FP_HAVE_ADX_KERNELS 1
#else
#define FP_HAVE_ADX_KERNELS 0
#endif

/* Internal symbols of libcuzk, not part of the public API. */
#define FP_KERNEL_API __attribute__((visibility("hidden")))

/* ---- small portable helpers (also used by the field template) -------- */

/*
 * a + b + *carry (carry 0 or 1); *carry = the carry out. And a - b - *borrow
 * with the borrow out. On x86-64 through _addcarry_u64/_subborrow_u64
 * (baseline x86-64 instructions, no -march needed), which gcc chains into
 * adc/sbb; elsewhere with 64-bit adds and carries by compare. Either beats
 * unsigned __int128, which gcc 12 -O3 widens into xor/add/adc triples.
 * Measured on the 6-limb field addition (AMD EPYC Zen 3, dependent
 * a = a + b): __int128 27 ns, compares 15 ns, _addcarry_u64 see fp_tmpl.h.
 */
#if defined(__x86_64__)
#include <x86intrin.h>

static inline uint64_t fp_adc(uint64_t a, uint64_t b, uint64_t *carry)
{
    unsigned long long s;
    *carry = _addcarry_u64((unsigned char)*carry, a, b, &s);
    return s;
}

static inline uint64_t fp_sbb(uint64_t a, uint64_t b, uint64_t *borrow)
{
    unsigned long long d;
    *borrow = _subborrow_u64((unsigned char)*borrow, a, b, &d);
    return d;
}
#else
static inline uint64_t fp_adc(uint64_t a, uint64_t b, uint64_t *carry)
{
    uint64_t s = a + b;
    uint64_t c1 = s < a;
    uint64_t s2 = s + *carry;
    *carry = c1 | (s2 < s);
    return s2;
}

static inline uint64_t fp_sbb(uint64_t a, uint64_t b, uint64_t *borrow)
{
    uint64_t d = a - b;
    uint64_t b1 = a < b;
    uint64_t d2 = d - *borrow;
    *borrow = b1 | (d < *borrow);
    return d2;
}
#endif

/*
 * mask ? a : b for mask all ones or zero, limb by limb. The empty asm hides
 * a ^ b from the optimiser: without it gcc 12 -O3 vectorises the selects of
 * a 6-limb add through the stack, and the failed store forwarding costs
 * more than the select saves.
 */
static inline uint64_t fp_select(uint64_t mask, uint64_t a, uint64_t b)
{
    uint64_t x = a ^ b;
    __asm__("" : "+r"(x));
    return b ^ (x & mask);
}

/* ---- the kernels ------------------------------------------------------- */

FP_KERNEL_API void fp_mont_mul4_portable(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                                         const uint64_t p[4], uint64_t inv);
FP_KERNEL_API void fp_mont_mul6_portable(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                                         const uint64_t p[6], uint64_t inv);

#if FP_HAVE_ADX_KERNELS
/* Only call these when cpu_has_mulx_adx is true (they execute MULX,
 * ADCX and ADOX). */
FP_KERNEL_API void fp_mont_mul4_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                                    const uint64_t p[4], uint64_t inv);
FP_KERNEL_API void fp_mont_mul6_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                                    const uint64_t p[6], uint64_t inv);
/* r = a·a·2^(-64N) mod p, the squaring kernels: same contract, b = a. */
FP_KERNEL_API void fp_mont_sqr4_adx(uint64_t r[4], const uint64_t a[4], const uint64_t p[4],
                                    uint64_t inv);
FP_KERNEL_API void fp_mont_sqr6_adx(uint64_t r[6], const uint64_t a[6], const uint64_t p[6],
                                    uint64_t inv);
#endif

static inline void fp_mont_mul4(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                                const uint64_t p[4], uint64_t inv)
{
#if FP_HAVE_ADX_KERNELS
    if (cpu_has_mulx_adx) {
        fp_mont_mul4_adx(r, a, b, p, inv);
        return;
    }
#endif
    fp_mont_mul4_portable(r, a, b, p, inv);
}

static inline void fp_mont_mul6(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                                const uint64_t p[6], uint64_t inv)
{
#if FP_HAVE_ADX_KERNELS
    if (cpu_has_mulx_adx) {
        fp_mont_mul6_adx(r, a, b, p, inv);
        return;
    }
#endif
    fp_mont_mul6_portable(r, a, b, p, inv);
}

/*
 * Squaring. The MULX/ADX path has its own kernels (fp_mul_x86.c): the
 * N(N-1)/2 cross products once, doubled, plus the N squares, then the
 * reduction: 57 instead of 78 multiplications for N = 6, 26 instead of 36
 * for N = 4. The portable path multiplies a by a.
 */
static inline void fp_mont_sqr4(uint64_t r[4], const uint64_t a[4], const uint64_t p[4],
                                uint64_t inv)
{
#if FP_HAVE_ADX_KERNELS
    if (cpu_has_mulx_adx) {
        fp_mont_sqr4_adx(r, a, p, inv);
        return;
    }
#endif
    fp_mont_mul4_portable(r, a, a, p, inv);
}

static inline void fp_mont_sqr6(uint64_t r[6], const uint64_t a[6], const uint64_t p[6],
                                uint64_t inv)
{
#if FP_HAVE_ADX_KERNELS
    if (cpu_has_mulx_adx) {
        fp_mont_sqr6_adx(r, a, p, inv);
        return;
    }
#endif
    fp_mont_mul6_portable(r, a, a, p, inv);
}

#endif
