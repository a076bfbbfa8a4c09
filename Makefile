# sharebroker developer targets. `make help` lists them.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
# The bench extra (matplotlib for the plots, py-spy for bench-profile).
BENCH_STAMP := $(VENV)/.bench-installed

.PHONY: help venv run test test-all codegen codegen-check lint lint-imports typecheck format clean
.PHONY: bench bench-profile bench-protocol bench-startup bench-memory bench-produce bench-fetch bench-share bench-share-work bench-share-join bench-latency bench-scale bench-compare bench-peers bench-txn bench-regressions

help:
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[dev]'
	touch $(STAMP)

# Wheels to install the project offline: its build backend and runtime dependencies.
# tests/integration/test_readme.py runs the README's install command in a fresh venv
# with them (PIP_NO_INDEX), so the default suite needs no network.
WHEELHOUSE := $(VENV)/wheelhouse
WHEELHOUSE_STAMP := $(WHEELHOUSE)/.downloaded
BUILD_REQUIRES = $$($(PY) -c 'import tomllib; print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))')

$(WHEELHOUSE_STAMP): $(STAMP)
	$(PIP) download -q -d $(WHEELHOUSE) $(BUILD_REQUIRES) .
	touch $@

venv: $(STAMP) $(WHEELHOUSE_STAMP) ## create .venv with the broker and dev tools

$(BENCH_STAMP): $(STAMP)
	$(PIP) install -q -e '.[dev,bench]'
	touch $@

run: $(STAMP) ## run the broker with the embedded defaults
	$(VENV)/bin/sharebroker serve

test: $(STAMP) $(WHEELHOUSE_STAMP) ## run the default test suite (what CI runs)
	$(PY) -m pytest -q -m "not slow and not compat and not cluster and not spark and not ui"

test-all: $(STAMP) $(WHEELHOUSE_STAMP) ## run every test, slow ones included
	$(PY) -m pytest -q

.PHONY: test-docker
test-docker: $(STAMP) ## build docker/Dockerfile, run docker/compose*.yaml with real clients (root; own dockerd, no registry)
	bash docker/test.sh

codegen: $(STAMP) ## regenerate broker/protocol/messages from protocol/schemas
	$(PY) -m codegen

codegen-check: $(STAMP) ## regenerate and fail if the checked-in code differs
	$(PY) -m codegen
	git diff --exit-code -- broker/protocol/messages
	@test -z "$$(git status --porcelain -- broker/protocol/messages)" || (git status --porcelain -- broker/protocol/messages; echo 'untracked generated files'; exit 1)

lint-imports: $(STAMP) ## check the architecture contracts (broker.protocol does no I/O)
	$(VENV)/bin/lint-imports

LINT_PATHS := broker codegen bench tests docker ui-assets

lint: $(STAMP) lint-imports typecheck ## ruff (lint and format check), the architecture contracts and mypy
	$(VENV)/bin/ruff check $(LINT_PATHS)
	$(VENV)/bin/ruff format --check $(LINT_PATHS)

typecheck: $(STAMP) ## mypy over broker, codegen, bench and tests (settings in pyproject.toml [tool.mypy])
	$(VENV)/bin/mypy

format: $(STAMP) ## apply ruff's fixes and formatting
	$(VENV)/bin/ruff check --fix $(LINT_PATHS)
	$(VENV)/bin/ruff format $(LINT_PATHS)

RESULTS := bench/results
# Every comparison target runs the scenario against sharebroker, Kafka 4.4.0 and Tansu 0.6
# in one run: brokers on CPU 0, this process and its clients on CPU 1.
COMPARE := taskset -c 1 $(PY) -m bench.compare

bench-protocol: $(STAMP) ## decode/encode rates of the protocol layer (sharebroker only, no peer)
	@mkdir -p $(RESULTS)
	$(PY) -m bench.protocol --json $(RESULTS)/protocol.json

# One scenario against every broker -> $(RESULTS)/<scenario>-<date>.json; docs/PERFORMANCE.md
# is left alone (only bench-compare, which runs them all, rewrites it).
# What a new user gets: a plain `pip install .` (no dev extras) in its own venv.
STARTUP_VENV := .venv-startup
STARTUP_STAMP := $(STARTUP_VENV)/.installed

$(STARTUP_STAMP): pyproject.toml $(shell find broker -name '*.py' -not -path '*/__pycache__/*')
	$(PYTHON) -m venv $(STARTUP_VENV)
	$(STARTUP_VENV)/bin/pip install -q --upgrade pip
	$(STARTUP_VENV)/bin/pip install -q .
	touch $@

