"""One socket to one broker: the admin client's transport and its errors.

:class:`BrokerConnection` negotiates API versions (ApiVersions), authenticates (SASL)
when the client's security asks for it, and sends requests under a deadline: ``call``
waits for the response, ``send`` and ``receive`` pipeline. The :class:`AdminError`
family is what the admin client and the tools raise; :mod:`broker.admin.client`
re-exports all of it.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from broker.protocol.api_keys import ApiKey
from broker.protocol.connection import CONNECTION_CLOSED, NEED_DATA, ClientConnection, Response
from broker.protocol.errors import ErrorCode, ProtocolError
from broker.protocol.message_base import Message
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.security.client import ClientSecurity
from broker.security.sasl.client import SaslClientError, SaslClientExchange

DEFAULT_TIMEOUT = 30.0
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


class Deadline:
    def __init__(self, timeout: float) -> None:
        self.end = time.monotonic() + timeout
        self.timeout = timeout

    def remaining(self, what: str) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise AdminTimeoutError(f"{what} timed out after {self.timeout:g} s")
        return left


@contextlib.contextmanager
def _io_errors(what: str, deadline: Deadline) -> Iterator[None]:
    """The socket's and the framing's failures while doing ``what``, as the admin client's errors."""
    try:
        yield
    except TimeoutError as exc:
        raise AdminTimeoutError(f"{what} timed out after {deadline.timeout:g} s") from exc
    except ProtocolError as exc:
        raise AdminConnectionError(f"{what}: {exc}") from exc
    except OSError as exc:
        raise AdminConnectionError(f"{what}: {exc.strerror or exc}") from exc


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
        deadline: Deadline | None = None,
        security: ClientSecurity | None = None,
    ) -> None:
        self.host, self.port = host, port
        self.timeout = timeout
        deadline = deadline or Deadline(timeout)
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

    def _authenticate(self, security: ClientSecurity, deadline: Deadline) -> None:
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

    def _negotiate(self, deadline: Deadline) -> None:
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
        return self._send(request, version, expect_response, Deadline(self.timeout))

    def _send(self, request: Message, version: int | None, expect_response: bool, deadline: Deadline) -> int:
        if version is None:
            version = self.version_for(type(request))
        what = f"{request.NAME} to {self.host}:{self.port}"
        correlation_id, frame = self.conn.encode_request(request, version, expect_response=expect_response)
        with _io_errors(what, deadline):
            self.sock.settimeout(deadline.remaining(what))
            self.sock.sendall(frame)
        return correlation_id

    def _receive(self, deadline: Deadline, what: str) -> Response:
        if self._ready:
            return self._ready.pop(0)
        return self._read(deadline, what)

    def _read(self, deadline: Deadline, what: str) -> Response:
        """The next response off the socket (not one already set aside)."""
        with _io_errors(what, deadline):
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

    def receive(self, timeout: float | None = None) -> Response:
        """The next response (in the order the requests were sent)."""
        deadline = Deadline(self.timeout if timeout is None else timeout)
        return self._receive(deadline, f"response from {self.host}:{self.port}")

    def _call(self, request: Message, version: int | None, deadline: Deadline) -> Any:
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
        return self._call(request, version, Deadline(self.timeout if timeout is None else timeout))
