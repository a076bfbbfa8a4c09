"""Helpers for the differential tests: one scripted scenario, two brokers.

Each scenario is a function ``scenario(bootstrap) -> dict`` that returns only
what a user can observe (records, delivery counts, error codes, describe
output), normalised so that the Apache Kafka 4.4.0 peer and sharebroker can be
compared with ``==``. Raw requests go through ``tests.integration.wire``.
"""

from __future__ import annotations

import base64
import time
import uuid

from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

from broker.protocol.errors import ErrorCode
from broker.protocol.messages.alter_share_group_offsets_request import (
    AlterShareGroupOffsetsRequest,
    AlterShareGroupOffsetsRequestPartition,
    AlterShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.describe_share_group_offsets_request import (
    DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsRequestGroup,
    DescribeShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.find_coordinator_request import FindCoordinatorRequest
from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.messages.share_acknowledge_request import AcknowledgementBatch as AckBatch
from broker.protocol.messages.share_acknowledge_request import (
    AcknowledgePartition,
    AcknowledgeTopic,
    ShareAcknowledgeRequest,
)
from broker.protocol.messages.share_fetch_request import (
    AcknowledgementBatch,
    FetchPartition,
    FetchTopic,
    ShareFetchRequest,
)
from broker.protocol.messages.share_group_describe_request import ShareGroupDescribeRequest
from broker.protocol.messages.share_group_heartbeat_request import ShareGroupHeartbeatRequest
from broker.protocol.records import build_batch
from tests.integration.clients import admin, create_topic
from tests.integration.wire import WireClient

ACCEPT, RELEASE, REJECT = 1, 2, 3
RETRIABLE = {14, 15, 16}  # COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def member_id() -> str:
    """Like librdkafka: 22-char base64 of a random UUID (url-safe here)."""
    return base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")


def err(code: int) -> str:
    """Error codes by name, so a mismatch reads well in the diff."""
    try:
        return ErrorCode(code).name
    except ValueError:
        return str(code)


def set_group_configs(bootstrap: str, group: str, configs: dict[str, str]) -> None:
    client = admin(bootstrap)
    res = ConfigResource(
        ResourceType.GROUP,
        group,
        incremental_configs=[
            ConfigEntry(k, v, incremental_operation=AlterConfigOpType.SET) for k, v in configs.items()
        ],
    )
    for f in client.incremental_alter_configs([res]).values():
        f.result(15)


def new_topic_and_group(bootstrap: str, partitions: int = 1, **group_configs: str) -> tuple[str, str]:
    topic, group = unique("dt"), unique("dg")
    create_topic(bootstrap, topic, partitions=partitions)
    configs = {"share.auto.offset.reset": "earliest"}
    configs.update({k.replace("_", "."): v for k, v in group_configs.items()})
    set_group_configs(bootstrap, group, configs)
    return topic, group


# ------------------------------------------------------------------ raw wire


def topic_id(w: WireClient, topic: str, timeout: float = 15) -> uuid.UUID:
    deadline = time.monotonic() + timeout
    while True:
        md = w.request(MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False), 12)
        t = md.topics[0]
        if t.error_code == 0 and t.partitions and all(p.leader_id >= 0 for p in t.partitions):
            return t.topic_id
        assert time.monotonic() < deadline, f"topic {topic} not ready: {t}"
        time.sleep(0.1)


def produce_batch(w: WireClient, topic: str, n: int, partition: int = 0, start: int = 0) -> None:
    batch = build_batch([(b"k%d" % i, b"v%d" % i, [], None) for i in range(start, start + n)])
    resp = w.request(
        ProduceRequest(
            acks=-1,
            timeout_ms=10000,
            topic_data=[
                TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=partition, records=batch)])
            ],
        ),
        9,
    )
    assert resp.responses[0].partition_responses[0].error_code == 0, resp


def heartbeat(w: WireClient, group: str, member: str, epoch: int, topics: list[str] | None = None):
    return w.request(
        ShareGroupHeartbeatRequest(group_id=group, member_id=member, member_epoch=epoch, subscribed_topic_names=topics),
        1,
    )


def find_coordinator(w: WireClient, group: str, timeout: float = 15) -> None:
    """FindCoordinator (GROUP) until it answers; Kafka creates __consumer_offsets on the first one."""
    deadline = time.monotonic() + timeout
    while True:
        resp = w.request(FindCoordinatorRequest(key_type=0, coordinator_keys=[group]), 4)
        code = resp.coordinators[0].error_code
        if code == 0:
            return
        assert time.monotonic() < deadline, f"no coordinator for {group}: {resp}"
        time.sleep(0.3)


def join(w: WireClient, group: str, member: str, topics: list[str], partitions: int = 1, timeout: float = 15) -> int:
    """Join with raw heartbeats until the member holds all ``partitions``; returns its epoch."""
    deadline = time.monotonic() + timeout
    find_coordinator(w, group, timeout)
    while True:
        resp = heartbeat(w, group, member, 0, topics)
        # A freshly started Kafka answers NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS for a while.
        if resp.error_code not in RETRIABLE or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    assert resp.error_code == 0, resp
    epoch = resp.member_epoch
    while True:
        a = resp.assignment
        got = sum(len(tp.partitions) for tp in a.topic_partitions) if a is not None else None
        if got == partitions:
            return epoch
        assert time.monotonic() < deadline, f"no assignment for {member}: {resp}"
        time.sleep(0.2)
        resp = heartbeat(w, group, member, epoch)
        assert resp.error_code == 0, resp
        epoch = resp.member_epoch


