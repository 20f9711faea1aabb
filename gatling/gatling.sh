#!/usr/bin/env bash
# The ip-filter performance report's load test with Gatling (gatling/, DenyListSimulation): constant users sending
# random denied client addresses in X-Forwarded-For to a running gateway; fails unless every answer is 403
# {"resultMessage":"Deny"}. Usually run as ./lab deny-list gatling, against a gateway started with the matching list:
#   ./lab deny-list gatling [--users 30] [--seconds 60] [--clients .lab/deny-list/30m/client-ips.csv]
#                           [--gateway http://127.0.0.1:8080] [--results results/gatling]
# Gatling and its dependencies come from Maven Central (the first run downloads them).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
users=30 seconds=60 clients="$root/.lab/deny-list/30m/client-ips.csv" gateway=http://127.0.0.1:8080
results="$root/results/gatling"
usage() { echo "deny-list gatling: $1 — options: --users N --seconds S --clients CSV --gateway URL --results DIR" >&2; exit 2; }
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage "$1 needs a value"
  case "$1" in
    --users) users=$2 ;;
    --seconds) seconds=$2 ;;
    --clients) clients=$2 ;;
    --gateway) gateway=$2 ;;
    --results) results=$2 ;;
    *) usage "unknown option '$1'" ;;
  esac
  shift 2
done
[[ "$users" =~ ^[1-9][0-9]*$ ]] || usage "--users '$users' is not a positive whole number, e.g. --users 30"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || usage "--seconds '$seconds' is not a positive whole number, e.g. --seconds 60"
[ -f "$clients" ] || usage "no client CSV at $clients: write one with ./lab deny-list generate --rules 30000000 --seed 42 --out .lab/deny-list/30m"
clients="$(cd "$(dirname "$clients")" && pwd)/$(basename "$clients")"
mkdir -p "$results"
exec "$root/mvnw" -B -f "$root/gatling/pom.xml" test-compile gatling:test -Dusers="$users" -Dseconds="$seconds" \
  -Dclients="$clients" -Dgateway="$gateway" -Dresults="$(cd "$results" && pwd)"
