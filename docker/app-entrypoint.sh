#!/bin/sh
# Starts the module's jar with $JAVA_OPTS. The Scouter agent is attached only when its files are present
# (volume filled by the `apm` profile) AND the collector is on the network, so the stack never waits for it.
set -e
agent="${SCOUTER_AGENT_DIR:-/opt/scouter-agent}/scouter.agent.jar"
collector="${SCOUTER_COLLECTOR_HOST:-scouter-server}"
if [ "${SCOUTER_ENABLED:-auto}" != "false" ] && [ -f "$agent" ] && getent hosts "$collector" >/dev/null 2>&1; then
  JAVA_OPTS="$JAVA_OPTS -javaagent:$agent -Dscouter.config=${SCOUTER_AGENT_DIR:-/opt/scouter-agent}/conf/scouter.conf \
 -Dobj_name=${APP_NAME:-app} -Dnet_collector_ip=$collector -Dnet_collector_udp_port=6100 -Dnet_collector_tcp_port=6100 \
 --add-opens=java.base/java.lang=ALL-UNNAMED -Djdk.attach.allowAttachSelf=true"
  echo "app-entrypoint: Scouter agent attached (obj_name=${APP_NAME:-app}, collector=$collector)"
fi
# shellcheck disable=SC2086 # JAVA_OPTS is a list of options on purpose
exec java $JAVA_OPTS -jar /app/app.jar "$@"
