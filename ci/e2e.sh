#!/usr/bin/env bash
# End-to-end checks on real processes: ./lab up, the identical request through the gateway and directly, the login
# page, every management port, each JMeter plan for a few seconds, ./lab bench --quick, report.html in headless
# Chromium, ./lab down. Loopback only; every load is bounded by the runner's duration.
set -euo pipefail
CI_NAME=e2e
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ROOT=$PWD
ci_results e2e
GW=http://127.0.0.1:$(lab_prop service.gateway.port)
DIRECT=http://127.0.0.1:$(lab_prop service.study-service.port)
MONO=http://127.0.0.1:$(lab_prop service.monolith.port)


echo "== the lab ↔ runner contract: options are checked before anything starts"
./lab down >/dev/null
check "./lab bench --help shows --start/--no-start and starts nothing" \
  bash -c './lab bench --help > "$0/help.txt" 2>&1 && grep -q -- "--\[no-\]start" "$0/help.txt"' "$OUT"
check "nothing was started by --help" nothing_listening
check "./lab sweep --bogus exits 2 naming the option, starts nothing" \
  bash -c './lab sweep --bogus > "$0/bogus.txt" 2>&1; rc=$?; [ $rc -eq 2 ] && grep -q -- "--bogus" "$0/bogus.txt"' "$OUT"
check "nothing was started by a mistyped option" nothing_listening
check "./lab bench --experiment bogus exits 2 naming the experiments" \
  bash -c './lab bench --experiment bogus > "$0/exp-bogus.txt" 2>&1; [ $? -eq 2 ] && grep -q "logging, tuning" "$0/exp-bogus.txt"' "$OUT"
JDK17=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
check "virtual threads asked for on Java 17: ./lab up refuses (exit 2) naming LAB_JAVA_HOME, starts nothing" \
  bash -c 'STUDY_SERVICE_VIRTUAL_THREADS=true LAB_JAVA_HOME="$1" ./lab up study-service > "$0/vt17.txt" 2>&1; \
           [ $? -eq 2 ] && grep -q "LAB_JAVA_HOME" "$0/vt17.txt"' "$OUT" "$JDK17"
check "LAB_JAVA_HOME that is not a JDK: exit 2 naming it" \
  bash -c 'LAB_JAVA_HOME=/nonexistent ./lab up study-service > "$0/jdk-bad.txt" 2>&1; [ $? -eq 2 ] && grep -q "LAB_JAVA_HOME=/nonexistent" "$0/jdk-bad.txt"' "$OUT"
check "nothing was started by a refused JDK" nothing_listening
echo "== ./lab profile needs its app running and wrk, and says so"
check "./lab profile gateway with the gateway down: exit 2 naming ./lab up" \
  bash -c './lab profile gateway > "$0/profile-down.txt" 2>&1; [ $? -eq 2 ] \
           && grep -q "./lab up study-service gateway" "$0/profile-down.txt"' "$OUT"
# every command of the PATH but wrk
nowrk="$OUT/path-without-wrk"; mkdir -p "$nowrk"
for f in /usr/local/bin/* /usr/bin/* /bin/*; do
  if [ -e "$f" ] && [ "${f##*/}" != wrk ]; then ln -sf "$f" "$nowrk/"; fi
done
check "./lab profile gateway without wrk: exit 2 naming apt-get install wrk" \
  bash -c 'PATH="$1" ./lab profile gateway > "$0/profile-no-wrk.txt" 2>&1; [ $? -eq 2 ] \
           && grep -q "apt-get install wrk" "$0/profile-no-wrk.txt"' "$OUT" "$nowrk"
echo "== ./lab bench --start: starts only what its targets need, stops it at the end"
./lab bench --quick --targets direct --results "$OUT/start" > "$OUT/start.log" 2>&1 || true
check "bench --targets direct started study-service only" grep -q "started \[study-service\]" "$OUT/start.log"
check "bench wrote its report" bash -c 'ls "$0"/*/report.md' "$OUT/start"
check "and stopped it again: nothing left listening" nothing_listening

