"""What a ShareFetch answer carries for the records acquired: PartitionLogView.records_for
over a real on-disk PartitionLog."""

from __future__ import annotations

from broker.log.config import LogConfig
from broker.protocol.compression import CompressionType
from broker.protocol.records import build_batch, check_crc, iter_batches, iter_records
from broker.share.inflight import AcquiredRange
from broker.share.log_view import SLICE_MIN_BYTES, PartitionLogView
from tests.unit.test_log_helpers import open_log


def _records(n: int, size: int = 100, compression: int = CompressionType.NONE) -> bytes:
    return build_batch([(b"k%d" % i, b"v" * size, [], None) for i in range(n)], compression=compression)


def _offsets(raw) -> list[int]:
    return [r.offset for _, view in iter_batches(raw) for r in iter_records(view)]


def _view(tmp_path, *batches: bytes) -> PartitionLogView:
    log = open_log(tmp_path, LogConfig(transaction_verification=False))
    for b in batches:
        log.append(b)
    return PartitionLogView(log)


def test_whole_batches_go_out_as_stored_and_batches_holding_nothing_acquired_stay_out(tmp_path):
    view = _view(tmp_path, _records(3), _records(3), _records(3), _records(3))  # 0-2, 3-5, 6-8, 9-11
    raw = view.records_for([AcquiredRange(0, 2, 1), AcquiredRange(9, 11, 1)])
    assert _offsets(raw) == [0, 1, 2, 9, 10, 11]
    stored = view.log.read(0, 1 << 20).records
    first, _, _, last = (bytes(v) for _, v in iter_batches(stored))
    assert bytes(raw) == first + last  # exactly the stored bytes, nothing sliced or in between


def test_a_large_batch_partly_acquired_goes_out_sliced(tmp_path):
    batch = _records(1000)  # about 110 KB
    view = _view(tmp_path, _records(5), batch)
    raw = view.records_for([AcquiredRange(3, 4, 1), AcquiredRange(255, 504, 1), AcquiredRange(600, 700, 2)])
    for _, v in iter_batches(raw):
        check_crc(v)
    # The first batch is small and goes out whole; the large one only from 255 to 700.
    assert _offsets(raw) == list(range(5)) + list(range(255, 701))
    assert len(raw) < len(batch) / 2
    # A whole batch acquired is not sliced, and the slices are served from what was kept.
    assert _offsets(view.records_for([AcquiredRange(5, 1004, 1)])) == list(range(5, 1005))
    assert _offsets(view.records_for([AcquiredRange(900, 901, 1)])) == [900, 901]


def test_compressed_and_small_batches_go_out_whole(tmp_path):
    compressed = _records(1000, compression=CompressionType.GZIP)
    small = _records(20, size=10)
    assert len(small) < SLICE_MIN_BYTES
    view = _view(tmp_path, compressed, small)
    assert _offsets(view.records_for([AcquiredRange(10, 20, 1)])) == list(range(1000))
    assert _offsets(view.records_for([AcquiredRange(1005, 1006, 1)])) == list(range(1000, 1020))


def test_a_batch_the_log_start_moved_into_still_goes_out(tmp_path):
    """DeleteRecords to the middle of a batch: the batch's base offset is below the log start
    and reading from it is out of range; the answer still carries the batch (librdkafka 0170)."""
    view = _view(tmp_path, _records(10, size=10), _records(1000))
    view.log.delete_records(5)
    assert _offsets(view.records_for([AcquiredRange(5, 9, 1)])) == list(range(10))
    view.log.delete_records(500)
    assert _offsets(view.records_for([AcquiredRange(500, 509, 1)])) == list(range(500, 510))


def test_an_answer_of_whole_batches_comes_as_file_ranges_with_the_same_bytes(tmp_path):
    from broker.log.file_slice import FileSlice

    view = _view(tmp_path, _records(1000), _records(1000))  # about 110 KB each: 0-999, 1000-1999
    whole = [AcquiredRange(0, 1999, 1)]
    found = view.records_for(whole, as_file=True)
    assert isinstance(found, FileSlice) and not found.read  # not read: sent from the file
    assert len(found) == len(view.records_for(whole))
    assert bytes(found) == bytes(view.records_for(whole))
    # A batch partly acquired is cut in memory, so that answer is bytes, as before.
    part = view.records_for([AcquiredRange(0, 999, 1), AcquiredRange(1500, 1600, 1)], as_file=True)
    assert not isinstance(part, FileSlice)
    assert _offsets(part) == list(range(1000)) + list(range(1500, 1601))
