"""The group configs (config resource GROUP) as Kafka 4.4 defines them, and this
broker's extensions: each key's type, default, checks and the broker settings its
default and bounds come from. :mod:`broker.metadata.group_configs` parses, checks and
stores values by this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from broker.config import ConfigType

__all__ = ["EXTENSION_KEYS", "GROUP_CONFIG_KEYS", "GroupConfigKey"]


@dataclass(frozen=True, slots=True)
class GroupConfigKey:
    """One group config: its type, default, and the checks Kafka makes on it.

    ``broker_default`` names the broker setting whose value is the default
    (``default`` when the broker does not know that setting). ``at_least`` /
    ``at_most`` are fixed bounds (Kafka's ConfigDef ranges); ``broker_min`` /
    ``broker_max`` are (broker setting, value used when the broker does not
    know it) bounds read from the broker config. ``internal`` keys (Kafka's
    internal group configs) are listed by DescribeConfigs only once a group sets
    them. ``extension`` marks keys Kafka 4.4 does not define.
    """

    name: str
    type: ConfigType
    default: Any
    doc: str
    broker_default: str | None = None
    at_least: int | float | None = None
    at_most: int | float | None = None
    choices: tuple[str, ...] | None = None
    broker_min: tuple[str, int] | None = None
    broker_max: tuple[str, int] | None = None
    internal: bool = False
    extension: bool = False


def _bounded(
    kind: str,
    name: str,
    default: int,
    *,
    at_least: int,
    lo: int | None,
    hi: int | None,
    doc: str,
    internal: bool = False,
) -> GroupConfigKey:
    """The INT key ``<kind>.<name>`` as Kafka names its bounded group configs: the broker's
    ``group.<kind>.<name>`` is the default, ``group.<kind>.min.<name>`` / ``.max.<name>``
    the bounds (``lo`` / ``hi`` where the broker does not know them; None: no such bound)."""
    return GroupConfigKey(
        f"{kind}.{name}",
        ConfigType.INT,
        default,
        doc,
        broker_default=f"group.{kind}.{name}",
        at_least=at_least,
        broker_min=None if lo is None else (f"group.{kind}.min.{name}", lo),
        broker_max=None if hi is None else (f"group.{kind}.max.{name}", hi),
        internal=internal,
    )


def _offload(kind: str) -> GroupConfigKey:
    """``<kind>.assignor.offload.enable``: Kafka's internal switch, accepted and inert."""
    return GroupConfigKey(
        f"{kind}.assignor.offload.enable",
        ConfigType.BOOLEAN,
        True,
        f"Kafka's switch for computing this {kind} group's assignments on a background thread. "
        "Accepted and described once set; no effect (as in Kafka 4.4.0): the assignor runs on the "
        "event loop between requests.",
        broker_default=f"group.{kind}.assignor.offload.enable",
        internal=True,
    )


# The bounded keys every modern group kind (consumer, share, streams) has, alike but for the
# kind: default, fixed lower bound, the broker-bound fallbacks (lo, hi), and the doc.
_EVERY_KIND: dict[str, tuple[int, int, int, int, str]] = {
    "session.timeout.ms": (
        45000,
        1,
        45000,
        60000,
        "{members} members of this group that stay silent this long are removed.",
    ),
    "heartbeat.interval.ms": (5000, 1, 5000, 15000, "Heartbeat interval handed to this {kind} group's members."),
    "assignment.interval.ms": (
        1000,
        0,
        0,
        15000,
        "Shortest time between two target assignments of this {kind} group; changes that come "
        "sooner are assigned together once it has passed (KIP-1263).",
    ),
}
_MEMBERS = {"consumer": "Consumer-group (KIP-848)", "share": "Share-group", "streams": "Streams-group (KIP-1071)"}


def _every_kind(kind: str, name: str) -> GroupConfigKey:
    default, at_least, lo, hi, doc = _EVERY_KIND[name]
    return _bounded(
        kind, name, default, at_least=at_least, lo=lo, hi=hi, doc=doc.format(kind=kind, members=_MEMBERS[kind])
    )


_I, _S, _B, _L, _D = ConfigType.INT, ConfigType.STRING, ConfigType.BOOLEAN, ConfigType.LONG, ConfigType.DOUBLE

# Kafka 4.4's GroupConfig, in its definition order: values are parsed in this order,
# so a request with several bad values reports the same one Kafka does.
GROUP_CONFIG_KEYS: tuple[GroupConfigKey, ...] = (
    _every_kind("consumer", "session.timeout.ms"),
    _every_kind("consumer", "heartbeat.interval.ms"),
    _every_kind("consumer", "assignment.interval.ms"),
    _offload("consumer"),
    _every_kind("share", "session.timeout.ms"),
    _every_kind("share", "heartbeat.interval.ms"),
    _bounded(
        "share",
        "record.lock.duration.ms",
        30000,
        at_least=1000,
        lo=15000,
        hi=60000,
        doc="How long a record delivered to a member of this share group stays locked to it "
        "before it is offered again.",
    ),
    _bounded(
        "share",
        "delivery.count.limit",
        5,
        at_least=2,
        lo=2,
        hi=10,
        doc="Deliveries a record of this share group gets before it is archived (or dead-lettered) "
        "instead of offered again (KIP-1240).",
    ),
    _bounded(
        "share",
        "partition.max.record.locks",
        2000,
        at_least=100,
        lo=100,
        hi=4000,
        doc="Most records in flight per share-partition of this group (KIP-1240).",
    ),
    GroupConfigKey(
        "share.auto.offset.reset",
        _S,
        "latest",
        doc="Where a share-partition of this group starts when it has no state yet: latest, "
        "earliest, or by_duration:<ISO-8601 duration> (the first record at most that old).",
    ),
    GroupConfigKey(
        "share.isolation.level",
        _S,
        "read_uncommitted",
        choices=("read_committed", "read_uncommitted"),
        doc="read_committed hands out only committed transactional records (never aborted ones); "
        "read_uncommitted hands out everything. Records outside transactions are delivered either way.",
    ),
    GroupConfigKey(
        "share.renew.acknowledge.enable",
        _B,
        True,
        doc="Whether members of this share group may renew their record locks (acknowledgement type Renew, KIP-1240).",
    ),
    _every_kind("share", "assignment.interval.ms"),
    _offload("share"),
    _every_kind("streams", "session.timeout.ms"),
    _every_kind("streams", "heartbeat.interval.ms"),
    GroupConfigKey(
        "streams.num.standby.replicas",
        _I,
        0,
        broker_default="group.streams.num.standby.replicas",
        at_least=0,
        broker_max=("group.streams.max.standby.replicas", 2),
        doc="Standby replicas of each stateful task of this streams group.",
    ),
    GroupConfigKey(
        "streams.initial.rebalance.delay.ms",
        _I,
        3000,
        broker_default="group.streams.initial.rebalance.delay.ms",
        at_least=0,
        doc="How long a new streams group waits for more members before its first assignment.",
    ),
    _every_kind("streams", "assignment.interval.ms"),
    _offload("streams"),
    _bounded(
        "streams",
        "task.offset.interval.ms",
        60000,
        at_least=1,
        lo=15000,
        hi=None,
        internal=True,
        doc="How often streams members report warm-up task offsets. Accepted and described once set.",
    ),
    GroupConfigKey(
        "streams.num.warmup.replicas",
        _I,
        2,
        broker_default="group.streams.num.warmup.replicas",
        at_least=0,
        broker_max=("group.streams.max.warmup.replicas", 20),
        internal=True,
        doc="Most warm-up task replicas of this streams group. Accepted and described once set; the "
        "sticky assignor here plans no warm-ups.",
    ),
    GroupConfigKey(
        "streams.rack.aware.assignment.tags",
        _S,
        "",
        broker_default="group.streams.rack.aware.assignment.tags",
        doc="Client tags (comma-separated keys) whose values the sticky task assignor spreads the "
        "standby tasks of this streams group over.",
    ),
    GroupConfigKey(
        "streams.acceptable.recovery.lag",
        _L,
        10000,
        broker_default="group.streams.acceptable.recovery.lag",
        at_least=0,
        internal=True,
        doc="Lag up to which a streams member counts as caught up for an active task. Accepted and described once set.",
    ),
    GroupConfigKey(
        "streams.assignor.name",
        _S,
        "sticky",
        broker_default="group.streams.assignors",
        doc="The task assignor of this streams group, by name, out of the broker's "
        "group.streams.assignors (unset: the first of them).",
    ),
    GroupConfigKey(
        "errors.deadletterqueue.topic.name",
        _S,
        "",
        doc="The dead-letter topic of this share group (KIP-1191): records it rejects, and records "
        "that reach the delivery count limit, are written there before they are archived. Blank: "
        "no dead-letter topic. The topic must have errors.deadletterqueue.group.enable=true and a "
        "name with the broker's errors.deadletterqueue.topic.name.prefix.",
    ),
    GroupConfigKey(
        "errors.deadletterqueue.copy.record.enable",
        _B,
        False,
        doc="Whether a dead-letter record copies the original record's key and value, or carries "
        "only the context headers (__dlq.errors.*).",
    ),
)

# Keys Kafka 4.4 does not define: this broker's extensions, off by default, each one
# protocol-transparent (clients need no change to benefit).
EXTENSION_KEYS: tuple[GroupConfigKey, ...] = (
    GroupConfigKey(
        "group.type",
        _S,
        None,
        choices=("consumer", "share"),
        extension=True,
        doc="Pins the type a group of this name may be created as (consumer or share). Unset: any type.",
    ),
    GroupConfigKey(
        "share.redelivery.backoff.ms",
        _I,
        0,
        at_least=0,
        at_most=3_600_000,
        extension=True,
        doc="Extension. A record of this share group that is released, or whose lock expires, is "
        "offered again only after this delay, growing with each delivery (times "
        "share.redelivery.backoff.multiplier, up to share.redelivery.backoff.max.ms). 0: at once, "
        "as Kafka does.",
    ),
    GroupConfigKey(
        "share.redelivery.backoff.multiplier",
        _D,
        2.0,
        at_least=1.0,
        at_most=10.0,
        extension=True,
        doc="Extension. Factor by which the redelivery delay grows with each further delivery.",
    ),
    GroupConfigKey(
        "share.redelivery.backoff.max.ms",
        _I,
        60_000,
        at_least=0,
        at_most=3_600_000,
        extension=True,
        doc="Extension. Longest redelivery delay.",
    ),
    GroupConfigKey(
        "share.key.ordering.enable",
        _B,
        False,
        extension=True,
        doc="Extension. A record is not handed out while another record with the same key in the "
        "same share-partition is in flight or waiting for redelivery, so the records of one key "
        "are processed one at a time, in offset order, while many members share the partition. "
        "Records without a key are not ordered.",
    ),
)

del _I, _S, _B, _L, _D
