#!/usr/bin/env bash
# The command line's messages and conventions, each checked for its exact
# line on stderr and its exit status:
#   a missing file, a directory and an unreadable file (skipped as root) as
#   inputs: one line naming the path and what is wrong, no status suffix;
#   a curve mismatch, swapped and misplaced arguments told by content;
#   missing arguments: one line, then a pointer to --help;
#   --help and -h of every command on stdout with exit 0, cuzk --version;
#   cuzk verify --json (both forms) for OK, INVALID and unusable input;
#   --backend cuda and auto without an NVIDIA driver (skipped, visibly,
#   where a driver is installed).
#   tests/interop/test_messages.sh CUZK_BINARY CUDA(ON|OFF: how cuzk was built)
# One line per check; exit 1 on any failure.
set -uo pipefail
cuzk=$1
cuda=${2:-OFF}
work=$(mktemp -d)
trap 'chmod -R u+rwx "$work"; rm -rf "$work"' EXIT
failures=0
pass() { echo "PASS messages: $1"; }
fail() {
    echo "FAIL messages: $1"
    failures=$((failures + 1))
}
# run CMD...: runs CMD; $rc its exit status, $out its stdout, $err its stderr.
run() {
    "$@" >"$work/out" 2>"$work/err"
    rc=$?
    out=$(cat "$work/out")
    err=$(cat "$work/err")
}
# expect NAME RC STDERR CMD...: CMD exits RC with exactly the line STDERR.
expect() {
    local name=$1 want_rc=$2 want_err=$3
    shift 3
    run "$@"
    if [ "$rc" -eq "$want_rc" ] && [ "$err" = "$want_err" ]; then
        pass "$name"
    else
        fail "$name"
        echo "  exit $rc, wanted $want_rc"
        echo "  stderr: $err"
        echo "  wanted: $want_err"
    fi
}

d=$work
for curve in bn128 bls12381; do
    "$cuzk" gen --curve $curve --constraints 64 --public 2 --seed 3 "$d/$curve.r1cs" \
        "$d/$curve.wtns" >/dev/null 2>&1 &&
        "$cuzk" setup --seed 4 "$d/$curve.r1cs" "$d/$curve.zkey" --vk "$d/$curve.vk.json" \
            >/dev/null 2>&1 &&
        "$cuzk" prove --backend cpu "$d/$curve.zkey" "$d/$curve.wtns" "$d/$curve.proof.json" \
            "$d/$curve.public.json" >/dev/null 2>&1 ||
        {
            echo "FAIL messages: making the $curve fixtures"
            exit 1
        }
done
"$cuzk" setup --seed 4 "$d/bls12381.r1cs" "$d/c.params" --vk "$d/c.vk" >/dev/null 2>&1 &&
    "$cuzk" assign "$d/bls12381.r1cs" "$d/bls12381.wtns" "$d/a.asgn" \
        --inputs-out "$d/in.json" >/dev/null 2>&1 &&
    "$cuzk" prove --backend cpu --params "$d/c.params" --assignment "$d/a.asgn" \
        --out "$d/p.bin" >/dev/null 2>&1 ||
    {
        echo "FAIL messages: making the bellperson fixtures"
        exit 1
    }
k=$d/bn128.zkey w=$d/bn128.wtns vk=$d/bn128.vk.json pub=$d/bn128.public.json
proof=$d/bn128.proof.json
mkdir "$d/dir.wtns"

# ---- files that cannot be read ------------------------------------------------
expect "prove: a missing witness" 2 "cuzk prove: $d/none.wtns: no such file" \
    "$cuzk" prove "$k" "$d/none.wtns" "$d/o.json" "$d/op.json"
expect "prove: a missing key" 2 "cuzk prove: $d/none.zkey: no such file" \
    "$cuzk" prove "$d/none.zkey" "$w" "$d/o.json" "$d/op.json"
expect "prove: a directory as the witness" 2 "cuzk prove: $d/dir.wtns: is a directory" \
    "$cuzk" prove "$k" "$d/dir.wtns" "$d/o.json" "$d/op.json"
expect "verify: a missing proof" 2 "cuzk verify: $d/none.json: no such file" \
    "$cuzk" verify "$vk" "$pub" "$d/none.json"
expect "verify --vk: missing inputs" 2 "cuzk verify: $d/none.json: no such file" \
    "$cuzk" verify --vk "$d/c.vk" --inputs "$d/none.json" --proof "$d/p.bin"
