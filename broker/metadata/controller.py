"""The cluster controller: the one broker that writes topics, placement and leaders to etcd.

Every broker campaigns; etcd decides. The controller key is created only if it
does not exist (a txn comparing its version with 0), attached to the winner's
lease, so it disappears when that broker stops refreshing its lease or shuts
down, and the next broker to create it takes over. The key's create revision is
the **controller epoch**: every write the controller makes is a txn that also
compares the controller key's create revision with its own epoch, so a
controller that lost the key (paused, cut off) can change nothing any more.
Topic writes compare the topic key's mod revision with the one the decision was
based on (compare-and-swap), so no write is based on stale state.

What the controller does:

- **Leaders and the ISR.** A partition's leader must be a registered broker,
  at the broker epoch it was elected under (the mod revision of its
  registration), not in controlled shutdown. A leader that is gone, restarted or
  shutting down is replaced by the first replica (in assignment order) that is
  in the ISR and live; with none, the partition has no leader (-1) and keeps its
  last ISR, so the last in-sync replica leads again when it is back, unless
  ``unclean.leader.election.enable`` (topic, else broker setting; default false)
  lets any live replica lead, with an ISR of itself (records it lacks are
  lost). Brokers that are gone or shutting down leave every ISR (never the last
  member). A leader change bumps the leader epoch and the partition epoch and
  records the new leader's broker epoch; an ISR change bumps the partition
  epoch. Leaders grow and shrink their ISR themselves, with compare-and-swap
  (:meth:`broker.metadata.cluster.ClusterMetadata.alter_isr`).
- **Controlled shutdown.** A broker stopping cleanly puts ``shutdown/<id>``
  (under its lease, naming its broker epoch): its leaderships move to other
  in-sync replicas and it leaves the ISRs, before it stops serving.
- **Preferred leaders.** ElectLeaders (preferred or unclean) is a request like
  the topic ones; with ``auto.leader.rebalance.enable`` the controller also
  moves leadership back to the first replica every
  ``leader.imbalance.check.interval.seconds`` when more than
  ``leader.imbalance.per.broker.percentage`` of a broker's preferred partitions
  are led elsewhere.
- **Reassignment.** AlterPartitionReassignments sets a partition's replicas to
  the target plus the current ones (``adding``/``removing`` as in Kafka); once
  every added replica is in the ISR the controller drops the removed ones (and
  moves leadership into the target). Cancelling restores the original replicas.
- **Requests.** Brokers do not write topics: they put a request under
  ``requests/`` (attached to their own lease) and wait for the controller's
  result under ``results/``. The controller validates it (Kafka's rules and
  messages), places new partitions (:mod:`broker.metadata.placement`), and in
  one txn writes the topic, deletes the request and puts the result. A
  CreateTopics of many topics is one request; its topics go out in as few txns
  as etcd's limits allow, each topic in one, the last one answering.
- **History.** Every write leaves revisions in etcd until they are compacted; the
  controller compacts what is older than ``COMPACT_RETENTION_S``.

Errors are KafkaError codes in the result; the requesting broker raises them.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import structlog
import trio

from broker.config.services import ControllerSettings
from broker.log.config import LogConfig, validate_topic_configs
from broker.log.manager import MAX_PARTITIONS_PER_TOPIC, validate_topic_name
from broker.metadata.etcd_client import Compare, EtcdClient, EtcdError, EtcdUnavailable, KeyValue, Op, prefix_end
from broker.metadata.layout import (
    MAX_TXN_BYTES,
    MAX_TXN_OPS,
    Changes,
    Keys,
    Mirror,
    TopicRecord,
    chunk_of,
)
from broker.metadata.placement import assign_replicas
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["Controller", "Keys", "TopicRecord", "execute_create_topics", "execute_request"]

log = structlog.get_logger("sharebroker.controller")

NO_LEADER = -1
# How long the controller waits for a change before it looks again (a wake-up is
# normally what starts a pass; this bounds what a missed one costs).
RECONCILE_EVERY_S = 5.0
# A pass over every partition (not only the topics that changed) at least this often:
# a safety net that costs ~10 ms per 10,000 partitions once a minute.
FULL_RECONCILE_S = 60.0
# etcd keeps every revision until compacted (etcd 3.4 does not compact unless told).
# The controller compacts away revisions older than COMPACT_RETENTION_S, looking every
# COMPACT_EVERY_S: a broker cut off for longer reads everything again when it is back.
COMPACT_EVERY_S = 60.0
COMPACT_RETENTION_S = 300.0


def new_partition(replicas: Sequence[int], live: Mapping[int, int]) -> dict[str, Any]:
    """A new partition: led by its first live replica, at leader epoch 0."""
    leader = next((r for r in replicas if r in live), NO_LEADER)
    return {
        "replicas": list(replicas),
        "isr": list(replicas),
        "leader": leader,
        "leader_epoch": 0,
        "partition_epoch": 0,
        "leader_broker_epoch": live.get(leader, -1),
    }


def _set_leader(partition: dict[str, Any], leader: int, live: Mapping[int, int]) -> None:
    partition["leader"] = leader
    partition["leader_epoch"] += 1
    partition["leader_broker_epoch"] = live.get(leader, -1)


def elect(
    partition: dict[str, Any],
    live: Mapping[int, int],
    *,
    shutting_down: Iterable[int] = (),
    unclean: bool = False,
) -> bool:
    """Fix the partition's leader and ISR against the live brokers ({node id: broker
    epoch}) and those in controlled shutdown; True when anything changed."""
    down = set(shutting_down)
    old_leader = partition["leader"]
    isr: list[int] = list(partition["isr"])
    replicas: list[int] = list(partition["replicas"])
    changed = False
    leader_live = old_leader != NO_LEADER and live.get(old_leader) == partition.get("leader_broker_epoch")
    serving = [r for r in isr if r in live and r not in down]
    if not leader_live or old_leader in down:
        # Another in-sync replica first: a restarted leader is elected again only when
        # it is the last one (it then gets a new leader epoch).
        candidate = next((r for r in replicas if r in serving and r != old_leader), NO_LEADER)
        if candidate == NO_LEADER and old_leader in serving and not leader_live:
            candidate = old_leader
        if candidate != NO_LEADER:
            _set_leader(partition, candidate, live)
            changed = True
        elif leader_live:
            pass  # shutting down, but no other in-sync replica can take over: it stays
        elif unclean and any(r in live and r not in down for r in replicas):
            chosen = next(r for r in replicas if r in live and r not in down)
            _set_leader(partition, chosen, live)
            isr = [chosen]
            changed = True
        elif old_leader != NO_LEADER:
            _set_leader(partition, NO_LEADER, live)
            changed = True
    # Gone and stopping brokers leave the ISR, never its last member (the last leader
    # when it was in the ISR: it has everything committed).
    leader = partition["leader"]
    kept = [r for r in isr if (r in live and r not in down) or r == leader]
    if not kept:
        kept = [old_leader] if old_leader in isr else isr[-1:]
    if kept != partition["isr"]:
        partition["isr"] = kept
        changed = True
    if changed:
        partition["partition_epoch"] += 1
    return changed


def preferred_election(partition: dict[str, Any], live: Mapping[int, int], shutting_down: Iterable[int] = ()) -> int:
    """Move leadership to the first replica; the ElectLeaders error code (0: done)."""
    preferred = partition["replicas"][0]
    if partition["leader"] == preferred and live.get(preferred) == partition.get("leader_broker_epoch"):
        return ErrorCode.ELECTION_NOT_NEEDED
    if preferred not in live or preferred in set(shutting_down) or preferred not in partition["isr"]:
        return ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE
    _set_leader(partition, preferred, live)
    partition["partition_epoch"] += 1
    return ErrorCode.NONE


def unclean_election(partition: dict[str, Any], live: Mapping[int, int], shutting_down: Iterable[int] = ()) -> int:
    """ElectLeaders UNCLEAN: a leader for a leaderless partition, from the ISR if it can,
    else any live replica; the error code (0: done)."""
    leader = partition["leader"]
    if leader != NO_LEADER and live.get(leader) == partition.get("leader_broker_epoch"):
        return ErrorCode.ELECTION_NOT_NEEDED
    if elect(partition, live, shutting_down=shutting_down, unclean=True) and partition["leader"] != NO_LEADER:
        return ErrorCode.NONE
    return ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE


def finish_reassignment(partition: dict[str, Any], live: Mapping[int, int], shutting_down: Iterable[int] = ()) -> bool:
    """Complete a reassignment whose added replicas are all in the ISR; True when done."""
    adding = partition.get("adding") or []
    removing = partition.get("removing") or []
    if not adding and not removing:
        return False
    if any(r not in partition["isr"] for r in adding):
        return False
    target = [r for r in partition["replicas"] if r not in removing]
    partition["replicas"] = target
    partition["isr"] = [r for r in partition["isr"] if r in target]
    partition.pop("adding", None)
    partition.pop("removing", None)
    if partition["leader"] not in target:
        down = set(shutting_down)
        candidate = next((r for r in target if r in partition["isr"] and r in live and r not in down), NO_LEADER)
        _set_leader(partition, candidate, live)
    partition["partition_epoch"] += 1
    return True


class ClusterView:
    """What request execution reads: the mirror of etcd, topics decoded on demand."""

    def __init__(self, keys: Keys, mirror: Mapping[bytes, KeyValue]) -> None:
        self.keys = keys
        self.mirror = mirror if isinstance(mirror, Mirror) else Mirror(keys, mirror.values())

    def live_brokers(self) -> dict[int, tuple[int, str | None]]:
        """{node id: (broker epoch, rack)} of every registered broker."""
        out = {}
        for kv in self.mirror.section(self.keys.brokers).values():
            doc = json.loads(kv.value)
            out[int(doc["id"])] = (kv.mod_revision, doc.get("rack"))
        return out

    def shutting_down(self) -> set[int]:
        """Brokers in controlled shutdown (the key names their current broker epoch)."""
        live = self.live_brokers()
        out = set()
        for kv in self.mirror.section(self.keys.shutdown).values():
            doc = json.loads(kv.value)
            node = int(doc["id"])
            if node in live and live[node][0] == int(doc["broker_epoch"]):
                out.add(node)
        return out

    def topic_names(self) -> list[str]:
        return list(self.mirror.topic_names())

    def topic(self, name: str) -> TopicRecord | None:
        """One topic, decoded (a copy the caller may change)."""
        return self.mirror.record(name)

    def topics(self) -> dict[str, tuple[TopicRecord, int]]:
        """{name: (record, mod revision of its topic key)} of every topic (decodes all)."""
        out = {}
        for name, record in self.mirror.records().items():
            kv = self.mirror.topic_kv(name)
            out[name] = (record, kv.mod_revision if kv is not None else 0)
        return out

    def writes(self, record: TopicRecord, chunks: set[int] | None = None) -> tuple[list[Op], list[Compare]]:
        """The ops that store ``record``'s keys ``chunks`` (None: all) and the compares
        that make them a compare-and-swap on what was read. A topic stored in the earlier
        layout (every partition in its topic key) is rewritten whole."""
        revisions = self.mirror.revisions(record.name)
        kv = self.mirror.topic_kv(record.name)
        if chunks is None or (kv is not None and b'"count":' not in kv.value):
            chunks = set(range(record.chunk_count()))
        ops = record.ops(self.keys, chunks)
        compares = [
            Compare(self.keys.topic(record.name) if i == 0 else self.keys.chunk(record.name, i), "MOD", revisions[i])
            for i in sorted(chunks)
            if i in revisions
        ]
        return ops, compares


def _check_assignments(assignments: Sequence[Sequence[int]], live: Iterable[int]) -> None:
    known = set(live)
    for replicas in assignments:
        if not replicas:
            raise KafkaError(
                ErrorCode.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment includes an empty replica list."
            )
        if len(set(replicas)) != len(replicas):
            raise KafkaError(
                ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                f"The manual partition assignment includes a broker more than once: {list(replicas)}.",
            )
        for b in replicas:
            if b not in known:
                raise KafkaError(
                    ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                    f"The manual partition assignment includes broker {b}, but no such broker is registered.",
                )
    if assignments and len({len(r) for r in assignments}) > 1:
        raise KafkaError(
            ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            "All partitions should have the same number of replicas.",
        )


def _check_partition_count(count: int) -> None:
    if count <= 0:
        raise KafkaError(ErrorCode.INVALID_PARTITIONS, "Number of partitions was set to an invalid non-positive value.")
    if count > MAX_PARTITIONS_PER_TOPIC:
        raise KafkaError(
            ErrorCode.INVALID_PARTITIONS,
            f"Number of partitions {count} exceeds this broker's limit of {MAX_PARTITIONS_PER_TOPIC}.",
        )


def _flag(value: Any) -> bool:
    return str(value).strip().lower() == "true"


def unclean_allowed(record: TopicRecord, broker_default: bool) -> bool:
    """unclean.leader.election.enable of a topic: its override, else the broker's."""
    value: object = record.configs.get("unclean.leader.election.enable")
    return broker_default if value is None else _flag(value)


