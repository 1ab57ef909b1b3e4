#!/usr/bin/env bash
# The command line on inputs that are not files, or that change while they
# are read:
#   - a FIFO (no writer) in place of every file a command reads (inspect;
#     prove's key and witness; verify's three files; setup; convert; prove
#     --params' parameters and assignment; bellperson verify's key, inputs
#     and proof; assign's circuit and witness): the command ends at once
#     (a 10 s timeout fails a hang) with "FIFO: not a regular file (a
#     FIFO)";
#   - a large witness truncated by another process while cuzk inspect reads
#     it: never "Bus error" (exit 135); "the file changed (truncated) while
#     it was read" (exit 2);
#   - a key truncated while cuzk prove (verifying or not) or cuzk convert
#     uses it: the file is named, and no proof or key cache is written;
#   - a corrupt .asgn given to cuzk prove --params: the message names the
#     file once.
#   tests/interop/test_files.sh CUZK_BINARY
# One line per check; exit 1 on any failure.
set -uo pipefail
cuzk=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME STATUS(0 = pass) [DETAIL]
    if [ "$2" -eq 0 ]; then
        echo "PASS files: $1"
    else
        echo "FAIL files: $1${3:+ ($3)}"
        failures=$((failures + 1))
    fi
}

d=$work
{
    "$cuzk" gen --curve bn128 --constraints 20 --public 2 --seed 1 "$d/c.r1cs" "$d/w.wtns" &&
        "$cuzk" setup --seed 2 "$d/c.r1cs" "$d/k.zkey" --vk "$d/vk.json" &&
        "$cuzk" prove "$d/k.zkey" "$d/w.wtns" "$d/proof.json" "$d/public.json" &&
        "$cuzk" gen --curve bls12381 --constraints 20 --public 2 --seed 3 "$d/b.r1cs" "$d/b.wtns" &&
        "$cuzk" setup --seed 4 "$d/b.r1cs" "$d/k.params" --vk "$d/k.vk" &&
        "$cuzk" assign "$d/b.r1cs" "$d/b.wtns" "$d/a.asgn" --inputs-out "$d/in.json" &&
        "$cuzk" prove --params "$d/k.params" --assignment "$d/a.asgn" --out "$d/p.bin"
} >"$work/fixtures.log" 2>&1
check "fixtures" $? "$(tail -n 3 "$work/fixtures.log")"

# ---- FIFOs ------------------------------------------------------------------
f=$d/fifo
mkfifo "$f"
# refuses NAME CMD...: CMD ends within 10 s, non-zero, saying the FIFO is one.
refuses() {
    local name=$1
    shift
    local out rc
    out=$(timeout 10 "$@" 2>&1 </dev/null)
    rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && [[ "$out" == *"$f: not a regular file (a FIFO)"* ]]
    check "FIFO as $name: refused at once" $? "exit $rc: $(tr '\n' '|' <<<"$out")"
}
refuses "inspect's file" "$cuzk" inspect "$f"
refuses "prove's key" "$cuzk" prove "$f" "$d/w.wtns" "$d/p2.json" "$d/pub2.json"
refuses "prove's witness" "$cuzk" prove "$d/k.zkey" "$f" "$d/p2.json" "$d/pub2.json"
refuses "verify's key" "$cuzk" verify "$f" "$d/public.json" "$d/proof.json"
refuses "verify's public inputs" "$cuzk" verify "$d/vk.json" "$f" "$d/proof.json"
refuses "verify's proof" "$cuzk" verify "$d/vk.json" "$d/public.json" "$f"
refuses "setup's circuit" "$cuzk" setup --seed 1 "$f" "$d/k2.zkey"
refuses "convert's key" "$cuzk" convert "$f" "$d/k2.cuzkkey"
refuses "prove --params' parameters" "$cuzk" prove --params "$f" --assignment "$d/a.asgn" \
    --out "$d/p2.bin"
refuses "prove --params' assignment" "$cuzk" prove --params "$d/k.params" --assignment "$f" \
    --out "$d/p2.bin"
refuses "bellperson verify's key" "$cuzk" verify --vk "$f" --inputs "$d/in.json" --proof "$d/p.bin"
refuses "bellperson verify's inputs" "$cuzk" verify --vk "$d/k.vk" --inputs "$f" --proof "$d/p.bin"
refuses "bellperson verify's proof" "$cuzk" verify --vk "$d/k.vk" --inputs "$d/in.json" --proof "$f"
refuses "assign's circuit" "$cuzk" assign "$f" "$d/b.wtns" "$d/a2.asgn"
refuses "assign's witness" "$cuzk" assign "$d/b.r1cs" "$f" "$d/a2.asgn"

