"""How much of a shared share-partition one fetch may acquire (pure; time comes as ``now_ms``).

When several members fetch the same share-partition, a member that acquires whole stored
batches (thousands of records) or the whole in-flight window leaves the others with
nothing to do until it has worked through them. So each fetch of a shared partition takes
a *part*:

- never more than the member's share of the in-flight window, ``ceil(window / members)``,
  minus what it holds there already, so that every member can hold records at once. The
  window is ``max.record.locks`` offsets stretched to the end of the stored batch at its
  edge (:meth:`SharePartition.window`): the records a lone member would hold, taking that
  batch whole as Kafka does, are what the members sharing the partition split among them,
  so that with no work per record (every member back at once) they drain the partition in
  parts as large as the window allows, not in a sixteenth of it;
- and no more than about :data:`CHUNK_TARGET_MS` of the member's own work, once its pace
  is known: the records it acquired last time divided by the time until it came back for
  more with all of them settled (an average that follows the member as it speeds up or
  slows down). A member that works fast takes large parts; a slow one takes small parts
  and comes back more often, so the records still waiting go to whoever is free, the
  window's head is never far behind, and the last records of a backlog are spread over
  every member instead of queueing behind the slowest.
- but never less than a quarter of its share of ``max.record.locks`` (:data:`PACE_FLOOR_DIVISOR`).
  The pace is only a measure of per-record work where the member's time is: a member
  whose cycle is mostly a fixed cost (a stream processor's micro-batch, a client's
  round trip on a loaded machine) comes back no sooner with fewer records, so the pace
  it shows falls with its part, and without a floor its parts would shrink to single
  records.

``members`` counts the members fetching the partition now (from their first fetch until
they leave, forget the partition or stop asking for a lock duration) and the members the
group's target assignment gives it (they are about to come). A lone member is not limited:
it takes whole batches, as Kafka hands them out.
"""

from __future__ import annotations

from dataclasses import dataclass

# A member of a shared partition gets about this much of its own work per fetch. Its
# fetch round trip (about a millisecond on a LAN) is a small part of it, and no member
# holds records this long before the others can have the next ones.
CHUNK_TARGET_MS = 200
# Weight of the newest pace sample in the member's average (the rest is its history).
PACE_WEIGHT = 0.5
# The pace may cut a member's part down to this fraction of its share of the window, no further.
PACE_FLOOR_DIVISOR = 4


@dataclass(slots=True)
class Fetcher:
    """One member fetching one share-partition."""

    last_fetch_ms: int
    taken_at_ms: int = 0  # when its last acquisition here was made
    taken: int = 0  # records that acquisition took
    pace: float = 0.0  # records per second it works through here (0: not known yet)


class FairShare:
    """The members fetching one share-partition and their pace."""

    __slots__ = ("fetchers",)

    def __init__(self) -> None:
        self.fetchers: dict[str, Fetcher] = {}

    def fetching(self, member_id: str, now_ms: int, horizon_ms: int, held: int) -> int:
        """``member_id`` asks for records now, holding ``held`` here; how many members fetch.

        Members that have not asked for ``horizon_ms`` no longer count. The member's pace
        is sampled when it comes back with everything it took settled (``held`` 0).
        """
        fetchers = self.fetchers
        f = fetchers.get(member_id)
        if f is None:
            f = fetchers[member_id] = Fetcher(now_ms)
        elif f.taken and held == 0:
            elapsed = max(now_ms - f.taken_at_ms, 1)
            sample = f.taken * 1000 / elapsed
            f.pace = sample if f.pace == 0 else PACE_WEIGHT * sample + (1 - PACE_WEIGHT) * f.pace
            f.taken = 0
        f.last_fetch_ms = now_ms
        stale = now_ms - horizon_ms
        if len(fetchers) > 1:
            for m in [m for m, other in fetchers.items() if other.last_fetch_ms < stale]:
                del fetchers[m]
        return len(fetchers)

    def part(self, member_id: str, members: int, window: int, held: int, span: int | None = None) -> int | None:
        """The most ``member_id`` may acquire now; None when it fetches alone (no limit).

        ``window`` is ``max.record.locks``; ``span`` the offsets the window spans now, the
        stored batch at its edge included (``window`` when not given).
        """
        if members <= 1:
            return None
        span = window if span is None else max(span, window)
        share = -(-span // members)
        f = self.fetchers.get(member_id)
        if f is not None and f.pace > 0:
            paced = max(1, round(f.pace * CHUNK_TARGET_MS / 1000))
            # A member that works through the whole window in CHUNK_TARGET_MS is not held to
            # its share of it: it is back for more before the others miss the records.
            window_share = -(-window // members)
            floor = -(-window_share // PACE_FLOOR_DIVISOR)
            share = paced if paced >= span else min(share, max(paced, floor))
        return max(share - held, 0)

    def acquired(self, member_id: str, now_ms: int, records: int) -> None:
        """``member_id`` acquired ``records`` here now."""
        f = self.fetchers.get(member_id)
        if f is not None and records:
            if f.taken == 0:
                f.taken_at_ms = now_ms
            f.taken += records

    def forget(self, member_id: str) -> bool:
        """The member left, or no longer fetches this share-partition; whether it did."""
        return self.fetchers.pop(member_id, None) is not None
