"""What the group tools (consumer, share and streams groups) share: their common options,
the checks on them, dispatch to the one action chosen, and the answers they word alike."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

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
from broker.tools._security import add_command_config

if TYPE_CHECKING:
    from broker.admin.client import AdminClient

Action = Callable[["AdminClient", argparse.Namespace], int]
# The --describe views a group tool offers besides the default (--offsets).
VIEWS = ("members", "state", "offsets")


def add_group_tool(
    subparsers: argparse._SubParsersAction,
    name: str,
    summary: str,
    description: str,
    actions: Mapping[str, str],
    *,
    kind: str,
    states: Sequence[str],
    members: str = "show the members",
    offsets: str = "show the offsets and lag (default)",
) -> argparse.ArgumentParser:
    """The ``name`` subcommand (``summary``: its one-line help) of a tool on groups of ``kind``, with its ``actions``
    (option dest: help; exactly one is required) and the options every group tool
    has: the connection, --group/--all-groups, the --describe views (``members``,
    ``offsets``: their help), --state (``states`` may be listed), --verbose,
    --timeout and --output."""
    p = subparsers.add_parser(
        name,
        help=summary,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_bootstrap_server(p)
    add_command_config(p)
    group = p.add_argument_group("actions (exactly one)")
    for dest, help_text in actions.items():
        group.add_argument("--" + dest.replace("_", "-"), action="store_true", help=help_text)
    p.add_argument("--group", action="append", default=[], metavar="GROUP", help=f"the {kind} group id (repeatable)")
    p.add_argument("--all-groups", action="store_true", help=f"apply to all {kind} groups")
    p.add_argument("--members", action="store_true", help=f"with --describe: {members}")
    p.add_argument("--offsets", action="store_true", help=f"with --describe: {offsets}")
    p.add_argument(
        "--state",
        nargs="*",
        metavar="STATE",
        help="with --describe: show the group state; with --list: show states, optionally only these "
        f"({', '.join(states)}; also comma-separated)",
    )
    p.add_argument("--verbose", action="store_true", help="with --describe: more columns")
    p.add_argument("--timeout", type=int, default=30000, metavar="MS", help="timeout in ms per request (default 30000)")
    p.add_argument("--output", choices=("table", "json"), default="table", help="output format (default table)")
    return p


def serve(
    p: argparse.ArgumentParser, check: Callable[[argparse.Namespace], None], actions: Mapping[str, Action]
) -> None:
    """Make ``p`` run its tool: ``check`` the options, then run the one of ``actions`` they name."""
    p.set_defaults(func=lambda args: run_group_tool(p, args, check, dispatch(actions)))


def one_action(args: argparse.Namespace, actions: Iterable[str], message: str) -> str:
    """The one action (option dest) the options name, or UsageError ``message``."""
    chosen = [a for a in actions if getattr(args, a)]
    if len(chosen) != 1:
        raise UsageError(message)
    return chosen[0]


def dispatch(actions: Mapping[str, Action]) -> Action:
    """Run the action the options name (the checks made sure there is exactly one)."""

    def act(admin: AdminClient, args: argparse.Namespace) -> int:
        return next(fn for dest, fn in actions.items() if getattr(args, dest))(admin, args)

    return act


def check_list(args: argparse.Namespace, states: tuple[str, ...]) -> None:
    """--list: no group named, and only known states."""
    if args.group or args.all_groups:
        raise UsageError("--list does not take --group or --all-groups")
    choices(args.state or [], states, "state")


def check_views(args: argparse.Namespace, action: str, views: Sequence[str] = VIEWS) -> None:
    """--describe: at most one of its ``views``, and --state without values; --state
    goes with no other action than --list and --describe."""
    if action != "describe":
        if args.state is not None and action != "list":
            raise UsageError("--state only goes with --list or --describe")
        return
    chosen = [v for v in views if (args.state is not None if v == "state" else getattr(args, v))]
    if len(chosen) > 1:
        raise UsageError("--describe takes at most one of " + ", ".join(f"--{v}" for v in views))
    if args.state:
        raise UsageError("--describe --state takes no values")


def chosen_groups(admin: AdminClient, args: argparse.Namespace, group_type: str) -> list[str]:
    """The groups ``--group`` names (each once, in order), or with ``--all-groups``
    every group of ``group_type``, sorted."""
    if args.all_groups:
        return sorted(g.group_id for g in admin.list_groups(types=[group_type]))
    return list(dict.fromkeys(args.group))


def list_action(group_type: str, states: tuple[str, ...]) -> Action:
    """``--list`` for a tool on groups of one ``group_type`` (whose ``states`` --state may name)."""

    def act(admin: AdminClient, args: argparse.Namespace) -> int:
        chosen = choices(args.state or [], states, "state")
        groups = sorted(admin.list_groups(types=[group_type], states=chosen), key=lambda g: g.group_id)
        print_group_list(groups, args.state is not None, args.output)
        return EXIT_OK

    return act


def print_group_list(groups: Sequence[Any], show_state: bool, output: str) -> None:
    """``--list``: the ids, with ``--state`` a GROUP/STATE table, or JSON."""
    if output == "json":
        dump([{"group": g.group_id, "state": g.group_state} for g in groups])
    elif not show_state:
        for g in groups:
            print(g.group_id)
    else:
        rows = [["GROUP", "STATE"]] + [[g.group_id, g.group_state or "Unknown"] for g in groups]
        sys.stdout.write(table(rows, [15, 0]).lstrip("\n"))


def print_described(output: str, docs: list[dict[str, Any]], blocks: Sequence[str]) -> None:
    """``--describe``'s answer: the groups' JSON documents, or their tables."""
    if output == "json":
        dump(docs)
    else:
        for block in blocks:
            sys.stdout.write(block)


def coordinator_of(admin: AdminClient, group_id: str, gap: str = " ") -> tuple[dict[str, Any], str]:
    """The group's coordinator for ``--describe --state``: its JSON form and its
    ``host:port (id)`` column (Kafka's share tool puts two blanks before the id)."""
    c = admin.find_coordinator(group_id)
    return {"id": c.node_id, "host": c.host, "port": c.port}, f"{c.host}:{c.port}{gap}({c.node_id})"


@contextmanager
def group_refusals(kind: str, group_id: str) -> Iterator[None]:
    """Kafka's group tools' words (``kind``: "Consumer", "Share", "Streams") for a request
    refused because the group does not exist or is not empty; other errors pass."""
    from broker.admin.client import KafkaApiError
    from broker.protocol.errors import ErrorCode

    try:
        yield
    except KafkaApiError as exc:
        if exc.code == ErrorCode.GROUP_ID_NOT_FOUND:
            raise ToolError(f"{kind} group '{group_id}' does not exist.") from None
        if exc.code == ErrorCode.NON_EMPTY_GROUP:
            raise ToolError(f"{kind} group '{group_id}' is not empty.") from None
        raise


def report_deletions(
    kind: str, output: str, succeeded: list[str], failed: dict[str, Any], reason: Callable[[Any], str] = str
) -> int:
    """``--delete``'s answer, as Kafka's group tools word it (``kind``: "consumer",
    "share"): JSON, or the success line, or each failure with its ``reason``."""
    if output == "json":
        dump({"deleted": succeeded, "failed": {g: str(e) for g, e in failed.items()}})
        return EXIT_FAILURE if failed else EXIT_OK
    if not failed:
        print(f"Deletion of requested {kind} groups (" + ", ".join(f"'{g}'" for g in succeeded) + ") was successful.")
        return EXIT_OK
    print(f"Deletion of some {kind} groups failed:")
    for group, error in failed.items():
        print(f"* Group '{group}' could not be deleted due to: {reason(error)}")
    if succeeded:
        print(f"\nThese {kind} groups were deleted successfully: " + ", ".join(f"'{g}'" for g in succeeded))
    first = next(iter(failed.values()))
    print_error(reason(first) if len(failed) == 1 else f"{len(failed)} {kind} groups could not be deleted")
    return EXIT_FAILURE
