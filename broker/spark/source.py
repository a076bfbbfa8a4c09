"""``kafka-share``: a PySpark streaming source that consumes through a KIP-932 share group.

How a micro-batch flows:

1. Planning (``latestOffset``, in the driver): the share-group member held by
   the driver acknowledges every earlier micro-batch Spark has committed, then
   acquires records with ShareFetch and keeps only the acquired offset ranges.
   The offset it returns is ``{"run": <reader run id>, "seq": <batch number>}``.
2. ``partitions``: the acquired ranges of each topic-partition (split past
   ``maxRecordsPerTask``) with the leader's address, packed into at most
   ``maxTasksPerBatch`` tasks (the session's default parallelism unless set):
   Spark pays a fixed cost per task, so many small partitions run as one task
   per core.
3. ``read`` (executors): plain Fetch of those ranges from the leader, decoded to
   Arrow record batches; the driver never decodes a record.
4. Acknowledgement: Spark calls ``latestOffset(start, limit)`` for micro-batch
   N+1 only after micro-batch N (ending at ``start``) ran and its commit-log
   entry was written, so at that call every batch up to ``start`` is committed
   by the sink and is acknowledged ACCEPT (RELEASE/REJECT for rows marked
   failed). ``commit(end)``, which Spark calls one micro-batch later still, only
   repeats that (it finds nothing left to do). Acknowledging at task end, as an
   earlier Spark share source did, would lose the records of a failed sink.

Guarantee: at-least-once, across Spark driver, executor and broker crashes.
Records of a micro-batch that did not commit are never accepted: the broker
gives them back when the member's session closes (query stop, driver crash:
its connections drop) or when their acquisition lock expires, and they are
delivered again with a higher delivery count. A batch Spark replays from its
checkpoint after a driver restart was planned by the dead run: its records have
already been released, so the replay reads nothing and they come back in new
batches. The sink can therefore see a record more than once; for exactly-once
results make the sink idempotent on ``(topic, partition, offset)`` (see the
README's "Spark" section).

Locks: while a micro-batch runs, the heartbeat thread renews the locks of its
records (Renew, ShareAcknowledge v2) once half the lock duration has passed, so
a batch slower than ``share.record.lock.duration.ms`` does not lose them. A
stopped query (Spark sends SIGTERM to the driver-side reader process, and never
calls ``stop()`` otherwise) closes its share sessions, which releases the
records of the unfinished batch at once, and leaves the group instead of
lingering until its session times out.
"""

from __future__ import annotations

import atexit
import logging
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadLimit, ReadMaxRows, SupportsTriggerAvailableNow
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    IntegerType,
    LongType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

from broker.admin.client import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, AdminError, KafkaApiError
from broker.spark.columns import batch_body, decode_into
from broker.spark.failures import MarkReader, ensure_topic, produce_marks
from broker.spark.fetcher import RangeTask, fetch_batches, pack_tasks, split_ranges
from broker.spark.member import (
    BATCH_OPTIMIZED,
    RECORD_LIMIT,
    REJECT,
    RELEASE,
    RENEW,
    AckRun,
    Acquired,
    ShareMember,
    ack_runs,
)

log = logging.getLogger("broker.spark")

NAME = "kafka-share"
# One ShareFetch asks for at most this many records (the broker hands out whole
# stored batches, so a response can pass it by the rest of one batch).
FETCH_MAX_RECORDS = 50_000
# Rows per Arrow record batch handed to Spark by a task.
ARROW_BATCH_ROWS = 65_536
# A planning round stops acquiring after this long, whatever the budget left, so a
# micro-batch starts even while records keep arriving.
PLAN_MAX_SECONDS = 2.0

_ACTIONS = {"release": RELEASE, "reject": REJECT}


