#!/usr/bin/env bash
# A fleet of three cuzkd hosts on one PostgreSQL (docs/FLEET.md), on this
# machine, CPU workers of one thread each, small circuits:
#   two hosts started at once on an empty database: one schema, no error;
#   keys registered through one host with their files' SHA-256, served by all;
#   another file under a registered name refused;
#   100 jobs of 300 partitions, mixed priorities, submitted through the three
#   hosts at once, then a critical job: every job done, every partition leased
#   and its result accepted exactly once (no completion rejected), every proof
#   verified by cuzk verify (one job's by snarkjs too), every job answered by
#   a host it was not submitted to; the critical job done before three
#   quarters of the normal ones at least;
#   a cancel through another host ends the job fleet-wide;
#   rows inserted by another program: the documented INSERT is proven; an
#   unknown key, a missing witness and a path outside the allowed directories
#   fail those jobs with a clear error and nothing else; rows the schema
#   refuses are refused.
#   tests/fleet/test_run.sh CUZKD CUZK
. "$(dirname "$0")/lib.sh"

fleet_fixtures
check "fixtures" $? "$(tail -n 3 "$work/fixtures.log")"
pg_start
check "a throwaway PostgreSQL on 127.0.0.1:$PGPORT_FLEET" $? "$(tail -n 5 "$pgdir/server.log" 2>/dev/null)"
new_db fleet
# A and B may read $work/ab too, C may not (its file allows $FX alone).
mkdir -p "$work/ab"
cp "$FX/mid/k.zkey" "$work/ab/k.zkey"
host_args=(--allow "$FX,$work/ab" --workers 1 --threads 1 --fleet-lease-seconds 3)

# ---- the configuration ----------------------------------------------------------------------
out=$("$CUZKD" --check-config --fleet "postgresql://u:secret@127.0.0.1:1/db" --journal "$work/jx" \
    --allow "$FX" 2>&1)
rc=$?
[ $rc = 0 ] && printf '%s' "$out" | grep -qx 'database = postgresql://u:\*\*\*@127.0.0.1:1/db' &&
    ! printf '%s' "$out" | grep -q secret
check "--check-config shows [fleet] without the database's password" $? "$rc $out"
out=$("$CUZKD" --check-config --fleet "$PGURL" --allow "$FX" 2>&1)
[ $? = 1 ] && printf '%s' "$out" | grep -q 'a journal is needed'
check "a fleet needs a journal" $? "$out"
out=$("$CUZKD" --check-config --fleet "host=x port" --journal "$work/jx" --allow "$FX" 2>&1)
[ $? = 1 ] && printf '%s' "$out" | grep -q 'fleet = host=x port: '
check "a connection string that does not parse is named" $? "$out"
out=$("$CUZKD" --check-config --fleet "$PGURL" --journal "$work/jx" --allow "$FX" \
    --fleet-lease-seconds 0.5 2>&1)
[ $? = 1 ] && printf '%s' "$out" | grep -q 'lease_seconds = 0.5: at least 1 second'
check "a lease shorter than a second is refused" $? "$out"

# ---- two hosts at once on an empty database ---------------------------------------------
launch_host A "${host_args[@]}"
launch_host B "${host_args[@]}"
await_host A
ra=$?
await_host B
rb=$?
[ $ra -eq 0 ] && [ $rb -eq 0 ]
check "two hosts start at once on an empty database" $? "$(tail -n 3 "$work/A.log" "$work/B.log")"
[ "$(sql fleet 'SELECT count(*), min(version), max(version) FROM cuzk.schema_migrations')" = "1|1|1" ]
check "one schema: each migration applied once" $? "$(sql fleet 'SELECT * FROM cuzk.schema_migrations')"
host_log_clean A && host_log_clean B
check "neither logged an error" $? "$(grep -h ' error: ' "$work/A.log" "$work/B.log")"
# The third from a configuration file's [fleet] section.
cat >"$work/c.conf" <<EOF
[server]
listen = 127.0.0.1:0
[engine]
workers = 1
threads = 1
[paths]
allow = $FX
journal = $work/j-C
[fleet]
database = $DBURL
host_name = C
lease_seconds = 3
EOF
HOST_CONFIG=$work/c.conf start_host C
check "a third host joins, configured by [fleet] in its file" $? "$(tail -n 3 "$work/C.log")"

