"""The classic group state machine (broker.group.classic) on a fake clock.

Expected answers are Kafka 4.2's (GroupMetadataManager classic paths): error
codes, who is leader, when a rebalance starts and completes, what is written.
"""

from __future__ import annotations

import itertools
import uuid

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from broker.coordinator.result import CoordinatorResult
from broker.group.classic.core import ClassicGroups
from broker.group.classic.model import (
    VALID_PREVIOUS,
    ClassicGroup,
    CoordinatorConfig,
    GroupState,
    Pending,
    preferred_protocol,
)
from broker.group.offsets import decode_record
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.group_metadata_value import GroupMetadataValue

E = ErrorCode
SUB = b"\x00\x00\x00\x00\x00\x01\x00\x01t\x00\x00\x00\x00"  # ConsumerProtocolSubscription v0: topic "t"


def test_preferred_protocol_is_common_to_all_and_most_preferred():
    assert preferred_protocol([["range", "roundrobin"], ["roundrobin", "range"], ["range"]]) == "range"
    assert preferred_protocol([["sticky", "range"], ["roundrobin", "range"]]) == "range"
    assert preferred_protocol([["a", "b"], ["b", "a"]]) == "a", "a tie goes to the first voted for"
    assert preferred_protocol([["a"], ["b"]]) is None
    assert preferred_protocol([]) is None


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


class Driven:
    """The core as these tests drive it: each call at the fake clock's time, the records
    it returns collected, its response handed back."""

    # Operations returning a CoordinatorResult, and replay steps that only take the time.
    OPERATIONS = frozenset(
        {"join", "sync", "heartbeat", "leave", "validate_offset_commit", "remove_group", "maybe_remove_empty_group"}
    )
    TIMED = frozenset({"tick", "replay_group_metadata", "ensure_group", "adopt_group", "on_loaded"})

    def __init__(self, core: ClassicGroups, clock: Clock) -> None:
        self.core = core
        self.clock = clock
        self.written: list[tuple[bytes, bytes | None]] = []

    def __getattr__(self, name):
        attr = getattr(self.core, name)
        if name not in self.OPERATIONS | self.TIMED:
            return attr

        def call(*args, **kwargs):
            result = attr(*args, now_ms=self.clock(), **kwargs)
            if isinstance(result, CoordinatorResult):
                self.written += result.records
                return result.response if name in self.OPERATIONS else None
            return result

        return call

    def __setattr__(self, name, value):
        if name in ("core", "clock", "written"):
            object.__setattr__(self, name, value)
        else:
            setattr(self.core, name, value)


