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
import time
from dataclasses import dataclass, field
from typing import Any

from broker.tools._cli import (
    EXIT_FAILURE,
    EXIT_OK,
    ToolError,
    UsageError,
    add_bootstrap_server,
    choices,
    dump,
    print_error,
    run_group_tool,
    table,
)
from broker.tools._offsets import parse_datetime_ms, parse_duration_ms, parse_topics, read_plan
from broker.tools._security import add_command_config

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


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "consumer-groups",
        help="list, describe, reset offsets of and delete consumer groups",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_bootstrap_server(p)
    add_command_config(p)
    actions = p.add_argument_group("actions (exactly one)")
    actions.add_argument("--list", action="store_true", help="list all consumer groups")
    actions.add_argument(
        "--describe",
        action="store_true",
        help="describe consumer group(s): offsets and lag (default), --members or --state",
    )
    actions.add_argument(
        "--reset-offsets", action="store_true", help="reset the committed offsets of an inactive group"
    )
    actions.add_argument("--delete", action="store_true", help="delete consumer group(s) that have no members")
    actions.add_argument("--delete-offsets", action="store_true", help="delete a group's offsets for the given topics")
    p.add_argument("--group", action="append", default=[], metavar="GROUP", help="the consumer group id (repeatable)")
    p.add_argument("--all-groups", action="store_true", help="apply to all consumer groups")
    p.add_argument(
        "--topic",
        action="append",
        default=[],
        metavar="TOPIC[:P,P...]",
        help="topic (optionally with partitions) for --reset-offsets or --delete-offsets",
    )
    p.add_argument(
        "--all-topics", action="store_true", help="with --reset-offsets: every topic the group has offsets for"
    )
    p.add_argument("--members", action="store_true", help="with --describe: show the members")
    p.add_argument("--offsets", action="store_true", help="with --describe: show the offsets and lag (default)")
    p.add_argument(
        "--state",
        nargs="*",
        metavar="STATE",
        help="with --describe: show the group state; with --list: show states, optionally only these "
        "(also comma-separated)",
    )
    p.add_argument(
        "--type",
        nargs="*",
        metavar="TYPE",
        help="with --list: show group types, optionally only these (classic, consumer; also comma-separated)",
    )
    p.add_argument("--verbose", action="store_true", help="with --describe: more columns")
    scen = p.add_argument_group("reset scenarios (one, with --reset-offsets)")
    scen.add_argument("--to-earliest", action="store_true", help="reset to the earliest offset")
    scen.add_argument("--to-latest", action="store_true", help="reset to the latest offset")
    scen.add_argument("--to-current", action="store_true", help="reset to the current committed offset")
    scen.add_argument("--to-offset", type=int, metavar="OFFSET", help="reset to this offset")
    scen.add_argument("--shift-by", type=int, metavar="N", help="move the committed offset by N (may be negative)")
    scen.add_argument(
        "--to-datetime", metavar="DATETIME", help="reset to the first offset at or after this time (ISO 8601)"
    )
    scen.add_argument("--by-duration", metavar="DURATION", help="reset to the offset of this long ago ('PnDTnHnMnS')")
    scen.add_argument(
        "--from-file", metavar="CSV", help="reset to the offsets in a CSV file of topic,partition,offset lines"
    )
    p.add_argument("--dry-run", action="store_true", help="only show the offsets --reset-offsets would set")
    p.add_argument("--execute", action="store_true", help="apply --reset-offsets")
    p.add_argument("--export", action="store_true", help="with --reset-offsets: print the plan as CSV")
    p.add_argument("--timeout", type=int, default=30000, metavar="MS", help="timeout in ms per request (default 30000)")
    p.add_argument("--output", choices=("table", "json"), default="table", help="output format (default table)")
    p.set_defaults(func=main, _consumer_groups_parser=p)


# -- helpers ---------------------------------------------------------------------------------


# -- what a group looks like, whatever its protocol --------------------------------------------


@dataclass(slots=True)
class Member:
    member_id: str
    instance_id: str | None
    host: str
    client_id: str
    assignment: dict[str, list[int]]
    member_epoch: int | None = None
    target: dict[str, list[int]] | None = None
    target_epoch: int | None = None


@dataclass(slots=True)
class Group:
    group_id: str
    group_type: str  # classic | consumer
    state: str
    assignor: str
    members: list[Member] = field(default_factory=list)
    group_epoch: int | None = None
    assignment_epoch: int | None = None


def _decode_classic_assignment(data: bytes) -> dict[str, list[int]]:
    from broker.protocol.messages.consumer_protocol_assignment import ConsumerProtocolAssignment

    if len(data) < 2:
        return {}
    try:
        version = int.from_bytes(data[:2], "big", signed=True)
        decoded = ConsumerProtocolAssignment.decode(memoryview(data)[2:], min(max(version, 0), 3))
    except Exception:
        return {}
    out: dict[str, list[int]] = {}
    for tp in decoded.assigned_partitions:
        out.setdefault(tp.topic, []).extend(tp.partitions)
    return {t: sorted(ps) for t, ps in out.items()}


