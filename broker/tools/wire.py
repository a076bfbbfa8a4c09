"""A minimal synchronous wire client for the operator tools.

One blocking socket driven through ``broker.protocol.connection.ClientConnection``
and the generated message classes; nothing else speaks the protocol here.
``send`` frames a request without waiting (so callers can pipeline) and
``receive`` returns the next response; ``request`` does both.
"""

from __future__ import annotations

import socket
import time
from typing import Any

from broker.protocol.connection import CONNECTION_CLOSED, NEED_DATA, ClientConnection, Response
from broker.protocol.errors import ErrorCode
from broker.protocol.message_base import Message

DEFAULT_PORT = 9092


class WireError(Exception):
    """A request failed (connection trouble or an error code in the answer)."""


def error_name(code: int) -> str:
    try:
        return ErrorCode(code).name
    except ValueError:
        return f"UNKNOWN_ERROR_{code}"


def check(code: int, message: str | None = None, what: str = "") -> None:
    if code:
        detail = f": {message}" if message else ""
        raise WireError(f"{what + ': ' if what else ''}{error_name(code)}{detail}")


def parse_bootstrap(bootstrap: str) -> tuple[str, int]:
    first = bootstrap.split(",")[0].strip()
    host, _, port = first.rpartition(":")
    if not host:
        return first, DEFAULT_PORT
    return host.strip("[]"), int(port)


class WireClient:
    """One connection to one broker."""

    def __init__(self, bootstrap: str, *, timeout: float = 30.0, client_id: str = "sharebroker-tools") -> None:
        host, port = parse_bootstrap(bootstrap)
        try:
            self.sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise WireError(f"cannot connect to {host}:{port}: {exc}") from exc
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.conn = ClientConnection(client_id=client_id)
        self.timeout = timeout
        self._ready: list[Response] = []

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self) -> WireClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def in_flight(self) -> int:
        return self.conn.in_flight

    def send(self, request: Message, version: int, *, expect_response: bool = True) -> int:
        correlation_id, frame = self.conn.encode_request(request, version, expect_response=expect_response)
        try:
            self.sock.sendall(frame)
        except OSError as exc:
            raise WireError(f"send failed: {exc}") from exc
        return correlation_id

    def receive(self, timeout: float | None = None) -> Response:
        """The next response (in arrival order)."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            event = self.conn.next_event()
            if isinstance(event, Response):
                return event
            if event is CONNECTION_CLOSED:
                raise WireError("the broker closed the connection")
            assert event is NEED_DATA
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise WireError("timed out waiting for a response")
            self.sock.settimeout(remaining)
            try:
                data = self.sock.recv(1 << 20)
            except TimeoutError as exc:
                raise WireError("timed out waiting for a response") from exc
            except OSError as exc:
                raise WireError(f"receive failed: {exc}") from exc
            self.conn.receive_data(data)

    def request(self, request: Message, version: int, timeout: float | None = None) -> Any:
        """Send ``request`` and return the body of its response."""
        correlation_id = self.send(request, version)
        while True:
            response = self.receive(timeout)
            if response.correlation_id == correlation_id:
                return response.body

    # --- helpers used by several tools ---------------------------------

    def metadata(self, topics: list[str] | None = None) -> Any:
        from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic

        req = MetadataRequest(
            topics=None if topics is None else [MetadataRequestTopic(name=t) for t in topics],
            allow_auto_topic_creation=False,
        )
        return self.request(req, 12)

    def alter_configs(self, resource_type: int, name: str, set_: dict[str, str] | None = None,
                      delete: list[str] | None = None) -> None:
        """IncrementalAlterConfigs v1: SET (op 0) and DELETE (op 1) on one resource."""
        from broker.protocol.messages.incremental_alter_configs_request import (
            AlterableConfig,
            AlterConfigsResource,
            IncrementalAlterConfigsRequest,
        )

        configs = [AlterableConfig(name=k, config_operation=0, value=v) for k, v in (set_ or {}).items()]
        configs += [AlterableConfig(name=k, config_operation=1, value=None) for k in (delete or [])]
        req = IncrementalAlterConfigsRequest(
            resources=[AlterConfigsResource(resource_type=resource_type, resource_name=name, configs=configs)]
        )
        resp = self.request(req, 1)
        for r in resp.responses:
            check(r.error_code, r.error_message, f"alter configs of {r.resource_name}")

    def describe_configs(self, resource_type: int, name: str) -> list[Any]:
        from broker.protocol.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource

        req = DescribeConfigsRequest(
            resources=[DescribeConfigsResource(resource_type=resource_type, resource_name=name, configuration_keys=None)]
        )
        resp = self.request(req, 4)
        result = resp.results[0]
        check(result.error_code, result.error_message, f"describe configs of {name}")
        return list(result.configs)


RESOURCE_TOPIC = 2
RESOURCE_GROUP = 32


def set_group_configs(bootstrap: str, group: str, configs: dict[str, str]) -> None:
    """Set group-level configs (e.g. ``share.auto.offset.reset``) through IncrementalAlterConfigs."""
    with WireClient(bootstrap) as client:
        client.alter_configs(RESOURCE_GROUP, group, configs)