class Harness:
    """A coordinator, its clock, and the answers it has handed out so far."""

    def __init__(self, other=None, **config) -> None:
        self.clock = Clock()
        defaults = {"initial_rebalance_delay_ms": 0}
        defaults.update(config)
        ids = itertools.count()
        self.c = Driven(
            ClassicGroups(
                CoordinatorConfig(**defaults),
                other_group_type=other,
                new_uuid=lambda: uuid.UUID(int=next(ids)),
            ),
            self.clock,
        )
        self.answers: dict[int, object] = {}
        self.records: list[tuple[str, bytes, bytes | None]] = []

    def drain(self) -> None:
        for token, answer in self.c.take_outbox():
            assert token not in self.answers, "a parked request was answered twice"
            self.answers[token] = answer
        for key, value in self.c.written:
            decoded = decode_record(key, value)
            assert decoded is not None
            self.records.append((decoded.key.group, key, value))
        self.c.written.clear()

    def advance(self, ms: int) -> None:
        self.clock.now += ms
        self.c.tick()
        self.drain()

    def run_due(self) -> None:
        self.c.tick()
        self.drain()

    def join(
        self,
        member_id="",
        group="g",
        *,
        protocols=(("range", SUB),),
        session=10_000,
        rebalance=30_000,
        instance=None,
        version=9,
        protocol_type="consumer",
        client_id="client",
    ):
        result = self.c.join(
            group,
            member_id,
            protocol_type=protocol_type,
            protocols=list(protocols),
            session_timeout_ms=session,
            rebalance_timeout_ms=rebalance,
            group_instance_id=instance,
            client_id=client_id,
            client_host="/127.0.0.1",
            api_version=version,
        )
        self.drain()
        return result

    def answer(self, result):
        """The answer of a parked request (None while parked), or a direct answer as is."""
        if not isinstance(result, Pending):
            return result
        return self.answers.get(result.token)

    def new_member(self, group="g", **kw) -> str:
        """v4+ first join: MEMBER_ID_REQUIRED hands out the id."""
        first = self.join("", group, **kw)
        assert first.error_code == E.MEMBER_ID_REQUIRED
        return first.member_id

    def sync(
        self,
        member_id,
        generation,
        group="g",
        assignments=None,
        protocol_type="consumer",
        protocol_name="range",
        instance=None,
    ):
        result = self.c.sync(
            group,
            generation,
            member_id,
            group_instance_id=instance,
            protocol_type=protocol_type,
            protocol_name=protocol_name,
            assignments=assignments,
        )
        self.drain()
        return result

    def state(self, group="g") -> GroupState:
        return self.c.groups[group].state

    def group_records(self, group="g") -> list[GroupMetadataValue | None]:
        out: list[GroupMetadataValue | None] = []
        for gid, key, value in self.records:
            rec = decode_record(key, value)
            if gid == group and rec is not None and rec.record_type == 2:
                assert rec.value is None or isinstance(rec.value, GroupMetadataValue)
                out.append(rec.value)
        return out

    def stable_group(self, n=2, group="g", **kw) -> list[str]:
        """n members joined and synced (the first is the leader); returns member ids."""
        ids = [self.new_member(group, **kw) for _ in range(n)]
        pendings = [self.join(m, group, **kw) for m in ids]
        self.run_due()
        answers = [self.answer(p) for p in pendings]
        assert all(a is not None and a.error_code == E.NONE for a in answers), answers
        leader = answers[0].leader
        gen = answers[0].generation_id
        syncs = {
            m: self.sync(m, gen, group, assignments=[(x, x.encode()) for x in ids] if m == leader else None)
            for m in ids
        }
        for m, s in syncs.items():
            assert self.answer(s).assignment == m.encode()
        assert self.state(group) is GroupState.STABLE
        return ids


# --- the transition table -----------------------------------------------------------------


@pytest.mark.parametrize("source", list(GroupState))
@pytest.mark.parametrize("target", list(GroupState))
def test_transition_table_is_enforced(source, target):
    group = ClassicGroup("g", 0, state=source)
    if source in VALID_PREVIOUS[target]:
        group.transition_to(target, 5)
        assert (group.state, group.previous_state, group.state_timestamp_ms) == (target, source, 5)
    else:
        with pytest.raises(AssertionError):
            group.transition_to(target, 5)


# --- JoinGroup ------------------------------------------------------------------------------


def test_first_join_v4_requires_member_id_and_creates_an_empty_group():
    h = Harness()
    first = h.join("", client_id="consumer-1", version=4)
    assert first.error_code == E.MEMBER_ID_REQUIRED
    assert first.member_id == f"consumer-1-{uuid.UUID(int=0)}"
    assert (first.generation_id, first.protocol_name, first.leader, first.members) == (-1, None, "", [])
    assert h.state() is GroupState.EMPTY
    # The new group is persisted at once, as Kafka's empty GroupMetadata record.
    (value,) = h.group_records()
    shown = (value.protocol_type, value.generation, value.protocol, value.leader, value.members)
    assert shown == ("", 0, None, None, [])


