"""The pyspark-free parts of broker.spark: the column decoder the executors use (checked
against broker.protocol.records), acknowledgement runs and task splitting."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from broker.protocol.compression import CompressionType
from broker.protocol.records import build_batch, iter_batches, iter_records
from broker.spark.columns import batch_body, decode_into
from broker.spark.fetcher import RangeTask, pack_tasks, split_ranges
from broker.spark.member import ACCEPT, REJECT, RELEASE, Acquired, ack_runs, coalesce

records = st.lists(
    st.tuples(
        st.none() | st.binary(max_size=40),
        st.none() | st.binary(max_size=300),
        st.lists(st.tuples(st.text(max_size=8), st.none() | st.binary(max_size=10)), max_size=3),
        st.integers(min_value=0, max_value=2**41),
    ),
    min_size=1,
    max_size=60,
)


def columns(batch: bytes, lo: int, hi: int, headers: bool) -> dict[str, list]:
    header, view = next(iter(iter_batches(batch)))
    cols: dict[str, list] = {"keys": [], "values": [], "offsets": [], "stamps": [], "counts": []}
    hdrs: list | None = [] if headers else None
    n = decode_into(
        header,
        batch_body(header, view),
        lo,
        hi,
        3,
        cols["keys"],
        cols["values"],
        cols["offsets"],
        cols["stamps"],
        cols["counts"],
        hdrs,
    )
    assert n == len(cols["offsets"])
    if hdrs is not None:
        cols["headers"] = hdrs
    return cols


@given(records, st.sampled_from(list(CompressionType)), st.integers(0, 70), st.integers(0, 70), st.booleans())
def test_decode_into_matches_iter_records(recs, codec, lo, span, log_append) -> None:
    batch = build_batch(recs, base_offset=1000, compression=codec, timestamp_type=1 if log_append else 0)
    lo, hi = 1000 + lo, 1000 + lo + span
    got = columns(batch, lo, hi, headers=True)
    want = [r for r in iter_records(batch) if lo <= r.offset <= hi]
    assert got["offsets"] == [r.offset for r in want]
    assert got["keys"] == [r.key for r in want]
    assert got["values"] == [r.value for r in want]
    assert got["stamps"] == [r.timestamp * 1000 for r in want]
    assert got["headers"] == [[{"key": k, "value": v} for k, v in r.headers] for r in want]
    assert got["counts"] == [3] * len(want)


def test_ack_runs_split_around_marks() -> None:
    ranges = [Acquired(10, 19, 1), Acquired(30, 31, 2)]
    assert ack_runs(ranges) == [(10, 19, ACCEPT), (30, 31, ACCEPT)]
    assert ack_runs(ranges, {10: RELEASE, 15: REJECT, 16: REJECT, 31: RELEASE}) == [
        (10, 10, RELEASE),
        (11, 14, ACCEPT),
        (15, 16, REJECT),
        (17, 19, ACCEPT),
        (30, 30, ACCEPT),
        (31, 31, RELEASE),
    ]
    assert ack_runs(ranges, {99: REJECT}, kind=RELEASE) == [(10, 19, RELEASE), (30, 31, RELEASE)]


def test_coalesce() -> None:
    assert coalesce({5: 1, 3: 1, 4: 1, 7: 2, 8: 2, 9: 1}) == [(3, 5, 1), (7, 8, 2), (9, 9, 1)]


@given(st.lists(st.tuples(st.integers(1, 50), st.integers(1, 5)), min_size=1, max_size=10), st.integers(1, 40))
def test_split_ranges_keeps_every_offset_once(shape, cap) -> None:
    ranges, start = [], 0
    for length, gap in shape:
        ranges.append((start, start + length - 1, gap))
        start += length + gap
    pieces = split_ranges(ranges, cap)
    assert all(sum(b - a + 1 for a, b, _ in p) <= cap for p in pieces)
    flat = [(o, dc) for p in pieces for a, b, dc in p for o in range(a, b + 1)]
    assert flat == [(o, dc) for a, b, dc in ranges for o in range(a, b + 1)]


@given(
    counts=st.lists(st.integers(min_value=1, max_value=50_000), min_size=0, max_size=30),
    bins=st.one_of(st.none(), st.integers(min_value=1, max_value=8)),
)
def test_pack_tasks_keeps_every_task_once_in_at_most_bins_groups(counts, bins) -> None:
    tasks = [RangeTask("b:1", "t", "id", i, None, ((0, n - 1, 1),)) for i, n in enumerate(counts)]
    groups = pack_tasks(tasks, bins)
    assert sorted(t.partition for g in groups for t in g) == list(range(len(counts)))
    assert all(groups)
    if bins is None:
        assert len(groups) == len(tasks)
    else:
        assert len(groups) == min(bins, len(tasks))
        # Greedy largest-first: no group exceeds the lightest by more than the largest task.
        if groups:
            loads = [sum(t.count for t in g) for g in groups]
            assert max(loads) - min(loads) <= max(counts)
