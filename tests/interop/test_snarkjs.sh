#!/usr/bin/env bash
# cuzk's Groth16 against snarkjs, on every fixture of make_fixtures.sh (three
# circuits, BN254 and BLS12-381):
#   1. `cuzk prove`, then `snarkjs groth16 verify` accepts the proof;
#   2. `cuzk verify` accepts snarkjs' own proof;
#   3. one public signal changed: both verifiers reject;
#   4. a witness that does not satisfy the circuit (one private value
#      changed, still below r): `cuzk prove` fails and writes nothing, and
#      with --r1cs names the failing constraint.
#   tests/interop/test_snarkjs.sh CUZK_BINARY FIXTURES_DIR
# Builds the fixtures in FIXTURES_DIR when they are missing (minutes; set
# CUZK_INTEROP_FIXTURES to reuse a directory built before). One line per
# check; exit 1 on any failure, 77 (skipped) without node.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cuzk=$1
fixtures=${CUZK_INTEROP_FIXTURES:-$2}
snarkjs="$root/node_modules/.bin/snarkjs"

if ! command -v node >/dev/null; then
    echo "SKIP: node is not installed; the snarkjs interop test needs it"
    exit 77
fi
"$here/make_fixtures.sh" "$fixtures" >/dev/null || { echo "FAIL: make_fixtures.sh"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME FIXTURE STATUS(0 = pass) [DETAIL]
    if [ "$3" -eq 0 ]; then
        echo "PASS $2: $1"
    else
        echo "FAIL $2: $1${4:+ ($4)}"
        failures=$((failures + 1))
    fi
}

# bump_public IN OUT: the first public signal plus one (mod nothing: the
# fixtures' signals are far below r).
bump_public() {
    node -e '
        const fs = require("fs");
        const p = JSON.parse(fs.readFileSync(process.argv[1]));
        p[0] = (BigInt(p[0]) + 1n).toString();
        fs.writeFileSync(process.argv[2], JSON.stringify(p, null, 1));
    ' "$1" "$2"
}

# corrupt_witness IN OUT NPUBLIC: flips the lowest bit of the first private
# value (wire NPUBLIC + 1) of a .wtns, keeping it below r.
corrupt_witness() {
    node -e '
        const fs = require("fs");
        const b = fs.readFileSync(process.argv[1]);
        const npub = Number(process.argv[3]);
        let off = 12, data = -1, n8 = 0, prime = 0n;
        for (let i = 0; i < b.readUInt32LE(8); i++) {
            const id = b.readUInt32LE(off), size = Number(b.readBigUInt64LE(off + 4));
            if (id === 1) {
                n8 = b.readUInt32LE(off + 12);
                for (let j = n8 - 1; j >= 0; j--) prime = (prime << 8n) | BigInt(b[off + 16 + j]);
            }
            if (id === 2) data = off + 12;
            off += 12 + size;
        }
        const at = data + (npub + 1) * n8;
        let v = 0n;
        for (let j = n8 - 1; j >= 0; j--) v = (v << 8n) | BigInt(b[at + j]);
        v ^= 1n;
        if (v >= prime) v ^= 3n;
        for (let j = 0; j < n8; j++) b[at + j] = Number((v >> BigInt(8 * j)) & 0xffn);
        fs.writeFileSync(process.argv[2], b);
    ' "$1" "$2" "$3"
}

for dir in "$fixtures"/*/; do
    dir=${dir%/}
    name=$(basename "$dir")
    [ -f "$dir/circuit.zkey" ] || continue
    out="$work/$name"
    mkdir -p "$out"
    vk="$dir/verification_key.json"

    # 1. our proof, snarkjs' verifier
    "$cuzk" prove "$dir/circuit.zkey" "$dir/witness.wtns" "$out/proof.json" "$out/public.json" \
        >"$out/prove.log" 2>&1
    st=$?
    if [ $st -eq 0 ]; then
        "$snarkjs" groth16 verify "$vk" "$out/public.json" "$out/proof.json" >"$out/sv.log" 2>&1
        grep -q "OK!" "$out/sv.log"
        st=$?
    fi
    check "cuzk prove -> snarkjs groth16 verify OK" "$name" $st "$(tail -1 "$out/prove.log")"

    # 2. snarkjs' proof, our verifier
    res=$("$cuzk" verify "$vk" "$dir/snarkjs_public.json" "$dir/snarkjs_proof.json" 2>&1)
    st=$?
    [ $st -eq 0 ] && [ "$res" = OK ]
    check "snarkjs proof -> cuzk verify OK" "$name" $? "exit $st: $res"

    # 3. a changed public signal: both reject
    bump_public "$dir/snarkjs_public.json" "$out/bad_public.json"
    res=$("$cuzk" verify "$vk" "$out/bad_public.json" "$dir/snarkjs_proof.json" 2>&1)
    st=$?
    [ $st -eq 1 ] && [ "$res" = INVALID ]
    check "changed public signal -> cuzk verify INVALID" "$name" $? "exit $st: $res"
    "$snarkjs" groth16 verify "$vk" "$out/bad_public.json" "$dir/snarkjs_proof.json" \
        >"$out/sv_bad.log" 2>&1
    st=$?
    ! grep -q "OK!" "$out/sv_bad.log" && [ $st -ne 0 ]
    check "changed public signal -> snarkjs groth16 verify rejects" "$name" $? "exit $st"

    # 4. a witness that does not satisfy the circuit
    npub=$(node -e 'console.log(require(process.argv[1]).nPublic)' "$vk")
    corrupt_witness "$dir/witness.wtns" "$out/bad.wtns" "$npub"
    rm -f "$out/bad_proof.json" "$out/bad_pub.json"
    "$cuzk" prove "$dir/circuit.zkey" "$out/bad.wtns" "$out/bad_proof.json" "$out/bad_pub.json" \
        >"$out/bad_prove.log" 2>&1
    st=$?
    [ $st -ne 0 ] && [ ! -e "$out/bad_proof.json" ] && [ ! -e "$out/bad_pub.json" ] &&
        ! ls -A "$out" | grep -q '\.cuzk-'
    check "unsatisfied witness -> cuzk prove refuses, writes nothing" "$name" $? \
        "exit $st: $(tail -1 "$out/bad_prove.log")"
    "$cuzk" prove --r1cs "$dir/circuit.r1cs" "$dir/circuit.zkey" "$out/bad.wtns" \
        "$out/bad_proof.json" "$out/bad_pub.json" >"$out/bad_r1cs.log" 2>&1
    st=$?
    [ $st -ne 0 ] && grep -q "constraint [0-9]* fails" "$out/bad_r1cs.log" &&
        [ ! -e "$out/bad_proof.json" ]
    check "unsatisfied witness with --r1cs -> names the constraint" "$name" $? \
        "exit $st: $(tail -1 "$out/bad_r1cs.log")"
    grep -h "cuzk prove" "$out/bad_r1cs.log" | sed "s|^|    $name: |"
done

if [ $failures -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
