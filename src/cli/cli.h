/* Subcommands of the `cuzk` command line. Each returns the process exit status. */
#ifndef CUZK_CLI_H
#define CUZK_CLI_H

int cli_selftest(int argc, char **argv);
int cli_bench_arith(int argc, char **argv);
int cli_prove(int argc, char **argv);
int cli_verify(int argc, char **argv);
int cli_gen(int argc, char **argv);
int cli_setup(int argc, char **argv);

#endif
