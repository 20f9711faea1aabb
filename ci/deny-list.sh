#!/usr/bin/env bash
# End-to-end checks of the gateway's IP deny list on real processes (docs/deny-list.md):
#   1. ./lab bench --experiment deny-list: the gateway restarted per variant (default JVM options), the filter enforced
#      and bypassed at run time (a switchback), allowed clients, the verdict line;
#   2. the compiled form: ./lab deny-list compile and load with a 64 MB heap; the gateway's first start with the text
#      list (it compiles it) and its next start (it maps the compiled form), both with the default GATEWAY_JAVA_OPTS:
#      seconds to ready, and the heap used after a full GC (at most 64 MB);
#   3. the ip-filter report's run: deny-list.jmx with denied clients through the gateway holding the list — every
#      answer 403 with the exact JSON body, and study-service's request count unchanged (nothing reached the upstream);
#      then the same with Gatling (./lab deny-list gatling, 5 users x 10 s here), 0 failures;
#   4. lists that cannot be loaded: ./lab up gateway fails with the one-line error, no stack trace.
# CI runs the 3 M-rule list; the acceptance run is the 30 M one with the report's Gatling run:
#   DENY_LIST_SIZE=30m GATLING_USERS=30 GATLING_SECONDS=60 bash ci/deny-list.sh
set -euo pipefail
CI_NAME=deny-list
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ROOT=$PWD
SIZE=${DENY_LIST_SIZE:-3m}
case "$SIZE" in 3m|30m) ;; *) echo "deny-list.sh: DENY_LIST_SIZE=$SIZE — use 3m or 30m" >&2; exit 2 ;; esac
ci_results deny-list-e2e
LIST="$ROOT/.lab/deny-list/$SIZE"
GW=http://127.0.0.1:$(lab_prop service.gateway.port)
STUDY_MGMT=http://127.0.0.1:$(lab_prop service.study-service.management-port)
GW_MGMT=http://127.0.0.1:$(lab_prop service.gateway.management-port)


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

log "the compiled form: ./lab deny-list compile and load with -Xmx64m"
rm -f "$LIST/deny-list.txt.compiled"
check "./lab deny-list compile with a 64 MB heap" \
  bash -c 'DENY_LIST_JAVA_OPTS=-Xmx64m ./lab deny-list compile "$0/deny-list.txt" > "$1/compile.txt" 2>&1; rc=$?; \
           sed "s/^/       /" "$1/compile.txt"; [ $rc -eq 0 ] && [ -s "$0/deny-list.txt.compiled" ] \
           && grep -q "^compiled .* heap used after GC [0-9]* MB of max 6[0-9] MB" "$1/compile.txt"' "$LIST" "$OUT"
check "./lab deny-list load with a 64 MB heap maps the compiled form" \
  bash -c 'DENY_LIST_JAVA_OPTS=-Xmx64m ./lab deny-list load "$0/deny-list.txt" > "$1/load.txt" 2>&1; rc=$?; \
           sed "s/^/       /" "$1/load.txt"; [ $rc -eq 0 ] && grep -q "^loaded .*mapped off the heap from" "$1/load.txt"' \
  "$LIST" "$OUT"

metric() {  # the gateway's metric $1 (first series); awk reads to the end so curl never sees a closed pipe
  curl -fsS "$GW_MGMT/actuator/prometheus" | awk -v m="$1" '!found && ($1 == m || index($1, m "{") == 1) { print $2 + 0; found = 1 }'
}
heap_after_gc_mb() {  # a full GC in the gateway, then its heap in use (jcmd of the JDK the gateway runs on)
  local pid jcmd
  pid=$(cat "$ROOT/.lab/gateway.pid"); jcmd="$(dirname "$(readlink -f "/proc/$pid/exe")")/jcmd"
  "$jcmd" "$pid" GC.run > /dev/null
  "$jcmd" "$pid" GC.heap_info | awk '/ used /{for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?$/, "", v); sum += v } } END { printf "%d", sum / 1024 }'
}
timed_up() {  # ./lab up gateway study-service; prints the seconds to ready
  local start
  start=$(date +%s.%N)
  ./lab up gateway study-service > "$OUT/up-$1.log" 2>&1 || return 1
  python3 -c 'import sys, time; print(f"{time.time() - float(sys.argv[1]):.1f}")' "$start"
}
./lab down > /dev/null
unset GATEWAY_JAVA_OPTS   # the gateway's default options (-Xmx256m)
./lab up study-service > /dev/null
# On JDK 24+ the first start of a build with these options is the AOT cache's training run: ./lab starts the gateway,
# trains it, stops it and starts it again, and that second start would find the list compiled by the first. Train
# it now, without a list, so that the start measured next is one start that compiles the list.
./lab up gateway > "$OUT/up-training.log" 2>&1 && ./lab down gateway > /dev/null \
  || { fail "the gateway's start without a list (see $OUT/up-training.log)"; tail -20 "$OUT/up-training.log"; }
