"""The KIP-848 consumer-group core: assignors, reconciliation, heartbeat, timers, replay."""

from __future__ import annotations

import itertools
import uuid

from hypothesis import given, settings
from hypothesis import strategies as st

from broker.group.consumer import (
    STEPS,
    ConsumerGroupConfig,
    ConsumerGroups,
    MemberAssignment,
    MemberSpec,
    MemberState,
    range_assign,
    reconcile,
    uniform_assign,
)
from broker.group.consumer.records import RecordType
from broker.group.shard_api import (
    BATCHED_HEARTBEAT_SLACK_MS,
    MIN_BATCHED_HEARTBEAT_INTERVAL_MS,
    RELEASE_WAIT_HEARTBEAT_MS,
    TopicInfo,
    TopicTable,
    merged_partitions,
    sorted_wire,
    topics_hash,
)
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest as Req
from broker.protocol.messages.consumer_group_heartbeat_request import TopicPartitions as TP

T = [uuid.UUID(int=i + 1) for i in range(4)]


# ------------------------------------------------------------------ assignors

subscriptions = st.dictionaries(
    st.sampled_from([f"m{i}" for i in range(7)]),
    st.frozensets(st.sampled_from(T), min_size=1),
    min_size=1,
)
partition_counts = st.fixed_dictionaries({t: st.integers(0, 9) for t in T})


def _check_complete_and_valid(members, topics, result):
    owners = {}
    for m, assignment in result.items():
        for t, ps in assignment.items():
            assert t in members[m].subscribed
            for p in ps:
                assert 0 <= p < topics[t]
                assert (t, p) not in owners, "a partition has one owner"
                owners[t, p] = m
    wanted = {(t, p) for s in members.values() for t in s.subscribed for p in range(topics[t])}
    assert set(owners) == wanted, "every subscribed partition is assigned"


@given(subscriptions, partition_counts)
def test_uniform_is_complete_valid_and_balanced_when_homogeneous(subs, topics):
    members = {m: MemberSpec(s) for m, s in subs.items()}
    result = uniform_assign(members, topics)
    _check_complete_and_valid(members, topics, result)
    if len(set(subs.values())) == 1:
        loads = [sum(len(ps) for ps in a.values()) for a in result.values()]
        assert max(loads) - min(loads) <= 1


@given(subscriptions, partition_counts)
def test_uniform_is_sticky_and_deterministic(subs, topics):
    members = {m: MemberSpec(s) for m, s in subs.items()}
    first = uniform_assign(members, topics)
    again = uniform_assign({m: MemberSpec(s, first[m]) for m, s in subs.items()}, topics)
    assert again == first, "an assignment fed back as the previous one stays"


@given(st.integers(1, 6), st.integers(1, 12))
def test_uniform_moves_few_partitions_when_a_member_joins(n, partitions):
    topics = {T[0]: partitions}
    before = uniform_assign({f"m{i}": MemberSpec(frozenset({T[0]})) for i in range(n)}, topics)
    specs = {f"m{i}": MemberSpec(frozenset({T[0]}), before[f"m{i}"]) for i in range(n)}
    specs["new"] = MemberSpec(frozenset({T[0]}))
    after = uniform_assign(specs, topics)
    moved = sum(len(before[m].get(T[0], frozenset()) - after[m].get(T[0], frozenset())) for m in before)
    assert moved == sum(len(ps) for ps in after["new"].values())


@given(subscriptions, partition_counts)
def test_range_is_complete_and_copartitions(subs, topics):
    members = {m: MemberSpec(s) for m, s in subs.items()}
    result = range_assign(members, topics)
    _check_complete_and_valid(members, topics, result)
    for a, b in itertools.combinations(T, 2):
        same_subscribers = {m for m, s in subs.items() if a in s} == {m for m, s in subs.items() if b in s}
        if same_subscribers and topics[a] == topics[b]:
            for assignment in result.values():
                assert assignment.get(a, frozenset()) == assignment.get(b, frozenset())


