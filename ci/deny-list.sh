#!/usr/bin/env bash
# End-to-end checks of the gateway's IP deny list on real processes (docs/deny-list.md):
#   1. ./lab bench --experiment deny-list: the gateway restarted per variant, the filter enforced and bypassed at run
#      time (a switchback), allowed clients, the verdict line;
#   2. the field report's run: deny-list.jmx with denied clients through a gateway holding the list — every answer
#      403 with the exact JSON body, and study-service's request count unchanged (nothing reached the upstream).
# CI runs the 3 M-rule list (≈ 2 min); the acceptance run is the 30 M one:  DENY_LIST_SIZE=30m bash ci/deny-list.sh
set -euo pipefail
CI_NAME=deny-list
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ROOT=$PWD
SIZE=${DENY_LIST_SIZE:-3m}
case "$SIZE" in 3m|30m) ;; *) echo "deny-list.sh: DENY_LIST_SIZE=$SIZE — use 3m or 30m" >&2; exit 2 ;; esac
OUT="$ROOT/results/deny-list-e2e"
rm -rf "$OUT"; mkdir -p "$OUT"
LIST="$ROOT/.lab/deny-list/$SIZE"
GW=http://127.0.0.1:$(lab_prop service.gateway.port)
STUDY_MGMT=http://127.0.0.1:$(lab_prop service.study-service.management-port)
GW_MGMT=http://127.0.0.1:$(lab_prop service.gateway.management-port)

cleanup() { ./lab down >/dev/null 2>&1 || true; }
trap cleanup EXIT

log "./lab bench --quick --experiment deny-list --variants $SIZE (generates $LIST when missing)"
dir="$OUT/experiment"
if ./lab bench --quick --experiment deny-list --variants "$SIZE" --duration 4 --metrics-port 0 --results "$dir" \
     > "$dir.log" 2>&1; then
  check "--experiment deny-list: $SIZE measured with the filter enforced and bypassed in one JVM per repetition, allowed clients all 200, a verdict" \
    ci/check_experiment.py "$(ls -d "$dir"/*/)" --targets "$SIZE,$SIZE-off" --variants "$SIZE" --ratio-of "$SIZE" --all-succeed \
      --property traffic=allowed --property-suffix "clients=/$SIZE/client-ips.csv" \
      --answer "(within 3 % of $SIZE-off|undecided at 3 %|no verdict)"
else
  fail "--experiment deny-list (see $dir.log)"; tail -20 "$dir.log"
fi
check "the rule file and the client CSV were generated under .lab/deny-list/$SIZE" \
  bash -c '[ -s "$0/deny-list.txt" ] && [ -s "$0/client-ips.csv" ]' "$LIST"

check "./lab deny-list load with too small a heap: exit 1 naming DENY_LIST_JAVA_OPTS, no stack trace" \
  bash -c 'DENY_LIST_JAVA_OPTS=-Xmx24m ./lab deny-list load "$0/deny-list.txt" > /dev/null 2> "$1/oom.txt"; [ $? -eq 1 ] \
           && grep -q "DENY_LIST_JAVA_OPTS" "$1/oom.txt" && ! grep -q "Exception\|at dev\." "$1/oom.txt"' "$LIST" "$OUT"

log "the field report's run: denied clients through a gateway holding $SIZE rules"
./lab down gateway > /dev/null
GATEWAY_DENY_LIST_FILE="$LIST/deny-list.txt" \
  GATEWAY_JAVA_OPTS="-Xmx1g -Xms1g -XX:+UseParallelGC -XX:+UseTransparentHugePages" ./lab up gateway study-service \
  > "$OUT/up.log" 2>&1
upstream_count() {  # study-service's requests to the study endpoint, all statuses
  curl -fsS "$STUDY_MGMT/actuator/prometheus" | python3 -c '
import re, sys
print(int(sum(float(m.group(1)) for m in re.finditer(r"^http_server_requests_seconds_count\{[^}]*uri=\"/api/studies/\{id\}\"[^}]*\} (\S+)", sys.stdin.read(), re.M))))'
}
metric() {  # the gateway's metric $1 (first series); awk reads to the end so curl never sees a closed pipe
  curl -fsS "$GW_MGMT/actuator/prometheus" | awk -v m="$1" '!found && ($1 == m || index($1, m "{") == 1) { print $2 + 0; found = 1 }'
}
denied_ip=$(grep -m1 ',denied$' "$LIST/client-ips.csv" | cut -d, -f1)
before=$(upstream_count)
denied_before=$(metric gateway_deny_list_denied_total)
dir="$OUT/denied"
if ./lab bench --plan deny-list --targets gateway -J clients="$LIST/client-ips.csv" -J traffic=denied --warmup 1 \
     --warmup-max 10 --repetitions 2 --duration 5 --latency-repetitions 0 --no-dashboard --metrics-port 0 --results "$dir" \
     > "$dir.log" 2>&1; then
  after=$(upstream_count)
  denied_after=$(metric gateway_deny_list_denied_total)
  samples=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["targets"][0]["samples"])' "$(ls "$dir"/*/run.json)")
  check "deny-list.jmx, denied clients: every sample 403 + application/json + exact body (100 % success)" \
    python3 - "$(ls "$dir"/*/run.json)" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["targets"][0]
print(f"       {t['samples']} denied requests, {t['tps']:.0f} TPS, p99 {t['p99_ms']} ms, success {t['success_rate']:.2f} %")
sys.exit(0 if t["samples"] > 0 and t["success_rate"] == 100.0 else 1)
PY
  # The runner's own reachability probe (GET /api/studies/1 from 127.0.0.1, an allowed client) is the one request
  # that may reach study-service; the denied clients' requests (warm-up and measured) must not.
  check "study-service saw only the runner's reachability probe: $before before, $after after (denied requests: $((denied_after - denied_before)) counted by the gateway, $samples measured)" \
    bash -c '[ $(($2 - $1)) -le 1 ] && [ $(($4 - $3)) -ge $5 ]' _ "$before" "$after" "${denied_before%.*}" "${denied_after%.*}" "$samples"
else
  fail "deny-list.jmx denied run (see $dir.log)"; tail -20 "$dir.log"
fi
curl -s -D "$OUT/denied.headers" -o "$OUT/denied.body" -H "X-Forwarded-For: $denied_ip" "$GW/no/such/route" || true
check "an unrouted path from a denied client ($denied_ip): 403, application/json, exactly {\"resultMessage\":\"Deny\"}" \
  bash -c 'head -1 "$0.headers" | grep -q " 403" && grep -qi "^content-type: application/json" "$0.headers" \
           && [ "$(cat "$0.body")" = "{\"resultMessage\":\"Deny\"}" ]' "$OUT/denied"
check "the gateway's gateway_deny_list_denied_total counted them" \
  bash -c 'curl -fsS "$0/actuator/prometheus" | grep -qE "^gateway_deny_list_denied_total(\{[^}]*\})? [1-9]"' "$GW_MGMT"
echo "       the gateway holds $(metric gateway_deny_list_rules) rules in $(metric gateway_deny_list_memory_bytes) bytes" \
  "(loaded in $(metric gateway_deny_list_load_duration_seconds) s)"

./lab down > /dev/null
echo
if [ $failures -eq 0 ]; then echo "deny-list: all checks passed"; else echo "deny-list: $failures check(s) failed"; exit 1; fi
