#!/usr/bin/env bash
# End-to-end checks of the floor (floor/: a proxy on Reactor Netty alone) as a service and load target of the lab, on
# real processes: ./lab up floor, the identical request, its management port, a bad setting, and
# ./lab bench --quick --targets gateway,floor,direct with the services started and stopped by the run, and the
# gateway's CPU per request split over the floor in its run.json and report.md. Loopback only;
# every load is bounded by the runner's duration.
set -euo pipefail
CI_NAME=floor
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ci_results floor
FLOOR=http://127.0.0.1:$(lab_prop service.floor.port)
FLOOR_MGMT=http://127.0.0.1:$(lab_prop service.floor.management-port)
DIRECT=http://127.0.0.1:$(lab_prop service.study-service.port)

./lab down >/dev/null

echo "== a setting the floor cannot use: it exits 2 naming it, ./lab up says so"
check "FLOOR_IO_WORKER_COUNT=0 ./lab up floor fails, the log names the variable" \
  bash -c 'FLOOR_IO_WORKER_COUNT=0 ./lab up floor > "$0/bad.txt" 2>&1; [ $? -ne 0 ] && grep -q "FLOOR_IO_WORKER_COUNT=0 is out of range" "$0/bad.txt"' "$OUT"
check "nothing was left running" nothing_listening

echo "== ./lab up floor, alone: ready, its upstream down"
./lab up floor | tee "$OUT/up-floor.log"
check "./lab status: floor ready on its ports" \
  bash -c './lab status | grep -qE "^floor +[0-9]+ +$0 +$1 +ready"' "$(lab_prop service.floor.port)" "$(lab_prop service.floor.management-port)"
check "no upstream: 503 application/problem+json" \
  bash -c '[ "$(curl -s -o /dev/null -w "%{http_code} %{content_type}" "$0/api/studies/1")" = "503 application/problem+json" ]' "$FLOOR"
check "management port: /actuator/prometheus has the JIT compile time, tagged application=\"floor\"" \
  bash -c 'curl -fsS "$0/actuator/prometheus" | grep -qE "^jvm_compilation_time_ms_total\{.*application=\"floor\".*\} [0-9]"' "$FLOOR_MGMT"
check "management port listens on loopback only" \
  bash -c '! ss -ltn | grep -E ":$0\b" | grep -vqE "127\.0\.0\.1\]?:"' "$(lab_prop service.floor.management-port)"
loops=$(( $(nproc) / 2 )); [ $loops -ge 1 ] || loops=1
check "the floor runs on the gateway's event-loop count ($loops), its own accept thread and the gateway's JVM options" \
  bash -c 'grep -q " $0 event loop(s), accept threads 1;" .lab/logs/floor.log \
           && tr "\0" " " < /proc/$(cat .lab/floor.pid)/cmdline | grep -q -- "-XX:+UseParallelGC"' "$loops"

echo "== the identical request through the floor and directly"
./lab up study-service > /dev/null
curl -fsS "$FLOOR/api/studies/42" -D "$OUT/floor.headers" -o "$OUT/floor.json"
curl -fsS "$DIRECT/api/studies/42" -o "$OUT/direct.json"
check "the floor returns exactly what study-service returns" cmp -s "$OUT/floor.json" "$OUT/direct.json"
check "with study-service's content type" grep -qi '^content-type: application/json' "$OUT/floor.headers"
check "a POST body goes through (400 problem+json for a bad one, as directly)" \
  bash -c '[ "$(curl -s -o /dev/null -w "%{http_code} %{content_type}" -H "Content-Type: application/json" -d "{" "$0/api/studies")" \
           = "$(curl -s -o /dev/null -w "%{http_code} %{content_type}" -H "Content-Type: application/json" -d "{" "$1/api/studies")" ]' \
  "$FLOOR" "$DIRECT"
