#!/usr/bin/env bash
# cuzkd's API over real HTTP on 127.0.0.1:
#   keys: load (201), load again (200, never reloaded), a conflicting name
#   (409), list, get, evict refused while in use (409), evict (200);
#   proofs: submit by path, poll, fetch the result; the client writes it as
#   proof.json/public.json that `cuzk verify` and `snarkjs groth16 verify`
#   accept (the snarkjs check is skipped, visibly, without node_modules);
#   a base64 witness; a job of several partitions; two keys in use at once;
#   a bellperson .params key with an .asgn assignment, its 192-byte proof
#   checked by `cuzk verify --vk`; a client id submitted twice is one job;
#   cancel (a queued job and a running one: its partition is discarded);
#   priorities (a critical job submitted behind many normal ones finishes
#   first); /v1/status sections, /metrics, /v1/timeline, TIMELINE log lines (debug);
#   cuzk wait's progress line on a terminal, and none off it or with --quiet.
#   tests/daemon/test_api.sh CUZKD CUZK
. "$(dirname "$0")/lib.sh"

make_fixtures
check "fixtures (cuzk gen, setup, assign)" $? "$(tail -n 5 "$work/fixtures.log")"
log=$work/cuzkd.log
start_daemon "$log" --allow "$FX" --workers 1 --threads 2 --log-level debug
check "cuzkd starts and listens" $? "$(tail -n 5 "$log")"

# ---- keys ----------------------------------------------------------------------
api POST /v1/keys "{\"name\":\"bn\",\"path\":\"$FX/bn/k.zkey\",\"format\":\"zkey\"}"
[ "$HTTP" = 201 ] && [ "$(jstr tier)" = host ] && [ "$(jstr format)" = zkey ]
check "POST /v1/keys loads a zkey: 201, tier host" $? "$HTTP $BODY"
api POST /v1/keys "{\"name\":\"bn\",\"path\":\"$FX/bn/k.zkey\"}"
[ "$HTTP" = 200 ]
check "the same key again: 200 (already loaded)" $? "$HTTP $BODY"
api POST /v1/keys "{\"name\":\"bn\",\"path\":\"$FX/bls/k.zkey\"}"
expect_error "the name with another path" 409 key_conflict
api POST /v1/keys "{\"name\":\"bls\",\"path\":\"$FX/bls/k.zkey\"}"
[ "$HTTP" = 201 ]
check "a BLS12-381 zkey (format from the extension): 201" $? "$HTTP $BODY"
api POST /v1/keys "{\"name\":\"bp\",\"path\":\"$FX/bp/k.params\",\"format\":\"params\"}"
[ "$HTTP" = 201 ] && [ "$(jstr format)" = params ]
check "a bellperson .params key: 201" $? "$HTTP $BODY"
api POST /v1/keys "{\"name\":\"slow\",\"path\":\"$FX/slow/k.zkey\"}"
api GET /v1/keys
[ "$HTTP" = 200 ] && [ "$(printf '%s' "$BODY" | grep -o '"name"' | wc -l)" -eq 4 ]
check "GET /v1/keys lists four keys" $? "$BODY"
api GET /v1/keys/bp
[ "$HTTP" = 200 ] && [ "$(jstr name)" = bp ] && [ "$(jnum use_count)" = 0 ]
check "GET /v1/keys/bp: use count 0" $? "$BODY"

# ---- one proof, end to end -------------------------------------------------------
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
id=$(jstr id)
[ "$HTTP" = 202 ] && [ -n "$id" ]
check "POST /v1/proofs: 202 with an id" $? "$HTTP $BODY"
wait_job "$id"
[ "$(jstr state)" = done ] && printf '%s' "$BODY" | grep -q '"pi_a"' &&
    printf '%s' "$BODY" | grep -q '"protocol":"groth16"' && printf '%s' "$BODY" | grep -q '"msm":'
