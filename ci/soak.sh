#!/usr/bin/env bash
# End-to-end soak on real processes (docs/reliability.md): ./lab soak for one minute in 10-s intervals
# against the gateway it starts, then checks the report's mechanics (every interval sampled, every process figure
# read). The verdict is printed, not required: one minute on a shared CI machine says little about drift — the
# 10-minute figures are in docs/reliability.md. Loopback only; bounded by --seconds and the runner's time limits.
set -euo pipefail
CI_NAME=soak
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ci_results soak


echo "== bad input: exit 2 naming the problem, nothing started"
check "./lab soak --interval 1 exits 2 naming --interval" \
  bash -c './lab soak --interval 1 > "$0/bad.txt" 2>&1; [ $? -eq 2 ] && grep -q -- "--interval" "$0/bad.txt"' "$OUT"

echo "== ./lab soak --seconds 60 --interval 10 (starts study-service and the gateway, stops them at the end)"
start=$SECONDS
set +e
./lab soak --seconds 60 --interval 10 --probe-seconds 10 --warmup-max 30 --results "$OUT" | tee "$OUT/soak.log"
rc=${PIPESTATUS[0]}
set -e
echo "  exit $rc, wall time $((SECONDS - start)) s"
check "exit 0 (stable) or 3 (drift named), not a failure" bash -c '[ "$0" = 0 ] || [ "$0" = 3 ]' "$rc"
JSON=$(ls "$OUT"/*/soak.json 2>/dev/null | head -n 1 || true)
check "soak.json and soak.md written" bash -c '[ -s "$0" ] && [ -s "$(dirname "$0")/soak.md" ]' "${JSON:-/nonexistent}"
check "six intervals, each with requests, RSS, heap after GC, open fds and threads read" python3 - "${JSON:-/nonexistent}" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[1]))
s = r["samples"]
ok = len(s) == 6 and all(x["requests"] > 0 and x["threads"] > 0 and x["open_fds"] > 0
                         and not math.isnan(float(x["rss_mib"])) and not math.isnan(float(x["heap_after_gc_mib"]))
                         and not math.isnan(float(x["log_events_dropped"])) for x in s)
print("  verdict:", "STABLE" if not r["findings"] else "DRIFT — " + "; ".join(r["findings"]))
sys.exit(0 if ok else 1)
PY
check "a verdict line was printed" grep -q "^verdict: " "$OUT/soak.log"
check "raw/gateway-latency.hlog holds every interval's responses (HistogramLogProcessor)" bash -c '
  source ci/lib.sh; read=$(hlog_count "$(dirname "$0")/raw/gateway-latency.hlog")
  want=$(python3 -c "import json, sys; print(sum(x[\"requests\"] for x in json.load(open(sys.argv[1]))[\"samples\"]))" "$0")
  echo "       log ${read:-unreadable}, soak.json $want"; [ -n "$read" ] && [ "$read" = "$want" ]' "${JSON:-/nonexistent}"
check "nothing left running" bash -c '! ./lab status | grep -qE "ready|starting"'

[ "$failures" -eq 0 ] || { log "FAILED: $failures check(s), first: $FAILED"; exit 1; }
log "soak checks passed"
