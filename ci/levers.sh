#!/usr/bin/env bash
# End-to-end checks of the gateway-levers module as a dependency and of stock Spring Cloud Gateway as a lab target, on
# real processes (loopback only; every load bounded by the runner's duration):
#   1. samples/levers-gateway — a generated Spring Cloud Gateway whose only addition is the gateway-levers dependency —
#      starts in front of study-service and the monolith with its levers on, and answers the plans' requests as the
#      lab's gateway does (ci/same_answers.py);
#   2. ./lab up stock: the identical request through stock Spring Cloud Gateway, its request id, its access line, its
#      management port on loopback with no feature listed on /actuator/info;
#   3. ./lab bench --quick --targets stock,gateway,floor,direct: exit 0, run.json's cpu_chain (stock, ours, floor),
#      the answer leading with stock → ours → floor, report.md's section;
#   4. ./lab sweep --targets stock,gateway at one level: stock is a sweep target too;
#   5. ./lab bench --quick --experiment tuning --variants levers-off: the gateway with every lever off answers.
set -euo pipefail
CI_NAME=levers
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ci_results levers
GATEWAY=http://127.0.0.1:$(lab_port gateway)
STOCK=http://127.0.0.1:$(lab_port stock)
STOCK_MGMT=http://127.0.0.1:$(lab_management_port stock)
SAMPLE_PORT=${LEVERS_SAMPLE_PORT:-18090}
SAMPLE=http://127.0.0.1:$SAMPLE_PORT
SAMPLE_JAR=samples/levers-gateway/target/levers-gateway-0.0.1-SNAPSHOT.jar
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

SAMPLE_PID=
on_exit() {
  [ -z "$SAMPLE_PID" ] || { kill -TERM "$SAMPLE_PID" 2>/dev/null; wait "$SAMPLE_PID" 2>/dev/null || true; }
}
./lab down >/dev/null

echo "== the sample: a generated gateway with the gateway-levers dependency, in front of study-service and the monolith"
[ -f "$SAMPLE_JAR" ] || ./mvnw -B -q -DskipTests package -pl samples/levers-gateway -am
! (exec 3<>"/dev/tcp/127.0.0.1/$SAMPLE_PORT") 2>/dev/null || { log "port $SAMPLE_PORT is taken: set LEVERS_SAMPLE_PORT"; exit 2; }
./lab up study-service monolith gateway stock | tee "$OUT/up.log"
STUDY_SERVICE_URL=http://127.0.0.1:$(lab_port study-service) MONOLITH_URL=http://127.0.0.1:$(lab_port monolith) \
  PORT=$SAMPLE_PORT "$JAVA" -Xmx256m -jar "$SAMPLE_JAR" --server.address=127.0.0.1 \
  --logging.level.org.springframework.boot.autoconfigure=info > "$OUT/sample.log" 2>&1 &
SAMPLE_PID=$!
deadline=$((SECONDS + 120))
until curl -fs -o /dev/null "$SAMPLE/api/studies/1"; do
  kill -0 "$SAMPLE_PID" 2>/dev/null || { tail -n 30 "$OUT/sample.log"; fail "the sample exited at start-up"; exit 1; }
  [ $SECONDS -lt $deadline ] || { fail "the sample did not answer within 120 s"; exit 1; }
  sleep 0.5
done
pass "the sample starts with nothing but the dependency added"
check "the sample answers the plans' requests as the lab's gateway does" \
  bash -c 'python3 ci/same_answers.py "$0" "$1" --show > "$2/same-sample.txt" 2>&1' "$GATEWAY" "$SAMPLE" "$OUT"
check "stock answers the plans' requests as the lab's gateway does" \
  bash -c 'python3 ci/same_answers.py "$0" "$1" > "$2/same-stock.txt" 2>&1' "$GATEWAY" "$STOCK" "$OUT"
kill -TERM "$SAMPLE_PID"; wait "$SAMPLE_PID" 2>/dev/null || true; SAMPLE_PID=

