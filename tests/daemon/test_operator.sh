#!/usr/bin/env bash
# cuzkd for an operator, over real HTTP on 127.0.0.1:
#   cuzkd --version, --help, -h (exit 0) and with nothing at all (usage, exit 2);
#   the clients' --help and -h (exit 0, every option listed);
#   the journal lock: a second cuzkd on the same journal refuses to start,
#   naming the journal and the PID that holds it, and starts once it is free;
#   paths: a missing witness, assignment or key file is "PATH: no such file"
#   from the client and from the daemon; relative paths are made absolute by
#   the client;
#   GET /v1/proofs: jobs in every state, the state filter, pages that follow
#   one another without overlap, bad arguments;
#   GET /healthz: 200 while serving, 503 while draining;
#   the log: one line per accepted, started, done, failed and cancelled job and
#   per key load and eviction; --log-level (and log_level in the file);
#   --log-format json (every line one object with time, level, event, job);
#   TIMELINE lines at debug level only;
#   cuzk status, cuzk status ID and cuzk submit --wait for people, --json for
#   programs.
#   tests/daemon/test_operator.sh CUZKD CUZK
. "$(dirname "$0")/lib.sh"
CUZK=$(cd "$(dirname "$CUZK")" && pwd)/$(basename "$CUZK") # the tests below change directory

# ---- cuzkd's own options --------------------------------------------------------------------
out=$(timeout 10 "$CUZKD" --version 2>&1)
rc=$?
ver=$("$CUZK" --version | head -n 1 | awk '{print $2}')
[ $rc -eq 0 ] && [ -n "$ver" ] && printf '%s' "$out" | grep -qF "cuzkd $ver"
check "cuzkd --version: the version, exit 0" $? "exit $rc: $out (cuzk says $ver)"
for h in --help -h; do
    out=$(timeout 10 "$CUZKD" $h 2>/dev/null)
    rc=$?
    [ $rc -eq 0 ] && printf '%s' "$out" | grep -q '^usage: cuzkd' &&
        printf '%s' "$out" | grep -q -- '--log-level' && printf '%s' "$out" | grep -q -- '--journal'
    check "cuzkd $h: the usage on stdout, exit 0" $? "exit $rc"
done
out=$(timeout 10 "$CUZKD" 2>&1)
rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'usage: cuzkd' && ! printf '%s' "$out" | grep -q 'listening'
check "cuzkd with no arguments: the usage, exit 2, no daemon" $? "exit $rc: $out"

# ---- the clients' help ------------------------------------------------------------------------
opts_submit="--key --key-path --format --witness --wtns-inline --assignment --priority --id --wait --timeout --proof --public --json --server --token-file"
opts_status="--json --server --token-file"
opts_wait="--timeout --proof --public --json --server --token-file"
opts_cancel="--server --token-file"
for cmd in submit status wait cancel; do
    eval "opts=\$opts_$cmd"
    for h in --help -h; do
        out=$(timeout 10 "$CUZK" $cmd $h 2>/dev/null)
        rc=$?
        missing=""
        for o in $opts; do
            # a here-string, not a pipe: grep -q leaving early would kill the
            # writer with SIGPIPE, which pipefail counts as a miss
            grep -q -- "$o\b" <<<"$out" || missing="$missing $o"
        done
        [ $rc -eq 0 ] && grep -q "^usage: cuzk $cmd" <<<"$out" && [ -z "$missing" ]
        check "cuzk $cmd $h: exit 0, the usage lists every option" $? "exit $rc, missing:$missing"
    done
done

make_fixtures
check "fixtures (cuzk gen, setup, assign)" $? "$(tail -n 5 "$work/fixtures.log")"
# "big": a partition of ~0.3 s on 2 threads (as in test_restart.sh), so that the
# drain below lasts long enough for /healthz to be asked while it runs.
big=40000
case $("$CUZK" --version) in *ifma*) big=100000 ;; esac
mkdir -p "$FX/big"
{
    "$CUZK" gen --curve bn128 --constraints $big --public 2 --seed 41 "$FX/big/c.r1cs" "$FX/big/w.wtns" &&
        "$CUZK" setup --seed 9 "$FX/big/c.r1cs" "$FX/big/k.zkey" --vk "$FX/big/vk.json"
} >"$work/big.log" 2>&1
check "the big fixture" $? "$(tail -n 3 "$work/big.log")"

