"""pytest fixtures for testing applications against a real sharebroker.

Installed as a pytest plugin (entry point ``sharebroker``), so with the
``sharebroker`` package installed these fixtures are available in any test
suite without imports:

- ``sharebroker_bootstrap``: ``"127.0.0.1:PORT"`` of a broker started for the
  test session on a free port with a temporary data directory;
- ``sharebroker``: the :class:`BrokerProcess` behind it (``.bootstrap``,
  ``.data_dir``, ``.stop()``, ``.kill()``, ``.start()``);
- ``sharebroker_factory``: start extra brokers with their own settings,
  e.g. ``sharebroker_factory(settings={"num.partitions": "3"})``;
- ``sharebroker_cluster``: a cluster of 3 brokers with etcd on loopback
  (:class:`LocalCluster`: ``.bootstrap``, ``.brokers``,
  ``.broker(node_id)``, ``.etcd``); etcd is the ``etcd`` binary on PATH, or the
  one ``SHAREBROKER_ETCD_ENDPOINTS`` names.

The broker is the real ``sharebroker serve`` process, exactly as users run it.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from broker.localcluster import TEST_SETTINGS_ENV, BrokerProcess, LocalCluster

__all__ = ["BrokerProcess", "LocalCluster"]


@pytest.fixture(scope="session")
def sharebroker_factory() -> Iterator:
    """Start brokers on demand; every one is stopped at the end of the session."""
    started: list[BrokerProcess] = []
    with tempfile.TemporaryDirectory(prefix="sharebroker-") as tmp:
        counter = iter(range(1_000_000))

        def factory(settings: Mapping[str, str] | None = None) -> BrokerProcess:
            broker = BrokerProcess(Path(tmp) / f"broker-{next(counter)}", settings)
            started.append(broker)
            return broker.start()

        yield factory
        for broker in started:
            try:
                broker.stop()
            except RuntimeError:
                broker.kill()


@pytest.fixture(scope="session")
def sharebroker(sharebroker_factory: Callable[..., BrokerProcess]) -> BrokerProcess:
    """A broker shared by the test session."""
    settings: dict[str, str] = {}
    extra = os.environ.get(TEST_SETTINGS_ENV)
    if extra:
        for item in extra.split(","):
            key, sep, value = item.partition("=")
            if not sep:
                raise pytest.UsageError(f"{TEST_SETTINGS_ENV}: {item!r} is not key=value")
            settings[key] = value
    return sharebroker_factory(settings)


@pytest.fixture(scope="session")
def sharebroker_bootstrap(sharebroker: BrokerProcess) -> str:
    """``host:port`` of the session broker, for ``bootstrap.servers``."""
    return sharebroker.bootstrap


@pytest.fixture(scope="session")
def sharebroker_cluster() -> Iterator:
    """A 3-broker cluster with etcd, for the test session (stopped at its end)."""
    endpoints = [e for e in os.environ.get("SHAREBROKER_ETCD_ENDPOINTS", "").split(",") if e]
    cluster = LocalCluster(3, etcd_endpoints=endpoints or None)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()
