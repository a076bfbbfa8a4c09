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

Transactions: a request with transactional batches must name its
transactional id (else the whole request is TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
as Kafka's authorizer answers) and carry one producer id (else
INVALID_PRODUCER_ID_MAPPING). With ``transaction.partition.verification.enable``
(KIP-890), the first transactional batch of a producer's transaction on a
partition waits for the transaction coordinator: v3-11 ask whether the
partition is in the open transaction (AddPartitionsToTxn VerifyOnly; a
partition that is not is INVALID_TXN_STATE up to v10, TRANSACTION_ABORTABLE
from v11), v12+ add it (transaction version 2). A fenced producer gets
INVALID_PRODUCER_EPOCH; a coordinator that cannot answer yet (moving, loading,
busy ending the previous transaction) NOT_ENOUGH_REPLICAS, which every client
retries. The append then presents the verification's guard, so a batch
verified before an abort can never land in the next transaction.

In a cluster a broker takes writes only for the partitions it leads; the others
get NOT_LEADER_OR_FOLLOWER, and from v10 the current leader and its endpoint
(KIP-951), so the client moves its batches without a metadata round trip.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import trio

from broker.handlers import handler
from broker.handlers._leaders import node_endpoints
from broker.handlers.context import AnswerLater, RequestContext
from broker.log.producer_state import VerificationGuard
from broker.metadata.image import TopicImage
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest
from broker.protocol.messages.produce_response import (
    LeaderIdAndEpoch,
    NodeEndpoint,
    PartitionProduceResponse,
    ProduceResponse,
    TopicProduceResponse,
)
from broker.protocol.records import BatchHeader, BytesLike, TimestampType, set_max_timestamp, validate_produce_records
from broker.replica.partition import Partition
from broker.txn.records import TopicPartition

_ACKS = (0, 1, -1)
# Produce v12+ adds partitions to the transaction itself (transaction version 2);
# v11 knows TRANSACTION_ABORTABLE; older clients get INVALID_TXN_STATE instead.
FIRST_ADDING_VERSION = 12
FIRST_ABORTABLE_VERSION = 11
# Verification answers that mean "try again": older clients may not retry them, so
# they become NOT_ENOUGH_REPLICAS, which every client retries without a metadata refresh.
_RETRY_LATER = (
    ErrorCode.CONCURRENT_TRANSACTIONS,
    ErrorCode.NETWORK_EXCEPTION,
    ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
    ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_COORDINATOR,
)
# Errors that come with the current leader in v10+ (KIP-951).
_LEADER_HINTED = (ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.FENCED_LEADER_EPOCH)


def _error(index: int, code: int, message: str | None = None) -> PartitionProduceResponse:
    return PartitionProduceResponse(
        index=index, error_code=code, base_offset=-1, log_append_time_ms=-1, log_start_offset=-1, error_message=message
    )


class _Append(NamedTuple):
    """A validated partition, ready to append."""

    slot: list[PartitionProduceResponse]
    position: int
    partition_index: int
    partition: Partition
    records: bytes | bytearray | memoryview
    append_time: int | None


def verification_error(code: ErrorCode, version: int) -> ErrorCode:
    """A transaction coordinator's verification answer as a producer of ``version`` gets it."""
    if code == ErrorCode.PRODUCER_FENCED:
        return ErrorCode.INVALID_PRODUCER_EPOCH
    if code == ErrorCode.TRANSACTION_ABORTABLE and version < FIRST_ABORTABLE_VERSION:
        return ErrorCode.INVALID_TXN_STATE
    if code in _RETRY_LATER:
        return ErrorCode.NOT_ENOUGH_REPLICAS
    return code


@handler(0, min_version=3, max_version=13)
async def handle(ctx: RequestContext, req: ProduceRequest) -> ProduceResponse | AnswerLater | None:
    services = ctx.services
    image = services.metadata.image
    replicas = services.replicas
    v = ctx.api_version
    by_id = v >= 13
    unknown = ErrorCode.UNKNOWN_TOPIC_ID if by_id else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    hinted: set[int] = set()
    # Partitions whose appends must be durable before answering acks=all, with their answers
    # and the offset replication must pass.
    durable: list[tuple[Partition, PartitionProduceResponse, int]] = []
    responses: list[TopicProduceResponse] = []
    bad_acks = req.acks not in _ACKS
    max_message_bytes = services.config.get("message.max.bytes")
    ready: list[_Append] = []
    # Transactional batches waiting for the coordinator: (append, guard).
    verifying: list[tuple[_Append, VerificationGuard]] = []
    producer: tuple[int, int] | None = None  # (id, epoch) of the request's transactional batches
    for topic in req.topic_data:
        info = image.topic_by_id(topic.topic_id) if by_id else image.topic(topic.name)
        parts: list[PartitionProduceResponse] = []
        responses.append(TopicProduceResponse(name=topic.name, topic_id=topic.topic_id, partition_responses=parts))
        for pd in topic.partition_data:
            if bad_acks:
                parts.append(_error(pd.index, ErrorCode.INVALID_REQUIRED_ACKS))
                continue
            if info is None:
                parts.append(_error(pd.index, unknown))
                continue
            if info.internal:
                parts.append(_error(pd.index, ErrorCode.INVALID_TOPIC_EXCEPTION, "cannot write to an internal topic"))
                continue
            limit = int(info.configs.get("max.message.bytes", max_message_bytes))
            try:
                partition = replicas.leader(info.name, pd.index)
            except KafkaError as exc:
                parts.append(_refused(info, pd.index, exc, v, hinted))
                continue
            try:
                header = validate_produce_records(pd.records, api_version=v, max_batch_size=limit)[0]
                if req.acks == -1:
                    partition.check_enough_replicas()
            except KafkaError as exc:
                parts.append(_error(pd.index, exc.code, str(exc)))
                continue
            records, append_time = _stamped(ctx, info.configs, pd)
            item = _Append(parts, len(parts), pd.index, partition, records, append_time)
            parts.append(_error(pd.index, ErrorCode.UNKNOWN_SERVER_ERROR))  # replaced below
            if header.is_transactional and header.has_producer_id:
                producer = _one_producer(req, header, producer)
                try:
                    guard = partition.maybe_start_verification(
                        header.producer_id,
                        header.base_sequence,
                        header.producer_epoch,
                        v >= FIRST_ADDING_VERSION,
                        services.now_ms(),
                    )
                except KafkaError as exc:
                    parts[item.position] = _error(pd.index, exc.code, str(exc))
                    continue
                if guard is not None:
                    verifying.append((item, guard))
                    continue
            ready.append(item)

    for item in ready:
        _append(ctx, item, None, req.acks, durable)
    if verifying and producer is not None and req.transactional_id is not None:
        await _append_verified(ctx, req, req.transactional_id, producer, verifying, durable)
    if req.acks == 0:
        return None
    response = ProduceResponse(
        responses=responses,
        throttle_time_ms=0,
        node_endpoints=node_endpoints(image, hinted, ctx.connection.listener, NodeEndpoint),
    )
    if req.acks == -1 and durable:
        return _when_replicated(response, durable, max(req.timeout_ms, 0) / 1000)
    return response


