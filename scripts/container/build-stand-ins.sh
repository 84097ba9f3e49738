#!/usr/bin/env bash
# Builds local stand-ins for the two official images compose.yaml and the Dockerfile use, for a machine that
# reaches no image registry: a Debian bookworm root filesystem from Debian's own packages (debootstrap
# --variant=minbase, from the mirror apt already uses), plus this machine's Node 20 (tagged
# node:20-bookworm-slim) or Debian's PostgreSQL 15 (tagged postgres:15-bookworm). Each is skipped when an
# image of that name exists already. Run as root; PODMAN holds the podman command line to use.
set -euo pipefail
PODMAN=${PODMAN:-podman}
WORK=${STAND_IN_WORKDIR:-/var/tmp/rx-transfer-stand-ins}
BASE=localhost/rx-stand-in/debian:bookworm-minbase
HERE=$(cd "$(dirname "$0")" && pwd)
say() { echo "[stand-ins] $*"; }

mirror() {
  # The first Debian mirror apt is configured with (deb822 sources or one-line sources.list).
  local uri
  uri=$(grep -h -E '^URIs:.*debian/?$' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 | awk '{print $2}')
  [ -n "$uri" ] || uri=$(grep -h -E '^deb .*/debian/? bookworm' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -1 | awk '{print $2}')
  echo "${uri:-http://deb.debian.org/debian}"
}

exists() { $PODMAN image exists "$1"; }

# Runs a long step with its output in a log, and says every 15 s how long it has run and the log's last line,
# so a CI log shows progress instead of minutes of silence; on failure, the log's tail.
with_progress() {
  local label=$1 log=$2 pid start=$SECONDS next=15
  shift 2
  "$@" >"$log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    if [ $((SECONDS - start)) -ge "$next" ]; then
      say "$label: $((SECONDS - start))s, $(tail -n 1 "$log" 2>/dev/null | tr -d '\r' | cut -c1-120)"
      next=$((next + 15))
    fi
  done
  if wait "$pid"; then
    say "$label: done in $((SECONDS - start))s"
    return 0
  fi
  tail -n 20 "$log"
  return 1
}

if exists node:20-bookworm-slim && exists postgres:15-bookworm; then
  say "node:20-bookworm-slim and postgres:15-bookworm exist already (podman image rm them to rebuild)"
  exit 0
fi

mkdir -p "$WORK"
if ! exists "$BASE"; then
  rootfs="$WORK/rootfs"
  rm -rf "$rootfs"
  say "debootstrap --variant=minbase bookworm from $(mirror) (a minute or two)…"
  with_progress debootstrap "$WORK/debootstrap.log" debootstrap --variant=minbase bookworm "$rootfs" "$(mirror)"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  say "importing the root filesystem ($(du -sh "$rootfs" | cut -f1)) as $BASE"
  tar -C "$rootfs" -c . | $PODMAN import --change 'CMD ["bash"]' - "$BASE" >/dev/null
  rm -rf "$rootfs"
fi

if ! exists node:20-bookworm-slim; then
  ctx="$WORK/node-context"
  rm -rf "$ctx" && mkdir -p "$ctx"
  node_bin=$(readlink -f "$(command -v node)")
  npm_dir=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
  say "node:20-bookworm-slim: $BASE + $node_bin ($("$node_bin" -v)) + npm from $npm_dir"
  cp "$node_bin" "$ctx/node"
  cp -r "$npm_dir" "$ctx/npm"
  # This machine reaches the npm registry through a TLS-inspecting egress proxy, which the host trusts through
  # its CA bundle: the stand-in trusts the same bundle (the official image needs nothing on an open network).
  cp "${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" "$ctx/host-ca-certificates.crt"
  cp "$HERE/node-stand-in.Containerfile" "$ctx/Containerfile"
  with_progress "build node:20-bookworm-slim" "$WORK/node-build.log" \
    $PODMAN build --network=host --pull=never --format docker -t node:20-bookworm-slim "$ctx"
  rm -rf "$ctx"
fi

if ! exists postgres:15-bookworm; then
  ctx="$WORK/postgres-context"
  rm -rf "$ctx" && mkdir -p "$ctx"
  say "postgres:15-bookworm: $BASE + Debian's postgresql-15 (apt-get inside the build)…"
  cp "$HERE/postgres-stand-in.Containerfile" "$ctx/Containerfile"
  cp "$HERE/postgres-entrypoint.sh" "$ctx/docker-entrypoint.sh"
  with_progress "build postgres:15-bookworm" "$WORK/postgres-build.log" \
    $PODMAN build --network=host --pull=never --format docker -t postgres:15-bookworm "$ctx"
  rm -rf "$ctx"
fi
say "done"