bench-startup: $(BENCH_STAMP) $(STARTUP_STAMP) bench-peers ## start -> first ApiVersions vs the python+trio floor (fresh pip install .), then all brokers
	@mkdir -p $(RESULTS)
	$(PY) -m bench.startup --python $(CURDIR)/$(STARTUP_VENV)/bin/python --json $(RESULTS)/startup-floor-$$(date +%F).json
	$(COMPARE) --scenarios startup

bench-memory: $(BENCH_STAMP) bench-peers ## all brokers: idle RSS (peaks come with bench-produce and bench-share)
	@mkdir -p $(RESULTS)
	$(COMPARE) --scenarios memory

bench-produce: $(BENCH_STAMP) bench-peers ## all brokers: librdkafka produce, 1 KiB, acks=all, 1 and 8 partitions; peak RSS
	@mkdir -p $(RESULTS)
	$(COMPARE) --scenarios produce

bench-fetch: $(BENCH_STAMP) bench-peers ## all brokers: one librdkafka Consumer (assign) drains 1 GiB
	@mkdir -p $(RESULTS)
	$(COMPARE) --scenarios fetch

bench-share: $(BENCH_STAMP) bench-peers ## sharebroker and Kafka: 1, 4 and 16 ShareConsumers on 1 and 4 partitions; peak RSS
	@mkdir -p $(RESULTS)
	$(COMPARE) --scenarios share

# Share groups that share the work: 0, 1, 2 and 5 ms of work per record, 1/4/8/16 members, 1 and 4
# partitions, sharebroker and Kafka 4.4.0 in one run (about 15 minutes) -> $(RESULTS)/share-work-<date>.json.
bench-share-work: $(BENCH_STAMP) bench-peers ## sharebroker and Kafka: members with work per record, % of ideal and spread
	@mkdir -p $(RESULTS)
	taskset -c 1 $(PY) -m bench.share_work --json $(RESULTS)/share-work-$$(date +%F).json

# A consumer joining a busy group: seconds to its first record (librdkafka and Java share consumers, a
# KIP-848 consumer), sharebroker and Kafka 4.4.0; BASELINE=<checkout> adds an earlier sharebroker.
bench-share-join: $(BENCH_STAMP) bench-peers ## sharebroker and Kafka: join -> first record for a second member
	@mkdir -p $(RESULTS)
	taskset -c 1 $(PY) -m bench.share_join $(if $(BASELINE),--baseline-src $(BASELINE)) --json $(RESULTS)/share-join-$$(date +%F).json

bench-latency: $(BENCH_STAMP) bench-peers ## sharebroker and Kafka: 1000 records/s producer -> ShareConsumer, p50/p99/p99.9
	@mkdir -p $(RESULTS)
	$(COMPARE) --scenarios latency

bench-scale: $(BENCH_STAMP) bench-peers ## sharebroker and Kafka: 1000 share-partitions, in-flight memory and ShareFetch/ack cost
	@mkdir -p $(RESULTS)
	$(COMPARE) --scenarios scale

bench-txn: $(BENCH_STAMP) bench-peers ## sharebroker and Kafka: librdkafka transactional produce (1 KiB, 100 per transaction) and read_committed fetch
	@mkdir -p $(RESULTS)
	$(COMPARE) --scenarios txn --brokers sharebroker,kafka

bench-compare: $(BENCH_STAMP) peers ## every scenario, all brokers in one run -> bench/results/compare-<date>.json, docs/PERFORMANCE.md
	@mkdir -p $(RESULTS)
	$(COMPARE)

bench: bench-protocol bench-compare ## every benchmark: bench-protocol, then bench-compare

# This checkout against an earlier commit in the same run: BASE is checked out into a
# temporary worktree, bench.compare runs both brokers ROUNDS times with the same pinning and
# clients (their order swapped each round), and bench.regressions fails on any row whose
# median over the rounds is more than TOLERANCE % worse than BASE's.
REGRESS_DIR := $(CURDIR)/.bench-baseline
TOLERANCE ?= 5
ROUNDS ?= 3
REGRESS_SCENARIOS ?= all
bench-regressions: $(BENCH_STAMP) peers ## this checkout vs BASE=<commit>, ROUNDS runs: fails on a row whose median is > TOLERANCE % worse
	@test -n "$(BASE)" || { echo "usage: make bench-regressions BASE=<commit> [ROUNDS=3] [TOLERANCE=5]"; exit 2; }
	@mkdir -p $(RESULTS)
	rm -rf $(REGRESS_DIR) && git worktree prune && git worktree add --detach $(REGRESS_DIR) $(BASE)
	rc=0; files=; for i in $$(seq 1 $(ROUNDS)); do \
		if [ $$((i % 2)) -eq 1 ]; then order=baseline,sharebroker; else order=sharebroker,baseline; fi; \
		out=$(RESULTS)/regressions-$$(date +%F)-round$$i.json; files="$$files $$out"; \
		$(COMPARE) --baseline-src $(REGRESS_DIR) --brokers $$order --scenarios $(REGRESS_SCENARIOS) \
			--no-doc --json $$out || { rc=$$?; break; }; \
	done; git worktree remove --force $(REGRESS_DIR); test $$rc -eq 0 && \
	$(PY) -m bench.regressions $$files --tolerance $(TOLERANCE)

