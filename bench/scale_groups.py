"""Many consumer groups and share groups on one cluster, for ``make bench-scale-cluster``.

The same method for sharebroker and Kafka 4.4, over the Kafka protocol with this
project's admin client (:mod:`broker.admin.client`, which works against both):

- a topic ``groups-10`` of 10 partitions (the layout's replication factor) with
  ``RECORDS`` records in each partition;
- ``consumer`` consumer groups, each committing an offset for all 10 partitions
  (OffsetCommit as an admin tool sends it: no member, generation -1, as Kafka's
  ``alterConsumerGroupOffsets`` does), and ``share`` share groups, each with the
  start offsets of all 10 share-partitions set by AlterShareGroupOffsets (which
  initialises their state in the share coordinator). Every group gets its own
  offsets (:func:`offset`), so a group answering another's would be seen;
- the requests go to each group's coordinator (FindCoordinator v4 for many groups
  at once), pipelined, ``WINDOW`` in flight per connection;
- **after a restart**, every group is asked again (OffsetFetch v8+ and
  DescribeShareGroupOffsets, ``BATCH`` groups per request, each to its
  coordinator), round after round, until every group answers with its own
  offsets: a group answering a retriable error (COORDINATOR_LOAD_IN_PROGRESS,
  NOT_COORDINATOR...) or other offsets than its own (a coordinator that has not
  loaded it yet may answer "no offsets") is asked again in the next round; the
  time to the answer that completes each kind is the coordinator's load time.
  Every group is checked, none sampled.

Every call is bounded by a deadline; a wrong answer that never becomes right ends
in :class:`TimedOut` naming the groups left.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from broker.admin.client import (
    AdminClient,
    AdminConnectionError,
    AdminTimeoutError,
    KafkaApiError,
    Node,
)
from broker.protocol.errors import ErrorCode
from broker.protocol.message_base import Message
from broker.protocol.messages.alter_share_group_offsets_request import (
    AlterShareGroupOffsetsRequest,
    AlterShareGroupOffsetsRequestPartition,
    AlterShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.describe_share_group_offsets_request import (
    DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsRequestGroup,
    DescribeShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.offset_commit_request import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from broker.protocol.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestGroup

TOPIC = "groups-10"
PARTITIONS = 10
# Records per partition: the share-partition start offsets set lie inside the log.
RECORDS = 100
# Groups per OffsetFetch (v8+, KIP-709) and per DescribeShareGroupOffsets request:
# both take many groups; 100 keeps a response under ~50 KB.
BATCH = 100
# Requests in flight on one connection while loading (the responses come in order).
WINDOW = 64
# Between two rounds of asking the groups not yet right (after a restart).
ROUND_PAUSE_S = 0.2
# One request's bound (a coordinator that is loading answers at once with an error).
REQUEST_TIMEOUT_S = 30.0


class TimedOut(Exception):
    pass


def consumer_group(i: int) -> str:
    return f"scale-cg-{i:05d}"


def share_group(i: int) -> str:
    return f"scale-sg-{i:05d}"


def index(group: str) -> int:
    return int(group.rsplit("-", 1)[1])


def offset(i: int, partition: int) -> int:
    """The offset group ``i`` keeps for ``partition``: its own, below ``RECORDS``."""
    return (i * 7 + partition * 13) % RECORDS


def expected(group: str) -> dict[int, int]:
    i = index(group)
    return {p: offset(i, p) for p in range(PARTITIONS)}


def _retriable(code: int) -> bool:
    return ErrorCode.for_code(code).retriable


class Wrong:
    """How many answers were not (yet) the group's own offsets, with one example."""

    def __init__(self) -> None:
        self.count = 0
        self.example: str | None = None

    def saw(self, what: str) -> None:
        self.count += 1
        self.example = self.example or what


def _check(code: int, what: str) -> bool:
    """True for no error, False for a retriable one (ask again); raise for the others."""
    if code == 0:
        return True
    if _retriable(code):
        return False
    raise KafkaApiError(code, None, what)


