"""Broker settings: the table of every key we accept, and how a running config is built.

Keys, types, defaults and bounds follow Apache Kafka 4.2 (``AbstractKafkaConfig``,
``GroupCoordinatorConfig``, ``ShareGroupConfig``, ``ShareCoordinatorConfig``), so a
``server.properties`` written for Kafka means the same thing here. Where our default or
bound differs, the entry says so and why (``Setting.why``).

A value is resolved from four layers, later ones winning::

    built-in default  <  properties file  <  SHAREBROKER_* environment  <  --set key=value

and, while the broker runs, IncrementalAlterConfigs/AlterConfigs on the BROKER resource
may override the *dynamic* keys (cluster-wide default first, then this node's own).

Problems are reported as one line naming the key and where the value came from::

    log.segment.bytes: 'abc' is not an integer (from --set)

This module must stay cheap to import (the CLI imports it before the broker starts
listening), so it uses only the standard library and nothing heavier than ``re``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any

__all__ = [
    "ENV_PREFIX",
    "SETTINGS",
    "BrokerConfig",
    "ConfigEntry",
    "ConfigError",
    "ConfigList",
    "ConfigSource",
    "ConfigSynonym",
    "ConfigType",
    "Listener",
    "Origin",
    "Setting",
    "env_var_for",
    "load_config",
    "parse_listener",
    "parse_properties",
    "render_markdown",
]

ENV_PREFIX = "SHAREBROKER_"

# Environment variables with our prefix that are CLI options, not broker settings.
# load_config() skips them instead of reporting an unknown setting.
CLI_ENV_VARS = frozenset({"SHAREBROKER_LOG_FORMAT", "SHAREBROKER_LOG_LEVEL"})

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1
SHORT_MIN, SHORT_MAX = -(2**15), 2**15 - 1


class ConfigType(IntEnum):
    """Value types, numbered as DescribeConfigs v3+ reports them (``ConfigType``)."""

    BOOLEAN = 1
    STRING = 2
    INT = 3
    SHORT = 4
    LONG = 5
    DOUBLE = 6
    LIST = 7
    CLASS = 8
    PASSWORD = 9


class ConfigSource(IntEnum):
    """Where a value came from, numbered as DescribeConfigs reports it."""

    UNKNOWN = 0
    TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2  # IncrementalAlterConfigs on BROKER "<node id>"
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3  # IncrementalAlterConfigs on BROKER "" (cluster default)
    STATIC_BROKER_CONFIG = 4  # properties file, environment or --set
    DEFAULT_CONFIG = 5  # built-in default
    DYNAMIC_BROKER_LOGGER_CONFIG = 6
    CLIENT_METRICS_CONFIG = 7
    GROUP_CONFIG = 8


class ConfigError(ValueError):
    """A setting is unknown or its value is unusable; ``str()`` is one line for humans.

    ``key`` is the setting concerned (or the raw name that was not recognised) and
    ``source`` the place the value came from, as written in the message.
    """

    def __init__(self, message: str, *, key: str | None = None, source: str | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.source = source


# --------------------------------------------------------------------------- origins


@dataclass(frozen=True, slots=True)
class Origin:
    """Where one value came from. ``label`` is what error messages print after 'from'."""

    kind: str  # "default" | "file" | "env" | "set" | "dynamic" | "dynamic-default"
    label: str

    @property
    def source(self) -> ConfigSource:
        return _ORIGIN_SOURCE[self.kind]

    def suffix(self) -> str:
        return " (default)" if self.kind == "default" else f" (from {self.label})"


_ORIGIN_SOURCE = {
    "default": ConfigSource.DEFAULT_CONFIG,
    "file": ConfigSource.STATIC_BROKER_CONFIG,
    "env": ConfigSource.STATIC_BROKER_CONFIG,
    "set": ConfigSource.STATIC_BROKER_CONFIG,
    "dynamic": ConfigSource.DYNAMIC_BROKER_CONFIG,
    "dynamic-default": ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
}
DEFAULT_ORIGIN = Origin("default", "default")
DYNAMIC_LABEL = "IncrementalAlterConfigs"


class ConfigList(tuple[str, ...]):
    """Value of a list setting: a tuple of strings whose ``str()`` is Kafka's text form
    (``a,b``), so ``str(cfg.get("listeners"))`` reads like the properties file."""

    __slots__ = ()

    def __str__(self) -> str:
        return ",".join(self)

    def __repr__(self) -> str:
        return f"ConfigList({tuple(self)!r})"


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


def _check_protocol_map(value: Any) -> str | None:
    try:
        parse_protocol_map(value)
    except ValueError as e:
        return str(e)
    return None


def _check_listener_list(value: tuple[str, ...]) -> tuple[list[Listener], str | None]:
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


def _check_listeners(value: tuple[str, ...]) -> str | None:
    if not value:
        return "needs at least one NAME://host:port entry"
    parsed, problem = _check_listener_list(value)
    if problem:
        return problem
    ports = [(lst.host, lst.port) for lst in parsed if lst.port != 0]
    for hp in ports:
        if ports.count(hp) > 1:
            return f"{','.join(value)!r} binds {hp[0] or '*'}:{hp[1]} more than once"
    return None


def _check_advertised(value: tuple[str, ...] | None) -> str | None:
    if value is None:
        return None
    parsed, problem = _check_listener_list(value)
    if problem:
        return problem
    for text, lst in zip(value, parsed):
        if lst.host in ("0.0.0.0", "::"):
            return f"{text!r} advertises a wildcard address, which clients cannot connect to"
        if lst.port == 0:
            return f"{text!r} advertises port 0; name the port clients should use"
    return None


def _check_unlimited_or_positive(value: int | None) -> str | None:
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


def _check_ip_overrides(value: str | None) -> str | None:
    try:
        parse_ip_overrides(value)
    except ValueError as e:
        return str(e)
    return None


def _check_host_port(value: str | None) -> str | None:
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


def _check_consumer_assignors(value: tuple[str, ...] | None) -> str | None:
    if not value:
        return "at least one assignor is needed"
    unknown = [v for v in value if v not in _CONSUMER_ASSIGNORS]
    return f"unknown assignor {unknown[0]} (uniform, range)" if unknown else None


def _check_dirs(value: tuple[str, ...] | None) -> str | None:
    if value is None:
        return None
    if not value or any(not d.strip() for d in value):
        return "needs a directory"
    absolute = [os.path.abspath(d) for d in value]
    if len(set(absolute)) != len(absolute):
        return f"{','.join(value)!r} names a directory twice"
    return None


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True, slots=True)
class Setting:
    """One broker setting: its Kafka key, type, default, bounds and meaning."""

    key: str
    type: ConfigType
    default: Any
    doc: str
    section: str
    min: int | float | None = None
    max: int | float | None = None
    choices: tuple[str, ...] | None = None
    dynamic: bool = False
    sensitive: bool = False
    why: str = ""  # reason for a limit, or for a default that differs from Kafka's
    kafka_default: str | None = None  # Kafka's default, shown when ours differs
    check: Callable[[Any], str | None] | None = None  # extra per-value rule
    check_doc: str = ""  # how `check` reads in the docs' "Valid values" column
    summary: bool = False  # listed in the short README table

    def __post_init__(self) -> None:
        if self.type is ConfigType.LIST and self.default is not None:
            object.__setattr__(self, "default", ConfigList(self.default))

    @property
    def env_var(self) -> str:
        return env_var_for(self.key)

    @property
    def attr(self) -> str:
        return self.key.replace(".", "_")

    # ---- parsing and rendering

    def parse(self, raw: str) -> Any:
        """Turn the text form of a value into its typed form. Raises ValueError(problem)."""
        text = raw.strip()
        t = self.type
        if t in (ConfigType.INT, ConfigType.LONG, ConfigType.SHORT):
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                raise ValueError(f"{raw!r} is not an integer")
            value: Any = int(text)
            lo, hi = {
                ConfigType.INT: (INT_MIN, INT_MAX),
                ConfigType.LONG: (LONG_MIN, LONG_MAX),
                ConfigType.SHORT: (SHORT_MIN, SHORT_MAX),
            }[t]
            if not lo <= value <= hi:
                raise ValueError(f"{text} does not fit in a {t.name.lower()} ({lo}..{hi})")
        elif t is ConfigType.BOOLEAN:
            low = text.lower()
            if low not in ("true", "false"):
                raise ValueError(f"{raw!r} is not a boolean (true or false)")
            value = low == "true"
        elif t is ConfigType.DOUBLE:
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"{raw!r} is not a number") from None
        elif t is ConfigType.LIST:
            value = ConfigList(item for item in re.split(r"\s*,\s*", text) if item) if text else ConfigList()
        else:
            value = text
        self.validate(value)
        return value

    def validate(self, value: Any) -> None:
        """Check bounds, choices and the extra rule of an already-typed value."""
        if value is None:
            return
        if self.min is not None and value < self.min:
            raise ValueError(f"{self.render(value)} is below the minimum {_num(self.min)}{self._because()}")
        if self.max is not None and value > self.max:
            raise ValueError(f"{self.render(value)} is above the maximum {_num(self.max)}{self._because()}")
        if self.choices is not None:
            items = value if self.type is ConfigType.LIST else (value,)
            for item in items:
                if item not in self.choices:
                    raise ValueError(f"{item!r} is not one of: {', '.join(self.choices)}")
            if self.type is ConfigType.LIST and not items:
                raise ValueError(f"needs at least one of: {', '.join(self.choices)}")
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise ValueError(problem)

    def _because(self) -> str:
        return f" ({self.why})" if self.why and self.min == self.max else ""

    def render(self, value: Any) -> str | None:
        """The text form Kafka uses on the wire (DescribeConfigs) and in properties files."""
        if value is None:
            return None
        if self.type is ConfigType.BOOLEAN:
            return "true" if value else "false"
        if self.type is ConfigType.LIST:
            return ",".join(value)
        if self.type is ConfigType.DOUBLE:
            return repr(float(value))
        return str(value)

    def valid_values(self) -> str:
        """Human description of the allowed values, for docs."""
        parts: list[str] = []
        if self.choices is not None:
            joined = ", ".join(f"`{c}`" for c in self.choices)
            parts.append(f"any of {joined}" if self.type is ConfigType.LIST else f"one of {joined}")
        if self.min is not None and self.max is not None:
            parts.append(f"{_num(self.min)}" if self.min == self.max else f"{_num(self.min)} .. {_num(self.max)}")
        elif self.min is not None:
            parts.append(f">= {_num(self.min)}")
        elif self.max is not None:
            parts.append(f"<= {_num(self.max)}")
        if self.check_doc:
            parts.append(self.check_doc)
        return "; ".join(parts)


def _num(x: int | float) -> str:
    return str(x)


def env_var_for(key: str) -> str:
    """``log.dirs`` -> ``SHAREBROKER_LOG_DIRS``: prefix, upper case, dots to underscores."""
    return ENV_PREFIX + key.upper().replace(".", "_").replace("-", "_")


I, L, S, B, STR, LST, D = (  # noqa: E741 (one-letter type tags keep the settings table readable)
    ConfigType.INT,
    ConfigType.LONG,
    ConfigType.SHORT,
    ConfigType.BOOLEAN,
    ConfigType.STRING,
    ConfigType.LIST,
    ConfigType.DOUBLE,
)
NET, NODE, LOG, TOPIC, GROUP, SHARE, INTERNAL, COMPAT = (
    "Network",
    "Node and storage",
    "Log segments, retention and flushing",
    "Topics and records",
    "Classic and consumer groups",
    "Share groups (KIP-932)",
    "Internal topics",
    "Compatibility",
)
SEC = "Security"
REPL = "Replication (cluster)"
ONE_NODE = "a single node holds the only copy, so 1 is the only possible value"
SINGLE_NODE_RF = "a single node creates it with one replica, whatever this says"

SETTINGS: tuple[Setting, ...] = (
    # ---- network
    Setting(
        "listeners",
        LST,
        ("PLAINTEXT://127.0.0.1:9092",),
        section=NET,
        summary=True,
        doc="Addresses the broker listens on, as NAME://host:port, comma-separated; each "
        "name is a listener whose security protocol listener.security.protocol.map gives. "
        "An empty host means every interface; port 0 picks a free port (the chosen port is "
        "logged and advertised).",
        check=_check_listeners,
        check_doc="NAME://host:port entries, each name once",
        kafka_default="PLAINTEXT://:9092",
        why="we bind to loopback by default because a PLAINTEXT listener has no authentication",
    ),
    Setting(
        "advertised.listeners",
        LST,
        None,
        section=NET,
        summary=True,
        doc="Addresses clients are told to connect to (Metadata, FindCoordinator), one per "
        "listener name: a client is answered with the addresses of the listener it came in "
        "on. Unset: the listener addresses, with a wildcard host replaced by this machine's "
        "host name.",
        check=_check_advertised,
        check_doc="NAME://host:port entries of names in listeners, no wildcard host, no port 0",
    ),
    Setting(
        "listener.security.protocol.map",
        STR,
        DEFAULT_PROTOCOL_MAP,
        section=NET,
        doc="The security protocol of each listener name, as NAME:PROTOCOL pairs "
        "(PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL). A listener named after a protocol needs "
        "no entry. Settings for one listener take the prefix listener.name.<name lower case>. "
        "(listener.name.sasl_ssl.ssl.keystore.location, "
        "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config).",
        check=_check_protocol_map,
        check_doc="comma-separated NAME:PROTOCOL pairs",
    ),
    Setting(
        "inter.broker.listener.name",
        STR,
        None,
        section=NET,
        doc="The listener brokers use to reach each other (share-state RPCs to the share "
        "coordinator in a cluster). Unset: the first listener.",
    ),
    Setting(
        "max.connections",
        I,
        1000,
        section=NET,
        min=0,
        dynamic=True,
        doc="Most client connections open at once; further connections are closed on accept.",
        kafka_default=str(INT_MAX),
        why="each connection costs a file descriptor, a task and up to "
        "socket.request.max.bytes of buffer, so the default stays below the common 1024 "
        "open-file limit; raise it together with `ulimit -n`",
    ),
    Setting(
        "max.connections.per.ip",
        I,
        INT_MAX,
        section=NET,
        min=0,
        dynamic=True,
        doc="Most connections open at once from one IP address; further connections from it "
        "are closed on accept. max.connections.per.ip.overrides sets other limits per host.",
    ),
    Setting(
        "max.connections.per.ip.overrides",
        STR,
        "",
        section=NET,
        dynamic=True,
        doc="Per-host limits that replace max.connections.per.ip, as host:count pairs "
        "separated by commas (127.0.0.1:200,10.0.0.7:50).",
        check=lambda v: _check_ip_overrides(v),
        check_doc="comma-separated host:count pairs",
    ),
    Setting(
        "request.receive.timeout.ms",
        L,
        60000,
        section=NET,
        min=1,
        doc="Longest time a client may take to send one whole request, from its first byte "
        "to its last; a connection that takes longer is closed. Not a Kafka setting: Kafka "
        "bounds only idle time (connections.max.idle.ms), so a client that trickles bytes "
        "could hold a connection and its buffer forever.",
        why="a 100 MiB request (socket.request.max.bytes) still arrives in time at under 2 MB/s",
    ),
    Setting(
        "queued.max.request.bytes",
        L,
        268435456,
        section=NET,
        min=-1,
        doc="Bytes of requests received (whole or in part) and not yet handled, over all "
        "connections, before the broker stops reading new requests until some are handled; "
        "-1: no bound. Must be -1 or at least socket.request.max.bytes.",
        kafka_default="-1",
        why="bounds the memory clients can pin with requests sent slowly or in bulk; 256 MiB "
        "leaves room for two requests of the largest size at once",
    ),
    Setting(
        "quota.window.num",
        I,
        11,
        section=NET,
        min=1,
        doc="Samples kept to measure a client's byte rate against its produce and fetch quotas.",
    ),
    Setting(
        "quota.window.size.seconds",
        I,
        1,
        section=NET,
        min=1,
        doc="Length of each quota sample.",
    ),
    Setting(
        "connections.max.idle.ms",
        L,
        600000,
        section=NET,
        min=-1,
        doc="A connection with no request for this long is closed; -1 never closes idle connections.",
    ),
    Setting(
        "socket.request.max.bytes",
        I,
        104857600,
        section=NET,
        min=1,
        doc="Largest request frame accepted; a bigger size prefix closes the connection before anything is allocated.",
        why="bounds the memory one request can pin",
    ),
    Setting(
        "socket.listen.backlog.size",
        I,
        50,
        section=NET,
        min=1,
        doc="Connections the operating system queues before the broker accepts them.",
    ),
    Setting(
        "metrics.listen",
        STR,
        None,
        section=NET,
        doc="HOST:PORT of an HTTP endpoint serving broker metrics in the Prometheus text "
        "format at /metrics (request counts and latency per API, bytes in and out, log "
        "sizes, and the KIP-932 share-group metrics). Unset: no endpoint. An empty host "
        "means every interface; port 0 picks a free port (logged as `metrics_listening`). "
        "Not a Kafka setting: Kafka exports its metrics over JMX.",
        check=_check_host_port,
        check_doc="HOST:PORT",
        why="the endpoint has no authentication, so bind it to loopback or a private address",
    ),
    Setting(
        "request.timeout.ms",
        I,
        30000,
        section=NET,
        min=0,
        doc="Upper bound the broker uses when it waits on its own work for a request "
        "(for example a durable share-state write).",
    ),
    # ---- node and storage
    Setting(
        "node.id",
        I,
        1,
        section=NODE,
        min=0,
        summary=True,
        doc="This broker's id, reported in Metadata and used as the controller id.",
        kafka_default="(required)",
        why="a single-node broker can pick an id itself",
    ),
    Setting(
        "broker.id",
        I,
        None,
        section=NODE,
        min=0,
        doc="Older name for node.id. If both are set they must be equal.",
    ),
    Setting(
        "broker.rack",
        STR,
        None,
        section=NODE,
        doc="Rack (or zone) of this broker. In a cluster, partitions are placed over racks "
        "first, so one rack's loss takes at most its share of each topic's leaders.",
    ),
    Setting(
        "etcd.endpoints",
        LST,
        None,
        section=NODE,
        summary=True,
        doc="etcd endpoints (http://host:port, comma-separated). Set: this broker is a member "
        "of a cluster whose registrations, controller election and metadata live in etcd "
        "(v3 API, etcd 3.4+). Unset: the broker is a single node and needs no etcd. "
        "Not a Kafka setting: Kafka's counterpart was zookeeper.connect.",
    ),
    Setting(
        "etcd.prefix",
        STR,
        "/sharebroker",
        section=NODE,
        doc="Key prefix under which the cluster keeps everything in etcd; several clusters "
        "can share one etcd with different prefixes (like a ZooKeeper chroot).",
    ),
    Setting(
        "broker.session.timeout.ms",
        I,
        9000,
        section=NODE,
        min=2000,
        doc="In a cluster: the TTL of this broker's etcd lease. A broker (or the controller) "
        "that stops refreshing its lease for this long is removed from the cluster, its "
        "partitions lose their leader and a new controller is elected.",
        why="etcd refuses lease TTLs shorter than about 1.5 s with its default election timeout",
    ),
    Setting(
        "broker.heartbeat.interval.ms",
        I,
        2000,
        section=NODE,
        min=100,
        doc="In a cluster: how often the broker refreshes its etcd lease.",
    ),
    Setting(
        "etcd.request.timeout.ms",
        I,
        3000,
        section=NODE,
        min=100,
        doc="In a cluster: how long one etcd request may take before etcd counts as "
        "unreachable for it (the broker then keeps serving with the metadata it has).",
    ),
    Setting(
        "log.dirs",
        LST,
        None,
        section=NODE,
        summary=True,
        doc="Directories holding topic data (comma-separated; several spread the partitions over "
        "them, JBOD). The first also holds the broker's internal state. Takes precedence over log.dir.",
        check=_check_dirs,
        check_doc="one or more directories, each once",
    ),
    Setting(
        "log.dir",
        LST,
        ("./data",),
        section=NODE,
        doc="Data directory used when log.dirs is not set. Relative paths are resolved against the working directory.",
        check=_check_dirs,
        check_doc="one or more directories, each once",
        kafka_default="/tmp/kafka-logs",
        why="a directory next to the working tree survives reboots, unlike /tmp",
    ),
    # ---- log
    Setting(
        "log.segment.bytes",
        I,
        1073741824,
        section=LOG,
        min=1048576,
        dynamic=True,
        doc="A partition's active segment is rolled once it reaches this size.",
        why="Kafka's floor: tiny segments mean many files and descriptors",
    ),
    Setting(
        "log.roll.ms",
        L,
        None,
        section=LOG,
        min=1,
        dynamic=True,
        doc="Roll the active segment once its first record is this old. Unset: log.roll.hours.",
    ),
    Setting(
        "log.roll.hours",
        I,
        168,
        section=LOG,
        min=1,
        doc="Segment age limit in hours, used when log.roll.ms is not set.",
    ),
    Setting(
        "log.retention.ms",
        L,
        None,
        section=LOG,
        dynamic=True,
        summary=True,
        doc="Delete closed segments whose newest record is older than this; -1 keeps "
        "everything. Unset: log.retention.minutes, then log.retention.hours.",
        check=_check_unlimited_or_positive,
        check_doc="-1 or >= 1",
    ),
    Setting(
        "log.retention.minutes",
        I,
        None,
        section=LOG,
        doc="Retention in minutes, used when log.retention.ms is not set.",
        check=_check_unlimited_or_positive,
        check_doc="-1 or >= 1",
    ),
    Setting(
        "log.retention.hours",
        I,
        168,
        section=LOG,
        summary=True,
        doc="Retention in hours, used when neither log.retention.ms nor .minutes is set.",
        check=_check_unlimited_or_positive,
        check_doc="-1 or >= 1",
    ),
    Setting(
        "log.retention.bytes",
        L,
        -1,
        section=LOG,
        dynamic=True,
        doc="Delete the oldest segments while a partition is larger than this; -1: no size limit.",
    ),
    Setting(
        "log.retention.check.interval.ms",
        L,
        300000,
        section=LOG,
        min=1,
        doc="How often the retention sweep runs.",
    ),
    Setting(
        "log.index.interval.bytes",
        I,
        4096,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Bytes of log between two entries of the offset and time indexes.",
    ),
    Setting(
        "log.flush.interval.messages",
        L,
        LONG_MAX,
        section=LOG,
        min=1,
        dynamic=True,
        doc="fsync a partition after this many records. The default leaves durability "
        "to the page cache, as Kafka does.",
    ),
    Setting(
        "log.flush.interval.ms",
        L,
        None,
        section=LOG,
        dynamic=True,
        doc="fsync a partition whose oldest unflushed record is this old. Unset: log.flush.scheduler.interval.ms.",
    ),
    Setting(
        "log.flush.scheduler.interval.ms",
        L,
        LONG_MAX,
        section=LOG,
        doc="How often the time-based flush check runs.",
    ),
    Setting(
        "log.cleanup.policy",
        LST,
        ("delete",),
        section=LOG,
        choices=("compact", "delete"),
        dynamic=True,
        doc="Default cleanup.policy of topics: `delete` (retention by time and size), `compact` "
        "(keep the latest record of each key) or both.",
    ),
    Setting(
        "log.cleaner.enable",
        B,
        True,
        section=LOG,
        doc="Run the log cleaner, which compacts topics whose cleanup.policy includes `compact` "
        "(internal topics such as __consumer_offsets among them).",
    ),
    Setting(
        "log.cleaner.threads",
        I,
        1,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Partitions cleaned at once. Each clean runs in a worker process of its own, so "
        "compaction never competes with request handling for the interpreter.",
    ),
    Setting(
        "log.cleaner.dedupe.buffer.size",
        L,
        134217728,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Memory for the key -> offset maps of all cleaner workers together. One clean maps "
        "at most (this / threads * load factor) / 112 keys; more keys take more rounds.",
        why="a key costs about 112 bytes in a worker's map (Kafka packs 24: a 16-byte hash and an "
        "offset), so the same buffer maps fewer keys per round",
    ),
    Setting(
        "log.cleaner.io.buffer.size",
        I,
        524288,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Bytes a cleaner worker reads from a segment at a time (a larger batch is read whole).",
    ),
    Setting(
        "log.cleaner.io.buffer.load.factor",
        D,
        0.9,
        section=LOG,
        min=0.0,
        max=1.0,
        dynamic=True,
        doc="How full a cleaner's key map may get before the round stops mapping keys.",
    ),
    Setting(
        "log.cleaner.io.max.bytes.per.second",
        D,
        1.7976931348623157e308,
        section=LOG,
        min=0.0,
        dynamic=True,
        doc="Read plus write rate of all cleaner workers together; the default is unlimited.",
    ),
    Setting(
        "replica.alter.log.dirs.io.max.bytes.per.second",
        L,
        9223372036854775807,
        section=LOG,
        min=1,
        dynamic=True,
        doc="Bytes per second that AlterReplicaLogDirs moves copy between log directories, all "
        "moves together; the default is unlimited.",
    ),
    Setting(
        "log.cleaner.backoff.ms",
        L,
        15000,
        section=LOG,
        min=0,
        dynamic=True,
        doc="How long the cleaner sleeps when no partition needs cleaning.",
    ),
    Setting(
        "log.cleaner.min.cleanable.ratio",
        D,
        0.5,
        section=LOG,
        min=0.0,
        max=1.0,
        dynamic=True,
        doc="Default min.cleanable.dirty.ratio: clean a partition once this share of its log is "
        "dirty (written since the last clean).",
    ),
    Setting(
        "log.cleaner.delete.retention.ms",
        L,
        86400000,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Default delete.retention.ms: how long a tombstone or transaction marker stays after "
        "the clean that first finds it removable.",
    ),
    Setting(
        "log.cleaner.min.compaction.lag.ms",
        L,
        0,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Default min.compaction.lag.ms: a record stays uncompacted at least this long.",
    ),
    Setting(
        "log.cleaner.max.compaction.lag.ms",
        L,
        LONG_MAX,
        section=LOG,
        min=1,
        dynamic=True,
        doc="Default max.compaction.lag.ms: a record is compacted at most this long after it is "
        "written, whatever the dirty ratio (the active segment also rolls by then).",
    ),
    Setting(
        "log.segment.delete.delay.ms",
        L,
        60000,
        section=LOG,
        min=0,
        dynamic=True,
        doc="Default file.delete.delay.ms: how long a segment replaced by the cleaner stays "
        "readable by requests that were already reading it.",
    ),
    # ---- topics and records
    Setting(
        "num.partitions",
        I,
        1,
        section=TOPIC,
        min=1,
        summary=True,
        doc="Partitions of a topic created automatically or without a partition count.",
    ),
    Setting(
        "default.replication.factor",
        I,
        1,
        section=TOPIC,
        min=1,
        doc="Replication factor of automatically created topics and of CreateTopics without "
        "one. In a cluster it may be up to the number of brokers; a single node holds one copy.",
    ),
    Setting(
        "min.insync.replicas",
        I,
        1,
        section=TOPIC,
        min=1,
        doc="In-sync replicas an acks=all write needs: with fewer the producer gets "
        "NOT_ENOUGH_REPLICAS (or NOT_ENOUGH_REPLICAS_AFTER_APPEND). Default of the topic setting.",
    ),
    Setting(
        "unclean.leader.election.enable",
        B,
        False,
        section=REPL,
        doc="Let a replica outside the ISR become leader when no in-sync replica is alive: the "
        "partition is available again, and records only the lost replicas had are gone. "
        "Default of the topic setting.",
    ),
    Setting(
        "replica.lag.time.max.ms",
        L,
        30000,
        section=REPL,
        min=1,
        doc="A follower that has not caught up with the leader's log end for this long is "
        "removed from the ISR (acks=all stops waiting for it).",
    ),
    Setting(
        "replica.fetch.wait.max.ms",
        I,
        500,
        section=REPL,
        min=0,
        doc="Longest a follower's fetch waits at the leader for new data.",
    ),
    Setting(
        "replica.fetch.min.bytes",
        I,
        1,
        section=REPL,
        min=1,
        doc="Bytes a follower's fetch waits for (up to replica.fetch.wait.max.ms).",
    ),
    Setting(
        "replica.fetch.max.bytes",
        I,
        1048576,
        section=REPL,
        min=0,
        doc="Bytes a follower fetches per partition and request (at least one batch).",
    ),
    Setting(
        "replica.fetch.response.max.bytes",
        I,
        10485760,
        section=REPL,
        min=0,
        doc="Bytes a follower fetches per request over all partitions (at least one batch).",
    ),
    Setting(
        "replica.fetch.backoff.ms",
        I,
        1000,
        section=REPL,
        min=0,
        doc="Pause before a follower fetches a partition again after an error.",
    ),
    Setting(
        "replica.socket.timeout.ms",
        I,
        30000,
        section=REPL,
        min=1,
        doc="How long a follower waits for a leader's answer before it tries again.",
    ),
    Setting(
        "auto.leader.rebalance.enable",
        B,
        True,
        section=REPL,
        doc="The controller moves leadership back to each partition's preferred (first) "
        "replica when a broker's imbalance passes leader.imbalance.per.broker.percentage.",
    ),
    Setting(
        "leader.imbalance.check.interval.seconds",
        L,
        300,
        section=REPL,
        min=1,
        doc="How often the controller checks the leader balance.",
    ),
    Setting(
        "leader.imbalance.per.broker.percentage",
        I,
        10,
        section=REPL,
        min=0,
        doc="Share of a broker's preferred partitions led elsewhere above which the "
        "controller moves them back (auto.leader.rebalance.enable).",
    ),
    Setting(
        "controlled.shutdown.enable",
        B,
        True,
        section=REPL,
        doc="On SIGTERM, a cluster member first has its leaderships moved to other in-sync "
        "replicas and leaves the ISRs (for at most 5 s), then stops.",
    ),
    Setting(
        "auto.create.topics.enable",
        B,
        True,
        section=TOPIC,
        summary=True,
        doc="Create a topic when a client asks for its metadata or produces to it.",
    ),
    Setting(
        "message.max.bytes",
        I,
        1048588,
        section=TOPIC,
        min=0,
        dynamic=True,
        summary=True,
        doc="Largest record batch (after compression) accepted by Produce.",
    ),
    Setting(
        "delete.topic.enable",
        B,
        True,
        section=TOPIC,
        doc="Whether DeleteTopics may delete topics; off, it answers TOPIC_DELETION_DISABLED.",
    ),
    Setting(
        "fetch.max.bytes",
        I,
        57_671_680,
        section=TOPIC,
        min=1,
        doc="Most bytes one Fetch response carries, whatever the client asks (the first partition "
        "with data still returns one whole batch).",
        why="Kafka refuses values below 1024; any positive cap works the same way here (the first "
        "batch is always whole), so small values are allowed for tight test setups",
    ),
    Setting(
        "max.incremental.fetch.session.cache.slots",
        I,
        1000,
        section=TOPIC,
        min=0,
        doc="Incremental fetch sessions (KIP-227) this broker keeps; 0 disables them.",
    ),
    Setting(
        "max.request.partition.size.limit",
        I,
        2000,
        section=TOPIC,
        min=1,
        doc="Most partitions one DescribeTopicPartitions response lists before it pages with a cursor.",
    ),
    # ---- groups
    Setting(
        "group.coordinator.rebalance.protocols",
        LST,
        ("classic", "consumer", "share", "streams"),
        section=GROUP,
        choices=("classic", "consumer", "share", "streams"),
        doc="Group protocols the coordinator accepts: classic (JoinGroup/SyncGroup), "
        "consumer (KIP-848), share (KIP-932) and streams (KIP-1071). Heartbeats of a "
        "protocol left out are answered UNSUPPORTED_VERSION.",
        kafka_default="classic,consumer,streams",
        why="share groups are this broker's purpose, so they are on by default",
    ),
    Setting(
        "group.initial.rebalance.delay.ms",
        I,
        3000,
        section=GROUP,
        min=0,
        doc="How long a new classic group waits for more members before its first rebalance.",
    ),
    Setting(
        "group.min.session.timeout.ms",
        I,
        6000,
        section=GROUP,
        min=0,
        doc="Smallest session timeout a classic-group member may ask for.",
    ),
    Setting(
        "group.max.session.timeout.ms",
        I,
        1800000,
        section=GROUP,
        min=0,
        doc="Largest session timeout a classic-group member may ask for.",
    ),
    Setting(
        "group.max.size",
        I,
        INT_MAX,
        section=GROUP,
        min=1,
        doc="Most members in one classic group.",
    ),
    Setting(
        "group.consumer.session.timeout.ms",
        I,
        45000,
        section=GROUP,
        min=1,
        doc="A consumer-group member that sends no heartbeat for this long is removed.",
    ),
    Setting(
        "group.consumer.min.session.timeout.ms",
        I,
        45000,
        section=GROUP,
        min=1,
        doc="Lower bound for group.consumer.session.timeout.ms.",
    ),
    Setting(
        "group.consumer.max.session.timeout.ms",
        I,
        60000,
        section=GROUP,
        min=1,
        doc="Upper bound for group.consumer.session.timeout.ms.",
    ),
    Setting(
        "group.consumer.heartbeat.interval.ms",
        I,
        5000,
        section=GROUP,
        min=1,
        doc="Heartbeat interval the coordinator tells consumer-group members to use.",
    ),
    Setting(
        "group.consumer.min.heartbeat.interval.ms",
        I,
        5000,
        section=GROUP,
        min=1,
        doc="Lower bound for group.consumer.heartbeat.interval.ms.",
    ),
    Setting(
        "group.consumer.max.heartbeat.interval.ms",
        I,
        15000,
        section=GROUP,
        min=1,
        doc="Upper bound for group.consumer.heartbeat.interval.ms.",
    ),
    Setting(
        "group.consumer.max.size",
        I,
        INT_MAX,
        section=GROUP,
        min=1,
        doc="Most members in one consumer group.",
    ),
    Setting(
        "group.consumer.assignors",
        LST,
        ("uniform", "range"),
        section=GROUP,
        check=_check_consumer_assignors,
        check_doc="uniform, range (or Kafka's class names for them)",
        doc="Server-side assignors of consumer groups (KIP-848); a member picks one with "
        "group.remote.assignor, else the first is used.",
    ),
    Setting(
        "group.consumer.migration.policy",
        STR,
        "bidirectional",
        section=GROUP,
        choices=("disabled", "upgrade", "downgrade", "bidirectional"),
        doc="Online conversion between classic and consumer groups: upgrade (a consumer-protocol "
        "member joins a classic group), downgrade (the last consumer-protocol member leaves a group "
        "of classic members), both, or neither.",
    ),
    Setting(
        "group.consumer.assignment.interval.ms",
        I,
        1000,
        section=GROUP,
        min=0,
        dynamic=True,
        doc="Shortest time between two target assignments of one consumer group (KIP-1263): a "
        "change that comes sooner (members joining one after another) is assigned together with "
        "the next, by the first heartbeat once the interval has passed; the group shows Assigning "
        "meanwhile. A new or emptied group is assigned at once. 0: every change at once. Group "
        "default for consumer.assignment.interval.ms.",
    ),
    Setting(
        "group.consumer.min.assignment.interval.ms",
        I,
        0,
        section=GROUP,
        min=0,
        doc="Lower bound of consumer.assignment.interval.ms (group config).",
    ),
    Setting(
        "group.consumer.max.assignment.interval.ms",
        I,
        15000,
        section=GROUP,
        min=0,
        doc="Upper bound of consumer.assignment.interval.ms (group config).",
    ),
    Setting(
        "group.consumer.assignor.offload.enable",
        B,
        True,
        section=GROUP,
        dynamic=True,
        doc="Accepted for compatibility (an internal Kafka setting, unused by Kafka 4.4.0 too); no "
        "effect: the assignors run on the event loop between requests. Group default for "
        "consumer.assignor.offload.enable.",
    ),
    Setting(
        "group.streams.session.timeout.ms",
        I,
        45000,
        section=GROUP,
        min=1,
        doc="A streams-group (KIP-1071) member that sends no heartbeat for this long is removed.",
    ),
    Setting(
        "group.streams.min.session.timeout.ms",
        I,
        45000,
        section=GROUP,
        min=1,
        doc="Lower bound for group.streams.session.timeout.ms.",
    ),
    Setting(
        "group.streams.max.session.timeout.ms",
        I,
        60000,
        section=GROUP,
        min=1,
        doc="Upper bound for group.streams.session.timeout.ms.",
    ),
    Setting(
        "group.streams.heartbeat.interval.ms",
        I,
        5000,
        section=GROUP,
        min=1,
        doc="Heartbeat interval the coordinator tells streams-group members to use.",
    ),
    Setting(
        "group.streams.min.heartbeat.interval.ms",
        I,
        5000,
        section=GROUP,
        min=1,
        doc="Lower bound for group.streams.heartbeat.interval.ms.",
    ),
    Setting(
        "group.streams.max.heartbeat.interval.ms",
        I,
        15000,
        section=GROUP,
        min=1,
        doc="Upper bound for group.streams.heartbeat.interval.ms.",
    ),
    Setting(
        "group.streams.max.size",
        I,
        INT_MAX,
        section=GROUP,
        min=1,
        doc="Most members in one streams group.",
    ),
    Setting(
        "group.streams.num.standby.replicas",
        I,
        0,
        section=GROUP,
        min=0,
        doc="Standby replicas of each stateful task of a streams group.",
    ),
    Setting(
        "group.streams.max.standby.replicas",
        I,
        2,
        section=GROUP,
        min=0,
        doc="Upper bound of group.streams.num.standby.replicas and of the streams.num.standby.replicas group config.",
    ),
    Setting(
        "group.streams.initial.rebalance.delay.ms",
        I,
        3000,
        section=GROUP,
        min=0,
        doc="How long a new streams group waits for more members before its first assignment.",
    ),
    Setting(
        "group.streams.assignment.interval.ms",
        I,
        1000,
        section=GROUP,
        min=0,
        dynamic=True,
        doc="Shortest time between two target assignments of one streams group (KIP-1263); members "
        "hear ASSIGNMENT_DELAYED meanwhile. 0: every change at once. Group default for "
        "streams.assignment.interval.ms.",
    ),
    Setting(
        "group.streams.min.assignment.interval.ms",
        I,
        0,
        section=GROUP,
        min=0,
        doc="Lower bound of streams.assignment.interval.ms (group config).",
    ),
    Setting(
        "group.streams.max.assignment.interval.ms",
        I,
        15000,
        section=GROUP,
        min=0,
        doc="Upper bound of streams.assignment.interval.ms (group config).",
    ),
    Setting(
        "group.streams.assignor.offload.enable",
        B,
        True,
        section=GROUP,
        dynamic=True,
        doc="Accepted for compatibility (an internal Kafka setting, unused by Kafka 4.4.0 too); no "
        "effect: the assignor runs on the event loop between requests. Group default for "
        "streams.assignor.offload.enable.",
    ),
    Setting(
        "group.streams.rack.aware.assignment.tags",
        STR,
        "",
        section=GROUP,
        doc="Client tags (comma-separated keys) whose values the sticky task assignor spreads standby "
        "tasks over; the group config streams.rack.aware.assignment.tags overrides it.",
    ),
    Setting(
        "group.streams.assignors",
        LST,
        ("sticky",),
        section=GROUP,
        choices=("sticky",),
        doc="Task assignors of streams groups (the first is used).",
    ),
    Setting(
        "offsets.retention.minutes",
        I,
        10080,
        section=GROUP,
        min=1,
        doc="Committed offsets of an empty group are dropped after this long.",
    ),
    Setting(
        "offset.metadata.max.bytes",
        I,
        4096,
        section=GROUP,
        min=0,
        doc="Longest metadata string accepted with a committed offset.",
    ),
    # ---- share groups
    Setting(
        "group.share.max.size",
        I,
        200,
        section=SHARE,
        min=1,
        max=1000,
        summary=True,
        doc="Most members in one share group; the next join gets GROUP_MAX_SIZE_REACHED.",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.session.timeout.ms",
        I,
        45000,
        section=SHARE,
        min=1,
        summary=True,
        doc="A share-group member that sends no heartbeat for this long is removed and its partitions are reassigned.",
    ),
    Setting(
        "group.share.min.session.timeout.ms",
        I,
        45000,
        section=SHARE,
        min=1,
        doc="Lower bound for group.share.session.timeout.ms and the group-level share.session.timeout.ms.",
    ),
    Setting(
        "group.share.max.session.timeout.ms",
        I,
        60000,
        section=SHARE,
        min=1,
        doc="Upper bound for group.share.session.timeout.ms and the group-level share.session.timeout.ms.",
    ),
    Setting(
        "group.share.heartbeat.interval.ms",
        I,
        5000,
        section=SHARE,
        min=1,
        doc="Heartbeat interval the coordinator tells share-group members to use.",
    ),
    Setting(
        "group.share.min.heartbeat.interval.ms",
        I,
        5000,
        section=SHARE,
        min=1,
        doc="Lower bound for group.share.heartbeat.interval.ms and the group-level share.heartbeat.interval.ms.",
    ),
    Setting(
        "group.share.max.heartbeat.interval.ms",
        I,
        15000,
        section=SHARE,
        min=1,
        doc="Upper bound for group.share.heartbeat.interval.ms and the group-level share.heartbeat.interval.ms.",
    ),
    Setting(
        "group.share.record.lock.duration.ms",
        I,
        30000,
        section=SHARE,
        min=1000,
        max=3600000,
        summary=True,
        doc="How long a delivered record stays locked to the consumer that received it "
        "before it becomes available again. Group default for share.record.lock.duration.ms.",
        why="Kafka's bounds; it must also lie between the min and max lock durations",
    ),
    Setting(
        "group.share.min.record.lock.duration.ms",
        I,
        15000,
        section=SHARE,
        min=1000,
        max=30000,
        doc="Smallest lock duration a group may configure.",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.max.record.lock.duration.ms",
        I,
        60000,
        section=SHARE,
        min=30000,
        max=3600000,
        doc="Largest lock duration a group may configure.",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.delivery.count.limit",
        I,
        5,
        section=SHARE,
        min=2,
        max=10,
        summary=True,
        doc="Deliveries a record gets before it is archived instead of offered again, so "
        "a record that keeps failing cannot block a partition forever.",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.partition.max.record.locks",
        I,
        2000,
        section=SHARE,
        min=100,
        max=10000,
        summary=True,
        doc="Most records in flight (delivered, not yet acknowledged) per share-partition; "
        "at the limit, only records already in the window are handed out again. As in Kafka, "
        "a batch_optimized fetch that starts below the limit takes its last log batch whole, "
        "so the window can pass the limit by less than one batch.",
        why="Kafka's bounds; it caps the memory of one share-partition's state",
    ),
    Setting(
        "group.share.min.delivery.count.limit",
        I,
        2,
        section=SHARE,
        min=2,
        max=5,
        doc="Smallest share.delivery.count.limit a group may configure (KIP-1240).",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.max.delivery.count.limit",
        I,
        10,
        section=SHARE,
        min=5,
        max=25,
        doc="Largest share.delivery.count.limit a group may configure (KIP-1240).",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.min.partition.max.record.locks",
        I,
        100,
        section=SHARE,
        min=100,
        max=2000,
        doc="Smallest share.partition.max.record.locks a group may configure (KIP-1240).",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.max.partition.max.record.locks",
        I,
        4000,
        section=SHARE,
        min=2000,
        max=10000,
        doc="Largest share.partition.max.record.locks a group may configure (KIP-1240).",
        why="Kafka's bounds; it caps the memory one share-partition's state may take",
    ),
    Setting(
        "group.share.assignment.interval.ms",
        I,
        1000,
        section=SHARE,
        min=0,
        dynamic=True,
        doc="Shortest time between two target assignments of one share group: a change that comes "
        "sooner (members joining one after another) is assigned together with the next, once the "
        "interval has passed. A change after a quiet interval is assigned at once. 0: every change "
        "at once. Group default for share.assignment.interval.ms.",
    ),
    Setting(
        "group.share.min.assignment.interval.ms",
        I,
        0,
        section=SHARE,
        min=0,
        doc="Lower bound of the group-level share.assignment.interval.ms.",
    ),
    Setting(
        "group.share.max.assignment.interval.ms",
        I,
        15000,
        section=SHARE,
        min=0,
        doc="Upper bound of the group-level share.assignment.interval.ms.",
    ),
    Setting(
        "group.share.assignor.offload.enable",
        B,
        True,
        section=SHARE,
        dynamic=True,
        doc="Accepted for compatibility (an internal Kafka setting, unused by Kafka 4.4.0 too); no "
        "effect: the assignor runs on the event loop between requests (about 15 ms for 200 members "
        "over 1000 partitions), at most once per group and assignment interval. Group default for "
        "share.assignor.offload.enable.",
    ),
    Setting(
        "errors.deadletterqueue.topic.name.prefix",
        STR,
        "dlq.",
        section=SHARE,
        dynamic=True,
        doc="Prefix every share group's dead-letter topic (errors.deadletterqueue.topic.name) "
        "must have (KIP-1191); records of a group whose topic lacks it are archived without a "
        'dead-letter copy. "" allows any name.',
    ),
    Setting(
        "errors.deadletterqueue.auto.create.topics.enable",
        B,
        False,
        section=SHARE,
        dynamic=True,
        doc="Create a share group's dead-letter topic on its first dead letter when it does not "
        "exist, with errors.deadletterqueue.group.enable=true, CreateTime timestamps and the "
        "default partition count (KIP-1191).",
    ),
    Setting(
        "telemetry.max.bytes",
        I,
        1048576,
        section=NODE,
        min=1,
        doc="Largest metrics payload a client may send in one PushTelemetry (KIP-714).",
    ),
    Setting(
        "share.version",
        I,
        2,
        section=SHARE,
        min=1,
        max=2,
        doc="The share.version feature level this broker runs at and finalizes in ApiVersions: 1 "
        "share groups as in Kafka 4.2, 2 adds dead-letter queues (KIP-1191), as a fresh Kafka 4.4 "
        "cluster has it. Kafka sets the level with kafka-storage.sh format --feature or "
        "kafka-features.sh.",
    ),
    Setting(
        "group.share.max.share.sessions",
        I,
        2000,
        section=SHARE,
        min=1,
        doc="Share-fetch sessions the broker keeps at once; the next new session gets SHARE_SESSION_LIMIT_REACHED.",
        why="each session holds per-partition state in memory",
    ),
    Setting(
        "share.coordinator.state.topic.num.partitions",
        I,
        50,
        section=SHARE,
        min=1,
        doc="Partitions of __share_group_state, which stores share-partition state.",
    ),
    Setting(
        "share.coordinator.state.topic.replication.factor",
        S,
        3,
        section=SHARE,
        min=1,
        doc="Replication factor of __share_group_state. In a cluster, the topic is created "
        "once this many brokers are registered (share groups wait until then).",
        why=SINGLE_NODE_RF,
    ),
    Setting(
        "share.coordinator.state.topic.min.isr",
        S,
        2,
        section=SHARE,
        min=1,
        doc="min.insync.replicas of __share_group_state.",
    ),
    Setting(
        "share.coordinator.state.topic.segment.bytes",
        I,
        104857600,
        section=SHARE,
        min=1,
        doc="Segment size of __share_group_state (its log is kept short by rewriting live state).",
    ),
    Setting(
        "share.coordinator.write.timeout.ms",
        I,
        5000,
        section=SHARE,
        min=1,
        doc="How long a share-state write may take to become durable; a write not durable by then "
        "is answered COORDINATOR_NOT_AVAILABLE and rolled back.",
    ),
    Setting(
        "share.coordinator.snapshot.update.records.per.snapshot",
        I,
        500,
        section=SHARE,
        min=0,
        doc="Delta records written for a share-partition before a full snapshot replaces them.",
    ),
    # ---- internal topics
    Setting(
        "offsets.topic.num.partitions",
        I,
        50,
        section=INTERNAL,
        min=1,
        doc="Partitions of __consumer_offsets.",
    ),
    Setting(
        "offsets.topic.replication.factor",
        S,
        3,
        section=INTERNAL,
        min=1,
        doc="Replication factor of __consumer_offsets. In a cluster, the topic is created "
        "once this many brokers are registered (groups wait until then).",
        why=SINGLE_NODE_RF,
    ),
    Setting(
        "transaction.state.log.num.partitions",
        I,
        50,
        section=INTERNAL,
        min=1,
        doc="Partitions of __transaction_state.",
    ),
    Setting(
        "transaction.state.log.replication.factor",
        S,
        3,
        section=INTERNAL,
        min=1,
        doc="Replication factor of __transaction_state. In a cluster, the topic is created "
        "once this many brokers are registered.",
        why=SINGLE_NODE_RF,
    ),
    Setting(
        "transaction.state.log.min.isr",
        I,
        2,
        section=INTERNAL,
        min=1,
        doc="min.insync.replicas of __transaction_state (a single node has one replica: there it is 1).",
    ),
    Setting(
        "transaction.max.timeout.ms",
        I,
        900000,
        section=INTERNAL,
        min=1,
        doc="Longest transaction timeout a producer may request; InitProducerId asking for more "
        "gets INVALID_TRANSACTION_TIMEOUT.",
    ),
    Setting(
        "transaction.state.log.segment.bytes",
        I,
        104857600,
        section=INTERNAL,
        min=1,
        doc="Segment size of __transaction_state (its log is kept short by rewriting live state).",
    ),
    Setting(
        "transactional.id.expiration.ms",
        I,
        604800000,
        section=INTERNAL,
        min=1,
        doc="A transactional id with no transaction open and no request for this long is removed "
        "(its producer id and epoch are forgotten).",
    ),
    Setting(
        "transaction.version",
        S,
        2,
        section=INTERNAL,
        min=0,
        max=2,
        doc="Finalized level of the transaction.version feature, as ApiVersions reports it: 2 bumps "
        "the producer epoch at every transaction end (KIP-890 part 2, EndTxn v5, implicit partition "
        "adds by Produce v12+); 0 or 1 keep the older protocol for every client.",
        why="Kafka finalizes features cluster-wide with kafka-features.sh; here the node's setting "
        "is the finalized level (2, as a new Kafka 4.4 cluster)",
    ),
    Setting(
        "transaction.two.phase.commit.enable",
        B,
        False,
        section=INTERNAL,
        doc="Allow InitProducerId with enable2Pc (KIP-939); refused with "
        "TRANSACTIONAL_ID_AUTHORIZATION_FAILED otherwise.",
    ),
    Setting(
        "transaction.partition.verification.enable",
        B,
        True,
        section=INTERNAL,
        doc="Before the first transactional batch of a producer reaches a partition, check with the "
        "transaction coordinator that the partition is in its open transaction (KIP-890 part 1); "
        "a batch that was not verified is refused with INVALID_TXN_STATE.",
    ),
    Setting(
        "producer.id.expiration.ms",
        I,
        86400000,
        section=INTERNAL,
        min=1,
        doc="A partition forgets an idle producer's sequence and epoch after this long (no open "
        "transaction); DescribeProducers stops listing it.",
    ),
    # ---- compatibility
    Setting(
        "unstable.api.versions.enable",
        B,
        False,
        section=COMPAT,
        doc="Also advertise API versions that are still marked unstable.",
    ),
    # ---- security (TLS, SASL, ACLs): read by broker.security when a listener uses them
    *(
        Setting(key, t, default, section=SEC, doc=doc, sensitive=t is ConfigType.PASSWORD, **extra)
        for key, t, default, doc, extra in (
            (
                "ssl.keystore.type",
                STR,
                "PEM",
                "Format of the broker's key and certificate chain.",
                {
                    "choices": ("PEM",),
                    "kafka_default": "JKS",
                    "why": "keys are loaded by OpenSSL, which reads PEM; convert JKS/PKCS12 with openssl or keytool",
                },
            ),
            (
                "ssl.keystore.location",
                STR,
                None,
                "PEM file holding the broker's private key and certificate chain.",
                {},
            ),
            (
                "ssl.keystore.key",
                ConfigType.PASSWORD,
                None,
                "The broker's private key as inline PEM (with ssl.keystore.certificate.chain).",
                {},
            ),
            (
                "ssl.keystore.certificate.chain",
                ConfigType.PASSWORD,
                None,
                "The broker's certificate chain as inline PEM.",
                {},
            ),
            ("ssl.key.password", ConfigType.PASSWORD, None, "Password of an encrypted private key.", {}),
            (
                "ssl.truststore.type",
                STR,
                "PEM",
                "Format of the CA certificates client certificates are checked against.",
                {"choices": ("PEM",), "kafka_default": "JKS", "why": "as ssl.keystore.type"},
            ),
            ("ssl.truststore.location", STR, None, "PEM file of trusted CA certificates.", {}),
            ("ssl.truststore.certificates", ConfigType.PASSWORD, None, "Trusted CA certificates as inline PEM.", {}),
            (
                "ssl.client.auth",
                STR,
                "none",
                "Whether TLS clients must (required), may (requested) or need not (none) present a certificate.",
                {"choices": ("none", "requested", "required")},
            ),
            (
                "ssl.enabled.protocols",
                LST,
                ("TLSv1.2", "TLSv1.3"),
                "TLS versions accepted.",
                {"choices": ("TLSv1.2", "TLSv1.3"), "why": "older TLS versions are broken and refused"},
            ),
            (
                "ssl.cipher.suites",
                LST,
                None,
                "TLS 1.2 cipher suites (IANA or OpenSSL names); unset: OpenSSL's defaults. TLS 1.3 suites are always OpenSSL's.",
                {},
            ),
            (
                "ssl.principal.mapping.rules",
                STR,
                "DEFAULT",
                "Rules (RULE:pattern/replacement/[LU], DEFAULT) mapping a client certificate's DN to the principal name.",
                {},
            ),
            (
                "sasl.enabled.mechanisms",
                LST,
                ("PLAIN",),
                "SASL mechanisms offered on SASL listeners.",
                {
                    "choices": ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"),
                    "kafka_default": "GSSAPI",
                    "why": "Kerberos (GSSAPI) is not implemented",
                },
            ),
            (
                "sasl.server.max.receive.size",
                I,
                524288,
                "Largest frame accepted before and during the first SASL authentication.",
                {"min": 1, "why": "bounds what an unauthenticated peer can make the broker buffer"},
            ),
            (
                "connection.failed.authentication.delay.ms",
                I,
                100,
                "Time by which closing a connection is delayed after a failed authentication, once its answer "
                "is sent: slows down password guessing and lets the client read the answer before the close.",
                {"min": 0},
            ),
            (
                "connections.max.reauth.ms",
                L,
                0,
                "Positive: SASL sessions last at most this long and clients must re-authenticate (KIP-368); 0: no limit.",
                {"min": 0},
            ),
            (
                "sasl.mechanism.inter.broker.protocol",
                STR,
                "PLAIN",
                "SASL mechanism brokers use with each other when the inter-broker listener is SASL_PLAINTEXT "
                "or SASL_SSL; the user name and password are the username and password options of that "
                "listener's sasl.jaas.config for the mechanism.",
                {
                    "choices": ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"),
                    "kafka_default": "GSSAPI",
                    "why": "Kerberos (GSSAPI) is not implemented",
                },
            ),
            (
                "ssl.endpoint.identification.algorithm",
                STR,
                "https",
                "How a broker checks another broker's certificate on the inter-broker listener: https "
                "(the host name must match the certificate) or empty (the certificate chain only).",
                {"choices": ("https", "")},
            ),
            (
                "authorizer.class.name",
                STR,
                "",
                "Empty: no ACL checks. org.apache.kafka.metadata.authorizer.StandardAuthorizer: check ACLs.",
                {"choices": ("", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")},
            ),
            (
                "super.users",
                STR,
                None,
                "Principals allowed everything, separated by semicolons (User:admin;User:CN=ops,O=corp).",
                {},
            ),
            ("allow.everyone.if.no.acl.found", B, False, "Allow an operation on a resource no ACL names at all.", {}),
            (
                "delegation.token.secret.key",
                ConfigType.PASSWORD,
                None,
                "Secret key delegation tokens are signed with (HMAC-SHA512 of the token id); the same on every "
                "broker of a cluster. Unset or empty: delegation tokens are turned off.",
                {},
            ),
            (
                "delegation.token.max.lifetime.ms",
                L,
                604800000,
                "Longest life of a delegation token; it cannot be renewed past it.",
                {"min": 1},
            ),
            (
                "delegation.token.expiry.time.ms",
                L,
                86400000,
                "How long a delegation token stays valid after it is made or renewed, unless renewed again.",
                {"min": 1},
            ),
            (
                "delegation.token.expiry.check.interval.ms",
                L,
                3600000,
                "How often tokens past their expiry are removed.",
                {"min": 1},
            ),
            (
                "sasl.oauthbearer.jwks.endpoint.url",
                STR,
                None,
                "https, http or file URL of the JWKS that signs OAUTHBEARER tokens; unset: Kafka's unsecured JWS validator (development only).",
                {},
            ),
            (
                "sasl.oauthbearer.jwks.endpoint.refresh.ms",
                L,
                3600000,
                "How often the JWKS is fetched again.",
                {"min": 1},
            ),
            (
                "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
                L,
                100,
                "Least time between fetches when a token names an unknown key id.",
                {"min": 0},
            ),
            (
                "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
                L,
                10000,
                "Longest wait between failed JWKS fetches.",
                {"min": 0},
            ),
            (
                "sasl.oauthbearer.expected.audience",
                LST,
                None,
                "Audiences a token must name (aud); unset: not checked.",
                {},
            ),
            ("sasl.oauthbearer.expected.issuer", STR, None, "Issuer a token must name (iss); unset: not checked.", {}),
            ("sasl.oauthbearer.scope.claim.name", STR, "scope", "Claim holding a token's scopes.", {}),
            ("sasl.oauthbearer.sub.claim.name", STR, "sub", "Claim holding a token's principal name.", {}),
            (
                "sasl.oauthbearer.clock.skew.seconds",
                I,
                30,
                "Clock difference tolerated when checking exp and iat.",
                {"min": 0},
            ),
        )
    ),
)

del I, L, S, B, STR, LST, D, NET, NODE, LOG, TOPIC, GROUP, SHARE, INTERNAL, COMPAT, ONE_NODE, SEC, REPL, SINGLE_NODE_RF

SETTINGS_BY_KEY: dict[str, Setting] = {s.key: s for s in SETTINGS}
_BY_ENV: dict[str, Setting] = {s.env_var: s for s in SETTINGS}


def known_setting(key: str) -> str:
    """``key`` when the settings table has it; a KeyError naming it otherwise.

    Code that reads a setting with a fallback (for a service built without a config,
    as in unit tests) checks the key here first, so a misspelt key fails where it is
    read instead of quietly giving the fallback.
    """
    if key not in SETTINGS_BY_KEY and _prefixed_setting(key) is None:
        raise KeyError(f"{key!r} is not a setting of the settings table (broker.config.SETTINGS)")
    return key


_BY_ATTR: dict[str, Setting] = {s.attr: s for s in SETTINGS}

# Kafka's synonym chains: the first set value wins, as in DescribeConfigs' synonym list.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "log.retention.ms": ("log.retention.ms", "log.retention.minutes", "log.retention.hours"),
    "log.retention.minutes": ("log.retention.minutes", "log.retention.hours"),
    "log.roll.ms": ("log.roll.ms", "log.roll.hours"),
    "log.flush.interval.ms": ("log.flush.interval.ms", "log.flush.scheduler.interval.ms"),
}

# (smaller, larger, strict): rules between settings, as Kafka enforces them.
_ORDER_RULES: tuple[tuple[str, str, bool], ...] = (
    ("group.min.session.timeout.ms", "group.max.session.timeout.ms", False),
    ("group.consumer.min.heartbeat.interval.ms", "group.consumer.max.heartbeat.interval.ms", False),
    ("group.consumer.min.heartbeat.interval.ms", "group.consumer.heartbeat.interval.ms", False),
    ("group.consumer.heartbeat.interval.ms", "group.consumer.max.heartbeat.interval.ms", False),
    ("group.consumer.min.session.timeout.ms", "group.consumer.max.session.timeout.ms", False),
    ("group.consumer.min.session.timeout.ms", "group.consumer.session.timeout.ms", False),
    ("group.consumer.session.timeout.ms", "group.consumer.max.session.timeout.ms", False),
    ("group.consumer.heartbeat.interval.ms", "group.consumer.session.timeout.ms", True),
    ("group.streams.min.heartbeat.interval.ms", "group.streams.max.heartbeat.interval.ms", False),
    ("group.streams.min.heartbeat.interval.ms", "group.streams.heartbeat.interval.ms", False),
    ("group.streams.heartbeat.interval.ms", "group.streams.max.heartbeat.interval.ms", False),
    ("group.streams.min.session.timeout.ms", "group.streams.max.session.timeout.ms", False),
    ("group.streams.min.session.timeout.ms", "group.streams.session.timeout.ms", False),
    ("group.streams.session.timeout.ms", "group.streams.max.session.timeout.ms", False),
    ("group.streams.heartbeat.interval.ms", "group.streams.session.timeout.ms", True),
    ("group.streams.num.standby.replicas", "group.streams.max.standby.replicas", False),
    ("group.consumer.min.assignment.interval.ms", "group.consumer.max.assignment.interval.ms", False),
    ("group.share.min.heartbeat.interval.ms", "group.share.max.heartbeat.interval.ms", False),
    ("group.share.min.heartbeat.interval.ms", "group.share.heartbeat.interval.ms", False),
    ("group.share.heartbeat.interval.ms", "group.share.max.heartbeat.interval.ms", False),
    ("group.share.min.session.timeout.ms", "group.share.max.session.timeout.ms", False),
    ("group.share.min.session.timeout.ms", "group.share.session.timeout.ms", False),
    ("group.share.session.timeout.ms", "group.share.max.session.timeout.ms", False),
    ("group.share.heartbeat.interval.ms", "group.share.session.timeout.ms", True),
    ("group.share.min.record.lock.duration.ms", "group.share.record.lock.duration.ms", False),
    ("group.share.record.lock.duration.ms", "group.share.max.record.lock.duration.ms", False),
    ("group.share.min.delivery.count.limit", "group.share.delivery.count.limit", False),
    ("group.share.delivery.count.limit", "group.share.max.delivery.count.limit", False),
    ("group.share.min.partition.max.record.locks", "group.share.partition.max.record.locks", False),
    ("group.share.partition.max.record.locks", "group.share.max.partition.max.record.locks", False),
    ("group.share.min.assignment.interval.ms", "group.share.max.assignment.interval.ms", False),
    ("group.streams.min.assignment.interval.ms", "group.streams.max.assignment.interval.ms", False),
)


# Settings a single listener may override with the prefix ``listener.name.<listener>.``
# (Kafka's listener-prefixed configs), and those one mechanism of it may override with
# ``listener.name.<listener>.<mechanism lower case>.``.
LISTENER_KEYS = frozenset(
    s.key
    for s in SETTINGS
    if s.section == "Security"
    and s.key
    not in {
        "authorizer.class.name",
        "super.users",
        "allow.everyone.if.no.acl.found",
        "sasl.mechanism.inter.broker.protocol",
        "ssl.endpoint.identification.algorithm",
    }
    and not s.key.startswith("delegation.token.")
)
SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")
JAAS_KEY = "sasl.jaas.config"
MECHANISM_KEYS = frozenset({JAAS_KEY, "connections.max.reauth.ms"})
LISTENER_PREFIX = "listener.name."


def listener_key(listener: str, key: str, mechanism: str | None = None) -> str:
    """``listener.name.<listener>[.<mechanism>].<key>``, lower-cased as Kafka writes it."""
    middle = f"{mechanism.lower()}." if mechanism else ""
    return f"{LISTENER_PREFIX}{listener.lower()}.{middle}{key}"


def _split_listener_key(key: str) -> tuple[str, str | None, str] | None:
    """(listener, mechanism or None, base key) of a listener-prefixed key, else None."""
    if not key.startswith(LISTENER_PREFIX):
        return None
    rest = key[len(LISTENER_PREFIX) :]
    for base in sorted(LISTENER_KEYS | MECHANISM_KEYS, key=len, reverse=True):
        if not rest.endswith("." + base):
            continue
        head = rest[: -len(base) - 1]
        for mechanism in SASL_MECHANISMS:
            suffix = "." + mechanism.lower()
            if base in MECHANISM_KEYS and head.lower().endswith(suffix) and len(head) > len(suffix):
                return head[: -len(suffix)], mechanism, base
        if base in LISTENER_KEYS and head and re.fullmatch(r"[A-Za-z0-9_-]+", head):
            return head, None, base
    return None


def _prefixed_setting(key: str) -> Setting | None:
    parts = _split_listener_key(key)
    if parts is None:
        return None
    listener, mechanism, base = parts
    if base == JAAS_KEY:
        return Setting(
            key,
            ConfigType.PASSWORD,
            None,
            doc=f"JAAS login module entry of {mechanism} on listener {listener.upper()}.",
            section="Security",
            sensitive=True,
        )
    template = SETTINGS_BY_KEY[base]
    return Setting(
        key,
        template.type,
        None,
        doc=template.doc,
        section=template.section,
        min=template.min,
        max=template.max,
        choices=template.choices,
        sensitive=template.sensitive,
    )


def _listener_env(name: str) -> Setting | None:
    """The listener-prefixed setting an environment variable names (dots, dashes and
    underscores all read as ``_``), e.g. SHAREBROKER_LISTENER_NAME_SASL_SSL_SCRAM_SHA_512_SASL_JAAS_CONFIG."""
    head = ENV_PREFIX + "LISTENER_NAME_"
    if not name.startswith(head):
        return None
    rest = name[len(head) :]

    def env(text: str) -> str:
        return text.upper().replace(".", "_").replace("-", "_")

    for base in sorted(LISTENER_KEYS | MECHANISM_KEYS, key=len, reverse=True):
        tail = "_" + env(base)
        if not rest.endswith(tail):
            continue
        listener = rest[: -len(tail)]
        if base in MECHANISM_KEYS:
            for mechanism in SASL_MECHANISMS:
                mtail = "_" + env(mechanism)
                if listener.endswith(mtail) and len(listener) > len(mtail):
                    return _prefixed_setting(listener_key(listener[: -len(mtail)], base, mechanism))
        if base in LISTENER_KEYS and listener:
            return _prefixed_setting(listener_key(listener, base))
    return None


def _lookup(key: str, origin: Origin) -> Setting:
    setting = SETTINGS_BY_KEY.get(key) or _prefixed_setting(key)
    if setting is None:
        import difflib

        near = difflib.get_close_matches(key, SETTINGS_BY_KEY, n=1)
        hint = f"; did you mean {near[0]}?" if near else ""
        raise ConfigError(f"{key}: unknown setting{hint}{origin.suffix()}", key=key, source=origin.label)
    return setting


def _parse(setting: Setting, raw: str, origin: Origin) -> Any:
    try:
        return setting.parse(raw)
    except ValueError as e:
        raise ConfigError(f"{setting.key}: {e}{origin.suffix()}", key=setting.key, source=origin.label) from None


# --------------------------------------------------------------------------- properties files


def parse_properties(text: str) -> Iterator[tuple[str, str, int]]:
    """Yield (key, value, line number) from Java ``.properties`` text.

    Supports what ``java.util.Properties.load`` does: ``key=value``, ``key: value`` and
    ``key value``; ``#`` and ``!`` comment lines; a line ending in an odd number of
    backslashes continues on the next line (whose leading blanks are dropped); and the
    escapes ``\\t \\n \\r \\f \\uXXXX`` (any other escaped character stands for itself).
    The line number is where the entry starts.
    """
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        start = i
        line = lines[i].lstrip(" \t\f")
        i += 1
        if not line or line[0] in "#!":
            continue
        logical = ""
        while True:
            trailing = len(line) - len(line.rstrip("\\"))
            if trailing % 2 == 1:
                logical += line[:-1]
                if i >= len(lines):
                    break
                line = lines[i].lstrip(" \t\f")
                i += 1
            else:
                logical += line
                break
        key, value = _split_entry(logical)
        yield _unescape(key), _unescape(value), start + 1


def _split_entry(logical: str) -> tuple[str, str]:
    j, n = 0, len(logical)
    while j < n:
        c = logical[j]
        if c == "\\":
            j += 2
            continue
        if c in "=: \t\f":
            break
        j += 1
    key = logical[:j]
    k = j
    while k < n and logical[k] in " \t\f":
        k += 1
    if k < n and logical[k] in "=:":
        k += 1
        while k < n and logical[k] in " \t\f":
            k += 1
    return key, logical[k:]


_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def _unescape(s: str) -> str:
    if "\\" not in s:
        return s
    out: list[str] = []
    j, n = 0, len(s)
    while j < n:
        c = s[j]
        if c != "\\" or j + 1 >= n:
            out.append(c)
            j += 1
            continue
        nxt = s[j + 1]
        if nxt == "u" and re.fullmatch(r"[0-9A-Fa-f]{4}", s[j + 2 : j + 6]):
            out.append(chr(int(s[j + 2 : j + 6], 16)))
            j += 6
        else:
            out.append(_ESCAPES.get(nxt, nxt))
            j += 2
    return "".join(out)


# --------------------------------------------------------------------------- describe


@dataclass(frozen=True, slots=True)
class ConfigSynonym:
    name: str
    value: str | None
    source: ConfigSource


@dataclass(frozen=True, slots=True)
class ConfigEntry:
    """One row of a DescribeConfigs answer for the BROKER resource."""

    name: str
    value: str | None
    source: ConfigSource
    read_only: bool
    sensitive: bool
    type: ConfigType
    documentation: str | None
    synonyms: tuple[ConfigSynonym, ...] = ()


# --------------------------------------------------------------------------- the config

Layer = dict[str, tuple[Any, Origin]]


class BrokerConfig:
    """An immutable, validated set of broker settings.

    ``get(key)`` returns the typed value of any key (int, bool, str, float, tuple of str
    for lists, or None when unset). Common values are attributes: ``listeners`` and
    ``advertised_listeners`` (tuples of :class:`Listener`), ``node_id``, ``log_dirs``
    (tuple of Path), ``host`` and ``port`` of the listener. Any other key is reachable as
    an attribute with dots written as underscores (``cfg.group_share_max_size``).

    Dynamic changes return a new object (:meth:`with_dynamic`); swap it in atomically.
    """

    __slots__ = ("_bound_port", "_dyn_broker", "_dyn_default", "_origins", "_static", "_values")

    def __init__(
        self,
        static: Layer | None = None,
        *,
        dynamic_default: Layer | None = None,
        dynamic_broker: Layer | None = None,
        bound_port: int | Mapping[str, int] | None = None,
    ) -> None:
        self._static: Layer = dict(static or {})
        self._dyn_default: Layer = dict(dynamic_default or {})
        self._dyn_broker: Layer = dict(dynamic_broker or {})
        self._bound_port = bound_port
        values: dict[str, Any] = {}
        origins: dict[str, Origin] = {}
        for s in SETTINGS:
            for layer in (self._dyn_broker, self._dyn_default, self._static):
                if s.key in layer:
                    values[s.key], origins[s.key] = layer[s.key]
                    break
            else:
                values[s.key], origins[s.key] = s.default, DEFAULT_ORIGIN
        for layer in (self._static, self._dyn_default, self._dyn_broker):
            for key, (value, origin) in layer.items():
                if key not in SETTINGS_BY_KEY:  # listener-prefixed (listener.name.<l>.<key>)
                    values[key], origins[key] = value, origin
        self._values = values
        self._origins = origins
        self._resolve_aliases()
        self._check_rules()

    # ---- validation across settings

    def _resolve_aliases(self) -> None:
        node, broker = self._values["node.id"], self._values["broker.id"]
        if broker is None:
            self._values["broker.id"] = node
            return
        if self._origins["node.id"].kind == "default":
            self._values["node.id"] = broker
            self._origins["node.id"] = self._origins["broker.id"]
        elif node != broker:
            raise ConfigError(
                f"node.id: {node}{self._origins['node.id'].suffix()} differs from broker.id "
                f"{broker}{self._origins['broker.id'].suffix()}; they must be equal",
                key="node.id",
                source=self._origins["node.id"].label,
            )

    def _check_rules(self) -> None:
        v, o = self._values, self._origins
        for small, large, strict in _ORDER_RULES:
            a, b = v[small], v[large]
            if (a >= b) if strict else (a > b):
                # Blame whichever of the two was set most explicitly.
                blame, other = (large, small) if _rank(o[large]) > _rank(o[small]) else (small, large)
                rel = (
                    ("less than" if strict else "at most")
                    if blame == small
                    else ("greater than" if strict else "at least")
                )
                raise ConfigError(
                    f"{blame}: {v[blame]} must be {rel} {other} ({v[other]}){o[blame].suffix()}",
                    key=blame,
                    source=o[blame].label,
                )
        queued = v["queued.max.request.bytes"]
        if queued != -1 and queued < v["socket.request.max.bytes"]:
            raise ConfigError(
                f"queued.max.request.bytes: {queued} must be -1 or at least socket.request.max.bytes "
                f"({v['socket.request.max.bytes']}){o['queued.max.request.bytes'].suffix()}",
                key="queued.max.request.bytes",
                source=o["queued.max.request.bytes"].label,
            )
        protocols = parse_protocol_map(v["listener.security.protocol.map"])
        for entry in v["listeners"]:
            name = parse_listener(entry).name
            protocol = protocols.get(name, name if name in SECURITY_PROTOCOLS else None)
            if protocol is None:
                raise ConfigError(
                    f"listeners: {entry!r}: listener name {name} has no security protocol in "
                    f"listener.security.protocol.map{o['listeners'].suffix()}",
                    key="listeners",
                    source=o["listeners"].label,
                )
        inter = v["inter.broker.listener.name"]
        if inter is not None and inter.upper() not in {parse_listener(x).name for x in v["listeners"]}:
            raise ConfigError(
                f"inter.broker.listener.name: {inter} is not a listener name in listeners"
                f"{o['inter.broker.listener.name'].suffix()}",
                key="inter.broker.listener.name",
                source=o["inter.broker.listener.name"].label,
            )
        advertised = v["advertised.listeners"]
        if advertised is not None:
            names = {parse_listener(x).name for x in v["listeners"]}
            for entry in advertised:
                if parse_listener(entry).name not in names:
                    raise ConfigError(
                        f"advertised.listeners: {entry!r} names a listener not in listeners"
                        f"{o['advertised.listeners'].suffix()}",
                        key="advertised.listeners",
                        source=o["advertised.listeners"].label,
                    )

    # ---- access

    def get(self, key: str) -> Any:
        """Typed value of ``key``; KeyError for a key not in the table."""
        return self._values[key]

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def origin(self, key: str) -> Origin:
        """Where the value of ``key`` came from."""
        return self._origins[key]

    def as_dict(self) -> dict[str, Any]:
        return dict(self._values)

    def __getattr__(self, name: str) -> Any:
        setting = _BY_ATTR.get(name)
        if setting is None:
            raise AttributeError(f"{type(self).__name__!s} has no attribute or setting {name!r}")
        return self._values[setting.key]

    def __repr__(self) -> str:
        changed = {k: v for k, v in self._values.items() if self._origins[k].kind != "default"}
        return f"BrokerConfig({changed!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BrokerConfig) and self._values == other._values

    __hash__ = None  # type: ignore[assignment]

    # ---- common values

    @property
    def listeners(self) -> tuple[Listener, ...]:
        """Parsed listeners; a port of 0 is replaced by the bound port once known."""
        out = []
        bound = self._bound_port
        for i, text in enumerate(self._values["listeners"]):
            lst = parse_listener(text)
            if lst.port == 0 and bound is not None:
                port = bound.get(lst.name) if isinstance(bound, Mapping) else (bound if i == 0 else None)
                if port is not None:
                    lst = Listener(lst.name, lst.host, port)
            out.append(lst)
        return tuple(out)

    @property
    def listener(self) -> Listener:
        """The first listener (the one a single-listener broker has)."""
        return self.listeners[0]

    def security_protocol(self, listener_name: str) -> str:
        """The security protocol of a listener name (listener.security.protocol.map)."""
        protocols = parse_protocol_map(self._values["listener.security.protocol.map"])
        return protocols.get(listener_name.upper(), listener_name.upper())

    def listener_setting(self, listener_name: str, key: str, mechanism: str | None = None) -> Any:
        """A security setting as one listener sees it: ``listener.name.<l>.<mechanism>.<key>``
        (for a mechanism), then ``listener.name.<l>.<key>``, then ``key`` itself. The JAAS
        entry has no unprefixed form (None when the listener does not set it)."""
        if mechanism is not None:
            value = self._values.get(listener_key(listener_name, key, mechanism))
            if value is not None or key == JAAS_KEY:
                return value
        value = self._values.get(listener_key(listener_name, key))
        if value is not None:
            return value
        return self._values.get(key)

    def for_listener(self, listener_name: str) -> Mapping[str, Any]:
        """The settings as ``listener_name`` sees them (listener-prefixed values first)."""
        return _ListenerView(self, listener_name)

    @property
    def inter_broker_listener_name(self) -> str:
        """The listener other brokers reach this one on (inter.broker.listener.name, else the first)."""
        name = self._values["inter.broker.listener.name"]
        return name.upper() if name else self.listener.name

    @property
    def host(self) -> str | None:
        """Host to bind: None means every interface (trio's convention)."""
        return self.listener.bind_host

    @property
    def port(self) -> int:
        """Port to bind; 0 asks the OS for a free one (see :meth:`with_bound_port`)."""
        return self.listener.port

    @property
    def advertised_listeners(self) -> tuple[Listener, ...]:
        """What clients are told, one per listener, in the order of ``listeners``. A listener
        not in ``advertised.listeners`` is advertised as it is bound: a wildcard host becomes
        this machine's host name, and port 0 the bound port once known."""
        explicit = self._values["advertised.listeners"]
        given = {} if explicit is None else {a.name: a for a in (parse_listener(x) for x in explicit)}
        out = []
        for lst in self.listeners:
            if lst.name in given:
                out.append(given[lst.name])
                continue
            host = lst.host
            if lst.is_wildcard:
                import socket

                host = socket.gethostname()
            out.append(Listener(lst.name, host, lst.port))
        return tuple(out)

    @property
    def advertised_host(self) -> str:
        return self.advertised_listeners[0].host

    @property
    def advertised_port(self) -> int:
        return self.advertised_listeners[0].port

    @property
    def node_id(self) -> int:
        return int(self._values["node.id"])

    @property
    def log_dirs(self) -> tuple[Path, ...]:
        """Data directories (log.dirs, else log.dir); the first holds the broker's own files."""
        dirs = self._values["log.dirs"]
        if dirs is None:
            dirs = self._values["log.dir"]
        return tuple(Path(d) for d in dirs)

    @property
    def log_dir(self) -> Path:
        return self.log_dirs[0]

    @property
    def retention_ms(self) -> int:
        """Effective time retention in ms (ms, else minutes, else hours); -1 = unlimited."""
        v = self._values
        if v["log.retention.ms"] is not None:
            ms = v["log.retention.ms"]
        elif v["log.retention.minutes"] is not None:
            ms = v["log.retention.minutes"] * 60_000
        else:
            ms = v["log.retention.hours"] * 3_600_000
        return -1 if ms < 0 else ms

    @property
    def roll_ms(self) -> int:
        """Effective segment age limit in ms (log.roll.ms, else log.roll.hours)."""
        v = self._values
        return v["log.roll.ms"] if v["log.roll.ms"] is not None else v["log.roll.hours"] * 3_600_000

    @property
    def flush_interval_ms(self) -> int:
        """Effective time-based flush interval (log.flush.interval.ms, else the scheduler's)."""
        v = self._values
        flush = v["log.flush.interval.ms"]
        return flush if flush is not None else v["log.flush.scheduler.interval.ms"]

    # ---- new configs from this one

    def _replace(
        self,
        *,
        dynamic_default: Layer | None = None,
        dynamic_broker: Layer | None = None,
        bound_port: int | Mapping[str, int] | None = None,
    ) -> BrokerConfig:
        """This config with the parts given replaced (None: this one's)."""
        return BrokerConfig(
            self._static,
            dynamic_default=self._dyn_default if dynamic_default is None else dynamic_default,
            dynamic_broker=self._dyn_broker if dynamic_broker is None else dynamic_broker,
            bound_port=self._bound_port if bound_port is None else bound_port,
        )

    def with_bound_port(self, port: int | Mapping[str, int]) -> BrokerConfig:
        """The same config after the listeners were bound (resolves port 0): ``port``
        for the first listener, or {listener name: port}."""
        return self._replace(bound_port=dict(port) if isinstance(port, Mapping) else port)

    def with_dynamic(
        self,
        changes: Mapping[str, str | None],
        *,
        cluster_default: bool = False,
        replace: bool = False,
    ) -> BrokerConfig:
        """Apply dynamic changes (text values; None removes the override).

        ``cluster_default`` targets the BROKER resource with an empty name (all brokers'
        default) rather than this node. ``replace`` drops every existing override of that
        layer first, as the legacy AlterConfigs does. Raises ConfigError naming the key.
        """
        origin = Origin("dynamic-default" if cluster_default else "dynamic", DYNAMIC_LABEL)
        layer = {} if replace else dict(self._dyn_default if cluster_default else self._dyn_broker)
        for key, raw in changes.items():
            setting = _lookup(key, origin)
            if not setting.dynamic:
                raise ConfigError(
                    f"{key}: cannot be changed while the broker runs; set it in the properties "
                    f"file, environment or --set and restart{origin.suffix()}",
                    key=key,
                    source=origin.label,
                )
            if raw is None:
                layer.pop(key, None)
            else:
                layer[key] = (_parse(setting, raw, origin), origin)
        if cluster_default:
            return self._replace(dynamic_default=layer)
        return self._replace(dynamic_broker=layer)

    # ---- DescribeConfigs

    def describe(
        self,
        keys: Iterable[str] | None = None,
        *,
        include_synonyms: bool = False,
        include_documentation: bool = True,
    ) -> list[ConfigEntry]:
        """DescribeConfigs rows for the BROKER resource; unknown keys are skipped."""
        wanted = list(SETTINGS) if keys is None else [SETTINGS_BY_KEY[k] for k in keys if k in SETTINGS_BY_KEY]
        rows = []
        for s in wanted:
            chain = self._synonyms(s.key)
            source = chain[0].source if chain else ConfigSource.DEFAULT_CONFIG
            rows.append(
                ConfigEntry(
                    name=s.key,
                    value=None if s.sensitive else s.render(self._values[s.key]),
                    source=source,
                    read_only=not s.dynamic,
                    sensitive=s.sensitive,
                    type=s.type,
                    documentation=s.doc if include_documentation else None,
                    synonyms=tuple(chain) if include_synonyms else (),
                )
            )
        return rows

    def _synonyms(self, key: str) -> list[ConfigSynonym]:
        out: list[ConfigSynonym] = []
        for name in SYNONYMS.get(key, (key,)):
            s = SETTINGS_BY_KEY[name]
            for layer in (self._dyn_broker, self._dyn_default, self._static):
                if name in layer:
                    value, origin = layer[name]
                    out.append(ConfigSynonym(name, None if s.sensitive else s.render(value), origin.source))
            if s.default is not None:
                out.append(ConfigSynonym(name, s.render(s.default), ConfigSource.DEFAULT_CONFIG))
        if key == "node.id" and self._origins["node.id"].kind != "default" and "node.id" not in self._static:
            # node.id taken from broker.id: report it as set statically.
            out.insert(0, ConfigSynonym("node.id", str(self._values["node.id"]), self._origins["node.id"].source))
        return out


class _ListenerView(Mapping[str, Any]):
    __slots__ = ("_config", "_listener")

    def __init__(self, config: BrokerConfig, listener: str) -> None:
        self._config, self._listener = config, listener

    def __getitem__(self, key: str) -> Any:
        if key not in self._config:
            raise KeyError(key)
        return self._config.listener_setting(self._listener, key)

    def __iter__(self) -> Iterator[str]:
        return iter(SETTINGS_BY_KEY)

    def __len__(self) -> int:
        return len(SETTINGS_BY_KEY)


def _rank(origin: Origin) -> int:
    return {"default": 0, "file": 1, "env": 2, "set": 3, "dynamic-default": 4, "dynamic": 5}[origin.kind]


class LiveConfig:
    """The broker's current settings: a :class:`BrokerConfig` that dynamic changes replace.

    Services hold this, not a BrokerConfig, so they always read the values in force
    (``get``); ``update`` swaps in a new config and tells the subscribers.
    """

    __slots__ = ("_current", "_listeners")

    def __init__(self, config: BrokerConfig) -> None:
        self._current = config
        self._listeners: list[Callable[[BrokerConfig], None]] = []

    @property
    def current(self) -> BrokerConfig:
        return self._current

    def get(self, key: str) -> Any:
        return self._current.get(key)

    def update(self, config: BrokerConfig) -> None:
        self._current = config
        for listener in list(self._listeners):
            listener(config)

    def subscribe(self, listener: Callable[[BrokerConfig], None]) -> None:
        self._listeners.append(listener)


# --------------------------------------------------------------------------- loading


def load_config(
    properties_file: Path | str | None = None,
    overrides: Iterable[str] = (),
    environ: Mapping[str, str] = os.environ,
) -> BrokerConfig:
    """Build the startup config: defaults < properties file < SHAREBROKER_* env < --set.

    ``overrides`` are ``key=value`` strings as given to ``--set``. Raises ConfigError
    with a one-line message naming the key and the source of the bad value.
    """
    static: Layer = {}
    if properties_file is not None:
        path = Path(properties_file)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise ConfigError(f"cannot read config file {path}: {e.strerror or e}", source=str(path)) from None
        except UnicodeDecodeError as e:
            raise ConfigError(f"cannot read config file {path}: not UTF-8 ({e.reason})", source=str(path)) from None
        for key, raw, lineno in parse_properties(text):
            origin = Origin("file", f"{path}:{lineno}")
            setting = _lookup(key, origin)
            static[key] = (_parse(setting, raw, origin), origin)

    for name in sorted(environ):
        if not name.startswith(ENV_PREFIX) or name in CLI_ENV_VARS:
            continue
        origin = Origin("env", f"env {name}")
        env_setting = _BY_ENV.get(name) or _listener_env(name)
        if env_setting is None:
            raise ConfigError(
                f"{name}: no setting is named by this environment variable{origin.suffix()}",
                key=name,
                source=origin.label,
            )
        static[env_setting.key] = (_parse(env_setting, environ[name], origin), origin)

    for item in overrides:
        origin = Origin("set", "--set")
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"--set {item!r}: expected key=value", source="--set")
        setting = _lookup(key, origin)
        static[key] = (_parse(setting, raw, origin), origin)

    return BrokerConfig(static)


