/*
 * The kernels of one curve as a table of C-callable launchers, for the host
 * files of src/cuda (msm.c, ntt.c, ff_test.c). Each curve's translation unit
 * (bls381.cu, bn254.cu) fills one table from the templates of kernels.cuh;
 * the host code is written once against the table.
 *
 * Every launcher queues its kernel(s) on stream s and returns the runtime's
 * error code for the launch (a cudaError_t value, 0 = cudaSuccess): launch
 * failures show at once, faults inside a kernel at the next synchronising
 * call. Pointers are device memory unless a comment says otherwise; element
 * types are the CPU's (same bytes): Fr/Fp elements, affine points, XYZZ
 * points of the group named.
 */
#ifndef CUZK_CUDA_GPU_KERNELS_H
#define CUZK_CUDA_GPU_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The NTT's wide stages of half-span h with n/2h >= 2^CUZK_GPU_NTT_STW_SHIFT
 * read their twiddles from a table of their own (ntt_radix_tw_ in
 * ntt.cuh); ntt.c builds the tables of exactly those stages. */
enum { CUZK_GPU_NTT_STW_SHIFT = 2 };
/* The stages of the NTT's block pass: 2^10 elements of 32 bytes, 32 KiB of
 * shared memory a block (the most one block takes without opting in to
 * more), 256 threads; smaller transforms take all their stages there.
 * ntt.cuh compiles the block kernel for this size as a constant. */
enum { CUZK_GPU_NTT_BLOCK_LOG = 10 };

/* Element-wise operations of the arithmetic tests: r[i] = a[i] op b[i]. */
typedef enum gpu_fop {
    CUZK_GPU_FOP_MUL = 0,
    CUZK_GPU_FOP_SQR = 1, /* r = a^2 */
    CUZK_GPU_FOP_ADD = 2,
    CUZK_GPU_FOP_SUB = 3,
    CUZK_GPU_FOP_DBL = 4, /* r = 2a */
    CUZK_GPU_FOP_NEG = 5, /* r = -a */
    CUZK_GPU_FOP_INV = 6, /* r = a^-1 (0 for 0), the variable-time inversion */
    CUZK_GPU_FOP_COUNT = 7
} gpu_fop_t;

/* Point operations of the curve tests, on affine inputs p[i], q[i], XYZZ
 * output: */
typedef enum gpu_eop {
    CUZK_GPU_EOP_MADD = 0,     /* r = xyzz(p) + q            (mixed addition) */
    CUZK_GPU_EOP_DBL_MADD = 1, /* r = 2·xyzz(p) + q          (mixed, ZZ != 1) */
    CUZK_GPU_EOP_ADD = 2,      /* r = 2·xyzz(p) + 2·xyzz(q)  (XYZZ addition) */
    CUZK_GPU_EOP_COUNT = 3
} gpu_eop_t;

/* The index sequence of the batch-affine probe (baff_probe below), on
 * the device and on the host that replays it. */
#ifdef __CUDACC__
__host__ __device__
#endif
    static inline uint32_t
    gpu_baff_probe_next(uint32_t h)
{
    return h * 1664525u + 1013904223u;
}

typedef struct gpu_field_kernels {
    const char *name; /* "bls381_fp", ... */
    size_t bytes;     /* one element */
    int (*batch)(void *r, const void *a, const void *b, size_t n, gpu_fop_t op, gpu_stream_t s);
    /* Throughput probe: `threads` threads each run two interleaved chains
     * of `iters` dependent multiplications (x = x·y, y = y·x) from a[i mod
     * n], a[(i + 1) mod n], and write x + y to r[i]: 2·threads·iters
     * multiplications. */
    int (*mul_probe)(void *r, const void *a, size_t n, size_t threads, unsigned iters,
                     gpu_stream_t s);
} gpu_field_kernels_t;