echo "== ./lab up"
./lab up
for s in $(lab_services); do
  check "$s runs with -XX:+ExitOnOutOfMemoryError (out of heap, it exits)" \
    bash -c 'tr "\0" " " < "/proc/$(cat ".lab/$0.pid")/cmdline" | grep -q -- "-XX:+ExitOnOutOfMemoryError"' "$s"
done

echo "== identical request, three targets"
curl -fsS "$GW/api/studies/42" -D "$OUT/gateway.headers" -o "$OUT/gateway.json"
curl -fsS "$DIRECT/api/studies/42" -o "$OUT/direct.json"
curl -fsS "$MONO/api/studies/42" -o "$OUT/monolith.json"
check "gateway returns exactly what study-service returns" cmp -s "$OUT/gateway.json" "$OUT/direct.json"
check "monolith returns the identical JSON" cmp -s "$OUT/monolith.json" "$OUT/direct.json"
check "gateway returns an X-Request-Id" grep -qi '^x-request-id: ' "$OUT/gateway.headers"
check "gateway answers 404 problem+json for an unknown study" \
  bash -c '[ "$(curl -s -o /dev/null -w "%{http_code} %{content_type}" "$0/api/studies/99999")" = "404 application/problem+json" ]' "$GW"

echo "== access log: one line per call at completion (id, status, duration), from the async logger thread"
curl -fsS -o /dev/null -H 'X-Request-Id: e2e-access-log-1' "$GW/api/studies/1"
access_lines() { grep -c 'id=e2e-access-log-1 ' .lab/logs/gateway-access.log 2>/dev/null || true; }
deadline=$((SECONDS + 10))
until [ "$(access_lines)" -ge 1 ] || [ $SECONDS -ge $deadline ]; do sleep 0.2; done
check "one access line for the request id" [ "$(access_lines)" -eq 1 ]
check "the access line has method, path, status and duration" \
  grep -qE 'id=e2e-access-log-1 method=GET path=/api/studies/1 client=[^ ]+ status=200 durationMs=[0-9]+\.[0-9]{3}$' \
  .lab/logs/gateway-access.log
# The line shows the caller's thread (the event loop); who appends it is the disruptor's thread, which must be running.
check "gateway logs through Log4j2 async loggers (disruptor thread running)" \
  bash -c 'jcmd "$(cat .lab/gateway.pid)" Thread.print | grep -q "Log4j2-TF-.*AsyncLogger"'

echo "== login page through the gateway"
check "GET /login through the gateway has a CSRF token" \
  bash -c 'curl -fsS "$0/login" | grep -q "name=\"_csrf\""' "$GW"

echo "== management ports"
IFS=, read -r -a services <<< "$(lab_prop services)"
for service in "${services[@]}"; do
  port=$(lab_prop "service.$service.management-port")
  check "$service /actuator/prometheus has application=\"$service\"" \
    bash -c "curl -fsS http://127.0.0.1:$port/actuator/prometheus | grep -q 'application=\"$service\"'"
done
check "no actuator through the gateway's public port" \
  bash -c '[ "$(curl -s -o /dev/null -w "%{http_code}" "$0/actuator/prometheus")" = 404 ]' "$GW"

