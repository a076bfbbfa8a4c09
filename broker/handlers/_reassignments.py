"""Shared by ElectLeaders (43) and AlterPartitionReassignments (45): the controller
answers each partition as (topic, partition, error code, message), and both responses
list those results by topic, in the controller's order."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

P = TypeVar("P")


def results_by_topic(
    answers: Iterable[tuple[str, int, int, str | None]], result: Callable[[int, int, str | None], P]
) -> dict[str, list[P]]:
    """Each topic's ``result(partition, error code, message)`` entries."""
    by_topic: dict[str, list[P]] = {}
    for topic, index, code, message in answers:
        by_topic.setdefault(topic, []).append(result(index, code, message))
    return by_topic
