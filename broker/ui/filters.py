"""Jinja filters and tests: numbers, sizes, times, record values as text, JSON or hex."""

from __future__ import annotations

import json
import time
from typing import Any

from jinja2 import Environment
from markupsafe import Markup, escape

from broker.ui.data import Unavailable

# A value shown in the message browser is cut here (the record itself may be 1 MiB).
MAX_SHOWN_BYTES = 16 << 10


def unavailable(value: Any) -> Markup:
    """A value the cluster does not give: the word, with the reason on hover."""
    reason = value.reason if isinstance(value, Unavailable) else "not given"
    return Markup('<span class="unavailable" title="{0}">unavailable</span>').format(reason)


def num(value: Any) -> Any:
    if isinstance(value, Unavailable):
        return unavailable(value)
    if value is None:
        return Markup('<span class="muted">-</span>')
    if isinstance(value, float):
        return f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return value


def size(value: Any) -> Any:
    if isinstance(value, Unavailable):
        return unavailable(value)
    if value is None:
        return "-"
    n = float(value)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024
    return str(value)


def when(ms: Any) -> str:
    if not isinstance(ms, int) or ms < 0:
        return "-"
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}Z"


def duration(seconds: Any) -> str:
    if seconds is None:
        return "-"
    s = int(seconds)
    if s < 120:
        return f"{s} s"
    if s < 7200:
        return f"{s // 60} min"
    return f"{s // 3600} h {s % 3600 // 60} min"


def record_value(data: bytes | None, fmt: str = "text") -> Markup:
    """A key or value: null, or its bytes as text, indented JSON or hex (cut at MAX_SHOWN_BYTES)."""
    if data is None:
        return Markup('<span class="muted">null</span>')
    cut = len(data) > MAX_SHOWN_BYTES
    shown = data[:MAX_SHOWN_BYTES]
    if fmt == "hex":
        text = shown.hex(" ")
    elif fmt == "json":
        try:
            text = json.dumps(json.loads(data), indent=2, ensure_ascii=False)
            cut = False
        except (ValueError, UnicodeDecodeError):
            text = shown.decode("utf-8", "replace")
            return Markup('<span class="not-json" title="not JSON: shown as text">{0}</span>').format(text)
    else:
        text = shown.decode("utf-8", "replace")
    out = escape(text)
    if cut:
        out += Markup(f' <span class="muted">... ({len(data):,} bytes in all)</span>')
    return Markup(out)


def is_unavailable(value: Any) -> bool:
    return isinstance(value, Unavailable)


def install(env: Environment) -> None:
    env.filters.update(
        num=num, size=size, when=when, duration=duration, record_value=record_value, unavailable=unavailable
    )
    env.tests["unavailable"] = is_unavailable
    env.globals["now"] = lambda: time.strftime("%H:%M:%S")
