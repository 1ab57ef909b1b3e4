# Helpers for the fleet's tests (tests/fleet/test_*.sh), on top of the daemon
# tests' tests/daemon/lib.sh (check, skip, finish, api, fixtures):
#   . "$(dirname "$0")/lib.sh" CUZKD_BINARY CUZK_BINARY
# pg_start makes a throwaway PostgreSQL cluster in a temporary directory, on
# 127.0.0.1 and a free port, as an unprivileged user (initdb refuses root: as
# root the cluster runs as the system user postgres), and the EXIT trap stops
# it whatever happens. Without PostgreSQL's programs (initdb, pg_ctl,
# postgres, psql) or a user to run them as, the test is skipped: exit 77.
# Every wait polls its condition against a deadline; none is a fixed sleep.
. "$(dirname "${BASH_SOURCE[0]}")/../daemon/lib.sh"

# The system's python3 when there is one: a version manager's shim (pyenv)
# costs a fraction of a second a call.
PY=$(command -v /usr/bin/python3 || command -v python3)

# PostgreSQL's programs: pg_config's directory, else the newest of Debian's.
pg_bin=""
for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V) "$(pg_config --bindir 2>/dev/null)"; do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && pg_bin=$d
done
psql_bin=$(command -v psql || true)
[ -z "$psql_bin" ] && [ -n "$pg_bin" ] && [ -x "$pg_bin/psql" ] && psql_bin=$pg_bin/psql
if [ -z "$pg_bin" ] || [ -z "$psql_bin" ]; then
    echo "SKIP: PostgreSQL is not installed (initdb, pg_ctl, postgres, psql; scripts/deps.sh installs postgresql)"
    exit 77
fi
pg_user=""
if [ "$(id -u)" -eq 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
        echo "SKIP: running as root without the user postgres to run a PostgreSQL cluster as"
        exit 77
    fi
    pg_user=postgres
fi

# as_pg CMD...: runs CMD as the cluster's user.
as_pg() {
    if [ -n "$pg_user" ]; then
        setpriv --reuid="$pg_user" --regid="$(id -g "$pg_user")" --init-groups -- "$@"
    else
        "$@"
    fi
}

pgdir=""
HOST_NAMES=()
declare -A HPID HURL HLOG
fleet_cleanup() {
    for h in "${HOST_NAMES[@]}"; do
        local pid=${HPID[$h]:-}
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            kill -CONT "$pid" 2>/dev/null
            kill -9 "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
        fi
    done
    if [ -n "$pgdir" ] && [ -f "$pgdir/data/postmaster.pid" ]; then
        as_pg "$pg_bin/pg_ctl" -D "$pgdir/data" -m immediate -w stop >/dev/null 2>&1
    fi
    [ -n "$pgdir" ] && rm -rf "$pgdir"
    # CUZK_TEST_KEEP=1: the logs and files stay, for a failure's autopsy.
    if [ -n "${CUZK_TEST_KEEP:-}" ]; then
        echo "kept: $work"
        return
    fi
    cleanup
}
trap fleet_cleanup EXIT

# free_port: a TCP port nothing listens on now.
free_port() {
    "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# pg_start: initdb and start the cluster; sets PGURL (the database postgres).
# fsync is off: the cluster lives for one test and is stopped cleanly or thrown
# away, and the tests' many small commits run at memory speed on a shared disk.
pg_start() {
    pgdir=$(mktemp -d)
    chmod 755 "$pgdir"
    [ -n "$pg_user" ] && chown "$pg_user" "$pgdir"
    PGPORT_FLEET=$(free_port)
    as_pg "$pg_bin/initdb" -D "$pgdir/data" -U cuzk --auth=trust -E UTF8 >"$pgdir/initdb.log" 2>&1 ||
        { cat "$pgdir/initdb.log"; return 1; }
    pg_ctl_start
    PGURL="postgresql://cuzk@127.0.0.1:$PGPORT_FLEET/postgres"
}

pg_ctl_start() {
    as_pg "$pg_bin/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w -t 60 \
        -o "-k $pgdir -h 127.0.0.1 -p $PGPORT_FLEET -c fsync=off -c max_connections=200" \
        start >/dev/null
}

pg_ctl_stop() {
    as_pg "$pg_bin/pg_ctl" -D "$pgdir/data" -m fast -w -t 60 stop >/dev/null
}

# sql DB STATEMENT: psql's unaligned rows ('|' between columns) on stdout.
sql() {
    "$psql_bin" -X -q -A -t -v ON_ERROR_STOP=1 -d "postgresql://cuzk@127.0.0.1:$PGPORT_FLEET/$1" -c "$2"
}

# new_db NAME: an empty database; sets DBURL to it.
new_db() {
    sql postgres "CREATE DATABASE $1" >/dev/null && DBURL="postgresql://cuzk@127.0.0.1:$PGPORT_FLEET/$1"
}

# wait_for SECONDS CMD...: polls CMD every 0.1 s until it succeeds (0) or the
# deadline passes (1).
wait_for() {
    local deadline=$(($(date +%s%N) + $1 * 1000000000))
    shift
    until "$@"; do
        [ "$(date +%s%N)" -ge "$deadline" ] && return 1
        sleep 0.1
    done
}

# launch_host NAME ARGS...: starts a cuzkd of the fleet at DBURL named NAME
# (its own journal $work/j-NAME, log $work/NAME.log) on a free port, without
# waiting (HOST_CONFIG=FILE: cuzkd --config FILE ARGS instead). Sets
# HPID[NAME].
declare -A HSTART
launch_host() {
    local name=$1
    shift
    local log=$work/$name.log
    HSTART[$name]=0
    [ -f "$log" ] && HSTART[$name]=$(wc -l <"$log")
    HLOG[$name]=$log
    case " ${HOST_NAMES[*]} " in *" $name "*) ;; *) HOST_NAMES+=("$name") ;; esac
    if [ -n "${HOST_CONFIG:-}" ]; then # HOST_CONFIG=FILE: the file says it all
        "$CUZKD" --config "$HOST_CONFIG" "$@" >>"$log" 2>&1 &
    else
        "$CUZKD" --listen 127.0.0.1:0 --fleet "$DBURL" --fleet-host-name "$name" \
            --journal "$work/j-$name" "$@" >>"$log" 2>&1 &
    fi
    HPID[$name]=$!
    HURL[$name]=""
}

