# shellcheck shell=bash
# The one reader of lab.properties (services, ports, targets) for the shell scripts: sourced by ./lab, ci/lib.sh,
# bench/lib.sh and docker/scouter/fetch.sh, never run.
#   lab_prop KEY                 the value of KEY (Java properties syntax: key=value, # comments; the last one wins);
#                                a missing key is an error naming it (exit 2)
#   lab_services                 the services, one per line
#   lab_port SERVICE             its application port; an unknown service is an error naming the known ones (exit 2)
#   lab_management_port SERVICE  its management (actuator) port
LAB_PROPERTIES="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lab.properties"

lab_prop() {
  local v
  v=$(sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*//p" "$LAB_PROPERTIES" | tail -n 1)
  [ -n "$v" ] || { echo "${0##*/}: lab.properties has no '$1' — restore it from git ($LAB_PROPERTIES)" >&2; exit 2; }
  echo "$v"
}

lab_services() { lab_prop services | tr ',' '\n'; }

_lab_known_service() {
  lab_services | grep -qx -- "$1" \
    || { echo "${0##*/}: unknown service '$1' — use one of: $(lab_services | xargs)" >&2; exit 2; }
}
lab_port() { _lab_known_service "$1"; lab_prop "service.$1.port"; }
lab_management_port() { _lab_known_service "$1"; lab_prop "service.$1.management-port"; }
