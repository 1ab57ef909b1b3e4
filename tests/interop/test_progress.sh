#!/usr/bin/env bash
# The progress line (src/util/progress.h) through the command line: each
# command runs under a pseudo-terminal (script(1), util-linux) with the
# line's interval at 0 (CUZK_PROGRESS_INTERVAL_MS=0: a line at every stage
# and advance), and
#   - on the terminal, stderr shows the command's stage and a percentage
#     (cuzk setup of a .zkey and of a .params, cuzk convert's checks and
#     write, cuzk inspect's checks of a .zkey, a .params and a key cache,
#     cuzk prove's stages, each counted (synth, h, msm), for a .zkey and
#     for two assignments of a .params, cuzk bench porep32's partitions);
#   - with stderr to a file, and with --quiet on the terminal, there is no
#     progress at all (no stage name, no carriage return).
#   tests/interop/test_progress.sh CUZK_BINARY
# One line per check; exit 1 on any failure; 77 (skipped) without script.
set -uo pipefail
cuzk=$1
command -v script >/dev/null || { echo "SKIP progress: script(1) not installed (util-linux)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME STATUS(0 = pass) [DETAIL]
    if [ "$2" -eq 0 ]; then
        echo "PASS progress: $1"
    else
        echo "FAIL progress: $1${3:+ ($3)}"
        failures=$((failures + 1))
    fi
}
export CUZK_PROGRESS_INTERVAL_MS=0 TERM=xterm

# on_tty CMD...: what CMD writes to a pseudo-terminal (stdout and stderr).
on_tty() {
    local cmd
    printf -v cmd '%q ' "$@"
    script -qefc "$cmd" /dev/null
}

# shows NAME PATTERN CMD...: on a terminal, CMD succeeds and its output
# holds a progress line matching PATTERN (an extended regular expression,
# after the line's carriage return) and a percentage.
shows() {
    local name=$1 pattern=$2
    shift 2
    local out rc
    out=$(on_tty "$@" 2>&1)
    rc=$?
    [ $rc -eq 0 ] && grep -aqE $'\r'"$pattern" <<<"$out" && grep -aqE $'\r[^\r]* [0-9]+% ' <<<"$out"
    check "$name" $? "exit $rc: $(tr '\r' '\n' <<<"$out" | tail -n 3 | tr '\n' '|')"
}

# silent NAME CMD...: CMD succeeds with stderr to a file and nothing of a
# progress line there; and again on a terminal with --quiet (CMD's last
# argument must be where --quiet may go: the option loop takes it anywhere).
silent() {
    local name=$1
    shift
    "$@" >/dev/null 2>"$work/err"
    local rc=$?
    [ $rc -eq 0 ] && ! grep -aq $'\r' "$work/err" && ! grep -aqE '[0-9]+% ' "$work/err"
    check "$name: stderr to a file holds no progress" $? "exit $rc: $(head -c 300 "$work/err")"
    local out
    out=$(on_tty "$@" --quiet 2>&1)
    rc=$?
    [ $rc -eq 0 ] && ! grep -aq $'\r\033' <<<"$out" && ! grep -aqE '[0-9]+% ' <<<"$out"
    check "$name --quiet: no progress on the terminal" $? "exit $rc: $(head -c 300 <<<"$out")"
}

"$cuzk" gen --curve bn128 --constraints 4000 --public 2 --seed 3 "$work/bn.r1cs" "$work/bn.wtns" \
    >/dev/null 2>&1 &&
    "$cuzk" gen --curve bls12381 --constraints 2000 --public 2 --seed 4 "$work/bls.r1cs" \
        "$work/bls.wtns" >/dev/null 2>&1
check "gen the circuits" $?

shows "setup .zkey: the queries' points" 'cuzk setup: query (A|B1|B2|C|H) ' \
    "$cuzk" setup --seed 5 "$work/bn.r1cs" "$work/bn.zkey"
silent "setup .zkey" "$cuzk" setup --seed 5 "$work/bn.r1cs" "$work/bn2.zkey"
shows "setup .params: the queries' points" 'cuzk setup: query (L|A|B G1|B G2|H) ' \
    "$cuzk" setup --seed 6 "$work/bls.r1cs" "$work/bls.params"