rm -f "$LIST/deny-list.txt.compiled"
export GATEWAY_DENY_LIST_FILE="$LIST/deny-list.txt"
log "the gateway's first start with the $SIZE text list (it compiles it), default GATEWAY_JAVA_OPTS"
if first=$(timed_up text); then
  echo "       ready in $first s with the text list; the list took $(metric gateway_deny_list_load_duration_seconds) s"
  check "that start compiled the text list itself (one start, not an AOT training run and a restart)" \
    bash -c '! grep -q "AOT training run" "$0" && grep -q "compiled to .*deny-list.txt.compiled" "$1"' \
    "$OUT/up-text.log" "$ROOT/.lab/logs/gateway.log"
  ./lab down gateway > /dev/null
  log "the gateway's next start: the compiled form is mapped"
  if again=$(timed_up compiled); then
    heap=$(heap_after_gc_mb)
    echo "       ready in $again s with the compiled list; the list took $(metric gateway_deny_list_load_duration_seconds) s;" \
      "heap used after a full GC $heap MB; the list: $(metric gateway_deny_list_memory_bytes) bytes off the heap"
    check "the gateway runs $SIZE rules in its default heap: ready, heap used after GC $heap MB <= 64 MB" test "$heap" -le 64
  else
    fail "the gateway's start with the compiled list (see $OUT/up-compiled.log)"; tail -20 "$OUT/up-compiled.log"
  fi
else
  fail "the gateway's first start with the text list (see $OUT/up-text.log)"; tail -20 "$OUT/up-text.log"
fi

log "the ip-filter report's run: denied clients through the gateway holding $SIZE rules"
upstream_count() {  # study-service's requests to the study endpoint, all statuses
  curl -fsS "$STUDY_MGMT/actuator/prometheus" | python3 -c '
import re, sys
print(int(sum(float(m.group(1)) for m in re.finditer(r"^http_server_requests_seconds_count\{[^}]*uri=\"/api/studies/\{id\}\"[^}]*\} (\S+)", sys.stdin.read(), re.M))))'
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

users=${GATLING_USERS:-5} seconds=${GATLING_SECONDS:-10}
log "the same with Gatling: $users users x $seconds s, random denied clients of $SIZE in X-Forwarded-For"
if ./lab deny-list gatling --users "$users" --seconds "$seconds" --clients "$LIST/client-ips.csv" \
     --results "$OUT/gatling" > "$OUT/gatling.log" 2>&1; then
  grep -E "> (request count|response time 99th|mean throughput)" "$OUT/gatling.log" \
    | head -6 | sed 's/^/       /'
  check "Gatling: every request 403 {\"resultMessage\":\"Deny\"}, the simulation's assertions (0 failed) passed" \
    grep -qE "count of failed events is 0(\.0)? : true" "$OUT/gatling.log"
else
  fail "./lab deny-list gatling (see $OUT/gatling.log)"; tail -30 "$OUT/gatling.log"
fi

log "lists that cannot be loaded: the one-line error at ./lab up, no stack trace"
./lab down gateway > /dev/null
unset GATEWAY_DENY_LIST_FILE
mkdir -p "$OUT/unloadable"; printf '10.0.0.0/8\n' > "$OUT/unloadable/deny-list.txt"; printf 'x' > "$OUT/plain-file"
if GATEWAY_DENY_LIST_FILE="$OUT/unloadable/deny-list.txt" GATEWAY_DENY_LIST_COMPILED_DIR="$OUT/plain-file/sub" \
     ./lab up gateway > "$OUT/unloadable.log" 2>&1; then
  fail "the gateway started although its list cannot be compiled"
else
  sed -n '/^Deny list /{s/^/       /;p;q}' "$OUT/unloadable.log"
  check "./lab up gateway shows one line naming the list, its size, the problem and GATEWAY_DENY_LIST_COMPILED_DIR" \
    grep -q "^Deny list $OUT/unloadable/deny-list.txt (11 bytes) cannot be loaded: cannot be compiled into $OUT/plain-file/sub: .*GATEWAY_DENY_LIST_COMPILED_DIR" \
      "$OUT/unloadable.log"
  check "... and no stack trace" bash -c '! grep -qE "^[[:space:]]+at |Caused by" "$0"' "$OUT/unloadable.log"
fi
if GATEWAY_DENY_LIST_FILE="$OUT/no-such-list.txt" ./lab up gateway > "$OUT/missing.log" 2>&1; then
  fail "the gateway started although its list is missing"
else
  check "a missing list: one line naming it and GATEWAY_DENY_LIST_FILE, no stack trace" \
    bash -c 'grep -q "^Deny list $1 cannot be loaded: no such file — point GATEWAY_DENY_LIST_FILE" "$0" \
             && ! grep -qE "^[[:space:]]+at |Caused by" "$0"' "$OUT/missing.log" "$OUT/no-such-list.txt"
fi

./lab down > /dev/null
echo
if [ $failures -eq 0 ]; then echo "deny-list: all checks passed"; else echo "deny-list: $failures check(s) failed"; exit 1; fi
