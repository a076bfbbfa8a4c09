"""Committed offsets in the group shell (:class:`OffsetShell`), for every group type.

OffsetCommit, OffsetDelete and DeleteGroups answer once an fsync covers them;
OffsetFetch reads only what is durable. TxnOffsetCommit writes the offsets in the
producer's transaction, pending until its marker (WriteTxnMarkers) applies or drops
them. Offsets past retention, and empty groups left without offsets, are removed every
``offsets.retention.check.interval.ms``.
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from broker.coordinator.runtime import Record
from broker.group.offsets import (
    CommittedOffset,
    offset_commit_record,
)
from broker.group.shard import CommitValidation, GroupShard
from broker.group.shell.base import ShellBase, append_error
from broker.log.producer_state import VerificationGuard
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["CommitEntry", "OffsetShell"]

log = structlog.get_logger("sharebroker.groups")

# A transactional offset commit refused by the partition's producer state answers as it is.
_TXN_APPEND_PASSTHROUGH = (
    ErrorCode.INVALID_PRODUCER_EPOCH,
    ErrorCode.INVALID_TXN_STATE,
    ErrorCode.TRANSACTION_COORDINATOR_FENCED,
    ErrorCode.INVALID_PRODUCER_ID_MAPPING,
)


@dataclass(frozen=True, slots=True)
class CommitEntry:
    topic: str
    partition: int
    offset: int
    leader_epoch: int = -1
    metadata: str | None = ""


class OffsetShell(ShellBase):
    """Committed offsets of every group type: OffsetCommit, OffsetFetch, TxnOffsetCommit
    and its markers, OffsetDelete, and their expiry. The group's type decides what may be
    committed (:meth:`~broker.group.shard.GroupShard.validate_offset_commit`); a commit is
    answered once it is durable."""

    async def commit_offsets(
        self,
        group_id: str,
        *,
        member_id: str,
        group_instance_id: str | None,
        generation: int,
        api_version: int,
        entries: list[CommitEntry],
        retention_ms: int = -1,
    ) -> list[ErrorCode]:
        """OffsetCommit: one error per entry, answered once the commit is durable."""
        try:
            pid, shard = await self.shard_for(group_id)
        except KafkaError as exc:
            return [exc.code] * len(entries)
        check = shard.validate_offset_commit(
            group_id, member_id, group_instance_id, generation, api_version, now_ms=self.clock()
        )
        if check.error:
            await self._flush(pid, shard, check.records)
            return [check.error] * len(entries)
        now = self.clock()
        expire = now + retention_ms if retention_ms >= 0 else -1
        results, records, accepted = _accept(group_id, check, entries, shard, now, expire)

        def apply() -> None:
            for _, entry, value in accepted:
                shard.offsets.put(group_id, entry.topic, entry.partition, value)

        error = await self._flush(pid, shard, [*records, *check.records], apply)
        if error:
            for index, *_ in accepted:
                results[index] = error
        return results

    async def fetch_offsets(
        self,
        group_id: str,
        topics: list[tuple[str, list[int]]] | None,
        *,
        member_id: str | None = None,
        member_epoch: int = -1,
        require_stable: bool = False,
    ) -> list[tuple[str, list[tuple[int, CommittedOffset | ErrorCode | None]]]]:
        """OffsetFetch: the committed offset (or None) of each asked partition; every
        committed offset of the group when ``topics`` is None. A consumer-group member
        (v9+) must send its current epoch (raises KafkaError STALE_MEMBER_EPOCH,
        UNKNOWN_MEMBER_ID). With ``require_stable`` a partition an open transaction
        holds an offset for is UNSTABLE_OFFSET_COMMIT; so is every asked partition while
        a write of the group's coordinator partition is not durable within the write
        timeout (the answer must not show a commit that write may take back)."""
        pid, shard = await self.shard_for(group_id)
        error = shard.validate_offset_fetch(group_id, member_id, member_epoch)
        if error:
            raise KafkaError(error)
        try:
            await self._settled(pid)
        except KafkaError as exc:
            if topics is None or exc.code != ErrorCode.COORDINATOR_NOT_AVAILABLE:
                raise
            # Still the coordinator, but a write of the partition is not durable in time:
            # each asked partition answers UNSTABLE_OFFSET_COMMIT, which clients retry. A
            # group-level error here would not be retried by librdkafka (its OffsetFetch
            # only refreshes the coordinator on one), and the partitions it was fetching
            # positions for would never start.
            return [
                (topic, [(p, ErrorCode.UNSTABLE_OFFSET_COMMIT) for p in partitions]) for topic, partitions in topics
            ]
        shard = self.runtime.shard(pid)  # a failed write meanwhile reloads it
        visible = shard.offsets_visible(group_id)
        offsets = shard.offsets

        def entry(topic: str, p: int, value: CommittedOffset | None) -> CommittedOffset | ErrorCode | None:
            if require_stable and offsets.has_pending(group_id, topic, p):
                return ErrorCode.UNSTABLE_OFFSET_COMMIT
            return value

        if topics is None:
            if not visible:
                return []
            return [
                (topic, [(p, entry(topic, p, c)) for p, c in sorted(partitions.items())])
                for topic, partitions in offsets.topics(group_id).items()
            ]
        return [
            (topic, [(p, entry(topic, p, offsets.get(group_id, topic, p) if visible else None)) for p in partitions])
            for topic, partitions in topics
        ]

    async def commit_transactional_offsets(
        self,
        group_id: str,
        *,
        producer_id: int,
        producer_epoch: int,
        member_id: str,
        group_instance_id: str | None,
        generation: int,
        entries: list[CommitEntry],
        verification_guard: VerificationGuard | None = None,
    ) -> list[ErrorCode]:
        """TxnOffsetCommit: the offsets are written in the producer's transaction (a
        transactional batch on the group's partition) and wait there until its marker.
        One error per entry, answered once the batch is durable."""
        try:
            pid, shard = await self.shard_for(group_id)
        except KafkaError as exc:
            return [exc.code] * len(entries)
        # Classic, consumer (KIP-848) and streams (KIP-1071) groups each by their rules.
        check = shard.validate_offset_commit(
            group_id, member_id, group_instance_id, generation, 0, transactional=True, now_ms=self.clock()
        )
        await self._flush(pid, shard, check.records)
        if check.error:
            return [check.error] * len(entries)
        results, records, accepted = _accept(group_id, check, entries, shard, self.clock(), -1)
        if not records:
            return results
        try:
            partition, _ = self.runtime.append(
                pid,
                records,
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                verification_guard=verification_guard,
            )
        except KafkaError as exc:
            log.warning("txn_offset_commit_append_failed", group=group_id, error=str(exc))
            code = exc.code if exc.code in _TXN_APPEND_PASSTHROUGH else append_error(exc)
            for index, *_ in accepted:
                results[index] = code
            return results
        for _, entry, value in accepted:
            shard.offsets.put_pending(producer_id, group_id, entry.topic, entry.partition, value)
        try:
            await self.runtime.wait_durable([partition])
        except KafkaError as exc:
            for index, *_ in accepted:
                results[index] = append_error(exc)
        return results

    async def complete_transaction(
        self,
        partition: int,
        producer_id: int,
        producer_epoch: int,
        coordinator_epoch: int,
        committed: bool,
        transaction_version: int,
    ) -> ErrorCode:
        """A transaction marker for ``__consumer_offsets``-``partition`` (WriteTxnMarkers):
        appended, then the producer's pending offsets there apply or go; NONE once durable."""
        try:
            shard = await self.runtime.get_shard(partition)
            part, _ = self.runtime.append_marker(
                partition,
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                coordinator_epoch=coordinator_epoch,
                committed=committed,
                transaction_version=transaction_version,
            )
        except KafkaError as exc:
            log.warning("txn_marker_append_failed", partition=partition, error=str(exc))
            return exc.code
        shard.end_transaction(producer_id, committed, self.clock())
        try:
            await self.runtime.wait_durable([part])
        except KafkaError as exc:
            return exc.code
        return ErrorCode.NONE

    async def delete_offsets(
        self, group_id: str, topics: list[tuple[str, list[int]]]
    ) -> tuple[ErrorCode, list[tuple[str, list[tuple[int, ErrorCode]]]]]:
        """OffsetDelete: a group-level error, else per partition NONE or
        GROUP_SUBSCRIBED_TO_TOPIC; answered once the tombstones are durable."""
        pid, shard = await self.shard_for(group_id)
        error = shard.validate_offset_delete(group_id)
        if error:
            return error, []
        out: list[tuple[str, list[tuple[int, ErrorCode]]]] = []
        records: list[Record] = []
        removals: list[tuple[str, int]] = []
        for topic, partitions in topics:
            if shard.is_subscribed_to_topic(group_id, topic):
                out.append((topic, [(p, ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC) for p in partitions]))
                continue
            for p in partitions:
                if shard.offsets.get(group_id, topic, p) is not None:
                    records.append(offset_commit_record(group_id, topic, p, None))
                    removals.append((topic, p))
            out.append((topic, [(p, ErrorCode.NONE) for p in partitions]))

        def apply() -> None:
            for topic, p in removals:
                shard.offsets.remove(group_id, topic, p)

        error = await self._flush(pid, shard, records, apply)
        return error, out

    async def expire_offsets(self) -> int:
        """Expire offsets in every hosted shard now; returns how many went."""
        total = 0
        for pid, shard in list(self.runtime.loaded()):
            total += await self.expire_offsets_of(pid, shard)
        return total

    async def expire_offsets_of(self, pid: int, shard: GroupShard) -> int:
        """Remove offsets past retention, and Empty groups left without offsets
        (Kafka's cleanupGroupMetadata); returns how many offsets went."""
        now = self.clock()
        classic = shard.classic
        retention = classic.config.offsets_retention_ms
        records: list[Record] = []
        removals: list[tuple[str, str, int]] = []
        orphans = [g for g in shard.offsets.groups() if g not in classic.groups]
        for group_id in list(classic.groups) + orphans:
            base = shard.offset_expiry_base(group_id)
            if base is None:
                continue

            def subscribed(topic: str, group_id: str = group_id) -> bool:
                return shard.is_subscribed_to_topic(group_id, topic)

            expired, everything = shard.offsets.expired(group_id, now, retention, base, subscribed)
            for topic, partition in expired:
                records.append(offset_commit_record(group_id, topic, partition, None))
                removals.append((group_id, topic, partition))
            if everything:
                records += shard.maybe_remove_empty_group(group_id, now)

        def apply() -> None:
            for group_id, topic, partition in removals:
                shard.offsets.remove(group_id, topic, partition)

        if records or classic.groups:
            await self._flush(pid, shard, records, apply)
        if removals:
            log.info("offsets_expired", count=len(removals))
        return len(removals)


