"""The small helpers the protocol client, the tools, the console and the metrics share."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

from broker.admin.client import coalesce_acks, member_assignment, sessionless_fetch
from broker.protocol.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from broker.security.scram import ScramMechanismType, credential_doc, credential_from_password
from broker.server.metrics import Family, render


def test_member_assignment_sorts_partitions_by_topic() -> None:
    assignment = SimpleNamespace(
        topic_partitions=[
            SimpleNamespace(topic_name="b", partitions=[2, 0]),
            SimpleNamespace(topic_name="a", partitions=[]),
        ]
    )
    assert member_assignment(assignment) == {"b": [0, 2], "a": []}


def test_coalesce_acks_runs_of_one_type_over_consecutive_offsets() -> None:
    assert coalesce_acks({}) == []
    assert coalesce_acks({5: 1, 3: 1, 4: 1, 7: 2, 8: 2, 9: 1}) == [(3, 5, 1), (7, 8, 2), (9, 9, 1)]


def test_sessionless_fetch_asks_for_no_session_and_no_wait() -> None:
    topic_id = uuid.uuid4()
    req = sessionless_fetch("t", topic_id, [(0, 5), (2, 7)], max_bytes=100, partition_max_bytes=10, min_bytes=0)
    assert req == FetchRequest(
        replica_id=-1,
        max_wait_ms=0,
        min_bytes=0,
        max_bytes=100,
        isolation_level=0,
        session_id=0,
        session_epoch=-1,
        topics=[
            FetchTopic(
                topic="t",
                topic_id=topic_id,
                partitions=[
                    FetchPartition(partition=0, fetch_offset=5, partition_max_bytes=10),
                    FetchPartition(partition=2, fetch_offset=7, partition_max_bytes=10),
                ],
            )
        ],
    )
    assert sessionless_fetch("t", topic_id, [], max_bytes=1, partition_max_bytes=1).min_bytes == 1


def test_family_add_each_labels_samples_in_key_order() -> None:
    f = Family("x_total", "counter", "Things.").add_each({"b": 2, "a": 1}, "kind")
    assert render([f]) == '# HELP x_total Things.\n# TYPE x_total counter\nx_total{kind="a"} 1\nx_total{kind="b"} 2\n'


def test_credential_doc_is_base64_and_iterations() -> None:
    c = credential_from_password(ScramMechanismType.SCRAM_SHA_256, "pw", 4096, salt=b"\x00" * 4)
    doc = credential_doc(c)
    assert list(doc) == ["salt", "stored_key", "server_key", "iterations"]
    assert doc["salt"] == "AAAAAA==" and doc["iterations"] == 4096
