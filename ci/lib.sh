# Shared helpers of the CI scripts (sourced by every ci/*.sh).
#   log MSG            time-stamped line, prefixed with [$CI_NAME]
#   pass MSG / fail MSG  one result line; fail counts into $failures, keeps the first failure in $FAILED, returns 1
#   check WHAT CMD...  runs CMD: pass or fail with WHAT (never stops a `set -e` script)
#   lab_prop KEY, lab_port SERVICE, ...  lib/lab-properties.sh: the one definition of services, ports and targets
#   lab_ports          every service and management port, space-separated
#   hlog_count FILE [TAG]  the responses HdrHistogram's HistogramLogProcessor reads in a runner's latency log
#   ci_results NAME    OUT=results/NAME, emptied; ./lab down when the script exits (after its on_exit, if it defines one)
#   nothing_listening  no service or management port of the lab listens (nor one of $EXTRA_PORTS)
#   apm_agent_jar      the Scouter agent jar for the offline APM checks (ci/apm-e2e.sh, ci/compose-smoke.sh), see there
CI_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
failures=0
FAILED=${FAILED:-}

log()  { printf '%s [%s] %s\n' "$(date -u +%H:%M:%S)" "${CI_NAME:-ci}" "$*"; }
pass() { echo "  ok   $*"; }
fail() { echo "  FAIL $*"; failures=$((failures + 1)); FAILED=${FAILED:-$*}; return 1; }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what" || true; fi; }

# shellcheck source=../lib/lab-properties.sh
source "$CI_ROOT/lib/lab-properties.sh"
lab_ports() {
  local s ports=()
  for s in $(lab_services); do ports+=("$(lab_port "$s")" "$(lab_management_port "$s")"); done
  echo "${ports[*]}"
}

ci_results() {
  OUT="$CI_ROOT/results/$1"
  rm -rf "$OUT"; mkdir -p "$OUT"
  trap ci_exit EXIT
}
ci_exit() {
  if declare -F on_exit >/dev/null; then on_exit || true; fi
  (cd "$CI_ROOT" && ./lab down >/dev/null 2>&1) || true
}
nothing_listening() {
  local ports; ports=$(echo "$(lab_ports) ${EXTRA_PORTS:-}" | xargs | tr ' ' '|')
  ! ss -ltn | grep -qE ":($ports)\b"
}

# apm_agent_jar: prints the path of the Scouter agent jar for the APM checks: $SCOUTER_AGENT_JAR when set (CI, which
# cannot reach GitHub, passes one: .ci/run), else the release agent docker/scouter/fetch.sh downloads into
# .lab/ci-scouter (the same download as `./lab up --apm`). Returns 1 with a message naming SCOUTER_AGENT_JAR when
# there is neither.
apm_agent_jar() {
  if [[ -n ${SCOUTER_AGENT_JAR:-} ]]; then
    [[ -f $SCOUTER_AGENT_JAR ]] || { echo "SCOUTER_AGENT_JAR=$SCOUTER_AGENT_JAR is not a file" >&2; return 1; }
    (cd "$(dirname "$SCOUTER_AGENT_JAR")" && echo "$(pwd)/$(basename "$SCOUTER_AGENT_JAR")"); return 0
  fi
  local dir="$CI_ROOT/.lab/ci-scouter"
  "$CI_ROOT/docker/scouter/fetch.sh" "$dir" agent >&2 && [[ -f $dir/agent/scouter.agent.jar ]] || {
    echo "no Scouter agent $(lab_prop apm.scouter.agent-version): the release download failed — set" \
         "SCOUTER_AGENT_JAR=<scouter.agent.jar> (the release's agent.java/scouter.agent.jar)" >&2
    return 1
  }
  echo "$dir/agent/scouter.agent.jar"
}

# hlog_count FILE [TAG]: how many responses HdrHistogram's own HistogramLogProcessor reads in a latency log written by
# the runner (raw/<target>-latency.hlog): the intervals tagged TAG, or the untagged ones (a soak's) without TAG; empty
# when it cannot read them
hlog_count() {
  local tmp; tmp=$(mktemp -d)
  java -cp "$CI_ROOT/runner/target/lib/*" org.HdrHistogram.HistogramLogProcessor -i "$1" ${2:+-tag "$2"} -o "$tmp/h" \
    > /dev/null 2>&1 || true
  sed -n 's/.*Total count *= *\([0-9]*\).*/\1/p' "$tmp/h.hgrm" 2>/dev/null
  rm -rf "$tmp"
}
