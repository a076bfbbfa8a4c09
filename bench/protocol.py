"""Decode/encode rates of the protocol layer (``make bench-protocol``).

Three workloads named by the protocol-layer issue:
- a Produce request (v10) carrying 1 MiB of records in one partition,
  and the same shape with 16 KiB, to show decode cost does not grow with the
  payload (records are a zero-copy view);
- a ShareFetch response (v1) with 20 partitions, each with acquired ranges;
- a Metadata response (v13) with 100 topics of 8 partitions.

Prints a table and, with ``--json PATH``, writes the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
import uuid

from broker.protocol.messages.metadata_response import (
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
)
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.messages.share_fetch_response import (
    AcquiredRecords,
    LeaderIdAndEpoch,
    PartitionData,
    ShareFetchableTopicResponse,
    ShareFetchResponse,
)


def produce_request(payload: int) -> ProduceRequest:
    return ProduceRequest(
        transactional_id=None,
        acks=-1,
        timeout_ms=30000,
        topic_data=[
            TopicProduceData(
                name="bench",
                partition_data=[PartitionProduceData(index=0, records=bytes(payload))],
            )
        ],
    )


def share_fetch_response() -> ShareFetchResponse:
    topic = uuid.uuid4()
    return ShareFetchResponse(
        throttle_time_ms=0,
        error_code=0,
        acquisition_lock_timeout_ms=30000,
        responses=[
            ShareFetchableTopicResponse(
                topic_id=topic,
                partitions=[
                    PartitionData(
                        partition_index=p,
                        records=bytes(4096),
                        acquired_records=[
                            AcquiredRecords(first_offset=o * 100, last_offset=o * 100 + 99, delivery_count=1)
                            for o in range(5)
                        ],
                        current_leader=LeaderIdAndEpoch(leader_id=1, leader_epoch=0),
                    )
                    for p in range(20)
                ],
            )
        ],
        node_endpoints=[],
    )


def metadata_response() -> MetadataResponse:
    return MetadataResponse(
        brokers=[MetadataResponseBroker(node_id=1, host="127.0.0.1", port=9092, rack=None)],
        cluster_id="bench-cluster",
        controller_id=1,
        topics=[
            MetadataResponseTopic(
                error_code=0,
                name=f"topic-{t}",
                topic_id=uuid.uuid4(),
                partitions=[
                    MetadataResponsePartition(
                        partition_index=p, leader_id=1, leader_epoch=0, replica_nodes=[1], isr_nodes=[1]
                    )
                    for p in range(8)
                ],
            )
            for t in range(100)
        ],
    )


def rate(fn, seconds: float = 1.0) -> float:
    """Calls per second, measured over about ``seconds`` after a warm-up."""
    for _ in range(3):
        fn()
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    batch = 1
    while True:
        for _ in range(batch):
            fn()
        n += batch
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)
        batch = min(batch * 2, 1024)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()

    cases = [
        ("Produce v10, 1 MiB records", produce_request(1 << 20), 10),
        ("Produce v10, 16 KiB records", produce_request(16 << 10), 10),
        ("ShareFetch response v1, 20 partitions", share_fetch_response(), 1),
        ("Metadata response v13, 100 topics", metadata_response(), 13),
    ]
    results = []
    print(f"{'message':42} {'bytes':>9} {'decode/s':>10} {'encode/s':>10}")
    for name, msg, version in cases:
        wire = msg.encode(version)
        cls = type(msg)
        view = memoryview(wire)
        decoded = cls.decode(view, version)
        assert decoded.encode(version) == wire
        d = rate(lambda cls=cls, view=view, version=version: cls.decode(view, version), args.seconds)
        e = rate(lambda msg=msg, version=version: msg.encode(version), args.seconds)
        results.append({"message": name, "bytes": len(wire), "decode_per_s": round(d), "encode_per_s": round(e)})
        print(f"{name:42} {len(wire):9d} {d:10.0f} {e:10.0f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {"machine": platform.platform(), "python": platform.python_version(), "results": results}, f, indent=2
            )


if __name__ == "__main__":
    main()
