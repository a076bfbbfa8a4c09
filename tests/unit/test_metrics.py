"""The metrics text format, the counters behind it and the HTTP endpoint (in process)."""

from __future__ import annotations

import math

import pytest
import trio

from broker.group.share import records as rec
from broker.protocol.messages.share_group_target_assignment_metadata_key import (
    ShareGroupTargetAssignmentMetadataKey,
)
from broker.server import metrics as m
from broker.server.metrics import Family, Histogram, Metrics, escape_help, escape_label, format_value, render
from broker.share.inflight import RunView
from broker.share.states import RecordState

# --- text format ----------------------------------------------------------------------


def test_help_and_type_precede_samples():
    text = render([Family("x_total", "counter", "Things.").add(3)])
    assert text == "# HELP x_total Things.\n# TYPE x_total counter\nx_total 3\n"


def test_family_without_samples_still_has_help_and_type():
    assert render([Family("g", "gauge", "Nothing yet.")]) == "# HELP g Nothing yet.\n# TYPE g gauge\n"


def test_nothing_renders_as_empty():
    assert render([]) == ""


def test_label_values_are_escaped():
    text = render([Family("g", "gauge", "h").add(1, topic='a"b\\c\nd', partition=0)])
    assert text.splitlines()[-1] == 'g{topic="a\\"b\\\\c\\nd",partition="0"} 1'


def test_help_is_escaped():
    assert escape_help("a\\b\nc") == "a\\\\b\\nc"
    assert escape_label('"') == '\\"'
    text = render([Family("g", "gauge", "line one\nline two \\ end").add(0)])
    assert text.splitlines()[0] == "# HELP g line one\\nline two \\\\ end"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0, "0"),
        (7, "7"),
        (2.0, "2"),
        (0.25, "0.25"),
        (math.inf, "+Inf"),
        (-math.inf, "-Inf"),
        (math.nan, "NaN"),
        (True, "1"),
    ],
)
def test_values(value, text):
    assert format_value(value) == text


def test_histogram_buckets_are_cumulative_with_inf_sum_and_count():
    h = Histogram((0.1, 1.0))
    for v in (0.05, 0.1, 0.5, 3.0):
        h.observe(v)
    f = Family("lat_seconds", "histogram", "Latency.")
    m._histogram(f, h, api="Produce")
    lines = render([f]).splitlines()[2:]
    assert lines == [
        'lat_seconds_bucket{api="Produce",le="0.1"} 2',
        'lat_seconds_bucket{api="Produce",le="1"} 3',
        'lat_seconds_bucket{api="Produce",le="+Inf"} 4',
        'lat_seconds_sum{api="Produce"} 3.65',
        'lat_seconds_count{api="Produce"} 4',
    ]


# --- counters -----------------------------------------------------------------------


def test_requests_counted_per_api():
    metrics = Metrics()
    metrics.observe_request("Produce", 0.001)
    metrics.observe_request("Produce", 0.002)
    metrics.observe_request("Fetch", 0.5)
    assert metrics.requests == {"Produce": 2, "Fetch": 1}
    assert metrics.request_latency["Produce"].count == 2
    assert metrics.request_latency["Fetch"].counts[-1] == 0  # 0.5 s is within the buckets


def test_acknowledgements_by_type_count_requests_and_records():
    metrics = Metrics()
    metrics.acknowledged([(0, 9, [1])])  # ten accepts in one range
    metrics.acknowledged([(10, 13, [1, 2, 3, 0]), (20, 21, [4])])  # per-offset types, then renew
    by = dict(zip(m.ACK_TYPES, metrics.ack_records))
    assert by == {"gap": 1, "accept": 11, "release": 1, "reject": 1, "renew": 2}
    requests = dict(zip(m.ACK_TYPES, metrics.ack_requests))
    assert requests == {"gap": 1, "accept": 2, "release": 1, "reject": 1, "renew": 1}


def test_unknown_ack_type_is_ignored():
    metrics = Metrics()
    metrics.acknowledged([(0, 0, [9])])
    assert sum(metrics.ack_records) == sum(metrics.ack_requests) == 0


