#!/usr/bin/env bash
# A fleet of three cuzkd hosts on one PostgreSQL (docs/FLEET.md) through
# its faults, with leases of 2 s (a heartbeat every 0.67 s) and partitions of
# a 2000-constraint circuit:
#   kill -9 of a host while it holds leases: after the expiry the others prove
#   its partitions; every job id stays valid on the other hosts; the restarted
#   host's journaled leases meet the fencing token, and no result changes;
#   SIGSTOP of a host past its expiry, then SIGCONT: its late completions are
#   rejected by the fencing token and counted, and the results stay the others';
#   PostgreSQL stopped and started in the middle of a run: the hosts keep
#   proving what they hold, their results wait in their journals (new work is
#   refused with 503 meanwhile), they reconnect, and the run completes with
#   nothing lost.
#   tests/fleet/test_faults.sh CUZKD CUZK
. "$(dirname "$0")/lib.sh"

fleet_fixtures
check "fixtures" $? "$(tail -n 3 "$work/fixtures.log")"
pg_start
check "a throwaway PostgreSQL on 127.0.0.1:$PGPORT_FLEET" $? "$(tail -n 5 "$pgdir/server.log" 2>/dev/null)"
new_db faults
# The key preloaded by every host: registered by the first whose loader gets
# to it, checked against that registration by the others.
host_args=(--allow "$FX" --workers 1 --threads 1 --fleet-lease-seconds 2 --preload "mid=zkey:$FX/mid/k.zkey")
for h in A B C; do
    start_host $h "${host_args[@]}" || echo "host $h did not start: $(tail -n 3 "${HLOG[$h]}")"
done
all_ready() {
    on A GET /v1/fleet
    [ "$HTTP" = 200 ] && [ "$(jq_py 'sum("mid" in h["keys"] for h in j["hosts"])')" = 3 ]
}
wait_for 60 all_ready
check "three hosts preload a key: one registers it, every one serves it" $? "$BODY"

wtns="{\"path\":\"$FX/mid/w.wtns\"}"
# submit PREFIX N: N jobs of 3 partitions PREFIX-0 .. through A, B, C in turn.
submit() {
    local hosts=(A B C) bad=0
    for i in $(seq 0 $(($2 - 1))); do
        on "${hosts[$((i % 3))]}" POST /v1/proofs "{\"id\":\"$1-$i\",\"key\":\"mid\",\"witness\":[$wtns,$wtns,$wtns]}"
        [ "$HTTP" = 202 ] || bad=1
    done
    return $bad
}
# done_jobs PREFIX N: whether the N jobs are done.
done_jobs() {
    [ "$(sql faults "SELECT count(*) FROM cuzk.jobs WHERE id LIKE '$1-%' AND state = 'done'")" = "$2" ]
}
# verify_prefix PREFIX N HOST: every proof of the N jobs, read through HOST.
verify_prefix() {
    local specs=()
    for i in $(seq 0 $(($2 - 1))); do specs+=("$3:$1-$i:mid"); done
    mkdir -p "$work/v-$1"
    verify_jobs "$work/v-$1" "${specs[@]}"
}
# results PREFIX: each partition's host and a digest of its proof, in order.
results() {
    sql faults "SELECT job_id, idx, host, md5(proof_json) FROM cuzk.partitions
                WHERE job_id LIKE '$1-%' AND state = 'done' ORDER BY job_id, idx"
}
leases_of() {
    sql faults "SELECT job_id || '.' || idx FROM cuzk.partitions WHERE lease_host = '$1' AND state = 'leased' ORDER BY 1"
}
holds() { [ -n "$(leases_of "$1")" ]; }
# status_num HOST PYEXPR: a number of HOST's /v1/status (j = its JSON).
status_num() {
    on "$1" GET /v1/status
    jq_py "$2"
}

# ---- kill -9 while holding leases ----------------------------------------------------------
submit kill 6
check "6 jobs of 3 partitions" $?
wait_for 60 holds C
check "C holds leases" $?
kill -9 "${HPID[C]}"
wait "${HPID[C]}" 2>/dev/null
HPID[C]=""
held=$(leases_of C)
[ -n "$held" ]
check "killed with leases held: $(echo $held)" $?
wait_for 120 done_jobs kill 6
check "after the expiry the others prove them: every job done" $? \
    "$(sql faults "SELECT job_id, idx, state, lease_host FROM cuzk.partitions WHERE state <> 'done'")"
bad=""
for p in $held; do
    row=$(sql faults "SELECT host, attempts FROM cuzk.partitions WHERE job_id || '.' || idx = '$p'")
    case $row in "A|2" | "B|2") ;; *) bad="$bad $p:$row" ;; esac
done
[ -z "$bad" ]
check "C's partitions were proven by A or B at their second lease" $? "$bad"
[ $(($(metric A 'cuzkd_fleet_leases_total{result="reclaimed"}') + $(metric B 'cuzkd_fleet_leases_total{result="reclaimed"}'))) -ge 1 ]
check "and A or B counted the expired leases they took back" $?
bad=$(verify_prefix kill 6 A)
check "every job id stays valid: all 18 proofs read through A verify" $? "$bad"
before=$(results kill)
start_host C "${host_args[@]}"
check "C restarts on its journal" $? "$(tail -n 3 "${HLOG[C]}")"
grep -q 'lease(s) restored from the journal' "${HLOG[C]}"
check "and takes up the leases it journaled" $? "$(grep fleet "${HLOG[C]}" | tail -n 3)"
settled() {
    [ "$(status_num C 'j["fleet"]["leases_held"] + j["fleet"]["results_pending"]')" = 0 ] &&
        [ "$(status_num C 'j["fleet"]["completions"]["rejected"] + j["fleet"]["leases"]["lost"]')" -ge 1 ]
}
wait_for 30 settled
check "its stale leases end: refused by the fencing token or found lost, none left" $? "$BODY"
[ "$(results kill)" = "$before" ]
check "no result changed" $?

