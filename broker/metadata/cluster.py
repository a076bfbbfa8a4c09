"""The cluster metadata source: a broker that follows the cluster's metadata in etcd.

etcd holds the broker registrations, the controller election and the cluster
metadata (see :mod:`broker.metadata.layout` for the keys and what they cost);
the brokers hold the data. This module is one broker's side:

- **Registration.** At start the broker takes a lease with a TTL of
  ``broker.session.timeout.ms``, refreshes it every
  ``broker.heartbeat.interval.ms``, and puts ``brokers/<node.id>`` (its endpoints
  per listener, its rack) under it. The mod revision of that key is the
  **broker epoch**: a restarted process registers again and gets a new one. A
  registration left by this node's previous process (same host and data
  directory, whose lock we now hold, so it is dead) is taken over at once and its
  lease revoked; one from another live broker with the same id is waited out.
- **Following.** The whole prefix is read once and then watched; every etcd
  response becomes a new :class:`~broker.metadata.image.MetadataImage`
  (version = the etcd revision). Only the topics whose keys changed are decoded
  again (the image says which, ``changed``), so a broker with 100,000 partitions
  pays for an ISR change what it pays for that topic. Before subscribers see an
  image, the local topic catalog is brought in line with it (one catalog write
  for all the topics that changed): logs are created for the partitions placed
  on this broker, topics deleted in the cluster are deleted here.
- **Fencing.** A partition is led here only if the controller elected this
  broker at its current broker epoch: a partition still naming this node from an
  earlier process, or from before our lease was lost, has no leader in our image
  until the controller elects us again. A lease found gone (the process was
  paused past the TTL) fences everything at once, then the broker registers anew.
  Before that is known, :meth:`ClusterMetadata.lease_valid` already says no once
  the lease has gone unrefreshed for its TTL by our own clock (a process resumed
  after SIGSTOP answers nothing as leader, not even once); an etcd that cannot
  be reached is not that: refresh attempts keep it valid, since then nobody can
  elect another leader either.
- **ISR.** Leaders write their partitions' ISR changes themselves
  (:meth:`ClusterMetadata.alter_isr`), each topic's in one txn (many topics per
  txn) that compares the mod revisions of the keys holding those partitions
  (the partition epochs it read), this broker's
  registration (its broker epoch) and, for replicas added, theirs (KIP-903).
- **Controlled shutdown** (:meth:`ClusterMetadata.controlled_shutdown`): a
  ``shutdown/<id>`` key under the lease; the controller moves the leaderships
  away and takes the broker out of the ISRs; the broker waits for that (bounded)
  before it stops.
- **etcd away.** The broker keeps serving with the image it has; topic changes
  fail (REQUEST_TIMED_OUT) rather than being made behind the cluster's back.
  etcd keeps leases alive across its own restart, so a short outage fences no one.
- **etcd members.** Every request needs a member with a leader, and one without
  is skipped for the next (:mod:`broker.metadata.etcd_client`). The watch is
  guarded: when it has been silent while etcd's revision (asked with a read)
  moved past what it delivered, for ``WATCH_STALL_S``, it is closed and opened
  again on the next member (a member cut off from this broker leaves a TCP
  stream open and silent, not broken).
- **Topic changes** are requests to the controller (put under ``requests/``,
  answered under ``results/``); the caller returns once this broker's image
  includes the change, so a CreateTopics answer is followed by Metadata that
  shows the topic.
- **The controller** runs in every broker (:class:`~broker.metadata.controller.Controller`);
  at most one holds the controller key at a time.

Failover bound: a controller that dies (kill -9) loses its key when its lease
expires, at most ``broker.session.timeout.ms`` after its last refresh, plus up
to half a second for etcd's expiry check; the next broker's campaign and first
metadata write follow within one etcd round trip of the watch event. A clean
shutdown revokes the lease, so the next controller takes over at once.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import aclosing, contextmanager
from pathlib import Path
from types import MappingProxyType
from typing import Any

import structlog
import trio

from broker.config.services import ClusterSettings, ControllerSettings, CoordinatorTopicSettings, SettingsReader
from broker.log.config import config_text
from broker.log.manager import LogManager, TopicInfo
from broker.log.meta import MetaPropertiesError, load_or_create_meta, new_cluster_id
from broker.metadata.controller import Controller
from broker.metadata.etcd_client import (
    Compare,
    EtcdClient,
    EtcdCompacted,
    EtcdError,
    EtcdUnavailable,
    Op,
    prefix_end,
)
from broker.metadata.image import (
    NO_LEADER,
    BrokerInfo,
    Endpoint,
    MetadataImage,
    PartitionState,
    TopicImage,
    coordinator_partitions,
)
from broker.metadata.isr_writes import ClusterIsrWrites
from broker.metadata.layout import Changes, Keys, Mirror, TopicRecord
from broker.metadata.source import ImageListener, NewTopic
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["ClusterMetadata", "ClusterProducerIds"]

log = structlog.get_logger("sharebroker.cluster")
# httpx logs every etcd request at INFO; the broker logs what matters itself.
logging.getLogger("httpx").setLevel(logging.WARNING)

# Pause between attempts while etcd cannot be reached.
RETRY_S = 0.5
# A watch silent this long is checked against etcd's revision (one small read)...
WATCH_CHECK_S = 1.0
# ...and closed once it has stayed behind it this long: a write reaches the watch of a
# healthy member in milliseconds, so seconds behind means the stream is dead.
WATCH_STALL_S = 3.0
# Producer ids reserved per etcd write (as Kafka's controller hands out blocks of 1000).
PRODUCER_ID_BLOCK = 1000


class ClusterMetadata(ClusterIsrWrites):
    """A :class:`~broker.metadata.source.MetadataSource` backed by etcd."""

    def __init__(
        self,
        node_id: int,
        logs: LogManager,
        settings: SettingsReader,
        *,
        endpoints: Sequence[str],
        prefix: str,
        data_dir: Path,
        rack: str | None = None,
    ) -> None:
        self.node_id = node_id
        self._logs = logs
        self._coordinator_topics = settings.settings(CoordinatorTopicSettings)
        self._data_dir = data_dir
        self._rack = rack
        self.keys = Keys(prefix)
        cluster = settings.settings(ClusterSettings)
        self._session_ms = cluster.broker_session_timeout_ms
        self._heartbeat_s = cluster.broker_heartbeat_interval_ms / 1000
        self._request_timeout_s = cluster.request_timeout_ms / 1000
        self.client = EtcdClient(list(endpoints), timeout_s=cluster.etcd_request_timeout_ms / 1000)
        self._endpoints: tuple[Endpoint, ...] = ()
        self._listeners: list[ImageListener] = []
        self.cluster_id = ""
        self._mirror = Mirror(self.keys)
        # The image's parts kept between images: only what changed is decoded again.
        self._brokers: Mapping[int, BrokerInfo] = MappingProxyType({})
        self._topic_images: dict[str, TopicImage] = {}
        self._built_for: object = None  # what every partition state depends on (see _build)
        self._revision = 0
        self._revision_changed = trio.Event()
        # trio clock of the watch's last message, and the highest header revision it sent.
        self._watch_heard = 0.0
        self._watch_revision = 0
        self._watch_stalled = False
        self.lease: int | None = None
        self.broker_epoch: int | None = None
        self._etcd_ok = True
        # time.monotonic() of the last lease refresh whose outcome is known (lease_valid).
        self._last_alive = 0.0
        self._lost = trio.Event()  # set when the lease was found gone
        self._waiting: dict[str, trio.Event] = {}
        self.controller = Controller(
            node_id=node_id,
            client=self.client,
            keys=self.keys,
            mirror=lambda: self._mirror,
            revision=lambda: self._revision,
            lease=lambda: self.lease,
            settings=settings.settings(ControllerSettings),
            broker_defaults=lambda: logs.broker_defaults,
        )
        self.producer_ids = ClusterProducerIds(self.client, self.keys)
        self._group_config_listeners: list[Callable[[dict[str, dict[str, str]]], None]] = []
        self._image = self._build(self._mirror.take_changes())

    # --- the image -------------------------------------------------------------------

    @property
    def image(self) -> MetadataImage:
        return self._image

    def subscribe(self, listener: ImageListener) -> None:
        self._listeners.append(listener)

    def set_endpoints(self, endpoints: Iterable[Endpoint]) -> None:
        """What clients are told to connect to; registered once :meth:`run` starts."""
        self._endpoints = tuple(endpoints)

    def refresh(self) -> None:
        """Nothing to do before etcd is reached: the image comes from there."""

    @property
    def is_controller(self) -> bool:
        return self.controller.epoch is not None

    def _publish(self) -> None:
        changes = self._mirror.take_changes()
        new = self._build(changes)
        self._sync_logs(new)
        old, self._image = self._image, new
        self.controller.note(changes)
        for listener in list(self._listeners):
            listener(old, new)

    def _build(self, changes: Changes) -> MetadataImage:
        """The image from the mirror: brokers and the topics that changed are decoded
        again, the other topics' images are the previous ones (every topic when the
        registered brokers or this broker's epoch changed: partition states depend on them)."""
        keys = self.keys
        mirror = self._mirror
        if changes.everything or changes.brokers:
            brokers: dict[int, BrokerInfo] = {}
            for kv in mirror.section(keys.brokers).values():
                doc = json.loads(kv.value)
                endpoints = tuple(
                    Endpoint(e["listener"], e["host"], int(e["port"]), e.get("security_protocol", "PLAINTEXT"))
                    for e in doc["endpoints"]
                )
                node = int(doc["id"])
                brokers[node] = BrokerInfo(node, endpoints, doc.get("rack"), epoch=kv.mod_revision)
            self._brokers = MappingProxyType(dict(sorted(brokers.items())))
        depends = (self.broker_epoch, tuple(self._brokers))
        changed: frozenset[str] | None
        if changes.everything or depends != self._built_for:
            self._built_for = depends
            self._topic_images = {}
            names: Iterable[str] = list(mirror.topic_names())
            changed = None
        else:
            names = changes.topics
            changed = frozenset(changes.topics)
        for name in names:
            stored = mirror.stored(name)
            if stored is None:
                self._topic_images.pop(name, None)
                continue
            doc, items, _ = stored
            self._topic_images[name] = TopicImage(
                name,
                uuid.UUID(doc["id"]),
                tuple(self._stored_state(item) for item in items),
                MappingProxyType(dict(doc.get("configs", {}))),
                bool(doc["internal"]),
            )
        controller = mirror.get(keys.controller)
        counts = coordinator_partitions(self._coordinator_topics)
        return MetadataImage(
            cluster_id=self.cluster_id,
            controller_id=int(json.loads(controller.value)["id"]) if controller is not None else -1,
            brokers=self._brokers,
            topics=MappingProxyType(dict(self._topic_images)),
            coordinator_partitions=MappingProxyType(counts),
            version=self._revision,
            changed=changed,
        )

    def _stored_state(self, item: Any) -> PartitionState:
        """A partition's state from its stored form (see broker.metadata.layout)."""
        if isinstance(item, dict):  # the earlier layout
            return self._partition_state(item, self._brokers)
        leader = item[2]
        if leader == self.node_id and (self.broker_epoch is None or item[5] != self.broker_epoch):
            leader = NO_LEADER  # elected under an earlier registration of this node: fenced
        replicas = tuple(item[0])
        brokers = self._brokers
        extra = item[6] if len(item) > 6 else None
        return PartitionState(
            leader,
            item[3],
            replicas,
            tuple(item[1]),
            item[4],
            offline_replicas=tuple(r for r in replicas if r not in brokers),
            adding=tuple(extra.get("adding") or ()) if extra else (),
            removing=tuple(extra.get("removing") or ()) if extra else (),
        )

    def _partition_state(self, p: Mapping[str, Any], brokers: Mapping[int, BrokerInfo] | None = None) -> PartitionState:
        leader = int(p["leader"])
        if leader == self.node_id and (self.broker_epoch is None or p.get("leader_broker_epoch") != self.broker_epoch):
            leader = NO_LEADER  # elected under an earlier registration of this node: fenced
        replicas = tuple(p["replicas"])
        return PartitionState(
            leader,
            int(p["leader_epoch"]),
            replicas,
            tuple(p["isr"]),
            int(p["partition_epoch"]),
            offline_replicas=() if brokers is None else tuple(r for r in replicas if r not in brokers),
            adding=tuple(p.get("adding") or ()),
            removing=tuple(p.get("removing") or ()),
        )

    def _sync_logs(self, image: MetadataImage) -> None:
        """Bring the local catalog and logs in line with the cluster's topics (those that
        changed since the last image), one catalog write for all of them."""
        names = image.topics.keys() if image.changed is None else image.changed
        for name in [n for n in self._logs.topics if n in names or image.changed is None]:
            if image.topic(name) is None:
                self._logs.delete_topic(name)
        infos = []
        for name in names:
            t = image.topic(name)
            if t is None:
                continue
            local = frozenset(i for i, p in enumerate(t.partitions) if self.node_id in p.replicas)
            infos.append(TopicInfo(t.name, t.topic_id, len(t.partitions), dict(t.configs), t.internal, local))
        try:
            self._logs.apply_topics(infos)
        except KafkaError as exc:
            log.error("local_topic_sync_failed", topics=len(infos), error=str(exc))

    # --- running ---------------------------------------------------------------------

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Join the cluster, publish the first image, then follow etcd until cancelled.
        The lease is refreshed from the moment it is granted: reading and applying the
        metadata of 100,000 partitions takes longer than its TTL."""
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._keep_alive)
                nursery.start_soon(self._reregister_when_lost)
                await self._join()
                await nursery.start(self._follow)
                nursery.start_soon(self.controller.run)
                nursery.start_soon(self.producer_ids.run)
                task_status.started()
        finally:
            with trio.CancelScope(shield=True):
                await self._leave()

    async def _retrying(self, what: str, fn: Callable[[], Any]) -> Any:
        warned = False
        while True:
            try:
                return await fn()
            except EtcdUnavailable as exc:
                if not warned:
                    log.warning("etcd_unreachable", doing=what, error=str(exc))
                    warned = True
                await trio.sleep(RETRY_S)

    async def _join(self) -> None:
        self.cluster_id = await self._retrying("reading the cluster id", self._cluster_id)
        try:
            await trio.to_thread.run_sync(load_or_create_meta, self._data_dir, self.node_id, self.cluster_id)
        except MetaPropertiesError as exc:
            raise SystemExit(f"sharebroker: error: {exc}") from None
        await self._retrying("registering", self._register)
        await self._retrying("reading the cluster metadata", self._load_all)

    async def _cluster_id(self) -> str:
        """The cluster id in etcd, created by the first broker to start."""
        candidate = new_cluster_id()
        await self.client.txn(
            [Compare(self.keys.cluster_id, "VERSION", 0)], [Op(self.keys.cluster_id, candidate.encode())]
        )
        kv = await self.client.get(self.keys.cluster_id)
        assert kv is not None
        return kv.value.decode()

    def local_broker(self) -> BrokerInfo:
        return BrokerInfo(self.node_id, self._endpoints, self._rack)

    def _registration(self) -> bytes:
        return json.dumps(
            {
                "id": self.node_id,
                "rack": self._rack,
                "endpoints": [
                    {"listener": e.listener, "host": e.host, "port": e.port, "security_protocol": e.security_protocol}
                    for e in self._endpoints
                ],
                "host": socket.gethostname(),
                "data_dir": str(self._data_dir.resolve()),
                "pid": os.getpid(),
            }
        ).encode()

    async def _register(self) -> None:
        key = self.keys.broker(self.node_id)
        ttl = max(2, -(-self._session_ms // 1000))
        lease = await self.client.grant(ttl)
        warned = False
        while True:
            existing = await self.client.get(key)
            if existing is not None and existing.lease != lease:
                doc = json.loads(existing.value)
                mine = doc.get("host") == socket.gethostname() and doc.get("data_dir") == str(self._data_dir.resolve())
                if not mine:
                    if not warned:
                        log.warning("node_id_registered_elsewhere", node=self.node_id, by=doc.get("host"))
                        warned = True
                    await trio.sleep(RETRY_S)
                    continue
                # Our previous process (it held the data directory we have locked now).
                await self.client.revoke(existing.lease)
            if existing is not None and existing.lease == lease:
                guard = [Compare(key, "MOD", existing.mod_revision)]
            else:
                guard = [Compare(key, "VERSION", 0)]  # absent, or revoked just now with its lease
            ok, revision = await self.client.txn(guard, [Op(key, self._registration(), lease)])
            if ok:
                self.lease, self.broker_epoch = lease, revision
                self._last_alive = time.monotonic()
                log.info("broker_registered", node=self.node_id, epoch=revision, rack=self._rack)
                return

    async def _leave(self) -> None:
        lease, self.lease = self.lease, None
        if lease is not None:
            with trio.move_on_after(1.0):
                try:
                    await self.client.revoke(lease)
                except (EtcdUnavailable, EtcdError):
                    pass
        with trio.move_on_after(1.0):
            await self.client.aclose()

    def lease_valid(self) -> bool:
        """Whether this broker may act on its registration (lead partitions): it has a
        lease, and a refresh attempt ended within the lease's TTL. A process paused past
        the TTL fails this at once when it resumes, before its next refresh learns that
        the lease is gone; refreshes failing because etcd is away keep it valid."""
        if self.lease is None:
            return False
        return time.monotonic() - self._last_alive < self._session_ms / 1000

    async def _keep_alive(self) -> None:
        """Refresh the lease from a thread of its own (Kafka's brokers heartbeat from
        theirs): the event loop may be busy for seconds applying a metadata change of
        100,000 partitions, which must not let the lease lapse and fence the broker."""
        token = trio.lowlevel.current_trio_token()
        stop = threading.Event()
        try:
            await trio.to_thread.run_sync(self._keep_alive_thread, token, stop, abandon_on_cancel=True)
        finally:
            stop.set()

    def _keep_alive_thread(self, token: trio.lowlevel.TrioToken, stop: threading.Event) -> None:
        import httpx  # loaded with the etcd client already

        endpoints = self.client.endpoints
        current = 0
        with httpx.Client(timeout=httpx.Timeout(self.client.timeout_s)) as http:
            while not stop.wait(self._heartbeat_s):
                lease = self.lease
                if lease is None:
                    continue
                attempt = time.monotonic()
                ttl = None
                error = ""
                for i in range(len(endpoints)):
                    url = endpoints[(current + i) % len(endpoints)] + "/v3/lease/keepalive"
                    try:
                        response = http.post(url, json={"ID": str(lease)})
                        doc = response.json()
                    except (httpx.HTTPError, ValueError) as exc:
                        error = str(exc)
                        continue
                    current = (current + i) % len(endpoints)
                    if response.status_code != 200 or "error" in doc:
                        error = str(doc.get("message") or doc.get("error"))
                        continue
                    ttl = int(doc.get("result", {}).get("TTL", 0))
                    break
                if ttl is None:
                    if self._etcd_ok:
                        log.warning("etcd_unreachable", doing="refreshing the lease", error=error)
                        self._etcd_ok = False
                    if time.monotonic() - self._last_alive < self._session_ms / 1000:
                        self._last_alive = attempt  # etcd away, not us: nobody else can lead now
                    continue
                if not self._etcd_ok:
                    log.info("etcd_reachable")
                    self._etcd_ok = True
                if ttl > 0:
                    self._last_alive = attempt
                    continue
                # The event loop re-registers; this thread goes on refreshing what it gets.
                lost = lease
                try:
                    trio.from_thread.run_sync(self._lease_lost, lost, trio_token=token)
                except trio.RunFinishedError:
                    return
                while self.lease == lost and not stop.wait(RETRY_S):
                    pass

    def _lease_lost(self, lease: int) -> None:
        """Paused or cut off past the TTL: the cluster has moved on without us (called in
        the event loop by the keep-alive thread)."""
        if self.lease != lease:
            return
        log.warning("broker_lease_lost", node=self.node_id, epoch=self.broker_epoch)
        self.lease = self.broker_epoch = None
        self.controller.resign()
        self._publish()  # fences every partition we led
        self._lost.set()

    async def _reregister_when_lost(self) -> None:
        while True:
            await self._lost.wait()
            self._lost = trio.Event()
            await self._retrying("registering again", self._register)
            self._publish()

    async def _load_all(self) -> None:
        kvs, revision = await self.client.get_prefix(self.keys.root)
        self._mirror = Mirror(self.keys, kvs)
        self._revision = 0
        self._publish_at(revision)

    def _publish_at(self, revision: int) -> None:
        """Publish the mirror as of ``revision`` (the image's version), then wake waiters."""
        previous = self._revision
        self._revision = max(previous, revision)
        self._publish()
        if self._revision > previous:
            self._revision_changed.set()
            self._revision_changed = trio.Event()

    async def _follow(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        while True:
            try:
                await self._watch_guarded()
                if self._watch_stalled:
                    self._watch_stalled = False
                    log.warning("etcd_watch_stalled", revision=self._revision, seconds=WATCH_STALL_S)
                    self.client.next_endpoint()
            except EtcdCompacted:
                await self._retrying("reading the cluster metadata", self._load_all)
            except EtcdUnavailable as exc:
                if self._etcd_ok:
                    log.warning("etcd_unreachable", doing="watching", error=str(exc))
                await trio.sleep(RETRY_S)

    async def _watch_guarded(self) -> None:
        """One watch stream beside its guard. The stream's end (always an error) is
        raised as itself, not inside the nursery's exception group, so :meth:`_follow`
        retries it; a stall the guard saw returns with ``_watch_stalled`` set."""
        failure: EtcdUnavailable | EtcdCompacted | None = None
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._guard_watch, nursery.cancel_scope)
            try:
                await self._watch_once()
            except (EtcdUnavailable, EtcdCompacted) as exc:
                failure = exc
            nursery.cancel_scope.cancel()
        if failure is not None:
            raise failure

    async def _watch_once(self) -> None:
        """Apply the watch's events until the stream ends (it always ends in an error)."""
        stream = self.client.watch(self.keys.root, prefix_end(self.keys.root), self._revision + 1)
        async with aclosing(stream):
            async for header_revision, events in stream:
                self._watch_heard = trio.current_time()
                self._watch_revision = max(self._watch_revision, header_revision)
                self._mirror.apply(events)
                if not events:
                    continue  # "created" and progress notifications: nothing to apply
                self._publish_at(max(e.revision for e in events))
                self._results(events)
        raise EtcdUnavailable("watch stream ended")

    async def _guard_watch(self, scope: trio.CancelScope) -> None:
        """Close the watch when it has been silent for ``WATCH_STALL_S`` while etcd's
        revision, read from any member that answers, is past what it delivered."""
        behind_since: float | None = None
        while True:
            await trio.sleep(WATCH_CHECK_S)
            now = trio.current_time()
            if now - self._watch_heard < WATCH_CHECK_S:
                behind_since = None
                continue
            try:
                _, revision = await self.client.range(self.keys.cluster_id)
            except (EtcdUnavailable, EtcdError):
                continue  # etcd away: nothing to miss now; the lease side deals with it
            if revision <= max(self._revision, self._watch_revision):
                behind_since = None
            elif behind_since is None:
                behind_since = now
            elif now - behind_since >= WATCH_STALL_S:
                self._watch_stalled = True
                scope.cancel()
                return

    # --- requests to the controller --------------------------------------------------

    def _results(self, events: Iterable[Any]) -> None:
        for event in events:
            key = event.kv.key
            if not event.deleted and key.startswith(self.keys.results):
                waiter = self._waiting.get(key[len(self.keys.results) :].decode())
                if waiter is not None:
                    waiter.set()

    async def wait_revision(self, revision: int) -> None:
        while self._revision < revision:
            await self._revision_changed.wait()

    async def _request(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send a topic request to the controller and wait for its answer (raises KafkaError)."""
        if self.lease is None:
            raise KafkaError(ErrorCode.REQUEST_TIMED_OUT, "this broker is not registered in the cluster")
        request_id = uuid.uuid4().hex
        event = self._waiting[request_id] = trio.Event()
        result_key = self.keys.result(request_id)
        try:
            with trio.move_on_after(self._request_timeout_s) as scope:
                with _etcd_reachable():
                    await self.client.put(self.keys.request(request_id), json.dumps(request).encode(), lease=self.lease)
                self.controller.wake()
                await event.wait()
            if scope.cancelled_caught:
                with trio.move_on_after(1.0):
                    try:
                        await self.client.delete(self.keys.request(request_id))
                    except (EtcdUnavailable, EtcdError):
                        pass
                raise KafkaError(ErrorCode.REQUEST_TIMED_OUT, "no controller answered the metadata request in time")
            kv = self._mirror.get(result_key)
            assert kv is not None
            result = json.loads(kv.value)
            try:
                await self.client.delete(result_key)
            except (EtcdUnavailable, EtcdError):
                pass  # it goes with our lease
        finally:
            del self._waiting[request_id]
        if "error" in result:
            raise KafkaError(ErrorCode.for_code(int(result["error"])), result.get("message"))
        await self.wait_revision(kv.mod_revision)
        return result

    def _topic_image(self, doc: Mapping[str, Any], name: str) -> TopicImage:
        """A topic as a request's result describes it: the controller's summary (id,
        configs, partition count, first replica list; enough for the answers that need
        a topic this broker's image does not show yet), or a whole topic."""
        if "partitions" not in doc:
            replicas = tuple(int(r) for r in doc.get("replicas", ()))
            state = PartitionState(NO_LEADER, 0, replicas, replicas)
            return TopicImage(
                name,
                uuid.UUID(doc["id"]),
                (state,) * int(doc["count"]),
                MappingProxyType(dict(doc.get("configs", {}))),
                bool(doc.get("internal", False)),
            )
        record = TopicRecord.decode(name, json.dumps(doc).encode())
        return TopicImage(
            name,
            record.topic_id,
            tuple(self._partition_state(p) for p in record.partitions),
            MappingProxyType(dict(record.configs)),
            record.internal,
        )

    async def create_topic(
        self,
        name: str,
        partitions: int,
        replication_factor: int,
        configs: Mapping[str, Any],
        *,
        assignments: Sequence[Sequence[int]] | None = None,
        validate_only: bool = False,
        internal: bool = False,
    ) -> TopicImage:
        topic = _topic_doc(NewTopic(name, partitions, replication_factor, configs, assignments, internal))
        result = await self._request({"op": "create_topic", **topic, "validate_only": validate_only})
        if validate_only:
            return self._topic_image(result["topic"], name)
        t = self._image.topic(name)
        return t if t is not None else self._topic_image(result["topic"], name)

    async def create_topics(
        self, topics: Sequence[NewTopic], *, validate_only: bool = False
    ) -> list[TopicImage | KafkaError]:
        """Many topics in one request to the controller, which writes them in as few etcd
        transactions as etcd's limits allow (each topic in one)."""
        if not topics:
            return []
        result = await self._request(
            {
                "op": "create_topics",
                "validate_only": validate_only,
                "topics": [_topic_doc(t) for t in topics],
            }
        )
        out: list[TopicImage | KafkaError] = []
        for name, code, message, doc in result["results"]:
            if code:
                out.append(KafkaError(ErrorCode.for_code(int(code)), message))
                continue
            t = None if validate_only else self._image.topic(name)
            out.append(t if t is not None else self._topic_image(doc, name))
        return out

    async def delete_topic(self, name: str) -> None:
        await self._request({"op": "delete_topic", "name": name})

    async def create_partitions(
        self,
        name: str,
        total: int,
        *,
        assignments: Sequence[Sequence[int]] | None = None,
        validate_only: bool = False,
    ) -> TopicImage:
        result = await self._request(
            {
                "op": "create_partitions",
                "name": name,
                "total": total,
                "assignments": [list(r) for r in assignments] if assignments else None,
                "validate_only": validate_only,
            }
        )
        return self._topic_image(result["topic"], name)

    async def alter_topic_configs(
        self, name: str, set_: Mapping[str, Any], delete: Iterable[str], *, validate_only: bool = False
    ) -> TopicImage:
        result = await self._request(
            {
                "op": "alter_configs",
                "name": name,
                "set": {k: config_text(v) for k, v in set_.items()},
                "delete": list(delete),
                "validate_only": validate_only,
            }
        )
        return self._topic_image(result["topic"], name)

    async def elect_leaders(self, election_type: int, partitions: Sequence[tuple[str, int]] | None) -> list[Any]:
        """ElectLeaders through the controller: [[topic, partition, error code, message]]."""
        result = await self._request(
            {
                "op": "elect_leaders",
                "type": election_type,
                "partitions": None if partitions is None else [list(p) for p in partitions],
            }
        )
        return list(result["results"])

    async def alter_reassignments(
        self, partitions: Sequence[tuple[str, int, Sequence[int] | None]], *, allow_rf_change: bool = True
    ) -> list[Any]:
        """AlterPartitionReassignments through the controller: [[topic, partition, code, message]]."""
        result = await self._request(
            {
                "op": "alter_reassignments",
                "partitions": [[t, i, None if r is None else list(r)] for t, i, r in partitions],
                "allow_rf_change": allow_rf_change,
            }
        )
        return list(result["results"])

    async def controlled_shutdown(self, timeout_s: float) -> bool:
        """Ask the controller to move this broker's leaderships away and take it out of
        the ISRs; True once no partition it leads has another in-sync replica to go to
        (False after ``timeout_s``)."""
        lease, epoch = self.lease, self.broker_epoch
        if lease is None or epoch is None:
            return False
        value = json.dumps({"id": self.node_id, "broker_epoch": epoch}).encode()
        started = trio.current_time()
        with trio.move_on_after(timeout_s):
            try:
                await self.client.put(self.keys.shutting_down(self.node_id), value, lease=lease)
            except (EtcdUnavailable, EtcdError) as exc:
                log.warning("controlled_shutdown_failed", error=str(exc))
                return False
            self.controller.wake()
            while not self._shutdown_done():
                await self._revision_changed.wait()
            log.info("controlled_shutdown_done", seconds=round(trio.current_time() - started, 3))
            return True
        log.warning("controlled_shutdown_timed_out", seconds=timeout_s, still_leading=self._still_leading())
        return False

    def _shutting_down(self) -> set[int]:
        """Brokers that asked for a controlled shutdown (this one included)."""
        return {int(json.loads(kv.value)["id"]) for kv in self._mirror.section(self.keys.shutdown).values()}

    def _still_leading(self) -> int:
        return sum(1 for t in self._image.topics.values() for p in t.partitions if p.leader == self.node_id)

    def _shutdown_done(self) -> bool:
        """Nothing led here that another live in-sync replica could lead, and out of every
        ISR that has another member. Brokers in controlled shutdown themselves do not
        count: when the whole cluster stops at once, nobody waits for the others."""
        live = set(self._image.brokers) - self._shutting_down()
        for t in self._image.topics.values():
            for p in t.partitions:
                others = [r for r in p.isr if r != self.node_id and r in live]
                if others and (p.leader == self.node_id or self.node_id in p.isr):
                    return False
        return True

    # --- group configs ---------------------------------------------------------------

    def group_configs(self) -> dict[str, dict[str, str]]:
        """Every group's config overrides as etcd has them."""
        out = {}
        n = len(self.keys.group_configs)
        for key, kv in self._mirror.section(self.keys.group_configs).items():
            out[key[n:].decode()] = dict(json.loads(kv.value))
        return out

    async def put_group_configs(self, group_id: str, overrides: Mapping[str, str]) -> None:
        """Store a group's overrides cluster-wide (raises KafkaError when etcd is away)."""
        key = self.keys.group_config(group_id)

        async def write() -> int | None:
            if overrides:
                return await self.client.put(key, json.dumps(dict(overrides), sort_keys=True).encode())
            if key in self._mirror:
                _, revision = await self.client.txn([], [Op(key)])
                return revision
            return None

        await self._change(write, "group config")

    # --- security documents (ACLs, SCRAM credentials, client quotas) ----------------

    def documents(self, section: str) -> dict[str, bytes]:
        """Every document of ``section`` as etcd has it: {name: value}."""
        prefix = self.keys.security_document(section, "")
        n = len(prefix)
        return {key[n:].decode(): kv.value for key, kv in self._mirror.under(prefix).items()}

    async def write_documents(self, section: str, puts: Mapping[str, bytes], deletes: Iterable[str]) -> None:
        """Put and delete documents of ``section`` in one etcd transaction; returns once this
        broker's image has the change (raises KafkaError when etcd is away)."""
        ops = [Op(self.keys.security_document(section, name), value) for name, value in puts.items()]
        ops += [Op(self.keys.security_document(section, name)) for name in deletes]
        if not ops:
            return

        async def write() -> int:
            _, revision = await self.client.txn([], ops)
            return revision

        await self._change(write, section)

    async def _change(self, write: Callable[[], Awaitable[int | None]], what: str) -> None:
        """Make an etcd change with ``write`` (its revision; None: nothing to change) and
        return once this broker's image has it; REQUEST_TIMED_OUT when etcd is away or the
        change is not seen in time (``what`` names it)."""
        with trio.move_on_after(self._request_timeout_s) as scope:
            with _etcd_reachable():
                revision = await write()
            if revision is None:
                return
            await self.wait_revision(revision)
        if scope.cancelled_caught:
            raise KafkaError(ErrorCode.REQUEST_TIMED_OUT, f"the {what} change was not seen in time")


@contextmanager
def _etcd_reachable() -> Iterator[None]:
    """An etcd failure within is REQUEST_TIMED_OUT: the cluster metadata store is unreachable."""
    try:
        yield
    except (EtcdUnavailable, EtcdError) as exc:
        raise KafkaError(ErrorCode.REQUEST_TIMED_OUT, f"the cluster metadata store is unreachable: {exc}") from exc


def _topic_doc(t: NewTopic) -> dict[str, Any]:
    """A topic to create as the controller's requests carry it (configs as text)."""
    return {
        "name": t.name,
        "partitions": t.partitions,
        "replication_factor": t.replication_factor,
        "configs": {k: config_text(v) for k, v in t.configs.items()},
        "assignments": [list(r) for r in t.assignments] if t.assignments else None,
        "internal": t.internal,
    }


class ClusterProducerIds:
    """Producer ids unique across the cluster: blocks reserved by compare-and-swap on
    one etcd key (``producer_ids``), as Kafka's brokers once reserved them in ZooKeeper.

    :meth:`allocate` is synchronous (the transaction core calls it inline): it hands
    out ids from the current block, and the background task reserves the next block
    before this one runs out. With no block in hand (etcd away since start, or a burst
    of new producers) it raises COORDINATOR_LOAD_IN_PROGRESS, Kafka's answer then;
    clients retry.
    """

    def __init__(self, client: EtcdClient, keys: Keys, block: int = PRODUCER_ID_BLOCK) -> None:
        self._client = client
        self._keys = keys
        self._block = block
        self._blocks: list[tuple[int, int]] = []  # [start, end)
        self._need = trio.Event()
        self._need.set()

    def allocate(self) -> int:
        while self._blocks and self._blocks[0][0] >= self._blocks[0][1]:
            self._blocks.pop(0)
        if len(self._blocks) < 2 or self._blocks[0][1] - self._blocks[0][0] < self._block // 10:
            self._need.set()
        if not self._blocks:
            raise KafkaError(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, "reserving producer ids")
        start, end = self._blocks[0]
        self._blocks[0] = (start + 1, end)
        return start

    async def run(self) -> None:
        while True:
            await self._need.wait()
            try:
                await self._reserve()
            except (EtcdUnavailable, EtcdError) as exc:
                log.warning("producer_id_block_failed", error=str(exc))
                await trio.sleep(RETRY_S)
                continue
            if len(self._blocks) >= 2:
                self._need = trio.Event()

    async def _reserve(self) -> None:
        key = self._keys.producer_ids
        while True:
            kv = await self._client.get(key)
            start = int(json.loads(kv.value)["next"]) if kv is not None else 0
            guard = Compare(key, "MOD", kv.mod_revision) if kv is not None else Compare(key, "VERSION", 0)
            value = json.dumps({"next": start + self._block}).encode()
            ok, _ = await self._client.txn([guard], [Op(key, value)])
            if ok:
                self._blocks.append((start, start + self._block))
                return
