#!/usr/bin/env bash
# cuzk convert and cuzk inspect on key caches (docs/KEYCACHE.md), through
# the command line: development keys (cuzk setup) on both curves and a
# bellperson .params are converted, and for each cache:
#   - inspect names it (kind, curve) and finds it valid, with and without
#     --trusted;
#   - copies truncated at every section boundary are INVALID naming that
#     section; one byte short and one page too long are INVALID;
#   - a damaged header byte is INVALID (checksum); a query point changed is
#     INVALID without --trusted and passes with it (the cache trusts its
#     query points, convert checked them);
# cuzk prove takes the caches as keys (the proofs verify; the other kind is
# refused); and convert refuses: a cache as input, a key whose point is off
# the curve (nothing is left at OUT), a file that is no key, unusable
# arguments.
#   tests/interop/test_keycache.sh CUZK_BINARY
# One line per check; exit 1 on any failure.
set -uo pipefail
cuzk=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME STATUS(0 = pass) [DETAIL]
    if [ "$2" -eq 0 ]; then
        echo "PASS keycache: $1"
    else
        echo "FAIL keycache: $1${3:+ ($3)}"
        failures=$((failures + 1))
    fi
}

# inspect_is NAME FILE RC TEXT [OPTIONS...]: exit RC and the last line holds TEXT.
inspect_is() {
    local name=$1 f=$2 want=$3 text=$4
    shift 4
    local out rc
    out=$("$cuzk" inspect "$@" "$f" 2>&1)
    rc=$?
    [ $rc -eq "$want" ] && [[ "$(tail -n 1 <<<"$out")" == *"$text"* ]]
    check "$name" $? "exit $rc: $(tail -n 1 <<<"$out")"
}

# flip FILE OFFSET OUT: a copy of FILE with the byte at OFFSET xor 1.
flip() {
    cp "$1" "$3"
    local v
    v=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf '%b' "\\x$(printf %02x $((v ^ 1)))" | dd of="$3" bs=1 seek="$2" conv=notrunc status=none
}

# sections FILE: "name offset bytes" of each section in inspect's table.
sections() {
    "$cuzk" inspect --trusted "$1" |
        awk '/^sections:/ { on = 1; next } on && $1 != "header" && $2 ~ /^[0-9]+$/ { print $1, $2, $5 }'
}

for curve in bn128 bls12381; do
    d="$work/$curve"
    mkdir -p "$d"
    "$cuzk" gen --curve "$curve" --constraints 200 --public 2 --seed 7 "$d/c.r1cs" "$d/w.wtns" \
        >/dev/null 2>&1 && "$cuzk" setup --seed 8 "$d/c.r1cs" "$d/k.zkey" >/dev/null 2>&1
    check "$curve: gen, setup" $?
    out=$("$cuzk" convert "$d/k.zkey" "$d/k.cuzkkey" 2>&1)
    [ $? -eq 0 ] && grep -q "^kind: zkey" <<<"$out" && grep -q "^size: $(stat -c %s "$d/k.cuzkkey") " <<<"$out"
    check "$curve: convert the .zkey" $? "$out"
done
d="$work/bls12381"
"$cuzk" setup --seed 9 "$d/c.r1cs" "$d/c.params" >/dev/null 2>&1 &&
    "$cuzk" convert --threads 2 "$d/c.params" "$d/c.cuzkkey" >/dev/null 2>&1
check "bellperson: setup .params, convert --threads 2" $?

