#!/usr/bin/env bash
# cuzkd's journal across crashes and restarts, over real HTTP:
#   kill -9 in the middle of a job of eight partitions; the restarted daemon
#   reloads the key, resumes the job under the same id, proves only the
#   partitions that had no journaled result, and its proofs verify; a job
#   that was done and one that was cancelled before the crash keep their
#   state and result; a torn last journal line and a job file without a
#   complete submit record are tolerated;
#   SIGTERM drains: new work gets 503, the running partition finishes and is
#   journaled, queued work stays, the daemon exits 0; the next start
#   finishes it; an evicted key is not reloaded.
#   tests/daemon/test_restart.sh CUZKD CUZK
. "$(dirname "$0")/lib.sh"

fx=$work/fx
mkdir -p "$fx"
# "big": a partition of ~0.3 s on 2 threads, so that it outlasts the requests sent
# meanwhile: the drain check below sends its POST after SIGTERM and needs the daemon
# still draining (with 6,000 constraints a loaded machine once missed it). That is
# 40,000 constraints on the scalar kernels and 100,000 on AVX-512 IFMA (0.12 s at 40,000).
big=40000
case $("$CUZK" --version) in *ifma*) big=100000 ;; esac
{
    "$CUZK" gen --curve bn128 --constraints $big --public 2 --seed 41 "$fx/c.r1cs" "$fx/w.wtns" &&
        "$CUZK" setup --seed 9 "$fx/c.r1cs" "$fx/k.zkey" --vk "$fx/vk.json" &&
        "$CUZK" gen --curve bn128 --constraints 300 --public 1 --seed 42 "$fx/s.r1cs" "$fx/s.wtns" &&
        "$CUZK" setup --seed 10 "$fx/s.r1cs" "$fx/s.zkey" --vk "$fx/svk.json"
} >"$work/fixtures.log" 2>&1
check "fixtures" $? "$(tail -n 3 "$work/fixtures.log")"
journal=$work/journal
log=$work/cuzkd.log
eight=$(for _ in 1 2 3 4 5 6 7 8; do printf '{"path":"%s"},' "$fx/w.wtns"; done)
records() { grep -c '"op":"partition"' "$journal/jobs/$1.job" 2>/dev/null; }

# ---- kill -9 in the middle of a job ----------------------------------------------
start_daemon "$log" --allow "$fx" --journal "$journal" --workers 1 --threads 2 --trusted-keys yes
check "cuzkd starts with a journal" $? "$(tail -n 3 "$log")"
api POST /v1/keys "{\"name\":\"big\",\"path\":\"$fx/k.zkey\"}"
api POST /v1/keys "{\"name\":\"small\",\"path\":\"$fx/s.zkey\"}"
"$CUZK" submit --key small --witness "$fx/s.wtns" --id before --wait >/dev/null
check "a job done before the crash" $?
api POST /v1/proofs "{\"key\":\"big\",\"id\":\"crash-1\",\"witness\":[${eight%,}]}"
[ "$HTTP" = 202 ]
check "a job of eight partitions accepted" $? "$HTTP $BODY"
api POST /v1/proofs "{\"key\":\"small\",\"id\":\"gone\",\"witness\":{\"path\":\"$fx/s.wtns\"}}"
"$CUZK" cancel gone >/dev/null
check "a job cancelled before the crash" $?
# up to 60 s: a partition takes well under a second alone, several under the
# sanitizers on a loaded machine; the kill comes as soon as two are on disk
for _ in $(seq 1 3000); do
    [ "$(records crash-1)" -ge 2 ] && break
    sleep 0.02
done
kill -9 "$DPID"
wait "$DPID" 2>/dev/null
DPID=""
k=$(records crash-1)
! grep -q '"op":"end"' "$journal/jobs/crash-1.job" && [ "$k" -ge 2 ] && [ "$k" -lt 8 ]
check "killed with $k of 8 partitions journaled, no end record" $?

# a crash in the middle of an append leaves a torn line; an unacknowledged
# job leaves a file without a complete submit record
printf '{"op":"partition","index":7,"proof_js' >>"$journal/jobs/crash-1.job"
printf '{"op":"submit","id":"torn","key' >"$journal/jobs/torn.job"