def test_join_v3_parks_until_the_initial_delay_then_elects_the_leader():
    h = Harness(initial_rebalance_delay_ms=3000)
    pending = h.join("", version=3)
    assert isinstance(pending, Pending)
    assert h.state() is GroupState.PREPARING_REBALANCE
    h.advance(2999)
    assert h.answer(pending) is None
    h.advance(1)
    answer = h.answer(pending)
    assert answer.error_code == E.NONE
    assert answer.generation_id == 1
    assert answer.leader == answer.member_id
    assert (answer.protocol_type, answer.protocol_name) == ("consumer", "range")
    assert [(m.member_id, m.metadata) for m in answer.members] == [(answer.member_id, SUB)]
    assert h.state() is GroupState.COMPLETING_REBALANCE


def test_initial_delay_is_extended_while_members_keep_arriving():
    h = Harness(initial_rebalance_delay_ms=3000)
    a = h.join(h.new_member())
    h.advance(2000)
    b = h.join(h.new_member())
    h.advance(1000)  # the first delay ends, but a member was added: wait once more
    assert h.answer(a) is None and h.answer(b) is None
    h.advance(3000)
    ra, rb = h.answer(a), h.answer(b)
    assert ra.generation_id == rb.generation_id == 1
    assert ra.leader == ra.member_id and len(ra.members) == 2
    assert rb.members == []  # only the leader gets the member list


def test_protocol_selection_takes_the_one_all_members_support():
    h = Harness()
    a = h.join(
        h.new_member(protocols=[("range", SUB), ("roundrobin", SUB)]), protocols=[("range", SUB), ("roundrobin", SUB)]
    )
    b = h.join(h.new_member(protocols=[("roundrobin", SUB)]), protocols=[("roundrobin", SUB)])
    h.run_due()
    assert h.answer(a).protocol_name == h.answer(b).protocol_name == "roundrobin"


def test_join_with_unsupported_protocol_or_type_is_inconsistent():
    h = Harness()
    h.stable_group(1)
    assert h.join("", protocols=[("sticky", SUB)]).error_code == E.INCONSISTENT_GROUP_PROTOCOL
    assert h.join("", protocol_type="connect").error_code == E.INCONSISTENT_GROUP_PROTOCOL
    h2 = Harness()
    assert h2.join("", protocols=[]).error_code == E.INCONSISTENT_GROUP_PROTOCOL


@pytest.mark.parametrize(
    "session, code",
    [
        (5999, E.INVALID_SESSION_TIMEOUT),
        (6000, E.MEMBER_ID_REQUIRED),
        (1_800_000, E.MEMBER_ID_REQUIRED),
        (1_800_001, E.INVALID_SESSION_TIMEOUT),
    ],
)
def test_session_timeout_bounds(session, code):
    h = Harness(min_session_timeout_ms=6000, max_session_timeout_ms=1_800_000)
    assert h.join("", session=session).error_code == code


def test_empty_group_id_and_unknown_member():
    h = Harness()
    assert h.join("", group="").error_code == E.INVALID_GROUP_ID
    answer = h.join("ghost", group="nobody")
    assert (answer.error_code, answer.member_id) == (E.UNKNOWN_MEMBER_ID, "ghost")


def test_group_max_size():
    h = Harness(max_size=1)
    h.stable_group(1)
    full = h.join("")  # a Stable group at its size refuses even the first join
    assert (full.error_code, full.member_id) == (E.GROUP_MAX_SIZE_REACHED, "")


def test_follower_rejoining_stable_group_gets_current_generation():
    h = Harness()
    leader, follower = h.stable_group(2)
    again = h.join(follower)
    assert not isinstance(again, Pending)
    assert (again.error_code, again.generation_id, again.leader, again.members) == (E.NONE, 1, leader, [])
    assert h.state() is GroupState.STABLE


def test_leader_rejoining_stable_group_triggers_a_rebalance():
    h = Harness()
    leader, follower = h.stable_group(2)
    pending = h.join(leader)
    assert h.state() is GroupState.PREPARING_REBALANCE
    assert h.c.heartbeat("g", 1, follower) == E.REBALANCE_IN_PROGRESS
    assert h.sync(follower, 1).error_code == E.REBALANCE_IN_PROGRESS
    other = h.join(follower)
    assert h.answer(pending).generation_id == h.answer(other).generation_id == 2


