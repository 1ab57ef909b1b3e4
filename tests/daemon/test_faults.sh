#!/usr/bin/env bash
# cuzkd under faults, over real HTTP on 127.0.0.1:
#   a loaded .zkey truncated, then overwritten in place, under the daemon:
#   it keeps proving with the key it loaded;
#   a witness that is a FIFO: the job fails naming it, later jobs run, and
#   SIGTERM still drains;
#   a damaged journal: a torn last record, a damaged record, a job file
#   without a submit record, a witness blob without its job, a key record
#   that does not parse: each repair logged with the file (and the byte
#   offset), the files kept under damaged/, the repairs counted in
#   /v1/status; a restored job whose witness is no longer in --allow fails,
#   saying so; a journaled key whose directory is no longer in --allow is
#   not reloaded, the log says why, and its jobs fail naming it;
#   as root, the journal on a small full tmpfs: eight concurrent submits of
#   one id are never told "existing" for a job that is not on disk; an
#   inline witness is refused with "No space left on device"; /healthz
#   answers 503 and /v1/status says why, until a write succeeds again; a
#   job whose results cannot be journaled fails with a journal error
#   instead of showing them; after kill -9 there, space again and a restart
#   on the same journal, every job that was shown done has the same result.
#   Not root: those cases are skipped (exit 77, once the others passed); as
#   root a tmpfs that does not mount fails the test.
#   tests/daemon/test_faults.sh CUZKD CUZK [LOADGEN]
. "$(dirname "$0")/lib.sh"

fx=$work/fx
mkdir -p "$fx/keys" "$fx/w"
{
    "$CUZK" gen --curve bn128 --constraints 300 --public 2 --seed 51 "$fx/c.r1cs" "$fx/w/w.wtns" &&
        "$CUZK" setup --seed 52 "$fx/c.r1cs" "$fx/keys/k.zkey" --vk "$fx/vk.json" &&
        "$CUZK" gen --curve bn128 --constraints 300 --public 2 --seed 53 "$fx/o.r1cs" "$fx/o.wtns" &&
        "$CUZK" setup --seed 54 "$fx/o.r1cs" "$fx/other.zkey" &&
        cp "$fx/keys/k.zkey" "$fx/k.orig"
} >"$work/fixtures.log" 2>&1
check "fixtures" $? "$(tail -n 3 "$work/fixtures.log")"
verifies() { # verifies JOB_JSON_FILE: the job's proof against vk.json
    python3 - "$1" "$work/v" <<'EOF'
import json, sys
job = json.load(open(sys.argv[1]))
json.dump(job["result"]["proof"], open(sys.argv[2] + ".proof.json", "w"))
json.dump(job["result"]["public"], open(sys.argv[2] + ".public.json", "w"))
EOF
    [ "$("$CUZK" verify "$fx/vk.json" "$work/v.public.json" "$work/v.proof.json" 2>&1)" = OK ]
}
prove_once() { # prove_once ID WITNESS: submits, waits; BODY holds the job
    api POST /v1/proofs "{\"key\":\"k\",\"id\":\"$1\",\"witness\":{\"path\":\"$2\"}}"
    wait_job "$1" 60
    printf '%s' "$BODY" >"$work/job.json"
}

# ---- the key file changes under the daemon ------------------------------------------
log=$work/cuzkd.log
start_daemon "$log" --allow "$fx" --workers 1 --threads 2
check "cuzkd starts" $? "$(tail -n 3 "$log")"
api POST /v1/keys "{\"name\":\"k\",\"path\":\"$fx/keys/k.zkey\"}"
prove_once before "$fx/w/w.wtns"
[ "$(jstr state)" = done ] && verifies "$work/job.json"
check "a proof with the key as loaded" $? "$BODY"
truncate -s 4096 "$fx/keys/k.zkey"
prove_once truncated "$fx/w/w.wtns"
kill -0 "$DPID" 2>/dev/null && [ "$(jstr state)" = done ] && verifies "$work/job.json"
check "the key file truncated to 4096 bytes: cuzkd lives and proves with the loaded key" $? \
    "$BODY"
cp "$fx/other.zkey" "$fx/keys/k.zkey"
prove_once overwritten "$fx/w/w.wtns"
kill -0 "$DPID" 2>/dev/null && [ "$(jstr state)" = done ] && verifies "$work/job.json"
check "the key file overwritten in place by another key: the loaded key still proves" $? "$BODY"
rm -f "$fx/keys/k.zkey"
prove_once deleted "$fx/w/w.wtns"
kill -0 "$DPID" 2>/dev/null && [ "$(jstr state)" = done ]
check "the key file deleted: still proves" $? "$BODY"
cp "$fx/k.orig" "$fx/keys/k.zkey"

