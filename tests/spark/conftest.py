"""Fixtures of the PySpark tests (``make test-spark``): one SparkSession for the whole
session (local[2], UI off, bound to loopback, Spark's Kafka connector on its classpath),
a sharebroker tuned for short group timeouts, producers and topics.

Everything here is marked ``spark`` and left out of ``make test``; without the spark
extra installed the directory is skipped.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspark", reason="the spark extra is not installed (make test-spark installs it)")

from broker.admin.client import AdminClient
from tests.spark.session import build_session

# Short group timeouts, so a member that died (kill -9 of a driver) is removed in
# seconds and its partitions go to the survivor; a 1 s floor for lock durations so
# tests can expire locks quickly.
BROKER_SETTINGS = {
    "group.share.min.session.timeout.ms": "2000",
    "group.share.session.timeout.ms": "6000",
    "group.share.min.heartbeat.interval.ms": "200",
    "group.share.heartbeat.interval.ms": "1000",
    "group.share.min.record.lock.duration.ms": "1000",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.spark)
            # A Spark job's first micro-batch starts JVM code paths and Python workers; the
            # crash tests start two drivers each. 120 s (the suite default) is too tight on
            # a loaded 2-core machine.
            item.add_marker(pytest.mark.timeout(600))
            # pyspark and py4j emit warnings of their own (sockets closed by the JVM,
            # deprecated APIs they use); they are not ours to fix.
            item.add_marker(pytest.mark.filterwarnings("ignore::ResourceWarning"))
            item.add_marker(pytest.mark.filterwarnings("ignore::DeprecationWarning"))
            item.add_marker(pytest.mark.filterwarnings("ignore::FutureWarning"))
            item.add_marker(pytest.mark.filterwarnings("ignore::UserWarning:pyspark"))


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    session = build_session()
    from broker.spark import register

    register(session)
    yield session
    session.stop()


@pytest.fixture(scope="session")
def broker(sharebroker_factory: Any) -> Any:
    """A sharebroker for these tests (metrics on, to count requests)."""
    return sharebroker_factory(BROKER_SETTINGS)


@pytest.fixture
def bootstrap(broker: Any) -> str:
    return broker.bootstrap


@pytest.fixture
def admin(bootstrap: str) -> Iterator[AdminClient]:
    with AdminClient(bootstrap) as client:
        yield client


@pytest.fixture
def topic_factory(admin: AdminClient) -> Any:
    def make(partitions: int = 1, prefix: str = "t") -> str:
        name = f"{prefix}-{uuid.uuid4().hex[:8]}"
        admin.create_topics({name: partitions})
        return name

    return make


def produce(
    bootstrap: str,
    topic: str,
    n: int,
    *,
    partitions: int = 1,
    start: int = 0,
    timestamp: int | None = None,
    headers: list[tuple[str, bytes]] | None = None,
) -> None:
    """``n`` records key ``k<i>``, value ``v<i>``, round-robin over ``partitions``."""
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20, "queue.buffering.max.messages": 2_000_000})
    for i in range(start, start + n):
        kwargs: dict[str, Any] = {"key": f"k{i}".encode(), "value": f"v{i}".encode(), "partition": i % partitions}
        if timestamp is not None:
            kwargs["timestamp"] = timestamp
        if headers is not None:
            kwargs["headers"] = headers
        p.produce(topic, **kwargs)
        if i % 50_000 == 0:
            p.poll(0)
    assert p.flush(30) == 0


def share_group(admin: AdminClient, configs: dict[str, str] | None = None) -> str:
    """A new share group that starts at the earliest offset."""
    group = f"g-{uuid.uuid4().hex[:8]}"
    admin.set_group_configs(group, {"share.auto.offset.reset": "earliest", **(configs or {})})
    return group
