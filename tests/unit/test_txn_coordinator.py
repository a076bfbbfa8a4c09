"""The transaction coordinator and the transaction APIs, on the broker's real services.

Every request goes through its handler and through the generated encoder and
decoder of the version under test. Data is produced with the Produce handler,
read back with the Fetch handler, and filtered as a read_committed client does
(aborted transactions dropped, control batches skipped), so these tests check
what a client would see. Time moves with a skewed wall clock.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
import types
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from broker.handlers import (
    api_00_produce,
    api_01_fetch,
    api_09_offset_fetch,
    api_10_find_coordinator,
    api_18_api_versions,
    api_22_init_producer_id,
    api_24_add_partitions_to_txn,
    api_25_add_offsets_to_txn,
    api_26_end_txn,
    api_27_write_txn_markers,
    api_28_txn_offset_commit,
    api_61_describe_producers,
    api_65_describe_transactions,
    api_66_list_transactions,
    api_68_consumer_group_heartbeat,
)
from broker.handlers.context import AnswerLater
from broker.metadata.image import PartitionState
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages import RequestHeader
from broker.protocol.messages.add_offsets_to_txn_request import AddOffsetsToTxnRequest
from broker.protocol.messages.add_partitions_to_txn_request import (
    AddPartitionsToTxnRequest,
    AddPartitionsToTxnTopic,
    AddPartitionsToTxnTransaction,
)
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from broker.protocol.messages.describe_producers_request import DescribeProducersRequest, TopicRequest
from broker.protocol.messages.describe_transactions_request import DescribeTransactionsRequest
from broker.protocol.messages.end_txn_request import EndTxnRequest
from broker.protocol.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from broker.protocol.messages.find_coordinator_request import FindCoordinatorRequest
from broker.protocol.messages.init_producer_id_request import InitProducerIdRequest
from broker.protocol.messages.list_transactions_request import ListTransactionsRequest
from broker.protocol.messages.offset_fetch_request import (
    OffsetFetchRequest,
    OffsetFetchRequestGroup,
    OffsetFetchRequestTopic,
    OffsetFetchRequestTopics,
)
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.messages.txn_offset_commit_request import (
    TxnOffsetCommitRequest,
    TxnOffsetCommitRequestPartition,
    TxnOffsetCommitRequestTopic,
)
from broker.protocol.messages.write_txn_markers_request import (
    WritableTxnMarker,
    WritableTxnMarkerTopic,
    WriteTxnMarkersRequest,
)
from broker.protocol.records import iter_batches, iter_records
from broker.server.app import bind
from broker.txn.records import TopicPartition
from broker.txn.shard import TxnConfig
from broker.txn.states import TxnState
from tests.services import context, running

E = ErrorCode
MINUTE = 60_000
SETTINGS = {
    "transaction.state.log.num.partitions": 3,
    "offsets.topic.num.partitions": 3,
    "listeners": "PLAINTEXT://127.0.0.1:0",
}


class Clock:
    """Wall-clock milliseconds that a test moves forward with ``skew_ms``."""

    def __init__(self) -> None:
        self.skew_ms = 0

    def __call__(self) -> int:
        return time.time_ns() // 1_000_000 + self.skew_ms


class Broker:
    """The services plus helpers that speak the transaction APIs through the handlers."""

    def __init__(self, services: Any, clock: Clock) -> None:
        self.services = services
        self.clock = clock

    async def call(self, module: Any, req: Any, version: int) -> Any:
        req = type(req).decode(req.encode(version), version)
        header = RequestHeader(request_api_key=type(req).API_KEY, request_api_version=version, client_id="test")
        resp = await module.handle(context(self.services, version, header), req)
        if isinstance(resp, AnswerLater):  # Produce with acks=all: the answer once durable
            resp = await resp.wait()
        return type(resp).decode(resp.encode(version), version)

    async def topic(self, name: str, partitions: int = 1, **configs: str) -> None:
        await self.services.metadata.create_topic(name, partitions, -1, configs)

    async def init(self, txn: str, timeout_ms: int = MINUTE, version: int = 4, pid: int = -1, epoch: int = -1) -> Any:
        req = InitProducerIdRequest(
            transactional_id=txn, transaction_timeout_ms=timeout_ms, producer_id=pid, producer_epoch=epoch
        )
        return await self.call(api_22_init_producer_id, req, version)

    async def add(self, txn: str, pid: int, epoch: int, parts: dict[str, list[int]], version: int = 3) -> dict:
        req = AddPartitionsToTxnRequest(
            v3_and_below_transactional_id=txn,
            v3_and_below_producer_id=pid,
            v3_and_below_producer_epoch=epoch,
            v3_and_below_topics=[AddPartitionsToTxnTopic(t, ps) for t, ps in parts.items()],
        )
        resp = await self.call(api_24_add_partitions_to_txn, req, version)
        return {
            (t.name, p.partition_index): p.partition_error_code
            for t in resp.results_by_topic_v3_and_below
            for p in t.results_by_partition
        }

    async def produce(
        self,
        txn: str | None,
        topic: str,
        partition: int,
        pid: int,
        epoch: int,
        seq: int,
        values: list[bytes],
        version: int = 10,
        transactional: bool = True,
    ) -> Any:
        from broker.protocol.records import build_batch

        batch = build_batch(
            [(None, v) for v in values],
            producer_id=pid,
            producer_epoch=epoch,
            base_sequence=seq,
            transactional=transactional,
            base_timestamp=self.clock(),
        )
        req = ProduceRequest(
            transactional_id=txn,
            acks=-1,
            timeout_ms=5000,
            topic_data=[TopicProduceData(name=topic, partition_data=[PartitionProduceData(partition, batch)])],
        )
        resp = await self.call(api_00_produce, req, version)
        return resp.responses[0].partition_responses[0]

    async def end(self, txn: str, pid: int, epoch: int, commit: bool, version: int = 3) -> Any:
        req = EndTxnRequest(transactional_id=txn, producer_id=pid, producer_epoch=epoch, committed=commit)
        return await self.call(api_26_end_txn, req, version)

    async def fetch(self, topic: str, partition: int = 0, *, committed: bool = True) -> Any:
        req = FetchRequest(
            replica_id=-1,
            max_wait_ms=0,
            min_bytes=0,
            max_bytes=1 << 20,
            isolation_level=1 if committed else 0,
            topics=[
                FetchTopic(
                    topic=topic,
                    partitions=[FetchPartition(partition=partition, fetch_offset=0, partition_max_bytes=1 << 20)],
                )
            ],
        )
        resp = await self.call(api_01_fetch, req, 11)
        return resp.responses[0].partitions[0]

    async def visible(self, topic: str, partition: int = 0) -> list[bytes]:
        """What a read_committed consumer gets: records up to the LSO, aborted ones dropped."""
        pd = await self.fetch(topic, partition)
        aborted = sorted((a.first_offset, a.producer_id) for a in pd.aborted_transactions or [])
        open_aborts: set[int] = set()
        out: list[bytes] = []
        for header, view in iter_batches(pd.records):
            while aborted and aborted[0][0] <= header.base_offset:
                open_aborts.add(aborted.pop(0)[1])
            if header.is_control:
                open_aborts.discard(header.producer_id)
                continue
            if header.is_transactional and header.producer_id in open_aborts:
                continue
            out += [r.value for r in iter_records(view) if r.value is not None]
        return out

    def state(self, txn: str) -> TxnState | None:
        meta = self.services.transactions.metadata(txn)
        return None if meta is None else meta.state

    async def wait_state(self, txn: str, state: TxnState | None) -> None:
        with trio.fail_after(10):
            while self.state(txn) is not state:
                await trio.sleep(0.01)

    async def advance(self, ms: int) -> None:
        """Move the clock and let the coordinators' timers see it."""
        self.clock.skew_ms += ms
        self.services.transactions.runtime.timers_changed()
        await trio.sleep(0.05)