def test_range_gives_consecutive_ranges_first_members_one_more():
    members = {m: MemberSpec(frozenset({T[0]})) for m in ("b", "a", "c")}
    result = range_assign(members, {T[0]: 7})
    assert result["a"][T[0]] == {0, 1, 2}
    assert result["b"][T[0]] == {3, 4}
    assert result["c"][T[0]] == {5, 6}


# ------------------------------------------------------------------ reconciliation


def test_reconcile_table_has_a_row_for_every_combination():
    assert len(STEPS) == len(MemberState) * 8


parts = st.frozensets(st.integers(0, 5), max_size=6)


@given(parts, parts, parts, st.sampled_from(list(MemberState)), st.booleans())
def test_reconcile_never_assigns_a_partition_someone_else_holds(held, target, others, state, report):
    others = others - held
    current = MemberAssignment(3, 2, state, {T[0]: dict.fromkeys(held, 3)} if held else {})
    owned = [(T[0], sorted(held))] if report else None
    out = reconcile(
        current,
        target_epoch=4,
        target={T[0]: target},
        subscribed=frozenset({T[0]}),
        subscription_changed=False,
        owned=owned,
        partition_epoch=lambda t, p: 3 if p in others else -1,
    )
    if out.error:
        assert state is MemberState.UNKNOWN
        return
    new = out.assignment
    assigned = set(new.assigned.get(T[0], {}))
    assert assigned <= held | target
    assert not (assigned - held) & others, "a partition is given only once released"
    if new.state is MemberState.UNREVOKED_PARTITIONS:
        assert assigned <= held, "revoke before assign"
        assert new.member_epoch == 3
    if new.member_epoch == 4:
        assert all(e == 4 for p, e in new.assigned.get(T[0], {}).items() if p not in held)


def test_reconcile_revokes_then_assigns():
    current = MemberAssignment(1, 0, MemberState.STABLE, {T[0]: {0: 1, 1: 1}})
    step1 = reconcile(
        current,
        target_epoch=2,
        target={T[0]: frozenset({0, 2})},
        subscribed=frozenset({T[0]}),
        subscription_changed=False,
        owned=[(T[0], [0, 1])],
        partition_epoch=lambda t, p: -1,
    ).assignment
    assert step1.state is MemberState.UNREVOKED_PARTITIONS and step1.member_epoch == 1
    assert dict(step1.pending_revocation) == {T[0]: {1: 1}}
    step2 = reconcile(
        step1,
        target_epoch=2,
        target={T[0]: frozenset({0, 2})},
        subscribed=frozenset({T[0]}),
        subscription_changed=False,
        owned=[(T[0], [0])],
        partition_epoch=lambda t, p: -1,
    ).assignment
    assert step2.state is MemberState.STABLE and step2.member_epoch == 2 and step2.previous_member_epoch == 1
    assert dict(step2.assigned) == {T[0]: {0: 1, 2: 2}}


# ------------------------------------------------------------------ the metadata hash


def test_topics_hash_follows_names_ids_partitions_and_racks_not_order():
    a, b = TopicInfo("a", T[0], 2, (("r1",), ("r2",))), TopicInfo("b", T[1], 3)
    assert topics_hash([]) == 0
    assert topics_hash([a, b]) == topics_hash([b, a]) != topics_hash([a])
    for changed in (
        TopicInfo("a2", T[0], 2, a.racks),
        TopicInfo("a", T[2], 2, a.racks),
        TopicInfo("a", T[0], 3, a.racks),
        TopicInfo("a", T[0], 2, (("r1",), ("r3",))),
    ):
        assert topics_hash([changed, b]) != topics_hash([a, b])


