"""ProducerStateManager on its own: transaction markers of transaction version 2
(KIP-1228), coordinator appends, and transaction verification (KIP-890 part 1).

``Appender`` plays the log: it assigns offsets, stages each batch as
``PartitionLog.append`` does, and commits the stage only when it validated.
"""

from __future__ import annotations

import pytest

from broker.log.producer_state import AppendOrigin, CompletedTxn, ProducerStateManager, VerificationGuard
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import parse_batch_header
from tests.unit.test_log_helpers import batch, marker

PID = 77
E = ErrorCode


class Appender:
    def __init__(self, *, verification: bool = False) -> None:
        self.state = ProducerStateManager()
        self.state.verification_enabled = verification
        self.next_offset = 0

    def data(
        self,
        n: int = 1,
        *,
        epoch: int = 0,
        seq: int = 0,
        txn: bool = True,
        origin: AppendOrigin = AppendOrigin.CLIENT,
        guard: VerificationGuard | None = None,
    ) -> int:
        header = parse_batch_header(batch(n, pid=PID, epoch=epoch, seq=seq, txn=txn))
        stage = self.state.stage()
        first = self.next_offset
        stage.add_data(header, first, first + n - 1, origin=origin, verification_guard=guard)
        self.state.commit(stage)
        self.next_offset += n
        return first

    def marker(self, *, epoch: int, commit: bool = True, coordinator_epoch: int = 0, version: int = 0):
        header = parse_batch_header(marker(PID, epoch, commit=commit, coordinator_epoch=coordinator_epoch))
        stage = self.state.stage()
        stage.add_marker(header, self.next_offset, not commit, coordinator_epoch, version)
        completed = self.state.commit(stage)
        self.next_offset += 1
        return completed


def _code(exc_info) -> int:
    return exc_info.value.error_code


# ====================================================================== markers, KIP-1228


def test_version_2_marker_needs_a_newer_epoch():
    log = Appender()
    log.data(2, epoch=3)
    with pytest.raises(KafkaError) as err:
        log.marker(epoch=3, version=2)
    assert _code(err) == E.INVALID_PRODUCER_EPOCH
    assert log.state.first_unstable_offset() == 0  # still open
    assert log.marker(epoch=4, version=2) == [CompletedTxn(PID, 0, 2, False)]
    assert log.state.producers[PID].epoch == 4
    assert log.state.first_unstable_offset() is None


def test_version_2_marker_retry_is_accepted_once_the_transaction_is_closed():
    log = Appender()
    log.data(1, epoch=3)
    log.marker(epoch=4, version=2)
    # The coordinator resends (it lost the answer): same epoch, nothing open: accepted, completes nothing.
    assert log.marker(epoch=4, version=2) == []
    # But not once the producer opened its next transaction at that epoch.
    log.data(1, epoch=4, seq=0)
    with pytest.raises(KafkaError) as err:
        log.marker(epoch=4, version=2)
    assert _code(err) == E.INVALID_PRODUCER_EPOCH


def test_version_1_marker_takes_the_same_epoch():
    log = Appender()
    log.data(1, epoch=3)
    assert log.marker(epoch=3) == [CompletedTxn(PID, 0, 1, False)]
    with pytest.raises(KafkaError) as err:
        log.marker(epoch=2)
    assert _code(err) == E.INVALID_PRODUCER_EPOCH


def test_sequences_restart_after_a_version_2_end():
    log = Appender()
    log.data(3, epoch=3, seq=0)
    log.marker(epoch=4, version=2)
    with pytest.raises(KafkaError) as err:
        log.data(1, epoch=4, seq=3)
    assert _code(err) == E.OUT_OF_ORDER_SEQUENCE_NUMBER
    log.data(1, epoch=4, seq=0)


def test_coordinator_marker_epoch_is_fenced_by_a_newer_coordinator():
    log = Appender()
    log.data(1, epoch=0)
    log.marker(epoch=0, coordinator_epoch=5)
    log.data(1, epoch=0, seq=1)
    with pytest.raises(KafkaError) as err:
        log.marker(epoch=0, coordinator_epoch=4)
    assert _code(err) == E.TRANSACTION_COORDINATOR_FENCED


# ====================================================================== coordinator appends


def test_coordinator_appends_skip_sequence_checks():
    # The group coordinator writes transactional offset commits without sequences.
    log = Appender()
    log.data(1, epoch=2, seq=-1, origin=AppendOrigin.COORDINATOR)
    log.data(2, epoch=2, seq=-1, origin=AppendOrigin.COORDINATOR)
    assert log.state.first_unstable_offset() == 0
    assert log.marker(epoch=2) == [CompletedTxn(PID, 0, 3, False)]
    with pytest.raises(KafkaError) as err:
        log.data(1, epoch=1, seq=-1, origin=AppendOrigin.COORDINATOR)
    assert _code(err) == E.INVALID_PRODUCER_EPOCH


def test_client_appends_still_check_sequences():
    log = Appender()
    log.data(1, epoch=2, seq=0)
    with pytest.raises(KafkaError) as err:
        log.data(1, epoch=2, seq=5)
    assert _code(err) == E.OUT_OF_ORDER_SEQUENCE_NUMBER


# ====================================================================== verification, KIP-890 part 1


def test_unverified_transactional_batch_is_refused():
    log = Appender(verification=True)
    with pytest.raises(KafkaError) as err:
        log.data(1, epoch=0)
    assert _code(err) == E.INVALID_TXN_STATE
    assert PID not in log.state.producers
    # A guard that is not the partition's is no better.
    with pytest.raises(KafkaError) as err:
        log.data(1, epoch=0, guard=VerificationGuard())
    assert _code(err) == E.INVALID_TXN_STATE
    # Non-transactional batches need no verification.
    log.data(1, epoch=0, txn=False)


