"""The pure parts of ``make bench-scale-cluster`` without brokers: the tables, the page
section, the curves and the cost per partition rendered from a sample results file,
the KRaft quorum leader read from quorum-state contents, and how the many-groups
driver reads the coordinators' answers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench import scale_groups, scale_report, spread_report
from bench.scale_cluster import quorum_leader
from broker.admin.client import KafkaApiError
from broker.protocol.errors import ErrorCode

SAMPLE = Path(__file__).parent / "data" / "scale-cluster-sample.json"


@pytest.fixture
def results() -> dict:
    return json.loads(SAMPLE.read_text())


def _row(doc: str, label: str) -> list[str]:
    """The cells of the first table row starting with ``label``."""
    for line in doc.splitlines():
        if line.startswith(f"| {label} |"):
            return [c.strip() for c in line.strip("|").split("|")][1:]
    raise AssertionError(f"no row {label!r} in:\n{doc}")


# --------------------------------------------------------------------- slopes


def test_slope_per_1000_uses_the_largest_two_sizes():
    points = [(100, 50.0), (1000, 60.0), (10_000, 150.0)]
    assert scale_report.slope_per_1000(points) == pytest.approx(10.0)  # 90 MiB over 9,000
    assert scale_report.slope_per_1000(points[:1]) is None
    assert scale_report.slope_per_1000([(1000, 5.0), (3000, 4.0)]) == pytest.approx(-0.5)


def test_mean_averages_per_broker_figures_and_skips_missing_ones():
    assert scale_report.mean({"1": 1.0, "2": 2.0, "3": None}) == pytest.approx(1.5)
    assert scale_report.mean(4) == 4.0
    assert scale_report.mean(None) is None
    assert scale_report.mean({}) is None


def test_series_leaves_out_sizes_without_the_figure(results):
    # Kafka's ListOffsets failed at 1,000: only 10,000 has it.
    assert scale_report.series(results, "single", "kafka", "list_offsets_s") == [(10_000, 0.1)]
    assert scale_report.series(results, "cluster", "sharebroker", "rss_mib") == [(1000, 76.0), (10_000, 151.0)]
    assert scale_report.series(results, "cluster", "nobody", "rss_mib") == []


def test_slopes_per_system_and_layout(results):
    by = {(s["layout"], s["system"]): s for s in scale_report.slopes(results)}
    assert set(by) == {("single", "sharebroker"), ("single", "kafka"), ("cluster", "sharebroker"), ("cluster", "kafka")}
    one = by[("single", "sharebroker")]
    assert (one["from"], one["to"]) == (1000, 10_000)
    assert one["rss_mib_per_1000"] == pytest.approx((119.0 - 65.0) / 9)
    assert one["idle_cpu_pct_per_1000"] == pytest.approx((0.4 - 0.1) / 9, abs=1e-3)
    # The cluster's per-broker RSS (75, 76, 77 -> 150, 151, 152) averaged: 76 -> 151.
    assert by[("cluster", "sharebroker")]["rss_mib_per_1000"] == pytest.approx(75 / 9, abs=0.01)
    assert by[("single", "kafka")]["idle_cpu_pct_per_1000"] < 0


def test_slopes_need_two_sizes(results):
    for layout in ("single", "cluster"):
        for system in ("sharebroker", "kafka"):
            del results[layout][system]["sizes"]["10000"]
    assert scale_report.slopes(results) == []
    assert scale_report.slopes_text(results) == ""


# --------------------------------------------------------------------- tables and section


def test_markdown_tables_of_every_step(results):
    doc = scale_report.markdown(results)
    assert _row(doc, "CreateTopics answered (s)") == ["0.2", "0.45", "1.5", "0.26"]
    assert _row(doc, "ListOffsets of every partition (s)")[:2] == ["0.1", "failed"]
    assert _row(doc, "kill -9 of the active controller to a CreateTopics written (s)") == ["8.51", "2.49"]
    assert _row(doc, "the killed controller started again to every ISR full (s)") == ["6.16", "failed"]
    assert (
        "Active controller killed: sharebroker node 1 (DescribeCluster, the same as etcd's controller key);"
        " Kafka node 3 (quorum-state of 3 nodes (epoch 4))." in doc
    )
    # Groups, single layout first: sharebroker's figures, Kafka's.
    assert "| 200 consumer groups and 20 share groups, 10 partitions each | sharebroker | Kafka |" in doc
    assert _row(doc, "start to every consumer group's offsets answered, OffsetFetch (s)") == ["2.25", "9.5"]
    assert _row(doc, "answers other than the group's own offsets before that (count)") == ["4", "0"]
    # The cluster's Kafka groups stopped at the restart: what it had, then failed and missing.
    cluster = doc[doc.index("3 brokers, RF 3") :]
    assert _row(cluster, "RSS per broker before the groups (MiB)") == ["150, 150, 150", "800"]
    assert _row(cluster, "clean stop of every broker (s)") == ["0.5", "-"]
    assert _row(cluster, "start to every share group's offsets answered, DescribeShareGroupOffsets (s)") == [
        "20.7",
        "-",
    ]
    # Idle connections: Kafka failed.
    assert "300 idle connections to one broker" in doc
    assert _row(doc, "RSS per connection (KB)") == ["17.5", "failed"]


def test_markdown_renders_a_further_cluster_run_after_the_others(results, tmp_path):
    """A size only sharebroker's cluster runs here is kept as ``cluster_<name>`` beside the
    side-by-side run, with its own title, and rendered after it."""
    part = json.loads(json.dumps(results["cluster"]))
    part["title"] = "3 brokers, RF 3, sharebroker alone"
    part["sizes"] = [100000]
    part["sharebroker"]["sizes"] = {"100000": dict(part["sharebroker"]["sizes"]["1000"], create_s=9.5)}
    part["sharebroker"]["stop_all_s"] = 3.25
    part["note"] = "A run of its own."
    del part["kafka"]
    results["cluster_100k"] = part
    doc = scale_report.markdown(results)
    extra = doc[doc.index("3 brokers, RF 3, sharebroker alone") :]
    assert doc.index("3 brokers, RF 3 (") < doc.index("3 brokers, RF 3, sharebroker alone")
    assert _row(extra, "CreateTopics answered (s)") == ["9.5", "-"]
    assert _row(extra, "clean stop of every broker at once (s)") == ["3.25", "-"]
    (tmp_path / "scale-cluster-2026-11-30.json").write_text(json.dumps(results))
    assert "A run of its own." in scale_report.section(tmp_path)


def test_markdown_without_the_new_steps_leaves_them_out(results):
    for layout in ("single", "cluster"):
        for system in ("sharebroker", "kafka"):
            for key in ("groups", "controller_killed", "controller_writable_s", "controller_rejoin_isr_s", "errors"):
                results[layout][system].pop(key, None)
    del results["connections"]
    doc = scale_report.markdown(results)
    assert "consumer groups" not in doc
    assert "idle connections" not in doc
    assert "Active controller killed" not in doc
    assert _row(doc, "kill -9 of the active controller to a CreateTopics written (s)") == ["-", "-"]


def test_section_names_the_file_the_curves_and_the_cost(results, tmp_path):
    assert scale_report.section(tmp_path) == ""
    shutil.copy(SAMPLE, tmp_path / "scale-cluster-2026-11-29.json")
    doc = scale_report.section(tmp_path, plotted=True)
    assert doc.startswith("\n## Scale: cost as partitions grow")
    assert (
        "scale-cluster-2026-11-29.json, command `python -m bench.scale_cluster --sizes 1000,10000 --layout single`"
        in doc
    )
    assert "under `flock -x` with a 900 s bound" in doc
    assert "![cost as partitions grow](performance-scale-cluster.png)" in doc
    assert _row(doc, "sharebroker, 1 broker, RF 1") == ["1,000 -> 10,000", "6", "0.033"]
    assert "- A sample observation." in doc
    assert "performance-scale-cluster.png" not in scale_report.section(tmp_path, plotted=False)


def test_plot_draws_a_png(results, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "curves.png"
    assert scale_report.plot(results, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for layout in ("single", "cluster"):
        del results[layout]
    assert not scale_report.plot(results, tmp_path / "none.png")
    assert not (tmp_path / "none.png").exists()


def test_render_plot_from_the_newest_results_file(tmp_path):
    pytest.importorskip("matplotlib")
    assert not scale_report.render_plot(tmp_path, tmp_path / "docs")
    shutil.copy(SAMPLE, tmp_path / "scale-cluster-2026-11-29.json")
    assert scale_report.render_plot(tmp_path, tmp_path / "docs")
    assert (tmp_path / "docs" / scale_report.IMAGE).stat().st_size > 0


# --------------------------------------------------------------------- controller and groups


def test_quorum_leader_is_the_newest_epochs_leader_two_nodes_name():
    states = [
        {"leaderId": 2, "leaderEpoch": 5},
        {"leaderId": 2, "leaderEpoch": 5},
        {"leaderId": 1, "leaderEpoch": 4},  # a node that has not heard of epoch 5 yet
    ]
    assert quorum_leader(states) == (2, 5, 2)
    with pytest.raises(RuntimeError, match="only 1 node"):
        quorum_leader([{"leaderId": 3, "leaderEpoch": 6}, {"leaderId": 2, "leaderEpoch": 5}])
    with pytest.raises(RuntimeError, match="names a leader"):
        quorum_leader([{"leaderId": -1, "leaderEpoch": 6}, {}])


def test_every_group_keeps_offsets_of_its_own():
    seen = {tuple(scale_groups.expected(scale_groups.consumer_group(i)).values()) for i in range(100)}
    assert len(seen) == 100
    for i in (0, 1, 99, 9_999):
        assert all(0 <= o < scale_groups.RECORDS for o in scale_groups.expected(scale_groups.share_group(i)).values())
    assert scale_groups.index(scale_groups.share_group(42)) == 42


def _fetched(group: str, offsets: dict[int, int], error: int = 0, partition_error: int = 0) -> SimpleNamespace:
    parts = [
        SimpleNamespace(partition_index=p, committed_offset=o, error_code=partition_error) for p, o in offsets.items()
    ]
    return SimpleNamespace(
        group_id=group, error_code=error, topics=[SimpleNamespace(name=scale_groups.TOPIC, partitions=parts)]
    )


def test_fetch_answers_count_only_a_groups_own_offsets():
    a, b, c, d = (scale_groups.consumer_group(i) for i in range(4))
    body = SimpleNamespace(
        groups=[
            _fetched(a, scale_groups.expected(a)),
            _fetched(b, {}),  # not loaded yet: no offsets
            _fetched(c, scale_groups.expected(c), error=int(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS)),
            _fetched(d, scale_groups.expected(d), partition_error=int(ErrorCode.NOT_COORDINATOR)),
        ]
    )
    wrong = scale_groups.Wrong()
    assert scale_groups.fetch_done(body, [a, b, c, d], wrong) == {a}
    assert wrong.count == 1 and b in (wrong.example or "")
    body = SimpleNamespace(groups=[_fetched(a, {}, error=int(ErrorCode.GROUP_AUTHORIZATION_FAILED))])
    with pytest.raises(KafkaApiError):
        scale_groups.fetch_done(body, [a], wrong)


def test_share_answers_count_only_a_groups_own_start_offsets():
    a, b = scale_groups.share_group(1), scale_groups.share_group(2)

    def described(group: str, offsets: dict[int, int]) -> SimpleNamespace:
        parts = [SimpleNamespace(partition_index=p, start_offset=o, error_code=0) for p, o in offsets.items()]
        return SimpleNamespace(
            group_id=group, error_code=0, topics=[SimpleNamespace(topic_name=scale_groups.TOPIC, partitions=parts)]
        )

    unset = dict.fromkeys(range(scale_groups.PARTITIONS), -1)
    body = SimpleNamespace(groups=[described(a, scale_groups.expected(a)), described(b, unset)])
    wrong = scale_groups.Wrong()
    assert scale_groups.describe_done(body, [a, b], wrong) == {a}
    assert wrong.count == 1


def test_requests_carry_each_groups_offsets():
    group = scale_groups.consumer_group(7)
    commit = scale_groups.commit_request([group])
    assert commit.group_id == group and commit.generation_id_or_member_epoch == -1
    assert {p.partition_index: p.committed_offset for p in commit.topics[0].partitions} == scale_groups.expected(group)
    share = scale_groups.share_group(3)
    alter = scale_groups.alter_request([share])
    assert {p.partition_index: p.start_offset for p in alter.topics[0].partitions} == scale_groups.expected(share)
    fetch = scale_groups.fetch_request([group, share])
    assert [g.group_id for g in fetch.groups] == [group, share] and fetch.groups[0].topics is None


# --------------------------------------------------------------------- replication spread

SPREAD = {
    "partitions": 5000,
    "when": "2026-11-30T15:00:00Z",
    "command": "python -m bench.replication_spread --rounds 2",
    "machine": "2 CPUs, nothing pinned",
    "sharebroker": [
        {"fs_ms": 1.8, "single": {"produce_s": 10.0}, "cluster": {"produce_s": 15.0}, "ratio": 1.5},
        {"fs_ms": 0.9, "single": {"produce_s": 5.0}, "cluster": {"produce_s": 9.0}, "ratio": 1.8},
        {"fs_ms": 1.1, "single": {"produce_s": 6.0}, "cluster": {"error": "TimedOut: 3 undelivered"}, "ratio": None},
    ],
    "kafka": [{"fs_ms": 2.0, "single": {"produce_s": 20.0}, "cluster": {"produce_s": 90.0}, "ratio": 4.5}],
}


def test_spread_table_gives_every_round_and_the_median_of_those_measured():
    doc = spread_report.markdown(SPREAD)
    assert doc.startswith("One acks=all record to each of 5,000 new partitions (2026-11-30T15:00:00Z")
    assert _row(doc, "sharebroker 1") == ["1.80", "10.00", "15.00", "1.50x"]
    assert _row(doc, "sharebroker 3") == ["1.10", "6.00", "failed", "-"]
    assert _row(doc, "kafka 1") == ["2.00", "20.00", "90.00", "4.50x"]
    assert "sharebroker: median 1.65x over 2 of 3 rounds; kafka: median 4.50x over 1 of 1 rounds." in doc
    assert spread_report.summary([]) == {"median_ratio": None, "ratios": [], "rounds": 0, "failed_rounds": 0}


def test_section_carries_the_newest_spread_table(tmp_path):
    shutil.copy(SAMPLE, tmp_path / "scale-cluster-2026-11-29.json")
    assert "Replication spread thin" not in scale_report.section(tmp_path)
    (tmp_path / "replication-spread-2026-11-29.json").write_text(json.dumps({**SPREAD, "sharebroker": []}))
    (tmp_path / "replication-spread-2026-11-30.json").write_text(json.dumps(SPREAD))
    doc = scale_report.section(tmp_path)
    assert "(`make bench-replication-spread`, replication-spread-2026-11-30.json)" in doc
    assert _row(doc, "sharebroker 2") == ["0.90", "5.00", "9.00", "1.80x"]
