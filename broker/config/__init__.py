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

The package: :mod:`~broker.config.table` (the table, one module per section),
:mod:`~broker.config.model` (:class:`Setting` and the value types),
:mod:`~broker.config.checks` (per-value rules), :mod:`~broker.config.parser` (keys, values,
``.properties`` text), :mod:`~broker.config.layers` (the layered, validated config and the
live one services follow), :mod:`~broker.config.docs` (docs/CONFIG.md) and
:mod:`~broker.config.services` (the typed settings objects services receive).

It must stay cheap to import (the CLI imports it before the broker starts listening), so
it uses only the standard library and nothing heavier than ``re``.
"""

from __future__ import annotations

from broker.config.checks import (
    DEFAULT_PROTOCOL_MAP,
    SECURITY_PROTOCOLS,
    SERVED_PROTOCOLS,
    Listener,
    parse_ip_overrides,
    parse_listener,
    parse_protocol_map,
)
from broker.config.docs import render_markdown
from broker.config.layers import BrokerConfig, ConfigEntry, ConfigSynonym, LiveConfig, load_config
from broker.config.model import (
    CLI_ENV_VARS,
    ENV_PREFIX,
    ConfigError,
    ConfigList,
    ConfigSource,
    ConfigType,
    Origin,
    Setting,
    env_var_for,
)
from broker.config.parser import (
    JAAS_KEY,
    LISTENER_KEYS,
    LISTENER_PREFIX,
    SASL_MECHANISMS,
    known_setting,
    listener_key,
    parse_properties,
)
from broker.config.table import SETTINGS, SETTINGS_BY_KEY, SYNONYMS

__all__ = [
    "CLI_ENV_VARS",
    "DEFAULT_PROTOCOL_MAP",
    "ENV_PREFIX",
    "JAAS_KEY",
    "LISTENER_KEYS",
    "LISTENER_PREFIX",
    "SASL_MECHANISMS",
    "SECURITY_PROTOCOLS",
    "SERVED_PROTOCOLS",
    "SETTINGS",
    "SETTINGS_BY_KEY",
    "SYNONYMS",
    "BrokerConfig",
    "ConfigEntry",
    "ConfigError",
    "ConfigList",
    "ConfigSource",
    "ConfigSynonym",
    "ConfigType",
    "Listener",
    "LiveConfig",
    "Origin",
    "Setting",
    "env_var_for",
    "known_setting",
    "listener_key",
    "load_config",
    "parse_ip_overrides",
    "parse_listener",
    "parse_properties",
    "parse_protocol_map",
    "render_markdown",
]