def leave(w: WireClient, group: str, member: str) -> int:
    return heartbeat(w, group, member, -1).error_code


def fetch(w, group, member, epoch, tid, *, acks=None, max_records=500, wait_ms=0, version=1, mode=0):
    parts = [FetchPartition(partition_index=0, acknowledgement_batches=list(acks or []))]
    req = ShareFetchRequest(
        group_id=group,
        member_id=member,
        share_session_epoch=epoch,
        max_wait_ms=wait_ms,
        min_bytes=1,
        max_bytes=1 << 20,
        max_records=max_records,
        batch_size=max_records,
        topics=[FetchTopic(topic_id=tid, partitions=parts)],
        forgotten_topics_data=[],
    )
    if version >= 2:
        req.share_acquire_mode = mode
    return w.request(req, version)


def part0(resp):
    for t in resp.responses:
        for p in t.partitions:
            if p.partition_index == 0:
                return p
    return None


def acquired(resp) -> list[tuple[int, int, int]]:
    p = part0(resp)
    return [] if p is None else [(a.first_offset, a.last_offset, a.delivery_count) for a in p.acquired_records]


def fetch_acquire(w, group, member, epoch, tid, timeout: float = 15, **kw):
    """ShareFetch (epoch, epoch+1, ...) until something is acquired. Returns (response, next epoch).

    Kafka loads a share-partition asynchronously: the first fetches may come back empty.
    """
    deadline = time.monotonic() + timeout
    while True:
        resp = fetch(w, group, member, epoch, tid, wait_ms=500, **kw)
        assert resp.error_code == 0, resp
        epoch += 1
        kw.pop("acks", None)
        if acquired(resp) or time.monotonic() > deadline:
            return resp, epoch


def ack_batch(first: int, last: int, kind: int) -> AcknowledgementBatch:
    return AcknowledgementBatch(first_offset=first, last_offset=last, acknowledge_types=[kind])


def share_ack(w, group, member, epoch, tid, batches: list[tuple[int, int, int]], version: int = 1):
    req = ShareAcknowledgeRequest(
        group_id=group,
        member_id=member,
        share_session_epoch=epoch,
        topics=[
            AcknowledgeTopic(
                topic_id=tid,
                partitions=[
                    AcknowledgePartition(
                        partition_index=0,
                        acknowledgement_batches=[
                            AckBatch(first_offset=f, last_offset=la, acknowledge_types=[k]) for f, la, k in batches
                        ],
                    )
                ],
            )
        ],
    )
    return w.request(req, version)


def describe_group(w: WireClient, group: str):
    return w.request(ShareGroupDescribeRequest(group_ids=[group]), 1).groups[0]


def group_state(w: WireClient, group: str) -> str:
    g = describe_group(w, group)
    return g.group_state if g.error_code == 0 else err(g.error_code)


def wait_state(w: WireClient, group: str, state: str, timeout: float = 20) -> str:
    deadline = time.monotonic() + timeout
    while (got := group_state(w, group)) != state and time.monotonic() < deadline:
        time.sleep(0.2)
    return got


def describe_offsets(w: WireClient, group: str, topic: str | None = None, version: int = 1):
    topics = None if topic is None else [DescribeShareGroupOffsetsRequestTopic(topic_name=topic, partitions=[0])]
    resp = w.request(
        DescribeShareGroupOffsetsRequest(groups=[DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=topics)]),
        version,
    )
    return resp.groups[0]


def offsets_summary(g) -> dict:
    """{group error, [(partition, start offset, lag, error)]} of one DescribeShareGroupOffsets group."""
    rows = sorted((p.partition_index, p.start_offset, p.lag, err(p.error_code)) for t in g.topics for p in t.partitions)
    return {"error": err(g.error_code), "partitions": rows}


def alter_offsets(w: WireClient, group: str, topic: str, offset: int):
    return w.request(
        AlterShareGroupOffsetsRequest(
            group_id=group,
            topics=[
                AlterShareGroupOffsetsRequestTopic(
                    topic_name=topic,
                    partitions=[AlterShareGroupOffsetsRequestPartition(partition_index=0, start_offset=offset)],
                )
            ],
        ),
        0,
    )


def alter_summary(resp) -> dict:
    return {
        "error": err(resp.error_code),
        "partitions": sorted((p.partition_index, err(p.error_code)) for t in resp.responses for p in t.partitions),
    }


def settled_offsets(w: WireClient, group: str, topic: str, expect_start: int, timeout: float = 10) -> dict:
    """DescribeShareGroupOffsets polled until the start offset reaches ``expect_start`` (or the time is up)."""
    deadline = time.monotonic() + timeout
    while True:
        got = offsets_summary(describe_offsets(w, group, topic))
        if (got["partitions"] and got["partitions"][0][1] >= expect_start) or time.monotonic() > deadline:
            return got
        time.sleep(0.25)
