"""The shapes of the settings table: value types, sources, origins and :class:`Setting`."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

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

    def error(self, key: str, message: str) -> ConfigError:
        """The ConfigError for ``key``'s value from here: ``key: message (from ...)``."""
        return ConfigError(f"{key}: {message}{self.suffix()}", key=key, source=self.label)


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
