"""The clients of a fault run, all at once, each operation written to the history.

Runs inside the client namespace (``ip netns exec <clients> python -m
tests.faults.workload ...``) with real clients (confluent-kafka / librdkafka):

- **idempotent writers** (``i0``, ``i1`` on ``idem``; ``q0`` on ``queue``): acks=all,
  enable.idempotence; value ``<writer>:<seq>``. Event ``produce``: writer, seq,
  partition, offset, ``ok`` (acknowledged) or the error (outcome unknown), ``t0``/``t``.
- **an acks=1 writer** (``a1`` on ``idem``): what such a writer loses is measured, not
  a violation (Kafka promises nothing more for acks=1).
- **transactional writers** (``t0``, ``t1``): 2-6 records over the partitions of
  ``txn-a`` and ``txn-b`` each, committed (4 in 5) or aborted on purpose. Event
  ``txn``: its values and ``outcome`` commit / abort (each confirmed by the client) or
  unknown.
- **a read_committed reader** (``rc``) of both transactional topics: event ``read``.
- **two consumer groups** on ``idem``, one classic, one KIP-848 (``group.protocol=
  consumer``), two members each, committing their positions every second and on
  revocation: events ``gread`` and ``commit``; an observer reads the committed
  offsets (``committed``).
- **a share group** (``sg``, three members, explicit acknowledgement) on ``queue``,
  accepting most records and releasing or rejecting some: events ``deliver``
  (delivery count), ``ack`` (the type, when handed to the client) and ``ackres`` (the
  broker's answer, from the acknowledgement commit callback).
- **a probe**: a record to each partition of ``probe`` every 250 ms, acks=all, read
  back by a consumer (``probe-ack``, ``probe-read``): recovery after each fault is
  measured on it.
- ``meta`` every 2 s: partition leaders (the nemesis aims some faults at them).

On ``drain`` (a line on stdin) the writers stop, the readers and the share group
finish what is in the log, the whole log is read once more (``final``) and the share
group's start offsets are taken (``share-offsets``); then ``done``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from confluent_kafka import (
    OFFSET_BEGINNING,
    OFFSET_END,
    AcknowledgeType,
    Consumer,
    KafkaError,
    KafkaException,
    Producer,
    ShareConsumer,
    TopicPartition,
)
from confluent_kafka.admin import (
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    NewTopic,
    ResourceType,
)

from tests.faults.history import History

PARTITIONS = 3
TOPICS = ("idem", "queue", "txn-a", "txn-b", "probe")
TXN_TOPICS = ("txn-a", "txn-b")
GROUPS = {"g-classic": "classic", "g-consumer": "consumer"}
SHARE_GROUP = "sg"
# Kafka's smallest allowed lock (group.share.min.record.lock.duration.ms): records whose
# acknowledgement was lost come back soonest.
SHARE_LOCK_MS = 15000
# What a share member does with a record: accept most, release and reject some.
ACK_WEIGHTS = ((AcknowledgeType.ACCEPT, 90), (AcknowledgeType.RELEASE, 6), (AcknowledgeType.REJECT, 4))
ACK_NAMES = {AcknowledgeType.ACCEPT: "accept", AcknowledgeType.RELEASE: "release", AcknowledgeType.REJECT: "reject"}
# librdkafka: a record not acknowledged within this is reported failed (its outcome is unknown).
MESSAGE_TIMEOUT_MS = 60000
QUIET = {"log_level": 3}
# Bounds of the drain (seconds): readers catching up, the share group finishing.
CATCH_UP_S = 120.0
SHARE_FINISH_S = 180.0


def pace(producer: Producer, until: float) -> None:
    """Serve the producer's callbacks until ``until`` (poll returns early once it served one)."""
    while True:
        left = until - time.monotonic()
        if left <= 0:
            producer.poll(0)
            return
        producer.poll(left)


def _text(m: Any) -> str:
    """A record's value as text (the workload writes no null values)."""
    value = m.value()
    return "" if value is None else value.decode()


def _partition(m: Any) -> int:
    p = m.partition()
    assert p is not None, "a consumed record has a partition"
    return int(p)


def _offset(m: Any) -> int:
    off = m.offset()
    assert off is not None, "a consumed record has an offset"
    return int(off)


