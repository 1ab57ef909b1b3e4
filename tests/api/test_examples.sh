#!/usr/bin/env bash
# The examples (examples/) built and run against an INSTALLED libcuzk only,
# as a program outside this repository would be:
#   - cmake --install into a scratch prefix; pkg-config --cflags --libs cuzk
#     with PKG_CONFIG_PATH into it (no -I into the source tree) builds
#     prove.c and engine.c, which run with LD_LIBRARY_PATH into the prefix;
#   - prove on a BN254 and a BLS12-381 circuit (cuzk gen, cuzk setup): its
#     proof.json and public.json pass `cuzk verify` and, when snarkjs is
#     installed, `snarkjs groth16 verify`; a proof with a flipped digit fails;
#   - engine: two jobs of three partitions at two priorities, every proof
#     verified;
#   - prove.py (ctypes) does what prove.c does;
#   - examples/CMakeLists.txt builds with find_package(cuzk) from the prefix
#     and its programs run.
#   tests/api/test_examples.sh CMAKE_COMMAND BUILD_DIR SOURCE_DIR LIBDIR CUZK
set -uo pipefail
cmake=$1
build=$2
src=$3
libdir=$4
cuzk=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME STATUS(0 = pass) [DETAIL]
    if [ "$2" -eq 0 ]; then
        echo "PASS $1"
    else
        echo "FAIL $1${3:+ ($3)}"
        failures=$((failures + 1))
    fi
}
snarkjs="$src/node_modules/.bin/snarkjs"
have_snarkjs=0
if [ -x "$snarkjs" ] && command -v node >/dev/null; then
    have_snarkjs=1
else
    echo "SKIP: snarkjs checks ($snarkjs or node missing; run npm ci for them)"
fi

p="$work/prefix"
"$cmake" --install "$build" --prefix "$p" >"$work/install.log" 2>&1
check "cmake --install --prefix $p" $? "$(cat "$work/install.log")"
export LD_LIBRARY_PATH="$p/$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# Only the installed tree: copies of the examples, away from the sources.
cp "$src"/examples/*.c "$src"/examples/prove.py "$src"/examples/CMakeLists.txt "$work/"
flags=$(PKG_CONFIG_PATH="$p/$libdir/pkgconfig" pkg-config --cflags --libs cuzk 2>&1)
check "pkg-config --cflags --libs cuzk" $? "$flags"
case "$flags" in *"$src"*) check "pkg-config's flags stay inside the prefix" 1 "$flags" ;; esac
for ex in prove engine; do
    # shellcheck disable=SC2086 # pkg-config's flags, split as make would
    cc -std=c11 -Wall -Wextra -Werror "$work/$ex.c" $flags -o "$work/$ex" >"$work/cc.log" 2>&1
    check "examples/$ex.c builds with pkg-config's flags" $? "$(cat "$work/cc.log")"
done

# A sanitizer build's library needs its runtime loaded first, which python3
# itself does not link: preload it (and leave the interpreter's own leaks
# out of the report).
py_env=()
asan=$(ldd "$p/$libdir/libcuzk.so" 2>/dev/null | awk '/libasan/ {print $3}')
[ -n "$asan" ] && py_env=(LD_PRELOAD="$asan" ASAN_OPTIONS=detect_leaks=0)

for curve in bn128 bls12381; do
    d="$work/$curve"
    mkdir -p "$d"
    for i in 1 2 3; do
        "$cuzk" gen --curve "$curve" --constraints 200 --public 2 --seed 7 "$d/c.r1cs" "$d/w$i.wtns" \
            >/dev/null 2>&1 || check "$curve: cuzk gen" 1
    done
    "$cuzk" setup --curve "$curve" --seed 5 "$d/c.r1cs" "$d/k.zkey" --vk "$d/vk.json" \
        >"$d/setup.log" 2>&1
    check "$curve: cuzk setup" $? "$(cat "$d/setup.log")"

    out=$("$work/prove" "$d/k.zkey" "$d/w1.wtns" "$d/proof.json" "$d/public.json" 2>&1)
    check "$curve: examples/prove proves and verifies" $? "$out"
    out=$("$cuzk" verify "$d/vk.json" "$d/public.json" "$d/proof.json" 2>&1)
    check "$curve: cuzk verify accepts prove's proof.json" $? "$out"
    # A flipped digit in the first coordinate: the proof must not pass.
    awk 'NR == 3 { sub(/[0-9]"/, (substr($0, match($0, /[0-9]"/), 1) == "1" ? "2" : "1") "\"") } { print }' \
        "$d/proof.json" >"$d/bad_proof.json"
    ! cmp -s "$d/proof.json" "$d/bad_proof.json" &&
        ! "$cuzk" verify "$d/vk.json" "$d/public.json" "$d/bad_proof.json" >/dev/null 2>&1
    check "$curve: a proof.json with one digit changed does not verify" $?
    if [ $have_snarkjs -eq 1 ]; then
        "$snarkjs" groth16 verify "$d/vk.json" "$d/public.json" "$d/proof.json" >"$d/sv.log" 2>&1 &&
            grep -q OK "$d/sv.log"
        check "$curve: snarkjs groth16 verify accepts prove's proof" $? "$(tail -n 3 "$d/sv.log")"
    fi

    out=$("$work/engine" "$d/k.zkey" "$d/w1.wtns" "$d/w2.wtns" "$d/w3.wtns" 2>&1)
    rc=$?
    [ $rc -eq 0 ] && [[ "$out" == *"job low: 3 proofs, 0 bad"* ]] &&
        [[ "$out" == *"job critical: 3 proofs, 0 bad"* ]]
    check "$curve: examples/engine proves two jobs at two priorities, every proof valid" $? "$out"

    out=$(env "${py_env[@]}" CUZK_LIBRARY="$p/$libdir/libcuzk.so" python3 "$work/prove.py" \
        "$d/k.zkey" "$d/w2.wtns" \
        "$d/py_proof.json" "$d/py_public.json" 2>&1) &&
        "$cuzk" verify "$d/vk.json" "$d/py_public.json" "$d/py_proof.json" >/dev/null 2>&1
    check "$curve: examples/prove.py (ctypes) proves, and cuzk verify accepts it" $? "$out"
done

"$cmake" -S "$work" -B "$work/cm" -DCMAKE_PREFIX_PATH="$p" >"$work/cm.log" 2>&1 &&
    "$cmake" --build "$work/cm" >>"$work/cm.log" 2>&1
check "examples/CMakeLists.txt builds with find_package(cuzk)" $? "$(tail -n 20 "$work/cm.log")"
out=$("$work/cm/prove" "$work/bn128/k.zkey" "$work/bn128/w3.wtns" "$work/cm/p.json" \
    "$work/cm/pub.json" 2>&1) &&
    "$cuzk" verify "$work/bn128/vk.json" "$work/cm/pub.json" "$work/cm/p.json" >/dev/null 2>&1
check "the find_package build of prove runs and its proof verifies" $? "$out"

[ $failures -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
