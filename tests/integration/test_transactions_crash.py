"""kill -9 of the broker at each point of a transaction, then a restart.

Deterministic crash points, with no hook in the broker: a topic whose
``max.message.bytes`` is below a marker's size refuses the marker
(MESSAGE_TOO_LARGE, which stops the coordinator's marker sending for that
transaction, as in Kafka), so the transaction stays in PrepareCommit with its
markers written to exactly the other partitions. The limit is lifted, the
broker killed with SIGKILL and restarted: the coordinator finds the prepared
transaction in ``__transaction_state`` and completes it. Before the Prepare
record, an open transaction survives the crash and is aborted by its timeout.
A read_committed reader never sees partial or aborted data.

``test_random_kills_during_transactions`` (slow) kills the broker at random
moments while a producer runs transactions over four partitions, and checks
that every transaction is visible whole or not at all.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest
from confluent_kafka import KafkaException, Producer
from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

from broker.admin.client import AdminClient
from broker.testing import BrokerProcess
from tests.integration.clients import admin, create_topic
from tests.integration.test_transactions import offsets, read, txn_producer, unique

SETTINGS = {"transaction.state.log.num.partitions": "5", "offsets.topic.num.partitions": "5"}


def set_max_message_bytes(bootstrap: str, topic: str, value: str | None) -> None:
    op = AlterConfigOpType.SET if value is not None else AlterConfigOpType.DELETE
    resource = ConfigResource(
        ResourceType.TOPIC,
        topic,
        incremental_configs=[ConfigEntry("max.message.bytes", value or "", incremental_operation=op)],
    )
    client = admin(bootstrap)
    client.incremental_alter_configs([resource])[resource].result(timeout=15)


def describe(bootstrap: str, txn_id: str) -> tuple[str, set[tuple[str, int]]]:
    with AdminClient(bootstrap, timeout=15) as client:
        _, state = client.describe_transaction(txn_id)
    return state.transaction_state, {(t.topic, p) for t in state.topics for p in t.partitions}


def wait_state(bootstrap: str, txn_id: str, state: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if describe(bootstrap, txn_id)[0] == state:
                return
        except Exception:
            pass  # the coordinator may still be loading
        time.sleep(0.1)
    raise AssertionError(f"{txn_id} did not reach {state}: {describe(bootstrap, txn_id)}")


@pytest.mark.parametrize("blocked", ["both", "one"])
def test_kill_after_prepare_commit_completes_on_restart(tmp_path: Path, blocked: str):
    broker = BrokerProcess(tmp_path / "data", SETTINGS).start()
    try:
        bs = broker.bootstrap
        create_topic(bs, "a")
        create_topic(bs, "b")
        txn_id = unique("crash")
        producer = txn_producer(bs, txn_id)
        producer.begin_transaction()
        producer.produce("a", value=b"a-data")
        producer.produce("b", value=b"b-data")
        assert producer.flush(10) == 0
        refused = ["a", "b"] if blocked == "both" else ["b"]
        for topic in refused:
            set_max_message_bytes(bs, topic, "10")  # a marker batch is 78 bytes
        producer.commit_transaction(30)  # the PrepareCommit is durable: the commit stands
        state, pending = describe(bs, txn_id)
        assert state == "PrepareCommit" and pending == {(t, 0) for t in refused}
        assert read(bs, "b", 1) == []
        assert read(bs, "a", 1) == ([] if blocked == "both" else [b"a-data"])
        for topic in refused:
            set_max_message_bytes(bs, topic, None)
        broker.kill()
        broker.start()
        wait_state(bs, txn_id, "CompleteCommit")
        assert read(bs, "a", 1) == [b"a-data"] and read(bs, "b", 1) == [b"b-data"]
        # Nothing open any more. (A marker written before the crash is written again after
        # it, as Kafka's coordinator does after a failover: the Prepare record names every
        # partition, not which had their marker; a second marker changes nothing.)
        assert offsets(bs, "b") == (2, 2)
        lso, hw = offsets(bs, "a")
        assert lso == hw == (2 if blocked == "both" else 3)
    finally:
        broker.kill()


def test_kill_with_an_open_transaction_then_timeout_abort(tmp_path: Path):
    broker = BrokerProcess(tmp_path / "data", SETTINGS).start()
    try:
        bs = broker.bootstrap
        create_topic(bs, "a", partitions=2)
        txn_id = unique("open")
        # Long enough that the restart (a few seconds on a loaded machine) ends well
        # before the timeout, so the transaction is seen open after it.
        producer = txn_producer(bs, txn_id, **{"transaction.timeout.ms": 10_000})
        producer.begin_transaction()
        producer.produce("a", value=b"p0", partition=0)
        producer.produce("a", value=b"p1", partition=1)
        assert producer.flush(10) == 0
        broker.kill()
        broker.start()
        # Still open after the crash: it holds the LSO, and readers see nothing of it.
        assert describe(bs, txn_id) == ("Ongoing", {("a", 0), ("a", 1)})
        assert offsets(bs, "a", 0) == (0, 1) and read(bs, "a", 2) == []
        wait_state(bs, txn_id, "CompleteAbort", timeout=40)
        assert offsets(bs, "a", 0) == (2, 2) and offsets(bs, "a", 1) == (2, 2)
        assert read(bs, "a", 2) == []
        with pytest.raises(KafkaException):
            producer.commit_transaction(10)
        # A new producer of the same id starts cleanly after all this.
        again = txn_producer(bs, txn_id)
        again.begin_transaction()
        again.produce("a", value=b"after", partition=0)
        again.commit_transaction(30)
        assert read(bs, "a", 2) == [b"after"]
    finally:
        broker.kill()


@pytest.mark.slow
def test_random_kills_during_transactions(tmp_path: Path):
    """Every transaction visible whole or not at all, whatever moment the broker dies."""
    broker = BrokerProcess(tmp_path / "data", SETTINGS).start()
    bs = broker.bootstrap
    partitions = 4
    committed: set[int] = set()  # commit_transaction returned
    attempted: set[int] = set()
    stop = threading.Event()
    txn_id = unique("chaos")

    def run() -> None:
        n = 0
        deadline = time.monotonic() + 60  # bounded load loop
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                p = Producer(
                    {
                        "bootstrap.servers": bs,
                        "transactional.id": txn_id,
                        "linger.ms": 1,
                        "transaction.timeout.ms": 5000,
                        "message.timeout.ms": 5000,
                        "socket.timeout.ms": 3000,
                    }
                )
                p.init_transactions(10)
                while not stop.is_set() and time.monotonic() < deadline:
                    n += 1
                    attempted.add(n)
                    p.begin_transaction()
                    for k in range(partitions):
                        p.produce("chaos", value=b"%d:%d" % (n, k), partition=k)
                    if n % 5 == 0:
                        p.flush(5)
                        p.abort_transaction(10)
                        continue
                    p.commit_transaction(10)
                    committed.add(n)
            except KafkaException:
                time.sleep(0.2)  # the broker is down or the producer was fenced: start over

    try:
        create_topic(bs, "chaos", partitions=partitions)
        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        seed = time.time_ns()
        rng = random.Random(seed)  # printed with any failure below, to replay the schedule
        for _ in range(4):
            time.sleep(rng.uniform(1.0, 3.0))
            broker.kill()
            time.sleep(rng.uniform(0.0, 0.5))
            broker.start()
        time.sleep(2)
        stop.set()
        worker.join(30)
        # Let the coordinator finish or time out whatever was in flight.
        time.sleep(7)
        got = read(bs, "chaos", partitions)
        seen: dict[int, set[int]] = {}
        for value in got:
            n, k = map(int, value.split(b":"))
            seen.setdefault(n, set()).add(k)
        assert committed, f"no transaction committed (seed {seed})"
        assert all(ks == set(range(partitions)) for ks in seen.values()), (
            f"a partial transaction is visible (seed {seed})"
        )
        assert not any(n % 5 == 0 for n in seen), f"an aborted transaction is visible (seed {seed})"
        assert committed <= set(seen), f"a committed transaction is missing (seed {seed})"
        assert len(got) == partitions * len(seen)  # no duplicates
        for p in range(partitions):
            lso, hw = offsets(bs, "chaos", p)
            assert lso == hw
    finally:
        stop.set()
        broker.kill()