def test_rebalances_count_new_target_assignments_only():
    assert m._TARGET_ASSIGNMENT_METADATA == ShareGroupTargetAssignmentMetadataKey.API_KEY
    metrics = Metrics()
    metrics.rebalanced(
        [
            rec.encode(rec.target_assignment_epoch("g", 1)),
            rec.encode(rec.target_assignment_epoch("g", 2)),
            rec.encode(rec.target_assignment_epoch_tombstone("g")),
        ]
    )
    assert metrics.share_rebalances == 2


# --- collect() over a stand-in broker -------------------------------------------------------


class _Listed:
    def __init__(self, state: str) -> None:
        self.state = state


class _Log:
    def __init__(self, topic: str, partition: int, size: int) -> None:
        self.topic, self.partition, self.size_bytes = topic, partition, size


class _SP:
    """A share-partition whose window is [10, 10 + in_flight): the first offset accepted,
    the second acquired, the rest available."""

    def __init__(self, in_flight: int) -> None:
        self.in_flight = in_flight
        self.start_offset = 10

    def runs(self) -> list[RunView]:
        return [
            RunView(10, 10, RecordState.ACKNOWLEDGED, 1, None, -1, False),
            RunView(11, 11, RecordState.ACQUIRED, 1, "m", 99, False),
            RunView(12, 9 + self.in_flight, RecordState.AVAILABLE, 1, None, -1, False),
        ]

    def archiving(self) -> int:
        return 0

    def first_available_offset(self) -> int:
        return 12


class _Header:
    base_timestamp = 40_000


class _PartitionLog:
    high_watermark = 20

    def batch_headers(self, offset: int, max_bytes: int, *, max_offset: int) -> list[_Header]:
        return [_Header()]


class _Entry:
    def __init__(self, in_flight: int) -> None:
        self.sp = _SP(in_flight)
        self.key = ("g", None, in_flight)
        self.topic = "t"
        self.partition = in_flight
        self.view = _NS(log=_PartitionLog())


class _NS:
    def __init__(self, **kw: object) -> None:
        self.__dict__.update(kw)


def _fake_broker() -> _NS:
    groups = [_Listed("Stable"), _Listed("Empty"), _Listed("Stable")]

    def list_groups(states_filter=()):
        return [g for g in groups if not states_filter or g.state in states_filter]

    share = _NS(loaded=lambda: [_Entry(3), _Entry(4)], sessions=[1, 2], now_ms=lambda: 100_000)
    return _NS(
        metrics=Metrics(),
        groups=_NS(
            list_share_groups=list_groups,
            list_groups=lambda: [object()],
            list_consumer_groups=lambda: [("c1", "Stable"), ("c2", "Stable"), ("c3", "Reconciling")],
            list_streams_groups=lambda: [("s1", "NotReady")],
        ),
        logs=_NS(
            logs=lambda: [_Log("t", 1, 50), _Log("t", 0, 100), _Log("a", 0, 7)],
            unopened_new=list,
            cleaner=_NS(
                runs=2,
                bytes_read=300,
                bytes_written=100,
                failures=0,
                uncleanable=frozenset(),
                max_dirty_ratio=0.25,
                partition_stats=lambda: [("c", 0, 0.25, 1.5), ("c", 1, 0.0, None)],
            ),
        ),
        share=share,
    )


