/* Subcommands of the `cuzk` command line. Each returns the process exit status. */
#ifndef CUZK_CLI_H
#define CUZK_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk.h"
#include "engine/engine_accel.h"
#include "io/io_kind.h"
#include "io/io_map.h"
#include "r1cs/r1cs_shape.h"

int cli_selftest(int argc, char **argv);
int cli_bench_arith(int argc, char **argv);
int cli_bench_snarkjs(int argc, char **argv);
/* cuzk bench supraseal (bench_supraseal.c): argv[0] is "supraseal". */
int cli_bench_supraseal(int argc, char **argv);
/* cuzk bench porep32|snap32|winning32|mixed (bench_porep.c); argv[1] names it. */
int cli_bench_porep(int argc, char **argv);
int cli_prove(int argc, char **argv);
int cli_verify(int argc, char **argv);
int cli_gen(int argc, char **argv);
int cli_setup(int argc, char **argv);
int cli_demo(int argc, char **argv);
int cli_assign(int argc, char **argv);
/* The clients of a running cuzkd (client.c). */
int cli_submit(int argc, char **argv);
int cli_status(int argc, char **argv);
int cli_wait(int argc, char **argv);
int cli_cancel(int argc, char **argv);
int cli_inspect(int argc, char **argv);
int cli_convert(int argc, char **argv);

/*
 * cuzk verify --json's result on stdout, one line (verify.c, both forms):
 * {"status": "ok" | "invalid" | "error" for exit status rc 0, 1, 2, "valid",
 * "error": err (left out when NULL or ""), "curve" (snarkjs' name) and
 * count_name: count (left out when curve is CUZK_CURVE_NONE), "seconds"}.
 */
void cli_verify_report_json(int rc, const char *err, cuzk_curve_t curve, const char *count_name,
                            size_t count, double seconds);

/* The bellperson forms of prove and verify (bellperson.c), which cli_prove
 * and cli_verify hand over to when they see --params or --vk. */
int cli_prove_bp(int argc, char **argv);

/* The stages of cuzk prove's progress line (prove.c) for proofs of
 * partitions circuits: read, then each one's synth, h and msm (an
 * accelerator's one stage in place of those three) and verify unless
 * no_verify, then write. Like every line, it is drawn only for work that
 * outlasts its interval: keys of some 2^20 constraints and more, whose
 * proofs take seconds on the CPU. */
unsigned cli_prove_steps(bool accel, bool no_verify, size_t partitions);
int cli_verify_bp(int argc, char **argv);

/* ---- what is wrong with the arguments (args.c) ---- */

/* The exit status of a command given unusable arguments. */
enum { CLI_EUSAGE = 2 };

/* Prints "cuzk <cmd>: <what> (try 'cuzk <help> --help')" on stderr (help
 * NULL: cmd; cmd "": "cuzk: <what> (try 'cuzk --help')") and returns
 * CLI_EUSAGE. */
