"""Metadata responses spliced from cached topic encodings are byte for byte the
generated encoder's, at every version."""

from __future__ import annotations

import gc
import uuid

import pytest

from broker.handlers.api_03_metadata import (
    ENCODED,
    CachedTopic,
    SplicedMetadataResponse,
    topic_entry,
)
from broker.metadata.image import PartitionState, TopicImage
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.metadata_response import (
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponseTopic,
)


def _topic(name: str, partitions: int) -> TopicImage:
    states = tuple(
        PartitionState(1 + i % 3, i, (1, 2, 3), (1, 2), 7, offline_replicas=(3,) if i % 2 else ())
        for i in range(partitions)
    )
    return TopicImage(name, uuid.uuid4(), states, {}, name.startswith("__"))


@pytest.mark.parametrize("version", range(14))
def test_spliced_response_is_the_generated_encoding(version):
    images = [_topic("a", 3), _topic("__internal", 1), _topic("b" * 300, 200), _topic("empty", 0)]
    missing = MetadataResponseTopic(
        error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, name="missing", topic_id=uuid.UUID(int=0)
    )
    common = {
        "throttle_time_ms": 5,
        "brokers": [MetadataResponseBroker(node_id=1, host="127.0.0.1", port=9092, rack="r1")],
        "cluster_id": "cid",
        "controller_id": 1,
    }
    plain = MetadataResponse(**common, topics=[*(topic_entry(t, False) for t in images), missing])
    spliced = SplicedMetadataResponse(**common, topics=[*(CachedTopic(t) for t in images), missing])
    assert spliced.encode(version) == plain.encode(version)
    # and again from the cache
    assert spliced.encode(version) == plain.encode(version)
    assert MetadataResponse.decode(spliced.encode(version), version) == MetadataResponse.decode(
        plain.encode(version), version
    )


def test_cached_encodings_go_with_their_topic_image():
    image = _topic("gone", 5)
    SplicedMetadataResponse(topics=[CachedTopic(image)]).encode(12)
    before = len(ENCODED)
    del image
    gc.collect()
    assert len(ENCODED) == before - 1