@contextlib.asynccontextmanager
async def broker(tmp_path: Any, **settings: Any) -> AsyncIterator[Broker]:
    clock = Clock()
    async with running(tmp_path, {**SETTINGS, **settings}, clock=clock) as services:
        bind(services, 19092)  # what FindCoordinator tells clients (nothing listens)
        yield Broker(services, clock)


async def begun(b: Broker, txn: str, *parts: tuple[str, int], timeout_ms: int = MINUTE) -> tuple[int, int]:
    """An initialized producer with ``parts`` added to its open transaction."""
    init = await b.init(txn, timeout_ms)
    assert init.error_code == E.NONE
    by_topic: dict[str, list[int]] = {}
    for topic, p in parts:
        by_topic.setdefault(topic, []).append(p)
    assert set((await b.add(txn, init.producer_id, init.producer_epoch, by_topic)).values()) == {E.NONE}
    return init.producer_id, init.producer_epoch


# ====================================================================== coordinator location


async def test_find_coordinator_locates_transactional_ids(tmp_path):
    async with broker(tmp_path) as b:
        for version in (1, 3):
            resp = await b.call(api_10_find_coordinator, FindCoordinatorRequest(key="t1", key_type=1), version)
            assert (resp.error_code, resp.node_id) == (E.NONE, b.services.node_id)
        resp = await b.call(api_10_find_coordinator, FindCoordinatorRequest(coordinator_keys=["a", "b"], key_type=1), 4)
        assert [(c.key, c.error_code, c.node_id) for c in resp.coordinators] == [
            ("a", E.NONE, b.services.node_id),
            ("b", E.NONE, b.services.node_id),
        ]
        info = b.services.metadata.image.topic("__transaction_state")
        assert info is not None and info.internal and len(info.partitions) == 3


async def test_api_versions_finalizes_transaction_version(tmp_path):
    async with broker(tmp_path) as b:
        resp = await b.call(api_18_api_versions, ApiVersionsRequest("t", "1"), 3)
        assert ("transaction.version", 2, 2) in [
            (f.name, f.min_version_level, f.max_version_level) for f in resp.finalized_features
        ]
        assert ("transaction.version", 0, 2) in [
            (f.name, f.min_version, f.max_version) for f in resp.supported_features
        ]
    async with broker(tmp_path / "tv0", **{"transaction.version": 0}) as b:
        resp = await b.call(api_18_api_versions, ApiVersionsRequest("t", "1"), 3)
        assert "transaction.version" not in [f.name for f in resp.finalized_features]


# ====================================================================== commit and abort


