"""Group coordination: classic groups, consumer groups (KIP-848, :mod:`.consumer`),
streams groups (KIP-1071, :mod:`.streams`) and share groups (KIP-932).

The cores are pure: callers pass the time, read topic metadata through a small
interface and persist the records they are handed; :mod:`.coordinator` hosts
them on the coordinator runtime.
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