# ---- the journal lock -------------------------------------------------------------------------
journal=$work/journal
log=$work/cuzkd.log
start_daemon "$log" --allow "$FX" --journal "$journal" --workers 1 --threads 2
check "cuzkd starts on the journal" $? "$(tail -n 5 "$log")"
first=$DPID
[ "$(cat "$journal/lock" 2>/dev/null)" = "$first" ]
check "the journal's lock file holds the daemon's PID" $? "$(cat "$journal/lock" 2>&1)"
out=$(timeout 20 "$CUZKD" --listen 127.0.0.1:0 --allow "$FX" --journal "$journal" 2>&1)
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && printf '%s' "$out" | grep -qF "$journal" &&
    printf '%s' "$out" | grep -q "pid $first\b" && ! printf '%s' "$out" | grep -q 'listening on'
check "a second cuzkd on the same journal refuses, naming it and pid $first" $? "exit $rc: $out"
kill -0 "$first" 2>/dev/null
check "the first cuzkd still runs" $?

# ---- paths --------------------------------------------------------------------------------------
api POST /v1/keys "{\"name\":\"bn\",\"path\":\"$FX/bn/k.zkey\"}"
out=$(cd "$work" && "$CUZK" submit --key bn --witness nothere.wtns 2>&1)
rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'nothere.wtns: no such file' &&
    ! printf '%s' "$out" | grep -q absolute
check "cuzk submit, a missing witness: 'PATH: no such file', exit 2" $? "exit $rc: $out"
out=$("$CUZK" submit --key bp --assignment "$FX/bp/missing.asgn" 2>&1)
rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -qF "$FX/bp/missing.asgn: no such file"
check "cuzk submit, a missing assignment: no such file" $? "exit $rc: $out"
out=$(cd "$work" && "$CUZK" submit --key other --key-path missing.zkey --witness "$FX/bn/w.wtns" 2>&1)
rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'missing.zkey: no such file'
check "cuzk submit, a missing --key-path: no such file" $? "exit $rc: $out"
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"path\":\"$FX/bn/gone.wtns\"}}"
[ "$HTTP" = 400 ] && [ "$(jstr code)" = bad_path ] && printf '%s' "$BODY" | grep -qF "$FX/bn/gone.wtns: no such file"
check "the daemon: an absolute path that does not exist is 'no such file'" $? "$HTTP $BODY"
out=$(cd "$FX/bn" && "$CUZK" submit --key rel --key-path k.zkey --witness w.wtns --wait --timeout 60 2>&1)
check "relative --key-path and --witness are made absolute by the client" $? "$out"
api GET /v1/keys/rel
[ "$(jstr path)" = "$FX/bn/k.zkey" ]
check "the daemon got the absolute key path" $? "$BODY"

# ---- jobs in every state ------------------------------------------------------------------------
api POST /v1/keys "{\"name\":\"slow\",\"path\":\"$FX/slow/k.zkey\"}"
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"ok-1\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
wait_job ok-1
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"bad-1\",\"witness\":{\"path\":\"$FX/bn/other.wtns\"}}"
wait_job bad-1
[ "$(jstr state)" = failed ]
check "a failing job fails" $? "$BODY"
# run-1 (60 partitions, several seconds) holds the one worker while the listing is
# checked; wait-1 queues behind it. Both are cancelled afterwards.
many=$(for _ in $(seq 1 60); do printf '{"path":"%s"},' "$FX/slow/w.wtns"; done)
api POST /v1/proofs "{\"key\":\"slow\",\"id\":\"run-1\",\"witness\":[${many%,}]}"
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"wait-1\",\"priority\":\"low\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"gone-1\",\"priority\":\"low\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
"$CUZK" cancel gone-1 >/dev/null
for _ in $(seq 1 200); do
    api GET /v1/proofs/run-1
    [ "$(jstr state)" = running ] && break
    sleep 0.02
