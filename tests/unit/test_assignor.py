"""The share-group simple assignor: examples and properties."""

from __future__ import annotations

import math
import uuid
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from broker.group.share.assignor import ASSIGNOR_NAME, assign

T1, T2, T3, T4 = (uuid.UUID(int=i) for i in range(1, 5))


def loads(result):
    return {m: sum(len(ps) for ps in a.values()) for m, a in result.items()}


def sharing(result):
    return Counter((t, p) for a in result.values() for t, ps in a.items() for p in ps)


def test_name_is_simple():
    assert ASSIGNOR_NAME == "simple"


def test_no_members_no_assignment():
    assert assign({}, {T1: 3}, {}) == {}


def test_single_member_gets_every_partition():
    assert assign({"a": [T1, T2]}, {T1: 2, T2: 1}) == {"a": {T1: {0, 1}, T2: {0}}}


def test_more_partitions_than_members_balances_within_one():
    result = assign({"a": [T1], "b": [T1]}, {T1: 5})
    assert sorted(loads(result).values()) == [2, 3]
    assert set(sharing(result).values()) == {1}


def test_more_members_than_partitions_shares_each_partition():
    result = assign({m: [T1] for m in "abc"}, {T1: 2})
    # desired sharing = ceil(3 / 2) = 2, so 4 slots over 3 members.
    assert sharing(result) == {(T1, 0): 2, (T1, 1): 2}
    assert sorted(loads(result).values()) == [1, 1, 2]


def test_one_partition_goes_to_everybody():
    result = assign({m: [T1] for m in "abcd"}, {T1: 1})
    assert all(a == {T1: {0}} for a in result.values())


def test_unknown_and_empty_topics_are_skipped():
    result = assign({"a": [T1, T2, T3]}, {T1: 1, T3: 0})
    assert result == {"a": {T1: {0}}}


def test_member_with_no_subscribed_topic_gets_nothing():
    assert assign({"a": [], "b": [T1]}, {T1: 2}) == {"a": {}, "b": {T1: {0, 1}}}


def test_previous_assignment_is_kept():
    previous = {"a": {T1: {1, 3}}, "b": {T1: {0, 2}}}
    assert assign({"a": [T1], "b": [T1]}, {T1: 4}, previous) == previous


def test_previous_entries_for_unknown_things_are_ignored():
    previous = {"a": {T1: {0, 7}, T2: {0}}, "gone": {T1: {1}}}
    result = assign({"a": [T1], "b": [T1]}, {T1: 2}, previous)
    assert result == {"a": {T1: {0}}, "b": {T1: {1}}}


def test_adding_a_member_moves_only_what_it_needs():
    before = assign({"a": [T1], "b": [T1]}, {T1: 4})
    after = assign({"a": [T1], "b": [T1], "c": [T1]}, {T1: 4}, before)
    moved = sum(len(before[m][T1] - after[m].get(T1, set())) for m in "ab")
    assert moved == 1
    assert len(after["c"][T1]) == 1


def test_over_shared_partitions_are_trimmed_when_members_leave():
    before = assign({m: [T1] for m in "abcd"}, {T1: 2})  # sharing 2
    after = assign({"a": [T1], "b": [T1]}, {T1: 2}, before)  # sharing 1
    assert set(sharing(after).values()) == {1}
    assert sorted(loads(after).values()) == [1, 1]


def test_heterogeneous_subscriptions_are_balanced_per_topic():
    members = {"a": [T1], "b": [T2], "c": [T1, T2]}
    result = assign(members, {T1: 3, T2: 1})
    assert result["b"] == {T2: {0}}
    assert result["c"][T2] == {0}  # 2 subscribers, 1 partition: shared by both
    assert sorted([len(result["a"][T1]), len(result["c"].get(T1, ()))]) == [1, 2]


def test_unsubscribing_drops_the_topic():
    before = assign({"a": [T1, T2], "b": [T1, T2]}, {T1: 2, T2: 2})
    after = assign({"a": [T1], "b": [T1, T2]}, {T1: 2, T2: 2}, before)
    assert set(after["a"]) <= {T1}
    assert after["b"][T2] == {0, 1}


# -- properties ---------------------------------------------------------------

TOPIC_IDS = [T1, T2, T3, T4]


