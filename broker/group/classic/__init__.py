"""Classic groups (JoinGroup/SyncGroup/Heartbeat/LeaveGroup): the pure core
(:class:`ClassicGroups`) and its GroupMetadata records. There is no assignor here:
a classic group's leader assigns on the client."""

from broker.group.classic.core import ClassicGroups
from broker.group.classic.model import (
    VALID_PREVIOUS,
    ClassicGroup,
    CoordinatorConfig,
    GroupState,
    ListedGroup,
    Member,
    Pending,
)

__all__ = [
    "VALID_PREVIOUS",
    "ClassicGroup",
    "ClassicGroups",
    "CoordinatorConfig",
    "GroupState",
    "ListedGroup",
    "Member",
    "Pending",
]
