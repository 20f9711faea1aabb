# shellcheck shell=bash
# ./lab's AOT cache (JDK 24+: JEPs 483, 514, 515), sourced by ./lab: uses its STATE, ROOT, die, info, lab_prop and
# port_of; jar_of, java_of, java_opts_of, java_major, running_pid, start, stop and await_ready (lib/services.sh); apm_on
# (lib/apm.sh).
# On a JDK 24 or newer an app starts from its extracted jar (.lab/aot/<jar>/app) with an ahead-of-time cache of the
# classes it loaded and the method profiles it collected in a training run: the first `./lab up` after a build starts
# it in training mode, sends it the training requests (lab.properties aot.*), stops it, writes the cache and starts
# it again with the cache; every later start reads it. Trained by ./lab, not by the build, because a cache holds for
# one jar build, one JDK build and one set of JVM options — what ./lab runs the app with. Another JDK or other options
# train another cache; a rebuilt jar deletes every cache of the old build (never used). LAB_AOT=off runs the jars as
# they are; so do JDKs before 24 and `--apm` (the agent rewrites classes the cache would hold).
AOT="${LAB_AOT:-auto}"
AOT_TIMEOUT="${LAB_AOT_TIMEOUT:-300}"   # s: a training run's stop (it writes its profile at exit) and the cache's assembly
AOT_TRAINING=()   # the services start launched as training runs
AOT_JAR="" AOT_ARGS="" AOT_NOTE=""   # set by aot_plan for start

aot_valid() {
  case "$AOT" in
    off|auto) ;;
    *) die "LAB_AOT='$AOT' is not valid — use LAB_AOT=auto (an AOT cache on JDK 24+, the default) or LAB_AOT=off" ;;
  esac
}

# aot_on JAVA: whether apps on this java start with an AOT cache
aot_on() {
  aot_valid
  [ "$AOT" = auto ] && ! apm_on || return 1
  local release v
  release="$(dirname "$(dirname "$(readlink -f "$(command -v "$1")")")")/release"
  v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release" 2>/dev/null)
  [ -n "$v" ] || v=$(java_major "$1")
  [ "${v:-0}" -ge 24 ] 2>/dev/null
}

aot_dir() { echo "$STATE/aot/$(basename "$(jar_of "$1")" .jar)"; }

# aot_cache SERVICE JAVA OPTS: the cache file for this jar build, JDK build and JVM options
aot_cache() {
  local java key
  java=$(readlink -f "$(command -v "$2")")
  key="$(cat "$(aot_dir "$1")/build") $java $(sed -n 's/^JAVA_RUNTIME_VERSION=//p' "$(dirname "$(dirname "$java")")/release" 2>/dev/null) $3"
  echo "$(aot_dir "$1")/$(printf '%s' "$key" | sha256sum | cut -c1-16).aot"
}

# shellcheck disable=SC2034 # AOT_JAR, AOT_ARGS and AOT_NOTE are for ./lab's start
# aot_plan SERVICE JAVA OPTS [run]: how start launches it — AOT_JAR (the jar), AOT_ARGS (JVM options), AOT_NOTE (said
# in ./lab's output); appends SERVICE to AOT_TRAINING when it starts as a training run. "run": never a training run.
aot_plan() {
  local service=$1 java=$2 opts=$3 jar dir stamp cache
  jar=$(jar_of "$service"); AOT_JAR=$jar; AOT_ARGS=""; AOT_NOTE=""
  aot_on "$java" || return 0
  dir=$(aot_dir "$service"); stamp=$(stat -c '%s %Y' "$jar")
  if [ "$(cat "$dir/build" 2>/dev/null)" != "$stamp" ]; then   # a new build: extract it, drop the old caches
    rm -rf "$dir"; mkdir -p "$dir"
    if ! "$java" -Djarmode=tools -jar "$jar" extract --destination "$dir/app" >"$dir/extract.log" 2>&1; then
      info "WARNING: could not extract $jar for its AOT cache (see ${dir#"$ROOT"/}/extract.log) — starting it without"
      rm -rf "$dir"; return 0
    fi
    echo "$stamp" > "$dir/build"
  fi
  cache=$(aot_cache "$service" "$java" "$opts")
  AOT_JAR="$dir/app/$(basename "$jar")"
  if [ -f "$cache" ]; then
    AOT_ARGS="-XX:AOTCache=$cache -Xlog:aot=info:file=$STATE/logs/$service-aot.log::filecount=0"
    AOT_NOTE=" with its AOT cache"
  elif [ -f "${cache%.aot}.failed" ] || [ "${4:-}" = run ]; then
    AOT_NOTE=" without an AOT cache (training failed for this build: ${cache#"$ROOT"/}.log)"
  else
    AOT_ARGS="-XX:AOTMode=record -XX:AOTConfiguration=${cache%.aot}.aotconf -Xlog:aot*=error"
    AOT_NOTE=" for its AOT training run (first start of this build with these options)"
    AOT_TRAINING+=("$service")
  fi
}

