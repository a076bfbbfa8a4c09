"""Batching by coordinator: one FindCoordinator for many keys, then one request per
coordinator carrying every key it owns (ShareGroupDescribe, DescribeShareGroupOffsets,
ConsumerGroupDescribe, OffsetFetch v8+ and DescribeGroups all take many groups)."""

from __future__ import annotations

from collections.abc import Sequence

from broker.admin.client import COORDINATOR_GROUP, AdminClient, KafkaApiError, Node


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
