"""Streams topologies (KIP-1071) and how the coordinator configures them.

The first member to join initialises the group's topology: subtopologies with
their source topics (names and regular expressions), repartition source and
sink topics, state changelog topics, and copartition groups. :func:`configure`
checks it against the topic metadata, as Kafka 4.4's ``InternalTopicManager``
does:

* source topics must exist (else the MISSING_SOURCE_TOPICS status); a regular
  expression source adds every topic it matches in full (RE2 syntax, as the
  consumer groups' regexes);
* repartition topics without a fixed partition count take the largest task
  count of the subtopologies writing to them; a subtopology has as many tasks
  as its largest source; changelog topics have one partition per task;
* copartitioned topics must agree on their partition count
  (INCORRECTLY_PARTITIONED_TOPICS otherwise);
* internal topics that do not exist are returned as the topics to create
  (MISSING_INTERNAL_TOPICS); existing ones with another partition count give
  INCORRECTLY_PARTITIONED_TOPICS.

Only a configured ("ready") topology gets tasks.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from broker.group.regex import compile_error, resolve
from broker.group.shard_api import TopicImage
from broker.protocol.messages import streams_group_heartbeat_request as wire

__all__ = ["Configured", "Status", "Subtopology", "TopicInfo", "Topology", "configure"]


class Status(enum.IntEnum):
    """StreamsGroupHeartbeatResponse.Status codes."""

    STALE_TOPOLOGY = 0
    MISSING_SOURCE_TOPICS = 1
    INCORRECTLY_PARTITIONED_TOPICS = 2
    MISSING_INTERNAL_TOPICS = 3
    SHUTDOWN_APPLICATION = 4
    ASSIGNMENT_DELAYED = 5
    MISSING_CLIENT_TAGS = 6


@dataclass(frozen=True, slots=True)
class TopicInfo:
    name: str
    partitions: int = 0  # 0: derived
    replication_factor: int = 0  # 0: the broker default
    configs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Subtopology:
    subtopology_id: str
    source_topics: tuple[str, ...] = ()
    source_topic_regex: tuple[str, ...] = ()
    state_changelog_topics: tuple[TopicInfo, ...] = ()
    repartition_sink_topics: tuple[str, ...] = ()
    repartition_source_topics: tuple[TopicInfo, ...] = ()
    # Each group as (source topic indexes, regex indexes, repartition source indexes).
    copartition_groups: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...] = ()

    def copartitioned_names(self, regex_matches: Mapping[str, tuple[str, ...]]) -> list[tuple[str, ...]]:
        out = []
        for sources, regexes, repartitions in self.copartition_groups:
            names = [self.source_topics[i] for i in sources if 0 <= i < len(self.source_topics)]
            for i in regexes:
                if 0 <= i < len(self.source_topic_regex):
                    names += regex_matches.get(self.source_topic_regex[i], ())
            names += [
                self.repartition_source_topics[i].name
                for i in repartitions
                if 0 <= i < len(self.repartition_source_topics)
            ]
            out.append(tuple(names))
        return out


@dataclass(frozen=True, slots=True)
class Topology:
    epoch: int
    subtopologies: tuple[Subtopology, ...]

    @classmethod
    def from_wire(cls, t: wire.Topology) -> Topology:
        return cls(
            t.epoch,
            tuple(
                Subtopology(
                    s.subtopology_id,
                    tuple(s.source_topics),
                    tuple(s.source_topic_regex),
                    tuple(_topic_info(i) for i in s.state_changelog_topics),
                    tuple(s.repartition_sink_topics),
                    tuple(_topic_info(i) for i in s.repartition_source_topics),
                    tuple(
                        (tuple(g.source_topics), tuple(g.source_topic_regex), tuple(g.repartition_source_topics))
                        for g in s.copartition_groups
                    ),
                )
                for s in t.subtopologies
            ),
        )

    def regex_error(self) -> str | None:
        for s in self.subtopologies:
            for pattern in s.source_topic_regex:
                error = compile_error(pattern)
                if error is not None:
                    return f"SourceTopicRegex `{pattern}` is not a valid regular expression: {error}."
        return None

    def topic_names(self) -> set[str]:
        """Every topic name the topology refers to (not the regex matches)."""
        names = {t for s in self.subtopologies for t in s.source_topics}
        names |= {t for s in self.subtopologies for t in s.repartition_sink_topics}
        names |= {i.name for s in self.subtopologies for i in (*s.repartition_source_topics, *s.state_changelog_topics)}
        return names


def _topic_info(i: wire.TopicInfo) -> TopicInfo:
    return TopicInfo(i.name, i.partitions, i.replication_factor, tuple((c.key, c.value) for c in i.topic_configs))


@dataclass(frozen=True, slots=True)
class ConfiguredSubtopology:
    """A subtopology as the coordinator configured it (what StreamsGroupDescribe shows)."""

    subtopology_id: str
    source_topics: tuple[str, ...]
    repartition_sink_topics: tuple[str, ...]
    state_changelog_topics: tuple[TopicInfo, ...]
    repartition_source_topics: tuple[TopicInfo, ...]
    tasks: int


@dataclass(frozen=True, slots=True)
class Configured:
    """A topology checked against the topic metadata."""

    tasks: Mapping[str, int]  # subtopology -> number of tasks (empty unless ready)
    statuses: tuple[tuple[Status, str], ...] = ()
    to_create: tuple[TopicInfo, ...] = ()
    subtopologies: tuple[ConfiguredSubtopology, ...] | None = None  # None unless the sources exist
    # subtopology -> the topics its tasks read (sources, regex matches, repartition sources)
    inputs: Mapping[str, tuple[str, ...]] = ()  # type: ignore[assignment]

    @property
    def ready(self) -> bool:
        return not self.statuses


def _regex_matches(topology: Topology, names: Iterable[str]) -> dict[str, tuple[str, ...]]:
    names = list(names)
    out: dict[str, tuple[str, ...]] = {}
    for s in topology.subtopologies:
        for pattern in s.source_topic_regex:
            if pattern not in out and compile_error(pattern) is None:
                out[pattern] = resolve(pattern, names)
    return out


def configure(topology: Topology, topics: TopicImage) -> Configured:
    matches = _regex_matches(topology, topics.topic_names())
    sources: dict[str, tuple[str, ...]] = {}
    for s in topology.subtopologies:
        found = list(s.source_topics)
        for pattern in s.source_topic_regex:
            found += [t for t in matches.get(pattern, ()) if t not in found]
        sources[s.subtopology_id] = tuple(found)
    missing_sources = sorted({t for s in topology.subtopologies for t in s.source_topics if topics.topic(t) is None})
    if missing_sources:
        return Configured(
            {}, ((Status.MISSING_SOURCE_TOPICS, f"Source topics {', '.join(missing_sources)} are missing."),)
        )
    tasks, repartition = _task_counts(topology, topics, sources)
    statuses = _copartitioning_statuses(topology, topics, matches, repartition)
    configured: list[ConfiguredSubtopology] = []
    wanted: list[TopicInfo] = []
    for s in topology.subtopologies:
        rep = tuple(replace(info, partitions=repartition[info.name]) for info in s.repartition_source_topics)
        changelogs = tuple(replace(info, partitions=tasks[s.subtopology_id]) for info in s.state_changelog_topics)
        wanted += [*rep, *changelogs]
        configured.append(
            ConfiguredSubtopology(
                s.subtopology_id,
                tuple(sorted(sources[s.subtopology_id])),
                tuple(s.repartition_sink_topics),
                changelogs,
                rep,
                tasks[s.subtopology_id],
            )
        )
    to_create = _internal_topics_to_create(topics, wanted, statuses)
    inputs = {
        s.subtopology_id: (*sources[s.subtopology_id], *(i.name for i in s.repartition_source_topics))
        for s in topology.subtopologies
    }
    if statuses:
        return Configured({}, tuple(statuses), tuple(to_create), tuple(configured), inputs)
    return Configured(tasks, (), (), tuple(configured), inputs)


def _task_counts(
    topology: Topology, topics: TopicImage, sources: Mapping[str, tuple[str, ...]]
) -> tuple[dict[str, int], dict[str, int]]:
    """(tasks per subtopology, partitions per repartition topic): a subtopology has as many
    tasks as its largest source; a repartition topic has its fixed count, else the largest
    task count of the subtopologies writing to it (iterated until it settles)."""
    repartition: dict[str, int] = {}
    fixed: set[str] = set()
    for s in topology.subtopologies:
        for info in s.repartition_source_topics:
            repartition[info.name] = info.partitions
            if info.partitions > 0:
                fixed.add(info.name)
    tasks: dict[str, int] = {}
    for _ in range(len(topology.subtopologies) + 1):
        for s in topology.subtopologies:
            source_counts = [
                source.partitions for t in sources[s.subtopology_id] if (source := topics.topic(t)) is not None
            ]
            source_counts += [
                repartition[i.name] for i in s.repartition_source_topics if repartition.get(i.name, 0) > 0
            ]
            tasks[s.subtopology_id] = max(source_counts, default=0)
            for sink in s.repartition_sink_topics:
                if sink in repartition and sink not in fixed:
                    repartition[sink] = max(repartition[sink], tasks[s.subtopology_id])
    return tasks, repartition


def _copartitioning_statuses(
    topology: Topology,
    topics: TopicImage,
    matches: Mapping[str, tuple[str, ...]],
    repartition: Mapping[str, int],
) -> list[tuple[Status, str]]:
    """INCORRECTLY_PARTITIONED_TOPICS for each co-partition group whose topics differ in partitions."""
    statuses: list[tuple[Status, str]] = []
    for s in topology.subtopologies:
        for group in s.copartitioned_names(matches):
            counts: dict[str, int] = {}
            for t in group:
                image_topic = topics.topic(t)
                counts[t] = image_topic.partitions if image_topic is not None else repartition.get(t, 0)
            if len(set(counts.values())) > 1:
                statuses.append(
                    (
                        Status.INCORRECTLY_PARTITIONED_TOPICS,
                        f"Following topics do not have the same number of partitions: {dict(sorted(counts.items()))}",
                    )
                )
    return statuses


def _internal_topics_to_create(
    topics: TopicImage, wanted: list[TopicInfo], statuses: list[tuple[Status, str]]
) -> list[TopicInfo]:
    """The internal topics that do not exist yet (MISSING_INTERNAL_TOPICS); an existing one
    with another partition count is INCORRECTLY_PARTITIONED_TOPICS."""
    to_create: list[TopicInfo] = []
    for info in wanted:
        existing = topics.topic(info.name)
        if existing is None:
            if all(t.name != info.name for t in to_create):
                to_create.append(info)
        elif existing.partitions != info.partitions:
            statuses.append(
                (
                    Status.INCORRECTLY_PARTITIONED_TOPICS,
                    f"Existing internal topic {info.name} has invalid number of partitions: "
                    f"{existing.partitions}, expected: {info.partitions}.",
                )
            )
    if to_create:
        statuses.append(
            (
                Status.MISSING_INTERNAL_TOPICS,
                f"Internal topics are missing: {', '.join(sorted(i.name for i in to_create))}",
            )
        )
    return to_create
