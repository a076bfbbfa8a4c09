"""Charts drawn on the server as inline SVG: the in-flight window map, the delivery-count
histogram and line charts of values over time. No chart library runs in the browser;
a refresh swaps the SVG with the rest of the page section.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

from broker.ui.data.share import StateBatch

# Colours per persisted delivery state; "none" is a range with no persisted state yet.
STATE_COLOURS = {
    "available": "#3b82f6",
    "acquired": "#f59e0b",
    "acknowledged": "#22c55e",
    "archiving": "#a855f7",
    "archived": "#6b7280",
    "none": "#e5e7eb",
}
SERIES_COLOURS = ("#2563eb", "#16a34a", "#dc2626", "#9333ea", "#ea580c", "#0891b2")
# The map draws at most this many segments; past it, neighbours are merged (a window
# holds at most group.share.partition.max.record.locks offsets, 10,000 at Kafka's bound).
MAX_SEGMENTS = 400


def inflight_map(start: int, end: int, batches: Sequence[StateBatch], width: int = 800, height: int = 34) -> Markup:
    """The window [start, end) as one bar: each persisted state batch in its state's colour,
    with its delivery count; ranges without persisted state light grey."""
    if end <= start:
        return Markup('<p class="muted">The in-flight window is empty.</p>')
    span = end - start

    def x(offset: int) -> float:
        return (offset - start) / span * width

    parts = [
        f'<svg class="inflight" viewBox="0 0 {width} {height + 16}" width="100%" role="img" '
        f'aria-label="in-flight window {start} to {end - 1}">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="{STATE_COLOURS["none"]}"><title>no persisted state</title></rect>',
    ]
    shown = sorted((b for b in batches if b.last >= start and b.first < end), key=lambda b: b.first)
    for b in shown[:MAX_SEGMENTS]:
        x0, x1 = x(max(b.first, start)), x(min(b.last, end - 1) + 1)
        title = f"{b.first}-{b.last}: {b.state_name}, delivery count {b.delivery_count}"
        parts.append(
            f'<rect class="seg seg-{b.state_name}" x="{x0:.2f}" y="0" width="{max(x1 - x0, 0.8):.2f}" height="{height}" '
            f'fill="{STATE_COLOURS.get(b.state_name, "#000")}" data-first="{b.first}" data-last="{b.last}" '
            f'data-state="{b.state_name}" data-count="{b.delivery_count}"><title>{escape(title)}</title></rect>'
        )
        if x1 - x0 > 18 and b.delivery_count > 0:
            parts.append(
                f'<text x="{(x0 + x1) / 2:.1f}" y="{height / 2 + 4:.1f}" text-anchor="middle" class="count">{b.delivery_count}</text>'
            )
    parts.append(f'<text x="0" y="{height + 13}" class="axis">{start}</text>')
    parts.append(f'<text x="{width}" y="{height + 13}" text-anchor="end" class="axis">{end - 1}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def histogram(counts: dict[int, dict[str, int]], width: int = 420, height: int = 160) -> Markup:
    """Records per delivery count, stacked by state."""
    if not counts:
        return Markup('<p class="muted">No delivered records in the persisted windows.</p>')
    top = max(sum(v.values()) for v in counts.values())
    n = len(counts)
    # One bar per delivery count (1..share.delivery.count.limit, 10 at most in Kafka), at most 64 px wide.
    bar = min(width / n, 64.0)
    parts = [
        f'<svg class="histogram" viewBox="0 0 {width} {height + 18}" width="100%" role="img" aria-label="delivery counts">'
    ]
    for i, (dc, by_state) in enumerate(counts.items()):
        y = float(height)
        for state, c in sorted(by_state.items()):
            h = c / top * (height - 14)
            y -= h
            parts.append(
                f'<rect class="bar" x="{i * bar + 4:.1f}" y="{y:.1f}" width="{bar - 8:.1f}" height="{h:.1f}" '
                f'fill="{STATE_COLOURS.get(state, "#000")}" data-count="{dc}" data-state="{state}" data-records="{c}">'
                f"<title>delivery count {dc}: {c} {escape(state)}</title></rect>"
            )
        parts.append(
            f'<text x="{i * bar + bar / 2:.1f}" y="{y - 3:.1f}" text-anchor="middle" class="axis">{sum(by_state.values())}</text>'
        )
        parts.append(
            f'<text x="{i * bar + bar / 2:.1f}" y="{height + 14}" text-anchor="middle" class="axis">{dc}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def line_chart(
    series: Mapping[str, Sequence[tuple[float, float]]], unit: str = "", width: int = 420, height: int = 140
) -> Markup:
    """One line per named series of (unix time, value); the newest value in the legend."""
    pts = [p for s in series.values() for p in s]
    if len(pts) < 2:
        return Markup('<p class="muted">Collecting: the chart starts after two refreshes.</p>')
    t0, t1 = min(t for t, _ in pts), max(t for t, _ in pts)
    top = max(max(v for _, v in pts), 1e-9)
    span = max(t1 - t0, 1e-9)
    parts = [f'<svg class="line" viewBox="0 0 {width} {height + 30}" width="100%" role="img">']
    parts.append(f'<line x1="0" y1="{height}" x2="{width}" y2="{height}" class="grid"/>')
    legend = []
    for i, (name, s) in enumerate(series.items()):
        colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
        if s:
            path = " ".join(f"{(t - t0) / span * width:.1f},{height - v / top * (height - 6):.1f}" for t, v in s)
            parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.8" points="{path}"/>')
            legend.append((name, colour, s[-1][1]))
    parts.append(f'<text x="2" y="10" class="axis">{_fmt(top)}{escape(unit)}</text>')
    ago = time.strftime("%H:%M:%S", time.localtime(t0))
    parts.append(f'<text x="0" y="{height + 12}" class="axis">{ago}</text>')
    parts.append(f'<text x="{width}" y="{height + 12}" text-anchor="end" class="axis">now</text>')
    x = 0
    for name, colour, last in legend:
        label = f"{name} {_fmt(last)}{unit}"
        parts.append(f'<rect x="{x}" y="{height + 19}" width="10" height="8" fill="{colour}"/>')
        parts.append(f'<text x="{x + 13}" y="{height + 27}" class="axis">{escape(label)}</text>')
        x += 20 + 6 * len(label)
    parts.append("</svg>")
    return Markup("".join(parts))


def _fmt(v: float) -> str:
    if abs(v) >= 100 or v == int(v):
        return f"{v:,.0f}"
    return f"{v:.2f}"
