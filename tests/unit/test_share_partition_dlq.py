"""The share-partition state machine beyond KIP-932: dead-letter hand-off (KIP-1191),
delivery-count throttling near the limit (Kafka since 4.2), and this broker's
extensions (redelivery backoff, per-key ordering). Fake log, hand-held clock."""

from __future__ import annotations

from broker.share.inflight import DeadLetter, DeadLetterReason, PersistedState, StateBatch
from broker.share.partition import SharePartition
from broker.share.states import AcquireMode, RecordState
from tests.unit.test_share_partition import ACCEPT, LOCK, REJECT, RELEASE, FakeLog, ack, get, new, persist, states

AVAILABLE, ACQUIRED, ARCHIVING, ARCHIVED = (
    RecordState.AVAILABLE,
    RecordState.ACQUIRED,
    RecordState.ARCHIVING,
    RecordState.ARCHIVED,
)
ONE = {"mode": AcquireMode.RECORD_LIMIT}


# ------------------------------------------------------------ dead letters


def test_reject_goes_to_archiving_then_archived_once_the_copy_is_written():
    sp = new(FakeLog().data(3))
    get(sp, "m", 3)
    res = sp.acknowledge("m", [(1, 1, [REJECT])], 0, 5, dead_letter=True)
    assert res.error_code == 0 and res.delta is not None
    assert [(b.first_offset, b.last_offset, b.delivery_state) for b in res.delta.batches] == [(1, 1, 3)]
    assert sp.take_dead_letters() == []  # nothing is copied before ARCHIVING is durable
    persist(sp, res.delta)
    assert sp.state_of(1).state == ARCHIVING
    assert sp.take_dead_letters() == [DeadLetter(1, 1, 1, DeadLetterReason.REJECTED)]
    assert sp.take_dead_letters() == []  # handed out once
    persist(sp, ack(sp, "m", (0, 0, [ACCEPT]), (2, 2, [ACCEPT])).delta)
    assert sp.start_offset == 1  # ARCHIVING is not final: the start offset waits
    delta = sp.dead_lettered(1, 1, 0)
    assert delta is not None and [b.delivery_state for b in delta.batches] == [4]
    persist(sp, delta)
    assert sp.state_of(1).state == ARCHIVED and sp.start_offset == 3


def test_the_delivery_limit_goes_to_archiving_with_its_reason():
    sp = new(FakeLog().data(1))
    for _ in range(2):
        get(sp, "m", 1)
        persist(sp, sp.acknowledge("m", [(0, 0, [RELEASE])], 0, 2, dead_letter=True).delta)
    assert sp.state_of(0).state == ARCHIVING
    assert sp.take_dead_letters() == [DeadLetter(0, 0, 2, DeadLetterReason.DELIVERY_LIMIT)]


def test_lock_expiry_at_the_limit_goes_to_archiving():
    sp = new(FakeLog().data(1))
    get(sp, "m", 1, now=0, delivery_count_limit=2)
    persist(sp, sp.expire_locks(LOCK, 2, dead_letter=True).delta)
    get(sp, "m", 1, now=LOCK, delivery_count_limit=2)
    persist(sp, sp.expire_locks(2 * LOCK, 2, dead_letter=True).delta)
    assert sp.take_dead_letters() == [DeadLetter(0, 0, 2, DeadLetterReason.DELIVERY_LIMIT)]


def test_without_a_dead_letter_topic_reject_archives_at_once():
    sp = new(FakeLog().data(2))
    get(sp, "m", 2)
    persist(sp, ack(sp, "m", (0, 1, [REJECT])).delta)
    assert sp.state_of(0).state == ARCHIVED and sp.take_dead_letters() == []


def test_archiving_comes_back_after_a_restart_and_is_copied_again():
    log = FakeLog().data(3)
    restored = SharePartition.initialize(PersistedState(0, [StateBatch(0, 0, 2, 1), StateBatch(1, 2, 3, 5)]), log)
    assert restored.start_offset == 1
    assert restored.take_dead_letters() == [DeadLetter(1, 2, 5, DeadLetterReason.RESTORED)]
    # ARCHIVING records are never handed out nor acknowledged
    assert get(restored, "m", 10) == []
    assert restored.acknowledge("m", [(1, 1, [ACCEPT])], 0, 5).error_code != 0
    persist(restored, restored.dead_lettered(1, 2, 0))
    assert restored.start_offset == 3


def test_a_failed_archived_write_keeps_the_record_archiving_with_its_copy_written():
    sp = new(FakeLog().data(1))
    get(sp, "m", 1)
    persist(sp, sp.acknowledge("m", [(0, 0, [REJECT])], 0, 5, dead_letter=True).delta)
    sp.take_dead_letters()
    delta = sp.dead_lettered(0, 0, 0)
    assert delta is not None
    sp.rollback(delta)
    assert sp.state_of(0).state == ARCHIVING
    assert sp.take_dead_letters() == [DeadLetter(0, 0, 1, DeadLetterReason.REJECTED, written=True)]


