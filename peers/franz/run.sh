#!/usr/bin/env bash
# Run franz-go's own pkg/kgo integration tests against a fresh sharebroker.
#
#   peers/franz/run.sh [--list FILE] [--jobs N] [--out DIR] [--seeds HOST:PORT]
#
# FILE (default peers/franz/allow.txt) lists test names, one per line (# comments),
# each optionally followed by count=N (run the test N times in one process) and
# require=Sub1,Sub2 (subtests that must PASS, not just the test).
# Each test runs as its own process (-test.run '^Name$') against one broker, with
# KGO_TEST_TIMEOUT seconds (default 180), KGO_TEST_RECORDS (default 5000; upstream 500000)
# and KGO_JOBS tests at a time (default 4). Exit status 1 if any listed test did not PASS
# (a SKIP counts as a failure: the allow-list only holds tests that really run).
# --seeds runs against an already running broker instead (e.g. the Apache Kafka peer,
# peers/kafka.sh start, for a baseline). Needs Go; franz-go comes from the Go module proxy into peers/.cache/gomod.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
LIST=$HERE/allow.txt
JOBS=${KGO_JOBS:-4}
OUT=${TMPDIR:-/tmp}/sharebroker-franz-$$
PY=${PY:-python3}
SEEDS=
while [ $# -gt 0 ]; do
  case $1 in
    --list) LIST=$2; shift 2;;
    --jobs) JOBS=$2; shift 2;;
    --out) OUT=$2; shift 2;;
    --seeds) SEEDS=$2; shift 2;;
    *) echo "unknown argument $1" >&2; exit 2;;
  esac
done
command -v go >/dev/null || { echo "go is required" >&2; exit 2; }
export GOMODCACHE=$ROOT/peers/.cache/gomod GOFLAGS=-modcacherw GOTOOLCHAIN=local
BIN=$ROOT/peers/.cache/franz/kgo.test
VERSION=$(sed -n 's/^require github.com\/twmb\/franz-go \(v[^ ]*\)$/\1/p' "$HERE/go.mod")
STAMP=$BIN.$VERSION
if [ ! -x "$BIN" ] || [ ! -e "$STAMP" ]; then
  mkdir -p "$(dirname "$BIN")"
  (cd "$HERE" && go test -c -o "$BIN" github.com/twmb/franz-go/pkg/kgo)
  rm -f "$BIN".v*; touch "$STAMP"
fi

rm -rf "$OUT"; mkdir -p "$OUT/logs"
if [ -z "$SEEDS" ]; then
  PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  (cd "$ROOT" && exec "$PY" -m broker serve \
     --set "listeners=PLAINTEXT://127.0.0.1:$PORT" --set "log.dirs=$OUT/data" \
     >"$OUT/broker.log" 2>&1) &
  BROKER=$!
  trap 'kill $BROKER 2>/dev/null; wait $BROKER 2>/dev/null || true' EXIT
  for _ in $(seq 1 100); do
    grep -q listening "$OUT/broker.log" 2>/dev/null && break
    kill -0 $BROKER 2>/dev/null || { cat "$OUT/broker.log" >&2; exit 2; }
    sleep 0.2
  done
  grep -q listening "$OUT/broker.log" || { echo "broker did not start" >&2; exit 2; }
  SEEDS=127.0.0.1:$PORT
fi

export KGO_SEEDS=$SEEDS KGO_TEST_RF=${KGO_TEST_RF:-1}
export KGO_TEST_RECORDS=${KGO_TEST_RECORDS:-5000}
export KGO_TEST_TIMEOUT=${KGO_TEST_TIMEOUT:-180}   # seconds, per test
export BIN OUT
run_one() {
  local t=$1 rc=0 count=1 require="" opt sub
  shift
  for opt in "$@"; do
    case $opt in
      count=*) count=${opt#count=};;
      require=*) require=${opt#require=};;
    esac
  done
  timeout $((count * KGO_TEST_TIMEOUT + 60)) "$BIN" -test.count="$count" -test.v -test.timeout "$((count * KGO_TEST_TIMEOUT))s" -test.run "^$t\$" \
    >"$OUT/logs/$t.log" 2>&1 || rc=$?
  if grep -q "^--- PASS: $t " "$OUT/logs/$t.log" && ! grep -q "^--- FAIL: $t " "$OUT/logs/$t.log"; then
    for sub in ${require//,/ }; do
      if ! grep -q -- "--- PASS: $sub " "$OUT/logs/$t.log"; then echo "FAIL $t (subtest $sub did not pass)"; return; fi
    done
    echo "PASS $t"
  elif grep -q "^--- SKIP: $t " "$OUT/logs/$t.log"; then echo "SKIP $t"
  else echo "FAIL $t (rc=$rc)"; fi
}
export -f run_one
grep -v '^\s*#' "$LIST" | awk 'NF{print}' | xargs -P "$JOBS" -I{} bash -c 'run_one {}' | sort -k2 | tee "$OUT/results.txt"
pass=$(grep -c '^PASS' "$OUT/results.txt" || true); total=$(wc -l <"$OUT/results.txt")
echo "franz-go $VERSION: $pass/$total passed (logs: $OUT/logs, broker log: $OUT/broker.log)"
[ "$pass" -eq "$total" ]
