"""Error responses built from requests: every served API and version, and the entity mirroring."""

from __future__ import annotations

import uuid

import pytest

from broker.handlers import HANDLERS
from broker.protocol.error_response import error_response
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import REQUESTS, RESPONSES
from broker.protocol.messages.delete_groups_request import DeleteGroupsRequest
from broker.protocol.messages.delete_groups_response import DeleteGroupsResponse
from broker.protocol.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from broker.protocol.messages.fetch_response import FetchResponse
from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from broker.protocol.messages.metadata_response import MetadataResponse
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.messages.produce_response import ProduceResponse

CASES = [(key, v) for key, h in sorted(HANDLERS.items()) for v in range(h.min_version, h.max_version + 1)]


@pytest.mark.parametrize(("api_key", "version"), CASES, ids=[f"{k}v{v}" for k, v in CASES])
def test_every_served_version_has_an_encodable_error_response(api_key, version):
    request = REQUESTS[api_key]()
    response = error_response(request, RESPONSES[api_key], version, ErrorCode.NOT_CONTROLLER, "why")
    wire = response.encode(version)
    assert type(response).decode(wire, version) is not None


def test_produce_mirrors_every_topic_and_partition():
    tid = uuid.uuid4()
    req = ProduceRequest(
        acks=-1,
        timeout_ms=100,
        topic_data=[
            TopicProduceData(
                name="a", topic_id=tid, partition_data=[PartitionProduceData(index=0), PartitionProduceData(index=3)]
            ),
            TopicProduceData(name="b", partition_data=[PartitionProduceData(index=1)]),
        ],
    )
    resp = error_response(req, ProduceResponse, 12, ErrorCode.NOT_LEADER_OR_FOLLOWER)
    got = [(t.name, t.topic_id, [(p.index, p.error_code) for p in t.partition_responses]) for t in resp.responses]
    zero = uuid.UUID(int=0)
    assert got == [("a", zero, [(0, 6), (3, 6)]), ("b", zero, [(1, 6)])]  # v12 names topics, ids are v13+
    resp = error_response(req, ProduceResponse, 13, ErrorCode.NOT_LEADER_OR_FOLLOWER)
    assert [(t.topic_id, len(t.partition_responses)) for t in resp.responses] == [(tid, 2), (zero, 1)]


def test_fetch_sets_the_top_level_code_and_maps_partition_to_partition_index():
    req = FetchRequest(
        topics=[FetchTopic(topic="t", partitions=[FetchPartition(partition=2), FetchPartition(partition=5)])]
    )
    resp = error_response(req, FetchResponse, 12, ErrorCode.UNKNOWN_SERVER_ERROR)
    assert resp.error_code == ErrorCode.UNKNOWN_SERVER_ERROR
    assert [(p.partition_index, p.error_code) for p in resp.responses[0].partitions] == [(2, -1), (5, -1)]
    assert resp.responses[0].topic == "t"


def test_a_list_of_names_fills_one_entry_per_name():
    resp = error_response(
        DeleteGroupsRequest(groups_names=["g1", "g2"]), DeleteGroupsResponse, 2, ErrorCode.NOT_COORDINATOR
    )
    assert [(r.group_id, r.error_code) for r in resp.results] == [("g1", 16), ("g2", 16)]


def test_metadata_topics_get_the_code_and_message():
    req = MetadataRequest(topics=[MetadataRequestTopic(name="x")])
    resp = error_response(req, MetadataResponse, 12, ErrorCode.TOPIC_AUTHORIZATION_FAILED, "no")
    assert [(t.name, t.error_code) for t in resp.topics] == [("x", 29)]
    assert resp.brokers == []
