"""DescribeShareGroupOffsets (90), AlterShareGroupOffsets (91) and
DeleteShareGroupOffsets (92) against the real broker process.

confluent-kafka has no admin calls for these APIs, so the tests send raw
requests over a socket; records are consumed with its ShareConsumer in
implicit acknowledgement mode. The expected answers are what Kafka 4.2 gives
for the same requests. Every wait is bounded.
"""

from __future__ import annotations

import time
import uuid

from confluent_kafka import Consumer, Message, ShareConsumer, TopicPartition
from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

from broker.protocol.errors import ErrorCode
from broker.protocol.messages.alter_share_group_offsets_request import (
    AlterShareGroupOffsetsRequest,
    AlterShareGroupOffsetsRequestPartition,
    AlterShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.delete_share_group_offsets_request import (
    DeleteShareGroupOffsetsRequest,
    DeleteShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.describe_share_group_offsets_request import (
    DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsRequestGroup,
    DescribeShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.share_group_describe_request import ShareGroupDescribeRequest
from broker.protocol.primitives import UUID_ZERO
from tests.integration.clients import admin, create_topic, produce
from tests.integration.wire import WireClient

# ------------------------------------------------------------------ raw requests


def send(bootstrap: str, message, version: int):
    """One request on a fresh connection; the decoded response body."""
    with WireClient(bootstrap, timeout=20) as w:
        return w.request(message, version)


def describe(bootstrap: str, group: str, topics: dict[str, list[int]] | None = None, *, version: int = 1):
    """The one group of a DescribeShareGroupOffsets response (``topics=None``: all initialised)."""
    wire = (
        None
        if topics is None
        else [DescribeShareGroupOffsetsRequestTopic(topic_name=t, partitions=ps) for t, ps in topics.items()]
    )
    response = send(
        bootstrap,
        DescribeShareGroupOffsetsRequest(groups=[DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=wire)]),
        version,
    )
    assert [g.group_id for g in response.groups] == [group]
    return response.groups[0]


def alter(bootstrap: str, group: str, offsets: dict[str, dict[int, int]]):
    topics = [
        AlterShareGroupOffsetsRequestTopic(
            topic_name=t,
            partitions=[
                AlterShareGroupOffsetsRequestPartition(partition_index=p, start_offset=o) for p, o in parts.items()
            ],
        )
        for t, parts in offsets.items()
    ]
    return send(bootstrap, AlterShareGroupOffsetsRequest(group_id=group, topics=topics), 0)


def delete(bootstrap: str, group: str, topics: list[str]):
    wire = [DeleteShareGroupOffsetsRequestTopic(topic_name=t) for t in topics]
    return send(bootstrap, DeleteShareGroupOffsetsRequest(group_id=group, topics=wire), 0)


def offsets_of(group_result) -> dict[tuple[str, int], tuple[int, int]]:
    """{(topic, partition): (start offset, lag)}; every row must be error-free."""
    assert group_result.error_code == 0, group_result
    out = {}
    for t in group_result.topics:
        for p in t.partitions:
            assert p.error_code == 0, p
            out[t.topic_name, p.partition_index] = (p.start_offset, p.lag)
    return out


def alter_errors(response) -> dict[tuple[str, int], int]:
    assert response.error_code == 0, response
    return {(t.topic_name, p.partition_index): p.error_code for t in response.responses for p in t.partitions}


def share_group_state(bootstrap: str, group: str) -> str:
    described = send(bootstrap, ShareGroupDescribeRequest(group_ids=[group]), 1).groups[0]
    return described.group_state if described.error_code == 0 else ErrorCode(described.error_code).name


def wait_empty(bootstrap: str, group: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while share_group_state(bootstrap, group) != "Empty":
        assert time.monotonic() < deadline, f"share group {group} did not become Empty"
        time.sleep(0.1)


# ------------------------------------------------------------------ clients


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def earliest_share_group(bootstrap: str) -> str:
    group = unique("sg")
    resource = ConfigResource(
        ResourceType.GROUP,
        group,
        incremental_configs=[
            ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET)
        ],
    )
    client = admin(bootstrap)
    client.incremental_alter_configs([resource])[resource].result(timeout=15)
    return group


def share_consumer(bootstrap: str, group: str, topic: str) -> ShareConsumer:
    sc = ShareConsumer(
        {
            "bootstrap.servers": bootstrap,
            "broker.address.family": "v4",
            "group.id": group,
            "share.acknowledgement.mode": "implicit",
        }
    )
    sc.subscribe([topic])
    return sc


def consume(sc: ShareConsumer, count: int, timeout: float = 30) -> list:
    got: list[Message] = []
    deadline = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        for m in sc.poll(0.5):
            error = m.error()
            assert error is None or not error.fatal(), error
            if error is None:
                got.append(m)
    return got


def consume_all_and_close(bootstrap: str, group: str, topic: str, count: int) -> list:
    """Consume ``count`` records, acknowledge them (implicit mode) and leave the group."""
    sc = share_consumer(bootstrap, group, topic)
    try:
        got = consume(sc, count)
        assert len(got) == count
        sc.commit_sync(10)  # the last poll's records are acknowledged here, not by close
    finally:
        sc.close()
    wait_empty(bootstrap, group)
    return got


def payloads(n: int, tag: str = "v") -> list[bytes]:
    return [f"{tag}-{i}".encode() for i in range(n)]


# ------------------------------------------------------------------ tests


def test_describe_shows_start_offset_and_lag(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic, partitions=2)
    produce(bs, topic, payloads(10))
    group = earliest_share_group(bs)

    # Nothing initialised yet: no topics for "all", -1 rows for named partitions.
    assert describe(bs, group).topics == []
    assert offsets_of(describe(bs, group, {topic: [0, 1]})) == {(topic, 0): (-1, -1), (topic, 1): (-1, -1)}

    consume_all_and_close(bs, group, topic, 10)
    everything = describe(bs, group)
    assert [(t.topic_name, [p.partition_index for p in t.partitions]) for t in everything.topics] == [(topic, [0, 1])]
    start, lag = offsets_of(everything)[topic, 0]
    assert 0 <= start <= 10 and lag == 0

    produce(bs, topic, payloads(4, "more"))
    assert offsets_of(describe(bs, group, {topic: [0]}))[topic, 0] == (start, 4)
    # v0 has no Lag field: it reads as the default -1.
    assert offsets_of(describe(bs, group, {topic: [0]}, version=0))[topic, 0] == (start, -1)

    # Unknown topics follow the known ones with topic id zero; a partition past the
    # partition count reads as never initialised.
    mixed = describe(bs, group, {"no-such-topic": [0], topic: [5, 0, 0]})
    assert [(t.topic_name, [p.partition_index for p in t.partitions]) for t in mixed.topics] == [
        (topic, [0, 5]),
        ("no-such-topic", [0]),
    ]
    assert mixed.topics[1].topic_id == UUID_ZERO
    assert offsets_of(mixed)[topic, 5] == (-1, -1) and offsets_of(mixed)["no-such-topic", 0] == (-1, -1)

    # Describe does no group-level check: an unknown group reads as nothing initialised.
    assert describe(bs, unique("nobody")).topics == []


def test_alter_while_empty_resets_the_start_offset(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    sent = payloads(8)
    produce(bs, topic, sent)
    group = earliest_share_group(bs)
    consume_all_and_close(bs, group, topic, 8)

    response = alter(bs, group, {topic: {0: 0, 3: 0}, "no-such-topic": {0: 1}})
    assert [t.topic_name for t in response.responses] == ["no-such-topic", topic]  # unknown topics first
    assert alter_errors(response) == {
        ("no-such-topic", 0): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        (topic, 0): ErrorCode.NONE,
        (topic, 3): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    }
    assert offsets_of(describe(bs, group))[topic, 0] == (0, 8)

    # The next consumer gets every record again.
    again = share_consumer(bs, group, topic)
    try:
        got = consume(again, 8)
        assert sorted(m.value() for m in got) == sorted(sent)
        assert all(m.delivery_count() == 1 for m in got)
        again.commit_sync(10)
    finally:
        again.close()
    wait_empty(bs, group)

    # A start offset in the middle: only the later records come back.
    assert alter_errors(alter(bs, group, {topic: {0: 5}})) == {(topic, 0): ErrorCode.NONE}
    assert offsets_of(describe(bs, group, {topic: [0]}))[topic, 0] == (5, 3)
    tail = share_consumer(bs, group, topic)
    try:
        assert sorted(m.offset() for m in consume(tail, 3)) == [5, 6, 7]
    finally:
        tail.close()


def test_alter_and_delete_refused_while_a_member_is_subscribed(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    produce(bs, topic, payloads(3))
    group = earliest_share_group(bs)

    sc = share_consumer(bs, group, topic)
    try:
        assert len(consume(sc, 3)) == 3  # joined and assigned
        refused = alter(bs, group, {topic: {0: 0}})
        assert (refused.error_code, refused.responses) == (ErrorCode.NON_EMPTY_GROUP, [])
        refused = delete(bs, group, [topic])
        assert (refused.error_code, refused.responses) == (ErrorCode.NON_EMPTY_GROUP, [])
        sc.commit_sync(10)
    finally:
        sc.close()
    wait_empty(bs, group)
    assert alter_errors(alter(bs, group, {topic: {0: 1}})) == {(topic, 0): ErrorCode.NONE}


def test_delete_offsets_while_empty(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic, other, never = unique("t"), unique("t"), unique("t")
    create_topic(bs, topic, partitions=2)
    create_topic(bs, other)
    create_topic(bs, never)
    produce(bs, topic, payloads(5))
    group = earliest_share_group(bs)
    consume_all_and_close(bs, group, topic, 5)
    assert alter_errors(alter(bs, group, {other: {0: 0}})) == {(other, 0): ErrorCode.NONE}
    assert {t.topic_name for t in describe(bs, group).topics} == {topic, other}

    response = delete(bs, group, ["no-such-topic", topic, never])
    assert response.error_code == 0
    rows = [(t.topic_name, t.error_code, t.topic_id == UUID_ZERO) for t in response.responses]
    # Deleted topics first, then the refused ones in request order.
    assert rows == [
        (topic, ErrorCode.NONE, False),
        ("no-such-topic", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, True),
        (never, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, True),
    ]
    assert response.responses[2].error_message == "There is no offset information to delete."

    assert [t.topic_name for t in describe(bs, group).topics] == [other]
    assert offsets_of(describe(bs, group, {topic: [0, 1]})) == {(topic, 0): (-1, -1), (topic, 1): (-1, -1)}
    again = delete(bs, group, [topic])
    assert [(t.topic_name, t.error_code) for t in again.responses] == [(topic, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)]

    # With its state gone the group starts over from share.auto.offset.reset (earliest).
    sc = share_consumer(bs, group, topic)
    try:
        assert sorted(m.offset() for m in consume(sc, 5)) == [0, 1, 2, 3, 4]
    finally:
        sc.close()


def test_group_level_errors(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)

    # A classic consumer group id is not a share group.
    consumer_group = unique("cg")
    c = Consumer({"bootstrap.servers": bs, "group.id": consumer_group, "enable.auto.commit": False})
    try:
        c.commit(offsets=[TopicPartition(topic, 0, 0)], asynchronous=False)
    finally:
        c.close()
    for response in (alter(bs, consumer_group, {topic: {0: 0}}), delete(bs, consumer_group, [topic])):
        assert response.error_code == ErrorCode.GROUP_ID_NOT_FOUND
        assert response.error_message == f"Group {consumer_group} is not a share group."
        assert response.responses == []
    assert describe(bs, consumer_group).error_code == 0

    missing = unique("nobody")
    response = delete(bs, missing, [topic])
    assert (response.error_code, response.error_message) == (
        ErrorCode.GROUP_ID_NOT_FOUND,
        f"Group {missing} not found.",
    )

    assert alter(bs, "", {topic: {0: 0}}).error_code == ErrorCode.INVALID_GROUP_ID
    assert delete(bs, "", [topic]).error_code == ErrorCode.INVALID_GROUP_ID


def test_alter_creates_an_empty_share_group_for_an_unknown_id(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    produce(bs, topic, payloads(6))

    # Only unknown topics: nothing to initialise, no group.
    nothing = unique("sg")
    assert alter_errors(alter(bs, nothing, {"no-such-topic": {0: 0}})) == {
        ("no-such-topic", 0): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    }
    assert share_group_state(bs, nothing) == "GROUP_ID_NOT_FOUND"

    group = unique("sg")
    assert alter_errors(alter(bs, group, {topic: {0: 2}})) == {(topic, 0): ErrorCode.NONE}
    assert share_group_state(bs, group) == "Empty"
    assert offsets_of(describe(bs, group)) == {(topic, 0): (2, 4)}

    # The altered start offset wins over share.auto.offset.reset (latest by default).
    sc = share_consumer(bs, group, topic)
    try:
        assert sorted(m.offset() for m in consume(sc, 4)) == [2, 3, 4, 5]
    finally:
        sc.close()