# --- share-group ids ----------------------------------------------------------------------------


def test_group_ids_of_share_groups_are_refused():
    h = Harness(other=lambda gid: "share" if gid == "sg" else None)
    answer = h.join("", group="sg")
    assert (answer.error_code, answer.member_id) == (E.INCONSISTENT_GROUP_PROTOCOL, "")
    assert "sg" not in h.c.groups
    assert h.c.validate_offset_commit("sg", "", None, -1, 9) == E.GROUP_ID_NOT_FOUND
    assert h.c.heartbeat("sg", 1, "m") == E.UNKNOWN_MEMBER_ID
    assert h.c.sync("sg", 1, "m").error_code == E.UNKNOWN_MEMBER_ID
    assert not h.c.offsets_visible("sg")
    assert h.c.group_type("sg") is None
    h.join("", group="cg")
    assert h.c.group_type("cg") == "classic"


# --- SyncGroup --------------------------------------------------------------------------------


def test_followers_wait_for_the_leaders_assignment_which_is_persisted_first():
    h = Harness()
    a, b = h.new_member(), h.new_member()
    pa, _pb = h.join(a), h.join(b)
    h.run_due()
    leader = h.answer(pa).leader
    follower = b if leader == a else a
    waiting = h.sync(follower, 1)
    assert h.answer(waiting) is None
    h.records.clear()
    done = h.sync(leader, 1, assignments=[(a, b"A"), (b, b"B")])
    assert h.state() is GroupState.STABLE
    assert h.answer(waiting).assignment == {a: b"A", b: b"B"}[follower]
    assert h.answer(done).assignment == {a: b"A", b: b"B"}[leader]
    assert (h.answer(done).protocol_type, h.answer(done).protocol_name) == ("consumer", "range")
    (value,) = h.group_records()
    assert value.generation == 1 and value.leader == leader and value.protocol == "range"
    assert {m.member_id: m.assignment for m in value.members} == {a: b"A", b: b"B"}
    assert all(m.subscription == SUB and m.session_timeout == 10_000 for m in value.members)


def test_sync_errors():
    h = Harness()
    _leader, follower = h.stable_group(2)
    assert h.sync(follower, 0).error_code == E.ILLEGAL_GENERATION
    assert h.sync("ghost", 1).error_code == E.UNKNOWN_MEMBER_ID
    assert h.sync(follower, 1, protocol_name="roundrobin").error_code == E.INCONSISTENT_GROUP_PROTOCOL
    assert h.sync(follower, 1, protocol_type="connect").error_code == E.INCONSISTENT_GROUP_PROTOCOL
    assert h.sync(follower, 1, group="none").error_code == E.UNKNOWN_MEMBER_ID
    assert h.sync(follower, 1, group="").error_code == E.INVALID_GROUP_ID
    # Stable: the current assignment again.
    assert h.sync(follower, 1, protocol_type=None, protocol_name=None).assignment == follower.encode()


def test_members_missing_sync_are_removed_after_the_rebalance_timeout():
    h = Harness()
    a, b = h.new_member(), h.new_member()
    pa, _pb = h.join(a, rebalance=5000), h.join(b, rebalance=5000)
    h.run_due()
    leader = h.answer(pa).leader
    follower = b if leader == a else a
    h.sync(leader, 1, assignments=[(leader, b"L")])
    h.advance(5000)  # the follower never sent SyncGroup
    assert follower not in h.c.groups["g"].members
    assert h.state() is GroupState.PREPARING_REBALANCE


# --- Heartbeat and session timeouts -------------------------------------------------------------


