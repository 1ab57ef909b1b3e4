#!/usr/bin/env bash
# The files the command line writes (docs/OUTPUTS.md), through the real
# binary, for cuzk prove (both forms), setup, gen, assign and convert:
#   - /dev/stdout piped to a reader and redirected to a file, a stand-in link
#     to /proc/self/fd/1, a FIFO read by a background cat, a character device
#     (mknod'd in the scratch directory, as root; /dev/full's twin fails the
#     write with ENOSPC) and a symbolic link to one: written in place, still
#     what they were afterwards;
#   - a symbolic link to a regular file: the link kept, its file replaced;
#     an existing file's mode kept;
#   - a pre-planted PATH.cuzk-tmp link to a victim file: the victim untouched;
#   - the same file given twice (same path, another spelling, a symbolic
#     link): refused naming both arguments, the existing file intact;
#   - a missing directory, a directory as output, a name too long (and a
#     read-only directory when not root): refused before any work (before
#     the inputs are even read: the inputs named here do not exist),
#     naming the user's path, nothing left behind;
#   - a failing write (a full device; a file size limit for regular files):
#     no temporary left, every old file as it was (files committed together).
#   tests/interop/test_outputs.sh CUZK_BINARY
# One line per check; exit 1 on any failure.
set -uo pipefail
cuzk=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME STATUS(0 = pass) [DETAIL]
    if [ "$2" -eq 0 ]; then
        echo "PASS outputs: $1"
    else
        echo "FAIL outputs: $1${3:+ ($3)}"
        failures=$((failures + 1))
    fi
}
skip() { echo "SKIP outputs: $1"; }
# no_temporaries DIR: no temporary file (hidden ".NAME.cuzk-..." or the old
# "NAME.cuzk-tmp") is left in DIR.
no_temporaries() { ! ls -A "$1" | grep -q 'cuzk-'; }

d=$work/in
o=$work/out
mkdir -p "$d" "$o"
"$cuzk" gen --curve bn128 --constraints 64 --public 2 --seed 5 "$d/c.r1cs" "$d/w.wtns" 2>/dev/null &&
    "$cuzk" setup --seed 6 "$d/c.r1cs" "$d/k.zkey" --vk "$d/vk.json" >/dev/null 2>&1 &&
    "$cuzk" gen --curve bls12381 --constraints 64 --public 2 --seed 7 "$d/b.r1cs" "$d/b.wtns" \
        2>/dev/null &&
    "$cuzk" setup --seed 8 "$d/b.r1cs" "$d/b.params" --vk "$d/b.vk" >/dev/null 2>&1 &&
    "$cuzk" assign "$d/b.r1cs" "$d/b.wtns" "$d/b.asgn" >/dev/null 2>&1
check "fixtures: gen, setup (zkey and params), assign" $?

prove() { "$cuzk" prove --backend cpu "$d/k.zkey" "$d/w.wtns" "$@"; }
verifies() { [ "$("$cuzk" verify "$d/vk.json" "$1" "$2" 2>&1)" = OK ]; }

# ---- written in place ---------------------------------------------------------------------

# A link to /proc/self/fd/1 in the scratch directory behaves as /dev/stdout
# does; it comes first, so that a build that replaced such links would
# replace this one and never reach the real /dev/stdout.
ln -s /proc/self/fd/1 "$o/stdout"
prove "$o/stdout" "$o/pub.json" 2>"$o/err" | cat >"$o/piped.json"
[ -L "$o/stdout" ] && verifies "$o/pub.json" "$o/piped.json" && no_temporaries "$o"
stand_in=$?
check "a link to /proc/self/fd/1, piped: the proof comes through it, the link stays" $stand_in \
    "$(cat "$o/err")"
