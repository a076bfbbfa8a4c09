"""Values over time for the charts: lag of each share group, acknowledgements by type,
records in per topic. Kept in memory by the console (a ring per series), sampled by
:class:`~broker.ui.gateway.Gateway`'s sampler, so a chart shows what happened since
the console started (a restart starts the charts afresh).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

# 360 points: 30 minutes at the default 5 s refresh, about 6 KiB per series.
POINTS = 360
# Series kept at most (one per share group and metric); past this the oldest-updated go,
# so a cluster with many short-lived groups cannot grow the console's memory unbounded.
MAX_SERIES = 5000


@dataclass(slots=True)
class Series:
    points: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=POINTS))

    def add(self, t: float, v: float) -> None:
        self.points.append((t, v))

    def rates(self) -> list[tuple[float, float]]:
        """Per-second increase between successive points of a counter (a reset counts from 0)."""
        out = []
        pts = list(self.points)
        for (t0, v0), (t1, v1) in zip(pts, pts[1:]):
            if t1 > t0:
                out.append((t1, max(0.0, (v1 - v0) if v1 >= v0 else v1) / (t1 - t0)))
        return out


class History:
    def __init__(self) -> None:
        self._series: dict[str, Series] = {}

    def add(self, key: str, t: float, v: float) -> None:
        s = self._series.get(key)
        if s is None:
            if len(self._series) >= MAX_SERIES:
                oldest = min(self._series, key=lambda k: self._series[k].points[-1][0] if self._series[k].points else 0)
                del self._series[oldest]
            s = self._series[key] = Series()
        s.add(t, v)

    def get(self, key: str) -> Series | None:
        return self._series.get(key)

    def last_rate(self, key: str) -> float | None:
        s = self._series.get(key)
        if s is None:
            return None
        r = s.rates()
        return r[-1][1] if r else None
