/*
 * The kernels of the development setup on the device (gpu_setup.h):
 * BLS12-381 only (bellperson's keys are BLS12-381), one translation unit.
 *
 * The shapes of the work: the witness and the rows are one thread per row
 * (each row's terms come from r1cs_indexed.h's hashes); the columns one
 * thread per wire, enumerating the rows that hold it; the Lagrange basis
 * and the powers chunks of LAG_CHUNK elements per thread, one
 * exponentiation per chunk and one inversion per chunk (Montgomery's
 * trick); the fixed-base multiplications FB_BATCH points per thread, at
 * most 32 mixed additions each from the byte-window tables, then one
 * inversion for the batch's conversion to affine. The inversions are the
 * variable-time binary GCD (inv.cuh): a development key's τ is public by
 * construction, and on the H100 the GCD took 1.4 ns of the card's time an
 * inversion against Fermat's 22 (the batch-affine probe of cuzk_gpu_bench).
 */
#include <string.h>

#include <cub/device/device_scan.cuh>

#include "cuda/ec.cuh"
#include "cuda/gpu_setup.h"
#include "cuda/inv.cuh"
#include "cuda/ntt.cuh"

namespace cuzk
{

typedef fp_t<bls381_fr_p> Fr;
typedef fpc_t<bls381_fp_p> G1F; /* as the MSM's G1 (fields.cuh) */
typedef fp2_t<bls381_fp_p> G2F;

enum { LAG_CHUNK = 64, FB_BATCH = 8, FB_WINDOWS = 32, FB_DIGITS = 255 };

static inline unsigned blocks_for(size_t work, unsigned threads)
{
    size_t b = (work + threads - 1) / threads;
    return (unsigned)(b == 0 ? 1 : b > (1u << 20) ? (1u << 20) : b);
}

__device__ __forceinline__ Fr fr_of_limbs(const uint64_t v[4])
{
    Fr r;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        r.l[2 * i] = (uint32_t)v[i];
        r.l[2 * i + 1] = (uint32_t)(v[i] >> 32);
    }
    return r;
}

__device__ __forceinline__ void fr_mac(Fr &acc, const Fr &x, const Fr &y)
{
    Fr t = f_mul_call<bls381_fr_p>(x, y);
    f_add<bls381_fr_p>(acc, acc, t);
}

/* ---- the circuit ------------------------------------------------------------ */

__global__ void ix_witness_kernel(Fr *w, const r1cs_ix_t ix)
{
    CUZK_GRID_STRIDE(i, (size_t)ix.n_cols)
    {
        uint64_t v[4];
        r1ix_witness(&ix, (uint32_t)i, v);
        w[i] = fr_of_limbs(v);
    }
}

__global__ void ix_rows_kernel(Fr *a, Fr *b, Fr *c, Fr *c0, const Fr *w, const r1cs_ix_t ix)
{
    CUZK_GRID_STRIDE(jj, (size_t)ix.n_rows)
    {
        uint32_t j = (uint32_t)jj;
        Fr dot[R1IX_MATRICES];
        uint64_t v[4];
        for (int m = 0; m < R1IX_MATRICES; m++)
            f_set_zero<bls381_fr_p>(dot[m]);
        uint32_t fa = r1ix_fixed_col(&ix, R1IX_A, j);
        if (fa != UINT32_MAX) {
            r1ix_value(&ix, R1IX_A, j, R1IX_SLOTS, v);
            fr_mac(dot[0], fr_of_limbs(v), w[fa]);
        }
        for (int m = 0; m < R1IX_MATRICES; m++) {
            uint32_t n = r1ix_count(&ix, m, j);
            for (uint32_t t = 0; t < n; t++) {
                uint32_t col;
                if (!r1ix_slot_used(&ix, m, j, t, &col))
                    continue;
                r1ix_value(&ix, m, j, t, v);
                fr_mac(dot[m], fr_of_limbs(v), w[col]);
            }
        }
        Fr ab = f_mul_call<bls381_fr_p>(dot[0], dot[1]), one;
        f_sub<bls381_fr_p>(one, ab, dot[2]);
        a[j] = dot[0];
        b[j] = dot[1];
        c[j] = ab;
        c0[j] = one;
    }
}