if [ $stand_in -eq 0 ]; then
    rm -f "$o/piped.json"
    prove /dev/stdout "$o/pub.json" 2>"$o/err" | cat >"$o/piped.json"
    [ -L /dev/stdout ] && verifies "$o/pub.json" "$o/piped.json" && no_temporaries /dev
    check "/dev/stdout piped to a reader: the proof goes down the pipe" $? "$(cat "$o/err")"
    prove /dev/stdout "$o/pub.json" >"$o/redirected.json" 2>"$o/err"
    [ -L /dev/stdout ] && verifies "$o/pub.json" "$o/redirected.json"
    check "/dev/stdout redirected to a file: the proof lands in that file" $? "$(cat "$o/err")"
    echo before >"$o/appended.json"
    prove /dev/stdout "$o/pub.json" >>"$o/appended.json" 2>"$o/err"
    [ "$(head -n 1 "$o/appended.json")" = before ] && tail -n +2 "$o/appended.json" >"$o/tail.json" &&
        verifies "$o/pub.json" "$o/tail.json"
    check "/dev/stdout appended to a file (>>): what it held is kept, the proof after it" $? \
        "$(cat "$o/err")"
    prove "$o/redirected.json" /dev/stderr 2>"$o/pub_stderr.json" &&
        verifies "$o/pub_stderr.json" "$o/redirected.json"
    check "/dev/stderr redirected to a file: the public signals land there" $?
else
    skip "the real /dev/stdout (the stand-in link failed)"
fi

mkfifo "$o/fifo"
timeout 30 cat "$o/fifo" >"$o/from_fifo.json" &
reader=$!
timeout 30 "$cuzk" prove "$d/k.zkey" "$d/w.wtns" "$o/fifo" "$o/pub.json" 2>"$o/err"
rc=$?
wait $reader
[ $rc -eq 0 ] && [ -p "$o/fifo" ] && verifies "$o/pub.json" "$o/from_fifo.json"
check "a FIFO read by a background cat: the proof goes through, the FIFO stays" $? \
    "exit $rc: $(cat "$o/err")"

if [ "$(id -u)" -eq 0 ]; then
    mknod "$o/null" c 1 3 && mknod "$o/full" c 1 7
    check "mknod null and full in the scratch directory" $?
    prove "$o/null" "$o/pub.json" 2>"$o/err" && [ -c "$o/null" ] && no_temporaries "$o"
    twin=$?
    check "a character device (null): written in place, still a character device" $twin \
        "$(cat "$o/err")"
    ln -s null "$o/to_null"
    prove "$o/to_null" "$o/pub.json" 2>"$o/err" && [ -L "$o/to_null" ] &&
        [ "$(readlink "$o/to_null")" = null ] && [ -c "$o/null" ]
    check "a symbolic link to a character device: the link and the device stay" $? \
        "$(cat "$o/err")"
    # The real /dev/null only once its twin here came through unharmed: a
    # build that replaced devices would replace /dev/null for everyone.
    if [ $twin -eq 0 ]; then
        prove /dev/null /dev/null 2>"$o/err" && [ -c /dev/null ]
        check "/dev/null for both outputs: allowed, /dev/null stays a device" $? "$(cat "$o/err")"
    fi
    # (The same witness gives the same public signals: the inode tells a
    # replaced file from the old one.)
    ino=$(stat -c %i "$o/pub.json")
    out=$(prove "$o/full" "$o/pub.json" 2>&1)
    [ $? -eq 2 ] && [[ "$out" == *"$o/full: write failed: No space left on device"* ]] &&
        [ -c "$o/full" ] && [ "$(stat -c %i "$o/pub.json")" = "$ino" ] && no_temporaries "$o"
    check "a full device: fails naming it, stays a device; public.json (with it) unchanged" $? \
        "$out"
    cp "$d/k.zkey" "$o/k.zkey"
    out=$("$cuzk" setup --seed 9 "$d/c.r1cs" "$o/k.zkey" --vk "$o/full" 2>&1)
    [ $? -eq 2 ] && cmp -s "$d/k.zkey" "$o/k.zkey" && [ -c "$o/full" ] && no_temporaries "$o"
    check "setup with --vk on a full device: the key is not replaced" $? "$out"
    out=$("$cuzk" prove --params "$d/b.params" --assignment "$d/b.asgn" --out "$o/null" \
        --inputs-out "$o/full" 2>&1)
    [ $? -eq 2 ] && [ -c "$o/null" ] && [ -c "$o/full" ] && no_temporaries "$o"
    check "prove --params onto devices: in place, the devices stay" $? "$out"
else
    skip "character devices made with mknod, a full device (not root)"
    ln -s /dev/null "$o/to_null"
    prove "$o/to_null" "$o/pub.json" 2>"$o/err" && [ -L "$o/to_null" ] && [ -c /dev/null ]
    check "a symbolic link to /dev/null: the link and the device stay" $? "$(cat "$o/err")"
