#!/usr/bin/env bash
# Builds Prometheus 3 (prometheus + promtool) from the Go module proxy, for the offline stand-in image lab-prometheus:3
# (docker/offline/build-base-images.sh). Debian 12's prometheus package is 2.42; the public image's 3.x comes from a
# registry CI cannot reach. The version is the one docker-compose.yml pins (prom/prometheus:vX.Y.Z); the Go module
# github.com/prometheus/prometheus tags release X.Y.Z as v0.(X*100+Y).Z (3.13.5 = v0.313.5).
#   docker/offline/prometheus.sh            prints the directory holding prometheus and promtool, building them if needed
# Cached in ${XDG_CACHE_HOME:-~/.cache}/gateway-lab/prometheus-<version>/ (one build per machine and version). Built with
# CGO_ENABLED=0 (a static binary: any base image runs it), -tags remove_all_sd (file and HTTP discovery only: the lab
# uses static targets; fewer modules to fetch and compile) and without builtinassets: the module holds no compiled web
# UI, so the UI pages answer with an error while the HTTP API — all the lab's checks use — is complete.
# Needs a Go toolchain as new as the module's go.mod asks (GOTOOLCHAIN=local: never downloads one). Bounded by 1200 s.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
VERSION=$(grep -oE 'prom/prometheus:v[0-9]+\.[0-9]+\.[0-9]+' "$ROOT/docker-compose.yml" | head -n1 | sed 's/.*:v//')
[[ -n $VERSION ]] || { echo "prometheus: no prom/prometheus:vX.Y.Z image in docker-compose.yml" >&2; exit 2; }
IFS=. read -r major minor patch <<< "$VERSION"
MODULE=github.com/prometheus/prometheus
MODULE_VERSION=v0.$((major * 100 + minor)).$patch
OUT=${XDG_CACHE_HOME:-$HOME/.cache}/gateway-lab/prometheus-$VERSION
if [[ -x $OUT/prometheus && -x $OUT/promtool ]]; then echo "$OUT"; exit 0; fi
command -v go >/dev/null || { echo "prometheus: no Go toolchain to build Prometheus $VERSION ($MODULE@$MODULE_VERSION)" >&2; exit 1; }

export GOTOOLCHAIN=local GOFLAGS=-mod=readonly GOWORK=off CGO_ENABLED=0
mkdir -p "$OUT.part"
log=$OUT.part/build.log
start=$SECONDS
echo "prometheus: building $VERSION from the Go module proxy ($MODULE@$MODULE_VERSION; log $log)" >&2
{
  dir=$(timeout 600 go mod download -json "$MODULE@$MODULE_VERSION" | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p')
  [[ -n $dir && -f $dir/VERSION ]] || { echo "no module directory for $MODULE@$MODULE_VERSION"; exit 1; }
  [[ $(cat "$dir/VERSION") == "$VERSION" ]] || { echo "$MODULE@$MODULE_VERSION is $(cat "$dir/VERSION"), not $VERSION"; exit 1; }
  flags="-X github.com/prometheus/common/version.Version=$VERSION -X github.com/prometheus/common/version.Revision=$MODULE_VERSION"
  flags+=" -X github.com/prometheus/common/version.Branch=module-proxy -X github.com/prometheus/common/version.BuildUser=gateway-lab"
  # the module cache is read-only: build from it, write only the binaries
  (cd "$dir" && timeout 1200 go build -trimpath -tags remove_all_sd -ldflags "-s -w $flags" \
                  -o "$OUT.part/" ./cmd/prometheus ./cmd/promtool)
} > "$log" 2>&1 || { tail -n 20 "$log" >&2; echo "prometheus: build of $VERSION failed (log $log)" >&2; exit 1; }
"$OUT.part/prometheus" --version >> "$log" 2>&1
rm -rf "$OUT"; mv "$OUT.part" "$OUT"
echo "prometheus: $VERSION built in $((SECONDS - start)) s" >&2
echo "$OUT"
