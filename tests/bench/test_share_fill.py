"""bench.share's pre-fill against a real broker: with a fixed batch, every broker's log
holds the same batches, so the share drain compares the share path and not how the
fill's batching reacted to each broker's produce latency."""

from __future__ import annotations

import uuid

from bench import share
from broker.protocol.records import iter_batches


def _batch_sizes(data_dir, topic: str, partition: int) -> list[int]:
    segment = data_dir / f"{topic}-{partition}" / f"{0:020d}.log"
    return [b.header.last_offset_delta + 1 for b in iter_batches(segment.read_bytes())]


def test_fixed_fill_batch_writes_batches_of_that_many_records(sharebroker):
    topic = f"fill-{uuid.uuid4().hex[:8]}"
    share._admin_setup(sharebroker.bootstrap, topic, 2, f"g-{topic}", "earliest")
    share._fill(sharebroker.bootstrap, topic, 2, 2_500, 100, batch=500)
    # Round-robin: 1,250 records a partition, in batches of 500 and the rest at flush.
    assert _batch_sizes(sharebroker.data_dir, topic, 0) == [500, 500, 250]
    assert _batch_sizes(sharebroker.data_dir, topic, 1) == [500, 500, 250]
