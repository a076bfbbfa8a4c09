"""The coordinator runtime with transactional records: markers, rewrites and reloads."""

from __future__ import annotations

import trio
import trio.lowlevel

from broker.coordinator.runtime import CoordinatorRuntime, CoordinatorSpec
from tests.services import running


class DictShard:
    """Keyed state; transactional records wait for their marker (as the group shard's offsets)."""

    def __init__(self) -> None:
        self.state: dict[bytes, bytes] = {}
        self.pending: dict[int, dict[bytes, bytes]] = {}

    def load_record(self, offset, key, value):
        if value is None:
            self.state.pop(key, None)
        else:
            self.state[key] = value

    def load_transactional_record(self, offset, producer_id, key, value):
        self.pending.setdefault(producer_id, {})[key] = value

    def load_end_txn_marker(self, producer_id, committed):
        records = self.pending.pop(producer_id, {})
        if committed:
            self.state.update(records)

    def on_loaded(self, now_ms):
        pass

    def next_deadline_ms(self):
        return None


async def test_no_rewrite_while_a_transaction_is_open_and_commits_survive_it(tmp_path):
    async with running(tmp_path) as services:
        spec = CoordinatorSpec("test", "__test_coordinator", 1, {"cleanup.policy": "compact"}, snapshot_min_records=5)
        runtime: CoordinatorRuntime[DictShard] = CoordinatorRuntime(
            spec,
            new_shard=lambda pid, timer: DictShard(),
            metadata=services.metadata,
            replicas=services.replicas,
            clock=services.clock,
        )
        await runtime.get_shard(0)
        part = runtime.partition(0)
        for i in range(6):
            await runtime.write(0, [(b"k%d" % (i % 2), b"v%d" % i)])
        start = part.log_start_offset
        assert start > 0  # rewritten: the live records again, the older ones gone
        guard = part.maybe_start_verification(7, -1, 0, False, services.now_ms())
        runtime.append(0, [(b"t", b"txn")], producer_id=7, producer_epoch=0, verification_guard=guard)
        for i in range(12):
            await runtime.write(0, [(b"k0", b"w%d" % i)])
        assert part.log_start_offset == start  # the open transaction holds the log
        marker_part, _ = runtime.append_marker(
            0, producer_id=7, producer_epoch=0, coordinator_epoch=0, committed=True, transaction_version=0
        )
        await runtime.wait_durable([marker_part])
        for i in range(12):
            await runtime.write(0, [(b"k1", b"x%d" % i)])
        assert part.log_start_offset > start  # rewritten once the transaction ended
        await runtime.reload(0)
        shard = runtime.shard(0)
        assert shard.state == {b"k0": b"w11", b"k1": b"x11", b"t": b"txn"}
        assert shard.pending == {}
        await trio.lowlevel.checkpoint()
