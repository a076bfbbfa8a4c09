"""The etcd layout of the cluster metadata: partitions in keys of 100, the mirror."""

from __future__ import annotations

import json
import uuid

from broker.metadata.controller import ClusterView, new_partition
from broker.metadata.etcd_client import KeyValue, Op, WatchEvent
from broker.metadata.layout import (
    MAX_TXN_BYTES,
    MAX_TXN_OPS,
    PARTITIONS_PER_KEY,
    Keys,
    Mirror,
    TopicRecord,
    txn_batches,
)

KEYS = Keys("/c")
LIVE = {1: 10, 2: 11, 3: 12}


def _record(count: int, name: str = "t") -> TopicRecord:
    return TopicRecord(
        name, uuid.uuid4(), [new_partition([1 + i % 3, 1 + (i + 1) % 3], LIVE) for i in range(count)], {}
    )


def _kvs(ops: list[Op], revision: int = 5) -> list[KeyValue]:
    return [KeyValue(o.key, o.value or b"", revision, revision, 1, 0) for o in ops]


def test_a_topic_of_up_to_100_partitions_is_one_key():
    record = _record(PARTITIONS_PER_KEY)
    ops = record.ops(KEYS)
    assert [o.key for o in ops] == [KEYS.topic("t")]
    assert len(ops[0].value or b"") < 5000  # ~35 bytes a partition


def test_a_big_topic_is_one_key_per_100_partitions_and_decodes_back():
    record = _record(10_000)
    ops = record.ops(KEYS)
    assert len(ops) == 100 and ops[0].key == KEYS.topic("t")
    assert ops[1].key == KEYS.chunk("t", 1) == b"/c/partitions/t/000001"
    assert sum(len(o.value or b"") for o in ops) < 400_000
    mirror = Mirror(KEYS, _kvs(ops))
    assert mirror.record("t") == record
    # only the keys of the partitions changed are written again
    changed = mirror.record("t")
    assert changed is not None
    changed.partitions[250]["isr"] = [1]
    view = ClusterView(KEYS, mirror)
    ops, compares = view.writes(changed, {2})
    assert [o.key for o in ops] == [KEYS.chunk("t", 2)]
    assert [(c.key, c.target, c.value) for c in compares] == [(KEYS.chunk("t", 2), "MOD", 5)]


def test_topics_of_the_earlier_layout_are_read_and_rewritten_whole():
    record = _record(250)
    legacy = {"id": str(record.topic_id), "internal": False, "configs": {}, "partitions": record.partitions}
    mirror = Mirror(KEYS, [KeyValue(KEYS.topic("t"), json.dumps(legacy).encode(), 3, 3, 1, 0)])
    assert mirror.record("t") == record
    changed = mirror.record("t")
    assert changed is not None
    ops, _ = ClusterView(KEYS, mirror).writes(changed, {0})
    assert [o.key for o in ops] == [KEYS.topic("t"), KEYS.chunk("t", 1), KEYS.chunk("t", 2)]


def test_the_mirror_says_which_topics_changed():
    mirror = Mirror(KEYS, _kvs(_record(150, "a").ops(KEYS) + _record(10, "b").ops(KEYS)))
    assert mirror.take_changes().everything
    update = _record(150, "a").ops(KEYS)[1]
    mirror.apply([WatchEvent(False, KeyValue(update.key, update.value or b"", 5, 9, 2, 0))])
    mirror.apply([WatchEvent(False, KeyValue(KEYS.broker(1), b"{}", 9, 9, 1, 7))])
    changes = mirror.take_changes()
    assert changes.topics == {"a"} and changes.brokers and not changes.everything
    mirror.apply([WatchEvent(True, KeyValue(KEYS.topic("b"), b"", 0, 10, 0, 0))])
    assert mirror.take_changes().topics == {"b"} and mirror.record("b") is None
    assert sorted(mirror.topic_names()) == ["a"]


def test_transactions_stay_within_etcds_limits():
    many = [Op(b"k%d" % i, b"v") for i in range(300)]
    assert [len(b) for b in txn_batches(many)] == [MAX_TXN_OPS, MAX_TXN_OPS, 300 - 2 * MAX_TXN_OPS]
    big = [Op(b"k%d" % i, b"x" * 300_000) for i in range(7)]
    batches = list(txn_batches(big))
    assert all(sum(len(o.value or b"") for o in b) <= MAX_TXN_BYTES for b in batches)
    assert sum(len(b) for b in batches) == 7
