#!/usr/bin/env bash
# The bellperson forms of the command line, end to end (BLS12-381):
#   cuzk gen → cuzk setup c.params --vk c.vk (INSECURE) → cuzk assign
#   (.asgn + inputs) → cuzk prove --params (two partitions) → cuzk verify
#   --vk OK, with the .vk and with the .params;
#   a changed input → INVALID (exit 1); a corrupted proof → INVALID;
#   a truncated proof file → exit 2; an unsatisfying assignment → prove
#   exits 1 and writes nothing; an assignment of another circuit → exit 2
#   naming the counts; a BN254 circuit → setup refuses .params.
#   tests/interop/test_bellperson.sh CUZK_BINARY
# One line per check; exit 1 on any failure.
set -uo pipefail
cuzk=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME STATUS(0 = pass) [DETAIL]
    if [ "$2" -eq 0 ]; then
        echo "PASS bellperson: $1"
    else
        echo "FAIL bellperson: $1${3:+ ($3)}"
        failures=$((failures + 1))
    fi
}
# expect_rc WANT CMD...: runs CMD (output in $work/last.log), 0 iff it exited WANT.
expect_rc() {
    local want=$1
    shift
    "$@" >"$work/last.log" 2>&1
    local rc=$?
    [ "$rc" -eq "$want" ] || { echo "  exit $rc, wanted $want:"; sed 's/^/  | /' "$work/last.log"; }
    [ "$rc" -eq "$want" ]
}

d=$work
"$cuzk" gen --curve bls12381 --constraints 400 --public 3 --seed 21 "$d/c.r1cs" "$d/w.wtns" \
    >/dev/null 2>&1
check "gen" $?
expect_rc 0 "$cuzk" setup --seed 3 "$d/c.r1cs" "$d/c.params" --vk "$d/c.vk"
check "setup .params and .vk" $?
grep -q INSECURE "$work/last.log"
check "setup says INSECURE" $?
expect_rc 0 "$cuzk" assign "$d/c.r1cs" "$d/w.wtns" "$d/a.asgn" --inputs-out "$d/in1.json"
check "assign" $?
[ "$(grep -c '"[0-9]*"' "$d/in1.json")" -eq 3 ]
check "assign writes the 3 public inputs" $?

expect_rc 0 "$cuzk" prove --params "$d/c.params" --assignment "$d/a.asgn" --assignment "$d/a.asgn" \
    --out "$d/p.bin" --inputs-out "$d/in.json"
check "prove two partitions" $?
[ "$(stat -c %s "$d/p.bin")" -eq 384 ]
check "proof file holds 2 × 192 bytes" $?
expect_rc 0 "$cuzk" verify --vk "$d/c.vk" --inputs "$d/in.json" --proof "$d/p.bin"
check "verify (batch of 2) with the .vk: OK" $?
grep -qx OK "$work/last.log"
check "verify prints OK" $?
expect_rc 0 "$cuzk" verify --vk "$d/c.params" --inputs "$d/in.json" --proof "$d/p.bin"
check "verify with the .params' verifying key: OK" $?
head -c 192 "$d/p.bin" >"$d/p1.bin"
expect_rc 0 "$cuzk" verify --vk "$d/c.vk" --inputs "$d/in1.json" --proof "$d/p1.bin"
check "verify one proof: OK" $?
expect_rc 2 "$cuzk" verify --vk "$d/c.vk" --inputs "$d/in1.json" --proof "$d/p.bin"
check "inputs of one proof for a file of two: exit 2" $?

# The second partition's first public input changed.
awk 'BEGIN { n = 0 } /"[0-9]+"/ { n++; if (n == 4) { sub(/"[0-9]+"/, "\"5\"") } } { print }' \
    "$d/in.json" >"$d/in_bad.json"
! cmp -s "$d/in.json" "$d/in_bad.json"
check "tampered inputs differ" $?
expect_rc 1 "$cuzk" verify --vk "$d/c.vk" --inputs "$d/in_bad.json" --proof "$d/p.bin"
check "changed input: INVALID, exit 1" $?
grep -q "proof 1 of 2 does not verify" "$work/last.log"
check "the failing partition is named" $?

# A byte of the second proof's π_C x coordinate changed (its lowest bit
# flipped, so that it differs whatever r and s made it).
cp "$d/p.bin" "$d/p_bad.bin"
off=$((192 + 144 + 20))
byte=$(od -An -tu1 -j "$off" -N1 "$d/p.bin" | tr -d ' ')
printf "\\$(printf '%03o' $((byte ^ 1)))" | dd of="$d/p_bad.bin" bs=1 seek="$off" conv=notrunc status=none
cmp -s "$d/p.bin" "$d/p_bad.bin"
[ $? -eq 1 ]
check "the corrupted copy differs" $?
expect_rc 1 "$cuzk" verify --vk "$d/c.vk" --inputs "$d/in.json" --proof "$d/p_bad.bin"
check "corrupted proof: INVALID, exit 1" $?
head -c 383 "$d/p.bin" >"$d/p_short.bin"
expect_rc 2 "$cuzk" verify --vk "$d/c.vk" --inputs "$d/in.json" --proof "$d/p_short.bin"
check "truncated proof file: exit 2" $?

# An unsatisfying assignment: witness values near the end changed until the
# circuit no longer holds (assign warns), then prove must refuse it.
size=$(stat -c %s "$d/w.wtns")
found=1
for k in 1 2 3 4 5 6 7 8; do
    cp "$d/w.wtns" "$d/bad.wtns"
    printf '\x05' | dd of="$d/bad.wtns" bs=1 seek=$((size - 32 * k)) conv=notrunc status=none
    "$cuzk" assign "$d/c.r1cs" "$d/bad.wtns" "$d/bad.asgn" >"$d/assign.log" 2>&1
    if grep -q "does not satisfy" "$d/assign.log"; then
        found=0
        break
    fi
done
check "assign warns about an unsatisfying witness" $found
expect_rc 1 "$cuzk" prove --params "$d/c.params" --assignment "$d/bad.asgn" --out "$d/bad.bin" \
    --inputs-out "$d/bad_in.json"
check "prove refuses the unsatisfying assignment (exit 1)" $?
[ ! -e "$d/bad.bin" ] && [ ! -e "$d/bad_in.json" ] && ! ls -A "$d" | grep -q '\.cuzk-'
check "nothing written for the refused assignment" $?

# An assignment of another circuit.
"$cuzk" gen --curve bls12381 --constraints 300 --public 2 --seed 22 "$d/o.r1cs" "$d/o.wtns" \
    >/dev/null 2>&1
"$cuzk" assign "$d/o.r1cs" "$d/o.wtns" "$d/o.asgn" >/dev/null 2>&1
expect_rc 2 "$cuzk" prove --params "$d/c.params" --assignment "$d/o.asgn" --out "$d/o.bin"
check "assignment of another circuit: exit 2" $?
grep -q "inputs but the key's IC has" "$work/last.log"
check "the mismatch names the counts" $?

# bellperson parameters are BLS12-381 only.
"$cuzk" gen --curve bn128 --constraints 50 --seed 23 "$d/b.r1cs" "$d/b.wtns" >/dev/null 2>&1
expect_rc 2 "$cuzk" setup "$d/b.r1cs" "$d/b.params"
check "setup refuses .params for BN254" $?
grep -q "BLS12-381 only" "$work/last.log"
check "the refusal names the curve" $?
[ ! -e "$d/b.params" ]
check "no .params written for BN254" $?

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all bellperson command-line checks passed"
