# shellcheck shell=bash
# ./lab's services, sourced by ./lab: the JDK they run on, their build, their JVM options and environment, their pid
# files, start, readiness and stop. Uses ./lab's ROOT, STATE, JAVA, START_TIMEOUT, STOP_TIMEOUT, die, info, port_of,
# management_port_of, port_in_use and alive; apm_java_opts (lib/apm.sh), tracing_env (lib/tracing.sh), aot_plan and
# aot_check (lib/aot.sh).
JAVA_OPTS="${LAB_JAVA_OPTS:--Xmx256m}"
# A load lab logs in thousands of times a minute from one address: the apps ./lab starts get login rate limits high
# enough for the login plans. The apps' own defaults (10 per client address, 5 per user name, per minute) apply
# everywhere else (compose, java -jar); set these to exercise the limits (ci/hardening.sh does).
export GATEWAY_LOGIN_PER_IP="${GATEWAY_LOGIN_PER_IP:-1000000}"
export MONOLITH_LOGIN_PER_USER="${MONOLITH_LOGIN_PER_USER:-1000000}"
# Every app ./lab starts listens on loopback unless told otherwise: nobody else reaches a lab by accident, and nobody
# skips the gateway's deny list, request checks and per-address login limit by calling the apps behind it directly
# (the management ports are on loopback already). Set one to 0.0.0.0 to reach that app from other machines (remote
# load engines: docs/remote.md; the gateway as the one door: GATEWAY_ADDRESS=0.0.0.0 alone); empty: every interface.
export GATEWAY_ADDRESS="${GATEWAY_ADDRESS-127.0.0.1}"
export STUDY_SERVICE_ADDRESS="${STUDY_SERVICE_ADDRESS-127.0.0.1}"
export MONOLITH_ADDRESS="${MONOLITH_ADDRESS-127.0.0.1}"
export FLOOR_ADDRESS="${FLOOR_ADDRESS-127.0.0.1}"
export STOCK_ADDRESS="${STOCK_ADDRESS-127.0.0.1}"
export GATEWAY_MVC_ADDRESS="${GATEWAY_MVC_ADDRESS-127.0.0.1}"
# The gateway's own JVM options: lab.properties java-opts.gateway (ParallelGC with a fixed heap) unless set.
GATEWAY_JAVA_OPTS="${GATEWAY_JAVA_OPTS:-$(lab_prop java-opts.gateway)}"
# The floor (Reactor Netty alone) runs on the gateway's JVM options, so the two differ only in what runs on the stack.
FLOOR_JAVA_OPTS="${FLOOR_JAVA_OPTS:-$GATEWAY_JAVA_OPTS}"
# The MVC gateway (Spring Cloud Gateway Server WebMVC) too: the two gateways differ only in their server.
GATEWAY_MVC_JAVA_OPTS="${GATEWAY_MVC_JAVA_OPTS:-$GATEWAY_JAVA_OPTS}"

jar_of() {
  if [ "$1" = gateway ] && [ "${GATEWAY_LOGGING_BACKEND:-log4j2}" = logback ]; then
    echo "$ROOT/gateway/target/logback/gateway-logback.jar"
  else
    echo "$ROOT/$1/target/$1.jar"
  fi
}

check_java() {
  # shellcheck disable=SC2153 # JAVA is set by ./lab
  command -v "$JAVA" >/dev/null 2>&1 || die "no 'java' found — install JDK 17 or newer, or set JAVA_HOME"
  local version
  version=$(java_major "$JAVA")
  [ -n "$version" ] || die "could not read the Java version of '$JAVA' — set JAVA_HOME to a JDK 17 or newer"
  [ "$version" -ge 17 ] 2>/dev/null || die "Java $version found; Gateway Lab needs JDK 17 or newer — set JAVA_HOME to one"
}

# java_major JAVA_BIN: the feature version (17, 21, 25) of a java executable.
java_major() {
  "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {split($2, v, "."); print v[1]}'
}

