/*
 * Montgomery multiplication with MULX, ADCX and ADOX (x86-64 with BMI2 and
 * ADX: Intel Broadwell and later, AMD Zen and later). Contract in fp_mul.h;
 * the callers check cuzk_cpu_has_mulx_adx first.
 *
 * The algorithm is the CIOS of fp_mul.c, written in inline assembly so that
 * the two halves of every 128-bit partial product go to two independent
 * carry chains (Gueron, Krasnov, Ozturk, "New instructions for
 * multi-precision arithmetic", Intel white paper, 2012):
 *
 *   mulx a[j], lo, hi      ; hi:lo = rdx · a[j], flags untouched
 *   adox lo, t[j]          ; chain 1 on OF
 *   adcx hi, t[j+1]        ; chain 2 on CF
 *
 * Row i (i = 0 .. N-1), t[0..N] in registers, t[N] = 0 on entry:
 *   rdx = b[i];  t[0..N] += a·rdx                 N mulx, 2N+1 adds
 *   rdx = t[0]·inv;  t[0..N] += p·rdx             1 imul, N mulx, 2N+1 adds
 *   now t[0] = 0: that register becomes the next row's t[N] and the window
 *   of names slides by one (no data moves).
 * No (N+2)-th word: p < 2^(64N-1) keeps t < 2p between rows, so
 * t + a·b[i] + m·p < 2^(64N+64) and neither chain carries out of t[N].
 * Then t < 2p loses p once unless that borrows (N sub/sbb, N cmov).
 * In all 2N^2 mulx + N imul: 78 for N = 6, 36 for N = 4.
 *
 * The register window rotates with each row, so the kernels are spelled
 * out row by row by the macros below; every operand is a named asm operand
 * and the compiler picks the registers (13 of them for N = 6, which still
 * fits when the sanitizer build keeps the frame pointer).
 *
 * Measured (gcc 12 -O3, AMD EPYC Zen 3 at ~2.9 GHz, dependent a = a·b,
 * best of 41 runs of 5·10^4 on a shared 2-core VM): N = 6 49 ns, N = 4
 * 25 ns; portable 60 / 30 ns.
 *
 * Where the cycles go (same machine, clock 3.0 GHz by a chain of dependent
 * adds, min of 200-300 runs): N = 6 takes 123-134 cycles both as a chain
 * and as 8 independent streams, so it is not the latency of m = t0·inv:
 * with m replaced by a constant it still takes 123. Independent MULX issue
 * one per cycle, ADCX and ADOX chains run side by side (an interleaved pair
 * costs 1.0 cycle), and a stream of mulx/adox/adcx triples over a 7-word
 * window costs 1.18 cycles per MULX, so the 72 MULX + 6 IMUL bound is
 * ~90 cycles (30 ns). Adding to that stream the per-row IMUL costs 1.34,
 * the closing ADOX of each half 1.45-1.62 cycles per MULX: the per-row
 * overheads, not the products, hold the kernel at ~40 ns. Tried without
 * gain (123-139 cycles): a first row with one add chain (no ADOX), and
 * computing m_r before the products of row r+1 (8-word window, which
 * then needs two closing adds per reduction).
 */
#include "ff/fp_mul.h"

#if FP_HAVE_ADX_KERNELS

#define FP_S_(x) #x
#define FP_S(x) FP_S_(x)

/* One partial product of the row: t_j += lo (OF chain), t_j1 += hi (CF). */
#define FP_MULADD(src, off, tj, tj1)                                                        \
    "mulxq " #off "(%[" #src "]), %[lo], %[hi]\n\t"                                        \
    "adoxq %[lo], %[" #tj "]\n\t"                                                          \
    "adcxq %[hi], %[" #tj1 "]\n\t"

/* Close both chains into the top word: CF is already 0 (the last adcx
 * cannot carry out, see above); add the pending OF through a zero. */
#define FP_CLOSE_OF(top)                                                                    \
    "movl $0, %k[lo]\n\t"                                                                   \
    "adoxq %[lo], %[" #top "]\n\t"

/* Row for N = 4 over the register window (t0 .. t4), t4 = 0 on entry. */
#define FP_ROW4(boff, t0, t1, t2, t3, t4)                                                   \
    "movq " #boff "(%[b]), %%rdx\n\t"                                                       \
    "xorl %k[lo], %k[lo]\n\t" /* CF = OF = 0 */                                             \
    FP_MULADD(a, 0, t0, t1) FP_MULADD(a, 8, t1, t2) FP_MULADD(a, 16, t2, t3)                \
    FP_MULADD(a, 24, t3, t4) FP_CLOSE_OF(t4)                                                \
    "movq %[" #t0 "], %%rdx\n\t"                                                            \
    "imulq %[inv], %%rdx\n\t" /* m = t0·inv mod 2^64 */                                      \
    "xorl %k[lo], %k[lo]\n\t"                                                               \
    FP_MULADD(p, 0, t0, t1) FP_MULADD(p, 8, t1, t2) FP_MULADD(p, 16, t2, t3)                \
    FP_MULADD(p, 24, t3, t4)                                                                \
    "adoxq %[" #t0 "], %[" #t4 "]\n\t" /* t0 is 0 here: closes the OF chain */

