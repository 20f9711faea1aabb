#!/usr/bin/env bash
# What the AOT cache buys: start-up to ready per app, and the warm-up a default ./lab bench needs per target, with the
# cache (LAB_AOT=auto) and without it (LAB_AOT=off), repeated and interleaved. A measurement script, not a CI gate.
# See --help.
set -euo pipefail

BENCH_NAME=startup
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   # ROOT, die, lab_prop
ROUNDS=5 BENCH=0 BENCH_ARGS="" SERVICES="" OUT=""

usage() {
  cat <<EOF
Usage: bench/startup.sh [--rounds N] [--services LIST] [--bench N [--bench-args ARGS]] [--out DIR]

Start-up: each app alone (./lab up SERVICE, then ./lab down SERVICE), with its AOT cache and without, N rounds, the
two modes alternating in order (cache first in odd rounds, none first in even ones); then ./lab up of all of them at
once, the same way. The figure is ./lab's "ready in N ms": from the JVM's launch to the first 200 of its readiness
probe (polled every 0.1 s). Before the rounds, ./lab up trains every missing cache (not measured).
Warm-up (--bench N): N pairs of a default ./lab bench, without and with the cache, alternating; per run the wall
time and, per target, the warm-up the runner needed until steady (seconds, windows) from its run.json.

Needs a JDK 24+ for the apps (./lab picks the newest JDK 21+ under /usr/lib/jvm, or LAB_JAVA_HOME). Binds the lab's
ports: nothing else of the lab may run. For figures to keep: a quiet machine.

Options:
  --rounds N       start-up rounds (default $ROUNDS; 0: none)
  --services LIST  comma-separated services (default: every service in lab.properties)
  --bench N        pairs of default ./lab bench runs (default $BENCH; each run takes 3-5 minutes)
  --bench-args A   options added to each of those runs (default none: a default run), e.g. "--quick"
  --out DIR        where the tables and logs go (default results/startup-<time>)
  -h, --help       this text
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS=${2:-}; shift 2 || die "--rounds needs a number" ;;
    --services) SERVICES=${2:-}; shift 2 || die "--services needs a list" ;;
    --bench) BENCH=${2:-}; shift 2 || die "--bench needs a number" ;;
    --bench-args) BENCH_ARGS=${2:-}; shift 2 || die "--bench-args needs the options, quoted" ;;
    --out) OUT=${2:-}; shift 2 || die "--out needs a directory" ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
  esac
