#!/usr/bin/env bash
# franz-go's kgo integration tests against a 3-broker sharebroker cluster with etcd
# (sharebroker local-cluster on loopback), same allow-list as run.sh; topics with
# KGO_TEST_RF replicas (default 1; 3 = replicated on every broker).
#
#   [KGO_TEST_RF=3] peers/franz/run_cluster.sh [--list FILE] [--jobs N]
#
# Needs Go and the etcd binary (Debian etcd-server). The cluster is stopped by pid at exit.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PY=${PY:-python3}
OUT=${TMPDIR:-/tmp}/sharebroker-franz-cluster-$$
mkdir -p "$OUT"
(cd "$ROOT" && exec "$PY" -m broker local-cluster --brokers 3 --data-dir "$OUT/cluster" >"$OUT/cluster.out" 2>&1) &
CLUSTER=$!
trap 'kill -INT $CLUSTER 2>/dev/null; wait $CLUSTER 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do
  grep -q '^bootstrap.servers=' "$OUT/cluster.out" 2>/dev/null && break
  kill -0 $CLUSTER 2>/dev/null || { cat "$OUT/cluster.out" >&2; exit 2; }
  sleep 0.2
done
SEEDS=$(sed -n 's/^bootstrap.servers=//p' "$OUT/cluster.out")
[ -n "$SEEDS" ] || { echo "cluster did not start" >&2; cat "$OUT/cluster.out" >&2; exit 2; }
echo "cluster: $SEEDS (logs under $OUT/cluster)"
"$HERE/run.sh" --seeds "$SEEDS" "$@"
