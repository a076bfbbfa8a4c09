"""Helpers for the share-group integration tests (confluent-kafka's ShareConsumer).

Every wait here is bounded; callers pass the budget they can afford.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterable

from confluent_kafka import AcknowledgeType, KafkaError, ShareConsumer
from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

from broker.protocol.errors import ErrorCode
from broker.protocol.messages.share_group_describe_request import ShareGroupDescribeRequest
from tests.integration.clients import admin
from tests.integration.wire import WireClient

ACCEPT = AcknowledgeType.ACCEPT
RELEASE = AcknowledgeType.RELEASE
REJECT = AcknowledgeType.REJECT

# Settings for brokers whose tests need short locks and quick rebalances:
# lock duration down to 1 s, heartbeats every 500 ms, dead members gone in 6 s.
FAST_SHARE_SETTINGS = {
    "group.share.min.record.lock.duration.ms": "1000",
    "group.share.min.heartbeat.interval.ms": "200",
    "group.share.heartbeat.interval.ms": "500",
    "group.share.min.session.timeout.ms": "3000",
    "group.share.session.timeout.ms": "6000",
}


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def set_group_configs(bootstrap: str, group: str, configs: dict[str, str]) -> None:
    client = admin(bootstrap)
    resource = ConfigResource(
        ResourceType.GROUP,
        group,
        incremental_configs=[
            ConfigEntry(k, v, incremental_operation=AlterConfigOpType.SET) for k, v in configs.items()
        ],
    )
    client.incremental_alter_configs([resource])[resource].result(timeout=15)


def share_group(bootstrap: str, *, earliest: bool = True, **configs: str) -> str:
    """A fresh share group id, with ``share.auto.offset.reset=earliest`` unless told otherwise.

    Keyword names use underscores for dots: ``share_delivery_count_limit="2"``.
    """
    group = unique("sg")
    values = {k.replace("_", "."): v for k, v in configs.items()}
    if earliest:
        values.setdefault("share.auto.offset.reset", "earliest")
    if values:
        set_group_configs(bootstrap, group, values)
    return group


def share_consumer(
    bootstrap: str, group: str, topics: Iterable[str], *, mode: str = "implicit", **conf: object
) -> ShareConsumer:
    sc = ShareConsumer(
        {
            "bootstrap.servers": bootstrap,
            "broker.address.family": "v4",
            "group.id": group,
            "share.acknowledgement.mode": mode,
            **conf,
        }
    )
    sc.subscribe(list(topics))
    return sc


class PollErrors(AssertionError):
    pass


def poll_batch(sc: ShareConsumer, timeout: float = 1.0, errors: list | None = None) -> list:
    """One poll; error events go to ``errors`` (or fail the test when fatal)."""
    out = []
    for m in sc.poll(timeout):
        err = m.error()
        if err is None:
            out.append(m)
            continue
        if errors is not None:
            errors.append(err)
        if err.fatal():
            raise PollErrors(f"fatal consumer error: {err}")
    return out


def poll_until(
    sc: ShareConsumer,
    done: Callable[[list], bool],
    timeout: float,
    *,
    on_batch: Callable[[list], None] | None = None,
    errors: list | None = None,
) -> list:
    """Poll until ``done(all messages so far)`` or ``timeout`` seconds; return the messages."""
    got: list = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        batch = poll_batch(sc, min(0.5, max(0.05, deadline - time.monotonic())), errors)
        if batch:
            got.extend(batch)
            if on_batch is not None:
                on_batch(batch)
        if done(got):
            break
    return got


def poll_count(sc: ShareConsumer, count: int, timeout: float, **kw) -> list:
    return poll_until(sc, lambda got: len(got) >= count, timeout, **kw)


def poll_quiet(sc: ShareConsumer, seconds: float, **kw) -> list:
    """Everything delivered within ``seconds`` (expected: nothing)."""
    return poll_until(sc, lambda got: False, seconds, **kw)


def commit_ok(sc: ShareConsumer, timeout: float = 10) -> dict:
    """commit_sync, failing the test if any partition's acknowledgement failed."""
    result = sc.commit_sync(timeout)
    failed = {f"{tp.topic}[{tp.partition}]": err for tp, err in result.items() if err is not None}
    assert not failed, f"acknowledgements failed: {failed}"
    return result


