#!/usr/bin/env bash
# Resolve Apache Kafka's tools 4.4.0 (TransactionsCommand = kafka-transactions.sh) into peers/.cache/tools/lib.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v java >/dev/null || { echo "java (17+) is required" >&2; exit 1; }
MVN="${MVN:-mvn}"
command -v "$MVN" >/dev/null || { echo "maven is required" >&2; exit 1; }
rm -rf "$here/../.cache/tools/lib"
"$MVN" -q -B -f "$here/pom.xml" dependency:copy-dependencies
touch "$here/../.cache/tools/lib/.resolved-4.4.0"
echo "resolved $(cd "$here/.." && pwd)/.cache/tools/lib"