# --------------------------------------------------------------------- requests per kind


def commit_request(groups: list[str]) -> Message:
    (group,) = groups
    parts = [OffsetCommitRequestPartition(partition_index=p, committed_offset=o) for p, o in expected(group).items()]
    return OffsetCommitRequest(
        group_id=group,
        generation_id_or_member_epoch=-1,
        member_id="",
        topics=[OffsetCommitRequestTopic(name=TOPIC, partitions=parts)],
    )


def commit_done(body: Any, groups: list[str], wrong: Wrong) -> set[str]:
    ok = all(_check(p.error_code, f"OffsetCommit({groups[0]!r})") for t in body.topics for p in t.partitions)
    return set(groups) if ok else set()


def alter_request(groups: list[str]) -> Message:
    (group,) = groups
    parts = [
        AlterShareGroupOffsetsRequestPartition(partition_index=p, start_offset=o) for p, o in expected(group).items()
    ]
    return AlterShareGroupOffsetsRequest(
        group_id=group, topics=[AlterShareGroupOffsetsRequestTopic(topic_name=TOPIC, partitions=parts)]
    )


def alter_done(body: Any, groups: list[str], wrong: Wrong) -> set[str]:
    what = f"AlterShareGroupOffsets({groups[0]!r})"
    if not _check(body.error_code, what):
        return set()
    ok = all(_check(p.error_code, what) for t in body.responses for p in t.partitions)
    return set(groups) if ok else set()


def fetch_request(groups: list[str]) -> Message:
    return OffsetFetchRequest(groups=[OffsetFetchRequestGroup(group_id=g, topics=None) for g in groups])


def fetch_done(body: Any, groups: list[str], wrong: Wrong) -> set[str]:
    done = set()
    for g in body.groups:
        if not _check(g.error_code, f"OffsetFetch({g.group_id!r})"):
            continue
        got = {}
        ready = True
        for t in g.topics:
            for p in t.partitions:
                if t.name == TOPIC:
                    ready &= _check(p.error_code, f"OffsetFetch({g.group_id!r}) {t.name}-{p.partition_index}")
                    got[p.partition_index] = p.committed_offset
        if not ready:
            continue
        if got == expected(g.group_id):
            done.add(g.group_id)
        else:
            wrong.saw(f"OffsetFetch({g.group_id!r}) answered {got}")
    return done


def describe_request(groups: list[str]) -> Message:
    topic = [DescribeShareGroupOffsetsRequestTopic(topic_name=TOPIC, partitions=list(range(PARTITIONS)))]
    return DescribeShareGroupOffsetsRequest(
        groups=[DescribeShareGroupOffsetsRequestGroup(group_id=g, topics=topic) for g in groups]
    )


def describe_done(body: Any, groups: list[str], wrong: Wrong) -> set[str]:
    done = set()
    for g in body.groups:
        what = f"DescribeShareGroupOffsets({g.group_id!r})"
        if not _check(g.error_code, what):
            continue
        got = {}
        ready = True
        for t in g.topics:
            for p in t.partitions:
                if t.topic_name == TOPIC:
                    ready &= _check(p.error_code, f"{what} {t.topic_name}-{p.partition_index}")
                    got[p.partition_index] = p.start_offset
        if not ready:
            continue
        if got == expected(g.group_id):
            done.add(g.group_id)
        else:
            wrong.saw(f"{what} answered {got}")
    return done


@dataclass(frozen=True)
class Kind:
    """One kind of request sent to the coordinators of many groups."""

    name: str
    request: type[Message]
    build: Callable[[list[str]], Message]
    done: Callable[[Any, list[str], Wrong], set[str]]
    batch: int
    # Highest version to send: the offset APIs' newest versions name topics by id.
    max_version: int | None = None
    min_version: int = 0


