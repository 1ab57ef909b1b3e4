#!/usr/bin/env bash
# cuzk against snarkjs on a real circom circuit of 2^16 rows on BN254:
# tests/interop/circuits/poseidon_bits.circom (178 circomlib Poseidon hashes in
# a chain, every second one split into bits by Num2Bits: 65,326 constraints,
# 35 % of the witness values bits), compiled with circom2 --O2, its witness
# from snarkjs, an INSECURE development key from `cuzk setup` (snarkjs'
# own setup needs a 2^16 ptau, whose preparation takes over 30 minutes on
# two cores). Then `cuzk bench snarkjs` proves it with both provers.
#   scripts/bench-circom.sh [DIR [bench options...]]
# DIR (default build/bench-circom) keeps the compiled circuit for reuse;
# CUZK_NO_IFMA=1 or CUZK_NO_AVX2=1 in the environment choose the arithmetic.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/bench-circom}
shift || true
mkdir -p "$out" && out=$(cd "$out" && pwd)
bin=$root/node_modules/.bin
[ -x "$bin/snarkjs" ] && [ -x "$bin/circom2" ] || (cd "$root" && npm ci --no-audit --no-fund)
cuzk=${CUZK:-$root/build/cuzk}
circuit=$root/tests/interop/circuits/poseidon_bits
if [ ! -s "$out/witness.wtns" ]; then
    # circom2 resolves paths from the current directory: run it from /
    (cd / && "$bin/circom2" "$circuit.circom" --r1cs --wasm --O2 -o "$out" \
        -l "$root/node_modules/circomlib/circuits" >"$out/circom.log")
    "$bin/snarkjs" wtns calculate "$out/poseidon_bits_js/poseidon_bits.wasm" \
        "$circuit.input.json" "$out/witness.tmp"
    mv "$out/witness.tmp" "$out/witness.wtns"
fi
[ -s "$out/circuit.zkey" ] ||
    "$cuzk" setup --curve bn128 --seed 1 --quiet "$out/poseidon_bits.r1cs" "$out/circuit.zkey"
exec "$cuzk" bench snarkjs --zkey "$out/circuit.zkey" --wtns "$out/witness.wtns" "$@"