echo "== every plan, a few seconds each, through the gateway (the warm-up detector capped at 5 s)"
for plan in gateway login-page login-flow create-study slow-upstream; do
  dir="$OUT/plan-$plan"
  if ./lab bench --plan "$plan" --targets gateway --warmup 1 --warmup-max 5 --repetitions 2 \
       --duration 3 --latency-repetitions 0 --no-dashboard \
       --metrics-port 0 --results "$dir" > "$dir.log" 2>&1; then
    json=$(ls "$dir"/*/run.json)
    check "plan $plan: samples > 0 and 100 % success" python3 - "$json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["targets"][0]
print(f"       {t['name']}: {t['samples']} samples, {t['tps']:.1f} TPS, success {t['success_rate']:.2f} %")
sys.exit(0 if t["samples"] > 0 and t["success_rate"] == 100.0 else 1)
PY
  else
    fail "plan $plan (see $dir.log)"; tail -5 "$dir.log"
  fi
done

echo "== ./lab profile gateway: async-profiler flame graph under wrk load"
check "./lab profile gateway writes a flame graph" \
  bash -c './lab profile gateway --warmup 2 --duration 3 --out "$0/profile" > "$0/profile.log" 2>&1 \
           && grep -q "<canvas" "$0/profile/flame-gateway.html"' "$OUT"

echo "== bench/floor.sh: the floor and the Netty proxy (Netty alone) beside the gateway, one short wrk round"
check "bench/floor.sh measures gateway, reactor-netty and netty against direct" \
  bash -c 'bench/floor.sh --targets direct --warmup 1 --rounds 1 --duration 2 > "$0/floor.log" 2>&1 \
           && grep -qE "^gateway +[0-9]" "$0/floor.log" && grep -qE "^reactor-netty +[0-9]" "$0/floor.log" \
           && grep -qE "^netty +[0-9]" "$0/floor.log"' "$OUT"

echo "== ./lab deny-list generate / load"
check "./lab deny-list generate writes the rule file and the client CSV" \
  bash -c './lab deny-list generate --rules 2000 --seed 1 --out "$0/deny-list" > "$0/deny-list.log" 2>&1 \
           && [ "$(grep -vc "^#" "$0/deny-list/deny-list.txt")" -ge 1000 ] && head -1 "$0/deny-list/client-ips.csv" | grep -q clientIp' "$OUT"
check "./lab deny-list load reads it back" \
  bash -c './lab deny-list load "$0/deny-list/deny-list.txt" >> "$0/deny-list.log" 2>&1 && grep -qi "rules" "$0/deny-list.log"' "$OUT"
check "./lab deny-list with a bad option exits 2 naming it" \
  bash -c './lab deny-list generate --rules many > /dev/null 2> "$0/deny-bad.txt"; [ $? -eq 2 ] && grep -q -- "--rules" "$0/deny-bad.txt"' "$OUT"

echo "== ./lab bench --quick"
start=$SECONDS
./lab bench --quick --results "$OUT/quick" | tee "$OUT/quick.log"
echo "  wall time: $((SECONDS - start)) s"
run=$(ls -d "$OUT"/quick/*/ | head -1)
check "report.md, report.html, run.json written; no INCOMPLETE marker" \
  bash -c "[ -s '$run/report.md' ] && [ -s '$run/report.html' ] && [ -s '$run/run.json' ] && [ ! -e '$run/INCOMPLETE' ]"
check "run.json sample counts equal the raw JTL rows" python3 - "$run" <<'PY'
import csv, glob, json, os, sys
run = sys.argv[1]
for t in json.load(open(os.path.join(run, "run.json")))["targets"]:
    rows = 0
    for jtl in glob.glob(os.path.join(run, "raw", f"{t['name']}-rep*.jtl")):
        with open(jtl, newline="") as f:
            rows += sum(1 for _ in csv.DictReader(f))
    print(f"       {t['name']}: run.json {t['samples']} samples, JTL {rows} rows")
    if rows != t["samples"]:
        sys.exit(1)
PY

check "run.json: each target's warm-up keeps a window log, one entry per window, and read its apps' JIT and GC" \
  python3 - "$run" <<'PY'
import json, os, sys
for t in json.load(open(os.path.join(sys.argv[1], "run.json")))["targets"]:
    w = t["warmup"]
    log = w["window_log"]
    print(f"       {t['name']}: {w['windows']} window(s), log {[(e['tps'], e['busiest_jvm']) for e in log]}, "
          f"apps' compile ms {w['compile_ms_before']} -> {w['compile_ms_after']}, GC pause ms {w['gc_pause_ms']}")
    if len(log) != w["windows"] or not all(e["tps"] > 0 and e["seconds"] > 0 for e in log):
        sys.exit(1)
    # null when no app's metrics could be read: the warm-up then judges on throughput alone
    if w["compile_ms_before"] is None or w["compile_ms_after"] is None or w["gc_pause_ms"] is None:
        sys.exit(1)
PY

