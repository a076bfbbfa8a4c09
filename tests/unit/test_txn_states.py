"""The transaction state graph and the coordinator's transition table."""

from __future__ import annotations

import pytest

from broker.protocol.errors import ErrorCode
from broker.txn.states import (
    TRANSITIONS,
    VALID_PREVIOUS,
    Action,
    Event,
    TxnState,
    View,
    check_transition,
    view_of,
)

S = TxnState
V = View
E = Event

# The state each action leaves the id in (None: the id is deleted; absent: no change).
TARGET = {
    Action.CREATE: S.EMPTY,
    Action.BUMP_EPOCH: S.EMPTY,
    Action.FENCE: S.PREPARE_ABORT,
    Action.ADD: S.ONGOING,
    Action.PREPARE_COMMIT: S.PREPARE_COMMIT,
    Action.PREPARE_ABORT: S.PREPARE_ABORT,
    Action.REMOVE: S.DEAD,
}
STATE_OF = {
    V.EMPTY: S.EMPTY,
    V.ONGOING: S.ONGOING,
    V.PREPARE_COMMIT: S.PREPARE_COMMIT,
    V.PREPARE_ABORT: S.PREPARE_ABORT,
    V.COMPLETE_COMMIT: S.COMPLETE_COMMIT,
    V.COMPLETE_ABORT: S.COMPLETE_ABORT,
}


def test_wire_ids_and_names_are_kafkas():
    assert [(s.id, s.label) for s in S] == [
        (0, "Empty"),
        (1, "Ongoing"),
        (2, "PrepareCommit"),
        (3, "PrepareAbort"),
        (4, "CompleteCommit"),
        (5, "CompleteAbort"),
        (6, "Dead"),
        (7, "PrepareEpochFence"),
    ]
    assert {s for s in S if s.expiration_allowed} == {S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT}
    assert S.from_id(3) is S.PREPARE_ABORT
    assert S.from_label("Ongoing") is S.ONGOING
    assert S.from_label("ongoing") is None
    with pytest.raises(ValueError):
        S.from_id(8)


def test_table_has_a_row_for_every_pair():
    assert set(TRANSITIONS) == {(v, e) for v in View for e in Event}


@pytest.mark.parametrize(("view", "event"), sorted(TRANSITIONS))
def test_every_transition_the_table_makes_is_in_kafkas_state_graph(view, event):
    outcome = TRANSITIONS[(view, event)]
    if outcome.action is Action.COMPLETE:
        old = STATE_OF[view]
        new = S.COMPLETE_COMMIT if old is S.PREPARE_COMMIT else S.COMPLETE_ABORT
        check_transition(old, new)
    elif outcome.action in TARGET:
        check_transition(STATE_OF.get(view), TARGET[outcome.action])
    else:
        assert outcome.action in (Action.REFUSE, Action.NOTHING, Action.VERIFY)
    # Only refusals carry an error, except the fence of InitProducerId (the client retries).
    if outcome.action is Action.REFUSE:
        assert outcome.error != ErrorCode.NONE
    elif outcome.action is Action.FENCE and event is E.INIT_PRODUCER_ID:
        assert outcome.error == ErrorCode.CONCURRENT_TRANSACTIONS
    else:
        assert outcome.error == ErrorCode.NONE


def test_absent_ids_have_no_producer_mapping():
    for event in (E.ADD_PARTITIONS, E.VERIFY_PARTITIONS, E.END_COMMIT_V1, E.END_ABORT_V2, E.END_COMMIT_V2_RETRY):
        assert TRANSITIONS[(V.ABSENT, event)].error == ErrorCode.INVALID_PRODUCER_ID_MAPPING
    assert TRANSITIONS[(V.ABSENT, E.INIT_PRODUCER_ID)].action is Action.CREATE
    for event in (E.TIMEOUT, E.MARKERS_WRITTEN, E.EXPIRE):
        assert TRANSITIONS[(V.ABSENT, event)].action is Action.NOTHING


# Kafka's own table for transaction version 2 (TransactionCoordinator.endTransaction):
# PF = PRODUCER_FENCED, ITS = INVALID_TXN_STATE, NONE = success without a write,
# EB = success with an epoch bump (here: PREPARE_ABORT).
PF = (Action.REFUSE, ErrorCode.PRODUCER_FENCED)
ITS = (Action.REFUSE, ErrorCode.INVALID_TXN_STATE)
NONE = (Action.NOTHING, ErrorCode.NONE)
EB = (Action.PREPARE_ABORT, ErrorCode.NONE)
KAFKA_TV2 = {
    #                  abort retry, abort current, commit retry, commit current
    V.EMPTY: (PF, EB, PF, ITS),
    V.COMPLETE_ABORT: (NONE, EB, ITS, ITS),
    V.COMPLETE_COMMIT: (ITS, EB, NONE, ITS),
}


@pytest.mark.parametrize("view", sorted(KAFKA_TV2))
def test_version_2_end_matches_kafkas_table(view):
    got = tuple(
        tuple(TRANSITIONS[(view, e)])
        for e in (E.END_ABORT_V2_RETRY, E.END_ABORT_V2, E.END_COMMIT_V2_RETRY, E.END_COMMIT_V2)
    )
    assert got == KAFKA_TV2[view]


def test_version_1_end():
    # Empty accepts neither; a completed transaction accepts only the same end again.
    assert TRANSITIONS[(V.EMPTY, E.END_COMMIT_V1)].error == ErrorCode.INVALID_TXN_STATE
    assert TRANSITIONS[(V.EMPTY, E.END_ABORT_V1)].error == ErrorCode.INVALID_TXN_STATE
    assert TRANSITIONS[(V.COMPLETE_COMMIT, E.END_COMMIT_V1)].action is Action.NOTHING
    assert TRANSITIONS[(V.COMPLETE_COMMIT, E.END_ABORT_V1)].error == ErrorCode.INVALID_TXN_STATE
    assert TRANSITIONS[(V.COMPLETE_ABORT, E.END_ABORT_V1)].action is Action.NOTHING
    assert TRANSITIONS[(V.PREPARE_COMMIT, E.END_COMMIT_V1)].error == ErrorCode.CONCURRENT_TRANSACTIONS
    assert TRANSITIONS[(V.PREPARE_COMMIT, E.END_ABORT_V1)].error == ErrorCode.INVALID_TXN_STATE
    assert TRANSITIONS[(V.ONGOING, E.END_COMMIT_V1)].action is Action.PREPARE_COMMIT


def test_state_graph():
    check_transition(None, S.EMPTY)
    with pytest.raises(ValueError):
        check_transition(None, S.ONGOING)
    check_transition(S.ONGOING, S.PREPARE_ABORT)
    check_transition(S.COMPLETE_COMMIT, S.PREPARE_ABORT)  # version 2 abort with nothing open
    with pytest.raises(ValueError):
        check_transition(S.EMPTY, S.PREPARE_COMMIT)
    with pytest.raises(ValueError):
        check_transition(S.ONGOING, S.COMPLETE_COMMIT)
    with pytest.raises(ValueError):
        check_transition(S.ONGOING, S.DEAD)
    assert VALID_PREVIOUS[S.PREPARE_EPOCH_FENCE] == {S.ONGOING}


def test_dead_and_fence_are_never_stored_states():
    assert view_of(None) is V.ABSENT
    assert view_of(S.ONGOING) is V.ONGOING
    for state in (S.DEAD, S.PREPARE_EPOCH_FENCE):
        with pytest.raises(ValueError):
            view_of(state)
