"""Listener addresses and protocol maps, and the per-value rules of the settings table."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

# --------------------------------------------------------------------------- listeners

_LISTENER_RE = re.compile(r"^([A-Za-z0-9_.-]+)://(\[[0-9A-Fa-f:.%a-zA-Z]*\]|[^:/\[\]\s]*):([0-9]+)$")
_WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::", "[::]"})


@dataclass(frozen=True, slots=True)
class Listener:
    """One ``NAME://host:port`` entry. An empty host means every interface."""

    name: str
    host: str
    port: int

    @property
    def bind_host(self) -> str | None:
        """The host to hand to ``trio.open_tcp_listeners``: None means every interface."""
        return self.host or None

    @property
    def is_wildcard(self) -> bool:
        return self.host in _WILDCARD_HOSTS

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.name}://{host}:{self.port}"


def parse_listener(text: str) -> Listener:
    """Parse ``NAME://host:port`` (IPv6 hosts in brackets). Raises ValueError."""
    m = _LISTENER_RE.match(text.strip())
    if not m:
        raise ValueError(f"{text!r} is not of the form NAME://host:port")
    name, host, port_s = m.groups()
    if host.startswith("["):
        host = host[1:-1]
    port = int(port_s)
    if port > 65535:
        raise ValueError(f"{text!r} has port {port}, above 65535")
    return Listener(name.upper(), host, port)


# Kafka's default listener.security.protocol.map: each protocol name maps to itself.
DEFAULT_PROTOCOL_MAP = "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL"
SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
# What the listeners serve.
SERVED_PROTOCOLS = frozenset(SECURITY_PROTOCOLS)


def parse_protocol_map(value: Any) -> dict[str, str]:
    """``listener.security.protocol.map`` as {LISTENER NAME: PROTOCOL}. Raises ValueError."""
    out: dict[str, str] = {}
    for item in value if isinstance(value, (tuple, list)) else str(value).split(","):
        item = item.strip()
        if not item:
            continue
        name, sep, protocol = item.partition(":")
        name, protocol = name.strip().upper(), protocol.strip().upper()
        if not sep or not name or not protocol:
            raise ValueError(f"{item!r} is not of the form LISTENER_NAME:SECURITY_PROTOCOL")
        if protocol not in SECURITY_PROTOCOLS:
            raise ValueError(f"{item!r} maps to {protocol}, not one of {', '.join(SECURITY_PROTOCOLS)}")
        if name in out:
            raise ValueError(f"listener name {name} is mapped twice")
        out[name] = protocol
    return out


def check_protocol_map(value: Any) -> str | None:
    try:
        parse_protocol_map(value)
    except ValueError as e:
        return str(e)
    return None


def check_listener_list(value: tuple[str, ...]) -> tuple[list[Listener], str | None]:
    parsed = []
    for text in value:
        try:
            parsed.append(parse_listener(text))
        except ValueError as e:
            return parsed, str(e)
    names = [lst.name for lst in parsed]
    for name in names:
        if names.count(name) > 1:
            return parsed, f"{','.join(value)!r} names listener {name} more than once"
    return parsed, None


def check_listeners(value: tuple[str, ...]) -> str | None:
    if not value:
        return "needs at least one NAME://host:port entry"
    parsed, problem = check_listener_list(value)
    if problem:
        return problem
    ports = [(lst.host, lst.port) for lst in parsed if lst.port != 0]
    for hp in ports:
        if ports.count(hp) > 1:
            return f"{','.join(value)!r} binds {hp[0] or '*'}:{hp[1]} more than once"
    return None


def check_advertised(value: tuple[str, ...] | None) -> str | None:
    if value is None:
        return None
    parsed, problem = check_listener_list(value)
    if problem:
        return problem
    for text, lst in zip(value, parsed):
        if lst.host in ("0.0.0.0", "::"):
            return f"{text!r} advertises a wildcard address, which clients cannot connect to"
        if lst.port == 0:
            return f"{text!r} advertises port 0; name the port clients should use"
    return None


def check_unlimited_or_positive(value: int | None) -> str | None:
    if value is None or value == -1 or value >= 1:
        return None
    return f"{value} must be -1 (unlimited) or at least 1"


def parse_ip_overrides(value: str | None) -> dict[str, int]:
    """``max.connections.per.ip.overrides`` as {host: limit}. Raises ValueError."""
    out: dict[str, int] = {}
    for item in (value or "").split(","):
        item = item.strip()
        if not item:
            continue
        host, sep, count = item.rpartition(":")
        if not sep or not host or not count.strip().isdigit():
            raise ValueError(f"{item!r} is not of the form host:count")
        out[host.strip().strip("[]")] = int(count)
    return out


def check_ip_overrides(value: str | None) -> str | None:
    try:
        parse_ip_overrides(value)
    except ValueError as e:
        return str(e)
    return None


def check_host_port(value: str | None) -> str | None:
    if value is None:
        return None
    _host, sep, port = value.rpartition(":")
    if not sep:
        return f"{value!r} is not HOST:PORT"
    if not port.isdigit() or int(port) > 65535:
        return f"{value!r} needs a port 0..65535"
    return None


_CONSUMER_ASSIGNORS = {
    "uniform",
    "range",
    "org.apache.kafka.coordinator.group.assignor.UniformAssignor",
    "org.apache.kafka.coordinator.group.assignor.RangeAssignor",
}


def check_consumer_assignors(value: tuple[str, ...] | None) -> str | None:
    if not value:
        return "at least one assignor is needed"
    unknown = [v for v in value if v not in _CONSUMER_ASSIGNORS]
    return f"unknown assignor {unknown[0]} (uniform, range)" if unknown else None


def check_dirs(value: tuple[str, ...] | None) -> str | None:
    if value is None:
        return None
    if not value or any(not d.strip() for d in value):
        return "needs a directory"
    absolute = [os.path.abspath(d) for d in value]
    if len(set(absolute)) != len(absolute):
        return f"{','.join(value)!r} names a directory twice"
    return None


# --------------------------------------------------------------------------- the table