done

# ---- GET /v1/proofs -------------------------------------------------------------------------------
api GET /v1/proofs
list=$BODY
printf '%s' "$list" | python3 -c '
import json, sys
states = {j["id"]: j["state"] for j in json.load(sys.stdin)["jobs"]}
want = {"ok-1": "done", "bad-1": "failed", "run-1": "running", "wait-1": "queued", "gone-1": "cancelled"}
assert all(states.get(k) == v for k, v in want.items()), states
'
check "GET /v1/proofs lists jobs in all five states" $? "$list"
printf '%s' "$list" | python3 -c '
import json, sys
a = json.load(sys.stdin)
run = [j for j in a["jobs"] if j["id"] == "run-1"][0]
assert run["key"] == "slow" and run["priority"] == "normal" and run["partitions"] == 60
assert 0 <= run["partitions_done"] < 60 and run["partitions_running"] == 1
assert run["age_seconds"] >= 0 and run["submitted_at"] > 1.6e9 and run["started_at"] > 1.6e9
bad = [j for j in a["jobs"] if j["id"] == "bad-1"][0]
assert "partition 0" in bad["error"], bad
ids = [j["id"] for j in a["jobs"]]
assert ids.index("gone-1") < ids.index("run-1") < ids.index("ok-1"), ids  # newest first
assert a["next"] is None and a["count"] == len(a["jobs"]) == a["matched"]
'
check "each job: key, priority, partitions, partitions done, age, submitted; newest first" $? "$list"
api GET "/v1/proofs?state=failed"
[ "$HTTP" = 200 ] && [ "$(printf '%s' "$BODY" | grep -o '"id":"[^"]*"' | sort -u)" = '"id":"bad-1"' ]
check "?state=failed: only the failed job" $? "$BODY"
api GET "/v1/proofs?state=queued"
printf '%s' "$BODY" | grep -q '"id":"wait-1"' && ! printf '%s' "$BODY" | grep -q '"state":"done"'
check "?state=queued: the queued job only" $? "$BODY"
api GET "/v1/proofs?state=finished"
expect_error "?state=finished" 400 invalid_request
api GET "/v1/proofs?limit=0"
expect_error "?limit=0" 400 invalid_request
api GET "/v1/proofs?limit=1001"
expect_error "?limit beyond the maximum" 400 invalid_request
api GET "/v1/proofs?cursor=x"
expect_error "?cursor=x" 400 invalid_request
# pages of two: every job once, in the same order as the whole list
seen=""
next="/v1/proofs?limit=2"
pages=0
while [ -n "$next" ] && [ $pages -lt 10 ]; do
    api GET "$next"
    seen="$seen$(printf '%s' "$BODY" | python3 -c 'import json,sys; print(" ".join(j["id"] for j in json.load(sys.stdin)["jobs"]), end=" ")')"
    next=$(printf '%s' "$BODY" | python3 -c 'import json,sys; n=json.load(sys.stdin)["next"]; print(n or "")')
    pages=$((pages + 1))
done
whole=$(printf '%s' "$list" | python3 -c 'import json,sys; print(" ".join(j["id"] for j in json.load(sys.stdin)["jobs"]), end=" ")')
[ "$seen" = "$whole" ] && [ $pages -ge 3 ]
check "?limit=2 pages, following next, give every job once, in order" $? "pages $pages: '$seen' vs '$whole'"
api GET "/v1/proofs?state=done&limit=1"
[ "$(jnum count)" = 1 ] && printf '%s' "$BODY" | grep -q '"next":"/v1/proofs?state=done&limit=1&cursor=[0-9]*"'
check "a filtered page's next keeps the filter" $? "$BODY"

api DELETE /v1/proofs/run-1 # (it may have ended: 409)
api DELETE /v1/proofs/wait-1

# ---- cuzk status for people ---------------------------------------------------------------------
out=$("$CUZK" status 2>&1)
rc=$?
[ $rc -eq 0 ] && ! printf '%s' "$out" | grep -q '^{' && printf '%s' "$out" | grep -q '^  queue  *[0-9]* jobs\? queued' &&
    printf '%s' "$out" | grep -q '^  devices  *cpu' && printf '%s' "$out" | grep -q '^ *slow: zkey' &&
    printf '%s' "$out" | grep -q '^  jobs  *[0-9]* submitted, [0-9]* done, 1 failed, [1-3] cancelled'
check "cuzk status: a readable summary (queue, devices, keys, counters)" $? "$out"
out=$("$CUZK" status --json 2>&1)
printf '%s' "$out" | python3 -c 'import json,sys; a=json.load(sys.stdin); assert "queue" in a and "counters" in a'
check "cuzk status --json: the JSON" $? "$out"
out=$("$CUZK" status ok-1 2>&1)
printf '%s' "$out" | grep -q '^job ok-1: done' && printf '%s' "$out" | grep -q '^  partitions  1 of 1 done' &&
    printf '%s' "$out" | grep -q '^  stages .* msm [0-9.]* s' && printf '%s' "$out" | grep -q '^  key  *bn (zkey), priority normal'
check "cuzk status ID: state, key, partitions done, timings" $? "$out"
out=$("$CUZK" status bad-1 2>&1)
printf '%s' "$out" | grep -q '^  error  *partition 0'
check "cuzk status ID of a failed job: its error" $? "$out"
out=$("$CUZK" submit --key bn --witness "$FX/bn/w.wtns" --id shown-1 --wait --timeout 60 \
    --proof "$work/p.json" --public "$work/pub.json" 2>&1)
rc=$?
[ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | head -n 1 | cut -d' ' -f1-2)" = "shown-1 done" ] &&
    printf '%s' "$out" | grep -qxF "proof   $work/p.json" && printf '%s' "$out" | grep -qxF "public  $work/pub.json" &&
    ! printf '%s' "$out" | grep -q '[{}]' && [ -s "$work/p.json" ]
check "cuzk submit --wait --proof: the id, the state and the paths written, no JSON" $? "$out"
out=$("$CUZK" submit --key bn --witness "$FX/bn/w.wtns" --wait --timeout 60 --json 2>&1)
printf '%s' "$out" | python3 -c 'import json,sys; a=json.load(sys.stdin); assert a["state"] == "done" and "pi_a" in json.dumps(a["result"])'
check "cuzk submit --wait --json: the job's JSON" $? "$out"
out=$("$CUZK" wait ok-1 2>&1)
[ "$(printf '%s' "$out" | cut -d' ' -f1-2)" = "ok-1 done" ]
check "cuzk wait: the id and the state" $? "$out"

# ---- the log ------------------------------------------------------------------------------------
api DELETE /v1/keys/rel
grep -q ' info: job ok-1 accepted (key bn, 1 partition, priority normal)' "$log" &&
    grep -q ' info: job ok-1 started' "$log" && grep -q ' info: job ok-1 done in [0-9.]* s' "$log" &&
    grep -q ' warn: job bad-1 failed after [0-9.]* s: partition 0' "$log" &&
    grep -q ' info: job gone-1 cancelled' "$log" && grep -q ' info: key bn loaded from ' "$log" &&
    grep -q ' info: key rel evicted' "$log"
check "the log: accepted, started, done, failed, cancelled, key loaded and evicted" $? "$(grep -c . "$log") lines"
! grep -q 'TIMELINE' "$log"
check "no TIMELINE lines at level info" $?

# ---- /healthz and the drain -----------------------------------------------------------------------
api GET /healthz
[ "$HTTP" = 200 ] && [ "$(jstr status)" = ok ]
check "GET /healthz: 200 ok while serving" $? "$HTTP $BODY"
# The drain waits for the running partition of a big job.
api POST /v1/keys "{\"name\":\"big\",\"path\":\"$FX/big/k.zkey\"}"
api POST /v1/proofs "{\"key\":\"big\",\"id\":\"big-1\",\"witness\":[{\"path\":\"$FX/big/w.wtns\"},{\"path\":\"$FX/big/w.wtns\"}]}"
for _ in $(seq 1 500); do
    api GET /v1/proofs/big-1
    [ "$(jstr state)" = running ] && break
    sleep 0.02
done
kill -TERM "$DPID"
got=""
for _ in $(seq 1 200); do
    code=$(curl -s -o "$work/health" -w '%{http_code}' "$U/healthz")
    [ "$code" = 503 ] && { got=503; break; }
    [ "$code" = 000 ] && break
done
[ "$got" = 503 ] && grep -q '"status":"draining"' "$work/health"
check "GET /healthz: 503 draining after SIGTERM" $? "last answer $code"
stop_daemon
check "the first cuzkd drains and exits 0" $?
start_daemon "$log" --allow "$FX" --journal "$journal"
check "a cuzkd starts on the journal once it is free" $? "$(tail -n 3 "$log")"
[ "$(cat "$journal/lock")" = "$DPID" ]
check "the lock file holds the new PID" $?
stop_daemon

# ---- levels and JSON lines --------------------------------------------------------------------------
wlog=$work/warn.log
start_daemon "$wlog" --allow "$FX" --log-level warn
api POST /v1/keys "{\"name\":\"bn\",\"path\":\"$FX/bn/k.zkey\"}"
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
wait_job "$(jstr id)"
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"bad-2\",\"witness\":{\"path\":\"$FX/bn/other.wtns\"}}"
wait_job bad-2
stop_daemon
grep -q ' warn: job bad-2 failed' "$wlog" &&
    [ "$(grep -c ' info: ' "$wlog")" = "$(grep -c ' info: listening on ' "$wlog")" ]
check "--log-level warn: the failure; of the info lines, only where it listens" $? "$(cat "$wlog")"

printf '[server]\nlisten = 127.0.0.1:0\nlog_level = debug\nlog_format = json\n' >"$work/log.ini"
out=$("$CUZKD" --config "$work/log.ini" --check-config 2>&1)
printf '%s' "$out" | grep -q '^log_level = debug' && printf '%s' "$out" | grep -q '^log_format = json'
check "log_level and log_format in the configuration file" $? "$out"
out=$(timeout 10 "$CUZKD" --listen 127.0.0.1:0 --log-level verbose 2>&1)
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && printf '%s' "$out" | grep -q 'log_level = verbose: expected error, warn, info or debug'
check "--log-level verbose: refused, naming the levels" $? "exit $rc: $out"
out=$(timeout 10 "$CUZKD" --listen 127.0.0.1:0 --log-format xml 2>&1)
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && printf '%s' "$out" | grep -q 'log_format = xml: expected text or json'
check "--log-format xml: refused" $? "exit $rc: $out"

jlog=$work/json.log
start_daemon "$jlog" --allow "$FX" --config "$work/log.ini"
check "cuzkd starts with log_format = json" $? "$(tail -n 3 "$jlog")"
api POST /v1/keys "{\"name\":\"bn\",\"path\":\"$FX/bn/k.zkey\"}"
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"js-1\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
wait_job js-1
stop_daemon
python3 - "$jlog" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
events = [json.loads(l) for l in lines]  # every line is one JSON object
for e in events:
    assert {"time", "level", "event"} <= e.keys(), e
    assert e["level"] in ("error", "warn", "info", "debug"), e
    assert e["time"].endswith("Z"), e
got = {(e["event"], e.get("job")) for e in events}
for want in [("job.accepted", "js-1"), ("job.started", "js-1"), ("job.done", "js-1")]:
    assert want in got, (want, got)
acc = [e for e in events if e["event"] == "job.accepted"][0]
assert acc["key"] == "bn" and acc["level"] == "info" and "js-1" in acc["message"], acc
load = [e for e in events if e["event"] == "key.loaded"][0]
assert load["key"] == "bn", load
stages = [e for e in events if e["event"] == "stage" and e.get("job") == "js-1"]
assert stages and all(e["level"] == "debug" for e in stages), stages
assert {"msm", "synth"} <= {e["stage"] for e in stages}, stages
assert any(e["event"] == "daemon" and "listening on" in e["message"] for e in events)
EOF
check "--log-format json: one object a line (time, level, event, job, key, message); stages at debug" $? "$(head -n 5 "$jlog")"
finish
