"""When the share-partition manager's lock timer must scan its share-partitions again.

The timer task scans every loaded share-partition for expired acquisition locks and
redelivery backoffs that fell due, then sleeps until the nearest next deadline. An
acquisition, a release with a backoff or a member's departure may bring a deadline
nearer than that: then the scan must run again. Most do not (a new lock runs out a
whole ``record.lock.duration.ms`` later than the locks already held), and a scan costs
a pass over every share-partition, so it is woken only for a deadline earlier than the
one it sleeps until. While a scan runs, any new deadline wakes the next one: the scan
may already have passed the share-partition that changed.
"""

from __future__ import annotations

import trio


class LockTimer:
    def __init__(self) -> None:
        self.changed = trio.Event()
        # When the sleeping scan wakes by itself (ms); None while a scan runs, or when
        # nothing is due at all.
        self._wakes_at: int | None = None

    def scanning(self) -> None:
        """A scan starts: a deadline set from now on wakes the next one."""
        self.changed = trio.Event()
        self._wakes_at = None

    def sleeping_until(self, at_ms: int | None) -> None:
        """The scan is over and sleeps until ``at_ms`` (None: until something is due)."""
        self._wakes_at = at_ms

    def due_by(self, at_ms: int | None) -> None:
        """A share-partition has a deadline at ``at_ms``: wake the scan if it would sleep past it."""
        if at_ms is None:
            return
        if self._wakes_at is None or at_ms < self._wakes_at:
            self.changed.set()
