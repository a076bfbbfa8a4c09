"""Produce (key 0), v3-13 (v0-2 are advertised, as Kafka 4.x does, but refused).

Batches are validated without decompressing (header, CRC32C, one batch per
partition: the checks Kafka makes) and appended as received, with offsets
assigned by rewriting the batch's base offset. Topics with
``message.timestamp.type=LogAppendTime`` get the append time stamped on the
batch header (one CRC pass, no per-record work).

Durability (documented in the README): acks=0 gets no response; acks=1 is
answered once the batch is written to the leader's log; acks=all (-1) once an
fsync has covered it (one group-commit fsync covers every append waiting at
that moment) and, for a replicated partition, once the high watermark has
passed it: every in-sync replica has it, fsynced. With fewer in-sync replicas
than ``min.insync.replicas`` an acks=all batch is refused before it is appended
(NOT_ENOUGH_REPLICAS), or answered NOT_ENOUGH_REPLICAS_AFTER_APPEND when the ISR
shrank below it while the batch waited; a batch whose replication did not
complete within the request's ``timeout_ms`` is REQUEST_TIMED_OUT, and one whose
leadership moved meanwhile NOT_LEADER_OR_FOLLOWER (the producer retries at the
new leader, where an idempotent producer's retry of a replicated batch is
recognised as a duplicate).
Idempotent producers (KIP-98) get duplicate detection and sequence checks from
the log. v13 names topics by id (KIP-516).

In a cluster a broker takes writes only for the partitions it leads; the others
get NOT_LEADER_OR_FOLLOWER, and from v10 the current leader and its endpoint
(KIP-951), so the client moves its batches without a metadata round trip.
"""

from __future__ import annotations

import trio

from broker.handlers import handler
from broker.handlers.context import AnswerLater, RequestContext
from broker.metadata.image import MetadataImage
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.produce_request import ProduceRequest
from broker.protocol.messages.produce_response import (
    LeaderIdAndEpoch,
    NodeEndpoint,
    PartitionProduceResponse,
    ProduceResponse,
    TopicProduceResponse,
)
from broker.protocol.records import TimestampType, set_max_timestamp, validate_produce_records
from broker.replica.partition import Partition

_ACKS = (0, 1, -1)
# Errors that come with the current leader in v10+ (KIP-951).
_LEADER_HINTED = (ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.FENCED_LEADER_EPOCH)


def _error(index: int, code: int, message: str | None = None) -> PartitionProduceResponse:
    return PartitionProduceResponse(
        index=index, error_code=code, base_offset=-1, log_append_time_ms=-1, log_start_offset=-1, error_message=message
    )


@handler(0, min_version=3, max_version=13)
async def handle(ctx: RequestContext, req: ProduceRequest) -> ProduceResponse | AnswerLater | None:
    services = ctx.services
    image = services.metadata.image
    replicas = services.replicas
    v = ctx.api_version
    by_id = v >= 13
    hinted: set[int] = set()
    # Partitions whose appends must be durable before answering acks=all, with their answers
    # and the offset replication must pass.
    durable: list[tuple[Partition, PartitionProduceResponse, int]] = []
    responses: list[TopicProduceResponse] = []
    bad_acks = req.acks not in _ACKS
    max_message_bytes = services.config.get("message.max.bytes")
    for topic in req.topic_data:
        info = image.topic_by_id(topic.topic_id) if by_id else image.topic(topic.name)
        parts: list[PartitionProduceResponse] = []
        responses.append(TopicProduceResponse(name=topic.name, topic_id=topic.topic_id, partition_responses=parts))
        for pd in topic.partition_data:
            if bad_acks:
                parts.append(_error(pd.index, ErrorCode.INVALID_REQUIRED_ACKS))
                continue
            if info is None:
                parts.append(
                    _error(pd.index, ErrorCode.UNKNOWN_TOPIC_ID if by_id else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                )
                continue
            if info.internal:
                parts.append(_error(pd.index, ErrorCode.INVALID_TOPIC_EXCEPTION, "cannot write to an internal topic"))
                continue
            limit = int(info.configs.get("max.message.bytes", max_message_bytes))
            try:
                partition = replicas.leader(info.name, pd.index)
            except KafkaError as exc:
                refused = _error(pd.index, exc.code)
                if v >= 10 and exc.code in _LEADER_HINTED:
                    # KIP-951: name the current leader so the client need not refresh metadata.
                    state = info.partition(pd.index)
                    if state is not None and state.leader >= 0:
                        refused.current_leader = LeaderIdAndEpoch(
                            leader_id=state.leader, leader_epoch=state.leader_epoch
                        )
                        hinted.add(state.leader)
                parts.append(refused)
                continue
            try:
                validate_produce_records(pd.records, api_version=v, max_batch_size=limit)
                records = pd.records
                append_time = None
                if info.configs.get("message.timestamp.type") == "LogAppendTime":
                    append_time = services.now_ms()
                    records = bytearray(records)
                    set_max_timestamp(records, TimestampType.LOG_APPEND_TIME, append_time)
                if req.acks == -1:
                    partition.check_enough_replicas()
                result = partition.append(records, log_append_time_ms=append_time)
            except KafkaError as exc:
                parts.append(_error(pd.index, exc.code, str(exc)))
                continue
            answer = PartitionProduceResponse(
                index=pd.index,
                error_code=ErrorCode.NONE,
                base_offset=result.base_offset,
                log_append_time_ms=result.log_append_time_ms,
                log_start_offset=result.log_start_offset,
            )
            parts.append(answer)
            if not result.duplicate:
                services.metrics.bytes_in += len(records)
            if req.acks == -1:
                durable.append((partition, answer, result.last_offset + 1))
            else:
                partition.note_append()
    if req.acks == 0:
        return None
    response = ProduceResponse(
        responses=responses, throttle_time_ms=0, node_endpoints=node_endpoints(image, hinted, ctx.connection.listener)
    )
    if req.acks == -1 and durable:
        # Appended: only the answer waits for durability, so the connection handles the
        # next requests meanwhile (their appends share the fsync round).
        timeout_s = max(req.timeout_ms, 0) / 1000

        async def one(partition: Partition, answer: PartitionProduceResponse, offset: int) -> None:
            try:
                await partition.wait_replicated(offset, timeout_s=timeout_s)
            except KafkaError as exc:  # this partition's entry fails, not the request
                answer.error_code = exc.code
                answer.error_message = exc.detail
                answer.base_offset = -1

        async def replicated() -> ProduceResponse:
            if len(durable) == 1:
                await one(*durable[0])
            else:
                async with trio.open_nursery() as nursery:
                    for partition, answer, offset in durable:
                        nursery.start_soon(one, partition, answer, offset)
            return response

        return AnswerLater(replicated)
    return response


def node_endpoints(image: MetadataImage, nodes: set[int], listener: str | None) -> list[NodeEndpoint]:
    """The endpoints (on the client's listener) of the leaders named in KIP-951 hints."""
    out = []
    for node in sorted(nodes):
        b = image.broker(node)
        e = None if b is None else (b.endpoint(listener) or b.endpoint())
        if b is not None and e is not None:
            out.append(NodeEndpoint(node_id=node, host=e.host, port=e.port, rack=b.rack))
    return out
