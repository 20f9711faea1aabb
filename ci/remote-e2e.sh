#!/usr/bin/env bash
# End-to-end: JMeter distributed mode with real engines. Two `./lab engine` processes (JMeter 5.6.3's server from the
# runner's jars, RMI over TLS with the checkout's keystore, client certificates required) on loopback aliases
# 127.0.0.2 and 127.0.0.3:1199 (all of 127/8 is on lo on Linux, also in a fresh `unshare -n` after `ip link set lo
# up`) load the running apps through `./lab bench --remote`; the engines' RMI ports and the runner's callback ports
# answer on their own address alone; then an engine is killed mid-run, one is down at the start, a run goes on
# without a lost engine, a sweep, fixed callback ports, an engine with a skewed clock (faketime), runners without the
# engines' keystore (refused in the TLS handshake), --insecure-rmi on both sides and a JMeter-style JKS keystore.
# Engines are restarted between checks (fresh_engines), so no check depends on what an earlier one left on an engine.
# Loopback only; every load is bounded by the runner's duration.
set -euo pipefail
CI_NAME=remote-e2e
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ci_results remote-e2e
E1=127.0.0.2 E2=127.0.0.3 P2=1199
REMOTE="$E1,$E2:$P2"
ACCESS=.lab/logs/gateway-access.log
COMMON=(--metrics-port 0 --no-dashboard)

KS=.lab/rmi-keystore.p12 # the checkout's RMI keystore: ./lab engine creates it when missing, the runner uses it
KS_AWAY="$OUT/checkout-keystore.p12" # where the no-keystore check puts it meanwhile

on_exit() {
  if [ -e "$KS_AWAY" ] && [ ! -e "$KS" ]; then mv "$KS_AWAY" "$KS"; fi
  ./lab engine stop >/dev/null 2>&1 || true
}

