/*
 * The MSM phases that do not depend on the curve (gpu_kernels.h): sorting
 * the (bucket, point) pairs of a window with CUB's radix sort, which ships
 * with the toolkit (or of every window at once, their keys offset by the
 * window and the offsets taken off after), finding each bucket's run in
 * the sorted keys, the compaction of a bitmap into the list of its set
 * positions, and the selection of the scalars a bitmap marks. One translation unit for both
 * curves, so that CUB's templates are compiled once.
 */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "cuda/gpu_kernels.h"

extern "C" int gpu_sort_pairs_bytes(size_t *bytes, size_t n, unsigned bits)
{
    *bytes = 0;
    return cub::DeviceRadixSort::SortPairs(nullptr, *bytes, (const uint32_t *)nullptr,
                                           (uint32_t *)nullptr, (const uint32_t *)nullptr,
                                           (uint32_t *)nullptr, n, 0, (int)bits);
}

extern "C" int gpu_sort_pairs(void *scratch, size_t scratch_bytes, const uint32_t *keys_in,
                              uint32_t *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                              size_t n, unsigned bits, gpu_stream_t s)
{
    if (n == 0)
        return cudaSuccess;
    size_t bytes = scratch_bytes;
    return cub::DeviceRadixSort::SortPairs(scratch, bytes, keys_in, keys_out, vals_in, vals_out, n,
                                           0, (int)bits, s);
}

/* A run starts where the key differs from its left neighbour (or at 0) and
 * ends where it differs from its right one (or at n). */
__global__ void msm_bounds_kernel(uint32_t *start, uint32_t *end, const uint32_t *keys, size_t n,
                                  size_t K, unsigned W)
{
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < n * W;
         t += (size_t)gridDim.x * blockDim.x) {
        size_t w = t / n, j = t % n;
        uint32_t k = keys[t];
        if (j == 0 || keys[t - 1] != k)
            start[w * K + k] = (uint32_t)j;
        if (j == n - 1 || keys[t + 1] != k)
            end[w * K + k] = (uint32_t)j + 1;
    }
}

extern "C" int gpu_msm_bounds(uint32_t *start, uint32_t *end, const uint32_t *keys, size_t n,
                              size_t K, unsigned W, gpu_stream_t s)
{
    size_t work = n * W;
    if (work == 0)
        return cudaSuccess;
    size_t blocks = (work + 255) / 256;
    msm_bounds_kernel<<<(unsigned)(blocks > (1u << 20) ? (1u << 20) : blocks), 256, 0, s>>>(
        start, end, keys, n, K, W);
    return cudaGetLastError();
}

__global__ void msm_unbias_kernel(uint32_t *keys, size_t n, size_t K, unsigned W)
{
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < n * W;
         t += (size_t)gridDim.x * blockDim.x)
        keys[t] -= (uint32_t)(t / n * K);
}

extern "C" int gpu_msm_unbias(uint32_t *keys, size_t n, size_t K, unsigned W, gpu_stream_t s)
{
    size_t work = n * W;
    if (work == 0)
        return cudaSuccess;
    size_t blocks = (work + 255) / 256;
    msm_unbias_kernel<<<(unsigned)(blocks > (1u << 20) ? (1u << 20) : blocks), 256, 0, s>>>(keys, n,
                                                                                            K, W);
    return cudaGetLastError();
}

/* ---- bitmap compaction and selection ---------------------------------- */

/* counts[w] = the set bits of bitmap[w]. */
__global__ void bitmap_popc_kernel(uint32_t *counts, const uint32_t *bitmap, size_t words)
{
    for (size_t w = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w < words;
         w += (size_t)gridDim.x * blockDim.x)
        counts[w] = (uint32_t)__popc(bitmap[w]);
}

/* idx[offsets[w] + r] = 32·w + the r-th set bit of bitmap[w]; the last
 * word's thread writes the total. */
