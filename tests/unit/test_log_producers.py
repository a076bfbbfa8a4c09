"""Idempotent and transactional producers on PartitionLog."""

from __future__ import annotations

import pytest

from broker.log.checkpoint import CLEAN_SHUTDOWN_FILE
from broker.log.config import LogConfig
from broker.protocol.errors import ErrorCode, KafkaError
from tests.unit.test_log_helpers import batch, batch_offsets, crash, marker, open_log

PID = 4242


def _code(exc_info) -> int:
    return exc_info.value.error_code


def test_duplicate_batch_returns_original_offsets_and_appends_nothing(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(2))  # offsets 0-1 from someone else
    first = log.append(batch(3, pid=PID, epoch=0, seq=0))
    second = log.append(batch(2, pid=PID, epoch=0, seq=3))
    end = log.log_end_offset
    again = log.append(batch(3, pid=PID, epoch=0, seq=0))
    assert again.duplicate
    assert (again.base_offset, again.last_offset) == (first.base_offset, first.last_offset) == (2, 4)
    assert log.append(batch(2, pid=PID, epoch=0, seq=3)).base_offset == second.base_offset
    assert log.log_end_offset == end
    assert log.append(batch(1, pid=PID, epoch=0, seq=5)).base_offset == end
    log.close()


def test_only_the_last_five_batches_are_remembered(tmp_path):
    log = open_log(tmp_path)
    for seq in range(7):
        log.append(batch(1, pid=PID, epoch=0, seq=seq))
    for seq in range(2, 7):
        assert log.append(batch(1, pid=PID, epoch=0, seq=seq)).duplicate
    with pytest.raises(KafkaError) as err:
        log.append(batch(1, pid=PID, epoch=0, seq=1))
    assert _code(err) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    log.close()


def test_out_of_order_sequence(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(2, pid=PID, epoch=0, seq=0))
    for bad in (3, 5, 1):
        with pytest.raises(KafkaError) as err:
            log.append(batch(1, pid=PID, epoch=0, seq=bad))
        assert _code(err) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER == 45
    assert log.log_end_offset == 2
    log.close()


def test_a_gap_left_by_a_write_the_disk_refused_is_a_storage_error_not_a_sequence_error(tmp_path, monkeypatch):
    """An idempotent client pipelines batches 1-3; the disk refuses batch 1 and then has room
    again for batch 2. Batch 2 must get the storage error too: a sequence error would make
    librdkafka bump its producer epoch, and batches of its other partitions that are
    possibly written already would go out again under new sequence numbers (duplicates)."""
    import broker.log.segment as segment_module

    log = open_log(tmp_path)
    log.append(batch(2, pid=PID, epoch=0, seq=0))
    real_writev = segment_module.os.writev
    full = [True]

    def writev(fd, buffers):
        if full[0]:
            raise OSError(28, "No space left on device")
        return real_writev(fd, buffers)

    monkeypatch.setattr(segment_module.os, "writev", writev)
    with pytest.raises(KafkaError) as err:
        log.append(batch(1, pid=PID, epoch=0, seq=2))
    assert _code(err) == ErrorCode.KAFKA_STORAGE_ERROR
    full[0] = False
    with pytest.raises(KafkaError) as err:
        log.append(batch(1, pid=PID, epoch=0, seq=3))
    assert _code(err) == ErrorCode.KAFKA_STORAGE_ERROR  # not OUT_OF_ORDER_SEQUENCE_NUMBER
    # Another producer's gap is its own: a sequence error as always.
    log.append(batch(1, pid=PID + 1, epoch=0, seq=0))
    with pytest.raises(KafkaError) as err:
        log.append(batch(1, pid=PID + 1, epoch=0, seq=5))
    assert _code(err) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    # The client retries in order: each batch once.
    assert log.append(batch(1, pid=PID, epoch=0, seq=2)).base_offset == 3
    assert log.append(batch(1, pid=PID, epoch=0, seq=3)).base_offset == 4
    assert log.append(batch(1, pid=PID, epoch=0, seq=3)).duplicate
    # Once its write went through, a real gap of that producer is a sequence error again.
    with pytest.raises(KafkaError) as err:
        log.append(batch(1, pid=PID, epoch=0, seq=9))
    assert _code(err) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert log.log_end_offset == 5
    log.close()


