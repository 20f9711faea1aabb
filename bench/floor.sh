#!/usr/bin/env bash
# How cheap can a proxy on this machine's JVM stack be? Starts the floor (the lab's floor service, floor/: Reactor
# Netty alone) and the Netty proxy (bench/netty-proxy/NettyProxy.java: Netty alone) beside a gateway with today's
# defaults, and measures them in the same interleaved wrk rounds (bench/gateway-ab.sh + bench/wrk-compare.sh).
# A measurement script, not a CI gate. See --help.
set -euo pipefail

BENCH_NAME=floor
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   # ROOT, die, the ports of lab.properties
STATE="$ROOT/target/floor"
JAVA=${JAVA:-java}
GATEWAY_OPTS=${GATEWAY_JAVA_OPTS:-$(lab_prop java-opts.gateway)}   # the gateway's default: lab.properties
RN_PORT=18201 NETTY_PORT=18202

usage() {
  cat <<EOF
Usage: bench/floor.sh [bench/gateway-ab.sh and bench/wrk-compare.sh options]

Measures side by side, in interleaved wrk rounds, each proxy's CPU per request and its req/s ÷ direct's:
  gateway        the gateway jar with today's defaults (GATEWAY_JAVA_OPTS, default: $GATEWAY_OPTS)
  reactor-netty  the lab's floor service (floor/target/floor.jar) on :$RN_PORT — Reactor Netty's HttpServer + pooled
                 HttpClient and nothing else: the floor under any Spring Cloud Gateway (WebFlux) app. In the lab's
                 own runs it is the target 'floor': ./lab bench --targets gateway,floor,direct
  netty          the Netty proxy, bench/netty-proxy/NettyProxy.java on :$NETTY_PORT — Netty's codecs and a
                 per-event-loop upstream connection pool, nothing else: what is under any proxy on this JVM
  direct, nginx  as in bench/wrk-compare.sh
Both run the gateway's event-loop count (1 on 2 cores) on the same JDK as the gateway: JAVA (default: java on PATH;
the Netty proxy is a single-file source, so a JDK, not a JRE). The floor runs on the gateway's JVM options, the Netty
proxy with -Xmx256m on the gateway jar's own libraries (unpacked to target/floor/lib); both are built on the
gateway's Netty version. study-service must be up.

Example (as measured in docs/gateway-cost.md):
  unshare -n bash -c 'ip link set lo up; ./lab up study-service &&
    JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java bench/floor.sh --warmup 30 --rounds 4 --duration 10; ./lab down'
EOF
}

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
JAR="$ROOT/gateway/target/gateway.jar" FLOOR_JAR="$ROOT/floor/target/floor.jar"
[ -f "$JAR" ] || die "no $JAR — build it: ./mvnw -B -q -DskipTests package -pl gateway -am"
[ -f "$FLOOR_JAR" ] || die "no $FLOOR_JAR — build it: ./mvnw -B -q -DskipTests package -pl floor -am"
"$JAVA" -version >/dev/null 2>&1 || die "'$JAVA' does not run — set JAVA to a JDK's bin/java"
command -v unzip >/dev/null || die "unzip not found — apt-get install unzip"
UPSTREAM=http://127.0.0.1:$STUDY_SERVICE_PORT
require_answer study-service "$UPSTREAM/api/studies/42" "./lab up study-service"
for p in $RN_PORT $NETTY_PORT; do (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && die "port $p is taken"; done

rm -rf "$STATE/lib" "$STATE/BOOT-INF" && mkdir -p "$STATE/lib"
(cd "$STATE" && unzip -qo "$JAR" 'BOOT-INF/lib/*' && mv BOOT-INF/lib/* lib/ && rm -rf BOOT-INF)

PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]+"${PIDS[@]}"}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]+"${PIDS[@]}"}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started() { # name port what
  PIDS+=($!); echo $! >"$STATE/$1.pid"
  echo "floor: $1 pid $! on :$2 ($3)"
}
# shellcheck disable=SC2086 # GATEWAY_OPTS is a list of options
PORT=$RN_PORT MANAGEMENT_PORT=0 STUDY_SERVICE_URL=$UPSTREAM "$JAVA" $GATEWAY_OPTS -jar "$FLOOR_JAR" \
  >"$STATE/reactor-netty.log" 2>&1 &
started reactor-netty $RN_PORT floor.jar
"$JAVA" -Xmx256m --enable-native-access=ALL-UNNAMED -cp "$STATE/lib/*" "$ROOT/bench/netty-proxy/NettyProxy.java" \
  $NETTY_PORT "$UPSTREAM" >"$STATE/netty.log" 2>&1 &
started netty $NETTY_PORT NettyProxy.java
i=0
for name in reactor-netty netty; do
  port=$RN_PORT; [ $name = netty ] && port=$NETTY_PORT
  deadline=$((SECONDS + 60))
  until curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$port/api/studies/42"; do
    kill -0 "${PIDS[$i]}" 2>/dev/null || { tail -20 "$STATE/$name.log" >&2; die "$name exited during start-up"; }
    [ $SECONDS -lt $deadline ] || die "$name not answering after 60 s (log: $STATE/$name.log)"
    sleep 0.5
  done
  i=$((i + 1))
done

"$ROOT/bench/gateway-ab.sh" --variant "gateway||$GATEWAY_OPTS||$JAVA" --targets direct,nginx \
  --extra "reactor-netty=$RN_PORT:$STATE/reactor-netty.pid" --extra "netty=$NETTY_PORT:$STATE/netty.pid" "$@"