expect "inspect: a directory" 2 "cuzk inspect: $d/dir.wtns: is a directory" \
    "$cuzk" inspect "$d/dir.wtns"
expect "setup: a missing circuit" 2 "cuzk setup: $d/none.r1cs: no such file" \
    "$cuzk" setup "$d/none.r1cs" "$d/o.zkey"
expect "convert: a missing key" 2 "cuzk convert: $d/none.zkey: no such file" \
    "$cuzk" convert "$d/none.zkey" "$d/o.cuzkkey"
if [ "$(id -u)" -eq 0 ]; then
    echo "SKIP messages: an unreadable file (running as root, which permissions do not stop)"
else
    cp "$w" "$d/locked.wtns"
    chmod 000 "$d/locked.wtns"
    expect "prove: an unreadable witness" 2 "cuzk prove: $d/locked.wtns: permission denied" \
        "$cuzk" prove "$k" "$d/locked.wtns" "$d/o.json" "$d/op.json"
fi

# ---- files of the wrong curve or in the wrong place --------------------------------
expect "prove: a key and a witness of different curves" 2 \
    "cuzk prove: $k is over BN254 but $d/bls12381.wtns over BLS12-381" \
    "$cuzk" prove "$k" "$d/bls12381.wtns" "$d/o.json" "$d/op.json"
expect "verify: a key and a proof of different curves" 2 \
    "cuzk verify: $vk is over BN254 but $d/bls12381.proof.json over BLS12-381" \
    "$cuzk" verify "$vk" "$pub" "$d/bls12381.proof.json"
expect "prove: key and witness swapped" 2 \
    "cuzk prove: $w and $k are swapped: $w is a snarkjs .wtns (witness), $k a snarkjs .zkey (proving key)" \
    "$cuzk" prove "$w" "$k" "$d/o.json" "$d/op.json"
expect "prove: a .wtns where the .zkey belongs" 2 \
    "cuzk prove: $w is a snarkjs .wtns (witness), not a proving key (.zkey or its key cache)" \
    "$cuzk" prove "$w" "$w" "$d/o.json" "$d/op.json"
expect "prove: a circuit where the witness belongs" 2 \
    "cuzk prove: $d/bn128.r1cs is a circom .r1cs (circuit), not a witness (.wtns)" \
    "$cuzk" prove "$k" "$d/bn128.r1cs" "$d/o.json" "$d/op.json"
[ ! -e "$d/o.json" ] && [ ! -e "$d/op.json" ] && pass "prove: nothing written on refusal" ||
    fail "prove: nothing written on refusal"
expect "verify: public and proof swapped" 2 \
    "cuzk verify: $proof and $pub are swapped: $proof is a snarkjs proof.json, $pub a snarkjs public.json (public signals)" \
    "$cuzk" verify "$vk" "$proof" "$pub"
expect "verify: a proof where the verification key belongs" 2 \
    "cuzk verify: $proof and $vk are swapped: $proof is a snarkjs proof.json, $vk a snarkjs verification_key.json" \
    "$cuzk" verify "$proof" "$pub" "$vk"
expect "verify: a .zkey where the verification key belongs" 2 \
    "cuzk verify: $k is a snarkjs .zkey (proving key), not a verification key (verification_key.json)" \
    "$cuzk" verify "$k" "$pub" "$proof"
expect "prove --params: a .zkey where the .params belongs" 2 \
    "cuzk prove: $d/bls12381.zkey is a snarkjs .zkey (proving key), not bellperson parameters (.params or their key cache)" \
    "$cuzk" prove --params "$d/bls12381.zkey" --assignment "$d/a.asgn" --out "$d/o.bin"
expect "prove --params: a .wtns where the .asgn belongs" 2 \
    "cuzk prove: $d/bls12381.wtns is a snarkjs .wtns (witness), not an assignment (.asgn)" \
    "$cuzk" prove --params "$d/c.params" --assignment "$d/bls12381.wtns" --out "$d/o.bin"
expect "verify --vk: proof and verifying key swapped" 2 \
    "cuzk verify: $d/p.bin and $d/c.vk are swapped: $d/p.bin is bellperson proofs (192 bytes each), $d/c.vk a bellperson .vk (verifying key)" \
    "$cuzk" verify --vk "$d/p.bin" --inputs "$d/in.json" --proof "$d/c.vk"
expect "verify --vk: a snarkjs proof where the proof belongs" 2 \
    "cuzk verify: $proof is a snarkjs proof.json, not bellperson proofs" \
    "$cuzk" verify --vk "$d/c.vk" --inputs "$d/in.json" --proof "$proof"
