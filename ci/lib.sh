# Shared helpers of the CI scripts (sourced by ci/e2e.sh, ci/provision-docker.sh and ci/compose-smoke.sh).
#   log MSG            time-stamped line, prefixed with [$CI_NAME]
#   pass MSG / fail MSG  one result line; fail counts into $failures, keeps the first failure in $FAILED, returns 1
#   check WHAT CMD...  runs CMD: pass or fail with WHAT (never stops a `set -e` script)
#   lab_prop KEY       a value from lab.properties (the one definition of services, ports and targets)
#   lab_ports          every service and management port, space-separated
#   apm_agent_jar      the Scouter agent jar for the offline APM checks (ci/apm-e2e.sh, ci/compose-smoke.sh), see there
CI_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
failures=0
FAILED=${FAILED:-}

log()  { printf '%s [%s] %s\n' "$(date -u +%H:%M:%S)" "${CI_NAME:-ci}" "$*"; }
pass() { echo "  ok   $*"; }
fail() { echo "  FAIL $*"; failures=$((failures + 1)); FAILED=${FAILED:-$*}; return 1; }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what" || true; fi; }

lab_prop() { sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*//p" "$CI_ROOT/lab.properties" | tail -n 1; }
lab_ports() {
  local s ports=()
  IFS=, read -r -a _services <<< "$(lab_prop services)"
  for s in "${_services[@]}"; do ports+=("$(lab_prop "service.$s.port")" "$(lab_prop "service.$s.management-port")"); done
  echo "${ports[*]}"
}

# apm_agent_jar: prints the path of the Scouter agent jar that stands in for the GitHub download in CI (which cannot
# reach GitHub): $SCOUTER_AGENT_JAR when set, else scouter.agent-<apm.scouter.agent-version>.jar in ../shared/scouter
# beside the clone, then in /work/shared/scouter (the agent built from the tagged source, see its README.md).
# Returns 1 with a message naming SCOUTER_AGENT_JAR when there is none.
apm_agent_jar() {
  local version f
  version=$(lab_prop apm.scouter.agent-version)
  if [[ -n ${SCOUTER_AGENT_JAR:-} ]]; then
    [[ -f $SCOUTER_AGENT_JAR ]] || { echo "SCOUTER_AGENT_JAR=$SCOUTER_AGENT_JAR is not a file" >&2; return 1; }
    echo "$SCOUTER_AGENT_JAR"; return 0
  fi
  for f in "$CI_ROOT/../shared/scouter/scouter.agent-$version.jar" "/work/shared/scouter/scouter.agent-$version.jar"; do
    [[ -f $f ]] && { (cd "$(dirname "$f")" && echo "$(pwd)/$(basename "$f")"); return 0; }
  done
  echo "no Scouter agent $version jar in ../shared/scouter or /work/shared/scouter: set SCOUTER_AGENT_JAR=<scouter.agent.jar>" \
       "(the release's agent.java/scouter.agent.jar)" >&2
  return 1
}
