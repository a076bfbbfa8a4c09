"""Group coordination: share groups (KIP-932), consumer groups elsewhere.

Everything in this package is pure: callers pass the time, read topic
metadata through a small interface and persist the records they are handed.
"""

from broker.group.assignor import ASSIGNOR_NAME, assign
from broker.group.records import PersistedRecord
from broker.group.share_group import (
    DeleteResult,
    ExpiryResult,
    GroupState,
    GroupType,
    HeartbeatResult,
    ShareGroupCoordinator,
    TopicMetadata,
    TopicTable,
)

__all__ = [
    "ASSIGNOR_NAME",
    "DeleteResult",
    "ExpiryResult",
    "GroupState",
    "GroupType",
    "HeartbeatResult",
    "PersistedRecord",
    "ShareGroupCoordinator",
    "TopicMetadata",
    "TopicTable",
    "assign",
]