typedef struct gpu_group_kernels {
    const char *name;    /* "bls381_g1", ... */
    size_t affine_bytes; /* one affine point */
    size_t xyzz_bytes;   /* one XYZZ point */
    int (*ec_batch)(void *r, const void *p, const void *q, size_t n, gpu_eop_t op, gpu_stream_t s);
    /* Throughput probe: `threads` threads each add the affine q[i mod n] to
     * an XYZZ accumulator `iters` times (the bucket update), starting from
     * p[i mod n], and write it to r[i]: threads·iters mixed additions. */
    int (*madd_probe)(void *r, const void *p, const void *q, size_t n, size_t threads,
                      unsigned iters, gpu_stream_t s);
    /* The same with G1's other coordinate type (every multiplication
     * inlined, fp_t, or called, fpc_t: the one the group does not use;
     * NULL for G2), to compare; madd_alt names it. */
    int (*madd_probe_alt)(void *r, const void *p, const void *q, size_t n, size_t threads,
                          unsigned iters, gpu_stream_t s);
    const char *madd_alt;
    /* Batch-affine probe (G1 only; NULL for G2): `threads` threads each add
     * to k affine accumulators (k in 1, 16, 64, 256; r[i·k + j] =
     * accumulator j of thread i, started at bases[(i·k + j) mod n]) a point
     * of bases at each of `iters` steps, one inversion a step (the binary
     * GCD when vartime, else Fermat's): threads·k·iters affine additions.
     * The indices: h = i·2654435761 mod 2^32, then for every step and
     * accumulator h = gpu_baff_probe_next(h), index h mod n. */
    int (*baff_probe)(void *r, const void *bases, size_t n, size_t threads, unsigned k,
                      bool vartime, unsigned iters, gpu_stream_t s);
    /* msm.cuh, phase by phase; B = 2^(c-1) buckets a window, G = B >> seg_log
     * segments. */
    /* buckets: the W·B bucket sums from the sorted keys/vals and their run
     * bounds, each window's pairs in chunks of `chunk` pairs a thread; the
     * caller zeroes buckets first (an empty bucket is left as infinity).
     * part: 2·W·ceil(n/chunk) XYZZ points of scratch for the runs that
     * cross chunks, which the launcher's second kernel adds up. */
    int (*msm_buckets)(void *buckets, void *part, const uint32_t *keys, const uint32_t *vals,
                       const uint32_t *start, const uint32_t *end, const void *bases, size_t n,
                       unsigned c, unsigned W, size_t chunk, gpu_stream_t s);
    int (*msm_reduce_segments)(void *seg, const void *buckets, unsigned c, unsigned W,
                               unsigned seg_log, gpu_stream_t s);
    int (*msm_reduce_windows)(void *win, const void *seg, size_t G, unsigned W, gpu_stream_t s);
    /* buckets[i] += fresh[i], i < count (XYZZ points) */
    int (*msm_merge)(void *buckets, const void *fresh, size_t count, gpu_stream_t s);
    int (*msm_combine)(void *r, const void *win, unsigned c, unsigned W, gpu_stream_t s);
    /* prove.cuh: part[t] (XYZZ, t < T) = the sum of bases[i] over the set
     * bits i of bitmap words [t·per, min((t + 1)·per, words)). */
    int (*msm_ones_partial)(void *part, const uint32_t *bitmap, const void *bases, size_t words,
                            size_t per, size_t T, gpu_stream_t s);
} gpu_group_kernels_t;

