#!/usr/bin/env bash
# cuzkd's refusals over real HTTP, each with its status and error code, and
# the daemon still serving afterwards:
#   malformed JSON, a body that is no object, wrong types, missing fields,
#   unknown key, job and route, a wrong method, oversized bodies (by
#   Content-Length and chunked), paths outside the allowed directories
#   (absolute, through "..", through a symbolic link), relative and missing
#   paths, a file that is no key (a .wtns, a .r1cs, a verification_key.json:
#   the message says what it is, once), a truncated .zkey (the reader's
#   message alone), a .zkey loaded as a key cache, an assignment
#   for a zkey, a truncated base64 witness, a truncated witness file, an
#   unsatisfied witness, a witness of the other curve, a full queue (429),
#   the memory a body of 1024 short paths costs,
#   the bearer token (401), a Unix socket, and the configuration file with
#   --check-config (a good file, an unknown option, a bad value, flags over
#   the file).
#   tests/daemon/test_errors.sh CUZKD CUZK
. "$(dirname "$0")/lib.sh"

make_fixtures
check "fixtures" $? "$(tail -n 5 "$work/fixtures.log")"
outside=$work/outside
mkdir -p "$outside"
cp "$FX/bn/w.wtns" "$outside/w.wtns"
ln -s "$outside/w.wtns" "$FX/bn/link.wtns"
log=$work/cuzkd.log
start_daemon "$log" --allow "$FX" --workers 1 --threads 2 --max-body 64K --max-jobs 3
check "cuzkd starts" $? "$(tail -n 3 "$log")"
api POST /v1/keys "{\"name\":\"bn\",\"path\":\"$FX/bn/k.zkey\"}"
api POST /v1/keys "{\"name\":\"slow\",\"path\":\"$FX/slow/k.zkey\"}"
api POST /v1/keys "{\"name\":\"bp\",\"path\":\"$FX/bp/k.params\"}"

# 1024 short witness paths (~46 KB of body) for a key that does not exist,
# while nothing runs: every path is resolved before the key is looked up
# (404). That costs far less memory than a page a path: the growth of the
# daemon's peak resident memory (VmHWM, reset to the current size through
# clear_refs) over that of the same body refused at once for its priority
# (parsed, nothing resolved), after a warm-up request that makes the code
# they run resident.
hwm() { awk '/^VmHWM:/ { print $2 }' "/proc/$DPID/status"; }
peak_growth() { # peak_growth BODY: GROWN = KiB the daemon's peak grows by answering BODY
    echo 5 >"/proc/$DPID/clear_refs"
    local before
    before=$(hwm)
    api POST /v1/proofs "$1"
    GROWN=$(($(hwm) - before))
}
many=$(for _ in $(seq 1024); do printf '{"path":"%s"},' "$FX/bn/w.wtns"; done)
api POST /v1/proofs "{\"key\":\"nokey\",\"witness\":[{\"path\":\"$FX/bn/w.wtns\"}]}"
if ! { echo 5 >"/proc/$DPID/clear_refs"; } 2>/dev/null || [ -z "$(hwm)" ]; then
    skip "the memory of 1024 witness paths" "no /proc/PID/clear_refs or VmHWM to measure it"
else
    peak_growth "{\"key\":\"nokey\",\"priority\":\"no\",\"witness\":[${many%,}]}"
    parsed=$GROWN
    refused=$HTTP
    peak_growth "{\"key\":\"nokey\",\"witness\":[${many%,}]}"
    resolved=$GROWN
    [ "$refused" = 400 ] && [ "$HTTP" = 404 ] && [ $((resolved - parsed)) -lt 2048 ]
    check "1024 witness paths resolved cost memory for what they are, not 4 KiB each" $? \
        "peak +$resolved KiB, +$parsed KiB for the body alone; $refused, $HTTP $BODY"
fi

