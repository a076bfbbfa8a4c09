"""Client telemetry (KIP-714): the broker side of GetTelemetrySubscriptions and PushTelemetry.

Each client instance (a producer, consumer or admin client with metrics push on)
asks which metrics to push; the answer combines the client metrics subscriptions
that match it (:class:`broker.metadata.client_metrics.ClientMetricsStore`). It then
pushes OpenTelemetry ``MetricsData`` (protobuf, compressed or not) every push
interval; the latest value of every data point is kept per instance and shown on
``/metrics`` as ``sharebroker_client_metric`` (labels: the instance, its client id
and software, the metric name and the point's attributes).

The checks are Kafka's (``ClientMetricsManager``): an all-zero instance id in a push
is INVALID_REQUEST; a push for an older subscription UNKNOWN_SUBSCRIPTION_ID (the
client asks again); a get or push sooner than the push interval after the last
one THROTTLING_QUOTA_EXCEEDED (a push right after a get is allowed: clients add
jitter); a payload over ``telemetry.max.bytes`` TELEMETRY_TOO_LARGE; a codec
outside the accepted ones UNSUPPORTED_COMPRESSION_TYPE; a push after a
terminating push INVALID_REQUEST; a payload that does not decode INVALID_RECORD.
The core is pure: callers pass the time.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field

from broker.metadata.client_metrics import ClientMetricsStore, ClientSubscription
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["ACCEPTED_COMPRESSION", "ClientTelemetry", "Point", "decode_metrics"]

# What Kafka's broker accepts: zstd, lz4, gzip, snappy (in its order of preference).
ACCEPTED_COMPRESSION = (4, 3, 1, 2)
# Client instances remembered at once: Kafka's cache size (CLIENT_METRICS cache, 16,384);
# the least recently seen is forgotten first, so a storm of short-lived clients costs at
# most this many entries.
MAX_INSTANCES = 16_384
# An instance not heard from for this many push intervals is forgotten with its points
# (Kafka expires instances after three intervals).
EXPIRY_INTERVALS = 3
# Data points kept per instance: a Java producer pushes ~150; this bounds a client that
# pushes far more distinct attribute sets.
MAX_POINTS_PER_INSTANCE = 5_000


@dataclass(frozen=True, slots=True)
class Point:
    metric: str
    attributes: tuple[tuple[str, str], ...]
    value: float


def _attr_value(v: object) -> str:
    for kind in ("string_value", "int_value", "double_value", "bool_value"):
        if v.HasField(kind):  # type: ignore[attr-defined]
            return str(getattr(v, kind))
    return ""


def decode_metrics(data: bytes) -> list[Point]:
    """The data points of an OTLP ``MetricsData`` message (gauges and sums; histograms
    as their count and sum). Raises KafkaError(INVALID_RECORD) when it does not decode."""
    # opentelemetry-proto: the OTLP message classes, maintained with the specification.
    from google.protobuf.message import DecodeError
    from opentelemetry.proto.metrics.v1 import metrics_pb2

    msg = metrics_pb2.MetricsData()
    try:
        msg.ParseFromString(data)
    except DecodeError as exc:
        raise KafkaError(ErrorCode.INVALID_RECORD, f"metrics do not decode as OTLP MetricsData: {exc}") from exc
    out: list[Point] = []
    for rm in msg.resource_metrics:
        for sm in rm.scope_metrics:
            for m in sm.metrics:
                out.extend(_points(m))
    return out


def _points(m: object) -> Iterator[Point]:
    kind = m.WhichOneof("data")  # type: ignore[attr-defined]
    name = m.name  # type: ignore[attr-defined]
    if kind in ("gauge", "sum"):
        for dp in getattr(m, kind).data_points:
            attrs = tuple(sorted((a.key, _attr_value(a.value)) for a in dp.attributes))
            value = dp.as_double if dp.WhichOneof("value") == "as_double" else float(dp.as_int)
            yield Point(name, attrs, value)
    elif kind in ("histogram", "summary"):
        for dp in getattr(m, kind).data_points:
            attrs = tuple(sorted((a.key, _attr_value(a.value)) for a in dp.attributes))
            yield Point(name + ".count", attrs, float(dp.count))
            yield Point(name + ".sum", attrs, float(dp.sum))


@dataclass(slots=True)
class Instance:
    client: dict[str, str]
    subscription: ClientSubscription
    last_get_ms: int = -1
    last_push_ms: int = -1
    last_seen_ms: int = 0
    terminating: bool = False
    points: dict[tuple[str, tuple[tuple[str, str], ...]], float] = field(default_factory=dict)


class ClientTelemetry:
    def __init__(self, store: ClientMetricsStore, *, max_bytes: int = 1_048_576) -> None:
        self._store = store
        self.max_bytes = max_bytes
        self._instances: OrderedDict[uuid.UUID, Instance] = OrderedDict()

    def _instance(self, instance_id: uuid.UUID, client: dict[str, str], now_ms: int) -> Instance:
        inst = self._instances.get(instance_id)
        client = {**client, "client_instance_id": str(instance_id)}
        if inst is None:
            inst = Instance(client, self._store.subscription_for(client))
            self._instances[instance_id] = inst
            while len(self._instances) > MAX_INSTANCES:
                self._instances.popitem(last=False)
        self._instances.move_to_end(instance_id)
        inst.last_seen_ms = now_ms
        return inst

    def get_subscription(
        self, instance_id: uuid.UUID, client: dict[str, str], now_ms: int
    ) -> tuple[uuid.UUID, ClientSubscription]:
        """GetTelemetrySubscriptions: (the instance id, given one when it was zero; its
        subscription). Raises KafkaError(THROTTLING_QUOTA_EXCEEDED) when asked too soon."""
        self.expire(now_ms)
        if instance_id.int == 0:
            instance_id = uuid.uuid4()
        inst = self._instance(instance_id, client, now_ms)
        current = self._store.subscription_for(inst.client)
        changed = current.subscription_id != inst.subscription.subscription_id
        last = max(inst.last_get_ms, inst.last_push_ms)
        if not changed and last >= 0 and now_ms - last < inst.subscription.interval_ms and not inst.terminating:
            raise _too_soon(instance_id)
        inst.subscription = current
        inst.last_get_ms = now_ms
        inst.terminating = False
        return instance_id, current

    def push(
        self,
        instance_id: uuid.UUID,
        subscription_id: int,
        terminating: bool,
        compression: int,
        metrics: bytes,
        client: dict[str, str],
        now_ms: int,
    ) -> None:
        """PushTelemetry: keep the pushed points (raises KafkaError with Kafka's codes)."""
        if instance_id.int == 0:
            raise KafkaError(
                ErrorCode.INVALID_REQUEST,
                f"Invalid request from the client [{instance_id}], invalid client instance id",
            )
        inst = self._instance(instance_id, client, now_ms)
        if inst.terminating:
            raise KafkaError(
                ErrorCode.INVALID_REQUEST,
                f"Client [{instance_id}] sent the previous request with state terminated, ignoring the request",
            )
        current = self._store.subscription_for(inst.client)
        if subscription_id != inst.subscription.subscription_id or current.subscription_id != subscription_id:
            raise KafkaError(ErrorCode.UNKNOWN_SUBSCRIPTION_ID, f"Unknown client subscription id {subscription_id}")
        accept = inst.last_get_ms > inst.last_push_ms or (
            now_ms - max(inst.last_get_ms, inst.last_push_ms) >= inst.subscription.interval_ms
        )
        if not accept and not terminating:
            raise _too_soon(instance_id)
        inst.last_push_ms = now_ms
        inst.terminating = terminating
        if len(metrics) > self.max_bytes:
            raise KafkaError(
                ErrorCode.TELEMETRY_TOO_LARGE,
                f"Telemetry request from [{instance_id}] is larger than the maximum allowed size [{self.max_bytes}]",
            )
        if compression != 0 and compression not in ACCEPTED_COMPRESSION:
            raise KafkaError(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, f"Unknown compression type: {compression}")
        if compression != 0:
            from broker.protocol.compression import decompress

            metrics = decompress(compression, metrics, max_size=8 * self.max_bytes)
        for p in decode_metrics(bytes(metrics)):
            key = (p.metric, p.attributes)
            if key in inst.points or len(inst.points) < MAX_POINTS_PER_INSTANCE:
                inst.points[key] = p.value

    def expire(self, now_ms: int) -> None:
        """Forget instances silent for EXPIRY_INTERVALS push intervals."""
        for instance_id, inst in list(self._instances.items()):
            if now_ms - inst.last_seen_ms > EXPIRY_INTERVALS * inst.subscription.interval_ms:
                del self._instances[instance_id]

    def samples(self, now_ms: int) -> list[tuple[dict[str, str], float]]:
        """Every kept point with its labels, for ``/metrics``."""
        self.expire(now_ms)
        out = []
        for instance_id, inst in self._instances.items():
            base = {
                "client_instance_id": str(instance_id),
                "client_id": inst.client.get("client_id", ""),
                "client_software_name": inst.client.get("client_software_name", ""),
            }
            for (metric, attrs), value in sorted(inst.points.items()):
                labels = {**base, "metric": metric}
                for k, v in attrs:
                    labels.setdefault(_label(k), v)
                out.append((labels, value))
        return out


def _too_soon(instance_id: uuid.UUID) -> KafkaError:
    """A request before the instance's next push interval (Kafka's THROTTLING_QUOTA_EXCEEDED)."""
    return KafkaError(
        ErrorCode.THROTTLING_QUOTA_EXCEEDED,
        f"Request from the client [{instance_id}] arrived before the next push interval time",
    )


def _label(key: str) -> str:
    """An OTLP attribute key as a Prometheus label name."""
    text = "".join(c if c.isalnum() or c == "_" else "_" for c in key)
    return text if text and not text[0].isdigit() else "_" + text
