#!/usr/bin/env bash
# Where the tail of ./lab sweep comes from: runs ./lab sweep (gateway, floor, direct by default) while sampling every
# target's listen queue (ss), listen overflows (nstat) and the gateway's upstream pool (pending acquisitions), and
# puts each level's p99 beside the closed model's own floor (threads ÷ TPS = the mean latency Little's law allows at
# that throughput): a tail that follows it is throughput, one far above it a stall.
# A measurement script, not a CI gate. See --help.
set -euo pipefail

BENCH_NAME=sweep-tail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   # ROOT, die, lab_prop, lab_port
OUT="" SWEEP=()

usage() {
  cat <<'EOF'
Usage: bench/sweep-tail.sh [--out DIR] [./lab sweep options]

Runs ./lab sweep with the options given (default: --targets gateway,floor,direct --levels 500,1000), samples every
0.25 s the listen queue of each target's port (ss: Recv-Q = connections the kernel completed and the app has not
accepted yet) and the gateway's upstream pool (reactor_netty_connection_provider_pending_connections / _active /
_total on its management port), counts listen-queue overflows (nstat), and prints per target and level:
  TPS, mean, p99, p99.9 (the latency generator's µs as ms), p99 ÷ mean;  threads ÷ TPS (the closed model: every
  thread has one request in flight, so the mean latency is threads ÷ TPS whatever the cause — a p99 that follows
  it is throughput, not a stall);  then the largest listen queue per port, the largest pending acquisitions of the
  gateway's upstream pool and the listen overflows over the sweep (each port is busy only while its target runs).
Binds the lab's ports (./lab sweep starts what its targets need). For figures to keep: a quiet machine.
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=${2:-}; shift 2 || die "--out needs a directory" ;;
    -h|--help) usage; exit 0 ;;
    *) SWEEP+=("$1"); shift ;;
  esac
done
[ ${#SWEEP[@]} -gt 0 ] || SWEEP=(--targets gateway,floor,direct --levels 500,1000)
cd "$ROOT"
OUT=${OUT:-$ROOT/results/sweep-tail-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
ports=$(for s in $(lab_services); do printf 'sport = :%s or ' "$(lab_port "$s")"; done)
GWM="http://127.0.0.1:$(lab_management_port gateway)/actuator/prometheus"

command -v nstat >/dev/null && nstat -n >/dev/null 2>&1 || true
(
  set +e +o pipefail   # a target not up yet is a sample without it
  while true; do
    pool=$(curl -s --max-time 0.2 "$GWM" 2>/dev/null \
      | awk '/^reactor_netty_connection_provider_(pending|active|total)_connections/ {split($1, n, "{"); v[n[1]] += $NF}
             END {printf "pending=%d active=%d total=%d", v["reactor_netty_connection_provider_pending_connections"],
                  v["reactor_netty_connection_provider_active_connections"], v["reactor_netty_connection_provider_total_connections"]}')
    echo "$(date +%s%3N) $(ss -ltnH "( ${ports% or } )" | awk '{printf "%s=%s ", $4, $2}') $pool"
    sleep 0.25
  done
) > "$OUT/samples.log" 2>/dev/null &
sampler=$!
trap 'kill $sampler 2>/dev/null || true' EXIT
set +e
./lab sweep --metrics-port 0 --results "$OUT" "${SWEEP[@]}" 2>&1 | tee "$OUT/sweep.log"
rc=${PIPESTATUS[0]}
set -e
kill $sampler 2>/dev/null || true
command -v nstat >/dev/null && nstat 2>/dev/null | grep -E "ListenOverflows|ListenDrops" > "$OUT/nstat.txt" || true
[ "$rc" -eq 0 ] || { echo "sweep-tail: ./lab sweep failed (exit $rc)" >&2; exit "$rc"; }
run=$(dirname "$(ls -t "$OUT"/*/sweep.json | head -n 1)")

python3 - "$run/sweep.json" "$OUT/samples.log" "$OUT/nstat.txt" > "$OUT/tail.md" <<'PY'
import json, os, re, sys
sweep_file, samples_file, nstat_file = sys.argv[1:4]
sweep = json.load(open(sweep_file))
queues, pending = {}, 0
for line in open(samples_file):
    for key, value in re.findall(r"(\S+)=(\d+)", line):
        if key == "pending":
            pending = max(pending, int(value))
        elif ":" in key:
            port = key.rsplit(":", 1)[1]
            queues[port] = max(queues.get(port, 0), int(value))
print("| target | threads | measured by | TPS | mean ms | p99 ms | p99.9 ms | p99 ÷ mean | threads ÷ TPS ms | success |")
print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
for p in sweep["points"]:
    # a p99 (µs or whole ms) is null where the level had too few samples for one
    p99 = p["p99_us"] / 1000 if p.get("p99_us") is not None else p.get("p99_ms")
    p999 = "%.0f" % (p["p999_us"] / 1000) if p.get("p999_us") is not None else "–"
    mean = p["avg_ms"]
    little = p["threads"] / p["tps"] * 1000 if p["tps"] else float("nan")
    print("| %s | %d | %s | %s | %.0f | %s | %s | %s | %.0f | %.2f %% |" % (p["target"], p["threads"], p.get("engine", "?"),
          format(round(p["tps"]), ","), mean, "–" if p99 is None else "%.0f" % p99, p999,
          "–" if p99 is None or not mean else "%.2f" % (p99 / mean), little, p["success_rate"]))
print()
print("threads ÷ TPS is the mean latency a closed model must show at that throughput (Little's law: every thread has one "
      "request in flight): a p99 close to it is throughput, not a stall; a p99 far above it, or a large p99 ÷ mean, is a "
      "stall (accept, a connection burst, GC).")
print()
print("Largest listen queue seen per port while the sweep ran (ss Recv-Q: connections the kernel completed and the app "
      "has not accepted yet): " + (", ".join(":%s %d" % kv for kv in sorted(queues.items())) or "none sampled"))
print("Largest number of pending acquisitions in the gateway's upstream pool: %d" % pending)
overflows = open(nstat_file).read().split() if os.path.exists(nstat_file) else []
print("Listen-queue overflows during the sweep (nstat): " + (" ".join(overflows) if overflows else "none"))
PY
cat "$OUT/tail.md"
echo "sweep-tail: $OUT/tail.md (samples.log: listen queues and the gateway's pool every 0.25 s)"