def kafka_schema(include_headers: bool = False) -> StructType:
    """Spark's Kafka source schema (headers only with includeHeaders), plus deliveryCount."""
    fields = [
        StructField("key", BinaryType()),
        StructField("value", BinaryType()),
        StructField("topic", StringType()),
        StructField("partition", IntegerType()),
        StructField("offset", LongType()),
        StructField("timestamp", TimestampType()),
        StructField("timestampType", IntegerType()),
    ]
    if include_headers:
        fields.append(
            StructField(
                "headers",
                ArrayType(StructType([StructField("key", StringType()), StructField("value", BinaryType())])),
            )
        )
    fields.append(StructField("deliveryCount", IntegerType()))
    return StructType(fields)


def _bool(value: str | None, default: bool = False) -> bool:
    if value is None:
        return default
    v = value.strip().lower()
    if v in ("true", "1", "yes"):
        return True
    if v in ("false", "0", "no"):
        return False
    raise ValueError(f"expected true or false, got {value!r}")


@dataclass(frozen=True)
class ShareOptions:
    """The source's options, checked once (names follow Spark's Kafka source)."""

    bootstrap_servers: str
    topics: tuple[str, ...]
    group: str
    max_records_per_trigger: int | None = None
    include_headers: bool = False
    starting_offsets: str | None = None
    max_wait_ms: int = 500
    max_records_per_task: int = 200_000
    # Spark tasks per micro-batch at most (None: the session's default parallelism when
    # known at register(), else one task per partition piece).
    max_tasks_per_batch: int | None = None
    failed_action: int = RELEASE
    failures_topic: str = ""
    client_id: str = "sharebroker-spark"
    fetch_retry_timeout_s: float = 120.0
    assignment_timeout_s: float = 30.0
    available_now_idle_s: float = 10.0
    extra: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> ShareOptions:
        opts = {k.lower(): v for k, v in options.items() if k.lower() != "path"}

        def take(*names: str) -> str | None:
            for n in names:
                if n.lower() in opts:
                    return opts.pop(n.lower())
            return None

        def integer(name: str, default: int | None, low: int = 1, *aliases: str) -> int | None:
            value = take(name, *aliases)
            if value is None:
                return default
            try:
                n = int(value)
            except ValueError:
                raise ValueError(f"option {name}: expected an integer, got {value!r}") from None
            if n < low:
                raise ValueError(f"option {name}: must be at least {low}, got {n}")
            return n

        bootstrap = take("kafka.bootstrap.servers")
        if not bootstrap:
            raise ValueError("option kafka.bootstrap.servers is required")
        subscribe = take("subscribe")
        topics = tuple(t.strip() for t in (subscribe or "").split(",") if t.strip())
        if not topics:
            raise ValueError("option subscribe is required (comma-separated topic names)")
        for unsupported in ("subscribepattern", "assign"):
            if unsupported in opts:
                raise ValueError(f"option {unsupported} is not supported: a share group subscribes to topic names")
        group = take("group.id", "kafka.group.id")
        if not group:
            raise ValueError("option group.id is required: the share group to consume through")
        starting = take("startingOffsets")
        if starting is not None and starting.strip().lower() not in ("earliest", "latest"):
            raise ValueError(f"option startingOffsets: expected earliest or latest, got {starting!r}")
        action = (take("failedRecords") or "release").strip().lower()
        if action not in _ACTIONS:
            raise ValueError(f"option failedRecords: expected release or reject, got {action!r}")
        out = cls(
            bootstrap_servers=bootstrap,
            topics=topics,
            group=group,
            max_records_per_trigger=integer("maxRecordsPerTrigger", None, 1, "maxOffsetsPerTrigger"),
            include_headers=_bool(take("includeHeaders")),
            starting_offsets=None if starting is None else starting.strip().lower(),
            max_wait_ms=integer("maxWaitMs", 500, 0) or 0,
            max_records_per_task=integer("maxRecordsPerTask", 200_000) or 200_000,
            max_tasks_per_batch=integer("maxTasksPerBatch", None),
            failed_action=_ACTIONS[action],
            failures_topic=take("failuresTopic") or f"{group}-spark-failures",
            client_id=take("kafka.client.id") or "sharebroker-spark",
            fetch_retry_timeout_s=(integer("fetchRetryTimeoutMs", 120_000, 0) or 0) / 1000,
            assignment_timeout_s=(integer("assignmentTimeoutMs", 30_000) or 30_000) / 1000,
            available_now_idle_s=(integer("availableNowIdleMs", 10_000, 0) or 0) / 1000,
            extra=opts,
        )
        if out.extra:
            unknown = ", ".join(sorted(out.extra))
            raise ValueError(f"unknown option(s) for {NAME}: {unknown}")
        return out


