#!/usr/bin/env bash
# Builds local stand-ins for the public base images from Debian packages, for machines with apt but no
# container registry (CI). One debootstrap --variant=minbase root file system holding every package is
# imported once (lab-base:bookworm); the four images are thin `docker build` layers on top of it, so they
# share one copy on disk and cost one debootstrap. Images whose tags exist are reused (build once per machine).
#   lab-jre:17         openjdk-17-jre-headless + curl   stands in for eclipse-temurin:21-jre
#   lab-postgres:15    postgresql-15                    stands in for postgres:15-bookworm (entrypoint: docker/postgres/offline-entrypoint.sh)
#   lab-prometheus:2   prometheus (Debian, 2.42)        stands in for prom/prometheus
#   lab-nginx:1        nginx-light (Debian, 1.22)       stands in for nginx
# Usage: docker/offline/build-base-images.sh [--force]
set -euo pipefail

SUITE=bookworm
BASE=lab-base:bookworm
PACKAGES=openjdk-17-jre-headless,curl,ca-certificates,passwd,postgresql-15,prometheus,nginx-light
IMAGES=(lab-jre:17 lab-postgres:15 lab-prometheus:2 lab-nginx:1)
FORCE=false
[[ ${1:-} == --force ]] && FORCE=true

have() { docker image inspect "$1" >/dev/null 2>&1; }

# The mirror comes from the machine's own apt sources (deb822 or one-line format).
mirror() {
  local m
  m=$(grep -hE '^\s*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1 || true)
  [[ -n $m ]] || m=$(grep -hE "^\s*deb\s+(\[[^]]*\]\s+)?https?://\S+\s+${SUITE}\s" /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
                       | sed -E 's/^\s*deb\s+(\[[^]]*\]\s+)?//' | awk '{print $1}' | head -n1 || true)
  echo "${m:-http://deb.debian.org/debian}"
}

root=
cleanup() {   # debootstrap may leave /proc or /sys mounted inside the target when it is interrupted
  [[ -n $root && -d $root ]] || return 0
  grep -o " $root/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  rm -rf "$root" "$root.log"
}
trap cleanup EXIT

missing=()
for image in "${IMAGES[@]}"; do { $FORCE || ! have "$image"; } && missing+=("$image"); done
if [[ ${#missing[@]} -eq 0 ]]; then echo "offline base images present: ${IMAGES[*]}"; exit 0; fi

if $FORCE || ! have "$BASE"; then
  root=$(mktemp -d /tmp/lab-rootfs.XXXXXX)
  MIRROR=$(mirror)
  start=$SECONDS
  echo "== $BASE: debootstrap --variant=minbase $SUITE ($PACKAGES) from $MIRROR"
  if ! debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$root" "$MIRROR" > "$root.log" 2>&1; then
    tail -n 30 "$root.log" >&2; exit 1
  fi
  # What a container never needs: package cache and lists, docs; the Debian package's own PostgreSQL
  # cluster (PGDATA is initialised by docker/postgres/offline-entrypoint.sh) and nginx default site.
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/* \
         "$root"/var/lib/postgresql/15 "$root"/etc/postgresql/15 "$root"/etc/nginx/sites-enabled/*
  tar -C "$root" -c . | docker import - "$BASE" >/dev/null
  cleanup; root=
  echo "== $BASE: built in $((SECONDS - start)) s"
fi

build() {   # build <tag> <Dockerfile lines after FROM>
  local tag=$1; shift
  local out
  out=$(printf "FROM %s\n%s\n" "$BASE" "$*" | docker build -q -t "$tag" - 2>&1) || { echo "$out" >&2; return 1; }
  echo "== $tag: built"
}
for image in "${missing[@]}"; do
  case $image in
    lab-jre:17) build "$image" '
ENV JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64' ;;
    lab-postgres:15) build "$image" '
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin PGDATA=/var/lib/postgresql/data
STOPSIGNAL SIGINT
EXPOSE 5432' ;;
    lab-prometheus:2) build "$image" '
RUN mkdir -p /prometheus && chown nobody:nogroup /prometheus
USER nobody
WORKDIR /prometheus
EXPOSE 9090
ENTRYPOINT ["/usr/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]' ;;
    lab-nginx:1) build "$image" '
STOPSIGNAL SIGQUIT
EXPOSE 8090
CMD ["nginx", "-g", "daemon off;"]' ;;
  esac
done
