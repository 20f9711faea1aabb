#!/usr/bin/env bash
# WebFlux or MVC gateway? The whole comparison of docs/gateway-mvc.md in one command: the gateway (WebFlux), the MVC
# gateway (gateway-mvc), the floor and direct on the identical request; a concurrency sweep; the slow upstream through
# both gateways; memory after the same load; start-up. A measurement script, not a CI gate. See --help.
set -euo pipefail

BENCH_NAME=gateway-mvc
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   # ROOT, die, lab_prop, lab_port
QUICK=0 OUT="" STEPS="bench,sweep,slow,memory,startup" ALL_STEPS="bench,sweep,slow,memory,startup,levers" SUMMARY=""

usage() {
  cat <<EOF
Usage: bench/gateway-mvc.sh [--quick] [--steps LIST] [--out DIR]
       bench/gateway-mvc.sh --figures DIR

Runs, one after another (each step starts and stops the apps it needs; results in one folder):
  bench    ./lab bench --targets gateway,gateway-mvc,floor,direct: CPU µs per request of each, TPS ratios, what each
           gateway adds across the load range
  sweep    ./lab sweep --targets gateway,gateway-mvc,direct --levels 100,500,1000
  slow     ./lab bench --experiment virtual-threads --targets direct,gateway,gateway-mvc: study-service's 200-800 ms
           endpoint at 600 req/s (open model), p50/p99 and errors through each gateway and directly
  memory   both gateways under the same closed-model load (./lab bench --no-start --targets gateway,gateway-mvc),
           then each one's RSS and its heap after a full GC (jcmd GC.run)
  startup  bench/startup.sh --services gateway,gateway-mvc: launch to ready, with and without the AOT cache
  levers   (only when named in --steps) ./lab bench --experiment tuning-mvc --repetitions 3 --latency-repetitions 0:
           each lever of the MVC gateway against its defaults, TPS and CPU per request, about 1.5 h (--quick: two
           variants)
Then writes DIR/figures.md and prints it: per step its command, date and run folder, and every figure the "Figures"
section of docs/gateway-mvc.md quotes (bench/gateway-mvc-figures.py).

A default run takes about 40 minutes on 2 cores; --quick about 10 (smoke, not for quoting). Binds the lab's ports:
nothing else of the lab may run. For figures to keep: a quiet machine.

Options:
  --quick        short versions of every step (--quick runs, small levels, one start-up round)
  --steps LIST   comma-separated, some of: $ALL_STEPS (default: $STEPS)
  --out DIR      where everything goes (default results/gateway-mvc-<time>)
  --figures DIR  measure nothing: print the figures of an earlier run's folder again
  -h, --help     this text
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1; shift ;;
    --steps) STEPS=${2:-}; shift 2 || die "--steps needs a list" ;;
    --out) OUT=${2:-}; shift 2 || die "--out needs a directory" ;;
    --figures) SUMMARY=${2:-}; shift 2 || die "--figures needs a directory" ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
  esac
done
for step in ${STEPS//,/ }; do
  case "$step" in
    bench|sweep|slow|memory|startup|levers) ;;
    *) die "unknown step '$step' — use some of: $ALL_STEPS" ;;
  esac
done
if [ -n "$SUMMARY" ]; then
  [ -d "$SUMMARY" ] || die "no folder $SUMMARY"
  exec python3 "$ROOT/bench/gateway-mvc-figures.py" "$SUMMARY"
fi
has() { [[ ",$STEPS," == *",$1,"* ]]; }
quick() { if [ "$QUICK" = 1 ]; then echo "$@"; fi; }
step() { echo; echo "== gateway-mvc: $* ($(date -u +%H:%M:%S) UTC)"; }
cd "$ROOT"
OUT=${OUT:-$ROOT/results/gateway-mvc-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
echo "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" status --porcelain 2>/dev/null | grep -q . && echo " (with uncommitted changes)")" > "$OUT/commit.txt"
./lab status | grep -qE " (ready|starting)$" && die "the lab is running — stop it first: ./lab down"
trap './lab down >/dev/null 2>&1 || true' EXIT

if has bench; then
  step "./lab bench --targets gateway,gateway-mvc,floor,direct $(quick --quick)"
  # shellcheck disable=SC2046 # quick's words are options
  ./lab bench --targets gateway,gateway-mvc,floor,direct $(quick --quick) --results "$OUT/bench" | tee "$OUT/bench.log"
