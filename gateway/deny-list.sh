#!/usr/bin/env bash
# The deny-list tool (dev.gatewaylab.gateway.denylist.DenyListGenerator) from the gateway's fat jar, no Spring context.
#   gateway/deny-list.sh generate --rules 3000000 --seed 42      -> .lab/deny-list/{deny-list.txt,client-ips.csv}
#   gateway/deny-list.sh load .lab/deny-list/deny-list.txt       -> rules, intervals, bytes/rule, load time, heap
#   gateway/deny-list.sh --help
# Build the jar first: ./mvnw -B -q -DskipTests package -pl gateway -am. Heap: DENY_LIST_JAVA_OPTS (default -Xmx1g,
# enough to generate 30 M rules; `load` with -Xmx256m shows what the gateway itself can hold).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/gateway/target/gateway.jar"
[ -f "$jar" ] || { echo "deny-list: $jar is missing: build it with ./mvnw -B -q -DskipTests package -pl gateway -am" >&2; exit 2; }
# shellcheck disable=SC2086
exec java ${DENY_LIST_JAVA_OPTS:--Xmx1g} -Dgatewaylab.deny-list.out="$root/.lab/deny-list" \
  -Dloader.main=dev.gatewaylab.gateway.denylist.DenyListGenerator \
  -cp "$jar" org.springframework.boot.loader.launch.PropertiesLauncher "$@"
