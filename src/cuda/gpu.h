/*
 * The device layer's host side: one GPU, its memory, streams and events, as C
 * calling the CUDA runtime (gpu.c). Everything above src/cuda sees only this
 * header and the per-algorithm ones (gpu_msm.h, gpu_ntt.h, gpu_ff.h); none of
 * them includes a CUDA header, so any C file may include them.
 *
 * Errors: every function that can fail returns a cuzk_status_t. A failed CUDA
 * call gives CUZK_EDEVICE and leaves in g->err the call, the CUDA error name
 * and text, and the source line, e.g.
 *   "cudaMalloc(p, 1073741824): cudaErrorMemoryAllocation: out of memory (src/cuda/gpu.c:80)"
 * A sticky device error (a kernel that faulted) fails every later call on the
 * same device the same way; the context then has to be dropped
 * (gpu_close), never the process.
 *
 * Threads: a gpu_t may be shared by threads that each use their own
 * streams; err then holds whichever failure came last.
 */
#ifndef CUZK_CUDA_GPU_H
#define CUZK_CUDA_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The CUDA runtime's stream and event handles, without its headers: these
 * are the very types cudaStream_t and cudaEvent_t name. NULL is the legacy
 * default stream. */
typedef struct CUstream_st *gpu_stream_t;
typedef struct CUevent_st *gpu_event_t;

enum { CUZK_GPU_ERR_MAX = 320 };

/* One device, as gpu_open found it. */
typedef struct gpu {
    int device;                 /* the CUDA ordinal */
    char name[256];             /* e.g. "NVIDIA H200" */
    int cc_major, cc_minor;     /* compute capability, 9.0 on Hopper */
    int sm_count;               /* multiprocessors */
    size_t mem_total;           /* bytes of device memory */
    size_t l2_bytes;            /* L2 cache */
    size_t smem_optin;          /* shared memory a block may opt in to */
    char err[CUZK_GPU_ERR_MAX]; /* the last failure's message ("" after open) */
} gpu_t;

/*
 * How many devices the runtime sees: 0 (and CUZK_OK) when there is no driver
 * or no device, so that callers can skip rather than fail; err (errlen
 * bytes, may be NULL) then says why, in words for a user: "no NVIDIA
 * driver was found", "the NVIDIA driver shows no device", a driver older
 * than the runtime. CUZK_EDEVICE only for a runtime that is there but
 * broken; err then says why.
 */
cuzk_status_t gpu_count(int *count, char *err, size_t errlen);

/* Makes device `device` current for the calling thread and fills *g. */
cuzk_status_t gpu_open(gpu_t *g, int device);

/* Makes g's device current for the calling thread (each thread that uses
 * a device other than its first must call it before its first CUDA call). */
cuzk_status_t gpu_use(gpu_t *g);

/* Opens device 0 when there is one (*found = true); otherwise *found =
 * false, CUZK_OK, and g->err says why there is none (no driver, no device),
 * so that callers can skip. */
cuzk_status_t gpu_open_first(gpu_t *g, bool *found);

/* Waits for the device's work to finish. Nothing to free: the runtime owns
 * the context. */
cuzk_status_t gpu_sync(gpu_t *g);

/* Free and total device memory, as the driver reports them now. */
cuzk_status_t gpu_mem_info(gpu_t *g, size_t *free_bytes, size_t *total_bytes);

/* ---- memory ---------------------------------------------------------- */

/* *p = bytes of device memory (bytes = 0 gives NULL and CUZK_OK). A failed
 * allocation is CUZK_ENOMEM, with g->err set. */
cuzk_status_t gpu_alloc(gpu_t *g, void **p, size_t bytes);
/* Frees device memory from gpu_alloc; NULL is a no-op. */
void gpu_free(void *p);

/* *p = bytes of pinned (page-locked) host memory, which copies reach at the
 * bus's speed and which async copies need to be asynchronous; portable
 * (pinned for every device), and with unified addressing kernels may read
 * it through the same pointer. */
cuzk_status_t gpu_host_alloc(gpu_t *g, void **p, size_t bytes);
void gpu_host_free(void *p);

/* *pinned = whether the byte at host address p lies in pinned memory
 * (gpu_host_alloc, or memory registered with cudaHostRegister), from
 * which copies are DMA at the bus's speed and asynchronous. Memory the
 * runtime does not know (malloc, a mapped file, the stack) is false, not
 * a failure, and leaves no error behind; so are device and managed
 * memory. CUZK_EDEVICE only when the query itself fails (a broken
 * context). Any thread; p may be any address (it is not dereferenced). */
cuzk_status_t gpu_host_is_pinned(gpu_t *g, const void *p, bool *pinned);

/* Copies between host and device memory, ordered on stream s, returning
 * before the copy ends unless the host side is pageable memory. */
cuzk_status_t gpu_upload(gpu_t *g, void *dst, const void *src, size_t bytes, gpu_stream_t s);
cuzk_status_t gpu_download(gpu_t *g, void *dst, const void *src, size_t bytes, gpu_stream_t s);
/* Device to device, ordered on s. */
cuzk_status_t gpu_copy(gpu_t *g, void *dst, const void *src, size_t bytes, gpu_stream_t s);
/* Every byte of dst = value, ordered on s. */
cuzk_status_t gpu_memset(gpu_t *g, void *dst, int value, size_t bytes, gpu_stream_t s);

/* ---- streams and events ---------------------------------------------- */

/* A stream that does not synchronise with the legacy default stream. */
cuzk_status_t gpu_stream_new(gpu_t *g, gpu_stream_t *s);
void gpu_stream_free(gpu_stream_t s);
cuzk_status_t gpu_stream_sync(gpu_t *g, gpu_stream_t s);
/* Work queued on s after this call waits for e. */
cuzk_status_t gpu_stream_wait(gpu_t *g, gpu_stream_t s, gpu_event_t e);

/* An event that records time (timing = true) or only ordering. */
cuzk_status_t gpu_event_new(gpu_t *g, gpu_event_t *e, bool timing);
void gpu_event_free(gpu_event_t e);
cuzk_status_t gpu_event_record(gpu_t *g, gpu_event_t e, gpu_stream_t s);
cuzk_status_t gpu_event_sync(gpu_t *g, gpu_event_t e);
/* *ms = milliseconds from a to b, both recorded with timing and complete. */
cuzk_status_t gpu_event_ms(gpu_t *g, float *ms, gpu_event_t a, gpu_event_t b);

/*
 * For the kernel wrappers of src/cuda: turns the runtime error `code` (a
 * cudaError_t value) of `what` into CUZK_EDEVICE (CUZK_ENOMEM for an
 * allocation failure) with the message in g->err; cudaSuccess gives CUZK_OK
 * and leaves err alone.
 */
cuzk_status_t gpu_status(gpu_t *g, int code, const char *what, const char *file, int line);

#ifdef __cplusplus
}
#endif

#endif
