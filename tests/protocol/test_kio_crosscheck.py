"""Cross-check our codecs against kio, Aiven's independent implementation of Kafka's schemas.

For every message-version that both implementations define with the same field
set (compared recursively: names, order, wire types, arrays, tags, nullability),
Hypothesis draws an instance of our class and checks both directions:

* encoded by us, kio decodes it to the kio instance converted field by field
  from ours;
* that kio instance, encoded by kio, decodes in ours to the original value,
  and both encoders produce the same bytes.

kio's representation differs from ours in ways the converter maps explicitly:
``*_ms`` durations are ``timedelta`` fields without the suffix
(``throttle_time_ms`` -> ``throttle_time``), ``LogAppendTimeMs`` is a nullable
``datetime`` (-1 -> None), error codes are the ``ErrorCode`` enum, arrays are
tuples, and a uuid field may be ``None`` for the all-zero uuid. Values the
kio types cannot represent (unknown error codes, negative timestamps other than
-1, durations beyond float precision) are not drawn for those fields.

Skipped (api, version) pairs, with the reason (checked by
``test_skipped_pairs_are_the_documented_ones``):

* versions Kafka 4.4 added that kio 0.6.5 does not know yet (``KIO_LAGS``:
  ApiVersions v5, DeleteGroups v3, TxnOffsetCommit v6, StreamsGroupHeartbeat
  v1, StreamsGroupDescribe v1) -- reason "kio 0.6.5 has no <name> v<version>";
  the round trips still cover them;
* APIs kio 0.6.5 has no schema for (``KIO_MISSING_APIS``:
  StreamsGroupTopologyDescriptionUpdate, new in Kafka 4.4) and the internal
  coordinator records (``COORDINATOR_RECORDS``) -- reason
  "kio 0.6.5 has no schema <name>".

Every other version of every API and header we define is cross-checked and
agrees. A field Kafka renamed without changing the wire (``KIO_RENAMES``:
TxnOffsetCommit's GenerationId, now GenerationIdOrMemberEpoch; the int32
AcceptableRecoveryLag of StreamsGroupHeartbeatResponse v0, now
AcceptableRecoveryLagLegacy) is paired by its old name.
"""

from __future__ import annotations

import dataclasses
import io
import types
import typing
from dataclasses import dataclass
from datetime import timedelta
from pkgutil import resolve_name
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from broker.protocol.messages import API_INDEX
from codegen.model import Field
from codegen.model import Message as Schema
from tests.protocol.strategies import (
    UUID_ZERO,
    message_class,
    message_strategy,
    normalise,
    schemas,
    struct_fields,
)

kio_index = pytest.importorskip("kio.schema.index")
from kio.schema.errors import ErrorCode  # noqa: E402
from kio.serial import entity_reader, entity_writer  # noqa: E402
from kio.serial.readers import tz_aware_from_i64  # noqa: E402
from kio.static.constants import EntityType  # noqa: E402
from kio.static.protocol import Entity  # noqa: E402

