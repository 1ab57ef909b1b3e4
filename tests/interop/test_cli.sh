#!/usr/bin/env bash
# The command line end to end, on both curves at a small size:
#   cuzk gen (twice with one seed: identical files) → cuzk setup (says
#   INSECURE) → cuzk prove → cuzk verify OK;
#   a tampered public.json → INVALID, exit 1;
#   a truncated .wtns → cuzk prove exits 2 naming the file, writes nothing;
#   with node_modules/.bin/snarkjs: `snarkjs groth16 verify` accepts the
#   proof made with the cuzk key, and `snarkjs zkey export verificationkey`
#   gives the verification_key.json that cuzk setup wrote (skipped, with a
#   message, without snarkjs).
#   tests/interop/test_cli.sh CUZK_BINARY
# One line per check; exit 1 on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cuzk=$1
snarkjs="$root/node_modules/.bin/snarkjs"
have_snarkjs=0
if [ -x "$snarkjs" ] && command -v node >/dev/null; then
    have_snarkjs=1
else
    echo "SKIP: snarkjs checks ($snarkjs or node missing; run npm ci for them)"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check CURVE NAME STATUS(0 = pass) [DETAIL]
    if [ "$3" -eq 0 ]; then
        echo "PASS $1: $2"
    else
        echo "FAIL $1: $2${4:+ ($4)}"
        failures=$((failures + 1))
    fi
}

# tamper_public IN OUT: the first public signal replaced by another value.
tamper_public() {
    awk '!done && /"[0-9]+"/ { v = ($0 ~ /"1"/) ? "2" : "1"; sub(/"[0-9]+"/, "\"" v "\""); done = 1 }
         { print }' "$1" >"$2"
}

for curve in bn128 bls12381; do
    d="$work/$curve"
    mkdir -p "$d"
    "$cuzk" gen --curve "$curve" --constraints 300 --public 3 --seed 11 "$d/c.r1cs" "$d/w.wtns" \
        >"$d/gen.log" 2>&1
    check "$curve" "gen" $? "$(cat "$d/gen.log")"
    "$cuzk" gen --curve "$curve" --constraints 300 --public 3 --seed 11 "$d/c2.r1cs" "$d/w2.wtns" \
        >/dev/null 2>&1 && cmp -s "$d/c.r1cs" "$d/c2.r1cs" && cmp -s "$d/w.wtns" "$d/w2.wtns"
    check "$curve" "gen is deterministic for a seed" $?

    "$cuzk" setup --curve "$curve" --seed 5 "$d/c.r1cs" "$d/k.zkey" --vk "$d/vk.json" \
        >"$d/setup.log" 2>&1
    check "$curve" "setup" $? "$(cat "$d/setup.log")"
    grep -q INSECURE "$d/setup.log"
    check "$curve" "setup says INSECURE" $?

    "$cuzk" prove "$d/k.zkey" "$d/w.wtns" "$d/proof.json" "$d/public.json" >"$d/prove.log" 2>&1
    check "$curve" "prove" $? "$(cat "$d/prove.log")"
    out=$("$cuzk" verify "$d/vk.json" "$d/public.json" "$d/proof.json" 2>&1)
    rc=$?
    [ $rc -eq 0 ] && [ "$out" = OK ]
    check "$curve" "verify OK" $? "exit $rc: $out"

    tamper_public "$d/public.json" "$d/bad_public.json"
    ! cmp -s "$d/public.json" "$d/bad_public.json"
    check "$curve" "tampered public.json differs" $?
    out=$("$cuzk" verify "$d/vk.json" "$d/bad_public.json" "$d/proof.json" 2>&1)
    rc=$?
    [ $rc -eq 1 ] && [ "$out" = INVALID ]
    check "$curve" "tampered public.json: INVALID, exit 1" $? "exit $rc: $out"

    size=$(wc -c <"$d/w.wtns")
    head -c $((size / 2)) "$d/w.wtns" >"$d/short.wtns"
    out=$("$cuzk" prove "$d/k.zkey" "$d/short.wtns" "$d/p2.json" "$d/pub2.json" 2>&1)
    rc=$?
    [ $rc -eq 2 ] && [[ "$out" == *"$d/short.wtns"* ]] && [ ! -e "$d/p2.json" ] &&
        [ ! -e "$d/pub2.json" ]
    check "$curve" "truncated .wtns: exit 2 naming the file, nothing written" $? "exit $rc: $out"

    if [ $have_snarkjs -eq 1 ]; then
        "$snarkjs" groth16 verify "$d/vk.json" "$d/public.json" "$d/proof.json" >"$d/sv.log" 2>&1 &&
            grep -q 'OK' "$d/sv.log"
        check "$curve" "snarkjs groth16 verify accepts the proof" $? "$(tail -n 3 "$d/sv.log")"
        "$snarkjs" zkey export verificationkey "$d/k.zkey" "$d/vk_snarkjs.json" >"$d/ex.log" 2>&1 &&
            node -e '
                const fs = require("fs");
                const a = JSON.parse(fs.readFileSync(process.argv[1]));
                const b = JSON.parse(fs.readFileSync(process.argv[2]));
                process.exit(JSON.stringify(a) === JSON.stringify(b) ? 0 : 1);
            ' "$d/vk.json" "$d/vk_snarkjs.json"
        check "$curve" "snarkjs exports the same verification key from the zkey" $?
    fi
done

[ $failures -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
