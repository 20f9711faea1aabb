#!/usr/bin/env bash
# wrk against direct study-service, the gateway and a local nginx reverse proxy — the same request, interleaved
# rounds, and the CPU each process spent per request. A measurement script, not a CI gate. See --help.
set -euo pipefail

BENCH_NAME=wrk-compare
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   # ROOT, die, the ports of lab.properties
WARMUP=20 ROUNDS=3 DURATION=10 CONNECTIONS=32 THREADS=1 REQ_PATH=/api/studies/42 NGINX_PORT=18090
TARGETS=direct,gateway,nginx
EXTRA=()

usage() {
  cat <<EOF
Usage: bench/wrk-compare.sh [options]

Runs wrk (1 thread, 32 keep-alive connections, GET $REQ_PATH by default) against
  direct   study-service   http://127.0.0.1:$STUDY_SERVICE_PORT
  gateway  our gateway     http://127.0.0.1:$GATEWAY_PORT
  nginx    nginx 1 worker, upstream keepalive 64 -> 127.0.0.1:$STUDY_SERVICE_PORT, started by this script on
           127.0.0.1:$NGINX_PORT with its own temporary config, stopped on exit
Each target is warmed up first, then measured in N interleaved rounds (direct, gateway, nginx, direct, ...).
Prints per target: req/s, p50, p99, ratio to direct (per round, same round's direct), and the CPU per request
(utime+stime from /proc/<pid>/stat before/after each round ÷ requests) of the proxy and of study-service.
Loopback only; every wrk call is bounded by 'timeout'.

Start the apps first:  ./lab up study-service gateway   (pid files .lab/<service>.pid give the pids)

Options:
  --warmup S         warm-up seconds per target before the rounds (default $WARMUP)
  --rounds N         interleaved measured rounds (default $ROUNDS)
  --duration S       seconds per round and target (default $DURATION)
  --connections C    wrk connections (default $CONNECTIONS)
  --threads T        wrk threads (default $THREADS)
  --path P           request path (default $REQ_PATH)
  --targets LIST     comma-separated subset of direct,gateway,nginx (default $TARGETS)
  --nginx-port P     loopback port for the temporary nginx (default $NGINX_PORT)
  --extra NAME=PORT:PIDFILE
                     one more target on 127.0.0.1:PORT whose CPU is read from PIDFILE (repeatable), e.g. a
                     second gateway started with other settings (bench/gateway-ab.sh uses this)
  -h, --help         this text

Upper bound of the wall time: targets × (warm-up + rounds × (duration + 10 s)).
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --warmup) WARMUP=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --connections) CONNECTIONS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --path) REQ_PATH=$2; shift 2 ;;
    --targets) TARGETS=$2; shift 2 ;;
    --nginx-port) NGINX_PORT=$2; shift 2 ;;
    --extra) EXTRA+=("$2"); shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
  esac
done
for n in "$WARMUP" "$ROUNDS" "$DURATION" "$CONNECTIONS" "$THREADS" "$NGINX_PORT"; do
  [[ "$n" =~ ^[0-9]+$ ]] || die "'$n' is not a whole number"
done
[ "$ROUNDS" -ge 1 ] && [ "$DURATION" -ge 1 ] || die "--rounds and --duration must be at least 1"

command -v wrk >/dev/null || die "wrk not found — apt-get install wrk"
command -v curl >/dev/null || die "curl not found — apt-get install curl"

# name -> port, name -> file holding the pid of the process whose CPU we charge as "proxy"
declare -A PORT PIDFILE
PORT[direct]=$STUDY_SERVICE_PORT; PIDFILE[direct]=""
PORT[gateway]=$GATEWAY_PORT; PIDFILE[gateway]="$ROOT/.lab/gateway.pid"
PORT[nginx]=$NGINX_PORT
ORDER=()
IFS=, read -r -a wanted <<<"$TARGETS"
for t in "${wanted[@]}"; do
  case "$t" in direct|gateway|nginx) ORDER+=("$t") ;; *) die "unknown target '$t' — use direct, gateway, nginx or --extra" ;; esac
done
for e in "${EXTRA[@]+"${EXTRA[@]}"}"; do
  [[ "$e" =~ ^([A-Za-z0-9._-]+)=([0-9]+):(.+)$ ]] || die "--extra '$e': expected NAME=PORT:PIDFILE"
  PORT[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}; PIDFILE[${BASH_REMATCH[1]}]=${BASH_REMATCH[3]}
  ORDER+=("${BASH_REMATCH[1]}")