silent "setup .params" "$cuzk" setup --seed 6 "$work/bls.r1cs" "$work/bls2.params"

shows "convert .zkey: the checks" 'cuzk convert: check ' \
    "$cuzk" convert "$work/bn.zkey" "$work/bn.cuzkkey"
shows "convert .zkey: the write" 'cuzk convert: write ' \
    "$cuzk" convert "$work/bn.zkey" "$work/bn.cuzkkey"
shows "convert .params: the subgroup" 'cuzk convert: subgroup G1 ' \
    "$cuzk" convert "$work/bls.params" "$work/bls.cuzkkey"
silent "convert" "$cuzk" convert "$work/bls.params" "$work/bls3.cuzkkey"

shows "inspect .zkey: the subgroup of G2" 'cuzk inspect: subgroup G2 ' \
    "$cuzk" inspect "$work/bn.zkey"
shows "inspect .params: the checks" 'cuzk inspect: check ' "$cuzk" inspect "$work/bls.params"
shows "inspect key cache: the subgroup" 'cuzk inspect: subgroup G1 ' \
    "$cuzk" inspect "$work/bls.cuzkkey"
silent "inspect" "$cuzk" inspect "$work/bls.cuzkkey"
# the line is erased before the verdict: the last line is clean
out=$(on_tty "$cuzk" inspect "$work/bn.zkey" 2>&1)
[[ "$(tail -n 1 <<<"$out")" == $'valid\r' || "$(tail -n 1 <<<"$out")" == valid ]]
check "inspect: the verdict on a line of its own" $? "$(tail -n 1 <<<"$out" | od -c | head -3)"

# cuzk prove: its stages counted (synth in coefficient records, h in
# transforms, msm in query points), with --no-verify one stage fewer;
# prove --params the same per assignment, synth in constraints.
prove=("$cuzk" prove --backend cpu "$work/bn.zkey" "$work/bn.wtns" "$work/p.json" "$work/pub.json")
shows "prove: synth's coefficients" \
    'cuzk prove: \[2/6\] synth +[0-9]+% [0-9.kM]+/[0-9.kM]+ coefficients ' "${prove[@]}"
shows "prove: h's transforms" 'cuzk prove: \[3/6\] h +50% 3/6 transforms ' "${prove[@]}"
shows "prove: the MSMs' points" 'cuzk prove: \[4/6\] msm +[0-9]+% [0-9.kM]+/[0-9.kM]+ points ' \
    "${prove[@]}"
shows "prove --no-verify: five stages" 'cuzk prove: \[5/5\] write' \
    "$cuzk" prove --backend cpu --no-verify "$work/bn.zkey" "$work/bn.wtns" "$work/p.json" \
    "$work/pub.json"
silent "prove" "$cuzk" prove --backend cpu "$work/bn.zkey" "$work/bn.wtns" "$work/p.json" \
    "$work/pub.json"
"$cuzk" assign "$work/bls.r1cs" "$work/bls.wtns" "$work/bls.asgn" >/dev/null 2>&1
check "assign the BLS12-381 witness" $?
bp=("$cuzk" prove --backend cpu --params "$work/bls.params" --assignment "$work/bls.asgn"
    --assignment "$work/bls.asgn" --out "$work/bp.bin")
shows "prove --params: the second assignment's constraints" \
    'cuzk prove: \[6/10\] synth +[0-9]+% [0-9.kM]+/[0-9.kM]+ constraints ' "${bp[@]}"
shows "prove --params: the second assignment's MSMs" \
    'cuzk prove: \[8/10\] msm +[0-9]+% [0-9.kM]+/[0-9.kM]+ points ' "${bp[@]}"
silent "prove --params" "${bp[@]}"

bench=("$cuzk" bench porep32 --backend cpu --constraints 512 --partitions 2 --proofs 2 --seed 1)
shows "bench porep32: partitions" 'cuzk bench: (proving|proofs [0-9]/2 done) ' "${bench[@]}"
silent "bench porep32" "${bench[@]}"

[ $failures -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