async def test_commit_and_abort_visibility_lso_and_aborted_index(tmp_path):
    async with broker(tmp_path) as b:
        await b.topic("a", 2)
        pid, epoch = await begun(b, "t", ("a", 0), ("a", 1))
        assert (await b.produce("t", "a", 0, pid, epoch, 0, [b"c0", b"c1"])).error_code == E.NONE
        assert (await b.produce("t", "a", 1, pid, epoch, 0, [b"c2"])).error_code == E.NONE
        pd = await b.fetch("a", 0)
        assert (pd.high_watermark, pd.last_stable_offset) == (2, 0)
        assert await b.visible("a", 0) == []
        assert (await b.end("t", pid, epoch, True)).error_code == E.NONE
        assert b.state("t") is TxnState.COMPLETE_COMMIT
        pd = await b.fetch("a", 0)
        assert (pd.high_watermark, pd.last_stable_offset) == (3, 3)  # two records and the marker
        assert await b.visible("a", 0) == [b"c0", b"c1"] and await b.visible("a", 1) == [b"c2"]

        assert set((await b.add("t", pid, epoch, {"a": [0]})).values()) == {E.NONE}
        assert (await b.produce("t", "a", 0, pid, epoch, 2, [b"x0"])).error_code == E.NONE
        assert (await b.end("t", pid, epoch, False)).error_code == E.NONE
        assert b.state("t") is TxnState.COMPLETE_ABORT
        pd = await b.fetch("a", 0)
        assert (pd.high_watermark, pd.last_stable_offset) == (5, 5)
        assert [(a.producer_id, a.first_offset) for a in pd.aborted_transactions] == [(pid, 3)]
        assert await b.visible("a", 0) == [b"c0", b"c1"]
        # read_uncommitted sees everything; the next transaction starts cleanly.
        assert (await b.fetch("a", 0, committed=False)).last_stable_offset == 5
        assert set((await b.add("t", pid, epoch, {"a": [0]})).values()) == {E.NONE}
        assert (await b.produce("t", "a", 0, pid, epoch, 3, [b"y0"])).error_code == E.NONE
        assert (await b.end("t", pid, epoch, True)).error_code == E.NONE
        assert await b.visible("a", 0) == [b"c0", b"c1", b"y0"]


async def test_transaction_version_2_bumps_the_epoch_at_every_end(tmp_path):
    async with broker(tmp_path) as b:
        await b.topic("a")
        init = await b.init("t", version=5)
        pid, epoch = init.producer_id, init.producer_epoch
        # Produce v12 adds the partition itself (KIP-890 part 2).
        assert (await b.produce("t", "a", 0, pid, epoch, 0, [b"v0"], version=12)).error_code == E.NONE
        end = await b.end("t", pid, epoch, True, version=5)
        assert (end.error_code, end.producer_id, end.producer_epoch) == (E.NONE, pid, epoch + 1)
        # A retry of that end with the old epoch succeeds; a stale epoch in a new transaction is fenced.
        retry = await b.end("t", pid, epoch, True, version=5)
        assert (retry.error_code, retry.producer_epoch) == (E.NONE, epoch + 1)
        assert (await b.produce("t", "a", 0, pid, epoch + 1, 0, [b"v1"], version=12)).error_code == E.NONE
        end = await b.end("t", pid, epoch + 1, False, version=5)
        assert (end.error_code, end.producer_epoch) == (E.NONE, epoch + 2)
        assert await b.visible("a") == [b"v0"]
        # An abort with no transaction open is allowed at version 2 (and bumps again).
        end = await b.end("t", pid, epoch + 2, False, version=5)
        assert (end.error_code, end.producer_epoch) == (E.NONE, epoch + 3)


# ====================================================================== fencing


async def test_a_new_producer_fences_the_old_one_and_aborts_its_transaction(tmp_path):
    async with broker(tmp_path) as b:
        await b.topic("a")
        pid, epoch = await begun(b, "t", ("a", 0))
        assert (await b.produce("t", "a", 0, pid, epoch, 0, [b"zombie"])).error_code == E.NONE
        # The new instance's InitProducerId aborts the open transaction first (the client retries).
        assert (await b.init("t")).error_code == E.CONCURRENT_TRANSACTIONS
        await b.wait_state("t", TxnState.COMPLETE_ABORT)
        second = await b.init("t")
        assert second.error_code == E.NONE and second.producer_id == pid and second.producer_epoch > epoch
        # The zombie: coordinator APIs say PRODUCER_FENCED (INVALID_PRODUCER_EPOCH below v2),
        # the partition INVALID_PRODUCER_EPOCH.
        assert (await b.add("t", pid, epoch, {"a": [0]}, version=2)) == {("a", 0): E.PRODUCER_FENCED}
        assert (await b.add("t", pid, epoch, {"a": [0]}, version=1)) == {("a", 0): E.INVALID_PRODUCER_EPOCH}
        assert (await b.end("t", pid, epoch, True, version=3)).error_code == E.PRODUCER_FENCED
        assert (await b.end("t", pid, epoch, True, version=1)).error_code == E.INVALID_PRODUCER_EPOCH
        assert (await b.produce("t", "a", 0, pid, epoch, 1, [b"late"])).error_code == E.INVALID_PRODUCER_EPOCH
        assert await b.visible("a") == []
        # The new producer carries on.
        assert set((await b.add("t", pid, second.producer_epoch, {"a": [0]})).values()) == {E.NONE}
        assert (await b.produce("t", "a", 0, pid, second.producer_epoch, 0, [b"new"])).error_code == E.NONE
        assert (await b.end("t", pid, second.producer_epoch, True)).error_code == E.NONE
        assert await b.visible("a") == [b"new"]


