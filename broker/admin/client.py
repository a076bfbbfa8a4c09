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

Failures raise ``AdminError`` subclasses: ``KafkaApiError`` carries the Kafka
error code (``code``, an ``ErrorCode``) and the broker's message;
``AdminConnectionError`` and ``AdminTimeoutError`` cover the transport.
"""

from __future__ import annotations

import socket
import ssl
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from broker.protocol.api_keys import ApiKey
from broker.protocol.connection import CONNECTION_CLOSED, NEED_DATA, ClientConnection, Response
from broker.protocol.errors import ErrorCode, ProtocolError
from broker.protocol.message_base import Message
from broker.protocol.messages.alter_share_group_offsets_request import (
    AlterShareGroupOffsetsRequest,
    AlterShareGroupOffsetsRequestPartition,
    AlterShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
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
from broker.security.sasl.client import SaslClientError, SaslClientExchange

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

DEFAULT_TIMEOUT = 30.0
# ListOffsets special timestamps.
LATEST_TIMESTAMP = -1
EARLIEST_TIMESTAMP = -2
# FindCoordinator key types; config resource types; config operations.
COORDINATOR_GROUP = 0
COORDINATOR_TRANSACTION = 1
RESOURCE_TOPIC, RESOURCE_BROKER, RESOURCE_GROUP = 2, 4, 32
OP_SET, OP_DELETE, OP_APPEND, OP_SUBTRACT = 0, 1, 2, 3

_CLIENT_SOFTWARE_NAME = "sharebroker-admin"


class AdminError(Exception):
    """Base class of everything the admin client raises."""


class AdminConnectionError(AdminError):
    """The broker could not be reached, or the connection broke."""


class AdminTimeoutError(AdminError):
    """A call did not complete within its timeout."""


class AdminAuthenticationError(AdminError):
    """The broker refused the SASL mechanism or the credentials (``code``: Kafka's error)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"{error_name(code)}: {message}")
        self.code = code


class UnsupportedApiError(AdminError):
    """The broker does not serve an API (or no version we know) that the call needs."""


class KafkaApiError(AdminError):
    """The broker answered with a Kafka error code."""

    def __init__(self, code: int, message: str | None = None, context: str | None = None) -> None:
        self.code = ErrorCode.for_code(code)
        self.error_code = code
        self.broker_message = message
        text = message or self.code.message
        prefix = f"{context}: " if context else ""
        super().__init__(f"{prefix}{self.code.name} ({code}): {text}")


def error_name(code: int) -> str:
    """The Kafka name of an error code (``UNKNOWN_ERROR_<code>`` for codes this table lacks)."""
    try:
        return ErrorCode(code).name
    except ValueError:
        return f"UNKNOWN_ERROR_{code}"


def check_error(code: int, message: str | None = None, context: str | None = None) -> None:
    """Raise ``KafkaApiError`` for a non-zero error code."""
    if code:
        raise KafkaApiError(code, message, context)


@dataclass(frozen=True, slots=True)
class Node:
    node_id: int
    host: str
    port: int


def parse_bootstrap(servers: str) -> list[tuple[str, int]]:
    """``host:port[,host:port...]`` (IPv6 as ``[addr]:port``) -> list of (host, port)."""
    out: list[tuple[str, int]] = []
    for item in servers.split(","):
        item = item.strip()
        if not item:
            continue
        host, sep, port = item.rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ValueError(f"invalid bootstrap server {item!r}: expected HOST:PORT")
        out.append((host.strip("[]"), int(port)))
    if not out:
        raise ValueError("no bootstrap server given")
    return out


class _Deadline:
    def __init__(self, timeout: float) -> None:
        self.end = time.monotonic() + timeout
        self.timeout = timeout

    def remaining(self, what: str) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise AdminTimeoutError(f"{what} timed out after {self.timeout:g} s")
        return left


class BrokerConnection:
    """One socket to one broker, with its negotiated API versions.

    ``call`` sends a request and waits for its response; ``send`` and
    ``receive`` pipeline (several requests in flight, responses in order).
    A request's version is the highest both sides support unless given.
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        client_id: str = "sharebroker-admin",
        timeout: float = DEFAULT_TIMEOUT,
        deadline: _Deadline | None = None,
        security: ClientSecurity | None = None,
    ) -> None:
        self.host, self.port = host, port
        self.timeout = timeout
        deadline = deadline or _Deadline(timeout)
        try:
            sock = socket.create_connection((host, port), timeout=deadline.remaining(f"connecting to {host}:{port}"))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError as exc:
            raise AdminConnectionError(f"cannot connect to {host}:{port}: {exc.strerror or exc}") from exc
        self.sock = sock
        if security is not None and security.ssl_context is not None:
            try:
                self.sock = security.ssl_context.wrap_socket(sock, server_hostname=host)
            except (OSError, ssl.SSLError) as exc:
                sock.close()
                raise AdminConnectionError(f"SSL handshake with {host}:{port} failed: {exc}") from exc
        self.conn = ClientConnection(client_id=client_id)
        self.versions: dict[int, tuple[int, int]] = {}
        # Finalized feature levels from ApiVersions v3+ (share.version, transaction.version, ...).
        self.finalized_features: dict[str, int] = {}
        self._ready: list[Response] = []
        try:
            self._negotiate(deadline)
            if security is not None:
                self._authenticate(security, deadline)
        except BaseException:
            self.close()
            raise

    def _authenticate(self, security: ClientSecurity, deadline: _Deadline) -> None:
        """SASL: SaslHandshake, then SaslAuthenticate until the mechanism completes."""
        client = security.new_sasl_client()
        if client is None:
            return
        exchange = SaslClientExchange(client)
        step: tuple[Message, int] | None = exchange.first()
        try:
            while step is not None:
                request, version = step
                step = exchange.next(self._call(request, version, deadline))
        except SaslClientError as exc:
            raise AdminAuthenticationError(exc.code, str(exc)) from None

    def __enter__(self) -> BrokerConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    @property
    def in_flight(self) -> int:
        """Requests sent whose response has not been returned yet."""
        return self.conn.in_flight + len(self._ready)

    def _negotiate(self, deadline: _Deadline) -> None:
        req = ApiVersionsRequest(client_software_name=_CLIENT_SOFTWARE_NAME, client_software_version="1")
        version = ApiVersionsRequest.MAX_VERSION
        resp = self._call(req, version, deadline)
        if resp.error_code == ErrorCode.UNSUPPORTED_VERSION:
            # The broker answered in v0 with the ApiVersions range it serves: retry at the best shared one.
            served = {k.api_key: k.max_version for k in resp.api_keys}
            version = min(served.get(ApiKey.API_VERSIONS, 0), ApiVersionsRequest.MAX_VERSION)
            resp = self._call(req, version, deadline)
        check_error(resp.error_code, None, "ApiVersions")
        self.versions = {k.api_key: (k.min_version, k.max_version) for k in resp.api_keys}
        self.finalized_features = {f.name: f.max_version_level for f in getattr(resp, "finalized_features", [])}

    def version_for(self, request_type: type[Message]) -> int:
        """Highest version both we and the broker support."""
        theirs = self.versions.get(request_type.API_KEY)
        if theirs is None:
            raise UnsupportedApiError(f"the broker at {self.host}:{self.port} does not support {request_type.NAME}")
        low = max(theirs[0], request_type.MIN_VERSION)
        high = min(theirs[1], request_type.MAX_VERSION)
        if low > high:
            raise UnsupportedApiError(
                f"no common version of {request_type.NAME}: broker v{theirs[0]}-v{theirs[1]}, "
                f"client v{request_type.MIN_VERSION}-v{request_type.MAX_VERSION}"
            )
        return high

    def send(self, request: Message, version: int | None = None, *, expect_response: bool = True) -> int:
        """Frame and send ``request`` without waiting; returns its correlation id."""
        return self._send(request, version, expect_response, _Deadline(self.timeout))

    def _send(self, request: Message, version: int | None, expect_response: bool, deadline: _Deadline) -> int:
        if version is None:
            version = self.version_for(type(request))
        what = f"{request.NAME} to {self.host}:{self.port}"
        correlation_id, frame = self.conn.encode_request(request, version, expect_response=expect_response)
        try:
            self.sock.settimeout(deadline.remaining(what))
            self.sock.sendall(frame)
        except TimeoutError as exc:
            raise AdminTimeoutError(f"{what} timed out after {deadline.timeout:g} s") from exc
        except OSError as exc:
            raise AdminConnectionError(f"{what}: {exc.strerror or exc}") from exc
        return correlation_id

    def _receive(self, deadline: _Deadline, what: str) -> Response:
        if self._ready:
            return self._ready.pop(0)
        return self._read(deadline, what)

    def _read(self, deadline: _Deadline, what: str) -> Response:
        """The next response off the socket (not one already set aside)."""
        try:
            while True:
                event = self.conn.next_event()
                if isinstance(event, Response):
                    return event
                if event is CONNECTION_CLOSED:
                    raise AdminConnectionError(f"{what}: the broker closed the connection")
                assert event is NEED_DATA
                self.sock.settimeout(deadline.remaining(what))
                data = self.sock.recv(1 << 20)
                self.conn.receive_data(data)
        except TimeoutError as exc:
            raise AdminTimeoutError(f"{what} timed out after {deadline.timeout:g} s") from exc
        except ProtocolError as exc:
            raise AdminConnectionError(f"{what}: {exc}") from exc
        except OSError as exc:
            raise AdminConnectionError(f"{what}: {exc.strerror or exc}") from exc

    def receive(self, timeout: float | None = None) -> Response:
        """The next response (in the order the requests were sent)."""
        deadline = _Deadline(self.timeout if timeout is None else timeout)
        return self._receive(deadline, f"response from {self.host}:{self.port}")

    def _call(self, request: Message, version: int | None, deadline: _Deadline) -> Any:
        correlation_id = self._send(request, version, True, deadline)
        what = f"{request.NAME} to {self.host}:{self.port}"
        while True:
            response = self._read(deadline, what)
            if response.correlation_id == correlation_id:
                return response.body
            # A pipelined response that arrived first: keep it for ``receive``.
            self._ready.append(response)

    def call(self, request: Message, version: int | None = None, *, timeout: float | None = None) -> Any:
        """Send ``request`` and return the body of its response (within ``timeout`` seconds)."""
        return self._call(request, version, _Deadline(self.timeout if timeout is None else timeout))


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

    def _deadline(self, timeout: float | None) -> _Deadline:
        return _Deadline(self.timeout if timeout is None else timeout)

    def _connect(self, host: str, port: int, deadline: _Deadline) -> BrokerConnection:
        conn = self._conns.get((host, port))
        if conn is None:
            conn = BrokerConnection(
                host, port, client_id=self.client_id, timeout=self.timeout, deadline=deadline, security=self.security
            )
            self._conns[(host, port)] = conn
        return conn

    def _any(self, deadline: _Deadline) -> BrokerConnection:
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

    def _send(self, conn: BrokerConnection, request: Message, deadline: _Deadline) -> Any:
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

    def describe_share_group(self, group: str, *, timeout: float | None = None) -> Any:
        """The ``DescribedGroup`` of one share group (error codes raised)."""
        resp = self._to_coordinator(group, ShareGroupDescribeRequest(group_ids=[group]), timeout)
        for g in resp.groups:
            if g.group_id == group:
                check_error(g.error_code, g.error_message, f"ShareGroupDescribe({group!r})")
                return g
        raise KafkaApiError(ErrorCode.GROUP_ID_NOT_FOUND, None, f"ShareGroupDescribe({group!r})")

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
        resp = self._to_coordinator(group, req, timeout)
        for g in resp.groups:
            if g.group_id == group:
                check_error(g.error_code, g.error_message, f"DescribeShareGroupOffsets({group!r})")
                return g
        raise KafkaApiError(ErrorCode.GROUP_ID_NOT_FOUND, None, f"DescribeShareGroupOffsets({group!r})")

    def alter_share_group_offsets(
        self, group: str, offsets: Mapping[tuple[str, int], int], *, timeout: float | None = None
    ) -> Any:
        """Set share-partition start offsets; raises on the first error (group or partition)."""
        by_topic: dict[str, list[AlterShareGroupOffsetsRequestPartition]] = {}
        for (topic, partition), offset in sorted(offsets.items()):
            by_topic.setdefault(topic, []).append(
                AlterShareGroupOffsetsRequestPartition(partition_index=partition, start_offset=offset)
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
        resp = self._to_coordinator(group, ConsumerGroupDescribeRequest(group_ids=[group]), timeout)
        for g in resp.groups:
            if g.group_id == group:
                check_error(g.error_code, g.error_message, f"ConsumerGroupDescribe({group!r})")
                return g
        raise KafkaApiError(ErrorCode.GROUP_ID_NOT_FOUND, None, f"ConsumerGroupDescribe({group!r})")

    def describe_classic_group(self, group: str, *, timeout: float | None = None) -> Any:
        """The ``DescribedGroup`` of DescribeGroups for one classic group (errors raised)."""
        resp = self._to_coordinator(group, DescribeGroupsRequest(groups=[group]), timeout)
        for g in resp.groups:
            if g.group_id == group:
                check_error(g.error_code, g.error_message, f"DescribeGroups({group!r})")
                return g
        raise KafkaApiError(ErrorCode.GROUP_ID_NOT_FOUND, None, f"DescribeGroups({group!r})")

    def describe_streams_group(
        self, group: str, *, timeout: float | None = None, include_topology_description: bool = False
    ) -> Any:
        """The ``DescribedGroup`` of StreamsGroupDescribe for one group (errors raised); with
        ``include_topology_description`` (v1, KIP-1331) its topology description too."""
        req = StreamsGroupDescribeRequest(group_ids=[group], include_topology_description=include_topology_description)
        resp = self._to_coordinator(group, req, timeout)
        for g in resp.groups:
            if g.group_id == group:
                check_error(g.error_code, g.error_message, f"StreamsGroupDescribe({group!r})")
                return g
        raise KafkaApiError(ErrorCode.GROUP_ID_NOT_FOUND, None, f"StreamsGroupDescribe({group!r})")

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
        by_topic: dict[str, list[OffsetCommitRequestPartition]] = {}
        for (topic, partition), offset in sorted(offsets.items()):
            by_topic.setdefault(topic, []).append(
                OffsetCommitRequestPartition(partition_index=partition, committed_offset=offset)
            )
        req = OffsetCommitRequest(
            group_id=group,
            generation_id_or_member_epoch=-1,
            member_id="",
            topics=[OffsetCommitRequestTopic(name=t, partitions=ps) for t, ps in by_topic.items()],
        )
        resp = self._to_coordinator_by_name(group, req, 9, timeout)
        out: dict[tuple[str, int], KafkaApiError | None] = {}
        for t in resp.topics:
            for p in t.partitions:
                out[(t.name, p.partition_index)] = KafkaApiError(p.error_code) if p.error_code else None
        return out

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
        out: dict[tuple[str, int], KafkaApiError | None] = {}
        for t in resp.topics:
            for p in t.partitions:
                out[(t.name, p.partition_index)] = KafkaApiError(p.error_code) if p.error_code else None
        return out

    # -- offsets ----------------------------------------------------------------------------

    def list_offsets(
        self, partitions: Mapping[tuple[str, int], int], *, timeout: float | None = None
    ) -> dict[tuple[str, int], int]:
        """(topic, partition) -> timestamp (or LATEST/EARLIEST_TIMESTAMP) => offset.

        For a timestamp later than every record the offset is -1 (Kafka's answer).
        Requests go to each partition's leader.
        """
        deadline = self._deadline(timeout)
        topics = sorted({t for t, _ in partitions})
        meta = self.metadata(topics, timeout=deadline.remaining("Metadata"))
        brokers = {b.node_id: Node(b.node_id, b.host, b.port) for b in meta.brokers}
        leaders: dict[tuple[str, int], int] = {}
        for t in meta.topics:
            check_error(t.error_code, None, f"topic {t.name!r}")
            for p in t.partitions:
                leaders[(t.name, p.partition_index)] = p.leader_id
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

    def _leaders(
        self, topics: Iterable[str], deadline: _Deadline
    ) -> tuple[dict[tuple[str, int], int], dict[int, Node]]:
        meta = self.metadata(sorted(set(topics)), timeout=deadline.remaining("Metadata"))
        brokers = {b.node_id: Node(b.node_id, b.host, b.port) for b in meta.brokers}
        leaders: dict[tuple[str, int], int] = {}
        for t in meta.topics:
            check_error(t.error_code, None, f"topic {t.name!r}")
            for p in t.partitions:
                leaders[(t.name, p.partition_index)] = p.leader_id
        return leaders, brokers

    def _to_leader(self, topic: str, partition: int, request: Message, deadline: _Deadline) -> Any:
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
        for t in resp.topics:
            check_error(t.error_code, t.error_message, f"CreateTopics({t.name!r})")
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
        for r in resp.responses:
            check_error(r.error_code, r.error_message, f"DeleteTopics({r.name!r})")
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
        for r in resp.results:
            check_error(r.error_code, r.error_message, f"CreatePartitions({r.name!r})")
        return resp


def set_group_configs(
    bootstrap_servers: str, group: str, configs: Mapping[str, str | None], *, timeout: float = DEFAULT_TIMEOUT
) -> None:
    """One-shot ``AdminClient.set_group_configs`` against ``bootstrap_servers``."""
    with AdminClient(bootstrap_servers, timeout=timeout) as admin:
        admin.set_group_configs(group, configs)
