"""kill -9 of the broker while it cleans, 20 times: after each restart the log is
valid (every batch's CRC, offsets increasing) and complete (the latest value of
every key acknowledged so far), and no cleaner file is left behind.

Slow (about two minutes): ``make test-compaction``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pytest
from confluent_kafka import Producer

from tests.integration.clients import create_topic
from tests.integration.test_compaction import read_all

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

KILLS = 20
KEYS = 300
VALUE = 1000
# Cleaning is throttled to 1 MB/s so that a clean of a few MB takes long enough
# for a kill at a random moment to land in it.
BROKER = {"log.cleaner.backoff.ms": "50", "log.cleaner.io.max.bytes.per.second": "1000000"}
TOPIC_CONFIG = {"cleanup.policy": "compact", "segment.ms": "100", "min.cleanable.dirty.ratio": "0.01"}


def children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


def events_since(log_path: Path, offset: int, name: str) -> list[dict]:
    found = []
    with open(log_path, "rb") as f:
        f.seek(offset)
        for line in f:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and event.get("event") == name:
                found.append(event)
    return found


def produce_round(bootstrap: str, topic: str, rng: random.Random, latest: dict[bytes, bytes]) -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5})
    errors: list[str] = []
    for _chunk in range(4):
        for _ in range(400):
            key = b"key-%d" % rng.randrange(KEYS)
            value = b"%08d" % rng.randrange(10**8) + b"x" * (VALUE - 8)
            producer.produce(topic, key=key, value=value, partition=0, on_delivery=lambda e, m: e and errors.append(e))
            latest[key] = value
        assert producer.flush(30) == 0
        time.sleep(0.12)  # the next chunk starts a new segment
    assert not errors, errors


def test_kill_during_cleaning_leaves_a_valid_complete_log(sharebroker_factory, topic_name):
    broker = sharebroker_factory(settings=BROKER)
    create_topic(broker.bootstrap, topic_name, config=TOPIC_CONFIG)
    rng = random.Random(2024)
    latest: dict[bytes, bytes] = {}
    kills_in_clean = 0
    mark = 0  # where this broker process's log lines start
    for i in range(KILLS):
        produce_round(broker.bootstrap, topic_name, rng, latest)

        def cleaning(mark: int = mark) -> bool:
            started = len(events_since(broker.log_path, mark, "log_clean_started"))
            return started > len(events_since(broker.log_path, mark, "log_cleaned"))

        deadline = time.monotonic() + 30
        while not cleaning():
            assert time.monotonic() < deadline, f"round {i}: no clean started\n{broker.log_tail()}"
            time.sleep(0.01)
        time.sleep(rng.uniform(0, 0.8))
        pid = broker.process.pid
        workers = children(pid)
        in_clean = cleaning()
        broker.kill()
        kills_in_clean += in_clean
        # Workers notice their broker is gone; make sure none outlives the test.
        for worker in workers:
            for _ in range(100):
                if not Path(f"/proc/{worker}").exists():
                    break
                time.sleep(0.05)
            else:
                os.kill(worker, signal.SIGKILL)
        mark = broker.log_path.stat().st_size
        broker.start()
        records = read_all(broker.bootstrap, topic_name)  # read_all checks offsets increase
        got = {key: value for _, key, value in records}
        assert got == latest, f"round {i}: {len(got)} keys, expected {len(latest)}"
        assert not list(broker.data_dir.glob(f"{topic_name}-0/*.cleaned")), i
        assert not list(broker.data_dir.glob(f"{topic_name}-0/*.swap")), i
    assert kills_in_clean >= KILLS // 2, kills_in_clean
    broker.stop()
