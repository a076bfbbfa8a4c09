"""``sharebroker streams-groups``: list and describe streams groups (KIP-1071).

Mirrors Kafka's ``kafka-streams-groups.sh`` for its list and describe actions,
speaking only the wire protocol (ListGroups, StreamsGroupDescribe, OffsetFetch,
ListOffsets). ``--describe`` shows the committed offsets and lag of the
group's input topics (the default), ``--members`` (each member's process,
client id and active/standby/warm-up tasks) or ``--state``. ``--output json``
prints one JSON document instead of the tables.

Exit status: 0 success, 1 the operation failed (one ``Error: ...`` line on
stderr), 2 bad usage.
"""

from __future__ import annotations

import argparse
from typing import Any

from broker.tools._cli import (
    EXIT_OK,
    ToolError,
    UsageError,
    table,
)
from broker.tools._groups import (
    add_group_tool,
    check_list,
    check_views,
    chosen_groups,
    coordinator_of,
    group_refusals,
    list_action,
    one_action,
    print_described,
    serve,
)

MISSING = "-"
STREAMS_STATES = ("Empty", "NotReady", "Assigning", "Reconciling", "Stable", "Dead")

DESCRIPTION = """\
List and describe streams groups (KIP-1071), like Kafka's kafka-streams-groups.sh.
Exactly one action is required: --list or --describe."""


ACTIONS = {
    "list": "list all streams groups",
    "describe": "describe streams group(s): offsets and lag (default), --members or --state",
}
VIEWS = ("members", "state", "offsets", "topology")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_group_tool(
        subparsers,
        "streams-groups",
        "list and describe streams groups",
        DESCRIPTION,
        ACTIONS,
        kind="streams",
        states=STREAMS_STATES,
        members="show the members and their tasks",
    )
    p.add_argument(
        "--topology",
        action="store_true",
        help="with --describe: the group's topology description, as a member pushed it (KIP-1331)",
    )
    serve(p, _check_args, _ACT)


def _check_args(args: argparse.Namespace) -> None:
    action = one_action(args, ACTIONS, "Command must include exactly one action: --list, --describe")
    if action == "list":
        check_list(args, STREAMS_STATES)
        return
    if bool(args.group) == bool(args.all_groups):
        raise UsageError("--describe needs --group GROUP or --all-groups (not both)")
    check_views(args, action, VIEWS)


def _tasks(tasks: list[Any]) -> dict[str, list[int]]:
    return {t.subtopology_id: sorted(t.partitions) for t in tasks if t.partitions}


def _tasks_text(assignment: Any) -> str:
    parts = []
    for kind, tasks in (
        ("ACTIVE", assignment.active_tasks),
        ("STANDBY", assignment.standby_tasks),
        ("WARMUP", assignment.warmup_tasks),
    ):
        ids = [f"{t.subtopology_id}_{p}" for t in tasks for p in sorted(t.partitions)]
        if ids:
            parts.append(f"{kind}:[{','.join(ids)}]")
    return " ".join(parts) or MISSING


def _input_topics(desc: Any) -> list[str]:
    names: set[str] = set()
    if desc.topology is not None and desc.topology.subtopologies:
        for s in desc.topology.subtopologies:
            names.update(s.source_topics)
            names.update(t.name for t in s.repartition_source_topics)
    return sorted(names)


# StreamsGroupDescribe v1 TopologyDescriptionStatus: a description is returned.
TOPOLOGY_AVAILABLE = 3
_SOURCE, _PROCESSOR, _SINK = 1, 2, 3


def _names(values: Any) -> str:
    return ", ".join(sorted(values)) if values else "none"