def test_heartbeat_answers():
    h = Harness()
    _leader, follower = h.stable_group(2)
    assert h.c.heartbeat("g", 1, follower) == E.NONE
    assert h.c.heartbeat("g", 2, follower) == E.ILLEGAL_GENERATION
    assert h.c.heartbeat("g", 1, "ghost") == E.UNKNOWN_MEMBER_ID
    assert h.c.heartbeat("nope", 1, follower) == E.UNKNOWN_MEMBER_ID
    assert h.c.heartbeat("", 1, follower) == E.INVALID_GROUP_ID


def test_session_expiry_removes_a_silent_member_and_the_group_rebalances():
    h = Harness()
    leader, follower = h.stable_group(2)  # session 10 s
    for _ in range(2):
        h.advance(4000)
        assert h.c.heartbeat("g", 1, leader) == E.NONE
    assert follower in h.c.groups["g"].members
    h.advance(2000)
    assert follower not in h.c.groups["g"].members
    assert h.c.heartbeat("g", 1, leader) == E.REBALANCE_IN_PROGRESS
    rejoin = h.join(leader)
    answer = h.answer(rejoin)
    assert answer.generation_id == 2 and [m.member_id for m in answer.members] == [leader]


def test_member_that_does_not_rejoin_is_dropped_at_the_rebalance_timeout():
    h = Harness()
    leader, follower = h.stable_group(2, rebalance=20_000, session=30_000)
    pending = h.join(follower, rebalance=20_000, session=30_000)  # new metadata? no: follower with same metadata
    assert not isinstance(pending, Pending)  # a follower rejoining a Stable group is just answered
    pending = h.join(leader, rebalance=20_000, session=30_000)  # the leader forces a rebalance
    h.advance(19_999)
    assert h.answer(pending) is None
    h.advance(1)
    answer = h.answer(pending)
    assert answer.generation_id == 2 and [m.member_id for m in answer.members] == [leader]


def test_pending_member_that_never_rejoins_expires():
    h = Harness()
    member_id = h.new_member(session=10_000)
    assert h.c.groups["g"].is_pending_member(member_id)
    h.advance(10_000)
    assert not h.c.groups["g"].is_pending_member(member_id)
    assert h.join(member_id).error_code == E.UNKNOWN_MEMBER_ID


def test_new_member_join_timeout_answers_a_vanished_joiner():
    h = Harness(new_member_join_timeout_ms=300_000)
    _leader, _follower = h.stable_group(2, session=600_000, rebalance=600_000)
    newcomer = h.join(h.new_member(session=600_000, rebalance=600_000), session=600_000, rebalance=600_000)
    assert h.state() is GroupState.PREPARING_REBALANCE
    h.advance(300_000)  # the newcomer's JoinGroup is answered UNKNOWN_MEMBER_ID and it is removed
    assert h.answer(newcomer).error_code == E.UNKNOWN_MEMBER_ID


# --- LeaveGroup ---------------------------------------------------------------------------------


def test_leave_rebalances_and_last_leave_empties_the_group():
    h = Harness()
    leader, follower = h.stable_group(2)
    assert h.c.leave("g", [(follower, None)]) == (E.NONE, [(follower, None, E.NONE)])
    assert h.state() is GroupState.PREPARING_REBALANCE
    pending = h.join(leader)
    assert h.answer(pending).generation_id == 2
    h.sync(leader, 2, assignments=[(leader, b"all")])
    h.records.clear()
    assert h.c.leave("g", [(leader, None)]) == (E.NONE, [(leader, None, E.NONE)])
    h.drain()
    assert h.state() is GroupState.EMPTY
    assert h.c.groups["g"].generation == 3
    (value,) = h.group_records()
    assert value.members == [] and value.generation == 3 and value.protocol is None


def test_leave_batch_reports_each_member():
    h = Harness()
    _leader, follower = h.stable_group(2)
    error, results = h.c.leave("g", [("ghost", None), ("", "no-such-instance"), (follower, None)])
    assert error == E.NONE
    assert results == [
        ("ghost", None, E.UNKNOWN_MEMBER_ID),
        ("", "no-such-instance", E.UNKNOWN_MEMBER_ID),
        (follower, None, E.NONE),
    ]
    assert h.c.leave("missing", [("m", None)]) == (E.NONE, [("m", None, E.UNKNOWN_MEMBER_ID)])


