#!/usr/bin/env bash
# Compiles the interop circuits with circom2 for BN254 and BLS12-381, runs the
# snarkjs Groth16 setup on the committed ptau files, computes the witnesses, and
# makes one snarkjs proof per circuit (checked with `snarkjs groth16 verify`).
#   tests/interop/make_fixtures.sh OUTDIR
# Output per circuit and curve, in OUTDIR/<circuit>-<curve>/: circuit.r1cs,
# circuit.zkey, verification_key.json, witness.wtns, snarkjs_proof.json,
# snarkjs_public.json. Re-running skips what is already there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
bin="$root/node_modules/.bin"
[ -x "$bin/snarkjs" ] && [ -x "$bin/circom2" ] || (cd "$root" && npm ci --no-audit --no-fund)
beacon=0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

for circuit in mul_chain poseidon_chain mimc_chain; do
    for curve in bn128 bls12381; do
        dir="$out/$circuit-$curve"
        [ -f "$dir/snarkjs_proof.json" ] && continue
        rm -rf "$dir" && mkdir -p "$dir"
        # circom2 resolves paths from the current directory: run it from / (INTEROP.md)
        (cd / && "$bin/circom2" "$here/circuits/$circuit.circom" --r1cs --wasm --O1 -p "$curve" \
            -o "$dir" -l "$root/node_modules/circomlib/circuits" >"$dir/circom.log")
        mv "$dir/$circuit.r1cs" "$dir/circuit.r1cs"
        # groth16 setup can print an error and still exit 0: require the file
        "$bin/snarkjs" groth16 setup "$dir/circuit.r1cs" "$here/fixtures/pot12_$curve.ptau" \
            "$dir/c0.zkey" >"$dir/setup.log"
        [ -s "$dir/c0.zkey" ] || { cat "$dir/setup.log"; exit 1; }
        "$bin/snarkjs" zkey beacon "$dir/c0.zkey" "$dir/circuit.zkey" "$beacon" 10 -n=x >/dev/null
        rm "$dir/c0.zkey"
        "$bin/snarkjs" zkey export verificationkey "$dir/circuit.zkey" \
            "$dir/verification_key.json" >/dev/null
        "$bin/snarkjs" wtns calculate "$dir/${circuit}_js/$circuit.wasm" \
            "$here/circuits/$circuit.input.json" "$dir/witness.wtns"
        "$bin/snarkjs" groth16 prove "$dir/circuit.zkey" "$dir/witness.wtns" \
            "$dir/snarkjs_proof.json.tmp" "$dir/snarkjs_public.json"
        "$bin/snarkjs" groth16 verify "$dir/verification_key.json" "$dir/snarkjs_public.json" \
            "$dir/snarkjs_proof.json.tmp" | grep -q "OK!"
        mv "$dir/snarkjs_proof.json.tmp" "$dir/snarkjs_proof.json"
        echo "fixture $circuit-$curve ready"
    done
done
