"""PartitionLog.read_slice: the batches read() would return, as file ranges (FileSlice)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from broker.log.config import LogConfig
from tests.unit.test_log_helpers import batch, open_log


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    counts=st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=40),
    segment_bytes=st.integers(min_value=500, max_value=3000),
    probes=st.lists(
        st.tuples(st.integers(0, 10_000), st.integers(0, 5000), st.integers(0, 10_000), st.booleans()),
        min_size=1,
        max_size=20,
    ),
)
def test_a_slice_is_what_read_returns(tmp_path_factory, counts, segment_bytes, probes):
    log = open_log(tmp_path_factory.mktemp("slice"), LogConfig(segment_bytes=segment_bytes))
    end = 0
    for n in counts:
        log.append(batch(n, value_size=n * 7))
        end += n
    for probe, max_bytes, cap, min_one in probes:
        offset = probe % end
        upper = offset + cap % (end - offset + 1)
        read = log.read(offset, max_bytes, max_offset=upper, min_one=min_one)
        found, first = log.read_slice(offset, max_bytes, max_offset=upper, min_one=min_one)
        if not len(read.records):
            assert found is None and first == offset
            continue
        assert found is not None and first == read.first_offset == found.first_offset
        assert len(found) == len(read.records)
        assert bytes(found) == bytes(read.records)
    log.close()


def test_a_slice_outlives_the_segments_it_reads_and_gives_its_descriptors_back(tmp_path):
    log = open_log(tmp_path, LogConfig(segment_bytes=40_000))
    for _ in range(30):
        log.append(batch(3, value_size=1000))
    found, _ = log.read_slice(0, 1 << 20)
    assert found is not None and len(found.ranges) > 1  # spans several segments
    before = log.read(0, 1 << 20).records
    fds = [fd for fd, _, _ in found.ranges]
    log.delete_records(80)
    log.close()  # every segment's own descriptor closed, files maybe gone
    assert bytes(found) == bytes(before)  # read through the slice's own descriptors
    assert found.ranges == []
    for fd in fds:
        try:
            os.fstat(fd)
        except OSError:
            continue
        raise AssertionError(f"descriptor {fd} still open")


def test_a_small_slice_is_read_at_once(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(3, value_size=10))
    found, _ = log.read_slice(0, 1 << 20)
    assert found is not None and found.read and found.ranges == []
    assert bytes(found) == bytes(log.read(0, 1 << 20).records)
    log.close()