# The JDK the apps run on: LAB_JAVA_HOME, else the newest JDK 21+ installed under /usr/lib/jvm (virtual threads, a
# newer JIT), else the java that runs the lab (JAVA_HOME or PATH). A service's <SERVICE>_JAVA_HOME (GATEWAY_JAVA_HOME,
# STUDY_SERVICE_JAVA_HOME, MONOLITH_JAVA_HOME, FLOOR_JAVA_HOME, STOCK_JAVA_HOME, GATEWAY_MVC_JAVA_HOME) overrides it for
# that service alone (the tuning experiment's JDK lever).
apps_java_home() {
  if [ -n "${LAB_JAVA_HOME:-}" ]; then
    [ -x "$LAB_JAVA_HOME/bin/java" ] || die "LAB_JAVA_HOME=$LAB_JAVA_HOME has no bin/java — point it at a JDK 17 or newer"
    [ "$(java_major "$LAB_JAVA_HOME/bin/java")" -ge 17 ] 2>/dev/null \
      || die "LAB_JAVA_HOME=$LAB_JAVA_HOME is not a JDK 17 or newer — point it at one"
    echo "$LAB_JAVA_HOME"; return
  fi
  local best="" best_v=0 d v
  for d in /usr/lib/jvm/*/; do
    d=${d%/}
    [ -L "$d" ] || [ ! -x "$d/bin/java" ] || [ ! -f "$d/release" ] && continue
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$d/release")
    [ -n "$v" ] && [ "$v" -ge 21 ] && [ "$v" -gt "$best_v" ] && { best=$d; best_v=$v; }
  done
  echo "$best"
}

java_of() {
  local var home
  var="$(echo "$1" | tr 'a-z-' 'A-Z_')_JAVA_HOME"
  home="${!var:-$(apps_java_home)}"
  if [ -n "$home" ]; then
    [ -x "$home/bin/java" ] || die "$var=$home has no bin/java — point it at a JDK 17 or newer"
    echo "$home/bin/java"
  else
    echo "$JAVA"
  fi
}

# Asking for virtual threads on a JDK without them (17) would silently run platform threads: refuse instead. Only an
# app that reads such a switch is checked (docs/configuration.md): study-service's STUDY_SERVICE_VIRTUAL_THREADS, and
# the MVC gateway's GATEWAY_MVC_VIRTUAL_THREADS, on unless false (it refuses such a JDK itself too).
check_virtual_threads() {
  local service=$1 java=$2 var v default=false
  case "$service" in
    study-service) var=STUDY_SERVICE_VIRTUAL_THREADS ;;
    gateway-mvc) var=GATEWAY_MVC_VIRTUAL_THREADS default=true ;;
    *) return 0 ;;
  esac
  [ "${!var:-$default}" = true ] || return 0
  v=$(java_major "$java")
  [ "${v:-0}" -ge 21 ] || die "$var=true needs Java 21 or newer, but $service would run on Java $v ($java) — set LAB_JAVA_HOME (or ${var%_VIRTUAL_THREADS}_JAVA_HOME) to a JDK 21+, or set $var=false"
}

# modules_of MODULE: the module and every module of this repository it depends on, directly or not (read from the
# poms: an <artifactId> that names a directory with a pom.xml), one per line.
modules_of() {
  local queue=("$1") seen=" " module dep
  while [ ${#queue[@]} -gt 0 ]; do
    module=${queue[0]}; queue=("${queue[@]:1}")
    case "$seen" in *" $module "*) continue ;; esac
    seen+="$module "
    echo "$module"
    for dep in $(sed -n 's#^ *<artifactId>\([a-z0-9-]*\)</artifactId>.*#\1#p' "$ROOT/$module/pom.xml"); do
      [ "$dep" != "$module" ] && [ -f "$ROOT/$dep/pom.xml" ] && queue+=("$dep")
    done
  done
}

# A module needs a build when its jar is missing or any source of it, or of a module it depends on, is newer.
needs_build() {
  local module=$1 jar=$2 dep
  [ -f "$jar" ] || return 0
  local dirs=("$ROOT/pom.xml")
  for dep in $(modules_of "$module"); do dirs+=("$ROOT/$dep/src/main" "$ROOT/$dep/pom.xml"); done
  [ -n "$(find "${dirs[@]}" -newer "$jar" -type f -print -quit 2>/dev/null)" ]
}

build() {
  local stale=() module
  for module in "$@"; do
    needs_build "$module" "$ROOT/$module/target/$module.jar" && stale+=("$module")
  done
  if [ ${#stale[@]} -gt 0 ]; then
    info "building ${stale[*]} (./mvnw package, tests skipped) ..."
    (cd "$ROOT" && ./mvnw -B -q -DskipTests package -pl "$(IFS=,; echo "${stale[*]}")" -am) \
      || die "build failed — run './mvnw -B verify' to see why"
  fi
}

build_logback_gateway() {
  if needs_build gateway "$ROOT/gateway/target/logback/gateway-logback.jar"; then
    info "building the Logback variant of the gateway ..."
    (cd "$ROOT" && ./mvnw -B -q -DskipTests package -pl gateway -am -Dlogback) \
      || die "Logback gateway build failed — run './mvnw -B -pl gateway -am package -Dlogback' to see why"
  fi
}

pid_file() { echo "$STATE/$1.pid"; }

# java_opts_of SERVICE: the JVM options ./lab starts it with: its *_JAVA_OPTS, then -XX:+ExitOnOutOfMemoryError (as
# compose's): an app out of heap exits, and ./lab status and the runner see it gone, instead of living on with threads
# the error killed (a servlet app's acceptor: every later connection timed out)
java_opts_of() {
  local opts=$JAVA_OPTS
  case "$1" in gateway) opts=$GATEWAY_JAVA_OPTS ;; floor) opts=$FLOOR_JAVA_OPTS ;; gateway-mvc) opts=$GATEWAY_MVC_JAVA_OPTS ;; esac
  echo "$opts -XX:+ExitOnOutOfMemoryError $(apm_java_opts "$1")"
}

# The pid in the file, if that process is still the java we started (guards against pid reuse).
running_pid() {
  local file pid
  file=$(pid_file "$1")
  [ -f "$file" ] || return 1
  pid=$(cat "$file")
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- "-jar .*/$1\(-logback\)\?.jar" || return 1
  echo "$pid"
}

