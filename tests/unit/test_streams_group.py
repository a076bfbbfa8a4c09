"""The KIP-1071 streams-group core: topology configuration, the sticky task assignor, heartbeats."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from broker.group.shard_api import TopicTable
from broker.group.streams import (
    Status,
    StreamsGroupConfig,
    StreamsGroups,
    StreamsHeartbeat,
    Subtopology,
    TaskMember,
    TopicInfo,
    Topology,
    configure,
    sticky_assign,
)
from broker.protocol.errors import ErrorCode

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
    ready = configure(TOPOLOGY, image(app_rep=4, app_store_changelog=4))
    assert ready.ready and dict(ready.tasks) == {"0": 4, "1": 4}
    wrong = configure(TOPOLOGY, image(app_rep=4, app_store_changelog=2))
    assert {s for s, _ in wrong.statuses} == {Status.INCORRECTLY_PARTITIONED_TOPICS}


members = st.dictionaries(st.sampled_from([f"m{i}" for i in range(6)]), st.sampled_from(["p1", "p2", "p3"]), min_size=1)


@given(members, st.dictionaries(st.sampled_from(["0", "1", "2"]), st.integers(0, 8)), st.integers(0, 2))
def test_sticky_assignor_covers_every_task_once_and_places_standbys_apart(procs, tasks, standbys):
    specs = {m: TaskMember(p) for m, p in procs.items()}
    result = sticky_assign(specs, tasks, standbys)
    seen = {}
    for m, (active, standby) in result.items():
        for s, ps in active.items():
            for p in ps:
                assert (s, p) not in seen
                seen[s, p] = m
        for s, ps in standby.items():
            for p in ps:
                assert procs[m] != procs[seen.get((s, p), m)] or seen.get((s, p)) is None
    assert set(seen) == {(s, p) for s, n in tasks.items() for p in range(n)}
    loads = [sum(len(ps) for ps in a.values()) for a, _ in result.values()]
    assert max(loads) - min(loads) <= 1
    again = sticky_assign({m: TaskMember(p, result[m][0]) for m, p in procs.items()}, tasks, standbys)
    assert {m: a for m, (a, _) in again.items()} == {m: a for m, (a, _) in result.items()}


def run(core, request, now_ms=0):
    result = core.heartbeat(request, now_ms=now_ms)
    for record in result.records:
        core.replay_record(record)
    return result.response


def test_join_delay_then_assignment_and_second_member_reconciles():
    core = StreamsGroups(image(app_rep=4, app_store_changelog=4), StreamsGroupConfig(initial_rebalance_delay_ms=3000))
    r = run(core, StreamsHeartbeat("app", "a", 0, process_id="p1", rebalance_timeout_ms=1000, topology=TOPOLOGY))
    assert r.error_code == 0 and r.member_epoch == 1
    assert (Status.ASSIGNMENT_DELAYED,) == tuple(s for s, _ in r.status)
    assert core.groups["app"].epoch == 2
    for record in core.tick(3000).records:
        core.replay_record(record)
    r = run(core, StreamsHeartbeat("app", "a", 1, active_tasks={}), now_ms=3001)
    assert r.member_epoch == 2 and sum(len(ps) for _, ps in r.active_tasks) == 8
    r2 = run(
        core,
        StreamsHeartbeat("app", "b", 0, process_id="p2", rebalance_timeout_ms=1000, topology=TOPOLOGY),
        now_ms=3002,
    )
    assert r2.member_epoch == 3 and r2.active_tasks == []
    owned = {s: frozenset(ps) for s, ps in r.active_tasks}
    r = run(core, StreamsHeartbeat("app", "a", 2, active_tasks=owned), now_ms=3003)
    assert r.member_epoch == 2 and sum(len(ps) for _, ps in r.active_tasks) == 4
    r = run(
        core, StreamsHeartbeat("app", "a", 2, active_tasks={s: frozenset(ps) for s, ps in r.active_tasks}), now_ms=3004
    )
    assert r.member_epoch == 3
    r2 = run(core, StreamsHeartbeat("app", "b", 3, active_tasks={}), now_ms=3005)
    assert sum(len(ps) for _, ps in r2.active_tasks) == 4
    assert core.groups["app"].state == "Stable"
    rebuilt = StreamsGroups(core.topics)
    for record in core.snapshot():
        rebuilt.replay_record(record)
    assert rebuilt.groups == core.groups


def test_missing_internal_topics_are_returned_and_errors():
    core = StreamsGroups(image(), StreamsGroupConfig(initial_rebalance_delay_ms=0))
    r = run(core, StreamsHeartbeat("app", "a", 0, process_id="p1", rebalance_timeout_ms=1000, topology=TOPOLOGY))
    assert sorted(t.name for t in r.internal_topics_to_create) == ["app-rep", "app-store-changelog"]
    assert core.groups["app"].state == "NotReady"
    other = Topology(1, (Subtopology("0", source_topics=("in",)),))
    r = run(core, StreamsHeartbeat("app", "b", 0, process_id="p1", rebalance_timeout_ms=1000, topology=other))
    assert (r.error_code, r.error_message) == (ErrorCode.INVALID_REQUEST, "Topology updates are not supported yet.")
    assert run(core, StreamsHeartbeat("app", "a", 9)).error_code == ErrorCode.FENCED_MEMBER_EPOCH
    assert run(core, StreamsHeartbeat("nope", "a", 3)).error_code == ErrorCode.GROUP_ID_NOT_FOUND
    r = run(core, StreamsHeartbeat("app", "a", -1))
    assert r.member_epoch == -1 and core.groups["app"].members == {}
