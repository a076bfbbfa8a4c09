"""Client metrics subscriptions (KIP-714): the CLIENT_METRICS config resource.

A subscription is a named set of three configs, as in Kafka's
``ClientMetricsConfigs``:

* ``metrics``: metric name prefixes the matching clients push (``*`` for all;
  empty: none);
* ``interval.ms``: how often they push, 100 ms to one hour (default 5 minutes);
* ``match``: ``selector=regex`` pairs a client must all match (full match) on
  ``client_instance_id``, ``client_id``, ``client_software_name``,
  ``client_software_version``, ``client_source_address`` or
  ``client_source_port``; empty matches every client.

``kafka-client-metrics.sh --alter`` writes them with IncrementalAlterConfigs,
``--list`` finds them with ListConfigResources, ``--describe`` reads them with
DescribeConfigs. A subscription with no config left is gone. They are durable:
``client-metrics.json`` in the first log directory, or etcd
(``security/client_metrics/<name>``) in a cluster, followed by every broker.
:meth:`ClientMetricsStore.subscription_for` combines the subscriptions that match a
client into what GetTelemetrySubscriptions answers.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from broker.metadata.documents import FollowingStore, SharedDocuments, write_document
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["CONFIG_KEYS", "ClientMetricsStore", "ClientSubscription", "validate_configs"]

log = structlog.get_logger("sharebroker.client_metrics")

FILE_NAME = "client-metrics.json"
FILE_VERSION = 1
SECTION = "client_metrics"

METRICS, INTERVAL_MS, MATCH = "metrics", "interval.ms", "match"
CONFIG_KEYS = (METRICS, INTERVAL_MS, MATCH)
# Kafka's bounds and default for interval.ms (ClientMetricsConfigs).
MIN_INTERVAL_MS, MAX_INTERVAL_MS, DEFAULT_INTERVAL_MS = 100, 3_600_000, 300_000
MATCH_SELECTORS = frozenset(
    {
        "client_instance_id",
        "client_id",
        "client_software_name",
        "client_software_version",
        "client_source_address",
        "client_source_port",
    }
)
ALL_METRICS = "*"


def _items(value: str | None) -> list[str]:
    return [item.strip() for item in (value or "").split(",") if item.strip()]


def _patterns(match: str | None) -> dict[str, re.Pattern[str]]:
    out: dict[str, re.Pattern[str]] = {}
    for item in _items(match):
        key, sep, pattern = item.partition("=")
        key, pattern = key.strip(), pattern.strip()
        if not sep or not key or not pattern:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Illegal client matching pattern: {item}")
        if key not in MATCH_SELECTORS:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Invalid client matching pattern name: {key}")
        try:
            out[key] = re.compile(pattern)
        except re.error as exc:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Illegal regex pattern {pattern}: {exc}") from exc
    return out


def validate_configs(name: str, configs: Mapping[str, str]) -> None:
    """Kafka's checks of a subscription (raises KafkaError)."""
    if not name:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Subscription name can't be empty")
    for key in configs:
        if key not in CONFIG_KEYS:
            raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown client metrics configuration: {key}")
    if INTERVAL_MS in configs:
        try:
            interval = int(configs[INTERVAL_MS])
        except ValueError:
            raise KafkaError(
                ErrorCode.INVALID_CONFIG,
                f"Invalid value {configs[INTERVAL_MS]} for configuration {INTERVAL_MS}: Not a number of type INT",
            ) from None
        if not MIN_INTERVAL_MS <= interval <= MAX_INTERVAL_MS:
            raise KafkaError(
                ErrorCode.INVALID_REQUEST,
                f"Invalid value {interval} for {INTERVAL_MS}, interval must be between 100 and 3600000 (1 hour)",
            )
    _patterns(configs.get(MATCH))


@dataclass(frozen=True, slots=True)
class ClientSubscription:
    """What GetTelemetrySubscriptions tells one client: the id changes with the content."""

    subscription_id: int
    metrics: tuple[str, ...]
    interval_ms: int


class ClientMetricsStore(FollowingStore):
    """The subscriptions, durable on this node or in the cluster's etcd."""

    def __init__(self, data_dir: Path, *, shared: SharedDocuments | None = None) -> None:
        super().__init__(data_dir, FILE_NAME, shared)
        self._subs: dict[str, dict[str, str]] = {}
        self._compiled: dict[str, dict[str, re.Pattern[str]]] = {}
        # Bumped at every change; part of every subscription id, so clients refetch.
        self.version = 0
        self.listeners: list[Callable[[], None]] = []

    def names(self) -> list[str]:
        return sorted(self._subs)

    def configs(self, name: str) -> dict[str, str]:
        return dict(self._subs.get(name, {}))

    def _loaded(self, doc: Any) -> None:
        self._set({str(k): dict(v) for k, v in doc.get("subscriptions", {}).items()})

    def follow(self) -> None:
        if self._shared is None:
            return
        subs = {name: dict(json.loads(value)) for name, value in self._shared.documents(SECTION).items()}
        if subs != self._subs:
            self._set(subs)

    def _set(self, subs: dict[str, dict[str, str]]) -> None:
        self._subs = subs
        self._compiled = {name: _patterns(c.get(MATCH)) for name, c in subs.items()}
        self.version += 1
        for listener in self.listeners:
            listener()

    async def alter(self, name: str, set_: Mapping[str, str], delete: Iterable[str], validate_only: bool) -> None:
        """Set and remove keys of subscription ``name`` (all or nothing; raises KafkaError)."""
        configs = self.configs(name)
        for key in delete:
            if key not in CONFIG_KEYS:
                raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown client metrics configuration: {key}")
            configs.pop(key, None)
        configs.update(set_)
        validate_configs(name, configs)
        if validate_only or configs == self._subs.get(name, {}):
            return
        subs = dict(self._subs)
        if configs:
            subs[name] = configs
        else:
            subs.pop(name, None)
        if self._shared is not None:
            puts = {name: json.dumps(configs, sort_keys=True).encode()} if configs else {}
            await self._shared.write_documents(SECTION, puts, () if configs else (name,))
            self.follow()
            return
        doc = {"version": FILE_VERSION, "subscriptions": dict(sorted(subs.items()))}
        write_document(self._path, json.dumps(doc, indent=1).encode())
        self._set(subs)
        log.info("client_metrics_subscription_altered", name=name, configs=configs)

    def subscription_for(self, client: Mapping[str, str]) -> ClientSubscription:
        """The subscriptions matching ``client`` (selector -> value) combined: every metric
        prefix they name, pushed at the shortest of their intervals."""
        metrics: dict[str, None] = {}
        interval = None
        for name in sorted(self._subs):
            patterns = self._compiled.get(name, {})
            if not all(p.fullmatch(client.get(key, "")) for key, p in patterns.items()):
                continue
            configs = self._subs[name]
            metrics.update(dict.fromkeys(_items(configs.get(METRICS))))
            value = int(configs.get(INTERVAL_MS, DEFAULT_INTERVAL_MS))
            interval = value if interval is None else min(interval, value)
        if ALL_METRICS in metrics:
            # Every metric: the empty prefix, as KIP-714 asks brokers to send it.
            metrics = {"": None}
        chosen = tuple(metrics)
        interval_ms = DEFAULT_INTERVAL_MS if interval is None else interval
        key = f"{self.version}|{interval_ms}|{','.join(chosen)}".encode()
        # A 31-bit id (Kafka's is a CRC32 of the same content) that changes with the content.
        return ClientSubscription(zlib.crc32(key) & 0x7FFFFFFF, chosen, interval_ms)
