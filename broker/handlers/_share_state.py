"""What the share-state RPCs (83-87: Initialize, Read, Write, Delete,
ReadSummary ShareGroupState) answer alike.

Each request names a group and, by topic, the share-partitions to act on; each
answer lists, by topic in request order, one result a partition. Kafka's share
coordinator answers an empty response (no results at all) when the group id is
empty, there are no topics, or any topic lists no partitions. The partitions are
served at once, so the fsyncs of their writes share rounds. What differs between
the RPCs is what one partition asks of the share coordinator's store and how its
outcome is answered: each module gives that as a function of the store, the group
id, the request's topic and the partition.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

import trio

from broker.handlers.context import RequestContext
from broker.share.state_store import ShareStateStore

R = TypeVar("R")


class ShareStateRequest(Protocol):
    @property
    def group_id(self) -> str: ...

    @property
    def topics(self) -> Sequence[Any]: ...


async def answer_by_partition(
    ctx: RequestContext,
    req: ShareStateRequest,
    response: Callable[..., R],
    topic_result: Callable[..., Any],
    one: Callable[[ShareStateStore, str, Any, Any], Awaitable[Any]],
) -> R:
    """``response(results=[topic_result(topic_id=, partitions=[...]), ...])`` with
    ``await one(store, group_id, topic, partition)`` for every partition of the request."""
    if not req.group_id or not req.topics or any(not topic.partitions for topic in req.topics):
        return response(results=[])
    store = ctx.services.share_state
    out: list[list[Any]] = [[None] * len(topic.partitions) for topic in req.topics]

    async def run(i: int, j: int, topic: Any, partition: Any) -> None:
        out[i][j] = await one(store, req.group_id, topic, partition)

    async with trio.open_nursery() as nursery:
        for i, topic in enumerate(req.topics):
            for j, partition in enumerate(topic.partitions):
                nursery.start_soon(run, i, j, topic, partition)
    return response(results=[topic_result(topic_id=t.topic_id, partitions=a) for t, a in zip(req.topics, out)])