__global__ void bitmap_scatter_kernel(uint32_t *idx, uint32_t *count, const uint32_t *bitmap,
                                      const uint32_t *offsets, size_t words)
{
    for (size_t w = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w < words;
         w += (size_t)gridDim.x * blockDim.x) {
        uint32_t b = bitmap[w], o = offsets[w];
        if (w == words - 1)
            *count = o + (uint32_t)__popc(b);
        while (b) {
            idx[o++] = (uint32_t)(32 * w) + (uint32_t)(__ffs(b) - 1);
            b &= b - 1;
        }
    }
}

/* out[offsets[i / 32] + the set bits of bitmap[i / 32] below bit i % 32] =
 * src[i] for the set bits i < n; an element is 32 bytes, two uint4. One
 * thread an element, so that consecutive threads read consecutive
 * elements. */
__global__ void bitmap_select_kernel(uint4 *out, const uint4 *src, const uint32_t *bitmap,
                                     const uint32_t *offsets, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint32_t b = bitmap[i / 32], bit = (uint32_t)(i % 32);
        if (!(b >> bit & 1))
            continue;
        size_t o = offsets[i / 32] + (uint32_t)__popc(b & ((1u << bit) - 1));
        out[2 * o] = src[2 * i];
        out[2 * o + 1] = src[2 * i + 1];
    }
}

static size_t compact_arrays_bytes(size_t words)
{
    return (2 * words * sizeof(uint32_t) + 255) & ~(size_t)255;
}

static unsigned grid_of(size_t items)
{
    return (unsigned)((items + 255) / 256 > 65536 ? 65536 : (items + 255) / 256);
}

extern "C" int gpu_bitmap_compact_bytes(size_t *bytes, size_t words)
{
    size_t scan = 0;
    cudaError_t e = cub::DeviceScan::ExclusiveSum(nullptr, scan, (const uint32_t *)nullptr,
                                                  (uint32_t *)nullptr, words ? words : 1);
    *bytes = compact_arrays_bytes(words) + scan;
    return e;
}

/* *offsets (in scratch) = the exclusive prefix sums of the set bits of
 * bitmap's words: where each word's first set position goes in the
 * compacted list. words > 0. */
static cudaError_t bitmap_offsets(uint32_t **offsets, void *scratch, size_t scratch_bytes,
                                  const uint32_t *bitmap, size_t words, cudaStream_t s)
{
    uint32_t *counts = (uint32_t *)scratch;
    *offsets = counts + words;
    size_t arrays = compact_arrays_bytes(words), scan = scratch_bytes - arrays;
    bitmap_popc_kernel<<<grid_of(words), 256, 0, s>>>(counts, bitmap, words);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cub::DeviceScan::ExclusiveSum((unsigned char *)scratch + arrays, scan, counts, *offsets,
                                          words, s);
    return e;
}

extern "C" int gpu_bitmap_compact(void *scratch, size_t scratch_bytes, uint32_t *idx,
                                  uint32_t *count, const uint32_t *bitmap, size_t words,
                                  gpu_stream_t s)
{
    if (words == 0)
        return cudaMemsetAsync(count, 0, sizeof(uint32_t), s);
    uint32_t *offsets;
    cudaError_t e = bitmap_offsets(&offsets, scratch, scratch_bytes, bitmap, words, s);
    if (e != cudaSuccess)
        return e;
    bitmap_scatter_kernel<<<grid_of(words), 256, 0, s>>>(idx, count, bitmap, offsets, words);
    return cudaGetLastError();
}

extern "C" int gpu_bitmap_select(void *scratch, size_t scratch_bytes, void *out, const void *src,
                                 const uint32_t *bitmap, size_t n, gpu_stream_t s)
{
    if (n == 0)
        return cudaSuccess;
    /* Bits at and above n in the last word count towards no offset that
     * an element below n uses, so they need no masking. */
    uint32_t *offsets;
    cudaError_t e = bitmap_offsets(&offsets, scratch, scratch_bytes, bitmap, (n + 31) / 32, s);
    if (e != cudaSuccess)
        return e;
    bitmap_select_kernel<<<grid_of(n), 256, 0, s>>>((uint4 *)out, (const uint4 *)src, bitmap,
                                                    offsets, n);
    return cudaGetLastError();
}
