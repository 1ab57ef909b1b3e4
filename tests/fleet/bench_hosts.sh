#!/usr/bin/env bash
# The fleet's throughput with 1, 2 and 3 hosts on this machine
# (docs/PERFORMANCE.md, "the fleet"): each host one CPU worker of one thread,
# on a throwaway PostgreSQL cluster (tests/fleet/lib.sh; fsync on, as a real
# database runs); for each count of hosts a new database, JOBS jobs of PARTS
# partitions submitted at once through the hosts in turn, and the partitions
# per second from the first partition's start to the last one's end (the
# database's clock). Not a test: a benchmark, run by hand.
#   tests/fleet/bench_hosts.sh CUZKD CUZK [small|mid] [JOBS] [PARTS]
#   small: BN254, 300 constraints (a few ms a proof); mid: the fault test's
#   circuit (about 0.25 s a proof)
. "$(dirname "$0")/lib.sh"
size=${3:-small}
jobs=${4:-60}
parts=${5:-5}
fleet_fixtures || { echo "fixtures failed: $(tail -n 3 "$work/fixtures.log")"; exit 1; }
fx=bn
[ "$size" = mid ] && fx=mid
pg_start || exit 1
pg_ctl_stop && as_pg "$pg_bin/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w -t 60 \
    -o "-k $pgdir -h 127.0.0.1 -p $PGPORT_FLEET -c max_connections=200" start >/dev/null || exit 1
echo "hosts partitions seconds partitions/s per-host-scaling load"
base=""
for n in 1 2 3; do
    new_db "bench$n"
    names=()
    for i in $(seq 1 $n); do
        names+=("H$n$i")
        start_host "H$n$i" --allow "$FX" --devices cpu --workers 1 --threads 1 --trusted-keys yes \
            --preload "$fx=zkey:$FX/$fx/k.zkey" || { echo "host did not start"; exit 1; }
    done
    ready() {
        on "${names[0]}" GET /v1/fleet
        [ "$HTTP" = 200 ] && [ "$(jq_py "sum('$fx' in h['keys'] for h in j['hosts'])")" = "$n" ]
    }
    wait_for 60 ready || { echo "keys not ready"; exit 1; }
    w="{\"path\":\"$FX/$fx/w.wtns\"}"
    all=$(for _ in $(seq 1 "$parts"); do printf '%s,' "$w"; done)
    : >"$work/b.cfg"
    for j in $(seq 0 $((jobs - 1))); do
        [ "$j" -gt 0 ] && echo next >>"$work/b.cfg"
        printf 'url = "%s/v1/proofs"\ndata = "%s"\n-o /dev/null\n' "${HURL[${names[$((j % n))]}]}" \
            "$(printf '{"key":"%s","witness":[%s]}' "$fx" "${all%,}" | sed 's/"/\\"/g')" >>"$work/b.cfg"
    done
    curl -s -Z --parallel-max 8 -K "$work/b.cfg" 2>/dev/null
    total=$((jobs * parts))
    finished() { [ "$(sql "bench$n" "SELECT count(*) FROM cuzk.partitions WHERE state = 'done'")" = "$total" ]; }
    wait_for 900 finished || { echo "not done"; exit 1; }
    secs=$(sql "bench$n" "SELECT extract(epoch FROM max(finished_at) - min(started_at)) FROM cuzk.partitions")
    rate=$("$PY" -c "print(round($total / $secs, 2))")
    [ -z "$base" ] && base=$rate
    scaling=$("$PY" -c "print(round($rate / ($base * $n), 3))")
    echo "$n $total $secs $rate $scaling $(cut -d' ' -f1-3 /proc/loadavg)"
    for h in "${names[@]}"; do stop_host "$h" >/dev/null; done
done