expect "assign: circuit and witness swapped" 2 \
    "cuzk assign: $w and $d/bn128.r1cs are swapped: $w is a snarkjs .wtns (witness), $d/bn128.r1cs a circom .r1cs (circuit)" \
    "$cuzk" assign "$w" "$d/bn128.r1cs" "$d/o.asgn"
expect "setup: a .zkey where the circuit belongs" 2 \
    "cuzk setup: $k is a snarkjs .zkey (proving key), not a circuit (.r1cs)" \
    "$cuzk" setup "$k" "$d/o.zkey"
expect "convert: a witness where the key belongs" 1 \
    "cuzk convert: $w is a snarkjs .wtns (witness), not a proving key (.zkey or .params)" \
    "$cuzk" convert "$w" "$d/o.cuzkkey"
printf 'junk%.0s' 1 2 3 4 5 6 7 8 >"$d/junk.wtns"
expect "prove: a file of no known kind keeps the reader's reason" 2 \
    "cuzk prove: $d/junk.wtns: not a .wtns file: magic \"junk\", expected \"wtns\"" \
    "$cuzk" prove "$k" "$d/junk.wtns" "$d/o.json" "$d/op.json"

# ---- argument counts -------------------------------------------------------------------
expect "cuzk without a command" 2 "cuzk: missing <command> (try 'cuzk --help')" "$cuzk"
expect "prove: one file short" 2 "cuzk prove: missing <public.json> (try 'cuzk prove --help')" \
    "$cuzk" prove "$k" "$w" "$d/o.json"
expect "prove: no files" 2 \
    "cuzk prove: missing <circuit.zkey> <witness.wtns> <proof.json> <public.json> (try 'cuzk prove --help')" \
    "$cuzk" prove
expect "prove: one file too many" 2 \
    "cuzk prove: too many arguments: 'x' after <public.json> (try 'cuzk prove --help')" \
    "$cuzk" prove "$k" "$w" "$d/o.json" "$d/op.json" x
expect "prove --params: no --out" 2 "cuzk prove: missing --out (try 'cuzk prove --params --help')" \
    "$cuzk" prove --params "$d/c.params" --assignment "$d/a.asgn"
expect "verify: two files" 2 "cuzk verify: missing <proof.json> (try 'cuzk verify --help')" \
    "$cuzk" verify "$vk" "$pub"
expect "verify --vk: no --inputs, no --proof" 2 \
    "cuzk verify: missing --inputs --proof (try 'cuzk verify --vk --help')" \
    "$cuzk" verify --vk "$d/c.vk"
expect "gen: no --curve" 2 "cuzk gen: missing --curve (try 'cuzk gen --help')" \
    "$cuzk" gen --constraints 10 "$d/g.r1cs" "$d/g.wtns"
expect "gen: no outputs" 2 "cuzk gen: missing OUT.r1cs OUT.wtns (try 'cuzk gen --help')" \
    "$cuzk" gen --curve bn128 --constraints 10
expect "setup: no output" 2 "cuzk setup: missing <out.zkey | out.params> (try 'cuzk setup --help')" \
    "$cuzk" setup "$d/bn128.r1cs"
expect "assign: no output" 2 "cuzk assign: missing <out.asgn> (try 'cuzk assign --help')" \
    "$cuzk" assign "$d/bn128.r1cs" "$w"
expect "inspect: no file" 2 "cuzk inspect: missing FILE (try 'cuzk inspect --help')" \
    "$cuzk" inspect
expect "convert: no output" 2 "cuzk convert: missing OUT (try 'cuzk convert --help')" \
    "$cuzk" convert "$k"
expect "bench: no benchmark" 2 "cuzk bench: missing <benchmark> (try 'cuzk bench --help')" \
    "$cuzk" bench
expect "bench arith: an argument" 2 \
    "cuzk bench arith: takes no arguments, not 'x' (try 'cuzk bench arith --help')" \
    "$cuzk" bench arith x
expect "selftest: an unknown option" 2 \
    "cuzk selftest: unknown option '--frob' (try 'cuzk selftest --help')" "$cuzk" selftest --frob
expect "bench porep32: an unknown option" 2 \
    "cuzk bench porep32: unknown option '--frob' (try 'cuzk bench porep32 --help')" \
    "$cuzk" bench porep32 --frob
expect "bench porep32: a stray word" 2 \
    "cuzk bench porep32: unexpected 'extra' (try 'cuzk bench porep32 --help')" \
    "$cuzk" bench porep32 extra
