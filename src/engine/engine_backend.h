/*
 * The seam between the engine's scheduling (engine_worker.c) and the code that
 * runs the stages of a proof: a backend. Two implement it: the CPU backend
 * (engine_cpu.h) and the CUDA backend (engine_cuda.h), which adds a device
 * copy of each key and hands the stages synth, h and msm to the device.
 * Both prove a partition through engine_partition.h.
 *
 * Threads. The engine calls key_load and key_free from one thread at a
 * time (its loader); worker_new, prove and worker_free from the worker
 * thread they belong to, several workers at once. A key is shared
 * read-only by every worker while jobs use it; the engine frees it only
 * when no partition runs on it.
 */
#ifndef CUZK_ENGINE_ENGINE_BACKEND_H
#define CUZK_ENGINE_ENGINE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "groth16/groth16_key.h"
#include "io/key_file.h"

/* Keys are loaded from the files io/key_file.h names (key_format_t). A key
 * cache proves as the format of its kind: the engine hands prove
 * KEY_FORMAT_ZKEY or KEY_FORMAT_PARAMS for it, never KEY_FORMAT_CACHE. */

/* Where the witness of one partition comes from. */
typedef enum engine_input_kind {
    ENGINE_INPUT_WTNS_PATH,  /* a .wtns file, read when the partition runs */
    ENGINE_INPUT_WTNS_BYTES, /* the bytes of a .wtns held in memory */
    ENGINE_INPUT_ASGN_PATH,  /* a bellperson assignment (.asgn) file */
    ENGINE_INPUT_ASGN_MEM,   /* a bellperson assignment held in memory by the caller */
} engine_input_kind_t;

struct asgn;

/*
 * One partition's input: path, (bytes, len) or asgn, as kind says.
 *
 * ASGN_MEM: asgn is borrowed, never copied or freed: the caller keeps it,
 * and every array it points to, alive and unchanged until the job has
 * ended and none of its partitions is RUNNING any more (engine_job_info;
 * a DONE job has none, but a job that failed or was cancelled may still
 * have partitions finishing on their workers), or until engine_free. It
 * must be an assignment as asgn_file_parse would
 * give one (io/asgn_file.h: plain scalars < r, inputs[0] = 1, bitmap bits
 * above the counts clear); its counts are checked against the key, its
 * values only by the proof's self-verification. It proves against params
 * keys exactly as ASGN_PATH does, without the file read; a GPU backend
 * uploads the arrays that are in pinned memory (cudaHostAlloc,
 * cudaHostRegister) straight from them. Only a process that links the
 * engine can make one: the daemon's journal refuses them.
 */
typedef struct engine_input {
    engine_input_kind_t kind;
    const char *path;
    const unsigned char *bytes;
    size_t len;
    const struct asgn *asgn; /* after the others, so that positional initialisers stay valid */
    /* The proof's blinding scalars, given by an in-process caller that
     * received them (an ABI whose callers draw r and s themselves): both
     * or neither (NULL: drawn inside), groth16_blinding_t's contract,
     * borrowed as asgn is. The daemon's journal does not record them. */
    const uint64_t *blind_r, *blind_s;
    /* ASGN_MEM, optional: groth16_input_t's abc_read, called from the
     * worker when a device has taken asgn's a, b and c (never on the CPU
     * backend); from then on a failure of the device fails the partition
     * instead of proving it again on the CPU, which would read them. */
    void (*abc_read)(void *ctx);
    void *abc_ctx;
} engine_input_t;

/* Whether kind is a bellperson assignment (proven with params keys). */
static inline bool engine_input_is_asgn(engine_input_kind_t kind)
{
    return kind == ENGINE_INPUT_ASGN_PATH || kind == ENGINE_INPUT_ASGN_MEM;
}

/*
 * The stages a partition passes through, in order, as the timeline and the
 * timings name them: read (the witness or assignment), the prover's stages
 * of DESIGN.md section 3 (synth, h, msm, finish; verify is the self-check),
 * encode (the proof's bytes or JSON). ENGINE_STAGE_LOAD is a key load, on
 * the loader's track of the timeline.
 */
