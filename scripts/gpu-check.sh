#!/usr/bin/env bash
# The GPU check in one command: build the CUDA backend for sm_90 (H100/H200),
# run the GPU tests (tests/test_cuda_*.c, test_engine_gpu.c and the public
# API's provers in test_api_calls.c: GPU against CPU), prove end to end with
# `cuzk prove` on both, serve that proof from cuzkd with the key on the GPU,
# then the benchmarks (cuzk_gpu_bench), and print a short table last.
#
#   scripts/gpu-check.sh [options] [-- bench arguments]
#     --prefix DIR   libraries the build needs (jansson, cmocka, GMP; libmicrohttpd
#                    and libinih for cuzkd) unpacked
#                    under DIR (DIR/usr/include, DIR/usr/lib/x86_64-linux-gnu),
#                    for machines where they are not installed
#     --debs DIR     unpack every .deb in DIR into the prefix first (dpkg -x;
#                    default prefix /tmp/cuzk-deps)
#     --build DIR    build directory (default build-gpu)
#     --out DIR      where the logs go (default: the build directory)
#     --no-bench     build and test only
#     --build-only   build only
#     --jobs N       parallel build jobs (default: all processors)
#     --e2e-log K    `cuzk prove` on the GPU and the CPU with a porep32-shaped
#                    circuit of 2^K constraints per curve (default 16; 0: skip)
#     --daemon-jobs N  cuzkd on the GPU with a porep32-shaped BN254 key resident:
#                    20 proofs from one client, then N from 8 clients (cuzkd_loadgen;
#                    default 200; 0: skip)
#     --daemon-logs "K ..."  that key's sizes, 2^K constraints, one run each
#                    (default: the e2e proof's size, whose key it reuses)
#     --daemon-workers "W ..."  the worker counts cuzkd runs that step with, one
#                    run each (default "0 8"; 0: cuzkd's default; W:T also sets
#                    cuzkd's --threads to T, the threads its workers share)
#     --porep-log K  `cuzk bench porep32` (10 partitions, 3 proofs) and `cuzk bench
#                    mixed` at 2^K constraints a partition (default 20; 0: skip)
#     --porep-full   also `cuzk bench porep32` at full size (130,278,869 constraints,
#                    key made on the device; ~110 GB of device memory), 2 proofs
# Bench arguments, e.g. `-- --msm-max-log 26 --reps 7`: see src/cuda/bench_gpu.c.
# Exit status: non-zero when the build, a test or a benchmark's own check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="" debs="" build=build-gpu out="" bench=1 tests=1 jobs=$(nproc) e2e_log=16 porep_log=20
porep_full=0 daemon_jobs=200 daemon_workers="0 8" daemon_logs=""
while [ $# -gt 0 ]; do
    case "$1" in
    --prefix) prefix=$2; shift 2 ;;
    --debs) debs=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-bench) bench=0; shift ;;
    --build-only) bench=0 tests=0; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --e2e-log) e2e_log=$2; shift 2 ;;
    --porep-log) porep_log=$2; shift 2 ;;
    --porep-full) porep_full=1; shift ;;
    --daemon-jobs) daemon_jobs=$2; shift 2 ;;
    --daemon-workers) daemon_workers=$2; shift 2 ;;
    --daemon-logs) daemon_logs=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "gpu-check: unknown option $1" >&2; exit 2 ;;
    esac
done
bench_args=("$@")
out=${out:-$build}
daemon_logs=${daemon_logs:-$e2e_log}
mkdir -p "$out"