def test_log_start_past_archiving_drops_it():
    log = FakeLog().data(2)
    sp = new(log)
    get(sp, "m", 2)
    persist(sp, sp.acknowledge("m", [(0, 1, [REJECT])], 0, 5, dead_letter=True).delta)
    log.log_start_offset = 2
    sp.on_log_start_offset(2)
    assert sp.take_dead_letters() == [] and sp.start_offset == 2


# ---------------------------------------------------------- throttling (4.2+)


def test_records_past_half_the_limit_go_out_in_smaller_pieces():
    sp = new(FakeLog().data(8))
    limit = 5  # throttled once a count of 3 (half of 5, rounded up) is reached; alone on the last delivery
    sizes = []
    for _ in range(5):
        got = get(sp, "m", 100, delivery_count_limit=limit)
        sizes.append(sum(r.last_offset - r.first_offset + 1 for r in got))
        first = got[0].first_offset
        persist(sp, sp.acknowledge("m", [(first, first + sizes[-1] - 1, [RELEASE])], 0, limit).delta)
        # release the rest back too, so the whole batch is redelivered each round
        for r in states(sp):
            if r[2] == ACQUIRED:
                persist(sp, ack(sp, "m", (r[0], r[1], [RELEASE]), limit=limit).delta)
    assert sizes[:3] == [8, 8, 8]  # delivered with counts 1, 2, 3: whole batch
    assert sizes[3] == 4  # past a count of 3: 8 >> 1
    assert sizes[4] == 1  # its count is limit - 1: alone


def test_a_throttled_stretch_goes_out_alone():
    sp = new(FakeLog().data(2).data(2))
    get(sp, "m", 2, delivery_count_limit=4, **ONE)
    for _ in range(1):
        persist(sp, ack(sp, "m", (0, 1, [RELEASE]), limit=4).delta)
        get(sp, "m", 2, delivery_count_limit=4, **ONE)
    persist(sp, ack(sp, "m", (0, 1, [RELEASE]), limit=4).delta)
    got = get(sp, "m", 10, delivery_count_limit=4)
    assert [(r.first_offset, r.last_offset) for r in got] == [(0, 0)]  # count 3 of 4: alone, nothing else


# ------------------------------------------------------ redelivery backoff


def test_a_released_record_waits_for_its_backoff():
    sp = new(FakeLog().data(1))
    delay = lambda count: 100 * 2 ** (count - 1)  # noqa: E731
    get(sp, "m", 1, now=0)
    persist(sp, sp.acknowledge("m", [(0, 0, [RELEASE])], 0, 5, redelivery_delay=delay).delta)
    # the clock is in whole milliseconds, so a record waits one more to be never early
    assert sp.next_redelivery_ms() == 101
    assert get(sp, "m", 1, now=100) == []
    assert sp.redeliveries_due(100) is False and sp.redeliveries_due(101) is True
    assert [r.delivery_count for r in get(sp, "m", 1, now=101)] == [2]
    persist(sp, sp.acknowledge("m", [(0, 0, [RELEASE])], 101, 5, redelivery_delay=delay).delta)
    assert sp.next_redelivery_ms() == 302  # second failure: 200 ms
    assert get(sp, "m", 1, now=301) == [] and len(get(sp, "m", 1, now=302)) == 1


def test_a_held_record_does_not_block_the_records_after_it():
    sp = new(FakeLog().data(1).data(1))
    get(sp, "m", 1, now=0)
    persist(sp, sp.acknowledge("m", [(0, 0, [RELEASE])], 0, 5, redelivery_delay=lambda c: 1000).delta)
    assert [(r.first_offset, r.delivery_count) for r in get(sp, "m", 5, now=1)] == [(1, 1)]


# -------------------------------------------------------- per-key ordering


def test_a_record_waits_while_an_earlier_record_of_its_key_is_in_flight():
    sp = new(FakeLog().data(4, keys=["a", "b", "a", None]))
    got = get(sp, "m1", 10, key_ordering=True)
    assert [(r.first_offset, r.last_offset) for r in got] == [(0, 1), (3, 3)]
    assert get(sp, "m2", 10, key_ordering=True) == []  # offset 2 waits for offset 0
    persist(sp, ack(sp, "m1", (0, 0, [ACCEPT])).delta)
    assert [(r.first_offset, r.last_offset) for r in get(sp, "m2", 10, key_ordering=True)] == [(2, 2)]


def test_a_released_record_keeps_its_key_blocked_until_it_is_final():
    sp = new(FakeLog().data(2, keys=["k", "k"]))
    get(sp, "m1", 10, key_ordering=True)
    persist(sp, ack(sp, "m1", (0, 0, [RELEASE])).delta)
    got = get(sp, "m2", 10, key_ordering=True)
    assert [(r.first_offset, r.last_offset, r.delivery_count) for r in got] == [(0, 0, 2)]
    persist(sp, ack(sp, "m2", (0, 0, [ACCEPT])).delta)
    assert [(r.first_offset, r.delivery_count) for r in get(sp, "m1", 10, key_ordering=True)] == [(1, 1)]