def test_leave_of_a_parked_member_answers_its_join():
    h = Harness(initial_rebalance_delay_ms=10_000)
    member = h.new_member()
    pending = h.join(member)
    h.c.leave("g", [(member, None)])
    h.drain()
    assert h.answer(pending).error_code == E.UNKNOWN_MEMBER_ID


# --- static membership (KIP-345) ---------------------------------------------------------------


def test_static_member_restart_keeps_the_generation_and_fences_the_old_id():
    h = Harness()
    a = h.join("", instance="i-a")  # static members need no MEMBER_ID_REQUIRED round
    b = h.join("", instance="i-b")
    h.run_due()
    ra, rb = h.answer(a), h.answer(b)
    assert ra.member_id.startswith("i-a-")
    leader = ra.leader
    h.sync(leader, 1, assignments=[(ra.member_id, b"A"), (rb.member_id, b"B")], instance="i-a")
    h.sync(rb.member_id, 1, instance="i-b")
    h.records.clear()
    again = h.join("", instance="i-b")  # i-b restarted and lost its member id
    answer = h.answer(again)
    assert answer.error_code == E.NONE and answer.generation_id == 1
    assert answer.member_id != rb.member_id and answer.members == [] and not answer.skip_assignment
    assert h.state() is GroupState.STABLE
    assert h.c.heartbeat("g", 1, rb.member_id, "i-b") == E.FENCED_INSTANCE_ID
    assert h.c.heartbeat("g", 1, answer.member_id, "i-b") == E.NONE
    assert h.sync(answer.member_id, 1, instance="i-b").assignment == b"B"
    assert len(h.group_records()) == 1  # the new member id is persisted


def test_static_leader_restart_v9_skips_assignment():
    h = Harness()
    a = h.join("", instance="i-a")
    h.run_due()
    first = h.answer(a)
    h.sync(first.member_id, 1, assignments=[(first.member_id, b"A")], instance="i-a")
    again = h.answer(h.join("", instance="i-a", version=9))
    assert again.skip_assignment and again.leader == again.member_id and len(again.members) == 1


def test_static_member_removed_by_instance_id():
    h = Harness()
    h.join("", instance="i-a")
    h.run_due()
    assert h.c.leave("g", [("", "i-a")]) == (E.NONE, [("", "i-a", E.NONE)])
    assert h.state() is GroupState.EMPTY


# --- offset-commit validation, delete, describe, list ------------------------------------------


def test_offset_commit_validation():
    h = Harness()
    c = h.c
    assert c.validate_offset_commit("simple", "", None, -1, 9) == E.NONE
    assert c.groups["simple"].state is GroupState.EMPTY and c.groups["simple"].protocol_type is None
    assert c.validate_offset_commit("missing", "m", None, 3, 9) == E.GROUP_ID_NOT_FOUND
    assert c.validate_offset_commit("missing", "m", None, 3, 8) == E.ILLEGAL_GENERATION
    leader, follower = h.stable_group(2)
    assert c.validate_offset_commit("g", follower, None, 1, 9) == E.NONE
    assert c.validate_offset_commit("g", follower, None, 0, 9) == E.ILLEGAL_GENERATION
    assert c.validate_offset_commit("g", "ghost", None, 1, 9) == E.UNKNOWN_MEMBER_ID
    assert c.validate_offset_commit("g", "", None, -1, 9) == E.UNKNOWN_MEMBER_ID
    h.join(leader)  # rebalance: PreparingRebalance accepts commits of the old generation
    assert c.validate_offset_commit("g", follower, None, 1, 9) == E.NONE
    h.join(follower)
    assert h.state() is GroupState.COMPLETING_REBALANCE
    assert c.validate_offset_commit("g", follower, None, 2, 9) == E.REBALANCE_IN_PROGRESS