echo "== ./lab sweep (two small levels, the warm-up detector capped at 5 s)"
check "./lab sweep writes sweep.md with one row per level" \
  bash -c './lab sweep --targets direct --levels 2,4 --duration 2 --warmup 1 --warmup-max 5 --metrics-port 0 \
             --results "$0/sweep" > "$0/sweep.log" 2>&1 && [ "$(grep -c "^| direct |" "$0"/sweep/*/sweep.md)" -eq 2 ] \
           && [ -s "$(ls "$0"/sweep/*/sweep.json)" ] && ! grep -q "{" "$0"/sweep/*/sweep.md' "$OUT"
check "./lab sweep: raw/direct-latency.hlog holds each level's responses (tag threads-N, HistogramLogProcessor)" \
  python3 - "$OUT/sweep" <<'PY'
import glob, json, os, subprocess, sys
j = glob.glob(sys.argv[1] + "/*/sweep.json")[0]
ok = True
for p in json.load(open(j))["points"]:
    read = subprocess.run(["bash", "-c", 'source ci/lib.sh; hlog_count "$0" "$1"',
                           os.path.dirname(j) + "/raw/direct-latency.hlog", "threads-%d" % p["threads"]],
                          capture_output=True, text=True).stdout.strip()
    print("       threads-%d: log %s, sweep.json %d" % (p["threads"], read or "unreadable", p["samples"]))
    ok = ok and read == str(p["samples"])
sys.exit(0 if ok else 1)
PY

echo "== ./lab bench --experiment: the gateway restarted in each variant, compared with the first"
dir="$OUT/experiment-tuning"
if ./lab bench --quick --experiment tuning --variants nio --duration 2 --metrics-port 0 --results "$dir" \
     > "$dir.log" 2>&1; then
  check "--experiment tuning --variants nio: both variants measured after their own restart, ratio to the baseline" \
    ci/check_experiment.py "$(ls -d "$dir"/*/)" --targets "defaults,nio" --ratio-of nio --apps-jdk
else
  fail "--experiment tuning (see $dir.log)"; tail -5 "$dir.log"
fi

echo "== ./lab bench --experiment logging: the access log switched off and on at run time in each restarted gateway"
dir="$OUT/experiment-logging"
if ./lab bench --quick --experiment logging --variants log4j2-async --duration 4 --metrics-port 0 --results "$dir" \
     > "$dir.log" 2>&1; then
  check "--experiment logging --variants log4j2-async: one JVM per repetition measured with its access log on and off" \
    ci/check_experiment.py "$(ls -d "$dir"/*/)" --targets "log4j2-async,log4j2-async-off" --variants log4j2-async \
      --ratio-of log4j2-async --answer "access log on ÷ off in the same JVM .*log4j2-async ×" --apps-jdk
  # the access log really went off and on: no line completes inside an off segment (after 1 s for requests that
  # started before the switch), and the on segments hold about as many lines as the on arm's samples
  check "--experiment logging: the gateway's access log is silent in the off segments and complete in the on ones" \
    python3 - "$(ls -d "$dir"/*/)" .lab/logs <<'PY'
import datetime, glob, json, os, sys
run, logs = sys.argv[1], sys.argv[2]
reps = json.load(open(os.path.join(run, "run.json")))["repetitions"]
seg = {arm: [s for r in reps if r["target"] == name for s in r["segments"]]
       for arm, name in (("on", "log4j2-async"), ("off", "log4j2-async-off"))}
samples = {arm: sum(r["samples"] for r in reps if r["target"] == name)
           for arm, name in (("on", "log4j2-async"), ("off", "log4j2-async-off"))}
count = {"on": 0, "off": 0}
for line in (l for f in glob.glob(os.path.join(logs, "gateway-access*.log")) for l in open(f)):
    if "path=/api/studies/" not in line:
        continue
    ms = datetime.datetime.fromisoformat(line.split(" ", 1)[0]).timestamp() * 1000
    for arm in ("on", "off"):
        if any(a + (1000 if arm == "off" else 0) <= ms < b for a, b in seg[arm]):
            count[arm] += 1
print("       on: %d samples, %d access-log lines; off: %d samples, %d lines" % (samples["on"], count["on"], samples["off"], count["off"]))
sys.exit(0 if samples["off"] > 0 and count["off"] == 0 and abs(count["on"] - samples["on"]) <= 0.05 * samples["on"] + 20 else 1)
PY
else
  fail "--experiment logging (see $dir.log)"; tail -5 "$dir.log"