class Worker(threading.Thread):
    """A client loop in a thread; ``halt`` asks it to stop, ``failure`` keeps what killed it."""

    def __init__(self, name: str, history: History, bootstrap: str, seed: int) -> None:
        super().__init__(name=name, daemon=True)
        self.history, self.bootstrap = history, bootstrap
        self.rng = random.Random(f"{seed}:{name}")
        self.halt = threading.Event()
        self.failure: str | None = None

    def run(self) -> None:
        try:
            self.loop()
        except Exception:
            self.failure = traceback.format_exc()
            self.history.add("worker-failed", c=self.name, err=self.failure[-2000:])

    def loop(self) -> None:
        raise NotImplementedError

    def config(self, **extra: Any) -> dict[str, Any]:
        return {"bootstrap.servers": self.bootstrap, "client.id": self.name, **QUIET, **extra}


# ---------------------------------------------------------------------- writers


class Writer(Worker):
    """``rate`` records/s to ``topic`` with acks=all and idempotence (or acks=1 without)."""

    def __init__(self, name: str, history: History, bootstrap: str, seed: int, topic: str, rate: float, acks: str):
        super().__init__(name, history, bootstrap, seed)
        self.topic, self.rate, self.acks = topic, rate, acks
        self.incarnation = 0
        self.fatal = threading.Event()

    def _producer(self) -> Producer:
        def on_error(err: KafkaError) -> None:
            if err.fatal():
                self.history.add("writer-fatal", c=self.name, err=str(err))
                self.fatal.set()

        extra: dict[str, Any] = {"acks": self.acks, "message.timeout.ms": MESSAGE_TIMEOUT_MS, "linger.ms": 5}
        if self.acks == "all":
            extra["enable.idempotence"] = True
            # The idempotence log (epoch bumps, duplicate and out-of-order sequences,
            # retries) in client-<role>.log: what a duplicate's two writes were.
            extra.update({"debug": "eos", "log_level": 7})
        return Producer(self.config(error_cb=on_error, **extra))

    def loop(self) -> None:
        producer = self._producer()
        wid = f"{self.name}.{self.incarnation}"
        seq = 0
        started = time.monotonic()
        while not self.halt.is_set():
            if self.fatal.is_set():
                # A fatal idempotence error: this producer is done; a new one (new id) goes on.
                producer.flush(5)
                self.incarnation += 1
                self.fatal.clear()
                producer, wid, seq = self._producer(), f"{self.name}.{self.incarnation}", 0
                started = time.monotonic()
            value = f"{wid}:{seq}"
            t0 = time.monotonic()

            def report(err: Any, msg: Any, wid: str = wid, seq: int = seq, t0: float = t0) -> None:
                if err is None:
                    self.history.add(
                        "produce", w=wid, seq=seq, topic=self.topic, p=msg.partition(), off=msg.offset(), ok=True, t0=t0
                    )
                else:
                    self.history.add("produce", w=wid, seq=seq, topic=self.topic, ok=False, err=str(err), t0=t0)

            try:
                producer.produce(self.topic, value=value.encode(), key=str(seq % 64).encode(), on_delivery=report)
            except BufferError:
                producer.poll(0.1)
                continue
            seq += 1
            pace(producer, started + seq / self.rate)
        left = producer.flush(MESSAGE_TIMEOUT_MS / 1000 + 5)
        self.history.add("writer-stopped", c=self.name, unflushed=left)