# ---- a FIFO for a witness -------------------------------------------------------------
mkfifo "$fx/w/fifo.wtns"
api POST /v1/proofs "{\"key\":\"k\",\"id\":\"fifo\",\"witness\":{\"path\":\"$fx/w/fifo.wtns\"}}"
[ "$HTTP" = 400 ] && printf '%s' "$BODY" | grep -q 'fifo.wtns: not a regular file'
check "a FIFO witness: refused at submission, naming it" $? "$HTTP $BODY"
# A witness swapped for a FIFO after the check: a long job holds the only
# worker while the swap happens.
cp "$fx/w/w.wtns" "$fx/w/swap.wtns"
api POST /v1/proofs "{\"key\":\"k\",\"id\":\"hold\",\"witness\":[$(for _ in $(seq 1 40); do printf '{"path":"%s"},' "$fx/w/w.wtns"; done | sed 's/,$//')]}"
api POST /v1/proofs "{\"key\":\"k\",\"id\":\"swapped\",\"witness\":{\"path\":\"$fx/w/swap.wtns\"}}"
accepted=$HTTP
rm -f "$fx/w/swap.wtns"
mkfifo "$fx/w/swap.wtns"
t0=$SECONDS
wait_job swapped 60
[ "$accepted" = 202 ] && [ "$(jstr state)" = failed ] &&
    printf '%s' "$BODY" | grep -q 'not a regular file (a FIFO)' && [ $((SECONDS - t0)) -lt 30 ]
check "a witness swapped for a FIFO after the check: the job fails, naming it" $? \
    "$accepted $BODY"
prove_once after-fifo "$fx/w/w.wtns"
[ "$(jstr state)" = done ]
check "the worker is free: the next job is done" $? "$BODY"
timeout 30 bash -c "kill -TERM $DPID; while kill -0 $DPID 2>/dev/null; do sleep 0.1; done"
check "SIGTERM drains and exits" $?
wait "$DPID" 2>/dev/null
DPID=""

# ---- a damaged journal ------------------------------------------------------------------
journal=$work/journal
# keysA/ is allowed now, not at the next start
mkdir -p "$work/keysA"
cp "$fx/keys/k.zkey" "$work/keysA/a.zkey"
start_daemon "$log" --allow "$fx,$work/keysA" --journal "$journal" --workers 1 --threads 2
api POST /v1/keys "{\"name\":\"k\",\"path\":\"$fx/keys/k.zkey\"}"
"$CUZK" submit --key k --witness "$fx/w/w.wtns" --id kept --wait >/dev/null 2>&1
check "a job done before the damage" $?
api POST /v1/keys "{\"name\":\"ka\",\"path\":\"$work/keysA/a.zkey\"}"
[ "$HTTP" = 201 ]
check "a key registered from keysA/" $? "$HTTP $BODY"
stop_daemon
jobs=$journal/jobs
# damage: a torn last record on the done job, a damaged record in the middle
# of another, a job without a submit record, an orphan witness blob, a
# key record that does not parse
printf '{"op":"partition","ind' >>"$jobs/kept.job"
{
    head -n 1 "$jobs/kept.job"
    echo 'this line is not JSON'
} >"$jobs/mid.job"
sed -i 's/"id":"kept"/"id":"mid"/' "$jobs/mid.job"
printf '{"op":"subm' >"$jobs/nosubmit.job"
printf 'wtns' >"$jobs/orphan.0.wtns"
printf 'not a key record' >"$journal/keys/bad.key"
# a live job whose witness will be outside --allow
mkdir -p "$work/elsewhere"
cp "$fx/w/w.wtns" "$work/elsewhere/w.wtns"
python3 - "$jobs/kept.job" "$jobs/moved.job" "$work/elsewhere/w.wtns" <<'EOF'
import json, sys
first = json.loads(open(sys.argv[1]).readline())
first["id"] = "moved"; first["seq"] = 99
first["inputs"] = [{"wtns_path": sys.argv[3]}]
open(sys.argv[2], "w").write(json.dumps(first) + "\n")
EOF
# a live job on the key from keysA/
python3 - "$jobs/kept.job" "$jobs/on-ka.job" <<'EOF'
import json, sys
first = json.loads(open(sys.argv[1]).readline())
first["id"] = "on-ka"; first["seq"] = 98; first["key"] = "ka"
open(sys.argv[2], "w").write(json.dumps(first) + "\n")
EOF
: >"$log.2"
start_daemon "$log.2" --allow "$fx" --journal "$journal" --workers 1 --threads 2
check "cuzkd starts on the damaged journal" $? "$(tail -n 5 "$log.2")"
grep -q "kept.job: a torn last record at byte [0-9]* (22 bytes) cut off; the file as it was is kept as $journal/damaged/kept.job\." "$log.2"
check "the torn record: logged with the file and the byte offset, the original kept" $? \
    "$(grep journal "$log.2" | head -n 5)"
