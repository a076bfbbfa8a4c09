"""Share groups (KIP-932 membership): the pure core (:class:`ShareGroups`), its state and
results (``model``), the simple assignor and the share-group records of ``__consumer_offsets``."""

from broker.group.share.assignor import ASSIGNOR_NAME, assign
from broker.group.share.core import (
    DeleteResult,
    ExpiryResult,
    GroupState,
    GroupType,
    HeartbeatResult,
    ShareGroups,
    ShareHeartbeat,
    TopicMetadata,
    TopicTable,
)
from broker.group.share.records import PersistedRecord

__all__ = [
    "ASSIGNOR_NAME",
    "DeleteResult",
    "ExpiryResult",
    "GroupState",
    "GroupType",
    "HeartbeatResult",
    "PersistedRecord",
    "ShareGroups",
    "ShareHeartbeat",
    "TopicMetadata",
    "TopicTable",
    "assign",
]
