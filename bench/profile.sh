#!/usr/bin/env bash
# CPU flame graph of one running lab app under steady wrk load, with async-profiler attached by pid. See --help.
set -euo pipefail

BENCH_NAME=profile
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   # ROOT, die, the ports of lab.properties
AP_VERSION=4.1
AP_JAR="$HOME/.m2/repository/tools/profiler/async-profiler/$AP_VERSION/async-profiler-$AP_VERSION-linux-x64.jar"
WARMUP=20 DURATION=20 CONNECTIONS=32 THREADS=1 REQ_PATH=/api/studies/42 EVENT=cpu INTERVAL=1ms OUT=""

usage() {
  cat <<EOF
Usage: bench/profile.sh <target> [options]        target: gateway | study-service | monolith | floor

Attaches async-profiler $AP_VERSION to the running app (pid from .lab/<target>.pid), drives it with wrk
(-t$THREADS -c$CONNECTIONS GET $REQ_PATH on its loopback port) for a warm-up, then profiles a window of steady
load and writes
  results/<timestamp>/flame-<target>.html   CPU flame graph (open in a browser; self-contained)
  results/<timestamp>/flame-<target>.txt    the same samples: hottest self frames and inclusive shares of
                                            frameworks, plus the wrk figures of the profiled window
Start the app first:  ./lab up study-service gateway   (or ./lab up monolith, ./lab up study-service floor)

Options:
  --warmup S       seconds of load before profiling starts (default $WARMUP)
  --duration S     seconds profiled under load (default $DURATION)
  --connections C  wrk connections (default $CONNECTIONS)
  --path P         request path (default $REQ_PATH)
  --event E        async-profiler event: cpu, itimer, wall, alloc, lock (default $EVENT)
  --interval I     sampling interval for cpu/itimer/wall (default $INTERVAL)
  --out DIR        output directory (default results/<timestamp>)
  -h, --help       this text

The profiler library comes from Maven Central: tools.profiler:async-profiler:$AP_VERSION:jar:linux-x64
(linux-x64/libasyncProfiler.so inside). If it is not in ~/.m2 yet the script fetches it with ./mvnw dependency:get
(needs the network; or set ASYNC_PROFILER_LIB=/path/to/libasyncProfiler.so).
EOF
}

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
TARGET=$1; shift
lab_services | grep -qx -- "$TARGET" || die "unknown target '$TARGET' — use one of: $(lab_services | xargs)"
PORT=$(lab_port "$TARGET")
while [ $# -gt 0 ]; do
  case "$1" in
    --warmup) WARMUP=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --connections) CONNECTIONS=$2; shift 2 ;;
    --path) REQ_PATH=$2; shift 2 ;;
    --event) EVENT=$2; shift 2 ;;
    --interval) INTERVAL=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
  esac
done
for n in "$WARMUP" "$DURATION" "$CONNECTIONS"; do [[ "$n" =~ ^[0-9]+$ ]] || die "'$n' is not a whole number"; done
command -v wrk >/dev/null || die "wrk not found — apt-get install wrk"

PIDFILE="$ROOT/.lab/$TARGET.pid"
PID=$( [ -f "$PIDFILE" ] && cat "$PIDFILE" || true)
if [ -z "$PID" ] || ! [ -d "/proc/$PID" ]; then
  die "$TARGET is not running (no live pid in .lab/$TARGET.pid) — start it with: ./lab up study-service $TARGET"
fi
curl -fs -o /dev/null --max-time 3 "http://127.0.0.1:$PORT$REQ_PATH" \
  || die "$TARGET (pid $PID) does not answer http://127.0.0.1:$PORT$REQ_PATH — is its upstream up? ./lab up study-service $TARGET"

# The JDK that runs the app attaches to it (jcmd of another major version may refuse).
JCMD="$(dirname "$(readlink -f "/proc/$PID/exe")")/jcmd"
[ -x "$JCMD" ] || JCMD=$(command -v jcmd) || die "no jcmd next to $(readlink -f "/proc/$PID/exe") nor on PATH — a JDK (not a JRE) is needed"

LIB=${ASYNC_PROFILER_LIB:-}
if [ -z "$LIB" ]; then
  LIB="$ROOT/target/async-profiler-$AP_VERSION/linux-x64/libasyncProfiler.so"
  if [ ! -f "$LIB" ]; then
    if [ ! -f "$AP_JAR" ]; then
      echo "profile: fetching tools.profiler:async-profiler:$AP_VERSION:jar:linux-x64 from Maven Central ..."
      (cd "$ROOT" && ./mvnw -B -q dependency:get -Dartifact="tools.profiler:async-profiler:$AP_VERSION:jar:linux-x64") \
        || die "could not fetch async-profiler (no network here?) — run the ./mvnw dependency:get above where there is, or set ASYNC_PROFILER_LIB"
    fi
    mkdir -p "$ROOT/target/async-profiler-$AP_VERSION"
    (cd "$ROOT/target/async-profiler-$AP_VERSION" && unzip -qo "$AP_JAR" 'linux-x64/*') || die "could not unpack $AP_JAR"
  fi