expect "bench porep32: a value missing" 2 \
    "cuzk bench porep32: --proofs needs a value (try 'cuzk bench porep32 --help')" \
    "$cuzk" bench porep32 --proofs
expect "bench porep32: --trace in no directory, before any work" 2 \
    "cuzk bench: --trace nodir/t.json: the directory nodir does not exist" \
    "$cuzk" bench porep32 --constraints 2^16 --trace nodir/t.json
expect "bench supraseal: an unknown option" 2 \
    "cuzk bench supraseal: unknown option '--frob' (try 'cuzk bench supraseal --help')" \
    "$cuzk" bench supraseal --frob
expect "prove: --backend without a value" 2 \
    "cuzk prove: --backend needs a value (try 'cuzk prove --help')" "$cuzk" prove --backend
expect "submit: no --key" 2 "cuzk submit: missing --key NAME (try 'cuzk submit --help')" \
    "$cuzk" submit
expect "submit: no witness" 2 \
    "cuzk submit: missing a witness (--witness, --wtns-inline or --assignment) (try 'cuzk submit --help')" \
    "$cuzk" submit --key k
expect "submit: --witness without a value" 2 \
    "cuzk submit: --witness needs a value (try 'cuzk submit --help')" "$cuzk" submit --witness
expect "bench snarkjs: --zkey without --wtns" 2 "cuzk bench snarkjs: --zkey and --wtns go together" \
    "$cuzk" bench snarkjs --zkey "$k"
expect "bench snarkjs: a missing --zkey" 2 "cuzk bench snarkjs: $d/none.zkey: no such file" \
    "$cuzk" bench snarkjs --zkey "$d/none.zkey" --wtns "$w" --no-snarkjs --no-kernels
run "$cuzk" bench snarkjs --zkey "$k" --wtns "$w" --no-snarkjs --no-kernels --runs 1
[ "$rc" -eq 0 ] && [[ "$out" == *"$k with $w"*"BN254"*"given"*"OK, -"* ]] &&
    pass "bench snarkjs --zkey --wtns proves the given key" ||
    fail "bench snarkjs --zkey --wtns proves the given key (exit $rc: ${out:0:300} $err)"
expect "wait: no ID" 2 "cuzk wait: missing ID (try 'cuzk wait --help')" "$cuzk" wait
expect "cancel: no ID" 2 "cuzk cancel: missing ID (try 'cuzk cancel --help')" "$cuzk" cancel
expect "cancel: two IDs" 2 "cuzk cancel: unexpected 'b' (try 'cuzk cancel --help')" \
    "$cuzk" cancel a b
expect "status: two IDs" 2 "cuzk status: unexpected 'b' (try 'cuzk status --help')" \
    "$cuzk" status a b

# ---- --help and -h ---------------------------------------------------------------------
for cmd in "" prove "prove --params" verify "verify --vk" gen setup assign inspect convert demo \
    selftest bench "bench arith" "bench snarkjs" "bench porep32" "bench snap32" \
    "bench winning32" "bench mixed" "bench supraseal" version; do
    for h in --help -h; do
        # shellcheck disable=SC2086 # the words of $cmd are the command's
        run "$cuzk" $cmd $h
        if [ "$rc" -eq 0 ] && [[ "$out" == usage:* ]] && [ -z "$err" ]; then
            pass "cuzk $cmd $h: usage on stdout, exit 0"
        else
            fail "cuzk $cmd $h: usage on stdout, exit 0 (exit $rc, stdout: ${out:0:60}, stderr: $err)"
        fi
    done
done
run "$cuzk" bench --help
[[ "$out" == *arith*snarkjs*porep32*snap32*winning32*mixed* ]] &&
    pass "bench --help lists the benchmarks" || fail "bench --help lists the benchmarks"
run "$cuzk" verify --help
[[ "$out" == *"snarkjs"*"exits 1 for every failure"* ]] &&
    pass "verify --help says how its exit status differs from snarkjs'" ||
    fail "verify --help says how its exit status differs from snarkjs'"
for v in --version version; do
    run "$cuzk" $v
    [ "$rc" -eq 0 ] && [[ "$out" == "cuzk "[0-9]*.[0-9]*.[0-9]* ]] && pass "cuzk $v" ||
        fail "cuzk $v (exit $rc: $out)"
done