async def test_init_producer_id_checks(tmp_path):
    async with broker(tmp_path, **{"transaction.max.timeout.ms": 30_000}) as b:
        assert (await b.init("t", timeout_ms=30_001)).error_code == E.INVALID_TRANSACTION_TIMEOUT
        assert (await b.init("t", timeout_ms=0)).error_code == E.INVALID_TRANSACTION_TIMEOUT
        assert (await b.init("t", pid=5)).error_code == E.INVALID_REQUEST
        first = await b.init("t", timeout_ms=30_000)
        assert (first.error_code, first.producer_epoch) == (E.NONE, 0)
        # KIP-360: the holder of the current epoch bumps it; a stale one is fenced.
        bumped = await b.init("t", 30_000, pid=first.producer_id, epoch=0, version=3)
        assert (bumped.error_code, bumped.producer_epoch) == (E.NONE, 1)
        # A retry of that call (the epoch it bumped from) gets the same answer.
        retry = await b.init("t", 30_000, pid=first.producer_id, epoch=0, version=3)
        assert (retry.error_code, retry.producer_epoch) == (E.NONE, 1)
        bumped = await b.init("t", 30_000, pid=first.producer_id, epoch=1, version=3)
        assert (bumped.error_code, bumped.producer_epoch) == (E.NONE, 2)
        stale = await b.init("t", 30_000, pid=first.producer_id, epoch=0, version=4)
        assert stale.error_code == E.PRODUCER_FENCED
        stale = await b.init("t", 30_000, pid=first.producer_id, epoch=0, version=3)
        assert stale.error_code == E.INVALID_PRODUCER_EPOCH


# ====================================================================== verification (KIP-890)


async def test_produce_verifies_transactional_batches(tmp_path):
    async with broker(tmp_path) as b:
        await b.topic("a", 2)
        pid, epoch = await begun(b, "t", ("a", 0))
        # a-1 was never added: old clients get INVALID_TXN_STATE, v11 TRANSACTION_ABORTABLE.
        assert (await b.produce("t", "a", 1, pid, epoch, 0, [b"x"], version=10)).error_code == E.INVALID_TXN_STATE
        assert (await b.produce("t", "a", 1, pid, epoch, 0, [b"x"], version=11)).error_code == (E.TRANSACTION_ABORTABLE)
        # Without the request's transactional id: the whole request is refused (the
        # dispatcher turns the error into the error response).
        with pytest.raises(KafkaError) as err:
            await b.produce(None, "a", 0, pid, epoch, 0, [b"x"])
        assert err.value.code == E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
        assert (await b.produce("t", "a", 0, pid, epoch, 0, [b"ok"])).error_code == E.NONE
        assert (await b.end("t", pid, epoch, True)).error_code == E.NONE
        # The transaction ended: a late batch verified before is refused, not slipped into the next.
        assert (await b.produce("t", "a", 0, pid, epoch, 1, [b"late"])).error_code == E.INVALID_TXN_STATE
        assert await b.visible("a", 0) == [b"ok"] and await b.visible("a", 1) == []


async def test_verify_only_and_add_from_partition_leaders(tmp_path):
    async with broker(tmp_path) as b:
        await b.topic("a", 2)
        pid, epoch = await begun(b, "t", ("a", 0))
        req = AddPartitionsToTxnRequest(
            transactions=[
                AddPartitionsToTxnTransaction("t", pid, epoch, True, [AddPartitionsToTxnTopic("a", [0, 1])]),
                AddPartitionsToTxnTransaction("unknown", 7, 0, True, [AddPartitionsToTxnTopic("a", [0])]),
            ]
        )
        resp = await b.call(api_24_add_partitions_to_txn, req, 4)
        got = {
            (r.transactional_id, t.name, p.partition_index): p.partition_error_code
            for r in resp.results_by_transaction
            for t in r.topic_results
            for p in t.results_by_partition
        }
        assert got == {
            ("t", "a", 0): E.NONE,
            ("t", "a", 1): E.TRANSACTION_ABORTABLE,
            ("unknown", "a", 0): E.INVALID_PRODUCER_ID_MAPPING,
        }
        req = AddPartitionsToTxnRequest(
            transactions=[AddPartitionsToTxnTransaction("t", pid, epoch, False, [AddPartitionsToTxnTopic("a", [1])])]
        )
        resp = await b.call(api_24_add_partitions_to_txn, req, 5)
        assert resp.results_by_transaction[0].topic_results[0].results_by_partition[0].partition_error_code == 0
        assert b.services.transactions.metadata("t").partitions == {TopicPartition("a", 0), TopicPartition("a", 1)}


async def test_add_partitions_checks_every_partition_first(tmp_path):
    async with broker(tmp_path) as b:
        await b.topic("a")
        init = await b.init("t")
        got = await b.add("t", init.producer_id, 0, {"a": [0, 5], "__consumer_offsets": [0]})
        assert got == {
            ("a", 0): E.OPERATION_NOT_ATTEMPTED,
            ("a", 5): E.UNKNOWN_TOPIC_OR_PARTITION,
            ("__consumer_offsets", 0): E.TOPIC_AUTHORIZATION_FAILED,
        }
        assert b.state("t") is TxnState.EMPTY


# ====================================================================== timers


