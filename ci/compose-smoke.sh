#!/usr/bin/env bash
# Air-gapped smoke test of the compose stack (called by .ci/run after ci/provision-docker.sh, which installs Docker
# and Compose and builds the offline base images; runs as root on Debian 12).
#   1 config     docker compose config for every profile, with the offline override when provisioning found no registry;
#                what is published: without docker-compose.direct.yml only the gateway, nginx, Grafana and the tools,
#                every port on 127.0.0.1; with it study-service and the monolith too; the gateway believes
#                X-Forwarded-For from the compose network's subnet alone; no Grafana admin password, no stack
#   2 build      service images from the host jars (*/target/<artifact>.jar)
#                + the profile apm's Scouter images: collector and REST API (scouter-webapp) from Maven Central jars
#                fetched on the host, the agent from apm_agent_jar (ci/lib.sh: SCOUTER_AGENT_JAR, else the release
#                download) — docker/scouter/fetch.sh
#   3 up         docker compose up -d --wait (everything that runs offline: all but grafana), profiles nginx + apm
#   4 checks     grafana provisioning + dashboards (structure), requests through gateway/gateway-mvc/direct/monolith/nginx,
#                APM: 20 x /api/studies/{id} + 10 x /login through the gateway, then ci/scouter_check.py asserts
#                through the webapp's REST API that gateway, study-service and monolith are alive and recorded those
#                transactions, with TPS > 0; bounded load (ab), the load profile (service runner) if runner/target/runner.jar
#                runs, Prometheus targets up, ci/check-dashboards.sh against the stack's Prometheus
#   5 teardown   down -v --remove-orphans, remove the gateway-lab/*:smoke images, stop dockerd if provisioning started it
# Host ports are the standard ones + LAB_SMOKE_PORT_OFFSET (default 20000: 28080, 28081, ..., 29090) so the test
# never collides with apps started by ./lab up. Env: LAB_SMOKE_BUDGET (s, default 1500),
# LAB_SMOKE_KEEP=1 (leave the stack up for a look; tear down later with the printed command),
# LAB_SMOKE_APM=0 (leave out the apm profile: no Scouter images, no agent, no APM checks; default 1),
# LAB_SMOKE_TRACING=0 (leave out the tracing profile: Zipkin, exemplars; ci/compose-smoke-tracing.sh).
# With a registry (LAB_SMOKE_OFFLINE=0) the apm profile takes the users' route: the agent downloaded from GitHub.
set -uo pipefail

CI_NAME=smoke
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROOT=$CI_ROOT
cd "$ROOT" || exit 1
WORK=${LAB_SMOKE_DIR:-$ROOT/target/compose-smoke}
BUDGET=${LAB_SMOKE_BUDGET:-1500}
OFFSET=${LAB_SMOKE_PORT_OFFSET:-20000}
APM=${LAB_SMOKE_APM:-1}
[[ $APM == 0 || $APM == 1 ]] || { echo "compose-smoke: LAB_SMOKE_APM='$APM' is not valid — use 1 (default, with the apm profile) or 0"; exit 2; }
mkdir -p "$WORK"; rm -rf "$WORK/results" "$WORK/compose-logs.txt" "$WORK"/{build,up,down,runner}.log   # only what this script writes
T0=$SECONDS
[[ -f $WORK/provision.env ]] || { echo "compose-smoke: no $WORK/provision.env — run ci/provision-docker.sh first"; exit 2; }
source "$WORK/provision.env"   # LAB_SMOKE_OFFLINE, DOCKERD_PID

