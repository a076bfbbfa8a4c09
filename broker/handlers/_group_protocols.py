"""Shared by ConsumerGroupHeartbeat (68) and StreamsGroupHeartbeat (88): a group
protocol left out of ``group.coordinator.rebalance.protocols`` is refused."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TypeVar

from broker.protocol.errors import ErrorCode

R = TypeVar("R")


def protocol_disabled(protocol: str, enabled: Collection[str], response: Callable[..., R]) -> R | None:
    """UNSUPPORTED_VERSION as ``response(error_code=, error_message=)`` when ``protocol``
    ("consumer", "streams") is not among the ``enabled`` ones; None when it is."""
    if protocol in enabled:
        return None
    return response(
        error_code=ErrorCode.UNSUPPORTED_VERSION,
        error_message=f"The {protocol} group protocol is disabled (group.coordinator.rebalance.protocols).",
    )