# --------------------------------------------------------------------------- docs


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(*, summary: bool = False) -> str:
    """The settings table as Markdown (docs/CONFIG.md; ``summary`` for the README)."""
    if summary:
        out = [
            "| Key | Default | Description |",
            "|---|---|---|",
        ]
        for s in SETTINGS:
            if s.summary:
                default = s.render(s.default)
                shown = f"`{default}`" if default is not None else "(unset)"
                out.append(f"| `{s.key}` | {_md(shown)} | {_md(s.doc)} |")
        return "\n".join(out) + "\n"

    out = [
        "# Broker configuration",
        "",
        "<!-- Generated by `sharebroker config-docs > docs/CONFIG.md`; do not edit by hand."
        " The table lives in broker/config.py. -->",
        "",
        "Keys, types and meanings follow Apache Kafka 4.2, so an existing `server.properties`",
        "can be reused; settings Kafka has and this broker does not are rejected as unknown.",
        "Where a default or bound differs from Kafka's, the row says so and why.",
        "",
        "## Where values come from",
        "",
        "Later sources win:",
        "",
        "1. the built-in default (below);",
        "2. the properties file given with `sharebroker serve --config FILE` (Java `.properties`",
        "   syntax: `key=value`, `key: value` or `key value`; `#` and `!` start comment lines;",
        "   a trailing `\\` continues a line; read as UTF-8);",
        f"3. environment variables named `{ENV_PREFIX}` + the key in upper case with dots as",
        f"   underscores, e.g. `{env_var_for('log.dirs')}=/var/lib/sharebroker` sets `log.dirs`",
        f"   (`{ENV_PREFIX}LOG_FORMAT` and `{ENV_PREFIX}LOG_LEVEL` are the defaults of the",
        "   `--log-format` and `--log-level` options instead);",
        "4. `--set key=value` on the command line (repeatable).",
        "",
        "An unknown key or an unusable value stops the broker with one line naming the key and",
        "its source, for example `log.segment.bytes: 'abc' is not an integer (from --set)`.",
        "",
        "Settings marked *dynamic* can also be changed at run time with",
        "IncrementalAlterConfigs on the BROKER resource (for this node, or with an empty",
        "name for the cluster-wide default); DescribeConfigs reports every key with its source.",
        "",
        "`log.retention.ms` falls back to `log.retention.minutes`, then `log.retention.hours`;",
        "`log.roll.ms` to `log.roll.hours`; `log.flush.interval.ms` to",
        "`log.flush.scheduler.interval.ms`; `log.dirs` to `log.dir`; `node.id` to `broker.id`.",
    ]
    section = None
    for s in SETTINGS:
        if s.section != section:
            section = s.section
            out += [
                "",
                f"## {section}",
                "",
                "| Key | Type | Default | Valid values | Dynamic | Description |",
                "|---|---|---|---|---|---|",
            ]
        default = s.render(s.default)
        shown = f"`{default}`" if default is not None else "(unset)"
        desc = s.doc
        if s.kafka_default is not None:
            desc += f" Kafka's default: `{s.kafka_default}`."
        if s.why:
            desc += f" Why: {s.why}."
        valid = s.valid_values() or "any"
        out.append(
            f"| `{s.key}` | {s.type.name.lower()} | {_md(shown)} | {_md(valid)} | "
            f"{'yes' if s.dynamic else 'no'} | {_md(desc)} |"
        )
    return "\n".join(out) + "\n"