def describe_group(admin: Any, group_id: str) -> Group | None:
    """The group, or None when it does not exist (as a consumer or classic group)."""
    from broker.admin.client import KafkaApiError, UnsupportedApiError
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
            [
                Member(
                    m.member_id,
                    m.instance_id,
                    m.client_host,
                    m.client_id,
                    {tp.topic_name: sorted(tp.partitions) for tp in m.assignment.topic_partitions},
                    m.member_epoch,
                    {tp.topic_name: sorted(tp.partitions) for tp in m.target_assignment.topic_partitions},
                    d.assignment_epoch,
                )
                for m in d.members
            ],
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
    return Group(
        group_id,
        "classic",
        c.group_state,
        c.protocol_data,
        [
            Member(
                m.member_id,
                m.group_instance_id,
                m.client_host,
                m.client_id,
                _decode_classic_assignment(bytes(m.member_assignment)),
            )
            for m in c.members
        ],
    )


def _assignment_text(assignment: dict[str, list[int]] | None) -> str:
    if not assignment:
        return MISSING
    return ",".join(f"{t}:{','.join(map(str, ps))}" for t, ps in sorted(assignment.items()) if ps) or MISSING


def _count(assignment: dict[str, list[int]]) -> int:
    return sum(len(ps) for ps in assignment.values())


# -- entry point -----------------------------------------------------------------------------


def main(args: argparse.Namespace) -> int:
    return run_group_tool(args._consumer_groups_parser, args, _check_args, _act)


def _act(admin: Any, args: argparse.Namespace) -> int:
    if args.list:
        return _list(admin, args)
    if args.describe:
        return _describe(admin, args)
    if args.reset_offsets:
        return _reset(admin, args)
    if args.delete:
        return _delete(admin, args)
    return _delete_offsets(admin, args)


def _check_args(args: argparse.Namespace) -> None:
    actions = [a for a in ("list", "describe", "reset_offsets", "delete", "delete_offsets") if getattr(args, a)]
    if len(actions) != 1:
        raise UsageError(
            "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets"
        )
    action = actions[0]
    if action != "list" and args.type is not None:
        raise UsageError("--type only goes with --list")
    if action == "list":
        if args.group or args.all_groups:
            raise UsageError("--list does not take --group or --all-groups")
        choices(args.state or [], ALL_STATES, "state")
        choices(args.type or [], GROUP_TYPES, "group type")
        return
    if action == "describe":
        if bool(args.group) == bool(args.all_groups):
            raise UsageError("--describe needs --group GROUP or --all-groups (not both)")
        views = [v for v in (args.members, args.state is not None, args.offsets) if v]
        if len(views) > 1:
            raise UsageError("--describe takes at most one of --members, --state, --offsets")
        if args.state:
            raise UsageError("--describe --state takes no values")
    elif args.state is not None:
        raise UsageError("--state only goes with --list or --describe")
    if action == "delete" and bool(args.group) == bool(args.all_groups):
        raise UsageError("--delete needs --group GROUP or --all-groups (not both)")
    if action == "reset_offsets":
        if not args.group and not args.all_groups:
            raise UsageError("--reset-offsets needs --group GROUP or --all-groups")
        if not args.from_file and bool(args.topic) == bool(args.all_topics):
            raise UsageError("--reset-offsets needs one of --topic or --all-topics")
        scenarios = [s for s in RESET_SCENARIOS if getattr(args, s) not in (None, False)]
        if len(scenarios) != 1:
            raise UsageError(
                "--reset-offsets needs exactly one of --to-earliest, --to-latest, --to-current, --to-offset, "
                "--shift-by, --to-datetime, --by-duration, --from-file"
            )
        if args.dry_run and args.execute:
            raise UsageError("--dry-run and --execute are mutually exclusive")
        if args.to_datetime is not None:
            parse_datetime_ms(args.to_datetime)
        if args.by_duration is not None:
            parse_duration_ms(args.by_duration)
        parse_topics(args.topic)
    elif args.dry_run or args.execute or args.export:
        raise UsageError("--dry-run, --execute and --export only go with --reset-offsets")
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
    owners: dict[tuple[str, int], Member] = {}
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


def _not_found(group_id: str) -> ToolError:
    return ToolError(f"Consumer group '{group_id}' does not exist.")


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
            coordinator = admin.find_coordinator(group_id)
            doc.update(
                {
                    "coordinator": {"id": coordinator.node_id, "host": coordinator.host, "port": coordinator.port},
                    "assignment_strategy": group.assignor,
                    "members": len(group.members),
                    "group_epoch": group.group_epoch,
                    "assignment_epoch": group.assignment_epoch,
                }
            )
            if args.output != "json":
                coord = f"{coordinator.host}:{coordinator.port} ({coordinator.node_id})"
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
    if args.output == "json":
        dump(docs)
    else:
        for block in blocks:
            sys.stdout.write(block)
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
            row += [m.member_epoch, _assignment_text(m.assignment), m.target_epoch, _assignment_text(m.target)]
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


