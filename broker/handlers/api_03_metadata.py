"""Metadata (key 3), v0-13.

Lists the live brokers (with their endpoints on the listener the client came
in on), a controller (this broker: it passes controller requests on), and every topic asked for (or all, when the topic list
is null, or empty before v1) with its partitions' leaders, epochs, replicas and
in-sync replicas, all from the metadata image. v10+ carries topic ids and
v12+ lets clients ask by id alone (the share consumer does: KIP-516); an
unknown id gets UNKNOWN_TOPIC_ID. Topics are auto-created with
``num.partitions`` when the client allows it (always before v4) and
``auto.create.topics.enable`` is on; internal topics are never auto-created.

Topics are encoded once per topic image and version (:class:`EncodedTopics`): a
topic's image is the same object until the topic changes, so a full Metadata of
100,000 partitions is the concatenation of cached bytes, not 100,000 objects
built and encoded again. The response is the generated message with its topics
spliced in (:class:`SplicedMetadataResponse`, checked byte for byte against the
generated encoder for every version); topic authorized operations (v8+) are
filled per client, so such requests take the plain path.
"""

from __future__ import annotations

import uuid
import weakref
from typing import Any

from broker.handlers import handler
from broker.handlers._endpoints import client_endpoint
from broker.handlers._operations import CLUSTER_OPERATIONS, OPERATIONS_OMITTED, TOPIC_OPERATIONS
from broker.handlers._topics import auto_create
from broker.handlers.context import RequestContext
from broker.metadata.image import BrokerInfo, MetadataImage, TopicImage
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.metadata_request import MetadataRequest
from broker.protocol.messages.metadata_response import (
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
)
from broker.protocol.primitives import UUID_ZERO


def topic_entry(topic: TopicImage, include_ops: bool) -> MetadataResponseTopic:
    return MetadataResponseTopic(
        error_code=ErrorCode.NONE,
        name=topic.name,
        topic_id=topic.topic_id,
        is_internal=topic.internal,
        partitions=[
            MetadataResponsePartition(
                error_code=ErrorCode.NONE,
                partition_index=index,
                leader_id=state.leader,
                leader_epoch=state.leader_epoch,
                replica_nodes=list(state.replicas),
                isr_nodes=list(state.isr),
                offline_replicas=list(state.offline_replicas),
            )
            for index, state in enumerate(topic.partitions)
        ],
        topic_authorized_operations=TOPIC_OPERATIONS if include_ops else OPERATIONS_OMITTED,
    )


def _topic_error(code: int, name: str | None, topic_id: uuid.UUID) -> MetadataResponseTopic:
    """A topic asked for that has no image: its error code and no partitions."""
    return MetadataResponseTopic(
        error_code=code, name=name, topic_id=topic_id, topic_authorized_operations=OPERATIONS_OMITTED
    )


class EncodedTopics:
    """Encoded topic entries (without authorized operations) by topic image and version.
    Entries go with their topic image (a weak reference drops them), so the cache holds
    what the current metadata image holds, once per version asked for."""

    def __init__(self) -> None:
        self._entries: dict[tuple[int, int], bytes] = {}
        self._refs: dict[int, weakref.ref[TopicImage]] = {}

    def get(self, topic: TopicImage, version: int) -> bytes:
        ident = id(topic)
        key = (ident, version)
        data = self._entries.get(key)
        if data is None:
            data = self._entries[key] = _encode_topic(topic_entry(topic, False), version)
            if ident not in self._refs:
                self._refs[ident] = weakref.ref(topic, self._dropper(ident))
        return data

    def _dropper(self, ident: int) -> Any:
        def drop(_: object) -> None:
            self._forget(ident)

        return drop

    def _forget(self, topic_id: int) -> None:
        self._refs.pop(topic_id, None)
        for key in [k for k in self._entries if k[0] == topic_id]:
            del self._entries[key]

    def __len__(self) -> int:
        return len(self._entries)


ENCODED = EncodedTopics()


class CachedTopic:
    """A topic entry of a response that is encoded from :data:`ENCODED` (what the
    authorizer's filter reads of an entry: its name)."""

    __slots__ = ("image", "name")

    def __init__(self, image: TopicImage) -> None:
        self.image = image
        self.name = image.name


def _after_topics(version: int) -> int:
    """Bytes after the topics array of an encoded response without tagged fields:
    ClusterAuthorizedOperations (v8-10), ErrorCode (v13+), the tagged-field count (v9+)."""
    return (4 if 8 <= version <= 10 else 0) + (2 if version >= 13 else 0) + (1 if version >= 9 else 0)


def _empty_array(version: int) -> int:
    return 1 if version >= 9 else 4  # a compact (varint) or int32 length of 0