fi

# ---- regular files and links to them ------------------------------------------------------

prove "$o/real.json" "$o/pub.json" 2>/dev/null
ln -s real.json "$o/link.json"
chmod 600 "$o/real.json"
ino=$(stat -c %i "$o/real.json")
prove "$o/link.json" "$o/pub.json" 2>"$o/err" && [ -L "$o/link.json" ] &&
    [ "$(readlink "$o/link.json")" = real.json ] && [ "$(stat -c %i "$o/real.json")" != "$ino" ] &&
    [ "$(stat -c %a "$o/real.json")" = 600 ] && verifies "$o/pub.json" "$o/real.json" &&
    no_temporaries "$o"
check "a link to a regular file: the link kept, its file replaced whole, its mode kept" $? \
    "$(cat "$o/err")"

echo precious >"$o/victim"
ln -s "$o/victim" "$o/pp.json.cuzk-tmp"
prove "$o/pp.json" "$o/pub.json" 2>"$o/err" && [ "$(cat "$o/victim")" = precious ] &&
    verifies "$o/pub.json" "$o/pp.json" && [ -L "$o/pp.json.cuzk-tmp" ]
check "a planted PATH.cuzk-tmp link to a victim: the victim untouched" $? "$(cat "$o/err")"
rm -f "$o/pp.json.cuzk-tmp"

# ---- the same file twice ------------------------------------------------------------------

echo precious >"$o/same.json"
out=$(prove "$o/same.json" "$o/./same.json" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"<proof.json> $o/same.json and <public.json> $o/./same.json"* ]] &&
    [ "$(cat "$o/same.json")" = precious ]
check "prove: the same path twice refused, naming both; the file intact" $? "$out"
ln -s same.json "$o/alias.json"
out=$(prove "$o/alias.json" "$o/same.json" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"name the same file"* ]] && [ "$(cat "$o/same.json")" = precious ]
check "prove: a symbolic link and its file refused" $? "$out"
out=$(prove "$o/new.json" "$o/../out/new.json" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"name the same file"* ]] && [ ! -e "$o/new.json" ]
check "prove: one new file by two spellings refused" $? "$out"
out=$("$cuzk" prove --params "$d/b.params" --assignment "$d/b.asgn" --out "$o/same.json" \
    --inputs-out "$o/alias.json" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"--out $o/same.json and --inputs-out $o/alias.json"* ]] &&
    [ "$(cat "$o/same.json")" = precious ]
check "prove --params: --out and --inputs-out the same file refused" $? "$out"
out=$("$cuzk" setup "$d/c.r1cs" "$o/same.json" --vk "$o/same.json" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"--vk"* ]] && [ "$(cat "$o/same.json")" = precious ]
check "setup: the key and --vk the same file refused" $? "$out"
out=$("$cuzk" gen --curve bn128 --constraints 8 --seed 1 "$o/same.json" "$o/alias.json" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"name the same file"* ]] && [ "$(cat "$o/same.json")" = precious ]
check "gen: the .r1cs and the .wtns the same file refused" $? "$out"
out=$("$cuzk" assign "$d/c.r1cs" "$d/w.wtns" "$o/same.json" --inputs-out "$o/same.json" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"--inputs-out"* ]] && [ "$(cat "$o/same.json")" = precious ]
check "assign: the .asgn and --inputs-out the same file refused" $? "$out"

# ---- bad paths, before any work -----------------------------------------------------------

# Each command gets inputs that do not exist: the output's message proves
# the output was checked first.
fast() { # fast NAME TEXT CMD...: exits 2 at once, naming TEXT, nothing new in $o
    local name=$1 text=$2
    shift 2
    local before after out rc t0 ms
    before=$(ls -A "$o" | wc -l)
    t0=$(date +%s%N)
    out=$(timeout 20 "$@" 2>&1)
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    after=$(ls -A "$o" | wc -l)
    [ $rc -eq 2 ] && [[ "$out" == *"$text"* ]] && [ "$before" -eq "$after" ] && [ $ms -lt 2000 ]
    check "$name" $? "exit $rc in $ms ms: $out"
}
m=$o/missing
fast "prove: a missing directory, before the key is read" "$m/p.json: the directory $m does not exist" \
    "$cuzk" prove "$d/none.zkey" "$d/none.wtns" "$m/p.json" "$o/pub.json"