class SharePartition(InputPartition):
    """One Spark task: acquired ranges of one or more topic-partitions, of micro-batch
    ``seq`` of run ``run``."""

    def __init__(self, tasks: tuple[RangeTask, ...], run: str, seq: int) -> None:
        super().__init__(tuple((t.topic, t.partition, t.ranges[0][0]) for t in tasks) + (seq,))
        self.tasks = tasks
        self.run = run
        self.seq = seq


@dataclass
class _Batch:
    ranges: dict[tuple[str, int], list[Acquired]]
    acquired_at: float
    renewed_at: float

    @property
    def count(self) -> int:
        return sum(r.count for rs in self.ranges.values() for r in rs)


class _Driver:
    """Driver-only state of a reader: the member, the micro-batches in flight."""

    def __init__(self, opts: ShareOptions, failures: bool) -> None:
        self.opts = opts
        self.run = uuid.uuid4().hex[:16]
        self.seq = 0
        self.batches: dict[int, _Batch] = {}
        self.lock = threading.RLock()
        self.targets: dict[tuple[str, int], int] | None = None
        self.log_starts: dict[tuple[str, int], int] = {}
        self.idle_since: float | None = None
        self.fetch_failed = False
        self.had_assignment = False
        self.member = ShareMember(
            opts.bootstrap_servers, opts.group, opts.topics, client_id=opts.client_id, timeout=30.0
        )
        if opts.starting_offsets is not None:
            self.member.admin.set_group_configs(opts.group, {"share.auto.offset.reset": opts.starting_offsets})
        self.marks: MarkReader | None = None
        if failures:
            ensure_topic(self.member.admin, opts.failures_topic)
            self.marks = MarkReader(self.member.admin, opts.failures_topic)
        self.member.start(leave_on_exit=True)
        self.member.wait_for_assignment(opts.assignment_timeout_s)
        self.closed = False
        self._renewer = threading.Thread(target=self._renew_loop, name="share-lock-renewal", daemon=True)
        self._renewer.start()

    # -- acknowledgements -----------------------------------------------------------------

    def settle(self, through: int | None, *, release_later: bool) -> None:
        """ACCEPT (or the marked type) every batch with seq <= ``through`` (None: none);
        with ``release_later``, RELEASE the later ones (planned by us, never run)."""
        with self.lock:
            done = sorted(s for s in self.batches if through is not None and s <= through)
            stale = sorted(s for s in self.batches if release_later and (through is None or s > through))
            if not done and not stale:
                return
            marks = {}
            if done and self.marks is not None:
                try:
                    marks = self.marks.read()
                except (AdminError, OSError) as exc:
                    # Without the marks we cannot tell failed rows from good ones: accepting
                    # all would lose the failed ones, so give the whole batch back instead.
                    log.warning("reading the failures topic failed (%s); releasing the batch", exc)
                    stale, done = sorted(done + stale), []
            acks: dict[tuple[str, int], list[AckRun]] = {}
            for s in done:
                for tp, ranges in self.batches[s].ranges.items():
                    acks.setdefault(tp, []).extend(ack_runs(ranges, marks.get((self.run, s, tp[0], tp[1]))))
            for s in stale:
                for tp, ranges in self.batches[s].ranges.items():
                    acks.setdefault(tp, []).extend(ack_runs(ranges, kind=RELEASE))
            for s in done + stale:
                del self.batches[s]
            for runs in acks.values():
                runs.sort()
            failed = self.member.acknowledge(acks)
            for tp, code in sorted(failed.items()):
                log.warning(
                    "acknowledging %s-%d failed (%s): its records are delivered again",
                    tp[0],
                    tp[1],
                    KafkaApiError(code).code.name,
                )

    # -- acquisition ----------------------------------------------------------------------

    def acquire(self, budget: int | None) -> dict[tuple[str, int], list[Acquired]]:
        out: dict[tuple[str, int], list[Acquired]] = {}
        if not self.member.assignment:
            # The first assignment can take a few heartbeats; later an empty one (topics
            # gone, a rebalance) costs one long-poll, not the whole timeout.
            wait = self.opts.assignment_timeout_s if not self.had_assignment else self.opts.max_wait_ms / 1000
            if not self.member.wait_for_assignment(wait):
                return out
        self.had_assignment = True
        left = budget if budget is not None else 1 << 62
        mode = BATCH_OPTIMIZED
        if budget is not None and self.member.record_limit_supported is not False:
            mode = RECORD_LIMIT  # at most maxRecordsPerTrigger, not up to a stored-batch boundary
        deadline = time.monotonic() + PLAN_MAX_SECONDS + self.opts.max_wait_ms / 1000
        wait = self.opts.max_wait_ms
        self.fetch_failed = False
        while left > 0:
            try:
                got = self.member.fetch(max_records=min(left, FETCH_MAX_RECORDS), max_wait_ms=wait, acquire_mode=mode)
            except (AdminError, OSError) as exc:
                log.warning("ShareFetch failed (%s); will retry on the next trigger", exc)
                self.member.reset_sessions()
                self.fetch_failed = True
                break
            wait = 0
            if self.targets is not None:
                got = self._cut_at_targets(got)
            n = sum(r.count for rs in got.values() for r in rs)
            if not n:
                break
            for tp, rs in got.items():
                out.setdefault(tp, []).extend(rs)
            left -= n
            if time.monotonic() > deadline:
                break
        return out

    def _cut_at_targets(self, got: dict[tuple[str, int], list[Acquired]]) -> dict[tuple[str, int], list[Acquired]]:
        """Trigger.AvailableNow: records past the end recorded at the start are given back."""
        assert self.targets is not None
        keep: dict[tuple[str, int], list[Acquired]] = {}
        back: dict[tuple[str, int], list[AckRun]] = {}
        for tp, ranges in got.items():
            end = self.targets.get(tp, 0)
            for r in ranges:
                if r.last < end:
                    keep.setdefault(tp, []).append(r)
                elif r.first >= end:
                    back.setdefault(tp, []).append((r.first, r.last, RELEASE))
                else:
                    keep.setdefault(tp, []).append(Acquired(r.first, end - 1, r.delivery_count))
                    back.setdefault(tp, []).append((end, r.last, RELEASE))
        if back:
            self.member.acknowledge(back)
        return keep

    def drained(self) -> bool:
        """AvailableNow: has the group consumed every partition up to its target?"""
        assert self.targets is not None
        try:
            by_topic: dict[str, list[int]] = {}
            for topic, partition in self.targets:
                by_topic.setdefault(topic, []).append(partition)
            g = self.member.admin.describe_share_group_offsets(self.opts.group, by_topic)
        except (AdminError, OSError) as exc:
            log.warning("DescribeShareGroupOffsets failed: %s", exc)
            return False
        starts: dict[tuple[str, int], tuple[int, int]] = {}
        for t in g.topics or []:
            for p in t.partitions:
                starts[(t.topic_name, p.partition_index)] = (p.start_offset, p.lag)
        for tp, end in self.targets.items():
            if end <= self.log_starts.get(tp, 0):
                continue
            start, lag = starts.get(tp, (-1, -1))
            # Kafka 4.2 reports the persisted start offset, which can trail the acks;
            # its lag (DescribeShareGroupOffsets v1) is current, and 0 means done.
            if start < end and lag != 0:
                return False
        return True

    def prepare_available_now(self) -> None:
        admin = self.member.admin
        parts = admin.topic_partitions(list(self.opts.topics))
        tps = [(t, p) for t, ps in parts.items() for p in ps]
        self.targets = admin.list_offsets(dict.fromkeys(tps, LATEST_TIMESTAMP))
        self.log_starts = admin.list_offsets(dict.fromkeys(tps, EARLIEST_TIMESTAMP))
        self.idle_since = None

    # -- locks ------------------------------------------------------------------------------

    def _renew_loop(self) -> None:
        while not self.closed:
            time.sleep(1.0)
            lock_ms = self.member.lock_timeout_ms
            if not lock_ms or self.member.renew_supported is False:
                continue
            now = time.monotonic()
            acks: dict[tuple[str, int], list[AckRun]] = {}
            with self.lock:
                for batch in self.batches.values():
                    if now - batch.renewed_at >= lock_ms / 2000:
                        for tp, ranges in batch.ranges.items():
                            acks.setdefault(tp, []).extend(ack_runs(ranges, kind=RENEW))
                        batch.renewed_at = now
                if acks:
                    try:
                        failed = self.member.acknowledge(acks, renew=True)
                    except Exception as exc:
                        log.warning("renewing record locks failed: %s", exc)
                        continue
                    for tp, code in failed.items():
                        log.warning("renewing locks on %s-%d failed: %s", tp[0], tp[1], KafkaApiError(code).code.name)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        with self.lock:
            # Closing the sessions gives back whatever is held: batches not yet committed
            # come back to the group at once rather than when their locks expire.
            self.batches.clear()
            self.member.close()


class KafkaShareStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """The stream reader. Constructed (and pickled to executors for ``read``) without side
    effects; the driver-side member starts at the first offset call."""

    def __init__(
        self,
        options: ShareOptions,
        schema: StructType,
        failed: Callable[[Any], Any] | None,
        default_tasks: int | None = None,
    ) -> None:
        self.options = options
        self.schema = schema
        self.failed = failed
        self.tasks_per_batch = options.max_tasks_per_batch or default_tasks
        self._driver: _Driver | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_driver"] = None
        return state

    # -- driver side -----------------------------------------------------------------------

    def _d(self) -> _Driver:
        if self._driver is None:
            self._driver = _Driver(self.options, self.failed is not None)
            _install_stop_hooks(self)
        return self._driver

    def initialOffset(self) -> dict:
        d = self._d()
        return {"run": d.run, "seq": 0}

    def getDefaultReadLimit(self) -> ReadLimit:
        n = self.options.max_records_per_trigger
        return ReadAllAvailable() if n is None else ReadMaxRows(n)

    def prepareForTriggerAvailableNow(self) -> None:
        self._d().prepare_available_now()

    def latestOffset(self, start: dict, limit: ReadLimit) -> dict:
        d = self._d()
        # Everything up to ``start`` ran and is in Spark's commit log: acknowledge it.
        d.settle(int(start.get("seq", 0)) if start.get("run") == d.run else None, release_later=True)
        budget = limit.max_rows if isinstance(limit, ReadMaxRows) else None
        got = d.acquire(budget)
        if not got:
            if d.targets is not None and (d.fetch_failed or not d.drained()):
                # AvailableNow: records below the targets are still somewhere (locked by
                # another member, in flight). Keep the query alive for a while, not forever.
                now = time.monotonic()
                if d.idle_since is None:
                    d.idle_since = now
                # An unreachable broker (restarting) gets as long as tasks retry it.
                patience = d.opts.fetch_retry_timeout_s if d.fetch_failed else d.opts.available_now_idle_s
                if now - d.idle_since < patience:
                    if d.fetch_failed:
                        time.sleep(0.5)
                    return self._empty_step(d, start)
                log.warning("Trigger.AvailableNow: ending with records below the target still not delivered here")
            return start
        if d.targets is not None:
            d.idle_since = None
        with d.lock:
            d.seq += 1
            now = time.monotonic()
            d.batches[d.seq] = _Batch(got, now, now)
            return {"run": d.run, "seq": d.seq}

    def _empty_step(self, d: _Driver, start: dict) -> dict:
        """A new offset with no records: keeps an AvailableNow query polling."""
        with d.lock:
            d.seq += 1
            d.batches[d.seq] = _Batch({}, time.monotonic(), time.monotonic())
            return {"run": d.run, "seq": d.seq}

    def reportLatestOffset(self) -> dict | None:
        return None

    def partitions(self, start: dict, end: dict) -> list[InputPartition]:
        d = self._d()
        if end.get("run") != d.run:
            if end != start and int(end.get("seq", 0)) > 0:
                log.warning(
                    "micro-batch %s was planned by an earlier run of this query; its records were "
                    "released when that run ended and are delivered again in new micro-batches",
                    end,
                )
            return []
        low = int(start.get("seq", 0)) if start.get("run") == d.run else 0
        out: list[InputPartition] = []
        with d.lock:
            for seq in sorted(s for s in d.batches if low < s <= int(end["seq"])):
                tasks: list[RangeTask] = []
                for tp, ranges in sorted(d.batches[seq].ranges.items()):
                    rs = sorted((r.first, r.last, r.delivery_count) for r in ranges)
                    leader = d.member.leader_address(tp)
                    tid = d.member.topic_ids.get(tp[0])
                    for piece in split_ranges(rs, self.options.max_records_per_task):
                        tasks.append(
                            RangeTask(
                                bootstrap_servers=self.options.bootstrap_servers,
                                topic=tp[0],
                                topic_id=str(tid) if tid else str(uuid.UUID(int=0)),
                                partition=tp[1],
                                leader=leader,
                                ranges=piece,
                                client_id=self.options.client_id,
                                retry_timeout=self.options.fetch_retry_timeout_s,
                            )
                        )
                out.extend(SharePartition(group, d.run, seq) for group in pack_tasks(tasks, self.tasks_per_batch))
        return out

    def commit(self, end: dict) -> None:
        d = self._driver
        if d is not None and end.get("run") == d.run:
            d.settle(int(end["seq"]), release_later=False)

    def stop(self) -> None:
        d = self._driver
        if d is not None:
            d.close()

    # -- executor side -----------------------------------------------------------------------

    def read(self, partition: InputPartition) -> Iterator[Any]:
        import pyarrow as pa
        from pyspark.sql.pandas.types import to_arrow_schema

        assert isinstance(partition, SharePartition)
        schema = to_arrow_schema(self.schema, timezone="UTC")
        failed_fn = self.failed
        # (topic, partition) -> acknowledge type -> offsets the failure function marked
        failed: dict[tuple[str, int], dict[int, list[int]]] = {}
        keys: list[bytes | None] = []
        values: list[bytes | None] = []
        offsets: list[int] = []
        stamps: list[int | None] = []
        ts_types: list[int] = []
        counts: list[int] = []
        hdrs: list[Any] | None = [] if self.options.include_headers else None
        topics: list[str] = []
        parts: list[int] = []

        def flush() -> Any:
            arrays = [
                pa.array(keys, pa.binary()),
                pa.array(values, pa.binary()),
                pa.array(topics, pa.string()),
                pa.array(parts, pa.int32()),
                pa.array(offsets, pa.int64()),
                pa.array(stamps, pa.timestamp("us", tz="UTC")),
                pa.array(ts_types, pa.int32()),
            ]
            if hdrs is not None:
                arrays.append(pa.array(hdrs, schema.field("headers").type))
            arrays.append(pa.array(counts, pa.int32()))
            batch = pa.RecordBatch.from_arrays(arrays, schema=schema)
            for c in (keys, values, topics, parts, offsets, stamps, ts_types, counts, hdrs):
                if c is not None:
                    c.clear()
            return batch

        for task in partition.tasks:
            ranges = task.ranges
            idx = 0
            marks = failed.setdefault((task.topic, task.partition), {})
            for header, view in fetch_batches(task):
                first = header.base_offset
                last = first + header.last_offset_delta
                while idx < len(ranges) and ranges[idx][1] < first:
                    idx += 1
                data = batch_body(header, view)
                ts_type = 1 if header.attributes & 0x08 else 0
                j = idx
                while j < len(ranges) and ranges[j][0] <= last:
                    lo, hi, dc = ranges[j]
                    mark = len(offsets)
                    n = decode_into(header, data, lo, hi, dc, keys, values, offsets, stamps, counts, hdrs)
                    ts_types.extend([ts_type] * n)
                    if failed_fn is not None and n:
                        self._apply_failures(
                            failed_fn, task, mark, keys, values, offsets, stamps, ts_types, counts, hdrs, marks
                        )
                    j += 1
                if len(offsets) > len(topics):
                    k = len(offsets) - len(topics)
                    topics.extend([task.topic] * k)
                    parts.extend([task.partition] * k)
                if len(offsets) >= ARROW_BATCH_ROWS:
                    yield flush()
        self._publish_failures(partition, failed)
        if offsets:
            yield flush()

    def _publish_failures(self, partition: SharePartition, failed: dict[tuple[str, int], dict[int, list[int]]]) -> None:
        """Write the offsets the failure function marked, by acknowledge type, to the
        failures topic: durable before the task ends, so before Spark can commit the
        micro-batch."""
        marked = [
            {
                "run": partition.run,
                "seq": partition.seq,
                "topic": topic,
                "partition": index,
                "offsets": offs,
                "type": kind,
            }
            for (topic, index), kinds in failed.items()
            for kind, offs in kinds.items()
        ]
        if marked:
            first_task = partition.tasks[0]
            produce_marks(
                first_task.bootstrap_servers, self.options.failures_topic, marked, client_id=first_task.client_id
            )

    def _apply_failures(
        self,
        failed_fn: Callable[[Any], Any],
        task: RangeTask,
        mark: int,
        *cols_and_out: Any,
    ) -> None:
        """Run the failure function over rows ``mark:``; drop the failed ones from the
        columns and note their offsets by acknowledge type."""
        keys, values, offsets, stamps, ts_types, counts, hdrs, failed = cols_and_out
        keep = []
        for i in range(mark, len(offsets)):
            row = _row(
                task, keys[i], values[i], offsets[i], stamps[i], ts_types[i], counts[i], hdrs[i] if hdrs else None
            )
            verdict = failed_fn(row)
            if verdict:
                kind = (
                    _ACTIONS.get(verdict.lower(), self.options.failed_action)
                    if isinstance(verdict, str)
                    else self.options.failed_action
                )
                failed.setdefault(kind, []).append(offsets[i])
            else:
                keep.append(i)
        if len(keep) == len(offsets) - mark:
            return
        for col in (keys, values, offsets, stamps, ts_types, counts, hdrs):
            if col is not None:
                col[mark:] = [col[i] for i in keep]