def _encode_topic(entry: MetadataResponseTopic, version: int) -> bytes:
    """One topic entry's bytes at ``version`` (cut out of a one-topic response)."""
    one = MetadataResponse(topics=[entry]).encode(version)
    none = MetadataResponse().encode(version)
    start = len(none) - _after_topics(version)  # the array length is where the entry starts
    tail = _after_topics(version)
    return one[start : len(one) - tail]


def _array_length(n: int, version: int) -> bytes:
    if version >= 9:
        out = bytearray()
        value = n + 1
        while value >= 0x80:
            out.append((value & 0x7F) | 0x80)
            value >>= 7
        out.append(value)
        return bytes(out)
    return n.to_bytes(4, "big", signed=True)


class SplicedMetadataResponse(MetadataResponse):
    """A MetadataResponse whose topics may be :class:`CachedTopic` entries: encoded as
    the generated encoder would, with their cached bytes spliced in."""

    __slots__ = ()

    def encode_into(self, out: bytearray, version: int) -> None:
        topics: list[Any] = self.topics
        if not any(isinstance(t, CachedTopic) for t in topics) or self._unknown_tagged_fields:
            super().encode_into(out, version)
            return
        self.topics = []
        head = bytearray()
        try:
            super().encode_into(head, version)
        finally:
            self.topics = topics
        tail = _after_topics(version)
        out += head[: len(head) - tail - _empty_array(version)]
        out += _array_length(len(topics), version)
        for t in topics:
            if isinstance(t, CachedTopic):
                out += ENCODED.get(t.image, version)
            else:
                out += _encode_topic(t, version)
        out += head[len(head) - tail :]


def brokers_for(image: MetadataImage, listener: str | None, local: BrokerInfo) -> list[MetadataResponseBroker]:
    """Every live broker with its endpoint on the client's listener, and always the
    answering broker itself. Between a lapsed registration and the next (a broker cut off
    from etcd past its session timeout) the image may list none: a client drops every
    broker a Metadata answer leaves out, and librdkafka, left with none, waits 5 minutes
    (metadata.recovery.rebootstrap.trigger.ms) before it goes back to its bootstrap list."""
    out = []
    listed = False
    for b in image.live_brokers():
        endpoint = client_endpoint(b, listener)
        if endpoint is not None:
            out.append(MetadataResponseBroker(node_id=b.node_id, host=endpoint.host, port=endpoint.port, rack=b.rack))
            listed = listed or b.node_id == local.node_id
    endpoint = client_endpoint(local, listener)
    if not listed and endpoint is not None:
        out.append(
            MetadataResponseBroker(node_id=local.node_id, host=endpoint.host, port=endpoint.port, rack=local.rack)
        )
        out.sort(key=lambda b: b.node_id)
    return out


@handler(3, min_version=0, max_version=13)
async def handle(ctx: RequestContext, req: MetadataRequest) -> MetadataResponse:
    services = ctx.services
    image = services.metadata.image
    v = ctx.api_version
    include_ops = req.include_topic_authorized_operations
    topics: list[Any] = []  # MetadataResponseTopic or CachedTopic entries
    requested = req.topics
    if requested is None or (v == 0 and not requested):  # every topic
        if include_ops:
            topics.extend(topic_entry(t, include_ops) for t in image.topics.values())
        else:  # the topics as the image has them: cached encodings
            topics.extend(CachedTopic(t) for t in image.topics.values())
    else:
        allow_create = req.allow_auto_topic_creation if v >= 4 else True
        for t in requested:
            if t.name is None:
                info = image.topic_by_id(t.topic_id)
                if info is None:
                    topics.append(_topic_error(ErrorCode.UNKNOWN_TOPIC_ID, None, t.topic_id))
                    continue
            else:
                info = image.topic(t.name)
                if info is None:
                    error: int = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                    if allow_create and not t.name.startswith("__"):
                        error, info = await auto_create(services, t.name)
                    if info is None:
                        topics.append(_topic_error(error, t.name, UUID_ZERO))
                        continue
            topics.append(topic_entry(info, include_ops) if include_ops else CachedTopic(info))
        image = services.metadata.image
    return SplicedMetadataResponse(
        throttle_time_ms=0,
        brokers=brokers_for(image, ctx.connection.listener, services.metadata.local_broker()),
        cluster_id=image.cluster_id,
        # Every broker takes CreateTopics, DeleteTopics and the other "controller" requests
        # and passes them on to the controller (as KRaft brokers forward them, KIP-590), so
        # the answering broker names itself: a client never waits on a controller that just
        # died. DescribeCluster names the elected controller.
        controller_id=services.node_id,
        topics=topics,
        cluster_authorized_operations=(
            CLUSTER_OPERATIONS if req.include_cluster_authorized_operations else OPERATIONS_OMITTED
        ),
        error_code=ErrorCode.NONE,
    )
