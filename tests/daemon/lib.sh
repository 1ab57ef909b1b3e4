# Helpers for the cuzkd tests, sourced by tests/daemon/test_*.sh:
#   . "$(dirname "$0")/lib.sh" CUZKD_BINARY CUZK_BINARY
# Every test starts its own cuzkd on 127.0.0.1 with port 0 (the kernel picks a
# free one; the daemon logs it) and talks to it over real HTTP with curl and
# with the `cuzk submit/status/wait/cancel` client. One line per check; the
# test exits 1 when any check failed.
set -uo pipefail

CUZKD=$1
CUZK=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
SNARKJS="$root/node_modules/.bin/snarkjs"

if ! command -v curl >/dev/null; then
    echo "SKIP: curl is not installed (scripts/deps.sh installs it)"
    exit 77
fi

work=$(mktemp -d)
DPID=""
cleanup() {
    if [ -n "$DPID" ] && kill -0 "$DPID" 2>/dev/null; then
        kill -9 "$DPID" 2>/dev/null
        wait "$DPID" 2>/dev/null
    fi
    rm -rf "$work"
}
trap cleanup EXIT

failures=0
skipped=0
check() { # check NAME STATUS(0 = pass) [DETAIL]
    if [ "$2" -eq 0 ]; then
        echo "PASS $1"
    else
        echo "FAIL $1${3:+ ($3)}"
        failures=$((failures + 1))
    fi
}

# skip NAME REASON: checks that cannot run here; the test then ends with
# exit 77 (ctest: Skipped) unless a check failed, so that they do not vanish
# into a pass.
skip() {
    echo "SKIP $1 ($2)"
    skipped=$((skipped + 1))
}

finish() {
    if [ $failures -ne 0 ] && [ -n "${log:-}" ] && [ -f "$log" ]; then
        echo "--- the end of cuzkd's log:"
        tail -n 40 "$log"
    fi
    if [ $failures -ne 0 ]; then
        echo "$failures check(s) failed"
        exit 1
    fi
    if [ $skipped -ne 0 ]; then
        echo "the checks that ran passed; $skipped part(s) skipped"
        exit 77
    fi
    echo "all checks passed"
    exit 0
}

# start_daemon LOG ARGS...: starts cuzkd with ARGS (plus --listen 127.0.0.1:0
# unless ARGS has --listen), waits until it listens; sets DPID, PORT, U.
start_daemon() {
    local log=$1
    shift
    local listen=(--listen 127.0.0.1:0)
    case " $* " in *" --listen "*) listen=() ;; esac
    local before=0
    [ -f "$log" ] && before=$(wc -l <"$log")
    "$CUZKD" "${listen[@]}" "$@" >>"$log" 2>&1 &
    DPID=$!
    PORT=""
    local line=""
    for _ in $(seq 1 400); do
        line=$(tail -n +$((before + 1)) "$log" | grep -o 'listening on [^ ]*')
        [ -n "$line" ] && break
        kill -0 "$DPID" 2>/dev/null || break
        sleep 0.05
    done
    case "$line" in
    "listening on 127.0.0.1:"*)
        PORT=${line##*:}
        U="http://127.0.0.1:$PORT"
        export CUZK_SERVER="127.0.0.1:$PORT"
        ;;
    esac
    [ -n "$line" ]
}

# stop_daemon [SIGNAL]: signals cuzkd (TERM) and waits; returns its exit status.
stop_daemon() {
    kill -"${1:-TERM}" "$DPID" 2>/dev/null
    wait "$DPID"
    local rc=$?
    DPID=""
    return $rc
}

# api METHOD PATH [BODY | @FILE] [CURL ARGS...]: sets HTTP (the status) and
# BODY (the answer).
api() {
    local method=$1 path=$2
    shift 2
    local data=()
    if [ $# -gt 0 ]; then
        data=(-H 'Content-Type: application/json' --data-binary "$1")
        shift
    fi
    HTTP=$(curl -s -o "$work/answer" -w '%{http_code}' -X "$method" "${data[@]}" "$@" "$U$path")
    BODY=$(cat "$work/answer" 2>/dev/null)
}

# jstr NAME: the first "NAME":"value" string in BODY (compact JSON).
jstr() {
    printf '%s' "$BODY" | grep -o "\"$1\":\"[^\"]*\"" | head -n 1 | sed 's/^"[^"]*":"//; s/"$//'
}

# jnum NAME: the first "NAME":number in BODY.
jnum() {
    printf '%s' "$BODY" | grep -o "\"$1\":[0-9.e+-]*" | head -n 1 | sed 's/^"[^"]*"://'
}

# expect_error NAME STATUS CODE: checks HTTP and the error code of BODY.
expect_error() {
    [ "$HTTP" = "$2" ] && [ "$(jstr code)" = "$3" ]
    check "$1: $2 $3" $? "got $HTTP: $BODY"
}

# wait_job ID [SECONDS]: long-polls until the job ends; BODY holds it.
wait_job() {
    local t=${2:-60}
    api GET "/v1/proofs/$1?wait=$t"
}

# Small circuits and INSECURE development keys (cuzk gen + cuzk setup):
#   bn/   BN254, 300 constraints, 3 public: k.zkey, vk.json, w.wtns,
#         other.wtns (same shape, another circuit's: does not satisfy),
#         short.wtns (truncated)
#   bls/  BLS12-381, 200 constraints, 2 public: k.zkey, vk.json, w.wtns
#   bp/   BLS12-381 bellperson: k.params, k.vk, a.asgn, in.json
#   slow/ BN254, k.zkey, w.wtns: about 0.1 s a proof, 4000 constraints on the scalar
#         kernels, 20000 on AVX-512 IFMA (`cuzk --version` names the path)
make_fixtures() {
    local d=$work/fx slow=4000
    case $("$CUZK" --version) in *ifma*) slow=20000 ;; esac
    mkdir -p "$d/bn" "$d/bls" "$d/bp" "$d/slow"
    FX=$d
    {
        "$CUZK" gen --curve bn128 --constraints 300 --public 3 --seed 11 "$d/bn/c.r1cs" "$d/bn/w.wtns" &&
            "$CUZK" gen --curve bn128 --constraints 300 --public 3 --seed 12 "$d/bn/o.r1cs" \
                "$d/bn/other.wtns" &&
            "$CUZK" setup --seed 5 "$d/bn/c.r1cs" "$d/bn/k.zkey" --vk "$d/bn/vk.json" &&
            head -c 700 "$d/bn/w.wtns" >"$d/bn/short.wtns" &&
            "$CUZK" gen --curve bls12381 --constraints 200 --public 2 --seed 21 "$d/bls/c.r1cs" \
                "$d/bls/w.wtns" &&
            "$CUZK" setup --seed 6 "$d/bls/c.r1cs" "$d/bls/k.zkey" --vk "$d/bls/vk.json" &&
            "$CUZK" setup --seed 7 "$d/bls/c.r1cs" "$d/bp/k.params" --vk "$d/bp/k.vk" &&
            "$CUZK" assign "$d/bls/c.r1cs" "$d/bls/w.wtns" "$d/bp/a.asgn" --inputs-out "$d/bp/in.json" &&
            "$CUZK" gen --curve bn128 --constraints $slow --public 2 --seed 31 "$d/slow/c.r1cs" \
                "$d/slow/w.wtns" &&
            "$CUZK" setup --seed 8 "$d/slow/c.r1cs" "$d/slow/k.zkey" --vk "$d/slow/vk.json"
    } >"$work/fixtures.log" 2>&1
}

have_snarkjs() {
    [ -x "$SNARKJS" ] && command -v node >/dev/null
}
