# shellcheck shell=bash
# ./lab's load engines: a JMeter 5.6.3 load engine (jmeter-server) for `bench|sweep --remote`, from the runner's own
# jars, sourced by ./lab (its cmd_engine dispatches to engine_start, engine_stop and engine_status). Uses ./lab's ROOT,
# STATE, JAVA, die, info and alive; check_java and build (lib/services.sh).
# ./lab engine [--host H] [--port P] [...]   start one in the background: .lab/engine-H-P.pid, log .lab/logs/engine-H-P.log
# ./lab engine stop [--host H] [--port P]    stop that one (default: every engine started from this checkout)
# ./lab engine status                        what runs. The options are checked by the runner (`engine --help`).
# The engine listens on --host alone, RMI over TLS with the checkout's keystore (.lab/rmi-keystore.p12, created on the
# first start); what it prints for the operator (its `rmi:` and `warning:` lines: the keystore, the command that copies
# it to the runner's machine, --insecure-rmi's warning) is repeated here from its log.
ENGINE_JAVA_OPTS="${LAB_ENGINE_JAVA_OPTS:--Xmx512m}"
ENGINE_START_TIMEOUT="${LAB_ENGINE_START_TIMEOUT:-60}"

engine_opt() { # engine_opt NAME DEFAULT ARGS...: the value of --NAME X / --NAME=X in ARGS
  local name=$1 value=$2; shift 2
  while [ $# -gt 0 ]; do
    case "$1" in
      "--$name") value=${2:-}; if [ $# -gt 1 ]; then shift; fi ;;
      "--$name="*) value=${1#*=} ;;
    esac
    shift
  done
  echo "$value"
}

engine_pid() { # engine_pid PIDFILE: the pid, if that process is still our engine
  local pid
  [ -f "$1" ] && pid=$(cat "$1") && [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- "RunnerCommand engine" || return 1
  echo "$pid"
}

engine_start() {
  local host port name pidfile log pid deadline
  host=$(engine_opt host 127.0.0.1 "$@"); port=$(engine_opt port 1099 "$@")
  [[ "$host" =~ ^[A-Za-z0-9.:-]+$ ]] || die "invalid --host '$host' — pass an address of this machine, e.g. --host 10.0.0.5"
  [[ "$port" =~ ^[0-9]+$ ]] || die "invalid --port '$port' — pass the RMI registry port, e.g. --port 1099"
  name="engine-$host-$port"; pidfile="$STATE/$name.pid"; log="$STATE/logs/$name.log"
  if pid=$(engine_pid "$pidfile"); then info "engine $host:$port already running (pid $pid)"; return 0; fi
  check_java
  build runner
  mkdir -p "$STATE/logs"
  rm -f "$log" # the readiness check below reads it: no line from a previous engine
  # shellcheck disable=SC2086 # ENGINE_JAVA_OPTS is a list of options
  (LAB_HOME="$ROOT" exec "$JAVA" $ENGINE_JAVA_OPTS \
      -cp "$ROOT/runner/target/runner.jar:$ROOT/runner/target/lib/*" dev.gatewaylab.runner.RunnerCommand engine "$@" \
      >"$log" 2>&1) &
  pid=$!
  echo "$pid" > "$pidfile"
  deadline=$((SECONDS + ENGINE_START_TIMEOUT))
  until grep -q '^engine ready' "$log" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
      local rc=0; wait "$pid" || rc=$?
      rm -f "$pidfile"; cat "$log" >&2
      exit $(( rc == 0 ? 2 : rc ))
    fi
    if [ $SECONDS -ge $deadline ]; then
      kill -TERM "$pid" 2>/dev/null || true; rm -f "$pidfile"
      die "engine $host:$port not ready after ${ENGINE_START_TIMEOUT}s — see $log"
    fi
    sleep 0.3
  done
  local line insecure=""
  while IFS= read -r line; do
    case "$line" in
      warning:*) echo "lab: engine $host:$port: $line" >&2 ;;
      rmi:*) info "engine $host:$port: ${line#rmi: }" ;;
    esac
  done < <(grep -E '^(rmi|warning): ' "$log")
  case " $* " in *" --insecure-rmi "*) insecure=" --insecure-rmi" ;; esac
  info "engine $host:$port started (pid $pid, log ${log#"$ROOT"/}); use it with: ./lab bench --remote $host$([ "$port" = 1099 ] || echo ":$port")$insecure"
}

engine_stop() {
  local files=() f pid deadline
  if [ $# -gt 0 ]; then
    files=("$STATE/engine-$(engine_opt host 127.0.0.1 "$@")-$(engine_opt port 1099 "$@").pid")
  else
    shopt -s nullglob; files=("$STATE"/engine-*.pid); shopt -u nullglob
  fi
  for f in "${files[@]}"; do
    local name; name=$(basename "$f" .pid)
    if pid=$(engine_pid "$f"); then
      kill -TERM "$pid"
      deadline=$((SECONDS + 10))
      while alive "$pid"; do
        [ $SECONDS -lt $deadline ] || { kill -KILL "$pid" 2>/dev/null || true; break; }
        sleep 0.2
      done
      info "stopped $name"
    else
      [ $# -eq 0 ] || info "$name is not running"
    fi
    rm -f "$f"
  done
}

engine_status() {
  local f pid any=0
  shopt -s nullglob
  for f in "$STATE"/engine-*.pid; do
    any=1
    if pid=$(engine_pid "$f"); then echo "$(basename "$f" .pid)  pid $pid  running"; else echo "$(basename "$f" .pid)  stopped (stale pid file)"; fi
  done
  shopt -u nullglob
  [ $any -eq 1 ] || echo "no engine started from this checkout (./lab engine --host ADDRESS [--port PORT])"
}