class Worker:
    """A ShareConsumer polling in a thread of its own (implicit acknowledgement).

    Records of a poll are accepted by the next poll (or the final commit), so
    ``accepted`` lags ``received`` by at most one batch. ``stop(ack=True)`` commits
    and closes; ``stop(ack=False)`` waits (up to 5 s) until it holds a batch, then
    closes without committing it (librdkafka leaves those records to the broker
    to release).
    """

    def __init__(
        self, bootstrap: str, group: str, topics: Iterable[str], name: str, delay_per_batch: float = 0.0, **conf: object
    ) -> None:
        self.name = name
        self.received: list = []
        self.unacked: list = []  # the last batch, not yet accepted
        self.errors: list = []
        self.failure: BaseException | None = None
        self._delay = delay_per_batch
        self._stop = threading.Event()
        self._ack_on_stop = True
        self._sc = share_consumer(bootstrap, group, topics, mode="implicit", **conf)
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            give_up = None
            while True:
                if self._stop.is_set():
                    if self._ack_on_stop or self.unacked:
                        break
                    # Dying with records in hand: wait (bounded) for a batch to hold.
                    give_up = give_up or time.monotonic() + 5
                    if time.monotonic() > give_up:
                        break
                batch = poll_batch(self._sc, 0.2, self.errors)
                self.unacked = []  # this poll accepted the previous batch
                if batch:
                    self.received.extend((m.partition(), m.offset(), m.value(), m.delivery_count()) for m in batch)
                    self.unacked = [(m.partition(), m.offset()) for m in batch]
                    if self._delay:
                        time.sleep(self._delay)
            if self._ack_on_stop:
                commit_ok(self._sc)
                self.unacked = []
            self._sc.close()
        except BaseException as e:
            self.failure = e
            close_quietly(self._sc)

    def begin_stop(self, ack: bool = True) -> None:
        self._ack_on_stop = ack
        self._stop.set()

    def stop(self, ack: bool = True, timeout: float = 20) -> None:
        if not self._stop.is_set():
            self.begin_stop(ack)
        self._thread.join(timeout)
        assert not self._thread.is_alive(), f"{self.name} did not stop within {timeout} s"
        if self.failure is not None:
            raise AssertionError(f"{self.name} failed: {self.failure!r}") from self.failure


def values(msgs: Iterable) -> list[bytes]:
    return [m.value() for m in msgs]


def ids(msgs: Iterable) -> list[tuple[int, int]]:
    return [(m.partition(), m.offset()) for m in msgs]


def close_quietly(sc: ShareConsumer) -> None:
    try:
        sc.close()
    except Exception:
        pass


__all__ = [
    "ACCEPT",
    "FAST_SHARE_SETTINGS",
    "REJECT",
    "RELEASE",
    "KafkaError",
    "PollErrors",
    "Worker",
    "close_quietly",
    "commit_ok",
    "describe",
    "holdings",
    "ids",
    "poll_batch",
    "poll_count",
    "poll_quiet",
    "poll_until",
    "set_group_configs",
    "share_consumer",
    "share_group",
    "unique",
    "values",
]


def describe(bootstrap: str, group: str):
    """The group as ShareGroupDescribe shows it (no members until the first one joined)."""
    with WireClient(bootstrap, timeout=20) as w:
        described = w.request(ShareGroupDescribeRequest(group_ids=[group]), 1).groups[0]
    assert described.error_code in (ErrorCode.NONE, ErrorCode.GROUP_ID_NOT_FOUND), described
    return described


def holdings(described) -> dict[str, set[tuple[str, int]]]:
    """Partitions each member holds, by member id."""
    return {
        m.member_id: {(tp.topic_name, p) for tp in m.assignment.topic_partitions for p in tp.partitions}
        for m in described.members
    }
