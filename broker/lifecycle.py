"""The broker's run state, shared by everything that must notice a shutdown.

Long polls (Fetch, ShareFetch) wait on :attr:`Lifecycle.stopped` beside their
own events so a shutdown answers them at once instead of after their timeout.
"""

from __future__ import annotations

import trio

__all__ = ["Lifecycle"]


class Lifecycle:
    def __init__(self) -> None:
        self.stopping = False
        self.stopped = trio.Event()
        # Idle waits of connections: cancelled at shutdown so idle clients do not hold it up.
        self.idle_scopes: set[trio.CancelScope] = set()

    def request_stop(self) -> None:
        if self.stopping:
            return
        self.stopping = True
        self.stopped.set()
        for scope in list(self.idle_scopes):
            scope.cancel()
