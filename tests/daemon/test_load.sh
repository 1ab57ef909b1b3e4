#!/usr/bin/env bash
# A bounded load test of cuzkd over real HTTP: 300 small proofs (BN254, 300
# constraints) from 8 concurrent clients, with the journal on, must all end
# done with a proof; then the latency benchmark (50 proofs one after the
# other against the same proofs made in process with the key loaded). The
# numbers are printed (docs/PERFORMANCE.md records them); only failures
# fail the test, not the speed of the machine.
#   tests/daemon/test_load.sh CUZKD CUZK CUZKD_LOADGEN
. "$(dirname "$0")/lib.sh"
LOADGEN=$3
JOBS=${CUZKD_LOAD_JOBS:-300}
CLIENTS=${CUZKD_LOAD_CLIENTS:-8}

fx=$work/fx
mkdir -p "$fx"
{
    "$CUZK" gen --curve bn128 --constraints 300 --public 3 --seed 51 "$fx/c.r1cs" "$fx/w.wtns" &&
        "$CUZK" setup --seed 52 "$fx/c.r1cs" "$fx/k.zkey" --vk "$fx/vk.json"
} >"$work/fixtures.log" 2>&1
check "fixtures" $? "$(tail -n 3 "$work/fixtures.log")"
log=$work/cuzkd.log
start_daemon "$log" --allow "$fx" --journal "$work/journal" --workers "${CUZKD_LOAD_WORKERS:-2}" \
    --threads "$(nproc)"
check "cuzkd starts" $? "$(tail -n 3 "$log")"
api POST /v1/keys "{\"name\":\"k\",\"path\":\"$fx/k.zkey\"}"
check "the key loads" $([ "$HTTP" = 201 ]; echo $?) "$HTTP $BODY"

out=$("$LOADGEN" load --server "$CUZK_SERVER" --key k --witness "$fx/w.wtns" --clients "$CLIENTS" \
    --jobs "$JOBS" 2>&1)
rc=$?
echo "$out"
check "$JOBS proofs from $CLIENTS clients, zero failures" $rc
api GET /v1/status
[ "$(jnum jobs_done)" = "$JOBS" ] && [ "$(jnum key_loads)" = 1 ] && [ "$(jnum jobs_failed)" = 0 ]
check "the daemon counts $JOBS done, none failed, and the key was loaded once" $? "$BODY"
[ "$(find "$work/journal/jobs" -name '*.job' | wc -l)" -eq "$JOBS" ]
check "every accepted job is in the journal" $?

out=$("$LOADGEN" latency --server "$CUZK_SERVER" --key k --witness "$fx/w.wtns" --zkey "$fx/k.zkey" \
    --jobs "${CUZKD_LATENCY_JOBS:-50}" 2>&1)
rc=$?
echo "$out"
check "the latency benchmark" $rc
stop_daemon
check "exit 0" $?
finish
