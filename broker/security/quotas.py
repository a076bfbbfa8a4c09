"""Client quotas: their configuration (Describe/AlterClientQuotas) and byte-rate throttling.

Quotas are set per entity, as in Kafka: a user, a client id, or both (each may be
the type's default, a null name), or an IP. The keys are Kafka's:
``producer_byte_rate`` and ``consumer_byte_rate`` (bytes per second, enforced on
Produce and Fetch), ``request_percentage`` and ``controller_mutation_rate``
(stored and described; not enforced), ``connection_creation_rate`` (IP entities;
stored and described; not enforced).

For a request, the quota comes from the first entity of Kafka's precedence that
has the key: user+client-id, user+default client, user, default user+client-id,
default user+default client, default user, client-id, default client. Bytes are
counted against that entity, so clients sharing it share the rate.

:class:`ByteRates` measures like Kafka's sampled Rate: ``quota.window.num``
samples of ``quota.window.size.seconds``; the rate is the bytes in the live samples
over the time they cover (never less than ``samples - 1`` full windows, so a burst
right after start is not measured over a tiny interval). A request that takes a
rate above its quota gets a throttle time of ``(rate - quota) / quota * window``
milliseconds (capped at the whole window), which the broker reports in the
response and honours by not reading from that connection meanwhile (KIP-219).
Pure: the clock is passed in.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from broker.protocol.errors import ErrorCode

__all__ = [
    "BYTE_RATE_KEYS",
    "QUOTA_KEYS",
    "AlterEntry",
    "ByteRates",
    "ClientQuotas",
    "Entity",
    "entity_from_parts",
]

USER, CLIENT_ID, IP = "user", "client-id", "ip"
ENTITY_TYPES = (USER, CLIENT_ID, IP)
USER_CLIENT_KEYS = frozenset(
    {"producer_byte_rate", "consumer_byte_rate", "request_percentage", "controller_mutation_rate"}
)
IP_KEYS = frozenset({"connection_creation_rate"})
QUOTA_KEYS = USER_CLIENT_KEYS | IP_KEYS
BYTE_RATE_KEYS = frozenset({"producer_byte_rate", "consumer_byte_rate"})

Entity = tuple[tuple[str, str | None], ...]
"""((entity type, name or None for the default), ...), sorted by type."""


def entity_from_parts(parts: Iterable[tuple[str, str | None]]) -> Entity:
    return tuple(sorted(parts, key=lambda p: p[0]))


@dataclass(frozen=True, slots=True)
class AlterEntry:
    entity: Sequence[tuple[str, str | None]]
    ops: Sequence[tuple[str, float, bool]]  # (key, value, remove)


def _validate(parts: Sequence[tuple[str, str | None]], ops: Sequence[tuple[str, float, bool]]) -> str | None:
    if not parts:
        return "Invalid empty client quota entity"
    types = [t for t, _ in parts]
    if len(set(types)) != len(types):
        return f"Duplicate entity type {sorted(t for t in types if types.count(t) > 1)[0]}"
    for t, name in parts:
        if t not in ENTITY_TYPES:
            return f"Unhandled client quota entity type: {t}"
        if name is not None and not name and t != CLIENT_ID:
            return f"Invalid empty entity name for type {t}"
    if IP in types and len(types) > 1:
        return "Invalid quota entity combination, IP entity should not be combined with User or ClientId"
    allowed = IP_KEYS if IP in types else USER_CLIENT_KEYS
    for key, value, remove in ops:
        if key not in allowed:
            return f"Invalid configuration key {key}"
        if not remove and (not math.isfinite(value) or value <= 0):
            return f"Invalid value {value} for configuration key {key}: it must be positive"
    return None


class ClientQuotas:
    """The configured quotas: {entity: {key: value}}."""

    def __init__(self, quotas: Mapping[Entity, Mapping[str, float]] | None = None) -> None:
        self.quotas: dict[Entity, dict[str, float]] = {e: dict(v) for e, v in (quotas or {}).items()}
        self._refresh()

    def _refresh(self) -> None:
        self.has_byte_rates = any(BYTE_RATE_KEYS & set(v) for v in self.quotas.values())

    def replace(self, quotas: Mapping[Entity, Mapping[str, float]]) -> None:
        self.quotas = {e: dict(v) for e, v in quotas.items() if v}
        self._refresh()

    # ---- AlterClientQuotas

    def prepare_alter(
        self, entries: Sequence[AlterEntry]
    ) -> tuple[list[tuple[int, str | None]], dict[Entity, dict[str, float]]]:
        """Per-entry (error code, message) and the quotas after the valid entries apply."""
        after = {e: dict(v) for e, v in self.quotas.items()}
        results: list[tuple[int, str | None]] = []
        for entry in entries:
            problem = _validate(entry.entity, entry.ops)
            if problem is not None:
                results.append((ErrorCode.INVALID_REQUEST, problem))
                continue
            entity = entity_from_parts(entry.entity)
            values = after.setdefault(entity, {})
            for key, value, remove in entry.ops:
                if remove:
                    values.pop(key, None)
                else:
                    values[key] = float(value)
            if not values:
                after.pop(entity, None)
            results.append((ErrorCode.NONE, None))
        return results, after

    # ---- DescribeClientQuotas

    def describe(
        self, components: Sequence[tuple[str, int, str | None]], strict: bool
    ) -> tuple[int, str | None, list[tuple[Entity, dict[str, float]]]]:
        """(error code, message, matching entities) for filter components (type, match type, match)."""
        for t, match_type, _ in components:
            if t not in ENTITY_TYPES:
                return ErrorCode.INVALID_REQUEST, f"Custom entity type {t} not supported", []
            if match_type not in (0, 1, 2):
                return ErrorCode.INVALID_REQUEST, f"Unknown match type {match_type}", []
        types = [t for t, _, _ in components]
        if len(set(types)) != len(types):
            return ErrorCode.INVALID_REQUEST, "Duplicate entity type in the filter", []
        out = []
        for entity, values in self.quotas.items():
            parts = dict(entity)
            ok = True
            for t, match_type, match in components:
                if t not in parts:
                    ok = False
                elif match_type == 0:
                    ok = parts[t] == match
                elif match_type == 1:
                    ok = parts[t] is None
                else:
                    ok = parts[t] is not None
                if not ok:
                    break
            if ok and strict and set(parts) - set(types):
                ok = False
            if ok:
                out.append((entity, dict(values)))
        return ErrorCode.NONE, None, out

    # ---- enforcement

    def resolve(self, user: str, client_id: str, key: str) -> tuple[Entity, float] | None:
        """The entity whose quota applies to (user, client id) for ``key`` (Kafka's precedence)."""
        u, c = (USER, user), (CLIENT_ID, client_id)
        du, dc = (USER, None), (CLIENT_ID, None)
        for entity in (
            (c, u),
            (dc, u),
            (u,),
            (c, du),
            (dc, du),
            (du,),
            (c,),
            (dc,),
        ):
            values = self.quotas.get(entity_from_parts(entity))
            if values is not None and key in values:
                return entity_from_parts(entity), values[key]
        return None


class ByteRates:
    """Bytes per second per quota entity over sampled windows (Kafka's Rate); pure."""

    def __init__(self, samples: int = 11, window_ms: int = 1000) -> None:
        self.samples = samples
        self.window_ms = window_ms
        self._windows: dict[tuple[str, Entity], deque[list[int]]] = {}

    def _live(self, key: tuple[str, Entity], now_ms: int) -> deque[list[int]]:
        windows = self._windows.setdefault(key, deque())
        horizon = now_ms - self.samples * self.window_ms
        while windows and windows[0][0] <= horizon:
            windows.popleft()
        return windows

    def _rate(self, windows: deque[list[int]], now_ms: int) -> tuple[float, float]:
        """(bytes per second, the window in ms the rate is measured over)."""
        total = sum(w[1] for w in windows)
        elapsed = now_ms - windows[0][0] if windows else 0
        full = elapsed // self.window_ms
        if full < self.samples - 1:
            elapsed += (self.samples - 1 - full) * self.window_ms
        elapsed = max(elapsed, 1)
        return total * 1000 / elapsed, elapsed

    def record(self, kind: str, entity: Entity, size: int, quota: float, now_ms: int) -> int:
        """Count ``size`` bytes; the throttle time in ms (0 when within the quota)."""
        key = (kind, entity)
        windows = self._live(key, now_ms)
        if not windows or now_ms - windows[-1][0] >= self.window_ms:
            windows.append([now_ms, 0])
        windows[-1][1] += size
        rate, window = self._rate(windows, now_ms)
        if rate <= quota:
            return 0
        throttle = (rate - quota) / quota * window
        return int(min(round(throttle), self.samples * self.window_ms))

    def unrecord(self, kind: str, entity: Entity, size: int, now_ms: int) -> None:
        """Take back bytes that were not sent after all (a throttled Fetch is answered empty)."""
        windows = self._live((kind, entity), now_ms)
        if windows:
            windows[-1][1] = max(0, windows[-1][1] - size)