bench-profile: $(BENCH_STAMP) ## py-spy profile of sharebroker under produce and share consume -> bench/results/profile/
	taskset -c 1 $(PY) -m bench.profile

clean:
	rm -rf $(VENV) $(STARTUP_VENV) .pytest_cache .hypothesis .mypy_cache

-include peers/peers.mk

# The peers the bench-* comparisons start. After the include: TANSU_STAMP is defined there.
bench-peers: peer-kafka $(TANSU_STAMP) ## fetch only what the benchmarks compare against: Kafka 4.4.0 and Tansu 0.6

# ---- fuzzing (atheris, coverage-guided; bounded: FUZZ_RUNS inputs per target)
FUZZ_STAMP := $(VENV)/.fuzz-installed
FUZZ_RUNS ?= 50000

$(FUZZ_STAMP): $(STAMP)
	$(PIP) install -q -e '.[dev,fuzz]'
	touch $@

.PHONY: fuzz
fuzz: $(FUZZ_STAMP) ## fuzz the frame decoder, record batches and SASL auth: FUZZ_RUNS inputs each
	$(PY) -m tests.fuzz.run --runs $(FUZZ_RUNS)

# Mutated real-client frames against a running broker, its health checked after every batch.
FUZZ_CONNECTIONS ?= 10000
.PHONY: compat-security
compat-security: $(STAMP) peer-kafka $(JAVA_TOOL_JAR) ## ACL decisions vs Kafka 4.4.0; Java clients over SASL_SSL/SCRAM and mTLS (needs Java)
	$(PY) -m pytest -q -m compat tests/compat/test_acl_differential.py tests/compat/test_java_security.py

.PHONY: bench-tls
bench-tls: $(BENCH_STAMP) peer-kafka ## sharebroker vs Kafka 4.4.0: produce/fetch MB/s over PLAINTEXT, SSL, SASL_SSL (SCRAM-SHA-512)
	@mkdir -p $(RESULTS)
	taskset -c 1 $(PY) -m bench.tls --mib 256

.PHONY: bench-idle
# IDLE_BROKERS=sharebroker,kafka: Kafka 4.4.0 beside it, same method (needs make peer-kafka).
IDLE_BROKERS ?= sharebroker
bench-idle: $(STAMP) ## RSS per idle connection: 2,000 connections held by one broker (IDLE_BROKERS=sharebroker,kafka for both)
	$(PY) -m bench.idle_connections --connections 2000 --brokers $(IDLE_BROKERS)

.PHONY: fuzz-network
fuzz-network: $(STAMP) ## network fuzz: FUZZ_CONNECTIONS connections of mutated client frames to a running broker
	$(PY) -m tests.fuzz.network --connections $(FUZZ_CONNECTIONS)

# ---- cluster mode (etcd + several brokers on loopback; needs the etcd binary: Debian etcd-server)
.PHONY: test-cluster bench-cluster
test-cluster: $(STAMP) ## cluster tests: 3 brokers and etcd, real clients, failover, etcd outage (tests/cluster)
	$(PY) -m pytest -q -m cluster tests/cluster

bench-cluster: $(BENCH_STAMP) ## produce MB/s of a 2-broker cluster vs 1 broker (etcd on loopback) -> bench/results/cluster-scale-<date>.json
	@mkdir -p $(RESULTS)
	taskset -c 1 $(PY) -m bench.cluster_scale

