"""Batching by coordinator: one FindCoordinator for many keys, then one request per
coordinator carrying every key it owns (ShareGroupDescribe, DescribeShareGroupOffsets,
ConsumerGroupDescribe, OffsetFetch v8+ and DescribeGroups all take many groups)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from broker.admin.client import COORDINATOR_GROUP, AdminClient, AdminError, KafkaApiError, Node
from broker.protocol.message_base import Message


class Row(Protocol):
    """A row of a list page: what went wrong reading it, if anything."""

    error: str | None


R = TypeVar("R", bound=Row)


def group_by_coordinator(
    admin: AdminClient, keys: Sequence[str], key_type: int = COORDINATOR_GROUP
) -> tuple[dict[Node, list[str]], dict[str, KafkaApiError]]:
    """(coordinator -> its keys, key -> error for keys without a coordinator)."""
    found = admin.find_coordinators(list(keys), key_type=key_type)
    by_node: dict[Node, list[str]] = {}
    errors: dict[str, KafkaApiError] = {}
    for key in keys:
        where = found[key]
        if isinstance(where, KafkaApiError):
            errors[key] = where
        else:
            by_node.setdefault(where, []).append(key)
    return by_node, errors


def describe_at_coordinators(
    admin: AdminClient,
    rows: Mapping[str, R],
    request: Callable[[list[str]], Message],
    answers: Callable[[Any], Iterable[tuple[str, Any, str | None]]],
    key_type: int = COORDINATOR_GROUP,
) -> Iterator[tuple[Node, list[str], list[tuple[R, Any]]]]:
    """Send ``request(keys)`` to each coordinator of the rows' keys: (coordinator, its keys,
    each row with its entry in the answer). ``answers`` reads an answer's entries as (key,
    entry, error or None). A row whose key has no coordinator, whose coordinator fails, or
    whose entry has an error gets the error instead."""
    by_node, errors = group_by_coordinator(admin, list(rows), key_type)
    for k, exc in errors.items():
        rows[k].error = str(exc)
    for node, keys in by_node.items():
        try:
            resp = admin.send(request(keys), node=node)
        except AdminError as exc:
            for k in keys:
                rows[k].error = str(exc)
            continue
        described = []
        for k, entry, error in answers(resp):
            row = rows.get(k)
            if row is None:
                continue
            if error is not None:
                row.error = error
                continue
            described.append((row, entry))
        yield node, keys, described