engine_pid() { cat ".lab/engine-$1-$2.pid"; }
fresh_engines() {  # both engines restarted: a check starts from idle engines whatever the one before did
  ./lab engine stop >/dev/null
  ./lab engine --host $E1 >/dev/null
  ./lab engine --host $E2 --port $P2 >/dev/null
}
# only_on ADDRESS PORT...: each PORT listens on ADDRESS alone (ss), and a connection to it on 127.0.0.5, another
# address of this machine, is refused
only_on() {
  local a=$1 p bound; shift
  for p in "$@"; do
    # Java's sockets show as IPv4-mapped IPv6 addresses ([::ffff:127.0.0.2]:1099)
    bound=$(ss -ltnH "sport = :$p" | awk '{print $4}' | sed -E 's/^\[::ffff:([0-9.]+)\]/\1/' | sort -u | tr '\n' ' ')
    if [ "$bound" != "$a:$p " ]; then echo "       port $p listens on: ${bound:-nothing}"; return 1; fi
    if timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.5/$p" 2>/dev/null; then
      echo "       port $p accepted a connection on 127.0.0.5"; return 1
    fi
  done
}
engines_bound() { only_on $E1 1099 1100 && only_on $E2 $P2 $((P2 + 1)); }
access_lines() { if [ -f "$ACCESS" ]; then wc -l < "$ACCESS"; else echo 0; fi; }
# await_samples_of ENGINE RESULTS: until the first repetition's JTL under RESULTS holds a sample of ENGINE (threads
# are named ENGINE-…), 60 s at most: that engine is under way, a kill now lands mid-repetition
await_samples_of() {
  local deadline=$((SECONDS + 60))
  until grep -qs "\"$1-" "$2"/*/raw/direct-rep1.jtl || [ $SECONDS -ge $deadline ]; do sleep 0.2; done
}

echo "== ./lab up (the targets: gateway and direct)"
./lab up study-service gateway

echo "== ./lab engine: two engines on one machine, distinct ports, RMI over TLS with the checkout's keystore"
had_keystore=0; if [ -e "$KS" ]; then had_keystore=1; fi
./lab engine --host $E1 2>&1 | tee "$OUT/engine1.log"
./lab engine --host $E2 --port $P2 2>&1 | tee "$OUT/engine2.log"
check "the keystore $KS is mode 0600, created by the first engine (when missing), and both engines say TLS" bash -c \
  "[ \"\$(stat -c %a $KS)\" = 600 ] && { [ $had_keystore = 1 ] || grep -q 'created the RMI keystore' '$OUT/engine1.log'; } \
   && ! grep -q 'created the RMI keystore' '$OUT/engine2.log' \
   && grep -q 'RMI over TLS with .*rmi-keystore.p12' '$OUT/engine1.log' && grep -q 'RMI over TLS' '$OUT/engine2.log'"
check "the engines' RMI ports listen on their own address alone ($E1: 1099 1100, $E2: $P2 $((P2 + 1)))" engines_bound
check "./lab engine status lists both" bash -c './lab engine status | grep -c running | grep -qx 2'
check "starting the same engine again is a no-op" bash -c "./lab engine --host $E2 --port $P2 | grep -q 'already running'"
check "a port taken on its address (the first engine's object port): exit 2 naming it, no trace" bash -c \
  "./lab engine --host $E1 --port 1100 > '$OUT/taken.txt' 2>&1; [ \$? -eq 2 ] && grep -q -- '--port 1100 is in use' '$OUT/taken.txt' \
   && ! grep -qE '^\s+at [a-z]+\.' '$OUT/taken.txt'"
check "--host that is not this machine: exit 2" bash -c \
  "./lab engine --host 192.0.2.1 --port 1399 > '$OUT/foreign.txt' 2>&1; [ \$? -eq 2 ] && grep -q 'not an address of this machine' '$OUT/foreign.txt'"
check "two engines on one machine with one port: bench refuses (exit 2)" bash -c \
  "./lab bench --quick --remote $E1,$E2 > '$OUT/sameport.txt' 2>&1; [ \$? -eq 2 ] && grep -q 'share port 1099' '$OUT/sameport.txt'"

echo "== ./lab bench --quick --remote $REMOTE (gateway, direct; no warm-up so every request is measured)"
before=$(access_lines)
./lab bench --quick --warmup 0 --latency-repetitions 0 --remote "$REMOTE" --targets gateway,direct "${COMMON[@]}" \
  --results "$OUT/quick" \
  | tee "$OUT/quick.log"
run=$(ls -d "$OUT"/quick/*/ | head -1)
check "report written, no INCOMPLETE marker" bash -c "[ -s '$run/run.json' ] && [ -s '$run/report.md' ] && [ ! -e '$run/INCOMPLETE' ]"
expected=$(python3 - "$run" <<'PY'
import json, sys
t = {x["name"]: x for x in json.load(open(sys.argv[1] + "/run.json"))["targets"]}["gateway"]
print(t["samples"] + (t["open_model"] or {}).get("samples", 0))
PY
)
# The access log is written by an async logger, in order: once a marker request sent after the run is in it, every
# request of the run is too.
marker="remote-e2e-marker-$$"
curl -s -o /dev/null -H "X-Request-Id: $marker" "http://127.0.0.1:$(lab_port gateway)/api/studies/1"
deadline=$((SECONDS + 15))
until grep -q "id=$marker " "$ACCESS" || [ $SECONDS -ge $deadline ]; do sleep 0.2; done
marker_line=$(grep -n "id=$marker " "$ACCESS" | cut -d: -f1 || echo $(( $(access_lines) + 1 )))
# The runner's reachability probe (X-Request-Id: lab-reachability-probe, one per target before warm-up) is not a
# sample of the run.
probes=$(sed -n "$((before + 1)),$((marker_line - 1))p" "$ACCESS" | grep -c "id=lab-reachability-probe " || true)
echo "  gateway access log: $(( marker_line - 1 - before )) lines for the run ($probes of them the reachability" \
  "probe), $expected samples expected"