def _wanted(request: Mapping[str, Any]) -> list[tuple[str, int, Any]]:
    wanted = request.get("partitions")
    if wanted is None:
        return []
    return [(str(w[0]), int(w[1]), w[2] if len(w) > 2 else None) for w in wanted]


class _Changed:
    """Topics a request changes, with the partitions changed in each."""

    def __init__(self, view: ClusterView) -> None:
        self.view = view
        self.records: dict[str, TopicRecord | None] = {}
        self.moved: dict[str, set[int]] = {}

    def record(self, name: str) -> TopicRecord | None:
        if name not in self.records:
            self.records[name] = self.view.topic(name)
        return self.records[name]

    def mark(self, name: str, index: int) -> None:
        self.moved.setdefault(name, set()).add(index)

    def writes(self) -> tuple[list[Op], list[Compare]]:
        ops: list[Op] = []
        compares: list[Compare] = []
        for name, indices in self.moved.items():
            record = self.records[name]
            assert record is not None
            o, c = self.view.writes(record, {chunk_of(i) for i in indices})
            ops += o
            compares += c
        return ops, compares


def _elect_leaders(
    view: ClusterView, request: Mapping[str, Any], live: Mapping[int, int]
) -> tuple[list[Op], list[Compare], dict[str, Any]]:
    """ElectLeaders: preferred (0) or unclean (1) elections; per-partition results."""
    wanted = _wanted(request)
    preferred = int(request.get("type", 0)) == 0
    down = view.shutting_down()
    results: list[list[Any]] = []
    changed = _Changed(view)
    every = request.get("partitions") is None
    if every:
        wanted = []
        for name in sorted(view.topic_names()):
            record = changed.record(name)
            wanted += [(name, i, None) for i in range(len(record.partitions) if record is not None else 0)]
    for name, index, _ in wanted:
        record = changed.record(name)
        if record is None or not 0 <= index < len(record.partitions):
            results.append([name, index, int(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION), None])
            continue
        partition = record.partitions[index]
        if preferred:
            code = preferred_election(partition, live, down)
        else:
            code = unclean_election(partition, live, down)
        if code == ErrorCode.NONE:
            changed.mark(name, index)
        if every and code == ErrorCode.ELECTION_NOT_NEEDED:
            continue  # Kafka leaves out what already has its leader when electing everything
        message = None
        if code == ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE:
            message = f"Failed to elect leader for partition {name}-{index} under strategy PreferredReplicaPartitionLeaderElectionStrategy"
        results.append([name, index, int(code), message])
    ops, compares = changed.writes()
    return ops, compares, {"results": results}


