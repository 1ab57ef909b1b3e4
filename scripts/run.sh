#!/usr/bin/env bash
# The main job: build cuzk and run it end to end. Today that is
# `cuzk selftest` (fields, curves and pairings of both curves, with timings);
# it becomes a full prove-and-verify once the prover lands.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_TESTS=OFF
cmake --build "$build" -j"$(nproc)"
"$build"/cuzk selftest
