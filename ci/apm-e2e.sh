#!/usr/bin/env bash
# End-to-end check of `./lab up --apm` on real processes: the Scouter agent on gateway, study-service and monolith,
# a local collector and the webapp's REST API (docs/compose.md "Scouter"). Requests go through the gateway; the
# REST API must then list the three objects alive, with transactions recorded by each for the requests sent.
# Also: a bad LAB_APM exits 2, and a port taken where the collector should listen never blocks start-up.
# The agent: SCOUTER_AGENT_JAR, by default the offline stand-in ../shared/scouter/scouter.agent-2.21.2.jar beside the
# clone (CI cannot reach GitHub, where users' `./lab up --apm` downloads the release). Loopback only.
set -euo pipefail
CI_NAME=apm
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
OUT="$CI_ROOT/results/apm-e2e"
rm -rf "$OUT"; mkdir -p "$OUT"
GW=http://127.0.0.1:$(lab_prop service.gateway.port)
COLLECTOR_PORT=$(lab_prop apm.scouter.collector-port)
API=http://127.0.0.1:$(lab_prop apm.scouter.webapp-port)/scouter/v1
VERSION=$(lab_prop apm.scouter.agent-version)
PORTS_RE=":($(lab_ports | tr ' ' '|')|$COLLECTOR_PORT|$(lab_prop apm.scouter.webapp-port))\b"
nothing_listening() { ! ss -ltn | grep -qE "$PORTS_RE"; }
dummy=
cleanup() { ./lab down >/dev/null 2>&1 || true; [ -z "$dummy" ] || kill "$dummy" 2>/dev/null || true; }
trap cleanup EXIT

if [ -z "${SCOUTER_AGENT_JAR:-}" ]; then
  for f in "$CI_ROOT/../shared/scouter/scouter.agent-$VERSION.jar" "/work/shared/scouter/scouter.agent-$VERSION.jar"; do
    [ -f "$f" ] && { SCOUTER_AGENT_JAR=$f; break; }
  done
fi
if [ ! -f "${SCOUTER_AGENT_JAR:-}" ]; then
  echo "apm-e2e: no Scouter agent $VERSION jar: set SCOUTER_AGENT_JAR=<scouter.agent.jar> (the release's agent.java/scouter.agent.jar)"
  exit 1
fi
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

# xlogs: the transactions recorded since $since, one JSON object per line, by the REST API
objects() { curl -fsS --max-time 5 "$API/object" > "$OUT/objects.json"; }
xlogs() {
  local hashes now
  hashes=$(python3 -c 'import json,sys; print(",".join(o["objHash"] for o in json.load(open(sys.argv[1]))["result"]))' "$OUT/objects.json")
  now=$(( ($(date +%s) + 5) * 1000 ))
  curl -fsS --max-time 10 "$API/xlog-data/$(date +%Y%m%d)?startTimeMillis=$since&endTimeMillis=$now&objHashes=$hashes" > "$OUT/xlogs.json"
}
# verdict: exit 0 when the three objects are alive and each recorded the transactions for the requests sent
verdict() {
  python3 - "$OUT/objects.json" "$OUT/xlogs.json" <<'PY'
import json, sys
objects = json.load(open(sys.argv[1]))["result"]
xlogs = json.load(open(sys.argv[2]))["result"]["xlogs"]
name = {o["objHash"]: o["objName"].rsplit("/", 1)[-1] for o in objects}
alive = {name[o["objHash"]] for o in objects if o["alive"]}
count = lambda obj, prefix: sum(1 for x in xlogs if name.get(x["objHash"]) == obj and x["service"].startswith(prefix))
seen = {"gateway /api/studies": count("gateway", "/api/studies/"), "gateway /login": count("gateway", "/login"),
        "study-service /api/studies": count("study-service", "/api/studies/"), "monolith /login": count("monolith", "/login")}
want = {"gateway /api/studies": 20, "gateway /login": 10, "study-service /api/studies": 20, "monolith /login": 10}
print("       alive: %s; transactions: %s" % (sorted(alive), seen))
sys.exit(0 if alive >= {"gateway", "study-service", "monolith"} and all(seen[k] >= want[k] for k in want) else 1)
PY
}
deadline=$((SECONDS + 60)); ok=false
while [ $SECONDS -lt $deadline ]; do
  if objects 2>/dev/null && xlogs 2>/dev/null && verdict > "$OUT/verdict.txt" 2>&1; then ok=true; break; fi
  sleep 2
done
cat "$OUT/verdict.txt" 2>/dev/null || true
check "REST API: gateway, study-service, monolith alive with the transactions sent (xlog-data)" $ok
# TPS: a rate over the agent's recent window, so > 0 right after the requests. The webapp may answer 500 for a few
# seconds after start-up (its object cache lags the collector's), hence the poll. Object types: the two Spring MVC
# services are `tomcat`, the WebFlux gateway is `java`.
tps() {
  { curl -fsS --max-time 5 "$API/counter/realTime/TPS/ofType/tomcat" && echo && \
    curl -fsS --max-time 5 "$API/counter/realTime/TPS/ofType/java" && echo; } > "$OUT/tps.json" && python3 - "$OUT/tps.json" <<'PY'
import json, sys
tps = {}
for line in open(sys.argv[1]):
    if line.strip():
        tps.update({c["objName"].rsplit("/", 1)[-1]: float(c.get("value") or 0) for c in json.loads(line)["result"] if c["name"] == "TPS"})
print("       TPS: %s" % tps)
sys.exit(0 if all(tps.get(s, 0) > 0 for s in ("gateway", "study-service", "monolith")) else 1)
PY
}
deadline=$((SECONDS + 30)); ok=false
while [ $SECONDS -lt $deadline ]; do if tps > "$OUT/tps.txt" 2>&1; then ok=true; break; fi; sleep 2; done
cat "$OUT/tps.txt"
check "REST API: the TPS counter of gateway, study-service and monolith > 0 (counter/realTime/TPS/ofType/tomcat|java)" $ok
check "the agent logged its version $VERSION in each service's log" \
  bash -c 'for s in gateway study-service monolith; do grep -q "Version $0" ".lab/logs/$s.log" || exit 1; done' "$VERSION"

echo "== ./lab down"
./lab down
check "nothing left listening (services, collector, webapp)" nothing_listening

echo
if [ $failures -eq 0 ]; then echo "apm-e2e: all checks passed"; else echo "apm-e2e: $failures check(s) failed"; exit 1; fi