# ---- the request itself -------------------------------------------------------------
api POST /v1/proofs '{"key": "bn", "witness": '
expect_error "malformed JSON" 400 malformed_json
printf '%s' "$BODY" | grep -q 'line 1'
check "the message gives the place" $? "$BODY"
# jansson quotes the bytes near the fault; ones that are no UTF-8 must still
# give a JSON answer (as '?'), not an empty body.
api POST /v1/proofs "$(printf '{"kAai$\\\315\244]\356\\b*\\zL')"
expect_error "malformed JSON quoting bytes that are no UTF-8" 400 malformed_json
api POST /v1/proofs '["bn"]'
expect_error "a body that is not an object" 400 invalid_request
api POST /v1/proofs "{\"key\":7,\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
expect_error "key of the wrong type" 400 invalid_request
printf '%s' "$BODY" | grep -q 'key: expected a string'
check "the message names the field" $? "$BODY"
api POST /v1/proofs '{"key":"bn","witness":"w.wtns"}'
expect_error "witness of the wrong type" 400 invalid_request
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"path\":\"$FX/bn/w.wtns\",\"wtns_base64\":\"AAAA\"}}"
expect_error "a witness with two sources" 400 invalid_request
api POST /v1/proofs '{"key":"bn"}'
expect_error "no witness" 400 invalid_request
api POST /v1/proofs "{\"key\":\"bn\",\"priority\":3,\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
expect_error "priority of the wrong type" 400 invalid_request
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"../x\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
expect_error "an id that is no safe name" 400 invalid_request
api POST /v1/keys "{\"name\":\"a/b\",\"path\":\"$FX/bn/k.zkey\"}"
expect_error "a key name that is no safe name" 400 invalid_request
api POST /v1/proofs "{\"key\":\"nokey\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
expect_error "unknown key" 404 unknown_key
api GET /v1/proofs/nosuchjob
expect_error "unknown job" 404 unknown_job
api DELETE /v1/proofs/nosuchjob
expect_error "cancelling an unknown job" 404 unknown_job
api DELETE /v1/keys/nokey
expect_error "evicting an unknown key" 404 unknown_key
api GET /v2/anything
expect_error "unknown route" 404 not_found
api PUT /v1/proofs '{}'
expect_error "a wrong method" 405 method_not_allowed
curl -s -D - -o /dev/null -X PATCH "$U/v1/status" | grep -qi '^Allow: GET'
check "405 names the allowed methods" $?

head -c 100000 /dev/zero | tr '\0' 'a' >"$work/big.txt"
api POST /v1/proofs "@$work/big.txt"
expect_error "a body over --max-body (Content-Length)" 413 body_too_large
api POST /v1/proofs "@$work/big.txt" -H 'Transfer-Encoding: chunked'
expect_error "a body over --max-body (chunked)" 413 body_too_large
# Tens of thousands of tiny values within --max-body: refused by their count
# before the parser builds them (each costs it far more than its text).
python3 -c 'print("{\"key\":\"bn\",\"witness\":[" + ",".join(["0"] * 30000) + "]}")' >"$work/many.json"
api POST /v1/proofs "@$work/many.json"
expect_error "a body of 30000 tiny JSON values" 413 body_too_large
printf '%s' "$BODY" | grep -q 'more than 16384 JSON values'
check "the answer says the limit" $? "$BODY"
python3 -c 'print("{\"key\":\"bn\",\"witness\":[" + ",".join(["{}"] * 1025) + "]}")' >"$work/parts.json"
api POST /v1/proofs "@$work/parts.json"
expect_error "1025 witnesses (the limit is 1024)" 400 invalid_request