def test_merged_partitions_reads_back_what_sorted_wire_lists():
    merged = merged_partitions([(T[1], [2, 0]), (T[0], []), (T[1], [1])])
    assert merged == {T[1]: frozenset({0, 1, 2}), T[0]: frozenset()}
    assert sorted_wire(merged) == [(T[1], [0, 1, 2])]
    assert merged_partitions([("1", (3,)), ("0", [1]), ("1", [0])]) == {"1": frozenset({0, 3}), "0": frozenset({1})}


# ------------------------------------------------------------------ the core


class Harness:
    def __init__(self, partitions: int = 4, **config) -> None:
        self.topics = TopicTable({"a": (T[0], partitions), "b": (T[1], 2), "other": (T[2], 1)})
        ids = (f"gen-{i}" for i in itertools.count())
        self.cg = ConsumerGroups(self.topics, ConsumerGroupConfig(**config), new_member_id=lambda: next(ids))
        self.log: list = []

    def hb(self, now_ms: int = 0, api_version: int = 1, **fields):
        fields.setdefault("group_id", "g")
        result = self.cg.heartbeat(Req(**fields), now_ms=now_ms, api_version=api_version)
        self.apply(result)
        return result.response

    def apply(self, result):
        for record in result.records:
            self.cg.replay_record(record)
        self.log.extend(result.records)
        return result

    def join(self, member_id: str, topics=("a",), **kw):
        kw.setdefault("rebalance_timeout_ms", 10_000)
        return self.hb(
            member_id=member_id, member_epoch=0, subscribed_topic_names=list(topics), topic_partitions=[], **kw
        )


def owned_of(response) -> list[TP] | None:
    if response.assignment is None:
        return None
    return [TP(tp.topic_id, tp.partitions) for tp in response.assignment.topic_partitions]


def test_join_creates_the_group_and_assigns_everything():
    h = Harness()
    r = h.join("m1")
    assert (r.error_code, r.member_epoch, r.member_id) == (0, 2, "m1")
    assert r.assignment.topic_partitions[0].partitions == [0, 1, 2, 3]
    types = [rec.type for rec in h.log]
    assert types == [
        RecordType.MEMBER,
        RecordType.GROUP,
        RecordType.TARGET_MEMBER,
        RecordType.TARGET_EPOCH,
        RecordType.CURRENT,
    ]
    assert h.cg.describe(["g"])[0].group_state == "Stable"


def test_second_member_waits_for_the_first_to_revoke():
    h = Harness()
    h.join("m1")
    r2 = h.join("m2")
    assert r2.member_epoch == 3 and r2.assignment.topic_partitions == []
    assert h.cg.groups["g"].state == "Reconciling"
    r1 = h.hb(member_id="m1", member_epoch=2, topic_partitions=[TP(T[0], [0, 1, 2, 3])])
    assert r1.member_epoch == 2 and sum(len(tp.partitions) for tp in r1.assignment.topic_partitions) == 2
    r1 = h.hb(member_id="m1", member_epoch=2, topic_partitions=owned_of(r1))
    assert r1.member_epoch == 3
    r2 = h.hb(member_id="m2", member_epoch=3)
    assert sorted(r2.assignment.topic_partitions[0].partitions) == [2, 3] or r2.assignment is not None
    assert h.cg.groups["g"].state == "Stable"


def test_v0_join_without_member_id_gets_one_v1_is_invalid():
    h = Harness()
    r = h.hb(
        api_version=0,
        member_id="",
        member_epoch=0,
        rebalance_timeout_ms=1,
        subscribed_topic_names=["a"],
        topic_partitions=[],
    )
    assert r.error_code == 0 and r.member_id == "gen-0"
    r = h.hb(
        api_version=1,
        member_id="",
        member_epoch=0,
        rebalance_timeout_ms=1,
        subscribed_topic_names=["a"],
        topic_partitions=[],
    )
    assert (r.error_code, r.error_message) == (ErrorCode.INVALID_REQUEST, "MemberId can't be empty.")


