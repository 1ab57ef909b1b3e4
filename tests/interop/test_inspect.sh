#!/usr/bin/env bash
# cuzk inspect on every kind of file it knows, made by the command line
# itself: cuzk gen (.r1cs, .wtns), cuzk setup (.zkey, verification_key.json
# on both curves; .params, .vk on BLS12-381), cuzk prove (proof.json,
# public.json; bellperson proofs and the inputs of several), cuzk assign
# (.asgn), the committed .ptau
# fixtures, and a .zkey relabelled PLONK. For each:
#   - the kind is named and the file is valid (exit 0, last line "valid");
#   - a copy one byte short is INVALID (exit 1) with the reader's reason;
#   - a copy with a byte changed where the reader must notice is INVALID
#     (exit 1) with the reason (file, section, item).
# Also: an unknown and an empty file are INVALID (exit 1); a missing file,
# no file and an unknown option exit 2.
#   tests/interop/test_inspect.sh CUZK_BINARY
# One line per check; exit 1 on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cuzk=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME STATUS(0 = pass) [DETAIL]
    if [ "$2" -eq 0 ]; then
        echo "PASS inspect: $1"
    else
        echo "FAIL inspect: $1${3:+ ($3)}"
        failures=$((failures + 1))
    fi
}

# run_inspect FILE [OPTIONS...]: the output in $out, the exit status in $rc.
run_inspect() {
    local f=$1
    shift
    out=$("$cuzk" inspect "$@" "$f" 2>&1)
    rc=$?
}

# valid NAME FILE KIND [OPTIONS...]: exit 0, "valid" last, KIND in the kind line.
valid() {
    local name=$1 f=$2 kind=$3
    shift 3
    run_inspect "$f" "$@"
    [ $rc -eq 0 ] && [ "$(tail -n 1 <<<"$out")" = valid ] && grep -q "^kind: .*$kind" <<<"$out"
    check "$name: valid, kind '$kind'" $? "exit $rc: $(tr '\n' '|' <<<"$out")"
}

# invalid NAME FILE REASON: exit 1 and a last line "INVALID: ..." holding REASON.
invalid() {
    local name=$1 f=$2 reason=$3
    run_inspect "$f"
    local last
    last=$(tail -n 1 <<<"$out")
    [ $rc -eq 1 ] && [[ "$last" == "INVALID: "* ]] && [[ "$last" == *"$reason"* ]]
    check "$name: INVALID, '$reason'" $? "exit $rc: $last"
}

# short FILE: a copy one byte short, FILE.short.
short() {
    local s
    s=$(stat -c %s "$1")
    head -c $((s - 1)) "$1" >"$1.short"
    echo "$1.short"
}

# flipped FILE OFFSET MASK: a copy, FILE.flip, with the byte at OFFSET xor MASK.
flipped() {
    local v
    cp "$1" "$1.flip"
    v=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf '%b' "\\x$(printf %02x $((v ^ $3)))" | dd of="$1.flip" bs=1 seek="$2" conv=notrunc status=none
    echo "$1.flip"
}

# offset FILE NAME: the offset column of section NAME (an id or a name) in
# the file's inspect output.
offset() {
    "$cuzk" inspect "$1" | awk -v n="$2" '$1 == n && $2 ~ /^[0-9]+$/ { print $2; exit }'
}

for curve in bn128 bls12381; do
    d="$work/$curve"
    mkdir -p "$d"
    "$cuzk" gen --curve "$curve" --constraints 200 --public 2 --seed 7 "$d/c.r1cs" "$d/w.wtns" \
        >/dev/null 2>&1 &&
        "$cuzk" setup --seed 8 "$d/c.r1cs" "$d/k.zkey" --vk "$d/vk.json" >/dev/null 2>&1 &&
        "$cuzk" prove "$d/k.zkey" "$d/w.wtns" "$d/proof.json" "$d/public.json" >/dev/null 2>&1
    check "$curve: gen, setup, prove" $?

    valid "$curve .r1cs" "$d/c.r1cs" "circom .r1cs"
    grep -q "^constraints: 200$" <<<"$out"
    check "$curve .r1cs: 200 constraints" $?
    invalid "$curve .r1cs one byte short" "$(short "$d/c.r1cs")" "truncated"
    invalid "$curve .r1cs, prime changed" "$(flipped "$d/c.r1cs" $(($(offset "$d/c.r1cs" 1) + 4)) 1)" \
        "section 1 (header): prime"

    valid "$curve .wtns" "$d/w.wtns" "snarkjs .wtns"
    invalid "$curve .wtns one byte short" "$(short "$d/w.wtns")" "truncated"
    invalid "$curve .wtns, w[0] changed" "$(flipped "$d/w.wtns" "$(offset "$d/w.wtns" 2)" 3)" \
        "section 2 (witness): w[0]"

    valid "$curve .zkey" "$d/k.zkey" "Groth16 proving key"
    valid "$curve .zkey --trusted --threads 2" "$d/k.zkey" "Groth16" --trusted --threads 2
    grep -q "^subgroup check: skipped" <<<"$out"
    check "$curve .zkey --trusted says the subgroup check is skipped" $?
    invalid "$curve .zkey one byte short" "$(short "$d/k.zkey")" "truncated"
    invalid "$curve .zkey, an H point changed" \
        "$(flipped "$d/k.zkey" $(($(offset "$d/k.zkey" 9) + 1)) 1)" "section 9 (H): point 0 "
    cp "$d/k.zkey" "$d/plonk.zkey"
    printf '\x02' | dd of="$d/plonk.zkey" bs=1 seek="$(offset "$d/k.zkey" 1)" conv=notrunc \
        status=none
    valid "$curve .zkey relabelled PLONK" "$d/plonk.zkey" "PLONK proving key"

    valid "$curve verification_key.json" "$d/vk.json" "verification_key.json"
    invalid "$curve verification_key.json one byte short" "$(short "$d/vk.json")" "line"
    sed '0,/"[0-9]/s/"\([0-9]\)/"z\1/' "$d/vk.json" >"$d/vk_bad.json"
    invalid "$curve verification_key.json, a digit replaced" "$d/vk_bad.json" \
        "vk_alpha_1[0]: not a decimal string"
    valid "$curve proof.json" "$d/proof.json" "proof.json"
    invalid "$curve proof.json one byte short" "$(short "$d/proof.json")" "line"
    sed '0,/"[0-9]/s/"\([0-9]\)/"z\1/' "$d/proof.json" >"$d/proof_bad.json"
    invalid "$curve proof.json, a digit replaced" "$d/proof_bad.json" "pi_a[0]: not a decimal"
    valid "$curve public.json" "$d/public.json" "public.json"
    invalid "$curve public.json one byte short" "$(short "$d/public.json")" "line"
    nines=$(printf '9%.0s' $(seq 80))
    sed "0,/\"[0-9]*\"/s/\"[0-9]*\"/\"$nines\"/" "$d/public.json" >"$d/public_bad.json"
    invalid "$curve public.json, a value above r" "$d/public_bad.json" \
        "public_bad.json: [0]: not below r"

    ptau="$d/pot12.ptau" # a copy: the helpers write next to the file
    cp "$here/fixtures/pot12_$curve.ptau" "$ptau"
    valid "$curve .ptau" "$ptau" "snarkjs .ptau"
    invalid "$curve .ptau one byte short" "$(short "$ptau")" "truncated"
    invalid "$curve .ptau, q changed" "$(flipped "$ptau" $(($(offset "$ptau" 1) + 4)) 1)" \
        "section 1 (header): q"