class TxnWriter(Worker):
    """Transactions of 2-6 records over ``txn-a`` and ``txn-b``; one in five aborted on purpose."""

    def __init__(self, name: str, history: History, bootstrap: str, seed: int, rate: float) -> None:
        super().__init__(name, history, bootstrap, seed)
        self.rate = rate
        self.incarnation = 0

    def _producer(self) -> Producer:
        p = Producer(
            self.config(
                **{
                    "transactional.id": f"fault-{self.name}",
                    "transaction.timeout.ms": 60000,
                    "message.timeout.ms": MESSAGE_TIMEOUT_MS,
                    "linger.ms": 5,
                }
            )
        )
        while not self.halt.is_set():
            try:
                p.init_transactions(30)
                return p
            except KafkaException as exc:
                self.history.add("txn-init-failed", c=self.name, err=str(exc.args[0]))
                if exc.args[0].fatal():
                    p = Producer(self.config(**{"transactional.id": f"fault-{self.name}", "linger.ms": 5}))
                time.sleep(1)
        return p

    def loop(self) -> None:
        producer = self._producer()
        n = 0
        while not self.halt.is_set():
            wid = f"{self.name}.{self.incarnation}"
            values = [
                (self.rng.choice(TXN_TOPICS), self.rng.randrange(PARTITIONS), f"{wid}:{n}:{i}")
                for i in range(self.rng.randint(2, 6))
            ]
            abort = self.rng.random() < 0.2
            t0 = time.monotonic()
            outcome, err, restart = self._one(producer, values, abort)
            self.history.add(
                "txn", w=wid, n=n, values=[[t, p, v] for t, p, v in values], outcome=outcome, err=err, t0=t0
            )
            n += 1
            if restart:
                self.incarnation += 1
                n = 0
                producer = self._producer()
            time.sleep(self.rng.uniform(0, 2 / self.rate))

    def _one(self, p: Producer, values: list[tuple[str, int, str]], abort: bool) -> tuple[str, str | None, bool]:
        """Run one transaction: (outcome, error, whether the producer must be replaced)."""
        try:
            p.begin_transaction()
            for topic, partition, value in values:
                while True:
                    try:
                        p.produce(topic, value=value.encode(), partition=partition)
                        break
                    except BufferError:
                        p.poll(0.1)
                p.poll(0)
            if abort:
                p.abort_transaction(60)
                return "abort", None, False
            for _attempt in range(5):
                try:
                    p.commit_transaction(60)
                    return "commit", None, False
                except KafkaException as exc:
                    if not exc.args[0].retriable() or exc.args[0].txn_requires_abort():
                        raise
            return "unknown", "commit retries exhausted", True
        except KafkaException as exc:
            e = exc.args[0]
            if e.txn_requires_abort():
                try:
                    p.abort_transaction(60)
                    return "abort", str(e), False
                except KafkaException as exc2:
                    return "unknown", f"{e}; abort: {exc2.args[0]}", True
            return "unknown", str(e), True


# ---------------------------------------------------------------------- readers


class CommittedReader(Worker):
    """read_committed, every partition of the transactional topics from the start."""

    def __init__(self, name: str, history: History, bootstrap: str, seed: int) -> None:
        super().__init__(name, history, bootstrap, seed)
        self.positions: dict[tuple[str, int], int] = {}

    def loop(self) -> None:
        c = Consumer(
            self.config(
                **{"group.id": f"{self.name}-reader", "enable.auto.commit": False, "isolation.level": "read_committed"}
            )
        )
        tps = [TopicPartition(t, p, OFFSET_BEGINNING) for t in TXN_TOPICS for p in range(PARTITIONS)]
        c.assign(tps)
        last = 0.0
        try:
            while not self.halt.is_set():
                for m in c.consume(500, 0.5):
                    if m.error() is not None:
                        continue
                    self.history.add("read", c=self.name, topic=m.topic(), p=m.partition(), off=m.offset(), v=_text(m))
                for tp in c.position([TopicPartition(t, p) for t in TXN_TOPICS for p in range(PARTITIONS)]):
                    if tp.offset >= 0:
                        self.positions[(tp.topic, tp.partition)] = tp.offset
                if time.monotonic() - last >= 1.0:
                    self.history.add("rc-pos", pos={f"{t}:{p}": o for (t, p), o in self.positions.items()})
                    last = time.monotonic()
        finally:
            c.close()