typedef enum engine_stage {
    ENGINE_STAGE_READ,
    ENGINE_STAGE_SYNTH,
    ENGINE_STAGE_H,
    ENGINE_STAGE_MSM,
    ENGINE_STAGE_FINISH,
    ENGINE_STAGE_VERIFY,
    ENGINE_STAGE_ENCODE,
    ENGINE_STAGE_LOAD,
    ENGINE_STAGES
} engine_stage_t;

/* "read", "synth", "h", "msm", "finish", "verify", "encode", "load". */
const char *engine_stage_name(engine_stage_t stage);

/*
 * A partition's result. zkey: proof_json and public_json are the texts of
 * proof.json and public.json exactly as snarkjs writes them. params:
 * proof_bytes holds the 192-byte proof and public_json the inputs (ONE
 * excluded) as a public.json-style array. All malloc'd, released by
 * engine_result_free. proof is the proof itself (affine, Montgomery
 * form), for in-process callers that want the points; a result restored
 * from a journal, which keeps only the encodings, has curve
 * R1CS_CURVE_NONE there.
 */
typedef struct engine_result {
    char *proof_json;
    char *public_json;
    unsigned char *proof_bytes;
    size_t proof_len;
    groth16_proof_t proof;
} engine_result_t;

void engine_result_free(engine_result_t *r);

/*
 * Called by prove after each stage with its monotonic start and end
 * (engine_now() seconds) and the bytes it moved (0 when none). Returns
 * false when the partition has been cancelled meanwhile: the backend may
 * stop at once (its result will be discarded whatever it returns).
 */
typedef bool (*engine_stage_report_fn)(void *ctx, engine_stage_t stage, double start, double end,
                                       uint64_t bytes);

typedef struct engine_backend {
    const char *name; /* "cpu" */
    void *ctx;

    /* Loads the key at path into *key, which stays read-only afterwards;
     * *bytes = the host memory it occupies. Failures with a one-line
     * message naming the file. */
    cuzk_status_t (*key_load)(void *ctx, key_format_t format, const char *path, void **key,
                              uint64_t *bytes, char *err, size_t err_size);
    void (*key_free)(void *ctx, void *key);
    /* Where the key's points live: "host" (NULL: that), "device", "pinned". */
    const char *(*key_tier)(void *ctx, const void *key);

    /* An estimate of the host memory one partition on key needs while it
     * runs (the memory budget reserves it). */
    uint64_t (*partition_bytes)(void *ctx, const void *key);

    /* Per-worker state (thread pools, scratch), made on the worker's
     * thread before its first partition; threads = the worker's share of
     * the CPU threads. */
    cuzk_status_t (*worker_new)(void *ctx, unsigned worker, unsigned threads, void **wctx);
    void (*worker_free)(void *ctx, void *wctx);
    /* The device worker proves on, 0 .. 31 (NULL: every worker is device
     * 0), for jobs that name their devices (engine_job_spec_t). */
    int (*worker_device)(void *ctx, unsigned worker);

    /*
     * One partition: the input against key, every stage reported through
     * report(rctx, ...) as it ends. On CUZK_OK *out holds the result (the
     * engine's afterwards). Failures (a truncated witness, one that does
     * not satisfy the circuit: CUZK_EWITNESS) carry a one-line message;
     * *out is then empty. urgency: the job's priority (engine.h's
     * engine_priority_t, higher is more urgent), for a backend that orders
     * partitions at a shared resource (the CUDA backend's compute lock).
     */
    cuzk_status_t (*prove)(void *ctx, void *wctx, const void *key, key_format_t format,
                           const engine_input_t *in, unsigned urgency,
                           engine_stage_report_fn report, void *rctx, engine_result_t *out,
                           char *err, size_t err_size);
} engine_backend_t;

/* Seconds on the monotonic clock (the timeline's and the reports' base). */
double engine_now(void);

#endif