check "GET /v1/proofs/ID?wait: done, the proof, per-stage timings" $? "$BODY"
"$CUZK" wait "$id" --proof "$work/p.json" --public "$work/pub.json" >/dev/null
check "cuzk wait writes proof.json and public.json" $?
out=$("$CUZK" verify "$FX/bn/vk.json" "$work/pub.json" "$work/p.json" 2>&1)
[ "$out" = OK ]
check "cuzk verify accepts the daemon's proof" $? "$out"
"$CUZK" prove "$FX/bn/k.zkey" "$FX/bn/w.wtns" "$work/p_cli.json" "$work/pub_cli.json" >/dev/null 2>&1
cmp -s "$work/pub.json" "$work/pub_cli.json" && [ "$(head -c 12 "$work/p.json")" = "$(head -c 12 "$work/p_cli.json")" ]
check "public.json byte-identical to cuzk prove's, proof.json in its layout" $?
if have_snarkjs; then
    "$SNARKJS" groth16 verify "$FX/bn/vk.json" "$work/pub.json" "$work/p.json" >"$work/sv.log" 2>&1 &&
        grep -q 'OK' "$work/sv.log"
    check "snarkjs groth16 verify accepts the daemon's proof" $? "$(tail -n 3 "$work/sv.log")"
else
    echo "SKIP: snarkjs groth16 verify ($SNARKJS or node missing; run npm ci for it)"
fi

# ---- the client; base64; partitions; a second key --------------------------------
out=$("$CUZK" submit --key bls --wtns-inline "$FX/bls/w.wtns" --wait --proof "$work/bp.json" \
    --public "$work/bpub.json" 2>&1)
check "cuzk submit --wtns-inline --wait (base64 witness, BLS12-381)" $? "$out"
out=$("$CUZK" verify "$FX/bls/vk.json" "$work/bpub.json" "$work/bp.json" 2>&1)
[ "$out" = OK ]
check "the BLS12-381 proof verifies" $? "$out"
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":[{\"path\":\"$FX/bn/w.wtns\"},{\"path\":\"$FX/bn/w.wtns\"},{\"path\":\"$FX/bn/w.wtns\"}]}"
id=$(jstr id)
wait_job "$id"
[ "$(jstr state)" = done ] && [ "$(printf '%s' "$BODY" | grep -o '"pi_a"' | wc -l)" -eq 3 ] &&
    printf '%s' "$BODY" | grep -q '"progress":{"done":3,"total":3}'
check "a job of three partitions: three proofs" $? "$BODY"
"$CUZK" wait "$id" --proof "$work/m.json" --public "$work/mpub.json" >/dev/null &&
    [ "$("$CUZK" verify "$FX/bn/vk.json" "$work/mpub.2.json" "$work/m.2.json")" = OK ]
check "partition 2's proof verifies" $?
[ -f "$work/m.0.json" ] && [ -f "$work/m.1.json" ] && [ -f "$work/mpub.1.json" ] &&
    [ ! -e "$work/m.json" ] && [ ! -e "$work/m.json.0" ] && ! ls -A "$work" | grep -q '\.cuzk-'
check "several partitions: the number before the extension (m.0.json), no temporaries" $?
# cuzk wait's progress line: the job's partitions on a terminal (script(1),
# a line at every answer with CUZK_PROGRESS_INTERVAL_MS=0), none with
# stderr to a file or with --quiet.
if command -v script >/dev/null; then
    on_tty() { CUZK_PROGRESS_INTERVAL_MS=0 TERM=xterm script -qefc "$(printf '%q ' "$@")" /dev/null; }
    out=$(on_tty "$CUZK" wait "$id" 2>&1)
    grep -aqE $'\r''cuzk wait: done +100% 3/3 partitions ' <<<"$out"
    check "cuzk wait on a terminal: the job's partitions (done 100% 3/3 partitions)" $? \
        "$(tr '\r' '\n' <<<"$out" | tail -n 3 | tr '\n' '|')"
    out=$(on_tty "$CUZK" wait "$id" --quiet 2>&1)
    err=$(CUZK_PROGRESS_INTERVAL_MS=0 "$CUZK" wait "$id" 2>&1 >/dev/null)
    ! grep -aqE '% [0-9]+/[0-9]+ partitions' <<<"$out" &&
        ! grep -aqE '% [0-9]+/[0-9]+ partitions' <<<"$err"
    check "cuzk wait: no progress line with --quiet, nor with stderr to a file" $? "$out|$err"
else
    echo "SKIP: cuzk wait's progress line (script(1), util-linux, is not installed)"
fi
"$CUZK" wait "$id" --proof "$work/m" >/dev/null && [ -f "$work/m.0" ] && [ -f "$work/m.2" ]
check "several partitions, a name without extension: m.0, m.2" $?
mkfifo "$work/fifo"
ln -s fifo "$work/to-fifo"
out=$(timeout 10 "$CUZK" wait "$id" --proof "$work/fifo" 2>&1 >/dev/null)
rc=$?
out2=$(timeout 10 "$CUZK" wait "$id" --public "$work/to-fifo" 2>&1 >/dev/null)
rc2=$?
[ $rc -eq 2 ] && [ $rc2 -eq 2 ] &&
    [[ "$out" == *"--proof $work/fifo: the job has 3 partitions, written as one file each ($work/fifo.0, ...)"* ]] &&
    [[ "$out2" == *"--public $work/to-fifo: the job has 3 partitions"* ]] &&
    ! ls -A "$work" | grep -q 'fifo\.'