__global__ void ix_columns_kernel(Fr *ua, Fr *ub, Fr *uc, uint32_t *fa, uint32_t *fb, const Fr *l,
                                  const r1cs_ix_t ix, uint32_t n_in)
{
    CUZK_GRID_STRIDE(ii, (size_t)ix.n_cols)
    {
        uint32_t i = (uint32_t)ii;
        Fr u[R1IX_MATRICES];
        bool any[R1IX_MATRICES] = {false, false, false};
        uint64_t v[4];
        for (int m = 0; m < R1IX_MATRICES; m++)
            f_set_zero<bls381_fr_p>(u[m]);
        if (i > ix.n_public && i - 1 - ix.n_public < ix.n_priv) { /* A's fixed term */
            uint32_t row = i - 1 - ix.n_public;
            r1ix_value(&ix, R1IX_A, row, R1IX_SLOTS, v);
            fr_mac(u[0], fr_of_limbs(v), l[row]);
            any[0] = true;
        }
        for (int m = 0; m < R1IX_MATRICES; m++) {
            uint32_t slots = ix.base[m] + (ix.frac[m] != 0);
            for (uint32_t t = 0; t < slots && t < R1IX_SLOTS; t++) {
                uint32_t j, col;
                for (uint32_t k = 0; r1ix_col_candidate(&ix, m, t, i, k, &j); k++) {
                    if (j >= ix.n_rows || !r1ix_slot_used(&ix, m, j, t, &col))
                        continue;
                    r1ix_value(&ix, m, j, t, v);
                    fr_mac(u[m], fr_of_limbs(v), l[j]);
                    any[m] = true;
                }
            }
        }
        if (i < n_in)
            f_add<bls381_fr_p>(u[0], u[0], l[ix.n_rows + i]);
        ua[i] = u[0];
        ub[i] = u[1];
        uc[i] = u[2];
        fa[i] = i < n_in || any[0];
        fb[i] = any[1];
    }
}

/* ---- scalars ----------------------------------------------------------------- */

__global__ void lagrange_kernel(Fr *l, size_t m, Fr omega, Fr omega_inv, Fr tau, Fr zt)
{
    size_t chunks = (m + LAG_CHUNK - 1) / LAG_CHUNK;
    CUZK_GRID_STRIDE(c, chunks)
    {
        size_t j0 = c * LAG_CHUNK;
        int cnt = (int)(m - j0 < LAG_CHUNK ? m - j0 : LAG_CHUNK);
        Fr wj, run, d;
        f_pow_u64<bls381_fr_p>(wj, omega, j0);
        f_set_one<bls381_fr_p>(run);
        for (int k = 0; k < cnt; k++) { /* l holds the running products of τ - ω^j */
            f_sub<bls381_fr_p>(d, tau, wj);
            run = f_mul_call<bls381_fr_p>(run, d);
            l[j0 + k] = run;
            if (k + 1 < cnt)
                wj = f_mul_call<bls381_fr_p>(wj, omega);
        }
        Fr inv = fp_inv_vartime<bls381_fr_p>(run);
        for (int k = cnt - 1; k >= 0; k--) {
            f_sub<bls381_fr_p>(d, tau, wj);
            Fr dinv = k > 0 ? f_mul_call<bls381_fr_p>(inv, l[j0 + k - 1]) : inv;
            inv = f_mul_call<bls381_fr_p>(inv, d);
            Fr t = f_mul_call<bls381_fr_p>(zt, wj);
            l[j0 + k] = f_mul_call<bls381_fr_p>(t, dinv);
            wj = f_mul_call<bls381_fr_p>(wj, omega_inv);
        }
    }
}

