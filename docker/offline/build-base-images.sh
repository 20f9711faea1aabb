#!/usr/bin/env bash
# Builds local stand-ins for the public base images, for machines with apt but no container registry (CI). One
# debootstrap --variant=minbase root file system holding the Debian packages is imported once (lab-base:trixie);
# the images are thin `docker build` layers on top of it, so they share one copy on disk and cost one debootstrap.
#   lab-jre:25         a Java runtime jlinked from the host's JDK 25      stands in for eclipse-temurin:25-jre
#   lab-postgres:17    postgresql-17 (Debian 13)                           stands in for postgres (entrypoint: docker/postgres/offline-entrypoint.sh)
#   lab-prometheus:3   Prometheus 3 built from the Go module proxy         stands in for prom/prometheus (docker/offline/prometheus.sh)
#   lab-nginx:1        nginx-light (Debian 13, 1.26)                       stands in for nginx
# The root file system is Debian 13 (trixie: PostgreSQL 17, the compose file's major; Debian 12 has 15 only), fetched
# from the mirror of the machine's apt sources by the host's debootstrap (Debian 12's knows trixie and its keys).
# The versions follow docker-compose.yml: the JDK major of its eclipse-temurin image (the runtime is jlinked from the
# Temurin JDK installed on the host, the build ./lab runs the apps on: LAB_IMAGE_JDK, else the newest of that major under
# /usr/lib/jvm), and its prom/prometheus version. An image whose tag exists is reused while its label says it holds
# what is asked for (package set, JDK build, Prometheus version); otherwise it is rebuilt.
# Usage: docker/offline/build-base-images.sh [--force]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

SUITE=trixie
BASE=lab-base:$SUITE
PACKAGES=curl,ca-certificates,passwd,postgresql-17,nginx-light
JDK_MAJOR=$(grep -oE 'eclipse-temurin:[0-9]+' "$ROOT/docker-compose.yml" | head -n1 | sed 's/.*://')
[[ -n $JDK_MAJOR ]] || { echo "no eclipse-temurin:<major> image in docker-compose.yml" >&2; exit 2; }
FORCE=false
[[ ${1:-} == --force ]] && FORCE=true

label() { docker image inspect -f "{{index .Config.Labels \"$2\"}}" "$1" 2>/dev/null || true; }
current() { ! $FORCE && [[ -n $3 && $(label "$1" "$2") == "$3" ]]; }   # current <image> <label> <wanted value>