# await_host NAME: waits until the host launched last under NAME listens (30 s
# at most); sets HURL[NAME]. Non-zero when it did not start.
await_host() {
    local name=$1 line=""
    for _ in $(seq 1 600); do
        line=$(tail -n +$((HSTART[$name] + 1)) "${HLOG[$name]}" | grep -o 'listening on 127.0.0.1:[0-9]*')
        [ -n "$line" ] && break
        kill -0 "${HPID[$name]}" 2>/dev/null || break
        sleep 0.05
    done
    [ -n "$line" ] || return 1
    HURL[$name]="http://127.0.0.1:${line##*:}"
}

# start_host NAME ARGS...: launch_host, then await_host.
start_host() {
    launch_host "$@" && await_host "$1"
}

# stop_host NAME [SIGNAL]: signals the host (TERM) and waits; its exit status.
stop_host() {
    kill -"${2:-TERM}" "${HPID[$1]}" 2>/dev/null
    wait "${HPID[$1]}"
    local rc=$?
    HPID[$1]=""
    return $rc
}

# on HOST METHOD PATH [BODY]: api against HOST (HTTP and BODY as api sets them).
on() {
    local h=$1
    shift
    U=${HURL[$h]} api "$@"
}

# metric HOST LINE: the value of the metric line LINE (name and labels) of HOST.
metric() {
    curl -s "${HURL[$1]}/metrics" | awk -v m="$2" '$1 == m { print $2 }'
}

# jq_py EXPR: evaluates the Python expression EXPR with j = the JSON of BODY.
jq_py() {
    printf '%s' "$BODY" | "$PY" -c "import json, sys; j = json.load(sys.stdin); print($1)"
}

# host_log_clean NAME: no error line in the host's log.
host_log_clean() {
    ! grep -q ' error: ' "${HLOG[$1]}"
}