async def test_timed_out_transactions_are_aborted(tmp_path):
    async with broker(tmp_path) as b:
        await b.topic("a")
        pid, epoch = await begun(b, "t", ("a", 0), timeout_ms=10_000)
        assert (await b.produce("t", "a", 0, pid, epoch, 0, [b"slow"])).error_code == E.NONE
        assert (await b.fetch("a")).last_stable_offset == 0
        await b.advance(5_000)
        assert b.state("t") is TxnState.ONGOING
        await b.advance(6_000)
        await b.wait_state("t", TxnState.COMPLETE_ABORT)
        pd = await b.fetch("a")
        assert (pd.last_stable_offset, pd.high_watermark) == (2, 2)
        assert await b.visible("a") == []
        # The producer was fenced: its commit fails, its next InitProducerId recovers.
        assert (await b.end("t", pid, epoch, True)).error_code == E.PRODUCER_FENCED
        assert (await b.init("t")).error_code == E.NONE


async def test_idle_transactional_ids_expire(tmp_path):
    async with broker(tmp_path, **{"transactional.id.expiration.ms": 60_000}) as b:
        assert (await b.init("t")).error_code == E.NONE
        await b.advance(30_000)
        assert b.state("t") is TxnState.EMPTY
        await b.advance(31_000)
        await b.wait_state("t", None)
        resp = await b.call(api_65_describe_transactions, DescribeTransactionsRequest(transactional_ids=["t"]), 0)
        assert resp.transaction_states[0].error_code == E.TRANSACTIONAL_ID_NOT_FOUND
        # A new InitProducerId starts over with a new producer id.
        assert (await b.init("t")).error_code == E.NONE


# ====================================================================== offsets in transactions


async def offsets(b: Broker, group: str, topic: str, version: int = 7, stable: bool = True) -> tuple[int, int]:
    req = OffsetFetchRequest(
        group_id=group, topics=[OffsetFetchRequestTopic(name=topic, partition_indexes=[0])], require_stable=stable
    )
    resp = await b.call(api_09_offset_fetch, req, version)
    p = resp.topics[0].partitions[0]
    return p.error_code, p.committed_offset


async def txn_commit(b: Broker, txn: str, pid: int, epoch: int, group: str, offset: int, version: int = 3) -> int:
    req = TxnOffsetCommitRequest(
        transactional_id=txn,
        group_id=group,
        producer_id=pid,
        producer_epoch=epoch,
        topics=[TxnOffsetCommitRequestTopic(name="in", partitions=[TxnOffsetCommitRequestPartition(0, offset)])],
    )
    resp = await b.call(api_28_txn_offset_commit, req, version)
    return resp.topics[0].partitions[0].error_code


async def test_transactional_offsets_apply_at_commit(tmp_path):
    async with broker(tmp_path) as b:
        await b.topic("in")
        init = await b.init("t")
        pid, epoch = init.producer_id, init.producer_epoch
        add = AddOffsetsToTxnRequest(transactional_id="t", producer_id=pid, producer_epoch=epoch, group_id="g")
        assert (await b.call(api_25_add_offsets_to_txn, add, 3)).error_code == E.NONE
        assert await txn_commit(b, "t", pid, epoch, "g", 10) == E.NONE
        assert await offsets(b, "g", "in") == (E.UNSTABLE_OFFSET_COMMIT, -1)
        assert await offsets(b, "g", "in", stable=False) == (E.NONE, -1)
        assert (await b.end("t", pid, epoch, True)).error_code == E.NONE
        assert await offsets(b, "g", "in") == (E.NONE, 10)
        # An aborted transaction's offsets never apply.
        assert (await b.call(api_25_add_offsets_to_txn, add, 3)).error_code == E.NONE
        assert await txn_commit(b, "t", pid, epoch, "g", 20) == E.NONE
        assert (await b.end("t", pid, epoch, False)).error_code == E.NONE
        assert await offsets(b, "g", "in") == (E.NONE, 10)
        # An open transaction's offsets survive a restart as pending.
        assert (await b.call(api_25_add_offsets_to_txn, add, 3)).error_code == E.NONE
        assert await txn_commit(b, "t", pid, epoch, "g", 30) == E.NONE
    async with broker(tmp_path) as b:
        assert await offsets(b, "g", "in") == (E.UNSTABLE_OFFSET_COMMIT, -1)
        assert (await b.end("t", pid, epoch, True)).error_code == E.NONE
        assert await offsets(b, "g", "in") == (E.NONE, 30)
    async with broker(tmp_path) as b:
        assert await offsets(b, "g", "in") == (E.NONE, 30)


async def test_txn_offset_commit_verifies_or_adds_the_offsets_partition(tmp_path):
    async with broker(tmp_path) as b:
        await b.topic("in")
        init = await b.init("t")
        pid, epoch = init.producer_id, init.producer_epoch
        assert (await b.add("t", pid, epoch, {"in": [0]})) == {("in", 0): E.NONE}
        # Not added with AddOffsetsToTxn: v3 INVALID_TXN_STATE, v4 TRANSACTION_ABORTABLE.
        assert await txn_commit(b, "t", pid, epoch, "g", 5, version=3) == E.INVALID_TXN_STATE
        assert await txn_commit(b, "t", pid, epoch, "g", 5, version=4) == E.TRANSACTION_ABORTABLE
        # v5 adds the partition itself (transaction version 2).
        assert await txn_commit(b, "t", pid, epoch, "g", 5, version=5) == E.NONE
        assert await txn_commit(b, "t", pid, epoch + 1, "g", 5, version=5) == E.INVALID_PRODUCER_EPOCH
        assert (await b.end("t", pid, epoch, True)).error_code == E.NONE
        assert await offsets(b, "g", "in") == (E.NONE, 5)


