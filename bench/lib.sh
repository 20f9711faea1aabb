# shellcheck shell=bash
# Shared by the bench/ scripts (sourced, never run): ROOT, the ports from lab.properties, die.
#   BENCH_NAME must be set before sourcing: it prefixes every message ("floor: ...").
#   die MSG                   "$BENCH_NAME: MSG" on stderr, exit 2
#   GATEWAY_PORT, STUDY_SERVICE_PORT   the two ports every script needs (lab.properties); lab_port SERVICE for the rest
#   require_answer WHAT URL HOW   exit 2 ("WHAT does not answer URL — start it: HOW") unless URL answers 2xx in 3 s
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=../lib/lab-properties.sh
source "$ROOT/lib/lab-properties.sh"

die() { echo "${BENCH_NAME:-bench}: $*" >&2; exit 2; }

GATEWAY_PORT=$(lab_port gateway)
STUDY_SERVICE_PORT=$(lab_port study-service)

require_answer() {
  curl -fs -o /dev/null --max-time 3 "$2" || die "$1 does not answer $2 — start it: $3"
}