# ---- paths ------------------------------------------------------------------------------
api POST /v1/proofs '{"key":"bn","witness":{"path":"/etc/passwd"}}'
expect_error "a path outside the allowed directories" 403 path_not_allowed
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"path\":\"$FX/bn/../../outside/w.wtns\"}}"
expect_error "escaping through .." 403 path_not_allowed
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"path\":\"$FX/bn/link.wtns\"}}"
expect_error "escaping through a symbolic link" 403 path_not_allowed
api POST /v1/keys "{\"name\":\"x\",\"path\":\"$outside/w.wtns\",\"format\":\"zkey\"}"
expect_error "a key outside the allowed directories" 403 path_not_allowed
api POST /v1/proofs '{"key":"bn","witness":{"path":"bn/w.wtns"}}'
expect_error "a relative path" 400 bad_path
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"path\":\"$FX/bn/missing.wtns\"}}"
expect_error "a missing file" 400 bad_path

# ---- keys and witnesses that are wrong -----------------------------------------------
api POST /v1/keys "{\"name\":\"notakey\",\"path\":\"$FX/bn/w.wtns\",\"format\":\"zkey\"}"
expect_error "a file that is not a key" 400 bad_key
[ "$(jstr message)" = "$FX/bn/w.wtns is a snarkjs .wtns (witness), not a snarkjs .zkey (proving key)" ]
check "the message names the file and says once what it is" $? "$BODY"
grep -q "key notakey not loaded: $FX/bn/w.wtns is a snarkjs .wtns (witness), not a snarkjs .zkey (proving key)$" "$log"
check "and so does the log" $? "$(grep 'notakey' "$log")"
out=$(cd "$FX/bn" && "$CUZK" submit --key k2 --key-path w.wtns --format zkey --witness w.wtns 2>&1)
rc=$?
[ $rc -eq 2 ] &&
    [ "$out" = "cuzk submit: 400 bad_key: $FX/bn/w.wtns is a snarkjs .wtns (witness), not a snarkjs .zkey (proving key)" ]
check "cuzk submit --key-path w.wtns --format zkey: the same one message" $? "$rc: $out"
api POST /v1/keys "{\"name\":\"r1cs\",\"path\":\"$FX/bn/c.r1cs\",\"format\":\"params\"}"
[ "$HTTP" = 400 ] &&
    [ "$(jstr message)" = "$FX/bn/c.r1cs is a circom .r1cs (circuit), not bellperson .params (proving parameters)" ]
check "a .r1cs given as params: said what it is" $? "$HTTP $BODY"
api POST /v1/keys "{\"name\":\"vk\",\"path\":\"$FX/bn/vk.json\",\"format\":\"zkey\"}"
[ "$HTTP" = 400 ] &&
    [ "$(jstr message)" = "$FX/bn/vk.json is a snarkjs verification_key.json, not a snarkjs .zkey (proving key)" ]
check "a verification_key.json given as zkey: said what it is" $? "$HTTP $BODY"
head -c 3000 "$FX/bn/k.zkey" >"$FX/bn/cut.zkey"
api POST /v1/keys "{\"name\":\"cut\",\"path\":\"$FX/bn/cut.zkey\"}"
expect_error "a truncated .zkey" 400 bad_key
case "$(jstr message)" in
"$FX/bn/cut.zkey: section "*": truncated: "*"the file ends at 3000") ok=0 ;;
*) ok=1 ;;
esac
printf '%s' "$BODY" | grep -q 'truncated, corrupt or unexpected file' && ok=1
check "its message is the reader's, naming the section, without a generic suffix" $ok "$BODY"
api POST /v1/keys "{\"name\":\"c\",\"path\":\"$FX/bn/k.zkey\",\"format\":\"cache\"}"
expect_error "a .zkey loaded as a key cache" 400 bad_key
printf '%s' "$BODY" | grep -q "not a cuzk key cache"
check "the message says it is no key cache" $? "$BODY"
api POST /v1/keys "{\"name\":\"c\",\"path\":\"$FX/bn/w.wtns\"}"
expect_error "a path whose format cannot be told" 400 invalid_request
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"assignment_path\":\"$FX/bp/a.asgn\"}}"
expect_error "an assignment for a zkey" 400 invalid_request
b64=$(head -c 300 "$FX/bn/w.wtns" | base64 -w0)
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"wtns_base64\":\"$b64\"}}"
expect_error "a truncated base64 witness" 400 bad_witness
api POST /v1/proofs '{"key":"bn","witness":{"wtns_base64":"not base64!"}}'
expect_error "text that is not base64" 400 bad_witness

