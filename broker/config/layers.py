"""The running config: defaults, file, environment and ``--set`` layered with the dynamic
changes, validated across settings; DescribeConfigs rows; the live config services follow."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from broker.config.checks import SECURITY_PROTOCOLS, Listener, parse_listener, parse_protocol_map
from broker.config.model import (
    CLI_ENV_VARS,
    DEFAULT_ORIGIN,
    DYNAMIC_LABEL,
    ENV_PREFIX,
    ConfigError,
    ConfigSource,
    ConfigType,
    Origin,
)
from broker.config.parser import JAAS_KEY, listener_env, listener_key, lookup, parse_properties, parse_value
from broker.config.services import Settings
from broker.config.table import ORDER_RULES, SETTINGS, SETTINGS_BY_ATTR, SETTINGS_BY_ENV, SETTINGS_BY_KEY, SYNONYMS

S = TypeVar("S", bound=Settings)


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
        for small, large, strict in ORDER_RULES:
            a, b = v[small], v[large]
            if (a >= b) if strict else (a > b):
                # Blame whichever of the two was set most explicitly.
                blame, other = (large, small) if _rank(o[large]) > _rank(o[small]) else (small, large)
                rel = (
                    ("less than" if strict else "at most")
                    if blame == small
                    else ("greater than" if strict else "at least")
                )
                raise o[blame].error(blame, f"{v[blame]} must be {rel} {other} ({v[other]})")
        queued = v["queued.max.request.bytes"]
        if queued != -1 and queued < v["socket.request.max.bytes"]:
            raise o["queued.max.request.bytes"].error(
                "queued.max.request.bytes",
                f"{queued} must be -1 or at least socket.request.max.bytes ({v['socket.request.max.bytes']})",
            )
        protocols = parse_protocol_map(v["listener.security.protocol.map"])
        for entry in v["listeners"]:
            name = parse_listener(entry).name
            protocol = protocols.get(name, name if name in SECURITY_PROTOCOLS else None)
            if protocol is None:
                raise o["listeners"].error(
                    "listeners",
                    f"{entry!r}: listener name {name} has no security protocol in listener.security.protocol.map",
                )
        inter = v["inter.broker.listener.name"]
        if inter is not None and inter.upper() not in {parse_listener(x).name for x in v["listeners"]}:
            raise o["inter.broker.listener.name"].error(
                "inter.broker.listener.name", f"{inter} is not a listener name in listeners"
            )
        advertised = v["advertised.listeners"]
        if advertised is not None:
            names = {parse_listener(x).name for x in v["listeners"]}
            for entry in advertised:
                if parse_listener(entry).name not in names:
                    raise o["advertised.listeners"].error(
                        "advertised.listeners", f"{entry!r} names a listener not in listeners"
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
        setting = SETTINGS_BY_ATTR.get(name)
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
            setting = lookup(key, origin)
            if not setting.dynamic:
                raise origin.error(
                    key,
                    "cannot be changed while the broker runs; set it in the properties "
                    "file, environment or --set and restart",
                )
            if raw is None:
                layer.pop(key, None)
            else:
                layer[key] = (parse_value(setting, raw, origin), origin)
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

    Services hold a typed view of this (``view(SomeSettings)``), not a BrokerConfig, so
    they always read the values in force; ``update`` swaps in a new config, drops the
    typed objects built from the old one and tells the subscribers. ``overlay`` answers
    some keys from elsewhere (``FeatureStore.overlay``: the finalized feature levels for
    ``share.version`` and ``transaction.version``); ``refresh`` drops the typed objects when those change.
    """

    __slots__ = ("_current", "_get", "_listeners", "_typed")

    def __init__(self, config: BrokerConfig) -> None:
        self._current = config
        self._listeners: list[Callable[[BrokerConfig], None]] = []
        self._get: Callable[[str], Any] = self._configured
        self._typed: dict[type[Any], Any] = {}

    @property
    def current(self) -> BrokerConfig:
        return self._current

    def get(self, key: str) -> Any:
        """The value in force of ``key`` (KeyError for a key not in the table)."""
        return self._get(key)

    def _configured(self, key: str) -> Any:
        return self._current.get(key)

    def settings(self, cls: type[S]) -> S:
        """The typed settings ``cls`` as in force now (built once per change)."""
        built = self._typed.get(cls)
        if built is None:
            built = self._typed[cls] = cls.of(self)
        return cast("S", built)

    def view(self, cls: type[S]) -> Callable[[], S]:
        """A callable answering ``settings(cls)``: what a service with dynamic keys holds."""
        return lambda: self.settings(cls)

    def set_overlay(self, overlay: Callable[[Callable[[str], Any]], Callable[[str], Any]]) -> None:
        """Answer keys through ``overlay(the configured values)`` from now on."""
        self._get = overlay(self._configured)
        self.refresh()

    def refresh(self) -> None:
        """Something an overlay answers from changed: rebuild the typed settings."""
        self._typed.clear()

    def update(self, config: BrokerConfig) -> None:
        self._current = config
        self._typed.clear()
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
            setting = lookup(key, origin)
            static[key] = (parse_value(setting, raw, origin), origin)

    for name in sorted(environ):
        if not name.startswith(ENV_PREFIX) or name in CLI_ENV_VARS:
            continue
        origin = Origin("env", f"env {name}")
        env_setting = SETTINGS_BY_ENV.get(name) or listener_env(name)
        if env_setting is None:
            raise origin.error(name, "no setting is named by this environment variable")
        static[env_setting.key] = (parse_value(env_setting, environ[name], origin), origin)

    for item in overrides:
        origin = Origin("set", "--set")
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"--set {item!r}: expected key=value", source="--set")
        setting = lookup(key, origin)
        static[key] = (parse_value(setting, raw, origin), origin)

    return BrokerConfig(static)