async def test_txn_offset_commit_by_a_consumer_group_member(tmp_path):
    """A KIP-848 member commits in a transaction with its member id and epoch, which
    are checked as the consumer group checks them (franz-go's TestTxnEtl/848)."""
    async with broker(tmp_path) as b:
        await b.topic("in")
        joined = await b.call(
            api_68_consumer_group_heartbeat,
            ConsumerGroupHeartbeatRequest(
                group_id="g848",
                member_id="m1",
                member_epoch=0,
                rebalance_timeout_ms=MINUTE,
                subscribed_topic_names=["in"],
                topic_partitions=[],
            ),
            1,
        )
        assert joined.error_code == E.NONE and joined.member_epoch > 0
        member, member_epoch = joined.member_id, joined.member_epoch
        init = await b.init("t")
        pid, epoch = init.producer_id, init.producer_epoch

        async def commit(member_id: str, at_epoch: int, offset: int) -> int:
            req = TxnOffsetCommitRequest(
                transactional_id="t",
                group_id="g848",
                producer_id=pid,
                producer_epoch=epoch,
                generation_id_or_member_epoch=at_epoch,
                member_id=member_id,
                topics=[
                    TxnOffsetCommitRequestTopic(name="in", partitions=[TxnOffsetCommitRequestPartition(0, offset)])
                ],
            )
            resp = await b.call(api_28_txn_offset_commit, req, 5)
            return resp.topics[0].partitions[0].error_code

        assert await commit("nobody", member_epoch, 7) == E.UNKNOWN_MEMBER_ID
        assert await commit(member, member_epoch + 1, 7) == E.STALE_MEMBER_EPOCH
        assert await commit(member, member_epoch, 7) == E.NONE
        assert (await b.end("t", pid, epoch, True, version=5)).error_code == E.NONE
        fetch = OffsetFetchRequest(
            groups=[
                OffsetFetchRequestGroup(
                    group_id="g848",
                    member_id=member,
                    member_epoch=member_epoch,
                    topics=[OffsetFetchRequestTopics(name="in", partition_indexes=[0])],
                )
            ],
            require_stable=True,
        )
        got = (await b.call(api_09_offset_fetch, fetch, 9)).groups[0]
        assert got.error_code == E.NONE and got.topics[0].partitions[0].committed_offset == 7
        # The marker left the group a consumer group only (no classic group of that id
        # beside it, which a streams group's members would be refused for): another
        # member joins it.
        _, shard = await b.services.groups.shard_for("g848")
        assert shard.classic.group_type("g848") is None
        other = ConsumerGroupHeartbeatRequest(
            group_id="g848",
            member_id="m2",
            member_epoch=0,
            rebalance_timeout_ms=MINUTE,
            subscribed_topic_names=["in"],
            topic_partitions=[],
        )
        assert (await b.call(api_68_consumer_group_heartbeat, other, 1)).error_code == E.NONE


# ====================================================================== admin


async def test_describe_and_list_transactions_and_producers(tmp_path):
    async with broker(tmp_path) as b:
        await b.topic("a", 2)
        pid, epoch = await begun(b, "t-1", ("a", 0), ("a", 1))
        assert (await b.produce("t-1", "a", 1, pid, epoch, 0, [b"x", b"y"])).error_code == E.NONE
        assert (await b.init("t-2")).error_code == E.NONE
        resp = await b.call(api_65_describe_transactions, DescribeTransactionsRequest(["t-1", "nope", ""]), 0)
        one, nope, empty = resp.transaction_states
        assert (one.error_code, one.transaction_state, one.producer_id, one.producer_epoch) == (
            E.NONE,
            "Ongoing",
            pid,
            epoch,
        )
        assert one.transaction_timeout_ms == MINUTE and one.transaction_start_time_ms > 0
        assert [(t.topic, sorted(t.partitions)) for t in one.topics] == [("a", [0, 1])]
        assert (nope.error_code, empty.error_code) == (E.TRANSACTIONAL_ID_NOT_FOUND, E.INVALID_REQUEST)

        async def listed(version: int = 2, **kw: Any) -> Any:
            return await b.call(api_66_list_transactions, ListTransactionsRequest(**kw), version)

        resp = await listed()
        assert sorted((s.transactional_id, s.transaction_state) for s in resp.transaction_states) == [
            ("t-1", "Ongoing"),
            ("t-2", "Empty"),
        ]
        resp = await listed(state_filters=["Ongoing", "Bogus"])
        assert [s.transactional_id for s in resp.transaction_states] == ["t-1"]
        assert resp.unknown_state_filters == ["Bogus"]
        assert [s.transactional_id for s in (await listed(producer_id_filters=[pid])).transaction_states] == ["t-1"]
        assert [s.transactional_id for s in (await listed(transactional_id_pattern="t-2")).transaction_states] == [
            "t-2"
        ]
        assert (await listed(transactional_id_pattern="(")).error_code == E.INVALID_REGULAR_EXPRESSION
        # Longer than an hour: not the transaction that just started; an Empty id has no
        # start time (-1) and passes, as in Kafka.
        assert [s.transactional_id for s in (await listed(1, duration_filter=3_600_000)).transaction_states] == ["t-2"]

        resp = await b.call(
            api_61_describe_producers,
            DescribeProducersRequest([TopicRequest("a", [1]), TopicRequest("nope", [0])]),
            0,
        )
        part = resp.topics[0].partitions[0]
        assert part.error_code == E.NONE
        assert [
            (p.producer_id, p.producer_epoch, p.last_sequence, p.current_txn_start_offset)
            for p in part.active_producers
        ] == [(pid, epoch, 1, 0)]
        assert resp.topics[1].partitions[0].error_code == E.UNKNOWN_TOPIC_OR_PARTITION


