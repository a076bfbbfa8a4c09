# sharebroker developer targets. `make help` lists them.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed

.PHONY: help venv run test test-all codegen codegen-check lint-imports bench bench-protocol bench-startup bench-produce bench-share clean

help:
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP) ## create .venv with the broker and dev tools

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

RESULTS := bench/results

bench-protocol: $(STAMP) ## decode/encode rates of the protocol layer
	@mkdir -p $(RESULTS)
	$(PY) -m bench.protocol --json $(RESULTS)/protocol.json

bench-startup: $(STAMP) ## process start -> first answered ApiVersions
	@mkdir -p $(RESULTS)
	$(PY) -m bench.startup --json $(RESULTS)/startup.json

bench-produce: $(STAMP) ## librdkafka produce throughput (1 KiB, acks=all) and broker RSS
	@mkdir -p $(RESULTS)
	$(PY) -m bench.produce --json $(RESULTS)/produce.json

bench-share: $(STAMP) ## share-group consume throughput (1 and 4 consumers) and end-to-end latency
	@mkdir -p $(RESULTS)
	$(PY) -m bench.share --json $(RESULTS)/share.json

bench-compare: $(STAMP) peers ## sharebroker vs Apache Kafka 4.2.2 (and Tansu) in one run -> docs/PERFORMANCE.md
	@mkdir -p $(RESULTS)
	taskset -c 1 $(PY) -m bench.compare

bench: bench-protocol bench-startup bench-produce bench-share ## every benchmark

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis

-include peers/peers.mk
