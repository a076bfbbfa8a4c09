"""ListOffsets (key 2), v1-11: offsets by timestamp and the special timestamps.

- ``-2`` earliest: the log start offset. ``-4`` earliest-local (v8+, KIP-405):
  the same, as there is no tiered storage.
- ``-1`` latest: the high watermark, or the last stable offset for
  read_committed (``isolation_level`` 1, v2+). A request from a replica id
  other than -1 gets the log end offset, as Kafka answers non-consumers.
- ``-3`` max timestamp (v7+, KIP-734): the offset and timestamp of the record
  with the largest timestamp.
- ``-5`` latest-tiered (v9+, KIP-1005) and ``-6`` earliest-pending-upload
  (v11+, KIP-1023): offset -1, timestamp -1, leader epoch -1, Kafka's answer
  for a topic without tiered storage.
- ``>= 0``: the first offset whose timestamp is at or after it, with that
  record's timestamp; none gives offset -1 and timestamp -1. A lookup result
  at or past the high watermark (LSO for read_committed) is not visible yet
  and also gives -1/-1, as in Kafka.

A special timestamp the request version does not carry, or any other
negative one, is UNSUPPORTED_VERSION for that partition. A partition listed
more than once in one request gets one INVALID_REQUEST entry. An unknown topic
or partition is UNKNOWN_TOPIC_OR_PARTITION, one this broker does not lead
NOT_LEADER_OR_FOLLOWER. Leader epochs: the partition's (from the metadata
image) is returned with every offset found (v4+); a ``current_leader_epoch``
above it is UNKNOWN_LEADER_EPOCH, any other value but -1 (not given) below it
FENCED_LEADER_EPOCH. Partitions come back grouped by topic in request order.
"""

from __future__ import annotations

from collections import Counter

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.list_offsets_request import ListOffsetsPartition, ListOffsetsRequest
from broker.protocol.messages.list_offsets_response import (
    ListOffsetsPartitionResponse,
    ListOffsetsResponse,
    ListOffsetsTopicResponse,
)
from broker.replica.manager import ReplicaManager
from broker.replica.partition import Partition

LATEST = -1
EARLIEST = -2
MAX_TIMESTAMP = -3
EARLIEST_LOCAL = -4
LATEST_TIERED = -5
EARLIEST_PENDING_UPLOAD = -6

# The first request version that carries each special timestamp (Kafka's table).
_MIN_VERSION = {
    EARLIEST: 1,
    LATEST: 1,
    MAX_TIMESTAMP: 7,
    EARLIEST_LOCAL: 8,
    LATEST_TIERED: 9,
    EARLIEST_PENDING_UPLOAD: 11,
}

CONSUMER_REPLICA_ID = -1
READ_COMMITTED = 1
UNKNOWN_EPOCH = -1


def _error(p: ListOffsetsPartition, code: int) -> ListOffsetsPartitionResponse:
    return ListOffsetsPartitionResponse(partition_index=p.partition_index, error_code=code, timestamp=-1, offset=-1)


def _found(
    p: ListOffsetsPartition, offset: int, timestamp: int, epoch: int, version: int
) -> ListOffsetsPartitionResponse:
    return ListOffsetsPartitionResponse(
        partition_index=p.partition_index,
        error_code=0,
        timestamp=timestamp,
        offset=offset,
        leader_epoch=epoch if version >= 4 else UNKNOWN_EPOCH,  # no such field before v4
    )


def _lookup(
    partition: Partition, p: ListOffsetsPartition, isolation: int | None, version: int
) -> ListOffsetsPartitionResponse:
    ts = p.timestamp
    log = partition.log
    epoch = partition.leader_epoch
    if isolation is None:
        fetchable = partition.log_end_offset
    elif isolation == READ_COMMITTED:
        fetchable = partition.last_stable_offset
    else:
        fetchable = partition.high_watermark
    if ts == LATEST:
        return _found(p, fetchable, -1, epoch, version)
    if ts in (EARLIEST, EARLIEST_LOCAL):
        return _found(p, partition.log_start_offset, -1, epoch, version)
    if ts in (LATEST_TIERED, EARLIEST_PENDING_UPLOAD):
        return _found(p, -1, -1, UNKNOWN_EPOCH, version)
    hit = log.max_timestamp() if ts == MAX_TIMESTAMP else log.offset_for_timestamp(ts)
    if hit is None:
        return _error(p, ErrorCode.NONE)
    offset, timestamp = hit
    if offset < 0 or offset >= fetchable:
        # Nothing found, or not visible to this reader yet.
        return _error(p, ErrorCode.NONE)
    return _found(p, offset, timestamp, epoch, version)


@handler(2, min_version=1, max_version=11)
async def handle(ctx: RequestContext, req: ListOffsetsRequest) -> ListOffsetsResponse:
    replicas = ctx.services.replicas
    v = ctx.api_version
    isolation = req.isolation_level if req.replica_id == CONSUMER_REPLICA_ID else None
    seen = Counter((t.name, p.partition_index) for t in req.topics for p in t.partitions)
    by_topic: dict[str, dict[int, ListOffsetsPartitionResponse]] = {}
    for t in req.topics:
        answers = by_topic.setdefault(t.name, {})
        for p in t.partitions:
            if p.partition_index in answers:
                continue
            answers[p.partition_index] = _answer(
                replicas, t.name, p, v, isolation, seen[(t.name, p.partition_index)] > 1
            )
    return ListOffsetsResponse(
        throttle_time_ms=0,
        topics=[
            ListOffsetsTopicResponse(name=name, partitions=list(parts.values())) for name, parts in by_topic.items()
        ],
    )


def _answer(
    replicas: ReplicaManager, topic: str, p: ListOffsetsPartition, version: int, isolation: int | None, duplicate: bool
) -> ListOffsetsPartitionResponse:
    if duplicate:
        return _error(p, ErrorCode.INVALID_REQUEST)
    ts = p.timestamp
    if ts < 0 and (ts not in _MIN_VERSION or version < _MIN_VERSION[ts]):
        return _error(p, ErrorCode.UNSUPPORTED_VERSION)
    partition = replicas.partition(topic, p.partition_index)
    if partition is None:
        return _error(p, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
    epoch = p.current_leader_epoch
    if epoch != UNKNOWN_EPOCH:
        if epoch > partition.leader_epoch:
            return _error(p, ErrorCode.UNKNOWN_LEADER_EPOCH)
        if epoch < partition.leader_epoch:
            return _error(p, ErrorCode.FENCED_LEADER_EPOCH)
    if not partition.is_leader:
        return _error(p, ErrorCode.NOT_LEADER_OR_FOLLOWER)
    try:
        return _lookup(partition, p, isolation, version)
    except KafkaError as exc:
        return _error(p, exc.code)