api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"path\":\"$FX/bn/short.wtns\"}}"
wait_job "$(jstr id)"
[ "$(jstr state)" = failed ] && printf '%s' "$BODY" | grep -q "short.wtns"
check "a truncated witness file: the job fails, naming the file" $? "$BODY"
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"path\":\"$FX/bn/other.wtns\"}}"
wait_job "$(jstr id)"
[ "$(jstr state)" = failed ] && printf '%s' "$BODY" | grep -q "does not satisfy"
check "an unsatisfied witness: the job fails, saying so" $? "$BODY"
api POST /v1/proofs "{\"key\":\"bn\",\"witness\":{\"path\":\"$FX/bls/w.wtns\"}}"
wait_job "$(jstr id)"
[ "$(jstr state)" = failed ] && printf '%s' "$BODY" | grep -q "BLS12-381"
check "a witness of the other curve: the job fails, naming both" $? "$BODY"
out=$("$CUZK" submit --key bn --witness "$FX/bn/other.wtns" --wait 2>&1)
rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q "failed"
check "cuzk submit --wait on a failing job: exit 1" $? "exit $rc"

# ---- limits --------------------------------------------------------------------------------
# Jobs of twelve partitions (~0.5 s on 2 cores), so that the first is still
# running when the fourth and fifth requests arrive: with three partitions
# it could end first on an idle machine, and the fourth would be accepted.
slow=$(for _ in $(seq 12); do printf '{"path":"%s"},' "$FX/slow/w.wtns"; done)
slow="[${slow%,}]"
codes=""
ids=()
for _ in 1 2 3 4; do
    api POST /v1/proofs "{\"key\":\"slow\",\"witness\":$slow}"
    codes="$codes $HTTP"
    ids+=("$(jstr id)")
done
[ "$codes" = " 202 202 202 429" ] && [ "$(jstr code)" = queue_full ]
check "--max-jobs 3: the fourth job gets 429 queue_full" $? "$codes $BODY"
curl -s -D - -o /dev/null -X POST --data-binary "{\"key\":\"slow\",\"witness\":$slow}" \
    "$U/v1/proofs" | grep -qi '^Retry-After: 1'
check "429 carries Retry-After" $?
api GET "/v1/proofs/${ids[0]}?wait=soon"
expect_error "wait that is no number" 400 invalid_request
for i in 0 1 2; do
    api DELETE "/v1/proofs/${ids[$i]}"
done

# ---- still serving ---------------------------------------------------------------------------
out=$("$CUZK" submit --key bn --witness "$FX/bn/w.wtns" --wait --timeout 60 \
    --proof "$work/p.json" --public "$work/pub.json" 2>&1) &&
    [ "$("$CUZK" verify "$FX/bn/vk.json" "$work/pub.json" "$work/p.json")" = OK ]
check "after all that, cuzkd still proves" $? "$out"
api GET /metrics
printf '%s' "$BODY" | grep -q 'cuzkd_http_requests_total{code="400"}' &&
    printf '%s' "$BODY" | grep -q 'cuzkd_http_requests_total{code="403"}'
check "the error answers are counted in /metrics" $?
stop_daemon
check "exit 0" $?

