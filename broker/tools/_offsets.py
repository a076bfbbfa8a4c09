"""Options of the offset-reset tools (consumer and share groups): topics with
partitions, ``--from-file`` plans, ``--by-duration`` and ``--to-datetime``."""

from __future__ import annotations

import csv
import re

from broker.tools._cli import UsageError

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
