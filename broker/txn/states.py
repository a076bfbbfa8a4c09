"""Transaction states and the transaction coordinator's transition table.

Two tables, both data, both checked for completeness at import:

* :data:`VALID_PREVIOUS` is Apache Kafka's state graph (``TransactionState``):
  the states each state may be entered from. Every record the coordinator writes
  is checked against it (:func:`check_transition`), so a bug cannot persist an
  impossible transition.
* :data:`TRANSITIONS` says what every request or timer does to a transactional id,
  keyed by (what the id looks like now, the event). The coordinator classifies a
  request into an :class:`Event` (after the producer id/epoch checks that do not
  depend on the state, see ``broker.txn.shard``), looks the pair up, and performs
  the :class:`Action` or answers the error. There are no per-state ``if`` chains.

States (wire ids as in ``TransactionLogValue.TransactionStatus``, names as
DescribeTransactions/ListTransactions report them): Empty 0, Ongoing 1,
PrepareCommit 2, PrepareAbort 3, CompleteCommit 4, CompleteAbort 5, Dead 6,
PrepareEpochFence 7. Dead and PrepareEpochFence are never written to the log
(an expired id is deleted with a tombstone; an epoch fence is written as the
PrepareAbort it leads to), so a live id is always in one of the other six:
the rows of :data:`TRANSITIONS`, plus ABSENT for an id the coordinator has no
state for.

Transaction versions: EndTxn v0-4 (and AddPartitionsToTxn v0-3) are transaction
version 0/1: the epoch never changes at the end of a transaction. EndTxn v5+ is
transaction version 2 (KIP-890 part 2): the coordinator bumps the epoch when a
transaction ends, a retry carries the epoch before the bump, and an abort is
allowed with no transaction open. Those are different events below.
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import NamedTuple

from broker.protocol.errors import ErrorCode

__all__ = [
    "TRANSITIONS",
    "VALID_PREVIOUS",
    "Action",
    "Event",
    "Outcome",
    "TxnState",
    "View",
    "check_transition",
    "view_of",
]


class TxnState(Enum):
    """A transactional id's state; ``.id`` is the wire value, ``.label`` the name."""

    EMPTY = (0, "Empty", True)
    ONGOING = (1, "Ongoing", False)
    PREPARE_COMMIT = (2, "PrepareCommit", False)
    PREPARE_ABORT = (3, "PrepareAbort", False)
    COMPLETE_COMMIT = (4, "CompleteCommit", True)
    COMPLETE_ABORT = (5, "CompleteAbort", True)
    DEAD = (6, "Dead", False)
    PREPARE_EPOCH_FENCE = (7, "PrepareEpochFence", False)

    id: int
    label: str
    expiration_allowed: bool

    def __init__(self, wire_id: int, label: str, expiration_allowed: bool) -> None:
        self.id = wire_id
        self.label = label
        # transactional.id.expiration.ms applies only in these (Kafka's isExpirationAllowed).
        self.expiration_allowed = expiration_allowed

    @classmethod
    def from_id(cls, wire_id: int) -> TxnState:
        """The state with this wire id; ValueError for an id Kafka does not define."""
        for state in cls:
            if state.id == wire_id:
                return state
        raise ValueError(f"unknown transaction state id {wire_id}")

    @classmethod
    def from_label(cls, label: str) -> TxnState | None:
        """The state a ListTransactions filter names, or None (reported as unknown)."""
        for state in cls:
            if state.label == label:
                return state
        return None

    @property
    def is_prepare(self) -> bool:
        return self in (TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT)

    @property
    def is_complete(self) -> bool:
        return self in (TxnState.COMPLETE_COMMIT, TxnState.COMPLETE_ABORT)


S = TxnState
# state -> the states it may be entered from (Kafka 4.4's validPreviousStates).
VALID_PREVIOUS: dict[TxnState, frozenset[TxnState]] = {
    S.EMPTY: frozenset({S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT}),
    S.ONGOING: frozenset({S.ONGOING, S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT}),
    S.PREPARE_COMMIT: frozenset({S.ONGOING}),
    # Transaction version 2 may abort from Empty and Complete*: the client cannot
    # always know whether a transaction is open, so it may end one that is not.
    S.PREPARE_ABORT: frozenset({S.ONGOING, S.PREPARE_EPOCH_FENCE, S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT}),
    S.COMPLETE_COMMIT: frozenset({S.PREPARE_COMMIT}),
    S.COMPLETE_ABORT: frozenset({S.PREPARE_ABORT}),
    S.DEAD: frozenset({S.EMPTY, S.COMPLETE_ABORT, S.COMPLETE_COMMIT}),
    S.PREPARE_EPOCH_FENCE: frozenset({S.ONGOING}),
}

assert set(VALID_PREVIOUS) == set(TxnState), "every state needs its valid previous states"


