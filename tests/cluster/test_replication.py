"""Replication: topics with three replicas survive losing their leader, again and again.

- kill -9 of a partition's leader 20 times under acks=all load (librdkafka's
  idempotent producer, replication factor 3, min.insync.replicas 2): every
  acknowledged record is there exactly once and a consumer group reads on;
- the same with a share group consuming (explicit acknowledgement): nothing
  lost, and no record whose acceptance the broker confirmed is delivered again;
- a killed leader holding a record no follower fetched cuts it off when it
  restarts (OffsetForLeaderEpoch) and follows the new leader;
- a leader paused (SIGSTOP) past its lease is fenced when it resumes: it
  answers nothing as leader, the records acknowledged meanwhile by the new
  leader are all there, and it rejoins as a follower.

Figures (time from kill -9 to the first acknowledged produce to the partition
after it) are printed; bench/replication.py compares them with Kafka.
"""

from __future__ import annotations

import signal
import statistics
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from functools import partial

import pytest
from confluent_kafka import Consumer, KafkaException, Message, Producer, ShareConsumer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from broker.admin.client import AdminClient as WireClient
from broker.localcluster import LocalCluster
from broker.protocol.errors import ErrorCode
from tests.cluster.conftest import FAST_SHARE_SETTINGS, wait_for
from tests.integration.share_helpers import set_group_configs

ROUNDS = 20
# A short session so the 20 rounds take minutes, not a quarter of an hour: the
# controller notices a killed broker when its lease expires.
REPLICATION_SETTINGS = {
    **FAST_SHARE_SETTINGS,
    "broker.session.timeout.ms": "3000",
    "broker.heartbeat.interval.ms": "500",
}
TOPIC_CONFIGS = {"min.insync.replicas": "2"}


@pytest.fixture
def replicated() -> Iterator[LocalCluster]:
    with LocalCluster(3, settings=REPLICATION_SETTINGS) as c:
        yield c


def _create(c: LocalCluster, topic: str, partitions: int) -> None:
    a = AdminClient({"bootstrap.servers": c.bootstrap})
    a.create_topics([NewTopic(topic, num_partitions=partitions, replication_factor=3, config=TOPIC_CONFIGS)])[
        topic
    ].result(timeout=30)


def _state(c: LocalCluster, topic: str) -> dict[int, tuple[int, list[int]]]:
    """{partition: (leader, isr)} as the live brokers report it."""
    live = ",".join(b.bootstrap for b in c.brokers if b.process is not None and b.process.poll() is None)
    md = AdminClient({"bootstrap.servers": live}).list_topics(topic, timeout=10)
    return {p: (m.leader, sorted(m.isrs)) for p, m in md.topics[topic].partitions.items()}


def _value(m: Message) -> bytes:
    """A record's value: every record these tests produce has one."""
    value = m.value()
    assert value is not None
    return value


def _wait_fully_replicated(c: LocalCluster, topic: str, timeout: float = 60) -> dict[int, tuple[int, list[int]]]:
    return wait_for(
        lambda: (lambda s: s if all(isr == [1, 2, 3] and leader > 0 for leader, isr in s.values()) else None)(
            _state(c, topic)
        ),
        timeout,
        f"every partition of {topic} back with 3 in-sync replicas",
    )


