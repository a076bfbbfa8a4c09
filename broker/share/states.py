"""Record states, acknowledgement types and the share-partition transition table.

Every change a share partition makes to a record goes through ``TRANSITIONS``: a
dict keyed by (what the record looks like to the member acting, the event) whose
value says what happens (``Action``) or which error the request gets. The table
is data, so the tests can walk every (state, event) pair and compare it with the
KIP, and the state machine in ``partition.py`` has no per-state ``if`` chains.

States are seen *relative to the member acting*: an ACQUIRED record is
``ACQUIRED_BY_ME`` for the member holding its lock and ``ACQUIRED_BY_OTHER`` for
every other member. For a lock expiry the "member acting" is the lock holder.

Wire values (KIP-932 as shipped in Apache Kafka 4.2, KIP-1191 in 4.4): record
states AVAILABLE 0, ACQUIRED 1, ACKNOWLEDGED 2, ARCHIVING 3, ARCHIVED 4;
acknowledgement types 0 Gap, 1 Accept, 2 Release, 3 Reject, 4 Renew.

Dead-letter queues (KIP-1191): in a group with a dead-letter topic, a rejected
record, and a record whose delivery count reached the limit, go to ARCHIVING
instead of ARCHIVED. ARCHIVING is persisted and is not final (the share-partition
start offset stops there); once the record's dead-letter copy is written
(``DEAD_LETTERED``) it becomes ARCHIVED. A crash in between finds it ARCHIVING
again and writes the copy again.

Two views are this broker's extensions: ``HELD`` is an AVAILABLE record that may
not be handed out yet, because its redelivery backoff has not elapsed, (per-key
ordering) an earlier record with its key is not final, or the release or lock expiry
that made it AVAILABLE is not durable yet (so a record is handed out with delivery
count n + 1 only once count n is persisted, and a new leader never hands it out with
a lower count). It answers every event as AVAILABLE does, except that acquisition
leaves it alone.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from broker.protocol.errors import ErrorCode

__all__ = [
    "ACK_EVENTS",
    "FINAL_STATES",
    "TRANSITIONS",
    "AckType",
    "AcquireMode",
    "Action",
    "Event",
    "IsolationLevel",
    "Outcome",
    "RecordState",
    "View",
]


class RecordState(IntEnum):
    """Durable and in-memory state of one offset (the ``DeliveryState`` on the wire)."""

    AVAILABLE = 0
    ACQUIRED = 1  # in memory only: never persisted
    ACKNOWLEDGED = 2
    ARCHIVING = 3  # waiting for its dead-letter copy (KIP-1191); persisted, not final
    ARCHIVED = 4


# Nothing leaves these states; the share-partition start offset moves past them.
FINAL_STATES = frozenset({RecordState.ACKNOWLEDGED, RecordState.ARCHIVED})


class AckType(IntEnum):
    """``AcknowledgeTypes`` entries of ShareFetch / ShareAcknowledge."""

    GAP = 0  # the offset holds no record (compacted away, or a control record)
    ACCEPT = 1
    RELEASE = 2
    REJECT = 3
    RENEW = 4  # keep the lock: restart its timer, change nothing durable


class AcquireMode(IntEnum):
    """``ShareAcquireMode`` of ShareFetch v2 (v1 always behaves as BATCH_OPTIMIZED)."""

    BATCH_OPTIMIZED = 0  # whole log batches; may pass MaxRecords up to a batch boundary
    RECORD_LIMIT = 1  # never more than MaxRecords, splitting a batch if need be


class IsolationLevel(IntEnum):
    """``share.isolation.level``."""

    READ_UNCOMMITTED = 0
    READ_COMMITTED = 1


class View(IntEnum):
    """A record's state as seen by the member acting on it."""

    AVAILABLE = 0
    ACQUIRED_BY_ME = 1
    ACQUIRED_BY_OTHER = 2
    ACKNOWLEDGED = 3
    ARCHIVED = 4
    ARCHIVING = 5  # its dead-letter copy is being written
    HELD = 6  # AVAILABLE, held back: redelivery backoff, an earlier record of its key, not durable yet


class Event(IntEnum):
    """Everything that can happen to a record."""

    ACQUIRE = 0
    ACK_GAP = 1
    ACK_ACCEPT = 2
    ACK_RELEASE = 3
    ACK_REJECT = 4
    ACK_RENEW = 5
    RELEASE_MEMBER = 6  # share session closed, member left, connection lost
    LOCK_EXPIRY = 7  # share.record.lock.duration.ms elapsed
    LOG_START_PAST = 8  # the log start offset moved past the record (retention, DeleteRecords)
    DEAD_LETTERED = 9  # the record's dead-letter copy is durable (KIP-1191)