def _alter_reassignments(
    view: ClusterView, request: Mapping[str, Any], live: Mapping[int, int]
) -> tuple[list[Op], list[Compare], dict[str, Any]]:
    """AlterPartitionReassignments: start, change or cancel; per-partition results."""
    wanted = _wanted(request)
    allow_rf_change = bool(request.get("allow_rf_change", True))
    down = view.shutting_down()
    results: list[list[Any]] = []
    changed = _Changed(view)
    for name, index, target in wanted:
        record = changed.record(name)
        if record is None or not 0 <= index < len(record.partitions):
            results.append([name, index, int(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION), None])
            continue
        p = record.partitions[index]
        adding = list(p.get("adding") or [])
        removing = list(p.get("removing") or [])
        original = [r for r in p["replicas"] if r not in adding]
        if target is None:
            if not adding and not removing:
                results.append([name, index, int(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS), None])
                continue
            target = original
        else:
            target = [int(r) for r in target]
            problem = None
            if not target:
                problem = "The replica list is empty."
            elif len(set(target)) != len(target):
                problem = f"The proposed assignment contains duplicate replicas: {target}."
            elif any(r not in live for r in target):
                problem = (
                    f"The proposed assignment contains unregistered brokers: {[r for r in target if r not in live]}."
                )
            if problem is not None:
                results.append([name, index, int(ErrorCode.INVALID_REPLICA_ASSIGNMENT), problem])
                continue
            if not allow_rf_change and len(target) != len(original):
                results.append(
                    [
                        name,
                        index,
                        int(ErrorCode.INVALID_REPLICATION_FACTOR),
                        f"The replication factor is changed from {len(original)} to {len(target)}",
                    ]
                )
                continue
        new_adding = [r for r in target if r not in original]
        new_removing = [r for r in original if r not in target]
        p["replicas"] = target + [r for r in original if r not in target]
        p["adding"], p["removing"] = new_adding, new_removing
        if not new_adding and not new_removing:
            p["replicas"] = target
            p.pop("adding", None)
            p.pop("removing", None)
        p["isr"] = [r for r in p["isr"] if r in p["replicas"]] or [r for r in target if r in live][:1]
        p["partition_epoch"] += 1
        finish_reassignment(p, live, down)
        elect(p, live, shutting_down=down)
        changed.mark(name, index)
        results.append([name, index, 0, None])
    ops, compares = changed.writes()
    return ops, compares, {"results": results}


