#!/usr/bin/env bash
# A/B of gateway settings: starts several gateways side by side (each with its own env, JVM options, jar or JDK) on
# loopback ports 18101.., warms them all and measures them in interleaved wrk rounds with bench/wrk-compare.sh.
# Side by side, not one after the other: no restart between rounds, the same drift for every variant. See --help.
set -euo pipefail

BENCH_NAME=gateway-ab
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   # ROOT, die, the ports of lab.properties
STATE="$ROOT/target/ab"
VARIANTS=() PASS=()

usage() {
  cat <<EOF
Usage: bench/gateway-ab.sh --variant 'NAME|ENV|JAVA_OPTS[|JAR[|JAVA]]' ... [wrk-compare options]

Each --variant starts one gateway:
  NAME       label in the results (letters, digits, . _ -)
  ENV        space-separated VAR=value for that gateway, e.g. 'GATEWAY_LOGGING_MODE=off GATEWAY_IO_WORKER_COUNT=4'
  JAVA_OPTS  JVM options (default -Xmx256m)
  JAR        gateway jar (default gateway/target/gateway.jar)
  JAVA       java binary (default: java on PATH), e.g. /usr/lib/jvm/temurin-25-jdk-amd64/bin/java
Variant i listens on 127.0.0.1:1810i (management 1910i), logs to target/ab/NAME/, and is stopped on exit.
study-service must be up (./lab up study-service). Every other option goes to bench/wrk-compare.sh
(defaults there: --warmup 20 --rounds 3 --duration 10); the lab's gateway (./lab up) is measured too if it runs.

Example:
  bench/gateway-ab.sh --variant 'default||' --variant 'log-off|GATEWAY_LOGGING_MODE=off|' --rounds 3
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --variant) VARIANTS+=("$2"); shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) PASS+=("$1"); shift ;;
  esac
done
[ ${#VARIANTS[@]} -ge 1 ] || { usage >&2; die "give at least one --variant"; }
[ ${#VARIANTS[@]} -le 9 ] || die "at most 9 variants"
require_answer study-service "http://127.0.0.1:$STUDY_SERVICE_PORT/api/studies/42" "./lab up study-service"

PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]+"${PIDS[@]}"}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]+"${PIDS[@]}"}"; do
    for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

EXTRA=() i=0
for v in "${VARIANTS[@]}"; do
  i=$((i + 1))
  IFS='|' read -r name env opts jar java <<<"$v"
  [[ "$name" =~ ^[A-Za-z0-9._-]+$ ]] || die "variant name '$name': letters, digits, . _ - only"
  jar=${jar:-$ROOT/gateway/target/gateway.jar}; java=${java:-java}; opts=${opts:--Xmx256m}
  jar=$(readlink -f "$jar" || echo "$jar")
  [ -f "$jar" ] || die "no jar $jar — build it: ./mvnw -B -q -DskipTests package -pl gateway -am"
  port=$((18100 + i)) mport=$((19100 + i))
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && die "port $port is taken"
  mkdir -p "$STATE/$name"
  # shellcheck disable=SC2086 # env and opts are lists on purpose
  (cd "$STATE/$name" && exec env $env PORT=$port MANAGEMENT_PORT=$mport LOG_PATH="$STATE/$name" \
      "$java" $opts -jar "$jar" >"$STATE/$name/stdout.log" 2>&1) &
  PIDS+=($!); echo $! >"$STATE/$name.pid"
  echo "gateway-ab: $name pid $! on :$port — env [$env] opts [$opts] $(basename "$jar") $java"
  EXTRA+=(--extra "$name=$port:$STATE/$name.pid")
done
i=0
for v in "${VARIANTS[@]}"; do
  i=$((i + 1)); name=${v%%|*}; deadline=$((SECONDS + 180))
  until curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$((19100 + i))/actuator/health/readiness"; do
    kill -0 "${PIDS[$((i - 1))]}" 2>/dev/null || { tail -20 "$STATE/$name/stdout.log" >&2; die "$name exited during start-up"; }
    [ $SECONDS -lt $deadline ] || die "$name not ready after 180 s"
    sleep 0.5
  done
done
targets=direct
[ -f "$ROOT/.lab/gateway.pid" ] && curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$GATEWAY_PORT/api/studies/42" && targets+=,gateway
"$ROOT/bench/wrk-compare.sh" --targets "$targets" "${EXTRA[@]}" "${PASS[@]+"${PASS[@]}"}"
