#!/usr/bin/env bash
# End-to-end checks that a bench run which cannot support an answer gives none (docs/runner.md, "Validity"), on real
# processes, and that a good run reports latency across the load range:
#   1. no app up: ./lab bench --quick with --no-start, and with --remote, exits 2 naming the URL and how to start it
#   2. a latency generator that produces nothing (--rate 0.001 with Poisson arrivals: no arrival falls in its
#      1 s windows — evenly spaced ones would send one at the start of each): INVALID, exit 3
#   3. one target down mid-run (./lab down monolith while bench measures it): INVALID, exit 3
#   4. a good --quick run: "smoke run, not for quoting" first, the latency table with its rates and sample counts, exit 0;
#      each target's latency log (raw/<target>-latency.hlog) read back by HdrHistogram's HistogramLogProcessor
#   5. --latency-arrivals poisson and --latency-connections reach the generator (run.json says so); a bad value exits 2
#   6. a judged (not --quick) run: the generator's warm-up rounds with each target's p50, the answer rate at a fifth of
#      the slowest target's TPS as the results table gives it, and 2 s windows there
#   7. bench/latency-compare.sh, small (Vegeta from the Go module proxy beside the lab's generator): the table of both
#      tools, the schedule Vegeta sent, the lab's run judged on the nearest one; a bad option exits 2
# Loopback only; every load is bounded by the runner's durations.
set -euo pipefail
CI_NAME=latency
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ci_results latency-e2e
GW=http://127.0.0.1:$(lab_prop service.gateway.port)


# expect_exit CODE LOG CMD...: runs CMD with stdout+stderr into LOG, true when it exits CODE
expect_exit() { local code=$1 log=$2; shift 2; set +e; "$@" > "$log" 2>&1; local rc=$?; set -e; echo "       exit $rc"; [ "$rc" = "$code" ]; }

echo "== 1. no app up: exit 2 before warm-up, naming the URL and the fix"
./lab down >/dev/null 2>&1 || true
check "--no-start: exit 2" expect_exit 2 "$OUT/nostart.log" ./lab bench --quick --no-start --metrics-port 0 --results "$OUT/x"
check "--no-start: names the gateway's request and how to start it" \
  grep -q "target gateway does not answer its plan's request: GET $GW/api/studies/1 .*start it with ./lab up, or drop --no-start" "$OUT/nostart.log"
check "--remote (nothing started by the lab): exit 2" \
  expect_exit 2 "$OUT/remote.log" ./lab bench --quick --remote 127.0.0.2 --metrics-port 0 --results "$OUT/x"
check "--remote: names the URL and ./lab up" \
  grep -q "GET $GW/api/studies/1 .*start it with ./lab up (with --remote the lab starts nothing)" "$OUT/remote.log"
check "no results directory was created" bash -c '[ ! -e "$0" ]' "$OUT/x"

./lab up study-service monolith gateway > "$OUT/up.log" 2>&1 || { cat "$OUT/up.log"; fail "./lab up"; exit 1; }

# run_json_says DIR STATUS WORD: run.json under DIR has that status, and a reason naming WORD when INVALID
run_json_says() {
  python3 - "$@" <<'PY'
import glob, json, sys
root, status, word = sys.argv[1], sys.argv[2], sys.argv[3]
runs = glob.glob(root + "/*/run.json")
if not runs:
    sys.exit("no run.json under " + root)
r = json.load(open(runs[0]))
print("       status:", r.get("status"), "|", "; ".join(r.get("invalid_because") or []))
ok = r.get("status") == status and (status != "INVALID" or (r.get("answer") is None
                                     and any(word in x for x in r["invalid_because"])))
sys.exit(0 if ok else 1)
PY
}

echo "== 2. a latency generator that produces nothing: INVALID, exit 3, no answer"
check "--rate 0.001: exit 3" expect_exit 3 "$OUT/nothing.log" \
  ./lab bench --quick --no-start --targets gateway,direct --rate 0.001 --latency-arrivals poisson --metrics-port 0 \
  --results "$OUT/nothing"
check "stderr says INVALID and names the latency generator as what produced nothing" \
  grep -q "^INVALID: .*(latency generator): the generator produced nothing" "$OUT/nothing.log"
check "no answer line" bash -c '! grep -q "^answer:" "$0"' "$OUT/nothing.log"
check "run.json: status INVALID, no answer, the reason" run_json_says "$OUT/nothing" INVALID "produced nothing"
check "report.md's first line says INVALID" bash -c 'head -1 "$(ls "$0"/*/report.md)" | grep -q INVALID' "$OUT/nothing"

