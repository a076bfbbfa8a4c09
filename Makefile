# sharebroker developer targets. `make help` lists them.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
# The bench extra (matplotlib for the plots, py-spy for bench-profile).
BENCH_STAMP := $(VENV)/.bench-installed

.PHONY: help venv run test test-all codegen codegen-check lint lint-imports format clean
.PHONY: bench bench-profile bench-protocol bench-startup bench-memory bench-produce bench-fetch bench-share bench-latency bench-scale bench-compare bench-peers bench-txn

help:
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP) ## create .venv with the broker and dev tools

$(BENCH_STAMP): $(STAMP)
	$(PIP) install -q -e '.[dev,bench]'
	touch $@

run: $(STAMP) ## run the broker with the embedded defaults
	$(VENV)/bin/sharebroker serve

test: $(STAMP) ## run the default test suite (what CI runs)
	$(PY) -m pytest -q -m "not slow and not compat"

test-all: $(STAMP) ## run every test, slow ones included
	$(PY) -m pytest -q

codegen: $(STAMP) ## regenerate broker/protocol/messages from protocol/schemas
	$(PY) -m codegen

codegen-check: $(STAMP) ## regenerate and fail if the checked-in code differs
	$(PY) -m codegen
	git diff --exit-code -- broker/protocol/messages
	@test -z "$$(git status --porcelain -- broker/protocol/messages)" || (git status --porcelain -- broker/protocol/messages; echo 'untracked generated files'; exit 1)

lint-imports: $(STAMP) ## check the architecture contracts (broker.protocol does no I/O)
	$(VENV)/bin/lint-imports

LINT_PATHS := broker codegen bench tests

lint: $(STAMP) lint-imports ## ruff (lint and format check) and the architecture contracts
	$(VENV)/bin/ruff check $(LINT_PATHS)
	$(VENV)/bin/ruff format --check $(LINT_PATHS)

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
bench-startup: $(BENCH_STAMP) bench-peers ## all brokers: start -> first ApiVersions and -> first share record, fresh data dir
	@mkdir -p $(RESULTS)
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

bench-profile: $(BENCH_STAMP) ## py-spy profile of sharebroker under produce and share consume -> bench/results/profile/
	taskset -c 1 $(PY) -m bench.profile

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis

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
