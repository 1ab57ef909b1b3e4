#!/usr/bin/env bash
# cuzkd against slow and stalled clients on loopback (bounded: ~25 s).
#   1. One host (127.0.0.2) opens far more connections than the server
#      serves and sends a byte of its request header a second: the host gets
#      only its share (--max-client-connections), the guard shuts its
#      connections down past --header-timeout, and requests from 127.0.0.1
#      are answered throughout.
#   2. Many hosts (127.0.0.10 ...) take every slot the same way: requests
#      from 127.0.0.1 are answered quickly (200, or 503 while the slots are
#      full), never reset or left hanging; the slow connections that waited
#      longest make room.
#   3. A host (127.0.0.3) that holds its --max-client-connections: its
#      next request is answered 503 busy at once, with Retry-After.
#   4. /metrics counts the refusals and the header timeouts.
#   5. Without --header-timeout, a connection that sends nothing is shut
#      down after the default 5 s.
#   tests/daemon/test_slowloris.sh CUZKD_BINARY CUZK_BINARY [LOADGEN]
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null; then
    echo "SKIP: python3 is not installed (scripts/deps.sh installs it)"
    exit 77
fi

log=$work/cuzkd.log
mkdir -p "$work/allow"
start_daemon "$log" --allow "$work/allow" --max-connections 16 --max-client-connections 4 \
    --header-timeout 2
check "cuzkd starts" $? "$(tail -n 5 "$log")"

# slow_clients FIRST_HOST HOSTS PER_HOST SECONDS: PER_HOST connections from
# each of HOSTS loopback addresses from 127.0.0.FIRST_HOST, each sending one
# byte of a request header a second for SECONDS. Prints how many
# connections were accepted and how many the server closed before the end.
slow_clients() {
    python3 - "$PORT" "$@" <<'EOF'
import socket, sys, time
port, first, hosts, per_host, seconds = (int(a) for a in sys.argv[1:6])
socks, accepted, closed = [], 0, 0
for h in range(hosts):
    for _ in range(per_host):
        s = socket.socket()
        s.settimeout(1.0)
        try:
            s.bind(("127.0.0.%d" % (first + h), 0))
            s.connect(("127.0.0.1", port))
            socks.append(s)
        except OSError:
            s.close()
header = b"GET /v1/status HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 64
deadline = time.time() + seconds
i = 0
while time.time() < deadline and socks:
    alive = []
    for s in socks:
        try:
            s.send(header[i % len(header):i % len(header) + 1])
            alive.append(s)
        except OSError:
            closed += 1
            s.close()
    # A connection the server refused at accept or shut down reads as EOF.
    still = []
    for s in alive:
        s.setblocking(False)
        try:
            if s.recv(1) == b"":
                closed += 1
                s.close()
                continue
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
            s.close()
            continue
        s.setblocking(True)
        still.append(s)
    socks = still
    i += 1
    time.sleep(1.0)
print(len(socks) + closed, closed)
EOF
}

# probe SECONDS: a request from 127.0.0.1 every 0.5 s for SECONDS; prints
# the answers (HTTP status, 000 for none) and the slowest answer in ms.
probe() {
    local end=$((SECONDS + $1)) codes="" slowest=0
    while [ $SECONDS -lt $end ]; do
        local out
        out=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time 3 "$U/v1/status")
        local code=${out% *} ms
        ms=$(awk -v t="${out#* }" 'BEGIN { printf "%d", t * 1000 }')
        [ "$ms" -gt "$slowest" ] && slowest=$ms
        codes="$codes $code"
        sleep 0.5
    done
    echo "$slowest$codes"
}

# 1. One host with 40 slow connections.
slow_clients 2 1 40 8 >"$work/slow1" &
spid=$!
sleep 0.5
answers=$(probe 6)
wait $spid
read -r opened closed <"$work/slow1"
slowest=${answers%% *}
codes=${answers#* }
case " $codes " in *" 000 "* | *" 503 "*) ok=1 ;; *) ok=0 ;; esac
check "requests from 127.0.0.1 answered 200 beside one slow host" $ok "$codes"
[ "$slowest" -lt 2000 ]
check "and quickly" $? "slowest ${slowest} ms"
[ "$opened" -eq 40 ] && [ "$closed" -eq 40 ]
check "the server closed every one of the slow host's connections" $? \
    "$opened connected, $closed closed by the server"

