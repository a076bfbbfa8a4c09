"""Records a user function marked as failed: executors report them, the driver acknowledges.

Only the member that holds a record's lock may acknowledge it, and that member
lives in the Spark driver, while the function runs on executors. The executors
therefore report failed offsets through a Kafka topic (the "failures topic", one
partition): one record per task with failures, produced with ``acks=all`` before
the task ends, so before Spark can commit the micro-batch. When the driver
acknowledges a committed micro-batch it first reads the failures topic up to its
end and sends RELEASE or REJECT for the marked offsets instead of ACCEPT.

A mark names the reader run and micro-batch it belongs to, so marks left by an
earlier run (a crashed driver) or by a retried task of another batch never touch
records acquired later. Plain Produce, ListOffsets and Fetch: any Kafka broker.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterable
from typing import Any

from broker.admin.client import LATEST_TIMESTAMP, AdminClient, KafkaApiError, check_error, sessionless_fetch
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.records import build_batch, iter_batches, iter_records

log = logging.getLogger("broker.spark")

TOPIC_ALREADY_EXISTS = 36
# (run, seq, topic, partition) -> {offset: acknowledge type}
Marks = dict[tuple[str, int, str, int], dict[int, int]]


def ensure_topic(admin: AdminClient, topic: str) -> None:
    """Create the one-partition failures topic unless it exists."""
    try:
        admin.create_topics({topic: 1})
    except KafkaApiError as exc:
        if exc.error_code != TOPIC_ALREADY_EXISTS:
            raise


def _leader(admin: AdminClient, topic: str) -> tuple[Any, uuid.UUID]:
    meta = admin.metadata([topic])
    brokers = {b.node_id: b for b in meta.brokers}
    t = meta.topics[0]
    check_error(t.error_code, None, f"topic {topic!r}")
    p = next(p for p in t.partitions if p.partition_index == 0)
    b = brokers[p.leader_id]
    return admin.connect((b.host, b.port)), t.topic_id


def produce_marks(
    bootstrap_servers: str,
    failures_topic: str,
    marks: Iterable[dict[str, Any]],
    *,
    client_id: str = "sharebroker-spark",
) -> None:
    """Append marks (dicts: run, seq, topic, partition, offsets, type) with acks=all."""
    records = [(None, json.dumps(m, separators=(",", ":")).encode()) for m in marks]
    if not records:
        return
    with AdminClient(bootstrap_servers, timeout=30, client_id=client_id) as admin:
        conn, topic_id = _leader(admin, failures_topic)
        req = ProduceRequest(
            transactional_id=None,
            acks=-1,
            timeout_ms=30000,
            topic_data=[
                TopicProduceData(
                    name=failures_topic,
                    topic_id=topic_id,
                    partition_data=[PartitionProduceData(index=0, records=build_batch(records))],
                )
            ],
        )
        resp = conn.call(req)
        for t in resp.responses:
            for p in t.partition_responses:
                check_error(p.error_code, p.error_message, f"Produce to {failures_topic}")


class MarkReader:
    """Driver side: reads the failures topic from where this run started."""

    def __init__(self, admin: AdminClient, topic: str) -> None:
        self.admin = admin
        self.topic = topic
        self.position = admin.list_offsets({(topic, 0): LATEST_TIMESTAMP})[(topic, 0)]

    def read(self) -> Marks:
        """Every mark appended since the last call."""
        out: Marks = {}
        end = self.admin.list_offsets({(self.topic, 0): LATEST_TIMESTAMP})[(self.topic, 0)]
        conn, topic_id = _leader(self.admin, self.topic)
        while self.position < end:
            req = sessionless_fetch(
                self.topic, topic_id, [(0, self.position)], max_bytes=8 << 20, partition_max_bytes=8 << 20
            )
            resp = conn.call(req)
            pd = resp.responses[0].partitions[0]
            check_error(pd.error_code, None, f"Fetch {self.topic}-0")
            advanced = False
            for bv in iter_batches(pd.records or b"", allow_partial=True):
                h = bv.header
                if h.base_offset + h.last_offset_delta < self.position:
                    continue
                advanced = True
                if not h.is_control:
                    for rec in iter_records(bv.view):
                        if rec.offset >= self.position and rec.value:
                            self._add(out, rec.value)
                self.position = h.base_offset + h.last_offset_delta + 1
            if not advanced:
                break
        return out

    @staticmethod
    def _add(out: Marks, value: bytes) -> None:
        try:
            m = json.loads(value)
            key = (str(m["run"]), int(m["seq"]), str(m["topic"]), int(m["partition"]))
            kind = int(m["type"])
            offsets = [int(o) for o in m["offsets"]]
        except (ValueError, KeyError, TypeError):
            log.warning("ignoring a malformed record in the failures topic")
            return
        slot = out.setdefault(key, {})
        for o in offsets:
            slot[o] = kind
