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
    dump,
    print_error,
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
    report_deletions,
    serve,
)
from broker.tools._offsets import (
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

SHARE_STATES = ("Empty", "Stable", "Dead")
RESET_SCENARIOS = ("to_earliest", "to_latest", "to_offset", "to_datetime", "by_duration", "from_file")
MISSING = "-"

DESCRIPTION = """\
List, describe, reset offsets of and delete share groups (KIP-932), like Kafka's
kafka-share-groups.sh. Exactly one action is required: --list, --describe,
--reset-offsets, --delete or --delete-offsets."""


ACTIONS = {
    "list": "list all share groups",
    "describe": "describe share group(s): offsets (default), --members or --state",
    "reset_offsets": "reset the start offsets of a share group that has no members",
    "delete": "delete share group(s) that have no members",
    "delete_offsets": "delete a share group's offsets for the given topics",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_group_tool(
        subparsers,
        "share-groups",
        "list, describe, reset and delete share groups",
        DESCRIPTION,
        ACTIONS,
        kind="share",
        states=SHARE_STATES,
        offsets="show start offsets and lag (default)",
    )
    add_reset_options(p)
    serve(p, _check_args, _ACT)


# -- helpers ---------------------------------------------------------------------------------


# -- entry point -----------------------------------------------------------------------------


def _check_args(args: argparse.Namespace) -> None:
    action = one_action(
        args,
        ACTIONS,
        "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets.",
    )
    if action == "list":
        check_list(args, SHARE_STATES)
        return
    if action in ("describe", "delete"):
        if not args.group and not args.all_groups:
            raise UsageError(f"--{action} needs --group GROUP or --all-groups")
        if args.group and args.all_groups:
            raise UsageError("--group and --all-groups are mutually exclusive")
    check_views(args, action)
    if action in ("reset_offsets", "delete_offsets"):
        if len(args.group) != 1 or args.all_groups:
            raise UsageError(f"--{action.replace('_', '-')} needs exactly one --group")
    check_reset(args, action, RESET_SCENARIOS)
    if action == "delete_offsets" and not args.topic:
        raise UsageError("--delete-offsets needs --topic")


# -- actions ---------------------------------------------------------------------------------


def _assignment_string(member: Any) -> str:
    parts = []
    for tp in member.assignment.topic_partitions:
        parts.append(f"{tp.topic_name}:" + ",".join(str(p) for p in sorted(tp.partitions)))
    return ";".join(sorted(parts))


def _describe(admin: Any, args: argparse.Namespace) -> int:
    groups = sorted(chosen_groups(admin, args, "share"))
    docs: list[dict[str, Any]] = []
    out: list[str] = []
    for group in groups:
        with group_refusals("Share", group):
            desc = admin.describe_share_group(group)
        if args.members:
            _describe_members(args, group, desc, docs, out)
        elif args.state is not None:
            _describe_state(admin, args, group, desc, docs, out)
        else:
            _describe_offsets(admin, args, group, desc, docs, out)
    print_described(args.output, docs, out)
    return EXIT_OK


def _describe_members(
    args: argparse.Namespace, group: str, desc: Any, docs: list[dict[str, Any]], out: list[str]
) -> None:
    """--members: each member, its client and its assignment."""
    from broker.admin.client import member_assignment

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
                    "assignment": member_assignment(m.assignment),
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
    coordinator, coord = coordinator_of(admin, group, gap="  ")
    docs.append(
        {
            "group": group,
            "coordinator": coordinator,
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
    new = reset_targets(admin, args, partitions, requested)

    execute = args.execute and not args.dry_run
    if not args.execute and not args.dry_run and not args.export:
        print(
            "WARN: No action will be performed as the --execute option is missing. "
            "Add --dry-run to keep this behaviour explicitly, or --execute to apply the reset.",
            file=sys.stderr,
        )
    if execute and new:
        admin.alter_share_group_offsets(group, new)

    if args.export:
        export_plan(new)
    elif args.output == "json":
        dump(plan_doc(group, bool(execute), new))
    else:
        sys.stdout.write(plan_table("Share", group, new))
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
        partitions = named_partitions(admin, args.topic)
    return partitions, requested


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
    return report_deletions("share", args.output, succeeded, failed)


def _delete_offsets(admin: Any, args: argparse.Namespace) -> int:
    group = args.group[0]
    topics = list(dict.fromkeys(t for t, _ in parse_topics(args.topic)))
    with group_refusals("Share", group):
        results = admin.delete_share_group_offsets(group, topics)
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


_ACT = {
    "list": list_action("share", SHARE_STATES),
    "describe": _describe,
    "reset_offsets": _reset,
    "delete": _delete,
    "delete_offsets": _delete_offsets,
}