def check_transition(old: TxnState | None, new: TxnState) -> None:
    """Raise ValueError unless ``old -> new`` is in Kafka's state graph.

    ``old`` None is a transactional id without state: it is created by
    InitProducerId, whose first record is Empty.
    """
    if old is None:
        if new is not S.EMPTY:
            raise ValueError(f"a new transactional id starts in Empty, not {new.label}")
        return
    # An epoch fence goes Ongoing -> PrepareEpochFence -> PrepareAbort; only the
    # PrepareAbort is written, so Ongoing -> PrepareAbort is the fence as well.
    if old not in VALID_PREVIOUS[new]:
        raise ValueError(f"illegal transaction state transition {old.label} -> {new.label}")


class View(IntEnum):
    """What a transactional id looks like to an operation: its state, or ABSENT."""

    ABSENT = 0  # no state: never initialised, or expired and deleted
    EMPTY = 1
    ONGOING = 2
    PREPARE_COMMIT = 3
    PREPARE_ABORT = 4
    COMPLETE_COMMIT = 5
    COMPLETE_ABORT = 6


_VIEW_OF = {
    S.EMPTY: View.EMPTY,
    S.ONGOING: View.ONGOING,
    S.PREPARE_COMMIT: View.PREPARE_COMMIT,
    S.PREPARE_ABORT: View.PREPARE_ABORT,
    S.COMPLETE_COMMIT: View.COMPLETE_COMMIT,
    S.COMPLETE_ABORT: View.COMPLETE_ABORT,
}


def view_of(state: TxnState | None) -> View:
    """The table row for a stored state (None: ABSENT). Dead and PrepareEpochFence
    are never stored, so asking for them is a bug (ValueError)."""
    if state is None:
        return View.ABSENT
    try:
        return _VIEW_OF[state]
    except KeyError:
        raise ValueError(f"{state.label} is never a stored state") from None


class Event(IntEnum):
    """Everything that can happen to a transactional id."""

    INIT_PRODUCER_ID = 0  # InitProducerId (the expected producer id/epoch, if sent, already checked)
    ADD_PARTITIONS = 1  # AddPartitionsToTxn/AddOffsetsToTxn naming a partition not yet in the transaction
    ADD_KNOWN_PARTITIONS = 2  # ... naming only partitions already in it
    VERIFY_PARTITIONS = 3  # AddPartitionsToTxn v4+ VerifyOnly (KIP-890 part 1)
    END_COMMIT_V1 = 4  # EndTxn v0-4 commit, current epoch
    END_ABORT_V1 = 5  # EndTxn v0-4 abort, current epoch
    END_COMMIT_V2 = 6  # EndTxn v5+ commit, current epoch
    END_ABORT_V2 = 7  # EndTxn v5+ abort, current epoch
    END_COMMIT_V2_RETRY = 8  # EndTxn v5+ commit with the epoch before the end's bump: a retry
    END_ABORT_V2_RETRY = 9  # EndTxn v5+ abort, a retry
    TIMEOUT = 10  # the transaction outlived its transaction.timeout.ms
    MARKERS_WRITTEN = 11  # every partition of the ending transaction has its marker
    EXPIRE = 12  # transactional.id.expiration.ms passed since the last update


class Action(IntEnum):
    """What a transition does."""

    REFUSE = 0  # write nothing, answer the error
    NOTHING = 1  # write nothing, answer success (a retry, partitions already added, a stale timer)
    CREATE = 2  # new producer id at epoch 0 -> Empty
    BUMP_EPOCH = 3  # next epoch, or a new producer id when the epoch is spent -> Empty
    FENCE = 4  # bump the epoch past the producer's and abort: -> PrepareAbort, markers
    ADD = 5  # -> Ongoing with the partitions added
    VERIFY = 6  # answer per partition whether it is in the transaction; write nothing
    PREPARE_COMMIT = 7  # -> PrepareCommit, markers
    PREPARE_ABORT = 8  # -> PrepareAbort, markers
    COMPLETE = 9  # PrepareCommit/PrepareAbort -> CompleteCommit/CompleteAbort
    REMOVE = 10  # delete the id: a tombstone


class Outcome(NamedTuple):
    action: Action
    error: ErrorCode = ErrorCode.NONE


_V = View
_E = Event
_A = Action
_NOTHING = Outcome(_A.NOTHING)
_CONCURRENT = Outcome(_A.REFUSE, ErrorCode.CONCURRENT_TRANSACTIONS)
_BAD_STATE = Outcome(_A.REFUSE, ErrorCode.INVALID_TXN_STATE)
_FENCED = Outcome(_A.REFUSE, ErrorCode.PRODUCER_FENCED)
_NO_MAPPING = Outcome(_A.REFUSE, ErrorCode.INVALID_PRODUCER_ID_MAPPING)


