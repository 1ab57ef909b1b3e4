#!/usr/bin/env bash
# The main job: build cuzk and prove a bundled example end to end. `cuzk demo`
# generates a porep32-shaped circuit of 65,000 constraints on BN254 and on
# BLS12-381, makes an INSECURE development key, proves, verifies, checks that a
# tampered public signal is rejected, and prints a table of timings; it exits
# non-zero on any failure. `cuzk selftest` (known answers for the arithmetic)
# stays available as a command.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --build
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_TESTS=OFF
cmake --build "$build" -j"$(nproc)"
"$build"/cuzk demo
