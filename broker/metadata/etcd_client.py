"""A small etcd v3 client over etcd's JSON gateway (``/v3/*``), on trio.

etcd serves its gRPC API as JSON over HTTP as well (the gRPC gateway, in every
etcd 3.4+); httpx speaks HTTP/1.1 under trio, so the broker needs no gRPC stack
and no asyncio bridge. What the cluster needs, and nothing more:

- ``range`` (one key or a prefix), ``put``, ``delete``, ``compact``, ``status``;
- ``txn``: compare-and-swap on a key's version, mod/create revision or value,
  with puts and deletes on success;
- leases: ``grant``, ``keep_alive`` (one round; the caller repeats it),
  ``revoke``;
- ``watch``: every event on a key range from a revision on, as an async
  iterator of event batches (one per etcd watch response).

Keys and values are bytes (the gateway carries them base64-encoded). Numbers
the gateway writes as strings (int64 in JSON) come back as ints; fields etcd
leaves out because they are zero come back as 0.

Endpoints are tried in order; one that cannot be reached is skipped until the
list wraps round. Every unary call has a deadline (``timeout_s``); failures to
reach any endpoint raise :class:`EtcdUnavailable`, answers etcd refuses raise
:class:`EtcdError` with etcd's gRPC code and message.

Every request requires a leader (etcd's ``hasleader`` metadata, as etcd's own
client sets on its watches): a member cut off from the others' quorum answers
"no leader" at once instead of holding a request until it times out, and cancels
a watch rather than leaving it open and silent. Such an answer (gRPC code 14,
UNAVAILABLE: no leader, leader changed, request timed out) counts as that
endpoint being unavailable, so the next member is tried: a client follows an
etcd leader change, or a member's isolation, without a restart.
"""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Compare",
    "EtcdClient",
    "EtcdCompacted",
    "EtcdError",
    "EtcdUnavailable",
    "KeyValue",
    "Op",
    "WatchEvent",
    "prefix_end",
]

# A unary call that has not answered after this long counts as etcd being away.
DEFAULT_TIMEOUT_S = 5.0
# gRPC code etcd uses for "requested lease not found" and friends.
NOT_FOUND = 5
# gRPC UNAVAILABLE: the member has no leader, lost it, or timed out waiting for one.
UNAVAILABLE = 14
# The gateway passes Grpc-Metadata-* headers on as gRPC metadata; etcd's servers then
# refuse requests (and cancel watches) on a member without a leader.
REQUIRE_LEADER = {"Grpc-Metadata-hasleader": "true"}


class EtcdUnavailable(Exception):
    """No endpoint answered (connection refused, timeout, broken stream)."""


class EtcdError(Exception):
    """etcd answered with an error (``code`` is the gRPC status code)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"etcd error {code}: {message}")
        self.code = code
        self.message = message


class EtcdCompacted(Exception):
    """A watch asked for revisions etcd has compacted away (read everything again)."""

    def __init__(self, compact_revision: int) -> None:
        super().__init__(f"revision compacted up to {compact_revision}")
        self.compact_revision = compact_revision


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: str | None) -> bytes:
    return base64.b64decode(text) if text else b""


def prefix_end(prefix: bytes) -> bytes:
    """The ``range_end`` that makes a range cover every key starting with ``prefix``."""
    end = bytearray(prefix)
    while end:
        if end[-1] < 0xFF:
            end[-1] += 1
            return bytes(end)
        end.pop()
    return b"\x00"  # every key


@dataclass(frozen=True, slots=True)
class KeyValue:
    key: bytes
    value: bytes
    create_revision: int
    mod_revision: int
    version: int
    lease: int

    @classmethod
    def from_json(cls, kv: dict[str, Any]) -> KeyValue:
        return cls(
            key=_unb64(kv.get("key")),
            value=_unb64(kv.get("value")),
            create_revision=int(kv.get("create_revision", 0)),
            mod_revision=int(kv.get("mod_revision", 0)),
            version=int(kv.get("version", 0)),
            lease=int(kv.get("lease", 0)),
        )


@dataclass(frozen=True, slots=True)
class WatchEvent:
    """``kv.value`` is empty for a delete; ``revision`` is the event's mod revision."""

    deleted: bool
    kv: KeyValue

    @property
    def revision(self) -> int:
        return self.kv.mod_revision


