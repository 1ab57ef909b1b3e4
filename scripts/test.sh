#!/usr/bin/env bash
# Builds cuzk with its unit tests and runs them (ctest). Installs the
# packages the tests need first when they are missing (see scripts/deps.sh).
#   scripts/test.sh             Release build in build/
#   scripts/test.sh --sanitize  AddressSanitizer + UBSan build in build-asan/
# CUZK_TEST_SEED=N replays a random test run; CUZK_TEST_ITERS=K runs K times more cases.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
if [ "${1:-}" = "--sanitize" ]; then
    # The sanitized run takes the scalar kernels, so that both paths run in
    # CI; the vector kernels' own tests (test_msm_vec, test_ntt) still run
    # them, sanitized, against the scalar code. (Unoptimised, the AVX2
    # intrinsics would double the run: test_subgroup 114 -> 213 s.)
    export CUZK_NO_IFMA=1 CUZK_NO_AVX2=1
    build=${BUILD_DIR:-build-asan}
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCUZK_SANITIZE=ON -DCUZK_TESTS=ON
else
    build=${BUILD_DIR:-build}
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_TESTS=ON -DCUZK_SANITIZE=OFF
fi
cmake --build "$build" -j"$(nproc)"
# The tests are configured on explicitly (scripts/run.sh configures the same
# build/ without them), and a run that finds none fails.
ctest --test-dir "$build" --output-on-failure --no-tests=error
