#!/usr/bin/env bash
# The deny-list tool (dev.gatewaylab.denylisttool.DenyListTool, outside the gateway's jar), no Spring context.
#   deny-list-tool/deny-list.sh generate --rules 3000000 --seed 42   -> .lab/deny-list/{deny-list.txt,client-ips.csv}
#   deny-list-tool/deny-list.sh compile .lab/deny-list/deny-list.txt -> .lab/deny-list/deny-list.txt.compiled
#   deny-list-tool/deny-list.sh load .lab/deny-list/deny-list.txt    -> rules, intervals, bytes, load time, heap
#   deny-list-tool/deny-list.sh --help
# Build the jar first: ./mvnw -B -q -DskipTests package -pl deny-list-tool -am (./lab deny-list does). Heap:
# DENY_LIST_JAVA_OPTS (default -Xmx1g, what generate needs for 30 M rules; compile and load need a few MB).
# Java: $JAVA_HOME/bin/java when JAVA_HOME is set, else java on the PATH (as ./lab runs its own tools).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/deny-list-tool/target/deny-list-tool.jar"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
[ -f "$jar" ] || { echo "deny-list: $jar is missing: build it with ./mvnw -B -q -DskipTests package -pl deny-list-tool -am" >&2; exit 2; }
command -v "$java" > /dev/null || { echo "deny-list: no '$java' found: install JDK 17 or newer, or set JAVA_HOME to one" >&2; exit 2; }
# shellcheck disable=SC2086
exec "$java" ${DENY_LIST_JAVA_OPTS:--Xmx1g} -Dgatewaylab.deny-list.out="$root/.lab/deny-list" -jar "$jar" "$@"
