# Generated from protocol/schemas/StreamsGroupHeartbeatResponse.json by codegen; do not edit.
"""StreamsGroupHeartbeatResponse: response, api key 88, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "Status",
    "TaskIds",
    "Endpoint",
    "TopicPartition",
    "EndpointToPartitions",
    "StreamsGroupHeartbeatResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>iiii')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>b')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>i')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>H')
_S4u = _S4.unpack_from
_S4p = _S4.pack
_S5 = Struct('>iiiq')
_S5u = _S5.unpack_from
_S5p = _S5.pack
_S6 = Struct('>?i')
_S6u = _S6.unpack_from
_S6p = _S6.pack
_S7 = Struct('>ii')
_S7u = _S7.unpack_from
_S7p = _S7.pack
_S8 = Struct('>iq')
_S8u = _S8.unpack_from
_S8p = _S8.pack
_S9 = Struct('>Bi')
_S9u = _S9.unpack_from
_S9p = _S9.pack


@dataclass(slots=True)
class Status:
    """Common structure Status."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'status_code': (0, 1), 'status_detail': (0, 1)}

    status_code: int = 0
    """Code of the status."""

    status_detail: str = ''
    """Human-readable detail of the status."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TaskIds:
    """Common structure TaskIds."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'subtopology_id': (0, 1), 'partitions': (0, 1)}

    subtopology_id: str = ''
    """Subtopology the tasks belong to."""

    partitions: list[int] = field(default_factory=list)
    """Task partitions, i.e. the input-topic partitions these tasks process."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Endpoint:
    """Common structure Endpoint."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'host': (0, 1), 'port': (0, 1)}

    host: str = ''
    """Host name of the endpoint."""

    port: int = 0
    """Port of the endpoint."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopicPartition:
    """Common structure TopicPartition."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (0, 1), 'partitions': (0, 1)}

    topic: str = ''
    """Name of the topic."""

    partitions: list[int] = field(default_factory=list)
    """Indexes of the topic's partitions."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class EndpointToPartitions:
    """Where each member's partitions are served for interactive queries, one entry per member (so an endpoint with several stream threads appears several times and its entries must be merged); null when unchanged since the last heartbeat."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'user_endpoint': (0, 1), 'active_partitions': (0, 1), 'standby_partitions': (0, 1)}

    user_endpoint: Endpoint = field(default_factory=Endpoint)
    """Endpoint of the member."""

    active_partitions: list[TopicPartition] = field(default_factory=list)
    """Source-topic partitions (repartition topics included) of the member's active tasks."""

    standby_partitions: list[TopicPartition] = field(default_factory=list)
    """Source-topic partitions (repartition topics included) of the member's standby and warm-up tasks."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class StreamsGroupHeartbeatResponse(Message):
    """StreamsGroupHeartbeatResponse, api key 88."""

    API_KEY: ClassVar[int] = 88
    NAME: ClassVar[str] = 'StreamsGroupHeartbeatResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 1), 'error_code': (0, 1), 'error_message': (0, 1), 'member_id': (0, 1), 'member_epoch': (0, 1), 'heartbeat_interval_ms': (0, 1), 'acceptable_recovery_lag_legacy': (0, 0), 'task_offset_interval_ms': (0, 1), 'acceptable_recovery_lag': (1, 1), 'status': (0, 1), 'active_tasks': (0, 1), 'standby_tasks': (0, 1), 'warmup_tasks': (0, 1), 'topology_description_required': (1, 1), 'endpoint_information_epoch': (0, 1), 'partitions_by_user_endpoint': (0, 1)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code for the whole response; 0 means success."""

    error_message: str | None = None
    """Error message for the whole response; null when no error occurred."""

    member_id: str = ''
    """Member ID, always the one the client generated."""

    member_epoch: int = 0
    """Epoch of the member."""

    heartbeat_interval_ms: int = 0
    """Interval between heartbeats, in milliseconds."""

    acceptable_recovery_lag_legacy: int = 0
    """Version 0's AcceptableRecoveryLag as an int32: how many offsets behind a member may be and still count as caught up for an active task."""

    task_offset_interval_ms: int = 0
    """How often, in milliseconds, the member reports its changelog offsets; they go with the first heartbeat after each interval."""

    acceptable_recovery_lag: int = -1
    """How many offsets behind a member may be and still count as caught up for an active task; -1 when the broker has no such setting."""

    status: list[Status] | None = field(default_factory=list)
    """Statuses currently in force for the group, if any."""

    active_tasks: list[TaskIds] | None = None
    """Active tasks assigned to the member; null when unchanged since the last heartbeat."""

    standby_tasks: list[TaskIds] | None = None
    """Standby tasks assigned to the member; null when unchanged since the last heartbeat."""

    warmup_tasks: list[TaskIds] | None = None
    """Warm-up tasks assigned to the member; null when unchanged since the last heartbeat."""

    topology_description_required: bool = False
    """The broker has no current topology description for the group; the client should send one with StreamsGroupTopologyDescriptionUpdate (KIP-1331)."""

    endpoint_information_epoch: int = 0
    """Epoch of the endpoint information in this response."""

    partitions_by_user_endpoint: list[EndpointToPartitions] | None = None
    """Where each member's partitions are served for interactive queries, one entry per member (so an endpoint with several stream threads appears several times and its entries must be merged); null when unchanged since the last heartbeat."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_Status_v0(buf, pos):
    f_status_code = _S2u(buf, pos)[0]
    pos += 1
    f_status_detail, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Status(f_status_code, f_status_detail, unknown), pos


def _d_TaskIds_v0(buf, pos):
    f_subtopology_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TaskIds(f_subtopology_id, f_partitions, unknown), pos


def _d_Endpoint_v0(buf, pos):
    f_host, pos = read_compact_string(buf, pos)
    f_port = _S4u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Endpoint(f_host, f_port, unknown), pos


def _d_TopicPartition_v0(buf, pos):
    f_topic, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicPartition(f_topic, f_partitions, unknown), pos


def _d_EndpointToPartitions_v0(buf, pos):
    f_user_endpoint, pos = _d_Endpoint_v0(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_active_partitions = []
    append = f_active_partitions.append
    for _ in range(n):
        item, pos = _d_TopicPartition_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_standby_partitions = []
    append = f_standby_partitions.append
    for _ in range(n):
        item, pos = _d_TopicPartition_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return EndpointToPartitions(f_user_endpoint, f_active_partitions, f_standby_partitions, unknown), pos


def _d_StreamsGroupHeartbeatResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_member_id, pos = read_compact_string(buf, pos)
    f_member_epoch, f_heartbeat_interval_ms, f_acceptable_recovery_lag_legacy, f_task_offset_interval_ms = _S1u(buf, pos)
    pos += 16
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_status = None
    else:
        f_status = []
        append = f_status.append
        for _ in range(n):
            item, pos = _d_Status_v0(buf, pos)
            append(item)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_active_tasks = None
    else:
        f_active_tasks = []
        append = f_active_tasks.append
        for _ in range(n):
            item, pos = _d_TaskIds_v0(buf, pos)
            append(item)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_standby_tasks = None
    else:
        f_standby_tasks = []
        append = f_standby_tasks.append
        for _ in range(n):
            item, pos = _d_TaskIds_v0(buf, pos)
            append(item)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_warmup_tasks = None
    else:
        f_warmup_tasks = []
        append = f_warmup_tasks.append
        for _ in range(n):
            item, pos = _d_TaskIds_v0(buf, pos)
            append(item)
    f_endpoint_information_epoch = _S3u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_partitions_by_user_endpoint = None
    else:
        f_partitions_by_user_endpoint = []
        append = f_partitions_by_user_endpoint.append
        for _ in range(n):
            item, pos = _d_EndpointToPartitions_v0(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StreamsGroupHeartbeatResponse(f_throttle_time_ms, f_error_code, f_error_message, f_member_id, f_member_epoch, f_heartbeat_interval_ms, f_acceptable_recovery_lag_legacy, f_task_offset_interval_ms, -1, f_status, f_active_tasks, f_standby_tasks, f_warmup_tasks, False, f_endpoint_information_epoch, f_partitions_by_user_endpoint, unknown), pos


def _d_StreamsGroupHeartbeatResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_member_id, pos = read_compact_string(buf, pos)
    f_member_epoch, f_heartbeat_interval_ms, f_task_offset_interval_ms, f_acceptable_recovery_lag = _S5u(buf, pos)
    pos += 20
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_status = None
    else:
        f_status = []
        append = f_status.append
        for _ in range(n):
            item, pos = _d_Status_v0(buf, pos)
            append(item)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_active_tasks = None
    else:
        f_active_tasks = []
        append = f_active_tasks.append
        for _ in range(n):
            item, pos = _d_TaskIds_v0(buf, pos)
            append(item)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_standby_tasks = None
    else:
        f_standby_tasks = []
        append = f_standby_tasks.append
        for _ in range(n):
            item, pos = _d_TaskIds_v0(buf, pos)
            append(item)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_warmup_tasks = None
    else:
        f_warmup_tasks = []
        append = f_warmup_tasks.append
        for _ in range(n):
            item, pos = _d_TaskIds_v0(buf, pos)
            append(item)
    f_topology_description_required, f_endpoint_information_epoch = _S6u(buf, pos)
    pos += 5
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_partitions_by_user_endpoint = None
    else:
        f_partitions_by_user_endpoint = []
        append = f_partitions_by_user_endpoint.append
        for _ in range(n):
            item, pos = _d_EndpointToPartitions_v0(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StreamsGroupHeartbeatResponse(f_throttle_time_ms, f_error_code, f_error_message, f_member_id, f_member_epoch, f_heartbeat_interval_ms, 0, f_task_offset_interval_ms, f_acceptable_recovery_lag, f_status, f_active_tasks, f_standby_tasks, f_warmup_tasks, f_topology_description_required, f_endpoint_information_epoch, f_partitions_by_user_endpoint, unknown), pos


def _e_Status_v0(o, out):
    out += _S2p(o.status_code)
    write_compact_string(out, o.status_detail)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TaskIds_v0(o, out):
    write_compact_string(out, o.subtopology_id)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Endpoint_v0(o, out):
    write_compact_string(out, o.host)
    out += _S4p(o.port)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopicPartition_v0(o, out):
    write_compact_string(out, o.topic)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_EndpointToPartitions_v0(o, out):
    _e_Endpoint_v0(o.user_endpoint, out)
    value = o.active_partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicPartition_v0(item, out)
    value = o.standby_partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicPartition_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_StreamsGroupHeartbeatResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    write_compact_string(out, o.member_id)
    out += _S1p(o.member_epoch, o.heartbeat_interval_ms, o.acceptable_recovery_lag_legacy, o.task_offset_interval_ms)
    value = o.status
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_Status_v0(item, out)
    value = o.active_tasks
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TaskIds_v0(item, out)
    value = o.standby_tasks
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TaskIds_v0(item, out)
    value = o.warmup_tasks
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TaskIds_v0(item, out)
    if o.topology_description_required:
        raise UnsupportedFieldError('StreamsGroupHeartbeatResponse v0 cannot carry a non-default TopologyDescriptionRequired')
    out += _S3p(o.endpoint_information_epoch)
    value = o.partitions_by_user_endpoint
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_EndpointToPartitions_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_StreamsGroupHeartbeatResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    write_compact_string(out, o.member_id)
    out += _S7p(o.member_epoch, o.heartbeat_interval_ms)
    if o.acceptable_recovery_lag_legacy != 0:
        raise UnsupportedFieldError('StreamsGroupHeartbeatResponse v1 cannot carry a non-default AcceptableRecoveryLagLegacy')
    out += _S8p(o.task_offset_interval_ms, o.acceptable_recovery_lag)
    value = o.status
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_Status_v0(item, out)
    value = o.active_tasks
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TaskIds_v0(item, out)
    value = o.standby_tasks
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TaskIds_v0(item, out)
    value = o.warmup_tasks
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TaskIds_v0(item, out)
    out += _S9p(o.topology_description_required, o.endpoint_information_epoch)
    value = o.partitions_by_user_endpoint
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_EndpointToPartitions_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


StreamsGroupHeartbeatResponse._DECODERS = {
    0: _d_StreamsGroupHeartbeatResponse_v0,
    1: _d_StreamsGroupHeartbeatResponse_v1,
}
StreamsGroupHeartbeatResponse._ENCODERS = {
    0: _e_StreamsGroupHeartbeatResponse_v0,
    1: _e_StreamsGroupHeartbeatResponse_v1,
}