class Load(threading.Thread):
    """An idempotent librdkafka producer (acks=all) writing numbered records until stopped;
    ``acked`` holds (monotonic time, partition, value) of each delivery report without error."""

    # The count bound is set so that at ``rate`` the load outlasts the tests' 900 s timeout:
    # 5,000,000 (250 s at 20,000/s) ended the load of the 20 kill rounds before their end on
    # a busy machine, and the round then waited for an ack that could not come.
    def __init__(self, bootstrap: str, topic: str, limit: int = 20_000_000, rate: int = 20_000) -> None:
        super().__init__(daemon=True, name="load")
        self.bootstrap, self.topic, self.limit, self.rate = bootstrap, topic, limit, rate
        self.acked: list[tuple[float, int, bytes]] = []
        self.failed: list[object] = []
        self.stop_flag = threading.Event()
        self.sent = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            p = Producer(
                {
                    "bootstrap.servers": self.bootstrap,
                    "acks": "all",
                    "enable.idempotence": True,
                    "linger.ms": 5,
                    "message.timeout.ms": 300000,
                    # A request to a leader that stopped answering (SIGSTOP) is given up
                    # after this, and retried at the new leader.
                    "request.timeout.ms": 5000,
                    "socket.timeout.ms": 5000,
                    "broker.address.family": "v4",
                }
            )

            def report(err, msg) -> None:
                if err is None:
                    self.acked.append((time.monotonic(), msg.partition(), msg.value()))
                else:
                    self.failed.append(err)

            started = time.monotonic()
            while not self.stop_flag.is_set() and self.sent < self.limit:
                try:
                    p.produce(self.topic, value=b"r%08d" % self.sent, on_delivery=report)
                    self.sent += 1
                except BufferError:
                    p.poll(0.05)
                    continue
                if self.sent % 50 == 0:
                    # At most ``rate`` records/s.
                    p.poll(max(0.0, started + self.sent / self.rate - time.monotonic()))
            assert p.flush(300) == 0
        except BaseException as exc:
            self.error = exc

    def first_ack_after(self, partition: int, since: float) -> float | None:
        """When the first record acknowledged after ``since`` on ``partition`` was; an
        error once the load has ended (nothing more can be acknowledged)."""
        first = None
        for ts, p, _ in reversed(self.acked):
            if ts <= since:
                break
            if p == partition:
                first = ts
        if first is None and not self.is_alive() and not self.stop_flag.is_set():
            raise AssertionError(f"the load ended: {self.sent} records sent, error {self.error!r}")
        return first


def _read_all(bootstrap: str, topic: str, partitions: int) -> Counter[bytes]:
    """Every record of the topic, from the log start to the end, with how often it is there."""
    c = Consumer(
        {"bootstrap.servers": bootstrap, "group.id": "verify", "enable.auto.commit": False, "fetch.wait.max.ms": 100}
    )
    ends = {i: c.get_watermark_offsets(TopicPartition(topic, i), timeout=10)[1] for i in range(partitions)}
    c.assign([TopicPartition(topic, i, 0) for i in range(partitions)])
    seen: Counter[bytes] = Counter()
    pos = dict.fromkeys(range(partitions), 0)
    deadline = time.monotonic() + 120
    while any(pos[i] < ends[i] for i in pos) and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is None or m.error() is not None:
            continue
        seen[_value(m)] += 1
        partition, offset = m.partition(), m.offset()
        assert partition is not None and offset is not None
        pos[partition] = offset + 1
    c.close()
    assert all(pos[i] >= ends[i] for i in pos), (pos, ends)
    return seen


def _ends(bootstrap: str, topic: str, partitions: int) -> list[int]:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "ends"})
    try:
        return [c.get_watermark_offsets(TopicPartition(topic, i), timeout=10)[1] for i in range(partitions)]
    finally:
        c.close()


def _beyond(progress: Callable[[], int], before: int) -> bool:
    return progress() > before


def _kill_loop(c: LocalCluster, topic: str, load: Load, progress: Callable[[], int], rounds: int) -> list[float]:
    """kill -9 the leader of partition 0, wait for an acknowledged produce to it, restart the
    victim and wait for the full ISR; ``rounds`` times. Returns the failover times."""
    took = []
    for r in range(rounds):
        leader = _wait_fully_replicated(c, topic)[0][0]
        before = progress()
        killed = time.monotonic()
        c.broker(leader).kill()
        wait_for(partial(load.first_ack_after, 0, killed), 60, f"round {r}: an ack on partition 0 after the kill")
        first = load.first_ack_after(0, killed)
        assert first is not None
        took.append(first - killed)
        c.broker(leader).start()
        wait_for(partial(_beyond, progress, before), 60, f"round {r}: consumers go on")
        assert load.error is None, load.error
    _wait_fully_replicated(c, topic)
    return took


