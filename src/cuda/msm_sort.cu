/*
 * The MSM phases that do not depend on the curve (gpu_kernels.h): sorting
 * the (bucket, point) pairs of a window with CUB's radix sort, which ships
 * with the toolkit, finding each bucket's run in the sorted keys, and the
 * compaction of a bitmap into the list of its set positions. One
 * translation unit for both curves, so that CUB's templates are compiled
 * once.
 */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "cuda/gpu_kernels.h"

extern "C" int cuzk_gpu_sort_pairs_bytes(size_t *bytes, size_t n, unsigned bits)
{
    *bytes = 0;
    return cub::DeviceRadixSort::SortPairs(nullptr, *bytes, (const uint32_t *)nullptr,
                                           (uint32_t *)nullptr, (const uint32_t *)nullptr,
                                           (uint32_t *)nullptr, n, 0, (int)bits);
}

extern "C" int cuzk_gpu_sort_pairs(void *scratch, size_t scratch_bytes, const uint32_t *keys_in,
                                   uint32_t *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                                   size_t n, unsigned bits, cuzk_gpu_stream_t s)
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

extern "C" int cuzk_gpu_msm_bounds(uint32_t *start, uint32_t *end, const uint32_t *keys, size_t n,
                                   size_t K, unsigned W, cuzk_gpu_stream_t s)
{
    size_t work = n * W;
    if (work == 0)
        return cudaSuccess;
    size_t blocks = (work + 255) / 256;
    msm_bounds_kernel<<<(unsigned)(blocks > (1u << 20) ? (1u << 20) : blocks), 256, 0, s>>>(
        start, end, keys, n, K, W);
    return cudaGetLastError();
}

/* ---- bitmap compaction ------------------------------------------------- */

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

static size_t compact_arrays_bytes(size_t words)
{
    return (2 * words * sizeof(uint32_t) + 255) & ~(size_t)255;
}

extern "C" int cuzk_gpu_bitmap_compact_bytes(size_t *bytes, size_t words)
{
    size_t scan = 0;
    cudaError_t e = cub::DeviceScan::ExclusiveSum(nullptr, scan, (const uint32_t *)nullptr,
                                                  (uint32_t *)nullptr, words ? words : 1);
    *bytes = compact_arrays_bytes(words) + scan;
    return e;
}

extern "C" int cuzk_gpu_bitmap_compact(void *scratch, size_t scratch_bytes, uint32_t *idx,
                                       uint32_t *count, const uint32_t *bitmap, size_t words,
                                       cuzk_gpu_stream_t s)
{
    if (words == 0)
        return cudaMemsetAsync(count, 0, sizeof(uint32_t), s);
    uint32_t *counts = (uint32_t *)scratch, *offsets = counts + words;
    size_t arrays = compact_arrays_bytes(words), scan = scratch_bytes - arrays;
    unsigned blocks = (unsigned)((words + 255) / 256 > 65536 ? 65536 : (words + 255) / 256);
    bitmap_popc_kernel<<<blocks, 256, 0, s>>>(counts, bitmap, words);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cub::DeviceScan::ExclusiveSum((unsigned char *)scratch + arrays, scan, counts, offsets,
                                          words, s);
    if (e != cudaSuccess)
        return e;
    bitmap_scatter_kernel<<<blocks, 256, 0, s>>>(idx, count, bitmap, offsets, words);
    return cudaGetLastError();
}