.PHONY: bench-scale-cluster
# Total partitions per step (make bench-scale-cluster SCALE_SIZES=1000,10000,30000 SCALE_LAYOUT=cluster);
# SCALE_ARGS for the other options (e.g. SCALE_ARGS="--groups 2000 --share-groups 200 --connections 0").
SCALE_SIZES ?= 1000,10000
SCALE_LAYOUT ?= both
SCALE_ARGS ?=
bench-scale-cluster: $(BENCH_STAMP) peer-kafka ## sharebroker vs Kafka 4.4 at 1k and 10k partitions, 1 broker RF 1 and 3 brokers RF 3: create, Metadata, ListOffsets, first produce, idle CPU/RSS, controller kill -9, restart, 10,000 consumer and 1,000 share groups reloaded, 2,000 idle connections, stop -> bench/results/scale-cluster-<date>.json
	@mkdir -p $(RESULTS)
	$(PY) -m bench.scale_cluster --sizes $(SCALE_SIZES) --layout $(SCALE_LAYOUT) $(SCALE_ARGS)

.PHONY: bench-replication-spread
# SPREAD_ARGS for the options (e.g. SPREAD_ARGS="--rounds 5 --kafka-rounds 0").
SPREAD_ARGS ?=
bench-replication-spread: $(BENCH_STAMP) peer-kafka ## one acks=all record to each of 5,000 new partitions: 3 brokers RF 3 vs 1 broker RF 1, sharebroker and Kafka 4.4 -> bench/results/replication-spread-<date>.json
	@mkdir -p $(RESULTS)
	$(PY) -m bench.replication_spread $(SPREAD_ARGS)

.PHONY: bench-replication
bench-replication: $(BENCH_STAMP) peer-kafka ## RF 3 over 3 brokers vs a 3-node Kafka 4.4: acks=all MB/s, kill -9 of a leader -> next ack -> bench/results/replication-<date>.json
	@mkdir -p $(RESULTS)
	$(PY) -m bench.replication

# PySpark: Spark's own Kafka connector against sharebroker, and the kafka-share source
# (broker.spark). The spark extra pins pyspark 4.2.0; peers/spark/pom.xml fetches the
# connector jars (Maven Central) into peers/.cache/spark/jars.
SPARK_STAMP := $(VENV)/.spark-installed
SPARK_JARS_STAMP := peers/.cache/spark/jars/.resolved-4.2.0

.PHONY: test-spark bench-spark spark-jars

$(SPARK_STAMP): $(STAMP)
	$(PIP) install -q -e '.[dev,spark]'
	touch $@

$(SPARK_JARS_STAMP): peers/spark/pom.xml
	@command -v java >/dev/null || { echo "java (17+) is required"; exit 1; }
	@command -v $(MVN) >/dev/null || { echo "maven is required"; exit 1; }
	rm -rf peers/.cache/spark/jars
	$(MVN) -q -B -f peers/spark/pom.xml dependency:copy-dependencies
	touch $@

spark-jars: $(SPARK_JARS_STAMP) ## fetch Spark's Kafka connector jars (peers/spark/pom.xml)

test-spark: $(SPARK_STAMP) $(SPARK_JARS_STAMP) peer-kafka ## PySpark tests: Spark's Kafka connector and the kafka-share source (tests/spark)
	$(PY) -m pytest -q -m spark tests/spark

bench-spark: $(SPARK_STAMP) $(SPARK_JARS_STAMP) ## kafka-share vs Spark's Kafka source draining one 1M-record topic on local[2]
	@mkdir -p $(RESULTS)
	$(PY) -m bench.spark --json $(RESULTS)/spark.json
# ---- consumer and classic group rebalances (bench/groups.py), sharebroker vs Kafka 4.4.0 in one run
.PHONY: bench-groups
bench-groups: $(BENCH_STAMP) peer-kafka ## 10 members join -> stable, and the pause when one leaves: classic and consumer groups vs Kafka
	@mkdir -p $(RESULTS)
	taskset -c 1 $(PY) -m bench.groups

# ---- log compaction (the cleaner)
.PHONY: test-compaction compat-compaction bench-cleaner
test-compaction: $(STAMP) ## kill -9 of the broker during cleaning, 20 times: the log stays valid and complete (slow)
	$(PY) -m pytest -q -m slow tests/integration/test_compaction_crash.py

compat-compaction: $(STAMP) peer-kafka ## the same key/value/tombstone sequence compacted by Kafka 4.4.0 and sharebroker, compared
	$(PY) -m pytest -q -m compat tests/compat/test_compaction_differential.py

# A Kafka Streams KTable (peers/streams KTableRestoreApp) restored from its changelog with the
# state directory deleted, before and after the cleaner compacted it; prints records and ms.
.PHONY: compat-ktable-restore
compat-ktable-restore: $(STAMP) $(JAVA_TOOL_JAR) $(STREAMS_JAR) ## a KTable restored from its changelog before and after compaction (needs Java)
	$(PY) -m pytest -q -s -m compat tests/compat/test_ktable_restore.py

