#!/usr/bin/env bash
# End-to-end checks of the gateway as the one door of ./lab up, on real processes (docs/reliability.md, rows 9, 10
# and "bypass"):
#   1. every app listens on loopback unless told otherwise: with the gateway opened as the one door
#      (GATEWAY_ADDRESS=0.0.0.0), every port of lab.properties (apps and management ports) answers on 127.0.0.1, and
#      from 127.0.0.2 only the gateway's app port does (on Linux the whole of 127/8 reaches the loopback interface, and
#      a listener bound to 127.0.0.1 refuses a connection to 127.0.0.2); restarted without it, the gateway does not;
#   2. a denied client is denied however a trusted proxy writes its address: ::ffff:<ip>, <ip>:port and
#      [::ffff:<ip>]:port in X-Forwarded-For get 403 {"resultMessage":"Deny"}, study-service sees none of them;
#   3. behind a proxy that appends ports, each client has its own login bucket: one locked out does not lock out
#      another.
# Loopback only; a handful of requests.
set -euo pipefail
CI_NAME=gateway-hardening
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ci_results gateway-hardening
GWP=$(lab_port gateway)
GW=http://127.0.0.1:$GWP

./lab down >/dev/null

# A deny list of one address (TEST-NET-3), for the forms a trusted proxy may write it in; a low login limit for the
# bucket check (./lab raises it for the load plans unless it is set).
DENIED_IP=203.0.113.66
LOGIN_LIMIT=3
printf '%s\n' "$DENIED_IP" > "$OUT/deny-list.txt"
GATEWAY_ADDRESS=0.0.0.0 GATEWAY_DENY_LIST_FILE="$OUT/deny-list.txt" GATEWAY_LOGIN_PER_IP=$LOGIN_LIMIT ./lab up

# answers_at HOST PORT: a TCP connection to HOST:PORT is accepted
answers_at() { timeout 5 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$1" "$2" 2>/dev/null; }
# only_the_gateway_answers_elsewhere: every port of lab.properties answers on 127.0.0.1, from 127.0.0.2 only the
# gateway's app port does
only_the_gateway_answers_elsewhere() {
  local s port bad=0
  for s in $(lab_services); do
    for port in $(lab_port "$s") $(lab_management_port "$s"); do
      answers_at 127.0.0.1 "$port" || { echo "  $s :$port does not answer on 127.0.0.1 (not running?)"; bad=1; }
      if [ "$port" = "$GWP" ]; then
        answers_at 127.0.0.2 "$port" || { echo "  the gateway's :$port does not answer on 127.0.0.2"; bad=1; }
      elif answers_at 127.0.0.2 "$port"; then
        echo "  $s :$port answers on 127.0.0.2"; bad=1
      fi
    done
  done
  return $bad
}
# study_requests: study-service's count of GET /api/studies/{id}, every status (its Prometheus counter)
study_requests() {
  curl -fsS "http://127.0.0.1:$(lab_management_port study-service)/actuator/prometheus" | awk \
    '/^http_server_requests_seconds_count\{/ && index($0, "uri=\"/api/studies/{id}\"") { n += $NF } END { printf "%d\n", n }'
}
# denied_in_every_form: from a trusted proxy (127.0.0.1), the denied client in every form gets 403 Deny; an allowed
# client next to it reaches study-service, whose count moves by exactly one (the counter works, the denied added none)
denied_in_every_form() {
  local before after xff answer bad=0 deadline=$((SECONDS + 10))
  before=$(study_requests)
  for xff in "::ffff:$DENIED_IP" "$DENIED_IP:51234" "[::ffff:$DENIED_IP]:443"; do
    answer=$(curl -s -w ' %{http_code} %{content_type}' -H "X-Forwarded-For: $xff" "$GW/api/studies/1")
    echo "  X-Forwarded-For: $xff → $answer"
    [ "$answer" = '{"resultMessage":"Deny"} 403 application/json' ] || bad=1
  done
  answer=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Forwarded-For: 203.0.113.67:51234" "$GW/api/studies/1")
  echo "  X-Forwarded-For: 203.0.113.67:51234 → $answer"
  [ "$answer" = 200 ] || bad=1
  until after=$(study_requests); [ "$after" -gt "$before" ] || [ $SECONDS -ge $deadline ]; do sleep 0.2; done
  echo "  study-service's GET /api/studies/{id} count: $before → $after (the one allowed request)"
  [ "$after" -eq $((before + 1)) ] || bad=1
  return $bad
}
# login_from XFF: POST /login through the gateway forwarded for XFF; prints the status
login_from() {
  curl -s -o /dev/null -w '%{http_code}' -X POST -H "X-Forwarded-For: $1" -d "username=u$RANDOM&password=x" "$GW/login"
}
# one_bucket_per_client: a client written ip:port is limited after LOGIN_LIMIT attempts (its port changing each time),
# and another client behind the same proxy is not
one_bucket_per_client() {
  local i codes=() other
  for i in $(seq $((LOGIN_LIMIT + 1))); do codes+=("$(login_from "198.51.100.21:$((40000 + i))")"); done
  other=$(login_from "198.51.100.22:40001")
  echo "  198.51.100.21:<port> ×$((LOGIN_LIMIT + 1)): ${codes[*]}; then 198.51.100.22:40001: $other"
  [ "${codes[$LOGIN_LIMIT]}" = 429 ] && [ "${codes[$((LOGIN_LIMIT - 1))]}" != 429 ] && [ "$other" != 429 ]
}

echo "== only the gateway answers from another address of the machine"
check "every port of lab.properties: from 127.0.0.2 only the gateway's app port answers" only_the_gateway_answers_elsewhere
check "… and through it a request from there is answered (200)" \
  bash -c '[ "$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.2:$0/api/studies/1")" = 200 ]' "$GWP"

echo "== a denied client, however a trusted proxy writes its address"
check "::ffff:$DENIED_IP, $DENIED_IP:port, [::ffff:$DENIED_IP]:port via a trusted proxy → 403 Deny, study-service sees 0" \
  denied_in_every_form

echo "== behind a proxy that appends ports, one login bucket per client"
check "the $((LOGIN_LIMIT + 1))th login of one client written ip:port is 429, another client's is not" one_bucket_per_client

echo "== without GATEWAY_ADDRESS the gateway too listens on loopback alone"
./lab down gateway >/dev/null
env -u GATEWAY_ADDRESS ./lab up gateway >/dev/null
check "the gateway restarted by ./lab up with no address answers on 127.0.0.1, not on 127.0.0.2" \
  bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0" && ! timeout 5 bash -c "exec 3<>/dev/tcp/127.0.0.2/$0" 2>/dev/null' "$GWP"

./lab down >/dev/null
echo
if [ $failures -eq 0 ]; then echo "gateway-hardening: all checks passed"; else echo "gateway-hardening: $failures check(s) failed"; exit 1; fi