# fleet_fixtures: small circuits and INSECURE development keys (cuzk gen +
# cuzk setup) in $work/fx, FX:
#   bn/   BN254, 300 constraints, 3 public: k.zkey, vk.json, w.wtns; other.zkey
#         (another key of the same circuit: another file for the same name)
#   bp/   BLS12-381 bellperson, 200 constraints: k.params, k.vk, a.asgn
#   mid/  BN254: k.zkey, vk.json, w.wtns: a partition of about 0.25 s on one
#         thread, long beside the fleet's statements (24000 constraints on
#         AVX-512 IFMA, 12000 on the scalar kernels; FLEET_MID=N sets N, as the
#         sanitizer build's ctest does: it proves about ten times slower)
fleet_fixtures() {
    local d=$work/fx mid=12000
    case $("$CUZK" --version) in *ifma*) mid=24000 ;; esac
    mid=${FLEET_MID:-$mid}
    mkdir -p "$d/bn" "$d/bp" "$d/mid"
    FX=$d
    {
        "$CUZK" gen --curve bn128 --constraints 300 --public 3 --seed 11 "$d/bn/c.r1cs" "$d/bn/w.wtns" &&
            "$CUZK" setup --seed 5 "$d/bn/c.r1cs" "$d/bn/k.zkey" --vk "$d/bn/vk.json" &&
            "$CUZK" setup --seed 6 "$d/bn/c.r1cs" "$d/bn/other.zkey" &&
            "$CUZK" gen --curve bls12381 --constraints 200 --public 2 --seed 21 "$d/bp/c.r1cs" \
                "$d/bp/w.wtns" &&
            "$CUZK" setup --seed 7 "$d/bp/c.r1cs" "$d/bp/k.params" --vk "$d/bp/k.vk" &&
            "$CUZK" assign "$d/bp/c.r1cs" "$d/bp/w.wtns" "$d/bp/a.asgn" --inputs-out "$d/bp/in.json" &&
            "$CUZK" gen --curve bn128 --constraints "$mid" --public 2 --seed 31 "$d/mid/c.r1cs" \
                "$d/mid/w.wtns" &&
            "$CUZK" setup --seed 8 "$d/mid/c.r1cs" "$d/mid/k.zkey" --vk "$d/mid/vk.json"
    } >"$work/fixtures.log" 2>&1
}

# verify_jobs DIR HOST:ID:FIXTURE...: writes each job's proofs, as HOST
# answers GET /v1/proofs/ID, under DIR/ID and verifies every one with cuzk
# verify against FIXTURE's key (bn, mid: one call a partition; bp: one call
# for the job's proofs together). Prints the jobs that failed; 0 when none.
verify_jobs() {
    local dir=$1
    shift
    local args=()
    for spec in "$@"; do
        local h=${spec%%:*} rest=${spec#*:}
        args+=("${HURL[$h]}" "${rest%%:*}" "${rest#*:}")
    done
    "$PY" - "$dir" "${args[@]}" >"$dir.list" <<'PYEOF' || return 1
import base64, json, os, sys, urllib.request
d = sys.argv[1]
a = sys.argv[2:]
for url, id, fx in zip(a[0::3], a[1::3], a[2::3]):
    j = json.load(urllib.request.urlopen("%s/v1/proofs/%s" % (url, id)))
    out = os.path.join(d, id)
    os.makedirs(out, exist_ok=True)
    if j["state"] != "done":
        print(id, fx, "notdone", 0)
        continue
    r = j["result"]
    if j["format"] == "params":
        open(out + "/proof.bin", "wb").write(base64.b64decode(r["proof"]))
        json.dump(r["public"], open(out + "/inputs.json", "w"))
        print(id, fx, "params", j["progress"]["total"])
    else:
        pairs = r["proofs"] if "proofs" in r else [r]
        for i, p in enumerate(pairs):
            json.dump(p["proof"], open("%s/p%d.json" % (out, i), "w"))
            json.dump(p["public"], open("%s/pub%d.json" % (out, i), "w"))
        print(id, fx, "zkey", len(pairs))
PYEOF
    local failed="" id fx kind n
    while read -r id fx kind n; do
        local ok=0
        if [ "$kind" = params ]; then
            "$CUZK" verify --vk "$FX/$fx/k.vk" --inputs "$dir/$id/inputs.json" \
                --proof "$dir/$id/proof.bin" >/dev/null 2>&1 || ok=1
        elif [ "$kind" = zkey ]; then
            for i in $(seq 0 $((n - 1))); do
                [ "$("$CUZK" verify "$FX/$fx/vk.json" "$dir/$id/pub$i.json" "$dir/$id/p$i.json")" = OK ] || ok=1
            done
        else
            ok=1
        fi
        [ $ok = 0 ] || failed="$failed $id"
    done <"$dir.list"
    [ -z "$failed" ] || { echo "$failed"; return 1; }
}
