"""KIP-1071 streams groups: the pure core (:class:`StreamsGroups`), topologies and their
configuration, the sticky task assignor, and the records in Kafka 4.4's format."""

from broker.group.streams.assignor import TaskMember, Tasks, sticky_assign
from broker.group.streams.core import (
    GROUP_TYPE,
    HeartbeatOutcome,
    StreamsCommitCheck,
    StreamsGroup,
    StreamsGroupConfig,
    StreamsGroups,
    StreamsMember,
)
from broker.group.streams.records import Record, RecordType
from broker.group.streams.topology import Configured, Status, Subtopology, TopicInfo, Topology, configure

__all__ = [
    "GROUP_TYPE",
    "Configured",
    "HeartbeatOutcome",
    "Record",
    "RecordType",
    "Status",
    "StreamsCommitCheck",
    "StreamsGroup",
    "StreamsGroupConfig",
    "StreamsGroups",
    "StreamsMember",
    "Subtopology",
    "TaskMember",
    "Tasks",
    "TopicInfo",
    "Topology",
    "configure",
    "sticky_assign",
]
