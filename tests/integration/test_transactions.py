"""Transactions with real clients against the real broker process.

confluent-kafka (librdkafka: transaction version 1, Produce v10, verification by
the broker), kafka-python and aiokafka transactional producers; read_committed
consumers of each; zombie fencing; a transaction the coordinator aborts on its
timeout; a share group with share.isolation.level=read_committed.
"""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from confluent_kafka import (
    Consumer,
    IsolationLevel,
    KafkaException,
    Producer,
    TopicPartition,
)
from confluent_kafka.admin import OffsetSpec

from tests.integration.clients import admin, create_topic
from tests.integration.share_helpers import (
    close_quietly,
    poll_count,
    poll_quiet,
    share_consumer,
    share_group,
    values,
)


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def txn_producer(bootstrap: str, txn_id: str, **conf) -> Producer:
    p = Producer({"bootstrap.servers": bootstrap, "transactional.id": txn_id, "linger.ms": 5, **conf})
    p.init_transactions(30)
    return p


def read(bootstrap: str, topic: str, partitions: int, *, committed: bool = True) -> list[bytes]:
    """Every record of ``topic`` a consumer of that isolation level gets, by partition then
    offset: until each partition reports its end (for read_committed, the last stable offset)."""
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": unique("reader"),
            "isolation.level": "read_committed" if committed else "read_uncommitted",
            "enable.auto.commit": False,
            "enable.partition.eof": True,
        }
    )
    try:
        c.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
        got: dict[int, list[tuple[int, bytes]]] = {p: [] for p in range(partitions)}
        at_end: set[int] = set()
        deadline = time.monotonic() + 20
        while len(at_end) < partitions and time.monotonic() < deadline:
            m = c.poll(0.2)
            if m is None:
                continue
            err = m.error()
            partition, offset, value = m.partition(), m.offset(), m.value()
            assert partition is not None
            if err is not None:
                if err.code() == -191:  # _PARTITION_EOF
                    at_end.add(partition)
                    continue
                raise KafkaException(err)
            assert offset is not None and value is not None
            got[partition].append((offset, value))
        return [v for p in range(partitions) for _, v in got[p]]
    finally:
        c.close()


def offsets(bootstrap: str, topic: str, partition: int = 0) -> tuple[int, int]:
    """(last stable offset, high watermark) from ListOffsets with each isolation level."""
    client = admin(bootstrap)
    tp = TopicPartition(topic, partition)
    lso = client.list_offsets({tp: OffsetSpec.latest()}, isolation_level=IsolationLevel.READ_COMMITTED)
    hw = client.list_offsets({tp: OffsetSpec.latest()}, isolation_level=IsolationLevel.READ_UNCOMMITTED)
    return lso[tp].result(timeout=10).offset, hw[tp].result(timeout=10).offset


# ====================================================================== confluent-kafka


