#!/usr/bin/env bash
# cuzkd's status page (GET /) in a real headless browser (Debian's chromium):
# a daemon with jobs done, failed, cancelled, running and queued; chromium
# loads the page, runs its script (which polls /v1/status and /v1/proofs)
# and dumps the DOM it built. The DOM must hold the job ids, their states,
# the key names and the devices, and a failed job's message (its witness
# path is full of < > &) as text, escaped, never as markup. With a token the
# page itself is served without it. The memory line matches /v1/status, and
# chromium's screenshot of the page is drawn, not blank. Skipped (exit 77)
# without chromium. CUZKD_PAGE_SCREENSHOT=FILE.png keeps the screenshot.
#   tests/daemon/test_page.sh CUZKD CUZK
. "$(dirname "$0")/lib.sh"

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ]; then
    echo "SKIP: chromium is not installed (scripts/deps.sh installs it)"
    exit 77
fi

# browser ARGS... URL: headless chromium, bounded, with a profile of its own.
browser() {
    local profile
    profile=$(mktemp -d "$work/chromium.XXXXXX")
    timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --disable-dev-shm-usage --user-data-dir="$profile" "$@" 2>>"$work/chromium.log"
}

make_fixtures
check "fixtures (cuzk gen, setup, assign)" $? "$(tail -n 5 "$work/fixtures.log")"
# A truncated witness whose name is markup: the job fails with the path in its error.
evil='<i>x&amp;y</i>.wtns'
evil=${evil//\//}
cp "$FX/bn/short.wtns" "$FX/bn/$evil"
log=$work/cuzkd.log
start_daemon "$log" --allow "$FX" --workers 1 --threads 2
check "cuzkd starts" $? "$(tail -n 5 "$log")"

api GET /
[ "$HTTP" = 200 ] && printf '%s' "$BODY" | grep -q '<script>' && printf '%s' "$BODY" | grep -q '/v1/proofs'
check "GET / serves the page" $? "$HTTP"
type=$(curl -s -o /dev/null -w '%{content_type}' "$U/")
[ "$type" = "text/html; charset=utf-8" ]
check "as text/html; charset=utf-8" $? "$type"
api POST /
expect_error "POST /" 405 method_not_allowed

api POST /v1/keys "{\"name\":\"bn\",\"path\":\"$FX/bn/k.zkey\"}"
api POST /v1/keys "{\"name\":\"slow\",\"path\":\"$FX/slow/k.zkey\"}"
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"page-done\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
wait_job page-done
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"page-failed\",\"witness\":{\"path\":\"$FX/bn/$evil\"}}"
wait_job page-failed
failed_error=$(printf '%s' "$BODY" | python3 -c 'import json,sys; print(json.load(sys.stdin)["error"])')
[ "$(jstr state)" = failed ] && printf '%s' "$failed_error" | grep -qF "$evil"
check "the job on the witness named $evil fails, naming it" $? "$BODY"
many=$(for _ in $(seq 1 40); do printf '{"path":"%s"},' "$FX/slow/w.wtns"; done)
api POST /v1/proofs "{\"key\":\"slow\",\"id\":\"page-running\",\"witness\":[${many%,}]}"
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"page-queued\",\"priority\":\"low\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
api POST /v1/proofs "{\"key\":\"bn\",\"id\":\"page-cancelled\",\"priority\":\"low\",\"witness\":{\"path\":\"$FX/bn/w.wtns\"}}"
api DELETE /v1/proofs/page-cancelled
for _ in $(seq 1 200); do
    api GET /v1/proofs/page-running
    [ "$(jstr state)" = running ] && break
    sleep 0.02
done

browser --virtual-time-budget=3000 --dump-dom "$U/" >"$work/dom.html"
check "chromium dumps the page's DOM" $? "$(tail -n 5 "$work/chromium.log")"
python3 - "$work/dom.html" "$evil" <<'EOF'
import html, re, sys
dom = open(sys.argv[1]).read()
evil = sys.argv[2]

def rows(table):
    m = re.search(r'<table id="%s">(.*?)</table>' % table, dom, re.S)
    assert m, "no table " + table
    body = m.group(1).split("<tbody>", 1)[1]
    return [[html.unescape(re.sub(r"<[^>]*>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
            for r in re.findall(r"<tr>(.*?)</tr>", body, re.S)]

def ids(table):
    return {r[0] for r in rows(table) if r}

running, queued, recent, failures = rows("running"), rows("queued"), rows("recent"), rows("failures")
assert "page-running" in ids("running"), running
assert [r for r in running if r[0] == "page-running"][0][1] == "slow", running
assert "<progress" in dom, "no progress bar"
assert "page-queued" in ids("queued"), queued
states = {r[0]: r[1] for r in recent if len(r) > 1}
want = {"page-done": "done", "page-failed": "failed", "page-running": "running",
        "page-queued": "queued", "page-cancelled": "cancelled"}
for k, v in want.items():
    assert states.get(k) == v, (k, states)
assert {"bn", "slow"} <= {r[0] for r in rows("keys")}, rows("keys")
f = [r for r in failures if r and r[0] == "page-failed"]
assert f and evil in f[0][3], failures
# The message is text: escaped in the markup, never an element.
assert html.escape(evil, quote=False) in dom, "the failed job's message is not escaped"
assert "<i>x" not in dom, "the failed job's message became markup"
assert re.search(r'id="devices">cpu: 1 workers?, \d+ threads', dom), "no devices line"
assert re.search(r'id="queue">\d+ jobs? queued', dom), "no queue line"
assert 'id="problem"></div>' in dom, "the page reports a problem: " + dom[dom.find('id="problem"'):][:200]
EOF
check "the DOM: ids, states, keys, devices, queue; the failure's message escaped" $? "$(head -c 3000 "$work/dom.html")"
# The memory line says what /v1/status says, in the page's units.
api GET /v1/status
python3 - "$work/dom.html" "$BODY" <<'EOF'
import json, re, sys
dom, st = open(sys.argv[1]).read(), json.loads(sys.argv[2])

def size(n):
    units, u = ["B", "KiB", "MiB", "GiB", "TiB"], 0
    while n >= 1024 and u < len(units) - 1:
        n, u = n / 1024, u + 1
    return ("%.1f" % n if u else str(n)) + " " + units[u]

m = re.search(r'id="memory">keys ([^,]+), running partitions ([^,]+), budget ([^<]+)<', dom)
assert m, "no memory line: " + dom[dom.find('id="memory"'):][:200]
mem = st["memory"]
assert mem["host_key_bytes"] > 0, mem
assert m.group(1) == size(mem["host_key_bytes"]), (m.group(1), mem)
assert m.group(3) == (size(mem["host_budget"]) if mem["host_budget"] else "none"), (m.group(3), mem)
assert re.fullmatch(r"[0-9.]+ (B|KiB|MiB|GiB|TiB)", m.group(2)), m.group(2)
EOF
check "the DOM: the memory line (keys, running partitions, budget) as /v1/status has it" $? \
    "$(grep -o 'id="memory">[^<]*' "$work/dom.html") | $BODY"
# What a person sees: chromium's screenshot of the page (CUZKD_PAGE_SCREENSHOT=FILE.png
# keeps it), a 1200x1400 PNG with text and tables drawn on it, not a blank one.
shot=${CUZKD_PAGE_SCREENSHOT:-$work/page.png}
browser --virtual-time-budget=3000 --window-size=1200,1400 --screenshot="$shot" "$U/" >/dev/null
python3 - "$shot" <<'EOF'
import struct, sys, zlib
png = open(sys.argv[1], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height, depth, color = struct.unpack(">IIBB", png[16:26])
assert (width, height, depth) == (1200, 1400, 8) and color in (2, 6), (width, height, depth, color)
idat, pos = b"", 8
while pos < len(png):
    n, kind = struct.unpack(">I4s", png[pos:pos + 8])
    if kind == b"IDAT":
        idat += png[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(idat)
bpp = 3 if color == 2 else 4
stride = width * bpp
# Undo each row's filter (PNG: none, sub, up, average, Paeth), then count
# the samples that differ from the page's background (the top-left pixel).
prev, marked, bg = bytearray(stride), 0, None
for y in range(height):
    f, cur = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = cur[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            cur[i] = (cur[i] + a) & 255
        elif f == 2:
            cur[i] = (cur[i] + b) & 255
        elif f == 3:
            cur[i] = (cur[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    bg = bg or bytes(cur[:bpp])
    marked += sum(1 for x in range(0, width, 2) if cur[x * bpp:(x + 1) * bpp] != bg)
    prev = cur
assert marked > 500, "the screenshot is nearly blank: %d marked samples" % marked
EOF
check "chromium's screenshot of the page: 1200x1400, drawn (not blank)" $? "$shot"
stop_daemon

# With a token: the page is served without it, the API is not, and the page says so.
printf 'page-token\n' >"$work/token"
start_daemon "$log" --allow "$FX" --token-file "$work/token"
api GET /
[ "$HTTP" = 200 ]
check "with a token, GET / needs none" $? "$HTTP"
api GET /v1/proofs
expect_error "with a token, GET /v1/proofs needs it" 401 unauthorized
browser --virtual-time-budget=3000 --dump-dom "$U/" >"$work/dom2.html"
grep -q '401: the bearer token is missing or wrong' "$work/dom2.html" &&
    grep -q 'id="token-form" style="display: block;"' "$work/dom2.html"
check "the page asks for the token" $? "$(grep -o 'id="problem">[^<]*' "$work/dom2.html")"
stop_daemon
finish