check "./lab profile floor writes a flame graph of the floor under wrk load" \
  bash -c './lab profile floor --warmup 2 --duration 3 --out "$0/profile" > "$0/profile.log" 2>&1 \
           && grep -q "<canvas" "$0/profile/flame-floor.html" && grep -q "reactor.netty" "$0/profile/flame-floor.txt"' "$OUT"
./lab down > /dev/null
check "./lab down stopped both" nothing_listening

echo "== ./lab bench --quick --targets gateway,floor,direct: starts what the targets need, measures, stops"
start=$SECONDS
./lab bench --quick --targets gateway,floor,direct --metrics-port 0 --results "$OUT/bench" | tee "$OUT/bench.log"
echo "  wall time: $((SECONDS - start)) s"
check "it started study-service, gateway and floor" grep -qE "started \[study-service, gateway, floor\]" "$OUT/bench.log"
run=$(ls -d "$OUT"/bench/*/ | head -1)
check "report.md, report.html, run.json written; no INCOMPLETE marker" \
  bash -c "[ -s '$run/report.md' ] && [ -s '$run/report.html' ] && [ -s '$run/run.json' ] && [ ! -e '$run/INCOMPLETE' ]"
check "run.json: gateway, floor, direct measured, 100 % success; the floor's CPU per request and compile time read" \
  python3 - "$run/run.json" "$FLOOR" <<'PY'
import json, sys
targets = {t["name"]: t for t in json.load(open(sys.argv[1]))["targets"]}
ok = list(targets) == ["gateway", "floor", "direct"]
for name, t in targets.items():
    cpu = (t.get("cpu_us_per_request") or {}).get({"direct": "study-service"}.get(name, name)) or {}
    print(f"       {name}: {t['samples']} samples, success {t['success_rate']:.2f} %, "
          f"{cpu.get('mean', float('nan')):.0f} µs CPU per request, warm-up compile ms {t['warmup'].get('compile_ms')}")
    ok = ok and t["samples"] > 0 and t["success_rate"] == 100.0 and cpu.get("mean", 0) > 0
floor = targets.get("floor", {})
ok = ok and floor.get("plan") == "floor" and floor.get("url") == sys.argv[2] \
    and floor["warmup"].get("compile_ms_before") is not None
sys.exit(0 if ok else 1)
PY
check "run.json: the gateway's CPU per request split into the floor and what is on top, paired per repetition" \
  python3 - "$run/run.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
split = run.get("cpu_split") or {}
targets = {t["name"]: t for t in run["targets"]}
g = targets["gateway"]["cpu_us_per_request"]["gateway"]["reps"]
f = targets["floor"]["cpu_us_per_request"]["floor"]["reps"]
on_top = split.get("on_top_us_per_request", {}).get("reps", [])
print(f"       gateway {split.get('gateway_us_per_request', {}).get('mean', float('nan')):.1f} µs = floor "
      f"{split.get('floor_us_per_request', {}).get('mean', float('nan')):.1f} + on top "
      f"{split.get('on_top_us_per_request', {}).get('mean', float('nan')):.1f}; gateway ÷ floor "
      f"{split.get('gateway_over_floor', {}).get('mean', float('nan')):.2f}")
ok = split.get("gateway") == "gateway" and split.get("floor") == "floor" and len(on_top) == len(g) == len(f) > 0 \
    and all(abs(o - (a - b)) < 1e-6 for o, a, b in zip(on_top, g, f)) \
    and split["floor_us_per_request"]["mean"] > 0 and "ci95" in split["gateway_over_floor"]
sys.exit(0 if ok else 1)
PY
check "report.md: the split's section with the floor and what is on top" \
  bash -c 'grep -q "^## Gateway CPU per request: the floor and what is on top" "$0/report.md" \
           && grep -q "on top: Spring Cloud Gateway + the lab.s features (gateway − floor)" "$0/report.md" \
           && grep -q "gateway ÷ floor CPU per request: " "$0/report.md"' "$run"
check "and stopped them again: nothing left listening" nothing_listening

echo
if [ $failures -eq 0 ]; then echo "floor: all checks passed"; else echo "floor: $failures check(s) failed"; exit 1; fi
