"""``sharebroker share-groups``: list, describe, reset and delete share groups.

Mirrors Kafka's ``kafka-share-groups.sh`` (options, table columns and messages),
speaking only the wire protocol through ``broker.admin.client``. ``--output
json`` prints one JSON document instead of the tables.

Exit status: 0 success, 1 the operation failed (one ``Error: ...`` line on
stderr), 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
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

SHARE_STATES = ("Empty", "Stable", "Dead")
MISSING = "-"

DESCRIPTION = """\
List, describe, reset offsets of and delete share groups (KIP-932), like Kafka's
kafka-share-groups.sh. Exactly one action is required: --list, --describe,
--reset-offsets, --delete or --delete-offsets."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "share-groups",
        help="list, describe, reset and delete share groups",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_bootstrap_server(p)
    add_command_config(p)
    actions = p.add_argument_group("actions (exactly one)")
    actions.add_argument("--list", action="store_true", help="list all share groups")
    actions.add_argument(
        "--describe", action="store_true", help="describe share group(s): offsets (default), --members or --state"
    )
    actions.add_argument(
        "--reset-offsets", action="store_true", help="reset the start offsets of a share group that has no members"
    )
    actions.add_argument("--delete", action="store_true", help="delete share group(s) that have no members")
    actions.add_argument(
        "--delete-offsets", action="store_true", help="delete a share group's offsets for the given topics"
    )
    p.add_argument("--group", action="append", default=[], metavar="GROUP", help="the share group id (repeatable)")
    p.add_argument("--all-groups", action="store_true", help="apply to all share groups (--describe, --delete)")
    p.add_argument(
        "--topic",
        action="append",
        default=[],
        metavar="TOPIC[:P,P...]",
        help="topic (optionally with partitions) for --reset-offsets or --delete-offsets",
    )
    p.add_argument("--all-topics", action="store_true", help="reset every topic the group has offsets for")
    p.add_argument("--members", action="store_true", help="with --describe: show the members")
    p.add_argument(
        "--state",
        nargs="*",
        metavar="STATE",
        help="with --describe: show the group state; with --list: show states, "
        "optionally only these (Empty, Stable, Dead; also comma-separated)",
    )
    p.add_argument("--offsets", action="store_true", help="with --describe: show start offsets and lag (default)")
    p.add_argument("--verbose", action="store_true", help="with --describe: more columns")
    scen = p.add_argument_group("reset scenarios (one, with --reset-offsets)")
    scen.add_argument("--to-earliest", action="store_true", help="reset to the earliest offset")
    scen.add_argument("--to-latest", action="store_true", help="reset to the latest offset")
    scen.add_argument("--to-offset", type=int, metavar="OFFSET", help="reset to this offset")
    scen.add_argument(
        "--from-file",
        metavar="CSV",
        help="reset to the offsets in a CSV file of topic,partition,offset lines (KIP-1323); "
        "--export writes such a file",
    )
    scen.add_argument(
        "--to-datetime",
        metavar="DATETIME",
        help="reset to the first offset at or after this time, e.g. 2026-01-01T00:00:00.000 "
        "(ISO 8601; local time unless a zone is given)",
    )
    scen.add_argument(
        "--by-duration", metavar="DURATION", help="reset to the offset of this long ago, ISO 8601 duration 'PnDTnHnMnS'"
    )
    p.add_argument("--dry-run", action="store_true", help="only show the offsets --reset-offsets would set")
    p.add_argument("--execute", action="store_true", help="apply --reset-offsets")
    p.add_argument("--export", action="store_true", help="with --reset-offsets: print the plan as CSV")
    p.add_argument(
        "--timeout",
        type=int,
        default=30000,
        metavar="MS",
        help="timeout in milliseconds for each request (default 30000)",
    )
    p.add_argument("--output", choices=("table", "json"), default="table", help="output format (default table)")
    p.set_defaults(func=main, _share_groups_parser=p)


# -- helpers ---------------------------------------------------------------------------------


# -- entry point -----------------------------------------------------------------------------