check "several partitions: a FIFO (or a link to one) as --proof or --public is refused, no files beside it" $? "$out $out2"
out=$("$CUZK" wait "$id" --proof "$work/same.json" --public "$work/./same.json" 2>&1 >/dev/null)
[ $? -eq 2 ] && [[ "$out" == *"--proof $work/same.json and --public $work/./same.json"* ]] &&
    ! ls -A "$work" | grep -q 'same'
check "wait: the same file for --proof and --public is refused, nothing written" $? "$out"
out=$(timeout 5 "$CUZK" wait no-such-job --proof "$work/no/dir/p.json" 2>&1 >/dev/null)
[ $? -eq 2 ] && [[ "$out" == *"$work/no/dir/p.json: the directory"*"does not exist"* ]]
check "wait: a missing output directory fails before contacting the server" $? "$out"

# two keys in use at once: a long job on slow and one behind it on bn
api POST /v1/proofs "{\"key\":\"slow\",\"witness\":[{\"path\":\"$FX/slow/w.wtns\"},{\"path\":\"$FX/slow/w.wtns\"},{\"path\":\"$FX/slow/w.wtns\"}]}"
a=$(jstr id)
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
b=$(jstr id)
api GET /v1/keys
uses=$(printf '%s' "$BODY" | grep -o '"name":"\(slow\|bn\)"[^}]*"use_count":1' | wc -l)
[ "$uses" -eq 2 ]
check "two keys in use at once (use_count 1 each)" $? "$BODY"
api DELETE /v1/keys/slow
expect_error "evicting a key in use" 409 key_in_use
wait_job "$a"
sa=$(jstr state)
wait_job "$b"
[ "$sa" = done ] && [ "$(jstr state)" = done ]
check "both jobs done" $? "$sa $BODY"

# bellperson: .params + .asgn, the 192-byte proof through cuzk verify --vk
out=$("$CUZK" submit --key bp --assignment "$FX/bp/a.asgn" --wait --proof "$work/bp.bin" \
    --public "$work/bp_in.json" 2>&1)
check "cuzk submit --assignment (params key)" $? "$out"
[ "$(wc -c <"$work/bp.bin")" -eq 192 ]
check "the params result is one 192-byte proof" $?
out=$("$CUZK" verify --vk "$FX/bp/k.vk" --inputs "$work/bp_in.json" --proof "$work/bp.bin" 2>&1)
[ "$out" = OK ]
check "cuzk verify --vk accepts it" $? "$out"

# a client id twice: one job
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"client-7\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
first=$HTTP
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"client-7\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
[ "$first" = 202 ] && [ "$HTTP" = 200 ] && [ "$(jstr id)" = client-7 ]
check "a repeated client id returns the existing job (202, then 200)" $? "$first $HTTP $BODY"

# ---- cancel ------------------------------------------------------------------------
api POST /v1/proofs "{\"key\":\"slow\",\"witness\":[{\"path\":\"$FX/slow/w.wtns\"},{\"path\":\"$FX/slow/w.wtns\"},{\"path\":\"$FX/slow/w.wtns\"},{\"path\":\"$FX/slow/w.wtns\"}]}"
run=$(jstr id)
qid=$("$CUZK" submit --key bn --witness "$FX/bn/w.wtns")
out=$("$CUZK" cancel "$qid" 2>&1)
check "cuzk cancel: a queued job" $? "$out"
api GET "/v1/proofs/$qid"
[ "$(jstr state)" = cancelled ]
check "the queued job is cancelled" $? "$BODY"
for _ in $(seq 1 100); do
    api GET "/v1/proofs/$run"
    [ "$(jstr state)" = running ] && break
    sleep 0.02
done
api DELETE "/v1/proofs/$run"
[ "$HTTP" = 200 ] && [ "$(jstr state)" = cancelled ] && ! printf '%s' "$BODY" | grep -q '"state":"queued"'
check "DELETE a running job: cancelled, its queued partitions dropped" $? "$BODY"
for _ in $(seq 1 100); do
    api GET /metrics
    printf '%s' "$BODY" | grep -q 'cuzkd_partitions_total{result="discarded"} 1' && break
    sleep 0.05