# aot_check SERVICE: after readiness, says whether the JVM really mapped its cache; one it refused is trained again.
aot_check() {
  local log="$STATE/logs/$1-aot.log" pid
  pid=$(running_pid "$1") || return 0
  tr '\0' '\n' < "/proc/$pid/cmdline" | grep -q '^-XX:AOTCache=' || return 0
  if grep -q "Opened AOT cache" "$log" 2>/dev/null && ! grep -q '\[error' "$log"; then
    info "$1 runs with its AOT cache"
  else
    info "WARNING: $1 did not use its AOT cache (.lab/logs/$1-aot.log) — it is trained again on its next start"
    tr '\0' '\n' < "/proc/$pid/cmdline" | sed -n 's/^-XX:AOTCache=//p' | xargs rm -f
  fi
}

# aot_train SERVICE...: the training runs started by start (ready by now): load, stop, write each cache, start again
aot_train() {
  [ $# -gt 0 ] || return 0
  local path count s started conf cache java opts pids=()
  path=$(lab_prop aot.training-path); count=$(lab_prop aot.training-requests)
  for s in "$@"; do
    started=$SECONDS
    local url first codes
    url="http://127.0.0.1:$(port_of "$s")$path"
    first=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "${url}1" || true)
    if [[ "$first" == 2* ]]; then   # one keep-alive connection, the requests one after another
      codes=$(curl -s -o /dev/null -w '%{http_code}\n' --max-time 5 "${url}[1-$count]" | sort | uniq -c \
        | awk '{printf "%s%s × %s", (NR > 1 ? ", " : ""), $1, $2}') || codes="no answer"
      info "AOT training of $s: GET $path{1..$count}: $codes in $((SECONDS - started)) s"
    else   # an error path's profile would mislead the JIT more than none
      info "AOT training of $s: start-up only — GET ${path}1 answered ${first:-nothing} (its upstream not running?)"
    fi
  done
  STOP_TIMEOUT=$AOT_TIMEOUT stop "$@"   # together; each writes its profile at exit
  for s in "$@"; do
    java=$(java_of "$s"); opts=$(java_opts_of "$s"); cache=$(aot_cache "$s" "$java" "$opts"); conf=${cache%.aot}.aotconf
    # shellcheck disable=SC2086 # opts is a list of options
    (timeout "$AOT_TIMEOUT" "$java" $opts -XX:AOTMode=create -XX:AOTConfiguration="$conf" -XX:AOTCache="$cache.tmp" \
       -Xlog:aot*=error -jar "$(aot_dir "$s")/app/$(basename "$(jar_of "$s")")" >"$cache.log" 2>&1 \
       && mv "$cache.tmp" "$cache" && rm -f "$conf") &
    pids+=($!)
  done
  started=$SECONDS
  local i=0
  for s in "$@"; do
    java=$(java_of "$s"); cache=$(aot_cache "$s" "$java" "$(java_opts_of "$s")")
    if wait "${pids[$i]}"; then
      info "AOT cache of $s written: ${cache#"$ROOT"/} ($(( $(stat -c %s "$cache") / 1048576 )) MiB, $((SECONDS - started)) s)"
    else
      info "WARNING: the AOT cache of $s could not be written (${cache#"$ROOT"/}.log) — it starts without one for this build"
      touch "${cache%.aot}.failed"; rm -f "$cache.tmp"
    fi
    i=$((i + 1))
  done
  for s in "$@"; do start "$s" run; done
  for s in "$@"; do await_ready "$s"; done
}