/* Row for N = 6 over the register window (t0 .. t6), t6 = 0 on entry. */
#define FP_ROW6(boff, t0, t1, t2, t3, t4, t5, t6)                                           \
    "movq " #boff "(%[b]), %%rdx\n\t"                                                       \
    "xorl %k[lo], %k[lo]\n\t"                                                               \
    FP_MULADD(a, 0, t0, t1) FP_MULADD(a, 8, t1, t2) FP_MULADD(a, 16, t2, t3)                \
    FP_MULADD(a, 24, t3, t4) FP_MULADD(a, 32, t4, t5) FP_MULADD(a, 40, t5, t6)              \
    FP_CLOSE_OF(t6)                                                                         \
    "movq %[" #t0 "], %%rdx\n\t"                                                            \
    "imulq %[inv], %%rdx\n\t"                                                               \
    "xorl %k[lo], %k[lo]\n\t"                                                               \
    FP_MULADD(p, 0, t0, t1) FP_MULADD(p, 8, t1, t2) FP_MULADD(p, 16, t2, t3)                \
    FP_MULADD(p, 24, t3, t4) FP_MULADD(p, 32, t4, t5) FP_MULADD(p, 40, t5, t6)              \
    "adoxq %[" #t0 "], %[" #t6 "]\n\t"

/* d = t - p[off] with borrow, into a scratch register s. */
#define FP_SUBP(first, off, tj, s)                                                          \
    "movq %[" #tj "], %[" #s "]\n\t" first " " #off "(%[p]), %[" #s "]\n\t"
/* t = d when the subtraction did not borrow (t >= p). */
#define FP_TAKE(tj, s) "cmovncq %[" #s "], %[" #tj "]\n\t"

/*
 * N = 4: 16 + 16 mulx, 4 imul. 11 registers. 25 ns (portable 30 ns).
 */
void fp_mont_mul4_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                      const uint64_t p[4], uint64_t inv)
{
    uint64_t t0, t1, t2, t3, t4, lo, hi, rdx;
    const uint64_t *pa = a, *pb = b;
    __asm__("xorl %k[t0], %k[t0]\n\t"
            "xorl %k[t1], %k[t1]\n\t"
            "xorl %k[t2], %k[t2]\n\t"
            "xorl %k[t3], %k[t3]\n\t"
            "xorl %k[t4], %k[t4]\n\t"
            FP_ROW4(0, t0, t1, t2, t3, t4)  /* result window t1..t4, t0 = 0 */
            FP_ROW4(8, t1, t2, t3, t4, t0)
            FP_ROW4(16, t2, t3, t4, t0, t1)
            FP_ROW4(24, t3, t4, t0, t1, t2) /* t = (t4, t0, t1, t2) */
            /* scratch: lo, hi, rdx, t3 (zero) */
            FP_SUBP("subq", 0, t4, lo)
            FP_SUBP("sbbq", 8, t0, hi)
            FP_SUBP("sbbq", 16, t1, rdx)
            FP_SUBP("sbbq", 24, t2, t3)
            FP_TAKE(t4, lo) FP_TAKE(t0, hi) FP_TAKE(t1, rdx) FP_TAKE(t2, t3)
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [lo] "=&r"(lo), [hi] "=&r"(hi), [rdx] "=&d"(rdx), [a] "+&r"(pa), [b] "+&r"(pb)
            : [p] "r"(p), [inv] "rm"(inv)
            : "cc", "memory"); /* reads a, b, p */
    r[0] = t4;
    r[1] = t0;
    r[2] = t1;
    r[3] = t2;
}

/*
 * N = 6: 36 + 36 mulx, 6 imul. 13 registers. 49 ns (portable 60 ns).
 */
void fp_mont_mul6_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                      const uint64_t p[6], uint64_t inv)
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, rdx;
    const uint64_t *pa = a, *pb = b;
    __asm__("xorl %k[t0], %k[t0]\n\t"
            "xorl %k[t1], %k[t1]\n\t"
            "xorl %k[t2], %k[t2]\n\t"
            "xorl %k[t3], %k[t3]\n\t"
            "xorl %k[t4], %k[t4]\n\t"
            "xorl %k[t5], %k[t5]\n\t"
            "xorl %k[t6], %k[t6]\n\t"
            FP_ROW6(0, t0, t1, t2, t3, t4, t5, t6)
            FP_ROW6(8, t1, t2, t3, t4, t5, t6, t0)
            FP_ROW6(16, t2, t3, t4, t5, t6, t0, t1)
            FP_ROW6(24, t3, t4, t5, t6, t0, t1, t2)
            FP_ROW6(32, t4, t5, t6, t0, t1, t2, t3)
            FP_ROW6(40, t5, t6, t0, t1, t2, t3, t4) /* t = (t6, t0, t1, t2, t3, t4) */
            /* scratch: lo, hi, rdx, a, b, t5 (zero) */
            FP_SUBP("subq", 0, t6, lo)
            FP_SUBP("sbbq", 8, t0, hi)
            FP_SUBP("sbbq", 16, t1, rdx)
            FP_SUBP("sbbq", 24, t2, a)
            FP_SUBP("sbbq", 32, t3, b)
            FP_SUBP("sbbq", 40, t4, t5)
            FP_TAKE(t6, lo) FP_TAKE(t0, hi) FP_TAKE(t1, rdx) FP_TAKE(t2, a) FP_TAKE(t3, b)
            FP_TAKE(t4, t5)
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [rdx] "=&d"(rdx),
              [a] "+&r"(pa), [b] "+&r"(pb)
            : [p] "r"(p), [inv] "rm"(inv)
            : "cc", "memory"); /* reads a, b, p */
    r[0] = t6;
    r[1] = t0;
    r[2] = t1;
    r[3] = t2;
    r[4] = t3;
    r[5] = t4;
}

#endif
