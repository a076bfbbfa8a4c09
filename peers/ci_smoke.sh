#!/usr/bin/env bash
# CI smoke of the differential tests (Apache Kafka 4.4.0 vs sharebroker), run by .ci/run
# after `make test`. Prepares the peers (`make peer-kafka java-tool`: Maven Central + PyPI),
# then runs a few fast scenarios of tests/compat/test_differential.py.
# Exit 0: passed, or SKIPPED because a prerequisite is unavailable (no java/maven,
# Maven Central unreachable, download failed) -- printed as a "ci-smoke: SKIPPED" line.
# Exit non-zero: a real failure (test failed, nothing ran, a test skipped, timeout).
# CI_SMOKE_TIMEOUT bounds the whole script (seconds, default 300).
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PY:-.venv/bin/python}"
BUDGET="${CI_SMOKE_TIMEOUT:-300}"
SCENARIOS="session_epochs or bad_acks or release_redelivery"
EXPECT=3
start=$(date +%s)
skip() { echo "ci-smoke: SKIPPED: $*"; exit 0; }

command -v java >/dev/null 2>&1 || skip "java not found (Java 17+ needed for the Kafka 4.4.0 peer)"
command -v "${MVN:-mvn}" >/dev/null 2>&1 || skip "maven not found"
"$PY" - <<'PYEOF' || skip "Maven Central (repo.maven.apache.org) unreachable"
import sys, urllib.error, urllib.request
url = "https://repo.maven.apache.org/maven2/org/apache/kafka/kafka_2.13/4.4.0/kafka_2.13-4.4.0.pom"
try:
    urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=15).close()
except urllib.error.HTTPError:
    pass  # the server answered: reachable (make peers reports a real problem)
except OSError as e:
    print(f"ci-smoke: {url}: {e}", file=sys.stderr)
    sys.exit(1)
PYEOF

if ! timeout $((BUDGET * 2 / 3)) make -s peer-kafka java-tool; then
    skip "make peer-kafka java-tool failed or timed out (download unavailable?)"
fi
prep=$(( $(date +%s) - start ))
left=$(( BUDGET - prep ))
[ "$left" -ge 60 ] || { echo "ci-smoke: FAILED: only ${left}s left after ${prep}s of preparation"; exit 1; }

log=$(mktemp)
timeout "$left" "$PY" -m pytest -q -rs -p no:cacheprovider -m compat tests/compat/test_differential.py \
    -k "$SCENARIOS" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
summary=$(tail -n 1 "$log")
rm -f "$log"
total=$(( $(date +%s) - start ))
if [ "$rc" -ne 0 ]; then
    echo "ci-smoke: FAILED: pytest exit $rc (124 = timeout, 5 = nothing collected) after ${total}s"
    exit 1
fi
# All-skipped also exits 0 in pytest: require exactly EXPECT passed and nothing skipped.
if ! grep -Eq "(^|[ =])$EXPECT passed" <<<"$summary" || grep -q skipped <<<"$summary"; then
    echo "ci-smoke: FAILED: expected $EXPECT passed and no skips, got: $summary"
    exit 1
fi
echo "ci-smoke: OK: $summary (prepare ${prep}s, total ${total}s)"
