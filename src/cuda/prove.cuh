/*
 * The prover's steps around the MSM and the NTT, on the device: the kernels.
 * Host side: prove.c (gpu_prove.h) and ntt.c (the H chain).
 *
 *   classify     scalar i → CUZK_MSM_ZERO / _ONE / _OTHER, exactly as the
 *                CPU's NAME_msm_classify: zero and one are tested on the
 *                Montgomery form (0 and R), the rest converted to canonical
 *                limbs; the class bytes, a bitmap of the ones (bit i mod 32
 *                of word i / 32) and the totals (counts, OR of the "other"
 *                canonical limbs) through warp votes and one atomic a warp
 *                (the grid capped, so that the atomics stay few).
 *   ones         Σ of the bases whose bit is set: thread t adds the points of
 *                its range of bitmap words by mixed XYZZ additions; the
 *                partial sums are then added up by msm_reduce_windows_kernel
 *                (two levels of one block each).
 *   r1cs         y = M·w for M in CSR (row_ptr u64, col u32, val Montgomery
 *                Fr): one thread per row of at most R1CS_LONG entries, one
 *                warp per longer row (the lanes' partial dot products summed
 *                by shuffles). Sums mod r are exact, so the order of the
 *                additions does not change the bytes.
 *   abc          the H chain's pointwise step, a_i = a_i·b_i − c_i.
 *   mul_const    out_i = in_i ⊗ k, the Montgomery product with one constant:
 *                k = R² mod r takes canonical values to Montgomery form,
 *                k = 1 takes them back.
 *   clear_marked scalar i = 0 where bit i of a bitmap is set (the scalars
 *                whose bases the ones sum has already added).
 */
#ifndef CUZK_CUDA_PROVE_CUH
#define CUZK_CUDA_PROVE_CUH

#include "cuda/ec.cuh"
#include "cuda/load.cuh"
#include "cuda/msm.cuh"
#include "cuda/ntt.cuh"

