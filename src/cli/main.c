/* cuzk: the command line. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cuzk.h"
#include "util/cpu.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk <command> [options]\n"
            "\n"
            "commands:\n"
            "  prove           <circuit.zkey> <witness.wtns> <proof.json> <public.json>:\n"
            "                  a Groth16 proof for a snarkjs key, verified before it is written\n"
            "  verify          <verification_key.json> <public.json> <proof.json>:\n"
            "                  check a snarkjs Groth16 proof, print OK or INVALID\n"
            "  gen             --curve C --constraints N [options] <out.r1cs> <out.wtns>:\n"
            "                  a random satisfiable circuit and its witness\n"
            "  prove --params  P --assignment A --out proof.bin: bellperson proofs\n"
            "  verify --vk     V --inputs I --proof proof.bin: check bellperson proofs\n"
            "  setup           <circuit.r1cs> <out.zkey | out.params> [--vk FILE]:\n"
            "                  an INSECURE development key (tests and benchmarks only)\n"
            "  assign          <circuit.r1cs> <witness.wtns> <out.asgn>: the assignment\n"
            "                  file a bellperson-style synthesizer hands to the prover\n"
            "  inspect         <file>: what a key, circuit, witness, proof or assignment\n"
            "                  file holds, and whether it is valid\n"
            "  convert         <in.zkey | in.params> <out.cuzkkey>: the key as cuzk's key\n"
            "                  cache, which loads with one sequential read\n"
            "  submit          --key NAME --witness W.wtns ...: a proof job for cuzkd\n"
            "  status [ID]     cuzkd's status, or a job's state and result\n"
            "  wait ID         wait for a cuzkd job; --proof/--public write its result\n"
            "  cancel ID       cancel a cuzkd job\n"
            "  demo            gen, setup, prove and verify an example on both curves,\n"
            "                  with a table of timings (scripts/run.sh's main job)\n"
            "  selftest        check fields, curves and pairings of BLS12-381 and BN254\n"
            "                  against known answers and print a table with timings\n"
            "  bench arith     median times of field, curve and pairing operations,\n"
            "                  with GMP's multiplication for comparison\n"
            "  bench snarkjs   cuzk against `snarkjs groth16 prove` on the same keys at 2^14,\n"
            "                  2^16, 2^18, then MSM, NTT and subgroup-check throughput\n"
            "  bench porep32   Filecoin-shaped proofs through the engine (also snap32,\n"
            "                  winning32, mixed): seconds per partition and per proof,\n"
            "                  device busy %%, stages\n"
            "  bench supraseal porep-shaped proofs through supraseal-c2's C ABI as Curio\n"
            "                  feeds it (docs/FILECOIN.md)\n"
            "  version         print the version\n"
            "\n"
            "options:\n"
            "  -h, --help      this text\n"
            "  --version       print the version\n");
}

static void bench_usage(FILE *f)
{
    fprintf(f, "usage: cuzk bench <benchmark> [options]\n"
               "\n"
               "benchmarks (each answers --help):\n"
               "  arith       median times of field, curve and pairing operations\n"
               "  snarkjs     cuzk against `snarkjs groth16 prove` on the same keys, then\n"
               "              MSM, NTT and subgroup-check throughput\n"
               "  porep32     Filecoin-shaped proofs through the engine; also snap32,\n"
               "  snap32      winning32 and mixed (a mix of the three)\n"
               "  winning32\n"
               "  mixed\n"
               "  supraseal   porep-shaped partitions through supraseal-c2's C ABI, fed as\n"
               "              Curio feeds them (docs/FILECOIN.md)\n");
}

static int bench(int argc, char **argv)
{
    const char *b = argc >= 3 ? argv[2] : NULL;
    if (!b)
        return cli_usage_error("bench", NULL, "missing <benchmark>");
    if (!strcmp(b, "-h") || !strcmp(b, "--help")) {
        bench_usage(stdout);
        return 0;
    }
    if (!strcmp(b, "arith"))
        return cli_bench_arith(argc - 2, argv + 2);
    if (!strcmp(b, "snarkjs"))
        return cli_bench_snarkjs(argc - 2, argv + 2);
    if (!strcmp(b, "supraseal"))
        return cli_bench_supraseal(argc - 2, argv + 2);
    if (!strcmp(b, "porep32") || !strcmp(b, "snap32") || !strcmp(b, "winning32") ||
        !strcmp(b, "mixed"))
        return cli_bench_porep(argc - 1, argv + 1);
    return cli_usage_error("bench", NULL,
                           "unknown benchmark '%s' (available: arith, snarkjs, porep32, snap32, "
                           "winning32, mixed, supraseal)",
                           b);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("", NULL, "missing <command>");
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "version") && argc > 2 &&
        (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help"))) {
        printf("usage: cuzk version (or cuzk --version)\n"
               "\n"
               "Prints the version and the arithmetic this processor runs.\n");
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("cuzk %s (arithmetic: %s)\n", cuzk_version(), cpu_arith_path());
        return 0;
    }
    if (!strcmp(cmd, "prove"))
        return cli_prove(argc - 1, argv + 1);
    if (!strcmp(cmd, "verify"))
        return cli_verify(argc - 1, argv + 1);
    if (!strcmp(cmd, "gen"))
        return cli_gen(argc - 1, argv + 1);
    if (!strcmp(cmd, "setup"))
        return cli_setup(argc - 1, argv + 1);
    if (!strcmp(cmd, "assign"))
        return cli_assign(argc - 1, argv + 1);
    if (!strcmp(cmd, "inspect"))
        return cli_inspect(argc - 1, argv + 1);
    if (!strcmp(cmd, "convert"))
        return cli_convert(argc - 1, argv + 1);
    if (!strcmp(cmd, "submit"))
        return cli_submit(argc - 1, argv + 1);
    if (!strcmp(cmd, "status"))
        return cli_status(argc - 1, argv + 1);
    if (!strcmp(cmd, "wait"))
        return cli_wait(argc - 1, argv + 1);
    if (!strcmp(cmd, "cancel"))
        return cli_cancel(argc - 1, argv + 1);
    if (!strcmp(cmd, "demo"))
        return cli_demo(argc - 1, argv + 1);
    if (!strcmp(cmd, "selftest"))
        return cli_selftest(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench"))
        return bench(argc, argv);
    fprintf(stderr, "cuzk: unknown command '%s' (try 'cuzk --help')\n", cmd);
    return 2;
}
