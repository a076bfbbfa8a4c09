"""The web console's pure parts: charts, value formatting, metrics parsing, history,
input parsing and error pages (the browser tests in tests/ui run the whole thing)."""

from __future__ import annotations

import uuid

import pytest

from broker.admin.client import AdminConnectionError, AdminTimeoutError, KafkaApiError
from broker.handlers.api_10_find_coordinator import uuid_from_kafka_string
from broker.protocol.errors import ErrorCode
from broker.ui import charts, filters
from broker.ui.app import describe_error
from broker.ui.data import Unavailable
from broker.ui.data.share import ShareGroupView, SharePartitionRow, StateBatch, kafka_topic_id
from broker.ui.history import MAX_SERIES, History
from broker.ui.metrics import Scrape, parse
from broker.ui.pages import _int, _timestamp_ms
from broker.ui.rendering import ConsoleError
from broker.ui.server import read_users


def test_inflight_map_draws_each_state_batch_with_its_delivery_count():
    svg = str(charts.inflight_map(20, 50, [StateBatch(20, 29, 0, 2), StateBatch(30, 49, 2, 1), StateBatch(5, 9, 4, 1)]))
    assert 'class="seg seg-available"' in svg and 'data-first="20" data-last="29"' in svg and 'data-count="2"' in svg
    assert 'class="seg seg-acknowledged"' in svg
    assert 'data-first="5"' not in svg  # below the start offset: not in the window
    assert ">20<" in svg and ">49<" in svg  # the axis


def test_inflight_map_of_an_empty_window():
    assert "empty" in str(charts.inflight_map(7, 7, []))


def test_histogram_bars_per_delivery_count_and_state():
    svg = str(charts.histogram({1: {"acknowledged": 20, "available": 10}, 3: {"archived": 2}}))
    assert svg.count('class="bar"') == 3
    assert 'data-count="3" data-state="archived" data-records="2"' in svg


def test_line_chart_needs_two_points():
    assert "Collecting" in str(charts.line_chart({"lag": [(1.0, 5.0)]}))
    svg = str(charts.line_chart({"lag": [(1.0, 5.0), (2.0, 7.0)]}))
    assert "<polyline" in svg and "lag 7" in svg


@pytest.mark.parametrize(
    ("data", "fmt", "shown"),
    [
        (None, "text", "null"),
        (b"caf\xc3\xa9", "text", "café"),
        (b'{"a": [1, 2]}', "json", "&#34;a&#34;: [\n    1,"),
        (b"plain", "json", "plain"),
        (b"\x00\xff", "hex", "00 ff"),
        (b"<b>", "text", "&lt;b&gt;"),
    ],
)
def test_record_values_as_text_json_hex(data, fmt, shown):
    assert shown in str(filters.record_value(data, fmt))


def test_long_values_are_cut():
    out = str(filters.record_value(b"x" * (filters.MAX_SHOWN_BYTES + 10)))
    assert f"{filters.MAX_SHOWN_BYTES + 10:,} bytes in all" in out


def test_unavailable_values_say_so_with_the_reason():
    out = str(filters.num(Unavailable("needs the broker's metrics")))
    assert ">unavailable<" in out and "needs the broker&#39;s metrics" in out
    assert filters.num(1234567) == "1,234,567"
    assert filters.size(1536) == "1.5 KiB"


METRICS = """\
# TYPE sharebroker_share_partition_acquired_records gauge
sharebroker_share_partition_acquired_records{group="g",partition="0",topic="t"} 3
sharebroker_share_partition_acquired_records{group="g",partition="1",topic="t"} 4
sharebroker_share_partition_acquired_records{group="h",partition="0",topic="t"} 9
# TYPE sharebroker_share_acknowledged_records_total counter
sharebroker_share_acknowledged_records_total{type="accept"} 10
sharebroker_share_acknowledged_records_total{type="reject"} 2
# TYPE other_metric gauge
other_metric 1
"""


def test_metrics_are_added_up_over_brokers():
    scrape = Scrape(urls=2)
    parse(METRICS, scrape)
    parse(METRICS, scrape)
    assert scrape.ok
    assert scrape.get("share_partition_acquired_records", group="g", topic="t", partition="1") == 8
    assert scrape.get("share_partition_acquired_records", group="g") == 14
    assert scrape.get("share_partition_acquired_records", group="nope") is None
    assert scrape.by_label("share_acknowledged_records_total", "type") == {"accept": 20, "reject": 4}
    assert "other_metric" not in scrape.samples


def test_counter_rates_survive_a_reset():
    h = History()
    for t, v in [(0, 0), (2, 10), (4, 30), (6, 4)]:
        h.add("acks", float(t), float(v))
    series = h.get("acks")
    assert series is not None
    assert series.rates() == [(2, 5.0), (4, 10.0), (6, 2.0)]
    assert h.last_rate("acks") == 2.0
    assert h.last_rate("missing") is None


