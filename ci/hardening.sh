#!/usr/bin/env bash
# End-to-end hardening checks on real processes (docs/reliability.md): the reproductions of the defects listed there,
# run again against ./lab up, then graceful shutdown of the gateway under load. Loopback only; every load is
# bounded.
set -euo pipefail
CI_NAME=hardening
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ci_results hardening
GWP=$(lab_prop service.gateway.port)
GW=http://127.0.0.1:$GWP
GWM=http://127.0.0.1:$(lab_prop service.gateway.management-port)
DIRECT=http://127.0.0.1:$(lab_prop service.study-service.port)
MONO=http://127.0.0.1:$(lab_prop service.monolith.port)


# answer_to PORT REQUEST: send bytes (\r\n escapes expanded), print the whole answer; raw_to PORT REQUEST: its status
# line; raw REQUEST: to the gateway
answer_to() {
  python3 - "$1" "$2" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s.sendall(sys.argv[2].encode("latin-1").decode("unicode_escape").encode("latin-1"))
data = b""
try:
    while chunk := s.recv(65536):
        data += chunk
except socket.timeout:
    pass
print(data.decode("latin-1"))
PY
}
raw_to() { local answer; answer=$(answer_to "$1" "$2"); printf '%s\n' "${answer%%$'\r'*}"; }
raw() { raw_to "$GWP" "$1"; }
status() { curl -s -o /dev/null -w '%{http_code} %{content_type}' "$@"; }
# mark_logs, then new_log_lines LOG: what .lab/logs/LOG.log got since (the access log outlives ./lab down)
mark_logs() { for s in gateway gateway-access study-service monolith; do cat ".lab/logs/$s.log" 2>/dev/null | wc -l > "$OUT/$s.mark"; done; }
new_log_lines() { tail -n +$(( $(cat "$OUT/$1.mark") + 1 )) ".lab/logs/$1.log"; }
# await_access ID: until the gateway's (async) access log has the request with this id, 10 s at most
await_access() { local deadline=$((SECONDS + 10)); until new_log_lines gateway-access | grep -q "id=$1 " || [ $SECONDS -ge $deadline ]; do sleep 0.2; done; }
# upstream_active: calls under way from the gateway to study-service (Reactor Netty's pool gauge); await_upstream_active
# N: until there are N, 15 s at most (says how many it saw)
upstream_active() {
  curl -s "$GWM/actuator/prometheus" | awk -v port="${DIRECT##*:}" '/^reactor_netty_connection_provider_active_connections\{/ \
    && index($0, ":" port "\"") { n += $NF } END { printf "%d\n", n }'
}
await_upstream_active() {
  local deadline=$((SECONDS + 15)) n
  until n=$(upstream_active); [ "$n" -ge "$1" ] || [ $SECONDS -ge $deadline ]; do sleep 0.1; done
  echo "  $n calls under way upstream"
}
export -f answer_to raw_to raw status mark_logs new_log_lines await_access upstream_active await_upstream_active
export GWP GWM DIRECT OUT

# the apps' own login limits (./lab raises them for the load plans unless they are set); Netty's leak detector on
# every buffer (the default is off, for cost): the probes below abort, cut short and time out requests mid-flight;
# study-service's and the monolith's request-head deadline cut from 10 s to 2 s, so a head sent a byte a second shows it
GATEWAY_LOGIN_PER_IP=10 MONOLITH_LOGIN_PER_USER=5 GATEWAY_NETTY_LEAK_DETECTION=paranoid TOMCAT_REQUEST_HEAD_TIMEOUT=2s \
  ./lab up
mark_logs

echo "== metric cardinality: made-up methods are one OTHER tag"
for i in $(seq 20); do curl -s -o /dev/null -X "PROBEM$i" "$GW/api/studies/1"; done
curl -s "$GWM/actuator/prometheus" > "$OUT/gateway-metrics.txt"
check "no PROBEM series on the gateway" bash -c '! grep -q PROBEM "$0"' "$OUT/gateway-metrics.txt"
check "httpMethod=\"OTHER\" counted instead" grep -q 'httpMethod="OTHER"' "$OUT/gateway-metrics.txt"