export COMPOSE_PROJECT_NAME=gateway-lab-smoke LAB_TAG=smoke LAB_RESULTS_DIR=$WORK/results
export GATEWAY_HOST_PORT=$((8080 + OFFSET)) STUDY_SERVICE_HOST_PORT=$((8081 + OFFSET)) MONOLITH_HOST_PORT=$((8082 + OFFSET))
export GATEWAY_MVC_HOST_PORT=$((8085 + OFFSET)) GATEWAY_MVC_MANAGEMENT_HOST_PORT=$((9085 + OFFSET))
export GATEWAY_MANAGEMENT_HOST_PORT=$((9080 + OFFSET)) STUDY_SERVICE_MANAGEMENT_HOST_PORT=$((9081 + OFFSET))
export MONOLITH_MANAGEMENT_HOST_PORT=$((9082 + OFFSET)) PROMETHEUS_HOST_PORT=$((9090 + OFFSET)) NGINX_HOST_PORT=$((8090 + OFFSET))
export GRAFANA_HOST_PORT=$((3000 + OFFSET)) SCOUTER_HOST_PORT=$((6100 + OFFSET)) SCOUTER_WEBAPP_HOST_PORT=$((6188 + OFFSET))
# A subnet of its own (not the default 172.30.80.0/24), so that a user's own stack may run beside the test;
# the loopback default of LAB_BIND_ADDRESS; Grafana's admin password, which the compose file asks for (no default).
export LAB_SUBNET=${LAB_SMOKE_SUBNET:-172.30.99.0/24}
unset LAB_BIND_ADDRESS GATEWAY_TRUSTED_PROXIES
GRAFANA_ADMIN_PASSWORD=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n'); export GRAFANA_ADMIN_PASSWORD
SCOUTER_API=http://127.0.0.1:$SCOUTER_WEBAPP_HOST_PORT/scouter/v1
source ci/compose-smoke-tracing.sh   # profile tracing: tracing_config, tracing_build, tracing_checks
PROM=http://127.0.0.1:$PROMETHEUS_HOST_PORT
# Containers cannot get more open files than dockerd's hard limit (20000 on the CI machines, not 65535).
hard_nofile=$(ulimit -Hn); [[ $hard_nofile == unlimited ]] && hard_nofile=65535
export LAB_NOFILE=${LAB_NOFILE:-$(( hard_nofile < 65535 ? hard_nofile : 65535 ))}

STAGES=() NOTES=() COMPOSE_FILES=(-f docker-compose.yml -f docker-compose.direct.yml) SERVICES=() PROFILES=(--profile nginx)
left() { echo $((BUDGET - (SECONDS - T0))); }
# stage <name> <function>: runs it, records PASS/FAIL and the seconds it took; later stages are skipped after a FAIL.
stage() {
  local name=$1 fn=$2 start=$SECONDS rc
  if [[ -n $FAILED ]]; then STAGES+=("$(printf '%-10s %-5s %5s' "$name" SKIP -)"); return 0; fi
  if (( $(left) < 60 )); then
    fail "time budget of ${BUDGET}s used up before stage $name"; STAGES+=("$(printf '%-10s %-5s %5s' "$name" FAIL -)"); return 0
  fi
  log "== $name"
  "$fn"; rc=$?
  [[ $rc -eq 0 ]] || { [[ -n $FAILED ]] || FAILED="stage $name"; }
  STAGES+=("$(printf '%-10s %-5s %4ss' "$name" "$([[ $rc -eq 0 ]] && echo PASS || echo FAIL)" $((SECONDS - start)))")
}
dc() { docker compose "${COMPOSE_FILES[@]}" "${PROFILES[@]}" "$@"; }
dct() { local secs=$1; shift; timeout "$secs" docker compose "${COMPOSE_FILES[@]}" "${PROFILES[@]}" "$@"; }   # dc with a time limit