ACCESS_DELTA=$(( marker_line - 1 - before - probes )) check "samples from both engines; run.json = JTL rows = gateway access log" \
  python3 - "$run" "$E1" "$E2:$P2" <<'PY'
import csv, glob, json, os, sys
run, engines = sys.argv[1], sys.argv[2:]
r = json.load(open(os.path.join(run, "run.json")))
ok = True
def rows(pattern):
    out = []
    for f in sorted(glob.glob(os.path.join(run, "raw", pattern))):
        with open(f, newline="") as fh:
            out += list(csv.DictReader(fh))
    return out
by_engine = {e["engine"]: e for e in r["engines"]}
for t in r["targets"]:
    rep = rows(f"{t['name']}-rep*.jtl")
    per = {e: sum(1 for x in rep if x["threadName"].startswith(e + "-")) for e in engines}
    print(f"       {t['name']}: run.json {t['samples']}, JTL {len(rep)} rows, per engine {per}, "
          f"run.json engines {[by_engine[e]['samples_per_target'][t['name']] for e in engines]}")
    ok &= t["samples"] == len(rep) == sum(per.values())
    ok &= all(per[e] > 0 and by_engine[e]["samples_per_target"][t["name"]] == per[e] for e in engines)
gw = {x["name"]: x for x in r["targets"]}["gateway"]
jtl_gw = len(rows("gateway-rep*.jtl")) + len(rows("gateway-open*.jtl"))
access = int(os.environ["ACCESS_DELTA"])
open_samples = (gw["open_model"] or {}).get("samples", 0)
print(f"       gateway: run.json {gw['samples']} + open {open_samples}, JTL {jtl_gw}, access log {access}")
ok &= gw["samples"] + open_samples == jtl_gw == access
for e in engines:
    print(f"       engine {e}: {by_engine[e]['samples']} samples ({by_engine[e]['share_percent']:.1f} %), "
          f"CPU {by_engine[e]['cpu_percent']}, clock offset {by_engine[e]['clock_offset_ms']} ms")
    ok &= by_engine[e]["cpu_percent"] is not None
sys.exit(0 if ok else 1)
PY
check "report.md has the Load engines table with both engines" bash -c \
  "grep -q '^## Load engines' '$run/report.md' && grep -q '^| $E1 |' '$run/report.md' && grep -q '^| $E2:$P2 |' '$run/report.md'"

