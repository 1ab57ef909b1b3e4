#!/usr/bin/env bash
# Seed corpora for the fuzz targets, made by the command line from tiny
# circuits (a few constraints, so every input is a few KiB at most and the
# fuzzer's mutations reach every section) and hand-written JSON:
#   tests/fuzz/seeds.sh CUZK_BINARY DIR
# writes DIR/<target>/* for every target of tests/fuzz/CMakeLists.txt.
# Nothing here is committed: the seeds follow the formats as the code
# writes them today.
set -euo pipefail
cuzk=$1
out=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in zkey wtns r1cs vk_json proof_json public_json params bp_vk bp_proofs asgn key_cache \
    key_cache_sum base64 proof_request key_request; do
    mkdir -p "$out/$t"
done

# run CMD...: runs a cuzk command quietly, its output only when it fails.
run() {
    if ! "$@" >"$work/log" 2>&1; then
        cat "$work/log" >&2
        echo "seeds.sh: failed: $*" >&2
        exit 1
    fi
}

# snarkjs files of both curves: .r1cs, .wtns, .zkey, the three JSON files,
# the key cache of the .zkey.
for curve in bn128 bls12381; do
    d=$work/$curve
    mkdir -p "$d"
    run "$cuzk" gen --curve $curve --constraints 3 --public 1 --seed 1 "$d/c.r1cs" "$d/w.wtns"
    run "$cuzk" setup --seed 2 "$d/c.r1cs" "$d/k.zkey" --vk "$d/vk.json"
    run "$cuzk" prove "$d/k.zkey" "$d/w.wtns" "$d/proof.json" "$d/public.json"
    run "$cuzk" convert "$d/k.zkey" "$d/k.cuzkkey"
    cp "$d/c.r1cs" "$out/r1cs/$curve.r1cs"
    cp "$d/w.wtns" "$out/wtns/$curve.wtns"
    cp "$d/k.zkey" "$out/zkey/$curve.zkey"
    cp "$d/vk.json" "$out/vk_json/$curve.json"
    cp "$d/proof.json" "$out/proof_json/$curve.json"
    cp "$d/public.json" "$out/public_json/$curve.json"
    cp "$d/k.cuzkkey" "$out/key_cache/$curve.cuzkkey"
    cp "$d/k.cuzkkey" "$out/key_cache_sum/$curve.cuzkkey"
    base64 -w 0 "$d/w.wtns" >"$out/base64/$curve.wtns.b64"
    printf '{"key":"k","priority":"high","id":"job-1","witness":{"wtns_base64":"%s"}}' \
        "$(cat "$out/base64/$curve.wtns.b64")" >"$out/proof_request/$curve-inline.json"
done

# bellperson's forms (BLS12-381): .params, .vk, .asgn, proofs, the key
# cache of the .params, and the inputs JSON (read as public.json).
d=$work/bp
mkdir -p "$d"
run "$cuzk" gen --curve bls12381 --constraints 3 --public 1 --seed 3 "$d/c.r1cs" "$d/w.wtns"
run "$cuzk" setup --seed 4 "$d/c.r1cs" "$d/k.params" --vk "$d/k.vk"
run "$cuzk" assign "$d/c.r1cs" "$d/w.wtns" "$d/a.asgn" --inputs-out "$d/in.json"
run "$cuzk" prove --params "$d/k.params" --assignment "$d/a.asgn" --assignment "$d/a.asgn" \
    --out "$d/p.bin" --inputs-out "$d/ins.json"
run "$cuzk" convert "$d/k.params" "$d/k.cuzkkey"
cp "$d/k.params" "$out/params/k.params"
cp "$d/k.vk" "$out/bp_vk/k.vk"
cp "$d/a.asgn" "$out/asgn/a.asgn"
cp "$d/p.bin" "$out/bp_proofs/two.bin"
head -c 192 "$d/p.bin" >"$out/bp_proofs/one.bin"
cp "$d/in.json" "$out/public_json/bp-inputs.json"
cp "$d/k.cuzkkey" "$out/key_cache/params.cuzkkey"
cp "$d/k.cuzkkey" "$out/key_cache_sum/params.cuzkkey"

# Hand-written: base64 edge cases and request bodies of every shape.
printf '' >"$out/base64/empty"
printf 'Zg==' >"$out/base64/pad2"
printf 'Zm8=' >"$out/base64/pad1"
printf 'Zm9v' >"$out/base64/nopad"
printf '{"key":"k","witness":{"path":"/data/w.wtns"}}' >"$out/proof_request/path.json"
printf '{"key":"k","priority":"low","witness":[{"assignment_path":"a.asgn"},{"assignment_path":"b.asgn"}]}' \
    >"$out/proof_request/asgn.json"
printf '{"key":"k","witness":[{"path":"a"},{"wtns_base64":"Zm9v"}]}' >"$out/proof_request/mixed.json"
printf '{"key":"k","id":"-bad","witness":{}}' >"$out/proof_request/bad-id.json"
printf '[1,2,3]' >"$out/proof_request/array.json"
printf '{"name":"k","path":"/data/keys/k.zkey"}' >"$out/key_request/zkey.json"
printf '{"name":"bp.1","path":"/data/keys/k.params","format":"params"}' >"$out/key_request/params.json"
printf '{"name":"c","path":"/data/keys/k.cuzkkey"}' >"$out/key_request/cache.json"
printf '{"name":"c","path":"/data/keys/k.bin","format":"zkey"}' >"$out/key_request/format.json"
printf '{"name":"c","path":"/data/keys/k"}' >"$out/key_request/no-format.json"
printf '{"name":"-bad","path":1,"format":"wtns"}' >"$out/key_request/bad.json"
printf '{"name":"k","path":"/data/k.zkey","format":null}' >"$out/key_request/null-format.json"
printf '{"public":["1","0x10"],"n":1}' >"$out/public_json/odd.json"
