/*
 * One partition, proven: its input read (a .wtns from a path or from
 * memory, a bellperson assignment from an .asgn file or from the caller's
 * memory), the Groth16 layer's prover run over the key's view with the
 * stages synth, h and msm on an accelerator (groth16_accel_t: a device) or
 * on the CPU, and the proof encoded as the key's own tools write it. Both
 * backends (engine_cpu.h, engine_cuda.h) prove every partition through
 * this one path; they differ only in the accelerator they hand it.
 */
#ifndef CUZK_ENGINE_ENGINE_PARTITION_H
#define CUZK_ENGINE_ENGINE_PARTITION_H

#include <stddef.h>

#include "cuzk.h"
#include "engine/engine_backend.h"
#include "groth16/groth16.h"
#include "io/key_file.h"
#include "util/pool.h"

/*
 * Proves in against key on pool's threads, reporting each stage through
 * report(rctx, ...) as it ends, stopping early when a report says the
 * partition was cancelled. format: the format the job proves in
 * (KEY_FORMAT_ZKEY or KEY_FORMAT_PARAMS), checked against the key (a key
 * cache replaced by one of the other kind between probe and load is
 * CUZK_EINVAL). accel NULL: the CPU, which needs the key's points on the
 * host (else CUZK_EUNSUPPORTED). On CUZK_OK *out holds the result; on a
 * failure it is empty and err says what was wrong (CUZK_EWITNESS: the
 * witness does not satisfy the circuit).
 */
cuzk_status_t engine_partition_prove(const key_file_t *key, key_format_t format, pool_t *pool,
                                     const groth16_accel_t *accel, const engine_input_t *in,
                                     engine_stage_report_fn report, void *rctx,
                                     engine_result_t *out, char *err, size_t err_size);

#endif
