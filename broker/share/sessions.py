"""Share sessions (KIP-932): which partitions a member fetches, and the epoch sequence.

Pure: no I/O, no clock of its own (``now_ms`` is passed in).

A session is keyed by (group id, member id) on this broker. Epoch rules, shared
by ShareFetch and ShareAcknowledge:

- epoch 0 opens a session (replacing any session of the same member; the
  caller releases what the old one held) with the request's partitions;
  the next request must carry epoch 1;
- epoch N continues the session only if N is exactly the expected epoch, else
  INVALID_SHARE_SESSION_EPOCH; without a session, SHARE_SESSION_NOT_FOUND;
  the expected epoch then moves on, wrapping from INT32_MAX to 1;
- epoch -1 closes the session (after its acknowledgements are processed).

A full cache answers a new session with SHARE_SESSION_LIMIT_REACHED.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from broker.protocol.errors import ErrorCode

INITIAL_EPOCH = 0
FINAL_EPOCH = -1
MAX_EPOCH = 2**31 - 1

# group.share.max.share.sessions: one session per member per broker, so this
# bounds the memory of the session cache (KIP-932's default).
DEFAULT_MAX_SESSIONS = 2000

PartitionKey = tuple[uuid.UUID, int]  # (topic id, partition)


def next_epoch(epoch: int) -> int:
    return 1 if epoch >= MAX_EPOCH else epoch + 1


@dataclass(slots=True)
class ShareSession:
    group_id: str
    member_id: str
    connection_id: int
    expected_epoch: int = 1
    # An ordered set: insertion order is the fetch order, rotated per response.
    partitions: dict[PartitionKey, None] = field(default_factory=dict)
    last_used_ms: int = 0
    rotation: int = 0

    @property
    def key(self) -> tuple[str, str]:
        return (self.group_id, self.member_id)

    def add(self, partitions: list[PartitionKey]) -> None:
        for p in partitions:
            self.partitions.setdefault(p, None)

    def forget(self, partitions: list[PartitionKey]) -> None:
        for p in partitions:
            self.partitions.pop(p, None)

    def fetch_order(self) -> list[PartitionKey]:
        """The partitions, starting one further along on every call so none starves."""
        parts = list(self.partitions)
        if not parts:
            return parts
        start = self.rotation % len(parts)
        self.rotation = start + 1
        return parts[start:] + parts[:start]


class ShareSessionCache:
    def __init__(self, max_sessions: int = DEFAULT_MAX_SESSIONS) -> None:
        self.max_sessions = max_sessions
        self._sessions: dict[tuple[str, str], ShareSession] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    def get(self, group_id: str, member_id: str) -> ShareSession | None:
        return self._sessions.get((group_id, member_id))

    def open(
        self, group_id: str, member_id: str, connection_id: int, now_ms: int
    ) -> tuple[ShareSession | None, ShareSession | None, int]:
        """Epoch 0: a new session. Returns (session, replaced session, error code)."""
        key = (group_id, member_id)
        old = self._sessions.pop(key, None)
        if old is None and len(self._sessions) >= self.max_sessions:
            return None, None, ErrorCode.SHARE_SESSION_LIMIT_REACHED
        session = ShareSession(group_id, member_id, connection_id, expected_epoch=1, last_used_ms=now_ms)
        self._sessions[key] = session
        return session, old, ErrorCode.NONE

    def continue_(self, group_id: str, member_id: str, epoch: int, now_ms: int) -> tuple[ShareSession | None, int]:
        """Epoch N (N > 0): validate and advance. Returns (session, error code)."""
        session = self._sessions.get((group_id, member_id))
        if session is None:
            return None, ErrorCode.SHARE_SESSION_NOT_FOUND
        if epoch != session.expected_epoch:
            return None, ErrorCode.INVALID_SHARE_SESSION_EPOCH
        session.expected_epoch = next_epoch(epoch)
        session.last_used_ms = now_ms
        return session, ErrorCode.NONE

    def check_final(self, group_id: str, member_id: str) -> tuple[ShareSession | None, int]:
        """Epoch -1: the session that is about to close, if there is one."""
        session = self._sessions.get((group_id, member_id))
        if session is None:
            return None, ErrorCode.SHARE_SESSION_NOT_FOUND
        return session, ErrorCode.NONE

    def close(self, group_id: str, member_id: str) -> ShareSession | None:
        return self._sessions.pop((group_id, member_id), None)

    def sessions_of_connection(self, connection_id: int) -> list[ShareSession]:
        return [s for s in self._sessions.values() if s.connection_id == connection_id]

    def sessions_of_member(self, group_id: str, member_id: str) -> ShareSession | None:
        return self._sessions.get((group_id, member_id))
