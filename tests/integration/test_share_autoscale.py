"""The lag gauges drive an autoscaler (examples/share_autoscaler.py) with real share consumers.

A producer writes 250 records/s for 8 s into one partition; every consumer (a
confluent-kafka ShareConsumer thread) handles about 80 records/s. The autoscaler
reads ``sharebroker_share_partition_lag`` from /metrics and adds consumers while
the lag is high and growing; the group then drains the lag to 0.
"""

from __future__ import annotations

import importlib.util
import threading
import time
from pathlib import Path

import pytest
from confluent_kafka import Producer

from broker.testing import BrokerProcess
from tests.integration.clients import create_topic
from tests.integration.share_helpers import close_quietly, commit_ok, share_consumer, share_group, unique
from tests.integration.test_metrics import metrics_port, samples, scrape

ROOT = Path(__file__).resolve().parents[2]
RATE, SECONDS, PER_RECORD_S = 250, 8, 1 / 80


def _autoscaler_module():
    spec = importlib.util.spec_from_file_location("share_autoscaler", ROOT / "examples" / "share_autoscaler.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def broker(sharebroker_factory) -> BrokerProcess:
    return sharebroker_factory(settings={"metrics.listen": "127.0.0.1:0"})


class SlowConsumer(threading.Thread):
    def __init__(self, bootstrap: str, group: str, topic: str, seen: set, lock: threading.Lock, stop: threading.Event):
        super().__init__(daemon=True)
        self.sc = share_consumer(bootstrap, group, [topic], mode="implicit")
        self.seen, self.lock, self.halt = seen, lock, stop
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.halt.is_set():
                batch = [m for m in self.sc.poll(0.2) if m.error() is None]
                if batch:
                    time.sleep(PER_RECORD_S * len(batch))  # the work
                    with self.lock:
                        self.seen.update(m.offset() for m in batch)
            commit_ok(self.sc)
        except BaseException as e:  # reported by the test
            self.failure = e
        finally:
            close_quietly(self.sc)


def test_lag_gauge_drives_an_autoscaler(broker):
    mod = _autoscaler_module()
    port = metrics_port(broker)
    topic = unique("as")
    create_topic(broker.bootstrap, topic)
    group = share_group(broker.bootstrap)
    seen: set[int] = set()
    lock, halt = threading.Lock(), threading.Event()
    consumers: list[SlowConsumer] = []

    def start(_: int) -> None:
        c = SlowConsumer(broker.bootstrap, group, topic, seen, lock, halt)
        c.start()
        consumers.append(c)

    produced = RATE * SECONDS

    def produce() -> None:
        p = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 5})
        start_t = time.monotonic()
        for i in range(produced):
            p.produce(topic, key=b"%d" % i, value=b"x" * 100)
            p.poll(0)
            ahead = start_t + (i + 1) / RATE - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
        assert p.flush(30) == 0

    scaler = mod.Autoscaler(f"http://127.0.0.1:{port}/metrics", group, start, threshold=100, max_consumers=6, window=3)
    producer = threading.Thread(target=produce, daemon=True)
    producer.start()
    lags: list[int] = []
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            lags.append(scaler.step())
            with lock:
                done = len(seen) >= produced
            if not producer.is_alive() and done and lags[-1] == 0:
                break
            time.sleep(0.5)
    finally:
        halt.set()
        for c in consumers:
            c.join(20)
        producer.join(30)
    for c in consumers:
        assert c.failure is None, c.failure
    assert max(lags) > 100, f"the lag never built up: {lags}"
    assert scaler.consumers >= 3, f"the autoscaler did not scale out: {scaler.decisions}"
    assert lags[-1] == 0 and len(seen) == produced, (lags[-5:], len(seen))
    # the other gauges are there for the same partition
    s = samples(scrape(port)[2])
    key = f'{{group="{group}",topic="{topic}",partition="0"}}'
    assert s[f"sharebroker_share_partition_lag{key}"] == 0
    assert s[f"sharebroker_share_partition_oldest_available_age_seconds{key}"] == 0
    assert f"sharebroker_share_partition_acquired_records{key}" in s