# ---- the token and a Unix socket ------------------------------------------------------------
printf 'sekrit-token\n' >"$work/token"
sock=$work/cuzkd.sock
start_daemon "$log" --allow "$FX" --token-file "$work/token" --listen "unix:$sock"
[ -S "$sock" ]
check "cuzkd listens on a Unix socket" $? "$(tail -n 3 "$log")"
code=$(curl -s -o "$work/answer" -w '%{http_code}' --unix-socket "$sock" http://cuzkd/v1/status)
[ "$code" = 401 ] && grep -q '"code":"unauthorized"' "$work/answer"
check "no token: 401 unauthorized (over the Unix socket)" $? "$code $(cat "$work/answer")"
code=$(curl -s -o /dev/null -w '%{http_code}' --unix-socket "$sock" \
    -H 'Authorization: Bearer sekrit-tokeX' http://cuzkd/v1/status)
[ "$code" = 401 ]
check "a wrong token: 401" $? "$code"
curl -s -D - -o /dev/null --unix-socket "$sock" http://cuzkd/v1/status |
    grep -qi '^WWW-Authenticate: Bearer'
check "401 carries WWW-Authenticate: Bearer" $?
code=$(curl -s -o /dev/null -w '%{http_code}' --unix-socket "$sock" \
    -H 'Authorization: Bearer sekrit-token' http://cuzkd/v1/status)
[ "$code" = 200 ]
check "the right token: 200" $? "$code"
out=$("$CUZK" status --server "unix:$sock" 2>&1)
[ $? -eq 2 ] && printf '%s' "$out" | grep -q 401
check "cuzk status without the token: 401, exit 2" $? "$out"
out=$("$CUZK" submit --server "unix:$sock" --token-file "$work/token" --key bn \
    --key-path "$FX/bn/k.zkey" --witness "$FX/bn/w.wtns" --wait --timeout 60 2>&1)
check "cuzk submit --token-file over the Unix socket" $? "$(printf '%s' "$out" | tail -n 3)"
stop_daemon
check "exit 0" $?
[ ! -e "$sock" ]
check "the socket file is removed at exit" $?

# ---- configuration ------------------------------------------------------------------------
cat >"$work/good.ini" <<EOF
[server]
listen = 127.0.0.1:0
max_body = 16M
[engine]
workers = 2
threads = 2
max_jobs = 50
[paths]
allow = $FX
journal = $work/journal
[preload]
bn = zkey:$FX/bn/k.zkey
EOF
out=$("$CUZKD" --config "$work/good.ini" --check-config 2>&1)
rc=$?
[ $rc -eq 0 ] && printf '%s' "$out" | grep -q 'configuration OK' &&
    printf '%s' "$out" | grep -q '^max_body = 16777216' && printf '%s' "$out" | grep -q '^bn = zkey:'
check "--check-config on a good file: exit 0, the effective configuration" $? "$out"
out=$("$CUZKD" --config "$work/good.ini" --workers 3 --check-config 2>&1)
printf '%s' "$out" | grep -q '^workers = 3'
check "flags override the file" $? "$out"
printf '[server]\nlisten = 127.0.0.1:0\nmax_bodyy = 1M\n' >"$work/bad.ini"
out=$("$CUZKD" --config "$work/bad.ini" --check-config 2>&1)
rc=$?
[ $rc -ne 0 ] && printf '%s' "$out" | grep -q "bad.ini:3: unknown option 'max_bodyy'"
check "an unknown option: refused with FILE:LINE" $? "exit $rc: $out"
printf '[engine]\nworkers = lots\n' >"$work/bad2.ini"
out=$("$CUZKD" --config "$work/bad2.ini" --check-config 2>&1)
[ $? -ne 0 ] && printf '%s' "$out" | grep -q "workers: expected a whole number"
check "a bad value: refused, naming the option" $? "$out"
out=$("$CUZKD" --journal "$(printf '%s/j\377' "$work")" --check-config 2>&1)
[ $? -ne 0 ] && printf '%s' "$out" | grep -q "journal: not valid UTF-8"
check "a path that is no UTF-8: refused, naming the option" $? "$out"
printf '[preload]\nbn = zkey:%s/k\377.zkey\n' "$FX" >"$work/bad3.ini"
out=$("$CUZKD" --config "$work/bad3.ini" --check-config 2>&1)
[ $? -ne 0 ] && printf '%s' "$out" | grep -q "preload bn: not valid UTF-8"
check "a preload path that is no UTF-8: refused" $? "$out"
out=$("$CUZKD" --devices gpus --check-config 2>&1)
[ $? -ne 0 ] && printf '%s' "$out" | grep -q "devices = gpus: expected auto"
check "devices: an unknown value is refused, naming the choices" $? "$out"
out=$("$CUZKD" --residency cloud --check-config 2>&1)
[ $? -ne 0 ] && printf '%s' "$out" | grep -q "residency = cloud: expected auto, device, pinned or mapped"
check "residency: an unknown value is refused, naming the choices" $? "$out"
out=$("$CUZKD" --residency mapped --device-key-budget 8G --pinned-limit 16G --urgent-workers 2 \
    --device-work-limit 40G --check-config 2>&1)
check "residency, device_key_budget, pinned_limit, urgent_workers, device_work_limit: accepted" $? "$out"
out=$("$CUZKD" --device-work-limit lots --check-config 2>&1)
[ $? -ne 0 ] && printf '%s' "$out" | grep -q "device_work_limit"
check "device_work_limit: a bad size is refused, naming the option" $? "$out"
# devices = cuda insists on a GPU: without one (CI) cuzkd refuses to start
# and says why; with one it starts.
out=$(timeout 20 "$CUZKD" --devices cuda --listen 127.0.0.1:0 --allow "$FX" 2>&1 &
    sleep 3
    kill %1 2>/dev/null)
if printf '%s' "$out" | grep -q "devices = cuda: "; then
    printf '%s' "$out" | grep -Eq "no GPU is usable|built without CUDA"
    check "devices = cuda without a GPU: refused with the reason" $? "$out"
else
    printf '%s' "$out" | grep -q "listening on .*NVIDIA"
    check "devices = cuda with a GPU: listening on it" $? "$out"
fi
out=$("$CUZKD" --allow /nonexistent/dir --check-config 2>&1)
[ $? -ne 0 ] && printf '%s' "$out" | grep -q "/nonexistent/dir"
check "a missing allowed directory: refused" $? "$out"
out=$("$CUZKD" --frobnicate 2>&1)
[ $? -eq 2 ] && printf '%s' "$out" | grep -q "unknown option '--frobnicate'"
check "an unknown flag: exit 2" $? "$out"
# contrib/: the unit's command line and the example configuration, with the
# paths moved under the test's directory
mkdir -p "$work/etc" "$work/lib/keys" "$work/lib/witnesses"
printf 'tok\n' >"$work/etc/token"
sed -e "s#/etc/cuzk/#$work/etc/#; s#/var/lib/cuzk#$work/lib#g" "$root/contrib/cuzkd.conf" \
    >"$work/etc/cuzkd.conf"
exec_start=$(sed -n 's/^ExecStart=[^ ]* //p' "$root/contrib/cuzkd.service" |
    sed "s#/etc/cuzk/#$work/etc/#")
# shellcheck disable=SC2086 # the unit's arguments, split as systemd splits them
out=$("$CUZKD" $exec_start --check-config 2>&1)
check "contrib/cuzkd.service's command line with contrib/cuzkd.conf passes --check-config" $? \
    "$out"
printf '[server]\ntoken = file-token\n' >>"$work/good.ini"
out=$("$CUZKD" --config "$work/good.ini" --check-config 2>&1)
printf '%s' "$out" | grep -q '^token = (set)$' && ! printf '%s' "$out" | grep -q 'file-token'
check "a token in the file is never printed" $? "$out"
start_daemon "$log" --config "$work/good.ini"
check "cuzkd runs from the file" $? "$(tail -n 3 "$log")"
api GET /v1/keys/bn
[ "$HTTP" = 401 ]
check "the file's token is required" $? "$HTTP"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer file-token' \
    "$U/v1/keys/bn")
[ "$code" = 200 ]
check "with the preloaded key" $? "$code"
stop_daemon
finish