def test_first_request_rules():
    h = Harness()
    cases = [
        (
            {"rebalance_timeout_ms": -1, "subscribed_topic_names": ["a"], "topic_partitions": []},
            "RebalanceTimeoutMs must be provided in first request.",
        ),
        (
            {"rebalance_timeout_ms": 1, "subscribed_topic_names": ["a"], "topic_partitions": None},
            "TopicPartitions must be empty when (re-)joining.",
        ),
        (
            {"rebalance_timeout_ms": 1, "subscribed_topic_names": [], "topic_partitions": []},
            "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.",
        ),
    ]
    for fields, message in cases:
        r = h.hb(member_id="m", member_epoch=0, **fields)
        assert (r.error_code, r.error_message) == (ErrorCode.INVALID_REQUEST, message)
    r = h.hb(member_id="m", member_epoch=-3)
    assert r.error_message == "MemberEpoch is invalid."
    r = h.hb(member_id="m", member_epoch=-2)
    assert r.error_message == "InstanceId can't be null."
    assert h.log == []


def test_unsupported_assignor_and_bad_regex():
    h = Harness()
    r = h.join("m", server_assignor="sticky")
    assert r.error_code == ErrorCode.UNSUPPORTED_ASSIGNOR
    r = h.hb(member_id="m", member_epoch=0, rebalance_timeout_ms=1, subscribed_topic_regex="a(", topic_partitions=[])
    assert r.error_code == ErrorCode.INVALID_REGULAR_EXPRESSION
    r = h.hb(member_id="m", member_epoch=0, rebalance_timeout_ms=1, subscribed_topic_regex="(?=a)", topic_partitions=[])
    assert r.error_code == ErrorCode.INVALID_REGULAR_EXPRESSION, "RE2 has no lookaround"


def test_regex_subscription_resolves_and_follows_new_topics():
    h = Harness()
    r = h.hb(member_id="m", member_epoch=0, rebalance_timeout_ms=1, subscribed_topic_regex="[ab]", topic_partitions=[])
    assert {tp.topic_id for tp in r.assignment.topic_partitions} == {T[0], T[1]}
    assert h.cg.groups["g"].regexes["[ab]"].topics == ("a", "b")
    h.topics.set("c", T[3], 3)
    h.topics.set("cc", uuid.UUID(int=99), 3)
    h.cg._update_regex  # noqa: B018 - exists
    h.apply(h.cg.on_metadata_changed(h.topics, 5))
    assert h.cg.groups["g"].regexes["[ab]"].topics == ("a", "b"), "full match: 'cc' and 'c' do not match"
    r = h.hb(member_id="m", member_epoch=2, topic_partitions=owned_of(r))
    assert r.member_epoch == 2, "nothing subscribed changed"


def test_unknown_group_member_and_epochs():
    h = Harness()
    assert h.hb(member_id="m", member_epoch=2).error_code == ErrorCode.GROUP_ID_NOT_FOUND
    h.join("m1")
    assert h.hb(member_id="zz", member_epoch=2).error_code == ErrorCode.UNKNOWN_MEMBER_ID
    assert h.hb(member_id="m1", member_epoch=8).error_code == ErrorCode.FENCED_MEMBER_EPOCH
    assert h.hb(member_id="m1", member_epoch=2).error_code == 0


def test_previous_epoch_accepted_when_owned_is_a_subset():
    h = Harness()
    r = h.join("m1")
    h.join("m2")
    revoking = h.hb(member_id="m1", member_epoch=2, topic_partitions=owned_of(r))
    kept = owned_of(revoking)
    r1 = h.hb(member_id="m1", member_epoch=2, topic_partitions=kept)
    assert r1.member_epoch == 3
    # The response with epoch 2 was lost: epoch 1 with a subset of the assignment is fine.
    assert h.hb(member_id="m1", member_epoch=2, topic_partitions=kept).error_code == 0
    assert (
        h.hb(member_id="m1", member_epoch=2, topic_partitions=[TP(T[0], [0, 1, 2, 3])]).error_code
        == ErrorCode.FENCED_MEMBER_EPOCH
    )