echo "== fixed callback ports (--rmi-callback-port, the firewall setting): several plan runs in one runner"
# Base 21100, below the ephemeral range (ip_local_port_range, 32768-60999 by default): JMeter 5.6.3 listens on
# base+1 and base+2; the runner holds both for its whole life (CallbackPorts), so every repetition can use them.
CB=21100
fresh_engines
callback_run() {  # the runner's listeners must sit on the fixed ports while it runs, and every repetition count
  ./lab bench --quick --warmup 0 --latency-repetitions 0 --repetitions 3 --duration 4 --remote "$REMOTE" \
    --rmi-callback-port $CB --targets direct "${COMMON[@]}" --results "$OUT/callback" > "$OUT/callback.log" 2>&1 &
  local b=$! seen=0 deadline=$((SECONDS + 60))
  while kill -0 $b 2>/dev/null && [ $SECONDS -lt $deadline ]; do
    if [ $seen -eq 0 ] && [ "$(ss -ltnH | grep -cE ":($((CB + 1))|$((CB + 2))) ")" -eq 2 ]; then
      seen=1; ss -ltn | grep -E ":($((CB + 1))|$((CB + 2))) " > "$OUT/callback-ports.txt"
      # the runner's callback listeners: on its callback address (127.0.0.1 for loopback engines) alone
      only_on 127.0.0.1 $((CB + 1)) $((CB + 2)) > "$OUT/callback-bound.txt" || seen=2
    fi
    sleep 0.5
  done
  wait $b && [ $seen -eq 1 ] && for rep in 1 2 3; do
    grep -q "\"$E1-" "$OUT"/callback/*/raw/direct-rep$rep.jtl && grep -q "\"$E2:$P2-" "$OUT"/callback/*/raw/direct-rep$rep.jtl \
      || return 1
  done
}
check "bench --rmi-callback-port $CB: listeners on 127.0.0.1:$((CB + 1)) and :$((CB + 2)) alone, all 3 repetitions have samples of both engines" callback_run
taken_port() {  # a callback port held by another process: exit 2 before any load, naming the port and the option
  python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("0.0.0.0", int(sys.argv[1]))); s.listen(); time.sleep(60)' $((CB + 102)) &
  local holder=$! rc=0 deadline=$((SECONDS + 10))
  until ss -ltnH | grep -q ":$((CB + 102)) " || [ $SECONDS -ge $deadline ]; do sleep 0.2; done
  ./lab bench --quick --remote "$REMOTE" --rmi-callback-port $((CB + 100)) --targets direct "${COMMON[@]}" \
    --results "$OUT/cbtaken" > "$OUT/cbtaken.log" 2>&1 || rc=$?
  kill $holder; wait $holder 2>/dev/null || true
  [ $rc -eq 2 ] && grep -q "callback port $((CB + 102)) is in use" "$OUT/cbtaken.log" \
    && grep -q -- "--rmi-callback-port" "$OUT/cbtaken.log" && ! grep -qE '^\s+at [a-z]+\.' "$OUT/cbtaken.log"
}
check "a callback port already taken: exit 2 naming it and --rmi-callback-port, no trace" taken_port

