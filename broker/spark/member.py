"""The share-group member that the Spark driver holds for a ``kafka-share`` stream.

It speaks only the Kafka protocol (through ``broker.admin.client``), so it works
against sharebroker and against Apache Kafka 4.2+ alike:

- membership: ShareGroupHeartbeat from a background thread at the interval the
  coordinator asks for (rejoining at epoch 0 with the same member id after
  UNKNOWN_MEMBER_ID / FENCED_MEMBER_EPOCH, finding the coordinator again when it
  moved or the broker restarted);
- acquisition: ShareFetch on one share session per partition leader. Only the
  ``AcquiredRecords`` ranges of a response are kept; the record bytes that come
  with them are dropped undecoded (executors read the records themselves with
  plain Fetch requests), so the driver does per-range work, never per-record work;
- acknowledgement: ShareAcknowledge with one type per offset range, and Renew
  (KIP-1222, ShareAcknowledge v2) to keep the locks of a long micro-batch;
- leaving: ShareAcknowledge with epoch -1 on every session (the broker releases
  whatever the member still holds) and a heartbeat with epoch -1.

Thread safety: the heartbeat thread owns the coordinator connection; share
sessions are used under ``_session_lock`` by whichever thread fetches, acks or
renews.
"""

from __future__ import annotations

import base64
import logging
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from broker.admin.client import (
    AdminClient,
    AdminError,
    BrokerConnection,
    KafkaApiError,
    UnsupportedApiError,
    check_error,
)
from broker.admin.client import coalesce_acks as coalesce  # noqa: F401 - re-exported under its former name
from broker.protocol.messages.share_acknowledge_request import (
    AcknowledgementBatch as AckBatch,
)
from broker.protocol.messages.share_acknowledge_request import (
    AcknowledgePartition,
    AcknowledgeTopic,
    ShareAcknowledgeRequest,
)
from broker.protocol.messages.share_fetch_request import (
    FetchPartition,
    FetchTopic,
    ForgottenTopic,
    ShareFetchRequest,
)
from broker.protocol.messages.share_group_heartbeat_request import ShareGroupHeartbeatRequest

log = logging.getLogger("broker.spark")

# Acknowledge types on the wire (KIP-932; Renew from KIP-1222).
GAP, ACCEPT, RELEASE, REJECT, RENEW = 0, 1, 2, 3, 4
# ShareFetch v2 acquire modes.
BATCH_OPTIMIZED, RECORD_LIMIT = 0, 1

# Member errors after which we rejoin at epoch 0 with the same member id.
_REJOIN = (25, 110)  # UNKNOWN_MEMBER_ID, FENCED_MEMBER_EPOCH
# Coordinator loading, gone or moved: find it again and retry.
_COORDINATOR_RETRY = (14, 15, 16)
# Share-session errors: the session is gone, start a new one at epoch 0.
_SESSION_RESET = (122, 123, 133)
# Partition errors that mean our metadata (leader) is stale.
_STALE_LEADER = (3, 6, 74, 100)  # UNKNOWN_TOPIC_OR_PARTITION, NOT_LEADER, FENCED_LEADER_EPOCH, UNKNOWN_TOPIC_ID

TopicPartition = tuple[str, int]
# An acknowledgement run: (first offset, last offset, type).
AckRun = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Acquired:
    """A run of offsets the broker handed to this member, with their delivery count."""

    first: int
    last: int
    delivery_count: int

    @property
    def count(self) -> int:
        return self.last - self.first + 1


@dataclass(slots=True)
class _Session:
    conn: BrokerConnection
    epoch: int = 0
    partitions: set[TopicPartition] = field(default_factory=set)


def new_member_id() -> str:
    """22 characters of base64 of a random UUID, as Kafka's clients generate them."""
    return base64.b64encode(uuid.uuid4().bytes).decode("ascii")[:22]