@pytest.mark.timeout(900)
def test_kill_9_of_the_leader_20_times_under_acks_all_loses_nothing(replicated: LocalCluster, names):
    c = replicated
    topic, group = names("kl"), names("kg")
    _create(c, topic, 3)
    load = Load(c.bootstrap, topic)
    received: list[bytes] = []
    progress = {"count": 0}
    stop = threading.Event()
    errors: list[BaseException] = []

    def consume() -> None:
        try:
            consumer = Consumer(
                {
                    "bootstrap.servers": c.bootstrap,
                    "group.id": group,
                    "auto.offset.reset": "earliest",
                    "broker.address.family": "v4",
                }
            )
            consumer.subscribe([topic])
            while not stop.is_set():
                m = consumer.poll(0.2)
                if m is not None and m.error() is None:
                    received.append(_value(m))
                    progress["count"] += 1
            consumer.close()
        except BaseException as exc:
            errors.append(exc)

    reader = threading.Thread(target=consume, daemon=True)
    load.start()
    reader.start()
    try:
        wait_for(lambda: progress["count"] > 1000, 60, "the group reading")
        took = _kill_loop(c, topic, load, lambda: progress["count"], ROUNDS)
    finally:
        load.stop_flag.set()
        load.join(320)
    assert load.error is None, load.error
    assert not load.failed, load.failed[:5]
    acked = {v for _, _, v in load.acked}
    wait_for(lambda: acked <= set(received), 120, "the group read every acknowledged record")
    stop.set()
    reader.join(30)
    assert not errors, errors
    stored = _read_all(c.bootstrap, topic, 3)
    lost = acked - set(stored)
    twice = [v for v, n in stored.items() if n > 1]
    print(
        f"kill -9 x{ROUNDS}: {len(acked)} records acknowledged, {sum(stored.values())} stored; "
        f"first ack after the kill: median {statistics.median(took):.2f} s, max {max(took):.2f} s"
    )
    assert not lost, f"{len(lost)} acknowledged records lost, e.g. {sorted(lost)[:5]}"
    assert not twice, f"{len(twice)} records stored twice, e.g. {twice[:5]}"
    # Whether a killed leader held records no follower had fetched yet depends on the
    # moment of the kill; test_a_killed_leader_cuts_off_what_only_it_had makes it certain.
    cuts = [line for b in c.brokers for line in b.log_path.read_text().splitlines() if "replica_truncating" in line]
    print(f"{len(cuts)} follower truncations after leader changes, e.g. {cuts[:1]}")


class Acker(threading.Thread):
    """A ShareConsumer with explicit acknowledgement; remembers what it was given and
    which acceptances the broker confirmed (commit_sync without error for the partition),
    with times, and which it may or may not have taken (the commit failed: the leader
    died before or after making it durable)."""

    def __init__(self, bootstrap: str, group: str, topic: str, name: str) -> None:
        super().__init__(name=name, daemon=True)
        self.bootstrap, self.group, self.topic = bootstrap, group, topic
        self.delivered: list[tuple[float, bytes]] = []
        self.confirmed: list[tuple[float, bytes]] = []
        self.uncertain: set[bytes] = set()
        self.stop_flag = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            sc = ShareConsumer(
                {
                    "bootstrap.servers": self.bootstrap,
                    "group.id": self.group,
                    "share.acknowledgement.mode": "explicit",
                    "broker.address.family": "v4",
                }
            )
            sc.subscribe([self.topic])
            while not self.stop_flag.is_set():
                batch = [m for m in sc.poll(0.5) if m.error() is None]
                if not batch:
                    continue
                now = time.monotonic()
                for m in batch:
                    self.delivered.append((now, _value(m)))
                    sc.acknowledge(m)
                try:
                    results = sc.commit_sync(15)
                except KafkaException:
                    self.uncertain.update(_value(m) for m in batch)
                    continue
                failed = {(tp.topic, tp.partition) for tp, err in results.items() if err is not None}
                done = time.monotonic()
                for m in batch:
                    if (m.topic(), m.partition()) not in failed:
                        self.confirmed.append((done, _value(m)))
                    else:
                        self.uncertain.add(_value(m))
            sc.close()
        except BaseException as exc:
            self.error = exc


