"""Topology descriptions (KIP-1331) between the wire structs and their stored JSON form."""

from __future__ import annotations

from typing import Any

from broker.protocol.messages import streams_group_describe_response as out
from broker.protocol.messages import streams_group_topology_description_update_request as inp


def _node(n: inp.TopologyDescriptionNode) -> dict[str, Any]:
    return {
        "name": n.name,
        "type": n.node_type,
        "source_topics": list(n.source_topics),
        "sink_topic": n.sink_topic,
        "stores": list(n.stores),
        "successors": list(n.successors),
    }


def to_json(d: inp.TopologyDescription) -> dict[str, Any]:
    return {
        "subtopologies": [{"id": s.subtopology_id, "nodes": [_node(n) for n in s.nodes]} for s in d.subtopologies],
        "global_stores": [{"source": _node(g.source), "processor": _node(g.processor)} for g in d.global_stores],
    }


def _out_node(n: dict[str, Any]) -> out.TopologyDescriptionNode:
    return out.TopologyDescriptionNode(
        name=n["name"],
        node_type=n["type"],
        source_topics=list(n["source_topics"]),
        sink_topic=n["sink_topic"],
        stores=list(n["stores"]),
        successors=list(n["successors"]),
    )


def to_describe(d: dict[str, Any]) -> out.TopologyDescription:
    return out.TopologyDescription(
        subtopologies=[
            out.TopologyDescriptionSubtopology(subtopology_id=s["id"], nodes=[_out_node(n) for n in s["nodes"]])
            for s in d["subtopologies"]
        ],
        global_stores=[
            out.TopologyDescriptionGlobalStore(source=_out_node(g["source"]), processor=_out_node(g["processor"]))
            for g in d["global_stores"]
        ],
    )
