/* BLS12-381 on the device: its kernels (kernels.cuh), exported to C as
 * gpu_bls381_kernels (gpu_kernels.h). G1's formulas call one
 * out-of-line multiplication (fpc_t): its ~420 instructions inlined ten
 * times a mixed addition measured no faster (fields.cuh). */
#include "cuda/kernels.cuh"

extern "C" const gpu_curve_kernels_t gpu_bls381_kernels =
    cuzk::curve_table<cuzk::bls381_fp_p, cuzk::bls381_fr_p, cuzk::fpc_t<cuzk::bls381_fp_p>>(
        "bls381", "bls381_fp", "bls381_fr", "bls381_fp2", "bls381_g1", "bls381_g2");
