"""TxnOffsetCommit (key 28), v0-6: offsets committed inside a producer's transaction.

The offsets are written to the group's ``__consumer_offsets`` partition as a
transactional batch of the producer (its id and epoch) and become the group's
committed offsets when the transaction commits (its COMMIT marker reaches that
partition); an abort drops them. Until then OffsetFetch with ``require_stable``
answers UNSTABLE_OFFSET_COMMIT for those partitions.

Transaction verification (KIP-890, when ``transaction.partition.verification.enable``):
before the first write of the transaction to that partition, v0-4 ask the
transaction coordinator whether the partition is in the transaction (the
client added it with AddOffsetsToTxn); v5+ (transaction version 2) add it
there. A partition that is not in the transaction is TRANSACTION_ABORTABLE for
v4+ and INVALID_TXN_STATE below; a fenced producer INVALID_PRODUCER_EPOCH.

Member checks are those of OffsetCommit for the group's generation (v3+ carry
member id, generation and instance id), except that a transactional commit
needs no member in old versions and is not held up by a rebalance in progress;
an unknown group with a generation is ILLEGAL_GENERATION, one without gets a
simple group. v6 names topics by id (KIP-1319): an unknown id is
UNKNOWN_TOPIC_ID; an unknown topic name UNKNOWN_TOPIC_OR_PARTITION. Metadata
longer than ``offset.metadata.max.bytes`` is OFFSET_METADATA_TOO_LARGE.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._offset_commits import commit_entries
from broker.handlers.context import RequestContext
from broker.log.producer_state import VerificationGuard
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.txn_offset_commit_request import TxnOffsetCommitRequest
from broker.protocol.messages.txn_offset_commit_response import (
    TxnOffsetCommitResponse,
    TxnOffsetCommitResponsePartition,
    TxnOffsetCommitResponseTopic,
)
from broker.txn.markers import OFFSETS_TOPIC
from broker.txn.records import TopicPartition

FIRST_VERSION_BY_TOPIC_ID = 6
# From v5 the partition is added to the transaction (transaction version 2); v4 knows
# TRANSACTION_ABORTABLE; older clients get INVALID_TXN_STATE instead.
FIRST_ADDING_VERSION = 5
FIRST_ABORTABLE_VERSION = 4


async def _verify(
    ctx: RequestContext, req: TxnOffsetCommitRequest, v: int
) -> tuple[ErrorCode, VerificationGuard | None]:
    """(error, verification guard) for the group's partition (KIP-890)."""
    services = ctx.services
    pid = services.groups.partition_for(req.group_id)
    try:
        await services.groups.runtime.get_shard(pid)
        partition = services.replicas.leader(OFFSETS_TOPIC, pid)
        guard = partition.maybe_start_verification(
            req.producer_id, -1, req.producer_epoch, v >= FIRST_ADDING_VERSION, services.now_ms()
        )
    except KafkaError as exc:
        return exc.code, None
    if guard is None:
        return ErrorCode.NONE, None
    codes = await services.transactions.verify_or_add(
        req.transactional_id,
        req.producer_id,
        req.producer_epoch,
        [TopicPartition(OFFSETS_TOPIC, pid)],
        add=v >= FIRST_ADDING_VERSION,
    )
    code = next(iter(codes.values()), ErrorCode.NONE)
    if code == ErrorCode.PRODUCER_FENCED:
        code = ErrorCode.INVALID_PRODUCER_EPOCH
    elif code == ErrorCode.NETWORK_EXCEPTION:  # the transaction coordinator did not answer
        code = ErrorCode.COORDINATOR_NOT_AVAILABLE
    elif code == ErrorCode.TRANSACTION_ABORTABLE and v < FIRST_ABORTABLE_VERSION:
        code = ErrorCode.INVALID_TXN_STATE
    return code, guard


@handler(28, min_version=0, max_version=6)
async def handle(ctx: RequestContext, req: TxnOffsetCommitRequest) -> TxnOffsetCommitResponse:
    v = ctx.api_version
    # Partitions to commit, with the response entry that gets their outcome.
    by_id = v >= FIRST_VERSION_BY_TOPIC_ID
    topics, entries = commit_entries(
        ctx.services.metadata.image, req.topics, by_id, TxnOffsetCommitResponseTopic, TxnOffsetCommitResponsePartition
    )
    if not entries:
        return TxnOffsetCommitResponse(throttle_time_ms=0, topics=topics)
    error = ErrorCode.NONE
    if not req.group_id:
        error = ErrorCode.INVALID_GROUP_ID
    guard: VerificationGuard | None = None
    if not error:
        error, guard = await _verify(ctx, req, v)
    if error:
        codes = [error] * len(entries)
    else:
        codes = await ctx.services.groups.commit_transactional_offsets(
            req.group_id,
            producer_id=req.producer_id,
            producer_epoch=req.producer_epoch,
            member_id=req.member_id if v >= 3 else "",
            group_instance_id=req.group_instance_id if v >= 3 else None,
            generation=req.generation_id_or_member_epoch if v >= 3 else -1,
            entries=[entry for _, entry in entries],
            verification_guard=guard,
        )
    for (part, _), code in zip(entries, codes):
        part.error_code = code
    return TxnOffsetCommitResponse(throttle_time_ms=0, topics=topics)
