#!/usr/bin/env bash
# End-to-end checks of the MVC gateway (gateway-mvc/: Spring Cloud Gateway Server WebMVC on virtual threads) as a
# service and load target of the lab, on real processes: a JDK without virtual threads refused, ./lab up, the
# identical JSON through it, through the gateway and directly, the request id and the access log on virtual threads,
# 404 problem+json, an upstream that is down (503, the gateway's body), its management port, the async logger's ring
# buffer in each gateway's heap, and the comparison's own command, bench/gateway-mvc.sh --quick --steps bench
# (./lab bench --quick --targets gateway,gateway-mvc,floor,direct), with both gateways' CPU per request in run.json.
# Loopback only; every load is bounded by the runner's duration.
set -euo pipefail
CI_NAME=gateway-mvc
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ci_results gateway-mvc
MVC=http://127.0.0.1:$(lab_prop service.gateway-mvc.port)
MVC_MGMT=http://127.0.0.1:$(lab_prop service.gateway-mvc.management-port)
GW=http://127.0.0.1:$(lab_prop service.gateway.port)
DIRECT=http://127.0.0.1:$(lab_prop service.study-service.port)

./lab down >/dev/null

echo "== a JDK without virtual threads: ./lab up gateway-mvc refuses (exit 2) naming the way out, starts nothing"
JDK17=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
if [ "$(java -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')" = 17 ]; then
  check "GATEWAY_MVC_VIRTUAL_THREADS (default true) on Java 17 is refused, naming it and LAB_JAVA_HOME" \
    bash -c 'LAB_JAVA_HOME="$1" ./lab up gateway-mvc > "$0/vt17.txt" 2>&1; [ $? -eq 2 ] \
             && grep -q "GATEWAY_MVC_VIRTUAL_THREADS=true needs Java 21" "$0/vt17.txt" && grep -q LAB_JAVA_HOME "$0/vt17.txt"' \
    "$OUT" "$JDK17"
  check "nothing was started" nothing_listening
else
  echo "  skip: the java on PATH is not 17"
fi

echo "== ./lab up study-service gateway gateway-mvc (the monolith left down)"
./lab up study-service gateway gateway-mvc | tee "$OUT/up.log"
check "./lab status: gateway-mvc ready on its ports" \
  bash -c './lab status | grep -qE "^gateway-mvc +[0-9]+ +$0 +$1 +ready"' \
  "$(lab_prop service.gateway-mvc.port)" "$(lab_prop service.gateway-mvc.management-port)"

echo "== the identical request through both gateways and directly"
curl -fsS "$MVC/api/studies/42" -D "$OUT/mvc.headers" -o "$OUT/mvc.json"
curl -fsS "$GW/api/studies/42" -o "$OUT/gateway.json"
curl -fsS "$DIRECT/api/studies/42" -o "$OUT/direct.json"
check "gateway-mvc returns exactly what study-service returns" cmp -s "$OUT/mvc.json" "$OUT/direct.json"
check "... and what the gateway returns" cmp -s "$OUT/mvc.json" "$OUT/gateway.json"
check "with study-service's content type and an X-Request-Id" \
  bash -c 'grep -qi "^content-type: application/json" "$0" && grep -qiE "^x-request-id: [0-9a-f-]{36}" "$0"' "$OUT/mvc.headers"
check "an unknown study is 404 problem+json (study-service's, passed on)" \
  bash -c '[ "$(curl -s -o /dev/null -w "%{http_code} %{content_type}" "$0/api/studies/99999")" = "404 application/problem+json" ]' "$MVC"
check "a path no route has is 404 problem+json" \
  bash -c '[ "$(curl -s -o /dev/null -w "%{http_code} %{content_type}" "$0/nowhere")" = "404 application/problem+json" ]' "$MVC"
check "nothing under /actuator on the application port" \
  bash -c '[ "$(curl -s -o /dev/null -w "%{http_code}" "$0/actuator/prometheus")" = 404 ]' "$MVC"

echo "== an upstream that is down (the monolith): 503 problem+json, the gateway's very body"
curl -s "$MVC/login" -o "$OUT/mvc-503.json" -w "%{http_code} %{content_type}\n" > "$OUT/mvc-503.status"
curl -s "$GW/login" -o "$OUT/gateway-503.json"
check "gateway-mvc: 503 application/problem+json" grep -qx "503 application/problem+json" "$OUT/mvc-503.status"
check "the same problem+json as the gateway's" cmp -s "$OUT/mvc-503.json" "$OUT/gateway-503.json"

echo "== access log: one line per request at completion, written from a virtual thread"
RID="mvc-e2e-$(date +%s%N)"   # the access log outlives a run: an id of this run's own
curl -fsS -o /dev/null -H "X-Request-Id: $RID" "$MVC/api/studies/1"
lines() { grep -c "id=$RID " .lab/logs/gateway-mvc-access.log 2>/dev/null || true; }
deadline=$((SECONDS + 10))
until [ "$(lines)" -ge 1 ] || [ $SECONDS -ge $deadline ]; do sleep 0.2; done
check "one line, the gateway's format" \
  grep -qE "\[tomcat-handler-[0-9]+\] id=$RID method=GET path=/api/studies/1 client=127\.0\.0\.1 status=200 durationMs=[0-9]+\.[0-9]{3}\$" \
  .lab/logs/gateway-mvc-access.log
check "exactly one line for that id" [ "$(lines)" -eq 1 ]

