#!/usr/bin/env bash
# Study text on a real PostgreSQL (docs/reliability.md): StudyTextPostgresTests — the H2 checks of StudyTextTests, and
# what PostgreSQL itself does with NUL and unpaired surrogates — against a throwaway PostgreSQL cluster from the Debian
# package, on a free loopback port (no fixed port), removed afterwards. Installs the package when it is missing.
set -euo pipefail
CI_NAME=postgres
source "$(dirname "$0")/lib.sh"
cd "$CI_ROOT"

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [[ -z $(pg_bin) ]]; then
  log "installing postgresql (Debian package), without the package's own cluster on port 5432"
  mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.d/no-main-cluster.conf
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
BIN=$(pg_bin)

# PostgreSQL refuses to run as root: the cluster belongs to the package's postgres user then
as_pg() { if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
DIR=$(mktemp -d)
[[ $(id -u) == 0 ]] && chown postgres "$DIR"
stop() { as_pg "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true; rm -rf "$DIR"; }
trap stop EXIT
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

log "PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT"
as_pg "$BIN/initdb" -D "$DIR/data" -E UTF8 --locale=C -A trust -U lab >/dev/null
as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$DIR" start >/dev/null
as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U lab study

REPORT=study-core/target/surefire-reports/TEST-dev.gatewaylab.study.StudyTextPostgresTests.xml
rm -f "$REPORT"
./mvnw -B -q -pl study-core -am test -Dtest=StudyTextPostgresTests -Dsurefire.failIfNoSpecifiedTests=false \
  -Dstudy.test.postgres-url="jdbc:postgresql://127.0.0.1:$PORT/study?user=lab" > "$DIR/maven.log" 2>&1 \
  || { tail -n 60 "$DIR/maven.log"; fail "StudyTextPostgresTests on PostgreSQL (the Maven output above)" || true; }
# attr NAME: a count from the test report's <testsuite> element (0 without a report)
attr() { local v; v=$(grep -o -m 1 "<testsuite [^>]*" "$REPORT" 2>/dev/null | grep -o " $1=\"[0-9]*\"" | tr -dc 0-9); echo "${v:-0}"; }
tests=$(attr tests); skipped=$(attr skipped); failed=$(( $(attr failures) + $(attr errors) ))
check "StudyTextPostgresTests ran on PostgreSQL: $tests tests, $skipped skipped, $failed failed" \
  test "$tests" -gt 0 -a "$skipped" -eq 0 -a "$failed" -eq 0

echo
if [ $failures -eq 0 ]; then echo "postgres: all checks passed"; else echo "postgres: $failures check(s) failed"; exit 1; fi
