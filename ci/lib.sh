# Shared helpers of the CI scripts (sourced by ci/e2e.sh, ci/provision-docker.sh and ci/compose-smoke.sh).
#   log MSG            time-stamped line, prefixed with [$CI_NAME]
#   pass MSG / fail MSG  one result line; fail counts into $failures, keeps the first failure in $FAILED, returns 1
#   check WHAT CMD...  runs CMD: pass or fail with WHAT (never stops a `set -e` script)
#   lab_prop KEY       a value from lab.properties (the one definition of services, ports and targets)
#   lab_ports          every service and management port, space-separated
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