def _samples(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        if not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = value
    return out


def test_collect_reads_live_objects():
    broker = _fake_broker()
    broker.metrics.observe_request("ShareFetch", 0.01)
    text = m.scrape(broker)
    s = _samples(text)
    assert s['sharebroker_requests_total{api="ShareFetch"}'] == "1"
    assert s['sharebroker_log_size_bytes{topic="t",partition="0"}'] == "100"
    assert s['sharebroker_share_groups{state="Stable"}'] == "2"
    assert s['sharebroker_share_groups{state="Empty"}'] == "1"
    assert s['sharebroker_share_groups{state="Dead"}'] == "0"
    assert s["sharebroker_share_group_count"] == "3"
    assert s["sharebroker_share_partitions_loaded"] == "2"
    assert s["sharebroker_share_in_flight_records"] == "7"
    # per share-partition: lag = high watermark 20 - start 10 - 1 accepted; 1 acquired;
    # the first available record's batch is 60 s old
    labels = '{group="g",topic="t",partition="4"}'
    assert s[f"sharebroker_share_partition_lag{labels}"] == "9"
    assert s[f"sharebroker_share_partition_acquired_records{labels}"] == "1"
    assert s[f"sharebroker_share_partition_oldest_available_age_seconds{labels}"] == "60"
    assert s["sharebroker_share_sessions"] == "2"
    assert s["sharebroker_classic_groups"] == "1"
    assert s['sharebroker_consumer_groups{state="Stable"}'] == "2"
    assert s['sharebroker_consumer_groups{state="Reconciling"}'] == "1"
    assert s['sharebroker_consumer_groups{state="Empty"}'] == "0"
    assert s["sharebroker_consumer_group_count"] == "3"
    assert s['sharebroker_streams_groups{state="NotReady"}'] == "1"
    assert s["sharebroker_streams_group_rebalances_total"] == "0"
    assert s['sharebroker_share_acknowledgements_total{type="accept"}'] == "0"
    assert s["sharebroker_log_cleaner_runs_total"] == "2"
    assert s["sharebroker_log_cleaner_read_bytes_total"] == "300"
    assert s['sharebroker_log_dirty_ratio{topic="c",partition="0"}'] == "0.25"
    assert s['sharebroker_log_seconds_since_last_clean{topic="c",partition="0"}'] == "1.5"
    assert 'sharebroker_log_seconds_since_last_clean{topic="c",partition="1"}' not in s


def test_every_family_has_help_and_type_and_the_prefix():
    text = m.scrape(_fake_broker())
    names = [line.split()[2] for line in text.splitlines() if line.startswith("# TYPE")]
    helps = [line.split()[2] for line in text.splitlines() if line.startswith("# HELP")]
    assert names == helps
    assert len(names) == len(set(names))
    assert all(n.startswith("sharebroker_") for n in names)
    for line in text.splitlines():
        if not line.startswith("#"):
            assert any(line.startswith(n) for n in names), line


def test_ordering_is_stable_and_sorted_by_labels():
    broker = _fake_broker()
    for api in ("Produce", "ApiVersions", "Metadata"):
        broker.metrics.observe_request(api, 0.001)
    first = m.scrape(broker)
    assert first == m.scrape(broker)
    apis = [line.split('"')[1] for line in first.splitlines() if line.startswith("sharebroker_requests_total{")]
    assert apis == ["ApiVersions", "Metadata", "Produce"]
    logs = [line for line in first.splitlines() if line.startswith("sharebroker_log_size_bytes{")]
    assert logs == [
        'sharebroker_log_size_bytes{topic="a",partition="0"} 7',
        'sharebroker_log_size_bytes{topic="t",partition="0"} 100',
        'sharebroker_log_size_bytes{topic="t",partition="1"} 50',
    ]


def test_a_partition_whose_log_is_not_open_yet_is_listed_empty(tmp_path):
    from broker.log.manager import LogManager
    from tests.unit.test_log_helpers import batch

    logs = LogManager(tmp_path / "data")
    logs.open()
    try:
        logs.create_topic("new", 2)  # opened by their first use
        logs.partition("new", 1).append(batch(1))
        text = render([m._log_size_family(_NS(logs=logs))])
        assert 'sharebroker_log_size_bytes{topic="new",partition="0"} 0' in text
        assert f'sharebroker_log_size_bytes{{topic="new",partition="1"}} {len(batch(1))}' in text
    finally:
        logs.close()


# --- HTTP --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [("127.0.0.1:9404", ("127.0.0.1", 9404)), (":0", ("", 0)), ("[::1]:80", ("::1", 80))],
)
def test_parse_listen(value, expected):
    assert m.parse_listen(value) == expected