int cli_usage_error(const char *cmd, const char *help, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* cli_usage_error saying "missing" and the n names (e.g. "<public.json>",
 * "--out"), in order. */
int cli_missing(const char *cmd, const char *help, const char *const *names, size_t n);

/* Whether o is one of names[0..n). */
bool cli_is_one_of(const char *o, const char *const *names, size_t n);

/* An input file of a command: where it was given, and what belongs there. */
typedef struct cli_input {
    const char *path; /* NULL: not given */
    const char *role; /* what belongs there: "a witness (.wtns)" */
    unsigned kinds;   /* the kinds accepted there: IO_KIND_BIT(k) | ... */
} cli_input_t;

/*
 * After reading one of the inputs in[0 .. n-1] (n <= 8) failed with status
 * s, its message in err: when s is a failure of content and some of the
 * inputs hold, by content, a kind that cuzk knows and that does not belong
 * where it was given, err says what each of them is instead ("a.json and
 * b.json are swapped: a.json is a snarkjs proof.json, b.json a snarkjs
 * public.json (public signals)"; "w.wtns is a snarkjs .wtns (witness), not
 * a proving key (.zkey)") and CUZK_EINVAL is returned. Otherwise s, with
 * err untouched (the reader's reason stands).
 */
cuzk_status_t cli_inputs_misplaced(const cli_input_t *in, size_t n, cuzk_status_t s, char *err,
                                   size_t err_size);

/*
 * The file at path for a reader of the public API (input.c), which gets
 * *data (never NULL: an empty file is "") and m->size bytes, and path as
 * the name in its messages:
 *
 *     if ((s = cli_input_map(&m, &data, path, err, n)) == CUZK_OK)
 *         s = cli_input_unmap(&m, cuzk_..._named(..., data, m.size, path), path, err, n);
 *
 * map: io_map_open's failures in err. unmap: the reader's status s with
 * cuzk_last_error() copied into err when it failed, CUZK_EIO when the file
 * shrank while it was read (io_map_check: whatever the reader made from
 * it is then the caller's to free); m is closed.
 */
cuzk_status_t cli_input_map(io_map_t *m, const void **data, const char *path, char *err,
                            size_t err_size);
cuzk_status_t cli_input_unmap(io_map_t *m, cuzk_status_t s, const char *path, char *err,
                              size_t err_size);

/* Whether argv[1 .. argc-1] holds the argument opt. */
bool cli_has_arg(int argc, char **argv, const char *opt);

/* *out = the count v, decimal or 2^K, from min to 2^32 - 2: 0, else -1
 * (out untouched). */
int cli_parse_count(uint32_t *out, const char *v, uint32_t min);

/* *out = the thread count v (1 .. 4096): 0, else -1 (out untouched). */
int cli_parse_threads(unsigned *out, const char *v);

struct snarkjs_vk;
struct zkey;
struct groth16_accel;
struct groth16_key;
struct r1cs;
struct rng;
struct progress;

/*
 * cuzk setup's bellperson branch: an INSECURE development .params for r
 * (read from r1cs_path, named in messages) written to out, and its .vk to
 * vk_path when not NULL; nothing left behind on failure. rng NULL:
 * getrandom. progress (NULL: none) shows the queries' points as they are
 * made. Failures carry a one-line message in err.
 */
cuzk_status_t cli_setup_params(const struct r1cs *r, const char *r1cs_path, const char *out,
                               const char *vk_path, struct rng *rng, struct progress *progress,
                               char *err, size_t err_size);

/* Whether the file at path starts with a cuzk key cache's magic (false
 * when it cannot be read: the format's own reader then says why). */
bool cli_is_key_cache(const char *path);

/* *out = the kind named v by --backend auto|cpu|cuda: 0, else -1. */
int cli_parse_backend(engine_accel_kind_t *out, const char *v);

/* cuzk_prover_new for a command, on key with threads (0: one a
 * processor): a failure names the --backend; an AUTO that falls back to
 * the CPU says why on stderr, once a process (cuzk demo proves several
 * times). With proofs > 0, the number of proofs the command makes, AUTO
 * is the CPU where cli_auto_prefers_cpu says so. */
cuzk_status_t cli_prover_new(cuzk_prover_t **out, const cuzk_key_t *key, engine_accel_kind_t kind,
                             unsigned threads, unsigned proofs, char *err, size_t err_size);

/*
 * Whether proofs proofs of key on threads threads (0: one a processor)
 * end sooner on the CPU than on a GPU that the command would set up for
 * them: a process's first use of a GPU costs about 0.85 s (its context,
 * and the key's upload beside it), which the CPU prover beats on one proof
 * of a domain up to 2^21 rows (BN254) or 2^20 (BLS12-381) on 16 threads,
 * 2^17 or 2^16 on 2. The estimates are the costs measured on the H200
 * host (docs/PERFORMANCE.md), per row of the domain and thread on the CPU,
 * per row and per key byte on the GPU.
 */
bool cli_auto_prefers_cpu(const cuzk_key_t *key, unsigned threads, unsigned proofs);

/* A command's progress line fed by the public API's progress callback:
 * pass cli_progress_fn with a cli_progress_t as cuzk_prove_options_t's
 * progress and progress_ctx. Each new stage the callback names begins a
 * step of the line; cli_progress_next_proof before each proof of several,
 * so that a stage that ends one proof and begins the next counts twice. */
typedef struct cli_progress {
    struct progress *line; /* NULL: no line (the callback does nothing) */
    char stage[64];        /* the stage the line shows */
} cli_progress_t;
void cli_progress_fn(void *ctx, const char *stage, uint64_t done, uint64_t total, const char *unit);
void cli_progress_next_proof(cli_progress_t *c);

struct asgn;
/* The public API's view of an assignment read from an .asgn file (the same
 * arrays: canonical scalars either way), valid while a lives. */
cuzk_assignment_t cli_assignment(const struct asgn *a);

/* Prints `, "timings": {...}` of cuzk prove --json: read, the proof's
 * stages (t), write and total, in seconds. */
void cli_timings_json(double read_s, const cuzk_prove_timings_t *t, double write_s, double total_s);

/*
 * vk = the verification key of the key k, with vk_alphabeta_12 = e(alpha1,
 * beta2) as snarkjs writes it (setup.c). vk is the caller's afterwards
 * (snarkjs_vk_free). CUZK_ENOMEM (vk left empty).
 */
cuzk_status_t cli_vk_with_alphabeta(struct snarkjs_vk *vk, const struct zkey *k);

#endif