class GroupMember(Worker):
    """A member of a consumer group on ``idem``: commits its positions every second and
    when partitions are revoked (synchronously, each commit recorded)."""

    def __init__(self, name: str, history: History, bootstrap: str, seed: int, group: str, protocol: str) -> None:
        super().__init__(name, history, bootstrap, seed)
        self.group, self.protocol = group, protocol
        self.next: dict[int, int] = {}

    def _commit(self, c: Consumer, partitions: list[int], why: str) -> None:
        offsets = {p: self.next[p] for p in partitions if p in self.next}
        if not offsets:
            return
        t0 = time.monotonic()
        try:
            result = c.commit(offsets=[TopicPartition("idem", p, o) for p, o in offsets.items()], asynchronous=False)
        except KafkaException as exc:
            self.history.add("commit", g=self.group, c=self.name, offs=offsets, ok=False, err=str(exc.args[0]), t0=t0)
            return
        good = {tp.partition: tp.offset for tp in result or () if tp.error is None}
        bad = {tp.partition: str(tp.error) for tp in result or () if tp.error is not None}
        if good:
            self.history.add("commit", g=self.group, c=self.name, offs=good, ok=True, why=why, t0=t0)
        if bad:
            self.history.add("commit", g=self.group, c=self.name, offs={p: offsets[p] for p in bad}, ok=False, err=bad)

    def loop(self) -> None:
        conf = self.config(
            **{
                "group.id": self.group,
                "group.protocol": self.protocol,
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
            }
        )
        if self.protocol == "classic":
            conf.update({"session.timeout.ms": 10000, "heartbeat.interval.ms": 1000})
        # The group protocol's own log (joins, assignments, offset fetches and commits) in
        # client-<role>.log, so a member that stops reading can be told apart from one
        # that is never handed a position.
        conf.update({"debug": "cgrp", "log_level": 7})
        c = Consumer(conf)

        def on_assign(consumer: Consumer, tps: list[TopicPartition]) -> None:
            self.history.add("assign", g=self.group, c=self.name, ps=[tp.partition for tp in tps])

        def on_revoke(consumer: Consumer, tps: list[TopicPartition]) -> None:
            self._commit(consumer, [tp.partition for tp in tps], "revoke")
            for tp in tps:
                self.next.pop(tp.partition, None)
            self.history.add("revoke", g=self.group, c=self.name, ps=[tp.partition for tp in tps])

        def on_lost(consumer: Consumer, tps: list[TopicPartition]) -> None:
            for tp in tps:
                self.next.pop(tp.partition, None)
            self.history.add("lost", g=self.group, c=self.name, ps=[tp.partition for tp in tps])

        c.subscribe(["idem"], on_assign=on_assign, on_revoke=on_revoke, on_lost=on_lost)
        last_commit = time.monotonic()
        try:
            while not self.halt.is_set():
                for m in c.consume(500, 0.5):
                    if m.error() is not None:
                        self.history.add("gread-error", g=self.group, c=self.name, err=str(m.error())[:300])
                        continue
                    self.history.add("gread", g=self.group, c=self.name, p=m.partition(), off=m.offset())
                    self.next[_partition(m)] = _offset(m) + 1
                if time.monotonic() - last_commit >= 1.0:
                    self._commit(c, list(self.next), "periodic")
                    last_commit = time.monotonic()
            self._commit(c, list(self.next), "final")
        finally:
            c.close()


class OffsetsObserver(Worker):
    """Reads both groups' committed offsets every 1.5 s (event ``committed``).

    With the project's protocol client (OffsetFetch to the group coordinator), not
    librdkafka's AdminClient: its list_consumer_group_offsets crashed the process
    (SIGSEGV in librdkafka 2.16) when the coordinator moved."""

    def loop(self) -> None:
        from broker.admin.client import AdminClient as WireAdmin

        admin = WireAdmin(self.bootstrap, timeout=10)
        while not self.halt.is_set():
            for group in GROUPS:
                t0 = time.monotonic()
                try:
                    fetched = admin.fetch_offsets(group)
                except Exception as exc:
                    self.history.add("committed-failed", g=group, err=str(exc)[:300], t0=t0)
                    admin.close()
                    continue
                # No committed offset yet: -1.
                offs = {p: fetched.get(("idem", p), (-1, -1))[0] for p in range(PARTITIONS)}
                self.history.add("committed", g=group, offs=offs, t0=t0)
            self.halt.wait(1.5)