# The Debian mirror comes from the machine's own apt sources (deb822 or one-line format), whatever suite they name.
mirror() {
  local m
  m=$(grep -hE '^\s*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1 || true)
  [[ -n $m ]] || m=$(grep -hE "^\s*deb\s+(\[[^]]*\]\s+)?https?://\S+\s+[a-z]+\s" /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
                       | sed -E 's/^\s*deb\s+(\[[^]]*\]\s+)?//' | awk '{print $1}' | grep -v security | head -n1 || true)
  echo "${m:-http://deb.debian.org/debian}"
}

# The host's JDK of that major: LAB_IMAGE_JDK, else the newest under /usr/lib/jvm (by the release file's JAVA_VERSION).
jdk_home() {
  local d best= best_version= version
  if [[ -n ${LAB_IMAGE_JDK:-} ]]; then
    [[ -x $LAB_IMAGE_JDK/bin/jlink ]] || { echo "LAB_IMAGE_JDK=$LAB_IMAGE_JDK has no bin/jlink" >&2; return 1; }
    echo "$LAB_IMAGE_JDK"; return 0
  fi
  for d in /usr/lib/jvm/*/; do
    d=${d%/}
    [[ -x $d/bin/jlink && -f $d/release ]] || continue
    version=$(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$d/release")
    [[ ${version%%.*} == "$JDK_MAJOR" ]] || continue
    if [[ -z $best ]] || [[ $(printf '%s\n%s\n' "$best_version" "$version" | sort -V | tail -n1) == "$version" ]]; then
      best=$d; best_version=$version
    fi
  done
  [[ -n $best ]] || { echo "no JDK $JDK_MAJOR with jlink under /usr/lib/jvm (set LAB_IMAGE_JDK)" >&2; return 1; }
  echo "$best"
}

work=$(mktemp -d /tmp/lab-images.XXXXXX)
root=
cleanup() {   # debootstrap may leave /proc or /sys mounted inside the target when it is interrupted
  if [[ -n $root && -d $root ]]; then
    grep -o " $root/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
    rm -rf "$root" "$root.log"
  fi
  rm -rf "$work"
}
trap cleanup EXIT

if ! current "$BASE" lab.packages "$PACKAGES"; then
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
         "$root"/var/lib/postgresql/17 "$root"/etc/postgresql/17 "$root"/etc/nginx/sites-enabled/*
  tar -C "$root" -c . | docker import --change "LABEL lab.packages=$PACKAGES" - "$BASE" >/dev/null
  grep -o " $root/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  rm -rf "$root" "$root.log"; root=
  echo "== $BASE: built in $((SECONDS - start)) s"
  FORCE=true   # the images on top of it follow
fi

build() {   # build <tag> <label=value> <context dir or -> <Dockerfile lines after FROM>
  local tag=$1 lbl=$2 context=$3; shift 3
  local out dockerfile
  dockerfile=$(printf 'FROM %s\nLABEL %s\n%s\n' "$BASE" "$lbl" "$*")
  if [[ $context == - ]]; then
    out=$(docker build -q -t "$tag" - <<< "$dockerfile" 2>&1) || { echo "$out" >&2; return 1; }
  else
    printf '%s\n' "$dockerfile" > "$context/Dockerfile"
    out=$(docker build -q -t "$tag" "$context" 2>&1) || { echo "$out" >&2; return 1; }
  fi
  echo "== $tag: built ($lbl)"
}

# lab-jre:<major>: every runtime module of the JDK (no compiler, jlink, jshell, javadoc, debugger or UI tools), the
# layout of the Temurin images (/opt/java/openjdk). jlink links from the JDK's own run-time image (JDK 24+: no jmods).
# With the default class-data-sharing archives (lib/server/classes*.jsa) the Temurin JRE images ship too: without
# them every JVM loads the JDK's classes from scratch, and three of them starting at once on 2 cores take far longer.
jdk=$(jdk_home)
jdk_build=$(sed -n 's/^IMPLEMENTOR_VERSION="\(.*\)"/\1/p; s/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$jdk/release" | head -n1)
jdk_build="${jdk_build:-$("$jdk/bin/java" -version 2>&1 | head -n1)} with CDS"
if ! current "lab-jre:$JDK_MAJOR" lab.jdk "$jdk_build"; then
  modules=$("$jdk/bin/java" --list-modules | sed 's/@.*//' | grep -vxE 'jdk\.(compiler|jlink|jpackage|jshell|javadoc|jdeps|jartool|jconsole|jdi|jstatd|editpad|hotspot\.agent|accessibility|unsupported\.desktop|incubator\.[a-z.]+|internal\.(ed|le|opt|vm\.ci)|graal\.compiler(\.management)?)' | paste -sd,)
  mkdir -p "$work/jre"
  "$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
    --generate-cds-archive --output "$work/jre/jre"
  build "lab-jre:$JDK_MAJOR" "lab.jdk=\"$jdk_build\"" "$work/jre" '
COPY jre /opt/java/openjdk
ENV JAVA_HOME=/opt/java/openjdk PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
RUN java -version'
  rm -rf "$work/jre"
fi

prometheus_version=$(grep -oE 'prom/prometheus:v[0-9.]+' "$ROOT/docker-compose.yml" | head -n1 | sed 's/.*:v//')
if ! current lab-prometheus:3 lab.prometheus "$prometheus_version"; then
  bin=$("$HERE/prometheus.sh")
  mkdir -p "$work/prometheus" && cp "$bin/prometheus" "$bin/promtool" "$work/prometheus/"
  build lab-prometheus:3 "lab.prometheus=$prometheus_version" "$work/prometheus" '
COPY prometheus promtool /bin/
RUN mkdir -p /prometheus /etc/prometheus && chown nobody:nogroup /prometheus
USER nobody
WORKDIR /prometheus
EXPOSE 9090
ENTRYPOINT ["/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]'
fi

if ! current lab-postgres:17 lab.base "$PACKAGES"; then
  build lab-postgres:17 "lab.base=$PACKAGES" - '
ENV PATH=/usr/lib/postgresql/17/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin PGDATA=/var/lib/postgresql/data
STOPSIGNAL SIGINT
EXPOSE 5432'
fi

if ! current lab-nginx:1 lab.base "$PACKAGES"; then
  build lab-nginx:1 "lab.base=$PACKAGES" - '
STOPSIGNAL SIGQUIT
EXPOSE 8090
CMD ["nginx", "-g", "daemon off;"]'
fi
echo "offline base images: lab-jre:$JDK_MAJOR ($jdk_build), lab-postgres:17, lab-prometheus:3 ($prometheus_version), lab-nginx:1"