if [ -n "$debs" ]; then
    prefix=${prefix:-/tmp/cuzk-deps}
    mkdir -p "$prefix"
    for deb in "$debs"/*.deb; do dpkg -x "$deb" "$prefix"; done
    # The packages' .pc files name /usr: point them into the prefix.
    for pc in "$prefix"/usr/lib/x86_64-linux-gnu/pkgconfig/*.pc; do
        sed -i -e "s#=/usr#=$prefix/usr#" -e "s#-L/usr#-L$prefix/usr#" -e "s#-I/usr#-I$prefix/usr#" "$pc"
    done
    # libmicrohttpd.pc requires gnutls privately, whose .pc a machine without
    # the package lacks: pkg-config would then refuse libmicrohttpd, and
    # cuzkd would be left out of the build. cuzk links it dynamically only.
    mhd=$prefix/usr/lib/x86_64-linux-gnu/pkgconfig/libmicrohttpd.pc
    [ -f "$mhd" ] && sed -i '/^Requires.private:/d' "$mhd"
fi
if [ -n "$prefix" ]; then
    lib=$prefix/usr/lib/x86_64-linux-gnu
    export PKG_CONFIG_PATH=$lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
    export CMAKE_PREFIX_PATH=$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
    export CPATH=$prefix/usr/include:$prefix/usr/include/x86_64-linux-gnu${CPATH:+:$CPATH}
    export LIBRARY_PATH=$lib${LIBRARY_PATH:+:$LIBRARY_PATH}
    export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
export PATH=$PATH:/usr/local/cuda/bin

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv || true
nvcc --version | tail -2
echo "$(nproc) processors; gcc $(gcc -dumpfullversion)"

echo "== build ($build, sm_90)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
t0=$(date +%s)
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/configure.log" 2>&1 || { cat "$out/configure.log"; exit 1; }
gpu_tests=(test_cuda_ff test_cuda_msm test_cuda_ntt test_cuda_prove test_engine_gpu test_engine_gpu_setup
    test_engine test_supraseal test_supraseal_curio test_api_calls)
targets=("${gpu_tests[@]}" cuzk_gpu_bench cuzk_cli)
# cuzkd is configured only where libmicrohttpd and libinih are found.
daemon=0
if grep -q '^MICROHTTPD_FOUND:INTERNAL=1' "$build/CMakeCache.txt" &&
    grep -q '^INIH_FOUND:INTERNAL=1' "$build/CMakeCache.txt"; then
    daemon=1
    targets+=(cuzkd cuzkd_loadgen)
elif [ "$daemon_jobs" -gt 0 ]; then
    echo "gpu-check: cuzkd is not configured (libmicrohttpd or libinih missing): no daemon step"
fi
if ! cmake --build "$build" -j"$jobs" --target "${targets[@]}" >"$out/build.log" 2>&1; then
    grep -E "error|Error" "$out/build.log" | head -40
    echo "gpu-check: build failed (full log: $out/build.log)"
    exit 1
fi
echo "built in $(($(date +%s) - t0)) s"
[ "$tests" = 1 ] || exit 0

echo "== GPU tests"
status=0 results=()
for t in "${gpu_tests[@]}"; do
    t1=$(date +%s)
    if "$build/tests/$t" >"$out/$t.log" 2>&1; then r=ok; else r=FAILED; status=1; fi
    skipped=$(grep -c "SKIPPED \]" "$out/$t.log" || true)
    [ "$skipped" -gt 0 ] && [ "$r" = ok ] && r="skipped ($(grep -m1 -o 'no GPU.*\|CUDA backend not built.*' "$out/$t.log"))"
    results+=("| $t | $r | $(($(date +%s) - t1)) s |")
    grep -E "seed|PASSED|FAILED|SKIPPED|Failure|differs|wrong|error" "$out/$t.log" | head -20
done

# One proof end to end through `cuzk prove`, on the GPU and on the CPU: a
# porep32-shaped circuit of 2^e2e_log constraints per curve, development keys.
e2e_rows=()
if [ "$status" = 0 ] && [ "$e2e_log" -gt 0 ]; then
    echo "== cuzk prove, GPU against CPU (2^$e2e_log constraints, porep32 shape)"
    cuzk=$build/cuzk e2e=$out/e2e
    mkdir -p "$e2e"
    for curve in bn128 bls12381; do
        n=$((1 << e2e_log))
        "$cuzk" gen --curve $curve --constraints $n --shape porep32 --seed 1 "$e2e/$curve.r1cs" \
            "$e2e/$curve.wtns" >/dev/null &&
            "$cuzk" setup --seed 2 "$e2e/$curve.r1cs" "$e2e/$curve.zkey" >/dev/null || { status=1; break; }
        for be in cuda cpu; do
            if "$cuzk" prove --backend $be --trusted --json "$e2e/$curve.zkey" "$e2e/$curve.wtns" \
                "$e2e/$curve.$be.proof.json" "$e2e/$curve.$be.public.json" >"$e2e/$curve.$be.json"; then
                e2e_rows+=("| $curve | $be | $(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["timings"]; print(" | ".join("%.3f" % t[k] for k in ("read","synth","h","msm","finish","verify","total")))' "$e2e/$curve.$be.json") |")
            else
                status=1
                cat "$e2e/$curve.$be.json"
            fi
        done
    done
fi

# cuzkd on the GPU: a porep32-shaped BN254 key preloaded (resident on the
# device; at the e2e proof's size, that proof's key), its witness proven from
# one client and from eight, every proof verified in the daemon; stopped by
# its process id. Once for each size of --daemon-logs and each worker count
# of --daemon-workers (0: cuzkd's default).
daemon_rows=()
for dk in $daemon_logs; do
    for dw in $daemon_workers; do
        [ "$status" = 0 ] && [ "$daemon" = 1 ] && [ "$daemon_jobs" -gt 0 ] || break 2
        e2e=$out/e2e
        if [ "$dk" != "$e2e_log" ] || [ ! -f "$e2e/bn128.zkey" ]; then
            e2e=$out/daemon-$dk
            mkdir -p "$e2e"
            if [ ! -f "$e2e/bn128.zkey" ]; then
                "$build/cuzk" gen --curve bn128 --constraints $((1 << dk)) --shape porep32 --seed 1 \
                    "$e2e/bn128.r1cs" "$e2e/bn128.wtns" >/dev/null &&
                    "$build/cuzk" setup --seed 2 "$e2e/bn128.r1cs" "$e2e/bn128.zkey" >/dev/null ||
                    { status=1; break 2; }
            fi
        fi
        echo "== cuzkd on the GPU (2^$dk constraints, BN254, key resident, workers $dw)"
        e2e=$(cd "$e2e" && pwd) dlog=$out/cuzkd.$dk.${dw/:/-}.log
        wopt=()
        [ "${dw%%:*}" -gt 0 ] && wopt=(--workers "${dw%%:*}")
        [ "$dw" != "${dw#*:}" ] && wopt+=(--threads "${dw#*:}")
        "$build/cuzkd" --listen 127.0.0.1:0 --allow "$e2e" --devices cuda --trusted-keys yes \
            "${wopt[@]}" --preload "k=zkey:$e2e/bn128.zkey" >"$dlog" 2>&1 &
        dpid=$!
        server=""
        for _ in $(seq 1 300); do
            server=$(sed -n 's/.*listening on \([0-9.]*:[0-9]*\).*/\1/p' "$dlog" | head -n 1)
            [ -n "$server" ] && break
            kill -0 "$dpid" 2>/dev/null || break
            sleep 0.1
        done
        if [ -z "$server" ]; then
            echo "gpu-check: cuzkd did not start"
            cat "$dlog"
            status=1
        else
            lg=$build/tests/cuzkd_loadgen
            w=$e2e/bn128.wtns
            timeout 120 "$lg" load --server "$server" --key k --witness "$w" --clients 8 --jobs 16 \
                >/dev/null 2>&1 || true
            if one=$(timeout 120 "$lg" latency --server "$server" --key k --witness "$w" \
                --zkey "$e2e/bn128.zkey" --jobs 20 2>&1) &&
                many=$(timeout 300 "$lg" load --server "$server" --key k --witness "$w" --clients 8 \
                    --jobs "$daemon_jobs" 2>&1); then
                echo "$one"
                echo "$many"
                echo -n "one job's stages, s: "
                "$build/cuzk" submit --server "$server" --key k --witness "$w" --wait --json |
                    python3 -c 'import json,sys; t=json.load(sys.stdin)["timings"]; print(", ".join("%s %.4f" % kv for kv in t.items()))' || status=1
                med=$(echo "$one" | sed -n 's/^cuzkd end to end.*median \([0-9.]*\) ms.*/\1/p')
                rate=$(echo "$many" | sed -n 's/.*: \([0-9.]*\) proofs\/s.*/\1/p')
                pct=$(echo "$many" | sed -n 's/^latency ms: p50 \([0-9.]*\).*p99 \([0-9.]*\).*/\1 | \2/p')
                busy=$("$build/cuzk" status --server "$server" | sed -n 's/.*, \([0-9.]*%\) busy.*/\1/p' | head -n 1)
                daemon_rows+=("| 2^$dk | $dw | $med | $rate | $pct | $busy |")
            else
                echo "$one"
                echo "${many:-}"
                status=1
            fi
        fi
        kill "$dpid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$dpid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$dpid" 2>/dev/null || true
    done
