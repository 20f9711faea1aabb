#!/usr/bin/env bash
# Fetches the Zipkin server (io.zipkin:zipkin-server:<version>:exec, a runnable jar, Java 17+) from Maven Central
# with the Maven wrapper, for `./lab up --tracing` (DIR = .lab/zipkin) and for the air-gapped compose route
# (DIR = docker/zipkin/dist, read by host.Dockerfile):
#   docker/zipkin/fetch.sh DIR          → DIR/zipkin-server-<version>-exec.jar (version: lab.properties tracing.zipkin.version)
# ZIPKIN_JAR=<file> copies that jar instead (no network). A jar already there is reused; other versions are removed.
# Bounded by 600 s. Exit 1 when the jar could not be fetched (the log is named).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
[ $# -eq 1 ] || { echo "usage: docker/zipkin/fetch.sh DIR" >&2; exit 2; }
mkdir -p "$1"; DIR=$(cd "$1" && pwd)
VERSION=$(sed -n 's/^tracing.zipkin.version=//p' "$ROOT/lab.properties")
[ -n "$VERSION" ] || { echo "zipkin: no tracing.zipkin.version in lab.properties" >&2; exit 2; }
JAR=$DIR/zipkin-server-$VERSION-exec.jar
[ -s "$JAR" ] && exit 0
find "$DIR" -maxdepth 1 -name 'zipkin-server-*-exec.jar' -delete
if [ -n "${ZIPKIN_JAR:-}" ]; then
  [ -f "$ZIPKIN_JAR" ] || { echo "zipkin: ZIPKIN_JAR=$ZIPKIN_JAR is not a file" >&2; exit 1; }
  cp "$ZIPKIN_JAR" "$JAR.part" && mv "$JAR.part" "$JAR"; exit 0
fi
echo "zipkin: fetching io.zipkin:zipkin-server:$VERSION:jar:exec (≈ 130 MB) from Maven Central ..."
if ! timeout 600 "$ROOT/mvnw" -B -q -ntp -f "$ROOT/pom.xml" -N dependency:copy \
       "-Dartifact=io.zipkin:zipkin-server:$VERSION:jar:exec" "-DoutputDirectory=$DIR" > "$DIR/fetch.log" 2>&1 \
   || [ ! -s "$JAR" ]; then
  tail -n 5 "$DIR/fetch.log" >&2
  echo "zipkin: could not fetch the Zipkin server from Maven Central (log: $DIR/fetch.log)" >&2; exit 1
fi