class ShareMember:
    """One member of a share group, subscribed to ``topics``."""

    def __init__(
        self,
        bootstrap_servers: str,
        group: str,
        topics: Iterable[str],
        *,
        client_id: str = "sharebroker-spark",
        timeout: float = 30.0,
        member_id: str | None = None,
    ) -> None:
        self.bootstrap_servers = bootstrap_servers
        self.group = group
        self.topics = sorted(set(topics))
        self.client_id = client_id
        self.timeout = timeout
        self.member_id = member_id or new_member_id()
        self.admin = AdminClient(bootstrap_servers, timeout=timeout, client_id=client_id)
        self.member_epoch = 0
        self.heartbeat_interval = 5.0
        self.lock_timeout_ms: int | None = None
        # Metadata: names <-> ids, leaders, broker addresses.
        self.topic_ids: dict[str, uuid.UUID] = {}
        self.topic_names: dict[uuid.UUID, str] = {}
        self.leaders: dict[TopicPartition, int] = {}
        self.brokers: dict[int, tuple[str, int]] = {}
        self._assignment: set[TopicPartition] = set()
        self._assignment_ids: dict[uuid.UUID, set[int]] = {}
        self._assigned = threading.Event()
        self._state_lock = threading.Lock()
        self._session_lock = threading.RLock()
        self._sessions: dict[int, _Session] = {}
        self._coordinator: BrokerConnection | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._joined = False
        self._closed = False
        self.last_error: str | None = None
        self._watchdog: subprocess.Popen | None = None
        self.renew_supported: bool | None = None
        self.record_limit_supported: bool | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self, *, leave_on_exit: bool = False) -> ShareMember:
        """Join the group (first heartbeat) and start the heartbeat thread.

        ``leave_on_exit``: also start a watchdog process (``broker.spark.leave``) that
        sends the leave heartbeat if this process dies without leaving, whatever kills
        it: Spark ends the driver-side reader process with SIGTERM and SIGKILL right
        after, which leaves no time to leave the group from inside it.
        """
        self.refresh_metadata()
        self._heartbeat_once()
        if leave_on_exit:
            self._start_watchdog()
        self._thread = threading.Thread(target=self._heartbeat_loop, name=f"share-heartbeat-{self.group}", daemon=True)
        self._thread.start()
        return self

    def wait_for_assignment(self, timeout: float) -> bool:
        return self._assigned.wait(timeout)

    @property
    def assignment(self) -> set[TopicPartition]:
        with self._state_lock:
            return set(self._assignment)

    def close(self, acks: Mapping[TopicPartition, list[AckRun]] | None = None) -> None:
        """Send ``acks`` and close every share session (epoch -1: the broker releases what
        is still held), then leave the group. Errors are logged, never raised."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        with self._session_lock:
            pending = dict(acks or {})
            for node, session in list(self._sessions.items()):
                try:
                    if session.epoch > 0:
                        mine = {tp: runs for tp, runs in pending.items() if self.leaders.get(tp) == node}
                        self._acknowledge_on(session, mine, epoch=-1)
                except Exception as exc:
                    log.warning("closing the share session with broker %s failed: %s", node, exc)
                finally:
                    session.conn.close()
            self._sessions.clear()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        try:
            if self._joined:
                self._send_heartbeat(leave=True)
                self._dismiss_watchdog()
        except Exception as exc:
            log.warning("leaving share group %r failed: %s", self.group, exc)
        finally:
            if self._coordinator is not None:
                self._coordinator.close()
                self._coordinator = None
            self.admin.close()

    def _start_watchdog(self) -> None:
        try:
            self._watchdog = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "broker.spark.leave",
                    self.bootstrap_servers,
                    self.group,
                    self.member_id,
                    self.client_id,
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # outlives a kill of this process's group by design
            )
        except OSError as exc:
            log.warning("no leave watchdog (%s): a killed driver's member stays until its session times out", exc)

    def _dismiss_watchdog(self) -> None:
        """We left the group ourselves: tell the watchdog not to."""
        w, self._watchdog = self._watchdog, None
        if w is not None and w.stdin is not None:
            try:
                w.stdin.write(b"left")
                w.stdin.close()
            except OSError:
                pass
            try:
                w.wait(timeout=5)
            except subprocess.TimeoutExpired:
                w.kill()
                w.wait()

    # -- metadata -----------------------------------------------------------------------------

    def refresh_metadata(self) -> None:
        meta = self.admin.metadata(self.topics)
        brokers = {b.node_id: (b.host, b.port) for b in meta.brokers}
        ids: dict[str, uuid.UUID] = {}
        leaders: dict[TopicPartition, int] = {}
        for t in meta.topics:
            check_error(t.error_code, None, f"topic {t.name!r}")
            ids[t.name] = t.topic_id
            for p in t.partitions:
                leaders[(t.name, p.partition_index)] = p.leader_id
        with self._state_lock:
            self.brokers = brokers
            self.topic_ids = ids
            self.topic_names = {v: k for k, v in ids.items()}
            self.leaders = leaders
            self._resolve_assignment()

    def leader_address(self, tp: TopicPartition) -> tuple[str, int] | None:
        node = self.leaders.get(tp)
        return None if node is None else self.brokers.get(node)

    # -- membership (heartbeat thread) ----------------------------------------------------------

    def _connect_coordinator(self) -> BrokerConnection:
        if self._coordinator is None:
            node = self.admin.find_coordinator(self.group)
            self._coordinator = BrokerConnection(node.host, node.port, client_id=self.client_id, timeout=self.timeout)
        return self._coordinator

    def _send_heartbeat(self, leave: bool = False) -> Any:
        epoch = -1 if leave else self.member_epoch
        req = ShareGroupHeartbeatRequest(
            group_id=self.group,
            member_id=self.member_id,
            member_epoch=epoch,
            rack_id=None,
            subscribed_topic_names=self.topics if epoch == 0 else None,
        )
        return self._connect_coordinator().call(req, timeout=self.timeout)

    def _heartbeat_once(self) -> float:
        """One heartbeat; returns the seconds until the next one."""
        try:
            resp = self._send_heartbeat()
        except (AdminError, OSError) as exc:
            self._drop_coordinator()
            self.last_error = str(exc)
            return 1.0
        if resp.error_code in _REJOIN:
            self.member_epoch = 0
            return 0.0
        if resp.error_code in _COORDINATOR_RETRY:
            self._drop_coordinator()
            return 0.5
        if resp.error_code:
            self.last_error = str(KafkaApiError(resp.error_code, resp.error_message, "ShareGroupHeartbeat"))
            if not self._joined:
                raise KafkaApiError(resp.error_code, resp.error_message, "ShareGroupHeartbeat")
            log.warning("%s", self.last_error)
            return self.heartbeat_interval
        self._joined = True
        self.member_epoch = resp.member_epoch
        if resp.heartbeat_interval_ms > 0:
            self.heartbeat_interval = resp.heartbeat_interval_ms / 1000
        if resp.assignment is not None:
            with self._state_lock:
                self._assignment_ids = {tp.topic_id: set(tp.partitions) for tp in resp.assignment.topic_partitions}
                unknown = any(tid not in self.topic_names for tid in self._assignment_ids)
            if unknown:
                try:
                    self.refresh_metadata()
                except AdminError as exc:
                    log.warning("metadata refresh failed: %s", exc)
            with self._state_lock:
                self._resolve_assignment()
        return self.heartbeat_interval

    def _resolve_assignment(self) -> None:
        """Turn the topic-id assignment into (name, partition) pairs (``_state_lock`` held)."""
        assignment: set[TopicPartition] = set()
        for tid, parts in self._assignment_ids.items():
            name = self.topic_names.get(tid)
            if name is not None:
                assignment.update((name, p) for p in parts)
        self._assignment = assignment
        if assignment:
            self._assigned.set()

    def _drop_coordinator(self) -> None:
        if self._coordinator is not None:
            self._coordinator.close()
            self._coordinator = None

    def _heartbeat_loop(self) -> None:
        wait = self.heartbeat_interval
        while not self._stop.wait(wait):
            try:
                wait = self._heartbeat_once()
            except Exception as exc:  # never let the thread die: the member would be fenced
                self.last_error = str(exc)
                log.warning("share-group heartbeat failed: %s", exc)
                wait = 1.0

    # -- share sessions -------------------------------------------------------------------------

    def _session(self, node: int) -> _Session:
        session = self._sessions.get(node)
        if session is None:
            host, port = self.brokers[node]
            conn = BrokerConnection(host, port, client_id=self.client_id, timeout=self.timeout)
            session = self._sessions[node] = _Session(conn)
            try:
                ack_version = conn.version_for(ShareAcknowledgeRequest)
                fetch_version = conn.version_for(ShareFetchRequest)
            except UnsupportedApiError:
                conn.close()
                del self._sessions[node]
                raise
            self.renew_supported = ack_version >= 2
            self.record_limit_supported = fetch_version >= 2
        return session

    def _drop_session(self, node: int) -> None:
        session = self._sessions.pop(node, None)
        if session is not None:
            session.conn.close()

    def _advance(self, session: _Session) -> None:
        session.epoch = 1 if session.epoch == 2**31 - 1 else session.epoch + 1

    def fetch(
        self,
        *,
        max_records: int,
        max_wait_ms: int,
        acquire_mode: int = BATCH_OPTIMIZED,
        max_bytes: int = 52428800,
    ) -> dict[TopicPartition, list[Acquired]]:
        """One ShareFetch to each leader of our assigned partitions; the acquired ranges.

        The record bytes of the responses are not decoded. Transport errors drop the
        session (the broker releases what it held) and are raised as ``AdminError``.
        """
        out: dict[TopicPartition, list[Acquired]] = {}
        assignment = self.assignment
        with self._session_lock:
            by_node: dict[int, set[TopicPartition]] = {}
            for tp in assignment:
                node = self.leaders.get(tp)
                if node is None or node < 0 or node not in self.brokers:
                    continue
                by_node.setdefault(node, set()).add(tp)
            for node in self._sessions:
                by_node.setdefault(node, set())
            budget = max_records
            for node, parts in by_node.items():
                if budget <= 0 and not parts:
                    continue
                try:
                    got = self._fetch_from(node, parts, max(budget, 1), max_wait_ms, acquire_mode, max_bytes)
                except AdminError:
                    self._drop_session(node)
                    raise
                for tp, ranges in got.items():
                    out.setdefault(tp, []).extend(ranges)
                    budget -= sum(r.count for r in ranges)
                max_wait_ms = 0  # one long-poll per round, not one per leader
        return out

    def _fetch_from(
        self,
        node: int,
        parts: set[TopicPartition],
        max_records: int,
        max_wait_ms: int,
        acquire_mode: int,
        max_bytes: int,
    ) -> dict[TopicPartition, list[Acquired]]:
        session = self._session(node)
        epoch = session.epoch
        add = parts if epoch == 0 else parts - session.partitions
        forgotten = set() if epoch == 0 else session.partitions - parts
        if epoch != 0 and not add and not forgotten and not parts:
            return {}
        topics: dict[uuid.UUID, list[FetchPartition]] = {}
        for topic, partition in sorted(add):
            tid = self.topic_ids[topic]
            topics.setdefault(tid, []).append(FetchPartition(partition_index=partition))
        gone: dict[uuid.UUID, list[int]] = {}
        for topic, partition in sorted(forgotten):
            gone_id = self.topic_ids.get(topic)
            if gone_id is not None:
                gone.setdefault(gone_id, []).append(partition)
        req = ShareFetchRequest(
            group_id=self.group,
            member_id=self.member_id,
            share_session_epoch=epoch,
            max_wait_ms=max_wait_ms,
            min_bytes=1,
            max_bytes=max_bytes,
            max_records=max_records,
            batch_size=min(max_records, 10000),
            share_acquire_mode=acquire_mode,
            topics=[FetchTopic(topic_id=t, partitions=p) for t, p in topics.items()],
            forgotten_topics_data=[ForgottenTopic(topic_id=t, partitions=p) for t, p in gone.items()],
        )
        resp = session.conn.call(req, timeout=max_wait_ms / 1000 + self.timeout)
        if resp.error_code in _SESSION_RESET:
            session.epoch, session.partitions = 0, set()
            return {}
        check_error(resp.error_code, resp.error_message, "ShareFetch")
        self._advance(session)
        session.partitions = set(parts)
        if resp.acquisition_lock_timeout_ms > 0:
            self.lock_timeout_ms = resp.acquisition_lock_timeout_ms
        out: dict[TopicPartition, list[Acquired]] = {}
        stale = False
        for topic_resp in resp.responses:
            name = self.topic_names.get(topic_resp.topic_id)
            if name is None:
                continue
            for pd in topic_resp.partitions:
                if pd.error_code:
                    if pd.error_code in _STALE_LEADER:
                        stale = True
                    else:
                        log.warning(
                            "ShareFetch %s-%d: %s",
                            name,
                            pd.partition_index,
                            KafkaApiError(pd.error_code, pd.error_message),
                        )
                    continue
                if pd.acquired_records:
                    out.setdefault((name, pd.partition_index), []).extend(
                        Acquired(a.first_offset, a.last_offset, a.delivery_count) for a in pd.acquired_records
                    )
        if stale:
            self.refresh_metadata()
        return out

    def acknowledge(
        self, acks: Mapping[TopicPartition, list[AckRun]], *, renew: bool = False
    ) -> dict[TopicPartition, int]:
        """ShareAcknowledge ``acks`` on the current sessions; (topic, partition) -> error code
        for the partitions the broker refused. Partitions of a leader we hold no session
        with (it restarted, we reconnected) cannot be acknowledged: their records were
        released and come back; they are reported with SHARE_SESSION_NOT_FOUND (122)."""
        failed: dict[TopicPartition, int] = {}
        with self._session_lock:
            by_node: dict[int, dict[TopicPartition, list[AckRun]]] = {}
            for tp, runs in acks.items():
                if not runs:
                    continue
                node = self.leaders.get(tp)
                session = self._sessions.get(node) if node is not None else None
                if node is None or session is None or session.epoch == 0:
                    failed[tp] = 122
                    continue
                by_node.setdefault(node, {})[tp] = runs
            for node, mine in by_node.items():
                session = self._sessions[node]
                try:
                    failed.update(self._acknowledge_on(session, mine, epoch=session.epoch, renew=renew))
                except AdminError as exc:
                    log.warning("ShareAcknowledge to broker %s failed: %s", node, exc)
                    self._drop_session(node)
                    failed.update(dict.fromkeys(mine, 122))
        return failed

    def _acknowledge_on(
        self, session: _Session, acks: Mapping[TopicPartition, list[AckRun]], *, epoch: int, renew: bool = False
    ) -> dict[TopicPartition, int]:
        topics: dict[uuid.UUID, list[AcknowledgePartition]] = {}
        for (topic, partition), runs in sorted(acks.items()):
            if not runs:
                continue
            topics.setdefault(self.topic_ids[topic], []).append(
                AcknowledgePartition(
                    partition_index=partition,
                    acknowledgement_batches=[
                        AckBatch(first_offset=a, last_offset=b, acknowledge_types=[k]) for a, b, k in runs
                    ],
                )
            )
        if not topics and epoch != -1:
            return {}
        req = ShareAcknowledgeRequest(
            group_id=self.group,
            member_id=self.member_id,
            share_session_epoch=epoch,
            is_renew_ack=renew,
            topics=[AcknowledgeTopic(topic_id=t, partitions=p) for t, p in topics.items()],
        )
        resp = session.conn.call(req, 2 if renew else None, timeout=self.timeout)
        if resp.error_code in _SESSION_RESET:
            session.epoch, session.partitions = 0, set()
            return dict.fromkeys(acks, resp.error_code)
        check_error(resp.error_code, resp.error_message, "ShareAcknowledge")
        if epoch != -1:
            self._advance(session)
        if resp.acquisition_lock_timeout_ms > 0:
            self.lock_timeout_ms = resp.acquisition_lock_timeout_ms
        failed: dict[TopicPartition, int] = {}
        for t in resp.responses:
            name = self.topic_names.get(t.topic_id)
            for pd in t.partitions:
                if pd.error_code and name is not None:
                    failed[(name, pd.partition_index)] = pd.error_code
        return failed

    def reset_sessions(self) -> None:
        """Forget every share session (after a transport error): the next fetch opens new ones."""
        with self._session_lock:
            for node in list(self._sessions):
                self._drop_session(node)


def ack_runs(
    ranges: Iterable[Acquired], overrides: Mapping[int, int] | None = None, kind: int = ACCEPT
) -> list[AckRun]:
    """Acknowledgement runs for acquired ``ranges``: ``kind`` everywhere except ``overrides``
    ({offset: type}), split into runs of one type."""
    runs: list[AckRun] = []
    marks = sorted(overrides.items()) if overrides else []
    for r in sorted(ranges, key=lambda r: r.first):
        start = r.first
        for offset, typ in marks:
            if offset < r.first or offset > r.last:
                continue
            if offset > start:
                runs.append((start, offset - 1, kind))
            runs.append((offset, offset, typ))
            start = offset + 1
        if start <= r.last:
            runs.append((start, r.last, kind))
    # merge adjacent runs of the same type
    merged: list[AckRun] = []
    for a, b, k in runs:
        if merged and merged[-1][2] == k and merged[-1][1] == a - 1:
            merged[-1] = (merged[-1][0], b, k)
        else:
            merged.append((a, b, k))
    return merged