def test_history_keeps_a_bounded_number_of_series():
    h = History()
    for i in range(MAX_SERIES + 5):
        h.add(f"s{i}", float(i), 1.0)
    assert h.get("s0") is None and h.get(f"s{MAX_SERIES + 4}") is not None


def test_share_partition_counts():
    row = SharePartitionRow("t", 0, 20, 30, 50, batches=[StateBatch(20, 29, 0, 1), StateBatch(30, 31, 3, 5)])
    row.acquired = 4
    assert row.archiving == 2
    assert row.available == 24
    assert row.window_end == 32
    row.acquired = Unavailable("no metrics")
    assert isinstance(row.available, Unavailable)
    view = ShareGroupView("g", "Empty", 1, 1, "simple", [], [row], [])
    assert view.histogram() == {1: {"available": 10}, 5: {"archiving": 2}}
    assert view.lag == 30


def test_share_coordinator_keys_use_kafkas_topic_id_text():
    tid = uuid.uuid4()
    text = kafka_topic_id(tid)
    assert len(text) == 22 and uuid_from_kafka_string(text) == tid


def test_timestamps_and_numbers_from_the_query_string():
    assert _timestamp_ms("1700000000000") == 1700000000000
    assert _timestamp_ms("2026-11-28T10:00:00") == 1795860000000
    assert _timestamp_ms("") is None
    with pytest.raises(ConsoleError, match="neither milliseconds"):
        _timestamp_ms("yesterday")
    assert _int("12", "offset") == 12
    with pytest.raises(ConsoleError, match="offset must be a whole number"):
        _int("abc", "offset")
    with pytest.raises(ConsoleError, match="partition must be 0 or more"):
        _int("-1", "partition", minimum=0)


def test_error_pages_name_what_went_wrong():
    assert describe_error(KafkaApiError(ErrorCode.GROUP_ID_NOT_FOUND, "Group g not found."))[:2] == (404, "Not found")
    status, _headline, detail = describe_error(KafkaApiError(ErrorCode.NON_EMPTY_GROUP))
    assert status == 502 and "NON_EMPTY_GROUP" in detail
    assert describe_error(AdminConnectionError("cannot connect"))[1] == "The cluster cannot be reached"
    assert describe_error(AdminTimeoutError("slow"))[0] == 504
    status, _, detail = describe_error(RuntimeError("secret internals"))
    assert status == 500 and "secret" not in detail


def test_basic_auth_users_file(tmp_path):
    path = tmp_path / "users"
    path.write_text("# who may look\nadmin:s3cret:with:colons\n\nops:pw\n")
    assert read_users(str(path)) == {"admin": "s3cret:with:colons", "ops": "pw"}
    path.write_text("nobody\n")
    with pytest.raises(ValueError, match="expected user:password"):
        read_users(str(path))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bootstrap-server", "nohost"], "expected HOST:PORT"),
        (["--bootstrap-server", "127.0.0.1:9092", "--refresh", "0.1"], "--refresh must be between"),
        (["--bootstrap-server", "127.0.0.1:9092", "--tls-cert", "c.pem"], "--tls-cert and --tls-key go together"),
        (["--bootstrap-server", "127.0.0.1:9092", "--metrics-url", "127.0.0.1:9404"], "is not an http(s) URL"),
        (["--bootstrap-server", "127.0.0.1:9092", "--basic-auth-file", "/nonexistent"], "No such file"),
    ],
)
def test_bad_command_lines_get_one_line(args, message, capsys):
    from broker.cli import main

    assert main(["ui", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_records_out_is_how_fast_the_groups_on_a_topic_move():
    from broker.ui.data.groups import GroupRow
    from broker.ui.data.share import ShareGroupRow
    from broker.ui.gateway import Gateway, UiSettings

    gw = Gateway(UiSettings("127.0.0.1:9092"))
    share = ShareGroupRow("workers", "Stable", 1, 1, 0, positions={"orders": 100})
    consumer = GroupRow("billing", "consumer", "Stable", positions={"orders": 50, "audit": 7})
    gw._positions("share", [share], 0.0)
    gw._positions("consumer", [consumer], 0.0)
    assert gw.out_rate("orders") is None  # one round: no rate yet
    share.positions["orders"] = 300  # +200 in 2 s
    consumer.positions["orders"] = 90  # +40 in 2 s
    late = GroupRow("late", "classic", "Stable", positions={"orders": 1_000_000})  # new: no rate yet
    gw._readers = {}
    gw._positions("share", [share], 2.0)
    gw._positions("consumer", [consumer, late], 2.0)
    assert gw.out_rate("orders") == 120.0
    assert gw.out_rate("audit") == 0.0
    assert gw.out_rate("nobody-reads") is None