start_daemon "$log" --allow "$fx" --journal "$journal" --workers 1 --threads 2 --trusted-keys yes
check "cuzkd restarts" $? "$(tail -n 5 "$log")"
api GET /v1/keys
printf '%s' "$BODY" | grep -q '"name":"big"' && printf '%s' "$BODY" | grep -q '"name":"small"'
check "the keys are reloaded" $? "$BODY"
out=$("$CUZK" wait crash-1 --timeout 300 --proof "$work/p.json" --public "$work/pub.json" --json)
check "crash-1 completes under the same id" $? "$(printf '%s' "$out" | head -n 20)"
printf '%s' "$out" | grep -q '"done": 8'
check "with all eight partitions" $?
[ "$("$CUZK" verify "$fx/vk.json" "$work/pub.0.json" "$work/p.0.json")" = OK ] &&
    [ "$("$CUZK" verify "$fx/vk.json" "$work/pub.7.json" "$work/p.7.json")" = OK ]
check "partition 0 (from before the crash) and 7 (after) verify" $?
api GET /v1/status
[ "$(jnum partitions_done)" = $((8 - k)) ]
check "only the $((8 - k)) partitions without a journaled result were proven again" $? \
    "partitions_done $(jnum partitions_done)"
! grep -qv '}$' "$journal/jobs/crash-1.job"
check "the torn record was cut off: every journal line is a whole record" $?
api GET /v1/proofs/before
[ "$(jstr state)" = done ] && printf '%s' "$BODY" | grep -q '"pi_a"'
check "the job done before the crash is still done, with its proof" $? "$BODY"
api GET /v1/proofs/gone
[ "$(jstr state)" = cancelled ]
check "the cancelled job is still cancelled" $? "$BODY"
api GET /v1/proofs/torn
[ "$HTTP" = 404 ] && [ ! -e "$journal/jobs/torn.job" ]
check "a job file without a complete submit record is dropped" $? "$HTTP"
grep -q 'torn.job: no complete submit record' "$log"
check "and the log says so" $?

# ---- SIGTERM drains -------------------------------------------------------------------
api POST /v1/proofs "{\"key\":\"big\",\"id\":\"drain-1\",\"witness\":[${eight%,}]}"
api POST /v1/proofs "{\"key\":\"small\",\"id\":\"queued-1\",\"witness\":{\"path\":\"$fx/s.wtns\"}}"
for _ in $(seq 1 400); do
    [ "$(records drain-1)" -ge 1 ] && break
    sleep 0.01
done
kill -TERM "$DPID"
got503=1
for _ in $(seq 1 100); do
    api POST /v1/proofs "{\"key\":\"small\",\"witness\":{\"path\":\"$fx/s.wtns\"}}"
    [ "$HTTP" = 503 ] && [ "$(jstr code)" = draining ] && got503=0 && break
    [ "$HTTP" = 000 ] && break
done
check "while draining, new work gets 503 draining" $got503 "$HTTP $BODY"
wait "$DPID"
rc=$?
DPID=""
check "SIGTERM: exit 0 after the drain" $rc "$(tail -n 3 "$log")"
grep -q 'drained: 2 jobs left queued in the journal' "$log"
check "the log counts the two jobs left in the journal" $? "$(grep drained "$log" | tail -n 1)"
d=$(records drain-1)
! grep -q '"op":"end"' "$journal/jobs/drain-1.job" && [ "$d" -ge 1 ] && [ "$d" -lt 8 ]
check "drain-1 stopped at a partition boundary ($d of 8 journaled)" $?

start_daemon "$log" --allow "$fx" --journal "$journal" --workers 1 --threads 2 --trusted-keys yes
check "cuzkd starts again" $? "$(tail -n 5 "$log")"
api GET /v1/proofs/drain-1?wait=300
[ "$(jstr state)" = done ] && printf '%s' "$BODY" | grep -q '"progress":{"done":8,"total":8}'
check "drain-1 completes after the restart" $? "$BODY"
api GET /v1/proofs/queued-1?wait=300
[ "$(jstr state)" = done ]
check "the job that was queued at SIGTERM completes" $? "$BODY"
api DELETE /v1/keys/small
check "evict a key" $([ "$HTTP" = 200 ]; echo $?) "$HTTP $BODY"
stop_daemon
start_daemon "$log" --allow "$fx" --journal "$journal" --workers 1 --threads 2 --trusted-keys yes
api GET /v1/keys
! printf '%s' "$BODY" | grep -q '"name":"small"' && printf '%s' "$BODY" | grep -q '"name":"big"'
check "an evicted key is not reloaded; the others are" $? "$BODY"
api GET /v1/proofs/crash-1
[ "$(jstr state)" = done ]
check "ids stay valid across restarts" $? "$BODY"
stop_daemon
check "exit 0" $?
finish