for f in "$work/bn128/k.cuzkkey" "$work/bls12381/k.cuzkkey" "$work/bls12381/c.cuzkkey"; do
    n=${f#"$work"/}
    case $f in */c.cuzkkey) kind="bellperson parameters" curve=BLS12-381 last=b_g2 ;;
    */bn128/*) kind="snarkjs Groth16 key" curve=BN254 last=h ;;
    *) kind="snarkjs Groth16 key" curve=BLS12-381 last=h ;;
    esac
    out=$("$cuzk" inspect "$f" 2>&1)
    [ $? -eq 0 ] && [ "$(tail -n 1 <<<"$out")" = valid ] && grep -q "^kind: cuzk key cache ($kind" <<<"$out" &&
        grep -q "^curve: $curve$" <<<"$out"
    check "$n: inspect: valid, $kind, $curve" $? "$(tr '\n' '|' <<<"$out")"
    inspect_is "$n: inspect --trusted" "$f" 0 valid --trusted
    size=$(stat -c %s "$f")
    while read -r name offset bytes; do
        [ "$bytes" -gt 0 ] || continue
        head -c "$offset" "$f" >"$f.cut"
        inspect_is "$n: cut at the start of section $name" "$f.cut" 1 "section $name: truncated"
    done < <(sections "$f")
    head -c $((size - 1)) "$f" >"$f.cut"
    inspect_is "$n: one byte short" "$f.cut" 1 "section $last: truncated"
    { cat "$f"; head -c 4096 /dev/zero; } >"$f.long"
    inspect_is "$n: one page too long" "$f.long" 1 "4096 bytes left over after section $last"
    flip "$f" 40 "$f.hdr"
    inspect_is "$n: a header byte changed" "$f.hdr" 1 "header: checksum"
    a=$(sections "$f" | awk '$1 == "a" { print $2 }')
    flip "$f" $((a + 7)) "$f.pt"
    inspect_is "$n: a point of a changed" "$f.pt" 1 "section a: point 0"
    inspect_is "$n: ... trusted with --trusted" "$f.pt" 0 valid --trusted
done

# cuzk prove takes caches as keys: the zkey kind in the snarkjs form, the
# params kind with --params; the proofs verify; the other kind is refused.
for curve in bn128 bls12381; do
    d="$work/$curve"
    out=$("$cuzk" prove --backend cpu "$d/k.cuzkkey" "$d/w.wtns" "$d/p.json" "$d/pub.json" 2>&1) &&
        "$cuzk" setup --seed 8 "$d/c.r1cs" "$d/k2.zkey" --vk "$d/vk.json" >/dev/null 2>&1 &&
        [ "$("$cuzk" verify "$d/vk.json" "$d/pub.json" "$d/p.json")" = OK ]
    check "$curve: cuzk prove with the cache of the key: a proof that verifies" $? "$out"
done
d="$work/bls12381"
"$cuzk" assign "$d/c.r1cs" "$d/w.wtns" "$d/w.asgn" --inputs-out "$d/in.json" >/dev/null 2>&1 &&
    "$cuzk" setup --seed 9 "$d/c.r1cs" "$d/c2.params" --vk "$d/c2.vk" >/dev/null 2>&1 &&
    "$cuzk" prove --backend cpu --params "$d/c.cuzkkey" --assignment "$d/w.asgn" --out "$d/p.bin" \
        >/dev/null 2>&1 &&
    [ "$("$cuzk" verify --vk "$d/c2.vk" --inputs "$d/in.json" --proof "$d/p.bin")" = OK ]
check "bellperson: cuzk prove --params with the cache of the parameters: verifies" $?
out=$("$cuzk" prove --params "$d/k.cuzkkey" --assignment "$d/w.asgn" --out "$d/x.bin" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"key cache of a snarkjs zkey"* ]] && [ ! -e "$d/x.bin" ]
check "bellperson: a zkey cache given to --params is refused, naming it" $? "$out"
out=$("$cuzk" prove "$d/c.cuzkkey" "$d/w.wtns" "$d/x.json" "$d/xp.json" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"key cache of bellperson parameters"* ]] && [ ! -e "$d/x.json" ]
check "a params cache given as a zkey is refused, naming --params" $? "$out"

# convert's refusals.
d="$work/bn128"
out=$("$cuzk" convert "$d/k.cuzkkey" "$d/again.cuzkkey" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"already a cuzk key cache"* ]] && [ ! -e "$d/again.cuzkkey" ]
check "convert: a cache as input is refused" $? "$out"
off=$("$cuzk" inspect "$d/k.zkey" | awk '$1 == 9 { print $2 }')
flip "$d/k.zkey" $((off + 1)) "$d/bad.zkey"
out=$("$cuzk" convert "$d/bad.zkey" "$d/bad.cuzkkey" 2>&1)
[ $? -eq 1 ] && [[ "$out" == *"section 9 (H): point 0"* ]] && [ -z "$(ls "$d" | grep bad.cuzkkey)" ]
check "convert: a key with a point off the curve: exit 1, nothing written" $? "$out"
out=$("$cuzk" convert "$d/w.wtns" "$d/w.cuzkkey" 2>&1)
[ $? -eq 1 ] && [[ "$out" == *"w.wtns is a snarkjs .wtns (witness), not a proving key"* ]] &&
    [ ! -e "$d/w.cuzkkey" ]
check "convert: a file that is no key: exit 1" $? "$out"
out=$("$cuzk" convert "$d/missing.zkey" "$d/m.cuzkkey" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *missing.zkey* ]]
check "convert: a missing input: exit 2 naming it" $? "$out"
out=$("$cuzk" convert "$d/k.zkey" "$work/no/such/dir/k.cuzkkey" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"$work/no/such/dir/k.cuzkkey: the directory"*"does not exist"* ]]
check "convert: an output directory that does not exist: exit 2" $? "$out"
"$cuzk" convert "$d/k.zkey" >/dev/null 2>&1
[ $? -eq 2 ]
check "convert: one argument: exit 2" $?
"$cuzk" convert --frobnicate "$d/k.zkey" "$d/x" >/dev/null 2>&1
[ $? -eq 2 ]
check "convert: an unknown option: exit 2" $?

[ $failures -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