echo "== malformed and abusive HTTP"
check "HTTP/1.1 without Host → 400" bash -c '[[ "$(raw "GET /api/studies/1 HTTP/1.1\r\n\r\n")" == "HTTP/1.1 400 "* ]]'
check "two Host headers → 400" bash -c '[[ "$(raw "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")" == "HTTP/1.1 400 "* ]]'
check "Host: a b<> → 400" bash -c '[[ "$(raw "GET /api/studies/1 HTTP/1.1\r\nHost: a b<>\r\n\r\n")" == "HTTP/1.1 400 "* ]]'
check "HTTP/9.9 → 505" bash -c '[[ "$(raw "GET /api/studies/1 HTTP/9.9\r\nHost: a\r\n\r\n")" == "HTTP/1.1 505 "* ]]'
check "malformed chunk → 400" bash -c '[[ "$(raw "POST /api/studies HTTP/1.1\r\nHost: a\r\nX-Request-Id: e2e-bad-chunk\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n")" == "HTTP/1.1 400 "* ]]'
await_access e2e-bad-chunk
check "… and the access log says 400, the gateway log has no ERROR" \
  bash -c 'new_log_lines gateway-access | grep -q "id=e2e-bad-chunk .*status=400" && ! grep -q "ERROR" .lab/logs/gateway.log'
check "TRACE → 405 problem+json" bash -c '[ "$(status -X TRACE "$0/api/studies/1")" = "405 application/problem+json" ]' "$GW"
check "%00 in the path → 400 problem+json" bash -c '[ "$(status "$0/api/studies/%00")" = "400 application/problem+json" ]' "$GW"
check "encoded slash on the management port → 400, not 500" \
  bash -c '[ "$(status "$0/actuator/health/a%2fb" | cut -c1-3)" = 400 ]' "$GWM"
check "GET /error on study-service → 404 problem+json" bash -c '[ "$(status "$0/error")" = "404 application/problem+json" ]' "$DIRECT"
check "browser 404 on study-service → problem+json, not Whitelabel" \
  bash -c '[ "$(status -H "Accept: text/html" "$0/nope")" = "404 application/problem+json" ]' "$DIRECT"
# Java's dual-stack sockets show an IPv4 loopback bind as [::ffff:127.0.0.1]
check "management ports listen on loopback only" bash -c '! ss -ltn | grep -E ":(908[0-2])\b" | grep -vqE "127\.0\.0\.1\]?:"'

HEADERS_101=$(for i in $(seq 101); do printf 'X-H%s: v\\r\\n' "$i"; done)
check "101 headers → 431 problem+json" \
  bash -c '[[ "$(raw "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\n$0\r\n")" == "HTTP/1.1 431 "* ]]' "$HEADERS_101"
check "a client stalling its own body → 408 (not 504)" \
  bash -c '[[ "$(raw "POST /api/studies HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"ti")" == "HTTP/1.1 408 "* ]]'
check "encoded slash on study-service's and the monolith's management ports → 400 problem+json" \
  bash -c '[ "$(status "$0/actuator/health/a%2fb")" = "400 application/problem+json" ] && [ "$(status "$1/actuator/health/a%2fb")" = "400 application/problem+json" ]' \
  "http://127.0.0.1:$(lab_prop service.study-service.management-port)" "http://127.0.0.1:$(lab_prop service.monolith.management-port)"

echo "== path tricks and hang-ups leave no WARN or stack trace"
mark_logs
check "dot and empty segments at the gateway → 400 problem+json (never forwarded)" bash -c 'for p in /api/studies/../../actuator \
    /api/studies/%2e%2e/%2e%2e/actuator "/api/studies/..;/actuator" /api/studies//1 /css/../login; do
  [ "$(status --path-as-is "$0$p")" = "400 application/problem+json" ] || { echo "  $p"; exit 1; }; done' "$GW"