# ---- verify --json ---------------------------------------------------------------------
# json_is NAME RC STATUS VALID: the last run exited RC and printed one JSON
# object with these status and valid, an error when it is "error" and none
# when it is "ok" (a proof that does not verify has no error to tell).
json_is() {
    if [ "$rc" -eq "$2" ] && printf '%s' "$out" | python3 -c '
import json, sys
o = json.load(sys.stdin)
ok = o["status"] == sys.argv[1] and o["valid"] == (sys.argv[2] == "true")
want_error = {"ok": False, "error": True}.get(sys.argv[1])
ok = ok and (want_error is None or ("error" in o) == want_error)
ok = ok and isinstance(o["seconds"], float)
sys.exit(0 if ok else 1)' "$3" "$4"; then
        pass "$1"
    else
        fail "$1 (exit $rc: $out)"
    fi
}
run "$cuzk" verify --json "$vk" "$pub" "$proof"
json_is "verify --json: OK" 0 ok true
printf '%s' "$out" | python3 -c '
import json, sys
o = json.load(sys.stdin)
sys.exit(0 if o["curve"] == "bn128" and o["n_public"] == 2 else 1)' &&
    pass "verify --json: curve and n_public" || fail "verify --json: curve and n_public ($out)"
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
p[0] = str((int(p[0]) + 1))
json.dump(p, open(sys.argv[2], "w"))' "$pub" "$d/bad_public.json"
run "$cuzk" verify --json "$vk" "$d/bad_public.json" "$proof"
json_is "verify --json: INVALID, exit 1" 1 invalid false
run "$cuzk" verify --json "$vk" "$pub" "$d/none.json"
json_is "verify --json: a missing proof, exit 2" 2 error false
printf '%s' "$out" | python3 -c '
import json, sys
sys.exit(0 if json.load(sys.stdin)["error"] == sys.argv[1] + ": no such file" else 1)' \
    "$d/none.json" && pass "verify --json: the error names the file" ||
    fail "verify --json: the error names the file ($out)"
run "$cuzk" verify --json --vk "$d/c.vk" --inputs "$d/in.json" --proof "$d/p.bin"
json_is "verify --vk --json: OK" 0 ok true
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
p[0] = str((int(p[0]) + 1))
json.dump(p, open(sys.argv[2], "w"))' "$d/in.json" "$d/bad_in.json"
run "$cuzk" verify --json --vk "$d/c.vk" --inputs "$d/bad_in.json" --proof "$d/p.bin"
json_is "verify --vk --json: INVALID, exit 1" 1 invalid false
run "$cuzk" verify --json --vk "$d/c.vk" --inputs "$d/in.json" --proof "$d/none.bin"
json_is "verify --vk --json: a missing proof, exit 2" 2 error false

# ---- no NVIDIA driver ------------------------------------------------------------------
if [ "$cuda" != ON ]; then
    expect "prove --backend cuda in a build without CUDA" 2 \
        "cuzk prove: --backend cuda: this cuzk was built without CUDA (no nvcc at build time)" \
        "$cuzk" prove --backend cuda "$k" "$w" "$d/o.json" "$d/op.json"
    expect "prove --backend auto in a build without CUDA: nothing said" 0 "" \
        "$cuzk" prove "$k" "$w" "$d/o.json" "$d/op.json"
elif [ -e /dev/nvidiactl ] || ldconfig -p 2>/dev/null | grep -q 'libcuda\.so'; then
    echo "SKIP messages: --backend cuda without an NVIDIA driver (this machine has one)"
else
    expect "prove --backend cuda without a driver" 2 \
        "cuzk prove: --backend cuda: no GPU is usable: no NVIDIA driver was found" \
        "$cuzk" prove --backend cuda "$k" "$w" "$d/o.json" "$d/op.json"
    # a circuit this small is proven on the CPU without a look for a GPU
    expect "prove --backend auto, 64 constraints: the CPU, nothing said" 0 "" \
        "$cuzk" prove "$k" "$w" "$d/o.json" "$d/op.json"
    # cuzk demo shows the GPU path when there is one, whatever the size
    expect "demo --backend auto without a driver: said once, proved on the CPU" 0 \
        "cuzk demo: INSECURE development keys: the toxic waste is not destroyed in any verifiable way; for tests and benchmarks only
cuzk: no GPU is usable: no NVIDIA driver was found; proving on the CPU" \
        "$cuzk" demo --constraints 600
    expect "prove --backend cpu: nothing said" 0 "" \
        "$cuzk" prove --backend cpu "$k" "$w" "$d/o.json" "$d/op.json"
fi

[ $failures -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
