/*
 * What the two NTT instantiations (bls381_ntt.h, bn254_ntt.h) share: the
 * transform direction, the bit-reversal index map and the tuned sizes.
 */
#ifndef CUZK_NTT_NTT_COMMON_H
#define CUZK_NTT_NTT_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* FORWARD evaluates with ω (Σ_i a_i ω^(ij)), INVERSE with ω^-1; neither
 * includes the factor 1/n. */
typedef enum ntt_dir { CUZK_NTT_FORWARD = 0, CUZK_NTT_INVERSE = 1 } ntt_dir_t;

/*
 * The radix-2 stages whose butterflies span less than 2^CUZK_NTT_BLOCK_LOG
 * elements run block by block: all of them on one block while it sits in the
 * core's L2 cache, blocks spread over the threads. Wider stages each make
 * one pass over the whole vector, their butterflies split over the threads.
 * Measured (forward, BLS12-381, 2^20 and 2^22, 1 and 2 threads, 16-core Xeon
 * VM): blocks of 2^12, 2^13 and 2^14 are equal within the run-to-run noise
 * (±15 %), because a butterfly costs one field multiplication (32 ns there)
 * and the passes are nowhere near the memory bandwidth. 2^12 keeps a block
 * (128 KiB) and its twiddles (128 KiB) well inside a 1 MiB L2.
 */
#define CUZK_NTT_BLOCK_LOG 12

/* The fewest butterflies or elements one thread takes in a pass: about
 * 45 µs of work at 45 ns per butterfly, so that waking the pool's helpers
 * (a few µs) stays negligible. */
#define CUZK_NTT_MIN_CHUNK 1024

/* The powers c^i of a coset shift are tables of 2^CUZK_NTT_POW_LOG entries
 * (8 KiB on the stack) times one power per group of that many elements. */
#define CUZK_NTT_POW_LOG 8

/* The low `bits` bits of i in reverse order (bits <= 64). */
static inline uint64_t reverse_bits(uint64_t i, unsigned bits)
{
    if (bits == 0)
        return 0;
    uint64_t x = i;
    x = (x >> 1 & 0x5555555555555555ULL) | (x & 0x5555555555555555ULL) << 1;
    x = (x >> 2 & 0x3333333333333333ULL) | (x & 0x3333333333333333ULL) << 2;
    x = (x >> 4 & 0x0f0f0f0f0f0f0f0fULL) | (x & 0x0f0f0f0f0f0f0f0fULL) << 4;
    x = __builtin_bswap64(x);
    return x >> (64 - bits);
}

#endif