"$CUZKD" --listen 127.0.0.1:0 --fleet "$DBURL" --fleet-host-name A --journal "$work/j-dup" \
    --allow "$FX" >"$work/dup.log" 2>&1
[ $? = 1 ] && grep -q 'the host name A is taken by another cuzkd of the fleet' "$work/dup.log"
check "a second host under a live host's name refuses to start" $? "$(tail -n 3 "$work/dup.log")"

# ---- keys ------------------------------------------------------------------------------
on A POST /v1/keys "{\"name\":\"bn\",\"path\":\"$FX/bn/k.zkey\"}"
[ "$HTTP" = 201 ] && [ "$(jq_py 'j["fleet"]["sha256"]')" = "$(sha256sum "$FX/bn/k.zkey" | cut -d' ' -f1)" ]
check "a key registered through A with its file's SHA-256" $? "$HTTP $BODY"
on B POST /v1/keys "{\"name\":\"bp\",\"path\":\"$FX/bp/k.params\"}"
[ "$HTTP" = 201 ] && [ "$(jq_py 'j["fleet"]["registered_by"]')" = B ]
check "a params key registered through B" $? "$HTTP $BODY"
on C POST /v1/keys "{\"name\":\"bn\",\"path\":\"$FX/bn/other.zkey\"}"
expect_error "another file under a registered name" 409 key_conflict
printf '%s' "$BODY" | grep -q "$(sha256sum "$FX/bn/k.zkey" | cut -d' ' -f1)"
check "the refusal names the registered digest" $? "$BODY"
on C GET /v1/keys
! printf '%s' "$BODY" | grep -q '"name":"bn"'
check "and C did not keep the other file loaded" $? "$BODY"

# ---- 100 jobs of 300 partitions through the three hosts ----------------------------------
# 40 zkey jobs of 2 partitions, 40 params jobs of 4 and 20 of 3; priorities
# low, normal, high in turn; all sent at once (curl --parallel), so that the
# queue is deep when the critical job comes.
wtns="{\"path\":\"$FX/bn/w.wtns\"}"
asgn="{\"assignment_path\":\"$FX/bp/a.asgn\"}"
prios=(low normal high)
hosts=(A B C)
: >"$work/submit.cfg"
for i in $(seq 0 99); do
    h=${hosts[$((i % 3))]}
    p=${prios[$((i % 3))]}
    if [ $i -lt 40 ]; then
        body="{\"id\":\"job-$i\",\"key\":\"bn\",\"priority\":\"$p\",\"witness\":[$wtns,$wtns]}"
    elif [ $i -lt 80 ]; then
        body="{\"id\":\"job-$i\",\"key\":\"bp\",\"priority\":\"$p\",\"witness\":[$asgn,$asgn,$asgn,$asgn]}"
    else
        body="{\"id\":\"job-$i\",\"key\":\"bp\",\"priority\":\"$p\",\"witness\":[$asgn,$asgn,$asgn]}"
    fi
    [ $i -gt 0 ] && echo next >>"$work/submit.cfg"
    printf 'url = "%s/v1/proofs"\ndata = %s\nheader = "Content-Type: application/json"\n-o /dev/null\n-w "%%{http_code}\\n"\n' \
        "${HURL[$h]}" "$(printf '%s' "$body" | "$PY" -c 'import json, sys; print(json.dumps(sys.stdin.read()))')" >>"$work/submit.cfg"
done
codes=$(curl -s -Z --parallel-max 12 -K "$work/submit.cfg" 2>"$work/curl.err")
[ "$(printf '%s\n' "$codes" | grep -c '^202$')" = 100 ]
check "100 jobs accepted through A, B and C at once" $? "$(printf '%s\n' "$codes" | sort | uniq -c)"
on B POST /v1/proofs "{\"id\":\"critical\",\"key\":\"bn\",\"priority\":\"critical\",\"witness\":$wtns}"
check "a critical job submitted last" $([ "$HTTP" = 202 ]; echo $?) "$HTTP $BODY"
[ "$(sql fleet "SELECT count(*) FROM cuzk.partitions")" = 301 ]
check "301 partitions in the table" $?

