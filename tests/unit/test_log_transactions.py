"""Transaction markers and verification through PartitionLog.append, as the
transaction coordinator and the produce path will call it."""

from __future__ import annotations

import pytest

from broker.log.producer_state import AppendOrigin
from broker.protocol.errors import ErrorCode, KafkaError
from tests.unit.test_log_helpers import batch, marker, open_log

PID = 31
COORD = AppendOrigin.COORDINATOR


def test_version_2_markers_end_transactions_and_fence_stale_ones(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(2, pid=PID, epoch=0, seq=0, txn=True))
    log.append(batch(1))
    assert log.last_stable_offset == 0
    with pytest.raises(KafkaError) as err:
        log.append(marker(PID, 0, commit=False), origin=COORD, transaction_version=2)
    assert err.value.error_code == ErrorCode.INVALID_PRODUCER_EPOCH
    info = log.append(marker(PID, 1, commit=False), origin=COORD, transaction_version=2)
    assert log.last_stable_offset == log.log_end_offset == info.last_offset + 1
    assert log.aborted_transactions(0, log.log_end_offset) == [(PID, 0)]
    # The coordinator's retry of the same marker is written again, harmlessly.
    log.append(marker(PID, 1, commit=False), origin=COORD, transaction_version=2)
    assert log.aborted_transactions(0, log.log_end_offset) == [(PID, 0)]
    log.close()


def test_coordinator_batches_are_never_duplicates(tmp_path):
    # Two transactional offset commits of the group coordinator, both without sequences.
    log = open_log(tmp_path)
    first = log.append(batch(1, pid=PID, epoch=4, seq=-1, txn=True), origin=COORD)
    second = log.append(batch(1, pid=PID, epoch=4, seq=-1, txn=True), origin=COORD)
    assert not second.duplicate and second.base_offset == first.base_offset + 1
    log.close()


def test_verification_through_append(tmp_path):
    log = open_log(tmp_path)
    state = log.producer_state
    state.verification_enabled = True
    with pytest.raises(KafkaError) as err:
        log.append(batch(1, pid=PID, epoch=0, seq=0, txn=True))
    assert err.value.error_code == ErrorCode.INVALID_TXN_STATE
    guard = state.maybe_start_verification(PID, 0, 0, False, now_ms=0)
    log.append(batch(1, pid=PID, epoch=0, seq=0, txn=True), verification_guard=guard)
    log.append(batch(1, pid=PID, epoch=0, seq=1, txn=True))  # continues the open transaction
    assert log.last_stable_offset == 0
    log.close()