done
[[ "$ROUNDS" =~ ^[0-9]+$ ]] || die "--rounds '$ROUNDS' is not a number — e.g. --rounds 5"
[[ "$BENCH" =~ ^[0-9]+$ ]] || die "--bench '$BENCH' is not a number — e.g. --bench 1"
cd "$ROOT"
[ -n "$SERVICES" ] || SERVICES=$(lab_prop services)
IFS=, read -r -a services <<< "$SERVICES"
for s in "${services[@]}"; do lab_port "$s" >/dev/null; done   # an unknown one: exit 2 naming the known ones
OUT=${OUT:-$ROOT/results/startup-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
LOG="$OUT/lab.log"

./lab status | grep -qE " (ready|starting)$" && die "the lab is running — stop it first: ./lab down"
trap './lab down >/dev/null 2>&1 || true' EXIT

echo "startup: training the caches that are missing (./lab up, not measured) ..."
LAB_AOT=auto ./lab up "${services[@]}" | tee -a "$LOG" | grep -E "AOT|Java"
./lab down >>"$LOG"
grep -q "starting .* with its AOT cache" "$LOG" \
  || die "the apps did not start with an AOT cache (a JDK before 24, LAB_AOT=off set elsewhere?) — see $LOG"

# ready_ms SERVICE: ./lab's "ready in N ms" from the last ./lab up in $LOG
ready_ms() { sed -n "s/^lab: $1 ready in \([0-9]*\) ms.*/\1/p" "$LOG" | tail -n 1; }
declare -A alone together
for ((r = 1; r <= ROUNDS; r++)); do
  modes=(auto off); [ $((r % 2)) -eq 0 ] && modes=(off auto)
  for mode in "${modes[@]}"; do
    for s in "${services[@]}"; do
      LAB_AOT=$mode ./lab up "$s" >>"$LOG"; ./lab down "$s" >>"$LOG"
      alone[$s,$mode]+=" $(ready_ms "$s")"
    done
    start=$(date +%s%N)
    LAB_AOT=$mode ./lab up "${services[@]}" >>"$LOG"
    together[all,$mode]+=" $(( ($(date +%s%N) - start) / 1000000 ))"
    for s in "${services[@]}"; do together[$s,$mode]+=" $(ready_ms "$s")"; done
    ./lab down >>"$LOG"
    echo "startup: round $r/$ROUNDS, LAB_AOT=$mode done"
  done
done

median() { tr ' ' '\n' | awk NF | sort -n | awk '{v[NR] = $1} END {if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
{
  echo "# Start-up to ready, ms ($ROUNDS rounds, interleaved; $(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  echo "| service | alone, cache: median (rounds) | alone, none | ÷ | in ./lab up of all, cache | in ./lab up of all, none |"
  echo "|---|---|---|---:|---|---|"
  for s in "${services[@]}" all; do
    a=$(echo "${alone[$s,auto]:-}" | median); o=$(echo "${alone[$s,off]:-}" | median)
    ratio=$(awk -v a="$a" -v o="$o" 'BEGIN {if (a + 0 > 0 && o + 0 > 0) printf "%.2f", a / o; else print "-"}')
    label=$s; [ "$s" = all ] && label="./lab up (wall, all)"
    echo "| $label | $a (${alone[$s,auto]:- -} ) | $o (${alone[$s,off]:- -} ) | $ratio | $(echo "${together[$s,auto]:-}" | median) (${together[$s,auto]:-} ) | $(echo "${together[$s,off]:-}" | median) (${together[$s,off]:-} ) |"
  done
} > "$OUT/startup.md"
cat "$OUT/startup.md"

[ "$BENCH" -gt 0 ] || { echo "startup: tables in $OUT"; exit 0; }
{
  echo
  echo "# ./lab bench ${BENCH_ARGS:-(default)}, without and with the cache ($BENCH pairs, alternating)"
  echo
  echo "| run | LAB_AOT | wall s | warm-up per target: seconds (windows, steady) | gateway ÷ direct TPS |"
  echo "|---|---|---:|---|---|"
} >> "$OUT/startup.md"
for ((r = 1; r <= BENCH; r++)); do
  modes=(off auto); [ $((r % 2)) -eq 0 ] && modes=(auto off)
  for mode in "${modes[@]}"; do
    start=$SECONDS
    # shellcheck disable=SC2086 # BENCH_ARGS is a list of options
    LAB_AOT=$mode ./lab bench $BENCH_ARGS --results "$OUT/bench" > "$OUT/bench-$r-$mode.log" 2>&1 || die "./lab bench failed — see $OUT/bench-$r-$mode.log"
    wall=$((SECONDS - start))
    json=$(ls -t "$OUT"/bench/*/run.json | head -n 1)
    row=$(python3 - "$json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
warm = ", ".join("%s %.0f (%d, %s)" % (t["name"], t["warmup"]["seconds"], t["warmup"]["windows"],
                 "steady" if t["warmup"]["steady"] else "NOT steady") for t in run["targets"])
ratio = next((r for r in run.get("ratios", []) if r.get("of") == "gateway" and r.get("to") == "direct"), None)
print(warm + " | " + ("%.3f ± %.3f" % (ratio["mean"], ratio["ci95"]) if ratio else "-"))
PY
)
    echo "| $(basename "$(dirname "$json")") | $mode | $wall | $row |" | tee -a "$OUT/startup.md"
  done
done
echo "startup: tables in $OUT/startup.md"
