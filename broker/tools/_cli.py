"""What the operator tools share: exit codes, their two errors, table and JSON output,
and running an action with an admin client.

Every tool ends the same way: 0 on success, 1 when the operation failed (one
``Error: ...`` line on stderr), 2 on bad usage (the usage line and the reason),
130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from broker.tools._security import add_command_config, client_security

if TYPE_CHECKING:
    from broker.admin.client import AdminClient

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
# What a shell reports for a process ended by SIGINT.
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """The options do not make sense together: usage line, reason, exit 2."""


class ToolError(Exception):
    """The operation failed: ``Error: <message>``, exit 1."""


def print_error(message: str) -> None:
    print(f"Error: {message}", file=sys.stderr)


def usage(parser: argparse.ArgumentParser, exc: Exception) -> int:
    parser.print_usage(sys.stderr)
    print(f"{parser.prog}: error: {exc}", file=sys.stderr)
    return EXIT_USAGE


def add_bootstrap_server(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--bootstrap-server", required=True, metavar="HOST:PORT", help="REQUIRED: the server(s) to connect to"
    )


def add_tool_parser(
    subparsers: argparse._SubParsersAction,
    name: str,
    *,
    help: str,
    description: str,
    command_config: bool = True,
    actions: Mapping[str, str] | None = None,
) -> argparse.ArgumentParser:
    """The sub-command ``name`` of a tool that talks to a broker: its ``--bootstrap-server``,
    (unless ``command_config`` is false) its ``--command-config`` and, given ``actions``
    (option dest: help), those flags, of which exactly one is required."""
    p: argparse.ArgumentParser = subparsers.add_parser(name, help=help, description=description)
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT", help="broker to connect to")
    if command_config:
        add_command_config(p)
    if actions:
        action = p.add_mutually_exclusive_group(required=True)
        for dest, help_text in actions.items():
            action.add_argument("--" + dest.replace("_", "-"), action="store_true", help=help_text)
    return p


def table(rows: Sequence[Sequence[object]], widths_min: list[int], *, rstrip: bool = True) -> str:
    """Left-aligned columns like Kafka's ``%-Ns``: each column at least its minimum width,
    the last one not padded (``rstrip``: no trailing blanks where the last cell is empty)."""
    widths = list(widths_min)
    for row in rows:
        for i, cell in enumerate(row[:-1]):
            widths[i] = max(widths[i], len(str(cell)))
    lines = []
    for row in rows:
        line = " ".join([str(c).ljust(widths[i]) for i, c in enumerate(row[:-1])] + [str(row[-1])])
        lines.append(line.rstrip() if rstrip else line)
    return "\n" + "\n".join(lines) + "\n"


def dump(obj: Any) -> None:
    print(json.dumps(obj, indent=2))


def choices(values: list[str], valid: tuple[str, ...], what: str) -> list[str]:
    """``values`` (each possibly comma-separated, any case) as the spellings in ``valid``."""
    by_lower = {v.lower(): v for v in valid}
    out = []
    for value in values:
        for part in value.split(","):
            part = part.strip()
            if not part:
                continue
            found = by_lower.get(part.lower())
            if found is None:
                raise UsageError(f"Invalid {what} list '{','.join(values)}'. Valid {what}s are: {', '.join(valid)}")
            out.append(found)
    return out


def run_group_tool(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    check: Callable[[argparse.Namespace], None],
    act: Callable[[AdminClient, argparse.Namespace], int],
) -> int:
    """The group tools' main: check the options, then ``act`` with an admin client
    (``--bootstrap-server``, ``--timeout`` ms, ``--command-config``)."""
    try:
        check(args)
    except UsageError as exc:
        return usage(parser, exc)

    from broker.admin.client import AdminClient, AdminError

    try:
        with AdminClient(args.bootstrap_server, timeout=args.timeout / 1000, security=client_security(args)) as admin:
            return act(admin, args)
    except UsageError as exc:
        return usage(parser, exc)
    except (ToolError, AdminError, ValueError) as exc:
        print_error(str(exc))
        return EXIT_FAILURE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


def run_with_admin(
    args: argparse.Namespace,
    act: Callable[[AdminClient], int],
    *,
    client_id: str,
    timeout_s: float,
    check: Callable[[], None] = lambda: None,
) -> int:
    """The other tools' main: ``check()`` then ``act`` with an admin client
    (``--bootstrap-server``, ``--command-config``); a ValueError from either, or a
    failed request, is one ``Error:`` line and exit 1."""
    from broker.admin.client import AdminClient, AdminError

    try:
        security = client_security(args)
        check()
        with AdminClient(args.bootstrap_server, timeout=timeout_s, client_id=client_id, security=security) as admin:
            return act(admin)
    except (AdminError, ValueError) as exc:
        print_error(str(exc))
        return EXIT_FAILURE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