@st.composite
def scenarios(draw, homogeneous=None):
    topics = {t: draw(st.integers(0, 7)) for t in draw(st.lists(st.sampled_from(TOPIC_IDS), unique=True))}
    n_members = draw(st.integers(0, 12))
    member_ids = [f"m{i:02d}" for i in range(n_members)]
    subscribable = st.frozensets(st.sampled_from(TOPIC_IDS))
    if homogeneous is None:
        homogeneous = draw(st.booleans())
    if homogeneous:
        common = draw(subscribable)
        members = dict.fromkeys(member_ids, common)
    else:
        members = {m: draw(subscribable) for m in member_ids}
    previous = draw(
        st.dictionaries(
            st.sampled_from(member_ids + ["gone"]),
            st.dictionaries(st.sampled_from(TOPIC_IDS), st.sets(st.integers(0, 8), max_size=5), max_size=3),
            max_size=6,
        )
    )
    return members, topics, previous


def subscribed_partitions(members, topics):
    return {(t, p) for subs in members.values() for t in subs for p in range(topics.get(t, 0))}


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_every_subscribed_partition_is_assigned_to_a_subscriber(scenario):
    members, topics, previous = scenario
    result = assign(members, topics, previous)
    assert set(result) == set(members)
    assert set(sharing(result)) == subscribed_partitions(members, topics)
    for member_id, assignment in result.items():
        assert set(assignment) <= set(members[member_id])
        for topic_id, partitions in assignment.items():
            assert partitions and all(0 <= p < topics[topic_id] for p in partitions)


@settings(max_examples=300, deadline=None)
@given(scenarios(homogeneous=True))
def test_homogeneous_loads_differ_by_at_most_one(scenario):
    members, topics, previous = scenario
    result = assign(members, topics, previous)
    partitions = subscribed_partitions(members, topics)
    if not partitions:
        return
    counts = loads(result).values()
    assert max(counts) - min(counts) <= 1
    assert set(sharing(result).values()) == {math.ceil(len(members) / len(partitions))}


@settings(max_examples=300, deadline=None)
@given(scenarios(homogeneous=False))
def test_each_topic_is_balanced_over_its_subscribers(scenario):
    members, topics, previous = scenario
    result = assign(members, topics, previous)
    effective = {frozenset(t for t in subs if topics.get(t, 0)) for subs in members.values()}
    if len(effective) == 1:
        return  # homogeneous once topics without partitions are left out: covered above
    for topic_id, count in topics.items():
        subscribers = [m for m, subs in members.items() if topic_id in subs]
        if not count or not subscribers:
            continue
        per_member = [len(result[m].get(topic_id, ())) for m in subscribers]
        assert max(per_member) - min(per_member) <= 1
        desired = math.ceil(len(subscribers) / count)
        assert all(sharing(result)[(topic_id, p)] == desired for p in range(count))


@settings(max_examples=200, deadline=None)
@given(scenarios(), st.randoms(use_true_random=False))
def test_deterministic_whatever_the_input_order(scenario, rnd):
    members, topics, previous = scenario

    def shuffled(mapping):
        items = list(mapping.items())
        rnd.shuffle(items)
        return dict(items)

    again = assign(
        {m: sorted(s, reverse=True) for m, s in shuffled(members).items()},
        shuffled(topics),
        {m: shuffled(a) for m, a in shuffled(previous).items()},
    )
    assert assign(members, topics, previous) == again


@settings(max_examples=200, deadline=None)
@given(scenarios())
def test_an_assignment_is_its_own_fixed_point(scenario):
    members, topics, previous = scenario
    result = assign(members, topics, previous)
    assert assign(members, topics, result) == result


@settings(max_examples=300, deadline=None)
@given(scenarios(homogeneous=True))
def test_adding_a_member_moves_as_few_partitions_as_possible(scenario):
    members, topics, previous = scenario
    before = assign(members, topics, previous)
    common = next(iter(members.values()), frozenset(topics))
    grown = dict(members, newcomer=common)
    after = assign(grown, topics, before)

    def pairs(assignment):
        return {(t, p) for t, ps in assignment.items() for p in ps}

    revoked = 0
    for member_id in members:
        kept = pairs(before[member_id]) & pairs(after[member_id])
        # A member keeps as much of its old assignment as its new load allows.
        assert len(kept) == min(len(pairs(before[member_id])), len(pairs(after[member_id])))
        revoked += len(pairs(before[member_id]) - kept)
    # Whatever is taken away from the others is what the newcomer needs.
    assert revoked <= len(pairs(after["newcomer"]))