def test_leave_bumps_the_epoch_and_removes_the_member():
    h = Harness()
    h.join("m1")
    h.join("m2")
    r = h.hb(member_id="m2", member_epoch=-1)
    assert (r.error_code, r.member_id, r.member_epoch) == (0, "m2", -1)
    g = h.cg.groups["g"]
    assert set(g.members) == {"m1"} and g.epoch == 4 and g.state == "Assigning"


def test_delete_group_takes_only_an_empty_group():
    h = Harness()
    h.join("m1")
    assert h.cg.delete_group("g").response == ErrorCode.NON_EMPTY_GROUP
    assert h.cg.delete_group("nope").response == ErrorCode.GROUP_ID_NOT_FOUND
    h.hb(member_id="m1", member_epoch=-1)
    deleted = h.apply(h.cg.delete_group("g"))
    assert deleted.response == ErrorCode.NONE and deleted.records[-1].type == RecordType.GROUP
    assert "g" not in h.cg.groups


# ------------------------------------------------------------------ assignment batching (KIP-1263)

T0 = 1_000_000  # any time but 0, which reads as "no target computed yet"


def n_partitions(response) -> int:
    return sum(len(tp.partitions) for tp in response.assignment.topic_partitions)


def target_epochs_written(h: Harness) -> list[int]:
    return [r.value.epoch for r in h.log if r.type is RecordType.TARGET_EPOCH]


def test_a_join_within_the_interval_keeps_the_current_target():
    h = Harness(assignment_interval_ms=1000)
    r1 = h.join("m1", now_ms=T0)
    assert (r1.member_epoch, n_partitions(r1)) == (2, 4)  # a new group's first target: at once
    r2 = h.join("m2", now_ms=T0 + 300)
    # The group epoch moves on; the target stays: m2 gets epoch 2 and nothing, m1 keeps all.
    assert (r2.member_epoch, n_partitions(r2)) == (2, 0)
    g = h.cg.groups["g"]
    assert (g.epoch, g.assignment_epoch, g.state) == (3, 2, "Assigning")
    r1 = h.hb(now_ms=T0 + 999, member_id="m1", member_epoch=2, topic_partitions=[TP(T[0], [0, 1, 2, 3])])
    assert r1.member_epoch == 2 and r1.assignment is None
    assert target_epochs_written(h) == [2]


def test_the_next_target_comes_after_the_interval_with_every_change_batched():
    h = Harness(assignment_interval_ms=1000)
    h.join("m1", now_ms=T0)
    h.join("m2", now_ms=T0 + 100)
    h.join("m3", topics=("a", "b"), now_ms=T0 + 200)
    # The first heartbeat after the interval computes one target (epoch 4) with both later joins.
    r1 = h.hb(now_ms=T0 + 1000, member_id="m1", member_epoch=2, topic_partitions=[TP(T[0], [0, 1, 2, 3])])
    assert target_epochs_written(h) == [2, 4]
    g = h.cg.groups["g"]
    assert (g.epoch, g.assignment_epoch, g.assignment_timestamp_ms) == (4, 4, T0 + 1000)
    assert set(g.target) == {"m1", "m2", "m3"}
    assert sum(len(ps) for a in g.target.values() for ps in a.values()) == 6
    # m1 revokes what moved, then everyone reconciles to epoch 4; no other target is computed.
    r1 = h.hb(now_ms=T0 + 1100, member_id="m1", member_epoch=2, topic_partitions=owned_of(r1))
    assert r1.member_epoch == 4
    for member_id in ("m2", "m3"):
        r = h.hb(now_ms=T0 + 1200, member_id=member_id, member_epoch=2, topic_partitions=[])
        assert r.member_epoch == 4 and n_partitions(r) == sum(len(ps) for ps in g.target[member_id].values())
    assert target_epochs_written(h) == [2, 4] and g.state == "Stable"