def test_verified_batch_is_accepted_and_the_transaction_continues_without_a_guard():
    log = Appender(verification=True)
    guard = log.state.maybe_start_verification(PID, 0, 0, False, now_ms=100)
    assert guard is not None
    assert log.state.maybe_start_verification(PID, 0, 0, False, now_ms=101) is guard  # same verification
    log.data(2, epoch=0, seq=0, guard=guard)
    # Appending ended the verification; the open transaction needs none.
    assert log.state.verification_guard(PID) is None
    assert log.state.maybe_start_verification(PID, 2, 0, False, now_ms=102) is None
    log.data(1, epoch=0, seq=2)
    # After the marker the next transaction must be verified again, and the old guard is spent.
    log.marker(epoch=0)
    with pytest.raises(KafkaError) as err:
        log.data(1, epoch=0, seq=3, guard=guard)
    assert _code(err) == E.INVALID_TXN_STATE
    fresh = log.state.maybe_start_verification(PID, 3, 0, False, now_ms=103)
    assert fresh is not None and fresh is not guard
    log.data(1, epoch=0, seq=3, guard=fresh)


def test_a_batch_delayed_past_an_abort_cannot_open_a_hanging_transaction():
    # KIP-890's hanging transaction: the batch was verified, then its transaction was
    # aborted before the batch arrived. The marker ends the verification, so the late
    # batch is refused instead of opening a transaction nobody will ever close.
    log = Appender(verification=True)
    guard = log.state.maybe_start_verification(PID, 0, 0, False, now_ms=0)
    log.marker(epoch=0, commit=False)
    with pytest.raises(KafkaError) as err:
        log.data(1, epoch=0, seq=0, guard=guard)
    assert _code(err) == E.INVALID_TXN_STATE
    assert log.state.first_unstable_offset() is None


def test_verification_of_an_older_epoch_is_refused():
    log = Appender(verification=True)
    log.data(1, epoch=3, txn=False)
    with pytest.raises(KafkaError) as err:
        log.state.maybe_start_verification(PID, 0, 2, False, now_ms=0)
    assert _code(err) == E.INVALID_PRODUCER_EPOCH


def test_verified_sequence_must_not_skip_the_lowest_verified_one():
    log = Appender(verification=True)
    log.data(1, epoch=0, seq=0, txn=False)
    guard = log.state.maybe_start_verification(PID, 1, 0, False, now_ms=0)
    assert log.state.maybe_start_verification(PID, 3, 0, False, now_ms=0) is guard
    assert log.state.verifications[PID].lowest_sequence == 1
    with pytest.raises(KafkaError) as err:
        log.data(1, epoch=0, seq=3, guard=guard)  # 1 and 2 must come first
    assert _code(err) == E.OUT_OF_ORDER_SEQUENCE_NUMBER
    log.data(2, epoch=0, seq=1, guard=guard)


def test_version_2_verified_transaction_starts_at_sequence_0_without_state():
    log = Appender(verification=True)
    guard = log.state.maybe_start_verification(PID, 4, 0, True, now_ms=0)
    with pytest.raises(KafkaError) as err:
        log.data(1, epoch=0, seq=4, guard=guard)
    assert _code(err) == E.OUT_OF_ORDER_SEQUENCE_NUMBER


def test_newer_epoch_resets_the_lowest_verified_sequence():
    log = Appender(verification=True)
    guard = log.state.maybe_start_verification(PID, 5, 0, False, now_ms=0)
    assert log.state.maybe_start_verification(PID, 9, 1, False, now_ms=0) is guard
    entry = log.state.verifications[PID]
    assert (entry.epoch, entry.lowest_sequence) == (1, 9)
    assert log.state.maybe_start_verification(PID, 7, 0, False, now_ms=0) is guard
    assert (entry.epoch, entry.lowest_sequence) == (1, 9)  # older epochs do not move it


def test_verifications_expire_with_producer_ids():
    log = Appender(verification=True)
    log.state.maybe_start_verification(PID, 0, 0, False, now_ms=1_000)
    log.state.expire(now_ms=1_999, expiration_ms=1_000)
    assert PID in log.state.verifications
    log.state.expire(now_ms=2_000, expiration_ms=1_000)
    assert PID not in log.state.verifications


def test_a_version_2_marker_of_the_verified_epoch_keeps_the_verification():
    log = Appender(verification=True)
    guard = log.state.maybe_start_verification(PID, 0, 0, True, now_ms=0)
    log.data(1, epoch=0, seq=0, guard=guard)
    nxt = log.state.maybe_start_verification(PID, 0, 1, True, now_ms=1)
    assert nxt is not None
    log.marker(epoch=1, version=2)  # the end of the epoch-0 transaction, bumped to 1
    assert log.state.verification_guard(PID) is nxt
    log.data(1, epoch=1, seq=0, guard=nxt)


def test_snapshots_keep_the_verification_setting_but_not_verifications_in_progress():
    log = Appender(verification=True)
    log.data(1, epoch=0, txn=False)
    log.state.maybe_start_verification(PID, 1, 0, False, now_ms=0)
    loaded = ProducerStateManager.from_snapshot(log.state.snapshot(log.next_offset), verification_enabled=True)
    assert loaded is not None
    manager, offset = loaded
    assert (manager.verification_enabled, offset, manager.verifications) == (True, 1, {})
    assert manager.producers[PID].epoch == 0