all_done() { [ "$(sql fleet "SELECT count(*) FROM cuzk.jobs WHERE state = 'done'")" = 101 ]; }
wait_for 300 all_done
check "every job done" $? "$(sql fleet 'SELECT state, count(*) FROM cuzk.jobs GROUP BY state')"
[ "$(sql fleet "SELECT count(*) FROM cuzk.partitions WHERE state = 'done' AND attempts = 1 AND host IN ('A', 'B', 'C')")" = 301 ]
check "every partition done at its first lease, by a host of the fleet" $? \
    "$(sql fleet 'SELECT state, attempts, host, count(*) FROM cuzk.partitions GROUP BY 1, 2, 3')"
leased=0 accepted=0 rejected=0 busy=0
for h in A B C; do
    l=$(metric $h 'cuzkd_fleet_leases_total{result="leased"}')
    acc=$(metric $h 'cuzkd_fleet_completions_total{result="accepted"}')
    rej=$(metric $h 'cuzkd_fleet_completions_total{result="rejected"}')
    leased=$((leased + l)) accepted=$((accepted + acc)) rejected=$((rejected + rej))
    [ "$acc" -gt 0 ] && busy=$((busy + 1))
done
[ $leased = 301 ] && [ $accepted = 301 ] && [ $rejected = 0 ]
check "each partition leased once and its result accepted once (leases $leased, accepted $accepted, rejected $rejected)" $?
[ $busy = 3 ]
check "all three hosts proved" $? "$busy"

# Every proof, each job read through a host it was not submitted to.
specs=()
for i in $(seq 0 99); do
    fx=bn
    [ $i -ge 40 ] && fx=bp
    specs+=("${hosts[$(((i + 1) % 3))]}:job-$i:$fx")
done
mkdir -p "$work/v"
bad=$(verify_jobs "$work/v" "${specs[@]}" A:critical:bn)
check "all 301 proofs verified by cuzk verify, read through other hosts" $? "failed:$bad"
if have_snarkjs; then
    "$SNARKJS" groth16 verify "$FX/bn/vk.json" "$work/v/job-0/pub1.json" "$work/v/job-0/p1.json" >"$work/sv.log" 2>&1
    check "snarkjs groth16 verify accepts a fleet proof" $? "$(tail -n 3 "$work/sv.log")"
else
    skip "snarkjs groth16 verify of a fleet proof" "$SNARKJS or node missing; run npm ci for it"
