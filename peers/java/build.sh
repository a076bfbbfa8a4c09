#!/usr/bin/env bash
# Build ShareTool (Apache Kafka 4.4.0 Java clients driver) into peers/.cache/java.
# Output: peers/.cache/java/sharetool.jar (+ lib/ with kafka-clients and slf4j-simple).
# Run:    java -jar peers/.cache/java/sharetool.jar [--wire-log] produce|share-consume|admin ...
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v java >/dev/null || { echo "java (17+) is required" >&2; exit 1; }
MVN="${MVN:-mvn}"
command -v "$MVN" >/dev/null || { echo "maven is required" >&2; exit 1; }
rm -rf "$here/../.cache/java/lib"
"$MVN" -q -B -f "$here/pom.xml" package
echo "built $(cd "$here/.." && pwd)/.cache/java/sharetool.jar"