# 2. Twenty hosts with 2 slow connections each: more than every slot.
slow_clients 10 20 2 8 >"$work/slow2" &
spid=$!
sleep 0.5
answers=$(probe 6)
wait $spid
slowest=${answers%% *}
codes=${answers#* }
bad=$(printf '%s\n' $codes | grep -cv '^\(200\|503\)$')
check "requests while every slot is taken are answered (200 or 503), never reset" "$bad" "$codes"
[ "$slowest" -lt 1000 ]
check "and quickly" $? "slowest ${slowest} ms"

# 3. One host at its share: four connections from 127.0.0.3 that send
# nothing yet, then a fifth with a whole request.
python3 - "$PORT" >"$work/over" <<'EOF'
import socket, sys, time
port = int(sys.argv[1])
src = ("127.0.0.3", 0)
held = [socket.create_connection(("127.0.0.1", port), timeout=3, source_address=src)
        for _ in range(4)]
t0 = time.time()
s = socket.create_connection(("127.0.0.1", port), timeout=3, source_address=src)
answer = b""
try:
    s.sendall(b"GET /v1/status HTTP/1.1\r\nHost: x\r\n\r\n")
    while True:
        b = s.recv(65536)
        if not b:
            break
        answer += b
except OSError:
    pass
ms = int(1000 * (time.time() - t0))
head, _, body = answer.partition(b"\r\n\r\n")
lines = head.decode(errors="replace").split("\r\n")
status = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "000"
retry = "retry-after" if "retry-after: 1" in [l.lower() for l in lines] else "-"
print(status, ms, retry, body.decode(errors="replace"))
EOF
read -r over_status over_ms over_retry over_body <"$work/over"
[ "$over_status" = 503 ] && [ "$over_retry" = retry-after ] &&
    printf '%s' "$over_body" | grep -q '"code":"busy"' &&
    printf '%s' "$over_body" | grep -q 'this client host holds its maximum of 4 connections'
check "a host over --max-client-connections: 503 busy with Retry-After, not a closed connection" \
    $? "$(cat "$work/over")"
[ "${over_ms:-9999}" -lt 1000 ]
check "and quickly" $? "${over_ms} ms"

# 4. The counts.
api GET /metrics
refused_client=$(printf '%s\n' "$BODY" | awk '/^cuzkd_http_connections_refused_total\{reason="client"\}/ { print $2 }')
timeouts=$(printf '%s\n' "$BODY" | awk '/^cuzkd_http_slow_connections_total\{reason="header_timeout"\}/ { print $2 }')
evicted=$(printf '%s\n' "$BODY" | awk '/^cuzkd_http_slow_connections_total\{reason="evicted"\}/ { print $2 }')
[ "${refused_client:-0}" -gt 0 ]
check "/metrics counts connections refused per client host" $? "$refused_client"
[ "${timeouts:-0}" -gt 0 ]
check "/metrics counts header timeouts" $? "$timeouts"
[ "${evicted:-0}" -gt 0 ]
check "/metrics counts slow connections shut to make room" $? "$evicted"

# Once the slow clients are gone, requests are served as before.
api GET "/v1/status"
[ "$HTTP" = 200 ]
check "a normal request is served afterwards" $? "$HTTP"

stop_daemon
check "cuzkd drains and exits 0" $?

# 5. The default header timeout.
start_daemon "$log" --allow "$work/allow"
python3 - "$PORT" >"$work/idle" <<'EOF'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=15)
t0 = time.time()
try:
    s.recv(1)
except OSError:
    pass
print(int(1000 * (time.time() - t0)))
EOF
idle_ms=$(cat "$work/idle")
[ "${idle_ms:-0}" -ge 4500 ] && [ "${idle_ms:-0}" -lt 6500 ]
check "by default a connection that sends no header is shut down after 5 s" $? "${idle_ms} ms"
stop_daemon
finish