fi
# virtual threads need a JDK 21+, which ./lab picks from /usr/lib/jvm (the CI image has Temurin 25)
if ls /usr/lib/jvm/*/release >/dev/null 2>&1 && grep -qE '^JAVA_VERSION="(2[1-9]|[3-9][0-9])' /usr/lib/jvm/*/release; then
  dir="$OUT/experiment-virtual-threads"
  # 100 req/s × 6 s × 2 repetitions: 1,200 samples per target, enough for the p99 the answer quotes
  if ./lab bench --quick --experiment virtual-threads --rate 100 --duration 6 --metrics-port 0 --results "$dir" \
       > "$dir.log" 2>&1; then
    check "--experiment virtual-threads: study-service restarted per variant, direct and gateway in the open model" \
      ci/check_experiment.py "$(ls -d "$dir"/*/)" --service study-service --variants platform,virtual \
        --targets platform-direct,platform-gateway,virtual-direct,virtual-gateway --plan slow-upstream \
        --model "open at 100" --answer "platform-gateway [0-9,]+ ms / .*the gateway adds at p99: platform [-+][0-9,]+ ms"
  else
    fail "--experiment virtual-threads (see $dir.log)"; tail -5 "$dir.log"
  fi
  check "study-service runs with its defaults again (platform threads)" \
    bash -c '! tr "\0" "\n" < /proc/$(cat .lab/study-service.pid)/environ | grep -q "^STUDY_SERVICE_VIRTUAL_THREADS=true"'
else
  echo "  skip --experiment virtual-threads: no JDK 21+ under /usr/lib/jvm"
fi
echo "== the gateway on Logback (the logging experiment's logback variant): it builds, starts and writes the access log"
check "GATEWAY_LOGGING_BACKEND=logback ./lab up gateway: the Logback build answers and logs one line per request" \
  bash -c './lab down gateway >/dev/null && GATEWAY_LOGGING_BACKEND=logback ./lab up gateway > "$1/logback.log" 2>&1 \
           && curl -fsS -o /dev/null -H "X-Request-Id: e2e-logback-1" "$0/api/studies/1" \
           && for i in $(seq 50); do grep -q "id=e2e-logback-1 " .lab/logs/gateway-access.log && break; sleep 0.2; done \
           && grep -q "id=e2e-logback-1 method=GET path=/api/studies/1 .*status=200" .lab/logs/gateway-access.log \
           && tr "\0" "\n" < /proc/$(cat .lab/gateway.pid)/cmdline | grep -q "gateway-logback.jar"; rc=$?; \
           ./lab down gateway >/dev/null; ./lab up gateway >/dev/null; exit $rc' "$GW" "$OUT"
check "the gateway runs with its defaults again after the experiments" \
  bash -c 'curl -fsS -o /dev/null "$0/api/studies/1" && ! tr "\0" " " < /proc/$(cat .lab/gateway.pid)/environ | grep -q GATEWAY_NETTY_NATIVE=false' "$GW"

echo "== report.html in headless Chromium"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$CHROMIUM" ]; then
  flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
         --disable-sync --no-first-run --user-data-dir="$(mktemp -d)")
  timeout 60 "$CHROMIUM" "${flags[@]}" --dump-dom "file://$run/report.html" > "$OUT/report.dom.html" 2>/dev/null || true
  svgs=$(grep -o '<svg' "$OUT/report.dom.html" | wc -l)
  check "report.html renders with its charts ($svgs inline SVGs, need >= 3)" [ "$svgs" -ge 3 ]
  timeout 60 "$CHROMIUM" "${flags[@]}" --window-size=1280,2400 --screenshot="$OUT/report.png" \
    "file://$run/report.html" >/dev/null 2>&1 || true
  check "screenshot kept: results/e2e/report.png" [ -s "$OUT/report.png" ]
else
  fail "chromium not installed (.ci/run installs it)"
fi

echo "== ./lab down"
./lab down
check "nothing left listening on the lab's ports" nothing_listening

echo
if [ $failures -eq 0 ]; then echo "e2e: all checks passed"; else echo "e2e: $failures check(s) failed"; exit 1; fi
