/*
 * 16-byte loads and stores of field elements and points. Their structs hold
 * 32-bit limbs (alignment 4), so a plain copy compiles to 4-byte accesses;
 * every type here is a multiple of 16 bytes and every array of them starts
 * on a cudaMalloc boundary (256 bytes), so element i is 16-byte aligned and
 * can move as uint4: a quarter of the memory instructions.
 */
#ifndef CUZK_CUDA_LOAD_CUH
#define CUZK_CUDA_LOAD_CUH

#include <stdint.h>

namespace cuzk
{

template <class T> __device__ __forceinline__ void ld_vec(T &r, const T *p)
{
    static_assert(sizeof(T) % 16 == 0, "16-byte multiples only");
    const uint4 *s = reinterpret_cast<const uint4 *>(p);
    uint32_t *d = reinterpret_cast<uint32_t *>(&r); /* r itself may be 4-aligned only */
#pragma unroll
    for (unsigned i = 0; i < sizeof(T) / 16; i++) {
        uint4 v = s[i];
        d[4 * i] = v.x;
        d[4 * i + 1] = v.y;
        d[4 * i + 2] = v.z;
        d[4 * i + 3] = v.w;
    }
}

template <class T> __device__ __forceinline__ void st_vec(T *p, const T &v)
{
    static_assert(sizeof(T) % 16 == 0, "16-byte multiples only");
    uint4 *d = reinterpret_cast<uint4 *>(p);
    const uint32_t *s = reinterpret_cast<const uint32_t *>(&v);
#pragma unroll
    for (unsigned i = 0; i < sizeof(T) / 16; i++)
        d[i] = make_uint4(s[4 * i], s[4 * i + 1], s[4 * i + 2], s[4 * i + 3]);
}

} // namespace cuzk

#endif
