"""Consumer-group records as ``__consumer_offsets`` bytes, in Kafka 4.4's format.

:mod:`.records` holds the typed records the core produces and replays; this
module frames them the way Kafka's ``CoordinatorRecordSerde`` does, so a log
written here reads the same as a Kafka broker's:

* key   = int16 record type (the key schema's api key) + the key struct (v0);
* value = int16 value version (0) + the value struct, or no value (a tombstone).

Every record is a keyed upsert: the runtime keeps the live record per key and
rewrites the log from them, so the encoding of a state is deterministic
(topics and partitions sorted).

Type 4 (ConsumerGroupPartitionMetadata) is read and ignored: Kafka 4.4 no
longer writes it (the metadata hash in type 3 replaced it).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping

from broker.group.consumer.reconcile import MemberAssignment, MemberState
from broker.group.consumer.records import (
    ClassicMemberMetadata,
    GroupEpochValue,
    MemberValue,
    Record,
    RecordType,
    RegexValue,
    TargetEpochValue,
    TargetMemberValue,
    Value,
)
from broker.group.modern import assignment_epochs
from broker.group.offsets import decode_group_record, frame_record, group_key
from broker.group.shard_api import merged_partitions, sorted_wire
from broker.protocol.message_base import Message
from broker.protocol.messages import consumer_group_current_member_assignment_value as current_msg
from broker.protocol.messages import consumer_group_member_metadata_value as member_msg
from broker.protocol.messages import consumer_group_target_assignment_member_value as target_msg
from broker.protocol.messages.consumer_group_current_member_assignment_key import (
    ConsumerGroupCurrentMemberAssignmentKey,
)
from broker.protocol.messages.consumer_group_member_metadata_key import ConsumerGroupMemberMetadataKey
from broker.protocol.messages.consumer_group_metadata_key import ConsumerGroupMetadataKey
from broker.protocol.messages.consumer_group_metadata_value import ConsumerGroupMetadataValue
from broker.protocol.messages.consumer_group_partition_metadata_key import ConsumerGroupPartitionMetadataKey
from broker.protocol.messages.consumer_group_partition_metadata_value import ConsumerGroupPartitionMetadataValue
from broker.protocol.messages.consumer_group_regular_expression_key import ConsumerGroupRegularExpressionKey
from broker.protocol.messages.consumer_group_regular_expression_value import ConsumerGroupRegularExpressionValue
from broker.protocol.messages.consumer_group_target_assignment_member_key import (
    ConsumerGroupTargetAssignmentMemberKey,
)
from broker.protocol.messages.consumer_group_target_assignment_metadata_key import (
    ConsumerGroupTargetAssignmentMetadataKey,
)
from broker.protocol.messages.consumer_group_target_assignment_metadata_value import (
    ConsumerGroupTargetAssignmentMetadataValue,
)

__all__ = ["RECORD_TYPES", "decode", "encode"]

_VALUE_VERSION = 0

# record type -> (key class, value class)
RECORD_TYPES: dict[int, tuple[type[Message], type[Message]]] = {
    RecordType.GROUP: (ConsumerGroupMetadataKey, ConsumerGroupMetadataValue),
    RecordType.PARTITION_METADATA: (ConsumerGroupPartitionMetadataKey, ConsumerGroupPartitionMetadataValue),
    RecordType.MEMBER: (ConsumerGroupMemberMetadataKey, member_msg.ConsumerGroupMemberMetadataValue),
    RecordType.TARGET_EPOCH: (ConsumerGroupTargetAssignmentMetadataKey, ConsumerGroupTargetAssignmentMetadataValue),
    RecordType.TARGET_MEMBER: (
        ConsumerGroupTargetAssignmentMemberKey,
        target_msg.ConsumerGroupTargetAssignmentMemberValue,
    ),
    RecordType.CURRENT: (
        ConsumerGroupCurrentMemberAssignmentKey,
        current_msg.ConsumerGroupCurrentMemberAssignmentValue,
    ),
    RecordType.REGEX: (ConsumerGroupRegularExpressionKey, ConsumerGroupRegularExpressionValue),
}


# ------------------------------------------------------------------ encode


def _epoch_partitions(assignment: Mapping[uuid.UUID, Mapping[int, int]]) -> list[current_msg.TopicPartitions]:
    return [current_msg.TopicPartitions(t, ps, [assignment[t][p] for p in ps]) for t, ps in sorted_wire(assignment)]


def _value(record: Record) -> Message:
    v = record.value
    if isinstance(v, GroupEpochValue):
        return ConsumerGroupMetadataValue(v.epoch, v.metadata_hash)
    if isinstance(v, MemberValue):
        classic = None
        if v.classic is not None:
            classic = member_msg.ClassicMemberMetadata(
                v.classic.session_timeout_ms,
                [member_msg.ClassicProtocol(name, data) for name, data in v.classic.protocols],
            )
        return member_msg.ConsumerGroupMemberMetadataValue(
            instance_id=v.instance_id,
            rack_id=v.rack_id,
            client_id=v.client_id,
            client_host=v.client_host,
            subscribed_topic_names=sorted(v.subscribed_topic_names),
            subscribed_topic_regex=v.subscribed_topic_regex,
            rebalance_timeout_ms=v.rebalance_timeout_ms,
            server_assignor=v.server_assignor,
            classic_member_metadata=classic,
        )
    if isinstance(v, TargetMemberValue):
        return target_msg.ConsumerGroupTargetAssignmentMemberValue(
            [target_msg.TopicPartition(t, ps) for t, ps in sorted_wire(v.assignment)]
        )
    if isinstance(v, TargetEpochValue):
        return ConsumerGroupTargetAssignmentMetadataValue(v.epoch, max(v.timestamp_ms, 0))
    if isinstance(v, MemberAssignment):
        return current_msg.ConsumerGroupCurrentMemberAssignmentValue(
            member_epoch=v.member_epoch,
            previous_member_epoch=v.previous_member_epoch,
            state=int(v.state),
            assigned_partitions=_epoch_partitions(v.assigned),
            partitions_pending_revocation=_epoch_partitions(v.pending_revocation),
        )
    if isinstance(v, RegexValue):
        return ConsumerGroupRegularExpressionValue(sorted(v.topics), v.version, v.timestamp_ms)
    raise TypeError(f"no encoding for {type(v).__name__}")


def encode(record: Record) -> tuple[bytes, bytes | None]:
    """(key, value) bytes of ``record``; value None for a tombstone."""
    key = group_key(RECORD_TYPES[record.type][0], record.group_id, record.sub)
    value = None if record.value is None else _value(record)
    return frame_record(record.type, key, value, _VALUE_VERSION)


# ------------------------------------------------------------------ decode


def _epochs(topics: Iterable[current_msg.TopicPartitions], member_epoch: int) -> dict[uuid.UUID, dict[int, int]]:
    return assignment_epochs(((tp.topic_id, tp.partitions, tp.assignment_epochs) for tp in topics), member_epoch)


def _member_state(code: int) -> MemberState:
    try:
        return MemberState(code)
    except ValueError:
        return MemberState.UNKNOWN


def _typed_value(v: Message) -> Value | None:
    """The typed value of a record's value message (none for type 4: read and ignored)."""
    if isinstance(v, ConsumerGroupMetadataValue):
        return GroupEpochValue(v.epoch, v.metadata_hash)
    if isinstance(v, ConsumerGroupPartitionMetadataValue):
        return None
    if isinstance(v, member_msg.ConsumerGroupMemberMetadataValue):
        classic = None
        if v.classic_member_metadata is not None:
            classic = ClassicMemberMetadata(
                v.classic_member_metadata.session_timeout_ms,
                tuple((p.name, bytes(p.metadata)) for p in v.classic_member_metadata.supported_protocols),
            )
        return MemberValue(
            instance_id=v.instance_id,
            rack_id=v.rack_id,
            client_id=v.client_id,
            client_host=v.client_host,
            subscribed_topic_names=tuple(sorted(v.subscribed_topic_names)),
            subscribed_topic_regex=v.subscribed_topic_regex or None,
            rebalance_timeout_ms=v.rebalance_timeout_ms,
            server_assignor=v.server_assignor,
            classic=classic,
        )
    if isinstance(v, ConsumerGroupTargetAssignmentMetadataValue):
        return TargetEpochValue(v.assignment_epoch, v.assignment_timestamp)
    if isinstance(v, target_msg.ConsumerGroupTargetAssignmentMemberValue):
        return TargetMemberValue(merged_partitions((tp.topic_id, tp.partitions) for tp in v.topic_partitions))
    if isinstance(v, current_msg.ConsumerGroupCurrentMemberAssignmentValue):
        return MemberAssignment(
            v.member_epoch,
            v.previous_member_epoch,
            _member_state(v.state),
            _epochs(v.assigned_partitions, v.member_epoch),
            _epochs(v.partitions_pending_revocation, v.member_epoch),
        )
    assert isinstance(v, ConsumerGroupRegularExpressionValue)
    return RegexValue(tuple(sorted(v.topics)), v.version, v.timestamp)


def decode(key: bytes | memoryview, value: bytes | memoryview | None) -> Record | None:
    """The consumer-group record framed in ``key``/``value``, or None when the key
    is not a consumer-group record type (raises ProtocolError when malformed)."""
    decoded = decode_group_record(RECORD_TYPES, key, value)
    if decoded is None:
        return None
    record_type, group_id, sub, v = decoded
    return Record(RecordType(record_type), group_id, sub, None if v is None else _typed_value(v))