def _new_topic(
    view: ClusterView,
    request: Mapping[str, Any],
    *,
    settings: ControllerSettings,
    broker_defaults: Mapping[str, str],
    rng: random.Random | None,
    taken: Iterable[str] = (),
) -> TopicRecord:
    """Decide one topic creation (raises KafkaError); ``taken``: names created earlier in
    the same batch."""
    name = request["name"]
    brokers = view.live_brokers()
    live = {b: epoch for b, (epoch, _) in brokers.items()}
    validate_topic_name(name)
    if view.mirror.topic_kv(name) is not None or name in taken:
        raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{name}' already exists.")
    unified = name.replace(".", "_")
    for other in [*view.topic_names(), *taken]:
        if other.replace(".", "_") == unified:
            raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, f"Topic '{name}' collides with existing topic: {other}")
    assignments = request.get("assignments")
    partitions = int(request["partitions"])
    rf = int(request["replication_factor"])
    if assignments:
        _check_assignments(assignments, live)
        partitions = len(assignments)
    else:
        if partitions == -1:
            partitions = settings.num_partitions
        _check_partition_count(partitions)
        if rf == -1:
            rf = settings.default_replication_factor
        if rf <= 0:
            raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR, "Replication factor must be larger than 0.")
        if rf > len(live):
            raise KafkaError(
                ErrorCode.INVALID_REPLICATION_FACTOR,
                f"Unable to replicate the partition {rf} time(s): The target replication factor of {rf} "
                f"cannot be reached because only {len(live)} broker(s) are registered.",
            )
        assignments = assign_replicas([(b, rack) for b, (_, rack) in brokers.items()], partitions, rf, rng=rng)
    stored = validate_topic_configs(request.get("configs") or {})
    LogConfig.from_configs(broker_defaults, stored)
    return TopicRecord(
        name,
        uuid.uuid4(),
        [new_partition(r, live) for r in assignments],
        stored,
        bool(request.get("internal", False)),
    )