fi
if has sweep; then
  levels=100,500,1000
  if [ "$QUICK" = 1 ]; then levels=10,50; fi
  step "./lab sweep --targets gateway,gateway-mvc,direct --levels $levels $(quick --duration 3 --warmup 2 --warmup-max 10)"
  # shellcheck disable=SC2046
  ./lab sweep --targets gateway,gateway-mvc,direct --levels "$levels" $(quick --duration 3 --warmup 2 --warmup-max 10) \
    --results "$OUT/sweep" | tee "$OUT/sweep.log"
fi
if has slow; then
  # quick: 100 req/s × 6 s, enough samples for each target's p99
  step "./lab bench --experiment virtual-threads --targets direct,gateway,gateway-mvc $(quick --quick --rate 100 --duration 6)"
  # shellcheck disable=SC2046
  ./lab bench --experiment virtual-threads --targets direct,gateway,gateway-mvc $(quick --quick --rate 100 --duration 6) \
    --results "$OUT/slow" | tee "$OUT/slow.log"
fi
if has memory; then
  step "memory: ./lab bench --no-start --targets gateway,gateway-mvc $(quick --quick), then RSS and heap after a full GC"
  ./lab up study-service gateway gateway-mvc > "$OUT/memory-up.log"
  # shellcheck disable=SC2046
  ./lab bench --no-start --targets gateway,gateway-mvc --latency-repetitions 0 --no-dashboard $(quick --quick) \
    --results "$OUT/memory" > "$OUT/memory.log"
  {
    run=$(find "$OUT/memory" -mindepth 1 -maxdepth 1 -type d | sort | tail -n 1)
    echo "$(date -u +%Y-%m-%dT%H:%MZ), after $(quick "--quick ")closed-model load through each gateway (run ${run#"$ROOT"/})"
    echo
    echo "| gateway | RSS MiB after the load | heap MiB after a full GC | live threads |"
    echo "|---|---:|---:|---:|"
    for s in gateway gateway-mvc; do
      pid=$(cat ".lab/$s.pid")
      rss=$(awk '/^VmRSS:/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")
      "$(dirname "$(readlink -f "/proc/$pid/exe")")/jcmd" "$pid" GC.run > /dev/null
      metrics=$(curl -fsS "http://127.0.0.1:$(lab_management_port "$s")/actuator/prometheus")
      heap=$(awk '/^jvm_memory_used_bytes\{.*area="heap"/ {sum += $NF} END {printf "%.0f", sum / 1048576}' <<< "$metrics")
      threads=$(awk '/^jvm_threads_live_threads\{/ {printf "%.0f", $NF}' <<< "$metrics")
      echo "| $s | $rss | $heap | $threads |"
    done
  } | tee "$OUT/memory.md"
  ./lab down > /dev/null
fi
if has startup; then
  rounds=5
  if [ "$QUICK" = 1 ]; then rounds=1; fi
  step "bench/startup.sh --services gateway,gateway-mvc --rounds $rounds"
  bench/startup.sh --services gateway,gateway-mvc --rounds "$rounds" --out "$OUT/startup" | tee "$OUT/startup.log"
fi

if has levers; then
  # Throughput and CPU per request of each variant, 3 interleaved repetitions (each restarts and warms the gateway
  # up: 13 variants, about an hour and a half); no latency curve.
  levers_options="--repetitions 3 --latency-repetitions 0"
  if [ "$QUICK" = 1 ]; then levers_options="--quick --variants defaults,client-executor-jdk"; fi
  step "./lab bench --experiment tuning-mvc $levers_options"
  # shellcheck disable=SC2086 # the options' words
  ./lab bench --experiment tuning-mvc $levers_options --results "$OUT/levers" | tee "$OUT/levers.log"
fi

echo
python3 bench/gateway-mvc-figures.py "$OUT" | tee "$OUT/figures.md"
echo
echo "gateway-mvc: results in $OUT$(quick " (--quick: a smoke run, not for quoting)"); figures in $OUT/figures.md"
for f in "$OUT"/bench/*/report.md "$OUT"/sweep/*/sweep.md "$OUT"/slow/*/report.md "$OUT"/levers/*/report.md; do
  if [ -e "$f" ]; then echo "  $f"; fi
done
