"""How much of a shared share-partition one fetch may take (broker.share.fairness)."""

from __future__ import annotations

from broker.share.fairness import CHUNK_TARGET_MS, PACE_FLOOR_DIVISOR, FairShare

LOCK = 30_000
WINDOW = 2000


def test_a_lone_member_is_not_limited():
    fair = FairShare()
    assert fair.fetching("a", 0, LOCK, held=0) == 1
    assert fair.part("a", 1, WINDOW, held=0) is None


def test_members_share_the_window_less_what_they_hold():
    fair = FairShare()
    for m in "abcd":
        fair.fetching(m, 0, LOCK, held=0)
    assert fair.part("a", 4, WINDOW, held=0) == 500
    assert fair.part("a", 4, WINDOW, held=200) == 300
    assert fair.part("a", 4, WINDOW, held=600) == 0
    assert fair.part("a", 3, 1000, held=0) == 334  # rounded up: the window is used whole


def test_a_members_part_follows_its_pace():
    fair = FairShare()
    fair.fetching("a", 0, LOCK, held=0)
    fair.fetching("b", 0, LOCK, held=0)
    fair.acquired("a", 0, 500)  # (8 members share the window: 250 each, the pace's floor 63)
    # Back 1 s later with all 500 settled: 500 records/s, so about 200 ms of work is 100.
    fair.fetching("a", 1000, LOCK, held=0)
    assert fair.part("a", 8, WINDOW, held=0) == 500 * CHUNK_TARGET_MS // 1000
    # Still holding some: no sample, the pace stays, and what it holds counts against it.
    fair.acquired("a", 1000, 100)
    fair.fetching("a", 1100, LOCK, held=40)
    assert fair.part("a", 8, WINDOW, held=40) == 60
    # Faster now (100 records in 50 ms since they were taken): the average moves towards it.
    fair.fetching("a", 1050 + 50, LOCK, held=0)
    assert fair.part("a", 8, WINDOW, held=0) == min(250, round((0.5 * 1000 + 0.5 * 500) * 0.2))
    # A member never seen has no pace: its share of the window (2000 / 8).
    assert fair.part("b", 8, WINDOW, held=0) == 250


def test_members_share_the_window_stretched_to_the_batch_at_its_edge():
    """A lone member would take the batch at the window's edge whole: 16 members
    split the same span, not a sixteenth of max.record.locks."""
    fair = FairShare()
    for m in "ab":
        fair.fetching(m, 0, LOCK, held=0)
    assert fair.part("a", 16, WINDOW, held=0, span=10_000) == 625
    assert fair.part("a", 16, WINDOW, held=0, span=WINDOW) == 125
    # The pace's floor stays a quarter of the member's share of max.record.locks.
    fair.acquired("a", 0, 625)
    fair.fetching("a", 6250, LOCK, held=0)  # 100 records a second: 20 in 200 ms
    assert fair.part("a", 16, WINDOW, held=0, span=10_000) == -(-125 // PACE_FLOOR_DIVISOR)


def test_a_member_through_the_whole_window_in_200_ms_is_not_held_to_its_share():
    fair = FairShare()
    for m in "ab":
        fair.fetching(m, 0, LOCK, held=0)
    assert fair.part("a", 16, WINDOW, held=0) == 125  # pace unknown: its share
    fair.acquired("a", 0, 125)
    fair.fetching("a", 5, LOCK, held=0)  # 125 records in 5 ms: 25,000 a second
    assert fair.part("a", 16, WINDOW, held=0) == 5000  # 200 ms of its work: more than the window
    fair.acquired("b", 0, 125)
    fair.fetching("b", 125, LOCK, held=0)  # 1,000 a second: 200 ms is 200, above its share
    assert fair.part("b", 16, WINDOW, held=0) == 125


def test_a_member_whose_cycle_is_a_fixed_cost_keeps_a_quarter_of_its_share():
    """A stream processor's micro-batch takes 600 ms whatever it holds: its pace falls with
    its part, and without a floor its parts would shrink to a record at a time."""
    fair = FairShare()
    for m in "ab":
        fair.fetching(m, 0, LOCK, held=0)
    now, parts = 0, []
    for _ in range(30):
        part = fair.part("a", 2, WINDOW, held=0)
        assert part is not None
        parts.append(part)
        fair.acquired("a", now, part)
        now += 600
        fair.fetching("a", now, LOCK, held=0)
    assert parts[0] == 1000  # pace unknown: its share of the window
    assert parts[-1] == 1000 // PACE_FLOOR_DIVISOR == 250, parts


def test_members_that_stop_fetching_or_forget_no_longer_count():
    fair = FairShare()
    fair.fetching("a", 0, LOCK, held=0)
    fair.fetching("b", 10, LOCK, held=0)
    assert fair.fetching("c", 20, LOCK, held=0) == 3
    assert fair.forget("b") and not fair.forget("b")
    assert fair.fetching("c", LOCK + 5, LOCK, held=0) == 1  # a asked last at 0: gone