async def test_write_txn_markers_ends_a_hanging_transaction(tmp_path):
    # What `kafka-transactions.sh abort` (and `sharebroker transactions abort`) sends.
    async with broker(tmp_path) as b:
        await b.topic("a")
        pid, epoch = await begun(b, "t", ("a", 0))
        assert (await b.produce("t", "a", 0, pid, epoch, 0, [b"hung"])).error_code == E.NONE
        assert (await b.fetch("a")).last_stable_offset == 0
        marker = WritableTxnMarker(
            producer_id=pid,
            producer_epoch=epoch,
            transaction_result=False,
            topics=[WritableTxnMarkerTopic("a", [0]), WritableTxnMarkerTopic("gone", [0])],
            coordinator_epoch=0,
        )
        resp = await b.call(api_27_write_txn_markers, WriteTxnMarkersRequest([marker]), 1)
        assert [(t.name, [p.error_code for p in t.partitions]) for t in resp.markers[0].topics] == [
            ("a", [E.NONE]),
            ("gone", [E.UNKNOWN_TOPIC_OR_PARTITION]),
        ]
        pd = await b.fetch("a")
        assert pd.last_stable_offset == pd.high_watermark == 2
        assert await b.visible("a") == []
        # A stale marker (older producer epoch) is refused by the partition.
        marker.producer_epoch = epoch - 1
        resp = await b.call(api_27_write_txn_markers, WriteTxnMarkersRequest([marker]), 2)
        assert resp.markers[0].topics[0].partitions[0].error_code == E.INVALID_PRODUCER_EPOCH


# ====================================================================== restarts


async def test_state_survives_restart(tmp_path):
    async with broker(tmp_path) as b:
        await b.topic("a")
        pid, epoch = await begun(b, "t", ("a", 0))
        assert (await b.produce("t", "a", 0, pid, epoch, 0, [b"one"])).error_code == E.NONE
        assert (await b.end("t", pid, epoch, True)).error_code == E.NONE
        pid2, epoch2 = await begun(b, "open", ("a", 0))
        assert (await b.produce("open", "a", 0, pid2, epoch2, 0, [b"two"])).error_code == E.NONE
    async with broker(tmp_path) as b:
        assert b.state("t") is TxnState.COMPLETE_COMMIT and b.state("open") is TxnState.ONGOING
        pd = await b.fetch("a")
        assert pd.last_stable_offset == 2 and await b.visible("a") == [b"one"]
        # The open transaction goes on after the restart.
        assert (await b.produce("open", "a", 0, pid2, epoch2, 1, [b"three"])).error_code == E.NONE
        assert (await b.end("open", pid2, epoch2, True)).error_code == E.NONE
        assert await b.visible("a") == [b"one", b"two", b"three"]
        again = await b.init("t")
        assert (again.producer_id, again.producer_epoch) == (pid, epoch + 1)


class Blocked:
    """A marker writer that writes to ``allowed`` partitions only and holds the others."""

    def __init__(self, inner: Any, allowed: set[TopicPartition]) -> None:
        self.inner = inner
        self.allowed = allowed
        self.held = trio.Event()

    async def write(self, producer_id, producer_epoch, coordinator_epoch, committed, version, partitions):
        partitions = list(partitions)
        results = await self.inner.write(
            producer_id,
            producer_epoch,
            coordinator_epoch,
            committed,
            version,
            [p for p in partitions if p in self.allowed],
        )
        if any(p not in self.allowed for p in partitions):
            self.held.set()
            await trio.sleep_forever()
        return results


@pytest.mark.parametrize("allowed", [set(), {TopicPartition("a", 0)}], ids=["no-marker", "one-marker"])
async def test_a_restart_completes_a_prepared_transaction(tmp_path, allowed):
    """Markers cut short (the coordinator stops after PrepareCommit, or after some
    partitions): the next load of the shard writes the rest and completes."""
    async with broker(tmp_path) as b:
        await b.topic("a", 2)
        pid, epoch = await begun(b, "t", ("a", 0), ("a", 1))
        for p in (0, 1):
            assert (await b.produce("t", "a", p, pid, epoch, 0, [b"v%d" % p])).error_code == E.NONE
        blocked = b.services.transactions.markers = Blocked(b.services.transactions.markers, allowed)
        with trio.move_on_after(0.5):  # EndTxn waits for the markers; they never come
            await b.end("t", pid, epoch, True)
        assert blocked.held.is_set() and b.state("t") is TxnState.PREPARE_COMMIT
        assert await b.visible("a", 0) == ([b"v0"] if allowed else []) and await b.visible("a", 1) == []
    async with broker(tmp_path) as b:
        await b.wait_state("t", TxnState.COMPLETE_COMMIT)
        assert await b.visible("a", 0) == [b"v0"] and await b.visible("a", 1) == [b"v1"]


