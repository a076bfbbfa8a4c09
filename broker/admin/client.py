"""A small synchronous Kafka admin client over plain sockets.

It speaks the wire protocol through the generated message classes and the
sans-IO ``ClientConnection``; there is no second protocol implementation here.
Every call has a deadline (``timeout`` seconds, default 30 s): connecting,
sending and waiting for the response all count against it.

    with AdminClient("localhost:9092") as admin:
        admin.list_groups(types=["share"])

The operator tools that need more than admin calls (producer-perf's in-flight
window, the console share consumer's sessions) take a ``BrokerConnection``
from ``AdminClient.connect`` / ``bootstrap_connection`` (or build one) and use
``call`` or the pipelined ``send`` / ``receive``; versions are negotiated
from ApiVersions unless given.

The transport (``BrokerConnection``, the deadline, the errors) lives in
:mod:`broker.admin.connection` and is re-exported here.

Failures raise ``AdminError`` subclasses: ``KafkaApiError`` carries the Kafka
error code (``code``, an ``ErrorCode``) and the broker's message;
``AdminConnectionError`` and ``AdminTimeoutError`` cover the transport.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from broker.admin.connection import (
    DEFAULT_TIMEOUT,
    AdminAuthenticationError,
    AdminConnectionError,
    AdminError,
    AdminTimeoutError,
    BrokerConnection,
    Deadline,
    KafkaApiError,
    Node,
    UnsupportedApiError,
    check_error,
    error_name,
    parse_bootstrap,
)
from broker.protocol.errors import ErrorCode
from broker.protocol.message_base import Message
from broker.protocol.messages.alter_share_group_offsets_request import (
    AlterShareGroupOffsetsRequest,
    AlterShareGroupOffsetsRequestPartition,
    AlterShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.consumer_group_describe_request import ConsumerGroupDescribeRequest
from broker.protocol.messages.create_partitions_request import CreatePartitionsRequest, CreatePartitionsTopic
from broker.protocol.messages.create_topics_request import (
    CreatableTopic,
    CreatableTopicConfig,
    CreateTopicsRequest,
)
from broker.protocol.messages.delete_groups_request import DeleteGroupsRequest
from broker.protocol.messages.delete_share_group_offsets_request import (
    DeleteShareGroupOffsetsRequest,
    DeleteShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.delete_topics_request import DeleteTopicsRequest, DeleteTopicState
from broker.protocol.messages.describe_cluster_request import DescribeClusterRequest
from broker.protocol.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource
from broker.protocol.messages.describe_groups_request import DescribeGroupsRequest
from broker.protocol.messages.describe_producers_request import DescribeProducersRequest, TopicRequest
from broker.protocol.messages.describe_share_group_offsets_request import (
    DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsRequestGroup,
    DescribeShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.describe_transactions_request import DescribeTransactionsRequest
from broker.protocol.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from broker.protocol.messages.find_coordinator_request import FindCoordinatorRequest
from broker.protocol.messages.incremental_alter_configs_request import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from broker.protocol.messages.list_groups_request import ListGroupsRequest
from broker.protocol.messages.list_offsets_request import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsTopic,
)
from broker.protocol.messages.list_transactions_request import ListTransactionsRequest
from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from broker.protocol.messages.offset_commit_request import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from broker.protocol.messages.offset_delete_request import (
    OffsetDeleteRequest,
    OffsetDeleteRequestPartition,
    OffsetDeleteRequestTopic,
)
from broker.protocol.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestGroup
from broker.protocol.messages.share_group_describe_request import ShareGroupDescribeRequest
from broker.protocol.messages.streams_group_describe_request import StreamsGroupDescribeRequest
from broker.protocol.messages.write_txn_markers_request import (
    WritableTxnMarker,
    WritableTxnMarkerTopic,
    WriteTxnMarkersRequest,
)
from broker.security.client import ClientSecurity

__all__ = [
    "COORDINATOR_GROUP",
    "COORDINATOR_TRANSACTION",
    "EARLIEST_TIMESTAMP",
    "LATEST_TIMESTAMP",
    "OP_APPEND",
    "OP_DELETE",
    "OP_SET",
    "OP_SUBTRACT",
    "RESOURCE_BROKER",
    "RESOURCE_GROUP",
    "RESOURCE_TOPIC",
    "AdminAuthenticationError",
    "AdminClient",
    "AdminConnectionError",
    "AdminError",
    "AdminTimeoutError",
    "BrokerConnection",
    "KafkaApiError",
    "Node",
    "UnsupportedApiError",
    "check_error",
    "error_name",
    "parse_bootstrap",
    "set_group_configs",
]

# ListOffsets special timestamps.
LATEST_TIMESTAMP = -1
EARLIEST_TIMESTAMP = -2
# FindCoordinator key types; config resource types; config operations.
COORDINATOR_GROUP = 0
COORDINATOR_TRANSACTION = 1
RESOURCE_TOPIC, RESOURCE_BROKER, RESOURCE_GROUP = 2, 4, 32
OP_SET, OP_DELETE, OP_APPEND, OP_SUBTRACT = 0, 1, 2, 3
P = TypeVar("P")  # a request's partition entry


class AdminClient:
    """Synchronous admin client: bootstrap, then route each call to the right broker."""

    def __init__(
        self,
        bootstrap_servers: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        client_id: str = "sharebroker-admin",
        security: ClientSecurity | None = None,
    ) -> None:
        self.bootstrap = parse_bootstrap(bootstrap_servers)
        self.timeout = timeout
        self.client_id = client_id
        self.security = security
        self._conns: dict[tuple[str, int], BrokerConnection] = {}
        self._bootstrap_conn: BrokerConnection | None = None

    # -- plumbing ---------------------------------------------------------------------------

    def __enter__(self) -> AdminClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for conn in self._conns.values():
            conn.close()
        self._conns.clear()
        self._bootstrap_conn = None

    def _deadline(self, timeout: float | None) -> Deadline:
        return Deadline(self.timeout if timeout is None else timeout)

    def _connect(self, host: str, port: int, deadline: Deadline) -> BrokerConnection:
        conn = self._conns.get((host, port))
        if conn is None:
            conn = BrokerConnection(
                host, port, client_id=self.client_id, timeout=self.timeout, deadline=deadline, security=self.security
            )
            self._conns[(host, port)] = conn
        return conn

    def _any(self, deadline: Deadline) -> BrokerConnection:
        if self._bootstrap_conn is not None:
            return self._bootstrap_conn
        errors = []
        for host, port in self.bootstrap:
            try:
                self._bootstrap_conn = self._connect(host, port, deadline)
                return self._bootstrap_conn
            except AdminConnectionError as exc:
                errors.append(str(exc))
        raise AdminConnectionError("; ".join(errors))

    def _send(self, conn: BrokerConnection, request: Message, deadline: Deadline) -> Any:
        try:
            return conn._call(request, None, deadline)
        except AdminConnectionError:
            conn.close()
            self._conns.pop((conn.host, conn.port), None)
            if self._bootstrap_conn is conn:
                self._bootstrap_conn = None
            raise

    def connect(self, node: Node | tuple[str, int], *, timeout: float | None = None) -> BrokerConnection:
        """The (cached, version-negotiated) connection to ``node``; closed with the client."""
        host, port = (node.host, node.port) if isinstance(node, Node) else node
        return self._connect(host, port, self._deadline(timeout))

    def bootstrap_connection(self, *, timeout: float | None = None) -> BrokerConnection:
        """The connection to the first reachable bootstrap broker; closed with the client."""
        return self._any(self._deadline(timeout))

    def send(self, request: Message, *, node: Node | None = None, timeout: float | None = None) -> Any:
        """Send any generated request (to ``node`` or a bootstrap broker) at the best shared version."""
        deadline = self._deadline(timeout)
        conn = self._connect(node.host, node.port, deadline) if node else self._any(deadline)
        return self._send(conn, request, deadline)

    def api_versions(self, timeout: float | None = None) -> dict[int, tuple[int, int]]:
        return dict(self._any(self._deadline(timeout)).versions)

    # -- cluster ----------------------------------------------------------------------------

    def metadata(self, topics: Sequence[str] | None = None, *, timeout: float | None = None) -> Any:
        """MetadataResponse for ``topics`` (None: all topics)."""
        req = MetadataRequest(
            topics=None if topics is None else [MetadataRequestTopic(name=t) for t in topics],
            allow_auto_topic_creation=False,
        )
        return self.send(req, timeout=timeout)

    def topic_partitions(
        self, topics: Sequence[str] | None = None, *, timeout: float | None = None
    ) -> dict[str, list[int]]:
        """Topic name -> sorted partition ids; an unknown topic raises ``KafkaApiError``."""
        resp = self.metadata(topics, timeout=timeout)
        out: dict[str, list[int]] = {}
        for t in resp.topics:
            check_error(t.error_code, None, f"topic {t.name!r}")
            out[t.name] = sorted(p.partition_index for p in t.partitions)
        return out

    def find_coordinator(self, group: str, *, timeout: float | None = None, key_type: int = COORDINATOR_GROUP) -> Node:
        """The coordinator of a group id (or, with ``key_type`` 1, of a transactional id)."""
        deadline = self._deadline(timeout)
        conn = self._any(deadline)
        version = conn.version_for(FindCoordinatorRequest)
        if version >= 4:
            req = FindCoordinatorRequest(key_type=key_type, coordinator_keys=[group])
        else:
            req = FindCoordinatorRequest(key=group, key_type=key_type)
        resp = self._send(conn, req, deadline)
        if version >= 4:
            if not resp.coordinators:
                raise KafkaApiError(ErrorCode.COORDINATOR_NOT_AVAILABLE, None, f"FindCoordinator({group!r})")
            c = resp.coordinators[0]
            check_error(c.error_code, c.error_message, f"FindCoordinator({group!r})")
            return Node(c.node_id, c.host, c.port)
        check_error(resp.error_code, resp.error_message, f"FindCoordinator({group!r})")
        return Node(resp.node_id, resp.host, resp.port)

    def find_coordinators(
        self, keys: Sequence[str], *, key_type: int = COORDINATOR_GROUP, timeout: float | None = None
    ) -> dict[str, Node | KafkaApiError]:
        """The coordinators of several keys: one FindCoordinator v4+ (KIP-699) for all of
        them, or one request per key from a broker older than v4; key -> node or error."""
        deadline = self._deadline(timeout)
        conn = self._any(deadline)
        out: dict[str, Node | KafkaApiError] = {}
        if not keys:
            return out
        if conn.version_for(FindCoordinatorRequest) < 4:
            for key in keys:
                try:
                    out[key] = self.find_coordinator(
                        key, key_type=key_type, timeout=deadline.remaining("FindCoordinator")
                    )
                except KafkaApiError as exc:
                    out[key] = exc
            return out
        resp = self._send(conn, FindCoordinatorRequest(key_type=key_type, coordinator_keys=list(keys)), deadline)
        for c in resp.coordinators:
            if c.error_code:
                out[c.key] = KafkaApiError(c.error_code, c.error_message, f"FindCoordinator({c.key!r})")
            else:
                out[c.key] = Node(c.node_id, c.host, c.port)
        for key in keys:
            out.setdefault(key, KafkaApiError(ErrorCode.COORDINATOR_NOT_AVAILABLE, None, f"FindCoordinator({key!r})"))
        return out

    def describe_cluster(self, *, timeout: float | None = None) -> Any:
        """The DescribeClusterResponse (cluster id, controller, brokers with their racks)."""
        resp = self.send(DescribeClusterRequest(), timeout=timeout)
        check_error(resp.error_code, resp.error_message, "DescribeCluster")
        return resp

    def _to_coordinator(self, group: str, request: Message, timeout: float | None) -> Any:
        deadline = self._deadline(timeout)
        node = self.find_coordinator(group, timeout=deadline.remaining("FindCoordinator"))
        conn = self._connect(node.host, node.port, deadline)
        return self._send(conn, request, deadline)

    # -- groups -----------------------------------------------------------------------------

    def list_groups(
        self, *, types: Iterable[str] = (), states: Iterable[str] = (), timeout: float | None = None
    ) -> list[Any]:
        """ListGroups (v5 filters by type and state) to every broker, as Kafka's admin
        client asks them all (each lists the groups it coordinates); the ``ListedGroup``
        entries, each group once."""
        brokers = self.send(MetadataRequest(topics=[]), timeout=timeout).brokers
        found: dict[str, Any] = {}
        for b in sorted(brokers, key=lambda b: b.node_id) or [None]:
            req = ListGroupsRequest(states_filter=list(states), types_filter=list(types))
            node = None if b is None else Node(b.node_id, b.host, b.port)
            resp = self.send(req, node=node, timeout=timeout)
            check_error(resp.error_code, None, "ListGroups")
            for g in resp.groups:
                found.setdefault(g.group_id, g)
        return list(found.values())

    def _one_group(self, group: str, request: Any, api: str, timeout: float | None) -> Any:
        """``group``'s entry in the answer of its coordinator to a request about groups
        (its error code raised; GROUP_ID_NOT_FOUND when the answer leaves it out)."""
        resp = self._to_coordinator(group, request, timeout)
        for g in resp.groups:
            if g.group_id == group:
                check_error(g.error_code, g.error_message, f"{api}({group!r})")
                return g
        raise KafkaApiError(ErrorCode.GROUP_ID_NOT_FOUND, None, f"{api}({group!r})")

    def describe_share_group(self, group: str, *, timeout: float | None = None) -> Any:
        """The ``DescribedGroup`` of one share group (error codes raised)."""
        return self._one_group(group, ShareGroupDescribeRequest(group_ids=[group]), "ShareGroupDescribe", timeout)

    def describe_share_group_offsets(
        self, group: str, topics: Mapping[str, Sequence[int]] | None = None, *, timeout: float | None = None
    ) -> Any:
        """The ``DescribeShareGroupOffsetsResponseGroup`` for ``group`` (topics None: all)."""
        req_topics = (
            None
            if topics is None
            else [DescribeShareGroupOffsetsRequestTopic(topic_name=t, partitions=list(p)) for t, p in topics.items()]
        )
        req = DescribeShareGroupOffsetsRequest(
            groups=[DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=req_topics)]
        )
        return self._one_group(group, req, "DescribeShareGroupOffsets", timeout)

    def alter_share_group_offsets(
        self, group: str, offsets: Mapping[tuple[str, int], int], *, timeout: float | None = None
    ) -> Any:
        """Set share-partition start offsets; raises on the first error (group or partition)."""
        by_topic = _by_topic(
            offsets, lambda p, offset: AlterShareGroupOffsetsRequestPartition(partition_index=p, start_offset=offset)
        )
        req = AlterShareGroupOffsetsRequest(
            group_id=group,
            topics=[AlterShareGroupOffsetsRequestTopic(topic_name=t, partitions=p) for t, p in by_topic.items()],
        )
        resp = self._to_coordinator(group, req, timeout)
        check_error(resp.error_code, resp.error_message, f"AlterShareGroupOffsets({group!r})")
        for t in resp.responses:
            for p in t.partitions:
                check_error(
                    p.error_code,
                    p.error_message,
                    f"AlterShareGroupOffsets({group!r}) {t.topic_name}-{p.partition_index}",
                )
        return resp

    def delete_share_group_offsets(
        self, group: str, topics: Sequence[str], *, timeout: float | None = None
    ) -> dict[str, KafkaApiError | None]:
        """Delete a share group's offsets for ``topics``; topic -> error (None on success).

        A group-level error is raised.
        """
        req = DeleteShareGroupOffsetsRequest(
            group_id=group, topics=[DeleteShareGroupOffsetsRequestTopic(topic_name=t) for t in topics]
        )
        resp = self._to_coordinator(group, req, timeout)
        check_error(resp.error_code, resp.error_message, f"DeleteShareGroupOffsets({group!r})")
        out: dict[str, KafkaApiError | None] = dict.fromkeys(topics)
        for t in resp.responses:
            out[t.topic_name] = KafkaApiError(t.error_code, t.error_message) if t.error_code else None
        return out

    def delete_groups(self, groups: Sequence[str], *, timeout: float | None = None) -> dict[str, KafkaApiError | None]:
        """DeleteGroups, one request per coordinator; group -> error (None on success)."""
        out: dict[str, KafkaApiError | None] = {}
        for group in groups:
            resp = self._to_coordinator(group, DeleteGroupsRequest(groups_names=[group]), timeout)
            for r in resp.results:
                out[r.group_id] = KafkaApiError(r.error_code) if r.error_code else None
        return out

    # -- consumer, classic and streams groups ----------------------------------------------

    def _to_coordinator_by_name(self, group: str, request: Message, max_version: int, timeout: float | None) -> Any:
        """To the group's coordinator at a version that still names topics (the
        offset APIs' newest versions name them by id)."""
        deadline = self._deadline(timeout)
        node = self.find_coordinator(group, timeout=deadline.remaining("FindCoordinator"))
        conn = self._connect(node.host, node.port, deadline)
        version = min(conn.version_for(type(request)), max_version)
        return conn.call(request, version, timeout=deadline.remaining(type(request).NAME))

    def describe_consumer_group(self, group: str, *, timeout: float | None = None) -> Any:
        """The ``DescribedGroup`` of ConsumerGroupDescribe for one group (errors raised)."""
        return self._one_group(group, ConsumerGroupDescribeRequest(group_ids=[group]), "ConsumerGroupDescribe", timeout)

    def describe_classic_group(self, group: str, *, timeout: float | None = None) -> Any:
        """The ``DescribedGroup`` of DescribeGroups for one classic group (errors raised)."""
        return self._one_group(group, DescribeGroupsRequest(groups=[group]), "DescribeGroups", timeout)

    def describe_streams_group(
        self, group: str, *, timeout: float | None = None, include_topology_description: bool = False
    ) -> Any:
        """The ``DescribedGroup`` of StreamsGroupDescribe for one group (errors raised); with
        ``include_topology_description`` (v1, KIP-1331) its topology description too."""
        req = StreamsGroupDescribeRequest(group_ids=[group], include_topology_description=include_topology_description)
        return self._one_group(group, req, "StreamsGroupDescribe", timeout)

    def fetch_offsets(self, group: str, *, timeout: float | None = None) -> dict[tuple[str, int], tuple[int, int]]:
        """Every committed offset of ``group``: (topic, partition) -> (offset, leader epoch)."""
        req = OffsetFetchRequest(groups=[OffsetFetchRequestGroup(group_id=group, topics=None)], require_stable=False)
        resp = self._to_coordinator_by_name(group, req, 9, timeout)
        out: dict[tuple[str, int], tuple[int, int]] = {}
        for g in resp.groups:
            check_error(g.error_code, None, f"OffsetFetch({group!r})")
            for t in g.topics:
                for p in t.partitions:
                    check_error(p.error_code, None, f"OffsetFetch({group!r}) {t.name}-{p.partition_index}")
                    if p.committed_offset >= 0:
                        out[(t.name, p.partition_index)] = (p.committed_offset, p.committed_leader_epoch)
        return out

    def commit_offsets(
        self, group: str, offsets: Mapping[tuple[str, int], int], *, timeout: float | None = None
    ) -> dict[tuple[str, int], KafkaApiError | None]:
        """OffsetCommit as an admin does (no member, generation -1): partition -> error or None."""
        by_topic = _by_topic(
            offsets, lambda p, offset: OffsetCommitRequestPartition(partition_index=p, committed_offset=offset)
        )
        req = OffsetCommitRequest(
            group_id=group,
            generation_id_or_member_epoch=-1,
            member_id="",
            topics=[OffsetCommitRequestTopic(name=t, partitions=ps) for t, ps in by_topic.items()],
        )
        resp = self._to_coordinator_by_name(group, req, 9, timeout)
        return _partition_errors(resp.topics)

    def delete_offsets(
        self, group: str, partitions: Mapping[str, Sequence[int]], *, timeout: float | None = None
    ) -> dict[tuple[str, int], KafkaApiError | None]:
        """OffsetDelete: partition -> error or None (a group-level error is raised)."""
        req = OffsetDeleteRequest(
            group_id=group,
            topics=[
                OffsetDeleteRequestTopic(
                    name=t, partitions=[OffsetDeleteRequestPartition(partition_index=p) for p in ps]
                )
                for t, ps in partitions.items()
            ],
        )
        resp = self._to_coordinator(group, req, timeout)
        check_error(resp.error_code, None, f"OffsetDelete({group!r})")
        return _partition_errors(resp.topics)

    # -- offsets ----------------------------------------------------------------------------

    def list_offsets(
        self, partitions: Mapping[tuple[str, int], int], *, timeout: float | None = None
    ) -> dict[tuple[str, int], int]:
        """(topic, partition) -> timestamp (or LATEST/EARLIEST_TIMESTAMP) => offset.

        For a timestamp later than every record the offset is -1 (Kafka's answer).
        Requests go to each partition's leader.
        """
        deadline = self._deadline(timeout)
        leaders, brokers = self._leaders((t for t, _ in partitions), deadline)
        by_leader: dict[int, dict[str, list[ListOffsetsPartition]]] = {}
        for (topic, partition), ts in sorted(partitions.items()):
            leader = leaders.get((topic, partition))
            if leader is None:
                raise KafkaApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, None, f"{topic}-{partition}")
            by_leader.setdefault(leader, {}).setdefault(topic, []).append(
                ListOffsetsPartition(partition_index=partition, timestamp=ts)
            )
        out: dict[tuple[str, int], int] = {}
        for leader, by_topic in by_leader.items():
            req = ListOffsetsRequest(
                replica_id=-1,
                topics=[ListOffsetsTopic(name=t, partitions=p) for t, p in by_topic.items()],
                timeout_ms=int(deadline.remaining("ListOffsets") * 1000),
            )
            node = brokers.get(leader)
            conn = self._connect(node.host, node.port, deadline) if node else self._any(deadline)
            resp = self._send(conn, req, deadline)
            for t in resp.topics:
                for p in t.partitions:
                    check_error(p.error_code, None, f"ListOffsets {t.name}-{p.partition_index}")
                    out[(t.name, p.partition_index)] = p.offset
        return out

    # -- transactions -----------------------------------------------------------------------

    def _leaders(self, topics: Iterable[str], deadline: Deadline) -> tuple[dict[tuple[str, int], int], dict[int, Node]]:
        meta = self.metadata(sorted(set(topics)), timeout=deadline.remaining("Metadata"))
        brokers = {b.node_id: Node(b.node_id, b.host, b.port) for b in meta.brokers}
        leaders: dict[tuple[str, int], int] = {}
        for t in meta.topics:
            check_error(t.error_code, None, f"topic {t.name!r}")
            for p in t.partitions:
                leaders[(t.name, p.partition_index)] = p.leader_id
        return leaders, brokers

    def _to_leader(self, topic: str, partition: int, request: Message, deadline: Deadline) -> Any:
        leaders, brokers = self._leaders([topic], deadline)
        leader = leaders.get((topic, partition))
        if leader is None:
            raise KafkaApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, None, f"{topic}-{partition}")
        node = brokers.get(leader)
        if node is None:
            raise KafkaApiError(ErrorCode.LEADER_NOT_AVAILABLE, None, f"{topic}-{partition}")
        return self._send(self._connect(node.host, node.port, deadline), request, deadline)

    def describe_transaction(self, transactional_id: str, *, timeout: float | None = None) -> tuple[int, Any]:
        """(coordinator id, the ``TransactionState`` entry) of one transactional id (errors raised)."""
        deadline = self._deadline(timeout)
        node = self.find_coordinator(
            transactional_id, key_type=COORDINATOR_TRANSACTION, timeout=deadline.remaining("FindCoordinator")
        )
        conn = self._connect(node.host, node.port, deadline)
        resp = self._send(conn, DescribeTransactionsRequest(transactional_ids=[transactional_id]), deadline)
        for state in resp.transaction_states:
            if state.transactional_id == transactional_id:
                check_error(state.error_code, None, f"DescribeTransactions({transactional_id!r})")
                return node.node_id, state
        raise KafkaApiError(ErrorCode.TRANSACTIONAL_ID_NOT_FOUND, None, f"DescribeTransactions({transactional_id!r})")

    def list_transactions(
        self,
        *,
        states: Iterable[str] = (),
        producer_ids: Iterable[int] = (),
        duration_ms: int = -1,
        pattern: str | None = None,
        timeout: float | None = None,
    ) -> list[tuple[int, Any]]:
        """ListTransactions on every broker: (coordinator id, ``TransactionState``) rows."""
        deadline = self._deadline(timeout)
        meta = self.metadata([], timeout=deadline.remaining("Metadata"))
        out: list[tuple[int, Any]] = []
        for b in sorted(meta.brokers, key=lambda b: b.node_id):
            conn = self._connect(b.host, b.port, deadline)
            req = ListTransactionsRequest(
                state_filters=list(states),
                producer_id_filters=list(producer_ids),
                duration_filter=duration_ms,
                transactional_id_pattern=pattern,
            )
            resp = self._send(conn, req, deadline)
            check_error(resp.error_code, None, f"ListTransactions on broker {b.node_id}")
            out += [(b.node_id, s) for s in resp.transaction_states]
        return out

    def describe_producers(self, topic: str, partition: int, *, timeout: float | None = None) -> list[Any]:
        """The ``ProducerState`` entries the partition's leader keeps (errors raised)."""
        deadline = self._deadline(timeout)
        req = DescribeProducersRequest(topics=[TopicRequest(name=topic, partition_indexes=[partition])])
        resp = self._to_leader(topic, partition, req, deadline)
        for t in resp.topics:
            for p in t.partitions:
                if t.name == topic and p.partition_index == partition:
                    check_error(p.error_code, p.error_message, f"DescribeProducers {topic}-{partition}")
                    return list(p.active_producers)
        raise KafkaApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, None, f"{topic}-{partition}")

    def abort_transaction(
        self,
        topic: str,
        partition: int,
        producer_id: int,
        producer_epoch: int,
        coordinator_epoch: int,
        *,
        timeout: float | None = None,
    ) -> None:
        """Write an ABORT marker for the producer's open transaction on one partition
        (WriteTxnMarkers to its leader, as Kafka's Admin.abortTransaction does)."""
        deadline = self._deadline(timeout)
        marker = WritableTxnMarker(
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            transaction_result=False,
            topics=[WritableTxnMarkerTopic(name=topic, partition_indexes=[partition])],
            coordinator_epoch=coordinator_epoch,
        )
        resp = self._to_leader(topic, partition, WriteTxnMarkersRequest(markers=[marker]), deadline)
        for m in resp.markers:
            for t in m.topics:
                for p in t.partitions:
                    check_error(p.error_code, None, f"WriteTxnMarkers {t.name}-{p.partition_index}")

    # -- configs ----------------------------------------------------------------------------

    def describe_config_entries(
        self, resource_type: int, name: str, keys: Sequence[str] | None = None, *, timeout: float | None = None
    ) -> list[Any]:
        """The ``DescribeConfigsResourceResult`` entries (name, value, config_source, ...) of one resource."""
        req = DescribeConfigsRequest(
            resources=[
                DescribeConfigsResource(
                    resource_type=resource_type,
                    resource_name=name,
                    configuration_keys=None if keys is None else list(keys),
                )
            ]
        )
        resp = self.send(req, timeout=timeout)
        out: list[Any] = []
        for r in resp.results:
            check_error(r.error_code, r.error_message, f"DescribeConfigs({name!r})")
            out.extend(r.configs)
        return out

    def describe_configs(
        self, resource_type: int, name: str, keys: Sequence[str] | None = None, *, timeout: float | None = None
    ) -> dict[str, str | None]:
        """Config name -> value of one resource."""
        return {c.name: c.value for c in self.describe_config_entries(resource_type, name, keys, timeout=timeout)}

    def incremental_alter_configs(
        self,
        resource_type: int,
        name: str,
        configs: Mapping[str, str | None],
        *,
        validate_only: bool = False,
        timeout: float | None = None,
    ) -> None:
        """Set each config (value None: delete it)."""
        req = IncrementalAlterConfigsRequest(
            resources=[
                AlterConfigsResource(
                    resource_type=resource_type,
                    resource_name=name,
                    configs=[
                        AlterableConfig(name=k, config_operation=OP_DELETE if v is None else OP_SET, value=v)
                        for k, v in configs.items()
                    ],
                )
            ],
            validate_only=validate_only,
        )
        resp = self.send(req, timeout=timeout)
        for r in resp.responses:
            check_error(r.error_code, r.error_message, f"IncrementalAlterConfigs({name!r})")

    def set_group_configs(self, group: str, configs: Mapping[str, str | None], *, timeout: float | None = None) -> None:
        """Set group-level configs (e.g. ``share.auto.offset.reset``); value None deletes one."""
        self.incremental_alter_configs(RESOURCE_GROUP, group, configs, timeout=timeout)

    # -- topics -----------------------------------------------------------------------------

    def create_topics(
        self,
        topics: Mapping[str, int],
        *,
        replication_factor: int = -1,
        configs: Mapping[str, str] | None = None,
        validate_only: bool = False,
        timeout: float | None = None,
    ) -> Any:
        deadline = self._deadline(timeout)
        req = CreateTopicsRequest(
            topics=[
                CreatableTopic(
                    name=t,
                    num_partitions=n,
                    replication_factor=replication_factor,
                    configs=[CreatableTopicConfig(name=k, value=v) for k, v in (configs or {}).items()],
                )
                for t, n in topics.items()
            ],
            timeout_ms=int(deadline.timeout * 1000),
            validate_only=validate_only,
        )
        resp = self.send(req, timeout=deadline.remaining("CreateTopics"))
        _check_topics(resp.topics, "CreateTopics")
        return resp

    def delete_topics(self, topics: Sequence[str], *, timeout: float | None = None) -> Any:
        deadline = self._deadline(timeout)
        conn = self._any(deadline)
        version = conn.version_for(DeleteTopicsRequest)
        if version >= 6:
            req = DeleteTopicsRequest(
                topics=[DeleteTopicState(name=t) for t in topics], timeout_ms=int(deadline.timeout * 1000)
            )
        else:
            req = DeleteTopicsRequest(topic_names=list(topics), timeout_ms=int(deadline.timeout * 1000))
        resp = self._send(conn, req, deadline)
        _check_topics(resp.responses, "DeleteTopics")
        return resp

    def create_partitions(
        self, counts: Mapping[str, int], *, validate_only: bool = False, timeout: float | None = None
    ) -> Any:
        deadline = self._deadline(timeout)
        req = CreatePartitionsRequest(
            topics=[CreatePartitionsTopic(name=t, count=n, assignments=None) for t, n in counts.items()],
            timeout_ms=int(deadline.timeout * 1000),
            validate_only=validate_only,
        )
        resp = self.send(req, timeout=deadline.remaining("CreatePartitions"))
        _check_topics(resp.results, "CreatePartitions")
        return resp