def test_commits_keep_a_member_alive():
    h = Harness()
    leader, follower = h.stable_group(2)
    for _ in range(5):
        h.advance(4000)
        assert h.c.heartbeat("g", 1, leader) == E.NONE
        assert h.c.validate_offset_commit("g", follower, None, 1, 9) == E.NONE
    assert follower in h.c.groups["g"].members


def test_delete_group_rules():
    h = Harness()
    h.stable_group(1)
    assert h.c.validate_delete_group("g") == E.NON_EMPTY_GROUP
    assert h.c.validate_delete_group("nope") == E.GROUP_ID_NOT_FOUND
    h.c.validate_offset_commit("simple", "", None, -1, 9)
    assert h.c.validate_delete_group("simple") == E.NONE
    h.c.remove_group("simple")
    h.drain()
    assert "simple" not in h.c.groups
    assert h.group_records("simple") == [None]  # tombstone


def test_offset_delete_rules_and_subscriptions():
    h = Harness()
    h.stable_group(1)  # consumer protocol, subscribed to topic "t"
    assert h.c.validate_offset_delete("g") == E.NONE
    assert h.c.is_subscribed_to_topic("g", "t") and not h.c.is_subscribed_to_topic("g", "other")
    h.join("", group="connect", protocol_type="connect", protocols=[("v1", b"x")], version=3)
    h.run_due()
    assert h.c.validate_offset_delete("connect") == E.NON_EMPTY_GROUP
    assert h.c.validate_offset_delete("missing") == E.GROUP_ID_NOT_FOUND


def test_describe_and_list():
    h = Harness()
    leader, follower = h.stable_group(2)
    d = h.c.describe("g")
    assert (d.group_state, d.protocol_type, d.protocol_data) == ("Stable", "consumer", "range")
    assert [(m.member_id, m.member_metadata, m.member_assignment, m.client_host) for m in d.members] == [
        (leader, SUB, leader.encode(), "/127.0.0.1"),
        (follower, SUB, follower.encode(), "/127.0.0.1"),
    ]
    h.join(leader)
    d = h.c.describe("g")
    assert d.group_state == "PreparingRebalance" and d.protocol_data == "" and d.members[0].member_metadata == b""
    assert h.c.describe("none") is None
    h.c.validate_offset_commit("simple", "", None, -1, 9)
    rows = {(r.group_id, r.protocol_type, r.state, r.group_type) for r in h.c.list_groups()}
    assert rows == {("g", "consumer", "PreparingRebalance", "classic"), ("simple", "", "Empty", "classic")}


# --- replay ---------------------------------------------------------------------------------------


def test_replaying_the_records_restores_groups_and_restarts_sessions():
    h = Harness()
    leader, follower = h.stable_group(2)
    h.c.validate_offset_commit("simple", "", None, -1, 9)
    h.join(h.new_member(group="empty"), group="empty")
    h.run_due()
    other = h.c.groups["empty"].leader_id
    h.c.leave("empty", [(other, None)])
    h.drain()

    fresh = Harness()
    for gid, key, value in h.records:
        rec = decode_record(key, value)
        fresh.c.replay_group_metadata(gid, rec.value)
    fresh.c.on_loaded()
    g = fresh.c.groups["g"]
    assert (g.state, g.generation, g.leader_id, g.protocol_name) == (GroupState.STABLE, 1, leader, "range")
    assert {m: x.assignment for m, x in g.members.items()} == {leader: leader.encode(), follower: follower.encode()}
    assert g.subscribed_topics == {"t"}
    assert fresh.c.groups["empty"].state is GroupState.EMPTY
    assert fresh.c.groups["empty"].protocol_type == "consumer"
    assert fresh.c.heartbeat("g", 1, follower) == E.NONE
    assert fresh.sync(follower, 1).assignment == follower.encode()
    fresh.advance(10_000)  # the leader never heartbeats after the restart
    assert leader not in fresh.c.groups["g"].members