done

# The engine: PoRep-shaped proofs, then a winning32 proof behind them.
if [ "$status" = 0 ] && [ "$porep_log" -gt 0 ]; then
    echo "== cuzk bench porep32 / mixed (2^$porep_log constraints a partition)"
    "$build/cuzk" bench porep32 --constraints "2^$porep_log" --proofs 3 --seed 7 \
        --trace "$out/porep32.trace.json" 2>&1 | tee "$out/porep32.log" || status=1
    "$build/cuzk" bench mixed --constraints "2^$porep_log" --proofs 2 --seed 8 2>&1 |
        tee "$out/mixed.log" || status=1
fi
if [ "$status" = 0 ] && [ "$porep_full" = 1 ]; then
    echo "== cuzk bench porep32 at full size"
    "$build/cuzk" bench porep32 --constraints full --proofs 2 --seed 9 \
        --trace "$out/porep32-full.trace.json" 2>&1 | tee "$out/porep32-full.log" || status=1
fi

if [ "$bench" = 1 ] && [ "$status" = 0 ]; then
    echo "== benchmarks"
    "$build/cuzk_gpu_bench" "${bench_args[@]}" 2>&1 | tee "$out/bench.log" || status=1
fi

echo
echo "| test | result | time |"
echo "| --- | --- | --- |"
printf '%s\n' "${results[@]}"
if [ ${#e2e_rows[@]} -gt 0 ]; then
    echo
    echo "| cuzk prove 2^$e2e_log | backend | read s | synth s | h s | msm s | finish s | verify s | total s |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    printf '%s\n' "${e2e_rows[@]}"
fi
if [ ${#daemon_rows[@]} -gt 0 ]; then
    echo
    echo "| cuzkd GPU BN254 | workers | one client, median ms | 8 clients: proofs/s | p50 ms | p99 ms | device busy |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    printf '%s\n' "${daemon_rows[@]}"
fi
if [ -f "$out/bench.log" ]; then
    echo
    sed -n '/^| what |/,$p' "$out/bench.log"
fi
exit $status
