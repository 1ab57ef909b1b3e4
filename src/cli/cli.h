/* Subcommands of the `cuzk` command line. Each returns the process exit status. */
#ifndef CUZK_CLI_H
#define CUZK_CLI_H

#include "cuzk.h"

int cli_selftest(int argc, char **argv);
int cli_bench_arith(int argc, char **argv);
int cli_prove(int argc, char **argv);
int cli_verify(int argc, char **argv);
int cli_gen(int argc, char **argv);
int cli_setup(int argc, char **argv);
int cli_demo(int argc, char **argv);

struct snarkjs_vk;
struct zkey;

/*
 * vk = the verification key of the key k, with vk_alphabeta_12 = e(alpha1,
 * beta2) as snarkjs writes it (setup.c). vk is the caller's afterwards
 * (snarkjs_vk_free). CUZK_ENOMEM (vk left empty).
 */
cuzk_status_t cli_vk_with_alphabeta(struct snarkjs_vk *vk, const struct zkey *k);

#endif