def _accept(
    group_id: str, check: CommitValidation, entries: list[CommitEntry], shard: GroupShard, now: int, expire: int
) -> tuple[list[ErrorCode], list[Record], list[tuple[int, CommitEntry, CommittedOffset]]]:
    """An offset commit's entries, each refused (its partition's error from ``check``, or
    metadata over offset.metadata.max.bytes) or accepted as committed at ``now``: the
    error of each (NONE when accepted), the records to write, and (index, entry, value)
    of each accepted one."""
    limit = shard.classic.config.offset_metadata_max_bytes
    results: list[ErrorCode] = []
    records: list[Record] = []
    accepted: list[tuple[int, CommitEntry, CommittedOffset]] = []
    for entry in entries:
        refused = check.partition_error(entry.topic, entry.partition)
        if refused:
            results.append(refused)
            continue
        if entry.metadata is not None and len(entry.metadata) > limit:
            results.append(ErrorCode.OFFSET_METADATA_TOO_LARGE)
            continue
        value = CommittedOffset(entry.offset, entry.leader_epoch, entry.metadata or "", now, expire)
        records.append(offset_commit_record(group_id, entry.topic, entry.partition, value))
        accepted.append((len(results), entry, value))
        results.append(ErrorCode.NONE)
    return results, records, accepted