bench-cleaner: $(BENCH_STAMP) ## p99 produce latency at 1000 records/s with and without the cleaner at work; cleaner MB/s
	@mkdir -p $(RESULTS)
	$(PY) -m bench.cleaner --json $(RESULTS)/cleaner-$$(date +%F).json

.PHONY: compat-dlq
compat-dlq: $(STAMP) peer-kafka ## dead-letter queues (KIP-1191): librdkafka and Java share consumers, and a kill -9, on Kafka 4.4.0 and sharebroker, compared
	$(PY) -m pytest -q -m compat tests/compat/test_dlq_differential.py

.PHONY: bench-share-extensions
bench-share-extensions: $(BENCH_STAMP) bench-peers ## redelivery backoff (delay error at 1,000 releases/s) and per-key ordering (8 consumers, 1 partition) against Kafka 4.4.0
	@mkdir -p $(RESULTS)
	taskset -c 1 $(PY) -m bench.share_extensions --json $(RESULTS)/share_extensions.json

# ---- transactions
.PHONY: test-txn-crash
# Fault injection (tests/faults): etcd (3 members) and 3 brokers, each in a network namespace
# of its own, under every workload at once; faults one after another, then the whole history
# is checked. Needs root (ip netns, iptables inside the namespaces, tmpfs mounts); prints
# "test-faults: SKIPPED: ..." and passes only where namespaces cannot be created. The seed
# is fixed so a run can be replayed; SEED=n picks another.
SEED ?= 27
FAULTS_OUT ?=
.PHONY: test-faults soak-faults faults-kafka
test-faults: $(STAMP) ## fault injection: 14 faults (every kind once) with a fixed seed, history checked (root, ~4 min)
	$(PY) -m tests.faults.run --seed $(SEED) --faults 14 --time-limit 300 $(if $(FAULTS_OUT),--out $(FAULTS_OUT))

SOAK_SEEDS ?= 20
soak-faults: $(STAMP) ## fault injection for hours: SOAK_SEEDS runs of 30 faults each (seeds SEED, SEED+1, ...)
	$(PY) -m tests.faults.run --seed $(SEED) --seeds $(SOAK_SEEDS) --faults 30 --time-limit 900 $(if $(FAULTS_OUT),--out $(FAULTS_OUT))

faults-kafka: $(STAMP) peer-kafka ## the same workload, faults and checker against a 3-node Apache Kafka 4.4.0 KRaft cluster
	$(PY) -m tests.faults.run --system kafka --seed $(SEED) --faults 11 --time-limit 300 $(if $(FAULTS_OUT),--out $(FAULTS_OUT))

test-txn-crash: $(STAMP) ## kill -9 of the broker 4 times under a transactional producer: every transaction whole or absent (slow, ~1 min)
	$(PY) -m pytest -q -m slow tests/integration/test_transactions_crash.py

# ---- the web console (sharebroker ui)
.PHONY: test-ui bench-ui ui-assets ui-assets-check
# Debian's chromium and its driver for the browser tests (no browser download is possible).
UI_BROWSER := /usr/bin/chromium /usr/bin/chromedriver

$(UI_BROWSER):
	@command -v apt-get >/dev/null || { echo "chromium and chromium-driver are required (Debian packages)"; exit 1; }
	apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver

# The Kafka 4.4.0 page needs the peer (Java, and Maven to fetch it); without them that one
# test is skipped.
UI_PEERS := $(if $(and $(shell command -v java),$(shell command -v $(MVN))),peer-kafka,)

test-ui: $(STAMP) $(UI_BROWSER) $(UI_PEERS) ## the web console in headless chromium against the broker and Kafka 4.4.0 (screenshots in build/ui-screenshots)
	$(PY) -m pytest -q -m ui tests/ui

bench-ui: $(STAMP) ## console pages of a cluster with 1,000 partitions and 100 share groups: render time and the console's Kafka requests
	@mkdir -p $(RESULTS)
	$(PY) -m bench.ui --json $(RESULTS)/ui.json

ui-assets: ## copy htmx and Pico CSS from their pinned npm packages (ui-assets/) into broker/ui/static/vendor
	$(PYTHON) ui-assets/vendor.py

ui-assets-check: ## fail if broker/ui/static/vendor differs from what ui-assets/package-lock.json pins (needs npm)
	$(PYTHON) ui-assets/vendor.py --check
