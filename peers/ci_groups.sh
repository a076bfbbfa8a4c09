#!/usr/bin/env bash
# CI run of the consumer- and streams-group compat tests (make compat-groups), called by
# .ci/run: differential tests against Apache Kafka 4.4.0, the Java KafkaConsumer 4.4 with
# group.protocol=consumer, and a Kafka Streams word count with group.protocol=streams.
# Exit 0: passed, or SKIPPED when java/maven or the downloads are unavailable (printed as a
# "ci-groups: SKIPPED" line). Exit non-zero: a test failed or skipped, or the time ran out.
# CI_GROUPS_TIMEOUT bounds the whole script (seconds, default 600).
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PY:-.venv/bin/python}"
BUDGET="${CI_GROUPS_TIMEOUT:-600}"
EXPECT=8
start=$(date +%s)
skip() { echo "ci-groups: SKIPPED: $*"; exit 0; }

command -v java >/dev/null 2>&1 || skip "java not found (Java 17+ needed)"
command -v "${MVN:-mvn}" >/dev/null 2>&1 || skip "maven not found"
if ! timeout $((BUDGET / 2)) make -s peer-kafka java-tool compat-streams; then
    skip "make peer-kafka java-tool compat-streams failed or timed out (download unavailable?)"
fi
prep=$(( $(date +%s) - start ))
left=$(( BUDGET - prep ))
[ "$left" -ge 120 ] || { echo "ci-groups: FAILED: only ${left}s left after ${prep}s of preparation"; exit 1; }
log=$(mktemp)
timeout "$left" "$PY" -m pytest -q -rs -p no:cacheprovider -m compat \
    tests/compat/test_differential_groups.py tests/compat/test_java_groups.py 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
summary=$(tail -n 1 "$log")
rm -f "$log"
total=$(( $(date +%s) - start ))
if [ "$rc" -ne 0 ]; then
    echo "ci-groups: FAILED: pytest exit $rc (124 = timeout) after ${total}s"
    exit 1
fi
if ! grep -Eq "(^|[ =])$EXPECT passed" <<<"$summary" || grep -q skipped <<<"$summary"; then
    echo "ci-groups: FAILED: expected $EXPECT passed and no skips, got: $summary"
    exit 1
fi
echo "ci-groups: OK: $summary (prepare ${prep}s, total ${total}s)"