ready() {
  curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$(management_port_of "$1")/actuator/health/readiness" 2>/dev/null
}

start() {
  local service=$1 jar port mport
  jar=$(jar_of "$service"); port=$(port_of "$service"); mport=$(management_port_of "$service")
  if running_pid "$service" >/dev/null; then
    rm -f "$STATE/$service.started"
    info "$service already running (pid $(running_pid "$service"))"; return 0
  fi
  for p in "$port" "$mport"; do
    port_in_use "$p" && die "port $p (for $service) is taken by another process — stop it (ss -ltnp 'sport = :$p') or run './lab down'"
  done
  mkdir -p "$STATE/logs"
  local opts java
  opts=$(java_opts_of "$service")
  java=$(java_of "$service")
  check_virtual_threads "$service" "$java"
  aot_plan "$service" "$java" "$opts" "${2:-}"   # sets AOT_JAR, AOT_ARGS, AOT_NOTE
  # shellcheck disable=SC2046,SC2086 # tracing_env is a list of VAR=value words, AOT_ARGS a list of options
  (cd "$STATE" && exec env LOG_PATH="$STATE/logs" $(tracing_env) "$java" $opts $AOT_ARGS -jar "$AOT_JAR" >"$STATE/logs/$service.log" 2>&1) &
  echo $! > "$(pid_file "$service")"
  date +%s%N > "$STATE/$service.started"
  info "starting $service on Java $(java_major "$java")$AOT_NOTE (pid $!, log .lab/logs/$service.log)"
}

await_ready() {
  local service=$1 deadline=$((SECONDS + START_TIMEOUT))
  until ready "$service"; do
    if ! running_pid "$service" >/dev/null; then
      rm -f "$(pid_file "$service")"
      tail -n 20 "$STATE/logs/$service.log" >&2 || true
      die "$service exited during start-up — see .lab/logs/$service.log"
    fi
    [ $SECONDS -lt $deadline ] || die "$service not ready after ${START_TIMEOUT}s — see .lab/logs/$service.log (raise LAB_START_TIMEOUT on a slow machine)"
    sleep 0.1
  done
  local took=""
  [ -f "$STATE/$service.started" ] && took=" in $(( ($(date +%s%N) - $(cat "$STATE/$service.started")) / 1000000 )) ms"
  info "$service ready$took: http://127.0.0.1:$(port_of "$service")  (actuator: http://127.0.0.1:$(management_port_of "$service")/actuator)"
  aot_check "$service"
}

stop() { # stop SERVICE... : SIGTERM to each at once, then wait for all (STOP_TIMEOUT each, then SIGKILL)
  local service pid deadline pids=() names=()
  for service in "$@"; do
    if pid=$(running_pid "$service"); then
      kill -TERM "$pid"   # graceful: in-flight requests complete
      pids+=("$pid"); names+=("$service")
    else
      rm -f "$(pid_file "$service")" "$STATE/$service.started"
    fi
  done
  deadline=$((SECONDS + STOP_TIMEOUT))
  local i left=${#pids[@]}
  while [ "$left" -gt 0 ]; do
    for i in "${!pids[@]}"; do
      [ -n "${pids[$i]}" ] || continue
      if alive "${pids[$i]}"; then
        [ $SECONDS -ge $deadline ] || continue
        info "${names[$i]} did not stop within ${STOP_TIMEOUT}s, killing it"; kill -KILL "${pids[$i]}" 2>/dev/null || true
      fi
      rm -f "$(pid_file "${names[$i]}")" "$STATE/${names[$i]}.started"
      info "stopped ${names[$i]}"
      pids[i]=""; left=$((left - 1))
    done
    [ "$left" -eq 0 ] || sleep 0.05
  done
}