@pytest.mark.timeout(900)
def test_kill_9_of_the_leader_20_times_under_a_share_group(replicated: LocalCluster, names):
    """The share-partition's leader moves 20 times: records it had handed out become
    available again elsewhere, and none whose acceptance was confirmed comes back."""
    c = replicated
    topic, group = names("sk"), names("sg")
    _create(c, topic, 3)
    set_group_configs(c.bootstrap, group, {"share.auto.offset.reset": "earliest"})
    # A rate the share group keeps up with (each batch's acceptance is confirmed before the next poll).
    load = Load(c.bootstrap, topic, rate=2_000)
    workers = [Acker(c.bootstrap, group, topic, f"acker-{i}") for i in range(3)]

    def count() -> int:
        return sum(len(w.confirmed) for w in workers)

    load.start()
    for w in workers:
        w.start()
    try:
        wait_for(lambda: count() > 1000, 90, "the share group accepting")
        took = _kill_loop(c, topic, load, count, ROUNDS)
        load.stop_flag.set()
        load.join(320)
        assert load.error is None, load.error
        assert not load.failed, load.failed[:5]
        acked = {v for _, _, v in load.acked}

        def missing() -> set[bytes]:
            # A record whose acceptance failed to be confirmed may have been taken all the
            # same (the leader died after making it durable): it is not delivered again.
            confirmed = {v for w in workers for _, v in w.confirmed}
            uncertain = {v for w in workers for v in w.uncertain}
            return acked - confirmed - uncertain

        deadline = time.monotonic() + 180
        while missing() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not missing(), f"{len(missing())} of {len(acked)} acknowledged records never delivered"
        # Every record of the log is accepted or archived: the share-partitions' start offsets
        # are at the log ends.
        with WireClient(c.bootstrap) as admin:
            ends = dict(enumerate(_ends(c.bootstrap, topic, 3)))

            def starts() -> dict[int, int]:
                g = admin.describe_share_group_offsets(group, {topic: [0, 1, 2]})
                return {p.partition_index: p.start_offset for t in g.topics for p in t.partitions}

            wait_for(lambda: starts() == ends, 60, f"share-partition start offsets at the log ends {ends}")
    finally:
        load.stop_flag.set()
        for w in workers:
            w.stop_flag.set()
        for w in workers:
            w.join(30)
    for w in workers:
        assert w.error is None, w.error
    first_confirmed: dict[bytes, float] = {}
    for w in workers:
        for ts, v in w.confirmed:
            first_confirmed[v] = min(ts, first_confirmed.get(v, ts))
    again: defaultdict[bytes, int] = defaultdict(int)
    for w in workers:
        for ts, v in w.delivered:
            if v in first_confirmed and ts > first_confirmed[v]:
                again[v] += 1
    delivered = Counter(v for w in workers for _, v in w.delivered)
    print(
        f"share group, kill -9 x{ROUNDS}: {len(first_confirmed)} records accepted, "
        f"{sum(delivered.values()) - len(delivered)} redeliveries of unconfirmed records; "
        f"first ack after the kill: median {statistics.median(took):.2f} s, max {max(took):.2f} s"
    )
    assert not again, f"{len(again)} records delivered again after their acceptance was confirmed"
    uncertain = {v for w in workers for v in w.uncertain} - set(first_confirmed)
    print(f"{len(uncertain)} records whose acceptance was not confirmed (the leader died) and not delivered again")


def _produce_acks_1(bootstrap: str, topic: str, value: bytes) -> int:
    """One record written straight to the broker at ``bootstrap`` with acks=1; its error code."""
    from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
    from broker.protocol.messages.produce_response import ProduceResponse
    from broker.protocol.records import build_batch

    batch = build_batch([(None, value, (), int(time.time() * 1000))])
    request = ProduceRequest(
        acks=1,
        timeout_ms=5000,
        topic_data=[TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=0, records=batch)])],
    )
    with WireClient(bootstrap) as client:
        conn = client.bootstrap_connection()
        conn.send(request, 9)
        answer = conn.receive(timeout=30).body
    assert isinstance(answer, ProduceResponse)
    return answer.responses[0].partition_responses[0].error_code