echo "== 3. one target down mid-run: INVALID, exit 3"
: > "$OUT/down.log"
set +e
./lab bench --quick --no-start --metrics-port 0 --results "$OUT/down" > "$OUT/down.log" 2>&1 &
bench=$!
set -e
deadline=$((SECONDS + 120))
until grep -q "measure monolith rep 1" "$OUT/down.log" || [ $SECONDS -ge $deadline ]; do sleep 0.2; done
./lab down monolith > /dev/null 2>&1
set +e; wait "$bench"; rc=$?; set -e
echo "       exit $rc"
check "exit 3" bash -c '[ "$0" = 3 ]' "$rc"
check "stderr names the monolith under the success threshold" \
  grep -q "^INVALID: .*monolith.*succeeded, under the 99 % a run needs" "$OUT/down.log"
check "run.json: status INVALID, the monolith named" run_json_says "$OUT/down" INVALID monolith
check "report.md's first line says INVALID" bash -c 'head -1 "$(ls "$0"/*/report.md)" | grep -q INVALID' "$OUT/down"

echo "== 4. a good --quick run: smoke-run first line, latency across the load range"
./lab up monolith > /dev/null 2>&1
check "exit 0" expect_exit 0 "$OUT/good.log" ./lab bench --quick --no-start --metrics-port 0 --results "$OUT/good"
check "the answer says smoke run, with the hop's added p50 in ms" \
  grep -q "^answer: Smoke run, not for quoting (--quick): .* it adds .* ms at p50 and .* at p99" "$OUT/good.log"
check "p99 only from ≥ 1,000 samples: in run.json and in the answer" python3 - "$OUT/good" "$OUT/good.log" <<'PY'
import glob, json, re, sys
r = json.load(open(glob.glob(sys.argv[1] + "/*/run.json")[0]))
answer = [l for l in open(sys.argv[2], encoding="utf-8") if l.startswith("answer:")][0]
l = r["latency"]
points = [p for v in l["levels"] for p in v["targets"].values()]
# every point: a p99 exactly when it has the 1,000 samples, a p50 from 20
ok = all((p["p99_us"] is not None) == (p["samples"] >= 1000) for p in points) and all(
    (p["p50_us"] is not None) == (p["samples"] >= 20) for p in points)
# the answer's p99: a figure in ms when the answer rate's windows had one, else "too few samples"
few = "p99" not in l["added_at_answer_rate"]
said_few = "not resolved (too few samples: p99 needs 1,000 per window) at p99" in answer
print("       answer-rate windows too few for p99: %s; the answer says so: %s" % (few, said_few))
ok = ok and few == said_few and (few or re.search(r"ms at p99", answer) is not None)
sys.exit(0 if ok else 1)
PY
check "report.md's first line says smoke run, not for quoting" \
  bash -c 'head -1 "$(ls "$0"/*/report.md)" | grep -q "smoke run, not for quoting"' "$OUT/good"
check "run.json: ≥ 4 rates, gateway and direct at each with samples, a knee rule" python3 - "$OUT/good" <<'PY'
import glob, json, sys
r = json.load(open(glob.glob(sys.argv[1] + "/*/run.json")[0]))
l = r["latency"]
levels = l["levels"]
for v in levels:
    print("       %6.0f req/s: " % v["rate"] + ", ".join("%s n=%d p50=%s µs" % (t, p["samples"], p["p50_us"])
                                                    for t, p in v["targets"].items()))
ok = r["status"] == "valid" and len(levels) >= 4 and all(
    all(v["targets"].get(t, {}).get("samples", 0) > 0 for t in ("gateway", "direct")) for v in levels) and l["knee_rule"]
sys.exit(0 if ok else 1)
PY
check "raw/<target>-latency.hlog: HdrHistogram's HistogramLogProcessor reads each rate's responses" python3 - "$OUT/good" <<'PY'
import glob, json, os, subprocess, sys
d = os.path.dirname(glob.glob(sys.argv[1] + "/*/run.json")[0])
levels = json.load(open(d + "/run.json"))["latency"]["levels"]
ok = True
for t in ("gateway", "direct", "monolith"):
    for v in levels:
        if t not in v["targets"]:
            continue
        tag = "rate-%d" % v["rate"] if v["rate"] == int(v["rate"]) else "rate-%.1f" % v["rate"]
        read = subprocess.run(["bash", "-c", 'source ci/lib.sh; hlog_count "$0" "$1"', d + "/raw/%s-latency.hlog" % t, tag],
                              capture_output=True, text=True).stdout.strip()
        want = v["targets"][t]["samples"]
        print("       %s %s: log %s, run.json %d" % (t, tag, read or "unreadable", want))
        ok = ok and read == str(want)
sys.exit(0 if ok else 1)
PY

echo "== 5. the latency generator's schedule and pool: --latency-arrivals poisson --latency-connections 4"
check "exit 0" expect_exit 0 "$OUT/uniform.log" ./lab bench --quick --no-start --targets gateway,direct \
  --latency-arrivals poisson --latency-connections 4 --metrics-port 0 --results "$OUT/uniform"