class ShareMember(Worker):
    """A share-group member in explicit mode: every record acknowledged right away."""

    def __init__(self, name: str, history: History, bootstrap: str, seed: int) -> None:
        super().__init__(name, history, bootstrap, seed)
        self.accept_only = threading.Event()

    def loop(self) -> None:
        sc = ShareConsumer(self.config(**{"group.id": SHARE_GROUP, "share.acknowledgement.mode": "explicit"}))

        def on_ack(offsets: dict[TopicPartition, set[int]], exc: KafkaException | None) -> None:
            err = None if exc is None else str(exc.args[0] if exc.args else exc)
            for tp, offs in offsets.items():
                err_tp = err if err is not None else (str(tp.error) if tp.error is not None else None)
                self.history.add(
                    "ackres",
                    c=self.name,
                    topic=tp.topic,
                    p=tp.partition,
                    offs=sorted(offs),
                    ok=err_tp is None,
                    err=err_tp,
                )

        sc.set_acknowledgement_commit_callback(on_ack)
        sc.subscribe(["queue"])
        types = [t for t, _ in ACK_WEIGHTS]
        weights = [w for _, w in ACK_WEIGHTS]
        try:
            while not self.halt.is_set():
                try:
                    batch = sc.poll(0.5)
                except KafkaException as exc:
                    self.history.add("share-poll-failed", c=self.name, err=str(exc.args[0]))
                    time.sleep(0.5)
                    continue
                acked = 0
                for m in batch:
                    if m.error() is not None:
                        continue
                    self.history.add(
                        "deliver",
                        c=self.name,
                        p=m.partition(),
                        off=m.offset(),
                        dc=m.delivery_count(),
                        v=_text(m),
                    )
                    kind = AcknowledgeType.ACCEPT if self.accept_only.is_set() else self.rng.choices(types, weights)[0]
                    self.history.add("ack", c=self.name, p=m.partition(), off=m.offset(), type=ACK_NAMES[kind])
                    sc.acknowledge(m, kind)
                    acked += 1
                if acked:
                    try:
                        sc.commit_sync(15)
                    except KafkaException as exc:
                        self.history.add("share-commit-failed", c=self.name, err=str(exc.args[0]))
        finally:
            try:
                sc.close()
            except KafkaException:
                pass


class Probe(Worker):
    """A record to every partition of ``probe`` each 250 ms, read back: recovery's measure."""

    def __init__(self, name: str, history: History, bootstrap: str, seed: int) -> None:
        super().__init__(name, history, bootstrap, seed)
        self.reader_ready = threading.Event()

    def loop(self) -> None:
        reader = threading.Thread(target=self._read, name="probe-reader", daemon=True)
        reader.start()
        self.reader_ready.wait(60)
        p = Producer(self.config(**{"acks": "all", "linger.ms": 0, "message.timeout.ms": 10000}))
        n = 0
        while not self.halt.is_set():
            t0 = time.monotonic()
            for part in range(PARTITIONS):

                def report(err: Any, msg: Any, n: int = n, part: int = part, t0: float = t0) -> None:
                    self.history.add("probe-ack", n=n, p=part, ok=err is None, t0=t0)

                try:
                    p.produce("probe", value=f"{n}:{part}".encode(), partition=part, on_delivery=report)
                except BufferError:
                    pass
            n += 1
            pace(p, t0 + 0.25)
        p.flush(15)
        reader.join(15)

    def _read(self) -> None:
        c = Consumer(self.config(**{"group.id": "probe-reader", "enable.auto.commit": False}))
        c.assign([TopicPartition("probe", p, OFFSET_END) for p in range(PARTITIONS)])
        self.reader_ready.set()
        try:
            while not self.halt.is_set():
                for m in c.consume(100, 0.2):
                    if m.error() is None:
                        n, part = _text(m).split(":")
                        self.history.add("probe-read", n=int(n), p=int(part))
        finally:
            c.close()


class MetaWatcher(Worker):
    def loop(self) -> None:
        admin = AdminClient(self.config())
        while not self.halt.is_set():
            try:
                md = admin.list_topics(timeout=5)
                leaders = {
                    f"{t}:{p}": pm.leader for t in TOPICS if t in md.topics for p, pm in md.topics[t].partitions.items()
                }
                self.history.add("meta", leaders=leaders, brokers=sorted(md.brokers), controller=md.controller_id)
            except Exception as exc:
                self.history.add("meta-failed", err=str(exc)[:300])
            self.halt.wait(2.0)


# ---------------------------------------------------------------------- setup and drain


def retry(what: str, fn: Callable[[], Any], timeout: float, history: History) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return fn()
        except Exception as exc:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} failed for {timeout} s: {exc}") from exc
            history.add("setup-retry", what=what, err=str(exc)[:300])
            time.sleep(1)


