#!/usr/bin/env bash
# Provisioning for the compose smoke test (called by .ci/run before ci/compose-smoke.sh; root on Debian 12):
#   tools   apt-get what is missing (docker.io, debootstrap, apache2-utils, curl, python3); start dockerd if no
#           engine answers (pid in $WORK/dockerd.pid, stopped by the smoke test's teardown)
#   compose Compose v2 from the Go module proxy (go install, cached in ~/.cache/gateway-lab) when `docker compose`
#           is missing
#   base    without a registry: local stand-ins for the public base images (docker/offline/build-base-images.sh,
#           tagged lab-*, built once per machine and kept: Debian packages by debootstrap, a Java runtime jlinked from
#           the host's JDK 25, Prometheus 3 built from the Go module proxy by docker/offline/prometheus.sh and cached
#           in ~/.cache/gateway-lab)
# Writes $WORK/provision.env (LAB_SMOKE_OFFLINE=0|1, DOCKERD_PID) for the smoke test. Env: LAB_SMOKE_OFFLINE=auto|1|0.
set -uo pipefail
CI_NAME=provision
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CI_ROOT" || exit 1
COMPOSE_VERSION=v2.29.7
WORK=${LAB_SMOKE_DIR:-$CI_ROOT/target/compose-smoke}
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/gateway-lab
mkdir -p "$WORK" "$CACHE"; rm -f "$WORK/provision.env"
DOCKERD_PID=

apt_install() {   # apt_install <package>... (only the missing ones are passed)
  [[ $# -gt 0 ]] || return 0
  log "apt-get install $*"
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 apt-get -o DPkg::Lock::Timeout=180 install -y -q --no-install-recommends "$@" > "$WORK/apt.log" 2>&1 \
    || { timeout 300 apt-get -o DPkg::Lock::Timeout=180 update -q >> "$WORK/apt.log" 2>&1 \
         && timeout 600 apt-get -o DPkg::Lock::Timeout=180 install -y -q --no-install-recommends "$@" >> "$WORK/apt.log" 2>&1; } \
    || { tail -n 20 "$WORK/apt.log"; fail "apt-get install $*"; }
}

tools() {
  local pkgs=() unique=()
  command -v dockerd >/dev/null || pkgs+=(docker.io)
  command -v docker >/dev/null || pkgs+=(docker.io)
  command -v debootstrap >/dev/null || pkgs+=(debootstrap)
  command -v ab >/dev/null || pkgs+=(apache2-utils)
  command -v curl >/dev/null || pkgs+=(curl)
  command -v python3 >/dev/null || pkgs+=(python3)
  [[ ${#pkgs[@]} -eq 0 ]] || mapfile -t unique < <(printf '%s\n' "${pkgs[@]}" | sort -u)
  apt_install "${unique[@]}" || return 1
  if ! timeout 10 docker info >/dev/null 2>&1; then
    log "no Docker engine answers: starting dockerd (log: $WORK/dockerd.log)"
    # Without the descriptors this script inherited beyond stdin/out/err: the engine outlives the script, and any it
    # kept (a caller's pipe, for instance) would stay open as long as the engine runs.
    setsid python3 -c 'import os, sys; os.closerange(3, 65536); os.execvp("dockerd", ["dockerd"])' \
      > "$WORK/dockerd.log" 2>&1 < /dev/null &
    DOCKERD_PID=$!
    echo "$DOCKERD_PID" > "$WORK/dockerd.pid"
    local deadline=$((SECONDS + 60))
    until timeout 5 docker info >/dev/null 2>&1; do
      (( SECONDS < deadline )) && kill -0 "$DOCKERD_PID" 2>/dev/null || { tail -n 20 "$WORK/dockerd.log"; fail "dockerd did not come up in 60 s"; return 1; }
      sleep 1
    done
  fi
  log "engine $(docker info --format '{{.ServerVersion}}')"
  printf 'DOCKERD_PID=%s\n' "$DOCKERD_PID" > "$WORK/provision.env"   # so the smoke test's teardown can stop it
}

compose() {
  if ! docker compose version >/dev/null 2>&1; then
    local cached=$CACHE/docker-compose-$COMPOSE_VERSION
    if [[ ! -x $cached ]]; then
      command -v go >/dev/null || { fail "Compose v2 missing and no Go toolchain to build it"; return 1; }
      log "building Compose $COMPOSE_VERSION from the Go module proxy (takes a few minutes)"
      local gobin; gobin=$(mktemp -d)
      GOBIN=$gobin timeout 900 go install \
          -ldflags "-s -w -X github.com/docker/compose/v2/internal.Version=$COMPOSE_VERSION" \
          "github.com/docker/compose/v2/cmd@$COMPOSE_VERSION" > "$WORK/go-install.log" 2>&1 \
        || { tail -n 20 "$WORK/go-install.log"; rm -rf "$gobin"; fail "go install compose"; return 1; }
      install -m 0755 "$gobin/cmd" "$cached"; rm -rf "$gobin"
    fi
    mkdir -p "$HOME/.docker/cli-plugins"
    install -m 0755 "$cached" "$HOME/.docker/cli-plugins/docker-compose"
  fi
  log "$(docker compose version)"
}

base() {
  local offline=${LAB_SMOKE_OFFLINE:-auto}
  if [[ $offline == auto ]]; then
    if timeout 20 docker pull -q "$(sed -n 's/^\s*image: \(postgres:[^ ]*\).*/\1/p' docker-compose.yml | head -n1)" >/dev/null 2>&1
    then offline=0; else offline=1; fi
  fi
  if [[ $offline == 1 ]]; then
    log "no container registry: the offline base images (docker/offline/build-base-images.sh)"
    local start=$SECONDS
    timeout 1500 docker/offline/build-base-images.sh || { fail "offline base images"; return 1; }
    log "offline base images ready in $((SECONDS - start)) s"
  else
    log "registry reachable: the public images are used"
  fi
  printf 'LAB_SMOKE_OFFLINE=%s\n' "$offline" >> "$WORK/provision.env"
}

T0=$SECONDS
tools && compose && base
rc=$?
log "provisioning $([[ $rc -eq 0 ]] && echo done || echo FAILED) in $((SECONDS - T0)) s"
exit $rc