@pytest.mark.timeout(300)
def test_a_killed_leader_cuts_off_what_only_it_had(replicated: LocalCluster, names):
    """Both followers paused, the leader takes an acks=1 record and is killed before
    anyone fetched it; a follower leads. The old leader restarts with that record at
    the end of its log: it asks the new leader where their logs diverge
    (OffsetForLeaderEpoch), cuts the record off and follows. Nothing acks=all lost."""
    c = replicated
    topic = names("cut")
    _create(c, topic, 1)
    load = Load(c.bootstrap, topic, rate=2_000)
    load.start()
    try:
        wait_for(lambda: len(load.acked) > 500, 60, "producing")
        leader = _wait_fully_replicated(c, topic)[0][0]
        victim = c.broker(leader)
        followers = [b for b in c.brokers if b is not victim]
        for b in followers:
            assert b.process is not None
            b.process.send_signal(signal.SIGSTOP)
        try:
            # A fetch a follower sent just before it stopped can still be parked at
            # the leader (replica.fetch.wait.max.ms, 500 ms); the record would go out
            # in its answer and live on. Past that wait no follower has a fetch open.
            time.sleep(1.0)
            code = _produce_acks_1(victim.bootstrap, topic, b"alone")
            victim.kill()
        finally:
            for b in followers:
                assert b.process is not None
                b.process.send_signal(signal.SIGCONT)
        assert code == ErrorCode.NONE, code
        wait_for(lambda: _state(c, topic)[0][0] not in (leader, -1), 60, "a new leader")
        resumed = time.monotonic()
        wait_for(lambda: load.first_ack_after(0, resumed), 60, "acks from the new leader")
        victim.start()
        _wait_fully_replicated(c, topic)
    finally:
        load.stop_flag.set()
        load.join(320)
    assert load.error is None and not load.failed
    cuts = [line for line in victim.log_path.read_text().splitlines() if "replica_truncating" in line]
    assert cuts, "the old leader kept a record only it had"
    stored = _read_all(c.bootstrap, topic, 1)
    acked = {v for _, _, v in load.acked}
    assert not acked - set(stored), "acknowledged records lost"
    assert b"alone" not in stored
    assert not [v for v, n in stored.items() if n > 1]


@pytest.mark.timeout(300)
def test_leader_paused_past_its_lease_is_fenced_and_loses_nothing(replicated: LocalCluster, names):
    """SIGSTOP the leader for longer than its lease: another replica leads, acks=all
    producing goes on there; SIGCONT: the old leader answers nothing as leader (stale
    epoch), truncates what it had alone and follows; every acknowledged record is there."""
    from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
    from broker.protocol.messages.produce_response import ProduceResponse
    from broker.protocol.records import build_batch

    c = replicated
    topic = names("ps")
    _create(c, topic, 1)
    load = Load(c.bootstrap, topic)
    load.start()
    try:
        wait_for(lambda: len(load.acked) > 500, 60, "producing")
        leader = _wait_fully_replicated(c, topic)[0][0]
        victim = c.broker(leader)
        assert victim.process is not None
        with WireClient(victim.bootstrap) as client:
            conn = client.bootstrap_connection()  # versions negotiated while it runs
            victim.process.send_signal(signal.SIGSTOP)
            paused = time.monotonic()
            try:
                wait_for(lambda: load.first_ack_after(0, paused + 1), 60, "acks from the new leader")
                wait_for(lambda: _state(c, topic)[0][0] not in (leader, -1), 30, "a new leader")
                time.sleep(max(0.0, paused + 5 - time.monotonic()))  # well past the 3 s lease
                # A write straight to the paused broker, read as soon as it resumes.
                batch = build_batch([(None, b"stale", (), int(time.time() * 1000))])
                request = ProduceRequest(
                    acks=1,
                    timeout_ms=5000,
                    topic_data=[
                        TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=0, records=batch)])
                    ],
                )
                conn.send(request, 9)
            finally:
                victim.process.send_signal(signal.SIGCONT)
            answer = conn.receive(timeout=30).body
        assert isinstance(answer, ProduceResponse)
        code = answer.responses[0].partition_responses[0].error_code
        assert code in (ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.FENCED_LEADER_EPOCH), code
        _wait_fully_replicated(c, topic)  # it follows again and catches up
    finally:
        load.stop_flag.set()
        load.join(320)
    assert load.error is None and not load.failed
    stored = _read_all(c.bootstrap, topic, 1)
    acked = {v for _, _, v in load.acked}
    assert not acked - set(stored), "acknowledged records lost"
    assert b"stale" not in stored
    assert not [v for v, n in stored.items() if n > 1]