echo "== stock: the request id, the access line, the management port"
check "stock returns the client's X-Request-Id" \
  bash -c '[ "$(curl -fsS -o /dev/null -D - -H "X-Request-Id: stock-e2e-1" "$0/api/studies/7" | tr -d "\r" | sed -n "s/^[Xx]-[Rr]equest-[Ii]d: //p")" = stock-e2e-1 ]' "$STOCK"
check "stock writes one access line for it (.lab/logs/stock-access.log)" \
  bash -c 'for i in $(seq 50); do grep -q "id=stock-e2e-1 method=GET path=/api/studies/7 " .lab/logs/stock-access.log 2>/dev/null && exit 0; sleep 0.1; done; exit 1'
check "stock's /actuator/info lists no feature; the gateway's lists its own" \
  bash -c '! curl -fsS "$0/actuator/info" | grep -q "\"features\"" && curl -fsS "http://127.0.0.1:$1/actuator/info" | grep -q "login limit"' "$STOCK_MGMT" "$(lab_management_port gateway)"
check "stock's management port listens on loopback only" \
  bash -c '! ss -ltn | grep -E ":$0\b" | grep -vqE "127\.0\.0\.1\]?:"' "$(lab_management_port stock)"
./lab down > /dev/null

echo "== ./lab bench --quick --targets stock,gateway,floor,direct"
bench_rc=0
./lab bench --quick --targets stock,gateway,floor,direct > "$OUT/bench.txt" 2>&1 || bench_rc=$?
check "exit 0" test "$bench_rc" -eq 0
run_dir=$(sed -n 's#^report: \(.*\)/report.md.*#\1#p' "$OUT/bench.txt" | tail -n 1)
check "run.json has cpu_chain: stock, ours, the floor, the saving paired per repetition" \
  python3 - "$run_dir/run.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["cpu_chain"]
assert c["stock"] == "stock" and c["gateway"] == "gateway" and c["floor"] == "floor", c
reps = c["repetitions"]
s, g = c["stock_us_per_request"]["reps"], c["gateway_us_per_request"]["reps"]
assert reps == len(s) == len(g) == len(c["saved_us_per_request"]["reps"]) > 0, c
assert all(abs(s[i] - g[i] - c["saved_us_per_request"]["reps"][i]) < 1e-6 for i in range(reps)), c
assert c["gateway_only_features"] and "login limit per client address" in c["gateway_only_features"], c
PY
check "the answer leads with stock → ours → floor" \
  bash -c 'grep -m1 -E "^\*\*" "$0/report.md" | grep -qE "CPU per request: stock Spring Cloud Gateway [0-9,.]+ µs.* → ours [0-9,.]+ µs.* → floor [0-9,.]+ µs"' "$run_dir"
check "report.md has the stock → ours → floor section" grep -q "## CPU per request: stock → ours → floor" "$run_dir/report.md"

echo "== ./lab sweep --targets stock,gateway --levels 10"
sweep_rc=0
./lab sweep --targets stock,gateway --levels 10 --duration 2 --warmup 2 > "$OUT/sweep.txt" 2>&1 || sweep_rc=$?
sweep_dir=$(sed -n 's#^sweep report: \(.*\)/sweep.html.*#\1#p' "$OUT/sweep.txt" | tail -n 1)
check "exit 0, sweep.json has a point of stock's, every request answered" \
  bash -c '[ "$0" -eq 0 ] && python3 -c "import json,sys; p=[p for p in json.load(open(sys.argv[1]))[\"points\"] if p[\"target\"] == \"stock\"]; assert p and p[0][\"success_rate\"] == 100, p" "$1/sweep.json"' "$sweep_rc" "$sweep_dir"

echo "== ./lab bench --quick --experiment tuning --variants levers-off"
tuning_rc=0
./lab bench --quick --experiment tuning --variants levers-off > "$OUT/tuning.txt" 2>&1 || tuning_rc=$?
check "exit 0, the levers-off variant measured" \
  bash -c '[ "$0" -eq 0 ] && grep -q "levers-off" "$1"' "$tuning_rc" "$OUT/tuning.txt"

if [ "$failures" -gt 0 ]; then log "$failures check(s) failed, first: $FAILED (output in $OUT)"; exit 1; fi
log "all checks passed"
