#!/usr/bin/env bash
# End-to-end check of `./lab up --apm` on real processes: the Scouter agent on gateway, study-service and monolith,
# a local collector and the webapp's REST API (docs/compose.md "Scouter"). Requests go through the gateway; the
# REST API must then list the three objects alive, with transactions recorded by each for the requests sent.
# Also: a bad LAB_APM exits 2, and a port taken where the collector should listen never blocks start-up.
# The agent: apm_agent_jar (ci/lib.sh) — SCOUTER_AGENT_JAR (CI passes an agent built from source: it cannot reach
# GitHub), else the release download of `./lab up --apm`. The REST assertions are ci/scouter_check.py, shared with
# ci/compose-smoke.sh. Loopback only.
set -euo pipefail
CI_NAME=apm
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ci_results apm-e2e
GW=http://127.0.0.1:$(lab_prop service.gateway.port)
COLLECTOR_PORT=$(lab_prop apm.scouter.collector-port)
API=http://127.0.0.1:$(lab_prop apm.scouter.webapp-port)/scouter/v1
VERSION=$(lab_prop apm.scouter.agent-version)
EXTRA_PORTS="$COLLECTOR_PORT $(lab_prop apm.scouter.webapp-port)"
dummy=
on_exit() { [ -z "$dummy" ] || kill "$dummy" 2>/dev/null || true; }

SCOUTER_AGENT_JAR=$(apm_agent_jar) || { echo "apm-e2e: no agent to attach"; exit 1; }
export SCOUTER_AGENT_JAR
echo "agent: $SCOUTER_AGENT_JAR"

echo "== one version everywhere"
check "docker/scouter/Dockerfile defaults to agent $VERSION" grep -q "^ARG SCOUTER_AGENT_VERSION=$VERSION\$" docker/scouter/Dockerfile
check "docker-compose.yml defaults to agent $VERSION" grep -q "SCOUTER_AGENT_VERSION:-$VERSION}" docker-compose.yml

echo "== bad input"
./lab down >/dev/null
check "LAB_APM=bogus ./lab up exits 2 naming LAB_APM, starts nothing" \
  bash -c 'LAB_APM=bogus ./lab up > "$0/bogus.txt" 2>&1; [ $? -eq 2 ] && grep -q "LAB_APM" "$0/bogus.txt"' "$OUT"
check "an agent that cannot be fetched: ./lab up --apm exits 2 naming SCOUTER_AGENT_JAR" \
  bash -c 'env -u SCOUTER_AGENT_JAR SCOUTER_AGENT_VERSION=0.0.0 ./lab up --apm > "$0/no-agent.txt" 2>&1; \
           [ $? -eq 2 ] && grep -q "SCOUTER_AGENT_JAR" "$0/no-agent.txt"' "$OUT"
check "nothing was started" nothing_listening

echo "== the collector's port taken by something else: start-up goes on, the agent is attached anyway"
python3 -c 'import socket,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(__import__("sys").argv[1]))); s.listen(); time.sleep(600)' "$COLLECTOR_PORT" &
dummy=$!
deadline=$((SECONDS + 10)); until ss -ltn | grep -q ":$COLLECTOR_PORT\b" || [ $SECONDS -ge $deadline ]; do sleep 0.2; done
check "./lab up --apm study-service is ready without a collector" bash -c './lab up --apm study-service > "$0/no-collector.log" 2>&1' "$OUT"
check "it said so" grep -q "scouter-server not started" "$OUT/no-collector.log"
check "study-service runs with the agent" bash -c 'tr "\0" " " < /proc/$(cat .lab/study-service.pid)/cmdline | grep -q -- "-javaagent:.*scouter.agent.jar .*-Dobj_name=study-service"'
./lab down > /dev/null; kill "$dummy"; wait "$dummy" 2>/dev/null || true; dummy=
check "./lab down stopped it all" nothing_listening

echo "== ./lab up --apm"
start=$SECONDS
./lab up --apm | tee "$OUT/up.log"
echo "  start-up: $((SECONDS - start)) s"
./lab status > "$OUT/status.txt"
check "./lab status lists the collector and the webapp running" \
  bash -c 'grep -q "^scouter-server .* running" "$0/status.txt" && grep -q "^scouter-webapp .* running" "$0/status.txt"' "$OUT"

echo "== traffic through the gateway: 20 x /api/studies/{id} (study-service), 10 x /login (monolith)"
since=$(( ($(date +%s) - 5) * 1000 ))
for i in $(seq 1 20); do curl -fsS -o /dev/null "$GW/api/studies/$i"; done
for i in $(seq 1 10); do curl -fsS -o /dev/null "$GW/login"; done

# The REST API must list the three objects alive, each with the transactions just sent (xlog-data), and a TPS counter
# above 0 (a rate over the agent's recent window). Object types: the two Spring MVC services are `tomcat`, the
# WebFlux gateway is `java`.
check "REST API: gateway, study-service, monolith alive with the transactions sent (xlog-data) and TPS > 0" \
  python3 ci/scouter_check.py --api "$API" --since "$since" --timeout 60 --out "$OUT" \
    --alive gateway,study-service,monolith \
    --xlogs gateway:/api/studies/:20 --xlogs gateway:/login:10 \
    --xlogs study-service:/api/studies/:20 --xlogs monolith:/login:10 \
    --tps gateway:java --tps study-service:tomcat --tps monolith:tomcat
check "the agent logged its version $VERSION in each service's log" \
  bash -c 'for s in gateway study-service monolith; do grep -q "Version $0" ".lab/logs/$s.log" || exit 1; done' "$VERSION"

echo "== ./lab down"
./lab down
check "nothing left listening (services, collector, webapp)" nothing_listening

echo
if [ $failures -eq 0 ]; then echo "apm-e2e: all checks passed"; else echo "apm-e2e: $failures check(s) failed"; exit 1; fi