def test_interval_zero_and_the_group_config_override():
    immediate = Harness(assignment_interval_ms=0)
    immediate.join("m1", now_ms=T0)
    assert immediate.join("m2", now_ms=T0 + 1).member_epoch == 3
    # consumer.assignment.interval.ms on the group wins over the broker default, within the bounds.
    overrides = {"g": {"consumer.assignment.interval.ms": "0"}, "big": {"consumer.assignment.interval.ms": "90000"}}
    h = Harness(assignment_interval_ms=1000, group_configs=lambda g: overrides.get(g, {}))
    assert [h.cg.config.assignment_interval_for(g) for g in ("g", "big", "other")] == [0, 15000, 1000]
    h.join("m1", now_ms=T0)
    assert h.join("m2", now_ms=T0 + 1).member_epoch == 3


def test_a_group_emptied_within_the_interval_assigns_its_next_member_at_once():
    h = Harness(assignment_interval_ms=1000)
    h.join("m1", now_ms=T0)
    h.hb(now_ms=T0 + 10, member_id="m1", member_epoch=-1)
    g = h.cg.groups["g"]
    assert (g.assignment_epoch, g.assignment_timestamp_ms) == (3, 0)
    r = h.join("m2", now_ms=T0 + 20)
    assert (r.member_epoch, n_partitions(r)) == (4, 4)


def test_members_waiting_for_a_batched_target_heartbeat_when_it_is_due():
    h = Harness(assignment_interval_ms=1000)
    configured = h.cg.config.heartbeat_interval_for("g")
    first = h.join("m1", now_ms=T0)
    # Its heartbeat computed a target: back after one interval, to give up what joiners get.
    assert first.heartbeat_interval_ms == 1000 + BATCHED_HEARTBEAT_SLACK_MS < configured
    joiner = h.join("m2", now_ms=T0 + 300)
    assert n_partitions(joiner) == 0 and joiner.heartbeat_interval_ms == 700 + BATCHED_HEARTBEAT_SLACK_MS
    late = h.hb(now_ms=T0 + 998, member_id="m2", member_epoch=2, topic_partitions=[])
    assert late.heartbeat_interval_ms == MIN_BATCHED_HEARTBEAT_INTERVAL_MS
    due = h.hb(now_ms=T0 + 1000 + BATCHED_HEARTBEAT_SLACK_MS, member_id="m2", member_epoch=2, topic_partitions=[])
    assert target_epochs_written(h) == [2, 3]
    # Its partitions are m1's until m1 revokes them: it comes back often meanwhile.
    assert due.assignment is None and due.heartbeat_interval_ms == RELEASE_WAIT_HEARTBEAT_MS
    # m1 revokes what moved to m2 (from its heartbeat at the interval's end); m2 then gets it.
    r1 = h.hb(now_ms=T0 + 1010, member_id="m1", member_epoch=2, topic_partitions=[TP(T[0], [0, 1, 2, 3])])
    h.hb(now_ms=T0 + 1015, member_id="m1", member_epoch=2, topic_partitions=owned_of(r1))
    settled = h.hb(now_ms=T0 + 1020, member_id="m2", member_epoch=due.member_epoch, topic_partitions=[])
    # Within the interval of the target computed at T0 + 1005: back when it is over.
    assert n_partitions(settled) > 0 and settled.heartbeat_interval_ms == 990
    # Once it is over, nothing is held back: the configured interval.
    later = h.hb(now_ms=T0 + 2100, member_id="m2", member_epoch=due.member_epoch, topic_partitions=owned_of(settled))
    assert later.heartbeat_interval_ms == configured
    # Without batching, only a member waiting for others to revoke comes back early.
    plain = Harness(assignment_interval_ms=0)
    assert plain.join("m1", now_ms=T0).heartbeat_interval_ms == configured
    assert plain.join("m2", now_ms=T0 + 1).heartbeat_interval_ms == RELEASE_WAIT_HEARTBEAT_MS


