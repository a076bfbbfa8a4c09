"""Consumer-group records in Kafka's format, and online migration between classic and
consumer groups, through the real classic and consumer cores of one shard."""

from __future__ import annotations

import itertools
import uuid

from broker.group.classic.model import CoordinatorConfig, GroupState
from broker.group.consumer import codec
from broker.group.consumer import records as rec
from broker.group.consumer.classic_protocol import decode_assignment, encode_assignment
from broker.group.consumer.reconcile import MemberAssignment, MemberState
from broker.group.coordinator import GroupShard, ImageTopics
from broker.group.shard_api import TopicTable
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest as Req
from broker.protocol.messages.consumer_protocol_subscription import ConsumerProtocolSubscription
from broker.protocol.messages.group_metadata_value import GroupMetadataValue, MemberMetadata

T = uuid.UUID(int=7)


def test_every_record_survives_its_kafka_encoding():
    t = uuid.uuid4()
    records = [
        rec.group_epoch("g", 3, -12345),
        rec.member(
            "g",
            "m",
            rec.MemberValue(
                "i",
                "r",
                "c",
                "/h",
                ("a", "b"),
                None,
                3000,
                "range",
                rec.ClassicMemberMetadata(10000, (("range", b"\x00\x01"),)),
            ),
        ),
        rec.member("g", "m2", rec.MemberValue(subscribed_topic_regex="x.*")),
        rec.target_member("g", "m", {t: frozenset({1, 0})}),
        rec.target_epoch("g", 3, 99),
        rec.current("g", "m", MemberAssignment(3, 2, MemberState.UNREVOKED_PARTITIONS, {t: {0: 2, 1: 3}}, {t: {2: 1}})),
        rec.regex("g", "a.*", rec.RegexValue(("a", "ab"), 4, 5)),
        rec.regex("g", "a.*", None),
        rec.current("g", "m", None),
    ]
    for r in records:
        assert codec.decode(*codec.encode(r)) == r
    key, value = codec.encode(records[0])
    assert key[:2] == b"\x00\x03" and value[:2] == b"\x00\x00", "type 3, value version 0"


def subscription(topics: list[str]) -> bytes:
    return b"\x00\x01" + ConsumerProtocolSubscription(topics=topics, user_data=None, owned_partitions=[]).encode(1)


def shard() -> GroupShard:
    s = GroupShard(
        0,
        now_ms=0,
        classic_config=CoordinatorConfig(initial_rebalance_delay_ms=0),
        topics=ImageTopics.__new__(ImageTopics),
        share_session_timeout_ms=lambda g: 45000,
        topic_table=TopicTable({"t": (T, 4)}),
    )
    return s


def classic_stable_group(s: GroupShard, members: list[str]) -> dict[str, str]:
    """A Stable classic group of ``members`` at generation 4, two partitions each (as its
    GroupMetadata record would load it)."""
    parts = iter([[0, 1], [2, 3]])
    s.classic.replay_group_metadata(
        "g",
        GroupMetadataValue(
            protocol_type="consumer",
            generation=4,
            protocol="range",
            leader=f"{members[0]}-id",
            current_state_timestamp=-1,
            members=[
                MemberMetadata(
                    member_id=f"{m}-id",
                    group_instance_id=None,
                    client_id=m,
                    client_host="/h",
                    rebalance_timeout=10000,
                    session_timeout=10000,
                    subscription=subscription(["t"]),
                    assignment=encode_assignment(1, {"t": next(parts)}),
                )
                for m in members
            ],
        ),
        0,
    )
    return {m: f"{m}-id" for m in members}


CLOCK = itertools.count(0, 10)


def run(s: GroupShard, result):
    s.apply_consumer_records(result.records, next(CLOCK))
    return result.response


def consumer_join() -> Req:
    """The first heartbeat of consumer-protocol member c1 joining group g (topic t)."""
    return Req(
        group_id="g",
        member_id="c1",
        member_epoch=0,
        rebalance_timeout_ms=5000,
        subscribed_topic_names=["t"],
        topic_partitions=[],
    )