def _row(
    task: RangeTask,
    key: bytes | None,
    value: bytes | None,
    offset: int,
    stamp_us: int | None,
    ts_type: int,
    delivery_count: int,
    headers: list[dict[str, Any]] | None,
) -> Any:
    """The row a failure function sees: the source's columns, timestamp as a datetime."""
    import datetime

    from pyspark.sql import Row

    ts = None if stamp_us is None else datetime.datetime.fromtimestamp(stamp_us / 1e6, tz=datetime.UTC)
    values: dict[str, Any] = {
        "key": key,
        "value": value,
        "topic": task.topic,
        "partition": task.partition,
        "offset": offset,
        "timestamp": ts,
        "timestampType": ts_type,
    }
    if headers is not None:
        values["headers"] = [Row(key=h["key"], value=h["value"]) for h in headers]
    values["deliveryCount"] = delivery_count
    return Row(**values)


_stop_hooks_installed = False


def _install_stop_hooks(reader: KafkaShareStreamReader) -> None:
    """Leave the group when the query stops.

    Spark never calls ``stop()`` on a Python stream reader when a query stops: it
    terminates the driver-side reader process with SIGTERM. A handler turns that into
    SystemExit, so the reader loop's ``finally`` (which calls ``stop()``) and atexit run.
    Installed only in the process that plans micro-batches, and only if nobody else
    handles SIGTERM there.
    """
    global _stop_hooks_installed
    if _stop_hooks_installed:
        return
    _stop_hooks_installed = True
    atexit.register(reader.stop)
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None):
        return

    def on_term(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        log.info("SIGTERM in the stream reader process %d: leaving the share group", os.getpid())
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, on_term)


