#!/usr/bin/env bash
# Validates grafana/ provisioning + dashboards and runs every panel query against a Prometheus.
#   ci/check-dashboards.sh http://127.0.0.1:9090     structure + every query must return data
#   ci/check-dashboards.sh --structure-only          no Prometheus needed
# Exit 1 lists each failing panel title and its expression. Details: docs/dashboards.md.
set -euo pipefail
case ${BASH_SOURCE[0]} in */*) here=${BASH_SOURCE[0]%/*} ;; *) here=. ;; esac
exec python3 "$here/check_dashboards.py" "$@"
