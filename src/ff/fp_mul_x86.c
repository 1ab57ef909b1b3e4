/*
 * Montgomery multiplication with MULX, ADCX and ADOX (x86-64 with BMI2 and
 * ADX: Intel Broadwell and later, AMD Zen and later). Contract in fp_mul.h;
 * the callers check cpu_has_mulx_adx first.
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
#define FP_S(x)  FP_S_(x)

/* One partial product of the row: t_j += lo (OF chain), t_j1 += hi (CF). */
#define FP_MULADD(src, off, tj, tj1)                                                               \
    "mulxq " #off "(%[" #src "]), %[lo], %[hi]\n\t"                                                \
    "adoxq %[lo], %[" #tj "]\n\t"                                                                  \
    "adcxq %[hi], %[" #tj1 "]\n\t"

/* Close both chains into the top word: CF is already 0 (the last adcx
 * cannot carry out, see above); add the pending OF through a zero. */
#define FP_CLOSE_OF(top)                                                                           \
    "movl $0, %k[lo]\n\t"                                                                          \
    "adoxq %[lo], %[" #top "]\n\t"

/* Row for N = 4 over the register window (t0 .. t4), t4 = 0 on entry. */
#define FP_ROW4(boff, t0, t1, t2, t3, t4)                                                          \
    "movq " #boff "(%[b]), %%rdx\n\t"                                                              \
    "xorl %k[lo], %k[lo]\n\t" /* CF = OF = 0 */                                                    \
        FP_MULADD(a, 0, t0, t1) FP_MULADD(a, 8, t1, t2) FP_MULADD(a, 16, t2, t3) FP_MULADD(a, 24,  \
                                                                                           t3, t4) \
            FP_CLOSE_OF(t4) "movq %[" #t0 "], %%rdx\n\t"                                           \
                            "imulq %[inv], %%rdx\n\t" /* m = t0·inv mod 2^64 */                   \
                            "xorl %k[lo], %k[lo]\n\t" FP_MULADD(p, 0, t0, t1)                      \
                                FP_MULADD(p, 8, t1, t2) FP_MULADD(p, 16, t2, t3) FP_MULADD(        \
                                    p, 24, t3, t4) "adoxq %[" #t0 "], %[" #t4                      \
                                                   "]\n\t" /* t0 is 0 here: closes the OF chain */

/* Row for N = 6 over the register window (t0 .. t6), t6 = 0 on entry. */
#define FP_ROW6(boff, t0, t1, t2, t3, t4, t5, t6)                                                  \
    "movq " #boff "(%[b]), %%rdx\n\t"                                                              \
    "xorl %k[lo], %k[lo]\n\t" FP_MULADD(a, 0, t0, t1) FP_MULADD(a, 8, t1, t2)                      \
        FP_MULADD(a, 16, t2, t3) FP_MULADD(a, 24, t3, t4) FP_MULADD(a, 32, t4, t5)                 \
            FP_MULADD(a, 40, t5, t6)                                                               \
                FP_CLOSE_OF(t6) "movq %[" #t0 "], %%rdx\n\t"                                       \
                                "imulq %[inv], %%rdx\n\t"                                          \
                                "xorl %k[lo], %k[lo]\n\t" FP_MULADD(p, 0, t0, t1)                  \
                                    FP_MULADD(p, 8, t1, t2) FP_MULADD(p, 16, t2, t3)               \
                                        FP_MULADD(p, 24, t3, t4) FP_MULADD(p, 32, t4, t5)          \
                                            FP_MULADD(p, 40, t5, t6) "adoxq %[" #t0 "], %[" #t6    \
                                                                     "]\n\t"

/* d = t - p[off] with borrow, into a scratch register s. */
#define FP_SUBP(first, off, tj, s)                                                                 \
    "movq %[" #tj "], %[" #s "]\n\t" first " " #off "(%[p]), %[" #s "]\n\t"
/* t = d when the subtraction did not borrow (t >= p). */
#define FP_TAKE(tj, s) "cmovncq %[" #s "], %[" #tj "]\n\t"

/*
 * N = 4: 16 + 16 mulx, 4 imul. 11 registers. 25 ns (portable 30 ns).
 */
