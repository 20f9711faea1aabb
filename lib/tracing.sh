# shellcheck shell=bash
# ./lab's tracing: Zipkin for the local JVMs (./lab up --tracing, or LAB_TRACING=zipkin), sourced by ./lab. Uses
# ./lab's ROOT, STATE, JAVA, START_TIMEOUT, STOP_TIMEOUT, die, info, lab_prop, port_in_use and alive.
# The apps start with TRACING_ENABLED=true and send their spans to a Zipkin server (io.zipkin:zipkin-server exec jar,
# version in lab.properties, fetched from Maven Central into .lab/zipkin by docker/zipkin/fetch.sh; ZIPKIN_JAR=<jar>
# copies a local one) on loopback, in-memory storage. A Zipkin that cannot be fetched or started never stops the apps:
# they queue, drop and count their spans (zipkin_reporter_spans_dropped_total).
TRACING="${LAB_TRACING:-off}"
ZIPKIN_DIR="$STATE/zipkin"
tracing_on() {
  case "$TRACING" in
    off) return 1 ;;
    zipkin) return 0 ;;
    *) die "LAB_TRACING='$TRACING' is not valid — use LAB_TRACING=off or LAB_TRACING=zipkin (or ./lab up --tracing)" ;;
  esac
}

zipkin_port() { lab_prop tracing.zipkin.port; }

zipkin_jar() { echo "$ZIPKIN_DIR/zipkin-server-$(lab_prop tracing.zipkin.version)-exec.jar"; }

zipkin_pid() {
  local file="$STATE/zipkin.pid" pid
  [ -f "$file" ] && pid=$(cat "$file") && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- "-jar .*zipkin-server" || return 1
  echo "$pid"
}

zipkin_fetch() {
  [ -z "${ZIPKIN_JAR:-}" ] || [ -f "$ZIPKIN_JAR" ] \
    || die "ZIPKIN_JAR=$ZIPKIN_JAR does not exist — point it at a zipkin-server exec jar, or unset it"
  "$ROOT/docker/zipkin/fetch.sh" "$ZIPKIN_DIR" >"$STATE/logs/zipkin-fetch.log" 2>&1
}

tracing_up() {
  tracing_on || return 0
  mkdir -p "$STATE/logs"
  local port; port=$(zipkin_port)
  if zipkin_pid >/dev/null; then info "zipkin already running (pid $(zipkin_pid))"; return 0; fi
  if port_in_use "$port"; then info "port $port is taken: Zipkin not started (the apps report to what listens there)"; return 0; fi
  if ! zipkin_fetch; then
    info "WARNING: Zipkin could not be fetched (.lab/logs/zipkin-fetch.log) — the apps run traced, their spans dropped"
    return 0
  fi
  # Loopback only; in-memory storage bounded by MEM_MAX_SPANS.
  # shellcheck disable=SC2086 # ZIPKIN_JAVA_OPTS is a list of options
  (cd "$STATE" && MEM_MAX_SPANS="${ZIPKIN_MEM_MAX_SPANS:-200000}" exec "$JAVA" ${ZIPKIN_JAVA_OPTS:--Xmx512m} -jar "$(zipkin_jar)" \
      "--armeria.ports[0].ip=127.0.0.1" "--armeria.ports[0].port=$port" "--armeria.ports[0].protocols[0]=http" \
      >"$STATE/logs/zipkin.log" 2>&1) &
  echo $! > "$STATE/zipkin.pid"
  info "starting zipkin (pid $!, port $port, log .lab/logs/zipkin.log)"
}

# tracing_await: Zipkin's readiness, after the apps (they never wait for it).
tracing_await() {
  tracing_on && zipkin_pid >/dev/null || return 0
  local deadline=$((SECONDS + START_TIMEOUT)) port; port=$(zipkin_port)
  until curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$port/health" 2>/dev/null; do
    if ! zipkin_pid >/dev/null; then info "WARNING: zipkin exited — see .lab/logs/zipkin.log; spans are dropped"; return 0; fi
    [ $SECONDS -lt $deadline ] || { info "WARNING: zipkin not ready after ${START_TIMEOUT}s — see .lab/logs/zipkin.log"; return 0; }
    sleep 0.5
  done
  info "Zipkin ready: http://127.0.0.1:$port/zipkin/  (a trace: http://127.0.0.1:$port/api/v2/trace/<traceId>)"
}

# tracing_env: the environment of an app ./lab starts.
tracing_env() {
  tracing_on || return 0
  echo "TRACING_ENABLED=true TRACING_ZIPKIN_ENDPOINT=http://127.0.0.1:$(zipkin_port)/api/v2/spans"
}

tracing_down() {
  local pid
  pid=$(zipkin_pid) || { rm -f "$STATE/zipkin.pid"; return 0; }
  kill -TERM "$pid"; local deadline=$((SECONDS + STOP_TIMEOUT))
  while alive "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$STATE/zipkin.pid"; info "stopped zipkin"
}

tracing_status() {
  [ -f "$STATE/zipkin.pid" ] || return 0
  local pid
  if pid=$(zipkin_pid); then printf '%-14s %-8s %-7s %-10s %s\n' zipkin "$pid" "$(zipkin_port)" - running
  else printf '%-14s %-8s %-7s %-10s %s\n' zipkin - "$(zipkin_port)" - stopped; fi
}