fi
[ -f "$LIB" ] || die "async-profiler library not found: $LIB"

OUT=${OUT:-$ROOT/results/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
HTML="$OUT/flame-$TARGET.html" COLLAPSED="$OUT/flame-$TARGET.collapsed" TXT="$OUT/flame-$TARGET.txt"

# The agent options go in double quotes: jcmd would read "start,event=cpu" as a named argument "start,event".
# async-profiler reports its own errors on the app's stderr (.lab/logs/<target>.log) and returns a non-zero code.
agent() {
  "$JCMD" "$PID" JVMTI.agent_load "$LIB" "\"$1\"" >"$OUT/.jcmd.out" 2>&1 && grep -q "return code: 0" "$OUT/.jcmd.out" && return 0
  cat "$OUT/.jcmd.out" >&2; tail -n 3 "$ROOT/.lab/logs/$TARGET.log" 2>/dev/null | grep '^\[' >&2; return 1
}
STARTED=0
cleanup() { [ "$STARTED" = 1 ] && agent stop >/dev/null 2>&1 || true; rm -f "$OUT/.jcmd.out"; }
trap cleanup EXIT

URL="http://127.0.0.1:$PORT$REQ_PATH"
if [ "$WARMUP" -gt 0 ]; then
  echo "profile: warm-up $TARGET (pid $PID) ${WARMUP}s: $(timeout $((WARMUP + 10)) wrk -t$THREADS -c"$CONNECTIONS" -d"${WARMUP}s" "$URL" | awk '/^Requests\/sec/ {print $2 " req/s"}')"
fi
agent "start,event=$EVENT,interval=$INTERVAL" || die "async-profiler did not start in pid $PID (see above)"
STARTED=1
echo "profile: profiling $TARGET for ${DURATION}s under load (event=$EVENT, interval=$INTERVAL) ..."
WRK=$(timeout $((DURATION + 10)) wrk -t$THREADS -c"$CONNECTIONS" -d"${DURATION}s" --latency "$URL") || die "wrk failed"
# Same samples twice: the HTML flame graph (dump keeps profiling) and a collapsed text for the summary (stop).
agent "dump,file=$HTML,title=flame-$TARGET-$EVENT" || die "could not write $HTML"
agent "stop,file=$COLLAPSED,collapsed" || die "could not write $COLLAPSED"
STARTED=0

{
  echo "# $TARGET, pid $PID, $(tr '\0' ' ' <"/proc/$PID/cmdline" | cut -c1-300)"
  echo "# wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s $URL during the profile:"
  grep -E "Requests/sec|requests in| 50%| 99%" <<<"$WRK" | sed 's/^/#   /'
  echo
  echo "## Inclusive share of samples (a frame anywhere on the stack)"
  awk 'BEGIN { split("reactor.netty|io.netty|spring cloud gateway|spring web+http|micrometer (metrics, observations)|logging (slf4j, log4j2, logback, disruptor)|http header maps|thread-local/context (reactor Context, ThreadLocal)|GC threads|JIT compiler threads|kernel frames", name, "|")
               split("reactor[/.]netty|io[/.]netty|org[/.]springframework[/.]cloud[/.]gateway|org[/.]springframework[/.]web|io[/.]micrometer|org[/.]apache[/.]logging|com[/.]lmax|ch[/.]qos|org[/.]slf4j|HttpHeaders|LinkedCaseInsensitiveMap|ContextPropagation|reactor[/.]util[/.]context|GC Thread|G1|ParallelGC|C2 CompilerThread|C1 CompilerThread|_\\[k\\]", pat, "|")
               # pattern index -> bucket index
               split("1 2 3 4 5 6 6 6 6 7 7 8 8 9 9 9 10 10 11", bucket, " ") }
       { n = $NF; total += n; line = $0; delete hit
         for (i = 1; i in pat; i++) if (line ~ pat[i]) hit[bucket[i]] = 1
         for (b in hit) share[b] += n }
       END { if (!total) exit; printf "total samples %d\n", total
             for (b = 1; b in name; b++) printf "  %-55s %5.1f %%\n", name[b], 100 * share[b] / total }' "$COLLAPSED"
  echo
  echo "## Hottest self frames (top 30)"
  awk '{ n = $NF; $NF = ""; sub(/ $/, ""); k = split($0, f, ";"); self[f[k]] += n; total += n }
       END { for (s in self) printf "%6.2f %%  %s\n", 100*self[s]/total, s }' "$COLLAPSED" | sort -rn | awk 'NR<=30'
} >"$TXT"

echo "profile: wrote $HTML ($(du -h "$HTML" | cut -f1)) and $TXT"
grep -E "Requests/sec" <<<"$WRK" | sed 's/^/profile:   /'
