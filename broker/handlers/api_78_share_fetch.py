"""ShareFetch (key 78), v1-2 (KIP-932).

Opens, continues or closes the member's share session (epoch 0 / N / -1, see
:mod:`broker.share.sessions`), applies the acknowledgements piggy-backed on the
request (each partition's ack is durable before the response), then acquires
records for the member from the session's partitions, rotating the start so no
partition starves. ``MaxRecords`` is one budget for the whole request, and so is
``MaxBytes``: a record is acquired only if the stored batch holding it fits in
what is left of ``MaxBytes`` (soft, as Kafka: the first batch of an answer goes
out whatever its size), and the answer carries every batch holding an acquired
record, so nothing is acquired that the member does not receive. Records go out
as the stored log batches covering the acquired ranges, with ``AcquiredRecords``
saying which offsets the member holds. ``MaxBytes`` 0 gets no records. When nothing can be
acquired, the request waits up to ``MaxWaitMs`` for an append, a release or an
expired lock, also when it carried acknowledgements (their results go out with
the answer, as Kafka's do). v2 adds ``ShareAcquireMode`` (0 batch_optimized, 1 record_limit)
and Renew acknowledgements (``IsRenewAck``).

Share-partitions are loaded (their state read from the share coordinator) on
first use. A request that may wait (``MaxWaitMs`` > 0) does not wait for all of
them: the first one in fetch order not in memory yet is loaded while the request
waits, the others in the background, and the answer carries what the loaded ones
hold, as Kafka answers a share fetch with the share-partitions initialized so
far (a request with ``MaxWaitMs`` 0 loads them all, then answers). So a new consumer's
first answer comes as soon as one share-partition is ready (for librdkafka's
0179 test: one partition's records), and the others' records go out from the
next fetch on, to it or to another member. A share-partition whose state the
share coordinator cannot give yet (its ``__share_group_state`` partition just
moved and is loading, or has no leader for a moment) is left out of the answer
the same way: the request waits as for records and tries again, rather than
failing the consumer.

Client contract (librdkafka): the same TopicId may appear twice (merged);
every partition that carried acks is in the response; ``Records`` is never
null; epoch 0 with acks is INVALID_REQUEST.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import trio

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.share_fetch_request import ForgottenTopic, ShareFetchRequest
from broker.protocol.messages.share_fetch_response import (
    AcquiredRecords,
    LeaderIdAndEpoch,
    PartitionData,
    ShareFetchableTopicResponse,
    ShareFetchResponse,
)
from broker.share.inflight import AcquiredRange
from broker.share.manager import Entry, SharePartitionManager
from broker.share.requests import ack_batches, acknowledge_all, open_or_continue
from broker.share.sessions import FINAL_EPOCH, INITIAL_EPOCH, ShareSession

# The share-partition is still loading, or the share coordinator is not there yet: it is
# tried again, not failed.
_NOT_YET = frozenset(
    {ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, ErrorCode.NOT_COORDINATOR}
)
# How soon a request that is waiting retries a share-partition whose state was not there yet.
_RETRY_S = 0.1


def _error(code: int, message: str | None = None) -> ShareFetchResponse:
    return ShareFetchResponse(error_code=code, error_message=message, acquisition_lock_timeout_ms=0, responses=[])


@handler(78, min_version=1, max_version=2)
async def handle(ctx: RequestContext, req: ShareFetchRequest) -> ShareFetchResponse:
    services = ctx.services
    mgr = services.share
    v = ctx.api_version
    if not req.group_id or not req.member_id:
        return _error(ErrorCode.INVALID_REQUEST, "GroupId and MemberId are required")
    epoch = req.share_session_epoch

    wanted, acks = _merge_topics(req)
    if epoch == INITIAL_EPOCH and acks:
        return _error(ErrorCode.INVALID_REQUEST, "a ShareFetch opening a share session cannot carry acknowledgements")

    session, code = await open_or_continue(mgr, ctx.connection, req.group_id, req.member_id, epoch)
    if code:
        return _error(code)
    assert session is not None  # open_or_continue returns a session whenever the code is NONE
    settings = mgr.settings(req.group_id)
    if epoch != FINAL_EPOCH:
        _update_session(mgr, req.group_id, req.member_id, session, wanted, req.forgotten_topics_data)

    # Acknowledgements first: their results go out with the fetched records.
    results: dict[tuple[uuid.UUID, int], PartitionData] = {}
    renew_allowed = v >= 2 and req.is_renew_ack and settings.renew_ack_enabled
    # The share-partitions whose records the acknowledgements freed: members waiting
    # there get them first (_fetch), not this one.
    woken: set[Entry] = set()
    try:
        for key, code in (await acknowledge_all(mgr, req.group_id, req.member_id, acks, renew_allowed, woken)).items():
            results[key] = _partition(key[1], acknowledge_error_code=code)

        if epoch == FINAL_EPOCH:
            mgr.sessions.close(req.group_id, req.member_id)
            await mgr.release_member(req.group_id, req.member_id)
            return _response(results, settings.lock_duration_ms)

        mode = req.share_acquire_mode if v >= 2 else 0
        if mode not in (0, 1):
            return _error(ErrorCode.INVALID_REQUEST, f"unknown ShareAcquireMode {mode}")
        await _fetch(ctx, req, req.group_id, req.member_id, session, mode, results, woken)
        return _response(results, settings.lock_duration_ms)
    finally:
        mgr.give_turn(woken)


async def _fetch(
    ctx: RequestContext,
    req: ShareFetchRequest,
    group_id: str,
    member_id: str,
    session: ShareSession,
    mode: int,
    results: dict[tuple[uuid.UUID, int], PartitionData],
    woken: set[Entry],
) -> None:
    """Acquire records for the member into ``results``, waiting up to ``MaxWaitMs`` while
    there is nothing to acquire.

    Members waiting are served in turn: where this request's acknowledgements freed
    records (``woken``) and other members' long polls wait, this member, once it has
    acquired there a few times in a row (:data:`~broker.share.manager.TURN_ACQUISITIONS`),
    takes nothing in its first pass, wakes the longest waiting of them and waits behind
    them. Whenever a fetch takes a part and leaves records, the next waiting long poll is
    woken; one that is woken and finds nothing to take passes the turn on
    (:meth:`SharePartitionManager.give_turn`, :meth:`~SharePartitionManager.pass_on`).
    """
    services = ctx.services
    mgr = services.share
    v = ctx.api_version
    take = _Take(
        mgr,
        group_id,
        member_id,
        mode,
        results,
        budget=req.max_records if v >= 1 else 500,
        batch_size=req.batch_size if v >= 1 and req.batch_size > 0 else None,
        # MaxBytes 0 gets no records (as Kafka answers it, and the Java client documents);
        # from 1 up, the first batch of the answer goes out whatever its size.
        bytes_left=max(req.max_bytes, 0),
    )
    deadline = trio.current_time() + max(req.max_wait_ms, 0) / 1000
    await _load_missing(mgr, group_id, session, req.max_wait_ms)
    turn_given = mgr.give_turn(mgr.turn_over(woken, member_id)) if req.max_wait_ms > 0 else set()
    woken -= turn_given
    was_woken = False
    while True:
        entries, pending = take.one_pass(session, turn_given, was_woken, woken)
        woken.clear()
        turn_given = set()
        # Acknowledgements alone do not end the wait (Kafka holds their results for the
        # fetch too); a partition's error does.
        if take.acquired_any or req.max_wait_ms <= 0 or any(p.error_code for p in results.values()):
            break
        remaining = deadline - trio.current_time()
        if remaining <= 0 or services.lifecycle.stopping:
            break
        await mgr.wait_for_records(entries, min(remaining, _RETRY_S) if pending else remaining)
        was_woken = True
    if take.acquired_any:
        services.metrics.bytes_out += sum(len(p.records) for p in results.values() if p.records is not None)


@dataclass(slots=True)
class _Take:
    """What one ShareFetch may still acquire, and what it has."""

    mgr: SharePartitionManager
    group_id: str
    member_id: str
    mode: int
    results: dict[tuple[uuid.UUID, int], PartitionData]
    budget: int
    batch_size: int | None
    bytes_left: int
    acquired_any: bool = False

    def one_pass(
        self, session: ShareSession, skip: set[Entry], was_woken: bool, woken: set[Entry]
    ) -> tuple[list[Entry], bool]:
        """Acquire from each share-partition of the session in turn (not from ``skip``,
        where this fetch gave its turn away); then wake the next waiting fetch where
        records are left. The share-partitions in memory, and whether some are loading."""
        mgr, results = self.mgr, self.results
        entries: list[Entry] = []
        pending = False
        progressed: set[Entry] = set()
        for key in session.fetch_order():
            entry, code = mgr.lookup(self.group_id, *key)
            if entry is None and code in _NOT_YET:
                pending = True
                continue
            if entry is None:
                results.setdefault(key, _partition(key[1])).error_code = code
                continue
            entries.append(entry)
            if self.budget <= 0 or self.bytes_left <= 0 or entry in skip:
                continue
            ranges = mgr.acquire(
                entry,
                self.member_id,
                max_records=self.budget,
                batch_size=self.batch_size,
                mode=self.mode,
                max_bytes=self.bytes_left,
                min_one=not self.acquired_any,
            )
            if ranges:
                self.acquired_any = True
                progressed.add(entry)
                self.budget -= sum(r.last_offset - r.first_offset + 1 for r in ranges)
                self.bytes_left -= _answer(results, key, entry, ranges)
            elif was_woken:
                mgr.pass_on(entry)
        mgr.give_turn(progressed | woken)
        return entries, pending


def _merge_topics(
    req: ShareFetchRequest,
) -> tuple[dict[tuple[uuid.UUID, int], None], dict[tuple[uuid.UUID, int], list[tuple[int, int, list[int]]]]]:
    """The request's partitions to fetch, in order, and their acknowledgements: the topics
    merged (librdkafka may list a TopicId twice)."""
    wanted: dict[tuple[uuid.UUID, int], None] = {}
    acks: dict[tuple[uuid.UUID, int], list[tuple[int, int, list[int]]]] = {}
    for topic in req.topics:
        for p in topic.partitions:
            key = (topic.topic_id, p.partition_index)
            wanted.setdefault(key, None)
            if p.acknowledgement_batches:
                acks.setdefault(key, []).extend(ack_batches(p.acknowledgement_batches))
    return wanted, acks


def _update_session(
    mgr: SharePartitionManager,
    group_id: str,
    member_id: str,
    session: ShareSession,
    wanted: dict[tuple[uuid.UUID, int], None],
    forgotten_topics: list[ForgottenTopic],
) -> None:
    """The share session gains the partitions asked for and drops those forgotten."""
    session.add(list(wanted))
    for f in forgotten_topics:
        forgotten = [(f.topic_id, p) for p in f.partitions]
        session.forget(forgotten)
        mgr.forget_fetcher(group_id, member_id, forgotten)


async def _load_missing(mgr: SharePartitionManager, group_id: str, session: ShareSession, max_wait_ms: int) -> None:
    """Share-partitions not in memory yet (see the docstring): a request that may wait loads
    the first one (in fetch order) now and the others in the background, and does not
    wait for them; one that may not wait (MaxWaitMs 0) loads them all first."""
    missing = [k for k in session.partitions if mgr.lookup_loaded(group_id, *k) is None]
    if missing and max_wait_ms > 0:
        await mgr.entry(group_id, *missing[0])
        mgr.load_in_background(group_id, missing[1:])
    elif missing:
        await mgr.load_all(group_id, missing)


def _answer(
    results: dict[tuple[uuid.UUID, int], PartitionData],
    key: tuple[uuid.UUID, int],
    entry: Entry,
    ranges: list[AcquiredRange],
) -> int:
    """Put what was acquired of one partition in its answer; the bytes of records it carries."""
    # Exactly the batches holding what was acquired: never cut by bytes here. Whole
    # batches come as file ranges, which the connection sends as Fetch's (the generated
    # field is typed for bytes; the encoder splices any payload with a length).
    records: Any = entry.view.records_for(ranges, as_file=True)
    part = results.setdefault(key, _partition(key[1]))
    part.records = records
    part.acquired_records = [AcquiredRecords(r.first_offset, r.last_offset, r.delivery_count) for r in ranges]
    return len(records)


def _partition(index: int, *, acknowledge_error_code: int = 0) -> PartitionData:
    return PartitionData(
        partition_index=index,
        error_code=ErrorCode.NONE,
        acknowledge_error_code=acknowledge_error_code,
        current_leader=LeaderIdAndEpoch(),  # defaults, as Kafka sends when there is no leader error
        records=b"",
        acquired_records=[],
    )


def _response(results: dict[tuple[uuid.UUID, int], PartitionData], lock_duration_ms: int) -> ShareFetchResponse:
    by_topic: dict[uuid.UUID, list[PartitionData]] = {}
    for (topic_id, _), part in results.items():
        by_topic.setdefault(topic_id, []).append(part)
    return ShareFetchResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        acquisition_lock_timeout_ms=lock_duration_ms,
        responses=[ShareFetchableTopicResponse(topic_id=t, partitions=parts) for t, parts in by_topic.items()],
        node_endpoints=[],
    )
