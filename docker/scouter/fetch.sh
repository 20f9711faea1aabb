#!/usr/bin/env bash
# Fetches Scouter onto this machine, for `./lab up --apm` (DIR = .lab/scouter) and for the air-gapped compose
# route (DIR = docker/scouter/dist, read by host.Dockerfile):
#   docker/scouter/fetch.sh DIR [server] [webapp] [agent]        (default: all three)
#   DIR/server/lib/   collector io.github.scouter-project:scouter-server:2.20.0 + dependencies (Maven Central, ./mvnw)
#   DIR/webapp/lib/   REST API  io.github.scouter-project:scouter-webapp:2.20.0 + dependencies (webapp/pom.xml)
#   DIR/agent/scouter.agent.jar   the Java agent:
#       SCOUTER_AGENT_JAR=<file>  copy that jar (offline, e.g. an agent built from source), or else
#       the GitHub release asset scouter-all-$SCOUTER_AGENT_VERSION.tar.gz (default version: lab.properties
#       apm.scouter.agent-version), checked against SCOUTER_AGENT_SHA256 when that is set (no check when empty).
# A part already fetched (DIR/<part>/.fetched names its source) is reused. Exit 1 names the part that failed.
# Each Maven fetch is bounded by SCOUTER_FETCH_TIMEOUT seconds (default 300), the agent download by 300 s.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: docker/scouter/fetch.sh DIR [server] [webapp] [agent]" >&2; exit 2; }
mkdir -p "$1"; DIR=$(cd "$1" && pwd); shift
PARTS=("$@"); [ ${#PARTS[@]} -gt 0 ] || PARTS=(server webapp agent)
# shellcheck source=../../lib/lab-properties.sh
source "$ROOT/lib/lab-properties.sh"
VERSION=${SCOUTER_AGENT_VERSION:-$(lab_prop apm.scouter.agent-version)}
mkdir -p "$DIR"

# libs PART POM: dependency:copy-dependencies of POM into DIR/PART/lib
libs() {
  local part=$1 pom=$2 source="maven:$(sha256sum "$2" | cut -c1-16)"
  [ -d "$DIR/$part/lib" ] && [ "$(cat "$DIR/$part/.fetched" 2>/dev/null)" = "$source" ] && return 0
  rm -rf "$DIR/$part/lib"; mkdir -p "$DIR/$part"
  echo "scouter: fetching the $part from Maven Central ($(basename "$(dirname "$pom")")/$(basename "$pom")) ..."
  # bounded: ./lab up --apm goes on without a collector when Maven Central does not answer in time
  if ! timeout "${SCOUTER_FETCH_TIMEOUT:-300}" "$ROOT/mvnw" -B -q -ntp -f "$pom" dependency:copy-dependencies -DincludeScope=runtime \
         -DoutputDirectory="$DIR/$part/lib" > "$DIR/$part.fetch.log" 2>&1; then
    tail -n 5 "$DIR/$part.fetch.log" >&2
    echo "scouter: could not fetch the $part from Maven Central (log: $DIR/$part.fetch.log)" >&2; return 1
  fi
  echo "$source" > "$DIR/$part/.fetched"
}

agent() {
  local source jar tmp sum
  if [ -n "${SCOUTER_AGENT_JAR:-}" ]; then
    [ -f "$SCOUTER_AGENT_JAR" ] || { echo "scouter: SCOUTER_AGENT_JAR=$SCOUTER_AGENT_JAR is not a file" >&2; return 1; }
    source="file:$(sha256sum "$SCOUTER_AGENT_JAR" | cut -d' ' -f1)"
  else
    source="release:$VERSION:${SCOUTER_AGENT_SHA256:-}"
  fi
  [ "$(cat "$DIR/agent/.fetched" 2>/dev/null)" = "$source" ] && [ -f "$DIR/agent/scouter.agent.jar" ] && return 0
  rm -rf "$DIR/agent"; mkdir -p "$DIR/agent"
  if [ -n "${SCOUTER_AGENT_JAR:-}" ]; then
    cp "$SCOUTER_AGENT_JAR" "$DIR/agent/scouter.agent.jar"
  else
    local url="https://github.com/scouter-project/scouter/releases/download/v$VERSION/scouter-all-$VERSION.tar.gz"
    tmp=$(mktemp -d)
    echo "scouter: downloading the agent $VERSION ($url) ..."
    if ! curl -fsSL --connect-timeout 10 --max-time 300 -o "$tmp/scouter.tar.gz" "$url"; then
      rm -rf "$tmp"
      echo "scouter: could not download $url — without GitHub access, set SCOUTER_AGENT_JAR=<path to scouter.agent.jar>" >&2
      return 1
    fi
    sum=$(sha256sum "$tmp/scouter.tar.gz" | cut -d' ' -f1)
    echo "scouter: scouter-all-$VERSION.tar.gz sha256: $sum"
    if [ -n "${SCOUTER_AGENT_SHA256:-}" ] && [ "$sum" != "$SCOUTER_AGENT_SHA256" ]; then
      rm -rf "$tmp"; echo "scouter: sha256 mismatch — expected SCOUTER_AGENT_SHA256=$SCOUTER_AGENT_SHA256" >&2; return 1
    fi
    tar -xzf "$tmp/scouter.tar.gz" -C "$tmp"
    jar=$(find "$tmp" -path '*/agent.java/scouter.agent.jar' | head -n 1)
    [ -n "$jar" ] || { rm -rf "$tmp"; echo "scouter: no agent.java/scouter.agent.jar in $url" >&2; return 1; }
    cp "$jar" "$DIR/agent/scouter.agent.jar"; rm -rf "$tmp"
  fi
  echo "$source" > "$DIR/agent/.fetched"
}

rc=0
for part in "${PARTS[@]}"; do
  case $part in
    server) libs server "$HERE/pom.xml" || rc=1 ;;
    webapp) libs webapp "$HERE/webapp/pom.xml" || rc=1 ;;
    agent) agent || rc=1 ;;
    *) echo "scouter: unknown part '$part' — use server, webapp or agent" >&2; exit 2 ;;
  esac
done
exit $rc