# --- every sequence of inputs keeps the invariants -----------------------------------------------


MEMBERS = ["m0", "m1", "m2"]


class GroupMachine(RuleBasedStateMachine):
    """Random joins, syncs, heartbeats, leaves and time steps over one group."""

    def __init__(self) -> None:
        super().__init__()
        self.h = Harness(initial_rebalance_delay_ms=1000, new_member_join_timeout_ms=60_000)
        self.ids: dict[str, str] = {}  # logical member -> member id
        self.generation: dict[str, int] = {}
        self.tokens: list[int] = []
        self.last_generation = 0

    def _record(self, result):
        if isinstance(result, Pending):
            self.tokens.append(result.token)
        return result

    @rule(who=st.sampled_from(MEMBERS), static=st.booleans(), protocol=st.sampled_from(["range", "roundrobin"]))
    def join(self, who, static, protocol):
        instance = f"i-{who}" if static else None
        member_id = self.ids.get(who, "")
        result = self._record(
            self.h.join(member_id, instance=instance, protocols=[(protocol, SUB)], session=10_000, rebalance=20_000)
        )
        if not isinstance(result, Pending):
            if result.error_code == E.MEMBER_ID_REQUIRED:
                self.ids[who] = result.member_id
            elif result.error_code == E.UNKNOWN_MEMBER_ID:
                self.ids.pop(who, None)

    @rule(who=st.sampled_from(MEMBERS))
    def sync(self, who):
        if who in self.ids and "g" in self.h.c.groups:
            g = self.h.c.groups["g"]
            assignments = [(m, b"x") for m in g.members] if g.leader_id == self.ids[who] else None
            self._record(
                self.h.sync(
                    self.ids[who], g.generation, protocol_type=None, protocol_name=None, assignments=assignments
                )
            )

    @rule(who=st.sampled_from(MEMBERS))
    def heartbeat(self, who):
        if who in self.ids and "g" in self.h.c.groups:
            self.h.c.heartbeat("g", self.h.c.groups["g"].generation, self.ids[who])
            self.h.drain()

    @rule(who=st.sampled_from(MEMBERS))
    def leave(self, who):
        if who in self.ids:
            self.h.c.leave("g", [(self.ids.pop(who), None)])
            self.h.drain()

    @rule(ms=st.sampled_from([1, 500, 1000, 5000, 10_000, 20_000]))
    def wait(self, ms):
        self.h.advance(ms)

    @invariant()
    def consistent(self):
        g = self.h.c.groups.get("g")
        if g is None:
            return
        assert g.generation >= self.last_generation
        self.last_generation = g.generation
        assert g.leader_id is None or g.leader_id in g.members or not g.members
        if g.members:
            assert g.leader_id in g.members
        assert set(g.static_members.values()) <= set(g.members)
        assert not (set(g.pending_join) & set(g.members))
        if g.state is GroupState.EMPTY:
            assert not g.members
        if g.state in (GroupState.STABLE, GroupState.COMPLETING_REBALANCE):
            assert g.protocol_name is not None
            assert all(not m.awaiting_join for m in g.members.values())
        if g.state is GroupState.STABLE:
            assert all(not m.awaiting_sync for m in g.members.values())
        assert g.supported_protocols.total() == sum(len(m.protocols) for m in g.members.values())

    def teardown(self):
        # Long enough silence answers every parked request and empties the group.
        for _ in range(10):
            self.h.advance(60_000)
        unanswered = [t for t in self.tokens if t not in self.h.answers]
        assert unanswered == []
        g = self.h.c.groups.get("g")
        assert g is None or g.state is GroupState.EMPTY


TestGroupMachine = GroupMachine.TestCase
TestGroupMachine.settings = settings(
    max_examples=150, stateful_step_count=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
