#!/usr/bin/env bash
# End-to-end checks of ./lab's AOT cache on real processes (a JDK 24+ under /usr/lib/jvm, else skipped): the first start
# of a build trains the cache, later starts use it, a rebuilt jar is trained again and its old cache never used, a
# cache the JVM refuses is reported and trained again, LAB_AOT=off and a JDK before 24 start the jars as they are, a bad
# LAB_AOT starts nothing. On the floor (the quickest app to start). Loopback only.
set -euo pipefail
CI_NAME=aot
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"
ci_results aot

if ! grep -qE '^JAVA_VERSION="(2[4-9]|[3-9][0-9])' /usr/lib/jvm/*/release 2>/dev/null; then
  echo "aot: skipped — no JDK 24+ under /usr/lib/jvm (the apps start without an AOT cache, as checked by ci/e2e.sh)"
  exit 0
fi
./lab down >/dev/null
cmdline() { tr '\0' '\n' < "/proc/$(cat .lab/floor.pid)/cmdline"; }
up() { # up LOG [env...]: ./lab up floor with the environment given, output to $OUT/LOG
  local log=$1; shift
  env "$@" ./lab up floor > "$OUT/$log" 2>&1
}

echo "== a bad LAB_AOT: exit 2 naming it, nothing started"
check "LAB_AOT=bogus ./lab up exits 2 naming LAB_AOT" \
  bash -c 'LAB_AOT=bogus ./lab up floor > "$0/bogus.txt" 2>&1; [ $? -eq 2 ] && grep -q "LAB_AOT=.bogus. is not valid" "$0/bogus.txt"' "$OUT"
check "nothing was started" nothing_listening

echo "== first start of a build: a training run, the cache written, the app started again with it"
rm -rf .lab/aot/floor
./mvnw -B -q -DskipTests package -pl floor
up first.log
cat "$OUT/first.log"
check "it said it starts a training run" grep -q "starting floor on Java [0-9]* for its AOT training run" "$OUT/first.log"
check "the cache was written" grep -qE "AOT cache of floor written: .lab/aot/floor/[0-9a-f]{16}\.aot" "$OUT/first.log"
check "the app runs from its extracted jar with the cache, and the JVM mapped it" \
  bash -c 'grep -q "floor runs with its AOT cache" "$0/first.log" && tr "\0" "\n" < /proc/$(cat .lab/floor.pid)/cmdline \
           | grep -qE "^-XX:AOTCache=.*/\.lab/aot/floor/[0-9a-f]{16}\.aot$"' "$OUT"
check "./lab status: ready" bash -c './lab status | grep -qE "^floor .* ready$"'
./lab down floor > /dev/null

echo "== a later start: the cache, no training"
up second.log
check "with its AOT cache, no training run" \
  bash -c 'grep -q "starting floor on Java [0-9]* with its AOT cache" "$0/second.log" && ! grep -q "training" "$0/second.log"' "$OUT"
check "and the JVM used it" grep -q "floor runs with its AOT cache" "$OUT/second.log"
./lab down floor > /dev/null

echo "== the jar rebuilt: trained again; the old build's cache is gone, never used"
old=$(ls .lab/aot/floor/*.aot)
touch floor/target/floor.jar
up rebuilt.log
check "a training run for the new build" grep -q "for its AOT training run" "$OUT/rebuilt.log"
check "the old build's cache is deleted" test ! -e "$old"
check "the new cache is used" grep -q "floor runs with its AOT cache" "$OUT/rebuilt.log"
./lab down floor > /dev/null

echo "== a cache the JVM refuses: said so, deleted, trained again on the next start"
cache=$(ls .lab/aot/floor/*.aot)
head -c 4096 "$cache" > "$cache.cut" && mv "$cache.cut" "$cache"
up refused.log
check "the app is ready anyway and ./lab warns that it did not use its cache" \
  bash -c 'grep -q "floor ready" "$0/refused.log" && grep -q "WARNING: floor did not use its AOT cache" "$0/refused.log"' "$OUT"
check "the refused cache is deleted" test ! -e "$cache"
./lab down floor > /dev/null
up retrained.log
check "the next start trains it again" grep -q "for its AOT training run" "$OUT/retrained.log"
./lab down floor > /dev/null

echo "== other JVM options: a cache of their own"
up options.log FLOOR_JAVA_OPTS="-Xmx128m"
check "a training run for the new options; the default options' cache is kept" \
  bash -c 'grep -q "for its AOT training run" "$0/options.log" && [ "$(ls .lab/aot/floor/*.aot | wc -l)" -eq 2 ]' "$OUT"
./lab down floor > /dev/null

echo "== LAB_AOT=off, and a JDK before 24: the jar as it is"
up off.log LAB_AOT=off
check "LAB_AOT=off: no AOT option, the built jar itself" \
  bash -c '! tr "\0" "\n" < /proc/$(cat .lab/floor.pid)/cmdline | grep -q "^-XX:AOT" \
           && tr "\0" "\n" < /proc/$(cat .lab/floor.pid)/cmdline | grep -q "/floor/target/floor.jar$"'
./lab down floor > /dev/null
JDK17=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
if [ "$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$JDK17/release" 2>/dev/null)" -lt 24 ] 2>/dev/null; then
  up jdk17.log LAB_JAVA_HOME="$JDK17"
  check "a JDK before 24: no AOT option, no training" \
    bash -c '! tr "\0" "\n" < /proc/$(cat .lab/floor.pid)/cmdline | grep -q "^-XX:AOT" && ! grep -q AOT "$0/jdk17.log"' "$OUT"
  ./lab down floor > /dev/null
fi
check "nothing left listening" nothing_listening

echo
if [ $failures -eq 0 ]; then echo "aot: all checks passed"; else echo "aot: $failures check(s) failed"; exit 1; fi
