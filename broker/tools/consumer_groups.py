"""``sharebroker consumer-groups``: list, describe, reset offsets of and delete consumer groups.

Mirrors Kafka's ``kafka-consumer-groups.sh`` for classic groups (JoinGroup/SyncGroup)
and KIP-848 consumer groups alike: the same actions, options, table columns and
messages, speaking only the wire protocol through ``broker.admin.client``. A
group is described with ConsumerGroupDescribe, falling back to DescribeGroups
for a classic group, as Kafka's admin client does. ``--output json`` prints one
JSON document instead of the tables.

Exit status: 0 success, 1 the operation failed (one ``Error: ...`` line on
stderr), 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from broker.tools._cli import (
    EXIT_FAILURE,
    EXIT_OK,
    ToolError,
    UsageError,
    choices,
    dump,
    print_error,
    table,
)
from broker.tools._groups import (
    add_group_tool,
    check_list,
    check_views,
    coordinator_of,
    group_refusals,
    one_action,
    print_described,
    report_deletions,
    serve,
)
from broker.tools._offsets import (
    Plan,
    add_reset_options,
    check_reset,
    export_plan,
    named_partitions,
    parse_topics,
    plan_doc,
    plan_table,
    read_plan,
    reset_targets,
)

if TYPE_CHECKING:  # imported where used, to keep the command's start-up short
    from broker.admin.groups import GroupMember

CLASSIC_STATES = ("PreparingRebalance", "CompletingRebalance", "Stable", "Dead", "Empty")
CONSUMER_STATES = ("Empty", "Assigning", "Reconciling", "Stable", "Dead")
ALL_STATES = tuple(dict.fromkeys(CLASSIC_STATES + CONSUMER_STATES))
GROUP_TYPES = ("classic", "consumer")
MISSING = "-"
RESET_SCENARIOS = (
    "to_earliest",
    "to_latest",
    "to_current",
    "to_offset",
    "shift_by",
    "to_datetime",
    "by_duration",
    "from_file",
)

DESCRIPTION = """\
List, describe, reset offsets of and delete consumer groups, classic (JoinGroup/SyncGroup)
and KIP-848 consumer groups alike, like Kafka's kafka-consumer-groups.sh. Exactly one
action is required: --list, --describe, --reset-offsets, --delete or --delete-offsets."""


ACTIONS = {
    "list": "list all consumer groups",
    "describe": "describe consumer group(s): offsets and lag (default), --members or --state",
    "reset_offsets": "reset the committed offsets of an inactive group",
    "delete": "delete consumer group(s) that have no members",
    "delete_offsets": "delete a group's offsets for the given topics",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_group_tool(
        subparsers,
        "consumer-groups",
        "list, describe, reset offsets of and delete consumer groups",
        DESCRIPTION,
        ACTIONS,
        kind="consumer",
        states=ALL_STATES,
    )
    p.add_argument(
        "--type",
        nargs="*",
        metavar="TYPE",
        help="with --list: show group types, optionally only these (classic, consumer; also comma-separated)",
    )
    scen = add_reset_options(p)
    scen.add_argument("--to-current", action="store_true", help="reset to the current committed offset")
    scen.add_argument("--shift-by", type=int, metavar="N", help="move the committed offset by N (may be negative)")
    serve(p, _check_args, _ACT)


# -- helpers ---------------------------------------------------------------------------------


# -- what a group looks like, whatever its protocol --------------------------------------------


@dataclass(slots=True)
class Group:
    group_id: str
    group_type: str  # classic | consumer
    state: str
    assignor: str
    members: list[GroupMember] = field(default_factory=list)
    group_epoch: int | None = None
    assignment_epoch: int | None = None


def describe_group(admin: Any, group_id: str) -> Group | None:
    """The group, or None when it does not exist (as a consumer or classic group)."""
    from broker.admin.client import KafkaApiError, UnsupportedApiError
    from broker.admin.groups import classic_members, consumer_members
    from broker.protocol.errors import ErrorCode

    try:
        d = admin.describe_consumer_group(group_id)
    except UnsupportedApiError:
        d = None
    except KafkaApiError as exc:
        if exc.code != ErrorCode.GROUP_ID_NOT_FOUND:
            raise
        d = None
    if d is not None:
        return Group(
            group_id,
            "consumer",
            d.group_state,
            d.assignor_name,
            consumer_members(d),
            d.group_epoch,
            d.assignment_epoch,
        )
    try:
        c = admin.describe_classic_group(group_id)
    except KafkaApiError as exc:
        if exc.code == ErrorCode.GROUP_ID_NOT_FOUND:
            return None
        raise
    if c.group_state == "Dead":
        return None
    return Group(group_id, "classic", c.group_state, c.protocol_data, classic_members(c))


def _assignment_text(assignment: dict[str, list[int]] | None) -> str:
    if not assignment:
        return MISSING
    return ",".join(f"{t}:{','.join(map(str, ps))}" for t, ps in sorted(assignment.items()) if ps) or MISSING


def _count(assignment: dict[str, list[int]]) -> int:
    return sum(len(ps) for ps in assignment.values())


# -- entry point -----------------------------------------------------------------------------


def _check_args(args: argparse.Namespace) -> None:
    action = one_action(
        args,
        ACTIONS,
        "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets",
    )
    if action != "list" and args.type is not None:
        raise UsageError("--type only goes with --list")
    if action == "list":
        check_list(args, ALL_STATES)
        choices(args.type or [], GROUP_TYPES, "group type")
        return
    if action in ("describe", "delete") and bool(args.group) == bool(args.all_groups):
        raise UsageError(f"--{action} needs --group GROUP or --all-groups (not both)")
    check_views(args, action)
    if action == "reset_offsets" and not args.group and not args.all_groups:
        raise UsageError("--reset-offsets needs --group GROUP or --all-groups")
    check_reset(args, action, RESET_SCENARIOS)
    if action == "delete_offsets":
        if len(args.group) != 1 or args.all_groups:
            raise UsageError("--delete-offsets needs exactly one --group")
        if not args.topic:
            raise UsageError("--delete-offsets needs --topic")


# -- actions ---------------------------------------------------------------------------------


def _listed(admin: Any, states: list[str] = ()) -> list[Any]:  # type: ignore[assignment]
    """Classic and consumer groups (not share or streams groups), sorted by id."""
    groups = admin.list_groups(types=list(GROUP_TYPES), states=list(states))
    out = []
    for g in groups:
        kind = g.group_type or ("consumer" if g.protocol_type == "consumer" else "classic")
        if kind in ("classic", "consumer") and g.protocol_type in ("consumer", ""):
            out.append(g)
    return sorted(out, key=lambda g: g.group_id)


def _list(admin: Any, args: argparse.Namespace) -> int:
    states = choices(args.state or [], ALL_STATES, "state")
    types = choices(args.type or [], GROUP_TYPES, "group type")
    groups = [g for g in _listed(admin, states) if not types or (g.group_type or "classic") in types]
    if args.output == "json":
        dump([{"group": g.group_id, "type": g.group_type or "classic", "state": g.group_state} for g in groups])
        return EXIT_OK
    show_state, show_type = args.state is not None, args.type is not None
    if not show_state and not show_type:
        for g in groups:
            print(g.group_id)
        return EXIT_OK
    header = ["GROUP"] + (["TYPE"] if show_type else []) + (["STATE"] if show_state else [])
    rows = [header]
    for g in groups:
        rows.append(
            [g.group_id]
            + ([(g.group_type or "classic").capitalize()] if show_type else [])
            + ([g.group_state or "Unknown"] if show_state else [])
        )
    sys.stdout.write(table(rows, [15] * (len(header) - 1) + [0]).lstrip("\n"))
    return EXIT_OK


def _group_ids(admin: Any, args: argparse.Namespace) -> list[str]:
    if args.all_groups:
        return [g.group_id for g in _listed(admin)]
    return list(dict.fromkeys(args.group))


def _offsets(admin: Any, group: Group) -> list[dict[str, Any]]:
    """One row per partition with a committed offset or an owner: offsets, lag, owner."""
    from broker.admin.client import LATEST_TIMESTAMP

    committed = admin.fetch_offsets(group.group_id)
    owners: dict[tuple[str, int], GroupMember] = {}
    for m in group.members:
        for topic, ps in m.assignment.items():
            for p in ps:
                owners[(topic, p)] = m
    partitions = sorted(set(committed) | set(owners))
    ends = admin.list_offsets(dict.fromkeys(partitions, LATEST_TIMESTAMP)) if partitions else {}
    rows = []
    for tp in partitions:
        current = committed.get(tp)
        end = ends.get(tp)
        owner = owners.get(tp)
        rows.append(
            {
                "topic": tp[0],
                "partition": tp[1],
                "current_offset": None if current is None else current[0],
                "leader_epoch": None if current is None or current[1] < 0 else current[1],
                "log_end_offset": end,
                "lag": None if current is None or end is None else max(end - current[0], 0),
                "consumer_id": None if owner is None else owner.member_id,
                "host": None if owner is None else owner.host,
                "client_id": None if owner is None else owner.client_id,
            }
        )
    return rows


def _describe(admin: Any, args: argparse.Namespace) -> int:
    docs: list[dict[str, Any]] = []
    blocks: list[str] = []
    missing: list[str] = []
    for group_id in sorted(_group_ids(admin, args)):
        group = describe_group(admin, group_id)
        if group is None:
            missing.append(group_id)
            continue
        doc: dict[str, Any] = {"group": group_id, "type": group.group_type, "state": group.state}
        if args.members:
            doc["members"] = [
                {
                    "member_id": m.member_id,
                    "instance_id": m.instance_id,
                    "host": m.host,
                    "client_id": m.client_id,
                    "partitions": _count(m.assignment),
                    "assignment": m.assignment,
                    "member_epoch": m.member_epoch,
                    "target_assignment": m.target,
                }
                for m in sorted(group.members, key=lambda m: m.member_id)
            ]
            if args.output != "json":
                blocks.append(_members_table(group, args.verbose))
        elif args.state is not None:
            coordinator, coord = coordinator_of(admin, group_id)
            doc.update(
                {
                    "coordinator": coordinator,
                    "assignment_strategy": group.assignor,
                    "members": len(group.members),
                    "group_epoch": group.group_epoch,
                    "assignment_epoch": group.assignment_epoch,
                }
            )
            if args.output != "json":
                header = ["GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE"]
                row: list[object] = [group_id, coord, group.assignor or "", group.state]
                if args.verbose and group.group_type == "consumer":
                    header += ["GROUP-EPOCH", "TARGET-ASSIGNMENT-EPOCH"]
                    row += [group.group_epoch, group.assignment_epoch]
                header.append("#MEMBERS")
                row.append(len(group.members))
                blocks.append(table([header, row], [15, 25, 20, 15] + [12] * (len(header) - 5) + [0]))
        else:
            rows = _offsets(admin, group)
            doc["offsets"] = rows
            if args.output != "json":
                if not group.members:
                    print(f"\nConsumer group '{group_id}' has no active members.", file=sys.stderr)
                blocks.append(_offsets_table(group_id, rows, args.verbose))
        docs.append(doc)
    print_described(args.output, docs, blocks)
    if missing:
        print_error(f"Consumer group '{missing[0]}' does not exist.")
        return EXIT_FAILURE
    return EXIT_OK


def _members_table(group: Group, verbose: bool) -> str:
    if not group.members:
        return f"\nConsumer group '{group.group_id}' has no active members.\n"
    consumer = group.group_type == "consumer"
    header = (
        ["GROUP", "CONSUMER-ID"] + (["GROUP-INSTANCE-ID"] if verbose else []) + ["HOST", "CLIENT-ID", "#PARTITIONS"]
    )
    if verbose and consumer:
        header += ["CURRENT-EPOCH", "CURRENT-ASSIGNMENT", "TARGET-EPOCH", "TARGET-ASSIGNMENT"]
    elif verbose:
        header += ["ASSIGNMENT"]
    rows = [header]
    for m in sorted(group.members, key=lambda m: m.member_id):
        row: list[Any] = [group.group_id, m.member_id]
        if verbose:
            row.append(m.instance_id or MISSING)
        row += [m.host, m.client_id, _count(m.assignment)]
        if verbose and consumer:
            row += [m.member_epoch, _assignment_text(m.assignment), group.assignment_epoch, _assignment_text(m.target)]
        elif verbose:
            row.append(_assignment_text(m.assignment))
        rows.append(row)
    return table(rows, [15] * (len(header) - 1) + [0])


def _offsets_table(group_id: str, rows: list[dict[str, Any]], verbose: bool) -> str:
    def show(v: Any) -> str:
        return MISSING if v is None else str(v)

    header = ["GROUP", "TOPIC", "PARTITION"]
    if verbose:
        header.append("LEADER-EPOCH")
    header += ["CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID"]
    lines = [header]
    for r in rows:
        row = [group_id, r["topic"], r["partition"]]
        if verbose:
            row.append(show(r["leader_epoch"]))
        row += [
            show(r["current_offset"]),
            show(r["log_end_offset"]),
            show(r["lag"]),
            show(r["consumer_id"]),
            show(r["host"]),
            show(r["client_id"]),
        ]
        lines.append(row)
    return table(lines, [15, 15, 10] + ([13] if verbose else []) + [15, 15, 15, 15, 15, 0])


def _plan(admin: Any, args: argparse.Namespace, group_id: str) -> Plan:
    committed = {tp: o for tp, (o, _) in admin.fetch_offsets(group_id).items()}
    requested: Plan = {}
    if args.from_file:
        requested = read_plan(args.from_file)
        partitions = sorted(requested)
    elif args.all_topics:
        partitions = sorted(committed)
    else:
        partitions = named_partitions(admin, args.topic)
    return reset_targets(admin, args, partitions, requested, committed)


def _reset(admin: Any, args: argparse.Namespace) -> int:
    execute = args.execute and not args.dry_run
    if not args.execute and not args.dry_run:
        print(
            "WARN: No action will be performed as the --execute option is missing. "
            "In a future major release, the default behavior of this command will be to prompt the user "
            "before executing the reset rather than doing a dry run. You should add the --dry-run option "
            "explicitly if you are scripting this command and want to keep the current default behavior "
            "without prompting.",
            file=sys.stderr,
        )
    plans: dict[str, Plan] = {}
    for group_id in sorted(_group_ids(admin, args)):
        group = describe_group(admin, group_id)
        if group is not None and group.state not in ("Empty", "Dead"):
            raise ToolError(
                f"Assignments can only be reset if the group '{group_id}' is inactive, but the current state is "
                f"{group.state}."
            )
        plan = _plan(admin, args, group_id)
        if execute and plan:
            for (topic, partition), error in admin.commit_offsets(group_id, plan).items():
                if error is not None:
                    raise ToolError(f"could not reset {topic}-{partition} of group '{group_id}': {error}")
        plans[group_id] = plan
    if args.output == "json":
        dump([plan_doc(g, bool(execute), plan) for g, plan in plans.items()])
        return EXIT_OK
    for group_id, plan in plans.items():
        if args.export:
            export_plan(plan)
        else:
            sys.stdout.write(plan_table("Consumer", group_id, plan))
    return EXIT_OK


def _delete(admin: Any, args: argparse.Namespace) -> int:
    groups = _group_ids(admin, args)
    results = admin.delete_groups(groups) if groups else {}
    succeeded = [g for g in groups if results.get(g) is None]
    failed = {g: results[g] for g in groups if results.get(g) is not None}
    return report_deletions("consumer", args.output, succeeded, failed, lambda e: str(e.code.message))


def _delete_offsets(admin: Any, args: argparse.Namespace) -> int:
    group_id = args.group[0]
    specs = parse_topics(args.topic)
    known = admin.topic_partitions([t for t, _ in specs])
    partitions = {t: (ps if ps is not None else known[t]) for t, ps in specs}
    with group_refusals("Consumer", group_id):
        results = admin.delete_offsets(group_id, partitions)
    failed = {tp: e for tp, e in results.items() if e is not None}
    if args.output == "json":
        dump(
            {
                "group": group_id,
                "partitions": [
                    {"topic": t, "partition": p, "error": None if e is None else e.code.name}
                    for (t, p), e in sorted(results.items())
                ],
            }
        )
    else:
        if not failed:
            print(f"Request succeed for deleting offsets from group '{group_id}'.")
        else:
            print(f"Request failed for deleting offsets from group '{group_id}'.")
        rows = [["TOPIC", "PARTITION", "STATUS"]]
        rows += [
            [t, p, "Successful" if e is None else f"Error: {e.code.message}"] for (t, p), e in sorted(results.items())
        ]
        sys.stdout.write(table(rows, [15, 10, 0]))
    return EXIT_FAILURE if failed else EXIT_OK


_ACT = {
    "list": _list,
    "describe": _describe,
    "reset_offsets": _reset,
    "delete": _delete,
    "delete_offsets": _delete_offsets,
}
