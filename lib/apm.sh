# shellcheck shell=bash
# ./lab's APM: Scouter on the local JVMs (./lab up --apm, or LAB_APM=scouter), sourced by ./lab. Uses ./lab's ROOT,
# STATE, JAVA, STOP_TIMEOUT, die, info, lab_prop, port_in_use and alive.
# The agent (lab.properties apm.scouter.agent-version, the GitHub release, or SCOUTER_AGENT_JAR) is attached to every
# JVM ./lab starts, object name = service name; a collector and the webapp's REST API (scouter-server and
# scouter-webapp 2.20.0 from Maven Central) run beside them. docker/scouter/fetch.sh fetches all three into
# .lab/scouter. A collector that cannot be fetched or started never stops the apps: the agent runs without it.
APM="${LAB_APM:-off}"
APM_DIR="$STATE/scouter"
apm_on() {
  case "$APM" in
    off) return 1 ;;
    scouter) return 0 ;;
    *) die "LAB_APM='$APM' is not valid — use LAB_APM=off or LAB_APM=scouter (or ./lab up --apm)" ;;
  esac
}

# scouter_pid NAME: the pid of our scouter-NAME process (server|webapp), if it still runs.
scouter_pid() {
  local file="$STATE/scouter-$1.pid" pid main
  main=scouter.server.Main; [ "$1" = webapp ] && main=scouterx.webapp.main.WebAppMain
  [ -f "$file" ] && pid=$(cat "$file") && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q " $main" || return 1
  echo "$pid"
}

# scouter_start NAME PORT MAIN JAVA-OPTIONS...: starts it unless running or its port is taken (then: warn, go on).
scouter_start() {
  local name=$1 port=$2 main=$3; shift 3
  if scouter_pid "$name" >/dev/null; then info "scouter-$name already running"; return 0; fi
  if port_in_use "$port"; then info "port $port is taken: scouter-$name not started (using what listens there)"; return 0; fi
  [ -d "$APM_DIR/$name/lib" ] || { info "WARNING: scouter-$name not fetched — apps run without it"; return 0; }
  mkdir -p "$STATE/logs"
  (cd "$APM_DIR/$name" && exec "$JAVA" "$@" -cp "$APM_DIR/$name/lib/*" "$main" >"$STATE/logs/scouter-$name.log" 2>&1) &
  echo $! > "$STATE/scouter-$name.pid"
  info "starting scouter-$name (pid $!, port $port, log .lab/logs/scouter-$name.log)"
}

apm_up() {
  apm_on || return 0
  local cport wport
  cport=$(lab_prop apm.scouter.collector-port); wport=$(lab_prop apm.scouter.webapp-port)
  "$ROOT/docker/scouter/fetch.sh" "$APM_DIR" agent \
    || die "no Scouter agent — give SCOUTER_AGENT_JAR=<scouter.agent.jar> or allow the download, or run without --apm"
  "$ROOT/docker/scouter/fetch.sh" "$APM_DIR" server webapp \
    || info "WARNING: the collector or webapp could not be fetched — the agents run without them"
  mkdir -p "$APM_DIR/server/data" "$APM_DIR/webapp/logs"
  printf '%s\n' "# written by ./lab up --apm" "net_collector_ip=127.0.0.1" "net_collector_udp_port=$cport" \
    "net_collector_tcp_port=$cport" "trace_interservice_enabled=true" > "$APM_DIR/agent/scouter.conf"
  printf '%s\n' "# written by ./lab up --apm" "net_tcp_listen_ip=127.0.0.1" "net_udp_listen_ip=127.0.0.1" \
    "net_tcp_listen_port=$cport" "net_udp_listen_port=$cport" "db_dir=$APM_DIR/server/data/database" \
    "log_dir=$APM_DIR/server/data/logs" "xlog_realtime_lower_bound_ms=0" > "$APM_DIR/server/scouter.conf"
  printf '%s\n' "# written by ./lab up --apm" "net_collector_ip_port_id_pws=127.0.0.1:$cport:admin:admin" \
    "net_http_port=$wport" "net_http_api_auth_ip_enabled=true" "log_dir=$APM_DIR/webapp/logs" \
    "temp_dir=$APM_DIR/webapp/tempdata" > "$APM_DIR/webapp/scouter.conf"
  # The collector's bundled JAXB needs these two options on Java 11+.
  scouter_start server "$cport" scouter.server.Main -Xmx256m --add-opens=java.base/java.lang=ALL-UNNAMED \
    --add-exports=java.base/sun.net=ALL-UNNAMED "-Dscouter.config=$APM_DIR/server/scouter.conf"
  scouter_start webapp "$wport" scouterx.webapp.main.WebAppMain -Xmx128m "-Dscouter.config=$APM_DIR/webapp/scouter.conf"
}

# apm_java_opts SERVICE: the agent's JVM options, when APM is on.
apm_java_opts() {
  apm_on || return 0
  echo "-javaagent:$APM_DIR/agent/scouter.agent.jar -Dscouter.config=$APM_DIR/agent/scouter.conf -Dobj_name=$1" \
       "--add-opens=java.base/java.lang=ALL-UNNAMED -Djdk.attach.allowAttachSelf=true"
}

apm_down() {
  local name pid
  for name in webapp server; do
    pid=$(scouter_pid "$name") || { rm -f "$STATE/scouter-$name.pid"; continue; }
    kill -TERM "$pid"; local deadline=$((SECONDS + STOP_TIMEOUT))
    while alive "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$STATE/scouter-$name.pid"; info "stopped scouter-$name"
  done
}

apm_status() {
  local name pid port
  for name in server webapp; do
    [ -f "$STATE/scouter-$name.pid" ] || continue
    port=$(lab_prop apm.scouter.collector-port); [ "$name" = webapp ] && port=$(lab_prop apm.scouter.webapp-port)
    if pid=$(scouter_pid "$name"); then printf '%-14s %-8s %-7s %-10s %s\n' "scouter-$name" "$pid" "$port" - running
    else printf '%-14s %-8s %-7s %-10s %s\n' "scouter-$name" - "$port" - stopped; fi
  done
}