def test_group_max_size():
    h = Harness(max_size=1)
    h.join("m1")
    assert h.join("m2").error_code == ErrorCode.GROUP_MAX_SIZE_REACHED
    assert h.hb(member_id="m1", member_epoch=2).error_code == 0


def test_static_member_replacement():
    h = Harness()
    r = h.join("s1", instance_id="i")
    assert h.join("s2", instance_id="i").error_code == ErrorCode.UNRELEASED_INSTANCE_ID
    assert h.hb(member_id="s9", member_epoch=2, instance_id="i").error_code == ErrorCode.FENCED_INSTANCE_ID
    r = h.hb(member_id="s1", member_epoch=-2, instance_id="i")
    assert r.member_epoch == -2
    epoch = h.cg.groups["g"].epoch
    r = h.join("s2", instance_id="i")
    assert r.error_code == 0 and r.assignment.topic_partitions[0].partitions == [0, 1, 2, 3]
    g = h.cg.groups["g"]
    assert set(g.members) == {"s2"} and g.static == {"i": "s2"} and g.epoch == epoch, "no rebalance"


def test_session_expiry_and_rebalance_timeout_fence():
    h = Harness()
    h.join("m1", rebalance_timeout_ms=1000)
    assert h.cg.next_deadline_ms() == 45_000
    h.join("m2", now_ms=100)
    # m1 must revoke half; it heartbeats without revoking, then goes silent.
    h.hb(now_ms=200, member_id="m1", member_epoch=2, topic_partitions=[TP(T[0], [0, 1, 2, 3])])
    assert h.cg.groups["g"].members["m1"].assignment.state is MemberState.UNREVOKED_PARTITIONS
    assert h.cg.next_deadline_ms() == 1200
    h.apply(h.cg.tick(1200))
    assert set(h.cg.groups["g"].members) == {"m2"}
    h.apply(h.cg.tick(45_100))
    assert h.cg.groups["g"].members == {}
    assert h.cg.next_deadline_ms() is None


def test_snapshot_and_double_replay_rebuild_the_same_state():
    h = Harness()
    h.join("m1", instance_id="i1")
    h.join("m2", topics=("a", "b"))
    h.hb(member_id="m1", member_epoch=2, topic_partitions=[TP(T[0], [0, 1, 2, 3])])
    fresh = ConsumerGroups(h.topics)
    for record in h.log + h.log:
        fresh.replay_record(record)
    from_snapshot = ConsumerGroups(h.topics)
    for record in h.cg.snapshot():
        from_snapshot.replay_record(record)
    assert fresh.groups == h.cg.groups == from_snapshot.groups


def test_offset_commit_validation():
    h = Harness()
    r = h.join("m1")
    h.join("m2")
    cg = h.cg
    assert cg.validate_offset_commit("g", "m1", None, 2).error == 0
    assert cg.validate_offset_commit("g", "zz", None, 2).error == ErrorCode.UNKNOWN_MEMBER_ID
    assert cg.validate_offset_commit("g", "m1", None, 6).error == ErrorCode.STALE_MEMBER_EPOCH
    assert cg.validate_offset_commit("g", "m1", None, 2, api_version=8).error == ErrorCode.UNSUPPORTED_VERSION
    assert cg.validate_offset_commit("g", "", None, -1).error == ErrorCode.UNKNOWN_MEMBER_ID
    r1 = h.hb(member_id="m1", member_epoch=2, topic_partitions=owned_of(r))
    h.hb(member_id="m1", member_epoch=2, topic_partitions=owned_of(r1))
    check = cg.validate_offset_commit("g", "m1", None, 2)
    kept = owned_of(r1)[0].partitions
    assert all(check.partition_error(T[0], p) == 0 for p in kept), "held since epoch 1"
    assert h.hb(member_id="m2", member_epoch=3).error_code == 0
    check = cg.validate_offset_commit("g", "m2", None, 2)
    assert check.partition_error(T[0], 3) == ErrorCode.STALE_MEMBER_EPOCH


