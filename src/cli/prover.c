/*
 * Where a command's proofs run (--backend auto|cpu|cuda) and how they show
 * their progress: the commands prove through the public API's prover
 * (cuzk_prover_t, include/cuzk_prove.h), and its progress callback drives
 * the command's line on the terminal (util/progress.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "io/asgn_file.h"
#include "io/io_error.h"
#include "util/progress.h"

int cli_parse_backend(engine_accel_kind_t *out, const char *v)
{
    static const struct {
        const char *name;
        engine_accel_kind_t kind;
    } kinds[] = {
        {"auto", ENGINE_ACCEL_AUTO}, {"cpu", ENGINE_ACCEL_CPU}, {"cuda", ENGINE_ACCEL_CUDA}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (!strcmp(v, kinds[i].name)) {
            *out = kinds[i].kind;
            return 0;
        }
    }
    return -1;
}

/* The costs of cli_auto_prefers_cpu, fitted to `cuzk prove --backend cpu`
 * and `--backend cuda` on the H200 host, 16 threads, circuits of 2^16 to
 * 2^20 constraints (docs/PERFORMANCE.md). A row is a row of the key's
 * domain (twice the constraints of those circuits). CPU: seconds a row and
 * thread of the whole command (key read and check, synth, h, the MSMs);
 * smaller circuits cost more a row, so the CPU wins there by more than
 * this says. GPU: the first use (context and setup, 0.85-0.95 s before a
 * 2^16 circuit's first kernel), the key's bytes at a pageable upload's
 * pace, and the command's other work a row. */
#define CPU_ROW_S_BN254    1.0e-5
#define CPU_ROW_S_BLS381   1.4e-5
#define GPU_FIRST_USE_S    0.85
#define GPU_UPLOAD_BYTES_S 8e9
#define GPU_ROW_S          2.5e-7

bool cli_auto_prefers_cpu(const cuzk_key_t *key, unsigned threads, unsigned proofs)
{
    bool bn = cuzk_key_curve(key) == CUZK_CURVE_BN254;
    double rows = (double)cuzk_key_domain_size(key), wires = (double)cuzk_key_wires(key);
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (unsigned)n : 1;
    }
    /* the key's points: A, B1, L (at most a wire each), H (a row each) in
     * G1, B2 in G2 */
    double g1 = bn ? 64 : 96, key_bytes = (3 * wires + rows) * g1 + wires * 2 * g1;
    double cpu = proofs * rows * (bn ? CPU_ROW_S_BN254 : CPU_ROW_S_BLS381) / threads;
    double gpu = GPU_FIRST_USE_S + key_bytes / GPU_UPLOAD_BYTES_S + proofs * rows * GPU_ROW_S;
    return cpu < gpu;
}

cuzk_status_t cli_prover_new(cuzk_prover_t **out, const cuzk_key_t *key, engine_accel_kind_t kind,
                             unsigned threads, unsigned proofs, char *err, size_t err_size)
{
    if (kind == ENGINE_ACCEL_AUTO && proofs > 0 && cli_auto_prefers_cpu(key, threads, proofs))
        kind = ENGINE_ACCEL_CPU;
    cuzk_backend_t backend = kind == ENGINE_ACCEL_CPU    ? CUZK_BACKEND_CPU
                             : kind == ENGINE_ACCEL_CUDA ? CUZK_BACKEND_CUDA
                                                         : CUZK_BACKEND_AUTO;
    cuzk_status_t s = cuzk_prover_new(out, key, backend, threads);
    if (s != CUZK_OK) {
        if (backend == CUZK_BACKEND_CPU)
            return io_fail(err, err_size, s, "%s", cuzk_last_error());
        return io_fail(err, err_size, s, "--backend %s: %s",
                       backend == CUZK_BACKEND_AUTO ? "auto" : "cuda", cuzk_last_error());
    }
    static bool told;
    const char *note = cuzk_prover_note(*out);
    if (note && !told) {
        fprintf(stderr, "cuzk: %s; proving on the CPU\n", note);
        told = true;
    }
    return CUZK_OK;
}

void cli_progress_fn(void *ctx, const char *stage, uint64_t done, uint64_t total, const char *unit)
{
    cli_progress_t *c = ctx;
    if (strcmp(c->stage, stage) != 0) {
        snprintf(c->stage, sizeof c->stage, "%s", stage);
        progress_begin(c->line, stage, total, unit);
    }
    progress_set(c->line, done);
}

void cli_progress_next_proof(cli_progress_t *c)
{
    c->stage[0] = '\0';
}

void cli_timings_json(double read_s, const cuzk_prove_timings_t *t, double write_s, double total_s)
{
    printf(", \"timings\": {\"read\": %.6f, \"synth\": %.6f, \"h\": %.6f, \"msm\": %.6f, "
           "\"finish\": %.6f, \"verify\": %.6f, \"write\": %.6f, \"total\": %.6f}",
           read_s, t->synth, t->h, t->msm, t->finish, t->verify, write_s, total_s);
}

_Static_assert(sizeof(cuzk_scalar_t) == sizeof(uint64_t[4]),
               "an .asgn's scalars are the public API's, in place");

cuzk_assignment_t cli_assignment(const struct asgn *a)
{
    return (cuzk_assignment_t){.curve = a->curve == R1CS_CURVE_BN254 ? CUZK_CURVE_BN254
                                                                     : CUZK_CURVE_BLS12_381,
                               .n_constraints = a->n_constraints,
                               .n_inputs = a->n_inputs,
                               .n_aux = a->n_aux,
                               .a = (const cuzk_scalar_t *)a->a,
                               .b = (const cuzk_scalar_t *)a->b,
                               .c = (const cuzk_scalar_t *)a->c,
                               .inputs = (const cuzk_scalar_t *)a->inputs,
                               .aux = (const cuzk_scalar_t *)a->aux,
                               .a_aux_density = a->a_aux_density,
                               .b_input_density = a->b_input_density,
                               .b_aux_density = a->b_aux_density};
}