def stalled_state_partition(b: Broker, txn: str) -> Any:
    """``txn``'s ``__transaction_state`` partition with a 300 ms write timeout and a
    follower (node 2) that fetches nothing: the high watermark stays where it is until
    ``follower_fetched`` says the follower caught up."""
    runtime = b.services.transactions.runtime
    runtime.spec = dataclasses.replace(runtime.spec, write_timeout_ms=300)
    state_log = runtime.partition(runtime.partition_for(txn))
    assert state_log is not None
    state_log.log.track_high_watermark(state_log.log.log_end_offset)
    lead = state_log.state
    state_log.update_state(
        PartitionState(leader=lead.leader, leader_epoch=lead.leader_epoch + 1, replicas=(1, 2), isr=(1, 2)), 0
    )
    return state_log


async def test_a_reloaded_shard_sends_markers_a_task_of_the_shard_before_it_still_holds(tmp_path):
    """A marker task of a shard since reloaded (held on a partition that does not answer)
    stops without finishing, counting on the new load to send the markers; the new load
    must not take that task for its own and send nothing, leaving the transaction
    preparing for good and its records open on every partition."""
    async with broker(tmp_path) as b:
        await b.topic("a", 2)
        pid, epoch = await begun(b, "t", ("a", 0), ("a", 1))
        for p in (0, 1):
            assert (await b.produce("t", "a", p, pid, epoch, 0, [b"v%d" % p])).error_code == E.NONE
        coordinator = b.services.transactions
        blocked = coordinator.markers = Blocked(coordinator.markers, set())
        with trio.move_on_after(0.5):  # EndTxn waits for the markers; they never come
            await b.end("t", pid, epoch, True)
        assert blocked.held.is_set() and b.state("t") is TxnState.PREPARE_COMMIT
        coordinator.markers = blocked.inner  # the partitions answer again, for new writes
        await coordinator.runtime.reload(coordinator.partition_for("t"))
        await b.wait_state("t", TxnState.COMPLETE_COMMIT)
        assert await b.visible("a", 0) == [b"v0"] and await b.visible("a", 1) == [b"v1"]


async def test_markers_wait_until_a_reloaded_prepare_record_is_committed(tmp_path):
    """A Prepare record whose replication timed out stays in the leader's log above the
    high watermark; the shard reloaded from that log finds the transaction preparing.
    Its markers must wait until the record is committed: a new leader of the
    ``__transaction_state`` partition can still truncate it and abort the transaction,
    and a marker sent before would have committed it on some partitions only."""
    async with broker(tmp_path) as b:
        await b.topic("a", 2)
        pid, epoch = await begun(b, "t", ("a", 0), ("a", 1))
        for p in (0, 1):
            assert (await b.produce("t", "a", p, pid, epoch, 0, [b"v%d" % p])).error_code == E.NONE
        state_log = stalled_state_partition(b, "t")
        end = await b.end("t", pid, epoch, True)
        assert end.error_code != E.NONE  # the Prepare record did not replicate in time
        await trio.sleep(1.0)  # reloads find it preparing, again and again
        assert b.state("t") is TxnState.PREPARE_COMMIT
        assert await b.visible("a", 0) == [] and await b.visible("a", 1) == []
        # The follower catches up: the record is committed and the markers go out.
        state_log.follower_fetched(2, state_log.log.log_end_offset, 0, broker_epoch=1, now_ms=1)
        await b.wait_state("t", TxnState.COMPLETE_COMMIT)
        assert await b.visible("a", 0) == [b"v0"] and await b.visible("a", 1) == [b"v1"]


async def test_answers_from_an_uncommitted_record_wait_until_it_is_committed(tmp_path):
    """An AddPartitionsToTxn whose record timed out leaves it in the leader's log above
    the high watermark, and in the reloaded shard. A retry that finds the partitions
    already added, and a partition leader's verification, must not answer from that
    record before it is committed: a new leader of the ``__transaction_state``
    partition can still truncate it, and a batch verified against it would stay open
    with no coordinator knowing it (until a later transaction's marker commits it)."""
    async with broker(tmp_path) as b:
        await b.topic("a", 2)
        init = await b.init("t")
        pid, epoch = init.producer_id, init.producer_epoch
        state_log = stalled_state_partition(b, "t")
        first = await b.add("t", pid, epoch, {"a": [0]})
        assert first[("a", 0)] != E.NONE  # the record did not replicate in time
        retry = await b.add("t", pid, epoch, {"a": [0]})
        assert retry[("a", 0)] != E.NONE  # not answered from the uncommitted record
        produced = await b.produce("t", "a", 0, pid, epoch, 0, [b"v"])
        assert produced.error_code != E.NONE  # the verification waits for it too
        assert await b.visible("a", 0) == []
        # The follower catches up: the record is committed and counts.
        state_log.follower_fetched(2, state_log.log.log_end_offset, 0, broker_epoch=1, now_ms=1)
        assert (await b.add("t", pid, epoch, {"a": [0]}))[("a", 0)] == E.NONE
        assert (await b.produce("t", "a", 0, pid, epoch, 0, [b"v"])).error_code == E.NONE


def test_api_versions_default_transaction_version_is_the_coordinators():
    """ApiVersions answered before the services exist, without settings, names the
    transaction.version the coordinator defaults to."""
    starting = types.SimpleNamespace(services=None, connection=types.SimpleNamespace(setting=None))
    levels, _epoch = api_18_api_versions._finalized(starting)
    assert levels["transaction.version"] == TxnConfig().transaction_version
