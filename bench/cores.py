"""How busy each CPU core was over a row's timed stretch, from ``/proc/stat``.

``bench.compare`` runs the broker on one core and every client on the other. Over a
row's timed stretch the busy share of each says what set the pace: a client core near
100 % means the clients, the same on every broker, would not have gone faster whatever
the broker did; neither core near 100 % means the two took turns (a request waited for
its answer, an answer for its fsync). Busy is user, nice, system, irq and softirq time;
steal (the hypervisor running something else) is counted apart, as time the core was
not ours.
"""

from __future__ import annotations

from pathlib import Path

# /proc/stat columns after the "cpuN" name, by position.
_USER, _NICE, _SYSTEM, _IDLE, _IOWAIT, _IRQ, _SOFTIRQ, _STEAL = range(8)


def sample(text: str | None = None) -> dict[int, tuple[int, int, int]]:
    """Per core, the (busy, steal, all) clock ticks so far (``text``: a /proc/stat to read instead)."""
    if text is None:
        text = Path("/proc/stat").read_text()
    out: dict[int, tuple[int, int, int]] = {}
    for line in text.splitlines():
        name, _, rest = line.partition(" ")
        if not name.startswith("cpu") or name == "cpu":
            continue
        t = [int(x) for x in rest.split()[:8]]
        t += [0] * (8 - len(t))  # kernels older than steal accounting give fewer columns
        busy = t[_USER] + t[_NICE] + t[_SYSTEM] + t[_IRQ] + t[_SOFTIRQ]
        out[int(name[3:])] = (busy, t[_STEAL], busy + t[_IDLE] + t[_IOWAIT] + t[_STEAL])
    return out


def busy_pct(
    before: dict[int, tuple[int, int, int]], after: dict[int, tuple[int, int, int]]
) -> dict[str, dict[str, int]]:
    """Per core (a string key, as JSON keeps it): the percent of the stretch it was busy
    and the percent stolen. A stretch shorter than one tick gives no figure for its core."""
    out = {}
    for core, (busy, steal, total) in sorted(after.items()):
        if core not in before:
            continue
        b0, s0, t0 = before[core]
        span = total - t0
        if span <= 0:
            continue
        out[str(core)] = {"busy": round(100 * (busy - b0) / span), "steal": round(100 * (steal - s0) / span)}
    return out


class Stretch:
    """The core figures of one timed stretch: ``Stretch()`` at its start, :meth:`end` at its end."""

    def __init__(self) -> None:
        self._start = sample()

    def end(self) -> dict[str, dict[str, int]]:
        return busy_pct(self._start, sample())