def _node_text(node: Any, predecessors: dict[str, list[str]]) -> str:
    if node.node_type == _SOURCE:
        return f"Source: {node.name} (topics: [{', '.join(sorted(node.source_topics))}])\n      --> {_names(node.successors)}"
    if node.node_type == _PROCESSOR:
        return (
            f"Processor: {node.name} (stores: [{', '.join(sorted(node.stores))}])\n      --> {_names(node.successors)}"
            f"\n      <-- {_names(predecessors.get(node.name, []))}"
        )
    return f"Sink: {node.name} (topic: {node.sink_topic})\n      <-- {_names(predecessors.get(node.name, []))}"


def format_topology(desc: Any) -> str:
    """A topology description as Kafka Streams prints one (and kafka-streams-groups.sh
    --describe --topology): sub-topologies, then global stores; predecessors come
    from the successors."""
    predecessors: dict[str, list[str]] = {}
    nodes = [n for s in desc.subtopologies for n in s.nodes]
    nodes += [n for g in desc.global_stores for n in (g.source, g.processor)]
    for n in nodes:
        for succ in n.successors:
            predecessors.setdefault(succ, []).append(n.name)
    out = ["Topologies:\n"]
    for s in desc.subtopologies:
        out.append(f"   Sub-topology: {s.subtopology_id}\n")
        out += [f"    {_node_text(n, predecessors)}\n" for n in s.nodes]
        out.append("\n")
    for i, g in enumerate(desc.global_stores, start=len(desc.subtopologies)):
        out.append(f"   Sub-topology: {i} for global store (will not generate tasks)\n")
        out += [f"    {_node_text(n, predecessors)}\n" for n in (g.source, g.processor)]
        out.append("\n")
    return "".join(out)


def _topology_json(desc: Any) -> dict[str, Any]:
    def node(n: Any) -> dict[str, Any]:
        return {
            "name": n.name,
            "type": {_SOURCE: "source", _PROCESSOR: "processor", _SINK: "sink"}.get(n.node_type, str(n.node_type)),
            "source_topics": list(n.source_topics),
            "sink_topic": n.sink_topic,
            "stores": list(n.stores),
            "successors": list(n.successors),
        }

    return {
        "subtopologies": [{"id": s.subtopology_id, "nodes": [node(n) for n in s.nodes]} for s in desc.subtopologies],
        "global_stores": [{"source": node(g.source), "processor": node(g.processor)} for g in desc.global_stores],
    }


def _describe(admin: Any, args: argparse.Namespace) -> int:
    group_ids = chosen_groups(admin, args, "streams")
    docs: list[dict[str, Any]] = []
    blocks: list[str] = []
    for group_id in group_ids:
        with group_refusals("Streams", group_id):
            desc = admin.describe_streams_group(group_id, include_topology_description=bool(args.topology))
        doc: dict[str, Any] = {"group": group_id, "state": desc.group_state}
        members = sorted(desc.members, key=lambda m: m.member_id)
        if args.topology:
            _describe_topology(args, group_id, desc, doc, blocks)
        elif args.members:
            _describe_members(args, group_id, members, doc, blocks)
        elif args.state is not None:
            _describe_state(admin, args, group_id, desc, members, doc, blocks)
        else:
            _describe_offsets(admin, args, group_id, desc, doc, blocks)
        docs.append(doc)
    print_described(args.output, docs, blocks)
    return EXIT_OK


def _describe_topology(
    args: argparse.Namespace, group_id: str, desc: Any, doc: dict[str, Any], blocks: list[str]
) -> None:
    """--topology: the subtopologies, their sources, sinks and state stores."""
    if desc.topology_description_status != TOPOLOGY_AVAILABLE or desc.topology_description is None:
        raise ToolError(f"No topology description is stored for streams group '{group_id}'.")
    doc["topology"] = _topology_json(desc.topology_description)
    if args.output != "json":
        blocks.append(format_topology(desc.topology_description))