def test_stale_epoch_and_new_epoch_rules(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(1, pid=PID, epoch=3, seq=0))
    with pytest.raises(KafkaError) as err:
        log.append(batch(1, pid=PID, epoch=2, seq=1))
    assert _code(err) == ErrorCode.INVALID_PRODUCER_EPOCH == 47
    with pytest.raises(KafkaError) as err:
        log.append(batch(1, pid=PID, epoch=4, seq=5))  # a new epoch starts at 0
    assert _code(err) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert not log.append(batch(1, pid=PID, epoch=4, seq=0)).duplicate
    log.close()


def test_unknown_producer_is_accepted_at_any_sequence(tmp_path):
    # Kafka 4.x (KIP-360): no UNKNOWN_PRODUCER_ID; state may have been expired or deleted.
    log = open_log(tmp_path)
    info = log.append(batch(2, pid=PID, epoch=0, seq=17))
    assert (info.base_offset, info.duplicate) == (0, False)
    assert log.append(batch(1, pid=PID, epoch=0, seq=19)).base_offset == 2
    log.close()


def test_sequence_wraps_after_int32_max(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(2, pid=PID, epoch=0, seq=2**31 - 2))  # last sequence 2**31 - 1
    assert not log.append(batch(1, pid=PID, epoch=0, seq=0)).duplicate
    log.close()


def test_refused_append_leaves_state_untouched(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(1, pid=PID, epoch=0, seq=0))
    blob = batch(1, pid=PID, epoch=0, seq=1) + batch(1, pid=PID, epoch=0, seq=7)
    with pytest.raises(KafkaError):
        log.append(blob)
    assert log.log_end_offset == 1
    assert log.append(batch(1, pid=PID, epoch=0, seq=1)).base_offset == 1
    log.close()


@pytest.mark.parametrize("clean", [True, False])
def test_duplicate_detection_survives_restart(tmp_path, clean):
    config = LogConfig(segment_bytes=400, transaction_verification=False)
    log = open_log(tmp_path, config)
    for seq in range(0, 12, 2):
        log.append(batch(2, pid=PID, epoch=1, seq=seq, value_size=50))
    assert len(log.segments) > 1
    if clean:
        log.close()
        (tmp_path / CLEAN_SHUTDOWN_FILE).write_bytes(b"")
    else:
        crash(log)
    log = open_log(tmp_path, config)
    again = log.append(batch(2, pid=PID, epoch=1, seq=10, value_size=50))
    assert again.duplicate and (again.base_offset, again.last_offset) == (10, 11)
    with pytest.raises(KafkaError) as err:
        log.append(batch(1, pid=PID, epoch=1, seq=13))
    assert _code(err) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    with pytest.raises(KafkaError) as err:
        log.append(batch(1, pid=PID, epoch=0, seq=12))
    assert _code(err) == ErrorCode.INVALID_PRODUCER_EPOCH
    assert log.append(batch(1, pid=PID, epoch=1, seq=12)).base_offset == 12
    log.close()


def test_open_transaction_holds_the_last_stable_offset(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(2))
    log.append(batch(3, pid=PID, epoch=0, seq=0, txn=True))  # offsets 2-4
    log.append(batch(1))  # 5, non-transactional from another producer
    log.append(batch(2, pid=PID, epoch=0, seq=3, txn=True))  # 6-7
    assert log.high_watermark == 8
    assert log.last_stable_offset == 2
    assert batch_offsets(log.read(0, 1 << 20, max_offset=log.last_stable_offset).records) == [(0, 1)]
    commit = log.append(marker(PID, 0, commit=True))
    assert commit.base_offset == 8
    assert log.last_stable_offset == log.high_watermark == 9
    assert log.aborted_transactions(0, 9) == []
    log.close()


def test_aborted_transactions_are_indexed(tmp_path):
    other = PID + 1
    log = open_log(tmp_path)
    log.append(batch(2, pid=PID, epoch=0, seq=0, txn=True))  # 0-1
    log.append(batch(1, pid=other, epoch=0, seq=0, txn=True))  # 2
    log.append(marker(PID, 0, commit=False))  # abort at 3
    assert log.last_stable_offset == 2  # the other transaction is still open
    log.append(marker(other, 0, commit=True))  # 4
    log.append(batch(1, pid=PID, epoch=0, seq=2, txn=True))  # 5
    log.append(marker(PID, 0, commit=False))  # abort at 6
    assert log.last_stable_offset == 7
    assert log.aborted_transactions(0, 7) == [(PID, 0), (PID, 5)]
    assert log.aborted_transactions(4, 7) == [(PID, 5)]
    assert log.aborted_transactions(0, 3) == [(PID, 0)]
    assert log.aborted_transactions(7, 10) == []
    txnindex = log.active_segment.txn_index.path
    log.flush()  # index entries reach the file with the flush that makes them durable
    assert txnindex.stat().st_size == 2 * 34
    log.close()