namespace cuzk
{

/* The classes, as src/msm/msm.h numbers them. */
enum : unsigned { CLS_ZERO = 0, CLS_ONE = 1, CLS_OTHER = 2, CLS_NONE = 0xff };

/* The totals of a classification in device memory (prove.c reads the same
 * layout): counts of zero, one and other, then the OR of the "other"
 * scalars' canonical 32-bit limbs. */
struct classify_acc_t {
    unsigned long long zero, one, other;
    uint32_t or_bits[8];
};

/*
 * cls[i] (cls non-NULL), bitmap[i / 32] bit i % 32 = (class of scalars[i]
 * is one) (bitmap non-NULL; ceil(n / 32) words, bits past n clear), the
 * same for the class other in `other` (non-NULL), and the
 * totals added into *acc (zeroed by the launcher). The loop steps whole
 * blocks, so that every lane of a warp reaches each vote (blockDim a
 * multiple of 32).
 */
template <class R>
__global__ void msm_classify_kernel(uint8_t *cls, uint32_t *bitmap, uint32_t *other,
                                    classify_acc_t *acc, const fp_t<R> *scalars, size_t n)
{
    static_assert(R::N == 8, "scalars are 256-bit");
    const unsigned lane = threadIdx.x & 31;
    unsigned cz = 0, c1 = 0, co = 0;
    uint32_t orb[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t base = blockIdx.x * (size_t)blockDim.x; base < n;
         base += (size_t)gridDim.x * blockDim.x) {
        size_t i = base + threadIdx.x;
        unsigned c = CLS_NONE;
        if (i < n) {
            fp_t<R> k, one;
            ld_vec(k, &scalars[i]);
            f_set_one<R>(one);
            if (f_is_zero<R>(k)) {
                c = CLS_ZERO;
            } else if (f_equal<R>(k, one)) {
                c = CLS_ONE;
            } else {
                f_from_mont<R>(k, k);
                uint32_t high = 0;
#pragma unroll
                for (int j = 1; j < 8; j++)
                    high |= k.l[j];
                if (high == 0 && k.l[0] <= 1) {
                    c = k.l[0]; /* CLS_ZERO or CLS_ONE: not for reduced input */
                } else {
                    c = CLS_OTHER;
#pragma unroll
                    for (int j = 0; j < 8; j++)
                        orb[j] |= k.l[j];
                }
            }
            if (cls)
                cls[i] = (uint8_t)c;
            cz += c == CLS_ZERO;
            c1 += c == CLS_ONE;
            co += c == CLS_OTHER;
        }
        uint32_t ones = __ballot_sync(0xffffffffu, c == CLS_ONE);
        uint32_t others = __ballot_sync(0xffffffffu, c == CLS_OTHER);
        size_t first = base + (threadIdx.x & ~31u);
        if (bitmap && lane == 0 && first < n)
            bitmap[first / 32] = ones;
        if (other && lane == 0 && first < n)
            other[first / 32] = others;
    }
    cz = __reduce_add_sync(0xffffffffu, cz);
    c1 = __reduce_add_sync(0xffffffffu, c1);
    co = __reduce_add_sync(0xffffffffu, co);
#pragma unroll
    for (int j = 0; j < 8; j++)
        orb[j] = __reduce_or_sync(0xffffffffu, orb[j]);
    if (lane == 0) {
        if (cz)
            atomicAdd(&acc->zero, (unsigned long long)cz);
        if (c1)
            atomicAdd(&acc->one, (unsigned long long)c1);
        if (co)
            atomicAdd(&acc->other, (unsigned long long)co);
#pragma unroll
        for (int j = 0; j < 8; j++)
            if (orb[j])
                atomicOr(&acc->or_bits[j], orb[j]);
    }
}

/* The next set bit at or after word w of [.., w1): its position, with the
 * bit cleared in *bits (the word's bits not taken yet); false when none. */
__device__ __forceinline__ bool ones_next_(size_t *pos, uint32_t *bits, size_t *w, size_t w1,
                                           const uint32_t *bitmap)
{
    while (*bits == 0 && ++*w < w1)
        *bits = bitmap[*w];
    if (*bits == 0)
        return false;
    *pos = *w * 32 + (unsigned)(__ffs(*bits) - 1);
    *bits &= *bits - 1;
    return true;
}

/*
 * part[t] = Σ bases[i] over the set bits i of bitmap words [t·per,
 * min((t + 1)·per, words)), t < T. One flat loop of additions: a lane
 * whose word runs out loads its next words within the same step, so a
 * warp's lanes each add about per·32·density points instead of waiting,
 * word after word, for the lane with the most bits in that word.
 */
template <class F>
__global__ void __launch_bounds__(128, msm_min_blocks<F>())
    msm_ones_partial_kernel(xyzz_t<F> *part, const uint32_t *bitmap, const affine_t<F> *bases,
                            size_t words, size_t per, size_t T)
{
    CUZK_GRID_STRIDE(t, T)
    {
        xyzz_t<F> acc;
        xyzz_set_inf(acc);
        size_t w = t * per, w1 = w + per < words ? w + per : words, i;
        uint32_t bits = w < w1 ? bitmap[w] : 0;
        while (ones_next_(&i, &bits, &w, w1, bitmap)) {
            affine_t<F> p;
            ld_vec(p, &bases[i]);
            xyzz_add_affine(acc, acc, p);
        }
        st_vec(&part[t], acc);
    }
}

/* Rows longer than this go to the warp kernel. */
enum { R1CS_LONG = 32 };

/* y[i] = Σ val[k]·w[col[k]] over row i, for the rows of at most R1CS_LONG
 * entries (the others are left to r1cs_long_kernel). */
template <class R>
__global__ void r1cs_rows_kernel(fp_t<R> *y, const uint64_t *row_ptr, const uint32_t *col,
                                 const fp_t<R> *val, const fp_t<R> *w, size_t rows)
{
    CUZK_GRID_STRIDE(i, rows)
    {
        uint64_t s = row_ptr[i], e = row_ptr[i + 1];
        if (e - s > R1CS_LONG)
            continue;
        fp_t<R> acc;
        f_set_zero<R>(acc);
        for (uint64_t k = s; k < e; k++) {
            fp_t<R> a, b;
            ld_vec(a, &val[k]);
            ld_vec(b, &w[col[k]]);
            f_add<R>(acc, acc, f_mul_call<R>(a, b));
        }
        st_vec(&y[i], acc);
    }
}

/* The same for the rows longer than R1CS_LONG: one warp a row. */
template <class R>
__global__ void r1cs_long_kernel(fp_t<R> *y, const uint64_t *row_ptr, const uint32_t *col,
                                 const fp_t<R> *val, const fp_t<R> *w, size_t rows)
{
    const unsigned lane = threadIdx.x & 31;
    const size_t warps = (size_t)gridDim.x * blockDim.x / 32;
    for (size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32; i < rows; i += warps) {
        uint64_t s = row_ptr[i], e = row_ptr[i + 1];
        if (e - s <= R1CS_LONG)
            continue; /* the same for every lane */
        fp_t<R> acc, o;
        f_set_zero<R>(acc);
        for (uint64_t k = s + lane; k < e; k += 32) {
            fp_t<R> a, b;
            ld_vec(a, &val[k]);
            ld_vec(b, &w[col[k]]);
            f_add<R>(acc, acc, f_mul_call<R>(a, b));
        }
#pragma unroll
        for (unsigned off = 16; off > 0; off /= 2) {
#pragma unroll
            for (int j = 0; j < R::N; j++)
                o.l[j] = __shfl_down_sync(0xffffffffu, acc.l[j], off);
            f_add<R>(acc, acc, o);
        }
        if (lane == 0)
            st_vec(&y[i], acc);
    }
}

/* a_i = a_i·b_i − c_i (c NULL: a_i·b_i), i < n (the H chains' pointwise
 * step). */
template <class P>
__global__ void ntt_abc_kernel(fp_t<P> *a, const fp_t<P> *b, const fp_t<P> *c, size_t n)
{
    CUZK_GRID_STRIDE(i, n)
    {
        fp_t<P> x, y;
        ld_vec(x, &a[i]);
        ld_vec(y, &b[i]);
        x = f_mul_call<P>(x, y);
        if (c) {
            ld_vec(y, &c[i]);
            f_sub<P>(x, x, y);
        }
        st_vec(&a[i], x);
    }
}

/* out[i] = in[i] ⊗ k (in may be out). */
template <class R>
__global__ void fr_mul_const_kernel(fp_t<R> *out, const fp_t<R> *in, size_t n, fp_t<R> k)
{
    CUZK_GRID_STRIDE(i, n)
    {
        fp_t<R> x;
        ld_vec(x, &in[i]);
        st_vec(&out[i], f_mul_call<R>(x, k));
    }
}

/* scalars[i] = 0 where bit i % 32 of bitmap[i / 32] is set. */
template <class R>
__global__ void clear_marked_kernel(fp_t<R> *scalars, const uint32_t *bitmap, size_t n)
{
    CUZK_GRID_STRIDE(i, n)
    {
        if (bitmap[i / 32] >> (i % 32) & 1) {
            fp_t<R> z;
            f_set_zero<R>(z);
            st_vec(&scalars[i], z);
        }
    }
}

} // namespace cuzk

#endif
