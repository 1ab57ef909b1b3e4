/*
 * Error plumbing shared by the host files of src/cuda (not for use above
 * src/cuda). Every CUDA runtime call and every kernel wrapper (which returns
 * the runtime's error code after its launch) goes through one of these, so
 * that no failure goes unchecked.
 */
#ifndef CUZK_CUDA_GPU_CHECK_H
#define CUZK_CUDA_GPU_CHECK_H

#include "cuda/gpu.h"

/* Returns from the calling function with the status of a failed CUDA call
 * (a cudaError_t expression), the message in g->err. */
#define GPU_TRY(g, call)                                                                           \
    do {                                                                                           \
        cuzk_status_t gpu_st_ = gpu_status((g), (int)(call), #call, __FILE__, __LINE__);           \
        if (gpu_st_ != CUZK_OK)                                                                    \
            return gpu_st_;                                                                        \
    } while (0)

/* The same, storing the status in st and jumping to label (for cleanup). */
#define GPU_GOTO(g, call, st, label)                                                               \
    do {                                                                                           \
        (st) = gpu_status((g), (int)(call), #call, __FILE__, __LINE__);                            \
        if ((st) != CUZK_OK)                                                                       \
            goto label;                                                                            \
    } while (0)

/* For calls that already return a cuzk_status_t. */
#define CUZK_TRY(call)                                                                             \
    do {                                                                                           \
        cuzk_status_t cuzk_st_ = (call);                                                           \
        if (cuzk_st_ != CUZK_OK)                                                                   \
            return cuzk_st_;                                                                       \
    } while (0)

#define CUZK_GOTO(call, st, label)                                                                 \
    do {                                                                                           \
        (st) = (call);                                                                             \
        if ((st) != CUZK_OK)                                                                       \
            goto label;                                                                            \
    } while (0)

#endif