@pytest.mark.parametrize("clean", [True, False])
def test_transaction_state_survives_restart(tmp_path, clean):
    config = LogConfig(segment_bytes=500, transaction_verification=False)
    log = open_log(tmp_path, config)
    log.append(batch(2, pid=PID, epoch=0, seq=0, txn=True, value_size=80))
    log.append(marker(PID, 0, commit=False))
    log.append(batch(2, pid=PID, epoch=0, seq=2, txn=True, value_size=80))  # left open: 3-4
    for _ in range(3):
        log.append(batch(1, value_size=80))
    assert len(log.segments) > 1
    if clean:
        log.close()
        (tmp_path / CLEAN_SHUTDOWN_FILE).write_bytes(b"")
    else:
        crash(log)
    log = open_log(tmp_path, config)
    assert log.last_stable_offset == 3
    assert log.aborted_transactions(0, 100) == [(PID, 0)]
    log.append(marker(PID, 0, commit=False))
    assert log.aborted_transactions(0, 100) == [(PID, 0), (PID, 3)]
    assert log.last_stable_offset == log.high_watermark
    log.close()


def test_transaction_rules(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(1, pid=PID, epoch=2, seq=0, txn=True))
    with pytest.raises(KafkaError) as err:
        log.append(batch(1, pid=PID, epoch=2, seq=1))  # non-transactional inside a transaction
    assert _code(err) == ErrorCode.INVALID_TXN_STATE == 48
    with pytest.raises(KafkaError) as err:
        log.append(marker(PID, 1, commit=True))
    assert _code(err) == ErrorCode.INVALID_PRODUCER_EPOCH
    log.append(marker(PID, 2, commit=True, coordinator_epoch=5))
    log.append(batch(1, pid=PID, epoch=2, seq=1, txn=True))
    with pytest.raises(KafkaError) as err:
        log.append(marker(PID, 2, commit=False, coordinator_epoch=4))
    assert _code(err) == ErrorCode.TRANSACTION_COORDINATOR_FENCED == 52
    # A marker for a producer with no open transaction is accepted and changes nothing.
    log.append(marker(PID + 9, 0, commit=False))
    assert log.aborted_transactions(0, 100) == []
    log.close()


def test_producer_state_dropped_when_its_batches_are_deleted(tmp_path):
    log = open_log(tmp_path, LogConfig(segment_bytes=400, transaction_verification=False))
    log.append(batch(1, pid=PID, epoch=0, seq=0, value_size=100))
    for _ in range(6):
        log.append(batch(1, value_size=100))
    log.delete_records(log.high_watermark)
    assert PID not in log.producer_state.producers
    # Unknown again: any sequence is accepted.
    assert log.append(batch(1, pid=PID, epoch=0, seq=40)).duplicate is False
    log.close()


def test_idle_producers_expire(tmp_path):
    from tests.unit.test_log_helpers import Clock

    clock = Clock()
    log = open_log(tmp_path, LogConfig(producer_id_expiration_ms=1000, transaction_verification=False), clock)
    log.append(batch(1, pid=PID, epoch=0, seq=0, ts=clock.now))
    log.apply_retention(clock.now + 999)
    assert PID in log.producer_state.producers
    log.apply_retention(clock.now + 1000)
    assert PID not in log.producer_state.producers
    log.close()


def test_duplicate_on_a_log_append_time_topic_reports_the_original_append_time(tmp_path):
    from tests.unit.test_log_helpers import Clock

    clock = Clock(1_900_000_000_000)
    log = open_log(tmp_path, LogConfig(message_timestamp_type="LogAppendTime", transaction_verification=False), clock)
    first = log.append(batch(1, pid=PID, epoch=0, seq=0, ts=5))
    clock.now += 1000
    again = log.append(batch(1, pid=PID, epoch=0, seq=0, ts=5))
    assert again.duplicate and again.log_append_time_ms == first.log_append_time_ms == 1_900_000_000_000
    log.close()
