/*
 * Where a command's proofs run (--backend auto|cpu|cuda): the engine's
 * one-proof-at-a-time accelerator (engine/engine_accel.h), and the note a
 * command prints when "auto" finds no usable GPU.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "io/io_error.h"

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

cuzk_status_t cli_accel_new(engine_accel_t **out, engine_accel_kind_t kind,
                            const struct groth16_key *key, char *err, size_t err_size)
{
    char why[IO_ERR_MAX] = "";
    cuzk_status_t s = engine_accel_new(out, kind, key, why, sizeof why);
    if (s != CUZK_OK)
        return io_fail(err, err_size, s, "--backend %s: %s",
                       kind == ENGINE_ACCEL_AUTO ? "auto" : "cuda", why);
    static bool told;
    const char *note = engine_accel_note(*out);
    if (note && !told) {
        fprintf(stderr, "cuzk: %s; proving on the CPU\n", note);
        told = true;
    }
    return CUZK_OK;
}