def _describe_members(
    args: argparse.Namespace, group_id: str, members: list[Any], doc: dict[str, Any], blocks: list[str]
) -> None:
    """--members: each member, its process and its tasks."""
    doc["members"] = [
        {
            "member_id": m.member_id,
            "member_epoch": m.member_epoch,
            "process_id": m.process_id,
            "client_id": m.client_id,
            "host": m.client_host,
            "instance_id": m.instance_id,
            "active": _tasks(m.assignment.active_tasks),
            "standby": _tasks(m.assignment.standby_tasks),
            "warmup": _tasks(m.assignment.warmup_tasks),
            "target_active": _tasks(m.target_assignment.active_tasks),
            "target_standby": _tasks(m.target_assignment.standby_tasks),
        }
        for m in members
    ]
    if args.output != "json":
        if not members:
            blocks.append(f"\nStreams group '{group_id}' has no active members.\n")
            return
        header = ["GROUP", "MEMBER", "PROCESS", "CLIENT-ID"]
        if args.verbose:
            header += ["MEMBER-EPOCH", "TARGET-ASSIGNMENTS"]
        header.append("ASSIGNMENTS")
        rows: list[list[Any]] = [header]
        for m in members:
            row: list[Any] = [group_id, m.member_id, m.process_id, m.client_id]
            if args.verbose:
                row += [m.member_epoch, _tasks_text(m.target_assignment).replace(" ", ";")]
            row.append(_tasks_text(m.assignment))
            rows.append(row)
        blocks.append(table(rows, [15] * (len(header) - 1) + [0]))


def _describe_state(
    admin: Any,
    args: argparse.Namespace,
    group_id: str,
    desc: Any,
    members: list[Any],
    doc: dict[str, Any],
    blocks: list[str],
) -> None:
    """--state: the coordinator, the state and the epochs of the group."""
    coordinator, coord = coordinator_of(admin, group_id)
    doc.update(
        {
            "coordinator": coordinator,
            "group_epoch": desc.group_epoch,
            "assignment_epoch": desc.assignment_epoch,
            "members": len(members),
        }
    )
    if args.output != "json":
        header = ["GROUP", "COORDINATOR (ID)", "STATE"]
        row = [group_id, coord, desc.group_state]
        if args.verbose:
            header += ["GROUP-EPOCH", "TARGET-ASSIGNMENT-EPOCH"]
            row += [desc.group_epoch, desc.assignment_epoch]
        header.append("#MEMBERS")
        row.append(len(members))
        blocks.append(table([header, row], [15, 25, 15] + [12] * (len(header) - 4) + [0]))


def _describe_offsets(
    admin: Any, args: argparse.Namespace, group_id: str, desc: Any, doc: dict[str, Any], blocks: list[str]
) -> None:
    """The default: the committed offset and lag of each input partition."""
    from broker.admin.client import LATEST_TIMESTAMP

    committed = admin.fetch_offsets(group_id)
    inputs = set(_input_topics(desc))
    partitions = sorted(tp for tp in committed if not inputs or tp[0] in inputs)
    ends = admin.list_offsets(dict.fromkeys(partitions, LATEST_TIMESTAMP)) if partitions else {}
    offsets = [
        {
            "topic": t,
            "partition": p,
            "current_offset": committed[(t, p)][0],
            "log_end_offset": ends.get((t, p)),
            "lag": None if (t, p) not in ends else max(ends[(t, p)] - committed[(t, p)][0], 0),
        }
        for t, p in partitions
    ]
    doc["offsets"] = offsets
    if args.output != "json":
        if not offsets:
            blocks.append(f"\nStreams group '{group_id}' has no committed offsets.\n")
            return
        rows = [["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG"]]
        rows += [
            [
                group_id,
                o["topic"],
                o["partition"],
                o["current_offset"],
                MISSING if o["log_end_offset"] is None else o["log_end_offset"],
                MISSING if o["lag"] is None else o["lag"],
            ]
            for o in offsets
        ]
        blocks.append(table(rows, [15, 15, 10, 15, 15, 0]))


_ACT = {"list": list_action("streams", STREAMS_STATES), "describe": _describe}