def _plan(admin: Any, args: argparse.Namespace, group_id: str) -> dict[tuple[str, int], int]:
    from broker.admin.client import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP

    committed = {tp: o for tp, (o, _) in admin.fetch_offsets(group_id).items()}
    if args.from_file:
        requested = read_plan(args.from_file)
        partitions = sorted(requested)
    elif args.all_topics:
        partitions = sorted(committed)
    else:
        specs = parse_topics(args.topic)
        known = admin.topic_partitions([t for t, _ in specs])
        wanted = []
        for topic, parts in specs:
            for p in parts if parts is not None else known[topic]:
                if p not in known[topic]:
                    raise ToolError(f"partition {topic}-{p} does not exist")
                wanted.append((topic, p))
        partitions = sorted(set(wanted))
    if not partitions:
        return {}
    earliest = admin.list_offsets(dict.fromkeys(partitions, EARLIEST_TIMESTAMP))
    latest = admin.list_offsets(dict.fromkeys(partitions, LATEST_TIMESTAMP))

    def clamp(tp: tuple[str, int], offset: int) -> int:
        return min(max(offset, earliest[tp]), latest[tp])

    if args.to_earliest:
        return dict(earliest)
    if args.to_latest:
        return dict(latest)
    if args.to_current:
        return {tp: committed.get(tp, latest[tp]) for tp in partitions}
    if args.to_offset is not None:
        return {tp: clamp(tp, args.to_offset) for tp in partitions}
    if args.shift_by is not None:
        return {tp: clamp(tp, committed.get(tp, latest[tp]) + args.shift_by) for tp in partitions}
    if args.from_file:
        return {tp: clamp(tp, offset) for tp, offset in requested.items()}
    if args.to_datetime is not None:
        ts = parse_datetime_ms(args.to_datetime)
    else:
        ts = int(time.time() * 1000) - parse_duration_ms(args.by_duration)
    found = admin.list_offsets(dict.fromkeys(partitions, ts))
    return {tp: (off if off >= 0 else latest[tp]) for tp, off in found.items()}


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
    plans: dict[str, dict[tuple[str, int], int]] = {}
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
        dump(
            [
                {
                    "group": g,
                    "executed": bool(execute),
                    "offsets": [{"topic": t, "partition": p, "new_offset": o} for (t, p), o in sorted(plan.items())],
                }
                for g, plan in plans.items()
            ]
        )
        return EXIT_OK
    if args.export:
        for plan in plans.values():
            for (t, p), o in sorted(plan.items()):
                print(f"{t},{p},{o}")
        return EXIT_OK
    for group_id, plan in plans.items():
        if not plan:
            print(f"\nConsumer group '{group_id}' has no offsets to reset.")
            continue
        rows: list[list[object]] = [["GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"]]
        rows += [[group_id, t, p, o] for (t, p), o in sorted(plan.items())]
        sys.stdout.write(table(rows, [30, 30, 10, 0]))
    return EXIT_OK


def _delete(admin: Any, args: argparse.Namespace) -> int:
    groups = _group_ids(admin, args)
    results = admin.delete_groups(groups) if groups else {}
    succeeded = [g for g in groups if results.get(g) is None]
    failed = {g: results[g] for g in groups if results.get(g) is not None}
    if args.output == "json":
        dump({"deleted": succeeded, "failed": {g: str(e) for g, e in failed.items()}})
        return EXIT_FAILURE if failed else EXIT_OK
    if not failed:
        print("Deletion of requested consumer groups (" + ", ".join(f"'{g}'" for g in succeeded) + ") was successful.")
        return EXIT_OK
    print("Deletion of some consumer groups failed:")
    for group, error in failed.items():
        assert error is not None
        print(f"* Group '{group}' could not be deleted due to: {error.code.message}")
    if succeeded:
        print("\nThese consumer groups were deleted successfully: " + ", ".join(f"'{g}'" for g in succeeded))
    first = next(iter(failed.values()))
    assert first is not None
    print_error(first.code.message if len(failed) == 1 else f"{len(failed)} consumer groups could not be deleted")
    return EXIT_FAILURE


def _delete_offsets(admin: Any, args: argparse.Namespace) -> int:
    from broker.admin.client import KafkaApiError
    from broker.protocol.errors import ErrorCode

    group_id = args.group[0]
    specs = parse_topics(args.topic)
    known = admin.topic_partitions([t for t, _ in specs])
    partitions = {t: (ps if ps is not None else known[t]) for t, ps in specs}
    try:
        results = admin.delete_offsets(group_id, partitions)
    except KafkaApiError as exc:
        if exc.code == ErrorCode.GROUP_ID_NOT_FOUND:
            raise _not_found(group_id) from None
        if exc.code == ErrorCode.NON_EMPTY_GROUP:
            raise ToolError(f"Consumer group '{group_id}' is not empty.") from None
        raise
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