# ---- SIGSTOP past the expiry -----------------------------------------------------------------
submit stop 6
check "6 more jobs" $?
rejected0=$(metric C 'cuzkd_fleet_completions_total{result="rejected"}')
lost0=$(metric C 'cuzkd_fleet_leases_total{result="lost"}')
stopped_ok=1 snapshot=""
for attempt in 1 2 3; do
    # Stopped while a partition is running on C, so that it completes late.
    running() { [ "$(status_num C 'j["queue"]["partitions_running"]')" = 1 ] && holds C; }
    wait_for 60 running || break
    kill -STOP "${HPID[C]}"
    held=$(leases_of C)
    taken_over() {
        [ -n "$held" ] && [ "$(sql faults "SELECT count(*) FROM cuzk.partitions WHERE job_id || '.' || idx IN ($(printf "'%s'," $held | sed 's/,$//')) AND state = 'done' AND host <> 'C'")" = "$(echo $held | wc -w)" ]
    }
    wait_for 60 taken_over
    took=$?
    snapshot=$(results stop)
    kill -CONT "${HPID[C]}"
    [ $took = 0 ] || { echo "attempt $attempt: C's leases were not taken over"; continue; }
    late() { [ "$(metric C 'cuzkd_fleet_completions_total{result="rejected"}')" -gt "$rejected0" ]; }
    if wait_for 20 late; then
        stopped_ok=0
        break
    fi
    echo "attempt $attempt: the partition had ended before SIGSTOP; again"
done
check "SIGSTOP past the expiry, SIGCONT: C's late completion is rejected by the fencing token and counted" $stopped_ok
[ "$(metric C 'cuzkd_fleet_leases_total{result="lost"}')" -gt "$lost0" ]
check "and its heartbeat found the lease lost" $?
changed() {
    # the partitions of the snapshot, as they are now
    results stop | grep -Fx -f <(printf '%s\n' "$snapshot") | wc -l
}
[ "$(changed)" = "$(printf '%s\n' "$snapshot" | grep -c .)" ]
check "the results of the partitions taken over are unchanged" $?
wait_for 120 done_jobs stop 6
check "every job done" $?
bad=$(verify_prefix stop 6 B)
check "and all 18 proofs verify" $? "$bad"

# ---- PostgreSQL stopped and started in the middle of a run ---------------------------------
submit pg 8
check "8 more jobs" $?
midrun() {
    [ "$(sql faults "SELECT count(*) FROM cuzk.partitions WHERE job_id LIKE 'pg-%' AND state = 'done'")" -ge 3 ] &&
        [ "$(sql faults "SELECT count(*) FROM cuzk.partitions WHERE state = 'leased'")" -ge 1 ]
}
wait_for 60 midrun
check "the run is under way" $?
pg_ctl_stop
check "PostgreSQL stopped" $?
pending() {
    local n=0
    for h in A B C; do
        n=$((n + $(status_num $h 'j["fleet"]["results_pending"]')))
    done
    [ $n -ge 1 ]
}
wait_for 30 pending
check "the hosts go on proving: results wait in their journals" $?
on A POST /v1/proofs "{\"key\":\"mid\",\"witness\":$wtns}"
expect_error "no job is accepted meanwhile" 503 fleet_unavailable
on B GET /v1/status
[ "$HTTP" = 200 ] && [ "$(jq_py 'j["fleet"]["connected"]')" = False ]
check "and /v1/status says the database is away" $? "$BODY"
pg_ctl_start
check "PostgreSQL started again" $?
wait_for 120 done_jobs pg 8
check "the run completes" $? "$(sql faults "SELECT job_id, idx, state FROM cuzk.partitions WHERE state <> 'done'")"
reconnected() {
    for h in A B C; do
        grep -q 'fleet: lost the database' "${HLOG[$h]}" && grep -q 'fleet: connected again' "${HLOG[$h]}" &&
            [ "$(metric $h cuzkd_fleet_disconnects_total)" -ge 1 ] || return 1
    done
}
wait_for 30 reconnected
check "every host lost the database and connected again" $?
drained() {
    local n=0
    for h in A B C; do
        n=$((n + $(status_num $h 'j["fleet"]["results_pending"] + j["fleet"]["leases_held"]')))
    done
    [ $n = 0 ]
}
wait_for 30 drained
check "no result is left waiting" $?
[ "$(sql faults "SELECT count(*) FROM cuzk.partitions WHERE job_id LIKE 'pg-%' AND state = 'done'")" = 24 ]
check "nothing lost: 24 partitions done" $?
bad=$(verify_prefix pg 8 C)
check "and all 24 proofs verify" $? "$bad"

bad=""
for h in A B C; do
    stop_host $h || bad="$bad $h"
done
[ -z "$bad" ]
check "SIGTERM: every host exits 0" $? "$bad"
finish