def _refused(info: TopicImage, index: int, exc: KafkaError, v: int, hinted: set[int]) -> PartitionProduceResponse:
    """The answer of a partition this broker cannot take the batch for."""
    refused = _error(index, exc.code)
    if v >= 10 and exc.code in _LEADER_HINTED:
        # KIP-951: name the current leader so the client need not refresh metadata.
        state = info.partition(index)
        if state is not None and state.leader >= 0:
            refused.current_leader = LeaderIdAndEpoch(leader_id=state.leader, leader_epoch=state.leader_epoch)
            hinted.add(state.leader)
    return refused


def _one_producer(req: ProduceRequest, header: BatchHeader, producer: tuple[int, int] | None) -> tuple[int, int]:
    """(id, epoch) of a transactional batch's producer: a request carries one producer's
    transactional batches, and names its transactional id (KafkaError otherwise)."""
    if req.transactional_id is None:
        raise KafkaError(
            ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
            "transactional records need the request's transactional id",
        )
    this = (header.producer_id, header.producer_epoch)
    if producer is not None and producer[0] != this[0]:
        raise KafkaError(
            ErrorCode.INVALID_PRODUCER_ID_MAPPING,
            "transactional records contained more than one producer id",
        )
    return this


async def _append_verified(
    ctx: RequestContext,
    req: ProduceRequest,
    transactional_id: str,
    producer: tuple[int, int],
    verifying: list[tuple[_Append, VerificationGuard]],
    durable: list[tuple[Partition, PartitionProduceResponse, int]],
) -> None:
    """Ask the transaction coordinator whether the partitions are in the transaction (and
    add them, from v12), then append to those that are (KIP-890)."""
    v = ctx.api_version
    codes = await ctx.services.transactions.verify_or_add(
        transactional_id,
        producer[0],
        producer[1],
        [TopicPartition(item.partition.topic, item.partition_index) for item, _ in verifying],
        add=v >= FIRST_ADDING_VERSION,
    )
    for item, guard in verifying:
        code = codes.get(TopicPartition(item.partition.topic, item.partition_index), ErrorCode.NONE)
        if code:
            code = verification_error(code, v)
            message = "Partition was not added to the transaction" if code == ErrorCode.INVALID_TXN_STATE else None
            item.slot[item.position] = _error(item.partition_index, code, message)
        else:
            _append(ctx, item, guard, req.acks, durable)


def _when_replicated(
    response: ProduceResponse, durable: list[tuple[Partition, PartitionProduceResponse, int]], timeout_s: float
) -> AnswerLater:
    """The acks=all answer, sent once every appended partition is replicated (or timed out).
    Appended already: only the answer waits for durability, so the connection handles the
    next requests meanwhile (their appends share the fsync round)."""

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


def _stamped(ctx: RequestContext, configs: Mapping[str, str], pd: PartitionProduceData) -> tuple[BytesLike, int | None]:
    """The batch as appended: LogAppendTime topics get the broker's time on the header."""
    records: BytesLike | None = pd.records
    assert records is not None  # validate_produce_records refuses missing records
    if configs.get("message.timestamp.type") != "LogAppendTime":
        return records, None
    append_time = ctx.services.now_ms()
    records = bytearray(records)
    set_max_timestamp(records, TimestampType.LOG_APPEND_TIME, append_time)
    return records, append_time


def _append(
    ctx: RequestContext,
    item: _Append,
    guard: VerificationGuard | None,
    acks: int,
    durable: list[tuple[Partition, PartitionProduceResponse, int]],
) -> None:
    try:
        result = item.partition.append(item.records, log_append_time_ms=item.append_time, verification_guard=guard)
    except KafkaError as exc:
        item.slot[item.position] = _error(item.partition_index, exc.code, str(exc))
        return
    answer = PartitionProduceResponse(
        index=item.partition_index,
        error_code=ErrorCode.NONE,
        base_offset=result.base_offset,
        log_append_time_ms=result.log_append_time_ms,
        log_start_offset=result.log_start_offset,
    )
    item.slot[item.position] = answer
    if not result.duplicate:
        ctx.services.metrics.bytes_in += len(item.records)
    if acks == -1:
        durable.append((item.partition, answer, result.last_offset + 1))
    else:
        item.partition.note_append()
