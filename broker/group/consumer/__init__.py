"""KIP-848 consumer groups: the pure core (:class:`ConsumerGroups`), its assignors,
reconciliation table, records and settings."""

from broker.group.consumer.assignor import ASSIGNORS, MemberSpec, range_assign, uniform_assign
from broker.group.consumer.config import ConsumerGroupConfig, MigrationPolicy
from broker.group.consumer.core import (
    CommitCheck,
    ConsumerGroup,
    ConsumerGroups,
    ConsumerGroupState,
    GroupDirectory,
)
from broker.group.consumer.reconcile import STEPS, MemberAssignment, MemberState, reconcile
from broker.group.consumer.records import Record, RecordType

__all__ = [
    "ASSIGNORS",
    "STEPS",
    "CommitCheck",
    "ConsumerGroup",
    "ConsumerGroupConfig",
    "ConsumerGroupState",
    "ConsumerGroups",
    "GroupDirectory",
    "MemberAssignment",
    "MemberSpec",
    "MemberState",
    "MigrationPolicy",
    "Record",
    "RecordType",
    "range_assign",
    "reconcile",
    "uniform_assign",
]