# ---------------------------------------------------------------- 1 config
config() {
  if [[ $LAB_SMOKE_OFFLINE == 1 ]]; then
    log "no container registry: offline base images (docker-compose.offline.yml)"
    COMPOSE_FILES+=(-f docker-compose.offline.yml)
    SERVICES=(postgres study-service monolith gateway gateway-mvc prometheus nginx)
    # promtool of the same Prometheus 3 (built by provisioning): the dashboards check parses every query with it
    local promtool_dir
    promtool_dir=$(docker/offline/prometheus.sh 2>/dev/null) && export PATH=$promtool_dir:$PATH \
      && log "promtool $(promtool --version 2>/dev/null | head -n1 | awk '{print $3}') for the dashboards' PromQL syntax"
  else
    log "registry reachable: public images, app images built from source"
    SERVICES=(postgres study-service monolith gateway gateway-mvc prometheus nginx grafana)
  fi
  if [[ $APM == 1 ]]; then
    PROFILES+=(--profile apm); SERVICES+=(scouter-agent scouter-server scouter-webapp)
  else
    NOTES+=("apm profile (Scouter) NOT run — LAB_SMOKE_APM=0")
  fi
  tracing_config
  dc --profile apm --profile load --profile tracing config -q || { fail "compose config (all profiles) invalid"; return 1; }
  publication
}
# What the compose files publish, read from `docker compose config` (every profile): the policy of docs/compose.md.
publication() {
  local base=(-f docker-compose.yml) out ok=0
  [[ ${COMPOSE_FILES[*]} == *offline* ]] && base+=(-f docker-compose.offline.yml)
  out=$(env -u GRAFANA_ADMIN_PASSWORD docker compose --env-file /dev/null "${base[@]}" config -q 2>&1) \
    && { log "  compose config passed without GRAFANA_ADMIN_PASSWORD"; ok=1; }
  grep -q "GRAFANA_ADMIN_PASSWORD" <<< "$out" || { log "  no word of GRAFANA_ADMIN_PASSWORD when it is missing: $out"; ok=1; }
  docker compose "${base[@]}" --profile '*' config --format json > "$WORK/config.json" \
    && docker compose "${COMPOSE_FILES[@]}" --profile '*' config --format json > "$WORK/config-direct.json" \
    && python3 ci/compose_publication.py "$WORK/config.json" "$WORK/config-direct.json" || ok=1
  [[ $ok -eq 0 ]] || fail "compose publication policy (docs/compose.md)"
  return $ok
}

# ---------------------------------------------------------------- 2 build
RUNNER=false
# Offline route of the apm profile: host.Dockerfile copies docker/scouter/dist/{server,webapp}/lib (Maven Central) and
# dist/agent/scouter.agent.jar (the stand-in for the GitHub release); fetch.sh reuses what it fetched before.
scouter_files() {
  [[ ${COMPOSE_FILES[*]} == *offline* ]] || return 0   # online: docker/scouter/Dockerfile downloads the release itself
  local jar
  jar=$(apm_agent_jar) || { fail "no Scouter agent jar for the apm profile (or LAB_SMOKE_APM=0 to leave it out)"; return 1; }
  log "Scouter agent: $jar (stand-in for scouter-all-$(lab_prop apm.scouter.agent-version).tar.gz)"
  SCOUTER_AGENT_JAR=$jar timeout 600 docker/scouter/fetch.sh docker/scouter/dist > "$WORK/scouter-fetch.log" 2>&1 \
    || { tail -n 20 "$WORK/scouter-fetch.log"; fail "docker/scouter/fetch.sh docker/scouter/dist"; return 1; }
}
build() {
  local m targets=(study-service monolith gateway gateway-mvc)
  if [[ ${COMPOSE_FILES[*]} == *offline* ]]; then
    for m in "${targets[@]}"; do
      [[ -f $m/target/$m.jar ]] || { fail "$m/target/$m.jar missing: run ./mvnw -B package first"; return 1; }
    done
  fi
  if [[ $APM == 1 ]]; then targets+=(scouter-agent scouter-server scouter-webapp); scouter_files || return 1; fi
  tracing_build || return 1
  # the load profile runs when the runner jar is runnable (java -jar ... --help) and plans exist
  if compgen -G 'jmeter/plans/*.jmx' >/dev/null && timeout 60 java -jar runner/target/runner.jar --help >/dev/null 2>&1; then
    RUNNER=true; targets+=(runner); PROFILES+=(--profile load)
  else
    log "no runnable runner/target/runner.jar or no jmeter/plans/*.jmx: the load profile is not run"
    NOTES+=("load profile (runner in a container) NOT run — no runnable runner/target/runner.jar or plans")
  fi
  dct "$(( $(left) - 240 ))" build "${targets[@]}" > "$WORK/build.log" 2>&1 \
    || { tail -n 30 "$WORK/build.log"; fail "docker compose build"; return 1; }
  docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E '^gateway-lab/.*:smoke' | sed 's/^/  /'
}