@dataclass(frozen=True, slots=True)
class Compare:
    """One txn condition: ``target`` of ``key`` compared with ``value``.

    ``target`` is VERSION, CREATE, MOD, VALUE or LEASE; ``result`` EQUAL,
    NOT_EQUAL, GREATER or LESS.
    """

    key: bytes
    target: str
    value: int | bytes
    result: str = "EQUAL"

    def to_json(self) -> dict[str, Any]:
        field = {"VERSION": "version", "CREATE": "create_revision", "MOD": "mod_revision", "LEASE": "lease"}
        out: dict[str, Any] = {"key": _b64(self.key), "target": self.target, "result": self.result}
        if self.target == "VALUE":
            assert isinstance(self.value, bytes)
            out["value"] = _b64(self.value)
        else:
            out[field[self.target]] = str(self.value)
        return out


@dataclass(frozen=True, slots=True)
class Op:
    """A txn operation: put (``value`` set) or delete (``value`` None) of ``key``, or of
    every key in [key, range_end) when ``range_end`` is given."""

    key: bytes
    value: bytes | None = None
    lease: int = 0
    range_end: bytes | None = None

    def to_json(self) -> dict[str, Any]:
        if self.value is None:
            delete = {"key": _b64(self.key)}
            if self.range_end is not None:
                delete["range_end"] = _b64(self.range_end)
            return {"request_delete_range": delete}
        put: dict[str, Any] = {"key": _b64(self.key), "value": _b64(self.value)}
        if self.lease:
            put["lease"] = str(self.lease)
        return {"request_put": put}