__global__ void dot_partial_kernel(Fr *partial, const Fr *x, const Fr *y, size_t n)
{
    __shared__ Fr sh[256];
    Fr acc;
    f_set_zero<bls381_fr_p>(acc);
    CUZK_GRID_STRIDE(i, n)
    fr_mac(acc, x[i], y[i]);
    sh[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            f_add<bls381_fr_p>(sh[threadIdx.x], sh[threadIdx.x], sh[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = sh[0];
}

/* One thread: *acc += Σ partial[i]. */
__global__ void sum_into_kernel(Fr *acc, const Fr *partial, size_t n)
{
    Fr s = *acc;
    for (size_t i = 0; i < n; i++)
        f_add<bls381_fr_p>(s, s, partial[i]);
    *acc = s;
}

__global__ void combine_kernel(Fr *uc, const Fr *ua, const Fr *ub, size_t n, uint32_t n_in,
                               Fr alpha, Fr beta, Fr gamma_inv, Fr delta_inv)
{
    CUZK_GRID_STRIDE(i, n)
    {
        Fr t = uc[i];
        fr_mac(t, beta, ua[i]);
        fr_mac(t, alpha, ub[i]);
        uc[i] = f_mul_call<bls381_fr_p>(t, i < n_in ? gamma_inv : delta_inv);
    }
}

__global__ void powers_kernel(Fr *out, size_t n, Fr first, Fr x)
{
    size_t chunks = (n + LAG_CHUNK - 1) / LAG_CHUNK;
    CUZK_GRID_STRIDE(c, chunks)
    {
        size_t i0 = c * LAG_CHUNK;
        size_t end = n - i0 < LAG_CHUNK ? n : i0 + LAG_CHUNK;
        Fr p;
        f_pow_u64<bls381_fr_p>(p, x, i0);
        p = f_mul_call<bls381_fr_p>(p, first);
        for (size_t i = i0; i < end; i++) {
            out[i] = p;
            p = f_mul_call<bls381_fr_p>(p, x);
        }
    }
}

__global__ void scatter_kernel(Fr *out, uint32_t *count, const Fr *in, const uint32_t *flags,
                               const uint32_t *pos, size_t n)
{
    CUZK_GRID_STRIDE(i, n)
    {
        if (flags[i])
            out[pos[i]] = in[i];
        if (i == n - 1)
            *count = pos[i] + flags[i];
    }
}

__global__ void bitmap_kernel(uint64_t *bits, const uint32_t *flags, size_t n)
{
    CUZK_GRID_STRIDE(wd, (n + 63) / 64)
    {
        uint64_t word = 0;
        for (size_t b = 0; b < 64 && wd * 64 + b < n; b++)
            word |= (uint64_t)(flags[wd * 64 + b] != 0) << b;
        bits[wd] = word;
    }
}

/* ---- points ------------------------------------------------------------------- */

template <class F>
__global__ void fixed_base_kernel(affine_t<F> *out, const Fr *k, size_t n, const affine_t<F> *table)
{
    size_t batches = (n + FB_BATCH - 1) / FB_BATCH;
    CUZK_GRID_STRIDE(bt, batches)
    {
        size_t first = bt * FB_BATCH;
        int cnt = (int)(n - first < FB_BATCH ? n - first : FB_BATCH);
        xyzz_t<F> acc[FB_BATCH];
        F pre[FB_BATCH], run, d;
        f_set_one(run);
        for (int i = 0; i < cnt; i++) {
            Fr c;
            f_from_mont<bls381_fr_p>(c, k[first + i]);
            xyzz_set_inf(acc[i]);
            for (int w = 0; w < FB_WINDOWS; w++) {
                uint32_t byte = (c.l[w / 4] >> (8 * (w % 4))) & 0xff;
                if (byte)
                    xyzz_add_affine(acc[i], acc[i], table[w * FB_DIGITS + byte - 1]);
            }
            if (xyzz_is_inf(acc[i]))
                f_set_one(d);
            else
                f_mul(d, acc[i].ZZ, acc[i].ZZZ);
            f_mul(run, run, d);
            pre[i] = run;
        }
        F inv;
        f_inv_vartime(inv, run); /* (Π ZZ·ZZZ)^-1 */
        for (int i = cnt - 1; i >= 0; i--) {
            affine_t<F> a;
            if (xyzz_is_inf(acc[i])) {
                f_set_zero(a.x);
                f_set_zero(a.y);
            } else {
                F dinv, zi;
                if (i > 0)
                    f_mul(dinv, inv, pre[i - 1]);
                else
                    dinv = inv;
                f_mul(d, acc[i].ZZ, acc[i].ZZZ);
                f_mul(inv, inv, d);
                f_mul(zi, dinv, acc[i].ZZZ); /* ZZ^-1 */
                f_mul(a.x, acc[i].X, zi);
                f_mul(zi, dinv, acc[i].ZZ); /* ZZZ^-1 */
                f_mul(a.y, acc[i].Y, zi);
            }
            out[first + i] = a;
        }
    }
}

} // namespace cuzk

using namespace cuzk;

static Fr fr_host(const void *p)
{
    Fr r;
    memcpy(&r, p, sizeof r);
    return r;
}

#define LAUNCHED(g, what) gpu_status((g), (int)cudaGetLastError(), what, __FILE__, __LINE__)

extern "C" cuzk_status_t gpu_ix_witness(gpu_t *g, void *w, const r1cs_ix_t *ix, gpu_stream_t s)
{
    ix_witness_kernel<<<blocks_for(ix->n_cols, 256), 256, 0, s>>>((Fr *)w, *ix);
    return LAUNCHED(g, "ix_witness_kernel");
}

extern "C" cuzk_status_t gpu_ix_rows(gpu_t *g, void *a, void *b, void *c, void *c0, const void *w,
                                     const r1cs_ix_t *ix, gpu_stream_t s)
{
    ix_rows_kernel<<<blocks_for(ix->n_rows, 256), 256, 0, s>>>((Fr *)a, (Fr *)b, (Fr *)c, (Fr *)c0,
                                                               (const Fr *)w, *ix);
    return LAUNCHED(g, "ix_rows_kernel");
}

extern "C" cuzk_status_t gpu_ix_columns(gpu_t *g, void *ua, void *ub, void *uc, uint32_t *fa,
                                        uint32_t *fb, const void *l, const r1cs_ix_t *ix,
                                        uint32_t n_in, gpu_stream_t s)
{
    ix_columns_kernel<<<blocks_for(ix->n_cols, 256), 256, 0, s>>>((Fr *)ua, (Fr *)ub, (Fr *)uc, fa,
                                                                  fb, (const Fr *)l, *ix, n_in);
    return LAUNCHED(g, "ix_columns_kernel");
}

extern "C" cuzk_status_t gpu_setup_lagrange(gpu_t *g, void *l, size_t m, const void *omega,
                                            const void *omega_inv, const void *tau, const void *zt,
                                            gpu_stream_t s)
{
    size_t chunks = (m + LAG_CHUNK - 1) / LAG_CHUNK;
    lagrange_kernel<<<blocks_for(chunks, 128), 128, 0, s>>>(
        (Fr *)l, m, fr_host(omega), fr_host(omega_inv), fr_host(tau), fr_host(zt));
    return LAUNCHED(g, "lagrange_kernel");
}

extern "C" cuzk_status_t gpu_setup_dot_add(gpu_t *g, void *acc, const void *x, const void *y,
                                           size_t n, void *scratch, gpu_stream_t s)
{
    dot_partial_kernel<<<CUZK_GPU_DOT_BLOCKS, 256, 0, s>>>((Fr *)scratch, (const Fr *)x,
                                                           (const Fr *)y, n);
    cuzk_status_t st = LAUNCHED(g, "dot_partial_kernel");
    if (st != CUZK_OK)
        return st;
    sum_into_kernel<<<1, 1, 0, s>>>((Fr *)acc, (const Fr *)scratch, CUZK_GPU_DOT_BLOCKS);
    return LAUNCHED(g, "sum_into_kernel");
}

extern "C" cuzk_status_t gpu_setup_combine(gpu_t *g, void *uc, const void *ua, const void *ub,
                                           size_t n, uint32_t n_in, const void *alpha,
                                           const void *beta, const void *gamma_inv,
                                           const void *delta_inv, gpu_stream_t s)
{
    combine_kernel<<<blocks_for(n, 256), 256, 0, s>>>((Fr *)uc, (const Fr *)ua, (const Fr *)ub, n,
                                                      n_in, fr_host(alpha), fr_host(beta),
                                                      fr_host(gamma_inv), fr_host(delta_inv));
    return LAUNCHED(g, "combine_kernel");
}

extern "C" cuzk_status_t gpu_setup_powers(gpu_t *g, void *out, size_t n, const void *first,
                                          const void *x, gpu_stream_t s)
{
    size_t chunks = (n + LAG_CHUNK - 1) / LAG_CHUNK;
    powers_kernel<<<blocks_for(chunks, 128), 128, 0, s>>>((Fr *)out, n, fr_host(first), fr_host(x));
    return LAUNCHED(g, "powers_kernel");
}

extern "C" cuzk_status_t gpu_setup_select_bytes(gpu_t *g, size_t *bytes, size_t n)
{
    *bytes = 0;
    int e = (int)cub::DeviceScan::ExclusiveSum(nullptr, *bytes, (const uint32_t *)nullptr,
                                               (uint32_t *)nullptr, n);
    return gpu_status(g, e, "cub::DeviceScan::ExclusiveSum (size)", __FILE__, __LINE__);
}

extern "C" cuzk_status_t gpu_setup_select(gpu_t *g, void *out, uint32_t *count, const void *in,
                                          const uint32_t *flags, uint32_t *pos, size_t n,
                                          void *scratch, size_t scratch_bytes, gpu_stream_t s)
{
    if (n == 0)
        return gpu_status(g, (int)cudaMemsetAsync(count, 0, sizeof *count, s),
                          "cudaMemsetAsync(count)", __FILE__, __LINE__);
    size_t bytes = scratch_bytes;
    int e = (int)cub::DeviceScan::ExclusiveSum(scratch, bytes, flags, pos, n, s);
    cuzk_status_t st = gpu_status(g, e, "cub::DeviceScan::ExclusiveSum", __FILE__, __LINE__);
    if (st != CUZK_OK)
        return st;
    scatter_kernel<<<blocks_for(n, 256), 256, 0, s>>>((Fr *)out, count, (const Fr *)in, flags, pos,
                                                      n);
    return LAUNCHED(g, "scatter_kernel");
}

extern "C" cuzk_status_t gpu_setup_bitmap(gpu_t *g, uint64_t *bits, const uint32_t *flags, size_t n,
                                          gpu_stream_t s)
{
    if (n == 0)
        return CUZK_OK;
    bitmap_kernel<<<blocks_for((n + 63) / 64, 256), 256, 0, s>>>(bits, flags, n);
    return LAUNCHED(g, "bitmap_kernel");
}

extern "C" cuzk_status_t gpu_setup_fixed_base(gpu_t *g, void *out, const void *k, size_t n,
                                              const void *table, bool g2, gpu_stream_t s)
{
    if (n == 0)
        return CUZK_OK;
    size_t batches = (n + FB_BATCH - 1) / FB_BATCH;
    if (g2)
        fixed_base_kernel<G2F><<<blocks_for(batches, 128), 128, 0, s>>>(
            (affine_t<G2F> *)out, (const Fr *)k, n, (const affine_t<G2F> *)table);
    else
        fixed_base_kernel<G1F><<<blocks_for(batches, 128), 128, 0, s>>>(
            (affine_t<G1F> *)out, (const Fr *)k, n, (const affine_t<G1F> *)table);
    return LAUNCHED(g, g2 ? "fixed_base_kernel<G2>" : "fixed_base_kernel<G1>");
}