def execute_request(
    view: ClusterView,
    request: Mapping[str, Any],
    *,
    settings: ControllerSettings,
    broker_defaults: Mapping[str, str],
    rng: random.Random | None = None,
) -> tuple[list[Op], list[Compare], dict[str, Any]]:
    """Decide one topic request against the cluster as ``view`` shows it: the ops and
    compares of the txn that applies it, and the result to answer. Raises KafkaError."""
    op = request["op"]
    if op in ("elect_leaders", "alter_reassignments"):
        live = {b: epoch for b, (epoch, _) in view.live_brokers().items()}
        if op == "elect_leaders":
            return _elect_leaders(view, request, live)
        return _alter_reassignments(view, request, live)
    name = request["name"]
    keys = view.keys
    brokers = view.live_brokers()
    validate_only = bool(request.get("validate_only", False))
    if op == "create_topic":
        record = _new_topic(view, request, settings=settings, broker_defaults=broker_defaults, rng=rng)
        result = {"topic": record.to_doc()}
        if validate_only:
            return [], [], result
        return record.ops(keys), [Compare(keys.topic(name), "VERSION", 0)], result
    found = view.topic(name)
    kv = view.mirror.topic_kv(name)
    if found is None or kv is None:
        raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"topic {name} does not exist")
    record = found
    guard = [Compare(keys.topic(name), "MOD", kv.mod_revision)]
    if op == "delete_topic":
        chunks = keys.chunks(name)
        return [Op(keys.topic(name)), Op(chunks, range_end=prefix_end(chunks))], guard, {}
    chunks_written: set[int] = {0}
    if op == "create_partitions":
        chunks_written |= _add_partitions(record, request, brokers, rng)
    elif op == "alter_configs":
        _alter_configs(record, request, broker_defaults)
    else:
        raise KafkaError(ErrorCode.INVALID_REQUEST, f"unknown metadata request {op!r}")
    result = {"topic": record.to_doc()}
    if validate_only:
        return [], [], result
    ops, compares = view.writes(record, chunks_written)
    return ops, [*guard, *(c for c in compares if c.key != keys.topic(name))], result


def _add_partitions(
    record: TopicRecord,
    request: Mapping[str, Any],
    brokers: Mapping[int, tuple[int, str | None]],
    rng: random.Random | None,
) -> set[int]:
    """CreatePartitions on ``record``: the new partitions, placed as the request says or
    across the live brokers; returns the chunks it wrote. Raises KafkaError."""
    live = {b: epoch for b, (epoch, _) in brokers.items()}
    total = int(request["total"])
    current = len(record.partitions)
    if total < current:
        raise KafkaError(
            ErrorCode.INVALID_PARTITIONS,
            f"Topic currently has {current} partitions, which is higher than the requested {total}.",
        )
    if total == current:
        raise KafkaError(ErrorCode.INVALID_PARTITIONS, f"Topic already has {current} partitions.")
    _check_partition_count(total)
    assignments = request.get("assignments")
    if assignments:
        if len(assignments) != total - current:
            raise KafkaError(
                ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                f"Increasing the number of partitions by {total - current} but {len(assignments)} "
                "assignments provided.",
            )
        _check_assignments(assignments, live)
    else:
        rf = len(record.partitions[0]["replicas"]) if record.partitions else 1
        if rf > len(live):
            raise KafkaError(
                ErrorCode.INVALID_REPLICATION_FACTOR,
                f"Unable to replicate the partition {rf} time(s): The target replication factor of {rf} "
                f"cannot be reached because only {len(live)} broker(s) are registered.",
            )
        assignments = assign_replicas(
            [(b, rack) for b, (_, rack) in brokers.items()], total - current, rf, first_partition=current, rng=rng
        )
    record.partitions += [new_partition(r, live) for r in assignments]
    return set(range(chunk_of(current), record.chunk_count()))


def _alter_configs(record: TopicRecord, request: Mapping[str, Any], broker_defaults: Mapping[str, str]) -> None:
    """IncrementalAlterConfigs of a topic on ``record`` (validated). Raises KafkaError."""
    configs = dict(record.configs)
    for key in request.get("delete", ()):
        configs.pop(key, None)
    configs.update(validate_topic_configs(request.get("set") or {}))
    LogConfig.from_configs(broker_defaults, configs)
    record.configs = configs