check "run.json names Poisson arrivals over 4 connections, and every target answered" python3 - "$OUT/uniform" <<'PY'
import glob, json, sys
r = json.load(open(glob.glob(sys.argv[1] + "/*/run.json")[0]))
generator = r["latency"]["engine"]  # the key kept its name
print("       generator:", generator)
ok = r["status"] == "valid" and "Poisson arrivals" in generator and "4 keep-alive connections" in generator and all(
    p["samples"] > 0 for v in r["latency"]["levels"] for p in v["targets"].values())
sys.exit(0 if ok else 1)
PY
check "a schedule it does not know: exit 2" \
  expect_exit 2 "$OUT/badarrivals.log" ./lab bench --quick --no-start --latency-arrivals bursty --metrics-port 0
check "  ...naming the option and its values" \
  grep -q "invalid --latency-arrivals bursty .*uniform (the default) or poisson" "$OUT/badarrivals.log"

echo "== 6. a judged run: the generator warms up in rounds, then 2 s windows at a fifth of the slowest target's TPS"
check "exit 0" expect_exit 0 "$OUT/judged.log" ./lab bench --no-start --targets gateway,direct --warmup 1 \
  --warmup-max 4 --repetitions 2 --duration 2 --latency-repetitions 2 --latency-levels 1 --no-dashboard \
  --metrics-port 0 --results "$OUT/judged"
check "run.json: 2 to 4 warm-up rounds with each target's p50, the answer rate from the TPS column, 2 s windows" \
  python3 - "$OUT/judged" <<'PY'
import glob, json, math, re, sys
r = json.load(open(glob.glob(sys.argv[1] + "/*/run.json")[0]))
l = r["latency"]
warm = l.get("engine_warmup") or ""
print("       generator warm-up:", warm)
m = re.match(r"(\d+) round\(s\) of one 1 s window per target", warm)
rounds_ok = m is not None and 2 <= int(m.group(1)) <= 4 and all(
    re.search(t + r" [\d,]+( → [\d,]+){%d}" % (int(m.group(1)) - 1), warm) for t in ("gateway", "direct"))
tps = {t["name"]: t["tps"] for t in r["targets"]}
rate = max(1, math.floor(0.2 * min(tps.values())))
print("       TPS %s; answer rate %s (expected %s)" % (tps, l["answer_rate"], rate))
answer = next(v for v in l["levels"] if v["rate"] == l["answer_rate"])
windows = {t: (p["windows"], p["requests"]) for t, p in answer["targets"].items()}
print("       at the answer rate, per target (windows, requests):", windows)
# two windows of 2 s: 4 s of arrivals (a window stretched for a p99 holds about 1,100 each)
windows_ok = all(w == 2 and (n <= 4 * rate * 1.05 + 2 or n >= 2 * 1000) for w, n in windows.values())
sys.exit(0 if rounds_ok and l["answer_rate"] == rate and windows_ok and r["status"] == "valid" else 1)
PY

echo "== 7. bench/latency-compare.sh, small: Vegeta and the lab's generator at the same rate, Vegeta's schedule measured"
# the verdict of a 3 s round is not the point here (exit 3 when the tools disagree): the mechanics are
check "exit 0 or 3 (agree or not)" bash -c 'bench/latency-compare.sh --seconds 3 --rounds 1 > "$0" 2>&1; rc=$?;
  echo "       exit $rc"; [ "$rc" = 0 ] || [ "$rc" = 3 ]' "$OUT/compare.log"
check "compare.md: Vegeta and both lab runs, Vegeta's schedule as sent, one lab run judged" python3 - <<'PY'
import glob, re, sys
md = open(sorted(glob.glob("results/latency-compare/*/compare.md"))[-1], encoding="utf-8").read()
print("       " + "\n       ".join(l for l in md.splitlines() if l.startswith(("Vegeta's schedule", "- lab"))))
m = re.search(r"gaps' coefficient of variation (\d+\.\d+), (\d+) % of them under a quarter", md)
rows = [l for l in md.splitlines() if l.startswith("| 1 |")]
ok = (m is not None and len(rows) == 3 and md.count("judged: the schedule nearest Vegeta's") == 1
      and md.count("shown, not judged") == 1 and all(re.search(r"\*\*-?\d+\.\d{3}\*\*", r) for r in rows))
sys.exit(0 if ok else 1)
PY
check "--seconds 1: exit 2 naming the option" bash -c 'bench/latency-compare.sh --seconds 1 > "$0" 2>&1; [ $? = 2 ] &&
  grep -q "seconds must be ≥ 3" "$0"' "$OUT/compare-bad.log"

[ "$failures" -eq 0 ] || { echo "latency e2e: $failures check(s) failed; first: $FAILED"; exit 1; }
echo "latency e2e: all checks passed"