class EtcdClient:
    def __init__(self, endpoints: Sequence[str], *, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        if not endpoints:
            raise ValueError("no etcd endpoints")
        self.endpoints = [e.rstrip("/") if "://" in e else f"http://{e.rstrip('/')}" for e in endpoints]
        self.timeout_s = timeout_s
        self._current = 0
        # httpx (with its decoders and CLI, ~18 MiB) is imported by the first client, so a
        # single broker, which never talks to etcd, does not carry it.
        import httpx

        # Watches hold a connection each for as long as they run; unary calls share the rest.
        self._http = httpx.AsyncClient(
            timeout=httpx.Timeout(timeout_s), limits=httpx.Limits(max_connections=32), headers=REQUIRE_LEADER
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    # --- transport -------------------------------------------------------------------

    async def _call(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        import httpx  # loaded by __init__ already

        last: Exception | None = None
        for i in range(len(self.endpoints)):
            index = (self._current + i) % len(self.endpoints)
            url = self.endpoints[index] + path
            try:
                response = await self._http.post(url, json=body)
            except httpx.HTTPError as exc:
                last = exc
                continue
            doc = _decode(response.content)
            if response.status_code != 200 or "error" in doc:
                code, message = _error_of(doc)
                if code == UNAVAILABLE:
                    last = EtcdError(code, f"{self.endpoints[index]}: {message}")
                    continue
                self._current = index
                raise EtcdError(code, message)
            self._current = index
            return doc
        raise EtcdUnavailable(f"no etcd endpoint answered ({', '.join(self.endpoints)}): {last}")

    # --- key-value -------------------------------------------------------------------

    async def range(self, key: bytes, range_end: bytes | None = None) -> tuple[list[KeyValue], int]:
        """The keys in [key, range_end) (just ``key`` when None) and the store's revision."""
        body: dict[str, Any] = {"key": _b64(key)}
        if range_end is not None:
            body["range_end"] = _b64(range_end)
        doc = await self._call("/v3/kv/range", body)
        return [KeyValue.from_json(kv) for kv in doc.get("kvs", ())], int(doc["header"]["revision"])

    async def get(self, key: bytes) -> KeyValue | None:
        kvs, _ = await self.range(key)
        return kvs[0] if kvs else None

    async def get_prefix(self, prefix: bytes) -> tuple[list[KeyValue], int]:
        return await self.range(prefix, prefix_end(prefix))

    async def put(self, key: bytes, value: bytes, *, lease: int = 0) -> int:
        """Write ``key``; returns the revision of the write."""
        body: dict[str, Any] = {"key": _b64(key), "value": _b64(value)}
        if lease:
            body["lease"] = str(lease)
        doc = await self._call("/v3/kv/put", body)
        return int(doc["header"]["revision"])

    async def compact(self, revision: int) -> None:
        """Drop the history before ``revision`` (the current value of every key stays);
        a revision already compacted is no error."""
        try:
            await self._call("/v3/kv/compaction", {"revision": str(revision)})
        except EtcdError as exc:
            if "compacted" not in exc.message:
                raise

    async def status(self) -> dict[str, Any]:
        """The member's status (``dbSize``, ``dbSizeInUse``, ``header.revision``, ...)."""
        return await self._call("/v3/maintenance/status", {})

    async def delete(self, key: bytes, range_end: bytes | None = None) -> int:
        body: dict[str, Any] = {"key": _b64(key)}
        if range_end is not None:
            body["range_end"] = _b64(range_end)
        doc = await self._call("/v3/kv/deleterange", body)
        return int(doc.get("deleted", 0))

    async def txn(
        self, compare: Sequence[Compare], success: Sequence[Op], failure: Sequence[Op] = ()
    ) -> tuple[bool, int]:
        """Run ``success`` if every comparison holds, else ``failure``; returns
        (whether they held, the revision after the txn)."""
        body = {
            "compare": [c.to_json() for c in compare],
            "success": [o.to_json() for o in success],
            "failure": [o.to_json() for o in failure],
        }
        doc = await self._call("/v3/kv/txn", body)
        return bool(doc.get("succeeded", False)), int(doc["header"]["revision"])

    # --- leases ----------------------------------------------------------------------

    async def grant(self, ttl_s: int) -> int:
        doc = await self._call("/v3/lease/grant", {"TTL": str(ttl_s)})
        return int(doc["ID"])

    async def keep_alive(self, lease: int) -> int:
        """Refresh ``lease`` once; returns its TTL in seconds (0: the lease is gone)."""
        doc = await self._call("/v3/lease/keepalive", {"ID": str(lease)})
        return int(doc.get("result", {}).get("TTL", 0))

    async def revoke(self, lease: int) -> None:
        try:
            await self._call("/v3/lease/revoke", {"ID": str(lease)})
        except EtcdError as exc:
            if exc.code != NOT_FOUND:
                raise

    # --- watch -----------------------------------------------------------------------

    async def watch(
        self, key: bytes, range_end: bytes | None, start_revision: int
    ) -> AsyncGenerator[tuple[int, list[WatchEvent]], None]:
        """Every change to [key, range_end) from ``start_revision`` on, as
        (header revision, events) per etcd response. Raises EtcdUnavailable when the
        stream breaks, EtcdCompacted when ``start_revision`` is gone."""
        create: dict[str, Any] = {"key": _b64(key), "start_revision": str(start_revision), "progress_notify": True}
        if range_end is not None:
            create["range_end"] = _b64(range_end)
        url = self.endpoints[self._current] + "/v3/watch"
        # No read timeout on the stream: progress notifications arrive every few minutes
        # at most. A stream that went silent while etcd moved on is the caller's to notice
        # (ClusterMetadata compares revisions) and to close.
        import httpx  # loaded by __init__ already

        timeout = httpx.Timeout(self.timeout_s, read=None)
        try:
            async with self._http.stream("POST", url, json={"create_request": create}, timeout=timeout) as response:
                if response.status_code != 200:
                    raise EtcdUnavailable(f"watch refused with HTTP {response.status_code}")
                async for line in response.aiter_lines():
                    if not line.strip():
                        continue
                    doc = _decode(line.encode())
                    if "error" in doc:
                        raise EtcdUnavailable(f"watch failed: {_error_of(doc)[1]}")
                    result = doc.get("result", {})
                    compacted = int(result.get("compact_revision", 0))
                    if compacted:
                        raise EtcdCompacted(compacted)
                    if result.get("canceled"):
                        raise EtcdUnavailable(f"watch cancelled: {result.get('cancel_reason', '')}")
                    events = [
                        WatchEvent(e.get("type") == "DELETE", KeyValue.from_json(e.get("kv", {})))
                        for e in result.get("events", ())
                    ]
                    yield int(result.get("header", {}).get("revision", 0)), events
        except httpx.HTTPError as exc:
            self.next_endpoint()
            raise EtcdUnavailable(f"watch stream broke: {exc}") from exc
        except EtcdUnavailable:
            self.next_endpoint()
            raise
        self.next_endpoint()
        raise EtcdUnavailable("watch stream ended")

    def next_endpoint(self) -> None:
        """Start the next call (and watch) at the next endpoint: the current one's watch
        broke or went silent."""
        self._current = (self._current + 1) % len(self.endpoints)


def _error_of(doc: dict[str, Any]) -> tuple[int, str]:
    """(gRPC code, message) of an error answer: unary calls carry them at the top, streams
    (and the lease keep-alive) in an ``error`` object."""
    error = doc.get("error")
    if isinstance(error, dict):
        return int(error.get("grpc_code", 2)), str(error.get("message", ""))
    return int(doc.get("code", 2)), str(doc.get("message") or error)


def _decode(data: bytes) -> dict[str, Any]:
    try:
        doc = json.loads(data)
    except ValueError as exc:
        raise EtcdUnavailable(f"etcd answered something that is not JSON: {data[:80]!r}") from exc
    if not isinstance(doc, dict):
        raise EtcdUnavailable(f"etcd answered something that is not a JSON object: {data[:80]!r}")
    return doc