def _row(
    absent: Outcome,
    empty: Outcome,
    ongoing: Outcome,
    prepare_commit: Outcome,
    prepare_abort: Outcome,
    complete_commit: Outcome,
    complete_abort: Outcome,
) -> dict[View, Outcome]:
    return {
        _V.ABSENT: absent,
        _V.EMPTY: empty,
        _V.ONGOING: ongoing,
        _V.PREPARE_COMMIT: prepare_commit,
        _V.PREPARE_ABORT: prepare_abort,
        _V.COMPLETE_COMMIT: complete_commit,
        _V.COMPLETE_ABORT: complete_abort,
    }


_OK = {a: Outcome(a) for a in Action}

# One row per event; columns are the views in order:
#   ABSENT, EMPTY, ONGOING, PREPARE_COMMIT, PREPARE_ABORT, COMPLETE_COMMIT, COMPLETE_ABORT
_ROWS: dict[Event, dict[View, Outcome]] = {
    # InitProducerId. While a transaction is open the producer is fenced and the
    # transaction aborted; the client gets CONCURRENT_TRANSACTIONS and retries,
    # which bumps the epoch once more (so a spent epoch gets a new producer id).
    _E.INIT_PRODUCER_ID: _row(
        _OK[_A.CREATE],
        _OK[_A.BUMP_EPOCH],
        Outcome(_A.FENCE, ErrorCode.CONCURRENT_TRANSACTIONS),
        _CONCURRENT,
        _CONCURRENT,
        _OK[_A.BUMP_EPOCH],
        _OK[_A.BUMP_EPOCH],
    ),
    _E.ADD_PARTITIONS: _row(_NO_MAPPING, _OK[_A.ADD], _OK[_A.ADD], _CONCURRENT, _CONCURRENT, _OK[_A.ADD], _OK[_A.ADD]),
    # Kafka answers at once only in Ongoing; elsewhere (an empty partition list) it
    # still writes the transition to Ongoing.
    _E.ADD_KNOWN_PARTITIONS: _row(
        _NO_MAPPING, _OK[_A.ADD], _NOTHING, _CONCURRENT, _CONCURRENT, _OK[_A.ADD], _OK[_A.ADD]
    ),
    _E.VERIFY_PARTITIONS: _row(
        _NO_MAPPING, _OK[_A.VERIFY], _OK[_A.VERIFY], _CONCURRENT, _CONCURRENT, _OK[_A.VERIFY], _OK[_A.VERIFY]
    ),
    # Transaction version 1: a repeated end of a completed transaction succeeds,
    # a repeated end of a completing one is retriable, anything else is a state error.
    _E.END_COMMIT_V1: _row(
        _NO_MAPPING, _BAD_STATE, _OK[_A.PREPARE_COMMIT], _CONCURRENT, _BAD_STATE, _NOTHING, _BAD_STATE
    ),
    _E.END_ABORT_V1: _row(
        _NO_MAPPING, _BAD_STATE, _OK[_A.PREPARE_ABORT], _BAD_STATE, _CONCURRENT, _BAD_STATE, _NOTHING
    ),
    # Transaction version 2 with the current epoch: after an end the epoch has moved
    # on, so the current epoch in Prepare* is a producer that never saw that epoch.
    # An abort is allowed with no transaction open (it bumps the epoch).
    _E.END_COMMIT_V2: _row(_NO_MAPPING, _BAD_STATE, _OK[_A.PREPARE_COMMIT], _FENCED, _FENCED, _BAD_STATE, _BAD_STATE),
    _E.END_ABORT_V2: _row(
        _NO_MAPPING,
        _OK[_A.PREPARE_ABORT],
        _OK[_A.PREPARE_ABORT],
        _FENCED,
        _FENCED,
        _OK[_A.PREPARE_ABORT],
        _OK[_A.PREPARE_ABORT],
    ),
    # Transaction version 2 retries (the epoch just before the end's bump).
    _E.END_COMMIT_V2_RETRY: _row(_NO_MAPPING, _FENCED, _FENCED, _CONCURRENT, _BAD_STATE, _NOTHING, _BAD_STATE),
    _E.END_ABORT_V2_RETRY: _row(_NO_MAPPING, _FENCED, _FENCED, _BAD_STATE, _CONCURRENT, _BAD_STATE, _NOTHING),
    # Timers and marker completion: no client waits; where they do not apply, nothing happens.
    _E.TIMEOUT: _row(_NOTHING, _NOTHING, _OK[_A.FENCE], _NOTHING, _NOTHING, _NOTHING, _NOTHING),
    _E.MARKERS_WRITTEN: _row(_NOTHING, _NOTHING, _NOTHING, _OK[_A.COMPLETE], _OK[_A.COMPLETE], _NOTHING, _NOTHING),
    _E.EXPIRE: _row(_NOTHING, _OK[_A.REMOVE], _NOTHING, _NOTHING, _NOTHING, _OK[_A.REMOVE], _OK[_A.REMOVE]),
}

TRANSITIONS: dict[tuple[View, Event], Outcome] = {
    (view, event): outcome for event, row in _ROWS.items() for view, outcome in row.items()
}

assert len(TRANSITIONS) == len(View) * len(Event), "every (view, event) pair needs a row"