void fp_mont_mul4_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t p[4],
                      uint64_t inv)
{
    uint64_t t0, t1, t2, t3, t4, lo, hi, rdx;
    const uint64_t *pa = a, *pb = b;
    __asm__(
        "xorl %k[t0], %k[t0]\n\t"
        "xorl %k[t1], %k[t1]\n\t"
        "xorl %k[t2], %k[t2]\n\t"
        "xorl %k[t3], %k[t3]\n\t"
        "xorl %k[t4], %k[t4]\n\t" FP_ROW4(0, t0, t1, t2, t3, t4) /* result window t1..t4, t0 = 0 */
        FP_ROW4(8, t1, t2, t3, t4, t0) FP_ROW4(16, t2, t3, t4, t0, t1)
            FP_ROW4(24, t3, t4, t0, t1, t2) /* t = (t4, t0, t1, t2) */
        /* scratch: lo, hi, rdx, t3 (zero) */
        FP_SUBP("subq", 0, t4, lo) FP_SUBP("sbbq", 8, t0, hi) FP_SUBP("sbbq", 16, t1, rdx)
            FP_SUBP("sbbq", 24, t2, t3) FP_TAKE(t4, lo) FP_TAKE(t0, hi) FP_TAKE(t1, rdx)
                FP_TAKE(t2, t3)
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
void fp_mont_mul6_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6], const uint64_t p[6],
                      uint64_t inv)
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, rdx;
    const uint64_t *pa = a, *pb = b;
    __asm__("xorl %k[t0], %k[t0]\n\t"
            "xorl %k[t1], %k[t1]\n\t"
            "xorl %k[t2], %k[t2]\n\t"
            "xorl %k[t3], %k[t3]\n\t"
            "xorl %k[t4], %k[t4]\n\t"
            "xorl %k[t5], %k[t5]\n\t"
            "xorl %k[t6], %k[t6]\n\t" FP_ROW6(0, t0, t1, t2, t3, t4, t5, t6)
                FP_ROW6(8, t1, t2, t3, t4, t5, t6, t0) FP_ROW6(16, t2, t3, t4, t5, t6, t0, t1)
                    FP_ROW6(24, t3, t4, t5, t6, t0, t1, t2) FP_ROW6(32, t4, t5, t6, t0, t1, t2, t3)
                        FP_ROW6(40, t5, t6, t0, t1, t2, t3, t4) /* t = (t6, t0, t1, t2, t3, t4) */
            /* scratch: lo, hi, rdx, a, b, t5 (zero) */
            FP_SUBP("subq", 0, t6, lo) FP_SUBP("sbbq", 8, t0, hi) FP_SUBP("sbbq", 16, t1, rdx)
                FP_SUBP("sbbq", 24, t2, a) FP_SUBP("sbbq", 32, t3, b) FP_SUBP("sbbq", 40, t4, t5)
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

/* ---- squaring ------------------------------------------------------------
 *
 * a·a = 2·T + D, T = sum over i < j of a_i·a_j·2^(64(i+j)) (the triangle,
 * N(N-1)/2 products), D = sum of a_i^2·2^(128i) (N products). Three passes
 * over a 2N-word stack buffer s:
 *   A  the triangle, row i = a_i·(a_{i+1} .. a_{N-1}), rows after the first
 *      on the two ADCX/ADOX chains; words go to s as soon as no later row
 *      touches them, so at most N words are live in registers;
 *   B  S = 2T + D word by word: ADOX w, w doubles (OF carries the shifted-
 *      out bit into the next word), ADCX adds the diagonal (CF); S fits 2N
 *      words, so both chains end with no carry;
 *   C  Montgomery reduction of the low half L only, one FP_REDC row per
 *      word (t = (t + m·p) / 2^64 over the sliding window), then the high
 *      half H added in: a·a·R^-1 = H + (L + M·p)/R with (L + M·p)/R <= p
 *      and H < p^2/R < p/2, so the sum is < 2p and one conditional
 *      subtraction finishes.
 * Products: N(N-1)/2 + N + N^2 mulx + N imul: 57 + 6 for N = 6 (78 for
 * the multiplication), 26 + 4 for N = 4 (36).
 *
 * Measured (same machine, dependent a = a·a, rdtsc, min of 101 runs of
 * 10^4, the multiplication kernel in the same run): N = 6 94 against 110
 * TSC cycles, N = 4 52 against 56; through bls381_fp_sqr 40 ns against
 * 45 ns for bls381_fp_mul, bn254_fp_sqr 22 ns against 23 ns. The stack
 * buffer costs store-to-load latency between the passes, which shows most
 * at N = 4, where the three passes are short.
 */

/* Reduction row over the window (t0 .. tN), tN = 0 on entry; afterwards
 * t0 = 0 and the value is (t1 .. tN). */
#define FP_REDC4(t0, t1, t2, t3, t4)                                                               \
    "movq %[" #t0 "], %%rdx\n\t"                                                                   \
    "imulq %[inv], %%rdx\n\t"                                                                      \
    "xorl %k[lo], %k[lo]\n\t" FP_MULADD(p, 0, t0, t1) FP_MULADD(p, 8, t1, t2)                      \
        FP_MULADD(p, 16, t2, t3) FP_MULADD(p, 24, t3, t4) "adoxq %[" #t0 "], %[" #t4 "]\n\t"

#define FP_REDC6(t0, t1, t2, t3, t4, t5, t6)                                                       \
    "movq %[" #t0 "], %%rdx\n\t"                                                                   \
    "imulq %[inv], %%rdx\n\t"                                                                      \
    "xorl %k[lo], %k[lo]\n\t" FP_MULADD(p, 0, t0, t1) FP_MULADD(p, 8, t1, t2)                      \
        FP_MULADD(p, 16, t2, t3) FP_MULADD(p, 24, t3, t4) FP_MULADD(p, 32, t4, t5)                 \
            FP_MULADD(p, 40, t5, t6) "adoxq %[" #t0 "], %[" #t6 "]\n\t"

/* s[k] = x (k a word index of the stack buffer). */
#define FP_PUT(k, x) "movq %[" #x "], 8*" #k "+%[s]\n\t"

/* Pass B for words 2k, 2k+1: wl = 2·s[2k] + lo(a_k^2), wh = 2·s[2k+1] +
 * hi(a_k^2) + carries; both chains open. */
#define FP_DIAG(k, wl, wh)                                                                         \
    "movq 8*" #k "(%[a]), %%rdx\n\t"                                                               \
    "mulxq %%rdx, %[lo], %[hi]\n\t"                                                                \
    "movq 16*" #k "+%[s], %[" #wl "]\n\t"                                                          \
    "adoxq %[" #wl "], %[" #wl "]\n\t"                                                             \
    "adcxq %[lo], %[" #wl "]\n\t"                                                                  \
    "movq 16*" #k "+8+%[s], %[" #wh "]\n\t"                                                        \
    "adoxq %[" #wh "], %[" #wh "]\n\t"                                                             \
    "adcxq %[hi], %[" #wh "]\n\t"

/*
 * N = 4: 6 + 4 + 16 mulx, 4 imul.
 */
void fp_mont_sqr4_adx(uint64_t r[4], const uint64_t a[4], const uint64_t p[4], uint64_t inv)
{
    uint64_t s[8];
    uint64_t t0, t1, t2, t3, t4, lo, hi, rdx;
    const uint64_t *pa = a;
    __asm__(/* A, row 0: a0·(a1, a2, a3) on one carry chain -> t1 .. t4 */
            "movq 0(%[a]), %%rdx\n\t"
            "mulxq 8(%[a]), %[t1], %[t2]\n\t"
            "mulxq 16(%[a]), %[lo], %[t3]\n\t"
            "addq %[lo], %[t2]\n\t"
            "mulxq 24(%[a]), %[lo], %[t4]\n\t"
            "adcq %[lo], %[t3]\n\t"
            "adcq $0, %[t4]\n\t" FP_PUT(1, t1) FP_PUT(2, t2)
            /* row 1: a1·(a2, a3) into words 3 .. 5 (t3, t4, t1) */
            "movq 8(%[a]), %%rdx\n\t"
            "xorl %k[t2], %k[t2]\n\t"
            "xorl %k[t1], %k[t1]\n\t" FP_MULADD(a, 16, t3, t4)
                FP_MULADD(a, 24, t4, t1) "adoxq %[t2], %[t1]\n\t" FP_PUT(3, t3)
            /* row 2: a2·a3 into words 5, 6 (t1, t2) */
            "movq 16(%[a]), %%rdx\n\t"
            "mulxq 24(%[a]), %[lo], %[t2]\n\t"
            "addq %[lo], %[t1]\n\t"
            "adcq $0, %[t2]\n\t" FP_PUT(4, t4) FP_PUT(5, t1) FP_PUT(
                6, t2) "movq $0, 8*7+%[s]\n\t"
                       /* B: word 0 is lo(a0^2) (s[0] would be 0); low half to t0 .. t3 */
                       "xorl %k[t4], %k[t4]\n\t"
                       "movq 0(%[a]), %%rdx\n\t"
                       "mulxq %%rdx, %[t0], %[hi]\n\t"
                       "movq 8+%[s], %[t1]\n\t"
                       "adoxq %[t1], %[t1]\n\t"
                       "adcxq %[hi], %[t1]\n\t" FP_DIAG(1, t2, t3) FP_DIAG(2, t4, rdx)
                           FP_PUT(4, t4) "movq %%rdx, 8*5+%[s]\n\t" FP_DIAG(3, t4, rdx)
                               FP_PUT(6, t4) "movq %%rdx, 8*7+%[s]\n\t"
                                             /* C: reduce (t0 .. t3), add (s[4] .. s[7]) */
                                             "xorl %k[t4], %k[t4]\n\t" FP_REDC4(t0, t1, t2, t3, t4)
                                                 FP_REDC4(t1, t2, t3, t4, t0)
                                                     FP_REDC4(t2, t3, t4, t0, t1)
                                                         FP_REDC4(t3, t4, t0, t1,
                                                                  t2) /* t = (t4, t0, t1, t2) */
            "addq 8*4+%[s], %[t4]\n\t"
            "adcq 8*5+%[s], %[t0]\n\t"
            "adcq 8*6+%[s], %[t1]\n\t"
            "adcq 8*7+%[s], %[t2]\n\t" FP_SUBP("subq", 0, t4, lo) FP_SUBP("sbbq", 8, t0, hi)
                FP_SUBP("sbbq", 16, t1, rdx) FP_SUBP("sbbq", 24, t2, t3) FP_TAKE(t4, lo)
                    FP_TAKE(t0, hi) FP_TAKE(t1, rdx) FP_TAKE(t2, t3)
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [lo] "=&r"(lo), [hi] "=&r"(hi), [rdx] "=&d"(rdx), [s] "=m"(s), [a] "+&r"(pa)
            : [p] "r"(p), [inv] "rm"(inv)
            : "cc", "memory"); /* reads a, p */
    r[0] = t4;
    r[1] = t0;
    r[2] = t1;
    r[3] = t2;
}

/*
 * N = 6: 15 + 6 + 36 mulx, 6 imul.
 */
void fp_mont_sqr6_adx(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t inv)
{
    uint64_t s[12];
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, rdx;
    const uint64_t *pa = a;
    __asm__(/* A, row 0: a0·(a1 .. a5) on one carry chain -> words 1 .. 6 */
            "movq 0(%[a]), %%rdx\n\t"
            "mulxq 8(%[a]), %[t1], %[t2]\n\t"
            "mulxq 16(%[a]), %[lo], %[t3]\n\t"
            "addq %[lo], %[t2]\n\t"
            "mulxq 24(%[a]), %[lo], %[t4]\n\t"
            "adcq %[lo], %[t3]\n\t"
            "mulxq 32(%[a]), %[lo], %[t5]\n\t"
            "adcq %[lo], %[t4]\n\t"
            "mulxq 40(%[a]), %[lo], %[t6]\n\t"
            "adcq %[lo], %[t5]\n\t"
            "adcq $0, %[t6]\n\t" FP_PUT(1, t1) FP_PUT(2, t2)
            /* row 1: a1·(a2 .. a5) into words 3 .. 7 (t3 .. t6, t1) */
            "movq 8(%[a]), %%rdx\n\t"
            "xorl %k[t2], %k[t2]\n\t"
            "xorl %k[t1], %k[t1]\n\t" FP_MULADD(a, 16, t3, t4) FP_MULADD(a, 24, t4, t5)
                FP_MULADD(a, 32, t5, t6)
                    FP_MULADD(a, 40, t6, t1) "adoxq %[t2], %[t1]\n\t" FP_PUT(3, t3) FP_PUT(4, t4)
            /* row 2: a2·(a3, a4, a5) into words 5 .. 8 (t5, t6, t1, t2) */
            "movq 16(%[a]), %%rdx\n\t"
            "xorl %k[t3], %k[t3]\n\t"
            "xorl %k[t2], %k[t2]\n\t" FP_MULADD(a, 24, t5, t6) FP_MULADD(a, 32, t6, t1)
                FP_MULADD(a, 40, t1, t2) "adoxq %[t3], %[t2]\n\t" FP_PUT(5, t5) FP_PUT(6, t6)
            /* row 3: a3·(a4, a5) into words 7 .. 9 (t1, t2, t3) */
            "movq 24(%[a]), %%rdx\n\t"
            "xorl %k[t4], %k[t4]\n\t"
            "xorl %k[t3], %k[t3]\n\t" FP_MULADD(a, 32, t1, t2) FP_MULADD(
                a, 40, t2,
                t3) "adoxq %[t4], %[t3]\n\t"
                    /* row 4: a4·a5 into words 9, 10 (t3, t4) */
                    "movq 32(%[a]), %%rdx\n\t"
                    "mulxq 40(%[a]), %[lo], %[t4]\n\t"
                    "addq %[lo], %[t3]\n\t"
                    "adcq $0, %[t4]\n\t" FP_PUT(7, t1) FP_PUT(8, t2) FP_PUT(9, t3) FP_PUT(
                        10,
                        t4) "movq $0, 8*11+%[s]\n\t"
                            /* B: word 0 is lo(a0^2) (s[0] would be 0); low half to t0 .. t5 */
                            "xorl %k[t6], %k[t6]\n\t"
                            "movq 0(%[a]), %%rdx\n\t"
                            "mulxq %%rdx, %[t0], %[hi]\n\t"
                            "movq 8+%[s], %[t1]\n\t"
                            "adoxq %[t1], %[t1]\n\t"
                            "adcxq %[hi], %[t1]\n\t" FP_DIAG(1, t2, t3) FP_DIAG(2, t4, t5) FP_DIAG(
                                3, t6, rdx) FP_PUT(6, t6) "movq %%rdx, 8*7+%[s]\n\t" FP_DIAG(4, t6,
                                                                                             rdx)
                                FP_PUT(8, t6) "movq %%rdx, 8*9+%[s]\n\t" FP_DIAG(5, t6, rdx) FP_PUT(
                                    10,
                                    t6) "movq %%rdx, 8*11+%[s]\n\t"
                                        /* C: reduce (t0 .. t5), add (s[6] .. s[11]) */
                                        "xorl %k[t6], %k[t6]\n\t" FP_REDC6(t0, t1, t2, t3, t4, t5,
                                                                           t6)
                                            FP_REDC6(t1, t2, t3, t4, t5, t6,
                                                     t0) FP_REDC6(t2, t3, t4, t5, t6, t0, t1)
                                                FP_REDC6(t3, t4, t5, t6, t0, t1,
                                                         t2) FP_REDC6(t4, t5, t6, t0, t1, t2, t3)
                                                    FP_REDC6(t5, t6, t0, t1, t2, t3,
                                                             t4) /* t = (t6, t0, t1, t2, t3, t4) */
            "addq 8*6+%[s], %[t6]\n\t"
            "adcq 8*7+%[s], %[t0]\n\t"
            "adcq 8*8+%[s], %[t1]\n\t"
            "adcq 8*9+%[s], %[t2]\n\t"
            "adcq 8*10+%[s], %[t3]\n\t"
            "adcq 8*11+%[s], %[t4]\n\t"
            /* scratch: lo, hi, rdx, a, t5; the top word is subtracted in
             * place and restored from s[0] when the subtraction borrows */
            FP_SUBP("subq", 0, t6, lo) FP_SUBP("sbbq", 8, t0, hi) FP_SUBP("sbbq", 16, t1, rdx)
                FP_SUBP("sbbq", 24, t2, a) FP_SUBP("sbbq", 32, t3, t5)
                    FP_PUT(0, t4) "sbbq 40(%[p]), %[t4]\n\t"
                                  "cmovcq 8*0+%[s], %[t4]\n\t" FP_TAKE(t6, lo) FP_TAKE(t0, hi)
                                      FP_TAKE(t1, rdx) FP_TAKE(t2, a) FP_TAKE(t3, t5)
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [rdx] "=&d"(rdx),
              [s] "=m"(s), [a] "+&r"(pa)
            : [p] "r"(p), [inv] "rm"(inv)
            : "cc", "memory"); /* reads a, p */
    r[0] = t6;
    r[1] = t0;
    r[2] = t1;
    r[3] = t2;
    r[4] = t3;
    r[5] = t4;
}

#endif
