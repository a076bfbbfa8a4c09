"""The offset-reset tools (consumer and share groups): their options (topics with
partitions, ``--from-file`` plans, ``--by-duration`` and ``--to-datetime``), the
offsets each reset scenario sets, and how a plan is shown."""

from __future__ import annotations

import argparse
import csv
import re
import time
from typing import Any

from broker.tools._cli import ToolError, UsageError, table

_DURATION = re.compile(
    r"^(?P<sign>[-+]?)P(?:(?P<d>\d+(?:\.\d+)?)D)?(?:T(?:(?P<h>\d+(?:\.\d+)?)H)?(?:(?P<m>\d+(?:\.\d+)?)M)?(?:(?P<s>\d+(?:\.\d+)?)S)?)?$",
    re.IGNORECASE,
)


def parse_duration_ms(text: str) -> int:
    m = _DURATION.match(text.strip())
    if not m or not any(m.group(k) for k in ("d", "h", "m", "s")):
        raise UsageError(f"invalid --by-duration {text!r}: expected an ISO 8601 duration like PT1H or P1DT2H30M")
    seconds = sum(float(m.group(k) or 0) * f for k, f in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)))
    return int(seconds * 1000) * (-1 if m.group("sign") == "-" else 1)


def parse_datetime_ms(text: str) -> int:
    from datetime import datetime

    try:
        dt = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(
            f"invalid --to-datetime {text!r}: expected ISO 8601 like 2026-01-01T00:00:00.000 or with a zone (Z, +01:00)"
        ) from None
    if dt.tzinfo is None:
        dt = dt.astimezone()  # local time, as Kafka's tool reads a zone-less datetime
    return int(dt.timestamp() * 1000)


def parse_topics(specs: list[str]) -> list[tuple[str, list[int] | None]]:
    """``--topic TOPIC[:P,P...]`` values: each topic with its partitions, None for all."""
    out: list[tuple[str, list[int] | None]] = []
    for spec in specs:
        topic, sep, parts = spec.partition(":")
        if not topic:
            raise UsageError(f"invalid --topic {spec!r}")
        if sep:
            try:
                out.append((topic, [int(p) for p in parts.split(",") if p.strip()]))
            except ValueError:
                raise UsageError(f"invalid partitions in --topic {spec!r}: expected TOPIC:0,1,2") from None
        else:
            out.append((topic, None))
    return out


def read_plan(path: str, *, allow_empty: bool = True) -> dict[tuple[str, int], int]:
    """A --from-file plan: CSV lines topic,partition,offset (what --export prints)."""
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh))
    except OSError as exc:
        raise UsageError(f"cannot read --from-file {path!r}: {exc.strerror}") from None
    plan: dict[tuple[str, int], int] = {}
    for n, row in enumerate(rows, start=1):
        if not row or not "".join(row).strip():
            continue
        if len(row) != 3:
            raise UsageError(f"{path}:{n}: expected topic,partition,offset")
        try:
            plan[(row[0].strip(), int(row[1]))] = int(row[2])
        except ValueError:
            raise UsageError(f"{path}:{n}: partition and offset must be integers") from None
    if not plan and not allow_empty:
        raise UsageError(f"--from-file {path!r} holds no topic,partition,offset line")
    return plan


Plan = dict[tuple[str, int], int]


