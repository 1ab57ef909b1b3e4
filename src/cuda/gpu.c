/*
 * The host side of the device layer (contracts in gpu.h): thin wrappers over
 * the CUDA runtime that check every call and turn failures into statuses
 * with the runtime's own words.
 */
#include "cuda/gpu.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cuda/gpu_check.h"

cuzk_status_t gpu_status(gpu_t *g, int code, const char *what, const char *file, int line)
{
    cudaError_t e = (cudaError_t)code;
    if (e == cudaSuccess)
        return CUZK_OK;
    /* Reset the runtime's last error, so that a failure that left the
     * device usable (an allocation) does not resurface at the next
     * cudaGetLastError of a kernel wrapper. Sticky errors stay regardless. */
    (void)cudaGetLastError();
    if (g)
        snprintf(g->err, sizeof(g->err), "%s: %s: %s (%s:%d)", what, cudaGetErrorName(e),
                 cudaGetErrorString(e), file, line);
    return e == cudaErrorMemoryAllocation ? CUZK_ENOMEM : CUZK_EDEVICE;
}

/* Why the runtime sees no device, for a user: the runtime's own words for
 * cudaErrorInsufficientDriver ("CUDA driver version is insufficient for
 * CUDA runtime version") are what it says when there is no driver at all,
 * which cudaDriverGetVersion tells apart (version 0). */
static void gpu_none_reason(cudaError_t e, char *err, size_t errlen)
{
    int driver = 0, runtime = 0;
    (void)cudaDriverGetVersion(&driver); /* stays 0 without a driver */
    if (e == cudaErrorInsufficientDriver && driver == 0) {
        snprintf(err, errlen, "no NVIDIA driver was found");
    } else if (e == cudaErrorInsufficientDriver) {
        (void)cudaRuntimeGetVersion(&runtime);
        snprintf(err, errlen,
                 "the NVIDIA driver supports CUDA %d.%d, older than the CUDA %d.%d this cuzk "
                 "was built with",
                 driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
    } else if (e == cudaErrorNoDevice) {
        snprintf(err, errlen, "the NVIDIA driver shows no device");
    } else {
        snprintf(err, errlen, "the CUDA driver did not start: %s", cudaGetErrorString(e));
    }
}

cuzk_status_t gpu_count(int *count, char *err, size_t errlen)
{
    assert(count);
    *count = 0;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
        e == cudaErrorInitializationError) {
        /* No usable device: not a failure, a reason to skip. Clear the
         * runtime's last error so that it does not leak into later calls. */
        (void)cudaGetLastError();
        if (err && errlen)
            gpu_none_reason(e, err, errlen);
        (void)cudaGetLastError();
        return CUZK_OK;
    }
    if (e != cudaSuccess) {
        if (err && errlen)
            snprintf(err, errlen, "cudaGetDeviceCount: %s: %s", cudaGetErrorName(e),
                     cudaGetErrorString(e));
        return CUZK_EDEVICE;
    }
    *count = n;
    return CUZK_OK;
}

cuzk_status_t gpu_use(gpu_t *g)
{
    GPU_TRY(g, cudaSetDevice(g->device));
    return CUZK_OK;
}

cuzk_status_t gpu_open(gpu_t *g, int device)
{
    assert(g);
    memset(g, 0, sizeof(*g));
    g->device = device;
    GPU_TRY(g, cudaSetDevice(device));
    struct cudaDeviceProp p;
    GPU_TRY(g, cudaGetDeviceProperties(&p, device));
    snprintf(g->name, sizeof(g->name), "%s", p.name);
    g->cc_major = p.major;
    g->cc_minor = p.minor;
    g->sm_count = p.multiProcessorCount;
    g->mem_total = p.totalGlobalMem;
    g->l2_bytes = (size_t)p.l2CacheSize;
    g->smem_optin = p.sharedMemPerBlockOptin;
    return CUZK_OK;
}

cuzk_status_t gpu_open_first(gpu_t *g, bool *found)
{
    assert(g && found);
    memset(g, 0, sizeof(*g));
    *found = false;
    int count = 0;
    CUZK_TRY(gpu_count(&count, g->err, sizeof(g->err)));
    if (count == 0)
        return CUZK_OK;
    CUZK_TRY(gpu_open(g, 0));
    *found = true;
    return CUZK_OK;
}

cuzk_status_t gpu_sync(gpu_t *g)
{
    GPU_TRY(g, cudaDeviceSynchronize());
    return CUZK_OK;
}

