"""Stateful property test of the share-group coordinator.

Random joins, heartbeats with the right, previous and wrong epochs, leaves,
time passing, topic changes and group deletions, checked against a small model
of what KIP-932 (as Kafka 4.4 ships it) says must happen, and against
invariants:

* a heartbeat computes a new target only when the group epoch is ahead of it
  and the assignment interval (KIP-1263) has passed since the last one, or the
  group had none; then the target is current;
* a current target assigns every subscribed partition, and only those; with
  identical subscriptions, member loads differ by at most one;
* a member holds part of its target and reconciles to the target's epoch;
* member epochs never go backwards;
* replaying the persisted records rebuilds exactly the same groups.
"""

from __future__ import annotations

import uuid

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from broker.group.share.core import ShareGroups, TopicTable
from broker.protocol.errors import ErrorCode

GROUPS = ["g1", "g2"]
MEMBERS = ["m1", "m2", "m3", "m4", "m5"]
TOPICS = ["t1", "t2", "t3"]
MAX_SIZE = 4
SESSION_MS = 10_000
INTERVAL_MS = 1_000
ASSIGNMENT_INTERVAL_MS = 1_000

topic_sets = st.frozensets(st.sampled_from(TOPICS), min_size=1)


class ShareGroupMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.topics = TopicTable({"t1": (uuid.UUID(int=1), 2), "t2": (uuid.UUID(int=2), 1)})
        self.next_topic_id = 100
        self.coord = ShareGroups(self.topics)
        self.shadow = ShareGroups(self.topics)  # fed only the persisted records
        self.persisted: list[tuple[bytes, bytes | None]] = []
        self.now = 1_000_000  # 0 would read as "no target computed yet"
        self.last_heard: dict[tuple[str, str], int] = {}
        self.highest_epoch: dict[tuple[str, str], int] = {}

    # -- helpers ---------------------------------------------------------------------

    def persist(self, records) -> None:
        for key, value in records:
            self.persisted.append((key, value))
            self.shadow.replay(key, value)

    def group(self, group_id):
        return self.coord.snapshot().get(group_id)

    def member(self, group_id, member_id):
        group = self.group(group_id)
        return group["members"].get(member_id) if group else None

    def heartbeat(self, group_id, member_id, epoch, topics=None, rack=None):
        before = self.group(group_id)
        result = self.coord.heartbeat(
            group_id,
            member_id,
            epoch,
            rack,
            None if topics is None else sorted(topics),
            self.now,
            max_size=MAX_SIZE,
            session_timeout_ms=SESSION_MS,
            heartbeat_interval_ms=INTERVAL_MS,
            assignment_interval_ms=ASSIGNMENT_INTERVAL_MS,
        )
        self.persist(result.records_to_persist)
        after = self.group(group_id)
        if result.error_code == 0 and epoch != -1:
            last = before["assignment_timestamp_ms"] if before else 0
            due = last <= 0 or self.now >= last + ASSIGNMENT_INTERVAL_MS
            event(f"target due: {due}")
            if due:
                assert after["assignment_epoch"] == after["group_epoch"]
            else:
                assert after["assignment_epoch"] == before["assignment_epoch"]
                assert after["assignment_timestamp_ms"] == last
        kind = {0: "join", -1: "leave"}.get(epoch, "heartbeat")
        event(f"{kind}: {ErrorCode(result.error_code).name}")
        if result.error_code:
            assert result.records_to_persist == []
            assert result.assignment is None
        return result

    def accepted(self, group_id, member_id, result):
        assert result.error_code == 0, (result.error_code, result.error_message)
        key = (group_id, member_id)
        self.last_heard[key] = self.now
        assert result.member_epoch >= self.highest_epoch.get(key, 0), "member epoch went backwards"
        self.highest_epoch[key] = result.member_epoch
        member = self.member(group_id, member_id)
        group = self.group(group_id)
        # A member moves straight to its target: no revocation phase. Within the
        # assignment interval the target may be behind the group epoch.
        assert member["member_epoch"] == group["assignment_epoch"] <= group["group_epoch"]
        target = group["target"].get(member_id, [])
        if group["assignment_epoch"] == group["group_epoch"]:
            assert member["assigned"] == target
        else:
            held = {(t, p) for t, ps in target for p in ps}
            assert all((t, p) in held for t, ps in member["assigned"] for p in ps)
        if result.assignment is not None:
            assert result.assignment == member["assigned"]
        if group["assignment_epoch"] == group["group_epoch"]:
            self.check_subscribed(member["subscribed_topic_names"], member["assigned"])

    def check_subscribed(self, names, assignment):
        allowed = {self.topics.topic(n)[0]: self.topics.topic(n)[1] for n in names if self.topics.topic(n)}
        for topic_id, partitions in assignment:
            assert topic_id in allowed
            assert all(0 <= p < allowed[topic_id] for p in partitions)

    def forget(self, group_id, member_id):
        self.last_heard.pop((group_id, member_id), None)

    def full(self, group_id):
        group = self.group(group_id)
        return group is not None and len(group["members"]) >= MAX_SIZE

    # -- rules -------------------------------------------------------------------------

    @rule(group_id=st.sampled_from(GROUPS), member_id=st.sampled_from(MEMBERS), topics=topic_sets)
    def join(self, group_id, member_id, topics):
        member = self.member(group_id, member_id)
        full = self.full(group_id)
        result = self.heartbeat(group_id, member_id, 0, topics)
        if member is None and full:
            assert result.error_code == ErrorCode.GROUP_MAX_SIZE_REACHED
        elif member is not None and 0 not in (member["member_epoch"], member["previous_member_epoch"]):
            assert result.error_code == ErrorCode.FENCED_MEMBER_EPOCH
        else:
            self.accepted(group_id, member_id, result)
            assert result.assignment is not None

    @rule(
        group_id=st.sampled_from(GROUPS),
        member_id=st.sampled_from(MEMBERS),
        use_previous=st.booleans(),
        topics=st.none() | topic_sets,
        rack=st.none() | st.sampled_from(["r1", "r2"]),
    )
    def heartbeat_with_a_valid_epoch(self, group_id, member_id, use_previous, topics, rack):
        member = self.member(group_id, member_id)
        if member is None:
            return
        epoch = member["previous_member_epoch"] if use_previous else member["member_epoch"]
        if epoch == 0:
            topics = topics or frozenset(member["subscribed_topic_names"]) or frozenset(TOPICS)
        self.accepted(group_id, member_id, self.heartbeat(group_id, member_id, epoch, topics, rack))

    @rule(group_id=st.sampled_from(GROUPS), member_id=st.sampled_from(MEMBERS), epoch=st.integers(1, 40))
    def heartbeat_with_any_epoch(self, group_id, member_id, epoch):
        group = self.group(group_id)
        member = self.member(group_id, member_id)
        full = self.full(group_id)
        result = self.heartbeat(group_id, member_id, epoch)
        if group is None:
            assert result.error_code == ErrorCode.GROUP_ID_NOT_FOUND
        elif member is None:
            expected = ErrorCode.GROUP_MAX_SIZE_REACHED if full else ErrorCode.UNKNOWN_MEMBER_ID
            assert result.error_code == expected
        elif epoch in (member["member_epoch"], member["previous_member_epoch"]):
            self.accepted(group_id, member_id, result)
        else:
            assert result.error_code == ErrorCode.FENCED_MEMBER_EPOCH

    @rule(group_id=st.sampled_from(GROUPS), member_id=st.sampled_from(MEMBERS))
    def leave(self, group_id, member_id):
        group = self.group(group_id)
        member = self.member(group_id, member_id)
        result = self.heartbeat(group_id, member_id, -1)
        if group is None:
            assert result.error_code == ErrorCode.GROUP_ID_NOT_FOUND
        elif member is None:
            assert result.error_code == ErrorCode.UNKNOWN_MEMBER_ID
        else:
            assert (result.error_code, result.member_epoch) == (0, -1)
            assert self.group(group_id)["group_epoch"] == group["group_epoch"] + 1
            assert member_id not in self.group(group_id)["members"]
            self.forget(group_id, member_id)

    @rule(ms=st.integers(0, 2 * SESSION_MS))
    def time_passes(self, ms):
        self.now += ms
        due = {key for key, heard in self.last_heard.items() if heard + SESSION_MS <= self.now}
        expected_next = min((h + SESSION_MS for k, h in self.last_heard.items() if k not in due), default=None)
        result = self.coord.expire_members(self.now)
        self.persist(result.records_to_persist)
        event(f"expired {len(result.expired)}")
        assert set(result.expired) == due
        for key in due:
            self.forget(*key)
            assert self.member(*key) is None
        assert self.coord.next_deadline() == expected_next

    @rule(name=st.sampled_from(TOPICS), change=st.sampled_from(["create", "delete", "grow", "recreate"]))
    def topics_change(self, name, change):
        existing = self.topics.topic(name)
        if change == "delete":
            self.topics.remove(name)
        elif change == "grow" and existing:
            self.topics.set(name, existing[0], existing[1] + 1)
        elif change == "recreate" or (change == "create" and not existing):
            self.next_topic_id += 1
            self.topics.set(name, uuid.UUID(int=self.next_topic_id), 1 + self.next_topic_id % 3)
        self.persist(self.coord.on_topics_changed())

    @rule(group_id=st.sampled_from(GROUPS))
    def delete_group(self, group_id):
        group = self.group(group_id)
        result = self.coord.delete_group(group_id)
        self.persist(result.records_to_persist)
        if group is None:
            assert result.error_code == ErrorCode.GROUP_ID_NOT_FOUND
        elif group["members"]:
            assert result.error_code == ErrorCode.NON_EMPTY_GROUP
        else:
            assert result.error_code == 0
            assert self.group(group_id) is None
            for key in [k for k in self.highest_epoch if k[0] == group_id]:
                del self.highest_epoch[key]  # a new group with this id starts again

    @rule(group_id=st.sampled_from(GROUPS), data=st.data())
    def initialize_share_partitions(self, group_id, data):
        missing = self.coord.uninitialized_partitions(group_id)
        if missing:
            topic_id = data.draw(st.sampled_from(sorted(missing)))
            partitions = data.draw(st.sets(st.sampled_from(sorted(missing[topic_id])), min_size=1))
            self.persist(self.coord.mark_initialized(group_id, topic_id, partitions))
            assert partitions <= self.coord.initialized_partitions(group_id)[topic_id]

    # -- invariants ------------------------------------------------------------------------

    @invariant()
    def current_targets_cover_exactly_the_subscribed_partitions(self):
        for group in self.coord.snapshot().values():
            for member in group["members"].values():
                assert member["member_epoch"] <= group["assignment_epoch"] <= group["group_epoch"]
            if not group["members"]:
                assert group["assignment_timestamp_ms"] == 0 or group["assignment_epoch"] < group["group_epoch"]
                continue
            if group["assignment_epoch"] != group["group_epoch"]:
                continue  # batched: the next heartbeat after the interval computes it
            assigned = set()
            for member_id, member in group["members"].items():
                target = group["target"].get(member_id, [])
                self.check_subscribed(member["subscribed_topic_names"], target)
                assigned |= {(t, p) for t, ps in target for p in ps}
            subscribed = {n for m in group["members"].values() for n in m["subscribed_topic_names"]}
            expected = set()
            for name in subscribed:
                found = self.topics.topic(name)
                if found:
                    expected |= {(found[0], p) for p in range(found[1])}
            assert assigned == expected

    @invariant()
    def homogeneous_groups_are_balanced(self):
        for group in self.coord.snapshot().values():
            if group["assignment_epoch"] != group["group_epoch"]:
                continue
            subscriptions = {tuple(m["subscribed_topic_names"]) for m in group["members"].values()}
            if len(subscriptions) != 1:
                continue
            loads = [sum(len(ps) for _, ps in group["target"].get(m, [])) for m in group["members"]]
            assert max(loads) - min(loads) <= 1

    @invariant()
    def persisted_records_rebuild_the_same_groups(self):
        assert self.shadow.snapshot() == self.coord.snapshot()

    @invariant()
    def group_states_follow_membership(self):
        for described in self.coord.describe(self.coord.group_ids()):
            assert described.group_state == ("Stable" if described.members else "Empty")

    def teardown(self):
        fresh = ShareGroups(self.topics)
        for key, value in self.persisted:
            fresh.replay(key, value)
        assert fresh.snapshot() == self.coord.snapshot()


ShareGroupMachine.TestCase.settings = settings(
    max_examples=300,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestShareGroupMachine = ShareGroupMachine.TestCase