SETTINGS = settings(
    max_examples=10,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# kio's semantic wire types and the schema type each one is carried as
SEMANTIC = {"error_code": "int16", "timedelta_i32": "int32", "timedelta_i64": "int64", "datetime_i64": "int64"}
# kio types that may be None where the schema's field is not nullable (zero uuid, -1 timestamp)
NONE_FOR_SENTINEL = {"uuid", "datetime_i64"}
MAX_DATETIME_MS = 253402300799999  # 9999-12-31T23:59:59.999Z, the largest datetime
MAX_FLOAT_EXACT_MS = 2**45  # kio converts durations through float seconds
# Fields Kafka 4.4 renamed with no change on the wire; kio 0.6.5 keeps the old name.
KIO_RENAMES = {
    ("TxnOffsetCommitRequest", "generation_id_or_member_epoch"): "generation_id",
    ("StreamsGroupHeartbeatResponse", "acceptable_recovery_lag_legacy"): "acceptable_recovery_lag",
}


@dataclass(frozen=True)
class Pair:
    """One field as both implementations define it at one version."""

    ours: Field
    kio_name: str
    kafka_type: str | None  # None for struct fields
    optional: bool  # the kio annotation admits None
    entity: type | None  # the kio class of a struct field (or of its elements)


def _unwrap(annotation: Any) -> tuple[Any, bool, bool]:
    """(inner type, is_array, admits None) of a kio field annotation."""
    optional = False

    def strip(t: Any) -> Any:
        nonlocal optional
        if typing.get_origin(t) in (types.UnionType, typing.Union):
            args = [a for a in typing.get_args(t) if a is not type(None)]
            optional = True
            (t,) = args
        return t

    t = strip(annotation)
    is_array = typing.get_origin(t) is tuple
    if is_array:
        t = strip(typing.get_args(t)[0])
    return t, is_array, optional


def kio_entity(schema: Schema, version: int) -> tuple[type[Entity] | None, str]:
    """kio's class for ``schema`` at ``version``, or None and the reason it has none."""
    if schema.type in ("request", "response"):
        assert schema.api_key is not None, f"{schema.name} has no api key"
        key = API_INDEX[schema.api_key].request_module.removesuffix("_request")
        entity_type = EntityType[schema.type]
    else:
        key = schema.module_name
        entity_type = EntityType.header if schema.type == "header" else EntityType.data
    versions = kio_index.schema_name_map.get(key)
    if versions is None:
        return None, f"kio 0.6.5 has no schema {schema.name}"
    path = versions.get(version, {}).get(entity_type)
    if path is None:
        return None, f"kio 0.6.5 has no {schema.name} v{version}"
    return resolve_name(path), ""


def kio_class(schema: Schema, version: int) -> type[Entity]:
    """kio's class for ``schema`` at ``version``, which must exist."""
    cls, reason = kio_entity(schema, version)
    assert cls is not None, reason
    return cls


def pair_fields(schema: Schema, struct: str, version: int, kio_cls: type, out: dict[str, list[Pair]]) -> str:
    """Pair the fields of ``struct`` with kio's, recursively, into ``out``; return a disagreement or ''."""
    ours = [f for f in struct_fields(schema, struct) if f.present_in(version)]
    theirs = dataclasses.fields(kio_cls)
    where = f"{schema.name} v{version} {struct}"
    if len(ours) != len(theirs):
        return f"{where}: fields {[f.py_name for f in ours]} vs kio {[k.name for k in theirs]}"
    pairs = []
    for f, k in zip(ours, theirs):
        kafka_type = k.metadata.get("kafka_type")
        inner, is_array, optional = _unwrap(k.type)
        renamed = (kafka_type in SEMANTIC and kafka_type != "error_code" and f.py_name == k.name + "_ms") or (
            KIO_RENAMES.get((schema.name, f.py_name)) == k.name
        )
        if f.py_name != k.name and not renamed:
            return f"{where}: field {f.py_name} vs kio {k.name}"
        if is_array != f.is_array:
            return f"{where}.{f.py_name}: array in one, not in the other"
        if k.metadata.get("tag") != (f.tag if f.tagged_in(version) else None):
            return f"{where}.{f.py_name}: tag {f.tag} vs kio {k.metadata.get('tag')}"
        if f.is_struct:
            if not dataclasses.is_dataclass(inner):
                return f"{where}.{f.py_name}: struct vs kio {inner}"
        elif kafka_type is None or SEMANTIC.get(kafka_type, kafka_type) != f.element_type:
            return f"{where}.{f.py_name}: {f.element_type} vs kio {kafka_type}"
        if optional != f.nullable_in(version) and not (
            optional and (kafka_type in NONE_FOR_SENTINEL or f.tagged_in(version))
        ):
            return f"{where}.{f.py_name}: nullable {f.nullable_in(version)} vs kio {optional}"
        pairs.append(Pair(f, k.name, kafka_type, optional, inner if f.is_struct else None))
        if f.is_struct:
            if f.element_type in out:
                continue
            reason = pair_fields(schema, f.element_type, version, inner, out)
            if reason:
                return reason
    out[struct] = pairs
    return ""


def _plan() -> tuple[list[tuple[str, int]], dict[tuple[str, int], str]]:
    cases, skipped = [], {}
    for schema in schemas().values():
        for v in schema.versions():
            cls, reason = kio_entity(schema, v)
            if cls is not None:
                reason = pair_fields(schema, schema.name, v, cls, {})
            if reason:
                skipped[(schema.name, v)] = reason
            else:
                cases.append((schema.name, v))
    return cases, skipped


CASES, SKIPPED = _plan()

COORDINATOR_RECORDS = {
    "GroupMetadataKey": range(1),
    "GroupMetadataValue": range(5),
    "OffsetCommitKey": range(1),
    "OffsetCommitValue": range(5),
    "TransactionLogKey": range(1),
    "TransactionLogValue": range(2),
    **{
        f"{kind}{record}{part}": range(1)
        for kind, records in (
            (
                "ConsumerGroup",
                (
                    "CurrentMemberAssignment",
                    "MemberMetadata",
                    "Metadata",
                    "PartitionMetadata",
                    "RegularExpression",
                    "TargetAssignmentMember",
                    "TargetAssignmentMetadata",
                ),
            ),
            (
                "ShareGroup",
                (
                    "CurrentMemberAssignment",
                    "MemberMetadata",
                    "Metadata",
                    "StatePartitionMetadata",
                    "TargetAssignmentMember",
                    "TargetAssignmentMetadata",
                ),
            ),
            (
                "StreamsGroup",
                (
                    "CurrentMemberAssignment",
                    "MemberMetadata",
                    "Metadata",
                    "TargetAssignmentMember",
                    "TargetAssignmentMetadata",
                    "Topology",
                ),
            ),
            ("Share", ("Snapshot", "Update")),
        )
        for record in records
        for part in ("Key", "Value")
    },
}
# APIs Kafka 4.4 added that kio 0.6.5 has no schema for at all (KIP-1331).
KIO_MISSING_APIS = {
    "StreamsGroupTopologyDescriptionUpdateRequest": range(1),
    "StreamsGroupTopologyDescriptionUpdateResponse": range(1),
}
# Versions Kafka 4.4 added that kio 0.6.5 does not have yet: checked by the round trips only.
KIO_LAGS = {
    "ApiVersionsRequest": (5,),
    "ApiVersionsResponse": (5,),
    "DeleteGroupsRequest": (3,),
    "DeleteGroupsResponse": (3,),
    "TxnOffsetCommitRequest": (6,),
    "TxnOffsetCommitResponse": (6,),
    "StreamsGroupHeartbeatRequest": (1,),
    "StreamsGroupHeartbeatResponse": (1,),
    "StreamsGroupDescribeRequest": (1,),
    "StreamsGroupDescribeResponse": (1,),
}
DOCUMENTED_SKIPS = {
    (name, v): f"kio 0.6.5 has no schema {name}"
    for name, vs in (COORDINATOR_RECORDS | KIO_MISSING_APIS).items()
    for v in vs
} | {(name, v): f"kio 0.6.5 has no {name} v{v}" for name, vs in KIO_LAGS.items() for v in vs}


def test_skipped_pairs_are_the_documented_ones() -> None:
    assert SKIPPED == DOCUMENTED_SKIPS


def test_every_api_version_is_cross_checked() -> None:
    checked = set(CASES)
    for info in API_INDEX.values():
        for v in range(info.min_version, info.max_version + 1):
            for name in (info.request_class, info.response_class):
                assert (name, v) in checked or v in KIO_LAGS.get(name, ()) or v in KIO_MISSING_APIS.get(name, ())


# --- conversion ---------------------------------------------------------------------------


def _pairs(name: str, version: int) -> dict[str, list[Pair]]:
    schema = schemas()[name]
    cls = kio_class(schema, version)
    out: dict[str, list[Pair]] = {}
    assert pair_fields(schema, name, version, cls, out) == ""
    return out


def _primitive_to_kio(p: Pair, value: Any) -> Any:
    t = p.kafka_type
    if t == "error_code":
        return ErrorCode(value)
    if t in ("timedelta_i32", "timedelta_i64"):
        return timedelta(milliseconds=value)
    if t == "datetime_i64":
        return None if p.optional and value == -1 else tz_aware_from_i64(value)
    if t == "uuid":
        return None if p.optional and value == UUID_ZERO else value
    if t in ("bytes", "records"):
        return bytes(value)
    return value


def to_kio(obj: Any, kio_cls: type, struct: str, pairs: dict[str, list[Pair]]) -> Any:
    """Our instance of ``struct`` as an instance of kio's ``kio_cls``, field by field."""
    kwargs = {}
    for p in pairs[struct]:
        value = getattr(obj, p.ours.py_name)

        def one(x: Any, p: Pair = p) -> Any:
            if x is None:
                return None
            if p.entity is not None:
                return to_kio(x, p.entity, p.ours.element_type, pairs)
            return _primitive_to_kio(p, x)

        if p.ours.is_array:
            kwargs[p.kio_name] = None if value is None else tuple(one(x) for x in value)
        else:
            kwargs[p.kio_name] = one(value)
    return kio_cls(**kwargs)


def representable(pairs: dict[str, list[Pair]]):
    """Strategy overrides: only values kio's types can hold, for the fields that need it."""
    by_field = {(struct, p.ours.py_name): p for struct, ps in pairs.items() for p in ps}
    codes = st.sampled_from(sorted(int(e) for e in ErrorCode))

    def override(schema: Schema, struct: str, f: Field, version: int):
        p = by_field.get((struct, f.py_name))
        if p is None:
            return None
        if p.kafka_type == "error_code":
            return codes
        if p.kafka_type == "timedelta_i64":
            return st.integers(-MAX_FLOAT_EXACT_MS, MAX_FLOAT_EXACT_MS)
        if p.kafka_type == "datetime_i64":
            valid = st.integers(0, MAX_DATETIME_MS)
            return st.one_of(st.just(-1), valid) if p.optional else valid
        return None

    return override


def _kio_encode(kio_cls: type[Entity], value: Any) -> bytes:
    buf = io.BytesIO()
    entity_writer(kio_cls)(buf, value)
    return buf.getvalue()


@pytest.mark.parametrize(("name", "version"), CASES, ids=[f"{n}-v{v}" for n, v in CASES])
def test_crosscheck_with_kio(name: str, version: int) -> None:
    ours_cls = message_class(name)
    kio_cls = kio_class(schemas()[name], version)
    pairs = _pairs(name, version)

    @SETTINGS
    @given(message_strategy(name, version, overrides=representable(pairs)))
    def check(msg: Any) -> None:
        expected = to_kio(msg, kio_cls, name, pairs)
        encoded = msg.encode(version)

        # ours -> kio
        decoded, size = entity_reader(kio_cls)(encoded, 0)
        assert size == len(encoded)
        assert decoded == expected

        # kio -> ours
        kio_bytes = _kio_encode(kio_cls, expected)
        assert normalise(ours_cls.decode(kio_bytes, version)) == normalise(msg)
        assert kio_bytes == encoded

    check()