fi
later=$(sql fleet "SELECT count(*) FROM cuzk.jobs WHERE priority = 'normal'
    AND finished_at > (SELECT finished_at FROM cuzk.jobs WHERE id = 'critical')")
normal=$(sql fleet "SELECT count(*) FROM cuzk.jobs WHERE priority = 'normal'")
[ $((4 * later)) -gt $((3 * normal)) ]
check "the critical job ended before $later of the $normal normal jobs (more than three quarters)" $?

# A witness sent inline (base64) is stored in the table and proven by whichever host leases it.
b64=$(base64 -w0 "$FX/bn/w.wtns")
on C POST /v1/proofs "{\"id\":\"inline\",\"key\":\"bn\",\"witness\":[{\"wtns_base64\":\"$b64\"},$wtns]}"
on A GET "/v1/proofs/inline?wait=60"
[ "$(jstr state)" = done ] && verify_jobs "$work/v" B:inline:bn >/dev/null
check "an inline witness travels through the table and its proofs verify" $? "$BODY"

# ---- the fleet's view --------------------------------------------------------------------------
on C GET /v1/fleet
[ "$HTTP" = 200 ] && [ "$(jq_py 'sorted(h["name"] for h in j["hosts"] if h["alive"])')" = "['A', 'B', 'C']" ] &&
    [ "$(jq_py 'j["queue"]["partitions"]["done"]')" = 303 ] &&
    [ "$(jq_py 'sorted(k["name"] for k in j["keys"])')" = "['bn', 'bp']" ]
check "GET /v1/fleet: three live hosts, the queue, the keys" $? "$BODY"
on A GET /v1/status
[ "$(jq_py 'j["fleet"]["connected"] and j["fleet"]["host"] == "A"')" = True ]
check "/v1/status has the fleet section" $? "$BODY"
curl -s "${HURL[B]}/metrics" | grep -q '^cuzkd_fleet_host_up{host="C"} 1$'
check "/metrics shows every host" $?
CUZK_SERVER=${HURL[A]#http://} "$CUZK" status >"$work/status.txt" 2>&1 &&
    grep -q '^  fleet       host A on postgresql://cuzk@127.0.0.1:[0-9]*/fleet, connected' "$work/status.txt"
check "cuzk status has the fleet's line" $? "$(cat "$work/status.txt")"
on A GET "/v1/proofs?limit=50"
[ "$(jq_py 'j["count"], j["matched"]')" = "50 102" ] && [ "$(jq_py 'j["jobs"][0]["id"]')" = inline ]
check "GET /v1/proofs lists the fleet's jobs, newest first" $? "$BODY"

# ---- a key one host cannot serve ------------------------------------------------------------------
on A POST /v1/keys "{\"name\":\"ab\",\"path\":\"$work/ab/k.zkey\"}"
check "a key registered at a path C may not read" $([ "$HTTP" = 201 ]; echo $?) "$HTTP $BODY"
mw="{\"path\":\"$FX/mid/w.wtns\"}"
for i in 0 1 2 3 4 5; do
    on C POST /v1/proofs "{\"id\":\"ab-$i\",\"key\":\"ab\",\"witness\":[$mw,$mw]}"
done
check "its jobs accepted through C" $([ "$HTTP" = 202 ]; echo $?) "$HTTP $BODY"
refused() {
    on C GET /v1/status
    [ "$(jq_py '"ab" in j["fleet"]["refusals"] and "allowed" in j["fleet"]["refusals"]["ab"]')" = True ]
}
wait_for 60 refused
check "C refuses the key, saying why in its status" $? "$BODY"
ab_done() { [ "$(sql fleet "SELECT count(*) FROM cuzk.jobs WHERE id LIKE 'ab-%' AND state = 'done'")" = 6 ]; }
wait_for 120 ab_done
check "A and B prove its jobs" $? "$(sql fleet "SELECT state, count(*) FROM cuzk.jobs WHERE id LIKE 'ab-%' GROUP BY 1")"
[ "$(sql fleet "SELECT count(*) FROM cuzk.partitions WHERE job_id LIKE 'ab-%' AND (host NOT IN ('A', 'B') OR attempts <> 1)")" = 0 ]
check "none of its partitions leased by C" $? \
    "$(sql fleet "SELECT job_id, idx, host, attempts FROM cuzk.partitions WHERE job_id LIKE 'ab-%'")"
# C's row says so from its next heartbeat on (every lease_seconds / 3)
fleet_shows_refusal() {
    on A GET /v1/fleet
    [ "$(jq_py '[h["refusals"].get("ab", "") != "" for h in j["hosts"]]')" = "[False, False, True]" ]
}
wait_for 30 fleet_shows_refusal
check "GET /v1/fleet shows C's refusal" $? "$BODY"

# ---- cancel through another host --------------------------------------------------------------
many=$(for _ in $(seq 1 40); do printf '%s,' "$wtns"; done)
on A POST /v1/proofs "{\"id\":\"to-cancel\",\"key\":\"bn\",\"priority\":\"low\",\"witness\":[${many%,}]}"
on B DELETE /v1/proofs/to-cancel
[ "$HTTP" = 200 ] && [ "$(jstr state)" = cancelled ]
check "a job submitted through A cancelled through B" $? "$HTTP $BODY"
on C DELETE /v1/proofs/to-cancel
expect_error "cancelling it again" 409 job_ended
no_leases() { [ "$(sql fleet "SELECT count(*) FROM cuzk.partitions WHERE state IN ('queued', 'leased')")" = 0 ]; }
wait_for 30 no_leases
check "no partition of it left queued or leased" $? \
    "$(sql fleet "SELECT state, count(*) FROM cuzk.partitions WHERE job_id = 'to-cancel' GROUP BY 1")"

# ---- rows inserted by another program ----------------------------------------------------------
sql fleet "BEGIN;
INSERT INTO cuzk.jobs (id, key, priority, partitions) VALUES ('from-sql', 'bn', 'high', 2);
INSERT INTO cuzk.partitions (job_id, idx, witness_path)
    SELECT 'from-sql', i, '$FX/bn/w.wtns' FROM generate_series(0, 1) AS i;
INSERT INTO cuzk.jobs (id, key, partitions) VALUES ('bad-key', 'nope', 1);
INSERT INTO cuzk.partitions (job_id, idx, witness_path) VALUES ('bad-key', 0, '$FX/bn/w.wtns');
INSERT INTO cuzk.jobs (id, key, partitions) VALUES ('bad-witness', 'bn', 1);
INSERT INTO cuzk.partitions (job_id, idx, witness_path) VALUES ('bad-witness', 0, '$FX/bn/none.wtns');
INSERT INTO cuzk.jobs (id, key, partitions) VALUES ('outside', 'bn', 1);
INSERT INTO cuzk.partitions (job_id, idx, witness_path) VALUES ('outside', 0, '/etc/passwd');
COMMIT;" >/dev/null
check "rows inserted by another program" $?
ended() { [ "$(sql fleet "SELECT count(*) FROM cuzk.jobs WHERE id IN ('from-sql', 'bad-key', 'bad-witness', 'outside') AND state IN ('done', 'failed')")" = 4 ]; }
wait_for 60 ended
check "all four end" $? "$(sql fleet "SELECT id, state, error FROM cuzk.jobs WHERE state NOT IN ('done')")"
verify_jobs "$work/v" C:from-sql:bn >/dev/null
check "the job of the documented INSERT is proven" $?
on B GET /v1/proofs/bad-key
[ "$(jstr state)" = failed ] && printf '%s' "$BODY" | grep -q 'key nope is not registered in the fleet'
check "an unknown key fails its job, saying so" $? "$BODY"
on B GET /v1/proofs/bad-witness
[ "$(jstr state)" = failed ] && printf '%s' "$BODY" | grep -q "partition 0: .*none.wtns.*attempt 3 of 3"
check "a missing witness fails its job after three attempts, naming the file" $? "$BODY"
on B GET /v1/proofs/outside
[ "$(jstr state)" = failed ] && printf '%s' "$BODY" | grep -q '/etc/passwd.*allowed'
check "a path outside the allowed directories fails its job, naming it" $? "$BODY"
bad=""
for h in A B C; do
    curl -sf "${HURL[$h]}/healthz" >/dev/null || bad="$bad $h"
done
[ -z "$bad" ] && [ "$(sql fleet "SELECT count(*) FROM cuzk.jobs WHERE state = 'failed'")" = 3 ]
check "and nothing else: the hosts serve, no other job failed" $? "$bad"
sql fleet "INSERT INTO cuzk.jobs (id, key, priority, partitions) VALUES ('x', 'bn', 'urgent', 1)" 2>"$work/e1"
grep -q 'jobs_priority_check' "$work/e1"
check "the schema refuses an unknown priority" $? "$(cat "$work/e1")"
sql fleet "BEGIN; INSERT INTO cuzk.jobs (id, key, partitions) VALUES ('y', 'bn', 2);
    INSERT INTO cuzk.partitions (job_id, idx, witness_path) VALUES ('y', 0, '$FX/bn/w.wtns'); COMMIT;" 2>"$work/e2"
grep -q 'declares 2 partition(s) but 1 row(s)' "$work/e2" && [ -z "$(sql fleet "SELECT id FROM cuzk.jobs WHERE id = 'y'")" ]
check "and a job without its partitions" $? "$(cat "$work/e2")"

bad=""
for h in A B C; do
    stop_host $h || bad="$bad $h"
done
[ -z "$bad" ] && [ "$(sql fleet "SELECT string_agg(state, ',' ORDER BY name) FROM cuzk.hosts")" = stopped,stopped,stopped ]
check "SIGTERM: every host exits 0 and its row says stopped" $? "$bad"
finish
