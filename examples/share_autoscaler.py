"""Scale a share group's consumers on its lag, read from sharebroker's /metrics.

Share groups let any number of consumers read one partition, so a lagging group
can simply get more consumers. This loop scrapes
``sharebroker_share_partition_lag{group=...}`` (KIP-1226 lag, summed over the
group's partitions) and starts one more consumer whenever the lag is above
``--threshold`` and has grown over the last ``--window`` scrapes, up to ``--max``.

As a script it starts each consumer as a subprocess running ``--command``
(``{group}`` is replaced by the group id)::

    python examples/share_autoscaler.py --metrics http://127.0.0.1:9404/metrics \\
        --group orders --threshold 1000 --max 8 --command "python worker.py {group}"

Import :class:`Autoscaler` to start consumers some other way (the tests start
confluent-kafka ShareConsumer threads).
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import time
import urllib.request
from collections import deque
from collections.abc import Callable

_SAMPLE = re.compile(r"^sharebroker_share_partition_lag\{([^}]*)\} (\S+)$")
_LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def group_lag(metrics_text: str, group: str) -> int:
    """The group's lag over all its partitions loaded on this broker."""
    total = 0
    for line in metrics_text.splitlines():
        m = _SAMPLE.match(line)
        if m is None:
            continue
        labels = dict(_LABEL.findall(m.group(1)))
        if labels.get("group") == group:
            total += max(0, int(float(m.group(2))))
    return total


class Autoscaler:
    """One decision per :meth:`step`: add a consumer while the lag is high and growing."""

    def __init__(
        self,
        metrics_url: str,
        group: str,
        start_consumer: Callable[[int], None],
        *,
        threshold: int,
        max_consumers: int,
        window: int = 3,
        initial: int = 1,
    ) -> None:
        self.metrics_url = metrics_url
        self.group = group
        self.start_consumer = start_consumer
        self.threshold = threshold
        self.max_consumers = max_consumers
        self.consumers = 0
        self.history: deque[int] = deque(maxlen=max(2, window))
        self.decisions: list[tuple[float, int, int]] = []  # (time, lag, consumers after)
        for _ in range(initial):
            self._add()

    def _add(self) -> None:
        self.start_consumer(self.consumers)
        self.consumers += 1

    def lag(self) -> int:
        with urllib.request.urlopen(self.metrics_url, timeout=10) as resp:
            return group_lag(resp.read().decode(), self.group)

    def step(self) -> int:
        lag = self.lag()
        self.history.append(lag)
        growing = len(self.history) == self.history.maxlen and self.history[-1] > self.history[0]
        if lag > self.threshold and growing and self.consumers < self.max_consumers:
            self._add()
            self.history.clear()  # give the new consumer a window before judging again
        self.decisions.append((time.monotonic(), lag, self.consumers))
        return lag


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--metrics", required=True, help="sharebroker /metrics URL")
    ap.add_argument("--group", required=True)
    ap.add_argument("--command", required=True, help="consumer command; {group} is replaced")
    ap.add_argument("--threshold", type=int, default=1000)
    ap.add_argument("--max", type=int, default=8)
    ap.add_argument("--interval", type=float, default=5.0, help="seconds between scrapes")
    ap.add_argument("--window", type=int, default=3)
    ap.add_argument("--duration", type=float, default=3600.0, help="stop after this many seconds")
    args = ap.parse_args()
    procs: list[subprocess.Popen] = []

    def start(_: int) -> None:
        procs.append(subprocess.Popen(shlex.split(args.command.format(group=args.group))))

    scaler = Autoscaler(args.metrics, args.group, start, threshold=args.threshold, max_consumers=args.max)
    deadline = time.monotonic() + args.duration
    try:
        while time.monotonic() < deadline:
            lag = scaler.step()
            print(f"lag={lag} consumers={scaler.consumers}", flush=True)
            time.sleep(args.interval)
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(10)


if __name__ == "__main__":
    main()