echo "== ./lab sweep --remote"
fresh_engines
sweep_run() {
  ./lab sweep --remote "$REMOTE" --targets direct --levels 2,4 --duration 2 --warmup 0 --metrics-port 0 \
    --results "$OUT/sweep" > "$OUT/sweep.log" 2>&1 || return 1
  local dir; dir=$(ls -d "$OUT"/sweep/*/)
  [ "$(grep -c '^| direct |' "$dir/sweep.md")" -eq 2 ] && grep -q "\"$E2:$P2-" "$dir/raw/direct-c4.jtl" \
    && grep -q '^## Load engines' "$dir/sweep.md" && python3 - "$dir/sweep.json" "$E1" "$E2:$P2" <<'PY'
import json, sys
e = {x["engine"]: x for x in json.load(open(sys.argv[1]))["engines"]}
for n in sys.argv[2:]:
    print(f"       sweep engine {n}: {e[n]['samples']} samples, CPU {e[n]['cpu_percent']}, clock offset {e[n]['clock_offset_ms']} ms")
sys.exit(0 if all(e[n]["samples"] > 0 and e[n]["cpu_percent"] is not None and e[n]["clock_offset_ms"] is not None
                  for n in sys.argv[2:]) else 1)
PY
}
check "./lab sweep --remote: one row per level, samples from both engines, the Load engines table, sweep.json engines" sweep_run

echo "== an engine killed mid-run: the repetition fails within seconds, the run ends INCOMPLETE, exit 2"
fresh_engines
./lab bench --remote "$REMOTE" --targets direct --warmup 0 --latency-repetitions 0 --repetitions 1 --duration 40 \
  --threads 2 "${COMMON[@]}" --results "$OUT/kill" > "$OUT/kill.log" 2>&1 &
bench=$!
await_samples_of "$E2:$P2" "$OUT/kill"
kill -KILL "$(engine_pid $E2 $P2)"; killed=$SECONDS
rc=0; wait $bench || rc=$?
took=$((SECONDS - killed))
echo "  bench exit $rc, $took s after the kill"
kill_run=$(ls -d "$OUT"/kill/*/ | head -1)
check "exit 2 within 15 s of the kill (run was 40 s)" test $rc -eq 2 -a $took -le 15
check "the message names the lost engine, no stack trace" bash -c \
  "grep -q 'error: lost remote engine $E2:$P2' '$OUT/kill.log' && grep -q 'marked failed' '$OUT/kill.log' \
   && ! grep -qE '^\s+at [a-z]+\.|Exception in thread' '$OUT/kill.log'"
check "INCOMPLETE gives the reason; no report; the partial JTL is set apart" bash -c \
  "grep -q 'lost remote engine $E2:$P2' '$kill_run/INCOMPLETE' && [ ! -e '$kill_run/run.json' ] \
   && [ ! -e '$kill_run/raw/direct-rep1.jtl' ] && [ -s '$kill_run/raw/direct-rep1.jtl.lost' ]"

echo "== an engine down at the start: exit 2, a clear message naming it, INCOMPLETE with the reason"
rc=0; ./lab bench --quick --remote "$REMOTE" --targets direct "${COMMON[@]}" --results "$OUT/down" > "$OUT/down.log" 2>&1 || rc=$?
check "exit 2, names $E2:$P2 and how to start it, no stack trace" bash -c \
  "[ $rc -eq 2 ] && grep -q 'error: remote engine $E2:$P2: nothing listens on $E2:$P2' '$OUT/down.log' \
   && grep -q './lab engine --host' '$OUT/down.log' && ! grep -qE '^\s+at [a-z]+\.|Exception in thread' '$OUT/down.log'"
check "INCOMPLETE says why" bash -c "grep -q 'remote engine $E2:$P2' \"\$(ls '$OUT'/down/*/INCOMPLETE)\""

echo "== --on-engine-loss continue: the interrupted repetition is repeated on the remaining engine, and said"
fresh_engines
./lab bench --remote "$REMOTE" --on-engine-loss continue --targets direct --warmup 0 --latency-repetitions 0 \
  --repetitions 2 --duration 8 --threads 2 "${COMMON[@]}" --results "$OUT/continue" > "$OUT/continue.log" 2>&1 &
bench=$!
await_samples_of "$E2:$P2" "$OUT/continue"
kill -KILL "$(engine_pid $E2 $P2)"
rc=0; wait $bench || rc=$?
cont_run=$(ls -d "$OUT"/continue/*/ | head -1)
check "the run completes (exit 0), the report warns that $E2:$P2 was lost and the repetition repeated" bash -c \
  "[ $rc -eq 0 ] && [ ! -e '$cont_run/INCOMPLETE' ] && grep -q 'lost remote engine $E2:$P2' '$cont_run/report.md' \
   && grep -q 'repeated on the remaining engines \[$E1\]' '$cont_run/report.md' && [ -s '$cont_run/raw/direct-rep1.jtl.lost' ]"

echo "== an engine's clock 5 s ahead (faketime): run.json's clock_offset_ms says so, the report warns"
if ! command -v faketime >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends faketime >/dev/null
fi
./lab engine stop >/dev/null
./lab engine --host $E1 >/dev/null
# libfaketime preloaded, not the faketime wrapper: the wrapper waits for every process that inherited its output, the
# engine included. FORCE_MONOTONIC_FIX: timed waits of a JVM work under it (with FAKETIME_DONT_FAKE_MONOTONIC=1 they
# return at once and the engine's timer threads spin).
LIBFAKETIME=$(ls /usr/lib/*/faketime/libfaketime.so.1 | head -1)
LD_PRELOAD=$LIBFAKETIME FAKETIME=+5s FAKETIME_FORCE_MONOTONIC_FIX=1 ./lab engine --host $E2 --port $P2 >/dev/null
skew_run() {
  ./lab bench --quick --warmup 0 --latency-repetitions 0 --remote "$REMOTE" --targets direct "${COMMON[@]}" \
    --results "$OUT/skew" > "$OUT/skew.log" 2>&1 || return 1
  python3 - "$(ls -d "$OUT"/skew/*/)" "$E1" "$E2:$P2" <<'PY'
import json, sys
run, good, skewed = sys.argv[1:]
r = json.load(open(run + "run.json"))
e = {x["engine"]: x["clock_offset_ms"] for x in r["engines"]}
print(f"       clock_offset_ms: {good} {e[good]}, {skewed} {e[skewed]}")
warned = lambda n: any(w.startswith(f"engine {n}'s clock is ") for w in r["warnings"])
report = open(run + "report.md").read()
sys.exit(0 if abs(e[good]) < 500 and 4500 < e[skewed] < 5500 and warned(skewed) and not warned(good)
         and f"engine {skewed}'s clock is +" in report else 1)
PY
}
check "bench: $E2:$P2's clock_offset_ms ≈ +5000, $E1's ≈ 0, a warning names $E2:$P2 only" skew_run
./lab engine stop >/dev/null

echo "== runners without the engines' keystore: refused in the TLS handshake, exit 2 with the fix, nothing runs"
fresh_engines
keytool -genkeypair -alias rmi -keyalg EC -keysize 256 -validity 2 -dname "CN=another lab" \
  -keystore "$OUT/another.p12" -storetype pkcs12 -storepass changeit >/dev/null 2>&1
chmod 600 "$OUT/another.p12"
# refused_run NAME EXPECT HANDSHAKE [bench options...]: the bench against $E1 exits 2 with EXPECT in its output and no
# stack trace, the gateway's access log gets no request but the reachability probe, no JTL row is written, and with
# HANDSHAKE=1 $E1's log has a new refused handshake
refused_run() {
  local name=$1 expect=$2 handshake=$3 elog=".lab/logs/engine-$E1-1099.log" refusals before rc=0; shift 3
  refusals=$(grep -c 'refused an RMI connection' "$elog" || true)
  before=$(access_lines)
  ./lab bench --quick --warmup 0 --latency-repetitions 0 --remote "$E1" --targets gateway "${COMMON[@]}" \
    --results "$OUT/refused-$name" "$@" > "$OUT/refused-$name.log" 2>&1 || rc=$?
  sleep 1 # the access log's async logger
  local sent; sent=$(sed -n "$((before + 1)),\$p" "$ACCESS" | grep -vc "id=lab-reachability-probe " || true)
  local rows; rows=$(awk 'FNR > 1' "$OUT/refused-$name"/*/raw/*.jtl 2>/dev/null | wc -l) # rows after each header
  local now; now=$(grep -c 'refused an RMI connection' "$elog" || true)
  echo "       exit $rc, requests of the run $sent, JTL lines $rows, refused handshakes in $elog: $refusals -> $now"
  [ $rc -eq 2 ] && grep -q -- "$expect" "$OUT/refused-$name.log" \
    && ! grep -qE '^\s+at [a-z]+\.|Exception in thread' "$OUT/refused-$name.log" \
    && [ "$sent" -eq 0 ] && [ "$rows" -eq 0 ] && { [ "$handshake" = 0 ] || [ "$now" -gt "$refusals" ]; }
}
no_keystore_run() {  # the checkout's keystore moved away: the runner has none
  mv "$KS" "$KS_AWAY"
  local rc=0
  refused_run none "RMI keystore $CI_ROOT/$KS is not a readable file (no such file)" 0 || rc=$?
  mv "$KS_AWAY" "$KS"
  return $rc
}
check "a runner without a keystore: exit 2 naming the file and how to get it (./lab engine … prints the command)" \
  no_keystore_run
check "a runner with another lab's keystore: the engine refuses the handshake, exit 2 naming the keystore fix" \
  refused_run another "TLS handshake with $E1:1099 failed" 1 --rmi-keystore "$OUT/another.p12"
check "a runner with plain RMI (--insecure-rmi) against a TLS engine: refused, exit 2 saying to drop --insecure-rmi" \
  refused_run plain "drop --insecure-rmi" 1 --insecure-rmi
check "the engine's log names the refused peer and why" \
  grep -qE "refused an RMI connection from 127\.[0-9.]+:[0-9]+ on $E1:(1099|1100): TLS handshake failed" \
  ".lab/logs/engine-$E1-1099.log"
./lab engine stop >/dev/null

echo "== --insecure-rmi on both sides: plain RMI still works, and warns on both"
./lab engine --host 127.0.0.4 --port 1399 --insecure-rmi > "$OUT/insecure-engine.log" 2>&1
check "./lab engine --insecure-rmi warns and says plain RMI" bash -c \
  "grep -q 'warning: --insecure-rmi: plain RMI on 127.0.0.4' '$OUT/insecure-engine.log' \
   && grep -q 'plain RMI (--insecure-rmi)' .lab/logs/engine-127.0.0.4-1399.log"
check "the plain engine's ports still listen on 127.0.0.4 alone" only_on 127.0.0.4 1399 1400
check "a TLS runner against the plain engine: exit 2 naming --insecure-rmi" bash -c \
  "./lab bench --quick --remote 127.0.0.4:1399 --targets direct ${COMMON[*]} --results '$OUT/tls-vs-plain' \
     > '$OUT/tls-vs-plain.log' 2>&1; [ \$? -eq 2 ] && grep -q 'add --insecure-rmi here too' '$OUT/tls-vs-plain.log'"
check "bench --insecure-rmi: samples from the plain engine in every repetition, and the warning" bash -c \
  "./lab bench --quick --warmup 0 --latency-repetitions 0 --remote 127.0.0.4:1399 --insecure-rmi --targets direct \
     ${COMMON[*]} --results '$OUT/insecure' > '$OUT/insecure.log' 2>&1 \
   && grep -q 'warning: --insecure-rmi: plain RMI' '$OUT/insecure.log' \
   && grep -q '\"127.0.0.4:1399-' '$OUT'/insecure/*/raw/direct-rep1.jtl \
   && grep -q '\"127.0.0.4:1399-' '$OUT'/insecure/*/raw/direct-rep2.jtl"
./lab engine stop --host 127.0.0.4 --port 1399 >/dev/null

echo "== a JMeter-style JKS keystore (--rmi-keystore on engine and runner)"
ks="$OUT/rmi_keystore.jks"
keytool -genkeypair -alias rmi -keyalg RSA -keysize 2048 -validity 2 -dname "CN=gateway-lab-e2e" \
  -keystore "$ks" -storetype JKS -storepass changeit -keypass changeit >/dev/null 2>&1
chmod 600 "$ks"
./lab engine --host 127.0.0.4 --port 1299 --rmi-keystore "$ks" >/dev/null
check "bench with the checkout's keystore against an engine with another: exit 2 naming --rmi-keystore" bash -c \
  "./lab bench --quick --remote 127.0.0.4:1299 --targets direct ${COMMON[*]} --results '$OUT/nossl' > '$OUT/nossl.log' 2>&1; \
   [ \$? -eq 2 ] && grep -q 'rmi-keystore' '$OUT/nossl.log'"
check "bench --rmi-keystore --rmi-hostname: samples from the engine in every repetition" bash -c \
  "./lab bench --quick --warmup 0 --latency-repetitions 0 --remote 127.0.0.4:1299 --rmi-keystore '$ks' \
     --rmi-hostname 127.0.0.1 --targets direct ${COMMON[*]} --results '$OUT/ssl' > '$OUT/ssl.log' 2>&1 \
   && grep -q '\"127.0.0.4:1299-' '$OUT'/ssl/*/raw/direct-rep1.jtl && grep -q '\"127.0.0.4:1299-' '$OUT'/ssl/*/raw/direct-rep2.jtl"

echo "== ./lab engine stop"
./lab engine stop
check "no engine left" bash -c '! ./lab engine status | grep -q running'
./lab down

echo
if [ $failures -eq 0 ]; then echo "remote-e2e: all checks passed"; else echo "remote-e2e: $failures check(s) failed"; exit 1; fi