class KafkaShareDataSource(DataSource):
    """``spark.readStream.format("kafka-share")``: consume topics through a share group.

    Options (names follow Spark's Kafka source): ``kafka.bootstrap.servers``,
    ``subscribe`` (comma-separated topics), ``group.id`` (or ``kafka.group.id``),
    ``maxRecordsPerTrigger``, ``includeHeaders``, ``startingOffsets`` (earliest |
    latest: sets the group's ``share.auto.offset.reset``, which decides where a group
    with no state starts), ``maxWaitMs`` (ShareFetch long-poll when no record is
    available, default 500), ``maxRecordsPerTask`` (split a partition's records over
    several tasks past this many, default 200000), ``maxTasksPerBatch`` (at most this
    many tasks per micro-batch, default the session's default parallelism),
    ``failedRecords`` (release | reject: what rows the failure function marks get),
    ``failuresTopic``, ``kafka.client.id``,
    ``fetchRetryTimeoutMs`` (how long a task retries an unreachable broker, default
    120000), ``assignmentTimeoutMs``, ``availableNowIdleMs``.
    """

    failed: ClassVar[Callable[[Any], Any] | None] = None
    # The session's default parallelism (its executor cores), read by register().
    default_tasks: ClassVar[int | None] = None

    @classmethod
    def name(cls) -> str:
        return NAME

    def __init__(self, options: Any) -> None:
        super().__init__(options)
        self.share_options = ShareOptions.parse(dict(options))

    def schema(self) -> StructType:
        return kafka_schema(self.share_options.include_headers)

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        return KafkaShareStreamReader(self.share_options, schema, type(self).failed, type(self).default_tasks)