# ---------------------------------------------------------------- 3 up
UP_SECONDS=
up() {
  local p busy=()
  for p in $GATEWAY_HOST_PORT $STUDY_SERVICE_HOST_PORT $MONOLITH_HOST_PORT $GATEWAY_MANAGEMENT_HOST_PORT $STUDY_SERVICE_MANAGEMENT_HOST_PORT \
           $MONOLITH_MANAGEMENT_HOST_PORT $GATEWAY_MVC_HOST_PORT $GATEWAY_MVC_MANAGEMENT_HOST_PORT $PROMETHEUS_HOST_PORT $NGINX_HOST_PORT $GRAFANA_HOST_PORT \
           $( [[ $APM == 1 ]] && echo "$SCOUTER_HOST_PORT $SCOUTER_WEBAPP_HOST_PORT" ) $( [[ $TRACING == 1 ]] && echo "$ZIPKIN_HOST_PORT" ); do
    ss -Hltn "sport = :$p" | grep -q . && busy+=("$p")
  done
  [[ ${#busy[@]} -eq 0 ]] || { fail "host ports in use: ${busy[*]} (set LAB_SMOKE_PORT_OFFSET)"; return 1; }
  local start=$SECONDS
  if ! dct "${LAB_SMOKE_UP_TIMEOUT:-300}" up -d --wait "${SERVICES[@]}" > "$WORK/up.log" 2>&1; then
    tail -n 20 "$WORK/up.log"; dc ps -a; dc logs --no-color --tail 40 > "$WORK/compose-logs.txt" 2>&1
    log "container logs: $WORK/compose-logs.txt"; fail "compose up --wait"; return 1
  fi
  UP_SECONDS=$((SECONDS - start))
  log "all healthy in ${UP_SECONDS} s (target: 90 s)"
  dc ps --format 'table {{.Service}}\t{{.Status}}\t{{.Ports}}'
}

# ---------------------------------------------------------------- 4 checks
expect() {   # expect <description> <expected status> <url> [grep pattern] [extra curl args...]
  local what=$1 want=$2 url=$3 pattern=${4:-} body status
  body=$(mktemp)
  status=$(curl -s -o "$body" -D "$body.h" -w '%{http_code}' --max-time 10 "${@:5}" "$url") || status=000
  if [[ $status != "$want" ]] || { [[ -n $pattern ]] && ! grep -qiE -- "$pattern" "$body" "$body.h"; }; then
    log "  $what: $url -> $status (want $want${pattern:+ and /$pattern/})"; head -c 300 "$body"; echo
    rm -f "$body" "$body.h"; return 1
  fi
  log "  ok  $what ($status)"; rm -f "$body" "$body.h"
}
requests() {
  local gw=http://127.0.0.1:$GATEWAY_HOST_PORT ok=0
  expect "gateway -> study-service" 200 "$gw/api/studies/1" '"id":1,' || ok=1
  expect "gateway sets X-Request-Id" 200 "$gw/api/studies/2" '^x-request-id:' || ok=1
  expect "gateway -> monolith login page" 200 "$gw/login" 'name="_csrf"' || ok=1
  expect "study-service direct" 200 "http://127.0.0.1:$STUDY_SERVICE_HOST_PORT/api/studies/1" '"id":1,' || ok=1
  expect "monolith direct" 200 "http://127.0.0.1:$MONOLITH_HOST_PORT/api/studies/1" '"id":1,' || ok=1
  expect "nginx -> study-service" 200 "http://127.0.0.1:$NGINX_HOST_PORT/api/studies/1" '"id":1,' || ok=1
  expect "unknown study is 404 problem+json" 404 "$gw/api/studies/999999999" 'application/problem\+json' || ok=1
  expect "no actuator on the public port" 404 "$gw/actuator/health" || ok=1
  expect "gateway metrics on management port" 200 "http://127.0.0.1:$GATEWAY_MANAGEMENT_HOST_PORT/actuator/prometheus" 'application="gateway"' || ok=1
  local mvc=http://127.0.0.1:$GATEWAY_MVC_HOST_PORT
  expect "gateway-mvc -> study-service" 200 "$mvc/api/studies/1" '"id":1,' || ok=1
  expect "gateway-mvc sets X-Request-Id" 200 "$mvc/api/studies/2" '^x-request-id:' || ok=1
  expect "gateway-mvc -> monolith login page" 200 "$mvc/login" 'name="_csrf"' || ok=1
  expect "gateway-mvc: unknown study is 404 problem+json" 404 "$mvc/api/studies/999999999" 'application/problem\+json' || ok=1
  expect "gateway-mvc metrics on management port" 200 "http://127.0.0.1:$GATEWAY_MVC_MANAGEMENT_HOST_PORT/actuator/prometheus" 'application="gateway-mvc"' || ok=1
  if [[ " ${SERVICES[*]} " == *" grafana "* ]]; then   # online only: no Grafana stand-in offline
    local grafana=http://127.0.0.1:$GRAFANA_HOST_PORT
    expect "grafana: admin logs in with GRAFANA_ADMIN_PASSWORD" 200 "$grafana/api/user" '"login":"admin"' -u "admin:$GRAFANA_ADMIN_PASSWORD" || ok=1
    expect "grafana: no anonymous viewer" 401 "$grafana/api/search" || ok=1
  fi
  [[ $ok -eq 0 ]] || fail "request checks"
}
apm() {   # the compose apm profile end to end: agent attached on the three JVMs, transactions in the REST API
  [[ $APM == 1 ]] || return 0
  local gw=http://127.0.0.1:$GATEWAY_HOST_PORT s i since ok=0
  for s in gateway study-service monolith; do
    # grep -c reads it all: grep -q would stop the pipe early, and pipefail would count docker's SIGPIPE as a failure
    [[ $(dc logs --no-color "$s" 2>&1 | grep -c "app-entrypoint: Scouter agent attached (obj_name=$s,") -gt 0 ]] \
      || { log "  $s: the entrypoint did not attach the Scouter agent"; ok=1; }
  done
  since=$(date +%s%3N)   # the containers share the host's clock
  for i in $(seq 1 20); do curl -fsS -o /dev/null --max-time 10 "$gw/api/studies/$i" || ok=1; done
  for i in $(seq 1 10); do curl -fsS -o /dev/null --max-time 10 "$gw/login" || ok=1; done
  log "  sent 20 x /api/studies/{id} + 10 x /login through the gateway; asking $SCOUTER_API"
  python3 ci/scouter_check.py --api "$SCOUTER_API" --since "$since" --timeout 60 --out "$WORK/results/scouter" \
    --alive gateway,study-service,monolith \
    --xlogs gateway:/api/studies/:20 --xlogs gateway:/login:10 \
    --xlogs study-service:/api/studies/:20 --xlogs monolith:/login:10 \
    --tps gateway:java --tps study-service:tomcat --tps monolith:tomcat || ok=1
  [[ $ok -eq 0 ]] || fail "apm profile: Scouter objects alive and transactions recorded (results/scouter in $WORK)"
}
grafana_files() {
  if [[ -x ci/check-dashboards.sh ]]; then
    ci/check-dashboards.sh --structure-only || { fail "grafana provisioning/dashboards"; return 1; }
  else log "SKIP: ci/check-dashboards.sh not present"; fi
}
load() {   # bounded: ab with 4 connections per target, stops at n requests or 15 s, whichever comes first; plus the runner
  local target name url port n out completed failed non2xx rps ok=0 runner=
  if $RUNNER; then   # in the background, so its run overlaps the ab load and one Prometheus instant sees both
    log "  load profile: lab bench in a container ($WORK/runner.log)"
    LAB_BENCH_ARGS=${LAB_SMOKE_BENCH_ARGS:---quick --repetitions 1 --warmup 2 --duration 6 --threads 4 --targets gateway,direct,monolith} \
      dct 300 run --rm -T --use-aliases runner > "$WORK/runner.log" 2>&1 &
    runner=$!
  fi
  for target in "gateway-login-page /login $GATEWAY_HOST_PORT 300" "gateway /api/studies/1 $GATEWAY_HOST_PORT 1500" \
                "gateway-mvc /api/studies/1 $GATEWAY_MVC_HOST_PORT 1500" \
                "direct /api/studies/1 $STUDY_SERVICE_HOST_PORT 1500" "monolith /api/studies/1 $MONOLITH_HOST_PORT 1500" \
                "nginx /api/studies/1 $NGINX_HOST_PORT 1500"; do
    read -r name url port n <<< "$target"
    # -l: the login page differs per request (CSRF token), so length changes are not failures.
    # No -k: ab's keep-alive is HTTP/1.0, which Reactor Netty answers without a length, so ab waits for a close.
    out=$(timeout 40 ab -q -l -t 15 -n "$n" -c 4 -s 10 "http://127.0.0.1:$port$url" 2>&1)
    completed=$(awk '/^Complete requests:/ {print $3}' <<< "$out"); rps=$(awk '/^Requests per second:/ {print $4}' <<< "$out")
    failed=$(awk '/^Failed requests:/ {print $3}' <<< "$out"); non2xx=$(awk '/^Non-2xx responses:/ {print $3}' <<< "$out")
    log "  $name: ${completed:-?} requests, ${rps:-?} req/s, failed ${failed:-?}, non-2xx ${non2xx:-0}"
    [[ ${completed:-0} -gt 0 && ${failed:-x} == 0 && ${non2xx:-0} == 0 ]] || { ok=1; tail -n 5 <<< "$out"; }
  done
  if [[ -n $runner ]]; then
    if wait "$runner"; then
      grep -E '^\|' "$WORK/runner.log" | sed 's/^/    /'   # the runner's result table
      find "$LAB_RESULTS_DIR" -maxdepth 2 -mindepth 1 -name 'report.*' | sed 's/^/    results: /'
    else
      tail -n 30 "$WORK/runner.log"; ok=1; log "  load profile run failed (log: $WORK/runner.log)"
    fi
  fi
  [[ $ok -eq 0 ]] || fail "load"
}
prom_query() { curl -fsS --max-time 5 --data-urlencode "query=$1" "$PROM/api/v1/query"; }
targets() {
  local deadline=$((SECONDS + 30)) states
  while :; do
    states=$(curl -fsS --max-time 5 "$PROM/api/v1/targets" | python3 -c '
import json, sys
for t in json.load(sys.stdin)["data"]["activeTargets"]:
    print(t["labels"]["job"], t["health"], t.get("lastError", "") or "-")') || states=
    if grep -qE '^gateway up' <<< "$states" && grep -qE '^gateway-mvc up' <<< "$states" \
       && grep -qE '^study-service up' <<< "$states" && grep -qE '^monolith up' <<< "$states"; then break; fi
    (( SECONDS < deadline )) || { sed 's/^/  /' <<< "$states"; fail "Prometheus targets gateway/gateway-mvc/study-service/monolith not all up"; return 1; }
    sleep 2
  done
  sed 's/^/  target: /' <<< "$states"
  if $RUNNER; then   # the runner's endpoint only lives during a run: it must have been scraped while it ran
    prom_query 'max_over_time(up{job="runner"}[15m])' | grep -q '"1"\]' \
      || { fail "Prometheus never scraped the runner (job runner) while it ran"; return 1; }
    log "  the runner (job runner) was scraped during its run (its endpoint lives only while a run is on)"
  fi
}
dashboards() {
  if [[ ! -x ci/check-dashboards.sh ]]; then log "SKIP: ci/check-dashboards.sh not present"; return 0; fi
  if $RUNNER; then   # evaluated at the runner's last scrape, when every service was under its load too
    ci/check-dashboards.sh --time last-run "$PROM" || fail "dashboard queries without data"
  else
    NOTES+=("dashboards: the runner's queries (runner_*, job runner) NOT checked — no runnable runner/target/runner.jar")
    ci/check-dashboards.sh --without-runner "$PROM" || fail "dashboard queries without data"
  fi
}
checks() {
  local ok=0
  grafana_files || ok=1
  requests || ok=1
  apm || ok=1       # before the load, so the transactions counted are the ones it sent
  tracing_checks || ok=1
  load || ok=1
  targets || ok=1
  dashboards || ok=1
  return $ok
}

# ---------------------------------------------------------------- 5 teardown (also on failure, via trap)
TORN=false
teardown() {
  $TORN && return 0; TORN=true
  if [[ ${LAB_SMOKE_KEEP:-0} == 1 && -z ${FORCE_TEARDOWN:-} ]]; then
    log "LAB_SMOKE_KEEP=1: stack left up. Tear down: COMPOSE_PROJECT_NAME=$COMPOSE_PROJECT_NAME docker compose ${COMPOSE_FILES[*]} --profile '*' down -v --remove-orphans"
    return 0
  fi
  if command -v docker >/dev/null && timeout 5 docker info >/dev/null 2>&1; then
    [[ -z $FAILED ]] || { timeout 30 docker compose "${COMPOSE_FILES[@]}" logs --no-color --tail 200 > "$WORK/compose-logs.txt" 2>&1
                          log "container logs: $WORK/compose-logs.txt"; }
    timeout 120 docker compose "${COMPOSE_FILES[@]}" --profile '*' down -v --remove-orphans > "$WORK/down.log" 2>&1 || log "down failed (see $WORK/down.log)"
    docker image ls -q --filter "reference=gateway-lab/*:smoke" | sort -u | xargs -r docker image rm -f > /dev/null 2>&1
    docker image prune -f > /dev/null 2>&1   # dangling layers of the images just removed; lab-* stay cached
  fi
  if [[ -n ${DOCKERD_PID:-} ]]; then   # provisioning started it for this CI run
    kill "$DOCKERD_PID" 2>/dev/null
    local deadline=$((SECONDS + 30))
    while kill -0 "$DOCKERD_PID" 2>/dev/null && (( SECONDS < deadline )); do sleep 1; done
  fi
}
summary() {
  local rc=$?
  local start=$SECONDS; teardown
  STAGES+=("$(printf '%-10s %-5s %4ss' teardown 'done' $((SECONDS - start)))")
  echo
  echo "================ compose smoke test ================"
  printf '  %s\n' "${STAGES[@]}"
  echo "  total      $((SECONDS - T0)) s (budget ${BUDGET} s); compose up --wait: ${UP_SECONDS:-n/a} s"
  [[ ${#NOTES[@]} -eq 0 ]] || printf '  note: %s\n' "${NOTES[@]}"
  if [[ -z $FAILED && $rc -eq 0 ]]; then echo "RESULT: PASS"; exit 0; fi
  echo "RESULT: FAIL — ${FAILED:-exit $rc} (logs in $WORK)"; exit 1
}
trap summary EXIT
trap 'FAILED=${FAILED:-interrupted}; exit 1' INT TERM

stage config config
stage build build
stage up up
stage checks checks
[[ -z $FAILED ]]
