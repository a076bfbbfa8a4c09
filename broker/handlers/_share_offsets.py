"""Shared by AlterShareGroupOffsets (91) and DeleteShareGroupOffsets (92): both change
the offsets of one share group through :mod:`broker.group.share_offsets`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from broker.group.share_offsets import ShareOffsetsEnv
from broker.handlers.context import RequestContext


class _GroupRequest(Protocol):
    group_id: str


class _Throttled(Protocol):
    throttle_time_ms: int


Q = TypeVar("Q", bound=_GroupRequest)
R = TypeVar("R", bound=_Throttled)


async def change_offsets(ctx: RequestContext, req: Q, change: Callable[[ShareOffsetsEnv, Q], Awaitable[R]]) -> R:
    """``change`` (alter_offsets or delete_offsets) for the request's group; never throttled."""
    env = await ShareOffsetsEnv.for_group(ctx.services.share_offsets, req.group_id)
    response = await change(env, req)
    response.throttle_time_ms = 0
    return response
