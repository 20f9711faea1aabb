#!/usr/bin/env bash
# End-to-end check of `./lab up --tracing` on real processes (docs/tracing.md): the three apps traced, reporting to
# a local Zipkin server. One request through the gateway must give one trace in Zipkin's API with the gateway's
# server and client spans and study-service's server span, parent/child correct, under the trace id of the gateway's
# access-log line; a 404 through the gateway names its trace in problem+json (traceId); the sampling probability is
# changed at run time on the management port; with Zipkin stopped mid-run requests keep working, dropped spans are
# counted (zipkin_reporter_spans_dropped_total) and no error is logged per request. Also: a bad LAB_TRACING exits 2.
# The Zipkin jar: docker/zipkin/fetch.sh (Maven Central, or ZIPKIN_JAR). Loopback only.
set -euo pipefail
CI_NAME=tracing
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ci_results tracing-e2e
GW=http://127.0.0.1:$(lab_prop service.gateway.port)
GW_MGMT=http://127.0.0.1:$(lab_management_port gateway)
ZIPKIN=http://127.0.0.1:$(lab_prop tracing.zipkin.port)
ACCESS_LOG=.lab/logs/gateway-access.log
EXTRA_PORTS=$(lab_prop tracing.zipkin.port)

# trace_id_of REQUEST_ID: the traceId of that request's access-log line (polled: the line is written asynchronously)
trace_id_of() {
  local deadline=$((SECONDS + 10)) id
  until id=$(grep -h "id=$1 " "$ACCESS_LOG" 2>/dev/null | sed -n 's/.* traceId=\([0-9a-f]\{32\}\).*/\1/p' | head -n 1) \
      && [ -n "$id" ]; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
  echo "$id"
}
dropped() {   # the gateway's dropped-span counter (0 when not yet registered)
  curl -fsS "$GW_MGMT/actuator/prometheus" | awk '/^zipkin_reporter_spans_dropped_total/ {s += $2} END {print s + 0}'
}

echo "== bad input"
./lab down >/dev/null
check "LAB_TRACING=bogus ./lab up exits 2 naming LAB_TRACING, starts nothing" \
  bash -c 'LAB_TRACING=bogus ./lab up > "$0/bogus.txt" 2>&1; [ $? -eq 2 ] && grep -q "LAB_TRACING" "$0/bogus.txt"' "$OUT"
check "nothing was started" nothing_listening

echo "== ./lab up --tracing (every request sampled: TRACING_SAMPLING_PROBABILITY=1.0)"
TRACING_SAMPLING_PROBABILITY=1.0 ./lab up --tracing | tee "$OUT/up.log"
./lab status > "$OUT/status.txt"
check "./lab status lists zipkin running" grep -q "^zipkin .* running" "$OUT/status.txt"
check "Zipkin answers on loopback" curl -fsS -o /dev/null "$ZIPKIN/health"

echo "== one request through the gateway, one trace"
curl -fsS -o /dev/null -H "X-Request-Id: tracing-e2e-1" "$GW/api/studies/1"
trace=$(trace_id_of tracing-e2e-1) || trace=
check "the access-log line names the trace (traceId=<32 hex>)" test -n "$trace"
echo "  trace: $trace"
check "Zipkin's /api/v2/trace/$trace: gateway server → gateway client → study-service server" \
  python3 - "$ZIPKIN" "$trace" "$OUT/trace.json" <<'EOF'
import json, sys, time, urllib.request
zipkin, trace, out = sys.argv[1:]
deadline, spans = time.time() + 30, []
while time.time() < deadline:
    try:
        with urllib.request.urlopen(f"{zipkin}/api/v2/trace/{trace}", timeout=5) as r:
            spans = json.load(r)
    except OSError:
        spans = []
    kinds = sorted((s.get("localEndpoint", {}).get("serviceName"), s.get("kind")) for s in spans)
    if {("gateway", "SERVER"), ("gateway", "CLIENT"), ("study-service", "SERVER")} <= set(kinds):
        break
    time.sleep(0.5)
json.dump(spans, open(out, "w"), indent=1)
def only(service, kind):
    found = [s for s in spans if s.get("localEndpoint", {}).get("serviceName") == service and s.get("kind") == kind]
    assert len(found) == 1, f"{service} {kind}: {len(found)} spans in {out}"
    return found[0]
