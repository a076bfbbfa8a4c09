"""Cluster tests: etcd and several real ``sharebroker serve`` processes on loopback.

Marked ``cluster`` (``make test-cluster``, run by ``.ci/run``); they need the
``etcd`` binary on PATH (Debian's etcd-server), and fail without it rather than
skip: a cluster test that cannot run has not passed.
"""

from __future__ import annotations

import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest

from broker.localcluster import LocalCluster

T = TypeVar("T")

# Quick share-group membership so a restarted broker's consumers settle fast.
FAST_SHARE_SETTINGS = {
    "group.share.min.heartbeat.interval.ms": "200",
    "group.share.heartbeat.interval.ms": "500",
    "group.share.min.session.timeout.ms": "3000",
    "group.share.session.timeout.ms": "6000",
    # Small internal topics: each broker leads a few partitions of each.
    "offsets.topic.num.partitions": "6",
    "share.coordinator.state.topic.num.partitions": "6",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/cluster/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.cluster)


@pytest.fixture(scope="session", autouse=True)
def _etcd_on_path() -> None:
    if shutil.which("etcd") is None:
        pytest.fail("etcd is not on PATH: apt-get install etcd-server (the cluster tests need it)")


@pytest.fixture
def names() -> Callable[[str], str]:
    tag = uuid.uuid4().hex[:8]
    return lambda prefix: f"{prefix}-{tag}"


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    """Three brokers and etcd shared by a module's tests (nothing here kills them)."""
    with LocalCluster(3, settings=FAST_SHARE_SETTINGS) as c:
        yield c


@pytest.fixture
def own_cluster() -> Iterator[LocalCluster]:
    """Three brokers and etcd for one test that kills, restarts or pauses them."""
    with LocalCluster(3, settings=FAST_SHARE_SETTINGS) as c:
        yield c


def wait_for(check: Callable[[], T | None], timeout: float, what: str, every: float = 0.2) -> T:
    """The first truthy result of ``check`` within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < deadline:
        try:
            value = check()
        except Exception as exc:  # the cluster is settling: try again
            last = exc
        else:
            if value:
                return value
            last = value
        time.sleep(every)
    raise AssertionError(f"{what} not within {timeout} s (last: {last!r})")