for base in "$GW" "$DIRECT" "$MONO"; do
  for p in /api/studies/../../actuator /api/studies/%2e%2e/%2e%2e/actuator "/api/studies/..;/actuator" /css/a../b /css/META-INF/x; do
    curl -s --path-as-is -o /dev/null "$base$p"
  done
  raw_to "${base##*:}" "GET /api/studies/..\\\\..\\\\etc HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n" > /dev/null
done
python3 - "$GWP" <<'PY'
import socket, subprocess, sys
clients = []
for i in range(200):  # half a body each, then hang up
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b"POST /api/studies HTTP/1.1\r\nHost: a\r\nX-Request-Id: e2e-mid-body-%d\r\n"
              b"Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{\"ti" % i)
    clients.append(s)
# hang up while the calls are under way; until then one more byte of body a second (at most 15 of the 46 missing), or
# on a busy machine the first clients would stall for the gateway's read timeout (3 s) and rightly get its 408
waiting = subprocess.Popen(["bash", "-c", "await_upstream_active 200"])
while True:
    try:
        waiting.wait(timeout=1)
        break
    except subprocess.TimeoutExpired:
        for s in clients:
            s.sendall(b" ")
for s in clients:
    s.close()
PY
raw "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nX-Request-Id: e2e-after-hangups\r\nConnection: close\r\n\r\n" > /dev/null
await_access e2e-after-hangups
check "200 clients hanging up mid-body: status=400 in the access log" \
  bash -c '[ "$(new_log_lines gateway-access | grep "id=e2e-mid-body-" | grep -c "status=400")" -eq 200 ]'
check "… and no WARN, ERROR or stack trace in any app's log ($(for s in gateway study-service monolith; do printf "%s %s " $s "$(new_log_lines $s | grep -cE " (WARN|ERROR) |^\s+at |Http11Processor")"; done))" \
  bash -c 'for s in gateway study-service monolith; do ! new_log_lines $s | grep -qE " (WARN|ERROR) |^\s+at |Http11Processor" || exit 1; done'

echo "== early answers reach a client that is still sending (lingering close)"
for mb in 5 50; do
  python3 -c "import sys; sys.stdout.write('{\"title\":\"' + 'a'*($mb*1000000) + '\"}')" > "$OUT/big.json"
  # curl sends a chunked body with Expect: 100-continue: it got 100 Continue, then a reset
  code=0; curl -s -i -H "Transfer-Encoding: chunked" -H "Content-Type: application/json" --data-binary @"$OUT/big.json" \
    "$GW/api/studies" > "$OUT/upload-${mb}mb.txt" || code=$?
  check "a ${mb} MB chunked upload → 413 problem+json at the client, no reset (curl exit $code)" \
    bash -c '[ "$1" = 0 ] && grep -q "^HTTP/1.1 413 " "$0" && grep -qi "^content-type: application/problem+json" "$0"' \
    "$OUT/upload-${mb}mb.txt" "$code"