def setup(bootstrap: str, history: History) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap, **QUIET})

    def three_brokers() -> None:
        md = admin.list_topics(timeout=5)
        if len(md.brokers) < 3:
            raise RuntimeError(f"{len(md.brokers)} brokers")

    retry("waiting for 3 brokers", three_brokers, 180, history)

    def create() -> None:
        new = [
            NewTopic(t, num_partitions=PARTITIONS, replication_factor=3, config={"min.insync.replicas": "2"})
            for t in TOPICS
        ]
        for future in admin.create_topics(new, request_timeout=30).values():
            try:
                future.result(40)
            except KafkaException as exc:
                if exc.args[0].code() != KafkaError.TOPIC_ALREADY_EXISTS:
                    raise

    retry("creating topics", create, 120, history)

    def replicated() -> None:
        md = admin.list_topics(timeout=5)
        for t in TOPICS:
            for p, pm in md.topics[t].partitions.items():
                if pm.leader < 0 or len(pm.isrs) < 3:
                    raise RuntimeError(f"{t}-{p}: leader {pm.leader}, isr {pm.isrs}")

    retry("full ISRs", replicated, 120, history)
    resource = ConfigResource(
        ResourceType.GROUP,
        SHARE_GROUP,
        incremental_configs=[
            ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET),
            ConfigEntry(
                "share.record.lock.duration.ms", str(SHARE_LOCK_MS), incremental_operation=AlterConfigOpType.SET
            ),
        ],
    )
    retry(
        "share group configs",
        lambda: admin.incremental_alter_configs([resource])[resource].result(30),
        120,
        history,
    )


def end_offsets(bootstrap: str, topics: tuple[str, ...]) -> dict[tuple[str, int], int]:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "fault-inspector", **QUIET})
    try:
        return {
            (t, p): c.get_watermark_offsets(TopicPartition(t, p), timeout=10, cached=False)[1]
            for t in topics
            for p in range(PARTITIONS)
        }
    finally:
        c.close()


def final_read(bootstrap: str, topic: str, isolation: str, history: History) -> None:
    """Every record of ``topic`` as a fresh consumer reads it now (event ``final``)."""
    ends = retry("end offsets", lambda: end_offsets(bootstrap, (topic,)), 120, history)
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"fault-final-{topic}-{isolation}",
            "enable.auto.commit": False,
            "isolation.level": isolation,
            **QUIET,
        }
    )
    records: dict[int, list[list[Any]]] = {p: [] for p in range(PARTITIONS)}
    c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(PARTITIONS)])
    deadline = time.monotonic() + CATCH_UP_S
    done: set[int] = {p for p in range(PARTITIONS) if ends[(topic, p)] == 0}
    try:
        while len(done) < PARTITIONS and time.monotonic() < deadline:
            for m in c.consume(1000, 0.5):
                if m.error() is None:
                    records[_partition(m)].append([m.offset(), _text(m)])
            for tp in c.position([TopicPartition(topic, p) for p in range(PARTITIONS)]):
                if tp.offset >= ends[(topic, tp.partition)]:
                    done.add(tp.partition)
    finally:
        c.close()
    for p in range(PARTITIONS):
        history.add(
            "final", topic=topic, p=p, iso=isolation, end=ends[(topic, p)], complete=p in done, records=records[p]
        )


def wait_for(what: str, check: Callable[[], bool], timeout: float, history: History) -> bool:
    deadline = time.monotonic() + timeout
    t0 = time.monotonic()
    while time.monotonic() < deadline:
        try:
            if check():
                history.add("drained", what=what, seconds=round(time.monotonic() - t0, 2))
                return True
        except Exception as exc:
            history.add("drain-retry", what=what, err=str(exc)[:300])
        time.sleep(1)
    history.add("drain-timeout", what=what, seconds=timeout)
    return False


def share_start_offsets(bootstrap: str) -> dict[int, int]:
    from broker.admin.client import AdminClient as WireAdmin

    with WireAdmin(bootstrap, timeout=10) as admin:
        group = admin.describe_share_group_offsets(SHARE_GROUP, {"queue": list(range(PARTITIONS))})
    out = {}
    for t in group.topics:
        for p in t.partitions:
            if p.error_code == 0:
                out[p.partition_index] = p.start_offset
    return out


