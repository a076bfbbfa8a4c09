"""Share groups (KIP-932) with confluent-kafka's ShareConsumer against the real broker.

Every test uses fresh topic and group names and bounded waits. Tests that need
short record locks or quick rebalances run on a broker of their own
(``fast_broker``: lock duration down to 1 s, 500 ms heartbeats).
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException

from broker.testing import BrokerProcess
from tests.integration.clients import create_topic, produce
from tests.integration.share_helpers import (
    ACCEPT,
    FAST_SHARE_SETTINGS,
    REJECT,
    RELEASE,
    Worker,
    close_quietly,
    commit_ok,
    poll_batch,
    poll_count,
    poll_quiet,
    poll_until,
    share_consumer,
    share_group,
    unique,
    values,
)


@pytest.fixture(scope="module")
def fast_broker(sharebroker_factory):
    return sharebroker_factory(settings=FAST_SHARE_SETTINGS)


def payloads(n: int, tag: str = "v") -> list[bytes]:
    return [f"{tag}-{i}".encode() for i in range(n)]


# --- 1. implicit acknowledgement ------------------------------------------------------


def test_implicit_acks_consume_everything_once(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs)
    sent = payloads(30)
    produce(bs, topic, sent)

    sc = share_consumer(bs, group, [topic])
    try:
        got = poll_count(sc, len(sent), 20)
        assert sorted(values(got)) == sorted(sent)
        assert all(m.delivery_count() == 1 for m in got)
        commit_ok(sc)  # accepts the last poll's records
    finally:
        sc.close()

    later = share_consumer(bs, group, [topic])
    try:
        assert poll_quiet(later, 3) == []
    finally:
        later.close()


# --- 2. explicit accept / release / reject ---------------------------------------------


def test_explicit_accept_release_reject(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs)
    produce(bs, topic, payloads(3))

    sc = share_consumer(bs, group, [topic], mode="explicit")
    try:
        got = poll_count(sc, 3, 20)
        assert values(got) == payloads(3)
        kinds = {b"v-0": ACCEPT, b"v-1": RELEASE, b"v-2": REJECT}
        for m in got:
            sc.acknowledge(m, kinds[m.value()])
        commit_ok(sc)
        again = poll_count(sc, 1, 15)
        assert [(m.value(), m.delivery_count()) for m in again] == [(b"v-1", 2)]
        sc.acknowledge(again[0], ACCEPT)
        commit_ok(sc)
        assert poll_quiet(sc, 2) == []
    finally:
        sc.close()


# --- 3. release -> redelivered with delivery count 2 -----------------------------------


def test_release_redelivers_with_count_two(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs)
    produce(bs, topic, payloads(5))

    sc = share_consumer(bs, group, [topic], mode="explicit")
    try:
        first = poll_count(sc, 5, 20)
        assert [m.delivery_count() for m in first] == [1] * 5
        for m in first:
            sc.acknowledge(m, RELEASE)
        commit_ok(sc)
        second = poll_count(sc, 5, 15)
        assert sorted(values(second)) == payloads(5)
        assert [m.delivery_count() for m in second] == [2] * 5
        for m in second:
            sc.acknowledge(m, ACCEPT)
        commit_ok(sc)
        assert poll_quiet(sc, 2) == []
    finally:
        sc.close()


# --- 4. reject -> never redelivered ----------------------------------------------------


def test_rejected_records_are_never_redelivered(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs)
    produce(bs, topic, payloads(4))

    sc = share_consumer(bs, group, [topic], mode="explicit")
    try:
        got = poll_count(sc, 4, 20)
        for m in got:
            sc.acknowledge(m, REJECT)
        commit_ok(sc)
        assert poll_quiet(sc, 2) == []
    finally:
        sc.close()
    other = share_consumer(bs, group, [topic], mode="explicit")
    try:
        assert poll_quiet(other, 2) == []
    finally:
        other.close()


# --- 5. delivery count limit -------------------------------------------------------------


def test_delivery_count_limit_archives_released_records(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs, share_delivery_count_limit="2")
    produce(bs, topic, payloads(3))

    sc = share_consumer(bs, group, [topic], mode="explicit")
    try:
        counts = []
        for _expected_count in (1, 2):
            got = poll_count(sc, 3, 15)
            assert sorted(values(got)) == payloads(3)
            counts.append({m.delivery_count() for m in got})
            for m in got:
                sc.acknowledge(m, RELEASE)
            commit_ok(sc)
        assert counts == [{1}, {2}]
        # The second release reached the limit: the records are archived, not offered again.
        assert poll_quiet(sc, 3) == []
    finally:
        sc.close()


# --- 6. lock expiry ---------------------------------------------------------------------------


def test_expired_lock_redelivers_to_another_consumer(fast_broker):
    bs = fast_broker.bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs, share_record_lock_duration_ms="1000")
    produce(bs, topic, payloads(5))

    a = share_consumer(bs, group, [topic], mode="explicit")
    b = None
    try:
        held = poll_count(a, 5, 20)
        assert sorted(values(held)) == payloads(5)
        assert {m.delivery_count() for m in held} == {1}
        # A stays in the group (its heartbeats run in the background) but never
        # polls or acknowledges again; its locks run out after one second.
        b = share_consumer(bs, group, [topic], mode="explicit")
        got = poll_count(b, 5, 20)
        assert sorted(values(got)) == payloads(5)
        assert {m.delivery_count() for m in got} == {2}
        for m in got:
            b.acknowledge(m, ACCEPT)
        commit_ok(b)
        # A's locks are gone: its late acknowledgements are refused, not applied.
        for m in held:
            a.acknowledge(m, RELEASE)
        result = a.commit_sync(10)
        assert result and all(err is not None for err in result.values()), result
        assert {err.args[0].code() for err in result.values()} == {KafkaError.INVALID_RECORD_STATE}
        assert poll_quiet(b, 2) == []
    finally:
        if b is not None:
            b.close()
        a.close()


def test_expired_lock_at_the_delivery_limit_archives(fast_broker):
    bs = fast_broker.bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs, share_record_lock_duration_ms="1000", share_delivery_count_limit="2")
    produce(bs, topic, payloads(3))

    sc = share_consumer(bs, group, [topic], mode="explicit")
    other = None
    try:
        first = poll_count(sc, 3, 20)
        for m in first:
            sc.acknowledge(m, RELEASE)
        second = poll_count(sc, 3, 10)  # the releases ride on this ShareFetch
        assert sorted(values(second)) == payloads(3)
        assert {m.delivery_count() for m in second} == {2}
        # sc keeps the second delivery without acknowledging it: its locks expire
        # at the delivery limit, so the records are archived, not offered again.
        other = share_consumer(bs, group, [topic], mode="explicit")
        assert poll_quiet(other, 3) == []
    finally:
        if other is not None:
            other.close()
        sc.close()


# --- 8. close without acknowledging -----------------------------------------------------


@pytest.mark.parametrize("mode", ["explicit", "implicit"])
def test_close_without_ack_redelivers_to_next_consumer(sharebroker_bootstrap, mode):
    # librdkafka's close does not accept the last poll in implicit mode either:
    # the broker gives the records back when the session closes / the member leaves.
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs)
    produce(bs, topic, payloads(6))

    first = share_consumer(bs, group, [topic], mode=mode)
    try:
        got = poll_count(first, 6, 20)
        assert sorted(values(got)) == payloads(6)
    finally:
        first.close()  # nothing acknowledged: the records go back at once, not after 30 s

    t0 = time.monotonic()
    second = share_consumer(bs, group, [topic], mode="explicit")
    try:
        again = poll_count(second, 6, 15)
        assert sorted(values(again)) == payloads(6)
        assert {m.delivery_count() for m in again} == {2}
        assert time.monotonic() - t0 < 15
        for m in again:
            second.acknowledge(m, ACCEPT)
        commit_ok(second)
    finally:
        second.close()


# --- 10. share.auto.offset.reset ------------------------------------------------------------


def test_auto_offset_reset_latest_is_the_default(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs, earliest=False)
    produce(bs, topic, payloads(5, "old"))

    sc = share_consumer(bs, group, [topic])
    try:
        assert poll_quiet(sc, 3) == []  # the first fetch fixed the start at the end of the log
        produce(bs, topic, payloads(4, "new"))
        got = poll_count(sc, 4, 15)
        assert sorted(values(got)) == payloads(4, "new")
        commit_ok(sc)
    finally:
        sc.close()


def test_auto_offset_reset_earliest(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs, share_auto_offset_reset="earliest")
    produce(bs, topic, payloads(5, "old"))

    sc = share_consumer(bs, group, [topic])
    try:
        got = poll_count(sc, 5, 20)
        assert sorted(values(got)) == payloads(5, "old")
        produce(bs, topic, payloads(4, "new"))
        got = poll_count(sc, 4, 15)
        assert sorted(values(got)) == payloads(4, "new")
        commit_ok(sc)
    finally:
        sc.close()


# --- 7. more consumers than partitions ------------------------------------------------------


def test_eight_consumers_on_two_partitions_share_the_work(fast_broker):
    bs = fast_broker.bootstrap
    topic = unique("t")
    create_topic(bs, topic, partitions=2)
    group = share_group(bs)

    workers = [Worker(bs, group, [topic], f"w{i}", delay_per_batch=0.05) for i in range(8)]
    sent = []
    try:
        time.sleep(1.0)  # let the members join and receive their assignments
        deadline = time.monotonic() + 25
        round_no = 0
        # Small batches, a little at a time, until every consumer has had work.
        while time.monotonic() < deadline:
            for partition in (0, 1):
                batch = [f"r{round_no}-p{partition}-{i}".encode() for i in range(5)]
                produce(bs, topic, batch, partition=partition)
                sent += batch
            round_no += 1
            time.sleep(0.1)
            if round_no >= 20 and all(w.received for w in workers):
                break
        got_all = lambda: sorted(v for w in workers for _, _, v, _ in w.received)  # noqa: E731
        end = time.monotonic() + 15
        while len(set(got_all())) < len(sent) and time.monotonic() < end:
            time.sleep(0.2)
    finally:
        for w in workers:
            w.stop(ack=True)
    per_worker = {w.name: len(w.received) for w in workers}
    assert all(per_worker.values()), f"some consumers got nothing: {per_worker}"
    received = [v for w in workers for _, _, v, _ in w.received]
    assert sorted(set(received)) == sorted(sent)
    # Nobody died holding records, so nothing was delivered twice.
    assert len(received) == len(sent), f"duplicates: {len(received) - len(sent)}"


# --- 9. members joining and leaving mid-stream ---------------------------------------------


def test_members_join_and_leave_mid_stream(fast_broker):
    bs = fast_broker.bootstrap
    topic = unique("t")
    create_topic(bs, topic, partitions=2)
    group = share_group(bs)
    sent: list[bytes] = []

    def produce_round(n: int) -> None:
        for partition in (0, 1):
            batch = [f"r{n}-p{partition}-{i}".encode() for i in range(10)]
            produce(bs, topic, batch, partition=partition)
            sent.extend(batch)

    done: list[Worker] = []
    dead_unacked: set[tuple[int, int]] = set()
    live = [Worker(bs, group, [topic], "a", delay_per_batch=0.02)]
    n = 0
    try:
        for step in range(6):
            for _ in range(4):
                produce_round(n)
                n += 1
                time.sleep(0.1)
            if step in (0, 2, 4):
                live.append(Worker(bs, group, [topic], f"j{step}", delay_per_batch=0.02))
            elif step == 1:  # a clean leave: commits, then closes
                w = live.pop(0)
                w.stop(ack=True)
                done.append(w)
            elif step == 3:  # leaves holding a poll it never accepts (stops while we produce)
                dying = live.pop(0)
                dying.begin_stop(ack=False)
        dying.stop()
        dead_unacked |= set(dying.unacked)
        done.append(dying)
        everyone = lambda: done + live  # noqa: E731
        end = time.monotonic() + 20
        while time.monotonic() < end:
            if {v for w in everyone() for _, _, v, _ in w.received} >= set(sent):
                break
            time.sleep(0.2)
    finally:
        for w in live:
            w.stop(ack=True)
        done += live
    received = [(p, o, v) for w in done for p, o, v, _ in w.received]
    assert {v for _, _, v in received} == set(sent), "records lost"
    seen: dict[tuple[int, int], int] = {}
    for p, o, _ in received:
        seen[(p, o)] = seen.get((p, o), 0) + 1
    duplicates = {k: c for k, c in seen.items() if c > 1}
    assert dead_unacked, "the dying consumer never held a batch"
    assert set(duplicates) <= dead_unacked, f"delivered twice without a consumer dying: {duplicates}"
    # What the dead consumer held came back, one delivery later.
    redelivered = {(p, o): c for w in done for p, o, _, c in w.received if (p, o) in dead_unacked and c > 1}
    assert set(redelivered) == dead_unacked and set(redelivered.values()) == {2}

    # Everything ended accepted: a new member finds nothing.
    last = share_consumer(bs, group, [topic])
    try:
        assert poll_quiet(last, 2) == []
    finally:
        last.close()


def test_killed_consumer_process_records_redelivered_at_once(sharebroker_bootstrap):
    """A consumer that dies (kill -9, no leave, no close) gives its records back
    when its connections drop, long before the 30 s lock or the 45 s session timeout."""
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs)
    produce(bs, topic, payloads(10))
    child = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, bs, group, topic],
        stdout=subprocess.PIPE,
        text=True,
        cwd=str(Path(__file__).resolve().parents[2]),
    )
    try:
        line = _readline(child, 30)
        assert line.strip() == "10", f"the child consumer reported {line!r}"
    finally:
        child.kill()
        child.wait()
        child.stdout.close()
    t0 = time.monotonic()
    sc = share_consumer(bs, group, [topic])
    try:
        got = poll_count(sc, 10, 15)
        assert sorted(values(got)) == sorted(payloads(10))
        assert {m.delivery_count() for m in got} == {2}
        assert time.monotonic() - t0 < 15
        commit_ok(sc)
    finally:
        sc.close()


# Polls ten records in explicit mode, says how many, then holds them until killed.
_HOLDER = """
import sys, time
from tests.integration.share_helpers import poll_count, share_consumer
bs, group, topic = sys.argv[1:4]
sc = share_consumer(bs, group, [topic], mode="explicit")
print(len(poll_count(sc, 10, 20)), flush=True)
time.sleep(120)
"""


def _readline(proc: subprocess.Popen, timeout: float) -> str:
    out: list[str] = []
    stdout = proc.stdout
    assert stdout is not None  # started with stdout=PIPE
    reader = threading.Thread(target=lambda: out.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return out[0] if out else ""


# --- 11. one namespace for share and consumer groups ------------------------------------------


def test_consumer_group_id_refused_to_share_consumer(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    produce(bs, topic, payloads(2))
    group = unique("g")
    c = Consumer({"bootstrap.servers": bs, "group.id": group, "auto.offset.reset": "earliest"})
    try:
        c.subscribe([topic])
        msg = None
        end = time.monotonic() + 15
        while msg is None and time.monotonic() < end:
            m = c.poll(0.5)
            if m is not None and m.error() is None:
                msg = m
        assert msg is not None, "the consumer group never got its records"

        sc = share_consumer(bs, group, [topic])
        try:
            with pytest.raises(KafkaException) as info:
                poll_quiet(sc, 10)
            err = info.value.args[0]
            assert err.fatal()
            assert err.code() == KafkaError.GROUP_ID_NOT_FOUND
        finally:
            close_quietly(sc)
    finally:
        c.close()


def test_share_group_id_refused_to_consumer_group(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs)
    produce(bs, topic, payloads(2))
    sc = share_consumer(bs, group, [topic])
    try:
        assert len(poll_count(sc, 2, 15)) == 2  # the share group is live
        c = Consumer({"bootstrap.servers": bs, "group.id": group, "auto.offset.reset": "earliest"})
        try:
            c.subscribe([topic])
            error = None
            end = time.monotonic() + 10
            while error is None and time.monotonic() < end:
                m = c.poll(0.5)
                if m is not None:
                    assert m.error() is not None, f"the consumer group got a record: {m.value()!r}"
                    error = m.error()
            assert error is not None and error.code() == KafkaError.INCONSISTENT_GROUP_PROTOCOL
        finally:
            c.close()
        commit_ok(sc)
    finally:
        sc.close()


# --- 12. broker restart in the middle of consumption ----------------------------------------


@pytest.mark.parametrize("how", ["stop", "kill"])
def test_restart_mid_consumption_loses_nothing(tmp_path, how):
    broker = BrokerProcess(tmp_path / "data", FAST_SHARE_SETTINGS).start()
    try:
        _restart_mid_consumption(broker, how)
    except BaseException:
        print(broker.log_tail(80))
        raise
    finally:
        broker.kill()


def _restart_mid_consumption(broker: BrokerProcess, how: str) -> None:
    bs = broker.bootstrap
    topic = unique("t")
    create_topic(bs, topic, partitions=2)
    group = share_group(bs)
    sent: dict[bytes, str] = {}  # value -> the acknowledgement it gets

    def produce_some(start: int, n: int) -> None:
        for partition in (0, 1):
            vals = [f"p{partition}-{i}".encode() for i in range(start, start + n)]
            produce(bs, topic, vals, partition=partition)
            sent.update((v, "reject" if int(v.split(b"-")[1]) % 7 == 0 else "accept") for v in vals)

    produce_some(0, 60)
    final: dict[bytes, str] = {}  # confirmed by the broker
    delivered_after_final: list[bytes] = []

    def consume(sc, until: Callable[[], bool], timeout: float) -> None:
        end = time.monotonic() + timeout
        while not until() and time.monotonic() < end:
            batch = poll_batch(sc, 0.5, [])
            if not batch:
                continue
            delivered_after_final.extend(m.value() for m in batch if m.value() in final)
            for m in batch:
                sc.acknowledge(m, REJECT if sent[m.value()] == "reject" else ACCEPT)
            try:
                result = sc.commit_sync(10)
            except KafkaException:
                continue
            ok = {(tp.topic, tp.partition) for tp, err in result.items() if err is None}
            final.update((m.value(), sent[m.value()]) for m in batch if (m.topic(), m.partition()) in ok)

    sc = share_consumer(bs, group, [topic], mode="explicit")
    try:
        consume(sc, lambda: len(final) >= len(sent), 20)
        assert len(final) == len(sent), f"only {len(final)} of {len(sent)} records consumed before the restart"
        produce_some(60, 40)
        held = poll_until(sc, lambda got: bool(got), 10)  # in hand, not acknowledged
        assert held
        if how == "kill":
            broker.kill()
        else:
            assert broker.stop() == 0
        broker.start()
        # Acknowledging what was held before the restart may fail (the session is gone).
        for m in held:
            sc.acknowledge(m, ACCEPT if sent[m.value()] == "accept" else REJECT)
        try:
            result = sc.commit_sync(10)
            ok = {(tp.topic, tp.partition) for tp, err in result.items() if err is None}
            final.update((m.value(), sent[m.value()]) for m in held if (m.topic(), m.partition()) in ok)
        except KafkaException:
            pass
        produce_some(100, 50)
        consume(sc, lambda: len(final) >= len(sent), 40)
    finally:
        close_quietly(sc)

    missing = set(sent) - set(final)
    assert not missing, f"{len(missing)} records never ended accepted or rejected: {sorted(missing)[:10]}"
    assert final == sent
    assert not delivered_after_final, f"final records delivered again: {delivered_after_final[:10]}"
    last = share_consumer(bs, group, [topic])
    try:
        assert poll_quiet(last, 2) == []
    finally:
        last.close()