done
[[ " ${ORDER[*]} " == *" direct "* ]] || echo "wrk-compare: note — without 'direct' there is no ratio column" >&2

pid_of() { local f=$1 p; [ -n "$f" ] && [ -f "$f" ] && p=$(cat "$f") && [ -d "/proc/$p" ] && echo "$p"; }

# The apps must be up: we never start them (that is ./lab up's job).
require_answer study-service "http://127.0.0.1:$STUDY_SERVICE_PORT$REQ_PATH" "./lab up study-service gateway"
UPSTREAM_PID=$(pid_of "$ROOT/.lab/study-service.pid" || true)
[ -n "$UPSTREAM_PID" ] || echo "wrk-compare: note — no live pid in .lab/study-service.pid, upstream CPU not shown" >&2
for t in "${ORDER[@]}"; do
  [ "$t" = nginx ] || [ "$t" = direct ] && continue
  curl -fs -o /dev/null --max-time 3 "http://127.0.0.1:${PORT[$t]}$REQ_PATH" \
    || die "$t does not answer http://127.0.0.1:${PORT[$t]}$REQ_PATH — start it: ./lab up study-service gateway"
  [ -n "$(pid_of "${PIDFILE[$t]}" || true)" ] || die "$t answers but ${PIDFILE[$t]} holds no live pid — was it started with ./lab up?"
done

WORK=$(mktemp -d /tmp/wrk-compare.XXXXXX)
NGINX_PID=""
cleanup() {
  if [ -n "$NGINX_PID" ] && kill -0 "$NGINX_PID" 2>/dev/null; then
    kill -QUIT "$NGINX_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$NGINX_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [[ " ${ORDER[*]} " == *" nginx "* ]]; then
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || die "nginx not found — apt-get install nginx, or --targets direct,gateway"
  NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
  (exec 3<>"/dev/tcp/127.0.0.1/$NGINX_PORT") 2>/dev/null && die "port $NGINX_PORT is taken — pick another with --nginx-port"
  mkdir -p "$WORK/nginx/logs"; chmod 755 "$WORK" "$WORK/nginx"
  cat >"$WORK/nginx/nginx.conf" <<EOF
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx/body; proxy_temp_path $WORK/nginx/proxy;
  fastcgi_temp_path $WORK/nginx/fastcgi; uwsgi_temp_path $WORK/nginx/uwsgi; scgi_temp_path $WORK/nginx/scgi;
  upstream study_service { server 127.0.0.1:$STUDY_SERVICE_PORT; keepalive 64; }
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location / {
      proxy_pass http://study_service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
    }
  }
}
EOF
  "$NGINX_BIN" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' 2>"$WORK/nginx/logs/stderr" &
  NGINX_PID=$!
  for _ in $(seq 50); do curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:$NGINX_PORT$REQ_PATH" 2>/dev/null && break; sleep 0.1; done
  curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$NGINX_PORT$REQ_PATH" \
    || { cat "$WORK/nginx/logs/stderr" "$WORK/nginx/logs/error.log" >&2 2>/dev/null; die "the temporary nginx did not come up on :$NGINX_PORT"; }
fi

# utime+stime in clock ticks of a pid and its children threads (nginx: master + workers).
ticks() {
  local total=0 p line
  for p in "$@"; do
    [ -r "/proc/$p/stat" ] || continue
    line=$(cat "/proc/$p/stat"); line=${line##*) }
    # after "pid (comm) ": field 3 is state, so utime (field 14) and stime (15) are the 12th and 13th here
    read -r -a f <<<"$line"
    total=$((total + f[11] + f[12]))
  done
  echo "$total"
}
proxy_pids() {
  case "$1" in
    direct) ;;
    nginx) echo "$NGINX_PID"; pgrep -P "$NGINX_PID" || true ;;
    *) pid_of "${PIDFILE[$1]}" || true ;;
  esac
}
HZ=$(getconf CLK_TCK)

# "1.23ms" -> milliseconds
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /m$/) n *= 60000; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'; }