done

# bellperson files (BLS12-381).
d="$work/bls12381"
"$cuzk" setup --seed 9 "$d/c.r1cs" "$d/c.params" --vk "$d/c.vk" >/dev/null 2>&1 &&
    "$cuzk" assign "$d/c.r1cs" "$d/w.wtns" "$d/a.asgn" >/dev/null 2>&1 &&
    "$cuzk" prove --params "$d/c.params" --assignment "$d/a.asgn" --assignment "$d/a.asgn" \
        --out "$d/p.bin" --inputs-out "$d/in.json" >/dev/null 2>&1
check "bellperson: setup .params, assign, prove" $?
valid "inputs of 2 proofs" "$d/in.json" "public inputs of several proofs"
grep -q "^proofs: 2, inputs each: " <<<"$out"
check "inputs of 2 proofs: counted" $? "$out"
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); a[1]=a[1][:-1]; print(json.dumps(a))' \
    "$d/in.json" >"$d/in_bad.json"
invalid "inputs of 2 proofs, the second one short" "$d/in_bad.json" "proof 1 has"
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); a[1][0]="x"; print(json.dumps(a))' \
    "$d/in.json" >"$d/in_bad2.json"
invalid "inputs of 2 proofs, a value not decimal" "$d/in_bad2.json" "proof 1"

valid ".params" "$d/c.params" "bellperson .params"
valid ".params --trusted" "$d/c.params" "bellperson .params" --trusted
invalid ".params one byte short" "$(short "$d/c.params")" "section b_g2: truncated"
invalid ".params, an h point changed" \
    "$(flipped "$d/c.params" $(($(offset "$d/c.params" h) + 4 + 47)) 1)" \
    "section h: point 0 is not on the curve"
valid ".vk" "$d/c.vk" "bellperson .vk"
invalid ".vk one byte short" "$(short "$d/c.vk")" "section ic: truncated"
invalid ".vk, an IC point changed" "$(flipped "$d/c.vk" $((868 + 95)) 1)" \
    "section ic: point 0 is not on the curve"
valid ".asgn" "$d/a.asgn" "cuzk .asgn"
invalid ".asgn one byte short" "$(short "$d/a.asgn")" "section b_aux_density: truncated"
invalid ".asgn, an aux value above r" "$(flipped "$d/a.asgn" $(($(offset "$d/a.asgn" aux) + 31)) 255)" \
    "section aux: scalar 0 is not below r"
valid "proofs" "$d/p.bin" "bellperson proofs"
grep -q "^proofs: 2 " <<<"$out"
check "proofs: 2 of them" $?
invalid "proofs one byte short" "$(short "$d/p.bin")" "383 bytes is not a positive multiple of 192"
invalid "proofs, a flag cleared" "$(flipped "$d/p.bin" $((192 + 48)) 128)" \
    "proof 1: B is not marked compressed"

# Not files cuzk knows, and unusable arguments.
echo "hello" >"$work/hello.txt"
invalid "a text file" "$work/hello.txt" "not a file cuzk knows"
grep -q "^kind: unknown" <<<"$out"
check "a text file: kind unknown" $?
: >"$work/empty"
invalid "an empty file" "$work/empty" "empty file"
run_inspect "$work/missing"
[ $rc -eq 2 ] && [[ "$out" == *"$work/missing"* ]]
check "a missing file: exit 2 naming it" $? "exit $rc: $out"
out=$("$cuzk" inspect 2>&1)
[ $? -eq 2 ]
check "no file: exit 2" $?
run_inspect "$d/c.vk" --frobnicate
[ $rc -eq 2 ]
check "an unknown option: exit 2" $? "exit $rc"
run_inspect "$d/c.vk" --threads 0
[ $rc -eq 2 ]
check "--threads 0: exit 2" $? "exit $rc"

[ $failures -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