def test_upgrade_then_downgrade():
    s = shard()
    ids = classic_stable_group(s, ["a", "b"])
    assert s.classic.groups["g"].state is GroupState.STABLE and len(ids) == 2
    generation = s.classic.groups["g"].generation
    join = consumer_join()
    r = run(s, s.consumer.heartbeat(join, now_ms=100))
    assert r.error_code == 0 and r.member_epoch == generation + 1 == 5
    assert s.group_type("g") == "consumer" and "g" not in s.classic.groups
    (d,) = s.consumer.describe(["g"])
    assert sorted(m.member_type for m in d.members) == [0, 0, 1]
    classic_member = next(m for m in d.members if m.member_type == 0)
    assert classic_member.member_epoch == generation
    # The classic members learn of the new epoch through Heartbeat and rejoin.
    assert (
        s.consumer.classic_heartbeat("g", generation, classic_member.member_id, None, 200)
        == ErrorCode.REBALANCE_IN_PROGRESS
    )
    assert (
        s.consumer.classic_heartbeat("g", generation + 7, classic_member.member_id, None, 200)
        == ErrorCode.ILLEGAL_GENERATION
    )
    (d,) = s.consumer.describe(["g"])
    targets = {
        m.member_id: sorted(p for tp in m.target_assignment.topic_partitions for p in tp.partitions)
        for m in d.members
        if m.member_type == 0
    }
    # The consumer-protocol member leaves: the group goes back to classic and rebalances.
    r = run(s, s.consumer.heartbeat(Req(group_id="g", member_id="c1", member_epoch=-1), now_ms=300))
    assert r.member_epoch == -1
    assert s.group_type("g") == "classic" and "g" not in s.consumer.groups
    group = s.classic.groups["g"]
    assert group.state is GroupState.PREPARING_REBALANCE and len(group.members) == 2
    assignments = {m: decode_assignment(member.assignment).get("t", []) for m, member in group.members.items()}
    assert assignments == targets, "each keeps its target; the leaver's partitions wait for the rebalance"


def test_offset_fetch_checks_each_member_by_the_protocol_it_speaks():
    s = shard()
    ids = classic_stable_group(s, ["a", "b"])
    join = consumer_join()
    epoch = run(s, s.consumer.heartbeat(join, now_ms=100)).member_epoch
    check = s.consumer.validate_offset_fetch
    assert check("g", None, -1) == check("nope", "c1", 3) == ErrorCode.NONE
    assert check("g", "x", epoch) == ErrorCode.UNKNOWN_MEMBER_ID
    assert check("g", "c1", epoch) == ErrorCode.NONE
    assert check("g", "c1", epoch - 1) == ErrorCode.STALE_MEMBER_EPOCH
    assert check("g", ids["a"], 4) == check("g", ids["a"], -1) == ErrorCode.NONE, "a classic member: its generation"
    assert check("g", ids["a"], 5) == ErrorCode.ILLEGAL_GENERATION


def test_upgrade_refused_when_disabled_or_not_the_consumer_protocol():
    from broker.group.consumer.config import MigrationPolicy

    s = shard()
    classic_stable_group(s, ["a", "b"])
    s.consumer.config.migration_policy = MigrationPolicy.DOWNGRADE
    join = consumer_join()
    r = s.consumer.heartbeat(join, now_ms=100).response
    assert (r.error_code, r.error_message) == (ErrorCode.GROUP_ID_NOT_FOUND, "Group g is not a consumer group.")
    assert s.group_type("g") == "classic"


def test_classic_member_joins_syncs_and_leaves_a_consumer_group():
    s = shard()
    join = consumer_join()
    run(s, s.consumer.heartbeat(join, now_ms=0))
    result = s.consumer.classic_join(
        "g",
        "",
        instance_id=None,
        protocol_type="consumer",
        protocols=[("range", subscription(["t"]))],
        session_timeout_ms=10000,
        rebalance_timeout_ms=10000,
        client_id="k",
        client_host="/h",
        api_version=9,
        now_ms=10,
    )
    assert result.response.error_code == ErrorCode.MEMBER_ID_REQUIRED
    member_id = result.response.member_id
    joined = run(
        s,
        s.consumer.classic_join(
            "g",
            member_id,
            instance_id=None,
            protocol_type="consumer",
            protocols=[("range", subscription(["t"]))],
            session_timeout_ms=10000,
            rebalance_timeout_ms=10000,
            client_id="k",
            client_host="/h",
            api_version=9,
            now_ms=20,
        ),
    )
    assert joined.error_code == 0 and joined.protocol_name == "range"
    synced = s.consumer.classic_sync(
        "g",
        joined.generation_id,
        member_id,
        instance_id=None,
        protocol_type="consumer",
        protocol_name="range",
        now_ms=30,
    )
    assert synced.error_code == 0 and decode_assignment(synced.assignment) == {}, "waits for c1 to release"
    left = s.consumer.classic_leave("g", [(member_id, None)], 40)
    s.apply_consumer_records(left.records, 40)
    assert left.response == [(member_id, None, ErrorCode.NONE)] and set(s.consumer.groups["g"].members) == {"c1"}