run_wrk() { # target seconds -> "reqs rps p50ms p99ms proxyUs upstreamUs"
  local t=$1 secs=$2 out pids up0 up1 px0 px1 reqs rps p50 p99
  read -r -a pids <<<"$(proxy_pids "$t" | tr '\n' ' ')"
  px0=$(ticks "${pids[@]+"${pids[@]}"}"); up0=$(ticks ${UPSTREAM_PID:+"$UPSTREAM_PID"})
  out=$(timeout $((secs + 10)) wrk -t"$THREADS" -c"$CONNECTIONS" -d"${secs}s" --latency "http://127.0.0.1:${PORT[$t]}$REQ_PATH") \
    || die "wrk against $t failed or timed out"
  px1=$(ticks "${pids[@]+"${pids[@]}"}"); up1=$(ticks ${UPSTREAM_PID:+"$UPSTREAM_PID"})
  if grep -q "Non-2xx\|Socket errors" <<<"$out"; then echo "wrk-compare: $t: $(grep 'Non-2xx\|Socket errors' <<<"$out" | xargs)" >&2; fi
  reqs=$(awk '/requests in/ {print $1}' <<<"$out")
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  p50=$(to_ms "$(awk '$1 == "50%" {print $2}' <<<"$out")")
  p99=$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")
  awk -v r="$reqs" -v hz="$HZ" -v px=$((px1 - px0)) -v up=$((up1 - up0)) -v haspx="${#pids[@]}" -v hasup="${UPSTREAM_PID:+1}" \
    -v rps="$rps" -v p50="$p50" -v p99="$p99" \
    'BEGIN { printf "%d %.1f %s %s %s %s\n", r, rps, p50, p99,
             (haspx > 0 && r > 0) ? sprintf("%.1f", px * 1e6 / hz / r) : "-",
             (hasup && r > 0) ? sprintf("%.1f", up * 1e6 / hz / r) : "-" }'
}

echo "wrk-compare: ${ORDER[*]} — wrk -t$THREADS -c$CONNECTIONS GET $REQ_PATH, warm-up ${WARMUP}s each, $ROUNDS × ${DURATION}s interleaved"
# The JDK each running app uses (./lab picks it: LAB_JAVA_HOME or the newest JDK 21+), from its process.
app_jdk() {
  local pid exe
  pid=$(pid_of "$ROOT/.lab/$1.pid" || true); [ -n "$pid" ] || { echo "$1 not running"; return; }
  exe=$(readlink -f "/proc/$pid/exe")
  echo "$1 on Java $(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$(dirname "$(dirname "$exe")")/release" 2>/dev/null)"
}
echo "wrk-compare: $(nproc) cores, $(app_jdk gateway), $(app_jdk study-service), $(wrk -v 2>&1 | awk 'NR<=1' | cut -d' ' -f1-2)"
if [ "$WARMUP" -gt 0 ]; then
  for t in "${ORDER[@]}"; do
    echo "  warm-up $t (${WARMUP}s): $(run_wrk "$t" "$WARMUP" | awk '{printf "%s req/s", $2}')"
  done
fi
: >"$WORK/rounds"
for r in $(seq "$ROUNDS"); do
  for t in "${ORDER[@]}"; do
    line=$(run_wrk "$t" "$DURATION")
    echo "$r $t $line" >>"$WORK/rounds"
    read -r _ rps p50 p99 px up <<<"$line"
    printf '  round %d %-12s %9s req/s  p50 %7s ms  p99 %7s ms  proxy %6s µs/req  study-service %6s µs/req\n' \
      "$r" "$t" "$rps" "$p50" "$p99" "$px" "$up"
  done
done

echo
echo "Summary: median [min–max] over $ROUNDS rounds; ratio = target req/s ÷ direct req/s of the same round"
printf '%-12s %-24s %-22s %-22s %-20s %-20s %-20s\n' target "req/s" "p50 ms" "p99 ms" "÷ direct" "proxy µs/req" "study-service µs/req"
for t in "${ORDER[@]}"; do
  awk -v t="$t" '
    function stat(a, n,   i, j, x, med) {
      for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
      med = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
      return sprintf(fmt, med) " [" sprintf(fmt, a[1]) "–" sprintf(fmt, a[n]) "]"
    }
    $2 == "direct" { d[$1] = $4 }
    $2 == t { n++; rps[n] = $4; p50[n] = $5; p99[n] = $6; round[n] = $1; px[n] = $7; up[n] = $8 }
    END {
      for (i = 1; i <= n; i++) { if (round[i] in d) { m++; ratio[m] = rps[i] / d[round[i]] } if (px[i] != "-") { k++; pxs[k] = px[i] } if (up[i] != "-") { u++; ups[u] = up[i] } }
      fmt = "%.0f"; a = stat(rps, n); fmt = "%.2f"; b = stat(p50, n); c = stat(p99, n)
      r = (m > 0) ? stat(ratio, m) : "-"; fmt = "%.0f"; e = (k > 0) ? stat(pxs, k) : "-"; f = (u > 0) ? stat(ups, u) : "-"
      printf "%-12s %-24s %-22s %-22s %-20s %-20s %-20s\n", t, a, b, c, r, e, f
    }' "$WORK/rounds"
done
