"""Share-group coordinator rules (KIP-932 membership as Kafka 4.2 ships it)."""

from __future__ import annotations

import struct
import uuid

import pytest

from broker.group.shard_api import BATCHED_HEARTBEAT_SLACK_MS, MIN_BATCHED_HEARTBEAT_INTERVAL_MS
from broker.group.share import records as rec
from broker.group.share.core import GroupState, ShareGroups, TopicTable
from broker.protocol.errors import ErrorCode, KafkaError, ProtocolError

FOO, BAR, BAZ = uuid.UUID(int=0xF00), uuid.UUID(int=0xBA4), uuid.UUID(int=0xBA2)
SESSION_MS = 45_000
INTERVAL_MS = 5_000


@pytest.fixture
def topics():
    return TopicTable({"foo": (FOO, 3), "bar": (BAR, 1)})


@pytest.fixture
def coord(topics):
    return ShareGroups(topics)


def beat(coord, member_id, epoch, topics=None, now=0, *, group="g", rack=None, max_size=200, **kw):
    return coord.heartbeat(
        group,
        member_id,
        epoch,
        rack,
        topics,
        now,
        max_size=max_size,
        session_timeout_ms=SESSION_MS,
        heartbeat_interval_ms=INTERVAL_MS,
        **kw,
    )


def ok(result):
    assert result.error_code == 0, (result.error_code, result.error_message)
    return result


def partitions(result):
    return {(t, p) for t, ps in result.assignment for p in ps}


def record_types(result):
    out = []
    for key, value in result.records_to_persist:
        (record_type,) = struct.unpack(">h", key[:2])
        out.append((record_type, value is None))
    return out


def replayed(coord, *results_or_records):
    fresh = ShareGroups(coord._topics)
    for item in results_or_records:
        for key, value in getattr(item, "records_to_persist", item):
            fresh.replay(key, value)
    return fresh


# -- request validation ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("member_id", "epoch", "topics", "rack", "group"),
    [
        ("", 0, ["foo"], None, "g"),  # the client generates the id: it must send one
        ("  ", 1, None, None, "g"),
        ("m", 0, ["foo"], None, ""),
        ("m", 0, ["foo"], "", "g"),  # RackId may be null but not empty
        ("m", 0, None, None, "g"),  # SubscribedTopicNames required on join
        ("m", 0, [], None, "g"),
        ("m", -2, None, None, "g"),
    ],
)
def test_invalid_requests(coord, member_id, epoch, topics, rack, group):
    result = beat(coord, member_id, epoch, topics, rack=rack, group=group)
    assert result.error_code == ErrorCode.INVALID_REQUEST
    assert result.error_message and result.records_to_persist == []
    assert coord.group_type(group or "g") is None


# -- joining ---------------------------------------------------------------------------------


def test_first_join_creates_the_group_and_assigns_everything(coord):
    result = ok(beat(coord, "m1", 0, ["foo", "bar"]))
    assert result.member_id == "m1" and result.member_epoch == 1
    assert result.heartbeat_interval_ms == INTERVAL_MS
    assert result.assignment == [(BAR, [0]), (FOO, [0, 1, 2])]  # topics sorted by id
    # Member metadata, group epoch, target member, target epoch, current assignment.
    assert record_types(result) == [(10, False), (11, False), (13, False), (12, False), (14, False)]
    assert coord.group_type("g") == "share"
    assert coord.group_state("g") is GroupState.STABLE


def test_assignment_is_sorted_by_topic_id_and_partition(coord):
    result = ok(beat(coord, "m1", 0, ["foo", "bar"]))
    assert result.assignment == sorted(result.assignment)
    assert all(ps == sorted(ps) for _, ps in result.assignment)