grep -q "mid.job: the record at byte [0-9]* is damaged and skipped" "$log.2"
check "the damaged record: logged with its offset" $?
grep -q "nosubmit.job: no complete submit record" "$log.2" && [ ! -e "$jobs/nosubmit.job" ] &&
    ls "$journal/damaged/" | grep -q '^nosubmit\.job\.'
check "the job without a submit record: moved to damaged/, not deleted" $? \
    "$(ls "$journal/damaged" 2>&1)"
ls "$journal/damaged/" | grep -q '^orphan\.0\.wtns\.' && ls "$journal/damaged/" | grep -q '^bad\.key\.'
check "the orphan witness and the bad key record: moved to damaged/" $? \
    "$(ls "$journal/damaged" 2>&1)"
api GET /v1/status
repairs=$(printf '%s' "$BODY" | python3 -c 'import json,sys; print(json.load(sys.stdin)["journal"]["repairs"])')
[ "$repairs" -ge 5 ]
check "/v1/status counts the repairs ($repairs)" $? "$BODY"
api GET /v1/proofs/kept
[ "$(jstr state)" = done ]
check "the done job kept its state and result" $? "$BODY"
wait_job moved 30
[ "$(jstr state)" = failed ] && printf '%s' "$BODY" | grep -q 'checked again at the restart'
check "a restored job whose witness is outside --allow now fails, saying so" $? "$BODY"
grep -q "key ka not loaded: $work/keysA/a.zkey is outside the allowed directories" "$log.2"
check "a journaled key outside the narrowed --allow: the log says it is not reloaded, and why" \
    $? "$(grep 'key ka' "$log.2")"
api GET /v1/keys/ka
expect_error "and the key is not loaded" 404 unknown_key
wait_job on-ka 30
[ "$(jstr state)" = failed ] &&
    printf '%s' "$BODY" | grep -q "key 'ka' is not loaded after the restart"
check "a restored job on that key fails, naming the key" $? "$(printf '%s' "$BODY" | cut -c1-300)"
stop_daemon

# ---- the journal on a full filesystem (root) ---------------------------------------------
# CI runs as root: there a mount that fails is a failure, not a skip.
full=$work/full
mkdir -p "$full"
mounted=0
if [ "$(id -u)" -ne 0 ]; then
    skip "the full-filesystem cases" "they need root to mount a tmpfs"
elif ! mount_err=$(mount -t tmpfs -o size=2m tmpfs "$full" 2>&1); then
    check "as root, a 2 MiB tmpfs for the full-filesystem cases mounts" 1 "$mount_err"
else
    mounted=1
fi
[ $mounted -eq 1 ] || finish
trap '[ -n "$DPID" ] && kill -9 "$DPID" 2>/dev/null && wait "$DPID" 2>/dev/null
      DPID=""; umount "$full" 2>/dev/null; cleanup' EXIT
fill() { dd if=/dev/zero of="$full/filler" bs=4k 2>/dev/null; sync; }
# done_results FILE: every done job's id and result, one JSON line each
done_results() {
    python3 - "$PORT" >"$1" <<'EOF'
import http.client, json, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=30)
def get(path):
    c.request("GET", path)
    return json.loads(c.getresponse().read())
for job in get("/v1/proofs?state=done&limit=1000")["jobs"]:
    j = get("/v1/proofs/" + job["id"])
    print(json.dumps({"id": j["id"], "state": j["state"], "result": j["result"]}, sort_keys=True))
EOF
}
start_daemon "$log.3" --allow "$fx" --journal "$full/j" --workers 1 --threads 2
check "cuzkd starts with its journal on a 2 MiB tmpfs" $? "$(tail -n 3 "$log.3")"
api POST /v1/keys "{\"name\":\"k\",\"path\":\"$fx/keys/k.zkey\"}"
prove_once shown "$fx/w/w.wtns"
[ "$(jstr state)" = done ]
check "a job done before the disk fills" $? "$BODY"
fill
# eight clients post one id behind a barrier, ten rounds
lies=0
for round in 1 2 3 4 5 6 7 8 9 10; do
    python3 - "$PORT" "dup-$round" "$fx/w/w.wtns" >"$work/dup.out" <<'EOF'
import http.client, json, sys, threading
port, jid, w = int(sys.argv[1]), sys.argv[2], sys.argv[3]
body = json.dumps({"key": "k", "id": jid, "witness": {"path": w}})
barrier, out = threading.Barrier(8), []
def post():
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    barrier.wait()
    c.request("POST", "/v1/proofs", body, {"Content-Type": "application/json"})
    r = c.getresponse()
    out.append((r.status, r.read().decode()))