def execute_create_topics(
    view: ClusterView,
    request: Mapping[str, Any],
    *,
    settings: ControllerSettings,
    broker_defaults: Mapping[str, str],
    rng: random.Random | None = None,
) -> tuple[list[tuple[list[Op], list[Compare]]], dict[str, Any]]:
    """CreateTopics of many topics in one request: per topic created, its ops and
    compares (each topic is one transaction's worth, written together); the result lists
    [name, error code, message, summary] per topic, in request order."""
    writes: list[tuple[list[Op], list[Compare]]] = []
    results: list[list[Any]] = []
    taken: list[str] = []
    validate_only = bool(request.get("validate_only", False))
    for spec in request["topics"]:
        try:
            record = _new_topic(view, spec, settings=settings, broker_defaults=broker_defaults, rng=rng, taken=taken)
        except KafkaError as exc:
            results.append([spec.get("name"), int(exc.code), exc.detail, None])
            continue
        taken.append(record.name)
        results.append([record.name, 0, None, summary(record)])
        if not validate_only:
            writes.append((record.ops(view.keys), [Compare(view.keys.topic(record.name), "VERSION", 0)]))
    return writes, {"results": results}


def summary(record: TopicRecord) -> dict[str, Any]:
    """What a requester needs of a topic a request made or changed (small enough for an
    etcd value whatever the partition count): id, configs, count, first replica list."""
    return {
        "id": str(record.topic_id),
        "internal": record.internal,
        "configs": record.configs,
        "count": len(record.partitions),
        "replicas": list(record.partitions[0]["replicas"]) if record.partitions else [],
    }