cuzk_status_t gpu_mem_info(gpu_t *g, size_t *free_bytes, size_t *total_bytes)
{
    GPU_TRY(g, cudaMemGetInfo(free_bytes, total_bytes));
    return CUZK_OK;
}

cuzk_status_t gpu_alloc(gpu_t *g, void **p, size_t bytes)
{
    *p = NULL;
    if (bytes == 0)
        return CUZK_OK;
    GPU_TRY(g, cudaMalloc(p, bytes));
    return CUZK_OK;
}

void gpu_free(void *p)
{
    /* Nothing useful to do with a failure here: the memory is gone either
     * way, and a sticky error shows at the next checked call. */
    if (p)
        (void)cudaFree(p);
}

cuzk_status_t gpu_host_alloc(gpu_t *g, void **p, size_t bytes)
{
    *p = NULL;
    if (bytes == 0)
        return CUZK_OK;
    GPU_TRY(g, cudaHostAlloc(p, bytes, cudaHostAllocPortable));
    return CUZK_OK;
}

void gpu_host_free(void *p)
{
    if (p)
        (void)cudaFreeHost(p);
}

cuzk_status_t gpu_host_is_pinned(gpu_t *g, const void *p, bool *pinned)
{
    assert(pinned);
    *pinned = false;
    struct cudaPointerAttributes a;
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    if (e == cudaErrorInvalidValue) {
        /* Before CUDA 11 an address the runtime does not know is this
         * error rather than cudaMemoryTypeUnregistered, and it stays the
         * runtime's last error until read: read it, so that the next
         * kernel wrapper's cudaGetLastError does not report it. */
        (void)cudaGetLastError();
        return CUZK_OK;
    }
    CUZK_TRY(gpu_status(g, (int)e, "cudaPointerGetAttributes", __FILE__, __LINE__));
    *pinned = a.type == cudaMemoryTypeHost;
    return CUZK_OK;
}

cuzk_status_t gpu_upload(gpu_t *g, void *dst, const void *src, size_t bytes, gpu_stream_t s)
{
    if (bytes)
        GPU_TRY(g, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s));
    return CUZK_OK;
}

cuzk_status_t gpu_download(gpu_t *g, void *dst, const void *src, size_t bytes, gpu_stream_t s)
{
    if (bytes)
        GPU_TRY(g, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s));
    return CUZK_OK;
}

cuzk_status_t gpu_copy(gpu_t *g, void *dst, const void *src, size_t bytes, gpu_stream_t s)
{
    if (bytes)
        GPU_TRY(g, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
    return CUZK_OK;
}

cuzk_status_t gpu_memset(gpu_t *g, void *dst, int value, size_t bytes, gpu_stream_t s)
{
    if (bytes)
        GPU_TRY(g, cudaMemsetAsync(dst, value, bytes, s));
    return CUZK_OK;
}

cuzk_status_t gpu_stream_new(gpu_t *g, gpu_stream_t *s)
{
    GPU_TRY(g, cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
    return CUZK_OK;
}

void gpu_stream_free(gpu_stream_t s)
{
    if (s)
        (void)cudaStreamDestroy(s);
}

cuzk_status_t gpu_stream_sync(gpu_t *g, gpu_stream_t s)
{
    GPU_TRY(g, cudaStreamSynchronize(s));
    return CUZK_OK;
}

cuzk_status_t gpu_stream_wait(gpu_t *g, gpu_stream_t s, gpu_event_t e)
{
    GPU_TRY(g, cudaStreamWaitEvent(s, e, 0));
    return CUZK_OK;
}

cuzk_status_t gpu_event_new(gpu_t *g, gpu_event_t *e, bool timing)
{
    GPU_TRY(g, cudaEventCreateWithFlags(e, timing ? cudaEventDefault : cudaEventDisableTiming));
    return CUZK_OK;
}

void gpu_event_free(gpu_event_t e)
{
    if (e)
        (void)cudaEventDestroy(e);
}

cuzk_status_t gpu_event_record(gpu_t *g, gpu_event_t e, gpu_stream_t s)
{
    GPU_TRY(g, cudaEventRecord(e, s));
    return CUZK_OK;
}

cuzk_status_t gpu_event_sync(gpu_t *g, gpu_event_t e)
{
    GPU_TRY(g, cudaEventSynchronize(e));
    return CUZK_OK;
}

cuzk_status_t gpu_event_ms(gpu_t *g, float *ms, gpu_event_t a, gpu_event_t b)
{
    GPU_TRY(g, cudaEventElapsedTime(ms, a, b));
    return CUZK_OK;
}