def add_reset_options(p: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """The options of --reset-offsets that both offset-reset tools have; the group of
    reset scenarios is returned for a tool to add its own."""
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
    scen = p.add_argument_group("reset scenarios (one, with --reset-offsets)")
    scen.add_argument("--to-earliest", action="store_true", help="reset to the earliest offset")
    scen.add_argument("--to-latest", action="store_true", help="reset to the latest offset")
    scen.add_argument("--to-offset", type=int, metavar="OFFSET", help="reset to this offset")
    scen.add_argument(
        "--to-datetime",
        metavar="DATETIME",
        help="reset to the first offset at or after this time, e.g. 2026-01-01T00:00:00.000 "
        "(ISO 8601; local time unless a zone is given)",
    )
    scen.add_argument(
        "--by-duration", metavar="DURATION", help="reset to the offset of this long ago, ISO 8601 duration 'PnDTnHnMnS'"
    )
    scen.add_argument(
        "--from-file",
        metavar="CSV",
        help="reset to the offsets in a CSV file of topic,partition,offset lines (KIP-1323); "
        "--export writes such a file",
    )
    p.add_argument("--dry-run", action="store_true", help="only show the offsets --reset-offsets would set")
    p.add_argument("--execute", action="store_true", help="apply --reset-offsets")
    p.add_argument("--export", action="store_true", help="with --reset-offsets: print the plan as CSV")
    return scen


def check_reset(args: argparse.Namespace, action: str, scenarios: tuple[str, ...]) -> None:
    """The --reset-offsets options of a tool whose reset scenarios are ``scenarios``
    (option dests, in the order the usage message names them); with another
    ``action``, none of them but --topic."""
    if action != "reset_offsets":
        if args.dry_run or args.execute or args.export:
            raise UsageError("--dry-run, --execute and --export only go with --reset-offsets")
        return
    if not args.from_file and bool(args.topic) == bool(args.all_topics):
        raise UsageError("--reset-offsets needs one of --topic or --all-topics")
    if len([s for s in scenarios if getattr(args, s) not in (None, False)]) != 1:
        named = ", ".join("--" + s.replace("_", "-") for s in scenarios)
        raise UsageError(f"--reset-offsets needs exactly one of {named}")
    if args.dry_run and args.execute:
        raise UsageError("--dry-run and --execute are mutually exclusive")
    if args.to_datetime is not None:
        parse_datetime_ms(args.to_datetime)
    if args.by_duration is not None:
        parse_duration_ms(args.by_duration)
    parse_topics(args.topic)


def named_partitions(admin: Any, topics: list[str]) -> list[tuple[str, int]]:
    """The partitions ``--topic TOPIC[:P,P...]`` values name, sorted, each once;
    ToolError for one that does not exist."""
    specs = parse_topics(topics)
    known = admin.topic_partitions([t for t, _ in specs])
    wanted = set()
    for topic, parts in specs:
        for p in parts if parts is not None else known[topic]:
            if p not in known[topic]:
                raise ToolError(f"partition {topic}-{p} does not exist")
            wanted.add((topic, p))
    return sorted(wanted)


def reset_targets(
    admin: Any,
    args: argparse.Namespace,
    partitions: list[tuple[str, int]],
    requested: Plan,
    committed: Plan | None = None,
) -> Plan:
    """The offset each of ``partitions`` resets to under the scenario ``args`` names,
    kept within the partition's log. ``requested`` is the --from-file plan;
    ``committed`` the group's current offsets (for --to-current and --shift-by, which
    only the consumer tool offers); a --to-datetime or --by-duration time with no
    record after it resets to the end."""
    from broker.admin.client import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP

    if not partitions:
        return {}
    earliest = admin.list_offsets(dict.fromkeys(partitions, EARLIEST_TIMESTAMP))
    latest = admin.list_offsets(dict.fromkeys(partitions, LATEST_TIMESTAMP))
    current = committed or {}

    def clamp(tp: tuple[str, int], offset: int) -> int:
        return min(max(offset, earliest[tp]), latest[tp])

    if args.to_earliest:
        return dict(earliest)
    if args.to_latest:
        return dict(latest)
    if getattr(args, "to_current", False):
        return {tp: current.get(tp, latest[tp]) for tp in partitions}
    if args.to_offset is not None:
        return {tp: clamp(tp, args.to_offset) for tp in partitions}
    if getattr(args, "shift_by", None) is not None:
        return {tp: clamp(tp, current.get(tp, latest[tp]) + args.shift_by) for tp in partitions}
    if args.from_file:
        # as Kafka's tools: an offset outside the log moves to its nearer end
        return {tp: clamp(tp, offset) for tp, offset in requested.items()}
    if args.to_datetime is not None:
        ts = parse_datetime_ms(args.to_datetime)
    else:
        ts = int(time.time() * 1000) - parse_duration_ms(args.by_duration)
    found = admin.list_offsets(dict.fromkeys(partitions, ts))
    return {tp: (off if off >= 0 else latest[tp]) for tp, off in found.items()}


def plan_doc(group_id: str, executed: bool, plan: Plan) -> dict[str, Any]:
    """A reset plan as ``--output json`` shows it."""
    offsets = [{"topic": t, "partition": p, "new_offset": o} for (t, p), o in sorted(plan.items())]
    return {"group": group_id, "executed": executed, "offsets": offsets}


def export_plan(plan: Plan) -> None:
    """A reset plan as ``--export`` prints it: the CSV lines --from-file reads."""
    for (t, p), o in sorted(plan.items()):
        print(f"{t},{p},{o}")


def plan_table(kind: str, group_id: str, plan: Plan) -> str:
    """A reset plan as the tools print it (``kind``: "Consumer", "Share")."""
    if not plan:
        return f"\n{kind} group '{group_id}' has no offsets to reset.\n"
    rows: list[list[object]] = [["GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"]]
    rows += [[group_id, t, p, o] for (t, p), o in sorted(plan.items())]
    return table(rows, [30, 30, 10, 0])