done
rm -f "$OUT/big.json"
# stream PORT PAUSE_SECONDS: a chunked upload of a JSON title that never ends (study-service keeps reading it); prints
# the seconds until the gateway closed the connection and whether its 413 arrived meanwhile
stream() {
  python3 - "$@" <<'PY'
import socket, sys, threading, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s.sendall(b"POST /api/studies HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
got = bytearray()
def read():
    try:
        while (c := s.recv(65536)):
            got.extend(c)
    except OSError:
        pass
threading.Thread(target=read, daemon=True).start()
start, chunk = time.monotonic(), b"2000\r\n" + b"a" * 8192 + b"\r\n"
s.sendall(b'a\r\n{"title":"\r\n')
try:
    while time.monotonic() - start < 30:
        s.sendall(chunk)
        time.sleep(float(sys.argv[2]))
except OSError:
    pass
print("%.1f %s" % (time.monotonic() - start, "413" if got.startswith(b"HTTP/1.1 413 ") else "no-413"))
PY
}
export -f stream
read -r secs answer <<< "$(stream "$GWP" 0.01)"
check "a client that never stops sending gets its 413 and is closed after the lingering time (${secs} s, ${answer})" \
  bash -c '[ "$1" = 413 ] && awk -v s="$0" "BEGIN { exit !(s >= 1.5 && s <= 6) }"' "$secs" "$answer"
read -r secs answer <<< "$(stream "$GWP" 0)"
# (a client that neither reads nor stops may lose the answer to the final reset: the bound is what is promised)
check "… and, sending flat out, after the lingering size (${secs} s)" awk -v s="$secs" "BEGIN { exit !(s <= 6) }"
check "Expect: 100-continue, then a stalled body → 100 Continue, then 408 problem+json" bash -c 'python3 - "$GWP" <<'"'"'PY'"'"'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s.sendall(b"POST /api/studies HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
data = b""
while b"\r\n\r\n" not in data:
    data += s.recv(65536)
s.sendall(b"{\"ti")
while (c := s.recv(65536)):
    data += c
sys.exit(0 if data.startswith(b"HTTP/1.1 100 ") and b"HTTP/1.1 408 " in data and b"application/problem+json" in data else 1)
PY'

echo "== pipelining: past the depth one 429 in order, no WARN, an honest access log"
mark_logs
python3 - "$GWP" > "$OUT/pipelined.txt" <<'PY'
import re, socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s.sendall(b"".join(b"GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nX-Request-Id: e2e-pipe-%d\r\n\r\n" % i for i in range(200)))
data = b""
while (c := s.recv(65536)):
    data += c
print(" ".join(status.decode() for status in re.findall(rb"HTTP/1\.1 (\d{3}) ", data)))
PY
answered=$(tr ' ' '\n' < "$OUT/pipelined.txt" | grep -c '^200$' || true)
raw "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\nX-Request-Id: e2e-after-pipe\r\nConnection: close\r\n\r\n" > /dev/null
await_access e2e-after-pipe
check "200 pipelined GETs → $answered × 200 in order, then one 429 and the close" \
  bash -c '[ "$1" -ge 64 ] && [ "$(cat "$0")" = "$(printf "200 %.0s" $(seq "$1"))429" ]' "$OUT/pipelined.txt" "$answered"
check "… an access line with status=200 for each of the $answered answered, none for the rest" \
  bash -c '[ "$(new_log_lines gateway-access | grep -c "id=e2e-pipe-")" -eq "$0" ] && ! new_log_lines gateway-access | grep "id=e2e-pipe-" | grep -vq "status=200"' "$answered"
check "… and no WARN in the gateway's log (Netty's maxPipelineDepth)" bash -c '! new_log_lines gateway | grep -qE " (WARN|ERROR) "'

echo "== header limits: what study-service's Tomcat would refuse is the gateway's 431"
# lines LINES SIZE: LINES header lines after Host and before Connection, the last one SIZE bytes long
lines() { local i out=""; for ((i = 1; i < $1; i++)); do out+="X-H$i: v\r\n"; done; printf '%sX-Last: %s\\r\\n' "$out" "$(head -c "$2" /dev/zero | tr '\0' v)"; }
export -f lines
check "95 header lines → 200 from study-service" \
  bash -c '[[ "$(raw "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\n$(lines 93 1)Connection: close\r\n\r\n")" == "HTTP/1.1 200 "* ]]'
check "96 and 100 header lines → 431 (study-service answered a bare 400)" \
  bash -c 'for n in 94 98; do [[ "$(raw "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\n$(lines $n 1)Connection: close\r\n\r\n")" == "HTTP/1.1 431 "* ]] || exit 1; done'
check "a 7,400-byte header → 200 from study-service; an 8,000-byte one → 431" \
  bash -c '[[ "$(raw "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\n$(lines 1 7400)Connection: close\r\n\r\n")" == "HTTP/1.1 200 "* ]] &&
    [[ "$(raw "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\n$(lines 1 8000)Connection: close\r\n\r\n")" == "HTTP/1.1 431 "* ]]'

echo "== buffers: no Netty buffer leaked by the probes so far"
# a leaked buffer is reported when it has been garbage-collected and a later allocation polls the detector's queue
gw_pid=$(cat .lab/gateway.pid)
"$(dirname "$(readlink -f "/proc/$gw_pid/exe")")/jcmd" "$gw_pid" GC.run > /dev/null
for i in $(seq 200); do curl -s -o /dev/null "$GW/api/studies/$((i % 50 + 1))"; done
check "no LEAK report in the gateway's log (leak detection paranoid)" bash -c '! grep -q "LEAK:" .lab/logs/gateway.log'

echo "== login: cookie, headers, per-address limit"
curl -s -D "$OUT/login.headers" -o /dev/null "$GW/login"
check "the login page sets the CSRF token's cookie (HttpOnly, SameSite=Lax) and no session cookie" bash -c \
  'grep -qi "^set-cookie: XSRF-TOKEN=.*HttpOnly.*SameSite=Lax" "$0" && ! grep -qi "^set-cookie: JSESSIONID=" "$0"' \
  "$OUT/login.headers"
check "Content-Security-Policy and Referrer-Policy present" \
  bash -c 'grep -qi "^content-security-policy: default-src" "$0" && grep -qi "^referrer-policy: " "$0"' "$OUT/login.headers"
for i in $(seq 12); do
  curl -s -o /dev/null -w '%{http_code}\n' -X POST -H 'X-Forwarded-For: 198.51.100.77' -d "username=user$i&password=x" "$GW/login"
done > "$OUT/login-burst.txt"
check "a burst of 12 logins from one address gets 429 after 10" [ "$(grep -c 429 "$OUT/login-burst.txt")" -eq 2 ]
check "… with Retry-After" bash -c 'curl -s -D - -o /dev/null -X POST -H "X-Forwarded-For: 198.51.100.77" -d "username=u&password=x" "$0/login" | grep -qi "^retry-after: [0-9]"' "$GW"
check "another address is unaffected" \
  bash -c '[ "$(curl -s -o /dev/null -w "%{http_code}" -X POST -H "X-Forwarded-For: 198.51.100.78" -d "username=u&password=x" "$0/login")" != 429 ]' "$GW"
# every client whose forwarded address was not IPv4 shared the proxy's bucket
# (a user name per attempt: the monolith's own per-user limit stays out of the way)
login_as() { curl -s -w ' %{http_code}' -X POST ${1:+-H "X-Forwarded-For: $1"} -d "username=xff-$RANDOM&password=x" "$GW/login"; }
export -f login_as; export GW
for i in $(seq 11); do login_as 2001:db8::1; echo; done > "$OUT/login-ipv6.txt"
check "11 logins forwarded for 2001:db8::1 → the 11th is the gateway's 429 for 2001:db8:0:0::/64" \
  bash -c 'tail -n 1 "$0" | grep -q "Too many login attempts from 2001:db8:0:0::/64.* 429$"' "$OUT/login-ipv6.txt"
check "… and another IPv6 client, the proxy itself and 'X-Forwarded-For: unknown' are unaffected" \
  bash -c 'for xff in 2001:db8:1::1 "" unknown; do [[ "$(login_as "$xff")" != *" 429" ]] || exit 1; done'

echo "== study-service and the monolith: header fields over Tomcat's limits → 431 problem+json naming the limit"
LARGE_HEADER="X-Large: $(head -c 8300 /dev/zero | tr '\0' a)\r\n"
for svc in study-service monolith; do
  for key in port management-port; do
    p=$(lab_prop "service.$svc.$key")
    answer_to "$p" "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\n${HEADERS_101}Connection: close\r\n\r\n" > "$OUT/431-count-$p.txt"
    answer_to "$p" "GET /api/studies/1 HTTP/1.1\r\nHost: a\r\n${LARGE_HEADER}Connection: close\r\n\r\n" > "$OUT/431-size-$p.txt"
    check "$svc :$p, 101 header lines → 431 problem+json, \"more than 100 header fields\"" bash -c 'grep -q "^HTTP/1.1 431 " "$0" \
      && grep -qi "^content-type: application/problem+json" "$0" && grep -q "\"detail\":\"The request has more than 100 header fields.\"" "$0"' \
      "$OUT/431-count-$p.txt"
    check "$svc :$p, an 8,300-byte header → 431 problem+json, \"larger than 8192 bytes\"" bash -c 'grep -q "^HTTP/1.1 431 " "$0" \
      && grep -q "\"title\":\"Request Header Fields Too Large\",\"status\":431,\"detail\":\"The request line and header fields are larger than 8192 bytes.\"" "$0"' \
      "$OUT/431-size-$p.txt"
  done
done

echo "== monolith login: a user name with a control character neither signs in nor escapes the per-user limit"
# login_attempt BASE USER PASSWORD: POST /login from a new session (user name already URL-encoded); prints the status
# and the Location header. Through the gateway from its own forwarded address, so the gateway's per-address budget
# (10 attempts) holds the 8 made here.
login_attempt() {
  local jar token answer
  jar=$(mktemp)
  token=$(curl -s -c "$jar" -b "$jar" -H "X-Forwarded-For: 198.51.100.90" "$1/login" | sed -n 's/.*name="_csrf" value="\([^"]*\)".*/\1/p')
  answer=$(curl -s -o /dev/null -c "$jar" -b "$jar" -H "X-Forwarded-For: 198.51.100.90" -w '%{http_code} %header{location}' \
    --data "username=$2&password=$3&_csrf=$token" "$1/login")
  rm -f "$jar"
  echo "$answer"
}
for target in "$MONO user7" "$GW user8"; do
  read -r base user <<< "$target"
  for i in 1 2 3 4 5; do login_attempt "$base" "$user" wrong > /dev/null; done
  check "$user on ${base##*:}: after five wrong passwords the right one gets 429" \
    test "$(login_attempt "$base" "$user" password | cut -d' ' -f1)" = 429
  for spelling in "%01$user" "$user%00"; do
    answer=$(login_attempt "$base" "$spelling" password)
    check "… and $spelling with the right password is refused: 400, no sign-in (got: $answer)" test "$answer" = "400 "
  done
done

echo "== monolith: no session before a sign-in, a login budget only tokens spend, relative redirects"
# monolith_metric NAME: the monolith's value of a Prometheus series (summed over its labels); empty when it has none
MONO_MANAGEMENT=http://127.0.0.1:$(lab_prop service.monolith.management-port)
monolith_metric() {
  curl -s "$MONO_MANAGEMENT/actuator/prometheus" \
    | awk -v name="$1" '$1 == name || index($1, name "{") == 1 { n += $NF; found = 1 } END { if (found) printf "%d\n", n }'
}
export -f monolith_metric; export MONO_MANAGEMENT
created=$(monolith_metric tomcat_sessions_created_sessions_total)
python3 - "${MONO##*:}" > "$OUT/anonymous-gets.txt" <<'PY'
import http.client, sys, threading
port, paths, statuses, lock = int(sys.argv[1]), ["/", "/login", "/login?error", "/settings", "/css/lab.css",
                                                 "/favicon.ico"], {}, threading.Lock()
def client(first):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for i in range(first, 10000, 4):  # four clients, 10,000 GETs, no cookie kept
        conn.request("GET", paths[i % len(paths)])
        response = conn.getresponse(); response.read()
        with lock:
            statuses[response.status] = statuses.get(response.status, 0) + 1
        if response.getheader("Connection", "").lower() == "close":
            conn.close(); conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
threads = [threading.Thread(target=client, args=(c,)) for c in range(4)]
[t.start() for t in threads]; [t.join() for t in threads]
print(" ".join("%d×%d" % (n, status) for status, n in sorted(statuses.items())))
PY
live=$(monolith_metric tomcat_sessions_active_current_sessions)
made=$(monolith_metric tomcat_sessions_created_sessions_total)
check "10,000 anonymous GETs on the monolith ($(cat "$OUT/anonymous-gets.txt")) → no session: ${live:-?} live, made ${created:-?} → ${made:-?}" \
  bash -c '[ "$0" = 0 ] && [ -n "$1" ] && [ "$1" = "$2" ]' "$live" "$created" "$made"
for i in $(seq 20); do
  curl -s -o /dev/null -w '%{http_code}\n' -X POST -d "username=user9&password=guess$i" "$MONO/login"
done > "$OUT/tokenless.txt"
check "20 POST /login for user9 without a CSRF token → 403 each ($(sort "$OUT/tokenless.txt" | uniq -c | tr '\n' ' '))" \
  [ "$(grep -c '^403$' "$OUT/tokenless.txt")" -eq 20 ]
answer=$(login_attempt "$MONO" user9 password)
check "… and user9's own sign-in still works, its budget (5) untouched (got: $answer)" test "$answer" = "302 /"
check "… and makes the monolith's one session ($(monolith_metric tomcat_sessions_active_current_sessions) live)" \
  test "$(monolith_metric tomcat_sessions_active_current_sessions)" = 1
answer=$(answer_to "${MONO##*:}" "GET / HTTP/1.0\r\nHost: evil.example\r\n\r\n" | tr -d '\r' | grep -i '^location:' || true)
check "HTTP/1.0 with Host: evil.example → a relative redirect (got: $answer)" test "$answer" = "Location: /login"

echo "== study-service and the monolith: a request head sent a byte a second is closed at the deadline (2 s here)"
python3 - $(for svc in study-service monolith; do echo "$(lab_prop "service.$svc.port")" "$(lab_prop "service.$svc.management-port")"; done) \
  > "$OUT/slow-heads.txt" <<'PY'
import socket, sys, threading, time
def slow_head(port, out):
    s = socket.create_connection(("127.0.0.1", port), timeout=15)
    start, data, sender_stop = time.monotonic(), b"", threading.Event()
    s.sendall(b"GET /actuator/health HTTP/1.1\r\nHost: a\r\n")
    def send():
        for b in b"X-Slow: abcdefghijklmnop":  # one byte a second, until the answer
            if sender_stop.wait(1):
                return
            try:
                s.sendall(bytes([b]))
            except OSError:
                return
    threading.Thread(target=send, daemon=True).start()
    try:
        while (chunk := s.recv(65536)):
            data += chunk
            sender_stop.set()
    except OSError:
        pass
    sender_stop.set()
    status = data.split(b" ")[1].decode() if data.startswith(b"HTTP/1.1 ") else "none"
    out[port] = "%d %s %.1f %s" % (port, status, time.monotonic() - start,
                                   "problem+json" if b"application/problem+json" in data else "-")
results, threads = {}, []
for port in map(int, sys.argv[1:]):
    threads.append(threading.Thread(target=slow_head, args=(port, results))); threads[-1].start()
[t.join() for t in threads]
print("\n".join(results[p] for p in map(int, sys.argv[1:])))
PY
while read -r port code secs type; do
  check ":$port: 408 $type and the close after ${secs} s (deadline 2 s; Tomcat checks its timeouts once a second)" \
    bash -c '[ "$0" = 408 ] && [ "$1" = problem+json ] && awk -v s="$2" "BEGIN { exit !(s >= 1.9 && s <= 4) }"' "$code" "$type" "$secs"
done < "$OUT/slow-heads.txt"

echo "== graceful shutdown: SIGTERM with 20 requests in flight on a 2 s upstream delay"
for i in $(seq 20); do
  curl -s -o /dev/null -w '%{http_code}\n' --max-time 40 "$GW/api/studies/$i/slow?minMs=2000&maxMs=2000" >> "$OUT/inflight.txt" &
done
await_upstream_active 20
pid=$(cat .lab/gateway.pid)
start=$SECONDS
kill -TERM "$pid"
while kill -0 "$pid" 2>/dev/null && [ $((SECONDS - start)) -lt 35 ]; do sleep 0.2; done
elapsed=$((SECONDS - start))
wait
check "all 20 in-flight requests completed with 200 ($(sort "$OUT/inflight.txt" | uniq -c | tr '\n' ' '))" \
  [ "$(grep -c '^200$' "$OUT/inflight.txt")" -eq 20 ]
check "the gateway exited within 30 s of SIGTERM (${elapsed} s)" bash -c "! kill -0 $pid 2>/dev/null && [ $elapsed -le 30 ]"

./lab down >/dev/null
echo
if [ $failures -eq 0 ]; then echo "hardening: all checks passed"; else echo "hardening: $failures check(s) failed"; exit 1; fi