def register(spark: Any, *, failed: Callable[[Any], Any] | None = None, name: str = NAME) -> type[KafkaShareDataSource]:
    """Register the ``kafka-share`` format with ``spark`` (``spark.dataSource.register``).

    ``failed``: an optional function of a row (the source's columns) run on the
    executors; a true result marks the row failed: it is left out of the stream and
    acknowledged with the ``failedRecords`` option's type (RELEASE: delivered again with a
    higher delivery count, archived at the group's ``share.delivery.count.limit``;
    REJECT: archived now). Returning ``"release"`` or ``"reject"`` picks the type per row.
    """
    namespace: dict[str, object] = {
        "failed": staticmethod(failed) if failed else None,
        "default_tasks": _default_parallelism(spark),
    }
    if name != NAME:
        namespace["name"] = classmethod(lambda cls: name)
    source: type[KafkaShareDataSource] = type("KafkaShareDataSource", (KafkaShareDataSource,), namespace)
    spark.dataSource.register(source)
    return source


def _default_parallelism(spark: Any) -> int | None:
    """The session's default parallelism (its cores on local[N]); None where it cannot be
    read (Spark Connect has no SparkContext)."""
    try:
        n = int(spark.sparkContext.defaultParallelism)
    except Exception:  # Spark Connect, a stopped context
        return None
    return n if n > 0 else None
