"""The KIP-1071 streams-group core: topology configuration, the sticky task assignor,
heartbeats, static members, endpoints, records in Kafka's format."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from broker.group.shard_api import TopicTable
from broker.group.streams import (
    Status,
    StreamsGroupConfig,
    StreamsGroups,
    Subtopology,
    TaskMember,
    TopicInfo,
    Topology,
    configure,
    sticky_assign,
)
from broker.group.streams.records import decode, encode
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import streams_group_heartbeat_request as q

TOPOLOGY = Topology(
    1,
    (
        Subtopology(
            "0",
            source_topics=("in",),
            repartition_sink_topics=("app-rep",),
            state_changelog_topics=(TopicInfo("app-store-changelog"),),
        ),
        Subtopology("1", repartition_source_topics=(TopicInfo("app-rep"),)),
    ),
)


def wire_topology(t: Topology) -> q.Topology:
    def info(i: TopicInfo) -> q.TopicInfo:
        return q.TopicInfo(i.name, i.partitions, i.replication_factor, [q.KeyValue(k, v) for k, v in i.configs])

    return q.Topology(
        t.epoch,
        [
            q.Subtopology(
                s.subtopology_id,
                list(s.source_topics),
                list(s.source_topic_regex),
                [info(i) for i in s.state_changelog_topics],
                list(s.repartition_sink_topics),
                [info(i) for i in s.repartition_source_topics],
                [],
            )
            for s in t.subtopologies
        ],
    )


def image(**extra: int) -> TopicTable:
    topics = {"in": (uuid.UUID(int=1), 4)}
    for i, (name, count) in enumerate(extra.items()):
        topics[name.replace("_", "-")] = (uuid.UUID(int=10 + i), count)
    return TopicTable(topics)


def test_configure_reports_missing_sources_and_internal_topics():
    assert configure(TOPOLOGY, TopicTable({})).statuses[0][0] is Status.MISSING_SOURCE_TOPICS
    c = configure(TOPOLOGY, image())
    assert not c.ready and {s for s, _ in c.statuses} == {Status.MISSING_INTERNAL_TOPICS}
    assert sorted((t.name, t.partitions) for t in c.to_create) == [("app-rep", 4), ("app-store-changelog", 4)]
    assert c.statuses[0][1] == "Internal topics are missing: app-rep, app-store-changelog"
    ready = configure(TOPOLOGY, image(app_rep=4, app_store_changelog=4))
    assert ready.ready and dict(ready.tasks) == {"0": 4, "1": 4}
    wrong = configure(TOPOLOGY, image(app_rep=4, app_store_changelog=2))
    assert {s for s, _ in wrong.statuses} == {Status.INCORRECTLY_PARTITIONED_TOPICS}


def test_regex_sources_resolve_in_full():
    t = Topology(0, (Subtopology("0", source_topic_regex=("in.*",)),))
    topics = image(input_b=2, xin=9)
    c = configure(t, topics)
    assert c.ready and dict(c.tasks) == {"0": 4} and c.inputs["0"] == ("in", "input-b")


members = st.dictionaries(st.sampled_from([f"m{i}" for i in range(6)]), st.sampled_from(["p1", "p2", "p3"]), min_size=1)


@given(members, st.dictionaries(st.sampled_from(["0", "1", "2"]), st.integers(0, 8)), st.integers(0, 2))
def test_sticky_assignor_covers_every_task_once_and_places_standbys_apart(procs, tasks, standbys):
    specs = {m: TaskMember(p) for m, p in procs.items()}
    result = sticky_assign(specs, tasks, standbys)
    seen = {}
    for m, (active, _) in result.items():
        for s, ps in active.items():
            for p in ps:
                assert (s, p) not in seen
                seen[s, p] = m
    for m, (_, standby) in result.items():
        for s, ps in standby.items():
            for p in ps:
                assert procs[m] != procs[seen[s, p]], "never on the active's process"
    assert set(seen) == {(s, p) for s, n in tasks.items() for p in range(n)}
    loads = [sum(len(ps) for ps in a.values()) for a, _ in result.values()]
    assert max(loads) - min(loads) <= 1
    again = sticky_assign({m: TaskMember(p, result[m][0]) for m, p in procs.items()}, tasks, standbys)
    assert {m: a for m, (a, _) in again.items()} == {m: a for m, (a, _) in result.items()}


def test_standbys_spread_over_client_tags():
    specs = {
        "a": TaskMember("p1", client_tags={"zone": "z1"}),
        "b": TaskMember("p2", client_tags={"zone": "z1"}),
        "c": TaskMember("p3", client_tags={"zone": "z2"}),
    }
    result = sticky_assign(specs, {"0": 1}, 1, rack_tags=("zone",))
    active_owner = next(m for m, (a, _) in result.items() if a)
    standby_owner = next(m for m, (_, s) in result.items() if s)
    assert specs[active_owner].client_tags["zone"] != specs[standby_owner].client_tags["zone"]


T0 = 1_000_000  # any time but 0, which reads as "no target computed yet"


def hb(core, group, member, epoch, now_ms=0, topology=None, **kw):
    if epoch == 0:
        kw.setdefault("process_id", "p-" + member)
        kw.setdefault("rebalance_timeout_ms", 1000)
        kw.setdefault("active_tasks", [])
        kw.setdefault("standby_tasks", [])
        kw.setdefault("warmup_tasks", [])
        topology = topology or TOPOLOGY
    if "active" in kw:
        kw["active_tasks"] = [q.TaskIds(s, sorted(ps)) for s, ps in kw.pop("active").items()]
        kw.setdefault("standby_tasks", [])
        kw.setdefault("warmup_tasks", [])
    req = q.StreamsGroupHeartbeatRequest(
        group_id=group,
        member_id=member,
        member_epoch=epoch,
        topology=None if topology is None else wire_topology(topology),
        **kw,
    )
    result = core.heartbeat(req, now_ms=now_ms)
    for record in result.records:
        core.replay_record(record)
        assert decode(*encode(record)) == record, "records survive their Kafka encoding"
    return result.response


def tasks_of(r):
    return {t.subtopology_id: frozenset(t.partitions) for t in r.response.active_tasks or []}


def run(core, *args, **kw):
    return hb(core, *args, **kw).response


def count(tasks) -> int:
    return sum(len(t.partitions) for t in tasks)


def test_join_delay_then_assignment_and_second_member_reconciles():
    core = StreamsGroups(
        image(app_rep=4, app_store_changelog=4),
        StreamsGroupConfig(initial_rebalance_delay_ms=3000, assignment_interval_ms=0),
    )
    r = run(core, "app", "a", 0)
    assert r.error_code == 0 and r.member_epoch == 1 and r.active_tasks == []
    assert [s.status_code for s in r.status] == [Status.ASSIGNMENT_DELAYED]
    assert core.groups["app"].epoch == 2
    for record in core.tick(3000).records:
        core.replay_record(record)
    r = run(core, "app", "a", 1, now_ms=3001, active={})
    assert r.member_epoch == 2 and count(r.active_tasks) == 8
    r2 = run(core, "app", "b", 0, now_ms=3002)
    assert r2.member_epoch == 3 and r2.active_tasks == []
    owned = {t.subtopology_id: t.partitions for t in r.active_tasks}
    r = run(core, "app", "a", 2, now_ms=3003, active=owned)
    assert r.member_epoch == 2 and count(r.active_tasks) == 4, "revoke first"
    owned = {t.subtopology_id: t.partitions for t in r.active_tasks}
    r = run(core, "app", "a", 2, now_ms=3004, active=owned)
    assert r.member_epoch == 3
    r2 = run(core, "app", "b", 3, now_ms=3005, active={})
    assert count(r2.active_tasks) == 4
    assert core.groups["app"].state == "Stable"
    rebuilt = StreamsGroups(core.topics)
    for record in core.snapshot():
        rebuilt.replay_record(record)
    assert rebuilt.groups.keys() == core.groups.keys()
    assert rebuilt.groups["app"].members.keys() == core.groups["app"].members.keys()
    assert rebuilt.groups["app"].target == core.groups["app"].target


def test_targets_after_the_first_are_batched_per_assignment_interval():
    core = StreamsGroups(image(app_rep=4, app_store_changelog=4), StreamsGroupConfig(initial_rebalance_delay_ms=3000))
    assert run(core, "app", "a", 0, now_ms=T0).member_epoch == 1
    for record in core.tick(T0 + 3000).records:  # the initial delay's end computes the first target
        core.replay_record(record)
    assert core.groups["app"].assignment_timestamp_ms == T0 + 3000
    r = run(core, "app", "a", 1, now_ms=T0 + 3001, active={})
    assert r.member_epoch == 2 and count(r.active_tasks) == 8
    # Within the interval a joiner hears ASSIGNMENT_DELAYED and gets the current epoch, no tasks.
    r2 = run(core, "app", "b", 0, now_ms=T0 + 3100)
    assert (r2.member_epoch, r2.active_tasks) == (2, [])
    assert [(s.status_code, s.status_detail) for s in r2.status] == [
        (Status.ASSIGNMENT_DELAYED, "Assignment delayed due to the configured assignment interval.")
    ]
    owned = {t.subtopology_id: t.partitions for t in r.active_tasks}
    r = run(core, "app", "a", 2, now_ms=T0 + 3500, active=owned)
    assert r.member_epoch == 2 and r.active_tasks is None and core.groups["app"].state == "Assigning"
    # The first heartbeat once the interval is over computes the target: a revokes half.
    r = run(core, "app", "a", 2, now_ms=T0 + 4000, active=owned)
    assert r.status == [] and count(r.active_tasks) == 4
    assert core.groups["app"].assignment_epoch == 3


def test_streams_group_config_overrides_the_assignment_interval():
    overrides = {"fast": {"streams.assignment.interval.ms": "0"}, "slow": {"streams.assignment.interval.ms": "99999"}}
    config = StreamsGroupConfig(initial_rebalance_delay_ms=0, group_configs=lambda g: overrides.get(g, {}))
    assert [config.assignment_interval_for(g) for g in ("fast", "slow", "other")] == [0, 15000, 1000]
    core = StreamsGroups(image(app_rep=4, app_store_changelog=4), config)
    run(core, "fast", "a", 0, now_ms=T0)
    r2 = run(core, "fast", "b", 0, now_ms=T0 + 1)
    assert r2.member_epoch == 3 and r2.status == []


def test_missing_internal_topics_are_returned_and_errors():
    core = StreamsGroups(image(), StreamsGroupConfig(initial_rebalance_delay_ms=0))
    result = hb(core, "app", "a", 0)
    assert sorted(t.name for t in result.topics_to_create) == ["app-rep", "app-store-changelog"]
    assert core.groups["app"].state == "NotReady"
    other = Topology(1, (Subtopology("0", source_topics=("in",)),))
    r = run(core, "app", "b", 0, topology=other)
    assert (r.error_code, r.error_message) == (ErrorCode.INVALID_REQUEST, "Topology updates are not supported yet.")
    assert run(core, "app", "a", 9, active={}).error_code == ErrorCode.FENCED_MEMBER_EPOCH
    assert run(core, "nope", "a", 3, active={}).error_code == ErrorCode.GROUP_ID_NOT_FOUND
    r = run(core, "app", "a", 0, active_tasks=[q.TaskIds("0", [1])])
    assert r.error_message == "Active, standby and warmup tasks must be empty when (re-)joining."
    r = run(core, "app", "a", 2, active_tasks=[])
    assert r.error_message == "If one task-type is non-null, all must be non-null."
    r = run(core, "app", "a", -1)
    assert r.member_epoch == -1 and core.groups["app"].members == {}
    assert core.groups["app"].state == "Empty"


def test_static_member_leaves_and_is_replaced_without_rebalance():
    core = StreamsGroups(image(app_rep=4, app_store_changelog=4), StreamsGroupConfig(initial_rebalance_delay_ms=0))
    r = run(core, "app", "a", 0, instance_id="i1")
    assert count(r.active_tasks) == 8
    assert run(core, "app", "b", 0, instance_id="i1").error_code == ErrorCode.UNRELEASED_INSTANCE_ID
    r = run(core, "app", "a", -2, instance_id="i1")
    assert r.member_epoch == -2
    epoch = core.groups["app"].epoch
    r = run(core, "app", "b", 0, instance_id="i1", process_id="p-a")  # the same state directory
    assert r.error_code == 0 and count(r.active_tasks) == 8
    assert set(core.groups["app"].members) == {"b"} and core.groups["app"].epoch == epoch


def test_endpoints_and_shutdown_request():
    core = StreamsGroups(image(app_rep=4, app_store_changelog=4), StreamsGroupConfig(initial_rebalance_delay_ms=0))
    r = run(core, "app", "a", 0, user_endpoint=q.Endpoint("h1", 8080))
    assert r.endpoint_information_epoch > 0
    (e,) = r.partitions_by_user_endpoint
    assert (e.user_endpoint.host, e.user_endpoint.port) == ("h1", 8080)
    assert {(tp.topic, tuple(tp.partitions)) for tp in e.active_partitions} == {
        ("in", (0, 1, 2, 3)),
        ("app-rep", (0, 1, 2, 3)),
    }
    again = run(core, "app", "a", r.member_epoch, endpoint_information_epoch=r.endpoint_information_epoch)
    assert again.partitions_by_user_endpoint is None
    r = run(core, "app", "a", r.member_epoch, shutdown_application=True)
    assert any(s.status_code == Status.SHUTDOWN_APPLICATION for s in r.status)


def test_session_timeout_fences_and_describe():
    core = StreamsGroups(image(app_rep=4, app_store_changelog=4), StreamsGroupConfig(initial_rebalance_delay_ms=0))
    run(core, "app", "a", 0)
    (d,) = core.describe(["app"])
    assert d.group_state == "Stable" and d.topology.subtopologies[0].state_changelog_topics[0].partitions == 4
    assert core.next_deadline_ms() == 45_000
    for record in core.tick(45_000).records:
        core.replay_record(record)
    assert core.groups["app"].members == {} and core.groups["app"].state == "Empty"
    (missing,) = core.describe(["nope"])
    assert (missing.error_code, missing.error_message) == (ErrorCode.GROUP_ID_NOT_FOUND, "Group nope not found.")


def test_offset_fetch_checks_the_member_epoch():
    core = StreamsGroups(image(app_rep=4, app_store_changelog=4), StreamsGroupConfig(initial_rebalance_delay_ms=0))
    epoch = run(core, "app", "a", 0).member_epoch
    check = core.validate_offset_fetch
    assert check("app", None, -1) == check("nope", "a", 3) == ErrorCode.NONE
    assert check("app", "x", epoch) == ErrorCode.UNKNOWN_MEMBER_ID
    assert check("app", "a", epoch) == ErrorCode.NONE
    assert check("app", "a", epoch - 1) == ErrorCode.STALE_MEMBER_EPOCH


def test_delete_group_takes_only_an_empty_group():
    core = StreamsGroups(image(app_rep=4, app_store_changelog=4), StreamsGroupConfig(initial_rebalance_delay_ms=0))
    run(core, "app", "a", 0)
    assert core.delete_group("app").response == ErrorCode.NON_EMPTY_GROUP
    assert core.delete_group("nope").response == ErrorCode.GROUP_ID_NOT_FOUND
    run(core, "app", "a", -1)
    deleted = core.delete_group("app")
    assert deleted.response == ErrorCode.NONE
    for record in deleted.records:
        core.replay_record(record)
    assert "app" not in core.groups