fast "prove: a directory as output" "$o: is a directory" \
    "$cuzk" prove "$d/none.zkey" "$d/none.wtns" "$o/p.json" "$o"
long=$(printf 'n%.0s' $(seq 1 300))
fast "prove: a name over 255 bytes" "bytes long, more than the 255" \
    "$cuzk" prove "$d/none.zkey" "$d/none.wtns" "$o/$long.json" "$o/pub.json"
fast "prove --params: a missing directory for --inputs-out" "$m/in.json: the directory" \
    "$cuzk" prove --params "$d/none.params" --assignment "$d/none.asgn" --out "$o/p.bin" \
    --inputs-out "$m/in.json"
fast "setup: a missing directory for --vk, before the circuit is read" "$m/vk.json" \
    "$cuzk" setup "$d/none.r1cs" "$o/k.zkey" --vk "$m/vk.json"
fast "gen: a missing directory, before 2^28 constraints are made" "$m/c.wtns" \
    "$cuzk" gen --curve bn128 --constraints 268435456 "$o/c.r1cs" "$m/c.wtns"
fast "assign: a directory as output" "$o: is a directory" \
    "$cuzk" assign "$d/none.r1cs" "$d/none.wtns" "$o"
fast "convert: a missing directory, before the key is read" "$m/k.cuzkkey: the directory" \
    "$cuzk" convert "$d/none.zkey" "$m/k.cuzkkey"
if [ "$(id -u)" -ne 0 ]; then
    mkdir "$work/ro" && chmod 555 "$work/ro"
    fast "prove: a read-only directory" "$work/ro/p.json: cannot create files in" \
        "$cuzk" prove "$d/none.zkey" "$d/none.wtns" "$work/ro/p.json" "$o/pub.json"
else
    skip "a read-only directory (root writes in it anyway)"
fi
no_temporaries "$o"
check "nothing left behind by the refusals" $?

# ---- failing writes to regular files ------------------------------------------------------

# With a file size limit of 0 every write to a regular file fails (EFBIG;
# SIGXFSZ ignored so that the write returns instead of killing cuzk).
limited() { (trap '' XFSZ && ulimit -f 0 && exec "$@"); }
prove "$o/keep.json" "$o/keep_pub.json" 2>/dev/null
cp "$o/keep.json" "$o/keep.before"
ino=$(stat -c %i "$o/keep_pub.json")
out=$(limited "$cuzk" prove "$d/k.zkey" "$d/w.wtns" "$o/keep.json" "$o/keep_pub.json" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"$o/keep.json: write failed: File too large"* ]] &&
    [[ "$out" != *".cuzk-"* ]] && cmp -s "$o/keep.json" "$o/keep.before" &&
    [ "$(stat -c %i "$o/keep_pub.json")" = "$ino" ] && no_temporaries "$o"
check "prove: a failing write leaves both old files and no temporary" $? "$out"
out=$(limited "$cuzk" gen --curve bn128 --constraints 8 --seed 1 "$o/g.r1cs" "$o/g.wtns" 2>&1)
[ $? -eq 2 ] && [ ! -e "$o/g.r1cs" ] && [ ! -e "$o/g.wtns" ] && no_temporaries "$o"
check "gen: a failing write leaves neither file" $? "$out"
cp "$d/b.asgn" "$o/b.asgn"
out=$(limited "$cuzk" assign "$d/b.r1cs" "$d/b.wtns" "$o/b.asgn" --inputs-out "$o/b_in.json" 2>&1)
[ $? -eq 2 ] && cmp -s "$d/b.asgn" "$o/b.asgn" && [ ! -e "$o/b_in.json" ] && no_temporaries "$o"
check "assign: a failing write leaves the old .asgn and no inputs" $? "$out"
out=$(limited "$cuzk" convert "$d/k.zkey" "$o/k.cuzkkey" 2>&1)
[ $? -eq 2 ] && [[ "$out" == *"$o/k.cuzkkey: write failed"* ]] && [ ! -e "$o/k.cuzkkey" ] &&
    no_temporaries "$o"
check "convert: a failing write leaves nothing" $? "$out"

[ $failures -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