ROLES = (
    "i0",
    "i1",
    "a1",
    "q0",
    "t0",
    "t1",
    "rc",
    *(f"{group}-{i}" for group in GROUPS for i in (0, 1)),
    "observer",
    "s0",
    "s1",
    "s2",
    "probe",
    "meta",
)
WRITER_ROLES = ("i0", "i1", "a1", "q0", "t0", "t1")
SHARE_ROLES = ("s0", "s1", "s2")


def make_worker(role: str, history: History, b: str, seed: int, rate: float) -> Worker:
    writers = {"i0": ("idem", rate, "all"), "i1": ("idem", rate, "all"), "a1": ("idem", rate / 2, "1")}
    writers["q0"] = ("queue", rate, "all")
    if role in writers:
        topic, r, acks = writers[role]
        return Writer(role, history, b, seed, topic, r, acks)
    if role in ("t0", "t1"):
        return TxnWriter(role, history, b, seed, rate / 10)
    if role == "rc":
        return CommittedReader(role, history, b, seed)
    for group, protocol in GROUPS.items():
        if role.startswith(group + "-"):
            return GroupMember(role, history, b, seed, group, protocol)
    if role == "observer":
        return OffsetsObserver(role, history, b, seed)
    if role in SHARE_ROLES:
        return ShareMember(role, history, b, seed)
    if role == "probe":
        return Probe(role, history, b, seed)
    if role == "meta":
        return MetaWatcher(role, history, b, seed)
    raise SystemExit(f"unknown role {role}")


def run_role(args: argparse.Namespace) -> None:
    """One client in this process; ``stop`` (or the end of stdin) stops it."""
    history = History(args.history)
    worker = make_worker(args.role, history, args.bootstrap, args.seed, args.rate)
    if isinstance(worker, (Writer, TxnWriter)):
        worker.incarnation = args.incarnation * 100
    history.add("role-start", c=args.role, incarnation=args.incarnation)
    worker.start()
    for line in sys.stdin:
        if line.strip() == "stop":
            break
        if line.strip() == "accept-only" and isinstance(worker, ShareMember):
            worker.accept_only.set()
    worker.halt.set()
    worker.join(MESSAGE_TIMEOUT_MS / 1000 + 30)
    history.add("role-stopped", c=args.role, failure=worker.failure is not None)
    history.close()


