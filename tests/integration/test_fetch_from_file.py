"""Fetch answers sent from the log files (os.sendfile on a plaintext listener), with the
real broker process and librdkafka: large answers, several segments, a read_committed
reader, and the same batches over and over, all byte for byte as produced."""

from __future__ import annotations

from tests.integration.clients import consume, create_topic, produce

RECORDS = 600
SIZE = 10_000  # about 6 MB in all: answers far above the 64 KiB read in memory instead


def _values() -> list[bytes]:
    return [bytes([i % 251]) * SIZE + b"%06d" % i for i in range(RECORDS)]


def test_large_fetches_arrive_whole_across_segments(sharebroker_bootstrap, topic_name):
    bs = sharebroker_bootstrap
    create_topic(bs, topic_name, config={"segment.bytes": str(1 << 20)})  # six segments
    values = _values()
    produce(bs, topic_name, values, **{"linger.ms": 50, "batch.size": 1 << 20})
    for conf in ({}, {"isolation.level": "read_committed"}, {"max.partition.fetch.bytes": 200_000}):
        got = consume(bs, topic_name, RECORDS, **conf)
        assert [m.value() for m in got] == values, conf
        assert [m.offset() for m in got] == list(range(RECORDS))
    # From the middle of a batch and of a segment: the first batch holding the offset.
    assert [m.value() for m in consume(bs, topic_name, 10, offset=333)] == values[333:343]