# ------------------------------------------------------------------ many members, random order


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from(["hb", "hb", "hb", "join", "leave"])), max_size=60))
def test_random_heartbeats_never_double_assign_and_converge(script):
    h = Harness(partitions=6)
    state = {}  # member id -> (epoch, owned partitions)
    for index, action in script:
        mid = f"m{index}"
        if mid not in state:
            r = h.join(mid)
        elif action == "leave":
            r = h.hb(member_id=mid, member_epoch=-1)
            state.pop(mid, None)
            continue
        else:
            epoch, owned = state[mid]
            r = h.hb(member_id=mid, member_epoch=epoch, topic_partitions=[TP(T[0], sorted(owned))])
        if r.error_code:
            # A fenced client gives up here and closes (leaving the group).
            state.pop(mid, None)
            h.hb(member_id=mid, member_epoch=-1)
            continue
        owned = state.get(mid, (0, set()))[1]
        if r.assignment is not None:
            owned = {p for tp in r.assignment.topic_partitions for p in tp.partitions}
        state[mid] = (r.member_epoch, owned)
        seen = {}
        for other, (_, ps) in state.items():
            for p in ps:
                assert p not in seen, f"partition {p} owned by {seen.get(p)} and {other}"
                seen[p] = other
    # Let every member heartbeat until nothing changes: the group converges.
    for _ in range(6):
        for mid, (epoch, owned) in list(state.items()):
            r = h.hb(member_id=mid, member_epoch=epoch, topic_partitions=[TP(T[0], sorted(owned))])
            assert r.error_code == 0
            if r.assignment is not None:
                owned = {p for tp in r.assignment.topic_partitions for p in tp.partitions}
            state[mid] = (r.member_epoch, owned)
    if state:
        assert h.cg.groups["g"].state == "Stable"
        assert sorted(p for _, ps in state.values() for p in ps) == list(range(6))


# ------------------------------------------------------------------ migration seam


def test_consumer_join_replaces_an_empty_classic_group_but_not_a_live_one():
    from broker.group.classic.core import ClassicGroups
    from broker.group.migration import ClassicDirectory, ClassicTombstone
    from broker.group.offsets import decode_record

    classic = ClassicGroups()
    classic.ensure_group("old", 0)  # e.g. created by an offset commit: Empty
    topics = TopicTable({"a": (T[0], 2)})
    cg = ConsumerGroups(topics, directory=ClassicDirectory(classic))
    result = cg.heartbeat(
        Req(
            group_id="old",
            member_id="m",
            member_epoch=0,
            rebalance_timeout_ms=1,
            subscribed_topic_names=["a"],
            topic_partitions=[],
        ),
        now_ms=0,
    )
    assert result.response.error_code == 0
    tombstone = result.records[0]
    assert isinstance(tombstone, ClassicTombstone)
    decoded = decode_record(tombstone.key, None)
    assert decoded.key.group == "old" and decoded.value is None
    classic.groups["live"] = classic.groups["old"]
    classic.groups["live"].state = __import__("broker.group.classic", fromlist=["GroupState"]).GroupState.STABLE
    r = cg.heartbeat(
        Req(
            group_id="live",
            member_id="m",
            member_epoch=0,
            rebalance_timeout_ms=1,
            subscribed_topic_names=["a"],
            topic_partitions=[],
        ),
        now_ms=0,
    )
    assert (r.response.error_code, r.response.error_message) == (
        ErrorCode.GROUP_ID_NOT_FOUND,
        "Group live is not a consumer group.",
    )
