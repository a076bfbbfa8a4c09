"""What the console shows, read from a cluster over the Kafka protocol alone.

Each function takes a connected :class:`~broker.admin.client.AdminClient` and returns
plain dataclasses for the templates. They are synchronous (the admin client is) and
run in worker threads (:mod:`broker.ui.gateway`). Requests are batched wherever the
protocol allows: one request per broker or per coordinator, never one per partition
or per group when a batched form exists. A value the cluster cannot give is an
:class:`Unavailable` carrying the reason, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Unavailable:
    """A value this cluster does not give the console, and why."""

    reason: str

    def __str__(self) -> str:
        return "unavailable"


# Placeholders until a value is read (frozen, so shared defaults are safe).
NOT_READ = Unavailable("not read")
NO_METRICS = Unavailable("needs the broker's metrics (--metrics-url)")


def api_supported(versions: dict[int, tuple[int, int]], api_key: int) -> bool:
    return api_key in versions