class Controller:
    """Campaigns for the controller key and, while it holds it, keeps leaders right and
    answers topic requests. Driven by :class:`broker.metadata.cluster.ClusterMetadata`,
    which owns the etcd mirror, the lease and the wake-ups.

    Passes look at what changed (:meth:`note`): the topics whose keys moved, or every
    topic when the brokers (registrations, controlled shutdowns) did, plus a full pass
    every ``FULL_RECONCILE_S``. Writes go out in transactions within etcd's limits,
    each topic's keys in one; a topic whose write lost its compare-and-swap is looked
    at again in the next pass."""

    def __init__(
        self,
        *,
        node_id: int,
        client: EtcdClient,
        keys: Keys,
        mirror: Callable[[], Mirror],
        revision: Callable[[], int],
        lease: Callable[[], int | None],
        settings: ControllerSettings,
        broker_defaults: Callable[[], Mapping[str, str]],
    ) -> None:
        self.node_id = node_id
        self._client = client
        self._keys = keys
        self._mirror = mirror
        self._revision = revision
        self._lease = lease
        self._settings = settings
        self._broker_defaults = broker_defaults
        self.epoch: int | None = None
        self._changed = trio.Event()
        self._rng = random.Random()
        self._next_rebalance = 0.0
        self._pending = Changes(everything=True)
        self._brokers_seen: object = None
        self._next_full = 0.0
        # (trio time, etcd revision) samples for compaction; the next compaction check.
        self._revisions: list[tuple[float, int]] = []
        self._next_compact = 0.0

    def note(self, changes: Changes) -> None:
        """The mirror changed as ``changes`` says (ClusterMetadata passes every batch)."""
        pending = self._pending
        pending.topics |= changes.topics
        pending.brokers |= changes.brokers
        pending.shutdown |= changes.shutdown
        pending.everything |= changes.everything
        self.wake()

    def wake(self) -> None:
        """The mirror changed."""
        self._changed.set()

    def _holds(self) -> bool:
        kv = self._mirror().get(self._keys.controller)
        return kv is not None and self.epoch is not None and kv.create_revision == self.epoch

    def _lost_key(self) -> bool:
        """The mirror has caught up with our election and shows the key gone or another's."""
        return self.epoch is not None and not self._holds() and self._revision() >= self.epoch

    @property
    def guard(self) -> Compare:
        assert self.epoch is not None
        return Compare(self._keys.controller, "CREATE", self.epoch)

    async def run(self) -> None:
        """Campaign and control, forever."""
        while True:
            self._changed = trio.Event()
            try:
                if self._lost_key():
                    self._lost("the controller key is gone or another broker's")
                if self.epoch is None:
                    await self._campaign()
                if self.epoch is not None and self._holds():
                    await self.reconcile()
                    await self.process_requests()
                    await self._maybe_rebalance()
                    await self._maybe_compact()
            except EtcdUnavailable as exc:
                log.warning("controller_etcd_unreachable", error=str(exc))
            except EtcdError as exc:
                log.warning("controller_etcd_error", error=str(exc))
            with trio.move_on_after(RECONCILE_EVERY_S):
                await self._changed.wait()

    def _lost(self, why: str) -> None:
        if self.epoch is not None:
            log.warning("controller_resigned", node=self.node_id, epoch=self.epoch, reason=why)
        self.epoch = None
        self._pending.everything = True  # a controller taking over looks at everything

    def resign(self) -> None:
        """Our lease is gone: so is the controller key."""
        self._lost("lease lost")

    async def _campaign(self) -> None:
        lease = self._lease()
        if lease is None:
            return
        held = self._mirror().get(self._keys.controller)
        if held is not None:
            if held.lease == lease:  # ours (an election the mirror showed late): take it up
                self.epoch = held.create_revision
                self._pending.everything = True
                log.info("controller_elected", node=self.node_id, epoch=self.epoch)
            return
        value = json.dumps({"id": self.node_id}).encode()
        ok, revision = await self._client.txn(
            [Compare(self._keys.controller, "VERSION", 0)], [Op(self._keys.controller, value, lease)]
        )
        if ok:
            self.epoch = revision
            self._pending.everything = True
            log.info("controller_elected", node=self.node_id, epoch=revision)

    async def _write(self, ops: list[Op], compares: list[Compare]) -> tuple[bool, int]:
        return await self._client.txn([self.guard, *compares], ops)

    async def _write_grouped(self, items: list[tuple[str, list[Op], list[Compare]]]) -> set[str]:
        """Write each (topic, ops, compares) item atomically, many items per transaction
        within etcd's limits; the topics of transactions that failed their compares."""
        failed: set[str] = set()
        batch: list[tuple[str, list[Op], list[Compare]]] = []
        size = 0

        async def flush() -> None:
            ops = [o for _, item_ops, _ in batch for o in item_ops]
            compares = [c for _, _, item_compares in batch for c in item_compares]
            ok, _ = await self._write(ops, compares)
            if not ok:
                failed.update(name for name, _, _ in batch)

        for name, ops, compares in items:
            n = sum(len(o.value or b"") for o in ops)
            count = len(batch) and max(
                sum(len(i[1]) for i in batch) + len(ops), sum(len(i[2]) for i in batch) + len(compares) + 1
            )
            if batch and (count > MAX_TXN_OPS or size + n > MAX_TXN_BYTES):
                await flush()
                batch, size = [], 0
            batch.append((name, ops, compares))
            size += n
        if batch:
            await flush()
        return failed

    async def reconcile(self) -> None:
        """Give every partition a live leader where one can be had, drop gone and stopping
        brokers from the ISRs, finish reassignments (batched txns): for the topics that
        changed since the last pass, or every topic when the brokers changed."""
        mirror = self._mirror()
        view = ClusterView(self._keys, mirror)
        live = {b: epoch for b, (epoch, _) in view.live_brokers().items()}
        down = view.shutting_down()
        pending, self._pending = self._pending, Changes()
        brokers_now = (tuple(sorted(live.items())), tuple(sorted(down)))
        now = trio.current_time()
        if pending.everything or brokers_now != self._brokers_seen or now >= self._next_full:
            names = sorted(mirror.topic_names())
            self._next_full = now + FULL_RECONCILE_S
        else:
            names = sorted(pending.topics)
        self._brokers_seen = brokers_now
        items: list[tuple[str, list[Op], list[Compare]]] = []
        changed = 0
        for name in names:
            record = mirror.record(name)
            if record is None:
                continue
            unclean = unclean_allowed(record, self._settings.unclean_leader_election_enable)
            moved = {
                i
                for i, p in enumerate(record.partitions)
                if finish_reassignment(p, live, down) | elect(p, live, shutting_down=down, unclean=unclean)
            }
            legacy = b'"count":' not in mirror[self._keys.topic(name)].value
            if not moved and not legacy:
                continue
            changed += len(moved)
            ops, compares = view.writes(record, {chunk_of(i) for i in moved} or {0})
            items.append((name, ops, compares))
        if items:
            failed = await self._write_grouped(items)
            self._pending.topics |= failed  # looked at again once the mirror has moved
        if changed:
            log.info(
                "controller_leaders_changed", partitions=changed, live_brokers=sorted(live), shutting_down=sorted(down)
            )

    async def _maybe_rebalance(self) -> None:
        """auto.leader.rebalance.enable: every leader.imbalance.check.interval.seconds, move
        leadership back to the preferred replica on brokers whose share of preferred
        partitions led elsewhere passes leader.imbalance.per.broker.percentage."""
        if not self._settings.auto_leader_rebalance_enable:
            return
        now = trio.current_time()
        if self._next_rebalance == 0.0:
            self._next_rebalance = now + self._settings.leader_imbalance_check_interval_seconds
        if now < self._next_rebalance:
            return
        self._next_rebalance = now + self._settings.leader_imbalance_check_interval_seconds
        await self.rebalance()

    async def rebalance(self) -> int:
        """One preferred-leader pass over imbalanced brokers; returns the partitions moved."""
        view = ClusterView(self._keys, self._mirror())
        live = {b: epoch for b, (epoch, _) in view.live_brokers().items()}
        down = view.shutting_down()
        limit = self._settings.leader_imbalance_per_broker_percentage / 100
        records = view.mirror.records()
        preferred: dict[int, int] = {}
        elsewhere: dict[int, int] = {}
        for record in records.values():
            for p in record.partitions:
                if not p["replicas"]:
                    continue
                first = p["replicas"][0]
                preferred[first] = preferred.get(first, 0) + 1
                if p["leader"] != first:
                    elsewhere[first] = elsewhere.get(first, 0) + 1
        imbalanced = {b for b, n in elsewhere.items() if preferred[b] and n / preferred[b] > limit}
        if not imbalanced:
            return 0
        items: list[tuple[str, list[Op], list[Compare]]] = []
        moved = 0
        for name, record in sorted(records.items()):
            indices = set()
            for i, p in enumerate(record.partitions):
                if p["replicas"] and p["replicas"][0] in imbalanced and p["leader"] != p["replicas"][0]:
                    if preferred_election(p, live, down) == ErrorCode.NONE:
                        indices.add(i)
            if indices:
                moved += len(indices)
                ops, compares = view.writes(record, {chunk_of(i) for i in indices})
                items.append((name, ops, compares))
        if items:
            self._pending.topics |= await self._write_grouped(items)
        if moved:
            log.info("controller_preferred_leaders_elected", partitions=moved, brokers=sorted(imbalanced))
        return moved

    async def _maybe_compact(self) -> None:
        """Compact etcd's revision history older than COMPACT_RETENTION_S (every write
        keeps a revision of the keys it touched until compacted; etcd's 2 GiB default
        quota would fill with the history of ISR changes otherwise)."""
        now = trio.current_time()
        if now < self._next_compact:
            return
        self._next_compact = now + COMPACT_EVERY_S
        self._revisions.append((now, self._revision()))
        old = [rev for t, rev in self._revisions if now - t >= COMPACT_RETENTION_S]
        self._revisions = [(t, rev) for t, rev in self._revisions if now - t < COMPACT_RETENTION_S]
        if old and old[-1] > 0:
            await self._client.compact(old[-1])
            log.info("etcd_compacted", revision=old[-1])

    async def process_requests(self) -> None:
        mirror = self._mirror()
        pending = sorted(mirror.section(self._keys.requests).values(), key=lambda kv: kv.mod_revision)
        for kv in pending:
            request_id = kv.key[len(self._keys.requests) :].decode()
            await self.execute(request_id, kv)
            if not self._holds():
                return

    async def execute(self, request_id: str, kv: KeyValue) -> None:
        """Apply one request and answer it (the result is attached to the requester's lease)."""
        view = ClusterView(self._keys, self._mirror())
        items: list[tuple[str, list[Op], list[Compare]]] = []
        ops: list[Op] = []
        compares: list[Compare] = []
        try:
            request = json.loads(kv.value)
            if request.get("op") == "create_topics":
                writes, result = execute_create_topics(
                    view, request, settings=self._settings, broker_defaults=self._broker_defaults(), rng=self._rng
                )
                items = [(f"create-{i}", o, c) for i, (o, c) in enumerate(writes)]
            else:
                ops, compares, result = execute_request(
                    view, request, settings=self._settings, broker_defaults=self._broker_defaults(), rng=self._rng
                )
                if "topic" in result:
                    # The requester takes the topic from its image; a summary keeps the
                    # result small whatever the partition count.
                    record = TopicRecord.decode(
                        request.get("name", ""), json.dumps({**result["topic"], "internal": False}).encode()
                    )
                    result = {"topic": summary(record)}
        except KafkaError as exc:
            items, ops, compares, result = [], [], [], {"error": int(exc.code), "message": exc.detail}
        except (ValueError, KeyError, TypeError) as exc:
            items, ops, compares = [], [], []
            result = {"error": int(ErrorCode.INVALID_REQUEST), "message": f"malformed metadata request: {exc}"}
        done = [
            Op(self._keys.request(request_id)),
            Op(self._keys.result(request_id), json.dumps(result).encode(), kv.lease),
        ]
        exists = Compare(self._keys.request(request_id), "MOD", kv.mod_revision)
        try:
            if items:
                # Many topics: all but the last transaction carry topics only; the request
                # is answered with the last, so a retried request finds them created.
                last = items[-1]
                failed = await self._write_grouped(items[:-1]) if len(items) > 1 else set()
                ok, _ = await self._write([*last[1], *done], [*last[2], exists])
                ok = ok and not failed
            else:
                ok, _ = await self._write([*ops, *done], [*compares, exists])
        except EtcdError:
            # The requester's lease is gone (it stopped): drop the request.
            await self._client.txn([self.guard, exists], [Op(self._keys.request(request_id))])
            return
        if ok and (ops or items):
            log.info("controller_applied", op=request.get("op"), topic=request.get("name"), topics=len(items) or None)
        # Not ok: the mirror was behind; the request is still there for the next round.
