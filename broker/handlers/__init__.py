"""The handler registry: one module per API, registered by api key and versions.

Each ``api_NN_name.py`` module declares its handler with :func:`handler`.
ApiVersions advertises exactly what is registered here, so advertised versions
cannot drift from what is implemented. Handler versions must lie inside the
schema's range (checked at registration).
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from broker.protocol.messages import API_INDEX

if TYPE_CHECKING:
    from broker.server.context import RequestContext

HandlerFn = Callable[["RequestContext", Any], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class Handler:
    api_key: int
    name: str
    min_version: int
    max_version: int
    handle: HandlerFn

    def supports(self, version: int) -> bool:
        return self.min_version <= version <= self.max_version


HANDLERS: dict[int, Handler] = {}

# Every handler module, in api-key order. Listed explicitly (not discovered by
# scanning the package) so start-up does no directory walks.
MODULES = (
    "api_00_produce",
    "api_01_fetch",
    "api_02_list_offsets",
    "api_03_metadata",
    "api_10_find_coordinator",
    "api_18_api_versions",
    "api_19_create_topics",
    "api_20_delete_topics",
    "api_21_delete_records",
    "api_22_init_producer_id",
    "api_32_describe_configs",
    "api_33_alter_configs",
    "api_37_create_partitions",
    "api_44_incremental_alter_configs",
    "api_60_describe_cluster",
    "api_75_describe_topic_partitions",
)


def handler(api_key: int, *, min_version: int | None = None, max_version: int | None = None):
    """Register the decorated coroutine as the handler for ``api_key``.

    Versions default to the full range of the schema.
    """
    info = API_INDEX[api_key]
    lo = info.min_version if min_version is None else min_version
    hi = info.max_version if max_version is None else max_version
    if not (info.min_version <= lo <= hi <= info.max_version):
        raise ValueError(f"{info.name}: versions {lo}-{hi} outside the schema's {info.min_version}-{info.max_version}")

    def register(fn: HandlerFn) -> HandlerFn:
        if api_key in HANDLERS:
            raise ValueError(f"{info.name} registered twice")
        HANDLERS[api_key] = Handler(api_key, info.name, lo, hi, fn)
        return fn

    return register


def load_all() -> dict[int, Handler]:
    """Import every handler module (idempotent) and return the registry."""
    for name in MODULES:
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
    return HANDLERS
