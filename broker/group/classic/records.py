"""The classic groups' record of ``__consumer_offsets``: GroupMetadata (type 2).

Written as Kafka 4.x writes it (GroupMetadataValue v3, the newest non-flexible
version); :func:`broker.group.offsets.decode_record` reads it back, beside the
offset commits it shares the key namespace with.
"""

from __future__ import annotations

from broker.group.offsets import RecordType, frame
from broker.protocol.messages.group_metadata_key import GroupMetadataKey
from broker.protocol.messages.group_metadata_value import GroupMetadataValue

__all__ = ["GROUP_VALUE_VERSION", "group_metadata_record"]

GROUP_VALUE_VERSION = 3


def group_metadata_record(group: str, value: GroupMetadataValue | None) -> tuple[bytes, bytes | None]:
    """(key, value) of a GroupMetadata record; ``value`` None builds the tombstone."""
    key = frame(RecordType.GROUP_METADATA, GroupMetadataKey(group=group).encode(0))
    if value is None:
        return key, None
    return key, frame(GROUP_VALUE_VERSION, value.encode(GROUP_VALUE_VERSION))