def main(args: argparse.Namespace) -> int:
    return run_group_tool(args._share_groups_parser, args, _check_args, _act)


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
            "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets."
        )
    action = actions[0]
    if action == "list":
        if args.group or args.all_groups:
            raise UsageError("--list does not take --group or --all-groups")
        return
    if action in ("describe", "delete"):
        if not args.group and not args.all_groups:
            raise UsageError(f"--{action} needs --group GROUP or --all-groups")
        if args.group and args.all_groups:
            raise UsageError("--group and --all-groups are mutually exclusive")
    if action == "describe":
        views = [v for v in (args.members, args.state is not None, args.offsets) if v]
        if len(views) > 1:
            raise UsageError("--describe takes at most one of --members, --state, --offsets")
        if args.state:
            raise UsageError("--describe --state takes no values")
    elif args.state is not None:
        raise UsageError("--state only goes with --list or --describe")
    if action in ("reset_offsets", "delete_offsets"):
        if len(args.group) != 1 or args.all_groups:
            raise UsageError(f"--{action.replace('_', '-')} needs exactly one --group")
    if action == "reset_offsets":
        if not args.from_file and bool(args.topic) == bool(args.all_topics):
            raise UsageError("--reset-offsets needs one of --topic or --all-topics")
        scenarios = [
            s
            for s in ("to_earliest", "to_latest", "to_datetime", "by_duration", "to_offset", "from_file")
            if getattr(args, s) not in (None, False)
        ]
        if len(scenarios) != 1:
            raise UsageError(
                "--reset-offsets needs exactly one of --to-earliest, --to-latest, --to-offset, "
                "--to-datetime, --by-duration, --from-file"
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
    if action == "delete_offsets" and not args.topic:
        raise UsageError("--delete-offsets needs --topic")


# -- actions ---------------------------------------------------------------------------------


def _list(admin: Any, args: argparse.Namespace) -> int:
    states = choices(args.state or [], SHARE_STATES, "state")
    groups = sorted(admin.list_groups(types=["share"], states=states), key=lambda g: g.group_id)
    if args.output == "json":
        dump([{"group": g.group_id, "state": g.group_state} for g in groups])
    elif args.state is None:
        for g in groups:
            print(g.group_id)
    else:
        width = max([15] + [len(g.group_id) for g in groups])
        print(f"{'GROUP':<{width}} STATE")
        for g in groups:
            print(f"{g.group_id:<{width}} {g.group_state or 'Unknown'}")
    return EXIT_OK


def _group_ids(admin: Any, args: argparse.Namespace) -> list[str]:
    if args.all_groups:
        return sorted(g.group_id for g in admin.list_groups(types=["share"]))
    return list(dict.fromkeys(args.group))


def _describe_group(admin: Any, group: str) -> Any:
    from broker.admin.client import KafkaApiError
    from broker.protocol.errors import ErrorCode

    try:
        return admin.describe_share_group(group)
    except KafkaApiError as exc:
        if exc.code == ErrorCode.GROUP_ID_NOT_FOUND:
            raise ToolError(f"Share group '{group}' does not exist.") from None
        raise


def _assignment_string(member: Any) -> str:
    parts = []
    for tp in member.assignment.topic_partitions:
        parts.append(f"{tp.topic_name}:" + ",".join(str(p) for p in sorted(tp.partitions)))
    return ";".join(sorted(parts))


def _describe(admin: Any, args: argparse.Namespace) -> int:
    groups = sorted(_group_ids(admin, args))
    docs: list[dict[str, Any]] = []
    out: list[str] = []
    for group in groups:
        desc = _describe_group(admin, group)
        if args.members:
            _describe_members(args, group, desc, docs, out)
        elif args.state is not None:
            _describe_state(admin, args, group, desc, docs, out)
        else:
            _describe_offsets(admin, args, group, desc, docs, out)
    if args.output == "json":
        dump(docs)
    else:
        for block in out:
            sys.stdout.write(block)
    return EXIT_OK


def _describe_members(
    args: argparse.Namespace, group: str, desc: Any, docs: list[dict[str, Any]], out: list[str]
) -> None:
    """--members: each member, its client and its assignment."""
    members = sorted(desc.members, key=lambda m: m.member_id)
    docs.append(
        {
            "group": group,
            "state": desc.group_state,
            "members": [
                {
                    "member_id": m.member_id,
                    "host": m.client_host,
                    "client_id": m.client_id,
                    "member_epoch": m.member_epoch,
                    "partitions": sum(len(tp.partitions) for tp in m.assignment.topic_partitions),
                    "assignment": {tp.topic_name: sorted(tp.partitions) for tp in m.assignment.topic_partitions},
                }
                for m in members
            ],
        }
    )
    if args.output == "json":
        return
    if desc.group_state == "Empty" or not members:
        print(f"\nShare group '{group}' has no active members.", file=sys.stderr)
        return
    header = ["GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS"]
    if args.verbose:
        header.append("MEMBER-EPOCH")
    header.append("ASSIGNMENT")
    rows: list[Sequence[object]] = [header]
    for m in members:
        row = [
            group,
            m.member_id,
            m.client_host,
            m.client_id,
            sum(len(tp.partitions) for tp in m.assignment.topic_partitions),
        ]
        if args.verbose:
            row.append(m.member_epoch)
        row.append(_assignment_string(m))
        rows.append(row)
    mins = [15, 15, 15, 15, 12] + ([13] if args.verbose else [])
    out.append(table(rows, mins + [0], rstrip=False))


def _describe_state(
    admin: Any, args: argparse.Namespace, group: str, desc: Any, docs: list[dict[str, Any]], out: list[str]
) -> None:
    """--state: the coordinator, the state and the epochs of the group."""
    coordinator = admin.find_coordinator(group)
    coord = f"{coordinator.host}:{coordinator.port}  ({coordinator.node_id})"
    docs.append(
        {
            "group": group,
            "coordinator": {"id": coordinator.node_id, "host": coordinator.host, "port": coordinator.port},
            "state": desc.group_state,
            "group_epoch": desc.group_epoch,
            "assignment_epoch": desc.assignment_epoch,
            "members": len(desc.members),
        }
    )
    if args.output == "json":
        return
    if desc.group_state == "Empty":
        print(f"\nShare group '{group}' has no active members.", file=sys.stderr)
    if args.verbose:
        rows = [
            ["GROUP", "COORDINATOR (ID)", "STATE", "GROUP-EPOCH", "ASSIGNMENT-EPOCH", "#MEMBERS"],
            [group, coord, desc.group_state, desc.group_epoch, desc.assignment_epoch, len(desc.members)],
        ]
        out.append(table(rows, [15, 25, 15, 12, 17, 0], rstrip=False))
    else:
        rows = [
            ["GROUP", "COORDINATOR (ID)", "STATE", "#MEMBERS"],
            [group, coord, desc.group_state, len(desc.members)],
        ]
        out.append(table(rows, [15, 25, 15, 0], rstrip=False))


def _describe_offsets(
    admin: Any, args: argparse.Namespace, group: str, desc: Any, docs: list[dict[str, Any]], out: list[str]
) -> None:
    """The default: the start offset and lag of each partition the group consumes."""
    offsets = admin.describe_share_group_offsets(group)
    parts = []
    for t in offsets.topics:
        for p in t.partitions:
            if p.error_code:
                from broker.admin.client import KafkaApiError

                raise KafkaApiError(
                    p.error_code,
                    p.error_message,
                    f"offsets of {group!r} for {t.topic_name}-{p.partition_index}",
                )
            parts.append((t.topic_name, p.partition_index, p.start_offset, p.leader_epoch, p.lag))
    parts.sort()
    docs.append(
        {
            "group": group,
            "state": desc.group_state,
            "offsets": [
                {
                    "topic": t,
                    "partition": pi,
                    "start_offset": so if so >= 0 else None,
                    "leader_epoch": le if le >= 0 else None,
                    "lag": lag if lag >= 0 else None,
                }
                for t, pi, so, le, lag in parts
            ],
        }
    )
    if args.output == "json":
        return
    if not parts:
        print(f"\nShare group '{group}' has no offset information.")
        return
    show = lambda v: str(v) if v >= 0 else MISSING  # noqa: E731
    if args.verbose:
        rows = [["GROUP", "TOPIC", "PARTITION", "LEADER-EPOCH", "START-OFFSET", "LAG"]]
        rows += [[group, t, pi, show(le), show(so), show(lag)] for t, pi, so, le, lag in parts]
        out.append(table(rows, [15, 15, 10, 13, 13, 0], rstrip=False))
    else:
        rows = [["GROUP", "TOPIC", "PARTITION", "START-OFFSET", "LAG"]]
        rows += [[group, t, pi, show(so), show(lag)] for t, pi, so, le, lag in parts]
        out.append(table(rows, [15, 15, 10, 13, 0], rstrip=False))


def _reset(admin: Any, args: argparse.Namespace) -> int:
    from broker.admin.client import KafkaApiError
    from broker.protocol.errors import ErrorCode

    group = args.group[0]
    try:
        desc = admin.describe_share_group(group)
        state = desc.group_state
    except KafkaApiError as exc:
        if exc.code != ErrorCode.GROUP_ID_NOT_FOUND:
            raise
        state = "Dead"
    if state not in ("Empty", "Dead"):
        raise ToolError(f"Share group '{group}' is not empty.")

    partitions, requested = _reset_partitions(admin, args, group)
    new = _reset_offsets(admin, args, partitions, requested)

    execute = args.execute and not args.dry_run
    if not args.execute and not args.dry_run and not args.export:
        print(
            "WARN: No action will be performed as the --execute option is missing. "
            "Add --dry-run to keep this behaviour explicitly, or --execute to apply the reset.",
            file=sys.stderr,
        )
    if execute and new:
        admin.alter_share_group_offsets(group, new)

    rows_sorted = sorted(new.items())
    if args.export:
        for (t, p), o in rows_sorted:
            print(f"{t},{p},{o}")
        return EXIT_OK
    if args.output == "json":
        dump(
            {
                "group": group,
                "executed": bool(execute),
                "offsets": [{"topic": t, "partition": p, "new_offset": o} for (t, p), o in rows_sorted],
            }
        )
        return EXIT_OK
    if rows_sorted:
        lines = [f"{'GROUP':<30} {'TOPIC':<30} {'PARTITION':<10} {'NEW-OFFSET':<15}".rstrip()]
        lines += [f"{group:<30} {t:<30} {p:<10} {o:<15}".rstrip() for (t, p), o in rows_sorted]
        sys.stdout.write("\n" + "\n".join(lines) + "\n")
    else:
        print(f"\nShare group '{group}' has no offsets to reset.")
    return EXIT_OK


def _reset_partitions(
    admin: Any, args: argparse.Namespace, group: str
) -> tuple[list[tuple[str, int]], dict[tuple[str, int], int]]:
    """The partitions to reset (sorted), and the offsets a --from-file plan asks for."""
    partitions: list[tuple[str, int]] = []
    requested: dict[tuple[str, int], int] = {}
    if args.from_file:
        requested = read_plan(args.from_file, allow_empty=False)
        known = admin.topic_partitions(sorted({t for t, _ in requested}))
        for topic, p in requested:
            if p not in known.get(topic, ()):
                raise ToolError(f"partition {topic}-{p} does not exist")
        partitions = sorted(requested)
    elif args.all_topics:
        offsets = admin.describe_share_group_offsets(group)
        partitions = sorted((t.topic_name, p.partition_index) for t in offsets.topics for p in t.partitions)
    else:
        specs = parse_topics(args.topic)
        known = admin.topic_partitions([t for t, _ in specs])
        for topic, parts in specs:
            for p in parts if parts is not None else known[topic]:
                if p not in known[topic]:
                    raise ToolError(f"partition {topic}-{p} does not exist")
                partitions.append((topic, p))
        partitions = sorted(set(partitions))
    return partitions, requested


def _reset_offsets(
    admin: Any, args: argparse.Namespace, partitions: list[tuple[str, int]], requested: dict[tuple[str, int], int]
) -> dict[tuple[str, int], int]:
    """The new start offset of each partition, within its log."""
    import time

    from broker.admin.client import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP

    new: dict[tuple[str, int], int] = {}
    if partitions:
        earliest = admin.list_offsets(dict.fromkeys(partitions, EARLIEST_TIMESTAMP))
        latest = admin.list_offsets(dict.fromkeys(partitions, LATEST_TIMESTAMP))
        if args.to_earliest:
            new = earliest
        elif args.to_latest:
            new = latest
        elif args.to_offset is not None:
            new = {tp: min(max(args.to_offset, earliest[tp]), latest[tp]) for tp in partitions}
        elif requested:
            # as kafka-share-groups.sh: an offset outside the log moves to its nearer end
            new = {tp: min(max(requested[tp], earliest[tp]), latest[tp]) for tp in partitions}
        else:
            if args.to_datetime is not None:
                ts = parse_datetime_ms(args.to_datetime)
            else:
                ts = int(time.time() * 1000) - parse_duration_ms(args.by_duration)
            found = admin.list_offsets(dict.fromkeys(partitions, ts))
            new = {tp: (off if off >= 0 else latest[tp]) for tp, off in found.items()}
    return new


def _delete(admin: Any, args: argparse.Namespace) -> int:
    listed = {g.group_id: g for g in admin.list_groups(types=["share"])}
    groups = sorted(listed) if args.all_groups else list(dict.fromkeys(args.group))
    failed: dict[str, str] = {}
    to_delete = []
    for group in groups:
        g = listed.get(group)
        if g is None:
            failed[group] = f"Group '{group}' is not a share group."
        elif g.group_state == "Dead":
            failed[group] = f"Share group '{group}' group state is DEAD."
        elif g.group_state != "Empty":
            failed[group] = f"Share group '{group}' is not EMPTY."
        else:
            to_delete.append(group)
    succeeded = []
    if to_delete:
        for group, error in admin.delete_groups(to_delete).items():
            if error is None:
                succeeded.append(group)
            else:
                failed[group] = str(error)
    if args.output == "json":
        dump({"deleted": succeeded, "failed": failed})
        return EXIT_FAILURE if failed else EXIT_OK
    if not failed:
        print("Deletion of requested share groups (" + ", ".join(f"'{g}'" for g in succeeded) + ") was successful.")
        return EXIT_OK
    print("Deletion of some share groups failed:")
    for group, error in failed.items():
        print(f"* Group '{group}' could not be deleted due to: {error}")
    if succeeded:
        print("\nThese share groups were deleted successfully: " + ", ".join(f"'{g}'" for g in succeeded))
    first = next(iter(failed.values()))
    print_error(first if len(failed) == 1 else f"{len(failed)} share groups could not be deleted")
    return EXIT_FAILURE


def _delete_offsets(admin: Any, args: argparse.Namespace) -> int:
    from broker.admin.client import KafkaApiError
    from broker.protocol.errors import ErrorCode

    group = args.group[0]
    topics = list(dict.fromkeys(t for t, _ in parse_topics(args.topic)))
    try:
        results = admin.delete_share_group_offsets(group, topics)
    except KafkaApiError as exc:
        if exc.code == ErrorCode.NON_EMPTY_GROUP:
            raise ToolError(f"Share group '{group}' is not empty.") from None
        if exc.code == ErrorCode.GROUP_ID_NOT_FOUND:
            raise ToolError(f"Share group '{group}' does not exist.") from None
        raise
    failed = {t: e for t, e in results.items() if e is not None}
    if args.output == "json":
        dump(
            {
                "group": group,
                "topics": [
                    {"topic": t, "error": None if e is None else e.code.name} for t, e in sorted(results.items())
                ],
            }
        )
    else:
        rows = [["TOPIC", "STATUS"]]
        rows += [
            [t, "Successful" if e is None else f"Error: {e.broker_message or e.code.message}"]
            for t, e in sorted(results.items())
        ]
        sys.stdout.write(table(rows, [15, 0], rstrip=False))
    if failed:
        t, e = sorted(failed.items())[0]
        print_error(f"offsets of share group '{group}' for topic '{t}' could not be deleted: {e}")
        return EXIT_FAILURE
    return EXIT_OK