COMMIT = Kind("OffsetCommit", OffsetCommitRequest, commit_request, commit_done, 1, max_version=9)
ALTER = Kind("AlterShareGroupOffsets", AlterShareGroupOffsetsRequest, alter_request, alter_done, 1)
FETCH = Kind("OffsetFetch", OffsetFetchRequest, fetch_request, fetch_done, BATCH, max_version=9, min_version=8)
DESCRIBE = Kind("DescribeShareGroupOffsets", DescribeShareGroupOffsetsRequest, describe_request, describe_done, BATCH)


# --------------------------------------------------------------------- the driver


def _coordinators(admin: AdminClient, groups: Iterable[str]) -> dict[Node, list[str]]:
    by_node: dict[Node, list[str]] = {}
    for group, node in admin.find_coordinators(sorted(groups), timeout=REQUEST_TIMEOUT_S).items():
        if isinstance(node, KafkaApiError):
            if not node.code.retriable:
                raise node
            continue
        by_node.setdefault(node, []).append(group)
    return by_node


def _version(admin: AdminClient, node: Node, kind: Kind) -> int:
    conn = admin.connect(node, timeout=REQUEST_TIMEOUT_S)
    version = conn.version_for(kind.request)
    if kind.max_version is not None:
        version = min(version, kind.max_version)
    if version < kind.min_version:
        raise RuntimeError(
            f"{kind.name} v{kind.min_version}+ needed; the broker at {node.host}:{node.port} has v{version}"
        )
    return version


def _pipeline(admin: AdminClient, node: Node, kind: Kind, groups: list[str], wrong: Wrong) -> set[str]:
    """Send ``kind`` for ``groups`` to ``node``, ``WINDOW`` requests in flight; the groups done."""
    conn = admin.connect(node, timeout=REQUEST_TIMEOUT_S)
    version = _version(admin, node, kind)
    done: set[str] = set()
    in_flight: deque[list[str]] = deque()
    batches = [groups[i : i + kind.batch] for i in range(0, len(groups), kind.batch)]
    for batch in batches:
        conn.send(kind.build(batch), version)
        in_flight.append(batch)
        if len(in_flight) >= WINDOW:
            done |= kind.done(conn.receive(REQUEST_TIMEOUT_S).body, in_flight.popleft(), wrong)
    while in_flight:
        done |= kind.done(conn.receive(REQUEST_TIMEOUT_S).body, in_flight.popleft(), wrong)
    return done


def drive(
    bootstrap: str,
    kinds: dict[Kind, list[str]],
    deadline: float,
    started: float | None = None,
) -> dict[str, Any]:
    """Round after round until every group of every kind is done (or ``deadline``,
    monotonic): returns, per kind, the seconds from ``started`` (default: now) to the
    answer that completed it, and the wrong answers seen."""
    started = time.monotonic() if started is None else started
    pending = {kind: set(groups) for kind, groups in kinds.items()}
    wrong = Wrong()
    out: dict[str, Any] = {}
    last_error: str | None = None
    rounds = 0
    while any(pending.values()):
        if time.monotonic() > deadline:
            left = {k.name: len(v) for k, v in pending.items() if v}
            raise TimedOut(
                f"groups left {left} (e.g. {sorted(next(v for v in pending.values() if v))[:2]}); "
                f"wrong answers {wrong.count} (e.g. {wrong.example}); last error: {last_error}"
            )
        rounds += 1
        try:
            with AdminClient(bootstrap, timeout=REQUEST_TIMEOUT_S) as admin:
                for kind, groups in pending.items():
                    if not groups:
                        continue
                    for node, mine in _coordinators(admin, groups).items():
                        groups -= _pipeline(admin, node, kind, mine, wrong)
                    if not groups:
                        out[kind.name] = round(time.monotonic() - started, 2)
        except (AdminConnectionError, AdminTimeoutError) as exc:
            last_error = f"{type(exc).__name__}: {exc}"
        if any(pending.values()):
            time.sleep(ROUND_PAUSE_S)
    out["rounds"] = rounds
    out["wrong_answers"] = wrong.count
    if wrong.example:
        out["wrong_example"] = wrong.example
    return out
