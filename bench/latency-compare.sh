#!/usr/bin/env bash
# The lab's latency generator beside an independent µs-resolution open-model tool (Vegeta, MIT) at the same arrival
# rate on the same warmed apps: what the gateway hop adds at p50 and p99, measured both ways in interleaved rounds.
# A measurement script, not a CI gate. NEEDS GO (1.21 or newer) on this machine: Vegeta is fetched and built from the
# Go module proxy by `go run github.com/tsenart/vegeta/v12@v12.13.0` (the first call takes a minute). See --help.
set -euo pipefail

BENCH_NAME=latency-compare
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
VEGETA=(go run github.com/tsenart/vegeta/v12@v12.13.0)
RATE="" SECONDS_PER=30 ROUNDS=2 OUT="$ROOT/results/latency-compare"

usage() {
  cat <<EOF
Usage: bench/latency-compare.sh [--rate R] [--seconds S] [--rounds N]

Start the apps first: ./lab up. Then, on the warmed gateway and study-service (ports from lab.properties):
  1. warm-up: ./lab bench --no-start --targets gateway,direct (short), which also gives the default rate
     (a fifth of the slower target's TPS, as ./lab bench chooses it) when --rate is not given
  2. N rounds, each: Vegeta on gateway and direct (S s each, alternating order), then the lab's latency generator on
     both (./lab bench --latency-levels 1: its warm-up rounds, then S/2 interleaved repetitions of 2 s per target)
     twice: with evenly spaced arrivals (its default) and with Poisson arrivals (--latency-arrivals poisson); all
     at the same rate, the lab's runs in alternating order
  3. the schedule Vegeta actually sent, from the send time of every request it records: the gaps' coefficient of
     variation (0 for an even schedule, 1 for Poisson) and their share under a quarter of the mean gap (0 % and
     22 %). Vegeta paces with Go's timers, which wait whole milliseconds on Linux: above ≈ 1,000 req/s it sends
     in bursts, not evenly
  4. a table per round and tool (p50/p99 of each target, the hop's added p50/p99), then each tool's mean added
     p50/p99 side by side. The lab's run on the schedule nearest Vegeta's measured one is judged: it agrees when
     its added p50 is within ± 0.1 ms and its added p99 within ± 35 % of Vegeta's (exit 0; 3 when not); the other
     is shown beside it
Request: GET /api/studies/{id}, id uniform in 1..10000, as the plans and the lab's latency generator send it.
Loopback only; every load is bounded by its duration. Results: results/latency-compare/<stamp>/.

Options:
  --rate R       arrivals per second for both tools (default: from the warm-up run)
  --seconds S    seconds per target and round for each tool (default $SECONDS_PER)
  --rounds N     interleaved rounds (default $ROUNDS)
EOF
}

while [ $# -gt 0 ]; do
  case $1 in
    --rate) RATE=$2; shift 2 ;;
    --seconds) SECONDS_PER=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option $1 — see --help" ;;
  esac
done
command -v go >/dev/null || die "Go is not installed: Vegeta is built with it (go.dev/dl, 1.21+)"
[[ $SECONDS_PER =~ ^[0-9]+$ && $SECONDS_PER -ge 3 && $ROUNDS =~ ^[0-9]+$ && $ROUNDS -ge 1 ]] \
  || die "--seconds must be ≥ 3 and --rounds ≥ 1"
GW=http://127.0.0.1:$GATEWAY_PORT
DIRECT=http://127.0.0.1:$STUDY_SERVICE_PORT
for url in "$GW" "$DIRECT"; do require_answer "$url" "$url/api/studies/1" "./lab up"; done
DIR="$OUT/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$DIR"
"${VEGETA[@]}" -version > /dev/null   # fetch and build it now, not inside a measured round

targets() { # targets URL FILE: 20,000 GET lines with ids uniform in 1..10000 (Vegeta goes round them)
  python3 -c 'import random, sys
random.seed(42)
for _ in range(20000):
    print("GET %s/api/studies/%d" % (sys.argv[1], random.randint(1, 10000)))' "$1" > "$2"
}
targets "$GW" "$DIR/gateway.targets"
targets "$DIRECT" "$DIR/direct.targets"

echo "== warm-up: ./lab bench --no-start --targets gateway,direct (short)"
./lab bench --no-start --targets gateway,direct --repetitions 2 --duration 3 --latency-repetitions 1 \
  --latency-levels 1 ${RATE:+--rate "$RATE"} --no-dashboard --metrics-port 0 --results "$DIR/warmup" \
  > "$DIR/warmup.log" 2>&1 || { tail -5 "$DIR/warmup.log"; echo "error: the warm-up run failed ($DIR/warmup.log)" >&2; exit 1; }
if [ -z "$RATE" ]; then
  RATE=$(python3 -c 'import glob, json, sys
print(int(json.load(open(glob.glob(sys.argv[1] + "/*/run.json")[0]))["latency"]["answer_rate"]))' "$DIR/warmup")
fi
echo "   rate: $RATE req/s"

vegeta() { # vegeta TARGET ROUND: one open-model window at RATE into vegeta-TARGET-ROUND.json (latencies in ns) and
  # each request's send time (ns since the epoch) into vegeta-TARGET-ROUND.sent
  local bin="$DIR/vegeta-$1-$2.bin"
  "${VEGETA[@]}" attack -targets="$DIR/$1.targets" -rate="$RATE/1s" -duration="${SECONDS_PER}s" -timeout=10s > "$bin"
  "${VEGETA[@]}" report -type=json < "$bin" > "$DIR/vegeta-$1-$2.json"
  "${VEGETA[@]}" encode --to csv < "$bin" | cut -d, -f1 > "$DIR/vegeta-$1-$2.sent"
  rm -f "$bin"
}
lab_generator() { # lab_generator ARRIVALS ROUND: the lab's latency generator at RATE, its warm-up rounds
  # (discarded), then S/2 interleaved repetitions of 2 s per target (a short closed-model warm-up and repetition come first: the runner's)
  ./lab bench --no-start --targets gateway,direct --warmup 1 --warmup-max 2 --repetitions 1 --duration 2 \
    --latency-repetitions $((SECONDS_PER / 2)) --latency-levels 1 --latency-arrivals "$1" --rate "$RATE" --no-dashboard \
    --metrics-port 0 --results "$DIR/lab-$1-$2" > "$DIR/lab-$1-$2.log" 2>&1 \
    || { tail -5 "$DIR/lab-$1-$2.log"; echo "error: the lab's run failed ($DIR/lab-$1-$2.log)" >&2; exit 1; }
}
for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round/$ROUNDS at $RATE req/s: Vegeta, then the lab's latency generator (uniform and Poisson arrivals)"
  if [ $((round % 2)) -eq 1 ]; then vegeta gateway "$round"; vegeta direct "$round"
    lab_generator uniform "$round"; lab_generator poisson "$round"
  else vegeta direct "$round"; vegeta gateway "$round"
    lab_generator poisson "$round"; lab_generator uniform "$round"; fi
done

python3 - "$DIR" "$ROUNDS" "$RATE" <<'PY' | tee "$DIR/compare.md"
import glob, json, sys
d, rounds, rate = sys.argv[1], int(sys.argv[2]), sys.argv[3]
tools = {"vegeta": "Vegeta", "lab-uniform": "lab, uniform arrivals (default)", "lab-poisson": "lab, Poisson arrivals"}
rows, added, gaps = [], {t: [] for t in tools}, []
def schedule(path):  # the gaps between Vegeta's send times: coefficient of variation, share under a quarter of the mean
    sent = sorted(int(x) for x in open(path) if x.strip())
    g = [b - a for a, b in zip(sent, sent[1:])]
    m = sum(g) / len(g) if len(g) >= 10 else 0
    if m <= 0:  # too few requests to say how they were spaced
        return None
    sd = (sum((x - m) ** 2 for x in g) / len(g)) ** 0.5
    return sd / m, sum(1 for x in g if x < m / 4) / len(g)
for r in range(1, rounds + 1):
    v = {t: json.load(open(f"{d}/vegeta-{t}-{r}.json")) for t in ("gateway", "direct")}
    vp = {t: (v[t]["latencies"]["50th"] / 1e6, v[t]["latencies"]["99th"] / 1e6, 100 * v[t]["success"]) for t in v}
    per_tool = {"vegeta": vp}
    gaps += [g for g in (schedule(f"{d}/vegeta-{t}-{r}.sent") for t in ("gateway", "direct")) if g]
    for arrivals in ("uniform", "poisson"):
        lab = json.load(open(glob.glob(f"{d}/lab-{arrivals}-{r}/*/run.json")[0]))["latency"]
        lvl = next(x for x in lab["levels"] if x["rate"] == lab["answer_rate"])
        per_tool["lab-" + arrivals] = {t: (p["p50_us"] / 1e3, p["p99_us"] / 1e3, p["success_rate"])
                                       for t, p in lvl["targets"].items()}
    for tool, p in per_tool.items():
        a50, a99 = p["gateway"][0] - p["direct"][0], p["gateway"][1] - p["direct"][1]
        added[tool].append((a50, a99))
        rows.append(f"| {r} | {tools[tool]} | {p['gateway'][0]:.3f} | {p['direct'][0]:.3f} | **{a50:.3f}** | "
                    f"{p['gateway'][1]:.3f} | {p['direct'][1]:.3f} | **{a99:.3f}** | "
                    f"{min(p['gateway'][2], p['direct'][2]):.2f} % |")
print(f"# The hop's added latency at {rate} req/s: the lab's latency generator beside Vegeta (ms)\n")
print("| round | tool | gateway p50 | direct p50 | added p50 | gateway p99 | direct p99 | added p99 | success |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
print("\n".join(rows))
mean = {t: (sum(a for a, _ in x) / len(x), sum(b for _, b in x) / len(x)) for t, x in added.items()}
v50, v99 = mean["vegeta"]
def against_vegeta(tool):
    d50 = mean[tool][0] - v50
    r99 = mean[tool][1] / v99 - 1 if v99 else float("nan")
    return d50, r99, abs(d50) <= 0.1, abs(r99) <= 0.35
# the lab's schedule nearest Vegeta's: even (CV 0, 0 % short gaps) or Poisson (CV 1, 22 %)
if gaps:
    cv = sum(c for c, _ in gaps) / len(gaps)
    short = sum(s for _, s in gaps) / len(gaps)
    judged = "lab-poisson" if cv > 0.5 else "lab-uniform"
    print(f"\nVegeta's schedule as sent (each request's send time, {len(gaps)} windows): gaps' coefficient of variation "
          f"{cv:.2f}, {100 * short:.0f} % of them under a quarter of the mean gap (even: 0 and 0 %; Poisson: 1 and 22 %) — "
          f"{'burstier than even: the lab is judged on Poisson arrivals' if judged == 'lab-poisson' else 'even: the lab is judged on its even arrivals'}.")
else:
    judged = "lab-uniform"
    print("\nVegeta's schedule as sent: too few requests per window (under 11) to measure; the lab is judged on its "
          "even arrivals, Vegeta's nominal schedule.")
print(f"\nMean added p50 / p99 (ms): Vegeta {v50:.3f} / {v99:.3f}.")
for tool in ("lab-uniform", "lab-poisson"):
    d50, r99, ok50, ok99 = against_vegeta(tool)
    gate = "judged: the schedule nearest Vegeta's" if tool == judged else "shown, not judged"
    print(f"- {tools[tool]}: {mean[tool][0]:.3f} / {mean[tool][1]:.3f}: p50 {d50:+.3f} ms "
          f"({'within' if ok50 else 'NOT within'} ± 0.1 ms), p99 {100 * r99:+.0f} % "
          f"({'within' if ok99 else 'NOT within'} ± 35 %) — {gate}.")
_, _, ok50, ok99 = against_vegeta(judged)
sys.exit(0 if ok50 and ok99 else 3)
PY
