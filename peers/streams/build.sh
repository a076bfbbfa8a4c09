#!/usr/bin/env bash
# Build the Kafka Streams word count into peers/.cache/streams (wordcount.jar + lib/).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v java >/dev/null || { echo "java (17+) is required" >&2; exit 1; }
MVN="${MVN:-mvn}"
command -v "$MVN" >/dev/null || { echo "maven is required" >&2; exit 1; }
rm -rf "$here/../.cache/streams/lib"
"$MVN" -q -B -f "$here/pom.xml" package
echo "built $(cd "$here/.." && pwd)/.cache/streams/wordcount.jar"