def _check_topics(results: Iterable[Any], api: str) -> None:
    """Raise the first error of a topic API's per-topic ``results`` (each with its topic's
    name, error code and message) as ``api('topic')``."""
    for r in results:
        check_error(r.error_code, r.error_message, f"{api}({r.name!r})")


def _by_topic(offsets: Mapping[tuple[str, int], int], entry: Callable[[int, int], P]) -> dict[str, list[P]]:
    """``offsets`` by (topic, partition), in order, as each topic's request entries ``entry(partition, offset)``."""
    by_topic: dict[str, list[P]] = {}
    for (topic, partition), offset in sorted(offsets.items()):
        by_topic.setdefault(topic, []).append(entry(partition, offset))
    return by_topic


def _partition_errors(topics: Iterable[Any]) -> dict[tuple[str, int], KafkaApiError | None]:
    """(topic, partition) -> its error, or None, of a response's topics (OffsetCommit, OffsetDelete)."""
    return {
        (t.name, p.partition_index): KafkaApiError(p.error_code) if p.error_code else None
        for t in topics
        for p in t.partitions
    }


def set_group_configs(
    bootstrap_servers: str, group: str, configs: Mapping[str, str | None], *, timeout: float = DEFAULT_TIMEOUT
) -> None:
    """One-shot ``AdminClient.set_group_configs`` against ``bootstrap_servers``."""
    with AdminClient(bootstrap_servers, timeout=timeout) as admin:
        admin.set_group_configs(group, configs)