def test_confluent_transactions_commit_abort_and_offsets(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    src, out, other = unique("src"), unique("out"), unique("other")
    create_topic(bs, src, partitions=2)
    create_topic(bs, out, partitions=3)
    create_topic(bs, other, partitions=1)
    plain = Producer({"bootstrap.servers": bs})
    for i in range(6):
        plain.produce(src, value=b"in%d" % i, partition=i % 2)
    assert plain.flush(10) == 0

    group = unique("etl")
    consumer = Consumer(
        {
            "bootstrap.servers": bs,
            "group.id": group,
            "isolation.level": "read_committed",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    producer = txn_producer(bs, unique("etl"))
    try:
        consumer.assign([TopicPartition(src, 0, 0), TopicPartition(src, 1, 0)])
        seen = []
        deadline = time.monotonic() + 20
        while len(seen) < 6 and time.monotonic() < deadline:
            m = consumer.poll(0.5)
            if m is not None and not m.error():
                seen.append(m)
        assert len(seen) == 6
        # One transaction: records to several partitions of two topics, and the consumer's offsets.
        producer.begin_transaction()
        for i, m in enumerate(seen):
            producer.produce(out, value=m.value().upper(), partition=i % 3)
        producer.produce(other, value=b"side")
        producer.send_offsets_to_transaction(
            consumer.position(consumer.assignment()), consumer.consumer_group_metadata(), 30
        )
        producer.commit_transaction(30)
        # An aborted one, after its records reached the partitions.
        producer.begin_transaction()
        for i in range(3):
            producer.produce(out, value=b"aborted%d" % i, partition=i)
        assert producer.flush(10) == 0
        producer.abort_transaction(30)
        # And a committed one after the abort.
        producer.begin_transaction()
        producer.produce(out, value=b"last", partition=0)
        producer.commit_transaction(30)
    finally:
        consumer.close()

    committed = read(bs, out, 3)
    assert sorted(committed) == sorted([b"IN%d" % i for i in range(6)] + [b"last"])
    assert not any(v.startswith(b"aborted") for v in committed)
    assert read(bs, other, 1) == [b"side"]
    assert len(read(bs, out, 3, committed=False)) == 10  # read_uncommitted sees the aborted ones too
    # The offsets committed in the transaction are the group's.
    c = Consumer({"bootstrap.servers": bs, "group.id": group, "isolation.level": "read_committed"})
    try:
        got = c.committed([TopicPartition(src, 0), TopicPartition(src, 1)], timeout=10)
        assert [tp.offset for tp in got] == [3, 3]
    finally:
        c.close()
    # Every transaction ended: the last stable offset is the high watermark.
    for p in range(3):
        lso, hw = offsets(bs, out, p)
        assert lso == hw > 0


def test_confluent_open_transaction_holds_the_last_stable_offset(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("lso")
    create_topic(bs, topic)
    plain = Producer({"bootstrap.servers": bs})
    plain.produce(topic, value=b"before")
    assert plain.flush(10) == 0
    producer = txn_producer(bs, unique("lso"))
    producer.begin_transaction()
    producer.produce(topic, value=b"pending")
    assert producer.flush(10) == 0
    assert offsets(bs, topic) == (1, 2)
    assert read(bs, topic, 1) == [b"before"]
    assert read(bs, topic, 1, committed=False) == [b"before", b"pending"]
    producer.commit_transaction(30)
    assert offsets(bs, topic) == (3, 3)
    assert read(bs, topic, 1) == [b"before", b"pending"]


def test_confluent_zombie_is_fenced(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("fence")
    create_topic(bs, topic)
    txn_id = unique("zombie")
    zombie = txn_producer(bs, txn_id)
    zombie.begin_transaction()
    zombie.produce(topic, value=b"zombie")
    assert zombie.flush(10) == 0
    successor = txn_producer(bs, txn_id)  # fences the zombie and aborts its transaction
    with pytest.raises(KafkaException) as err:
        zombie.commit_transaction(30)
    assert err.value.args[0].fatal()
    successor.begin_transaction()
    successor.produce(topic, value=b"successor")
    successor.commit_transaction(30)
    assert read(bs, topic, 1) == [b"successor"]


def test_timed_out_transaction_is_aborted_by_the_coordinator(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("timeout")
    create_topic(bs, topic)
    producer = txn_producer(bs, unique("slow"), **{"transaction.timeout.ms": 2000})
    producer.begin_transaction()
    producer.produce(topic, value=b"too-slow")
    assert producer.flush(10) == 0
    assert offsets(bs, topic) == (0, 1)
    deadline = time.monotonic() + 15
    while offsets(bs, topic)[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert offsets(bs, topic) == (2, 2)  # the record and the coordinator's ABORT marker
    assert read(bs, topic, 1) == []
    with pytest.raises(KafkaException):
        producer.commit_transaction(10)


# ====================================================================== kafka-python and aiokafka


def test_kafka_python_transactional_producer(sharebroker_bootstrap):
    from kafka import KafkaConsumer, KafkaProducer
    from kafka.structs import TopicPartition as KTopicPartition

    bs = sharebroker_bootstrap
    topic = unique("kp")
    create_topic(bs, topic, partitions=2)
    producer = KafkaProducer(bootstrap_servers=bs, transactional_id=unique("kp"))
    try:
        producer.init_transactions()
        producer.begin_transaction()
        for i in range(4):
            producer.send(topic, value=b"kp%d" % i, partition=i % 2)
        producer.commit_transaction()
        producer.begin_transaction()
        producer.send(topic, value=b"kp-aborted", partition=0)
        producer.flush()
        producer.abort_transaction()
    finally:
        producer.close()
    consumer = KafkaConsumer(bootstrap_servers=bs, isolation_level="read_committed", enable_auto_commit=False)
    try:
        consumer.assign([KTopicPartition(topic, 0), KTopicPartition(topic, 1)])
        consumer.seek_to_beginning()
        got: list[bytes] = []
        deadline = time.monotonic() + 15
        while len(got) < 5 and time.monotonic() < deadline:
            got += [m.value for msgs in consumer.poll(timeout_ms=300).values() for m in msgs]
            if len(got) == 4 and all(
                consumer.position(tp) == consumer.end_offsets([tp])[tp] for tp in consumer.assignment()
            ):
                break
        got.sort()
    finally:
        consumer.close()
    assert got == [b"kp0", b"kp1", b"kp2", b"kp3"]
    assert sorted(read(bs, topic, 2)) == got


def test_aiokafka_transactional_producer(sharebroker_bootstrap):
    from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
    from aiokafka.structs import TopicPartition as ATopicPartition

    bs = sharebroker_bootstrap
    topic, src = unique("ai"), unique("ai-src")
    create_topic(bs, topic, partitions=2)
    create_topic(bs, src)
    group = unique("ai-group")

    async def run() -> list[bytes]:
        producer = AIOKafkaProducer(bootstrap_servers=bs, transactional_id=unique("ai"))
        await producer.start()
        try:
            async with producer.transaction():
                for i in range(4):
                    await producer.send(topic, b"ai%d" % i, partition=i % 2)
                await producer.send_offsets_to_transaction({ATopicPartition(src, 0): 7}, group)
            await producer.begin_transaction()
            await producer.send_and_wait(topic, b"ai-aborted", partition=1)
            await producer.abort_transaction()
        finally:
            await producer.stop()
        consumer = AIOKafkaConsumer(
            bootstrap_servers=bs, isolation_level="read_committed", enable_auto_commit=False, group_id=group
        )
        await consumer.start()
        try:
            assert await consumer.committed(ATopicPartition(src, 0)) == 7
            consumer.assign([ATopicPartition(topic, 0), ATopicPartition(topic, 1)])
            await consumer.seek_to_beginning()
            got: list[bytes] = []
            deadline = time.monotonic() + 15
            while len(got) < 4 and time.monotonic() < deadline:
                batch = await consumer.getmany(timeout_ms=500)
                got += [m.value for msgs in batch.values() for m in msgs]
            return sorted(got)
        finally:
            await consumer.stop()

    assert asyncio.run(run()) == [b"ai0", b"ai1", b"ai2", b"ai3"]
    assert sorted(read(bs, topic, 2)) == [b"ai0", b"ai1", b"ai2", b"ai3"]


# ====================================================================== share groups


def test_read_committed_share_group_never_gets_aborted_records(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("share-txn")
    create_topic(bs, topic)
    producer = txn_producer(bs, unique("share"))
    producer.begin_transaction()
    producer.produce(topic, value=b"c1")
    producer.commit_transaction(30)
    producer.begin_transaction()
    producer.produce(topic, value=b"a1")
    assert producer.flush(10) == 0
    producer.abort_transaction(30)
    producer.begin_transaction()
    producer.produce(topic, value=b"c2")
    producer.commit_transaction(30)
    producer.begin_transaction()
    producer.produce(topic, value=b"open")  # not delivered while open: past the LSO
    assert producer.flush(10) == 0

    group = share_group(bs, share_isolation_level="read_committed")
    sc = share_consumer(bs, group, [topic])
    try:
        got = poll_count(sc, 2, 20)
        assert values(got) == [b"c1", b"c2"]
        assert poll_quiet(sc, 2) == []
        producer.commit_transaction(30)
        got = poll_count(sc, 1, 20)
        assert values(got) == [b"open"]
        assert poll_quiet(sc, 1) == []
    finally:
        close_quietly(sc)
