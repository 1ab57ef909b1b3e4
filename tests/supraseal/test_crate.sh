#!/usr/bin/env bash
# The Rust crate contrib/rust/supraseal-c2 (Curio's supraseal-c2 API on
# libcuzk_supraseal_curio.so) end to end: makes a BLS12-381 circuit, its
# development .params and two assignments with the cuzk command line, checks
# them with cuzk's own prover, then runs the crate's tests
# (contrib/rust/supraseal-c2/tests/c2.rs), which prove through every entry
# point of the crate and check each proof with `cuzk verify`.
#   tests/supraseal/test_crate.sh CUZK_BIN LIB_DIR CARGO_TARGET_DIR
# CUZK_BIN: the cuzk binary; LIB_DIR: the folder holding
# libcuzk_supraseal_curio.so (a build folder); CARGO_TARGET_DIR: where cargo
# builds. Exit status: cargo's; 1 when the fixtures cannot be made; 77 (with
# a SKIP line) when there is no cargo.
#
# The two assignments hold two different witnesses of one circuit. `cuzk gen`
# makes one witness per circuit (its circuit is fitted to the witness), so
# the circuit is written here by a short Python program: each row defines a
# new private wire from earlier ones, so any choice of the public and free
# private values gives a witness. Without python3, both assignments hold the
# one witness of a `cuzk gen` circuit (said on a NOTE line), and the tests
# that need two different input sets say they skipped that check.
set -uo pipefail
if [ $# -ne 3 ]; then
    echo "usage: $0 CUZK_BIN LIB_DIR CARGO_TARGET_DIR" >&2
    exit 2
fi
abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
cuzk=$(abs "$1")
lib_dir=$(cd "$2" 2>/dev/null && pwd) || { echo "FAIL: no folder $2" >&2; exit 1; }
mkdir -p "$3" && target_dir=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
manifest="$root/contrib/rust/supraseal-c2/Cargo.toml"

[ -x "$cuzk" ] || { echo "FAIL: $cuzk is not an executable" >&2; exit 1; }
[ -f "$lib_dir/libcuzk_supraseal_curio.so" ] ||
    { echo "FAIL: no libcuzk_supraseal_curio.so in $lib_dir" >&2; exit 1; }
cargo=$(command -v cargo || true)
if [ -z "$cargo" ] && [ -x "$HOME/.cargo/bin/cargo" ]; then
    cargo="$HOME/.cargo/bin/cargo"
fi
if [ -z "$cargo" ]; then
    echo "SKIP: no cargo (neither on PATH nor in \$HOME/.cargo/bin)"
    exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# step WHAT CMD...: runs CMD, its output in $work/step.log; exit 1 with it on failure.
step() {
    local what=$1
    shift
    if ! "$@" >"$work/step.log" 2>&1; then
        echo "FAIL: $what: $*"
        sed 's/^/  | /' "$work/step.log"
        exit 1
    fi
    echo "fixture: $what"
}

if python3 -c 'import sys' >/dev/null 2>&1; then
    # c.r1cs: ONE, 3 public inputs, 2 free private inputs, then one private
    # wire per row: (A·w)·(B·w) = w_out + (maybe) c·w_j over earlier wires,
    # A and B drawn from subsets so that the density bitmaps have gaps.
    # w1.wtns, w2.wtns: two witnesses (different public and free values).
    step "circuit and two witnesses (python3)" python3 - "$work" <<'EOF'
import random, struct, sys

R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
N_PUB, N_FREE, N_ROWS = 3, 2, 500
FIRST_OUT = 1 + N_PUB + N_FREE
N_WIRES = FIRST_OUT + N_ROWS
out = sys.argv[1]
shape = random.Random(1)

def coef():
    return shape.randrange(1, R)

def pick(pool, n):
    return sorted(shape.sample(pool, min(n, len(pool))))

rows = []
for k in range(N_ROWS):
    wire = FIRST_OUT + k
    a_pool = [w for w in range(wire) if w % 5 != 4]
    b_pool = [w for w in range(wire) if w <= N_PUB or w % 3 == 0]
    a = set(pick(a_pool, shape.randint(1, 3)))
    if k < N_FREE:
        a.add(1 + N_PUB + k)  # every free input is constrained
    a = [(w, coef()) for w in sorted(a)]
    b = [(w, coef()) for w in pick(b_pool, shape.randint(1, 2))]
    c = [(wire, 1)]
    if shape.random() < 0.5:
        c = [(shape.randrange(1, wire), coef())] + c
    rows.append((a, b, c))

def lc_bytes(lc):
    return struct.pack("<I", len(lc)) + b"".join(
        struct.pack("<I", w) + v.to_bytes(32, "little") for w, v in lc)

def section(sid, body):
    return struct.pack("<IQ", sid, len(body)) + body

header = (struct.pack("<I", 32) + R.to_bytes(32, "little") +
          struct.pack("<IIIIQI", N_WIRES, 0, N_PUB, N_FREE, N_WIRES, N_ROWS))
constraints = b"".join(lc_bytes(a) + lc_bytes(b) + lc_bytes(c) for a, b, c in rows)
labels = b"".join(struct.pack("<Q", i) for i in range(N_WIRES))
with open(f"{out}/c.r1cs", "wb") as f:
    f.write(b"r1cs" + struct.pack("<II", 1, 3) + section(1, header) +
            section(2, constraints) + section(3, labels))

def dot(lc, w):
    return sum(v * w[i] for i, v in lc) % R

for n in (1, 2):
    values = random.Random(100 + n)
    w = [1] + [values.randrange(R) for _ in range(N_PUB + N_FREE)]
    for a, b, c in rows:
        rest = dot(c[:-1], w)
        w.append((dot(a, w) * dot(b, w) - rest) % R)
    body = b"".join(v.to_bytes(32, "little") for v in w)
    with open(f"{out}/w{n}.wtns", "wb") as f:
        f.write(b"wtns" + struct.pack("<II", 2, 2) +
                section(1, struct.pack("<I", 32) + R.to_bytes(32, "little") +
                        struct.pack("<I", len(w))) +
                section(2, body))
EOF
else
    echo "NOTE: no python3: one circuit from cuzk gen, and both assignments hold its one witness"
    step "circuit and witness (cuzk gen)" "$cuzk" gen --curve bls12381 --constraints 400 \
        --public 3 --seed 21 "$work/c.r1cs" "$work/w1.wtns"
    cp "$work/w1.wtns" "$work/w2.wtns"
fi

step "development .params" "$cuzk" setup --seed 3 "$work/c.r1cs" "$work/c.params" --vk "$work/c.vk"
for k in 1 2; do
    step "a$k.asgn" "$cuzk" assign "$work/c.r1cs" "$work/w$k.wtns" "$work/a$k.asgn" \
        --inputs-out "$work/in$k.json"
    if grep -q "does not satisfy" "$work/step.log"; then
        echo "FAIL: witness $k does not satisfy the circuit"
        sed 's/^/  | /' "$work/step.log"
        exit 1
    fi
done
# The fixtures must be right before the crate is judged by them.
step "cuzk's own proofs of a1.asgn, a2.asgn" "$cuzk" prove --params "$work/c.params" \
    --assignment "$work/a1.asgn" --assignment "$work/a2.asgn" \
    --out "$work/ref.bin" --inputs-out "$work/ref_in.json"
step "cuzk verify of them" "$cuzk" verify --vk "$work/c.params" --inputs "$work/ref_in.json" \
    --proof "$work/ref.bin"
if cmp -s "$work/in1.json" "$work/in2.json"; then
    echo "NOTE: a1.asgn and a2.asgn have the same public inputs"
fi

echo "cargo test: $cargo, CUZK_LIB_DIR=$lib_dir"
CUZK_LIB_DIR="$lib_dir" CUZK_SUPRASEAL_FIXTURES="$work" CUZK_BIN="$cuzk" \
    "$cargo" test --offline --manifest-path "$manifest" --target-dir "$target_dir"