def classic_assignment(data: bytes) -> dict[str, list[int]]:
    """A classic consumer's assignment as DescribeGroups carries it (the consumer
    protocol's Assignment, version first): topic -> sorted partitions; another
    protocol's or a malformed one reads as empty."""
    from broker.protocol.messages.consumer_protocol_assignment import ConsumerProtocolAssignment

    if len(data) < 2:
        return {}
    try:
        version = int.from_bytes(data[:2], "big", signed=True)
        decoded = ConsumerProtocolAssignment.decode(memoryview(data)[2:], min(max(version, 0), 3))
    except Exception:
        return {}
    out: dict[str, list[int]] = {}
    for tp in decoded.assigned_partitions:
        out.setdefault(tp.topic, []).extend(tp.partitions)
    return {t: sorted(ps) for t, ps in out.items()}


def member_assignment(assignment: Any) -> dict[str, list[int]]:
    """A KIP-848 or KIP-932 member's assignment as ConsumerGroupDescribe and
    ShareGroupDescribe carry it (``topic_partitions``): topic -> sorted partitions."""
    return {tp.topic_name: sorted(tp.partitions) for tp in assignment.topic_partitions}


def coalesce_acks(acks: Mapping[int, int]) -> list[tuple[int, int, int]]:
    """{offset: acknowledge type} -> (first offset, last offset, type) runs of consecutive
    offsets with one type, the AcknowledgementBatch entries of ShareFetch and ShareAcknowledge."""
    runs: list[list[int]] = []
    for offset in sorted(acks):
        kind = acks[offset]
        if runs and runs[-1][1] == offset - 1 and runs[-1][2] == kind:
            runs[-1][1] = offset
        else:
            runs.append([offset, offset, kind])
    return [(a, b, k) for a, b, k in runs]


def sessionless_fetch(
    topic: str,
    topic_id: uuid.UUID,
    positions: Iterable[tuple[int, int]],
    *,
    max_bytes: int,
    partition_max_bytes: int,
    min_bytes: int = 1,
) -> FetchRequest:
    """A Fetch of ``topic``'s partitions from their offsets (``positions``: (partition,
    offset)) as a reader that keeps no fetch session sends it: no session, no wait,
    READ_UNCOMMITTED."""
    return FetchRequest(
        replica_id=-1,
        max_wait_ms=0,
        min_bytes=min_bytes,
        max_bytes=max_bytes,
        isolation_level=0,
        session_id=0,
        session_epoch=-1,
        topics=[
            FetchTopic(
                topic=topic,
                topic_id=topic_id,
                partitions=[
                    FetchPartition(partition=p, fetch_offset=o, partition_max_bytes=partition_max_bytes)
                    for p, o in positions
                ],
            )
        ],
    )
