# Generated from protocol/schemas/StreamsGroupTopologyDescriptionUpdateRequest.json by codegen; do not edit.
"""StreamsGroupTopologyDescriptionUpdateRequest: request, api key 93, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "TopologyDescriptionNode",
    "TopologyDescriptionSubtopology",
    "TopologyDescriptionGlobalStore",
    "TopologyDescription",
    "StreamsGroupTopologyDescriptionUpdateRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>b')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class TopologyDescriptionNode:
    """Common structure TopologyDescriptionNode."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0), 'node_type': (0, 0), 'source_topics': (0, 0), 'sink_topic': (0, 0), 'stores': (0, 0), 'successors': (0, 0)}

    name: str = ''
    """Name of the node, unique within the topology (KSTREAM-SOURCE-0000000000, ...)."""

    node_type: int = 0
    """Kind of node: 1 source, 2 processor, 3 sink."""

    source_topics: list[str] = field(default_factory=list)
    """Topics a source node reads; empty for other nodes, or when the topics are resolved at run time."""

    sink_topic: str | None = None
    """Topic a sink node writes; null for other nodes, or when the topic is chosen at run time."""

    stores: list[str] = field(default_factory=list)
    """State stores a processor node uses; empty for other nodes."""

    successors: list[str] = field(default_factory=list)
    """Names of the nodes this one feeds; predecessors follow from these."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopologyDescriptionSubtopology:
    """Common structure TopologyDescriptionSubtopology."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'subtopology_id': (0, 0), 'nodes': (0, 0)}

    subtopology_id: str = ''
    """ID of the subtopology, unique within the topology."""

    nodes: list[TopologyDescriptionNode] = field(default_factory=list)
    """Nodes of the subtopology."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopologyDescriptionGlobalStore:
    """Common structure TopologyDescriptionGlobalStore."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'source': (0, 0), 'processor': (0, 0)}

    source: TopologyDescriptionNode = field(default_factory=TopologyDescriptionNode)
    """Source node that feeds the global store."""

    processor: TopologyDescriptionNode = field(default_factory=TopologyDescriptionNode)
    """Processor node that writes into the global store."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopologyDescription:
    """Common structure TopologyDescription."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'subtopologies': (0, 0), 'global_stores': (0, 0)}

    subtopologies: list[TopologyDescriptionSubtopology] = field(default_factory=list)
    """Subtopologies of the topology."""

    global_stores: list[TopologyDescriptionGlobalStore] = field(default_factory=list)
    """Global state stores of the topology."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class StreamsGroupTopologyDescriptionUpdateRequest(Message):
    """StreamsGroupTopologyDescriptionUpdateRequest, api key 93."""

    API_KEY: ClassVar[int] = 93
    NAME: ClassVar[str] = 'StreamsGroupTopologyDescriptionUpdateRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 0), 'member_id': (0, 0), 'topology_epoch': (0, 0), 'topology_description': (0, 0)}

    group_id: str = ''
    """ID of the streams group."""

    member_id: str = ''
    """ID of the member sending the description; a member (or group) the coordinator does not know gets UNKNOWN_MEMBER_ID and rejoins."""

    topology_epoch: int = 0
    """Epoch of the topology described."""

    topology_description: TopologyDescription = field(default_factory=TopologyDescription)
    """Description of the topology."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TopologyDescriptionNode_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_node_type = _S1u(buf, pos)[0]
    pos += 1
    n, pos = read_compact_array_len(buf, pos)
    f_source_topics = []
    append = f_source_topics.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    f_sink_topic, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_stores = []
    append = f_stores.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_successors = []
    append = f_successors.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopologyDescriptionNode(f_name, f_node_type, f_source_topics, f_sink_topic, f_stores, f_successors, unknown), pos


def _d_TopologyDescriptionSubtopology_v0(buf, pos):
    f_subtopology_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_nodes = []
    append = f_nodes.append
    for _ in range(n):
        item, pos = _d_TopologyDescriptionNode_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopologyDescriptionSubtopology(f_subtopology_id, f_nodes, unknown), pos


def _d_TopologyDescriptionGlobalStore_v0(buf, pos):
    f_source, pos = _d_TopologyDescriptionNode_v0(buf, pos)
    f_processor, pos = _d_TopologyDescriptionNode_v0(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopologyDescriptionGlobalStore(f_source, f_processor, unknown), pos


def _d_TopologyDescription_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_subtopologies = []
    append = f_subtopologies.append
    for _ in range(n):
        item, pos = _d_TopologyDescriptionSubtopology_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_global_stores = []
    append = f_global_stores.append
    for _ in range(n):
        item, pos = _d_TopologyDescriptionGlobalStore_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopologyDescription(f_subtopologies, f_global_stores, unknown), pos


def _d_StreamsGroupTopologyDescriptionUpdateRequest_v0(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_member_id, pos = read_compact_string(buf, pos)
    f_topology_epoch = _S0u(buf, pos)[0]
    pos += 4
    f_topology_description, pos = _d_TopologyDescription_v0(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StreamsGroupTopologyDescriptionUpdateRequest(f_group_id, f_member_id, f_topology_epoch, f_topology_description, unknown), pos


def _e_TopologyDescriptionNode_v0(o, out):
    write_compact_string(out, o.name)
    out += _S1p(o.node_type)
    value = o.source_topics
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    write_compact_nullable_string(out, o.sink_topic)
    value = o.stores
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.successors
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopologyDescriptionSubtopology_v0(o, out):
    write_compact_string(out, o.subtopology_id)
    value = o.nodes
    write_compact_array_len(out, value)
    for item in value:
        _e_TopologyDescriptionNode_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopologyDescriptionGlobalStore_v0(o, out):
    _e_TopologyDescriptionNode_v0(o.source, out)
    _e_TopologyDescriptionNode_v0(o.processor, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopologyDescription_v0(o, out):
    value = o.subtopologies
    write_compact_array_len(out, value)
    for item in value:
        _e_TopologyDescriptionSubtopology_v0(item, out)
    value = o.global_stores
    write_compact_array_len(out, value)
    for item in value:
        _e_TopologyDescriptionGlobalStore_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_StreamsGroupTopologyDescriptionUpdateRequest_v0(o, out):
    write_compact_string(out, o.group_id)
    write_compact_string(out, o.member_id)
    out += _S0p(o.topology_epoch)
    _e_TopologyDescription_v0(o.topology_description, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


StreamsGroupTopologyDescriptionUpdateRequest._DECODERS = {
    0: _d_StreamsGroupTopologyDescriptionUpdateRequest_v0,
}
StreamsGroupTopologyDescriptionUpdateRequest._ENCODERS = {
    0: _e_StreamsGroupTopologyDescriptionUpdateRequest_v0,
}