server, client, upstream = only("gateway", "SERVER"), only("gateway", "CLIENT"), only("study-service", "SERVER")
assert "parentId" not in server, f"the gateway's server span has a parent: {server}"
assert client.get("parentId") == server["id"], "the gateway's client span is not a child of its server span"
assert upstream.get("parentId") == client["id"], "study-service's server span is not a child of the gateway's client span"
print(f"  {len(spans)} spans: gateway SERVER {server['id']} → CLIENT {client['id']} → study-service SERVER {upstream['id']}")
EOF

echo "== a 404 through the gateway names its trace"
# study-service's 404 for an unknown study, through the gateway: its body names the trace of the access-log line
curl -sS -o "$OUT/404.json" -H "X-Request-Id: tracing-e2e-404" "$GW/api/studies/999999999" || true
trace404=$(trace_id_of tracing-e2e-404) || trace404=
check "problem+json traceId = the access-log line's traceId ($trace404)" \
  python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); assert b["status"] == 404 and b.get("traceId") == sys.argv[2] != "", b' \
    "$OUT/404.json" "$trace404"
# the gateway's own 404 (no route, no access-log line): the caller's trace continued
caller=4bf92f3577b34da6a3ce929d0e0e4736
curl -sS -o "$OUT/no-route.json" -H "traceparent: 00-$caller-00f067aa0ba902b7-01" "$GW/no/such/route" || true
check "the gateway's own 404 (no route) names the caller's trace" \
  python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); assert b["status"] == 404 and b.get("traceId") == sys.argv[2], b' \
    "$OUT/no-route.json" "$caller"

echo "== sampling at run time (/actuator/tracing on the management port)"
check "POST samplingProbability=0 is taken" bash -c 'curl -fsS -H "Content-Type: application/json" \
  -d "{\"samplingProbability\":0.0}" "$0/actuator/tracing" | grep -q "\"samplingProbability\":0.0"' "$GW_MGMT"
check "a bad probability is refused with 400" bash -c '[ "$(curl -sS -o /dev/null -w "%{http_code}" -H "Content-Type: application/json" \
  -d "{\"samplingProbability\":2}" "$0/actuator/tracing")" = 400 ]' "$GW_MGMT"
curl -fsS -o /dev/null -H "Content-Type: application/json" -d '{"samplingProbability":1.0}' "$GW_MGMT/actuator/tracing"

echo "== Zipkin stopped mid-run"
before=$(dropped)
errors_before=$(grep -cE " (WARN|ERROR) .*(AsyncReporter|zipkin)" .lab/logs/gateway.log || true)
kill -TERM "$(cat .lab/zipkin.pid)"
deadline=$((SECONDS + 30)); while curl -fsS -o /dev/null --max-time 1 "$ZIPKIN/health" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
check "Zipkin is down" bash -c '! curl -fsS -o /dev/null --max-time 1 "$0/health" 2>/dev/null' "$ZIPKIN"
ok=0; for i in $(seq 1 200); do curl -fsS -o /dev/null --max-time 5 "$GW/api/studies/$(( i % 50 + 1 ))" && ok=$((ok + 1)); done
check "200 requests through the gateway all answered 200 ($ok)" test "$ok" -eq 200
deadline=$((SECONDS + 30)); while [ "$(dropped)" = "$before" ] && [ $SECONDS -lt $deadline ]; do sleep 0.5; done
after=$(dropped)
check "the dropped-span counter rose ($before → $after)" python3 -c 'import sys; assert float(sys.argv[2]) > float(sys.argv[1])' "$before" "$after"
errors=$(( $(grep -cE " (WARN|ERROR) .*(AsyncReporter|zipkin)" .lab/logs/gateway.log || true) - errors_before ))
check "no log line per request: $errors reporter warning(s) for 200 requests (≤ 2)" test "$errors" -le 2

echo "== ./lab down"
./lab down
check "nothing left listening (services, Zipkin)" nothing_listening

echo
if [ $failures -eq 0 ]; then echo "tracing: all checks passed"; else echo "tracing: $failures check(s) failed"; exit 1; fi