typedef struct gpu_curve_kernels {
    const char *name; /* "bls381", "bn254" */
    unsigned fr_bits; /* the bit length of r: 255, 254 */
    gpu_field_kernels_t fp, fr, fp2;
    gpu_group_kernels_t g1, g2;
    /* MSM digits (scalars in Montgomery form when mont, else canonical) of
     * the n points idx[0..n) (idx NULL: 0..n-1); values are point indices,
     * window w's keys offset by w·bias (0: every window's from 0). */
    int (*msm_digits)(uint32_t *keys, uint32_t *vals, const void *scalars, const uint32_t *idx,
                      size_t n, unsigned c, unsigned W, bool mont, uint32_t bias, gpu_stream_t s);
    /* NTT (ntt.cuh); Fr elements, all in device memory. */
    int (*ntt_pow_table)(void *out, const void *base, uint64_t step, const void *f, size_t count,
                         gpu_stream_t s);
    int (*ntt_mul_tables)(void *out, const void *lo, const void *hi, unsigned b, size_t count,
                          gpu_stream_t s);
    int (*ntt_tws)(void *tws, const void *w, unsigned log2n, unsigned m, gpu_stream_t s);
    int (*ntt_inv)(void *r, const void *a, gpu_stream_t s);
    /* out[i] = in[i << shift], i < count */
    int (*ntt_gather)(void *out, const void *in, unsigned shift, size_t count, gpu_stream_t s);
    /* radix stages lh - radix + 1 .. lh, radix in 1..3; dit: bit-reversed
     * in, natural out, else dif; stw: the stage tables (ntt.cuh), or NULL */
    int (*ntt_radix)(void *a, const void *tw, const void *stw, unsigned log2n, unsigned lh,
                     unsigned radix, bool inverse, bool dit, gpu_stream_t s);
    /* the stages below 2^lm in blocks of 2^lm (dit or dif) */
    int (*ntt_block)(void *a, const void *tws, unsigned log2n, unsigned lm, bool dit,
                     gpu_stream_t s);
    /* in place, a_i and a_rev(i) (log2n bits) swapped, then element i times
     * lo[i mod 2^b]·hi[i >> b] (lo NULL: hi[0]; hi NULL: no scaling), then
     * (sub non-NULL) minus sub_rev(i)·f (f: one element of device memory;
     * sub is read only) */
    int (*ntt_permute)(void *a, unsigned log2n, const void *lo, const void *hi, unsigned b,
                       const void *sub, const void *f, gpu_stream_t s);
    /* element i times lo[k mod 2^b]·hi[k >> b] (lo NULL: hi[0]), k = i or
     * (rev) rev(i) over log2n bits */
    int (*ntt_scale)(void *a, unsigned log2n, const void *lo, const void *hi, unsigned b, bool rev,
                     gpu_stream_t s);
    /* prove.cuh. Classes of n Montgomery scalars: cls (n bytes), bitmap of
     * the ones and bitmap of the others (ceil(n / 32) words each) when
     * non-NULL; acc (56 bytes: three u64 counts zero, one, other, then the
     * OR of the other scalars' canonical value as eight u32 limbs) is
     * zeroed, then accumulated. */
    int (*msm_classify)(uint8_t *cls, uint32_t *bitmap, uint32_t *other, void *acc,
                        const void *scalars, size_t n, gpu_stream_t s);
    /* y = M·w, M in CSR with `rows` rows (row_ptr: rows + 1 entries). */
    int (*r1cs_mul_vec)(void *y, const uint64_t *row_ptr, const uint32_t *col, const void *val,
                        const void *w, size_t rows, gpu_stream_t s);
    /* a_i = a_i·b_i - c_i (c NULL: a_i·b_i), i < n, in place in a. */
    int (*ntt_abc)(void *a, const void *b, const void *c, size_t n, gpu_stream_t s);
    /* out_i = in_i ⊗ k (Montgomery product; k: one Fr element in host
     * memory, read before the launch returns). */
    int (*fr_mul_const)(void *out, const void *in, size_t n, const void *k, gpu_stream_t s);
    /* scalars_i = 0 where bit i % 32 of bitmap[i / 32] is set. */
    int (*clear_marked)(void *scalars, const uint32_t *bitmap, size_t n, gpu_stream_t s);
} gpu_curve_kernels_t;

extern const gpu_curve_kernels_t gpu_bls381_kernels;
extern const gpu_curve_kernels_t gpu_bn254_kernels;

/* msm_sort.cu: the curve-independent MSM phases. */

/* *bytes = the scratch that gpu_sort_pairs needs for n pairs. */
int gpu_sort_pairs_bytes(size_t *bytes, size_t n, unsigned bits);
/* Sorts n (key, value) pairs by the low `bits` bits of the key, stable. */
int gpu_sort_pairs(void *scratch, size_t scratch_bytes, const uint32_t *keys_in, uint32_t *keys_out,
                   const uint32_t *vals_in, uint32_t *vals_out, size_t n, unsigned bits,
                   gpu_stream_t s);
/* Bitmap compaction: *bytes = the scratch of gpu_bitmap_compact for
 * `words` bitmap words. */
int gpu_bitmap_compact_bytes(size_t *bytes, size_t words);
/* idx[0..count) = the positions of the set bits of bitmap (words words),
 * ascending; *count (device memory) = their number. */
int gpu_bitmap_compact(void *scratch, size_t scratch_bytes, uint32_t *idx, uint32_t *count,
                       const uint32_t *bitmap, size_t words, gpu_stream_t s);
/* out[0..k) = the 32-byte elements src[i] at the set bits i < n of bitmap
 * (ceil(n / 32) words), in order; k = those bits. scratch as for
 * gpu_bitmap_compact over ceil(n / 32) words; out and src must not
 * overlap. */
int gpu_bitmap_select(void *scratch, size_t scratch_bytes, void *out, const void *src,
                      const uint32_t *bitmap, size_t n, gpu_stream_t s);
/* For W windows of n sorted keys each (keys[w·n + j]), the run of key k in
 * window w is [start[w·K + k], end[w·K + k]), K = keys a window; entries
 * of absent keys are left alone (zero them first). */
int gpu_msm_bounds(uint32_t *start, uint32_t *end, const uint32_t *keys, size_t n, size_t K,
                   unsigned W, gpu_stream_t s);
/* keys[w·n + j] -= w·K for the W windows of n keys: the keys of one sort
 * of every window (msm_digits with bias K) as each window's own. */
int gpu_msm_unbias(uint32_t *keys, size_t n, size_t K, unsigned W, gpu_stream_t s);

#ifdef __cplusplus
}
#endif

#endif
