# The compose `tracing` profile in the smoke test (sourced by ci/compose-smoke.sh, which calls these functions):
#   tracing_config   the profile and the zipkin service, the three apps traced at 100 % (TRACING_ENABLED=true)
#   tracing_build    offline: the stand-in image's jar, docker/zipkin/fetch.sh docker/zipkin/dist (Maven Central, or
#                    ZIPKIN_JAR); online: the public openzipkin/zipkin image
#   tracing_checks   requests through the gateway; Prometheus's /api/v1/query_exemplars must return an exemplar on the
#                    gateway's latency histogram whose trace id Zipkin's /api/v2/trace/{id} knows (gateway spans in it)
# The Grafana side (Zipkin data source, the exemplar link) is checked with the other provisioning files
# (ci/check-dashboards.sh --structure-only). LAB_SMOKE_TRACING=0 leaves the profile out (default 1).
TRACING=${LAB_SMOKE_TRACING:-1}
[[ $TRACING == 0 || $TRACING == 1 ]] || { echo "compose-smoke: LAB_SMOKE_TRACING='$TRACING' is not valid — use 1 (default) or 0"; exit 2; }
export ZIPKIN_HOST_PORT=$((9411 + OFFSET))

tracing_config() {
  if [[ $TRACING == 0 ]]; then NOTES+=("tracing profile (Zipkin) NOT run — LAB_SMOKE_TRACING=0"); return 0; fi
  PROFILES+=(--profile tracing); SERVICES+=(zipkin)
  export TRACING_ENABLED=true TRACING_SAMPLING_PROBABILITY=1.0
}

tracing_build() {   # adds zipkin to the caller's build targets (offline)
  [[ $TRACING == 1 && ${COMPOSE_FILES[*]} == *offline* ]] || return 0
  timeout 700 docker/zipkin/fetch.sh docker/zipkin/dist > "$WORK/zipkin-fetch.log" 2>&1 \
    || { tail -n 20 "$WORK/zipkin-fetch.log"; fail "docker/zipkin/fetch.sh docker/zipkin/dist"; return 1; }
  targets+=(zipkin)
}

tracing_checks() {
  [[ $TRACING == 1 ]] || return 0
  local gw=http://127.0.0.1:$GATEWAY_HOST_PORT i
  for i in $(seq 1 20); do curl -fsS -o /dev/null --max-time 10 "$gw/api/studies/$i" || { fail "tracing: gateway request $i"; return 1; }; done
  python3 - "$PROM" "http://127.0.0.1:$ZIPKIN_HOST_PORT" <<'EOF' || { fail "tracing: exemplar → Zipkin trace"; return 1; }
import json, sys, time, urllib.parse, urllib.request
prom, zipkin = sys.argv[1:]
def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)
query = 'spring_cloud_gateway_requests_seconds_bucket{application="gateway"}'
deadline, last = time.time() + 60, "no answer yet"
while time.time() < deadline:   # a scrape every 5 s; Zipkin indexes spans within a second or two
    now = time.time()
    try:
        series = get(f"{prom}/api/v1/query_exemplars?" + urllib.parse.urlencode(
            {"query": query, "start": now - 300, "end": now}))["data"]
        ids = [e["labels"]["trace_id"] for s in series for e in s.get("exemplars", []) if "trace_id" in e.get("labels", {})]
        for trace in reversed(ids):
            try:
                spans = get(f"{zipkin}/api/v2/trace/{trace}")
            except OSError:   # 404: not (yet) in Zipkin
                continue
            if any(s.get("localEndpoint", {}).get("serviceName") == "gateway" for s in spans):
                print(f"  ok  exemplar trace_id {trace}: {len(spans)} spans in Zipkin")
                sys.exit(0)
        last = f"{len(ids)} exemplar(s), none known to Zipkin yet"
    except (OSError, KeyError, ValueError) as e:
        last = repr(e)
    time.sleep(2)
print(f"  no exemplar of {query} whose trace Zipkin knows within 60 s: {last}")
sys.exit(1)
EOF
}