done
printf '%s' "$BODY" | grep -q 'cuzkd_partitions_total{result="discarded"} 1'
check "the running partition's result is discarded" $?
api DELETE "/v1/proofs/$run"
expect_error "cancelling an ended job" 409 job_ended
"$CUZK" cancel "$run" >/dev/null 2>&1
[ $? -eq 1 ]
check "cuzk cancel of an ended job: exit 1" $?

# ---- priorities --------------------------------------------------------------------
# The blocker (ten partitions, about a second) holds the one worker while
# the others arrive; the check below makes sure it did.
ten=$(printf '{"path":"%s"},' "$FX"/slow/w.wtns "$FX"/slow/w.wtns "$FX"/slow/w.wtns \
    "$FX"/slow/w.wtns "$FX"/slow/w.wtns "$FX"/slow/w.wtns "$FX"/slow/w.wtns "$FX"/slow/w.wtns \
    "$FX"/slow/w.wtns "$FX"/slow/w.wtns)
api POST /v1/proofs "{\"key\":\"slow\",\"witness\":[${ten%,}]}"
blocker=$(jstr id)
normals=()
for i in 1 2 3 4 5 6; do
    api POST /v1/proofs "{\"key\":\"bn\",\"priority\":\"normal\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
    normals+=("$(jstr id)")
done
api POST /v1/proofs "{\"key\":\"bn\",\"priority\":\"critical\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
crit=$(jstr id)
api GET "/v1/proofs/$blocker"
[ "$(jstr state)" = running ]
check "the blocker still runs when the critical job arrives" $? "$(jstr state)"
wait_job "$crit"
crit_end=$(jnum finished_at)
early=0
for n in "${normals[@]}"; do
    wait_job "$n"
    awk -v a="$(jnum finished_at)" -v c="$crit_end" 'BEGIN { exit !(a < c) }' && early=$((early + 1))
done
wait_job "$blocker"
[ "$early" -eq 0 ] && [ -n "$crit_end" ]
check "a critical job submitted behind six normal ones finishes first" $? "$early normal jobs ended before it"
api POST /v1/proofs "{\"key\":\"bn\",\"priority\":\"urgent\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
expect_error "an unknown priority" 400 invalid_request

# ---- status, metrics, timeline ----------------------------------------------------
api GET /v1/status
ok=0
for section in build server keys queue devices memory counters; do
    printf '%s' "$BODY" | grep -q "\"$section\":" || ok=1
done
[ $ok -eq 0 ] && [ "$HTTP" = 200 ]
check "GET /v1/status has build, server, keys, queue, devices, memory, counters" $? "$BODY"
[ "$(jnum key_loads)" = 4 ] && [ "$(jnum key_hits)" = 1 ]
check "every key was loaded once, however many proofs (key_loads 4)" $? "$BODY"
out=$("$CUZK" status --json 2>&1) && printf '%s' "$out" | grep -q '"queue"'
check "cuzk status --json prints the status" $?
api GET /metrics
printf '%s' "$BODY" | grep -q '^cuzkd_jobs_total{state="done"} [1-9]' &&
    printf '%s' "$BODY" | grep -q '^# TYPE cuzkd_job_seconds histogram' &&
    printf '%s' "$BODY" | grep -q '^cuzkd_stage_seconds_total{stage="msm"}'
check "GET /metrics: Prometheus text with jobs, stages, latency histogram" $?
api GET /v1/timeline
printf '%s' "$BODY" | grep -q '"traceEvents":\[' && printf '%s' "$BODY" | grep -q '"name":"msm"' &&
    printf '%s' "$BODY" | grep -q '"ph":"X"'
check "GET /v1/timeline: Chrome trace events" $?

grep -q ' debug: TIMELINE,[0-9.]*,msm,[0-9a-f]*,partition=0 worker=0 ms=' "$log" &&
    grep -q ' debug: TIMELINE,[0-9.]*,load,bn,' "$log"
check "--log-level debug: TIMELINE,ms,stage,job,detail lines on stderr" $?

api DELETE /v1/keys/slow
[ "$HTTP" = 200 ]
check "evicting an idle key: 200" $? "$HTTP $BODY"
api GET /v1/keys/slow
expect_error "the evicted key" 404 unknown_key

stop_daemon
check "SIGTERM: cuzkd exits 0" $? "$(tail -n 3 "$log")"
finish