echo "== management port"
check "/actuator/prometheus: http_server_requests_seconds buckets, tagged application=\"gateway-mvc\"" \
  bash -c 'curl -fsS "$0/actuator/prometheus" | grep -qE "^http_server_requests_seconds_bucket\{application=\"gateway-mvc\".*uri=\"/api/studies/\*\*\""' "$MVC_MGMT"
check "readiness and nothing else but health and prometheus (no info)" \
  bash -c 'curl -fsS -o /dev/null "$0/actuator/health/readiness" && [ "$(curl -s -o /dev/null -w "%{http_code}" "$0/actuator/info")" = 404 ]' "$MVC_MGMT"
check "management port listens on loopback only" \
  bash -c '! ss -ltn | grep -E ":$0\b" | grep -vqE "127\.0\.0\.1\]?:"' "$(lab_prop service.gateway-mvc.management-port)"

echo "== the async logger's ring buffer, set before Log4j2 starts: 16,384 events in gateway-mvc, Log4j2's 4,096 in the gateway"
ring_events() {   # RingBufferLogEvent instances in a running app's heap (jcmd of the JDK it runs on)
  local pid; pid=$(cat ".lab/$1.pid")
  "$(dirname "$(readlink -f "/proc/$pid/exe")")/jcmd" "$pid" GC.class_histogram 2>/dev/null \
    | awk '$NF == "org.apache.logging.log4j.core.async.RingBufferLogEvent" {print $2}' || true
}
mvc_ring=$(ring_events gateway-mvc) gateway_ring=$(ring_events gateway)
echo "  gateway-mvc: ${mvc_ring:-none}, gateway: ${gateway_ring:-none}"
check "gateway-mvc holds 16,384 (GATEWAY_LOG_RING_BUFFER_SIZE's default)" [ "${mvc_ring:-0}" = 16384 ]
check "the gateway holds Log4j2's own for an app without the servlet API, 4,096" [ "${gateway_ring:-0}" = 4096 ]
./lab down > /dev/null
check "./lab down stopped them" nothing_listening

echo "== bench/gateway-mvc.sh --quick --steps bench: ./lab bench --quick --targets gateway,gateway-mvc,floor,direct"
start=$SECONDS
bench/gateway-mvc.sh --quick --steps bench --out "$OUT/comparison" | tee "$OUT/comparison.log"
echo "  wall time: $((SECONDS - start)) s"
check "it started study-service, gateway, gateway-mvc and floor" \
  grep -qE "started \[study-service, gateway, gateway-mvc, floor\]" "$OUT/comparison.log"
run=$(ls -d "$OUT"/comparison/bench/*/ | head -1)
check "report.md, report.html, run.json written; no INCOMPLETE marker" \
  bash -c "[ -s '$run/report.md' ] && [ -s '$run/report.html' ] && [ -s '$run/run.json' ] && [ ! -e '$run/INCOMPLETE' ]"
check "run.json: both gateways' and the floor's CPU per request, 100 % success, gateway-mvc ÷ direct, what each hop adds" \
  python3 - "$run/run.json" "$MVC" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
targets = {t["name"]: t for t in run["targets"]}
ok = list(targets) == ["gateway", "gateway-mvc", "floor", "direct"]
for name, t in targets.items():
    cpu = (t.get("cpu_us_per_request") or {}).get({"direct": "study-service"}.get(name, name)) or {}
    print(f"       {name}: {t['samples']} samples, success {t['success_rate']:.2f} %, "
          f"{cpu.get('mean', float('nan')):.0f} µs CPU per request")
    ok = ok and t["samples"] > 0 and t["success_rate"] == 100.0 and cpu.get("mean", 0) > 0
mvc = targets.get("gateway-mvc", {})
ok = ok and mvc.get("plan") == "gateway-mvc" and mvc.get("url") == sys.argv[2]
ratios = {(r["of"], r["to"]) for r in run.get("ratios", [])}
ok = ok and ("gateway-mvc", "direct") in ratios and ("gateway", "gateway-mvc") in ratios
latency = run.get("latency") or {}
ok = ok and "gateway-mvc" in (latency.get("added_at_answer_rate_by") or {})
sys.exit(0 if ok else 1)
PY
check "report.md: the answer's clause for the MVC gateway and what its hop adds" \
  bash -c 'grep -q "The MVC gateway (gateway-mvc): " "$0/report.md" && grep -q "^## What the gateway-mvc hop adds" "$0/report.md"' "$run"
check "figures.md: the bench's figures with its command, each step not run said so" \
  bash -c 'grep -q "^| gateway-mvc | " "$0/figures.md" && grep -q "^### CPU per request, TPS, added latency" "$0/figures.md" \
           && grep -q "Not run (no results in this folder): \`./lab sweep" "$0/figures.md"' "$OUT/comparison"
check "--figures DIR prints the same figures again, measuring nothing" \
  bash -c 'bench/gateway-mvc.sh --figures "$0" | cmp -s - "$0/figures.md"' "$OUT/comparison"
check "an unknown step: exit non-zero naming it and the steps there are" \
  bash -c 'bench/gateway-mvc.sh --steps bench,nope > "$0/bad-step.txt" 2>&1; [ $? -ne 0 ] \
           && grep -q "unknown step .nope." "$0/bad-step.txt" && grep -q "levers" "$0/bad-step.txt"' "$OUT"
check "and stopped them again: nothing left listening" nothing_listening

echo
if [ $failures -eq 0 ]; then echo "gateway-mvc: all checks passed"; else echo "gateway-mvc: $failures check(s) failed"; exit 1; fi