# ---- a witness truncated while it is read ------------------------------------
# 2^22 values (128 MiB, sparse: w[0] = 1, the rest zeros) in a .wtns of BN254.
big=$d/big.wtns
make_big() {
    python3 - "$big" <<'PY'
import struct, sys
r = 21888242871839275222246405745257275088548364400416034343698204186575808495617
n = 1 << 22
with open(sys.argv[1], "wb") as f:
    f.write(b"wtns" + struct.pack("<II", 2, 2))
    f.write(struct.pack("<IQ", 1, 40) + struct.pack("<I", 32) + r.to_bytes(32, "little") + struct.pack("<I", n))
    f.write(struct.pack("<IQ", 2, 32 * n) + (1).to_bytes(32, "little"))
    f.truncate(f.tell() + 32 * (n - 1))
PY
}
# truncated_under FILE LOG CMD...: runs CMD in the background (its output
# in LOG), truncates FILE to 4 KiB as soon as CMD has mapped it (its
# /proc/PID/maps names the file), and returns CMD's exit status.
truncated_under() {
    local file=$1 log=$2 pid
    shift 2
    "$@" >"$log" 2>&1 &
    pid=$!
    for _ in $(seq 1 20000); do
        grep -qs "$file" "/proc/$pid/maps" && break
        kill -0 $pid 2>/dev/null || break
    done
    truncate -s 4096 "$file"
    wait $pid
}
make_big
out=$("$cuzk" inspect "$big" 2>&1)
rc=$?
[ $rc -eq 0 ]
check "the large witness is valid" $? "exit $rc: $(tail -n 1 <<<"$out")"
# Truncated as soon as inspect has mapped it (its /proc/PID/maps names the
# file), while it reads the 128 MiB; a few tries, in case one misses the
# window.
seen=0 crashed=0 tries=0
while [ $tries -lt 5 ] && [ $seen -eq 0 ] && [ $crashed -eq 0 ]; do
    tries=$((tries + 1))
    make_big
    truncated_under "$big" "$d/inspect.log" "$cuzk" inspect "$big"
    rc=$?
    if [ $rc -ge 128 ]; then
        crashed=$((crashed + 1))
        echo "  try $tries: killed by signal $((rc - 128))"
    elif grep -q "$big: the file changed (truncated) while it was read" "$d/inspect.log"; then
        [ $rc -eq 2 ] || crashed=$((crashed + 1))
        seen=$((seen + 1))
    else
        echo "  try $tries: exit $rc, $(tail -n 1 "$d/inspect.log")"
    fi
done
[ $crashed -eq 0 ]
check "a witness truncated while inspect reads it: no crash" $?
[ $seen -eq 1 ]
check "... but 'the file changed (truncated) while it was read' (try $tries)" $?

# ---- a key truncated while cuzk prove uses it ---------------------------------
# Truncated as soon as prove has mapped it: the proof is never written nor
# the witness blamed, with or without the self-verification.
"$cuzk" gen --curve bn128 --constraints 60000 --seed 5 "$d/kt.r1cs" "$d/kt.wtns" >/dev/null 2>&1 &&
    "$cuzk" setup --seed 6 "$d/kt.r1cs" "$d/kt.zkey" >/dev/null 2>&1
check "the 60000-constraint key" $?
for nv in "" --no-verify; do
    cp "$d/kt.zkey" "$d/kbig.zkey"
    rm -f "$d/kt.json" "$d/ktpub.json"
    # shellcheck disable=SC2086 # $nv is one option or none
    truncated_under "$d/kbig.zkey" "$d/kt.log" "$cuzk" prove --threads 1 --trusted $nv \
        "$d/kbig.zkey" "$d/kt.wtns" "$d/kt.json" "$d/ktpub.json"
    rc=$?
    [ $rc -eq 2 ] && grep -q "kbig.zkey: the file changed (truncated) while it was read" "$d/kt.log" &&
        [ ! -e "$d/kt.json" ] && [ ! -e "$d/ktpub.json" ]
    check "prove ${nv:-(verifying)}: a key truncated under it is named, nothing written" $? \
        "exit $rc: $(tail -n 1 "$d/kt.log")"
done

# The same for cuzk convert: no key cache is left from the lost bytes.
cp "$d/kt.zkey" "$d/kbig.zkey"
rm -f "$d/kt.cuzkkey"
truncated_under "$d/kbig.zkey" "$d/kc.log" "$cuzk" convert --threads 1 "$d/kbig.zkey" \
    "$d/kt.cuzkkey"
rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] &&
    grep -q "kbig.zkey: the file changed (truncated) while it was read" "$d/kc.log" &&
    [ -z "$(find "$d" -maxdepth 1 -name 'kt.cuzkkey*')" ]
check "convert: a key truncated under it is named, no key cache written" $? \
    "exit $rc: $(tail -n 1 "$d/kc.log")"

# ---- the .asgn's name, once ---------------------------------------------------
cp "$d/a.asgn" "$d/bad.asgn"
printf 'XXXXXXXX' | dd of="$d/bad.asgn" conv=notrunc status=none
out=$("$cuzk" prove --params "$d/k.params" --assignment "$d/bad.asgn" --out "$d/p3.bin" 2>&1)
rc=$?
[ $rc -ne 0 ] && [ "$(grep -o "$d/bad.asgn" <<<"$out" | wc -l)" -eq 1 ] &&
    [[ "$out" == *"$d/bad.asgn: section header: magic"* ]]
check "a corrupt .asgn: its name once in the message" $? "exit $rc: $out"

[ $failures -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