ACK_EVENTS: dict[int, Event] = {
    AckType.GAP: Event.ACK_GAP,
    AckType.ACCEPT: Event.ACK_ACCEPT,
    AckType.RELEASE: Event.ACK_RELEASE,
    AckType.REJECT: Event.ACK_REJECT,
    AckType.RENEW: Event.ACK_RENEW,
}


class Action(IntEnum):
    """What a transition does to the record."""

    KEEP = 0  # nothing changes
    ACQUIRE = 1  # -> ACQUIRED by the member, delivery count +1, lock starts (archived if the count is spent)
    ACKNOWLEDGE = 2  # -> ACKNOWLEDGED, persisted
    ARCHIVE = 3  # -> ARCHIVED, persisted
    # -> AVAILABLE (after the group's redelivery backoff, if any), or archived when the
    # delivery count reached the limit; persisted
    RELEASE = 4
    RENEW = 5  # the lock restarts from now; nothing persisted
    DROP = 6  # -> below the start offset, i.e. ARCHIVED; derived from the log, nothing persisted
    REJECT = 7  # -> archived; persisted


# "Archived" above is ARCHIVING in a group with a dead-letter topic, ARCHIVED otherwise.


class Outcome(NamedTuple):
    action: Action
    error: int = ErrorCode.NONE


_OK = {a: Outcome(a) for a in Action}
_BAD_STATE = Outcome(Action.KEEP, ErrorCode.INVALID_RECORD_STATE)

_A = Action
_K, _X = _OK[_A.KEEP], _BAD_STATE
_R, _D = _OK[_A.RELEASE], _OK[_A.DROP]

# The whole table, one row per event and one column per view, in View's order:
#   AVAILABLE, ACQUIRED_BY_ME, ACQUIRED_BY_OTHER, ACKNOWLEDGED, ARCHIVED, ARCHIVING, HELD
# Acknowledgements are only valid from the lock holder, on an ACQUIRED record;
# anything else fails the whole request with INVALID_RECORD_STATE (KIP-932). One
# leniency: a Gap for an offset that is already ARCHIVED is a no-op, because the
# broker archives control batches and known holes itself and clients that Gap-ack
# every offset without a record (librdkafka does for control batches) must not get
# their other acknowledgements in the same request refused for it.
# ARCHIVING (KIP-1191): nobody holds it and no acknowledgement applies; it waits for
# its dead-letter copy. HELD (extension): an AVAILABLE record acquisition must leave
# alone for now. The log dropping either drops it like any other record below the start.
_MATRIX: dict[Event, tuple[Outcome, ...]] = {
    # acquisition (ShareFetch)
    Event.ACQUIRE: (_OK[_A.ACQUIRE], _K, _K, _K, _K, _K, _K),
    Event.ACK_GAP: (_X, _OK[_A.ARCHIVE], _X, _X, _K, _X, _X),
    Event.ACK_ACCEPT: (_X, _OK[_A.ACKNOWLEDGE], _X, _X, _X, _X, _X),
    Event.ACK_RELEASE: (_X, _R, _X, _X, _X, _X, _X),
    Event.ACK_REJECT: (_X, _OK[_A.REJECT], _X, _X, _X, _X, _X),
    Event.ACK_RENEW: (_X, _OK[_A.RENEW], _X, _X, _X, _X, _X),
    # the member's session closed or it left the group
    Event.RELEASE_MEMBER: (_K, _R, _K, _K, _K, _K, _K),
    # the acquisition lock ran out (whoever holds it)
    Event.LOCK_EXPIRY: (_K, _R, _R, _K, _K, _K, _K),
    # the log no longer holds the record
    Event.LOG_START_PAST: (_D, _D, _D, _K, _K, _D, _D),
    # the dead-letter copy of the record is durable: only an ARCHIVING record moves on
    Event.DEAD_LETTERED: (_K, _K, _K, _K, _K, _OK[_A.ARCHIVE], _K),
}

TRANSITIONS: dict[tuple[View, Event], Outcome] = {
    (view, event): outcome for event, outcomes in _MATRIX.items() for view, outcome in zip(View, outcomes, strict=True)
}

assert len(TRANSITIONS) == len(View) * len(Event), "every (view, event) pair needs a row"