class Child:
    def __init__(self, role: str, args: argparse.Namespace, directory: Path) -> None:
        self.role, self.args, self.directory = role, args, directory
        self.incarnation = -1
        self.stopping = False
        self.process: subprocess.Popen[bytes] | None = None
        self.history = directory / f"history-{role}.jsonl"

    def spawn(self) -> None:
        self.incarnation += 1
        a = self.args
        with open(self.directory / f"client-{self.role}.log", "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.faults.workload", "--role", self.role]
                + ["--incarnation", str(self.incarnation), "--bootstrap", a.bootstrap, "--history", str(self.history)]
                + ["--seed", str(a.seed), "--rate", str(a.rate)],
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def send(self, line: str) -> None:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(line.encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def stop(self) -> None:
        self.stopping = True
        self.send("stop")

    def wait(self, timeout: float) -> None:
        assert self.process is not None
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Supervisor:
    """Starts every client in a process of its own, and starts again one that dies (a
    client library crash is recorded as ``client-crashed``, not hidden)."""

    def __init__(self, args: argparse.Namespace, history: History) -> None:
        self.history = history
        directory = args.history.parent
        self.children = {role: Child(role, args, directory) for role in ROLES}
        self._halt = threading.Event()
        self._watch = threading.Thread(target=self._watch_loop, name="supervisor", daemon=True)

    def start(self) -> None:
        for child in self.children.values():
            child.spawn()
        self._watch.start()

    def _watch_loop(self) -> None:
        while not self._halt.wait(0.5):
            for child in self.children.values():
                p = child.process
                if p is None or child.stopping or p.poll() is None:
                    continue
                self.history.add("client-crashed", c=child.role, rc=p.returncode, incarnation=child.incarnation)
                child.spawn()

    def stop(self, roles: tuple[str, ...], timeout: float) -> None:
        for role in roles:
            self.children[role].stop()
        for role in roles:
            self.children[role].wait(timeout)

    def close(self) -> None:
        self._halt.set()
        self.stop(tuple(self.children), 60)


def latest_rc_positions(path: Path) -> dict[tuple[str, int], int]:
    last: dict[str, int] = {}
    try:
        with open(path) as f:
            for line in f:
                if '"rc-pos"' in line:
                    try:
                        last = json.loads(line)["pos"]
                    except ValueError:
                        continue
    except FileNotFoundError:
        pass
    out = {}
    for key, off in last.items():
        t, _, p = key.rpartition(":")
        out[(t, int(p))] = off
    return out


def committed_offsets(bootstrap: str) -> dict[str, dict[int, int]]:
    from broker.admin.client import AdminClient as WireAdmin

    with WireAdmin(bootstrap, timeout=10) as admin:
        return {g: {p: o for (t, p), (o, _e) in admin.fetch_offsets(g).items() if t == "idem"} for g in GROUPS}


def share_finished(bootstrap: str, ends: dict[tuple[str, int], int], files: list[Path]) -> bool:
    """Every record of ``queue`` ended (as the checker sees it): confirmed accepted or
    rejected, at the delivery limit, or below the start offset the broker reports."""
    from tests.faults.checker import share_terminal
    from tests.faults.history import read_events

    events = read_events(*(f for f in files if f.exists()))
    terminal = share_terminal(
        (e for e in events if e["k"] == "deliver"),
        (e for e in events if e["k"] == "ack"),
        (e for e in events if e["k"] == "ackres"),
    )
    starts = share_start_offsets(bootstrap)
    return all(
        (p, off) in terminal or off < starts.get(p, 0) for p in range(PARTITIONS) for off in range(ends[("queue", p)])
    )


def supervise(args: argparse.Namespace) -> None:
    history = History(args.history)
    b = args.bootstrap
    history.add("workload-start", seed=args.seed)
    setup(b, history)
    sup = Supervisor(args, history)
    sup.start()
    history.add("ready")
    history.flush()
    for line in sys.stdin:
        if line.strip() == "drain":
            break
    history.add("drain-start")
    sup.stop(WRITER_ROLES, MESSAGE_TIMEOUT_MS / 1000 + 30)
    for role in SHARE_ROLES:
        sup.children[role].send("accept-only")
    ends = retry("end offsets", lambda: end_offsets(b, ("idem", *TXN_TOPICS, "queue")), 120, history)
    wait_for(
        "groups committed to the end",
        lambda: all(committed_offsets(b)[g].get(p) == ends[("idem", p)] for g in GROUPS for p in range(PARTITIONS)),
        CATCH_UP_S,
        history,
    )
    rc_history = sup.children["rc"].history
    wait_for(
        "read_committed reader at the end",
        lambda: all(
            latest_rc_positions(rc_history).get((t, p), -1) >= ends[(t, p)]
            for t in TXN_TOPICS
            for p in range(PARTITIONS)
        ),
        CATCH_UP_S,
        history,
    )
    share_files = [sup.children[role].history for role in SHARE_ROLES]
    wait_for("share group finished", lambda: share_finished(b, ends, share_files), SHARE_FINISH_S, history)
    sup.close()
    for topic in ("idem", "queue", *TXN_TOPICS):
        final_read(b, topic, "read_uncommitted", history)
    for topic in TXN_TOPICS:
        final_read(b, topic, "read_committed", history)
    try:
        offsets = retry("share start offsets", lambda: share_start_offsets(b), 60, history)
        history.add("share-offsets", offs=offsets, ends={p: ends[("queue", p)] for p in range(PARTITIONS)})
    except RuntimeError as exc:
        history.add("share-offsets-failed", err=str(exc))
    history.add("done")
    history.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--history", type=Path, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--rate", type=float, default=30.0, help="records/s of each writer")
    parser.add_argument("--role", default=None, help="run this one client (the supervisor starts them)")
    parser.add_argument("--incarnation", type=int, default=0)
    args = parser.parse_args()
    if args.role:
        run_role(args)
    else:
        supervise(args)


if __name__ == "__main__":
    main()