def test_second_member_bumps_the_epoch_and_splits_the_partitions(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    second = ok(beat(coord, "m2", 0, ["foo"]))
    assert second.member_epoch == 2
    first = ok(beat(coord, "m1", 1))
    assert first.member_epoch == 2
    assert first.assignment is not None  # it changed, so it is sent in full
    assert partitions(first) | partitions(second) == {(FOO, 0), (FOO, 1), (FOO, 2)}
    assert not partitions(first) & partitions(second)


def test_members_outnumbering_partitions_share_them(coord):
    results = [ok(beat(coord, f"m{i}", 0, ["bar"])) for i in range(3)]
    assert all(partitions(r) == {(BAR, 0)} for r in results)


def test_heartbeat_without_changes_sends_no_assignment_and_writes_nothing(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    result = ok(beat(coord, "m1", 1, now=1000))
    assert result.member_epoch == 1
    assert result.assignment is None
    assert result.records_to_persist == []


def test_full_request_gets_the_assignment_even_when_unchanged(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    result = ok(beat(coord, "m1", 1, ["foo"]))
    assert result.assignment == [(FOO, [0, 1, 2])]
    assert result.records_to_persist == []


def test_null_topics_mean_unchanged_and_new_topics_resubscribe(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    ok(beat(coord, "m1", 1, None))
    assert coord.snapshot()["g"]["members"]["m1"]["subscribed_topic_names"] == ["foo"]
    result = ok(beat(coord, "m1", 1, ["bar"]))
    assert result.member_epoch == 2
    assert result.assignment == [(BAR, [0])]


def test_empty_topic_list_after_joining_unsubscribes(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    result = ok(beat(coord, "m1", 1, []))
    assert result.member_epoch == 2 and result.assignment == []


def test_rack_and_client_details_are_kept(coord):
    ok(beat(coord, "m1", 0, ["foo"], rack="r1", client_id="cid", client_host="/10.0.0.1"))
    ok(beat(coord, "m1", 1, rack=None, client_id="cid", client_host="/10.0.0.1"))
    member = coord.describe(["g"])[0].members[0]
    assert (member.rack_id, member.client_id, member.client_host) == ("r1", "cid", "/10.0.0.1")


def test_changing_client_details_persists_without_an_epoch_bump(coord):
    ok(beat(coord, "m1", 0, ["foo"], client_id="a"))
    result = ok(beat(coord, "m1", 1, client_id="b"))
    assert result.member_epoch == 1
    assert record_types(result) == [(10, False)]


def test_subscribing_to_a_missing_topic_assigns_it_once_it_exists(coord, topics):
    result = ok(beat(coord, "m1", 0, ["later"]))
    assert result.assignment == []
    topics.set("later", BAZ, 2)
    persisted = coord.on_topics_changed()
    assert persisted
    result = ok(beat(coord, "m1", 1))
    assert result.member_epoch == 2
    assert result.assignment == [(BAZ, [0, 1])]


# -- epochs ------------------------------------------------------------------------------------


def test_previous_epoch_is_tolerated(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    ok(beat(coord, "m2", 0, ["foo"]))
    assert ok(beat(coord, "m1", 1)).member_epoch == 2
    # The response with epoch 2 was lost: epoch 1 is still accepted.
    result = ok(beat(coord, "m1", 1))
    assert result.member_epoch == 2


@pytest.mark.parametrize("epoch", [3, 7])
def test_greater_epoch_is_fenced(coord, epoch):
    ok(beat(coord, "m1", 0, ["foo"]))
    result = beat(coord, "m1", epoch)
    assert result.error_code == ErrorCode.FENCED_MEMBER_EPOCH
    assert result.member_id is None and result.assignment is None


def test_smaller_epoch_that_is_not_the_previous_one_is_fenced(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    for i in range(2, 5):
        ok(beat(coord, f"m{i}", 0, ["foo"]))
        ok(beat(coord, "m1", i - 1))
    assert coord.snapshot()["g"]["members"]["m1"]["member_epoch"] == 4
    assert beat(coord, "m1", 2).error_code == ErrorCode.FENCED_MEMBER_EPOCH
    assert ok(beat(coord, "m1", 3)).member_epoch == 4


def test_rejoin_with_same_id_right_after_joining_is_accepted(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    # Epoch 1 with previous epoch 0: a retried join is the previous epoch.
    result = ok(beat(coord, "m1", 0, ["foo"]))
    assert result.member_epoch == 1
    assert result.assignment == [(FOO, [0, 1, 2])]
    assert result.records_to_persist == []


def test_rejoin_of_a_member_that_moved_on_is_fenced_until_its_session_expires(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    ok(beat(coord, "m2", 0, ["foo"]))
    ok(beat(coord, "m1", 1))
    ok(beat(coord, "m3", 0, ["foo"]))
    assert ok(beat(coord, "m1", 2)).member_epoch == 3  # previous epoch now 2
    assert beat(coord, "m1", 0, ["foo"]).error_code == ErrorCode.FENCED_MEMBER_EPOCH
    ok(beat(coord, "m2", 2, now=SESSION_MS))
    ok(beat(coord, "m3", 3, now=SESSION_MS))
    assert coord.expire_members(SESSION_MS).expired == [("g", "m1")]
    result = ok(beat(coord, "m1", 0, ["foo"], now=SESSION_MS))
    assert result.member_epoch == coord.snapshot()["g"]["group_epoch"]


def test_unknown_member_with_nonzero_epoch(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    result = beat(coord, "stranger", 1)
    assert result.error_code == ErrorCode.UNKNOWN_MEMBER_ID


def test_heartbeat_for_a_group_that_does_not_exist(coord):
    assert beat(coord, "m1", 5).error_code == ErrorCode.GROUP_ID_NOT_FOUND


# -- leaving, sessions --------------------------------------------------------------------------


def test_leave_reassigns_to_the_remaining_members(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    ok(beat(coord, "m2", 0, ["foo"]))
    assert len(partitions(ok(beat(coord, "m1", 1)))) < 3
    left = ok(beat(coord, "m2", -1))
    assert (left.member_id, left.member_epoch, left.assignment) == ("m2", -1, None)
    assert record_types(left) == [(14, True), (13, True), (10, True), (11, False)]
    # The leave only bumps the epoch; the next heartbeat computes the target (as Kafka).
    state = coord.snapshot()["g"]
    assert state["group_epoch"] == 3 and state["assignment_epoch"] == 2
    result = ok(beat(coord, "m1", 2))
    assert result.member_epoch == 3 and result.assignment == [(FOO, [0, 1, 2])]
    assert coord.snapshot()["g"]["target"] == {"m1": [(FOO, [0, 1, 2])]}


def test_last_member_leaving_leaves_an_empty_group(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    left = ok(beat(coord, "m1", -1))
    # The empty target is current at once, its time cleared: the next join is not delayed.
    assert record_types(left)[-1] == (12, False)
    state = coord.snapshot()["g"]
    assert (state["group_epoch"], state["assignment_epoch"], state["assignment_timestamp_ms"]) == (2, 2, 0)
    assert coord.group_state("g") is GroupState.EMPTY
    assert coord.describe(["g"])[0].group_state == "Empty"
    assert coord.next_deadline() is None
    # Rejoining later starts from the current group epoch.
    assert ok(beat(coord, "m1", 0, ["foo"])).member_epoch == 3


def test_leave_with_unknown_member_or_group(coord):
    assert beat(coord, "m1", -1).error_code == ErrorCode.GROUP_ID_NOT_FOUND
    ok(beat(coord, "m1", 0, ["foo"]))
    assert beat(coord, "m2", -1).error_code == ErrorCode.UNKNOWN_MEMBER_ID


def test_session_timeout_removes_silent_members(coord):
    ok(beat(coord, "m1", 0, ["foo"], now=0))
    ok(beat(coord, "m2", 0, ["foo"], now=1_000))
    assert coord.next_deadline() == SESSION_MS
    ok(beat(coord, "m1", 1, now=10_000))
    assert coord.next_deadline() == 1_000 + SESSION_MS
    assert coord.expire_members(1_000 + SESSION_MS - 1).expired == []
    result = coord.expire_members(1_000 + SESSION_MS)
    assert result.expired == [("g", "m2")]
    assert (14, True) in record_types(result)
    assert "m2" not in coord.snapshot()["g"]["target"]
    assert coord.next_deadline() == 10_000 + SESSION_MS
    assert beat(coord, "m2", 2).error_code == ErrorCode.UNKNOWN_MEMBER_ID


def test_failed_heartbeats_do_not_extend_the_session(coord):
    ok(beat(coord, "m1", 0, ["foo"], now=0))
    assert beat(coord, "m1", 9, now=40_000).error_code == ErrorCode.FENCED_MEMBER_EPOCH
    assert coord.next_deadline() == SESSION_MS


# -- group size --------------------------------------------------------------------------------


def test_group_max_size(coord):
    ok(beat(coord, "m1", 0, ["foo"], max_size=2))
    ok(beat(coord, "m2", 0, ["foo"], max_size=2))
    assert beat(coord, "m3", 0, ["foo"], max_size=2).error_code == ErrorCode.GROUP_MAX_SIZE_REACHED
    # Members already in the group carry on, even at epoch 0.
    ok(beat(coord, "m1", 1, max_size=2))
    ok(beat(coord, "m2", 2, ["foo"], max_size=2))
    # Kafka checks the size before the member: a stranger hears "full".
    assert beat(coord, "m3", 4, max_size=2).error_code == ErrorCode.GROUP_MAX_SIZE_REACHED
    ok(beat(coord, "m2", -1, max_size=2))
    ok(beat(coord, "m3", 0, ["foo"], max_size=2))


# -- assignment batching (KIP-1263) ---------------------------------------------------------------

T0 = 1_000_000  # any time but 0, which a target's timestamp reads as "never computed"
BATCH_MS = 1_000


def batched(coord, member_id, epoch, topics=None, now=T0, **kw):
    return ok(beat(coord, member_id, epoch, topics, now, assignment_interval_ms=BATCH_MS, **kw))


def target_records(result):
    return [t for t in record_types(result) if t == (12, False)]


def test_a_join_within_the_interval_keeps_the_current_target(coord):
    first = batched(coord, "m1", 0, ["foo"], now=T0)
    assert (first.member_epoch, partitions(first)) == (1, {(FOO, 0), (FOO, 1), (FOO, 2)})
    # A new group's first target is never delayed; it records when it was computed.
    assert coord.snapshot()["g"]["assignment_timestamp_ms"] == T0
    second = batched(coord, "m2", 0, ["foo"], now=T0 + 200)
    # The group epoch moves on, the target does not: the joiner gets the current
    # assignment epoch and nothing to consume yet.
    assert (second.member_epoch, second.assignment) == (1, [])
    assert target_records(second) == []
    state = coord.snapshot()["g"]
    assert (state["group_epoch"], state["assignment_epoch"]) == (2, 1)
    assert state["target"] == {"m1": [(FOO, [0, 1, 2])]}
    unchanged = batched(coord, "m1", 1, now=T0 + 999)
    assert (unchanged.member_epoch, unchanged.assignment, unchanged.records_to_persist) == (1, None, [])


def test_the_next_target_comes_after_the_interval_with_every_change_batched(coord):
    batched(coord, "m1", 0, ["foo"], now=T0)
    batched(coord, "m2", 0, ["foo"], now=T0 + 100)
    batched(coord, "m3", 0, ["foo", "bar"], now=T0 + 300)
    batched(coord, "m2", 1, ["bar"], now=T0 + 600)  # a subscription change, also batched
    assert coord.snapshot()["g"]["assignment_epoch"] == 1
    # The first heartbeat once the interval is over computes one target for epoch 4,
    # with the three changes in it.
    due = batched(coord, "m1", 1, now=T0 + BATCH_MS)
    assert len(target_records(due)) == 1 and due.member_epoch == 4
    state = coord.snapshot()["g"]
    assert (state["group_epoch"], state["assignment_epoch"], state["assignment_timestamp_ms"]) == (
        4,
        4,
        T0 + BATCH_MS,
    )
    target = {m: {(t, p) for t, ps in a for p in ps} for m, a in state["target"].items()}
    assert set(target) == {"m1", "m2", "m3"}
    assert target["m2"] <= {(BAR, 0)} and target["m1"] | target["m3"] >= {(FOO, 0), (FOO, 1), (FOO, 2)}
    assert partitions(due) == target["m1"]
    # The others receive theirs on their next heartbeat; no further target is computed.
    for member_id in ("m2", "m3"):
        result = batched(coord, member_id, 1, now=T0 + BATCH_MS + 50)
        assert result.member_epoch == 4 and partitions(result) == target[member_id]
        assert target_records(result) == []


def test_members_waiting_for_a_batched_target_heartbeat_when_it_is_due(coord):
    first = batched(coord, "m1", 0, ["foo"], now=T0)
    # Its heartbeat computed a target: back after one interval, to give up what joiners get.
    assert first.heartbeat_interval_ms == BATCH_MS + BATCHED_HEARTBEAT_SLACK_MS < INTERVAL_MS
    joiner = batched(coord, "m2", 0, ["foo"], now=T0 + 300)
    assert joiner.assignment == [] and joiner.heartbeat_interval_ms == 700 + BATCHED_HEARTBEAT_SLACK_MS
    late = batched(coord, "m2", 1, now=T0 + 999)
    assert late.heartbeat_interval_ms == MIN_BATCHED_HEARTBEAT_INTERVAL_MS
    due = batched(coord, "m2", 1, now=T0 + BATCH_MS + BATCHED_HEARTBEAT_SLACK_MS)
    assert partitions(due) and due.heartbeat_interval_ms == BATCH_MS + BATCHED_HEARTBEAT_SLACK_MS
    # m1, back at the interval's end, gives up what m2 now holds; it is inside the interval
    # of the target m2's heartbeat computed, so it comes back at its end too.
    back = batched(coord, "m1", 1, now=T0 + BATCH_MS + 10)
    assert not partitions(back) & partitions(due) and back.heartbeat_interval_ms == BATCH_MS
    # Once that interval is over, nothing is held back: the configured interval.
    assert batched(coord, "m2", due.member_epoch, now=T0 + 2 * BATCH_MS + 50).heartbeat_interval_ms == INTERVAL_MS
    # Without batching, every answer carries the configured interval.
    assert ok(beat(coord, "m3", 0, ["foo"], T0 + 2000, assignment_interval_ms=0)).heartbeat_interval_ms == INTERVAL_MS


def test_interval_zero_assigns_every_change_at_once(coord):
    batched(coord, "m1", 0, ["foo"], now=T0)
    second = ok(beat(coord, "m2", 0, ["foo"], T0 + 1, assignment_interval_ms=0))
    assert second.member_epoch == 2 and partitions(second)
    assert coord.snapshot()["g"]["assignment_epoch"] == 2


def test_a_group_emptied_within_the_interval_assigns_its_next_member_at_once(coord):
    batched(coord, "m1", 0, ["foo"], now=T0)
    batched(coord, "m1", -1, now=T0 + 10)
    rejoined = batched(coord, "m2", 0, ["foo"], now=T0 + 20)
    assert rejoined.member_epoch == 3 and len(partitions(rejoined)) == 3


DELAY_MS = 500


def settling(coord, member_id, epoch, topics=None, now=T0):
    return batched(coord, member_id, epoch, topics, now, initial_delay_ms=DELAY_MS)


def test_members_starting_together_split_the_partitions_after_the_initial_delay(coord):
    first = settling(coord, "m1", 0, ["foo"], now=T0)
    # Nothing yet: an empty target (epoch 1) and the group one epoch ahead of it;
    # the member comes back when the delay is over.
    assert (first.member_epoch, first.assignment) == (1, [])
    assert first.heartbeat_interval_ms == DELAY_MS + BATCHED_HEARTBEAT_SLACK_MS
    state = coord.snapshot()["g"]
    assert (state["group_epoch"], state["assignment_epoch"], state["assignment_timestamp_ms"]) == (2, 1, T0)
    second = settling(coord, "m2", 0, ["foo"], now=T0 + 100)
    assert (second.member_epoch, second.assignment) == (1, [])
    assert second.heartbeat_interval_ms == DELAY_MS - 100 + BATCHED_HEARTBEAT_SLACK_MS
    assert settling(coord, "m1", 1, now=T0 + DELAY_MS - 1).assignment is None
    # The first heartbeat once the delay is over assigns both members at once.
    due = settling(coord, "m1", 1, now=T0 + DELAY_MS)
    other = settling(coord, "m2", 1, now=T0 + DELAY_MS + 10)
    assert due.member_epoch == other.member_epoch == 3
    assert len(partitions(due)) + len(partitions(other)) == 3 and partitions(due) and partitions(other)
    assert not partitions(due) & partitions(other)
    # From then on the assignment interval holds the next target back, not the delay.
    assert due.heartbeat_interval_ms == BATCH_MS + BATCHED_HEARTBEAT_SLACK_MS
    late = settling(coord, "m3", 0, ["foo"], now=T0 + DELAY_MS + 600)
    assert (late.member_epoch, late.assignment) == (3, [])


def test_the_initial_delay_survives_a_coordinator_failover(coord):
    first = settling(coord, "m1", 0, ["foo"], now=T0)
    second = settling(coord, "m2", 0, ["foo"], now=T0 + 100)
    fresh = replayed(coord, first, second)
    assert fresh.snapshot() == coord.snapshot()
    assert settling(fresh, "m1", 1, now=T0 + 200).assignment is None
    due = settling(fresh, "m1", 1, now=T0 + DELAY_MS)
    assert due.member_epoch == 3 and 0 < len(partitions(due)) < 3


def test_an_emptied_group_waits_the_initial_delay_again(coord):
    settling(coord, "m1", 0, ["foo"], now=T0)
    assert len(partitions(settling(coord, "m1", 1, now=T0 + DELAY_MS))) == 3
    settling(coord, "m1", -1, now=T0 + DELAY_MS + 10)
    back = settling(coord, "m2", 0, ["foo"], now=T0 + DELAY_MS + 20)
    assert back.assignment == [] and back.heartbeat_interval_ms == DELAY_MS + BATCHED_HEARTBEAT_SLACK_MS
    assert len(partitions(settling(coord, "m2", back.member_epoch, now=T0 + 2 * DELAY_MS + 20))) == 3


def test_a_group_with_partitions_is_never_emptied_by_the_initial_delay(coord):
    # A target written without a time (0) while members hold partitions: the delay does
    # not apply, the next target is computed as without it.
    batched(coord, "m1", 0, ["foo"], now=0)
    assert coord.snapshot()["g"]["assignment_timestamp_ms"] == 0
    joiner = settling(coord, "m2", 0, ["foo"], now=T0)
    assert joiner.member_epoch == 2 and partitions(joiner)


def test_leaves_and_expiries_wait_for_the_interval_too(coord):
    batched(coord, "m1", 0, ["foo"], now=T0)
    batched(coord, "m2", 0, ["foo"], now=T0 + BATCH_MS)  # due: epoch 2 splits the partitions
    mine = partitions(batched(coord, "m1", 1, now=T0 + BATCH_MS + 1))
    assert 0 < len(mine) < 3
    batched(coord, "m2", -1, now=T0 + BATCH_MS + 100)
    assert partitions(batched(coord, "m1", 2, ["foo"], now=T0 + BATCH_MS + 200)) == mine
    back = batched(coord, "m1", 2, now=T0 + 2 * BATCH_MS)
    assert back.member_epoch == 3 and len(partitions(back)) == 3


def test_the_assignment_time_survives_a_replay(coord):
    first = batched(coord, "m1", 0, ["foo"], now=T0)
    fresh = replayed(coord, first)
    assert fresh.snapshot()["g"]["assignment_timestamp_ms"] == T0
    # The coordinator that takes over keeps batching from where this one was.
    joined = ok(beat(fresh, "m2", 0, ["foo"], T0 + 500, assignment_interval_ms=BATCH_MS))
    assert joined.member_epoch == 1 and joined.assignment == []


# -- topic metadata changes ------------------------------------------------------------------------


def test_partitions_added(coord, topics):
    ok(beat(coord, "m1", 0, ["foo"]))
    assert coord.on_topics_changed() == []
    topics.set("foo", FOO, 5)
    persisted = coord.on_topics_changed()
    assert persisted
    state = coord.snapshot()["g"]
    assert state["group_epoch"] == 2 and state["assignment_epoch"] == 1
    result = ok(beat(coord, "m1", 1))
    assert coord.snapshot()["g"]["target"]["m1"] == [(FOO, [0, 1, 2, 3, 4])]
    assert (result.member_epoch, result.assignment) == (2, [(FOO, [0, 1, 2, 3, 4])])


def test_topic_deleted(coord, topics):
    ok(beat(coord, "m1", 0, ["foo", "bar"]))
    topics.remove("bar")
    coord.on_topics_changed()
    result = ok(beat(coord, "m1", 1))
    assert result.assignment == [(FOO, [0, 1, 2])]


def test_topic_recreated_with_a_new_id(coord, topics):
    ok(beat(coord, "m1", 0, ["bar"]))
    topics.set("bar", BAZ, 1)
    coord.on_topics_changed()
    assert ok(beat(coord, "m1", 1)).assignment == [(BAZ, [0])]


def test_metadata_change_is_noticed_on_heartbeat_too(coord, topics):
    ok(beat(coord, "m1", 0, ["foo"]))
    topics.set("foo", FOO, 4)
    result = ok(beat(coord, "m1", 1))
    assert (result.member_epoch, result.assignment) == (2, [(FOO, [0, 1, 2, 3])])


def test_empty_groups_are_untouched_by_topic_changes(coord, topics):
    ok(beat(coord, "m1", 0, ["foo"]))
    ok(beat(coord, "m1", -1))
    topics.set("foo", FOO, 9)
    assert coord.on_topics_changed() == []


# -- group types ---------------------------------------------------------------------------------


def test_existing_consumer_group_is_not_a_share_group(coord):
    coord.register_group("cg", "consumer")
    assert coord.group_type("cg") == "consumer"
    result = beat(coord, "m1", 0, ["foo"], group="cg")
    assert result.error_code == ErrorCode.GROUP_ID_NOT_FOUND
    assert coord.describe(["cg"])[0].error_code == ErrorCode.GROUP_ID_NOT_FOUND
    assert coord.delete_group("cg").error_code == ErrorCode.GROUP_ID_NOT_FOUND
    coord.unregister_group("cg")
    ok(beat(coord, "m1", 0, ["foo"], group="cg"))


def test_share_group_refuses_consumer_use(coord):
    ok(beat(coord, "m1", 0, ["foo"]))
    assert coord.check_group_type("g", "consumer") == ErrorCode.GROUP_ID_NOT_FOUND
    assert coord.check_group_type("g", "classic") == ErrorCode.GROUP_ID_NOT_FOUND
    assert coord.check_group_type("g", "share") == ErrorCode.NONE
    with pytest.raises(ValueError):
        coord.register_group("g", "consumer")


def test_classic_and_consumer_are_one_family(coord):
    coord.register_group("cg", "classic")
    assert coord.check_group_type("cg", "consumer") == ErrorCode.NONE


def test_group_type_pin(coord):
    coord.pin_group_type("pinned", "consumer")
    result = beat(coord, "m1", 0, ["foo"], group="pinned")
    assert result.error_code == ErrorCode.INCONSISTENT_GROUP_PROTOCOL
    assert coord.group_type("pinned") is None
    coord.pin_group_type("reserved", "share")
    assert coord.check_group_type("reserved", "classic") == ErrorCode.INCONSISTENT_GROUP_PROTOCOL
    ok(beat(coord, "m1", 0, ["foo"], group="reserved"))
    coord.pin_group_type("pinned", None)
    ok(beat(coord, "m1", 0, ["foo"], group="pinned"))
    with pytest.raises(ValueError):
        coord.pin_group_type("x", "classic")


# -- describe / list / delete --------------------------------------------------------------------------


def test_describe(coord):
    ok(beat(coord, "m1", 0, ["foo", "bar"], rack="rack-a", client_id="c1", client_host="/127.0.0.1"))
    ok(beat(coord, "m2", 0, ["bar"]))
    described, missing = coord.describe(["g", "nope"])
    assert (described.error_code, described.group_state, described.assignor_name) == (0, "Stable", "simple")
    assert (described.group_epoch, described.assignment_epoch) == (2, 2)
    m1, m2 = described.members
    assert (m1.member_id, m1.rack_id, m1.client_id, m1.client_host) == ("m1", "rack-a", "c1", "/127.0.0.1")
    assert m1.subscribed_topic_names == ["bar", "foo"] and m1.member_epoch == 1
    # bar has 2 subscribers and 1 partition, so both members share it.
    assert [(tp.topic_id, tp.topic_name, tp.partitions) for tp in m1.assignment.topic_partitions] == [
        (BAR, "bar", [0]),
        (FOO, "foo", [0, 1, 2]),
    ]
    assert m2.member_epoch == 2 and [tp.topic_name for tp in m2.assignment.topic_partitions] == ["bar"]
    assert missing.error_code == ErrorCode.GROUP_ID_NOT_FOUND and missing.group_id == "nope"


def test_list_groups(coord):
    ok(beat(coord, "m1", 0, ["foo"], group="busy"))
    ok(beat(coord, "m1", 0, ["foo"], group="idle"))
    ok(beat(coord, "m1", -1, group="idle"))

    def listed(**kw):
        return sorted((g.group_id, g.group_state, g.group_type, g.protocol_type) for g in coord.list_groups(**kw))

    assert listed() == [("busy", "Stable", "share", "share"), ("idle", "Empty", "share", "share")]
    assert listed(states_filter=["EMPTY"]) == [("idle", "Empty", "share", "share")]
    assert listed(states_filter=["stable"], types_filter=["Share"]) == [("busy", "Stable", "share", "share")]
    assert listed(types_filter=["consumer"]) == []
    assert listed(states_filter=["dead"]) == []


def test_delete_group(coord):
    assert coord.delete_group("g").error_code == ErrorCode.GROUP_ID_NOT_FOUND
    ok(beat(coord, "m1", 0, ["foo"]))
    assert coord.delete_group("g").error_code == ErrorCode.NON_EMPTY_GROUP
    coord.mark_initialized("g", FOO, [0, 1, 2])
    ok(beat(coord, "m1", -1))
    result = coord.delete_group("g")
    assert result.error_code == 0
    assert result.initialized == {FOO: frozenset({0, 1, 2})}
    assert [v is None for _, v in result.records_to_persist] == [True] * len(result.records_to_persist)
    assert record_types(result)[-1] == (11, True)
    assert coord.group_type("g") is None and coord.group_state("g") is GroupState.DEAD
    assert coord.describe(["g"])[0].error_code == ErrorCode.GROUP_ID_NOT_FOUND
    # The id is free again, and the new group starts from scratch.
    assert ok(beat(coord, "m1", 0, ["foo"])).member_epoch == 1


# -- initialised share-partitions ----------------------------------------------------------------------


def test_initialized_partitions(coord, topics):
    ok(beat(coord, "m1", 0, ["foo", "bar"]))
    assert coord.initialized_partitions("g") == {}
    assert coord.uninitialized_partitions("g") == {FOO: frozenset({0, 1, 2}), BAR: frozenset({0})}
    first = coord.mark_initialized("g", FOO, [0, 1])
    assert len(first) == 1
    assert coord.mark_initialized("g", FOO, [1]) == []
    second = coord.mark_initialized("g", BAR, [0])
    assert coord.initialized_partitions("g") == {FOO: frozenset({0, 1}), BAR: frozenset({0})}
    assert coord.uninitialized_partitions("g") == {FOO: frozenset({2})}
    third = coord.forget_initialized("g", [BAR])
    assert coord.initialized_partitions("g") == {FOO: frozenset({0, 1})}
    # Deleting a topic forgets its share-partitions.
    coord.mark_initialized("g", BAR, [0])
    topics.remove("bar")
    dropped = coord.on_topics_changed()
    assert coord.initialized_partitions("g") == {FOO: frozenset({0, 1})}
    assert first and second and third and dropped
    assert coord.initialized_partitions("unknown") == {}
    with pytest.raises(KafkaError) as info:
        coord.mark_initialized("unknown", FOO, [0])
    assert info.value.code == ErrorCode.GROUP_ID_NOT_FOUND
    with pytest.raises(KafkaError) as info:
        coord.mark_initialized("g", uuid.uuid4(), [0])
    assert info.value.code == ErrorCode.UNKNOWN_TOPIC_ID


# -- persistence ---------------------------------------------------------------------------------------


def test_record_framing_matches_kafka():
    key, value = rec.encode(rec.group_metadata("g", 7, -5))
    assert key == b"\x00\x0b" + b"\x00\x01g"  # type 11, then the v0 key struct
    assert value[:2] == b"\x00\x00"  # value version 0
    decoded = rec.decode(key, value)
    assert (decoded.key.group_id, decoded.value.epoch, decoded.value.metadata_hash) == ("g", 7, -5)
    assert rec.encode(rec.group_tombstone("g")) == (key, None)
    assert rec.decode(key, None).value is None


def test_decode_ignores_other_record_types_and_rejects_garbage():
    assert rec.decode(b"\x00\x01" + b"\x00\x01g", b"\x00\x03whatever") is None  # an offset commit
    with pytest.raises(ProtocolError):
        rec.decode(b"\x00", None)
    with pytest.raises(ProtocolError):
        rec.decode(b"\x00\x0b\x00\x01g", b"\x00\x09" + b"\x00" * 13)  # unknown value version
    with pytest.raises(ProtocolError):
        rec.decode(b"\x00\x0b\x00\x05g", None)  # truncated key


def test_replay_rebuilds_groups_and_restarts_sessions(coord):
    history = [
        ok(beat(coord, "m1", 0, ["foo", "bar"], rack="r", client_id="c", client_host="h")),
        ok(beat(coord, "m2", 0, ["foo"])),
        ok(beat(coord, "m1", 1)),
        ok(beat(coord, "m3", 0, ["bar"], group="other")),
        coord.mark_initialized("g", FOO, [0, 1, 2]),
        ok(beat(coord, "m3", -1, group="other")),
    ]
    fresh = replayed(coord, *history)
    assert fresh.snapshot() == coord.snapshot()
    assert fresh.next_deadline() is None
    fresh.on_loaded(100_000, SESSION_MS)
    assert fresh.next_deadline() == 100_000 + SESSION_MS
    # The rebuilt members carry on with their epochs.
    assert ok(beat(fresh, "m1", 2, now=100_001)).member_epoch == 2
    assert fresh.expire_members(100_000 + SESSION_MS).expired == [("g", "m2")]


def test_replay_of_a_deleted_group_leaves_nothing(coord):
    history = [ok(beat(coord, "m1", 0, ["foo"])), ok(beat(coord, "m1", -1)), coord.delete_group("g")]
    assert replayed(coord, *history).snapshot() == {} == coord.snapshot()


def test_replay_skips_records_of_other_group_types(coord):
    coord.replay(b"\x00\x03\x00\x01g", b"\x00\x00")  # a consumer-group record type
    assert coord.snapshot() == {}