ts = [threading.Thread(target=post) for _ in range(8)]
[t.start() for t in ts]
[t.join() for t in ts]
for s, b in out:
    print(s, "existing" if '"existing":true' in b.replace(" ", "") else "-")
EOF
    api GET "/v1/proofs/dup-$round"
    if [ "$HTTP" = 404 ] && grep -q existing "$work/dup.out"; then lies=$((lies + 1)); fi
done
[ "$lies" -eq 0 ]
check "full journal: no round told a client 'existing' for a job that is not there" $? \
    "$lies of 10 rounds; last: $(tr '\n' ' ' <"$work/dup.out")"
grep -q '^500 ' "$work/dup.out" && ! grep -q '^20[02] ' "$work/dup.out"
check "full journal: every duplicate gets the journal error (500)" $? "$(tr '\n' ' ' <"$work/dup.out")"
b64=$(base64 -w0 "$fx/w/w.wtns")
api POST /v1/proofs "{\"key\":\"k\",\"witness\":{\"wtns_base64\":\"$b64\"}}"
[ "$HTTP" = 500 ] && printf '%s' "$BODY" | grep -q 'No space left on device'
check "full journal: an inline witness is refused with 'No space left on device'" $? "$BODY"
api GET /healthz
[ "$HTTP" = 503 ] && [ "$(jstr status)" = journal ]
check "full journal: /healthz answers 503 journal" $? "$HTTP $BODY"
api GET /v1/status
printf '%s' "$BODY" | python3 -c 'import json,sys; j=json.load(sys.stdin)["journal"]; sys.exit(0 if j["failing"] and j["write_errors"] > 0 and "No space" in j["last_error"] else 1)'
check "full journal: /v1/status says the journal is failing, and why" $? "$BODY"
grep -q 'the journal is failing' "$log.3"
check "full journal: the log says so" $?

rm -f "$full/filler"
"$CUZK" submit --key k --witness "$fx/w/w.wtns" --id again --wait >/dev/null 2>&1
check "space again: a job is accepted and done" $?
api GET /healthz
[ "$HTTP" = 200 ]
check "space again: /healthz answers 200" $? "$HTTP $BODY"
grep -q 'is written again' "$log.3"
check "space again: the log says the journal recovered" $?

# Results that cannot be journaled are never shown. The filesystem is filled,
# then one page is freed (tmpfs allocates whole 4 KiB pages): the submit
# record of a job of twenty partitions fits in it (~50 bytes a partition),
# its twenty partition records (a proof.json of ~700 bytes each) cannot, so
# the job fails whatever the timing.
fill
truncate -s -4096 "$full/filler"
api POST /v1/proofs "{\"key\":\"k\",\"id\":\"big\",\"witness\":[$(for _ in $(seq 1 20); do printf '{"path":"%s"},' "$fx/w/w.wtns"; done | sed 's/,$//')]}"
accepted=$HTTP
wait_job big 60
parts=$(grep -c '"op":"partition"' "$full/j/jobs/big.job" 2>/dev/null)
[ "$accepted" = 202 ] && [ "$(jstr state)" = failed ] &&
    printf '%s' "$BODY" | grep -q 'its result was not recorded: journal .*No space left on device' &&
    printf '%s' "$BODY" | grep -q '"result":null' && [ "${parts:-20}" -lt 20 ]
check "a job whose results cannot be journaled fails with the journal error, no result shown" \
    $? "$accepted, $parts partition records: $(printf '%s' "$BODY" | cut -c1-300)"

# kill -9 with the results unrecordable, space again, the same journal: no
# result a client was shown as final changes; the failed job, whose end
# record could not be written either, stays failed or is proven again.
done_results "$work/shown"
stop_daemon KILL
rm -f "$full/filler"
: >"$log.4"
log=$log.4
start_daemon "$log" --allow "$fx" --journal "$full/j" --workers 1 --threads 2
check "cuzkd starts again on the journal after kill -9 on a full disk" $? "$(tail -n 3 "$log")"
wait_job big 60
big_state=$(jstr state)
[ "$big_state" = failed ] || [ "$big_state" = done ]
check "after the restart the failed job is failed or proven again ($big_state)" $? "$BODY"
done_results "$work/after"
python3 - "$work/shown" "$work/after" <<'EOF'
import json, sys
shown = [json.loads(l) for l in open(sys.argv[1])]
after = {j["id"]: j for j in map(json.loads, open(sys.argv[2]))}
changed = [j["id"] for j in shown if after.get(j["id"]) != j]
print("%d shown done, changed: %s" % (len(shown), changed or "none"))
sys.exit(0 if len(shown) >= 2 and not changed else 1)
EOF
check "after the restart every job shown done has the same result" $? \
    "$(tr '\n' ' ' <"$work/shown" | cut -c1-300)"
stop_daemon
umount "$full"
finish
