#!/usr/bin/env bash
# cuzkd with cuzk's key caches (docs/KEYCACHE.md) over real HTTP:
#   `cuzk convert` writes caches of a BN254 .zkey and a bellperson .params;
#   POST /v1/keys loads them (format "cache", and from the .cuzkkey
#   extension), the key JSON says format cache and what it proves as; a
#   zkey cache proves a .wtns job whose proof `cuzk verify` accepts and
#   equals in layout what the .zkey gives, a params cache an .asgn job
#   checked by `cuzk verify --vk`; the other kind's input is refused (400
#   invalid_request); a truncated cache is refused naming the section; a
#   cache preloaded with --preload NAME=cache:PATH proves too.
#   tests/daemon/test_cache.sh CUZKD CUZK
. "$(dirname "$0")/lib.sh"

make_fixtures
check "fixtures (cuzk gen, setup, assign)" $? "$(tail -n 5 "$work/fixtures.log")"
"$CUZK" convert "$FX/bn/k.zkey" "$FX/bn/k.cuzkkey" >"$work/convert.log" 2>&1 &&
    "$CUZK" convert "$FX/bp/k.params" "$FX/bp/k.cuzkkey" >>"$work/convert.log" 2>&1
check "cuzk convert: the .zkey and the .params" $? "$(tail -n 5 "$work/convert.log")"
size=$(stat -c %s "$FX/bn/k.cuzkkey")
head -c $((size - 4096)) "$FX/bn/k.cuzkkey" >"$FX/bn/short.cuzkkey"

log=$work/cuzkd.log
start_daemon "$log" --allow "$FX" --workers 1 --threads 2
check "cuzkd starts and listens" $? "$(tail -n 5 "$log")"

# ---- loading ---------------------------------------------------------------------
api POST /v1/keys "{\"name\":\"bnc\",\"path\":\"$FX/bn/k.cuzkkey\",\"format\":\"cache\"}"
[ "$HTTP" = 201 ] && [ "$(jstr format)" = cache ] && [ "$(jstr proves_as)" = zkey ] &&
    [ "$(jnum bytes)" = "$size" ]
check "a zkey cache loads: 201, format cache, proves as zkey, its size in bytes" $? "$HTTP $BODY"
api POST /v1/keys "{\"name\":\"bpc\",\"path\":\"$FX/bp/k.cuzkkey\"}"
[ "$HTTP" = 201 ] && [ "$(jstr format)" = cache ] && [ "$(jstr proves_as)" = params ]
check "a params cache loads, format from the .cuzkkey extension" $? "$HTTP $BODY"
api POST /v1/keys "{\"name\":\"short\",\"path\":\"$FX/bn/short.cuzkkey\"}"
expect_error "a truncated cache" 400 bad_key
printf '%s' "$BODY" | grep -q "section h: truncated"
check "the message names the truncated section" $? "$BODY"
api POST /v1/keys "{\"name\":\"wrong\",\"path\":\"$FX/bp/k.params\",\"format\":\"cache\"}"
expect_error ".params loaded as a cache" 400 bad_key

# ---- proving -----------------------------------------------------------------------
out=$("$CUZK" submit --key bnc --witness "$FX/bn/w.wtns" --wait --proof "$work/p.json" \
    --public "$work/pub.json" 2>&1)
check "cuzk submit --witness to the zkey cache" $? "$out"
out=$("$CUZK" verify "$FX/bn/vk.json" "$work/pub.json" "$work/p.json" 2>&1)
[ "$out" = OK ]
check "cuzk verify accepts the zkey cache's proof" $? "$out"
"$CUZK" prove "$FX/bn/k.zkey" "$FX/bn/w.wtns" "$work/p_cli.json" "$work/pub_cli.json" >/dev/null 2>&1
cmp -s "$work/pub.json" "$work/pub_cli.json"
check "its public.json is byte-identical to cuzk prove's with the .zkey" $?
out=$("$CUZK" submit --key bpc --assignment "$FX/bp/a.asgn" --wait --proof "$work/bp.bin" \
    --public "$work/bp_in.json" 2>&1)
check "cuzk submit --assignment to the params cache" $? "$out"
out=$("$CUZK" verify --vk "$FX/bp/k.vk" --inputs "$work/bp_in.json" --proof "$work/bp.bin" 2>&1)
[ "$out" = OK ] && [ "$(wc -c <"$work/bp.bin")" -eq 192 ]
check "cuzk verify --vk accepts the params cache's 192-byte proof" $? "$out"
api POST /v1/proofs "{\"key\":\"bnc\",\"witness\":{\"assignment_path\":\"$FX/bp/a.asgn\"}}"
expect_error "an assignment for a zkey cache" 400 invalid_request
api POST /v1/proofs "{\"key\":\"bpc\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
expect_error "a witness for a params cache" 400 invalid_request
stop_daemon
check "cuzkd stops on SIGTERM" $?

# ---- preloaded ---------------------------------------------------------------------
start_daemon "$log" --allow "$FX" --workers 1 --threads 2 --preload "pre=cache:$FX/bn/k.cuzkkey"
check "cuzkd starts with --preload pre=cache:..." $? "$(tail -n 5 "$log")"
out=$("$CUZK" submit --key pre --witness "$FX/bn/w.wtns" --wait --proof "$work/pp.json" \
    --public "$work/ppub.json" 2>&1) &&
    [ "$("$CUZK" verify "$FX/bn/vk.json" "$work/ppub.json" "$work/pp.json" 2>&1)" = OK ]
check "the preloaded cache proves" $? "$out"
stop_daemon
finish