@pytest.mark.parametrize("value", ["9404", "host:", "host:x", "h:70000"])
def test_parse_listen_refuses(value):
    with pytest.raises(ValueError):
        m.parse_listen(value)


def test_handle_request_routes():
    broker = _fake_broker()
    ok = m.handle_request(broker, b"GET /metrics HTTP/1.1\r\nHost: x")
    assert ok.startswith(b"HTTP/1.1 200 OK\r\n")
    assert b"Content-Type: text/plain; version=0.0.4" in ok
    assert m.handle_request(broker, b"GET /metrics?x=1 HTTP/1.0").startswith(b"HTTP/1.1 200")
    for head in (b"GET / HTTP/1.1", b"POST /metrics HTTP/1.1", b"GET /metricsx HTTP/1.1"):
        assert m.handle_request(broker, head).startswith(b"HTTP/1.1 404"), head
    assert m.handle_request(broker, b"garbage").startswith(b"HTTP/1.1 400")


def test_a_failing_scrape_is_a_500_not_a_crash():
    broker = _fake_broker()
    broker.logs = None
    assert m.handle_request(broker, b"GET /metrics HTTP/1.1").startswith(b"HTTP/1.1 500")


async def _exchange(port: int, data: bytes) -> bytes:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(data)
        await stream.send_eof()
        out = bytearray()
        while chunk := await stream.receive_some(65536):
            out += chunk
    return bytes(out)


async def test_endpoint_serves_and_survives_bad_requests():
    broker = _fake_broker()
    async with trio.open_nursery() as nursery:
        port = await nursery.start(m.serve_metrics, broker, "127.0.0.1", 0)
        ok = await _exchange(port, b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        head, body = ok.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 200 OK")
        assert f"Content-Length: {len(body)}".encode() in head
        assert b"sharebroker_share_sessions 2\n" in body
        try:  # the unread rest of an oversized request may reset the connection first
            big = await _exchange(port, b"GET /metrics HTTP/1.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n")
        except trio.BrokenResourceError:
            big = b"HTTP/1.1 413"
        assert big.startswith(b"HTTP/1.1 413")
        assert await _exchange(port, b"") == b""  # connected and closed without a word
        assert (await _exchange(port, b"GET /nope HTTP/1.1\r\n\r\n")).startswith(b"HTTP/1.1 404")
        again = await _exchange(port, b"GET /metrics HTTP/1.1\r\n\r\n")
        assert again.startswith(b"HTTP/1.1 200")
        nursery.cancel_scope.cancel()


async def test_bind_failure_is_logged_not_raised():
    broker = _fake_broker()
    async with trio.open_nursery() as nursery:
        port = await nursery.start(m.serve_metrics, broker, "127.0.0.1", 0)
        assert await nursery.start(m.serve_metrics, broker, "127.0.0.1", port) is None
        nursery.cancel_scope.cancel()


def test_collect_against_a_real_broker(tmp_path):
    from broker.server.app import close_services
    from tests.services import make_services

    services = make_services(tmp_path)
    try:
        s = _samples(m.scrape(services))
    finally:
        close_services(services)
    assert s["sharebroker_share_group_count"] == "0"
    assert s['sharebroker_share_groups{state="Empty"}'] == "0"
    assert s["sharebroker_share_sessions"] == "0"
    assert s["sharebroker_classic_groups"] == "0"


def test_cli_metrics_listen_sets_the_setting(monkeypatch, tmp_path):
    import broker.server
    from broker import cli

    seen = []
    monkeypatch.setattr(broker.server, "run", lambda config: seen.append(config.get("metrics.listen")))
    argv = ["serve", "--set", f"log.dirs={tmp_path}", "--metrics-listen", "127.0.0.1:0", "--log-level", "error"]
    assert cli.main(argv) == cli.EXIT_OK
    assert seen == ["127.0.0.1:0"]
    assert cli.main(["serve", "--set", f"log.dirs={tmp_path}", "--metrics-listen", "nope"]) == cli.EXIT_USAGE


def test_metrics_listen_is_off_by_default():
    from broker.config import load_config

    assert load_config(None, []).get("metrics.listen") is None
