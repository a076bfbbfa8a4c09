"""Finalized features (KIP-584): what ApiVersions reports and UpdateFeatures changes.

Each feature has a range of levels this broker supports and a finalized level
the whole cluster runs at. A new cluster finalizes what a fresh Kafka 4.4 cluster
does (``share.version`` and ``transaction.version`` from their settings,
``group.version`` 1, ``streams.version`` 1); ``kafka-features.sh upgrade /
downgrade / disable`` (UpdateFeatures) changes them afterwards, and behaviour
follows the finalized level:

* ``share.version``: 0 turns share groups off (their APIs answer
  UNSUPPORTED_VERSION), 1 is share groups as in Kafka 4.2, 2 adds dead-letter
  queues (KIP-1191);
* ``transaction.version``: the protocol the transaction coordinator speaks
  (2: KIP-890 part 2, an epoch bump per transaction);
* ``group.version``: 0 turns the consumer rebalance protocol (KIP-848) off;
* ``streams.version``: 0 turns streams groups (KIP-1071) off;
* ``metadata.version``: reported as a KRaft broker of the 4.2 line does; it
  orders no behaviour here, so it stays where it is (Kafka refuses its
  downgrades, and there is nothing above it to upgrade to).

:func:`validate` is Kafka's check (``FeatureControlManager.updateFeature``),
with its error codes and messages; one bad update fails them all. The levels are
durable: ``features.json`` in the first log directory on a single node, etcd
(``security/features/<name>``, beside the other cluster-wide documents) in a
cluster, where every broker follows them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from broker.config import known_setting
from broker.metadata.documents import FollowingStore, SharedDocuments, write_document
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = [
    "FEATURES",
    "GATES",
    "SAFE_DOWNGRADE",
    "UNSAFE_DOWNGRADE",
    "UPGRADE",
    "FeatureSpec",
    "FeatureStore",
    "validate",
]

log = structlog.get_logger("sharebroker.features")

FILE_NAME = "features.json"
FILE_VERSION = 1
SECTION = "features"

# UpdateFeatures' UpgradeType (v1+).
UPGRADE, SAFE_DOWNGRADE, UNSAFE_DOWNGRADE = 1, 2, 3


@dataclass(frozen=True, slots=True)
class FeatureSpec:
    name: str
    min_level: int
    max_level: int
    # The level a new cluster finalizes; ``setting`` names a broker setting that gives it.
    default: int
    setting: str | None = None


METADATA_VERSION = "metadata.version"
FEATURES: dict[str, FeatureSpec] = {
    s.name: s
    for s in (
        FeatureSpec(METADATA_VERSION, 7, 29, 29),
        FeatureSpec("group.version", 0, 1, 1),
        FeatureSpec("share.version", 0, 2, 2, setting="share.version"),
        FeatureSpec("streams.version", 0, 1, 1),
        FeatureSpec("transaction.version", 0, 2, 2, setting="transaction.version"),
    )
}


# APIs a feature switches on: at level 0 they answer UNSUPPORTED_VERSION, as Kafka's
# KafkaApis does when share groups, the consumer protocol or streams groups are off.
GATES: dict[int, str] = {
    **dict.fromkeys((76, 77, 78, 79, 90, 91, 92), "share.version"),
    **dict.fromkeys((68, 69), "group.version"),
    **dict.fromkeys((88, 89, 93), "streams.version"),
}


def _invalid(name: str, level: int, reason: str) -> KafkaError:
    return KafkaError(ErrorCode.INVALID_UPDATE_VERSION, f"Invalid update version {level} for feature {name}. {reason}")


def _check(name: str, level: int, upgrade_type: int, current: int, node_id: int) -> None:
    if upgrade_type not in (UPGRADE, SAFE_DOWNGRADE, UNSAFE_DOWNGRADE):
        raise _invalid(name, level, "The controller does not support the given upgrade type.")
    if level < 0:
        raise _invalid(name, level, "A feature version cannot be less than 0.")
    spec = FEATURES.get(name)
    if spec is None:
        raise _invalid(name, level, f"Local controller {node_id} does not support this feature.")
    if not spec.min_level <= level <= spec.max_level:
        raise _invalid(
            name, level, f"Local controller {node_id} only supports versions {spec.min_level}-{spec.max_level}"
        )
    if level < current and upgrade_type == UPGRADE:
        raise _invalid(
            name,
            level,
            "Can't downgrade the version of this feature without setting the upgrade type to either safe or "
            "unsafe downgrade.",
        )
    if level > current and upgrade_type != UPGRADE:
        raise _invalid(name, level, "Can't downgrade to a newer version.")
    if name == METADATA_VERSION and level < current:
        why = (
            "Unsafe metadata downgrade is not supported in this version."
            if upgrade_type == UNSAFE_DOWNGRADE
            else "Refusing to perform the requested downgrade because it might delete metadata information."
        )
        raise KafkaError(
            ErrorCode.INVALID_UPDATE_VERSION, f"Unsupported metadata.version downgrade from {current} to {level}. {why}"
        )


def validate(
    current: Mapping[str, int], updates: Iterable[tuple[str, int, int]], node_id: int
) -> tuple[dict[str, int], KafkaError | None]:
    """The levels after ``updates`` ((feature, level, upgrade type) each), or the first
    error (KafkaError INVALID_UPDATE_VERSION): one bad update fails them all, as in Kafka."""
    proposed = dict(current)
    for name, level, upgrade_type in updates:
        try:
            _check(name, level, upgrade_type, current.get(name, 0), node_id)
        except KafkaError as exc:
            return dict(current), exc
        proposed[name] = level
    return proposed, None


# The setting that gives each feature's initial level -> the feature.
_FEATURE_OF_SETTING = {spec.setting: spec.name for spec in FEATURES.values() if spec.setting is not None}


def initial_levels(setting: Callable[[str], Any]) -> dict[str, int]:
    """What a new cluster finalizes: the defaults, and the settings that give a level."""
    levels = {}
    for spec in FEATURES.values():
        level = spec.default
        if spec.setting is not None:
            value = setting(known_setting(spec.setting))
            if value is not None:
                level = int(value)
        levels[spec.name] = level
    return levels


class FeatureStore(FollowingStore):
    """The finalized levels, durable on this node or in the cluster's etcd."""

    def __init__(self, data_dir: Path, setting: Callable[[str], Any], *, shared: SharedDocuments | None = None) -> None:
        super().__init__(data_dir, FILE_NAME, shared)
        self._levels = initial_levels(setting)
        self.epoch = 1
        # Called with the finalized levels after every change (the coordinators follow).
        self.listeners: list[Callable[[Mapping[str, int]], None]] = []

    def overlay(self, setting: Callable[[str], Any]) -> Callable[[str], Any]:
        """``setting`` with the settings that give a feature's level answered by the
        finalized level, so what reads them follows UpdateFeatures."""

        def get(key: str) -> Any:
            name = _FEATURE_OF_SETTING.get(key)
            return self.level(name) if name is not None else setting(key)

        return get

    def level(self, name: str) -> int:
        return self._levels.get(name, 0)

    @property
    def levels(self) -> Mapping[str, int]:
        return dict(self._levels)

    def _loaded(self, doc: Any) -> None:
        """The stored levels (single node)."""
        if doc.get("version") != FILE_VERSION:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"{self._path} has unknown version {doc.get('version')}")
        self._apply({str(k): int(v) for k, v in doc["levels"].items()}, int(doc.get("epoch", 1)))

    def follow(self) -> None:
        """Take the levels etcd holds (a cluster member, after every metadata image)."""
        if self._shared is None:
            return
        docs = self._shared.documents(SECTION)
        if not docs:
            return
        levels = dict(self._levels)
        epoch = self.epoch
        for name, value in docs.items():
            doc = json.loads(value)
            levels[name] = int(doc["level"])
            epoch = max(epoch, int(doc.get("epoch", 1)))
        self._apply(levels, epoch)

    def _apply(self, levels: dict[str, int], epoch: int) -> None:
        changed = levels != self._levels
        self._levels = levels
        self.epoch = epoch
        if changed:
            for listener in self.listeners:
                listener(dict(levels))

    async def update(self, levels: Mapping[str, int]) -> None:
        """Make ``levels`` (already validated) the finalized ones, durably."""
        changed = {k: v for k, v in levels.items() if self._levels.get(k) != v}
        if not changed:
            return
        epoch = self.epoch + 1
        if self._shared is not None:
            puts = {k: json.dumps({"level": v, "epoch": epoch}).encode() for k, v in levels.items()}
            await self._shared.write_documents(SECTION, puts, ())
            self.follow()
        else:
            doc = {"version": FILE_VERSION, "epoch": epoch, "levels": dict(sorted(levels.items()))}
            write_document(self._path, json.dumps(doc, indent=1).encode())
            self._apply(dict(levels), epoch)
        log.info("features_finalized", changed=changed, epoch=self.epoch)
