#!/usr/bin/env bash
# Builds the fuzz targets (clang, ASan + UBSan, libFuzzer) and runs each on
# its seeds for a bounded time; exits non-zero on any finding.
#   tests/fuzz/run.sh [BUILD_DIR [SECONDS]]
# BUILD_DIR defaults to build-fuzz, SECONDS (each target's run) to 60, or
# $CUZK_FUZZ_SECONDS. The corpora grow under BUILD_DIR/corpus/<target>;
# a finding is left as BUILD_DIR/findings/<target>/crash-* (or leak-,
# timeout-, oom-): fix the reader, then commit the input under
# tests/fuzz/regressions/<target>/ so that ctest replays it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build-fuzz}
seconds=${2:-${CUZK_FUZZ_SECONDS:-60}}
case $build in /*) ;; *) build=$root/$build ;; esac
cd "$root"

CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_CUDA=OFF \
    -DCUZK_TESTS=OFF -DCUZK_FUZZ=ON >/dev/null
cmake --build "$build" -j"${CUZK_FUZZ_JOBS:-2}" >/dev/null

targets=()
for f in "$build"/tests/fuzz/fuzz_*; do
    [ -x "$f" ] && targets+=("$(basename "$f" | sed 's/^fuzz_//')")
done
[ ${#targets[@]} -gt 0 ] || { echo "run.sh: no fuzz targets were built" >&2; exit 1; }

seeds=$build/seeds
rm -rf "$seeds"
tests/fuzz/seeds.sh "$build/cuzk" "$seeds"

# The sanitizers stop at the first report; a leak is a finding too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
failed=()
for t in "${targets[@]}"; do
    corpus=$build/corpus/$t findings=$build/findings/$t
    mkdir -p "$corpus" "$findings"
    dirs=("$corpus" "$seeds/$t")
    [ -d "tests/fuzz/regressions/$t" ] && dirs+=("tests/fuzz/regressions/$t")
    # -max_len: the largest seed and a page more; -rss_limit_mb: a reader
    # that allocates by a count it has not checked shows up as out-of-memory.
    max=$(find "${dirs[@]}" -type f -printf '%s\n' | sort -n | tail -n 1)
    max=$((${max:-0} + 4096))
    echo "== fuzz_$t: $seconds s, inputs up to $max bytes"
    if ! "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len="$max" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" \
        "${dirs[@]}" >"$build/fuzz_$t.log" 2>&1; then
        tail -n 40 "$build/fuzz_$t.log"
        failed+=("$t")
    else
        grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$build/fuzz_$t.log" | tail -n 1 || true
    fi
done
if [ ${#failed[@]} -ne 0 ]; then
    echo "fuzz: findings in ${failed[*]} (inputs under $build/findings/)" >&2
    exit 1
fi
echo "fuzz: no findings in ${#targets[@]} targets"
